//! The pipeline every `learn` run goes through: input (score file, or data scored into
//! candidates) → solver → a DAG checked against the score table (acyclic, every parent
//! set a candidate, score recomputed) → report.

use crate::bound_history::BoundHistory;
use crate::data::{load_data, LoadOptions};
use crate::error::LearnError;
use crate::fio::read_scores;
use crate::ilp::{run_ilp, IlpSettings, WarmStart};
use crate::maxsat::run_maxsat;
use crate::mb::{allowed_parents, CiOptions, Restriction};
use crate::observe::{Observer, EXACT_SOLVE};
use crate::report::{LearnReport, Status};
use crate::scores::{
    generate_candidates, select_candidates, CandidateOptions, GenerationStats, LocalScorer,
    ScoreKind, Search, SelectionOptions,
};
use crate::treewidth::{certify, forced_arcs_exceed, ktree_options};
use bnsl_formulations::{Dag, ScoreTable, StructuralConstraints};
use bnsl_solvers::dp::bounded_treewidth::{
    solve_dp_within_width, WithinWidthOptions, WithinWidthProgress,
};
use bnsl_solvers::dp::{solve_dp, DpError, DpOptions};
use bnsl_solvers::heuristics::{
    asobs_search_with_progress, ktree_search, AsobsOptions, HeuristicError, KtreeOptions,
    KtreeVersion, Rule, DEFAULT_CLIMB_STEPS,
};
use bnsl_solvers::ilp::IlpProgress;
use bnsl_solvers::maxsat::MaxSatOptions;
use bnsl_solvers::StopToken;
use serde_json::json;
use std::path::Path;
use std::time::{Duration, Instant};

/// Whether an input file holds data or local scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum InputKind {
    /// Decide by the file name: `.csv`, `.dat`, `.txt` (optionally `.gz`) are data,
    /// anything else is a score file.
    Auto,
    /// A data set (CSV or GOBNILP `.dat`).
    Data,
    /// A score file (jkl variants or URLearning `.pss`).
    Scores,
}

/// Decides the kind of `path` under `kind`.
pub fn is_data_file(path: &Path, kind: InputKind) -> bool {
    match kind {
        InputKind::Data => true,
        InputKind::Scores => false,
        InputKind::Auto => {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("")
                .to_ascii_lowercase();
            let name = name.strip_suffix(".gz").unwrap_or(&name);
            [".csv", ".dat", ".txt"]
                .iter()
                .any(|ext| name.ends_with(ext))
        }
    }
}

/// How to score a data set into candidates.
#[derive(Clone, Debug)]
pub struct ScoringSetup {
    /// Score function.
    pub kind: ScoreKind,
    /// Candidate generation options.
    pub candidates: CandidateOptions,
    /// Data loading options.
    pub load: LoadOptions,
    /// Restrict each variable's candidate parents to its discovered PC set or Markov
    /// blanket (found by BAMB with these test settings) before scoring.
    pub restrict: Option<(Restriction, CiOptions)>,
    /// Anytime exploration (Scanagatta et al. 2015, §3) instead of the level-wise generator, if asked.
    pub selection: Option<SelectionSetup>,
}

/// A time budget for parent-set exploration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// No time limit (the parent limit and pruning end the search).
    Unlimited,
    /// Seconds per variable.
    PerVariable(Duration),
    /// Seconds in all, split evenly: per variable TOTAL × threads / variables.
    Total(Duration),
}

/// Anytime parent-set exploration settings (resolved into [`SelectionOptions`] once the
/// number of variables is known).
#[derive(Clone, Debug, PartialEq)]
pub struct SelectionSetup {
    /// Exploration strategy.
    pub search: Search,
    /// Time budget.
    pub budget: Budget,
    /// Parent limit, if any.
    pub max_parents: Option<usize>,
}

impl SelectionSetup {
    /// The options for `n` variables, pruning as `candidates` says.
    pub fn options(&self, n: usize, candidates: &CandidateOptions) -> SelectionOptions {
        let threads = rayon::current_num_threads() as f64;
        let time_per_var = match self.budget {
            Budget::Unlimited => None,
            Budget::PerVariable(t) => Some(t),
            Budget::Total(t) => Some(t.mul_f64(threads / n.max(1) as f64)),
        };
        SelectionOptions {
            search: self.search,
            time_per_var,
            max_parents: self.max_parents,
            pruning: candidates.pruning,
            allowed_parents: candidates.allowed_parents.clone(),
        }
    }
}

