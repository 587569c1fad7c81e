//! Acyclicity propagation for the family-variable ILP: the kind of domain reduction
//! GOBNILP's DAG-cluster constraint handler performs at every node of the search
//! (Bartlett & Cussens 2017, AIJ 244).
//!
//! At a node of a branch-and-bound search some family columns are closed (fixed to 0).
//! When every open column of a node `v` has parent `u`, the arc `u → v` is implied.
//! The implied arcs form a graph; a column `(v, Π)` whose parent set Π holds a
//! descendant of `v` in that graph would close a cycle, so it can be closed too. Closing
//! columns may imply more arcs, so the rule runs to a fixpoint. A node with no open
//! column, or implied arcs that form a cycle, make the node infeasible.

use super::FamilyIlp;
use crate::dag::Dag;
use crate::varset::VarSet;

/// What propagation found at a node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Propagated {
    /// The open columns admit no DAG (a node has no open column, or the implied arcs
    /// form a cycle).
    Infeasible,
    /// These open columns (in increasing order) must be closed: each would close a
    /// cycle with the implied arcs.
    Close(Vec<usize>),
}

/// Propagates acyclicity over the columns of `ilp` of which `open[c]` says whether
/// column `c` may still take value 1 (see the module documentation).
pub fn propagate_acyclicity(ilp: &FamilyIlp<'_>, open: &[bool]) -> Propagated {
    debug_assert_eq!(open.len(), ilp.num_columns());
    let mut open = open.to_vec();
    let mut closed = Vec::new();
    loop {
        let Some(implied) = implied_arcs(ilp, &open) else {
            return Propagated::Infeasible;
        };
        let Some(descendants) = descendants(&implied) else {
            return Propagated::Infeasible;
        };
        let before = closed.len();
        for (v, below) in descendants.iter().enumerate() {
            for col in ilp.columns_of(v) {
                if open[col] && ilp.parents(col).intersects(below) {
                    open[col] = false;
                    closed.push(col);
                }
            }
        }
        if closed.len() == before {
            closed.sort_unstable();
            return Propagated::Close(closed);
        }
    }
}

/// The graph of implied arcs: each node's parents are those common to all its open
/// columns. `None` when a node has no open column.
fn implied_arcs(ilp: &FamilyIlp<'_>, open: &[bool]) -> Option<Dag> {
    let n = ilp.n();
    let mut parents = Vec::with_capacity(n);
    for v in 0..n {
        let mut common: Option<VarSet> = None;
        for col in ilp.columns_of(v).filter(|&c| open[c]) {
            let p = ilp.parents(col);
            common = Some(match common {
                None => p.clone(),
                Some(c) => c.intersection(p),
            });
            if common.as_ref().is_some_and(VarSet::is_empty) {
                break;
            }
        }
        parents.push(common?);
    }
    Some(Dag::from_parents(parents))
}

