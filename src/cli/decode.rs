//! `bnsl decode`: a MaxSAT solver's answer to a model of `bnsl export --format wcnf`, read
//! back into the network it encodes, checked (one parent set per node, acyclic) and
//! scored; with `--scores`, checked against the score file as `bnsl verify` does.

use super::out;
use anyhow::{bail, Context};
use bnsl::dag_io::{parents_map, render_dag, DagFormat};
use bnsl::fio::read_scores;
use bnsl_formulations::maxsat::wcnf_format::{
    check_weights, count_vars, read_family_map, read_solution,
};
use serde_json::json;
use std::path::PathBuf;

/// Arguments of `bnsl decode`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// The WCNF model, as `bnsl export --format wcnf|wcnf-old` wrote it (its comment
    /// lines map the variables to parent sets).
    pub model: PathBuf,
    /// The solver's output: its `v` lines (signed literals, or one 0/1 string), other
    /// lines ignored.
    pub solution: PathBuf,
    /// Also check the network against this score file: every parent set a candidate,
    /// the score recomputed from it.
    #[arg(long)]
    pub scores: Option<PathBuf>,
    /// Write the network to this file (.txt parent lists, .dot, .json).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Print one JSON object (score, parents) to stdout.
    #[arg(long)]
    pub json: bool,
}

/// Runs `bnsl decode`.
pub(super) fn run(args: Args) -> anyhow::Result<()> {
    let read = |path: &PathBuf| {
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
    };
    let model = read(&args.model)?;
    let map =
        read_family_map(&model).map_err(|e| anyhow::anyhow!("{}: {e}", args.model.display()))?;
    check_weights(&model).map_err(|e| anyhow::anyhow!("{}: {e}", args.model.display()))?;
    let answer = read(&args.solution)?;
    let value = read_solution(&answer, count_vars(&model))
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.solution.display()))?;
    let table = match &args.scores {
        Some(path) => {
            let file = read_scores(path)?;
            if file.table.names() != map.names.as_slice() {
                bail!(
                    "{}: its variables are not those of {}",
                    path.display(),
                    args.model.display()
                );
            }
            Some((path, file.table))
        }
        None => None,
    };
    let (dag, mut score) = map
        .decode_with(|v| value.value(v))
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.solution.display()))?;
    if let Some((path, table)) = &table {
        score = dag
            .check(table)
            .with_context(|| format!("the network against {}", path.display()))?;
    }
    if let Some(path) = &args.output {
        let text = render_dag(&dag, &map.names, DagFormat::from_path(path));
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.json {
        let object = json!({ "score": score, "parents": parents_map(&dag, &map.names) });
        out(format_args!("{object}\n"))?;
    } else {
        out(format_args!(
            "{}",
            render_dag(&dag, &map.names, DagFormat::Txt)
        ))?;
        out(format_args!("score {score}\n"))?;
    }
    Ok(())
}
