//! From text tokens to state codes: the step every data reader shares.
//!
//! A reader feeds each column's tokens to a column coder, which numbers distinct
//! tokens provisionally in order of first appearance (remembering where each first
//! appeared, for errors). When the file has been read, the coder fixes the
//! column's states according to what is declared about it and renumbers the codes:
//!
//! - **Observed** (nothing declared): the states are the distinct values seen, in
//!   numeric order when every value is a non-negative integer, else in byte-wise lexicographic
//!   order. The arity is the number of distinct values: a column holding only `1` and
//!   `3` has arity 2. This is GOBNILP's and pygobnilp's convention (it reproduces their
//!   scores on `data/ebnsl_csv`, whose columns have such gaps).
//! - **Arity** `r` (a `.dat` arity line): integer values are the codes themselves and
//!   must lie in `0..r`; string values (as in GOBNILP's `discrete.dat`) are at most `r`
//!   distinct names, in lexicographic order, padded with placeholder names for states
//!   never seen.
//! - **States** (a network's variable): a column whose every value is one of the
//!   declared state names is coded by name; otherwise every value must be an integer
//!   code below the declared arity.

use super::dataset::{DataSet, Variable, MAX_ARITY};
use crate::error::InputError;
use bnsl_core::input::nonblank_lines;
use rustc_hash::FxHashMap;
use std::path::Path;

/// What is known about a column's states before its values are read.
#[derive(Clone, Copy, Debug)]
pub(crate) enum ColumnDecl<'v> {
    /// Nothing: the states are the values observed.
    Observed,
    /// The number of states (values are 0-based codes or state names).
    Arity(usize),
    /// The variable of a network (state names and arity).
    States(&'v Variable),
}

/// Up to this many distinct values a column is searched linearly (faster than hashing
/// for the few states most variables have).
const LINEAR_LOOKUP: usize = 8;

/// A distinct token of a column and the line where it first appeared.
#[derive(Clone, Copy, Debug)]
struct Seen<'a> {
    token: &'a str,
    line: usize,
}

/// The provisional coding of one column while a file is read.
#[derive(Debug)]
pub(crate) struct ColumnCoder<'a> {
    name: String,
    index: FxHashMap<&'a str, u8>,
    seen: Vec<Seen<'a>>,
    codes: Vec<u8>,
}

impl<'a> ColumnCoder<'a> {
    /// An empty coder for the column called `name`, expecting about `rows` values.
    pub(crate) fn new(name: String, rows: usize) -> Self {
        ColumnCoder {
            name,
            index: FxHashMap::default(),
            seen: Vec::new(),
            codes: Vec::with_capacity(rows),
        }
    }

    /// Appends the value `token` read at line `line`. Fails (with the cause) when the
    /// column would hold more than [`MAX_ARITY`] distinct values.
    pub(crate) fn push(&mut self, token: &'a str, line: usize) -> Result<(), String> {
        let known = if self.seen.len() <= LINEAR_LOOKUP {
            self.seen
                .iter()
                .position(|s| s.token == token)
                .map(|id| id as u8)
        } else {
            self.index.get(token).copied()
        };
        let id = match known {
            Some(id) => id,
            None => {
                if self.seen.len() == MAX_ARITY {
                    return Err(format!(
                        "column `{}` has more than {MAX_ARITY} distinct values (`{token}` is one more); \
                         states must fit in one byte",
                        self.name
                    ));
                }
                let id = self.seen.len() as u8;
                self.index.insert(token, id);
                self.seen.push(Seen { token, line });
                id
            }
        };
        self.codes.push(id);
        Ok(())
    }

    /// Fixes the states under `decl` and returns the variable and its final codes.
    pub(crate) fn finish(
        self,
        decl: ColumnDecl<'_>,
        path: &Path,
    ) -> Result<(Variable, Vec<u8>), InputError> {
        let (states, remap) = match decl {
            ColumnDecl::Observed => observed_states(&self.seen),
            ColumnDecl::Arity(arity) => self.declared_arity_states(arity, path)?,
            ColumnDecl::States(var) => self.network_states(var, path)?,
        };
        let mut codes = self.codes;
        for c in &mut codes {
            *c = remap[*c as usize];
        }
        Ok((
            Variable {
                name: self.name,
                states,
            },
            codes,
        ))
    }

