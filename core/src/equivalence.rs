//! Markov equivalence of DAGs, for grouping collected networks (seed 002, "The Bayes
//! Factor Approach": networks are grouped into Markov equivalence classes).
//!
//! Two DAGs encode the same conditional independences exactly when they have the same
//! skeleton and the same v-structures, the unshielded colliders `a → c ← b` with `a` and
//! `b` not adjacent (Verma & Pearl 1990). A class is written as its CPDAG (Meek 1995):
//! the skeleton with the arcs of the v-structures and every arc Meek's rules R1–R3
//! compel; the other edges are undirected, as the class holds both directions.
//!
//! Seed 002's |M| column groups by the skeleton and *all* colliders, shielded ones too
//! ([`ColliderClassKey`]); that grouping is finer than Markov equivalence and is kept so
//! the paper's counts can be compared.

use crate::Dag;

/// An edge `(a, b)` with `a < b`.
pub type Edge = (usize, usize);

/// A collider `a → c ← b` as `(a, c, b)` with `a < b`.
pub type Collider = (usize, usize, usize);

/// The Markov equivalence class of a DAG: its skeleton and v-structures, sorted. Equal
/// keys mean Markov-equivalent DAGs.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MarkovClassKey {
    /// The adjacencies.
    pub skeleton: Vec<Edge>,
    /// The unshielded colliders.
    pub v_structures: Vec<Collider>,
}

/// Seed 002's grouping: skeleton and every collider, shielded or not.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ColliderClassKey {
    /// The adjacencies.
    pub skeleton: Vec<Edge>,
    /// All colliders.
    pub colliders: Vec<Collider>,
}

/// A completed partially directed acyclic graph: the arcs every DAG of the class shares
/// and the edges whose direction varies within it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cpdag {
    /// Compelled arcs `(from, to)`, sorted.
    pub directed: Vec<(usize, usize)>,
    /// Reversible edges `(a, b)` with `a < b`, sorted.
    pub undirected: Vec<Edge>,
}

/// Whether the arc `u → v` of `dag` is covered: `v`'s parents are `u`'s and `u`.
/// Reversing a covered arc gives a Markov-equivalent DAG (Chickering 1995, Lemma 1).
pub fn is_covered(dag: &Dag, u: usize, v: usize) -> bool {
    dag.parents(v).contains(u) && *dag.parents(v) == dag.parents(u).with(u)
}

/// Every DAG Markov-equivalent to `dag`, `dag` first: the DAGs reached by reversing
/// covered arcs one at a time, which are the whole class (Chickering 1995, Theorem 2).
/// A class may hold up to m! DAGs for a reversible clique of m nodes.
pub fn equivalent_dags(dag: &Dag) -> Vec<Dag> {
    let mut seen = std::collections::HashSet::from([dag.all_parents().to_vec()]);
    let mut class = vec![dag.clone()];
    let mut next = 0;
    while next < class.len() {
        let current = class[next].clone();
        next += 1;
        for v in 0..current.n() {
            for u in current.parents(v).iter() {
                if !is_covered(&current, u, v) {
                    continue;
                }
                let mut reversed = current.clone();
                reversed.set_parents(v, current.parents(u).clone());
                reversed.set_parents(u, current.parents(u).with(v));
                if seen.insert(reversed.all_parents().to_vec()) {
                    class.push(reversed);
                }
            }
        }
    }
    class
}

/// The adjacencies of `dag`, sorted.
pub fn skeleton(dag: &Dag) -> Vec<Edge> {
    let mut edges: Vec<Edge> = (0..dag.n())
        .flat_map(|c| dag.parents(c).iter().map(move |p| (p.min(c), p.max(c))))
        .collect();
    edges.sort_unstable();
    edges
}

/// Whether `a` and `b` are adjacent in `dag`.
fn adjacent(dag: &Dag, a: usize, b: usize) -> bool {
    dag.parents(a).contains(b) || dag.parents(b).contains(a)
}

/// The colliders of `dag` (pairs of parents of a common child), sorted; with `unshielded`
/// only those whose parents are not adjacent (the v-structures).
fn colliders_of(dag: &Dag, unshielded: bool) -> Vec<Collider> {
    let mut out = Vec::new();
    for c in 0..dag.n() {
        let parents = dag.parents(c).to_vec();
        for (i, &a) in parents.iter().enumerate() {
            for &b in &parents[i + 1..] {
                if !unshielded || !adjacent(dag, a, b) {
                    out.push((a, c, b));
                }
            }
        }
    }
    out.sort_unstable();
    out
}

