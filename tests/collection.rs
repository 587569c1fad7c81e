//! `bnsl learn --collect` (seed 002): every network within ε of the optimum, from a score
//! file or from data, checked against the library's enumeration and the DP optimum; its
//! outputs (JSON summary, networks file, arc probabilities); and the inputs it refuses.

mod common;

use bnsl::collection::{collect, CollectOptions, EdgeProbabilities};
use bnsl::fio::read_scores;
use common::{fails_with, run_json, shipped_scores};
use std::path::Path;

/// From a shipped score file: the counts equal the library's collection, every network
/// in the file checks against the table with a score within ε (+ tolerance) of the
/// optimum, the classes partition the networks, and the arc probabilities file is a
/// matrix of probabilities.
#[test]
fn a_score_file_collection_is_complete_and_consistent() {
    let scores = shipped_scores("sachs_1000.BDeu1.palim3.jkl");
    let dir = tempfile::tempdir().unwrap();
    let nets = dir.path().join("nets.jsonl");
    let edges = dir.path().join("edges.csv");
    let r = run_json(&[
        "learn",
        &scores,
        "--collect",
        "--bayes-factor",
        "20",
        "--json",
        "--collect-out",
        nets.to_str().unwrap(),
        "--edges-out",
        edges.to_str().unwrap(),
    ]);
    let table = read_scores(Path::new(&scores)).unwrap().table;
    let lib = collect(&table, &CollectOptions::bayes_factor(20.0), &|_| {}).unwrap();
    assert_eq!(r["status"], "complete");
    assert_eq!(r["networks"], lib.networks.len());
    assert_eq!(r["classes"], lib.classes.len());
    assert!(
        lib.networks.len() > 1,
        "BF 20 collects more than the optimum here"
    );
    let opt = r["opt"].as_f64().unwrap();
    let eps = r["epsilon"].as_f64().unwrap();
    assert!((eps - 20f64.ln()).abs() < 1e-12);
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&nets)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), lib.networks.len());
    let mut per_class = vec![0usize; lib.classes.len()];
    for l in &lines {
        let score = l["score"].as_f64().unwrap();
        assert!(score <= opt + 1e-9 && score >= opt - eps - 1e-4, "{l}");
        per_class[l["class"].as_u64().unwrap() as usize] += 1;
    }
    let sizes: Vec<usize> = lib.classes.iter().map(|c| c.networks).collect();
    assert_eq!(per_class, sizes);
    let csv = std::fs::read_to_string(&edges).unwrap();
    assert_eq!(csv.lines().count(), table.n() + 1);
    let probs = EdgeProbabilities::of(&lib);
    for a in 0..table.n() {
        assert_eq!(probs.arc[a][a], 0.0);
        for b in 0..table.n() {
            assert!((0.0..=1.0 + 1e-9).contains(&probs.adjacency(a, b)));
        }
    }
}

/// ε = 0 collects the optimal networks only; from data the pruning gap is set from ε.
#[test]
fn epsilon_zero_collects_the_optima_and_data_is_pruned_to_match() {
    let data = common::repo().join("instances/data/asia_10000.csv");
    let data = data.to_str().unwrap();
    let r = run_json(&[
        "learn",
        data,
        "--score",
        "bic",
        "--collect",
        "--epsilon",
        "0",
        "--json",
    ]);
    let best = run_json(&["learn", data, "--score", "bic", "--json"]);
    assert!((r["opt"].as_f64().unwrap() - best["score"].as_f64().unwrap()).abs() < 1e-9);
    assert_eq!(r["status"], "complete");
    let wide = run_json(&[
        "learn",
        data,
        "--score",
        "bic",
        "--collect",
        "--bayes-factor",
        "150",
        "--json",
    ]);
    assert!(wide["networks"].as_u64() > r["networks"].as_u64());
    fails_with(
        &[
            "learn",
            data,
            "--collect",
            "--bayes-factor",
            "150",
            "--prune-gap",
            "1",
        ],
        &["--prune-gap 1 is below"],
    );
}

