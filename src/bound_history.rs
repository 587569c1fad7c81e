//! The curve of an exact solve: its incumbent and proven bound over time, for the
//! JSON's `bound_history` (the anytime report of a long run).
//!
//! Every change of the incumbent is kept. A change of the bound alone is kept when at
//! least [`BoundHistory::MIN_SPACING_S`] seconds, and 1 % of the time so far, have passed
//! since the last point kept, so a run of any length keeps a few hundred points (about
//! 100 per tenfold of time) while the curve's shape stays visible on a log time axis.
//! The last state seen is always the last point. The curve is monotone: a point's
//! incumbent is the best seen by then (a warm start the solver holds back still counts)
//! and its bound the least, a reported bound below the incumbent being no bound.

use bnsl_solvers::ilp::{gap_closed, IlpProgress};
use serde_json::{json, Value};
use std::sync::Mutex;
use std::time::Instant;

/// One point of the curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoundPoint {
    /// Seconds since the history began.
    pub time_s: f64,
    /// The proven upper bound on the optimal score then, if any.
    pub bound: Option<f64>,
    /// The best score found by then, if any.
    pub incumbent: Option<f64>,
}

/// Records [`BoundPoint`]s as a solve reports progress (see the module documentation).
#[derive(Debug)]
pub struct BoundHistory {
    began: Instant,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// Points kept so far.
    kept: Vec<BoundPoint>,
    /// The latest point seen when it was not kept.
    pending: Option<BoundPoint>,
}

impl BoundHistory {
    /// Least seconds between two points that differ only in the bound.
    pub const MIN_SPACING_S: f64 = 0.05;

    /// An empty history whose clock starts now.
    pub fn new() -> Self {
        BoundHistory {
            began: Instant::now(),
            state: Mutex::new(State::default()),
        }
    }

    /// Records the state of `progress`.
    pub fn record(&self, progress: &IlpProgress) {
        self.record_point(progress.incumbent, progress.bound);
    }

    /// Records an incumbent and a bound seen now (e.g. the score of a warm start, with
    /// no bound yet).
    pub fn record_point(&self, incumbent: Option<f64>, bound: Option<f64>) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let latest = state.pending.or(state.kept.last().copied());
        let incumbent = best(incumbent, latest.and_then(|p| p.incumbent), f64::max);
        // A bound below the incumbent bounds nothing: a solver that is tearing down its
        // search may report its primal bound there.
        let bound = bound.filter(|&b| incumbent.is_none_or(|s| gap_closed(b, s)));
        let bound = best(bound, latest.and_then(|p| p.bound), f64::min);
        let point = BoundPoint {
            time_s: self.began.elapsed().as_secs_f64(),
            bound,
            incumbent,
        };
        let keep = match state.kept.last() {
            None => true,
            Some(last) if last.incumbent != incumbent => true,
            Some(last) if last.bound == bound => false,
            Some(last) => {
                let since = point.time_s - last.time_s;
                since >= Self::MIN_SPACING_S && since >= 0.01 * point.time_s
            }
        };
        if keep {
            state.kept.push(point);
            state.pending = None;
        } else if state.kept.last().is_some_and(|last| last.bound != bound) {
            state.pending = Some(point);
        }
    }

    /// The points, the latest state last.
    pub fn points(&self) -> Vec<BoundPoint> {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let mut points = state.kept.clone();
        points.extend(state.pending);
        points
    }

    /// The points as JSON: `[{"time_s", "bound", "incumbent"}, …]`, `null` where a value
    /// is unknown.
    pub fn to_json(&self) -> Value {
        Value::Array(
            self.points()
                .iter()
                .map(|p| json!({"time_s": p.time_s, "bound": p.bound, "incumbent": p.incumbent}))
                .collect(),
        )
    }
}

/// `pick` of the two values where both are known, else the one known.
fn best(a: Option<f64>, b: Option<f64>, pick: fn(f64, f64) -> f64) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(pick(a, b)),
        (a, b) => a.or(b),
    }
}

impl Default for BoundHistory {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_incumbent_change_is_kept_and_the_last_state_ends_the_curve() {
        let history = BoundHistory::new();
        history.record_point(Some(-10.0), None);
        history.record_point(Some(-10.0), Some(-1.0));
        history.record_point(Some(-9.0), Some(-1.0));
        history.record_point(Some(-9.0), Some(-2.0));
        history.record_point(Some(-9.0), Some(-3.0));
        let points = history.points();
        let incumbents: Vec<_> = points.iter().map(|p| p.incumbent).collect();
        assert!(incumbents.contains(&Some(-10.0)));
        assert!(incumbents.contains(&Some(-9.0)));
        let last = points.last().unwrap();
        assert_eq!((last.incumbent, last.bound), (Some(-9.0), Some(-3.0)));
        assert!(points.windows(2).all(|w| w[0].time_s <= w[1].time_s));
    }

    #[test]
    fn the_curve_keeps_the_best_incumbent_and_the_least_bound() {
        let history = BoundHistory::new();
        history.record_point(Some(-10.0), None);
        history.record_point(Some(-20.0), Some(-1.0));
        history.record_point(None, Some(0.0));
        let last = *history.points().last().unwrap();
        assert_eq!((last.incumbent, last.bound), (Some(-10.0), Some(-1.0)));
    }

    #[test]
    fn a_bound_below_the_incumbent_is_ignored() {
        let history = BoundHistory::new();
        history.record_point(Some(-100.0), Some(-90.0));
        history.record_point(Some(-100.0), Some(-150.0));
        let last = *history.points().last().unwrap();
        assert_eq!(last.bound, Some(-90.0));
        history.record_point(Some(-95.0), Some(-95.0));
        assert_eq!(history.points().last().unwrap().bound, Some(-95.0));
    }

    #[test]
    fn repeated_states_add_no_points() {
        let history = BoundHistory::new();
        for _ in 0..1000 {
            history.record_point(Some(-5.0), Some(-4.0));
        }
        assert_eq!(history.points().len(), 1);
    }

    #[test]
    fn bound_changes_in_a_burst_are_thinned() {
        let history = BoundHistory::new();
        history.record_point(Some(-5.0), Some(0.0));
        for k in 0..10_000 {
            history.record_point(Some(-5.0), Some(-f64::from(k) * 1e-4));
        }
        let points = history.points();
        assert!(points.len() < 100, "{} points kept", points.len());
        assert_eq!(points.last().unwrap().bound, Some(-9999.0 * 1e-4));
    }

    #[test]
    fn json_names_the_three_fields() {
        let history = BoundHistory::new();
        history.record_point(None, Some(-1.5));
        let json = history.to_json();
        assert_eq!(json[0]["bound"], json!(-1.5));
        assert!(json[0]["incumbent"].is_null());
        assert!(json[0]["time_s"].as_f64().unwrap() >= 0.0);
    }
}
