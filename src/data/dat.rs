//! Whitespace-separated data files with declared arities, in the three layouts found
//! in the wild (values are 0-based codes, or state names as in GOBNILP's
//! `discrete.dat`; see [`super::coding`] for how they become states):
//!
//! - [`DatLayout::Gobnilp`] — GOBNILP/BLIP `.dat`: line 1 the names, line 2 the
//!   arities, then one row per sample.
//! - [`DatLayout::BlipOld`] — BLIP's older form: line 1 the number of variables n,
//!   line 2 the names, line 3 the arities, line 4 the number of rows N, then N rows.
//! - [`DatLayout::Twilp`] — TWILP's input: n, the arities, N, then N rows; the
//!   variables are named `0`, `1`, ….
//!
//! Blank lines are skipped everywhere; line numbers in errors are the file's.

use super::coding::{build, code_rows, data_lines};
use super::csv::{
    column_decls, declared_columns, first_duplicate, parse_arities, positional_names,
};
use super::dataset::{DataSet, Variable};
use crate::error::InputError;
use std::path::Path;

/// The layout of a whitespace-separated data file (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DatLayout {
    /// Names, arities, rows.
    Gobnilp,
    /// n, names, arities, N, rows.
    BlipOld,
    /// n, arities, N, rows.
    Twilp,
}

/// The layout of a file whose non-blank lines are `rows`:
///
/// - a first line that is not one single integer: [`DatLayout::Gobnilp`];
/// - a first line holding one integer n ≥ 2: [`DatLayout::BlipOld`] when the third
///   line has n values (the arities after the names), else [`DatLayout::Twilp`];
/// - n = 1 (or less): [`DatLayout::Twilp`] when the second line is an integer (an
///   arity), else [`DatLayout::BlipOld`] (a name).
///
/// A GOBNILP file over a single variable whose name is an integer is therefore taken
/// for a counted form; name the layout explicitly for such a file.
pub fn detect_dat_layout(rows: &[(usize, &str)]) -> DatLayout {
    let tokens = |i: usize| {
        rows.get(i).map_or(Vec::new(), |(_, l)| {
            l.split_ascii_whitespace().collect::<Vec<_>>()
        })
    };
    let first = tokens(0);
    let n = match first.as_slice() {
        [one] => match one.parse::<usize>() {
            Ok(n) => n,
            Err(_) => return DatLayout::Gobnilp,
        },
        _ => return DatLayout::Gobnilp,
    };
    let names_follow = if n >= 2 {
        tokens(2).len() == n
    } else {
        tokens(1)
            .first()
            .is_none_or(|t| t.parse::<usize>().is_err())
    };
    if names_follow {
        DatLayout::BlipOld
    } else {
        DatLayout::Twilp
    }
}

