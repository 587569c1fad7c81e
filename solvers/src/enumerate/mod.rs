//! Every network within a score threshold: the exact reference for collecting the
//! networks within a Bayes factor of the optimum (seed 002, "The Bayes Factor
//! Approach"), for tables whose candidate graph falls into parts of at most
//! [`MAX_VARIABLES`] variables.
//!
//! A network is acyclic exactly when its restriction to every strongly connected part of
//! the candidate graph is, and its score is a sum over the parts (module `parts`). So each
//! part is enumerated alone, by a depth-first search in canonical topological order
//! bounded by the part's exact completion values (module `search`), or, for a part too
//! large for those values, by a depth-first search over its nodes' choices (module
//! `choices`), and the networks are the combinations of one piece per part that reach
//! the threshold (module `combine`). Each
//! network is built once, and its score summed in node order decides, as
//! [`Dag::check`](bnsl_formulations::Dag::check) sums it.

mod choices;
mod cluster_bound;
mod combine;
mod completion;
mod given;
mod parts;
mod search;

use crate::heuristics::{asobs_search, AsobsOptions, Budget, LocalSearch};
use crate::stop::StopToken;
use bnsl_formulations::{Dag, ScoreTable};
use completion::Completion;
pub(crate) use given::choices_within;
pub use parts::PartTooLarge;
use parts::{slack, split, Part};
use search::{pieces_within, Piece, PieceLimit};
use std::time::{Duration, Instant};

/// The most variables a part of the candidate graph may have: a part's nodes are the bits
/// of a 64-bit mask.
pub const MAX_VARIABLES: usize = 64;

/// A part of at most this many variables gets exact completion values, one per subset.
const EXACT_UP_TO: usize = 25;

/// How far a larger part's bound at the root may lie above the floor, in percent of it,
/// for the search over its choices to be tried.
const MAX_ROOT_GAP_PERCENT: f64 = 2.0;

/// Choices the search for a larger part's optimum may take.
const MAX_CHOICES: u64 = 20_000;

/// Which parts get exact completion values, and when the search over a larger part's
/// choices is tried (module `choices`).
#[derive(Clone, Debug)]
struct PartSearch {
    /// A part of at most this many nodes gets its completion values.
    exact_up_to: usize,
    /// A larger part is searched only when the bound at the root lies at most this far
    /// above the floor, relative to the floor: further, the bound cuts too little.
    max_root_gap: f64,
    /// The search for a larger part's optimum gives up after this many choices.
    max_steps: u64,
}

impl Default for PartSearch {
    fn default() -> Self {
        PartSearch {
            exact_up_to: EXACT_UP_TO,
            max_root_gap: MAX_ROOT_GAP_PERCENT / 100.0,
            max_steps: MAX_CHOICES,
        }
    }
}

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
/// does), and why the enumeration ended.
#[derive(Clone, Debug)]
pub struct Enumeration {
    /// The networks and their scores.
    pub networks: Vec<(Dag, f64)>,
    /// Why it ended.
    pub end: EnumerationEnd,
}

/// Every DAG made of `table`'s candidates whose score is at least `threshold`, within
/// `limits` (see the module doc).
pub fn networks_within(
    table: &ScoreTable,
    threshold: f64,
    limits: &EnumerationLimits,
) -> Result<Enumeration, PartTooLarge> {
    within(table, threshold, limits, &PartSearch::default())
}

/// [`networks_within`] with large parts searched as `search` says.
fn within(
    table: &ScoreTable,
    threshold: f64,
    limits: &EnumerationLimits,
    search: &PartSearch,
) -> Result<Enumeration, PartTooLarge> {
    Ok(match split(table, threshold, search)? {
        Some(parts) => enumerate_parts(table, &parts, threshold, limits),
        None => Enumeration {
            networks: Vec::new(),
            end: EnumerationEnd::Complete,
        },
    })
}

