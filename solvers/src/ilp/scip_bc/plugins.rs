//! The plugins of the branch-and-cut engine: the cluster-cut separator (included by
//! `separator`), the sink and start heuristics and the progress event handler.

use super::engine::{check, time_limit, Engine, ScipCallFailed, Shared};
use super::{separator, sub_scip, ScipBcSettings};
use crate::heuristics::{asobs_search, AsobsOptions};
use crate::ilp::separation::{ExactSeparator, Pipeline};
use crate::ilp::sink::round_to_dag;
use crate::milp::{finite, SolverError};
use crate::stop::StopToken;
use bnsl_formulations::family::four_b::{separate_four_b, FourBCut};
use bnsl_formulations::family::k_cluster::{separate_k_clusters, KClusterCut};
use bnsl_formulations::family::separation::{SeparationOptions, Support};
use bnsl_formulations::{ClusterCut, Dag, FamilyIlp};
use russcip::prelude::*;
use russcip::{
    ffi, Event, EventMask, Eventhdlr, HeurResult, HeurTiming, Heuristic, SCIPEventhdlr, Solving,
};
use std::time::Duration;

/// Separates cluster cuts from fractional LP solutions and other points (Bartlett &
/// Cussens 2017, §5), see [`find_cuts`]; included by `separator`.
pub(super) struct ClusterSeparator(pub Shared);

impl ClusterSeparator {
    /// Adds the cuts of `sol` (null: the LP solution); SCIP's separation result.
    pub(super) fn separate(
        &self,
        scip: *mut ffi::SCIP,
        sol: *mut ffi::SCIP_SOL,
    ) -> Result<ffi::SCIP_RESULT, ScipCallFailed> {
        let mut engine = self.0.borrow_mut();
        // SAFETY: a query on the live instance in the solving stage.
        let depth = unsafe { ffi::SCIPgetDepth(scip) };
        if root_ended(&mut engine, scip, depth)? {
            return Ok(ffi::SCIP_Result_SCIP_DIDNOTRUN);
        }
        let values = engine.values(scip, sol)?;
        let cuts = find_cuts(&engine, scip, &values, depth)?;
        let k_cuts = find_k_cluster_cuts(&engine, &values, &cuts, depth);
        let four_b_cuts = find_four_b_cuts(&engine, &values);
        engine.recycle(values);
        if cuts.is_empty() && k_cuts.is_empty() && four_b_cuts.is_empty() {
            return Ok(ffi::SCIP_Result_SCIP_DIDNOTFIND);
        }
        for cut in &cuts {
            if engine.add_cut(scip, cut, false)? {
                return Ok(ffi::SCIP_Result_SCIP_CUTOFF);
            }
        }
        for cut in &k_cuts {
            if engine.add_k_cluster_cut(scip, cut)? {
                return Ok(ffi::SCIP_Result_SCIP_CUTOFF);
            }
        }
        for cut in &four_b_cuts {
            if engine.add_four_b_cut(scip, cut)? {
                return Ok(ffi::SCIP_Result_SCIP_CUTOFF);
            }
        }
        Ok(ffi::SCIP_Result_SCIP_SEPARATED)
    }
}

/// Whether the root-stall rule ([`RootStall`](super::root_stall::RootStall)) has ended
/// the root at `depth` 0; below it, the rule gives the separators back.
fn root_ended(
    engine: &mut Engine,
    scip: *mut ffi::SCIP,
    depth: i32,
) -> Result<bool, ScipCallFailed> {
    let Some(stall) = &mut engine.root_stall else {
        return Ok(false);
    };
    if depth == 0 {
        stall.root_ended(scip, separator::NAME)
    } else {
        stall.below_root();
        Ok(false)
    }
}

