//! The cut-loop engine: exact learning on back-ends without a lazy-constraint callback
//! (HiGHS, CBC; SCIP as a plain MILP solver too).
//!
//! The program starts with the convexity rows and GOBNILP's set-packing rows
//! ([`add_set_packing_rows`], Bartlett & Cussens 2017 §4), which tighten every round.
//!
//! 1. LP rounds: solve the LP relaxation of the program with the cuts found so far,
//!    round its solution into a DAG (the sink heuristic) for an incumbent, separate
//!    cluster cuts (heuristics; on small tables the combinatorial search,
//!    `round_search`; then the exact sub-IP), add them, repeat until no cut is
//!    violated. On HiGHS the LP stays open between rounds (`RoundSession`): each
//!    solve starts from the last basis, with the new cuts appended.
//! 2. MIP rounds: solve the program as a MILP, warm-started from the best DAG when the
//!    back-end can take a start, and stopped at its first improving solutions
//!    (`SolutionBudget`; HiGHS, SCIP, and CBC with node cuts): the solver would
//!    otherwise go on to prove a cyclic solution optimal for the program, a search
//!    whose only yield is that solution's cuts. On a back-end with a cut callback (CBC,
//!    [`NodeCuts`]) each round is a branch and cut: the solver
//!    separates cluster cuts at its nodes (`ClusterSeparator`), and the clusters it
//!    found join the program of the rounds after. An
//!    acyclic solution proven optimal for the program is optimal for the problem (the
//!    program is a relaxation); one found before the proof becomes the incumbent. A
//!    cyclic one yields cuts (its strongly connected components and cycles) and,
//!    repaired by the sink heuristic, a new incumbent; then the program is solved again.
//!
//! On tables of at most [`COMPLETE_NODES`] variables the MIP rounds run for at most
//! [`COMPLETE_AFTER_S`] seconds; if they have not ended by then, phase 2 goes on as one
//! solve of the program made complete by a linear order of the nodes ([`LinearOrder`]:
//! binary order columns, transitivity rows, one row per possible arc), warm-started
//! from the incumbent, with node cuts where the back-end has them: every solution is a
//! DAG, so the solver's optimum is the problem's and no round restarts it.
//!
//! The bound reported is the best proven bound of any round: every round solves a
//! relaxation of the problem.

use super::collect::{CollectProgress, CollectSettings};
use super::collect_loop::{collect_by_rounds, CUT_LOOP_REGION_PART};
use super::live::solve_reporting;
use super::node_cuts::ClusterSeparator;
use super::separation::{MilpSubIp, Pipeline};
use super::sink::round_to_dag;
use super::small_region::MAX_REGION_PART;
use super::static_program::answer_of;
use super::{
    gap_closed, must_stop, proven_bound, seconds_left, FamilyIlpSolver, IlpOptions, IlpOutcome,
    IlpProgress,
};
use crate::enumerate::Enumeration;
use crate::milp::{
    sub_ip_backend, Limits, LpRow, LpSession, LpSolution, MilpBackend, MilpOutcome, MipWatch,
    NodeCuts, SolverError, Status, Watched,
};
use bnsl_formulations::family::separation::{separate_heuristically, Support};
use bnsl_formulations::family::set_packing::add_set_packing_rows;
use bnsl_formulations::linear_order::LinearOrder;
use bnsl_formulations::milp::MilpError;
use bnsl_formulations::{ClusterCut, Dag, FamilyIlp, MilpModel, VarSet};
use rustc_hash::FxHashSet;
use std::sync::Arc;
use std::time::Instant;

/// The cut loop around one MILP back-end.
pub struct CutLoop<'b> {
    backend: &'b dyn MilpBackend,
    region_part: usize,
    complete_nodes: usize,
    complete_after_s: f64,
}

impl<'b> CutLoop<'b> {
    /// The engine on `backend`.
    pub fn new(backend: &'b dyn MilpBackend) -> Self {
        CutLoop {
            backend,
            region_part: CUT_LOOP_REGION_PART,
            complete_nodes: COMPLETE_NODES,
            complete_after_s: COMPLETE_AFTER_S,
        }
    }

    /// The engine whose collection enumerates the regions that fall into strongly
    /// connected parts of at most `region_part` nodes (0: none; at most 25) instead of
    /// solving them (module `collect_loop`); the default is 20.
    pub fn with_region_part(mut self, region_part: usize) -> Self {
        self.region_part = region_part.min(MAX_REGION_PART);
        self
    }

    /// The engine whose MIP phase hands over to one complete solve (a linear order
    /// added to the program) on tables of at most `nodes` variables, and runs MIP
    /// rounds alone beyond (0: MIP rounds always); the default is [`COMPLETE_NODES`].
    pub fn with_complete_nodes(mut self, nodes: usize) -> Self {
        self.complete_nodes = nodes;
        self
    }

