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
//! optimum of its LP relaxation (see [`Rounds::run`]): clauses from an
//! [`ImpliedClauses`] separator when one is given and finds any, else (in up to
//! [`LP_ROUNDS`] rounds) cores from the SAT solver among the soft clauses the optimum
//! leaves at zero. In each round:
//! - the LP optimum's cost is a lower bound;
//! - the separator rounds the optimum to a choice per group, and a SAT call under it
//!   gives an incumbent; one that costs no more than the LP optimum is optimal;
//! - a back-end with duals (HiGHS) keeps the LP open between rounds, and the last
//!   round's row multipliers fix at zero, for the MILP call, the columns whose reduced
//!   cost exceeds the gap ([`fixable_columns`]).
//!
//! Each MILP call runs on the costs scaled as the LP's, and starts from the incumbent,
//! whose violated soft clauses hit every core and meet every row; on a back-end with
//! node cuts (CBC; SCIP, where they are lazy, so that its hitting set is acyclic) it also
//! separates the separator's rows at its nodes ([`ImpliedClauses::node_separator`]; for
//! cluster clauses, the heuristics, and the exact sub-IP within a share of the call's
//! time). A
//! call that a limit stops raises the lower bound to the back-end's bound.
//!
//! The search ends when the lower bound reaches the incumbent, or when a cheapest
//! hitting set meets no new core (its model is then optimal). The bound is the cost of a
//! hitting set the back-end declared cheapest, so it holds as far as that declaration
//! does: the weights are integers below 2^53, exact in floating point, but a back-end's
//! relative tolerances (about 10^−9) may not tell apart two sums that differ by a few
//! units.

use super::oracle::Answer;
use super::reduced_costs::fixable_columns;
use super::{ImpliedClauses, Outcome, Search};
use crate::ilp::cut_loop::RoundSession;
use crate::milp::{CutRow, CutSeparator, Limits, MilpBackend, SolverError, Status};
use bnsl_formulations::maxsat::{holds, Lit, Wcnf};
use bnsl_formulations::milp::{MilpModel, Sense, VarId};
use rustc_hash::FxHashMap;
use std::sync::Arc;
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

/// The lower bound taken from an LP optimum of cost `c` is `c (1 − LP_BOUND_MARGIN)`:
/// the LP is solved to the back-end's tolerances (about 10^−9 of the costs, scaled).
const LP_BOUND_MARGIN: f64 = 1e-8;

/// Cores of more members than this are only trimmed, not reduced to a minimal core: a
/// minimal one costs a SAT call per member.
const MINIMISE_UP_TO: usize = 300;

/// The soft clauses, merged by assumption literal.
struct Softs {
    /// True when the soft clause holds.
    lits: Vec<Lit>,
    weights: Vec<u64>,
    /// One soft clause of the formula (its index) for each: all of them hold together.
    clauses: Vec<usize>,
    by_lit: FxHashMap<Lit, usize>,
}