    /// States for a column with a declared arity (see the module documentation): all
    /// codes, or all names; a column that mixes them is refused at the first value that
    /// breaks the pattern its first value set.
    fn declared_arity_states(
        &self,
        arity: usize,
        path: &Path,
    ) -> Result<(Vec<String>, Vec<u8>), InputError> {
        let is_code = |token: &str| token.parse::<u64>().is_ok();
        let is_number = |token: &str| token.parse::<f64>().is_ok();
        let codes = self.seen.first().is_some_and(|s| is_code(s.token));
        let odd = match codes {
            true => self.seen.iter().find(|s| !is_code(s.token)),
            false => self.seen.iter().find(|s| is_number(s.token)),
        };
        if let Some(odd) = odd {
            let first = self.seen[0];
            let cause = match codes {
                true => format!(
                    "`{}` of `{}` is not a state code (an integer from 0 to {}, its declared \
                     arity less one), as its other values are",
                    odd.token,
                    self.name,
                    arity.saturating_sub(1)
                ),
                false => format!(
                    "`{}` of `{}` is a number, but the column's values are state names (`{}` \
                     at line {}): a column holds codes or names, not both",
                    odd.token, self.name, first.token, first.line
                ),
            };
            return Err(InputError::at(path, odd.line, cause));
        }
        if let Some(values) = integer_values(&self.seen) {
            if let Some((s, v)) = self
                .seen
                .iter()
                .zip(&values)
                .find(|(_, &v)| v >= arity as u64)
            {
                return Err(InputError::at(
                    path,
                    s.line,
                    format!(
                        "value {v} of `{}` is not below its declared arity {arity}",
                        self.name
                    ),
                ));
            }
            let states = (0..arity).map(|s| s.to_string()).collect();
            return Ok((states, values.iter().map(|&v| v as u8).collect()));
        }
        if self.seen.len() > arity {
            let extra = self.seen[arity];
            return Err(InputError::at(
                path,
                extra.line,
                format!(
                    "`{}` has more distinct values than its declared arity {arity} (`{}` is one too many)",
                    self.name, extra.token
                ),
            ));
        }
        let (mut states, remap) = sorted_states(&self.seen);
        pad_states(&mut states, arity);
        Ok((states, remap))
    }

    /// States for a column declared by a network variable (see the module documentation).
    fn network_states(
        &self,
        var: &Variable,
        path: &Path,
    ) -> Result<(Vec<String>, Vec<u8>), InputError> {
        let by_name: Option<Vec<u8>> = self
            .seen
            .iter()
            .map(|s| {
                var.states
                    .iter()
                    .position(|x| x == s.token)
                    .map(|i| i as u8)
            })
            .collect();
        if let Some(remap) = by_name {
            return Ok((var.states.clone(), remap));
        }
        if let Some(values) = integer_values(&self.seen) {
            if values.iter().all(|&v| v < var.arity() as u64) {
                return Ok((
                    var.states.clone(),
                    values.iter().map(|&v| v as u8).collect(),
                ));
            }
        }
        let bad = self
            .seen
            .iter()
            .find(|s| !var.states.iter().any(|x| x == s.token))
            .copied();
        let bad = bad.unwrap_or(self.seen[0]);
        Err(InputError::at(
            path,
            bad.line,
            format!(
                "`{}` is not a state of `{}` (states: {}) nor a code below its arity {}",
                bad.token,
                self.name,
                var.states.join(", "),
                var.arity()
            ),
        ))
    }
}

/// The non-blank lines of `text` with their 1-based numbers, trimmed.
pub(crate) fn data_lines(text: &str) -> Vec<(usize, &str)> {
    nonblank_lines(text).collect()
}

