//! `bnsl learn --method ilp` reaches the known optima of `ground_truth/optima.csv`
//! (score files), through the CLI, on every back-end; the back-ends and both
//! formulations agree. The CI tests take the instances each engine proves within seconds
//! on 2 cores; the `#[ignore]`d ones take every instance with the time limits stated.
#![cfg(all(
    feature = "shared-tests",
    feature = "highs",
    feature = "cbc",
    feature = "scip"
))]

mod common;

use std::path::Path;
use std::process::Command;

/// Score files SCIP's branch and cut does not prove within a minute here (2 cores):
/// left to the ignored test. Measured with the exact-ILP study (`scripts/bench/plans/exact-ilp.toml`).
/// `alarm_10000.scores` (6,362 candidates) takes about two minutes (126 s; GOBNILP's own
/// proof of it took 137 s). (carpo500, the slowest file checked, takes 11-16 s.)
const SLOW_ON_SCIP: &[&str] = &["alarm_10000"];

/// Score files the cut loop (HiGHS, CBC) does not prove within 1800 s here. On
/// `alarm_10000.scores` (optimum −106087.637043) the cluster-cut LP bound stays 1.2 %
/// above the optimum after the LP rounds, and every MIP round is a branch and bound from
/// scratch. SCIP's branch and cut proves it in about two minutes. HiGHS proves it in
/// 967 s since MIP rounds stop at their first improving solutions (2,010 s before; see
/// [`highs_proves_alarm_10000_within_two_hours`]). CBC does not, in any limit tried:
/// 7,200 s left it at −106340.34, bound −105998.06 (216 rounds).
const UNPROVED_BY_THE_CUT_LOOP: &[&str] = &["alarm_10000"];

/// Learns `file` with the ILP on `backend` and `formulation` within `limit` seconds
/// and checks the optimum and the DAG (through `verify`).
fn learn_to_optimum(file: &Path, backend: &str, formulation: &str, limit: u32, optimum: f64) {
    let score = prove(file, backend, formulation, limit, Some(optimum));
    assert!(
        (score - optimum).abs() <= 1e-6 * optimum.abs().max(1.0),
        "{} on {backend}/{formulation}: {score} vs known optimum {optimum}",
        file.display()
    );
}

/// Learns `file` with the ILP on `backend` and `formulation`, checks that it is proved
/// optimal within `limit` seconds and that `verify` finds the DAG acyclic, built from
/// the candidates and scoring `known` (the score reported when `None`); returns the
/// score reported.
fn prove(file: &Path, backend: &str, formulation: &str, limit: u32, known: Option<f64>) -> f64 {
    let tmp = tempfile::tempdir().unwrap();
    let dag = tmp.path().join("dag.json");
    let r = learn(file, backend, formulation, limit, &dag, &[]);
    let what = format!("{} on {backend}/{formulation}", file.display());
    assert_eq!(
        r["status"], "optimal",
        "{what}: not proved within {limit} s: {r}"
    );
    let score = r["score"].as_f64().unwrap();
    verify(file, &dag, known.unwrap_or(score));
    score
}

/// Runs `bnsl learn FILE --method ilp --json` on `backend` and `formulation` within
/// `limit` seconds, writing the DAG to `dag`; returns the JSON result.
fn learn(
    file: &Path,
    backend: &str,
    formulation: &str,
    limit: u32,
    dag: &Path,
    extra: &[&str],
) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_bnsl"))
        .args(["learn", file.to_str().unwrap(), "--method", "ilp", "--json"])
        .args(["--backend", backend, "--formulation", formulation])
        .args([
            "--time-limit",
            &limit.to_string(),
            "-o",
            dag.to_str().unwrap(),
        ])
        .args(extra)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{} on {backend}/{formulation}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Checks through `bnsl verify` that `dag` is acyclic, built from the candidates of
