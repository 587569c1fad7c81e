//! Exact learning with the family-variable ILP (GOBNILP's approach, Bartlett & Cussens
//! 2017).
//!
//! The program and its cluster cuts are built in `bnsl_formulations::family`; this module
//! solves it. Engines:
//! - `scip_bc::ScipBranchAndCut` (feature `scip`): one SCIP branch and cut with an
//!   acyclicity constraint handler, a cluster-cut separator and the sink heuristic as
//!   plugins (GOBNILP's design).
//! - [`cut_loop::CutLoop`], for any [`MilpBackend`] (HiGHS and CBC, which have no
//!   lazy-constraint callback): cutting-plane rounds on the LP relaxation, then MIP
//!   solves that add the clusters of any cycle and re-solve, warm-started from the best
//!   DAG found; on CBC, each MIP solve separates cluster cuts at its nodes through CBC's
//!   cut callback (`node_cuts`).
//! - [`ordering::solve_ordering`]: the polynomial-size ordering formulation in one call.
//! - [`bounded_treewidth::solve_bounded_treewidth`]: the polynomial-size MILP of DAGs of
//!   bounded treewidth, in one call.
//!
//! Every engine reports the same [`IlpOutcome`]: incumbent DAG, proven bound, and the
//! work done. Every engine also collects all DAGs above a score threshold
//! ([`FamilyIlpSolver::collect`], see [`collect`]).

pub mod bounded_treewidth;
pub mod certification;
pub mod collect;
mod collect_loop;
pub mod cut_loop;
mod live;
pub(crate) mod node_cuts;
pub mod ordering;
#[cfg(feature = "scip")]
pub mod scip_bc;
pub(crate) mod separation;
pub(crate) mod sink;
mod small_region;
mod static_program;

#[cfg(all(test, feature = "highs"))]
mod certification_tests;
#[cfg(all(test, any(feature = "highs", feature = "cbc", feature = "scip")))]
mod collect_tests;
#[cfg(all(test, any(feature = "highs", feature = "cbc", feature = "scip")))]
mod tests;
#[cfg(all(test, any(feature = "highs", feature = "cbc", feature = "scip")))]
mod treewidth_tests;

use crate::enumerate::Enumeration;
use crate::milp::{Limits, MilpBackend, SolverError, Status};
use bnsl_formulations::family::separation::SeparationOptions;
use bnsl_formulations::milp::SideConstraints;
use bnsl_formulations::{Dag, VarSet};
use collect::{CollectProgress, CollectSettings};
use std::time::Instant;

/// Settings of one exact ILP solve.
#[derive(Clone, Debug, Default)]
pub struct IlpOptions {
    /// Time limit, gap, threads, seed and verbosity, as for a single MILP solve. The
    /// time limit covers the whole solve; the gap stops the search once
    /// `(bound − incumbent) / |incumbent|` is at most this.
    pub limits: Limits,
    /// Heuristic separation settings.
    pub separation: SeparationOptions,
    /// Skip the exact (sub-IP) separation and rely on the heuristics alone.
    pub heuristic_separation_only: bool,
    /// Solve the cut loop's MIP rounds as plain MILPs, without cluster separation at the
    /// back-end's nodes ([`NodeCuts`](crate::milp::NodeCuts), CBC's alone). Such rounds
    /// run to their end on CBC, which stops at improving solutions only with node cuts.
    pub no_node_cuts: bool,
    /// A DAG to start from (it must be made of candidates of the table).
    pub start: Option<Dag>,
    /// Columns and rows the answer must also satisfy, over the family columns and
    /// columns of their own (the bounded-treewidth rows of
    /// `bnsl_formulations::bounded_treewidth::treewidth_side`). Only an engine with its
    /// own branch and cut takes them (SCIP's); the others refuse them.
    pub side: Option<std::sync::Arc<SideConstraints>>,
}

