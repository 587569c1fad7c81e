//! Certificates of optimality for the family ILP that a third party checks in exact
//! arithmetic, with no solver: LP duality for the relaxation with cluster rows, and a
//! branching tree where one relaxation does not close the gap.
//!
//! With the cluster rows in the form `Σ_{v ∈ C} Σ_{Π ∩ C = ∅} x(v, Π) ≥ 1` (some node
//! of C has no parent in C), the dual of the relaxation asks for `λ_C ≥ 0` and `u_v`
//! with
//!
//! ```text
//! u_v − Σ_{C ∋ v, Π ∩ C = ∅} λ_C ≥ σ(v, Π)      for every candidate (v, Π)     (D)
//! ```
//!
//! and then every DAG scores at most `Σ_v u_v − Σ_C λ_C`. (Sum (D) over the families a
//! DAG takes: its score is at most `Σ u_v − Σ_C λ_C · k_C`, where `k_C ≥ 1` counts the
//! nodes of C without a parent in C; a DAG restricted to C has a source.) No LP solver
//! needs to be trusted: any `λ ≥ 0` gives a valid bound once `u` satisfies (D), so the
//! checker only tests (D) and the sum.
//!
//! GOBNILP's set-packing rows ([`super::set_packing`]) join with duals `μ_S ≥ 0`: a
//! family `(v, Π)` is *all-in* for a node set S when `v ∈ S` and `S \ {v} ⊆ Π`, and a
//! DAG takes at most one all-in family of S (two would make a 2-cycle). (D) becomes
//!
//! ```text
//! u_v − Σ_{C ∋ v, Π ∩ C = ∅} λ_C + Σ_{S ∋ v, S \ {v} ⊆ Π} μ_S ≥ σ(v, Π)
//! ```
//!
//! and the bound `Σ u − Σ λ + Σ μ`.
//!
//! Where the relaxation's bound stays above the DAG's score, the certificate branches
//! on an arc `u → v`: one side has `u` among `v`'s parents, the other does not. A
//! leaf's (D) is checked for the candidates its side still allows (a
//! [`Restriction`]); the leaves of a tree cover every DAG, so the largest leaf bound
//! bounds them all.
//!
//! Numbers are exact: `λ`, `u` and bounds are decimals of [`fixed::PLACES`] digits
//! ([`Fixed`]); the scores are the score table's doubles, taken at their exact binary
//! values ([`ExactSum`]). A certificate shows its DAG optimal when every leaf bound is
//! at most the DAG's score plus [`TOLERANCE`] (one millionth, the precision to which
//! score files state scores).

pub mod fixed;

pub use fixed::{ExactSum, Fixed, FixedError};

use crate::score_table::{Candidate, ScoreTable};
use crate::varset::VarSet;
use crate::{Dag, DagError};

/// How far above the DAG's score a leaf bound may be: one millionth.
pub const TOLERANCE: Fixed = Fixed::micro();

/// A cluster row's dual value in a leaf.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClusterDual {
    /// The cluster C (non-empty).
    pub cluster: VarSet,
    /// `λ_C ≥ 0`.
    pub lambda: Fixed,
}

/// A set-packing row's dual value in a leaf.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackingDual {
    /// The node set S (non-empty).
    pub nodes: VarSet,
    /// `μ_S ≥ 0`.
    pub mu: Fixed,
}

/// The dual solution of one leaf: `u` for every node, `λ` for some clusters, `μ` for
/// some set packings, and the bound `Σ u − Σ λ + Σ μ` they give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeafDual {
    /// `u_v`, one per node.
    pub u: Vec<Fixed>,
    /// The clusters with a positive `λ`.
    pub clusters: Vec<ClusterDual>,
    /// The set packings with a positive `μ`.
    pub packings: Vec<PackingDual>,
    /// `Σ u − Σ λ + Σ μ`, as stated (the checker recomputes it).
    pub bound: Fixed,
}

/// One item of a certificate's tree, in preorder: a branch is followed by the subtree
/// with its arc, then by the subtree without it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TreeItem {
    /// Splits on whether `parent` is a parent of `node`.
    Branch {
        /// The arc's head.
        node: usize,
        /// The arc's tail.
        parent: usize,
    },
    /// A leaf and its dual solution.
    Leaf(LeafDual),
}

