//! The input every formulation shares: per node, the candidate parent sets and their
//! local scores (a "score file" in GOBNILP's terms).
//!
//! Scores are natural-log decomposable scores, higher is better (GOBNILP's convention).
//! Each node's candidates are kept sorted best first, which the DP oracle, OBS/ASOBS
//! and the ILP primal heuristics all rely on.

use crate::varset::VarSet;
use rayon::prelude::*;
use std::collections::HashMap;

/// One candidate family: a parent set and its local score.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The parent set.
    pub parents: VarSet,
    /// Local score of the node given `parents` (natural log, higher is better).
    pub score: f64,
}

/// The largest magnitude of a local score bnsl accepts. A network's score is a sum of
/// up to one local score per variable, and MILP solvers take magnitudes from about 1e19
/// up as infinite (SCIP's infinity is 1e20): with this limit a sum over a million
/// variables stays below that. Real local scores are far smaller (BDeu and BIC are at
/// most a few times the number of rows times the log of the arities).
pub const MAX_ABS_SCORE: f64 = 1e13;

/// What is wrong with `score` as a local score, if anything: not a finite number, or
/// beyond [`MAX_ABS_SCORE`].
pub fn score_problem(score: f64) -> Option<&'static str> {
    if !score.is_finite() {
        Some("is not a finite number")
    } else if score.abs() > MAX_ABS_SCORE {
        Some("is beyond ±1e13, the largest magnitude bnsl accepts (sums of such scores reach what MILP solvers take as infinite)")
    } else {
        None
    }
}

/// Errors when assembling a score table from raw candidates.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ScoreTableError {
    /// A node has no candidate at all.
    #[error("variable `{0}` has no candidate parent set")]
    NoCandidates(String),
    /// A candidate's score is NaN, infinite, or beyond [`MAX_ABS_SCORE`] in magnitude.
    #[error("variable `{var}`: score {score} {}", score_problem(*.score).unwrap_or("is refused"))]
    NonFiniteScore {
        /// The variable.
        var: String,
        /// The score.
        score: f64,
    },
    /// A node lists itself as a parent.
    #[error("variable `{0}` lists itself as a parent")]
    SelfParent(String),
    /// A node lists the same parent set twice.
    #[error("variable `{var}`: parent set {parents:?} is listed twice")]
    DuplicateParentSet {
        /// The variable.
        var: String,
        /// The parent set listed twice.
        parents: Vec<String>,
    },
    /// Two variables share a name.
    #[error("variable name `{0}` is used twice")]
    DuplicateName(String),
}

/// Candidate parent sets with local scores, for every node.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreTable {
    names: Vec<String>,
    candidates: Vec<Vec<Candidate>>,
}

impl ScoreTable {
    /// Builds a table, validating it and sorting each node's candidates best first
    /// (ties broken by smaller parent sets first, then lexicographically, so the order
    /// is deterministic).
    pub fn new(
        names: Vec<String>,
        candidates: Vec<Vec<Candidate>>,
    ) -> Result<Self, ScoreTableError> {
        assert_eq!(
            names.len(),
            candidates.len(),
            "one candidate list per variable"
        );
        let mut seen = HashMap::new();
        for name in &names {
            if seen.insert(name.as_str(), ()).is_some() {
                return Err(ScoreTableError::DuplicateName(name.clone()));
            }
        }
        let mut table = ScoreTable {
            names,
            candidates: Vec::new(),
        };
        table.candidates = candidates
            .into_par_iter()
            .enumerate()
            .map(|(v, mut list)| {
                validate_node(&table.names, v, &list)?;
                list.sort_unstable_by(|a, b| {
                    b.score
                        .total_cmp(&a.score)
                        .then_with(|| a.parents.len().cmp(&b.parents.len()))
                        .then_with(|| a.parents.cmp(&b.parents))
                });
                Ok(list)
            })
            .collect::<Result<_, _>>()?;
        Ok(table)
    }

    /// Number of variables.
    pub fn n(&self) -> usize {
        self.names.len()
    }

