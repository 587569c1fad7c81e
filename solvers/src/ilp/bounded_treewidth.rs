//! Solving the bounded-treewidth MILP (`bnsl_formulations::bounded_treewidth`,
//! formulation (6) of Nie et al. 2016) in one call on any back-end, warm-started from a
//! DAG of small enough treewidth when one is given and the back-end can take it.

use super::cut_loop::root_cuts;
use super::static_program::solve_static;
use super::{family_solver, gap_closed, IlpOptions, IlpOutcome, IlpProgress};
use crate::dp::{solve_dp, DpError, DpOptions, DP_FASTER_UP_TO};
use crate::heuristics::narrow_greedy;
use crate::milp::{MilpBackend, SolverError, Status};
use bnsl_formulations::bounded_treewidth::{treewidth_model, treewidth_side, TreewidthForm};
use bnsl_formulations::treewidth::{moral_graph, treewidth, TreewidthLimits};
use bnsl_formulations::{Dag, FamilyIlp};
use std::sync::Arc;
use std::time::{Duration, Instant};

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
    /// Find the optimum without the bound first (by the DP up to [`DP_FASTER_UP_TO`]
    /// variables, else by the family ILP on the back-end): when its treewidth is at most
    /// the bound, it is the answer, proved, and the MILP is not built; otherwise its
    /// score bounds the answer and it guides the greedy start.
    pub unbounded_first: bool,
    /// On a back-end with its own branch and cut (SCIP), solve the family program with
    /// the treewidth rows as side constraints ([`treewidth_side`]) and acyclicity by
    /// cluster cuts, instead of the static program with its order rows (6g).
    pub branch_and_cut: bool,
}

