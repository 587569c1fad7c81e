//! The free MPS file format (SPEC C11), read by CPLEX, Gurobi, HiGHS, SCIP and CBC.
//!
//! Sections: `NAME`, `OBJSENSE` (only when maximising), `ROWS` (the objective row `obj`
//! first), `COLUMNS` (integer columns between `'MARKER'` lines `'INTORG'`/`'INTEND'`),
//! `RHS`, `RANGES`, `BOUNDS`, `ENDATA`; one entry per line. Choices made for
//! portability:
//!
//! - `OBJSENSE` is an extension that fixed-format readers may ignore, reading a
//!   maximisation as a minimisation. [`MaxObjective::Negated`] writes a maximisation
//!   as the minimisation of the negated objective instead: the optimal solutions are
//!   the same and the optimal value changes sign (a comment in the file says so).
//! - A ranged row `lower <= a·x <= upper` is a `G` row with right-hand side `lower` or
//!   an `L` row with right-hand side `upper`, and the width in `RANGES`; readers
//!   rebuild the other side as `rhs ± |width|`. Type and width are chosen so that this
//!   sum gives the other side exactly in `f64` arithmetic whenever some width does
//!   (always when the sides are within a factor 2 of each other); otherwise the
//!   rebuilt side may be off by a rounding error. Free rows are left out.
//! - Every column appears in `COLUMNS`, with an objective entry `0` if it has no
//!   entry at all, so that readers keep the column order and know every column.
//! - Bounds: `BV` for binaries (integer with bounds [0, 1]), `FX` for fixed columns,
//!   `FR` for free ones, else `MI` or `LO` (lower side) before `UP` or `PL` (upper
//!   side), omitting only defaults (lower 0, upper +inf of a continuous column).
//!   Integer columns with no upper bound get an explicit `PL`, since some readers
//!   (HiGHS, for one) make unbounded `INTORG` columns binary.
//! - Names are spelt as in [`tokens`](super::tokens) (no spaces; row names separately
//!   from column names, and never `obj`); numbers in full precision. Lines are far
//!   below the 560 characters CPLEX allows, since a name has at most
//!   [`MAX_NAME_LEN`](super::tokens::MAX_NAME_LEN) characters (CBC's MPS reader takes
//!   fields up to 160 characters, older versions up to 100).

use super::tokens::{column_names, format_number, UniqueNames};
use super::{MilpModel, RowKind, Sense};
use std::io::{self, Write};

/// Name of the objective row.
const OBJECTIVE: &str = "obj";

/// How a maximisation objective is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MaxObjective {
    /// As it is, with an `OBJSENSE MAX` section (free-MPS readers of CPLEX, Gurobi,
    /// HiGHS, SCIP and CBC honour it).
    #[default]
    Objsense,
    /// As the minimisation of the negated objective, for readers that ignore
    /// `OBJSENSE`: the file's optimal value is minus the model's.
    Negated,
}

/// Writes `model` in free MPS format, a maximisation with `OBJSENSE MAX` (see the
/// module documentation for the layout). Fails only when `out` fails or a ranged row
/// is too wide for its width to be a finite number.
pub fn write_mps(model: &MilpModel, out: &mut impl Write) -> io::Result<()> {
    write_mps_with(model, MaxObjective::Objsense, out)
}

