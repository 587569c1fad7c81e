//! The bound of a search node: the best DAG of the table without the candidates that
//! create a forbidden moral edge, by the best-sink recursion of Silander & Myllymäki
//! (2006) over all subsets, held in flat arrays.
//!
//! A child forbids one edge more than its parent, which changes the candidate lists of
//! a few nodes only (the edge's ends, and the nodes with a candidate holding both as
//! parents). So each node's best-parent table `bps(v, U)` is kept for every candidate
//! list it has had, and only the changed nodes' tables are computed; the sink recursion
//! over the `2^n` subsets runs whole each time.

use bnsl_formulations::{Dag, ScoreTable, VarSet};
use std::collections::HashMap;
use std::rc::Rc;

/// The most variables: `2^n` best scores and one `2^(n−1)` table per node and list.
pub(crate) const MAX_VARIABLES: usize = 22;

/// Bytes of best-parent tables kept before the store is emptied.
const STORE_BYTES: usize = 1 << 30;

/// The relaxations of one table, with the best-parent tables computed so far.
pub(crate) struct Relaxation<'t> {
    table: &'t ScoreTable,
    n: usize,
    store: HashMap<(usize, Vec<u64>), Rc<[f64]>>,
    stored_bytes: usize,
    best: Vec<f64>,
    sink: Vec<u8>,
}

impl<'t> Relaxation<'t> {
    /// The relaxations of `table` (at most [`MAX_VARIABLES`] variables).
    pub(crate) fn new(table: &'t ScoreTable) -> Self {
        let n = table.n();
        assert!(n <= MAX_VARIABLES, "checked by the caller");
        Relaxation {
            table,
            n,
            store: HashMap::new(),
            stored_bytes: 0,
            best: vec![f64::NEG_INFINITY; 1 << n],
            sink: vec![0; 1 << n],
        }
    }

    /// The best DAG whose moral graph has no edge of `forbidden`, with its score summed
    /// in node order ([`Dag::check`]); `None` when there is none.
    pub(crate) fn best_without(&mut self, forbidden: &[(usize, usize)]) -> Option<(Dag, f64)> {
        let kept = self.kept(forbidden);
        if kept.iter().any(|bits| bits.iter().all(|&w| w == 0)) {
            return None;
        }
        let tables: Vec<Rc<[f64]>> = kept
            .iter()
            .enumerate()
            .map(|(v, bits)| self.best_parents(v, bits))
            .collect();
        self.sinks(&tables);
        let full = (1usize << self.n) - 1;
        if self.best[full] == f64::NEG_INFINITY {
            return None;
        }
        let dag = self.read_back(&kept);
        let score = dag
            .check(self.table)
            .expect("made of the table's candidates");
        Some((dag, score))
    }

    /// For each node, the bit set of its candidates that create no forbidden edge.
    fn kept(&self, forbidden: &[(usize, usize)]) -> Vec<Vec<u64>> {
        let n = self.n;
        let mut apart = vec![VarSet::empty(n); n];
        for &(u, v) in forbidden {
            apart[u].insert(v);
            apart[v].insert(u);
        }
        (0..n)
            .map(|v| {
                let list = self.table.candidates(v);
                let mut bits = vec![0u64; list.len().div_ceil(64)];
                for (i, c) in list.iter().enumerate() {
                    let creates = c.parents.intersects(&apart[v])
                        || c.parents.iter().any(|p| c.parents.intersects(&apart[p]));
                    if !creates {
                        bits[i / 64] |= 1 << (i % 64);
                    }
                }
                bits
            })
            .collect()
    }

    /// `bps(v, U)` for every set `U` of the other nodes (indexed by [`without_bit`]),
    /// over the candidates of `v` in `bits`: stored, or computed and stored.
    fn best_parents(&mut self, v: usize, bits: &[u64]) -> Rc<[f64]> {
        let key = (v, bits.to_vec());
        if let Some(table) = self.store.get(&key) {
            return table.clone();
        }
        let size = 1usize << self.n.saturating_sub(1);
        let mut bps = vec![f64::NEG_INFINITY; size];
        for (i, c) in self.table.candidates(v).iter().enumerate() {
            if bits[i / 64] >> (i % 64) & 1 == 1 {
                let mask = c.parents.iter().fold(0usize, |m, p| m | 1 << p);
                let at = without_bit(mask, v);
                bps[at] = bps[at].max(c.score);
            }
        }
        for b in 0..self.n.saturating_sub(1) {
            let bit = 1usize << b;
            for block in bps.chunks_exact_mut(2 * bit) {
                let (without, with) = block.split_at_mut(bit);
                for (w, o) in with.iter_mut().zip(without.iter()) {
                    *w = w.max(*o);
                }
            }
        }
        let table: Rc<[f64]> = bps.into();
        let bytes = size * std::mem::size_of::<f64>();
        if self.stored_bytes + bytes > STORE_BYTES {
            self.store.clear();
            self.stored_bytes = 0;
        }
        self.stored_bytes += bytes;
        self.store.insert(key, table.clone());
        table
    }

    /// `best(S) = max over v in S of best(S \ v) + bps(v, S \ v)`, with the best sink of
    /// each set.
    fn sinks(&mut self, tables: &[Rc<[f64]>]) {
        self.best[0] = 0.0;
        for set in 1..self.best.len() {
            let mut best = f64::NEG_INFINITY;
            let mut sink = 0u8;
            let mut rest = set;
            while rest != 0 {
                let v = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let others = set & !(1 << v);
                let value = self.best[others] + tables[v][without_bit(others, v)];
                if value > best {
                    best = value;
                    sink = v as u8;
                }
            }
            self.best[set] = best;
            self.sink[set] = sink;
        }
    }

    /// The DAG of the best sinks: each sink takes its best kept candidate inside the
    /// nodes before it.
    fn read_back(&self, kept: &[Vec<u64>]) -> Dag {
        let n = self.n;
        let mut parents = vec![VarSet::empty(n); n];
        let mut set = (1usize << n) - 1;
        while set != 0 {
            let v = self.sink[set] as usize;
            let before = set & !(1 << v);
            let best = self
                .table
                .candidates(v)
                .iter()
                .enumerate()
                .filter(|(i, c)| {
                    kept[v][i / 64] >> (i % 64) & 1 == 1
                        && c.parents.iter().all(|p| before >> p & 1 == 1)
                })
                .max_by(|a, b| a.1.score.total_cmp(&b.1.score))
                .map(|(_, c)| c.parents.clone())
                .expect("the sink recursion found one");
            parents[v] = best;
            set = before;
        }
        Dag::from_parents(parents)
    }
}

/// `mask` with bit `v` taken out and the bits above it moved down one place.
fn without_bit(mask: usize, v: usize) -> usize {
    let low = (1usize << v) - 1;
    (mask & low) | ((mask >> 1) & !low)
}
