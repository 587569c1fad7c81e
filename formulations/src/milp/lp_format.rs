//! The CPLEX LP file format (SPEC C11), read by CPLEX, Gurobi, HiGHS, SCIP and CBC.
//!
//! Layout: a comment, `Maximize`/`Minimize`, the objective `obj:`, `Subject To` with one
//! row per line, `Bounds`, `Binaries`, `Generals`, `End`. Choices made for portability:
//!
//! - Every variable appears in the objective, with coefficient `0` if it has none, so
//!   that readers (which number columns by first appearance) keep the model's column
//!   order and know every variable.
//! - A ranged row `lower <= a·x <= upper` becomes two rows, `name_lo: a·x >= lower` and
//!   `name_hi: a·x <= upper`, since the LP range syntax is not read alike by all
//!   solvers. Free rows (both sides infinite) are left out; a row without terms is
//!   written with the term `0 v` of the first variable.
//! - Binary variables (integer with bounds [0, 1]) are listed under `Binaries` without
//!   a bound line; other integer variables under `Generals`. Bounds other than the
//!   default [0, +inf) are written explicitly: `x free`, `x = v`, `x >= l`,
//!   `-inf <= x <= u`, `l <= x <= u`.
//! - Names are spelt as in [`tokens`](super::tokens) (row names separately from
//!   variable names, and never `obj`); numbers in full precision.
//! - Lines are wrapped before 80 characters where a term ends; no line comes near the
//!   560 characters CPLEX allows, since a name has at most
//!   [`MAX_NAME_LEN`](super::tokens::MAX_NAME_LEN) characters.

use super::tokens::{column_names, format_number, UniqueNames};
use super::{MilpModel, RowKind, Sense};
use std::io::{self, Write};

/// Label of the objective.
const OBJECTIVE: &str = "obj";

/// Lines are broken before a token that would take them past this width.
const WIDTH: usize = 79;

/// Writes `model` in CPLEX LP format (see the module documentation for the layout).
///
/// Fails with [`io::ErrorKind::InvalidInput`] when the model has a row without terms
/// but no variable to write it with, and otherwise only when `out` fails.
pub fn write_lp(model: &MilpModel, out: &mut impl Write) -> io::Result<()> {
    let columns = column_names(model);
    writeln!(
        out,
        "\\ bnsl MILP model: {} variables, {} rows",
        model.num_vars(),
        model.num_rows()
    )?;
    writeln!(
        out,
        "{}",
        match model.sense() {
            Sense::Maximize => "Maximize",
            Sense::Minimize => "Minimize",
        }
    )?;
    let objective = model
        .variables()
        .iter()
        .enumerate()
        .map(|(j, v)| (j, v.objective));
    write_wrapped(
        out,
        &expression(&format!("{OBJECTIVE}:"), &columns, objective),
    )?;
    writeln!(out, "Subject To")?;
    write_rows(model, &columns, out)?;
    write_bounds(model, &columns, out)?;
    write_integers(model, &columns, out)?;
    writeln!(out, "End")
}

/// The tokens `head c1 x1 + c2 x2 …` of a linear expression, one token per term so
/// that a line break never splits a term.
fn expression(
    head: &str,
    columns: &[String],
    terms: impl IntoIterator<Item = (usize, f64)>,
) -> Vec<String> {
    let mut tokens = vec![head.to_string()];
    for (j, c) in terms {
        let name = &columns[j];
        let token = match (tokens.len() == 1, c < 0.0) {
            (true, false) => format!("{} {name}", format_number(c)),
            (true, true) => format!("-{} {name}", format_number(-c)),
            (false, false) => format!("+ {} {name}", format_number(c)),
            (false, true) => format!("- {} {name}", format_number(-c)),
        };
        tokens.push(token);
    }
    tokens
}

/// Writes tokens separated by spaces on a line indented by one space, starting a new
/// line (indented by two) before a token that would take the current one past
/// [`WIDTH`].
fn write_wrapped(out: &mut impl Write, tokens: &[String]) -> io::Result<()> {
    let mut line = String::from(" ");
    let mut fresh = true;
    for token in tokens {
        if !fresh && line.len() + 1 + token.len() > WIDTH {
            writeln!(out, "{line}")?;
            line = String::from("  ");
            fresh = true;
        }
        if !fresh {
            line.push(' ');
        }
        line.push_str(token);
        fresh = false;
    }
    writeln!(out, "{line}")
}

