//! `bnsl export`: the model files it writes, read back by HiGHS's own LP and MPS readers,
//! have the optimum bnsl's DP finds, and their column names say which family is chosen.
#![cfg(feature = "highs")]

mod common;

use bnsl_solvers::milp::highs_file::solve_model_file;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

use common::{bnsl, fails_with, shipped_scores as scores};

fn dp(file: &str) -> Value {
    let out = bnsl(&["learn", file, "--method", "dp", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn export(file: &str, out: &Path, extra: &[&str]) {
    let mut args = vec!["export", file, "-o", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    let run = bnsl(&args);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
}

/// The parent sets a solution of an exported model chooses, from its column names
/// `x.CHILD.PARENT…`: child → sorted parents.
fn chosen_families(names: &[String], values: &[f64]) -> BTreeMap<String, Vec<String>> {
    names
        .iter()
        .zip(values)
        .filter(|(name, &v)| name.starts_with("x.") && v > 0.5)
        .map(|(name, _)| {
            let mut parts = name[2..].split('.').map(str::to_string);
            let child = parts.next().unwrap();
            let mut parents: Vec<String> = parts.collect();
            parents.sort();
            (child, parents)
        })
        .collect()
}

#[test]
fn ordering_models_solve_to_the_dp_optimum_in_both_formats() {
    let dir = tempfile::tempdir().unwrap();
    let formats = [
        ("lp", &[][..], 1.0),
        ("mps", &[][..], 1.0),
        ("mps", &["--negate-objective"][..], -1.0),
    ];
    for (name, formats) in [
        ("asia_10000.BDeu1.palim3.jkl", &formats[..]),
        ("sachs_1000.BDeu1.palim3.jkl", &formats[..1]),
    ] {
        let file = scores(name);
        let best = dp(&file);
        let optimum = best["score"].as_f64().unwrap();
        for &(ext, extra, sign) in formats {
            let path = dir.path().join(format!("model.{ext}"));
            let mut args = vec!["--formulation", "ordering"];
            args.extend_from_slice(extra);
            export(&file, &path, &args);
            let solved = solve_model_file(&path).unwrap();
            assert!(solved.optimal, "{name} {ext}: {solved:?}");
            assert!(
                (sign * solved.objective - optimum).abs() <= 1e-6 * optimum.abs(),
                "{name} {ext}: file optimum {} vs DP {optimum}",
                solved.objective
            );
            assert_eq!(
                chosen_families(&solved.names, &solved.values).len(),
                best["parents"].as_object().unwrap().len()
            );
        }
    }
}

/// On Child the cluster cuts of the root rounds close the family program: its MIP
/// optimum is the DP optimum, and the chosen columns name an optimal DAG.
#[test]
fn root_cuts_close_the_family_program_on_child() {
    let dir = tempfile::tempdir().unwrap();
    let file = scores("child_1000.BIC.palim3.jkl");
    let best = dp(&file);
    let optimum = best["score"].as_f64().unwrap();
    let path = dir.path().join("child.lp");
    export(&file, &path, &["--root-cuts", "--backend", "highs"]);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("cluster_1"), "no cluster cut written");
    let solved = solve_model_file(&path).unwrap();
    assert!(solved.optimal);
    assert!((solved.objective - optimum).abs() <= 1e-6 * optimum.abs());
    let families = chosen_families(&solved.names, &solved.values);
    let dag_file = dir.path().join("dag.txt");
    let lines: String = families
        .iter()
        .map(|(c, ps)| format!("{c} <- {}\n", ps.join(", ")))
        .collect();
    std::fs::write(&dag_file, lines).unwrap();
    let verify = bnsl(&[
        "verify",
        "--scores",
        &file,
        "--dag",
        dag_file.to_str().unwrap(),
        "--expect",
        &optimum.to_string(),
    ]);
    assert!(
        verify.status.success(),
        "{}",
        String::from_utf8_lossy(&verify.stderr)
    );
    // Without the cuts the family program alone lets every node take its best set.
    export(&file, &path, &[]);
    let relaxed = solve_model_file(&path).unwrap();
    assert!(relaxed.objective > optimum + 1e-6);
}

/// The ordering program with the root's cluster cuts is complete (its optimum is the DP
/// optimum) and holds both kinds of rows; a cut written on the wrong columns would cut
/// the optimum off.
#[test]
fn root_cuts_join_the_ordering_program() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["child_1000.BIC.palim3.jkl", "sachs_1000.BDeu1.palim3.jkl"] {
        let file = scores(name);
        let optimum = dp(&file)["score"].as_f64().unwrap();
        let path = dir.path().join("ordering_cuts.lp");
        export(
            &file,
            &path,
            &[
                "--formulation",
                "ordering",
                "--root-cuts",
                "--backend",
                "highs",
            ],
        );
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("cluster_1") && text.contains("order_"),
            "{name}"
        );
        let solved = solve_model_file(&path).unwrap();
        assert!(solved.optimal, "{name}");
        assert!(
            (solved.objective - optimum).abs() <= 1e-6 * optimum.abs(),
            "{name}: {} against {optimum}",
            solved.objective
        );
    }
}

#[test]
fn export_errors_are_clear() {
    let file = scores("asia_10000.BDeu1.palim3.jkl");
    fails_with(
        &["export", &file, "-o", "model.txt"],
        &[".lp, .mps or .wcnf"],
    );
    fails_with(
        &["export", "/nonexistent/s.jkl", "-o", "m.lp"],
        &["/nonexistent/s.jkl"],
    );
}

/// The bounded-treewidth MILP written by `export --treewidth W`, read back by HiGHS, has
/// the optimum `learn --treewidth W` proves, in both forms.
#[test]
fn treewidth_models_solve_to_the_bounded_optimum() {
    let dir = tempfile::tempdir().unwrap();
    let file = scores("asia_10000.BDeu1.palim3.jkl");
    let out = bnsl(&["learn", &file, "--treewidth", "1", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bounded: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(bounded["status"], "optimal");
    let optimum = bounded["score"].as_f64().unwrap();
    for form in ["tight", "paper"] {
        let path = dir.path().join(format!("tw_{form}.lp"));
        export(
            &file,
            &path,
            &["--treewidth", "1", "--treewidth-form", form],
        );
        let solved = solve_model_file(&path).unwrap();
        assert!(solved.optimal, "{form}: {solved:?}");
        assert!(
            (solved.objective - optimum).abs() <= 1e-6 * optimum.abs(),
            "{form}: file optimum {} vs learn {optimum}",
            solved.objective
        );
    }
    fails_with(
        &["export", &file, "-o", "x.lp", "--treewidth-form", "paper"],
        &["--treewidth"],
    );
}
