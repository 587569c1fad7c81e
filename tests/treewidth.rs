//! Bounded treewidth (seed 003) from the command line: `bnsl treewidth` on classic
//! networks, `bnsl learn --treewidth W` on every back-end and form with its certificate
//! checked by `bnsl verify`, consistency with the unbounded optimum, and the inputs that
//! are refused.

mod common;

use common::{dp_optimum_and_width, fails_with, repo, run_json, shipped_scores, verify_within};

fn network(name: &str) -> String {
    repo()
        .join("instances/networks")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// The moral graphs of the shipped classic networks have their known treewidths, each
/// shown exactly, with a decomposition that `bnsl verify` accepts.
#[test]
fn classic_networks_have_their_treewidth() {
    for (name, width) in [
        ("asia.bif", 2),
        ("child.bif", 3),
        ("insurance.bif", 6),
        ("alarm.bif", 4),
    ] {
        let r = run_json(&["treewidth", &network(name), "--json"]);
        assert_eq!(r["treewidth"], width, "{name}");
        assert_eq!(r["treewidth_exact"], true, "{name}");
        assert_eq!(r["lower_bound"], width, "{name}");
    }
}

/// `bnsl verify --treewidth` accepts a decomposition of the right width, rejects a
/// narrower bound, and rejects a tampered decomposition by its cause.
#[test]
fn verify_checks_width_and_decompositions() {
    let dir = tempfile::tempdir().unwrap();
    let alarm = network("alarm.bif");
    let cert = dir.path().join("alarm_tw.json");
    let cert_s = cert.to_string_lossy().into_owned();
    run_json(&["treewidth", &alarm, "-o", &cert_s, "--json"]);
    let data = repo().join("instances/data/alarm_1000.csv");
    let data = data.to_string_lossy();
    let ok = common::bnsl(&[
        "verify",
        "--data",
        &data,
        "--dag",
        &alarm,
        "--treewidth",
        "4",
        "--decomposition",
        &cert_s,
    ]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    assert!(String::from_utf8_lossy(&ok.stdout).contains("treewidth at most 4"));
    fails_with(
        &[
            "verify",
            "--data",
            &data,
            "--dag",
            &alarm,
            "--treewidth",
            "3",
        ],
        &["treewidth 4, above the bound 3"],
    );
    let mut tampered: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cert).unwrap()).unwrap();
    tampered["decomposition"]["bags"][0] = serde_json::json!(["HISTORY"]);
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, tampered.to_string()).unwrap();
    fails_with(
        &[
            "verify",
            "--data",
            &data,
            "--dag",
            &alarm,
            "--treewidth",
            "4",
            "--decomposition",
            &bad.to_string_lossy(),
        ],
        &["is not a tree decomposition of the DAG's moral graph"],
    );
}

/// On every back-end and in both forms, the best DAG of treewidth at most W is the same,
/// its width is at most W and shown by a decomposition `bnsl verify` accepts; with W at
/// the unbounded optimum's width, the answer is the unbounded optimum.
#[cfg(all(
    feature = "highs",
    feature = "cbc",
    feature = "scip",
    feature = "microlp"
))]
#[test]
fn every_back_end_learns_the_same_bounded_optimum() {
    let scores = shipped_scores("child_1000.BDeu1.palim3.jkl");
    let dir = tempfile::tempdir().unwrap();
    let (free, free_width) = dp_optimum_and_width(&scores, dir.path());
    let free_score = free["score"].as_f64().unwrap();
    assert!(free_width >= 2, "child's optimum has width {free_width}");
    let narrow = (free_width - 1).to_string();
    let mut scores_seen = Vec::new();
    for (backend, extra) in [
        ("scip", vec![]),
        ("scip", vec!["--treewidth-form", "paper", "--no-root-cuts"]),
        (
            "scip",
            vec!["--treewidth-branch-and-cut", "--no-unbounded-first"],
        ),
        ("highs", vec![]),
        ("cbc", vec![]),
        ("microlp", vec!["--no-unbounded-first"]),
    ] {
        let mut args = vec![
            "learn",
            scores.as_str(),
            "--treewidth",
            narrow.as_str(),
            "--backend",
            backend,
            "--json",
        ];
        args.extend(extra.iter().copied());
        let r = run_json(&args);
        assert_eq!(r["status"], "optimal", "{args:?}");
        assert_eq!(r["engine"], "treewidth_milp");
        assert!(r["treewidth"].as_u64().unwrap() < free_width, "{args:?}");
        verify_within(&scores, &r, &narrow, dir.path());
        scores_seen.push(r["score"].as_f64().unwrap());
    }
    let r = run_json(&[
        "learn",
        &scores,
        "--treewidth",
        &narrow,
        "--method",
        "dp",
        "--json",
    ]);
    assert_eq!(r["engine"], "dp_edge_branch_and_bound");
    scores_seen.push(r["score"].as_f64().unwrap());
    for s in &scores_seen {
        assert!((s - scores_seen[0]).abs() < 1e-6, "{scores_seen:?}");
    }
    assert!(scores_seen[0] < free_score + 1e-9);
    let wide = free_width.to_string();
    let r = run_json(&[
        "learn",
        &scores,
        "--treewidth",
        &wide,
        "--backend",
        "highs",
        "--json",
    ]);
    assert!(
        (r["score"].as_f64().unwrap() - free_score).abs() < 1e-6,
        "{r}"
    );
}