/// A data set scored into candidates, with timings.
pub struct ScoredData {
    /// The candidate table.
    pub table: ScoreTable,
    /// What generation did.
    pub stats: GenerationStats,
    /// Seconds spent reading the data.
    pub load_s: f64,
    /// Seconds spent discovering blankets for `restrict` (0 without it).
    pub restrict_s: f64,
    /// Seconds spent scoring and pruning.
    pub score_s: f64,
}

/// Scores a data set into a candidate table; `observer` sees the scoring stage.
pub fn score_data(
    path: &Path,
    setup: &ScoringSetup,
    observer: &dyn Observer,
) -> Result<ScoredData, LearnError> {
    let start = Instant::now();
    let data = load_data(path, &setup.load)?;
    let load_s = start.elapsed().as_secs_f64();
    if data.n_rows() == 0 {
        return Err(LearnError::NoRows(path.to_path_buf()));
    }
    let start = Instant::now();
    let mut candidates = setup.candidates.clone();
    if let Some((restriction, ci)) = setup.restrict {
        let (allowed, _) =
            allowed_parents(&data, restriction, ci).map_err(|source| LearnError::Restriction {
                path: path.to_path_buf(),
                source,
            })?;
        candidates.allowed_parents = Some(allowed);
    }
    let restrict_s = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let scorer = LocalScorer::new(&data, setup.kind);
    let (table, stats) = match &setup.selection {
        None => {
            observer.stage("scoring families", None);
            let out = generate_candidates(&scorer, &candidates, &|k| observer.advance(k));
            observer.stage_done();
            out.map_err(|source| LearnError::Scoring {
                path: path.to_path_buf(),
                source,
            })?
        }
        Some(sel) => {
            let opts = sel.options(data.n_vars(), &candidates);
            observer.stage("selecting parent sets", Some(data.n_vars() as u64));
            let out = select_candidates(&scorer, &opts, &|| observer.advance(1));
            observer.stage_done();
            out
        }
    };
    Ok(ScoredData {
        table,
        stats,
        load_s,
        restrict_s,
        score_s: start.elapsed().as_secs_f64(),
    })
}

/// Loads the problem: a score file as is, or a data set scored with `setup`.
pub fn load_problem(
    path: &Path,
    kind: InputKind,
    setup: &ScoringSetup,
    observer: &dyn Observer,
) -> Result<ScoreTable, LearnError> {
    if is_data_file(path, kind) {
        Ok(score_data(path, setup, observer)?.table)
    } else {
        Ok(read_scores(path)?.table)
    }
}

/// The learning methods.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Method {
    /// Exact dynamic programming over variable subsets (Silander & Myllymäki 2006); at
    /// most 30 variables, fast up to about 20.
    Dp,
    /// Exact integer programming (the family-variable ILP of GOBNILP, Bartlett & Cussens
    /// 2017) on a MILP back-end.
    Ilp,
    /// Ordering-based search (Teyssier & Koller 2005; Scanagatta et al. 2015): random
    /// orders, parents must precede children, local search; a heuristic.
    Obs,
    /// Acyclic-selection OBS (Scanagatta et al. 2015): back-arcs allowed when they close
    /// no cycle; a heuristic.
    Asobs,
    /// k-tree sampling for a treewidth bound (Nie et al. 2016, §4, Version 2): uniform
    /// k-trees, a random orientation within each, the best parents inside it; a
    /// heuristic.
    Ktree,
    /// Exact weighted MaxSAT on the built-in solver (varisat): families and a total
    /// order as clauses, costs as soft clauses; core-guided (OLL) or linear search.
    Maxsat,
}

pub use bnsl_solvers::dp::DP_FASTER_UP_TO;

/// The exact method for `table` when the user names none: dynamic programming up to
/// [`DP_FASTER_UP_TO`] variables, or when no MILP back-end is compiled in; otherwise
/// the ILP on the first back-end compiled in (SCIP's branch and cut where present).
pub fn default_exact_method(table: &ScoreTable) -> Method {
    if table.n() <= DP_FASTER_UP_TO || bnsl_solvers::milp::backends().is_empty() {
        Method::Dp
    } else {
        Method::Ilp
    }
}

