//! GOBNILP/Jaakkola jkl score files and the variants met in the wild.
//!
//! The form is: a line with the number of variables `n`, then `n` blocks, each a header
//! `VAR k` followed by `k` lines `score m p1 … pm` (natural-log score, higher is better,
//! then the number of parents and the parents).
//!
//! Read as well:
//! - `#` comment lines anywhere (BLIP writes its settings there) and blank lines;
//! - variables and parents given as 0-based indices or as names. **Rule:** when every
//!   block header is a canonical decimal index (digits, no leading zero) and the headers
//!   are exactly `0..n` in some order, the file is index-based: variable `i` is the block
//!   headed `i`, named `"i"`, and parent tokens are indices. Otherwise variables are
//!   numbered in block order, named by their headers, and each parent token must equal one
//!   of the headers. GOBNILP's reader also numbers variables in block order and matches
//!   parent tokens against the headers as strings, so both rules give the same network
//!   for every file GOBNILP accepts; the index rule only keeps a permuted index file's own
//!   numbering (which its constraint section refers to). Consequence: a table whose names
//!   are the integers `0..n` in a non-identity order is read back in numeric order;
//! - a trailing MINOBS-anc constraint section after the `n` blocks: a count `c`, then `c`
//!   lines `a b` with 0-based indices. It is kept in [`ScoreFile::ancestral_constraints`]
//!   and does not change the table;
//! - scores with any number of decimals, trailing spaces, CRLF line ends.
//!
//! Anything else is rejected with file, line and cause.

use super::families::{assemble, Numbering, RawBlock, RawFamily};
use super::lines::DataLines;
use super::{NameStyle, ScoreFile, ScoreFormat};
use crate::input::{read_text, InputError};
use crate::score_table::score_problem;
use crate::ScoreTable;
use std::io::{self, Write};
use std::path::Path;

/// Reads a jkl score file (`.gz` is gunzipped first).
pub fn read_jkl(path: &Path) -> Result<ScoreFile, InputError> {
    parse_jkl(path, &read_text(path)?)
}

/// Parses jkl text; `path` is only used to name the source in errors.
pub fn parse_jkl(path: &Path, text: &str) -> Result<ScoreFile, InputError> {
    let mut lines = DataLines::new(text);
    let (n_line, n) = read_count(path, &mut lines)?;
    let mut blocks = Vec::new();
    for b in 0..n {
        blocks.push(read_block(path, &mut lines, b, n)?);
    }
    let ancestral_constraints = read_constraints(path, &mut lines, n, n_line)?;
    let numbering = Numbering::detect(&blocks);
    let table = assemble(path, &blocks, &numbering)?;
    Ok(ScoreFile {
        table,
        format: ScoreFormat::Jkl,
        naming: numbering.style(),
        ancestral_constraints,
        comments: lines.comments,
        meta: Vec::new(),
    })
}

/// The first data line: the number of variables.
fn read_count(path: &Path, lines: &mut DataLines<'_>) -> Result<(usize, usize), InputError> {
    let Some((line, text)) = lines.next() else {
        return Err(InputError::file(
            path,
            "no data: expected the number of variables on the first line",
        ));
    };
    match single_integer(text) {
        Some(0) => Err(InputError::at(path, line, "the number of variables is 0")),
        Some(n) => Ok((line, n)),
        None => Err(InputError::at(
            path,
            line,
            format!("expected the number of variables (one non-negative integer), found `{text}`"),
        )),
    }
}

/// `text` as one non-negative integer and nothing else.
fn single_integer(text: &str) -> Option<usize> {
    let mut tokens = text.split_ascii_whitespace();
    let value = tokens.next()?.parse().ok()?;
    tokens.next().is_none().then_some(value)
}

