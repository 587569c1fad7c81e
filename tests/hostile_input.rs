//! Hostile input and broken outputs through the command line: every case ends in a
//! clear message and a deliberate exit code, never a panic or a wrong answer.
#![cfg(all(feature = "highs", feature = "cbc", feature = "scip"))]

mod common;

use common::{fails_with, shipped_scores};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// The methods and back-ends a score file can go to, as `learn` arguments.
const EVERY_SOLVER: [&[&str]; 7] = [
    &["--method", "dp"],
    &["--method", "obs", "--restarts", "3"],
    &["--method", "asobs", "--restarts", "3"],
    &["--method", "ilp", "--backend", "scip"],
    &["--method", "ilp", "--backend", "highs"],
    &["--method", "ilp", "--backend", "cbc"],
    &[
        "--method",
        "ilp",
        "--backend",
        "highs",
        "--formulation",
        "ordering",
    ],
];

/// Scores no solver can represent, or whose sums overflow (each row: file text, the line
/// refused, the score token): refused when the file is read, with file and line, on
/// every method and back-end, and by `verify` and `export --root-cuts`.
#[test]
fn scores_beyond_what_solvers_represent_are_refused_with_file_and_line() {
    let d = tempfile::tempdir().unwrap();
    let cases = [
        (
            "small.jkl",
            "2\na 2\n-1e21 1 b\n-2 0\nb 1\n-3 0\n",
            3,
            "-1e21",
        ),
        (
            "large.jkl",
            "2\na 2\n1e308 1 b\n-2 0\nb 1\n-3 0\n",
            3,
            "1e308",
        ),
        (
            "overflow.jkl",
            "3\na 1\n-1e308 0\nb 1\n-1e308 0\nc 1\n-1e308 0\n",
            3,
            "-1e308",
        ),
        (
            "overflow.pss",
            "VAR a\n-1e308\nVAR b\n-1e308\nVAR c\n-1e308\n",
            2,
            "-1e308",
        ),
    ];
    for (name, text, line, token) in cases {
        let file = write(d.path(), name, text);
        let path = file.to_str().unwrap();
        let expected = [
            format!("{name}:{line}: "),
            format!("the score `{token}` is beyond ±1e13"),
            "largest magnitude bnsl accepts".to_string(),
        ];
        let needles: Vec<&str> = expected.iter().map(String::as_str).collect();
        for solver in EVERY_SOLVER {
            let mut args = vec!["learn", path];
            args.extend(solver);
            fails_with(&args, &needles);
        }
        let dag = write(d.path(), "empty.txt", "a <-\n");
        let dag = dag.to_str().unwrap();
        fails_with(&["verify", "--scores", path, "--dag", dag], &needles);
        let lp = d.path().join("m.lp");
        for backend in ["scip", "highs", "cbc"] {
            let args = [
                "export",
                path,
                "-o",
                lp.to_str().unwrap(),
                "--root-cuts",
                "--backend",
                backend,
            ];
            fails_with(&args, &needles);
        }
    }
}

