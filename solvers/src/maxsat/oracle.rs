//! An incremental SAT oracle, in DIMACS literals, that a time limit or a [`StopToken`]
//! can interrupt: batsat (a Rust port of MiniSat), whose solve polls a stop callback.

use crate::StopToken;
use batsat::{lbool, Callbacks, SolverInterface, SolverOpts};
use bnsl_formulations::maxsat::Lit;
use std::time::Instant;

/// When a solve must end.
#[derive(Clone, Debug)]
pub(crate) struct Limit {
    pub(crate) deadline: Option<Instant>,
    pub(crate) stop: StopToken,
}

impl Limit {
    pub(crate) fn reached(&self) -> bool {
        self.stop.is_stopped() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The solver's callbacks: only the stop poll.
struct StopCallbacks(Limit);

impl Callbacks for StopCallbacks {
    fn stop(&self) -> bool {
        self.0.reached()
    }
}

/// What a call to the oracle found.
#[derive(Debug)]
pub(crate) enum Answer {
    /// A model: `value[v]` for variable `v` (index 0 unused).
    Sat(Vec<bool>),
    /// No model under the assumptions; the assumptions that together have none.
    Unsat(Vec<Lit>),
    /// The limit was reached first.
    Stopped,
}

/// The incremental SAT solver.
pub(crate) struct Oracle {
    solver: batsat::Solver<StopCallbacks>,
    num_vars: u32,
    /// Calls to [`Oracle::solve`] so far.
    pub(crate) calls: usize,
}

impl Oracle {
    /// An empty solver over variables `1..=num_vars`, stopped by `limit`.
    pub(crate) fn new(num_vars: u32, limit: Limit) -> Self {
        Oracle {
            solver: batsat::Solver::new(SolverOpts::default(), StopCallbacks(limit)),
            num_vars,
            calls: 0,
        }
    }

    /// A fresh variable.
    pub(crate) fn new_var(&mut self) -> Lit {
        self.num_vars += 1;
        self.num_vars as Lit
    }

    pub(crate) fn add_clause(&mut self, clause: &[Lit]) {
        let mut lits: Vec<batsat::Lit> = clause.iter().map(|&l| self.lit(l)).collect();
        self.solver.add_clause_reuse(&mut lits);
    }

    fn lit(&mut self, l: Lit) -> batsat::Lit {
        let v = l.unsigned_abs();
        self.num_vars = self.num_vars.max(v);
        batsat::Lit::new(self.solver.var_of_int(v), l > 0)
    }

    /// When a solve must end.
    pub(crate) fn limit(&self) -> &Limit {
        &self.solver.cb().0
    }

    /// Solves under `assumptions`.
    pub(crate) fn solve(&mut self, assumptions: &[Lit]) -> Answer {
        if self.limit().reached() {
            return Answer::Stopped;
        }
        self.calls += 1;
        let lits: Vec<batsat::Lit> = assumptions.iter().map(|&l| self.lit(l)).collect();
        let result = self.solver.solve_limited(&lits);
        if result == lbool::TRUE {
            Answer::Sat(self.model())
        } else if result == lbool::FALSE {
            // The solver's conflict holds the negations of the failed assumptions.
            let core = self
                .solver
                .unsat_core()
                .iter()
                .map(|&l| -dimacs(l))
                .collect();
            Answer::Unsat(core)
        } else {
            Answer::Stopped
        }
    }

    fn model(&self) -> Vec<bool> {
        let model = self.solver.get_model();
        (0..=self.num_vars as usize)
            .map(|v| model.get(v).is_some_and(|&b| b == lbool::TRUE))
            .collect()
    }
}

fn dimacs(l: batsat::Lit) -> Lit {
    let v = l.var().idx() as Lit;
    if l.sign() {
        v
    } else {
        -v
    }
}
