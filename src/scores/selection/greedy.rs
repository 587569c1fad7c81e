//! Greedy selection (Scanagatta et al. 2015, §3): explore every parent set of size one and put them in a
//! list; then, until the budget is spent, pop the best-scoring set of the list, explore
//! all its supersets with one more variable and add them to the list.

use super::closed::Explorer;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// An explored set waiting to be expanded, ordered by score (ties: explored first).
struct ByScore {
    score: f64,
    idx: usize,
}

impl PartialEq for ByScore {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for ByScore {}
impl PartialOrd for ByScore {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for ByScore {
    fn cmp(&self, o: &Self) -> Ordering {
        self.score
            .total_cmp(&o.score)
            .then_with(|| o.idx.cmp(&self.idx))
    }
}

/// Runs greedy selection on `ex` until the list is empty or the budget is spent.
pub(super) fn run(ex: &mut Explorer) {
    let mut list = BinaryHeap::new();
    for y in 0..ex.n {
        if ex.out_of_time() {
            return;
        }
        if ex.extension_allowed(0, y) {
            let idx = ex.explore_extension(0, y);
            list.push(ByScore {
                score: ex.closed[idx].score,
                idx,
            });
        }
    }
    while let Some(ByScore { idx: base, .. }) = list.pop() {
        if !ex.closed[base].expandable {
            continue;
        }
        for y in 0..ex.n {
            if ex.out_of_time() {
                return;
            }
            if !ex.extension_allowed(base, y) || !ex.mark_seen(ex.hash_with(base, y)) {
                continue;
            }
            let idx = ex.explore_extension(base, y);
            list.push(ByScore {
                score: ex.closed[idx].score,
                idx,
            });
        }
    }
}
