//! The networks made of one piece per part: every combination whose score reaches the
//! threshold, found by a depth-first search over the parts with each part's pieces best
//! first, cut off once a piece, the pieces before it and the best pieces of the parts
//! after it fall short.

use super::parts::{slack, Part};
use super::search::Piece;
use super::EnumerationEnd;
use crate::heuristics::Budget;
use bnsl_formulations::{Dag, ScoreTable};

/// Combinations tried between two looks at the clock.
const STEPS_PER_CLOCK_CHECK: u64 = 4096;

/// Every network made of one piece of each of `lists` (the pieces of `parts`) whose
/// score, summed in node order, is at least `threshold`; at most `max_networks` of them,
/// and why the search ended.
pub(super) fn networks(
    table: &ScoreTable,
    parts: &[Part],
    lists: Vec<Vec<Piece>>,
    threshold: f64,
    max_networks: usize,
    budget: &Budget,
) -> (Vec<(Dag, f64)>, EnumerationEnd) {
    let mut out = Vec::new();
    let mut record = |choice: &[usize]| {
        let chosen: Vec<_> = (0..table.n())
            .map(|v| &table.candidates(v)[choice[v]])
            .collect();
        let score = chosen.iter().fold(0.0, |sum, c| sum + c.score);
        if score < threshold {
            return Ok(());
        }
        let parents = chosen.iter().map(|c| c.parents.clone()).collect();
        out.push((Dag::from_parents(parents), score));
        if out.len() >= max_networks {
            return Err(EnumerationEnd::NetworkLimit);
        }
        Ok(())
    };
    let floor = threshold - slack(threshold);
    let end = each_combination(table.n(), parts, lists, floor, budget, &mut record)
        .err()
        .unwrap_or(EnumerationEnd::Complete);
    (out, end)
}

/// Calls `visit` with every choice made of one piece of each of `lists` (the pieces of
/// `parts`, over `n` nodes) whose pieces' scores add up to at least `floor`: per node,
/// the `choice` its part's piece gives it. `Err` when `budget` or `visit` ends it.
pub(super) fn each_combination(
    n: usize,
    parts: &[Part],
    mut lists: Vec<Vec<Piece>>,
    floor: f64,
    budget: &Budget,
    visit: &mut dyn FnMut(&[usize]) -> Result<(), EnumerationEnd>,
) -> Result<(), EnumerationEnd> {
    if lists.iter().any(Vec::is_empty) {
        return Ok(());
    }
    for list in &mut lists {
        list.sort_by(|a, b| b.score.total_cmp(&a.score));
    }
    // best_after[k]: the best the parts from k on can add.
    let mut best_after = vec![0.0; lists.len() + 1];
    for k in (0..lists.len()).rev() {
        best_after[k] = best_after[k + 1] + lists[k][0].score;
    }
    let mut search = Combination {
        parts,
        lists: &lists,
        best_after,
        floor,
        choice: vec![0; n],
        budget,
        steps: 0,
        visit,
    };
    search.extend(0, 0.0)
}

/// The state of the search over the parts.
struct Combination<'a, 'v> {
    parts: &'a [Part],
    lists: &'a [Vec<Piece>],
    best_after: Vec<f64>,
    floor: f64,
    /// The choice of every node of the parts chosen so far.
    choice: Vec<usize>,
    budget: &'a Budget<'a>,
    steps: u64,
    visit: &'v mut dyn FnMut(&[usize]) -> Result<(), EnumerationEnd>,
}

impl Combination<'_, '_> {
    /// Chooses the pieces of parts `k..`, those before scoring `partial`.
    fn extend(&mut self, k: usize, partial: f64) -> Result<(), EnumerationEnd> {
        if k == self.lists.len() {
            return (self.visit)(&self.choice);
        }
        if self.steps.is_multiple_of(STEPS_PER_CLOCK_CHECK) && self.budget.is_spent() {
            return Err(EnumerationEnd::Stopped);
        }
        self.steps += 1;
        for piece in &self.lists[k] {
            if partial + piece.score + self.best_after[k + 1] < self.floor {
                break;
            }
            for (&v, &i) in self.parts[k].nodes.iter().zip(&piece.choice) {
                self.choice[v] = i;
            }
            self.extend(k + 1, partial + piece.score)?;
        }
        Ok(())
    }
}
