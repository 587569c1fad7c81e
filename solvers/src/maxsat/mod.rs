//! A weighted MaxSAT solver on batsat (SPEC C7), for the encodings of
//! [`bnsl_formulations::maxsat`]; three algorithms:
//!
//! - [`MaxSatAlgorithm::Oll`], core-guided (OLL: Andres et al. 2012; Morgado et al.
//!   2014), which raises a lower bound: each unsatisfiable core of the soft clauses
//!   assumed satisfied raises it by the core's least weight, and is relaxed by a
//!   totalizer whose outputs "at least k of the core are violated" become soft clauses.
//!   With stratification (the heaviest soft clauses first, Ansótegui et al. 2013),
//!   weight-aware core extraction (cores are relaxed only when no more are found, Berg &
//!   Järvisalo 2017), core trimming, and hardening of soft clauses heavier than the gap.
//! - [`MaxSatAlgorithm::Lsu`], solution-improving linear search (SAT-UNSAT): each model
//!   found is an incumbent, and the next call asks for a cheaper one through the adder
//!   network of [`cost_bound`](bnsl_formulations::maxsat::cost_bound); the last call is
//!   the one that finds none, which proves the incumbent optimal.
//! - [`MaxSatAlgorithm::Ihs`], implicit hitting sets (MaxHS), with a MILP back-end for
//!   the hitting sets.
//!
//! All three stop at a time limit or a [`StopToken`] with the best model and bound so far.

mod cluster_clauses;
mod ihs;
mod lsu;
mod oll;
mod oracle;
pub mod proof;
mod reduced_costs;
mod totalizer;

#[cfg(test)]
mod tests;

use crate::milp::{CutSeparator, Limits, MilpBackend, SolverError};
use crate::StopToken;
use bnsl_formulations::maxsat::cost_bound::violation_literals;
use bnsl_formulations::maxsat::{Lit, Wcnf};
use oracle::{Answer, Limit, Oracle};
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use cluster_clauses::ClusterClauses;

/// A separator of clauses that every model of a formula's hard clauses satisfies, over
/// the literals of the groups of [`solve_maxsat_seeded`] (positions in the groups
/// flattened in order), such as the cluster clauses of the BNSL encoding
/// ([`ClusterClauses`]). The seeded hitting-set search adds them as rows of its program,
/// as it adds cores: each is a set of literals of which every model sets one.
pub trait ImpliedClauses {
    /// Clauses that `values` (a value in [0, 1] per group literal, a point of the
    /// hitting-set program's LP relaxation) violates: the values of each sum to less
    /// than 1. A MILP sub-problem, if the separator has one, runs on `backend` within
    /// `limits`.
    fn violated(
        &self,
        values: &[f64],
        backend: &dyn MilpBackend,
        limits: &Limits,
    ) -> Result<Vec<Vec<usize>>, SolverError>;

    /// One literal per group (positions in the groups flattened), chosen guided by
    /// `values` (as [`violated`](Self::violated) takes them) so that some model of the
    /// hard clauses may set them all; `None` when the separator finds no such choice.
    fn rounded(&self, values: &[f64]) -> Option<Vec<usize>>;

    /// Rows that every model's point meets (one value per group literal, positions in
    /// the groups flattened), separated at the nodes of a back-end's branch and bound
    /// ([`NodeCuts`](crate::milp::NodeCuts)) `backend`, for one call; a MILP
    /// sub-problem, if the separator has one, runs on the back-end that `backend`'s
    /// callbacks allow ([`NodeCuts::sub_ips_in_callbacks`](crate::milp::NodeCuts::sub_ips_in_callbacks)).
    /// `None` when there is no such separator.
    fn node_separator(&self, backend: &dyn MilpBackend) -> Option<Arc<dyn CutSeparator>>;
}

/// The search a MaxSAT solve runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MaxSatAlgorithm {
    /// Core-guided search with totalizers (OLL), stratified.
    Oll,
    /// Linear SAT-UNSAT search on the adder network of the cost.
    Lsu,
    /// Implicit hitting sets: cores from the SAT solver, hitting sets from a MILP.
    #[default]
    Ihs,
}

impl MaxSatAlgorithm {
    /// The lower-case name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            MaxSatAlgorithm::Oll => "oll",
            MaxSatAlgorithm::Lsu => "lsu",
            MaxSatAlgorithm::Ihs => "ihs",
        }
    }
}

/// How a MaxSAT solve runs.
#[derive(Clone, Debug, Default)]
pub struct MaxSatOptions {
    /// The search.
    pub algorithm: MaxSatAlgorithm,
    /// Wall-clock limit.
    pub time_limit: Option<Duration>,
    /// Stops the solve early from outside.
    pub stop: StopToken,
    /// The MILP back-end of [`MaxSatAlgorithm::Ihs`]; `None`: the default of
    /// [`default_hitting_set_backend`].
    pub hitting_sets: Option<HittingSetBackend>,
}

