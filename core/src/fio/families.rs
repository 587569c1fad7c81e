//! Turning the raw blocks of a score file (one per variable, parents still as text tokens)
//! into a validated [`ScoreTable`], with file:line errors for every inconsistency.
//!
//! Both readers (jkl and `.pss`) first split the file into [`RawBlock`]s and then call
//! [`assemble`], so parent resolution and the checks are written once.

use super::NameStyle;
use crate::input::InputError;
use crate::{Candidate, ScoreTable, VarSet};
use rustc_hash::FxHashMap;
use std::path::Path;

/// One candidate line of a score file, parents not yet resolved.
pub(crate) struct RawFamily<'a> {
    /// 1-based line number.
    pub line: usize,
    /// The local score, already checked to be finite.
    pub score: f64,
    /// The parent tokens as written (names or 0-based indices).
    pub parents: Vec<&'a str>,
}

/// One variable's block: its header token and its candidate lines.
pub(crate) struct RawBlock<'a> {
    /// The variable's name or index as written in the header.
    pub name: &'a str,
    /// 1-based line number of the header.
    pub line: usize,
    /// The candidate lines, in file order.
    pub families: Vec<RawFamily<'a>>,
}

/// How the variables of a file are numbered.
pub(crate) enum Numbering {
    /// Every block is headed by a 0-based index and the headers are exactly `0..n`
    /// in some order: block `b` describes variable `order[b]`, named `"{order[b]}"`,
    /// and parent tokens are indices.
    Indices(Vec<usize>),
    /// Variables are numbered in block order, named by their headers, and parent tokens
    /// are looked up among the headers.
    Names,
}

