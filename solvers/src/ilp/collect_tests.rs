//! Every engine's collection ([`FamilyIlpSolver::collect`]) on every compiled back-end
//! against the enumeration oracle ([`networks_within`]), set for set.

use super::collect::{CollectProgress, CollectSettings};
use super::cut_loop::CutLoop;
use super::tests::{random_tables, table_strategy, TableShape};
use super::{family_solver, FamilyIlpSolver, IlpOptions};
use crate::dp::{solve_dp, DpOptions};
use crate::enumerate::{networks_within, Enumeration, EnumerationEnd, EnumerationLimits};
use crate::milp::{backends, Limits};
use crate::StopToken;
use bnsl_formulations::{Candidate, Dag, FamilyIlp, ScoreTable, VarSet};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use std::cell::Cell;

/// The engines of every compiled back-end: its own (SCIP's branch and cut, else the cut
/// loop) and, where that differs, the cut loop; the cut loop with no region collected
/// by enumeration and with regions whose parts have at most two nodes so collected (the
/// default takes every region of these small tables but the first); with SCIP, its
/// tree likewise.
fn engines(backend: &dyn crate::milp::MilpBackend) -> Vec<(String, Box<dyn FamilyIlpSolver + '_>)> {
    let mut all = vec![(backend.name().to_string(), family_solver(backend))];
    if backend.branch_and_cut().is_some() {
        all.push((
            format!("{} cut loop", backend.name()),
            Box::new(CutLoop::new(backend)),
        ));
    }
    for region_part in [0, 2] {
        all.push((
            format!(
                "{} cut loop, regions in parts of ≤ {region_part} nodes enumerated",
                backend.name()
            ),
            Box::new(CutLoop::new(backend).with_region_part(region_part)),
        ));
    }
    #[cfg(feature = "scip")]
    if backend.branch_and_cut().is_some() {
        use super::scip_bc::{ScipBcSettings, ScipBranchAndCut};
        for region_part in [0, 2] {
            let settings = ScipBcSettings {
                region_part,
                ..ScipBcSettings::default()
            };
            all.push((
                format!(
                    "{} tree, regions in parts of ≤ {region_part} nodes enumerated",
                    backend.name()
                ),
                Box::new(ScipBranchAndCut::new(settings)),
            ));
        }
    }
    all
}

/// The DAGs of a collection as sorted parent lists, with their scores.
fn sorted(found: &Enumeration) -> Vec<(Vec<Vec<usize>>, f64)> {
    let mut all: Vec<_> = found
        .networks
        .iter()
        .map(|(dag, score)| (parent_lists(dag), *score))
        .collect();
    all.sort_by(|a, b| a.0.cmp(&b.0));
    all
}

fn parent_lists(dag: &Dag) -> Vec<Vec<usize>> {
    dag.all_parents()
        .iter()
        .map(|p| p.iter().collect())
        .collect()
}

/// How a test collection runs: its network limit, stop token, start DAG and whether it
/// takes whole classes.
#[derive(Default)]
struct Run {
    max_networks: Option<usize>,
    stop: StopToken,
    start: Option<Dag>,
    whole_classes: bool,
}

/// The collection of `engine` above `threshold` and the last network count it reported;
/// one report per network, or per class when it takes whole classes.
fn collect_all(
    engine: &dyn FamilyIlpSolver,
    table: &ScoreTable,
    threshold: f64,
    run: Run,
) -> (Enumeration, usize) {
    let settings = CollectSettings {
        threshold,
        max_networks: run.max_networks,
        ilp: IlpOptions {
            limits: Limits {
                stop: run.stop,
                ..Limits::default()
            },
            ..IlpOptions::default()
        },
        clusters: Vec::new(),
        start: run.start,
        whole_classes: run.whole_classes,
    };
    let reported = Cell::new(0);
    let progress = |p: &CollectProgress| {
        if run.whole_classes {
            assert!(p.networks > reported.get(), "reports grow");
        } else {
            assert_eq!(p.networks, reported.get() + 1, "one report per network");
        }
        reported.set(p.networks);
    };
    let found = engine
        .collect(&FamilyIlp::new(table), &settings, &progress)
        .unwrap();
    (found, reported.get())
}

/// A random table whose DAGs lie close together in score, so that dozens to hundreds of
/// them fall within a few units of the optimum: node v gets the empty set (−8) and up to
/// 4 random parent sets of other nodes, scoring −12 to −2 in quarters.
fn close_table_strategy() -> impl Strategy<Value = ScoreTable> {
    random_tables(TableShape {
        nodes: 3..=5,
        sets: 4,
        quarters: -48..-8,
        empty: -8.0,
        max_parents: usize::MAX,
    })
}

