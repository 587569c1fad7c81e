//! The stratified contingency table of X × Y given Z, reduced to what the G² test needs:
//! the statistic and the degrees of freedom of the cells that can vary.
//!
//! The scoring layer's counting ([`crate::scores::counts`]) yields the non-zero counts of a
//! variable set without saying which cell each belongs to; the adjusted degrees of
//! freedom need, per stratum z, which states of X and of Y occur. So each test codes each
//! row as (z, x, y) in mixed radix, counts the codes in a dense table when it is small
//! (at most 4 cells per row) or by sorting otherwise, and walks the strata in order.

use crate::data::DataSet;

/// G² and its adjusted degrees of freedom for one test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Stratified {
    /// G² = 2 Σ_z Σ_xy N_xyz ln(N_xyz N_z / (N_xz N_yz)).
    pub g2: f64,
    /// Σ over occurring strata z of (r⁺_X(z) − 1)(r⁺_Y(z) − 1), with r⁺ the number of
    /// states of X (Y) that occur in stratum z.
    pub dof: f64,
}

/// Key spaces above this are re-ranked to dense codes before growing further.
const KEY_LIMIT: u64 = 1 << 40;

/// Counts X × Y given Z in `data` (`arities` of every variable) and returns G² with its
/// adjusted degrees of freedom.
pub(super) fn stratified_g2(
    data: &DataSet,
    arities: &[usize],
    x: usize,
    y: usize,
    z: &[usize],
) -> Stratified {
    let (rx, ry) = (arities[x] as u64, arities[y] as u64);
    let (mut keys, strata) = stratum_keys(data, arities, z);
    for ((k, &vx), &vy) in keys.iter_mut().zip(data.column(x)).zip(data.column(y)) {
        *k = (*k * rx + vx as u64) * ry + vy as u64;
    }
    let cells = (rx * ry) as usize;
    let mut acc = Accumulator::new(rx as usize, ry as usize);
    if strata.saturating_mul(rx * ry) <= (DENSE_CELLS_PER_ROW * keys.len()).max(cells) as u64 {
        let mut table = vec![0u32; strata as usize * cells];
        for &k in &keys {
            table[k as usize] += 1;
        }
        for stratum in table.chunks(cells) {
            acc.stratum(
                stratum
                    .iter()
                    .enumerate()
                    .filter(|(_, &c)| c > 0)
                    .map(|(cell, &c)| (cell / ry as usize, cell % ry as usize, c)),
            );
        }
    } else {
        keys.sort_unstable();
        for stratum in keys.chunk_by(|a, b| a / (rx * ry) == b / (rx * ry)) {
            acc.stratum(stratum.chunk_by(|a, b| a == b).map(|run| {
                let cell = run[0] % (rx * ry);
                ((cell / ry) as usize, (cell % ry) as usize, run.len() as u32)
            }));
        }
    }
    Stratified {
        g2: acc.g2.max(0.0),
        dof: acc.dof,
    }
}

/// Dense tables are used up to this many cells per row (sorting beyond).
const DENSE_CELLS_PER_ROW: usize = 4;

/// Sums G² and the adjusted degrees of freedom stratum by stratum.
struct Accumulator {
    nx: Vec<u32>,
    ny: Vec<u32>,
    cells: Vec<(usize, usize, u32)>,
    g2: f64,
    dof: f64,
}

impl Accumulator {
    fn new(rx: usize, ry: usize) -> Self {
        Accumulator {
            nx: vec![0; rx],
            ny: vec![0; ry],
            cells: Vec::new(),
            g2: 0.0,
            dof: 0.0,
        }
    }

    /// Adds one stratum given its non-zero cells (x state, y state, count).
    fn stratum(&mut self, cells: impl Iterator<Item = (usize, usize, u32)>) {
        self.cells.clear();
        for (i, j, c) in cells {
            self.nx[i] += c;
            self.ny[j] += c;
            self.cells.push((i, j, c));
        }
        if self.cells.is_empty() {
            return;
        }
        let nz: f64 = self.cells.iter().map(|&(_, _, c)| c as f64).sum();
        for &(i, j, c) in &self.cells {
            let c = c as f64;
            self.g2 += 2.0 * c * (c * nz / (self.nx[i] as f64 * self.ny[j] as f64)).ln();
        }
        let occurring = |n: &[u32]| n.iter().filter(|&&c| c > 0).count() as f64;
        self.dof += (occurring(&self.nx) - 1.0) * (occurring(&self.ny) - 1.0);
        self.nx.fill(0);
        self.ny.fill(0);
    }
}

