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
use crate::ilp::node_cuts::cut_row;
use crate::ilp::separation::{ExactSeparator, MilpSubIp, Pipeline};
use crate::ilp::sink::round_to_network;
use crate::milp::{CutRow, CutSeparator, Limits, MilpBackend, SolverError};
use crate::StopToken;
use bnsl_formulations::family::separation::{SeparationOptions, Support};
use bnsl_formulations::{ClusterCut, FamilyIlp, ScoreTable};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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

impl ClusterClauses<'_> {
    /// The node separator of a MILP call that began at `began`, with its exact sub-IPs
    /// on `sub_ips`.
    fn node_clauses(
        &self,
        sub_ips: Option<Box<dyn MilpBackend>>,
        began: Instant,
    ) -> NodeClusterClauses {
        NodeClusterClauses {
            table: self.ilp.table().clone(),
            options: self.options.clone(),
            sub_ips,
            began,
            exact_time: Mutex::new(Duration::ZERO),
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
    /// short cycles, greedy growth), and by the exact sub-IP within a share of the call's
    /// time (`NodeClusterClauses`), on the back-end `backend`'s callbacks allow
    /// ([`crate::milp::NodeCuts::sub_ips_in_callbacks`]; none: heuristics only).
    fn node_separator(&self, backend: &dyn MilpBackend) -> Option<Arc<dyn CutSeparator>> {
        let sub_ips = backend.node_cuts().and_then(|n| n.sub_ips_in_callbacks());
        Some(Arc::new(self.node_clauses(sub_ips, Instant::now())))
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

/// The most time the exact sub-IP may have taken, as a share of a MILP call's time after
/// [`EXACT_DELAY_SECONDS`], for it to run again at a node.
const EXACT_SHARE: f64 = 0.5;

/// How long a MILP call runs before the exact sub-IP may run at its nodes, in seconds.
const EXACT_DELAY_SECONDS: f64 = 3.0;

/// The longest one exact separation at a node may take, in seconds.
const EXACT_CALL_SECONDS: f64 = 2.0;

/// Cluster clauses at the nodes of one MILP call: the heuristics at every node; the
/// exact sub-IP at a fractional node where they find nothing, once the call has run
/// [`EXACT_DELAY_SECONDS`] and as long as the sub-IPs have taken at most
/// [`EXACT_SHARE`] of the time since. A short call never pays for the sub-IP, and a
/// long one spends at most about that share (and one sub-IP's limit) on the clusters
/// only the sub-IP finds (README, "Hitting sets on SCIP with lazy cluster clauses").
struct NodeClusterClauses {
    table: ScoreTable,
    options: SeparationOptions,
    /// The back-end of the exact sub-IP; `None`: heuristics only.
    sub_ips: Option<Box<dyn MilpBackend>>,
    began: Instant,
    /// Time spent in the exact sub-IP so far.
    exact_time: Mutex<Duration>,
}

impl NodeClusterClauses {
    /// Whether the exact stage may run at `values`: a back-end for it, a fractional
    /// point, within the share of time.
    fn exact_allowed(&self, values: &[f64]) -> bool {
        if self.sub_ips.is_none() {
            return false;
        }
        let fractional = values.iter().any(|&x| x > 1e-6 && x < 1.0 - 1e-6);
        let spent = *self.exact_time.lock().unwrap_or_else(|p| p.into_inner());
        let running = self.began.elapsed().as_secs_f64() - EXACT_DELAY_SECONDS;
        fractional && running >= 0.0 && spent.as_secs_f64() <= EXACT_SHARE * running
    }
}

impl CutSeparator for NodeClusterClauses {
    fn separate(&self, values: &[f64]) -> Vec<CutRow> {
        let ilp = FamilyIlp::new(&self.table);
        let pipeline = Pipeline {
            options: &self.options,
            search: None,
            exact: self
                .exact_allowed(values)
                .then_some(self as &dyn ExactSeparator),
        };
        // A failed sub-IP leaves the node to the heuristics' answer: none.
        let cuts = pipeline
            .separate(&ilp, values, Some(EXACT_CALL_SECONDS), &StopToken::new())
            .unwrap_or_default();
        clause_rows(&ilp, &cuts)
    }
}

/// The rows `Σ x ≥ 1` of the cluster clauses of `cuts`.
fn clause_rows(ilp: &FamilyIlp<'_>, cuts: &[ClusterCut]) -> Vec<CutRow> {
    cuts.iter()
        .map(|cut| cut_row(&ClusterCut::no_parent_inside(ilp, &cut.cluster)))
        .collect()
}

/// The exact stage at a node: the sub-IP on the separator's back-end, its time counted
/// in the share.
impl ExactSeparator for NodeClusterClauses {
    fn separate(
        &self,
        ilp: &FamilyIlp<'_>,
        values: &[f64],
        support: &Support,
        options: &SeparationOptions,
        time_limit: Option<f64>,
        stop: &StopToken,
    ) -> Result<Vec<ClusterCut>, SolverError> {
        let Some(sub_ips) = self.sub_ips.as_deref() else {
            return Ok(Vec::new());
        };
        let started = Instant::now();
        let cuts = MilpSubIp(sub_ips).separate(ilp, values, support, options, time_limit, stop);
        *self.exact_time.lock().unwrap_or_else(|p| p.into_inner()) += started.elapsed();
        cuts
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

    /// The node separator's rows at fractional points (each node halfway between its
    /// two best candidates with a parent) are violated there and hold of sampled DAGs:
    /// the pipeline's rows, and the exact stage's on every back-end, whose time counts
    /// in the share.
    #[test]
    fn node_rows_cut_off_fractional_points_and_hold_of_sampled_dags() {
        let long_ago = Instant::now() - Duration::from_secs(3600);
        node_rows_are_valid_cuts(None, long_ago);
        for backend in crate::milp::backends() {
            node_rows_are_valid_cuts(Some(backend.for_sub_ips()), long_ago);
        }
    }

    fn node_rows_are_valid_cuts(sub_ips: Option<Box<dyn MilpBackend>>, began: Instant) {
        let name = sub_ips.as_ref().map_or("heuristics", |b| b.name());
        let mut rows_found = 0;
        let mut exact_found = 0;
        let mut exact_timed = false;
        for seed in 0..20 {
            let table = larger_table(seed);
            let clauses = ClusterClauses::new(&table);
            let ilp = FamilyIlp::new(&table);
            let n = table.n();
            let mut point = vec![0.0; ilp.num_columns()];
            for v in 0..n {
                let with_parents: Vec<usize> = (0..table.candidates(v).len())
                    .filter(|&k| !table.candidates(v)[k].parents.is_empty())
                    .take(2)
                    .collect();
                match with_parents[..] {
                    [a, b] => {
                        point[ilp.column(v, a)] = 0.5;
                        point[ilp.column(v, b)] = 0.5;
                    }
                    _ => point[ilp.column(v, 0)] = 1.0,
                }
            }
            let sub_ips = sub_ips.as_ref().map(|b| b.for_sub_ips());
            let separator = clauses.node_clauses(sub_ips, began);
            let mut rows = CutSeparator::separate(&separator, &point);
            let support = Support::new(&ilp, &point);
            let options = SeparationOptions::default();
            let stop = StopToken::new();
            let exact = ExactSeparator::separate(
                &separator,
                &ilp,
                &point,
                &support,
                &options,
                Some(10.0),
                &stop,
            )
            .unwrap();
            exact_found += exact.len();
            exact_timed |= *separator.exact_time.lock().unwrap() > Duration::ZERO;
            rows.extend(clause_rows(&ilp, &exact));
            for row in rows {
                rows_found += 1;
                let at = |x: &[f64]| -> f64 { row.terms.iter().map(|&(c, a)| a * x[c]).sum() };
                assert!(at(&point) < row.lower - 1e-9, "seed {seed}");
                for restart in 0..10 {
                    let network = obs_network(&table, &sample_order(n, seed, restart))
                        .expect("the empty parent set is a candidate");
                    let mut dag = vec![0.0; ilp.num_columns()];
                    for (v, &k) in network.choice.iter().enumerate() {
                        dag[ilp.column(v, k)] = 1.0;
                    }
                    assert!(at(&dag) >= row.lower, "seed {seed}");
                }
            }
        }
        assert!(rows_found > 0, "{name}: no violated cluster");
        assert_eq!(exact_timed, sub_ips.is_some(), "{name}");
        assert_eq!(exact_found > 0, sub_ips.is_some(), "{name}");
    }
}
