//! Proofs of optimality by MaxSAT that a third party can check (SPEC C10).
//!
//! A proof of a DAG `D` of a score table is a directory:
//! - `bound.cnf`: the hard clauses of the table's MaxSAT encoding ([`encode_bnsl`] of the
//!   table without dominated candidates) and the adder network stating "the cost is at
//!   most `c − 1`", where `c` is `D`'s cost
//!   ([`bounded_cost_cnf`]); unsatisfiable exactly when no network costs less than `D`;
//! - `bound.drat`: varisat's DRAT refutation of it;
//! - `proof.json`: the cost, the weights' precision and the counts.
//!
//! [`check_proof`] rebuilds `bound.cnf` from the table and `D`, compares it clause by
//! clause with the file, and checks `bound.drat` with bnsl's own DRAT checker
//! ([`check_drat`]), not with the solver that wrote it. drat-trim checks the same two
//! files. The encoding's weights are rounded to `10^−d`, so the proof shows `D` optimal
//! up to `n/2 · 10^−d` of score.

use bnsl_formulations::maxsat::bnsl::{encode_bnsl, BnslEncoding};
use bnsl_formulations::maxsat::cost_bound::bounded_cost_cnf;
use bnsl_formulations::maxsat::wcnf_format::{read_cnf, write_cnf};
use bnsl_formulations::maxsat::Lit;
use bnsl_formulations::{Dag, ScoreTable};
use bnsl_solvers::drat::{check_drat, DratSummary};
use bnsl_solvers::maxsat::proof::{refute, Refutation};
use bnsl_solvers::StopToken;
use serde_json::json;
use std::fs;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The file names inside a proof directory.
const CNF: &str = "bound.cnf";
const DRAT: &str = "bound.drat";
const META: &str = "proof.json";

/// Why a proof (DRAT, or cutting planes: [`crate::pb_proof`]) could not be written or was
/// rejected.
#[derive(Debug, thiserror::Error)]
pub enum ProofError {
    /// A file of the proof could not be written or read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The DAG is not made of the table's candidates (after dominated ones are dropped).
    #[error("the DAG is not a network of the score table's candidates (dominated parent sets dropped): it cannot be optimal")]
    NotCandidates,
    /// A network cheaper than the DAG exists: it is not optimal.
    #[error("the DAG is not optimal: a network of lower cost satisfies the bound's formula")]
    NotOptimal,
    /// The refutation hit the time limit or was stopped.
    #[error("the refutation was stopped before it finished (time limit or Ctrl+C); no proof was written (beyond about a dozen variables, --proof-format veripb proves by cutting planes instead)")]
    Stopped,
    /// `bound.cnf` is not the formula of this table and DAG.
    #[error("{path}: {why}")]
    WrongFormula {
        /// The file.
        path: PathBuf,
        /// How it differs.
        why: String,
    },
    /// The DRAT proof was rejected.
    #[error("{path}: {source}")]
    Rejected {
        /// The file.
        path: PathBuf,
        /// The checker's reason.
        source: bnsl_solvers::drat::DratError,
    },
    /// The cutting-planes proof was rejected.
    #[error("{path}: {source}")]
    RejectedSteps {
        /// The file.
        path: PathBuf,
        /// The checker's reason.
        source: bnsl_solvers::veripb::VeripbError,
    },
    /// A leaf of the certificate does not reach the cutting-planes proof's bound.
    #[error("leaf {leaf} of the certificate bounds the cost by {bound} (in 10^-12), not above {needed}: it does not show the DAG optimal")]
    WeakLeaf {
        /// The leaf, from 0 in preorder.
        leaf: usize,
        /// What its duals give.
        bound: i128,
        /// What the proof needs them to exceed.
        needed: i128,
    },
    /// The certificate's tree is not a complete preorder.
    #[error("the certificate's tree is not complete")]
    Shape,
    /// A coefficient of a cutting-planes proof left 128-bit integers.
    #[error("a coefficient of the proof is out of range")]
    Overflow,
}

/// What a written proof holds.
#[derive(Clone, Debug, PartialEq)]
pub struct ProofWritten {
    /// The DAG's cost in the encoding's integer weights.
    pub cost: u64,
    /// The formula's variables and clauses.
    pub num_vars: u32,
    /// Clauses of `bound.cnf`.
    pub clauses: usize,
    /// Seconds the refutation took.
    pub time_s: f64,
}

/// The table a proof is about (without dominated candidates), its encoding, and the DAG's
/// cost in it.
pub(crate) fn pruned_encoding_and_cost(
    table: &ScoreTable,
    dag: &Dag,
) -> Result<(ScoreTable, BnslEncoding, u64), ProofError> {
    let (pruned, _) = table.without_dominated();
    let encoding = encode_bnsl(&pruned);
    let value = encoding
        .assignment(&pruned, dag)
        .ok_or(ProofError::NotCandidates)?;
    let cost = encoding
        .wcnf
        .cost(&value)
        .ok_or(ProofError::NotCandidates)?;
    Ok((pruned, encoding, cost))
}

