//! `bnsl score`: compute local scores from data into a GOBNILP jkl score file.

use super::progress::TerminalObserver;
use super::scoring_args::{CandidateSet, ScoringArgs};
use anyhow::Context;
use bnsl::fio::{write_jkl, NameStyle};
use bnsl::pipeline::{score_data, ScoredData};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `bnsl score`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Data set: CSV (with or without header) or GOBNILP `.dat`.
    pub data: PathBuf,
    #[command(flatten)]
    pub scoring: ScoringArgs,
    /// Output score file (GOBNILP jkl); `-` or omitted: standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Write variables and parents as 0-based indices instead of names.
    #[arg(long)]
    pub indices: bool,
    /// Print one JSON line with the scoring throughput to standard output (`seconds` is
    /// the scoring time, without reading the data: `load_seconds`).
    #[arg(long)]
    pub stats_json: bool,
}

/// Runs `bnsl score`.
pub(super) fn run(args: Args) -> anyhow::Result<()> {
    let setup = args.scoring.setup()?;
    let ScoredData {
        table,
        stats,
        load_s,
        restrict_s,
        score_s,
    } = score_data(&args.data, &setup, &TerminalObserver::new(false))?;
    let style = if args.indices {
        NameStyle::Indices
    } else {
        NameStyle::Names
    };
    match args.output.as_ref().filter(|p| p.as_os_str() != "-") {
        Some(path) => {
            let file = std::fs::File::create(path)
                .with_context(|| format!("cannot create {}", path.display()))?;
            let mut w = std::io::BufWriter::new(file);
            write_jkl(&table, &mut w, style)?;
            w.flush()?;
        }
        None if !args.stats_json => write_jkl(&table, &mut std::io::stdout().lock(), style)?,
        None => {}
    }
    let restricted = match args.scoring.candidate_set() {
        CandidateSet::All => String::new(),
        c => format!(
            ", {} candidates found in {restrict_s:.3}s",
            format!("{c:?}").to_lowercase()
        ),
    };
    eprintln!(
        "{}: {} variables, {} families scored, {} kept (largest parent set {}); read {:.3}s{restricted}, scored {:.3}s",
        args.data.display(),
        table.n(),
        stats.families_scored,
        stats.families_kept,
        table.max_parents(),
        load_s,
        score_s
    );
    if args.stats_json {
        let line = serde_json::json!({
            "tool": "bnsl",
            "families": stats.families_scored,
            "kept": stats.families_kept,
            "sets_counted": stats.sets_counted,
            "load_seconds": load_s,
            "restrict_seconds": restrict_s,
            "seconds": score_s,
            "families_per_s": stats.families_scored as f64 / score_s.max(1e-9),
        });
        super::out(format_args!("{line}\n"))?;
    }
    Ok(())
}