/// `file`, and scores `expect`.
fn verify(file: &Path, dag: &Path, expect: f64) {
    let out = Command::new(env!("CARGO_BIN_EXE_bnsl"))
        .args(["verify", "--scores", file.to_str().unwrap()])
        .args([
            "--dag",
            dag.to_str().unwrap(),
            "--expect",
            &expect.to_string(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The score-file rows of optima.csv: (path, variables, optimum).
fn score_files() -> Vec<(std::path::PathBuf, usize, f64)> {
    let shared = common::shared();
    let rows: Vec<_> = common::known_optima()
        .into_iter()
        .filter(|k| k.instance.starts_with("jkl/"))
        .map(|k| {
            let path = shared.join(&k.instance);
            let n = common::score_file_vars(&path);
            (path, n, k.optimum)
        })
        .collect();
    assert!(
        rows.len() >= 35,
        "expected ≥ 35 score files with a known optimum"
    );
    rows
}

fn is_listed(path: &Path, names: &[&str]) -> bool {
    let name = path.file_name().unwrap().to_string_lossy();
    names.iter().any(|s| name.starts_with(s))
}

#[test]
fn scip_proves_the_known_optima_it_reaches_in_seconds() {
    let mut checked = 0;
    for (path, _, optimum) in score_files() {
        if !is_listed(&path, SLOW_ON_SCIP) {
            learn_to_optimum(&path, "scip", "family", 60, optimum);
            checked += 1;
        }
    }
    assert!(checked >= 25, "only {checked} instances checked");
}

#[test]
fn every_backend_and_formulation_agrees_on_the_small_files() {
    let mut checked = 0;
    for (path, n, optimum) in score_files() {
        if n > 8 {
            continue;
        }
        for backend in ["scip", "highs", "cbc"] {
            for formulation in ["family", "ordering"] {
                learn_to_optimum(&path, backend, formulation, 120, optimum);
            }
        }
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} small instances");
}

#[test]
fn highs_and_cbc_prove_the_known_optima_up_to_20_variables() {
    for (path, n, optimum) in score_files() {
        if n <= 20 {
            for backend in ["highs", "cbc"] {
                learn_to_optimum(&path, backend, "family", 120, optimum);
            }
        }
    }
}

/// Every score file with a known optimum on SCIP within 600 s (issue 3's full check).
#[test]
#[ignore = "long: the slow instances take minutes"]
fn scip_proves_every_known_optimum() {
    for (path, _, optimum) in score_files() {
        learn_to_optimum(&path, "scip", "family", 600, optimum);
    }
}

/// carpo100, which GOBNILP does not close in 300 s (issue 3: best −1826.162583, bound
/// −1824.084501), is proved optimal by SCIP's branch and cut within 1800 s, at a score
/// inside GOBNILP's bracket, and the DAG checks out (through `verify`).
#[test]
#[ignore = "long: three to five minutes"]
fn scip_proves_carpo100_inside_gobnilps_bracket() {
    const GOBNILP_BEST: f64 = -1826.162583;
    const GOBNILP_BOUND: f64 = -1824.084501;
    let path = common::shared().join("jkl/gobnilp_bdeu/carpo100.BDeu1.palim3.jkl");
    let score = prove(&path, "scip", "family", 1800, None);
    assert!(
        (GOBNILP_BEST..=GOBNILP_BOUND).contains(&score),
        "{score} outside GOBNILP's bracket"
    );
}

/// Every score file with a known optimum but those of [`UNPROVED_BY_THE_CUT_LOOP`] on
/// HiGHS and CBC within 1800 s each (carpo500, the longest, takes 147 s on HiGHS and 243 s
/// on CBC).
#[test]
#[ignore = "long: about 8 minutes"]
fn highs_and_cbc_prove_every_known_optimum_but_alarm_10000() {
    for (path, _, optimum) in score_files() {
        if is_listed(&path, UNPROVED_BY_THE_CUT_LOOP) {
            continue;
        }
        for backend in ["highs", "cbc"] {
            learn_to_optimum(&path, backend, "family", 1800, optimum);
        }
    }
}

/// The files of [`UNPROVED_BY_THE_CUT_LOOP`] on HiGHS within the limit stated for them:
/// two hours (`alarm_10000.scores` took 967 s here, run beside a CBC solve on the other
/// core; 2,010 s before the MIP rounds' solution budget).
#[test]
#[ignore = "long: about 16 minutes"]
fn highs_proves_alarm_10000_within_two_hours() {
    let mut proved = 0;
    for (path, _, optimum) in score_files() {
        if is_listed(&path, UNPROVED_BY_THE_CUT_LOOP) {
            learn_to_optimum(&path, "highs", "family", 7200, optimum);
            proved += 1;
        }
    }
    assert!(
        proved > 0,
        "no file of UNPROVED_BY_THE_CUT_LOOP is in optima.csv"
    );
}

/// Learns `path` on `backend` within `limit` seconds and checks that the verified DAG
/// and the bound bracket the known `optimum`.
fn assert_brackets(path: &Path, backend: &str, limit: u32, optimum: f64, extra: &[&str]) {
    let tmp = tempfile::tempdir().unwrap();
    let dag = tmp.path().join("dag.json");
    let r = learn(path, backend, "family", limit, &dag, extra);
    let score = r["score"].as_f64().unwrap();
    let bound = r["bound"].as_f64().unwrap();
    let tolerance = 1e-6 * optimum.abs();
    assert!(
        score <= optimum + tolerance && optimum <= bound + tolerance,
        "{} on {backend}: {score} ≤ {optimum} ≤ {bound} fails",
        path.display()
    );
    verify(path, &dag, score);
}

/// On the files the cut loop does not prove, a time limit returns a verified DAG and a
/// bound that bracket the known optimum.
#[test]
#[ignore = "long: ten minutes"]
fn the_cut_loop_brackets_the_optima_it_does_not_prove() {
    for (path, _, optimum) in score_files() {
        if !is_listed(&path, UNPROVED_BY_THE_CUT_LOOP) {
            continue;
        }
        for backend in ["highs", "cbc"] {
            assert_brackets(&path, backend, 300, optimum, &[]);
        }
    }
}

/// A 20 s limit falls in CBC's MIP rounds on `alarm_10000.scores` with heuristic
/// separation alone (its LP rounds end near 5 s; its MIP rounds run from 5 to 19 s and
/// from 19 s to beyond 29 s): the run must stop cleanly with a bracket. With
/// CBC's `maxSolutions` set, such a stop crashed inside CBC (SIGSEGV in
/// `CglPreProcess::postProcess`).
#[test]
fn cbc_stops_cleanly_at_a_time_limit_in_its_mip_rounds() {
    let mut checked = 0;
    for (path, _, optimum) in score_files() {
        if is_listed(&path, &["alarm_10000"]) {
            assert_brackets(&path, "cbc", 20, optimum, &["--heuristic-separation-only"]);
            checked += 1;
        }
    }
    assert_eq!(checked, 1, "alarm_10000 is not in optima.csv");
}