/// The optimum and the networks within a gap of it.
#[derive(Clone, Debug)]
pub struct NearOptimum {
    /// The best score of a DAG of the table's candidates.
    pub optimum: f64,
    /// How long finding the optimum took.
    pub time_to_optimum: Duration,
    /// Every DAG scoring at least the optimum less the gap.
    pub found: Enumeration,
}

/// Orders whose ASOBS networks give [`networks_near_optimum`] its first threshold.
const LOWER_BOUND_ORDERS: u64 = 16;

/// The optimum of `table` and every network scoring at least the optimum less `gap`,
/// within `limits`, from one split: the best ASOBS network of a few random orders
/// scores `L` ≤ OPT, so the candidates that no network scoring `L − gap` uses can go;
/// the optimum is the sum of the parts' optima, and the parts are enumerated down to
/// OPT − gap. `None` when no DAG is made of the candidates.
pub fn networks_near_optimum(
    table: &ScoreTable,
    gap: f64,
    limits: &EnumerationLimits,
) -> Result<Option<NearOptimum>, PartTooLarge> {
    near_optimum(table, gap, limits, &PartSearch::default())
}

/// [`networks_near_optimum`] with large parts searched as `search` says.
fn near_optimum(
    table: &ScoreTable,
    gap: f64,
    limits: &EnumerationLimits,
    search: &PartSearch,
) -> Result<Option<NearOptimum>, PartTooLarge> {
    let start = Instant::now();
    let orders = AsobsOptions {
        time_limit: None,
        max_restarts: Some(LOWER_BOUND_ORDERS),
        seed: 0,
        local_search: LocalSearch::None,
        stop: limits.stop.clone(),
        ..AsobsOptions::default()
    };
    let lower = asobs_search(table, &orders).map_or(f64::NEG_INFINITY, |best| best.score);
    let Some(parts) = split(table, lower - gap, search)? else {
        return Ok(None);
    };
    let optimum: f64 = parts.iter().map(Part::optimum).sum();
    let time_to_optimum = start.elapsed();
    let limits = EnumerationLimits {
        time_limit: limits.time_limit.map(|t| t.saturating_sub(time_to_optimum)),
        ..limits.clone()
    };
    let found = enumerate_parts(table, &parts, optimum - gap, &limits);
    Ok(Some(NearOptimum {
        optimum,
        time_to_optimum,
        found,
    }))
}

/// The networks of `parts` (split for a threshold at most `threshold`) scoring at least
/// `threshold`, within `limits`.
fn enumerate_parts(
    table: &ScoreTable,
    parts: &[Part],
    threshold: f64,
    limits: &EnumerationLimits,
) -> Enumeration {
    let deadline = limits.time_limit.map(|t| Instant::now() + t);
    let budget = Budget::new(deadline, &limits.stop);
    let max_networks = limits.max_networks.unwrap_or(usize::MAX);
    let (lists, end) = pieces_of(parts, threshold, max_networks, &budget);
    // Once stopped, the pieces found are still combined, within the network limit.
    let combine_budget = match end {
        EnumerationEnd::Stopped => Budget::unlimited(),
        _ => budget,
    };
    let (networks, combined_end) = combine::networks(
        table,
        parts,
        lists,
        threshold,
        max_networks,
        &combine_budget,
    );
    let end = match (end, combined_end) {
        (EnumerationEnd::Stopped, _) | (_, EnumerationEnd::Stopped) => EnumerationEnd::Stopped,
        (EnumerationEnd::Complete, EnumerationEnd::Complete) => EnumerationEnd::Complete,
        _ => EnumerationEnd::NetworkLimit,
    };
    Enumeration { networks, end }
}

