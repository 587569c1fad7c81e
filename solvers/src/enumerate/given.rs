//! Every acyclic choice of candidates given directly as masks, for a few nodes: the
//! enumeration of a region of a collection's search (module `ilp::small_region`), whose
//! nodes' parents are masks over the region's open nodes, several candidates of a node
//! possibly with the same mask.
//!
//! As for a score table (module doc of [`super`]): candidates that miss the floor with
//! every other node at its best are dropped, the rest fall into strongly connected
//! parts, each part is enumerated under its completion values (module `search`), and the
//! choices are the combinations of one piece per part that reach the floor.

use super::combine::each_combination;
use super::completion::completion_values;
use super::parts::{members, slack, strongly_connected, Part, PartCandidate};
use super::search::{pieces_within, PieceLimit};
use super::{EXACT_UP_TO, MAX_VARIABLES};
use crate::heuristics::Budget;

/// Every acyclic choice of one candidate per node scoring at least `threshold`, for at
/// most [`MAX_VARIABLES`] nodes given directly: per node its candidates, each as the
/// mask of its parents (bit `u`: node `u`) and its score. Each choice is given as the
/// position of every node's candidate in its list; its score, summed in any order, lies
/// above the threshold or within rounding ([`slack`]) below it. `None` for more nodes,
/// or when a strongly connected part has more than `max_part` (at most
/// [`EXACT_UP_TO`]) nodes.
pub(crate) fn choices_within(
    candidates: &[Vec<(u64, f64)>],
    threshold: f64,
    max_part: usize,
) -> Option<Vec<Vec<usize>>> {
    let n = candidates.len();
    if n > MAX_VARIABLES {
        return None;
    }
    let max_part = max_part.min(EXACT_UP_TO);
    let floor = threshold - slack(threshold);
    let Some(lists) = usable(candidates, floor) else {
        return Some(Vec::new());
    };
    let groups = strongly_connected(&arcs(&lists));
    if groups.iter().any(|g| g.len() > max_part) {
        return None;
    }
    let parts: Vec<Part> = groups
        .into_iter()
        .map(|nodes| part_of(&lists, nodes))
        .collect();
    let values: Vec<Vec<f64>> = parts
        .iter()
        .map(|p| completion_values(&p.candidates))
        .collect();
    let optima: Vec<f64> = values.iter().map(|v| v[v.len() - 1]).collect();
    let total: f64 = optima.iter().sum();
    if total < floor {
        return Some(Vec::new());
    }
    let everything = PieceLimit {
        count: usize::MAX,
        scoring_at_least: f64::NEG_INFINITY,
    };
    let mut pieces = Vec::with_capacity(parts.len());
    for ((part, values), optimum) in parts.iter().zip(&values).zip(&optima) {
        let part_floor = floor - (total - optimum);
        let found =
            pieces_within(part, values, part_floor, everything, &Budget::unlimited()).ok()?;
        pieces.push(found);
    }
    let mut choices = Vec::new();
    let mut keep = |choice: &[usize]| {
        choices.push(choice.to_vec());
        Ok(())
    };
    each_combination(n, &parts, pieces, floor, &Budget::unlimited(), &mut keep).ok()?;
    Some(choices)
}

/// Per node, its candidates that can reach `floor` with every other node at its best,
/// best first, each with its position in the node's list; `None` when a node has none.
fn usable(candidates: &[Vec<(u64, f64)>], floor: f64) -> Option<Vec<Vec<PartCandidate>>> {
    let mut lists: Vec<Vec<PartCandidate>> = candidates
        .iter()
        .map(|list| {
            let mut sorted: Vec<PartCandidate> = list
                .iter()
                .enumerate()
                .map(|(index, &(mask, score))| PartCandidate { index, mask, score })
                .collect();
            sorted.sort_by(|a, b| b.score.total_cmp(&a.score));
            sorted
        })
        .collect();
    let bests: f64 = lists
        .iter()
        .map(|list| list.first().map_or(f64::NEG_INFINITY, |c| c.score))
        .sum();
    if bests < floor {
        return None;
    }
    for list in &mut lists {
        let others = bests - list[0].score;
        list.retain(|c| c.score + others >= floor);
    }
    Some(lists)
}

