//! Cluster constraints, the acyclicity cuts of the family-variable ILP.

use super::FamilyIlp;
use crate::milp::{MilpError, MilpModel, RowId, VarId};
use crate::varset::VarSet;

/// The cluster constraint of a node set C (|C| ≥ 2): some node of C has no parent in C.
/// Every acyclic graph satisfies it (a DAG restricted to C has a source); every cyclic
/// graph violates it for the node set of any of its cycles.
///
/// It has two forms, equivalent under the convexity rows `Σ_Π x(v, Π) = 1`
/// (Bartlett & Cussens 2017, eqs. (2)-(3)):
/// - [`ClusterForm::ParentsInside`]: `Σ_{v ∈ C} Σ_{Π : Π ∩ C ≠ ∅} x(v, Π) ≤ |C| − 1`;
/// - [`ClusterForm::NoParentInside`]: `Σ_{v ∈ C} Σ_{Π : Π ∩ C = ∅} x(v, Π) ≥ 1`.
///
/// The columns of C's nodes split between the two, so the cut takes the form with fewer
/// of them: small clusters the first, large ones the second (fewer nonzeros in the cut
/// rows make LP iterations cheaper; see README, "Benchmark notes behind design
/// choices").
#[derive(Clone, Debug, PartialEq)]
pub struct ClusterCut {
    /// The cluster C.
    pub cluster: VarSet,
    /// Which of the two forms the row takes.
    pub form: ClusterForm,
    /// The family columns in the left-hand side (all with coefficient 1), ascending.
    pub columns: Vec<usize>,
}

/// The two forms of a cluster constraint (see [`ClusterCut`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClusterForm {
    /// The families of C's nodes with a parent in C sum to at most |C| − 1.
    ParentsInside,
    /// The families of C's nodes with no parent in C sum to at least 1.
    NoParentInside,
}

impl ClusterCut {
    /// The constraint of `cluster` in `ilp`, in its sparser form (the first on a tie).
    pub fn new(ilp: &FamilyIlp<'_>, cluster: &VarSet) -> Self {
        let (inside, outside) = split_columns(ilp, cluster);
        let (form, columns) = if inside.len() <= outside.len() {
            (ClusterForm::ParentsInside, inside)
        } else {
            (ClusterForm::NoParentInside, outside)
        };
        ClusterCut {
            cluster: cluster.clone(),
            form,
            columns,
        }
    }

    /// The constraint of `cluster` in `ilp` in the form [`ClusterForm::NoParentInside`]:
    /// a clause over the family columns, "some node of C takes a parent set with no
    /// parent in C".
    pub fn no_parent_inside(ilp: &FamilyIlp<'_>, cluster: &VarSet) -> Self {
        ClusterCut {
            cluster: cluster.clone(),
            form: ClusterForm::NoParentInside,
            columns: split_columns(ilp, cluster).1,
        }
    }

    /// The row's bounds `(lower, upper)` on the sum of its columns (one is infinite).
    pub fn bounds(&self) -> (f64, f64) {
        match self.form {
            ClusterForm::ParentsInside => (f64::NEG_INFINITY, self.cluster.len() as f64 - 1.0),
            ClusterForm::NoParentInside => (1.0, f64::INFINITY),
        }
    }

    /// How much `values` violate the constraint (positive when violated): the sum of the
    /// columns beyond |C| − 1, or short of 1. Both forms give the same value on a point
    /// that satisfies the convexity rows.
    pub fn violation(&self, values: &[f64]) -> f64 {
        let sum: f64 = self.columns.iter().map(|&c| values[c]).sum();
        let (lower, upper) = self.bounds();
        match self.form {
            ClusterForm::ParentsInside => sum - upper,
            ClusterForm::NoParentInside => lower - sum,
        }
    }

    /// Adds the constraint as a row of `model`, whose first columns are the family
    /// columns (as in [`FamilyIlp::model`]).
    pub fn add_to(&self, model: &mut MilpModel, name: String) -> Result<RowId, MilpError> {
        let (lower, upper) = self.bounds();
        model.add_row(name, self.coefficients(), lower, upper)
    }

    /// The left-hand side as `(column, 1.0)` pairs.
    pub fn coefficients(&self) -> impl Iterator<Item = (VarId, f64)> + '_ {
        self.columns.iter().map(|&c| (VarId::from_index(c), 1.0))
    }
}

/// The family columns of `cluster`'s nodes, split into those with a parent in `cluster`
/// and those without, each ascending.
fn split_columns(ilp: &FamilyIlp<'_>, cluster: &VarSet) -> (Vec<usize>, Vec<usize>) {
    cluster
        .iter()
        .flat_map(|v| ilp.columns_of(v))
        .partition(|&col| ilp.parents(col).intersects(cluster))
}

#[cfg(test)]
mod tests {
    use super::super::tests::small_table;
    use super::*;
    use crate::dag::Dag;

    #[test]
    fn cyclic_graphs_violate_and_acyclic_ones_satisfy() {
        let t = small_table();
        let ilp = FamilyIlp::new(&t);
        let ab = ilp.cluster_cut(&VarSet::from_members(3, [0, 1]));
        // Best first: a's candidates are {c}, {b}, {}; b's are {a}, {}.
        // Two columns with a parent inside against three without: the first form.
        assert_eq!(ab.form, ClusterForm::ParentsInside);
        assert_eq!(ab.columns, vec![1, 3]);
        assert_eq!(ab.bounds(), (f64::NEG_INFINITY, 1.0));
        let mut cyclic = Dag::empty(3);
        cyclic.set_parents(0, VarSet::from_members(3, [1]));
        cyclic.set_parents(1, VarSet::from_members(3, [0]));
        assert_eq!(ab.violation(&ilp.values_of(&cyclic).unwrap()), 1.0);
        cyclic.set_parents(0, VarSet::empty(3));
        assert_eq!(ab.violation(&ilp.values_of(&cyclic).unwrap()), 0.0);
    }

    #[test]
    fn large_clusters_take_the_sparser_form_with_the_same_violation() {
        let t = small_table();
        let ilp = FamilyIlp::new(&t);
        let all = VarSet::from_members(3, [0, 1, 2]);
        let cut = ilp.cluster_cut(&all);
        // Four columns with a parent inside, three without (every node's empty set).
        assert_eq!(cut.form, ClusterForm::NoParentInside);
        assert_eq!(cut.columns, vec![2, 4, 6]);
        let inside = ClusterCut {
            cluster: all.clone(),
            form: ClusterForm::ParentsInside,
            columns: vec![0, 1, 3, 5],
        };
        let mut dag = Dag::empty(3);
        dag.set_parents(0, VarSet::from_members(3, [2]));
        dag.set_parents(2, VarSet::from_members(3, [0, 1]));
        let mut cyclic = dag.clone();
        cyclic.set_parents(1, VarSet::from_members(3, [0]));
        for (graph, expected) in [(&dag, 0.0), (&cyclic, 1.0)] {
            let values = ilp.values_of(graph).unwrap();
            assert_eq!(cut.violation(&values), expected);
            assert_eq!(inside.violation(&values), expected);
        }
    }
}
