//! Collection on back-ends without a branch and cut of bnsl's own (HiGHS, CBC): the cut
//! loop of [`super::cut_loop`] with no-good rows.
//!
//! The program is the family ILP with the cluster cuts of the root's LP rounds, GOBNILP's
//! set-packing rows, and the objective as a row: score ≥ [`search_limit`] of the
//! threshold. Then MIP rounds, each stopped at the solver's first solution where the
//! back-end can stop early:
//! - a cyclic solution yields the cluster cuts of its strongly connected components;
//! - a DAG is collected ([`Found`]) and excluded by the no-good row
//!   Σ_{columns c of the DAG} x_c ≤ n − 1, which no other choice of families violates;
//! - an infeasible program proves every DAG above the limit collected.
//!
//! One MIP solve per DAG: correct, and much slower than SCIP's single tree (README).

use super::collect::{search_limit, CollectProgress, CollectSettings, Found, Offered};
use super::cut_loop::{node_separator, root_cuts};
use super::node_cuts::ClusterSeparator;
use super::{must_stop, seconds_left, IlpOptions};
use crate::enumerate::{Enumeration, EnumerationEnd};
use crate::milp::{Limits, MilpBackend, MilpOutcome, SolverError, Status};
use bnsl_formulations::family::separation::{separate_heuristically, Support};
use bnsl_formulations::family::set_packing::add_set_packing_rows;
use bnsl_formulations::milp::VarId;
use bnsl_formulations::{ClusterCut, FamilyIlp, MilpModel, VarSet};
use rustc_hash::FxHashSet;
use std::sync::Arc;
use std::time::Instant;

/// Collects as the module doc says.
pub(super) fn collect_by_rounds(
    backend: &dyn MilpBackend,
    ilp: &FamilyIlp<'_>,
    settings: &CollectSettings,
    progress: &dyn Fn(&CollectProgress),
) -> Result<Enumeration, SolverError> {
    let options = &settings.ilp;
    options.limits.validate()?;
    let began = Instant::now();
    let mut model = root_cuts(backend, ilp, options)?.model;
    add_set_packing_rows(ilp, &mut model);
    add_objective_row(ilp, &mut model, search_limit(settings.threshold));
    let mut rounds = Rounds {
        backend,
        ilp,
        separator: node_separator(backend, ilp, options),
        model,
        clusters: FxHashSet::default(),
        began,
        options,
        solves: 0,
    };
    let mut found = Found::new(settings);
    let end = loop {
        if found.is_full() {
            break EnumerationEnd::Complete;
        }
        if must_stop(&options.limits, began) {
            break EnumerationEnd::Stopped;
        }
        let rows = rounds.model.rows().len();
        let outcome = rounds.solve()?;
        if outcome.status == Status::Infeasible {
            break EnumerationEnd::Complete;
        }
        let Some(values) = outcome.values else {
            break EnumerationEnd::Stopped;
        };
        if ilp.graph_of(&values).is_acyclic() {
            let columns = ilp.chosen_columns(&values);
            if found.offer(ilp, &columns) == Offered::Recorded {
                progress(&CollectProgress {
                    networks: found.len(),
                    nodes: rounds.solves,
                });
            }
            rounds.exclude(&columns);
        } else {
            rounds.cut(&values);
            // The round's node cuts (CBC) may already hold the solution's clusters; a
            // round that added no row would only repeat itself.
            if rounds.model.rows().len() == rows {
                return Err(SolverError::Backend {
                    backend: backend.name(),
                    message: "a cyclic solution violates no new cluster cut".into(),
                });
            }
        }
    };
    Ok(found.finish(end))
}

/// Adds `Σ score · x ≥ limit`.
fn add_objective_row(ilp: &FamilyIlp<'_>, model: &mut MilpModel, limit: f64) {
    let table = ilp.table();
    let terms: Vec<(VarId, f64)> = (0..ilp.n())
        .flat_map(|v| {
            table
                .candidates(v)
                .iter()
                .enumerate()
                .map(move |(k, c)| (VarId::from_index(ilp.column(v, k)), c.score))
        })
        .collect();
    model
        .add_row("objective_limit", terms, limit, f64::INFINITY)
        .expect("the objective row is well formed");
}

/// The MIP rounds of one collection.
struct Rounds<'a, 't> {
    backend: &'a dyn MilpBackend,
    ilp: &'a FamilyIlp<'t>,
    separator: Option<Arc<ClusterSeparator>>,
    model: MilpModel,
    clusters: FxHashSet<VarSet>,
    began: Instant,
    options: &'a IlpOptions,
    solves: u64,
}

impl Rounds<'_, '_> {
    /// One MIP solve, stopped at its first solution where the back-end can stop early
    /// (HiGHS; CBC with cluster separation at its nodes, which then joins the program).
    fn solve(&mut self) -> Result<MilpOutcome, SolverError> {
        let early = self.separator.is_some() || self.backend.stops_at_improving_solutions();
        let limits = Limits {
            time_limit: seconds_left(&self.options.limits, self.began),
            gap: None,
            improving_solutions: early.then_some(1),
            ..self.options.limits.clone()
        };
        self.solves += 1;
        match (self.backend.node_cuts(), &self.separator) {
            (Some(node_cuts), Some(separator)) => {
                let outcome =
                    node_cuts.solve_with_cuts(&self.model, &limits, None, separator.clone())?;
                for cluster in separator.take_found() {
                    self.add_cluster(self.ilp.cluster_cut(&cluster));
                }
                Ok(outcome)
            }
            _ => self.backend.solve(&self.model, &limits),
        }
    }

    /// Adds the row of `cut` unless its cluster has one; whether it was added.
    fn add_cluster(&mut self, cut: ClusterCut) -> bool {
        if !self.clusters.insert(cut.cluster.clone()) {
            return false;
        }
        let name = format!("collect_cluster_{}", self.clusters.len());
        cut.add_to(&mut self.model, name)
            .expect("cluster rows are well formed");
        true
    }

    /// Adds the cluster cuts of a cyclic integral solution not in the program yet.
    fn cut(&mut self, values: &[f64]) {
        let support = Support::new(self.ilp, values);
        for cut in separate_heuristically(self.ilp, &support, &self.options.separation) {
            self.add_cluster(cut);
        }
    }

    /// Adds the no-good row of the DAG choosing `columns`.
    fn exclude(&mut self, columns: &[usize]) {
        let name = format!("nogood_{}", self.solves);
        let most = (columns.len() - 1) as f64;
        self.model
            .add_row(
                name,
                columns.iter().map(|&c| (VarId::from_index(c), 1.0)),
                f64::NEG_INFINITY,
                most,
            )
            .expect("no-good rows are well formed");
    }
}
