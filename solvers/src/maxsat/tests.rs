use super::*;
use crate::dp::{solve_dp, DpOptions};
use crate::test_tables::{arb_table, brute_force_within_width};
use bnsl_formulations::maxsat::bnsl::{encode_bnsl, BnslEncoding};
use bnsl_formulations::maxsat::cost_bound::bounded_cost_cnf;
use bnsl_formulations::maxsat::treewidth::encode_bounded_treewidth;
use bnsl_formulations::maxsat::Lit;
use bnsl_formulations::treewidth::{moral_graph, treewidth, TreewidthLimits};
use bnsl_formulations::{Candidate, Dag, ScoreTable, StructuralConstraints, VarSet};
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
    solve_maxsat(wcnf, &options, &|_| {}).expect("a MILP back-end is compiled in")
}

/// Every algorithm this build can run: `ihs` needs a MILP back-end.
fn algorithms() -> Vec<MaxSatAlgorithm> {
    let mut all = vec![MaxSatAlgorithm::Oll, MaxSatAlgorithm::Lsu];
    if default_hitting_set_backend().is_some() {
        all.push(MaxSatAlgorithm::Ihs);
    }
    all
}

/// The hitting-set search with its hitting sets from `backend`.
fn ihs_on(backend: Arc<dyn crate::milp::MilpBackend>) -> MaxSatOptions {
    MaxSatOptions {
        algorithm: MaxSatAlgorithm::Ihs,
        hitting_sets: Some(HittingSetBackend(backend)),
        ..Default::default()
    }
}

