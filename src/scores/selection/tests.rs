//! Tests of parent-set identification: exhaustive runs agree with the level-wise
//! generator on the optimum, Corollary 1 bounds BIC − BIC*, budgets are kept, and every
//! kept set is undominated.

use super::closed::Explorer;
use super::independence::bic_star;
use super::*;
use crate::data::{load_data, DataSet};
use crate::scores::{generate_candidates, CandidateOptions, ScoreKind};
use bnsl_formulations::VarSet;
use bnsl_solvers::dp::{solve_dp, DpOptions};

fn asia() -> DataSet {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/instances/data/asia_10000.csv");
    load_data(std::path::Path::new(path), &Default::default()).expect("shipped data")
}

fn opts(search: Search, max_parents: Option<usize>) -> SelectionOptions {
    SelectionOptions {
        search,
        time_per_var: None,
        max_parents,
        pruning: Pruning::Gap(0.0),
        allowed_parents: None,
    }
}

/// Without a budget every strategy explores all sets up to the limit (minus pruned ones),
/// so the optimum over its table equals the optimum over the level-wise generator's.
#[test]
fn exhaustive_runs_keep_the_optimum() {
    let data = asia();
    for kind in [ScoreKind::Bic, ScoreKind::Bdeu { ess: 1.0 }] {
        let scorer = LocalScorer::new(&data, kind);
        let reference = CandidateOptions {
            max_parents: Some(3),
            pruning: Pruning::Gap(0.0),
            allowed_parents: None,
        };
        let (table, _) = generate_candidates(&scorer, &reference, &|_| {}).expect("fits in memory");
        let want = solve_dp(&table, &DpOptions::default()).unwrap().score;
        for search in [Search::Sequential, Search::Greedy, Search::Independence] {
            let (got, stats) = select_candidates(&scorer, &opts(search, Some(3)), &|| {});
            let got = solve_dp(&got, &DpOptions::default()).unwrap().score;
            assert!(
                (got - want).abs() < 1e-6,
                "{kind} {search:?}: optimum {got} vs generator {want}"
            );
            assert!(stats.parent_limit <= 3);
        }
    }
}

/// Corollary 1: |BIC(X, Π1 ∪ Π2) − BIC*(X, Π1, Π2)| ≤ N·min{H(X), H(Π1), H(Π2)},
/// checked on every pair of parents of every variable of asia.
#[test]
fn bic_star_is_within_corollary_1() {
    let data = asia();
    let scorer = LocalScorer::new(&data, ScoreKind::Bic);
    let o = opts(Search::Independence, Some(3));
    for child in 0..data.n_vars() {
        let mut ex = Explorer::new(&scorer, child, &o, None);
        let singles: Vec<(usize, usize)> = (0..data.n_vars())
            .filter(|&y| y != child)
            .map(|y| (y, ex.explore_extension(0, y)))
            .collect();
        for &(a, ia) in &singles {
            for &(b, ib) in &singles {
                if a >= b {
                    continue;
                }
                let star = bic_star(&ex, ia, ib);
                let exact = scorer.score(child, &[a, b]).score;
                let h_child = -(ex.closed[0].bic + ex.penalty) / ex.rows;
                let slack = ex.rows
                    * h_child
                        .min(ex.closed[ia].entropy)
                        .min(ex.closed[ib].entropy);
                assert!(
                    (exact - star).abs() <= slack + 1e-6,
                    "child {child} parents {a},{b}: BIC {exact} BIC* {star} slack {slack}"
                );
            }
        }
    }
}

/// A tiny budget stops every strategy quickly and still yields a valid table.
#[test]
fn budgets_are_kept() {
    let data = asia();
    let scorer = LocalScorer::new(&data, ScoreKind::Bic);
    for search in [Search::Sequential, Search::Greedy, Search::Independence] {
        let mut o = opts(search, None);
        o.time_per_var = Some(Duration::from_millis(5));
        let start = Instant::now();
        let (table, _) = select_candidates(&scorer, &o, &|| {});
        assert!(start.elapsed() < Duration::from_secs(2), "{search:?}");
        for v in 0..table.n() {
            assert!(table.score_of(v, &VarSet::empty(table.n())).is_some());
        }
    }
}

/// No kept set is matched or beaten by a kept proper subset.
#[test]
fn kept_sets_are_undominated() {
    let data = asia();
    let scorer = LocalScorer::new(&data, ScoreKind::Bdeu { ess: 1.0 });
    let (table, _) = select_candidates(&scorer, &opts(Search::Independence, None), &|| {});
    for v in 0..table.n() {
        for c in table.candidates(v) {
            for d in table.candidates(v) {
                if d.parents != c.parents && d.parents.is_subset(&c.parents) {
                    assert!(
                        d.score < c.score,
                        "{v}: {:?} dominated by {:?}",
                        c.parents,
                        d.parents
                    );
                }
            }
        }
    }
}

/// With allowed parents (a blanket restriction), no strategy proposes a parent outside.
#[test]
fn allowed_parents_are_respected() {
    let data = asia();
    let n = data.n_vars();
    let scorer = LocalScorer::new(&data, ScoreKind::Bic);
    // Each variable may take as parents only its two index neighbours.
    let allowed: Vec<VarSet> = (0..n)
        .map(|v| VarSet::from_members(n, [(v + 1) % n, (v + n - 1) % n]))
        .collect();
    for search in [Search::Sequential, Search::Greedy, Search::Independence] {
        let o = SelectionOptions {
            allowed_parents: Some(allowed.clone()),
            ..opts(search, Some(3))
        };
        let (table, _) = select_candidates(&scorer, &o, &|| {});
        for (v, allowed_v) in allowed.iter().enumerate() {
            assert!(!table.candidates(v).is_empty());
            for c in table.candidates(v) {
                assert!(
                    c.parents.is_subset(allowed_v),
                    "{search:?} {v}: {:?}",
                    c.parents
                );
            }
        }
    }
}
