//! Implicit hitting sets (MaxHS: Davies & Bacchus 2011, 2013): the SAT solver finds
//! cores, sets of soft clauses that cannot all hold, and a MILP back-end finds a
//! cheapest set of soft clauses that meets every core found, the hitting set. Its cost
//! is a lower bound; when the formula has a model that satisfies every soft clause
//! outside the hitting set, that model costs at most the bound and is optimal.
//!
//! A first call without assumptions gives an incumbent. Then each round:
//! 1. Assume every soft clause outside the hitting set holds. A core is shrunk until
//!    every member is needed (the cheapest members are dropped first, keeping the
//!    costly ones a lower bound needs), kept, and its members are no longer assumed;
//!    the next call finds another core, disjoint from those of this round, until the
//!    assumptions have a model, which is offered as an incumbent. Up to
//!    [`GREEDY_ROUNDS`] more rounds run on greedy extensions of the hitting set (each
//!    new core's cheapest member added), while they find cores.
//! 2. The MILP `min Σ w_j y_j` subject to `Σ_{j ∈ K} y_j ≥ 1` for every core `K` gives
//!    the next hitting set and raises the lower bound to its cost.
//!
//! Seeded with groups of literals of which every model sets exactly one (see
//! [`solve_maxsat_seeded`](super::solve_maxsat_seeded)), the program starts with a row
//! `Σ y = 1` per group, and before each MILP call rounds add rows that cut off the
//! optimum of its LP relaxation (see `lp_rounds`): clauses from an [`ImpliedClauses`]
//! separator when one is given and finds any, else (in up to [`LP_ROUNDS`] rounds) cores
//! from the SAT solver among the soft clauses the optimum leaves at zero.
//!
//! The search ends when the lower bound reaches the incumbent, or when a cheapest
//! hitting set meets no new core (its model is then optimal). The bound is the cost of a
//! hitting set the back-end declared cheapest, so it holds as far as that declaration
//! does: the weights are integers below 2^53, exact in floating point, but a back-end's
//! relative tolerances (about 10^−9) may not tell apart two sums that differ by a few
//! units.

use super::oracle::Answer;
use super::{ImpliedClauses, Outcome, Search};
use crate::milp::{Limits, MilpBackend, SolverError, Status};
use bnsl_formulations::maxsat::Lit;
use bnsl_formulations::milp::{MilpModel, Sense, VarId};
use rustc_hash::FxHashMap;
use std::time::Instant;

/// Greedy rounds of core extraction between two hitting sets from the MILP.
const GREEDY_ROUNDS: usize = 10;

/// Rounds of LP-guided cores before each hitting set from the MILP.
const LP_ROUNDS: usize = 50;

/// Rounds of implied clauses before each hitting set from the MILP (they end sooner when
/// the separator finds none).
const IMPLIED_ROUNDS: usize = 1000;

/// The largest cost of the LP relaxation's scaled objective.
const LP_LARGEST_COST: f64 = 1e3;

/// An LP value above this puts a soft clause in the relaxation's support.
const LP_SUPPORT: f64 = 1e-6;

/// Cores of more members than this are only trimmed, not reduced to a minimal core: a
/// minimal one costs a SAT call per member.
const MINIMISE_UP_TO: usize = 300;

/// The soft clauses, merged by assumption literal.
struct Softs {
    /// True when the soft clause holds.
    lits: Vec<Lit>,
    weights: Vec<u64>,
    by_lit: FxHashMap<Lit, usize>,
}

impl Softs {
    fn new(search: &mut Search<'_>) -> Self {
        let mut next_var = search.wcnf.num_vars;
        let violated = search.relax_softs(&mut next_var);
        let mut softs = Softs {
            lits: Vec::new(),
            weights: Vec::new(),
            by_lit: FxHashMap::default(),
        };
        for ((weight, _), &v) in search.wcnf.soft.iter().zip(&violated) {
            let i = *softs.by_lit.entry(-v).or_insert_with(|| {
                softs.lits.push(-v);
                softs.weights.push(0);
                softs.lits.len() - 1
            });
            softs.weights[i] += weight;
        }
        softs
    }
}

/// The hitting-set program: a column per soft clause met in a core or a seeded group, a
/// zero-cost column per group literal in no soft clause, a row per group and a row per
/// core.
struct HittingSets {
    model: MilpModel,
    column: FxHashMap<usize, VarId>,
    /// The column of each group literal, the groups flattened in order.
    group_columns: Vec<VarId>,
}

