//! Solving the ordering formulation (`bnsl_formulations::ordering`) in one MILP call on
//! any back-end, warm-started from a DAG when one is given and the back-end can take it.

use super::live::solve_reporting;
use super::{gap_closed, proven_bound, IlpOptions, IlpOutcome, IlpProgress};
use crate::milp::{Limits, MilpBackend, MilpOutcome, MipWatch, SolverError, Status, Watched};
use bnsl_formulations::milp::MilpModel;
use bnsl_formulations::ordering::ordering_model;
use bnsl_formulations::{Dag, FamilyIlp};
use std::time::Instant;

/// Solves the ordering program of `ilp`'s table with `backend`. On a back-end that can
/// be watched ([`Watched`]: HiGHS), `progress` hears every second how the solve goes.
pub fn solve_ordering(
    backend: &dyn MilpBackend,
    ilp: &FamilyIlp<'_>,
    options: &IlpOptions,
    progress: &dyn Fn(&IlpProgress),
) -> Result<IlpOutcome, SolverError> {
    let began = Instant::now();
    let model = ordering_model(ilp);
    let start = options
        .start
        .as_ref()
        .and_then(|dag| start_values(ilp, dag));
    let outcome = match (backend.watched(), backend.warm_start(), start) {
        (Some(watched), _, start) => {
            solve_watched(watched, &model, &options.limits, start.as_deref(), progress)?
        }
        (None, Some(warm), Some(start)) => warm.solve_from(&model, &options.limits, &start)?,
        _ => backend.solve(&model, &options.limits)?,
    };
    let infeasible = outcome.status == Status::Infeasible;
    // A solve stopped before it found anything (a CBC solve left running after
    // Ctrl+C) still has the start to report.
    let incumbent = outcome
        .values
        .as_ref()
        .and_then(|values| scored(ilp, ilp.graph_of(&values[..ilp.num_columns()])))
        .or_else(|| options.start.clone().and_then(|dag| scored(ilp, dag)))
        .filter(|_| !infeasible);
    let bound = proven_bound(
        outcome.status == Status::Optimal,
        &options.limits,
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
    let (dag, score) = incumbent.map_or((None, None), |(d, s)| (Some(d), Some(s)));
    Ok(IlpOutcome {
        status,
        dag,
        score,
        bound,
        nodes: outcome.nodes.unwrap_or(0),
        cuts: 0,
        lp_iterations: outcome.lp_iterations,
        rounds: None,
        time_s: began.elapsed().as_secs_f64(),
    })
}

/// Solves `model` on `watched`, reporting its incumbent value, bound and nodes every
/// second: every solution of the ordering program is a DAG, so its value is a network's
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

/// Column values of the ordering program for `dag`: its families, and order values that
/// decrease along every arc (`n − 1 −` position in a topological order).
fn start_values(ilp: &FamilyIlp<'_>, dag: &Dag) -> Option<Vec<f64>> {
    let mut values = ilp.values_of(dag)?;
    let order = dag.topological_order().ok()?;
    let n = ilp.n();
    let mut order_values = vec![0.0; n];
    for (pos, &v) in order.iter().enumerate() {
        order_values[v] = (n - 1 - pos) as f64;
    }
    values.extend(order_values);
    Some(values)
}
