//! The DAGs of a small region of a collection's search, by enumeration instead of a
//! subtree of LP or MIP solves.
//!
//! A region of a collection (a node of SCIP's collecting branch and cut,
//! `scip_bc::collector`, or a subproblem of the cut loop's, `collect_loop`) holds the
//! DAGs whose columns lie within its bounds: per node of the network, the columns it
//! still allows. A DAG found in a region is excluded by splitting the region into
//! children ([`settling_order`], [`child_region`]).
//!
//! When few nodes keep a choice, the others' families are settled, and the region's
//! DAGs are the acyclic choices of the open nodes alone once each candidate's parents
//! are replaced by the open nodes they reach through settled families (a cycle through
//! settled nodes is a cycle between those open nodes). Those choices are listed by the
//! enumeration of [`crate::enumerate`] (its candidates that cannot reach the threshold
//! dropped, the rest in strongly connected parts, each part's completion values one per
//! subset), faster than an LP or MIP solve of the region when the parts are small.

use crate::enumerate::{choices_within, MAX_VARIABLES};
use bnsl_formulations::FamilyIlp;

/// The largest part of a region SCIP's collection enumerates by default (its
/// `region_part`): completion values over the subsets of such parts stay cheaper than
/// the LP of a node.
#[cfg(feature = "scip")]
pub(super) const DEFAULT_REGION_PART: usize = 12;

/// The largest part the enumeration takes (its completion values, one per subset).
pub(super) const MAX_REGION_PART: usize = 25;

/// The columns (one per node) of every DAG of the region `allowed` (per node of the
/// network, the columns it allows) scoring at least `threshold` (or within rounding
/// below it); `None` when more than [`MAX_VARIABLES`] nodes keep a choice (the open
/// nodes are bits of a mask), or the candidates left make a strongly connected part of
/// more than `max_part` of them.
pub(super) fn dags_of_region(
    ilp: &FamilyIlp<'_>,
    allowed: &[Vec<usize>],
    threshold: f64,
    max_part: usize,
) -> Option<Vec<Vec<usize>>> {
    let open: Vec<usize> = (0..allowed.len())
        .filter(|&v| allowed[v].len() > 1)
        .collect();
    if open.len() > MAX_VARIABLES {
        return None;
    }
    if allowed.iter().any(Vec::is_empty) {
        return Some(Vec::new());
    }
    let Some(reach) = Reach::new(ilp, allowed, &open) else {
        return Some(Vec::new()); // the settled families close a cycle
    };
    let settled: f64 = (0..allowed.len())
        .filter(|&v| allowed[v].len() == 1)
        .map(|v| column_score(ilp, allowed[v][0]))
        .sum();
    let candidates: Vec<Vec<(u64, f64)>> = open
        .iter()
        .map(|&v| {
            allowed[v]
                .iter()
                .map(|&c| (reach.through(ilp, c), column_score(ilp, c)))
                .collect()
        })
        .collect();
    let choices = choices_within(&candidates, threshold - settled, max_part)?;
    Some(
        choices
            .into_iter()
            .map(|choice| {
                let mut columns: Vec<usize> = allowed.iter().map(|list| list[0]).collect();
                for (k, &v) in open.iter().enumerate() {
                    columns[v] = allowed[v][choice[k]];
                }
                columns
            })
            .collect(),
    )
}

