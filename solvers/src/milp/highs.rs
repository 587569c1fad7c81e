//! The HiGHS back-end (crate `highs`, with HiGHS compiled from its vendored sources).
//!
//! HiGHS solves MILPs by branch and cut with its own presolve and heuristics. Its C API
//! has no lazy-constraint callback (SPEC §5), so formulations that separate cuts run a
//! cut loop around repeated solves of this back-end.

use super::{
    check_start, finite, trivial_outcome, Limits, LpDuals, LpRow, LpSession, LpSolution,
    MilpBackend, MilpOutcome, MipWatch, SolverError, Status, WarmStart, Watched,
};
use crate::stop::StopToken;
use bnsl_formulations::milp::{MilpModel, Sense};
use highs::{
    ColProblem, HighsModelStatus, HighsOptionValue, HighsSolutionStatus, Model, SolvedModel,
};
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::time::{Duration, Instant};

const NAME: &str = "highs";

/// Solves models with HiGHS. Honours every [`Limits`] field; the gap is HiGHS's
/// `mip_rel_gap`, set to 0 when no gap is given (HiGHS's own default is 1e-4). Extra
/// HiGHS options, if any, are set after those of the limits. The default back-end
/// carries [`HighsBackend::program_options`].
#[derive(Clone, Debug, PartialEq)]
pub struct HighsBackend {
    options: Vec<(String, HighsOption)>,
}

impl Default for HighsBackend {
    fn default() -> Self {
        Self::with_options(Self::program_options())
    }
}

impl HighsBackend {
    /// The options bnsl sets on HiGHS for its programs: a small cut pool whose cuts age
    /// out of the LP after 3 rounds unused (HiGHS's defaults: 10,000 and 20). On the
    /// family program's MIP rounds HiGHS otherwise spends most of each round in its own
    /// root separation, producing far more cuts than the program has rows. The small
    /// pool makes the slowest HiGHS files faster and leaves the others unchanged (see
    /// README, "Benchmark notes behind design choices").
    pub fn program_options() -> Vec<(String, HighsOption)> {
        [
            ("mip_pool_soft_limit", HighsOption::Int(100)),
            ("mip_lp_age_limit", HighsOption::Int(3)),
        ]
        .into_iter()
        .map(|(name, value)| (name.to_string(), value))
        .collect()
    }

    /// HiGHS with `options` set after the limits' (for instance lighter settings for
    /// the many small separation sub-IPs).
    pub fn with_options(options: Vec<(String, HighsOption)>) -> Self {
        HighsBackend { options }
    }

    /// HiGHS with a user's options (`--highs-param NAME=VALUE`): each value is parsed
    /// by the type HiGHS declares for the option and checked by HiGHS. Refused: an
    /// option HiGHS does not have, a value it rejects, an option bnsl sets from its own
    /// flags, and a setting that would make HiGHS's answers prove something else (see
    /// [`refusal`]). They are set after [`HighsBackend::program_options`], so they may
    /// change those.
    pub fn with_user_options(params: &[(String, String)]) -> Result<Self, SolverError> {
        if params.is_empty() {
            return Ok(Self::default());
        }
        let scratch = Scratch::new()?;
        let user: Vec<(String, HighsOption)> = params
            .iter()
            .map(|(name, text)| {
                let value = scratch.typed(name, text)?;
                match refusal(name, &value) {
                    Some(why) => Err(error(format!("option `{name}`: {why}"))),
                    None => Ok((name.clone(), value)),
                }
            })
            .collect::<Result<_, _>>()?;
        let mut options = Self::program_options();
        options.extend(user);
        Ok(Self::with_options(options))
    }

    /// The extra options, as set.
    pub fn options(&self) -> &[(String, HighsOption)] {
        &self.options
    }
}

impl MilpBackend for HighsBackend {
    fn name(&self) -> &'static str {
        NAME
    }

    fn version(&self) -> String {
        // SAFETY: the library returns a pointer to a static NUL-terminated string.
        let text = unsafe { CStr::from_ptr(highs_sys::Highs_version()) };
        format!("HiGHS {}", text.to_string_lossy())
    }

    /// HiGHS options, see [`HighsBackend::with_user_options`].
    fn with_params(
        &self,
        params: &[(String, String)],
    ) -> Result<Box<dyn MilpBackend>, SolverError> {
        Ok(Box::new(HighsBackend::with_user_options(params)?))
    }

    /// HiGHS with light settings: stop at the first solution, no presolve, heuristics,
    /// symmetry detection or restarts.
    fn for_sub_ips(&self) -> Box<dyn MilpBackend> {
        Box::new(HighsBackend::with_options(light_options()))
    }

    /// The fastest on separation sub-IPs: HiGHS with its light settings solves these
    /// small programs faster than SCIP (see README, "Benchmark notes behind design
    /// choices").
    fn sub_ip_rank(&self) -> u8 {
        3
    }

    fn solve(&self, model: &MilpModel, limits: &Limits) -> Result<MilpOutcome, SolverError> {
        run(model, limits, None, None, &self.options)
    }

    /// These options with presolve off (see the trait's documentation).
    fn for_bounded_treewidth(&self) -> Option<Box<dyn MilpBackend>> {
        let mut options = self.options.clone();
        options.push(("presolve".into(), HighsOption::Text("off".into())));
        Some(Box::new(HighsBackend::with_options(options)))
    }

    fn warm_start(&self) -> Option<&dyn WarmStart> {
        Some(self)
    }

    fn lp_duals(&self) -> Option<&dyn LpDuals> {
        Some(self)
    }

    fn watched(&self) -> Option<&dyn Watched> {
        Some(self)
    }
}