/// Writes `model` in free MPS format, a maximisation as `max` says.
pub fn write_mps_with(
    model: &MilpModel,
    max: MaxObjective,
    out: &mut impl Write,
) -> io::Result<()> {
    let columns = column_names(model);
    let rows = row_entries(model)?;
    writeln!(
        out,
        "* bnsl MILP model: {} variables, {} rows",
        model.num_vars(),
        model.num_rows()
    )?;
    let negate = model.sense() == Sense::Maximize && max == MaxObjective::Negated;
    if negate {
        writeln!(
            out,
            "* maximisation written as the minimisation of the negated objective"
        )?;
    }
    writeln!(out, "NAME bnsl")?;
    if model.sense() == Sense::Maximize && !negate {
        writeln!(out, "OBJSENSE\n    MAX")?;
    }
    writeln!(out, "ROWS\n N  {OBJECTIVE}")?;
    for row in rows.iter().flatten() {
        writeln!(out, " {}  {}", row.kind, row.name)?;
    }
    write_columns(model, &columns, &rows, negate, out)?;
    writeln!(out, "RHS")?;
    for row in rows.iter().flatten().filter(|r| r.rhs != 0.0) {
        writeln!(out, "    RHS {} {}", row.name, format_number(row.rhs))?;
    }
    let ranged: Vec<&RowEntry> = rows
        .iter()
        .flatten()
        .filter(|r| r.range.is_some())
        .collect();
    if !ranged.is_empty() {
        writeln!(out, "RANGES")?;
        for row in ranged {
            let width = row.range.expect("filtered on ranges");
            writeln!(out, "    RNG {} {}", row.name, format_number(width))?;
        }
    }
    write_bounds(model, &columns, out)?;
    writeln!(out, "ENDATA")
}

/// How one non-free row is written.
#[derive(Debug, PartialEq)]
struct RowEntry {
    name: String,
    /// `E`, `L` or `G`.
    kind: char,
    rhs: f64,
    /// The `RANGES` width of a ranged row.
    range: Option<f64>,
}

/// The written form of each row, `None` for free rows, with unique names.
fn row_entries(model: &MilpModel) -> io::Result<Vec<Option<RowEntry>>> {
    let mut names = UniqueNames::with_reserved(&[OBJECTIVE]);
    model
        .rows()
        .iter()
        .map(|row| {
            let (kind, rhs, range) = match row.kind() {
                RowKind::Free => return Ok(None),
                RowKind::Equal(rhs) => ('E', rhs, None),
                RowKind::AtMost(rhs) => ('L', rhs, None),
                RowKind::AtLeast(rhs) => ('G', rhs, None),
                RowKind::Ranged(lower, upper) => {
                    let (kind, rhs, width) = ranged_row(lower, upper).ok_or_else(|| {
                        io::Error::new(
                            io::ErrorKind::InvalidInput,
                            format!(
                                "row `{}`: the range [{lower}, {upper}] is too wide for MPS",
                                row.name
                            ),
                        )
                    })?;
                    (kind, rhs, Some(width))
                }
            };
            Ok(Some(RowEntry {
                name: names.claim(&row.name),
                kind,
                rhs,
                range,
            }))
        })
        .collect()
}

/// Type, right-hand side and width for the ranged row `lower <= a·x <= upper`
/// (`lower < upper`, both finite): `G` rows are rebuilt as `[rhs, rhs + width]`, `L`
/// rows as `[rhs − width, rhs]`. Tries the rounded difference and its neighbouring
/// floats for a width that rebuilds the other side exactly; `None` if the difference
/// overflows.
fn ranged_row(lower: f64, upper: f64) -> Option<(char, f64, f64)> {
    let difference = upper - lower;
    if !difference.is_finite() {
        return None;
    }
    let (mut up, mut down) = (difference, difference);
    for _ in 0..8 {
        for width in [up, down] {
            if width > 0.0 && lower + width == upper {
                return Some(('G', lower, width));
            }
            if width > 0.0 && upper - width == lower {
                return Some(('L', upper, width));
            }
        }
        up = up.next_up();
        down = down.next_down();
    }
    Some(('G', lower, difference))
}

/// Writes `COLUMNS`: each column's objective and row entries, integer columns between
/// markers.
fn write_columns(
    model: &MilpModel,
    columns: &[String],
    rows: &[Option<RowEntry>],
    negate: bool,
    out: &mut impl Write,
) -> io::Result<()> {
    writeln!(out, "COLUMNS")?;
    let csc = model.column_major();
    let mut in_integers = false;
    let mut markers = 0usize;
    for (j, (var, name)) in model.variables().iter().zip(columns).enumerate() {
        if var.integer != in_integers {
            let which = if var.integer { "INTORG" } else { "INTEND" };
            writeln!(out, "    MARKER{markers} 'MARKER' '{which}'")?;
            markers += 1;
            in_integers = var.integer;
        }
        let objective = if negate {
            -var.objective
        } else {
            var.objective
        };
        let entries: Vec<(&str, f64)> = (csc.starts[j]..csc.starts[j + 1])
            .filter_map(|k| {
                rows[csc.rows[k]]
                    .as_ref()
                    .map(|r| (r.name.as_str(), csc.values[k]))
            })
            .collect();
        if objective != 0.0 || entries.is_empty() {
            writeln!(out, "    {name} {OBJECTIVE} {}", format_number(objective))?;
        }
        for (row, value) in entries {
            writeln!(out, "    {name} {row} {}", format_number(value))?;
        }
    }
    if in_integers {
        writeln!(out, "    MARKER{markers} 'MARKER' 'INTEND'")?;
    }
    Ok(())
}

