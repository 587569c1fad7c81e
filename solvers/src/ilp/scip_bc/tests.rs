//! Tests of the SCIP branch-and-cut engine against the DP oracle, on infeasible
//! tables, under a zero time limit, and of its settings.

use super::*;
use crate::dp::{solve_dp, DpOptions};
use crate::milp::Limits;
use bnsl_formulations::{Candidate, Dag, ScoreTable, VarSet};
use proptest::prelude::*;
use std::cell::Cell;

/// A table from per-node lists of (parents, score); duplicates keep their first score.
fn table(n: usize, lists: Vec<Vec<(Vec<usize>, f64)>>) -> ScoreTable {
    let names = (0..n).map(|i| format!("x{i}")).collect();
    let candidates = lists
        .into_iter()
        .map(|list| {
            let mut seen = Vec::new();
            list.into_iter()
                .filter_map(|(ps, score)| {
                    let parents = VarSet::from_members(n, ps);
                    (!seen.contains(&parents)).then(|| {
                        seen.push(parents.clone());
                        Candidate { parents, score }
                    })
                })
                .collect()
        })
        .collect();
    ScoreTable::new(names, candidates).expect("valid test table")
}

/// Random tables: n ≤ 8 nodes, each with the empty set (so a DAG exists) and up to six
/// random parent sets of size ≤ 3 scoring above it, scores in halves.
fn arb_table() -> impl Strategy<Value = ScoreTable> {
    (2usize..=8).prop_flat_map(|n| {
        let family = (proptest::collection::vec(0..n, 1..=3), 1i32..60);
        proptest::collection::vec(proptest::collection::vec(family, 0..=6), n).prop_map(
            move |nodes| {
                let lists = nodes
                    .into_iter()
                    .enumerate()
                    .map(|(v, fams)| {
                        let mut list = vec![(Vec::new(), -40.0)];
                        for (mut ps, s) in fams {
                            ps.retain(|&u| u != v);
                            ps.sort_unstable();
                            ps.dedup();
                            list.push((ps, -40.0 + f64::from(s) / 2.0));
                        }
                        list.sort_by(|a, b| b.1.total_cmp(&a.1));
                        list
                    })
                    .collect();
                table(n, lists)
            },
        )
    })
}

fn solve(t: &ScoreTable, settings: ScipBcSettings, options: &IlpOptions) -> IlpOutcome {
    let ilp = FamilyIlp::new(t);
    ScipBranchAndCut::new(settings)
        .solve(&ilp, options, &|_| {})
        .expect("SCIP solves")
}

fn assert_optimal(t: &ScoreTable, outcome: &IlpOutcome) {
    let best = solve_dp(t, &DpOptions::default())
        .expect("a DAG exists")
        .score;
    assert_eq!(outcome.status, Status::Optimal);
    let dag = outcome.dag.as_ref().expect("an optimal DAG");
    assert!(dag.is_acyclic());
    let score = dag.check(t).expect("made of candidates");
    assert_eq!(outcome.score, Some(score));
    assert!(
        (score - best).abs() <= 1e-9 * best.abs().max(1.0),
        "{score} vs {best}"
    );
    let bound = outcome.bound.expect("a bound");
    assert!(gap_closed(score, bound));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn optimum_equals_the_dp_oracle(t in arb_table(), mode in 0..5, arrows in any::<bool>()) {
        // Heuristic separation only; with the cluster search; with the sub-IP everywhere,
        // branching by its default rule or by SCIP's own choice, or stopped by its time
        // limit before it finds anything; with or without the arrow and adjacency
        // variables.
        let settings = ScipBcSettings {
            arrow_branching: arrows,
            search_budget: if mode == 1 { 1000 } else { 0 },
            sub_ip_depth: Some(if mode >= 2 { i32::MAX } else { -1 }),
            sub_ip_branching: if mode == 3 { "default" } else { "leastinf" }.to_string(),
            sub_ip_time_limit: if mode == 4 { 1e-9 } else { 1.0 },
            ..ScipBcSettings::default()
        };
        let outcome = solve(&t, settings, &IlpOptions::default());
        assert_optimal(&t, &outcome);
    }
}

