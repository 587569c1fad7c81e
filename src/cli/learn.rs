//! `bnsl learn`: learn a DAG from a score file or a data set.

use super::progress::TerminalObserver;
use super::scoring_args::ScoringArgs;
use super::{out, INTERRUPTED};
use anyhow::{bail, Context};
use bnsl::certificate::{certify_optimum, write_certificate};
use bnsl::dag_io::{render_dag, DagFormat};
use bnsl::fio::read_constraints;
use bnsl::fio::{write_jkl, NameStyle};
use bnsl::ilp::{engine_kind, Formulation, IlpSettings, KtreeWarmStart, WarmStart};
use bnsl::pb_proof::write_pb_proof;
use bnsl::pipeline::{
    default_exact_method, is_data_file, learn, load_problem, InputKind, LearnOptions, Method,
};
use bnsl::proof::write_proof;
use bnsl::report::{LearnReport, Status};
use bnsl_formulations::bounded_treewidth::TreewidthForm;
use bnsl_formulations::{ScoreTable, StructuralConstraints};
use bnsl_solvers::dp::DpOptions;
use bnsl_solvers::heuristics::{AsobsOptions, KtreeVersion, LocalSearch, DEFAULT_CLIMB_STEPS};
use bnsl_solvers::ilp::certification::{CertifyOptions, CertifyProgress};
use bnsl_solvers::ilp::IlpOptions;
use bnsl_solvers::interrupt;
use bnsl_solvers::maxsat::{HittingSetBackend, MaxSatAlgorithm, MaxSatOptions};
use bnsl_solvers::milp::{configured, BackendParam, Limits};
use bnsl_solvers::StopToken;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// Arguments of `bnsl learn`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// A score file (jkl, .pss) or a data set (.csv, .dat).
    pub input: PathBuf,
    /// How to read INPUT.
    #[arg(long, value_enum, default_value_t = InputKind::Auto)]
    pub input_kind: InputKind,
    /// Learning method [default: the proved optimum by the faster exact method: dp up to
    /// 20 variables, else ilp on the best back-end compiled in (SCIP's branch and cut
    /// where present); ilp when an ILP flag such as --backend is given].
    #[arg(long, value_enum)]
    pub method: Option<Method>,
    #[command(flatten)]
    pub scoring: ScoringArgs,
    /// Structural constraints (required/forbidden arcs, parent limits), for every
    /// method; see README.
    #[arg(long, value_name = "FILE")]
    pub constraints: Option<PathBuf>,
    /// Learn the best DAG whose moral graph has treewidth at most W (Nie et al. 2016):
    /// by default, branch and bound on the DP up to 20 variables (--method dp) and the
    /// bounded-treewidth MILP beyond (--method ilp); W = 0 gives the empty DAG. The
    /// answer's width is certified by a tree decomposition, which the JSON gives with
    /// treewidth_bound and treewidth.
    #[arg(long, value_name = "W", allow_negative_numbers = true, value_parser = super::parse_width)]
    pub treewidth: Option<usize>,
    #[command(flatten)]
    pub run: RunLimitArgs,
    #[command(flatten)]
    pub ilp: IlpArgs,
    #[command(flatten)]
    pub search: OrderSearchArgs,
    #[command(flatten)]
    pub collect: super::collect::CollectArgs,
    /// Write the DAG to this file (format from the extension: .txt, .dot, .json).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Format of the DAG file, overriding the extension.
    #[arg(long, value_enum)]
    pub format: Option<DagFormat>,
    /// Print one JSON object (score, status, bound, gap, time_s, parents, …) to stdout.
    #[arg(long)]
    pub json: bool,
    /// The search of --method maxsat: ihs (implicit hitting sets; the default) takes
    /// cores from the SAT solver and cheapest hitting sets from a MILP back-end
    /// (--backend; default microlp); oll (core-guided, stratified) raises a lower bound
    /// until it meets a model; lsu (linear SAT-UNSAT search) improves a model until no
    /// cheaper one exists.
    #[arg(long, value_enum, value_name = "ihs|oll|lsu")]
    pub maxsat_algorithm: Option<MaxSatAlgorithmArg>,
    /// Seed the hitting-set program of --method maxsat (ihs) with one row per node
    /// (exactly one parent set each), and before each MILP call add the cluster clauses
    /// and cores that cut off its LP relaxation (default: on; README, "MaxSAT").
    #[arg(long, value_enum, value_name = "on|off")]
    pub ihs_seeding: Option<SeedingArg>,
    /// For an optimal answer, write into DIR a proof of its optimality that `bnsl verify
    /// --proof DIR` checks: the formula "some network costs less" of the MaxSAT encoding
    /// and a refutation of it (within --time-limit, again; see --proof-format).
    #[arg(long, value_name = "DIR")]
    pub proof: Option<PathBuf>,
    /// The kind of --proof: `drat` (default: varisat's DRAT refutation of the CNF, which
    /// drat-trim also checks; small tables) or `veripb` (a cutting-planes refutation in
    /// VeriPB's format, made from a family-ILP certificate; needs HiGHS).
    #[arg(long, value_enum, value_name = "drat|veripb", requires = "proof")]
    pub proof_format: Option<ProofFormatArg>,
    /// For an optimal answer, write to FILE a certificate of its optimality that `bnsl
    /// verify --certificate FILE` checks in exact arithmetic with no solver: dual
    /// solutions of the family ILP's LP relaxation (and a branching tree where one does
    /// not close the gap), made by a certification pass on HiGHS within --time-limit,
    /// again. Learning from data, the score table is written beside it (FILE.jkl).
    #[arg(long, value_name = "FILE")]
    pub certificate: Option<PathBuf>,
}

