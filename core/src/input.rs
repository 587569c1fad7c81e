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
/// bytes that are not UTF-8 are an error naming their line and byte offset. A gzip
/// file that inflates to more than half the memory available is refused when it gets
/// there, before it can exhaust the machine.
pub fn read_text(path: &Path) -> Result<String, InputError> {
    let mut bytes = std::fs::read(path).map_err(|e| InputError::io(path, e))?;
    if path.extension().is_some_and(|e| e == "gz") {
        let limit = crate::machine::available_memory_bytes().map_or(u64::MAX, |m| m / 2);
        bytes = gunzip(path, &bytes, limit)?;
    }
    let text =
        String::from_utf8(bytes).map_err(|e| not_utf8(path, e.as_bytes(), e.utf8_error()))?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// The gzip stream `compressed` (of `path`) inflated, or an error once it passes
/// `limit` bytes.
fn gunzip(path: &Path, compressed: &[u8], limit: u64) -> Result<Vec<u8>, InputError> {
    use std::io::Read;
    let mut inflated = Vec::new();
    flate2::read::GzDecoder::new(compressed)
        .take(limit.saturating_add(1))
        .read_to_end(&mut inflated)
        .map_err(|e| InputError::io(path, e))?;
    if inflated.len() as u64 > limit {
        return Err(InputError::file(
            path,
            format!(
                "inflates to more than {:.1} GiB, half the memory available; is it the \
                 file you meant?",
                limit as f64 / (1u64 << 30) as f64
            ),
        ));
    }
    Ok(inflated)
}

/// The non-blank lines of `text` (LF or CRLF ends), trimmed, with their 1-based numbers.
///
/// Runs of blank lines are skipped as one block of bytes, so a text of a billion empty
/// lines (a small gzip file can inflate to that) is passed in a fraction of a second
/// rather than line by line.
pub fn nonblank_lines(text: &str) -> NonBlankLines<'_> {
    NonBlankLines {
        rest: text,
        line: 0,
    }
}

/// The iterator of [`nonblank_lines`].
#[derive(Clone, Debug)]
pub struct NonBlankLines<'a> {
    /// The text after the last line returned.
    rest: &'a str,
    /// Number of the last line returned (or skipped).
    line: usize,
}

impl NonBlankLines<'_> {
    /// Number of the last line read (returned or skipped), for errors at the end of the
    /// text.
    pub fn last_line(&self) -> usize {
        self.line
    }
}

impl<'a> Iterator for NonBlankLines<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<(usize, &'a str)> {
        loop {
            let bytes = self.rest.as_bytes();
            let blank = bytes
                .iter()
                .position(|b| !b.is_ascii_whitespace())
                .unwrap_or(bytes.len());
            // The skipped lines end at the last line break before the first visible byte.
            let skipped = &bytes[..blank];
            if let Some(last_break) = skipped.iter().rposition(|&b| b == b'\n') {
                self.line += skipped.iter().filter(|&&b| b == b'\n').count();
                self.rest = &self.rest[last_break + 1..];
            }
            if blank == bytes.len() {
                // Only blank text is left: the line it ends on, if any, is the last.
                if !self.rest.is_empty() {
                    self.line += 1;
                    self.rest = "";
                }
                return None;
            }
            let (raw, after) = match self.rest.split_once('\n') {
                Some((raw, after)) => (raw, after),
                None => (self.rest, ""),
            };
            self.rest = after;
            self.line += 1;
            let line = raw.trim();
            if !line.is_empty() {
                return Some((self.line, line));
            }
        }
    }
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
    fn inflating_past_the_limit_is_refused() {
        use std::io::Write;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(&vec![b'\n'; 1 << 20]).unwrap();
        let compressed = gz.finish().unwrap();
        let path = Path::new("bomb.jkl.gz");
        let message = gunzip(path, &compressed, 1000).unwrap_err().to_string();
        assert!(
            message.starts_with("bomb.jkl.gz: inflates to more than"),
            "{message}"
        );
        assert_eq!(gunzip(path, &compressed, 1 << 20).unwrap().len(), 1 << 20);
    }

    #[test]
    fn nonblank_lines_are_numbered_across_blank_runs() {
        let text = "\n\n  a b \r\n\r\n\t\n\u{a0}\nc\n\n";
        let mut lines = nonblank_lines(text);
        assert_eq!(lines.next(), Some((3, "a b")));
        assert_eq!(lines.next(), Some((7, "c")));
        assert_eq!(lines.next(), None);
        assert_eq!(lines.last_line(), 8);
        assert_eq!(nonblank_lines("x").collect::<Vec<_>>(), [(1, "x")]);
        assert_eq!(nonblank_lines("").next(), None);
        let numbers: Vec<usize> = nonblank_lines("a\nb\n\nc").map(|(i, _)| i).collect();
        assert_eq!(numbers, [1, 2, 4]);
        // The same numbers as numbering `str::lines` and dropping the blank ones.
        let text = "p\n \n\nq r\n  \ns\n";
        let by_lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty())
            .collect();
        assert_eq!(nonblank_lines(text).collect::<Vec<_>>(), by_lines);
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
