//! Directed acyclic graphs as parent lists, and the checks every learned network goes
//! through before bnsl prints it (acyclicity, candidate membership, recomputed score).

use crate::score_table::ScoreTable;
use crate::varset::VarSet;

/// A directed graph over `n` nodes given by each node's parent set.
///
/// The type does not enforce acyclicity (a solver's raw answer may be cyclic);
/// [`Dag::topological_order`] and [`Dag::check`] tell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dag {
    parents: Vec<VarSet>,
}

/// Why a graph is not an acceptable answer for a score table.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum DagError {
    /// The graph has a directed cycle (the nodes on one cycle are listed).
    #[error("the graph has a directed cycle: {}", .0.join(" -> "))]
    Cycle(Vec<String>),
    /// A node's parent set is not among its candidates.
    #[error("the parent set {{{}}} of `{var}` is not one of its candidate parent sets", parents.join(", "))]
    NotACandidate {
        /// The node.
        var: String,
        /// Its parents' names.
        parents: Vec<String>,
    },
    /// The graph and the table disagree on the number of nodes.
    #[error("the graph has {dag} nodes but the score table has {table}")]
    SizeMismatch {
        /// Nodes of the graph.
        dag: usize,
        /// Variables of the table.
        table: usize,
    },
}

impl Dag {
    /// The graph with no arcs over `n` nodes.
    pub fn empty(n: usize) -> Self {
        Dag {
            parents: vec![VarSet::empty(n); n],
        }
    }

    /// A graph from per-node parent sets.
    pub fn from_parents(parents: Vec<VarSet>) -> Self {
        Dag { parents }
    }

    /// Number of nodes.
    pub fn n(&self) -> usize {
        self.parents.len()
    }

    /// Parent set of node `v`.
    pub fn parents(&self, v: usize) -> &VarSet {
        &self.parents[v]
    }

    /// All parent sets, indexed by node.
    pub fn all_parents(&self) -> &[VarSet] {
        &self.parents
    }

    /// Replaces the parent set of `v`.
    pub fn set_parents(&mut self, v: usize, parents: VarSet) {
        self.parents[v] = parents;
    }

    /// Number of arcs.
    pub fn arc_count(&self) -> usize {
        self.parents.iter().map(VarSet::len).sum()
    }

    /// A topological order (parents before children), or `Err(cycle)` with the nodes of
    /// one directed cycle in order.
    pub fn topological_order(&self) -> Result<Vec<usize>, Vec<usize>> {
        let n = self.n();
        // 0 = unvisited, 1 = on the DFS stack, 2 = finished.
        let mut state = vec![0u8; n];
        let mut order = Vec::with_capacity(n);
        let mut stack: Vec<(usize, Vec<usize>)> = Vec::new();
        for root in 0..n {
            if state[root] != 0 {
                continue;
            }
            state[root] = 1;
            stack.push((root, self.parents[root].to_vec()));
            while let Some((node, pending)) = stack.last_mut() {
                let node = *node;
                match pending.pop() {
                    Some(p) if state[p] == 1 => {
                        let start = stack.iter().position(|(x, _)| *x == p).expect("on stack");
                        return Err(stack[start..].iter().rev().map(|(x, _)| *x).collect());
                    }
                    Some(p) if state[p] == 0 => {
                        state[p] = 1;
                        stack.push((p, self.parents[p].to_vec()));
                    }
                    Some(_) => {}
                    None => {
                        state[node] = 2;
                        order.push(node);
                        stack.pop();
                    }
                }
            }
        }
        Ok(order)
    }

    /// Whether the graph is acyclic.
    pub fn is_acyclic(&self) -> bool {
        self.topological_order().is_ok()
    }

    /// Checks the graph against a score table: same size, acyclic, every parent set a
    /// candidate. Returns the total score (the sum of the candidates' local scores).
    pub fn check(&self, table: &ScoreTable) -> Result<f64, DagError> {
        if self.n() != table.n() {
            return Err(DagError::SizeMismatch {
                dag: self.n(),
                table: table.n(),
            });
        }
        let names = table.names();
        if let Err(cycle) = self.topological_order() {
            return Err(DagError::Cycle(
                cycle.iter().map(|&v| names[v].clone()).collect(),
            ));
        }
        let mut total = 0.0;
        for v in 0..self.n() {
            match table.score_of(v, &self.parents[v]) {
                Some(s) => total += s,
                None => {
                    let parents = self.parents[v].iter().map(|p| names[p].clone()).collect();
                    return Err(DagError::NotACandidate {
                        var: names[v].clone(),
                        parents,
                    });
                }
            }
        }
        Ok(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score_table::Candidate;

    #[test]
    fn finds_cycles_and_orders() {
        let mut d = Dag::empty(4);
        d.set_parents(1, VarSet::from_members(4, [0]));
        d.set_parents(2, VarSet::from_members(4, [1]));
        let order = d.topological_order().unwrap();
        let pos = |v| order.iter().position(|&x| x == v).unwrap();
        assert!(pos(0) < pos(1) && pos(1) < pos(2));
        d.set_parents(0, VarSet::from_members(4, [2]));
        let mut cyc = d.topological_order().unwrap_err();
        cyc.sort();
        assert_eq!(cyc, vec![0, 1, 2]);
    }

    #[test]
    fn check_against_table() {
        let c = |ps: &[usize], s| Candidate {
            parents: VarSet::from_members(2, ps.iter().copied()),
            score: s,
        };
        let t = ScoreTable::new(
            vec!["a".into(), "b".into()],
            vec![vec![c(&[], -2.0), c(&[1], -1.0)], vec![c(&[], -3.0)]],
        )
        .unwrap();
        let mut d = Dag::empty(2);
        assert_eq!(d.check(&t), Ok(-5.0));
        d.set_parents(0, VarSet::from_members(2, [1]));
        assert_eq!(d.check(&t), Ok(-4.0));
        d.set_parents(1, VarSet::from_members(2, [0]));
        assert!(matches!(d.check(&t), Err(DagError::Cycle(_))));
        let mut d = Dag::empty(2);
        d.set_parents(1, VarSet::from_members(2, [0]));
        assert!(matches!(d.check(&t), Err(DagError::NotACandidate { .. })));
    }
}
