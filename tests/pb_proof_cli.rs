//! Cutting-planes proofs of optimality from the command line: `bnsl learn --proof DIR
//! --proof-format veripb` (VeriPB's format, made from a family-ILP certificate) and
//! `bnsl verify --proof DIR`; a changed formula, a changed step, a truncated proof and
//! another DAG are rejected. The tables are ones whose DRAT refutation no SAT call
//! finishes in minutes (alarm) and small ones.
#![cfg(feature = "highs")]

mod common;

use common::{fails_with, run_json, shipped_scores, stderr_outcome};
use std::path::Path;

/// Learns `scores` with a cutting-planes proof into `dir/proof`; returns the proof
/// directory and the answer's DAG file.
fn prove(scores: &str, dir: &Path) -> (String, String) {
    let proof = dir.join("proof").to_string_lossy().into_owned();
    let answer = run_json(&[
        "learn",
        scores,
        "--proof",
        &proof,
        "--proof-format",
        "veripb",
        "--json",
    ]);
    assert_eq!(answer["status"], "optimal");
    assert_eq!(answer["proof"]["format"], "veripb");
    assert!(answer["proof"]["steps"].as_u64().unwrap() > 0);
    let dag = dir.join("dag.json");
    std::fs::write(&dag, answer.to_string()).unwrap();
    (proof, dag.to_string_lossy().into_owned())
}

/// `bnsl verify --proof`: `Ok(stderr)` when it accepts.
fn verify(scores: &str, dag: &str, proof: &str) -> Result<String, String> {
    stderr_outcome(&["verify", "--scores", scores, "--dag", dag, "--proof", proof])
}

#[test]
fn the_proof_of_alarms_optimum_is_accepted() {
    let scores = shipped_scores("alarm_1000.BDeu1.palim3.jkl");
    let tmp = tempfile::tempdir().unwrap();
    let (proof, dag) = prove(&scores, tmp.path());
    let err = verify(&scores, &dag, &proof).unwrap();
    assert!(err.contains("proof checked (cutting planes)"), "{err}");
}

#[test]
fn tampered_proofs_formulas_and_dags_are_rejected() {
    let scores = shipped_scores("child_1000.BDeu1.palim3.jkl");
    let tmp = tempfile::tempdir().unwrap();
    let (proof, dag) = prove(&scores, tmp.path());
    verify(&scores, &dag, &proof).unwrap();
    let dir = Path::new(&proof);

    // A weight of the objective bound lowered: not the formula of this table.
    let opb = dir.join("bound.opb");
    let original = std::fs::read_to_string(&opb).unwrap();
    let last = original.trim_end().rsplit_once('\n').unwrap();
    let (first_coef, rest) = last.1.split_once(' ').unwrap();
    let lowered = first_coef.parse::<u64>().unwrap() - 1;
    std::fs::write(&opb, format!("{}\n{lowered} {rest}\n", last.0)).unwrap();
    let err = verify(&scores, &dag, &proof).unwrap_err();
    assert!(
        err.contains("bound.opb") && err.contains("not the bound formula"),
        "{err}"
    );
    std::fs::write(&opb, &original).unwrap();

    // A multiplier of a leaf's linear combination raised, a truncated proof, and a
    // step that does not follow.
    let pbp = dir.join("bound.pbp");
    let steps = std::fs::read_to_string(&pbp).unwrap();
    let leaf = steps
        .lines()
        .position(|l| l.starts_with("pol") && l.contains("1000 *"))
        .expect("a leaf's combination");
    let mut lines: Vec<String> = steps.lines().map(str::to_string).collect();
    lines[leaf] = lines[leaf].replacen(" 1000 *", " 1001 *", 1);
    std::fs::write(&pbp, lines.join("\n") + "\n").unwrap();
    let err = verify(&scores, &dag, &proof).unwrap_err();
    assert!(
        err.contains("bound.pbp") && err.contains("proof line"),
        "{err}"
    );
    let half: String = steps
        .lines()
        .take(steps.lines().count() / 2)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&pbp, half).unwrap();
    let err = verify(&scores, &dag, &proof).unwrap_err();
    assert!(err.contains("without deriving a contradiction"), "{err}");
    let mut lines: Vec<String> = steps.lines().map(str::to_string).collect();
    let rup = lines.iter().position(|l| l.starts_with("rup")).unwrap();
    lines[rup] = "rup >= 1 ;".into();
    std::fs::write(&pbp, lines.join("\n") + "\n").unwrap();
    let err = verify(&scores, &dag, &proof).unwrap_err();
    assert!(err.contains("unit propagation does not refute"), "{err}");
    std::fs::write(&pbp, &steps).unwrap();
    verify(&scores, &dag, &proof).unwrap();

    // Another DAG: its formula is another one.
    let answer: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&dag).unwrap()).unwrap();
    let empty = tmp.path().join("empty.txt");
    let names = answer["parents"].as_object().unwrap().keys();
    let listing: String = names.map(|n| format!("{n} <-\n")).collect();
    std::fs::write(&empty, listing).unwrap();
    let err = verify(&scores, empty.to_str().unwrap(), &proof).unwrap_err();
    assert!(err.contains("rejected"), "{err}");
}

#[test]
fn proof_format_needs_proof() {
    let scores = shipped_scores("cancer_1000.BDeu1.palim3.jkl");
    fails_with(
        &["learn", &scores, "--proof-format", "veripb"],
        &["--proof"],
    );
}

/// The files: alarm1000 of GOBNILP's benchmark and MINOBS's child_500_1, whose
/// DRAT refutation is out of reach (README, "Proofs of optimality").
#[cfg(feature = "shared-tests")]
#[test]
fn proofs_of_shared_files_are_accepted() {
    for file in [
        "jkl/gobnilp_bdeu/alarm1000.BDeu1.palim3.jkl",
        "jkl/minobs_anc_bdeu/child_500_1.BDeu.jkl",
    ] {
        let scores = common::shared().join(file).to_string_lossy().into_owned();
        let tmp = tempfile::tempdir().unwrap();
        let (proof, dag) = prove(&scores, tmp.path());
        verify(&scores, &dag, &proof).unwrap();
    }
}