    /// Variable names, indexed by variable.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Index of the variable called `name`.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// Candidates of node `v`, best first.
    pub fn candidates(&self, v: usize) -> &[Candidate] {
        &self.candidates[v]
    }

    /// Total number of candidate families over all nodes.
    pub fn total_candidates(&self) -> usize {
        self.candidates.iter().map(Vec::len).sum()
    }

    /// The score of `parents` for node `v`, if it is a candidate.
    pub fn score_of(&self, v: usize, parents: &VarSet) -> Option<f64> {
        self.candidates[v]
            .iter()
            .find(|c| &c.parents == parents)
            .map(|c| c.score)
    }

    /// The best candidate of `v` whose parents all lie in `allowed`.
    pub fn best_within(&self, v: usize, allowed: &VarSet) -> Option<&Candidate> {
        self.candidates[v]
            .iter()
            .find(|c| c.parents.is_subset(allowed))
    }

    /// The largest parent-set size over all candidates.
    pub fn max_parents(&self) -> usize {
        self.candidates
            .iter()
            .flatten()
            .map(|c| c.parents.len())
            .max()
            .unwrap_or(0)
    }

    /// The table without dominated candidates: a parent set is dropped when a proper
    /// subset of it is also a candidate and scores at least as well (the pruning rule
    /// of Liao et al. 2019, Lemma 1, applied to a given table: any DAG that uses the superset
    /// stays acyclic and scores no worse with the subset, so some optimal DAG avoids
    /// it). GOBNILP does the same to the score files it reads. Returns the table and
    /// the number of sets dropped.
    pub fn without_dominated(&self) -> (ScoreTable, usize) {
        let mut dropped = 0;
        let candidates = self
            .candidates
            .iter()
            .map(|list| {
                let kept = undominated(list);
                dropped += list.len() - kept.len();
                kept
            })
            .collect();
        let table = ScoreTable {
            names: self.names.clone(),
            candidates,
        };
        (table, dropped)
    }

    /// Consumes the table, returning names and per-node candidate lists.
    pub fn into_parts(self) -> (Vec<String>, Vec<Vec<Candidate>>) {
        (self.names, self.candidates)
    }
}

/// The candidates of `list` (best first) that no proper subset in `list` matches or
/// beats, in the same order. Sets are visited best first and, among equal scores,
/// smallest first, so a dominating subset is always seen before the sets it dominates.
fn undominated(list: &[Candidate]) -> Vec<Candidate> {
    let mut order: Vec<usize> = (0..list.len()).collect();
    order.sort_by(|&a, &b| {
        list[b]
            .score
            .total_cmp(&list[a].score)
            .then(list[a].parents.len().cmp(&list[b].parents.len()))
    });
    let mut kept_sets: Vec<&VarSet> = Vec::new();
    let mut keep = vec![false; list.len()];
    for i in order {
        let set = &list[i].parents;
        let dominated = kept_sets
            .iter()
            .any(|k| k.len() < set.len() && k.is_subset(set));
        if !dominated {
            keep[i] = true;
            kept_sets.push(set);
        }
    }
    list.iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(c, _)| c.clone())
        .collect()
}

