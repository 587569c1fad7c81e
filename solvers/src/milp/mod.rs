//! MILP back-ends behind one small trait: "solve this model within these limits, report
//! incumbent, bound and status" (SPEC §4).
//!
//! Each back-end lives in its own module behind a cargo feature (`highs`, `cbc`, `scip`)
//! and translates a solver-neutral [`MilpModel`] into its solver's API. Capabilities
//! that only some solvers have (warm starts, lazy constraints, objective limits) stay
//! out of this trait, so that the engine can adapt where a back-end lacks one.
//!
//! Statuses are reported as the solver proves them: [`Status::Optimal`] only when the
//! solver closed the gap (to [`Limits::gap`], or to its default tolerances when no gap
//! is given), never merely because a time limit stopped it with a good incumbent.

use bnsl_formulations::milp::MilpModel;

#[cfg(feature = "cbc")]
pub mod cbc;
#[cfg(feature = "highs")]
pub mod highs;
#[cfg(feature = "highs")]
pub mod highs_file;
#[cfg(feature = "scip")]
pub mod scip;
mod watch;

pub use watch::{MipWatch, Watched};

/// Limits and settings of one solve. `Limits::default()` means: no time limit, solve
/// to proven optimality, the solver's own thread count and seed, no solver log.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Wall-clock seconds the solver may run; `None` for no limit.
    pub time_limit: Option<f64>,
    /// Relative gap `|incumbent − bound| / |incumbent|` at which the solver may stop
    /// and report [`Status::Optimal`]; `None` means 0 (prove optimality).
    pub gap: Option<f64>,
    /// Number of threads; `None` lets the solver choose. Back-ends that solve
    /// sequentially (SCIP) say so in their documentation and ignore it.
    pub threads: Option<usize>,
    /// Random seed of the solver's randomised components, reduced modulo 2³¹;
    /// `None` keeps the solver's default.
    pub seed: Option<u64>,
    /// Print the solver's own log to standard output.
    pub verbose: bool,
    /// Stop once this many improving solutions were found (HiGHS
    /// `mip_max_improving_sols`, SCIP `limits/bestsol`; CBC `maxSolutions` in
    /// [`NodeCuts`] solves only, see [`MilpBackend::stops_at_improving_solutions`]);
    /// `None`: no such limit. A start
    /// the solver accepts may count as one. The outcome is then [`Status::Feasible`]
    /// with the best solution and a valid bound, unless the search happened to finish.
    pub improving_solutions: Option<u64>,
}

impl Limits {
    /// Checks that the limits are meaningful: a finite non-negative time limit and gap,
    /// and at least one thread.
    pub fn validate(&self) -> Result<(), SolverError> {
        if let Some(t) = self.time_limit {
            if !(t.is_finite() && t >= 0.0) {
                return Err(SolverError::InvalidLimit(format!(
                    "time limit {t} s is not a finite non-negative number"
                )));
            }
        }
        if let Some(g) = self.gap {
            if !(g.is_finite() && g >= 0.0) {
                return Err(SolverError::InvalidLimit(format!(
                    "gap {g} is not a finite non-negative number"
                )));
            }
        }
        if self.threads == Some(0) {
            return Err(SolverError::InvalidLimit(
                "thread count 0; use at least 1".into(),
            ));
        }
        if self.improving_solutions == Some(0) {
            return Err(SolverError::InvalidLimit(
                "improving-solution limit 0; use at least 1".into(),
            ));
        }
        Ok(())
    }

    /// The seed as the non-negative 32-bit integer that solvers take.
    pub fn seed_i32(&self) -> Option<i32> {
        self.seed.map(|s| (s % (1u64 << 31)) as i32)
    }
}

/// What a solve established about the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The incumbent is proven optimal (within [`Limits::gap`] when one was given).
    Optimal,
    /// An incumbent exists but optimality was not proven (a limit stopped the solver).
    Feasible,
    /// The model is proven to have no feasible point.
    Infeasible,
    /// The objective is proven unbounded in the direction of optimisation.
    Unbounded,
    /// Nothing was proven: no incumbent and no infeasibility proof.
    Unknown,
}

/// The result of one solve.
#[derive(Clone, Debug, PartialEq)]
pub struct MilpOutcome {
    /// What was proven.
    pub status: Status,
    /// Objective value of the incumbent, if there is one.
    pub objective: Option<f64>,
    /// Best proven bound on the optimum in the direction of optimisation (an upper
    /// bound when maximising), if the solver established a finite one.
    pub bound: Option<f64>,
    /// Incumbent values, one per model variable, if there is an incumbent.
    pub values: Option<Vec<f64>>,
    /// Branch-and-bound nodes processed, where the solver reports it.
    pub nodes: Option<u64>,
    /// Simplex iterations, where the solver reports them.
    pub lp_iterations: Option<u64>,
    /// Wall-clock seconds spent in the back-end, model translation included.
    pub time_s: f64,
}

impl MilpOutcome {
    /// An outcome that establishes nothing: no status, solution, bound or work counts.
    pub fn nothing_known() -> Self {
        MilpOutcome {
            status: Status::Unknown,
            objective: None,
            bound: None,
            values: None,
            nodes: None,
            lp_iterations: None,
            time_s: 0.0,
        }
    }