/// HiGHS takes the start as a primal solution (`Highs_setSolution`), which its MIP
/// solver checks and keeps as the first incumbent when feasible.
impl WarmStart for HighsBackend {
    fn solve_from(
        &self,
        model: &MilpModel,
        limits: &Limits,
        start: &[f64],
    ) -> Result<MilpOutcome, SolverError> {
        check_start(NAME, model, start)?;
        run(model, limits, Some(start), None, &self.options)
    }
}

/// HiGHS's MIP-interrupt callback, which runs many times a second during its branch and
/// bound, records the node count, dual bound and incumbent value.
impl LpDuals for HighsBackend {
    fn open_lp(
        &self,
        model: &MilpModel,
        limits: &Limits,
    ) -> Result<Box<dyn LpSession>, SolverError> {
        Ok(Box::new(self.open_session(model, limits)?))
    }
}

impl HighsBackend {
    fn open_session(&self, model: &MilpModel, limits: &Limits) -> Result<HighsLp, SolverError> {
        limits.validate()?;
        let mut highs = build(&model.relaxation())?;
        configure(&mut highs, limits)?;
        set_tolerances(&mut highs, CERTIFICATE_TOLERANCE)?;
        apply_options(&mut highs, &self.options)?;
        Ok(HighsLp {
            highs: Some(highs),
            stop: limits.stop.clone(),
            options: self.options.clone(),
        })
    }
}

/// An open HiGHS LP ([`LpSession`]): the instance between solves.
struct HighsLp {
    /// `None` only after a failed solve, which consumed it.
    highs: Option<Model>,
    stop: StopToken,
    /// The back-end's options, set again after a [`Recovery`].
    options: Vec<(String, HighsOption)>,
}

impl HighsLp {
    fn model(&mut self) -> Result<&mut Model, SolverError> {
        self.highs
            .as_mut()
            .ok_or_else(|| error("the LP was lost in a failed solve".into()))
    }
}

impl LpSession for HighsLp {
    fn add_rows(&mut self, rows: &[LpRow]) -> Result<(), SolverError> {
        let mut starts: Vec<c_int> = Vec::with_capacity(rows.len());
        let (mut index, mut value) = (Vec::new(), Vec::new());
        for row in rows {
            starts.push(index.len() as c_int);
            index.extend(row.terms.iter().map(|&(c, _)| c as c_int));
            value.extend(row.terms.iter().map(|&(_, v)| v));
        }
        let lower: Vec<f64> = rows.iter().map(|r| r.lower).collect();
        let upper: Vec<f64> = rows.iter().map(|r| r.upper).collect();
        let ptr = self.model()?.as_mut_ptr();
        // SAFETY: `ptr` is a live HiGHS instance; `starts`, `lower` and `upper` hold one
        // entry per row, `index` and `value` one per nonzero.
        let status = unsafe {
            highs_sys::Highs_addRows(
                ptr,
                rows.len() as c_int,
                lower.as_ptr(),
                upper.as_ptr(),
                index.len() as c_int,
                starts.as_ptr(),
                index.as_ptr(),
                value.as_ptr(),
            )
        };
        (status == highs_sys::STATUS_OK)
            .then_some(())
            .ok_or_else(|| error(format!("rows were rejected with status {status}")))
    }

    fn delete_rows(&mut self, rows: &[usize]) -> Result<(), SolverError> {
        let set: Vec<c_int> = rows.iter().map(|&r| r as c_int).collect();
        let ptr = self.model()?.as_mut_ptr();
        // SAFETY: `ptr` is a live HiGHS instance; `set` holds `rows.len()` ascending
        // row indices.
        let status =
            unsafe { highs_sys::Highs_deleteRowsBySet(ptr, set.len() as c_int, set.as_ptr()) };
        (status == highs_sys::STATUS_OK)
            .then_some(())
            .ok_or_else(|| error(format!("row deletion was rejected with status {status}")))
    }

    fn set_column_bounds(
        &mut self,
        column: usize,
        lower: f64,
        upper: f64,
    ) -> Result<(), SolverError> {
        let ptr = self.model()?.as_mut_ptr();
        // SAFETY: `ptr` is a live HiGHS instance.
        let status =
            unsafe { highs_sys::Highs_changeColBounds(ptr, column as c_int, lower, upper) };
        (status == highs_sys::STATUS_OK)
            .then_some(())
            .ok_or_else(|| error(format!("column bounds were rejected with status {status}")))
    }

