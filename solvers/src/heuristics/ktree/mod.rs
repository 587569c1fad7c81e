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
//! the rest of the k-tree. With Version 2, every second step orients the new k-tree by a
//! topological order of the climb's best network instead of Algorithm 2's random order,
//! so that a step which leaves that network inside the k-tree keeps it. Last, the
//! restart's network is polished outside its k-tree (`polish`), unless the climb has no
//! steps.
//!
//! A start network found by another method ([`KtreeOptions::start`]) replaces the
//! sampled codes: the restarts climb from k-trees built from it (`start`; see
//! `Starts::restart` for which restart takes which).
//!
//! Restarts run in parallel as in the order search: restart `i` is a pure function of
//! `(seed, i)` until the time limit cuts its climb.

mod code;
mod exact;
mod polish;
mod start;

pub use exact::VERSION_1_MAX_WIDTH;

use super::search::{best_restart, ranks_above, RestartLimits};
use super::Budget;
use super::{narrow_greedy, HeuristicError, Network, SearchProgress};
use crate::stop::StopToken;
use bnsl_formulations::treewidth::{moral_graph, treewidth, TreewidthLimits};
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
    /// paper does, and skips the polish.
    pub climb_steps: u64,
    /// Seed of the samplers.
    pub seed: u64,
    /// A network to start from (acyclic, over the table's nodes): the restarts climb
    /// from k-trees built from it instead of sampled ones (the module doc), each taking
    /// the network its version finds there or, when better, the one of the order the
    /// k-tree was built along.
    pub start: Option<Dag>,
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
    // The elimination order of the best restart so far: a climb cut by the time limit
    // cannot be run again to find it.
    let best_order: Mutex<Option<(f64, u64, Vec<usize>)>> = Mutex::new(None);
    let starts = match &opts.start {
        Some(dag) => {
            let budget = Budget::new(limits.deadline, &opts.stop);
            Some(Starts::new(table, dag, k, &budget)?)
        }
        None => None,
    };
    let (best, restarts) = best_restart(&limits, start, on_progress, &|i, budget| {
        let (net, order) = restart(table, k, opts, starts.as_ref(), i, budget)?;
        let mut kept = best_order.lock().expect("no panics while locked");
        let better = kept
            .as_ref()
            .is_none_or(|(score, at, _)| ranks_above((net.score, i), (*score, *at)));
        if better {
            *kept = Some((net.score, i, order));
        }
        Some(net)
    });
    let best = best.ok_or(HeuristicError::NoNetwork(restarts))?;
    let (_, at, elimination_order) = best_order
        .into_inner()
        .expect("no panics while locked")
        .expect("the best restart kept its elimination order");
    debug_assert_eq!(at, best.restart);
    Ok(KtreeResult {
        dag: best.net.to_dag(table),
        score: best.net.score,
        elimination_order,
        found_at_s: best.at,
        restarts,
        time_s: start.elapsed().as_secs_f64(),
    })
}

/// Steps of a climb between two looks at the budget.
const STEPS_PER_BUDGET_CHECK: u64 = 64;

/// Restart `i`: the best network of its climb, polished (`polish`) unless the climb has
/// no steps (the paper's sampling), with an elimination order of width at most k for it.
fn restart(
    table: &ScoreTable,
    k: usize,
    opts: &KtreeOptions,
    starts: Option<&Starts>,
    i: u64,
    budget: &Budget,
) -> Option<(Network, Vec<usize>)> {
    let (net, tree) = climb(table, k, opts, starts, i, budget)?;
    if opts.climb_steps == 0 {
        return Some((net, tree.elimination_order()));
    }
    Some(polish::polish(
        table,
        net,
        tree.elimination_order(),
        k,
        budget,
    ))
}

/// Restart `i`'s climb from a sampled code (or a start's): its best network and k-tree.
fn climb(
    table: &ScoreTable,
    k: usize,
    opts: &KtreeOptions,
    starts: Option<&Starts>,
    i: u64,
    budget: &Budget,
) -> Option<(Network, KTree)> {
    let n = table.n();
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    rng.set_stream(i);
    let (mut code, mut best) = match starts {
        Some(starts) => starts.restart(table, i, opts.version, budget, &mut rng),
        None => {
            let code = Code::sample(n, k, &mut rng);
            let tree = code.decode(n);
            let found = in_ktree(table, &tree, opts.version, &mut rng);
            (code, found.map(|net| (net, tree)))
        }
    };
    let mut guide = best.as_ref().map(|(net, _)| order_of(table, net));
    for step in 0..opts.climb_steps {
        if step % STEPS_PER_BUDGET_CHECK == 0 && budget.is_spent() {
            break;
        }
        let Some(next) = code.neighbour(n, &mut rng) else {
            break;
        };
        let tree = next.decode(n);
        let found = match (&guide, opts.version) {
            (Some(order), KtreeVersion::Two) if step % 2 == 1 => {
                best_within(table, &tree, &orient_by(&tree, order))
            }
            _ => in_ktree(table, &tree, opts.version, &mut rng),
        };
        if let Some(net) = found {
            if best.as_ref().is_none_or(|(b, _)| net.score >= b.score) {
                guide = Some(order_of(table, &net));
                best = Some((net, tree));
                code = next;
            }
        }
    }
    best
}