/// Writes the non-free rows, ranged rows as two rows, with unique row names.
fn write_rows(model: &MilpModel, columns: &[String], out: &mut impl Write) -> io::Result<()> {
    let mut names = UniqueNames::with_reserved(&[OBJECTIVE]);
    for row in model.rows() {
        let sides: Vec<(String, &str, f64)> = match row.kind() {
            RowKind::Free => continue,
            RowKind::Equal(rhs) => vec![(row.name.clone(), "=", rhs)],
            RowKind::AtMost(rhs) => vec![(row.name.clone(), "<=", rhs)],
            RowKind::AtLeast(rhs) => vec![(row.name.clone(), ">=", rhs)],
            RowKind::Ranged(lower, upper) => vec![
                (format!("{}_lo", row.name), ">=", lower),
                (format!("{}_hi", row.name), "<=", upper),
            ],
        };
        let terms: Vec<(usize, f64)> = if row.coefficients.is_empty() {
            if columns.is_empty() {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "row `{}` has no terms and the model no variable to write it with",
                        row.name
                    ),
                ));
            }
            vec![(0, 0.0)]
        } else {
            row.coefficients
                .iter()
                .map(|&(v, c)| (v.index(), c))
                .collect()
        };
        for (raw_name, relation, rhs) in sides {
            let head = format!("{}:", names.claim(&raw_name));
            let mut tokens = expression(&head, columns, terms.iter().copied());
            tokens.push(format!("{relation} {}", format_number(rhs)));
            write_wrapped(out, &tokens)?;
        }
    }
    Ok(())
}

/// Whether a variable is written as a binary: integer with bounds exactly [0, 1].
fn is_binary(lower: f64, upper: f64, integer: bool) -> bool {
    integer && lower == 0.0 && upper == 1.0
}

/// The bound line of a variable, or `None` for the default bounds [0, +inf).
fn bound_line(name: &str, lower: f64, upper: f64) -> Option<String> {
    let (l, u) = (lower.is_finite(), upper.is_finite());
    Some(match (l, u) {
        (true, false) if lower == 0.0 => return None,
        (false, false) => format!(" {name} free"),
        (true, true) if lower == upper => format!(" {name} = {}", format_number(lower)),
        (true, false) => format!(" {name} >= {}", format_number(lower)),
        (false, true) => format!(" -inf <= {name} <= {}", format_number(upper)),
        (true, true) => format!(
            " {} <= {name} <= {}",
            format_number(lower),
            format_number(upper)
        ),
    })
}

/// Writes the `Bounds` section (always, possibly empty).
fn write_bounds(model: &MilpModel, columns: &[String], out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "Bounds")?;
    for (v, name) in model.variables().iter().zip(columns) {
        if is_binary(v.lower, v.upper, v.integer) {
            continue;
        }
        if let Some(line) = bound_line(name, v.lower, v.upper) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}

