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
    mut lists: Vec<Vec<Piece>>,
    threshold: f64,
    max_networks: usize,
    budget: &Budget,
) -> (Vec<(Dag, f64)>, EnumerationEnd) {
    if lists.iter().any(Vec::is_empty) {
        return (Vec::new(), EnumerationEnd::Complete);
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
        table,
        parts,
        lists: &lists,
        best_after,
        threshold,
        floor: threshold - slack(threshold),
        choice: vec![0; table.n()],
        max_networks,
        budget,
        steps: 0,
        out: Vec::new(),
    };
    let end = search
        .extend(0, 0.0)
        .err()
        .unwrap_or(EnumerationEnd::Complete);
    (search.out, end)
}

/// The state of the search over the parts.
struct Combination<'a> {
    table: &'a ScoreTable,
    parts: &'a [Part],
    lists: &'a [Vec<Piece>],
    best_after: Vec<f64>,
    threshold: f64,
    floor: f64,
    /// The candidate index of every node of the parts chosen so far.
    choice: Vec<usize>,
    max_networks: usize,
    budget: &'a Budget<'a>,
    steps: u64,
    out: Vec<(Dag, f64)>,
}

impl Combination<'_> {
    /// Chooses the pieces of parts `k..`, those before scoring `partial`.
    fn extend(&mut self, k: usize, partial: f64) -> Result<(), EnumerationEnd> {
        if k == self.lists.len() {
            return self.record();
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

    /// Stores the network of the current choices when it reaches the threshold; `Err`
    /// at the network limit.
    fn record(&mut self) -> Result<(), EnumerationEnd> {
        let chosen: Vec<_> = (0..self.table.n())
            .map(|v| &self.table.candidates(v)[self.choice[v]])
            .collect();
        let score = chosen.iter().fold(0.0, |sum, c| sum + c.score);
        if score < self.threshold {
            return Ok(());
        }
        let parents = chosen.iter().map(|c| c.parents.clone()).collect();
        self.out.push((Dag::from_parents(parents), score));
        if self.out.len() >= self.max_networks {
            return Err(EnumerationEnd::NetworkLimit);
        }
        Ok(())
    }
}