impl TreewidthMilp {
    /// The tight static program with root cuts, after the unbounded optimum, for bound
    /// `width`.
    pub fn new(width: usize) -> Self {
        TreewidthMilp {
            width,
            form: TreewidthForm::Tight,
            root_cuts: true,
            unbounded_first: true,
            branch_and_cut: false,
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
    let mut stage = began;
    let mut options = options.clone();
    let mut free_bound = None;
    let mut free_dag = None;
    if settings.unbounded_first {
        // Its incumbents may exceed the bound: only its bound is news for the bounded
        // problem.
        let bound_only = |p: &IlpProgress| {
            progress(&IlpProgress {
                incumbent: None,
                ..p.clone()
            })
        };
        let free = unbounded_optimum(backend, ilp, &options, &bound_only)?;
        let fits = free
            .dag
            .as_ref()
            .and_then(|dag| order_within(dag, settings.width));
        match (free.status, fits) {
            (Status::Optimal, Some(order)) => {
                let ilp = IlpOutcome {
                    time_s: began.elapsed().as_secs_f64(),
                    ..free
                };
                return Ok(TreewidthOutcome {
                    ilp,
                    elimination_order: Some(order),
                });
            }
            (Status::Infeasible, _) => {
                return Ok(TreewidthOutcome {
                    ilp: free,
                    elimination_order: None,
                })
            }
            _ => (free_bound, free_dag) = (free.bound, free.dag),
        }
        spend(&mut options, &mut stage);
    }
    let start = best_start(
        ilp,
        settings.width,
        options.start.take(),
        greedy_within(ilp, settings.width, free_dag.as_ref()),
    );
    if settings.branch_and_cut && backend.branch_and_cut().is_some() {
        return solve_with_side(backend, ilp, settings, options, progress, free_bound, began);
    }
    let mut program = treewidth_model(ilp, settings.width, settings.form);
    let mut cuts = 0;
    if settings.root_cuts {
        let root = root_cuts(backend, ilp, &options)?;
        root.add_cuts_to(&mut program.model)
            .expect("cluster cuts are rows over the family columns");
        cuts = root.cuts;
        spend(&mut options, &mut stage);
    }
    let options = &options;
    let start = start.and_then(|(dag, order)| {
        let values = program.start_values(ilp, &dag, &order)?;
        Some((dag, values, order))
    });
    let start_order = start.as_ref().map(|(_, _, order)| order.clone());
    let tuned = backend.for_bounded_treewidth();
    let answer = solve_static(
        tuned.as_deref().unwrap_or(backend),
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
    Ok(finish(outcome, elimination_order, free_bound, began))
}

/// The optimum of `ilp` without the bound: by the DP up to [`DP_FASTER_UP_TO`] variables
/// (when its tables fit in memory), else by the family ILP on `backend`.
fn unbounded_optimum(
    backend: &dyn MilpBackend,
    ilp: &FamilyIlp<'_>,
    options: &IlpOptions,
    progress: &dyn Fn(&IlpProgress),
) -> Result<IlpOutcome, SolverError> {
    let table = ilp.table();
    if table.n() <= DP_FASTER_UP_TO {
        let began = Instant::now();
        let dp = DpOptions {
            time_limit: options.limits.time_limit.map(Duration::from_secs_f64),
            stop: options.limits.stop.clone(),
            ..DpOptions::default()
        };
        let outcome = |status, found: Option<(Dag, f64)>| IlpOutcome {
            status,
            score: found.as_ref().map(|f| f.1),
            bound: found.as_ref().map(|f| f.1),
            dag: found.map(|f| f.0),
            nodes: 0,
            cuts: 0,
            lp_iterations: None,
            rounds: None,
            time_s: began.elapsed().as_secs_f64(),
            clusters: Vec::new(),
        };
        match solve_dp(table, &dp) {
            Ok(best) => return Ok(outcome(Status::Optimal, Some((best.dag, best.score)))),
            Err(DpError::Infeasible) => return Ok(outcome(Status::Infeasible, None)),
            Err(DpError::Stopped { .. }) => return Ok(outcome(Status::Unknown, None)),
            Err(_) => {}
        }
    }
    family_solver(backend).solve(ilp, options, progress)
}

/// The bounded problem by the back-end's branch and cut on the family program with the
/// treewidth rows as side constraints.
fn solve_with_side(
    backend: &dyn MilpBackend,
    ilp: &FamilyIlp<'_>,
    settings: TreewidthMilp,
    options: IlpOptions,
    progress: &dyn Fn(&IlpProgress),
    free_bound: Option<f64>,
    began: Instant,
) -> Result<TreewidthOutcome, SolverError> {
    let side = treewidth_side(ilp, settings.width, settings.form);
    let options = IlpOptions {
        side: Some(Arc::new(side)),
        start: None,
        ..options
    };
    let outcome = family_solver(backend).solve(ilp, &options, progress)?;
    let order = outcome
        .dag
        .as_ref()
        .and_then(|dag| order_within(dag, settings.width));
    Ok(finish(outcome, order, free_bound, began))
}

/// The outcome with its total time, and with the unbounded optimum's bound when that is
/// the lower one or the MILP has none (closing the gap when it meets the incumbent).
pub(super) fn finish(
    mut outcome: IlpOutcome,
    elimination_order: Option<Vec<usize>>,
    free_bound: Option<f64>,
    began: Instant,
) -> TreewidthOutcome {
    outcome.time_s = began.elapsed().as_secs_f64();
    if let Some(free) = free_bound {
        if outcome.bound.is_none_or(|bound| free < bound) {
            outcome.bound = Some(free);
            if outcome.score.is_some_and(|s| gap_closed(s, free)) {
                outcome.status = Status::Optimal;
            }
        }
    }
    TreewidthOutcome {
        ilp: outcome,
        elimination_order,
    }
}

/// The higher-scoring of the greedy start and the given one (the greedy one on a tie),
/// with an elimination order of width at most `width`; a start outside the table's
/// candidates or wider than `width` is none.
fn best_start(
    ilp: &FamilyIlp<'_>,
    width: usize,
    given: Option<Dag>,
    greedy: Option<Dag>,
) -> Option<(Dag, Vec<usize>)> {
    [greedy, given]
        .into_iter()
        .flatten()
        .filter_map(|dag| {
            let order = order_within(&dag, width)?;
            let score = dag.check(ilp.table()).ok()?;
            Some((score, dag, order))
        })
        .reduce(|best, next| if next.0 > best.0 { next } else { best })
        .map(|(_, dag, order)| (dag, order))
}

/// A DAG of treewidth at most `width` built greedily along a topological order of
/// `guide` (the unbounded optimum, when there is one; else by index), as
/// [`narrow_greedy`] builds it. `None` when some node has no candidate that fits.
fn greedy_within(ilp: &FamilyIlp<'_>, width: usize, guide: Option<&Dag>) -> Option<Dag> {
    let table = ilp.table();
    let order = guide
        .and_then(|dag| dag.topological_order().ok())
        .unwrap_or_else(|| (0..table.n()).collect());
    narrow_greedy(table, &order, width, &|| false)
}

/// Shortens the time limit of `options` by the time since `stage` began, and begins
/// the next stage.
fn spend(options: &mut IlpOptions, stage: &mut Instant) {
    if let Some(limit) = options.limits.time_limit.as_mut() {
        *limit = (*limit - stage.elapsed().as_secs_f64()).max(0.0);
    }
    *stage = Instant::now();
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