impl Method {
    /// The lower-case name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Method::Dp => "dp",
            Method::Ilp => "ilp",
            Method::Obs => "obs",
            Method::Asobs => "asobs",
            Method::Ktree => "ktree",
            Method::Maxsat => "maxsat",
        }
    }
}

/// A learning method and its settings.
#[derive(Clone, Debug)]
pub struct LearnOptions {
    /// The method.
    pub method: Method,
    /// Settings of [`Method::Ilp`].
    pub ilp: IlpSettings,
    /// Options of OBS / ASOBS (the rule is set from `method`).
    pub heuristic: AsobsOptions,
    /// Limits of [`Method::Dp`] (its token is replaced by `stop`).
    pub dp: DpOptions,
    /// Required/forbidden arcs and parent limits, applied to the table first.
    pub constraints: StructuralConstraints,
    /// A treewidth bound W on the answer (Nie et al. 2016): learned with the
    /// bounded-treewidth MILP of [`Method::Ilp`] or its MaxSAT encoding ([`Method::Maxsat`]), and the answer's width certified. W ≥
    /// n − 1 bounds nothing; the table is then learned without it (and the width still
    /// reported).
    pub treewidth: Option<usize>,
    /// What [`Method::Ktree`] does in each sampled k-tree.
    pub ktree_version: KtreeVersion,
    /// Steps of each [`Method::Ktree`] restart's climb over codes
    /// ([`KtreeOptions::climb_steps`]).
    pub ktree_climb: u64,
    /// An ASOBS run whose network starts [`Method::Ktree`]'s restarts
    /// ([`KtreeOptions::start`]); its time comes out of the search's time limit.
    pub ktree_start: Option<AsobsOptions>,
    /// Settings of [`Method::Maxsat`] (its token is replaced by `stop`).
    pub maxsat: MaxSatOptions,
    /// Whether the hitting-set search of [`Method::Maxsat`] is seeded with each node's
    /// candidates, exactly one per node, and separates cluster clauses
    /// ([`solve_maxsat_seeded`], [`ClusterClauses`]; README, "MaxSAT").
    ///
    /// [`solve_maxsat_seeded`]: bnsl_solvers::maxsat::solve_maxsat_seeded
    /// [`ClusterClauses`]: bnsl_solvers::maxsat::ClusterClauses
    pub ihs_seeding: bool,
    /// Stops the run early from outside (another thread, a Ctrl+C handler): the ILP
    /// engines and the order searches then report what they have. It replaces the
    /// tokens inside `ilp` and `heuristic`.
    pub stop: StopToken,
}

impl LearnOptions {
    /// `method` with default settings.
    pub fn new(method: Method) -> Self {
        LearnOptions {
            method,
            ilp: IlpSettings::default(),
            heuristic: AsobsOptions::default(),
            dp: DpOptions::default(),
            constraints: StructuralConstraints::default(),
            treewidth: None,
            ktree_version: KtreeVersion::default(),
            ktree_climb: DEFAULT_CLIMB_STEPS,
            ktree_start: None,
            maxsat: MaxSatOptions::default(),
            ihs_seeding: true,
            stop: StopToken::new(),
        }
    }
}

