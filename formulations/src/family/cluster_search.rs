//! Exact cluster separation by a combinatorial branch and bound, an alternative to the
//! sub-IP of [`super::separation_ip`] that solves the same problem (Bartlett & Cussens
//! 2017, §5: find clusters C with a positive violation) without an LP.
//!
//! With `in_v(C) = Σ_{Π ∩ C ≠ ∅} x*(v, Π)` (at most 1), the violation of C is
//! `1 − Σ_{v ∈ C} (1 − in_v(C))`: one minus the *deficit* of C's nodes. `in_v` only grows
//! with C, so while the search has put the nodes I in C and may still add the nodes U,
//! `1 − Σ_{v ∈ I} (1 − in_v(I ∪ U))` bounds the violation of every cluster it can reach;
//! a node whose own deficit already exceeds what the bound leaves cannot join. The search
//! includes or excludes one node at a time, prunes by the bound, and records every
//! cluster violated by at least the requested amount. A visit budget keeps it cheap; the
//! outcome says whether the search was complete (then no unrecorded cluster is violated).

use super::separation::Support;
use crate::varset::VarSet;

/// What the search found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClusterSearch {
    /// Violated clusters with their violation, most violated first.
    pub clusters: Vec<(f64, VarSet)>,
    /// Whether the search finished within its budget: then every cluster violated by at
    /// least the requested amount is among `clusters` (up to `max_clusters`, which keeps
    /// the most violated).
    pub complete: bool,
}

/// Finds clusters violated by at least `min_violation` in `support`, visiting at most
/// `budget` search nodes and keeping the `max_clusters` most violated.
pub fn search_clusters(
    support: &Support,
    min_violation: f64,
    budget: usize,
    max_clusters: usize,
) -> ClusterSearch {
    let n = support.n();
    let mut alive = VarSet::from_members(n, (0..n).filter(|&v| !support.families(v).is_empty()));
    // A node whose parent mass inside the candidates is below δ has a deficit above
    // 1 − δ on its own: it belongs to no violated cluster. Peel such nodes.
    loop {
        let dead: Vec<usize> = alive
            .iter()
            .filter(|&v| inside_mass(support, v, &alive) < min_violation)
            .collect();
        if dead.is_empty() {
            break;
        }
        for v in dead {
            alive.remove(v);
        }
    }
    let mut order: Vec<usize> = alive.iter().collect();
    order.sort_by(|&a, &b| {
        inside_mass(support, b, &alive).total_cmp(&inside_mass(support, a, &alive))
    });
    let mut state = Search {
        support,
        min_violation,
        budget,
        visits: 0,
        order,
        found: Vec::new(),
    };
    state.visit(0, VarSet::empty(n), alive, false);
    let complete = state.visits <= budget;
    let mut clusters = state.found;
    clusters.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    clusters.truncate(max_clusters);
    ClusterSearch { clusters, complete }
}

/// `in_v(S)`: node v's support mass on parent sets that meet S.
fn inside_mass(support: &Support, v: usize, set: &VarSet) -> f64 {
    support
        .families(v)
        .iter()
        .filter(|(p, _)| p.intersects(set))
        .map(|(_, x)| x)
        .sum()
}

struct Search<'s> {
    support: &'s Support,
    min_violation: f64,
    budget: usize,
    visits: usize,
    order: Vec<usize>,
    found: Vec<(f64, VarSet)>,
}

