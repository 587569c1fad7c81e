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

use crate::ilp::FamilyIlpSolver;
use crate::stop::StopToken;
use bnsl_formulations::milp::MilpModel;

#[cfg(feature = "cbc")]
pub mod cbc;
#[cfg(feature = "good_lp")]
pub mod good_lp;
#[cfg(feature = "highs")]
pub mod highs;
#[cfg(feature = "highs")]
pub mod highs_file;
#[cfg(feature = "microlp")]
pub mod microlp;
#[cfg(feature = "scip")]
pub mod scip;
mod watch;

pub use watch::{MipWatch, Watched};

/// The most threads a solve may ask for: solvers start every thread asked for, however
/// few cores there are, and a huge count alone makes a small solve take minutes.
pub const MAX_THREADS: usize = 256;

/// Limits and settings of one solve. `Limits::default()` means: no time limit, solve
/// to proven optimality, the solver's own thread count and seed, no solver log, and a
/// stop token of its own that nobody else holds.
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
    /// Skip the solver's neighbourhood search that solves a sub-MIP around the LP
    /// solution and the incumbent (HiGHS's RINS); back-ends without one ignore it. The
    /// cut loop's complete solve sets it: on its programs (family columns and a linear
    /// order) HiGHS spent most of its time in that sub-MIP (README, "Exact ILP (family
    /// variables)", the cut loop).
    pub no_neighbourhood_search: bool,
    /// Stops the solve early, as a time limit would, when stopped from outside (another
    /// thread, or the command line's Ctrl+C handler); the outcome then has the best
    /// solution and bound so far.
    pub stop: StopToken,
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
        match self.threads {
            Some(0) => {
                return Err(SolverError::InvalidLimit(
                    "thread count 0; use at least 1".into(),
                ))
            }
            Some(n) if n > MAX_THREADS => {
                return Err(SolverError::InvalidLimit(format!(
                    "thread count {n} is above {MAX_THREADS}, the most bnsl hands a solver"
                )))
            }
            _ => {}
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

/// What a solve established: of one MILP, of an exact BNSL solve ([`crate::ilp`]), or of
/// a whole learning run. The one status type of bnsl.
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

impl Status {
    /// The lower-case name used in JSON and on the terminal.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Optimal => "optimal",
            Status::Feasible => "feasible",
            Status::Infeasible => "infeasible",
            Status::Unbounded => "unbounded",
            Status::Unknown => "unknown",
        }
    }
}

/// The relative gap `|bound − incumbent| / max(|incumbent|, 1e-10)` between an
/// incumbent's objective value and a bound on the optimum: the one gap of bnsl, in
/// reports, progress lines and `--gap`.
pub fn relative_gap(incumbent: f64, bound: f64) -> f64 {
    (bound - incumbent).abs() / incumbent.abs().max(1e-10)
}

/// Magnitude at and beyond which a solver's value means "none": solvers report no
/// bound or no incumbent as ±infinity or as a huge sentinel (SCIP's 1e20, CBC's 1e50).
pub const NO_VALUE: f64 = 1e19;

