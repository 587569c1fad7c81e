//! The certification pass: a [`DualCertificate`] of a DAG's optimality for the family
//! ILP, from a branch and bound of its own over LP relaxations whose row duals a
//! back-end reports ([`LpDuals`], HiGHS).
//!
//! One LP stays open in the back-end for the whole pass ([`LpSession`]): every
//! candidate a column, the convexity rows, GOBNILP's set-packing rows, and the cluster
//! rows found so far (rows whose dual stays 0 are deleted once many are idle). A side
//! of the tree sets the columns of the candidates it forbids to 0; each solve starts
//! from the last basis. Should a solve fail (after thousands of them the back-end may
//! meet numerical trouble), the LP is built afresh with the same rows and solved again. At each side the LP is solved, and its duals become a leaf
//! ([`LeafDual::from_duals`], exact) as soon as the leaf's bound is within
//! [`TOLERANCE`] of the DAG's score. Otherwise the clusters the LP solution violates
//! are separated (the pipeline of the cut loop: heuristics, combinatorial search, exact
//! sub-IP) and the LP is solved again, until no cluster is violated or the rounds tail
//! off; then the side branches on its most fractional arc `u → v` (weight
//! `Σ_{Π ∋ u} x(v, Π)`), depth first, the side with the arc first. Integral arcs make
//! integral families, so a side whose arcs are all integral and whose clusters all hold
//! has a DAG as its LP solution. A side that allows no DAG is closed by a blocking
//! cluster ([`blocking_cluster`]) without an LP. The solver that found the DAG plays no
//! part: the pass needs only the table and the DAG.

use super::separation::{MilpSubIp, Pipeline};
use crate::milp::{Limits, LpDuals, LpRow, LpSession, MilpBackend, SolverError};
use crate::stop::StopToken;
use bnsl_formulations::family::certificate::{
    blocking_cluster, DualCertificate, ExactSum, Fixed, GridTable, LeafDual, Restriction, TreeItem,
    TOLERANCE,
};
use bnsl_formulations::family::cluster::ClusterCut;
use bnsl_formulations::family::separation::{SeparationOptions, Support};
use bnsl_formulations::family::set_packing::add_set_packing_rows;
use bnsl_formulations::milp::MilpModel;
use bnsl_formulations::{Dag, DagError, FamilyIlp, ScoreTable, VarSet};
use rustc_hash::FxHashSet;
use std::time::{Duration, Instant};

/// Settings of a certification pass.
#[derive(Clone, Debug, Default)]
pub struct CertifyOptions {
    /// Wall-clock limit of the whole pass; `None` for none.
    pub time_limit: Option<Duration>,
    /// Stops the pass from outside (Ctrl+C).
    pub stop: StopToken,
}

/// Where a running pass stands, for progress lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CertifyProgress {
    /// Leaves closed.
    pub leaves: usize,
    /// Sides waiting to be settled.
    pub open: usize,
    /// LPs solved.
    pub lp_solves: usize,
    /// Clusters found.
    pub clusters: usize,
    /// Times the open LP failed a solve and was built afresh.
    pub fresh_lps: usize,
}

/// A finished pass.
#[derive(Clone, Debug)]
pub struct Certified {
    /// The certificate.
    pub certificate: DualCertificate,
    /// LPs solved.
    pub lp_solves: usize,
    /// Clusters separated.
    pub clusters: usize,
    /// Times the open LP failed a solve and was built afresh.
    pub fresh_lps: usize,
    /// Wall-clock seconds.
    pub time_s: f64,
}