/// The DAG's free columns `free` (one per node), in the order the no-good's children
/// settle them ([`child_region`]).
///
/// Child i settles the nodes of the first i columns and holds the DAGs that first
/// differ from this one at the i-th. Two things make the children cheap:
/// - once the nodes that tie the region's candidate graph together are settled, the
///   later children's regions fall apart into small parts and are enumerated instead of
///   solved, so nodes with many neighbours go first;
/// - a node with many alternatives to its column holds many of the DAGs that differ
///   from this one, and settled early it leaves them in the first children, which are
///   large, so such nodes go later.
///
/// The key is a node's neighbours over the logarithm of one plus its alternatives,
/// times neighbours over alternatives where the alternatives are more (a hub whose
/// alternatives outnumber its links holds more DAGs than it ties the graph), largest
/// first (ties keep the order of `free`). Neighbours are the open nodes it shares a
/// candidate arc with, either way; both counts are over the candidates that can reach
/// `threshold` with every other node at its best (the rule of [`choices_within`]).
pub(super) fn settling_order(
    ilp: &FamilyIlp<'_>,
    region: &[Vec<usize>],
    free: &[usize],
    threshold: f64,
) -> Vec<usize> {
    let mut order = free.to_vec();
    let Some(usable) = usable_columns(ilp, region, threshold) else {
        return order; // nothing reaches the threshold: every child is empty
    };
    let open = |v: usize| region[v].len() > 1;
    let mut links: Vec<(usize, usize)> = Vec::new();
    for v in (0..region.len()).filter(|&v| open(v)) {
        for &c in &usable[v] {
            for u in ilp.parents(c).iter().filter(|&u| open(u)) {
                links.push((u.min(v), u.max(v)));
            }
        }
    }
    links.sort_unstable();
    links.dedup();
    let mut neighbours = vec![0usize; region.len()];
    for (u, v) in links {
        neighbours[u] += 1;
        neighbours[v] += 1;
    }
    let key = |c: usize| {
        let v = ilp.family(c).0;
        let (links, alternatives) = (neighbours[v] as f64, usable[v].len() as f64);
        links / (1.0 + alternatives).ln() * (links / alternatives).min(1.0)
    };
    order.sort_by(|&a, &b| key(b).total_cmp(&key(a)));
    order
}

/// Per node, the region's columns that can reach `threshold` with every other node at
/// its best; `None` when every node at its best misses it.
fn usable_columns(
    ilp: &FamilyIlp<'_>,
    region: &[Vec<usize>],
    threshold: f64,
) -> Option<Vec<Vec<usize>>> {
    let best: Vec<f64> = region
        .iter()
        .map(|columns| {
            columns
                .iter()
                .map(|&c| column_score(ilp, c))
                .fold(f64::NEG_INFINITY, f64::max)
        })
        .collect();
    let total: f64 = best.iter().sum();
    if total.is_nan() || total < threshold {
        return None;
    }
    Some(
        region
            .iter()
            .zip(&best)
            .map(|(columns, &b)| {
                columns
                    .iter()
                    .copied()
                    .filter(|&c| column_score(ilp, c) + total - b >= threshold)
                    .collect()
            })
            .collect(),
    )
}

/// The region of the child that fixes the columns `kept` to 1 and `column` to 0 in
/// `region`.
pub(super) fn child_region(
    ilp: &FamilyIlp<'_>,
    region: &[Vec<usize>],
    kept: &[usize],
    column: usize,
) -> Vec<Vec<usize>> {
    let mut child = region.to_vec();
    for &c in kept {
        child[ilp.family(c).0] = vec![c];
    }
    child[ilp.family(column).0].retain(|&c| c != column);
    child
}

/// The local score of a column's family.
fn column_score(ilp: &FamilyIlp<'_>, column: usize) -> f64 {
    let (v, k) = ilp.family(column);
    ilp.table().candidates(v)[k].score
}

/// Per node, the open nodes it reaches upward through settled families (an open node
/// reaches itself), as a mask over the open nodes' positions.
struct Reach {
    up: Vec<u64>,
}

impl Reach {
    /// `None` when the settled families close a cycle.
    fn new(ilp: &FamilyIlp<'_>, allowed: &[Vec<usize>], open: &[usize]) -> Option<Reach> {
        const UNSEEN: u8 = 0;
        const ON_PATH: u8 = 1;
        const DONE: u8 = 2;
        let n = allowed.len();
        let mut up = vec![0u64; n];
        let mut state = vec![UNSEEN; n];
        for (k, &v) in open.iter().enumerate() {
            up[v] = 1 << k;
            state[v] = DONE;
        }
        // Settled nodes in depth-first post-order over their parents.
        for start in 0..n {
            if state[start] != UNSEEN {
                continue;
            }
            let mut stack = vec![(start, false)];
            while let Some((v, expanded)) = stack.pop() {
                let parents = ilp.parents(allowed[v][0]);
                if expanded {
                    up[v] = parents.iter().fold(0, |m, p| m | up[p]);
                    state[v] = DONE;
                    continue;
                }
                if state[v] == DONE {
                    continue;
                }
                state[v] = ON_PATH;
                stack.push((v, true));
                for p in parents.iter() {
                    match state[p] {
                        UNSEEN => stack.push((p, false)),
                        ON_PATH => return None,
                        _ => {}
                    }
                }
            }
        }
        Some(Reach { up })
    }