/// The result of an exact solve.
#[derive(Clone, Debug, PartialEq)]
pub struct IlpOutcome {
    /// What was established.
    pub status: Status,
    /// The best DAG found (made of candidates, acyclic), if any.
    pub dag: Option<Dag>,
    /// Its total score.
    pub score: Option<f64>,
    /// Proven upper bound on the optimal score.
    pub bound: Option<f64>,
    /// Branch-and-bound nodes, summed over all MIP solves.
    pub nodes: u64,
    /// Cluster cuts added to the program.
    pub cuts: u64,
    /// Simplex iterations, summed over all solves, where the back-end reports them.
    pub lp_iterations: Option<u64>,
    /// Solve rounds of a cut loop (LP rounds + MIP rounds); `None` for engines that
    /// branch and cut within one solve.
    pub rounds: Option<u64>,
    /// Wall-clock seconds.
    pub time_s: f64,
    /// The clusters whose constraints the solve added (engines that report them), valid
    /// for every DAG of the table: a later search on it can start from them
    /// ([`CollectSettings::clusters`]).
    pub clusters: Vec<VarSet>,
}

/// Absolute difference below which incumbent and bound count as equal: half the 1e-6
/// resolution of score files, so two DAGs whose scores differ in the sixth decimal are
/// never confused.
pub const CLOSED_GAP_ABS: f64 = 5e-7;

/// Relative difference below which incumbent and bound count as equal, for scores so
/// large that [`CLOSED_GAP_ABS`] is below the precision of a solver's bound.
pub const CLOSED_GAP_REL: f64 = 1e-12;

/// The bound to keep after a solve that reported `bound`: when the solver proved its
/// solution `score` optimal to a zero gap (`solver_optimal` and no gap limit), the
/// bound is that score — its own dual bound can sit a little above, within the
/// solver's tolerances, and must not keep the gap open.
pub fn proven_bound(
    solver_optimal: bool,
    limits: &Limits,
    score: Option<f64>,
    bound: Option<f64>,
) -> Option<f64> {
    match score {
        Some(s) if solver_optimal && limits.gap.is_none() => Some(s),
        _ => bound,
    }
}

/// Seconds left of `limits`' time limit for a search that began at `began` (`None`: no
/// limit).
pub(crate) fn seconds_left(limits: &Limits, began: Instant) -> Option<f64> {
    limits
        .time_limit
        .map(|t| (t - began.elapsed().as_secs_f64()).max(0.0))
}

/// Whether a search that began at `began` must stop with what it has: its time is up
/// or its stop token was stopped.
pub(crate) fn must_stop(limits: &Limits, began: Instant) -> bool {
    seconds_left(limits, began).is_some_and(|r| r <= 0.0) || limits.stop.is_stopped()
}

/// Whether `score` is proven optimal by `bound`.
pub fn gap_closed(score: f64, bound: f64) -> bool {
    bound - score <= CLOSED_GAP_ABS.max(CLOSED_GAP_REL * score.abs())
}

/// A snapshot of a running solve, for progress lines.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IlpProgress {
    /// Best score found so far.
    pub incumbent: Option<f64>,
    /// Best proven bound so far.
    pub bound: Option<f64>,
    /// Cuts added so far.
    pub cuts: u64,
    /// Nodes so far.
    pub nodes: u64,
    /// Rounds so far (cut loops).
    pub rounds: u64,
}

/// The engine that solves the family ILP on `backend`: its branch and cut where it has
/// one ([`MilpBackend::branch_and_cut`]), else the cut loop around its solves.
pub fn family_solver<'b>(backend: &'b dyn MilpBackend) -> Box<dyn FamilyIlpSolver + 'b> {
    backend
        .branch_and_cut()
        .unwrap_or_else(|| Box::new(cut_loop::CutLoop::new(backend)))
}

/// A solver of the family-variable ILP.
pub trait FamilyIlpSolver {
    /// Name of the engine, for reports (`scip`, `highs`, `cbc`).
    fn name(&self) -> &'static str;

    /// Solves the ILP of `ilp`'s table. `progress` is called whenever the incumbent,
    /// the bound or the cut count changes.
    fn solve(
        &self,
        ilp: &bnsl_formulations::FamilyIlp<'_>,
        options: &IlpOptions,
        progress: &dyn Fn(&IlpProgress),
    ) -> Result<IlpOutcome, SolverError>;

    /// Collects every DAG of `ilp`'s table that scores at least `settings.threshold`,
    /// within the settings' limits (see [`collect`]). `progress` is called whenever a
    /// DAG is collected.
    fn collect(
        &self,
        ilp: &bnsl_formulations::FamilyIlp<'_>,
        settings: &CollectSettings,
        progress: &dyn Fn(&CollectProgress),
    ) -> Result<Enumeration, SolverError>;
}