    /// The engine whose MIP rounds on such tables hand over to the complete solve after
    /// `seconds` (0: the complete solve right after the LP rounds); the default is
    /// [`COMPLETE_AFTER_S`].
    pub fn with_complete_after(mut self, seconds: f64) -> Self {
        self.complete_after_s = seconds.max(0.0);
        self
    }

    /// How long the MIP rounds on `ilp` may run before the rest of phase 2 is one solve
    /// of the program made complete by a linear order ([`LinearOrder`]); `None`: the
    /// rounds run to the end. On tables of at most [`COMPLETE_NODES`] variables by
    /// default. There the order adds few rows (C(n, 3)), the candidate lists are long
    /// beside n (adult at BIC: 3,537 columns for 14 nodes), and where the rounds do not
    /// end soon each restart costs the back-end its root again; where they end soon
    /// they are faster than the order's bigger program. On larger tables the order's
    /// rows cost more than the rounds (figures: README, "Exact ILP (family variables)",
    /// the cut loop).
    fn hand_over_after(&self, ilp: &FamilyIlp<'_>) -> Option<f64> {
        (ilp.n() <= self.complete_nodes).then_some(self.complete_after_s)
    }
}

impl FamilyIlpSolver for CutLoop<'_> {
    fn name(&self) -> &'static str {
        self.backend.name()
    }

    fn solve(
        &self,
        ilp: &FamilyIlp<'_>,
        options: &IlpOptions,
        progress: &dyn Fn(&IlpProgress),
    ) -> Result<IlpOutcome, SolverError> {
        options.limits.validate()?;
        if options.side.is_some() {
            return Err(SolverError::Backend {
                backend: self.backend.name(),
                message: "the cut loop takes no side constraints; SCIP's branch and cut does"
                    .into(),
            });
        }
        let sub_ip = (!options.heuristic_separation_only)
            .then(sub_ip_backend)
            .flatten();
        let mut run = Run::new(ilp, options, progress);
        add_set_packing_rows(ilp, &mut run.model);
        if let Some(start) = &options.start {
            run.offer(start);
        }
        if run.lp_rounds(self.backend, sub_ip.as_deref())? == Phase::Continue {
            let node_separator = node_separator(self.backend, ilp, options);
            let hand_over = self.hand_over_after(ilp);
            if run.mip_rounds(self.backend, node_separator.clone(), hand_over)? == Phase::Continue {
                run.complete_round(self.backend, node_separator)?;
            }
        }
        Ok(run.outcome())
    }

    fn collect(
        &self,
        ilp: &FamilyIlp<'_>,
        settings: &CollectSettings,
        progress: &dyn Fn(&CollectProgress),
    ) -> Result<Enumeration, SolverError> {
        collect_by_rounds(self.backend, ilp, settings, self.region_part, progress)
    }
}

/// Phase 2 alone, from the program without any cluster cut (for tests: every cycle
/// must then be cut in the MIP rounds, at the nodes where the back-end can).
#[cfg(all(test, any(feature = "highs", feature = "cbc", feature = "scip")))]
pub(super) fn mip_rounds_only(
    backend: &dyn MilpBackend,
    ilp: &FamilyIlp<'_>,
    options: &IlpOptions,
) -> Result<IlpOutcome, SolverError> {
    let mut run = Run::new(ilp, options, &|_| {});
    add_set_packing_rows(ilp, &mut run.model);
    run.mip_rounds(backend, node_separator(backend, ilp, options), None)?;
    Ok(run.outcome())
}

/// The cluster separator for the nodes of `backend`'s MIP rounds, if it has node cuts
/// and `options` do not turn them off.
pub(super) fn node_separator(
    backend: &dyn MilpBackend,
    ilp: &FamilyIlp<'_>,
    options: &IlpOptions,
) -> Option<Arc<ClusterSeparator>> {
    backend
        .node_cuts()
        .filter(|_| !options.no_node_cuts)
        .map(|_| Arc::new(ClusterSeparator::new(ilp.table(), &options.separation)))
}

/// The family program with the cluster cuts of the root's cutting-plane rounds.
#[derive(Clone, Debug)]
pub struct RootCuts {
    /// The program: the base model of [`FamilyIlp::model`] plus one row per cut.
    pub model: MilpModel,
    /// Cluster cuts added.
    pub cuts: u64,
    /// The clusters of those cuts, in ascending order.
    pub clusters: Vec<VarSet>,
    /// LP solves.
    pub rounds: u64,
    /// The LP bound after the last round, if an LP was solved to optimality.
    pub bound: Option<f64>,
}

impl RootCuts {
    /// Adds the cluster-cut rows of the root (the last [`RootCuts::cuts`] rows of
    /// [`RootCuts::model`]) to `program`, a program over the same family columns (the
    /// family program, or the ordering program, whose first columns are the family's).
    pub fn add_cuts_to(&self, program: &mut MilpModel) -> Result<(), MilpError> {
        let rows = self.model.rows();
        let cuts = usize::try_from(self.cuts).map_or(rows.len(), |c| c.min(rows.len()));
        for row in &rows[rows.len() - cuts..] {
            program.add_row(
                row.name.clone(),
                row.coefficients.iter().copied(),
                row.lower,
                row.upper,
            )?;
        }
        Ok(())
    }
}

