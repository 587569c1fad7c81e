//! Learning DAGs of bounded treewidth by sampling k-trees (Nie et al. 2016, §4,
//! Algorithm 1). Every restart samples a uniform k-tree (`code`) and finds a DAG whose
//! moral graph is a subgraph of it, so its treewidth is at most k, and the k-tree's
//! perfect elimination order shows it:
//! - Version 1 (`exact`): the best such DAG, by a program exponential in k only;
//! - Version 2: orient the k-tree's edges by Algorithm 2 (a random partial order built as
//!   the k-tree was: the root clique in a random order, then each joined node at a
//!   uniformly random place among the k nodes it joined), and give each node its best
//!   candidate whose parents precede it in that order and are pairwise joined in the
//!   k-tree.
//!
//! Beyond the paper, each restart then climbs from its sampled code
//! ([`KtreeOptions::climb_steps`] times): one symbol of the code's sequence is replaced
//! by a uniform one, the new k-tree decoded and searched by the same version, and the new
//! code kept when its network scores at least as well. A symbol names where one node
//! joins, so a step moves a node and the nodes joined below it to other cliques, keeping
//! the rest of the k-tree.
//!
//! Restarts run in parallel as in the order search: restart `i` is a pure function of
//! `(seed, i)` until the time limit cuts its climb.

mod code;
mod exact;

pub use exact::VERSION_1_MAX_WIDTH;

use super::search::{best_restart, ranks_above, RestartLimits};
use super::Budget;
use super::{HeuristicError, Network, SearchProgress};
use crate::stop::StopToken;
use bnsl_formulations::{Dag, ScoreTable, VarSet};
use code::{Code, KTree};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The default of [`KtreeOptions::climb_steps`] (measured against pure sampling in
/// README, "Bounded treewidth").
pub const DEFAULT_CLIMB_STEPS: u64 = 50_000;

/// What a restart does in its k-tree (Nie et al. 2016, Algorithm 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KtreeVersion {
    /// Version 1: the best DAG inside the k-tree, exactly (widths up to
    /// [`VERSION_1_MAX_WIDTH`]).
    One,
    /// Version 2: a random orientation of the k-tree by Algorithm 2, then each node's
    /// best candidate within it; far cheaper per k-tree.
    #[default]
    Two,
}

/// Options of [`ktree_search`].
#[derive(Clone, Debug)]
pub struct KtreeOptions {
    /// The treewidth bound k (the width of the sampled k-trees).
    pub width: usize,
    /// What each restart does in its k-tree.
    pub version: KtreeVersion,
    /// Stop starting restarts after this long (`None`: only `max_restarts` stops).
    pub time_limit: Option<Duration>,
    /// Stop after this many restarts (`None`: only `time_limit` stops).
    pub max_restarts: Option<u64>,
    /// Steps of each restart's climb over codes (module doc); 0 samples only, as the
    /// paper does.
    pub climb_steps: u64,
    /// Seed of the samplers.
    pub seed: u64,
    /// Stops the search from outside; the result is the best network so far.
    pub stop: StopToken,
}

/// The best network of a k-tree search, with the elimination order that shows its width.
#[derive(Clone, Debug, PartialEq)]
pub struct KtreeResult {
    /// The best DAG found.
    pub dag: Dag,
    /// Its score.
    pub score: f64,
    /// A perfect elimination order of the k-tree it was found in: width at most k for
    /// the DAG's moral graph.
    pub elimination_order: Vec<usize>,
    /// Seconds until it was found.
    pub found_at_s: f64,
    /// Restarts run.
    pub restarts: u64,
    /// Seconds of the whole search.
    pub time_s: f64,
}

