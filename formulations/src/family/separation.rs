//! Finding violated cluster constraints for a (fractional) solution of the family ILP:
//! the fast heuristics. The exact separation, a small sub-IP, is built in
//! [`super::separation_ip`] and solved by a back-end.
//!
//! All heuristics work on the *support* of the solution, the families with a positive
//! value, and on its arc weights `w(u → v) = Σ_{Π ∋ u} x(v, Π)` (the LP's belief that u is
//! a parent of v; at most 1). Three sources of clusters:
//! - strongly connected components of the support graph (exact for integral solutions:
//!   every node of a non-trivial component has a parent inside it, so the component is a
//!   cluster violated by 1);
//! - short cycles: a cycle whose arcs have `Σ (1 − w) < 1` gives a cluster violated by at
//!   least `1 − Σ (1 − w)`, and the cycle minimising that sum through each node is found by
//!   a shortest-path search;
//! - greedy growth: every cluster found is grown one node at a time while that increases
//!   the violation (Cussens' clusters are often larger than one cycle).

use super::{ClusterCut, FamilyIlp};
use crate::varset::VarSet;
use rustc_hash::FxHashSet;

/// Values at or below this count as zero.
pub const SUPPORT_TOLERANCE: f64 = 1e-6;

/// The families with positive value in a solution, per node, and the arc weights.
#[derive(Clone, Debug)]
pub struct Support {
    n: usize,
    /// Per node: (parent set, value) of its families with value > [`SUPPORT_TOLERANCE`]
    /// and a non-empty parent set.
    families: Vec<Vec<(VarSet, f64)>>,
    /// `weight[u * n + v]` = w(u → v).
    weight: Vec<f64>,
}

impl Support {
    /// The support of `values` (one value per family column of `ilp`).
    pub fn new(ilp: &FamilyIlp<'_>, values: &[f64]) -> Self {
        let n = ilp.n();
        let mut families = vec![Vec::new(); n];
        let mut weight = vec![0.0; n * n];
        for (v, fams) in families.iter_mut().enumerate() {
            for col in ilp.columns_of(v) {
                let x = values[col];
                let parents = ilp.parents(col);
                if x > SUPPORT_TOLERANCE && !parents.is_empty() {
                    for u in parents.iter() {
                        weight[u * n + v] += x;
                    }
                    fams.push((parents.clone(), x));
                }
            }
        }
        Support {
            n,
            families,
            weight,
        }
    }

    /// Number of nodes.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Node `v`'s support families with a non-empty parent set: (parents, value).
    pub fn families(&self, v: usize) -> &[(VarSet, f64)] {
        &self.families[v]
    }

    /// The arc weight w(u → v).
    pub fn weight(&self, u: usize, v: usize) -> f64 {
        self.weight[u * self.n + v]
    }

    /// The violation of the cluster constraint of `cluster` by the solution:
    /// `Σ_{v ∈ C} Σ_{Π ∩ C ≠ ∅} x(v, Π) − (|C| − 1)`.
    pub fn violation(&self, cluster: &VarSet) -> f64 {
        let inside: f64 = cluster
            .iter()
            .map(|v| {
                self.families[v]
                    .iter()
                    .filter(|(p, _)| p.intersects(cluster))
                    .map(|(_, x)| x)
                    .sum::<f64>()
            })
            .sum();
        inside - (cluster.len() as f64 - 1.0)
    }

    /// The successors of `u` in the support graph (arcs with positive weight).
    fn successors(&self, u: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.n).filter(move |&v| self.weight(u, v) > SUPPORT_TOLERANCE)
    }
}

/// Settings of the heuristic separation.
#[derive(Clone, Debug, PartialEq)]
pub struct SeparationOptions {
    /// Smallest violation for a cut to be returned.
    pub min_violation: f64,
    /// At most this many cuts per call, the most violated first.
    pub max_cuts: usize,
}

impl Default for SeparationOptions {
    fn default() -> Self {
        SeparationOptions {
            min_violation: 1e-4,
            max_cuts: 200,
        }
    }
}

/// Violated cluster constraints found by the heuristics, most violated first, at most
/// `options.max_cuts` of them, each cluster once.
pub fn separate_heuristically(
    ilp: &FamilyIlp<'_>,
    support: &Support,
    options: &SeparationOptions,
) -> Vec<ClusterCut> {
    let mut seeds = strongly_connected_components(support);
    seeds.extend(short_cycles(support));
    let mut seen = FxHashSet::default();
    let mut found: Vec<(f64, VarSet)> = Vec::new();
    for seed in seeds {
        for cluster in [seed.clone(), grow(support, seed)] {
            let violation = support.violation(&cluster);
            if violation >= options.min_violation && seen.insert(cluster.clone()) {
                found.push((violation, cluster));
            }
        }
    }
    found.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    found.truncate(options.max_cuts);
    found
        .into_iter()
        .map(|(_, c)| ilp.cluster_cut(&c))
        .collect()
}

/// The node sets of the non-trivial strongly connected components of the support graph.
pub fn strongly_connected_components(support: &Support) -> Vec<VarSet> {
    let n = support.n();
    let succ: Vec<Vec<usize>> = (0..n).map(|u| support.successors(u).collect()).collect();
    bnsl_core::strong_components::strongly_connected_components(&succ)
        .into_iter()
        .filter(|component| component.len() > 1)
        .map(|component| VarSet::from_members(n, component))
        .collect()
}