/// Per row, a code of its configuration of `z` (mixed radix, re-ranked to dense codes
/// whenever the key space would pass [`KEY_LIMIT`]), leaving room to append x and y;
/// and the number of codes.
fn stratum_keys(data: &DataSet, arities: &[usize], z: &[usize]) -> (Vec<u64>, u64) {
    let mut keys = vec![0u64; data.n_rows()];
    let mut space = 1u64;
    for &v in z {
        let r = arities[v] as u64;
        if space.saturating_mul(r) > KEY_LIMIT {
            space = rerank(&mut keys);
        }
        for (k, &s) in keys.iter_mut().zip(data.column(v)) {
            *k = *k * r + s as u64;
        }
        space *= r;
    }
    (keys, space)
}

/// Replaces each key by its rank among the distinct keys; returns the number of ranks.
fn rerank(keys: &mut [u64]) -> u64 {
    let mut distinct = keys.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    for k in keys.iter_mut() {
        *k = distinct.binary_search(k).expect("key present") as u64;
    }
    distinct.len() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Variable;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    /// G² and the adjusted df by the textbook formula over a map of (z, x, y) counts.
    fn brute_force(cols: &[Vec<u8>], x: usize, y: usize, z: &[usize]) -> (f64, f64) {
        let mut strata: BTreeMap<Vec<u8>, BTreeMap<(u8, u8), f64>> = BTreeMap::new();
        for (r, &xr) in cols[x].iter().enumerate() {
            let key = z.iter().map(|&v| cols[v][r]).collect();
            *strata
                .entry(key)
                .or_default()
                .entry((xr, cols[y][r]))
                .or_default() += 1.0;
        }
        let (mut g2, mut dof) = (0.0, 0.0);
        for cells in strata.values() {
            let mut nx: BTreeMap<u8, f64> = BTreeMap::new();
            let mut ny: BTreeMap<u8, f64> = BTreeMap::new();
            for (&(i, j), &c) in cells {
                *nx.entry(i).or_default() += c;
                *ny.entry(j).or_default() += c;
            }
            let nz: f64 = cells.values().sum();
            for (&(i, j), &c) in cells {
                g2 += 2.0 * c * (c * nz / (nx[&i] * ny[&j])).ln();
            }
            dof += (nx.len() as f64 - 1.0) * (ny.len() as f64 - 1.0);
        }
        (g2.max(0.0), dof)
    }

    proptest! {
        /// Both counting paths (dense table, sorting) agree with the textbook formula.
        #[test]
        fn matches_brute_force(
            arity in proptest::collection::vec(2usize..5, 5),
            rows in proptest::collection::vec(proptest::collection::vec(0u8..255, 5), 1..60),
            nz in 0usize..4,
        ) {
            let cols: Vec<Vec<u8>> = (0..5)
                .map(|v| rows.iter().map(|r| r[v] % arity[v] as u8).collect())
                .collect();
            let vars = (0..5).map(|v| Variable::with_arity(format!("v{v}"), arity[v])).collect();
            let d = DataSet::new(vars, cols.clone());
            let z: Vec<usize> = (2..2 + nz).collect();
            let got = stratified_g2(&d, &arity, 0, 1, &z);
            let (g2, dof) = brute_force(&cols, 0, 1, &z);
            prop_assert!((got.g2 - g2).abs() < 1e-9 * g2.max(1.0), "{} vs {}", got.g2, g2);
            prop_assert_eq!(got.dof, dof);
        }
    }

    #[test]
    fn rerank_keeps_the_order() {
        let mut k = vec![900, 5, 900, 70];
        assert_eq!(rerank(&mut k), 3);
        assert_eq!(k, vec![2, 0, 2, 1]);
    }

    #[test]
    fn empty_rows_and_columns_reduce_the_dof() {
        // Stratum z=0: x ∈ {0,1}, y ∈ {0,1,2} all occur → (2−1)(3−1) = 2.
        // Stratum z=1: only y ∈ {0,2} occur → (2−1)(2−1) = 1. Stratum z=2: x constant → 0.
        let x = vec![0, 1, 0, 1, 0, 1, 0, 1, 0, 0];
        let y = vec![0, 1, 2, 0, 0, 2, 2, 0, 1, 2];
        let z = vec![0, 0, 0, 0, 1, 1, 1, 1, 2, 2];
        let vars = vec![
            Variable::with_arity("x", 2),
            Variable::with_arity("y", 3),
            Variable::with_arity("z", 3),
        ];
        let d = DataSet::new(vars, vec![x, y, z]);
        let s = stratified_g2(&d, &d.arities(), 0, 1, &[2]);
        assert_eq!(s.dof, 3.0);
    }
}
