//! Ordering-based search (OBS, Teyssier & Koller 2005, as used in Scanagatta et al. 2015, §4): for a
//! total order, every node takes its best candidate whose parents all precede it. The
//! result is acyclic by construction and costs O(Ck) for C candidates of size ≤ k.

use super::network::Network;
use bnsl_formulations::ScoreTable;

/// The best network consistent with `order` (parents before children), or `None` when
/// some node has no candidate within its predecessors (a candidate list without the empty
/// set).
pub fn obs_network(table: &ScoreTable, order: &[usize]) -> Option<Network> {
    let pos = positions(order);
    let mut choice = vec![0; table.n()];
    for &v in order {
        choice[v] = best_before(table, v, &pos, pos[v])?;
    }
    Some(Network::from_choice(table, choice))
}

/// The position of every node in `order`.
pub(super) fn positions(order: &[usize]) -> Vec<usize> {
    let mut pos = vec![0; order.len()];
    for (i, &v) in order.iter().enumerate() {
        pos[v] = i;
    }
    pos
}

/// Index of the best candidate of `v` whose parents all sit before position `limit`.
pub(super) fn best_before(
    table: &ScoreTable,
    v: usize,
    pos: &[usize],
    limit: usize,
) -> Option<usize> {
    table
        .candidates(v)
        .iter()
        .position(|c| c.parents.iter().all(|p| pos[p] < limit))
}

/// The best candidate of `v` (at position `limit`, choosing `choice` now) once `gained`
/// precedes it as well: a better candidate containing `gained` with every other parent
/// before `limit`, or `choice` itself.
pub(super) fn best_gaining(
    table: &ScoreTable,
    v: usize,
    pos: &[usize],
    limit: usize,
    gained: usize,
    choice: usize,
) -> usize {
    table.candidates(v)[..choice]
        .iter()
        .position(|c| {
            c.parents.contains(gained) && c.parents.iter().all(|p| p == gained || pos[p] < limit)
        })
        .unwrap_or(choice)
}

/// The best candidate of `v` (at position `limit`, choosing `choice` now) once `lost` no
/// longer precedes it: `choice` if it does not hold `lost`, else the best candidate
/// without `lost` with every parent before `limit` (never a better one than `choice`,
/// as the allowed parents only shrink), or `None` when none is left.
pub(super) fn best_losing(
    table: &ScoreTable,
    v: usize,
    pos: &[usize],
    limit: usize,
    lost: usize,
    choice: usize,
) -> Option<usize> {
    let candidates = table.candidates(v);
    if !candidates[choice].parents.contains(lost) {
        return Some(choice);
    }
    candidates[choice..]
        .iter()
        .position(|c| !c.parents.contains(lost) && c.parents.iter().all(|p| pos[p] < limit))
        .map(|k| choice + k)
}
