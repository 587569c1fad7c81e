//! `bnsl learn --method ilp` end to end on the shipped instances: every back-end and
//! both formulations reach the DP optimum; structural constraints are honoured; an
//! infeasible constraint set and a time limit give clear, honest answers.
#![cfg(all(feature = "highs", feature = "cbc", feature = "scip"))]

mod common;

use serde_json::Value;

use common::{bnsl, fails_with, shipped_scores as scores};

fn learn_json(args: &[&str]) -> Value {
    let out = bnsl(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// The arguments `learn FILE --method ilp EXTRA…`.
fn ilp_args<'a>(file: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["learn", file, "--method", "ilp"];
    args.extend(extra);
    args
}

/// `bnsl learn FILE --method ilp EXTRA…` must fail with every `needles` in stderr (see
/// [`fails_with`]); returns stderr.
fn ilp_fails_with(file: &str, extra: &[&str], needles: &[&str]) -> String {
    fails_with(&ilp_args(file, extra), needles)
}

/// `bnsl learn FILE --method ilp --backend BACKEND EXTRA… --json`, which must succeed.
fn ilp_json(file: &str, backend: &str, extra: &[&str]) -> Value {
    let mut args = vec!["learn", file, "--method", "ilp", "--backend", backend];
    args.extend(extra);
    args.push("--json");
    learn_json(&args)
}

fn dp_optimum(file: &str) -> f64 {
    learn_json(&["learn", file, "--method", "dp", "--json"])["score"]
        .as_f64()
        .unwrap()
}

#[test]
fn every_backend_and_formulation_reaches_the_dp_optimum() {
    for name in [
        "asia_10000.BDeu1.palim3.jkl",
        "sachs_1000.BDeu1.palim3.jkl",
        "child_1000.BIC.palim3.jkl",
    ] {
        let file = scores(name);
        let optimum = dp_optimum(&file);
        for backend in ["scip", "highs", "cbc", "microlp"] {
            for formulation in ["family", "ordering"] {
                // The ordering formulation is slow on CBC beyond a dozen nodes, and on
                // microlp beyond asia's eight; the shared-instance tests cover it on
                // larger files.
                let slow = name.starts_with("child")
                    || (backend == "microlp" && !name.starts_with("asia"));
                if formulation == "ordering" && slow {
                    continue;
                }
                let r = ilp_json(&file, backend, &["--formulation", formulation]);
                let what = format!("{name} {backend} {formulation}");
                assert_eq!(r["status"], "optimal", "{what}: {r}");
                assert!(
                    (r["score"].as_f64().unwrap() - optimum).abs() < 1e-6,
                    "{what}: {r}"
                );
                assert_eq!(r["backend"], backend, "{what}");
                assert_eq!(r["formulation"], formulation, "{what}");
                for field in [
                    "bound",
                    "gap",
                    "time_s",
                    "nodes",
                    "cuts",
                    "lp_iterations",
                    "parents",
                ] {
                    assert!(r.get(field).is_some(), "{what}: no `{field}` in {r}");
                }
            }
        }
    }
}

#[test]
fn constraints_are_honoured() {
    let file = scores("asia_10000.BDeu1.palim3.jkl");
    let dir = tempfile::tempdir().unwrap();
    let free = learn_json(&["learn", &file, "--method", "dp", "--json"]);
    // Forbid every arc of the unconstrained optimum into `dysp` and require smoke -> xray.
    let mut text = String::from("require smoke -> xray\nmax-parents 2\n");
    for p in free["parents"]["dysp"].as_array().unwrap() {
        text.push_str(&format!("forbid {} -> dysp\n", p.as_str().unwrap()));
    }
    let cons = dir.path().join("c.txt");
    std::fs::write(&cons, &text).unwrap();
    let mut with_ilp = None;
    for backend in ["scip", "highs", "cbc", "microlp", "dp"] {
        let method = if backend == "dp" { "dp" } else { "ilp" };
        let mut args = vec!["learn", &file, "--method", method];
        if method == "ilp" {
            args.extend(["--backend", backend]);
        }
        args.extend(["--constraints", cons.to_str().unwrap(), "--json"]);
        let r = learn_json(&args);
        assert_eq!(r["status"], "optimal", "{backend}: {r}");
        // Every engine, the DP included, finds the same constrained optimum.
        let score = r["score"].as_f64().unwrap();
        let first = *with_ilp.get_or_insert(score);
        assert!(
            (score - first).abs() < 1e-6,
            "{backend}: {score} vs {first}"
        );
        let parents = &r["parents"];
        assert!(
            parents["xray"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p == "smoke"),
            "{r}"
        );
        for p in free["parents"]["dysp"].as_array().unwrap() {
            assert!(!parents["dysp"].as_array().unwrap().contains(p), "{r}");
        }
        assert!(parents
            .as_object()
            .unwrap()
            .values()
            .all(|ps| ps.as_array().unwrap().len() <= 2));
        assert!(r["score"].as_f64().unwrap() <= free["score"].as_f64().unwrap() + 1e-9);
    }
    // A parent limit on a score file alone.
    let r = learn_json(&[
        "learn",
        &file,
        "--method",
        "ilp",
        "--max-parents",
        "1",
        "--json",
    ]);
    assert!(r["parents"]
        .as_object()
        .unwrap()
        .values()
        .all(|ps| ps.as_array().unwrap().len() <= 1));
}

#[test]
fn contradictory_constraints_are_reported_infeasible() {
    let file = scores("asia_10000.BDeu1.palim3.jkl");
    let dir = tempfile::tempdir().unwrap();
    let cons = dir.path().join("cycle.txt");
    std::fs::write(
        &cons,
        "require smoke -> lung\nrequire lung -> either\nrequire either -> smoke\n",
    )
    .unwrap();
    let out = bnsl(&ilp_args(
        &file,
        &["--constraints", cons.to_str().unwrap(), "--json"],
    ));
    assert_eq!(out.status.code(), Some(1));
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["status"], "infeasible");
    assert!(r["infeasible"].as_str().unwrap().contains("cycle"), "{r}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("infeasible"));
    // The same contradiction the other way: a required arc that is also forbidden.
    std::fs::write(&cons, "require smoke -> lung\nforbid smoke -> lung\n").unwrap();
    let out = bnsl(&ilp_args(&file, &["--constraints", cons.to_str().unwrap()]));
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cycle.txt:2") && err.contains("both required and forbidden"),
        "{err}"
    );
}