/// Block `b` (0-based) of `n`: its header and its candidate lines.
fn read_block<'a>(
    path: &Path,
    lines: &mut DataLines<'a>,
    b: usize,
    n: usize,
) -> Result<RawBlock<'a>, InputError> {
    let Some((line, text)) = lines.next() else {
        let cause = format!("the file ends after {b} of the {n} variable blocks it announces");
        return Err(InputError::at(path, lines.last, cause));
    };
    let (name, k) =
        parse_header(text).ok_or_else(|| InputError::at(path, line, bad_header(text, b, n)))?;
    if k == 0 {
        let cause = format!(
            "variable `{name}` announces 0 candidate parent sets{}",
            score_hint(name)
        );
        return Err(InputError::at(path, line, cause));
    }
    let mut families = Vec::new();
    for j in 0..k {
        let Some((fline, ftext)) = lines.next() else {
            let cause = format!(
                "the block of variable `{name}` (line {line}) announces {k} parent sets, but the file ends after {j}"
            );
            return Err(InputError::at(path, lines.last, cause));
        };
        let family = parse_family(ftext).map_err(|why| {
            InputError::at(
                path,
                fline,
                format!("parent set {} of {k} of `{name}`: {why}", j + 1),
            )
        })?;
        families.push(RawFamily {
            line: fline,
            ..family
        });
    }
    Ok(RawBlock {
        name,
        line,
        families,
    })
}

/// A header `NAME COUNT`.
fn parse_header(text: &str) -> Option<(&str, usize)> {
    let mut tokens = text.split_ascii_whitespace();
    let name = tokens.next()?;
    let count = tokens.next()?.parse().ok()?;
    tokens.next().is_none().then_some((name, count))
}

/// The cause for a line that should have been block header `b` of `n`.
fn bad_header(text: &str, b: usize, n: usize) -> String {
    let first = text.split_ascii_whitespace().next().unwrap_or("");
    format!(
        "expected the header `NAME COUNT` of variable block {} of {n}, found `{text}`{}",
        b + 1,
        score_hint(first)
    )
}

/// A hint when a header's first token looks like a score rather than a name or index.
fn score_hint(token: &str) -> &'static str {
    if token.parse::<f64>().is_ok() && token.parse::<usize>().is_err() {
        " (this looks like a parent-set line: does the previous block announce too few parent sets?)"
    } else {
        ""
    }
}

/// A candidate line `score m p1 … pm` (the line number is filled in by the caller).
fn parse_family(text: &str) -> Result<RawFamily<'_>, String> {
    let mut tokens = text.split_ascii_whitespace();
    let score_token = tokens.next().unwrap_or("");
    let score: f64 = score_token
        .parse()
        .map_err(|_| format!("the score `{score_token}` is not a number"))?;
    if let Some(problem) = score_problem(score) {
        return Err(format!("the score `{score_token}` {problem}"));
    }
    let m_token = tokens
        .next()
        .ok_or("missing the number of parents after the score")?;
    let m: usize = m_token
        .parse()
        .map_err(|_| format!("the number of parents `{m_token}` is not a non-negative integer"))?;
    let parents: Vec<&str> = tokens.collect();
    if parents.len() != m {
        return Err(format!("announces {m} parents but lists {}", parents.len()));
    }
    Ok(RawFamily {
        line: 0,
        score,
        parents,
    })
}

/// The optional MINOBS-anc section after the blocks: a count, then that many `a b` lines.
fn read_constraints(
    path: &Path,
    lines: &mut DataLines<'_>,
    n: usize,
    n_line: usize,
) -> Result<Vec<(usize, usize)>, InputError> {
    let Some((line, text)) = lines.next() else {
        return Ok(Vec::new());
    };
    let count = single_integer(text).ok_or_else(|| {
        let cause = format!(
            "unexpected `{text}` after the {n} variable blocks announced at line {n_line}: expected the end of \
             the file or a constraint section (a count, then that many lines `a b`)"
        );
        InputError::at(path, line, cause)
    })?;
    let mut pairs = Vec::new();
    for j in 0..count {
        let Some((pline, ptext)) = lines.next() else {
            let cause =
                format!("the constraint section (line {line}) announces {count} pairs, but the file ends after {j}");
            return Err(InputError::at(path, lines.last, cause));
        };
        pairs.push(parse_pair(ptext, n).map_err(|why| InputError::at(path, pline, why))?);
    }
    if let Some((extra, etext)) = lines.next() {
        let cause = format!(
            "unexpected `{etext}` after the {count} constraint pairs announced at line {line}"
        );
        return Err(InputError::at(path, extra, cause));
    }
    Ok(pairs)
}

