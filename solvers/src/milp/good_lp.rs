//! The good_lp bridge: any solver that good_lp drives becomes a bnsl back-end, so the
//! static programs (the bounded-treewidth MILP, the ordering formulation) and the cut
//! loop of the family ILP run on it.
//!
//! A library user names the solver by implementing [`GoodLpSolver`] for a type of their
//! own (the model type good_lp gives, and optionally how to read its bound) and hands
//! [`GoodLpBackend::new`] of it to any function that takes a [`MilpBackend`].
//! [`GoodLpProgram`] alone translates a [`MilpModel`] for a user who drives good_lp
//! directly.
//!
//! ```
//! # #[cfg(feature = "microlp")] {
//! use bnsl_formulations::{Candidate, FamilyIlp, ScoreTable, VarSet};
//! use bnsl_solvers::ilp::bounded_treewidth::{solve_bounded_treewidth, TreewidthMilp};
//! use bnsl_solvers::ilp::IlpOptions;
//! use bnsl_solvers::milp::good_lp::{GoodLpBackend, GoodLpSolver};
//! use bnsl_solvers::milp::Status;
//!
//! /// The solver of the user's choice (here good_lp's microlp).
//! #[derive(Clone)]
//! struct Chosen;
//!
//! impl GoodLpSolver for Chosen {
//!     type Model = good_lp::solvers::microlp::MicroLpProblem;
//!     fn name(&self) -> &'static str {
//!         "chosen"
//!     }
//!     fn version(&self) -> String {
//!         "chosen 1.0".to_string()
//!     }
//!     fn model(&self, problem: good_lp::variable::UnsolvedProblem) -> Self::Model {
//!         good_lp::microlp(problem)
//!     }
//! }
//!
//! // Three nodes; node 2 scores best with both others as parents, which makes the
//! // moral graph a triangle (treewidth 2).
//! let set = |m: &[usize]| VarSet::from_members(3, m.iter().copied());
//! let c = |parents: &[usize], score| Candidate { parents: set(parents), score };
//! let table = ScoreTable::new(
//!     vec!["a".into(), "b".into(), "c".into()],
//!     vec![
//!         vec![c(&[], -10.0)],
//!         vec![c(&[], -10.0)],
//!         vec![c(&[0, 1], -2.0), c(&[0], -6.0), c(&[], -10.0)],
//!     ],
//! )
//! .unwrap();
//! let backend = GoodLpBackend::new(Chosen);
//! let ilp = FamilyIlp::new(&table);
//! let options = IlpOptions::default();
//! let tree = solve_bounded_treewidth(&backend, &ilp, TreewidthMilp::new(1), &options, &|_| {})
//!     .unwrap();
//! assert_eq!(tree.ilp.status, Status::Optimal);
//! assert_eq!(tree.ilp.score, Some(-26.0));
//! # }
//! ```
//!
//! What good_lp's interface does not carry, the bridge cannot give:
//! - a proven bound is read only through [`GoodLpSolver::report`]; without one, an
//!   optimal solution's objective is its bound and a solve stopped by a limit has none;
//! - the solve cannot be stopped from outside while it runs: the stop token is looked at
//!   before it starts, and the time limit ends it;
//! - threads, seed and the solver log are left to the solver; improving-solution limits
//!   are refused;
//! - a solver whose integer columns have a limited range ([`GoodLpSolver::integer_range`])
//!   is not given a model with an integer column beyond it (nothing is proven about it).

use super::{
    check_start, refuse_params, trivial_outcome, Limits, MilpBackend, MilpOutcome, SolverError,
    Status, WarmStart,
};
use ::good_lp::solvers::{SolutionStatus, WithInitialSolution, WithMipGap, WithTimeLimit};
use ::good_lp::variable::UnsolvedProblem;
use ::good_lp::{
    Constraint, Expression, ProblemVariables, ResolutionError, Solution, SolverModel, Variable,
    VariableDefinition,
};
use bnsl_formulations::milp::{MilpModel, Sense};
use std::time::Instant;

/// What a solve established beyond the values, where the solver exposes it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SolveReport {
    /// The proven bound in the model's sense (an upper bound when maximising).
    pub bound: Option<f64>,
    /// Branch-and-bound nodes.
    pub nodes: Option<u64>,
    /// Simplex iterations.
    pub lp_iterations: Option<u64>,
}