/// Runs phase 1 of the cut loop alone on `backend` (LP rounds with heuristic and, unless
/// `options` say otherwise, exact separation, until no cut is violated or a limit is
/// reached) and returns the strengthened program, e.g. to write it to a file.
pub fn root_cuts(
    backend: &dyn MilpBackend,
    ilp: &FamilyIlp<'_>,
    options: &IlpOptions,
) -> Result<RootCuts, SolverError> {
    root_cuts_from(backend, ilp, options, &[])
}

/// [`root_cuts`] from the program with the cluster cuts of `clusters` (e.g. an earlier
/// solve's, [`IlpOutcome::clusters`]), which count among the cuts returned.
pub(super) fn root_cuts_from(
    backend: &dyn MilpBackend,
    ilp: &FamilyIlp<'_>,
    options: &IlpOptions,
    clusters: &[VarSet],
) -> Result<RootCuts, SolverError> {
    options.limits.validate()?;
    let sub_ip = (!options.heuristic_separation_only)
        .then(sub_ip_backend)
        .flatten();
    let mut run = Run::new(ilp, options, &|_| {});
    run.add_cuts(clusters.iter().map(|c| ilp.cluster_cut(c)).collect());
    run.lp_rounds(backend, sub_ip.as_deref())?;
    let mut found: Vec<VarSet> = run.clusters.iter().cloned().collect();
    found.sort_unstable();
    Ok(RootCuts {
        cuts: run.clusters.len() as u64,
        clusters: found,
        rounds: run.rounds,
        bound: run.bound,
        model: run.model,
    })
}

/// The combinatorial cluster search of the rounds' separation (its visit budget and
/// the most clusters it keeps), run when the heuristics find nothing and before the
/// exact sub-IP, on tables of at most [`SEARCH_NODES`] variables.
///
/// On such tables a candidate list is long beside the number of nodes (nltcs at BIC:
/// 518 candidates a node), the LP of a round is dense and slow, and the sub-IP yields
/// one cluster a round where the search yields several. On larger tables its clusters
/// made more rows than they saved rounds (README, "Exact ILP (family variables)",
/// the cut loop).
pub(crate) fn round_search(ilp: &FamilyIlp<'_>) -> Option<(usize, usize)> {
    (ilp.n() <= SEARCH_NODES).then_some((SEARCH_BUDGET, SEARCH_CUTS))
}

/// The most variables of a table whose rounds run the cluster search.
const SEARCH_NODES: usize = 25;

/// The search's visit budget in a round.
const SEARCH_BUDGET: usize = 20_000;

/// The most clusters the search adds in a round (the most violated).
const SEARCH_CUTS: usize = 5;

/// The most variables of a table whose cut loop's MIP rounds hand over to one complete
/// solve by default ([`CutLoop::with_complete_nodes`]).
pub const COMPLETE_NODES: usize = 20;

/// The seconds the MIP rounds on such a table run before they hand over by default
/// ([`CutLoop::with_complete_after`]).
pub const COMPLETE_AFTER_S: f64 = 2.0;

/// Whether the next phase should run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Continue,
    Stop,
}

/// The state of one cut-loop solve.
struct Run<'a, 't> {
    ilp: &'a FamilyIlp<'t>,
    options: &'a IlpOptions,
    progress: &'a dyn Fn(&IlpProgress),
    began: Instant,
    model: MilpModel,
    clusters: FxHashSet<VarSet>,
    incumbent: Option<(Dag, f64)>,
    bound: Option<f64>,
    infeasible: bool,
    nodes: u64,
    lp_iterations: Option<u64>,
    rounds: u64,
}

impl<'a, 't> Run<'a, 't> {
    fn new(
        ilp: &'a FamilyIlp<'t>,
        options: &'a IlpOptions,
        progress: &'a dyn Fn(&IlpProgress),
    ) -> Self {
        Run {
            ilp,
            options,
            progress,
            began: Instant::now(),
            model: ilp.model(),
            clusters: FxHashSet::default(),
            incumbent: None,
            bound: None,
            infeasible: false,
            nodes: 0,
            lp_iterations: Some(0),
            rounds: 0,
        }
    }

    /// Seconds left before the time limit (`None`: no limit).
    fn remaining(&self) -> Option<f64> {
        seconds_left(&self.options.limits, self.began)
    }

    /// Whether the time is up or the stop token was stopped: stop with what we have.
    fn must_stop(&self) -> bool {
        must_stop(&self.options.limits, self.began)
    }

    fn limits(&self) -> Limits {
        Limits {
            time_limit: self.remaining(),
            ..self.options.limits.clone()
        }
    }

