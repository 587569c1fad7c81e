//! Small MILPs with known answers that every back-end must solve correctly; each
//! back-end's tests run all of them.

use super::{CutRow, CutSeparator, Limits, MilpBackend, MilpOutcome, Status};
use bnsl_formulations::milp::{MilpModel, Sense};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

const TOL: f64 = 1e-6;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= TOL * (1.0 + b.abs())
}

/// Checks that an outcome's incumbent is feasible and matches its objective value.
fn assert_consistent(model: &MilpModel, outcome: &MilpOutcome) {
    let values = outcome.values.as_ref().expect("an incumbent");
    assert_eq!(values.len(), model.num_vars());
    assert!(
        model.max_violation(values) <= TOL,
        "infeasible incumbent {values:?}"
    );
    let objective = outcome.objective.expect("an objective value");
    assert!(
        close(model.objective_value(values), objective),
        "{outcome:?}"
    );
}

/// 0/1 knapsack: values 8, 11, 6, 4; weights 5, 7, 4, 3; capacity 14. The integer
/// optimum is 21 (items 2, 3, 4); the LP optimum is 22 (items 1, 2 and half of 3).
fn knapsack(integer: bool) -> MilpModel {
    knapsack_in(Sense::Maximize, integer)
}

/// The knapsack in the given sense: minimised, its values are negated (optimum −21).
fn knapsack_in(sense: Sense, integer: bool) -> MilpModel {
    let sign = match sense {
        Sense::Maximize => 1.0,
        Sense::Minimize => -1.0,
    };
    let mut m = MilpModel::new(sense);
    let items = [(8.0, 5.0), (11.0, 7.0), (6.0, 4.0), (4.0, 3.0)];
    let mut row = Vec::new();
    for (i, &(value, weight)) in items.iter().enumerate() {
        let x = if integer {
            m.add_binary(format!("x{i}"), sign * value)
        } else {
            m.add_continuous(format!("x{i}"), 0.0, 1.0, sign * value)
        };
        row.push((x.unwrap(), weight));
    }
    m.add_le("capacity", row, 14.0).unwrap();
    m
}

/// The knapsack's integer optimum is found and proven, not its LP optimum.
pub(super) fn knapsack_optimum(backend: &dyn MilpBackend) {
    let m = knapsack(true);
    let o = backend.solve(&m, &Limits::default()).unwrap();
    assert_eq!(o.status, Status::Optimal, "{o:?}");
    assert_consistent(&m, &o);
    assert!(close(o.objective.unwrap(), 21.0), "{o:?}");
    assert!(close(o.bound.unwrap(), 21.0), "{o:?}");
    assert_eq!(
        o.values
            .unwrap()
            .iter()
            .map(|v| v.round())
            .collect::<Vec<_>>(),
        [0.0, 1.0, 1.0, 1.0]
    );
    assert!(o.time_s >= 0.0);
}

/// A back-end with the warm-start capability, started from a feasible but not optimal
/// point (items 1 and 2, value 19) and from the optimum itself, still finds and proves
/// the optimum, in either sense of optimisation.
pub(super) fn warm_start_keeps_the_optimum(backend: &dyn MilpBackend) {
    let Some(warm) = backend.warm_start() else {
        return;
    };
    for (model, optimum) in [
        (knapsack(true), 21.0),
        (knapsack_in(Sense::Minimize, true), -21.0),
    ] {
        for start in [[1.0, 1.0, 0.0, 0.0], [0.0, 1.0, 1.0, 1.0]] {
            let o = warm.solve_from(&model, &Limits::default(), &start).unwrap();
            assert_eq!(o.status, Status::Optimal, "start {start:?}: {o:?}");
            assert_consistent(&model, &o);
            assert!(close(o.objective.unwrap(), optimum), "{o:?}");
            assert!(close(o.bound.unwrap(), optimum), "{o:?}");
        }
    }
}