impl HittingSets {
    /// The program with a row `Σ y = 1` per group of `exactly_one` (see
    /// [`solve_maxsat_seeded`](super::solve_maxsat_seeded)).
    fn seeded(exactly_one: &[Vec<Lit>], softs: &Softs) -> Self {
        let mut programs = HittingSets {
            model: MilpModel::new(Sense::Minimize),
            column: FxHashMap::default(),
            group_columns: Vec::new(),
        };
        for (g, group) in exactly_one.iter().enumerate() {
            let row: Vec<(VarId, f64)> = group
                .iter()
                .map(|&x| match softs.by_lit.get(&-x) {
                    Some(&j) => (programs.soft_column(j, softs), 1.0),
                    None => (programs.free_column(x), 1.0),
                })
                .collect();
            programs.group_columns.extend(row.iter().map(|&(id, _)| id));
            programs
                .model
                .add_eq(format!("group{g}"), row, 1.0)
                .expect("a row over existing columns");
        }
        programs
    }

    fn soft_column(&mut self, j: usize, softs: &Softs) -> VarId {
        *self.column.entry(j).or_insert_with(|| {
            self.model
                .add_binary(format!("y{j}"), softs.weights[j] as f64)
                .expect("a fresh column name")
        })
    }

    /// A zero-cost column for literal `x`, true in a model that sets it.
    fn free_column(&mut self, x: Lit) -> VarId {
        self.model
            .add_binary(
                format!("free{}{}", if x < 0 { "n" } else { "p" }, x.abs()),
                0.0,
            )
            .expect("a fresh column name")
    }

    fn add_core(&mut self, core: &[usize], softs: &Softs) {
        let row: Vec<(VarId, f64)> = core
            .iter()
            .map(|&j| (self.soft_column(j, softs), 1.0))
            .collect();
        let name = format!("core{}", self.model.num_rows());
        self.model
            .add_ge(name, row, 1.0)
            .expect("a row over existing columns");
    }

    /// An optimum of the LP relaxation, a value per column; `None` when a limit stopped
    /// the back-end first.
    fn lp_optimum(
        &self,
        backend: &dyn MilpBackend,
        limits: &Limits,
    ) -> Result<Option<Vec<f64>>, SolverError> {
        Ok(backend.solve(&self.scaled_relaxation(), limits)?.values)
    }

    /// A row "at least one of these group literals" (positions in the flattened groups).
    fn add_implied(&mut self, clause: &[usize]) {
        let row: Vec<(VarId, f64)> = clause
            .iter()
            .map(|&i| (self.group_columns[i], 1.0))
            .collect();
        let name = format!("implied{}", self.model.num_rows());
        self.model
            .add_ge(name, row, 1.0)
            .expect("a row over existing columns");
    }

    /// The soft clauses (by index) whose columns `values` set above `threshold`.
    fn softs_above(&self, values: &[f64], threshold: f64) -> Vec<usize> {
        self.column
            .iter()
            .filter(|(_, id)| values[id.index()] > threshold)
            .map(|(&j, _)| j)
            .collect()
    }

    /// The LP relaxation with its costs scaled to at most [`LP_LARGEST_COST`]: the same
    /// optimal points, and costs near 10^12 make HiGHS's dual simplex fail ("excessive
    /// dual values").
    fn scaled_relaxation(&self) -> MilpModel {
        let mut relaxation = self.model.relaxation();
        let largest = relaxation
            .variables()
            .iter()
            .map(|v| v.objective)
            .fold(0.0, f64::max);
        if largest > LP_LARGEST_COST {
            let scale = LP_LARGEST_COST / largest;
            for (i, v) in self.model.variables().iter().enumerate() {
                relaxation
                    .set_objective(VarId::from_index(i), v.objective * scale)
                    .expect("a column of the program");
            }
        }
        relaxation
    }

    /// A cheapest hitting set of the cores (by soft index) and whether the back-end
    /// proved it cheapest; `None` when a limit stopped the back-end before it found one.
    fn solve(
        &self,
        backend: &dyn MilpBackend,
        limits: &Limits,
    ) -> Result<Option<(Vec<usize>, bool)>, SolverError> {
        let outcome = backend.solve(&self.model, limits)?;
        let Some(values) = outcome.values else {
            return Ok(None);
        };
        let chosen = self.softs_above(&values, 0.5);
        Ok(Some((chosen, outcome.status == Status::Optimal)))
    }
}