    /// Whether the search may stop: gap closed, or within the requested gap.
    fn done(&self) -> bool {
        match (&self.incumbent, self.bound) {
            (Some((_, score)), Some(bound)) => {
                let allowed = self.options.limits.gap.unwrap_or(0.0) * score.abs();
                gap_closed(*score, bound) || bound - score <= allowed
            }
            _ => false,
        }
    }

    /// Keeps `dag` as the incumbent if it is a valid DAG of the table and improves.
    fn offer(&mut self, dag: &Dag) {
        let Ok(score) = dag.check(self.ilp.table()) else {
            return;
        };
        if self.incumbent.as_ref().is_none_or(|(_, s)| score > *s) {
            self.incumbent = Some((dag.clone(), score));
        }
    }

    fn tighten(&mut self, bound: Option<f64>) {
        if let Some(b) = bound {
            self.bound = Some(self.bound.map_or(b, |old: f64| old.min(b)));
        }
    }

    fn account(&mut self, outcome: &MilpOutcome) {
        self.rounds += 1;
        self.nodes += outcome.nodes.unwrap_or(0);
        self.lp_iterations = match (self.lp_iterations, outcome.lp_iterations) {
            (Some(a), Some(b)) => Some(a + b),
            _ => None,
        };
    }

    fn add_cuts(&mut self, cuts: Vec<ClusterCut>) -> usize {
        let mut added = 0;
        for cut in cuts {
            if self.clusters.insert(cut.cluster.clone()) {
                let name = format!("cluster_{}", self.clusters.len());
                cut.add_to(&mut self.model, name)
                    .expect("cluster rows are well formed");
                added += 1;
            }
        }
        added
    }

    fn report(&self) {
        self.report_with(RoundSoFar::default());
    }

    /// Reports progress with what the running round has found `so_far` on top of the
    /// run's own figures.
    fn report_with(&self, so_far: RoundSoFar) {
        let bound = match (self.bound, so_far.bound) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        (self.progress)(&IlpProgress {
            incumbent: self.incumbent.as_ref().map(|(_, s)| *s),
            bound,
            cuts: (self.clusters.len() + so_far.cuts) as u64,
            nodes: self.nodes + so_far.nodes,
            rounds: self.rounds,
        });
    }

    /// Phase 1. Returns whether the MIP phase should run.
    fn lp_rounds(
        &mut self,
        backend: &dyn MilpBackend,
        sub_ip: Option<&dyn MilpBackend>,
    ) -> Result<Phase, SolverError> {
        let options = self.options;
        let exact = sub_ip.map(MilpSubIp);
        let pipeline = Pipeline {
            options: &options.separation,
            search: round_search(self.ilp),
            exact: exact.as_ref().map(|e| e as _),
        };
        let mut session = RoundSession::open(backend, &self.model, &self.limits())?;
        loop {
            if self.must_stop() || self.done() {
                return Ok(Phase::Stop);
            }
            let outcome = self.solve_relaxation(backend, session.as_mut())?;
            self.account(&outcome);
            match (outcome.status, &outcome.values) {
                (Status::Infeasible, _) => {
                    self.infeasible = true;
                    return Ok(Phase::Stop);
                }
                (Status::Optimal, Some(values)) => {
                    self.tighten(outcome.objective);
                    if let Some(dag) = round_to_dag(self.ilp, values) {
                        self.offer(&dag);
                    }
                    self.report();
                    if self.done() {
                        return Ok(Phase::Stop);
                    }
                    let cuts = pipeline.separate(
                        self.ilp,
                        values,
                        self.remaining(),
                        &options.limits.stop,
                    )?;
                    if self.add_cuts(cuts) == 0 {
                        return Ok(Phase::Continue);
                    }
                }
                // A limit stopped the LP: go straight to the MIP with what we have.
                _ => return Ok(Phase::Continue),
            }
        }
    }

    /// The relaxation's LP solved in `session` when there is one and it reaches an
    /// optimum, else afresh by `backend` (which tells an infeasible LP from a stopped
    /// one).
    fn solve_relaxation(
        &self,
        backend: &dyn MilpBackend,
        session: Option<&mut RoundSession>,
    ) -> Result<MilpOutcome, SolverError> {
        let began = Instant::now();
        if let Some(session) = session {
            if let Some(solution) = session.solve(&self.model, self.remaining())? {
                return Ok(MilpOutcome {
                    status: Status::Optimal,
                    objective: Some(solution.objective),
                    bound: Some(solution.objective),
                    values: Some(solution.values),
                    nodes: Some(0),
                    lp_iterations: Some(solution.iterations),
                    time_s: began.elapsed().as_secs_f64(),
                });
            }
        }
        backend.solve(&self.model.relaxation(), &self.limits())
    }

    /// What has changed since: the incumbent's score and the number of cuts.
    fn mark(&self) -> (Option<f64>, usize) {
        (
            self.incumbent.as_ref().map(|(_, s)| *s),
            self.clusters.len(),
        )
    }

