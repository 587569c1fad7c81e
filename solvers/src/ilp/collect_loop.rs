//! Collection on back-ends without a branch and cut of bnsl's own (HiGHS, CBC): the cut
//! loop of [`super::cut_loop`] searching regions: seed 002's search, with the no-good of
//! each DAG enforced by splitting its region as SCIP's tree does (`scip_bc::collector`)
//! where the parts split off are small enough to enumerate, and by a no-good row on the
//! rest.
//!
//! The program is the family ILP with the cluster cuts of the root's LP rounds, GOBNILP's
//! set-packing rows, the covered-arc rows when the collection takes whole classes
//! ([`CollectSettings::whole_classes`]), and the objective as a row: score ≥ [`search_limit`] of the
//! threshold, built when the first region needs a MIP solve: the root's LP rounds start
//! from the clusters of the optimising solve ([`CollectSettings::clusters`]). A region
//! is the program with some columns fixed (bounds) and some no-good rows; the search
//! starts from the whole program, split at once at the start DAG when there is one
//! ([`CollectSettings::start`], the optimum: then on tables of at most `region_part`
//! variables every child is enumerated and no MIP is solved), and takes the regions depth
//! first, each by MIP rounds stopped at the solver's first solution where the back-end
//! can stop early:
//! - before its MIP solve, a region of a back-end without node cuts (HiGHS) gets LP
//!   rounds of cluster separation, which may prove it empty;
//! - an infeasible region holds no DAG above the limit and is done;
//! - a cyclic solution yields the cluster cuts of its strongly connected components
//!   (rows of every region after), and the region is solved again;
//! - a DAG G is collected ([`Found`]) and its region split: with c₁ … c_k the columns of
//!   G not fixed to 1 there, in [`settling_order`], child i fixes c₁ … c_{i−1} to 1 and
//!   c_i to 0. The children hold the region's DAGs except G, each in one child, so no
//!   DAG is met twice. The last children fix most columns: from child k down, as long as
//!   a child's open nodes fall into strongly connected parts of at most `region_part`
//!   nodes, it is collected by enumeration ([`dags_of_region`]) instead of MIP solves.
//!   Children 1 … m before the first that is not are the DAGs of the region that do not
//!   take all of c₁ … c_m: one pending region, the parent's with the no-good
//!   Σ_{i ≤ m} x_{c_i} ≤ m − 1 as a row (a no-good over all of G's columns when no child
//!   is enumerated). A region's no-goods pass to its children; a DAG that an enumerated
//!   child lists and that breaks one of them was offered before, when the no-good's
//!   own children were enumerated, and [`Found`] does not record it twice.
//!
//! At least one MIP solve per DAG found by a MIP solve, plus one per region proven
//! empty: much slower than SCIP's single tree where the regions stay large (README).

use super::collect::{
    covered_arc_tolerance, search_limit, CollectProgress, CollectSettings, Found, Offered,
};
use super::cut_loop::{node_separator, root_cuts_from, round_search};
use super::node_cuts::ClusterSeparator;
use super::separation::{MilpSubIp, Pipeline};
use super::small_region::{child_region, dags_of_region, settling_order};
use super::{must_stop, seconds_left, IlpOptions};
use crate::enumerate::{Enumeration, EnumerationEnd};
use crate::milp::{sub_ip_backend, Limits, MilpBackend, MilpOutcome, SolverError, Status};
use bnsl_formulations::family::covered_arcs::add_covered_arc_rows;
use bnsl_formulations::family::separation::{separate_heuristically, Support};
use bnsl_formulations::family::set_packing::add_set_packing_rows;
use bnsl_formulations::milp::VarId;
use bnsl_formulations::{ClusterCut, Dag, FamilyIlp, MilpModel, VarSet};
use rustc_hash::FxHashSet;
use std::sync::Arc;
use std::time::Instant;

/// The default of [`CutLoop::with_region_part`](super::cut_loop::CutLoop::with_region_part),
/// above SCIP's: a region the cut loop does not enumerate costs it a MIP solve, where
/// it costs SCIP an LP, and the completion values over the 2²⁰ subsets of a part of 20
/// nodes cost far less than a MIP solve (figures: README, "Collection").
pub(super) const CUT_LOOP_REGION_PART: usize = 20;