    /// A solve that ends in neither an optimum nor a limit (HiGHS's numerical trouble
    /// on a long sequence of warm-started solves, which may also show as an infeasible
    /// LP) is repeated with each [`Recovery`] in turn: `None` when they all find the LP
    /// infeasible, an error naming the status of the last when they fail otherwise.
    fn solve(&mut self, time_limit: Option<f64>) -> Result<Option<LpSolution>, SolverError> {
        let deadline = time_limit
            .and_then(|t| Duration::try_from_secs_f64(t).ok())
            .map(|t| Instant::now() + t);
        let mut status = self.solve_once(deadline)?;
        for recovery in Recovery::ALL {
            if !status.is_doubtful() || self.stop.is_stopped() {
                break;
            }
            recovery.apply(self)?;
            status = self.solve_once(deadline)?;
            recovery.undo(self)?;
        }
        match status {
            Attempt::Optimal(solution) => Ok(Some(solution)),
            Attempt::NoOptimum | Attempt::Infeasible => Ok(None),
            Attempt::Trouble(status) => Err(error(format!(
                "the LP was not solved: HiGHS ended with model status {status:?} from a \
                 warm start, a fresh start, feasibility tolerances of 1e-7 and the \
                 interior-point method"
            ))),
        }
    }
}

impl HighsLp {
    /// One solve of the LP as it stands, within the time left to `deadline`.
    fn solve_once(&mut self, deadline: Option<Instant>) -> Result<Attempt, SolverError> {
        if self.stop.is_stopped() {
            return Ok(Attempt::NoOptimum);
        }
        let mut highs = self
            .highs
            .take()
            .ok_or_else(|| error("the LP was lost in a failed solve".into()))?;
        let seconds = deadline.map_or(f64::INFINITY, |d| {
            d.saturating_duration_since(Instant::now()).as_secs_f64()
        });
        set_option(&mut highs, "time_limit", seconds)?;
        let solved = highs
            .try_solve()
            .map_err(|s| error(format!("LP solve failed with status {s:?}")))?;
        let attempt = match solved.status() {
            HighsModelStatus::Optimal => {
                let solution = solved.get_solution();
                Attempt::Optimal(LpSolution {
                    objective: solved.objective_value(),
                    values: solution.columns().to_vec(),
                    row_duals: solution.dual_rows().to_vec(),
                    iterations: u64::try_from(solved.simplex_iteration_count()).unwrap_or(0),
                })
            }
            HighsModelStatus::Infeasible | HighsModelStatus::UnboundedOrInfeasible => {
                Attempt::Infeasible
            }
            HighsModelStatus::Unbounded
            | HighsModelStatus::ReachedTimeLimit
            | HighsModelStatus::ReachedInterrupt => Attempt::NoOptimum,
            other => Attempt::Trouble(other),
        };
        self.highs = Some(Model::from(solved));
        Ok(attempt)
    }
}

/// How one LP solve of a [`HighsLp`] ended.
enum Attempt {
    Optimal(LpSolution),
    /// Found infeasible (or infeasible or unbounded).
    Infeasible,
    /// Unbounded, or stopped by the time limit or the stop token.
    NoOptimum,
    /// Any other status: the solve failed.
    Trouble(HighsModelStatus),
}

impl Attempt {
    /// Whether another attempt may end otherwise.
    fn is_doubtful(&self) -> bool {
        matches!(self, Attempt::Trouble(_) | Attempt::Infeasible)
    }
}

/// What a [`HighsLp`] tries, in this order, after a solve that failed.
#[derive(Clone, Copy)]
enum Recovery {
    /// Forget the basis and start from the slack basis.
    FreshStart,
    /// A fresh start with HiGHS's default feasibility tolerances instead of the tight
    /// ones of [`LpDuals::open_lp`] (the certificate is checked exactly either way).
    DefaultTolerances,
    /// A fresh start with the interior-point method and crossover to a basis.
    InteriorPoint,
}

impl Recovery {
    const ALL: [Recovery; 3] = [
        Recovery::FreshStart,
        Recovery::DefaultTolerances,
        Recovery::InteriorPoint,
    ];

    fn apply(self, lp: &mut HighsLp) -> Result<(), SolverError> {
        let highs = lp.model()?;
        // SAFETY: `as_mut_ptr` is a live HiGHS instance; clearing its solver state keeps
        // the model.
        let status = unsafe { highs_sys::Highs_clearSolver(highs.as_mut_ptr()) };
        if status == highs_sys::STATUS_ERROR {
            return Err(error("HiGHS could not clear its solver state".into()));
        }
        match self {
            Recovery::FreshStart => Ok(()),
            Recovery::DefaultTolerances => set_tolerances(highs, DEFAULT_TOLERANCE),
            Recovery::InteriorPoint => set_option(highs, "solver", "ipm"),
        }
    }