#[test]
fn a_time_limit_returns_the_best_dag_and_the_bound() {
    let file = scores("alarm_1000.BDeu1.palim3.jkl");
    for backend in ["scip", "highs", "cbc"] {
        let r = ilp_json(&file, backend, &["--time-limit", "0.05"]);
        let status = r["status"].as_str().unwrap();
        assert!(
            ["optimal", "feasible", "unknown"].contains(&status),
            "{backend}: {r}"
        );
        if status != "unknown" {
            let (score, bound) = (r["score"].as_f64().unwrap(), r["bound"].as_f64().unwrap());
            assert!(bound >= score - 1e-6, "{backend}: {r}");
        }
    }
}

#[test]
fn a_progress_log_reports_every_round_on_stderr() {
    let file = scores("alarm_1000.BDeu1.palim3.jkl");
    for backend in ["scip", "highs", "cbc"] {
        let args = ilp_args(&file, &["--backend", backend, "--log-progress", "--json"]);
        let out = bnsl(&args);
        assert!(out.status.success(), "{backend}: {out:?}");
        let r: Value = serde_json::from_slice(&out.stdout).expect("stdout stays one JSON object");
        let log = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<&str> = log.lines().collect();
        assert!(!lines.is_empty(), "{backend}: no progress lines");
        let mut elapsed = Vec::new();
        for line in &lines {
            let (stamp, rest) = line.split_once(" s] ").expect("`[  seconds s] …`");
            elapsed.push(stamp.trim_start_matches('[').trim().parse::<f64>().unwrap());
            assert!(
                rest.starts_with("incumbent ") && rest.contains(" bound "),
                "{line}"
            );
        }
        assert!(elapsed.windows(2).all(|w| w[0] <= w[1]), "{backend}: {log}");
        // The cut loop reports after every round: its last line counts them all.
        if let Some(rounds) = r["rounds"].as_u64() {
            let last = lines.last().unwrap();
            assert!(
                last.ends_with(&format!("rounds {rounds}")),
                "{backend}: {last} vs {r}"
            );
        }
    }
}

