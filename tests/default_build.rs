//! The default build, with no native library: microlp (pure Rust, through the good_lp
//! bridge) is its one MILP back-end, and learns small networks with and without a
//! treewidth bound. Run by `scripts/test.sh` as
//! `cargo test --release --no-default-features --features cli,microlp --test default_build`.
#![cfg(not(any(feature = "highs", feature = "cbc", feature = "scip")))]

mod common;

use common::{dp_optimum_and_width, run_json, shipped_scores, verify_within};

/// The family ILP on microlp proves the DP's optimum.
#[test]
fn microlp_proves_the_unbounded_optimum() {
    for name in ["asia_10000.BDeu1.palim3.jkl", "child_1000.BIC.palim3.jkl"] {
        let scores = shipped_scores(name);
        let dp = run_json(&["learn", &scores, "--method", "dp", "--json"]);
        let ilp = run_json(&["learn", &scores, "--method", "ilp", "--json"]);
        assert_eq!(ilp["backend"], "microlp", "{name}: {ilp}");
        assert_eq!(ilp["status"], "optimal", "{name}: {ilp}");
        let (a, b) = (
            ilp["score"].as_f64().unwrap(),
            dp["score"].as_f64().unwrap(),
        );
        assert!((a - b).abs() < 1e-6, "{name}: {a} vs {b}");
    }
}

/// The bounded-treewidth MILP on microlp (the MILP back-end of the default build)
/// proves the bound's optimum, which the branch and bound on the DP (the default
/// method up to 20 variables) also finds: the answer's width is within the bound and
/// certified; at the unbounded optimum's width, the answer is the unbounded optimum.
#[test]
fn microlp_proves_bounded_treewidth_optima() {
    let scores = shipped_scores("child_1000.BDeu1.palim3.jkl");
    let dir = tempfile::tempdir().unwrap();
    let (free, free_width) = dp_optimum_and_width(&scores, dir.path());
    let free_score = free["score"].as_f64().unwrap();
    for width in 1..=free_width {
        let w = width.to_string();
        let args = [
            "learn",
            scores.as_str(),
            "--treewidth",
            w.as_str(),
            "--method",
            "ilp",
            "--json",
        ];
        let r = run_json(&args);
        assert_eq!(r["backend"], "microlp", "W {w}: {r}");
        let by_dp = run_json(&["learn", &scores, "--treewidth", &w, "--json"]);
        assert_eq!(by_dp["method"], "dp", "W {w}: {by_dp}");
        let gap = (by_dp["score"].as_f64().unwrap() - r["score"].as_f64().unwrap()).abs();
        assert!(gap < 1e-6, "W {w}: {by_dp} against {r}");
        assert_eq!(r["status"], "optimal", "W {w}: {r}");
        assert!(r["treewidth"].as_u64().unwrap() <= width, "W {w}: {r}");
        let score = r["score"].as_f64().unwrap();
        assert!(score <= free_score + 1e-6, "W {w}: {r}");
        if width == free_width {
            assert!((score - free_score).abs() < 1e-6, "W {w}: {r}");
        }
        verify_within(&scores, &r, &w, dir.path());
    }
}
