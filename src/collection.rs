//! Every network within a Bayes factor of the optimum (seed 002, "The Bayes Factor
//! Approach"), grouped into Markov equivalence classes, with the edge probabilities of
//! Bayesian model averaging over them.
//!
//! A network G is collected when score(G) ≥ OPT − ε − [`COLLECT_TOLERANCE`], with
//! ε = ln BF: its posterior is within a factor BF of the best one (uniform structure
//! prior, the score being the log marginal likelihood or its BIC approximation). The
//! tolerance takes in networks that lie on the boundary up to the rounding of score
//! files; [`Collected::in_tolerance`] counts them.
//!
//! Two engines ([`CollectEngine`]), each finding OPT first and then collecting in one
//! search, as in the paper:
//! - the enumeration of [`bnsl_solvers::enumerate`], part by part of the candidate graph
//!   (parts of up to [`MAX_VARIABLES`] variables): bounded by exact completion values
//!   after OPT by dynamic programming on parts of up to 25 variables, and on larger
//!   parts by a search over the nodes' choices bounded by cluster multipliers, tried
//!   when that bound is tight enough at the root;
//! - the family ILP ([`FamilyIlpSolver::collect`](bnsl_solvers::ilp::FamilyIlpSolver::collect)): OPT by the exact solve, then SCIP's
//!   branch and cut with the threshold as objective limit, or the cut loop of HiGHS and
//!   CBC over regions of its program; both enumerate the small regions.

use crate::ilp::{engine_kind, Formulation};
use bnsl_formulations::equivalence::{collider_class_key, cpdag, markov_class_key, Cpdag};
use bnsl_formulations::{Dag, FamilyIlp, ScoreTable};
use bnsl_solvers::enumerate::{
    networks_near_optimum, Enumeration, EnumerationEnd, EnumerationLimits,
};
pub use bnsl_solvers::enumerate::{PartTooLarge, MAX_VARIABLES};
pub use bnsl_solvers::ilp::collect::CollectProgress;
use bnsl_solvers::ilp::collect::CollectSettings;
use bnsl_solvers::ilp::{family_solver, IlpOptions, IlpProgress};
use bnsl_solvers::milp::{configured, BackendChoiceError, BackendParam, SolverError, Status};
use bnsl_solvers::StopToken;
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

/// How far below OPT − ε a network may score and still be collected: score files round
/// local scores to about 1e-6 each, and sums of dozens of them drift by up to 1e-4.
/// With it, bnsl's collections equal seed 002's counts (Table 1).
pub const COLLECT_TOLERANCE: f64 = 1e-4;

/// The paper's limit on the number of networks collected.
pub const DEFAULT_MAX_NETWORKS: usize = 150_000;

/// The search that collects.
#[derive(Clone, Debug, Default)]
pub enum CollectEngine {
    /// The enumeration when it can take every part of the candidate graph (see
    /// [`PartTooLarge`]), the family ILP on the first compiled-in back-end otherwise.
    #[default]
    Auto,
    /// The enumeration (candidate graphs in parts of at most [`MAX_VARIABLES`] variables,
    /// the large ones with a tight bound).
    Enumeration,
    /// The family ILP.
    Ilp {
        /// Back-end name (`scip`, `highs`, `cbc`); `None`: the first compiled in.
        backend: Option<String>,
        /// The user's options for the back-end, checked by it.
        backend_params: Vec<BackendParam>,
        /// Threads, seed, solver log and separation settings. The time limit and stop
        /// token are [`CollectOptions`]'.
        options: IlpOptions,
    },
}

/// What to collect and when to stop.
#[derive(Clone, Debug)]
pub struct CollectOptions {
    /// ε ≥ 0 in score units (ln BF).
    pub epsilon: f64,
    /// Stop after this many networks ([`DEFAULT_MAX_NETWORKS`]).
    pub max_networks: usize,
    /// Stop after this long (the optimum's search included).
    pub time_limit: Option<Duration>,
    /// Stop once stopped from outside (Ctrl+C).
    pub stop: StopToken,
    /// The search.
    pub engine: CollectEngine,
    /// Whether the ILP engines take whole Markov equivalence classes
    /// ([`CollectSettings::whole_classes`]): they collect the same networks, searching
    /// one DAG or a few per class under BIC or BDeu.
    pub whole_classes: bool,
}

