//! Sequential ordering (Scanagatta et al. 2015, §3): every parent set of size 1, then of size 2, … up to
//! the parent limit, each size in lexicographic order, until the budget is spent. A set
//! is explored only when all its immediate subsets were explored and may be expanded
//! (as in the level-wise generator of [`crate::scores::candidates`]).

use super::closed::Explorer;

/// Runs sequential exploration on `ex` until the limit or the budget.
pub(super) fn run(ex: &mut Explorer) {
    let mut level: Vec<usize> = vec![0];
    while !level.is_empty() && !ex.out_of_time() {
        let mut bases: Vec<usize> = level
            .into_iter()
            .filter(|&b| ex.closed[b].expandable)
            .collect();
        bases.sort_by(|&a, &b| ex.closed[a].set.cmp(&ex.closed[b].set));
        level = Vec::new();
        for base in bases {
            let top = ex.closed[base].set.iter().last().map_or(0, |m| m + 1);
            for y in top..ex.n {
                if ex.out_of_time() {
                    return;
                }
                if !ex.extension_allowed(base, y) {
                    continue;
                }
                let Some(best_subset) = best_expandable_subset(ex, base, y) else {
                    continue;
                };
                let set = ex.closed[base].set.with(y);
                let hash = ex.hash_with(base, y);
                level.push(ex.explore(set, best_subset, hash));
            }
        }
    }
}

/// The best score over the explored immediate subsets of `closed[base] ∪ {y}` and their
/// own subset bounds, or `None` if one of them is missing or not expandable.
fn best_expandable_subset(ex: &Explorer, base: usize, y: usize) -> Option<f64> {
    let set = ex.closed[base].set.with(y);
    let mut best = f64::NEG_INFINITY;
    for m in set.iter() {
        let sub = &ex.closed[ex.index_of(&set.without(m))?];
        if !sub.expandable {
            return None;
        }
        best = best.max(sub.score).max(sub.best_subset);
    }
    Some(best)
}
