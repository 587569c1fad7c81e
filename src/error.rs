//! Errors of the library: about user input ([`InputError`], from `bnsl-core`), and of a
//! learning run ([`LearnError`]).

pub use bnsl_core::input::{read_text, InputError};
use std::path::PathBuf;

/// Why a learning run failed, as opposed to an outcome such as infeasibility, which the
/// report carries. Every variant keeps its cause ([`std::error::Error::source`]).
#[derive(Debug, thiserror::Error)]
pub enum LearnError {
    /// An input file is unreadable or malformed.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The data set has no rows to score.
    #[error("{}: the data set has no rows", .0.display())]
    NoRows(PathBuf),
    /// Scoring every candidate parent set of the data set would not fit in memory.
    #[error("{}", path.display())]
    Scoring {
        /// The data set.
        path: std::path::PathBuf,
        /// How much it would take.
        source: crate::scores::TooManyFamilies,
    },
    /// Markov-blanket discovery for `--candidates` failed.
    #[error("{}: --candidates", path.display())]
    Restriction {
        /// The data set.
        path: PathBuf,
        /// What went wrong.
        source: crate::mb::MbError,
    },
    /// The back-end asked for is not compiled in, or refused an option.
    #[error(transparent)]
    Backend(#[from] bnsl_solvers::milp::BackendChoiceError),
    /// A setting does not apply to this run.
    #[error("{0}")]
    Setting(String),
    /// The solver failed (as opposed to proving infeasibility or stopping at a limit).
    #[error(transparent)]
    Solver(#[from] bnsl_solvers::milp::SolverError),
    /// Dynamic programming could not run (too many variables, too little memory).
    #[error("dynamic programming failed")]
    Dp(#[source] bnsl_solvers::dp::DpError),
    /// The order search could not run.
    #[error(transparent)]
    Heuristic(#[from] bnsl_solvers::heuristics::HeuristicError),
    /// The start DAG (`--warm-start`) is unusable.
    #[error("warm start {}", path.display())]
    WarmStart {
        /// The DAG file, or `asobs`.
        path: PathBuf,
        /// What is wrong with it.
        source: Box<LearnError>,
    },
    /// A DAG is not an answer for the table (cyclic, or a parent set not a candidate).
    #[error(transparent)]
    Dag(#[from] bnsl_formulations::DagError),
    /// A solver returned a DAG that fails verification against the table.
    #[error("the solver returned a DAG that fails verification")]
    Unverified(#[source] bnsl_formulations::DagError),
    /// A solver's answer contradicts itself: a bug, reported rather than printed.
    #[error("internal error: {0}")]
    Internal(String),
}
