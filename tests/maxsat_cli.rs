//! The MaxSAT encoding from the command line: `bnsl export --format wcnf|wcnf-old` and
//! `bnsl decode` of a solver's answer, in both `v` conventions, with the inputs refused.

mod common;

use common::{bnsl, fails_with, run_json, shipped_scores};
use std::collections::HashMap;

/// The family variables of a WCNF file: (node name, sorted parent names) → variable.
fn family_vars(text: &str) -> HashMap<(String, Vec<String>), u32> {
    let mut names = HashMap::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("c bnsl node ") {
            let mut w = rest.split_whitespace();
            let index: usize = w.next().unwrap().parse().unwrap();
            names.insert(index, w.next().unwrap().to_string());
        }
    }
    let mut vars = HashMap::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("c bnsl family ") {
            let w: Vec<&str> = rest.split_whitespace().collect();
            let node = names[&w[1].parse::<usize>().unwrap()].clone();
            let mut parents: Vec<String> = w[3..]
                .iter()
                .map(|p| names[&p.parse::<usize>().unwrap()].clone())
                .collect();
            parents.sort();
            vars.insert((node, parents), w[0].parse().unwrap());
        }
    }
    vars
}

/// The variables of `answer`'s families (a `learn --json` object).
fn chosen(vars: &HashMap<(String, Vec<String>), u32>, answer: &serde_json::Value) -> Vec<u32> {
    answer["parents"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(node, ps)| {
            let mut parents: Vec<String> = ps
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap().to_string())
                .collect();
            parents.sort();
            vars[&(node.clone(), parents)]
        })
        .collect()
}