/// A good_lp solver that bnsl can drive: its model type must take a time limit, a MIP
/// start and a gap.
pub trait GoodLpSolver: Send + Sync + 'static {
    /// The solver's model (good_lp's `SolverModel`).
    type Model: SolverModel<Error = ResolutionError>
        + WithTimeLimit
        + WithInitialSolution
        + WithMipGap;

    /// Short lowercase name, as used on the command line.
    fn name(&self) -> &'static str;

    /// The solver and its version, as [`MilpBackend::version`] gives them.
    fn version(&self) -> String;

    /// The solver's model of `problem` (what good_lp's `UnsolvedProblem::using` gives).
    fn model(&self, problem: UnsolvedProblem) -> Self::Model;

    /// The largest magnitude an integer column's bounds may have (the default: none).
    /// A model with an integer column beyond it is not handed to the solver: nothing is
    /// proven about it.
    fn integer_range(&self) -> f64 {
        f64::INFINITY
    }

    /// The bound and work counts of a finished solve. The default reads nothing.
    fn report(&self, _solution: <Self::Model as SolverModel>::Solution) -> SolveReport {
        SolveReport::default()
    }
}

/// A [`MilpModel`] in good_lp's terms.
pub struct GoodLpProgram {
    /// The columns, with bounds and integrality.
    pub variables: ProblemVariables,
    /// The good_lp variable of each column of the model, in order.
    pub columns: Vec<Variable>,
    /// The objective.
    pub objective: Expression,
    /// The rows: one constraint per side of a ranged row, one per equality or one-sided
    /// row.
    pub constraints: Vec<Constraint>,
    /// The sense of optimisation.
    pub sense: Sense,
}

impl GoodLpProgram {
    /// The translation of `model`.
    pub fn new(model: &MilpModel) -> GoodLpProgram {
        let mut variables = ProblemVariables::new();
        let mut objective = Expression::with_capacity(model.num_vars());
        let columns: Vec<Variable> = model
            .variables()
            .iter()
            .map(|v| {
                let mut def = VariableDefinition::new().name(v.name.clone());
                if v.lower > f64::NEG_INFINITY {
                    def = def.min(v.lower);
                }
                if v.upper < f64::INFINITY {
                    def = def.max(v.upper);
                }
                if v.integer {
                    def = def.integer();
                }
                let column = variables.add(def);
                if v.objective != 0.0 {
                    objective.add_mul(v.objective, column);
                }
                column
            })
            .collect();
        let mut constraints = Vec::with_capacity(model.rows().len());
        for row in model.rows() {
            let mut lhs = Expression::with_capacity(row.coefficients.len());
            for &(var, coefficient) in &row.coefficients {
                lhs.add_mul(coefficient, columns[var.index()]);
            }
            if row.lower == row.upper {
                constraints.push(lhs.eq(row.lower));
                continue;
            }
            if row.lower > f64::NEG_INFINITY {
                constraints.push(lhs.clone().geq(row.lower));
            }
            if row.upper < f64::INFINITY {
                constraints.push(lhs.leq(row.upper));
            }
        }
        GoodLpProgram {
            variables,
            columns,
            objective,
            constraints,
            sense: model.sense(),
        }
    }

    /// The program as `solver`'s model, rows added.
    pub fn into_model<S: GoodLpSolver>(self, solver: &S) -> S::Model {
        let problem = match self.sense {
            Sense::Maximize => self.variables.maximise(self.objective),
            Sense::Minimize => self.variables.minimise(self.objective),
        };
        solver.model(problem).with_all(self.constraints)
    }
}

/// A [`MilpBackend`] on a good_lp solver (see the module doc for what it cannot do).
#[derive(Clone, Debug, Default)]
pub struct GoodLpBackend<S> {
    solver: S,
}

impl<S: GoodLpSolver> GoodLpBackend<S> {
    /// The back-end of `solver`.
    pub fn new(solver: S) -> GoodLpBackend<S> {
        GoodLpBackend { solver }
    }

