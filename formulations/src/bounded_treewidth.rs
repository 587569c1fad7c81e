//! The bounded-treewidth MILP of Nie et al. 2016, formulation (6): the family program
//! made acyclic by order variables (§3.2) and joined to an elimination order whose
//! chordal graph holds the moral graph and has at most `w` later neighbours per node
//! (§3.1). Polynomial in size, so any MILP back-end solves it in one call.
//!
//! Columns, in this order:
//! - `π(i, t)`: the family columns of [`FamilyIlp`] (same layout, scores as objective);
//! - `v_i ∈ [0, n]`: topological order values (`order_i`);
//! - `y_ij ∈ {0, 1}` for `i ≠ j`: the chordal graph has edge ij and i is eliminated
//!   before j (`fill_i_j`);
//! - `z_i ∈ [0, n]`: elimination order values (`elim_i`).
//!
//! Rows of the paper's program ([`TreewidthForm::Paper`], exactly as written there):
//!
//! ```text
//! Σ_j y_ij ≤ w                                          every i            (6c)
//! (n + 1) y_ij ≤ n + z_j − z_i                          every i ≠ j        (6d)
//! y_ij + y_ik − y_jk − y_kj ≤ 1                         every i; j < k     (6e)
//! Σ_t π_it = 1                                          every i            (6f)
//! (n + 1) π_it ≤ n + v_j − v_i                          every i, t, j ∈ F_it (6g)
//! π_it ≤ y_ij + y_ji                                    every i, t, j ∈ F_it (6h)
//! π_it ≤ y_jk + y_kj                                    every i, t, j < k ∈ F_it (6i)
//! ```
//!
//! [`TreewidthForm::Tight`] (the default) has the same integer solutions and a tighter
//! relaxation. Since exactly one family of each node is chosen, the rows of (6g), (6h)
//! and (6i) that share their right side are summed over the families:
//!
//! ```text
//! (n + 1) Σ_{t : j ∈ F_it} π_it ≤ n + v_j − v_i                      every arc j → i
//! Σ_{t : j ∈ F_it} π_it + Σ_{t : i ∈ F_jt} π_jt ≤ y_ij + y_ji         every pair i < j
//! Σ_{t : j, k ∈ F_it} π_it ≤ y_jk + y_kj                             every i; j < k
//! y_ij + y_ji ≤ 1                                                    every pair i < j
//! ```
//!
//! (the second row holds both arcs between i and j, which an acyclic graph never has
//! together; the last follows from (6d) for integer points). Rows whose left side has no
//! family column are left out.
//!
//! Theorem 1 of the paper: the families chosen by a feasible point form a DAG of
//! treewidth at most `w`, and any order of the nodes by increasing `z` eliminates its
//! moral graph with width at most `w` ([`TreewidthProgram::elimination_order`]).

use crate::family::FamilyIlp;
use crate::milp::{MilpModel, SideConstraints, VarId};
use crate::ordering::{arc_columns, order_values};
use bnsl_core::treewidth::{moral_graph, Graph, TreeDecomposition};
use bnsl_core::Dag;
use std::collections::BTreeMap;

/// Which rows [`treewidth_model`] writes (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TreewidthForm {
    /// Formulation (6) as the paper writes it.
    Paper,
    /// The summed rows: same integer solutions, tighter relaxation.
    #[default]
    Tight,
}

/// The bounded-treewidth program of a score table, with the columns its answers are
/// read from.
#[derive(Clone, Debug)]
pub struct TreewidthProgram {
    /// The MILP; its first columns are the family columns of the [`FamilyIlp`].
    pub model: MilpModel,
    /// The treewidth bound `w`.
    pub width: usize,
    order: Vec<VarId>,
    fill: Vec<Vec<Option<VarId>>>,
    elimination: Vec<VarId>,
}

/// The bounded-treewidth program (6) of `ilp`'s table with bound `width`, in `form`.
pub fn treewidth_model(ilp: &FamilyIlp<'_>, width: usize, form: TreewidthForm) -> TreewidthProgram {
    build(ilp, width, form, true)
}

/// The rows of (6) beyond the family program, without the order variables `v` and
/// their rows (6g): for an engine that makes the families acyclic itself (a branch and
/// cut with cluster cuts), the chordal graph of width at most `width` that holds the
/// moral graph. Its columns are `y` then `z`.
pub fn treewidth_side(ilp: &FamilyIlp<'_>, width: usize, form: TreewidthForm) -> SideConstraints {
    let program = build(ilp, width, form, false);
    let base_columns = ilp.num_columns();
    SideConstraints {
        base_columns,
        columns: program.model.variables()[base_columns..].to_vec(),
        rows: program.model.rows()[ilp.n()..].to_vec(),
    }
}

