//! CSV data sets: comma-separated values, one sample per line.
//!
//! Fields are trimmed of surrounding whitespace and of one pair of surrounding double
//! quotes; a quoted field may hold commas (`"a,b"` is one field). Blank lines are
//! skipped; an empty field, or `?` (a common missing-value marker), is an error: missing
//! values are not supported. Values may be integer codes or state names; how they become states is
//! described in [`super::coding`]'s documentation (observed distinct values, or a
//! network's declared states).
//!
//! A file may start with a row of names, and then with a row of arities (the GOBNILP
//! `.dat` layout written with commas, as benchpress ships its data). [`Header`] says
//! which; under [`Header::Auto`] the first rows are classified by [`detect_header`].

use super::coding::{build, code_rows, data_lines, ColumnDecl};
use super::dataset::{DataSet, Variable, MAX_ARITY};
use crate::error::InputError;
use std::path::Path;

/// Whether a CSV file starts with a header row (and a row of arities).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Header {
    /// Decide from the content (see [`detect_header`]).
    #[default]
    Auto,
    /// Every row is data; columns are named `0`, `1`, … (or after the declared
    /// network's variables, matched by position).
    Absent,
    /// The first row names the columns.
    Present,
    /// The first row names the columns and the second declares their arities.
    WithArities,
}

/// The fields of one CSV line, trimmed and unquoted; commas inside a quoted field do
/// not split it.
pub(crate) fn fields(line: &str) -> impl Iterator<Item = &str> {
    Fields { rest: Some(line) }
}

/// The iterator of [`fields`]: `rest` is the part of the line not split yet.
struct Fields<'a> {
    rest: Option<&'a str>,
}

impl<'a> Iterator for Fields<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let rest = self.rest?;
        let start = rest.trim_start();
        if let Some((quoted, after)) = start
            .strip_prefix('"')
            .and_then(|inner| inner.split_once('"'))
        {
            self.rest = after.split_once(',').map(|(_, next)| next);
            return Some(quoted);
        }
        let (field, next) = match rest.split_once(',') {
            Some((field, next)) => (field, Some(next)),
            None => (rest, None),
        };
        self.rest = next;
        Some(field.trim())
    }
}

/// Reads CSV `text` (from `path`, for errors). With `declared` variables, every column
/// must be one of them (matched by name when there is a header, else by position) and
/// takes its declared states.
pub fn parse_csv(
    text: &str,
    path: &Path,
    header: Header,
    declared: Option<&[Variable]>,
) -> Result<DataSet, InputError> {
    let rows = data_lines(text);
    let Some(&(first_line, first)) = rows.first() else {
        return Err(InputError::file(path, "the file is empty (no rows)"));
    };
    let r1: Vec<&str> = fields(first).collect();
    let layout = match header {
        Header::Auto => detect_header(&rows, declared),
        chosen => chosen,
    };
    let names = match layout {
        Header::Absent | Header::Auto => positional_names(r1.len(), declared, path, first_line)?,
        Header::Present | Header::WithArities => header_names(&r1, path, first_line)?,
    };
    let arities = match layout {
        Header::WithArities => Some(arity_row(&rows, names.len(), path)?),
        _ => None,
    };
    let skip = match layout {
        Header::Absent | Header::Auto => 0,
        Header::Present => 1,
        Header::WithArities => 2,
    };
    let vars = declared_columns(&names, declared, path, first_line)?;
    let decls = column_decls(names.len(), &vars, arities.as_ref(), path)?;
    let coders = code_rows(&rows[skip.min(rows.len())..], &names, fields, path)?;
    build(coders, &decls, path, rows[rows.len() - 1].0)
}