/// Bad bounds, a heuristic method, -o, ILP flags that do not apply, or a limit hit: each
/// has its message or status.
#[test]
fn collection_refuses_what_it_cannot_honour() {
    let scores = shipped_scores("asia_10000.BIC.palim3.jkl");
    for (args, needle) in [
        (
            vec!["--bayes-factor", "0.5"],
            "--bayes-factor must be a finite number ≥ 1",
        ),
        (
            vec!["--epsilon", "-1"],
            "--epsilon must be a finite number ≥ 0",
        ),
        (vec![], "--collect needs --bayes-factor BF or --epsilon E"),
        (
            vec!["--epsilon", "1", "--method", "asobs"],
            "--collect is exact",
        ),
        (
            vec!["--epsilon", "1", "--gap", "0.1"],
            "--gap and --warm-start do not apply",
        ),
        (
            vec!["--epsilon", "1", "--formulation", "ordering"],
            "drop --formulation",
        ),
        (
            vec!["--epsilon", "1", "--method", "dp", "--backend", "scip"],
            "--method ilp",
        ),
        (vec!["--epsilon", "1", "-o", "x.txt"], "--collect-out"),
    ] {
        let mut all = vec!["learn", scores.as_str(), "--collect"];
        all.extend(args);
        fails_with(&all, &[needle]);
    }
    let r = run_json(&[
        "learn",
        &scores,
        "--collect",
        "--bayes-factor",
        "1000",
        "--max-networks",
        "2",
        "--json",
    ]);
    assert_eq!(
        (r["status"].as_str(), r["networks"].as_u64()),
        (Some("limit"), Some(2))
    );
}