    fn run(
        &self,
        model: &MilpModel,
        limits: &Limits,
        start: Option<&[f64]>,
    ) -> Result<MilpOutcome, SolverError> {
        let name = self.solver.name();
        limits.validate()?;
        if let Some(start) = start {
            check_start(name, model, start)?;
        }
        if limits.improving_solutions.is_some() {
            return Err(SolverError::Backend {
                backend: name,
                message: "cannot stop at a number of improving solutions".into(),
            });
        }
        if let Some(outcome) = trivial_outcome(model) {
            return Ok(outcome);
        }
        let range = self.solver.integer_range();
        let representable = model
            .variables()
            .iter()
            .all(|v| !v.integer || (v.lower.abs() <= range && v.upper.abs() <= range));
        if limits.stop.is_stopped() || !representable {
            return Ok(MilpOutcome::nothing_known());
        }
        let began = Instant::now();
        let program = GoodLpProgram::new(model);
        let columns = program.columns.clone();
        let mut solver_model = program.into_model(&self.solver);
        if let Some(seconds) = limits.time_limit {
            solver_model = solver_model.with_time_limit(seconds);
        }
        if let Some(gap) = limits.gap {
            solver_model = solver_model
                .with_mip_gap(gap as f32)
                .map_err(|e| SolverError::InvalidLimit(format!("gap {gap}: {e}")))?;
        }
        if let Some(start) = start {
            solver_model = solver_model
                .with_initial_solution(columns.iter().copied().zip(start.iter().copied()));
        }
        let solved = solver_model.solve();
        let time_s = began.elapsed().as_secs_f64();
        let out_of_time = limits.time_limit.is_some_and(|t| time_s >= t);
        let outcome = |status| MilpOutcome {
            status,
            time_s,
            ..MilpOutcome::nothing_known()
        };
        match solved {
            Ok(solution) => {
                let values: Vec<f64> = columns.iter().map(|&c| solution.value(c)).collect();
                let status = solution.status();
                let report = self.solver.report(solution);
                let objective = model.objective_value(&values);
                let (status, bound) = match (status, report.bound) {
                    (SolutionStatus::Optimal, bound) => {
                        (Status::Optimal, bound.or(Some(objective)))
                    }
                    (SolutionStatus::GapLimit, Some(bound)) => (Status::Optimal, Some(bound)),
                    (_, bound) => (Status::Feasible, bound),
                };
                Ok(MilpOutcome {
                    status,
                    objective: Some(objective),
                    bound,
                    values: Some(values),
                    nodes: report.nodes,
                    lp_iterations: report.lp_iterations,
                    time_s,
                })
            }
            Err(ResolutionError::Infeasible) => Ok(outcome(Status::Infeasible)),
            Err(ResolutionError::Unbounded) => Ok(outcome(Status::Unbounded)),
            // A solver stopped by its time limit before it had a solution reports an
            // error: nothing was proven.
            Err(_) if out_of_time => Ok(outcome(Status::Unknown)),
            Err(e) => Err(SolverError::Backend {
                backend: name,
                message: e.to_string(),
            }),
        }
    }
}

impl<S: GoodLpSolver + Clone> MilpBackend for GoodLpBackend<S> {
    fn name(&self) -> &'static str {
        self.solver.name()
    }

    fn version(&self) -> String {
        format!("{} (through good_lp)", self.solver.version())
    }

    fn solve(&self, model: &MilpModel, limits: &Limits) -> Result<MilpOutcome, SolverError> {
        self.run(model, limits, None)
    }

    fn with_params(
        &self,
        params: &[(String, String)],
    ) -> Result<Box<dyn MilpBackend>, SolverError> {
        refuse_params(self.solver.name(), params)?;
        Ok(Box::new(self.clone()))
    }

    fn for_sub_ips(&self) -> Box<dyn MilpBackend> {
        Box::new(self.clone())
    }

    fn sub_ip_rank(&self) -> u8 {
        0
    }

    fn warm_start(&self) -> Option<&dyn WarmStart> {
        Some(self)
    }

    fn stops_at_improving_solutions(&self) -> bool {
        false
    }
}

impl<S: GoodLpSolver> WarmStart for GoodLpBackend<S> {
    fn solve_from(
        &self,
        model: &MilpModel,
        limits: &Limits,
        start: &[f64],
    ) -> Result<MilpOutcome, SolverError> {
        self.run(model, limits, Some(start))
    }
}