    /// One MIP solve of `model` on `backend`: a branch and cut with `node_separator`
    /// where the back-end has node cuts, else a watched solve where it can be watched,
    /// else a plain one; from `start` where the back-end takes one.
    fn mip_round(
        &self,
        model: &MilpModel,
        backend: &dyn MilpBackend,
        node_separator: Option<&Arc<ClusterSeparator>>,
        limits: &Limits,
        start: Option<&[f64]>,
    ) -> Result<MilpOutcome, SolverError> {
        if let (Some(node_cuts), Some(separator)) = (backend.node_cuts(), node_separator) {
            return self.node_cut_round(model, node_cuts, limits, start, separator);
        }
        if let Some(watched) = backend.watched() {
            return self.watched_round(model, watched, limits, start);
        }
        match (backend.warm_start(), start) {
            (Some(warm), Some(start)) => warm.solve_from(model, limits, start),
            _ => backend.solve(model, limits),
        }
    }

    /// Adds the clusters `node_separator` found at the solver's nodes to the program.
    fn join_node_cuts(&mut self, node_separator: Option<&Arc<ClusterSeparator>>) {
        if let Some(separator) = node_separator {
            let found = separator.take_found();
            self.add_cuts(found.iter().map(|c| self.ilp.cluster_cut(c)).collect());
        }
    }

    /// One MIP round with cluster separation at the solver's nodes, reported every
    /// second with the clusters found at the nodes so far counted among the cuts (CBC's
    /// node count and bound are known only at the round's end).
    fn node_cut_round(
        &self,
        model: &MilpModel,
        node_cuts: &dyn NodeCuts,
        limits: &Limits,
        start: Option<&[f64]>,
        separator: &Arc<ClusterSeparator>,
    ) -> Result<MilpOutcome, SolverError> {
        solve_reporting(
            || node_cuts.solve_with_cuts(model, limits, start, separator.clone()),
            || {
                self.report_with(RoundSoFar {
                    cuts: separator.found_so_far(),
                    ..RoundSoFar::default()
                })
            },
        )
    }

    /// One MIP round on a back-end that tells its node count and bound while it runs,
    /// reported every second. The bound is valid for the problem: the round's program
    /// is a relaxation of it. (The round's incumbent is not shown: it may be cyclic.)
    fn watched_round(
        &self,
        model: &MilpModel,
        watched: &dyn Watched,
        limits: &Limits,
        start: Option<&[f64]>,
    ) -> Result<MilpOutcome, SolverError> {
        let watch = MipWatch::default();
        solve_reporting(
            || watched.solve_watched(model, limits, start, &watch),
            || {
                self.report_with(RoundSoFar {
                    nodes: watch.nodes(),
                    bound: watch.bound(),
                    ..RoundSoFar::default()
                })
            },
        )
    }

    /// Phase 2 on a small table: one solve of the program with a linear order
    /// ([`LinearOrder`]), complete, so its optimum is the problem's and its bound a
    /// bound of the problem; warm-started from the incumbent. With `node_separator` (a
    /// back-end with a cut callback) the solver also separates cluster cuts at its
    /// nodes, which tighten its LPs where the root's clusters leave a gap. HiGHS runs
    /// without its RINS sub-MIP ([`Limits::no_neighbourhood_search`]).
    fn complete_round(
        &mut self,
        backend: &dyn MilpBackend,
        node_separator: Option<Arc<ClusterSeparator>>,
    ) -> Result<(), SolverError> {
        let began = Instant::now();
        let mut model = self.model.clone();
        let order = LinearOrder::add_to(self.ilp, &mut model);
        let start_dag = self.incumbent.as_ref().map(|(dag, _)| dag.clone());
        let start = start_dag
            .as_ref()
            .and_then(|dag| order.start(self.ilp, dag));
        let limits = Limits {
            no_neighbourhood_search: true,
            ..self.limits()
        };
        let separator = node_separator.as_ref();
        let outcome = self.mip_round(&model, backend, separator, &limits, start.as_deref())?;
        self.join_node_cuts(separator);
        self.account(&outcome);
        let answer = answer_of(self.ilp, outcome, start_dag, &limits, began).outcome;
        if answer.status == Status::Infeasible {
            // The program is complete: no DAG of the table meets it.
            self.infeasible = self.incumbent.is_none();
            return Ok(());
        }
        if let Some(dag) = &answer.dag {
            self.offer(dag);
        }
        self.tighten(answer.bound);
        self.report();
        Ok(())
    }

