//! Bounded treewidth on the shared benchmark files: with W at the width of the known
//! optimum, `bnsl learn --treewidth W` proves that optimum (optima.csv); one below, it
//! proves a DAG within the bound whose certificate `bnsl verify` accepts and whose score
//! does not exceed the optimum; the btbn instance (16 variables, parent sets of up to 8,
//! published with a treewidth-4 network) gets a checked DAG of width at most 4.
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
