//! URLearning parent-set score files (`.pss`, Malone's URLearning; GOBNILP reads them too).
//!
//! ```text
//! META pss_version = 0.1
//! META num_variables=16
//! VAR A
//! META arity=2
//! -7000.849121 B E
//! -8963.208008
//! ```
//! `META key=value` lines hold metadata, before the first `VAR` for the file and after it
//! for that variable. `VAR name` starts a variable's block; each following line is a
//! score (natural log, higher is better, as in the shared files) then the parent names,
//! with no parent count. Variables are numbered in `VAR` order. Blank lines and `#` lines
//! are skipped. A `num_variables` entry, when present, must match the number of `VAR`
//! blocks.

use super::families::{assemble, Numbering, RawBlock, RawFamily};
use super::jkl::check_names;
use super::lines::DataLines;
use super::{Meta, NameStyle, ScoreFile, ScoreFormat};
use crate::input::{read_text, InputError};
use crate::score_table::score_problem;
use crate::ScoreTable;
use std::io::{self, Write};
use std::path::Path;

/// Reads a `.pss` score file (`.gz` is gunzipped first).
pub fn read_pss(path: &Path) -> Result<ScoreFile, InputError> {
    parse_pss(path, &read_text(path)?)
}

/// Parses `.pss` text; `path` is only used to name the source in errors.
pub fn parse_pss(path: &Path, text: &str) -> Result<ScoreFile, InputError> {
    let mut lines = DataLines::new(text);
    let mut blocks: Vec<RawBlock<'_>> = Vec::new();
    let mut meta = Vec::new();
    let mut announced = None;
    while let Some((line, text)) = lines.next() {
        if let Some(rest) = keyword(text, "META") {
            let entry = parse_meta(rest, blocks.len().checked_sub(1)).ok_or_else(|| {
                InputError::at(
                    path,
                    line,
                    format!("expected `META key=value`, found `{text}`"),
                )
            })?;
            if entry.variable.is_none() && entry.key == "num_variables" {
                announced = Some((line, parse_count(path, line, &entry.value)?));
            }
            meta.push(entry);
        } else if let Some(rest) = keyword(text, "VAR") {
            let name = single_token(rest).ok_or_else(|| {
                InputError::at(path, line, format!("expected `VAR name`, found `{text}`"))
            })?;
            blocks.push(RawBlock {
                name,
                line,
                families: Vec::new(),
            });
        } else {
            let family = parse_family(text).map_err(|why| InputError::at(path, line, why))?;
            let block = blocks.last_mut().ok_or_else(|| {
                InputError::at(path, line, "a parent-set line before the first `VAR` line")
            })?;
            block.families.push(RawFamily { line, ..family });
        }
    }
    check_blocks(path, &blocks, announced)?;
    let table = assemble(path, &blocks, &Numbering::Names)?;
    Ok(ScoreFile {
        table,
        format: ScoreFormat::Pss,
        naming: NameStyle::Names,
        ancestral_constraints: Vec::new(),
        comments: lines.comments,
        meta,
    })
}

/// The rest of `text` if it starts with the word `word` (followed by whitespace or the end).
fn keyword<'a>(text: &'a str, word: &str) -> Option<&'a str> {
    let rest = text.strip_prefix(word)?;
    (rest.is_empty() || rest.starts_with(char::is_whitespace)).then_some(rest)
}

/// `key=value` (spaces around `=` allowed) belonging to `variable`.
fn parse_meta(rest: &str, variable: Option<usize>) -> Option<Meta> {
    let (key, value) = rest.split_once('=')?;
    let key = key.trim();
    (!key.is_empty()).then(|| Meta {
        variable,
        key: key.to_string(),
        value: value.trim().to_string(),
    })
}

/// `text` when it is exactly one token.
fn single_token(text: &str) -> Option<&str> {
    let mut tokens = text.split_ascii_whitespace();
    let token = tokens.next()?;
    tokens.next().is_none().then_some(token)
}

/// The value of `num_variables`.
fn parse_count(path: &Path, line: usize, value: &str) -> Result<usize, InputError> {
    value.parse().map_err(|_| {
        InputError::at(
            path,
            line,
            format!("num_variables `{value}` is not a non-negative integer"),
        )
    })
}

/// A parent-set line `score p1 … pm`.
fn parse_family(text: &str) -> Result<RawFamily<'_>, String> {
    let mut tokens = text.split_ascii_whitespace();
    let first = tokens.next().unwrap_or("");
    let score: f64 = first.parse().map_err(|_| {
        format!("expected `META`, `VAR` or a parent-set line `score parents…`, found `{text}`")
    })?;
    if let Some(problem) = score_problem(score) {
        return Err(format!("the score `{first}` {problem}"));
    }
    Ok(RawFamily {
        line: 0,
        score,
        parents: tokens.collect(),
    })
}