/// Checks one node's candidate list: non-empty, finite scores, no self-parent, no set twice.
fn validate_node(names: &[String], v: usize, list: &[Candidate]) -> Result<(), ScoreTableError> {
    let name = &names[v];
    if list.is_empty() {
        return Err(ScoreTableError::NoCandidates(name.clone()));
    }
    let mut seen = rustc_hash::FxHashSet::with_capacity_and_hasher(list.len(), Default::default());
    for c in list {
        if score_problem(c.score).is_some() {
            return Err(ScoreTableError::NonFiniteScore {
                var: name.clone(),
                score: c.score,
            });
        }
        if c.parents.contains(v) {
            return Err(ScoreTableError::SelfParent(name.clone()));
        }
        if !seen.insert(&c.parents) {
            let parents = c.parents.iter().map(|p| names[p].clone()).collect();
            return Err(ScoreTableError::DuplicateParentSet {
                var: name.clone(),
                parents,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(n: usize, ps: &[usize], score: f64) -> Candidate {
        Candidate {
            parents: VarSet::from_members(n, ps.iter().copied()),
            score,
        }
    }

    #[test]
    fn dominated_sets_are_dropped() {
        let n = 4;
        let t = ScoreTable::new(
            (0..n).map(|i| format!("v{i}")).collect(),
            vec![
                vec![
                    cand(n, &[], -10.0),
                    cand(n, &[1], -8.0),
                    cand(n, &[1, 2], -9.0), // worse than its subset {1}: dropped
                    cand(n, &[1, 3], -8.0), // ties with {1}: dropped
                    cand(n, &[2, 3], -7.0), // better than every subset: kept
                    cand(n, &[2], -12.0),   // worse than the empty set: dropped
                ],
                vec![cand(n, &[], -1.0)],
                vec![cand(n, &[], -1.0)],
                vec![cand(n, &[0, 1], -1.0), cand(n, &[], -1.0)],
            ],
        )
        .unwrap();
        let (pruned, dropped) = t.without_dominated();
        assert_eq!(dropped, 4);
        let kept: Vec<Vec<usize>> = pruned
            .candidates(0)
            .iter()
            .map(|c| c.parents.iter().collect())
            .collect();
        assert_eq!(kept, vec![vec![2, 3], vec![1], vec![]]);
        // Equal scores: the smaller set stays whatever the input order.
        let kept3: Vec<usize> = pruned
            .candidates(3)
            .iter()
            .map(|c| c.parents.len())
            .collect();
        assert_eq!(kept3, vec![0]);
    }

    #[test]
    fn sorts_best_first_and_finds_within() {
        let t = ScoreTable::new(
            vec!["a".into(), "b".into()],
            vec![
                vec![cand(2, &[], -5.0), cand(2, &[1], -3.0)],
                vec![cand(2, &[], -1.0)],
            ],
        )
        .unwrap();
        assert_eq!(t.candidates(0)[0].score, -3.0);
        assert_eq!(t.best_within(0, &VarSet::empty(2)).unwrap().score, -5.0);
        assert_eq!(t.score_of(0, &VarSet::from_members(2, [1])), Some(-3.0));
    }

    #[test]
    fn rejects_bad_tables() {
        let names = || vec!["a".to_string(), "b".to_string()];
        let e = ScoreTable::new(
            names(),
            vec![vec![cand(2, &[], f64::NAN)], vec![cand(2, &[], 0.0)]],
        );
        assert!(matches!(e, Err(ScoreTableError::NonFiniteScore { .. })));
        for huge in [-1e21, 1e308, 1.0000001e13] {
            let e = ScoreTable::new(
                names(),
                vec![vec![cand(2, &[], huge)], vec![cand(2, &[], 0.0)]],
            );
            let message = e.unwrap_err().to_string();
            assert!(message.contains("beyond ±1e13"), "{message}");
        }
        assert!(ScoreTable::new(
            names(),
            vec![vec![cand(2, &[], -1e13)], vec![cand(2, &[], 0.0)]],
        )
        .is_ok());
        let e = ScoreTable::new(
            names(),
            vec![vec![cand(2, &[0], 0.0)], vec![cand(2, &[], 0.0)]],
        );
        assert_eq!(e, Err(ScoreTableError::SelfParent("a".into())));
        let e = ScoreTable::new(names(), vec![vec![], vec![cand(2, &[], 0.0)]]);
        assert_eq!(e, Err(ScoreTableError::NoCandidates("a".into())));
        let e = ScoreTable::new(
            names(),
            vec![
                vec![cand(2, &[1], 0.0), cand(2, &[1], -1.0)],
                vec![cand(2, &[], 0.0)],
            ],
        );
        assert!(matches!(e, Err(ScoreTableError::DuplicateParentSet { .. })));
        let e = ScoreTable::new(
            vec!["a".into(), "a".into()],
            vec![vec![cand(2, &[], 0.0)]; 2],
        );
        assert_eq!(e, Err(ScoreTableError::DuplicateName("a".into())));
    }
}
