//! The separating-set search of Ling et al. 2019, Algorithm 1 ("T ⊥ X | Z for some Z ⊆ S"):
//! subsets of a pool in order of size, then in the pool's order, so small conditioning
//! sets — the most reliable tests — come first.

use super::CiTester;

/// Searches for a conditioning set that makes `x` independent of `t`: for subsets S of
/// `pool` by increasing size, the set `must ∪ S ∪ extra(S)` is tested, and the first one
/// showing independence is returned.
///
/// `extra` must be monotone (S ⊆ S′ ⇒ extra(S) ⊆ extra(S′)); then the conditioning sets
/// only grow with S, and so do the degrees of freedom: once no subset of some size is
/// testable (see [`CiTester::testable`]), no larger one is, and the search stops.
/// Untestable sets are skipped without being counted.
pub(super) fn find_separating_set(
    ci: &mut CiTester,
    t: usize,
    x: usize,
    pool: &[usize],
    must: &[usize],
    extra: &dyn Fn(&[usize]) -> Vec<usize>,
) -> Option<Vec<usize>> {
    for size in 0..=pool.len() {
        let mut any_testable = false;
        let mut idx: Vec<usize> = (0..size).collect();
        loop {
            let chosen: Vec<usize> = idx.iter().map(|&i| pool[i]).collect();
            let mut z: Vec<usize> = must.iter().chain(&chosen).copied().collect();
            z.extend(extra(&chosen));
            if ci.testable(t, x, &z) {
                any_testable = true;
                if ci.independent(t, x, &z) {
                    z.retain(|&v| v != t && v != x);
                    z.sort_unstable();
                    z.dedup();
                    return Some(z);
                }
            }
            if !next_combination(&mut idx, pool.len()) {
                break;
            }
        }
        if !any_testable {
            return None;
        }
    }
    None
}

/// Advances `idx` (strictly increasing indices below `n`) to the next combination in
/// lexicographic order; false after the last one.
fn next_combination(idx: &mut [usize], n: usize) -> bool {
    let k = idx.len();
    for i in (0..k).rev() {
        if idx[i] < n - k + i {
            idx[i] += 1;
            for j in i + 1..k {
                idx[j] = idx[j - 1] + 1;
            }
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_in_lexicographic_order() {
        let mut idx = vec![0, 1];
        let mut all = vec![idx.clone()];
        while next_combination(&mut idx, 4) {
            all.push(idx.clone());
        }
        assert_eq!(
            all,
            [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]].map(|a| a.to_vec())
        );
        let mut empty: Vec<usize> = vec![];
        assert!(!next_combination(&mut empty, 3));
    }
}