/// Runs the implicit-hitting-set search on the formula of `search` (its hard clauses
/// already in the oracle), with hitting sets from `backend` in a program seeded with the
/// groups of `exactly_one`.
pub(super) fn run(
    search: &mut Search<'_>,
    exactly_one: &[Vec<Lit>],
    implied: Option<&dyn ImpliedClauses>,
    backend: &dyn MilpBackend,
) -> Outcome {
    let softs = Softs::new(search);
    let mut programs = HittingSets::seeded(exactly_one, &softs);
    if let Some(end) = search.first_model() {
        return end;
    }
    // The empty set is the cheapest hitting set of no cores.
    let mut hitting_set = vec![false; softs.lits.len()];
    loop {
        let found = match find_cores(search, &softs, &mut programs, hitting_set.clone()) {
            Ok(found) => found,
            Err(end) => return end,
        };
        if search.closed() {
            return Outcome::Closed;
        }
        if found == 0 {
            // A model satisfies every soft clause outside a cheapest hitting set, so it
            // costs no more than that set: optimal, to the back-end's tolerances (which
            // may not tell apart sums of weights that differ by a few units in 10^9).
            search.lower_bound = search.upper_bound().unwrap_or(search.lower_bound);
            return Outcome::Closed;
        }
        if !exactly_one.is_empty() {
            if let Err(end) = lp_rounds(search, &softs, &mut programs, implied, backend) {
                return end;
            }
        }
        let (chosen, proved) = match programs.solve(backend, &back_end_limits(search)) {
            Ok(Some(found)) => found,
            Ok(None) => return Outcome::Stopped,
            Err(e) => return back_end_failed(search, e),
        };
        hitting_set = members(&chosen, softs.lits.len());
        if !proved {
            return Outcome::Stopped;
        }
        let cost: u64 = chosen.iter().map(|&j| softs.weights[j]).sum();
        search.set_lower_bound(cost.min(search.upper_bound().unwrap_or(cost)));
        if search.closed() {
            return Outcome::Closed;
        }
    }
}

/// Records the back-end's error as the reason the search stopped.
fn back_end_failed(search: &mut Search<'_>, error: SolverError) -> Outcome {
    search.failure = Some(format!("the hitting-set back-end failed: {error}"));
    Outcome::Stopped
}

/// The set of soft clauses `indices` as a mask over `len` of them.
fn members(indices: &[usize], len: usize) -> Vec<bool> {
    let mut mask = vec![false; len];
    for &j in indices {
        mask[j] = true;
    }
    mask
}

/// The limits of a back-end call: the search's deadline and stop token.
fn back_end_limits(search: &Search<'_>) -> Limits {
    let limit = search.oracle.limit();
    Limits {
        time_limit: limit
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()).as_secs_f64()),
        stop: limit.stop.clone(),
        ..Limits::default()
    }
}

/// Rounds of rows that cut off the LP relaxation's optimum: each solves the relaxation,
/// asks `implied` (if given) for clauses the optimum violates, and when it has none finds
/// disjoint cores among the soft clauses the optimum gives (nearly) zero; until a round
/// finds nothing, [`IMPLIED_ROUNDS`] rounds have run, or [`LP_ROUNDS`] of them found
/// cores. Each row is violated by the LP optimum, so the relaxation, and with it the
/// next hitting set, moves; this is the family ILP's cluster-cut loop, with the SAT
/// solver as a separator of last resort.
fn lp_rounds(
    search: &mut Search<'_>,
    softs: &Softs,
    programs: &mut HittingSets,
    implied: Option<&dyn ImpliedClauses>,
    backend: &dyn MilpBackend,
) -> Result<(), Outcome> {
    let mut core_rounds = 0;
    for _ in 0..IMPLIED_ROUNDS {
        let limits = back_end_limits(search);
        let values = match programs.lp_optimum(backend, &limits) {
            Ok(Some(values)) => values,
            Ok(None) => return Err(Outcome::Stopped),
            Err(e) => return Err(back_end_failed(search, e)),
        };
        if let Some(separator) = implied {
            let at: Vec<f64> = programs
                .group_columns
                .iter()
                .map(|id| values[id.index()])
                .collect();
            let clauses = match separator.violated(&at, backend, &limits) {
                Ok(clauses) => clauses,
                Err(e) => return Err(back_end_failed(search, e)),
            };
            if search.oracle.limit().reached() {
                return Err(Outcome::Stopped);
            }
            if !clauses.is_empty() {
                search.implied_clauses += clauses.len();
                for clause in &clauses {
                    programs.add_implied(clause);
                }
                continue;
            }
        }
        if core_rounds == LP_ROUNDS {
            break;
        }
        core_rounds += 1;
        let support = programs.softs_above(&values, LP_SUPPORT);
        let cores = extract_cores(search, softs, &members(&support, softs.lits.len()))?;
        if cores.is_empty() || search.closed() {
            break;
        }
        for core in cores {
            programs.add_core(&core, softs);
        }
    }
    Ok(())
}

