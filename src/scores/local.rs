//! Local scores of a family: BDeu(α) and BIC, in natural log, higher is better.
//!
//! Conventions (SPEC §3, equal to pgmpy's and pygobnilp's):
//! - BIC(X | Π) = LL − (ln N / 2)·(r − 1)·q, with LL the maximised log-likelihood
//!   Σ_jk N_jk ln(N_jk / N_j), r the child's arity and q the number of joint parent
//!   states computed from the arities (declared where the input declares them).
//! - BDeu(X | Π) = Σ_j [lnΓ(α/q) − lnΓ(α/q + N_j)] + Σ_jk [lnΓ(α/(rq) + N_jk) − lnΓ(α/(rq))]
//!   (Liao et al. 2019, "Scoring Functions"); terms with zero counts vanish.
//!
//! Both split into a term of the variable set S = Π ∪ {X} minus the same term of Π:
//! with R(S) the number of joint states of S and n_c the non-zero cell counts of S,
//! F(S) = Σ_c [lnΓ(α/R(S) + n_c) − lnΓ(α/R(S))] and G(S) = Σ_c n_c ln n_c,
//! BDeu(X | Π) = F(Π ∪ {X}) − F(Π) and LL(X | Π) = G(Π ∪ {X}) − G(Π).
//! [`SetStats`] holds F and G of one set, so each set is counted once however many
//! families share it.

use super::counts::count_extensions;
use crate::data::DataSet;
use bnsl_formulations::{Dag, DagError};
use libm::lgamma;
use rustc_hash::FxHashMap;
use std::cell::RefCell;

/// Which decomposable score to compute.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ScoreKind {
    /// BDeu with equivalent sample size `ess` (> 0).
    Bdeu {
        /// The equivalent sample size.
        ess: f64,
    },
    /// The Bayesian information criterion (BIC/MDL).
    Bic,
}

impl std::fmt::Display for ScoreKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScoreKind::Bdeu { ess } => write!(f, "BDeu (ess {ess})"),
            ScoreKind::Bic => write!(f, "BIC"),
        }
    }
}

/// What counting one variable set yields.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SetStats {
    /// F(S): the BDeu term (0 for BIC).
    pub bdeu_term: f64,
    /// G(S) = Σ n ln n over the non-zero cells.
    pub n_log_n: f64,
    /// Number of joint configurations of S that occur in the data.
    pub occurring: usize,
}

/// What scoring a family yields: its score and the quantities the pruning rules use.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FamilyScore {
    /// The local score.
    pub score: f64,
    /// Maximised log-likelihood Σ_jk N_jk ln(N_jk/N_j) = −N·H(X | Π) (empirical).
    pub log_likelihood: f64,
    /// Number of parent configurations that occur in the data (`r⁺` of Liao et al. 2019, Thm 4).
    pub occurring_configs: usize,
}

/// Counts below this use a per-`a` table of lnΓ(a + n) − lnΓ(a).
const LGAMMA_TABLE: usize = 512;

thread_local! {
    static LGAMMA_CACHE: RefCell<FxHashMap<u64, Box<[f64]>>> = RefCell::new(FxHashMap::default());
}

/// Computes local scores of families of one data set.
pub struct LocalScorer<'a> {
    data: &'a DataSet,
    arities: Vec<usize>,
    kind: ScoreKind,
    n_log_n: Vec<f64>,
}

impl<'a> LocalScorer<'a> {
    /// A scorer for `data` using its variables' arities.
    pub fn new(data: &'a DataSet, kind: ScoreKind) -> Self {
        let arities = data.arities();
        let n_log_n = (0..=data.n_rows())
            .map(|c| {
                if c == 0 {
                    0.0
                } else {
                    c as f64 * (c as f64).ln()
                }
            })
            .collect();
        LocalScorer {
            data,
            arities,
            kind,
            n_log_n,
        }
    }

    /// The data set.
    pub fn data(&self) -> &DataSet {
        self.data
    }

    /// The arity of every variable.
    pub fn arities(&self) -> &[usize] {
        &self.arities
    }

    /// The score being computed.
    pub fn kind(&self) -> ScoreKind {
        self.kind
    }

    /// Number of joint states of `vars`, as a float (it may exceed any integer type).
    pub fn joint_states(&self, vars: &[usize]) -> f64 {
        vars.iter().map(|&p| self.arities[p] as f64).product()
    }

    /// The BIC penalty weight `w = ln N / 2`.
    pub fn bic_weight(&self) -> f64 {
        (self.data.n_rows() as f64).ln() / 2.0
    }

