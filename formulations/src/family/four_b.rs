//! The 4B inequalities: a class of facets of the family-variable polytope on four nodes
//! that the cluster constraints do not imply (the convex hull of the 543 DAGs on four
//! nodes, Cussens, Järvisalo, Korhonen & Bartlett 2017, JAIR 58; GOBNILP separates them as
//! its "convexhull4b" cuts).
//!
//! For distinct nodes (a, b, c, d), with P = Π ∩ {a, b, c, d} the parents a family has
//! among them, the families counted are
//!
//! ```text
//! a:  d ∈ P  and (b ∈ P or c ∈ P)
//! b: (a ∈ P or c ∈ P) and (c ∈ P or d ∈ P)
//! c: (a ∈ P or b ∈ P) and (b ∈ P or d ∈ P)
//! d:  a ∈ P  and (b ∈ P or c ∈ P)
//! ```
//!
//! and in a DAG at most two of the four nodes take such a family, so their columns sum
//! to at most 2. The inequality is the same when a and d swap, or b and c, so each four
//! node set has six of them, one per pair {a, d}. The point x(a, {b, d}) = x(b, {a, d}) =
//! x(d, {a, b, c}) = ½, x(c, {b}) = 1 (the other halves on empty parent sets) satisfies
//! every cluster constraint and sums to 2.5 (tests).
//!
//! Separation here enumerates, on the support of an LP solution, the pairs {a, d} that
//! are each other's parents (a family of a holding d and one of d holding a: without
//! both, the cluster constraints already bound the sum by 2), and the pairs {b, c} of
//! their neighbours in the support graph.

use super::separation::{Support, SUPPORT_TOLERANCE};
use super::FamilyIlp;
use crate::varset::VarSet;

/// A 4B inequality over the nodes `(a, b, c, d)`: the columns of the families above sum
/// to at most 2.
#[derive(Clone, Debug, PartialEq)]
pub struct FourBCut {
    /// The nodes (a, b, c, d), with a < d and b < c.
    pub nodes: [usize; 4],
    /// The family columns counted, ascending; each has coefficient 1.
    pub columns: Vec<usize>,
}

/// The right-hand side of every 4B inequality.
pub const FOUR_B_UPPER: f64 = 2.0;

impl FourBCut {
    /// The inequality of `nodes` = (a, b, c, d) in `ilp`, its nodes put in the order
    /// a < d, b < c (the same inequality).
    pub fn new(ilp: &FamilyIlp<'_>, nodes: [usize; 4]) -> Self {
        let nodes = canonical(nodes);
        let columns = nodes
            .iter()
            .flat_map(|&v| ilp.columns_of(v))
            .filter(|&col| counts(&nodes, ilp.family(col).0, ilp.parents(col)))
            .collect();
        FourBCut { nodes, columns }
    }

    /// How much `values` violate the inequality (positive when violated).
    pub fn violation(&self, values: &[f64]) -> f64 {
        self.columns.iter().map(|&c| values[c]).sum::<f64>() - FOUR_B_UPPER
    }
}

/// `nodes` in the order a < d, b < c.
fn canonical([a, b, c, d]: [usize; 4]) -> [usize; 4] {
    [a.min(d), b.min(c), b.max(c), a.max(d)]
}

/// Whether the family of `child` with `parents` is counted in the 4B inequality of
/// `nodes` = (a, b, c, d).
fn counts(nodes: &[usize; 4], child: usize, parents: &VarSet) -> bool {
    let [a, b, c, d] = nodes.map(|u| parents.contains(u));
    match nodes.iter().position(|&u| u == child) {
        Some(0) => d && (b || c),
        // (a or c) and (c or d)
        Some(1) => c || (a && d),
        // (a or b) and (b or d)
        Some(2) => b || (a && d),
        Some(3) => a && (b || c),
        _ => false,
    }
}

/// The support's value of `v`'s families counted in the inequality of `nodes`.
fn counted_value(support: &Support, nodes: &[usize; 4], v: usize) -> f64 {
    support
        .families(v)
        .iter()
        .filter(|(parents, _)| counts(nodes, v, parents))
        .map(|(_, x)| x)
        .sum()
}

