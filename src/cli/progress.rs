//! Progress of long runs on the terminal: bars shown on stderr when it is a terminal,
//! hidden otherwise, so logs and pipes stay clean; or, for an exact solve with
//! `--log-progress`, plain timestamped lines. [`TerminalObserver`] is the library's
//! [`Observer`] drawn this way.

use bnsl::collection::CollectEvent;
use bnsl::maxsat::MaxSatScores;
use bnsl::observe::{Observer, EXACT_SOLVE};
use bnsl_solvers::heuristics::SearchProgress;
use bnsl_solvers::ilp::IlpProgress;
use bnsl_solvers::milp::relative_gap;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::{Mutex, Once};
use std::time::{Duration, Instant};

/// The library's progress as bars on the terminal (see the module documentation).
pub(super) struct TerminalObserver {
    /// The bar of the stage in progress.
    bar: Mutex<Option<ProgressBar>>,
    /// Plain log lines for exact solves instead of the solver line (`--log-progress`).
    log: Option<IlpLog>,
}

impl TerminalObserver {
    /// An observer drawing bars; exact solves write log lines instead when `log_ilp`.
    pub(super) fn new(log_ilp: bool) -> Self {
        TerminalObserver {
            bar: Mutex::new(None),
            log: log_ilp.then(IlpLog::new),
        }
    }

    fn with_bar(&self, f: impl FnOnce(&ProgressBar)) {
        let bar = self.bar.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(bar) = bar.as_ref() {
            f(bar);
        }
    }
}

impl Observer for TerminalObserver {
    fn stage(&self, name: &str, total: Option<u64>) {
        let bar = match (name, total) {
            (EXACT_SOLVE, _) if self.log.is_some() => None,
            (EXACT_SOLVE, _) => Some(solver_line()),
            (_, Some(len)) => Some(bar(len, name)),
            (_, None) => Some(counter(name)),
        };
        let mut current = self.bar.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(old) = std::mem::replace(&mut *current, bar) {
            old.finish_and_clear();
        }
    }

    fn advance(&self, steps: u64) {
        self.with_bar(|bar| bar.inc(steps));
    }

    fn stage_done(&self) {
        let mut current = self.bar.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(bar) = current.take() {
            bar.finish_and_clear();
        }
    }

    fn ilp(&self, progress: &IlpProgress) {
        match &self.log {
            Some(log) => log.record(progress),
            None => self.with_bar(|bar| bar.set_message(describe_ilp(progress))),
        }
    }

    fn maxsat(&self, progress: &MaxSatScores) {
        self.with_bar(|bar| bar.set_message(describe_maxsat(progress)));
    }

    fn search(&self, progress: &SearchProgress) {
        self.with_bar(|bar| {
            bar.set_position(progress.restarts);
            if let Some(best) = progress.best {
                bar.set_message(format!("order search, best {best:.3}, restarts"));
            }
        });
    }
}

/// Progress of `bnsl learn --collect` on the ILP engines: the solve for OPT as an exact
/// solve's line (log lines with `--log-progress`), then a counter of the networks
/// collected; with `--log-progress`, also a line when the collecting search begins and
/// one at most every [`IlpLog::QUIET_S`] seconds while it collects.
pub(super) struct CollectionProgress {
    observer: TerminalObserver,
    /// Done once the collecting search has reported its first network.
    collecting: Once,
    /// With `--log-progress`: when a count was last logged.
    logged: Mutex<Option<Instant>>,
}

impl CollectionProgress {
    pub(super) fn new(log: bool) -> Self {
        let observer = TerminalObserver::new(log);
        observer.stage(EXACT_SOLVE, None);
        CollectionProgress {
            observer,
            collecting: Once::new(),
            logged: Mutex::new(None),
        }
    }

    pub(super) fn record(&self, event: CollectEvent<'_>) {
        match event {
            CollectEvent::Optimum(p) => self.observer.ilp(p),
            CollectEvent::Network(p) => self.count(p.networks as u64),
        }
    }

    fn count(&self, networks: u64) {
        self.collecting
            .call_once(|| self.observer.stage("networks collected", None));
        self.observer.with_bar(|bar| bar.set_position(networks));
        if let Some(log) = &self.observer.log {
            let now = Instant::now();
            let mut last = self.logged.lock().unwrap_or_else(|p| p.into_inner());
            let quiet = Duration::from_secs(IlpLog::QUIET_S);
            if last.is_none_or(|at| now.duration_since(at) >= quiet) {
                log.write(now, format_args!("networks collected: {networks}"));
                *last = Some(now);
            }
        }
    }

    pub(super) fn finish(&self) {
        self.observer.stage_done();
    }
}

/// A spinner with a running count and rate, e.g. of families scored.
pub(super) fn counter(what: &str) -> ProgressBar {
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
pub(super) fn solver_line() -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, draw_target());
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}")
            .expect("valid template"),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}

/// The progress line of an exact ILP solve.
pub(super) fn describe_ilp(p: &IlpProgress) -> String {
    let fmt = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:.4}"));
    let gap = match (p.incumbent, p.bound) {
        (Some(s), Some(b)) => format!("{:.4}%", 100.0 * relative_gap(s, b)),
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

/// One line on a MaxSAT solve: incumbent, bound, gap, cores and SAT calls.
pub(super) fn describe_maxsat(p: &MaxSatScores) -> String {
    let incumbent = p.incumbent.map_or("-".to_string(), |v| format!("{v:.4}"));
    let gap = p.incumbent.map_or("-".to_string(), |s| {
        format!("{:.4}%", 100.0 * relative_gap(s, p.bound))
    });
    format!(
        "incumbent {incumbent}  bound {:.4}  gap {gap}  cores {}  SAT calls {}",
        p.bound, p.progress.cores, p.progress.sat_calls
    )
}

/// Progress of an exact ILP solve as plain lines on stderr (`--log-progress`), for the
/// log file of a long run where the terminal line is hidden. A line, prefixed with the
/// seconds since the log began, is written when the incumbent or the round count
/// changes, and otherwise at most once per [`IlpLog::QUIET_S`] seconds.
pub(super) struct IlpLog {
    began: Instant,
    last: Mutex<Option<(Instant, IlpProgress)>>,
}

impl IlpLog {
    /// Seconds between lines when only the bound, cuts or nodes move.
    pub(super) const QUIET_S: u64 = 10;

    /// A log whose clock starts now.
    pub(super) fn new() -> Self {
        IlpLog {
            began: Instant::now(),
            last: Mutex::new(None),
        }
    }

    /// Writes `p` if it is news (see the type's doc).
    pub(super) fn record(&self, p: &IlpProgress) {
        let now = Instant::now();
        let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
        let due = match last.as_ref() {
            None => true,
            Some((at, seen)) => {
                seen.incumbent != p.incumbent
                    || seen.rounds != p.rounds
                    || now.duration_since(*at) >= Duration::from_secs(Self::QUIET_S)
            }
        };
        if due && last.as_ref().is_none_or(|(_, seen)| seen != p) {
            self.write(now, describe_ilp(p));
            *last = Some((now, p.clone()));
        }
    }

    /// Writes `text` on a line of its own, prefixed with the seconds from the log's
    /// start to `now`.
    fn write(&self, now: Instant, text: impl std::fmt::Display) {
        let elapsed = now.duration_since(self.began).as_secs_f64();
        eprintln!("[{elapsed:>9.1} s] {text}");
    }
}

impl Default for IlpLog {
    fn default() -> Self {
        Self::new()
    }
}

/// A bar over `len` steps (e.g. variables), with rate and time left.
pub(super) fn bar(len: u64, what: &str) -> ProgressBar {
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
