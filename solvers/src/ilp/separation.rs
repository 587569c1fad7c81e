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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::milp::backends;
    use crate::test_tables::arb_table;
    use bnsl_formulations::{ScoreTable, VarSet};
    use proptest::prelude::*;

    /// A point of `ilp`'s columns: each node's columns take the weights `raw` (cycled),
    /// scaled to sum to 1; a node whose weights are all 0 takes its first column.
    fn point(ilp: &FamilyIlp<'_>, raw: &[u8]) -> Vec<f64> {
        let weight = |c: usize| f64::from(raw[c % raw.len()]);
        let mut values = vec![0.0; ilp.num_columns()];
        for v in 0..ilp.n() {
            let columns = ilp.columns_of(v);
            let total: f64 = columns.clone().map(weight).sum();
            if total > 0.0 {
                for c in columns {
                    values[c] = weight(c) / total;
                }
            } else if !columns.is_empty() {
                values[columns.start] = 1.0;
            }
        }
        values
    }

    /// The largest violation of a cluster of two or more nodes, by enumeration.
    fn most_violated(support: &Support) -> f64 {
        let n = support.n();
        (0u32..1 << n)
            .filter(|m| m.count_ones() >= 2)
            .map(|m| {
                support.violation(&VarSet::from_members(
                    n,
                    (0..n).filter(|&v| m >> v & 1 == 1),
                ))
            })
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// Checks that `exact` returns a cut exactly when a cluster is violated by δ, and
    /// that its first cut is (within the solvers' gap tolerance) the most violated.
    pub(crate) fn check_exact(
        exact: &dyn ExactSeparator,
        table: &ScoreTable,
        raw: &[u8],
    ) -> Result<(), TestCaseError> {
        let ilp = FamilyIlp::new(table);
        let values = point(&ilp, raw);
        let support = Support::new(&ilp, &values);
        let options = SeparationOptions::default();
        let best = most_violated(&support);
        prop_assume!((best - options.min_violation).abs() > 1e-6);
        let cuts = exact
            .separate(
                &ilp,
                &values,
                &support,
                &options,
                None,
                &StopToken::default(),
            )
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        if best < options.min_violation {
            prop_assert!(cuts.is_empty(), "no cluster is violated, yet {cuts:?}");
            return Ok(());
        }
        let first = cuts.first().ok_or_else(|| {
            TestCaseError::fail(format!("a cluster is violated by {best}, none found"))
        })?;
        let found = first.violation(&values);
        prop_assert!(
            found >= options.min_violation && found >= best - 1e-4,
            "{found} < {best}"
        );
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// The exact stage on every back-end finds the most violated cluster, and no
        /// cluster when none is violated.
        #[test]
        fn the_sub_ip_finds_the_most_violated_cluster(
            table in arb_table(6),
            raw in proptest::collection::vec(0u8..4, 1..40),
        ) {
            for backend in backends() {
                check_exact(&MilpSubIp(backend.as_ref()), &table, &raw)?;
            }
        }
    }
}