impl Search<'_> {
    /// Total deficit of `nodes` measured against `set`.
    fn deficit(&self, nodes: &VarSet, set: &VarSet) -> f64 {
        nodes
            .iter()
            .map(|v| 1.0 - inside_mass(self.support, v, set))
            .sum()
    }

    /// Explores the clusters containing `inside` within `avail` (⊇ `inside`), deciding
    /// the nodes `order[k..]`. `fresh`: `inside` was just extended (so it is met here
    /// for the first time and may be recorded).
    fn visit(&mut self, k: usize, inside: VarSet, mut avail: VarSet, fresh: bool) {
        self.visits += 1;
        if self.visits > self.budget {
            return;
        }
        let slack = 1.0 - self.deficit(&inside, &avail) - self.min_violation;
        if slack < 0.0 {
            return;
        }
        if fresh && inside.len() >= 2 {
            let violation = 1.0 - self.deficit(&inside, &inside);
            if violation >= self.min_violation {
                self.found.push((violation, inside.clone()));
            }
        }
        // Nodes whose own deficit exceeds the slack cannot join.
        for &u in &self.order[k..] {
            if avail.contains(u) && 1.0 - inside_mass(self.support, u, &avail) > slack {
                avail.remove(u);
            }
        }
        let Some(pos) = (k..self.order.len()).find(|&i| avail.contains(self.order[i])) else {
            return;
        };
        let v = self.order[pos];
        self.visit(pos + 1, inside.with(v), avail.clone(), true);
        avail.remove(v);
        self.visit(pos + 1, inside, avail, false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::FamilyIlp;
    use crate::score_table::{Candidate, ScoreTable};

    /// Five nodes; each may take any one or two other nodes as parents, or none.
    fn table() -> ScoreTable {
        let n = 5;
        let lists = (0..n)
            .map(|v| {
                let mut list = vec![Candidate {
                    parents: VarSet::empty(n),
                    score: -10.0,
                }];
                for u in (0..n).filter(|&u| u != v) {
                    list.push(Candidate {
                        parents: VarSet::from_members(n, [u]),
                        score: -5.0 - u as f64,
                    });
                    for w in (u + 1..n).filter(|&w| w != v) {
                        list.push(Candidate {
                            parents: VarSet::from_members(n, [u, w]),
                            score: -4.0 - (u + w) as f64,
                        });
                    }
                }
                list
            })
            .collect();
        ScoreTable::new((0..n).map(|i| format!("v{i}")).collect(), lists).unwrap()
    }

    /// Every cluster's violation, by enumeration.
    fn all_violations(support: &Support) -> Vec<(f64, VarSet)> {
        let n = support.n();
        (0u32..1 << n)
            .filter(|m| m.count_ones() >= 2)
            .map(|m| {
                let c = VarSet::from_members(n, (0..n).filter(|&v| m >> v & 1 == 1));
                (support.violation(&c), c)
            })
            .collect()
    }

    #[test]
    fn finds_exactly_the_violated_clusters() {
        let t = table();
        let ilp = FamilyIlp::new(&t);
        // Pseudo-random fractional points, each node's values summing to 1.
        let mut violated_points = 0;
        for seed in 0u64..40 {
            let mut state = seed * 2654435761 + 12345;
            let mut next = || {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (state >> 33) as f64 / (1u64 << 31) as f64
            };
            let mut values = vec![0.0; ilp.num_columns()];
            for v in 0..t.n() {
                let cols: Vec<usize> = ilp.columns_of(v).collect();
                let raw: Vec<f64> = cols
                    .iter()
                    .map(|_| if next() < 0.3 { next() } else { 0.0 })
                    .collect();
                let total: f64 = raw.iter().sum::<f64>() + 1e-9;
                for (c, r) in cols.iter().zip(&raw) {
                    values[*c] = r / total;
                }
            }
            let support = Support::new(&ilp, &values);
            let delta = 1e-4;
            let found = search_clusters(&support, delta, 1_000_000, usize::MAX);
            assert!(found.complete);
            let mut expected: Vec<VarSet> = all_violations(&support)
                .into_iter()
                .filter(|(viol, _)| *viol >= delta)
                .map(|(_, c)| c)
                .collect();
            let mut got: Vec<VarSet> = found.clusters.iter().map(|(_, c)| c.clone()).collect();
            expected.sort();
            got.sort();
            assert_eq!(got, expected, "seed {seed}");
            violated_points += usize::from(!expected.is_empty());
        }
        assert!(
            violated_points > 5,
            "{violated_points} points with violated clusters"
        );
    }

    #[test]
    fn a_tiny_budget_is_reported_incomplete() {
        let t = table();
        let ilp = FamilyIlp::new(&t);
        let mut values = vec![0.0; ilp.num_columns()];
        for v in 0..t.n() {
            // Half on the empty set, half on the first single parent: a dense half-cycle.
            let cols: Vec<usize> = ilp.columns_of(v).collect();
            values[cols[0]] = 0.5;
            values[cols[1]] = 0.5;
        }
        let support = Support::new(&ilp, &values);
        assert!(!search_clusters(&support, 1e-4, 1, 10).complete);
    }
}
