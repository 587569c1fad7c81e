//! Anytime parent-set identification for many variables (Scanagatta, de Campos,
//! Corani & Zaffalon 2015, *Learning Bayesian Networks with Thousands of Variables*,
//! NIPS 2015, §3).
//!
//! Each variable is explored on its own, in parallel, for a time budget, with one of
//! three strategies sharing the same closed list (explored parent sets with exact
//! scores), pruning rules and final subset-dominance filter:
//! - [`Search::Sequential`]: all sets of size 1, then 2, … up to the parent limit;
//! - [`Search::Greedy`]: greedy selection, expanding the best-scoring explored set;
//! - [`Search::Independence`]: independence selection, ordering the open list by the
//!   BIC* approximation (Eq. 1) and pruning with Theorem 2.
//!
//! Families are scored one at a time through [`LocalScorer`] (two counting passes each),
//! so at equal budgets the strategies differ only in which sets they explore.

mod closed;
mod greedy;
mod independence;
mod sequential;

use super::candidates::{GenerationStats, Pruning};
use super::local::LocalScorer;
use bnsl_formulations::{Candidate, ScoreTable, VarSet};
use closed::Explorer;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The order in which parent sets are explored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Search {
    /// All parent sets by increasing size, up to the parent limit.
    Sequential,
    /// Greedy selection (Scanagatta et al. 2015, §3): expand the best-scoring explored set
    /// by one variable.
    Greedy,
    /// Independence selection (Scanagatta et al. 2015, §3.2): open list ordered by BIC*
    /// (Eq. 1).
    Independence,
}

/// Options of [`select_candidates`].
#[derive(Clone, Debug, PartialEq)]
pub struct SelectionOptions {
    /// Exploration strategy.
    pub search: Search,
    /// Wall-clock budget per variable (`None`: until the strategy runs out of sets).
    pub time_per_var: Option<Duration>,
    /// Largest parent set explored (`None`: no limit beyond the pruning rules).
    pub max_parents: Option<usize>,
    /// Pruning of the bound rules and of subset dominance (see [`super::candidates`]).
    pub pruning: Pruning,
    /// Per child, the variables allowed as its parents (`None`: every other variable),
    /// as in [`super::CandidateOptions::allowed_parents`].
    pub allowed_parents: Option<Vec<VarSet>>,
}

/// Explores candidate parent sets of every variable with `opts`, in parallel over the
/// variables, and returns the table of kept sets (dominated sets removed). `on_variable`
/// is called once per finished variable.
pub fn select_candidates(
    scorer: &LocalScorer,
    opts: &SelectionOptions,
    on_variable: &(dyn Fn() + Sync),
) -> (ScoreTable, GenerationStats) {
    let n = scorer.data().n_vars();
    let scored = AtomicU64::new(0);
    let candidates: Vec<Vec<Candidate>> = (0..n)
        .into_par_iter()
        .map(|child| {
            let deadline = opts.time_per_var.map(|t| Instant::now() + t);
            let mut ex = Explorer::new(scorer, child, opts, deadline);
            match opts.search {
                Search::Sequential => sequential::run(&mut ex),
                Search::Greedy => greedy::run(&mut ex),
                Search::Independence => independence::run(&mut ex),
            }
            scored.fetch_add(ex.len() as u64, Ordering::Relaxed);
            on_variable();
            ex.into_kept()
        })
        .collect();
    let families_scored = scored.into_inner();
    let stats = GenerationStats {
        families_scored,
        families_kept: candidates.iter().map(|c| c.len() as u64).sum(),
        sets_counted: 2 * families_scored,
        parent_limit: candidates
            .iter()
            .flatten()
            .map(|c| c.parents.len())
            .max()
            .unwrap_or(0),
    };
    let table = ScoreTable::new(scorer.data().names(), candidates)
        .expect("explored sets are unique, finite, and include the empty set");
    (table, stats)
}

#[cfg(test)]
mod tests;
