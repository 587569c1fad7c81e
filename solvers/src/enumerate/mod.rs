//! Every network within a score threshold: the exact reference for collecting the
//! networks within a Bayes factor of the optimum (seed 002, "The Bayes Factor
//! Approach"), for tables of at most [`MAX_VARIABLES`] variables.
//!
//! Networks are built in a topological order, one node at a time: the next node takes a
//! candidate inside the nodes already placed. Each DAG is built once, in its canonical
//! order: the order that always places the smallest-numbered node whose parents are all
//! placed. So a node `w` passed over for a larger one must later take a parent placed
//! after that moment.
//!
//! The search is bounded by an exact completion value. `H(R)`, for the nodes `R` still
//! to place, is the best score they can add with every other node available as a parent:
//! `H(R) = max over v in R of best_v(V \ R) + H(R \ {v})`, the DP of Silander &
//! Myllymäki run from the sources. A partial network is extended only while its score
//! plus `H` reaches the threshold. Every branch explored therefore has a completion
//! within the threshold, unless only non-canonical completions reach it.

use crate::heuristics::Budget;
use crate::stop::StopToken;
use bnsl_formulations::{Dag, ScoreTable};
use std::time::{Duration, Instant};

/// The most variables [`networks_within`] takes: `H` has one value per subset.
pub const MAX_VARIABLES: usize = 25;

/// Limits of an enumeration.
#[derive(Clone, Debug, Default)]
pub struct EnumerationLimits {
    /// Stop once this many networks are collected.
    pub max_networks: Option<usize>,
    /// Stop after this long.
    pub time_limit: Option<Duration>,
    /// Stop once stopped from outside.
    pub stop: StopToken,
}

/// Why an enumeration ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnumerationEnd {
    /// Every network within the threshold was found.
    Complete,
    /// [`EnumerationLimits::max_networks`] networks were collected; there may be more.
    NetworkLimit,
    /// The time limit or the stop token ended it; there may be more.
    Stopped,
}

/// The networks found, each with its score (summed in node order, as [`Dag::check`]
/// does), in the order found, and why the enumeration ended.
#[derive(Clone, Debug)]
pub struct Enumeration {
    /// The networks and their scores.
    pub networks: Vec<(Dag, f64)>,
    /// Why it ended.
    pub end: EnumerationEnd,
}

/// The table has more variables than the enumeration handles.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("enumerating networks handles at most {MAX_VARIABLES} variables, the table has {0}")]
pub struct TooManyVariables(pub usize);

/// Every DAG made of `table`'s candidates whose score is at least `threshold`, within
/// `limits` (see the module doc).
pub fn networks_within(
    table: &ScoreTable,
    threshold: f64,
    limits: &EnumerationLimits,
) -> Result<Enumeration, TooManyVariables> {
    let n = table.n();
    if n > MAX_VARIABLES {
        return Err(TooManyVariables(n));
    }
    let masks: Vec<Vec<(u32, f64)>> = (0..n)
        .map(|v| {
            table
                .candidates(v)
                .iter()
                .map(|c| (c.parents.low_mask() as u32, c.score))
                .collect()
        })
        .collect();
    let deadline = limits.time_limit.map(|t| Instant::now() + t);
    let mut search = Search {
        completion: completion_values(&masks),
        masks,
        threshold,
        choice: vec![0; n],
        passed_at: vec![None; n],
        budget: Budget::new(deadline, &limits.stop),
        max_networks: limits.max_networks.unwrap_or(usize::MAX),
        steps: 0,
        table,
        out: Vec::new(),
    };
    let end = search
        .extend(0, 0.0)
        .err()
        .unwrap_or(EnumerationEnd::Complete);
    Ok(Enumeration {
        networks: search.out,
        end,
    })
}

/// The index of `v`'s best candidate inside `placed`, if any.
fn best_inside(list: &[(u32, f64)], placed: u32) -> Option<usize> {
    list.iter().position(|&(m, _)| m & !placed == 0)
}

/// `H(R)` for every subset `R` of the nodes (bit mask): the best score the nodes of `R`
/// can add when every node outside `R` is placed before them.
fn completion_values(masks: &[Vec<(u32, f64)>]) -> Vec<f64> {
    let all = full_mask(masks.len());
    let mut h = vec![f64::NEG_INFINITY; all as usize + 1];
    h[0] = 0.0;
    for rest in 1..=all {
        let placed = all & !rest;
        let mut best = f64::NEG_INFINITY;
        for v in members(rest) {
            if let Some(i) = best_inside(&masks[v], placed) {
                best = best.max(masks[v][i].1 + h[(rest & !(1 << v)) as usize]);
            }
        }
        h[rest as usize] = best;
    }
    h
}

/// The mask of nodes `0..n`.
fn full_mask(n: usize) -> u32 {
    ((1u64 << n) - 1) as u32
}

/// The members of a mask, in increasing order.
fn members(mask: u32) -> impl Iterator<Item = usize> {
    (0..32).filter(move |&v| mask >> v & 1 == 1)
}

/// Nodes placed between two looks at the clock.
const STEPS_PER_CLOCK_CHECK: u64 = 4096;

/// The state of the depth-first search.
struct Search<'a> {
    table: &'a ScoreTable,
    masks: Vec<Vec<(u32, f64)>>,
    completion: Vec<f64>,
    threshold: f64,
    /// The candidate index of each placed node.
    choice: Vec<usize>,
    /// For a node not placed: the placed set when a larger node was last placed before
    /// it. Its parents must not all lie inside that set, or the canonical order would
    /// have placed it then.
    passed_at: Vec<Option<u32>>,
    budget: Budget<'a>,
    max_networks: usize,
    steps: u64,
    out: Vec<(Dag, f64)>,
}

