//! The CBC back-end: COIN-OR CBC through its C interface (crate `coin_cbc_sys`, linking
//! Debian's `coinor-libcbc-dev`, CBC 2.10).
//!
//! The safe `coin_cbc` wrapper hides the node count and whether an incumbent exists, both
//! of which an honest report needs, so this module drives the C interface directly.
//! libCbc is not thread-safe: all calls go through one process-wide lock, so CBC
//! solves in one process run one at a time. Each solve runs on a thread of its own while
//! the caller watches the stop token of the limits, which CBC can miss (see
//! [`crate::interrupt`]).
//!
//! CBC 2.10's C interface has a cut-generator callback (`Cbc_addCutCallback`, not bound
//! by the Rust crates), which [`NodeCuts`] exposes. It is not a lazy-constraint callback:
//! CBC takes an integral node LP (or, were they on, a heuristic's solution) without
//! calling it. So
//! formulations with cuts still run a cut loop around CBC, which checks each solution.
//! CBC does not report an unbounded MILP as such: when its LP relaxation is unbounded
//! the outcome is [`Status::Unknown`] (or [`Status::Feasible`] with an incumbent) and
//! carries no bound.

use super::{
    check_start, finite, refuse_params, trivial_outcome, CutSeparator, Limits, MilpBackend,
    MilpOutcome, NodeCuts, SolverError, Status, WarmStart,
};
use crate::interrupt;
use bnsl_formulations::milp::{MilpModel, Sense};
use coin_cbc_sys as ffi;
use std::ffi::CString;
use std::os::raw::{c_char, c_int, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

const NAME: &str = "cbc";

/// Serialises every use of libCbc, which keeps global state.
static CBC_LOCK: Mutex<()> = Mutex::new(());

extern "C" {
    // Part of CBC 2.10's C interface, not bound by coin_cbc_sys 0.1.3: the incumbent of
    // the last MILP solve, or NULL when there is none.
    fn Cbc_bestSolution(model: *mut ffi::Cbc_Model) -> *const f64;
    // Also not bound there: a MIP start given as `count` (column index, value) pairs.
    fn Cbc_setMIPStartI(
        model: *mut ffi::Cbc_Model,
        count: c_int,
        col_idxs: *const c_int,
        col_values: *const f64,
    );
    // Also not bound there: a cut generator that calls `callback(osi, cuts, app_data)`
    // at every node (CBC 2.10's `CglCallback`, added with `howOften` 1).
    fn Cbc_addCutCallback(
        model: *mut ffi::Cbc_Model,
        callback: CutCallback,
        name: *const c_char,
        app_data: *mut c_void,
    );
    // The node LP in a cut callback: its column count and solution.
    fn Osi_getNumCols(osi: *mut c_void) -> c_int;
    fn Osi_getColSolution(osi: *mut c_void) -> *const f64;
    // Adds the row `Σ coef[k] x[idx[k]] (sense) rhs` to a callback's cut set.
    fn OsiCuts_addRowCut(
        cuts: *mut c_void,
        nz: c_int,
        idx: *const c_int,
        coef: *const f64,
        sense: c_char,
        rhs: f64,
    );
}

/// CBC's `cbc_cut_callback`.
type CutCallback = unsafe extern "C" fn(osi: *mut c_void, cuts: *mut c_void, app_data: *mut c_void);

/// Solves models with CBC. Honours every [`Limits`] field; the time limit is wall-clock
/// (CBC's `timeMode elapsed`), the gap is CBC's `ratioGap`, 0 when no gap is given.
#[derive(Clone, Copy, Debug, Default)]
pub struct CbcBackend;

impl MilpBackend for CbcBackend {
    fn name(&self) -> &'static str {
        NAME
    }

    fn version(&self) -> String {
        // SAFETY: the library returns a pointer to a static NUL-terminated string.
        let text = unsafe { std::ffi::CStr::from_ptr(ffi::Cbc_getVersion()) };
        format!("CBC {}", text.to_string_lossy())
    }

    fn with_params(
        &self,
        params: &[(String, String)],
    ) -> Result<Box<dyn MilpBackend>, SolverError> {
        refuse_params(NAME, params)?;
        Ok(Box::new(CbcBackend))
    }

    fn for_sub_ips(&self) -> Box<dyn MilpBackend> {
        Box::new(CbcBackend)
    }

    /// Slowest of the three on separation sub-IPs.
    fn sub_ip_rank(&self) -> u8 {
        1
    }

    fn solve(&self, model: &MilpModel, limits: &Limits) -> Result<MilpOutcome, SolverError> {
        run(model, limits, None, None)
    }

    fn warm_start(&self) -> Option<&dyn WarmStart> {
        Some(self)
    }

    /// No, except in [`NodeCuts`] solves: CBC 2.10 has `maxSolutions`, but with it a
    /// run that then reaches its time limit crashed (SIGSEGV in
    /// `CglPreProcess::postProcess`) on alarm_10000's cut loop, every time, where the
    /// same run without it stops cleanly. A node-cut solve has CBC's preprocessing off,
    /// and there the limit works: alarm_10000's cut loop with it reached its time limit
    /// inside a MIP round and stopped cleanly (see README, "Benchmark notes behind
    /// design choices").
    fn stops_at_improving_solutions(&self) -> bool {
        false
    }

    fn node_cuts(&self) -> Option<&dyn NodeCuts> {
        Some(self)
    }
}

