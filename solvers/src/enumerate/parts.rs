//! The candidate graph's strongly connected parts, the independent pieces of a
//! collection.
//!
//! The candidate graph has an arc `u → v` when `u` is a parent in some candidate of `v`.
//! Every directed cycle of a network made of candidates runs along such arcs, so it lies
//! inside one strongly connected part: a choice of one candidate per node is acyclic
//! exactly when its restriction to each part is. The score is a sum over nodes, so the
//! networks scoring at least `T` are the combinations of one piece per part whose scores
//! add up to `T`: each part can be enumerated alone.
//!
//! Candidates that no network scoring at least `T` can use are dropped first, which
//! splits the parts further: a candidate `c` of `v` in part `P` is kept only when
//! `s_v(c) + Σ_{u ∈ P, u ≠ v} best_u + Σ_{Q ≠ P} opt_Q ≥ T`, with `best_u` a node's best
//! candidate and `opt_Q` the best score part `Q` can reach (module `completion`; the sum
//! of its nodes' bests before that is known). Dropping candidates splits parts and
//! lowers their `opt`, so the rule is applied until nothing more is dropped.

use super::choices::SearchTooLarge;
use super::completion::Completion;
use super::{PartSearch, EXACT_UP_TO, MAX_CHOICES, MAX_ROOT_GAP_PERCENT, MAX_VARIABLES};
use bnsl_formulations::strong_components::strongly_connected_components;
use bnsl_formulations::ScoreTable;
use std::collections::HashMap;
use std::rc::Rc;

/// One candidate of a node of a part.
#[derive(Clone, Copy, Debug)]
pub(super) struct PartCandidate {
    /// Its index in the table's candidate list of the node.
    pub(super) index: usize,
    /// Its parents inside the part, as a mask over the part's local indices.
    pub(super) mask: u64,
    /// Its local score.
    pub(super) score: f64,
}

/// A strongly connected part of the candidate graph, with the candidates kept.
#[derive(Clone, Debug)]
pub(super) struct Part {
    /// Its nodes, increasing; local index `k` is `nodes[k]`.
    pub(super) nodes: Vec<usize>,
    /// Per local node, its candidates kept, best first.
    pub(super) candidates: Vec<Vec<PartCandidate>>,
    /// Its completion values or optimum; `None` until the parts' optima are used.
    pub(super) completion: Option<Rc<Completion>>,
}

impl Part {
    /// The best score the part's nodes can reach together.
    pub(super) fn optimum(&self) -> f64 {
        self.completion().optimum()
    }

    /// Its completion values or optimum.
    pub(super) fn completion(&self) -> &Completion {
        self.completion
            .as_deref()
            .expect("a part is enumerated once its completion is known")
    }

    /// The sum of its nodes' best candidates, a bound on its optimum that ignores
    /// acyclicity.
    fn best_sum(&self) -> f64 {
        self.candidates.iter().map(|c| c[0].score).sum()
    }
}

/// A strongly connected part of the candidate graph cannot be enumerated.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PartTooLarge {
    /// It has more variables than a mask holds.
    #[error(
        "enumerating networks handles parts of at most {MAX_VARIABLES} variables of the \
         candidate graph (strongly connected, after dropping the candidates no network \
         within the threshold uses); this table has one of {0}"
    )]
    Variables(usize),
    /// Its cluster bound is too loose for the search by choices.
    #[error(
        "a part of {0} variables of the candidate graph (strongly connected, after dropping \
         the candidates no network within the threshold uses) has too many conflicting \
         arcs for the enumeration: beyond {EXACT_UP_TO} variables its cluster bound at the \
         root must lie within {MAX_ROOT_GAP_PERCENT} % of the lowest score of interest, and \
         the search for its optimum within {MAX_CHOICES} choices"
    )]
    TooManyConflicts(usize),
}

/// Slack for sums of floating-point scores taken in different orders: bounds are
/// compared with `T − slack`, and only the final sum in node order decides.
pub(super) fn slack(threshold: f64) -> f64 {
    1e-8 * (1.0 + threshold.abs())
}

/// The parts of `table`'s candidate graph once the candidates no network scoring at
/// least `threshold` uses are dropped (module doc), ordered by their smallest node;
/// `None` when no network reaches `threshold`. The rule runs first with every part
/// bounded by the sum of its nodes' best candidates, then with the parts' optima, each
/// part's completion values computed once for its nodes and candidates.
pub(super) fn split(
    table: &ScoreTable,
    threshold: f64,
    search: &PartSearch,
) -> Result<Option<Vec<Part>>, PartTooLarge> {
    let n = table.n();
    let mut kept: Vec<Vec<usize>> = (0..n)
        .map(|v| (0..table.candidates(v).len()).collect())
        .collect();
    let floor = threshold - slack(threshold);
    let mut completions: Option<Completions> = None;
    loop {
        let groups = strongly_connected(&arcs(table, &kept));
        let mut parts: Vec<Part> = groups.iter().map(|g| part(table, g, &kept)).collect();
        if let Some(known) = completions.as_mut() {
            if let Some(size) = parts.iter().map(|p| p.nodes.len()).max() {
                if size > MAX_VARIABLES {
                    return Err(PartTooLarge::Variables(size));
                }
            }
            complete(&mut parts, &kept, floor, search, known)?;
            // Keep only the tables of this round's parts: a part that lost candidates
            // will not come back.
            known.retain(|_, values| Rc::strong_count(values) > 1);
        }
        let bounds: Vec<f64> = parts.iter().map(part_bound).collect();
        let total: f64 = bounds.iter().sum();
        if total < floor || total == f64::NEG_INFINITY {
            return Ok(None);
        }
        if !drop_unusable(table, &parts, &bounds, floor, &mut kept) {
            if completions.is_none() {
                completions = Some(Completions::default());
                continue;
            }
            return Ok(Some(parts));
        }
    }
}

