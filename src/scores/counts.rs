//! Contingency counts of a set of variables in a discrete data set.
//!
//! Decomposable scores only need the non-zero counts of joint configurations, not which
//! configuration each count belongs to: the family (X, Π) is scored from the counts of the
//! variable sets Π ∪ {X} and Π (see [`super::local`]). A set is counted into a dense array
//! when its joint state space is small relative to the data, and by sorting otherwise.

use crate::data::DataSet;
use std::cell::RefCell;

/// Dense tables are used up to this many cells per row of data (and at least this floor).
const DENSE_CELLS_PER_ROW: f64 = 4.0;
const DENSE_CELLS_FLOOR: f64 = 4096.0;

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

#[derive(Default)]
struct Scratch {
    keys: Vec<u64>,
    dense: Vec<u32>,
}

/// Calls `visit(count)` for the count of every joint configuration of `vars` that occurs
/// in `data` (each non-zero cell of the contingency table, in no particular order).
pub fn for_each_nonzero_count(data: &DataSet, arities: &[usize], vars: &[usize], mut visit: impl FnMut(u32)) {
    let rows = data.n_rows();
    if vars.is_empty() {
        if rows > 0 {
            visit(rows as u32);
        }
        return;
    }
    let cells: f64 = vars.iter().map(|&v| arities[v] as f64).product();
    if cells >= u64::MAX as f64 {
        return count_wide(data, vars, visit);
    }
    SCRATCH.with(|s| {
        let mut s = s.borrow_mut();
        let Scratch { keys, dense } = &mut *s;
        fill_keys(data, arities, vars, keys);
        if cells <= (rows as f64 * DENSE_CELLS_PER_ROW).max(DENSE_CELLS_FLOOR) {
            dense.clear();
            dense.resize(cells as usize, 0);
            for &k in keys.iter() {
                dense[k as usize] += 1;
            }
            dense.iter().filter(|&&c| c > 0).for_each(|&c| visit(c));
        } else {
            keys.sort_unstable();
            keys.chunk_by(|a, b| a == b).for_each(|run| visit(run.len() as u32));
        }
    })
}

/// Per row, the mixed-radix index of the joint configuration of `vars`.
fn fill_keys(data: &DataSet, arities: &[usize], vars: &[usize], keys: &mut Vec<u64>) {
    keys.clear();
    keys.extend(data.column(vars[0]).iter().map(|&x| x as u64));
    let mut stride = arities[vars[0]] as u64;
    for &v in &vars[1..] {
        for (k, &x) in keys.iter_mut().zip(data.column(v)) {
            *k += stride * x as u64;
        }
        stride *= arities[v] as u64;
    }
}

/// Fallback for state spaces beyond 2^64 cells: sort the rows' value tuples.
fn count_wide(data: &DataSet, vars: &[usize], mut visit: impl FnMut(u32)) {
    let mut rows: Vec<Vec<u8>> = (0..data.n_rows()).map(|r| vars.iter().map(|&v| data.column(v)[r]).collect()).collect();
    rows.sort_unstable();
    rows.chunk_by(|a, b| a == b).for_each(|run| visit(run.len() as u32));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Variable;

    fn data() -> DataSet {
        let vars = vec![Variable::with_arity("a", 2), Variable::with_arity("b", 3), Variable::with_arity("c", 2)];
        let cols = vec![vec![0, 1, 1, 0, 1, 1], vec![0, 2, 2, 1, 0, 2], vec![1, 1, 0, 0, 1, 1]];
        DataSet::new(vars, cols)
    }

    fn counts(d: &DataSet, vars: &[usize]) -> Vec<u32> {
        let mut v = Vec::new();
        for_each_nonzero_count(d, &d.arities(), vars, |c| v.push(c));
        v.sort();
        v
    }

    #[test]
    fn counts_match_by_hand() {
        let d = data();
        assert_eq!(counts(&d, &[]), vec![6]);
        assert_eq!(counts(&d, &[0]), vec![2, 4]);
        // (a,b): (0,0) (1,2) (1,2) (0,1) (1,0) (1,2)
        assert_eq!(counts(&d, &[0, 1]), vec![1, 1, 1, 3]);
    }

    #[test]
    fn dense_sorted_and_wide_agree() {
        let d = data();
        let all = counts(&d, &[0, 1, 2]);
        let mut wide = Vec::new();
        count_wide(&d, &[0, 1, 2], |c| wide.push(c));
        wide.sort();
        assert_eq!(all, wide);
        // Force the sorted path with huge declared arities.
        let mut arities = d.arities();
        arities[1] = 1 << 20;
        let mut sorted = Vec::new();
        for_each_nonzero_count(&d, &arities, &[0, 1, 2], |c| sorted.push(c));
        sorted.sort();
        assert_eq!(all, sorted);
    }
}
