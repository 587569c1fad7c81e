//! Exact structure learning by dynamic programming over variable subsets.
//!
//! The recursion is the best-sink recursion of Silander & Myllymäki (2006), "A simple
//! approach for finding the globally optimal Bayesian network structure" (UAI):
//!
//! ```text
//! best(S)   = max over v in S of  best(S \ {v}) + bps(v, S \ {v}),      best(∅) = 0
//! bps(v, U) = max( score(v, U) if U is a candidate of v,  max over u in U of bps(v, U \ {u}) )
//! ```
//!
//! where `bps(v, U)` is the best local score of `v` among its candidates whose parents all
//! lie in `U` (−∞ when there is none: candidate lists need not be closed under subsets).
//! The optimal network is read back by following the best sink of each set from the full
//! set down to the empty set.
//!
//! Memory is kept bounded by processing subsets layer by layer (by size), in the spirit
//! of the memory-efficient DP of Malone, Yuan & Hansen (2011): a layer of size `k` holds,
//! for every `k`-subset `S` in colexicographic order, `best(S)` and the `k` values
//! `bps(v, S \ {v})` for `v ∈ S`; only two layers are alive at a time. Subsets are located
//! in a layer by their combinatorial-number-system rank. What outlives its layer is one
//! byte per subset (the position of its best sink), `2^n` bytes in all.
//!
//! [`bounded_treewidth`] finds the best network of treewidth at most `W` by a branch and
//! bound whose every node is a DP on the table without some candidates.

pub mod bounded_treewidth;

use crate::stop::StopToken;
use bnsl_formulations::{Dag, ScoreTable, VarSet};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The largest number of variables the DP accepts whatever the options (subsets are
/// `u64` bit masks and a layer rank must fit comfortably in memory arithmetic).
pub const HARD_MAX_VARIABLES: usize = 32;

/// Subsets per parallel work unit of a layer.
const CHUNK: usize = 2048;

/// Limits for [`solve_dp`].
#[derive(Clone, Debug, PartialEq)]
pub struct DpOptions {
    /// Refuse tables with more variables than this (capped at [`HARD_MAX_VARIABLES`]).
    pub max_variables: usize,
    /// Refuse to start when the estimate of [`dp_memory_bytes`] exceeds this many bytes.
    pub memory_limit_bytes: u64,
    /// Give up after this long ([`DpError::Stopped`]): the DP has no answer before its
    /// last layer.
    pub time_limit: Option<Duration>,
    /// Give up once stopped from outside, likewise.
    pub stop: StopToken,
}

impl Default for DpOptions {
    /// At most 30 variables, DP tables within the memory available on this machine
    /// ([`FALLBACK_MEMORY_LIMIT_BYTES`] where that cannot be read), no time limit.
    fn default() -> Self {
        DpOptions {
            max_variables: 30,
            memory_limit_bytes: bnsl_formulations::machine::available_memory_bytes()
                .unwrap_or(FALLBACK_MEMORY_LIMIT_BYTES),
            time_limit: None,
            stop: StopToken::new(),
        }
    }
}

/// Up to this many variables, dynamic programming is the faster exact method (or as fast
/// as SCIP's branch and cut); beyond it, the DP's cost, exponential in the variables,
/// soon outgrows the branch and cut's (see README, "Benchmark notes behind design
/// choices").
pub const DP_FASTER_UP_TO: usize = 20;

/// The DP's memory budget where the machine's memory cannot be read.
pub const FALLBACK_MEMORY_LIMIT_BYTES: u64 = 16 << 30;

/// An optimal network found by [`solve_dp`].
#[derive(Clone, Debug, PartialEq)]
pub struct DpResult {
    /// A highest-scoring DAG whose parent sets are all candidates of the table.
    pub dag: Dag,
    /// Its score: the local scores summed in node order, exactly as [`Dag::check`] does.
    pub score: f64,
}

/// Why [`solve_dp`] gave no network.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum DpError {
    /// The table has more variables than the DP is allowed to handle.
    #[error("the exact DP handles at most {max} variables, but the score table has {n}")]
    TooManyVariables {
        /// Variables in the table.
        n: usize,
        /// The effective limit.
        max: usize,
    },
    /// The estimated memory of the DP tables exceeds the allowed budget.
    #[error(
        "the exact DP over {n} variables needs about {needed_gib:.2} GiB, above the {limit_gib:.2} GiB of memory it may use (what this machine has available)",
        needed_gib = gib(*.needed_bytes),
        limit_gib = gib(*.limit_bytes)
    )]
    MemoryLimit {
        /// Variables in the table.
        n: usize,
        /// Estimated bytes needed ([`dp_memory_bytes`]).
        needed_bytes: u64,
        /// The budget from [`DpOptions::memory_limit_bytes`].
        limit_bytes: u64,
    },
    /// The allocator refused a DP table.
    #[error("could not allocate {bytes} bytes for the exact DP tables")]
    Allocation {
        /// Size of the refused allocation.
        bytes: u64,
    },
    /// No DAG can be assembled from the candidate parent sets (every ordering leaves
    /// some node without a candidate among its predecessors).
    #[error("no acyclic network can be built from the candidate parent sets")]
    Infeasible,
    /// The time limit or the stop token ended the DP before its last layer, so it has
    /// no network.
    #[error(
        "the exact DP was stopped after {layers} of {n} subset layers, before it had a network"
    )]
    Stopped {
        /// Layers of subsets finished.
        layers: usize,
        /// Variables (the number of layers).
        n: usize,
    },
}

