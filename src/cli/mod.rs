//! The `bnsl` command line: one module per subcommand, each with its clap `Args` and a
//! `run` function.

use clap::{Parser, Subcommand};

pub mod convert;
pub mod sample;

/// Bayesian network structure learning by mathematical programming.
#[derive(Parser, Debug)]
#[command(name = "bnsl", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Convert a score file between formats (jkl variants, URLearning .pss) to GOBNILP jkl.
    Convert(convert::Args),
    /// Draw samples from a BIF network by forward sampling.
    Sample(sample::Args),
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Convert(a) => convert::run(a),
        Command::Sample(a) => sample::run(a),
    }
}
