//! Leaving the root of a large or deep-tree table when its bound stalls.
//!
//! On large and deep-tree tables the root separates as long as cuts come (SCIP's
//! round-counting stall rule ends it far too early there, see `LARGE_TABLE_PARAMS` and
//! `DEEP_TREE_PARAMS`), but late in a long run
//! the cuts still come while the bound hardly moves. [`RootStall`] watches the bound
//! over a window of time instead of rounds: once a share of the time limit has passed
//! and the bound gained over the last window is less than a small fraction of the gap,
//! or once the root has run for a fixed time and a window gains less than a larger
//! fraction (a root that gains less than a tree would), the cluster separator and
//! SCIP's separators stop at the root, so the cut loop ends and branching takes over;
//! below the root the separators' frequencies are given back.

use super::engine::{time_limit, ScipCallFailed};
use russcip::ffi;
use std::collections::VecDeque;
use std::ffi::CStr;
use std::os::raw::c_int;

/// The rule: once `share` of the time limit has passed, leave the root when the bound
/// gained over the last `window` seconds is less than `gain` times the gap between bound
/// and incumbent; from `late` seconds on, leave it when that gain is less than
/// `late_gain` times the gap (infinite: at `late` whatever it gains).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct RootStallRule {
    /// Fraction of the gap.
    pub gain: f64,
    /// Seconds.
    pub window: f64,
    /// Fraction of the time limit the root always gets.
    pub share: f64,
    /// Seconds after which `late_gain` applies (infinite: never).
    pub late: f64,
    /// Fraction of the gap, or infinite.
    pub late_gain: f64,
}

/// The rule's state over one solve.
pub(super) struct RootStall {
    rule: RootStallRule,
    /// The root's bounds so far (solving time, bound), the oldest one kept at least a
    /// window before the newest.
    history: VecDeque<(f64, f64)>,
    /// The separators stopped when the root ended, with their frequencies.
    stopped: Vec<(*mut ffi::SCIP_SEPA, c_int)>,
    phase: Phase,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Phase {
    /// The root separates.
    Separating,
    /// The root stalled: separators stopped until the first node below it.
    Ended,
    /// Below the root, separators given back.
    Tree,
}

impl RootStall {
    /// The state of a solve under `rule`.
    pub(super) fn new(rule: RootStallRule) -> Self {
        RootStall {
            rule,
            history: VecDeque::new(),
            stopped: Vec::new(),
            phase: Phase::Separating,
        }
    }

    /// Called at each separation round of the root: whether the root has ended, in which
    /// case every separator but `own` (by name) was stopped and the caller separates
    /// nothing either.
    pub(super) fn root_ended(
        &mut self,
        scip: *mut ffi::SCIP,
        own: &CStr,
    ) -> Result<bool, ScipCallFailed> {
        if self.phase == Phase::Separating && self.stalled(scip)? {
            self.stop_separators(scip, own);
            self.phase = Phase::Ended;
        }
        Ok(self.phase == Phase::Ended)
    }

    /// Called below the root: gives the stopped separators their frequencies back, once.
    pub(super) fn below_root(&mut self) {
        if self.phase == Phase::Ended {
            for (sepa, freq) in self.stopped.drain(..) {
                // SAFETY: separators live as long as the instance.
                unsafe { ffi::SCIPsepaSetFreq(sepa, freq) };
            }
            self.phase = Phase::Tree;
        }
    }

    /// Reads the root's bound now and applies the rule ([`RootStall::observe`]).
    fn stalled(&mut self, scip: *mut ffi::SCIP) -> Result<bool, ScipCallFailed> {
        let limit = time_limit(scip)?;
        // SAFETY: queries on the live instance in the solving stage.
        let (now, bound, incumbent) = unsafe {
            (
                ffi::SCIPgetSolvingTime(scip),
                ffi::SCIPgetDualbound(scip),
                ffi::SCIPgetPrimalbound(scip),
            )
        };
        Ok(self.observe(now, bound, incumbent, limit))
    }

