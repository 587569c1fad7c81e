//! The G² conditional-independence test of Ling et al. 2019 (§5: "the conditional independence
//! tests are G² tests with the statistical significance level of 0.01"), with a cache and
//! a counter.
//!
//! **Statistic.** For variables X, Y and a conditioning set Z, with N_xyz the count of the
//! joint configuration (x, y, z), G² = 2 Σ N_xyz ln(N_xyz N_z / (N_xz N_yz)), counted by
//! `stratified_g2`.
//!
//! **Degrees of freedom.** Adjusted for empty rows and columns: the sum over the strata z
//! that occur of (r⁺_X(z) − 1)(r⁺_Y(z) − 1), with r⁺ the number of states of X (Y) seen
//! in stratum z. The unadjusted (r_X − 1)(r_Y − 1) Π r_Z counts cells that cannot vary
//! and biases sparse tables towards independence (on a large sample of sachs it hides a
//! true edge; see README, "Benchmark notes behind design choices"); structural zeros are
//! what the adjustment removes. When no stratum has two states of both X and Y, df = 0 and the test finds
//! independence (p = 1), as pcalg and pyCausalFS do. The p-value is the χ²(df) survival
//! function at G² (statrs).
//!
//! **Sparse tables.** A test whose *unadjusted* df exceeds N / k, k = `min_rows_per_dof`
//! (too few rows per degree of freedom), is *not performed*: it is reported as
//! [`CiOutcome::Unreliable`], is not counted, and the algorithms treat it as no evidence
//! either way — it never establishes independence (so it removes nothing) and never
//! establishes dependence (so it adds nothing). The rule depends on the arities only, so
//! it is known before counting, and since df only grows with Z the subset searches stop
//! at the first size where no subset is testable. Default k = 5, the "heuristic power"
//! rule of Tsamardinos et al. (MMHC, 2006) and Causal Explorer.
//!
//! **Decision.** Independent when p > α, dependent when p ≤ α (α = 0.01 by default).

use super::contingency::stratified_g2;
use super::MbError;
use crate::data::DataSet;
use rustc_hash::{FxHashMap, FxHashSet};
use statrs::distribution::{ChiSquared, ContinuousCDF};

/// Default significance level (Ling et al. 2019, §5).
pub const DEFAULT_ALPHA: f64 = 0.01;
/// Default number of rows per degree of freedom below which a test is not performed.
pub const DEFAULT_MIN_ROWS_PER_DOF: f64 = 5.0;

/// Settings of the test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CiOptions {
    /// Significance level α in (0, 1).
    pub alpha: f64,
    /// A test needs at least this many rows per degree of freedom (≥ 0).
    pub min_rows_per_dof: f64,
    /// Accept constant columns: such a variable is independent of everything (its tests
    /// have df = 0) and its blanket is empty. Off by default: a constant column is
    /// usually a mistake, and is refused.
    pub allow_constant: bool,
}

impl Default for CiOptions {
    fn default() -> Self {
        CiOptions {
            alpha: DEFAULT_ALPHA,
            min_rows_per_dof: DEFAULT_MIN_ROWS_PER_DOF,
            allow_constant: false,
        }
    }
}

impl CiOptions {
    /// Checks the ranges: α in (0, 1), rows per df finite and ≥ 0.
    pub fn validate(&self) -> Result<(), MbError> {
        if !(self.alpha > 0.0 && self.alpha < 1.0) {
            return Err(MbError::Option(format!(
                "the significance level must be in (0, 1), got {}",
                self.alpha
            )));
        }
        if !(self.min_rows_per_dof.is_finite() && self.min_rows_per_dof >= 0.0) {
            return Err(MbError::Option(format!(
                "the rows per degree of freedom must be a finite number ≥ 0, got {}",
                self.min_rows_per_dof
            )));
        }
        Ok(())
    }
}

/// The result of one performed test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GSquare {
    /// The statistic G² (≥ 0).
    pub g2: f64,
    /// Degrees of freedom, adjusted for empty rows and columns (may be 0).
    pub dof: f64,
    /// P(χ²(dof) ≥ G²).
    pub p_value: f64,
}

