//! Exact cluster separation as a small integer program (the sub-IP of Cussens' GOBNILP;
//! Bartlett & Cussens 2017, §5): given the support of a solution x*, find the cluster C
//! maximising the violation `Σ_{v ∈ C} Σ_{Π ∩ C ≠ ∅} x*(v, Π) − |C| + 1`.
//!
//! ```text
//! maximise   Σ_f x*_f · y_f − Σ_v c_v
//! subject to y_f ≤ c_v              for every support family f = (v, Π)
//!            y_f ≤ Σ_{u ∈ Π} c_u     for every support family f = (v, Π)
//!            Σ_v c_v ≥ 2
//!            Σ_f x*_f · y_f − Σ_v c_v ≥ −1 + δ
//! ```
//!
//! with binaries c_v (v ∈ C) and y_f (family f counts: its node is in C and one of its
//! parents is). The objective plus 1 is the violation of C; the last row asks for a
//! violation of at least δ, so an infeasible sub-IP proves that no cluster is violated
//! by δ or more.

use super::separation::Support;
use crate::milp::{MilpModel, Sense, VarId};
use crate::varset::VarSet;

/// The separation sub-IP of one solution and the meaning of its columns.
#[derive(Clone, Debug)]
pub struct SeparationIp {
    /// The program (maximise).
    pub model: MilpModel,
    /// Column of c_v for every node that occurs in the support (`None` otherwise).
    cluster_columns: Vec<Option<VarId>>,
}

impl SeparationIp {
    /// The sub-IP for `support`, asking for a violation of at least `min_violation`.
    /// `None` when the support has no family with a parent (no cluster can be violated).
    pub fn new(support: &Support, min_violation: f64) -> Option<Self> {
        let n = support.n();
        let mut occurs = vec![false; n];
        for v in 0..n {
            for (parents, _) in support.families(v) {
                occurs[v] = true;
                for u in parents.iter() {
                    occurs[u] = true;
                }
            }
        }
        if !occurs.iter().any(|&o| o) {
            return None;
        }
        let mut model = MilpModel::new(Sense::Maximize);
        let cluster_columns: Vec<Option<VarId>> = (0..n)
            .map(|v| {
                occurs[v].then(|| {
                    model
                        .add_binary(format!("c_{v}"), -1.0)
                        .expect("valid column")
                })
            })
            .collect();
        let mut objective_row: Vec<(VarId, f64)> = cluster_columns
            .iter()
            .flatten()
            .map(|&c| (c, -1.0))
            .collect();
        for v in 0..n {
            for (k, (parents, x)) in support.families(v).iter().enumerate() {
                let y = model
                    .add_binary(format!("y_{v}_{k}"), *x)
                    .expect("support values are finite");
                objective_row.push((y, *x));
                let c_v = cluster_columns[v].expect("a support family's node occurs");
                model
                    .add_le(format!("in_{v}_{k}"), [(y, 1.0), (c_v, -1.0)], 0.0)
                    .expect("valid row");
                let mut meets = vec![(y, 1.0)];
                meets.extend(
                    parents
                        .iter()
                        .map(|u| (cluster_columns[u].expect("parents occur"), -1.0)),
                );
                model
                    .add_le(format!("meets_{v}_{k}"), meets, 0.0)
                    .expect("valid row");
            }
        }
        model
            .add_ge(
                "at_least_two",
                cluster_columns.iter().flatten().map(|&c| (c, 1.0)),
                2.0,
            )
            .expect("valid row");
        model
            .add_ge("violated", objective_row, -1.0 + min_violation)
            .expect("valid row");
        Some(SeparationIp {
            model,
            cluster_columns,
        })
    }

    /// The cluster selected by a solution of the sub-IP.
    pub fn cluster(&self, values: &[f64]) -> VarSet {
        let n = self.cluster_columns.len();
        VarSet::from_members(
            n,
            self.cluster_columns
                .iter()
                .enumerate()
                .filter_map(|(v, c)| c.filter(|c| values[c.index()] > 0.5).map(|_| v)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::FamilyIlp;
    use crate::score_table::{Candidate, ScoreTable};

    #[test]
    fn cluster_objective_is_violation_minus_one() {
        // Three nodes in a fractional 3-cycle: v0 <- v2, v1 <- v0, v2 <- v1, each 0.8.
        let n = 3;
        let c = |ps: &[usize], s| Candidate {
            parents: VarSet::from_members(n, ps.iter().copied()),
            score: s,
        };
        let t = ScoreTable::new(
            vec!["a".into(), "b".into(), "c".into()],
            vec![
                vec![c(&[2], -1.0), c(&[], -2.0)],
                vec![c(&[0], -1.0), c(&[], -2.0)],
                vec![c(&[1], -1.0), c(&[], -2.0)],
            ],
        )
        .unwrap();
        let ilp = FamilyIlp::new(&t);
        let values = vec![0.8, 0.2, 0.8, 0.2, 0.8, 0.2];
        let support = Support::new(&ilp, &values);
        let sub = SeparationIp::new(&support, 1e-4).unwrap();
        // c_0..c_2, then y for each node's single support family.
        assert_eq!(sub.model.num_vars(), 6);
        let all = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
        assert!((sub.model.objective_value(&all) + 1.0 - 0.4).abs() < 1e-12);
        assert!(sub.model.max_violation(&all) <= 0.0);
        assert_eq!(sub.cluster(&all), VarSet::from_members(n, [0, 1, 2]));
        assert!((support.violation(&sub.cluster(&all)) - 0.4).abs() < 1e-12);
        // A pair of the cycle is not violated: y for the pair's inner arc only.
        let pair = [1.0, 1.0, 0.0, 0.0, 1.0, 0.0];
        assert!(sub.model.max_violation(&pair) > 0.0);
    }
}
