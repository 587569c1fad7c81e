//! Pruning keeps what it must (seed 002, Lemma 1 and Thms 1-4, Cor 1): with ε = 0 the
//! optimum is unchanged; with ε > 0 every dropped parent set is absent from every network
//! within ε of the optimum. Checked with the DP oracle on random data with dependencies.

use bnsl::data::{DataSet, Variable};
use bnsl::scores::{generate_candidates, CandidateOptions, LocalScorer, Pruning, ScoreKind};
use bnsl_formulations::{Candidate, ScoreTable};
use bnsl_solvers::dp::{solve_dp, DpError, DpOptions};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};

/// Random data: each column copies an earlier one with probability `dep`, else is uniform.
fn random_data(seed: u64, vars: usize, rows: usize, dep: f64) -> DataSet {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let arities: Vec<usize> = (0..vars).map(|_| rng.gen_range(2..=3)).collect();
    let mut cols: Vec<Vec<u8>> = Vec::new();
    for (v, &arity) in arities.iter().enumerate() {
        let src = if v > 0 {
            Some(rng.gen_range(0..v))
        } else {
            None
        };
        let col = (0..rows)
            .map(|r| match src {
                Some(s) if rng.gen_bool(dep) => cols[s][r] % arity as u8,
                _ => rng.gen_range(0..arity) as u8,
            })
            .collect();
        cols.push(col);
    }
    let variables = arities
        .iter()
        .enumerate()
        .map(|(i, &a)| Variable::with_arity(format!("x{i}"), a))
        .collect();
    DataSet::new(variables, cols)
}

fn table(scorer: &LocalScorer, limit: usize, pruning: Pruning) -> ScoreTable {
    generate_candidates(
        scorer,
        &CandidateOptions {
            max_parents: Some(limit),
            pruning,
            allowed_parents: None,
        },
        &|_| {},
    )
    .expect("fits in memory")
    .0
}

fn optimum(t: &ScoreTable) -> Option<f64> {
    match solve_dp(t, &DpOptions::default()) {
        Ok(r) => Some(r.score),
        Err(DpError::Infeasible) => None,
        Err(e) => panic!("{e}"),
    }
}

/// The best score of a network in which `v` has exactly the parents of `c`.
fn best_with(full: &ScoreTable, v: usize, c: &Candidate) -> Option<f64> {
    let (names, mut cands) = full.clone().into_parts();
    cands[v] = vec![c.clone()];
    optimum(&ScoreTable::new(names, cands).unwrap())
}

fn check(seed: u64, vars: usize, rows: usize, dep: f64, kind: ScoreKind, eps: f64) {
    let data = random_data(seed, vars, rows, dep);
    let scorer = LocalScorer::new(&data, kind);
    let limit = vars - 1;
    let full = table(&scorer, limit, Pruning::Off);
    let pruned = table(&scorer, limit, Pruning::Gap(eps));
    let opt = optimum(&full).expect("the empty graph is always feasible");
    assert!(
        (optimum(&pruned).unwrap() - opt).abs() < 1e-9,
        "pruning changed the optimum"
    );
    for v in 0..full.n() {
        for c in full.candidates(v) {
            match pruned.score_of(v, &c.parents) {
                Some(s) => assert_eq!(s, c.score),
                None => {
                    let best = best_with(&full, v, c).unwrap_or(f64::NEG_INFINITY);
                    assert!(best <= opt - eps + 1e-9, "{kind}: dropped {v} | {:?} appears in a network scoring {best} ≥ OPT − ε = {}", c.parents, opt - eps);
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn bic_pruning_is_safe(seed in any::<u64>(), rows in 20usize..300, dep in 0.0f64..0.9, eps in prop::sample::select(vec![0.0, 0.5, 3.0])) {
        check(seed, 5, rows, dep, ScoreKind::Bic, eps);
    }

    #[test]
    fn bdeu_pruning_is_safe(seed in any::<u64>(), rows in 20usize..300, dep in 0.0f64..0.9, eps in prop::sample::select(vec![0.0, 0.5, 3.0]), ess in prop::sample::select(vec![1.0, 10.0])) {
        check(seed, 5, rows, dep, ScoreKind::Bdeu { ess }, eps);
    }
}

#[test]
fn pruning_removes_sets_on_dependent_data() {
    let data = random_data(7, 6, 500, 0.7);
    for kind in [ScoreKind::Bic, ScoreKind::Bdeu { ess: 1.0 }] {
        let scorer = LocalScorer::new(&data, kind);
        let full = table(&scorer, 5, Pruning::Off).total_candidates();
        let pruned = table(&scorer, 5, Pruning::Gap(0.0)).total_candidates();
        let loose = table(&scorer, 5, Pruning::Gap(5.0)).total_candidates();
        assert_eq!(full, 6 * 32);
        assert!(
            pruned < full / 2 && pruned <= loose && loose <= full,
            "{kind}: {pruned} / {loose} / {full}"
        );
    }
}