/// A topological order of `net`'s DAG.
fn order_of(table: &ScoreTable, net: &Network) -> Vec<usize> {
    net.to_dag(table)
        .topological_order()
        .expect("a network of the search is acyclic")
}

/// The k-trees built from a start network (`start`), each with its code, and the
/// network's topological order.
struct Starts {
    start: Dag,
    k: usize,
    order: Vec<usize>,
    trees: Vec<(Code, KTree)>,
}

impl Starts {
    /// The k-trees of `start`: the one that covers its moral graph, the one built by the
    /// scores along its order, and the one that covers the DAG of width at most k built
    /// greedily along that order ([`narrow_greedy`]) by that DAG's elimination order,
    /// unless `budget` is spent first.
    fn new(
        table: &ScoreTable,
        start: &Dag,
        k: usize,
        budget: &Budget,
    ) -> Result<Starts, HeuristicError> {
        if start.n() != table.n() {
            let why = format!("has {} nodes, the table {}", start.n(), table.n());
            return Err(HeuristicError::BadStart(why));
        }
        let order = start
            .topological_order()
            .map_err(|_| HeuristicError::BadStart("has a directed cycle".into()))?;
        let mut trees = vec![
            start::covering_ktree(start, k, None),
            start::greedy_ktree(table, start, &order, k),
        ];
        trees.extend(narrow_ktree(table, &order, k, budget));
        let trees = trees.into_iter().map(|t| (t.code(), t)).collect();
        Ok(Starts {
            start: start.clone(),
            k,
            order,
            trees,
        })
    }

    /// Restart `i`'s code and the better of the networks `version` finds in its k-tree
    /// and the one of its order there. The first round takes the k-trees of
    /// [`Starts::new`] with the start's order, in turn; from the second round on, even
    /// restarts take the k-tree of the DAG built greedily along a random topological
    /// order of the start ([`narrow_greedy`], as the third k-tree of the first round) with
    /// that order, and odd ones a k-tree of the first round with a tenth of its code's
    /// symbols (at least one) replaced at random.
    fn restart(
        &self,
        table: &ScoreTable,
        i: u64,
        version: KtreeVersion,
        budget: &Budget,
        rng: &mut ChaCha8Rng,
    ) -> (Code, Option<(Network, KTree)>) {
        let n = table.n();
        let (built, built_tree) = &self.trees[i as usize % self.trees.len()];
        let first_round = (i as usize) < self.trees.len();
        let (code, tree, order) = if first_round {
            (built.clone(), built_tree.clone(), self.order.clone())
        } else if i.is_multiple_of(2) {
            let order = linear_extension(&self.start, rng);
            match narrow_ktree(table, &order, self.k, budget) {
                Some(tree) => (tree.code(), tree, order),
                None => (built.clone(), built_tree.clone(), order),
            }
        } else {
            let mut code = built.clone();
            for _ in 0..(code.sequence.len() / START_PERTURBATION).max(1) {
                code = code.neighbour(n, rng).unwrap_or(code);
            }
            let tree = code.decode(n);
            (code, tree, self.order.clone())
        };
        let ordered = best_within(table, &tree, &orient_by(&tree, &order));
        let found = in_ktree(table, &tree, version, rng);
        let best =
            [ordered, found]
                .into_iter()
                .flatten()
                .reduce(|a, b| if b.score > a.score { b } else { a });
        (code, best.map(|net| (net, tree)))
    }
}

/// The k-tree that covers the DAG of width at most k built greedily along `order`
/// ([`narrow_greedy`]), by that DAG's elimination order; `None` when no such DAG is
/// found before `budget` is spent.
fn narrow_ktree(table: &ScoreTable, order: &[usize], k: usize, budget: &Budget) -> Option<KTree> {
    let narrow = narrow_greedy(table, order, k, &|| budget.is_spent())?;
    let found = treewidth(&moral_graph(&narrow), &NARROW_WIDTH_LIMITS);
    Some(start::covering_ktree(&narrow, k, Some(&found.order)))
}

/// The search of the width of the greedy start DAG: its order is the one the k-tree
/// follows.
const NARROW_WIDTH_LIMITS: TreewidthLimits = TreewidthLimits {
    deadline: None,
    max_nodes: Some(100_000),
};

/// One in this many symbols of a start's code is replaced in restarts 2 on.
const START_PERTURBATION: usize = 10;

/// A uniformly drawn next node among those whose parents are all placed, until all are.
fn linear_extension(dag: &Dag, rng: &mut impl Rng) -> Vec<usize> {
    let n = dag.n();
    let mut placed = VarSet::empty(n);
    let mut order = Vec::with_capacity(n);
    while order.len() < n {
        let ready: Vec<usize> = (0..n)
            .filter(|&v| !placed.contains(v) && dag.parents(v).is_subset(&placed))
            .collect();
        let v = ready[rng.gen_range(0..ready.len())];
        placed.insert(v);
        order.push(v);
    }
    order
}

/// The orientation of the k-tree's edges by `order`: each node's neighbours before it.
fn orient_by(tree: &KTree, order: &[usize]) -> Vec<VarSet> {
    let n = tree.adjacent.len();
    let mut position = vec![0; n];
    for (p, &v) in order.iter().enumerate() {
        position[v] = p;
    }
    (0..n)
        .map(|v| {
            let before = tree.adjacent[v]
                .iter()
                .filter(|&u| position[u] < position[v]);
            VarSet::from_members(n, before)
        })
        .collect()
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