const IMPROVING_SOLUTIONS_REFUSED: &str =
    "CBC takes an improving-solution limit only with node cuts (see CbcBackend::stops_at_improving_solutions)";

/// CBC takes the start as a MIP start (`Cbc_setMIPStartI`): it fixes the integer
/// columns at the start's values, solves the LP for the rest and, when that is
/// feasible, keeps the point as its first incumbent and cutoff.
impl WarmStart for CbcBackend {
    fn solve_from(
        &self,
        model: &MilpModel,
        limits: &Limits,
        start: &[f64],
    ) -> Result<MilpOutcome, SolverError> {
        check_start(NAME, model, start)?;
        run(model, limits, Some(start), None)
    }
}

/// CBC calls the separator through its cut-generator callback (`Cbc_addCutCallback`)
/// at every node, with CBC's preprocessing off so that the node LP keeps the model's
/// columns, and its primal heuristics off (see `Cbc::add_cut_callback`). CBC takes an
/// integral node LP without calling the separator, so its solution can still violate
/// the separator's rows (see [`NodeCuts`]).
impl NodeCuts for CbcBackend {
    fn solve_with_cuts(
        &self,
        model: &MilpModel,
        limits: &Limits,
        start: Option<&[f64]>,
        separator: Arc<dyn CutSeparator>,
    ) -> Result<MilpOutcome, SolverError> {
        if let Some(start) = start {
            check_start(NAME, model, start)?;
        }
        run(model, limits, start, Some(separator))
    }

    /// Another back-end: CBC hangs when its cut callback runs CBC.
    fn sub_ips_in_callbacks(&self) -> Option<Box<dyn MilpBackend>> {
        super::sub_ip_backend_besides(self.name())
    }
}

/// CBC is always handed a minimisation: a maximisation goes in with its objective
/// negated, and objective and bound are negated back on the way out. CBC 2.10's
/// command-line solver computes a MIP start's objective in the model's own sense
/// but stores it as an internal (minimisation) cutoff, so a maximisation with a
/// start had every node cut off: the root LP came out "infeasible" and the start was
/// reported as optimal.
fn run(
    model: &MilpModel,
    limits: &Limits,
    start: Option<&[f64]>,
    separator: Option<Arc<dyn CutSeparator>>,
) -> Result<MilpOutcome, SolverError> {
    limits.validate()?;
    if let Some(outcome) = trivial_outcome(model) {
        return Ok(outcome);
    }
    let begin = Instant::now();
    let job = Job {
        model: model.clone(),
        limits: limits.clone(),
        start: start.map(<[f64]>::to_vec),
        separator,
    };
    let mut outcome = solve_on_a_thread_of_its_own(job)?;
    outcome.time_s = begin.elapsed().as_secs_f64();
    Ok(outcome)
}

/// How often the waiting thread looks at the stop token while CBC solves.
const POLL_INTERVAL: Duration = Duration::from_millis(50);

/// How long CBC is given to stop after a stop request (a Ctrl+C, or a stopped token)
/// before its solve is left running. The only SIGINT handler a CBC 2.10 solve installs
/// is Clp's, in force during initial LP solves, so a stop reaches CBC only when it
/// comes during one: a Ctrl+C in a cut-loop round's root processing may otherwise be
/// seen only at the round's end, and one during the ordering program's branch and bound
/// not before its time limit (see README, "Benchmark notes behind design choices").
const STOP_GRACE: Duration = Duration::from_secs(2);

