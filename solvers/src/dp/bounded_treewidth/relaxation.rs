//! The bound of a search node: the best DAG of the table without the candidates that
//! create a forbidden moral edge, by the best-sink recursion of Silander & Myllymäki
//! (2006) over all subsets, held in flat arrays.
//!
//! A child forbids one edge `{a, b}` more than its parent. Its tables follow from the
//! parent's in one pass ([`Relaxation::best_with_one_more`]): only `bps(v, U)` for `U`
//! holding both ends (or, at `a` and `b`, the other end) change, and so do only the best
//! scores of the sets holding both. So the parent's arrays are kept as the base of its
//! children, and each node's best-parent tables are stored for every candidate list it
//! has had, for when a node is solved again.

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
    /// The last solve by [`Relaxation::best_without`], the base of its children.
    base: Option<Base>,
    /// A child's best scores and sinks of the sets holding its new edge's ends, indexed
    /// by the set's other members ([`Holding`]).
    child: Holding,
}

/// A solved node's forbidden edges, candidate lists and tables (its best scores and
/// sinks are the relaxation's `best` and `sink`).
struct Base {
    forbidden: Vec<(usize, usize)>,
    kept: Vec<Vec<u64>>,
    tables: Vec<Rc<[f64]>>,
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
            base: None,
            child: Holding {
                mask: 0,
                best: vec![f64::NEG_INFINITY; 1 << n.saturating_sub(2)],
                sink: vec![0; 1 << n.saturating_sub(2)],
            },
        }
    }

    /// The best DAG whose moral graph has no edge of `forbidden`, with its score summed
    /// in node order ([`Dag::check`]); `None` when there is none.
    /// It becomes the base of [`Relaxation::best_with_one_more`].
    pub(crate) fn best_without(&mut self, forbidden: &[(usize, usize)]) -> Option<(Dag, f64)> {
        if let Some(base) = self.base.as_ref().filter(|b| b.forbidden == forbidden) {
            return Some(self.best_of(&base.kept));
        }
        self.base = None;
        let kept = self.kept(forbidden);
        if kept.iter().any(|bits| bits.iter().all(|&w| w == 0)) {
            return None;
        }
        let tables: Vec<Rc<[f64]>> = kept
            .iter()
            .enumerate()
            .map(|(v, bits)| self.best_parents(v, bits))
            .collect();
        sinks(&tables, &mut self.best, &mut self.sink);
        let full = (1usize << self.n) - 1;
        if self.best[full] == f64::NEG_INFINITY {
            return None;
        }
        let (dag, score) = self.best_of(&kept);
        self.base = Some(Base {
            forbidden: forbidden.to_vec(),
            kept,
            tables,
        });
        Some((dag, score))
    }

    /// The DAG of the best sinks of the last whole solve, on the candidates `kept`, with
    /// its score.
    fn best_of(&self, kept: &[Vec<u64>]) -> (Dag, f64) {
        let dag = self.read_back(kept, |set| self.sink[set]);
        let score = dag
            .check(self.table)
            .expect("made of the table's candidates");
        (dag, score)
    }

    /// What [`Relaxation::best_without`] gives for `forbidden` and `(a, b)` (`a < b`,
    /// not in `forbidden`), from the arrays of the last call of `best_without`, which
    /// must have been for `forbidden` and found a DAG.
    pub(crate) fn best_with_one_more(
        &mut self,
        forbidden: &[(usize, usize)],
        (a, b): (usize, usize),
    ) -> Option<(Dag, f64)> {
        let base = self.base.take().expect("a solved base");
        assert!(a < b && base.forbidden == forbidden && !forbidden.contains(&(a, b)));
        let mut kept = base.kept.clone();
        let mut tables = base.tables.clone();
        for v in 0..self.n {
            if !self.lose((a, b), v, &mut kept[v]) {
                continue;
            }
            if kept[v].iter().all(|&w| w == 0) {
                self.base = Some(base);
                return None;
            }
            tables[v] = self.derived_table(v, (a, b), &base.tables[v], &kept[v]);
        }
        self.child.mask = (1 << a) | (1 << b);
        self.child.solve(&tables, &self.best);
        let found = (*self.child.best.last().expect("n ≥ 2") != f64::NEG_INFINITY).then(|| {
            let dag = self.read_back(&kept, |set| self.child.sink_of(set, &self.sink));
            let score = dag
                .check(self.table)
                .expect("made of the table's candidates");
            (dag, score)
        });
        self.base = Some(base);
        found
    }

    /// Takes out of `bits` the candidates of `v` that make the edge `{a, b}`; whether
    /// any was there.
    fn lose(&self, (a, b): (usize, usize), v: usize, bits: &mut [u64]) -> bool {
        let mut lost = false;
        for (i, c) in self.table.candidates(v).iter().enumerate() {
            let makes = if v == a {
                c.parents.contains(b)
            } else if v == b {
                c.parents.contains(a)
            } else {
                c.parents.contains(a) && c.parents.contains(b)
            };
            if makes && bits[i / 64] >> (i % 64) & 1 == 1 {
                bits[i / 64] &= !(1 << (i % 64));
                lost = true;
            }
        }
        lost
    }

    /// `v`'s table without the candidates that make `{a, b}`, from `base`, its table
    /// with them: at `a`, `bps(a, U) = base(U \ b)` for `U ∋ b` (and likewise at `b`);
    /// elsewhere `bps(v, U) = max(base(U \ a), base(U \ b))` for `U ⊇ {a, b}`. Stored
    /// under `bits`.
    fn derived_table(
        &mut self,
        v: usize,
        (a, b): (usize, usize),
        base: &[f64],
        bits: &[u64],
    ) -> Rc<[f64]> {
        let key = (v, bits.to_vec());
        if let Some(table) = self.store.get(&key) {
            return table.clone();
        }
        let at = |u: usize| 1usize << if u < v { u } else { u - 1 };
        let bps: Rc<[f64]> = if v == a || v == b {
            let other = at(if v == a { b } else { a });
            (0..base.len()).map(|u| base[u & !other]).collect()
        } else {
            let (bit_a, bit_b) = (at(a), at(b));
            let both = bit_a | bit_b;
            (0..base.len())
                .map(|u| match u & both == both {
                    true => base[u & !bit_a].max(base[u & !bit_b]),
                    false => base[u],
                })
                .collect()
        };
        self.keep(key, bps)
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
        let mut table: Rc<[f64]> = (0..size).map(|_| f64::NEG_INFINITY).collect();
        let bps = Rc::get_mut(&mut table).expect("not shared yet");
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
        self.keep(key, table)
    }

    /// Stores `table` under `key` (emptying the store first when it is full).
    fn keep(&mut self, key: (usize, Vec<u64>), table: Rc<[f64]>) -> Rc<[f64]> {
        let bytes = table.len() * std::mem::size_of::<f64>();
        if self.stored_bytes + bytes > STORE_BYTES {
            self.store.clear();
            self.stored_bytes = 0;
        }
        self.stored_bytes += bytes;
        self.store.insert(key, table.clone());
        table
    }

    /// The DAG of the best sinks `sink`: each sink takes its best kept candidate inside
    /// the nodes before it.
    fn read_back(&self, kept: &[Vec<u64>], sink: impl Fn(usize) -> u8) -> Dag {
        let n = self.n;
        let mut parents = vec![VarSet::empty(n); n];
        let mut set = (1usize << n) - 1;
        while set != 0 {
            let v = sink(set) as usize;
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

/// `best(S) = max over v in S of best(S \ v) + bps(v, S \ v)` for every set `S`, with
/// the best sink of each.
fn sinks(tables: &[Rc<[f64]>], best: &mut [f64], sink: &mut [u8]) {
    best[0] = 0.0;
    for set in 1..best.len() {
        (best[set], sink[set]) = best_sink(set, tables, |before, _| best[before]);
    }
}

/// [`sinks`] again for the sets holding both nodes of `mask`, the others as in a
/// parent's arrays: right when only the tables' entries `bps(v, U)` with `U ∪ {v}`
/// holding `mask` changed. The `k`-th such set in increasing order is at `k`.
struct Holding {
    mask: usize,
    best: Vec<f64>,
    sink: Vec<u8>,
}

impl Holding {
    /// The best scores and sinks of the sets holding `mask`, from `tables` and the
    /// parent's best scores `parent`.
    fn solve(&mut self, tables: &[Rc<[f64]>], parent: &[f64]) {
        let others = (parent.len() - 1) & !self.mask;
        let mut extra = 0usize;
        for k in 0..self.best.len() {
            let set = extra | self.mask;
            let earlier = |before: usize, v: usize| match self.mask >> v & 1 == 1 {
                true => parent[before],
                false => self.best[k - (1 << self.place(v))],
            };
            (self.best[k], self.sink[k]) = best_sink(set, tables, earlier);
            extra = ((extra | !others) + 1) & others;
        }
    }

    /// The bit of node `v` (not in `mask`) in the index of a set.
    fn place(&self, v: usize) -> usize {
        v - (self.mask & ((1 << v) - 1)).count_ones() as usize
    }

    /// The best sink of `set`: from this child when `set` holds `mask`, else `parent`'s.
    fn sink_of(&self, set: usize, parent: &[u8]) -> u8 {
        if set & self.mask == self.mask {
            let index = (0..usize::BITS as usize)
                .filter(|&v| self.mask >> v & 1 == 0 && set >> v & 1 == 1)
                .fold(0usize, |index, v| index | 1 << self.place(v));
            self.sink[index]
        } else {
            parent[set]
        }
    }
}

/// The best score of `set` and its best sink, from `earlier(S \ v, v)`, the best score
/// of the set without each member `v`.
#[inline(always)]
fn best_sink(set: usize, tables: &[Rc<[f64]>], earlier: impl Fn(usize, usize) -> f64) -> (f64, u8) {
    let mut top = f64::NEG_INFINITY;
    let mut sink = 0u8;
    let mut rest = set;
    while rest != 0 {
        let v = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let before = set & !(1 << v);
        let value = earlier(before, v) + tables[v][without_bit(before, v)];
        if value > top {
            top = value;
            sink = v as u8;
        }
    }
    (top, sink)
}

/// `mask` with bit `v` taken out and the bits above it moved down one place.
fn without_bit(mask: usize, v: usize) -> usize {
    let low = (1usize << v) - 1;
    (mask & low) | ((mask >> 1) & !low)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_tables::{arb_table, larger_table};
    use proptest::prelude::*;

    /// Every pair `(a, b)`, `a < b < n`.
    fn pairs(n: usize) -> Vec<(usize, usize)> {
        (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .collect()
    }

    /// A child's answer from its parent's arrays has the score of a whole solve, for
    /// every edge more, below a parent picked by `pick` from the pairs.
    fn children_agree(table: &ScoreTable, pick: &[bool]) {
        let all = pairs(table.n());
        let forbidden: Vec<(usize, usize)> = all
            .iter()
            .zip(pick.iter().cycle())
            .filter(|(_, &p)| p)
            .map(|(&e, _)| e)
            .collect();
        let mut whole = Relaxation::new(table);
        let mut derived = Relaxation::new(table);
        if derived.best_without(&forbidden).is_none() {
            return;
        }
        for &edge in all.iter().filter(|e| !forbidden.contains(e)) {
            let mut more = forbidden.clone();
            more.push(edge);
            more.sort_unstable();
            let expected = whole.best_without(&more).map(|(_, score)| score);
            let found = derived.best_with_one_more(&forbidden, edge);
            if let Some((dag, score)) = &found {
                assert_eq!(dag.check(table).unwrap(), *score);
                assert!(moral_edges_avoid(dag, &more));
            }
            match (expected, found.map(|(_, score)| score)) {
                (Some(e), Some(f)) => assert!((e - f).abs() <= 1e-9 * e.abs().max(1.0)),
                (e, f) => assert_eq!(e, f),
            }
        }
    }

    fn moral_edges_avoid(dag: &Dag, forbidden: &[(usize, usize)]) -> bool {
        let moral = bnsl_formulations::treewidth::moral_graph(dag);
        forbidden.iter().all(|&(u, v)| !moral.has_edge(u, v))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn a_child_from_its_parent_matches_a_whole_solve(
            table in arb_table(7),
            pick in proptest::collection::vec(any::<bool>(), 1..8),
        ) {
            children_agree(&table, &pick);
        }
    }

    #[test]
    fn a_child_from_its_parent_matches_a_whole_solve_on_larger_tables() {
        for seed in 0..4 {
            children_agree(&larger_table(seed), &[false, false, true]);
        }
    }
}
