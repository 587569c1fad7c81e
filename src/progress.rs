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

fn draw_target() -> ProgressDrawTarget {
    if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    }
}
