//! Certificates of optimality from the command line: `bnsl learn --certificate FILE`,
//! `bnsl verify --certificate FILE` (exact arithmetic), and the stand-alone Python
//! checker of the README (`scripts/check_certificate.py`); tampered certificates and
//! score files are rejected by both.
#![cfg(feature = "highs")]

mod common;

use common::{fails_with, repo, run_json, shipped_scores, stderr_outcome};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// Learns `scores` with a certificate written to `dir/name.json`; returns its path.
fn certify(scores: &str, dir: &Path, name: &str) -> String {
    let path = dir.join(format!("{name}.json"));
    let path = path.to_str().unwrap();
    let answer = run_json(&["learn", scores, "--certificate", path, "--json"]);
    assert_eq!(answer["status"], "optimal");
    assert!(answer["certificate"]["leaves"].as_u64().unwrap() >= 1);
    path.to_string()
}

/// Runs the README's Python checker; `Ok(stdout)` when it accepts.
fn python_check(scores: &str, certificate: &str) -> Result<String, String> {
    let script = repo().join("scripts/check_certificate.py");
    let out = Command::new("python3")
        .arg(script)
        .args([scores, certificate])
        .output()
        .expect("python3 runs (the stand-alone checker needs it)");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    match out.status.success() {
        true => Ok(text(&out.stdout)),
        false => Err(text(&out.stderr)),
    }
}

/// `bnsl verify --certificate` on `scores`; `Ok(stderr)` when it accepts.
fn bnsl_check(scores: &str, certificate: &str) -> Result<String, String> {
    stderr_outcome(&["verify", "--scores", scores, "--certificate", certificate])
}

#[test]
fn optima_of_shipped_files_are_certified_and_both_checkers_accept() {
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "cancer_1000.BDeu1.palim3",
        "asia_10000.BDeu1.palim3",
        "child_1000.BIC.palim3",
        "insurance_1000.BDeu1.palim3",
    ] {
        let scores = shipped_scores(&format!("{name}.jkl"));
        let certificate = certify(&scores, dir.path(), name);
        let accepted = bnsl_check(&scores, &certificate).unwrap();
        assert!(
            accepted.contains("certificate checked (exact arithmetic)"),
            "{accepted}"
        );
        let accepted = python_check(&scores, &certificate).unwrap();
        assert!(accepted.starts_with("accepted"), "{name}: {accepted}");
    }
}

