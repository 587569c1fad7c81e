//! The per-variable state every strategy shares: the closed list of explored parent sets
//! with exact scores, the quantities BIC* and the bounds need (BIC, entropy H(Π), number
//! of parent states), the pruning rules, and the final subset-dominance filter.

use super::SelectionOptions;
use crate::scores::candidates::{Pruning, TIE_TOLERANCE};
use crate::scores::local::{LocalScorer, ScoreKind};
use bnsl_formulations::{Candidate, VarSet};
use rustc_hash::{FxHashMap, FxHashSet};
use std::time::Instant;

/// Sets with more members than this are checked for dominance by scanning the closed
/// list instead of enumerating their subsets.
const SUBSET_ENUMERATION_LIMIT: usize = 16;

/// One explored parent set.
#[derive(Clone, Debug)]
pub(super) struct Explored {
    pub set: VarSet,
    /// The local score being learned (BIC or BDeu).
    pub score: f64,
    /// BIC of the family (equal to `score` for BIC), which BIC* is built from.
    pub bic: f64,
    /// Empirical entropy H(Π) of the parent set, in nats.
    pub entropy: f64,
    /// Number of joint parent states q(Π).
    pub states: f64,
    /// Best score known over proper subsets (a lower bound on the true best).
    pub best_subset: f64,
    /// Whether supersets may still be explored.
    pub expandable: bool,
    /// Zobrist hash of `set`.
    pub hash: u64,
}

/// Exploration state of one variable.
pub(super) struct Explorer<'s, 'd> {
    scorer: &'s LocalScorer<'d>,
    pub child: usize,
    pub n: usize,
    pruning: Pruning,
    pub max_parents: usize,
    /// The variables allowed as parents (`None`: all), e.g. a discovered Markov blanket.
    allowed: Option<VarSet>,
    deadline: Option<Instant>,
    /// BIC penalty per parent state: w·(r − 1), w = ln N / 2.
    pub penalty: f64,
    /// Number of rows N.
    pub rows: f64,
    /// Smallest arity of any variable (the least a superset multiplies q by).
    pub min_arity: f64,
    zobrist: Vec<u64>,
    pub closed: Vec<Explored>,
    index: FxHashMap<VarSet, usize>,
    /// Hashes of every set queued or explored beyond size 2.
    seen: FxHashSet<u64>,
}

impl<'s, 'd> Explorer<'s, 'd> {
    /// A fresh state for `child`, with the empty set explored.
    pub(super) fn new(
        scorer: &'s LocalScorer<'d>,
        child: usize,
        opts: &SelectionOptions,
        deadline: Option<Instant>,
    ) -> Self {
        let n = scorer.data().n_vars();
        let r = scorer.arities()[child] as f64;
        let mut ex = Explorer {
            scorer,
            child,
            n,
            pruning: opts.pruning,
            max_parents: opts.max_parents.unwrap_or(n).min(n.saturating_sub(1)),
            allowed: opts.allowed_parents.as_ref().map(|a| a[child].clone()),
            deadline,
            penalty: scorer.bic_weight() * (r - 1.0),
            rows: scorer.data().n_rows() as f64,
            min_arity: scorer.arities().iter().copied().min().unwrap_or(1) as f64,
            zobrist: (0..n as u64).map(splitmix64).collect(),
            closed: Vec::new(),
            index: FxHashMap::default(),
            seen: FxHashSet::default(),
        };
        ex.explore(VarSet::empty(n), f64::NEG_INFINITY, 0);
        ex
    }

    /// Number of explored sets.
    pub(super) fn len(&self) -> usize {
        self.closed.len()
    }

    /// Whether the budget is spent.
    pub(super) fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The arity of `v`.
    pub(super) fn arity(&self, v: usize) -> f64 {
        self.scorer.arities()[v] as f64
    }

    /// Index of an explored set.
    pub(super) fn index_of(&self, set: &VarSet) -> Option<usize> {
        self.index.get(set).copied()
    }

    /// The hash of `closed[base] ∪ {y}`.
    pub(super) fn hash_with(&self, base: usize, y: usize) -> u64 {
        self.closed[base].hash ^ self.zobrist[y]
    }

    /// Records a hash as queued; false when it was already there.
    pub(super) fn mark_seen(&mut self, hash: u64) -> bool {
        self.seen.insert(hash)
    }

    /// Whether a known score `lower` is at least `upper + ε` (the pruning comparison).
    pub(super) fn beats(&self, lower: f64, upper: f64) -> bool {
        match self.pruning {
            Pruning::Off => false,
            Pruning::Gap(eps) => lower >= upper + eps,
        }
    }

    /// Whether the score being learned is BIC (the bounds on BIC apply).
    pub(super) fn is_bic(&self) -> bool {
        self.scorer.kind() == ScoreKind::Bic
    }

