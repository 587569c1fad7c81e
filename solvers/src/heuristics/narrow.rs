//! A DAG of bounded treewidth built greedily along an order: each node in turn takes its
//! best candidate among the nodes before it whose moral edges keep the width within the
//! bound. Used as the bounded-treewidth MILP's start and as a start of the k-tree search.

use bnsl_formulations::treewidth::{moral_graph, treewidth, TreewidthLimits};
use bnsl_formulations::{Candidate, Dag, ScoreTable, VarSet};

/// Search nodes each width check may take; a candidate whose check does not settle
/// within them is passed over.
const WIDTH_CHECK_NODES: u64 = 10_000;

/// The DAG of treewidth at most `width` built along `order` (a permutation of the
/// table's nodes; module doc); `None` when some node has no candidate that fits, or
/// when `spent` says so before a width check.
pub(crate) fn narrow_greedy(
    table: &ScoreTable,
    order: &[usize],
    width: usize,
    spent: &dyn Fn() -> bool,
) -> Option<Dag> {
    let n = table.n();
    let limits = TreewidthLimits {
        deadline: None,
        max_nodes: Some(WIDTH_CHECK_NODES),
    };
    let mut dag = Dag::empty(n);
    let mut placed = VarSet::empty(n);
    for &v in order {
        let mut candidates: Vec<&Candidate> = table
            .candidates(v)
            .iter()
            .filter(|c| c.parents.is_subset(&placed))
            .collect();
        candidates.sort_by(|a, b| b.score.total_cmp(&a.score));
        let mut choice = None;
        for c in candidates {
            if spent() {
                return None;
            }
            let mut trial = dag.clone();
            trial.set_parents(v, c.parents.clone());
            if treewidth(&moral_graph(&trial), &limits).upper <= width {
                choice = Some(c);
                break;
            }
        }
        let choice = choice?;
        dag.set_parents(v, choice.parents.clone());
        placed.insert(v);
    }
    Some(dag)
}