/// The values of `--maxsat-algorithm`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MaxSatAlgorithmArg {
    /// Implicit hitting sets: cores by SAT, hitting sets by a MILP back-end.
    Ihs,
    /// Core-guided search with totalizers (OLL), stratified.
    Oll,
    /// Linear SAT-UNSAT search on an adder network of the cost.
    Lsu,
}

impl From<MaxSatAlgorithmArg> for MaxSatAlgorithm {
    fn from(arg: MaxSatAlgorithmArg) -> Self {
        match arg {
            MaxSatAlgorithmArg::Oll => MaxSatAlgorithm::Oll,
            MaxSatAlgorithmArg::Lsu => MaxSatAlgorithm::Lsu,
            MaxSatAlgorithmArg::Ihs => MaxSatAlgorithm::Ihs,
        }
    }
}

/// The values of `--proof-format`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ProofFormatArg {
    /// DRAT, from one SAT call.
    Drat,
    /// VeriPB 1.2 cutting planes, from a family-ILP certificate.
    Veripb,
}

/// The values of `--ihs-seeding`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SeedingArg {
    /// Seeded.
    On,
    /// Not seeded.
    Off,
}

/// Limits every method shares.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct RunLimitArgs {
    /// Stop after this many seconds and report the best DAG (and, for ilp, the bound).
    /// For obs/asobs the default is 10 s, or none when --restarts is given.
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = super::parse_seconds)]
    pub time_limit: Option<f64>,
    /// Seed of the random components (the ilp back-end's, the orders of obs/asobs;
    /// default 1 for obs/asobs).
    #[arg(long, allow_negative_numbers = true)]
    pub seed: Option<u64>,
}

/// The seed of obs/asobs when `--seed` is not given.
const DEFAULT_ORDER_SEED: u64 = 1;

/// Options of the exact ILP (`--method ilp`).
#[derive(clap::Args, Debug)]
pub(crate) struct IlpArgs {
    /// MILP back-end (scip, highs, cbc, microlp; default: the first compiled in, in that
    /// order). microlp, pure Rust and in every build, is for small programs only. With
    /// --method maxsat --maxsat-algorithm ihs: the back-end of the hitting sets
    /// (default microlp).
    #[arg(long, value_name = "NAME")]
    pub backend: Option<String>,
    /// Program to solve: family variables with cluster cuts, or the ordering formulation.
    #[arg(long, value_enum, default_value_t = Formulation::Family)]
    pub formulation: Formulation,
    /// Form of the bounded-treewidth MILP of --treewidth: tight (rows summed over the
    /// families, the default) or paper (formulation (6) of Nie et al. 2016 as written).
    #[arg(long, value_enum, value_name = "FORM")]
    pub treewidth_form: Option<TreewidthFormArg>,
    /// Solve the bounded-treewidth MILP of --treewidth without first adding the cluster
    /// cuts of LP rounds on the family program (which tighten its acyclicity rows).
    #[arg(long)]
    pub no_root_cuts: bool,
    /// Solve the bounded-treewidth MILP of --treewidth without first solving the
    /// problem unbounded (whose optimum, when its width fits, is the answer).
    #[arg(long)]
    pub no_unbounded_first: bool,
    /// On SCIP, solve --treewidth by SCIP's branch and cut on the family program
    /// (acyclicity by cluster cuts) with the treewidth rows as side constraints, instead
    /// of the static MILP.
    #[arg(long)]
    pub treewidth_branch_and_cut: bool,
    /// Stop once (bound − score) / |score| ≤ G (the status stays `feasible` unless the
    /// gap is closed).
    #[arg(long, value_name = "G", allow_negative_numbers = true)]
    pub gap: Option<f64>,
    /// Threads the back-end may use (HiGHS, CBC; SCIP solves sequentially); at most 256.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub threads: Option<usize>,
    /// Separate cluster cuts with the heuristics only (no exact sub-IP).
    #[arg(long)]
    pub heuristic_separation_only: bool,
    /// CBC's cut loop: solve the MIP rounds without cluster separation at CBC's nodes
    /// (each round then runs to its end). Node cuts pay where the LP rounds leave many
    /// cycles; on alarm_10000 the plain rounds reach the better bound. See README.
    #[arg(long)]
    pub no_node_cuts: bool,
    /// Print the back-end's own log, on standard error (standard output keeps bnsl's
    /// result, e.g. the `--json` object).
    #[arg(long)]
    pub solver_log: bool,
    /// Write progress (incumbent, bound, gap, cuts, nodes, rounds) as plain lines on
    /// stderr, each with the seconds elapsed: a line whenever the incumbent or the round
    /// count changes, else at most one per 10 s. For the log of a long run, where the
    /// terminal's progress line is not shown.
    #[arg(long)]
    pub log_progress: bool,
    /// An option of the back-end that runs, NAME=VALUE (repeatable), parsed and checked
    /// by that back-end: for SCIP any SCIP parameter (e.g. separating/maxrounds=5) or one
    /// of the branch-and-cut engine's own settings (bnsl/sub_ip_depth, ...); for HiGHS any
    /// HiGHS option (e.g. presolve=off), except those bnsl sets from its own flags and
    /// settings that would leave an answer unproven; CBC takes none. See README.
    #[arg(long, value_name = "NAME=VALUE", value_parser = parse_name_value)]
    pub backend_param: Vec<(String, String)>,
    /// A SCIP option, NAME=VALUE (repeatable): --backend-param for a run that must use
    /// SCIP (an error with another back-end).
    #[arg(long, value_name = "NAME=VALUE", value_parser = parse_name_value)]
    pub scip_param: Vec<(String, String)>,
    /// A HiGHS option, NAME=VALUE (repeatable): --backend-param for a run that must use
    /// HiGHS (an error with another back-end).
    #[arg(long, value_name = "NAME=VALUE", value_parser = parse_name_value)]
    pub highs_param: Vec<(String, String)>,
    /// Start the back-end from a DAG: `asobs[:S]` runs ASOBS for S seconds (default 1,
    /// or no time limit when --restarts is given) first; `ktree[:S]` runs k-tree
    /// sampling for the --treewidth bound likewise; a file name reads the DAG from that
    /// file (text, JSON, model string or BIF, as `bnsl verify --dag` reads). The JSON
    /// gains warm_start, warm_start_score and warm_start_time_s.
    #[arg(long, value_name = "asobs[:S]|ktree[:S]|FILE", value_parser = parse_warm_start)]
    pub warm_start: Option<WarmStartArg>,
}