    /// De Campos & Ji's bound (Scanagatta et al. 2015, Thm 2 proof, "Theorem 4 of [6]"):
    /// with LL ≤ 0 a set of `states` parent states scores at most −w(r−1)·states under
    /// BIC, so when a subset scoring `subset` beats that, the set and all its supersets
    /// are not optimal.
    pub(super) fn bic_bound_prunes(&self, subset: f64, states: f64) -> bool {
        self.is_bic() && self.beats(subset, -self.penalty * states)
    }

    /// Scores `set`, records it in the closed list and returns its index; `best_subset` is
    /// the best score known over its subsets. The set is marked expandable unless it is at
    /// the parent limit or a bound shows no superset can be optimal (BIC: the bound of
    /// [`Self::bic_bound_prunes`] for the smallest superset; BDeu: Liao et al. 2019, Thm 4).
    pub(super) fn explore(&mut self, set: VarSet, best_subset: f64, hash: u64) -> usize {
        let parents = set.to_vec();
        let par = self.scorer.set_stats(&parents);
        let fam = self.scorer.extension_stats(&parents, &[self.child])[0];
        let states = self.scorer.joint_states(&parents);
        let fs = self
            .scorer
            .family_from_stats(self.child, states, &fam, &par);
        let bic = fs.log_likelihood - self.penalty * states;
        let best = best_subset.max(fs.score);
        let r = self.arity(self.child);
        let expandable = set.len() < self.max_parents
            && match self.scorer.kind() {
                // No superset can add a variable of arity ≥ min_arity without pruning.
                ScoreKind::Bic => !self.bic_bound_prunes(best, states * self.min_arity),
                // Liao et al. 2019, Thm 4: every superset scores at most −r⁺(Π)·ln r under BDeu.
                ScoreKind::Bdeu { .. } => {
                    !self.beats(best, -(fs.occurring_configs as f64) * r.ln())
                }
            };
        let idx = self.closed.len();
        self.index.insert(set.clone(), idx);
        self.closed.push(Explored {
            set,
            score: fs.score,
            bic,
            entropy: (self.rows.ln() - par.n_log_n / self.rows).max(0.0),
            states,
            best_subset,
            expandable,
            hash,
        });
        idx
    }

    /// Explores `closed[base] ∪ {y}`, carrying the subset bound along.
    pub(super) fn explore_extension(&mut self, base: usize, y: usize) -> usize {
        let b = &self.closed[base];
        let set = b.set.with(y);
        let best_subset = b.best_subset.max(b.score);
        let hash = self.hash_with(base, y);
        self.explore(set, best_subset, hash)
    }

    /// Whether `closed[base] ∪ {y}` is worth exploring: `y` new and allowed, within the
    /// parent limit, and not pruned by the BIC bound.
    pub(super) fn extension_allowed(&self, base: usize, y: usize) -> bool {
        let b = &self.closed[base];
        y != self.child
            && self.allowed.as_ref().is_none_or(|a| a.contains(y))
            && !b.set.contains(y)
            && b.set.len() < self.max_parents
            && !self.bic_bound_prunes(b.best_subset.max(b.score), b.states * self.arity(y))
    }

    /// The kept candidates: every explored set that no explored proper subset matches or
    /// beats (Lemma 1 of Liao et al. 2019; "it safely prunes Π if any of its subsets
    /// yields a higher score", Scanagatta et al. 2015, §3.2), ties judged up to [`TIE_TOLERANCE`].
    pub(super) fn into_kept(self) -> Vec<Candidate> {
        self.closed
            .iter()
            .filter(|e| !self.dominated(e))
            .map(|e| Candidate {
                parents: e.set.clone(),
                score: e.score,
            })
            .collect()
    }

    fn dominated(&self, e: &Explored) -> bool {
        if e.set.is_empty() || self.pruning == Pruning::Off {
            return false;
        }
        let tie = TIE_TOLERANCE * e.score.abs().max(1.0);
        let beats = |s: f64| self.beats(s + tie, e.score);
        if beats(e.best_subset) {
            return true;
        }
        let members = e.set.to_vec();
        if members.len() > SUBSET_ENUMERATION_LIMIT {
            return self
                .closed
                .iter()
                .any(|o| o.set.len() < members.len() && o.set.is_subset(&e.set) && beats(o.score));
        }
        let full = (1u32 << members.len()) - 1;
        (0..full).any(|mask| {
            let sub = VarSet::from_members(
                self.n,
                members
                    .iter()
                    .enumerate()
                    .filter(|(b, _)| mask >> b & 1 == 1)
                    .map(|(_, &m)| m),
            );
            self.index_of(&sub)
                .is_some_and(|i| beats(self.closed[i].score))
        })
    }
}

/// SplitMix64: well-mixed 64-bit keys for Zobrist hashing of sets (a set's hash is the
/// XOR of its members' keys, so adding a member is one XOR).
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