/// The DAG that gives every node its best candidate among the nodes before it in the
/// order `0, 1, …` rotated by `shift` (a start of the kind OBS makes).
fn order_dag(t: &ScoreTable, shift: usize) -> Dag {
    let n = t.n();
    let mut dag = Dag::empty(n);
    let mut before = VarSet::empty(n);
    for k in 0..n {
        let v = (k + shift) % n;
        let best = t
            .best_within(v, &before)
            .expect("the empty set is a candidate");
        dag.set_parents(v, best.parents.clone());
        before.insert(v);
    }
    dag
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn a_start_at_or_below_the_root_keeps_the_optimum(
        t in arb_table(),
        shift in 0usize..8,
        below_root in any::<bool>(),
        arrows in any::<bool>(),
    ) {
        let settings = ScipBcSettings {
            start_below_root: below_root,
            arrow_branching: arrows,
            ..ScipBcSettings::default()
        };
        let options = IlpOptions { start: Some(order_dag(&t, shift)), ..IlpOptions::default() };
        let outcome = solve(&t, settings, &options);
        assert_optimal(&t, &outcome);
    }

    /// The large-table and deep-tree settings (root without SCIP's stall limit or left at
    /// once by the root-stall rule, best-first nodes, arrow branching; on large tables
    /// SCIP's heuristics and separators off and the start before the root; on deep-tree
    /// tables without a start, an ASOBS network below the root, and GOBNILP's root cut
    /// loop) and k-cluster and 4B cuts keep the optimum.
    #[test]
    fn large_table_settings_and_k_cluster_cuts_keep_the_optimum(
        t in arb_table(),
        shift in 0usize..8,
        large in any::<bool>(),
        deep in any::<bool>(),
        deep_root in any::<bool>(),
        k_cluster_max in 0usize..4,
        four_b_cuts in any::<bool>(),
        arrows in any::<bool>(),
        leave_root in any::<bool>(),
        probes in 0usize..4,
        reliability in 0u32..3,
        given_start in any::<bool>(),
        search_start in any::<bool>(),
        tree_pricing in prop::sample::select(PRICING_RULES.chars().collect::<Vec<_>>()),
    ) {
        // Large tables branch on arrows by the family columns (probing `probes` of them,
        // or scoring by pseudocosts those probed `reliability` times).
        let settings = ScipBcSettings {
            large_table_columns: if large { 0 } else { usize::MAX },
            deep_tree_score: if deep { 0.0 } else { f64::INFINITY },
            deep_root_columns: if deep_root { 0.0 } else { f64::INFINITY },
            k_cluster_max,
            four_b_cuts: Some(four_b_cuts),
            arrow_branching: arrows,
            arrow_probes: probes,
            arrow_reliability: reliability,
            // Leaves the root at its first round: the tree finishes without root cuts.
            root_stall_gain: if leave_root { 1e9 } else { 0.0 },
            root_stall_window: 0.0,
            // Without a given start, a deep-tree solve searches for one below the root.
            deep_tree_start: if search_start { 0.05 } else { 0.0 },
            tree_pricing,
            ..ScipBcSettings::default()
        };
        let start = given_start.then(|| order_dag(&t, shift));
        let options = IlpOptions { start, ..IlpOptions::default() };
        let outcome = solve(&t, settings, &options);
        assert_optimal(&t, &outcome);
    }
}

