//! k-cluster constraints, a strengthening of the cluster constraints (Jaakkola, Sontag,
//! Globerson & Meila 2010, §3; Cussens, Järvisalo, Korhonen & Bartlett 2017, JAIR 58,
//! §6, where they are shown to define facets of the family-variable polytope).
//!
//! For a node set C and 1 ≤ k < |C|: in a DAG restricted to C, the first k nodes of a
//! topological order have fewer than k parents in C, so
//!
//! `Σ_{v ∈ C} Σ_{Π : |Π ∩ C| < k} x(v, Π) ≥ k`,
//!
//! or, under the convexity rows, `Σ_{v ∈ C} Σ_{Π : |Π ∩ C| ≥ k} x(v, Π) ≤ |C| − k`. For
//! k = 1 it is the cluster constraint ([`super::ClusterCut`]). A fractional point that
//! satisfies every cluster constraint can violate a k-cluster constraint of k ≥ 2, so
//! they raise the LP bound where the cluster cuts have converged.
//!
//! Separation here is heuristic: the k-cluster constraints of given node sets (in the
//! branch and cut, the clusters of the cluster cuts already added, which are where the
//! LP solution is tight), for every k from 2 up to a limit.

use super::FamilyIlp;
use crate::varset::VarSet;

/// The k-cluster constraint of a node set, in the form with the columns of families
/// with at least k parents in C (`Σ ≤ |C| − k`).
#[derive(Clone, Debug, PartialEq)]
pub struct KClusterCut {
    /// The node set C.
    pub cluster: VarSet,
    /// How many nodes of C must have fewer than k parents in C.
    pub k: usize,
    /// The family columns of C's nodes with at least k parents in C, ascending; each has
    /// coefficient 1.
    pub columns: Vec<usize>,
}

impl KClusterCut {
    /// The constraint of `cluster` and `k` in `ilp` (`1 ≤ k < |C|`).
    pub fn new(ilp: &FamilyIlp<'_>, cluster: &VarSet, k: usize) -> Self {
        debug_assert!(k >= 1 && k < cluster.len());
        let columns = cluster
            .iter()
            .flat_map(|v| ilp.columns_of(v))
            .filter(|&col| parents_inside(ilp, col, cluster) >= k)
            .collect();
        KClusterCut {
            cluster: cluster.clone(),
            k,
            columns,
        }
    }

    /// The right-hand side `|C| − k`.
    pub fn upper(&self) -> f64 {
        (self.cluster.len() - self.k) as f64
    }

    /// How much `values` violate the constraint (positive when violated).
    pub fn violation(&self, values: &[f64]) -> f64 {
        self.columns.iter().map(|&c| values[c]).sum::<f64>() - self.upper()
    }
}

/// The number of parents of `column`'s family that lie in `cluster`.
fn parents_inside(ilp: &FamilyIlp<'_>, column: usize, cluster: &VarSet) -> usize {
    ilp.parents(column)
        .iter()
        .filter(|&p| cluster.contains(p))
        .count()
}