/// The network of the ASOBS run `asobs` that starts a k-tree search; `report` gets
/// `ktree_start_score` and `ktree_start_time_s`. `None` when it found no network.
fn ktree_start(
    table: &ScoreTable,
    asobs: &AsobsOptions,
    stop: &StopToken,
    report: &mut LearnReport,
    observer: &dyn Observer,
) -> Result<Option<Dag>, LearnError> {
    let asobs = AsobsOptions {
        stop: stop.clone(),
        ..asobs.clone()
    };
    observer.stage("order search for the k-tree start", None);
    let result = asobs_search_with_progress(table, &asobs, &|p| observer.search(&p));
    observer.stage_done();
    match result {
        Ok(found) => {
            let extra = &mut report.extra;
            extra.insert("ktree_start_score".into(), json!(found.score));
            extra.insert("ktree_start_time_s".into(), json!(found.time_s));
            Ok(Some(found.dag))
        }
        Err(HeuristicError::NoNetwork(_)) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// The best DAG of treewidth at most `width` by the DP's branch and bound over forbidden
/// moral edges ([`solve_dp_within_width`]) into `report`, with its `bound_history`;
/// returns the answer's elimination order.
fn run_dp_within_width(
    table: &ScoreTable,
    width: usize,
    opts: &LearnOptions,
    report: &mut LearnReport,
    observer: &dyn Observer,
) -> Result<Option<Vec<usize>>, LearnError> {
    let history = BoundHistory::new();
    let options = WithinWidthOptions {
        width,
        start: None,
        dp: DpOptions {
            stop: opts.stop.clone(),
            ..opts.dp.clone()
        },
    };
    let progress = |p: &WithinWidthProgress| {
        let snapshot = IlpProgress {
            incumbent: p.incumbent,
            bound: Some(p.bound),
            cuts: 0,
            nodes: p.nodes,
            rounds: 0,
        };
        history.record(&snapshot);
        observer.ilp(&snapshot);
    };
    observer.stage(EXACT_SOLVE, None);
    let solved = solve_dp_within_width(table, &options, &progress);
    observer.stage_done();
    let outcome = solved.map_err(LearnError::Dp)?;
    let best_score = outcome.best.as_ref().map(|b| b.score);
    history.record_point(best_score, outcome.bound);
    report.status = match (outcome.proved, best_score) {
        (true, Some(_)) => Status::Optimal,
        (true, None) => Status::Infeasible,
        (false, Some(_)) => Status::Feasible,
        (false, None) => Status::Unknown,
    };
    report.bound = match report.status {
        Status::Optimal => best_score,
        _ => outcome.bound,
    };
    let extra = &mut report.extra;
    extra.insert("engine".into(), json!("dp_edge_branch_and_bound"));
    extra.insert("nodes".into(), json!(outcome.nodes));
    extra.insert("dp_solves".into(), json!(outcome.dp_solves));
    extra.insert("bound_history".into(), history.to_json());
    let Some(best) = outcome.best else {
        return Ok(None);
    };
    report.dag = Some(best.dag);
    Ok(Some(best.elimination_order))
}

/// Runs the k-tree search of `options` into `report`; returns the elimination order of
/// the k-tree of the best DAG.
fn run_ktree_search(
    table: &ScoreTable,
    options: &KtreeOptions,
    report: &mut LearnReport,
    observer: &dyn Observer,
) -> Result<Option<Vec<usize>>, LearnError> {
    observer.stage("k-tree restarts", None);
    let result = ktree_search(table, options, &|p| observer.search(&p));
    observer.stage_done();
    match result {
        Ok(res) => {
            let fields = [
                ("found_at_s", json!(res.found_at_s)),
                ("restarts", json!(res.restarts)),
                ("seed", json!(options.seed)),
                (
                    "ktree_version",
                    json!(match options.version {
                        KtreeVersion::One => 1,
                        KtreeVersion::Two => 2,
                    }),
                ),
                ("ktree_climb", json!(options.climb_steps)),
            ];
            record_heuristic(report, res.dag, fields);
            Ok(Some(res.elimination_order))
        }
        Err(HeuristicError::NoNetwork(_)) => {
            report.status = Status::Unknown;
            Ok(None)
        }
        Err(e) => Err(e.into()),
    }
}

/// Records a heuristic's DAG in `report` with its `fields`: status `feasible` (a
/// heuristic proves nothing), no bound.
fn record_heuristic<const N: usize>(
    report: &mut LearnReport,
    dag: Dag,
    fields: [(&str, serde_json::Value); N],
) {
    report.status = Status::Feasible;
    report.dag = Some(dag);
    for (key, value) in fields {
        report.extra.insert(key.into(), value);
    }
}

/// Runs the order search of `opts` (OBS or ASOBS) into `report`; `observer` sees every
/// restart. Heuristics prove nothing: status `feasible`, no bound.
fn run_order_search(
    table: &ScoreTable,
    rule: Rule,
    opts: &AsobsOptions,
    report: &mut LearnReport,
    observer: &dyn Observer,
) -> Result<(), LearnError> {
    let opts = AsobsOptions {
        rule,
        ..opts.clone()
    };
    observer.stage("order search restarts", None);
    let result = asobs_search_with_progress(table, &opts, &|p| observer.search(&p));
    observer.stage_done();
    match result {
        Ok(res) => {
            let fields = [
                ("found_at_s", json!(res.found_at_s)),
                ("restarts", json!(res.restarts)),
                ("best_restart", json!(res.best_restart)),
                ("seed", json!(opts.seed)),
            ];
            record_heuristic(report, res.dag, fields);
            Ok(())
        }
        Err(HeuristicError::NoNetwork(_)) => {
            report.status = Status::Unknown;
            Ok(())
        }
        Err(e) => Err(e.into()),
    }
}

/// The table a method solves: `table` restricted by `constraints`, without dominated
/// candidates ([`ScoreTable::without_dominated`]); `report` gets `candidates` (the
/// number kept). `None` when the constraints leave no DAG: `report` is then
/// `infeasible`, with the reason.
fn prepare(
    table: &ScoreTable,
    constraints: &StructuralConstraints,
    report: &mut LearnReport,
) -> Option<ScoreTable> {
    let restricted;
    let base = match constraints.restrict_if_any(table) {
        Ok(None) => table,
        Ok(Some(t)) => {
            restricted = t;
            &restricted
        }
        Err(why) => {
            report.status = Status::Infeasible;
            report
                .extra
                .insert("infeasible".into(), json!(why.to_string()));
            return None;
        }
    };
    let (pruned, _) = base.without_dominated();
    report
        .extra
        .insert("candidates".into(), json!(pruned.total_candidates()));
    Some(pruned)
}

/// Runs the method of `opts` on `table` (restricted by the constraints, dominated
/// candidates dropped) and returns a report whose DAG has been checked against `table`;
/// `observer` sees the solver's progress.
pub fn learn(
    table: &ScoreTable,
    opts: &LearnOptions,
    observer: &dyn Observer,
) -> Result<LearnReport, LearnError> {
    let start = Instant::now();
    let method = opts.method;
    let mut report = LearnReport {
        method: method.name().into(),
        status: Status::Unknown,
        names: table.names().to_vec(),
        dag: None,
        score: None,
        bound: None,
        time_s: 0.0,
        extra: Default::default(),
    };
    let prepared = match prepare(table, &opts.constraints, &mut report) {
        Some(t) => t,
        None => return Ok(report),
    };
    let (prepared, width) = match width_bound(&prepared, opts, &mut report)? {
        Some(WidthBound::Unsatisfiable) => return Ok(report),
        Some(WidthBound::Active(w, narrow)) => (narrow, Some(w)),
        Some(WidthBound::Vacuous) | None => (prepared, None),
    };
    let mut elimination_order = None;
    let table_in = table;
    let table = &prepared;
    match method {
        Method::Dp if width.is_some() => {
            let width = width.expect("matched");
            elimination_order = run_dp_within_width(table, width, opts, &mut report, observer)?;
        }
        Method::Dp => match solve_dp(
            table,
            &DpOptions {
                stop: opts.stop.clone(),
                ..opts.dp.clone()
            },
        ) {
            Ok(res) => {
                report.status = Status::Optimal;
                report.bound = Some(res.score);
                report.dag = Some(res.dag);
            }
            Err(DpError::Infeasible) => report.status = Status::Infeasible,
            Err(stopped @ DpError::Stopped { .. }) => {
                report.status = Status::Unknown;
                report
                    .extra
                    .insert("stopped".into(), json!(stopped.to_string()));
            }
            Err(e) => return Err(LearnError::Dp(e)),
        },
        Method::Ilp => {
            let mut ilp = opts.ilp.clone();
            ilp.options.limits.stop = opts.stop.clone();
            match &mut ilp.warm_start {
                Some(WarmStart::Asobs(heuristic)) => heuristic.stop = opts.stop.clone(),
                Some(WarmStart::Ktree(search)) => {
                    search.heuristic.stop = opts.stop.clone();
                    if let Some(asobs) = &mut search.start {
                        asobs.stop = opts.stop.clone();
                    }
                }
                _ => {}
            }
            observer.stage(EXACT_SOLVE, None);
            let solved = run_ilp(table, &ilp, width, &mut report, &|p| observer.ilp(p));
            observer.stage_done();
            elimination_order = solved?;
        }
        Method::Obs | Method::Asobs => {
            let rule = if method == Method::Obs {
                Rule::Obs
            } else {
                Rule::Asobs
            };
            let heuristic = AsobsOptions {
                stop: opts.stop.clone(),
                ..opts.heuristic.clone()
            };
            run_order_search(table, rule, &heuristic, &mut report, observer)?
        }
        Method::Ktree => {
            let heuristic = AsobsOptions {
                stop: opts.stop.clone(),
                ..opts.heuristic.clone()
            };
            let width = opts.treewidth.unwrap_or(table.n().saturating_sub(1));
            let began = Instant::now();
            let start = match &opts.ktree_start {
                Some(asobs) => ktree_start(table, asobs, &opts.stop, &mut report, observer)?,
                None => None,
            };
            let options = ktree_options(
                width,
                opts.ktree_version,
                opts.ktree_climb,
                start,
                &heuristic,
                began,
            );
            elimination_order = run_ktree_search(table, &options, &mut report, observer)?;
        }
        Method::Maxsat => {
            let options = MaxSatOptions {
                stop: opts.stop.clone(),
                ..opts.maxsat.clone()
            };
            observer.stage(EXACT_SOLVE, None);
            let solved = run_maxsat(
                table,
                width,
                opts.ihs_seeding,
                &options,
                &mut report,
                observer,
            );
            observer.stage_done();
            solved.map_err(LearnError::Internal)?;
        }
    }
    if opts.stop.is_stopped() {
        report.extra.insert("interrupted".into(), json!(true));
    }
    report.time_s = start.elapsed().as_secs_f64();
    if let Some(dag) = &report.dag {
        let score = dag.check(table_in).map_err(LearnError::Unverified)?;
        if let Some(bound) = report.bound {
            if score < bound - 1e-6 * bound.abs().max(1.0) && report.status == Status::Optimal {
                return Err(LearnError::Internal(format!(
                    "the verified score {score} is below the proved optimum {bound}"
                )));
            }
        }
        report.score = Some(score);
    }
    if let Some(bound) = opts.treewidth {
        certify(&mut report, bound, elimination_order.as_deref()).map_err(LearnError::Internal)?;
    }
    Ok(report)
}

/// What a treewidth bound means for a table.
enum WidthBound {
    /// W ≥ n − 1: every DAG fits.
    Vacuous,
    /// A bound to learn under, and the table without the parent sets of more than that
    /// many parents (a node and its parents are a clique of the moral graph, so such a
    /// family alone exceeds the bound).
    Active(usize, ScoreTable),
    /// The arcs every network must have already exceed it.
    Unsatisfiable,
}

/// The treewidth bound of `opts` for the prepared `table`, noted in `report`: a vacuous
/// bound is said (`treewidth_note`), an unsatisfiable one makes the report infeasible
/// with the reason, and a bound is refused for the methods that cannot keep it.
fn width_bound(
    table: &ScoreTable,
    opts: &LearnOptions,
    report: &mut LearnReport,
) -> Result<Option<WidthBound>, LearnError> {
    let Some(bound) = opts.treewidth else {
        if opts.method == Method::Ktree {
            return Err(LearnError::Setting(
                "--method ktree samples k-trees of width W: give --treewidth W".into(),
            ));
        }
        return Ok(None);
    };
    let n = table.n();
    if bound + 1 >= n {
        report.extra.insert(
            "treewidth_note".into(),
            json!(format!(
                "the bound {bound} is at least n - 1 = {}: every DAG fits, so the table is learned without it",
                n.saturating_sub(1)
            )),
        );
        return Ok(Some(WidthBound::Vacuous));
    }
    if !matches!(
        opts.method,
        Method::Dp | Method::Ilp | Method::Ktree | Method::Maxsat
    ) {
        return Err(LearnError::Setting(format!(
            "--treewidth needs --method dp (branch and bound on the DP), ilp (the \
             bounded-treewidth MILP), maxsat (its MaxSAT encoding) or ktree (k-tree \
             sampling); {} cannot keep a treewidth bound",
            opts.method.name()
        )));
    }
    let narrow = StructuralConstraints::default()
        .with_parent_limit(Some(bound))
        .restrict(table)
        .map_err(|why| {
            format!(
                "{why} within the treewidth bound {bound}, which allows at most {bound} parents"
            )
        })
        .and_then(|narrow| match forced_arcs_exceed(&narrow, bound) {
            Some(why) => Err(why),
            None => Ok(narrow),
        });
    match narrow {
        Ok(narrow) => {
            report
                .extra
                .insert("candidates".into(), json!(narrow.total_candidates()));
            Ok(Some(WidthBound::Active(bound, narrow)))
        }
        Err(why) => {
            report.status = Status::Infeasible;
            report.extra.insert("treewidth_bound".into(), json!(bound));
            report.extra.insert("infeasible".into(), json!(why));
            Ok(Some(WidthBound::Unsatisfiable))
        }
    }
}