/// A warm start without one value per variable is an error naming the counts, on
/// every back-end with the capability.
pub(super) fn wrong_length_start_is_an_error(backend: &dyn MilpBackend) {
    let Some(warm) = backend.warm_start() else {
        return;
    };
    let err = warm
        .solve_from(&knapsack(true), &Limits::default(), &[1.0, 1.0])
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("start has 2 values for 4 variables"),
        "{err}"
    );
}

/// Without integer variables the model is an LP and its optimum is 22.
pub(super) fn lp_optimum(backend: &dyn MilpBackend) {
    let m = knapsack(false);
    let o = backend.solve(&m, &Limits::default()).unwrap();
    assert_eq!(o.status, Status::Optimal, "{o:?}");
    assert_consistent(&m, &o);
    assert!(close(o.objective.unwrap(), 22.0), "{o:?}");
    assert!(close(o.bound.unwrap(), 22.0), "{o:?}");
}

/// Minimisation with negative bounds, a ranged row, an equality row and a continuous
/// variable: min x − 2y + z s.t. 1 ≤ x + y ≤ 3, y − x ≤ 0.5, x + z = 2.2, with x, y
/// integer in [−5, 5] and z in [0, 2.5]. The optimum is 0.2 (y = 1, x ∈ {1, 2});
/// the LP relaxation reaches −1.3.
pub(super) fn mixed_minimisation(backend: &dyn MilpBackend) {
    let mut m = MilpModel::new(Sense::Minimize);
    let x = m.add_integer("x", -5.0, 5.0, 1.0).unwrap();
    let y = m.add_integer("y", -5.0, 5.0, -2.0).unwrap();
    let z = m.add_continuous("z", 0.0, 2.5, 1.0).unwrap();
    m.add_row("sum", [(x, 1.0), (y, 1.0)], 1.0, 3.0).unwrap();
    m.add_le("diff", [(y, 1.0), (x, -1.0)], 0.5).unwrap();
    m.add_eq("link", [(x, 1.0), (z, 1.0)], 2.2).unwrap();
    let o = backend.solve(&m, &Limits::default()).unwrap();
    assert_eq!(o.status, Status::Optimal, "{o:?}");
    assert_consistent(&m, &o);
    assert!(close(o.objective.unwrap(), 0.2), "{o:?}");
    assert!(close(o.bound.unwrap(), 0.2), "{o:?}");
    assert!(close(o.values.unwrap()[1], 1.0));
}

/// 2x + 2y = 3 has fractional solutions but no integer one.
pub(super) fn integer_infeasible(backend: &dyn MilpBackend) {
    let mut m = MilpModel::new(Sense::Maximize);
    let x = m.add_integer("x", 0.0, 5.0, 1.0).unwrap();
    let y = m.add_integer("y", 0.0, 5.0, 1.0).unwrap();
    m.add_eq("odd", [(x, 2.0), (y, 2.0)], 3.0).unwrap();
    let o = backend.solve(&m, &Limits::default()).unwrap();
    assert_eq!(o.status, Status::Infeasible, "{o:?}");
    assert_eq!((o.objective, o.values), (None, None));
}

/// max x + y with x integer and no upper bounds is unbounded; the solver may prove
/// it or give up, but must not claim an optimum, infeasibility or a finite bound.
pub(super) fn unbounded(backend: &dyn MilpBackend) {
    let mut m = MilpModel::new(Sense::Maximize);
    let x = m.add_integer("x", 0.0, f64::INFINITY, 1.0).unwrap();
    let y = m.add_continuous("y", 0.0, f64::INFINITY, 1.0).unwrap();
    m.add_ge("r", [(x, 1.0), (y, -1.0)], 0.5).unwrap();
    let o = backend.solve(&m, &Limits::default()).unwrap();
    assert!(
        matches!(o.status, Status::Unbounded | Status::Unknown),
        "{o:?}"
    );
    assert_eq!(o.bound, None, "no finite bound is valid: {o:?}");
}

