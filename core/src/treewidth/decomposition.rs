//! Tree decompositions: made from an elimination order, checked against a graph.

use super::{eliminate, Graph};
use std::collections::BTreeSet;

/// A tree decomposition: bags of nodes and the tree edges between bags.
///
/// It is a certificate that a graph has treewidth at most [`width`](Self::width) once
/// [`check`](Self::check) accepts it for that graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeDecomposition {
    /// The bags, each sorted.
    pub bags: Vec<Vec<usize>>,
    /// Tree edges, as pairs of bag indices.
    pub edges: Vec<(usize, usize)>,
}

/// Why a tree decomposition is not one of a given graph.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DecompositionError {
    /// A bag or the order names a node the graph does not have.
    #[error("node {node} is not a node of the graph ({n} nodes)")]
    UnknownNode {
        /// The node.
        node: usize,
        /// Nodes of the graph.
        n: usize,
    },
    /// A tree edge names a bag that does not exist.
    #[error("tree edge ({0}, {1}) names a bag that does not exist")]
    UnknownBag(usize, usize),
    /// The bags and edges do not form a tree.
    #[error("the bags and their edges do not form a tree ({bags} bags, {edges} edges)")]
    NotATree {
        /// Number of bags.
        bags: usize,
        /// Number of tree edges.
        edges: usize,
    },
    /// A node of the graph lies in no bag.
    #[error("node {0} is in no bag")]
    NodeUncovered(usize),
    /// An edge of the graph lies in no bag.
    #[error("edge {0} - {1} is in no bag")]
    EdgeUncovered(usize, usize),
    /// The bags holding a node are not connected in the tree.
    #[error("the bags holding node {0} are not connected in the tree")]
    Disconnected(usize),
}

impl TreeDecomposition {
    /// The decomposition that eliminating the nodes of `graph` in `order` gives: one bag
    /// per node, the node and its later neighbours at its elimination, hung below the bag
    /// of the first of those neighbours to be eliminated (the bags of nodes with no later
    /// neighbour are chained, since they share no node).
    ///
    /// # Panics
    /// If `order` is not a permutation of the nodes.
    pub fn from_elimination(graph: &Graph, order: &[usize]) -> Self {
        let n = graph.n();
        let position = positions(order, n);
        let mut adjacent: Vec<BTreeSet<usize>> =
            (0..n).map(|v| graph.neighbours(v).clone()).collect();
        let mut bags = Vec::with_capacity(n);
        let mut edges = Vec::with_capacity(n.saturating_sub(1));
        let mut last_root: Option<usize> = None;
        for (step, &v) in order.iter().enumerate() {
            let later = eliminate(&mut adjacent, v);
            match later.iter().min_by_key(|&&u| position[u]) {
                Some(&next) => edges.push((step, position[next])),
                None => {
                    if let Some(root) = last_root {
                        edges.push((root, step));
                    }
                    last_root = Some(step);
                }
            }
            let mut bag = later;
            bag.push(v);
            bag.sort_unstable();
            bags.push(bag);
        }
        TreeDecomposition { bags, edges }
    }

    /// The width: the largest bag's size minus one (0 for no bags).
    pub fn width(&self) -> usize {
        self.bags
            .iter()
            .map(Vec::len)
            .max()
            .unwrap_or(1)
            .saturating_sub(1)
    }

    /// Checks that this is a tree decomposition of `graph` and returns its width: the
    /// edges form a tree over the bags, every node and every edge of `graph` lies in
    /// some bag, and the bags holding any one node form a connected subtree.
    pub fn check(&self, graph: &Graph) -> Result<usize, DecompositionError> {
        let n = graph.n();
        for bag in &self.bags {
            if let Some(&node) = bag.iter().find(|&&v| v >= n) {
                return Err(DecompositionError::UnknownNode { node, n });
            }
        }
        let tree = self.tree_adjacency()?;
        let mut holders: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (b, bag) in self.bags.iter().enumerate() {
            for &v in bag {
                holders[v].push(b);
            }
        }
        if let Some(v) = (0..n).find(|&v| holders[v].is_empty()) {
            return Err(DecompositionError::NodeUncovered(v));
        }
        let member: Vec<BTreeSet<usize>> = self
            .bags
            .iter()
            .map(|b| b.iter().copied().collect())
            .collect();
        for (u, v) in graph.edges() {
            if !holders[u].iter().any(|&b| member[b].contains(&v)) {
                return Err(DecompositionError::EdgeUncovered(u, v));
            }
        }
        for (v, bags) in holders.iter().enumerate() {
            if !connected_within(&tree, bags, |b| member[b].contains(&v)) {
                return Err(DecompositionError::Disconnected(v));
            }
        }
        Ok(self.width())
    }

    /// The tree's adjacency lists, or why the edges do not form a tree over the bags.
    fn tree_adjacency(&self) -> Result<Vec<Vec<usize>>, DecompositionError> {
        let bags = self.bags.len();
        let not_a_tree = DecompositionError::NotATree {
            bags,
            edges: self.edges.len(),
        };
        if bags > 0 && self.edges.len() != bags - 1 || bags == 0 && !self.edges.is_empty() {
            return Err(not_a_tree);
        }
        let mut tree = vec![Vec::new(); bags];
        for &(a, b) in &self.edges {
            if a >= bags || b >= bags {
                return Err(DecompositionError::UnknownBag(a, b));
            }
            tree[a].push(b);
            tree[b].push(a);
        }
        let all: Vec<usize> = (0..bags).collect();
        if !connected_within(&tree, &all, |_| true) {
            return Err(not_a_tree);
        }
        Ok(tree)
    }
}

/// The position of each node in `order`.
///
/// # Panics
/// If `order` is not a permutation of `0..n`.
fn positions(order: &[usize], n: usize) -> Vec<usize> {
    assert_eq!(order.len(), n, "an elimination order lists every node once");
    let mut position = vec![usize::MAX; n];
    for (i, &v) in order.iter().enumerate() {
        assert!(
            v < n && position[v] == usize::MAX,
            "an elimination order lists every node once"
        );
        position[v] = i;
    }
    position
}

/// Whether the bags `within` (those satisfying `inside`) are connected in `tree` by
/// paths through such bags.
fn connected_within(tree: &[Vec<usize>], within: &[usize], inside: impl Fn(usize) -> bool) -> bool {
    let Some(&start) = within.first() else {
        return true;
    };
    let mut seen = vec![false; tree.len()];
    seen[start] = true;
    let mut stack = vec![start];
    let mut reached = 1;
    while let Some(b) = stack.pop() {
        for &c in &tree[b] {
            if !seen[c] && inside(c) {
                seen[c] = true;
                reached += 1;
                stack.push(c);
            }
        }
    }
    reached == within.len()
}