    /// Sets back what [`Recovery::apply`] changed, then the back-end's options, which
    /// may have set the same ones.
    fn undo(self, lp: &mut HighsLp) -> Result<(), SolverError> {
        let options = std::mem::take(&mut lp.options);
        let highs = lp.model()?;
        match self {
            Recovery::FreshStart => Ok(()),
            Recovery::DefaultTolerances => set_tolerances(highs, CERTIFICATE_TOLERANCE),
            Recovery::InteriorPoint => set_option(highs, "solver", "choose"),
        }?;
        let applied = apply_options(highs, &options);
        lp.options = options;
        applied
    }
}

/// The primal and dual feasibility tolerances of a certification LP: a certificate's
/// bound exceeds the LP optimum by about the dual infeasibility summed over the nodes.
const CERTIFICATE_TOLERANCE: f64 = 1e-9;

/// HiGHS's default feasibility tolerances.
const DEFAULT_TOLERANCE: f64 = 1e-7;

fn set_tolerances(highs: &mut Model, tolerance: f64) -> Result<(), SolverError> {
    set_option(highs, "primal_feasibility_tolerance", tolerance)?;
    set_option(highs, "dual_feasibility_tolerance", tolerance)
}

impl Watched for HighsBackend {
    fn solve_watched(
        &self,
        model: &MilpModel,
        limits: &Limits,
        start: Option<&[f64]>,
        watch: &MipWatch,
    ) -> Result<MilpOutcome, SolverError> {
        if let Some(start) = start {
            check_start(NAME, model, start)?;
        }
        run(model, limits, start, Some(watch), &self.options)
    }
}

/// HiGHS settings for the separation sub-IPs: any feasible solution is a violated
/// cluster, so the solve stops at the first one; presolve, symmetry detection, restarts
/// and primal heuristics cost more than they save on these small programs, and small cut
/// pools keep the LPs short (the program options of every HiGHS solve of bnsl's).
/// Together they make the sub-IPs markedly faster than HiGHS's defaults (see README,
/// "Benchmark notes behind design choices").
fn light_options() -> Vec<(String, HighsOption)> {
    use HighsOption::{Bool, Int, Real, Text};
    let light = [
        ("mip_max_improving_sols", Int(1)),
        ("presolve", Text("off".into())),
        ("mip_heuristic_run_feasibility_jump", Bool(false)),
        ("mip_heuristic_effort", Real(0.0)),
        ("mip_detect_symmetry", Bool(false)),
        ("mip_allow_restart", Bool(false)),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_string(), value));
    HighsBackend::program_options()
        .into_iter()
        .chain(light)
        .collect()
}

/// A value of a HiGHS option.
#[derive(Clone, Debug, PartialEq)]
pub enum HighsOption {
    /// A bool option.
    Bool(bool),
    /// An int option.
    Int(i32),
    /// A double option.
    Real(f64),
    /// A string option.
    Text(String),
}

impl std::fmt::Display for HighsOption {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HighsOption::Bool(b) => write!(f, "{b}"),
            HighsOption::Int(i) => write!(f, "{i}"),
            HighsOption::Real(x) => write!(f, "{x}"),
            HighsOption::Text(t) => write!(f, "{t}"),
        }
    }
}

/// Options bnsl sets itself, and how each is set.
const SET_BY_BNSL: &[(&str, &str)] = &[
    ("output_flag", "use --solver-log"),
    ("log_to_console", "use --solver-log"),
    ("time_limit", "use --time-limit"),
    ("mip_rel_gap", "use --gap"),
    ("mip_abs_gap", "use --gap"),
    ("threads", "use --threads"),
    ("random_seed", "use --seed"),
    (
        "mip_max_improving_sols",
        "the cut loop sets it for each MIP round",
    ),
];

/// Why a user may not set `name` to `value`, if so: bnsl sets it from a flag, or HiGHS's
/// "optimal" and "infeasible" would no longer be proofs for the program: an objective
/// cutoff (`objective_bound`, `objective_target`) can make a feasible program
/// "infeasible"; `solve_relaxation` reports an LP point of a MILP; finite "infinities"
/// (`infinite_bound`, `infinite_cost`) change the model; the first-order LP solver
/// (`solver=pdlp`) and an interior point without crossover (`run_crossover=off`) end
/// with approximate LP bounds.
pub fn refusal(name: &str, value: &HighsOption) -> Option<String> {
    if let Some((_, how)) = SET_BY_BNSL.iter().find(|(option, _)| *option == name) {
        return Some(format!("set by bnsl ({how})"));
    }
    let changes_the_proof = match (name, value) {
        ("objective_bound" | "objective_target", _) => true,
        ("solve_relaxation", HighsOption::Bool(true)) => true,
        ("infinite_bound" | "infinite_cost", _) => true,
        ("solver", HighsOption::Text(t)) => t.eq_ignore_ascii_case("pdlp"),
        ("run_crossover", HighsOption::Text(t)) => t.eq_ignore_ascii_case("off"),
        _ => false,
    };
    changes_the_proof.then(|| {
        format!("`{name}={value}` would make HiGHS's optimal or infeasible answers unproven")
    })
}

