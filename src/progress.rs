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
