//! WCNF files and MaxSAT solvers' answers.
//!
//! - The 2022 MaxSAT Evaluation format ([`WcnfFormat::Current`]): comment lines `c …`,
//!   hard clauses `h l1 l2 … 0`, soft clauses `w l1 … 0` with their weight `w`.
//! - The older format ([`WcnfFormat::Old`]): a header `p wcnf VARS CLAUSES TOP`, hard
//!   clauses with the weight `TOP` (one more than all soft weights together).
//!
//! bnsl writes, in comment lines, the meaning of the family variables, so that an answer
//! can be read back into a network without the score file:
//! `c bnsl node INDEX NAME` for each node and `c bnsl family VAR NODE SCORE PARENTS…`
//! for each candidate (score in full precision, parents by index).
//!
//! A solver's answer is its `v` lines: either signed literals (`v 1 -2 3 …`, the older
//! convention) or one string of `0`/`1` per variable in order (`v 0110…`, the 2022
//! format).

use super::bnsl::{BnslEncoding, FamilyMap, MappedFamily};
use super::{Lit, Wcnf};
use crate::ScoreTable;
use rustc_hash::FxHashMap;
use std::io::{self, Write};

/// The two WCNF layouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WcnfFormat {
    /// The 2022 MaxSAT Evaluation format (`h` for hard clauses).
    Current,
    /// The `p wcnf` format with a top weight.
    Old,
}

/// Writes `wcnf` with `comments` (each written after `c `) in `format`.
pub fn write_wcnf(
    wcnf: &Wcnf,
    comments: &[String],
    format: WcnfFormat,
    out: &mut impl Write,
) -> io::Result<()> {
    for line in comments {
        writeln!(out, "c {line}")?;
    }
    let top = wcnf.total_weight().saturating_add(1);
    let hard_mark = match format {
        WcnfFormat::Current => "h".to_string(),
        WcnfFormat::Old => {
            let clauses = wcnf.hard.len() + wcnf.soft.len();
            writeln!(out, "p wcnf {} {clauses} {top}", wcnf.num_vars)?;
            top.to_string()
        }
    };
    for clause in &wcnf.hard {
        write_clause(out, &hard_mark, clause)?;
    }
    for (weight, clause) in &wcnf.soft {
        write_clause(out, &weight.to_string(), clause)?;
    }
    Ok(())
}

fn write_clause(out: &mut impl Write, mark: &str, clause: &[Lit]) -> io::Result<()> {
    write!(out, "{mark}")?;
    for l in clause {
        write!(out, " {l}")?;
    }
    writeln!(out, " 0")
}

impl BnslEncoding {
    /// The comment block of the encoding of `table`: what it is, the weights' scale and
    /// offset, and its family map.
    pub fn comments(&self, table: &ScoreTable) -> Vec<String> {
        let map = self.family_map(table);
        let mut lines = vec![
            format!(
                "bnsl MaxSAT encoding of structure learning: {} nodes, {} candidate parent sets",
                map.names.len(),
                map.families.len()
            ),
            format!(
                "bnsl weights: (best score of the node - score) * 10^{}, rounded; a network scores about {:?} - cost * 10^-{}",
                self.digits, self.offset, self.digits
            ),
        ];
        for (v, name) in map.names.iter().enumerate() {
            lines.push(format!("bnsl node {v} {name}"));
        }
        for f in &map.families {
            let mut line = format!("bnsl family {} {} {:?}", f.var, f.node, f.score);
            for u in &f.parents {
                line.push_str(&format!(" {u}"));
            }
            lines.push(line);
        }
        lines
    }
}