/// The regime follows the mean magnitude of the variables' best scores first, then
/// the column count.
#[test]
fn a_table_is_deep_by_its_scores_and_large_by_its_columns() {
    // Best scores −100 and −300: a mean magnitude of 200.
    let t = table(
        2,
        vec![
            vec![(vec![], -120.0), (vec![1], -100.0)],
            vec![(vec![], -300.0), (vec![0], -310.0)],
        ],
    );
    let ilp = FamilyIlp::new(&t);
    let regime = |large_table_columns, deep_tree_score| {
        ScipBcSettings {
            large_table_columns,
            deep_tree_score,
            ..ScipBcSettings::default()
        }
        .regime(&ilp)
    };
    let columns = ilp.num_columns();
    assert_eq!(regime(columns + 1, 200.0), TableRegime::DeepTree);
    let small = TableRegime::Small {
        arrow_scores: false,
    };
    assert_eq!(regime(columns + 1, 200.5), small);
    assert_eq!(regime(columns, 200.5), TableRegime::Large);
    assert_eq!(regime(columns, 200.0), TableRegime::DeepTree);
    assert_eq!(regime(columns + 1, f64::INFINITY), small);
    // A small table branches on arrows from the score `arrow_fixing_score` on, unless
    // told otherwise; a deep-tree table always, unless told otherwise.
    let arrows = |arrow_fixing, arrow_fixing_score, deep_tree_score| {
        let settings = ScipBcSettings {
            arrow_fixing,
            arrow_fixing_score,
            deep_tree_score,
            ..ScipBcSettings::default()
        };
        settings.branches_on_arrows(settings.regime(&ilp))
    };
    let never = f64::INFINITY;
    assert!(arrows(None, 200.0, never));
    assert!(!arrows(None, 200.5, never));
    assert!(!arrows(Some(false), 200.0, never));
    assert!(arrows(Some(true), never, never));
    assert!(arrows(None, never, 200.0));
    assert!(!arrows(Some(false), never, 200.0));
    // A deep-tree table separates its root as GOBNILP does from `deep_root_columns`
    // family columns per variable on; a small one never.
    let per_variable = ilp.num_columns() as f64 / 2.0;
    let deep_root = |deep_root_columns, deep_tree_score| {
        let settings = ScipBcSettings {
            deep_root_columns,
            deep_tree_score,
            ..ScipBcSettings::default()
        };
        settings.separates_a_deep_root(&ilp, settings.regime(&ilp))
    };
    assert!(deep_root(per_variable, 200.0));
    assert!(!deep_root(per_variable + 0.5, 200.0));
    assert!(!deep_root(never, 200.0));
    assert!(!deep_root(0.0, never));
    // A table that is not large turns off the heuristics and separator that find
    // nothing in deep trees from the score `arrow_fixing_score` on.
    let quiet_tree = |arrow_fixing_score, deep_tree_score| {
        let settings = ScipBcSettings {
            arrow_fixing_score,
            deep_tree_score,
            ..ScipBcSettings::default()
        };
        settings
            .table_params(&ilp, settings.regime(&ilp))
            .contains(&DEEP_TREE_OFF_PARAMS)
    };
    assert!(quiet_tree(200.0, never));
    assert!(!quiet_tree(200.5, never));
    assert!(quiet_tree(never, 200.0));
    let large = ScipBcSettings {
        large_table_columns: 1,
        ..ScipBcSettings::default()
    };
    assert!(!large
        .table_params(&ilp, TableRegime::Large)
        .contains(&DEEP_TREE_OFF_PARAMS));
    // SCIP's divers are off on deep-tree and large tables only.
    let dives = |regime| {
        !large
            .table_params(&ilp, regime)
            .contains(&DIVING_OFF_PARAMS)
    };
    assert!(!dives(TableRegime::DeepTree));
    assert!(!dives(TableRegime::Large));
    assert!(dives(small));
    assert!(dives(TableRegime::Small { arrow_scores: true }));
    // Whether a solve in `regime` sets `param` to the value given.
    let sets = |regime, param: (&str, &str)| {
        large
            .table_params(&ilp, regime)
            .iter()
            .any(|list| list.contains(&param))
    };
    // Cuts are ranked by their violation on large tables only.
    let by_violation = |regime| sets(regime, ("separating/efficacynorm", "d"));
    assert!(by_violation(TableRegime::Large));
    assert!(!by_violation(TableRegime::DeepTree));
    assert!(!by_violation(small));
    // The cluster separator runs at every node except on large tables, which keep
    // SCIP's exponential back-off.
    let every_node = |regime| sets(regime, ("separating/clusters/expbackoff", "1"));
    assert!(!every_node(TableRegime::Large));
    assert!(every_node(TableRegime::DeepTree));
    assert!(every_node(small));
    assert!(every_node(TableRegime::Small { arrow_scores: true }));
    // Every optimising solve turns reduced-cost fixing on, before its regime's lists.
    for regime in [
        small,
        TableRegime::Small { arrow_scores: true },
        TableRegime::DeepTree,
        TableRegime::Large,
    ] {
        assert_eq!(large.table_params(&ilp, regime)[0], OPTIMISING_PARAMS);
    }
}

