//! Progress while a long solve runs: the solve goes to a thread of its own, and the
//! caller's thread reports every [`LIVE_REPORT_INTERVAL`] until it returns. Used for the
//! cut loop's MIP rounds and the ordering program's one solve, on back-ends that tell
//! how far they are ([`NodeCuts`](crate::milp::NodeCuts),
//! [`Watched`](crate::milp::Watched)).

use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// How often a running solve is reported.
pub(super) const LIVE_REPORT_INTERVAL: Duration = Duration::from_secs(1);

/// Runs `solve` on a thread of its own and calls `report` every
/// [`LIVE_REPORT_INTERVAL`] until it returns; a panic of the solve passes on.
pub(super) fn solve_reporting<T: Send>(solve: impl FnOnce() -> T + Send, report: impl Fn()) -> T {
    let (finished, waiting) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        let solve = scope.spawn(move || {
            // Dropped when the solve returns or panics, which ends the wait below.
            let _finished = finished;
            solve()
        });
        while waiting.recv_timeout(LIVE_REPORT_INTERVAL) == Err(RecvTimeoutError::Timeout) {
            report();
        }
        solve
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

#[cfg(test)]
mod tests {
    use super::{solve_reporting, LIVE_REPORT_INTERVAL};
    use std::cell::Cell;

    #[test]
    fn a_long_solve_is_reported_while_it_runs_and_a_short_one_is_not() {
        let reports = Cell::new(0);
        solve_reporting(
            || std::thread::sleep(LIVE_REPORT_INTERVAL.mul_f64(2.5)),
            || reports.set(reports.get() + 1),
        );
        // Two reports at 1 s and 2 s; a third if the loaded host delays the solve.
        assert!(
            (2..=3).contains(&reports.get()),
            "{} reports",
            reports.get()
        );
        let short = solve_reporting(|| 7, || panic!("reported a short solve"));
        assert_eq!(short, 7);
    }

    #[test]
    #[should_panic(expected = "the solve's own panic")]
    fn a_panic_of_the_solve_passes_on() {
        solve_reporting(|| panic!("the solve's own panic"), || {});
    }
}