/// The DP's optimum, written as a solver's answer in either convention, decodes to the
/// same network and score from either file layout; `--scores` checks it against the
/// score file.
#[test]
fn an_answer_decodes_to_its_network() {
    let scores = shipped_scores("child_1000.BDeu1.palim3.jkl");
    let dir = tempfile::tempdir().unwrap();
    let optimum = run_json(&["learn", &scores, "--method", "dp", "--json"]);
    for format in ["wcnf", "wcnf-old"] {
        let model = dir.path().join(format!("child.{format}"));
        let model_s = model.to_string_lossy().into_owned();
        let out = bnsl(&["export", &scores, "--format", format, "-o", &model_s]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = std::fs::read_to_string(&model).unwrap();
        let header = text.lines().find(|l| !l.starts_with('c')).unwrap();
        assert_eq!(
            header.starts_with("p wcnf "),
            format == "wcnf-old",
            "{header}"
        );
        let vars = family_vars(&text);
        let set = chosen(&vars, &optimum);
        let most = *vars.values().max().unwrap() as usize;
        let literals: Vec<String> = set.iter().map(|v| v.to_string()).collect();
        let bits: String = (1..=most)
            .map(|v| if set.contains(&(v as u32)) { '1' } else { '0' })
            .collect();
        for (i, answer) in [
            format!("v {}\n", literals.join(" ")),
            format!("s OPTIMUM FOUND\nv {bits}\n"),
        ]
        .iter()
        .enumerate()
        {
            let solution = dir.path().join(format!("{format}_{i}.sol"));
            std::fs::write(&solution, answer).unwrap();
            let solution = solution.to_string_lossy().into_owned();
            for with_scores in [false, true] {
                let mut args = vec!["decode", &model_s, &solution, "--json"];
                if with_scores {
                    args.extend(["--scores", &scores]);
                }
                let r = run_json(&args);
                assert_eq!(r["parents"], optimum["parents"], "{format} {i}");
                let (a, b) = (
                    r["score"].as_f64().unwrap(),
                    optimum["score"].as_f64().unwrap(),
                );
                assert!((a - b).abs() < 1e-6, "{format} {i}: {a} vs {b}");
            }
        }
    }
}

/// Answers that are no network, files that are no bnsl model, and options that do not
/// apply to WCNF are refused with their cause.
#[test]
fn bad_answers_and_options_are_refused() {
    let scores = shipped_scores("asia_10000.BDeu1.palim3.jkl");
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("asia.wcnf");
    let model_s = model.to_string_lossy().into_owned();
    assert!(bnsl(&["export", &scores, "-o", &model_s]).status.success());
    let vars = family_vars(&std::fs::read_to_string(&model).unwrap());
    let mut by_node: HashMap<String, Vec<u32>> = HashMap::new();
    for ((node, _), &v) in &vars {
        by_node.entry(node.clone()).or_default().push(v);
    }
    let (node, mut several) = by_node
        .into_iter()
        .filter(|(_, vs)| vs.len() > 1)
        .min()
        .expect("a node with two candidates");
    several.sort();
    let write = |name: &str, text: String| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_string_lossy().into_owned()
    };
    let two = write("two.sol", format!("v {} {}\n", several[0], several[1]));
    let why = format!("{node} takes more than one parent set");
    fails_with(&["decode", &model_s, &two], &["two.sol", &why]);
    let none = write("none.sol", "s UNKNOWN\n".into());
    fails_with(&["decode", &model_s, &none], &["none.sol", "no `v` line"]);
    let not_bnsl = write("plain.wcnf", "h 1 2 0\n3 -1 0\n".into());
    fails_with(
        &["decode", &not_bnsl, &two],
        &["plain.wcnf", "not a model written by bnsl"],
    );
    fails_with(
        &[
            "export",
            &scores,
            "--treewidth",
            "2",
            "--treewidth-form",
            "paper",
            "-o",
            &model_s,
        ],
        &["--treewidth-form shape the MILP"],
    );
    fails_with(
        &["export", &scores, "--root-cuts", "-o", &model_s],
        &["a WCNF model is the MaxSAT encoding"],
    );
    let text = std::fs::read_to_string(&model).unwrap();
    let soft = text
        .lines()
        .find(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .unwrap();
    let (weight, rest) = soft.split_once(' ').unwrap();
    let huge = text.replacen(soft, &format!("99999999999999999999999 {rest}"), 1);
    let huge = write("huge.wcnf", huge);
    fails_with(
        &["decode", &huge, &two],
        &[
            "huge.wcnf",
            "the weight `99999999999999999999999` does not fit in 64 bits",
        ],
    );
    let sum = text.replacen(soft, &format!("{} {rest}", u64::MAX), 1);
    let sum = write("sum.wcnf", sum);
    fails_with(
        &["decode", &sum, &two],
        &["sum.wcnf", "the soft weights sum beyond 64 bits"],
    );
    assert!(weight.parse::<u64>().is_ok());
    let vars_in_model = text
        .lines()
        .filter(|l| !l.starts_with('c'))
        .flat_map(|l| l.split_whitespace().skip(1))
        .filter_map(|t| t.parse::<i64>().ok())
        .map(|l| l.unsigned_abs())
        .max()
        .unwrap();
    let long = "0".repeat(vars_in_model as usize + 3);
    let long = write("long.sol", format!("v {long}\n"));
    let why = format!(
        "the `v` line has {} values; the formula has only {vars_in_model} variables",
        vars_in_model + 3
    );
    fails_with(&["decode", &model_s, &long], &["long.sol", &why]);
    let other = shipped_scores("child_1000.BDeu1.palim3.jkl");
    let free = write("free.sol", format!("v {}\n", several[0]));
    fails_with(
        &["decode", &model_s, &free, "--scores", &other],
        &["not those of"],
    );
}

/// `--method maxsat` proves the DP's optimum on the small shipped files with every
/// algorithm (the hitting sets of ihs on the pure-Rust back-end, seeded with cluster
/// clauses or not, and on HiGHS in a native build), with the solver's counts in the
/// JSON.
#[test]
fn the_built_in_solver_proves_the_dp_optimum() {
    for name in [
        "cancer_1000.BDeu1.palim3.jkl",
        "earthquake_1000.BDeu1.palim3.jkl",
        "survey_1000.BDeu1.palim3.jkl",
        "asia_10000.BDeu1.palim3.jkl",
    ] {
        let scores = shipped_scores(name);
        let dp = run_json(&["learn", &scores, "--method", "dp", "--json"]);
        let mut runs: Vec<(&str, &[&str])> = vec![
            ("oll", &[]),
            ("lsu", &[]),
            ("ihs", &[]),
            ("ihs", &["--ihs-seeding", "off"]),
        ];
        if cfg!(feature = "highs") {
            runs.push(("ihs", &["--backend", "highs"]));
            runs.push(("ihs", &["--backend", "highs", "--ihs-seeding", "off"]));
        }
        for (algorithm, backend) in runs {
            let mut args = vec![
                "learn",
                &scores,
                "--method",
                "maxsat",
                "--maxsat-algorithm",
                algorithm,
                "--json",
            ];
            args.extend(backend);
            let answer = run_json(&args);
            assert_eq!(answer["status"], "optimal", "{name} {algorithm}");
            assert_eq!(answer["algorithm"], algorithm);
            assert_eq!(
                answer["seeded"],
                algorithm == "ihs" && !backend.contains(&"off"),
                "{name} {backend:?}"
            );
            let score = answer["score"].as_f64().unwrap();
            let best = dp["score"].as_f64().unwrap();
            assert!(
                (score - best).abs() < 1e-6,
                "{name} {algorithm}: {score} vs {best}"
            );
            let bound = answer["bound"].as_f64().unwrap();
            assert!(bound >= score && bound - score < 1e-6, "{bound} vs {score}");
            assert!(answer["sat_calls"].as_u64().unwrap() >= 1);
            assert!(answer["cores"].is_u64());
            assert!(answer["cluster_clauses"].is_u64());
        }
    }
}

/// A time limit ends the search with its incumbent and a bound above it (the run may
/// overshoot the limit on a loaded host, but not by many times).
#[test]
fn a_time_limit_keeps_the_incumbent_and_the_bound() {
    let scores = shipped_scores("alarm_1000.BDeu1.palim3.jkl");
    let answer = run_json(&[
        "learn",
        &scores,
        "--method",
        "maxsat",
        "--time-limit",
        "1",
        "--json",
    ]);
    assert_eq!(answer["status"], "feasible");
    let score = answer["score"].as_f64().unwrap();
    assert!(answer["bound"].as_f64().unwrap() > score);
    assert!(answer["time_s"].as_f64().unwrap() < 10.0);
}

#[test]
fn maxsat_options_are_checked() {
    let scores = shipped_scores("cancer_1000.BDeu1.palim3.jkl");
    fails_with(
        &["learn", &scores, "--maxsat-algorithm", "lsu"],
        &["--maxsat-algorithm needs --method maxsat"],
    );
    fails_with(
        &["learn", &scores, "--method", "maxsat", "--backend", "highs"],
        &["--backend needs --method ilp"],
    );
    for wrong in [
        &["learn", &scores, "--ihs-seeding", "on"][..],
        &[
            "learn",
            &scores,
            "--method",
            "maxsat",
            "--maxsat-algorithm",
            "oll",
            "--ihs-seeding",
            "off",
        ],
    ] {
        fails_with(
            wrong,
            &["--ihs-seeding needs --method maxsat with the ihs algorithm"],
        );
    }
    fails_with(
        &["learn", &scores, "--method", "asobs", "--treewidth", "2"],
        &[
            "--treewidth needs",
            "maxsat (its MaxSAT encoding)",
            "asobs cannot keep a treewidth bound",
        ],
    );
}

/// `learn --proof DIR` writes a proof that `verify --proof DIR` accepts; a changed
/// formula, a truncated proof or another DAG is rejected.
#[test]
fn an_optimality_proof_is_checked_and_tampering_is_caught() {
    let scores = shipped_scores("earthquake_1000.BDeu1.palim3.jkl");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("proof");
    let dir_s = dir.to_string_lossy().into_owned();
    let answer = run_json(&["learn", &scores, "--proof", &dir_s, "--json"]);
    assert_eq!(answer["status"], "optimal");
    assert!(answer["proof"]["clauses"].as_u64().unwrap() > 0);
    let dag = tmp.path().join("dag.json");
    std::fs::write(&dag, answer.to_string()).unwrap();
    let dag_s = dag.to_string_lossy().into_owned();
    let verify = [
        "verify", "--scores", &scores, "--dag", &dag_s, "--proof", &dir_s,
    ];
    let checked = bnsl(&verify);
    let err = String::from_utf8_lossy(&checked.stderr);
    assert!(checked.status.success(), "{err}");
    assert!(err.contains("proof checked"), "{err}");

    let cnf = dir.join("bound.cnf");
    let original = std::fs::read_to_string(&cnf).unwrap();
    let last = original.trim_end().rsplit_once('\n').unwrap().0;
    let flipped = format!("{last}\n1 0\n");
    std::fs::write(&cnf, flipped).unwrap();
    fails_with(&verify, &["bound.cnf", "clause"]);
    std::fs::write(&cnf, &original).unwrap();

    let drat = dir.join("bound.drat");
    let proof = std::fs::read_to_string(&drat).unwrap();
    let half: String = proof
        .lines()
        .take(proof.lines().count() / 2)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&drat, half).unwrap();
    fails_with(&verify, &["bound.drat", "rejected"]);
    std::fs::write(&drat, &proof).unwrap();

    let empty = tmp.path().join("empty.txt");
    let names = answer["parents"].as_object().unwrap().keys();
    let listing: String = names.map(|n| format!("{n} <-\n")).collect();
    std::fs::write(&empty, listing).unwrap();
    let empty_s = empty.to_string_lossy().into_owned();
    fails_with(
        &[
            "verify", "--scores", &scores, "--dag", &empty_s, "--proof", &dir_s,
        ],
        &["rejected", "not the bound formula"],
    );
    // The built-in solver is far from proving alarm within 0.5 s on any host.
    let alarm = shipped_scores("alarm_1000.BDeu1.palim3.jkl");
    fails_with(
        &[
            "learn",
            &alarm,
            "--method",
            "maxsat",
            "--time-limit",
            "0.5",
            "--proof",
            &dir_s,
        ],
        &["--proof needs an optimal answer"],
    );
}