    /// The open nodes the parents of `column` reach.
    fn through(&self, ilp: &FamilyIlp<'_>, column: usize) -> u64 {
        ilp.parents(column).iter().fold(0, |m, p| m | self.up[p])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_tables::table_from;

    /// A cycle through a settled node is a cycle between the open nodes it links: with
    /// 1 ← 0 settled, 0 ← 2 and 2 ← 1 together would close 0 → 1 → 2 → 0, and the
    /// region's three other choices are its DAGs.
    #[test]
    fn a_cycle_through_a_settled_family_is_excluded() {
        let table = table_from(
            3,
            &[vec![(0b100, -1)], vec![(0b001, -1)], vec![(0b010, -1)]],
        );
        let ilp = FamilyIlp::new(&table);
        let column = |v: usize, parents: u32| {
            ilp.columns_of(v)
                .find(|&c| ilp.parents(c).iter().fold(0u32, |m, p| m | 1 << p) == parents)
                .unwrap()
        };
        let allowed = vec![
            vec![column(0, 0), column(0, 0b100)],
            vec![column(1, 0b001)],
            vec![column(2, 0), column(2, 0b010)],
        ];
        let mut dags = dags_of_region(&ilp, &allowed, -1000.0, 2).unwrap();
        dags.sort();
        let mut expected = vec![
            vec![column(0, 0), column(1, 0b001), column(2, 0)],
            vec![column(0, 0b100), column(1, 0b001), column(2, 0)],
            vec![column(0, 0), column(1, 0b001), column(2, 0b010)],
        ];
        expected.sort();
        assert_eq!(dags, expected);
        assert_eq!(
            dags_of_region(&ilp, &allowed, -1000.0, 1),
            None,
            "a part of two nodes"
        );
        let above = dags_of_region(&ilp, &allowed, -101.5, 2).unwrap();
        assert_eq!(
            above.len(),
            2,
            "the threshold drops the network scoring −200.5"
        );
    }

    /// Nodes that tie the graph together go first, discounted by their alternatives;
    /// links and alternatives only through candidates that cannot reach the threshold
    /// do not count, and ties keep their order.
    #[test]
    fn connected_nodes_with_few_alternatives_are_settled_first() {
        let table = table_from(
            4,
            &[
                vec![(0b0010, -1), (0b0100, -1), (0b0110, -1), (0b1000, -1000)],
                vec![(0b0001, -1)],
                vec![(0b0001, -1)],
                vec![(0b0100, -1000)],
            ],
        );
        let ilp = FamilyIlp::new(&table);
        let empty: Vec<usize> = (0..4).map(|v| ilp.columns_of(v).start).collect();
        let region: Vec<Vec<usize>> = (0..4).map(|v| ilp.columns_of(v).collect()).collect();
        let free = [empty[3], empty[2], empty[1], empty[0]];
        // 0 ← 3 and 3 ← 2 (−500 each) miss −500 by 101 and 1.5: node 0 has 2
        // neighbours and 4 usable columns (key 2 / ln 5 · 2/4), nodes 1 and 2 one and 2
        // (1 / ln 3 · 1/2), node 3 none.
        assert_eq!(
            settling_order(&ilp, &region, &free, -500.0),
            [empty[0], empty[2], empty[1], empty[3]]
        );
        // With them node 0 has 3 neighbours but 5 columns (3 / ln 6 · 3/5), below nodes
        // 3 and 2 with 2 neighbours and 2 columns (2 / ln 3); node 1 keeps 1 / ln 3 · 1/2.
        assert_eq!(
            settling_order(&ilp, &region, &free, f64::NEG_INFINITY),
            [empty[3], empty[2], empty[0], empty[1]]
        );
    }
}
