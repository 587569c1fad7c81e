//! The descendant test of ASOBS (Scanagatta et al. 2015, §4, step 2a: no parent of a
//! candidate may be a descendant of the child), by depth-first search over the children
//! of the network built so far.
//!
//! The paper keeps a Boolean n × n descendant matrix, n² bits per construction. Here the
//! descendants of a node are marked on demand instead, so the memory is O(n + arcs), and
//! a node costs one search over its descendants at the time it is visited: the matrix's
//! updates set every one of those cells as well.

use bnsl_formulations::VarSet;

/// The children lists of a growing DAG, and the descendants of the node searched last.
#[derive(Clone, Debug)]
pub(super) struct Descendants {
    children: Vec<Vec<u32>>,
    /// `mark[x] == epoch`: `x` is a descendant of the node searched last.
    mark: Vec<u32>,
    epoch: u32,
    stack: Vec<u32>,
}

impl Descendants {
    /// A DAG without arcs over `n` nodes (`n` < 2³²).
    pub(super) fn new(n: usize) -> Self {
        Descendants {
            children: vec![Vec::new(); n],
            mark: vec![0; n],
            epoch: 0,
            stack: Vec::new(),
        }
    }

    /// Marks the descendants of `v` (not `v` itself), forgetting the previous marks.
    pub(super) fn search_from(&mut self, v: usize) {
        self.epoch += 1;
        self.stack.clear();
        self.stack.extend_from_slice(&self.children[v]);
        while let Some(x) = self.stack.pop() {
            let x = x as usize;
            if self.mark[x] != self.epoch {
                self.mark[x] = self.epoch;
                self.stack.extend_from_slice(&self.children[x]);
            }
        }
    }

    /// Whether `x` is a descendant of the node searched last.
    pub(super) fn is_marked(&self, x: usize) -> bool {
        self.mark[x] == self.epoch
    }

    /// Adds the arcs from `parents` to `child`.
    pub(super) fn add_parents(&mut self, child: usize, parents: &VarSet) {
        for p in parents.iter() {
            self.children[p].push(child as u32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Descendants of `x` by depth-first search over the parent sets.
    fn reachable(parents: &[VarSet], x: usize) -> Vec<usize> {
        let n = parents.len();
        let mut seen = vec![false; n];
        let mut stack = vec![x];
        while let Some(u) = stack.pop() {
            for c in (0..n).filter(|&c| parents[c].contains(u)) {
                if !seen[c] {
                    seen[c] = true;
                    stack.push(c);
                }
            }
        }
        (0..n).filter(|&v| seen[v]).collect()
    }

    proptest! {
        /// Nodes get parents one by one (each node once, parents drawn among the nodes
        /// that are not its descendants, as ASOBS does); after every step the marks of
        /// every node's search are its descendants.
        #[test]
        fn marks_are_the_descendants(
            n in 2usize..12,
            picks in proptest::collection::vec(proptest::collection::vec(any::<u16>(), 0..4), 12),
        ) {
            let mut parents = vec![VarSet::empty(n); n];
            let mut d = Descendants::new(n);
            for child in (0..n).rev() {
                d.search_from(child);
                let allowed: Vec<usize> =
                    (0..n).filter(|&p| p != child && !d.is_marked(p)).collect();
                let mut chosen = VarSet::empty(n);
                for &k in &picks[child] {
                    if !allowed.is_empty() {
                        chosen.insert(allowed[k as usize % allowed.len()]);
                    }
                }
                d.add_parents(child, &chosen);
                parents[child] = chosen;
                for x in 0..n {
                    d.search_from(x);
                    let marked: Vec<usize> = (0..n).filter(|&y| d.is_marked(y)).collect();
                    prop_assert_eq!(marked, reachable(&parents, x));
                }
            }
        }
    }
}