    /// Counts the variable set `vars` and returns its F, G and occurring configurations.
    pub fn set_stats(&self, vars: &[usize]) -> SetStats {
        match vars.split_last() {
            None => self.empty_set_stats(),
            Some((&last, prefix)) => self.extension_stats(prefix, &[last]).remove(0),
        }
    }

    /// The stats of the empty set: one configuration holding all N rows.
    fn empty_set_stats(&self) -> SetStats {
        let rows = self.data.n_rows();
        let bdeu_term = match self.kind {
            ScoreKind::Bic => 0.0,
            ScoreKind::Bdeu { ess } => lgamma(ess + rows as f64) - lgamma(ess),
        };
        SetStats {
            bdeu_term,
            n_log_n: self.n_log_n[rows],
            occurring: usize::from(rows > 0),
        }
    }

    /// The stats of `prefix ∪ {v}` for every `v` in `extensions`, counted together (see
    /// [`count_extensions`]).
    pub fn extension_stats(&self, prefix: &[usize], extensions: &[usize]) -> Vec<SetStats> {
        let prefix_states = self.joint_states(prefix);
        let mut out = vec![
            SetStats {
                bdeu_term: 0.0,
                n_log_n: 0.0,
                occurring: 0
            };
            extensions.len()
        ];
        let alphas: Vec<f64> = match self.kind {
            ScoreKind::Bic => Vec::new(),
            ScoreKind::Bdeu { ess } => extensions
                .iter()
                .map(|&v| ess / (prefix_states * self.arities[v] as f64))
                .collect(),
        };
        with_lgamma_tables(&alphas, |tables| {
            count_extensions(self.data, &self.arities, prefix, extensions, |i, c| {
                let st = &mut out[i];
                st.n_log_n += self.n_log_n[c as usize];
                st.occurring += 1;
                if let Some(table) = tables.get(i) {
                    st.bdeu_term += table
                        .get(c as usize)
                        .copied()
                        .unwrap_or_else(|| lgamma(alphas[i] + c as f64) - table[0]);
                }
            })
        });
        out
    }

    /// Scores the family (`child`, `parents`) from the stats of `parents ∪ {child}` and of
    /// `parents`.
    pub fn family_from_stats(
        &self,
        child: usize,
        parent_states: f64,
        family: &SetStats,
        parents: &SetStats,
    ) -> FamilyScore {
        let log_likelihood = family.n_log_n - parents.n_log_n;
        let score = match self.kind {
            ScoreKind::Bic => {
                log_likelihood
                    - self.bic_weight() * (self.arities[child] as f64 - 1.0) * parent_states
            }
            ScoreKind::Bdeu { .. } => family.bdeu_term - parents.bdeu_term,
        };
        FamilyScore {
            score,
            log_likelihood,
            occurring_configs: parents.occurring,
        }
    }

    /// The total score of `dag` on the data: the sum of its families' local scores.
    /// A DAG with a directed cycle is refused with the cycle's variable names.
    pub fn score_dag(&self, dag: &Dag) -> Result<f64, DagError> {
        let names = self.data.names();
        if dag.n() != names.len() {
            return Err(DagError::SizeMismatch {
                dag: dag.n(),
                table: names.len(),
            });
        }
        if let Err(cycle) = dag.topological_order() {
            return Err(DagError::Cycle(
                cycle.iter().map(|&v| names[v].clone()).collect(),
            ));
        }
        Ok((0..dag.n())
            .map(|v| self.score(v, &dag.parents(v).to_vec()).score)
            .sum())
    }

    /// Scores the family (`child`, `parents`) directly (two counting passes).
    pub fn score(&self, child: usize, parents: &[usize]) -> FamilyScore {
        let mut family: Vec<usize> = parents.to_vec();
        family.push(child);
        let fam = self.set_stats(&family);
        let par = self.set_stats(parents);
        self.family_from_stats(child, self.joint_states(parents), &fam, &par)
    }
}

