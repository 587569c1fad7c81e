//! k-trees built from a start network found by another method (`KtreeOptions::start`),
//! two ways:
//! - [`covering_ktree`] keeps as much of the network's moral graph as it can. The moral
//!   graph is eliminated greedily, fewest fill edges first, as a min-fill triangulation
//!   does, with one change: a node with more than k neighbours left keeps only k of them,
//!   moral neighbours first, and loses its edges to the others. The k-tree is then built
//!   in the reverse elimination order: the last k nodes are the root clique, and every
//!   other node joins the k-clique of the k-tree so far that holds the most of its kept
//!   neighbours (all of them, unless a later node dropped an edge between two of them: a
//!   clique of at most k nodes of a k-tree lies in one of its k-cliques), then of its
//!   moral neighbours. A network whose moral graph is chordal of width at most k is kept
//!   whole.
//! - [`greedy_ktree`] follows the scores instead, as Scanagatta et al. (2016, NIPS,
//!   "Learning treewidth-bounded Bayesian networks with thousands of variables") build
//!   their k-trees: along the network's topological order, each node joins the k-clique
//!   that holds its best candidate parent set.

use super::code::KTree;
use super::polish::moral_adjacency;
use bnsl_formulations::{Dag, ScoreTable, VarSet};
use std::cmp::Reverse;

/// The k-tree over `dag`'s nodes that covers its moral graph as far as width `k` allows
/// (module doc), eliminating by min-fill or, when given, along `order` (a permutation of
/// the nodes); `dag` has more than `k` nodes.
pub(crate) fn covering_ktree(dag: &Dag, k: usize, order: Option<&[usize]>) -> KTree {
    let n = dag.n();
    debug_assert!(n > k);
    let moral = moral_adjacency(dag.all_parents());
    let (eliminated, kept) = capped_elimination(&moral, k, order);
    let mut root: Vec<usize> = (0..n).filter(|v| !eliminated.contains(v)).collect();
    root.sort_unstable();
    let (mut tree, mut cliques) = rooted_at(n, root);
    for &v in eliminated.iter().rev() {
        let chosen = best_clique(&cliques, &kept[v], &moral[v]).clone();
        join(&mut tree, &mut cliques, v, &chosen);
    }
    tree
}

/// The k-tree built along `order`, a topological order of `dag` (module doc): the first
/// k nodes form the root clique, and every later node joins the k-clique that holds its
/// best candidate in `table` (its parents all before it), among those the one with the
/// most of its neighbours in `dag`'s moral graph, the first of those.
pub(crate) fn greedy_ktree(table: &ScoreTable, dag: &Dag, order: &[usize], k: usize) -> KTree {
    let n = table.n();
    debug_assert!(n > k && order.len() == n);
    let moral = moral_adjacency(dag.all_parents());
    let mut root = order[..k].to_vec();
    root.sort_unstable();
    let (mut tree, mut cliques) = rooted_at(n, root);
    for &v in &order[k..] {
        let parents = table
            .candidates(v)
            .iter()
            .map(|c| &c.parents)
            .find(|p| cliques.iter().any(|q| p.is_subset(q)))
            .cloned()
            .unwrap_or_else(|| VarSet::empty(n));
        let holding: Vec<VarSet> = cliques
            .iter()
            .filter(|q| parents.is_subset(q))
            .cloned()
            .collect();
        let chosen = best_clique(&holding, &parents, &moral[v]).clone();
        join(&mut tree, &mut cliques, v, &chosen);
    }
    tree
}

/// Eliminates all but `k` nodes of `moral` (module doc), by min-fill or along `order`:
/// the nodes in elimination order,
/// and for each node the neighbours it kept (at most `k`, made a clique when it went).
fn capped_elimination(
    moral: &[VarSet],
    k: usize,
    order: Option<&[usize]>,
) -> (Vec<usize>, Vec<VarSet>) {
    let n = moral.len();
    let mut graph = moral.to_vec();
    let mut left = VarSet::from_members(n, 0..n);
    let mut eliminated = Vec::with_capacity(n - k);
    let mut kept = vec![VarSet::empty(n); n];
    while left.len() > k {
        let v = match order {
            Some(order) => order[eliminated.len()],
            None => left
                .iter()
                .min_by_key(|&v| (graph[v].len().saturating_sub(k), fill_in(&graph, v), v))
                .expect("more than k nodes are left"),
        };
        let neighbours = keep_at_most(&graph, moral, v, k);
        for u in graph[v].iter().collect::<Vec<_>>() {
            graph[u].remove(v);
        }
        for u in neighbours.iter() {
            graph[u] = graph[u].union(&neighbours.without(u));
        }
        graph[v] = VarSet::empty(n);
        left.remove(v);
        eliminated.push(v);
        kept[v] = neighbours;
    }
    (eliminated, kept)
}

/// The pairs of `v`'s neighbours in `graph` that are not joined.
fn fill_in(graph: &[VarSet], v: usize) -> usize {
    let neighbours = &graph[v];
    let missing: usize = neighbours
        .iter()
        .map(|u| neighbours.difference(&graph[u]).len() - 1)
        .sum();
    missing / 2
}

/// At most `k` of `v`'s neighbours in `graph`: its moral neighbours first, then the
/// others, each group by degree in `graph`, higher first, and by index.
fn keep_at_most(graph: &[VarSet], moral: &[VarSet], v: usize, k: usize) -> VarSet {
    let mut neighbours: Vec<usize> = graph[v].iter().collect();
    if neighbours.len() > k {
        neighbours.sort_by_key(|&u| (!moral[v].contains(u), Reverse(graph[u].len()), u));
        neighbours.truncate(k);
    }
    VarSet::from_members(graph.len(), neighbours)
}

/// The k-tree of the clique `root` alone (sorted), with its k-cliques (`root` itself).
fn rooted_at(n: usize, root: Vec<usize>) -> (KTree, Vec<VarSet>) {
    let mut adjacent = vec![VarSet::empty(n); n];
    for (i, &a) in root.iter().enumerate() {
        for &b in &root[i + 1..] {
            adjacent[a].insert(b);
            adjacent[b].insert(a);
        }
    }
    let cliques = vec![VarSet::from_members(n, root.iter().copied())];
    let tree = KTree {
        root,
        joined: Vec::with_capacity(n),
        clique: vec![Vec::new(); n],
        adjacent,
    };
    (tree, cliques)
}

/// The first of `cliques` with the most of `wanted`, and among those with the most of
/// `moral`.
fn best_clique<'a>(cliques: &'a [VarSet], wanted: &VarSet, moral: &VarSet) -> &'a VarSet {
    let key = |c: &VarSet| (c.intersection(wanted).len(), c.intersection(moral).len());
    let mut best = &cliques[0];
    for c in &cliques[1..] {
        if key(c) > key(best) {
            best = c;
        }
    }
    best
}

/// Joins `v` to the k-clique `chosen` of `tree`, adding the k new k-cliques to `cliques`.
fn join(tree: &mut KTree, cliques: &mut Vec<VarSet>, v: usize, chosen: &VarSet) {
    for u in chosen.iter() {
        tree.adjacent[v].insert(u);
        tree.adjacent[u].insert(v);
        cliques.push(chosen.without(u).with(v));
    }
    tree.clique[v] = chosen.to_vec();
    tree.joined.push(v);
}