/// The DAG a collection is given to begin with.
#[derive(Clone, Copy, Debug)]
enum Start {
    None,
    Optimal,
    Empty,
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(36))]

    /// Within ε of the optimum (ε = 0 included: exactly the optimal DAGs), every engine
    /// collects the enumeration's DAGs, each once, with its scores, DAG by DAG and taking
    /// whole classes (on these tables few covered arcs are swappable); given no start
    /// DAG, an optimal one, or the empty DAG (often below the threshold, which must then
    /// not be collected).
    #[test]
    fn every_engine_collects_the_oracle_set(
        table in close_table_strategy(),
        epsilon in prop::sample::select(vec![0.0, 2.0, 6.0, 20.0]),
        start in prop::sample::select(vec![Start::None, Start::Optimal, Start::Empty]),
    ) {
        let solution = solve_dp(&table, &DpOptions::default()).unwrap();
        let optimum = solution.score;
        let start = match start {
            Start::None => None,
            Start::Optimal => Some(solution.dag),
            Start::Empty => Some(Dag::empty(table.n())),
        };
        let threshold = optimum - epsilon;
        let oracle = networks_within(&table, threshold, &EnumerationLimits::default()).unwrap();
        prop_assert_eq!(oracle.end, EnumerationEnd::Complete);
        let expected = sorted(&oracle);
        if epsilon == 0.0 {
            prop_assert!(expected.iter().all(|(_, s)| *s == optimum));
        }
        for backend in backends() {
            for (name, engine) in engines(backend.as_ref()) {
                for whole_classes in [false, true] {
                    let run = Run { start: start.clone(), whole_classes, ..Run::default() };
                    let (found, reported) = collect_all(engine.as_ref(), &table, threshold, run);
                    prop_assert_eq!(found.end, EnumerationEnd::Complete, "{} {}", name, whole_classes);
                    prop_assert_eq!(reported, found.networks.len(), "{} {}", name, whole_classes);
                    prop_assert_eq!(&sorted(&found), &expected, "{} {}", name, whole_classes);
                }
            }
        }
    }
}

/// A score-equivalent table holding every parent set: σ(v, Π) = f(Π ∪ {v}) − f(Π) for
/// a random set function f (in quarters), so that a DAG scores Σ_v f(Pa(v) ∪ {v}) −
/// f(Pa(v)), which a covered-arc reversal keeps, and its Markov equivalence class
/// scores alike.
fn score_equivalent_table_strategy() -> impl Strategy<Value = ScoreTable> {
    (3usize..=5).prop_flat_map(|n| {
        prop::collection::vec(-24i32..0, 1 << n).prop_map(move |quarters| {
            let f = |set: u64| {
                if set == 0 {
                    0.0
                } else {
                    f64::from(quarters[set as usize]) / 4.0
                }
            };
            let candidates = (0..n)
                .map(|v| {
                    let others = ((1u64 << n) - 1) & !(1 << v);
                    (0..1u64 << n)
                        .filter(|set| set & others == *set)
                        .map(|set| Candidate {
                            parents: VarSet::from_mask(n, set),
                            score: f(set | 1 << v) - f(set),
                        })
                        .collect()
                })
                .collect();
            let names = (0..n).map(|v| format!("v{v}")).collect();
            ScoreTable::new(names, candidates).expect("a table of every parent set")
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// On score-equivalent tables of every parent set, every engine that takes whole
    /// classes (SCIP's tree under the covered-arc rows, the cut loop) collects the
    /// enumeration's DAGs.
    #[test]
    fn engines_taking_whole_classes_collect_the_oracle_set(
        table in score_equivalent_table_strategy(),
        epsilon in prop::sample::select(vec![0.0, 0.5, 2.0]),
    ) {
        let optimum = solve_dp(&table, &DpOptions::default()).unwrap().score;
        let threshold = optimum - epsilon - 1e-9;
        let oracle = networks_within(&table, threshold, &EnumerationLimits::default()).unwrap();
        let expected = sorted(&oracle);
        for backend in backends() {
            for (name, engine) in engines(backend.as_ref()) {
                let run = Run { whole_classes: true, ..Run::default() };
                let (found, reported) = collect_all(engine.as_ref(), &table, threshold, run);
                prop_assert_eq!(found.end, EnumerationEnd::Complete, "{}", name);
                prop_assert_eq!(reported, found.networks.len(), "{}", name);
                prop_assert_eq!(&sorted(&found), &expected, "{}", name);
            }
        }
    }
}

/// The network limit ends a collection with that many valid DAGs above the threshold;
/// a stopped token ends it with what it has (or complete, if the search ended before it
/// looked at the token).
#[test]
fn limits_end_a_collection_with_what_it_found() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let table = loop {
        let table = table_strategy().new_tree(&mut runner).unwrap().current();
        let optimum = solve_dp(&table, &DpOptions::default()).unwrap().score;
        let all = networks_within(&table, optimum - 40.0, &EnumerationLimits::default()).unwrap();
        if all.networks.len() > 5 {
            break table;
        }
    };
    let optimum = solve_dp(&table, &DpOptions::default()).unwrap().score;
    let threshold = optimum - 40.0;
    let all = sorted(&networks_within(&table, threshold, &EnumerationLimits::default()).unwrap());
    for backend in backends() {
        for (name, engine) in engines(backend.as_ref()) {
            let run = Run {
                max_networks: Some(3),
                ..Run::default()
            };
            let (found, _) = collect_all(engine.as_ref(), &table, threshold, run);
            assert_eq!(found.end, EnumerationEnd::NetworkLimit, "{name}");
            assert_eq!(found.networks.len(), 3, "{name}");
            for (dag, score) in &found.networks {
                assert_eq!(dag.check(&table).unwrap(), *score, "{name}");
                assert!(*score >= threshold, "{name}");
            }
            let stopped = StopToken::new();
            stopped.stop();
            let run = Run {
                stop: stopped,
                ..Run::default()
            };
            let (found, _) = collect_all(engine.as_ref(), &table, threshold, run);
            match found.end {
                EnumerationEnd::Stopped => {
                    assert!(sorted(&found).iter().all(|n| all.contains(n)), "{name}")
                }
                EnumerationEnd::Complete => assert_eq!(sorted(&found), all, "{name}"),
                EnumerationEnd::NetworkLimit => panic!("{name}: no network limit was set"),
            }
        }
    }
}