/// The k-cluster constraints, 2 ≤ k ≤ `max_k`, of the node sets `clusters` that `values`
/// (one per family column, satisfying the convexity rows) violate by at least
/// `min_violation`: most violated first, at most `max_cuts`, one k per node set (the
/// most violated).
pub fn separate_k_clusters<'a>(
    ilp: &FamilyIlp<'_>,
    values: &[f64],
    clusters: impl IntoIterator<Item = &'a VarSet>,
    max_k: usize,
    min_violation: f64,
    max_cuts: usize,
) -> Vec<KClusterCut> {
    let mut found: Vec<(f64, &VarSet, usize)> = Vec::new();
    // mass[m]: the LP weight of C's families with exactly m parents in C (m ≤ max_k).
    let mut mass = vec![0.0; max_k + 1];
    for cluster in clusters {
        let size = cluster.len();
        if size <= 2 || max_k < 2 {
            continue;
        }
        mass.iter_mut().for_each(|m| *m = 0.0);
        for v in cluster.iter() {
            for col in ilp.columns_of(v) {
                if values[col] > 0.0 {
                    let m = parents_inside(ilp, col, cluster).min(max_k);
                    mass[m] += values[col];
                }
            }
        }
        // Σ over families with fewer than k parents in C must reach k.
        let mut below = mass[0];
        let mut best: Option<(f64, usize)> = None;
        for k in 2..=max_k.min(size - 1) {
            below += mass[k - 1];
            let violation = k as f64 - below;
            if violation >= min_violation && best.is_none_or(|(b, _)| violation > b) {
                best = Some((violation, k));
            }
        }
        if let Some((violation, k)) = best {
            found.push((violation, cluster, k));
        }
    }
    found.sort_by(|a, b| b.0.total_cmp(&a.0));
    found
        .into_iter()
        .take(max_cuts)
        .map(|(_, cluster, k)| KClusterCut::new(ilp, cluster, k))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dag::Dag;
    use crate::score_table::{Candidate, ScoreTable};

    /// Three nodes, every parent set of size ≤ 2 a candidate.
    fn full_table() -> ScoreTable {
        let sets = |v: usize| -> Vec<Candidate> {
            let others: Vec<usize> = (0..3).filter(|&u| u != v).collect();
            let mut c = vec![Candidate {
                parents: VarSet::empty(3),
                score: -10.0,
            }];
            for &u in &others {
                c.push(Candidate {
                    parents: VarSet::from_members(3, [u]),
                    score: -9.0,
                });
            }
            c.push(Candidate {
                parents: VarSet::from_members(3, others.iter().copied()),
                score: -8.0,
            });
            c
        };
        ScoreTable::new(
            vec!["a".into(), "b".into(), "c".into()],
            (0..3).map(sets).collect(),
        )
        .unwrap()
    }

    #[test]
    fn every_dag_satisfies_every_k_cluster_constraint() {
        let t = full_table();
        let ilp = FamilyIlp::new(&t);
        let all = VarSet::from_members(3, [0, 1, 2]);
        let mut dag = Dag::empty(3);
        dag.set_parents(1, VarSet::from_members(3, [0]));
        dag.set_parents(2, VarSet::from_members(3, [0, 1]));
        let values = ilp.values_of(&dag).unwrap();
        for k in 1..3 {
            assert!(KClusterCut::new(&ilp, &all, k).violation(&values) <= 0.0);
        }
        assert!(separate_k_clusters(&ilp, &values, [&all], 2, 1e-6, 10).is_empty());
    }

    #[test]
    fn a_point_satisfying_the_cluster_cuts_can_violate_a_2_cluster_cut() {
        let t = full_table();
        let ilp = FamilyIlp::new(&t);
        // Each node takes half of "no parent" and half of "both others": every cluster
        // cut of a pair or of all three holds, but the weight of the families with fewer
        // than 2 parents in C = {a, b, c} is 1.5, against the 2 such nodes of every DAG.
        let mut values = vec![0.0; ilp.num_columns()];
        for v in 0..3 {
            for col in ilp.columns_of(v) {
                if ilp.parents(col).len() != 1 {
                    values[col] = 0.5;
                }
            }
        }
        let all = VarSet::from_members(3, [0, 1, 2]);
        for pair in [[0, 1], [0, 2], [1, 2]] {
            let c = VarSet::from_members(3, pair);
            assert!(ilp.cluster_cut(&c).violation(&values) <= 1e-12);
        }
        assert!(ilp.cluster_cut(&all).violation(&values) <= 1e-12);
        let cuts = separate_k_clusters(&ilp, &values, [&all], 2, 1e-6, 10);
        assert_eq!(cuts.len(), 1);
        assert_eq!(cuts[0].k, 2);
        assert!((cuts[0].violation(&values) - 0.5).abs() < 1e-12);
    }
}
