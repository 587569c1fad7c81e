//! Exact cluster separation inside the branch and cut: the sub-IP of
//! [`SeparationIp`] (Bartlett & Cussens 2017, §5) solved by a SCIP sub-instance set up
//! the way GOBNILP sets up its own:
//! - the objective limit `−1 + δ` lets SCIP prune every node that cannot reach a
//!   violation of δ, and every solution it finds on the way is a violated cluster, so
//!   all of them become cuts, not only the best;
//! - depth-first search, primal heuristics and SCIP's cut separators off: on these small
//!   programs they cost more than they save (alarm1000, sub-IP at the root: 89 calls
//!   took 19.7 s with SCIP's defaults, 83 calls 1.4 s with these settings).

use crate::milp::scip::build;
use crate::milp::{Limits, SolverError};
use bnsl_formulations::family::separation::Support;
use bnsl_formulations::family::separation_ip::SeparationIp;
use bnsl_formulations::{ClusterCut, FamilyIlp};
use russcip::prelude::*;
use russcip::{ffi, ProblemCreated};

use super::engine::{check, ScipCallFailed};
use super::params;

/// The SCIP parameters of the sub-instance (besides heuristics and separators off).
const PARAMS: [(&str, &str); 3] = [
    ("nodeselection/childsel", "d"),
    ("nodeselection/dfs/stdpriority", "536870911"),
    ("lp/solvefreq", "1"),
];

/// The clusters of `support` (the support of `values`) violated by at least
/// `min_violation`, most violated first, at most `max_cuts` of them, found by the sub-IP
/// within `time_limit` seconds.
pub(super) fn separate(
    ilp: &FamilyIlp<'_>,
    values: &[f64],
    support: &Support,
    min_violation: f64,
    max_cuts: usize,
    time_limit: Option<f64>,
) -> Result<Vec<ClusterCut>, SolverError> {
    let Some(sub) = SeparationIp::new(support, min_violation) else {
        return Ok(Vec::new());
    };
    let limits = Limits {
        time_limit,
        ..Limits::default()
    };
    let (scip, vars) = build(&sub.model, &limits)?;
    tune(&scip, min_violation)?;
    let solved = scip.solve();
    let mut found: Vec<(f64, ClusterCut)> = Vec::new();
    for sol in solved.get_sols().unwrap_or_default() {
        let x: Vec<f64> = vars.iter().map(|v| sol.val(v)).collect();
        let cut = ilp.cluster_cut(&sub.cluster(&x));
        let violation = cut.violation(values);
        if violation >= min_violation && found.iter().all(|(_, c)| c.cluster != cut.cluster) {
            found.push((violation, cut));
        }
    }
    found.sort_by(|a, b| b.0.total_cmp(&a.0));
    found.truncate(max_cuts);
    Ok(found.into_iter().map(|(_, c)| c).collect())
}

/// Applies the settings of the module documentation to the sub-instance, with the
/// objective limit of a violation of `min_violation`.
fn tune(scip: &Model<ProblemCreated>, min_violation: f64) -> Result<(), SolverError> {
    let ptr = scip.scip_ptr();
    let off = ffi::SCIP_ParamSetting_SCIP_PARAMSETTING_OFF;
    let failed = |what: &str, code| SolverError::Backend {
        backend: "scip",
        message: format!("sub-IP setting {what} failed (SCIP code {code})"),
    };
    // SAFETY: parameter calls on the live instance owned by `scip`, in the problem stage.
    let codes = unsafe {
        [
            ("heuristics off", ffi::SCIPsetHeuristics(ptr, off, 1)),
            ("separating off", ffi::SCIPsetSeparating(ptr, off, 1)),
            (
                "objective limit",
                ffi::SCIPsetObjlimit(ptr, -1.0 + min_violation),
            ),
        ]
    };
    for (what, code) in codes {
        check(code).map_err(|ScipCallFailed(code)| failed(what, code))?;
    }
    for (name, value) in PARAMS {
        params::set(ptr, name, value).map_err(|e| {
            failed(
                name,
                match e {
                    params::ScipParamError::Rejected { code, .. } => code,
                    _ => ffi::SCIP_Retcode_SCIP_PARAMETERUNKNOWN,
                },
            )
        })?;
    }
    Ok(())
}
