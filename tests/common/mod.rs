//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// The repository root.
pub(crate) fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `../shared/instances`, or a panic saying it is missing: shared-instance tests must
/// never pass silently without their data.
pub(crate) fn shared() -> PathBuf {
    let p = repo().join("../shared/instances");
    assert!(
        p.join("MANIFEST.md").is_file(),
        "the shared benchmark instances are missing: expected {} (these tests need ../shared beside the repository)",
        p.display()
    );
    p
}

/// One line of a reference-score fixture: child, parents, and the two peers' scores.
pub(crate) struct ReferenceScore {
    pub child: String,
    pub parents: Vec<String>,
    pub pgmpy: f64,
    pub pygobnilp: f64,
}

/// A fixture of `tests/fixtures/reference` (written by scripts/reference/make_score_fixtures.py).
pub(crate) struct ReferenceFixture {
    pub source: PathBuf,
    pub score: String,
    pub ess: Option<f64>,
    pub lines: Vec<ReferenceScore>,
}

/// Reads a reference fixture by file name.
pub(crate) fn reference_fixture(name: &str) -> ReferenceFixture {
    let path = repo().join("tests/fixtures/reference").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let header = lines.next().expect("header line");
    let field = |key: &str| {
        header
            .split_whitespace()
            .find_map(|t| t.strip_prefix(&format!("{key}=")))
            .unwrap_or_else(|| panic!("{name}: no {key}= in header"))
    };
    let source = header.split_whitespace().nth(2).expect("source path");
    let ess = field("ess").parse().ok();
    let lines = lines
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 4, "{name}: bad line {l:?}");
            ReferenceScore {
                child: f[0].to_string(),
                parents: f[1]
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect(),
                pgmpy: f[2].parse().unwrap(),
                pygobnilp: f[3].parse().unwrap(),
            }
        })
        .collect();
    ReferenceFixture {
        source: repo().join(source),
        score: field("score").to_string(),
        ess,
        lines,
    }
}

/// Checks every family of a fixture against bnsl's scorer; returns the largest deviation.
pub(crate) fn check_reference_fixture(name: &str) -> f64 {
    use bnsl::data::load_data;
    use bnsl::scores::{LocalScorer, ScoreKind};
    let fx = reference_fixture(name);
    let data = load_data(&fx.source, &Default::default()).unwrap_or_else(|e| panic!("{e}"));
    let kind = match fx.score.as_str() {
        "bic" => ScoreKind::Bic,
        "bdeu" => ScoreKind::Bdeu {
            ess: fx.ess.expect("bdeu fixtures give ess"),
        },
        other => panic!("{name}: unknown score {other}"),
    };
    let scorer = LocalScorer::new(&data, kind);
    let idx = |n: &str| {
        data.index_of(n)
            .unwrap_or_else(|| panic!("{name}: unknown variable {n}"))
    };
    let mut worst = 0.0f64;
    assert!(!fx.lines.is_empty());
    for l in &fx.lines {
        let parents: Vec<usize> = l.parents.iter().map(|p| idx(p)).collect();
        let got = scorer.score(idx(&l.child), &parents).score;
        for want in [l.pgmpy, l.pygobnilp] {
            let d = (got - want).abs();
            assert!(
                d <= 1e-6,
                "{name}: {} | {:?}: bnsl {got} vs reference {want}",
                l.child,
                l.parents
            );
            worst = worst.max(d);
        }
    }
    worst
}

/// One row of `ground_truth/optima.csv` with a numeric optimum.
pub(crate) struct KnownOptimum {
    /// Path under `../shared/instances`.
    pub instance: String,
    /// The row's parameters (e.g. `palim 3`).
    pub params: String,
    pub optimum: f64,
}

/// The rows of `ground_truth/optima.csv` whose optimum is a number.
pub(crate) fn known_optima() -> Vec<KnownOptimum> {
    let text = std::fs::read_to_string(shared().join("ground_truth/optima.csv")).unwrap();
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let f = csv_fields(line);
            let optimum = f[3].parse::<f64>().ok()?;
            Some(KnownOptimum {
                instance: f[0].clone(),
                params: f[2].clone(),
                optimum,
            })
        })
        .collect()
}

/// Splits one CSV line, honouring double-quoted fields.
fn csv_fields(line: &str) -> Vec<String> {
    let (mut out, mut cur, mut quoted) = (Vec::new(), String::new(), false);
    for ch in line.chars() {
        match ch {
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut cur)),
            _ => cur.push(ch),
        }
    }
    out.push(cur);
    out
}

/// The number of variables of a score file (its first non-comment line).
pub(crate) fn score_file_vars(path: &std::path::Path) -> usize {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .unwrap()
        .trim()
        .parse()
        .unwrap_or(usize::MAX)
}

/// Runs the `bnsl` binary under test with `args`.
pub(crate) fn bnsl(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_bnsl"))
        .args(args)
        .output()
        .expect("run bnsl")
}