    /// Phase 2. A round stops at its first improving solutions ([`SolutionBudget`]):
    /// a cyclic one is cut off at once rather than after a search that proves it
    /// optimal for the program, an acyclic one becomes the incumbent (and the next
    /// round's start and cutoff).
    ///
    /// With `node_separator` (a back-end with a cut callback), each round is a branch
    /// and cut: the solver separates cluster cuts at its nodes, and the clusters it
    /// found join the program for the rounds after.
    ///
    /// With `hand_over`, the rounds stop after that many seconds without an end and
    /// return [`Phase::Continue`]: the complete solve takes over.
    fn mip_rounds(
        &mut self,
        backend: &dyn MilpBackend,
        node_separator: Option<Arc<ClusterSeparator>>,
        hand_over: Option<f64>,
    ) -> Result<Phase, SolverError> {
        let began = Instant::now();
        let hand_over_left = || hand_over.map(|s| s - began.elapsed().as_secs_f64());
        let mut budget = SolutionBudget::for_backend(backend, node_separator.is_some());
        loop {
            if self.must_stop() || self.done() {
                return Ok(Phase::Stop);
            }
            let time_limit = match (self.remaining(), hand_over_left()) {
                (_, Some(left)) if left <= 0.0 => return Ok(Phase::Continue),
                (Some(remaining), Some(left)) => Some(remaining.min(left)),
                (remaining, left) => remaining.or(left),
            };
            let limits = Limits {
                improving_solutions: budget.limit(),
                time_limit,
                ..self.limits()
            };
            let start = self
                .incumbent
                .as_ref()
                .and_then(|(dag, _)| self.ilp.values_of(dag));
            let before = self.mark();
            let separator = node_separator.as_ref();
            let outcome =
                self.mip_round(&self.model, backend, separator, &limits, start.as_deref())?;
            self.join_node_cuts(separator);
            self.account(&outcome);
            if outcome.status == Status::Infeasible {
                // Every DAG satisfies every cluster cut, so this proves there is none.
                self.infeasible = self.incumbent.is_none();
                return Ok(Phase::Stop);
            }
            let Some(values) = &outcome.values else {
                self.tighten(outcome.bound);
                self.report();
                return Ok(match hand_over_left() {
                    Some(left) if left <= 0.0 && !self.must_stop() => Phase::Continue,
                    _ => Phase::Stop,
                });
            };
            let finished = outcome.status == Status::Optimal;
            let graph = self.ilp.graph_of(values);
            if graph.is_acyclic() {
                self.offer(&graph);
                let score = graph.check(self.ilp.table()).ok();
                self.tighten(proven_bound(finished, &limits, score, outcome.bound));
                self.report();
                if finished {
                    return Ok(Phase::Stop);
                }
            } else {
                self.tighten(outcome.bound);
                if let Some(dag) = round_to_dag(self.ilp, values) {
                    self.offer(&dag);
                }
                let support = Support::new(self.ilp, values);
                let cuts = separate_heuristically(self.ilp, &support, &self.options.separation);
                self.add_cuts(cuts);
                self.report();
                if finished && self.clusters.len() == before.1 {
                    return Ok(Phase::Stop);
                }
            }
            if !finished {
                // Stopped by a limit: the time limit or Ctrl+C (checked above), the
                // hand-over time (checked above), or the budget.
                if hand_over_left().is_some_and(|left| left <= 0.0) {
                    continue;
                }
                if budget.limit().is_none() {
                    return Ok(Phase::Stop);
                }
                if self.mark() == before {
                    budget.widen();
                }
            }
        }
    }

    fn outcome(self) -> IlpOutcome {
        let status = match (&self.incumbent, self.bound) {
            _ if self.infeasible => Status::Infeasible,
            (Some((_, score)), Some(bound)) if gap_closed(*score, bound) => Status::Optimal,
            (Some(_), _) => Status::Feasible,
            (None, _) => Status::Unknown,
        };
        let (dag, score) = match self.incumbent {
            Some((dag, score)) if !self.infeasible => (Some(dag), Some(score)),
            _ => (None, None),
        };
        // The bound can never be below a known DAG's score; rounding in the solver can
        // put it a hair under.
        let bound = match (self.bound, score) {
            (Some(b), Some(s)) => Some(b.max(s)),
            (b, _) => b,
        };
        IlpOutcome {
            status,
            dag,
            score,
            bound: if self.infeasible { None } else { bound },
            nodes: self.nodes,
            cuts: self.clusters.len() as u64,
            lp_iterations: self.lp_iterations,
            rounds: Some(self.rounds),
            time_s: self.began.elapsed().as_secs_f64(),
            clusters: {
                let mut clusters: Vec<VarSet> = self.clusters.into_iter().collect();
                clusters.sort_unstable();
                clusters
            },
        }
    }
}

/// The LP of the cut loop's rounds kept open in a back-end with
/// [`LpDuals`](crate::milp::LpDuals) (HiGHS):
/// each solve starts from the last one's basis, with the rows added to the program
/// since appended, instead of solving the whole relaxation afresh.
pub(crate) struct RoundSession {
    lp: Box<dyn LpSession>,
    /// How many of the program's rows the session has.
    rows: usize,
}

