//! `bnsl learn --method dp` reaches every known optimum of
//! `ground_truth/optima.csv` with at most 20 variables, and `bnsl verify` accepts the DAG
//! with that score. Runs the real binary, end to end.
#![cfg(feature = "shared-tests")]

mod common;

use std::path::Path;
use std::process::Command;

fn bnsl(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_bnsl"))
        .args(args)
        .output()
        .expect("run bnsl")
}

/// Learns with DP, checks the score, and verifies the DAG file against the same input.
fn learn_and_verify(input: &Path, extra: &[&str], optimum: f64, tmp: &Path) {
    let dag = tmp.join("dag.json");
    let mut args = vec![
        "learn",
        input.to_str().unwrap(),
        "--method",
        "dp",
        "--json",
        "-o",
        dag.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let out = bnsl(&args);
    assert!(
        out.status.success(),
        "{}: {}",
        input.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let score = report["score"].as_f64().unwrap();
    assert_eq!(report["status"], "optimal");
    assert!(
        (score - optimum).abs() <= 1e-6,
        "{}: dp {score} vs known optimum {optimum}",
        input.display()
    );
    let expect = format!("{optimum}");
    let mut vargs = vec![
        "verify",
        "--dag",
        dag.to_str().unwrap(),
        "--expect",
        &expect,
    ];
    let is_data = input.extension().is_some_and(|e| e == "dat");
    vargs.extend_from_slice(&[
        if is_data { "--data" } else { "--scores" },
        input.to_str().unwrap(),
    ]);
    let out = bnsl(&vargs);
    assert!(
        out.status.success(),
        "verify {}: {}",
        input.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn dp_reaches_every_known_optimum_up_to_20_variables() {
    let shared = common::shared();
    let tmp = tempfile::tempdir().unwrap();
    let mut checked = Vec::new();
    for known in common::known_optima() {
        let (instance, params, optimum) = (&known.instance, &known.params, known.optimum);
        let path = shared.join(instance);
        if instance.ends_with(".dat") {
            // Data rows: score with the row's settings (BDeu ess 1 and its parent limit).
            if instance.contains("alarm_10000") {
                continue; // 37 variables: beyond the DP oracle.
            }
            let limit = if params.starts_with("palim 1") {
                "1"
            } else {
                "3"
            };
            learn_and_verify(
                &path,
                &["--score", "bdeu", "--ess", "1", "--max-parents", limit],
                optimum,
                tmp.path(),
            );
        } else {
            if common::score_file_vars(&path) > 20 {
                continue;
            }
            learn_and_verify(&path, &[], optimum, tmp.path());
        }
        checked.push(instance.clone());
    }
    eprintln!("checked {} instances: {checked:?}", checked.len());
    assert!(
        checked.len() >= 20,
        "expected at least 20 instances with n ≤ 20, got {checked:?}"
    );
}