/// A bare HiGHS instance, silent, for asking about options.
struct Scratch(*mut c_void);

impl Scratch {
    fn new() -> Result<Self, SolverError> {
        // SAFETY: plain constructor; the instance is destroyed in `drop`.
        let ptr = unsafe { highs_sys::Highs_create() };
        if ptr.is_null() {
            return Err(error("cannot create a HiGHS instance".into()));
        }
        let scratch = Scratch(ptr);
        scratch.set("output_flag", &HighsOption::Bool(false))?;
        Ok(scratch)
    }

    /// `text` as a value of the option `name`, of the type HiGHS declares for it,
    /// accepted by HiGHS.
    fn typed(&self, name: &str, text: &str) -> Result<HighsOption, SolverError> {
        let c_name = c_string(name)?;
        let mut kind: highs_sys::HighsInt = -1;
        // SAFETY: live instance, NUL-terminated name, writable `kind`.
        let status = unsafe { highs_sys::Highs_getOptionType(self.0, c_name.as_ptr(), &mut kind) };
        if status != highs_sys::STATUS_OK {
            return Err(error(format!("no option `{name}`")));
        }
        let wrong = |what: &str| error(format!("option `{name}` takes {what}, not `{text}`"));
        let value = match kind {
            highs_sys::kHighsOptionTypeBool => match text {
                "true" | "on" | "1" => HighsOption::Bool(true),
                "false" | "off" | "0" => HighsOption::Bool(false),
                _ => return Err(wrong("true or false")),
            },
            highs_sys::kHighsOptionTypeInt => {
                HighsOption::Int(text.parse().map_err(|_| wrong("an integer"))?)
            }
            highs_sys::kHighsOptionTypeDouble => match text.parse::<f64>() {
                Ok(x) if x.is_finite() => HighsOption::Real(x),
                _ => return Err(wrong("a finite number")),
            },
            _ => HighsOption::Text(text.to_string()),
        };
        self.set(name, &value)?;
        Ok(value)
    }

    fn set(&self, name: &str, value: &HighsOption) -> Result<(), SolverError> {
        // SAFETY: `self.0` is the live instance made in `new`.
        unsafe { set_highs_option(self.0, name, value) }
    }
}

/// Sets the option `name` of the HiGHS instance `highs` to `value`: the one place that
/// turns a [`HighsOption`] into HiGHS's setter of its type.
///
/// # Safety
/// `highs` is a live HiGHS instance.
unsafe fn set_highs_option(
    highs: *mut c_void,
    name: &str,
    value: &HighsOption,
) -> Result<(), SolverError> {
    let c_name = c_string(name)?;
    // SAFETY: live instance (the caller's promise); NUL-terminated strings that outlive
    // the calls.
    let status = unsafe {
        match value {
            HighsOption::Bool(b) => {
                highs_sys::Highs_setBoolOptionValue(highs, c_name.as_ptr(), (*b).into())
            }
            HighsOption::Int(i) => highs_sys::Highs_setIntOptionValue(highs, c_name.as_ptr(), *i),
            HighsOption::Real(x) => {
                highs_sys::Highs_setDoubleOptionValue(highs, c_name.as_ptr(), *x)
            }
            HighsOption::Text(t) => {
                let c_value = c_string(t)?;
                highs_sys::Highs_setStringOptionValue(highs, c_name.as_ptr(), c_value.as_ptr())
            }
        }
    };
    match status == highs_sys::STATUS_OK {
        true => Ok(()),
        false => Err(error(format!("option `{name}` rejects `{value}`"))),
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // SAFETY: the instance made in `new`, destroyed once.
        unsafe { highs_sys::Highs_destroy(self.0) };
    }
}

fn c_string(text: &str) -> Result<CString, SolverError> {
    CString::new(text).map_err(|_| error(format!("`{text}` contains a NUL byte")))
}

/// Solves `model`. When HiGHS ends in an error status or declares the model infeasible
/// after presolve, the solve is run again without presolve, whose answer stands: on
/// small family programs with an objective row and no-good rows, HiGHS's postsolve can
/// turn an optimal solution of the presolved program into one that violates a row of
/// the original (reported as a solve error), and its presolve can declare a feasible
/// program infeasible (the collection's proptests against the enumeration cover both).
fn run(
    model: &MilpModel,
    limits: &Limits,
    start: Option<&[f64]>,
    watch: Option<&MipWatch>,
    options: &[(String, HighsOption)],
) -> Result<MilpOutcome, SolverError> {
    limits.validate()?;
    if let Some(outcome) = trivial_outcome(model) {
        return Ok(outcome);
    }
    let presolve_off = options
        .iter()
        .rev()
        .find(|(name, _)| name == "presolve")
        .is_some_and(|(_, value)| *value == HighsOption::Text("off".into()));
    let first = run_once(model, limits, start, watch, options);
    let doubtful = match &first {
        Ok(outcome) => outcome.status == Status::Infeasible,
        Err(_) => true,
    };
    if !doubtful || presolve_off || limits.stop.is_stopped() {
        return first;
    }
    let mut without = options.to_vec();
    without.push(("presolve".into(), HighsOption::Text("off".into())));
    run_once(model, limits, start, watch, &without)
}

