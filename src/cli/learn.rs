//! `bnsl learn`: learn a DAG from a score file or a data set.

use super::scoring_args::ScoringArgs;
use crate::dag_io::{render_dag, DagFormat};
use crate::fio::read_constraints;
use crate::ilp::{Formulation, IlpSettings, WarmStart};
use crate::pipeline::{is_data_file, learn, load_problem, InputKind, LearnOptions, Method};
use crate::report::Status;
use anyhow::{bail, Context};
use bnsl_formulations::{ScoreTable, StructuralConstraints};
use bnsl_solvers::heuristics::{AsobsOptions, LocalSearch};
use bnsl_solvers::ilp::IlpOptions;
use bnsl_solvers::interrupt;
use bnsl_solvers::milp::Limits;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `bnsl learn`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A score file (jkl, .pss) or a data set (.csv, .dat).
    pub input: PathBuf,
    /// How to read INPUT.
    #[arg(long, value_enum, default_value_t = InputKind::Auto)]
    pub input_kind: InputKind,
    /// Learning method.
    #[arg(long, value_enum, default_value_t = Method::Dp)]
    pub method: Method,
    #[command(flatten)]
    pub scoring: ScoringArgs,
    /// Structural constraints (required/forbidden arcs, parent limits), for every
    /// method; see README.
    #[arg(long, value_name = "FILE")]
    pub constraints: Option<PathBuf>,
    #[command(flatten)]
    pub run: RunLimitArgs,
    #[command(flatten)]
    pub ilp: IlpArgs,
    #[command(flatten)]
    pub search: OrderSearchArgs,
    /// Write the DAG to this file (format from the extension: .txt, .dot, .json).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Format of the DAG file, overriding the extension.
    #[arg(long, value_enum)]
    pub format: Option<DagFormat>,
    /// Print one JSON object (score, status, bound, gap, time_s, parents, …) to stdout.
    #[arg(long)]
    pub json: bool,
}

/// Limits every method shares.
#[derive(clap::Args, Debug, Clone)]
pub struct RunLimitArgs {
    /// Stop after this many seconds and report the best DAG (and, for ilp, the bound).
    /// For obs/asobs the default is 10 s, or none when --restarts is given.
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    pub time_limit: Option<f64>,
    /// Seed of the random components (the ilp back-end's, the orders of obs/asobs;
    /// default 1 for obs/asobs).
    #[arg(long)]
    pub seed: Option<u64>,
}

/// The seed of obs/asobs when `--seed` is not given.
const DEFAULT_ORDER_SEED: u64 = 1;

/// Options of the exact ILP (`--method ilp`).
#[derive(clap::Args, Debug)]
pub struct IlpArgs {
    /// MILP back-end (scip, highs, cbc; default: the first compiled in, in that order).
    #[arg(long, value_name = "NAME")]
    pub backend: Option<String>,
    /// Program to solve: family variables with cluster cuts, or the ordering formulation.
    #[arg(long, value_enum, default_value_t = Formulation::Family)]
    pub formulation: Formulation,
    /// Stop once (bound − score) / |score| ≤ G (the status stays `feasible` unless the
    /// gap is closed).
    #[arg(long, value_name = "G", allow_negative_numbers = true)]
    pub gap: Option<f64>,
    /// Threads the back-end may use (HiGHS, CBC; SCIP solves sequentially).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Separate cluster cuts with the heuristics only (no exact sub-IP).
    #[arg(long)]
    pub heuristic_separation_only: bool,
    /// CBC's cut loop: solve the MIP rounds without cluster separation at CBC's nodes
    /// (each round then runs to its end). Node cuts pay where the LP rounds leave many
    /// cycles; on alarm_10000 the plain rounds reach the better bound. See README.
    #[arg(long)]
    pub no_node_cuts: bool,
    /// Print the back-end's own log.
    #[arg(long)]
    pub solver_log: bool,
    /// Write progress (incumbent, bound, gap, cuts, nodes, rounds) as plain lines on
    /// stderr, each with the seconds elapsed: a line whenever the incumbent or the round
    /// count changes, else at most one per 10 s. For the log of a long run, where the
    /// terminal's progress line is not shown.
    #[arg(long)]
    pub log_progress: bool,
    /// A setting of the SCIP branch-and-cut engine, NAME=VALUE (repeatable; SCIP only): any SCIP
    /// parameter (e.g. separating/maxrounds=5), or one of the engine's own settings
    /// (bnsl/sub_ip_depth, bnsl/sub_ip_branching, bnsl/heuristic_depth, ...). See README.
    #[arg(long, value_name = "NAME=VALUE", value_parser = parse_name_value)]
    pub scip_param: Vec<(String, String)>,
    /// A HiGHS option, NAME=VALUE (repeatable; HiGHS only), e.g. presolve=off or
    /// mip_heuristic_effort=0.2: set on every solve of the program (not on the
    /// separation sub-IPs), typed and checked by HiGHS. Options bnsl sets from its own
    /// flags (time_limit, mip_rel_gap, threads, ...) and settings that would leave an
    /// answer unproven (objective_bound, solve_relaxation, solver=pdlp, ...) are refused.
    #[arg(long, value_name = "NAME=VALUE", value_parser = parse_name_value)]
    pub highs_param: Vec<(String, String)>,
    /// Start the back-end from a DAG: `asobs[:S]` runs ASOBS for S seconds (default 1,
    /// or no time limit when --restarts is given) first; a file name reads the DAG from
    /// that file (text, JSON, model string or BIF, as `bnsl verify --dag` reads). The
    /// JSON gains warm_start, warm_start_score and warm_start_time_s.
    #[arg(long, value_name = "asobs[:S]|FILE", value_parser = parse_warm_start)]
    pub warm_start: Option<WarmStartArg>,
}