/// For every node s, the cycle through s that minimises `Σ (1 − w)` over its arcs, when
/// that sum is below 1 (so the cycle's node set is a violated cluster). Dijkstra from s
/// on arc lengths `1 − w(u → v)` over arcs of positive weight.
pub fn short_cycles(support: &Support) -> Vec<VarSet> {
    let n = support.n();
    let mut cycles = Vec::new();
    let mut dist = vec![f64::INFINITY; n];
    let mut pred = vec![usize::MAX; n];
    let mut done = vec![false; n];
    for s in 0..n {
        dist.fill(f64::INFINITY);
        pred.fill(usize::MAX);
        done.fill(false);
        dist[s] = 0.0;
        let mut closing = (f64::INFINITY, usize::MAX);
        // Dense Dijkstra: O(n²) per source, no heap needed at these sizes.
        while let Some(u) = (0..n)
            .filter(|&u| !done[u] && dist[u] < 1.0)
            .min_by(|&a, &b| dist[a].total_cmp(&dist[b]))
        {
            done[u] = true;
            let back = arc_length(support.weight(u, s));
            if support.weight(u, s) > SUPPORT_TOLERANCE && dist[u] + back < closing.0 {
                closing = (dist[u] + back, u);
            }
            for v in support.successors(u) {
                let d = dist[u] + arc_length(support.weight(u, v));
                // Settled nodes keep their predecessor: the tree stays acyclic.
                if v != s && !done[v] && d < dist[v] {
                    dist[v] = d;
                    pred[v] = u;
                }
            }
        }
        if closing.0 < 1.0 - SUPPORT_TOLERANCE {
            let mut cycle = VarSet::empty(n);
            let mut u = closing.1;
            while u != usize::MAX {
                cycle.insert(u);
                u = pred[u];
            }
            if cycle.len() > 1 {
                cycles.push(cycle);
            }
        }
    }
    cycles
}

/// The length `1 − w` of an arc of weight `w`, never negative (solvers' values may
/// exceed 1 by their tolerance, and Dijkstra needs non-negative lengths).
fn arc_length(weight: f64) -> f64 {
    (1.0 - weight).max(0.0)
}

/// Grows `cluster` one node at a time, each time adding the node that increases the
/// violation most, while some node increases it.
pub fn grow(support: &Support, mut cluster: VarSet) -> VarSet {
    let mut current = support.violation(&cluster);
    loop {
        let best = (0..support.n())
            .filter(|&u| !cluster.contains(u))
            .map(|u| (support.violation(&cluster.with(u)), u))
            .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
        match best {
            Some((violation, u)) if violation > current + SUPPORT_TOLERANCE => {
                cluster.insert(u);
                current = violation;
            }
            _ => return cluster,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dag::Dag;
    use crate::score_table::{Candidate, ScoreTable};

    /// Four nodes; every node may take any single other node as parent, or none.
    fn table() -> ScoreTable {
        let n = 4;
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
                }
                list
            })
            .collect();
        ScoreTable::new((0..n).map(|i| format!("v{i}")).collect(), lists).unwrap()
    }

    fn dag(arcs: &[(usize, usize)]) -> Dag {
        let mut d = Dag::empty(4);
        for &(p, c) in arcs {
            d.set_parents(c, d.parents(c).with(p));
        }
        d
    }

    #[test]
    fn integral_cycles_are_found() {
        let t = table();
        let ilp = FamilyIlp::new(&t);
        let values = ilp.values_of(&dag(&[(0, 1), (1, 2), (2, 0)])).unwrap();
        let support = Support::new(&ilp, &values);
        let sccs = strongly_connected_components(&support);
        assert_eq!(sccs, vec![VarSet::from_members(4, [0, 1, 2])]);
        let cuts = separate_heuristically(&ilp, &support, &SeparationOptions::default());
        assert!(!cuts.is_empty());
        for cut in &cuts {
            assert!(cut.violation(&values) >= 1.0 - 1e-9);
        }
        let acyclic = ilp.values_of(&dag(&[(0, 1), (1, 2), (0, 3)])).unwrap();
        let support = Support::new(&ilp, &acyclic);
        assert!(separate_heuristically(&ilp, &support, &SeparationOptions::default()).is_empty());
    }

    #[test]
    fn fractional_two_cycle_is_found() {
        let t = table();
        let ilp = FamilyIlp::new(&t);
        // Half of v0 <- v1 and half of v1 <- v0, the rest empty parent sets.
        let mut values = vec![0.0; ilp.num_columns()];
        let col = |v: usize, parent: Option<usize>| {
            let k = t
                .candidates(v)
                .iter()
                .position(|c| c.parents.to_vec() == parent.into_iter().collect::<Vec<_>>())
                .unwrap();
            ilp.column(v, k)
        };
        values[col(0, Some(1))] = 0.75;
        values[col(0, None)] = 0.25;
        values[col(1, Some(0))] = 0.75;
        values[col(1, None)] = 0.25;
        values[col(2, None)] = 1.0;
        values[col(3, None)] = 1.0;
        let support = Support::new(&ilp, &values);
        assert!((support.violation(&VarSet::from_members(4, [0, 1])) - 0.5).abs() < 1e-12);
        let cycles = short_cycles(&support);
        assert!(cycles.contains(&VarSet::from_members(4, [0, 1])));
        let cuts = separate_heuristically(&ilp, &support, &SeparationOptions::default());
        assert_eq!(cuts.len(), 1);
        assert!((cuts[0].violation(&values) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn weights_above_one_do_not_break_the_cycle_search() {
        let t = table();
        let ilp = FamilyIlp::new(&t);
        // A solver's tolerance can push values (and arc weights) a hair above 1.
        let values = ilp.values_of(&dag(&[(0, 1), (1, 2), (2, 0)])).unwrap();
        let values: Vec<f64> = values.iter().map(|x| x * (1.0 + 1e-7)).collect();
        let support = Support::new(&ilp, &values);
        let cycles = short_cycles(&support);
        assert!(cycles.contains(&VarSet::from_members(4, [0, 1, 2])));
    }
}