/// One HiGHS solve of `model` with `options`.
fn run_once(
    model: &MilpModel,
    limits: &Limits,
    start: Option<&[f64]>,
    watch: Option<&MipWatch>,
    options: &[(String, HighsOption)],
) -> Result<MilpOutcome, SolverError> {
    let begin = Instant::now();
    let mut highs = build(model)?;
    configure(&mut highs, limits)?;
    let watched = CallbackData {
        stop: &limits.stop,
        watch,
    };
    watch_mip(&mut highs, &watched)?;
    apply_options(&mut highs, options)?;
    if let Some(values) = start {
        highs
            .try_set_solution(Some(values), None, None, None)
            .map_err(|s| error(format!("start solution rejected with status {s:?}")))?;
    }
    let solved = highs
        .try_solve()
        .map_err(|s| error(format!("solve failed with status {s:?}")))?;
    let mut outcome = read_outcome(model, &solved)?;
    outcome.time_s = begin.elapsed().as_secs_f64();
    Ok(outcome)
}

fn error(message: String) -> SolverError {
    SolverError::Backend {
        backend: NAME,
        message,
    }
}

/// Passes the model to HiGHS column by column.
fn build(model: &MilpModel) -> Result<Model, SolverError> {
    let mut problem = ColProblem::default();
    let rows: Vec<highs::Row> = model
        .rows()
        .iter()
        .map(|r| problem.add_row(r.lower..=r.upper))
        .collect();
    let csc = model.column_major();
    for (j, var) in model.variables().iter().enumerate() {
        let entries =
            (csc.starts[j]..csc.starts[j + 1]).map(|k| (rows[csc.rows[k]], csc.values[k]));
        problem.add_column_with_integrality(
            var.objective,
            var.lower..=var.upper,
            entries,
            var.integer,
        );
    }
    let sense = match model.sense() {
        Sense::Maximize => highs::Sense::Maximise,
        Sense::Minimize => highs::Sense::Minimise,
    };
    problem
        .try_optimise(sense)
        .map_err(|s| error(format!("model rejected with status {s:?}")))
}

/// Sets the `(name, value)` options on `highs`, in order.
fn apply_options(highs: &mut Model, options: &[(String, HighsOption)]) -> Result<(), SolverError> {
    for (name, value) in options {
        // SAFETY: `highs` is a live HiGHS instance.
        unsafe { set_highs_option(highs.as_mut_ptr(), name, value)? };
    }
    Ok(())
}

fn set_option<V: HighsOptionValue>(
    highs: &mut Model,
    name: &str,
    value: V,
) -> Result<(), SolverError> {
    highs
        .try_set_option(name, value)
        .map_err(|_| error(format!("option `{name}` was rejected")))
}

fn configure(highs: &mut Model, limits: &Limits) -> Result<(), SolverError> {
    set_option(highs, "output_flag", limits.verbose)?;
    set_option(highs, "log_to_console", limits.verbose)?;
    set_option(highs, "mip_rel_gap", limits.gap.unwrap_or(0.0))?;
    if limits.gap.is_none() {
        // HiGHS's default absolute gap, 1e-6, would accept a network 1e-6 worse than
        // the best: score files resolve scores to 1e-6.
        set_option(highs, "mip_abs_gap", 1e-7)?;
    }
    if let Some(seconds) = limits.time_limit {
        set_option(highs, "time_limit", seconds)?;
    }
    if let Some(seed) = limits.seed_i32() {
        set_option(highs, "random_seed", seed)?;
    }
    if let Some(count) = limits.improving_solutions {
        let count = i32::try_from(count).unwrap_or(i32::MAX);
        set_option(highs, "mip_max_improving_sols", count)?;
    }
    if limits.no_neighbourhood_search {
        set_option(highs, "mip_heuristic_run_rins", false)?;
    }
    if let Some(threads) = limits.threads {
        let threads = i32::try_from(threads).map_err(|_| error(format!("{threads} threads")))?;
        set_option(highs, "threads", threads)?;
        // HiGHS keeps one task scheduler per calling thread, sized by the first solve on
        // that thread, and refuses a later solve asking for another size. Dropping the
        // scheduler here lets the coming solve create one of the requested size.
        // SAFETY: no HiGHS solve runs on this thread while we are here.
        unsafe { highs_sys::Highs_resetGlobalScheduler(1) };
    }
    Ok(())
}

/// What HiGHS's MIP-interrupt callback ([`on_mip_interrupt`]) reads and writes.
struct CallbackData<'a> {
    /// Stopped: HiGHS is asked to stop.
    stop: &'a StopToken,
    /// Where progress goes, if anywhere.
    watch: Option<&'a MipWatch>,
}