/// Every node's descendants in `dag`, or `None` when it has a cycle.
fn descendants(dag: &Dag) -> Option<Vec<VarSet>> {
    let n = dag.n();
    let order = dag.topological_order().ok()?;
    let mut ancestors = vec![VarSet::empty(n); n];
    for &v in &order {
        let mut anc = VarSet::empty(n);
        for u in dag.parents(v).iter() {
            anc = anc.union(&ancestors[u]).with(u);
        }
        ancestors[v] = anc;
    }
    let mut desc = vec![VarSet::empty(n); n];
    for (u, anc) in ancestors.iter().enumerate() {
        for v in anc.iter() {
            desc[v].insert(u);
        }
    }
    Some(desc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score_table::{Candidate, ScoreTable};

    fn table(families: &[&[&[usize]]]) -> ScoreTable {
        let n = families.len();
        let names = (0..n).map(|v| format!("x{v}")).collect();
        let candidates = families
            .iter()
            .map(|sets| {
                sets.iter()
                    .enumerate()
                    .map(|(k, ps)| Candidate {
                        parents: VarSet::from_members(n, ps.iter().copied()),
                        score: -(k as f64) - 1.0,
                    })
                    .collect()
            })
            .collect();
        ScoreTable::new(names, candidates).unwrap()
    }

    /// Every choice of one open column per node, as parent sets.
    fn choices(ilp: &FamilyIlp<'_>, open: &[bool]) -> Vec<Vec<usize>> {
        let mut all = vec![Vec::new()];
        for v in 0..ilp.n() {
            let cols: Vec<usize> = ilp.columns_of(v).filter(|&c| open[c]).collect();
            all = all
                .into_iter()
                .flat_map(|pick: Vec<usize>| {
                    cols.iter().map(move |&c| {
                        let mut p = pick.clone();
                        p.push(c);
                        p
                    })
                })
                .collect();
        }
        all
    }

    fn is_acyclic(ilp: &FamilyIlp<'_>, pick: &[usize]) -> bool {
        let parents = pick.iter().map(|&c| ilp.parents(c).clone()).collect();
        Dag::from_parents(parents).topological_order().is_ok()
    }

    proptest::proptest! {
        /// Propagation is sound: no DAG made of open columns uses a column it closes, and
        /// when it reports infeasibility there is no such DAG.
        #[test]
        fn closes_only_columns_no_dag_can_use(
            masks in proptest::collection::vec(proptest::collection::vec(0u64..16, 1..4), 4),
            open_bits in proptest::collection::vec(proptest::bool::weighted(0.7), 16),
        ) {
            let n = masks.len();
            let families: Vec<Vec<Vec<usize>>> = masks
                .iter()
                .enumerate()
                .map(|(v, sets)| {
                    let mut sets: Vec<Vec<usize>> = sets
                        .iter()
                        .map(|m| (0..n).filter(|&u| u != v && m >> u & 1 == 1).collect())
                        .collect();
                    sets.sort();
                    sets.dedup();
                    sets
                })
                .collect();
            let refs: Vec<Vec<&[usize]>> =
                families.iter().map(|f| f.iter().map(Vec::as_slice).collect()).collect();
            let refs: Vec<&[&[usize]]> = refs.iter().map(Vec::as_slice).collect();
            let t = table(&refs);
            let ilp = FamilyIlp::new(&t);
            let open: Vec<bool> = (0..ilp.num_columns()).map(|c| open_bits[c % 16]).collect();
            let dags: Vec<Vec<usize>> = choices(&ilp, &open)
                .into_iter()
                .filter(|pick| is_acyclic(&ilp, pick))
                .collect();
            match propagate_acyclicity(&ilp, &open) {
                Propagated::Infeasible => proptest::prop_assert!(dags.is_empty()),
                Propagated::Close(closed) => {
                    for pick in &dags {
                        proptest::prop_assert!(pick.iter().all(|c| !closed.contains(c)));
                    }
                }
            }
        }
    }

    #[test]
    fn a_forced_chain_closes_the_columns_that_would_reverse_it() {
        // x0 <- {x1} or {}; x1 <- {x2} or {}; x2 <- {x0} or {}.
        let t = table(&[&[&[1], &[]], &[&[2], &[]], &[&[0], &[]]]);
        let ilp = FamilyIlp::new(&t);
        // x0 must take x1, x1 must take x2: x2 <- {x0} closes the cycle.
        let open = [true, false, true, false, true, true];
        assert_eq!(
            propagate_acyclicity(&ilp, &open),
            Propagated::Close(vec![4])
        );
        // Nothing forced: nothing closed.
        assert_eq!(
            propagate_acyclicity(&ilp, &[true; 6]),
            Propagated::Close(vec![])
        );
    }

    #[test]
    fn closing_runs_to_a_fixpoint_and_detects_forced_cycles() {
        // x0 <- {x1}; x1 <- {x0} or {x2}; x2 <- {x1} or {}.
        let t = table(&[&[&[1]], &[&[0], &[2]], &[&[1], &[]]]);
        let ilp = FamilyIlp::new(&t);
        // x1 -> x0 is forced, so x1 <- {x0} closes; then x2 -> x1 is forced, so
        // x2 <- {x1} closes too.
        let open = [true; 5];
        assert_eq!(
            propagate_acyclicity(&ilp, &open),
            Propagated::Close(vec![1, 3])
        );
        // Forcing x1 <- {x0} as well leaves a cycle.
        let open = [true, true, false, true, true];
        assert_eq!(propagate_acyclicity(&ilp, &open), Propagated::Infeasible);
        // A node with nothing open.
        let open = [false, true, true, true, true];
        assert_eq!(propagate_acyclicity(&ilp, &open), Propagated::Infeasible);
    }
}