/// Reads the family map from the comment lines of a WCNF file; an error names the line
/// and the cause.
pub fn read_family_map(text: &str) -> Result<FamilyMap, String> {
    // The node lines as `(line, index, name)`; the names are placed once all are read,
    // so that an index is checked against their number before anything is sized by it.
    let mut nodes: Vec<(usize, usize, &str)> = Vec::new();
    let mut families = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let bad = |why: &str| format!("line {}: {why}: {line}", i + 1);
        let Some(rest) = line.strip_prefix("c bnsl ") else {
            continue;
        };
        let mut words = rest.split_whitespace();
        match words.next() {
            Some("node") => {
                let index: usize = words
                    .next()
                    .and_then(|w| w.parse().ok())
                    .ok_or_else(|| bad("a node line needs an index"))?;
                let name = words
                    .next()
                    .ok_or_else(|| bad("a node line needs a name"))?;
                nodes.push((i, index, name));
            }
            Some("family") => {
                let var: Lit = words
                    .next()
                    .and_then(|w| w.parse().ok())
                    .filter(|&v: &Lit| v > 0)
                    .ok_or_else(|| bad("a family line needs a positive variable"))?;
                let node: usize = words
                    .next()
                    .and_then(|w| w.parse().ok())
                    .ok_or_else(|| bad("a family line needs a node index"))?;
                let score: f64 = words
                    .next()
                    .and_then(|w| w.parse().ok())
                    .filter(|s: &f64| s.is_finite())
                    .ok_or_else(|| bad("a family line needs a finite score"))?;
                let parents = words
                    .map(|w| {
                        w.parse::<usize>()
                            .map_err(|_| bad("a parent is not an index"))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                families.push(MappedFamily {
                    var,
                    node,
                    score,
                    parents,
                });
            }
            _ => {}
        }
    }
    // Every index below the largest needs a line of its own, so an index is below the
    // number of node lines.
    if let Some(&(i, index, _)) = nodes.iter().find(|n| n.1 >= nodes.len()) {
        return Err(format!(
            "line {}: node index {index} is beyond the {} `c bnsl node` lines of the file \
             (nodes are numbered from 0)",
            i + 1,
            nodes.len()
        ));
    }
    let mut names: Vec<Option<String>> =
        vec![None; nodes.iter().map(|n| n.1 + 1).max().unwrap_or(0)];
    for &(_, index, name) in &nodes {
        names[index] = Some(name.to_string());
    }
    let names = names
        .into_iter()
        .enumerate()
        .map(|(v, name)| name.ok_or_else(|| format!("no `c bnsl node {v} NAME` line")))
        .collect::<Result<Vec<_>, _>>()?;
    if names.is_empty() {
        return Err("no `c bnsl node` lines: not a model written by bnsl export".into());
    }
    let n = names.len();
    if let Some(f) = families
        .iter()
        .find(|f| f.node >= n || f.parents.iter().any(|&u| u >= n || u == f.node))
    {
        return Err(format!(
            "family variable {} names a node that does not exist or itself",
            f.var
        ));
    }
    Ok(FamilyMap { names, families })
}

/// A solver's answer as [`read_solution`] reads it: the variables it sets true, kept as
/// a sorted list so that its size follows the length of the answer, not the numbers in
/// it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Solution {
    true_vars: Vec<usize>,
}

impl Solution {
    /// Whether variable `var` is true (a variable the answer does not mention is false).
    pub fn value(&self, var: usize) -> bool {
        self.true_vars.binary_search(&var).is_ok()
    }

    /// The variables set true, in increasing order.
    pub fn true_vars(&self) -> &[usize] {
        &self.true_vars
    }
}

/// Reads the values of variables `1..=num_vars` from a solver's `v` lines (signed
/// literals, or one 0/1 string of at most `num_vars` values); variables not mentioned
/// are false, and a variable given twice takes its last value.
pub fn read_solution(text: &str, num_vars: usize) -> Result<Solution, String> {
    let mut value: FxHashMap<usize, bool> = FxHashMap::default();
    let mut seen = false;
    for (i, line) in text.lines().enumerate() {
        let Some(rest) = line.strip_prefix('v') else {
            continue;
        };
        seen = true;
        let tokens: Vec<&str> = rest.split_whitespace().collect();
        let bits = tokens.len() == 1
            && tokens[0].len() > 1
            && tokens[0].bytes().all(|b| b == b'0' || b == b'1');
        if bits {
            if tokens[0].len() > num_vars {
                return Err(format!(
                    "line {}: the `v` line has {} values; the formula has only {num_vars} variables",
                    i + 1,
                    tokens[0].len()
                ));
            }
            for (j, b) in tokens[0].bytes().enumerate() {
                value.insert(j + 1, b == b'1');
            }
            continue;
        }
        for t in tokens {
            let l: i64 = t
                .parse()
                .map_err(|_| format!("line {}: `{t}` is not a literal", i + 1))?;
            let var = l.unsigned_abs() as usize;
            if var > num_vars {
                return Err(format!(
                    "line {}: variable {var} is beyond the {num_vars} of the formula",
                    i + 1
                ));
            }
            if var > 0 {
                value.insert(var, l > 0);
            }
        }
    }
    if !seen {
        return Err("no `v` line: not a MaxSAT solver's answer".into());
    }
    let mut true_vars: Vec<usize> = value
        .into_iter()
        .filter_map(|(var, truth)| truth.then_some(var))
        .collect();
    true_vars.sort_unstable();
    Ok(Solution { true_vars })
}

