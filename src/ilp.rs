//! Exact learning by the family-variable ILP, wired for the pipeline: an engine solves
//! the program of the (already restricted and pruned) table on the chosen back-end, and
//! the outcome becomes a [`LearnReport`] (verified by the pipeline).

use crate::bound_history::BoundHistory;
use crate::dag_io::read_dag;
use crate::error::LearnError;
use crate::report::{LearnReport, Status};
use crate::treewidth::ktree_options;
use bnsl_formulations::bounded_treewidth::TreewidthForm;
use bnsl_formulations::{Dag, DagError, FamilyIlp, ScoreTable};
use bnsl_solvers::heuristics::{
    asobs_search, ktree_search, AsobsOptions, HeuristicError, KtreeVersion,
};
use bnsl_solvers::ilp::bounded_treewidth::{solve_bounded_treewidth, TreewidthMilp};
use bnsl_solvers::ilp::ordering::solve_ordering;
use bnsl_solvers::ilp::{family_solver, IlpOptions, IlpOutcome, IlpProgress};
use bnsl_solvers::milp::{backends, configured, BackendParam, MilpBackend};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Which program is solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Formulation {
    /// Family variables with cluster cuts (GOBNILP); separation in a cut loop or in
    /// SCIP's branch and cut.
    Family,
    /// Family variables with continuous order variables (Nie et al. 2016, (5b)): polynomial
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
    /// The form of the bounded-treewidth MILP (Nie et al. 2016, (6)), solved instead of
    /// `formulation` when [`run_ilp`] is given a treewidth bound.
    pub treewidth_form: TreewidthForm,
    /// Solve the bounded-treewidth MILP without the root rounds' cluster cuts
    /// ([`TreewidthMilp::root_cuts`]).
    pub treewidth_no_root_cuts: bool,
    /// Solve the bounded-treewidth MILP without first solving the family ILP unbounded
    /// ([`TreewidthMilp::unbounded_first`]).
    pub treewidth_no_unbounded_first: bool,
    /// On a back-end with its own branch and cut (SCIP), solve the bounded-treewidth
    /// problem there, the treewidth rows as side constraints
    /// ([`TreewidthMilp::branch_and_cut`]).
    pub treewidth_branch_and_cut: bool,
    /// Limits, separation settings, start DAG, stop token.
    pub options: IlpOptions,
    /// The user's options for the back-end (`--backend-param`, `--scip-param`,
    /// `--highs-param`), parsed and checked by the back-end.
    pub backend_params: Vec<BackendParam>,
    /// Where the back-end's starting DAG comes from (`--warm-start`); its time counts
    /// against the time limit.
    pub warm_start: Option<WarmStart>,
}

/// The source of a starting DAG for the back-end.
#[derive(Clone, Debug)]
pub enum WarmStart {
    /// Run ASOBS (Scanagatta et al. 2015, §4) with these options first and start from its DAG.
    Asobs(AsobsOptions),
    /// Read the DAG from this file (see [`read_dag`]); a node whose parent set is not a
    /// candidate takes its best candidate inside that set.
    Dag(PathBuf),
    /// Run the k-tree search (Nie et al. 2016, §4) first, for the run's treewidth bound
    /// (n − 1 without one), and start from its DAG.
    Ktree(KtreeWarmStart),
}

/// The k-tree search of [`WarmStart::Ktree`].
#[derive(Clone, Debug)]
pub struct KtreeWarmStart {
    /// Its time limit, restarts and seed.
    pub heuristic: AsobsOptions,
    /// Algorithm 1's version.
    pub version: KtreeVersion,
    /// Climbing steps per restart.
    pub climb: u64,
    /// The ASOBS run whose network the restarts start from (its time counts in
    /// `heuristic`'s); `None`: sampled k-trees only.
    pub start: Option<AsobsOptions>,
}

impl IlpSettings {
    /// The program solved with treewidth bound `width`, as the JSON's `formulation`
    /// names it.
    pub fn program_name(&self, width: Option<usize>) -> &'static str {
        match (width, self.treewidth_form) {
            (Some(_), TreewidthForm::Paper) => "bounded_treewidth_paper",
            (Some(_), TreewidthForm::Tight) => "bounded_treewidth",
            (None, _) => self.formulation.as_str(),
        }
    }
}

impl Default for IlpSettings {
    fn default() -> Self {
        IlpSettings {
            backend: None,
            formulation: Formulation::Family,
            treewidth_form: TreewidthForm::default(),
            treewidth_no_root_cuts: false,
            treewidth_no_unbounded_first: false,
            treewidth_branch_and_cut: false,
            options: IlpOptions::default(),
            backend_params: Vec::new(),
            warm_start: None,
        }
    }
}

