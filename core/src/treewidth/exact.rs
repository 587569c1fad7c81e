//! The exact treewidth by depth-first branch and bound over elimination orders
//! (Gogate & Dechter 2004, QuickBB): the width so far and the minor-min-width lower bound
//! of the graph left prune a branch, simplicial and almost simplicial nodes are
//! eliminated without branching, and an eliminated set met again with a width no better
//! than before is not searched twice (the graph left depends only on that set).

use super::greedy::{greedy_order, Greedy};
use super::Graph;
use crate::varset::VarSet;
use std::collections::HashMap;
use std::time::Instant;

/// Most eliminated sets remembered per connected component; beyond, the search goes on
/// without remembering more.
const MEMO_CAPACITY: usize = 1 << 22;

/// When the search for the exact treewidth gives up.
#[derive(Clone, Debug, Default)]
pub struct TreewidthLimits {
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop after this many search nodes.
    pub max_nodes: Option<u64>,
}

/// Bounds on a graph's treewidth and an elimination order achieving the upper one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreewidthResult {
    /// A lower bound; equal to `upper` when the search completed.
    pub lower: usize,
    /// The width of `order`.
    pub upper: usize,
    /// An elimination order of width `upper`.
    pub order: Vec<usize>,
}

impl TreewidthResult {
    /// Whether the bounds meet: `upper` is the treewidth.
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }
}

/// The treewidth of `graph`, each connected component searched on its own, or bounds on
/// it when `limits` stop the search first.
pub fn treewidth(graph: &Graph, limits: &TreewidthLimits) -> TreewidthResult {
    let mut components = graph.components();
    components.sort_by_key(|c| std::cmp::Reverse(c.len()));
    let mut lower = 0;
    let mut upper = 0;
    let mut order = Vec::with_capacity(graph.n());
    let mut searched = Vec::new();
    for nodes in &components {
        let component = Component::new(graph, nodes);
        lower = lower.max(component.lower);
        searched.push(component);
    }
    for mut component in searched {
        component.search(lower, limits);
        lower = lower.max(component.lower);
        upper = upper.max(component.upper);
        order.extend(component.best_order.iter().map(|&v| component.nodes[v]));
    }
    TreewidthResult {
        lower: lower.min(upper),
        upper,
        order,
    }
}

/// The minor-min-width lower bound of `graph`'s treewidth (Gogate & Dechter 2004):
/// repeatedly note the least degree, then contract that node into the neighbour it shares
/// the fewest neighbours with; the largest degree noted bounds the treewidth, since
/// contraction never raises it.
pub fn minor_min_width(graph: &Graph) -> usize {
    let n = graph.n();
    let adjacent: Vec<VarSet> = (0..n)
        .map(|v| VarSet::from_members(n, graph.neighbours(v).iter().copied()))
        .collect();
    mmw(&adjacent, &VarSet::from_members(n, 0..n))
}

/// Minor-min-width of the graph `adjacent` restricted to `left` (whose sets hold only
/// nodes of `left`).
fn mmw(adjacent: &[VarSet], left: &VarSet) -> usize {
    let mut adj = adjacent.to_vec();
    let mut alive = left.clone();
    let mut bound = 0;
    while alive.len() > 1 {
        let v = alive
            .iter()
            .min_by_key(|&v| adj[v].len())
            .expect("nodes alive");
        let degree = adj[v].len();
        bound = bound.max(degree);
        alive.remove(v);
        let Some(u) = adj[v]
            .iter()
            .min_by_key(|&u| adj[u].intersection(&adj[v]).len())
        else {
            continue;
        };
        let merged = adj[u].union(&adj[v]).without(u).without(v);
        for w in adj[v].clone().iter() {
            adj[w].remove(v);
            if w != u {
                adj[w].insert(u);
            }
        }
        adj[u] = merged;
    }
    bound
}

/// The branch and bound on one connected component, in local node numbers.
struct Component {
    /// Local node `i` is graph node `nodes[i]`.
    nodes: Vec<usize>,
    adjacent: Vec<VarSet>,
    lower: usize,
    upper: usize,
    best_order: Vec<usize>,
    seen: HashMap<VarSet, usize>,
    search_nodes: u64,
    stopped: bool,
}

impl Component {
    /// The component of `graph` on `nodes`, with its greedy upper bound and its
    /// minor-min-width lower bound.
    fn new(graph: &Graph, nodes: &[usize]) -> Self {
        let k = nodes.len();
        let local: HashMap<usize, usize> = nodes.iter().enumerate().map(|(i, &v)| (v, i)).collect();
        let mut sub = Graph::new(k);
        for (i, &v) in nodes.iter().enumerate() {
            for u in graph.neighbours(v) {
                sub.add_edge(i, local[u]);
            }
        }
        let (upper, best_order) = [Greedy::MinFill, Greedy::MinDegree]
            .into_iter()
            .map(|rule| {
                let order = greedy_order(&sub, rule);
                (sub.elimination_width(&order), order)
            })
            .min_by_key(|(w, _)| *w)
            .expect("two rules");
        let adjacent: Vec<VarSet> = (0..k)
            .map(|v| VarSet::from_members(k, sub.neighbours(v).iter().copied()))
            .collect();
        let lower = mmw(&adjacent, &VarSet::from_members(k, 0..k)).min(upper);
        Component {
            nodes: nodes.to_vec(),
            adjacent,
            lower,
            upper,
            best_order,
            seen: HashMap::new(),
            search_nodes: 0,
            stopped: false,
        }
    }