/// Three nodes that must each have a parent, in a 3-cycle: no DAG.
fn cyclic_only() -> ScoreTable {
    table(
        3,
        vec![
            vec![(vec![2], -1.0), (vec![1], -2.0)],
            vec![(vec![0], -1.0), (vec![2], -3.0)],
            vec![(vec![1], -1.0), (vec![0], -2.5)],
        ],
    )
}

#[test]
fn a_table_without_a_dag_is_infeasible() {
    let outcome = solve(
        &cyclic_only(),
        ScipBcSettings::default(),
        &IlpOptions::default(),
    );
    assert_eq!(outcome.status, Status::Infeasible);
    assert_eq!(outcome.dag, None);
    assert_eq!(outcome.bound, None);
}

/// Every node may take any single other node as parent (scored by a hash) or none.
fn dense(n: usize) -> ScoreTable {
    let lists = (0..n)
        .map(|v| {
            let mut list = vec![(Vec::new(), -100.0)];
            for u in (0..n).filter(|&u| u != v) {
                list.push((vec![u], -100.0 + ((v * 31 + u * 17) % 23) as f64));
                for w in (u + 1..n).filter(|&w| w != v) {
                    list.push((vec![u, w], -100.0 + ((v * 7 + u * 13 + w * 5) % 37) as f64));
                }
            }
            list.sort_by(|a, b| b.1.total_cmp(&a.1));
            list
        })
        .collect();
    table(n, lists)
}

#[test]
fn a_zero_time_limit_reports_a_consistent_outcome() {
    let t = dense(12);
    let options = IlpOptions {
        limits: Limits {
            time_limit: Some(0.0),
            ..Limits::default()
        },
        ..IlpOptions::default()
    };
    let outcome = solve(&t, ScipBcSettings::default(), &options);
    assert_ne!(outcome.status, Status::Infeasible);
    if let Some(dag) = &outcome.dag {
        assert_eq!(dag.check(&t).ok(), outcome.score);
    }
    if let (Some(score), Some(bound)) = (outcome.score, outcome.bound) {
        assert!(bound >= score);
        assert_eq!(outcome.status == Status::Optimal, gap_closed(score, bound));
    }
    assert_eq!(outcome.rounds, None);
}

#[test]
fn a_start_held_back_is_the_outcome_when_the_solve_ends_at_the_root() {
    let t = dense(12);
    let start = order_dag(&t, 5);
    let start_score = start.check(&t).unwrap();
    let options = IlpOptions {
        start: Some(start),
        limits: Limits {
            time_limit: Some(0.0),
            ..Limits::default()
        },
        ..IlpOptions::default()
    };
    let outcome = solve(&t, ScipBcSettings::default(), &options);
    let score = outcome.score.expect("the start at least");
    assert!(
        score >= start_score,
        "{score} below the start's {start_score}"
    );
    assert_eq!(outcome.dag.as_ref().unwrap().check(&t).ok(), Some(score));
    if let Some(bound) = outcome.bound {
        assert!(bound >= score);
    }
}

#[test]
fn solves_a_dense_table_with_start_and_progress() {
    let t = dense(9);
    let start = Dag::empty(9);
    let options = IlpOptions {
        start: Some(start),
        limits: Limits {
            seed: Some(7),
            ..Limits::default()
        },
        ..IlpOptions::default()
    };
    let reports = Cell::new(0);
    let ilp = FamilyIlp::new(&t);
    let outcome = ScipBranchAndCut::default()
        .solve(&ilp, &options, &|p| {
            assert!(p.incumbent.is_some() || p.bound.is_some());
            reports.set(reports.get() + 1);
        })
        .expect("SCIP solves");
    assert_optimal(&t, &outcome);
    assert!(reports.get() > 0);
    assert!(outcome.cuts > 0);
}

/// Branching on arrows by the family columns, probed or not, by pseudocosts or not,
/// with or without the arrow variables, finds the optimum where the tree must branch:
/// the root is left at its first round.
#[test]
fn arrow_branching_by_family_columns_finds_the_optimum_in_a_tree() {
    let t = dense(9);
    for (probes, reliability, arrows) in [(1, 0, false), (8, 0, false), (8, 1, false), (8, 0, true)]
    {
        let settings = ScipBcSettings {
            arrow_fixing: Some(true),
            arrow_probes: probes,
            arrow_reliability: reliability,
            arrow_branching: arrows,
            large_table_columns: 0,
            root_stall_gain: 1e9,
            root_stall_window: 0.0,
            ..ScipBcSettings::default()
        };
        let outcome = solve(&t, settings, &IlpOptions::default());
        assert_optimal(&t, &outcome);
        assert!(outcome.nodes > 1, "{probes} probes: no branching");
    }
}

