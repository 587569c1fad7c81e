//! OBS and ASOBS (seed 001 §4) on the shipped score files, and the command-line flags of
//! `bnsl learn --method obs|asobs` and `bnsl score --search …`.

mod common;

use bnsl::fio::read_scores;
use bnsl_formulations::ScoreTable;
use bnsl_solvers::dp::{solve_dp, DpOptions};
use bnsl_solvers::heuristics::{
    asobs_network, asobs_search, obs_network, sample_order, AsobsOptions,
};
use std::process::Command;

const SHIPPED_SCORES: [&str; 10] = [
    "asia_10000.BDeu1.palim3.jkl",
    "asia_10000.BIC.palim3.jkl",
    "cancer_1000.BDeu1.palim3.jkl",
    "earthquake_1000.BDeu1.palim3.jkl",
    "sachs_1000.BDeu1.palim3.jkl",
    "survey_1000.BDeu1.palim3.jkl",
    "child_1000.BDeu1.palim3.jkl",
    "child_1000.BIC.palim3.jkl",
    "insurance_1000.BDeu1.palim3.jkl",
    "alarm_1000.BDeu1.palim3.jkl",
];

fn shipped(name: &str) -> ScoreTable {
    read_scores(&common::repo().join("instances/scores").join(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .table
}

fn bnsl(args: &[&str], threads: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_bnsl"))
        .args(args)
        .env("RAYON_NUM_THREADS", threads)
        .current_dir(common::repo())
        .output()
        .expect("run bnsl")
}

fn json_of(out: &std::process::Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// ASOBS with 300 restarts (deterministic) reaches the DP optimum on every shipped score
/// file small enough for the DP.
#[test]
fn asobs_reaches_the_dp_optimum_on_shipped_instances() {
    let opts = AsobsOptions {
        time_limit: None,
        max_restarts: Some(300),
        ..Default::default()
    };
    for name in SHIPPED_SCORES {
        let table = shipped(name);
        if table.n() > 20 {
            continue;
        }
        let opt = solve_dp(&table, &DpOptions::default()).unwrap().score;
        let got = asobs_search(&table, &opts).unwrap();
        assert_eq!(got.dag.check(&table).unwrap(), got.score, "{name}");
        assert!(
            (got.score - opt).abs() <= 1e-6 * opt.abs(),
            "{name}: ASOBS {} vs optimum {opt}",
            got.score
        );
    }
}

/// Theorem 3 of seed 001 on real score files: for the same order OBS never beats ASOBS,
/// and both networks are acyclic and made of candidates.
#[test]
fn obs_never_beats_asobs_from_the_same_orders() {
    for name in SHIPPED_SCORES {
        let table = shipped(name);
        let mut strictly_better = 0;
        for i in 0..50 {
            let order = sample_order(table.n(), 7, i);
            let obs = obs_network(&table, &order).unwrap();
            let asobs = asobs_network(&table, &order).unwrap();
            let (so, sa) = (
                obs.to_dag(&table).check(&table).unwrap(),
                asobs.to_dag(&table).check(&table).unwrap(),
            );
            assert!(
                sa >= so - 1e-9 * so.abs(),
                "{name} order {i}: ASOBS {sa} < OBS {so}"
            );
            strictly_better += usize::from(sa > so + 1e-9 * so.abs());
        }
        if table.n() >= 20 {
            assert!(strictly_better > 0, "{name}: ASOBS never used a back-arc");
        }
    }
}

#[test]
fn learn_asobs_reports_a_feasible_verified_dag() {
    let out = bnsl(
        &[
            "learn",
            "instances/scores/alarm_1000.BDeu1.palim3.jkl",
            "--method",
            "asobs",
            "--restarts",
            "20",
            "--json",
        ],
        "2",
    );
    let rep = json_of(&out);
    assert_eq!(rep["method"], "asobs");
    assert_eq!(rep["status"], "feasible");
    assert!(rep["bound"].is_null() && rep["gap"].is_null());
    assert_eq!(rep["restarts"], 20);
    assert!(rep["found_at_s"].as_f64().unwrap() <= rep["time_s"].as_f64().unwrap());
    // The same seed and restart count give the same DAG on one thread.
    let again = json_of(&bnsl(
        &[
            "learn",
            "instances/scores/alarm_1000.BDeu1.palim3.jkl",
            "--method",
            "asobs",
            "--restarts",
            "20",
            "--json",
        ],
        "1",
    ));
    assert_eq!(rep["parents"], again["parents"]);
    assert_eq!(rep["score"], again["score"]);
    let obs = json_of(&bnsl(
        &[
            "learn",
            "instances/scores/alarm_1000.BDeu1.palim3.jkl",
            "--method",
            "obs",
            "--restarts",
            "20",
            "--json",
        ],
        "2",
    ));
    assert_eq!(obs["method"], "obs");
    assert!(obs["score"].as_f64().unwrap() <= 0.0);
}

/// `--local-search insertion`: a DAG that `bnsl verify` confirms at the reported score,
/// the same on one thread and on two for a restart count, never below OBS with the same
/// restarts and local search.
#[test]
fn insertion_local_search_from_the_cli() {
    let file = "instances/scores/alarm_1000.BDeu1.palim3.jkl";
    let dag = std::env::temp_dir().join("bnsl_asobs_insertion.json");
    let run = |method: &str, threads: &str| {
        json_of(&bnsl(
            &[
                "learn",
                file,
                "--method",
                method,
                "--restarts",
                "12",
                "--local-search",
                "insertion",
                "--json",
                "-o",
                dag.to_str().unwrap(),
            ],
            threads,
        ))
    };
    let one = run("asobs", "1");
    let two = run("asobs", "2");
    assert_eq!(two["parents"], one["parents"]);
    assert_eq!(two["restarts"], 12);
    let score = two["score"].as_f64().unwrap();
    let expect = format!("{score}");
    let verify = [
        "verify",
        "--scores",
        file,
        "--dag",
        dag.to_str().unwrap(),
        "--expect",
        &expect,
    ];
    let verified = bnsl(&verify, "1");
    assert!(
        verified.status.success(),
        "{}",
        String::from_utf8_lossy(&verified.stderr)
    );
    let obs = run("obs", "2")["score"].as_f64().unwrap();
    assert!(score >= obs - 1e-9 * obs.abs(), "ASOBS {score} < OBS {obs}");
}

#[test]
fn selection_then_asobs_end_to_end() {
    let dir = tempfile::tempdir().unwrap();
    let jkl = dir.path().join("is.jkl");
    for search in ["independence", "greedy", "sequential"] {
        let out = bnsl(
            &[
                "score",
                "instances/data/sachs_1000.csv",
                "--score",
                "bic",
                "--search",
                search,
                "--time-per-var",
                "0.02",
                "-o",
                jkl.to_str().unwrap(),
            ],
            "2",
        );
        assert!(
            out.status.success(),
            "{search}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let rep = json_of(&bnsl(
            &[
                "learn",
                jkl.to_str().unwrap(),
                "--method",
                "asobs",
                "--restarts",
                "10",
                "--json",
            ],
            "2",
        ));
        assert_eq!(rep["status"], "feasible", "{search}");
    }
    // Data straight into ASOBS, with a total budget.
    let rep = json_of(&bnsl(
        &[
            "learn",
            "instances/data/sachs_1000.csv",
            "--search",
            "independence",
            "--time-total",
            "0.2",
            "--method",
            "asobs",
            "--time-limit",
            "0.5",
            "--json",
        ],
        "2",
    ));
    assert_eq!(rep["status"], "feasible");
}

#[test]
fn bad_search_flags_are_refused() {
    let cases: [&[&str]; 7] = [
        &[
            "score",
            "instances/data/sachs_1000.csv",
            "--search",
            "greedy",
        ],
        &[
            "score",
            "instances/data/sachs_1000.csv",
            "--search",
            "independence",
            "--time-per-var",
            "-1",
        ],
        &[
            "learn",
            "instances/scores/sachs_1000.BDeu1.palim3.jkl",
            "--method",
            "asobs",
            "--restarts",
            "0",
        ],
        &[
            "learn",
            "instances/scores/sachs_1000.BDeu1.palim3.jkl",
            "--method",
            "asobs",
            "--time-limit",
            "0",
        ],
        &[
            "learn",
            "instances/scores/sachs_1000.BDeu1.palim3.jkl",
            "--method",
            "asobs",
            "--local-search",
            "insertion",
            "--no-local-search",
        ],
        &[
            "learn",
            "instances/scores/sachs_1000.BDeu1.palim3.jkl",
            "--method",
            "asobs",
            "--local-search",
            "sideways",
        ],
        &[
            "learn",
            "instances/scores/sachs_1000.BDeu1.palim3.jkl",
            "--method",
            "dp",
            "--local-search",
            "insertion",
        ],
    ];
    for args in cases {
        let out = bnsl(args, "2");
        assert!(!out.status.success(), "{args:?} was accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--"), "{args:?}: unclear error {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
