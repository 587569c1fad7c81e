//! The result of one run, as a line of the study's `results.jsonl` and a row of its
//! `results.csv`: how the process ended, what it answered, what it took.

use super::child::{ChildRun, Ending};
use super::plan::{OutputReader, Program, Run};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One finished run.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RunRecord {
    /// The study (plan name).
    pub study: String,
    /// `instance/method/seed`.
    pub key: String,
    /// The run's index in its plan's order (as `--job` takes it).
    pub index: usize,
    /// Instance name.
    pub instance: String,
    /// Method name.
    pub method: String,
    /// Seed.
    pub seed: u64,
    /// `optimal`, `feasible`, `infeasible`, `unknown` (as bnsl reports them), `timeout`
    /// (killed past the wall-clock limit), `memout` (past the memory limit) or `error`
    /// (failed, crashed, or gave no answer that could be read).
    pub status: String,
    /// The answer's score.
    pub score: Option<f64>,
    /// The bound on the optimum the run proved.
    pub bound: Option<f64>,
    /// Relative gap between them.
    pub gap: Option<f64>,
    /// Process wall-clock seconds, start to exit (reading the input included).
    pub wall_s: f64,
    /// The solver's own time, where it reports one.
    pub solver_s: Option<f64>,
    /// The time limit the run was given.
    pub time_limit_s: f64,
    /// Peak resident memory, MiB.
    pub peak_mib: f64,
    /// Branch-and-bound nodes, where reported.
    pub nodes: Option<u64>,
    /// The instance's known optimum, from the plan.
    pub known_optimum: Option<f64>,
    /// Exit code, when the process exited.
    pub exit_code: Option<i32>,
    /// Why the run is an `error`: the end of its standard error, or the cause.
    pub error: Option<String>,
    /// The machine (host name).
    pub host: String,
    /// The command line.
    pub command: Vec<String>,
    /// Seconds since the Unix epoch at the end of the run.
    pub finished_at: u64,
}

/// Where a record comes from, besides the child's run.
pub struct RecordContext<'a> {
    /// The study's name.
    pub study: &'a str,
    /// The run.
    pub run: &'a Run,
    /// Its method's program (how its output is read).
    pub program: &'a Program,
    /// The time limit.
    pub time_limit_s: f64,
    /// The host name.
    pub host: &'a str,
    /// The command line that ran.
    pub command: Vec<String>,
}

/// The columns of `results.csv`, in order.
pub const CSV_COLUMNS: [&str; 18] = [
    "study",
    "key",
    "instance",
    "method",
    "seed",
    "status",
    "score",
    "bound",
    "gap",
    "wall_s",
    "solver_s",
    "time_limit_s",
    "peak_mib",
    "nodes",
    "known_optimum",
    "exit_code",
    "host",
    "error",
];

/// The answer read from a run's output.
#[derive(Debug, Default, PartialEq)]
struct Answer {
    status: Option<String>,
    score: Option<f64>,
    bound: Option<f64>,
    gap: Option<f64>,
    solver_s: Option<f64>,
    nodes: Option<u64>,
}

impl RunRecord {
    /// The record of a finished child.
    pub fn new(context: RecordContext<'_>, child: &ChildRun) -> Self {
        let answer = match context.program {
            Program::Bnsl { .. } => read_bnsl_json(&child.stdout),
            Program::External { reader, .. } => read_external(reader, &child.stdout, &child.stderr),
        };
        let (status, error) = status_of(child, &answer);
        let run = context.run;
        RunRecord {
            study: context.study.to_string(),
            key: run.key.clone(),
            index: run.index,
            instance: run.instance.name.clone(),
            method: run.method.clone(),
            seed: run.seed,
            status,
            score: answer.score,
            bound: answer.bound,
            gap: answer.gap,
            wall_s: child.wall_s,
            solver_s: answer.solver_s,
            time_limit_s: context.time_limit_s,
            peak_mib: child.peak_rss_kib as f64 / 1024.0,
            nodes: answer.nodes,
            known_optimum: run.instance.known_optimum,
            exit_code: match child.ending {
                Ending::Exited(code) => Some(code),
                _ => None,
            },
            error,
            host: context.host.to_string(),
            command: context.command,
            finished_at: super::unix_seconds(),
        }
    }

