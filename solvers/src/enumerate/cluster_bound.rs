//! An upper bound on what the nodes still to choose can add, by a Lagrangian relaxation
//! of the cluster constraints (Jaakkola et al., "Learning Bayesian network structure
//! using LP relaxations", AISTATS 2010; GOBNILP's cluster cuts).
//!
//! In an acyclic choice, every cluster `C` of open nodes has a node whose parents, and
//! their ancestors by the arcs already chosen, avoid `C`. With a multiplier `δ_C ≥ 0` per
//! cluster, `Σ_u max_c (s_u(c) + Σ_{C ∋ u, c avoids C} δ_C) − Σ_C δ_C` bounds every
//! acyclic choice's score, for any multipliers. They are set by dual ascent: while some
//! cluster has every node needing a parent inside it in all its best modified
//! candidates, ties included (see [`tight_cluster`]), that cluster's `δ_C` rises by the
//! least that one of its nodes loses by avoiding it. Ties matter: a node that leaves
//! one cycle at no loss often joins another, and only their union can rise.

use super::parts::{members, PartCandidate};

/// Clusters the bound may add before it stops tightening.
const MAX_CLUSTERS: usize = 64;

/// Modified scores this close (relative) count as tied.
const TIE: f64 = 1e-9;

/// One open node's candidates that close no cycle with the chosen arcs.
struct Open {
    node: usize,
    /// Per candidate: its parents among the open nodes, directly or through chosen
    /// arcs, and its score plus the multipliers of the clusters it avoids.
    candidates: Vec<(u64, f64)>,
}

/// The bound for the open nodes `open` of a part whose chosen arcs give each node its
/// `ancestors`, whose descendants are `descendants`: `None` when an open node has no
/// candidate closing no cycle.
pub(super) fn cluster_bound(
    candidates: &[Vec<PartCandidate>],
    open: u64,
    ancestors: &[u64],
    descendants: &[u64],
) -> Option<f64> {
    let mut nodes = Vec::with_capacity(open.count_ones() as usize);
    for u in members(open) {
        let usable: Vec<(u64, f64)> = candidates[u]
            .iter()
            .filter(|c| c.mask & (descendants[u] | 1 << u) == 0)
            .map(|c| {
                let through = members(c.mask).fold(c.mask, |m, p| m | ancestors[p]);
                (through & open, c.score)
            })
            .collect();
        if usable.is_empty() {
            return None;
        }
        nodes.push(Open {
            node: u,
            candidates: usable,
        });
    }
    let mut multipliers = 0.0;
    for _ in 0..MAX_CLUSTERS {
        let tops: Vec<f64> = nodes.iter().map(top).collect();
        let Some(cluster) = tight_cluster(&nodes, &tops, open) else {
            break;
        };
        let step = nodes
            .iter()
            .zip(&tops)
            .filter(|(o, _)| cluster >> o.node & 1 == 1)
            .map(|(o, &t)| t - best_avoiding(o, cluster))
            .fold(f64::INFINITY, f64::min);
        if step == f64::INFINITY {
            return None; // every node of the cluster needs a parent in it
        }
        multipliers += step;
        for o in nodes.iter_mut().filter(|o| cluster >> o.node & 1 == 1) {
            for c in &mut o.candidates {
                if c.0 & cluster == 0 {
                    c.1 += step;
                }
            }
        }
    }
    let bests: f64 = nodes.iter().map(top).sum();
    Some(bests - multipliers)
}

/// A node's best modified score among its candidates that avoid `cluster`.
fn best_avoiding(o: &Open, cluster: u64) -> f64 {
    o.candidates
        .iter()
        .filter(|c| c.0 & cluster == 0)
        .map(|c| c.1)
        .fold(f64::NEG_INFINITY, f64::max)
}

/// A node's best modified score.
fn top(o: &Open) -> f64 {
    o.candidates
        .iter()
        .map(|c| c.1)
        .fold(f64::NEG_INFINITY, f64::max)
}

/// Whether a modified score ties with a node's best, `top`.
fn ties(score: f64, top: f64) -> bool {
    score >= top - TIE * (1.0 + top.abs())
}

/// A cluster every node of which has a parent inside in each of its best modified
/// candidates (ties included), so that its multiplier can rise; `None` when there is
/// none. The nodes that have a best candidate avoiding the others are peeled off until
/// none is left: what remains is the largest such cluster. A smaller one is grown
/// inside it from a cycle, adding the parents of any best candidate that avoids it.
fn tight_cluster(nodes: &[Open], tops: &[f64], open: u64) -> Option<u64> {
    let mut index = [usize::MAX; 64];
    for (k, o) in nodes.iter().enumerate() {
        index[o.node] = k;
    }
    // The parents of a node's best modified candidates, ties included.
    let tied = |u: usize| {
        let k = index[u];
        nodes[k]
            .candidates
            .iter()
            .filter(move |c| ties(c.1, tops[k]))
            .map(|c| c.0)
    };
    let mut core = open;
    loop {
        let loose: u64 = members(core)
            .filter(|&u| tied(u).any(|m| m & core == 0))
            .fold(0, |m, u| m | 1 << u);
        if loose == 0 {
            break;
        }
        core &= !loose;
    }
    if core == 0 {
        return None;
    }
    // In the core every node has a parent in the core in its first tie: walk up those
    // until a node repeats.
    let parent = |u: usize| {
        let first = tied(u).next().expect("a node has a best candidate");
        (first & core).trailing_zeros() as usize
    };
    let mut seen = 0u64;
    let mut v = core.trailing_zeros() as usize;
    while seen >> v & 1 == 0 {
        seen |= 1 << v;
        v = parent(v);
    }
    let mut cluster = 1u64 << v;
    let mut u = parent(v);
    while u != v {
        cluster |= 1 << u;
        u = parent(u);
    }
    loop {
        let wider = members(cluster).fold(cluster, |c, u| {
            tied(u)
                .filter(|&m| m & cluster == 0)
                .fold(c, |c, m| c | (m & core))
        });
        if wider == cluster {
            return Some(cluster);
        }
        cluster = wider;
    }
}