/// Installs HiGHS's MIP-interrupt callback ([`on_mip_interrupt`]): it lets the stop
/// token end the branch and bound (HiGHS then stops as at a limit, with its incumbent
/// and bound), and records progress in the watch, if any.
fn watch_mip(highs: &mut Model, data: &CallbackData<'_>) -> Result<(), SolverError> {
    let ptr = highs.as_mut_ptr();
    let user_data = data as *const CallbackData<'_> as *mut c_void;
    // SAFETY: `ptr` is a live HiGHS instance; `user_data` points to data that the
    // caller keeps alive until the solve has returned.
    let ok = unsafe {
        highs_sys::Highs_setCallback(ptr, Some(on_mip_interrupt), user_data) == highs_sys::STATUS_OK
            && highs_sys::Highs_startCallback(ptr, highs_sys::kHighsCallbackMipInterrupt)
                == highs_sys::STATUS_OK
    };
    ok.then_some(())
        .ok_or_else(|| error("the interrupt callback was rejected".into()))
}

/// Asks HiGHS to stop once the token of the [`CallbackData`] that `user` points to is
/// stopped, and records the node count, dual bound and incumbent value (in the model's
/// sense: HiGHS turns them) in its watch, if any.
unsafe extern "C" fn on_mip_interrupt(
    _kind: c_int,
    _message: *const c_char,
    out: *const highs_sys::HighsCallbackDataOut,
    data_in: *mut highs_sys::HighsCallbackDataIn,
    user: *mut c_void,
) {
    if user.is_null() {
        return;
    }
    // SAFETY: `user` is the data given to `watch_mip`, alive for the solve.
    let data = unsafe { &*(user as *const CallbackData<'_>) };
    if data.stop.is_stopped() && !data_in.is_null() {
        // SAFETY: HiGHS passes a valid, writable `data_in` to interrupt callbacks.
        unsafe { (*data_in).user_interrupt = 1 };
    }
    if let (Some(watch), false) = (data.watch, out.is_null()) {
        // SAFETY: `out` is HiGHS's valid callback data.
        let out = unsafe { &*out };
        watch.record(
            u64::try_from(out.mip_node_count).unwrap_or(0),
            out.mip_dual_bound,
            out.mip_primal_bound,
        );
    }
}

fn int64_info(solved: &SolvedModel, name: &CStr) -> Option<i64> {
    let mut value: i64 = -1;
    // SAFETY: the pointer is a live HiGHS instance owned by `solved`, `name` is
    // NUL-terminated and `value` outlives the call.
    let status =
        unsafe { highs_sys::Highs_getInt64InfoValue(solved.as_ptr(), name.as_ptr(), &mut value) };
    (status == highs_sys::STATUS_OK).then_some(value)
}

/// Maps HiGHS's model status to ours. A bounded model (all variable bounds finite)
/// cannot be unbounded, so "unbounded or infeasible" means infeasible there.
fn map_status(
    model: &MilpModel,
    status: HighsModelStatus,
    has_incumbent: bool,
) -> Result<Status, SolverError> {
    Ok(match status {
        HighsModelStatus::Optimal => Status::Optimal,
        HighsModelStatus::Infeasible => Status::Infeasible,
        HighsModelStatus::Unbounded => Status::Unbounded,
        HighsModelStatus::UnboundedOrInfeasible if model.is_bounded() => Status::Infeasible,
        HighsModelStatus::LoadError
        | HighsModelStatus::ModelError
        | HighsModelStatus::PresolveError
        | HighsModelStatus::SolveError
        | HighsModelStatus::PostsolveError => {
            return Err(error(format!("model status {status:?}")))
        }
        _ if has_incumbent => Status::Feasible,
        _ => Status::Unknown,
    })
}

fn read_outcome(model: &MilpModel, solved: &SolvedModel) -> Result<MilpOutcome, SolverError> {
    let has_incumbent = solved.primal_solution_status() == HighsSolutionStatus::Feasible;
    let status = map_status(model, solved.status(), has_incumbent)?;
    let objective = has_incumbent.then(|| solved.objective_value());
    let bound = if matches!(status, Status::Infeasible | Status::Unbounded) {
        None
    } else if model.has_integers() {
        solved
            .double_info_value(c"mip_dual_bound")
            .ok()
            .and_then(finite)
    } else {
        // For an LP the dual bound of an optimal basis is its objective value.
        objective.filter(|_| status == Status::Optimal)
    };
    let values = has_incumbent.then(|| solved.get_solution().columns().to_vec());
    let nodes = model
        .has_integers()
        .then(|| int64_info(solved, c"mip_node_count"))
        .flatten()
        .and_then(|n| u64::try_from(n).ok());
    // HiGHS reports no LP iteration total for its MIP solver, only for LPs.
    let lp_iterations = (!model.has_integers()).then(|| solved.simplex_iteration_count());
    Ok(MilpOutcome {
        status,
        objective,
        bound,
        values,
        nodes,
        lp_iterations: lp_iterations.and_then(|n| u64::try_from(n).ok()),
        time_s: 0.0,
    })
}

#[cfg(test)]
mod tests {
    use super::{Attempt, HighsBackend, HighsOption, Recovery};
    use crate::milp::{Limits, MilpBackend, Status};

    crate::milp::testkit::backend_tests!(HighsBackend::default());

    #[test]
    fn watched_solve_reports_as_it_goes() {
        crate::milp::testkit::watched_solve_reports_as_it_goes(&HighsBackend::default());
    }

    fn user(params: &[(&str, &str)]) -> Result<HighsBackend, String> {
        let params: Vec<(String, String)> = params
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect();
        HighsBackend::with_user_options(&params).map_err(|e| e.to_string())
    }

    #[test]
    fn user_options_take_the_type_highs_declares() {
        let backend = user(&[
            ("presolve", "off"),
            ("mip_heuristic_effort", "0.2"),
            ("mip_detect_symmetry", "false"),
            ("mip_max_nodes", "100"),
        ])
        .unwrap();
        let (program, user) = backend
            .options()
            .split_at(HighsBackend::program_options().len());
        assert_eq!(program, HighsBackend::program_options());
        assert_eq!(
            user,
            [
                ("presolve".into(), HighsOption::Text("off".into())),
                ("mip_heuristic_effort".into(), HighsOption::Real(0.2)),
                ("mip_detect_symmetry".into(), HighsOption::Bool(false)),
                ("mip_max_nodes".into(), HighsOption::Int(100)),
            ]
        );
    }

    /// The default back-end carries the program options; a user's setting of one of
    /// them comes after it, so HiGHS ends with the user's value.
    #[test]
    fn program_options_are_the_default_and_a_user_may_change_them() {
        assert_eq!(
            HighsBackend::default().options(),
            HighsBackend::program_options()
        );
        let backend = user(&[("mip_pool_soft_limit", "5000")]).unwrap();
        assert_eq!(
            backend.options().last(),
            Some(&("mip_pool_soft_limit".into(), HighsOption::Int(5000)))
        );
    }

    #[test]
    fn user_options_that_would_mislead_are_refused_with_the_reason() {
        for (param, needle) in [
            (("no_such_option", "1"), "no option `no_such_option`"),
            (("mip_max_nodes", "many"), "takes an integer, not `many`"),
            (("mip_heuristic_effort", "inf"), "takes a finite number"),
            (("mip_detect_symmetry", "maybe"), "takes true or false"),
            (
                ("presolve", "sometimes"),
                "option `presolve` rejects `sometimes`",
            ),
            (("time_limit", "5"), "set by bnsl (use --time-limit)"),
            (("mip_rel_gap", "0.01"), "set by bnsl (use --gap)"),
            (("objective_bound", "0"), "unproven"),
            (("solve_relaxation", "true"), "unproven"),
            (("solver", "pdlp"), "unproven"),
        ] {
            let message = user(&[param]).unwrap_err();
            assert!(message.contains(needle), "{param:?}: {message}");
        }
        assert!(user(&[("solve_relaxation", "false"), ("solver", "ipm")]).is_ok());
    }

    /// Every recovery from a failed LP solve reaches the same optimum with duals, and
    /// undoing it leaves the session solving as before.
    #[test]
    fn every_recovery_solves_the_lp_and_is_undone() {
        let model = crate::milp::testkit::market_split();
        let mut lp = HighsBackend::default()
            .open_session(&model, &Limits::default())
            .unwrap();
        let optimum = |attempt: Attempt| match attempt {
            Attempt::Optimal(solution) => {
                assert_eq!(solution.row_duals.len(), model.rows().len());
                solution.objective
            }
            _ => panic!("the LP was not solved"),
        };
        let first = optimum(lp.solve_once(None).unwrap());
        for recovery in Recovery::ALL {
            recovery.apply(&mut lp).unwrap();
            let recovered = optimum(lp.solve_once(None).unwrap());
            assert!(
                (recovered - first).abs() < 1e-6,
                "{recovered} against {first}"
            );
            recovery.undo(&mut lp).unwrap();
            let again = optimum(lp.solve_once(None).unwrap());
            assert!((again - first).abs() < 1e-6, "{again} against {first}");
        }
    }

    /// A node limit of 1 stops the hard market-split instance at once: the option
    /// reaches the solve.
    #[test]
    fn user_options_reach_the_solve() {
        let model = crate::milp::testkit::market_split();
        let limits = Limits {
            time_limit: Some(30.0),
            ..Limits::default()
        };
        let backend = user(&[("mip_max_nodes", "1")]).unwrap();
        let outcome = backend.solve(&model, &limits).unwrap();
        assert!(outcome.time_s < 10.0, "{outcome:?}");
        assert_ne!(outcome.status, Status::Optimal, "{outcome:?}");
        assert!(outcome.nodes.unwrap() <= 1, "{outcome:?}");
    }
}