fn gib(bytes: u64) -> f64 {
    bytes as f64 / (1u64 << 30) as f64
}

/// Estimated peak memory in bytes of [`solve_dp`] on `n` variables with
/// `total_candidates` candidate families: two layer buffers sized for the largest layer
/// (`k + 1` `f64` per `k`-subset), one sink byte per subset, and the candidates indexed
/// by layer. Assumes `n <= HARD_MAX_VARIABLES`.
pub fn dp_memory_bytes(n: usize, total_candidates: usize) -> u64 {
    let capacity = LayerCapacity::new(n, &Binomials::new());
    let layers = 2 * (capacity.bps + capacity.best) as u64 * std::mem::size_of::<f64>() as u64;
    let sinks = 1u64 << n;
    let seeds = total_candidates as u64 * std::mem::size_of::<Seed>() as u64;
    layers + sinks + seeds
}

/// The largest layer of the DP over `n` variables: `max_k C(n, k)·k` sink-candidate
/// values and `max_k C(n, k)` subsets.
struct LayerCapacity {
    bps: usize,
    best: usize,
}

impl LayerCapacity {
    fn new(n: usize, binom: &Binomials) -> Self {
        let bps = (0..=n).map(|k| binom.get(n, k) * k).max().unwrap_or(0);
        let best = (0..=n).map(|k| binom.get(n, k)).max().unwrap_or(1);
        LayerCapacity { bps, best }
    }
}

/// Finds a highest-scoring DAG of `table` exactly, by the best-sink dynamic program of
/// Silander & Myllymäki (2006) over all `2^n` variable subsets.
///
/// Ties are broken deterministically: among equally good sinks of a set the variable
/// with the smallest index wins, and each node takes the first (best-first order)
/// candidate that fits. Time is `O(n² 2^n)`; memory is estimated up front
/// ([`dp_memory_bytes`]) and checked against `opts` before anything is allocated.
pub fn solve_dp(table: &ScoreTable, opts: &DpOptions) -> Result<DpResult, DpError> {
    solve_in_chunks(table, opts, CHUNK)
}

