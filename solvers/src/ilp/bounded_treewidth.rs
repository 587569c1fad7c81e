//! Solving the bounded-treewidth MILP (`bnsl_formulations::bounded_treewidth`,
//! formulation (6) of Nie et al. 2016) in one call on any back-end, warm-started from a
//! DAG of small enough treewidth when one is given and the back-end can take it.

use super::cut_loop::root_cuts;
use super::static_program::solve_static;
use super::{IlpOptions, IlpOutcome, IlpProgress};
use crate::milp::{MilpBackend, SolverError};
use bnsl_formulations::bounded_treewidth::{treewidth_model, TreewidthForm};
use bnsl_formulations::treewidth::{moral_graph, treewidth, TreewidthLimits};
use bnsl_formulations::{Dag, FamilyIlp};
use std::time::Instant;

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

/// How the bounded-treewidth program is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreewidthMilp {
    /// The treewidth bound `w`.
    pub width: usize,
    /// Which rows.
    pub form: TreewidthForm,
    /// Start from the cluster cuts that the cut loop's LP rounds find on the family
    /// program ([`root_cuts`]): valid for every DAG, so the program keeps its optimum,
    /// and they tighten its acyclicity, which the order rows alone leave loose.
    pub root_cuts: bool,
}

impl TreewidthMilp {
    /// The tight form with root cuts, for bound `width`.
    pub fn new(width: usize) -> Self {
        TreewidthMilp {
            width,
            form: TreewidthForm::Tight,
            root_cuts: true,
        }
    }
}

/// Solves the program (6) of `ilp`'s table as `settings` build it, on `backend`; the
/// time limit covers the root rounds. The start of `options` is used when its treewidth
/// is at most the bound.
pub fn solve_bounded_treewidth(
    backend: &dyn MilpBackend,
    ilp: &FamilyIlp<'_>,
    settings: TreewidthMilp,
    options: &IlpOptions,
    progress: &dyn Fn(&IlpProgress),
) -> Result<TreewidthOutcome, SolverError> {
    let began = Instant::now();
    let mut program = treewidth_model(ilp, settings.width, settings.form);
    let mut options = options.clone();
    let mut cuts = 0;
    if settings.root_cuts {
        let root = root_cuts(backend, ilp, &options)?;
        root.add_cuts_to(&mut program.model)
            .expect("cluster cuts are rows over the family columns");
        cuts = root.cuts;
        if let Some(limit) = options.limits.time_limit.as_mut() {
            *limit = (*limit - began.elapsed().as_secs_f64()).max(0.0);
        }
    }
    let options = &options;
    let width = settings.width;
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
    let mut outcome = answer.outcome;
    outcome.cuts = cuts;
    outcome.time_s = began.elapsed().as_secs_f64();
    Ok(TreewidthOutcome {
        ilp: outcome,
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