/// Ctrl+C ends a long collection with what it found: status `interrupted`, exit 130,
/// and the networks so far in the summary and the networks file. (The text summary:
/// this harness reads stderr to its end before stdout, so a large `--json` would fill
/// the pipe.) At ε = 150 child has far more networks than any machine collects in the
/// 1.5 s before the signal, so the search is still running when it comes.
#[test]
fn ctrl_c_keeps_what_was_collected() {
    let scores = shipped_scores("child_1000.BDeu1.palim3.jkl");
    let dir = tempfile::tempdir().unwrap();
    let nets = dir.path().join("nets.jsonl");
    let (out, _) = common::bnsl_interrupted_after(
        &[
            "learn",
            &scores,
            "--collect",
            "--epsilon",
            "150",
            "--max-networks",
            "100000000",
            "--collect-out",
            nets.to_str().unwrap(),
        ],
        std::time::Duration::from_millis(1500),
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(summary.contains("status interrupted"), "{summary}");
    let found: u64 = summary
        .split_once("networks ")
        .and_then(|(_, rest)| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no network count in {summary}"));
    assert!(found > 0, "{summary}");
    assert_eq!(
        std::fs::read_to_string(&nets).unwrap().lines().count() as u64,
        found
    );
}

/// The networks a collection writes with `--collect-out`, as sorted lines of parents and
/// score, and its summary.
fn network_set(scores: &str, bf: &str, extra: &[&str]) -> (Vec<String>, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("nets.jsonl");
    let mut args = vec![
        "learn",
        scores,
        "--collect",
        "--bayes-factor",
        bf,
        "--json",
        "--collect-out",
        file.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let r = run_json(&args);
    assert_eq!(r["status"], "complete", "{extra:?}");
    (common::network_lines(&file), r)
}

/// `--method dp` on a table whose candidate graph keeps a part of more than 25
/// variables (insurance, 27) whose cluster bound is too loose is refused with the
/// reason; by default the same table goes to the ILP.
#[test]
fn the_enumeration_refuses_a_part_its_bound_cannot_cut() {
    let insurance = shipped_scores("insurance_1000.BDeu1.palim3.jkl");
    fails_with(
        &[
            "learn",
            &insurance,
            "--collect",
            "--bayes-factor",
            "3",
            "--method",
            "dp",
        ],
        &[
            "a part of 27 variables",
            "too many conflicting arcs",
            "collect on the family ILP instead",
        ],
    );
}

/// On 20 variables, SCIP's branch and cut and the cut loops of HiGHS and CBC collect the
/// enumeration's networks; on 27, beyond the enumeration, SCIP collects by default and
/// HiGHS collects the same networks.
#[test]
fn every_ilp_engine_collects_the_same_networks() {
    let child = shipped_scores("child_1000.BDeu1.palim3.jkl");
    let (expected, r) = network_set(&child, "3", &["--method", "dp"]);
    assert_eq!(r["engine"], "enumeration");
    assert!(expected.len() > 20, "{}", expected.len());
    for (backend, engine) in [
        ("scip", "branch_and_cut"),
        ("highs", "cut_loop"),
        ("cbc", "cut_loop"),
    ] {
        let (got, r) = network_set(&child, "3", &["--backend", backend]);
        assert_eq!(
            (r["backend"].as_str(), r["engine"].as_str()),
            (Some(backend), Some(engine))
        );
        assert_eq!(got, expected, "{backend}");
    }
    let insurance = shipped_scores("insurance_1000.BDeu1.palim3.jkl");
    let (by_scip, r) = network_set(&insurance, "3", &[]);
    assert_eq!(
        (r["backend"].as_str(), r["engine"].as_str()),
        (Some("scip"), Some("branch_and_cut"))
    );
    assert!(by_scip.len() > 20, "{}", by_scip.len());
    let (by_highs, _) = network_set(&insurance, "3", &["--backend", "highs"]);
    assert_eq!(by_highs, by_scip);
}

/// With `--log-progress`, an ILP collection logs its solve for OPT and the networks it
/// collects on stderr, and standard output keeps the JSON alone.
#[test]
fn an_ilp_collection_logs_its_progress() {
    let child = shipped_scores("child_1000.BDeu1.palim3.jkl");
    let out = common::bnsl(&[
        "learn",
        &child,
        "--collect",
        "--bayes-factor",
        "3",
        "--backend",
        "highs",
        "--log-progress",
        "--json",
    ]);
    assert!(out.status.success());
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("] incumbent "), "{log}");
    assert!(log.contains("] networks collected: "), "{log}");
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["status"], "complete");
}

/// By default the ILP engines take whole Markov equivalence classes (the covered-arc
/// rows, each class completed from the DAG met) and collect the networks of the search
/// over every DAG (`--every-dag`) and, up to 25 variables, of the enumeration: on data
/// scored with no parent limit, where BIC makes every covered arc swappable, and with a
/// parent limit and on a BDeu score file, where some are not.
#[test]
fn a_search_over_classes_collects_every_network() {
    let bic = ["--score", "bic", "--max-parents", "100"];
    let limited = ["--score", "bic", "--max-parents", "2"];
    let cells: [(String, &str, &[&str]); 5] = [
        (common::shipped_data("sachs_1000.csv"), "20", &bic),
        (common::shipped_data("child_1000.csv"), "20", &bic),
        (common::shipped_data("insurance_1000.csv"), "150", &bic),
        (common::shipped_data("child_1000.csv"), "20", &limited),
        (shipped_scores("child_1000.BDeu1.palim3.jkl"), "20", &[]),
    ];
    for (input, bf, scoring) in &cells {
        let with = |extra: &[&'static str]| [*scoring, extra].concat();
        let (expected, r) = network_set(input, bf, &with(&["--backend", "scip", "--every-dag"]));
        assert_eq!(r["whole_classes"], false);
        assert!(expected.len() > 40, "{input}: {}", expected.len());
        if !input.contains("insurance") {
            let (enumerated, r) = network_set(input, bf, &with(&["--method", "dp"]));
            assert_eq!(r["whole_classes"], false);
            assert_eq!(enumerated, expected, "{input}, enumeration");
        }
        for backend in ["scip", "highs", "cbc"] {
            let (got, r) = network_set(input, bf, &with(&["--backend", backend]));
            assert_eq!(r["whole_classes"], true, "{input}, {backend}");
            assert_eq!(got, expected, "{input} {scoring:?}, {backend}");
        }
    }
}
