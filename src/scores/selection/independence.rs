//! Independence selection (Scanagatta et al. 2015, §3.2). The closed list holds explored parent sets with
//! exact scores; the open list holds sets to explore, ordered by BIC* (Eq. 1):
//!
//! ```text
//! BIC*(X, Π1, Π2) = BIC(X, Π1) + BIC(X, Π2) + inter(X, Π1, Π2),
//! inter(X, Π1, Π2) = (ln N / 2)(|X| − 1)(|Π1| + |Π2| − |Π1||Π2| − 1) − BIC(X, ∅)
//! ```
//!
//! computed in constant time from the closed list (|·| = number of joint states). All
//! sets of size one are explored first and every pair enters the open list; then the set
//! with the best BIC* is popped, explored (scored exactly), and its one-variable
//! expansions Π ∪ {Y} not seen before enter the open list with BIC*(X, Π, {Y}).
//!
//! Pruning: an expansion is not queued when an explored subset already beats the BIC
//! upper bound −w(|X|−1)|Π ∪ {Y}| (de Campos & Ji); and by Theorem 2, a queued set whose
//! lower bound BIC* − N·min{H(X), H(Π1), H(Π2)} (Corollary 1) beats the bound of its
//! smallest possible superset is explored but never expanded. With BDeu the open list is
//! still ordered by BIC* (computed from the log-likelihoods the scorer returns alongside
//! BDeu), which only steers the search; the BIC bounds are not used, and the BDeu bound of
//! Liao et al. 2019 (Thm 4) decides which explored sets may be expanded.

use super::closed::Explorer;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A set `closed[base] ∪ {add}` waiting in the open list.
struct Open {
    key: f64,
    base: u32,
    add: u32,
    /// False when Theorem 2 forbids expanding the set once explored.
    expandable: bool,
}

impl PartialEq for Open {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Open {}
impl PartialOrd for Open {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Open {
    /// Best BIC* first; ties by lower base, then lower variable (deterministic).
    fn cmp(&self, o: &Self) -> Ordering {
        self.key
            .total_cmp(&o.key)
            .then_with(|| o.base.cmp(&self.base))
            .then_with(|| o.add.cmp(&self.add))
    }
}

/// Runs independence selection on `ex` until the open list is empty or the budget is spent.
pub(super) fn run(ex: &mut Explorer) {
    let mut singles: Vec<Option<usize>> = vec![None; ex.n];
    for (y, single) in singles.iter_mut().enumerate() {
        if ex.out_of_time() {
            return;
        }
        if ex.extension_allowed(0, y) {
            *single = Some(ex.explore_extension(0, y));
        }
    }
    // Variables whose singleton may be extended: sets holding any other are pruned.
    let usable: Vec<bool> = singles
        .iter()
        .map(|s| s.is_some_and(|i| ex.closed[i].expandable))
        .collect();
    let explored: Vec<(usize, usize)> = singles
        .iter()
        .enumerate()
        .filter_map(|(y, s)| s.filter(|_| usable[y]).map(|i| (y, i)))
        .collect();
    let mut pairs = Vec::new();
    for (a, &(_, ia)) in explored.iter().enumerate() {
        for &(z, _) in &explored[a + 1..] {
            if let Some(open) = queue_entry(ex, &singles, ia, z) {
                pairs.push(open);
            }
        }
    }
    let mut open = BinaryHeap::from(pairs);
    while let Some(top) = open.pop() {
        if ex.out_of_time() {
            return;
        }
        let (base, add) = (top.base as usize, top.add as usize);
        let single = singles[add].expect("queued variables have explored singletons");
        let idx = ex.explore_extension(base, add);
        let single_score = ex.closed[single].score;
        let e = &mut ex.closed[idx];
        e.best_subset = e.best_subset.max(single_score);
        e.expandable &= top.expandable;
        if !e.expandable {
            continue;
        }
        for (y, &is_usable) in usable.iter().enumerate() {
            if !is_usable || !ex.extension_allowed(idx, y) {
                continue;
            }
            if !ex.mark_seen(ex.hash_with(idx, y)) {
                continue;
            }
            if let Some(entry) = queue_entry(ex, &singles, idx, y) {
                open.push(entry);
            }
        }
    }
}

/// The open-list entry of `closed[base] ∪ {y}` with its BIC* and its Theorem 2 flag, or
/// `None` when the BIC bound prunes it.
fn queue_entry(ex: &Explorer, singles: &[Option<usize>], base: usize, y: usize) -> Option<Open> {
    if !ex.extension_allowed(base, y) {
        return None;
    }
    let p1 = &ex.closed[base];
    let p2 = &ex.closed[singles[y]?];
    let empty = &ex.closed[0];
    let (q1, q2) = (p1.states, p2.states);
    let bic_star = bic_star(ex, base, singles[y]?);
    // Corollary 1: |BIC − BIC*| ≤ N·min{H(X), H(Π1), H(Π2)}; H(X) = −LL(X | ∅)/N.
    let h_child = -(empty.bic + ex.penalty) / ex.rows;
    let slack = ex.rows * h_child.min(p1.entropy).min(p2.entropy);
    let lower = (bic_star - slack)
        .max(p1.best_subset)
        .max(p1.score)
        .max(p2.score);
    // Theorem 2: every proper superset has at least q1·q2·min_arity parent states.
    let expandable = !ex.bic_bound_prunes(lower, q1 * q2 * ex.min_arity);
    Some(Open {
        key: bic_star,
        base: base as u32,
        add: y as u32,
        expandable,
    })
}

/// BIC*(X, Π1, Π2) of Eq. 1 for the explored sets `closed[a]` and `closed[b]`.
pub(super) fn bic_star(ex: &Explorer, a: usize, b: usize) -> f64 {
    let (p1, p2) = (&ex.closed[a], &ex.closed[b]);
    let (q1, q2) = (p1.states, p2.states);
    let inter = ex.penalty * (q1 + q2 - q1 * q2 - 1.0) - ex.closed[0].bic;
    p1.bic + p2.bic + inter
}