/// `--method maxsat --treewidth W` proves the bounded-treewidth MILP's optimum on the
/// small shipped files, with its width certified; `export --treewidth W` writes the same
/// encoding as WCNF.
#[test]
fn bounded_treewidth_by_maxsat_agrees_with_the_milp() {
    for name in [
        "earthquake_1000.BDeu1.palim3.jkl",
        "survey_1000.BDeu1.palim3.jkl",
    ] {
        let scores = shipped_scores(name);
        for width in ["1", "2"] {
            let milp = run_json(&[
                "learn",
                &scores,
                "--method",
                "ilp",
                "--treewidth",
                width,
                "--json",
            ]);
            // Seeded by default.
            for (seeding, seeded) in [(&[][..], true), (&["--ihs-seeding", "off"][..], false)] {
                let mut args = vec![
                    "learn",
                    &scores,
                    "--method",
                    "maxsat",
                    "--treewidth",
                    width,
                    "--json",
                ];
                args.extend(seeding);
                let maxsat = run_json(&args);
                assert_eq!(maxsat["status"], "optimal", "{name} W={width}");
                assert_eq!(maxsat["seeded"], seeded);
                let (a, b) = (
                    maxsat["score"].as_f64().unwrap(),
                    milp["score"].as_f64().unwrap(),
                );
                assert!((a - b).abs() < 1e-6, "{name} W={width}: {a} vs {b}");
                assert!(maxsat["treewidth"].as_u64().unwrap() <= width.parse().unwrap());
            }
        }
    }
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("tw.wcnf");
    let scores = shipped_scores("earthquake_1000.BDeu1.palim3.jkl");
    let out = bnsl(&[
        "export",
        &scores,
        "--treewidth",
        "1",
        "-o",
        &model.to_string_lossy(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("bounded-treewidth (W = 1) MaxSAT encoding"),
        "{err}"
    );
}