/// Runs `f` with, for each `a` in `alphas`, the table t[n] = lnΓ(a + n) − lnΓ(a) for
/// n < [`LGAMMA_TABLE`] (t[0] holds lnΓ(a) itself, for counts beyond the table); tables
/// are built once per thread and `a`.
fn with_lgamma_tables<R>(alphas: &[f64], f: impl FnOnce(&[&[f64]]) -> R) -> R {
    LGAMMA_CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        for &a in alphas {
            cache.entry(a.to_bits()).or_insert_with(|| {
                let base = lgamma(a);
                let mut t: Vec<f64> = (0..LGAMMA_TABLE)
                    .map(|n| lgamma(a + n as f64) - base)
                    .collect();
                t[0] = base;
                t.into_boxed_slice()
            });
        }
        let tables: Vec<&[f64]> = alphas.iter().map(|a| &*cache[&a.to_bits()]).collect();
        f(&tables)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Variable;
    use bnsl_formulations::VarSet;

    fn data() -> DataSet {
        let vars = vec![Variable::with_arity("a", 2), Variable::with_arity("b", 3)];
        DataSet::new(vars, vec![vec![0, 1, 1, 0, 1, 1], vec![0, 2, 2, 1, 0, 2]])
    }

    #[test]
    fn a_dag_scores_the_sum_of_its_families_and_a_cycle_is_refused() {
        let d = data();
        let s = LocalScorer::new(&d, ScoreKind::Bic);
        let mut dag = Dag::empty(2);
        dag.set_parents(0, VarSet::from_members(2, [1]));
        let want = s.score(0, &[1]).score + s.score(1, &[]).score;
        assert!((s.score_dag(&dag).unwrap() - want).abs() < 1e-12);
        dag.set_parents(1, VarSet::from_members(2, [0]));
        match s.score_dag(&dag) {
            Err(DagError::Cycle(mut names)) => {
                names.sort();
                assert_eq!(names, ["a", "b"]);
            }
            other => panic!("a 2-cycle scored: {other:?}"),
        }
        assert!(matches!(
            s.score_dag(&Dag::empty(3)),
            Err(DagError::SizeMismatch { dag: 3, table: 2 })
        ));
    }

    #[test]
    fn bic_by_hand() {
        let d = data();
        let s = LocalScorer::new(&d, ScoreKind::Bic);
        // a alone: counts 2 and 4 of 6.
        let ll = 2.0 * (2.0f64 / 6.0).ln() + 4.0 * (4.0f64 / 6.0).ln();
        let got = s.score(0, &[]);
        assert!((got.log_likelihood - ll).abs() < 1e-12);
        assert!((got.score - (ll - 6f64.ln() / 2.0)).abs() < 1e-12);
        // a | b: b=0 → a {0,1}; b=1 → a {0}; b=2 → a {1,1,1}; penalty (2−1)·3·w.
        let ll = 2.0 * (0.5f64).ln();
        let got = s.score(0, &[1]);
        assert!((got.score - (ll - 1.5 * 6f64.ln())).abs() < 1e-12);
    }

    #[test]
    fn bdeu_by_hand() {
        let d = data();
        let s = LocalScorer::new(&d, ScoreKind::Bdeu { ess: 1.0 });
        // a alone, α = 1, q = 1, r = 2: lnΓ(1) − lnΓ(7) + lnΓ(0.5+2) + lnΓ(0.5+4) − 2 lnΓ(0.5)
        let want = lgamma(1.0) - lgamma(7.0) + lgamma(2.5) + lgamma(4.5) - 2.0 * lgamma(0.5);
        assert!((s.score(0, &[]).score - want).abs() < 1e-12);
        // With parent b (q = 3, a_j = 1/3, a_jk = 1/6): configs b=0 (a:1,1), b=1 (a:1), b=2 (a=1 ×3)
        let (aj, ajk) = (1.0 / 3.0, 1.0 / 6.0);
        let want = 3.0 * lgamma(aj) - lgamma(aj + 2.0) - lgamma(aj + 1.0) - lgamma(aj + 3.0)
            + 3.0 * (lgamma(ajk + 1.0) - lgamma(ajk))
            + (lgamma(ajk + 3.0) - lgamma(ajk));
        let got = s.score(0, &[1]);
        assert!((got.score - want).abs() < 1e-12);
        assert_eq!(got.occurring_configs, 3);
    }

    #[test]
    fn large_counts_beyond_the_table() {
        let n = 3 * LGAMMA_TABLE;
        let col: Vec<u8> = (0..n).map(|i| (i % 3 == 0) as u8).collect();
        let d = DataSet::new(vec![Variable::with_arity("x", 2)], vec![col]);
        let s = LocalScorer::new(&d, ScoreKind::Bdeu { ess: 2.0 });
        let (n1, n0) = (LGAMMA_TABLE as f64, 2.0 * LGAMMA_TABLE as f64);
        let want = lgamma(2.0) - lgamma(2.0 + n as f64) + lgamma(1.0 + n1) + lgamma(1.0 + n0)
            - 2.0 * lgamma(1.0);
        assert!((s.score(0, &[]).score - want).abs() < 1e-9);
    }
}
