//! The SCIP back-end: SCIP 10 through `russcip` 0.11.
//!
//! SCIP is a branch-and-cut framework whose constraint handlers can separate cuts inside
//! the search (SPEC §5), which later capability traits build on. The library comes from
//! the `pyscipopt` wheel (see `solvers/build.rs` and `scripts/setup.sh`). SCIP solves
//! sequentially here: [`Limits::threads`] is ignored.

mod node_cuts;

use super::{
    check_start, finite, trivial_outcome, CutSeparator, Limits, MilpBackend, MilpOutcome, NodeCuts,
    SolverError, Status, WarmStart,
};
use crate::ilp::scip_bc::{is_plugin_param, ScipBcSettings, ScipBranchAndCut};
use crate::ilp::FamilyIlpSolver;
use crate::stop::StopToken;
use bnsl_formulations::milp::{MilpModel, Sense};
use russcip::prelude::*;
use russcip::{
    ffi, Event, EventMask, Eventhdlr, ProblemCreated, SCIPEventhdlr, Solved, Solving, Variable,
};
use std::borrow::Cow;
use std::time::Instant;

const NAME: &str = "scip";

/// Solves models with SCIP. Honours the time limit (wall clock, SCIP's default clock),
/// the gap (`limits/gap`, 0 when none is given), the improving-solution limit
/// (`limits/bestsol`), the seed (`randomization/randomseedshift`), verbosity and the
/// stop token. Its options ([`ScipBcSettings`]) set up the branch-and-cut engine of the
/// family ILP; their SCIP parameters apply to every solve of a program.
#[derive(Clone, Debug, Default)]
pub struct ScipBackend {
    settings: ScipBcSettings,
}

impl MilpBackend for ScipBackend {
    fn name(&self) -> &'static str {
        NAME
    }

    fn version(&self) -> String {
        // SAFETY: pure queries of the linked library's version.
        let (major, minor, tech) = unsafe {
            (
                ffi::SCIPmajorVersion(),
                ffi::SCIPminorVersion(),
                ffi::SCIPtechVersion(),
            )
        };
        format!("SCIP {major}.{minor}.{tech}")
    }

    fn solve(&self, model: &MilpModel, limits: &Limits) -> Result<MilpOutcome, SolverError> {
        run(model, limits, None, None, &self.settings.params)
    }

    /// SCIP parameters and the engine's own `bnsl/...` settings, see
    /// [`ScipBcSettings::from_params`]. Each SCIP parameter is checked at once on a
    /// scratch instance with SCIP's default plugins (its name, and its value by its type
    /// and range), except those of the engine's own plugins (e.g.
    /// `separating/clusters/...`), which the solve that includes them checks.
    fn with_params(
        &self,
        params: &[(String, String)],
    ) -> Result<Box<dyn MilpBackend>, SolverError> {
        let settings = ScipBcSettings::from_params(params).map_err(|e| error(e.to_string()))?;
        let checked_now: Vec<(String, String)> = settings
            .params
            .iter()
            .filter(|(name, _)| !is_plugin_param(name))
            .cloned()
            .collect();
        if !checked_now.is_empty() {
            let scratch = Model::try_new()
                .map_err(|code| error(format!("could not create SCIP: {code:?}")))?;
            let scratch = silence(scratch).include_default_plugins();
            set_params(scratch.scip_ptr(), &checked_now)?;
        }
        Ok(Box::new(ScipBackend { settings }))
    }

    fn for_sub_ips(&self) -> Box<dyn MilpBackend> {
        Box::new(ScipBackend::default())
    }

    /// Between HiGHS and CBC on separation sub-IPs.
    fn sub_ip_rank(&self) -> u8 {
        2
    }

    fn branch_and_cut(&self) -> Option<Box<dyn FamilyIlpSolver + '_>> {
        Some(Box::new(ScipBranchAndCut::new(self.settings.clone())))
    }

    fn warm_start(&self) -> Option<&dyn WarmStart> {
        Some(self)
    }

    fn node_cuts(&self) -> Option<&dyn NodeCuts> {
        Some(self)
    }
}

