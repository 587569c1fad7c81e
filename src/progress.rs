//! Progress bars for long runs: shown on a terminal (stderr), hidden otherwise, so logs
//! and pipes stay clean.

use bnsl_solvers::ilp::IlpProgress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::cell::RefCell;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// A spinner with a running count and rate, e.g. of families scored.
pub fn counter(what: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, draw_target());
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} {msg}: {human_pos} ({per_sec}) [{elapsed_precise}]",
        )
        .expect("valid template"),
    );
    bar.set_message(what.to_string());
    bar
}

/// A spinner whose message is replaced as a solver improves (incumbent, bound, …).
pub fn solver_line() -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, draw_target());
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}")
            .expect("valid template"),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}

/// The progress line of an exact ILP solve.
pub fn describe_ilp(p: &IlpProgress) -> String {
    let fmt = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:.4}"));
    let gap = match (p.incumbent, p.bound) {
        (Some(s), Some(b)) => format!("{:.4}%", 100.0 * ((b - s) / s.abs().max(1e-10)).max(0.0)),
        _ => "-".to_string(),
    };
    format!(
        "incumbent {}  bound {}  gap {}  cuts {}  nodes {}  rounds {}",
        fmt(p.incumbent),
        fmt(p.bound),
        gap,
        p.cuts,
        p.nodes,
        p.rounds
    )
}

/// Progress of an exact ILP solve as plain lines on stderr (`--log-progress`), for the
/// log file of a long run where the terminal line is hidden. A line, prefixed with the
/// seconds since the log began, is written when the incumbent or the round count
/// changes, and otherwise at most once per [`IlpLog::QUIET_S`] seconds.
pub struct IlpLog {
    began: Instant,
    last: RefCell<Option<(Instant, IlpProgress)>>,
}

impl IlpLog {
    /// Seconds between lines when only the bound, cuts or nodes move.
    pub const QUIET_S: u64 = 10;

    /// A log whose clock starts now.
    pub fn new() -> Self {
        IlpLog {
            began: Instant::now(),
            last: RefCell::new(None),
        }
    }

    /// Writes `p` if it is news (see the type's doc).
    pub fn record(&self, p: &IlpProgress) {
        let now = Instant::now();
        let mut last = self.last.borrow_mut();
        let due = match last.as_ref() {
            None => true,
            Some((at, seen)) => {
                seen.incumbent != p.incumbent
                    || seen.rounds != p.rounds
                    || now.duration_since(*at) >= Duration::from_secs(Self::QUIET_S)
            }
        };
        if due && last.as_ref().is_none_or(|(_, seen)| seen != p) {
            let elapsed = now.duration_since(self.began).as_secs_f64();
            eprintln!("[{elapsed:>9.1} s] {}", describe_ilp(p));
            *last = Some((now, p.clone()));
        }
    }
}

impl Default for IlpLog {
    fn default() -> Self {
        Self::new()
    }
}

/// A bar over `len` steps (e.g. variables), with rate and time left.
pub fn bar(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), draw_target());
    bar.set_style(
        ProgressStyle::with_template(
            "{msg}: [{bar:30}] {human_pos}/{human_len} ({per_sec}, {eta} left) [{elapsed_precise}]",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar.set_message(what.to_string());
    bar
}

fn draw_target() -> ProgressDrawTarget {
    if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    }
}
