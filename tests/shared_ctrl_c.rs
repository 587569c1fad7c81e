//! Ctrl+C stops a long CBC cut loop on `found_scores/alarm_10000.scores` in its MIP
//! rounds: CBC's solver installs a SIGINT handler of its own and never removes it, so
//! without the back-end's care a Ctrl+C only ended the current round and the loop went
//! on. Needs `../shared/instances` and the three back-ends.
#![cfg(all(
    feature = "shared-tests",
    feature = "highs",
    feature = "cbc",
    feature = "scip"
))]

mod common;

use serde_json::Value;

/// The progress line of a MIP round (any node count but 0) of the cut loop.
fn after_a_mip_round(line: &str) -> bool {
    line.contains("incumbent -") && !line.contains(" nodes 0 ")
}

#[test]
fn ctrl_c_stops_cbc_after_its_mip_rounds_began() {
    let file = common::shared().join("jkl/found_scores/alarm_10000.scores");
    let file = file.to_str().unwrap();
    let args = [
        "learn",
        file,
        "--method",
        "ilp",
        "--backend",
        "cbc",
        "--warm-start",
        "asobs:1",
        "--time-limit",
        "600",
        "--log-progress",
        "--json",
    ];
    let (out, after) = common::bnsl_interrupted(&args, after_a_mip_round);
    assert!(out.status.success(), "{out:?}");
    assert!(after < 60.0, "took {after:.1} s to stop");
    let r: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(r["interrupted"], true, "{r}");
    assert_eq!(r["status"], "feasible", "{r}");
    let (score, bound) = (r["score"].as_f64().unwrap(), r["bound"].as_f64().unwrap());
    assert!(bound > score, "{r}");
    assert!(r["time_s"].as_f64().unwrap() < 300.0, "{r}");
}
