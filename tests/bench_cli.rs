//! `bnsl bench` end to end on the shipped score files: a plan run as child processes,
//! its results resumed, listed, emitted as jobs and merged back, reported with figures,
//! outside programs read, wall-clock limits enforced, contradictions flagged.

mod common;

use common::{bnsl, fails_with, repo};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// A plan over three shipped score files: DP and ASOBS from bnsl (two seeds), and an
/// outside program (a shell line) that prints the known optimum of asia as its score.
fn plan(dir: &Path, extra: &str) -> String {
    let scores = repo().join("instances/scores");
    let text = format!(
        r#"
name = "tiny"
time_limit = 20
seeds = [1, 2]

[[instances]]
files = ["{scores}/asia_10000.BDeu1.palim3.jkl", "{scores}/cancer_1000.BDeu1.palim3.jkl", "{scores}/survey_1000.BDeu1.palim3.jkl"]

[[methods]]
name = "dp"
args = ["--method", "dp"]
seeded = false

[[methods]]
name = "asobs-{{restarts}}"
args = ["--method", "asobs", "--restarts", "{{restarts}}"]
matrix = {{ restarts = [5] }}

[[methods]]
name = "peer"
command = ["sh", "-c", "echo 'BN score is -22302.673566054145'; echo solved"]
score = 'BN score is (\S+)'
optimal = 'solved'
instances = ["asia*"]
{extra}"#,
        scores = scores.display()
    );
    let path = dir.join("plan.toml");
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

fn records(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("results.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn run_ok(args: &[&str]) -> String {
    let out = bnsl(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{args:?}: {err}");
    err
}

/// Key → (status, score) of a result folder.
fn answers(dir: &Path) -> BTreeMap<String, (String, String)> {
    records(dir)
        .into_iter()
        .map(|r| {
            (
                r["key"].as_str().unwrap().to_string(),
                (
                    r["status"].as_str().unwrap().to_string(),
                    format!("{:.6}", r["score"].as_f64().unwrap()),
                ),
            )
        })
        .collect()
}

#[test]
fn a_study_runs_resumes_reports_and_matches_its_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let plan = plan(dir.path(), "");
    let out = dir.path().join("results");
    let out_s = out.to_string_lossy().into_owned();
    let err = run_ok(&["bench", &plan, "--out", &out_s]);
    assert!(err.contains("14 runs, 0 done, 14 to run"), "{err}");
    let first = records(&out);
    // 3 instances × (dp + asobs) × 2 seeds + the peer on asia × 2 seeds.
    assert_eq!(first.len(), 14);
    for r in &first {
        assert!(r["wall_s"].as_f64().unwrap() > 0.0);
        assert!(r["peak_mib"].as_f64().unwrap() > 0.0);
        assert_eq!(r["host"].as_str().map(str::is_empty), Some(false));
    }
    let statuses: Vec<&str> = first
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    assert_eq!(
        statuses.iter().filter(|s| **s == "optimal").count(),
        8,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|s| **s == "feasible").count(),
        6,
        "asobs proves nothing"
    );
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert_eq!(csv.lines().count(), 15);
    // Every run keeps its output: bnsl's whole JSON, a peer's log.
    let kept =
        |key: &str| std::fs::read_to_string(out.join("runs").join(key).join("stdout.txt")).unwrap();
    let dp: Value = serde_json::from_str(&kept("asia_10000/dp/1")).unwrap();
    assert_eq!(dp["status"], "optimal");
    assert!(kept("asia_10000/peer/2").contains("BN score is"));
    assert!(out.join("runs/cancer_1000/asobs-5/1/stderr.txt").exists());
    let machine: Value = serde_json::from_str(
        std::fs::read_to_string(out.join("machines.jsonl"))
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert!(
        machine["bnsl"][0].as_str().unwrap().contains("commit"),
        "{machine}"
    );

    // Resume: nothing left to run; a record cut short is run again.
    let err = run_ok(&["bench", &plan, "--out", &out_s]);
    assert!(err.contains("14 done, 0 to run"), "{err}");
    let text = std::fs::read_to_string(out.join("results.jsonl")).unwrap();
    let cut = text.trim_end().rfind('\n').unwrap() + 20;
    std::fs::write(out.join("results.jsonl"), &text[..cut]).unwrap();
    let err = run_ok(&["bench", &plan, "--out", &out_s]);
    assert!(err.contains("13 done, 1 to run"), "{err}");
    assert_eq!(records(&out).len(), 14);
    assert_eq!(
        std::fs::read_to_string(out.join("results.csv"))
            .unwrap()
            .lines()
            .count(),
        15
    );

    // The same plan as jobs, each run by a shell, then merged: the same answers.
    let jobs_out = dir.path().join("jobs-results");
    let jobs = bnsl(&[
        "bench",
        &plan,
        "--emit-jobs",
        "--out",
        &jobs_out.to_string_lossy(),
    ]);
    let jobs = String::from_utf8(jobs.stdout).unwrap();
    assert_eq!(jobs.lines().count(), 14);
    for line in jobs.lines() {
        let status = Command::new("sh").args(["-c", line]).output().unwrap();
        assert!(
            status.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&status.stderr)
        );
    }
    let merged = dir.path().join("merged");
    let mut args = vec!["bench".to_string(), "merge".into()];
    for i in 0..14 {
        args.push(
            jobs_out
                .join("jobs")
                .join(i.to_string())
                .to_string_lossy()
                .into_owned(),
        );
    }
    args.extend(["--out".into(), merged.to_string_lossy().into_owned()]);
    run_ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let order = |dir: &Path| -> Vec<String> {
        records(dir)
            .iter()
            .map(|r| r["key"].as_str().unwrap().to_string())
            .collect()
    };
    let mut direct_order = order(&out);
    // The resumed run went last; the plan's order puts it back in place.
    direct_order.sort_by_key(|k| first.iter().position(|r| r["key"] == k.as_str()));
    assert_eq!(
        order(&merged),
        direct_order,
        "merged records follow the plan's order"
    );
    let (mut direct, mut joined) = (answers(&out), answers(&merged));
    // ASOBS's answers depend on the seed only, not on how the run was started.
    assert_eq!(direct.len(), joined.len());
    direct.retain(|_, (s, _)| s == "optimal");
    joined.retain(|_, (s, _)| s == "optimal");
    assert_eq!(direct, joined);
    // Each merged record brings its run's folder along.
    for key in order(&merged) {
        let stdout = merged.join("runs").join(&key).join("stdout.txt");
        assert!(stdout.is_file(), "{} is missing", stdout.display());
    }

    // The report: tables, a clean consistency check, the figures.
    let report = bnsl(&["bench", "report", &out_s, "--baseline", "dp", "--check"]);
    assert!(
        report.status.success(),
        "{}",
        String::from_utf8_lossy(&report.stderr)
    );
    let md = String::from_utf8(report.stdout).unwrap();
    assert!(md.contains("| dp | 6 | 6 | 0 | 0 | 0 | 0 |"), "{md}");
    assert!(md.contains("No contradiction"), "{md}");
    for figure in [
        "profile.svg",
        "scatter-peer.svg",
        "scatter-asobs-5.svg",
        "report.md",
    ] {
        let text = std::fs::read_to_string(out.join(figure)).unwrap();
        assert!(!text.is_empty(), "{figure}");
    }
}

#[test]
fn a_run_past_its_wall_clock_limit_is_killed_and_recorded_as_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let scores = repo().join("instances/scores/asia_10000.BDeu1.palim3.jkl");
    let text = format!(
        "name = \"slow\"\ntime_limit = 0.5\nkill_after = 3\n[[instances]]\nfiles = [\"{}\"]\n[[methods]]\nname = \"sleeper\"\ncommand = [\"sh\", \"-c\", \"sleep 30; echo 'score 1'\"]\nscore = 'score (\\S+)'\n",
        scores.display()
    );
    let plan = dir.path().join("plan.toml");
    std::fs::write(&plan, text).unwrap();
    let out = dir.path().join("out");
    run_ok(&[
        "bench",
        &plan.to_string_lossy(),
        "--out",
        &out.to_string_lossy(),
    ]);
    let r = &records(&out)[0];
    assert_eq!(r["status"], "timeout");
    let wall = r["wall_s"].as_f64().unwrap();
    assert!((3.0..8.0).contains(&wall), "killed after {wall} s");
    // The report's time-limit check flags it.
    let report = bnsl(&["bench", "report", &out.to_string_lossy(), "--check"]);
    assert_eq!(report.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&report.stderr).contains("past its time limit"));
}