impl Numbering {
    /// Indices when every header is a canonical decimal index (no sign, no leading
    /// zero) and the headers are a permutation of `0..n`; names otherwise.
    pub(crate) fn detect(blocks: &[RawBlock<'_>]) -> Numbering {
        let n = blocks.len();
        let mut seen = vec![false; n];
        let mut order = Vec::with_capacity(n);
        for b in blocks {
            match canonical_index(b.name).filter(|&i| i < n && !seen[i]) {
                Some(i) => {
                    seen[i] = true;
                    order.push(i);
                }
                None => return Numbering::Names,
            }
        }
        Numbering::Indices(order)
    }

    /// The matching writer style.
    pub(crate) fn style(&self) -> NameStyle {
        match self {
            Numbering::Indices(_) => NameStyle::Indices,
            Numbering::Names => NameStyle::Names,
        }
    }
}

/// `s` as an index if it is written canonically: ASCII digits, no leading zero.
fn canonical_index(s: &str) -> Option<usize> {
    let digits = !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    let canonical = digits && (s.len() == 1 || !s.starts_with('0'));
    canonical.then(|| s.parse().ok()).flatten()
}

/// Builds the score table from raw blocks numbered by `numbering`, checking every
/// parent token, self-parents, repeated parents on a line, a parent set listed twice
/// for one variable and a variable with two blocks.
pub(crate) fn assemble(
    path: &Path,
    blocks: &[RawBlock<'_>],
    numbering: &Numbering,
) -> Result<ScoreTable, InputError> {
    let n = blocks.len();
    let (names, order) = match numbering {
        Numbering::Indices(order) => ((0..n).map(|i| i.to_string()).collect(), order.clone()),
        Numbering::Names => name_order(path, blocks)?,
    };
    let lookup: FxHashMap<&str, usize> = match numbering {
        Numbering::Indices(_) => FxHashMap::default(),
        Numbering::Names => names
            .iter()
            .enumerate()
            .map(|(i, s)| (s.as_str(), i))
            .collect(),
    };
    let resolver = Resolver {
        path,
        n,
        style: numbering.style(),
        lookup,
    };
    let mut candidates: Vec<Vec<Candidate>> = vec![Vec::new(); n];
    for (block, v) in blocks.iter().zip(order) {
        candidates[v] = resolver.block(block, v)?;
    }
    ScoreTable::new(names, candidates).map_err(|e| InputError::file(path, e.to_string()))
}

/// Names in block order, rejecting a variable that has two blocks and a name that the
/// writers could not write back ([`check_name`]).
fn name_order(
    path: &Path,
    blocks: &[RawBlock<'_>],
) -> Result<(Vec<String>, Vec<usize>), InputError> {
    let mut first_line: FxHashMap<&str, usize> = FxHashMap::default();
    for b in blocks {
        check_name(b.name).map_err(|cause| InputError::at(path, b.line, cause))?;
        if let Some(first) = first_line.insert(b.name, b.line) {
            let cause = format!(
                "variable `{}` has a second block (the first is at line {first})",
                b.name
            );
            return Err(InputError::at(path, b.line, cause));
        }
    }
    Ok((
        blocks.iter().map(|b| b.name.to_string()).collect(),
        (0..blocks.len()).collect(),
    ))
}

/// A variable name must be one token in every score format: the lines are split at ASCII
/// white space only, so a name could hold a vertical tab or a no-break space, which other
/// readers (and bnsl's writers) take as a separator; and a name starting with `#` would
/// be a comment line in jkl.
fn check_name(name: &str) -> Result<(), String> {
    if let Some(c) = name.chars().find(|c| c.is_whitespace()) {
        return Err(format!(
            "variable name `{}` contains the white space character U+{:04X}; a name is one token",
            name.escape_debug(),
            u32::from(c)
        ));
    }
    if name.starts_with('#') {
        return Err(format!(
            "variable name `{name}` starts with `#`, which starts a comment in score files"
        ));
    }
    Ok(())
}

/// Resolves parent tokens and checks each family.
struct Resolver<'a> {
    path: &'a Path,
    n: usize,
    style: NameStyle,
    lookup: FxHashMap<&'a str, usize>,
}

impl Resolver<'_> {
    /// The candidates of variable `v` from its block.
    fn block(&self, block: &RawBlock<'_>, v: usize) -> Result<Vec<Candidate>, InputError> {
        let out = block
            .families
            .iter()
            .map(|f| {
                Ok(Candidate {
                    parents: self.parent_set(f, block.name, v)?,
                    score: f.score,
                })
            })
            .collect::<Result<Vec<_>, InputError>>()?;
        let mut first_line: FxHashMap<&VarSet, usize> = FxHashMap::default();
        for (c, f) in out.iter().zip(&block.families) {
            if let Some(first) = first_line.insert(&c.parents, f.line) {
                let cause = format!(
                    "variable `{}`: this parent set is already listed at line {first}",
                    block.name
                );
                return Err(InputError::at(self.path, f.line, cause));
            }
        }
        Ok(out)
    }

    /// The parent set of one family line of variable `v` (called `name`).
    fn parent_set(&self, f: &RawFamily<'_>, name: &str, v: usize) -> Result<VarSet, InputError> {
        let mut set = VarSet::empty(self.n);
        for token in &f.parents {
            let p = self.index(token, f.line)?;
            if p == v {
                let cause = format!("variable `{name}` lists itself as a parent");
                return Err(InputError::at(self.path, f.line, cause));
            }
            if set.contains(p) {
                let cause =
                    format!("variable `{name}`: parent `{token}` appears twice on this line");
                return Err(InputError::at(self.path, f.line, cause));
            }
            set.insert(p);
        }
        Ok(set)
    }

    /// The variable index a parent token refers to.
    fn index(&self, token: &str, line: usize) -> Result<usize, InputError> {
        let found = match self.style {
            NameStyle::Indices => token.parse::<usize>().ok().filter(|&p| p < self.n),
            NameStyle::Names => self.lookup.get(token).copied(),
        };
        found.ok_or_else(|| InputError::at(self.path, line, self.unknown(token)))
    }

    /// Why a parent token does not name a variable.
    fn unknown(&self, token: &str) -> String {
        match (self.style, token.parse::<usize>()) {
            (NameStyle::Indices, Ok(p)) => format!(
                "parent index {p} is out of range: the file has {} variables, numbered 0..{}",
                self.n,
                self.n - 1
            ),
            (NameStyle::Indices, Err(_)) => format!(
                "parent `{token}` is not a variable index (the blocks of this file are headed by indices 0..{})",
                self.n - 1
            ),
            (NameStyle::Names, _) => format!("unknown parent `{token}`: no variable block has this name"),
        }
    }
}
