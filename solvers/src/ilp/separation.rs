//! One round of cluster separation: the fast heuristics of
//! `bnsl_formulations::family::separation`, and when they find nothing, the exact
//! sub-IP solved by a MILP back-end.

use crate::milp::{backends, Limits, MilpBackend, SolverError, Status};
use bnsl_formulations::family::separation::{separate_heuristically, SeparationOptions, Support};
use bnsl_formulations::family::separation_ip::SeparationIp;
use bnsl_formulations::{ClusterCut, FamilyIlp};

/// The back-end that solves separation sub-IPs: HiGHS when compiled in (fastest on these
/// small programs), else SCIP, else CBC.
pub fn sub_ip_backend() -> Option<Box<dyn MilpBackend>> {
    let mut all = backends();
    let pick = ["highs", "scip", "cbc"]
        .iter()
        .find_map(|name| all.iter().position(|b| b.name() == *name))?;
    Some(all.swap_remove(pick))
}

/// How one separation round went.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeparationRound {
    /// The violated clusters found, most violated first.
    pub cuts: Vec<ClusterCut>,
    /// Whether the exact separation ran and proved that no cluster is violated by
    /// `min_violation` or more (so the solution satisfies every cluster constraint up
    /// to that tolerance).
    pub proven_none: bool,
}

/// Separates `values` (one per family column): heuristics first; if they find nothing
/// and `exact` is given, the sub-IP, within `time_limit` seconds.
pub fn separate(
    ilp: &FamilyIlp<'_>,
    values: &[f64],
    options: &SeparationOptions,
    exact: Option<&dyn MilpBackend>,
    time_limit: Option<f64>,
) -> Result<SeparationRound, SolverError> {
    let support = Support::new(ilp, values);
    let cuts = separate_heuristically(ilp, &support, options);
    if !cuts.is_empty() {
        return Ok(SeparationRound {
            cuts,
            proven_none: false,
        });
    }
    let Some(backend) = exact else {
        return Ok(SeparationRound::default());
    };
    let Some(sub) = SeparationIp::new(&support, options.min_violation) else {
        return Ok(SeparationRound {
            cuts,
            proven_none: true,
        });
    };
    let limits = Limits {
        time_limit,
        threads: Some(1),
        ..Limits::default()
    };
    let outcome = backend.solve(&sub.model, &limits)?;
    match (outcome.status, outcome.values) {
        (Status::Infeasible, _) => Ok(SeparationRound {
            cuts,
            proven_none: true,
        }),
        (_, Some(v)) => {
            let cluster = sub.cluster(&v);
            let cut = ilp.cluster_cut(&cluster);
            Ok(SeparationRound {
                proven_none: false,
                cuts: (cut.violation(values) >= options.min_violation)
                    .then_some(cut)
                    .into_iter()
                    .collect(),
            })
        }
        _ => Ok(SeparationRound::default()),
    }
}