/// Writes the `Binaries` and `Generals` sections, each only when it has variables.
fn write_integers(model: &MilpModel, columns: &[String], out: &mut impl Write) -> io::Result<()> {
    let (mut binaries, mut generals) = (Vec::new(), Vec::new());
    for (v, name) in model.variables().iter().zip(columns) {
        if is_binary(v.lower, v.upper, v.integer) {
            binaries.push(name.clone());
        } else if v.integer {
            generals.push(name.clone());
        }
    }
    for (section, names) in [("Binaries", binaries), ("Generals", generals)] {
        if !names.is_empty() {
            writeln!(out, "{section}")?;
            write_wrapped(out, &names)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::milp::tokens::MAX_NAME_LEN;

    fn lp_text(model: &MilpModel) -> String {
        let mut buffer = Vec::new();
        write_lp(model, &mut buffer).unwrap();
        String::from_utf8(buffer).unwrap()
    }

    #[test]
    fn writes_every_row_and_bound_kind() {
        let mut m = MilpModel::new(Sense::Maximize);
        let x = m.add_binary("x", 3.0).unwrap();
        let y = m.add_integer("y", -2.0, 5.0, 1.0).unwrap();
        let z = m.add_continuous("z", 0.0, f64::INFINITY, -0.5).unwrap();
        let f = m
            .add_continuous("free var", f64::NEG_INFINITY, f64::INFINITY, 0.0)
            .unwrap();
        let u = m.add_continuous("u", f64::NEG_INFINITY, -1.5, 0.1).unwrap();
        let l = m.add_continuous("l", -4.0, f64::INFINITY, 0.0).unwrap();
        let fixed = m.add_continuous("fixed", 2.0, 2.0, 1.0).unwrap();
        let n = m.add_integer("n", 0.0, f64::INFINITY, 0.0).unwrap();
        let b = m.add_continuous("box", 0.0, 7.0, 0.0).unwrap();
        m.add_le("cap", [(x, 2.0), (y, 1.0)], 4.0).unwrap();
        m.add_row("range", [(z, 1.0), (y, -1.0)], -1.0, 1.5)
            .unwrap();
        m.add_eq("fix", [(x, 1.0), (z, 1.0)], 1.0).unwrap();
        m.add_ge("cover", [(f, 1.0), (u, -1.0), (l, 1.0)], -0.1)
            .unwrap();
        m.add_row("ignored", [(n, 1.0)], f64::NEG_INFINITY, f64::INFINITY)
            .unwrap();
        m.add_row("empty", [], -1.0, 1.0).unwrap();
        m.add_le("fixed", [(fixed, 1.0), (b, 1.0)], 9.0).unwrap();
        let expected = "\
\\ bnsl MILP model: 9 variables, 7 rows
Maximize
 obj: 3 x + 1 y - 0.5 z + 0 free_var + 0.1 u + 0 l + 1 fixed + 0 n + 0 box
Subject To
 cap: 2 x + 1 y <= 4
 range_lo: -1 y + 1 z >= -1
 range_hi: -1 y + 1 z <= 1.5
 fix: 1 x + 1 z = 1
 cover: 1 free_var - 1 u + 1 l >= -0.1
 empty_lo: 0 x >= -1
 empty_hi: 0 x <= 1
 fixed: 1 fixed + 1 box <= 9
Bounds
 -2 <= y <= 5
 free_var free
 -inf <= u <= -1.5
 l >= -4
 fixed = 2
 0 <= box <= 7
Binaries
 x
Generals
 y n
End
";
        assert_eq!(lp_text(&m), expected);
    }

    #[test]
    fn writes_minimisation_and_unique_names() {
        let mut m = MilpModel::new(Sense::Minimize);
        let a = m.add_continuous("a", 0.0, 1.0, 1.0 / 3.0).unwrap();
        let b = m.add_continuous("a", 0.0, 1.0, -1e-7).unwrap();
        m.add_ge("obj", [(a, 1.0)], 0.25).unwrap();
        m.add_row("r", [(a, 1.0), (b, 1.0)], 0.1, 0.3).unwrap();
        m.add_le("r_lo", [(b, 1.0)], 0.5).unwrap();
        let expected = "\
\\ bnsl MILP model: 2 variables, 3 rows
Minimize
 obj: 0.3333333333333333 a - 1e-7 a_1
Subject To
 obj_1: 1 a >= 0.25
 r_lo: 1 a + 1 a_1 >= 0.1
 r_hi: 1 a + 1 a_1 <= 0.3
 r_lo_1: 1 a_1 <= 0.5
Bounds
 0 <= a <= 1
 0 <= a_1 <= 1
End
";
        assert_eq!(lp_text(&m), expected);
    }

    #[test]
    fn wraps_long_rows() {
        let mut m = MilpModel::new(Sense::Maximize);
        let long = "v".repeat(255);
        let vars: Vec<_> = (0..200)
            .map(|j| {
                let name = if j % 50 == 0 {
                    long.clone()
                } else {
                    format!("x{j}")
                };
                m.add_binary(name, -123456.789 - j as f64).unwrap()
            })
            .collect();
        m.add_le(long.clone(), vars.iter().map(|&v| (v, 1.0 / 7.0)), f64::MAX)
            .unwrap();
        let text = lp_text(&m);
        let longest = text.lines().map(str::len).max().unwrap();
        assert!(longest <= 560, "a line has {longest} characters");
        assert!(text.lines().count() > 50, "long expressions are wrapped");
        // Wrapping keeps every term whole: each term is `sign coefficient name`.
        let row: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.starts_with("Subject To"))
            .skip(1)
            .take_while(|l| !l.starts_with("Bounds"))
            .flat_map(str::split_whitespace)
            .collect();
        assert_eq!(row[0], format!("{}:", &long[..MAX_NAME_LEN]));
        assert_eq!(row.len(), 1 + 2 + 3 * 199 + 2);
        assert_eq!(row[row.len() - 1], format_number(f64::MAX));
        for term in row[3..row.len() - 2].chunks(3) {
            assert_eq!((term[0], term[1]), ("+", "0.14285714285714285"));
        }
    }

    #[test]
    fn rejects_a_termless_row_without_variables() {
        let mut m = MilpModel::new(Sense::Minimize);
        m.add_row("free", [], f64::NEG_INFINITY, f64::INFINITY)
            .unwrap();
        let text = lp_text(&m);
        assert!(text.contains(" obj:\nSubject To\nBounds\nEnd\n"), "{text}");
        m.add_ge("impossible", [], 1.0).unwrap();
        let err = write_lp(&m, &mut Vec::new()).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        assert!(err.to_string().contains("impossible"), "{err}");
    }
}
