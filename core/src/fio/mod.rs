//! Score-file formats: GOBNILP/Jaakkola jkl (and its variants) and URLearning `.pss`.
//!
//! Both are read into a [`ScoreFile`]: the validated [`ScoreTable`] plus what the file
//! carried beside it (comment lines, a MINOBS constraint section, `.pss` META entries).
//! [`read_scores`] picks the reader from the file; [`write_jkl`] writes the GOBNILP form
//! and [`write_pss`] the URLearning form.

pub mod constraints;
mod families;
pub mod jkl;
mod lines;
pub mod pss;

pub use constraints::{parse_constraints, read_constraints};
pub use jkl::{parse_jkl, read_jkl, write_jkl};
pub use pss::{parse_pss, read_pss, write_pss};

use crate::input::{nonblank_lines, read_text, InputError};
use crate::ScoreTable;
use std::path::Path;

/// How variables are referred to in a score file: by name or by 0-based index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameStyle {
    /// Variable names (`asia`, `One`, …).
    Names,
    /// 0-based indices in table order (`0`, `1`, …).
    Indices,
}

/// The format a score file was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreFormat {
    /// GOBNILP/Jaakkola jkl, including the BLIP and MINOBS variants.
    Jkl,
    /// URLearning parent-set scores (`.pss`).
    Pss,
}

/// One `META key=value` entry of a `.pss` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meta {
    /// The variable it belongs to (index in the table), or `None` for a file-level entry.
    pub variable: Option<usize>,
    /// The key, trimmed (`num_variables`, `arity`, …).
    pub key: String,
    /// The value, trimmed.
    pub value: String,
}

/// A score file as read: the table and what the file said beside it.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreFile {
    /// Candidate parent sets with scores, per variable, best first.
    pub table: ScoreTable,
    /// The format the file was in.
    pub format: ScoreFormat,
    /// How the file referred to variables.
    pub naming: NameStyle,
    /// The pairs `(a, b)` of a trailing MINOBS-anc constraint section (ancestral
    /// constraints, 0-based indices exactly as written). They do not change the table
    /// and bnsl does not enforce them.
    pub ancestral_constraints: Vec<(usize, usize)>,
    /// The text of `#` comment lines (BLIP writes its settings there), without the `#`.
    pub comments: Vec<String>,
    /// `META` entries of a `.pss` file, in file order.
    pub meta: Vec<Meta>,
}

/// Reads a score file of any supported format (`.gz` is gunzipped first).
///
/// URLearning `.pss` when the name ends in `.pss` (or `.pss.gz`) or the first
/// non-blank line starts with `META` or `VAR`; jkl otherwise.
pub fn read_scores(path: &Path) -> Result<ScoreFile, InputError> {
    let text = read_text(path)?;
    if is_pss(path, &text) {
        parse_pss(path, &text)
    } else {
        parse_jkl(path, &text)
    }
}

/// Whether a file is in URLearning's format, by name or by its first non-blank line.
fn is_pss(path: &Path, text: &str) -> bool {
    let name = path
        .file_name()
        .map(|f| f.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let first = nonblank_lines(text).next().map_or("", |(_, line)| line);
    name.ends_with(".pss")
        || name.ends_with(".pss.gz")
        || first.starts_with("META")
        || first.starts_with("VAR ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_pss_by_name_or_content() {
        assert!(is_pss(Path::new("a.pss"), "3\n"));
        assert!(is_pss(Path::new("a.PSS.gz"), ""));
        assert!(is_pss(Path::new("a.txt"), "\n META pss_version = 0.1\n"));
        assert!(is_pss(Path::new("a.txt"), "VAR x\n-1.0\n"));
        assert!(!is_pss(Path::new("a.jkl"), "2\nVARX 1\n"));
        assert!(!is_pss(Path::new("a.jkl"), "# META in a comment\n1\n"));
    }
}