/// What `--warm-start` names.
#[derive(Clone, Debug, PartialEq)]
pub enum WarmStartArg {
    /// ASOBS for this many seconds (`None`: none named).
    Asobs(Option<f64>),
    /// A DAG file.
    File(PathBuf),
}

/// Seconds of ASOBS when `--warm-start asobs` names none and `--restarts` is not given.
const DEFAULT_WARM_START_S: f64 = 1.0;

fn parse_warm_start(text: &str) -> Result<WarmStartArg, String> {
    let path = PathBuf::from(text);
    if path.is_file() {
        return Ok(WarmStartArg::File(path));
    }
    let (method, seconds) = match text.split_once(':') {
        Some((m, s)) => (m, Some(s)),
        None => (text, None),
    };
    if method != "asobs" {
        return Err(format!(
            "unknown warm-start heuristic `{method}` and no such DAG file `{text}` \
             (known heuristics: asobs)"
        ));
    }
    match seconds {
        None => Ok(WarmStartArg::Asobs(None)),
        Some(s) => match s.parse::<f64>() {
            Ok(v) if v.is_finite() && v > 0.0 => Ok(WarmStartArg::Asobs(Some(v))),
            _ => Err(format!("`{s}` is not a positive number of seconds")),
        },
    }
}

fn parse_name_value(text: &str) -> Result<(String, String), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}` is not NAME=VALUE"))?;
    let name = name.trim();
    if name.is_empty() {
        return Err(format!("`{text}` has no parameter name"));
    }
    Ok((name.to_string(), value.trim().to_string()))
}

impl IlpArgs {
    /// The ILP-only flags given on the command line (the formulation has a default and
    /// is not among them).
    fn given_flags(&self) -> Vec<&'static str> {
        let given = [
            ("--backend", self.backend.is_some()),
            ("--gap", self.gap.is_some()),
            ("--threads", self.threads.is_some()),
            (
                "--heuristic-separation-only",
                self.heuristic_separation_only,
            ),
            ("--no-node-cuts", self.no_node_cuts),
            ("--solver-log", self.solver_log),
            ("--log-progress", self.log_progress),
            ("--scip-param", !self.scip_param.is_empty()),
            ("--highs-param", !self.highs_param.is_empty()),
            ("--warm-start", self.warm_start.is_some()),
        ];
        given
            .into_iter()
            .filter_map(|(flag, set)| set.then_some(flag))
            .collect()
    }

    /// Checks that the ILP flags fit `method`: none without `--method ilp`, and SCIP's
    /// and HiGHS's parameters only with their back-ends.
    fn check_used_by(&self, method: Method) -> anyhow::Result<()> {
        let given = self.given_flags();
        if method != Method::Ilp && !given.is_empty() {
            let verb = if given.len() == 1 { "needs" } else { "need" };
            bail!("{} {verb} --method ilp", given.join(", "));
        }
        if let Some(backend) = self.backend.as_deref() {
            if backend != "scip" && !self.scip_param.is_empty() {
                bail!("--scip-param needs --backend scip (got --backend {backend})");
            }
            if backend != "highs" && !self.highs_param.is_empty() {
                bail!("--highs-param needs --backend highs (got --backend {backend})");
            }
        }
        Ok(())
    }

    /// The run's ILP settings; the ASOBS of `--warm-start asobs` takes `search`'s restart
    /// cap and local-search switch.
    fn settings(&self, run: &RunLimitArgs, search: &OrderSearchArgs) -> IlpSettings {
        IlpSettings {
            backend: self.backend.clone(),
            formulation: self.formulation,
            options: IlpOptions {
                limits: Limits {
                    time_limit: run.time_limit,
                    gap: self.gap,
                    threads: self.threads,
                    seed: run.seed,
                    verbose: self.solver_log,
                    improving_solutions: None,
                },
                heuristic_separation_only: self.heuristic_separation_only,
                no_node_cuts: self.no_node_cuts,
                ..IlpOptions::default()
            },
            scip_params: self.scip_param.clone(),
            highs_params: self.highs_param.clone(),
            log_progress: self.log_progress,
            warm_start: self.warm_start.as_ref().map(|arg| match arg {
                WarmStartArg::Asobs(seconds) => WarmStart::Asobs(AsobsOptions {
                    time_limit: match (seconds, search.restarts) {
                        (Some(s), _) => Some(Duration::from_secs_f64(*s)),
                        (None, Some(_)) => None,
                        (None, None) => Some(Duration::from_secs_f64(DEFAULT_WARM_START_S)),
                    },
                    max_restarts: search.restarts,
                    seed: run.seed.unwrap_or(DEFAULT_ORDER_SEED),
                    local_search: search.local_search(),
                    ..AsobsOptions::default()
                }),
                WarmStartArg::File(path) => WarmStart::Dag(path.clone()),
            }),
        }
    }
}

/// The structural constraints of the run: the constraint file, and for a score file the
/// `--max-parents` limit.
fn constraints(args: &Args, table: &ScoreTable) -> anyhow::Result<StructuralConstraints> {
    let limit = match is_data_file(&args.input, args.input_kind) {
        true => None,
        false => args.scoring.max_parents,
    };
    structural_constraints(args.constraints.as_deref(), limit, table)
}

/// The constraints of the file at `path` (if any) with the parent limit `max_parents`
/// (if any) added, for the variables of `table`.
pub(super) fn structural_constraints(
    path: Option<&std::path::Path>,
    max_parents: Option<usize>,
    table: &ScoreTable,
) -> anyhow::Result<StructuralConstraints> {
    let mut cons = match path {
        Some(path) => read_constraints(path, table.names())?,
        None => StructuralConstraints::default(),
    };
    if let Some(k) = max_parents {
        cons.max_parents = Some(cons.max_parents.map_or(k, |c| c.min(k)));
    }
    Ok(cons)
}

/// Options of the order-based heuristics (`--method obs|asobs`).
#[derive(clap::Args, Debug, Clone)]
pub struct OrderSearchArgs {
    /// Stop obs/asobs (or the ASOBS of `--warm-start asobs`) after this many random
    /// restarts (with no time limit the result is then the same for a given seed whatever
    /// the number of threads).
    #[arg(long, value_name = "N")]
    pub restarts: Option<u64>,
    /// The local search that improves each random order (obs/asobs, and the ASOBS of
    /// `--warm-start asobs`): `swap` (adjacent swaps, seed 001 §4, the default),
    /// `insertion` (one node moved to any position, a larger neighbourhood) or `none`.
    #[arg(
        long,
        value_name = "KIND",
        value_enum,
        conflicts_with = "no_local_search"
    )]
    pub local_search: Option<LocalSearchArg>,
    /// Skip the local search after each random order (the same as `--local-search none`).
    #[arg(long)]
    pub no_local_search: bool,
}

/// The values of `--local-search`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LocalSearchArg {
    /// Swaps of adjacent nodes (seed 001 §4).
    Swap,
    /// Moves of one node to any other position.
    Insertion,
    /// No local search.
    None,
}

impl OrderSearchArgs {
    /// The heuristic options, validated.
    pub fn options(&self, run: &RunLimitArgs) -> anyhow::Result<AsobsOptions> {
        let time_limit = match (run.time_limit, self.restarts) {
            (Some(s), _) if s.is_finite() && s > 0.0 => Some(Duration::from_secs_f64(s)),
            (Some(s), _) => bail!("--time-limit must be a positive number of seconds, got {s}"),
            (None, Some(_)) => None,
            (None, None) => AsobsOptions::default().time_limit,
        };
        self.check_restarts()?;
        Ok(AsobsOptions {
            time_limit,
            max_restarts: self.restarts,
            seed: run.seed.unwrap_or(DEFAULT_ORDER_SEED),
            local_search: self.local_search(),
            ..AsobsOptions::default()
        })
    }

    /// The local search asked for (swap unless told otherwise).
    fn local_search(&self) -> LocalSearch {
        match (self.local_search, self.no_local_search) {
            (Some(LocalSearchArg::None), _) | (None, true) => LocalSearch::None,
            (Some(LocalSearchArg::Insertion), _) => LocalSearch::Insertion,
            (Some(LocalSearchArg::Swap), _) | (None, false) => LocalSearch::Swap,
        }
    }

    fn check_restarts(&self) -> anyhow::Result<()> {
        if self.restarts == Some(0) {
            bail!("--restarts must be at least 1");
        }
        Ok(())
    }

    /// Checks that these options apply to a run of `method` with `warm_start`: they shape
    /// obs/asobs, and the ASOBS of `--warm-start asobs`.
    fn check_used_by(
        &self,
        method: Method,
        warm_start: Option<&WarmStartArg>,
    ) -> anyhow::Result<()> {
        let runs_asobs = match method {
            Method::Obs | Method::Asobs => true,
            Method::Ilp => matches!(warm_start, Some(WarmStartArg::Asobs(_))),
            Method::Dp => false,
        };
        let given = self.restarts.is_some() || self.no_local_search || self.local_search.is_some();
        if !runs_asobs && given {
            bail!("--restarts, --local-search and --no-local-search need --method obs|asobs or --warm-start asobs");
        }
        self.check_restarts()
    }
}

/// Runs `bnsl learn`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let setup = args.scoring.setup()?;
    let table = load_problem(&args.input, args.input_kind, &setup)?;
    let constraints = constraints(&args, &table)?;
    args.ilp.check_used_by(args.method)?;
    args.search
        .check_used_by(args.method, args.ilp.warm_start.as_ref())?;
    let options = LearnOptions {
        method: args.method,
        ilp: args.ilp.settings(&args.run, &args.search),
        heuristic: match args.method {
            Method::Obs | Method::Asobs => args.search.options(&args.run)?,
            Method::Dp | Method::Ilp => AsobsOptions::default(),
        },
        constraints,
    };
    if args.method != Method::Dp {
        // The ILP engines and the order searches stop at Ctrl+C and report what they
        // have; DP cannot, so there Ctrl+C keeps ending the process.
        interrupt::catch_ctrl_c();
    }
    let report = learn(&table, &options)?;
    if interrupt::requested() {
        match report.dag {
            Some(_) => eprintln!("interrupted (Ctrl+C): the best DAG found so far follows"),
            None => eprintln!("interrupted (Ctrl+C) before any DAG was found"),
        }
    }
    if let (Some(path), Some(dag)) = (&args.output, &report.dag) {
        let format = args.format.unwrap_or_else(|| DagFormat::from_path(path));
        std::fs::write(path, render_dag(dag, table.names(), format))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.json {
        println!("{}", report.to_json());
    } else {
        if args.output.is_none() {
            if let Some(dag) = &report.dag {
                print!(
                    "{}",
                    render_dag(dag, table.names(), args.format.unwrap_or(DagFormat::Txt))
                );
            }
        }
        println!("{}", report.summary());
    }
    // A CBC solve that did not stop at Ctrl+C is still running: end now that the
    // report is out.
    interrupt::exit_if_a_solve_was_abandoned(0);
    if report.status == Status::Infeasible {
        anyhow::bail!("no DAG can be built from these candidate parent sets (infeasible)");
    }
    Ok(())
}