/// Checks that the weights of a WCNF text (each soft clause's, and the `p wcnf` top
/// weight) are integers that, like their sum, fit in 64 bits; an error names the line.
pub fn check_weights(text: &str) -> Result<(), String> {
    let mut sum: u64 = 0;
    let mut top: Option<u64> = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        let weight_at = |token: &str| {
            token.parse::<u64>().map_err(|_| {
                let kind = if token.bytes().all(|b| b.is_ascii_digit()) {
                    "does not fit in 64 bits"
                } else {
                    "is not a weight"
                };
                format!("line {}: the weight `{token}` {kind}", i + 1)
            })
        };
        if line.is_empty() || line.starts_with('c') || line.starts_with("h ") {
            continue;
        }
        if let Some(rest) = line.strip_prefix("p wcnf") {
            if let Some(t) = rest.split_whitespace().nth(2) {
                top = Some(weight_at(t)?);
            }
            continue;
        }
        let Some(first) = line.split_whitespace().next() else {
            continue;
        };
        let weight = weight_at(first)?;
        if top == Some(weight) {
            continue;
        }
        sum = sum.checked_add(weight).ok_or(format!(
            "line {}: the soft weights sum beyond 64 bits",
            i + 1
        ))?;
    }
    Ok(())
}

/// The number of variables of a WCNF text: from its `p wcnf` header, or the largest
/// variable in its clauses.
pub fn count_vars(text: &str) -> usize {
    let mut most = 0usize;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("p wcnf ") {
            if let Some(v) = rest.split_whitespace().next().and_then(|w| w.parse().ok()) {
                return v;
            }
        }
        if line.starts_with('c') || line.is_empty() {
            continue;
        }
        for t in line.split_whitespace().skip(1) {
            if let Ok(l) = t.parse::<i64>() {
                most = most.max(l.unsigned_abs() as usize);
            }
        }
    }
    most
}

/// Writes a CNF formula in DIMACS (`p cnf VARS CLAUSES`), after the comment lines
/// `comments` (each written as `c …`).
pub fn write_cnf(
    num_vars: u32,
    clauses: &[Vec<Lit>],
    comments: &[String],
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    for c in comments {
        writeln!(out, "c {c}")?;
    }
    writeln!(out, "p cnf {num_vars} {}", clauses.len())?;
    for clause in clauses {
        for l in clause {
            write!(out, "{l} ")?;
        }
        writeln!(out, "0")?;
    }
    Ok(())
}

/// Reads a DIMACS CNF formula: its variable count and clauses, in order; an error names
/// the line and what is wrong.
pub fn read_cnf(text: &str) -> Result<(u32, Vec<Vec<Lit>>), String> {
    let mut header: Option<(u32, usize)> = None;
    let mut clauses = Vec::new();
    let mut clause = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        if let Some(rest) = line.strip_prefix("p cnf") {
            if header.is_some() {
                // The literals before it were checked against the first header's count.
                return Err(format!("line {}: a second `p cnf` header", i + 1));
            }
            let nums: Vec<&str> = rest.split_whitespace().collect();
            let parsed = match nums[..] {
                [v, c] => v.parse().ok().zip(c.parse().ok()),
                _ => None,
            };
            header = Some(parsed.ok_or(format!("line {}: a bad `p cnf` header", i + 1))?);
            continue;
        }
        let Some((num_vars, _)) = header else {
            return Err(format!(
                "line {}: a clause before the `p cnf` header",
                i + 1
            ));
        };
        for token in line.split_whitespace() {
            let l: Lit = token
                .parse()
                .map_err(|_| format!("line {}: `{token}` is not a literal", i + 1))?;
            if l.unsigned_abs() > num_vars {
                return Err(format!(
                    "line {}: literal {l} beyond {num_vars} variables",
                    i + 1
                ));
            }
            if l == 0 {
                clauses.push(std::mem::take(&mut clause));
            } else {
                clause.push(l);
            }
        }
    }
    let (num_vars, count) = header.ok_or("no `p cnf` header")?;
    if !clause.is_empty() {
        return Err("the last clause does not end with 0".into());
    }
    if clauses.len() != count {
        return Err(format!(
            "the header says {count} clauses, the file has {}",
            clauses.len()
        ));
    }
    Ok((num_vars, clauses))
}