    /// Records the root's `bound` at solving time `now` and whether the rule holds: at
    /// least the rule's share of the time `limit` has passed (no limit: one window) and
    /// the window's gain is below the rule's `gain`, or the rule's `late` time has passed
    /// and the window's gain is below its `late_gain` (an infinite one holds at once).
    fn observe(&mut self, now: f64, bound: f64, incumbent: f64, limit: Option<f64>) -> bool {
        self.history.push_back((now, bound));
        while self.history.len() > 2 && self.history[1].0 <= now - self.rule.window {
            self.history.pop_front();
        }
        let earliest = limit.map_or(self.rule.window, |limit| limit * self.rule.share);
        now >= earliest && self.window_gains_less(now, bound, incumbent, self.rule.gain)
            || now >= self.rule.late
                && (self.rule.late_gain == f64::INFINITY
                    || self.window_gains_less(now, bound, incumbent, self.rule.late_gain))
    }

    /// Whether a full window lies behind `now` and the bound gained over it is less than
    /// `fraction` of the gap between `bound` and `incumbent` (none: infinite, never).
    fn window_gains_less(&self, now: f64, bound: f64, incumbent: f64, fraction: f64) -> bool {
        let (then, old) = self.history[0];
        let gap = (bound - incumbent).abs();
        then <= now - self.rule.window && gap.is_finite() && (old - bound).abs() < fraction * gap
    }