/// The v-structures (unshielded colliders) of `dag`, sorted.
pub fn v_structures(dag: &Dag) -> Vec<Collider> {
    colliders_of(dag, true)
}

/// The Markov equivalence class key of `dag`.
pub fn markov_class_key(dag: &Dag) -> MarkovClassKey {
    MarkovClassKey {
        skeleton: skeleton(dag),
        v_structures: v_structures(dag),
    }
}

/// Seed 002's collider grouping key of `dag` (see the module doc).
pub fn collider_class_key(dag: &Dag) -> ColliderClassKey {
    ColliderClassKey {
        skeleton: skeleton(dag),
        colliders: colliders_of(dag, false),
    }
}

/// A mixed graph being oriented: `arc[a][b]` for `a → b`, `edge[a][b]` (symmetric) for
/// an undirected `a — b`.
struct Pattern {
    arc: Vec<Vec<bool>>,
    edge: Vec<Vec<bool>>,
}

impl Pattern {
    fn adjacent(&self, a: usize, b: usize) -> bool {
        self.arc[a][b] || self.arc[b][a] || self.edge[a][b]
    }

    fn orient(&mut self, from: usize, to: usize) {
        self.edge[from][to] = false;
        self.edge[to][from] = false;
        self.arc[from][to] = true;
    }

    /// Meek's R1–R3 for the undirected edge `b — c`, oriented `b → c` when one applies:
    /// R1: `a → b`, `a` not adjacent to `c`; R2: `b → a → c`; R3: `b — a1 → c`,
    /// `b — a2 → c`, `a1` and `a2` not adjacent.
    fn compelled(&self, b: usize, c: usize) -> bool {
        let n = self.arc.len();
        let r1 = (0..n).any(|a| self.arc[a][b] && !self.adjacent(a, c));
        let r2 = (0..n).any(|a| self.arc[b][a] && self.arc[a][c]);
        let r3 = {
            let mids: Vec<usize> = (0..n)
                .filter(|&a| self.edge[b][a] && self.arc[a][c])
                .collect();
            mids.iter()
                .enumerate()
                .any(|(i, &a1)| mids[i + 1..].iter().any(|&a2| !self.adjacent(a1, a2)))
        };
        r1 || r2 || r3
    }
}

