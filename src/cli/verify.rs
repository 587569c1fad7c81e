//! `bnsl verify`: check a DAG against a score file (acyclic, every parent set a
//! candidate, total score recomputed) or against data (acyclic, score recomputed).

use super::out;
use super::scoring_args::ScoringArgs;
use anyhow::{bail, Context};
use bnsl::dag_io::read_dag_file;
use bnsl::data::load_data;
use bnsl::fio::read_scores;
use bnsl::formulations::Dag;
use bnsl::scores::LocalScorer;
use std::path::PathBuf;

/// Arguments of `bnsl verify`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("source").required(true).args(["scores", "data"])))]
pub(crate) struct Args {
    /// Score file the DAG must be built from.
    #[arg(long)]
    pub scores: Option<PathBuf>,
    /// Data set to recompute the family scores from (with --score/--ess).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// The DAG (parent lists, model string, JSON with `parents`, or a BIF network
    /// whose graph is checked, e.g. the true network of sampled data).
    #[arg(long)]
    pub dag: PathBuf,
    #[command(flatten)]
    pub scoring: ScoringArgs,
    /// Fail unless the recomputed total score equals this value (within 1e-6).
    #[arg(long, allow_negative_numbers = true)]
    pub expect: Option<f64>,
    /// Print one JSON object with the checks to stdout.
    #[arg(long)]
    pub json: bool,
}

/// The DAG of the file at `path` over `names`; the nodes it does not list are said on
/// stderr, since they get no parents.
fn read_listed(path: &std::path::Path, names: &[String]) -> anyhow::Result<Dag> {
    let file = read_dag_file(path, names)?;
    if !file.unlisted.is_empty() {
        let unlisted: Vec<&str> = file.unlisted.iter().map(|&v| names[v].as_str()).collect();
        eprintln!(
            "note: {} does not list {}: they get no parents",
            path.display(),
            unlisted.join(", ")
        );
    }
    Ok(file.dag)
}

/// Runs `bnsl verify`.
pub(super) fn run(args: Args) -> anyhow::Result<()> {
    let (score, arcs, n) = match (&args.scores, &args.data) {
        (Some(path), _) => {
            args.scoring.check_score_file(path)?;
            let table = read_scores(path)?.table;
            let dag = read_listed(&args.dag, table.names())?;
            let score = dag.check(&table).with_context(|| {
                format!("{} fails against {}", args.dag.display(), path.display())
            })?;
            (score, dag.arc_count(), dag.n())
        }
        (None, Some(path)) => {
            let data = load_data(path, &args.scoring.data.load_options()?)?;
            let dag = read_listed(&args.dag, &data.names())?;
            (
                LocalScorer::new(&data, args.scoring.kind()?).score_dag(&dag)?,
                dag.arc_count(),
                dag.n(),
            )
        }
        (None, None) => unreachable!("clap requires --scores or --data"),
    };
    let matches = args.expect.map(|want| (score - want).abs() <= 1e-6);
    if args.json {
        let obj = serde_json::json!({
            "acyclic": true, "candidates": args.scores.is_some(), "score": score,
            "nodes": n, "arcs": arcs, "expected": args.expect, "matches_expected": matches,
        });
        out(format_args!("{obj}\n"))?;
    } else {
        out(format_args!(
            "ok: {n} nodes, {arcs} arcs, acyclic, score {score:.6}\n"
        ))?;
    }
    if let (Some(want), Some(false)) = (args.expect, matches) {
        bail!("the DAG scores {score:.9}, not the expected {want:.9}");
    }
    Ok(())
}