/// A constraint line `a b` with both indices below `n`.
fn parse_pair(text: &str, n: usize) -> Result<(usize, usize), String> {
    let tokens: Vec<&str> = text.split_ascii_whitespace().collect();
    let index = |t: &str| t.parse::<usize>().ok().filter(|&i| i < n);
    match tokens[..] {
        [a, b] => match (index(a), index(b)) {
            (Some(a), Some(b)) => Ok((a, b)),
            _ => Err(format!(
                "constraint `{text}`: expected two variable indices in 0..{}",
                n - 1
            )),
        },
        _ => Err(format!(
            "constraint `{text}`: expected two variable indices `a b`"
        )),
    }
}

/// Writes `table` in GOBNILP's jkl form: `n`, then per variable `NAME k` and `k` lines
/// `score m p1 … pm`, candidates best first, parents in increasing index order.
///
/// Scores are printed with Rust's shortest round-trip formatting (`{}` for `f64`): the
/// fewest digits that parse back to the identical `f64`, so reading the output gives the
/// same table bit for bit, and scores read from a 4- or 8-decimal file are written with
/// those same digits. With [`NameStyle::Names`], a name that is empty, contains
/// whitespace or starts with `#` cannot be written and gives an `InvalidInput` error.
pub fn write_jkl<W: Write + ?Sized>(
    table: &ScoreTable,
    w: &mut W,
    style: NameStyle,
) -> io::Result<()> {
    if style == NameStyle::Names {
        check_names(table)?;
    }
    let label = |v: usize| -> String {
        match style {
            NameStyle::Names => table.names()[v].clone(),
            NameStyle::Indices => v.to_string(),
        }
    };
    let labels: Vec<String> = (0..table.n()).map(label).collect();
    writeln!(w, "{}", table.n())?;
    for (v, name) in labels.iter().enumerate() {
        let candidates = table.candidates(v);
        writeln!(w, "{name} {}", candidates.len())?;
        for c in candidates {
            write!(w, "{} {}", c.score, c.parents.len())?;
            for p in c.parents.iter() {
                write!(w, " {}", labels[p])?;
            }
            writeln!(w)?;
        }
    }
    Ok(())
}