/// Collects as the module doc says; regions whose strongly connected parts have at most
/// `region_part` nodes are enumerated (0: none).
pub(super) fn collect_by_rounds(
    backend: &dyn MilpBackend,
    ilp: &FamilyIlp<'_>,
    settings: &CollectSettings,
    region_part: usize,
    progress: &dyn Fn(&CollectProgress),
) -> Result<Enumeration, SolverError> {
    let options = &settings.ilp;
    options.limits.validate()?;
    let began = Instant::now();
    let mut search = Search {
        ilp,
        found: Found::new(settings),
        region_part,
        pending: Vec::new(),
        progress,
    };
    let whole = Region::whole(ilp);
    match settings.start.as_ref().and_then(|dag| columns_of(ilp, dag)) {
        Some(columns) => {
            search.record(&columns, 0);
            search.split(&whole, &columns, 0);
        }
        None => search.pending.push(whole),
    }
    let mut rounds: Option<Rounds> = None;
    let sub_ip = (!options.heuristic_separation_only)
        .then(sub_ip_backend)
        .flatten();
    let exact = sub_ip.as_deref().map(MilpSubIp);
    let pipeline = Pipeline {
        options: &options.separation,
        search: round_search(ilp),
        exact: exact.as_ref().map(|e| e as _),
    };
    let end = loop {
        if search.found.is_full() {
            break EnumerationEnd::Complete;
        }
        if must_stop(&options.limits, began) {
            break EnumerationEnd::Stopped;
        }
        let Some(region) = search.pending.pop() else {
            break EnumerationEnd::Complete;
        };
        let rounds = match &mut rounds {
            Some(rounds) => rounds,
            None => rounds.insert(Rounds::new(backend, ilp, settings, began)?),
        };
        if rounds.separator.is_none() && rounds.region_is_empty(&region, &pipeline)? {
            continue;
        }
        let rows = rounds.model.rows().len();
        let outcome = rounds.solve(&region)?;
        if outcome.status == Status::Infeasible {
            continue;
        }
        let Some(values) = outcome.values else {
            break EnumerationEnd::Stopped;
        };
        if ilp.graph_of(&values).is_acyclic() {
            let columns = ilp.chosen_columns(&values);
            search.record(&columns, rounds.solves);
            search.split(&region, &columns, rounds.solves);
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
            search.pending.push(region);
        }
    };
    Ok(search.found.finish(end))
}

/// The family columns of `dag`, if each of its parent sets is a candidate of the table.
fn columns_of(ilp: &FamilyIlp<'_>, dag: &Dag) -> Option<Vec<usize>> {
    ilp.values_of(dag).map(|values| ilp.chosen_columns(&values))
}

/// A region of the search: per node of the network, the columns it allows (one when
/// its family is settled), and no-goods: sets of columns no DAG of the region takes all
/// of.
struct Region {
    allowed: Vec<Vec<usize>>,
    nogoods: Vec<Vec<usize>>,
}

impl Region {
    /// Every DAG of the table.
    fn whole(ilp: &FamilyIlp<'_>) -> Region {
        Region {
            allowed: (0..ilp.n()).map(|v| ilp.columns_of(v).collect()).collect(),
            nogoods: Vec::new(),
        }
    }

    /// Whether `column` is the settled family of its node.
    fn settles(&self, ilp: &FamilyIlp<'_>, column: usize) -> bool {
        self.allowed[ilp.family(column).0] == [column]
    }
}

/// The regions left and the DAGs collected.
struct Search<'a, 't, 'p> {
    ilp: &'a FamilyIlp<'t>,
    found: Found,
    region_part: usize,
    /// Regions not searched yet, the next last.
    pending: Vec<Region>,
    progress: &'p dyn Fn(&CollectProgress),
}

impl Search<'_, '_, '_> {
    /// Records the DAG of `columns` and reports it if new.
    fn record(&mut self, columns: &[usize], solves: u64) {
        if self.found.offer(self.ilp, columns) == Offered::Recorded {
            (self.progress)(&CollectProgress {
                networks: self.found.len(),
                nodes: solves,
            });
        }
    }

    /// Splits `region` to exclude the DAG of `columns` found in it (see the module doc):
    /// the children enumerated are recorded, and the others make one pending region.
    fn split(&mut self, region: &Region, columns: &[usize], solves: u64) {
        let ilp = self.ilp;
        let free: Vec<usize> = columns
            .iter()
            .copied()
            .filter(|&c| !region.settles(ilp, c))
            .collect();
        let threshold = self.found.threshold();
        let free = settling_order(ilp, &region.allowed, &free, threshold);
        let mut merged = free.len();
        while merged > 0 && self.region_part > 0 {
            let i = merged - 1;
            let allowed = child_region(ilp, &region.allowed, &free[..i], free[i]);
            let Some(dags) = dags_of_region(ilp, &allowed, threshold, self.region_part) else {
                break;
            };
            for dag in &dags {
                self.record(dag, solves);
            }
            merged = i;
        }
        if merged > 0 {
            let mut nogoods = region.nogoods.clone();
            nogoods.push(free[..merged].to_vec());
            self.pending.push(Region {
                allowed: region.allowed.clone(),
                nogoods,
            });
        }
    }
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
    /// The clusters whose cuts the program holds.
    clusters: FxHashSet<VarSet>,
    began: Instant,
    options: &'a IlpOptions,
    solves: u64,
}

