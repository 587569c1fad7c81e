//! `bnsl learn`: learn a DAG from a score file or a data set.

use super::scoring_args::ScoringArgs;
use crate::dag_io::{render_dag, DagFormat};
use crate::pipeline::{learn, load_problem, InputKind, LearnOptions, Method};
use crate::report::Status;
use anyhow::{bail, Context};
use bnsl_solvers::heuristics::AsobsOptions;
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

/// Options of the order-based heuristics (`--method obs|asobs`).
#[derive(clap::Args, Debug, Clone)]
pub struct OrderSearchArgs {
    /// Seconds of search for obs/asobs [default: 10, or none when --restarts is given].
    #[arg(long, value_name = "S")]
    pub time_limit: Option<f64>,
    /// Stop obs/asobs after this many random restarts (with no time limit the result is
    /// then the same for a given seed whatever the number of threads).
    #[arg(long, value_name = "N")]
    pub restarts: Option<u64>,
    /// Seed of the random orders of obs/asobs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Skip the swap local search after each random order.
    #[arg(long)]
    pub no_local_search: bool,
}

impl OrderSearchArgs {
    /// The heuristic options, validated.
    pub fn options(&self) -> anyhow::Result<AsobsOptions> {
        let time_limit = match (self.time_limit, self.restarts) {
            (Some(s), _) if s.is_finite() && s > 0.0 => Some(Duration::from_secs_f64(s)),
            (Some(s), _) => bail!("--time-limit must be a positive number of seconds, got {s}"),
            (None, Some(_)) => None,
            (None, None) => AsobsOptions::default().time_limit,
        };
        if self.restarts == Some(0) {
            bail!("--restarts must be at least 1");
        }
        Ok(AsobsOptions {
            time_limit,
            max_restarts: self.restarts,
            seed: self.seed,
            local_search: !self.no_local_search,
            ..AsobsOptions::default()
        })
    }
}

/// Runs `bnsl learn`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let setup = args.scoring.setup()?;
    let opts = LearnOptions {
        method: args.method,
        heuristic: args.search.options()?,
    };
    let table = load_problem(&args.input, args.input_kind, &setup)?;
    let report = learn(&table, &opts)?;
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
    if report.status == Status::Infeasible {
        anyhow::bail!("no DAG can be built from these candidate parent sets (infeasible)");
    }
    Ok(())
}
