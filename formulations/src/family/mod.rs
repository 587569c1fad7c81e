//! The family-variable integer program of GOBNILP (Cussens; Bartlett & Cussens 2017,
//! the background of Liao et al. 2019): one binary x(v, Π) per node v and candidate parent set Π,
//!
//! ```text
//! maximise   Σ_v Σ_Π σ(v, Π) · x(v, Π)
//! subject to Σ_Π x(v, Π) = 1                                for every node v   (convexity)
//!            Σ_{v ∈ C} Σ_{Π : Π ∩ C ≠ ∅} x(v, Π) ≤ |C| − 1  for every cluster C (acyclicity)
//! ```
//!
//! The cluster constraint says that at least one node of C takes a parent set with no
//! parent in C (given the convexity rows, the two statements are the same); it is written
//! over the families whose parent set meets C because those are few for small clusters.
//! There are exponentially many clusters, so they are added as cutting planes
//! ([`separation`]); [`FamilyIlp::model`] holds only the convexity rows.

pub mod arrows;
pub mod certificate;
pub mod cluster;
pub mod cluster_search;
pub mod covered_arcs;
pub mod four_b;
pub mod k_cluster;
pub mod propagation;
pub mod separation;
pub mod separation_ip;
pub mod set_packing;

use crate::dag::Dag;
use crate::milp::{MilpModel, Sense, VarId};
use crate::score_table::ScoreTable;
use crate::varset::VarSet;
use rustc_hash::FxHashMap;

pub use cluster::{ClusterCut, ClusterForm};

/// The family-variable ILP of one score table: column layout, the base model, and
/// conversions between column values and DAGs.
///
/// Columns are laid out node by node, each node's candidates in the table's order
/// (best first): column `offset(v) + k` is node `v`'s `k`-th candidate.
#[derive(Clone, Debug)]
pub struct FamilyIlp<'t> {
    table: &'t ScoreTable,
    offsets: Vec<usize>,
}

impl<'t> FamilyIlp<'t> {
    /// The ILP of `table`.
    pub fn new(table: &'t ScoreTable) -> Self {
        let mut offsets = Vec::with_capacity(table.n() + 1);
        let mut total = 0;
        for v in 0..table.n() {
            offsets.push(total);
            total += table.candidates(v).len();
        }
        offsets.push(total);
        FamilyIlp { table, offsets }
    }

    /// The score table the program is built on.
    pub fn table(&self) -> &'t ScoreTable {
        self.table
    }

    /// Number of nodes.
    pub fn n(&self) -> usize {
        self.table.n()
    }

    /// Number of family columns.
    pub fn num_columns(&self) -> usize {
        self.offsets[self.n()]
    }

    /// The columns of node `v`.
    pub fn columns_of(&self, v: usize) -> std::ops::Range<usize> {
        self.offsets[v]..self.offsets[v + 1]
    }

    /// The column of node `v`'s `k`-th candidate.
    pub fn column(&self, v: usize, k: usize) -> usize {
        debug_assert!(k < self.table.candidates(v).len());
        self.offsets[v] + k
    }

    /// The node and candidate index of a column.
    pub fn family(&self, column: usize) -> (usize, usize) {
        let v = self.offsets.partition_point(|&o| o <= column) - 1;
        (v, column - self.offsets[v])
    }

    /// The parent set of a column's family.
    pub fn parents(&self, column: usize) -> &VarSet {
        let (v, k) = self.family(column);
        &self.table.candidates(v)[k].parents
    }

    /// The name of the column of `v`'s `k`-th candidate: `x.CHILD.PARENT1.PARENT2…` in
    /// the table's variable names (`x.CHILD` for the empty set), so that a model file
    /// read by another solver is read back without a key.
    pub fn column_name(&self, v: usize, k: usize) -> String {
        let names = self.table.names();
        let mut name = format!("x.{}", names[v]);
        for p in self.table.candidates(v)[k].parents.iter() {
            name.push('.');
            name.push_str(&names[p]);
        }
        name
    }

    /// The base model: binaries with the local scores as objective (maximised) and one
    /// convexity row per node. Column `j` of the model is family column `j`, named by
    /// [`FamilyIlp::column_name`].
    pub fn model(&self) -> MilpModel {
        let mut model = MilpModel::new(Sense::Maximize);
        for v in 0..self.n() {
            let cols: Vec<VarId> = self
                .table
                .candidates(v)
                .iter()
                .enumerate()
                .map(|(k, c)| {
                    model
                        .add_binary(self.column_name(v, k), c.score)
                        .expect("scores in a table are finite")
                })
                .collect();
            model
                .add_eq(
                    format!("convexity_{v}"),
                    cols.into_iter().map(|c| (c, 1.0)),
                    1.0,
                )
                .expect("convexity rows are well formed");
        }
        model
    }

    /// For every node, its column of largest value (the first of equal ones): the
    /// chosen family when `values` is integral.
    pub fn chosen_columns(&self, values: &[f64]) -> Vec<usize> {
        (0..self.n())
            .map(|v| {
                self.columns_of(v)
                    .max_by(|&a, &b| values[a].total_cmp(&values[b]).then(b.cmp(&a)))
                    .expect("every node has a candidate")
            })
            .collect()
    }

    /// The graph of [`FamilyIlp::chosen_columns`]. It may contain cycles.
    pub fn graph_of(&self, values: &[f64]) -> Dag {
        let parents = self
            .chosen_columns(values)
            .into_iter()
            .map(|c| self.parents(c).clone())
            .collect();
        Dag::from_parents(parents)
    }

    /// The 0/1 column values that select the families of `dag`, or `None` when one of its
    /// parent sets is not a candidate.
    pub fn values_of(&self, dag: &Dag) -> Option<Vec<f64>> {
        let mut values = vec![0.0; self.num_columns()];
        for v in 0..self.n() {
            let k = self
                .table
                .candidates(v)
                .iter()
                .position(|c| &c.parents == dag.parents(v))?;
            values[self.column(v, k)] = 1.0;
        }
        Some(values)
    }

    /// The cluster constraint of `cluster` (see [`ClusterCut`]).
    pub fn cluster_cut(&self, cluster: &VarSet) -> ClusterCut {
        ClusterCut::new(self, cluster)
    }
}

