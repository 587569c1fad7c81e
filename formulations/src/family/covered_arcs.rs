//! Rows that leave one DAG or a few per Markov equivalence class, for collections
//! (seed 002), which then complete each class from the DAG they find.
//!
//! An arc u → v of a DAG is *covered* when Pa(v) = Pa(u) ∪ {u} = Π ∪ {u}; reversing it
//! gives a Markov-equivalent DAG (Chickering 1995, Lemma 1), which differs in two
//! families: (u, Π), (v, Π ∪ {u}) become (v, Π), (u, Π ∪ {v}). Call such a pair of
//! candidates *swappable* when the other two are candidates as well and the two pairs'
//! scores sum alike (within a tolerance; exactly so for every covered arc under a
//! score-equivalent score such as BIC or BDeu), and the arc decreasing when u > v. The
//! rows
//!
//! ```text
//! x(u, Π) + x(v, Π ∪ {u}) ≤ 1        for every swappable pair with u > v
//! ```
//!
//! lose no class. Reversing a decreasing covered arc of a swappable pair makes that arc
//! increasing and leaves every other arc as it was, so from any DAG of candidates
//! repeated reversals end, after at most as many as it has arcs, at an equivalent DAG
//! of candidates that meets every row and scores the same up to that many tolerances.
//! A table that is not score-equivalent, or misses some DAGs of a class (a parent limit,
//! constraints, pruning), has fewer swappable pairs and so fewer rows; nothing else
//! changes. Under BIC or BDeu with no parent limit small classes keep one DAG, larger
//! ones a few.

use super::{ColumnIndex, FamilyIlp};
use crate::milp::{MilpModel, VarId};

/// The column pairs `[x(u, Π), x(v, Π ∪ {u})]` of every row (see the module doc): the
/// swappable pairs with u > v, whose score sums differ from their reversal's by at most
/// `tolerance`.
pub fn decreasing_covered_arc_pairs(ilp: &FamilyIlp<'_>, tolerance: f64) -> Vec<[usize; 2]> {
    let index = ColumnIndex::of(ilp);
    let score = |column: usize| {
        let (v, k) = ilp.family(column);
        ilp.table().candidates(v)[k].score
    };
    let mut pairs = Vec::new();
    for v in 0..ilp.n() {
        for child_column in ilp.columns_of(v) {
            let parents = ilp.parents(child_column);
            for u in parents.iter().filter(|&u| u > v) {
                let base = parents.without(u);
                let (Some(parent_column), Some(reversed_child), Some(reversed_parent)) = (
                    index.column(u, &base),
                    index.column(v, &base),
                    index.column(u, &base.with(v)),
                ) else {
                    continue;
                };
                let sum = score(parent_column) + score(child_column);
                let reversed = score(reversed_child) + score(reversed_parent);
                if (sum - reversed).abs() <= tolerance {
                    pairs.push([parent_column, child_column]);
                }
            }
        }
    }
    pairs
}

/// Adds every row (`covered_<k>`, `x(u, Π) + x(v, Π ∪ {u}) ≤ 1`) of
/// [`decreasing_covered_arc_pairs`] to `model`, whose column `j` must be family column
/// `j` (as in [`FamilyIlp::model`]).
pub fn add_covered_arc_rows(ilp: &FamilyIlp<'_>, tolerance: f64, model: &mut MilpModel) {
    for (k, pair) in decreasing_covered_arc_pairs(ilp, tolerance)
        .into_iter()
        .enumerate()
    {
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
    use crate::varset::VarSet;

    /// Nodes 0, 1, 2 with scores that sum alike on every reversal (σ(v, Π) = f(Π ∪ {v})
    /// − f(Π)), some parent sets missing; then one score changed.
    #[test]
    fn pairs_are_the_swappable_decreasing_covered_arcs() {
        let f = |set: u64| -[0.0, 1.0, 2.0, 4.0, 3.0, 5.0, 6.5, 9.0][set as usize];
        let c = |v: usize, ps: &[usize]| {
            let set: u64 = ps.iter().map(|&p| 1 << p).sum();
            Candidate {
                parents: VarSet::from_members(3, ps.iter().copied()),
                score: f(set | 1 << v) - f(set),
            }
        };
        let candidates = vec![
            vec![c(0, &[]), c(0, &[1]), c(0, &[1, 2])],
            vec![c(1, &[]), c(1, &[0]), c(1, &[2]), c(1, &[0, 2])],
            vec![c(2, &[]), c(2, &[1])],
        ];
        let names = vec!["a".into(), "b".into(), "c".into()];
        let table = ScoreTable::new(names.clone(), candidates.clone()).unwrap();
        let ilp = FamilyIlp::new(&table);
        let col = |v: usize, k: usize| ilp.column(v, k);
        let mut pairs = decreasing_covered_arc_pairs(&ilp, 1e-9);
        pairs.sort();
        // 1 → 0 with Π = {}: reversal (1, {}) → (0, {}), (1, {0}), all candidates.
        // 1 → 0 with Π = {2}: (1, {2}), (0, {1, 2}) reverse to (0, {2}), missing.
        // 2 → 1 with Π = {}: (2, {}), (1, {2}) reverse to (1, {}), (2, {1}).
        // 2 → 1 with Π = {0}: (2, {0}) is missing.
        let mut expected = vec![[col(1, 0), col(0, 1)], [col(2, 0), col(1, 2)]];
        expected.sort();
        assert_eq!(pairs, expected);
        let mut changed = candidates;
        changed[2][1].score += 0.5;
        let table = ScoreTable::new(names, changed).unwrap();
        let ilp = FamilyIlp::new(&table);
        assert_eq!(
            decreasing_covered_arc_pairs(&ilp, 1e-9),
            vec![[col(1, 0), col(0, 1)]]
        );
    }
}
