//! The family ILP's cluster constraints as clauses of the BNSL encoding
//! ([`bnsl_formulations::maxsat::bnsl`]), separated from a point of the hitting-set
//! program's LP relaxation.
//!
//! In the encoding, literal `x(v, k)` says node `v` takes its `k`-th candidate. For a
//! node set `C` of at least two nodes, the clause `∨_{v ∈ C} ∨_{k : Π_k ∩ C = ∅} x(v, k)`
//! (some node of `C` takes a parent set with no parent in `C`) holds in every model of
//! the hard clauses: the order clauses put the nodes of `C` in a strict total order,
//! whose first member has all its parents outside `C`. It is the cluster constraint of
//! Jaakkola et al. (2010) in the form `Σ_{v ∈ C} Σ_{Π ∩ C = ∅} y(v, Π) ≥ 1` (Bartlett &
//! Cussens 2017, eq. (3)), and a core in MaxSAT's sense: the soft clauses `¬x(v, k)` of
//! its literals cannot all hold. Saikko, Malone & Järvisalo (2015) note that the
//! minimal cores of this encoding are these clauses; a separator finds the ones a
//! fractional hitting set violates, which the SAT solver, seeing only literals at zero,
//! cannot.

use super::ImpliedClauses;
use crate::ilp::cut_loop::round_search;
use crate::ilp::node_cuts::ClusterSeparator;
use crate::ilp::separation::{MilpSubIp, Pipeline};
use crate::ilp::sink::round_to_network;
use crate::milp::{CutSeparator, Limits, MilpBackend, SolverError};
use bnsl_formulations::family::separation::SeparationOptions;
use bnsl_formulations::{ClusterCut, FamilyIlp, ScoreTable};
use std::sync::Arc;

/// The cluster clauses of a score table's BNSL encoding, found by the family ILP's
/// separation pipeline (heuristics, cluster search, then the exact sub-IP on the
/// hitting-set back-end's sub-IP settings). The group literals of the seeded search must be the
/// encoding's `family_vars`, so that position `i` of the flattened groups is family
/// column `i` of [`FamilyIlp`].
pub struct ClusterClauses<'t> {
    ilp: FamilyIlp<'t>,
    options: SeparationOptions,
}

impl<'t> ClusterClauses<'t> {
    /// The separator for the encoding of `table`.
    pub fn new(table: &'t ScoreTable) -> Self {
        ClusterClauses {
            ilp: FamilyIlp::new(table),
            options: SeparationOptions::default(),
        }
    }
}

impl ImpliedClauses for ClusterClauses<'_> {
    fn violated(
        &self,
        values: &[f64],
        backend: &dyn MilpBackend,
        limits: &Limits,
    ) -> Result<Vec<Vec<usize>>, SolverError> {
        let sub_ips = backend.for_sub_ips();
        let exact = MilpSubIp(sub_ips.as_ref());
        let pipeline = Pipeline {
            options: &self.options,
            search: round_search(&self.ilp),
            exact: Some(&exact),
        };
        let cuts = pipeline.separate(&self.ilp, values, limits.time_limit, &limits.stop)?;
        Ok(cuts
            .iter()
            .map(|cut| ClusterCut::no_parent_inside(&self.ilp, &cut.cluster).columns)
            .collect())
    }

    /// The family ILP's cluster cuts by its heuristics (strongly connected components,
    /// short cycles, greedy growth), as CBC separates them at its nodes in the cut loop.
    fn node_separator(&self) -> Option<Arc<dyn CutSeparator>> {
        Some(Arc::new(ClusterSeparator::new(
            self.ilp.table(),
            &self.options,
        )))
    }

    /// The family ILP's sink heuristic (the cut loop's rounding): a DAG, so the order
    /// clauses have a model with its families.
    fn rounded(&self, values: &[f64]) -> Option<Vec<usize>> {
        let network = round_to_network(&self.ilp, values)?;
        Some(
            network
                .choice
                .iter()
                .enumerate()
                .map(|(v, &k)| self.ilp.column(v, k))
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristics::{obs_network, sample_order};
    use crate::test_tables::larger_table;

    /// Every clause of a cyclic point holds of sampled DAGs of the table and is violated
    /// by the point.
    #[test]
    fn clauses_cut_off_cycles_and_hold_of_sampled_dags() {
        for seed in 0..20 {
            let table = larger_table(seed);
            let separator = ClusterClauses::new(&table);
            let ilp = FamilyIlp::new(&table);
            let n = table.n();
            // Every node takes its best candidate with a parent, if it has one: usually
            // cyclic.
            let mut cyclic = vec![0.0; ilp.num_columns()];
            for v in 0..n {
                let k = (0..table.candidates(v).len())
                    .find(|&k| !table.candidates(v)[k].parents.is_empty())
                    .unwrap_or(0);
                cyclic[ilp.column(v, k)] = 1.0;
            }
            let backend = super::super::default_hitting_set_backend().expect("a back-end");
            let clauses = separator
                .violated(&cyclic, backend.as_ref(), &Limits::default())
                .unwrap();
            let graph = ilp.graph_of(&cyclic);
            assert_eq!(clauses.is_empty(), graph.is_acyclic(), "seed {seed}");
            for clause in &clauses {
                assert!(clause.iter().all(|&c| cyclic[c] == 0.0), "seed {seed}");
                // Networks of random orders, each node with its best candidate among
                // the nodes before it.
                for restart in 0..10 {
                    let network = obs_network(&table, &sample_order(n, seed, restart))
                        .expect("the empty parent set is a candidate");
                    let holds = clause.iter().any(|&c| {
                        let (v, k) = ilp.family(c);
                        network.choice[v] == k
                    });
                    assert!(holds, "seed {seed}");
                }
            }
        }
    }
}