/// The CPDAG of `dag`'s Markov equivalence class: the v-structures' arcs, closed under
/// Meek's rules R1–R3 (complete for a pattern without background knowledge, Meek 1995).
pub fn cpdag(dag: &Dag) -> Cpdag {
    let n = dag.n();
    let mut g = Pattern {
        arc: vec![vec![false; n]; n],
        edge: vec![vec![false; n]; n],
    };
    for (a, b) in skeleton(dag) {
        g.edge[a][b] = true;
        g.edge[b][a] = true;
    }
    for (a, c, b) in v_structures(dag) {
        g.orient(a, c);
        g.orient(b, c);
    }
    loop {
        let mut changed = false;
        for b in 0..n {
            for c in 0..n {
                if g.edge[b][c] && g.compelled(b, c) {
                    g.orient(b, c);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut directed = Vec::new();
    let mut undirected = Vec::new();
    for a in 0..n {
        for b in 0..n {
            if g.arc[a][b] {
                directed.push((a, b));
            } else if a < b && g.edge[a][b] {
                undirected.push((a, b));
            }
        }
    }
    Cpdag {
        directed,
        undirected,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::VarSet;
    use std::collections::HashMap;

    fn dag(n: usize, arcs: &[(usize, usize)]) -> Dag {
        let mut parents = vec![VarSet::empty(n); n];
        for &(from, to) in arcs {
            parents[to].insert(from);
        }
        Dag::from_parents(parents)
    }

    #[test]
    fn chains_forks_and_colliders() {
        let chain = dag(3, &[(0, 1), (1, 2)]);
        let fork = dag(3, &[(1, 0), (1, 2)]);
        let collider = dag(3, &[(0, 1), (2, 1)]);
        assert_eq!(markov_class_key(&chain), markov_class_key(&fork));
        assert_ne!(markov_class_key(&chain), markov_class_key(&collider));
        assert_eq!(cpdag(&chain).undirected, vec![(0, 1), (1, 2)]);
        assert!(cpdag(&chain).directed.is_empty());
        assert_eq!(cpdag(&collider).directed, vec![(0, 1), (2, 1)]);
        // A shielded collider is a collider but no v-structure.
        let shielded = dag(3, &[(0, 1), (2, 1), (0, 2)]);
        assert!(v_structures(&shielded).is_empty());
        assert_eq!(collider_class_key(&shielded).colliders, vec![(0, 1, 2)]);
        // R1: the v-structure 0 → 2 ← 1 compels 2 → 3.
        let r1 = dag(4, &[(0, 2), (1, 2), (2, 3)]);
        assert_eq!(cpdag(&r1).directed, vec![(0, 2), (1, 2), (2, 3)]);
    }

    /// Every DAG over `n` nodes, as arc lists.
    fn all_dags(n: usize) -> Vec<Dag> {
        let pairs: Vec<(usize, usize)> = (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .collect();
        let mut out = Vec::new();
        // Each pair: absent, a → b or b → a.
        let total = 3usize.pow(pairs.len() as u32);
        for code in 0..total {
            let mut c = code;
            let mut arcs = Vec::new();
            for &(a, b) in &pairs {
                match c % 3 {
                    1 => arcs.push((a, b)),
                    2 => arcs.push((b, a)),
                    _ => {}
                }
                c /= 3;
            }
            let d = dag(n, &arcs);
            if d.is_acyclic() {
                out.push(d);
            }
        }
        out
    }

    /// `dags` grouped by their class key.
    fn brute_force_classes(dags: &[Dag]) -> HashMap<MarkovClassKey, Vec<&Dag>> {
        let mut classes: HashMap<MarkovClassKey, Vec<&Dag>> = HashMap::new();
        for d in dags {
            classes.entry(markov_class_key(d)).or_default().push(d);
        }
        classes
    }

    /// On every DAG of up to 5 nodes, the covered-arc reversals reach exactly the DAGs of
    /// its class, and every class holds a DAG without a covered arc `u → v`, `u > v`.
    #[test]
    fn equivalent_dags_are_the_brute_force_class() {
        for n in 1..=5 {
            let dags = all_dags(n);
            let classes = brute_force_classes(&dags);
            for members in classes.values() {
                let mut expected: Vec<&[VarSet]> =
                    members.iter().map(|d| d.all_parents()).collect();
                expected.sort();
                for d in members {
                    let class = equivalent_dags(d);
                    assert_eq!(&class[0], *d);
                    let mut got: Vec<&[VarSet]> = class.iter().map(|d| d.all_parents()).collect();
                    got.sort();
                    assert_eq!(got, expected);
                }
                let increasing = |d: &&Dag| {
                    (0..n).all(|v| d.parents(v).iter().all(|u| u < v || !is_covered(d, u, v)))
                };
                assert!(members.iter().any(increasing), "{:?}", members[0]);
            }
        }
    }

    /// On every DAG of up to 5 nodes: the CPDAG is a function of the class key (equal keys,
    /// equal CPDAGs; different keys, different CPDAGs), and its compelled arcs are exactly
    /// the arcs all DAGs of the class share, found by brute force.
    #[test]
    fn cpdags_match_brute_force_classes() {
        for n in 1..=5 {
            let dags = all_dags(n);
            let classes = brute_force_classes(&dags);
            let mut seen = HashMap::new();
            for (key, members) in &classes {
                let c = cpdag(members[0]);
                for m in members {
                    assert_eq!(cpdag(m), c, "{key:?}");
                }
                assert!(seen.insert(format!("{c:?}"), key.clone()).is_none());
                let shared: Vec<(usize, usize)> = key
                    .skeleton
                    .iter()
                    .flat_map(|&(a, b)| [(a, b), (b, a)])
                    .filter(|&(from, to)| members.iter().all(|m| m.parents(to).contains(from)))
                    .collect::<std::collections::BTreeSet<_>>()
                    .into_iter()
                    .collect();
                assert_eq!(c.directed, shared, "{key:?}");
                let undirected = key.skeleton.len() - shared.len();
                assert_eq!(c.undirected.len(), undirected);
            }
            if n == 4 {
                // 543 DAGs on 4 labelled nodes in 185 classes (OEIS A003024, A048192).
                assert_eq!((dags.len(), classes.len()), (543, 185));
            }
        }
    }
}