/// Why no certificate was made.
#[derive(Debug, thiserror::Error)]
pub enum CertifyError {
    /// The DAG is not a network of the table.
    #[error("the DAG is not a network of the score table: {0}")]
    NotANetwork(#[from] DagError),
    /// The LPs found a network that scores higher.
    #[error("the DAG is not optimal: a network of score {better} exists")]
    NotOptimal {
        /// That network's score.
        better: f64,
    },
    /// The time limit or a stop ended the pass first.
    #[error("the certification pass was stopped after {leaves} leaves with {open} sides open")]
    Stopped {
        /// Leaves closed.
        leaves: usize,
        /// Sides still open.
        open: usize,
    },
    /// The LP back-end failed.
    #[error("LP back-end: {0}")]
    Solver(#[from] SolverError),
    /// The LPs could not give a bound within the tolerance where one must exist.
    #[error("numerical trouble: {0}")]
    Numerical(String),
}

/// What settling one side of the tree gave.
enum Settled {
    Leaf(LeafDual),
    /// Branch on `parent → node`.
    Branch {
        node: usize,
        parent: usize,
    },
}

/// Certifies that `dag` is optimal for `table`: solves LPs on `lp`, separates clusters
/// with the exact sub-IP on `sub_ip` (heuristics and the combinatorial search alone
/// when `None`), and reports on `progress` after every side settled.
pub fn certify(
    table: &ScoreTable,
    dag: &Dag,
    lp: &dyn LpDuals,
    sub_ip: Option<&dyn MilpBackend>,
    options: &CertifyOptions,
    progress: &dyn Fn(&CertifyProgress),
) -> Result<Certified, CertifyError> {
    dag.check(table)?;
    let ilp = FamilyIlp::new(table);
    let limits = Limits {
        threads: Some(1),
        stop: options.stop.clone(),
        ..Limits::default()
    };
    let mut model = ilp.model();
    let packings = add_set_packing_rows(&ilp, &mut model);
    let grid = GridTable::new(table);
    let mut pass = Pass {
        table,
        ilp: &ilp,
        score: grid.score_of(dag),
        grid,
        session: lp.open_lp(&model, &limits)?,
        lp,
        model,
        limits,
        fresh_lps: 0,
        packings: packings.into_iter().map(|r| r.nodes).collect(),
        open_columns: vec![true; ilp.num_columns()],
        sub_ip,
        options,
        deadline: options.time_limit.map(|t| Instant::now() + t),
        clusters: Vec::new(),
        idle: Vec::new(),
        purged: 0,
        known: FxHashSet::default(),
        lp_solves: 0,
    };
    let start = Instant::now();
    let mut tree = Vec::new();
    let mut open = vec![Restriction::none(table.n())];
    let mut leaves = 0;
    while let Some(side) = open.pop() {
        if pass.must_stop() {
            return Err(CertifyError::Stopped {
                leaves,
                open: open.len() + 1,
            });
        }
        let settled = match pass.settle(&side) {
            Err(CertifyError::Stopped { .. }) => {
                return Err(CertifyError::Stopped {
                    leaves,
                    open: open.len() + 1,
                })
            }
            other => other?,
        };
        match settled {
            Settled::Leaf(leaf) => {
                tree.push(TreeItem::Leaf(leaf));
                leaves += 1;
            }
            Settled::Branch { node, parent } => {
                open.push(side.without_arc(parent, node));
                open.push(side.with_arc(parent, node));
                tree.push(TreeItem::Branch { node, parent });
            }
        }
        progress(&CertifyProgress {
            leaves,
            open: open.len(),
            lp_solves: pass.lp_solves,
            clusters: pass.clusters.len() + pass.purged,
            fresh_lps: pass.fresh_lps,
        });
    }
    Ok(Certified {
        certificate: DualCertificate {
            dag: dag.clone(),
            tree,
        },
        lp_solves: pass.lp_solves,
        clusters: pass.clusters.len() + pass.purged,
        fresh_lps: pass.fresh_lps,
        time_s: start.elapsed().as_secs_f64(),
    })
}

/// The state of one pass: the clusters found so far serve every side.
struct Pass<'a> {
    table: &'a ScoreTable,
    ilp: &'a FamilyIlp<'a>,
    /// The table's scores on the decimal grid.
    grid: GridTable<'a>,
    score: Fixed,
    session: Box<dyn LpSession>,
    /// The back-end, the LP (without cluster rows) and the limits the session was
    /// opened with, to open it afresh.
    lp: &'a dyn LpDuals,
    model: MilpModel,
    limits: Limits,
    fresh_lps: usize,
    /// The node sets of the set-packing rows, the rows after the convexity rows.
    packings: Vec<VarSet>,
    /// Whether each column's upper bound is 1 in the session (else 0).
    open_columns: Vec<bool>,
    sub_ip: Option<&'a dyn MilpBackend>,
    options: &'a CertifyOptions,
    deadline: Option<Instant>,
    /// The clusters of the cluster rows, the rows after the set packings, in order.
    clusters: Vec<VarSet>,
    /// Per cluster row, the solves in a row in which its dual was 0.
    idle: Vec<usize>,
    /// Cluster rows deleted as idle.
    purged: usize,
    known: FxHashSet<VarSet>,
    lp_solves: usize,
}

impl Pass<'_> {
    fn must_stop(&self) -> bool {
        self.options.stop.is_stopped() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn seconds_left(&self) -> Option<f64> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()).as_secs_f64())
    }

    /// The error of a stopped pass; [`certify`] fills in the counts.
    fn stopped(&self) -> CertifyError {
        CertifyError::Stopped { leaves: 0, open: 0 }
    }

    /// A leaf for `side`, or the family to branch on.
    fn settle(&mut self, side: &Restriction) -> Result<Settled, CertifyError> {
        if let Some(cluster) = blocking_cluster(self.table, side) {
            let leaf = LeafDual::for_empty_side(&self.grid, side, cluster, self.score)
                .ok_or_else(|| CertifyError::Numerical("a bound left the exact range".into()))?;
            return Ok(Settled::Leaf(leaf));
        }
        self.open_side(side)?;
        let limit = self
            .score
            .checked_add(TOLERANCE)
            .expect("scores are within range");
        let separation = SeparationOptions {
            max_cuts: MAX_CUTS_PER_ROUND,
            ..SeparationOptions::default()
        };
        let exact = self.sub_ip.map(MilpSubIp);
        let pipeline = Pipeline {
            options: &separation,
            search: Some((20_000, MAX_CUTS_PER_ROUND)),
            exact: exact.as_ref().map(|e| e as _),
        };
        let mut tailing = Tailing::default();
        loop {
            if self.must_stop() {
                return Err(self.stopped());
            }
            let (objective, values) = match self.solve(side, limit)? {
                Solved::Closed(leaf) => return Ok(Settled::Leaf(leaf)),
                Solved::Open(objective, values) => (objective, values),
            };
            if tailing.stalls(objective, self.score.to_f64()) {
                if let Some(branch) = self.fractional_arc(&values) {
                    return Ok(branch);
                }
            }
            let cuts =
                pipeline.separate(self.ilp, &values, self.seconds_left(), &self.options.stop)?;
            let mut rows = Vec::new();
            for cut in cuts {
                if self.known.insert(cut.cluster.clone()) {
                    rows.push(cluster_row(&cut));
                    self.clusters.push(cut.cluster);
                    self.idle.push(0);
                }
            }
            if rows.is_empty() {
                return match self.fractional_arc(&values) {
                    Some(branch) => Ok(branch),
                    None => Err(self.integral_side(&values)),
                };
            }
            self.session.add_rows(&rows)?;
        }
    }

    /// Sets the session's column bounds to what `side` allows.
    fn open_side(&mut self, side: &Restriction) -> Result<(), SolverError> {
        for column in 0..self.ilp.num_columns() {
            let (v, _) = self.ilp.family(column);
            let open = side.allows(v, self.ilp.parents(column));
            if open != self.open_columns[column] {
                self.session
                    .set_column_bounds(column, 0.0, if open { 1.0 } else { 0.0 })?;
                self.open_columns[column] = open;
            }
        }
        Ok(())
    }

    /// Solves the session's LP: a leaf when its duals bound `side` by `limit`, else
    /// the LP solution.
    fn solve(&mut self, side: &Restriction, limit: Fixed) -> Result<Solved, CertifyError> {
        self.lp_solves += 1;
        let solution = match self.session.solve(self.seconds_left()) {
            Ok(Some(solution)) => solution,
            _ if self.must_stop() => return Err(self.stopped()),
            failed => {
                let failure = match failed {
                    Err(error) => error.to_string(),
                    _ => "no optimum".to_string(),
                };
                self.reopen(side)?;
                match self.session.solve(self.seconds_left())? {
                    Some(solution) => solution,
                    None if self.must_stop() => return Err(self.stopped()),
                    None => {
                        return Err(CertifyError::Numerical(format!(
                            "the LP back-end did not solve a feasible LP to optimality, \
                             neither the open LP ({failure}) nor a fresh one"
                        )))
                    }
                }
            }
        };
        let (packing_duals, cluster_duals) =
            solution.row_duals[self.table.n()..].split_at(self.packings.len());
        for (idle, dual) in self.idle.iter_mut().zip(cluster_duals) {
            *idle = if dual.abs() > 1e-9 { 0 } else { *idle + 1 };
        }
        let packings = self
            .packings
            .iter()
            .cloned()
            .zip(packing_duals.iter().map(|d| d.abs()));
        let clusters = self
            .clusters
            .iter()
            .cloned()
            .zip(cluster_duals.iter().map(|d| d.abs()));
        let leaf = LeafDual::from_duals(&self.grid, side, clusters, packings)
            .ok_or_else(|| CertifyError::Numerical("a bound left the exact range".into()))?;
        self.purge_idle_clusters()?;
        Ok(if leaf.bound <= limit {
            Solved::Closed(leaf)
        } else {
            Solved::Open(solution.objective, solution.values)
        })
    }

    /// Replaces the session by a fresh LP with the same rows and `side`'s columns.
    fn reopen(&mut self, side: &Restriction) -> Result<(), SolverError> {
        self.fresh_lps += 1;
        self.session = self.lp.open_lp(&self.model, &self.limits)?;
        self.open_columns.fill(true);
        let rows: Vec<LpRow> = self
            .clusters
            .iter()
            .map(|cluster| cluster_row(&ClusterCut::new(self.ilp, cluster)))
            .collect();
        self.session.add_rows(&rows)?;
        self.open_side(side)
    }

    /// Deletes the cluster rows whose dual has been 0 for [`IDLE_SOLVES`] solves in a
    /// row, once there are [`IDLE_PURGE`] of them: they are forgotten, and found again
    /// should a later LP solution violate them.
    fn purge_idle_clusters(&mut self) -> Result<(), SolverError> {
        let idle: Vec<usize> = (0..self.clusters.len())
            .filter(|&k| self.idle[k] >= IDLE_SOLVES)
            .collect();
        if idle.len() < IDLE_PURGE {
            return Ok(());
        }
        let first = self.table.n() + self.packings.len();
        let rows: Vec<usize> = idle.iter().map(|&k| first + k).collect();
        self.session.delete_rows(&rows)?;
        let clusters = std::mem::take(&mut self.clusters);
        let counts = std::mem::take(&mut self.idle);
        for (cluster, count) in clusters.into_iter().zip(counts) {
            if count >= IDLE_SOLVES {
                self.known.remove(&cluster);
            } else {
                self.clusters.push(cluster);
                self.idle.push(count);
            }
        }
        self.purged += idle.len();
        Ok(())
    }

    /// The branch on the most fractional arc of `values`, if an arc is fractional.
    fn fractional_arc(&self, values: &[f64]) -> Option<Settled> {
        let support = Support::new(self.ilp, values);
        let n = self.table.n();
        (0..n)
            .flat_map(|v| (0..n).map(move |u| (u, v)))
            .map(|(u, v)| (u, v, support.weight(u, v)))
            .filter(|&(_, _, w)| w > 1e-6 && w < 1.0 - 1e-6)
            .min_by(|a, b| (a.2 - 0.5).abs().total_cmp(&(b.2 - 0.5).abs()))
            .map(|(parent, node, _)| Settled::Branch { node, parent })
    }

    /// The error of a side whose LP solution has integral arcs (so integral families)
    /// and violates no cluster, yet does not close: it is a DAG, and either beats the
    /// one being certified or the LP's numbers failed.
    fn integral_side(&self, values: &[f64]) -> CertifyError {
        match self.ilp.graph_of(values).check(self.table) {
            Ok(score) if ExactSum::of(score).floor_fixed() > Some(self.score) => {
                CertifyError::NotOptimal { better: score }
            }
            _ => CertifyError::Numerical(
                "an integral LP solution without violated clusters did not close its side".into(),
            ),
        }
    }
}

