//! One round of cluster separation: the fast heuristics of
//! `bnsl_formulations::family::separation`, and when they find nothing, the exact
//! sub-IP solved by a MILP back-end.

#[cfg(not(feature = "highs"))]
use crate::milp::backends;
use crate::milp::{Limits, MilpBackend, SolverError, Status};
use bnsl_formulations::family::separation::{separate_heuristically, SeparationOptions, Support};
use bnsl_formulations::family::separation_ip::SeparationIp;
use bnsl_formulations::{ClusterCut, FamilyIlp};

/// The back-end that solves separation sub-IPs: HiGHS with light settings when compiled
/// in (fastest on these small programs: SCIP took 14.7 s where HiGHS took 5.5 s on
/// alarm1000's root sub-IPs), else SCIP, else CBC.
pub fn sub_ip_backend() -> Option<Box<dyn MilpBackend>> {
    #[cfg(feature = "highs")]
    {
        Some(Box::new(crate::milp::highs::HighsBackend::with_options(
            light_highs_options(),
        )))
    }
    #[cfg(not(feature = "highs"))]
    {
        let mut all = backends();
        let pick = ["scip", "cbc"]
            .iter()
            .find_map(|name| all.iter().position(|b| b.name() == *name))?;
        Some(all.swap_remove(pick))
    }
}

/// HiGHS settings for the separation sub-IPs: any feasible solution is a violated
/// cluster, so the solve stops at the first one; presolve, symmetry detection, restarts
/// and primal heuristics cost more than they save on these small programs, and small cut
/// pools keep the LPs short (the program options of every HiGHS solve of bnsl's).
/// Measured on alarm1000 (SCIP branch and cut, sub-IP at the root): 120 sub-IPs took
/// 9.4 s with HiGHS's defaults, 5.5 s with these.
#[cfg(feature = "highs")]
fn light_highs_options() -> Vec<(String, crate::milp::highs::HighsOption)> {
    use crate::milp::highs::HighsBackend;
    use crate::milp::highs::HighsOption::{Bool, Int, Real, Text};
    let light = [
        ("mip_max_improving_sols", Int(1)),
        ("presolve", Text("off".into())),
        ("mip_heuristic_run_feasibility_jump", Bool(false)),
        ("mip_heuristic_effort", Real(0.0)),
        ("mip_detect_symmetry", Bool(false)),
        ("mip_allow_restart", Bool(false)),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_string(), value));
    HighsBackend::program_options()
        .into_iter()
        .chain(light)
        .collect()
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
    match exact {
        Some(backend) => separate_exactly(ilp, values, &support, options, backend, time_limit),
        None => Ok(SeparationRound::default()),
    }
}

/// The exact separation alone: the sub-IP of `support` (the support of `values`) solved
/// by `backend` within `time_limit` seconds.
pub fn separate_exactly(
    ilp: &FamilyIlp<'_>,
    values: &[f64],
    support: &Support,
    options: &SeparationOptions,
    backend: &dyn MilpBackend,
    time_limit: Option<f64>,
) -> Result<SeparationRound, SolverError> {
    let Some(sub) = SeparationIp::new(support, options.min_violation) else {
        return Ok(SeparationRound {
            cuts: Vec::new(),
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
            cuts: Vec::new(),
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