/// Each node's column of each of its candidate parent sets, for looking families up
/// by parent set in constant time ([`FamilyIlp::values_of`] scans the candidates).
#[derive(Clone, Debug)]
pub struct ColumnIndex {
    columns: Vec<FxHashMap<VarSet, usize>>,
}

impl ColumnIndex {
    /// The index of `ilp`'s columns.
    pub fn of(ilp: &FamilyIlp<'_>) -> Self {
        let columns = (0..ilp.n())
            .map(|v| {
                ilp.columns_of(v)
                    .map(|c| (ilp.parents(c).clone(), c))
                    .collect()
            })
            .collect();
        ColumnIndex { columns }
    }

    /// The column of node `v` with `parents`, if they are a candidate.
    pub fn column(&self, v: usize, parents: &VarSet) -> Option<usize> {
        self.columns[v].get(parents).copied()
    }

    /// The columns of `dag`, if each of its parent sets is a candidate.
    pub fn columns_of_dag(&self, dag: &Dag) -> Option<Vec<usize>> {
        (0..dag.n())
            .map(|v| self.column(v, dag.parents(v)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score_table::Candidate;

    pub(crate) fn small_table() -> ScoreTable {
        let c = |ps: &[usize], s| Candidate {
            parents: VarSet::from_members(3, ps.iter().copied()),
            score: s,
        };
        ScoreTable::new(
            vec!["a".into(), "b".into(), "c".into()],
            vec![
                vec![c(&[], -5.0), c(&[1], -4.0), c(&[2], -3.0)],
                vec![c(&[], -5.0), c(&[0], -4.5)],
                vec![c(&[], -6.0), c(&[0, 1], -2.0)],
            ],
        )
        .unwrap()
    }

    #[test]
    fn column_layout_round_trips() {
        let t = small_table();
        let ilp = FamilyIlp::new(&t);
        assert_eq!(ilp.num_columns(), 7);
        for col in 0..7 {
            let (v, k) = ilp.family(col);
            assert_eq!(ilp.column(v, k), col);
        }
        assert_eq!(ilp.columns_of(1), 3..5);
        let m = ilp.model();
        assert_eq!(m.num_vars(), 7);
        assert_eq!(m.num_rows(), 3);
        assert_eq!(m.variables()[0].objective, t.candidates(0)[0].score);
    }

    #[test]
    fn values_and_graphs_round_trip() {
        let t = small_table();
        let ilp = FamilyIlp::new(&t);
        let mut dag = Dag::empty(3);
        dag.set_parents(2, VarSet::from_members(3, [0, 1]));
        dag.set_parents(1, VarSet::from_members(3, [0]));
        let values = ilp.values_of(&dag).unwrap();
        assert_eq!(values.iter().sum::<f64>(), 3.0);
        assert_eq!(ilp.graph_of(&values), dag);
        let index = ColumnIndex::of(&ilp);
        let columns = index.columns_of_dag(&dag).unwrap();
        assert_eq!(columns, ilp.chosen_columns(&values));
        dag.set_parents(0, VarSet::from_members(3, [1, 2]));
        assert_eq!(ilp.values_of(&dag), None);
        assert_eq!(index.columns_of_dag(&dag), None);
    }
}
