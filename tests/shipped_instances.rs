//! The instances the repository ships (`instances/`): every score file is exactly what
//! `bnsl score` makes from its data (so the recipe in instances/README.md holds), exact
//! pruning keeps the DP optimum of the unpruned problem, and learning recovers the
//! known network's skeleton from a large sample.

mod common;

use bnsl::data::{load_data, read_bif, LoadOptions};
use bnsl::fio::read_scores;
use bnsl::scores::{generate_candidates, CandidateOptions, LocalScorer, Pruning, ScoreKind};
use bnsl_solvers::dp::{solve_dp, DpOptions};
use std::collections::BTreeSet;

const SHIPPED: [(&str, &str); 8] = [
    ("asia_10000", "asia"),
    ("cancer_1000", "cancer"),
    ("earthquake_1000", "earthquake"),
    ("sachs_1000", "sachs"),
    ("survey_1000", "survey"),
    ("child_1000", "child"),
    ("insurance_1000", "insurance"),
    ("alarm_1000", "alarm"),
];

fn scorer_input(data: &str, network: &str) -> bnsl::data::DataSet {
    let root = common::repo().join("instances");
    let net = read_bif(&root.join(format!("networks/{network}.bif"))).unwrap();
    load_data(
        &root.join(format!("data/{data}.csv")),
        &LoadOptions::with_network(&net),
    )
    .unwrap()
}

fn generate(
    data: &bnsl::data::DataSet,
    kind: ScoreKind,
    pruning: Pruning,
) -> bnsl_formulations::ScoreTable {
    let scorer = LocalScorer::new(data, kind);
    generate_candidates(
        &scorer,
        &CandidateOptions {
            max_parents: Some(3),
            pruning,
            allowed_parents: None,
        },
        &|_| {},
    )
    .expect("fits in memory")
    .0
}

#[test]
fn score_files_are_reproduced_from_their_data() {
    let root = common::repo().join("instances/scores");
    let mut files = 0;
    for (data, network) in SHIPPED {
        let ds = scorer_input(data, network);
        for (suffix, kind) in [
            ("BDeu1", ScoreKind::Bdeu { ess: 1.0 }),
            ("BIC", ScoreKind::Bic),
        ] {
            let path = root.join(format!("{data}.{suffix}.palim3.jkl"));
            if !path.exists() {
                continue;
            }
            files += 1;
            let shipped = read_scores(&path).unwrap().table;
            let fresh = generate(&ds, kind, Pruning::Gap(0.0));
            assert_eq!(
                shipped.total_candidates(),
                fresh.total_candidates(),
                "{}",
                path.display()
            );
            for v in 0..fresh.n() {
                for c in fresh.candidates(v) {
                    let s = shipped.score_of(v, &c.parents).unwrap_or_else(|| {
                        panic!("{}: missing {v} {:?}", path.display(), c.parents)
                    });
                    assert!((s - c.score).abs() < 1e-9);
                }
            }
        }
    }
    assert_eq!(files, 10, "every shipped score file was checked");
}

#[test]
fn exact_pruning_keeps_the_optimum_on_shipped_data() {
    for (data, network) in SHIPPED
        .iter()
        .filter(|(_, net)| !["insurance", "alarm"].contains(net))
    {
        let ds = scorer_input(data, network);
        for kind in [ScoreKind::Bdeu { ess: 1.0 }, ScoreKind::Bic] {
            let pruned = solve_dp(
                &generate(&ds, kind, Pruning::Gap(0.0)),
                &DpOptions::default(),
            )
            .unwrap();
            let full = solve_dp(&generate(&ds, kind, Pruning::Off), &DpOptions::default()).unwrap();
            assert!(
                (pruned.score - full.score).abs() < 1e-9,
                "{data} {kind}: {} vs {}",
                pruned.score,
                full.score
            );
        }
    }
}

#[test]
fn asia_skeleton_is_recovered_from_10000_rows() {
    let root = common::repo().join("instances");
    let net = read_bif(&root.join("networks/asia.bif")).unwrap();
    let table = read_scores(&root.join("scores/asia_10000.BDeu1.palim3.jkl"))
        .unwrap()
        .table;
    let learned = solve_dp(&table, &DpOptions::default()).unwrap().dag;
    let edges =
        |parents: &dyn Fn(usize) -> Vec<usize>, names: &[String]| -> BTreeSet<(String, String)> {
            (0..names.len())
                .flat_map(|v| parents(v).into_iter().map(move |p| (v, p)))
                .map(|(v, p)| {
                    let (a, b) = (names[v].clone(), names[p].clone());
                    if a < b {
                        (a, b)
                    } else {
                        (b, a)
                    }
                })
                .collect()
        };
    let net_names: Vec<String> = net.variables.iter().map(|v| v.name.clone()).collect();
    let truth = edges(&|v| net.parents[v].clone(), &net_names);
    let found = edges(&|v| learned.parents(v).to_vec(), table.names());
    let common = truth.intersection(&found).count();
    assert_eq!(truth.len(), 8);
    assert!(
        common >= 7 && found.len() <= 9,
        "true {truth:?}\nfound {found:?}"
    );
}