/// Violated cluster cuts of `values` by the separation pipeline: the heuristics, the
/// combinatorial search when it has a budget, and the sub-IP in a SCIP sub-instance
/// ([`SubScip`]) at nodes no deeper than `bnsl/sub_ip_depth`.
fn find_cuts(
    engine: &Engine,
    scip: *mut ffi::SCIP,
    values: &[f64],
    depth: i32,
) -> Result<Vec<ClusterCut>, ScipCallFailed> {
    let heuristic_only = engine.options.heuristic_separation_only;
    let settings = &engine.settings;
    let sub_scip = SubScip {
        branching: &settings.sub_ip_branching,
    };
    let pipeline = Pipeline {
        options: &engine.options.separation,
        search: (!heuristic_only && settings.search_budget > 0)
            .then_some((settings.search_budget, settings.search_cuts)),
        exact: (!heuristic_only && depth <= settings.sub_ip_depth())
            .then_some(&sub_scip as &dyn ExactSeparator),
    };
    let per_call = settings.sub_ip_time_limit;
    let time_limit = match time_left(scip)? {
        Some(left) => Some(left.min(per_call)),
        None => per_call.is_finite().then_some(per_call),
    };
    let stop = &engine.options.limits.stop;
    // A failed sub-IP finds no cut: the constraint handler keeps the search exact.
    Ok(pipeline
        .separate(&engine.ilp, values, time_limit, stop)
        .unwrap_or_default())
}

/// The k-cluster cuts ([`separate_k_clusters`], 2 ≤ k ≤ `bnsl/k_cluster_max`) of the
/// clusters cut so far and of `new` ones that `values` violate, at the root only (their
/// separation reads every column of every cluster); none already added.
fn find_k_cluster_cuts(
    engine: &Engine,
    values: &[f64],
    new: &[ClusterCut],
    depth: i32,
) -> Vec<KClusterCut> {
    let max_k = engine.settings.k_cluster_max;
    if depth > 0 || max_k < 2 {
        return Vec::new();
    }
    let options = &engine.options.separation;
    let clusters = engine.clusters.iter().chain(new.iter().map(|c| &c.cluster));
    separate_k_clusters(
        &engine.ilp,
        values,
        clusters,
        max_k,
        options.min_violation,
        options.max_cuts,
    )
    .into_iter()
    .filter(|cut| !engine.k_clusters.contains(&(cut.cluster.clone(), cut.k)))
    .collect()
}

/// The 4B inequalities ([`separate_four_b`]) that `values` violate, when
/// they are on for the solve (`bnsl/four_b_cuts`); none already added.
fn find_four_b_cuts(engine: &Engine, values: &[f64]) -> Vec<FourBCut> {
    if !engine.four_b_cuts {
        return Vec::new();
    }
    let options = &engine.options.separation;
    let support = Support::new(&engine.ilp, values);
    separate_four_b(
        &engine.ilp,
        &support,
        options.min_violation,
        options.max_cuts,
        |nodes| engine.four_bs.contains(nodes),
    )
}

/// Seconds left before SCIP's time limit (`None`: no limit).
fn time_left(scip: *mut ffi::SCIP) -> Result<Option<f64>, ScipCallFailed> {
    // SAFETY: a query on the live instance in the solving stage.
    let now = unsafe { ffi::SCIPgetSolvingTime(scip) };
    Ok(time_limit(scip)?.map(|limit| (limit - now).max(0.0)))
}

/// The exact stage in a SCIP sub-instance ([`sub_scip::separate`]) with the sub-IP's
/// branching rule.
pub(super) struct SubScip<'a> {
    pub(super) branching: &'a str,
}

impl ExactSeparator for SubScip<'_> {
    fn separate(
        &self,
        ilp: &FamilyIlp<'_>,
        values: &[f64],
        support: &Support,
        options: &SeparationOptions,
        time_limit: Option<f64>,
        stop: &StopToken,
    ) -> Result<Vec<ClusterCut>, SolverError> {
        sub_scip::separate(
            ilp,
            values,
            support,
            options,
            self.branching,
            time_limit,
            stop,
        )
    }
}

/// The sink heuristic ([`round_to_dag`]) on the LP solution of a node, submitted to SCIP
/// when it beats the incumbent.
pub(super) struct SinkHeuristic(pub Shared);

