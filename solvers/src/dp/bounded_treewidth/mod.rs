//! The best DAG of treewidth at most `W`, exactly, for tables the DP solves: a best-first
//! branch and bound over forbidden moral edges, each node bounded by the DP. Beyond Nie
//! et al. 2016, whose MILP (6) leaves its bound at the unbounded optimum until branching
//! moves it; here every node's bound is the exact optimum of a relaxation.
//!
//! - **Nodes.** A node is a set `F` of forbidden moral edges and a set `R` of required
//!   ones. Its networks are the DAGs of candidates whose moral graph has no edge of `F`
//!   and every edge of `R`. Without `R`, they are the DAGs of the table without the
//!   candidates that would create an edge of `F` (a child–parent pair or a pair of
//!   co-parents), so the DP on that table bounds their best score: the node's bound.
//! - **Branching.** When the node's best DAG has treewidth at most `W`, no network of
//!   the node within the width bound scores above it (the node is settled, the DAG
//!   offered as incumbent). Otherwise the union of its moral graph and `R` holds a
//!   subgraph `H` of treewidth above `W`, minimal in its edges outside `R`
//!   ([`wider_subgraph_removing`]). Every network of the node within the bound holds `R`
//!   and so lacks some edge `e_1, …, e_k` of `H` outside `R`: the children
//!   `(F ∪ {e_i}, R ∪ {e_1, …, e_{i−1}})` split the node's networks within the bound
//!   into disjoint parts.
//! - **Choosing `H`** (strong branching). The child bound of every edge of the union
//!   outside `R` is computed first, and the edges are tried for removal from `H` from
//!   the highest child bound down: `H` keeps the edges whose loss lowers the bound most,
//!   so that every child's bound drops. The children are put in the order of their
//!   bounds, lowest first, so that the parts of highest bound require the most edges;
//!   an edge whose child has no DAG at all goes first. A child whose required edges
//!   alone are wider than `W` has no network within the bound and is not opened, nor
//!   are the ones after it.
//! - **Edges the required ones exclude.** An edge that would make `R` wider than `W`
//!   is in no network of the node within the bound, so it is forbidden too. The child's
//!   bound is then that of fewer forbidden edges; the node is solved again, on all of
//!   them, when it comes first in the search, and goes back among the open nodes with
//!   the lower bound.
//! - **Search.** Best bound first, so the largest open bound is the search's bound at
//!   any time. The incumbent starts from the given start and from a greedy repair of
//!   every expanded node's DAG (each node along its topological order takes its best
//!   candidate that keeps the width within `W`, the MILP's start rule). The search ends
//!   when no open node's bound exceeds the incumbent's score: the incumbent is optimal.

mod relaxation;

use super::{DpError, DpOptions};
use crate::heuristics::narrow_greedy;
use crate::ilp::gap_closed;
use bnsl_formulations::treewidth::{
    moral_graph, treewidth, wider_subgraph_removing, Graph, TreewidthLimits,
};
use bnsl_formulations::{Dag, ScoreTable};
use relaxation::{Relaxation, MAX_VARIABLES};
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::time::Instant;

/// What [`solve_dp_within_width`] solves and how long it may take.
#[derive(Clone, Debug, Default)]
pub struct WithinWidthOptions {
    /// The treewidth bound `W`.
    pub width: usize,
    /// A network to start from (used when its treewidth is at most `W`).
    pub start: Option<Dag>,
    /// The DP's limits; its time limit and stop token bound the whole search.
    pub dp: DpOptions,
}

/// A network of treewidth at most `W` with its score and an elimination order of its
/// moral graph of width at most `W` (the certificate).
#[derive(Clone, Debug, PartialEq)]
pub struct WithinWidth {
    /// The network.
    pub dag: Dag,
    /// Its score, as [`Dag::check`] sums it.
    pub score: f64,
    /// The elimination order.
    pub elimination_order: Vec<usize>,
}

/// The outcome of [`solve_dp_within_width`].
#[derive(Clone, Debug, PartialEq)]
pub struct WithinWidthOutcome {
    /// The best network found.
    pub best: Option<WithinWidth>,
    /// No network within the bound scores above this (`None`: none exists, or the
    /// search stopped before the first DP finished).
    pub bound: Option<f64>,
    /// Whether the search finished: `best` is optimal, or there is no network.
    pub proved: bool,
    /// Nodes expanded.
    pub nodes: u64,
    /// DP solves.
    pub dp_solves: u64,
}

/// The state of the search as [`solve_dp_within_width`] reports it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WithinWidthProgress {
    /// The incumbent's score.
    pub incumbent: Option<f64>,
    /// The largest open bound.
    pub bound: f64,
    /// Nodes expanded.
    pub nodes: u64,
}

