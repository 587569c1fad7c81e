//! Solution-improving linear search (SAT-UNSAT): a model, then the adder network of the
//! cost (the same as in proofs, [`CostAdder`]) bounded below the model's cost, and
//! again, until no cheaper model exists. Each bound is stronger than the one before, so
//! it is added as hard clauses; the last call is the unsatisfiable one that proves the
//! incumbent optimal.

use super::oracle::Answer;
use super::{Outcome, Search};
use bnsl_formulations::maxsat::cost_bound::CostAdder;

/// Runs the linear search on the formula of `search` (its hard clauses already in the
/// oracle).
pub(super) fn run(search: &mut Search<'_>) -> Outcome {
    let mut next_var = search.wcnf.num_vars;
    let violated = search.relax_softs(&mut next_var);
    let adder = CostAdder::build(search.wcnf, &violated, &mut next_var);
    for clause in &adder.clauses {
        search.oracle.add_clause(clause);
    }
    loop {
        match search.oracle.solve(&[]) {
            Answer::Sat(model) => {
                let cost = search.offer(model);
                if cost == 0 {
                    return Outcome::Closed;
                }
                let best = search.upper_bound().unwrap_or(cost);
                for clause in adder.at_most(best - 1) {
                    search.oracle.add_clause(&clause);
                }
            }
            Answer::Unsat(_) => {
                if search.upper_bound().is_none() {
                    return Outcome::Unsatisfiable;
                }
                search.lower_bound = search.upper_bound().unwrap_or(0);
                return Outcome::Closed;
            }
            Answer::Stopped => return Outcome::Stopped,
        }
    }
}