/// A late time of zero with an infinite late gain ends the root of a large table at its
/// first round whatever it gains (the gain rule off), and the tree finds the optimum.
#[test]
fn a_root_ended_at_once_leaves_the_optimum_to_the_tree() {
    let t = dense(9);
    let settings = ScipBcSettings {
        large_table_columns: 0,
        root_stall_gain: 0.0,
        root_stall_late: 0.0,
        root_stall_late_gain: f64::INFINITY,
        ..ScipBcSettings::default()
    };
    let outcome = solve(&t, settings, &IlpOptions::default());
    assert_optimal(&t, &outcome);
    assert!(
        outcome.nodes > 1,
        "the root closed: the late rule did not end it"
    );
}

/// On a deep-tree table with no start, the ASOBS search below the root gives SCIP a
/// network and the optimum is kept, with time to search or with none left.
#[test]
fn a_start_searched_below_the_root_keeps_the_optimum() {
    let t = dense(9);
    for time_limit in [None, Some(0.0)] {
        let settings = ScipBcSettings {
            deep_tree_score: 0.0,
            deep_tree_start: 0.2,
            root_stall_gain: 1e9,
            root_stall_window: 0.0,
            ..ScipBcSettings::default()
        };
        let mut options = IlpOptions::default();
        options.limits.time_limit = time_limit;
        let outcome = solve(&t, settings, &options);
        if time_limit.is_none() {
            assert_optimal(&t, &outcome);
            assert!(
                outcome.nodes > 1,
                "the root closed: no node below it to search at"
            );
        } else if let (Some(dag), Some(score)) = (&outcome.dag, outcome.score) {
            assert!((dag.check(&t).expect("a DAG of candidates") - score).abs() < 1e-6);
        }
    }
}

/// With 4B cuts on, the dense table's LP solutions violate some (they are added) and the
/// optimum is kept, at the root and, with the root left at once, in the tree.
#[test]
fn four_b_cuts_are_added_and_keep_the_optimum() {
    let t = dense(9);
    for leave_root in [false, true] {
        let settings = ScipBcSettings {
            four_b_cuts: Some(true),
            large_table_columns: if leave_root { 0 } else { usize::MAX },
            root_stall_gain: 1e9,
            root_stall_window: 0.0,
            ..ScipBcSettings::default()
        };
        let outcome = solve(&t, settings.clone(), &IlpOptions::default());
        assert_optimal(&t, &outcome);
        let without = solve(
            &t,
            ScipBcSettings {
                four_b_cuts: Some(false),
                ..settings
            },
            &IlpOptions::default(),
        );
        assert_ne!(outcome.cuts, without.cuts, "no 4B cut added");
    }
}

#[test]
fn set_packing_rows_initial_or_lazy_keep_the_optimum() {
    let t = dense(8);
    for initial in [false, true] {
        let settings = ScipBcSettings {
            set_packing_initial: initial,
            ..ScipBcSettings::default()
        };
        let outcome = solve(&t, settings, &IlpOptions::default());
        assert_optimal(&t, &outcome);
    }
}

