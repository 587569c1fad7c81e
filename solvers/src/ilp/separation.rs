//! Cluster separation (Bartlett & Cussens 2017, §5), one pipeline for every engine: the
//! fast heuristics of `bnsl_formulations::family::separation`; when they find nothing,
//! the combinatorial cluster search (when it has a budget); when that neither finds a
//! cluster nor proves there is none, the exact sub-IP. The cut loop runs the sub-IP as a
//! MILP on a back-end ([`MilpSubIp`]); SCIP's branch and cut runs it in a SCIP
//! sub-instance set up as GOBNILP does.

use crate::milp::{Limits, MilpBackend, SolverError};
use crate::stop::StopToken;
use bnsl_formulations::family::cluster_search::search_clusters;
use bnsl_formulations::family::separation::{separate_heuristically, SeparationOptions, Support};
use bnsl_formulations::family::separation_ip::SeparationIp;
use bnsl_formulations::{ClusterCut, FamilyIlp};

/// The exact stage of the pipeline: a solver of the separation sub-IP
/// ([`SeparationIp`]).
pub(crate) trait ExactSeparator {
    /// The clusters of `support` (the support of `values`) violated by at least
    /// `options.min_violation`, found within `time_limit` seconds or until `stop`, most
    /// violated first.
    fn separate(
        &self,
        ilp: &FamilyIlp<'_>,
        values: &[f64],
        support: &Support,
        options: &SeparationOptions,
        time_limit: Option<f64>,
        stop: &StopToken,
    ) -> Result<Vec<ClusterCut>, SolverError>;
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
    /// The violated clusters of `values` (one per family column), most violated first,
    /// each stage run only when the ones before found nothing; the exact stage within
    /// `time_limit` seconds or until `stop`.
    pub(crate) fn separate(
        &self,
        ilp: &FamilyIlp<'_>,
        values: &[f64],
        time_limit: Option<f64>,
        stop: &StopToken,
    ) -> Result<Vec<ClusterCut>, SolverError> {
        let support = Support::new(ilp, values);
        let cuts = separate_heuristically(ilp, &support, self.options);
        if !cuts.is_empty() {
            return Ok(cuts);
        }
        if let Some((budget, max_cuts)) = self.search {
            let found = search_clusters(&support, self.options.min_violation, budget, max_cuts);
            if !found.clusters.is_empty() || found.complete {
                return Ok(found
                    .clusters
                    .iter()
                    .map(|(_, c)| ilp.cluster_cut(c))
                    .collect());
            }
        }
        match self.exact {
            Some(exact) => exact.separate(ilp, values, &support, self.options, time_limit, stop),
            None => Ok(Vec::new()),
        }
    }
}

/// The exact stage as a MILP solved by a back-end: the most violated cluster, if one
/// is violated enough.
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
    ) -> Result<Vec<ClusterCut>, SolverError> {
        let Some(sub) = SeparationIp::new(support, options.min_violation) else {
            return Ok(Vec::new());
        };
        let limits = Limits {
            time_limit,
            threads: Some(1),
            stop: stop.clone(),
            ..Limits::default()
        };
        let outcome = self.0.solve(&sub.model, &limits)?;
        let Some(v) = outcome.values else {
            return Ok(Vec::new());
        };
        let cut = ilp.cluster_cut(&sub.cluster(&v));
        Ok((cut.violation(values) >= options.min_violation)
            .then_some(cut)
            .into_iter()
            .collect())
    }
}
