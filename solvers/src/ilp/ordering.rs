//! Solving the ordering formulation (`bnsl_formulations::ordering`) in one MILP call on
//! any back-end, warm-started from a DAG when one is given and the back-end can take it.

use super::static_program::solve_static;
use super::{IlpOptions, IlpOutcome, IlpProgress};
use crate::milp::{MilpBackend, SolverError};
use bnsl_formulations::ordering::{ordering_model, ordering_start};
use bnsl_formulations::FamilyIlp;

/// Solves the ordering program of `ilp`'s table with `backend`. On a back-end that can
/// be watched (HiGHS), `progress` hears every second how the solve goes.
pub fn solve_ordering(
    backend: &dyn MilpBackend,
    ilp: &FamilyIlp<'_>,
    options: &IlpOptions,
    progress: &dyn Fn(&IlpProgress),
) -> Result<IlpOutcome, SolverError> {
    let model = ordering_model(ilp);
    let start = options
        .start
        .as_ref()
        .and_then(|dag| Some((dag.clone(), ordering_start(ilp, dag)?)));
    Ok(solve_static(backend, ilp, &model, start, options, progress)?.outcome)
}