#[test]
fn settings_parse_engine_and_scip_parameters() {
    let pairs = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        list.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    let s = ScipBcSettings::from_params(&pairs(&[
        ("bnsl/sub_ip_depth", "2"),
        ("bnsl/removable_cuts", "false"),
        ("bnsl/set_packing_initial", "true"),
        ("bnsl/sub_ip_branching", "inference"),
        ("bnsl/arrow_branching", "true"),
        ("bnsl/arrow_fixing", "false"),
        ("bnsl/arrow_fixing_score", "750"),
        ("bnsl/arrow_probes", "3"),
        ("bnsl/arrow_reliability", "4"),
        ("bnsl/root_stall_gain", "0.02"),
        ("bnsl/root_stall_window", "60"),
        ("bnsl/root_stall_share", "0.25"),
        ("bnsl/root_stall_late", "inf"),
        ("bnsl/root_stall_late_gain", "inf"),
        ("bnsl/four_b_cuts", "true"),
        ("bnsl/sub_ip_time_limit", "0.5"),
        ("bnsl/deep_tree_score", "inf"),
        ("bnsl/deep_tree_start", "0.5"),
        ("bnsl/deep_tree_start_share", "0.5"),
        ("bnsl/deep_root_columns", "inf"),
        ("bnsl/search_budget", "1234"),
        ("bnsl/heuristic_depth", "3"),
        ("bnsl/k_cluster_max", "2"),
        ("bnsl/scip_heuristics", "false"),
        ("bnsl/tree_pricing", "d"),
        ("bnsl/propagation", "false"),
        ("separating/maxrounds", "3"),
    ]))
    .unwrap();
    assert_eq!(s.search_budget, 1234);
    assert_eq!(s.heuristic_depth, Some(3));
    assert_eq!(s.k_cluster_max, 2);
    assert_eq!(s.scip_heuristics, Some(false));
    assert_eq!(s.tree_pricing, 'd');
    assert!(!s.propagation);
    assert_eq!(s.deep_tree_start, 0.5);
    assert_eq!(s.deep_tree_start_share, 0.5);
    assert_eq!(s.deep_tree_score, f64::INFINITY);
    assert_eq!(s.deep_root_columns, f64::INFINITY);
    assert_eq!(s.sub_ip_time_limit, 0.5);
    assert!(s.arrow_branching);
    assert_eq!(s.four_b_cuts, Some(true));
    assert_eq!(s.arrow_fixing, Some(false));
    assert_eq!(s.arrow_fixing_score, 750.0);
    assert_eq!(s.arrow_probes, 3);
    assert_eq!(s.arrow_reliability, 4);
    assert_eq!(
        (s.root_stall_gain, s.root_stall_window, s.root_stall_share),
        (0.02, 60.0, 0.25)
    );
    assert_eq!(
        (s.root_stall_late, s.root_stall_late_gain),
        (f64::INFINITY, f64::INFINITY)
    );
    assert_eq!(s.sub_ip_depth, Some(2));
    assert_eq!(s.sub_ip_branching, "inference");
    assert!(!s.removable_cuts);
    assert!(s.set_packing_initial);
    assert_eq!(s.params, pairs(&[("separating/maxrounds", "3")]));
    assert!(matches!(
        ScipBcSettings::from_params(&pairs(&[("bnsl/nope", "1")])),
        Err(ScipParamError::Unknown(_))
    ));
    assert!(matches!(
        ScipBcSettings::from_params(&pairs(&[("bnsl/sub_ip_depth", "deep")])),
        Err(ScipParamError::BadValue { .. })
    ));
    for (name, value) in [
        ("bnsl/root_stall_gain", "-0.01"),
        ("bnsl/root_stall_gain", "NaN"),
        ("bnsl/root_stall_window", "-5"),
        ("bnsl/root_stall_window", "inf"),
        ("bnsl/root_stall_share", "1.5"),
        ("bnsl/root_stall_share", "-0.1"),
        ("bnsl/root_stall_late", "-1"),
        ("bnsl/root_stall_late", "NaN"),
        ("bnsl/root_stall_late_gain", "-0.1"),
        ("bnsl/root_stall_late_gain", "NaN"),
        ("bnsl/sub_ip_time_limit", "0"),
        ("bnsl/sub_ip_time_limit", "-1"),
        ("bnsl/sub_ip_time_limit", "NaN"),
        ("bnsl/deep_tree_score", "-1"),
        ("bnsl/deep_tree_score", "NaN"),
        ("bnsl/deep_tree_start", "-1"),
        ("bnsl/deep_tree_start", "inf"),
        ("bnsl/deep_tree_start", "NaN"),
        ("bnsl/deep_tree_start_share", "-1"),
        ("bnsl/deep_tree_start_share", "inf"),
        ("bnsl/deep_root_columns", "-1"),
        ("bnsl/deep_root_columns", "NaN"),
        ("bnsl/propagation", "maybe"),
        ("bnsl/k_cluster_max", "-1"),
        ("bnsl/tree_pricing", "x"),
        ("bnsl/tree_pricing", "ss"),
    ] {
        assert!(
            matches!(
                ScipBcSettings::from_params(&pairs(&[(name, value)])),
                Err(ScipParamError::BadValue { .. })
            ),
            "{name}={value} accepted"
        );
    }
}