/// Up to 20 variables `--treewidth W` is proved by the branch and bound on the DP by
/// default: optimal, within the bound (checked by `bnsl verify`), below the unbounded
/// optimum, with its bound history; a time limit too short for the proof leaves a
/// checked answer or none, and never a claim of optimality.
#[test]
fn the_dp_branch_and_bound_proves_the_bounded_optimum() {
    let scores = shipped_scores("child_1000.BDeu1.palim3.jkl");
    let dir = tempfile::tempdir().unwrap();
    let (free, free_width) = dp_optimum_and_width(&scores, dir.path());
    let narrow = (free_width - 1).to_string();
    let r = run_json(&["learn", &scores, "--treewidth", &narrow, "--json"]);
    assert_eq!(
        (
            r["method"].as_str(),
            r["engine"].as_str(),
            r["status"].as_str()
        ),
        (
            Some("dp"),
            Some("dp_edge_branch_and_bound"),
            Some("optimal")
        )
    );
    assert_eq!(r["score"], r["bound"]);
    assert!(r["score"].as_f64().unwrap() < free["score"].as_f64().unwrap());
    assert!(r["nodes"].as_u64().unwrap() >= 1);
    assert!(!r["bound_history"].as_array().unwrap().is_empty());
    verify_within(&scores, &r, &narrow, dir.path());
    let r = run_json(&[
        "learn",
        &scores,
        "--treewidth",
        "1",
        "--method",
        "dp",
        "--time-limit",
        "0.001",
        "--json",
    ]);
    assert_ne!(r["status"], "optimal", "{r}");
    if r["dag"].is_object() || r["parents"].is_object() {
        verify_within(&scores, &r, "1", dir.path());
    }
}

/// A bound of n − 1 or more bounds nothing: said, and learned without it.
#[test]
fn a_vacuous_bound_is_said_and_ignored() {
    let scores = shipped_scores("asia_10000.BIC.palim3.jkl");
    let r = run_json(&[
        "learn",
        &scores,
        "--treewidth",
        "7",
        "--method",
        "dp",
        "--json",
    ]);
    assert_eq!(r["status"], "optimal");
    assert!(r["treewidth_note"]
        .as_str()
        .unwrap()
        .contains("every DAG fits"));
    assert_eq!(r["treewidth_bound"], 7);
    assert!(r["treewidth"].as_u64().unwrap() <= 7);
}

/// W = 0 is the empty DAG; arcs that every network must have and that exceed the bound
/// make the run infeasible with the reason; a negative or fractional W, a method that
/// cannot keep a bound, and the MILP's options without a bound are refused.
#[cfg(all(feature = "highs", feature = "cbc", feature = "scip"))]
#[test]
fn bounds_that_cannot_hold_and_bad_flags_are_refused() {
    let scores = shipped_scores("asia_10000.BIC.palim3.jkl");
    let r = run_json(&["learn", &scores, "--treewidth", "0", "--json"]);
    assert_eq!(
        (r["status"].as_str(), r["treewidth"].as_u64()),
        (Some("optimal"), Some(0))
    );
    assert!(r["parents"]
        .as_object()
        .unwrap()
        .values()
        .all(|p| p.as_array().unwrap().is_empty()));
    for (args, needle) in [
        (vec!["--treewidth", "-1"], "W is a non-negative integer"),
        (vec!["--treewidth", "1.5"], "`1.5` is not a treewidth bound"),
        (
            vec!["--treewidth", "2", "--method", "asobs"],
            "--treewidth needs --method dp",
        ),
        (vec!["--treewidth-form", "paper"], "give the bound"),
        (
            vec!["--treewidth", "2", "--collect", "--epsilon", "1"],
            "--treewidth does not apply",
        ),
    ] {
        let mut all = vec!["learn", scores.as_str()];
        all.extend(args);
        fails_with(&all, &[needle]);
    }
    // a -> b, {a, b} -> c, {b, c} -> d, {a, d} -> e: the moral graph holds K4 on a..d.
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("k4.jkl");
    std::fs::write(
        &table,
        "5\na 1\n-1 0\nb 2\n-1 0\n-2 1 a\nc 2\n-1 0\n-3 2 a b\nd 2\n-1 0\n-3 2 b c\ne 2\n-1 0\n-3 2 a d\n",
    )
    .unwrap();
    let cons = dir.path().join("k4.con");
    std::fs::write(&cons, "require a -> b\nrequire a -> c\nrequire b -> c\nrequire b -> d\nrequire c -> d\nrequire a -> e\nrequire d -> e\n").unwrap();
    let table = table.to_string_lossy();
    let cons = cons.to_string_lossy();
    fails_with(
        &["learn", &table, "--constraints", &cons, "--treewidth", "2"],
        &["infeasible", "treewidth 3, above the bound 2"],
    );
    let r = run_json(&[
        "learn",
        &table,
        "--constraints",
        &cons,
        "--treewidth",
        "4",
        "--method",
        "dp",
        "--json",
    ]);
    assert_eq!(r["treewidth"], 3);
}

