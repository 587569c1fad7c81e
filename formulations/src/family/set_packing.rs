//! Set-packing rows of the family ILP, GOBNILP's initial strengthening (Bartlett &
//! Cussens 2017, §4: the cluster constraints of small clusters written as set packings).
//!
//! For a node set S (|S| ≥ 2), call a family (v, Π) with v ∈ S and S \ {v} ⊆ Π an
//! *all-in* family of S: v takes every other node of S as a parent. Two all-in families
//! of different nodes v, w ∈ S make v a parent of w and w a parent of v, a cycle; two of
//! the same node exclude each other by convexity. So every DAG satisfies
//!
//! ```text
//! Σ_{all-in families (v, Π) of S} x(v, Π) ≤ 1.
//! ```
//!
//! For |S| = 2 this is the cluster constraint of S. The rows are generated for the sets
//! whose every node has an all-in family (a set missing one for some node gives a row
//! that is implied by, or equal to, the rows of its subsets), growing sets one node of
//! larger index at a time; candidate parent sets bound |S| by the parent limit plus one.

use super::FamilyIlp;
use crate::milp::{MilpModel, VarId};
use crate::varset::VarSet;

/// One set-packing row: the node set S and its all-in family columns, ascending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackingRow {
    /// The node set S.
    pub nodes: VarSet,
    /// The columns of the all-in families of S.
    pub columns: Vec<usize>,
}

/// Every set-packing row (see the module documentation).
pub fn set_packings(ilp: &FamilyIlp<'_>) -> Vec<PackingRow> {
    let n = ilp.n();
    let mut rows = Vec::new();
    for first in 0..n {
        // The all-in families of {first} are all of its columns.
        let members = vec![(first, ilp.columns_of(first).collect::<Vec<_>>())];
        grow(ilp, &members, &mut rows);
    }
    rows
}

/// The columns of every set-packing row, each ascending.
pub fn set_packing_rows(ilp: &FamilyIlp<'_>) -> Vec<Vec<usize>> {
    set_packings(ilp).into_iter().map(|r| r.columns).collect()
}

/// Adds every set-packing row (`packing_<r>`, `Σ x ≤ 1`) to `model`, whose column `j`
/// must be family column `j` (as in [`FamilyIlp::model`]), and returns them in the
/// order added.
pub fn add_set_packing_rows(ilp: &FamilyIlp<'_>, model: &mut MilpModel) -> Vec<PackingRow> {
    let rows = set_packings(ilp);
    for (r, row) in rows.iter().enumerate() {
        model
            .add_le(
                format!("packing_{r}"),
                row.columns.iter().map(|&c| (VarId::from_index(c), 1.0)),
                1.0,
            )
            .expect("set-packing rows name family columns");
    }
    rows
}

/// Extends the set of `members` (node, its all-in columns so far; nodes ascending) by
/// every larger node, records the row of each extension whose nodes all keep an all-in
/// family, and recurses on those.
fn grow(ilp: &FamilyIlp<'_>, members: &[(usize, Vec<usize>)], rows: &mut Vec<PackingRow>) {
    let last = members.last().expect("a set has a node").0;
    for next in last + 1..ilp.n() {
        let Some(extended) = extend(ilp, members, next) else {
            continue;
        };
        let mut row: Vec<usize> = extended
            .iter()
            .flat_map(|(_, c)| c.iter().copied())
            .collect();
        row.sort_unstable();
        rows.push(PackingRow {
            nodes: VarSet::from_members(ilp.n(), extended.iter().map(|(v, _)| *v)),
            columns: row,
        });
        grow(ilp, &extended, rows);
    }
}