    /// Searches for an order of width below `upper`, no lower than `floor` (a width the
    /// whole graph has anyway), until `limits` stop it; the lower bound becomes the
    /// upper one when the search completes.
    fn search(&mut self, floor: usize, limits: &TreewidthLimits) {
        if self.upper <= self.lower.max(floor) {
            return;
        }
        let k = self.nodes.len();
        let adjacent = self.adjacent.clone();
        let mut order = Vec::with_capacity(k);
        self.branch(
            &adjacent,
            &VarSet::from_members(k, 0..k),
            0,
            floor,
            &mut order,
            limits,
        );
        if !self.stopped {
            self.lower = self.upper;
        }
    }

    /// Extends `order` (width `width` so far) by every useful next node of the graph
    /// `adjacent` left on `left`.
    fn branch(
        &mut self,
        adjacent: &[VarSet],
        left: &VarSet,
        width: usize,
        floor: usize,
        order: &mut Vec<usize>,
        limits: &TreewidthLimits,
    ) {
        if self.stopped || self.upper <= floor.max(self.lower) {
            return;
        }
        self.search_nodes += 1;
        if limits.max_nodes.is_some_and(|m| self.search_nodes > m)
            || (self.search_nodes.is_multiple_of(256)
                && limits.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.stopped = true;
            return;
        }
        let rest = left.len();
        if width.max(rest.saturating_sub(1)) < self.upper {
            self.upper = width.max(rest.saturating_sub(1));
            self.best_order = order.iter().copied().chain(left.iter()).collect();
        }
        if width >= rest.saturating_sub(1) {
            return;
        }
        let bound = mmw(adjacent, left);
        if width.max(bound) >= self.upper {
            return;
        }
        let eliminated = VarSet::from_members(self.nodes.len(), order.iter().copied());
        match self.seen.get(&eliminated) {
            Some(&before) if before <= width => return,
            _ if self.seen.len() < MEMO_CAPACITY => {
                self.seen.insert(eliminated, width);
            }
            _ => {}
        }
        let candidates = match safe_node(adjacent, left, bound) {
            Some(v) => vec![v],
            None => by_fill_in(adjacent, left),
        };
        for v in candidates {
            let grown = width.max(adjacent[v].len());
            if grown >= self.upper {
                continue;
            }
            let next = eliminate(adjacent, v);
            order.push(v);
            self.branch(&next, &left.without(v), grown, floor, order, limits);
            order.pop();
            if self.stopped {
                return;
            }
        }
    }
}

/// A node whose elimination first loses nothing: a simplicial one (its neighbours form
/// a clique), or an almost simplicial one (all but one neighbour form a clique) with no
/// more neighbours than `bound`, a lower bound on the treewidth of the graph left.
fn safe_node(adjacent: &[VarSet], left: &VarSet, bound: usize) -> Option<usize> {
    left.iter().find(|&v| {
        let ns = &adjacent[v];
        is_clique(adjacent, ns)
            || ns.len() <= bound && ns.iter().any(|u| is_clique(adjacent, &ns.without(u)))
    })
}

/// Whether the nodes `set` are pairwise joined.
fn is_clique(adjacent: &[VarSet], set: &VarSet) -> bool {
    set.iter().all(|u| set.without(u).is_subset(&adjacent[u]))
}

/// The nodes of `left`, fewest fill edges first (then fewest neighbours).
fn by_fill_in(adjacent: &[VarSet], left: &VarSet) -> Vec<usize> {
    let mut nodes: Vec<(usize, usize, usize)> = left
        .iter()
        .map(|v| {
            let ns = &adjacent[v];
            let missing: usize = ns
                .iter()
                .map(|u| ns.difference(&adjacent[u]).len() - 1)
                .sum();
            (missing / 2, ns.len(), v)
        })
        .collect();
    nodes.sort_unstable();
    nodes.into_iter().map(|(_, _, v)| v).collect()
}

/// The graph after eliminating `v`: its neighbours pairwise joined, `v` removed.
fn eliminate(adjacent: &[VarSet], v: usize) -> Vec<VarSet> {
    let mut next = adjacent.to_vec();
    let ns = adjacent[v].clone();
    for u in ns.iter() {
        next[u] = next[u].union(&ns).without(u).without(v);
    }
    next[v] = VarSet::empty(adjacent.len());
    next
}