/// Runs `bnsl` with `args`: `Ok(stderr)` when it succeeds, `Err(stderr)` when it fails,
/// and never a panic.
pub(crate) fn stderr_outcome(args: &[&str]) -> Result<String, String> {
    let out = bnsl(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    match out.status.success() {
        true => Ok(err),
        false => Err(err),
    }
}

/// Runs `bnsl` with `args`, expects exit code 0, and returns its stdout as JSON.
pub(crate) fn run_json(args: &[&str]) -> serde_json::Value {
    let out = bnsl(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {err}"))
}

/// Writes the JSON answer `answer` of `bnsl learn --treewidth` into `dir` and checks it
/// with `bnsl verify --scores SCORES --treewidth WIDTH`, its own decomposition as the
/// certificate.
pub(crate) fn verify_within(
    scores: &str,
    answer: &serde_json::Value,
    width: &str,
    dir: &std::path::Path,
) {
    let file = dir.join(format!("answer_{width}.json"));
    std::fs::write(&file, answer.to_string()).unwrap();
    let file = file.to_string_lossy();
    let checked = bnsl(&[
        "verify",
        "--scores",
        scores,
        "--dag",
        &file,
        "--treewidth",
        width,
        "--decomposition",
        &file,
    ]);
    assert!(
        checked.status.success(),
        "{}",
        String::from_utf8_lossy(&checked.stderr)
    );
}

/// The DP's optimum of the score file `scores` (its `learn --json` object) and the
/// treewidth of that DAG, as `bnsl treewidth` finds it (through a file in `dir`).
pub(crate) fn dp_optimum_and_width(
    scores: &str,
    dir: &std::path::Path,
) -> (serde_json::Value, u64) {
    let free = run_json(&["learn", scores, "--method", "dp", "--json"]);
    let file = dir.join("free.json");
    std::fs::write(&file, free.to_string()).unwrap();
    let width = run_json(&[
        "treewidth",
        &file.to_string_lossy(),
        "--scores",
        scores,
        "--json",
    ])["treewidth"]
        .as_u64()
        .unwrap();
    (free, width)
}

/// Runs `bnsl` with `args`, expects failure with every `needles` in stderr, and no
/// panic; returns stderr for further checks.
pub(crate) fn fails_with(args: &[&str], needles: &[&str]) -> String {
    let out = bnsl(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "{args:?} should fail");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: expected {n:?} in: {err}");
    }
    err
}

/// The path of a shipped data set (`instances/data`).
pub(crate) fn shipped_data(name: &str) -> String {
    repo()
        .join("instances/data")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// A score file shipped in `instances/scores`, as a path string.
pub(crate) fn shipped_scores(name: &str) -> String {
    repo()
        .join("instances/scores")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// Runs `bnsl` with `args`, sends it SIGINT (Ctrl+C) as soon as a line of its stderr
/// satisfies `ready`, and returns its output (stderr as read) and the seconds from the
/// signal to its exit. Panics if it exits before any line is ready.
pub(crate) fn bnsl_interrupted(
    args: &[&str],
    ready: impl Fn(&str) -> bool,
) -> (std::process::Output, f64) {
    use std::io::{BufRead, BufReader};
    let mut child = spawn_piped(args);
    let mut err = BufReader::new(child.stderr.take().expect("piped stderr"));
    let mut stderr = String::new();
    let mut line = String::new();
    loop {
        line.clear();
        let read = err.read_line(&mut line).expect("read stderr");
        assert!(read > 0, "{args:?} ended before it was ready:\n{stderr}");
        stderr.push_str(&line);
        if ready(line.trim_end()) {
            break;
        }
    }
    interrupt_and_wait(child, err, stderr)
}

/// Runs `bnsl` with `args`, sends it SIGINT (Ctrl+C) after `delay`, and returns its
/// output and the seconds from the signal to its exit.
pub(crate) fn bnsl_interrupted_after(
    args: &[&str],
    delay: std::time::Duration,
) -> (std::process::Output, f64) {
    let mut child = spawn_piped(args);
    let err = child.stderr.take().expect("piped stderr");
    std::thread::sleep(delay);
    interrupt_and_wait(child, err, String::new())
}

fn spawn_piped(args: &[&str]) -> std::process::Child {
    use std::process::{Command, Stdio};
    Command::new(env!("CARGO_BIN_EXE_bnsl"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run bnsl")
}

/// Sends SIGINT to `child`, reads the rest of its stderr from `err` after what was
/// already read (`stderr`), and waits for it.
fn interrupt_and_wait(
    child: std::process::Child,
    mut err: impl std::io::Read,
    mut stderr: String,
) -> (std::process::Output, f64) {
    let signalled = std::time::Instant::now();
    let kill = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(kill.success(), "kill -INT failed");
    err.read_to_string(&mut stderr).expect("read stderr");
    let mut out = child.wait_with_output().expect("wait for bnsl");
    let after = signalled.elapsed().as_secs_f64();
    out.stderr = stderr.into_bytes();
    (out, after)
}

/// The networks of a `--collect-out` file as sorted lines of parents and score (to
/// 1e-6), to compare collections set for set.
pub(crate) fn network_lines(path: &std::path::Path) -> Vec<String> {
    let mut lines: Vec<String> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            format!("{} {:.6}", v["parents"], v["score"].as_f64().unwrap())
        })
        .collect();
    lines.sort();
    lines
}
