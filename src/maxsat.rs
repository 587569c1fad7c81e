//! Learning by MaxSAT (SPEC C7): the table's weighted MaxSAT encoding
//! ([`encode_bnsl`]) solved by the built-in solver on batsat ([`solve_maxsat_seeded`]), and
//! its model decoded into a DAG whose score is recomputed from the table.
//!
//! The encoding's weights are scores scaled by `10^d` and rounded (the JSON says `d` as
//! `weight_digits`), so a cost `c` bounds the score by `offset − (c − n/2) · 10^−d`:
//! each of the `n` families' costs is off by at most half a unit. That is the bound
//! reported; an optimal answer's score is within `n/2 · 10^−d` of it.

use crate::observe::Observer;
use crate::report::{LearnReport, Status};
use bnsl_formulations::maxsat::bnsl::{encode_bnsl, BnslEncoding};
use bnsl_formulations::maxsat::treewidth::encode_bounded_treewidth;
use bnsl_formulations::ScoreTable;
use bnsl_solvers::maxsat::{
    solve_maxsat_seeded, ClusterClauses, ImpliedClauses, MaxSatAlgorithm, MaxSatOptions,
    MaxSatProgress, MaxSatStatus,
};
use serde_json::json;

/// A MaxSAT solve's progress in scores, for an [`Observer`].
#[derive(Clone, Debug, PartialEq)]
pub struct MaxSatScores {
    /// The incumbent's score (from its cost; the DAG's own score is recomputed at the end).
    pub incumbent: Option<f64>,
    /// The proved bound on the score.
    pub bound: f64,
    /// The solver's counts and integer bounds.
    pub progress: MaxSatProgress,
}

/// Solves `table` by MaxSAT with `options` into `report`, with treewidth at most `width`
/// when given (the table's candidates then have at most `width` parents) (status, DAG,
/// bound, and the fields `algorithm`, `seeded`, `cores`, `sat_calls`, `weight_digits`,
/// `hard_clauses`, `soft_clauses`); the hitting-set search is seeded with each node's
/// candidates when `seeded` ([`solve_maxsat_seeded`]); `observer` sees each new bound.
pub fn run_maxsat(
    table: &ScoreTable,
    width: Option<usize>,
    seeded: bool,
    options: &MaxSatOptions,
    report: &mut LearnReport,
    observer: &dyn Observer,
) -> Result<(), String> {
    let encoding = match width {
        Some(w) => encode_bounded_treewidth(table, w).map_err(|e| e.to_string())?,
        None => encode_bnsl(table),
    };
    let slack = table.n() as f64 * 0.5 / 10f64.powi(encoding.digits as i32);
    let bound_of = |cost: u64| score_of(&encoding, cost) + slack;
    let watch = |p: &MaxSatProgress| {
        observer.maxsat(&MaxSatScores {
            incumbent: p.upper_bound.map(|c| score_of(&encoding, c)),
            bound: bound_of(p.lower_bound),
            progress: p.clone(),
        })
    };
    let seeded = seeded && options.algorithm == MaxSatAlgorithm::Ihs;
    let groups: &[Vec<_>] = if seeded { &encoding.family_vars } else { &[] };
    let clusters = ClusterClauses::new(table);
    let implied = seeded.then_some(&clusters as &dyn ImpliedClauses);
    let result = solve_maxsat_seeded(&encoding.wcnf, groups, implied, options, &watch)
        .map_err(|e| e.to_string())?;
    report.status = match result.status {
        MaxSatStatus::Optimal => Status::Optimal,
        MaxSatStatus::Feasible => Status::Feasible,
        MaxSatStatus::Unsatisfiable => Status::Infeasible,
        MaxSatStatus::Unknown => Status::Unknown,
    };
    if let Some(model) = &result.model {
        let (dag, _) = encoding
            .family_map(table)
            .decode(model)
            .map_err(|e| format!("the MaxSAT model is not a network: {e}"))?;
        report.dag = Some(dag);
    }
    if result.status != MaxSatStatus::Unsatisfiable {
        report.bound = Some(bound_of(result.lower_bound));
    }
    let fields = [
        ("algorithm", json!(options.algorithm.name())),
        ("seeded", json!(seeded)),
        ("cores", json!(result.cores)),
        ("cluster_clauses", json!(result.implied_clauses)),
        ("sat_calls", json!(result.sat_calls)),
        ("weight_digits", json!(encoding.digits)),
        ("hard_clauses", json!(encoding.wcnf.hard.len())),
        ("soft_clauses", json!(encoding.wcnf.soft.len())),
    ];
    for (key, value) in fields {
        report.extra.insert(key.into(), value);
    }
    if let Some(why) = &result.failure {
        report.extra.insert("stopped".into(), json!(why));
    }
    Ok(())
}

/// The score a cost stands for, `offset − cost · 10^−d`, up to the rounding of the
/// weights.
fn score_of(encoding: &BnslEncoding, cost: u64) -> f64 {
    encoding.offset - cost as f64 / 10f64.powi(encoding.digits as i32)
}