/// `Some(x)` when `x` is a value, not a solver's "none" (see [`NO_VALUE`]).
#[cfg_attr(
    not(any(feature = "highs", feature = "cbc", feature = "scip")),
    allow(dead_code)
)]
pub(crate) fn finite(x: f64) -> Option<f64> {
    (x.is_finite() && x.abs() < NO_VALUE).then_some(x)
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

    /// The [`relative_gap`] of objective and bound, when both exist.
    pub fn relative_gap(&self) -> Option<f64> {
        Some(relative_gap(self.objective?, self.bound?))
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

/// A MILP solver: solves a [`MilpModel`] within [`Limits`] and reports what it proved,
/// and describes itself: its options, its capabilities, and which engine solves the
/// family ILP on it. Callers ask the registry ([`backend`], [`configured`]) by name and
/// never match names themselves.
pub trait MilpBackend: Send + Sync {
    /// Short lowercase name, as used on the command line (`highs`, `cbc`, `scip`).
    fn name(&self) -> &'static str;

    /// The solver and the version of it linked into this build (`SCIP 10.0.0`), for the
    /// machine record of a benchmark study.
    fn version(&self) -> String;

    /// Solves `model` within `limits`.
    fn solve(&self, model: &MilpModel, limits: &Limits) -> Result<MilpOutcome, SolverError>;

    /// This back-end with the user's `NAME=VALUE` options (the command line's
    /// `--backend-param`), each parsed and checked by the back-end; an error names the
    /// option and why it was refused.
    fn with_params(&self, params: &[(String, String)])
        -> Result<Box<dyn MilpBackend>, SolverError>;

    /// The back-end set up for the many small separation sub-IPs of the cut loop.
    fn for_sub_ips(&self) -> Box<dyn MilpBackend>;

    /// How well the back-end solves separation sub-IPs, as measured (README, "Benchmark
    /// notes behind design choices"): the cut loop's sub-IPs go to the compiled-in
    /// back-end of highest rank.
    fn sub_ip_rank(&self) -> u8;

    /// The back-end set up for the bounded-treewidth MILP, when that needs settings of
    /// its own; `None`: as it is. HiGHS turns its presolve off there: with it, HiGHS
    /// declared wrong optima of small bounded-treewidth programs
    /// (`ilp::treewidth_tests::highs_presolve_does_not_decide_bounded_treewidth_optima`).
    fn for_bounded_treewidth(&self) -> Option<Box<dyn MilpBackend>> {
        None
    }

    /// The branch-and-cut engine of the family ILP on this back-end, when it has one
    /// (lazy constraints and cut callbacks inside one search); `None`: the family ILP
    /// runs in the cut loop around [`MilpBackend::solve`].
    fn branch_and_cut(&self) -> Option<Box<dyn FamilyIlpSolver + '_>> {
        None
    }

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

    /// The capability to report an LP's row duals, when the back-end has it.
    fn lp_duals(&self) -> Option<&dyn LpDuals> {
        None
    }

    /// Everything the back-end can do, in one value (for listings and reports).
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            warm_start: self.warm_start().is_some(),
            node_cuts: self.node_cuts().is_some(),
            watched: self.watched().is_some(),
            improving_solution_limit: self.stops_at_improving_solutions(),
            branch_and_cut: self.branch_and_cut().is_some(),
            lp_duals: self.lp_duals().is_some(),
        }
    }
}

/// What a back-end can do beyond [`MilpBackend::solve`] (see [`MilpBackend::capabilities`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// Solves from a known feasible point ([`WarmStart`]).
    pub warm_start: bool,
    /// Separates cuts at its branch-and-bound nodes ([`NodeCuts`]).
    pub node_cuts: bool,
    /// Reports progress while it solves ([`Watched`]).
    pub watched: bool,
    /// Stops at a number of improving solutions ([`Limits::improving_solutions`]).
    pub improving_solution_limit: bool,
    /// Runs the family ILP as one branch and cut with lazy acyclicity constraints
    /// ([`MilpBackend::branch_and_cut`]); otherwise the cut loop runs it.
    pub branch_and_cut: bool,
    /// Reports the row duals of an LP ([`LpDuals`]).
    pub lp_duals: bool,
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

    /// The back-end on which `separator` may solve MILP sub-problems while this one
    /// runs it, set up for sub-IPs; `None` (the default): none may run.
    fn sub_ips_in_callbacks(&self) -> Option<Box<dyn MilpBackend>> {
        None
    }
}

/// An optimal solution of a linear program, with the dual value of every row.
#[derive(Clone, Debug, PartialEq)]
pub struct LpSolution {
    /// The objective value.
    pub objective: f64,
    /// One value per column.
    pub values: Vec<f64>,
    /// One dual value per row, in the solver's sign convention: its magnitude is the
    /// rate at which the objective changes with the row's active side.
    pub row_duals: Vec<f64>,
    /// Simplex iterations of the solve.
    pub iterations: u64,
}

/// Capability: keep the LP relaxation of a model open for a sequence of solves that
/// report row duals (for certificates of optimality, [`crate::ilp::certification`], and
/// the LP rounds of the cut loop, [`crate::ilp::cut_loop`]).
pub trait LpDuals {
    /// Opens the LP relaxation of `model`; the session's solves honour `limits` (its
    /// time limit per solve, its stop token).
    fn open_lp(
        &self,
        model: &MilpModel,
        limits: &Limits,
    ) -> Result<Box<dyn LpSession>, SolverError>;
}

/// A row `lower ≤ Σ coefficient · x(column) ≤ upper` for [`LpSession::add_rows`].
#[derive(Clone, Debug, PartialEq)]
pub struct LpRow {
    /// `(column, coefficient)` pairs.
    pub terms: Vec<(usize, f64)>,
    /// The lower side (may be −∞).
    pub lower: f64,
    /// The upper side (may be +∞).
    pub upper: f64,
}

/// An LP kept in the solver between solves: rows may be added and column bounds
/// changed, and each solve starts from the last one's basis.
pub trait LpSession {
    /// Appends the rows `lower ≤ Σ coefficient · x(column) ≤ upper` (each given as
    /// terms, lower, upper), in one call.
    fn add_rows(&mut self, rows: &[LpRow]) -> Result<(), SolverError>;

