//! The last step of every restart, beyond the paper: the network may leave its k-tree.
//! Each node in turn takes its best candidate that scores above its own choice, keeps
//! the graph acyclic, and keeps the moral graph's width within k along the elimination
//! order in use; the order starts as the k-tree's perfect elimination order and becomes
//! the min-fill order of the new moral graph whenever that one is narrower. When no
//! node gains alone, pairs of nodes are tried: both choose again at once, one of them
//! first in the order (`Polishing::pair_move`), which reverses an arc or moves a parent
//! from one to the other where neither change gains alone. The passes repeat until
//! neither a node nor a pair gains or the restart's budget is spent; the order in use
//! certifies the width of the result.

use super::super::{Budget, Network};
use bnsl_formulations::treewidth::{greedy_order, moral_graph, Greedy};
use bnsl_formulations::{Dag, ScoreTable, VarSet};

/// `net` improved node by node within width `k` (module doc), with an elimination order
/// of width at most `k` for its moral graph; `order` is one for `net`'s.
pub(crate) fn polish(
    table: &ScoreTable,
    net: Network,
    order: Vec<usize>,
    k: usize,
    budget: &Budget,
) -> (Network, Vec<usize>) {
    let parents: Vec<VarSet> = (0..table.n())
        .map(|v| table.candidates(v)[net.choice[v]].parents.clone())
        .collect();
    let elimination = Elimination::new(&parents, order);
    let mut polishing = Polishing {
        table,
        parents,
        choice: net.choice,
        elimination,
        k,
    };
    while !budget.is_spent() {
        while polishing.single_pass(budget) {}
        if budget.is_spent() || !polishing.pair_pass(budget) {
            break;
        }
    }
    let order = polishing.elimination.order;
    (Network::from_choice(table, polishing.choice), order)
}

/// The network being polished within width `k`: its parent sets, its choices and the
/// elimination order in use.
struct Polishing<'a> {
    table: &'a ScoreTable,
    parents: Vec<VarSet>,
    choice: Vec<usize>,
    elimination: Elimination,
    k: usize,
}

impl Polishing<'_> {
    /// One pass over the nodes, each taking its best candidate above its choice that
    /// keeps the graph acyclic and the width within `k` along the elimination order;
    /// whether any node gained.
    fn single_pass(&mut self, budget: &Budget) -> bool {
        let mut improved = false;
        for v in 0..self.parents.len() {
            if budget.is_spent() {
                break;
            }
            let below = descendants(&self.parents, v);
            let better = self.table.candidates(v)[..self.choice[v]]
                .iter()
                .position(|c| {
                    !c.parents.intersects(&below)
                        && fits_with(
                            &mut self.parents,
                            &[(v, &c.parents)],
                            &self.elimination,
                            self.k,
                        )
                });
            if let Some(i) = better {
                self.adopt(&[(v, i)]);
                improved = true;
            }
        }
        improved
    }

    /// One pass over the ordered pairs of nodes, each pair changed by its best
    /// [`Polishing::pair_move`] when that gains; whether any pair gained.
    fn pair_pass(&mut self, budget: &Budget) -> bool {
        let n = self.parents.len();
        let mut improved = false;
        for first in 0..n {
            for second in (0..n).filter(|&w| w != first) {
                if budget.is_spent() {
                    return improved;
                }
                if let Some((a, b)) = self.pair_move(first, second) {
                    self.adopt(&[(first, a), (second, b)]);
                    improved = true;
                }
            }
        }
        improved
    }

    /// Gives each node `v` of `moves` its candidate `i`, and updates the elimination.
    fn adopt(&mut self, moves: &[(usize, usize)]) {
        for &(v, i) in moves {
            self.parents[v] = self.table.candidates(v)[i].parents.clone();
            self.choice[v] = i;
        }
        self.elimination.update(&self.parents);
    }

    /// The best new choices `(a, b)` of `first` and `second` together that score above
    /// their present ones, with `first` not below `second` in the new graph: with both
    /// parent sets emptied, `first` may not take parents among its own descendants,
    /// `second` or `second`'s descendants, and `second` may not take parents among its
    /// own descendants, which keeps the graph acyclic. The width along the elimination
    /// order stays within `k`. `None` when no pair of choices gains.
    fn pair_move(&mut self, first: usize, second: usize) -> Option<(usize, usize)> {
        let (table, k) = (self.table, self.k);
        let candidates = (table.candidates(first), table.candidates(second));
        let now = candidates.0[self.choice[first]].score + candidates.1[self.choice[second]].score;
        let parents = &mut self.parents;
        let n = parents.len();
        let kept = (
            std::mem::replace(&mut parents[first], VarSet::empty(n)),
            std::mem::replace(&mut parents[second], VarSet::empty(n)),
        );
        let below_second = descendants(parents, second);
        let mut barred_first = descendants(parents, first).union(&below_second);
        barred_first.insert(second);
        let mut best: Option<(f64, usize, usize)> = None;
        if !below_second.contains(first) {
            let free_second = candidates
                .1
                .iter()
                .position(|c| !c.parents.intersects(&below_second));
            for (a, ca) in candidates.0.iter().enumerate() {
                let ceiling =
                    free_second.map_or(f64::NEG_INFINITY, |b| ca.score + candidates.1[b].score);
                if ceiling <= best.map_or(now, |(total, _, _)| total) {
                    break;
                }
                // With `second`'s parents empty the graph is a subgraph of every pair's.
                if ca.parents.intersects(&barred_first)
                    || !fits_with(parents, &[(first, &ca.parents)], &self.elimination, k)
                {
                    continue;
                }
                let fitting = candidates.1.iter().enumerate().find(|(_, cb)| {
                    let both = [(first, &ca.parents), (second, &cb.parents)];
                    !cb.parents.intersects(&below_second)
                        && fits_with(parents, &both, &self.elimination, k)
                });
                if let Some((b, cb)) = fitting {
                    let total = ca.score + cb.score;
                    if total > best.map_or(now, |(best_total, _, _)| best_total) {
                        best = Some((total, a, b));
                    }
                }
            }
        }
        parents[first] = kept.0;
        parents[second] = kept.1;
        best.filter(|&(total, _, _)| total > now + GAIN)
            .map(|(_, a, b)| (a, b))
    }
}

