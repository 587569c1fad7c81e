//! Exact cluster separation inside the branch and cut: the sub-IP of
//! [`SeparationIp`] (Bartlett & Cussens 2017, §5) solved by a SCIP sub-instance set up
//! the way GOBNILP sets up its own:
//! - the objective limit `−1 + δ` lets SCIP prune every node that cannot reach a
//!   violation of δ, and every solution it finds on the way is a violated cluster, so
//!   all of them become cuts, not only the best;
//! - depth-first search, primal heuristics and SCIP's cut separators off: on these small
//!   programs they cost more than they save;
//! - least-infeasible branching ([`DEFAULT_BRANCHING`]) instead of SCIP's reliability
//!   branching, whose strong branching costs milliseconds per sub-IP node. The clusters
//!   found then close more of the main program's gap at the root, so the tree is
//!   smaller and the whole solve faster. `bnsl/sub_ip_branching` chooses another rule.
//!
//! The figures behind both choices are in README, "Benchmark notes behind design
//! choices".

use crate::milp::scip::build;
use crate::milp::{Limits, SolverError};
use crate::stop::StopToken;
use bnsl_formulations::family::separation::{SeparationOptions, Support};
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

/// The sub-IP's branching rule unless `bnsl/sub_ip_branching` says otherwise.
pub(super) const DEFAULT_BRANCHING: &str = "leastinf";

/// Priority given to the chosen branching rule: above every default priority of SCIP's
/// rules (reliability branching, the highest, has 10,000).
const CHOSEN_RULE_PRIORITY: &str = "20000";

/// The priority parameter of SCIP's branching rule `rule`, or `None` for `default`
/// (SCIP's own order of rules).
pub(super) fn branching_priority(rule: &str) -> Option<String> {
    (rule != "default").then(|| format!("branching/{rule}/priority"))
}

/// The clusters of `support` (the support of `values`) violated by at least
/// `options.min_violation`, most violated first, at most `options.max_cuts` of them, found by the sub-IP
/// within `time_limit` seconds, or until `stop` is stopped.
pub(super) fn separate(
    ilp: &FamilyIlp<'_>,
    values: &[f64],
    support: &Support,
    options: &SeparationOptions,
    branching: &str,
    time_limit: Option<f64>,
    stop: &StopToken,
) -> Result<Vec<ClusterCut>, SolverError> {
    let (min_violation, max_cuts) = (options.min_violation, options.max_cuts);
    let Some(sub) = SeparationIp::new(support, min_violation) else {
        return Ok(Vec::new());
    };
    let limits = Limits {
        time_limit,
        stop: stop.clone(),
        ..Limits::default()
    };
    let (scip, vars) = build(&sub.model, &limits)?;
    tune(&scip, min_violation, branching)?;
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
/// objective limit of a violation of `min_violation` and the branching rule `branching`.
fn tune(
    scip: &Model<ProblemCreated>,
    min_violation: f64,
    branching: &str,
) -> Result<(), SolverError> {
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
    let rule = branching_priority(branching).map(|name| (name, CHOSEN_RULE_PRIORITY));
    let chosen = rule.iter().map(|(name, value)| (name.as_str(), *value));
    for (name, value) in PARAMS.into_iter().chain(chosen) {
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