/// Runs the search (see the module doc). A table of at most `width + 1` variables needs
/// no k-tree: every DAG fits; the caller learns it without the bound.
pub fn ktree_search(
    table: &ScoreTable,
    opts: &KtreeOptions,
    on_progress: &(dyn Fn(SearchProgress) + Sync),
) -> Result<KtreeResult, HeuristicError> {
    if opts.time_limit.is_none() && opts.max_restarts.is_none() {
        return Err(HeuristicError::Unbounded);
    }
    let n = table.n();
    let k = opts.width.min(n.saturating_sub(1));
    if opts.version == KtreeVersion::One && k > VERSION_1_MAX_WIDTH {
        return Err(HeuristicError::TooWide {
            width: k,
            max: VERSION_1_MAX_WIDTH,
        });
    }
    let start = Instant::now();
    let limits = RestartLimits {
        deadline: opts.time_limit.map(|t| start + t),
        max_restarts: opts.max_restarts,
        stop: &opts.stop,
    };
    // The k-tree of the best restart so far: a climb cut by the time limit cannot be
    // run again to find it.
    let best_tree: Mutex<Option<(f64, u64, KTree)>> = Mutex::new(None);
    let (best, restarts) = best_restart(&limits, start, on_progress, &|i, budget| {
        let (net, tree) = restart(table, k, opts, i, budget)?;
        let mut kept = best_tree.lock().expect("no panics while locked");
        let better = kept
            .as_ref()
            .is_none_or(|(score, at, _)| ranks_above((net.score, i), (*score, *at)));
        if better {
            *kept = Some((net.score, i, tree));
        }
        Some(net)
    });
    let best = best.ok_or(HeuristicError::NoNetwork(restarts))?;
    let (_, at, tree) = best_tree
        .into_inner()
        .expect("no panics while locked")
        .expect("the best restart kept its k-tree");
    debug_assert_eq!(at, best.restart);
    Ok(KtreeResult {
        dag: best.net.to_dag(table),
        score: best.net.score,
        elimination_order: tree.elimination_order(),
        found_at_s: best.at,
        restarts,
        time_s: start.elapsed().as_secs_f64(),
    })
}

/// Steps of a climb between two looks at the budget.
const STEPS_PER_BUDGET_CHECK: u64 = 64;

/// Restart `i`: the best network of its climb from a sampled code, and its k-tree.
fn restart(
    table: &ScoreTable,
    k: usize,
    opts: &KtreeOptions,
    i: u64,
    budget: &Budget,
) -> Option<(Network, KTree)> {
    let n = table.n();
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    rng.set_stream(i);
    let mut code = Code::sample(n, k, &mut rng);
    let tree = code.decode(n);
    let mut best = in_ktree(table, &tree, opts.version, &mut rng).map(|net| (net, tree));
    for step in 0..opts.climb_steps {
        if step % STEPS_PER_BUDGET_CHECK == 0 && budget.is_spent() {
            break;
        }
        let Some(next) = code.neighbour(n, &mut rng) else {
            break;
        };
        let tree = next.decode(n);
        if let Some(net) = in_ktree(table, &tree, opts.version, &mut rng) {
            if best.as_ref().is_none_or(|(b, _)| net.score >= b.score) {
                best = Some((net, tree));
                code = next;
            }
        }
    }
    best
}

/// The network `version` finds in `tree`.
fn in_ktree(
    table: &ScoreTable,
    tree: &KTree,
    version: KtreeVersion,
    rng: &mut ChaCha8Rng,
) -> Option<Network> {
    match version {
        KtreeVersion::One => exact::best_in_ktree(table, tree),
        KtreeVersion::Two => {
            let before = orient(tree, rng);
            best_within(table, tree, &before)
        }
    }
}

/// Algorithm 2 of Nie et al. 2016: a random acyclic orientation of the k-tree's edges,
/// as each node's set of neighbours oriented towards it. The root clique takes a random
/// order; each joined node takes a uniformly random place among the k nodes it joined
/// (which are totally ordered, being a clique of an acyclic orientation).
fn orient(tree: &KTree, rng: &mut impl Rng) -> Vec<VarSet> {
    let n = tree.adjacent.len();
    let mut before = vec![VarSet::empty(n); n];
    let mut root = tree.root.clone();
    rand::seq::SliceRandom::shuffle(root.as_mut_slice(), rng);
    for (i, &a) in root.iter().enumerate() {
        for &b in &root[i + 1..] {
            before[b].insert(a);
        }
    }
    for &v in &tree.joined {
        let clique = &tree.clique[v];
        let members = VarSet::from_members(n, clique.iter().copied());
        let mut ranked: Vec<usize> = clique.clone();
        ranked.sort_by_key(|&u| before[u].intersection(&members).len());
        let place = rng.gen_range(0..=ranked.len());
        for (r, &u) in ranked.iter().enumerate() {
            if r < place {
                before[v].insert(u);
            } else {
                before[u].insert(v);
            }
        }
    }
    before
}

/// Each node's best candidate whose parents all come before it and are pairwise joined
/// in the k-tree; `None` when some node has no such candidate.
fn best_within(table: &ScoreTable, tree: &KTree, before: &[VarSet]) -> Option<Network> {
    let choice = (0..table.n())
        .map(|v| {
            table.candidates(v).iter().position(|c| {
                c.parents.is_subset(&before[v])
                    && c.parents
                        .iter()
                        .all(|u| c.parents.without(u).is_subset(&tree.adjacent[u]))
            })
        })
        .collect::<Option<Vec<usize>>>()?;
    Some(Network::from_choice(table, choice))
}

#[cfg(test)]
mod tests;
