//! Every acyclic choice of candidates of a large part scoring at least a threshold, and
//! the part's optimum, by a depth-first search over the nodes' choices.
//!
//! The nodes choose one at a time, in a fixed order, each among its candidates that
//! close no cycle with the arcs chosen so far. A choice is extended only while its score
//! plus a bound on the nodes still to choose reaches the target: the cluster bound of
//! module `cluster_bound`, and, to stop trying a node's candidates (best first), the sum
//! of the other nodes' best candidates that close no cycle. For the optimum, the target
//! rises with the best choice found.
//!
//! The order makes the costly conflicts come first: it starts at the node with the
//! largest ties (a tie between `u` and `v`: the smaller of what each loses without the
//! other as parent), and goes on with the node most tied to those already placed. Each
//! choice of candidates is reached once, so each network is found once.

use super::cluster_bound::cluster_bound;
use super::parts::{full_mask, members, PartCandidate};
use super::search::{Piece, PieceLimit, Pieces};
use super::{EnumerationEnd, PartSearch};
use crate::heuristics::Budget;

/// Choices tried between two looks at the clock.
const STEPS_PER_CLOCK_CHECK: u64 = 4096;

/// The search for a large part's optimum would take too long: its bound at the root is
/// too loose, or it passed its step limit ([`PartSearch`]).
#[derive(Debug)]
pub(super) struct SearchTooLarge;

/// What the search is for.
enum Goal {
    /// Every choice scoring at least the threshold, into `pieces`.
    Collect { threshold: f64, pieces: Pieces },
    /// The best choice scoring at least the floor, and better than the best so far.
    Maximise { floor: f64, best: f64 },
}

/// The best score of an acyclic choice of `candidates` (a part's), when it reaches
/// `floor`, else `-∞`; `Err` when the root's bound lies further above the floor or
/// the search takes more choices than `limits` allow.
pub(super) fn optimum_by_choices(
    candidates: &[Vec<PartCandidate>],
    floor: f64,
    limits: &PartSearch,
) -> Result<f64, SearchTooLarge> {
    let budget = Budget::unlimited();
    let mut search = Choices::new(
        candidates,
        Goal::Maximise {
            floor,
            best: f64::NEG_INFINITY,
        },
        &budget,
    );
    let root = Reach::empty(candidates.len());
    let Some((_, bound)) = search.bound(0, 0.0, &root) else {
        return Ok(f64::NEG_INFINITY);
    };
    if bound - floor > limits.max_root_gap * floor.abs() {
        return Err(SearchTooLarge);
    }
    search.max_steps = limits.max_steps;
    search.extend(0, 0.0, &root).map_err(|_| SearchTooLarge)?;
    Ok(match search.goal {
        Goal::Maximise { best, .. } => best,
        Goal::Collect { .. } => unreachable!("the goal stays"),
    })
}

/// Every acyclic choice of `candidates` (a part's) scoring at least `threshold`, within
/// `limit` and `budget`; `Err` with what was found when a limit ends the search.
pub(super) fn pieces_by_choices(
    candidates: &[Vec<PartCandidate>],
    threshold: f64,
    limit: PieceLimit,
    budget: &Budget,
) -> Result<Vec<Piece>, (Vec<Piece>, EnumerationEnd)> {
    let goal = Goal::Collect {
        threshold,
        pieces: Pieces::new(limit),
    };
    let mut search = Choices::new(candidates, goal, budget);
    let end = search.extend(0, 0.0, &Reach::empty(candidates.len()));
    let Goal::Collect { pieces, .. } = search.goal else {
        unreachable!("the goal stays")
    };
    match end {
        Ok(()) => Ok(pieces.found),
        Err(end) => Err((pieces.found, end)),
    }
}

/// The arcs chosen so far, closed under paths: per node, its ancestors and its
/// descendants.
#[derive(Clone)]
struct Reach {
    ancestors: Vec<u64>,
    descendants: Vec<u64>,
}

impl Reach {
    /// No arc chosen, over `n` nodes.
    fn empty(n: usize) -> Self {
        Reach {
            ancestors: vec![0; n],
            descendants: vec![0; n],
        }
    }

    /// Whether giving `v` the parents `mask` closes a cycle.
    fn closes_cycle(&self, v: usize, mask: u64) -> bool {
        mask & (self.descendants[v] | 1 << v) != 0
    }

    /// The reach once `v` has the parents `mask` (closing no cycle).
    fn with_parents(&self, v: usize, mask: u64) -> Reach {
        let mut next = self.clone();
        let above = members(mask).fold(mask, |a, p| a | self.ancestors[p]);
        let below = self.descendants[v] | 1 << v;
        for a in members(above) {
            next.descendants[a] |= below;
        }
        for d in members(below) {
            next.ancestors[d] |= above;
        }
        next
    }
}

