//! Errors about user input: every one names the file, and the line where there is one.

use std::path::{Path, PathBuf};

/// A problem with an input file (data, network, score file, DAG, constraints).
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// A syntax or content error at a known line (1-based).
    #[error("{}:{line}: {cause}", path.display())]
    AtLine {
        /// The file.
        path: PathBuf,
        /// The line, 1-based.
        line: usize,
        /// What is wrong there.
        cause: String,
    },
    /// A problem with the file as a whole (empty, inconsistent, …).
    #[error("{}: {cause}", path.display())]
    InFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        cause: String,
    },
    /// The file could not be read.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        error: std::io::Error,
    },
}

impl InputError {
    /// An error at line `line` (1-based) of `path`.
    pub fn at(path: &Path, line: usize, cause: impl Into<String>) -> Self {
        InputError::AtLine {
            path: path.to_path_buf(),
            line,
            cause: cause.into(),
        }
    }

    /// An error about `path` as a whole.
    pub fn file(path: &Path, cause: impl Into<String>) -> Self {
        InputError::InFile {
            path: path.to_path_buf(),
            cause: cause.into(),
        }
    }

    /// An I/O error reading `path`.
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        InputError::Io {
            path: path.to_path_buf(),
            error: source,
        }
    }
}

/// Reads a whole text file, transparently gunzipping files whose name ends in `.gz`.
pub fn read_text(path: &Path) -> Result<String, InputError> {
    use std::io::Read;
    let bytes = std::fs::read(path).map_err(|e| InputError::io(path, e))?;
    let text = if path.extension().is_some_and(|e| e == "gz") {
        let mut s = String::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut s)
            .map_err(|e| InputError::io(path, e))?;
        s
    } else {
        String::from_utf8(bytes)
            .map_err(|_| InputError::file(path, "the file is not valid UTF-8 text"))?
    };
    Ok(text)
}

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
