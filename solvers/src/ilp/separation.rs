//! Cluster separation (Bartlett & Cussens 2017, §5), one pipeline for every engine: the
//! fast heuristics of `bnsl_formulations::family::separation`; when they find nothing,
//! the combinatorial cluster search (when it has a budget); when that neither finds a
//! cluster nor proves there is none, the exact sub-IP. The cut loop runs the sub-IP as a
//! MILP on a back-end ([`MilpSubIp`]); SCIP's branch and cut runs it in a SCIP
//! sub-instance set up as GOBNILP does.

use crate::milp::{Limits, MilpBackend, SolverError, Status};
use crate::stop::StopToken;
use bnsl_formulations::family::cluster_search::search_clusters;
use bnsl_formulations::family::separation::{separate_heuristically, SeparationOptions, Support};
use bnsl_formulations::family::separation_ip::SeparationIp;
use bnsl_formulations::{ClusterCut, FamilyIlp};

/// How one separation round went.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct SeparationRound {
    /// The violated clusters found, most violated first.
    pub(crate) cuts: Vec<ClusterCut>,
    /// Whether the exact separation ran and proved that no cluster is violated by
    /// `min_violation` or more (so the solution satisfies every cluster constraint up
    /// to that tolerance).
    pub(crate) proven_none: bool,
}

/// The exact stage of the pipeline: a solver of the separation sub-IP
/// ([`SeparationIp`]).
pub(crate) trait ExactSeparator {
    /// The clusters of `support` (the support of `values`) violated by at least
    /// `options.min_violation`, found within `time_limit` seconds or until `stop`.
    fn separate(
        &self,
        ilp: &FamilyIlp<'_>,
        values: &[f64],
        support: &Support,
        options: &SeparationOptions,
        time_limit: Option<f64>,
        stop: &StopToken,
    ) -> Result<SeparationRound, SolverError>;
}

/// The stages one separation call may run (see the module documentation).
pub(crate) struct Pipeline<'a> {
    /// Settings of the heuristics, and the violation every cut must reach.
    pub(crate) options: &'a SeparationOptions,
    /// The combinatorial search's visit budget and the most cuts it keeps (`None`: no
    /// search).
    pub(crate) search: Option<(usize, usize)>,
    /// The exact stage (`None`: heuristics and search only).
    pub(crate) exact: Option<&'a dyn ExactSeparator>,
}

impl Pipeline<'_> {
    /// Separates `values` (one per family column), each stage only when the ones before
    /// found nothing; the exact stage within `time_limit` seconds or until `stop`.
    pub(crate) fn separate(
        &self,
        ilp: &FamilyIlp<'_>,
        values: &[f64],
        time_limit: Option<f64>,
        stop: &StopToken,
    ) -> Result<SeparationRound, SolverError> {
        let support = Support::new(ilp, values);
        let cuts = separate_heuristically(ilp, &support, self.options);
        if !cuts.is_empty() {
            return Ok(SeparationRound {
                cuts,
                proven_none: false,
            });
        }
        if let Some((budget, max_cuts)) = self.search {
            let found = search_clusters(&support, self.options.min_violation, budget, max_cuts);
            if !found.clusters.is_empty() || found.complete {
                return Ok(SeparationRound {
                    cuts: found
                        .clusters
                        .iter()
                        .map(|(_, c)| ilp.cluster_cut(c))
                        .collect(),
                    proven_none: found.complete && found.clusters.is_empty(),
                });
            }
        }
        match self.exact {
            Some(exact) => exact.separate(ilp, values, &support, self.options, time_limit, stop),
            None => Ok(SeparationRound::default()),
        }
    }
}

/// The exact stage as a MILP solved by a back-end.
pub(crate) struct MilpSubIp<'b>(pub(crate) &'b dyn MilpBackend);

impl ExactSeparator for MilpSubIp<'_> {
    fn separate(
        &self,
        ilp: &FamilyIlp<'_>,
        values: &[f64],
        support: &Support,
        options: &SeparationOptions,
        time_limit: Option<f64>,
        stop: &StopToken,
    ) -> Result<SeparationRound, SolverError> {
        separate_exactly(ilp, values, support, options, self.0, time_limit, stop)
    }
}

/// The sub-IP of `support` (the support of `values`) solved by `backend` within
/// `time_limit` seconds or until `stop`: one violated cluster, or the proof that there
/// is none.
fn separate_exactly(
    ilp: &FamilyIlp<'_>,
    values: &[f64],
    support: &Support,
    options: &SeparationOptions,
    backend: &dyn MilpBackend,
    time_limit: Option<f64>,
    stop: &StopToken,
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
        stop: stop.clone(),
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
