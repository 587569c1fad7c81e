//! Ordering-based search (OBS, Teyssier & Koller 2005, as used in seed 001 §4): for a
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
pub fn positions(order: &[usize]) -> Vec<usize> {
    let mut pos = vec![0; order.len()];
    for (i, &v) in order.iter().enumerate() {
        pos[v] = i;
    }
    pos
}

/// Index of the best candidate of `v` whose parents all sit before position `limit`.
pub fn best_before(table: &ScoreTable, v: usize, pos: &[usize], limit: usize) -> Option<usize> {
    table
        .candidates(v)
        .iter()
        .position(|c| c.parents.iter().all(|p| pos[p] < limit))
}