/// Codes the data rows `rows` into one coder per name in `names`, splitting each row
/// with `split`. Every row must have exactly `names.len()` non-empty values.
pub(crate) fn code_rows<'a, I>(
    rows: &[(usize, &'a str)],
    names: &[String],
    split: impl Fn(&'a str) -> I,
    path: &Path,
) -> Result<Vec<ColumnCoder<'a>>, InputError>
where
    I: Iterator<Item = &'a str>,
{
    let n = names.len();
    let mut coders: Vec<ColumnCoder<'a>> = names
        .iter()
        .map(|name| ColumnCoder::new(name.clone(), rows.len()))
        .collect();
    for &(line, text) in rows {
        let mut count = 0;
        for token in split(text) {
            if count == n {
                let found = split(text).count();
                return Err(InputError::at(
                    path,
                    line,
                    format!("expected {n} values, found {found}"),
                ));
            }
            if token.is_empty() || token == "?" {
                let what = if token.is_empty() {
                    "empty value"
                } else {
                    "`?`"
                };
                let cause = format!(
                    "{what} for `{}`: a missing value; bnsl needs complete data (remove or \
                     impute the rows with missing values)",
                    names[count]
                );
                return Err(InputError::at(path, line, cause));
            }
            coders[count]
                .push(token, line)
                .map_err(|cause| InputError::at(path, line, cause))?;
            count += 1;
        }
        if count < n {
            return Err(InputError::at(
                path,
                line,
                format!("expected {n} values, found {count}"),
            ));
        }
    }
    Ok(coders)
}

/// Finishes every column under its declaration into a data set. Fails on an empty one.
pub(crate) fn build(
    coders: Vec<ColumnCoder<'_>>,
    decls: &[ColumnDecl<'_>],
    path: &Path,
    last_line: usize,
) -> Result<DataSet, InputError> {
    if coders.first().is_none_or(|c| c.codes.is_empty()) {
        return Err(InputError::at(
            path,
            last_line,
            "the data set has no data rows",
        ));
    }
    debug_assert_eq!(coders.len(), decls.len());
    let mut variables = Vec::with_capacity(coders.len());
    let mut columns = Vec::with_capacity(coders.len());
    for (coder, decl) in coders.into_iter().zip(decls) {
        let (var, codes) = coder.finish(*decl, path)?;
        variables.push(var);
        columns.push(codes);
    }
    Ok(DataSet::new(variables, columns))
}

/// The integer values of all tokens, or `None` when one is not a non-negative integer.
fn integer_values(seen: &[Seen<'_>]) -> Option<Vec<u64>> {
    seen.iter().map(|s| s.token.parse::<u64>().ok()).collect()
}

/// Observed states: distinct values in numeric order when all are integers (equal
/// numbers written differently, like `01` and `1`, are one state), else lexicographic.
fn observed_states(seen: &[Seen<'_>]) -> (Vec<String>, Vec<u8>) {
    match integer_values(seen) {
        Some(values) => {
            let mut distinct = values.clone();
            distinct.sort_unstable();
            distinct.dedup();
            let remap = values
                .iter()
                .map(|v| distinct.binary_search(v).unwrap_or(0) as u8)
                .collect();
            (distinct.iter().map(u64::to_string).collect(), remap)
        }
        None => sorted_states(seen),
    }
}

/// Distinct tokens in lexicographic order and the map from provisional ids to them.
fn sorted_states(seen: &[Seen<'_>]) -> (Vec<String>, Vec<u8>) {
    let mut order: Vec<usize> = (0..seen.len()).collect();
    order.sort_unstable_by(|&a, &b| seen[a].token.cmp(seen[b].token));
    let mut remap = vec![0u8; seen.len()];
    for (rank, &id) in order.iter().enumerate() {
        remap[id] = rank as u8;
    }
    (
        order.iter().map(|&id| seen[id].token.to_string()).collect(),
        remap,
    )
}

/// Appends placeholder names (`2`, `3`, …, prefixed with `_` until unique) for the
/// declared states that never occur.
fn pad_states(states: &mut Vec<String>, arity: usize) {
    for k in states.len()..arity {
        let mut name = k.to_string();
        while states.contains(&name) {
            name.insert(0, '_');
        }
        states.push(name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn coder<'a>(tokens: &[&'a str]) -> ColumnCoder<'a> {
        let mut c = ColumnCoder::new("X".into(), tokens.len());
        for (i, t) in tokens.iter().enumerate() {
            c.push(t, i + 1).unwrap();
        }
        c
    }

    fn finish(tokens: &[&str], decl: ColumnDecl<'_>) -> Result<(Variable, Vec<u8>), InputError> {
        coder(tokens).finish(decl, Path::new("t.csv"))
    }

    #[test]
    fn observed_integers_keep_numeric_order_and_count_distinct_values() {
        let (var, codes) = finish(&["10", "3", "1", "3"], ColumnDecl::Observed).unwrap();
        assert_eq!(var.states, ["1", "3", "10"]);
        assert_eq!(codes, [2, 1, 0, 1]);
    }

    #[test]
    fn observed_strings_are_sorted() {
        let (var, codes) = finish(&["yes", "no", "maybe", "no"], ColumnDecl::Observed).unwrap();
        assert_eq!(var.states, ["maybe", "no", "yes"]);
        assert_eq!(codes, [2, 1, 0, 1]);
    }

    #[test]
    fn declared_arity_takes_integers_as_codes_and_rejects_large_ones() {
        let (var, codes) = finish(&["2", "0"], ColumnDecl::Arity(4)).unwrap();
        assert_eq!(var.arity(), 4);
        assert_eq!(codes, [2, 0]);
        let err = finish(&["0", "1", "3", "3"], ColumnDecl::Arity(3))
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "t.csv:3: value 3 of `X` is not below its declared arity 3"
        );
    }

    /// A declared-arity column holds codes or names, never both: `-1`, `a` or `1.0`
    /// among codes, or a number among names, is refused at that value's line.
    #[test]
    fn declared_arity_columns_do_not_mix_codes_and_names() {
        let err = |tokens: &[&str]| {
            finish(tokens, ColumnDecl::Arity(3))
                .unwrap_err()
                .to_string()
        };
        for (tokens, line, odd) in [
            (&["0", "1", "-1"][..], 3, "-1"),
            (&["0", "a", "1"], 2, "a"),
            (&["1", "1.0"], 2, "1.0"),
        ] {
            let message = err(tokens);
            let want =
                format!("t.csv:{line}: `{odd}` of `X` is not a state code (an integer from 0 to 2");
            assert!(message.starts_with(&want), "{message}");
        }
        let message = err(&["low", "high", "1"]);
        assert!(message.starts_with("t.csv:3: `1` of `X` is a number, but the column's values are state names (`low` at line 1)"), "{message}");
    }

    #[test]
    fn declared_arity_with_names_pads_unseen_states() {
        let (var, codes) = finish(&["b", "a"], ColumnDecl::Arity(3)).unwrap();
        assert_eq!(var.states, ["a", "b", "2"]);
        assert_eq!(codes, [1, 0]);
        let err = finish(&["b", "a", "c"], ColumnDecl::Arity(2))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("t.csv:3: `X` has more distinct values than its declared arity 2"),
            "{err}"
        );
    }

    #[test]
    fn network_states_by_name_or_by_code() {
        let var = Variable {
            name: "X".into(),
            states: vec!["lo".into(), "mid".into(), "hi".into()],
        };
        let (v, codes) = finish(&["hi", "lo"], ColumnDecl::States(&var)).unwrap();
        assert_eq!((v.arity(), codes), (3, vec![2, 0]));
        let (_, codes) = finish(&["2", "1"], ColumnDecl::States(&var)).unwrap();
        assert_eq!(codes, [2, 1]);
        let err = finish(&["lo", "high"], ColumnDecl::States(&var))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("t.csv:2: `high` is not a state of `X`"),
            "{err}"
        );
    }

    #[test]
    fn too_many_distinct_values_is_an_error() {
        let tokens: Vec<String> = (0..=MAX_ARITY).map(|i| format!("v{i}")).collect();
        let mut c = ColumnCoder::new("X".into(), 0);
        let results: Vec<_> = tokens.iter().map(|t| c.push(t, 1)).collect();
        assert!(results[..MAX_ARITY].iter().all(Result::is_ok));
        assert!(results[MAX_ARITY]
            .as_ref()
            .unwrap_err()
            .contains("more than 256 distinct values"));
    }
}