/// The forms of the bounded-treewidth MILP (`--treewidth-form`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum TreewidthFormArg {
    /// Rows summed over the families: same solutions, tighter relaxation.
    Tight,
    /// Formulation (6) as the paper writes it.
    Paper,
}

/// What `--warm-start` names.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum WarmStartArg {
    /// ASOBS for this many seconds (`None`: none named).
    Asobs(Option<f64>),
    /// k-tree sampling for this many seconds (`None`: none named).
    Ktree(Option<f64>),
    /// A DAG file.
    File(PathBuf),
}

/// Checks that a start given `seconds` by the flag `given` (as the user wrote it) fits in
/// `--time-limit`, which covers the whole run, the start included.
fn check_start_fits(given: &str, seconds: f64, run: &RunLimitArgs) -> anyhow::Result<()> {
    match run.time_limit {
        Some(t) if seconds >= t => bail!(
            "{given} does not fit in --time-limit {t}: the time limit covers the whole run, \
             the start included; give the start less time"
        ),
        _ => Ok(()),
    }
}

/// Seconds of ASOBS when `--warm-start asobs` names none and `--restarts` is not given.
const DEFAULT_WARM_START_S: f64 = 1.0;

/// Seconds of ASOBS for `--warm-start asobs` without its own: [`DEFAULT_WARM_START_S`],
/// or half the time limit when that is shorter (the limit covers the warm start).
fn default_warm_start_s(run: &RunLimitArgs) -> f64 {
    match run.time_limit {
        Some(t) => DEFAULT_WARM_START_S.min(t / 2.0),
        None => DEFAULT_WARM_START_S,
    }
}