/// Classifies the first rows under [`Header::Auto`]:
///
/// 1. [`Header::WithArities`] when there are at least three rows, the first row's fields
///    are pairwise distinct, every field of the second row is an integer ≥ 1, and every
///    value below it is an integer smaller than the second-row value of its column.
/// 2. [`Header::Present`] when the first row's fields are pairwise distinct and, with
///    `declared` variables, all are names of declared variables; without, at least one
///    is not an integer and no such non-integer field occurs below it in its column.
/// 3. [`Header::Absent`] otherwise. A header made only of integers (`0,1,2`) is
///    therefore read as data unless a row of arities follows it: say
///    [`Header::Present`] explicitly for such files.
pub fn detect_header(rows: &[(usize, &str)], declared: Option<&[Variable]>) -> Header {
    let Some(&(_, first)) = rows.first() else {
        return Header::Absent;
    };
    let r1: Vec<&str> = fields(first).collect();
    if first_duplicate(r1.iter().copied()).is_some() {
        // A row of names with one twice (`A,A,C`) is a header with an error, not data.
        return match declared.is_none() && names_unseen_below(rows, &r1) {
            true => Header::Present,
            false => Header::Absent,
        };
    }
    if is_arity_row(rows, r1.len()) {
        return Header::WithArities;
    }
    let present = match declared {
        Some(vars) => r1.iter().all(|f| vars.iter().any(|v| v.name == *f)),
        None => names_unseen_below(rows, &r1),
    };
    if present {
        Header::Present
    } else {
        Header::Absent
    }
}

/// Rule 1 of [`detect_header`]: the second row declares arities the rows below respect.
fn is_arity_row(rows: &[(usize, &str)], n: usize) -> bool {
    if rows.len() < 3 {
        return false;
    }
    let arities: Option<Vec<u64>> = fields(rows[1].1)
        .map(|f| f.parse::<u64>().ok().filter(|&a| a >= 1))
        .collect();
    let Some(arities) = arities.filter(|a| a.len() == n) else {
        return false;
    };
    rows[2..].iter().all(|&(_, line)| {
        fields(line)
            .zip(&arities)
            .all(|(f, &a)| f.parse::<u64>().is_ok_and(|v| v < a))
    })
}

/// Rule 2 of [`detect_header`]: the first row has a non-integer field, and none of its
/// non-integer fields occurs below it in its column.
fn names_unseen_below(rows: &[(usize, &str)], r1: &[&str]) -> bool {
    let names: Vec<usize> = (0..r1.len())
        .filter(|&j| r1[j].parse::<i64>().is_err())
        .collect();
    let mut row: Vec<&str> = Vec::with_capacity(r1.len());
    !names.is_empty()
        && rows[1..].iter().all(|&(_, line)| {
            row.clear();
            row.extend(fields(line));
            names.iter().all(|&j| row.get(j) != Some(&r1[j]))
        })
}

/// Column names without a header: the declared variables' names, or `0`, `1`, ….
pub(crate) fn positional_names(
    n: usize,
    declared: Option<&[Variable]>,
    path: &Path,
    line: usize,
) -> Result<Vec<String>, InputError> {
    match declared {
        None => Ok((0..n).map(|j| j.to_string()).collect()),
        Some(vars) if vars.len() == n => Ok(vars.iter().map(|v| v.name.clone()).collect()),
        Some(vars) => Err(InputError::at(
            path,
            line,
            format!(
                "the data has {n} columns but the declared network has {} variables \
                 (without a header, columns are matched to variables by position)",
                vars.len()
            ),
        )),
    }
}

/// Column names from the header row: non-empty and pairwise distinct.
fn header_names(r1: &[&str], path: &Path, line: usize) -> Result<Vec<String>, InputError> {
    if let Some(j) = r1.iter().position(|name| name.is_empty()) {
        return Err(InputError::at(
            path,
            line,
            format!("column {} has an empty name", j + 1),
        ));
    }
    if let Some(name) = first_duplicate(r1.iter().copied()) {
        return Err(InputError::at(
            path,
            line,
            format!("duplicate column name `{name}`"),
        ));
    }
    Ok(r1.iter().map(|s| s.to_string()).collect())
}

/// The first name that repeats an earlier one, in time linear in the names (a header
/// of 10⁵ columns is checked at once).
pub(crate) fn first_duplicate<'a>(names: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let mut seen = rustc_hash::FxHashSet::default();
    names.into_iter().find(|name| !seen.insert(*name))
}

/// The row of arities after the header: `n` integers in `1..=256`.
fn arity_row(
    rows: &[(usize, &str)],
    n: usize,
    path: &Path,
) -> Result<(usize, Vec<usize>), InputError> {
    let Some(&(line, text)) = rows.get(1) else {
        return Err(InputError::at(
            path,
            rows[0].0,
            "expected a row of arities after the header",
        ));
    };
    parse_arities(fields(text), n, path, line).map(|a| (line, a))
}