    /// Sets the frequency of every separator but `own` that would run to −1 (never),
    /// keeping the frequencies to give back.
    fn stop_separators(&mut self, scip: *mut ffi::SCIP, own: &CStr) {
        // SAFETY: the separator array of the live instance, read in place.
        let sepas = unsafe {
            let n = ffi::SCIPgetNSepas(scip) as usize;
            std::slice::from_raw_parts(ffi::SCIPgetSepas(scip), n)
        };
        for &sepa in sepas {
            // SAFETY: live separators; names are C strings owned by SCIP.
            let (name, freq) = unsafe {
                (
                    CStr::from_ptr(ffi::SCIPsepaGetName(sepa)),
                    ffi::SCIPsepaGetFreq(sepa),
                )
            };
            if name != own && freq >= 0 {
                self.stopped.push((sepa, freq));
                // SAFETY: as above.
                unsafe { ffi::SCIPsepaSetFreq(sepa, -1) };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(gain: f64, window: f64) -> RootStall {
        RootStall::new(RootStallRule {
            gain,
            window,
            share: 1.0 / 3.0,
            late: f64::INFINITY,
            late_gain: f64::INFINITY,
        })
    }

    #[test]
    fn the_root_ends_when_a_window_gains_less_than_the_share_of_the_gap() {
        let mut stall = rule(0.01, 100.0);
        // Gap 100: the rule asks for less than 1 unit in 100 s, after 300 of 900 s.
        assert!(!stall.observe(0.0, -1000.0, -1100.0, Some(900.0)));
        assert!(
            !stall.observe(200.0, -1000.5, -1100.0, Some(900.0)),
            "before a third"
        );
        assert!(
            !stall.observe(299.0, -1000.6, -1100.0, Some(900.0)),
            "before a third"
        );
        assert!(stall.observe(300.0, -1000.7, -1100.0, Some(900.0)));
    }

    #[test]
    fn the_share_sets_the_earliest_end() {
        let mut stall = RootStall::new(RootStallRule {
            gain: 0.01,
            window: 100.0,
            share: 1.0 / 6.0,
            late: f64::INFINITY,
            late_gain: f64::INFINITY,
        });
        assert!(!stall.observe(0.0, -1000.0, -1100.0, Some(900.0)));
        assert!(
            !stall.observe(149.0, -1000.1, -1100.0, Some(900.0)),
            "before a sixth"
        );
        assert!(stall.observe(150.0, -1000.2, -1100.0, Some(900.0)));
    }

    #[test]
    fn an_infinite_late_gain_ends_a_root_that_still_gains() {
        let capped = RootStallRule {
            gain: 0.01,
            window: 100.0,
            share: 1.0 / 3.0,
            late: 300.0,
            late_gain: f64::INFINITY,
        };
        let mut stall = RootStall::new(capped);
        // Gaining 10 units per 100 s on a gap of 100, with a limit of 1,800 s: the gain
        // rule alone would keep the root past 600 s.
        for i in 0..6 {
            let now = f64::from(i) * 50.0;
            let bound = -1000.0 - 5.0 * f64::from(i);
            assert!(
                !stall.observe(now, bound, -1100.0, Some(1800.0)),
                "at {now} s"
            );
        }
        assert!(stall.observe(300.0, -1030.0, -1100.0, Some(1800.0)));
        let mut no_incumbent = RootStall::new(capped);
        assert!(!no_incumbent.observe(299.0, -1000.0, f64::NEG_INFINITY, None));
        assert!(no_incumbent.observe(300.0, -1000.0, f64::NEG_INFINITY, None));
    }

    #[test]
    fn after_the_late_time_a_window_must_gain_the_late_share_of_the_gap() {
        let late = RootStallRule {
            gain: 0.01,
            window: 100.0,
            share: 1.0 / 3.0,
            late: 300.0,
            late_gain: 0.1,
        };
        // Gap 2,000 at the start, limit 1,800 s: 200 units per 100 s keeps the root past
        // 300 s; then a window that gains 20 units on a gap of 1,160 ends it.
        let mut stall = RootStall::new(late);
        for i in 0..=8 {
            let now = f64::from(i) * 50.0;
            let bound = -1000.0 - 100.0 * f64::from(i);
            assert!(
                !stall.observe(now, bound, -3000.0, Some(1800.0)),
                "at {now} s"
            );
        }
        assert!(!stall.observe(450.0, -1820.0, -3000.0, Some(1800.0)));
        assert!(!stall.observe(499.0, -1830.0, -3000.0, Some(1800.0)));
        assert!(stall.observe(550.0, -1840.0, -3000.0, Some(1800.0)));
        // Before the late time, the same slow window does not end it.
        let mut early = RootStall::new(late);
        assert!(!early.observe(100.0, -1000.0, -1100.0, Some(1800.0)));
        assert!(!early.observe(200.0, -1005.0, -1100.0, Some(1800.0)));
        // Without an incumbent, a finite late gain never ends it.
        let mut no_incumbent = RootStall::new(late);
        assert!(!no_incumbent.observe(300.0, -1000.0, f64::NEG_INFINITY, None));
        assert!(!no_incumbent.observe(500.0, -1000.0, f64::NEG_INFINITY, None));
    }

    #[test]
    fn a_bound_still_moving_keeps_the_root() {
        let mut stall = rule(0.01, 100.0);
        for (i, now) in (0..10).map(|i| (i, f64::from(i) * 50.0)) {
            let bound = -1000.0 - 2.0 * f64::from(i);
            assert!(
                !stall.observe(now, bound, -1100.0, Some(900.0)),
                "at {now} s"
            );
        }
        // Then nothing for a window.
        assert!(!stall.observe(500.0, -1018.0, -1100.0, Some(900.0)));
        assert!(stall.observe(551.0, -1018.0, -1100.0, Some(900.0)));
    }

    #[test]
    fn without_an_incumbent_or_a_full_window_the_root_stays() {
        let mut stall = rule(0.01, 100.0);
        assert!(!stall.observe(0.0, -1000.0, f64::NEG_INFINITY, None));
        assert!(!stall.observe(500.0, -1000.0, f64::NEG_INFINITY, None));
        let mut stall = rule(0.01, 100.0);
        assert!(
            !stall.observe(50.0, -1000.0, -1100.0, None),
            "no window yet"
        );
        assert!(
            stall.observe(150.0, -1000.0, -1100.0, None),
            "no limit: one window"
        );
    }
}