fn parse_warm_start(text: &str) -> Result<WarmStartArg, String> {
    let path = PathBuf::from(text);
    if path.is_file() {
        return Ok(WarmStartArg::File(path));
    }
    let (method, seconds) = match text.split_once(':') {
        Some((m, s)) => (m, Some(s)),
        None => (text, None),
    };
    let seconds = match seconds {
        None => None,
        Some(s) => Some(super::parse_seconds(s)?),
    };
    match method {
        "asobs" => Ok(WarmStartArg::Asobs(seconds)),
        "ktree" => Ok(WarmStartArg::Ktree(seconds)),
        _ => Err(format!(
            "unknown warm-start heuristic `{method}` and no such DAG file `{text}` \
             (known heuristics: asobs, ktree)"
        )),
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
    pub(super) fn given_flags(&self) -> Vec<&'static str> {
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
            ("--backend-param", !self.backend_param.is_empty()),
            ("--scip-param", !self.scip_param.is_empty()),
            ("--highs-param", !self.highs_param.is_empty()),
            ("--warm-start", self.warm_start.is_some()),
            ("--treewidth-form", self.treewidth_form.is_some()),
            ("--no-root-cuts", self.no_root_cuts),
            ("--no-unbounded-first", self.no_unbounded_first),
            ("--treewidth-branch-and-cut", self.treewidth_branch_and_cut),
        ];
        given
            .into_iter()
            .filter_map(|(flag, set)| set.then_some(flag))
            .collect()
    }

    /// Checks that the ILP flags fit `method`: none without `--method ilp`, except
    /// `--backend` for the hitting sets of `--maxsat-algorithm ihs` (`hitting_sets`).
    pub(super) fn check_used_by(&self, method: Method, hitting_sets: bool) -> anyhow::Result<()> {
        let mut given = self.given_flags();
        if hitting_sets {
            given.retain(|&flag| flag != "--backend");
        }
        if method != Method::Ilp && !given.is_empty() {
            let verb = if given.len() == 1 { "needs" } else { "need" };
            bail!("{} {verb} --method ilp", given.join(", "));
        }
        Ok(())
    }

    /// The back-end options in the order given by kind: `--backend-param` for whichever
    /// back-end runs, then those the flag's name ties to one back-end (which the
    /// registry checks against the one that runs).
    fn backend_params(&self) -> Vec<BackendParam> {
        let tagged = [
            (None, &self.backend_param),
            (Some("scip"), &self.scip_param),
            (Some("highs"), &self.highs_param),
        ];
        tagged
            .into_iter()
            .flat_map(|(intended, pairs)| {
                pairs.iter().map(move |(name, value)| BackendParam {
                    intended: intended.map(str::to_string),
                    name: name.clone(),
                    value: value.clone(),
                })
            })
            .collect()
    }

    /// Checks that `--warm-start asobs:S` fits in `--time-limit`, which covers the whole
    /// run, the warm start included.
    fn check_warm_start_fits(&self, run: &RunLimitArgs) -> anyhow::Result<()> {
        let given = match &self.warm_start {
            Some(WarmStartArg::Asobs(Some(s))) => Some(("asobs", *s)),
            Some(WarmStartArg::Ktree(Some(s))) => Some(("ktree", *s)),
            _ => None,
        };
        match given {
            Some((name, s)) => check_start_fits(&format!("--warm-start {name}:{s}"), s, run),
            None => Ok(()),
        }
    }

    /// The run's ILP settings; the ASOBS of `--warm-start asobs` takes `search`'s restart
    /// cap and local-search switch.
    pub(super) fn settings(&self, run: &RunLimitArgs, search: &OrderSearchArgs) -> IlpSettings {
        IlpSettings {
            backend: self.backend.clone(),
            formulation: self.formulation,
            treewidth_form: match self.treewidth_form {
                Some(TreewidthFormArg::Paper) => TreewidthForm::Paper,
                Some(TreewidthFormArg::Tight) | None => TreewidthForm::Tight,
            },
            treewidth_no_root_cuts: self.no_root_cuts,
            treewidth_no_unbounded_first: self.no_unbounded_first,
            treewidth_branch_and_cut: self.treewidth_branch_and_cut,
            options: IlpOptions {
                limits: Limits {
                    time_limit: run.time_limit,
                    gap: self.gap,
                    threads: self.threads,
                    seed: run.seed,
                    verbose: self.solver_log,
                    ..Limits::default()
                },
                heuristic_separation_only: self.heuristic_separation_only,
                no_node_cuts: self.no_node_cuts,
                ..IlpOptions::default()
            },
            backend_params: self.backend_params(),
            warm_start: self.warm_start.as_ref().map(|arg| {
                let heuristic = |seconds: &Option<f64>| AsobsOptions {
                    time_limit: match (seconds, search.restarts) {
                        (Some(s), _) => Some(Duration::from_secs_f64(*s)),
                        (None, Some(_)) => None,
                        (None, None) => Some(Duration::from_secs_f64(default_warm_start_s(run))),
                    },
                    max_restarts: search.restarts,
                    seed: run.seed.unwrap_or(DEFAULT_ORDER_SEED),
                    local_search: search.local_search(),
                    ..AsobsOptions::default()
                };
                match arg {
                    WarmStartArg::Asobs(seconds) => WarmStart::Asobs(heuristic(seconds)),
                    WarmStartArg::Ktree(seconds) => {
                        let whole = heuristic(seconds);
                        WarmStart::Ktree(KtreeWarmStart {
                            start: search.ktree_start_of(&whole),
                            heuristic: whole,
                            version: search.ktree_version.unwrap_or_default(),
                            climb: search.ktree_climb.unwrap_or(DEFAULT_CLIMB_STEPS),
                        })
                    }
                    WarmStartArg::File(path) => WarmStart::Dag(path.clone()),
                }
            }),
        }
    }
}

/// The structural constraints of the run: the constraint file, and for a score file the
/// `--max-parents` limit.
pub(super) fn constraints(
    args: &Args,
    table: &ScoreTable,
) -> anyhow::Result<StructuralConstraints> {
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
    let cons = match path {
        Some(path) => read_constraints(path, table.names())?,
        None => StructuralConstraints::default(),
    };
    Ok(cons.with_parent_limit(max_parents))
}

/// Options of the order-based heuristics (`--method obs|asobs`).
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct OrderSearchArgs {
    /// Stop obs/asobs (or the ASOBS of `--warm-start asobs`) after this many random
    /// restarts (with no time limit the result is then the same for a given seed whatever
    /// the number of threads).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub restarts: Option<u64>,
    /// The local search that improves each random order (obs/asobs, and the ASOBS of
    /// `--warm-start asobs`): `insertion` (one node moved to any position, the default: it
    /// finds better networks than the swaps, see README), `swap` (adjacent swaps,
    /// Scanagatta et al. 2015) or `none`.
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
    /// What k-tree sampling (`--method ktree`, `--warm-start ktree`) does in each sampled
    /// k-tree (Nie et al. 2016, Algorithm 1): `2` (the default) orients it at random and
    /// gives each node its best parents within that orientation, fast; `1` finds the
    /// best DAG inside it exactly, at a cost of (k+1)!·3^k per node (widths up to 6).
    #[arg(long, value_name = "1|2", value_parser = parse_ktree_version)]
    pub ktree_version: Option<KtreeVersion>,
    /// Steps of each k-tree restart's climb: a step replaces one symbol of the k-tree's
    /// code, and the new k-tree is kept when its network scores at least as well; then
    /// the network is polished outside its k-tree within the width (default 50000; 0
    /// samples only and does not polish: with --ktree-start none, the sampling of Nie et
    /// al. 2016).
    #[arg(long, value_name = "STEPS")]
    pub ktree_climb: Option<u64>,
    /// Where the k-tree restarts start (`--method ktree`): `asobs[:S]` (the default) runs
    /// ASOBS for S seconds (default a tenth of the time limit; with --restarts and no
    /// time limit, that many ASOBS restarts) and climbs from k-trees built from its
    /// network; `none` samples every k-tree, as Nie et al. 2016 do. The time limit covers
    /// the ASOBS run.
    #[arg(long, value_name = "asobs[:S]|none", value_parser = parse_ktree_start)]
    pub ktree_start: Option<KtreeStartArg>,
}

