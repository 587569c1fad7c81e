//! Writing data sets: CSV (optionally with a header, states as names or codes) and the
//! GOBNILP `.dat` form (names, arities, 0-based codes). Both read back with
//! [`super::load_data`] into the same data set when the states are declared (the
//! `.dat` arity line, or the original variables as
//! [`LoadOptions::declared`](super::LoadOptions::declared)).

use super::dataset::DataSet;
use std::io::{Error, ErrorKind, Write};

/// Writes `data` as CSV: a header of names when `header`, then one row per sample with
/// state names (`use_state_names`) or 0-based codes. A name or state holding a comma or
/// surrounding white space is written in double quotes, as [`super::load_data`] reads
/// it. Fails with `InvalidInput` when one that must be written is empty or holds a
/// double quote or a line break.
pub fn write_csv<W: Write + ?Sized>(
    data: &DataSet,
    header: bool,
    use_state_names: bool,
    w: &mut W,
) -> std::io::Result<()> {
    let vars = data.variables();
    if header {
        let names = vars
            .iter()
            .map(|v| csv_field(&v.name))
            .collect::<std::io::Result<Vec<_>>>()?;
        writeln!(w, "{}", names.join(","))?;
    }
    let labels: Vec<Vec<String>> = if use_state_names {
        vars.iter()
            .map(|v| v.states.iter().map(|s| csv_field(s)).collect())
            .collect::<std::io::Result<_>>()?
    } else {
        vars.iter()
            .map(|v| (0..v.arity()).map(|s| s.to_string()).collect())
            .collect()
    };
    write_rows(data, &labels, b',', w)
}

/// Writes `data` in GOBNILP's `.dat` form: names, arities, then the codes, separated by
/// single spaces. Fails with `InvalidInput` when a name is empty or holds white space.
pub fn write_dat<W: Write + ?Sized>(data: &DataSet, w: &mut W) -> std::io::Result<()> {
    check_fields(
        data.variables().iter().map(|v| v.name.as_str()),
        is_dat_field,
    )?;
    writeln!(w, "{}", data.names().join(" "))?;
    let arities: Vec<String> = data.arities().iter().map(usize::to_string).collect();
    writeln!(w, "{}", arities.join(" "))?;
    let labels: Vec<Vec<String>> = data
        .arities()
        .iter()
        .map(|&r| (0..r).map(|s| s.to_string()).collect())
        .collect();
    write_rows(data, &labels, b' ', w)
}

/// Writes each row as the labels of its states joined by `sep`.
fn write_rows<W: Write + ?Sized>(
    data: &DataSet,
    labels: &[Vec<String>],
    sep: u8,
    w: &mut W,
) -> std::io::Result<()> {
    let mut line = Vec::new();
    for row in 0..data.n_rows() {
        line.clear();
        for (v, names) in labels.iter().enumerate() {
            if v > 0 {
                line.push(sep);
            }
            line.extend_from_slice(names[data.column(v)[row] as usize].as_bytes());
        }
        line.push(b'\n');
        w.write_all(&line)?;
    }
    Ok(())
}

/// Fails on the first field that `ok` rejects.
fn check_fields<'a>(
    mut fields: impl Iterator<Item = &'a str>,
    ok: fn(&str) -> bool,
) -> std::io::Result<()> {
    match fields.find(|f| !ok(f)) {
        Some(bad) => Err(unwritable(bad)),
        None => Ok(()),
    }
}

/// The error of a field the format cannot hold.
fn unwritable(field: &str) -> Error {
    Error::new(
        ErrorKind::InvalidInput,
        format!("`{field}` cannot be written as a field of this format"),
    )
}

/// `s` as a CSV field that reads back unchanged: quoted when it holds a comma or
/// surrounding white space. The reader has no escape for a quote inside quotes, so a
/// field with a double quote or a line break (or an empty one) cannot be written.
fn csv_field(s: &str) -> std::io::Result<String> {
    if s.is_empty() || s.contains(['"', '\n', '\r']) {
        return Err(unwritable(s));
    }
    Ok(if s.contains(',') || s.trim() != s {
        format!("\"{s}\"")
    } else {
        s.to_string()
    })
}

/// Whether `s` reads back unchanged as a `.dat` token.
fn is_dat_field(s: &str) -> bool {
    !s.is_empty() && !s.contains(char::is_whitespace)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Variable;

    fn data() -> DataSet {
        let vars = vec![
            Variable {
                name: "a".into(),
                states: vec!["no".into(), "yes".into()],
            },
            Variable::with_arity("b", 3),
        ];
        DataSet::new(vars, vec![vec![1, 0], vec![2, 2]])
    }

    fn text(f: impl Fn(&mut Vec<u8>) -> std::io::Result<()>) -> String {
        let mut out = Vec::new();
        f(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn csv_and_dat_forms() {
        assert_eq!(
            text(|w| write_csv(&data(), true, true, w)),
            "a,b\nyes,2\nno,2\n"
        );
        assert_eq!(text(|w| write_csv(&data(), false, false, w)), "1,2\n0,2\n");
        assert_eq!(text(|w| write_dat(&data(), w)), "a b\n2 3\n1 2\n0 2\n");
    }

    #[test]
    fn unwritable_names_are_rejected() {
        let vars = vec![Variable {
            name: "a b".into(),
            states: vec!["x\"y".into()],
        }];
        let d = DataSet::new(vars, vec![vec![0]]);
        assert!(write_csv(&d, false, true, &mut Vec::new()).is_err());
        assert!(write_csv(&d, false, false, &mut Vec::new()).is_ok());
        assert!(write_dat(&d, &mut Vec::new()).is_err());
    }

    /// Names and states with commas or surrounding spaces are quoted, and read back as
    /// the same data set.
    #[test]
    fn commas_and_spaces_are_quoted_and_read_back() {
        let vars = vec![
            Variable {
                name: "income, yearly".into(),
                states: vec!["low, <10k".into(), " high".into()],
            },
            Variable::with_arity("b", 2),
        ];
        let d = DataSet::new(vars, vec![vec![1, 0], vec![0, 1]]);
        let written = text(|w| write_csv(&d, true, true, w));
        assert_eq!(
            written,
            "\"income, yearly\",b\n\" high\",0\n\"low, <10k\",1\n"
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.csv");
        std::fs::write(&path, &written).unwrap();
        let back = crate::data::load_data(&path, &Default::default()).unwrap();
        assert_eq!(back.names(), d.names());
        let states = |data: &DataSet, v: usize| -> Vec<String> {
            (0..data.n_rows())
                .map(|r| data.variables()[v].states[data.column(v)[r] as usize].clone())
                .collect()
        };
        assert_eq!(states(&back, 0), states(&d, 0));
    }
}