impl RoundSession {
    /// The session of `model`'s relaxation, if `backend` can keep one.
    pub(crate) fn open(
        backend: &dyn MilpBackend,
        model: &MilpModel,
        limits: &Limits,
    ) -> Result<Option<Self>, SolverError> {
        let Some(duals) = backend.lp_duals() else {
            return Ok(None);
        };
        Ok(Some(RoundSession {
            lp: duals.open_lp(model, limits)?,
            rows: model.num_rows(),
        }))
    }

    /// Solves the relaxation of `model` (the session's program with rows appended),
    /// within `time_limit` seconds: `None` when no optimum was reached.
    pub(crate) fn solve(
        &mut self,
        model: &MilpModel,
        time_limit: Option<f64>,
    ) -> Result<Option<LpSolution>, SolverError> {
        let added: Vec<LpRow> = model.rows()[self.rows..]
            .iter()
            .map(|row| LpRow {
                terms: row
                    .coefficients
                    .iter()
                    .map(|&(c, a)| (c.index(), a))
                    .collect(),
                lower: row.lower,
                upper: row.upper,
            })
            .collect();
        if !added.is_empty() {
            self.lp.add_rows(&added)?;
            self.rows = model.num_rows();
        }
        self.lp.solve(time_limit)
    }
}

/// What a running MIP round has found so far, beyond the run's own figures.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct RoundSoFar {
    /// Clusters separated at the solver's nodes.
    cuts: usize,
    /// Nodes processed.
    nodes: u64,
    /// The round's proven bound, once known.
    bound: Option<f64>,
}

/// How many improving solutions a MIP round may find before it stops and hands back
/// its best one ([`Limits::improving_solutions`]). It starts small, so that each cyclic
/// solution is cut off as soon as it is found; it doubles after a round that brought
/// nothing new (no cut, no better DAG: e.g. the solver counted the start), and is
/// lifted beyond [`SolutionBudget::LARGEST`], so the last rounds run to the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SolutionBudget(Option<u64>);

impl SolutionBudget {
    /// The largest limit before rounds run unlimited.
    const LARGEST: u64 = 16;

    /// The first limit: two, as the solvers may count the start as the first.
    const FIRST: u64 = 2;

    fn new() -> Self {
        SolutionBudget(Some(Self::FIRST))
    }

    /// The budget for `backend`, with its node cuts or without: unlimited rounds on
    /// one that cannot stop at improving solutions (CBC without node cuts).
    fn for_backend(backend: &dyn MilpBackend, node_cuts: bool) -> Self {
        match node_cuts || backend.stops_at_improving_solutions() {
            true => Self::new(),
            false => SolutionBudget(None),
        }
    }

    fn limit(self) -> Option<u64> {
        self.0
    }

    fn widen(&mut self) {
        self.0 = self.0.map(|n| 2 * n).filter(|&n| n <= Self::LARGEST);
    }
}

#[cfg(test)]
mod tests {
    use super::{ClusterSeparator, Run, SolutionBudget};
    use crate::ilp::live::LIVE_REPORT_INTERVAL;
    use crate::ilp::node_cuts::tests::{cyclic_table, the_cycle};
    use crate::ilp::{IlpOptions, IlpProgress};
    use crate::milp::{
        CutSeparator, Limits, MilpOutcome, MipWatch, NodeCuts, SolverError, Watched,
    };
    use bnsl_formulations::milp::Sense;
    use bnsl_formulations::{FamilyIlp, MilpModel, VarSet};
    use std::cell::RefCell;
    use std::sync::Arc;

