//! Acyclicity by a linear order of the nodes: binary order variables with the
//! 3-cycle (transitivity) rows of the linear ordering polytope (Grötschel, Jünger &
//! Reinelt 1984), linked to the family columns by one row per possible arc. Appended to
//! a family program, with or without cluster cuts, it makes the program complete: its
//! integer solutions are exactly the DAGs of the candidates, so one MILP call proves
//! the optimum, where the family program alone needs its cycles cut off round by round.
//!
//! ```text
//! o_uv ∈ {0, 1}                                 for every pair u < v   (1: u before v)
//! 0 ≤ o_uv + o_vw − o_uw ≤ 1                    for every triple u < v < w
//! Σ_{t : u ∈ Π_t} π(v, t) ≤ o_uv                for every possible arc u → v, u < v
//! Σ_{t : u ∈ Π_t} π(v, t) ≤ 1 − o_vu            for every possible arc u → v, u > v
//! ```
//!
//! The triple rows forbid both 3-cycles of {u, v, w} among the order relations, which
//! makes every 0/1 point a total order; an arc u → v is allowed only when u comes
//! first, so every chosen network is acyclic, and every DAG meets the rows with the
//! order of any of its topological sorts. Sizes: n(n − 1)/2 columns and C(n, 3) + (the
//! possible arcs) rows, so it pays on tables of few nodes and many candidates (seed
//! 002's data: adult, nltcs), where the cut loop's MIP rounds restart often.

use crate::family::FamilyIlp;
use crate::milp::{MilpModel, VarId};
use crate::ordering::arc_columns;
use bnsl_core::Dag;

/// The order columns appended to a family program by [`LinearOrder::add_to`].
#[derive(Clone, Debug)]
pub struct LinearOrder {
    n: usize,
    /// The first order column: o_uv for u < v follow in the order (0,1), (0,2), …,
    /// (1,2), …
    first: usize,
}

impl LinearOrder {
    /// Appends the order columns and rows of the module doc to `model`, a program whose
    /// columns are `ilp`'s family columns (its base model, with cluster cuts or other
    /// rows over them).
    ///
    /// # Panics
    /// If `model` has other columns.
    pub fn add_to(ilp: &FamilyIlp<'_>, model: &mut MilpModel) -> Self {
        assert_eq!(model.num_vars(), ilp.num_columns(), "a family program");
        let n = ilp.n();
        let order = LinearOrder {
            n,
            first: model.num_vars(),
        };
        for u in 0..n {
            for v in u + 1..n {
                model
                    .add_binary(format!("before_{u}_{v}"), 0.0)
                    .expect("a zero objective is finite");
            }
        }
        for u in 0..n {
            for v in u + 1..n {
                for w in v + 1..n {
                    let row = [
                        (order.column(u, v), 1.0),
                        (order.column(v, w), 1.0),
                        (order.column(u, w), -1.0),
                    ];
                    model
                        .add_row(format!("transitive_{u}_{v}_{w}"), row, 0.0, 1.0)
                        .expect("valid row");
                }
            }
        }
        for (v, into_v) in arc_columns(ilp).iter().enumerate() {
            for (u, cols) in into_v.iter().enumerate() {
                if cols.is_empty() {
                    continue;
                }
                let (pair, sign, rhs) = match u < v {
                    true => (order.column(u, v), -1.0, 0.0),
                    false => (order.column(v, u), 1.0, 1.0),
                };
                let row = cols.iter().map(|&c| (c, 1.0)).chain([(pair, sign)]);
                model
                    .add_le(format!("arc_order_{u}_{v}"), row, rhs)
                    .expect("valid row");
            }
        }
        order
    }

    /// The column of o_uv, u < v.
    fn column(&self, u: usize, v: usize) -> VarId {
        debug_assert!(u < v && v < self.n);
        // Pairs (a, b), a < u, come first: Σ_{a<u} (n − 1 − a) of them.
        let before = u * (2 * self.n - u - 1) / 2;
        VarId::from_index(self.first + before + (v - u - 1))
    }