/// Threads, seed and a gap are accepted; with a 50% gap the solver may
/// stop early, and then its answer must be within that gap.
pub(super) fn settings_accepted(backend: &dyn MilpBackend) {
    let m = knapsack(true);
    let limits = Limits {
        time_limit: Some(60.0),
        gap: Some(0.5),
        threads: Some(1),
        seed: Some(7),
        ..Limits::default()
    };
    let o = backend.solve(&m, &limits).unwrap();
    assert_eq!(o.status, Status::Optimal, "{o:?}");
    assert_consistent(&m, &o);
    assert!(
        o.objective.unwrap() <= 21.0 + TOL && o.bound.unwrap() >= 21.0 - TOL,
        "{o:?}"
    );
    assert!(o.relative_gap().unwrap() <= 0.5 + TOL, "{o:?}");
    let bad = Limits {
        threads: Some(0),
        ..Limits::default()
    };
    assert!(backend.solve(&m, &bad).is_err());
}

/// A market-split instance (Cornuéjols and Dawande 1999: 4 rows, 30 binaries, random
/// coefficients in 0..100, right-hand sides half the row sums, slack minimised): far
/// too hard for branch and bound to finish in a second, though any point with enough
/// slack is feasible.
pub(crate) fn market_split() -> MilpModel {
    market_split_in(Sense::Minimize)
}

/// [`market_split`] as it stands (`Minimize`), or as the maximisation of minus the
/// slack and the number of items chosen (`Maximize`; its bounds are then negative).
fn market_split_in(sense: Sense) -> MilpModel {
    let (slack_cost, item_cost) = match sense {
        Sense::Minimize => (1.0, 0.0),
        Sense::Maximize => (-1.0, -1.0),
    };
    let mut m = MilpModel::new(sense);
    let xs: Vec<_> = (0..30)
        .map(|j| m.add_binary(format!("x{j}"), item_cost).unwrap())
        .collect();
    let mut state: u64 = 12345;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) % 100) as f64
    };
    for i in 0..4 {
        let coefs: Vec<f64> = xs.iter().map(|_| next()).collect();
        let rhs = (coefs.iter().sum::<f64>() / 2.0).floor();
        let over = m
            .add_continuous(format!("over{i}"), 0.0, f64::INFINITY, slack_cost)
            .unwrap();
        let under = m
            .add_continuous(format!("under{i}"), 0.0, f64::INFINITY, slack_cost)
            .unwrap();
        let mut row: Vec<_> = xs.iter().copied().zip(coefs).collect();
        row.push((over, -1.0));
        row.push((under, 1.0));
        m.add_eq(format!("split{i}"), row, rhs).unwrap();
    }
    m
}

/// Checks a solve of [`market_split`] stopped by a limit after `wall` seconds of
/// `limit_s`: it ended well before, claims no optimality, and what it reports holds.
fn assert_stopped_early(m: &MilpModel, o: &MilpOutcome, wall: f64, limit_s: f64) {
    assert!(wall < limit_s, "ran {wall:.1} s; limit {limit_s} s");
    assert!(o.time_s <= wall + 1e-3);
    assert!(
        matches!(o.status, Status::Feasible | Status::Unknown),
        "{o:?}"
    );
    if o.status == Status::Feasible {
        assert_consistent(m, o);
        if let Some(bound) = o.bound {
            assert!(bound <= o.objective.unwrap() + TOL, "{o:?}");
        }
    }
}

/// The solver stops at the time limit on [`market_split`] and reports what it has
/// without claiming optimality.
pub(super) fn time_limit(backend: &dyn MilpBackend) {
    let m = market_split();
    let limits = Limits {
        time_limit: Some(1.0),
        ..Limits::default()
    };
    let start = Instant::now();
    let o = backend.solve(&m, &limits).unwrap();
    assert_stopped_early(&m, &o, start.elapsed().as_secs_f64(), 6.0);
}