/// SCIP takes the start as a solution added before the solve (`SCIPaddSol`), which it
/// checks and keeps as the first incumbent when feasible.
impl WarmStart for ScipBackend {
    fn solve_from(
        &self,
        model: &MilpModel,
        limits: &Limits,
        start: &[f64],
    ) -> Result<MilpOutcome, SolverError> {
        check_start(NAME, model, start)?;
        run(model, limits, Some(start), None, &self.settings.params)
    }
}

/// SCIP calls the separator at every node, on fractional and integral LP solutions,
/// and checks every solution it finds against it (`node_cuts`): its rows are lazy
/// constraints, so the answer satisfies every row the separator returns at it, which
/// the trait does not promise. Dual reductions are off, so that the rows stay valid in
/// SCIP's problem.
impl NodeCuts for ScipBackend {
    fn solve_with_cuts(
        &self,
        model: &MilpModel,
        limits: &Limits,
        start: Option<&[f64]>,
        separator: std::sync::Arc<dyn CutSeparator>,
    ) -> Result<MilpOutcome, SolverError> {
        if let Some(start) = start {
            check_start(NAME, model, start)?;
        }
        run(model, limits, start, Some(separator), &self.settings.params)
    }

    /// SCIP itself: SCIP instances are independent, and the family ILP's branch and
    /// cut already solves its sub-IPs in SCIP sub-instances from its separator.
    fn sub_ips_in_callbacks(&self) -> Option<Box<dyn MilpBackend>> {
        Some(self.for_sub_ips())
    }
}

/// Solves `model` from `start`, with `separator` (if any) at the nodes, and the SCIP
/// parameters `params` set after SCIP's defaults (and before those node cuts need).
fn run(
    model: &MilpModel,
    limits: &Limits,
    start: Option<&[f64]>,
    separator: Option<std::sync::Arc<dyn CutSeparator>>,
    params: &[(String, String)],
) -> Result<MilpOutcome, SolverError> {
    limits.validate()?;
    if let Some(outcome) = trivial_outcome(model) {
        return Ok(outcome);
    }
    let begin = Instant::now();
    let (mut scip, vars) = build(model, limits)?;
    set_params(scip.scip_ptr(), params)?;
    if let Some(separator) = separator {
        let needed: Vec<(String, String)> = node_cuts::PARAMS
            .iter()
            .map(|&(name, value)| (name.to_owned(), value.to_owned()))
            .collect();
        set_params(scip.scip_ptr(), &needed)?;
        node_cuts::include(&mut scip, separator, &vars).map_err(|e| {
            error(format!(
                "could not include the node cuts: SCIP code {}",
                e.0
            ))
        })?;
    }
    if let Some(values) = start {
        let sol = scip.create_orig_sol();
        for (var, &value) in vars.iter().zip(values) {
            sol.set_val(var, value);
        }
        // An infeasible start is simply not stored, as documented on the trait.
        let _ = scip.add_sol(sol);
    }
    let solved = scip
        .try_solve()
        .map_err(|code| error(format!("solve failed: {code:?}")))?;
    let mut outcome = read_outcome(model, &solved, &vars);
    outcome.time_s = begin.elapsed().as_secs_f64();
    Ok(outcome)
}

/// Sets each of `params` (SCIP parameters by name, values parsed by the parameter's
/// type) on the instance `scip`; the error names the first one refused.
pub(crate) fn set_params(
    scip: *mut ffi::SCIP,
    params: &[(String, String)],
) -> Result<(), SolverError> {
    for (name, value) in params {
        crate::ilp::scip_bc::set_param(scip, name, value).map_err(|e| error(e.to_string()))?;
    }
    Ok(())
}

fn error(message: String) -> SolverError {
    SolverError::Backend {
        backend: NAME,
        message,
    }
}

fn param_error(name: &str, code: russcip::Retcode) -> SolverError {
    error(format!("parameter `{name}` was rejected: {code:?}"))
}

