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

/// Per-thread buffers reused across calls: the prefix's row keys, the dense tables
/// (kept zeroed between calls) and the rows' cell indices.
#[derive(Default)]
struct Scratch {
    keys: Vec<u32>,
    dense: Vec<u32>,
    idx: Vec<u32>,
}

/// Counts every set `prefix ∪ {v}` for `v` in `extensions` (each `v` outside `prefix`),
/// calling `visit(i, count)` for each non-zero cell of the table of `prefix ∪ {extensions[i]}`.
///
/// The prefix's row keys are computed once and shared by every extension, which is how
/// scoring shares work between sets (a set of s + 1 variables costs one pass over the
/// rows, not s + 1).
pub fn count_extensions(
    data: &DataSet,
    arities: &[usize],
    prefix: &[usize],
    extensions: &[usize],
    mut visit: impl FnMut(usize, u32),
) {
    let rows = data.n_rows();
    let prefix_states: f64 = prefix.iter().map(|&v| arities[v] as f64).product();
    let dense_limit = (rows as f64 * DENSE_CELLS_PER_ROW)
        .max(DENSE_CELLS_FLOOR)
        .min(u32::MAX as f64);
    let fits = |v: usize| prefix_states * (arities[v] as f64) <= dense_limit;
    SCRATCH.with(|s| {
        let mut s = s.borrow_mut();
        let Scratch { keys, dense, idx } = &mut *s;
        keys.clear();
        if prefix.is_empty() {
            keys.resize(rows, 0);
        } else if extensions.iter().any(|&v| fits(v)) {
            fill_keys(data, arities, prefix, keys);
        }
        let mut dense_exts = Vec::with_capacity(extensions.len());
        for (i, &v) in extensions.iter().enumerate() {
            if fits(v) {
                dense_exts.push(i);
            } else {
                let mut vars = prefix.to_vec();
                vars.push(v);
                count_sparse(data, arities, &vars, &mut |c| visit(i, c));
            }
        }
        let cells_of = |i: &usize| prefix_states as usize * arities[extensions[*i]];
        let most = dense_exts.iter().map(cells_of).max().unwrap_or(0);
        if dense.len() < 2 * most {
            dense.resize(2 * most, 0);
        }
        for i in dense_exts {
            let v = extensions[i];
            let halves = &mut dense[..2 * cells_of(&i)];
            count_dense(keys, data.column(v), arities[v] as u32, idx, halves, |c| {
                visit(i, c)
            });
        }
    })
}

/// Counts the rows into the dense table with cells `key · radix + value` and visits its
/// non-zero cells in index order, leaving `halves` zeroed.
///
/// Cell indices are computed first, in a pass the compiler vectorises; the increments then
/// alternate between the two halves of `halves` (summed by the visiting sweep), so
/// consecutive rows that hit the same cell do not wait on each other's update.
fn count_dense(
    keys: &[u32],
    column: &[u8],
    radix: u32,
    idx: &mut Vec<u32>,
    halves: &mut [u32],
    mut visit: impl FnMut(u32),
) {
    idx.clear();
    idx.extend(keys.iter().zip(column).map(|(&k, &x)| k * radix + x as u32));
    let (even, odd) = halves.split_at_mut(halves.len() / 2);
    let mut pairs = idx.chunks_exact(2);
    for pair in &mut pairs {
        even[pair[0] as usize] += 1;
        odd[pair[1] as usize] += 1;
    }
    for &j in pairs.remainder() {
        even[j as usize] += 1;
    }
    for (a, b) in even.iter_mut().zip(odd) {
        if *a + *b > 0 {
            visit(*a + *b);
            *a = 0;
            *b = 0;
        }
    }
}

/// Counts a large, sparse set by sorting, with its own buffer (the thread's scratch is
/// in use by the caller).
fn count_sparse(data: &DataSet, arities: &[usize], vars: &[usize], visit: &mut dyn FnMut(u32)) {
    let cells: f64 = vars.iter().map(|&v| arities[v] as f64).product();
    if cells >= u64::MAX as f64 {
        return count_wide(data, vars, visit);
    }
    let mut keys: Vec<u64> = Vec::new();
    fill_keys(data, arities, vars, &mut keys);
    keys.sort_unstable();
    keys.chunk_by(|a, b| a == b)
        .for_each(|run| visit(run.len() as u32));
}

/// Per row, the mixed-radix index of the joint configuration of `vars`.
fn fill_keys<K: RowKey>(data: &DataSet, arities: &[usize], vars: &[usize], keys: &mut Vec<K>) {
    keys.clear();
    keys.extend(data.column(vars[0]).iter().map(|&x| K::from(x)));
    let mut stride = arities[vars[0]] as u64;
    for &v in &vars[1..] {
        let s = K::from_stride(stride);
        for (k, &x) in keys.iter_mut().zip(data.column(v)) {
            *k += s * K::from(x);
        }
        stride *= arities[v] as u64;
    }
}

