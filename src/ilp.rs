//! Exact learning by the family-variable ILP, wired for the pipeline: an engine solves
//! the program of the (already restricted and pruned) table on the chosen back-end, and
//! the outcome becomes a [`LearnReport`] (verified by the pipeline).

use crate::dag_io::read_dag;
use crate::report::{LearnReport, Status};
use anyhow::{anyhow, bail, Context};
use bnsl_formulations::{Dag, DagError, FamilyIlp, ScoreTable};
use bnsl_solvers::heuristics::{asobs_search, AsobsOptions, HeuristicError};
use bnsl_solvers::ilp::cut_loop::CutLoop;
use bnsl_solvers::ilp::ordering::solve_ordering;
#[cfg(feature = "scip")]
use bnsl_solvers::ilp::scip_bc::{ScipBcSettings, ScipBranchAndCut};
use bnsl_solvers::ilp::{FamilyIlpSolver, IlpOptions, IlpOutcome, IlpProgress, IlpStatus};
use bnsl_solvers::milp::{backend, backends, MilpBackend};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Which program is solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Formulation {
    /// Family variables with cluster cuts (GOBNILP); separation in a cut loop or in
    /// SCIP's branch and cut.
    Family,
    /// Family variables with continuous order variables (seed 003 (5b)): polynomial
    /// size, one MILP call.
    Ordering,
}

impl Formulation {
    /// The name used in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Formulation::Family => "family",
            Formulation::Ordering => "ordering",
        }
    }
}

/// Everything an ILP run needs besides the table.
#[derive(Clone, Debug)]
pub struct IlpSettings {
    /// Back-end name (`scip`, `highs`, `cbc`); `None`: the first compiled in.
    pub backend: Option<String>,
    /// The program.
    pub formulation: Formulation,
    /// Limits, separation settings, start DAG.
    pub options: IlpOptions,
    /// `name=value` settings of the SCIP branch-and-cut engine (`--scip-param`): SCIP
    /// parameters, and the engine's own under `bnsl/`.
    pub scip_params: Vec<(String, String)>,
    /// `name=value` HiGHS options (`--highs-param`), for the HiGHS back-end's solves of
    /// the program.
    pub highs_params: Vec<(String, String)>,
    /// Where the back-end's starting DAG comes from (`--warm-start`); its time counts
    /// against the time limit.
    pub warm_start: Option<WarmStart>,
    /// Write progress as plain, timestamped lines on stderr (`--log-progress`) instead of
    /// the terminal's progress line.
    pub log_progress: bool,
}

/// The source of a starting DAG for the back-end.
#[derive(Clone, Debug)]
pub enum WarmStart {
    /// Run ASOBS (seed 001 §4) with these options first and start from its DAG.
    Asobs(AsobsOptions),
    /// Read the DAG from this file (see [`read_dag`]); a node whose parent set is not a
    /// candidate takes its best candidate inside that set.
    Dag(PathBuf),
}

impl Default for IlpSettings {
    fn default() -> Self {
        IlpSettings {
            backend: None,
            formulation: Formulation::Family,
            options: IlpOptions::default(),
            scip_params: Vec::new(),
            highs_params: Vec::new(),
            warm_start: None,
            log_progress: false,
        }
    }
}