/// Reads whitespace-separated data `text` (from `path`, for errors) in `layout`
/// (detected when `None`). With `declared` variables, columns are matched to them by
/// name (by position for [`DatLayout::Twilp`]), the file's arities must agree with
/// theirs, and values may be their state names.
pub fn parse_dat(
    text: &str,
    path: &Path,
    layout: Option<DatLayout>,
    declared: Option<&[Variable]>,
) -> Result<DataSet, InputError> {
    let rows = data_lines(text);
    if rows.is_empty() {
        return Err(InputError::file(path, "the file is empty (no rows)"));
    }
    let layout = layout.unwrap_or_else(|| detect_dat_layout(&rows));
    let mut next = Lines {
        rows: &rows,
        at: 0,
        path,
    };
    let (names, first_line) = match layout {
        DatLayout::Gobnilp => {
            let (line, text) = next.line("the line of variable names")?;
            (
                text.split_ascii_whitespace()
                    .map(str::to_string)
                    .collect::<Vec<_>>(),
                line,
            )
        }
        DatLayout::BlipOld => {
            let (n, _) = next.count("the number of variables")?;
            let (line, text) = next.line("the line of variable names")?;
            let names: Vec<String> = text.split_ascii_whitespace().map(str::to_string).collect();
            if names.len() != n {
                return Err(InputError::at(
                    path,
                    line,
                    format!("expected {n} variable names, found {}", names.len()),
                ));
            }
            (names, line)
        }
        DatLayout::Twilp => {
            let (n, line) = next.count("the number of variables")?;
            // The count is only a number: names are made for the variables the line of
            // arities shows, so a huge count costs nothing before it is refused.
            next.check_arity_count(n)?;
            (positional_names(n, declared, path, line)?, line)
        }
    };
    check_names(&names, path, first_line)?;
    let (arity_line, arity_text) = next.line("the line of arities")?;
    let arities = parse_arities(
        arity_text.split_ascii_whitespace(),
        names.len(),
        path,
        arity_line,
    )?;
    let declared_rows = match layout {
        DatLayout::Gobnilp => None,
        DatLayout::BlipOld | DatLayout::Twilp => Some(next.count("the number of rows")?),
    };
    let data = &rows[next.at..];
    if let Some((count, line)) = declared_rows {
        if count != data.len() {
            let cause = format!("the file declares {count} rows but holds {}", data.len());
            return Err(InputError::at(path, line, cause));
        }
    }
    let vars = declared_columns(&names, declared, path, first_line)?;
    let decls = column_decls(names.len(), &vars, Some(&(arity_line, arities)), path)?;
    let coders = code_rows(data, &names, str::split_ascii_whitespace, path)?;
    build(coders, &decls, path, rows[rows.len() - 1].0)
}

/// Variable names must be non-empty and pairwise distinct.
fn check_names(names: &[String], path: &Path, line: usize) -> Result<(), InputError> {
    if names.is_empty() {
        return Err(InputError::at(path, line, "no variables"));
    }
    match first_duplicate(names.iter().map(String::as_str)) {
        Some(name) => Err(InputError::at(
            path,
            line,
            format!("duplicate variable name `{name}`"),
        )),
        None => Ok(()),
    }
}

/// The header lines of a file, consumed in order.
struct Lines<'r, 'a> {
    rows: &'r [(usize, &'a str)],
    at: usize,
    path: &'r Path,
}

