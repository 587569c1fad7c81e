//! Rows that leave one DAG or a few per Markov equivalence class, for collections whose
//! networks come in whole classes (seed 002's collection on a score-equivalent table).
//!
//! An arc u → v of a DAG is *covered* when Pa(v) = Pa(u) ∪ {u}; reversing it gives a
//! Markov-equivalent DAG (Chickering 1995, Lemma 1). Call it decreasing when u > v.
//! Reversing a decreasing covered arc makes that arc increasing and leaves every other
//! arc as it was, so repeated reversals end, at a DAG of the same class with no
//! decreasing covered arc. The rows
//!
//! ```text
//! x(u, Π) + x(v, Π ∪ {u}) ≤ 1        for u > v, v ∉ Π, both families candidates
//! ```
//!
//! forbid exactly the decreasing covered arcs. They keep at least one DAG of every class
//! whose DAGs are all made of candidates, with the score of every other (score
//! equivalence), and in small classes usually exactly one; a search under them meets
//! every such class, and the collection completes each class from the DAG it met.
//!
//! They are valid only for such collections: on a table that misses some DAGs of a
//! class (a parent limit, constraints, a score that is not score-equivalent), they may
//! cut off the class's only DAGs of candidates.

use super::FamilyIlp;
use crate::milp::{MilpModel, VarId};
use crate::varset::VarSet;
use rustc_hash::FxHashMap;

/// The column pairs `[x(u, Π), x(v, Π ∪ {u})]` of every row (see the module doc).
pub fn decreasing_covered_arc_pairs(ilp: &FamilyIlp<'_>) -> Vec<[usize; 2]> {
    let column_of: Vec<FxHashMap<&VarSet, usize>> = (0..ilp.n())
        .map(|v| ilp.columns_of(v).map(|c| (ilp.parents(c), c)).collect())
        .collect();
    let mut pairs = Vec::new();
    for v in 0..ilp.n() {
        for child_column in ilp.columns_of(v) {
            let parents = ilp.parents(child_column);
            for u in parents.iter().filter(|&u| u > v) {
                if let Some(&parent_column) = column_of[u].get(&parents.without(u)) {
                    pairs.push([parent_column, child_column]);
                }
            }
        }
    }
    pairs
}

/// Adds every row (`covered_<k>`, `x(u, Π) + x(v, Π ∪ {u}) ≤ 1`) to `model`, whose
/// column `j` must be family column `j` (as in [`FamilyIlp::model`]).
pub fn add_covered_arc_rows(ilp: &FamilyIlp<'_>, model: &mut MilpModel) {
    for (k, pair) in decreasing_covered_arc_pairs(ilp).into_iter().enumerate() {
        model
            .add_le(
                format!("covered_{k}"),
                pair.into_iter().map(|c| (VarId::from_index(c), 1.0)),
                1.0,
            )
            .expect("covered-arc rows name family columns");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score_table::{Candidate, ScoreTable};

    /// Nodes 0, 1, 2; node 0 may take {1} or {1, 2}, node 1 {} or {2}, node 2 {}.
    #[test]
    fn pairs_are_the_decreasing_covered_arcs() {
        let c = |ps: &[usize]| Candidate {
            parents: VarSet::from_members(3, ps.iter().copied()),
            score: -1.0,
        };
        let table = ScoreTable::new(
            vec!["a".into(), "b".into(), "c".into()],
            vec![
                vec![c(&[]), c(&[1]), c(&[1, 2])],
                vec![c(&[]), c(&[2])],
                vec![c(&[])],
            ],
        )
        .unwrap();
        let ilp = FamilyIlp::new(&table);
        let col = |v: usize, k: usize| ilp.column(v, k);
        let mut pairs = decreasing_covered_arc_pairs(&ilp);
        pairs.sort();
        // 1 → 0 covered when Pa(1) = {} and Pa(0) = {1}, or Pa(1) = {2} and Pa(0) = {1, 2};
        // 2 → 0 when Pa(2) = {} and Pa(0) = {2} (not a candidate) or Pa(2) = {1} (not one);
        // 2 → 1 when Pa(2) = {} and Pa(1) = {2}.
        let mut expected = vec![
            [col(1, 0), col(0, 1)],
            [col(1, 1), col(0, 2)],
            [col(2, 0), col(1, 1)],
        ];
        expected.sort();
        assert_eq!(pairs, expected);
    }
}