/// The solver stops at its first improving solution of [`market_split`], long before
/// a 60 s time limit, and returns it: found, feasible, not claimed optimal. A back-end
/// without the capability refuses the limit instead.
pub(super) fn improving_solution_limit(backend: &dyn MilpBackend) {
    let m = market_split();
    let limits = Limits {
        time_limit: Some(60.0),
        improving_solutions: Some(1),
        ..Limits::default()
    };
    if !backend.stops_at_improving_solutions() {
        assert!(
            backend.solve(&m, &limits).is_err(),
            "the limit must be refused"
        );
        return;
    }
    let start = Instant::now();
    let o = backend.solve(&m, &limits).unwrap();
    assert_stopped_early(&m, &o, start.elapsed().as_secs_f64(), 20.0);
    assert_eq!(o.status, Status::Feasible, "{o:?}");
}

/// A [`Watched`](super::Watched) solve publishes its progress while it runs: on the
/// maximisation form of [`market_split`], stopped at 2 s, a reader on another thread
/// sees nodes and a bound during the solve; that bound is in the model's sense (at
/// least the incumbent's value, below 0: any solution takes items) and no better than
/// the solve's last. An incumbent value seen is no better than the bound or the
/// solve's final incumbent.
/// For back-ends that can be watched only.
pub(super) fn watched_solve_reports_as_it_goes(backend: &dyn MilpBackend) {
    let watched = backend.watched().expect("a back-end that can be watched");
    let m = market_split_in(Sense::Maximize);
    let limits = Limits {
        time_limit: Some(2.0),
        ..Limits::default()
    };
    let watch = super::MipWatch::default();
    let (outcome, seen) = std::thread::scope(|scope| {
        let solve = scope.spawn(|| watched.solve_watched(&m, &limits, None, &watch));
        let mut seen = None;
        while !solve.is_finished() {
            std::thread::sleep(std::time::Duration::from_millis(100));
            if !solve.is_finished() && watch.nodes() > 0 {
                let now = (watch.nodes(), watch.bound(), watch.incumbent());
                seen = seen.or(now.1.map(|b| (now.0, b, now.2)));
            }
        }
        (solve.join().unwrap().unwrap(), seen)
    });
    let (nodes, bound, incumbent) = seen.expect("nodes and a bound seen during the solve");
    if let Some(value) = incumbent {
        assert!(value <= bound + TOL, "{value} {bound}");
        assert!(
            value <= outcome.objective.unwrap() + TOL,
            "{value} {outcome:?}"
        );
    }
    assert!(
        nodes > 0 && nodes <= outcome.nodes.unwrap(),
        "{nodes} {outcome:?}"
    );
    assert!(bound < -1.0, "{bound}: not the maximisation's bound");
    assert!(bound >= outcome.bound.unwrap() - TOL, "{bound} {outcome:?}");
    if let Some(objective) = outcome.objective {
        assert!(bound >= objective - TOL, "{bound} {outcome:?}");
    }
}

/// A separator that never finds a cut.
struct NoCuts;

impl CutSeparator for NoCuts {
    fn separate(&self, _values: &[f64]) -> Vec<CutRow> {
        Vec::new()
    }
}

/// A [`NodeCuts`](super::NodeCuts) solve honours the improving-solution limit, whether
/// or not plain solves of the back-end do. For back-ends with node cuts only.
pub(super) fn improving_solution_limit_with_node_cuts(backend: &dyn MilpBackend) {
    let node_cuts = backend.node_cuts().expect("a back-end with node cuts");
    let m = market_split();
    let limits = Limits {
        time_limit: Some(60.0),
        improving_solutions: Some(1),
        ..Limits::default()
    };
    let start = Instant::now();
    let o = node_cuts
        .solve_with_cuts(&m, &limits, None, std::sync::Arc::new(NoCuts))
        .unwrap();
    assert_stopped_early(&m, &o, start.elapsed().as_secs_f64(), 20.0);
    assert_eq!(o.status, Status::Feasible, "{o:?}");
}

/// Knows one inequality the model lacks, `x + y ≤ 1`, and counts its calls.
struct PairCut(AtomicU64);