/// Drops from `kept` the candidates that no network reaching `floor` can use, given
/// the parts' `bounds` (module doc); whether any was dropped.
fn drop_unusable(
    table: &ScoreTable,
    parts: &[Part],
    bounds: &[f64],
    floor: f64,
    kept: &mut [Vec<usize>],
) -> bool {
    let total: f64 = bounds.iter().sum();
    let mut dropped = false;
    for (p, bound) in parts.iter().zip(bounds) {
        let others = total - bound;
        let bests = p.best_sum();
        for (local, &v) in p.nodes.iter().enumerate() {
            let rest = others + bests - p.candidates[local][0].score;
            let before = kept[v].len();
            kept[v].retain(|&i| table.candidates(v)[i].score + rest >= floor);
            dropped |= kept[v].len() < before;
        }
    }
    dropped
}

/// Completions already computed, by a part's nodes and their candidates kept.
type Completions = HashMap<(Vec<usize>, Vec<Vec<usize>>), Rc<Completion>>;

/// The best score `part` can reach: its optimum once its completion is known, else the
/// sum of its nodes' best candidates.
fn part_bound(part: &Part) -> f64 {
    match &part.completion {
        Some(completion) => completion.optimum(),
        None => part.best_sum(),
    }
}

/// `arcs[u]`: the nodes `v` with `u` a parent in a kept candidate of `v`.
fn arcs(table: &ScoreTable, kept: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut arcs = vec![Vec::new(); table.n()];
    for (v, list) in kept.iter().enumerate() {
        let mut parents: Vec<usize> = list
            .iter()
            .flat_map(|&i| table.candidates(v)[i].parents.iter())
            .collect();
        parents.sort_unstable();
        parents.dedup();
        for u in parents {
            arcs[u].push(v);
        }
    }
    arcs
}

/// Gives every part its completion (module `completion`), from `known` when computed
/// before: the small parts first, then the large ones, each with the floor that the
/// other parts' bounds leave it.
fn complete(
    parts: &mut [Part],
    kept: &[Vec<usize>],
    floor: f64,
    search: &PartSearch,
    known: &mut Completions,
) -> Result<(), PartTooLarge> {
    let mut by_size: Vec<usize> = (0..parts.len()).collect();
    by_size.sort_by_key(|&k| parts[k].nodes.len());
    for k in by_size {
        let key = (
            parts[k].nodes.clone(),
            parts[k].nodes.iter().map(|&v| kept[v].clone()).collect(),
        );
        if let Some(completion) = known.get(&key) {
            parts[k].completion = Some(completion.clone());
            continue;
        }
        let others: f64 = parts
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != k)
            .map(|(_, p)| part_bound(p))
            .sum();
        let completion = Completion::new(&parts[k].candidates, search, floor - others)
            .map_err(|SearchTooLarge| PartTooLarge::TooManyConflicts(parts[k].nodes.len()))?;
        let completion = Rc::new(completion);
        known.insert(key, completion.clone());
        parts[k].completion = Some(completion);
    }
    Ok(())
}

/// The part of the nodes `group` (increasing) with their kept candidates, its
/// completion not yet known. Only the first 64 nodes have mask bits: a larger part is
/// used for its scores only, and refused before its completion is computed.
fn part(table: &ScoreTable, group: &[usize], kept: &[Vec<usize>]) -> Part {
    let local_bit = |u: usize| {
        group
            .binary_search(&u)
            .map_or(0, |k| 1u64.checked_shl(k as u32).unwrap_or(0))
    };
    let candidates: Vec<Vec<PartCandidate>> = group
        .iter()
        .map(|&v| {
            kept[v]
                .iter()
                .map(|&index| {
                    let c = &table.candidates(v)[index];
                    PartCandidate {
                        index,
                        mask: c.parents.iter().fold(0, |m, u| m | local_bit(u)),
                        score: c.score,
                    }
                })
                .collect()
        })
        .collect();
    Part {
        nodes: group.to_vec(),
        candidates,
        completion: None,
    }
}

/// The mask of local nodes `0..n`.
pub(super) fn full_mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// The members of a mask, in increasing order.
pub(super) fn members(mask: u64) -> impl Iterator<Item = usize> {
    let mut left = mask;
    std::iter::from_fn(move || {
        (left != 0).then(|| {
            let v = left.trailing_zeros() as usize;
            left &= left - 1;
            v
        })
    })
}

/// The strongly connected components of the graph `arcs`, each as its nodes in
/// increasing order, ordered by smallest node.
pub(super) fn strongly_connected(arcs: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut groups = strongly_connected_components(arcs);
    for group in &mut groups {
        group.sort_unstable();
    }
    groups.sort_unstable_by_key(|g| g[0]);
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strongly_connected_parts_of_a_small_graph() {
        // 0 → 1 → 2 → 0, 2 → 3, 3 → 4 → 3, 5 alone.
        let arcs = vec![vec![1], vec![2], vec![0, 3], vec![4], vec![3], vec![]];
        assert_eq!(
            strongly_connected(&arcs),
            vec![vec![0, 1, 2], vec![3, 4], vec![5]]
        );
    }
}
