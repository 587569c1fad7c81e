//! The last step of every restart, beyond the paper: the network may leave its k-tree.
//! Each node in turn takes its best candidate that scores above its own choice, keeps
//! the graph acyclic, and keeps the moral graph's width within k along the elimination
//! order in use; the order starts as the k-tree's perfect elimination order and becomes
//! the min-fill order of the new moral graph whenever that one is narrower. The passes
//! repeat until no node gains or the restart's budget is spent; the order in use
//! certifies the width of the result.

use super::super::{Budget, Network};
use bnsl_formulations::treewidth::{greedy_order, moral_graph, Greedy};
use bnsl_formulations::{Dag, ScoreTable, VarSet};

/// `net` improved node by node within width `k` (module doc), with an elimination order
/// of width at most `k` for its moral graph; `order` is one for `net`'s.
pub(crate) fn polish(
    table: &ScoreTable,
    mut net: Network,
    mut order: Vec<usize>,
    k: usize,
    budget: &Budget,
) -> (Network, Vec<usize>) {
    let n = table.n();
    let mut parents: Vec<VarSet> = (0..n)
        .map(|v| table.candidates(v)[net.choice[v]].parents.clone())
        .collect();
    let mut improved = true;
    while improved && !budget.is_spent() {
        improved = false;
        for v in 0..n {
            if budget.is_spent() {
                break;
            }
            let below = descendants(&parents, v);
            let better = table.candidates(v)[..net.choice[v]].iter().position(|c| {
                !c.parents.intersects(&below) && {
                    let old = std::mem::replace(&mut parents[v], c.parents.clone());
                    let fits = width_along(&moral_adjacency(&parents), &order) <= k;
                    parents[v] = old;
                    fits
                }
            });
            if let Some(i) = better {
                parents[v] = table.candidates(v)[i].parents.clone();
                net.choice[v] = i;
                improved = true;
                order = narrower(&parents, order);
            }
        }
    }
    (Network::from_choice(table, net.choice), order)
}

/// The nodes below `v` in the graph of `parents` (without `v`).
fn descendants(parents: &[VarSet], v: usize) -> VarSet {
    let n = parents.len();
    let mut below = VarSet::empty(n);
    let mut stack = vec![v];
    while let Some(u) = stack.pop() {
        for (w, family) in parents.iter().enumerate() {
            if family.contains(u) && !below.contains(w) {
                below.insert(w);
                stack.push(w);
            }
        }
    }
    below
}

/// The moral graph of the graph of `parents`, as neighbour sets.
pub(super) fn moral_adjacency(parents: &[VarSet]) -> Vec<VarSet> {
    let n = parents.len();
    let mut adjacent = vec![VarSet::empty(n); n];
    for (v, family) in parents.iter().enumerate() {
        let members: Vec<usize> = family.iter().collect();
        for (i, &a) in members.iter().enumerate() {
            adjacent[a].insert(v);
            adjacent[v].insert(a);
            for &b in &members[i + 1..] {
                adjacent[a].insert(b);
                adjacent[b].insert(a);
            }
        }
    }
    adjacent
}

/// The width of eliminating `adjacent` along `order`.
fn width_along(adjacent: &[VarSet], order: &[usize]) -> usize {
    let mut graph = adjacent.to_vec();
    let mut gone = VarSet::empty(adjacent.len());
    let mut width = 0;
    for &v in order {
        let later = graph[v].difference(&gone);
        width = width.max(later.len());
        for u in later.iter() {
            graph[u] = graph[u].union(&later.without(u));
        }
        gone.insert(v);
    }
    width
}

/// The min-fill order of the moral graph of `parents` when it is narrower than `order`,
/// else `order`.
fn narrower(parents: &[VarSet], order: Vec<usize>) -> Vec<usize> {
    let adjacent = moral_adjacency(parents);
    let dag = Dag::from_parents(parents.to_vec());
    let min_fill = greedy_order(&moral_graph(&dag), Greedy::MinFill);
    if width_along(&adjacent, &min_fill) < width_along(&adjacent, &order) {
        min_fill
    } else {
        order
    }
}
