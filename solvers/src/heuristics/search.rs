//! Random-restart search over orders (Scanagatta et al. 2015, §4): every restart samples a uniformly
//! random order, builds its network with the chosen consistency rule (OBS or ASOBS) and
//! improves it with the chosen local search (Scanagatta et al.'s swaps, or insertions); restarts
//! run in parallel on the rayon pool until a time limit or a restart count is reached,
//! and the best network is kept.
//!
//! Restart `i` draws its order from ChaCha8 seeded with `seed` on stream `i`, so it is a
//! pure function of `(seed, i)`; ties between restarts go to the lower index. With a
//! restart count and no time limit the result is therefore the same for a given seed
//! whatever the number of threads; with a time limit it depends on how many restarts
//! finished in time.

use super::asobs::asobs_network_until;
use super::budget::Budget;
use super::insertion::insertion_search;
use super::local_search::swap_search;
use super::network::Network;
use super::obs::obs_network;
use crate::stop::StopToken;
use bnsl_formulations::{Dag, ScoreTable};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The consistency rule that turns an order into a network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Parents must precede the child in the order ([`obs_network`]).
    Obs,
    /// Acyclic selection, back-arcs allowed when they close no cycle ([`super::asobs_network`]).
    Asobs,
}

/// Options of [`asobs_search`].
#[derive(Clone, Debug, PartialEq)]
pub struct AsobsOptions {
    /// OBS or ASOBS.
    pub rule: Rule,
    /// Stop starting restarts after this long (`None`: only `max_restarts` stops).
    pub time_limit: Option<Duration>,
    /// Stop after this many restarts (`None`: only `time_limit` stops).
    pub max_restarts: Option<u64>,
    /// Seed of the order sampler.
    pub seed: u64,
    /// The local search that improves each restart.
    pub local_search: LocalSearch,
    /// Stops the search once stopped from outside (no new restarts begin); the result is
    /// the best network of the restarts done.
    pub stop: StopToken,
}

/// The neighbourhood each restart's order is improved in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LocalSearch {
    /// No local search: the network of the sampled order as it is.
    None,
    /// Swaps of adjacent nodes (Scanagatta et al. 2015, §4).
    Swap,
    /// Moves of one node to any position (`insertion_search`), a superset of the swaps.
    Insertion,
}

impl Default for AsobsOptions {
    /// ASOBS with local search, seed 1, 10 seconds, no restart cap.
    fn default() -> Self {
        AsobsOptions {
            rule: Rule::Asobs,
            time_limit: Some(Duration::from_secs(10)),
            max_restarts: None,
            seed: 1,
            local_search: LocalSearch::Insertion,
            stop: StopToken::new(),
        }
    }
}

/// The best network of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct AsobsResult {
    /// The best DAG found (acyclic, every parent set a candidate).
    pub dag: Dag,
    /// Its score (local scores summed in node order).
    pub score: f64,
    /// Seconds from the start of the search until this DAG was found.
    pub found_at_s: f64,
    /// Index of the restart that found it.
    pub best_restart: u64,
    /// Restarts completed.
    pub restarts: u64,
    /// Wall-clock seconds of the whole search.
    pub time_s: f64,
}

/// Why a search returned no network.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum HeuristicError {
    /// Neither a time limit nor a restart count was given.
    #[error("the order search needs a time limit or a number of restarts")]
    Unbounded,
    /// No sampled order admitted a network: some candidate list lacks the empty set.
    #[error("no sampled order admits a network ({0} restarts): a candidate list without the empty set leaves a node with no allowed parent set")]
    NoNetwork(u64),
    /// Version 1 of the k-tree search was asked for a width it cannot take.
    #[error("k-tree Version 1 takes widths up to {max} (its cost grows as (k+1)!·3^k per node); width {width} needs Version 2")]
    TooWide {
        /// The width asked for.
        width: usize,
        /// The widest it takes.
        max: usize,
    },
    /// The start network of a k-tree search is not an acyclic graph over the table's
    /// nodes.
    #[error("the start network of the k-tree search {0}")]
    BadStart(String),
}

/// Progress of a running search, reported after every restart.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchProgress {
    /// Restarts completed so far.
    pub restarts: u64,
    /// Best score so far, if any network was found.
    pub best: Option<f64>,
}

/// Runs the search; see the module documentation.
pub fn asobs_search(
    table: &ScoreTable,
    opts: &AsobsOptions,
) -> Result<AsobsResult, HeuristicError> {
    asobs_search_with_progress(table, opts, &|_| {})
}

/// [`asobs_search`], calling `on_progress` after every restart.
pub fn asobs_search_with_progress(
    table: &ScoreTable,
    opts: &AsobsOptions,
    on_progress: &(dyn Fn(SearchProgress) + Sync),
) -> Result<AsobsResult, HeuristicError> {
    if opts.time_limit.is_none() && opts.max_restarts.is_none() {
        return Err(HeuristicError::Unbounded);
    }
    let start = Instant::now();
    let limits = RestartLimits {
        deadline: opts.time_limit.map(|t| start + t),
        max_restarts: opts.max_restarts,
        stop: &opts.stop,
    };
    let (best, restarts) = best_restart(&limits, start, on_progress, &|i, budget| {
        run_restart(table, opts, i, budget)
    });
    let best = best.ok_or(HeuristicError::NoNetwork(restarts))?;
    Ok(AsobsResult {
        dag: best.net.to_dag(table),
        score: best.net.score,
        found_at_s: best.at,
        best_restart: best.restart,
        restarts,
        time_s: start.elapsed().as_secs_f64(),
    })
}