/// Solves `table` under `settings`, filling `report` (status, DAG, bound, extra fields);
/// with a treewidth bound `width`, the bounded-treewidth MILP is solved. `progress` sees
/// every improvement; the report's `bound_history` gets the curve of incumbent and bound
/// ([`BoundHistory`], seconds from the start of this call, the warm start included).
/// Returns an elimination order of the DAG's moral graph within the bound, when there is
/// one.
pub fn run_ilp(
    table: &ScoreTable,
    settings: &IlpSettings,
    width: Option<usize>,
    report: &mut LearnReport,
    progress: &dyn Fn(&IlpProgress),
) -> Result<Option<Vec<usize>>, LearnError> {
    let history = BoundHistory::new();
    let recorded = |p: &IlpProgress| {
        history.record(p);
        progress(p);
    };
    let solved = solve(table, settings, width, report, &history, &recorded);
    report
        .extra
        .insert("bound_history".into(), history.to_json());
    solved
}

/// The solve of [`run_ilp`]: engine, warm start and program; `history` records the
/// warm start and the final state, `progress` the rest.
fn solve(
    table: &ScoreTable,
    settings: &IlpSettings,
    width: Option<usize>,
    report: &mut LearnReport,
    history: &BoundHistory,
    progress: &dyn Fn(&IlpProgress),
) -> Result<Option<Vec<usize>>, LearnError> {
    let engine = configured(settings.backend.as_deref(), &settings.backend_params)?;
    report.extra.insert("backend".into(), json!(engine.name()));
    if !settings.backend_params.is_empty() {
        report.extra.insert(
            format!("{}_params", engine.name()),
            params_json(&settings.backend_params),
        );
    }
    report
        .extra
        .insert("formulation".into(), json!(settings.program_name(width)));
    let node_cuts = node_cuts_setting(engine.as_ref(), settings, width)?;
    if let Some(on) = node_cuts {
        report.extra.insert("node_cuts".into(), json!(on));
    }
    let mut options = settings.options.clone();
    if let Some(heuristic) = &settings.warm_start {
        if let Some(score) = warm_start(table, heuristic, width, &mut options, report)? {
            history.record_point(Some(score), None);
        }
    }
    let ilp = FamilyIlp::new(table);
    if let Some(width) = width {
        report
            .extra
            .insert("engine".into(), json!("treewidth_milp"));
        let program = TreewidthMilp {
            width,
            form: settings.treewidth_form,
            root_cuts: !settings.treewidth_no_root_cuts,
            unbounded_first: !settings.treewidth_no_unbounded_first,
            branch_and_cut: settings.treewidth_branch_and_cut,
        };
        let solved = solve_bounded_treewidth(engine.as_ref(), &ilp, program, &options, progress)?;
        history.record_point(solved.ilp.score, solved.ilp.bound);
        fill_report(report, solved.ilp)?;
        return Ok(solved.elimination_order);
    }
    report.extra.insert(
        "engine".into(),
        json!(engine_kind(engine.as_ref(), settings.formulation)),
    );
    let outcome = match settings.formulation {
        Formulation::Family => family_solver(engine.as_ref()).solve(&ilp, &options, progress)?,
        Formulation::Ordering => solve_ordering(engine.as_ref(), &ilp, &options, progress)?,
    };
    history.record_point(outcome.score, outcome.bound);
    fill_report(report, outcome)?;
    Ok(None)
}

/// The engine that solves `formulation` on `backend`, as the JSON's `engine` names it:
/// `branch_and_cut` (the back-end's own, [`MilpBackend::branch_and_cut`]), `cut_loop`,
/// or `ordering_milp` (one MILP solve).
pub fn engine_kind(backend: &dyn MilpBackend, formulation: Formulation) -> &'static str {
    match formulation {
        Formulation::Family if backend.capabilities().branch_and_cut => "branch_and_cut",
        Formulation::Family => "cut_loop",
        Formulation::Ordering => "ordering_milp",
    }
}