/// Finds cores under `hitting_set` and then under greedy extensions of it (each new
/// core's cheapest member added), for up to [`GREEDY_ROUNDS`] rounds or until one finds
/// none, and adds them to `programs` (step 1 of the module doc); returns how many, or
/// the outcome that ends the search (no model, or stopped).
fn find_cores(
    search: &mut Search<'_>,
    softs: &Softs,
    programs: &mut HittingSets,
    mut hitting_set: Vec<bool>,
) -> Result<usize, Outcome> {
    let mut found = 0;
    for _ in 0..GREEDY_ROUNDS {
        let cores = extract_cores(search, softs, &hitting_set)?;
        if cores.is_empty() || search.closed() {
            break;
        }
        for core in cores {
            programs.add_core(&core, softs);
            let cheapest = core.iter().copied().min_by_key(|&j| softs.weights[j]);
            hitting_set[cheapest.expect("a core has members")] = true;
            found += 1;
        }
    }
    Ok(found)
}

/// Finds disjoint cores (soft indices) among the soft clauses outside `hitting_set`
/// until the rest have a model (step 1 of the module doc), or the outcome that ends the
/// search (no model, or stopped).
fn extract_cores(
    search: &mut Search<'_>,
    softs: &Softs,
    hitting_set: &[bool],
) -> Result<Vec<Vec<usize>>, Outcome> {
    let mut assumed = hitting_set.iter().map(|&h| !h).collect::<Vec<bool>>();
    let mut cores = Vec::new();
    loop {
        let assumptions: Vec<Lit> = (0..softs.lits.len())
            .filter(|&j| assumed[j])
            .map(|j| softs.lits[j])
            .collect();
        match search.oracle.solve(&assumptions) {
            Answer::Sat(model) => {
                search.offer(model);
                return Ok(cores);
            }
            Answer::Unsat(core) if core.is_empty() => return Err(Outcome::Unsatisfiable),
            Answer::Unsat(core) => {
                let core: Vec<usize> = core.iter().map(|l| softs.by_lit[l]).collect();
                let core = minimise(search, softs, core).ok_or(Outcome::Stopped)?;
                if core.is_empty() {
                    return Err(Outcome::Unsatisfiable);
                }
                for &j in &core {
                    assumed[j] = false;
                }
                search.cores += 1;
                cores.push(core);
            }
            Answer::Stopped => return Err(Outcome::Stopped),
        }
    }
}

/// Shrinks `core` by dropping members, the cheapest first, while the rest is still a
/// core (to a minimal core when it has at most [`MINIMISE_UP_TO`] members, else by
/// solving under the core once more); `None` when stopped.
fn minimise(search: &mut Search<'_>, softs: &Softs, core: Vec<usize>) -> Option<Vec<usize>> {
    let mut core = if core.len() > MINIMISE_UP_TO {
        shrink_under(search, softs, &core)?.unwrap_or(core)
    } else {
        core
    };
    if core.len() > MINIMISE_UP_TO {
        return Some(core);
    }
    core.sort_by_key(|&j| softs.weights[j]);
    let mut i = 0;
    while i < core.len() && core.len() > 1 {
        let without: Vec<usize> = core
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != i)
            .map(|(_, &j)| j)
            .collect();
        match shrink_under(search, softs, &without)? {
            Some(smaller) => {
                core = without
                    .into_iter()
                    .filter(|j| smaller.contains(j))
                    .collect();
            }
            None => i += 1,
        }
    }
    Some(core)
}

/// Solves under the soft clauses `members`: `Some(Some(core))` when they cannot all
/// hold (a core among them), `Some(None)` when they can (the model is offered), `None`
/// when stopped.
fn shrink_under(
    search: &mut Search<'_>,
    softs: &Softs,
    members: &[usize],
) -> Option<Option<Vec<usize>>> {
    let assumptions: Vec<Lit> = members.iter().map(|&j| softs.lits[j]).collect();
    match search.oracle.solve(&assumptions) {
        Answer::Unsat(core) => Some(Some(core.iter().map(|l| softs.by_lit[l]).collect())),
        Answer::Sat(model) => {
            search.offer(model);
            Some(None)
        }
        Answer::Stopped => None,
    }
}