/// The best DAG of `table`'s candidates whose moral graph has treewidth at most
/// `options.width` (module doc). `progress` sees each improvement of the incumbent or the
/// bound. Tables of more than 22 variables are refused ([`DpError::TooManyVariables`]).
pub fn solve_dp_within_width(
    table: &ScoreTable,
    options: &WithinWidthOptions,
    progress: &dyn Fn(&WithinWidthProgress),
) -> Result<WithinWidthOutcome, DpError> {
    if table.n() > MAX_VARIABLES {
        return Err(DpError::TooManyVariables {
            n: table.n(),
            max: MAX_VARIABLES,
        });
    }
    let mut search = Search::new(table, options, progress);
    if let Some(start) = &options.start {
        search.offer(start.clone());
    }
    if search.out_of_time() {
        return Ok(search.outcome(false));
    }
    match search.root() {
        Some(root) => search.push(root),
        None => return Ok(search.outcome(true)),
    }
    let finished = search.run();
    Ok(search.outcome(finished))
}

/// An open node: its bound, its best DAG, its forbidden and required edges (sorted), the
/// order it was made in (ties of bound go first made, first expanded), and whether the
/// bound and DAG are the DP's on all of `forbidden` (else on some of it).
struct Open {
    bound: f64,
    dag: Dag,
    forbidden: Vec<(usize, usize)>,
    required: Vec<(usize, usize)>,
    made: u64,
    solved: bool,
}

impl PartialEq for Open {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Open {}

impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Open {
    fn cmp(&self, other: &Self) -> Ordering {
        self.bound
            .total_cmp(&other.bound)
            .then_with(|| other.made.cmp(&self.made))
    }
}

struct Search<'a> {
    table: &'a ScoreTable,
    relaxation: Relaxation<'a>,
    width: usize,
    dp: &'a DpOptions,
    deadline: Option<Instant>,
    progress: &'a dyn Fn(&WithinWidthProgress),
    open: BinaryHeap<Open>,
    incumbent: Option<WithinWidth>,
    made: u64,
    nodes: u64,
    dp_solves: u64,
}

impl<'a> Search<'a> {
    fn new(
        table: &'a ScoreTable,
        options: &'a WithinWidthOptions,
        progress: &'a dyn Fn(&WithinWidthProgress),
    ) -> Self {
        Search {
            table,
            relaxation: Relaxation::new(table),
            width: options.width,
            dp: &options.dp,
            deadline: options.dp.time_limit.map(|t| Instant::now() + t),
            progress,
            open: BinaryHeap::new(),
            incumbent: None,
            made: 0,
            nodes: 0,
            dp_solves: 0,
        }
    }

    /// Expands nodes until none beats the incumbent (`true`) or the time is up or the
    /// search was stopped (`false`).
    fn run(&mut self) -> bool {
        while let Some(node) = self.open.pop() {
            if !self.beats(node.bound) {
                self.open.clear();
                return true;
            }
            if self.out_of_time() {
                self.open.push(node);
                return false;
            }
            if !node.solved {
                self.solve_again(node);
                continue;
            }
            self.nodes += 1;
            if !self.expand(&node) {
                self.open.push(node);
                return false;
            }
        }
        true
    }

    /// Bounds `node` by the DP on its forbidden edges and opens it again with that bound,
    /// or drops it when it has no DAG.
    fn solve_again(&mut self, mut node: Open) {
        self.dp_solves += 1;
        if let Some((dag, bound)) = self.relaxation.best_without(&node.forbidden) {
            node.dag = dag;
            node.bound = bound;
            node.solved = true;
            self.push(node);
        }
    }

    /// Expands `node`: its DAG becomes the incumbent when it fits, else its children are
    /// opened. `false` when the time ran out before every child was bounded.
    fn expand(&mut self, node: &Open) -> bool {
        let moral = moral_graph(&node.dag);
        if let Some(order) = self.order_within(&moral) {
            self.improve(WithinWidth {
                dag: node.dag.clone(),
                score: node.bound,
                elimination_order: order,
            });
            return true;
        }
        if let Ok(order) = node.dag.topological_order() {
            let spent = || self.out_of_time();
            if let Some(repaired) = narrow_greedy(self.table, &order, self.width, &spent) {
                self.offer(repaired);
            }
        }
        let mut wide = moral;
        for &(u, v) in &node.required {
            wide.add_edge(u, v);
        }
        self.branch(node, &wide)
    }