    /// Whether the run proved its answer optimal.
    pub fn solved(&self) -> bool {
        self.status == "optimal"
    }

    /// The record as a CSV row (columns [`CSV_COLUMNS`]).
    pub fn csv_row(&self) -> String {
        let num = |x: Option<f64>| x.map_or(String::new(), |v| v.to_string());
        let fields = [
            self.study.clone(),
            self.key.clone(),
            self.instance.clone(),
            self.method.clone(),
            self.seed.to_string(),
            self.status.clone(),
            num(self.score),
            num(self.bound),
            num(self.gap),
            format!("{:.3}", self.wall_s),
            num(self.solver_s),
            self.time_limit_s.to_string(),
            format!("{:.1}", self.peak_mib),
            self.nodes.map_or(String::new(), |n| n.to_string()),
            num(self.known_optimum),
            self.exit_code.map_or(String::new(), |c| c.to_string()),
            self.host.clone(),
            self.error.clone().unwrap_or_default(),
        ];
        fields
            .iter()
            .map(|f| csv_field(f))
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// A CSV field, quoted where it must be.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// The status of a run and, for an `error`, why.
fn status_of(child: &ChildRun, answer: &Answer) -> (String, Option<String>) {
    let tail = || stderr_tail(&child.stderr);
    match child.ending {
        Ending::Timeout => ("timeout".into(), None),
        Ending::Memout => ("memout".into(), None),
        Ending::Interrupted => ("error".into(), Some("the study was stopped".into())),
        Ending::Signalled(signal) => (
            "error".into(),
            Some(format!("killed by signal {signal}: {}", tail())),
        ),
        // bnsl exits 130 after Ctrl+C and 0 otherwise with an answer; 2 means infeasible
        // constraints; any answer read is kept.
        Ending::Exited(code) => match &answer.status {
            Some(status) => (status.clone(), None),
            None if code == 0 => (
                "error".into(),
                Some("no answer could be read from the output".into()),
            ),
            None => (
                "error".into(),
                Some(format!("exit code {code}: {}", tail())),
            ),
        },
    }
}

/// The last few lines of a standard error, on one line.
fn stderr_tail(stderr: &str) -> String {
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    let start = lines.len().saturating_sub(3);
    let tail = lines[start..].join(" | ");
    tail.chars().take(400).collect()
}

/// The answer of `bnsl learn --json`: the JSON object on its standard output.
fn read_bnsl_json(stdout: &str) -> Answer {
    let Some(start) = stdout.find('{') else {
        return Answer::default();
    };
    let Ok(value) = serde_json::from_str::<Value>(&stdout[start..]) else {
        return Answer::default();
    };
    Answer {
        status: value["status"].as_str().map(str::to_string),
        score: value["score"].as_f64(),
        bound: value["bound"].as_f64(),
        gap: value["gap"].as_f64(),
        solver_s: value["time_s"].as_f64(),
        nodes: value["nodes"].as_u64(),
    }
}

/// The answer of an outside program, read with the method's expressions from its
/// standard output, then its standard error.
fn read_external(reader: &OutputReader, stdout: &str, stderr: &str) -> Answer {
    let text = format!("{stdout}\n{stderr}");
    let last = |re: &Option<regex::Regex>| -> Option<f64> {
        let re = re.as_ref()?;
        re.captures_iter(&text)
            .filter_map(|c| c.get(1)?.as_str().trim().parse::<f64>().ok())
            .last()
    };
    let score = last(&reader.score);
    let bound = last(&reader.bound);
    let optimal = reader.optimal.as_ref().is_some_and(|re| re.is_match(&text));
    let status = match (optimal, score) {
        (true, Some(_)) => Some("optimal".to_string()),
        (false, Some(_)) => Some("feasible".to_string()),
        (_, None) => None,
    };
    let bound = if optimal { bound.or(score) } else { bound };
    Answer {
        status,
        score,
        bound,
        gap: match (score, bound) {
            (Some(s), Some(b)) => Some(crate::solvers::milp::relative_gap(s, b)),
            _ => None,
        },
        solver_s: None,
        nodes: None,
    }
}

#[cfg(test)]
mod tests;