    /// The relative gap `|objective − bound| / max(|objective|, 1e-10)`, when both exist.
    pub fn relative_gap(&self) -> Option<f64> {
        let (obj, bound) = (self.objective?, self.bound?);
        Some((obj - bound).abs() / obj.abs().max(1e-10))
    }
}

/// Failures of a back-end (as opposed to outcomes such as infeasibility).
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum SolverError {
    /// A limit in [`Limits`] is out of range.
    #[error("invalid solver limit: {0}")]
    InvalidLimit(String),
    /// The solver rejected the model or a setting, or failed while solving.
    #[error("{backend}: {message}")]
    Backend {
        /// Name of the back-end ([`MilpBackend::name`]).
        backend: &'static str,
        /// What went wrong, in the solver's terms.
        message: String,
    },
}

/// A MILP solver: solves a [`MilpModel`] within [`Limits`] and reports what it proved.
pub trait MilpBackend: Send + Sync {
    /// Short lowercase name, as used on the command line (`highs`, `cbc`, `scip`).
    fn name(&self) -> &'static str;

    /// Solves `model` within `limits`.
    fn solve(&self, model: &MilpModel, limits: &Limits) -> Result<MilpOutcome, SolverError>;

    /// The warm-start capability, when the back-end has it.
    fn warm_start(&self) -> Option<&dyn WarmStart> {
        None
    }

    /// Whether the back-end honours [`Limits::improving_solutions`]; one that does not
    /// refuses a solve that sets it.
    fn stops_at_improving_solutions(&self) -> bool {
        true
    }

    /// The node-cut capability, when the back-end has it.
    fn node_cuts(&self) -> Option<&dyn NodeCuts> {
        None
    }

    /// The capability to report progress during a solve, when the back-end has it.
    fn watched(&self) -> Option<&dyn Watched> {
        None
    }
}

/// A row `Σ coefficient · x(column) ≥ lower` that a [`CutSeparator`] adds.
#[derive(Clone, Debug, PartialEq)]
pub struct CutRow {
    /// `(column index, coefficient)` pairs, each column once.
    pub terms: Vec<(usize, f64)>,
    /// The right-hand side.
    pub lower: f64,
}

/// Finds valid inequalities that an LP solution of the model violates. It is called
/// from the solver's own threads, so it must be `Send + Sync`, and it must not call the
/// back-end that called it.
pub trait CutSeparator: Send + Sync {
    /// Rows violated by `values` (one value per column of the model), each valid for
    /// every feasible point of the problem the model relaxes.
    fn separate(&self, values: &[f64]) -> Vec<CutRow>;
}

/// Capability: a branch and bound that calls a [`CutSeparator`] on the LP solution of
/// its nodes and adds the rows it returns (CBC's cut-generator callback).
///
/// It is a *user-cut* callback, not a lazy-constraint one: the solver may accept an
/// integer solution (an integral LP, a start, a heuristic's point) without asking the
/// separator. So the
/// outcome's solution may violate rows the separator knows, and the caller must check
/// it; the bound stays valid for the problem as long as every row is.
///
/// `Sync`: the cut loop runs such a solve on a thread of its own and reports progress
/// while it runs.
pub trait NodeCuts: Sync {
    /// Solves `model` within `limits` (all of them, [`Limits::improving_solutions`]
    /// included) from `start` (if any, as [`WarmStart`] takes it), with `separator`
    /// called at the nodes.
    fn solve_with_cuts(
        &self,
        model: &MilpModel,
        limits: &Limits,
        start: Option<&[f64]>,
        separator: std::sync::Arc<dyn CutSeparator>,
    ) -> Result<MilpOutcome, SolverError>;
}

/// Capability: solve a MILP starting from a known feasible point (a MIP start).
pub trait WarmStart {
    /// Solves `model` within `limits`, handing `start` (one value per variable) to the
    /// solver as a starting incumbent. A start the solver finds infeasible is ignored.
    fn solve_from(
        &self,
        model: &MilpModel,
        limits: &Limits,
        start: &[f64],
    ) -> Result<MilpOutcome, SolverError>;
}

/// The back-ends compiled into this build, in a fixed order (SCIP, HiGHS, CBC).
// Which pushes exist depends on the features, hence the allowances.
#[allow(unused_mut, clippy::vec_init_then_push)]
pub fn backends() -> Vec<Box<dyn MilpBackend>> {
    let mut list: Vec<Box<dyn MilpBackend>> = Vec::new();
    #[cfg(feature = "scip")]
    list.push(Box::new(scip::ScipBackend));
    #[cfg(feature = "highs")]
    list.push(Box::new(highs::HighsBackend::default()));
    #[cfg(feature = "cbc")]
    list.push(Box::new(cbc::CbcBackend));
    list
}

/// The compiled-in back-end with the given name, if any.
pub fn backend(name: &str) -> Option<Box<dyn MilpBackend>> {
    backends().into_iter().find(|b| b.name() == name)
}

