//! Bad input through the command line: a clear error naming the file, the line and the
//! cause, a non-zero exit code, and never a panic.

mod common;

use common::fails_with;
use std::path::{Path, PathBuf};
use std::process::Command;

fn bnsl(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_bnsl"))
        .args(args)
        .output()
        .expect("run bnsl");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

const SCORES: &str = "2\na 2\n-1.5 1 b\n-2.0 0\nb 1\n-3.0 0\n";

#[test]
fn data_errors_name_file_line_and_cause() {
    let d = tempfile::tempdir().unwrap();
    let ragged = write(d.path(), "ragged.csv", "a,b\n0,1\n1\n");
    fails_with(
        &["score", ragged.to_str().unwrap()],
        &["ragged.csv:3", "expected 2 values, found 1"],
    );
    let empty = write(d.path(), "empty.csv", "a,b\n");
    fails_with(&["score", empty.to_str().unwrap()], &["empty.csv"]);
    let dat = write(d.path(), "bad.dat", "a b\n2 2\n0 1\n0 2\n");
    fails_with(&["learn", dat.to_str().unwrap()], &["bad.dat:4"]);
    let missing = d.path().join("missing.csv");
    fails_with(&["score", missing.to_str().unwrap()], &["missing.csv"]);
}

#[test]
fn bad_options_are_refused() {
    let d = tempfile::tempdir().unwrap();
    let data = write(d.path(), "ok.csv", "a,b\n0,1\n1,0\n");
    fails_with(
        &["score", data.to_str().unwrap(), "--ess", "-1"],
        &["--ess"],
    );
    fails_with(
        &["score", data.to_str().unwrap(), "--prune-gap", "NaN"],
        &["--prune-gap"],
    );
}

#[test]
fn score_file_errors_name_file_line_and_cause() {
    let d = tempfile::tempdir().unwrap();
    let nan = write(d.path(), "nan.jkl", "2\na 1\nNaN 0\nb 1\n-3.0 0\n");
    fails_with(&["learn", nan.to_str().unwrap()], &["nan.jkl:3"]);
    let dup = write(d.path(), "dup.jkl", "2\na 1\n-1 2 b b\nb 1\n-3.0 0\n");
    fails_with(&["learn", dup.to_str().unwrap()], &["dup.jkl:3"]);
    let unknown = write(d.path(), "unknown.jkl", "2\na 1\n-1 1 zz\nb 1\n-3.0 0\n");
    fails_with(
        &["learn", unknown.to_str().unwrap()],
        &["unknown.jkl:3", "zz"],
    );
    let truncated = write(d.path(), "trunc.jkl", "2\na 2\n-1 0\n");
    fails_with(&["learn", truncated.to_str().unwrap()], &["trunc.jkl"]);
}

#[test]
fn infeasible_candidates_say_so() {
    let d = tempfile::tempdir().unwrap();
    let cyc = write(d.path(), "cyc.jkl", "2\na 1\n-1 1 b\nb 1\n-1 1 a\n");
    let (ok, out, err) = bnsl(&["learn", cyc.to_str().unwrap(), "--json"]);
    assert!(!ok && err.contains("infeasible"), "{err}");
    assert!(out.contains("\"status\":\"infeasible\""), "{out}");
}

#[test]
fn verify_rejects_cycles_non_candidates_and_wrong_scores() {
    let d = tempfile::tempdir().unwrap();
    let scores = write(d.path(), "s.jkl", SCORES);
    let s = scores.to_str().unwrap();
    let cyclic = write(d.path(), "cyc.txt", "a <- b\nb <- a\n");
    fails_with(
        &["verify", "--scores", s, "--dag", cyclic.to_str().unwrap()],
        &["cycle"],
    );
    let not_cand = write(d.path(), "nc.txt", "b <- a\n");
    fails_with(
        &["verify", "--scores", s, "--dag", not_cand.to_str().unwrap()],
        &["not one of its candidate"],
    );
    let good = write(d.path(), "good.txt", "a <- b\n");
    let (ok, out, _) = bnsl(&[
        "verify",
        "--scores",
        s,
        "--dag",
        good.to_str().unwrap(),
        "--expect",
        "-4.5",
    ]);
    assert!(ok && out.contains("-4.5"), "{out}");
    fails_with(
        &[
            "verify",
            "--scores",
            s,
            "--dag",
            good.to_str().unwrap(),
            "--expect",
            "-4.0",
        ],
        &["not the expected"],
    );
    let unknown = write(d.path(), "u.txt", "a <- q\n");
    fails_with(
        &["verify", "--scores", s, "--dag", unknown.to_str().unwrap()],
        &["u.txt:1", "unknown variable `q`"],
    );
}

#[test]
fn mb_bad_input_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let data = write(d.path(), "ok.csv", "a,b,c\n0,1,0\n1,0,1\n1,1,0\n0,0,1\n");
    let p = data.to_str().unwrap();
    fails_with(
        &["mb", p, "--target", "zz"],
        &["unknown target `zz`", "a, b, c"],
    );
    fails_with(&["mb", p], &["--target", "--all"]);
    fails_with(
        &["mb", p, "--all", "--alpha", "1.5"],
        &["significance level"],
    );
    let constant = write(d.path(), "const.csv", "a,b\n0,1\n1,1\n0,1\n");
    fails_with(
        &["mb", constant.to_str().unwrap(), "--all"],
        &["const.csv", "column `b` is constant", "--allow-constant"],
    );
    let (ok, out, err) = bnsl(&[
        "mb",
        constant.to_str().unwrap(),
        "--all",
        "--allow-constant",
    ]);
    assert!(ok && out.contains("b: MB {}"), "{out}{err}");
    let one_row = write(d.path(), "one.csv", "a,b\n0,1\n");
    fails_with(
        &["mb", one_row.to_str().unwrap(), "--target", "a"],
        &["one.csv", "at least 2 rows"],
    );
    let net = write(
        d.path(),
        "other.bif",
        "network n {}\nvariable a { type discrete [ 2 ] { x, y }; }\nprobability ( a ) { table 0.5, 0.5; }\n",
    );
    fails_with(
        &["mb", p, "--all", "--truth", net.to_str().unwrap()],
        &["--truth", "`b` is not in the true network"],
    );
    fails_with(
        &["score", p, "--candidates", "mb", "--candidates-alpha", "0"],
        &["--candidates-alpha"],
    );
}
