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
/// A UTF-8 byte-order mark at the start (as spreadsheet programs write) is dropped;
/// bytes that are not UTF-8 are an error naming their line and byte offset.
pub fn read_text(path: &Path) -> Result<String, InputError> {
    use std::io::Read;
    let mut bytes = std::fs::read(path).map_err(|e| InputError::io(path, e))?;
    if path.extension().is_some_and(|e| e == "gz") {
        let mut inflated = Vec::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_end(&mut inflated)
            .map_err(|e| InputError::io(path, e))?;
        bytes = inflated;
    }
    let text =
        String::from_utf8(bytes).map_err(|e| not_utf8(path, e.as_bytes(), e.utf8_error()))?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// The error of `bytes` (the file's text) that are not UTF-8 from `error`'s offset on.
fn not_utf8(path: &Path, bytes: &[u8], error: std::str::Utf8Error) -> InputError {
    let at = error.valid_up_to();
    let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
    let line_start = bytes[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let cause = format!(
        "byte {} of the line (offset {at} in the file) is not valid UTF-8 text (0x{:02x}); \
         save the file as UTF-8",
        at - line_start + 1,
        bytes[at]
    );
    InputError::at(path, line, cause)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> Result<String, InputError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.csv");
        std::fs::write(&path, bytes).unwrap();
        read_text(&path)
    }

    #[test]
    fn a_byte_order_mark_is_dropped() {
        assert_eq!(read(b"\xef\xbb\xbfA,B\n0,1\n").unwrap(), "A,B\n0,1\n");
        assert_eq!(read(b"A,B\n").unwrap(), "A,B\n");
    }

    #[test]
    fn bytes_that_are_not_utf8_are_located() {
        let message = read(b"A,B\n0,1\n1,\xff\n").unwrap_err().to_string();
        assert!(
            message.contains("f.csv:3: byte 3 of the line (offset 10 in the file)"),
            "{message}"
        );
        assert!(message.contains("0xff"), "{message}");
    }
}
