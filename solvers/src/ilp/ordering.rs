//! Solving the ordering formulation (`bnsl_formulations::ordering`) in one MILP call on
//! any back-end, warm-started from a DAG when one is given and the back-end can take it.

use super::{gap_closed, proven_bound, IlpOptions, IlpOutcome, IlpStatus};
use crate::milp::{MilpBackend, SolverError, Status};
use bnsl_formulations::ordering::ordering_model;
use bnsl_formulations::{Dag, FamilyIlp};
use std::time::Instant;

/// Solves the ordering program of `ilp`'s table with `backend`.
pub fn solve_ordering(
    backend: &dyn MilpBackend,
    ilp: &FamilyIlp<'_>,
    options: &IlpOptions,
) -> Result<IlpOutcome, SolverError> {
    let began = Instant::now();
    let model = ordering_model(ilp);
    let start = options
        .start
        .as_ref()
        .and_then(|dag| start_values(ilp, dag));
    let outcome = match (backend.warm_start(), start) {
        (Some(warm), Some(start)) => warm.solve_from(&model, &options.limits, &start)?,
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
        _ if infeasible => IlpStatus::Infeasible,
        (Some((_, s)), Some(b)) if gap_closed(*s, b) => IlpStatus::Optimal,
        (Some(_), _) => IlpStatus::Feasible,
        (None, _) => IlpStatus::Unknown,
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