/// The program, with the order variables and rows (6g) when `acyclic`.
fn build(
    ilp: &FamilyIlp<'_>,
    width: usize,
    form: TreewidthForm,
    acyclic: bool,
) -> TreewidthProgram {
    let n = ilp.n();
    let mut model = ilp.model();
    let bound = n as f64;
    let order: Vec<VarId> = match acyclic {
        true => (0..n)
            .map(|i| continuous(&mut model, format!("order_{i}"), bound))
            .collect(),
        false => Vec::new(),
    };
    let fill: Vec<Vec<Option<VarId>>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| (i != j).then(|| binary(&mut model, format!("fill_{i}_{j}"))))
                .collect()
        })
        .collect();
    let elimination: Vec<VarId> = (0..n)
        .map(|i| continuous(&mut model, format!("elim_{i}"), bound))
        .collect();
    let mut program = TreewidthProgram {
        model,
        width,
        order,
        fill,
        elimination,
    };
    program.add_elimination_rows(form);
    match form {
        TreewidthForm::Paper => program.add_paper_family_rows(ilp),
        TreewidthForm::Tight => program.add_tight_family_rows(ilp),
    }
    program
}

fn continuous(model: &mut MilpModel, name: String, upper: f64) -> VarId {
    model
        .add_continuous(name, 0.0, upper, 0.0)
        .expect("valid bounds")
}

fn binary(model: &mut MilpModel, name: String) -> VarId {
    model.add_binary(name, 0.0).expect("valid column")
}

impl TreewidthProgram {
    fn n(&self) -> usize {
        self.elimination.len()
    }

    fn y(&self, i: usize, j: usize) -> VarId {
        self.fill[i][j].expect("i ≠ j")
    }

    fn le(&mut self, name: String, row: Vec<(VarId, f64)>, upper: f64) {
        self.model.add_le(name, row, upper).expect("valid row");
    }

    /// (6c), (6d), (6e), and in the tight form `y_ij + y_ji ≤ 1`.
    fn add_elimination_rows(&mut self, form: TreewidthForm) {
        let n = self.n();
        let big = (n + 1) as f64;
        for i in 0..n {
            let row = (0..n)
                .filter(|&j| j != i)
                .map(|j| (self.y(i, j), 1.0))
                .collect();
            self.le(format!("width_{i}"), row, self.width as f64);
        }
        for i in 0..n {
            for j in (0..n).filter(|&j| j != i) {
                let row = vec![
                    (self.y(i, j), big),
                    (self.elimination[i], 1.0),
                    (self.elimination[j], -1.0),
                ];
                self.le(format!("elim_{i}_{j}"), row, n as f64);
            }
        }
        for i in 0..n {
            for j in (0..n).filter(|&j| j != i) {
                for k in (j + 1..n).filter(|&k| k != i) {
                    let row = vec![
                        (self.y(i, j), 1.0),
                        (self.y(i, k), 1.0),
                        (self.y(j, k), -1.0),
                        (self.y(k, j), -1.0),
                    ];
                    self.le(format!("perfect_{i}_{j}_{k}"), row, 1.0);
                }
            }
        }
        if form == TreewidthForm::Tight {
            for i in 0..n {
                for j in i + 1..n {
                    let row = vec![(self.y(i, j), 1.0), (self.y(j, i), 1.0)];
                    self.le(format!("one_way_{i}_{j}"), row, 1.0);
                }
            }
        }
    }

    /// (6g), (6h), (6i) as written: one row per family and parent (pair of parents).
    fn add_paper_family_rows(&mut self, ilp: &FamilyIlp<'_>) {
        let n = self.n();
        let big = (n + 1) as f64;
        for col in 0..ilp.num_columns() {
            let (i, t) = ilp.family(col);
            let pi = VarId::from_index(col);
            let parents = ilp.parents(col).to_vec();
            for (a, &j) in parents.iter().enumerate() {
                if !self.order.is_empty() {
                    let row = vec![(pi, big), (self.order[j], -1.0), (self.order[i], 1.0)];
                    self.le(format!("acyclic_{i}_{t}_{j}"), row, n as f64);
                }
                let row = vec![(pi, 1.0), (self.y(i, j), -1.0), (self.y(j, i), -1.0)];
                self.le(format!("arc_edge_{i}_{t}_{j}"), row, 0.0);
                for &k in &parents[a + 1..] {
                    let row = vec![(pi, 1.0), (self.y(j, k), -1.0), (self.y(k, j), -1.0)];
                    self.le(format!("moral_{i}_{t}_{j}_{k}"), row, 0.0);
                }
            }
        }
    }