/// Solves `table` under `settings`, filling `report` (status, DAG, bound, extra fields).
/// `progress` sees every improvement.
pub fn run_ilp(
    table: &ScoreTable,
    settings: &IlpSettings,
    report: &mut LearnReport,
    progress: &dyn Fn(&IlpProgress),
) -> anyhow::Result<()> {
    let engine = with_highs_params(pick_backend(settings.backend.as_deref())?, settings)?;
    report.extra.insert("backend".into(), json!(engine.name()));
    for (field, params) in [
        ("scip_params", &settings.scip_params),
        ("highs_params", &settings.highs_params),
    ] {
        if !params.is_empty() {
            report.extra.insert(field.into(), params_json(params));
        }
    }
    report
        .extra
        .insert("formulation".into(), json!(settings.formulation.as_str()));
    let node_cuts = node_cuts_setting(engine.as_ref(), settings)?;
    if let Some(on) = node_cuts {
        report.extra.insert("node_cuts".into(), json!(on));
    }
    let mut options = settings.options.clone();
    if let Some(heuristic) = &settings.warm_start {
        warm_start(table, heuristic, &mut options, report)?;
    }
    let ilp = FamilyIlp::new(table);
    let outcome = match settings.formulation {
        Formulation::Family => {
            family_engine(engine.as_ref(), settings)?.solve(&ilp, &options, progress)?
        }
        Formulation::Ordering => solve_ordering(engine.as_ref(), &ilp, &options, progress)?,
    };
    fill_report(report, outcome)
}

/// Makes the DAG of `source` the start of `options`, shortening the time limit by the
/// time it took; the report gets `warm_start`, `warm_start_score` and
/// `warm_start_time_s`. A table with no DAG leaves the start empty (the ILP then proves
/// infeasibility).
fn warm_start(
    table: &ScoreTable,
    source: &WarmStart,
    options: &mut IlpOptions,
    report: &mut LearnReport,
) -> anyhow::Result<()> {
    let began = Instant::now();
    let (name, dag, score) = match source {
        WarmStart::Asobs(heuristic) => match asobs_search(table, heuristic) {
            Ok(found) => ("asobs", found.dag, found.score),
            Err(HeuristicError::NoNetwork(_)) => return Ok(()),
            Err(e) => return Err(e).context("warm start"),
        },
        WarmStart::Dag(path) => {
            let dag = start_dag_from_file(table, path)?;
            let score = dag
                .check(table)
                .with_context(|| format!("warm start {}", path.display()))?;
            ("dag", dag, score)
        }
    };
    let seconds = began.elapsed().as_secs_f64();
    if let Some(limit) = options.limits.time_limit.as_mut() {
        *limit = (*limit - seconds).max(0.0);
    }
    report.extra.insert("warm_start".into(), json!(name));
    report.extra.insert("warm_start_score".into(), json!(score));
    report
        .extra
        .insert("warm_start_time_s".into(), json!(seconds));
    options.start = Some(dag);
    Ok(())
}

/// The DAG in the file at `path`, each node's parent set replaced by its best candidate
/// of `table` inside that set when it is not a candidate itself (a pruned or restricted
/// table keeps the best subsets; taking subsets keeps the graph acyclic). Errors name the
/// file: unreadable, cyclic, or a node with no candidate inside its parents.
fn start_dag_from_file(table: &ScoreTable, path: &Path) -> anyhow::Result<Dag> {
    let shown = path.display();
    let read = read_dag(path, table.names()).with_context(|| format!("warm start {shown}"))?;
    if let Err(cycle) = read.topological_order() {
        let names = cycle.iter().map(|&v| table.names()[v].clone()).collect();
        return Err(DagError::Cycle(names)).with_context(|| format!("warm start {shown}"));
    }
    let mut dag = Dag::empty(table.n());
    for v in 0..table.n() {
        let Some(choice) = table.best_within(v, read.parents(v)) else {
            bail!(
                "warm start {shown}: no candidate parent set of `{}` lies inside its parents there",
                table.names()[v]
            );
        };
        dag.set_parents(v, choice.parents.clone());
    }
    Ok(dag)
}

/// The back-end called `name`, or the first compiled in when `name` is `None`; an error
/// that lists what this build has otherwise.
pub fn pick_backend(name: Option<&str>) -> anyhow::Result<Box<dyn MilpBackend>> {
    name.map(|name| {
        backend(name).ok_or_else(|| {
            let known: Vec<&str> = backends().iter().map(|b| b.name()).collect();
            anyhow!(
                "back-end `{name}` is not compiled into this build (available: {}); \
                     build with --features native",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            )
        })
    })
    .unwrap_or_else(|| {
        backends().into_iter().next().ok_or_else(|| {
            anyhow!("no MILP back-end is compiled into this build; build with --features native")
        })
    })
}