/// The pieces of every part that can be in a network scoring at least `threshold`, and
/// whether a limit cut a list short. Once stopped, each part left gets its best piece
/// only, so that what was found still combines into networks.
fn pieces_of(
    parts: &[Part],
    threshold: f64,
    max_pieces: usize,
    budget: &Budget,
) -> (Vec<Vec<Piece>>, EnumerationEnd) {
    let optima: Vec<f64> = parts.iter().map(Part::optimum).collect();
    let total: f64 = optima.iter().sum();
    let floor = threshold - slack(threshold);
    let mut end = EnumerationEnd::Complete;
    let lists = parts
        .iter()
        .zip(&optima)
        .map(|(part, optimum)| {
            let part_floor = floor - (total - optimum);
            let found = match end {
                EnumerationEnd::Stopped => {
                    let best_only = PieceLimit {
                        count: 1,
                        scoring_at_least: f64::NEG_INFINITY,
                    };
                    pieces_of_part(part, part_floor, best_only, &Budget::unlimited())
                }
                _ => {
                    let limit = PieceLimit {
                        count: max_pieces,
                        scoring_at_least: threshold - (total - optimum),
                    };
                    pieces_of_part(part, part_floor, limit, budget)
                }
            };
            match found {
                Ok(pieces) => pieces,
                Err((pieces, why)) => {
                    if end != EnumerationEnd::Stopped {
                        end = why;
                    }
                    pieces
                }
            }
        })
        .collect();
    (lists, end)
}