/// `arcs[u]`: the nodes with a usable candidate that has `u` as a parent.
fn arcs(lists: &[Vec<PartCandidate>]) -> Vec<Vec<usize>> {
    let mut arcs = vec![Vec::new(); lists.len()];
    for (v, list) in lists.iter().enumerate() {
        let parents = list.iter().fold(0u64, |m, c| m | c.mask) & !(1 << v);
        for u in members(parents) {
            arcs[u].push(v);
        }
    }
    arcs
}

/// The part of `nodes` (increasing): their candidates with masks over the part's local
/// indices (a parent outside the part cannot close a cycle through it).
fn part_of(lists: &[Vec<PartCandidate>], nodes: Vec<usize>) -> Part {
    let local = |mask: u64| {
        nodes
            .iter()
            .enumerate()
            .filter(|&(_, &u)| mask >> u & 1 == 1)
            .fold(0u64, |m, (k, _)| m | 1 << k)
    };
    let candidates = nodes
        .iter()
        .map(|&v| {
            lists[v]
                .iter()
                .map(|c| PartCandidate {
                    mask: local(c.mask),
                    ..*c
                })
                .collect()
        })
        .collect();
    Part {
        nodes,
        candidates,
        completion: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Whether giving node `v` the parents `masks[v]` makes an acyclic graph.
    fn acyclic(masks: &[u64]) -> bool {
        let mut placed = 0u64;
        while placed.count_ones() < masks.len() as u32 {
            let ready = (0..masks.len()).find(|&v| placed >> v & 1 == 0 && masks[v] & !placed == 0);
            match ready {
                Some(v) => placed |= 1 << v,
                None => return false,
            }
        }
        true
    }

    /// Every acyclic choice reaching `threshold`, by trying them all.
    fn by_product(candidates: &[Vec<(u64, f64)>], threshold: f64) -> Vec<Vec<usize>> {
        let mut all = vec![Vec::new()];
        for list in candidates {
            all = all
                .into_iter()
                .flat_map(|choice: Vec<usize>| {
                    (0..list.len()).map(move |i| {
                        let mut next = choice.clone();
                        next.push(i);
                        next
                    })
                })
                .collect();
        }
        all.retain(|choice| {
            let masks: Vec<u64> = choice
                .iter()
                .zip(candidates)
                .map(|(&i, l)| l[i].0)
                .collect();
            let score: f64 = choice.iter().zip(candidates).map(|(&i, l)| l[i].1).sum();
            acyclic(&masks) && score >= threshold
        });
        all.sort();
        all
    }

    fn arb_candidates() -> impl Strategy<Value = Vec<Vec<(u64, f64)>>> {
        (1usize..=6).prop_flat_map(|n| {
            proptest::collection::vec(
                proptest::collection::vec((0u64..(1 << n), -20i32..0), 1..5),
                n,
            )
            .prop_map(move |lists| {
                lists
                    .into_iter()
                    .enumerate()
                    .map(|(v, list)| {
                        list.into_iter()
                            .map(|(mask, s)| (mask & !(1 << v), f64::from(s)))
                            .collect()
                    })
                    .collect()
            })
        })
    }

    proptest! {
        /// The choices equal the acyclic ones of the full product that reach the
        /// threshold, with candidates of the same mask kept apart, and with any part
        /// limit the choices are those or none.
        #[test]
        fn choices_equal_the_filtered_product(
            candidates in arb_candidates(),
            below in 0u32..30,
            max_part in 1usize..=6,
        ) {
            let best: f64 = candidates
                .iter()
                .map(|l| l.iter().map(|c| c.1).fold(f64::NEG_INFINITY, f64::max))
                .sum();
            let threshold = best - f64::from(below);
            let expected = by_product(&candidates, threshold);
            let mut found = choices_within(&candidates, threshold, EXACT_UP_TO).unwrap();
            found.sort();
            prop_assert_eq!(&found, &expected);
            if let Some(mut limited) = choices_within(&candidates, threshold, max_part) {
                limited.sort();
                prop_assert_eq!(&limited, &expected);
            }
        }
    }
}