/// The members of S ∪ {next} with their all-in columns, or `None` when some node has
/// none.
fn extend(
    ilp: &FamilyIlp<'_>,
    members: &[(usize, Vec<usize>)],
    next: usize,
) -> Option<Vec<(usize, Vec<usize>)>> {
    let mut extended = Vec::with_capacity(members.len() + 1);
    for (v, columns) in members {
        let kept: Vec<usize> = columns
            .iter()
            .copied()
            .filter(|&c| ilp.parents(c).contains(next))
            .collect();
        if kept.is_empty() {
            return None;
        }
        extended.push((*v, kept));
    }
    let own: Vec<usize> = ilp
        .columns_of(next)
        .filter(|&c| {
            let parents = ilp.parents(c);
            members.iter().all(|(v, _)| parents.contains(*v))
        })
        .collect();
    if own.is_empty() {
        return None;
    }
    extended.push((next, own));
    Some(extended)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score_table::{Candidate, ScoreTable};
    use crate::varset::VarSet;

    /// Three nodes; a may take {b}, {b, c} or nothing; b may take {a}, {a, c} or nothing;
    /// c may take {a, b} or nothing.
    fn table() -> ScoreTable {
        let n = 3;
        let c = |ps: &[usize]| Candidate {
            parents: VarSet::from_members(n, ps.iter().copied()),
            score: -(ps.len() as f64),
        };
        ScoreTable::new(
            vec!["a".into(), "b".into(), "c".into()],
            vec![
                vec![c(&[]), c(&[1]), c(&[1, 2])],
                vec![c(&[]), c(&[0]), c(&[0, 2])],
                vec![c(&[]), c(&[0, 1])],
            ],
        )
        .unwrap()
    }

    #[test]
    fn rows_are_the_all_in_families_of_each_set() {
        let t = table();
        let ilp = FamilyIlp::new(&t);
        let col = |v, k| ilp.column(v, k);
        let rows = set_packing_rows(&ilp);
        let expected = vec![
            // {a, b}: a <- b in {b}, {b, c}; b <- a in {a}, {a, c}.
            vec![col(0, 1), col(0, 2), col(1, 1), col(1, 2)],
            // {a, b, c}: a <- {b, c}, b <- {a, c}, c <- {a, b}.
            vec![col(0, 2), col(1, 2), col(2, 1)],
            // {a, c}: a <- {b, c}, c <- {a, b}.
            vec![col(0, 2), col(2, 1)],
            // {b, c}: b <- {a, c}, c <- {a, b}.
            vec![col(1, 2), col(2, 1)],
        ];
        assert_eq!(rows, expected);
    }

    #[test]
    fn every_dag_of_the_table_satisfies_every_row() {
        let t = table();
        let ilp = FamilyIlp::new(&t);
        let rows = set_packing_rows(&ilp);
        let sizes: Vec<usize> = (0..t.n()).map(|v| t.candidates(v).len()).collect();
        let mut violated_by_a_cycle = false;
        for a in 0..sizes[0] {
            for b in 0..sizes[1] {
                for c in 0..sizes[2] {
                    let mut values = vec![0.0; ilp.num_columns()];
                    for col in [ilp.column(0, a), ilp.column(1, b), ilp.column(2, c)] {
                        values[col] = 1.0;
                    }
                    let acyclic = ilp.graph_of(&values).is_acyclic();
                    let worst = rows
                        .iter()
                        .map(|r| r.iter().map(|&c| values[c]).sum::<f64>())
                        .fold(0.0, f64::max);
                    if acyclic {
                        assert!(worst <= 1.0, "a DAG violates a row: {a} {b} {c}");
                    } else {
                        violated_by_a_cycle |= worst > 1.0;
                    }
                }
            }
        }
        assert!(violated_by_a_cycle);
    }

    #[test]
    fn the_rows_enter_the_model_as_packings_of_family_columns() {
        let t = table();
        let ilp = FamilyIlp::new(&t);
        let mut model = ilp.model();
        let base = model.num_rows();
        add_set_packing_rows(&ilp, &mut model);
        let added: Vec<Vec<usize>> = model.rows()[base..]
            .iter()
            .map(|row| {
                assert_eq!(
                    (row.lower, row.upper),
                    (f64::NEG_INFINITY, 1.0),
                    "{}",
                    row.name
                );
                assert!(row.coefficients.iter().all(|&(_, a)| a == 1.0));
                row.coefficients.iter().map(|&(c, _)| c.index()).collect()
            })
            .collect();
        assert_eq!(added, set_packing_rows(&ilp));
    }
}
