//! The library as a user meets it, without the command line: learning with a progress
//! observer, and solves stopped from outside by their own stop tokens.

use bnsl::formulations::{Candidate, ScoreTable, VarSet};
use bnsl::observe::Observer;
use bnsl::pipeline::{learn, LearnOptions, Method};
use bnsl::report::Status;
use bnsl::solvers::heuristics::SearchProgress;
use bnsl::solvers::ilp::IlpProgress;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A table no exact method solves in seconds: `n` nodes, each with the empty set and
/// `sets` random parent sets of 1-3 nodes whose scores reward parents, so that the
/// relaxation is full of cycles.
fn hard_table(n: usize, sets: usize, seed: u64) -> ScoreTable {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let candidates = (0..n)
        .map(|v| {
            let mut list = vec![Candidate {
                parents: VarSet::empty(n),
                score: -100.0,
            }];
            while list.len() <= sets {
                let size = rng.gen_range(1..=3);
                let members: Vec<usize> = (0..size)
                    .map(|_| rng.gen_range(0..n))
                    .filter(|&u| u != v)
                    .collect();
                let parents = VarSet::from_members(n, members.iter().copied());
                if parents.is_empty() || list.iter().any(|c| c.parents == parents) {
                    continue;
                }
                let score = -100.0 + 6.0 * parents.len() as f64 + rng.gen_range(0.0..10.0);
                list.push(Candidate { parents, score });
            }
            list
        })
        .collect();
    let names = (0..n).map(|v| format!("X{v}")).collect();
    ScoreTable::new(names, candidates).expect("a valid table")
}

/// Counts what it is told.
#[derive(Default)]
struct Counting {
    ilp: AtomicU64,
    search: AtomicU64,
}

impl Observer for Counting {
    fn ilp(&self, _: &IlpProgress) {
        self.ilp.fetch_add(1, Ordering::Relaxed);
    }

    fn search(&self, _: &SearchProgress) {
        self.search.fetch_add(1, Ordering::Relaxed);
    }
}

/// Learns `table` by `method` until `token` is stopped `after` the start; the time
/// limit is only a guard against a stop that never takes effect.
fn learn_until_stopped(
    table: &ScoreTable,
    method: Method,
    after: Duration,
) -> (bnsl::report::LearnReport, Duration, Counting) {
    let mut options = LearnOptions::new(method);
    options.ilp.options.limits.time_limit = Some(120.0);
    options.heuristic.time_limit = Some(Duration::from_secs(120));
    let token = options.stop.clone();
    let observer = Counting::default();
    let began = Instant::now();
    let report = std::thread::scope(|scope| {
        scope.spawn(move || {
            std::thread::sleep(after);
            token.stop();
        });
        learn(table, &options, &observer).expect("learning runs")
    });
    (report, began.elapsed(), observer)
}

/// Two exact solves on two threads of one process, each stopped by its own token at a
/// different moment: each ends after its own stop, not at the other's, and returns its
/// own best DAG and bound. The first must end before the second's stop; the second
/// well before the time limit. (How soon a solve ends after its stop depends on the
/// host's load, so the windows are wide: the test checks whose token ends which
/// solve, not the latency.)
#[cfg(any(feature = "scip", feature = "highs"))]
#[test]
fn two_solves_stop_independently_by_their_own_tokens() {
    let (a, b) = (hard_table(40, 60, 1), hard_table(40, 60, 2));
    let stops = [Duration::from_secs(2), Duration::from_secs(10)];
    let ends_before = [stops[1], stops[1] + Duration::from_secs(30)];
    let (first, second) = std::thread::scope(|scope| {
        let first = scope.spawn(|| learn_until_stopped(&a, Method::Ilp, stops[0]));
        let second = scope.spawn(|| learn_until_stopped(&b, Method::Ilp, stops[1]));
        (first.join().unwrap(), second.join().unwrap())
    });
    for (((report, took, observer), stop), end) in
        [&first, &second].into_iter().zip(stops).zip(ends_before)
    {
        assert_eq!(report.status, Status::Feasible, "{}", report.to_json());
        assert!(
            report.dag.is_some() && report.bound.is_some(),
            "{}",
            report.to_json()
        );
        assert!(report.bound.unwrap() > report.score.unwrap());
        assert_eq!(report.extra["interrupted"], true);
        assert!(
            *took >= stop && *took < end,
            "stopped at {stop:?}, returned after {took:?}, not before {end:?}"
        );
        assert!(
            observer.ilp.load(Ordering::Relaxed) > 0,
            "no progress reported"
        );
    }
}

/// The order search stops at its token too, with its best DAG, and reports every
/// restart to the observer.
#[test]
fn an_order_search_stops_at_its_token() {
    let table = hard_table(40, 60, 3);
    let (report, took, observer) =
        learn_until_stopped(&table, Method::Asobs, Duration::from_millis(500));
    assert_eq!(report.status, Status::Feasible);
    assert!(
        observer.search.load(Ordering::Relaxed) > 0,
        "no restart reported"
    );
    assert!(report.dag.is_some());
    assert!(took < Duration::from_secs(5), "returned after {took:?}");
}

/// A token stopped before the run starts ends it at once: the ILP reports what its
/// first steps found, and nothing is claimed optimal.
#[cfg(any(feature = "scip", feature = "highs", feature = "cbc"))]
#[test]
fn a_token_stopped_beforehand_ends_the_solve_at_once() {
    let table = hard_table(40, 60, 4);
    let options = LearnOptions::new(Method::Ilp);
    options.stop.stop();
    let began = Instant::now();
    let report = learn(&table, &options, &bnsl::observe::Silent).unwrap();
    assert!(began.elapsed() < Duration::from_secs(10));
    assert_ne!(report.status, Status::Optimal);
}
