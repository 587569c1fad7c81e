//! A DRAT proof checker (Wetzler, Heule & Hunt 2014), independent of the SAT solver that
//! writes the proofs: it checks that a CNF formula is unsatisfiable by replaying the
//! proof's clause additions and deletions.
//!
//! Forward checking: each added clause must be a reverse unit propagation (RUP) of the
//! clauses present (assigning its literals false and propagating gives a conflict), or
//! else a resolution asymmetric tautology (RAT) on its first literal `p`: for every
//! present clause `D` containing `¬p`, the clause plus `D \ {¬p}` is RUP. The proof is
//! accepted once the clauses present propagate to a conflict with nothing assigned (the
//! empty clause, derived or implied). Unit propagation uses two watched literals.
//!
//! A deletion of a clause that is the reason of an assignment with nothing assumed is
//! ignored (as drat-trim does for unit clauses): keeping a clause only makes RUP checks
//! easier on clauses the formula implies, and RAT checks stricter, so it is sound.

use std::collections::HashMap;

/// A DIMACS literal.
type Lit = i32;

/// Why a proof was rejected.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DratError {
    /// A line of the proof could not be read.
    #[error("proof line {line}: {why}")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// An added clause is neither RUP nor RAT.
    #[error("proof line {line}: the clause {clause:?} does not follow (neither RUP nor RAT)")]
    NotImplied {
        /// 1-based line number.
        line: usize,
        /// The clause.
        clause: Vec<Lit>,
    },
    /// The proof ended without a conflict.
    #[error("the proof ends without deriving the empty clause")]
    NoConflict,
}

/// What a check did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DratSummary {
    /// Clauses added by the proof and checked.
    pub lemmas: usize,
    /// Of them, those that needed the RAT check.
    pub rat_lemmas: usize,
    /// Deletions applied (ignored ones not counted).
    pub deletions: usize,
}

/// Checks that the text DRAT `proof` refutes the formula of `num_vars` variables and
/// `clauses`.
pub fn check_drat(
    num_vars: u32,
    clauses: &[Vec<Lit>],
    proof: &str,
) -> Result<DratSummary, DratError> {
    let mut max_var = num_vars;
    let mut steps = Vec::new();
    for (i, line) in proof.lines().enumerate() {
        let line_no = i + 1;
        let text = line.trim();
        if text.is_empty() || text.starts_with('c') {
            continue;
        }
        let (delete, rest) = match text.strip_prefix('d') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let mut lits = Vec::new();
        let mut ended = false;
        for token in rest.split_whitespace() {
            let l: Lit = token.parse().map_err(|_| DratError::Syntax {
                line: line_no,
                why: format!("`{token}` is not a literal"),
            })?;
            if l == 0 {
                ended = true;
                break;
            }
            max_var = max_var.max(l.unsigned_abs());
            lits.push(l);
        }
        if !ended {
            return Err(DratError::Syntax {
                line: line_no,
                why: "the clause does not end with 0".into(),
            });
        }
        steps.push((line_no, delete, lits));
    }
    let mut checker = Checker::new(max_var);
    for clause in clauses {
        checker.add(clause);
    }
    let mut summary = DratSummary::default();
    if checker.conflict {
        return Ok(summary);
    }
    for (line, delete, lits) in steps {
        if delete {
            if checker.delete(&lits) {
                summary.deletions += 1;
            }
            continue;
        }
        summary.lemmas += 1;
        if !checker.rup(&lits, &[]) {
            if !checker.rat(&lits) {
                return Err(DratError::NotImplied { line, clause: lits });
            }
            summary.rat_lemmas += 1;
        }
        checker.add(&lits);
        if checker.conflict {
            return Ok(summary);
        }
    }
    Err(DratError::NoConflict)
}

/// The clause database with its propagation state.
struct Checker {
    clauses: Vec<Vec<Lit>>,
    live: Vec<bool>,
    /// Clause ids by sorted literals, for deletions.
    by_key: HashMap<Vec<Lit>, Vec<usize>>,
    /// Watch lists by literal code: clauses watching that literal (its first two).
    watches: Vec<Vec<usize>>,
    /// Value by variable: 0 unassigned, 1 true, -1 false (of the positive literal).
    value: Vec<i8>,
    /// Reason clause of each variable assigned with nothing assumed.
    reason: Vec<Option<usize>>,
    trail: Vec<Lit>,
    /// Inside a RUP check: assignments are temporary and have no recorded reason.
    in_check: bool,
    /// Next trail entry to propagate.
    head: usize,
    /// The clauses present propagate to a conflict.
    conflict: bool,
}