/// The MILP back-end that finds the hitting sets of [`MaxSatAlgorithm::Ihs`].
#[derive(Clone)]
pub struct HittingSetBackend(pub Arc<dyn MilpBackend>);

impl fmt::Debug for HittingSetBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "HittingSetBackend({})", self.0.name())
    }
}

/// The back-end [`MaxSatAlgorithm::Ihs`] takes when none is given: microlp when it is
/// compiled in (on these many small covering programs it was faster than HiGHS, which
/// pays a start-up cost per program; README, "MaxSAT"), else the one that solves small
/// programs fastest.
pub fn default_hitting_set_backend() -> Option<Box<dyn MilpBackend>> {
    crate::milp::backend("microlp").or_else(crate::milp::small_program_backend)
}

/// Why a MaxSAT solve could not start.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MaxSatError {
    /// [`MaxSatAlgorithm::Ihs`] was asked for in a build without a MILP back-end.
    #[error("the hitting-set search (ihs) needs a MILP back-end, and this build has none")]
    NoMilpBackend,
}

/// How a MaxSAT solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaxSatStatus {
    /// The model is optimal.
    Optimal,
    /// A model was found, not proved optimal (a limit stopped the search).
    Feasible,
    /// The hard clauses have no model.
    Unsatisfiable,
    /// A limit stopped the search before any model.
    Unknown,
}

/// The result of a MaxSAT solve.
#[derive(Clone, Debug)]
pub struct MaxSatResult {
    /// How it ended.
    pub status: MaxSatStatus,
    /// The best model (`value[v]` for variable `v`, index 0 unused), if any.
    pub model: Option<Vec<bool>>,
    /// Its cost (the weight of the soft clauses it falsifies).
    pub cost: Option<u64>,
    /// A proved lower bound on the optimal cost.
    pub lower_bound: u64,
    /// Unsatisfiable cores found.
    pub cores: usize,
    /// Clauses from the [`ImpliedClauses`] separator added to the hitting-set program.
    pub implied_clauses: usize,
    /// Calls to the SAT solver.
    pub sat_calls: usize,
    /// Why the search ended early other than by a limit (a MILP back-end's error), if it
    /// did; the model and bound are then those found before.
    pub failure: Option<String>,
}

/// Where a running solve stands, reported after each model and core.
#[derive(Clone, Debug, PartialEq)]
pub struct MaxSatProgress {
    /// The proved lower bound on the cost.
    pub lower_bound: u64,
    /// The cost of the best model so far.
    pub upper_bound: Option<u64>,
    /// Cores so far.
    pub cores: usize,
    /// SAT calls so far.
    pub sat_calls: usize,
}

/// Solves `wcnf` to optimality, or until a limit of `options`; `progress` sees every
/// new bound.
pub fn solve_maxsat(
    wcnf: &Wcnf,
    options: &MaxSatOptions,
    progress: &dyn Fn(&MaxSatProgress),
) -> Result<MaxSatResult, MaxSatError> {
    solve_maxsat_seeded(wcnf, &[], None, options, progress)
}

/// [`solve_maxsat`] on a formula whose every model of the hard clauses sets exactly one
/// literal of each group of `exactly_one` true, such as the candidates of each node in
/// [`BnslEncoding::family_vars`](bnsl_formulations::maxsat::bnsl::BnslEncoding).
/// [`MaxSatAlgorithm::Ihs`] seeds its hitting-set program with these groups (MaxHS's
/// seeding, Davies & Bacchus 2013): a row `Σ y = 1` per group, over the soft clauses
/// `¬x` of its literals and a zero-cost column for each literal that is in no soft
/// clause. Every model meets those rows, so the bound stays valid; on the BNSL encoding
/// the hitting-set program becomes the family ILP with the cores as its cluster-like
/// rows (Saikko, Malone & Järvisalo 2015). With groups, ihs also takes cores that cut
/// off the LP relaxation's optimum before each MILP call, and, given `implied`, the
/// clauses it separates from that optimum first. Empty groups: the search of
/// [`solve_maxsat`]. The other algorithms ignore the groups. A group that does not hold
/// of the formula, or an implied clause that does not, makes the bound wrong.
pub fn solve_maxsat_seeded(
    wcnf: &Wcnf,
    exactly_one: &[Vec<Lit>],
    implied: Option<&dyn ImpliedClauses>,
    options: &MaxSatOptions,
    progress: &dyn Fn(&MaxSatProgress),
) -> Result<MaxSatResult, MaxSatError> {
    let hitting_sets = match (options.algorithm, &options.hitting_sets) {
        (MaxSatAlgorithm::Ihs, Some(backend)) => Some(Arc::clone(&backend.0)),
        (MaxSatAlgorithm::Ihs, None) => Some(Arc::from(
            default_hitting_set_backend().ok_or(MaxSatError::NoMilpBackend)?,
        )),
        _ => None,
    };
    let limit = Limit {
        deadline: options.time_limit.map(|t| Instant::now() + t),
        stop: options.stop.clone(),
    };
    let mut search = Search::new(wcnf, Oracle::new(wcnf.num_vars, limit), progress);
    for clause in &wcnf.hard {
        search.oracle.add_clause(clause);
    }
    let status = match options.algorithm {
        MaxSatAlgorithm::Oll => oll::run(&mut search),
        MaxSatAlgorithm::Lsu => lsu::run(&mut search),
        MaxSatAlgorithm::Ihs => {
            let backend = hitting_sets.expect("ihs has a back-end");
            ihs::run(&mut search, exactly_one, implied, backend.as_ref())
        }
    };
    Ok(search.finish(status))
}