/// Writes `BOUNDS` (always, possibly empty).
fn write_bounds(model: &MilpModel, columns: &[String], out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "BOUNDS")?;
    for (v, name) in model.variables().iter().zip(columns) {
        for (kind, value) in bound_entries(v.lower, v.upper, v.integer) {
            match value {
                Some(x) => writeln!(out, " {kind} BND {name} {}", format_number(x))?,
                None => writeln!(out, " {kind} BND {name}")?,
            }
        }
    }
    Ok(())
}

/// The `BOUNDS` entries of a column: type and value (none for `BV`, `FR`, `MI`, `PL`).
fn bound_entries(lower: f64, upper: f64, integer: bool) -> Vec<(&'static str, Option<f64>)> {
    if integer && lower == 0.0 && upper == 1.0 {
        return vec![("BV", None)];
    }
    if lower == upper {
        return vec![("FX", Some(lower))];
    }
    if lower == f64::NEG_INFINITY && upper == f64::INFINITY {
        return vec![("FR", None)];
    }
    let mut entries = Vec::new();
    if lower == f64::NEG_INFINITY {
        entries.push(("MI", None));
    } else if lower != 0.0 {
        entries.push(("LO", Some(lower)));
    }
    if upper.is_finite() {
        entries.push(("UP", Some(upper)));
    } else if integer {
        entries.push(("PL", None));
    }
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mps_text(model: &MilpModel, max: MaxObjective) -> String {
        let mut buffer = Vec::new();
        write_mps_with(model, max, &mut buffer).unwrap();
        String::from_utf8(buffer).unwrap()
    }

    fn every_kind() -> MilpModel {
        let mut m = MilpModel::new(Sense::Maximize);
        let x = m.add_binary("x", 3.0).unwrap();
        let y = m.add_integer("y", -2.0, 5.0, 1.0).unwrap();
        let z = m.add_continuous("z", 0.0, f64::INFINITY, -0.5).unwrap();
        let f = m
            .add_continuous("free var", f64::NEG_INFINITY, f64::INFINITY, 0.0)
            .unwrap();
        let u = m.add_continuous("u", f64::NEG_INFINITY, -1.5, 0.1).unwrap();
        let l = m.add_continuous("l", -4.0, f64::INFINITY, 0.0).unwrap();
        let n = m.add_integer("n", 0.0, f64::INFINITY, 0.0).unwrap();
        let k = m.add_integer("k", 3.0, 3.0, 2.0).unwrap();
        m.add_le("cap", [(x, 2.0), (y, 1.0)], 4.0).unwrap();
        m.add_row("range", [(z, 1.0), (y, -1.0)], -1.0, 1.5)
            .unwrap();
        m.add_eq("fix", [(x, 1.0), (z, 1.0)], 0.0).unwrap();
        m.add_ge("cover", [(f, 1.0), (u, -1.0), (l, 1.0)], -0.1)
            .unwrap();
        m.add_row("ignored", [(n, 1.0)], f64::NEG_INFINITY, f64::INFINITY)
            .unwrap();
        m.add_row("empty", [], -1.0, 1.0).unwrap();
        m.add_le("cap", [(k, 1.0)], 3.0).unwrap();
        m
    }

    #[test]
    fn writes_every_row_and_bound_kind() {
        let expected = "\
* bnsl MILP model: 8 variables, 7 rows
NAME bnsl
OBJSENSE
    MAX
ROWS
 N  obj
 L  cap
 G  range
 E  fix
 G  cover
 G  empty
 L  cap_1
COLUMNS
    MARKER0 'MARKER' 'INTORG'
    x obj 3
    x cap 2
    x fix 1
    y obj 1
    y cap 1
    y range -1
    MARKER1 'MARKER' 'INTEND'
    z obj -0.5
    z range 1
    z fix 1
    free_var cover 1
    u obj 0.1
    u cover -1
    l cover 1
    MARKER2 'MARKER' 'INTORG'
    n obj 0
    k obj 2
    k cap_1 1
    MARKER3 'MARKER' 'INTEND'
RHS
    RHS cap 4
    RHS range -1
    RHS cover -0.1
    RHS empty -1
    RHS cap_1 3
RANGES
    RNG range 2.5
    RNG empty 2
BOUNDS
 BV BND x
 LO BND y -2
 UP BND y 5
 FR BND free_var
 MI BND u
 UP BND u -1.5
 LO BND l -4
 PL BND n
 FX BND k 3
ENDATA
";
        assert_eq!(mps_text(&every_kind(), MaxObjective::Objsense), expected);
        let mut default = Vec::new();
        write_mps(&every_kind(), &mut default).unwrap();
        assert_eq!(String::from_utf8(default).unwrap(), expected);
    }

    #[test]
    fn negates_a_maximisation_on_request() {
        let text = mps_text(&every_kind(), MaxObjective::Negated);
        assert!(!text.contains("OBJSENSE"));
        assert!(text.contains("negated objective"));
        assert!(text.contains("    x obj -3\n"));
        assert!(text.contains("    z obj 0.5\n"));
        assert!(text.contains("    n obj 0\n"));
        let mut m = MilpModel::new(Sense::Minimize);
        m.add_binary("x", 3.0).unwrap();
        let min = mps_text(&m, MaxObjective::Negated);
        assert_eq!(min, mps_text(&m, MaxObjective::Objsense));
        assert!(min.contains("    x obj 3\n") && !min.contains("OBJSENSE"));
    }

    #[test]
    fn ranged_rows_rebuild_their_sides_exactly() {
        let cases = [
            (-1.0, 1.5),
            (0.1, 0.3),
            (0.1, 0.7),
            (1.0 / 3.0, 1e6 + 0.1),
            (-1e6 - 0.3, 0.2),
            (-1e300, 1e300),
            (2.0, 2.0 + f64::EPSILON * 2.0),
        ];
        for (lower, upper) in cases {
            let (kind, rhs, width) = ranged_row(lower, upper).unwrap();
            assert!(width > 0.0);
            let rebuilt = match kind {
                'G' => (rhs, rhs + width),
                'L' => (rhs - width, rhs),
                _ => unreachable!("only G and L rows are ranged"),
            };
            assert_eq!(rebuilt, (lower, upper), "{kind} {rhs} {width}");
        }
        assert_eq!(ranged_row(-f64::MAX, f64::MAX), None);
        let mut m = MilpModel::new(Sense::Minimize);
        let x = m.add_binary("x", 1.0).unwrap();
        m.add_row("huge", [(x, 1.0)], -f64::MAX, f64::MAX).unwrap();
        let err = write_mps(&m, &mut Vec::new()).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        assert!(err.to_string().contains("huge"), "{err}");
    }

    #[test]
    fn names_have_no_spaces_and_lines_stay_short() {
        let mut m = MilpModel::new(Sense::Minimize);
        let long = "w ".repeat(200);
        let a = m.add_continuous(&long, -1.0, 1.0, -1.0 / 7.0).unwrap();
        let b = m.add_continuous(&long, -1.0, 1.0, 1.0).unwrap();
        m.add_ge(&long, [(a, f64::MIN_POSITIVE), (b, -1.0)], -f64::MAX)
            .unwrap();
        m.add_ge(&long, [(a, 1.0)], 0.0).unwrap();
        let text = mps_text(&m, MaxObjective::Objsense);
        assert!(text.lines().all(|l| l.len() <= 560));
        for line in text.lines().filter(|l| l.starts_with("    ")) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(fields.len(), 3, "{line}");
        }
        assert!(text.contains(&format!(" G  {}_1\n", "w_".repeat(49))));
    }
}