/// [`solve_dp`] with a given number of subsets per parallel work unit.
fn solve_in_chunks(
    table: &ScoreTable,
    opts: &DpOptions,
    chunk: usize,
) -> Result<DpResult, DpError> {
    let n = table.n();
    let max = opts.max_variables.min(HARD_MAX_VARIABLES);
    if n > max {
        return Err(DpError::TooManyVariables { n, max });
    }
    let needed_bytes = dp_memory_bytes(n, table.total_candidates());
    if needed_bytes > opts.memory_limit_bytes {
        return Err(DpError::MemoryLimit {
            n,
            needed_bytes,
            limit_bytes: opts.memory_limit_bytes,
        });
    }
    let binom = Binomials::new();
    let seeds = layer_seeds(table, &binom);
    let capacity = LayerCapacity::new(n, &binom);
    let mut prev = Layer::allocate(&capacity)?;
    let mut cur = Layer::allocate(&capacity)?;
    prev.best[0] = 0.0;
    let mut sinks: Vec<Vec<u8>> = vec![vec![NO_SINK]];
    let halt = Halt::new(opts);
    for (k, seeds) in seeds.iter().enumerate().skip(1) {
        let mut sink = filled(binom.get(n, k), NO_SINK)?;
        let pass = LayerPass {
            binom: &binom,
            prev: &prev,
            seeds,
            chunk,
            halt: &halt,
        };
        cur.k = k;
        pass.run(&mut cur, &mut sink);
        if halt.halted.load(Ordering::Relaxed) {
            return Err(DpError::Stopped { layers: k - 1, n });
        }
        sinks.push(sink);
        std::mem::swap(&mut prev, &mut cur);
    }
    if prev.best[0] == f64::NEG_INFINITY {
        return Err(DpError::Infeasible);
    }
    Ok(reconstruct(table, &binom, &sinks))
}

/// When the DP must give up: its deadline or its stop token. Once either is seen,
/// `halted` is set and the remaining chunks of work are skipped.
struct Halt<'a> {
    deadline: Option<Instant>,
    stop: &'a StopToken,
    halted: AtomicBool,
}

impl<'a> Halt<'a> {
    fn new(opts: &'a DpOptions) -> Self {
        Halt {
            deadline: opts.time_limit.map(|t| Instant::now() + t),
            stop: &opts.stop,
            halted: AtomicBool::new(false),
        }
    }

    /// Whether to give up now (checked once per chunk of subsets).
    fn now(&self) -> bool {
        if self.halted.load(Ordering::Relaxed) {
            return true;
        }
        let halt = self.stop.is_stopped() || self.deadline.is_some_and(|d| Instant::now() >= d);
        if halt {
            self.halted.store(true, Ordering::Relaxed);
        }
        halt
    }
}

/// Marks a subset without any feasible sink.
const NO_SINK: u8 = u8::MAX;

/// A vector of `len` copies of `value`, or [`DpError::Allocation`].
fn filled<T: Copy>(len: usize, value: T) -> Result<Vec<T>, DpError> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| DpError::Allocation {
        bytes: (len * std::mem::size_of::<T>()) as u64,
    })?;
    v.resize(len, value);
    Ok(v)
}

/// Binomial coefficients `C(a, b)` for `a, b <= HARD_MAX_VARIABLES + 1`.
struct Binomials {
    table: [[usize; HARD_MAX_VARIABLES + 2]; HARD_MAX_VARIABLES + 2],
}

impl Binomials {
    fn new() -> Self {
        let mut table = [[0usize; HARD_MAX_VARIABLES + 2]; HARD_MAX_VARIABLES + 2];
        for a in 0..table.len() {
            table[a][0] = 1;
            for b in 1..=a {
                table[a][b] = table[a - 1][b - 1] + table[a - 1][b];
            }
        }
        Binomials { table }
    }

    /// `C(a, b)`, zero when `b > a`.
    fn get(&self, a: usize, b: usize) -> usize {
        self.table[a][b]
    }

    /// Colexicographic rank of `mask` among the subsets of its size:
    /// `Σ_i C(c_i, i + 1)` over its members `c_0 < c_1 < …`.
    fn rank(&self, mask: u64) -> usize {
        let mut rank = 0;
        let mut rest = mask;
        let mut i = 1;
        while rest != 0 {
            rank += self.get(rest.trailing_zeros() as usize, i);
            rest &= rest - 1;
            i += 1;
        }
        rank
    }

    /// The `k`-subset of colexicographic rank `rank` (inverse of [`Binomials::rank`]).
    fn unrank(&self, mut rank: usize, k: usize) -> u64 {
        let mut mask = 0u64;
        for i in (1..=k).rev() {
            let mut c = i - 1;
            while self.get(c + 1, i) <= rank {
                c += 1;
            }
            rank -= self.get(c, i);
            mask |= 1u64 << c;
        }
        mask
    }
}

