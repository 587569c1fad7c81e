//! The Boolean descendant matrix of ASOBS (Scanagatta et al. 2015, §4, steps 1 and 2b–2d): `m(X, Y)` is
//! true when `Y` is a descendant of `X` in the network built so far. Rows are bitsets, so
//! the acyclicity test of a candidate (step 2a: no parent is a descendant of the child)
//! is one intersection per candidate.

use bnsl_formulations::VarSet;

/// Descendant relation of a growing DAG.
#[derive(Clone, Debug)]
pub(super) struct DescendantMatrix {
    rows: Vec<VarSet>,
    /// Pending (ancestor, new descendant) cells, reused between updates.
    todo: Vec<(usize, usize)>,
}

impl DescendantMatrix {
    /// All false, over `n` nodes (step 1).
    pub(super) fn new(n: usize) -> Self {
        DescendantMatrix {
            rows: vec![VarSet::empty(n); n],
            todo: Vec::new(),
        }
    }

    /// The descendants of `x`.
    pub(super) fn descendants(&self, x: usize) -> &VarSet {
        &self.rows[x]
    }

    /// Records that `child` (which had no parents) now has `new_parents`; `parents_of(x)`
    /// gives the current parents of every other node.
    ///
    /// Steps 2b–2d: every ancestor of `child` gains `child` and its descendants. The
    /// pending cells are propagated up the parent links; a cell already true is ignored
    /// and its propagation stops there, so each pending cell either flips a matrix cell
    /// (at most n² times over a whole construction) or is dropped, and each flip queues
    /// at most one cell per parent: O(n²·k) for the whole network, k the largest parent set.
    pub(super) fn add_parents<'a>(
        &mut self,
        child: usize,
        new_parents: &VarSet,
        parents_of: impl Fn(usize) -> &'a VarSet,
    ) {
        let mut items = self.rows[child].to_vec();
        items.push(child);
        self.todo.clear();
        for p in new_parents.iter() {
            self.todo.extend(items.iter().map(|&y| (p, y)));
        }
        while let Some((x, y)) = self.todo.pop() {
            if self.rows[x].contains(y) {
                continue;
            }
            self.rows[x].insert(y);
            self.todo.extend(parents_of(x).iter().map(|p| (p, y)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Descendants of `x` by depth-first search over the children lists.
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
        /// that are not its descendants, as ASOBS does); after every step the matrix
        /// equals the transitive closure of the graph.
        #[test]
        fn matrix_is_the_transitive_closure(
            n in 2usize..12,
            picks in proptest::collection::vec(proptest::collection::vec(any::<u16>(), 0..4), 12),
        ) {
            let mut parents = vec![VarSet::empty(n); n];
            let mut m = DescendantMatrix::new(n);
            for child in (0..n).rev() {
                let allowed: Vec<usize> = (0..n)
                    .filter(|&p| p != child && !m.descendants(child).contains(p))
                    .collect();
                let mut chosen = VarSet::empty(n);
                for &k in &picks[child] {
                    if !allowed.is_empty() {
                        chosen.insert(allowed[k as usize % allowed.len()]);
                    }
                }
                m.add_parents(child, &chosen, |x| &parents[x]);
                parents[child] = chosen;
                for x in 0..n {
                    prop_assert_eq!(m.descendants(x).to_vec(), reachable(&parents, x));
                }
            }
        }
    }

    #[test]
    fn propagates_to_all_ancestors() {
        // Build 0 -> 1 -> 2 and 3 -> 2, adding 2's parents last.
        let n = 4;
        let mut parents = vec![VarSet::empty(n); n];
        let mut m = DescendantMatrix::new(n);
        let set = |xs: &[usize]| VarSet::from_members(n, xs.iter().copied());
        // 1's parents first: {0}.
        parents[1] = set(&[0]);
        m.add_parents(1, &set(&[0]), |x| &parents[x]);
        assert_eq!(m.descendants(0).to_vec(), vec![1]);
        // Node 2 gets {1, 3}.
        let p2 = set(&[1, 3]);
        m.add_parents(2, &p2, |x| &parents[x]);
        parents[2] = p2;
        assert_eq!(m.descendants(0).to_vec(), vec![1, 2]);
        assert_eq!(m.descendants(1).to_vec(), vec![2]);
        assert_eq!(m.descendants(3).to_vec(), vec![2]);
        assert!(m.descendants(2).is_empty());
    }
}
