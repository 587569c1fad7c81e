//! `bnsl learn`: learn a DAG from a score file or a data set.

use super::scoring_args::ScoringArgs;
use crate::dag_io::{render_dag, DagFormat};
use crate::pipeline::{learn, load_problem, InputKind, Method};
use crate::report::Status;
use anyhow::Context;
use std::path::PathBuf;

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

/// Runs `bnsl learn`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let setup = args.scoring.setup()?;
    let table = load_problem(&args.input, args.input_kind, &setup)?;
    let report = learn(&table, args.method)?;
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