/// The LP row of a cluster cut.
fn cluster_row(cut: &ClusterCut) -> LpRow {
    let (lower, upper) = cut.bounds();
    LpRow {
        terms: cut.columns.iter().map(|&c| (c, 1.0)).collect(),
        lower,
        upper,
    }
}

/// An LP outcome: a leaf that closes the side, or the solution to separate or branch on.
enum Solved {
    Closed(LeafDual),
    /// The LP's objective and solution.
    Open(f64, Vec<f64>),
}

/// Solves in a row with a zero dual after which a cluster row counts as idle.
const IDLE_SOLVES: usize = 10;

/// Idle cluster rows that make the pass delete them all.
const IDLE_PURGE: usize = 500;

/// Most clusters added after one LP solve.
const MAX_CUTS_PER_ROUND: usize = 50;

/// A side branches instead of separating on once this many rounds in a row each
/// closed less than [`STALL_FRACTION`] of the gap.
const STALL_ROUNDS: usize = 3;

/// See [`STALL_ROUNDS`].
const STALL_FRACTION: f64 = 1e-2;

/// The LP objectives of one side's rounds, to branch once separation tails off.
#[derive(Default)]
struct Tailing {
    last: Option<f64>,
    stalled: usize,
}

impl Tailing {
    /// Records a round's `objective`; true once [`STALL_ROUNDS`] rounds in a row each
    /// closed less than [`STALL_FRACTION`] of the gap to `score`.
    fn stalls(&mut self, objective: f64, score: f64) -> bool {
        let gap = (objective - score).max(0.0);
        let closed = self.last.map_or(f64::INFINITY, |last| last - objective);
        self.last = Some(objective);
        if closed < STALL_FRACTION * gap {
            self.stalled += 1;
        } else {
            self.stalled = 0;
        }
        self.stalled >= STALL_ROUNDS
    }
}
