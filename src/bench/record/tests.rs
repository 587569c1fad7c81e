use super::*;
use crate::bench::plan::Instance;
use regex::Regex;
use std::path::PathBuf;

fn run() -> Run {
    Run {
        index: 0,
        key: "alarm/scip/1".into(),
        instance: Instance {
            name: "alarm".into(),
            path: PathBuf::from("alarm.jkl"),
            known_optimum: Some(-10.0),
        },
        method: "scip".into(),
        seed: 1,
    }
}

fn child(ending: Ending, stdout: &str, stderr: &str) -> ChildRun {
    ChildRun {
        ending,
        wall_s: 1.5,
        peak_rss_kib: 2048,
        stdout: stdout.into(),
        stderr: stderr.into(),
    }
}

fn record(program: &Program, child: &ChildRun) -> RunRecord {
    let run = run();
    RunRecord::new(
        RecordContext {
            study: "s",
            run: &run,
            program,
            time_limit_s: 60.0,
            host: "h",
            command: vec!["bnsl".into()],
        },
        child,
    )
}

const BNSL: Program = Program::Bnsl {
    binary: None,
    args: Vec::new(),
    seeded: true,
};

#[test]
fn bnsl_json_gives_the_answer() {
    let out = r#"{"method":"ilp","status":"optimal","score":-10.0,"bound":-10.0,"gap":0.0,"time_s":0.7,"nodes":12,"parents":{}}"#;
    let r = record(&BNSL, &child(Ending::Exited(0), out, "progress"));
    assert_eq!(r.status, "optimal");
    assert_eq!(
        (r.score, r.bound, r.gap),
        (Some(-10.0), Some(-10.0), Some(0.0))
    );
    assert_eq!((r.solver_s, r.nodes), (Some(0.7), Some(12)));
    assert_eq!(r.peak_mib, 2.0);
    assert_eq!(r.exit_code, Some(0));
    assert!(r.error.is_none() && r.solved());
    assert_eq!(r.known_optimum, Some(-10.0));
}

#[test]
fn an_interrupted_bnsl_keeps_its_answer() {
    let out = r#"{"status":"feasible","score":-11.0,"bound":-9.0,"gap":0.18}"#;
    let r = record(&BNSL, &child(Ending::Exited(130), out, ""));
    assert_eq!(r.status, "feasible");
    assert_eq!(r.exit_code, Some(130));
}

#[test]
fn failures_are_errors_with_their_cause() {
    let r = record(
        &BNSL,
        &child(Ending::Exited(1), "", "a\nerror: x.jkl:3: bad line\n"),
    );
    assert_eq!(r.status, "error");
    assert!(
        r.error.as_deref().unwrap().contains("x.jkl:3: bad line"),
        "{:?}",
        r.error
    );
    let r = record(&BNSL, &child(Ending::Exited(0), "not json", ""));
    assert_eq!(r.status, "error");
    let r = record(&BNSL, &child(Ending::Signalled(11), "", "boom"));
    assert!(r.error.as_deref().unwrap().contains("signal 11"));
    assert_eq!(r.exit_code, None);
}

#[test]
fn limits_give_timeout_and_memout() {
    assert_eq!(
        record(&BNSL, &child(Ending::Timeout, "", "")).status,
        "timeout"
    );
    assert_eq!(
        record(&BNSL, &child(Ending::Memout, "", "")).status,
        "memout"
    );
}

fn peer() -> Program {
    Program::External {
        command: vec!["peer".into()],
        reader: OutputReader {
            score: Some(Regex::new(r"BN score is (\S+)").unwrap()),
            bound: Some(Regex::new(r"Dual bound\s*:\s*(\S+)").unwrap()),
            optimal: Some(Regex::new(r"optimal solution found").unwrap()),
        },
    }
}

#[test]
fn an_outside_program_is_read_by_its_expressions() {
    let out = "BN score is -12.5\nDual bound : -11\nBN score is -10.25\n";
    let r = record(&peer(), &child(Ending::Exited(0), out, ""));
    assert_eq!(r.status, "feasible");
    assert_eq!((r.score, r.bound), (Some(-10.25), Some(-11.0)));
    let r = record(
        &peer(),
        &child(
            Ending::Exited(0),
            "BN score is -10\n",
            "optimal solution found",
        ),
    );
    assert_eq!(r.status, "optimal");
    assert_eq!(
        (r.score, r.bound, r.gap),
        (Some(-10.0), Some(-10.0), Some(0.0))
    );
    let r = record(&peer(), &child(Ending::Exited(0), "no answer\n", ""));
    assert_eq!(r.status, "error");
}

#[test]
fn csv_rows_quote_what_they_must() {
    let mut r = record(&BNSL, &child(Ending::Exited(1), "", "x, \"y\""));
    r.error = Some("x, \"y\"".into());
    let row = r.csv_row();
    assert!(row.ends_with("\"x, \"\"y\"\"\""), "{row}");
    assert_eq!(row.split(',').next(), Some("s"));
    assert_eq!(CSV_COLUMNS.len(), 18);
}

#[test]
fn records_round_trip_through_json() {
    let out = r#"{"status":"optimal","score":-10.0,"bound":-10.0,"gap":0.0,"time_s":0.7}"#;
    let r = record(&BNSL, &child(Ending::Exited(0), out, ""));
    let text = serde_json::to_string(&r).unwrap();
    let back: RunRecord = serde_json::from_str(&text).unwrap();
    assert_eq!(back, r);
}
