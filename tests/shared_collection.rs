//! `bnsl learn --collect` on seed 002's own data sets (BIC, the pruning gap set from the
//! Bayes factor, no parent limit beyond pruning) reproduces Table 1's counts: the
//! networks |G| and the grouping |M| by skeleton and all colliders, with the documented
//! tolerance (1e-4) admitting the networks on the boundary; and Table 2's BDeu cells.
#![cfg(feature = "shared-tests")]

mod common;

fn collect(name: &str, bf: u32) -> serde_json::Value {
    collect_with(name, "bic", bf)
}

fn collect_with(name: &str, score: &str, bf: u32) -> serde_json::Value {
    let data = common::shared().join(format!("data/ebnsl_csv/{name}.csv"));
    let out = common::bnsl(&[
        "learn",
        data.to_str().unwrap(),
        "--score",
        score,
        "--max-parents",
        "100",
        "--collect",
        "--bayes-factor",
        &bf.to_string(),
        "--json",
    ]);
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