/// Makes the DAG of `source` the start of `options`, shortening the time limit by the
/// time it took; the report gets `warm_start`, `warm_start_score` and
/// `warm_start_time_s`. Returns the start's score; a table with no DAG leaves the start
/// empty (the ILP then proves infeasibility).
fn warm_start(
    table: &ScoreTable,
    source: &WarmStart,
    width: Option<usize>,
    options: &mut IlpOptions,
    report: &mut LearnReport,
) -> Result<Option<f64>, LearnError> {
    let began = Instant::now();
    let found = match source {
        WarmStart::Ktree(search) => {
            let width = width.unwrap_or(table.n().saturating_sub(1));
            heuristic_start("ktree", ktree_warm_start(table, search, width))?
        }
        WarmStart::Asobs(heuristic) => heuristic_start(
            "asobs",
            asobs_search(table, heuristic).map(|f| (f.dag, f.score)),
        )?,
        WarmStart::Dag(path) => {
            let in_file = |e: LearnError| LearnError::WarmStart {
                path: path.clone(),
                source: Box::new(e),
            };
            let dag = start_dag_from_file(table, path).map_err(in_file)?;
            let score = dag.check(table).map_err(|e| in_file(e.into()))?;
            Some(("dag", dag, score))
        }
    };
    let Some((name, dag, score)) = found else {
        return Ok(None);
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
    Ok(Some(score))
}

/// The best network of the k-tree search `search` for treewidth bound `width`, started
/// from its ASOBS network when it has one.
fn ktree_warm_start(
    table: &ScoreTable,
    search: &KtreeWarmStart,
    width: usize,
) -> Result<(Dag, f64), HeuristicError> {
    let began = Instant::now();
    let start = match &search.start {
        Some(asobs) => match asobs_search(table, asobs) {
            Ok(found) => Some(found.dag),
            Err(HeuristicError::NoNetwork(_)) => None,
            Err(e) => return Err(e),
        },
        None => None,
    };
    let ktree = ktree_options(
        width,
        search.version,
        search.climb,
        start,
        &search.heuristic,
        began,
    );
    ktree_search(table, &ktree, &|_| {}).map(|f| (f.dag, f.score))
}

/// The start a heuristic named `name` found, with its score; `None` when it found no
/// network (a table with no DAG); its other errors become warm-start errors.
fn heuristic_start(
    name: &'static str,
    found: Result<(Dag, f64), HeuristicError>,
) -> Result<Option<(&'static str, Dag, f64)>, LearnError> {
    match found {
        Ok((dag, score)) => Ok(Some((name, dag, score))),
        Err(HeuristicError::NoNetwork(_)) => Ok(None),
        Err(e) => Err(LearnError::WarmStart {
            path: name.into(),
            source: Box::new(e.into()),
        }),
    }
}

/// The DAG in the file at `path`, each node's parent set replaced by its best candidate
/// of `table` inside that set when it is not a candidate itself (a pruned or restricted
/// table keeps the best subsets; taking subsets keeps the graph acyclic). Errors name the
/// file: unreadable, cyclic, or a node with no candidate inside its parents.
fn start_dag_from_file(table: &ScoreTable, path: &Path) -> Result<Dag, LearnError> {
    let read = read_dag(path, table.names())?;
    if let Err(cycle) = read.topological_order() {
        let names = cycle.iter().map(|&v| table.names()[v].clone()).collect();
        return Err(DagError::Cycle(names).into());
    }
    let mut dag = Dag::empty(table.n());
    for v in 0..table.n() {
        let Some(choice) = table.best_within(v, read.parents(v)) else {
            return Err(LearnError::Setting(format!(
                "no candidate parent set of `{}` lies inside its parents there",
                table.names()[v]
            )));
        };
        dag.set_parents(v, choice.parents.clone());
    }
    Ok(dag)
}

/// `name=value` settings as a JSON object of strings, for the report.
fn params_json(params: &[BackendParam]) -> Value {
    Value::Object(
        params
            .iter()
            .map(|p| (p.name.clone(), json!(p.value)))
            .collect(),
    )
}

/// Whether the cut loop separates cluster cuts at the back-end's nodes, for the report:
/// `None` where there is no such choice (back-ends without
/// [`NodeCuts`](bnsl_solvers::milp::NodeCuts), back-ends whose own branch and cut
/// solves the family ILP (SCIP), and the ordering formulation). Turning node cuts off
/// where there is no choice is an error.
fn node_cuts_setting(
    backend: &dyn MilpBackend,
    settings: &IlpSettings,
    width: Option<usize>,
) -> Result<Option<bool>, LearnError> {
    let choice = settings.formulation == Formulation::Family
        && width.is_none()
        && backend.node_cuts().is_some()
        && backend.branch_and_cut().is_none();
    match (choice, settings.options.no_node_cuts) {
        (true, off) => Ok(Some(!off)),
        (false, false) => Ok(None),
        (false, true) => {
            let with_node_cuts: Vec<&str> = backends()
                .iter()
                .filter(|b| b.node_cuts().is_some() && b.branch_and_cut().is_none())
                .map(|b| b.name())
                .collect();
            Err(LearnError::Setting(format!(
                "--no-node-cuts applies to the family formulation on a back-end with node cuts \
                 ({}); this run uses the {} formulation on {}",
                with_node_cuts.join(", "),
                settings.program_name(width),
                backend.name()
            )))
        }
    }
}

fn fill_report(report: &mut LearnReport, outcome: IlpOutcome) -> Result<(), LearnError> {
    report.status = outcome.status;
    if report.status == Status::Optimal && outcome.dag.is_none() {
        return Err(LearnError::Internal(
            "the ILP engine reported optimality without a DAG".into(),
        ));
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
