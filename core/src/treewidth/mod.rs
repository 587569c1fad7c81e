//! Treewidth of Bayesian networks: the moral graph of a DAG, elimination orders, tree
//! decompositions as checkable certificates, and the exact treewidth of small graphs.
//!
//! The treewidth of a DAG is the treewidth of its moral graph (Nie et al. 2016, §2):
//! parents of a common child are joined and directions dropped. Eliminating the nodes of
//! an undirected graph in some order, each node's later neighbours pairwise joined before
//! it is removed, gives a chordal supergraph; the largest number of later neighbours met
//! is the order's width, and the treewidth is the least width over all orders.
//!
//! - [`moral_graph`] builds the moral graph as a [`Graph`].
//! - [`TreeDecomposition`] is the certificate: bags joined in a tree;
//!   [`TreeDecomposition::check`] verifies it against a graph (every node and edge in
//!   some bag, the bags holding a node connected) and returns its width, so a claim
//!   "width ≤ W" is checked without trusting whoever made it.
//! - [`greedy_order`] is the min-fill / min-degree upper bound;
//!   [`treewidth`] the exact width by branch and bound over elimination orders with the
//!   minor-min-width lower bound (Gogate & Dechter 2004, "A complete anytime algorithm
//!   for treewidth").
//! - [`wider_subgraph`] finds an edge-minimal subgraph whose treewidth exceeds a bound
//!   ([`wider_subgraph_removing`]: with the edges tried for removal in a given order).

mod decomposition;
mod exact;
mod greedy;
mod obstruction;

pub use decomposition::{DecompositionError, TreeDecomposition};
pub use exact::{minor_min_width, treewidth, TreewidthLimits, TreewidthResult};
pub use greedy::{greedy_order, Greedy};
pub use obstruction::{wider_subgraph, wider_subgraph_removing};

use crate::dag::Dag;
use std::collections::BTreeSet;

/// A simple undirected graph over nodes `0..n`, stored as neighbour sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    neighbours: Vec<BTreeSet<usize>>,
}

impl Graph {
    /// The graph with `n` nodes and no edges.
    pub fn new(n: usize) -> Self {
        Graph {
            neighbours: vec![BTreeSet::new(); n],
        }
    }

    /// The graph with `n` nodes and the edges `edges`.
    pub fn from_edges(n: usize, edges: &[(usize, usize)]) -> Self {
        let mut graph = Graph::new(n);
        for &(u, v) in edges {
            graph.add_edge(u, v);
        }
        graph
    }

    /// Number of nodes.
    pub fn n(&self) -> usize {
        self.neighbours.len()
    }

    /// Joins `u` and `v` (nothing happens for `u == v` or an existing edge).
    pub fn add_edge(&mut self, u: usize, v: usize) {
        if u != v {
            self.neighbours[u].insert(v);
            self.neighbours[v].insert(u);
        }
    }

    /// Whether `u` and `v` are joined.
    pub fn has_edge(&self, u: usize, v: usize) -> bool {
        self.neighbours[u].contains(&v)
    }

    /// The neighbours of `v`, in increasing order.
    pub fn neighbours(&self, v: usize) -> &BTreeSet<usize> {
        &self.neighbours[v]
    }

    /// Every edge once, as `(u, v)` with `u < v`.
    pub fn edges(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.neighbours
            .iter()
            .enumerate()
            .flat_map(|(u, ns)| ns.range(u + 1..).map(move |&v| (u, v)))
    }

    /// Number of edges.
    pub fn edge_count(&self) -> usize {
        self.neighbours.iter().map(BTreeSet::len).sum::<usize>() / 2
    }

    /// The connected components, each as its sorted nodes, in the order of their least
    /// nodes.
    pub fn components(&self) -> Vec<Vec<usize>> {
        let n = self.n();
        let mut seen = vec![false; n];
        let mut out = Vec::new();
        for root in 0..n {
            if seen[root] {
                continue;
            }
            seen[root] = true;
            let mut stack = vec![root];
            let mut nodes = vec![root];
            while let Some(v) = stack.pop() {
                for &u in self.neighbours(v) {
                    if !seen[u] {
                        seen[u] = true;
                        nodes.push(u);
                        stack.push(u);
                    }
                }
            }
            nodes.sort_unstable();
            out.push(nodes);
        }
        out
    }

    /// The width of eliminating the nodes in `order` (a permutation of `0..n`): the most
    /// later neighbours any node has when it is eliminated.
    ///
    /// # Panics
    /// If `order` is not a permutation of the nodes.
    pub fn elimination_width(&self, order: &[usize]) -> usize {
        TreeDecomposition::from_elimination(self, order).width()
    }
}

/// Eliminates `v` from the neighbour sets `adjacent`: its neighbours are joined
/// pairwise and lose it. Returns them (its later neighbours, in an elimination).
fn eliminate(adjacent: &mut [BTreeSet<usize>], v: usize) -> Vec<usize> {
    let neighbours: Vec<usize> = adjacent[v].iter().copied().collect();
    for (i, &a) in neighbours.iter().enumerate() {
        adjacent[a].remove(&v);
        for &b in &neighbours[i + 1..] {
            adjacent[a].insert(b);
            adjacent[b].insert(a);
        }
    }
    neighbours
}

/// The moral graph of `dag`: its arcs without direction, and every two parents of a
/// common child joined.
pub fn moral_graph(dag: &Dag) -> Graph {
    let mut graph = Graph::new(dag.n());
    for v in 0..dag.n() {
        let parents = dag.parents(v).to_vec();
        for (i, &p) in parents.iter().enumerate() {
            graph.add_edge(p, v);
            for &q in &parents[i + 1..] {
                graph.add_edge(p, q);
            }
        }
    }
    graph
}

#[cfg(test)]
mod tests;