/// `name=value` settings as a JSON object of strings, for the report.
fn params_json(params: &[(String, String)]) -> Value {
    Value::Object(
        params
            .iter()
            .map(|(name, value)| (name.clone(), json!(value)))
            .collect(),
    )
}

/// `backend`, or HiGHS with the options of `--highs-param` when given; they are an error
/// with another back-end.
fn with_highs_params(
    backend: Box<dyn MilpBackend>,
    settings: &IlpSettings,
) -> anyhow::Result<Box<dyn MilpBackend>> {
    if settings.highs_params.is_empty() {
        return Ok(backend);
    }
    #[cfg(feature = "highs")]
    if backend.name() == "highs" {
        let highs =
            bnsl_solvers::milp::highs::HighsBackend::with_user_options(&settings.highs_params)
                .context("--highs-param")?;
        return Ok(Box::new(highs));
    }
    bail!(
        "--highs-param applies to the HiGHS back-end only (this run uses {})",
        backend.name()
    )
}

/// Whether the run separates cluster cuts at the back-end's nodes, for the report:
/// `None` where there is no such choice (back-ends without
/// [`NodeCuts`](bnsl_solvers::milp::NodeCuts), SCIP's included, and the ordering
/// formulation). Turning node cuts off where there is no choice is an error.
fn node_cuts_setting(
    backend: &dyn MilpBackend,
    settings: &IlpSettings,
) -> anyhow::Result<Option<bool>> {
    let choice = settings.formulation == Formulation::Family && backend.node_cuts().is_some();
    match (choice, settings.options.no_node_cuts) {
        (true, off) => Ok(Some(!off)),
        (false, false) => Ok(None),
        (false, true) => bail!(
            "--no-node-cuts applies to the family formulation on a back-end with node cuts \
             (cbc); this run uses the {} formulation on {}",
            settings.formulation.as_str(),
            backend.name()
        ),
    }
}

/// The engine for the family formulation: SCIP's branch and cut on SCIP, the cut loop on
/// the other back-ends.
fn family_engine<'b>(
    backend: &'b dyn MilpBackend,
    settings: &IlpSettings,
) -> anyhow::Result<Box<dyn FamilyIlpSolver + 'b>> {
    #[cfg(feature = "scip")]
    if backend.name() == "scip" {
        let scip = ScipBcSettings::from_params(&settings.scip_params)?;
        return Ok(Box::new(ScipBranchAndCut::new(scip)));
    }
    if !settings.scip_params.is_empty() {
        bail!(
            "--scip-param applies to the SCIP back-end only (this run uses {})",
            backend.name()
        );
    }
    Ok(Box::new(CutLoop::new(backend)))
}

fn fill_report(report: &mut LearnReport, outcome: IlpOutcome) -> anyhow::Result<()> {
    report.status = match outcome.status {
        IlpStatus::Optimal => Status::Optimal,
        IlpStatus::Feasible => Status::Feasible,
        IlpStatus::Infeasible => Status::Infeasible,
        IlpStatus::Unknown => Status::Unknown,
    };
    if report.status == Status::Optimal && outcome.dag.is_none() {
        bail!("internal error: the ILP engine reported optimality without a DAG");
    }
    report.dag = outcome.dag;
    report.bound = outcome.bound;
    let extra = &mut report.extra;
    extra.insert("nodes".into(), json!(outcome.nodes));
    extra.insert("cuts".into(), json!(outcome.cuts));
    extra.insert(
        "lp_iterations".into(),
        outcome.lp_iterations.map_or(Value::Null, |n| json!(n)),
    );
    extra.insert(
        "rounds".into(),
        outcome.rounds.map_or(Value::Null, |n| json!(n)),
    );
    Ok(())
}