/// The pieces of `part` scoring at least `threshold`: in canonical topological order
/// when its completion values are known, else by its nodes' choices.
fn pieces_of_part(
    part: &Part,
    threshold: f64,
    limit: PieceLimit,
    budget: &Budget,
) -> Result<Vec<Piece>, (Vec<Piece>, EnumerationEnd)> {
    match part.completion() {
        Completion::Exact(values) => pieces_within(part, values, threshold, limit, budget),
        Completion::Optimum(_) => {
            choices::pieces_by_choices(&part.candidates, threshold, limit, budget)
        }
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

    /// Tables of up to `max_n` nodes whose candidates use only a few of the other nodes,
    /// so that their candidate graphs fall into several parts.
    fn arb_sparse_table(max_n: usize) -> impl Strategy<Value = ScoreTable> {
        (3..=max_n).prop_flat_map(|n| {
            let lists = proptest::collection::vec(
                (
                    0u32..(1 << n),
                    0u32..(1 << n),
                    proptest::collection::vec((0u32..(1 << n), -200i32..-1), 0..4),
                ),
                n,
            );
            // Each node's parents come from about a quarter of the nodes.
            lists.prop_map(move |raw| {
                let raw: Vec<Vec<(u32, i32)>> = raw
                    .into_iter()
                    .map(|(a, b, list)| list.into_iter().map(|(m, s)| (m & a & b, s)).collect())
                    .collect();
                table_from(n, &raw)
            })
        })
    }

    /// Checks `found`, an enumeration at `threshold`, against the filtered product, set
    /// for set.
    fn check_against_product(
        table: &ScoreTable,
        found: &Enumeration,
        threshold: f64,
    ) -> Result<(), TestCaseError> {
        prop_assert_eq!(found.end, EnumerationEnd::Complete);
        let mut got: Vec<(Vec<VarSet>, f64)> = found
            .networks
            .iter()
            .map(|(d, s)| {
                prop_assert_eq!(d.check(table).unwrap(), *s);
                Ok((d.all_parents().to_vec(), *s))
            })
            .collect::<Result<_, _>>()?;
        let mut want = by_product(table, threshold);
        got.sort_by(|a, b| a.0.cmp(&b.0));
        want.sort_by(|a, b| a.0.cmp(&b.0));
        prop_assert_eq!(&got, &want);
        Ok(())
    }

    /// The enumeration at `threshold` against the filtered product.
    fn check_within(table: &ScoreTable, threshold: f64) -> Result<(), TestCaseError> {
        let found = networks_within(table, threshold, &EnumerationLimits::default()).unwrap();
        check_against_product(table, &found, threshold)
    }

    /// Every part of more than one node searched by its nodes' choices, whatever its
    /// bound.
    fn by_choices() -> PartSearch {
        PartSearch {
            exact_up_to: 1,
            max_root_gap: f64::INFINITY,
            max_steps: u64::MAX,
        }
    }

    proptest! {
        /// On tables whose candidate graph has several parts, the enumeration still
        /// equals the filtered product, and so does the collection near the optimum,
        /// whose optimum by parts is the DP's.
        #[test]
        fn parts_combine_into_the_filtered_product(table in arb_sparse_table(7), slack in 0u32..40) {
            let opt = solve_dp(&table, &DpOptions::default()).unwrap();
            let gap = f64::from(slack) / 4.0;
            check_within(&table, opt.score - gap)?;
            let near = networks_near_optimum(&table, gap, &EnumerationLimits::default())
                .unwrap()
                .unwrap();
            prop_assert!((near.optimum - opt.score).abs() < 1e-9);
            check_against_product(&table, &near.found, near.optimum - gap)?;
        }

        /// Searched by the nodes' choices, bounded by clusters, every part gives the same
        /// networks and the same optimum.
        #[test]
        fn the_search_by_choices_equals_the_filtered_product(
            table in prop_oneof![arb_table(6), arb_sparse_table(8)],
            slack in 0u32..40,
        ) {
            let opt = solve_dp(&table, &DpOptions::default()).unwrap();
            let gap = f64::from(slack) / 4.0;
            let limits = EnumerationLimits::default();
            let found = within(&table, opt.score - gap, &limits, &by_choices()).unwrap();
            check_against_product(&table, &found, opt.score - gap)?;
            let near = near_optimum(&table, gap, &limits, &by_choices()).unwrap().unwrap();
            prop_assert!((near.optimum - opt.score).abs() < 1e-9);
            check_against_product(&table, &near.found, near.optimum - gap)?;
        }

        /// The enumeration equals the filtered product of the candidate lists, set for
        /// set (so each DAG comes once), with the same scores; every network checks against the table; with the
        /// optimum as threshold it finds exactly the optimal networks, the DP's among them.
        #[test]
        fn equals_the_filtered_product(table in arb_table(5), slack in 0u32..40) {
            let opt = solve_dp(&table, &DpOptions::default()).unwrap();
            check_within(&table, opt.score - f64::from(slack) / 4.0)?;
            let optimal = networks_within(&table, opt.score, &EnumerationLimits::default()).unwrap();
            prop_assert!(!optimal.networks.is_empty());
            prop_assert!(optimal.networks.iter().all(|(_, s)| *s == opt.score));
            prop_assert!(optimal.networks.iter().any(|(d, _)| *d == opt.dag));
        }
    }

    /// 15 pairs of nodes, each node with the empty set (−10) or its partner as parent
    /// (−9 for the first of the pair, −9.5 for the second): 30 variables in parts of 2.
    fn pairs_table() -> ScoreTable {
        let n = 30;
        let raw: Vec<Vec<(u32, i32)>> = (0..n)
            .map(|v| {
                let partner = v ^ 1;
                let score = if v % 2 == 0 { -18 } else { -19 };
                vec![(1u32 << partner, score)]
            })
            .collect();
        // table_from gives every node the empty set at −100 and halves the scores.
        let table = table_from(n, &raw);
        let (names, candidates) = table.into_parts();
        let candidates = candidates
            .into_iter()
            .map(|list| {
                list.into_iter()
                    .map(|c| bnsl_formulations::Candidate {
                        score: if c.parents.is_empty() { -10.0 } else { c.score },
                        parents: c.parents,
                    })
                    .collect()
            })
            .collect();
        ScoreTable::new(names, candidates).unwrap()
    }

    #[test]
    fn more_variables_than_one_part_may_have_in_small_parts() {
        let table = pairs_table();
        let count = |gap: f64| {
            let near = networks_near_optimum(&table, gap, &EnumerationLimits::default())
                .unwrap()
                .unwrap();
            assert_eq!(near.optimum, -285.0);
            assert_eq!(near.found.end, EnumerationEnd::Complete);
            assert!(near
                .found
                .networks
                .iter()
                .all(|(d, s)| d.check(&table).unwrap() == *s && *s >= -285.0 - gap));
            near.found.networks.len()
        };
        // Losses per pair: 0 (first takes the second), 0.5 (the other way), 1 (no arc).
        assert_eq!(count(0.0), 1);
        assert_eq!(count(0.6), 1 + 15);
        assert_eq!(count(1.0), 1 + 15 + 15 * 14 / 2 + 15);
    }

    /// The table of these candidate lists, nodes named `x0`, `x1`, ….
    fn named(candidates: Vec<Vec<bnsl_formulations::Candidate>>) -> ScoreTable {
        let names = (0..candidates.len()).map(|i| format!("x{i}")).collect();
        ScoreTable::new(names, candidates).unwrap()
    }

    /// A ring of `n` nodes: node `v` has the empty set (−10) or its predecessor (−9).
    fn ring_table(n: usize) -> ScoreTable {
        let candidates = (0..n)
            .map(|v| {
                vec![
                    bnsl_formulations::Candidate {
                        parents: VarSet::from_members(n, [(v + n - 1) % n]),
                        score: -9.0,
                    },
                    bnsl_formulations::Candidate {
                        parents: VarSet::empty(n),
                        score: -10.0,
                    },
                ]
            })
            .collect();
        named(candidates)
    }

    #[test]
    fn a_part_too_large_for_completion_values_is_searched_by_choices() {
        // One part of 40 nodes: the optimum drops one arc of the ring (40 ways), one
        // more unit drops two (780 ways).
        let table = ring_table(40);
        let near = networks_near_optimum(&table, 1.0, &EnumerationLimits::default())
            .unwrap()
            .unwrap();
        assert_eq!(near.optimum, -361.0);
        assert_eq!(near.found.end, EnumerationEnd::Complete);
        assert_eq!(near.found.networks.len(), 40 + 780);
        assert!(near
            .found
            .networks
            .iter()
            .all(|(d, s)| d.check(&table).unwrap() == *s && *s >= -362.0));
        let optimal = networks_within(&table, -361.0, &EnumerationLimits::default()).unwrap();
        assert_eq!(optimal.networks.len(), 40);
    }

    #[test]
    fn a_part_beyond_the_limit_is_refused() {
        // A ring of 65 nodes: more than a mask holds.
        let n = MAX_VARIABLES + 1;
        let table = ring_table(n);
        let err =
            networks_within(&table, f64::NEG_INFINITY, &EnumerationLimits::default()).unwrap_err();
        assert_eq!(err, PartTooLarge::Variables(n));
        // The optimum leaves one node of the ring without its parent: every candidate
        // stays, and so does the part.
        let near = networks_near_optimum(&table, 0.0, &EnumerationLimits::default());
        assert_eq!(near.unwrap_err(), PartTooLarge::Variables(n));
    }

    #[test]
    fn a_part_whose_bound_is_loose_is_refused() {
        // 30 nodes, each with every other node as a single parent (−1) or none (−3).
        // The optimum is −32 (one node without a parent), and so is the bound at the
        // root, but with a gap of 5 it lies 13 % above the floor (−37): refused.
        let n = 30;
        let candidates = (0..n)
            .map(|v| {
                let mut list: Vec<_> = (0..n)
                    .filter(|&u| u != v)
                    .map(|u| bnsl_formulations::Candidate {
                        parents: VarSet::from_members(n, [u]),
                        score: -1.0,
                    })
                    .collect();
                list.push(bnsl_formulations::Candidate {
                    parents: VarSet::empty(n),
                    score: -3.0,
                });
                list
            })
            .collect();
        let table = named(candidates);
        let err = networks_near_optimum(&table, 5.0, &EnumerationLimits::default()).unwrap_err();
        assert_eq!(err, PartTooLarge::TooManyConflicts(n));
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
