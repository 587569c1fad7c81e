//! Greedy elimination orders: upper bounds on the treewidth.

use super::{eliminate, Graph};
use std::collections::BTreeSet;

/// The rule a greedy elimination order picks its next node by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Greedy {
    /// The node whose elimination adds the fewest fill edges (ties: fewest neighbours,
    /// then lowest index).
    MinFill,
    /// The node with the fewest neighbours (ties: lowest index).
    MinDegree,
}

/// An elimination order of `graph` built by `rule`; its width
/// ([`Graph::elimination_width`]) bounds the treewidth from above.
pub fn greedy_order(graph: &Graph, rule: Greedy) -> Vec<usize> {
    let n = graph.n();
    let mut adjacent: Vec<BTreeSet<usize>> = (0..n).map(|v| graph.neighbours(v).clone()).collect();
    let mut left: BTreeSet<usize> = (0..n).collect();
    let mut order = Vec::with_capacity(n);
    while let Some(v) = pick(&adjacent, &left, rule) {
        eliminate(&mut adjacent, v);
        left.remove(&v);
        order.push(v);
    }
    order
}

/// The next node to eliminate among `left`.
fn pick(adjacent: &[BTreeSet<usize>], left: &BTreeSet<usize>, rule: Greedy) -> Option<usize> {
    left.iter().copied().min_by_key(|&v| match rule {
        Greedy::MinFill => (fill_in(adjacent, v), adjacent[v].len(), v),
        Greedy::MinDegree => (0, adjacent[v].len(), v),
    })
}

/// The number of non-adjacent pairs among the neighbours of `v`.
fn fill_in(adjacent: &[BTreeSet<usize>], v: usize) -> usize {
    let ns: Vec<usize> = adjacent[v].iter().copied().collect();
    ns.iter()
        .enumerate()
        .map(|(i, &a)| {
            ns[i + 1..]
                .iter()
                .filter(|b| !adjacent[a].contains(b))
                .count()
        })
        .sum()
}