    /// The summed family rows of the tight form (see the module doc).
    fn add_tight_family_rows(&mut self, ilp: &FamilyIlp<'_>) {
        let n = self.n();
        let big = (n + 1) as f64;
        let arcs = arc_columns(ilp);
        let acyclic = !self.order.is_empty();
        for (i, into_i) in arcs.iter().enumerate().filter(|_| acyclic) {
            for (j, cols) in into_i.iter().enumerate().filter(|(_, c)| !c.is_empty()) {
                let mut row: Vec<(VarId, f64)> = cols.iter().map(|&c| (c, big)).collect();
                row.push((self.order[j], -1.0));
                row.push((self.order[i], 1.0));
                self.le(format!("acyclic_{j}_{i}"), row, n as f64);
            }
        }
        for (i, into_i) in arcs.iter().enumerate() {
            for (j, into_j) in arcs.iter().enumerate().skip(i + 1) {
                let cols: Vec<VarId> = into_i[j].iter().chain(&into_j[i]).copied().collect();
                self.add_edge_row(format!("arc_edge_{i}_{j}"), &cols, i, j);
            }
        }
        for i in 0..n {
            for ((j, k), cols) in co_parent_columns(ilp, i) {
                self.add_edge_row(format!("moral_{i}_{j}_{k}"), &cols, j, k);
            }
        }
    }

    /// `Σ cols ≤ y_jk + y_kj`: any of the columns needs the edge jk; nothing when `cols`
    /// is empty.
    fn add_edge_row(&mut self, name: String, cols: &[VarId], j: usize, k: usize) {
        if cols.is_empty() {
            return;
        }
        let mut row: Vec<(VarId, f64)> = cols.iter().map(|&c| (c, 1.0)).collect();
        row.push((self.y(j, k), -1.0));
        row.push((self.y(k, j), -1.0));
        self.le(name, row, 0.0);
    }

    /// The nodes by increasing elimination value `z` in `values` (ties by index): by
    /// Theorem 1, an order that eliminates the moral graph of the chosen DAG with width
    /// at most `w`.
    pub fn elimination_order(&self, values: &[f64]) -> Vec<usize> {
        let mut nodes: Vec<usize> = (0..self.n()).collect();
        nodes.sort_by(|&a, &b| {
            values[self.elimination[a].index()]
                .total_cmp(&values[self.elimination[b].index()])
                .then(a.cmp(&b))
        });
        nodes
    }

    /// A feasible point for `dag`, when it is a DAG of `ilp`'s candidates and `order`
    /// eliminates its moral graph with width at most `w`: families, topological order
    /// values, the chordal graph of `order` and its positions.
    pub fn start_values(
        &self,
        ilp: &FamilyIlp<'_>,
        dag: &Dag,
        order: &[usize],
    ) -> Option<Vec<f64>> {
        let mut values = vec![0.0; self.model.num_vars()];
        values[..ilp.num_columns()].copy_from_slice(&ilp.values_of(dag)?);
        let topological = order_values(dag)?;
        for (&column, value) in self.order.iter().zip(topological) {
            values[column.index()] = value;
        }
        let moral: Graph = moral_graph(dag);
        let decomposition = TreeDecomposition::from_elimination(&moral, order);
        if decomposition.width() > self.width {
            return None;
        }
        for (pos, &v) in order.iter().enumerate() {
            values[self.elimination[v].index()] = pos as f64;
            for &u in decomposition.bags[pos].iter().filter(|&&u| u != v) {
                values[self.y(v, u).index()] = 1.0;
            }
        }
        Some(values)
    }
}

/// For each pair `j < k` of parents that some family of `i` holds together, the family
/// columns of `i` holding both.
fn co_parent_columns(ilp: &FamilyIlp<'_>, i: usize) -> BTreeMap<(usize, usize), Vec<VarId>> {
    let mut by_pair: BTreeMap<(usize, usize), Vec<VarId>> = BTreeMap::new();
    for col in ilp.columns_of(i) {
        let parents = ilp.parents(col).to_vec();
        for (a, &j) in parents.iter().enumerate() {
            for &k in &parents[a + 1..] {
                by_pair
                    .entry((j, k))
                    .or_default()
                    .push(VarId::from_index(col));
            }
        }
    }
    by_pair
}

#[cfg(test)]
mod tests;