impl CutSeparator for PairCut {
    fn separate(&self, values: &[f64]) -> Vec<CutRow> {
        self.0.fetch_add(1, Ordering::Relaxed);
        (values[0] + values[1] > 1.0 + 1e-6)
            .then(|| CutRow {
                terms: vec![(0, -1.0), (1, -1.0)],
                lower: -1.0,
            })
            .into_iter()
            .collect()
    }
}

/// max 3x + 3y + 2z, x + y + z ≤ `capacity`, binaries, solved by `backend` with
/// [`PairCut`] at the nodes: the model, the outcome and how often the separator was
/// called. For back-ends with node cuts only.
pub(super) fn solve_three_items(
    backend: &dyn MilpBackend,
    capacity: f64,
) -> (MilpModel, MilpOutcome, u64) {
    let mut m = MilpModel::new(Sense::Maximize);
    let x = m.add_binary("x", 3.0).unwrap();
    let y = m.add_binary("y", 3.0).unwrap();
    let z = m.add_binary("z", 2.0).unwrap();
    m.add_le("sum", [(x, 1.0), (y, 1.0), (z, 1.0)], capacity)
        .unwrap();
    let separator = Arc::new(PairCut(AtomicU64::new(0)));
    let o = backend
        .node_cuts()
        .expect("a back-end with node cuts")
        .solve_with_cuts(&m, &Limits::default(), None, separator.clone())
        .unwrap();
    let calls = separator.0.load(Ordering::Relaxed);
    (m, o, calls)
}

/// Capacity 2.5: 6 (x = y = 1) without the cut, 5 (x = z = 1) with it. The root LP
/// (x = y = 1, z = ½) is fractional, so the back-end separates it. For back-ends with
/// node cuts only.
pub(super) fn separator_cuts_at_the_nodes(backend: &dyn MilpBackend) {
    let (m, o, calls) = solve_three_items(backend, 2.5);
    assert_eq!(o.status, Status::Optimal, "{o:?}");
    assert!((o.objective.unwrap() - 5.0).abs() < 1e-9, "{o:?}");
    assert!((o.bound.unwrap() - 5.0).abs() < 1e-6, "{o:?}");
    let v = o.values.unwrap();
    assert_eq!((v[0] + v[1], v[2]), (1.0, 1.0), "{v:?}");
    assert!(calls > 0);
    let plain = backend.solve(&m, &Limits::default()).unwrap();
    assert!((plain.objective.unwrap() - 6.0).abs() < 1e-9, "{plain:?}");
}

/// Declares one `#[test]` per check above for the given back-end value.
macro_rules! backend_tests {
    ($backend:expr) => {
        #[test]
        fn knapsack_optimum() {
            $crate::milp::testkit::knapsack_optimum(&$backend);
        }
        #[test]
        fn lp_optimum() {
            $crate::milp::testkit::lp_optimum(&$backend);
        }
        #[test]
        fn mixed_minimisation() {
            $crate::milp::testkit::mixed_minimisation(&$backend);
        }
        #[test]
        fn integer_infeasible() {
            $crate::milp::testkit::integer_infeasible(&$backend);
        }
        #[test]
        fn unbounded() {
            $crate::milp::testkit::unbounded(&$backend);
        }
        #[test]
        fn settings_accepted() {
            $crate::milp::testkit::settings_accepted(&$backend);
        }
        #[test]
        fn warm_start_keeps_the_optimum() {
            $crate::milp::testkit::warm_start_keeps_the_optimum(&$backend);
        }
        #[test]
        fn wrong_length_start_is_an_error() {
            $crate::milp::testkit::wrong_length_start_is_an_error(&$backend);
        }
        #[test]
        fn time_limit() {
            $crate::milp::testkit::time_limit(&$backend);
        }
        #[test]
        fn improving_solution_limit() {
            $crate::milp::testkit::improving_solution_limit(&$backend);
        }
    };
}

pub(crate) use backend_tests;