/// At least one variable, each with a parent-set line, as many as `num_variables` says.
fn check_blocks(
    path: &Path,
    blocks: &[RawBlock<'_>],
    announced: Option<(usize, usize)>,
) -> Result<(), InputError> {
    if blocks.is_empty() {
        return Err(InputError::file(
            path,
            "no `VAR` line: the file defines no variable",
        ));
    }
    if let Some(b) = blocks.iter().find(|b| b.families.is_empty()) {
        return Err(InputError::at(
            path,
            b.line,
            format!("variable `{}` has no parent-set line", b.name),
        ));
    }
    match announced {
        Some((line, n)) if n != blocks.len() => {
            let cause = format!(
                "num_variables is {n} but the file has {} `VAR` blocks",
                blocks.len()
            );
            Err(InputError::at(path, line, cause))
        }
        _ => Ok(()),
    }
}

/// Writes `table` in URLearning's `.pss` form: a version and `num_variables` header, then
/// per variable `VAR name` and one line `score p1 … pm` per candidate, best first, parents
/// by name. Scores use Rust's shortest round-trip formatting, as in
/// [`write_jkl`](super::write_jkl). Names that cannot be one token give an `InvalidInput`
/// error.
pub fn write_pss<W: Write + ?Sized>(table: &ScoreTable, w: &mut W) -> io::Result<()> {
    check_names(table)?;
    let names = table.names();
    writeln!(w, "META pss_version = 0.1")?;
    writeln!(w, "META num_variables={}", table.n())?;
    for (v, name) in names.iter().enumerate() {
        writeln!(w)?;
        writeln!(w, "VAR {name}")?;
        for c in table.candidates(v) {
            write!(w, "{}", c.score)?;
            for p in c.parents.iter() {
                write!(w, " {}", names[p])?;
            }
            writeln!(w)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "META pss_version = 0.1\nMETA num_variables=2\n\nVAR A\nMETA arity=2\n\
                         -5.5 B \n-7.25 \n\nVAR B\n-3 \n";

    fn err(text: &str) -> String {
        parse_pss(Path::new("t.pss"), text)
            .expect_err("the text is invalid")
            .to_string()
    }

    #[test]
    fn reads_meta_variables_and_scores() {
        let f = parse_pss(Path::new("t.pss"), SMALL).unwrap();
        assert_eq!(f.table.names(), ["A", "B"]);
        assert_eq!(f.table.candidates(0)[0].parents.to_vec(), vec![1]);
        assert_eq!(f.table.candidates(0)[1].score, -7.25);
        assert_eq!(f.meta.len(), 3);
        assert_eq!(
            f.meta[2],
            Meta {
                variable: Some(0),
                key: "arity".into(),
                value: "2".into()
            }
        );
        assert_eq!(f.meta[0].value, "0.1");
    }

    #[test]
    fn round_trips() {
        let f = parse_pss(Path::new("t.pss"), SMALL).unwrap();
        let mut out = Vec::new();
        write_pss(&f.table, &mut out).unwrap();
        let g = parse_pss(Path::new("u.pss"), std::str::from_utf8(&out).unwrap()).unwrap();
        assert_eq!(f.table, g.table);
    }

    #[test]
    fn rejects_names_the_writer_cannot_write() {
        // Names `write_pss` refuses (see the jkl reader's test of the same name).
        assert_eq!(
            err("VAR #x\n-1\n"),
            "t.pss:1: variable name `#x` starts with `#`, which starts a comment in score files"
        );
        assert!(err("VAR a\u{b}b\n-1\n").contains("U+000B"));
    }

    #[test]
    fn rejects_bad_files() {
        assert!(err("").contains("no `VAR` line"));
        assert!(err("-1 A\n").contains("t.pss:1: a parent-set line before the first `VAR`"));
        assert!(err("VAR A\nMETA arity\n-1\n").contains("t.pss:2: expected `META key=value`"));
        assert!(err("VAR A B\n-1\n").contains("t.pss:1: expected `VAR name`"));
        assert!(err("VAR A\nVAR B\n-1\n").contains("t.pss:1: variable `A` has no parent-set line"));
        assert!(err("VAR A\nfoo\n").contains("t.pss:2: expected `META`, `VAR`"));
        assert!(err("VAR A\ninf\n").contains("t.pss:2: the score `inf` is not a finite number"));
        assert!(err("META num_variables=3\nVAR A\n-1\n").contains("t.pss:1: num_variables is 3"));
        assert!(err("VAR A\n-1 C\n").contains("t.pss:2: unknown parent `C`"));
        assert!(err("VAR A\n-1 A\n").contains("t.pss:2: variable `A` lists itself"));
        assert!(err("VAR A\n-1\nVAR A\n-1\n").contains("t.pss:3: variable `A` has a second block"));
    }
}
