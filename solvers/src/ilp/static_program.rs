//! One MILP call on a static program whose first columns are the family columns of a
//! [`FamilyIlp`] (the ordering formulation, the bounded-treewidth MILP), on any
//! back-end, warm-started from a feasible point when one is given and the back-end can
//! take it.

use super::live::solve_reporting;
use super::{gap_closed, proven_bound, IlpOptions, IlpOutcome, IlpProgress};
use crate::milp::{Limits, MilpBackend, MilpOutcome, MipWatch, SolverError, Status, Watched};
use bnsl_formulations::milp::MilpModel;
use bnsl_formulations::{Dag, FamilyIlp};
use std::time::Instant;

/// What [`solve_static`] found: the outcome, and the column values of the incumbent
/// when the back-end found it (`None` when the incumbent is the start, or there is none).
pub(crate) struct StaticAnswer {
    pub(crate) outcome: IlpOutcome,
    pub(crate) values: Option<Vec<f64>>,
}

/// Solves `model`, a static program over `ilp`'s family columns, with `backend`,
/// starting from `start` (a DAG and its feasible point) when given. On a back-end that
/// can be watched ([`Watched`]: HiGHS), `progress` hears every second how the solve goes.
pub(crate) fn solve_static(
    backend: &dyn MilpBackend,
    ilp: &FamilyIlp<'_>,
    model: &MilpModel,
    start: Option<(Dag, Vec<f64>)>,
    options: &IlpOptions,
    progress: &dyn Fn(&IlpProgress),
) -> Result<StaticAnswer, SolverError> {
    let began = Instant::now();
    let (start_dag, start_values) = start.unzip();
    let outcome = match (backend.watched(), backend.warm_start(), start_values) {
        (Some(watched), _, start) => {
            solve_watched(watched, model, &options.limits, start.as_deref(), progress)?
        }
        (None, Some(warm), Some(start)) => warm.solve_from(model, &options.limits, &start)?,
        _ => backend.solve(model, &options.limits)?,
    };
    Ok(answer_of(ilp, outcome, start_dag, &options.limits, began))
}

/// The answer of a solve of a complete program over `ilp`'s family columns that ended
/// with `outcome`, under `limits`, begun at `began` from `start_dag` (the incumbent
/// when the solver found nothing).
pub(crate) fn answer_of(
    ilp: &FamilyIlp<'_>,
    outcome: MilpOutcome,
    start_dag: Option<Dag>,
    limits: &Limits,
    began: Instant,
) -> StaticAnswer {
    let infeasible = outcome.status == Status::Infeasible;
    let found = outcome
        .values
        .as_ref()
        .and_then(|values| scored(ilp, ilp.graph_of(&values[..ilp.num_columns()])));
    let from_solver = found.is_some();
    // A solve stopped before it found anything (a CBC solve left running after
    // Ctrl+C) still has the start to report.
    let incumbent = found
        .or_else(|| start_dag.and_then(|dag| scored(ilp, dag)))
        .filter(|_| !infeasible);
    let bound = proven_bound(
        outcome.status == Status::Optimal,
        limits,
        incumbent.as_ref().map(|(_, s)| *s),
        outcome.bound,
    )
    .filter(|_| !infeasible)
    .map(|b| incumbent.as_ref().map_or(b, |(_, s)| b.max(*s)));
    let status = match (&incumbent, bound) {
        _ if infeasible => Status::Infeasible,
        (Some((_, s)), Some(b)) if gap_closed(*s, b) => Status::Optimal,
        (Some(_), _) => Status::Feasible,
        (None, _) => Status::Unknown,
    };
    let values = outcome.values.filter(|_| from_solver && !infeasible);
    let (dag, score) = incumbent.map_or((None, None), |(d, s)| (Some(d), Some(s)));
    StaticAnswer {
        outcome: IlpOutcome {
            status,
            dag,
            score,
            bound,
            nodes: outcome.nodes.unwrap_or(0),
            cuts: 0,
            lp_iterations: outcome.lp_iterations,
            rounds: None,
            time_s: began.elapsed().as_secs_f64(),
            clusters: Vec::new(),
        },
        values,
    }
}

/// Solves `model` on `watched`, reporting its incumbent value, bound and nodes every
/// second: every solution of a static program is a DAG, so its value is a network's
/// score.
fn solve_watched(
    watched: &dyn Watched,
    model: &MilpModel,
    limits: &Limits,
    start: Option<&[f64]>,
    progress: &dyn Fn(&IlpProgress),
) -> Result<MilpOutcome, SolverError> {
    let watch = MipWatch::default();
    solve_reporting(
        || watched.solve_watched(model, limits, start, &watch),
        || {
            progress(&IlpProgress {
                incumbent: watch.incumbent(),
                bound: watch.bound(),
                cuts: 0,
                nodes: watch.nodes(),
                rounds: 0,
            })
        },
    )
}

/// `dag` with its score, if it is a DAG of the table's candidates.
fn scored(ilp: &FamilyIlp<'_>, dag: Dag) -> Option<(Dag, f64)> {
    let score = dag.check(ilp.table()).ok()?;
    Some((dag, score))
}