    /// Opens the children of `node`, whose moral graph with its required edges is
    /// `wide`, wider than the bound (module doc). `false` when the time ran out first.
    fn branch(&mut self, node: &Open, wide: &Graph) -> bool {
        self.dp_solves += 1;
        if self.relaxation.best_without(&node.forbidden).is_none() {
            // Not met: the node was solved before and found a DAG.
            return true;
        }
        let mut children: Vec<((usize, usize), Option<Open>)> = wide
            .edges()
            .filter(|e| node.required.binary_search(e).is_err())
            .map(|edge| (edge, self.child(node, edge)))
            .collect();
        let bound = |child: &Option<Open>| child.as_ref().map_or(f64::NEG_INFINITY, |c| c.bound);
        children.sort_by(|a, b| bound(&b.1).total_cmp(&bound(&a.1)));
        let trial_order: Vec<(usize, usize)> = children.iter().map(|(edge, _)| *edge).collect();
        let limits = self.limits();
        let Some(obstruction) =
            wider_subgraph_removing(wide, self.width, &node.required, &limits, &trial_order)
        else {
            // The width is not settled before the deadline.
            return false;
        };
        children.retain(|(edge, _)| obstruction.binary_search(edge).is_ok());
        children.reverse();
        self.open_parts(node, children);
        true
    }

    /// Opens the parts of `node` for the edges of its obstruction, each with its child
    /// (`None`: no DAG lacks the edge), in the order of their bounds, lowest first.
    fn open_parts(&mut self, node: &Open, children: Vec<((usize, usize), Option<Open>)>) {
        let mut required = node.required.clone();
        let mut parts = Vec::new();
        for (edge, child) in children {
            match child {
                Some(child) => parts.push((edge, child)),
                // No network lacks the edge: every part may require it.
                None => required.push(edge),
            }
        }
        required.sort_unstable();
        for (edge, mut child) in parts {
            if !self.may_fit(&required) {
                break;
            }
            child.required = required.clone();
            self.forbid_too_wide(&mut child);
            if self.beats(child.bound) {
                self.push(child);
            }
            required.push(edge);
            required.sort_unstable();
        }
    }

    /// Whether the graph of `edges` may have treewidth at most the bound (`false` only
    /// when it is shown wider).
    fn may_fit(&self, edges: &[(usize, usize)]) -> bool {
        let graph = Graph::from_edges(self.table.n(), edges);
        treewidth(&graph, &self.limits()).lower <= self.width
    }

    /// Forbids in `node` every edge that would make its required edges wider than the
    /// bound: no network of the node within the bound has it. The node's bound and DAG
    /// are then those of fewer forbidden edges, to be solved again when it is met.
    fn forbid_too_wide(&self, node: &mut Open) {
        let n = self.table.n();
        let required = Graph::from_edges(n, &node.required);
        let mut component = vec![0; n];
        for (c, nodes) in required.components().iter().enumerate() {
            for &v in nodes {
                component[v] = c;
            }
        }
        let mut more = Vec::new();
        for u in 0..n {
            for v in u + 1..n {
                if component[u] != component[v]
                    || required.has_edge(u, v)
                    || node.forbidden.binary_search(&(u, v)).is_ok()
                {
                    continue;
                }
                let mut wider = required.clone();
                wider.add_edge(u, v);
                if treewidth(&wider, &self.limits()).lower > self.width {
                    more.push((u, v));
                }
            }
        }
        if !more.is_empty() {
            node.forbidden.extend(more);
            node.forbidden.sort_unstable();
            node.solved = false;
        }
    }

    /// The child of `node` (the relaxation's base) that forbids `edge` too, requiring what
    /// `node` requires. `None` when no DAG is left.
    fn child(&mut self, node: &Open, edge: (usize, usize)) -> Option<Open> {
        self.dp_solves += 1;
        let (dag, bound) = self.relaxation.best_with_one_more(&node.forbidden, edge)?;
        let mut forbidden = node.forbidden.clone();
        forbidden.push(edge);
        forbidden.sort_unstable();
        self.made += 1;
        Some(Open {
            bound,
            dag,
            forbidden,
            required: node.required.clone(),
            made: self.made,
            solved: true,
        })
    }

    /// The root: no edge forbidden or required, bounded by the DP on the whole table.
    /// `None` when the table has no DAG.
    fn root(&mut self) -> Option<Open> {
        self.dp_solves += 1;
        let (dag, bound) = self.relaxation.best_without(&[])?;
        self.made += 1;
        Some(Open {
            bound,
            dag,
            forbidden: Vec::new(),
            required: Vec::new(),
            made: self.made,
            solved: true,
        })
    }

    fn push(&mut self, node: Open) {
        self.open.push(node);
        self.report();
    }