/// A certificate that `dag` is an optimal network of a score table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DualCertificate {
    /// The network claimed optimal.
    pub dag: Dag,
    /// The tree, in preorder; a single leaf when the relaxation closes the gap.
    pub tree: Vec<TreeItem>,
}

/// What a certificate check established.
#[derive(Clone, Debug, PartialEq)]
pub struct CertificateCheck {
    /// The DAG's score, rounded down onto the decimal grid (it is exact in the table's
    /// doubles; see [`ExactSum`]).
    pub score: Fixed,
    /// The largest leaf bound: no DAG of the table scores above it.
    pub bound: Fixed,
    /// Leaves checked.
    pub leaves: usize,
    /// Branches in the tree.
    pub branches: usize,
    /// Inequalities (D) checked, over all leaves.
    pub inequalities: usize,
}

impl CertificateCheck {
    /// `bound − score`, at most [`TOLERANCE`] for an accepted certificate.
    pub fn gap(&self) -> f64 {
        Fixed(self.bound.0 - self.score.0).to_f64()
    }
}

/// Why a certificate is rejected.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum CertificateError {
    /// The DAG is not a network of the table.
    #[error("the DAG is not a network of the score table: {0}")]
    Dag(#[from] DagError),
    /// A leaf has the wrong number of `u` values.
    #[error("leaf {leaf}: {got} values of u for {n} nodes")]
    WrongLength {
        /// The leaf's index among the leaves, from 0 in preorder.
        leaf: usize,
        /// Values given.
        got: usize,
        /// Nodes of the table.
        n: usize,
    },
    /// A cluster or set packing is empty or has a negative dual.
    #[error("leaf {leaf}: {kind} {{{nodes}}} {why}")]
    BadCluster {
        /// The leaf.
        leaf: usize,
        /// `cluster` or `packing`.
        kind: &'static str,
        /// The set's members by name.
        nodes: String,
        /// What is wrong.
        why: &'static str,
    },
    /// An inequality (D) does not hold.
    #[error("leaf {leaf}: u({node}) − Σλ + Σμ = {lhs} is below the score {score} of {node} ← {{{parents}}}")]
    Violated {
        /// The leaf.
        leaf: usize,
        /// The node's name.
        node: String,
        /// The candidate's parents by name.
        parents: String,
        /// `u_v − Σ λ + Σ μ`.
        lhs: Fixed,
        /// The candidate's score.
        score: f64,
    },
    /// A leaf's stated bound is not `Σ u − Σ λ + Σ μ`.
    #[error("leaf {leaf}: the stated bound {stated} is not Σu − Σλ + Σμ = {computed}")]
    WrongBound {
        /// The leaf.
        leaf: usize,
        /// As stated.
        stated: Fixed,
        /// As computed.
        computed: Fixed,
    },
    /// A leaf's bound is above the DAG's score by more than the tolerance.
    #[error(
        "leaf {leaf}: its bound {bound} is above the DAG's score {score} by more than {TOLERANCE}"
    )]
    AboveScore {
        /// The leaf.
        leaf: usize,
        /// The leaf's bound.
        bound: Fixed,
        /// The DAG's score (rounded down onto the grid).
        score: Fixed,
    },
    /// The preorder does not describe a tree (items missing or left over).
    #[error("the tree is not complete: {0}")]
    Shape(&'static str),
    /// A sum left the range of exact 128-bit arithmetic.
    #[error("leaf {0}: a sum is out of range")]
    Overflow(usize),
}

/// Which candidates a subtree still allows: per node, the parents the branches above
/// gave it and the ones they denied it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Restriction {
    required: Vec<VarSet>,
    denied: Vec<VarSet>,
}

impl Restriction {
    /// No restriction, for `n` nodes.
    pub fn none(n: usize) -> Self {
        Restriction {
            required: vec![VarSet::empty(n); n],
            denied: vec![VarSet::empty(n); n],
        }
    }

    /// Whether node `v` may take `parents`.
    pub fn allows(&self, v: usize, parents: &VarSet) -> bool {
        self.required[v].is_subset(parents) && !self.denied[v].intersects(parents)
    }