/// The state of the search.
struct Choices<'a> {
    candidates: &'a [Vec<PartCandidate>],
    /// The nodes in the order they choose.
    order: Vec<usize>,
    goal: Goal,
    /// Per node, the position in its list of its candidate.
    choice: Vec<usize>,
    budget: &'a Budget<'a>,
    steps: u64,
    /// Steps after which the search stops.
    max_steps: u64,
}

impl<'a> Choices<'a> {
    fn new(candidates: &'a [Vec<PartCandidate>], goal: Goal, budget: &'a Budget<'a>) -> Self {
        Choices {
            candidates,
            order: choice_order(candidates),
            goal,
            choice: vec![0; candidates.len()],
            budget,
            steps: 0,
            max_steps: u64::MAX,
        }
    }

    /// Whether a choice whose completions score at most `bound` can still meet the goal.
    fn worth(&self, bound: f64) -> bool {
        match self.goal {
            Goal::Collect { threshold, .. } => bound >= threshold,
            Goal::Maximise { floor, best } => bound >= floor && bound > best,
        }
    }

    /// Lets the nodes `order[depth..]` choose, those before scoring `partial` with the
    /// arcs `reach`; `Err` when a limit ends the search.
    fn extend(&mut self, depth: usize, partial: f64, reach: &Reach) -> Result<(), EnumerationEnd> {
        if depth == self.order.len() {
            return self.record(partial);
        }
        if self.steps.is_multiple_of(STEPS_PER_CLOCK_CHECK) && self.budget.is_spent() {
            return Err(EnumerationEnd::Stopped);
        }
        if self.steps >= self.max_steps {
            return Err(EnumerationEnd::Stopped);
        }
        self.steps += 1;
        let Some((free, paired)) = self.bound(depth, partial, reach) else {
            return Ok(());
        };
        if !self.worth(partial + paired) {
            return Ok(());
        }
        let v = self.order[depth];
        let own_best = self.candidates[v]
            .iter()
            .find(|c| !reach.closes_cycle(v, c.mask))
            .map_or(f64::NEG_INFINITY, |c| c.score);
        let others = free - own_best;
        for (i, c) in self.candidates[v].iter().enumerate() {
            if !self.worth(partial + c.score + others) {
                break;
            }
            if reach.closes_cycle(v, c.mask) {
                continue;
            }
            self.choice[v] = i;
            let next = reach.with_parents(v, c.mask);
            self.extend(depth + 1, partial + c.score, &next)?;
        }
        Ok(())
    }

    /// Bounds on what the nodes `order[depth..]` can add given the arcs `reach`: the sum
    /// of their best candidates that close no cycle, and the cluster bound (module
    /// `cluster_bound`), computed only when the sum plus `partial` is worth it (else the
    /// sum stands for both); `None` when one of them has no such candidate.
    fn bound(&self, depth: usize, partial: f64, reach: &Reach) -> Option<(f64, f64)> {
        let mut open = 0u64;
        for &u in &self.order[depth..] {
            open |= 1 << u;
        }
        let mut free = 0.0;
        for u in members(open) {
            let c = self.candidates[u]
                .iter()
                .find(|c| !reach.closes_cycle(u, c.mask))?;
            free += c.score;
        }
        if !self.worth(partial + free) {
            return Some((free, free));
        }
        let clustered = cluster_bound(self.candidates, open, &reach.ancestors, &reach.descendants)?;
        Some((free, clustered))
    }

    /// Takes the current choice, scoring `score`; `Err` at the piece limit.
    fn record(&mut self, score: f64) -> Result<(), EnumerationEnd> {
        match &mut self.goal {
            Goal::Maximise { best, .. } => {
                *best = best.max(score);
                Ok(())
            }
            Goal::Collect { pieces, .. } => pieces.store(self.candidates, &self.choice),
        }
    }
}

/// The order in which the nodes choose (module doc).
fn choice_order(candidates: &[Vec<PartCandidate>]) -> Vec<usize> {
    let n = candidates.len();
    let loss = |v: usize, u: usize| -> f64 {
        let list = &candidates[v];
        let without = list.iter().find(|c| c.mask >> u & 1 == 0);
        without.map_or(f64::INFINITY, |c| list[0].score - c.score)
    };
    let tie: Vec<Vec<f64>> = (0..n)
        .map(|v| {
            (0..n)
                .map(|u| {
                    if u == v {
                        0.0
                    } else {
                        loss(v, u).min(loss(u, v)).min(1e12)
                    }
                })
                .collect()
        })
        .collect();
    let total: Vec<f64> = tie.iter().map(|row| row.iter().sum()).collect();
    let mut order = Vec::with_capacity(n);
    let mut left = full_mask(n);
    let mut to_placed = vec![0.0f64; n];
    while left != 0 {
        let next = members(left)
            .max_by(|&a, &b| {
                to_placed[a]
                    .total_cmp(&to_placed[b])
                    .then(total[a].total_cmp(&total[b]))
                    .then(b.cmp(&a))
            })
            .expect("nodes are left");
        order.push(next);
        left &= !(1 << next);
        for u in members(left) {
            to_placed[u] += tie[u][next];
        }
    }
    order
}
