//! The microlp back-end: microlp, a MILP solver written in Rust (simplex and branch and
//! bound, no native library), through the good_lp bridge ([`super::good_lp`]). It gives
//! the default build, which has no native solver, a MILP back-end: for small programs,
//! far slower than HiGHS, CBC or SCIP on anything hard (see README).
//!
//! microlp reports its best bound, node count and simplex iterations, which the bridge
//! passes on. It runs on one thread and cannot be stopped from outside while it solves.

use super::good_lp::{GoodLpBackend, GoodLpSolver, SolveReport};
use ::good_lp::solvers::microlp::{MicroLpProblem, MicroLpSolution};
use ::good_lp::variable::UnsolvedProblem;

/// microlp as a [`GoodLpSolver`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Microlp;

impl GoodLpSolver for Microlp {
    type Model = MicroLpProblem;

    fn name(&self) -> &'static str {
        "microlp"
    }

    fn version(&self) -> String {
        format!("microlp {}", env!("BNSL_MICROLP_VERSION"))
    }

    /// good_lp hands microlp integer bounds as 32-bit integers, clamping infinite ones.
    fn integer_range(&self) -> f64 {
        f64::from(i32::MAX)
    }

    fn model(&self, problem: UnsolvedProblem) -> MicroLpProblem {
        ::good_lp::microlp(problem)
    }

    fn report(&self, solution: MicroLpSolution) -> SolveReport {
        let stats = solution.into_inner().stats();
        SolveReport {
            bound: stats.best_bound,
            nodes: Some(stats.nodes_solved),
            lp_iterations: Some(stats.lp_iterations),
        }
    }
}

/// The microlp back-end.
pub type MicrolpBackend = GoodLpBackend<Microlp>;

#[cfg(test)]
mod tests {
    use super::*;

    crate::milp::testkit::backend_tests!(MicrolpBackend::default());
}