/// The next larger integer with the same number of set bits (Gosper's hack); for
/// subsets of one size this is the next subset in colexicographic order.
fn next_same_size(mask: u64) -> u64 {
    let low = mask & mask.wrapping_neg();
    let ripple = mask + low;
    (((ripple ^ mask) >> 2) / low) | ripple
}

/// A candidate family placed in the layer of `S = parents ∪ {v}`: it offers
/// `bps(v, S \ {v}) >= score` for the subset of rank `rank`, member position `pos`.
#[derive(Clone, Copy, Debug)]
struct Seed {
    rank: usize,
    pos: u8,
    score: f64,
}

/// Every candidate as a [`Seed`], grouped by layer (`|parents| + 1`) and sorted by
/// (rank, position). Candidates mentioning a variable `>= n` can never be used.
fn layer_seeds(table: &ScoreTable, binom: &Binomials) -> Vec<Vec<Seed>> {
    let n = table.n();
    let full = full_mask(n);
    let mut seeds = vec![Vec::new(); n + 1];
    for v in 0..n {
        for cand in table.candidates(v) {
            let parents = cand.parents.low_mask();
            if parents & !full != 0 || cand.parents.len() != parents.count_ones() as usize {
                continue;
            }
            let set = parents | (1u64 << v);
            let pos = (set & ((1u64 << v) - 1)).count_ones() as u8;
            seeds[set.count_ones() as usize].push(Seed {
                rank: binom.rank(set),
                pos,
                score: cand.score,
            });
        }
    }
    for layer in &mut seeds {
        layer.sort_by_key(|s| (s.rank, s.pos));
    }
    seeds
}

/// The mask of all `n` variables.
fn full_mask(n: usize) -> u64 {
    if n == 0 {
        0
    } else {
        u64::MAX >> (64 - n)
    }
}

/// The DP values of all `k`-subsets, in colexicographic order: `best(S)` at `rank(S)`,
/// and `bps(c_j, S \ {c_j})` for the `j`-th smallest member `c_j` at `rank(S) * k + j`.
/// The buffers are sized for the largest layer and reused; only the prefixes for the
/// current `k` are meaningful.
struct Layer {
    k: usize,
    bps: Vec<f64>,
    best: Vec<f64>,
}

impl Layer {
    fn allocate(capacity: &LayerCapacity) -> Result<Self, DpError> {
        Ok(Layer {
            k: 0,
            bps: filled(capacity.bps, 0.0)?,
            best: filled(capacity.best, 0.0)?,
        })
    }
}

/// The computation of one layer from the previous one.
struct LayerPass<'a> {
    binom: &'a Binomials,
    prev: &'a Layer,
    seeds: &'a [Seed],
    chunk: usize,
    /// Skips the chunks left once the DP must give up.
    halt: &'a Halt<'a>,
}