/// Output that cannot be written: a full device is an error naming the cause (exit 1),
/// a reader that has gone (`| head -c1`) a quiet end (exit 0); never a panic.
#[test]
fn write_errors_on_standard_output_are_errors_not_panics() {
    let scores = shipped_scores("sachs_1000.BDeu1.palim3.jkl");
    let d = tempfile::tempdir().unwrap();
    let dag = d.path().join("dag.txt");
    let made = common::bnsl(&["learn", &scores, "-o", dag.to_str().unwrap()]);
    assert!(made.status.success());
    let dag = dag.to_str().unwrap();
    let data = common::repo().join("instances/data/sachs_1000.csv");
    let data = data.to_str().unwrap();
    let commands: [&[&str]; 5] = [
        &["learn", &scores],
        &["learn", &scores, "--json"],
        &["learn", &scores, "--method", "obs", "--restarts", "20"],
        &["verify", "--scores", &scores, "--dag", dag],
        &["mb", data, "--all"],
    ];
    for args in commands {
        let full = std::fs::File::create("/dev/full").unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_bnsl"))
            .args(args)
            .stdout(full)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?} to /dev/full: {err}");
        assert!(err.contains("No space left on device"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");

        let mut child = Command::new(env!("CARGO_BIN_EXE_bnsl"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Close the pipe at once, as `head -c0` would: every write then fails.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?} to a closed pipe: {err}"
        );
        assert!(
            !err.contains("panicked") && !err.contains("error"),
            "{args:?}: {err}"
        );
    }
}

/// Contradictory constraints give their reason in text mode too, not only in `--json`.
#[test]
fn infeasible_constraints_say_why_in_text_mode() {
    let d = tempfile::tempdir().unwrap();
    let scores = write(
        d.path(),
        "s.jkl",
        "3\na 2\n-1 1 c\n-2 0\nb 2\n-1 1 a\n-2 0\nc 2\n-1 1 b\n-2 0\n",
    );
    let cons = write(
        d.path(),
        "cons.txt",
        "require a -> b\nrequire b -> c\nrequire c -> a\n",
    );
    let args = [
        "learn",
        scores.to_str().unwrap(),
        "--constraints",
        cons.to_str().unwrap(),
    ];
    fails_with(&args, &["infeasible", "cycle"]);
}

/// Counts in the input or on the command line that would make bnsl reserve what it
/// never uses are refused before anything is reserved.
#[test]
fn absurd_counts_are_refused_before_anything_is_reserved() {
    let d = tempfile::tempdir().unwrap();
    let twilp = write(d.path(), "huge.dat", "1000000000\n2 2\n2\n0 1\n1 0\n");
    fails_with(
        &["score", twilp.to_str().unwrap(), "--data-format", "twilp"],
        &["huge.dat:2: the file declares 1000000000 variables but its line of arities has 2 values"],
    );
    let net = common::repo().join("instances/networks/asia.bif");
    fails_with(
        &["sample", net.to_str().unwrap(), "-n", "1000000000000"],
        &["-n 1000000000000", "GiB in memory", "draw fewer rows"],
    );
    let scores = shipped_scores("asia_10000.BDeu1.palim3.jkl");
    fails_with(
        &[
            "learn",
            &scores,
            "--method",
            "ilp",
            "--backend",
            "highs",
            "--threads",
            "100000",
        ],
        &["thread count 100000 is above 256"],
    );
}

/// DP honours `--time-limit` (it then has no network, and says so) and refuses a limit
/// that is not a number of seconds, as the other methods do.
#[test]
fn dp_honours_and_checks_the_time_limit() {
    let scores = shipped_scores("child_1000.BDeu1.palim3.jkl");
    let out = common::bnsl(&[
        "learn",
        &scores,
        "--method",
        "dp",
        "--time-limit",
        "1e-9",
        "--json",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("the exact DP was stopped"), "{err}");
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["status"], "unknown", "{r}");
    assert!(r["parents"].is_null(), "{r}");
    for bad in ["-1", "0", "NaN", "inf", "soon"] {
        fails_with(
            &["learn", &scores, "--method", "dp", "--time-limit", bad],
            &["--time-limit", "give a positive, finite number of seconds"],
        );
    }
    let solved = common::bnsl(&[
        "learn",
        &scores,
        "--method",
        "dp",
        "--time-limit",
        "600",
        "--json",
    ]);
    let r: serde_json::Value = serde_json::from_slice(&solved.stdout).unwrap();
    assert_eq!(r["status"], "optimal", "{r}");
}

/// Flags that shape how data is scored do nothing for a score file: they are refused
/// with their names, on `learn` and `verify --scores`, rather than ignored; so is BDeu's
/// `--ess` with `--score bic`.
#[test]
fn scoring_flags_on_a_score_file_are_refused_not_ignored() {
    let scores = shipped_scores("sachs_1000.BDeu1.palim3.jkl");
    let d = tempfile::tempdir().unwrap();
    let dag = write(d.path(), "dag.txt", "");
    let dag = dag.to_str().unwrap();
    for (flags, named) in [
        (&["--score", "bic"][..], "--score applies to data input"),
        (&["--ess", "10"], "--ess applies to data input"),
        (
            &["--score", "bdeu", "--prune-gap", "2"],
            "--score, --prune-gap apply to data input",
        ),
        (&["--header", "present"], "--header applies to data input"),
    ] {
        let mut learn = vec!["learn", scores.as_str()];
        learn.extend(flags);
        fails_with(&learn, &[named, "is a score file"]);
        let mut verify = vec!["verify", "--scores", scores.as_str(), "--dag", dag];
        verify.extend(flags);
        fails_with(&verify, &[named]);
    }
    let data = common::repo().join("instances/data/sachs_1000.csv");
    fails_with(
        &[
            "score",
            data.to_str().unwrap(),
            "--score",
            "bic",
            "--ess",
            "2",
        ],
        &["--ess is BDeu's; it does nothing with --score bic"],
    );
}

/// A UTF-8 byte-order mark (as spreadsheets write) is not part of the first name, in
/// data and score files alike; bytes that are not UTF-8 are located by line and byte.
#[test]
fn byte_order_marks_are_dropped_and_bad_bytes_located() {
    let d = tempfile::tempdir().unwrap();
    let csv = d.path().join("bom.csv");
    let mut bytes = b"\xef\xbb\xbfA,B\n".to_vec();
    for row in 0..40 {
        bytes.extend(format!("{},{}\n", row % 2, (row / 2) % 2).as_bytes());
    }
    std::fs::write(&csv, &bytes).unwrap();
    let scored = common::bnsl(&["score", csv.to_str().unwrap()]);
    assert!(scored.status.success(), "{scored:?}");
    let jkl = String::from_utf8(scored.stdout).unwrap();
    assert!(jkl.lines().any(|l| l.starts_with("A ")), "{jkl}");
    assert!(!jkl.contains('\u{feff}'), "{jkl}");

    let scores = d.path().join("bom.jkl");
    std::fs::write(&scores, b"\xef\xbb\xbf2\nA 1\n-1 0\nB 1\n-2 0\n").unwrap();
    let learned = common::bnsl(&["learn", scores.to_str().unwrap(), "--json"]);
    assert!(learned.status.success(), "{learned:?}");

    let latin1 = d.path().join("latin1.jkl");
    std::fs::write(&latin1, b"2\nA 1\n-1 0\nB\xe9 1\n-2 0\n").unwrap();
    fails_with(
        &["learn", latin1.to_str().unwrap()],
        &[
            "latin1.jkl:4: byte 2 of the line",
            "not valid UTF-8",
            "0xe9",
        ],
    );
}

/// A warm start longer than the time limit is refused (the limit covers the whole run),
/// and a negative number for a count names its flag.
#[test]
fn limits_that_cannot_hold_are_refused_with_their_flag() {
    let scores = shipped_scores("asia_10000.BDeu1.palim3.jkl");
    fails_with(
        &[
            "learn",
            &scores,
            "--method",
            "ilp",
            "--time-limit",
            "5",
            "--warm-start",
            "asobs:10",
        ],
        &["--warm-start asobs:10 does not fit in --time-limit 5"],
    );
    let net = common::repo().join("instances/networks/asia.bif");
    let net = net.to_str().unwrap();
    for (args, flag) in [
        (
            vec!["learn", &scores, "--method", "ilp", "--threads", "-1"],
            "--threads",
        ),
        (
            vec!["learn", &scores, "--method", "asobs", "--restarts", "-3"],
            "--restarts",
        ),
        (
            vec!["learn", &scores, "--max-parents", "-2"],
            "--max-parents",
        ),
        (
            vec!["learn", &scores, "--method", "asobs", "--seed", "-1"],
            "--seed",
        ),
        (vec!["sample", net, "-n", "-5"], "--rows"),
    ] {
        fails_with(&args, &["invalid value '-", flag]);
    }
}

/// Data is read as written or refused with its line: a header with a
/// name twice, `?` as a value, quoted fields with commas, and `.dat` columns that mix
/// codes and names (or hold codes beyond their arity).
#[test]
fn data_is_read_as_written_or_refused_with_its_line() {
    let d = tempfile::tempdir().unwrap();
    let mut rows = String::new();
    for row in 0..30 {
        rows += &format!("{},{}\n", row % 2, (row / 3) % 2);
    }
    let cases = [
        (
            "dup.csv",
            format!("A,A\n{rows}"),
            "dup.csv:1: duplicate column name `A`",
        ),
        (
            "missing.csv",
            format!("A,B\n{rows}1,?\n"),
            "missing.csv:32: `?` for `B`: a missing value",
        ),
        (
            "negative.dat",
            "A B\n2 2\n0 1\n1 -1\n0 0\n".to_string(),
            "negative.dat:4: `-1` of `B` is not a state code",
        ),
        (
            "letter.dat",
            "A B\n3 2\n0 1\n2 1\na 0\n".to_string(),
            "letter.dat:5: `a` of `A` is not a state code",
        ),
        (
            "decimal.dat",
            "A B\n2 2\n0 1\n1.0 0\n".to_string(),
            "decimal.dat:4: `1.0` of `A` is not a state code",
        ),
    ];
    for (name, text, needle) in cases {
        let file = write(d.path(), name, &text);
        fails_with(&["score", file.to_str().unwrap()], &[needle]);
    }
    let quoted = write(
        d.path(),
        "quoted.csv",
        "\"town\",\"kind\"\n\"Paris, TX\",a\n\"Paris, FR\",b\n\"Paris, TX\",b\n\"Paris, FR\",a\n",
    );
    let scored = common::bnsl(&["score", quoted.to_str().unwrap()]);
    assert!(scored.status.success(), "{scored:?}");
    let jkl = String::from_utf8(scored.stdout).unwrap();
    assert!(jkl.starts_with("2\n"), "two columns, not three: {jkl}");
}

/// `verify` refuses a DAG file that lists no node, and says which nodes a partial one
/// leaves out (they get no parents).
#[test]
fn verify_says_what_a_dag_file_leaves_out() {
    let scores = shipped_scores("sachs_1000.BDeu1.palim3.jkl");
    let d = tempfile::tempdir().unwrap();
    let empty = write(d.path(), "empty.txt", "");
    fails_with(
        &[
            "verify",
            "--scores",
            &scores,
            "--dag",
            empty.to_str().unwrap(),
        ],
        &["empty.txt: the file lists no node"],
    );
    let partial = write(d.path(), "partial.txt", "Raf <-\n");
    let out = common::bnsl(&[
        "verify",
        "--scores",
        &scores,
        "--dag",
        partial.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("partial.txt does not list Akt, Erk, "),
        "{err}"
    );
    assert!(!err.contains("Raf"), "Raf is listed: {err}");
    assert!(err.contains("they get no parents"), "{err}");
}

/// An ILP run that stops at its limit without a DAG says so and what to do (CBC ends
/// the ordering program's search before its time limit by its own accounting): never a
/// silent `status unknown`. With an ASOBS warm start the run always has a DAG.
#[test]
fn an_ilp_run_without_a_dag_says_what_to_do() {
    let scores = shipped_scores("alarm_1000.BDeu1.palim3.jkl");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "learn",
            &scores,
            "--method",
            "ilp",
            "--backend",
            "cbc",
            "--formulation",
            "ordering",
            "--time-limit",
            "0.3",
            "--json",
        ];
        args.extend_from_slice(extra);
        let out = common::bnsl(&args);
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(0), "{err}");
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (r, err)
    };
    let (r, err) = run(&[]);
    if r["parents"].is_null() {
        assert_eq!(r["status"], "unknown", "{r}");
        assert!(
            err.contains("note: no DAG was found within the limit"),
            "{err}"
        );
        assert!(err.contains("--warm-start asobs"), "{err}");
    }
    let (r, err) = run(&["--warm-start", "asobs:0.1"]);
    assert!(!r["parents"].is_null(), "{r}\n{err}");
    assert!(!err.contains("no DAG was found"), "{err}");
}