    /// Deletes the rows of the given indices (ascending); the rows after them move up,
    /// keeping their order.
    fn delete_rows(&mut self, rows: &[usize]) -> Result<(), SolverError>;

    /// Sets the bounds of a column.
    fn set_column_bounds(
        &mut self,
        column: usize,
        lower: f64,
        upper: f64,
    ) -> Result<(), SolverError>;

    /// Solves the LP as it now is, within `time_limit` seconds; `None` when it was not
    /// solved to optimality (infeasible, unbounded, or stopped).
    fn solve(&mut self, time_limit: Option<f64>) -> Result<Option<LpSolution>, SolverError>;
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

/// The back-ends compiled into this build, in a fixed order (SCIP, HiGHS, CBC,
/// microlp): the registry. A new back-end is a module of its own plus one line here.
// Which pushes exist depends on the features, hence the allowances.
#[allow(unused_mut, clippy::vec_init_then_push)]
pub fn backends() -> Vec<Box<dyn MilpBackend>> {
    let mut list: Vec<Box<dyn MilpBackend>> = Vec::new();
    #[cfg(feature = "scip")]
    list.push(Box::new(scip::ScipBackend::default()));
    #[cfg(feature = "highs")]
    list.push(Box::new(highs::HighsBackend::default()));
    #[cfg(feature = "cbc")]
    list.push(Box::new(cbc::CbcBackend));
    #[cfg(feature = "microlp")]
    list.push(Box::new(microlp::MicrolpBackend::default()));
    list
}

/// The compiled-in back-end with the given name, if any.
pub fn backend(name: &str) -> Option<Box<dyn MilpBackend>> {
    backends().into_iter().find(|b| b.name() == name)
}

/// Why the registry could not give the back-end asked for.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum BackendChoiceError {
    /// No back-end of that name is compiled in.
    #[error("back-end `{name}` is not compiled into this build (available: {available}); build with --features native")]
    NotCompiled {
        /// The name asked for.
        name: String,
        /// The names compiled in, comma-separated, or `none`.
        available: String,
    },
    /// No back-end at all is compiled in.
    #[error("no MILP back-end is compiled into this build; build with --features native")]
    NoneCompiled,
    /// An option was given for another back-end than the one that runs.
    #[error("option `{option}` is for the {intended} back-end, but this run uses {chosen} (give --backend {intended})")]
    OtherBackend {
        /// The option's name.
        option: String,
        /// The back-end it was given for.
        intended: String,
        /// The back-end that runs.
        chosen: &'static str,
    },
    /// The back-end refused an option.
    #[error(transparent)]
    Option(#[from] SolverError),
}

/// A user's `NAME=VALUE` option for a back-end, and the back-end it was given for
/// (`None`: whichever runs).
#[derive(Clone, Debug, PartialEq)]
pub struct BackendParam {
    /// The back-end the option is meant for, if the user said.
    pub intended: Option<String>,
    /// The option's name.
    pub name: String,
    /// Its value, as text; the back-end parses it.
    pub value: String,
}

/// The back-end called `name` (the first compiled in when `None`), set up with the
/// user's `params` ([`MilpBackend::with_params`]), each checked to be meant for it.
pub fn configured(
    name: Option<&str>,
    params: &[BackendParam],
) -> Result<Box<dyn MilpBackend>, BackendChoiceError> {
    let all = backends();
    let chosen = match name {
        None => all.first().ok_or(BackendChoiceError::NoneCompiled)?,
        Some(name) => all.iter().find(|b| b.name() == name).ok_or_else(|| {
            let names: Vec<&str> = all.iter().map(|b| b.name()).collect();
            BackendChoiceError::NotCompiled {
                name: name.to_string(),
                available: if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                },
            }
        })?,
    };
    if let Some(p) = params
        .iter()
        .find(|p| p.intended.as_deref().is_some_and(|b| b != chosen.name()))
    {
        return Err(BackendChoiceError::OtherBackend {
            option: p.name.clone(),
            intended: p.intended.clone().unwrap_or_default(),
            chosen: chosen.name(),
        });
    }
    let pairs: Vec<(String, String)> = params
        .iter()
        .map(|p| (p.name.clone(), p.value.clone()))
        .collect();
    Ok(chosen.with_params(&pairs)?)
}

/// The back-end that solves the cut loop's separation sub-IPs: the compiled-in one of
/// highest [`MilpBackend::sub_ip_rank`], set up for them.
pub(crate) fn sub_ip_backend() -> Option<Box<dyn MilpBackend>> {
    small_program_backend().map(|b| b.for_sub_ips())
}

