//! Uniform k-trees from codes: a root k-clique `Q` and a characteristic tree encoded by a
//! Prüfer-like sequence (Caminiti, Fusco & Petreschi 2010, whose Rényi k-trees and
//! characteristic trees this follows).
//!
//! A k-tree on `n` nodes rooted at one of its k-cliques `Q` is built from `Q` by joining
//! the other `m = n − k` nodes one at a time, each to a k-clique already there. Its
//! characteristic tree has the root `Q` and one node per other node `v`; `v` hangs below
//! the root when it joins `Q`, and below `w` with label `i` when it joins the clique of
//! `w` with its `i`-th member (in sorted order) replaced by `w`. Decoding walks the tree
//! from the root and gives each node its clique.
//!
//! The characteristic trees on `m` nodes with labels `0..k` on the edges below non-root
//! parents are exactly the Prüfer sequences of length `m − 1` over `k·m + 1` symbols:
//! the root, or a node with a label. So a code is `Q` (a k-subset) and such a sequence:
//! `C(n, k) · (k(n − k) + 1)^(n − k − 1)` codes, each naming one k-tree with one of its
//! `k(n − k) + 1` k-cliques as root. Every k-tree therefore has the same number of codes,
//! and a uniform code gives a uniform k-tree (`C(n, k) · (k(n − k) + 1)^(n − k − 2)` of
//! them, Beineke & Pippert 1969, equation (7) of Nie et al. 2016). The tests decode every
//! code of small `n` and `k` and count each k-tree's codes.

use bnsl_formulations::VarSet;
use rand::Rng;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// One symbol of the sequence: the root, or a node of the characteristic tree (`0..m`,
/// the nodes outside `Q` in increasing order) with a label (`0..k`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Symbol {
    /// The root clique `Q`.
    Root,
    /// Node `w` with label `i`.
    Node(usize, usize),
}

/// A code of a rooted k-tree (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Code {
    /// The root k-clique, sorted.
    pub(crate) root: Vec<usize>,
    /// `n − k − 1` symbols.
    pub(crate) sequence: Vec<Symbol>,
}

/// A k-tree built by joining nodes to k-cliques.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct KTree {
    /// The root k-clique, sorted.
    pub(crate) root: Vec<usize>,
    /// The other nodes, in the order they joined (a parent before its children).
    pub(crate) joined: Vec<usize>,
    /// For each joined node, the sorted k-clique it joined (empty for root nodes).
    pub(crate) clique: Vec<Vec<usize>>,
    /// Neighbour sets.
    pub(crate) adjacent: Vec<VarSet>,
}

impl Code {
    /// A uniformly random code of a k-tree on `n > k` nodes.
    pub(crate) fn sample(n: usize, k: usize, rng: &mut impl Rng) -> Code {
        debug_assert!(n > k);
        let mut root = rand::seq::index::sample(rng, n, k).into_vec();
        root.sort_unstable();
        let m = n - k;
        let sequence = (0..m.saturating_sub(1))
            .map(|_| uniform_symbol(k, m, rng))
            .collect();
        Code { root, sequence }
    }

    /// The code with one uniformly chosen symbol of its sequence replaced by a uniform
    /// symbol (a step of the climb over codes); `None` when the sequence is empty.
    pub(crate) fn neighbour(&self, n: usize, rng: &mut impl Rng) -> Option<Code> {
        if self.sequence.is_empty() {
            return None;
        }
        let k = self.root.len();
        let mut next = self.clone();
        let at = rng.gen_range(0..next.sequence.len());
        next.sequence[at] = uniform_symbol(k, n - k, rng);
        Some(next)
    }

    /// The k-tree of the code over `n` nodes.
    pub(crate) fn decode(&self, n: usize) -> KTree {
        let k = self.root.len();
        let m = n - k;
        let (parent, label) = characteristic_tree(&self.sequence, m);
        let in_root = VarSet::from_members(n, self.root.iter().copied());
        let others: Vec<usize> = (0..n).filter(|v| !in_root.contains(*v)).collect();
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); m + 1];
        for (v, &p) in parent.iter().enumerate() {
            children[p].push(v);
        }
        let mut adjacent = vec![VarSet::empty(n); n];
        for (i, &a) in self.root.iter().enumerate() {
            for &b in &self.root[i + 1..] {
                adjacent[a].insert(b);
                adjacent[b].insert(a);
            }
        }
        let mut clique: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut joined = Vec::with_capacity(m);
        let mut queue = std::collections::VecDeque::from([m]);
        while let Some(w) = queue.pop_front() {
            for &v in &children[w] {
                let node = others[v];
                let mut attach = if w == m {
                    self.root.clone()
                } else {
                    let mut c = clique[others[w]].clone();
                    c[label[v]] = others[w];
                    c
                };
                attach.sort_unstable();
                for &u in &attach {
                    adjacent[node].insert(u);
                    adjacent[u].insert(node);
                }
                clique[node] = attach;
                joined.push(node);
                queue.push_back(v);
            }
        }
        KTree {
            root: self.root.clone(),
            joined,
            clique,
            adjacent,
        }
    }
}

