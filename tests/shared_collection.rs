//! `bnsl learn --collect` on seed 002's own data sets (BIC, the pruning gap set from the
//! Bayes factor, no parent limit beyond pruning) reproduces Table 1's counts: the
//! networks |G| and the grouping |M| by skeleton and all colliders, with the documented
//! tolerance (1e-4) admitting the networks on the boundary; and Table 2's BDeu cells.
//! Beyond 25 variables the collection is enumerated part by part of the candidate graph
//! where its parts allow (mildew, barley), else it runs on SCIP's branch and cut; on the small
//! cells HiGHS's and CBC's cut loops collect the enumeration's networks, set for set.
#![cfg(feature = "shared-tests")]

mod common;

fn collect(name: &str, bf: u32) -> serde_json::Value {
    collect_with(name, "bic", bf)
}

fn collect_with(name: &str, score: &str, bf: u32) -> serde_json::Value {
    collect_on(name, score, bf, &[])
}

/// The summary of a collection with `extra` flags (e.g. `--backend highs`).
fn collect_on(name: &str, score: &str, bf: u32, extra: &[&str]) -> serde_json::Value {
    let data = common::shared().join(format!("data/ebnsl_csv/{name}.csv"));
    let bf = bf.to_string();
    let mut args = vec![
        "learn",
        data.to_str().unwrap(),
        "--score",
        score,
        "--max-parents",
        "100",
        "--collect",
        "--bayes-factor",
        &bf,
        "--json",
    ];
    args.extend_from_slice(extra);
    let out = common::bnsl(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{name} BF {bf}: {err}");
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn table_1_counts_are_reproduced() {
    // (data, BF, |G|, |M|) from seed 002, Table 1.
    let cells = [
        ("tic-tac-toe", 3, 192, 64),
        ("tic-tac-toe", 150, 544, 160),
        ("wine", 3, 308, 51),
        ("wine", 20, 3449, 576),
        ("wine", 150, 26197, 4497),
        ("voting", 3, 27, 2),
        ("voting", 20, 441, 33),
        ("voting", 150, 2222, 170),
        ("adult", 3, 324, 162),
        ("adult", 20, 1140, 570),
    ];
    for (name, bf, g, m) in cells {
        let r = collect(name, bf);
        assert_eq!(r["status"], "complete", "{name} BF {bf}");
        assert_eq!(
            (r["networks"].as_u64(), r["collider_classes"].as_u64()),
            (Some(g), Some(m)),
            "{name} BF {bf}"
        );
    }
    // The true Markov equivalence classes of wine at BF 3 (the count), and the
    // networks the tolerance admits at BF 150 (GOBNILP_dev without it collects 26,153).
    assert_eq!(collect("wine", 3)["classes"], 7);
    assert_eq!(collect("wine", 150)["in_tolerance"], 44);
}

/// Table 2's BDeu column (ess 1, BF 20): |G| and |M|, and voting's true class count.
#[test]
fn table_2_bdeu_counts_are_reproduced() {
    for (name, g, m) in [
        ("tic-tac-toe", 152, 24),
        ("voting", 621, 207),
        ("wine", 8734, 6262),
    ] {
        let r = collect_with(name, "bdeu", 20);
        assert_eq!(
            (r["networks"].as_u64(), r["collider_classes"].as_u64()),
            (Some(g), Some(m)),
            "{name}"
        );
        if name == "voting" {
            assert_eq!(r["classes"], 187);
        }
    }
}

/// Beyond 25 variables: the paper's counts where its data set is this file (mildew,
/// barley), GOBNILP_dev's count on this file elsewhere (insurance and alarm differ from
/// the paper's data; the issue gives insurance's reruns, alarm's is from the benchmark's
/// GOBNILP_dev run, README). mildew's candidate graph falls into parts of at most 25
/// variables and is enumerated, barley's largest part (30 variables) is searched by its
/// nodes' choices; insurance and alarm keep a larger part whose cluster bound is too
/// loose and go to SCIP's branch and cut.
#[test]
fn table_1_counts_beyond_25_variables_are_reproduced() {
    let cells = [
        ("mildew1000", 3, 1026, 2, "enumeration"),
        ("mildew1000", 150, 2052, 4, "enumeration"),
        ("barley1000", 3, 182, 1, "enumeration"),
        ("barley1000", 150, 1274, 5, "enumeration"),
        ("insurance1000", 3, 10, 3, "branch_and_cut"),
        ("insurance1000", 20, 117, 34, "branch_and_cut"),
        ("alarm1000", 3, 24, 3, "branch_and_cut"),
    ];
    for (name, bf, g, m, engine) in cells {
        let r = collect(name, bf);
        assert_eq!(r["status"], "complete", "{name} BF {bf}");
        assert_eq!(r["engine"].as_str(), Some(engine), "{name} BF {bf}");
        assert_eq!(
            (r["networks"].as_u64(), r["collider_classes"].as_u64()),
            (Some(g), Some(m)),
            "{name} BF {bf}"
        );
    }
}

/// Enumerated by parts, mildew1000 (35 variables, parts of at most 19) and barley1000
/// (48 variables, a part of 30 searched by choices) give SCIP's branch and cut's sets.
#[test]
fn collection_by_parts_equals_the_branch_and_cut_beyond_25_variables() {
    for (name, bf, count) in [("mildew1000", 3, 1026), ("barley1000", 20, 364)] {
        let by_parts = network_set(name, bf, &[]);
        assert_eq!(by_parts.len(), count, "{name}");
        assert_eq!(
            by_parts,
            network_set(name, bf, &["--backend", "scip"]),
            "{name}"
        );
    }
}

/// The networks of a collection written by `--collect-out` ([`common::network_lines`]).
fn network_set(name: &str, bf: u32, extra: &[&str]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("nets.jsonl");
    let mut args = vec!["--collect-out", file.to_str().unwrap()];
    args.extend_from_slice(extra);
    let r = collect_on(name, "bic", bf, &args);
    assert_eq!(r["status"], "complete", "{name} BF {bf} {extra:?}");
    common::network_lines(&file)
}

/// The small cells on every ILP engine: SCIP's branch and cut and the cut loops of HiGHS
/// and CBC collect the enumeration's networks.
#[test]
fn every_ilp_engine_collects_the_enumeration_set_on_small_cells() {
    let all = &["scip", "highs", "cbc"][..];
    for (name, bf, backends) in [
        ("voting", 3, all),
        ("tic-tac-toe", 3, all),
        ("wine", 20, all),
    ] {
        let expected = network_set(name, bf, &["--method", "dp"]);
        assert!(expected.len() > 20, "{name}: {}", expected.len());
        for backend in backends {
            let got = network_set(name, bf, &["--backend", backend]);
            assert_eq!(got, expected, "{name} BF {bf} on {backend}");
        }
    }
}
