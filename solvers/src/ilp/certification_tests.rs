//! The certification pass against the DP oracle: every certificate it makes for an
//! optimum passes the exact check, and it makes none for a network below the optimum.

use super::certification::{certify, CertifyError, CertifyOptions};
use crate::dp::{solve_dp, DpOptions};
use crate::milp::highs::HighsBackend;
use crate::milp::{Limits, LpDuals, LpRow, LpSession, LpSolution, SolverError};
use crate::test_tables::{arb_table, larger_table};
use bnsl_formulations::milp::MilpModel;
use bnsl_formulations::{Dag, ScoreTable, VarSet};
use proptest::prelude::*;

/// Certifies `dag` with HiGHS for the LPs and the sub-IPs.
fn certify_with_highs(
    table: &ScoreTable,
    dag: &Dag,
) -> Result<super::certification::Certified, CertifyError> {
    certify_on(&HighsBackend::default(), table, dag)
}

/// Certifies `dag` with `lps` for the LPs and HiGHS for the sub-IPs.
fn certify_on(
    lps: &dyn LpDuals,
    table: &ScoreTable,
    dag: &Dag,
) -> Result<super::certification::Certified, CertifyError> {
    certify(
        table,
        dag,
        lps,
        Some(&HighsBackend::default()),
        &CertifyOptions::default(),
        &|_| {},
    )
}

/// A network below the optimum: the optimum with one node's parents dropped, if that
/// loses more than the tolerance.
fn worse_than(table: &ScoreTable, optimum: &Dag, best: f64) -> Option<Dag> {
    (0..table.n()).find_map(|v| {
        let mut worse = optimum.clone();
        worse.set_parents(v, VarSet::empty(table.n()));
        let score = worse.check(table).ok()?;
        (score < best - 1e-3).then_some(worse)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn optima_are_certified_and_worse_networks_are_not(table in arb_table(6)) {
        let optimum = solve_dp(&table, &DpOptions::default()).unwrap();
        let certified = certify_with_highs(&table, &optimum.dag).unwrap();
        let check = certified.certificate.check(&table).unwrap();
        prop_assert!(check.gap() <= 1e-6);
        if let Some(worse) = worse_than(&table, &optimum.dag, optimum.score) {
            let refused = certify_with_highs(&table, &worse);
            let worse_score = worse.check(&table).unwrap();
            prop_assert!(
                matches!(refused, Err(CertifyError::NotOptimal { better }) if better > worse_score),
                "{refused:?}"
            );
        }
    }
}

/// Tables where the relaxation with every cluster row does not close the gap: the
/// certificate branches, and still passes.
#[test]
fn certificates_branch_where_the_relaxation_does_not_close() {
    let mut branched = 0;
    for seed in 0..6 {
        let table = larger_table(seed);
        let optimum = solve_dp(&table, &DpOptions::default()).unwrap();
        let certified = certify_with_highs(&table, &optimum.dag).unwrap();
        let check = certified.certificate.check(&table).unwrap();
        assert!(check.gap() <= 1e-6, "seed {seed}");
        assert_eq!(check.leaves, check.branches + 1, "seed {seed}");
        branched += usize::from(check.branches > 0);
    }
    assert!(branched > 0, "no table made the pass branch");
}

/// HiGHS LPs whose solve number `fail_at` (counted per session) fails, as a back-end
/// in numerical trouble would; with `fail_at == 0` every solve fails.
struct FailingLps {
    highs: HighsBackend,
    fail_at: usize,
}

impl LpDuals for FailingLps {
    fn open_lp(
        &self,
        model: &MilpModel,
        limits: &Limits,
    ) -> Result<Box<dyn LpSession>, SolverError> {
        Ok(Box::new(FailingSession {
            inner: self.highs.open_lp(model, limits)?,
            solves: 0,
            fail_at: self.fail_at,
        }))
    }
}

struct FailingSession {
    inner: Box<dyn LpSession>,
    solves: usize,
    fail_at: usize,
}

impl LpSession for FailingSession {
    fn add_rows(&mut self, rows: &[LpRow]) -> Result<(), SolverError> {
        self.inner.add_rows(rows)
    }

    fn delete_rows(&mut self, rows: &[usize]) -> Result<(), SolverError> {
        self.inner.delete_rows(rows)
    }

    fn set_column_bounds(
        &mut self,
        column: usize,
        lower: f64,
        upper: f64,
    ) -> Result<(), SolverError> {
        self.inner.set_column_bounds(column, lower, upper)
    }

    fn solve(&mut self, time_limit: Option<f64>) -> Result<Option<LpSolution>, SolverError> {
        self.solves += 1;
        if self.fail_at == 0 || self.solves == self.fail_at {
            return Ok(None);
        }
        self.inner.solve(time_limit)
    }
}

/// A failed LP solve is answered by a fresh LP with the same rows: the certificates
/// still pass; an LP that always fails ends the pass with an error, never a
/// certificate.
#[test]
fn a_failed_lp_solve_is_retried_on_a_fresh_lp() {
    let mut fresh = 0;
    for seed in 0..6 {
        let table = larger_table(seed);
        let optimum = solve_dp(&table, &DpOptions::default()).unwrap();
        let lps = FailingLps {
            highs: HighsBackend::default(),
            fail_at: 3,
        };
        let certified = certify_on(&lps, &table, &optimum.dag).unwrap();
        let check = certified.certificate.check(&table).unwrap();
        assert!(check.gap() <= 1e-6, "seed {seed}");
        fresh += certified.fresh_lps;
    }
    assert!(fresh > 0, "no pass met a failed solve");
    let table = larger_table(0);
    let optimum = solve_dp(&table, &DpOptions::default()).unwrap();
    let lps = FailingLps {
        highs: HighsBackend::default(),
        fail_at: 0,
    };
    let failed = certify_on(&lps, &table, &optimum.dag);
    assert!(
        matches!(&failed, Err(CertifyError::Numerical(m)) if m.contains("nor a fresh one")),
        "{failed:?}"
    );
}
