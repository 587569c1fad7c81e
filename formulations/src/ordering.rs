//! The ordering formulation: the family-variable program made acyclic by continuous
//! order variables, polynomial in size, so any MILP back-end solves it in one call
//! (Nie et al. 2016, §3.2: constraints (5a), (5b), (5e), (5f), without the treewidth part).
//!
//! ```text
//! maximise   Σ_v Σ_t σ(v, Π_t) · π(v, t)
//! subject to Σ_t π(v, t) = 1                                   for every node v    (5a)
//!            (n + 1) · Σ_{t : u ∈ Π_t} π(v, t) ≤ n + o_u − o_v   for every arc u → v (5b)
//!            0 ≤ o_v ≤ n                                                             (5e)
//!            Σ_{t : v ∈ Π_t} π(u, t) + Σ_{t : u ∈ Π_t} π(v, t) ≤ 1  for every pair {u, v}
//! ```
//!
//! Nie et al. 2016 write (5b) once per family and parent; since at most one family of v is
//! chosen, summing the families of v that contain u gives one row per possible arc with
//! the same integer solutions and a tighter relaxation. When u is a parent of v the row
//! forces `o_u ≥ o_v + 1`: order values strictly decrease along every arc, so a node
//! with a larger value is never a descendant of one with a smaller value.
//!
//! The last rows are the cluster constraints of the two-node clusters (no 2-cycles):
//! redundant for integer solutions, polynomial in number (one per pair that can form a
//! 2-cycle), and they close most of the gap the big-M rows (5b) leave in the LP
//! relaxation — without them, even small problems take CBC long (see README, "Benchmark
//! notes behind design choices").

use crate::family::FamilyIlp;
use crate::milp::{MilpModel, VarId};
use bnsl_core::Dag;

/// The ordering program of `ilp`'s table. Its first columns are the family columns of
/// [`FamilyIlp`] (same layout), followed by one order variable per node.
pub fn ordering_model(ilp: &FamilyIlp<'_>) -> MilpModel {
    let n = ilp.n();
    let mut model = ilp.model();
    let order: Vec<VarId> = (0..n)
        .map(|v| {
            model
                .add_continuous(format!("order_{v}"), 0.0, n as f64, 0.0)
                .expect("valid bounds")
        })
        .collect();
    let big = (n + 1) as f64;
    let arcs = arc_columns(ilp);
    for v in 0..n {
        for (u, cols) in arcs[v].iter().enumerate() {
            if cols.is_empty() {
                continue;
            }
            let mut row: Vec<(VarId, f64)> = cols.iter().map(|&c| (c, big)).collect();
            row.push((order[u], -1.0));
            row.push((order[v], 1.0));
            model
                .add_le(format!("order_{u}_{v}"), row, n as f64)
                .expect("valid row");
        }
    }
    for (v, into_v) in arcs.iter().enumerate() {
        for (u, into_u) in arcs.iter().enumerate().take(v) {
            let (u_to_v, v_to_u) = (&into_v[u], &into_u[v]);
            if u_to_v.is_empty() || v_to_u.is_empty() {
                continue;
            }
            let row: Vec<(VarId, f64)> = u_to_v.iter().chain(v_to_u).map(|&c| (c, 1.0)).collect();
            model
                .add_le(format!("pair_{u}_{v}"), row, 1.0)
                .expect("valid row");
        }
    }
    model
}

/// Order values for `dag` that meet the order rows: `n − 1 −` each node's position in a
/// topological order, so they decrease along every arc. `None` for a cyclic graph.
pub fn order_values(dag: &Dag) -> Option<Vec<f64>> {
    let n = dag.n();
    let order = dag.topological_order().ok()?;
    let mut values = vec![0.0; n];
    for (pos, &v) in order.iter().enumerate() {
        values[v] = (n - 1 - pos) as f64;
    }
    Some(values)
}

/// The feasible point of [`ordering_model`] for `dag`: its families and
/// [`order_values`]; `None` when `dag` is cyclic or not made of candidates.
pub fn ordering_start(ilp: &FamilyIlp<'_>, dag: &Dag) -> Option<Vec<f64>> {
    let mut values = ilp.values_of(dag)?;
    values.extend(order_values(dag)?);
    Some(values)
}

/// `arcs[v][u]`: the family columns of `v` whose parent set contains `u`.
pub(crate) fn arc_columns(ilp: &FamilyIlp<'_>) -> Vec<Vec<Vec<VarId>>> {
    let n = ilp.n();
    (0..n)
        .map(|v| {
            let mut by_parent: Vec<Vec<VarId>> = vec![Vec::new(); n];
            for col in ilp.columns_of(v) {
                for u in ilp.parents(col).iter() {
                    by_parent[u].push(VarId::from_index(col));
                }
            }
            by_parent
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dag::Dag;
    use crate::score_table::{Candidate, ScoreTable};
    use crate::varset::VarSet;

    #[test]
    fn dags_are_feasible_and_cycles_are_not() {
        let n = 3;
        let c = |ps: &[usize]| Candidate {
            parents: VarSet::from_members(n, ps.iter().copied()),
            score: -(ps.len() as f64),
        };
        let t = ScoreTable::new(
            vec!["a".into(), "b".into(), "c".into()],
            vec![
                vec![c(&[]), c(&[2])],
                vec![c(&[]), c(&[0])],
                vec![c(&[]), c(&[1])],
            ],
        )
        .unwrap();
        let ilp = FamilyIlp::new(&t);
        let model = ordering_model(&ilp);
        assert_eq!(model.num_vars(), ilp.num_columns() + n);
        assert_eq!(model.num_rows(), n + 3); // no pair can form a 2-cycle
        let mut dag = Dag::empty(n);
        dag.set_parents(1, VarSet::from_members(n, [0]));
        dag.set_parents(2, VarSet::from_members(n, [1]));
        let mut values = ilp.values_of(&dag).unwrap();
        values.extend([2.0, 1.0, 0.0]);
        assert!(model.max_violation(&values) <= 1e-12);
        // Closing the cycle a <- c: no order values can work; this one fails.
        dag.set_parents(0, VarSet::from_members(n, [2]));
        let mut values = ilp.values_of(&dag).unwrap();
        values.extend([2.0, 1.0, 0.0]);
        assert!(model.max_violation(&values) > 0.5);
    }
}