/// The least gain a pair move must make, against rounding in the sum of two scores.
const GAIN: f64 = 1e-9;

/// Whether the graph of `parents`, with the parent sets in `changes` in place of the
/// nodes' own, has width at most `k` along the elimination order. Quick when the new
/// families' moral edges all lie in the filled graph ([`Elimination::holds`]).
fn fits_with(
    parents: &mut [VarSet],
    changes: &[(usize, &VarSet)],
    elimination: &Elimination,
    k: usize,
) -> bool {
    if elimination.holds(changes) {
        return true;
    }
    let old: Vec<VarSet> = changes
        .iter()
        .map(|&(v, new)| std::mem::replace(&mut parents[v], new.clone()))
        .collect();
    let fits = width_along(&moral_adjacency(parents), &elimination.order) <= k;
    for (&(v, _), family) in changes.iter().zip(old) {
        parents[v] = family;
    }
    fits
}

/// The elimination order in use, of width at most k for the network's moral graph, and
/// the graph that eliminating along it fills the moral graph into (every fill edge
/// added), for which the order is a perfect elimination order. A graph whose edges all
/// lie in the filled graph has, along the order, at most the filled graph's width.
struct Elimination {
    order: Vec<usize>,
    filled: Vec<VarSet>,
}

impl Elimination {
    fn new(parents: &[VarSet], order: Vec<usize>) -> Self {
        Elimination::along(&moral_adjacency(parents), order)
    }

    /// The elimination of the graph `adjacent` along `order`.
    fn along(adjacent: &[VarSet], order: Vec<usize>) -> Self {
        let filled = filled_along(adjacent, &order);
        Elimination { order, filled }
    }

    /// The width of the order: the most later neighbours a node has in the filled graph.
    fn width(&self) -> usize {
        width_of_filled(&self.filled, &self.order)
    }

    /// After a change of `parents`: the min-fill order of the new moral graph when it
    /// is narrower than the order in use, else the order in use, with its filled graph.
    fn update(&mut self, parents: &[VarSet]) {
        let adjacent = moral_adjacency(parents);
        let kept = Elimination::along(&adjacent, std::mem::take(&mut self.order));
        let dag = Dag::from_parents(parents.to_vec());
        let min_fill = greedy_order(&moral_graph(&dag), Greedy::MinFill);
        let min_fill = Elimination::along(&adjacent, min_fill);
        *self = if min_fill.width() < kept.width() {
            min_fill
        } else {
            kept
        };
    }

    /// Whether every moral edge of the families `changes` (parent to child, parent to
    /// parent) is an edge of the filled graph.
    fn holds(&self, changes: &[(usize, &VarSet)]) -> bool {
        changes.iter().all(|&(v, family)| {
            family.is_subset(&self.filled[v])
                && family
                    .iter()
                    .all(|u| family.without(u).is_subset(&self.filled[u]))
        })
    }
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
    width_of_filled(&filled_along(adjacent, order), order)
}

/// The width of `order` on a graph it fills into `filled` ([`filled_along`]): the most
/// neighbours a node has later in the order.
fn width_of_filled(filled: &[VarSet], order: &[usize]) -> usize {
    let mut gone = VarSet::empty(filled.len());
    let mut width = 0;
    for &v in order {
        width = width.max(filled[v].difference(&gone).len());
        gone.insert(v);
    }
    width
}

/// `adjacent` with the fill edges of eliminating it along `order`: each node's
/// neighbours later in the order made a clique, in turn.
fn filled_along(adjacent: &[VarSet], order: &[usize]) -> Vec<VarSet> {
    let mut graph = adjacent.to_vec();
    let mut gone = VarSet::empty(adjacent.len());
    for &v in order {
        let later = graph[v].difference(&gone);
        for u in later.iter() {
            graph[u] = graph[u].union(&later.without(u));
        }
        gone.insert(v);
    }
    graph
}
