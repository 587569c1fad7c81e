//! Random score tables for the solvers' property tests.

use bnsl_formulations::{Candidate, ScoreTable, VarSet};
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
