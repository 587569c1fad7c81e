//! Cluster constraints, the acyclicity cuts of the family-variable ILP.

use super::FamilyIlp;
use crate::milp::{MilpError, MilpModel, RowId, VarId};
use crate::varset::VarSet;

/// The cluster constraint of a node set C (|C| ≥ 2):
/// `Σ_{v ∈ C} Σ_{Π : Π ∩ C ≠ ∅} x(v, Π) ≤ |C| − 1`, i.e. some node of C has no parent in C.
/// Every acyclic graph satisfies it (a DAG restricted to C has a source); every cyclic
/// graph violates it for the node set of any of its cycles.
#[derive(Clone, Debug, PartialEq)]
pub struct ClusterCut {
    /// The cluster C.
    pub cluster: VarSet,
    /// The family columns in the left-hand side (all with coefficient 1), ascending.
    pub columns: Vec<usize>,
    /// The right-hand side |C| − 1.
    pub rhs: f64,
}

impl ClusterCut {
    /// The constraint of `cluster` in `ilp`.
    pub fn new(ilp: &FamilyIlp<'_>, cluster: &VarSet) -> Self {
        let columns = cluster
            .iter()
            .flat_map(|v| ilp.columns_of(v))
            .filter(|&col| ilp.parents(col).intersects(cluster))
            .collect();
        ClusterCut {
            cluster: cluster.clone(),
            columns,
            rhs: cluster.len() as f64 - 1.0,
        }
    }

    /// How much `values` violate the constraint: left-hand side minus |C| − 1
    /// (positive when violated).
    pub fn violation(&self, values: &[f64]) -> f64 {
        self.columns.iter().map(|&c| values[c]).sum::<f64>() - self.rhs
    }

    /// Adds the constraint as a row of `model`, whose first columns are the family
    /// columns (as in [`FamilyIlp::model`]).
    pub fn add_to(&self, model: &mut MilpModel, name: String) -> Result<RowId, MilpError> {
        model.add_le(name, self.coefficients(), self.rhs)
    }

    /// The left-hand side as `(column, 1.0)` pairs.
    pub fn coefficients(&self) -> impl Iterator<Item = (VarId, f64)> + '_ {
        self.columns.iter().map(|&c| (VarId::from_index(c), 1.0))
    }
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
        assert_eq!(ab.columns, vec![1, 3]);
        assert_eq!(ab.rhs, 1.0);
        let mut cyclic = Dag::empty(3);
        cyclic.set_parents(0, VarSet::from_members(3, [1]));
        cyclic.set_parents(1, VarSet::from_members(3, [0]));
        assert_eq!(ab.violation(&ilp.values_of(&cyclic).unwrap()), 1.0);
        cyclic.set_parents(0, VarSet::empty(3));
        assert_eq!(ab.violation(&ilp.values_of(&cyclic).unwrap()), 0.0);
    }
}