/// Stack of CBC's thread: as much as a main thread has, with room to spare.
const STACK_BYTES: usize = 32 << 20;

/// Runs `job` on a thread of its own and waits for it, watching its stop token meanwhile
/// (see [`interrupt`]): a stop reaches CBC through Clp's SIGINT handler. When CBC does
/// not stop within [`STOP_GRACE`], its solve is left running and reported as stopped
/// with nothing found: the caller keeps what earlier solves gave it.
fn solve_on_a_thread_of_its_own(job: Job) -> Result<MilpOutcome, SolverError> {
    let stop = job.limits.stop.clone();
    let (sender, receiver) = mpsc::channel();
    thread::Builder::new()
        .name("cbc".into())
        .stack_size(STACK_BYTES)
        .spawn(move || {
            let _ = sender.send(job.solve());
        })
        .map_err(|e| error(format!("cannot start a thread for CBC: {e}")))?;
    let mut interrupted_at: Option<Instant> = None;
    loop {
        match receiver.recv_timeout(POLL_INTERVAL) {
            Ok(result) => return result,
            Err(RecvTimeoutError::Disconnected) => {
                return Err(error("CBC's thread ended without an answer".into()))
            }
            Err(RecvTimeoutError::Timeout) => {}
        }
        interrupt::reclaim_sigint();
        if stop.is_stopped() {
            interrupt::forward_stop_to_guarded_solver();
            let since = *interrupted_at.get_or_insert_with(Instant::now);
            if since.elapsed() >= STOP_GRACE {
                interrupt::abandon_solve();
                // A solve left running after a stop request: nothing known.
                return Ok(MilpOutcome::nothing_known());
            }
        }
    }
}

/// One solve, with everything it needs owned, so that it can run on its own thread.
struct Job {
    model: MilpModel,
    limits: Limits,
    start: Option<Vec<f64>>,
    separator: Option<Arc<dyn CutSeparator>>,
}

impl Job {
    fn solve(self) -> Result<MilpOutcome, SolverError> {
        let arrays = Arrays::new(&self.model)?;
        let node_cuts = self.separator.map(|separator| {
            Box::new(NodeSeparation {
                separator,
                columns: self.model.num_vars(),
                calls: AtomicU64::new(0),
                rows: AtomicU64::new(0),
            })
        });
        let _guard = CBC_LOCK
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let cbc = Cbc::load(&arrays);
        cbc.configure(&self.limits, node_cuts.is_some())?;
        if let Some(values) = &self.start {
            cbc.set_mip_start(values)?;
        }
        if let Some(node_cuts) = &node_cuts {
            cbc.add_cut_callback(node_cuts)?;
        }
        {
            // Clp installs a SIGINT handler of its own around each initial LP solve:
            // the guard lets `interrupt` stand in front of it while CBC runs.
            let _sigint = interrupt::HandlerGuard::save();
            // SAFETY: `cbc.0` is a live model loaded above; the lock is held.
            unsafe { ffi::Cbc_solve(cbc.0) };
        }
        if cbc.stopped_by_user() {
            self.limits.stop.stop();
        }
        if let (Some(node_cuts), true) = (&node_cuts, self.limits.verbose) {
            eprintln!("{}", node_cuts.summary());
        }
        Ok(cbc.read_outcome(&self.model))
    }
}

/// What CBC's cut callback needs: the separator, and the model's column count to
/// recognise a node LP on the model's own columns.
struct NodeSeparation {
    separator: Arc<dyn CutSeparator>,
    columns: usize,
    /// Calls from CBC so far.
    calls: AtomicU64,
    /// Rows handed to CBC so far.
    rows: AtomicU64,
}

impl NodeSeparation {
    /// One line for the solver log: how often CBC called, and the rows it got.
    fn summary(&self) -> String {
        format!(
            "bnsl cut callback: {} calls, {} rows",
            self.calls.load(Ordering::Relaxed),
            self.rows.load(Ordering::Relaxed)
        )
    }