/// The formula "cost ≤ `cost` − 1", or `None` at cost 0 (every node takes its best
/// parent set: nothing is cheaper, and there is nothing to refute).
fn bound_formula(encoding: &BnslEncoding, cost: u64) -> Option<(u32, Vec<Vec<Lit>>)> {
    (cost > 0).then(|| bounded_cost_cnf(&encoding.wcnf, cost - 1))
}

pub(crate) fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> ProofError + '_ {
    move |source| ProofError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes the proof that `dag` is optimal for `table` into `dir` (created if needed),
/// refuting within `time_limit`.
pub fn write_proof(
    table: &ScoreTable,
    dag: &Dag,
    dir: &Path,
    time_limit: Option<Duration>,
    stop: &StopToken,
) -> Result<ProofWritten, ProofError> {
    let start = Instant::now();
    fs::create_dir_all(dir).map_err(io_error(dir))?;
    let (_, encoding, cost) = pruned_encoding_and_cost(table, dag)?;
    let (num_vars, clauses) = bound_formula(&encoding, cost).unwrap_or((0, Vec::new()));
    let cnf_path = dir.join(CNF);
    let comments = [
        format!(
            "bnsl optimality proof: no network of this score table costs at most {}",
            cost.saturating_sub(1)
        ),
        format!(
            "weights are score differences times 10^{}, rounded",
            encoding.digits
        ),
    ];
    let mut cnf = BufWriter::new(fs::File::create(&cnf_path).map_err(io_error(&cnf_path))?);
    write_cnf(num_vars, &clauses, &comments, &mut cnf).map_err(io_error(&cnf_path))?;
    drop(cnf);
    let drat_path = dir.join(DRAT);
    let drat = BufWriter::new(fs::File::create(&drat_path).map_err(io_error(&drat_path))?);
    if cost > 0 {
        match refute(&clauses, drat, time_limit, stop).map_err(io_error(&drat_path))? {
            Refutation::Refuted => {}
            Refutation::Satisfiable => return Err(ProofError::NotOptimal),
            Refutation::Stopped => {
                let _ = fs::remove_file(&drat_path);
                return Err(ProofError::Stopped);
            }
        }
    }
    let written = ProofWritten {
        cost,
        num_vars,
        clauses: clauses.len(),
        time_s: start.elapsed().as_secs_f64(),
    };
    let meta = json!({
        "cost": cost,
        "weight_digits": encoding.digits,
        "variables": num_vars,
        "clauses": clauses.len(),
        "prover": "varisat 0.2.2 (DRAT)",
        "time_s": written.time_s,
    });
    let meta_path = dir.join(META);
    fs::write(&meta_path, format!("{meta:#}\n")).map_err(io_error(&meta_path))?;
    Ok(written)
}

/// Checks the proof in `dir` that `dag` is optimal for `table`: the formula rebuilt and
/// compared with `bound.cnf`, then `bound.drat` checked against it.
pub fn check_proof(table: &ScoreTable, dag: &Dag, dir: &Path) -> Result<DratSummary, ProofError> {
    let (_, encoding, cost) = pruned_encoding_and_cost(table, dag)?;
    let cnf_path = dir.join(CNF);
    let text = fs::read_to_string(&cnf_path).map_err(io_error(&cnf_path))?;
    let wrong = |why: String| ProofError::WrongFormula {
        path: cnf_path.clone(),
        why,
    };
    let (file_vars, file_clauses) = read_cnf(&text).map_err(wrong)?;
    let Some((num_vars, clauses)) = bound_formula(&encoding, cost) else {
        return Ok(DratSummary::default());
    };
    if file_vars != num_vars || file_clauses.len() != clauses.len() {
        return Err(wrong(format!(
            "not the bound formula of this table and DAG: it has {file_vars} variables and {} clauses, the formula {num_vars} and {}",
            file_clauses.len(),
            clauses.len()
        )));
    }
    if let Some(k) = (0..clauses.len()).find(|&k| file_clauses[k] != clauses[k]) {
        return Err(wrong(format!(
            "clause {} is {:?}, where the bound formula of this table and DAG has {:?}",
            k + 1,
            file_clauses[k],
            clauses[k]
        )));
    }
    let drat_path = dir.join(DRAT);
    let proof = fs::read_to_string(&drat_path).map_err(io_error(&drat_path))?;
    check_drat(num_vars, &clauses, &proof).map_err(|source| ProofError::Rejected {
        path: drat_path,
        source,
    })
}
