//! Every acyclic choice of candidates of one part of the candidate graph scoring at least
//! a threshold, by a depth-first search in canonical topological order.
//!
//! The part's nodes are placed one at a time: the next node takes a candidate inside the
//! nodes already placed (its parents outside the part are free). Each choice is built
//! once, in its canonical order: the order that always places the smallest node whose
//! parents are all placed. So a node `w` passed over for a larger one must later take a
//! parent placed after that moment, and a node none of whose candidates has a parent
//! left to place is never passed over. The search is bounded by the part's completion
//! values: a partial choice is extended only while its score plus `H` of the nodes left
//! reaches the threshold.

use super::parts::{full_mask, members, Part, PartCandidate};
use super::EnumerationEnd;
use crate::heuristics::Budget;

/// One acyclic choice for a part: per local node, the index of its candidate in the
/// table, and the sum of their scores.
#[derive(Clone, Debug)]
pub(super) struct Piece {
    /// `choice[k]`: the table index of the candidate of the part's node `k`.
    pub(super) choice: Vec<usize>,
    /// The sum of the chosen scores.
    pub(super) score: f64,
}

/// Nodes placed between two looks at the clock.
const STEPS_PER_CLOCK_CHECK: u64 = 4096;

/// When a part's search stops: once it has found `count` pieces scoring at least
/// `scoring_at_least` (those below can only make networks that miss the threshold by
/// rounding, and do not count).
#[derive(Clone, Copy, Debug)]
pub(super) struct PieceLimit {
    pub(super) count: usize,
    pub(super) scoring_at_least: f64,
}

/// The pieces a search found, up to its limit.
pub(super) struct Pieces {
    pub(super) found: Vec<Piece>,
    limit: PieceLimit,
    /// Pieces found that count toward the limit.
    counted: usize,
}

impl Pieces {
    pub(super) fn new(limit: PieceLimit) -> Self {
        Pieces {
            found: Vec::new(),
            limit,
            counted: 0,
        }
    }

    /// Stores the piece that gives each local node `k` its candidate `positions[k]` of
    /// `candidates[k]`; `Err` at the limit.
    pub(super) fn store(
        &mut self,
        candidates: &[Vec<PartCandidate>],
        positions: &[usize],
    ) -> Result<(), EnumerationEnd> {
        let chosen = positions.iter().zip(candidates).map(|(&i, list)| list[i]);
        let (choice, score) = chosen.fold((Vec::new(), 0.0), |(mut choice, score), c| {
            choice.push(c.index);
            (choice, score + c.score)
        });
        self.found.push(Piece { choice, score });
        if score >= self.limit.scoring_at_least {
            self.counted += 1;
            if self.counted >= self.limit.count {
                return Err(EnumerationEnd::NetworkLimit);
            }
        }
        Ok(())
    }
}

/// Every piece of `part`, whose completion values are `completion`, scoring at least
/// `threshold`, within `limit`; `Err` with what was found when a limit ends the search.
pub(super) fn pieces_within(
    part: &Part,
    completion: &[f64],
    threshold: f64,
    limit: PieceLimit,
    budget: &Budget,
) -> Result<Vec<Piece>, (Vec<Piece>, EnumerationEnd)> {
    let n = part.nodes.len();
    let mut search = Search {
        part,
        completion,
        parents_anywhere: part
            .candidates
            .iter()
            .map(|list| list.iter().fold(0, |union, c| union | c.mask))
            .collect(),
        threshold,
        choice: vec![0; n],
        passed_at: vec![None; n],
        budget,
        pieces: Pieces::new(limit),
        steps: 0,
    };
    match search.extend(0, 0.0) {
        Ok(()) => Ok(search.pieces.found),
        Err(end) => Err((search.pieces.found, end)),
    }
}

/// The state of the depth-first search.
struct Search<'a> {
    part: &'a Part,
    /// The part's completion values.
    completion: &'a [f64],
    /// Per node, the union of its candidates' parents in the part: once those are all
    /// placed, the node must be placed before any larger one.
    parents_anywhere: Vec<u64>,
    threshold: f64,
    /// The position in its part's list of the candidate of each placed node.
    choice: Vec<usize>,
    /// For a node not placed: the placed set when a larger node was last placed before
    /// it. Its parents must not all lie inside that set, or the canonical order would
    /// have placed it then.
    passed_at: Vec<Option<u64>>,
    budget: &'a Budget<'a>,
    pieces: Pieces,
    steps: u64,
}

impl Search<'_> {
    /// Places the nodes not in `placed`, those in it having scored `partial`; `Err`
    /// when a limit ends the search.
    fn extend(&mut self, placed: u64, partial: f64) -> Result<(), EnumerationEnd> {
        let all = full_mask(self.part.nodes.len());
        if placed == all {
            return self.record();
        }
        if self.steps.is_multiple_of(STEPS_PER_CLOCK_CHECK) && self.budget.is_spent() {
            return Err(EnumerationEnd::Stopped);
        }
        self.steps += 1;
        let rest = all & !placed;
        for v in members(rest) {
            let after = self.completion[(rest & !(1 << v)) as usize];
            let required = self.passed_at[v];
            let mut passed: Option<Vec<(usize, Option<u64>)>> = None;
            for i in 0..self.part.candidates[v].len() {
                let c = self.part.candidates[v][i];
                if partial + c.score + after < self.threshold {
                    break;
                }
                if c.mask & !placed != 0 || required.is_some_and(|r| c.mask & !r == 0) {
                    continue;
                }
                if passed.is_none() {
                    // Placing v passes over the smaller nodes not placed yet.
                    let smaller = members(rest & ((1 << v) - 1));
                    passed = Some(smaller.map(|w| (w, self.passed_at[w])).collect());
                    for &(w, _) in passed.iter().flatten() {
                        self.passed_at[w] = Some(placed);
                    }
                }
                self.choice[v] = i;
                self.extend(placed | 1 << v, partial + c.score)?;
            }
            for &(w, before) in passed.iter().flatten() {
                self.passed_at[w] = before;
            }
            if self.parents_anywhere[v] & !placed == 0 {
                // Every candidate of v lies inside the placed nodes: placing a larger
                // node now would pass over v for good.
                break;
            }
        }
        Ok(())
    }

    /// Stores the piece of the current choices; `Err` at the limit.
    fn record(&mut self) -> Result<(), EnumerationEnd> {
        self.pieces.store(&self.part.candidates, &self.choice)
    }
}