impl Heuristic for SinkHeuristic {
    fn execute(
        &mut self,
        model: Model<Solving>,
        _timing: HeurTiming,
        node_infeasible: bool,
    ) -> HeurResult {
        if node_infeasible {
            return HeurResult::DidNotRun;
        }
        self.run(model.scip_ptr()).unwrap_or(HeurResult::DidNotRun)
    }
}

impl SinkHeuristic {
    fn run(&self, scip: *mut ffi::SCIP) -> Result<HeurResult, ScipCallFailed> {
        // SAFETY: queries on the live instance in the solving stage.
        let lp_solved = unsafe {
            ffi::SCIPhasCurrentNodeLP(scip) != 0
                && ffi::SCIPgetLPSolstat(scip) == ffi::SCIP_LPSolStat_SCIP_LPSOLSTAT_OPTIMAL
        };
        if !lp_solved {
            return Ok(HeurResult::DidNotRun);
        }
        let sol = {
            let mut engine = self.0.borrow_mut();
            let values = engine.values(scip, std::ptr::null_mut())?;
            let dag = round_to_dag(&engine.ilp, &values);
            engine.recycle(values);
            let Some(dag) = dag else {
                return Ok(HeurResult::NoSolFound);
            };
            let Some(sol) = solution_if_better(&mut engine, scip, &dag)? else {
                return Ok(HeurResult::NoSolFound);
            };
            sol
        };
        // The engine is released: trying the solution calls the acyclicity check.
        try_solution(scip, sol)
    }
}

/// Submits the start DAG held back by the engine ([`Engine::pending_start`]) at the
/// first node below the root. Given at the root, a near-optimal incumbent makes SCIP's
/// root strong branching cut off child after child and re-solve the root each time,
/// so the root takes several times as long and the whole proof is slower than a cold
/// one, even from the optimal DAG (see README, "Benchmark notes behind design
/// choices"); below the root, the root is the cold one and the tree is pruned by the
/// start. With no start DAG, on a deep-tree table, it searches for one there first
/// ([`Engine::pending_search`]).
pub(super) struct StartHeuristic(pub Shared);

impl Heuristic for StartHeuristic {
    fn execute(
        &mut self,
        model: Model<Solving>,
        _timing: HeurTiming,
        _node_infeasible: bool,
    ) -> HeurResult {
        self.run(model.scip_ptr()).unwrap_or(HeurResult::DidNotRun)
    }
}

impl StartHeuristic {
    fn run(&self, scip: *mut ffi::SCIP) -> Result<HeurResult, ScipCallFailed> {
        // SAFETY: a query on the live instance in the solving stage.
        if unsafe { ffi::SCIPgetDepth(scip) } < 1 {
            return Ok(HeurResult::DidNotRun);
        }
        let sol = {
            let mut engine = self.0.borrow_mut();
            if std::mem::take(&mut engine.pending_search) {
                engine.pending_start = searched_start(&engine, scip)?;
            }
            let Some(dag) = engine.pending_start.take() else {
                return Ok(HeurResult::DidNotRun);
            };
            let Some(sol) = solution_if_better(&mut engine, scip, &dag)? else {
                return Ok(HeurResult::NoSolFound);
            };
            sol
        };
        // The engine is released: trying the solution calls the acyclicity check.
        try_solution(scip, sol)
    }
}

/// The network of an ASOBS search (Scanagatta et al. 2015; insertion local search, seed
/// 1, one thread) of [`search_seconds`] at the first node below the root, fewer when
/// SCIP's time limit leaves fewer; `None` when no time is left or no order admits a
/// network. SCIP's clock runs on while it searches, so its time counts against the limit.
fn searched_start(engine: &Engine, scip: *mut ffi::SCIP) -> Result<Option<Dag>, ScipCallFailed> {
    // SAFETY: a query on the live instance.
    let now = unsafe { ffi::SCIPgetSolvingTime(scip) };
    let seconds = search_seconds(&engine.settings, now);
    let left = time_limit(scip)?.map_or(seconds, |limit| (limit - now).min(seconds));
    if left <= 0.0 {
        return Ok(None);
    }
    let options = AsobsOptions {
        time_limit: Some(Duration::from_secs_f64(left)),
        stop: engine.options.limits.stop.clone(),
        ..AsobsOptions::default()
    };
    let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(1).build() else {
        return Ok(None);
    };
    let table = engine.ilp.table();
    let found = pool.install(|| asobs_search(table, &options));
    Ok(found.ok().map(|best| best.dag))
}

