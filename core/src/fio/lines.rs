//! Line-by-line reading shared by the score-file readers: blank lines are skipped and
//! `#` comment lines collected, every data line keeps its 1-based number for errors.

use crate::input::{nonblank_lines, NonBlankLines};

/// The non-blank, non-comment lines of a file with their 1-based numbers, collecting
/// the comments on the way.
pub(crate) struct DataLines<'a> {
    inner: NonBlankLines<'a>,
    /// The text of the `#` comment lines seen so far, without the `#`, trimmed.
    pub comments: Vec<String>,
    /// Number of the last line seen, for errors at the end of the file.
    pub last: usize,
}

impl<'a> DataLines<'a> {
    /// Lines of `text` (LF or CRLF ends).
    pub(super) fn new(text: &'a str) -> Self {
        DataLines {
            inner: nonblank_lines(text),
            comments: Vec::new(),
            last: 0,
        }
    }

    /// The next data line, trimmed, with its number.
    pub(super) fn next(&mut self) -> Option<(usize, &'a str)> {
        for (number, line) in self.inner.by_ref() {
            self.last = number;
            match line.strip_prefix('#') {
                Some(comment) => self.comments.push(comment.trim().to_string()),
                None => return Some((number, line)),
            }
        }
        self.last = self.inner.last_line();
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skips_blank_lines_and_collects_comments() {
        let mut lines = DataLines::new("# one\r\n\n  a b  \r\n#two\nc");
        assert_eq!(lines.next(), Some((3, "a b")));
        assert_eq!(lines.next(), Some((5, "c")));
        assert_eq!(lines.next(), None);
        assert_eq!(lines.comments, ["one", "two"]);
        assert_eq!(lines.last, 5);
    }
}