/// What a search ended with, before the incumbent is attached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    /// The lower bound reached the incumbent's cost.
    Closed,
    /// The hard clauses have no model.
    Unsatisfiable,
    /// A limit stopped it.
    Stopped,
}

/// The state every algorithm keeps: the oracle, the incumbent and the bounds.
struct Search<'a> {
    wcnf: &'a Wcnf,
    oracle: Oracle,
    best: Option<(u64, Vec<bool>)>,
    lower_bound: u64,
    cores: usize,
    implied_clauses: usize,
    failure: Option<String>,
    progress: &'a dyn Fn(&MaxSatProgress),
}

impl<'a> Search<'a> {
    fn new(wcnf: &'a Wcnf, oracle: Oracle, progress: &'a dyn Fn(&MaxSatProgress)) -> Self {
        Search {
            wcnf,
            oracle,
            best: None,
            lower_bound: 0,
            cores: 0,
            implied_clauses: 0,
            failure: None,
            progress,
        }
    }

    /// The cost of the incumbent.
    fn upper_bound(&self) -> Option<u64> {
        self.best.as_ref().map(|(c, _)| *c)
    }

    /// Adds to the oracle the clauses that give every soft clause a violation literal
    /// ([`violation_literals`], fresh variables from `*next_var`) and returns those
    /// literals, one per soft clause.
    fn relax_softs(&mut self, next_var: &mut u32) -> Vec<Lit> {
        let (violated, relax) = violation_literals(self.wcnf, next_var);
        for clause in &relax {
            self.oracle.add_clause(clause);
        }
        violated
    }

    /// Solves the hard clauses alone for a first incumbent; the outcome when that ends
    /// the search (no model, or stopped).
    fn first_model(&mut self) -> Option<Outcome> {
        match self.oracle.solve(&[]) {
            Answer::Sat(model) => {
                self.offer(model);
                None
            }
            Answer::Unsat(_) => Some(Outcome::Unsatisfiable),
            Answer::Stopped => Some(Outcome::Stopped),
        }
    }

    /// Keeps `model` if it is cheaper than the incumbent; returns its cost.
    /// (The hard clauses are checked only for a model that becomes the incumbent.)
    fn offer(&mut self, mut model: Vec<bool>) -> u64 {
        model.truncate(self.wcnf.num_vars as usize + 1);
        let cost = self.wcnf.falsified_weight(&model);
        if self.upper_bound().is_none_or(|ub| cost < ub) {
            assert_eq!(
                self.wcnf.cost(&model),
                Some(cost),
                "the SAT solver's model satisfies the hard clauses"
            );
            self.best = Some((cost, model));
            self.report();
        }
        cost
    }

    /// Raises the lower bound by `by` (for a core).
    fn raise(&mut self, by: u64) {
        self.lower_bound += by;
        self.cores += 1;
        self.report();
    }

    /// Raises the lower bound to `bound` (a bound proved otherwise than by one core).
    fn set_lower_bound(&mut self, bound: u64) {
        if bound > self.lower_bound {
            self.lower_bound = bound;
            self.report();
        }
    }

    fn closed(&self) -> bool {
        self.upper_bound() == Some(self.lower_bound)
    }

    fn report(&self) {
        (self.progress)(&MaxSatProgress {
            lower_bound: self.lower_bound,
            upper_bound: self.upper_bound(),
            cores: self.cores,
            sat_calls: self.oracle.calls,
        });
    }

    fn finish(self, outcome: Outcome) -> MaxSatResult {
        let (cost, model) = match self.best {
            Some((c, m)) => (Some(c), Some(m)),
            None => (None, None),
        };
        let status = match (outcome, cost) {
            (Outcome::Unsatisfiable, _) => MaxSatStatus::Unsatisfiable,
            (Outcome::Closed, Some(_)) => MaxSatStatus::Optimal,
            (_, Some(_)) => MaxSatStatus::Feasible,
            (_, None) => MaxSatStatus::Unknown,
        };
        let lower_bound = match status {
            MaxSatStatus::Optimal => cost.unwrap_or(self.lower_bound),
            _ => self.lower_bound,
        };
        MaxSatResult {
            status,
            model,
            cost,
            lower_bound,
            cores: self.cores,
            implied_clauses: self.implied_clauses,
            sat_calls: self.oracle.calls,
            failure: self.failure,
        }
    }
}
