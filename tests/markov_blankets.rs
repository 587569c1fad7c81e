//! Markov blanket discovery with known answers: on samples large enough for the G² tests
//! to be reliable, BAMB, HITON-MB and IAMB return every node's true blanket (BAMB and
//! HITON-MB also its PC set and spouses); blanket-restricted candidates keep every true
//! parent.

mod common;

use bnsl::data::{read_bif, sample, DataSet};
use bnsl::mb::{
    allowed_parents, bamb, hiton_mb, hiton_pc, iamb, Blanket, CiOptions, CiTester, Restriction,
    TrueBlanket, TruthMap,
};
use bnsl::scores::{generate_candidates, CandidateOptions, LocalScorer, Pruning, ScoreKind};
use std::process::Command;

fn network_sample(name: &str, rows: usize) -> (bnsl::data::BayesNet, DataSet) {
    let net = read_bif(&common::repo().join(format!("instances/networks/{name}.bif"))).unwrap();
    let data = sample(&net, rows, 7);
    (net, data)
}

/// `got` is the true blanket `want` with its split into PC set and spouses.
fn assert_whole_blanket(got: &Blanket, want: &TrueBlanket, what: &str) {
    assert_eq!(got.mb, want.mb(), "{what}: MB");
    assert_eq!(got.pc, Some(want.pc()), "{what}: PC");
    assert_eq!(got.spouses, Some(want.spouses.clone()), "{what}: spouses");
}

/// sachs (11 nodes, no spouses), cancer and earthquake (a v-structure each).
const FAITHFUL: [&str; 3] = ["sachs", "cancer", "earthquake"];

#[test]
fn bamb_finds_every_true_blanket_on_50000_rows() {
    for name in FAITHFUL {
        let (net, data) = network_sample(name, 50_000);
        let truth = TruthMap::new(&net, &data).unwrap();
        let mut ci = CiTester::new(&data, CiOptions::default()).unwrap();
        for t in 0..data.n_vars() {
            let want = truth.blanket(t);
            let var = &data.variables()[t].name;
            assert_whole_blanket(&bamb(&mut ci, t), &want, &format!("{name}: {var}"));
        }
        assert!(ci.performed() > 0);
    }
}

#[test]
fn hiton_finds_every_true_blanket_on_50000_rows() {
    for name in FAITHFUL {
        let (net, data) = network_sample(name, 50_000);
        let truth = TruthMap::new(&net, &data).unwrap();
        let mut ci = CiTester::new(&data, CiOptions::default()).unwrap();
        for t in 0..data.n_vars() {
            let want = truth.blanket(t);
            let var = &data.variables()[t].name;
            let (pc, sep) = hiton_pc(&mut ci, t);
            assert_eq!(pc, want.pc(), "{name}: HITON-PC of {var}");
            for x in (0..data.n_vars()).filter(|&x| x != t && !pc.contains(&x)) {
                assert!(ci.independent(t, x, &sep[&x]), "{name}: Sep({var}, {x})");
            }
            assert_whole_blanket(&hiton_mb(&mut ci, t), &want, &format!("{name}: {var}"));
        }
    }
}

/// IAMB on the small networks only: on sachs it admits PIP3 into the blanket of PKA
/// (seed 7) and cannot drop it again, because the shrinking test conditions on the whole
/// 7-member blanket (3⁷·4 df), which the sparse-table rule does not perform.
#[test]
fn iamb_finds_every_true_blanket_on_50000_rows() {
    for name in ["cancer", "earthquake"] {
        let (net, data) = network_sample(name, 50_000);
        let truth = TruthMap::new(&net, &data).unwrap();
        let mut ci = CiTester::new(&data, CiOptions::default()).unwrap();
        for t in 0..data.n_vars() {
            let got = iamb(&mut ci, t);
            assert_eq!(got.mb, truth.blanket(t).mb(), "{name}: MB of {t}");
            assert_eq!((got.pc, got.spouses), (None, None));
        }
    }
}

#[test]
fn cancer_spouses_are_found_by_the_v_structure() {
    // Pollution → Cancer ← Smoker: each parent is the other's spouse.
    let (net, data) = network_sample("cancer", 50_000);
    let mut ci = CiTester::new(&data, CiOptions::default()).unwrap();
    let idx = |n: &str| data.index_of(n).unwrap();
    let b = bamb(&mut ci, idx("Pollution"));
    assert_eq!(b.pc, Some(vec![idx("Cancer")]));
    assert_eq!(b.spouses, Some(vec![idx("Smoker")]));
    assert!(TruthMap::new(&net, &data).is_ok());
}

#[test]
fn restricted_candidates_keep_true_parents_and_respect_the_restriction() {
    let (net, data) = network_sample("sachs", 50_000);
    let truth = TruthMap::new(&net, &data).unwrap();
    for restriction in [Restriction::Pc, Restriction::Mb] {
        let (allowed, tests) = allowed_parents(&data, restriction, CiOptions::default()).unwrap();
        assert!(tests > 0);
        for (v, allowed_v) in allowed.iter().enumerate() {
            for p in truth.blanket(v).parents {
                assert!(allowed_v.contains(p), "{restriction:?}: parent {p} of {v}");
            }
        }
        let scorer = LocalScorer::new(&data, ScoreKind::Bic);
        let opts = CandidateOptions {
            max_parents: Some(3),
            pruning: Pruning::Gap(0.0),
            allowed_parents: Some(allowed.clone()),
        };
        let (table, _) = generate_candidates(&scorer, &opts, &|_| {}).expect("fits in memory");
        for (v, allowed_v) in allowed.iter().enumerate() {
            for c in table.candidates(v) {
                assert!(c.parents.is_subset(allowed_v), "{restriction:?}: {v}");
            }
        }
    }
}

#[test]
fn cli_json_reports_blankets_tests_and_accuracy() {
    let repo = common::repo();
    let out = Command::new(env!("CARGO_BIN_EXE_bnsl"))
        .args(["mb", "instances/data/sachs_1000.csv", "--all", "--json"])
        .args(["--truth", "instances/networks/sachs.bif"])
        .current_dir(&repo)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let targets = v["targets"].as_array().unwrap();
    assert_eq!(targets.len(), 11);
    let sum: u64 = targets
        .iter()
        .map(|t| t["ci_tests"].as_u64().unwrap())
        .sum();
    assert_eq!(v["ci_tests"].as_u64(), Some(sum));
    assert!(v["ci_tests_computed"].as_u64().unwrap() <= sum);
    for key in ["mean_precision", "mean_recall", "mean_f1", "time_s"] {
        assert!(v[key].as_f64().is_some(), "{key}");
    }
    for t in targets {
        assert!(t["pc"].is_array() && t["spouses"].is_array() && t["f1"].is_f64());
    }
    let mean_f1 = targets
        .iter()
        .map(|t| t["f1"].as_f64().unwrap())
        .sum::<f64>()
        / 11.0;
    assert!((v["mean_f1"].as_f64().unwrap() - mean_f1).abs() < 1e-12);
}
