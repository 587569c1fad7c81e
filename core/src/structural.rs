//! Structural constraints of the kind GOBNILP users set: required arcs, forbidden arcs and
//! parent limits (global or per node).
//!
//! They are applied by restricting the score table: a candidate parent set survives when
//! it contains every required parent of its node, no forbidden one, and respects the
//! parent limit. Every formulation then works on the restricted table, so the
//! constraints hold in every back-end without extra rows. A cycle of required arcs is the
//! one contradiction the restriction cannot see locally; [`StructuralConstraints::restrict`]
//! detects it before any solver runs.

use crate::dag::Dag;
use crate::score_table::{Candidate, ScoreTable};
use crate::varset::VarSet;

/// Required and forbidden arcs and parent limits, over the variables of one score table.
/// Arcs are `(parent, child)` pairs of variable indices.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StructuralConstraints {
    /// Arcs that every network must contain.
    pub required: Vec<(usize, usize)>,
    /// Arcs that no network may contain.
    pub forbidden: Vec<(usize, usize)>,
    /// Largest parent set of any node.
    pub max_parents: Option<usize>,
    /// Largest parent set of particular nodes, `(node, limit)`; tighter than
    /// `max_parents` where both apply.
    pub max_parents_of: Vec<(usize, usize)>,
}

/// Why no network satisfies the constraints.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum Infeasibility {
    /// The required arcs contain a directed cycle (variable names, in cycle order).
    #[error("the required arcs form a cycle: {}", .0.join(" -> "))]
    RequiredCycle(Vec<String>),
    /// No candidate parent set of a node satisfies its constraints.
    #[error("no candidate parent set of `{0}` satisfies the constraints")]
    NoCandidate(String),
}

impl StructuralConstraints {
    /// Whether no constraint is set.
    pub fn is_empty(&self) -> bool {
        self.required.is_empty()
            && self.forbidden.is_empty()
            && self.max_parents.is_none()
            && self.max_parents_of.is_empty()
    }

    /// These constraints with the parent limit of every node lowered to `limit`, if
    /// given (a command line's `--max-parents` beside a constraint file's
    /// `max-parents`: the smaller one holds).
    pub fn with_parent_limit(mut self, limit: Option<usize>) -> Self {
        if let Some(k) = limit {
            self.max_parents = Some(self.max_parents.map_or(k, |c| c.min(k)));
        }
        self
    }

    /// The parent limit of node `v`, if any.
    pub fn limit_of(&self, v: usize) -> Option<usize> {
        self.max_parents_of
            .iter()
            .filter(|(node, _)| *node == v)
            .map(|(_, k)| *k)
            .chain(self.max_parents)
            .min()
    }

    /// The table restricted to candidates that satisfy every constraint.
    ///
    /// # Panics
    /// If an arc names a variable outside the table (callers resolve names first).
    pub fn restrict(&self, table: &ScoreTable) -> Result<ScoreTable, Infeasibility> {
        Ok(self
            .restrict_if_any(table)?
            .unwrap_or_else(|| table.clone()))
    }

    /// [`Self::restrict`], without copying `table` when there is no constraint
    /// (`Ok(None)`).
    pub fn restrict_if_any(&self, table: &ScoreTable) -> Result<Option<ScoreTable>, Infeasibility> {
        if self.is_empty() {
            return Ok(None);
        }
        let n = table.n();
        let names = table.names();
        if let Some(cycle) = self.required_cycle(n) {
            return Err(Infeasibility::RequiredCycle(
                cycle.into_iter().map(|v| names[v].clone()).collect(),
            ));
        }
        let mut required = vec![VarSet::empty(n); n];
        let mut forbidden = vec![VarSet::empty(n); n];
        for &(p, c) in &self.required {
            required[c].insert(p);
        }
        for &(p, c) in &self.forbidden {
            forbidden[c].insert(p);
        }
        let lists = (0..n)
            .map(|v| {
                let limit = self.limit_of(v).unwrap_or(usize::MAX);
                let kept: Vec<Candidate> = table
                    .candidates(v)
                    .iter()
                    .filter(|c| {
                        required[v].is_subset(&c.parents)
                            && !c.parents.intersects(&forbidden[v])
                            && c.parents.len() <= limit
                    })
                    .cloned()
                    .collect();
                if kept.is_empty() {
                    Err(Infeasibility::NoCandidate(names[v].clone()))
                } else {
                    Ok(kept)
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Some(ScoreTable::new(names.to_vec(), lists).expect(
            "a subset of a valid table's candidates is a valid table",
        )))
    }

    /// A directed cycle among the required arcs, if there is one.
    fn required_cycle(&self, n: usize) -> Option<Vec<usize>> {
        let mut graph = Dag::empty(n);
        for &(p, c) in &self.required {
            graph.set_parents(c, graph.parents(c).with(p));
        }
        graph.topological_order().err()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_smaller_parent_limit_holds() {
        let file = StructuralConstraints {
            max_parents: Some(2),
            ..StructuralConstraints::default()
        };
        assert_eq!(file.clone().with_parent_limit(Some(3)).max_parents, Some(2));
        assert_eq!(file.clone().with_parent_limit(Some(1)).max_parents, Some(1));
        assert_eq!(file.clone().with_parent_limit(None), file);
        let none = StructuralConstraints::default();
        assert_eq!(none.with_parent_limit(Some(4)).max_parents, Some(4));
    }

    fn table() -> ScoreTable {
        let c = |ps: &[usize], s| Candidate {
            parents: VarSet::from_members(3, ps.iter().copied()),
            score: s,
        };
        ScoreTable::new(
            vec!["a".into(), "b".into(), "c".into()],
            vec![
                vec![c(&[], -5.0), c(&[1], -4.0), c(&[1, 2], -3.0)],
                vec![c(&[], -5.0), c(&[0], -4.5), c(&[2], -4.0)],
                vec![c(&[], -6.0), c(&[0, 1], -2.0)],
            ],
        )
        .unwrap()
    }

    #[test]
    fn restricts_candidates() {
        let t = table();
        let cons = StructuralConstraints {
            required: vec![(1, 0)],
            forbidden: vec![(2, 1)],
            max_parents: Some(1),
            max_parents_of: vec![],
        };
        let r = cons.restrict(&t).unwrap();
        let sets =
            |v| -> Vec<Vec<usize>> { r.candidates(v).iter().map(|c| c.parents.to_vec()).collect() };
        assert_eq!(sets(0), vec![vec![1]]);
        assert_eq!(sets(1), vec![vec![0], vec![]]);
        assert_eq!(sets(2), vec![Vec::<usize>::new()]);
    }

    #[test]
    fn per_node_limit_is_the_tighter_one() {
        let cons = StructuralConstraints {
            max_parents: Some(2),
            max_parents_of: vec![(2, 0)],
            ..Default::default()
        };
        assert_eq!(cons.limit_of(2), Some(0));
        assert_eq!(cons.limit_of(1), Some(2));
        let r = cons.restrict(&table()).unwrap();
        assert_eq!(r.candidates(2).len(), 1);
    }

    #[test]
    fn detects_infeasibility() {
        let t = table();
        let cycle = StructuralConstraints {
            required: vec![(0, 1), (1, 0)],
            ..Default::default()
        };
        assert!(matches!(
            cycle.restrict(&t),
            Err(Infeasibility::RequiredCycle(_))
        ));
        let empty = StructuralConstraints {
            required: vec![(2, 1), (0, 1)],
            ..Default::default()
        };
        assert_eq!(
            empty.restrict(&t),
            Err(Infeasibility::NoCandidate("b".into()))
        );
    }
}