    /// The side of a branch on `parent → v` that has the arc.
    pub fn with_arc(&self, parent: usize, v: usize) -> Self {
        let mut side = self.clone();
        side.required[v].insert(parent);
        side
    }

    /// The side of a branch on `parent → v` that does not have the arc.
    pub fn without_arc(&self, parent: usize, v: usize) -> Self {
        let mut side = self.clone();
        side.denied[v].insert(parent);
        side
    }

    /// The candidates of `v` in `table` this side allows.
    pub fn allowed<'t>(
        &'t self,
        table: &'t ScoreTable,
        v: usize,
    ) -> impl Iterator<Item = &'t Candidate> + 't {
        table
            .candidates(v)
            .iter()
            .filter(move |c| self.allows(v, &c.parents))
    }
}

/// A score table with its scores on the decimal grid: what the exact check and the
/// construction of leaves read, computed once per table.
#[derive(Clone, Debug)]
pub struct GridTable<'t> {
    table: &'t ScoreTable,
    /// `⌈σ · 10^PLACES⌉` of every candidate, node by node in table order: `u − Σλ ≥ σ`
    /// holds for a grid value `u − Σλ` exactly when it holds for this.
    ceilings: Vec<Vec<Fixed>>,
}

impl<'t> GridTable<'t> {
    /// The grid scores of `table`.
    pub fn new(table: &'t ScoreTable) -> Self {
        let ceilings = (0..table.n())
            .map(|v| {
                table
                    .candidates(v)
                    .iter()
                    .map(|c| {
                        ExactSum::of(c.score)
                            .ceil_fixed()
                            .expect("table scores are within ±1e13")
                    })
                    .collect()
            })
            .collect();
        GridTable { table, ceilings }
    }

    /// The table.
    pub fn table(&self) -> &'t ScoreTable {
        self.table
    }

    /// The exact score of `dag` (a network of the table, already checked against it),
    /// rounded down onto the grid.
    pub fn score_of(&self, dag: &Dag) -> Fixed {
        let mut sum = ExactSum::zero();
        for v in 0..dag.n() {
            sum.add(
                self.table
                    .score_of(v, dag.parents(v))
                    .expect("the DAG was checked against the table"),
            );
        }
        sum.floor_fixed()
            .expect("a sum of table scores is within range")
    }
}

/// The clusters of a leaf that contain `v`.
fn clusters_of(clusters: &[ClusterDual], v: usize) -> Vec<&ClusterDual> {
    clusters.iter().filter(|c| c.cluster.contains(v)).collect()
}

/// `Σ λ_C` over the clusters `around` (each containing the node) that `parents` does
/// not meet, or `None` on overflow.
fn dual_sum(around: &[&ClusterDual], parents: &VarSet) -> Option<Fixed> {
    around
        .iter()
        .filter(|c| !parents.intersects(&c.cluster))
        .try_fold(Fixed::ZERO, |sum, c| sum.checked_add(c.lambda))
}

/// The set packings of a leaf that contain `v`.
fn packings_of(packings: &[PackingDual], v: usize) -> Vec<&PackingDual> {
    packings.iter().filter(|p| p.nodes.contains(v)).collect()
}

/// `Σ μ_S` over the packings `around` (each containing node `v`) for which `(v,
/// parents)` is all-in, or `None` on overflow.
fn packing_sum(around: &[&PackingDual], v: usize, parents: &VarSet) -> Option<Fixed> {
    around
        .iter()
        .filter(|p| p.nodes.without(v).is_subset(parents))
        .try_fold(Fixed::ZERO, |sum, p| sum.checked_add(p.mu))
}

/// `Σ λ − Σ μ` of the duals that (D) subtracts from `u_v` for `(v, parents)`, or
/// `None` on overflow.
fn dual_terms(
    clusters: &[&ClusterDual],
    packings: &[&PackingDual],
    v: usize,
    parents: &VarSet,
) -> Option<Fixed> {
    dual_sum(clusters, parents)?.checked_sub(packing_sum(packings, v, parents)?)
}