/// Parses a line of `n` arities (integers in `1..=256`) at `line`.
pub(crate) fn parse_arities<'a>(
    tokens: impl Iterator<Item = &'a str>,
    n: usize,
    path: &Path,
    line: usize,
) -> Result<Vec<usize>, InputError> {
    let arities = tokens
        .map(|t| match t.parse::<usize>() {
            Ok(a) if (1..=MAX_ARITY).contains(&a) => Ok(a),
            _ => Err(InputError::at(
                path,
                line,
                format!("`{t}` is not an arity (an integer from 1 to {MAX_ARITY})"),
            )),
        })
        .collect::<Result<Vec<_>, _>>()?;
    if arities.len() != n {
        return Err(InputError::at(
            path,
            line,
            format!("expected {n} arities, found {}", arities.len()),
        ));
    }
    Ok(arities)
}

/// The declared variable of each column (matched by name), if a network was declared.
pub(crate) fn declared_columns<'v>(
    names: &[String],
    declared: Option<&'v [Variable]>,
    path: &Path,
    line: usize,
) -> Result<Option<Vec<&'v Variable>>, InputError> {
    let Some(vars) = declared else {
        return Ok(None);
    };
    let matched = names
        .iter()
        .map(|name| {
            vars.iter().find(|v| &v.name == name).ok_or_else(|| {
                InputError::at(
                    path,
                    line,
                    format!("column `{name}` is not a variable of the declared network"),
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some(matched))
}

/// How each of the `n` columns' states are fixed: by the network, else by the file's arities
/// (`(line, arities)`), else observed. File arities must agree with the network's.
pub(crate) fn column_decls<'v>(
    n: usize,
    vars: &Option<Vec<&'v Variable>>,
    arities: Option<&(usize, Vec<usize>)>,
    path: &Path,
) -> Result<Vec<ColumnDecl<'v>>, InputError> {
    match (vars, arities) {
        (Some(vars), Some((line, arities))) => {
            if let Some((v, a)) = vars.iter().zip(arities).find(|(v, &a)| v.arity() != a) {
                let cause = format!(
                    "the file declares arity {a} for `{}` but the network has {}",
                    v.name,
                    v.arity()
                );
                return Err(InputError::at(path, *line, cause));
            }
            Ok(vars.iter().map(|v| ColumnDecl::States(v)).collect())
        }
        (Some(vars), None) => Ok(vars.iter().map(|v| ColumnDecl::States(v)).collect()),
        (None, Some((_, arities))) => Ok(arities.iter().map(|&a| ColumnDecl::Arity(a)).collect()),
        (None, None) => Ok(vec![ColumnDecl::Observed; n]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, header: Header) -> Result<DataSet, InputError> {
        parse_csv(text, Path::new("d.csv"), header, None)
    }

    fn err(text: &str) -> String {
        read(text, Header::Auto).unwrap_err().to_string()
    }

    #[test]
    fn header_with_string_states() {
        let d = read("a,b\nyes,lo\nno,hi\nyes,hi\n", Header::Auto).unwrap();
        assert_eq!(d.names(), ["a", "b"]);
        assert_eq!(d.variables()[0].states, ["no", "yes"]);
        assert_eq!(d.column(0), [1, 0, 1]);
        assert_eq!(d.column(1), [1, 0, 0]);
    }

    #[test]
    fn integer_data_without_header_is_named_by_index() {
        let d = read("0,1\r\n1,1\r\n\r\n2,0\r\n", Header::Auto).unwrap();
        assert_eq!(d.names(), ["0", "1"]);
        assert_eq!(d.n_rows(), 3);
        assert_eq!(d.arities(), [3, 2]);
    }

    #[test]
    fn detection_rules() {
        let rows = |t: &'static str| data_lines(t);
        assert_eq!(
            detect_header(&rows("x,y\n0,1\n1,0\n"), None),
            Header::Present
        );
        assert_eq!(detect_header(&rows("0,1\n1,0\n"), None), Header::Absent);
        assert_eq!(
            detect_header(&rows("no,yes\nyes,no\nno,no\n"), None),
            Header::Absent
        );
        assert_eq!(
            detect_header(&rows("x,no\nyes,no\nno,no\n"), None),
            Header::Absent
        );
        assert_eq!(detect_header(&rows("x,0\n1,0\n"), None), Header::Present);
        assert_eq!(
            detect_header(&rows("yes,no\nyes,no\n"), None),
            Header::Absent
        );
        assert_eq!(
            detect_header(&rows("a,b\n2,3\n0,2\n1,1\n"), None),
            Header::WithArities
        );
        assert_eq!(
            detect_header(&rows("0,1\n2,2\n0,1\n1,0\n"), None),
            Header::WithArities
        );
        assert_eq!(
            detect_header(&rows("a,b\n2,3\n0,3\n"), None),
            Header::Present
        );
    }

    #[test]
    fn explicit_header_overrides_detection() {
        let d = read("0,1\n1,0\n1,1\n", Header::Present).unwrap();
        assert_eq!(d.names(), ["0", "1"]);
        assert_eq!(d.n_rows(), 2);
    }

    #[test]
    fn arity_row_declares_unseen_states() {
        let d = read("a,b\n3,2\n0,1\n1,1\n", Header::Auto).unwrap();
        assert_eq!(d.arities(), [3, 2]);
        let e = read("a,b\n3,2\n0,1\n1,2\n", Header::WithArities)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "d.csv:4: value 2 of `b` is not below its declared arity 2"
        );
        let e = read("a,b\n3,x\n0,1\n", Header::WithArities)
            .unwrap_err()
            .to_string();
        assert_eq!(e, "d.csv:2: `x` is not an arity (an integer from 1 to 256)");
    }

    #[test]
    fn quoted_fields_keep_their_commas() {
        let f: Vec<&str> = fields(r#"a, "b,c" ,"d",e,"f"#).collect();
        assert_eq!(f, ["a", "b,c", "d", "e", "\"f"]);
        let data = read(
            "name,town\n\"x\",\"Paris, TX\"\n\"y\",\"Paris, FR\"\n",
            Header::Auto,
        )
        .unwrap();
        assert_eq!(data.names(), ["name", "town"]);
        assert_eq!(data.arities(), [2, 2]);
    }

    #[test]
    fn bad_inputs_name_line_and_cause() {
        assert_eq!(err(""), "d.csv: the file is empty (no rows)");
        assert_eq!(err("a,b\n"), "d.csv:1: the data set has no data rows");
        assert_eq!(err("a,b\n0,1\n0\n"), "d.csv:3: expected 2 values, found 1");
        assert_eq!(
            err("a,b\n0,1\n0,1,1\n"),
            "d.csv:3: expected 2 values, found 3"
        );
        assert_eq!(
            err("a,b\n0,1\n0,\n"),
            "d.csv:3: empty value for `b`: a missing value; bnsl needs complete data \
             (remove or impute the rows with missing values)"
        );
        assert!(err("a,b\n0,1\n?,1\n").starts_with("d.csv:3: `?` for `a`: a missing value"));
        // A row of names with a name twice is a header in error, not a row of data.
        assert_eq!(
            err("A,A,C\n0,1,0\n1,0,1\n"),
            "d.csv:1: duplicate column name `A`"
        );
        assert_eq!(
            read("a,a\n0,1\n", Header::Present).unwrap_err().to_string(),
            "d.csv:1: duplicate column name `a`"
        );
    }

    #[test]
    fn declared_network_fixes_states_and_checks_columns() {
        let vars = vec![
            Variable {
                name: "a".into(),
                states: vec!["yes".into(), "no".into(), "maybe".into()],
            },
            Variable {
                name: "b".into(),
                states: vec!["lo".into(), "hi".into()],
            },
        ];
        let d = parse_csv(
            "b,a\nhi,no\nhi,yes\n",
            Path::new("d.csv"),
            Header::Auto,
            Some(&vars),
        )
        .unwrap();
        assert_eq!(d.names(), ["b", "a"]);
        assert_eq!(d.arities(), [2, 3]);
        assert_eq!(d.column(1), [1, 0]);
        let d = parse_csv(
            "yes,hi\nno,lo\n",
            Path::new("d.csv"),
            Header::Auto,
            Some(&vars),
        )
        .unwrap();
        assert_eq!(d.names(), ["a", "b"]);
        let e = parse_csv(
            "a,c\nyes,lo\n",
            Path::new("d.csv"),
            Header::Present,
            Some(&vars),
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "d.csv:1: column `c` is not a variable of the declared network"
        );
    }
}
