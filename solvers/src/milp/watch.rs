//! Watching a MILP solve while it runs: its node count, proven bound and incumbent value
//! so far.
//!
//! A cut-loop round can be a branch and bound of many minutes (alarm_10000's HiGHS
//! rounds, for one; see README, "Benchmark notes behind design choices"). A back-end with the [`Watched`] capability publishes its
//! progress into a [`MipWatch`] while it solves, and the cut loop reads it from another
//! thread to report progress during the round.

use super::{Limits, MilpOutcome, SolverError};
use bnsl_formulations::milp::MilpModel;
use std::sync::atomic::{AtomicU64, Ordering};

/// The latest node count, dual bound and incumbent value of a running solve. Written
/// by the solver's thread, read by any other; all start unknown.
#[derive(Debug)]
pub struct MipWatch {
    nodes: AtomicU64,
    bound: Latest,
    incumbent: Latest,
}

impl Default for MipWatch {
    fn default() -> Self {
        MipWatch {
            nodes: AtomicU64::new(0),
            bound: Latest::unknown(),
            incumbent: Latest::unknown(),
        }
    }
}

impl MipWatch {
    /// Records the solver's node count, its bound on the optimum in the direction of
    /// optimisation, and its incumbent's objective value; a value that is not finite
    /// (none yet) leaves the last one.
    pub fn record(&self, nodes: u64, bound: f64, incumbent: f64) {
        self.nodes.store(nodes, Ordering::Relaxed);
        self.bound.set(bound);
        self.incumbent.set(incumbent);
    }

    /// Branch-and-bound nodes processed so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// The solver's proven bound so far, once it has one.
    pub fn bound(&self) -> Option<f64> {
        self.bound.get()
    }

    /// The objective value of the solver's best solution so far, once it has one.
    pub fn incumbent(&self) -> Option<f64> {
        self.incumbent.get()
    }
}

/// The last finite value stored, as bits; NaN while there is none.
#[derive(Debug)]
struct Latest(AtomicU64);

impl Latest {
    fn unknown() -> Self {
        Latest(AtomicU64::new(f64::NAN.to_bits()))
    }

    fn set(&self, value: f64) {
        if value.is_finite() {
            self.0.store(value.to_bits(), Ordering::Relaxed);
        }
    }

    fn get(&self) -> Option<f64> {
        Some(f64::from_bits(self.0.load(Ordering::Relaxed))).filter(|v| !v.is_nan())
    }
}

/// Capability: a solve that keeps a [`MipWatch`] up to date while it runs (HiGHS, from
/// its MIP-interrupt callback).
///
/// `Sync`: the cut loop runs such a solve on a thread of its own and reads the watch
/// from its own.
pub trait Watched: Sync {
    /// Solves `model` within `limits`, from `start` if any (as
    /// [`WarmStart`](super::WarmStart) takes it), recording progress in `watch`.
    fn solve_watched(
        &self,
        model: &MilpModel,
        limits: &Limits,
        start: Option<&[f64]>,
        watch: &MipWatch,
    ) -> Result<MilpOutcome, SolverError>;
}

#[cfg(test)]
mod tests {
    use super::MipWatch;

    #[test]
    fn a_watch_keeps_the_last_finite_values() {
        let watch = MipWatch::default();
        let seen = |w: &MipWatch| (w.nodes(), w.bound(), w.incumbent());
        assert_eq!(seen(&watch), (0, None, None));
        watch.record(3, f64::INFINITY, f64::NEG_INFINITY);
        assert_eq!(seen(&watch), (3, None, None));
        watch.record(7, -12.5, f64::NAN);
        watch.record(9, f64::NEG_INFINITY, -20.0);
        assert_eq!(seen(&watch), (9, Some(-12.5), Some(-20.0)));
    }
}
