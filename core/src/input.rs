//! Errors about user input, every one naming the file and the line where there is one,
//! and reading a text file (gzipped or not).

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
