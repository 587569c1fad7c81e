//! Progress bars for long runs: shown on a terminal (stderr), hidden otherwise, so logs
//! and pipes stay clean.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

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
pub fn describe_ilp(p: &bnsl_solvers::ilp::IlpProgress) -> String {
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