#[test]
fn contradicting_optima_are_flagged_by_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let liar = r#"
[[methods]]
name = "liar"
command = ["sh", "-c", "echo 'BN score is -22000'; echo solved"]
score = 'BN score is (\S+)'
optimal = 'solved'
instances = ["asia*"]
seeded = false
"#;
    // `seeded` is for bnsl methods; an outside program's plan keeps to its own fields.
    let plan = plan(dir.path(), liar);
    fails_with(&["bench", &plan, "--list"], &["plan.toml", "liar"]);
    let plan = plan_without_seeded(dir.path(), liar);
    let out = dir.path().join("out").to_string_lossy().into_owned();
    run_ok(&["bench", &plan, "--out", &out]);
    let report = bnsl(&["bench", "report", &out, "--check"]);
    assert_eq!(report.status.code(), Some(3));
    let md = String::from_utf8(report.stdout).unwrap();
    assert!(md.contains("proved optima differ"), "{md}");
}

fn plan_without_seeded(dir: &Path, extra: &str) -> String {
    plan(dir, &extra.replace("seeded = false\n", ""))
}

#[test]
fn bad_plans_and_folders_are_refused_with_their_cause() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("plan.toml");
    std::fs::write(
        &path,
        "name = \"x\"\ntime_limit = 5\n[[instances]]\nfiles = 3\n",
    )
    .unwrap();
    fails_with(&["bench", &path.to_string_lossy()], &["plan.toml:4:"]);
    fails_with(
        &["bench", "/nonexistent/plan.toml"],
        &["/nonexistent/plan.toml"],
    );
    let plan = plan(dir.path(), "");
    fails_with(&["bench", &plan, "--job", "99"], &["--job 99", "14 runs"]);
    let listed = bnsl(&["bench", &plan, "--list"]);
    assert_eq!(String::from_utf8_lossy(&listed.stdout).lines().count(), 14);
    let bad = dir.path().join("bad");
    std::fs::create_dir(&bad).unwrap();
    std::fs::write(bad.join("results.jsonl"), "{\"key\": 1}\n{}\n").unwrap();
    fails_with(
        &["bench", "report", &bad.to_string_lossy()],
        &["results.jsonl:1:", "not a run record"],
    );
    fails_with(
        &[
            "bench",
            "merge",
            &bad.to_string_lossy(),
            "--out",
            &dir.path().join("m").to_string_lossy(),
        ],
        &["results.jsonl:1:"],
    );
}