/// SCIP names are C strings: a NUL byte would end them early.
fn scip_name(name: &str) -> Cow<'_, str> {
    if name.contains('\0') {
        Cow::Owned(name.replace('\0', " "))
    } else {
        Cow::Borrowed(name)
    }
}

/// `scip` with every message off: the display, and also warnings, which SCIP (and the
/// sub-SCIPs of its heuristics, which share the message handler) would otherwise print
/// to standard output, where bnsl writes its JSON.
pub(crate) fn silence<T>(scip: Model<T>) -> Model<T> {
    let scip = scip.hide_output();
    // SAFETY: the pointer is the live SCIP instance owned by `scip`.
    unsafe { ffi::SCIPsetMessagehdlrQuiet(scip.scip_ptr(), 1) };
    scip
}

/// Creates the SCIP problem with its parameters, variables and linear constraints.
pub(crate) fn build(
    model: &MilpModel,
    limits: &Limits,
) -> Result<(Model<ProblemCreated>, Vec<Variable>), SolverError> {
    let scip =
        Model::try_new().map_err(|code| error(format!("could not create SCIP: {code:?}")))?;
    let scip = if limits.verbose {
        scip.set_display_verbosity(4)
    } else {
        silence(scip)
    };
    let sense = match model.sense() {
        Sense::Maximize => ObjSense::Maximize,
        Sense::Minimize => ObjSense::Minimize,
    };
    let mut scip = scip
        .include_default_plugins()
        .create_prob("bnsl")
        .set_obj_sense(sense);
    stop_with(&mut scip, &limits.stop)?;
    let gap = limits.gap.unwrap_or(0.0);
    scip = scip
        .set_real_param("limits/gap", gap)
        .map_err(|c| param_error("limits/gap", c))?;
    if let Some(seconds) = limits.time_limit {
        scip = scip
            .set_real_param("limits/time", seconds)
            .map_err(|c| param_error("limits/time", c))?;
    }
    if let Some(count) = limits.improving_solutions {
        let name = "limits/bestsol";
        scip = scip
            .set_int_param(name, i32::try_from(count).unwrap_or(i32::MAX))
            .map_err(|c| param_error(name, c))?;
    }
    if let Some(seed) = limits.seed_i32() {
        let name = "randomization/randomseedshift";
        scip = scip
            .set_int_param(name, seed)
            .map_err(|c| param_error(name, c))?;
    }
    let vars: Vec<Variable> = model
        .variables()
        .iter()
        .map(|v| {
            let kind = if v.integer {
                VarType::Integer
            } else {
                VarType::Continuous
            };
            scip.add_var(v.lower, v.upper, v.objective, &scip_name(&v.name), kind)
        })
        .collect();
    for row in model.rows() {
        let row_vars: Vec<&Variable> = row
            .coefficients
            .iter()
            .map(|&(var, _)| &vars[var.index()])
            .collect();
        let coefs: Vec<f64> = row.coefficients.iter().map(|&(_, c)| c).collect();
        scip.add_cons(
            row_vars,
            &coefs,
            row.lower,
            row.upper,
            &scip_name(&row.name),
        );
    }
    Ok((scip, vars))
}

/// Maps SCIP's status to ours. SCIP stops at `limits/gap` with "gap limit", which is
/// optimality within the requested gap. A bounded model cannot be unbounded, so
/// "infeasible or unbounded" means infeasible there.
fn map_status(model: &MilpModel, status: russcip::Status, has_incumbent: bool) -> Status {
    match status {
        russcip::Status::Optimal | russcip::Status::GapLimit if has_incumbent => Status::Optimal,
        russcip::Status::Infeasible => Status::Infeasible,
        russcip::Status::Unbounded => Status::Unbounded,
        russcip::Status::Inforunbd if model.is_bounded() => Status::Infeasible,
        _ if has_incumbent => Status::Feasible,
        _ => Status::Unknown,
    }
}

/// Ends a SCIP solve once its [`StopToken`] is stopped: SCIP is asked to interrupt
/// itself (status "user interrupt") at the next LP solve or node after the stop.
struct StopWatcher(StopToken);