impl Search<'_> {
    /// Places the nodes not in `placed`, those in it having scored `partial`; `Err`
    /// when a limit ends the search.
    fn extend(&mut self, placed: u32, partial: f64) -> Result<(), EnumerationEnd> {
        let all = full_mask(self.masks.len());
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
            let mut passed: Option<Vec<(usize, Option<u32>)>> = None;
            for i in 0..self.masks[v].len() {
                let (m, score) = self.masks[v][i];
                if partial + score + after < self.threshold {
                    break;
                }
                if m & !placed != 0 || required.is_some_and(|c| m & !c == 0) {
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
                self.extend(placed | 1 << v, partial + score)?;
            }
            for &(w, before) in passed.iter().flatten() {
                self.passed_at[w] = before;
            }
        }
        Ok(())
    }

    /// Stores the network of the current choices; `Err` at the network limit.
    fn record(&mut self) -> Result<(), EnumerationEnd> {
        let chosen: Vec<_> = (0..self.masks.len())
            .map(|v| &self.table.candidates(v)[self.choice[v]])
            .collect();
        let score = chosen.iter().fold(0.0, |sum, c| sum + c.score);
        let parents = chosen.iter().map(|c| c.parents.clone()).collect();
        self.out.push((Dag::from_parents(parents), score));
        if self.out.len() >= self.max_networks {
            return Err(EnumerationEnd::NetworkLimit);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dp::{solve_dp, DpOptions};
    use crate::test_tables::{arb_table, table_from};
    use bnsl_formulations::VarSet;
    use proptest::prelude::*;

    /// Every combination of one candidate per node, kept when acyclic and within the
    /// threshold.
    fn by_product(table: &ScoreTable, threshold: f64) -> Vec<(Vec<VarSet>, f64)> {
        let mut all = vec![(Vec::new(), 0.0)];
        for v in 0..table.n() {
            all = all
                .into_iter()
                .flat_map(|(sets, score): (Vec<VarSet>, f64)| {
                    table.candidates(v).iter().map(move |c| {
                        let mut s = sets.clone();
                        s.push(c.parents.clone());
                        (s, score + c.score)
                    })
                })
                .collect();
        }
        all.into_iter()
            .filter(|(sets, score)| {
                *score >= threshold && Dag::from_parents(sets.clone()).is_acyclic()
            })
            .collect()
    }

    proptest! {
        /// The enumeration equals the filtered product of the candidate lists, set for
        /// set (so each DAG comes once), with the same scores; every network checks against the table; with the
        /// optimum as threshold it finds exactly the optimal networks, the DP's among them.
        #[test]
        fn equals_the_filtered_product(table in arb_table(5), slack in 0u32..40) {
            let opt = solve_dp(&table, &DpOptions::default()).unwrap();
            let threshold = opt.score - f64::from(slack) / 4.0;
            let found = networks_within(&table, threshold, &EnumerationLimits::default()).unwrap();
            prop_assert_eq!(found.end, EnumerationEnd::Complete);
            let mut got: Vec<(Vec<VarSet>, f64)> = found
                .networks
                .iter()
                .map(|(d, s)| {
                    prop_assert_eq!(d.check(&table).unwrap(), *s);
                    Ok((d.all_parents().to_vec(), *s))
                })
                .collect::<Result<_, _>>()?;
            let mut want = by_product(&table, threshold);
            got.sort_by(|a, b| a.0.cmp(&b.0));
            want.sort_by(|a, b| a.0.cmp(&b.0));
            prop_assert_eq!(&got, &want);
            let optimal = networks_within(&table, opt.score, &EnumerationLimits::default()).unwrap();
            prop_assert!(!optimal.networks.is_empty());
            prop_assert!(optimal.networks.iter().all(|(_, s)| *s == opt.score));
            prop_assert!(optimal.networks.iter().any(|(d, _)| *d == opt.dag));
        }
    }

    #[test]
    fn limits_end_the_search_and_say_so() {
        // Three nodes, each with the empty set and each other node as a single parent.
        let table = table_from(
            3,
            &[
                vec![(2, -1), (4, -1)],
                vec![(1, -1), (4, -1)],
                vec![(1, -1), (2, -1)],
            ],
        );
        let all =
            networks_within(&table, f64::NEG_INFINITY, &EnumerationLimits::default()).unwrap();
        assert_eq!(all.end, EnumerationEnd::Complete);
        assert_eq!(
            all.networks.len(),
            by_product(&table, f64::NEG_INFINITY).len()
        );
        let capped = networks_within(
            &table,
            f64::NEG_INFINITY,
            &EnumerationLimits {
                max_networks: Some(3),
                ..EnumerationLimits::default()
            },
        )
        .unwrap();
        assert_eq!(
            (capped.end, capped.networks.len()),
            (EnumerationEnd::NetworkLimit, 3)
        );
        let stop = StopToken::new();
        stop.stop();
        let stopped = networks_within(
            &table,
            f64::NEG_INFINITY,
            &EnumerationLimits {
                stop,
                ..EnumerationLimits::default()
            },
        )
        .unwrap();
        assert_eq!(stopped.end, EnumerationEnd::Stopped);
        assert!(stopped.networks.is_empty());
    }
}