/// `--method ktree` (Versions 1 and 2): a DAG within the bound whose decomposition
/// `bnsl verify` accepts, the same for a seed and a restart count, and the flags it
/// refuses.
#[test]
fn ktree_sampling_learns_within_the_bound() {
    let scores = shipped_scores("alarm_1000.BDeu1.palim3.jkl");
    let dir = tempfile::tempdir().unwrap();
    for version in ["1", "2"] {
        let args = [
            "learn",
            scores.as_str(),
            "--method",
            "ktree",
            "--ktree-version",
            version,
            "--treewidth",
            "3",
            "--restarts",
            "300",
            "--ktree-climb",
            "30",
            "--seed",
            "5",
            "--json",
        ];
        let r = run_json(&args);
        assert_eq!(r["status"], "feasible");
        assert_eq!(r["restarts"], 300);
        assert_eq!(r["ktree_version"].to_string(), version);
        assert_eq!(r["ktree_climb"], 30);
        assert!(
            r["ktree_start_score"].is_number(),
            "ASOBS starts it by default"
        );
        assert!(r["treewidth"].as_u64().unwrap() <= 3);
        let again = run_json(&args);
        assert_eq!(r["parents"], again["parents"]);
        verify_within(&scores, &r, "3", dir.path());
        let sampled = run_json(&[&args[..], &["--ktree-start", "none"]].concat());
        assert!(sampled["ktree_start_score"].is_null());
        verify_within(&scores, &sampled, "3", dir.path());
    }
    fails_with(
        &[
            "learn",
            &scores,
            "--method",
            "ktree",
            "--ktree-version",
            "1",
            "--treewidth",
            "7",
            "--restarts",
            "1",
        ],
        &["widths up to 6", "Version 2"],
    );
    fails_with(
        &["learn", &scores, "--treewidth", "3", "--ktree-version", "1"],
        &["--ktree-version needs --method ktree or --warm-start ktree"],
    );
    fails_with(
        &["learn", &scores, "--treewidth", "3", "--ktree-climb", "10"],
        &["--ktree-climb needs --method ktree or --warm-start ktree"],
    );
    fails_with(
        &["learn", &scores, "--method", "ktree"],
        &["give --treewidth W"],
    );
    fails_with(
        &[
            "learn",
            &scores,
            "--treewidth",
            "3",
            "--ktree-start",
            "asobs",
        ],
        &["--ktree-start needs --method ktree or --warm-start ktree"],
    );
    fails_with(
        &[
            "learn",
            &scores,
            "--treewidth",
            "3",
            "--warm-start",
            "ktree:2",
            "--ktree-start",
            "asobs:2",
        ],
        &["--ktree-start asobs:2 does not fit in the 2 s of --warm-start ktree"],
    );
    let warm = run_json(&[
        "learn",
        &scores,
        "--treewidth",
        "3",
        "--warm-start",
        "ktree:1",
        "--ktree-start",
        "asobs:0.2",
        "--time-limit",
        "10",
        "--json",
    ]);
    assert_eq!(warm["warm_start"], "ktree");
    assert!(warm["warm_start_score"].as_f64().unwrap() <= warm["score"].as_f64().unwrap());
    fails_with(
        &[
            "learn",
            &scores,
            "--method",
            "ktree",
            "--treewidth",
            "3",
            "--ktree-start",
            "dfs",
        ],
        &["unknown k-tree start `dfs`"],
    );
    fails_with(
        &[
            "learn",
            &scores,
            "--method",
            "ktree",
            "--treewidth",
            "3",
            "--time-limit",
            "2",
            "--ktree-start",
            "asobs:2",
        ],
        &["does not fit in --time-limit 2"],
    );
    fails_with(
        &[
            "learn",
            &scores,
            "--method",
            "ktree",
            "--treewidth",
            "2",
            "--no-local-search",
        ],
        &["ktree has none"],
    );
}
