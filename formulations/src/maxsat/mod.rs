//! MaxSAT encodings of structure learning (SPEC C7): weighted CNF with hard clauses that
//! every network satisfies and soft clauses whose falsified weights sum to the network's
//! cost, its score's distance below the best score of each node, scaled to integers.
//!
//! - [`Wcnf`]: the clauses, in DIMACS literals (variables from 1, negation by sign).
//! - [`bnsl`]: the encoding of plain structure learning and how its answers decode.
//! - [`treewidth`]: the bounded-treewidth encoding (an elimination ordering of the moral
//!   graph with at most `W` higher neighbours per node).
//! - [`cost_bound`]: the cost as a binary number (an adder network), and the clauses
//!   that bound it, for linear search and for proofs of optimality.
//! - [`wcnf_format`]: the WCNF files (the 2022 MaxSAT Evaluation format with `h` hard
//!   clauses, and the older `p wcnf` one), and the `v` lines of a solver's answer.

pub mod bnsl;
pub mod cost_bound;
pub mod treewidth;
pub mod wcnf_format;

#[cfg(test)]
mod tests;

/// A DIMACS literal: variable `|l|` (from 1), negated when `l < 0`.
pub type Lit = i32;

/// A weighted CNF formula.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Wcnf {
    /// Variables `1..=num_vars`.
    pub num_vars: u32,
    /// Clauses every answer must satisfy.
    pub hard: Vec<Vec<Lit>>,
    /// Clauses with the positive weight paid when falsified.
    pub soft: Vec<(u64, Vec<Lit>)>,
}

impl Wcnf {
    /// A fresh variable.
    pub fn new_var(&mut self) -> Lit {
        self.num_vars += 1;
        self.num_vars as Lit
    }

    /// The weight an assignment falsifies (`value[v]` for variable `v`; index 0 is
    /// unused), or `None` when it falsifies a hard clause.
    pub fn cost(&self, value: &[bool]) -> Option<u64> {
        if !self.hard.iter().all(|c| holds(c, value)) {
            return None;
        }
        Some(self.falsified_weight(value))
    }

    /// The weight of the soft clauses an assignment falsifies, whatever it does to the
    /// hard clauses.
    pub fn falsified_weight(&self, value: &[bool]) -> u64 {
        self.soft
            .iter()
            .filter(|(_, c)| !holds(c, value))
            .map(|(w, _)| w)
            .sum()
    }

    /// The sum of the soft weights.
    pub fn total_weight(&self) -> u64 {
        self.soft.iter().map(|(w, _)| w).sum()
    }
}

/// Whether `value` (`value[v]` for variable `v`; index 0 is unused) satisfies `clause`.
pub fn holds(clause: &[Lit], value: &[bool]) -> bool {
    clause
        .iter()
        .any(|&l| value[l.unsigned_abs() as usize] == (l > 0))
}