/// The ordering program's one HiGHS solve reports while it runs (before, it printed
/// nothing until its end): network scores and bounds bracketing the final ones.
#[test]
fn the_ordering_program_on_highs_reports_while_it_runs() {
    let file = scores("alarm_1000.BDeu1.palim3.jkl");
    let extra = [
        "--backend",
        "highs",
        "--formulation",
        "ordering",
        "--time-limit",
        "4",
        "--log-progress",
        "--json",
    ];
    let out = bnsl(&ilp_args(&file, &extra));
    assert!(out.status.success(), "{out:?}");
    let r: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let (score, bound) = (r["score"].as_f64().unwrap(), r["bound"].as_f64().unwrap());
    let log = String::from_utf8_lossy(&out.stderr);
    let field = |line: &str, name: &str| {
        let rest = line.split_once(&format!(" {name} ")).unwrap().1;
        rest.split_whitespace().next().unwrap().parse::<f64>().ok()
    };
    let live: Vec<(f64, f64)> = log
        .lines()
        .filter_map(|line| Some((field(line, "incumbent")?, field(line, "bound")?)))
        .collect();
    assert!(!live.is_empty(), "no progress during the solve: {log}");
    // The log prints 4 decimals.
    for (incumbent, live_bound) in live {
        assert!(
            incumbent <= score + 1e-4 && live_bound >= bound - 1e-4,
            "{log} {r}"
        );
    }
}

/// Ctrl+C during an ILP run stops it at once with the best DAG (verified) and the
/// bound so far, marked `interrupted`.
#[test]
fn ctrl_c_reports_the_best_dag_so_far() {
    let file = scores("alarm_1000.BDeu1.palim3.jkl");
    let args = ilp_args(&file, &["--backend", "highs", "--log-progress", "--json"]);
    let (out, after) = common::bnsl_interrupted(&args, |line| line.contains("incumbent -"));
    let r: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let proved = r["status"] == "optimal";
    let expected_code = if proved { 0 } else { 130 };
    assert_eq!(out.status.code(), Some(expected_code), "{out:?}");
    assert!(after < 20.0, "took {after:.1} s to stop");
    assert_eq!(r["interrupted"], true, "{r}");
    assert!(
        ["feasible", "optimal"].contains(&r["status"].as_str().unwrap()),
        "{r}"
    );
    let (score, bound) = (r["score"].as_f64().unwrap(), r["bound"].as_f64().unwrap());
    assert!(bound >= score - 1e-6, "{r}");
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("interrupted (Ctrl+C)"), "{log}");
}

/// CBC drops a Ctrl+C on the ordering program (it ran on to its 120 s time limit
/// before the fix); the back-end sees it anyway, leaves the solve running after a short
/// grace and the run reports the best DAG it has: the ASOBS start, or none.
#[test]
fn ctrl_c_stops_cbc_where_cbc_itself_would_not() {
    let file = scores("alarm_1000.BDeu1.palim3.jkl");
    for warm_start in [&["--warm-start", "asobs:0.5"][..], &[]] {
        let mut extra = vec![
            "--backend",
            "cbc",
            "--formulation",
            "ordering",
            "--threads",
            "1",
            "--time-limit",
            "120",
            "--json",
        ];
        extra.extend(warm_start);
        let args = ilp_args(&file, &extra);
        let delay = std::time::Duration::from_secs(2);
        let (out, after) = common::bnsl_interrupted_after(&args, delay);
        assert_eq!(out.status.code(), Some(130), "{out:?}");
        assert!(after < 10.0, "took {after:.1} s to stop");
        let r: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
        assert_eq!(r["interrupted"], true, "{r}");
        let log = String::from_utf8_lossy(&out.stderr);
        if warm_start.is_empty() {
            assert_eq!(r["status"], "unknown", "{r}");
            assert!(log.contains("before any DAG was found"), "{log}");
        } else {
            assert_eq!(r["status"], "feasible", "{r}");
            let start = r["warm_start_score"].as_f64().unwrap();
            assert!(r["score"].as_f64().unwrap() >= start - 1e-9, "{r}");
            assert!(log.contains("the best DAG found so far follows"), "{log}");
        }
    }
}