impl<'a> Lines<'_, 'a> {
    /// Checks that the next line (the line of arities, not consumed) has `n` values:
    /// the variables a header declares must be there, and so must that line.
    fn check_arity_count(&self, n: usize) -> Result<(), InputError> {
        let Some(&(line, text)) = self.rows.get(self.at) else {
            let last = self.rows.last().map_or(1, |r| r.0);
            return Err(InputError::at(
                self.path,
                last,
                "the file ends before the line of arities",
            ));
        };
        let shown = text.split_ascii_whitespace().count();
        if shown == n {
            return Ok(());
        }
        let cause =
            format!("the file declares {n} variables but its line of arities has {shown} values");
        Err(InputError::at(self.path, line, cause))
    }

    /// The next line, or an error saying the file ends before `what`.
    fn line(&mut self, what: &str) -> Result<(usize, &'a str), InputError> {
        match self.rows.get(self.at) {
            Some(&row) => {
                self.at += 1;
                Ok(row)
            }
            None => {
                let last = self.rows.last().map_or(1, |r| r.0);
                Err(InputError::at(
                    self.path,
                    last,
                    format!("the file ends before {what}"),
                ))
            }
        }
    }

    /// The next line as one positive integer (`what`), with its line number.
    fn count(&mut self, what: &str) -> Result<(usize, usize), InputError> {
        let (line, text) = self.line(what)?;
        match text.parse::<usize>() {
            Ok(n) if n > 0 => Ok((n, line)),
            _ => Err(InputError::at(
                self.path,
                line,
                format!("expected {what} (a positive integer), found `{text}`"),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<DataSet, InputError> {
        parse_dat(text, Path::new("d.dat"), None, None)
    }

    fn err(text: &str) -> String {
        read(text).unwrap_err().to_string()
    }

    #[test]
    fn gobnilp_layout_with_codes_and_names() {
        let d = read("A B\n3 2\n0 1\n2 0\n").unwrap();
        assert_eq!(d.names(), ["A", "B"]);
        assert_eq!(d.arities(), [3, 2]);
        assert_eq!(d.column(0), [0, 2]);
        let d = read("A B\n3 2\nb a\na a\n").unwrap();
        assert_eq!(d.variables()[0].states, ["a", "b", "2"]);
        assert_eq!(d.column(0), [1, 0]);
    }

    #[test]
    fn counted_layouts() {
        let d = read("2\nX Y\n2 3\n2\n0 2\n1 0\n").unwrap();
        assert_eq!(d.names(), ["X", "Y"]);
        assert_eq!(d.arities(), [2, 3]);
        let d = read("2\n2 3\n2\n0 2\n1 0\n").unwrap();
        assert_eq!(d.names(), ["0", "1"]);
        assert_eq!(d.column(1), [2, 0]);
        let d = read("1\n2\n1\n1\n").unwrap();
        assert_eq!((d.names(), d.n_rows()), (vec!["0".to_string()], 1));
        let d = read("1\nX\n2\n1\n1\n").unwrap();
        assert_eq!(d.names(), ["X"]);
    }

    #[test]
    fn bad_inputs_name_line_and_cause() {
        assert_eq!(err("\n\n"), "d.dat: the file is empty (no rows)");
        assert_eq!(
            err("A B\n"),
            "d.dat:1: the file ends before the line of arities"
        );
        assert_eq!(err("A B\n2 2\n"), "d.dat:2: the data set has no data rows");
        assert_eq!(
            err("A B\n2 2 2\n0 0\n"),
            "d.dat:2: expected 2 arities, found 3"
        );
        assert_eq!(
            err("A B\n2 0\n0 0\n"),
            "d.dat:2: `0` is not an arity (an integer from 1 to 256)"
        );
        assert_eq!(
            err("A B\n2 2\n0 0\n0 1 1\n"),
            "d.dat:4: expected 2 values, found 3"
        );
        assert_eq!(
            err("A B\n2 2\n0 0\n\n0 2\n"),
            "d.dat:5: value 2 of `B` is not below its declared arity 2"
        );
        assert_eq!(
            err("A A\n2 2\n0 0\n"),
            "d.dat:1: duplicate variable name `A`"
        );
        assert_eq!(
            err("2\n2 2\n3\n0 0\n"),
            "d.dat:3: the file declares 3 rows but holds 1"
        );
        assert_eq!(
            err("2\nX Y Z\n2 2\n1\n0 0\n"),
            "d.dat:2: expected 2 variable names, found 3"
        );
    }

    #[test]
    fn a_twilp_count_without_its_arities_is_refused_before_names_are_made() {
        // Found by the `data_dat` and `data_twilp` fuzz targets: with no line after it,
        // the count of variables was taken at its word and that many names were made.
        let twilp = |text: &str| {
            parse_dat(text, Path::new("d.dat"), Some(DatLayout::Twilp), None)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            twilp(" 143021430\n"),
            "d.dat:1: the file ends before the line of arities"
        );
        assert_eq!(
            err("80088080"),
            "d.dat:1: the file ends before the line of arities"
        );
        assert_eq!(
            err("\n18446744073709551615\n\n"),
            "d.dat:2: the file ends before the line of arities"
        );
        assert_eq!(
            twilp("3\n2 2\n"),
            "d.dat:2: the file declares 3 variables but its line of arities has 2 values"
        );
    }

    #[test]
    fn declared_network_must_agree_with_file_arities() {
        let vars = vec![Variable::with_arity("A", 2), Variable::with_arity("B", 3)];
        let d = parse_dat("B A\n3 2\n2 1\n", Path::new("d.dat"), None, Some(&vars)).unwrap();
        assert_eq!(d.column(0), [2]);
        let e = parse_dat("A B\n2 2\n0 1\n", Path::new("d.dat"), None, Some(&vars)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "d.dat:2: the file declares arity 2 for `B` but the network has 3"
        );
    }
}
