//! What a part's nodes can reach: exact completion values for a small part, the
//! optimum alone for a large one.
//!
//! `H(R)`, for a set `R` of a part's nodes, is the best score the nodes of `R` can add
//! when every other node of the part is placed before them. A part of at most
//! [`PartSearch::exact_up_to`] nodes gets `H` for every subset, the DP of Silander &
//! Myllymäki run from the sources, and is enumerated in canonical topological order
//! (module `search`). A larger part would need too many values: it gets its optimum from the
//! search over its nodes' choices (module `choices`), which also enumerates it.

use super::choices::{optimum_by_choices, SearchTooLarge};
use super::parts::{full_mask, members, PartCandidate};
use super::PartSearch;

/// A part's completion values, or its optimum alone.
#[derive(Debug)]
pub(super) enum Completion {
    /// `H(R)` for every subset `R` (a local mask).
    Exact(Vec<f64>),
    /// The part's optimum, found by the search over its nodes' choices.
    Optimum(f64),
}

impl Completion {
    /// The completion of a part with these candidates: exact values when it has at most
    /// `search.exact_up_to` nodes, else its optimum when that reaches `floor` (`-∞` when
    /// not).
    pub(super) fn new(
        candidates: &[Vec<PartCandidate>],
        search: &PartSearch,
        floor: f64,
    ) -> Result<Self, SearchTooLarge> {
        Ok(if candidates.len() <= search.exact_up_to {
            Completion::Exact(completion_values(candidates))
        } else {
            Completion::Optimum(optimum_by_choices(candidates, floor, search)?)
        })
    }

    /// The best score the part's nodes can reach together.
    pub(super) fn optimum(&self) -> f64 {
        match self {
            Completion::Exact(values) => values[values.len() - 1],
            Completion::Optimum(optimum) => *optimum,
        }
    }
}

/// `H(R)` for every subset `R` of a part's nodes (local mask): `H(R) = max over v in R
/// of best_v(P \ R) + H(R \ {v})`.
pub(super) fn completion_values(candidates: &[Vec<PartCandidate>]) -> Vec<f64> {
    let all = full_mask(candidates.len());
    let mut h = vec![f64::NEG_INFINITY; all as usize + 1];
    h[0] = 0.0;
    for rest in 1..=all {
        let placed = all & !rest;
        let mut best = f64::NEG_INFINITY;
        for v in members(rest) {
            if let Some(c) = candidates[v].iter().find(|c| c.mask & !placed == 0) {
                best = best.max(c.score + h[(rest & !(1 << v)) as usize]);
            }
        }
        h[rest as usize] = best;
    }
    h
}
