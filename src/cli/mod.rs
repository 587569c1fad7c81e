//! The `bnsl` command line: one module per subcommand, each with its clap `Args` and a
//! `run` function.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod bench;
mod collect;
mod convert;
mod decode;
mod export;
mod learn;
mod mb;
mod native_stdout;
mod progress;
mod sample;
mod score;
mod scoring_args;
mod treewidth;
mod verify;

/// `bnsl --version`: the package version and the git commit it was built from.
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("BNSL_GIT_COMMIT"),
    ")"
);

/// Bayesian network structure learning by mathematical programming.
#[derive(Parser, Debug)]
#[command(name = "bnsl", version = VERSION, about, long_about = None)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Compute local scores (BDeu, BIC) from data into a GOBNILP jkl score file, with pruning.
    Score(score::Args),
    /// Learn a Bayesian network structure from a score file or a data set.
    Learn(Box<learn::Args>),
    /// Check a DAG: acyclic, parent sets among the candidates, total score recomputed.
    Verify(verify::Args),
    /// Convert a score file between formats (jkl variants, URLearning .pss) to GOBNILP jkl.
    Convert(convert::Args),
    /// Write the exact program of a score file as an LP or MPS model, or a WCNF MaxSAT
    /// formula, for other solvers.
    Export(export::Args),
    /// Read a MaxSAT solver's answer to a WCNF model of `export` back into a checked DAG.
    Decode(decode::Args),
    /// Draw samples from a BIF network by forward sampling.
    Sample(sample::Args),
    /// Markov blankets by BAMB, IAMB or HITON-MB with G² independence tests.
    Mb(mb::Args),
    /// The treewidth of a DAG's moral graph, with a tree decomposition that shows it.
    Treewidth(treewidth::Args),
    /// Run a comparison study from a plan file (each run a child process under time and
    /// memory limits), or report on and merge its results.
    Bench(bench::Args),
}

/// The exit code of a run that Ctrl+C stopped before it proved its answer: 128 + SIGINT,
/// as a shell reports a process that SIGINT ended. The answer so far is printed first.
pub(crate) const INTERRUPTED: u8 = 130;

/// Runs the parsed command line; the exit code of a run that ends without an error.
pub(crate) fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let ran = match cli.command {
        Command::Score(a) => score::run(a),
        Command::Learn(a) => return learn::run(*a),
        Command::Bench(a) => return bench::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Convert(a) => convert::run(a),
        Command::Export(a) => export::run(a),
        Command::Decode(a) => decode::run(a),
        Command::Sample(a) => sample::run(a),
        Command::Mb(a) => mb::run(a),
        Command::Treewidth(a) => treewidth::run(a),
    };
    ran.map(|()| ExitCode::SUCCESS)
}

/// A treewidth bound: a non-negative integer.
pub(crate) fn parse_width(text: &str) -> Result<usize, String> {
    text.trim().parse().map_err(|_| {
        format!("`{text}` is not a treewidth bound: W is a non-negative integer (0 gives the empty DAG)")
    })
}

/// Writes to standard output, returning the write's error (a closed pipe, a full disk)
/// where `print!` would panic; the caller passes it on, and `main` ends quietly on a
/// closed pipe and with an error otherwise.
/// In `bnsl learn`, standard output is the copy kept by module `native_stdout`.
pub(crate) fn out(text: std::fmt::Arguments<'_>) -> std::io::Result<()> {
    native_stdout::write_results(text)
}

/// Whether `error` comes from writing to a pipe whose reader has gone (`bnsl … | head`).
pub(crate) fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// The value of a time limit (`--time-limit`, `asobs:S`): a positive, finite number of
/// seconds. Every command checks its limits here, so they are refused with one message.
pub(crate) fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Ok(s),
        _ => Err(format!(
            "`{text}` is not a time limit: give a positive, finite number of seconds"
        )),
    }
}