    /// The feasible point for `dag` of the program with the order columns: the families
    /// of `dag` and the order of a topological sort. `None` when `dag` is cyclic or not
    /// made of candidates.
    pub fn start(&self, ilp: &FamilyIlp<'_>, dag: &Dag) -> Option<Vec<f64>> {
        let mut values = ilp.values_of(dag)?;
        debug_assert_eq!(values.len(), self.first);
        let mut position = vec![0; self.n];
        for (pos, v) in dag.topological_order().ok()?.into_iter().enumerate() {
            position[v] = pos;
        }
        for u in 0..self.n {
            for v in u + 1..self.n {
                values.push(f64::from(u8::from(position[u] < position[v])));
            }
        }
        Some(values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score_table::{Candidate, ScoreTable};
    use crate::varset::VarSet;

    /// Four nodes, each with the empty set and every single other node as candidates.
    fn pairs_table() -> ScoreTable {
        let n = 4;
        let candidates = (0..n)
            .map(|v| {
                std::iter::once(Candidate {
                    parents: VarSet::empty(n),
                    score: -10.0,
                })
                .chain((0..n).filter(|&u| u != v).map(|u| Candidate {
                    parents: VarSet::from_members(n, [u]),
                    score: -1.0 - u as f64,
                }))
                .collect()
            })
            .collect();
        ScoreTable::new((0..n).map(|v| format!("v{v}")).collect(), candidates).unwrap()
    }

    #[test]
    fn order_columns_are_numbered_pair_by_pair() {
        let table = pairs_table();
        let ilp = FamilyIlp::new(&table);
        let mut model = ilp.model();
        let order = LinearOrder::add_to(&ilp, &mut model);
        let names: Vec<&str> = model.variables()[order.first..]
            .iter()
            .map(|v| v.name.as_str())
            .collect();
        assert_eq!(
            names,
            [
                "before_0_1",
                "before_0_2",
                "before_0_3",
                "before_1_2",
                "before_1_3",
                "before_2_3"
            ]
        );
        for (u, v) in [(0, 1), (1, 3), (2, 3), (0, 3)] {
            let name = &model.variable(order.column(u, v)).name;
            assert_eq!(name, &format!("before_{u}_{v}"));
        }
    }

    /// Every DAG of the table has a feasible point, and no cyclic graph has one: the
    /// rows hold at a cyclic graph's families for no 0/1 order.
    #[test]
    fn dags_are_feasible_and_cycles_are_not() {
        let table = pairs_table();
        let ilp = FamilyIlp::new(&table);
        let mut model = ilp.model();
        let order = LinearOrder::add_to(&ilp, &mut model);
        let graphs = every_graph(&table);
        let mut dags = 0;
        for graph in graphs {
            let family = ilp.values_of(&graph).unwrap();
            let feasible_order = (0..1u32 << 6).any(|bits| {
                let mut point = family.clone();
                point.extend((0..6).map(|i| f64::from((bits >> i) & 1)));
                model.max_violation(&point) < 1e-9
            });
            assert_eq!(feasible_order, graph.is_acyclic(), "{graph:?}");
            if graph.is_acyclic() {
                dags += 1;
                let start = order.start(&ilp, &graph).unwrap();
                assert!(model.max_violation(&start) < 1e-9, "{graph:?}");
            }
        }
        assert!(dags > 1);
        let cyclic = Dag::from_parents(vec![
            VarSet::from_members(4, [1]),
            VarSet::from_members(4, [0]),
            VarSet::empty(4),
            VarSet::empty(4),
        ]);
        assert!(order.start(&ilp, &cyclic).is_none());
    }

    /// Every choice of one candidate per node of `table`, as graphs.
    fn every_graph(table: &ScoreTable) -> Vec<Dag> {
        let mut graphs = vec![Vec::<VarSet>::new()];
        for v in 0..table.n() {
            graphs = graphs
                .into_iter()
                .flat_map(|g| {
                    table.candidates(v).iter().map(move |c| {
                        let mut g = g.clone();
                        g.push(c.parents.clone());
                        g
                    })
                })
                .collect();
        }
        graphs.into_iter().map(Dag::from_parents).collect()
    }
}