impl GSquare {
    /// Strength of dependence, for ranking variables ("dep(T, X | Z)" of Algorithm 1):
    /// ordered by p-value, smaller first; p-values that underflow to the same value are
    /// ordered by the Wilson–Hilferty normal score of G²/df, larger first. Larger keys
    /// are more dependent.
    pub fn strength(&self) -> (f64, f64) {
        let k = self.dof.max(1.0);
        let z = ((self.g2 / k).cbrt() - (1.0 - 2.0 / (9.0 * k))) / (2.0 / (9.0 * k)).sqrt();
        (-self.p_value, z)
    }
}

/// The outcome of asking for a test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CiOutcome {
    /// Too few rows per degree of freedom: the test was not performed.
    Unreliable,
    /// The test was performed.
    Tested(GSquare),
}

/// Canonical key of a test: the unordered pair and the sorted conditioning set.
type TestKey = (usize, usize, Box<[usize]>);

/// G² tests on one data set, with a cache of tests.
///
/// Counters: [`CiTester::performed`] counts the distinct tests computed from the data in
/// this tester's life (a test is never computed twice); [`CiTester::take_requested`]
/// returns and resets the number of distinct performed tests asked for since the last
/// call — the per-target count reported by `bnsl mb`, comparable to Ling et al.'s "CI tests"
/// even when another target already computed some of them.
pub struct CiTester<'d> {
    data: &'d DataSet,
    arities: Vec<usize>,
    opts: CiOptions,
    rows: f64,
    tests: FxHashMap<TestKey, CiOutcome>,
    requested: FxHashSet<TestKey>,
    performed: u64,
}

impl<'d> CiTester<'d> {
    /// A tester for `data`, which must have at least 2 rows and, unless
    /// [`CiOptions::allow_constant`], no constant column (see [`check_data`]).
    pub fn new(data: &'d DataSet, opts: CiOptions) -> Result<Self, MbError> {
        opts.validate()?;
        check_data(data, opts.allow_constant)?;
        Ok(CiTester {
            data,
            arities: data.arities(),
            opts,
            rows: data.n_rows() as f64,
            tests: FxHashMap::default(),
            requested: FxHashSet::default(),
            performed: 0,
        })
    }

    /// The data set.
    pub fn data(&self) -> &'d DataSet {
        self.data
    }

    /// The settings.
    pub fn options(&self) -> CiOptions {
        self.opts
    }

    /// Unadjusted degrees of freedom (r_X − 1)(r_Y − 1) Π r_Z of the test of `x` and `y`
    /// given `z`: what the sparse-table rule judges.
    pub fn full_dof(&self, x: usize, y: usize, z: &[usize]) -> f64 {
        let a = &self.arities;
        let states: f64 = z.iter().map(|&v| a[v] as f64).product();
        (a[x] as f64 - 1.0) * (a[y] as f64 - 1.0) * states
    }

    /// Whether the test of `x` and `y` given `z` has enough rows to be performed.
    pub fn testable(&self, x: usize, y: usize, z: &[usize]) -> bool {
        let z = normalise(x, y, z);
        self.rows >= self.opts.min_rows_per_dof * self.full_dof(x, y, &z)
    }

    /// The test of `x` ⊥ `y` | `z` (z is read as a set: order, repeats and members equal
    /// to `x` or `y` do not matter). Computed once per run, then read from the cache.
    pub fn test(&mut self, x: usize, y: usize, z: &[usize]) -> CiOutcome {
        assert_ne!(x, y, "a variable is not tested against itself");
        let z = normalise(x, y, z);
        let key: TestKey = (x.min(y), x.max(y), z.into_boxed_slice());
        let outcome = match self.tests.get(&key) {
            Some(&o) => o,
            None => {
                let o = self.compute(x, y, &key.2);
                self.tests.insert(key.clone(), o);
                o
            }
        };
        if matches!(outcome, CiOutcome::Tested(_)) {
            self.requested.insert(key);
        }
        outcome
    }

    /// True when the test is performed and finds independence (p > α).
    pub fn independent(&mut self, x: usize, y: usize, z: &[usize]) -> bool {
        let alpha = self.opts.alpha;
        matches!(self.test(x, y, z), CiOutcome::Tested(g) if g.p_value > alpha)
    }

    /// True when the test is performed and finds dependence (p ≤ α).
    pub fn dependent(&mut self, x: usize, y: usize, z: &[usize]) -> bool {
        let alpha = self.opts.alpha;
        matches!(self.test(x, y, z), CiOutcome::Tested(g) if g.p_value <= alpha)
    }

    /// The strength of dependence of `x` and `y` given `z` (see [`GSquare::strength`]);
    /// an unreliable test ranks below every performed one.
    pub fn strength(&mut self, x: usize, y: usize, z: &[usize]) -> (f64, f64) {
        match self.test(x, y, z) {
            CiOutcome::Tested(g) => g.strength(),
            CiOutcome::Unreliable => (f64::NEG_INFINITY, f64::NEG_INFINITY),
        }
    }

    /// Number of distinct tests computed from the data so far.
    pub fn performed(&self) -> u64 {
        self.performed
    }

    /// Number of distinct performed tests asked for since the last call; resets it.
    pub fn take_requested(&mut self) -> u64 {
        let k = self.requested.len() as u64;
        self.requested.clear();
        k
    }

    fn compute(&mut self, x: usize, y: usize, z: &[usize]) -> CiOutcome {
        if self.rows < self.opts.min_rows_per_dof * self.full_dof(x, y, z) {
            return CiOutcome::Unreliable;
        }
        self.performed += 1;
        let s = stratified_g2(self.data, &self.arities, x, y, z);
        let p_value = if s.dof > 0.0 {
            ChiSquared::new(s.dof)
                .expect("a positive number of degrees of freedom")
                .sf(s.g2)
        } else {
            1.0
        };
        CiOutcome::Tested(GSquare {
            g2: s.g2,
            dof: s.dof,
            p_value,
        })
    }
}