/// Fails when a variable name cannot be written as one token of a text score file.
pub(crate) fn check_names(table: &ScoreTable) -> io::Result<()> {
    match table.names().iter().find(|s| s.is_empty() || s.starts_with('#') || s.contains(char::is_whitespace)) {
        Some(bad) => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "variable name `{bad}` cannot be written to a score file (names must be non-empty, contain no \
                 whitespace and not start with `#`); write indices instead"
            ),
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<ScoreFile, InputError> {
        parse_jkl(Path::new("t.jkl"), text)
    }

    fn err(text: &str) -> String {
        parse(text).expect_err("the text is invalid").to_string()
    }

    #[test]
    fn reads_indices_in_any_block_order() {
        let f = parse("3\n2 1\n-3 0\n0 2\n-1.5 1 2\n-2 0\n1 1\n-4 2 0 2\n").unwrap();
        assert_eq!(f.naming, NameStyle::Indices);
        assert_eq!(f.table.names(), ["0", "1", "2"]);
        assert_eq!(f.table.candidates(0)[0].parents.to_vec(), vec![2]);
        assert_eq!(f.table.candidates(1)[0].parents.to_vec(), vec![0, 2]);
        assert_eq!(f.table.candidates(2)[0].score, -3.0);
    }

    #[test]
    fn reads_names_comments_and_constraints() {
        let text = "# BLIP header\n2\n\nb 2\n-1.25 1 a  \n-2 0\na 1\n-7.5 0\n\n1\n0 1\n";
        let f = parse(text).unwrap();
        assert_eq!(f.naming, NameStyle::Names);
        assert_eq!(f.table.names(), ["b", "a"]);
        assert_eq!(f.table.candidates(0)[0].parents.to_vec(), vec![1]);
        assert_eq!(f.comments, ["BLIP header"]);
        assert_eq!(f.ancestral_constraints, [(0, 1)]);
    }

    #[test]
    fn integer_names_not_forming_0_to_n_are_names() {
        let f = parse("2\n1 1\n-1 1 2\n2 1\n-1 0\n").unwrap();
        assert_eq!(f.naming, NameStyle::Names);
        assert_eq!(f.table.names(), ["1", "2"]);
        assert_eq!(f.table.candidates(0)[0].parents.to_vec(), vec![1]);
    }

    #[test]
    fn leading_zero_headers_are_names() {
        let f = parse("2\n00 1\n-1 1 1\n1 1\n-1 0\n").unwrap();
        assert_eq!(f.naming, NameStyle::Names);
        assert_eq!(f.table.names(), ["00", "1"]);
    }

    #[test]
    fn rejects_structural_errors() {
        assert!(err("").contains("expected the number of variables"));
        assert!(err("x\n").contains("t.jkl:1:"));
        assert!(err("0\n").contains("the number of variables is 0"));
        assert!(err("2\na 1\n-1 0\n").contains("ends after 1 of the 2 variable blocks"));
        assert!(err("1\na 3\n-1 0\n-2 0\n")
            .contains("announces 3 parent sets, but the file ends after 2"));
        assert!(err("1\na 0\n").contains("announces 0 candidate"));
        let e = err("2\na 1\n-1 0\n-2 0\nb 1\n-1 0\n");
        assert!(
            e.contains("t.jkl:4:") && e.contains("too few parent sets"),
            "{e}"
        );
        let e = err("2\na 1\n-1 0\n-2 1 b\nb 1\n-1 0\n");
        assert!(
            e.contains("t.jkl:4: expected the header") && e.contains("too few parent sets"),
            "{e}"
        );
        assert!(err("1\na 1\n-1 2 b\n").contains("announces 2 parents but lists 1"));
        assert!(err("1\na 1\nfoo 0\n").contains("the score `foo` is not a number"));
        assert!(err("1\na 1\nNaN 0\n").contains("not a finite number"));
        for huge in ["-1e21", "1e308", "-1.5e13"] {
            let message = err(&format!("1\na 1\n{huge} 0\n"));
            assert!(message.contains("t.jkl:3: "), "{message}");
            let said = format!("the score `{huge}` is beyond ±1e13");
            assert!(message.contains(&said), "{message}");
        }
        assert!(err("1\na 1\n-1 x\n").contains("number of parents `x`"));
    }

    #[test]
    fn rejects_names_the_writer_cannot_write() {
        // Found by the `jkl` fuzz target: a header holding a vertical tab (not ASCII white
        // space, so not a separator here) was read as a name that `write_jkl` refuses.
        assert_eq!(
            err("1\na\u{b}b 1\n-1 0\n"),
            "t.jkl:2: variable name `a\\u{b}b` contains the white space character U+000B; \
             a name is one token"
        );
        let e = err("2\nx 1\n-1 0\ny\u{a0} 1\n-1 0\n");
        assert!(
            e.starts_with("t.jkl:4: variable name `y") && e.contains("U+00A0"),
            "{e}"
        );
    }

    #[test]
    fn rejects_trailing_garbage_and_bad_constraints() {
        assert!(err("1\na 1\n-1 0\nb 1\n").contains("t.jkl:4: unexpected `b 1`"));
        assert!(err("1\na 1\n-1 0\n2\n0 0\n").contains("announces 2 pairs"));
        assert!(err("2\n0 1\n-1 0\n1 1\n-1 0\n1\n0 5\n").contains("t.jkl:7: constraint `0 5`"));
        assert!(err("1\na 1\n-1 0\n1\n0 0\n9\n").contains("t.jkl:6: unexpected `9`"));
    }

    #[test]
    fn write_rejects_unwritable_names() {
        let names = vec!["a b".to_string()];
        let t = ScoreTable::new(
            names,
            vec![vec![crate::Candidate {
                parents: crate::VarSet::empty(1),
                score: 0.0,
            }]],
        )
        .unwrap();
        let e = write_jkl(&t, &mut Vec::new(), NameStyle::Names).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        let mut out = Vec::new();
        write_jkl(&t, &mut out, NameStyle::Indices).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "1\n0 1\n0 0\n");
    }
}