impl LayerPass<'_> {
    /// Fills layer `cur.k` of `cur` and the best-sink positions `sink` (allocated with
    /// [`NO_SINK`], one per subset), in parallel over chunks of consecutive ranks.
    fn run(&self, cur: &mut Layer, sink: &mut [u8]) {
        let k = cur.k;
        let size = sink.len();
        cur.bps[..size * k]
            .par_chunks_mut(self.chunk * k)
            .zip(cur.best[..size].par_chunks_mut(self.chunk))
            .zip(sink.par_chunks_mut(self.chunk))
            .enumerate()
            .for_each(|(index, ((bps, best), sink))| {
                if !self.halt.now() {
                    self.run_chunk(k, index * self.chunk, bps, best, sink)
                }
            });
    }

    /// Processes the subsets of ranks `first..first + best.len()`.
    fn run_chunk(
        &self,
        k: usize,
        first: usize,
        bps: &mut [f64],
        best: &mut [f64],
        sink: &mut [u8],
    ) {
        let start = self.seeds.partition_point(|s| s.rank < first);
        let mut seeds = self.seeds[start..].iter().peekable();
        let mut mask = self.binom.unrank(first, k);
        let mut members = [0usize; HARD_MAX_VARIABLES];
        let mut neighbours = [0usize; HARD_MAX_VARIABLES];
        for (offset, (best, sink)) in best.iter_mut().zip(sink.iter_mut()).enumerate() {
            self.neighbour_ranks(mask, &mut members[..k], &mut neighbours[..k]);
            let entries = &mut bps[offset * k..(offset + 1) * k];
            entries.fill(f64::NEG_INFINITY);
            self.fold_neighbours(&neighbours[..k], entries);
            while let Some(seed) = seeds.next_if(|s| s.rank == first + offset) {
                let entry = &mut entries[seed.pos as usize];
                *entry = larger(*entry, seed.score);
            }
            *best = f64::NEG_INFINITY;
            for (j, (&nb, &entry)) in neighbours[..k].iter().zip(entries.iter()).enumerate() {
                let value = self.prev.best[nb] + entry;
                if value > *best {
                    *best = value;
                    *sink = j as u8;
                }
            }
            mask = next_same_size(mask);
        }
    }

    /// Lists the members `c_0 < … < c_{k-1}` of `mask` and the ranks of `mask \ {c_j}`
    /// in the previous layer: `Σ_{i<j} C(c_i, i + 1) + Σ_{i>j} C(c_i, i)`.
    fn neighbour_ranks(&self, mask: u64, members: &mut [usize], neighbours: &mut [usize]) {
        let mut rest = mask;
        for m in members.iter_mut() {
            *m = rest.trailing_zeros() as usize;
            rest &= rest - 1;
        }
        let mut suffix = 0;
        for j in (0..members.len()).rev() {
            neighbours[j] = suffix;
            suffix += self.binom.get(members[j], j);
        }
        let mut prefix = 0;
        for j in 0..members.len() {
            neighbours[j] += prefix;
            prefix += self.binom.get(members[j], j + 1);
        }
    }

    /// `bps(c_i, S \ {c_i}) = max over j != i of bps(c_i, S \ {c_i, c_j})`, read from the
    /// neighbour `S \ {c_j}`, where `c_i` sits at position `i` (if `i < j`) or `i - 1`.
    fn fold_neighbours(&self, neighbours: &[usize], entries: &mut [f64]) {
        let k = entries.len();
        let width = k - 1;
        for (j, &nb) in neighbours.iter().enumerate() {
            let block = &self.prev.bps[nb * width..(nb + 1) * width];
            for (entry, &value) in entries[..j].iter_mut().zip(&block[..j]) {
                *entry = larger(*entry, value);
            }
            for (entry, &value) in entries[j + 1..].iter_mut().zip(&block[j..]) {
                *entry = larger(*entry, value);
            }
        }
    }
}

/// The larger of two scores. Scores are never NaN, so a plain comparison suffices
/// (and compiles to a vector maximum, unlike NaN-aware [`f64::max`]).
#[inline]
fn larger(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}

/// Follows the best sinks from the full set down, giving each sink its best candidate
/// among the remaining variables. Only called when the full set is feasible, so every
/// set on the way has a sink whose candidate exists.
fn reconstruct(table: &ScoreTable, binom: &Binomials, sinks: &[Vec<u8>]) -> DpResult {
    let n = table.n();
    let mut parents = vec![VarSet::empty(n); n];
    let mut local = vec![0.0; n];
    let mut set = full_mask(n);
    while set != 0 {
        let pos = sinks[set.count_ones() as usize][binom.rank(set)];
        let v = nth_member(set, pos as usize);
        set &= !(1u64 << v);
        let cand = table
            .best_within(v, &VarSet::from_mask(n, set))
            .expect("a sink on a feasible path has a candidate within its predecessors");
        parents[v] = cand.parents.clone();
        local[v] = cand.score;
    }
    let score = local.iter().fold(0.0, |total, s| total + s);
    DpResult {
        dag: Dag::from_parents(parents),
        score,
    }
}

/// The member at position `pos` (0 = smallest) of `mask`.
fn nth_member(mask: u64, pos: usize) -> usize {
    let mut rest = mask;
    for _ in 0..pos {
        rest &= rest - 1;
    }
    rest.trailing_zeros() as usize
}

#[cfg(test)]
mod tests;