/// The network of `result`'s model in `encoding` of `table`, and its score.
fn decoded(encoding: &BnslEncoding, table: &ScoreTable, result: &MaxSatResult) -> (Dag, f64) {
    encoding
        .family_map(table)
        .decode(result.model.as_ref().expect("a model"))
        .expect("a DAG")
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
    fn every_algorithm_finds_the_brute_force_optimum(wcnf in arb_wcnf()) {
        let best = brute_force(&wcnf);
        for algorithm in algorithms() {
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
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// The hitting sets are as cheap as the back-end's relative tolerances tell (ihs's
    /// module docs): exactly the optimum below 10^9, within 10^−9 of it above (weights
    /// near 2^40 that every model pays), and exactly where a heavy weight need not be
    /// paid (the incumbent keeps its column out of the program).
    #[test]
    fn hitting_sets_from_every_back_end_reach_the_brute_force_optimum(wcnf in arb_wcnf()) {
        let best = brute_force(&wcnf);
        for backend in crate::milp::backends() {
            let name = backend.name();
            let options = ihs_on(Arc::from(backend));
            let result = solve_maxsat(&wcnf, &options, &|_| {}).expect("a back-end is given");
            match best {
                None => prop_assert_eq!(result.status, MaxSatStatus::Unsatisfiable, "{}", name),
                Some(best) => {
                    let slack = (best as f64 * 1e-9) as u64;
                    prop_assert_eq!(result.status, MaxSatStatus::Optimal, "{}", name);
                    let cost = result.cost.expect("an optimal cost");
                    let model = result.model.as_ref().expect("a model");
                    prop_assert_eq!(wcnf.cost(model), Some(cost), "{}", name);
                    prop_assert!(cost >= best && cost - best <= slack, "{} cost {} best {}", name, cost, best);
                    prop_assert!(result.lower_bound <= cost, "{}", name);
                    prop_assert!(result.lower_bound.abs_diff(best) <= slack, "{} bound {} best {}", name, result.lower_bound, best);
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn the_bnsl_encoding_solves_to_the_dp_optimum(table in arb_table(6)) {
        let encoding = encode_bnsl(&table);
        let dp = solve_dp(&table, &DpOptions::default()).expect("a DAG");
        let map = encoding.family_map(&table);
        for algorithm in algorithms() {
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
    let result = solve_maxsat(&wcnf, &options, &|_| {}).expect("a MILP back-end is compiled in");
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
    for algorithm in algorithms() {
        let seen = std::sync::Mutex::new(Vec::new());
        let options = MaxSatOptions {
            algorithm,
            ..Default::default()
        };
        let result = solve_maxsat(&wcnf, &options, &|p| seen.lock().unwrap().push(p.clone()))
            .expect("a MILP back-end is compiled in");
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

/// `table` without the candidates of more than `width` parents, as the bounded-treewidth
/// encoding takes it.
fn within_parent_limit(table: &ScoreTable, width: usize) -> ScoreTable {
    StructuralConstraints::default()
        .with_parent_limit(Some(width))
        .restrict(table)
        .expect("the empty set is a candidate")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// The bounded-treewidth encoding solves to the brute force's best DAG within the
    /// width, and its answer's moral graph has treewidth at most W.
    #[test]
    fn the_treewidth_encoding_solves_to_the_brute_force_optimum(
        table in arb_table(6), width in 1usize..=3
    ) {
        let narrow = within_parent_limit(&table, width);
        let encoding = encode_bounded_treewidth(&narrow, width).expect("parents within W");
        let result = solve(&encoding.wcnf, MaxSatAlgorithm::Oll);
        prop_assert_eq!(result.status, MaxSatStatus::Optimal);
        let (dag, score) = decoded(&encoding, &narrow, &result);
        let best = brute_force_within_width(&narrow, width);
        prop_assert!((score - best).abs() < 1e-6, "W={}: {} vs {}", width, score, best);
        let shown = treewidth(&moral_graph(&dag), &TreewidthLimits::default()).upper;
        prop_assert!(shown <= width);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Seeded with each node's candidates as a group, the hitting-set search of every
    /// back-end proves the DP's optimum of the plain encoding and the brute force's best
    /// DAG within the width of the bounded-treewidth one, its bound at its cost.
    #[test]
    fn seeded_hitting_sets_reach_the_optimum_of_both_encodings(
        table in arb_table(6), width in 1usize..=3
    ) {
        let narrow = within_parent_limit(&table, width);
        let plain = (encode_bnsl(&table), &table, solve_dp(&table, &DpOptions::default())
            .expect("a DAG").score);
        let bounded = (
            encode_bounded_treewidth(&narrow, width).expect("parents within W"),
            &narrow,
            brute_force_within_width(&narrow, width),
        );
        for (encoding, scored, best) in [plain, bounded] {
            let clusters = ClusterClauses::new(scored);
            for backend in crate::milp::backends() {
                let backend: Arc<dyn crate::milp::MilpBackend> = Arc::from(backend);
                for implied in [None, Some(&clusters as &dyn ImpliedClauses)] {
                    let name =
                        format!("{} (cluster clauses: {})", backend.name(), implied.is_some());
                    let options = ihs_on(Arc::clone(&backend));
                    let bounds = std::sync::Mutex::new(Vec::new());
                    let result = solve_maxsat_seeded(
                        &encoding.wcnf, &encoding.family_vars, implied, &options,
                        &|p| bounds.lock().unwrap().push(p.lower_bound),
                    )
                    .expect("a back-end is given");
                    prop_assert_eq!(result.status, MaxSatStatus::Optimal, "{}", name);
                    prop_assert_eq!(result.cost, Some(result.lower_bound), "{}", name);
                    // Every bound on the way (those of LP optima among them) is one.
                    let bounds = bounds.into_inner().unwrap();
                    prop_assert!(bounds.iter().all(|&b| b <= result.lower_bound), "{}", name);
                    let (_, score) = decoded(&encoding, scored, &result);
                    prop_assert!((score - best).abs() < 1e-6, "{}: {} vs {}", name, score, best);
                }
            }
        }
    }
}

#[test]
fn the_treewidth_encoding_refuses_families_wider_than_the_bound() {
    let table = crate::test_tables::table_from(3, &[vec![(0b110, -3)], vec![], vec![]]);
    let err = encode_bounded_treewidth(&table, 1).unwrap_err();
    assert_eq!(err.parents, 2);
    assert_eq!(err.node, "x0");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// With one candidate per node (a random DAG of 7 to 9 nodes), the treewidth encoding
    /// has a model exactly when the DAG's treewidth is at most W.
    #[test]
    fn the_treewidth_encoding_admits_exactly_the_dags_within_the_width(
        masks in proptest::collection::vec(any::<u32>(), 7..=9), width in 1usize..=4
    ) {
        let n = masks.len();
        let parents: Vec<VarSet> = masks
            .iter()
            .enumerate()
            .map(|(v, &m)| {
                let earlier: Vec<usize> = (0..v).filter(|u| m >> u & 1 == 1).collect();
                VarSet::from_members(n, earlier.into_iter().take(3))
            })
            .collect();
        let dag = Dag::from_parents(parents.clone());
        let tw = treewidth(&moral_graph(&dag), &TreewidthLimits::default()).upper;
        prop_assume!(parents.iter().all(|p| p.len() <= width));
        let candidates = parents
            .into_iter()
            .map(|p| vec![Candidate { parents: p, score: -1.0 }])
            .collect();
        let table = ScoreTable::new((0..n).map(|i| format!("x{i}")).collect(), candidates)
            .expect("a table");
        let encoding = encode_bounded_treewidth(&table, width).expect("parents within W");
        let result = solve(&encoding.wcnf, MaxSatAlgorithm::Oll);
        let fits = result.status == MaxSatStatus::Optimal;
        prop_assert_eq!(fits, tw <= width, "treewidth {} bound {}", tw, width);
    }
}

/// A back-end whose every solve fails, to see the failure reported.
struct FailingBackend;

impl crate::milp::MilpBackend for FailingBackend {
    fn name(&self) -> &'static str {
        "failing"
    }

    fn version(&self) -> String {
        "failing 0".to_string()
    }

    fn solve(
        &self,
        _: &bnsl_formulations::milp::MilpModel,
        _: &crate::milp::Limits,
    ) -> Result<crate::milp::MilpOutcome, crate::milp::SolverError> {
        Err(crate::milp::SolverError::Backend {
            backend: "failing",
            message: "out of licences".into(),
        })
    }

    fn with_params(
        &self,
        _: &[(String, String)],
    ) -> Result<Box<dyn crate::milp::MilpBackend>, crate::milp::SolverError> {
        Ok(Box::new(FailingBackend))
    }

    fn for_sub_ips(&self) -> Box<dyn crate::milp::MilpBackend> {
        Box::new(FailingBackend)
    }

    fn sub_ip_rank(&self) -> u8 {
        0
    }
}

#[test]
fn a_failing_hitting_set_back_end_is_reported_with_the_incumbent() {
    let wcnf = Wcnf {
        num_vars: 2,
        hard: vec![vec![1, 2]],
        soft: vec![(3, vec![-1]), (5, vec![-2])],
    };
    let options = MaxSatOptions {
        algorithm: MaxSatAlgorithm::Ihs,
        hitting_sets: Some(HittingSetBackend(std::sync::Arc::new(FailingBackend))),
        ..Default::default()
    };
    let result = solve_maxsat(&wcnf, &options, &|_| {}).expect("a back-end is given");
    assert_eq!(result.status, MaxSatStatus::Feasible);
    assert!(result.cost.is_some());
    let failure = result.failure.expect("the failure is reported");
    assert!(failure.contains("out of licences"), "{failure}");
}