    /// The root's cut rows, and only they, join another program over the same columns.
    #[test]
    fn root_cuts_are_copied_into_a_program() {
        let mut model = MilpModel::new(Sense::Maximize);
        let x = model.add_binary("x", 1.0).unwrap();
        let y = model.add_binary("y", 2.0).unwrap();
        model
            .add_row("base", [(x, 1.0), (y, 1.0)], 0.0, 2.0)
            .unwrap();
        let program = model.clone();
        model.add_row("cluster_0", [(x, 1.0)], 1.0, 1.0).unwrap();
        model.add_row("cluster_1", [(y, -1.0)], -1.0, 0.0).unwrap();
        let root = super::RootCuts {
            model,
            cuts: 2,
            clusters: Vec::new(),
            rounds: 3,
            bound: None,
        };
        let mut target = program.clone();
        root.add_cuts_to(&mut target).unwrap();
        let names: Vec<&str> = target.rows().iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["base", "cluster_0", "cluster_1"]);
        assert_eq!(target.rows()[2].coefficients, [(y, -1.0)]);
        let mut too_small = MilpModel::new(Sense::Maximize);
        assert!(
            root.add_cuts_to(&mut too_small).is_err(),
            "a column it lacks"
        );
    }

    /// The rounds' LP session solves the program with the rows added since it opened,
    /// as a fresh solve of the whole relaxation does.
    #[cfg(feature = "highs")]
    #[test]
    fn the_round_session_takes_the_rows_added_to_the_program() {
        use crate::milp::highs::HighsBackend;
        use crate::milp::MilpBackend;
        let table = cyclic_table();
        let ilp = FamilyIlp::new(&table);
        let mut model = ilp.model();
        let backend = HighsBackend::default();
        let limits = Limits::default();
        let mut session = super::RoundSession::open(&backend, &model, &limits)
            .unwrap()
            .expect("HiGHS keeps an LP open");
        let cyclic = session.solve(&model, None).unwrap().unwrap();
        assert!(
            (cyclic.objective - -3.0).abs() < 1e-9,
            "{}",
            cyclic.objective
        );
        let everything = VarSet::from_members(3, 0..3);
        ilp.cluster_cut(&everything)
            .add_to(&mut model, "cluster_0".into())
            .unwrap();
        let cut = session.solve(&model, None).unwrap().unwrap();
        let fresh = backend.solve(&model.relaxation(), &limits).unwrap();
        assert!((cut.objective - -7.0).abs() < 1e-9, "{}", cut.objective);
        assert!((fresh.objective.unwrap() - cut.objective).abs() < 1e-9);
    }

    /// A node-cut solver that separates one point, then takes its time.
    struct SlowNodeCuts {
        point: Vec<f64>,
    }

    impl NodeCuts for SlowNodeCuts {
        fn solve_with_cuts(
            &self,
            _: &MilpModel,
            _: &Limits,
            _: Option<&[f64]>,
            separator: Arc<dyn CutSeparator>,
        ) -> Result<MilpOutcome, SolverError> {
            assert!(!separator.separate(&self.point).is_empty());
            std::thread::sleep(LIVE_REPORT_INTERVAL.mul_f64(1.6));
            Ok(MilpOutcome::nothing_known())
        }
    }

    /// A node-cut round reports the clusters its nodes found while it runs.
    #[test]
    fn a_long_node_cut_round_reports_its_cuts_as_it_goes() {
        let table = cyclic_table();
        let ilp = FamilyIlp::new(&table);
        let solver = SlowNodeCuts {
            point: ilp.values_of(&the_cycle()).unwrap(),
        };
        let options = IlpOptions::default();
        let reports = RefCell::new(Vec::<IlpProgress>::new());
        let record = |p: &IlpProgress| reports.borrow_mut().push(p.clone());
        let run = Run::new(&ilp, &options, &record);
        let separator = Arc::new(ClusterSeparator::new(&table, &options.separation));
        run.node_cut_round(&ilp.model(), &solver, &Limits::default(), None, &separator)
            .unwrap();
        let reports = reports.into_inner();
        assert!(!reports.is_empty(), "no report while the round ran");
        assert!(reports.iter().all(|p| p.cuts == 1), "{reports:?}");
        assert_eq!(separator.take_found(), [VarSet::from_members(3, 0..3)]);
    }

    /// A watched solver that records 5 nodes, a bound of −3 and an incumbent value of
    /// −9, then takes its time.
    struct SlowWatched;

    impl Watched for SlowWatched {
        fn solve_watched(
            &self,
            _: &MilpModel,
            _: &Limits,
            _: Option<&[f64]>,
            watch: &MipWatch,
        ) -> Result<MilpOutcome, SolverError> {
            watch.record(5, -3.0, -9.0);
            std::thread::sleep(LIVE_REPORT_INTERVAL.mul_f64(1.6));
            Ok(MilpOutcome::nothing_known())
        }
    }

    /// A watched round reports its nodes and bound while it runs, the bound only where
    /// it is tighter than the run's; not its incumbent, which may be cyclic.
    #[test]
    fn a_long_watched_round_reports_nodes_and_bound_as_it_goes() {
        let table = cyclic_table();
        let ilp = FamilyIlp::new(&table);
        let options = IlpOptions::default();
        for (run_bound, shown) in [(None, -3.0), (Some(-2.0), -3.0), (Some(-4.0), -4.0)] {
            let reports = RefCell::new(Vec::<IlpProgress>::new());
            let record = |p: &IlpProgress| reports.borrow_mut().push(p.clone());
            let mut run = Run::new(&ilp, &options, &record);
            run.nodes = 10;
            run.bound = run_bound;
            run.watched_round(&ilp.model(), &SlowWatched, &Limits::default(), None)
                .unwrap();
            let reports = reports.into_inner();
            assert!(!reports.is_empty(), "no report while the round ran");
            assert!(
                reports
                    .iter()
                    .all(|p| p.nodes == 15 && p.bound == Some(shown) && p.incumbent.is_none()),
                "{reports:?}"
            );
        }
    }

    #[test]
    fn the_budget_doubles_then_lifts() {
        let mut budget = SolutionBudget::new();
        let mut seen = vec![budget.limit()];
        for _ in 0..5 {
            budget.widen();
            seen.push(budget.limit());
        }
        assert_eq!(seen, [Some(2), Some(4), Some(8), Some(16), None, None]);
    }
}
