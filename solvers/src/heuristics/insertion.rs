//! The insertion local search over orders (the neighbourhood of Alonso-Barba et al. 2011
//! and of Lee & van Beek's INOBS, 2017): a move takes one node out of the order and puts
//! it back at any other position; the network is the OBS network of the order (every
//! node takes its best candidate among its predecessors). Adjacent swaps (Scanagatta et al. 2015)
//! are the moves of one position, so this neighbourhood contains theirs.
//!
//! Moving v from position i to j changes only v's predecessors and those of the nodes v
//! jumps over: moving it earlier gives each jumped node v as a possible parent, moving it
//! later takes v away from them. Scanning j outwards from i, the jumped nodes' changes add
//! up one node at a time, so all moves of v cost O(n·c) for c candidates per node, and a
//! pass over every node O(n²·c).

use super::budget::Budget;
use super::network::Network;
use super::obs::{best_before, best_gaining, best_losing, obs_network, positions};
use bnsl_formulations::ScoreTable;

/// A score change counts as an improvement only above this relative tolerance, so
/// rounding never makes the search move a node back and forth.
const IMPROVEMENT_TOLERANCE: f64 = 1e-12;

/// Hill-climbs from `order` by moving, for each node in turn, that node to the position
/// that improves the OBS score most; stops when a pass over every node improves nothing,
/// or (between two nodes) once `budget` is spent. Returns the final order and its OBS network, or `None` when `order`
/// admits no network (see [`obs_network`]).
pub(super) fn insertion_search(
    table: &ScoreTable,
    mut order: Vec<usize>,
    budget: &Budget,
) -> Option<(Vec<usize>, Network)> {
    let mut net = obs_network(table, &order)?;
    loop {
        let mut improved = false;
        for v in 0..order.len() {
            if budget.is_spent() {
                return Some((order, net));
            }
            let pos = positions(&order);
            if let Some(best) = best_move(table, &order, &pos, &net, v) {
                let before = net.score;
                apply(table, &mut order, &mut net, pos[v], best);
                // The network is rescored from scratch after each move; a move that the
                // rescoring does not confirm as a gain ends the search, so rounding can
                // never make it cycle.
                improved = net.score > before;
                if !improved {
                    break;
                }
            }
        }
        if !improved {
            break;
        }
    }
    Some((order, net))
}

/// The target position of `v`'s best improving move, if any.
fn best_move(
    table: &ScoreTable,
    order: &[usize],
    pos: &[usize],
    net: &Network,
    v: usize,
) -> Option<usize> {
    let i = pos[v];
    let current = |u: usize| table.candidates(u)[net.choice[u]].score;
    let scale = net.score.abs().max(1.0);
    let mut best: Option<(f64, usize)> = None;
    let mut consider = |delta: f64, j: usize| {
        if delta > IMPROVEMENT_TOLERANCE * scale && best.is_none_or(|(d, _)| delta > d) {
            best = Some((delta, j));
        }
    };
    // Earlier: the nodes at j..i-1 may now take v as a parent; v keeps what precedes j.
    let mut jumped = 0.0;
    for j in (0..i).rev() {
        let u = order[j];
        let gaining = best_gaining(table, u, pos, j, v, net.choice[u]);
        jumped += table.candidates(u)[gaining].score - current(u);
        if let Some(own) = best_before(table, v, pos, j) {
            consider(jumped + table.candidates(v)[own].score - current(v), j);
        }
    }
    // Later: the nodes at i+1..=j lose v as a parent; v may take any of them.
    let mut jumped = 0.0;
    for (j, &u) in order.iter().enumerate().skip(i + 1) {
        match best_losing(table, u, pos, j, v, net.choice[u]) {
            Some(losing) => jumped += table.candidates(u)[losing].score - current(u),
            None => break,
        }
        if let Some(own) = best_before(table, v, pos, j + 1) {
            consider(jumped + table.candidates(v)[own].score - current(v), j);
        }
    }
    best.map(|(_, j)| j)
}

/// Moves the node at position `i` to position `j`, re-chooses the parent sets of every
/// node whose predecessors changed (those between the two positions) and rescores the
/// network from scratch.
fn apply(table: &ScoreTable, order: &mut Vec<usize>, net: &mut Network, i: usize, j: usize) {
    let v = order.remove(i);
    order.insert(j, v);
    let pos = positions(order);
    for &u in &order[i.min(j)..=i.max(j)] {
        net.choice[u] = best_before(table, u, &pos, pos[u]).expect("a move keeps a network");
    }
    *net = Network::from_choice(table, std::mem::take(&mut net.choice));
}