/// A uniform symbol over the root and the `m` nodes outside it with a label in `0..k`.
fn uniform_symbol(k: usize, m: usize, rng: &mut impl Rng) -> Symbol {
    match rng.gen_range(0..k * m + 1) {
        0 => Symbol::Root,
        s => Symbol::Node((s - 1) / k, (s - 1) % k),
    }
}

/// The characteristic tree of a sequence: for each of the `m` non-root nodes its parent
/// (`m` is the root) and its label (meaningful below a non-root parent). Prüfer decoding
/// with the root as the largest node, which therefore remains to the end.
fn characteristic_tree(sequence: &[Symbol], m: usize) -> (Vec<usize>, Vec<usize>) {
    let node = |s: &Symbol| match *s {
        Symbol::Root => m,
        Symbol::Node(w, _) => w,
    };
    let mut degree = vec![1usize; m + 1];
    for s in sequence {
        degree[node(s)] += 1;
    }
    let mut leaves: BinaryHeap<Reverse<usize>> =
        (0..m).filter(|&v| degree[v] == 1).map(Reverse).collect();
    let mut parent = vec![m; m];
    let mut label = vec![0; m];
    for s in sequence {
        let Reverse(leaf) = leaves.pop().expect("a Prüfer sequence leaves a leaf");
        let w = node(s);
        parent[leaf] = w;
        if let Symbol::Node(_, i) = *s {
            label[leaf] = i;
        }
        degree[w] -= 1;
        if degree[w] == 1 && w != m {
            leaves.push(Reverse(w));
        }
    }
    if let Some(Reverse(last)) = leaves.pop() {
        parent[last] = m;
    }
    (parent, label)
}

/// The Prüfer sequence of the characteristic tree with `parent` (`m`, the number of
/// non-root nodes, is the root) and `label`: the inverse of [`characteristic_tree`].
fn pruefer_sequence(parent: &[usize], label: &[usize]) -> Vec<Symbol> {
    let m = parent.len();
    let mut degree = vec![1usize; m + 1];
    for &p in parent {
        degree[p] += 1;
    }
    degree[m] -= 1;
    let mut leaves: BinaryHeap<Reverse<usize>> =
        (0..m).filter(|&v| degree[v] == 1).map(Reverse).collect();
    let mut sequence = Vec::with_capacity(m.saturating_sub(1));
    while sequence.len() + 1 < m {
        let Reverse(leaf) = leaves
            .pop()
            .expect("a tree of two or more nodes has a leaf");
        let p = parent[leaf];
        sequence.push(if p == m {
            Symbol::Root
        } else {
            Symbol::Node(p, label[leaf])
        });
        degree[p] -= 1;
        if degree[p] == 1 && p != m {
            leaves.push(Reverse(p));
        }
    }
    sequence
}

impl KTree {
    /// The code of this k-tree rooted at its root clique: each joined node's parent in
    /// the characteristic tree read off the clique it joined, then the Prüfer sequence of
    /// that tree (the inverse of [`Code::decode`] up to the order of `joined`).
    pub(crate) fn code(&self) -> Code {
        let n = self.adjacent.len();
        let k = self.root.len();
        let m = n - k;
        let in_root = VarSet::from_members(n, self.root.iter().copied());
        let mut index = vec![m; n];
        for (i, v) in (0..n).filter(|v| !in_root.contains(*v)).enumerate() {
            index[v] = i;
        }
        let mut parent = vec![m; m];
        let mut label = vec![0; m];
        for &v in &self.joined {
            if let Some((w, i)) = self.joined_below(v) {
                parent[index[v]] = index[w];
                label[index[v]] = i;
            }
        }
        Code {
            root: self.root.clone(),
            sequence: pruefer_sequence(&parent, &label),
        }
    }

    /// Where joined node `v` hangs in the characteristic tree: `None` below the root, or
    /// the joined node `w` and the place in `w`'s clique of the member `w` replaced in
    /// `v`'s clique. The `w` is the member of `v`'s clique whose own clique holds the
    /// others; two members cannot both qualify, as each would have joined after the other.
    fn joined_below(&self, v: usize) -> Option<(usize, usize)> {
        let clique = &self.clique[v];
        if *clique == self.root {
            return None;
        }
        let w = clique
            .iter()
            .copied()
            .find(|&w| {
                !self.clique[w].is_empty()
                    && clique
                        .iter()
                        .all(|u| *u == w || self.clique[w].binary_search(u).is_ok())
            })
            .expect("a joined clique other than the root extends an earlier one");
        let replaced = self.clique[w]
            .iter()
            .position(|u| clique.binary_search(u).is_err())
            .expect("the clique of w has one member outside v's clique");
        Some((w, replaced))
    }

    /// A perfect elimination order of width k: the joined nodes last joined first, then
    /// the root clique.
    pub(crate) fn elimination_order(&self) -> Vec<usize> {
        self.joined
            .iter()
            .rev()
            .chain(&self.root)
            .copied()
            .collect()
    }
}
