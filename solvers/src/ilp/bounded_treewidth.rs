//! Solving the bounded-treewidth MILP (`bnsl_formulations::bounded_treewidth`,
//! formulation (6) of Nie et al. 2016) in one call on any back-end, warm-started from a
//! DAG of small enough treewidth when one is given and the back-end can take it.

use super::static_program::solve_static;
use super::{IlpOptions, IlpOutcome, IlpProgress};
use crate::milp::{MilpBackend, SolverError};
use bnsl_formulations::bounded_treewidth::{treewidth_model, TreewidthForm};
use bnsl_formulations::treewidth::{moral_graph, treewidth, TreewidthLimits};
use bnsl_formulations::{Dag, FamilyIlp};

/// Search nodes the exact treewidth of a warm start may take; a start whose width is not
/// settled within them is not used.
const START_WIDTH_NODES: u64 = 100_000;

/// The result of a bounded-treewidth solve.
#[derive(Clone, Debug, PartialEq)]
pub struct TreewidthOutcome {
    /// Incumbent, bound and work, as for every exact engine.
    pub ilp: IlpOutcome,
    /// An elimination order of the incumbent's moral graph of width at most the bound:
    /// the nodes by their elimination values (Theorem 1), or the start's order.
    pub elimination_order: Option<Vec<usize>>,
}

/// Solves the program (6) of `ilp`'s table with treewidth bound `width` on `backend`.
/// The start of `options` is used when its treewidth is at most `width`.
pub fn solve_bounded_treewidth(
    backend: &dyn MilpBackend,
    ilp: &FamilyIlp<'_>,
    width: usize,
    form: TreewidthForm,
    options: &IlpOptions,
    progress: &dyn Fn(&IlpProgress),
) -> Result<TreewidthOutcome, SolverError> {
    let program = treewidth_model(ilp, width, form);
    let start = options.start.as_ref().and_then(|dag| {
        let order = order_within(dag, width)?;
        let values = program.start_values(ilp, dag, &order)?;
        Some((dag.clone(), values, order))
    });
    let start_order = start.as_ref().map(|(_, _, order)| order.clone());
    let answer = solve_static(
        backend,
        ilp,
        &program.model,
        start.map(|(dag, values, _)| (dag, values)),
        options,
        progress,
    )?;
    let elimination_order = match (&answer.outcome.dag, answer.values) {
        (None, _) => None,
        (Some(_), Some(values)) => Some(program.elimination_order(&values)),
        (Some(_), None) => start_order,
    };
    Ok(TreewidthOutcome {
        ilp: answer.outcome,
        elimination_order,
    })
}

/// An elimination order of `dag`'s moral graph with width at most `width`, if one is
/// found within [`START_WIDTH_NODES`].
fn order_within(dag: &Dag, width: usize) -> Option<Vec<usize>> {
    let limits = TreewidthLimits {
        deadline: None,
        max_nodes: Some(START_WIDTH_NODES),
    };
    let found = treewidth(&moral_graph(dag), &limits);
    (found.upper <= width).then_some(found.order)
}