/// What `--ktree-start` names.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum KtreeStartArg {
    /// ASOBS for this many seconds (`None`: none named).
    Asobs(Option<f64>),
    /// A sampled k-tree, as every other restart.
    Sampled,
}

/// Parses `--ktree-start`.
fn parse_ktree_start(text: &str) -> Result<KtreeStartArg, String> {
    match text.split_once(':') {
        None if text == "none" => Ok(KtreeStartArg::Sampled),
        None if text == "asobs" => Ok(KtreeStartArg::Asobs(None)),
        Some(("asobs", seconds)) => Ok(KtreeStartArg::Asobs(Some(super::parse_seconds(seconds)?))),
        _ => Err(format!(
            "unknown k-tree start `{text}` (known: asobs, asobs:SECONDS, none)"
        )),
    }
}

/// The share of the time limit the ASOBS of `--ktree-start asobs` takes when not told.
const KTREE_START_SHARE: f64 = 0.1;

/// Parses `--ktree-version`.
fn parse_ktree_version(s: &str) -> Result<KtreeVersion, String> {
    match s {
        "1" => Ok(KtreeVersion::One),
        "2" => Ok(KtreeVersion::Two),
        _ => Err(format!(
            "`{s}` is not a version of k-tree sampling: give 1 or 2"
        )),
    }
}

/// The values of `--local-search`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LocalSearchArg {
    /// Swaps of adjacent nodes (Scanagatta et al. 2015).
    Swap,
    /// Moves of one node to any other position.
    Insertion,
    /// No local search.
    None,
}