fn code(l: Lit) -> usize {
    2 * l.unsigned_abs() as usize + usize::from(l < 0)
}

/// The value of `l` under the variable values `value` (1 true, −1 false, 0 unassigned).
fn value_of(value: &[i8], l: Lit) -> i8 {
    let v = value[l.unsigned_abs() as usize];
    if l > 0 {
        v
    } else {
        -v
    }
}

/// A clause's literals sorted, duplicates dropped: how deletions find it.
fn key(clause: &[Lit]) -> Vec<Lit> {
    let mut lits = clause.to_vec();
    lits.sort_unstable();
    lits.dedup();
    lits
}

impl Checker {
    fn new(max_var: u32) -> Self {
        let n = max_var as usize + 1;
        Checker {
            clauses: Vec::new(),
            live: Vec::new(),
            by_key: HashMap::new(),
            watches: vec![Vec::new(); 2 * n + 2],
            value: vec![0; n],
            reason: vec![None; n],
            trail: Vec::new(),
            in_check: false,
            head: 0,
            conflict: false,
        }
    }

    fn lit_value(&self, l: Lit) -> i8 {
        value_of(&self.value, l)
    }

    fn assign(&mut self, l: Lit, reason: Option<usize>) {
        self.value[l.unsigned_abs() as usize] = if l > 0 { 1 } else { -1 };
        if !self.in_check {
            self.reason[l.unsigned_abs() as usize] = reason;
        }
        self.trail.push(l);
    }

    /// Adds a clause (duplicates of literals dropped) and propagates at the base level.
    fn add(&mut self, clause: &[Lit]) {
        let mut lits = key(clause);
        if lits.windows(2).any(|w| w[0] == -w[1]) {
            return;
        }
        let id = self.clauses.len();
        self.by_key.entry(lits.clone()).or_default().push(id);
        // Watch two literals that are not false, if there are.
        lits.sort_by_key(|&l| -self.lit_value(l));
        self.clauses.push(lits);
        self.live.push(true);
        let c = self.clauses[id].clone();
        match c.len() {
            0 => self.conflict = true,
            1 => {
                self.watches[code(c[0])].push(id);
                match self.lit_value(c[0]) {
                    1 => {}
                    0 => self.assign(c[0], Some(id)),
                    _ => self.conflict = true,
                }
            }
            _ => {
                let (a, b) = (c[0], c[1]);
                self.watches[code(a)].push(id);
                self.watches[code(b)].push(id);
                match (self.lit_value(a), self.lit_value(b)) {
                    (-1, _) => self.conflict = true,
                    (0, -1) => self.assign(a, Some(id)),
                    _ => {}
                }
            }
        }
        if !self.conflict && !self.propagate() {
            self.conflict = true;
        }
    }

    /// Deletes a clause unless it is a reason at the base level; whether it did.
    fn delete(&mut self, clause: &[Lit]) -> bool {
        let Some(ids) = self.by_key.get_mut(&key(clause)) else {
            return false;
        };
        let Some(pos) = ids.iter().position(|&id| {
            !self.clauses[id]
                .iter()
                .any(|&l| self.reason[l.unsigned_abs() as usize] == Some(id))
        }) else {
            return false;
        };
        let id = ids.swap_remove(pos);
        self.live[id] = false;
        true
    }

    /// Propagates the trail from `head`; false on a conflict.
    fn propagate(&mut self) -> bool {
        while self.head < self.trail.len() {
            let false_lit = -self.trail[self.head];
            self.head += 1;
            let watching = std::mem::take(&mut self.watches[code(false_lit)]);
            let mut keep = Vec::with_capacity(watching.len());
            let mut ok = true;
            for &id in &watching {
                if !self.live[id] {
                    continue;
                }
                if !ok {
                    keep.push(id);
                    continue;
                }
                let c = &mut self.clauses[id];
                if c.len() == 1 {
                    keep.push(id);
                    ok = false;
                    continue;
                }
                if c[0] == false_lit {
                    c.swap(0, 1);
                }
                let other = c[0];
                if value_of(&self.value, other) == 1 {
                    keep.push(id);
                    continue;
                }
                let replacement = (2..c.len()).find(|&j| value_of(&self.value, c[j]) != -1);
                match replacement {
                    Some(j) => {
                        c.swap(1, j);
                        let new_watch = c[1];
                        self.watches[code(new_watch)].push(id);
                    }
                    None => {
                        keep.push(id);
                        match value_of(&self.value, other) {
                            0 => self.assign(other, Some(id)),
                            _ => ok = false,
                        }
                    }
                }
            }
            self.watches[code(false_lit)].extend(keep);
            if !ok {
                return false;
            }
        }
        true
    }