impl Softs {
    fn new(search: &mut Search<'_>) -> Self {
        let mut next_var = search.wcnf.num_vars;
        let violated = search.relax_softs(&mut next_var);
        let mut softs = Softs {
            lits: Vec::new(),
            weights: Vec::new(),
            clauses: Vec::new(),
            by_lit: FxHashMap::default(),
        };
        for (c, ((weight, _), &v)) in search.wcnf.soft.iter().zip(&violated).enumerate() {
            let i = *softs.by_lit.entry(-v).or_insert_with(|| {
                softs.lits.push(-v);
                softs.weights.push(0);
                softs.clauses.push(c);
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
    /// The group literals, the groups flattened in order.
    group_lits: Vec<Lit>,
    /// The zero-cost columns and their literals.
    free: Vec<(VarId, Lit)>,
    /// The LP relaxation kept open in a back-end with duals, once opened.
    open_lp: Option<OpenLp>,
}

/// The LP relaxation of the hitting-set program kept open between rounds in a back-end
/// with duals ([`RoundSession`]: HiGHS), with the costs scaled by `scale`.
struct OpenLp {
    session: RoundSession,
    /// The program's columns when it was opened (rows are appended, columns are not).
    columns: usize,
    scale: f64,
}

/// An optimum of the LP relaxation: a value per column and, from a back-end with duals,
/// a multiplier per row for the program's own costs.
struct LpPoint {
    values: Vec<f64>,
    duals: Option<Vec<f64>>,
}

impl HittingSets {
    /// The program with a row `Σ y = 1` per group of `exactly_one` (see
    /// [`solve_maxsat_seeded`](super::solve_maxsat_seeded)).
    fn seeded(exactly_one: &[Vec<Lit>], softs: &Softs) -> Self {
        let mut programs = HittingSets {
            model: MilpModel::new(Sense::Minimize),
            column: FxHashMap::default(),
            group_columns: Vec::new(),
            group_lits: exactly_one.iter().flatten().copied().collect(),
            free: Vec::new(),
            open_lp: None,
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
        let id = self
            .model
            .add_binary(
                format!("free{}{}", if x < 0 { "n" } else { "p" }, x.abs()),
                0.0,
            )
            .expect("a fresh column name");
        self.free.push((id, x));
        id
    }

    /// The point of a model of `wcnf` (a value per variable of the formula): a soft
    /// clause's column is 1 when the model violates it, a free column when the model
    /// sets its literal. It meets every row, for every row holds of every model.
    fn point_of(&self, model: &[bool], wcnf: &Wcnf, softs: &Softs) -> Vec<f64> {
        let mut point = vec![0.0; self.model.num_vars()];
        for (&j, id) in &self.column {
            let violated = !holds(&wcnf.soft[softs.clauses[j]].1, model);
            point[id.index()] = f64::from(u8::from(violated));
        }
        for &(id, x) in &self.free {
            point[id.index()] = f64::from(u8::from(holds(&[x], model)));
        }
        point
    }

    /// The cost of a point, in the weights' units.
    fn cost_of(&self, values: &[f64], softs: &Softs) -> f64 {
        self.column
            .iter()
            .map(|(&j, id)| softs.weights[j] as f64 * values[id.index()])
            .sum()
    }

    /// The values of the group columns, the groups flattened in order.
    fn group_values(&self, values: &[f64]) -> Vec<f64> {
        self.group_columns
            .iter()
            .map(|id| values[id.index()])
            .collect()
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

    /// An optimum of the LP relaxation; `None` when a limit stopped the back-end first.
    /// A back-end with duals keeps the LP open from one call to the next (each solve
    /// starts from the last basis, the rows added since appended) and gives the row
    /// multipliers; the others solve it afresh.
    fn lp_optimum(
        &mut self,
        backend: &dyn MilpBackend,
        limits: &Limits,
    ) -> Result<Option<LpPoint>, SolverError> {
        let columns = self.model.num_vars();
        if self.open_lp.as_ref().is_none_or(|lp| lp.columns != columns) {
            let session = RoundSession::open(backend, &self.scaled_relaxation(), limits)?;
            let scale = self.lp_scale();
            self.open_lp = session.map(|session| OpenLp {
                session,
                columns,
                scale,
            });
        }
        if let Some(lp) = &mut self.open_lp {
            if let Some(solution) = lp.session.solve(&self.model, limits.time_limit)? {
                let duals = solution.row_duals.iter().map(|d| d / lp.scale).collect();
                return Ok(Some(LpPoint {
                    values: solution.values,
                    duals: Some(duals),
                }));
            }
        }
        let values = backend.solve(&self.scaled_relaxation(), limits)?.values;
        Ok(values.map(|values| LpPoint {
            values,
            duals: None,
        }))
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

    /// The LP relaxation with its costs scaled by [`HittingSets::lp_scale`].
    fn scaled_relaxation(&self) -> MilpModel {
        self.with_scaled_costs(self.model.relaxation(), self.lp_scale())
    }

    /// `program` (a copy of the program or of its relaxation) with the program's costs
    /// scaled by `scale`: the same optimal points, and costs near 10^12 make HiGHS's
    /// dual simplex fail ("excessive dual values") and SCIP's LP stop on "numerical
    /// troubles".
    fn with_scaled_costs(&self, mut program: MilpModel, scale: f64) -> MilpModel {
        for (i, v) in self.model.variables().iter().enumerate() {
            program
                .set_objective(VarId::from_index(i), v.objective * scale)
                .expect("a column of the program");
        }
        program
    }

    /// The factor that brings the largest cost to at most [`LP_LARGEST_COST`].
    fn lp_scale(&self) -> f64 {
        self.lp_scale_without(&[])
    }

    /// The factor that brings the largest cost of a column outside `fixed` to at most
    /// [`LP_LARGEST_COST`]. A column fixed at zero adds nothing to any point's cost, and
    /// its weight left in the scaling would shrink the others' below the back-end's
    /// tolerances (weights of 1 beside one of 2^40 become 10^−9).
    fn lp_scale_without(&self, fixed: &[VarId]) -> f64 {
        let mut costs: Vec<f64> = self.model.variables().iter().map(|v| v.objective).collect();
        for column in fixed {
            costs[column.index()] = 0.0;
        }
        let largest = costs.into_iter().fold(0.0, f64::max);
        if largest > LP_LARGEST_COST {
            LP_LARGEST_COST / largest
        } else {
            1.0
        }
    }

    /// A cheapest hitting set of the cores, from `start` (if any) and with the columns
    /// `fixed` at zero (none of them in a hitting set cheaper than the incumbent).
    fn solve(
        &self,
        backend: &dyn MilpBackend,
        limits: &Limits,
        start: Option<&[f64]>,
        fixed: &[VarId],
        implied: Option<&dyn ImpliedClauses>,
    ) -> Result<HittingSet, SolverError> {
        let scale = self.lp_scale_without(fixed);
        let mut model = self.with_scaled_costs(self.model.clone(), scale);
        for &column in fixed {
            model
                .set_bounds(column, 0.0, 0.0)
                .expect("a column of the program");
        }
        let node_cuts = backend.node_cuts();
        let separator = implied.and_then(|i| i.node_separator(backend));
        let outcome = match (node_cuts, separator, start, backend.warm_start()) {
            (Some(node_cuts), Some(separator), ..) => {
                let on_groups = GroupCuts {
                    separator,
                    group_columns: self.group_columns.iter().map(|id| id.index()).collect(),
                };
                node_cuts.solve_with_cuts(&model, limits, start, Arc::new(on_groups))?
            }
            (_, _, Some(start), Some(warm)) => warm.solve_from(&model, limits, start)?,
            _ => backend.solve(&model, limits)?,
        };
        if outcome.status == Status::Infeasible && !fixed.is_empty() {
            return Ok(HittingSet::NoneCheaper);
        }
        // The back-end's bound on the scaled costs, back in weight units.
        let bound = outcome.bound.map(|b| bound_of_cost(b / scale));
        match outcome.values {
            Some(values) if outcome.status == Status::Optimal => {
                Ok(HittingSet::Found(self.softs_above(&values, 0.5)))
            }
            _ => Ok(HittingSet::Stopped(bound)),
        }
    }
}

/// What a MILP call on the hitting-set program gives.
enum HittingSet {
    /// A hitting set (soft indices) that the back-end proved cheapest.
    Found(Vec<usize>),
    /// No hitting set is cheaper than the incumbent: the columns left after reduced-cost
    /// fixing have none.
    NoneCheaper,
    /// A limit stopped the back-end before it proved a hitting set cheapest; its lower
    /// bound on the cost of every hitting set, if it has one.
    Stopped(Option<u64>),
}

/// A separator over the group literals ([`ImpliedClauses::node_separator`]) on the
/// columns of the hitting-set program, for a back-end's branch and bound.
struct GroupCuts {
    separator: Arc<dyn CutSeparator>,
    /// The program's column of each group literal, the groups flattened in order.
    group_columns: Vec<usize>,
}

impl CutSeparator for GroupCuts {
    fn separate(&self, values: &[f64]) -> Vec<CutRow> {
        let at: Vec<f64> = self.group_columns.iter().map(|&c| values[c]).collect();
        let mut rows = self.separator.separate(&at);
        for row in &mut rows {
            for (column, _) in &mut row.terms {
                *column = self.group_columns[*column];
            }
        }
        rows
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
    // The row multipliers of the last LP optimum, from a back-end with duals.
    let mut duals = None;
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
            let rounds = Rounds {
                softs: &softs,
                implied,
                backend,
            };
            duals = match rounds.run(search, &mut programs) {
                Ok(duals) => duals,
                Err(end) => return end,
            };
        }
        let start = search
            .best
            .as_ref()
            .map(|(_, m)| programs.point_of(m, search.wcnf, &softs));
        // Without multipliers, zero ones still fix the columns that cost the incumbent's
        // cost by themselves; fixing them also keeps their weights out of the scaling.
        let fixed = match search.upper_bound() {
            Some(incumbent) => {
                let zeros = vec![0.0; programs.model.num_rows()];
                let multipliers = duals.as_deref().unwrap_or(&zeros);
                fixable_columns(&programs.model, multipliers, incumbent as f64)
            }
            None => Vec::new(),
        };
        let limits = back_end_limits(search);
        let solved = programs.solve(backend, &limits, start.as_deref(), &fixed, implied);
        let chosen = match solved {
            Ok(HittingSet::Found(chosen)) => chosen,
            Ok(HittingSet::NoneCheaper) => {
                search.lower_bound = search.upper_bound().unwrap_or(search.lower_bound);
                return Outcome::Closed;
            }
            Ok(HittingSet::Stopped(bound)) => {
                if let Some(bound) = bound {
                    raise_lower_bound(search, bound);
                }
                return Outcome::Stopped;
            }
            Err(e) => return back_end_failed(search, e),
        };
        hitting_set = members(&chosen, softs.lits.len());
        let cost: u64 = chosen.iter().map(|&j| softs.weights[j]).sum();
        raise_lower_bound(search, cost);
        if search.closed() {
            return Outcome::Closed;
        }
    }
}

/// Offers the model of a SAT call under the group literals `separator` rounds `values`
/// to (the call fails when no model sets them all, and then nothing is offered).
fn offer_rounding(
    search: &mut Search<'_>,
    programs: &HittingSets,
    separator: &dyn ImpliedClauses,
    values: &[f64],
) {
    let Some(chosen) = separator.rounded(values) else {
        return;
    };
    let assumptions: Vec<Lit> = chosen.iter().map(|&i| programs.group_lits[i]).collect();
    if let Answer::Sat(model) = search.oracle.solve(&assumptions) {
        search.offer(model);
    }
}

/// Closes the search when the incumbent costs no more than an LP optimum of cost
/// `lp_cost` (to half a unit, for the incumbent of an integral optimum costs it exactly):
/// the LP relaxes the problem, so the incumbent is optimal to the LP's tolerances.
fn closed_by_lp(search: &mut Search<'_>, lp_cost: f64) -> bool {
    match search.upper_bound() {
        Some(incumbent) if incumbent as f64 <= lp_cost + 0.5 => {
            search.lower_bound = incumbent;
            true
        }
        _ => false,
    }
}

/// The lower bound in weight units that a solver's bound `cost` (of an LP optimum, or a
/// MILP's dual bound) gives: less [`LP_BOUND_MARGIN`] of it, for the solver's
/// tolerances, rounded down.
fn bound_of_cost(cost: f64) -> u64 {
    (cost * (1.0 - LP_BOUND_MARGIN)).floor().max(0.0) as u64
}

/// Raises the search's lower bound to `bound`, a bound on every hitting set cheaper
/// than the incumbent, hence never above the incumbent's cost.
fn raise_lower_bound(search: &mut Search<'_>, bound: u64) {
    search.set_lower_bound(bound.min(search.upper_bound().unwrap_or(bound)));
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

/// What the LP rounds before each MILP call work with (see [`Rounds::run`]).
struct Rounds<'r> {
    softs: &'r Softs,
    implied: Option<&'r dyn ImpliedClauses>,
    backend: &'r dyn MilpBackend,
}

impl Rounds<'_> {
    /// Rounds of rows that cut off the LP relaxation's optimum: each solves the
    /// relaxation, asks `implied` (if given) for clauses the optimum violates, and when
    /// it has none finds disjoint cores among the soft clauses the optimum gives (nearly)
    /// zero; until a round finds nothing, [`IMPLIED_ROUNDS`] rounds have run, or
    /// [`LP_ROUNDS`] of them found cores. Each row is violated by the LP optimum, so the
    /// relaxation, and with it the next hitting set, moves; this is the family ILP's
    /// cluster-cut loop, with the SAT solver as a separator of last resort. Each LP
    /// optimum's cost raises the lower bound (less [`LP_BOUND_MARGIN`]), and its rounding
    /// (by `implied`) is offered as an incumbent; an incumbent that costs no more than
    /// the LP optimum ends the search.
    fn run(
        &self,
        search: &mut Search<'_>,
        programs: &mut HittingSets,
    ) -> Result<Option<Vec<f64>>, Outcome> {
        let mut core_rounds = 0;
        let mut duals = None;
        for _ in 0..IMPLIED_ROUNDS {
            let limits = back_end_limits(search);
            let (values, last_duals) = match programs.lp_optimum(self.backend, &limits) {
                Ok(Some(point)) => (point.values, point.duals),
                Ok(None) => return Err(Outcome::Stopped),
                Err(e) => return Err(back_end_failed(search, e)),
            };
            duals = last_duals;
            let at = programs.group_values(&values);
            if let Some(separator) = self.implied {
                offer_rounding(search, programs, separator, &at);
            }
            let cost = programs.cost_of(&values, self.softs);
            if closed_by_lp(search, cost) {
                return Err(Outcome::Closed);
            }
            raise_lower_bound(search, bound_of_cost(cost));
            if search.closed() {
                return Err(Outcome::Closed);
            }
            if let Some(separator) = self.implied {
                let clauses = match separator.violated(&at, self.backend, &limits) {
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
            let cores = extract_cores(
                search,
                self.softs,
                &members(&support, self.softs.lits.len()),
            )?;
            if cores.is_empty() || search.closed() {
                break;
            }
            for core in cores {
                programs.add_core(&core, self.softs);
            }
        }
        Ok(duals)
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maxsat::oracle::{Limit, Oracle};
    use crate::maxsat::{default_hitting_set_backend, ClusterClauses};
    use crate::test_tables::larger_table;
    use crate::StopToken;
    use bnsl_formulations::maxsat::bnsl::encode_bnsl;

    /// The search, its soft clauses and the seeded program of `table` with the cores of
    /// one extraction round and the cluster clauses its LP optimum violates.
    fn program_with_cores<'w>(
        encoding: &'w bnsl_formulations::maxsat::bnsl::BnslEncoding,
        table: &bnsl_formulations::ScoreTable,
    ) -> (Search<'w>, Softs, HittingSets) {
        let limit = Limit {
            deadline: None,
            stop: StopToken::new(),
        };
        let oracle = Oracle::new(encoding.wcnf.num_vars, limit);
        let mut search = Search::new(&encoding.wcnf, oracle, &|_| {});
        for clause in &encoding.wcnf.hard {
            search.oracle.add_clause(clause);
        }
        let softs = Softs::new(&mut search);
        let mut programs = HittingSets::seeded(&encoding.family_vars, &softs);
        let none = vec![false; softs.lits.len()];
        for core in extract_cores(&mut search, &softs, &none).expect("a model") {
            programs.add_core(&core, &softs);
        }
        let backend = default_hitting_set_backend().expect("a back-end");
        let limits = Limits::default();
        let values = programs
            .lp_optimum(backend.as_ref(), &limits)
            .expect("the LP solves")
            .expect("no limit")
            .values;
        let at = programs.group_values(&values);
        let clusters = ClusterClauses::new(table);
        for clause in clusters.violated(&at, backend.as_ref(), &limits).unwrap() {
            programs.add_implied(&clause);
        }
        (search, softs, programs)
    }

    /// The point of the incumbent meets every row of the seeded program with its cores
    /// and cluster clauses (so it is a valid start), and costs what the model costs.
    #[test]
    fn the_incumbents_point_meets_every_row_at_its_cost() {
        for seed in 0..10 {
            let table = larger_table(seed);
            let encoding = encode_bnsl(&table);
            let (search, softs, programs) = program_with_cores(&encoding, &table);
            let (cost, model) = search.best.clone().expect("an incumbent");
            let point = programs.point_of(&model, &encoding.wcnf, &softs);
            assert!(programs.model.max_violation(&point) < 1e-9, "seed {seed}");
            assert_eq!(programs.cost_of(&point, &softs), cost as f64, "seed {seed}");
        }
    }

    /// A MILP call that a limit stops (here: at its first solution) gives the back-end's
    /// bound, in weight units, and it is at most the cheapest hitting set's cost.
    #[test]
    fn a_stopped_call_bounds_the_cheapest_hitting_set() {
        let limits = Limits {
            improving_solutions: Some(1),
            ..Limits::default()
        };
        let mut stopped_with_bound = 0;
        for backend in crate::milp::backends() {
            if !backend.stops_at_improving_solutions() {
                continue;
            }
            for seed in 0..6 {
                let table = larger_table(seed);
                let encoding = encode_bnsl(&table);
                let (_, softs, programs) = program_with_cores(&encoding, &table);
                let solve =
                    |limits: &Limits| programs.solve(backend.as_ref(), limits, None, &[], None);
                let Ok(HittingSet::Found(cheapest)) = solve(&Limits::default()) else {
                    panic!("{} proves a cheapest hitting set", backend.name());
                };
                let cheapest: u64 = cheapest.iter().map(|&j| softs.weights[j]).sum();
                match solve(&limits).unwrap() {
                    HittingSet::Stopped(Some(bound)) => {
                        assert!(bound <= cheapest, "{} seed {seed}", backend.name());
                        stopped_with_bound += 1;
                    }
                    HittingSet::Found(chosen) => {
                        // Optimal to the back-end's tolerances, as for any call.
                        let cost: u64 = chosen.iter().map(|&j| softs.weights[j]).sum();
                        let off = cost.abs_diff(cheapest) as f64;
                        assert!(
                            off <= 1e-6 * cheapest as f64,
                            "{} seed {seed}",
                            backend.name()
                        );
                    }
                    _ => {}
                }
            }
        }
        assert!(stopped_with_bound > 0, "no call was stopped with a bound");
    }
}