    /// Makes `dag` the incumbent when it fits the bound and scores higher.
    fn offer(&mut self, dag: Dag) {
        let (Ok(score), Some(order)) =
            (dag.check(self.table), self.order_within(&moral_graph(&dag)))
        else {
            return;
        };
        self.improve(WithinWidth {
            dag,
            score,
            elimination_order: order,
        });
    }

    fn improve(&mut self, found: WithinWidth) {
        if self.beats(found.score) {
            self.incumbent = Some(found);
            self.report();
        }
    }

    /// Whether `score` is above the incumbent's by more than the gap that counts as
    /// closed ([`gap_closed`]).
    fn beats(&self, score: f64) -> bool {
        self.incumbent
            .as_ref()
            .is_none_or(|best| !gap_closed(best.score, score))
    }

    fn report(&self) {
        let Some(top) = self.open.peek() else {
            return;
        };
        (self.progress)(&WithinWidthProgress {
            incumbent: self.incumbent.as_ref().map(|b| b.score),
            bound: top.bound,
            nodes: self.nodes,
        });
    }

    /// An elimination order of the moral graph `moral` of width at most the bound, if it
    /// has one (settled before the deadline).
    fn order_within(&self, moral: &Graph) -> Option<Vec<usize>> {
        let found = treewidth(moral, &self.limits());
        (found.upper <= self.width).then_some(found.order)
    }

    fn limits(&self) -> TreewidthLimits {
        TreewidthLimits {
            deadline: self.deadline,
            max_nodes: None,
        }
    }

    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d) || self.dp.stop.is_stopped()
    }

    fn outcome(self, finished: bool) -> WithinWidthOutcome {
        let best_score = self.incumbent.as_ref().map(|b| b.score);
        let open = self.open.peek().map(|node| node.bound);
        let bound = match (open, best_score) {
            (Some(o), Some(s)) => Some(o.max(s)),
            (o, s) => o.or(s),
        };
        WithinWidthOutcome {
            best: self.incumbent,
            bound,
            proved: finished,
            nodes: self.nodes,
            dp_solves: self.dp_solves,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stop::StopToken;
    use crate::test_tables::{arb_table, brute_force_within_width, larger_table};
    use proptest::prelude::*;
    use std::time::Duration;

    fn solve(table: &ScoreTable, width: usize) -> WithinWidthOutcome {
        let options = WithinWidthOptions {
            width,
            ..WithinWidthOptions::default()
        };
        solve_dp_within_width(table, &options, &|_| {}).unwrap()
    }

    /// The answer is a DAG of the table's candidates with the score given, and its
    /// elimination order shows its width within `width`.
    fn check_answer(table: &ScoreTable, width: usize, best: &WithinWidth) {
        assert_eq!(best.dag.check(table).unwrap(), best.score);
        let moral = moral_graph(&best.dag);
        assert!(moral.elimination_width(&best.elimination_order) <= width);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// The branch and bound proves the brute force's optimum for every bound.
        #[test]
        fn it_proves_the_brute_force_optimum(table in arb_table(6), width in 0usize..4) {
            let outcome = solve(&table, width);
            prop_assert!(outcome.proved);
            let best = outcome.best.expect("the empty DAG is a candidate");
            check_answer(&table, width, &best);
            prop_assert_eq!(best.score, brute_force_within_width(&table, width));
            prop_assert_eq!(outcome.bound, Some(best.score));
        }
    }

    /// A stopped search keeps its incumbent and a bound above it, and says it did not
    /// finish; without time it has neither.
    #[test]
    fn a_stopped_search_keeps_what_it_found() {
        let table = larger_table(1);
        let stop = StopToken::new();
        let stopped_later = stop.clone();
        let options = WithinWidthOptions {
            width: 1,
            start: None,
            dp: DpOptions {
                stop,
                ..DpOptions::default()
            },
        };
        let outcome = solve_dp_within_width(&table, &options, &|p| {
            if p.incumbent.is_some() {
                stopped_later.stop();
            }
        })
        .unwrap();
        let best = outcome.best.expect("an incumbent before the stop");
        check_answer(&table, 1, &best);
        assert!(!outcome.proved);
        assert!(outcome.bound.unwrap() > best.score);
        let none = WithinWidthOptions {
            width: 1,
            start: None,
            dp: DpOptions {
                time_limit: Some(Duration::ZERO),
                ..DpOptions::default()
            },
        };
        let outcome = solve_dp_within_width(&table, &none, &|_| {}).unwrap();
        assert!(!outcome.proved && outcome.best.is_none() && outcome.bound.is_none());
    }
}