impl OrderSearchArgs {
    /// The heuristic options, validated.
    pub(crate) fn options(&self, run: &RunLimitArgs) -> anyhow::Result<AsobsOptions> {
        let time_limit = match (run.time_limit, self.restarts) {
            (Some(s), _) => Some(Duration::from_secs_f64(s)),
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

    /// The ASOBS run of `--ktree-start asobs` for `--method ktree`, checked to fit in
    /// the time limit.
    pub(crate) fn ktree_start(&self, run: &RunLimitArgs) -> anyhow::Result<Option<AsobsOptions>> {
        if let Some(KtreeStartArg::Asobs(Some(s))) = self.ktree_start {
            check_start_fits(&format!("--ktree-start asobs:{s}"), s, run)?;
        }
        Ok(self.ktree_start_of(&self.options(run)?))
    }

    /// The ASOBS run of `--ktree-start asobs` that starts a k-tree search run with
    /// `search`'s time limit and restarts: the seconds given, else a tenth of the
    /// search's time, else (no time limit) its restarts. `None` for `--ktree-start none`.
    fn ktree_start_of(&self, search: &AsobsOptions) -> Option<AsobsOptions> {
        let KtreeStartArg::Asobs(seconds) = self.ktree_start.unwrap_or(KtreeStartArg::Asobs(None))
        else {
            return None;
        };
        let time_limit = match seconds {
            Some(s) => Some(Duration::from_secs_f64(s)),
            None => search.time_limit.map(|t| t.mul_f64(KTREE_START_SHARE)),
        };
        Some(AsobsOptions {
            time_limit,
            max_restarts: search.max_restarts.filter(|_| time_limit.is_none()),
            ..search.clone()
        })
    }

    /// Checks that the ASOBS of `--ktree-start asobs:S` fits in the k-tree search of
    /// `--warm-start ktree[:T]`: T seconds, or the default warm start's when no
    /// `--restarts` bound it instead.
    pub(super) fn check_ktree_start_fits(
        &self,
        warm_start: Option<&WarmStartArg>,
        run: &RunLimitArgs,
    ) -> anyhow::Result<()> {
        let (Some(WarmStartArg::Ktree(seconds)), Some(KtreeStartArg::Asobs(Some(s)))) =
            (warm_start, self.ktree_start)
        else {
            return Ok(());
        };
        let whole = match (seconds, self.restarts) {
            (Some(t), _) => *t,
            (None, Some(_)) => return Ok(()),
            (None, None) => default_warm_start_s(run),
        };
        if s >= whole {
            bail!(
                "--ktree-start asobs:{s} does not fit in the {whole} s of --warm-start ktree; \
                 give the start less time"
            );
        }
        Ok(())
    }

    /// The local search asked for (insertion unless told otherwise).
    fn local_search(&self) -> LocalSearch {
        match (self.local_search, self.no_local_search) {
            (Some(LocalSearchArg::None), _) | (None, true) => LocalSearch::None,
            (Some(LocalSearchArg::Insertion), _) | (None, false) => LocalSearch::Insertion,
            (Some(LocalSearchArg::Swap), _) => LocalSearch::Swap,
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
    pub(super) fn check_used_by(
        &self,
        method: Method,
        warm_start: Option<&WarmStartArg>,
    ) -> anyhow::Result<()> {
        let runs_asobs = match method {
            Method::Obs | Method::Asobs => true,
            Method::Ilp => matches!(warm_start, Some(WarmStartArg::Asobs(_))),
            Method::Dp | Method::Ktree | Method::Maxsat => false,
        };
        let local = self.no_local_search || self.local_search.is_some();
        let ktree_start = matches!(warm_start, Some(WarmStartArg::Ktree(_)));
        if (method == Method::Ktree || ktree_start) && local {
            bail!("--local-search and --no-local-search shape obs/asobs: ktree has none");
        }
        if self.ktree_version.is_some() && method != Method::Ktree && !ktree_start {
            bail!("--ktree-version needs --method ktree or --warm-start ktree");
        }
        if self.ktree_climb.is_some() && method != Method::Ktree && !ktree_start {
            bail!("--ktree-climb needs --method ktree or --warm-start ktree");
        }
        if self.ktree_start.is_some() && method != Method::Ktree && !ktree_start {
            bail!("--ktree-start needs --method ktree or --warm-start ktree");
        }
        let given = self.restarts.is_some() || local;
        if !runs_asobs && method != Method::Ktree && !ktree_start && given {
            bail!("--restarts, --local-search and --no-local-search need --method obs|asobs or --warm-start asobs");
        }
        self.check_restarts()
    }
}

/// The method of the run: the one named; else the ILP when an ILP flag is given; else
/// the library's default exact method for `table`, said on stderr with the engine that
/// runs it.
fn resolve_method(args: &Args, table: &ScoreTable) -> anyhow::Result<Method> {
    if let Some(method) = args.method {
        return Ok(method);
    }
    if !args.ilp.given_flags().is_empty() {
        return Ok(Method::Ilp);
    }
    if let Some(width) = args.treewidth.filter(|&w| w + 1 < table.n()) {
        if default_exact_method(table) == Method::Dp {
            eprintln!(
                "bnsl: no --method given: proving the best DAG of treewidth at most {width} of \
                 {} variables by branch and bound on dynamic programming",
                table.n()
            );
            return Ok(Method::Dp);
        }
        let backend = configured(args.ilp.backend.as_deref(), &[])?;
        eprintln!(
            "bnsl: no --method given: proving the best DAG of treewidth at most {width} by the \
             bounded-treewidth MILP on {}",
            backend.name()
        );
        return Ok(Method::Ilp);
    }
    let method = default_exact_method(table);
    let engine = match method {
        Method::Ilp => {
            let backend = configured(args.ilp.backend.as_deref(), &[])?;
            let kind = engine_kind(backend.as_ref(), Formulation::Family).replace('_', " ");
            format!("the family ILP on {} ({kind})", backend.name())
        }
        _ => "dynamic programming".to_string(),
    };
    eprintln!(
        "bnsl: no --method given: proving the optimum of {} variables by {engine}",
        table.n()
    );
    Ok(method)
}

/// What to do when an ILP run stopped at its limit without a DAG: start it from one.
/// A back-end that ended its search well before the time limit (CBC counts its time
/// itself and leaves its root early) is named with the time it took.
fn no_dag_note(report: &LearnReport, options: &LearnOptions, limit: Option<f64>) -> Option<String> {
    if options.method != Method::Ilp || report.dag.is_some() || report.status != Status::Unknown {
        return None;
    }
    let backend = report.extra.get("backend").and_then(|b| b.as_str());
    let early = match limit {
        Some(limit) if report.time_s < 0.9 * limit => format!(
            " ({} ended its search after {:.1} s of the {limit} s limit, by its own time \
             accounting)",
            backend.unwrap_or("the back-end"),
            report.time_s
        ),
        _ => String::new(),
    };
    let start = match options.ilp.warm_start {
        Some(_) => "",
        None => {
            "; --warm-start asobs starts the solve from a heuristic DAG, so a run \
                 stopped early still reports one"
        }
    };
    Some(format!(
        "note: no DAG was found within the limit{early}{start}; a longer --time-limit or \
         another --backend may find one"
    ))
}

/// The DAG of an optimal answer, which `flag` (a proof or certificate) needs.
fn optimal_dag<'r>(
    report: &'r LearnReport,
    flag: &str,
) -> anyhow::Result<&'r bnsl_formulations::Dag> {
    match (report.status, &report.dag) {
        (Status::Optimal, Some(dag)) => Ok(dag),
        _ => bail!(
            "{flag} needs an optimal answer, and this run ended {}",
            report.status.as_str()
        ),
    }
}

/// Writes the proof of `report`'s optimality into `dir` (see [`bnsl::proof`]) and notes
/// it in the report (`proof`).
fn prove(
    table: &ScoreTable,
    report: &mut LearnReport,
    dir: &std::path::Path,
    run: &RunLimitArgs,
    stop: &StopToken,
) -> anyhow::Result<()> {
    let dag = optimal_dag(report, "--proof")?;
    eprintln!(
        "bnsl: writing the proof of optimality into {}",
        dir.display()
    );
    let limit = run.time_limit.map(Duration::from_secs_f64);
    let written = write_proof(table, dag, dir, limit, stop)?;
    eprintln!(
        "bnsl: proof written: {} clauses over {} variables refuted in {:.2} s; check it with \
         bnsl verify --scores SCORES --dag DAG --proof {}",
        written.clauses,
        written.num_vars,
        written.time_s,
        dir.display()
    );
    report.extra.insert(
        "proof".into(),
        serde_json::json!({
            "dir": dir.display().to_string(),
            "cost": written.cost,
            "clauses": written.clauses,
            "time_s": written.time_s,
        }),
    );
    Ok(())
}

/// The score file a certificate is about: the input when it is one, else the table
/// written beside the certificate (`FILE.jkl`).
fn certified_scores(
    args: &Args,
    table: &ScoreTable,
    certificate: &std::path::Path,
) -> anyhow::Result<PathBuf> {
    if !is_data_file(&args.input, args.input_kind) {
        return Ok(args.input.clone());
    }
    let mut name = certificate.as_os_str().to_owned();
    name.push(".jkl");
    let path = PathBuf::from(name);
    let mut file = std::io::BufWriter::new(
        std::fs::File::create(&path).with_context(|| format!("cannot write {}", path.display()))?,
    );
    write_jkl(table, &mut file, NameStyle::Names)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path)
}

/// Runs the certification pass (see [`bnsl::certificate`]) with a progress line every 5 s.
fn certification_pass(
    table: &ScoreTable,
    dag: &bnsl_formulations::Dag,
    run: &RunLimitArgs,
    stop: &StopToken,
) -> anyhow::Result<bnsl_solvers::ilp::certification::Certified> {
    eprintln!("bnsl: certification pass (LP duals and cluster cuts on HiGHS)");
    let options = CertifyOptions {
        time_limit: run.time_limit.map(Duration::from_secs_f64),
        stop: stop.clone(),
    };
    let last = std::cell::Cell::new(std::time::Instant::now());
    let progress = |p: &CertifyProgress| {
        if last.get().elapsed().as_secs_f64() >= 5.0 {
            last.set(std::time::Instant::now());
            let fresh = match p.fresh_lps {
                0 => String::new(),
                k => format!(", {k} LPs built afresh after a failed solve"),
            };
            eprintln!(
                "  {} leaves, {} sides open, {} LPs, {} clusters{fresh}",
                p.leaves, p.open, p.lp_solves, p.clusters
            );
        }
    };
    Ok(certify_optimum(table, dag, &options, &progress)?)
}

/// Writes a cutting-planes proof of `report`'s optimality into `dir` (see
/// [`bnsl::pb_proof`]), from a certificate made for it, and notes it in the report.
fn prove_by_cutting_planes(
    table: &ScoreTable,
    report: &mut LearnReport,
    dir: &std::path::Path,
    run: &RunLimitArgs,
    stop: &StopToken,
) -> anyhow::Result<()> {
    let dag = optimal_dag(report, "--proof")?;
    let certified = certification_pass(table, dag, run, stop)?;
    let written = write_pb_proof(table, &certified.certificate, dir)?;
    eprintln!(
        "bnsl: proof written to {}: {} constraints, {} steps, from a certificate of {} LPs ({:.2} s); \
         check it with bnsl verify --scores SCORES --dag DAG --proof {}",
        dir.display(),
        written.constraints,
        written.steps,
        certified.lp_solves,
        certified.time_s,
        dir.display()
    );
    report.extra.insert(
        "proof".into(),
        serde_json::json!({
            "dir": dir.display().to_string(),
            "format": "veripb",
            "cost": written.cost,
            "bound": written.bound.to_string(),
            "constraints": written.constraints,
            "steps": written.steps,
            "leaves": written.leaves,
            "time_s": certified.time_s,
        }),
    );
    Ok(())
}

/// Writes the certificate of `report`'s optimality to `path` (see
/// [`bnsl::certificate`]) and notes it in the report (`certificate`).
fn write_certificate_of(
    table: &ScoreTable,
    report: &mut LearnReport,
    scores: &std::path::Path,
    path: &std::path::Path,
    run: &RunLimitArgs,
    stop: &StopToken,
) -> anyhow::Result<()> {
    let dag = optimal_dag(report, "--certificate")?;
    let certified = certification_pass(table, dag, run, stop)?;
    let check = certified
        .certificate
        .check(table)
        .context("the certificate just made fails its own check (a bug: please report it)")?;
    write_certificate(&certified.certificate, table, scores, path)?;
    eprintln!(
        "bnsl: certificate written to {}: {} leaves, {} branches, {} LPs ({} built afresh after a failed solve), {:.2} s; bound − score = {:.2e}; check it with bnsl verify --scores {} --certificate {}",
        path.display(),
        check.leaves,
        check.branches,
        certified.lp_solves,
        certified.fresh_lps,
        certified.time_s,
        check.gap(),
        scores.display(),
        path.display()
    );
    report.extra.insert(
        "certificate".into(),
        serde_json::json!({
            "file": path.display().to_string(),
            "scores": scores.display().to_string(),
            "leaves": check.leaves,
            "branches": check.branches,
            "lp_solves": certified.lp_solves,
            "fresh_lps": certified.fresh_lps,
            "clusters": certified.clusters,
            "bound": check.bound.to_string(),
            "time_s": certified.time_s,
        }),
    );
    Ok(())
}

/// Runs `bnsl learn`: exit code 0, or [`INTERRUPTED`] when Ctrl+C stopped it before it
/// proved its answer.
pub(super) fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Always: even with their logs off, the native libraries print a few lines of their
    // own (Clp's "N slacks added" in CBC's rounds).
    super::native_stdout::send_native_logs_to_stderr()
        .context("could not send the native libraries' output to standard error")?;
    if args.collect.collect {
        return super::collect::run(args);
    }
    if !is_data_file(&args.input, args.input_kind) {
        args.scoring.check_score_file(&args.input)?;
    }
    let setup = args.scoring.setup()?;
    let observer = TerminalObserver::new(args.ilp.log_progress);
    let table = load_problem(&args.input, args.input_kind, &setup, &observer)?;
    let constraints = constraints(&args, &table)?;
    if args.treewidth.is_none() && (args.ilp.treewidth_form.is_some() || args.ilp.no_root_cuts) {
        bail!(
            "--treewidth-form and --no-root-cuts shape the MILP of --treewidth W: give the bound"
        );
    }
    let method = resolve_method(&args, &table)?;
    let hitting_sets = args.maxsat_algorithm == Some(MaxSatAlgorithmArg::Ihs);
    args.ilp.check_used_by(method, hitting_sets)?;
    args.ilp.check_warm_start_fits(&args.run)?;
    args.search
        .check_used_by(method, args.ilp.warm_start.as_ref())?;
    args.search
        .check_ktree_start_fits(args.ilp.warm_start.as_ref(), &args.run)?;
    if args.maxsat_algorithm.is_some() && method != Method::Maxsat {
        bail!("--maxsat-algorithm needs --method maxsat");
    }
    if args.ihs_seeding.is_some()
        && (method != Method::Maxsat
            || args
                .maxsat_algorithm
                .is_some_and(|a| a != MaxSatAlgorithmArg::Ihs))
    {
        bail!("--ihs-seeding needs --method maxsat with the ihs algorithm");
    }
    for (given, flag) in [
        (args.proof.is_some(), "--proof"),
        (args.certificate.is_some(), "--certificate"),
    ] {
        if given && (args.constraints.is_some() || args.treewidth.is_some()) {
            bail!("{flag} shows optimality over every network of the score file: it takes neither --constraints nor --treewidth");
        }
    }
    let options = LearnOptions {
        method,
        ilp: args.ilp.settings(&args.run, &args.search),
        heuristic: match method {
            Method::Obs | Method::Asobs | Method::Ktree => args.search.options(&args.run)?,
            Method::Dp | Method::Ilp | Method::Maxsat => AsobsOptions::default(),
        },
        dp: match method {
            Method::Dp => DpOptions {
                time_limit: args.run.time_limit.map(Duration::from_secs_f64),
                ..DpOptions::default()
            },
            _ => DpOptions::default(),
        },
        constraints,
        treewidth: args.treewidth,
        ktree_version: args.search.ktree_version.unwrap_or_default(),
        ktree_climb: args.search.ktree_climb.unwrap_or(DEFAULT_CLIMB_STEPS),
        ktree_start: match method {
            Method::Ktree => args.search.ktree_start(&args.run)?,
            _ => None,
        },
        maxsat: MaxSatOptions {
            algorithm: args.maxsat_algorithm.map(Into::into).unwrap_or_default(),
            time_limit: args.run.time_limit.map(Duration::from_secs_f64),
            stop: StopToken::new(),
            hitting_sets: match (&args.ilp.backend, hitting_sets) {
                (Some(name), true) => {
                    Some(HittingSetBackend(Arc::from(configured(Some(name), &[])?)))
                }
                _ => None,
            },
        },
        ihs_seeding: args.ihs_seeding.is_none_or(|s| s == SeedingArg::On),
        stop: StopToken::new(),
    };
    // Every method stops at Ctrl+C: the ILP engines and the order searches report what
    // they have, DP (which has no answer before its end) reports that it has none.
    interrupt::catch_ctrl_c(&options.stop);
    let mut report = learn(&table, &options, &observer)?;
    if let Some(dir) = &args.proof {
        match args.proof_format.unwrap_or(ProofFormatArg::Drat) {
            ProofFormatArg::Drat => prove(&table, &mut report, dir, &args.run, &options.stop)?,
            ProofFormatArg::Veripb => {
                prove_by_cutting_planes(&table, &mut report, dir, &args.run, &options.stop)?
            }
        }
    }
    if let Some(path) = &args.certificate {
        let scores = certified_scores(&args, &table, path)?;
        write_certificate_of(&table, &mut report, &scores, path, &args.run, &options.stop)?;
    }
    if let Some(why) = report.extra.get("stopped").and_then(|w| w.as_str()) {
        eprintln!("{why}");
    }
    if options.stop.is_stopped() {
        match report.dag {
            Some(_) => eprintln!("interrupted (Ctrl+C): the best DAG found so far follows"),
            None => eprintln!("interrupted (Ctrl+C) before any DAG was found"),
        }
    } else if let Some(note) = no_dag_note(&report, &options, args.run.time_limit) {
        eprintln!("{note}");
    }
    if let (Some(path), Some(dag)) = (&args.output, &report.dag) {
        let format = args.format.unwrap_or_else(|| DagFormat::from_path(path));
        std::fs::write(path, render_dag(dag, table.names(), format))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.json {
        out(format_args!("{}\n", report.to_json()))?;
    } else {
        if args.output.is_none() {
            if let Some(dag) = &report.dag {
                let format = args.format.unwrap_or(DagFormat::Txt);
                out(format_args!("{}", render_dag(dag, table.names(), format)))?;
            }
        }
        out(format_args!("{}\n", report.summary()))?;
    }
    let interrupted = options.stop.is_stopped() && report.status != Status::Optimal;
    let code = if interrupted { INTERRUPTED } else { 0 };
    // A CBC solve that did not stop at Ctrl+C is still running: end now that the
    // report is out.
    interrupt::exit_if_a_solve_was_abandoned(code.into());
    if report.status == Status::Infeasible {
        let why = report.extra.get("infeasible").and_then(|w| w.as_str());
        match why {
            Some(why) => anyhow::bail!("no DAG can be built (infeasible): {why}"),
            None => {
                anyhow::bail!("no DAG can be built from these candidate parent sets (infeasible)")
            }
        }
    }
    Ok(ExitCode::from(code))
}