#[test]
fn bad_ilp_options_are_clear_errors() {
    let file = scores("asia_10000.BDeu1.palim3.jkl");
    ilp_fails_with(&file, &["--backend", "gurobi"], &["back-end `gurobi`"]);
    ilp_fails_with(&file, &["--time-limit", "-1"], &["time limit"]);
    fails_with(
        &["learn", &file, "--method", "dp", "--backend", "highs"],
        &["--method ilp"],
    );
    // ILP-only flags are refused, not ignored, by the other methods.
    fails_with(
        &[
            "learn",
            &file,
            "--method",
            "asobs",
            "--gap",
            "0.1",
            "--threads",
            "2",
        ],
        &["--gap, --threads need --method ilp"],
    );
    ilp_fails_with(
        &file,
        &["--backend", "highs", "--scip-param", "limits/gap=0.1"],
        &["option `limits/gap` is for the scip back-end, but this run uses highs"],
    );
    // Back-end options are the back-end's to check: CBC takes none.
    ilp_fails_with(
        &file,
        &["--backend", "cbc", "--backend-param", "presolve=off"],
        &["cbc: takes no options (got `presolve`)"],
    );
}

/// With no --method, `learn` proves the optimum by the faster exact method and says
/// which: DP on 20 variables or fewer, SCIP's branch and cut above.
#[test]
fn no_method_proves_the_optimum_with_the_faster_exact_engine() {
    for (name, method, engine) in [
        ("child_1000.BDeu1.palim3.jkl", "dp", "dynamic programming"),
        (
            "alarm_1000.BDeu1.palim3.jkl",
            "ilp",
            "the family ILP on scip (branch and cut)",
        ),
    ] {
        let file = scores(name);
        let out = bnsl(&["learn", &file, "--json"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{name}: {stderr}");
        assert!(stderr.contains(engine), "{name}: {stderr}");
        let r: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            (r["method"].as_str(), r["status"].as_str()),
            (Some(method), Some("optimal")),
            "{r}"
        );
    }
    // An ILP flag alone asks for the ILP.
    let r = learn_json(&[
        "learn",
        &scores("sachs_1000.BDeu1.palim3.jkl"),
        "--backend",
        "highs",
        "--json",
    ]);
    assert_eq!(
        (r["method"].as_str(), r["backend"].as_str()),
        (Some("ilp"), Some("highs")),
        "{r}"
    );
}

#[test]
fn a_warm_start_keeps_the_optimum_and_is_reported() {
    let file = scores("sachs_1000.BDeu1.palim3.jkl");
    let optimum = dp_optimum(&file);
    for backend in ["scip", "highs", "cbc"] {
        let r = ilp_json(&file, backend, &["--warm-start", "asobs:0.2"]);
        assert_eq!(r["status"], "optimal", "{backend}: {r}");
        assert!((r["score"].as_f64().unwrap() - optimum).abs() < 1e-6, "{r}");
        assert_eq!(r["warm_start"], "asobs");
        let start = r["warm_start_score"].as_f64().unwrap();
        assert!(start <= optimum + 1e-9, "{r}");
        assert!(r["warm_start_time_s"].as_f64().unwrap() >= 0.2, "{r}");
    }
    ilp_fails_with(
        &file,
        &["--warm-start", "tabu:1"],
        &["unknown warm-start heuristic `tabu` and no such DAG file"],
    );
    ilp_fails_with(&file, &["--warm-start", "asobs:-2"], &[]);
}

#[test]
fn a_warm_start_with_a_restart_cap_is_that_asobs_run() {
    let file = scores("insurance_1000.BDeu1.palim3.jkl");
    let cap = ["--restarts", "7", "--seed", "3"];
    let mut heuristic = vec!["learn", file.as_str(), "--method", "asobs", "--json"];
    heuristic.extend(cap);
    let asobs = learn_json(&heuristic)["score"].as_f64().unwrap();
    for _ in 0..2 {
        let mut extra = vec!["--warm-start", "asobs"];
        extra.extend(cap);
        let r = ilp_json(&file, "scip", &extra);
        assert_eq!(r["status"], "optimal", "{r}");
        assert_eq!(r["warm_start_score"].as_f64(), Some(asobs), "{r}");
    }
    for extra in [&["--restarts", "7"][..], &["--no-local-search"]] {
        ilp_fails_with(&file, extra, &["--warm-start asobs"]);
    }
    ilp_fails_with(
        &file,
        &["--warm-start", "asobs", "--restarts", "0"],
        &["--restarts must be at least 1"],
    );
}

#[test]
fn a_warm_start_from_a_dag_file_is_read_projected_and_checked() {
    let file = scores("sachs_1000.BDeu1.palim3.jkl");
    let optimum = dp_optimum(&file);
    let dir = tempfile::tempdir().unwrap();
    let optimal = dir.path().join("optimal.txt");
    let out = bnsl(&["learn", &file, "-o", optimal.to_str().unwrap()]);
    assert!(out.status.success());
    // The optimum as a start: nothing left but the proof.
    for backend in ["scip", "highs", "cbc"] {
        let r = ilp_json(&file, backend, &["--warm-start", optimal.to_str().unwrap()]);
        assert_eq!(r["status"], "optimal", "{backend}: {r}");
        assert_eq!(r["warm_start"], "dag", "{r}");
        assert!(
            (r["warm_start_score"].as_f64().unwrap() - optimum).abs() < 1e-6,
            "{r}"
        );
        assert!((r["score"].as_f64().unwrap() - optimum).abs() < 1e-6, "{r}");
    }
    // Every node takes all earlier nodes as parents: no such set is a candidate (the
    // file has at most three parents), so each becomes its best candidate inside.
    let names = [
        "Akt", "Erk", "Jnk", "Mek", "P38", "PIP2", "PIP3", "PKA", "PKC", "Plcg", "Raf",
    ];
    let chain: String = (0..names.len())
        .map(|i| format!("{} <- {}\n", names[i], names[..i].join(", ")))
        .collect();
    let dense = dir.path().join("dense.txt");
    std::fs::write(&dense, chain).unwrap();
    let r = ilp_json(&file, "scip", &["--warm-start", dense.to_str().unwrap()]);
    assert_eq!(r["status"], "optimal", "{r}");
    assert!(
        r["warm_start_score"].as_f64().unwrap() <= optimum + 1e-9,
        "{r}"
    );
    // A cycle is refused, naming the file.
    let cyclic = dir.path().join("cyclic.txt");
    std::fs::write(&cyclic, "Akt <- Erk\nErk <- Akt\n").unwrap();
    ilp_fails_with(
        &file,
        &["--warm-start", cyclic.to_str().unwrap()],
        &["cyclic.txt", "cycle"],
    );
}

#[test]
fn cbc_node_cuts_can_be_turned_off_and_the_report_says_which() {
    let file = scores("child_1000.BIC.palim3.jkl");
    let optimum = dp_optimum(&file);
    for (extra, on) in [(&[][..], true), (&["--no-node-cuts"][..], false)] {
        let r = ilp_json(&file, "cbc", extra);
        assert_eq!(r["status"], "optimal", "{extra:?}: {r}");
        assert!((r["score"].as_f64().unwrap() - optimum).abs() < 1e-6, "{r}");
        assert_eq!(r["node_cuts"], on, "{extra:?}: {r}");
    }
    // Where there is no choice, the report has no such field, and the flag is refused.
    assert!(ilp_json(&file, "highs", &[]).get("node_cuts").is_none());
    for extra in [
        &["--backend", "highs", "--no-node-cuts"][..],
        &["--backend", "scip", "--no-node-cuts"][..],
        &[
            "--backend",
            "cbc",
            "--formulation",
            "ordering",
            "--no-node-cuts",
        ][..],
    ] {
        ilp_fails_with(&file, extra, &["--no-node-cuts applies to"]);
    }
    fails_with(
        &["learn", &file, "--method", "dp", "--no-node-cuts"],
        &["--no-node-cuts needs --method ilp"],
    );
}

/// `--highs-param` options reach HiGHS, typed by HiGHS, and are reported; an unknown
/// option, one bnsl sets itself, one that would leave answers unproven, and another
/// back-end are errors.
#[test]
fn highs_params_are_checked_and_reported() {
    let file = scores("child_1000.BIC.palim3.jkl");
    let optimum = dp_optimum(&file);
    let params = [
        "--highs-param",
        "presolve=off",
        "--highs-param",
        "mip_heuristic_effort=0.3",
    ];
    for formulation in ["family", "ordering"] {
        let mut extra = vec!["--formulation", formulation];
        extra.extend(params);
        let r = ilp_json(&file, "highs", &extra);
        assert_eq!(r["status"], "optimal", "{r}");
        assert!((r["score"].as_f64().unwrap() - optimum).abs() < 1e-6, "{r}");
        assert_eq!(
            r["highs_params"],
            serde_json::json!({"presolve": "off", "mip_heuristic_effort": "0.3"}),
            "{r}"
        );
    }
    for (extra, needle) in [
        (
            &["--backend", "highs", "--highs-param", "bogus=1"][..],
            "no option `bogus`",
        ),
        (
            &["--backend", "highs", "--highs-param", "mip_max_nodes=x"],
            "takes an integer, not `x`",
        ),
        (
            &["--backend", "highs", "--highs-param", "time_limit=5"],
            "set by bnsl (use --time-limit)",
        ),
        (
            &["--backend", "highs", "--highs-param", "objective_bound=0"],
            "unproven",
        ),
        (
            &["--highs-param", "presolve=off"],
            "option `presolve` is for the highs back-end, but this run uses scip",
        ),
        (
            &["--backend", "cbc", "--highs-param", "presolve=off"],
            "(give --backend highs)",
        ),
    ] {
        ilp_fails_with(&file, extra, &[needle]);
    }
}

/// `--scip-param` settings are recorded in the JSON too, as given.
#[test]
fn scip_params_are_reported() {
    let file = scores("child_1000.BIC.palim3.jkl");
    let r = ilp_json(&file, "scip", &["--scip-param", "bnsl/heuristic_depth=0"]);
    assert_eq!(r["status"], "optimal", "{r}");
    assert_eq!(
        r["scip_params"],
        serde_json::json!({"bnsl/heuristic_depth": "0"}),
        "{r}"
    );
    assert!(ilp_json(&file, "scip", &[]).get("scip_params").is_none());
}

/// CBC's cut callback runs from CBC's parallel tree: with two threads and the
/// heuristic separation alone (which leaves cycles to the nodes), CBC branches and still
/// proves SCIP's optimum.
#[test]
fn cbc_node_cuts_from_two_threads_reach_scips_optimum() {
    let file = scores("insurance_1000.BDeu1.palim3.jkl");
    let scip = ilp_json(&file, "scip", &[]);
    assert_eq!(scip["status"], "optimal", "{scip}");
    let extra = ["--threads", "2", "--heuristic-separation-only"];
    let cbc = ilp_json(&file, "cbc", &extra);
    assert_eq!(cbc["status"], "optimal", "{cbc}");
    assert_eq!(cbc["node_cuts"], true, "{cbc}");
    assert!(cbc["nodes"].as_u64().unwrap() > 0, "no branching: {cbc}");
    let (a, b) = (
        scip["score"].as_f64().unwrap(),
        cbc["score"].as_f64().unwrap(),
    );
    assert!((a - b).abs() < 1e-6, "SCIP {a}, CBC {b}");
}

/// `--solver-log` prints each back-end's log on stderr and leaves stdout to bnsl's
/// result: the `--json` object parses, for a solve and for a collection.
#[test]
fn the_solver_log_goes_to_stderr_and_the_json_to_stdout() {
    let file = scores("child_1000.BDeu1.palim3.jkl");
    for (backend, log_line) in [
        ("scip", "SCIP Status"),
        ("highs", "HiGHS"),
        ("cbc", "Optimal objective"),
    ] {
        let args = ilp_args(&file, &["--backend", backend, "--solver-log", "--json"]);
        let out = bnsl(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{backend}: {err}");
        assert!(
            err.contains(log_line),
            "{backend}: no log on stderr:\n{err}"
        );
        let r: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{backend}: stdout is not one JSON object ({e})"));
        assert_eq!(r["status"], "optimal", "{r}");
    }
    let collect = [
        "learn",
        &file,
        "--collect",
        "--bayes-factor",
        "3",
        "--backend",
        "scip",
        "--solver-log",
        "--json",
    ];
    let out = bnsl(&collect);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && err.contains("SCIP Status"), "{err}");
    let r: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(r["engine"], "branch_and_cut", "{r}");
}