/// Integer types that hold row keys: `u32` for dense tables (cheaper to stream), `u64`
/// for sorting large state spaces.
trait RowKey: Copy + From<u8> + std::ops::AddAssign + std::ops::Mul<Output = Self> {
    /// The key type's value of a mixed-radix stride (callers ensure it fits).
    fn from_stride(stride: u64) -> Self;
}

impl RowKey for u32 {
    fn from_stride(stride: u64) -> Self {
        u32::try_from(stride).expect("dense tables have fewer than 2^32 cells")
    }
}

impl RowKey for u64 {
    fn from_stride(stride: u64) -> Self {
        stride
    }
}

/// Fallback for state spaces beyond 2^64 cells: sort the rows' value tuples.
fn count_wide(data: &DataSet, vars: &[usize], mut visit: impl FnMut(u32)) {
    let mut rows: Vec<Vec<u8>> = (0..data.n_rows())
        .map(|r| vars.iter().map(|&v| data.column(v)[r]).collect())
        .collect();
    rows.sort_unstable();
    rows.chunk_by(|a, b| a == b)
        .for_each(|run| visit(run.len() as u32));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Variable;
    use proptest::strategy::Strategy;

    fn data() -> DataSet {
        let vars = vec![
            Variable::with_arity("a", 2),
            Variable::with_arity("b", 3),
            Variable::with_arity("c", 2),
        ];
        let cols = vec![
            vec![0, 1, 1, 0, 1, 1],
            vec![0, 2, 2, 1, 0, 2],
            vec![1, 1, 0, 0, 1, 1],
        ];
        DataSet::new(vars, cols)
    }

    /// Counts by brute force over rows.
    fn counts(d: &DataSet, vars: &[usize]) -> Vec<u32> {
        let mut map = std::collections::HashMap::new();
        for r in 0..d.n_rows() {
            *map.entry(vars.iter().map(|&v| d.column(v)[r]).collect::<Vec<_>>())
                .or_insert(0u32) += 1;
        }
        let mut v: Vec<u32> = map.into_values().collect();
        v.sort();
        v
    }

    #[test]
    fn brute_force_counts_by_hand() {
        // (a,b): (0,0) (1,2) (1,2) (0,1) (1,0) (1,2)
        assert_eq!(counts(&data(), &[0, 1]), vec![1, 1, 1, 3]);
    }

    #[test]
    fn extensions_match_direct_counts() {
        let d = data();
        let ar = d.arities();
        for prefix in [vec![], vec![0], vec![1, 2]] {
            let exts: Vec<usize> = (0..3).filter(|v| !prefix.contains(v)).collect();
            let mut got = vec![Vec::new(); exts.len()];
            count_extensions(&d, &ar, &prefix, &exts, |i, c| got[i].push(c));
            for (i, &v) in exts.iter().enumerate() {
                let mut vars = prefix.clone();
                vars.push(v);
                got[i].sort();
                assert_eq!(got[i], counts(&d, &vars), "prefix {prefix:?} + {v}");
            }
        }
        // Sparse path: a huge declared arity forces sorting inside the fused loop.
        let mut big = ar.clone();
        big[1] = 1 << 20;
        let mut got = Vec::new();
        count_extensions(&d, &big, &[0], &[1], |_, c| got.push(c));
        got.sort();
        assert_eq!(got, counts(&d, &[0, 1]));
    }

    proptest::proptest! {
        /// Random data with odd and even row counts (the dense path splits rows in pairs),
        /// single-state variables and no rows at all.
        #[test]
        fn random_extensions_match_direct_counts(
            arities in proptest::collection::vec(1usize..=4, 4),
            raw in (0usize..40).prop_flat_map(|rows| {
                proptest::collection::vec(proptest::collection::vec(0u8..=255, rows), 4)
            }),
        ) {
            let cols: Vec<Vec<u8>> = raw
                .iter()
                .zip(&arities)
                .map(|(col, &a)| col.iter().map(|&x| x % a as u8).collect())
                .collect();
            let vars = arities
                .iter()
                .enumerate()
                .map(|(v, &a)| Variable::with_arity(format!("x{v}"), a))
                .collect();
            let d = DataSet::new(vars, cols);
            for prefix in [vec![], vec![2], vec![0, 3]] {
                let exts: Vec<usize> = (0..4).filter(|v| !prefix.contains(v)).collect();
                let mut got = vec![Vec::new(); exts.len()];
                count_extensions(&d, &arities, &prefix, &exts, |i, c| got[i].push(c));
                for (i, &v) in exts.iter().enumerate() {
                    let mut vars = prefix.clone();
                    vars.push(v);
                    got[i].sort();
                    proptest::prop_assert_eq!(&got[i], &counts(&d, &vars));
                }
            }
        }
    }

    #[test]
    fn wide_fallback_agrees() {
        let d = data();
        let mut wide = Vec::new();
        count_wide(&d, &[0, 1, 2], |c| wide.push(c));
        wide.sort();
        assert_eq!(wide, counts(&d, &[0, 1, 2]));
    }
}
