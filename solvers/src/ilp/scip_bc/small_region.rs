//! The DAGs of a small region of a collection's tree, by enumeration instead of a
//! subtree of LP solves.
//!
//! A node of the collecting branch and cut (module `collector`) holds the DAGs whose
//! columns lie within its local bounds: per node of the network, the columns it still
//! allows. When few nodes keep a choice, the others' families are settled, and the
//! region's DAGs are the acyclic choices of the open nodes alone once each candidate's
//! parents are replaced by the open nodes they reach through settled families (a cycle
//! through settled nodes is a cycle between those open nodes). Those choices are listed
//! by the enumeration of [`crate::enumerate`] (its candidates that cannot reach the
//! threshold dropped, the rest in strongly connected parts, each part's completion
//! values one per subset), faster than SCIP solves the node's LP when the parts are
//! small ([`DEFAULT_REGION_PART`]).

use crate::enumerate::{choices_within, MAX_VARIABLES};
use bnsl_formulations::FamilyIlp;

/// The default of [`ScipBcSettings::region_part`](super::ScipBcSettings::region_part):
/// completion values over the subsets of such parts stay cheaper than an LP.
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
}