    /// Whether assigning `clause` and `extra` false propagates to a conflict; undoes it.
    fn rup(&mut self, clause: &[Lit], extra: &[Lit]) -> bool {
        let saved = self.trail.len();
        self.in_check = true;
        let mut conflict = false;
        for &l in clause.iter().chain(extra) {
            match self.lit_value(l) {
                1 => {
                    conflict = true;
                    break;
                }
                0 => self.assign(-l, None),
                _ => {}
            }
        }
        if !conflict {
            conflict = !self.propagate();
        }
        for &l in &self.trail[saved..] {
            self.value[l.unsigned_abs() as usize] = 0;
        }
        self.trail.truncate(saved);
        self.head = saved;
        self.in_check = false;
        conflict
    }

    /// The RAT check of `clause` on its first literal.
    fn rat(&mut self, clause: &[Lit]) -> bool {
        let Some(&pivot) = clause.first() else {
            return false;
        };
        let candidates: Vec<usize> = (0..self.clauses.len())
            .filter(|&id| self.live[id] && self.clauses[id].contains(&-pivot))
            .collect();
        candidates.into_iter().all(|id| {
            let resolvent: Vec<Lit> = self.clauses[id]
                .iter()
                .copied()
                .filter(|&l| l != -pivot)
                .collect();
            self.rup(clause, &resolvent)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every assignment of x1, x2 falsifies one clause.
    fn all_four() -> Vec<Vec<Lit>> {
        vec![vec![1, 2], vec![1, -2], vec![-1, 2], vec![-1, -2]]
    }

    #[test]
    fn a_rup_proof_is_accepted() {
        let summary = check_drat(2, &all_four(), "1 0\n0\n").unwrap();
        assert_eq!(summary.lemmas, 1);
        // The unit clause alone already propagates to a conflict.
        assert!(check_drat(2, &all_four(), "1 0\n").is_ok());
    }

    #[test]
    fn a_lemma_that_does_not_follow_is_rejected() {
        assert_eq!(
            check_drat(2, &all_four(), "0\n"),
            Err(DratError::NotImplied {
                line: 1,
                clause: vec![]
            })
        );
        let satisfiable = vec![vec![1, 2], vec![-1, 2]];
        assert_eq!(
            check_drat(2, &satisfiable, "2 0\n"),
            Err(DratError::NoConflict)
        );
        assert!(matches!(
            check_drat(2, &satisfiable, "-2 0\n0\n"),
            Err(DratError::NotImplied { line: 1, .. })
        ));
    }

    #[test]
    fn a_rat_lemma_is_accepted_and_deletions_apply() {
        // x3 and x4 are fresh: `3 4 0` propagates nothing, and is RAT on 3 (no clause
        // has ¬3).
        let summary = check_drat(2, &all_four(), "3 4 0\nd 3 4 0\n1 0\n0\n").unwrap();
        assert_eq!(summary.rat_lemmas, 1);
        assert_eq!(summary.deletions, 1);
        // Once `1 2` and `1 -2` are deleted, `1` no longer follows.
        assert!(check_drat(2, &all_four(), "d 1 2 0\nd 1 -2 0\n1 0\n0\n").is_err());
    }

    #[test]
    fn bad_lines_are_named() {
        assert_eq!(
            check_drat(2, &all_four(), "1 x 0\n"),
            Err(DratError::Syntax {
                line: 1,
                why: "`x` is not a literal".into()
            })
        );
        assert!(matches!(
            check_drat(2, &all_four(), "c comment\n1 2\n"),
            Err(DratError::Syntax { line: 2, .. })
        ));
    }
}