#[test]
fn bad_scip_parameters_are_errors() {
    let t = dense(4);
    let ilp = FamilyIlp::new(&t);
    for (name, value) in [
        ("no/such/param", "1"),
        ("separating/maxrounds", "many"),
        ("separating/clusters/no_such_param", "1"),
        ("separating/clusters/expbackoff", "0"),
    ] {
        let settings = ScipBcSettings {
            params: vec![(name.to_string(), value.to_string())],
            ..ScipBcSettings::default()
        };
        let err = ScipBranchAndCut::new(settings)
            .solve(&ilp, &IlpOptions::default(), &|_| {})
            .unwrap_err();
        assert!(err.to_string().contains(name), "{err}");
        assert!(!err.to_string().contains("does not include"), "{err}");
    }
}

#[test]
fn the_plugin_parameter_prefixes_are_the_names_the_plugins_are_included_with() {
    let text = |name: &std::ffi::CStr| name.to_str().unwrap().to_string();
    let expected = [
        format!("constraints/{}/", acyclic::NAME),
        format!("constraints/{}/", collector::NAME),
        format!("propagating/{}/", text(propagator::NAME)),
        format!("separating/{}/", text(separator::NAME)),
        format!("branching/{}/", text(arrow_branch::NAME)),
        format!("heuristics/{SINK_HEURISTIC}/"),
        format!("heuristics/{START_HEURISTIC}/"),
    ];
    assert_eq!(PLUGIN_PARAM_PREFIXES, expected);
}

#[test]
fn a_parameter_of_a_plugin_the_solve_leaves_out_is_named_so() {
    let t = dense(4);
    let settings = ScipBcSettings {
        arrow_fixing: Some(false),
        params: vec![("branching/arrows/priority".into(), "1".into())],
        ..ScipBcSettings::default()
    };
    let err = ScipBranchAndCut::new(settings)
        .solve(&FamilyIlp::new(&t), &IlpOptions::default(), &|_| {})
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("`branching/arrows/priority` belongs to bnsl's plugin `branching/arrows`, which this solve does not include"),
        "{err}"
    );
}

#[test]
fn the_parameters_of_the_engines_plugins_pass_through_the_scip_back_end() {
    use crate::milp::{configured, BackendParam};
    let t = dense(4);
    let ilp = FamilyIlp::new(&t);
    let param = |name: &str, value: &str| BackendParam {
        intended: Some("scip".into()),
        name: name.into(),
        value: value.into(),
    };
    assert!(configured(
        Some("scip"),
        &[param("separating/clusters/expbackoff", "1")]
    )
    .is_ok());
    assert!(configured(Some("scip"), &[param("separating/nosuch/expbackoff", "1")]).is_err());
    let settings = ScipBcSettings {
        params: vec![("separating/clusters/expbackoff".into(), "1".into())],
        ..ScipBcSettings::default()
    };
    let outcome = ScipBranchAndCut::new(settings)
        .solve(&ilp, &IlpOptions::default(), &|_| {})
        .unwrap();
    let plain = ScipBranchAndCut::default()
        .solve(&ilp, &IlpOptions::default(), &|_| {})
        .unwrap();
    assert!((outcome.score.unwrap() - plain.score.unwrap()).abs() < 1e-6);
}

#[test]
fn an_unknown_sub_ip_branching_rule_is_an_error() {
    let t = dense(4);
    let settings = ScipBcSettings {
        sub_ip_branching: "sideways".to_string(),
        ..ScipBcSettings::default()
    };
    let err = ScipBranchAndCut::new(settings)
        .solve(&FamilyIlp::new(&t), &IlpOptions::default(), &|_| {})
        .unwrap_err();
    assert!(err.to_string().contains("sideways"), "{err}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The SCIP sub-instance of the branch and cut finds the most violated cluster, and
    /// no cluster when none is violated.
    #[test]
    fn the_sub_scip_finds_the_most_violated_cluster(
        table in crate::test_tables::arb_table(6),
        raw in proptest::collection::vec(0u8..4, 1..40),
    ) {
        let stage = plugins::SubScip { branching: sub_scip::DEFAULT_BRANCHING };
        crate::ilp::separation::tests::check_exact(&stage, &table, &raw)?;
    }
}