/// The first leaf of a certificate that has a cluster with a positive λ.
fn leaf_with_cluster(certificate: &mut Value) -> &mut Value {
    certificate["tree"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find_map(|item| {
            let leaf = item.get_mut("leaf")?;
            (!leaf["clusters"].as_array()?.is_empty()).then_some(leaf)
        })
        .expect("a leaf with a cluster")
}

#[test]
fn tampered_certificates_and_scores_are_rejected_by_both_checkers() {
    let dir = tempfile::tempdir().unwrap();
    let scores = shipped_scores("insurance_1000.BDeu1.palim3.jkl");
    let path = certify(&scores, dir.path(), "insurance");
    let original: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let write = |name: &str, value: &Value| {
        let p = dir.path().join(name);
        std::fs::write(&p, value.to_string()).unwrap();
        p.to_str().unwrap().to_string()
    };
    // One dual changed: λ doubled (the stated bound kept, then restated).
    let mut changed = original.clone();
    let leaf = leaf_with_cluster(&mut changed);
    let lambda: f64 = leaf["clusters"][0]["lambda"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let bound: f64 = leaf["bound"].as_str().unwrap().parse().unwrap();
    leaf["clusters"][0]["lambda"] = Value::from(format!("{:.12}", 2.0 * lambda));
    let doubled = write("doubled.json", &changed);
    leaf_with_cluster(&mut changed)["bound"] = Value::from(format!("{:.12}", bound - lambda));
    let restated = write("restated.json", &changed);
    // One cluster dropped, the bound restated.
    let mut dropped = original.clone();
    let leaf = leaf_with_cluster(&mut dropped);
    let gone = leaf["clusters"].as_array_mut().unwrap().remove(0);
    let lambda: f64 = gone["lambda"].as_str().unwrap().parse().unwrap();
    let bound: f64 = leaf["bound"].as_str().unwrap().parse().unwrap();
    leaf["bound"] = Value::from(format!("{:.12}", bound + lambda));
    let dropped = write("dropped.json", &dropped);
    for tampered in [&doubled, &restated, &dropped] {
        let why = bnsl_check(&scores, tampered).unwrap_err();
        assert!(why.contains("is rejected"), "{why}");
        let why = python_check(&scores, tampered).unwrap_err();
        assert!(why.contains("REJECTED"), "{why}");
    }
    // One score changed: a candidate the optimum does not take raised to 0.
    let text = std::fs::read_to_string(&scores).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let header = lines
        .iter()
        .position(|l| l.starts_with("Age "))
        .expect("the block of Age");
    let last = header
        + lines[header]
            .split_whitespace()
            .nth(1)
            .unwrap()
            .parse::<usize>()
            .unwrap();
    let mut fields: Vec<&str> = lines[last].split_whitespace().collect();
    fields[0] = "0";
    lines[last] = fields.join(" ");
    let raised = dir.path().join("raised.jkl");
    std::fs::write(&raised, lines.join("\n") + "\n").unwrap();
    let raised = raised.to_str().unwrap();
    let why = bnsl_check(raised, &path).unwrap_err();
    assert!(why.contains("is below the score 0"), "{why}");
    assert!(python_check(raised, &path)
        .unwrap_err()
        .contains("REJECTED"));
}

/// A change made to a certificate's JSON.
type Edit = Box<dyn Fn(&mut Value)>;

#[test]
fn malformed_certificate_files_get_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let scores = shipped_scores("cancer_1000.BDeu1.palim3.jkl");
    let path = certify(&scores, dir.path(), "cancer");
    let original: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let bad = dir.path().join("bad.json");
    let bad_path = bad.to_str().unwrap();
    let cases: Vec<(Edit, &str)> = vec![
        (
            Box::new(|c| c["format"] = "other".into()),
            "`format` is \"other\"",
        ),
        (
            Box::new(|c| c["variables"][0] = "Nobody".into()),
            "another table",
        ),
        (
            Box::new(|c| c["tree"][0]["leaf"]["u"][0] = "1e3".into()),
            "is not a decimal number",
        ),
        (
            Box::new(|c| c["tree"][0]["leaf"]["bound"] = 5.into()),
            "is not a decimal string",
        ),
        (
            Box::new(|c| {
                c["tree"][0]["leaf"]["clusters"] =
                    serde_json::json!([{"nodes": ["Pollution", "Mars"], "lambda": "1"}])
            }),
            "`Mars` is not a variable",
        ),
        (
            Box::new(|c| {
                c["tree"] = serde_json::json!([{"branch": {"node": "Cancer", "parent": "Smoker"}}])
            }),
            "the tree is not complete",
        ),
    ];
    for (edit, needle) in cases {
        let mut certificate = original.clone();
        edit(&mut certificate);
        std::fs::write(&bad, certificate.to_string()).unwrap();
        fails_with(
            &["verify", "--scores", &scores, "--certificate", bad_path],
            &[needle],
        );
    }
    std::fs::write(&bad, "{ not json").unwrap();
    fails_with(
        &["verify", "--scores", &scores, "--certificate", bad_path],
        &["bad.json", "not JSON"],
    );
    // The certificate of one table is refused for another.
    fails_with(
        &[
            "verify",
            "--scores",
            &shipped_scores("asia_10000.BDeu1.palim3.jkl"),
            "--certificate",
            &path,
        ],
        &["another table"],
    );
}

#[test]
fn learning_from_data_writes_the_certified_table_beside_the_certificate() {
    let dir = tempfile::tempdir().unwrap();
    let data = repo().join("instances/data/cancer_1000.csv");
    let certificate = dir.path().join("cancer.json");
    let certificate = certificate.to_str().unwrap();
    run_json(&[
        "learn",
        data.to_str().unwrap(),
        "--certificate",
        certificate,
        "--json",
    ]);
    let table = format!("{certificate}.jkl");
    bnsl_check(&table, certificate).unwrap();
    python_check(&table, certificate).unwrap();
}

#[test]
fn certificates_need_an_optimal_unconstrained_answer() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c.json");
    let out = out.to_str().unwrap();
    let scores = shipped_scores("alarm_1000.BDeu1.palim3.jkl");
    fails_with(
        &[
            "learn",
            &scores,
            "--method",
            "asobs",
            "--time-limit",
            "1",
            "--certificate",
            out,
        ],
        &["--certificate needs an optimal answer"],
    );
    fails_with(
        &["learn", &scores, "--treewidth", "2", "--certificate", out],
        &["--certificate shows optimality over every network"],
    );
}

/// The README shows the stand-alone checker whole, as the repository ships it.
#[test]
fn the_readme_shows_the_stand_alone_checker_verbatim() {
    let script = std::fs::read_to_string(repo().join("scripts/check_certificate.py")).unwrap();
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    assert!(
        readme.contains(&format!("```python\n{script}```")),
        "README.md must show scripts/check_certificate.py verbatim in a ```python block"
    );
}
