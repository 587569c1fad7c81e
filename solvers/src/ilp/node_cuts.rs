//! Cluster cuts at the nodes of a back-end's own branch and bound, for back-ends with a
//! cut callback ([`NodeCuts`](crate::milp::NodeCuts): CBC).
//!
//! The cut loop hands [`ClusterSeparator`] to every MIP round: the solver then
//! separates cluster constraints (Bartlett & Cussens 2017, eq. (3)) on each node's LP,
//! as GOBNILP does in SCIP, instead of branching on a program that knows only the
//! root's clusters. The clusters it finds are kept and join the program of the next
//! round.

use crate::milp::{CutRow, CutSeparator};
use bnsl_formulations::family::separation::{separate_heuristically, SeparationOptions, Support};
use bnsl_formulations::family::ClusterForm;
use bnsl_formulations::{ClusterCut, FamilyIlp, ScoreTable, VarSet};
use rustc_hash::FxHashSet;
use std::sync::Mutex;

/// Separates cluster cuts of the family program of a table with the heuristics
/// (strongly connected components, short cycles, greedy growth).
///
/// Not the exact sub-IP: at CBC's nodes it cost more than it gained; with it CBC got
/// through far fewer nodes and its bound did not move from the root's (see README,
/// "Benchmark notes behind design choices").
pub(crate) struct ClusterSeparator {
    table: ScoreTable,
    options: SeparationOptions,
    found: Mutex<Found>,
}

/// The distinct clusters separated since the last [`ClusterSeparator::take_found`], in
/// the order first found (the same cluster is often violated at many nodes, so the
/// rows separated far outnumber the distinct clusters; see README, "Benchmark notes
/// behind design choices").
#[derive(Default)]
struct Found {
    seen: FxHashSet<VarSet>,
    in_order: Vec<VarSet>,
}

impl ClusterSeparator {
    /// A separator on a copy of `table` (the solver calls it from its own threads,
    /// which may outlive the caller's borrow).
    pub(crate) fn new(table: &ScoreTable, options: &SeparationOptions) -> Self {
        ClusterSeparator {
            table: table.clone(),
            options: options.clone(),
            found: Mutex::new(Found::default()),
        }
    }

    /// How many distinct clusters went to the solver since the last
    /// [`take_found`](Self::take_found): while a round runs, the cuts it has added so far.
    pub(super) fn found_so_far(&self) -> usize {
        self.found
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .in_order
            .len()
    }

    /// The clusters whose cuts went to the solver since the last call, each once, in
    /// the order first found.
    pub(super) fn take_found(&self) -> Vec<VarSet> {
        let found = std::mem::take(&mut *self.found.lock().unwrap_or_else(|p| p.into_inner()));
        found.in_order
    }
}

impl CutSeparator for ClusterSeparator {
    fn separate(&self, values: &[f64]) -> Vec<CutRow> {
        let ilp = FamilyIlp::new(&self.table);
        let cuts = separate_heuristically(&ilp, &Support::new(&ilp, values), &self.options);
        let mut found = self.found.lock().unwrap_or_else(|p| p.into_inner());
        for cut in &cuts {
            if found.seen.insert(cut.cluster.clone()) {
                found.in_order.push(cut.cluster.clone());
            }
        }
        drop(found);
        cuts.iter().map(cut_row).collect()
    }
}

/// The cut as a `≥` row: the first form negated (`−Σ x ≥ −(|C| − 1)`), the second as
/// it is (`Σ x ≥ 1`).
pub(crate) fn cut_row(cut: &ClusterCut) -> CutRow {
    let (sign, lower) = match cut.form {
        ClusterForm::ParentsInside => (-1.0, 1.0 - cut.cluster.len() as f64),
        ClusterForm::NoParentInside => (1.0, 1.0),
    };
    CutRow {
        terms: cut.columns.iter().map(|&c| (c, sign)).collect(),
        lower,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use bnsl_formulations::{Candidate, Dag};

    /// Three nodes whose best families form the cycle 0 → 1 → 2 → 0 ([`the_cycle`]).
    pub(crate) fn cyclic_table() -> ScoreTable {
        let n = 3;
        let cands = |best: usize| {
            vec![
                Candidate {
                    parents: VarSet::from_members(n, [best]),
                    score: -1.0,
                },
                Candidate {
                    parents: VarSet::empty(n),
                    score: -5.0,
                },
            ]
        };
        ScoreTable::new(
            vec!["a".into(), "b".into(), "c".into()],
            vec![cands(2), cands(0), cands(1)],
        )
        .unwrap()
    }

    /// The graph of every node's best family in [`cyclic_table`].
    pub(crate) fn the_cycle() -> Dag {
        let mut cycle = Dag::empty(3);
        for (v, u) in [(0, 2), (1, 0), (2, 1)] {
            cycle.set_parents(v, VarSet::from_members(3, [u]));
        }
        cycle
    }

    #[test]
    fn the_cycle_of_an_integer_point_is_cut_and_recorded() {
        let table = cyclic_table();
        let ilp = FamilyIlp::new(&table);
        let cycle = the_cycle();
        let values = ilp.values_of(&cycle).unwrap();
        let separator = ClusterSeparator::new(&table, &SeparationOptions::default());
        let rows = separator.separate(&values);
        assert!(!rows.is_empty());
        for row in &rows {
            let activity: f64 = row.terms.iter().map(|&(j, a)| a * values[j]).sum();
            assert!(activity < row.lower, "{row:?} is not violated");
        }
        let cycle_cluster = VarSet::from_members(3, [0, 1, 2]);
        assert_eq!(separator.found_so_far(), rows.len());
        let found = separator.take_found();
        assert!(found.contains(&cycle_cluster));
        assert_eq!(separator.found_so_far(), 0);
        assert!(separator.take_found().is_empty());
        // The same point again: the same rows, the clusters recorded once.
        assert_eq!(separator.separate(&values), rows);
        separator.separate(&values);
        assert_eq!(separator.take_found(), found);
        // Every DAG satisfies every row.
        let mut dag = cycle.clone();
        dag.set_parents(0, VarSet::empty(3));
        let dag_values = ilp.values_of(&dag).unwrap();
        for row in &rows {
            let activity: f64 = row.terms.iter().map(|&(j, a)| a * dag_values[j]).sum();
            assert!(activity >= row.lower, "{row:?} cuts off a DAG");
        }
    }
}
