//! How names and numbers are spelt in LP and MPS model files (SPEC C11).
//!
//! Names are reduced to a charset every reader accepts in both formats: ASCII letters,
//! digits, `_` and `.`; every other character becomes `_`. A name that a reader could
//! take for something else gets a leading `_`: one starting with a digit or `.` (a
//! number), with `e`/`E` followed by a digit or another `e`/`E` (an exponent, the CPLEX
//! LP rule), with `inf` or `nan` (HiGHS and other `strtod`-based LP readers parse those
//! as numbers), or equal to an LP keyword such as `free`, `st` or `end`. Names are cut
//! to 100 characters (the limit of CBC's LP reader, CoinLpIO; CPLEX allows 255) and
//! made unique by appending `_1`, `_2`, … to a repeat, in model order, so the mapping
//! is deterministic and the same in both formats.
//!
//! Numbers are printed as the shortest decimal that reads back as the same `f64`
//! (Rust's float formatting), so no precision is lost.

use super::MilpModel;
use rustc_hash::{FxHashMap, FxHashSet};

/// Longest name written: the limit of CBC's LP reader (CoinLpIO), the strictest of
/// the solvers bnsl exports for (CPLEX allows 255 characters).
pub const MAX_NAME_LEN: usize = 100;

/// Words that LP readers treat as section keywords, bound keywords or infinity,
/// compared in lower case.
const KEYWORDS: &[&str] = &[
    "bin", "binaries", "binary", "bound", "bounds", "end", "free", "gen", "general", "generals",
    "int", "integer", "integers", "max", "maximise", "maximize", "maximum", "min", "minimise",
    "minimize", "minimum", "s.t.", "semi", "semis", "sos", "st", "st.", "subject", "such",
];

/// The file-legal spelling of one name, before uniqueness is enforced: illegal
/// characters become `_`, an ambiguous start gets a leading `_`, and the result is cut
/// to [`MAX_NAME_LEN`] characters. The empty name becomes `_`.
pub fn sanitise_name(raw: &str) -> String {
    let mut name: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if needs_prefix(&name) {
        name.insert(0, '_');
    }
    // Only ASCII remains, so any byte length is a character boundary.
    name.truncate(MAX_NAME_LEN);
    name
}

/// Whether a sanitised name is empty or could be read as a number or a keyword.
fn needs_prefix(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    let Some(&first) = bytes.first() else {
        return true;
    };
    let exponent_like = first == b'e'
        && bytes
            .get(1)
            .is_some_and(|&c| c.is_ascii_digit() || c == b'e');
    first.is_ascii_digit()
        || first == b'.'
        || exponent_like
        || lower.starts_with("inf")
        || lower.starts_with("nan")
        || KEYWORDS.contains(&lower.as_str())
}

/// Hands out sanitised names, each different from all names handed out or reserved
/// before it.
#[derive(Debug, Default)]
pub(crate) struct UniqueNames {
    used: FxHashSet<String>,
    /// Per sanitised base name, the next suffix to try, so that many repeats of one
    /// name cost linear time.
    next_suffix: FxHashMap<String, usize>,
}

impl UniqueNames {
    /// A name source that never hands out any of `reserved`.
    pub(crate) fn with_reserved(reserved: &[&str]) -> Self {
        UniqueNames {
            used: reserved.iter().map(|s| s.to_string()).collect(),
            next_suffix: FxHashMap::default(),
        }
    }

    /// The sanitised `raw`, with the first free suffix `_k` (k = 1, 2, …) when that is
    /// taken; the base is shortened so that the result keeps within [`MAX_NAME_LEN`].
    pub(crate) fn claim(&mut self, raw: &str) -> String {
        let base = sanitise_name(raw);
        if self.used.insert(base.clone()) {
            return base;
        }
        let next = self.next_suffix.entry(base.clone()).or_insert(1);
        loop {
            let suffix = format!("_{next}");
            *next += 1;
            let mut candidate = base.clone();
            candidate.truncate(MAX_NAME_LEN - suffix.len());
            candidate.push_str(&suffix);
            if self.used.insert(candidate.clone()) {
                return candidate;
            }
        }
    }
}