/// The compiled-in back-end of highest [`MilpBackend::sub_ip_rank`] other than the one
/// named `caller`, set up for sub-IPs: for sub-IPs inside `caller`'s callbacks when its
/// library is not re-entrant. `None` when `caller` is the only back-end compiled in.
#[cfg_attr(not(feature = "cbc"), allow(dead_code))]
pub(crate) fn sub_ip_backend_besides(caller: &str) -> Option<Box<dyn MilpBackend>> {
    backends()
        .into_iter()
        .filter(|b| b.name() != caller)
        .max_by_key(|b| b.sub_ip_rank())
        .map(|b| b.for_sub_ips())
}

/// The compiled-in back-end of highest [`MilpBackend::sub_ip_rank`], with its ordinary
/// settings: for many small programs solved to optimality.
pub(crate) fn small_program_backend() -> Option<Box<dyn MilpBackend>> {
    backends().into_iter().max_by_key(|b| b.sub_ip_rank())
}

/// The error of a back-end that takes no options, for the first of `params`, if any.
#[cfg_attr(not(any(feature = "cbc", feature = "good_lp")), allow(dead_code))]
fn refuse_params(backend: &'static str, params: &[(String, String)]) -> Result<(), SolverError> {
    match params.first() {
        None => Ok(()),
        Some((name, _)) => Err(SolverError::Backend {
            backend,
            message: format!("takes no options (got `{name}`)"),
        }),
    }
}

/// The outcome of a model without variables, which every row either accepts (activity
/// 0 within its sides) or rejects. Back-ends answer such models without a solver call,
/// since solvers disagree on how to report them.
#[cfg_attr(
    not(any(
        feature = "highs",
        feature = "cbc",
        feature = "scip",
        feature = "good_lp"
    )),
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

/// Checks that a warm start has one value per model variable, as [`WarmStart`] requires;
/// `backend` names the back-end in the error.
#[cfg_attr(
    not(any(
        feature = "highs",
        feature = "cbc",
        feature = "scip",
        feature = "good_lp"
    )),
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

#[cfg(all(
    test,
    any(
        feature = "highs",
        feature = "cbc",
        feature = "scip",
        feature = "good_lp"
    )
))]
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
                threads: Some(MAX_THREADS + 1),
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
            (cfg!(feature = "microlp"), "microlp"),
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

    /// Sub-IPs inside a back-end's callback go to the best-ranked other back-end, never
    /// to the caller's library.
    #[test]
    fn sub_ips_in_a_callback_run_on_another_back_end() {
        let all = backends();
        for caller in &all {
            let others: Vec<_> = all.iter().filter(|b| b.name() != caller.name()).collect();
            match sub_ip_backend_besides(caller.name()) {
                None => assert!(others.is_empty(), "{}", caller.name()),
                Some(chosen) => {
                    assert_ne!(chosen.name(), caller.name());
                    assert!(others
                        .iter()
                        .all(|b| b.sub_ip_rank() <= chosen.sub_ip_rank()));
                }
            }
        }
    }

    /// The registry gives back-ends by name, refuses unknown names and options meant for
    /// another back-end, and each back-end refuses an option it does not have.
    #[test]
    fn the_registry_configures_by_name_and_each_back_end_checks_its_options() {
        assert!(matches!(
            configured(Some("gurobi"), &[]),
            Err(BackendChoiceError::NotCompiled { .. })
        ));
        let all = backends();
        let Some(first) = all.first() else {
            assert_eq!(
                configured(None, &[]).err(),
                Some(BackendChoiceError::NoneCompiled)
            );
            return;
        };
        let elsewhere = BackendParam {
            intended: Some("elsewhere".into()),
            name: "x".into(),
            value: "1".into(),
        };
        assert!(matches!(
            configured(None, &[elsewhere]),
            Err(BackendChoiceError::OtherBackend { chosen, .. }) if chosen == first.name()
        ));
        let unknown = [("no/such_option".to_string(), "1".to_string())];
        for b in &all {
            assert_eq!(configured(Some(b.name()), &[]).unwrap().name(), b.name());
            assert!(b.with_params(&unknown).is_err(), "{} took it", b.name());
            assert!(b.with_params(&[]).is_ok());
        }
    }

    #[test]
    fn finite_filters_sentinels() {
        assert_eq!(finite(3.5), Some(3.5));
        assert_eq!(finite(f64::NEG_INFINITY), None);
        assert_eq!(finite(1e19), None);
        assert_eq!(finite(-9e18), Some(-9e18));
        assert_eq!(finite(-1e50), None);
    }
}
