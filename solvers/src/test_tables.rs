//! Random score tables for the solvers' property tests.

use bnsl_formulations::treewidth::{moral_graph, treewidth, TreewidthLimits};
use bnsl_formulations::{Candidate, Dag, ScoreTable, VarSet};
use proptest::prelude::*;
use std::collections::HashSet;

/// A random table over `n` nodes: every node has the empty set plus random parent sets
/// (masks over all nodes, the node itself removed) with half-integer scores.
pub(crate) fn table_from(n: usize, raw: &[Vec<(u32, i32)>]) -> ScoreTable {
    let candidates = raw
        .iter()
        .enumerate()
        .map(|(v, list)| {
            let mut seen = HashSet::new();
            let mut out = vec![Candidate {
                parents: VarSet::empty(n),
                score: -100.0,
            }];
            seen.insert(0u32);
            for &(mask, s) in list {
                let mask = mask & !(1 << v) & ((1 << n) - 1);
                if seen.insert(mask) {
                    out.push(Candidate {
                        parents: VarSet::from_members(n, (0..n).filter(|b| mask >> b & 1 == 1)),
                        score: f64::from(s) / 2.0,
                    });
                }
            }
            out
        })
        .collect();
    ScoreTable::new((0..n).map(|i| format!("x{i}")).collect(), candidates).expect("valid")
}

/// Tables of 2 to `max_n` nodes from [`table_from`], up to 7 random sets per node.
pub(crate) fn arb_table(max_n: usize) -> impl Strategy<Value = ScoreTable> {
    (2..=max_n).prop_flat_map(|n| {
        proptest::collection::vec(
            proptest::collection::vec((0u32..(1 << n), -200i32..-1), 0..8),
            n,
        )
        .prop_map(move |raw| table_from(n, &raw))
    })
}

/// The best score of a DAG of `table`'s candidates with treewidth at most `width`, by
/// trying every choice of families (best first, pruned by the best completion).
pub(crate) fn brute_force_within_width(table: &ScoreTable, width: usize) -> f64 {
    let n = table.n();
    let best_of: Vec<f64> = (0..n)
        .map(|v| {
            table
                .candidates(v)
                .iter()
                .map(|c| c.score)
                .fold(f64::MIN, f64::max)
        })
        .collect();
    let mut chosen = vec![VarSet::empty(n); n];
    let mut best = f64::NEG_INFINITY;
    choose(table, width, &best_of, 0, 0.0, &mut chosen, &mut best);
    best
}

fn choose(
    table: &ScoreTable,
    width: usize,
    best_of: &[f64],
    v: usize,
    score: f64,
    chosen: &mut Vec<VarSet>,
    best: &mut f64,
) {
    if score + best_of[v..].iter().sum::<f64>() <= *best {
        return;
    }
    if v == table.n() {
        let dag = Dag::from_parents(chosen.clone());
        let fits = dag.is_acyclic()
            && treewidth(&moral_graph(&dag), &TreewidthLimits::default()).upper <= width;
        if fits {
            *best = score;
        }
        return;
    }
    for c in table.candidates(v) {
        chosen[v] = c.parents.clone();
        choose(table, width, best_of, v + 1, score + c.score, chosen, best);
    }
}

/// A random table on 10 to 12 nodes, each with the empty set and 8 to 16 random parent
/// sets of one to three parents, scored so that larger sets gain (cycles tempt the
/// relaxation): big enough that the back-ends branch in their MIP rounds, small enough
/// for the DP oracle.
pub(crate) fn larger_table(seed: u64) -> ScoreTable {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let n = rng.gen_range(10..=12);
    let candidates = (0..n)
        .map(|v| {
            let mut list = vec![Candidate {
                parents: VarSet::empty(n),
                score: -500.0,
            }];
            for _ in 0..rng.gen_range(8..=16) {
                let size = rng.gen_range(1..=3);
                let mut members: Vec<usize> = Vec::with_capacity(size);
                while members.len() < size {
                    let u = rng.gen_range(0..n);
                    if u != v && !members.contains(&u) {
                        members.push(u);
                    }
                }
                let parents = VarSet::from_members(n, members);
                if list.iter().all(|c| c.parents != parents) {
                    let score = -500.0 + 60.0 * size as f64 + rng.gen_range(0.0..120.0);
                    list.push(Candidate { parents, score });
                }
            }
            list
        })
        .collect();
    let names = (0..n).map(|i| format!("x{i}")).collect();
    ScoreTable::new(names, candidates).expect("a valid table")
}