impl DualCertificate {
    /// Checks the certificate against `table` in exact arithmetic: the DAG is a network
    /// of the table; the tree's preorder is complete; in every leaf each cluster is
    /// non-empty with `λ ≥ 0`, (D) holds for every candidate the leaf's side allows, the
    /// stated bound is `Σ u − Σ λ`, and it is at most the DAG's score plus
    /// [`TOLERANCE`].
    pub fn check(&self, table: &ScoreTable) -> Result<CertificateCheck, CertificateError> {
        self.dag.check(table)?;
        let grid = GridTable::new(table);
        let score = grid.score_of(&self.dag);
        let limit = score
            .checked_add(TOLERANCE)
            .ok_or(CertificateError::Overflow(0))?;
        let mut pending = vec![Restriction::none(table.n())];
        let mut check = CertificateCheck {
            score,
            bound: Fixed(i128::MIN),
            leaves: 0,
            branches: 0,
            inequalities: 0,
        };
        for item in &self.tree {
            let side = pending
                .pop()
                .ok_or(CertificateError::Shape("items follow the last leaf"))?;
            match item {
                TreeItem::Branch { node, parent } => {
                    if *node >= table.n() || *parent >= table.n() {
                        return Err(CertificateError::Shape(
                            "a branch names a node outside the table",
                        ));
                    }
                    pending.push(side.without_arc(*parent, *node));
                    pending.push(side.with_arc(*parent, *node));
                    check.branches += 1;
                }
                TreeItem::Leaf(leaf) => {
                    check.inequalities += check_leaf(&grid, &side, leaf, check.leaves)?;
                    if leaf.bound > limit {
                        return Err(CertificateError::AboveScore {
                            leaf: check.leaves,
                            bound: leaf.bound,
                            score,
                        });
                    }
                    check.bound = check.bound.max(leaf.bound);
                    check.leaves += 1;
                }
            }
        }
        if !pending.is_empty() {
            return Err(CertificateError::Shape(
                "it ends before every branch has both its sides",
            ));
        }
        Ok(check)
    }
}

/// Checks one leaf under `side` (see [`DualCertificate::check`]) and returns the
/// number of inequalities (D) checked.
fn check_leaf(
    grid: &GridTable<'_>,
    side: &Restriction,
    leaf: &LeafDual,
    index: usize,
) -> Result<usize, CertificateError> {
    let table = grid.table;
    let names = table.names();
    let members = |set: &VarSet| -> String {
        let list: Vec<&str> = set.iter().map(|v| names[v].as_str()).collect();
        list.join(", ")
    };
    if leaf.u.len() != table.n() {
        return Err(CertificateError::WrongLength {
            leaf: index,
            got: leaf.u.len(),
            n: table.n(),
        });
    }
    let mut total = Fixed::ZERO;
    for u in &leaf.u {
        total = total
            .checked_add(*u)
            .ok_or(CertificateError::Overflow(index))?;
    }
    let sets = leaf
        .clusters
        .iter()
        .map(|c| ("cluster", &c.cluster, c.lambda))
        .chain(leaf.packings.iter().map(|p| ("packing", &p.nodes, p.mu)));
    for (kind, set, value) in sets {
        let why = if set.is_empty() {
            Some("is empty")
        } else if value < Fixed::ZERO {
            Some("has a negative dual value")
        } else if set.iter().any(|v| v >= table.n()) {
            Some("names a node outside the table")
        } else {
            None
        };
        if let Some(why) = why {
            return Err(CertificateError::BadCluster {
                leaf: index,
                kind,
                nodes: members(set),
                why,
            });
        }
        total = match kind {
            "cluster" => total.checked_sub(value),
            _ => total.checked_add(value),
        }
        .ok_or(CertificateError::Overflow(index))?;
    }
    if total != leaf.bound {
        return Err(CertificateError::WrongBound {
            leaf: index,
            stated: leaf.bound,
            computed: total,
        });
    }
    let mut checked = 0;
    for (v, ceilings) in grid.ceilings.iter().enumerate() {
        let around = clusters_of(&leaf.clusters, v);
        let packed = packings_of(&leaf.packings, v);
        for (c, ceiling) in table.candidates(v).iter().zip(ceilings) {
            if !side.allows(v, &c.parents) {
                continue;
            }
            let sum = dual_terms(&around, &packed, v, &c.parents)
                .ok_or(CertificateError::Overflow(index))?;
            let lhs = leaf.u[v]
                .checked_sub(sum)
                .ok_or(CertificateError::Overflow(index))?;
            if lhs < *ceiling {
                return Err(CertificateError::Violated {
                    leaf: index,
                    node: names[v].clone(),
                    parents: members(&c.parents),
                    lhs,
                    score: c.score,
                });
            }
            checked += 1;
        }
    }
    Ok(checked)
}