impl CollectOptions {
    /// Collection within a Bayes factor `bf` ≥ 1 (ε = ln BF), the paper's network limit,
    /// the engine chosen by size.
    pub fn bayes_factor(bf: f64) -> Self {
        CollectOptions {
            epsilon: bf.ln(),
            max_networks: DEFAULT_MAX_NETWORKS,
            time_limit: None,
            stop: StopToken::new(),
            engine: CollectEngine::Auto,
            whole_classes: true,
        }
    }

    /// The time left after `elapsed`.
    fn remaining(&self, elapsed: Duration) -> Option<Duration> {
        self.time_limit.map(|t| t.saturating_sub(elapsed))
    }
}

/// What a running collection reports to its progress callback.
#[derive(Clone, Copy, Debug)]
pub enum CollectEvent<'a> {
    /// The ILP engines' solve for OPT, before the collecting search.
    Optimum(&'a IlpProgress),
    /// The ILP engines' collecting search: a network was collected.
    Network(&'a CollectProgress),
}

/// One collected network.
#[derive(Clone, Debug)]
pub struct CollectedNetwork {
    /// The DAG.
    pub dag: Dag,
    /// Its score.
    pub score: f64,
    /// Index of its Markov equivalence class in [`Collected::classes`].
    pub class: usize,
}

/// A Markov equivalence class among the collected networks.
#[derive(Clone, Debug)]
pub struct CollectedClass {
    /// The class as its CPDAG.
    pub cpdag: Cpdag,
    /// Collected DAGs in the class.
    pub networks: usize,
    /// The best score of its collected DAGs.
    pub best_score: f64,
}

/// The result of a collection.
#[derive(Clone, Debug)]
pub struct Collected {
    /// The optimal score.
    pub opt: f64,
    /// ε used.
    pub epsilon: f64,
    /// The networks, best first.
    pub networks: Vec<CollectedNetwork>,
    /// The Markov equivalence classes, best first.
    pub classes: Vec<CollectedClass>,
    /// Classes by seed 002's grouping (skeleton and all colliders).
    pub collider_classes: usize,
    /// Networks scoring below OPT − ε, collected by [`COLLECT_TOLERANCE`].
    pub in_tolerance: usize,
    /// Whether every network within the bound was collected, or a limit ended it.
    pub end: EnumerationEnd,
    /// The engine that collected: `enumeration`, `branch_and_cut` (SCIP) or `cut_loop`.
    pub engine: &'static str,
    /// The ILP back-end, for the ILP engines.
    pub backend: Option<&'static str>,
    /// Seconds to the optimum.
    pub time_to_opt_s: f64,
    /// Seconds in all.
    pub time_s: f64,
    /// Whether the ILP search took whole classes ([`CollectOptions::whole_classes`]).
    pub whole_classes: bool,
}

/// Why a collection could not run.
#[derive(Debug, thiserror::Error)]
pub enum CollectError {
    /// ε is negative or not a number.
    #[error("ε must be a finite number ≥ 0 (a Bayes factor ≥ 1), got {0}")]
    Epsilon(f64),
    /// The table is beyond the enumeration's size.
    #[error("the enumeration cannot collect this table: collect on the family ILP instead (--method ilp)")]
    PartTooLarge(#[from] PartTooLarge),
    /// The ILP back-end could not be set up.
    #[error(transparent)]
    Backend(#[from] BackendChoiceError),
    /// The ILP back-end failed.
    #[error(transparent)]
    Solver(#[from] SolverError),
    /// The ILP stopped before proving the optimum (time limit or Ctrl+C): nothing was
    /// collected.
    #[error(
        "the optimum was not proven before the search stopped (status {}): nothing collected",
        .0.as_str()
    )]
    OptimumNotProven(Status),
    /// The ILP proved that no DAG is made of the table's candidates.
    #[error("no DAG is made of the candidates: nothing to collect")]
    NoDag,
}

/// Collects every network of `table` within ε of the optimum (see the module doc).
/// `progress` sees the ILP engines' solve for OPT and each network they collect.
pub fn collect(
    table: &ScoreTable,
    opts: &CollectOptions,
    progress: &dyn Fn(CollectEvent<'_>),
) -> Result<Collected, CollectError> {
    if !(opts.epsilon.is_finite() && opts.epsilon >= 0.0) {
        return Err(CollectError::Epsilon(opts.epsilon));
    }
    let start = Instant::now();
    let (engine, backend, opt, time_to_opt_s, found) = match &opts.engine {
        CollectEngine::Enumeration => enumerate(table, opts)?,
        CollectEngine::Auto => match enumerate(table, opts) {
            Err(CollectError::PartTooLarge(_)) => by_ilp(
                table,
                opts,
                None,
                &[],
                &IlpOptions::default(),
                start,
                progress,
            )?,
            run => run?,
        },
        CollectEngine::Ilp {
            backend,
            backend_params,
            options,
        } => by_ilp(
            table,
            opts,
            backend.as_deref(),
            backend_params,
            options,
            start,
            progress,
        )?,
    };
    let mut networks = found.networks;
    networks.sort_by(|a, b| b.1.total_cmp(&a.1));
    let (networks, classes) = group(networks);
    let collider_classes = networks
        .iter()
        .map(|c| collider_class_key(&c.dag))
        .collect::<HashSet<_>>()
        .len();
    let in_tolerance = networks
        .iter()
        .filter(|c| c.score < opt - opts.epsilon)
        .count();
    Ok(Collected {
        opt,
        epsilon: opts.epsilon,
        networks,
        classes,
        collider_classes,
        in_tolerance,
        end: found.end,
        engine,
        backend,
        time_to_opt_s,
        time_s: start.elapsed().as_secs_f64(),
        whole_classes: opts.whole_classes && backend.is_some(),
    })
}

/// How far below OPT a collected network may score: ε and the tolerance.
fn gap(opts: &CollectOptions) -> f64 {
    opts.epsilon + COLLECT_TOLERANCE
}

/// The collection threshold for `opt`.
fn threshold(opt: f64, opts: &CollectOptions) -> f64 {
    opt - gap(opts)
}

/// What an engine found: its kind, its back-end, OPT, the seconds to OPT, the networks.
type EngineRun = (&'static str, Option<&'static str>, f64, f64, Enumeration);

/// OPT by dynamic programming on the parts of the candidate graph, and the enumeration
/// on the same parts.
fn enumerate(table: &ScoreTable, opts: &CollectOptions) -> Result<EngineRun, CollectError> {
    let limits = EnumerationLimits {
        max_networks: Some(opts.max_networks),
        time_limit: opts.time_limit,
        stop: opts.stop.clone(),
    };
    let near = networks_near_optimum(table, gap(opts), &limits)?.ok_or(CollectError::NoDag)?;
    let time_to_opt_s = near.time_to_optimum.as_secs_f64();
    Ok(("enumeration", None, near.optimum, time_to_opt_s, near.found))
}

/// OPT by the family ILP on `backend`, then its collecting search.
fn by_ilp(
    table: &ScoreTable,
    opts: &CollectOptions,
    backend: Option<&str>,
    backend_params: &[BackendParam],
    options: &IlpOptions,
    start: Instant,
    progress: &dyn Fn(CollectEvent<'_>),
) -> Result<EngineRun, CollectError> {
    let backend = configured(backend, backend_params)?;
    let solver = family_solver(backend.as_ref());
    let mut options = options.clone();
    options.limits.stop = opts.stop.clone();
    options.limits.time_limit = opts.remaining(start.elapsed()).map(|t| t.as_secs_f64());
    // Some optimal DAG avoids the dominated candidates, so OPT comes from the smaller
    // table; the networks within ε may use them, so the collection takes the whole.
    let (undominated, _) = table.without_dominated();
    let optimum = solver.solve(&FamilyIlp::new(&undominated), &options, &|p| {
        progress(CollectEvent::Optimum(p))
    })?;
    let ilp = FamilyIlp::new(table);
    let opt = match (optimum.status, optimum.score) {
        (Status::Optimal, Some(score)) => score,
        (Status::Infeasible, _) => return Err(CollectError::NoDag),
        (status, _) => return Err(CollectError::OptimumNotProven(status)),
    };
    let time_to_opt_s = start.elapsed().as_secs_f64();
    options.limits.time_limit = opts.remaining(start.elapsed()).map(|t| t.as_secs_f64());
    let settings = CollectSettings {
        threshold: threshold(opt, opts),
        max_networks: Some(opts.max_networks),
        ilp: options,
        clusters: optimum.clusters,
        start: optimum.dag,
        whole_classes: opts.whole_classes,
    };
    let found = solver.collect(&ilp, &settings, &|p| progress(CollectEvent::Network(p)))?;
    let kind = engine_kind(backend.as_ref(), Formulation::Family);
    Ok((kind, Some(backend.name()), opt, time_to_opt_s, found))
}

/// The networks (best first) with their class indices, and the classes in order of
/// their best network.
fn group(networks: Vec<(Dag, f64)>) -> (Vec<CollectedNetwork>, Vec<CollectedClass>) {
    let mut index = HashMap::new();
    let mut classes: Vec<CollectedClass> = Vec::new();
    let collected = networks
        .into_iter()
        .map(|(dag, score)| {
            let class = *index.entry(markov_class_key(&dag)).or_insert_with(|| {
                classes.push(CollectedClass {
                    cpdag: cpdag(&dag),
                    networks: 0,
                    best_score: score,
                });
                classes.len() - 1
            });
            classes[class].networks += 1;
            CollectedNetwork { dag, score, class }
        })
        .collect();
    (collected, classes)
}

/// Edge probabilities by Bayesian model averaging over a collection: each network
/// weighs exp(score − OPT), normalised over the collection. They are probabilities
/// conditional on the collected set, not over all DAGs.
#[derive(Clone, Debug, PartialEq)]
pub struct EdgeProbabilities {
    /// `arc[a][b]`: the probability of the arc a → b.
    pub arc: Vec<Vec<f64>>,
}

impl EdgeProbabilities {
    /// The probabilities over `collected`.
    pub fn of(collected: &Collected) -> Self {
        let n = collected.networks.first().map_or(0, |c| c.dag.n());
        let mut arc = vec![vec![0.0; n]; n];
        let weights: Vec<f64> = collected
            .networks
            .iter()
            .map(|c| (c.score - collected.opt).exp())
            .collect();
        let total: f64 = weights.iter().sum();
        for (c, w) in collected.networks.iter().zip(&weights) {
            for (child, parents) in c.dag.all_parents().iter().enumerate() {
                for p in parents.iter() {
                    arc[p][child] += w / total;
                }
            }
        }
        EdgeProbabilities { arc }
    }

    /// The probability that `a` and `b` are adjacent, in either direction.
    pub fn adjacency(&self, a: usize, b: usize) -> f64 {
        self.arc[a][b] + self.arc[b][a]
    }

    /// The arcs with a positive probability, most probable first (ties by index).
    pub fn sorted_arcs(&self) -> Vec<(usize, usize, f64)> {
        let mut arcs: Vec<(usize, usize, f64)> = (0..self.arc.len())
            .flat_map(|a| (0..self.arc.len()).map(move |b| (a, b)))
            .map(|(a, b)| (a, b, self.arc[a][b]))
            .filter(|&(_, _, p)| p > 0.0)
            .collect();
        arcs.sort_by(|x, y| y.2.total_cmp(&x.2).then((x.0, x.1).cmp(&(y.0, y.1))));
        arcs
    }
}