    /// Separates the node LP `osi` and puts the rows found into `cuts`.
    ///
    /// # Safety
    /// `osi` and `cuts` are the live solver and cut set of a CBC cut callback.
    unsafe fn generate(&self, osi: *mut c_void, cuts: *mut c_void) {
        self.calls.fetch_add(1, Ordering::Relaxed);
        if usize::try_from(Osi_getNumCols(osi)).ok() != Some(self.columns) {
            return;
        }
        let solution = Osi_getColSolution(osi);
        if solution.is_null() {
            return;
        }
        let values = std::slice::from_raw_parts(solution, self.columns);
        for row in self.separator.separate(values) {
            let (columns, coefficients): (Vec<c_int>, Vec<f64>) = row
                .terms
                .iter()
                .filter_map(|&(j, a)| Some((c_int::try_from(j).ok()?, a)))
                .unzip();
            if columns.len() != row.terms.len() {
                continue;
            }
            OsiCuts_addRowCut(
                cuts,
                columns.len() as c_int,
                columns.as_ptr(),
                coefficients.as_ptr(),
                b'G' as c_char,
                row.lower,
            );
            self.rows.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// The cut callback given to CBC: `app_data` is a [`NodeSeparation`]. A panic in the
/// separator must not unwind into CBC; the node then gets no cut.
unsafe extern "C" fn generate_node_cuts(
    osi: *mut c_void,
    cuts: *mut c_void,
    app_data: *mut c_void,
) {
    // SAFETY: CBC passes back the `NodeSeparation` registered with the callback, which
    // outlives the solve, and the live solver and cut set of the node.
    let _ = catch_unwind(AssertUnwindSafe(|| unsafe {
        (*(app_data as *const NodeSeparation)).generate(osi, cuts)
    }));
}

fn error(message: String) -> SolverError {
    SolverError::Backend {
        backend: NAME,
        message,
    }
}

/// The model in the column-major arrays `Cbc_loadProblem` takes, with infinite bounds
/// written as CBC's infinity (`DBL_MAX`) and the objective in the minimisation sense.
struct Arrays {
    starts: Vec<c_int>,
    rows: Vec<c_int>,
    values: Vec<f64>,
    col_lower: Vec<f64>,
    col_upper: Vec<f64>,
    objective: Vec<f64>,
    row_lower: Vec<f64>,
    row_upper: Vec<f64>,
    integers: Vec<c_int>,
}

fn c_index(n: usize) -> Result<c_int, SolverError> {
    c_int::try_from(n).map_err(|_| error(format!("model too large for CBC ({n} entries)")))
}

fn clamp(x: f64) -> f64 {
    x.clamp(f64::MIN, f64::MAX)
}

/// The factor that turns the model's objective into the minimisation CBC solves (and
/// CBC's objective values back into the model's sense).
fn to_minimisation(model: &MilpModel) -> f64 {
    match model.sense() {
        Sense::Maximize => -1.0,
        Sense::Minimize => 1.0,
    }
}

impl Arrays {
    fn new(model: &MilpModel) -> Result<Self, SolverError> {
        let csc = model.column_major();
        let vars = model.variables();
        Ok(Arrays {
            starts: csc
                .starts
                .iter()
                .map(|&s| c_index(s))
                .collect::<Result<_, _>>()?,
            rows: csc
                .rows
                .iter()
                .map(|&r| c_index(r))
                .collect::<Result<_, _>>()?,
            values: csc.values,
            col_lower: vars.iter().map(|v| clamp(v.lower)).collect(),
            col_upper: vars.iter().map(|v| clamp(v.upper)).collect(),
            objective: vars
                .iter()
                .map(|v| v.objective * to_minimisation(model))
                .collect(),
            row_lower: model.rows().iter().map(|r| clamp(r.lower)).collect(),
            row_upper: model.rows().iter().map(|r| clamp(r.upper)).collect(),
            integers: (0..vars.len())
                .filter(|&j| vars[j].integer)
                .map(c_index)
                .collect::<Result<_, _>>()?,
        })
    }
}

/// An owned CBC model; only used while [`CBC_LOCK`] is held, on the thread that made it.
struct Cbc(*mut ffi::Cbc_Model);

impl Drop for Cbc {
    fn drop(&mut self) {
        // SAFETY: the pointer came from `Cbc_newModel` and is deleted once.
        unsafe { ffi::Cbc_deleteModel(self.0) }
    }
}

impl Cbc {
    fn load(a: &Arrays) -> Self {
        // SAFETY: the arrays have the lengths the C interface expects (one start per
        // column plus one, one entry per non-zero, one bound per column and row), and
        // the sizes fit in `c_int` (checked when the arrays were built).
        unsafe {
            let cbc = Cbc(ffi::Cbc_newModel());
            ffi::Cbc_loadProblem(
                cbc.0,
                a.col_lower.len() as c_int,
                a.row_lower.len() as c_int,
                a.starts.as_ptr(),
                a.rows.as_ptr(),
                a.values.as_ptr(),
                a.col_lower.as_ptr(),
                a.col_upper.as_ptr(),
                a.objective.as_ptr(),
                a.row_lower.as_ptr(),
                a.row_upper.as_ptr(),
            );
            for &j in &a.integers {
                ffi::Cbc_setInteger(cbc.0, j);
            }
            ffi::Cbc_setObjSense(cbc.0, 1.0);
            cbc
        }
    }

    /// Hands CBC a MIP start of one value per column.
    ///
    /// CBC's preprocessing goes off with a start: CBC 2.10.8 crashes (SIGSEGV in
    /// `CglPreProcess::postProcess`) when a time limit ends a preprocessed solve that
    /// had a MIP start (the ordering program of alarm with 1 s; test
    /// `an_ilp_run_without_a_dag_says_what_to_do`).
    fn set_mip_start(&self, values: &[f64]) -> Result<(), SolverError> {
        self.set("preprocess", "off")?;
        let count = c_index(values.len())?;
        let columns: Vec<c_int> = (0..count).collect();
        // SAFETY: live model; both arrays hold `count` entries, which CBC copies.
        unsafe { Cbc_setMIPStartI(self.0, count, columns.as_ptr(), values.as_ptr()) };
        Ok(())
    }

    /// Registers `node_cuts` as a cut generator at every node. CBC's preprocessing goes
    /// off, so that node LPs keep the model's columns, and so do its primal heuristics,
    /// which never consult the callback: a solution of theirs that violates the
    /// separator's rows would become the cutoff and end the search at a wrong answer
    /// (test `the_separator_cuts_at_the_nodes`: 6 instead of 5 with the heuristics on).
    fn add_cut_callback(&self, node_cuts: &NodeSeparation) -> Result<(), SolverError> {
        self.set("preprocess", "off")?;
        self.set("heuristicsOnOff", "off")?;
        // SAFETY: live model; CBC copies the name and keeps the pointer, which the
        // caller keeps alive until the model is deleted.
        unsafe {
            Cbc_addCutCallback(
                self.0,
                generate_node_cuts,
                c"bnsl".as_ptr(),
                node_cuts as *const NodeSeparation as *mut c_void,
            )
        };
        Ok(())
    }

    /// Whether Ctrl+C stopped the search (CBC's secondary status 5, "stopped on
    /// event").
    fn stopped_by_user(&self) -> bool {
        // SAFETY: live, solved model.
        unsafe { ffi::Cbc_secondaryStatus(self.0) == 5 }
    }

    /// Sets a CBC command-line parameter (`-name value`).
    fn set(&self, name: &str, value: &str) -> Result<(), SolverError> {
        let name = CString::new(name).map_err(|e| error(e.to_string()))?;
        let value = CString::new(value).map_err(|e| error(e.to_string()))?;
        // SAFETY: live model; CBC copies both strings.
        unsafe { ffi::Cbc_setParameter(self.0, name.as_ptr(), value.as_ptr()) };
        Ok(())
    }

    /// Applies `limits`; the improving-solution limit only to a solve with `node_cuts`
    /// (whose preprocessing is off: see [`CbcBackend::stops_at_improving_solutions`]).
    fn configure(&self, limits: &Limits, node_cuts: bool) -> Result<(), SolverError> {
        let level = c_int::from(limits.verbose);
        // SAFETY: live model.
        unsafe { ffi::Cbc_setLogLevel(self.0, level) };
        self.set("log", &level.to_string())?;
        self.set("ratioGap", &limits.gap.unwrap_or(0.0).to_string())?;
        if limits.gap.is_none() {
            // CBC's default cutoff increment, 1e-5, prunes every node that cannot beat
            // the incumbent by that much, and so can end "optimal" on a network 1e-6
            // worse than the best: score files resolve scores to 1e-6.
            self.set("increment", "1e-7")?;
        }
        if let Some(seconds) = limits.time_limit {
            self.set("timeMode", "elapsed")?;
            self.set("seconds", &seconds.to_string())?;
        }
        if let Some(seed) = limits.seed_i32() {
            self.set("randomCbcSeed", &seed.to_string())?;
        }
        if let Some(threads) = limits.threads {
            self.set("threads", &threads.to_string())?;
        }
        match (limits.improving_solutions, node_cuts) {
            (None, _) => {}
            (Some(n), true) => self.set("maxSolutions", &n.to_string())?,
            (Some(_), false) => return Err(error(IMPROVING_SOLUTIONS_REFUSED.into())),
        }
        Ok(())
    }

    /// The incumbent after a solve: the optimal LP point for an LP (CBC solves those
    /// with Clp alone), else CBC's best integer solution if it found one.
    fn incumbent(&self, model: &MilpModel, proven_optimal: bool) -> Option<Vec<f64>> {
        let n = model.num_vars();
        // SAFETY: live, solved model; both calls return NULL or an array of one value
        // per column, owned by CBC and copied here before the model changes.
        unsafe {
            let ptr = if model.has_integers() {
                Cbc_bestSolution(self.0)
            } else if proven_optimal {
                ffi::Cbc_getColSolution(self.0)
            } else {
                std::ptr::null()
            };
            (!ptr.is_null()).then(|| std::slice::from_raw_parts(ptr, n).to_vec())
        }
    }

    fn read_outcome(&self, model: &MilpModel) -> MilpOutcome {
        // SAFETY: live, solved model.
        let (proven_optimal, proven_infeasible) = unsafe {
            (
                ffi::Cbc_isProvenOptimal(self.0) != 0,
                ffi::Cbc_isProvenInfeasible(self.0) != 0,
            )
        };
        let values = self.incumbent(model, proven_optimal);
        let status = match (proven_optimal, proven_infeasible, values.is_some()) {
            (true, _, true) => Status::Optimal,
            // For an LP, Clp's "infeasible" covers dual infeasibility (unboundedness) too,
            // which only finite variable bounds rule out.
            (_, true, _) if model.has_integers() || model.is_bounded() => Status::Infeasible,
            (_, _, true) => Status::Feasible,
            _ => Status::Unknown,
        };
        let objective = values.as_ref().map(|_| {
            // SAFETY: live, solved model.
            unsafe { ffi::Cbc_getObjValue(self.0) * to_minimisation(model) }
        });
        // SAFETY: live, solved model.
        let relaxation_unbounded =
            model.has_integers() && unsafe { ffi::Cbc_isContinuousUnbounded(self.0) != 0 };
        let bound =
            if matches!(status, Status::Infeasible | Status::Unbounded) || relaxation_unbounded {
                None
            } else if model.has_integers() {
                // SAFETY: live, solved model.
                finite(unsafe { ffi::Cbc_getBestPossibleObjValue(self.0) })
                    .map(|b| b * to_minimisation(model))
            } else {
                objective.filter(|_| status == Status::Optimal)
            };
        let nodes = model.has_integers().then(|| {
            // SAFETY: live, solved model.
            unsafe { ffi::Cbc_getNodeCount(self.0) }
        });
        // SAFETY: live, solved model.
        let iterations = unsafe { ffi::Cbc_getIterationCount(self.0) };
        MilpOutcome {
            status,
            objective,
            bound,
            values,
            nodes: nodes.and_then(|n| u64::try_from(n).ok()),
            lp_iterations: u64::try_from(iterations).ok(),
            time_s: 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::CbcBackend;

    crate::milp::testkit::backend_tests!(CbcBackend);

    #[test]
    fn improving_solution_limit_with_node_cuts() {
        crate::milp::testkit::improving_solution_limit_with_node_cuts(&CbcBackend);
    }

    #[test]
    fn the_separator_cuts_at_the_nodes() {
        crate::milp::testkit::separator_cuts_at_the_nodes(&CbcBackend);
    }

    /// CBC does not call the separator on an integral LP solution: it takes it as a
    /// solution at once. This is why [`NodeCuts`](crate::milp::NodeCuts) callers check
    /// what they get (capacity 3: 8, with x = y = 1, which the separator would cut off).
    #[test]
    fn an_integral_lp_escapes_the_separator() {
        let (_, o, _) = crate::milp::testkit::solve_three_items(&CbcBackend, 3.0);
        assert!((o.objective.unwrap() - 8.0).abs() < 1e-9, "{o:?}");
    }
}