/// The 4B inequalities that the solution behind `support` violates by at least
/// `min_violation`: most violated first, at most `max_cuts`, at most one per four-node
/// set, none whose nodes `known` holds (as [`FourBCut::nodes`]).
pub fn separate_four_b(
    ilp: &FamilyIlp<'_>,
    support: &Support,
    min_violation: f64,
    max_cuts: usize,
    known: impl Fn(&[usize; 4]) -> bool,
) -> Vec<FourBCut> {
    let n = support.n();
    let linked = |u: usize, v: usize| {
        support.weight(u, v) > SUPPORT_TOLERANCE || support.weight(v, u) > SUPPORT_TOLERANCE
    };
    let mut found: Vec<(f64, [usize; 4])> = Vec::new();
    for a in 0..n {
        for d in a + 1..n {
            if support.weight(d, a) <= SUPPORT_TOLERANCE
                || support.weight(a, d) <= SUPPORT_TOLERANCE
            {
                continue;
            }
            let near: Vec<usize> = (0..n)
                .filter(|&u| u != a && u != d && (linked(u, a) || linked(u, d)))
                .collect();
            for (i, &b) in near.iter().enumerate() {
                for &c in &near[i + 1..] {
                    let nodes = [a, b, c, d];
                    let sum: f64 = nodes
                        .iter()
                        .map(|&v| counted_value(support, &nodes, v))
                        .sum();
                    let violation = sum - FOUR_B_UPPER;
                    if violation >= min_violation && !known(&nodes) {
                        found.push((violation, nodes));
                    }
                }
            }
        }
    }
    found.sort_by(|x, y| y.0.total_cmp(&x.0));
    let mut sets: Vec<VarSet> = Vec::new();
    let mut cuts = Vec::new();
    for (_, nodes) in found {
        let set = VarSet::from_members(n, nodes);
        if sets.contains(&set) {
            continue;
        }
        sets.push(set);
        cuts.push(FourBCut::new(ilp, nodes));
        if cuts.len() == max_cuts {
            break;
        }
    }
    cuts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score_table::{Candidate, ScoreTable};

    /// Four nodes, every parent set a candidate (the empty set first).
    fn full_table() -> ScoreTable {
        let sets = |v: usize| -> Vec<Candidate> {
            let others: Vec<usize> = (0..4).filter(|&u| u != v).collect();
            (0u32..8)
                .map(|mask| Candidate {
                    parents: VarSet::from_members(
                        4,
                        (0..3).filter(|i| mask >> i & 1 == 1).map(|i| others[i]),
                    ),
                    score: -(mask.count_ones() as f64),
                })
                .collect()
        };
        let names = (0..4).map(|v| format!("v{v}")).collect();
        ScoreTable::new(names, (0..4).map(sets).collect()).unwrap()
    }

    /// Whether the parent sets `choice` (one per node) form a DAG.
    fn acyclic(choice: &[&VarSet]) -> bool {
        let mut left: Vec<usize> = (0..choice.len()).collect();
        while let Some(i) = left
            .iter()
            .position(|&v| !left.iter().any(|&u| choice[v].contains(u)))
        {
            left.swap_remove(i);
        }
        left.is_empty()
    }

    #[test]
    fn no_dag_on_four_nodes_counts_more_than_two_families() {
        let table = full_table();
        let ilp = FamilyIlp::new(&table);
        let cuts: Vec<FourBCut> = [[0, 1, 2, 3], [1, 0, 3, 2], [2, 3, 0, 1], [0, 2, 1, 3]]
            .into_iter()
            .map(|nodes| FourBCut::new(&ilp, nodes))
            .collect();
        let (mut dags, mut tight) = (0, 0);
        for choice in (0..4096u32).map(|i| [i & 7, i >> 3 & 7, i >> 6 & 7, i >> 9 & 7]) {
            let parents: Vec<&VarSet> = (0..4)
                .map(|v| &table.candidates(v)[choice[v] as usize].parents)
                .collect();
            if !acyclic(&parents) {
                continue;
            }
            dags += 1;
            let mut values = vec![0.0; ilp.num_columns()];
            for v in 0..4 {
                values[ilp.column(v, choice[v] as usize)] = 1.0;
            }
            for cut in &cuts {
                let violation = cut.violation(&values);
                assert!(violation <= 0.0, "{:?} violated by {choice:?}", cut.nodes);
                tight += usize::from(violation == 0.0);
            }
        }
        assert_eq!(dags, 543);
        assert!(tight > 0, "some DAG meets an inequality with equality");
    }

    #[test]
    fn separates_a_point_that_meets_every_cluster_constraint() {
        let table = full_table();
        let ilp = FamilyIlp::new(&table);
        let column = |v: usize, parents: &[usize]| {
            let set = VarSet::from_members(4, parents.iter().copied());
            let k = table.candidates(v).iter().position(|c| c.parents == set);
            ilp.column(v, k.unwrap())
        };
        let mut values = vec![0.0; ilp.num_columns()];
        for (v, parents, x) in [
            (0, &[][..], 0.5),
            (0, &[1, 3][..], 0.5),
            (1, &[][..], 0.5),
            (1, &[0, 3][..], 0.5),
            (2, &[1][..], 1.0),
            (3, &[][..], 0.5),
            (3, &[0, 1, 2][..], 0.5),
        ] {
            values[column(v, parents)] = x;
        }
        let support = Support::new(&ilp, &values);
        for mask in 3u32..16 {
            let cluster = VarSet::from_members(4, (0..4).filter(|v| mask >> v & 1 == 1));
            if cluster.len() >= 2 {
                assert!(support.violation(&cluster) <= 1e-12, "{cluster:?}");
            }
        }
        let cuts = separate_four_b(&ilp, &support, 1e-6, 10, |_| false);
        assert_eq!(cuts.len(), 1);
        assert_eq!(cuts[0].nodes, [0, 1, 2, 3]);
        assert!((cuts[0].violation(&values) - 0.5).abs() < 1e-12);
        assert!(
            separate_four_b(&ilp, &support, 1e-6, 10, |nodes| *nodes == [0, 1, 2, 3]).is_empty()
        );
    }
}
