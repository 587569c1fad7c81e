use super::*;
use crate::dp::{solve_dp, DpOptions};
use crate::test_tables::arb_table;
use bnsl_formulations::maxsat::bnsl::encode_bnsl;
use bnsl_formulations::maxsat::cost_bound::bounded_cost_cnf;
use bnsl_formulations::maxsat::Lit;
use proptest::prelude::*;

/// The least cost of `wcnf` over every assignment, `None` when the hard clauses have no
/// model.
fn brute_force(wcnf: &Wcnf) -> Option<u64> {
    let n = wcnf.num_vars as usize;
    (0u32..1 << n)
        .filter_map(|bits| {
            let value: Vec<bool> = (0..=n).map(|v| v > 0 && bits >> (v - 1) & 1 == 1).collect();
            wcnf.cost(&value)
        })
        .min()
}

fn solve(wcnf: &Wcnf, algorithm: MaxSatAlgorithm) -> MaxSatResult {
    let options = MaxSatOptions {
        algorithm,
        ..Default::default()
    };
    solve_maxsat(wcnf, &options, &|_| {})
}

fn arb_clause(vars: u32, len: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = Vec<Lit>> {
    proptest::collection::vec((1..=vars as Lit, any::<bool>()), len).prop_map(|lits| {
        lits.into_iter()
            .map(|(v, s)| if s { v } else { -v })
            .collect()
    })
}

/// Small random formulas: weights small or near 2^40, soft clauses unit or not.
fn arb_wcnf() -> impl Strategy<Value = Wcnf> {
    (1u32..=9).prop_flat_map(|vars| {
        let weight = prop_oneof![1u64..20, (1u64 << 40)..(1u64 << 40) + 50];
        (
            proptest::collection::vec(arb_clause(vars, 1..=3), 0..8),
            proptest::collection::vec((weight, arb_clause(vars, 1..=2)), 0..10),
        )
            .prop_map(move |(hard, soft)| Wcnf {
                num_vars: vars,
                hard,
                soft,
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn both_algorithms_find_the_brute_force_optimum(wcnf in arb_wcnf()) {
        let best = brute_force(&wcnf);
        for algorithm in [MaxSatAlgorithm::Oll, MaxSatAlgorithm::Lsu] {
            let result = solve(&wcnf, algorithm);
            match best {
                None => prop_assert_eq!(result.status, MaxSatStatus::Unsatisfiable),
                Some(best) => {
                    prop_assert_eq!(result.status, MaxSatStatus::Optimal, "{:?}", algorithm);
                    prop_assert_eq!(result.cost, Some(best), "{:?}", algorithm);
                    prop_assert_eq!(result.lower_bound, best);
                    let model = result.model.as_ref().expect("a model");
                    prop_assert_eq!(wcnf.cost(model), Some(best));
                }
            }
        }
    }

    #[test]
    fn the_cost_bound_holds_exactly_for_cheap_enough_assignments(
        wcnf in arb_wcnf(), slack in 0u64..3, below in any::<bool>()
    ) {
        let Some(best) = brute_force(&wcnf) else { return Ok(()) };
        let bound = if below { best.saturating_sub(slack + 1) } else { best + slack };
        let (num_vars, clauses) = bounded_cost_cnf(&wcnf, bound);
        let formula = Wcnf { num_vars, hard: clauses, soft: Vec::new() };
        let satisfiable = solve(&formula, MaxSatAlgorithm::Oll).status == MaxSatStatus::Optimal;
        prop_assert_eq!(satisfiable, best <= bound, "best {} bound {}", best, bound);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn the_bnsl_encoding_solves_to_the_dp_optimum(table in arb_table(6)) {
        let encoding = encode_bnsl(&table);
        let dp = solve_dp(&table, &DpOptions::default()).expect("a DAG");
        let map = encoding.family_map(&table);
        for algorithm in [MaxSatAlgorithm::Oll, MaxSatAlgorithm::Lsu] {
            let result = solve(&encoding.wcnf, algorithm);
            prop_assert_eq!(result.status, MaxSatStatus::Optimal);
            let (dag, score) = map.decode(result.model.as_ref().expect("a model")).expect("a DAG");
            prop_assert!((score - dp.score).abs() < 1e-6, "{:?}: {} vs {}", algorithm, score, dp.score);
            prop_assert!((dag.check(&table).expect("valid") - score).abs() < 1e-9);
        }
    }
}

#[test]
fn a_stopped_solve_reports_what_it_has() {
    let wcnf = Wcnf {
        num_vars: 2,
        hard: vec![vec![1, 2]],
        soft: vec![(3, vec![-1]), (5, vec![-2])],
    };
    let stop = StopToken::new();
    stop.stop();
    let options = MaxSatOptions {
        stop,
        ..Default::default()
    };
    let result = solve_maxsat(&wcnf, &options, &|_| {});
    assert_eq!(result.status, MaxSatStatus::Unknown);
    assert_eq!(result.sat_calls, 0);
}

#[test]
fn progress_sees_the_bounds_meet() {
    let wcnf = Wcnf {
        num_vars: 3,
        hard: vec![vec![1, 2], vec![2, 3], vec![1, 3]],
        soft: vec![(3, vec![-1]), (5, vec![-2]), (7, vec![-3])],
    };
    for algorithm in [MaxSatAlgorithm::Oll, MaxSatAlgorithm::Lsu] {
        let seen = std::sync::Mutex::new(Vec::new());
        let options = MaxSatOptions {
            algorithm,
            ..Default::default()
        };
        let result = solve_maxsat(&wcnf, &options, &|p| seen.lock().unwrap().push(p.clone()));
        assert_eq!(result.cost, Some(8), "{algorithm:?}");
        let seen = seen.into_inner().unwrap();
        let last = seen.last().expect("progress");
        assert_eq!(last.upper_bound, Some(8));
        assert!(seen
            .windows(2)
            .all(|w| w[0].lower_bound <= w[1].lower_bound));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    /// The bound "cost ≤ optimum − 1" is refuted by varisat, and the checker accepts its
    /// proof; without its last half the proof is refused.
    #[test]
    fn refutations_of_cheaper_costs_check(table in arb_table(5)) {
        let encoding = encode_bnsl(&table);
        let best = solve(&encoding.wcnf, MaxSatAlgorithm::Oll).cost.expect("a DAG");
        prop_assume!(best > 0);
        let (num_vars, clauses) = bounded_cost_cnf(&encoding.wcnf, best - 1);
        let mut proof = Vec::new();
        let outcome = proof::refute(&clauses, &mut proof, None, &StopToken::new()).unwrap();
        prop_assert_eq!(outcome, proof::Refutation::Refuted);
        let text = String::from_utf8(proof).unwrap();
        prop_assert!(crate::drat::check_drat(num_vars, &clauses, &text).is_ok());
        let (_, at_cost) = bounded_cost_cnf(&encoding.wcnf, best);
        let mut none = Vec::new();
        let outcome = proof::refute(&at_cost, &mut none, None, &StopToken::new()).unwrap();
        prop_assert_eq!(outcome, proof::Refutation::Satisfiable);
    }
}