impl<'a, 't> Rounds<'a, 't> {
    /// The rounds on the program of the module doc: the root's LP rounds, started from
    /// `settings`' clusters within the time left to the collection that began at
    /// `began`, then the set-packing and objective rows.
    fn new(
        backend: &'a dyn MilpBackend,
        ilp: &'a FamilyIlp<'t>,
        settings: &'a CollectSettings,
        began: Instant,
    ) -> Result<Self, SolverError> {
        let options = &settings.ilp;
        let mut root_options = options.clone();
        root_options.limits.time_limit = seconds_left(&options.limits, began);
        let root = root_cuts_from(backend, ilp, &root_options, &settings.clusters)?;
        let mut model = root.model;
        add_set_packing_rows(ilp, &mut model);
        if settings.takes_whole_classes() {
            let tolerance = covered_arc_tolerance(ilp, settings.threshold);
            add_covered_arc_rows(ilp, tolerance, &mut model);
        }
        add_objective_row(ilp, &mut model, search_limit(settings.threshold));
        Ok(Rounds {
            backend,
            ilp,
            separator: node_separator(backend, ilp, options),
            model,
            clusters: root.clusters.into_iter().collect(),
            began,
            options,
            solves: 0,
        })
    }

    /// One MIP solve of `region`, stopped at its first solution where the back-end can
    /// stop early (HiGHS; CBC with cluster separation at its nodes, which then joins the
    /// program).
    fn solve(&mut self, region: &Region) -> Result<MilpOutcome, SolverError> {
        let early = self.separator.is_some() || self.backend.stops_at_improving_solutions();
        let limits = Limits {
            time_limit: seconds_left(&self.options.limits, self.began),
            gap: None,
            improving_solutions: early.then_some(1),
            ..self.options.limits.clone()
        };
        self.solves += 1;
        let model = self.restricted(region);
        match (self.backend.node_cuts(), &self.separator) {
            (Some(node_cuts), Some(separator)) => {
                let outcome =
                    node_cuts.solve_with_cuts(&model, &limits, None, separator.clone())?;
                for cluster in separator.take_found() {
                    self.add_cluster(self.ilp.cluster_cut(&cluster));
                }
                Ok(outcome)
            }
            _ => self.backend.solve(&model, &limits),
        }
    }

    /// Cutting-plane rounds on the LP relaxation of `region` (the root's rounds,
    /// `cut_loop`): the clusters `pipeline` finds violated join the program, until none
    /// is; whether the LP is infeasible, which leaves no DAG above the limit in the region.
    /// A cheap proof where a MIP solve without those cuts would branch; for back-ends
    /// without node cuts (HiGHS): CBC separates at its nodes.
    fn region_is_empty(
        &mut self,
        region: &Region,
        pipeline: &Pipeline<'_>,
    ) -> Result<bool, SolverError> {
        loop {
            if must_stop(&self.options.limits, self.began) {
                return Ok(false);
            }
            let limits = Limits {
                time_limit: seconds_left(&self.options.limits, self.began),
                gap: None,
                ..self.options.limits.clone()
            };
            let relaxation = self.restricted(region).relaxation();
            let outcome = self.backend.solve(&relaxation, &limits)?;
            let values = match (outcome.status, outcome.values) {
                (Status::Infeasible, _) => return Ok(true),
                (Status::Optimal, Some(values)) => values,
                _ => return Ok(false),
            };
            let cuts = pipeline.separate(
                self.ilp,
                &values,
                limits.time_limit,
                &self.options.limits.stop,
            )?;
            let added = cuts
                .into_iter()
                .map(|cut| self.add_cluster(cut))
                .filter(|&new| new)
                .count();
            if added == 0 {
                return Ok(false);
            }
        }
    }

    /// The program with the columns `region` does not allow fixed to 0, those it settles
    /// fixed to 1, and a row Σ x_c ≤ |N| − 1 per no-good N of the region.
    fn restricted(&self, region: &Region) -> MilpModel {
        let mut model = self.model.clone();
        for (v, allowed) in region.allowed.iter().enumerate() {
            let columns = self.ilp.columns_of(v);
            if allowed.len() == columns.len() {
                continue;
            }
            for c in columns {
                let bounds = match allowed.as_slice() {
                    [settled] if *settled == c => (1.0, 1.0),
                    _ if allowed.contains(&c) => (0.0, 1.0),
                    _ => (0.0, 0.0),
                };
                model
                    .set_bounds(VarId::from_index(c), bounds.0, bounds.1)
                    .expect("0/1 bounds are well formed");
            }
        }
        for (k, nogood) in region.nogoods.iter().enumerate() {
            let most = (nogood.len() - 1) as f64;
            let terms = nogood.iter().map(|&c| (VarId::from_index(c), 1.0));
            model
                .add_row(format!("nogood_{k}"), terms, f64::NEG_INFINITY, most)
                .expect("no-good rows are well formed");
        }
        model
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
}