/// When a restart search stops starting restarts.
pub(crate) struct RestartLimits<'a> {
    /// No restart begins after this instant (restart 0 always runs).
    pub(crate) deadline: Option<Instant>,
    /// At most this many restarts.
    pub(crate) max_restarts: Option<u64>,
    /// No restart begins once this is stopped.
    pub(crate) stop: &'a StopToken,
}

/// Runs `restart(i, budget)` for `i = 0, 1, …` on the rayon pool until `limits` stop
/// it, calling `on_progress` after each; returns the best network (ties to the lower
/// index) and the number of restarts run. Restart `i` must be a pure function of `i`
/// (and of the budget), so that a restart count without a deadline gives the same
/// answer whatever the number of threads.
pub(crate) fn best_restart(
    limits: &RestartLimits<'_>,
    start: Instant,
    on_progress: &(dyn Fn(SearchProgress) + Sync),
    restart: &(dyn Fn(u64, &Budget) -> Option<Network> + Sync),
) -> (Option<Found>, u64) {
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let best_so_far = Mutex::new(None::<f64>);
    let workers = rayon::current_num_threads();
    let found: Vec<Found> = (0..workers)
        .into_par_iter()
        .filter_map(|_| {
            let mut mine: Option<Found> = None;
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let out_of_time = i > 0
                    && (limits.deadline.is_some_and(|d| Instant::now() >= d)
                        || limits.stop.is_stopped());
                if limits.max_restarts.is_some_and(|m| i >= m) || out_of_time {
                    break;
                }
                let net = restart(i, &Budget::new(limits.deadline, limits.stop));
                let restarts = done.fetch_add(1, Ordering::Relaxed) + 1;
                if let Some(net) = net {
                    let f = Found {
                        net,
                        restart: i,
                        at: start.elapsed().as_secs_f64(),
                    };
                    if mine.as_ref().is_none_or(|m| f.beats(m)) {
                        mine = Some(f);
                    }
                }
                let best = {
                    let mut b = best_so_far.lock().expect("no panics while locked");
                    if let Some(m) = &mine {
                        *b = Some(b.map_or(m.net.score, |s: f64| s.max(m.net.score)));
                    }
                    *b
                };
                on_progress(SearchProgress { restarts, best });
            }
            mine
        })
        .collect();
    let restarts = done.into_inner();
    let best = found
        .into_iter()
        .reduce(|a, b| if b.beats(&a) { b } else { a });
    (best, restarts)
}

/// A network found by one restart.
pub(crate) struct Found {
    /// The network.
    pub(crate) net: Network,
    /// The restart that found it.
    pub(crate) restart: u64,
    /// Seconds from the start of the search.
    pub(crate) at: f64,
}

impl Found {
    /// Higher score wins; equal scores go to the lower restart index.
    fn beats(&self, other: &Found) -> bool {
        ranks_above(
            (self.net.score, self.restart),
            (other.net.score, other.restart),
        )
    }
}

/// Whether the network of restart `a.1` scoring `a.0` is the better of two, by the rule
/// of [`best_restart`]: higher score wins, equal scores go to the lower restart index.
pub(crate) fn ranks_above(a: (f64, u64), b: (f64, u64)) -> bool {
    match a.0.total_cmp(&b.0) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Equal => a.1 < b.1,
    }
}

/// The uniformly random order of restart `i`: ChaCha8 seeded with `seed`, stream `i`.
pub fn sample_order(n: usize, seed: u64, i: u64) -> Vec<usize> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(i);
    let mut order: Vec<usize> = (0..n).collect();
    order.shuffle(&mut rng);
    order
}

/// One restart: a random order, its network, and (if asked) the local search.
fn run_restart(
    table: &ScoreTable,
    opts: &AsobsOptions,
    i: u64,
    budget: &Budget,
) -> Option<Network> {
    let order = sample_order(table.n(), opts.seed, i);
    let search = match opts.local_search {
        LocalSearch::None => {
            return match opts.rule {
                Rule::Obs => obs_network(table, &order),
                Rule::Asobs => asobs_network_until(table, &order, budget),
            }
        }
        LocalSearch::Swap => swap_search,
        LocalSearch::Insertion => insertion_search,
    };
    match opts.rule {
        Rule::Obs => search(table, order, budget).map(|(_, net)| net),
        Rule::Asobs => asobs_with_local_search(table, &order, search, budget),
    }
}

/// A local search over orders: the final order and its OBS network (see [`swap_search`]).
type OrderSearch = fn(&ScoreTable, Vec<usize>, &Budget) -> Option<(Vec<usize>, Network)>;

/// ASOBS on `order`, then alternately: the local search from a topological order of the
/// current network (its OBS network there scores at least as well, as every parent set
/// already precedes its child), and ASOBS on the order the search reached (at least as
/// good again, Theorem 3); stops when a round brings no improvement or `budget` is spent.
fn asobs_with_local_search(
    table: &ScoreTable,
    order: &[usize],
    search: OrderSearch,
    budget: &Budget,
) -> Option<Network> {
    let mut best = asobs_network_until(table, order, budget)?;
    while !budget.is_spent() {
        let topo = best
            .to_dag(table)
            .topological_order()
            .expect("ASOBS networks are acyclic");
        let Some((searched, local)) = search(table, topo, budget) else {
            break;
        };
        let next = match asobs_network_until(table, &searched, budget) {
            Some(a) if a.score >= local.score => a,
            _ => local,
        };
        let scale = best.score.abs().max(1.0);
        if next.score <= best.score + 1e-12 * scale {
            break;
        }
        best = next;
    }
    Some(best)
}