/// The outcome of a model without variables, which every row either accepts (activity
/// 0 within its sides) or rejects. Back-ends answer such models without a solver call,
/// since solvers disagree on how to report them.
#[cfg_attr(
    not(any(feature = "highs", feature = "cbc", feature = "scip")),
    allow(dead_code)
)]
fn trivial_outcome(model: &MilpModel) -> Option<MilpOutcome> {
    if model.num_vars() > 0 {
        return None;
    }
    let feasible = model
        .rows()
        .iter()
        .all(|r| r.lower <= 0.0 && 0.0 <= r.upper);
    Some(MilpOutcome {
        status: if feasible {
            Status::Optimal
        } else {
            Status::Infeasible
        },
        objective: feasible.then_some(0.0),
        bound: feasible.then_some(0.0),
        values: feasible.then(Vec::new),
        nodes: Some(0),
        lp_iterations: Some(0),
        time_s: 0.0,
    })
}

/// `Some(x)` when `x` is finite: solvers report "no bound" as ±infinity or as a huge
/// sentinel value (SCIP's 1e20, CBC's 1e50 and more).
#[cfg_attr(
    not(any(feature = "highs", feature = "cbc", feature = "scip")),
    allow(dead_code)
)]
fn finite(x: f64) -> Option<f64> {
    (x.is_finite() && x.abs() < 1e20).then_some(x)
}

/// Checks that a warm start has one value per model variable, as [`WarmStart`] requires;
/// `backend` names the back-end in the error.
#[cfg_attr(
    not(any(feature = "highs", feature = "cbc", feature = "scip")),
    allow(dead_code)
)]
fn check_start(backend: &'static str, model: &MilpModel, start: &[f64]) -> Result<(), SolverError> {
    if start.len() == model.num_vars() {
        return Ok(());
    }
    Err(SolverError::Backend {
        backend,
        message: format!(
            "start has {} values for {} variables",
            start.len(),
            model.num_vars()
        ),
    })
}

#[cfg(all(test, any(feature = "highs", feature = "cbc", feature = "scip")))]
mod testkit;

#[cfg(all(test, feature = "highs"))]
mod file_roundtrip;

#[cfg(test)]
mod tests {
    use super::*;
    use bnsl_formulations::milp::Sense;

    #[test]
    fn validates_limits() {
        assert_eq!(Limits::default().validate(), Ok(()));
        let bad = [
            Limits {
                time_limit: Some(-1.0),
                ..Limits::default()
            },
            Limits {
                time_limit: Some(f64::NAN),
                ..Limits::default()
            },
            Limits {
                gap: Some(f64::INFINITY),
                ..Limits::default()
            },
            Limits {
                threads: Some(0),
                ..Limits::default()
            },
            Limits {
                improving_solutions: Some(0),
                ..Limits::default()
            },
        ];
        for limits in bad {
            assert!(
                matches!(limits.validate(), Err(SolverError::InvalidLimit(_))),
                "{limits:?}"
            );
        }
        let l = Limits {
            seed: Some((1 << 31) + 5),
            ..Limits::default()
        };
        assert_eq!(l.seed_i32(), Some(5));
    }

    #[test]
    fn relative_gap_needs_both_sides() {
        let mut o = MilpOutcome {
            status: Status::Feasible,
            objective: Some(-200.0),
            bound: Some(-190.0),
            values: None,
            nodes: None,
            lp_iterations: None,
            time_s: 0.0,
        };
        assert_eq!(o.relative_gap(), Some(0.05));
        o.bound = None;
        assert_eq!(o.relative_gap(), None);
    }

    #[test]
    fn empty_models_are_decided_without_a_solver() {
        let mut m = MilpModel::new(Sense::Maximize);
        assert_eq!(trivial_outcome(&m).map(|o| o.status), Some(Status::Optimal));
        m.add_row("ok", [], -1.0, 1.0).unwrap();
        assert_eq!(trivial_outcome(&m).map(|o| o.objective), Some(Some(0.0)));
        m.add_row("bad", [], 1.0, 2.0).unwrap();
        assert_eq!(
            trivial_outcome(&m).map(|o| o.status),
            Some(Status::Infeasible)
        );
        m.add_binary("x", 1.0).unwrap();
        assert_eq!(trivial_outcome(&m), None);
    }

    #[test]
    fn lists_compiled_backends() {
        let names: Vec<&str> = backends().iter().map(|b| b.name()).collect();
        let expected: Vec<&str> = [
            (cfg!(feature = "scip"), "scip"),
            (cfg!(feature = "highs"), "highs"),
            (cfg!(feature = "cbc"), "cbc"),
        ]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect();
        assert_eq!(names, expected);
        assert!(backend("gurobi").is_none());
        for name in expected {
            assert_eq!(backend(name).map(|b| b.name()), Some(name));
        }
    }

    #[test]
    fn finite_filters_sentinels() {
        assert_eq!(finite(3.5), Some(3.5));
        assert_eq!(finite(f64::NEG_INFINITY), None);
        assert_eq!(finite(1e20), None);
        assert_eq!(finite(-1e50), None);
    }
}