/// The seconds of the searched start when the root took `root_seconds`:
/// [`deep_tree_start`](ScipBcSettings::deep_tree_start), or
/// [`deep_tree_start_share`](ScipBcSettings::deep_tree_start_share) of the root's time
/// when that is more.
fn search_seconds(settings: &ScipBcSettings, root_seconds: f64) -> f64 {
    let floor = settings.deep_tree_start;
    floor.max(settings.deep_tree_start_share * root_seconds)
}

/// A new SCIP solution choosing the families of `dag`, when `dag` is made of candidates
/// and beats the incumbent; `None` otherwise.
fn solution_if_better(
    engine: &mut Engine,
    scip: *mut ffi::SCIP,
    dag: &Dag,
) -> Result<Option<*mut ffi::SCIP_SOL>, ScipCallFailed> {
    let Ok(score) = dag.check(engine.ilp.table()) else {
        return Ok(None);
    };
    // SAFETY: a query on the live instance.
    let incumbent = unsafe { ffi::SCIPgetPrimalbound(scip) };
    if finite(incumbent).is_some() && score <= incumbent + 1e-9 * incumbent.abs().max(1.0) {
        return Ok(None);
    }
    let Some((mut vars, mut values)) = engine.solution_of(scip, dag)? else {
        return Ok(None);
    };
    let n = i32::try_from(values.len()).expect("column count fits in an int");
    let mut sol = std::ptr::null_mut();
    // SAFETY: a new solution of the live instance, set on `n` variables.
    unsafe {
        check(ffi::SCIPcreateSol(scip, &mut sol, std::ptr::null_mut()))?;
        check(ffi::SCIPsetSolVals(
            scip,
            sol,
            n,
            vars.as_mut_ptr(),
            values.as_mut_ptr(),
        ))?;
    }
    Ok(Some(sol))
}

/// Hands `sol` (made by [`solution_if_better`]) to SCIP, which checks it (the acyclicity
/// handler included: the engine must not be borrowed) and frees it.
fn try_solution(
    scip: *mut ffi::SCIP,
    mut sol: *mut ffi::SCIP_SOL,
) -> Result<HeurResult, ScipCallFailed> {
    let mut stored = 0;
    // SAFETY: `sol` is a live solution of `scip`; SCIP frees it.
    check(unsafe { ffi::SCIPtrySolFree(scip, &mut sol, 0, 0, 1, 0, 0, &mut stored) })?;
    Ok(if stored != 0 {
        HeurResult::FoundSol
    } else {
        HeurResult::NoSolFound
    })
}

/// Reports progress when SCIP finds a better solution or improves the global bound.
pub(super) struct ProgressEvents(pub Shared);

impl Eventhdlr for ProgressEvents {
    fn get_type(&self) -> EventMask {
        EventMask::BEST_SOL_FOUND | EventMask::DUAL_BOUND_IMPROVED
    }

    fn execute(&mut self, model: Model<Solving>, _eventhdlr: SCIPEventhdlr, _event: Event) {
        if let Ok(mut engine) = self.0.try_borrow_mut() {
            engine.report(model.scip_ptr());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_searched_start_takes_its_share_of_a_long_root() {
        let settings = ScipBcSettings {
            deep_tree_start: 1.0,
            deep_tree_start_share: 0.25,
            ..Default::default()
        };
        assert_eq!(search_seconds(&settings, 0.5), 1.0);
        assert_eq!(search_seconds(&settings, 4.0), 1.0);
        assert_eq!(search_seconds(&settings, 10.0), 2.5);
        let no_share = ScipBcSettings {
            deep_tree_start_share: 0.0,
            ..settings
        };
        assert_eq!(search_seconds(&no_share, 100.0), 1.0);
    }
}