/// Refuses data the tests cannot use: fewer than 2 rows, or (unless `allow_constant`) a
/// column that takes a single value (its tests would have no degree of freedom).
pub fn check_data(data: &DataSet, allow_constant: bool) -> Result<(), MbError> {
    if data.n_rows() < 2 {
        return Err(MbError::Data(format!(
            "independence tests need at least 2 rows, the data set has {}",
            data.n_rows()
        )));
    }
    for v in (0..data.n_vars()).filter(|_| !allow_constant) {
        let col = data.column(v);
        if col.iter().all(|&s| s == col[0]) {
            return Err(MbError::Data(format!(
                "column `{}` is constant (every row has state `{}`): it cannot be tested for independence (drop it, or accept it with --allow-constant)",
                data.variables()[v].name,
                data.variables()[v].states[col[0] as usize]
            )));
        }
    }
    Ok(())
}

/// The conditioning set as a sorted set without `x` and `y`.
fn normalise(x: usize, y: usize, z: &[usize]) -> Vec<usize> {
    let mut z: Vec<usize> = z.iter().copied().filter(|&v| v != x && v != y).collect();
    z.sort_unstable();
    z.dedup();
    z
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Variable;

    /// 12 rows: x (2 states), y (3 states), z (2 states).
    fn data() -> DataSet {
        let vars = vec![
            Variable::with_arity("x", 2),
            Variable::with_arity("y", 3),
            Variable::with_arity("z", 2),
        ];
        let cols = vec![
            vec![0, 0, 0, 1, 1, 1, 0, 1, 0, 1, 1, 0],
            vec![0, 1, 2, 0, 1, 2, 0, 0, 1, 2, 2, 2],
            vec![0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1],
        ];
        DataSet::new(vars, cols)
    }

    fn tester(d: &DataSet) -> CiTester<'_> {
        let opts = CiOptions {
            alpha: 0.05,
            min_rows_per_dof: 0.0,
            allow_constant: false,
        };
        CiTester::new(d, opts).unwrap()
    }

    fn tested(o: CiOutcome) -> GSquare {
        match o {
            CiOutcome::Tested(g) => g,
            CiOutcome::Unreliable => panic!("test not performed"),
        }
    }

    /// Reference values from scipy 1.17:
    /// `chi2_contingency(t, correction=False, lambda_="log-likelihood")` on the tables
    /// below (per stratum of z, summed, for the conditional test).
    #[test]
    fn g2_matches_scipy() {
        let d = data();
        let mut t = tester(&d);
        // x × y marginal table [[2,2,2],[2,1,3]].
        let g = tested(t.test(0, 1, &[]));
        assert!((g.g2 - 0.5411532090976833).abs() < 1e-12, "{g:?}");
        assert_eq!(g.dof, 2.0);
        assert!((g.p_value - 0.7629394531250001).abs() < 1e-12, "{g:?}");
        // x × y | z: z=0 [[1,1,1],[1,1,1]] (G² 0); z=1 [[1,1,1],[1,0,2]].
        let g = tested(t.test(0, 1, &[2]));
        assert!((g.g2 - 1.7260924347106852).abs() < 1e-12, "{g:?}");
        assert_eq!(g.dof, 4.0);
        assert!((g.p_value - 0.7859726229467854).abs() < 1e-12, "{g:?}");
    }

    #[test]
    fn tests_are_symmetric_cached_and_counted() {
        let d = data();
        let mut t = tester(&d);
        let a = t.test(0, 1, &[2]);
        assert_eq!(t.test(1, 0, &[2, 2, 0]), a);
        assert_eq!(t.performed(), 1);
        assert_eq!(t.take_requested(), 1);
        assert_eq!(t.take_requested(), 0);
        t.test(0, 1, &[2]);
        assert_eq!((t.performed(), t.take_requested()), (1, 1));
    }

    #[test]
    fn sparse_tables_are_not_tested() {
        let d = data();
        let opts = CiOptions {
            alpha: 0.05,
            min_rows_per_dof: 5.0,
            allow_constant: false,
        };
        let mut t = CiTester::new(&d, opts).unwrap();
        // df 2 needs 10 rows (12 available); df 4 needs 20.
        assert!(t.testable(0, 1, &[]));
        assert!(!t.testable(0, 1, &[2]));
        assert_eq!(t.test(0, 1, &[2]), CiOutcome::Unreliable);
        assert!(!t.independent(0, 1, &[2]) && !t.dependent(0, 1, &[2]));
        assert_eq!((t.performed(), t.take_requested()), (0, 0));
        assert!(t.independent(0, 1, &[]));
    }

    #[test]
    fn strong_dependence_ranks_above_weak() {
        // y copies x in 40 rows, z is x with every third value flipped.
        let x: Vec<u8> = (0..60).map(|i| (i % 2) as u8).collect();
        let z: Vec<u8> = x
            .iter()
            .enumerate()
            .map(|(i, &v)| if i % 3 == 0 { 1 - v } else { v })
            .collect();
        let vars = ["x", "y", "z"].map(|n| Variable::with_arity(n, 2)).to_vec();
        let d = DataSet::new(vars, vec![x.clone(), x, z]);
        let mut t = tester(&d);
        assert!(t.strength(0, 1, &[]) > t.strength(0, 2, &[]));
        assert!(t.dependent(0, 1, &[]) && t.dependent(0, 2, &[]));
    }

    #[test]
    fn bad_data_and_options_are_refused() {
        let vars = vec![Variable::with_arity("a", 2), Variable::with_arity("b", 2)];
        let one_row = DataSet::new(vars.clone(), vec![vec![0], vec![1]]);
        let e = CiTester::new(&one_row, CiOptions::default()).err().unwrap();
        assert!(e.to_string().contains("at least 2 rows"), "{e}");
        let constant = DataSet::new(vars, vec![vec![0, 1, 0], vec![1, 1, 1]]);
        let e = CiTester::new(&constant, CiOptions::default())
            .err()
            .unwrap();
        assert!(e.to_string().contains("column `b` is constant"), "{e}");
        let allow = CiOptions {
            allow_constant: true,
            min_rows_per_dof: 0.0,
            ..Default::default()
        };
        let mut t = CiTester::new(&constant, allow).unwrap();
        assert!(t.independent(0, 1, &[]));
        let d = data();
        for alpha in [0.0, 1.0, f64::NAN] {
            let opts = CiOptions {
                alpha,
                ..Default::default()
            };
            assert!(CiTester::new(&d, opts).is_err());
        }
    }
}