impl LeafDual {
    /// The leaf of the cluster duals `clusters` and set-packing duals `packings`
    /// (floats, an LP's say: those not above 0 are dropped, the rest rounded onto the
    /// grid) under `side`: each `u_v` is the least grid value that satisfies (D) for
    /// the candidates `side` allows (0 for a node it allows none). `None` when a sum
    /// leaves the exact range.
    pub fn from_duals(
        grid: &GridTable<'_>,
        side: &Restriction,
        clusters: impl IntoIterator<Item = (VarSet, f64)>,
        packings: impl IntoIterator<Item = (VarSet, f64)>,
    ) -> Option<LeafDual> {
        let positive = |(set, value): (VarSet, f64)| {
            let value = Fixed::nearest(value)?;
            (value > Fixed::ZERO && !set.is_empty()).then_some((set, value))
        };
        let clusters: Vec<ClusterDual> = clusters
            .into_iter()
            .filter_map(positive)
            .map(|(cluster, lambda)| ClusterDual { cluster, lambda })
            .collect();
        let packings: Vec<PackingDual> = packings
            .into_iter()
            .filter_map(positive)
            .map(|(nodes, mu)| PackingDual { nodes, mu })
            .collect();
        let mut u = Vec::with_capacity(grid.table.n());
        for (v, node_grid) in grid.ceilings.iter().enumerate() {
            let around = clusters_of(&clusters, v);
            let packed = packings_of(&packings, v);
            let mut best: Option<Fixed> = None;
            for (c, score) in grid.table.candidates(v).iter().zip(node_grid) {
                if side.allows(v, &c.parents) {
                    let need = score.checked_add(dual_terms(&around, &packed, v, &c.parents)?)?;
                    best = Some(best.map_or(need, |b| b.max(need)));
                }
            }
            u.push(best.unwrap_or(Fixed::ZERO));
        }
        let mut bound = Fixed::ZERO;
        for value in &u {
            bound = bound.checked_add(*value)?;
        }
        for c in &clusters {
            bound = bound.checked_sub(c.lambda)?;
        }
        for p in &packings {
            bound = bound.checked_add(p.mu)?;
        }
        Some(LeafDual {
            u,
            clusters,
            packings,
            bound,
        })
    }

    /// The leaf of a side that allows no DAG, shown by `cluster` (as
    /// [`blocking_cluster`] finds it): its `λ` is set so that the bound is 1 below
    /// `score`. `None` when a sum leaves the exact range.
    pub fn for_empty_side(
        grid: &GridTable<'_>,
        side: &Restriction,
        cluster: VarSet,
        score: Fixed,
    ) -> Option<LeafDual> {
        let mut leaf = LeafDual::from_duals(grid, side, [], [])?;
        let lambda = leaf
            .bound
            .checked_sub(score)?
            .checked_add(Fixed::ONE)?
            .max(Fixed::ZERO);
        leaf.bound = leaf.bound.checked_sub(lambda)?;
        leaf.clusters.push(ClusterDual { cluster, lambda });
        Some(leaf)
    }
}

/// A cluster whose every node has each parent set `side` allows meeting the cluster,
/// so that no DAG fits `side` (its cluster row cannot hold); `None` when some DAG fits.
/// Nodes leave the cluster while one of their allowed sets avoids it; what stays is the
/// largest such cluster.
pub fn blocking_cluster(table: &ScoreTable, side: &Restriction) -> Option<VarSet> {
    let n = table.n();
    let mut cluster = VarSet::from_members(n, 0..n);
    loop {
        let leaving = cluster.iter().find(|&v| {
            side.allowed(table, v)
                .any(|c| !c.parents.intersects(&cluster))
        });
        match leaving {
            Some(v) => cluster.remove(v),
            None => break,
        }
    }
    (!cluster.is_empty()).then_some(cluster)
}

#[cfg(test)]
mod tests;