impl Eventhdlr for StopWatcher {
    fn get_type(&self) -> EventMask {
        EventMask::LP_EVENT | EventMask::NODE_EVENT
    }

    fn execute(&mut self, model: Model<Solving>, _eventhdlr: SCIPEventhdlr, _event: Event) {
        if self.0.is_stopped() {
            // SAFETY: the live instance, in the solving stage, where SCIP takes the call.
            unsafe { ffi::SCIPinterruptSolve(model.scip_ptr()) };
        }
    }
}

/// Makes `token` the only way to interrupt `scip`: SCIP's own SIGINT handler is off
/// (`misc/catchctrlc`), so that a Ctrl+C reaches the command line's handler, which stops
/// the token, and SCIP prints nothing about it; a [`StopWatcher`] ends the solve.
pub(crate) fn stop_with(
    scip: &mut Model<ProblemCreated>,
    token: &StopToken,
) -> Result<(), SolverError> {
    // SAFETY: a parameter of the live instance owned by `scip`, in the problem stage.
    let code = unsafe { ffi::SCIPsetBoolParam(scip.scip_ptr(), c"misc/catchctrlc".as_ptr(), 0) };
    if code != ffi::SCIP_Retcode_SCIP_OKAY {
        return Err(error(format!(
            "parameter `misc/catchctrlc` was rejected (SCIP code {code})"
        )));
    }
    scip.include_eventhdlr(
        "bnsl_stop",
        "interrupts the solve once bnsl's stop token is stopped",
        Box::new(StopWatcher(token.clone())),
    );
    Ok(())
}

fn read_outcome(model: &MilpModel, solved: &Model<Solved>, vars: &[Variable]) -> MilpOutcome {
    let best = solved.best_sol();
    let status = map_status(model, solved.status(), best.is_some());
    let objective = best.as_ref().map(|sol| sol.obj_val());
    let values = best
        .as_ref()
        .map(|sol| vars.iter().map(|v| sol.val(v)).collect());
    let bound = match status {
        Status::Infeasible | Status::Unbounded => None,
        _ => finite(solved.best_bound()),
    };
    // SAFETY: the pointer is the live SCIP instance owned by `solved`, in solved stage.
    let nodes = unsafe { ffi::SCIPgetNTotalNodes(solved.scip_ptr()) };
    MilpOutcome {
        status,
        objective,
        bound,
        values,
        nodes: u64::try_from(nodes).ok(),
        lp_iterations: u64::try_from(solved.n_lp_iterations()).ok(),
        time_s: 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::milp::testkit::backend_tests!(ScipBackend::default());

    #[test]
    fn improving_solution_limit_with_node_cuts() {
        crate::milp::testkit::improving_solution_limit_with_node_cuts(&ScipBackend::default());
    }

    #[test]
    fn the_separator_cuts_at_the_nodes() {
        crate::milp::testkit::separator_cuts_at_the_nodes(&ScipBackend::default());
    }

    /// Unlike CBC, SCIP enforces the separator's rows on an integral LP solution: at
    /// capacity 3 the LP optimum x = y = z = 1 (8) is cut off, and the answer is 5.
    #[test]
    fn an_integral_lp_is_separated() {
        let (_, o, calls) = crate::milp::testkit::solve_three_items(&ScipBackend::default(), 3.0);
        assert!(calls > 0);
        assert!((o.objective.unwrap() - 5.0).abs() < 1e-9, "{o:?}");
    }

    #[test]
    fn links_scip_10() {
        // SAFETY: a pure query of the linked library's version.
        let major = unsafe { ffi::SCIPmajorVersion() };
        assert_eq!(
            major, 10,
            "scip-sys's pregenerated bindings are for SCIP 10"
        );
    }

    #[test]
    fn names_with_nul_bytes_are_cleaned() {
        assert_eq!(scip_name("a\0b"), "a b");
        assert!(matches!(scip_name("ab"), Cow::Borrowed("ab")));
    }
}