/// The names under which the LP and MPS writers write the model's variables, indexed
/// by [`VarId::index`](super::VarId::index): sanitised and unique as described in the
/// module documentation. Use them to map a solution file written by another solver
/// back to the model.
pub fn column_names(model: &MilpModel) -> Vec<String> {
    let mut names = UniqueNames::default();
    model
        .variables()
        .iter()
        .map(|v| names.claim(&v.name))
        .collect()
}

/// The shortest decimal spelling of a finite `x` that parses back to the same `f64`,
/// without a trailing `.0` on integers (`3`, `-0.1`, `1e-7`, `1.2345678901234567e20`);
/// `-0` is written `0`.
pub fn format_number(x: f64) -> String {
    debug_assert!(x.is_finite(), "{x} has no file spelling");
    if x == 0.0 {
        return "0".to_string();
    }
    let text = format!("{x:?}");
    match text.strip_suffix(".0") {
        Some(integer) => integer.to_string(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::milp::Sense;
    use proptest::prelude::*;

    #[test]
    fn sanitises_characters_and_ambiguous_starts() {
        let cases = [
            ("x", "x"),
            ("x[1,2]", "x_1_2_"),
            ("a b\tc", "a_b_c"),
            ("π", "_"),
            ("", "_"),
            ("1st", "_1st"),
            (".5", "_.5"),
            ("e1", "_e1"),
            ("E2x", "_E2x"),
            ("ee", "_ee"),
            ("edge", "edge"),
            ("e", "e"),
            ("inf", "_inf"),
            ("Infeasible", "_Infeasible"),
            ("nan_count", "_nan_count"),
            ("free", "_free"),
            ("End", "_End"),
            ("s.t.", "_s.t."),
            ("subject", "_subject"),
            ("x.y_z", "x.y_z"),
            ("I(3<-{0,1})", "I_3___0_1__"),
        ];
        for (raw, expected) in cases {
            assert_eq!(sanitise_name(raw), expected, "{raw:?}");
        }
        assert_eq!(sanitise_name(&"a".repeat(300)).len(), MAX_NAME_LEN);
        assert_eq!(
            sanitise_name(&"9".repeat(300)),
            format!("_{}", "9".repeat(MAX_NAME_LEN - 1))
        );
    }

    #[test]
    fn makes_names_unique_in_order() {
        let mut names = UniqueNames::with_reserved(&["obj"]);
        let claimed: Vec<String> = ["obj", "x", "x", "x_1", "x", "a b", "a_b", ""]
            .iter()
            .map(|raw| names.claim(raw))
            .collect();
        assert_eq!(
            claimed,
            ["obj_1", "x", "x_1", "x_1_1", "x_2", "a_b", "a_b_1", "_"]
        );
        let long = "y".repeat(300);
        let first = names.claim(&long);
        let second = names.claim(&long);
        assert_eq!(first.len(), MAX_NAME_LEN);
        assert_eq!(second.len(), MAX_NAME_LEN);
        assert!(second.ends_with("_1") && first != second);
    }

    #[test]
    fn column_names_follow_the_model() {
        let mut m = MilpModel::new(Sense::Maximize);
        for raw in ["x", "x", "y z", "1"] {
            m.add_binary(raw, 1.0).unwrap();
        }
        assert_eq!(column_names(&m), ["x", "x_1", "y_z", "_1"]);
    }

    #[test]
    fn formats_numbers_exactly() {
        let cases = [
            (0.0, "0"),
            (-0.0, "0"),
            (3.0, "3"),
            (-2.5, "-2.5"),
            (0.1, "0.1"),
            (1e-7, "1e-7"),
            (1e20, "1e20"),
            (1.0 / 3.0, "0.3333333333333333"),
            (-123456.75, "-123456.75"),
        ];
        for (x, expected) in cases {
            assert_eq!(format_number(x), expected, "{x:?}");
        }
    }

    proptest! {
        #[test]
        fn numbers_round_trip(bits in any::<u64>()) {
            let x = f64::from_bits(bits);
            prop_assume!(x.is_finite());
            let parsed: f64 = format_number(x).parse().unwrap();
            prop_assert!(parsed == x, "{} -> {}", x, parsed);
        }

        #[test]
        fn sanitised_names_are_legal(raw in ".{0,300}") {
            let name = sanitise_name(&raw);
            prop_assert!(!name.is_empty() && name.len() <= MAX_NAME_LEN);
            prop_assert!(name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.'));
            prop_assert!(!needs_prefix(&name), "{}", name);
        }
    }
}
