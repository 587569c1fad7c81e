//! Bounded treewidth on the shared benchmark files: with W at the width of the known
//! optimum, `bnsl learn --treewidth W` proves that optimum (optima.csv); one below, it
//! proves a DAG within the bound whose certificate `bnsl verify` accepts and whose score
//! does not exceed the optimum; the btbn instance (16 variables, parent sets of up to 8,
//! published with a treewidth-4 network) gets a checked DAG of width at most 4; on seed
//! 003's data sets (BDeu ess 1, parent limit 3) the DP's branch and bound and the MILP
//! prove the same bounded optima.
#![cfg(feature = "shared-tests")]

mod common;

use common::{dp_optimum_and_width, run_json, shared, verify_within};

#[test]
fn the_bound_at_the_optimum_width_gives_the_optimum_and_one_below_stays_within() {
    let dir = tempfile::tempdir().unwrap();
    for (file, optimum) in [
        ("jkl/ebnsl/wine.BIC.3.jkl", -1258.445909),
        ("jkl/minobs_anc_bdeu/asia_1000_1.BDeu.jkl", -2333.821409),
        ("jkl/minobs_anc_bdeu/sachs_1000_1.BDeu.jkl", -7664.048191),
    ] {
        let scores = shared().join(file).to_string_lossy().into_owned();
        let (free, width) = dp_optimum_and_width(&scores, dir.path());
        assert!(
            (free["score"].as_f64().unwrap() - optimum).abs() < 1e-6,
            "{file}"
        );
        let at = width.to_string();
        let r = run_json(&["learn", &scores, "--treewidth", &at, "--json"]);
        assert_eq!(r["status"], "optimal", "{file}");
        assert!(
            (r["score"].as_f64().unwrap() - optimum).abs() < 1e-6,
            "{file}: {r}"
        );
        if width >= 2 {
            let below = (width - 1).to_string();
            let r = run_json(&[
                "learn",
                &scores,
                "--treewidth",
                &below,
                "--time-limit",
                "120",
                "--json",
            ]);
            assert!(r["treewidth"].as_u64().unwrap() < width, "{file}");
            assert!(r["score"].as_f64().unwrap() <= optimum + 1e-6, "{file}");
            verify_within(&scores, &r, &below, dir.path());
        }
    }
}

/// The score file of the seed 003 data set `name` (BDeu ess 1, parent limit 3), written
/// by `bnsl score` into `dir`.
fn seed_003_scores(name: &str, dir: &std::path::Path) -> String {
    let data = shared().join(format!("data/ebnsl_csv/{name}.csv"));
    let scores = dir
        .join(format!("{name}.jkl"))
        .to_string_lossy()
        .into_owned();
    let out = common::bnsl(&[
        "score",
        &data.to_string_lossy(),
        "--score",
        "bdeu",
        "--ess",
        "1",
        "--max-parents",
        "3",
        "-o",
        &scores,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    scores
}

/// The DP's branch and bound proves the bounded optimum where the MILP (SCIP, HiGHS)
/// proves it too, with the same score, and proves cells the MILP leaves open (nltcs
/// W = 4, adult W = 3) below the unbounded optimum; every answer's certificate checks.
#[cfg(all(feature = "scip", feature = "highs"))]
#[test]
fn the_dp_and_the_milp_prove_the_same_bounded_optima_on_seed_003_data() {
    let dir = tempfile::tempdir().unwrap();
    for (name, width) in [("tic-tac-toe", "2"), ("voting", "3"), ("wine", "2")] {
        let scores = seed_003_scores(name, dir.path());
        let by = |how: &[&str]| {
            let mut args = vec!["learn", scores.as_str(), "--treewidth", width, "--json"];
            args.extend(how);
            let r = run_json(&args);
            assert_eq!(r["status"], "optimal", "{name} {how:?}: {r}");
            verify_within(&scores, &r, width, dir.path());
            r["score"].as_f64().unwrap()
        };
        let dp = by(&["--method", "dp"]);
        for backend in ["scip", "highs"] {
            let milp = by(&["--method", "ilp", "--backend", backend]);
            assert!(
                (dp - milp).abs() < 1e-6,
                "{name} W={width}: dp {dp}, {backend} {milp}"
            );
        }
    }
    for (name, width) in [("nltcs", "4"), ("adult", "3")] {
        let scores = seed_003_scores(name, dir.path());
        let (free, free_width) = dp_optimum_and_width(&scores, dir.path());
        assert!(free_width > width.parse().unwrap(), "{name}");
        let r = run_json(&[
            "learn",
            &scores,
            "--treewidth",
            width,
            "--method",
            "dp",
            "--json",
        ]);
        assert_eq!(r["status"], "optimal", "{name}: {r}");
        assert!(r["score"].as_f64().unwrap() < free["score"].as_f64().unwrap());
        verify_within(&scores, &r, width, dir.path());
    }
}

#[test]
fn the_btbn_instance_gets_a_checked_dag_of_width_four() {
    let dir = tempfile::tempdir().unwrap();
    let scores = shared()
        .join("jkl/pss_urlearning_format/btbn_example.BIC.pss")
        .to_string_lossy()
        .into_owned();
    let r = run_json(&[
        "learn",
        &scores,
        "--treewidth",
        "4",
        "--time-limit",
        "20",
        "--json",
    ]);
    assert!(r["treewidth"].as_u64().unwrap() <= 4);
    verify_within(&scores, &r, "4", dir.path());
}
