//! Proofs of optimality that a third party can check (SPEC C10): the CNF "some network
//! costs at most `c − 1`", where `c` is the optimal network's cost
//! ([`bounded_cost_cnf`](bnsl_formulations::maxsat::cost_bound::bounded_cost_cnf)), and a
//! DRAT refutation of it by varisat, in one call without assumptions. Its check is
//! [`crate::drat::check_drat`] or any DRAT checker (drat-trim).
//!
//! varisat cannot be interrupted, so the proof goes through a writer that fails once
//! the limit is reached, which stops the solver.

use super::oracle::Limit;
use crate::StopToken;
use bnsl_formulations::maxsat::Lit;
use std::io::{self, Write};
use std::time::{Duration, Instant};
use varisat::{ExtendFormula, ProofFormat, Solver};

/// How a refutation attempt ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refutation {
    /// The formula is unsatisfiable; the proof was written whole.
    Refuted,
    /// The formula has a model: there is no proof to write.
    Satisfiable,
    /// The limit was reached first; the proof written is incomplete.
    Stopped,
}

/// The proof file: copies the proof to `inner` until the limit is reached.
struct StoppingWriter<W: Write> {
    inner: W,
    limit: Limit,
}

impl<W: Write> Write for StoppingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.limit.reached() {
            return Err(io::Error::other("the proof search was stopped"));
        }
        self.inner.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Refutes the formula of `clauses` with varisat, writing its text DRAT proof to
/// `proof`; stops after `time_limit` or at `stop`. An error is the proof file's.
pub fn refute<W: Write>(
    clauses: &[Vec<Lit>],
    proof: W,
    time_limit: Option<Duration>,
    stop: &StopToken,
) -> io::Result<Refutation> {
    let limit = Limit {
        deadline: time_limit.map(|t| Instant::now() + t),
        stop: stop.clone(),
    };
    let mut solver = Solver::new();
    solver.write_proof(
        StoppingWriter {
            inner: proof,
            limit: limit.clone(),
        },
        ProofFormat::Drat,
    );
    for clause in clauses {
        let lits: Vec<varisat::Lit> = clause
            .iter()
            .map(|&l| varisat::Lit::from_dimacs(l as isize))
            .collect();
        solver.add_clause(&lits);
    }
    let answer = solver.solve();
    if limit.reached() {
        return Ok(Refutation::Stopped);
    }
    match answer {
        Ok(true) => Ok(Refutation::Satisfiable),
        Ok(false) => {
            solver
                .close_proof()
                .map_err(|e| io::Error::other(e.to_string()))?;
            Ok(Refutation::Refuted)
        }
        Err(e) => Err(io::Error::other(e.to_string())),
    }
}
