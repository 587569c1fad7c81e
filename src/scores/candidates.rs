//! Candidate parent sets: sequential generation up to a parent limit, level by level
//! (all sets of size s for every child before size s + 1), with the pruning rules of
//! seed 002 ("Pruning Rules for Candidate Parent Sets") in their ε-relaxed form.
//!
//! With a gap ε ≥ 0 a parent set is dropped only if no network within ε of the optimum
//! can use it; ε = 0 is exact pruning. Scores are higher-is-better here, so a subset Π
//! "beats" an upper bound u on a superset's score when σ(Π) ≥ u + ε. Rules:
//! - Lemma 1 (any score): Π′ is dropped when a proper subset Π has σ(Π) ≥ σ(Π′) + ε.
//!   Ties are judged up to [`TIE_TOLERANCE`]: scores computed as F(Π ∪ {X}) − F(Π) carry
//!   rounding error, and a superset that adds only a deterministic function of Π scores
//!   the same as Π in exact arithmetic (GOBNILP drops such supersets too).
//! - Thm 1 (BIC): the log-likelihood is ≤ 0, so every superset of Π′ scores at most
//!   −w·t(Π′), with t(Π′) = (r−1)·q(Π′) and w = ln N / 2; if a subset beats that bound,
//!   Π′ and all its supersets are dropped before they are scored.
//! - Thm 2 (BIC): if q(Π) > (N ln r + ε) / (w (r − 1)), every proper superset of Π scores
//!   below σ(Π) − ε (the likelihood gains at most N ln r, the penalty grows by at least
//!   w (r−1) q(Π)), so Π is not extended.
//! - Cor 1 (BIC): no parent set has more than ⌈log₂ N + ε⌉ members.
//! - Thm 3 (BIC, entropy): for Π′ = Π ∪ {j}, every superset Π″ of Π′ gains at most
//!   N·min{H(X|Π), H(X_j|Π)} in likelihood over Π″ \ {j} and pays at least
//!   w (r−1)(r_j−1) q(Π) more penalty; if the penalty beats the gain by ε, Π′ and its
//!   supersets are dropped. The entropies are read off the log-likelihoods of the families
//!   (X, Π) and (X_j, Π) scored at the previous level, so the rule costs no counting.
//! - Thm 4 (BDeu): every observed parent configuration contributes at most −ln r, so every
//!   superset of Π′ scores at most −r⁺(Π′)·ln r; if a subset beats that, Π′ is not extended.

use super::local::{LocalScorer, ScoreKind, SetStats};
use bnsl_formulations::{Candidate, ScoreTable, VarSet};
use rayon::prelude::*;
use rustc_hash::FxHashMap;

/// Whether and how parent sets are pruned.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pruning {
    /// Keep every parent set up to the parent limit.
    Off,
    /// Prune with gap ε ≥ 0 (0 = exact pruning; ε = ln BF keeps every network within a
    /// Bayes factor BF of the optimum).
    Gap(f64),
}

/// Options for sequential candidate generation.
#[derive(Clone, Debug, PartialEq)]
pub struct CandidateOptions {
    /// Largest parent set considered (`None`: no limit beyond the pruning rules; for BDeu
    /// with no limit every subset may be enumerated).
    pub max_parents: Option<usize>,
    /// Pruning mode.
    pub pruning: Pruning,
    /// Per child, the variables allowed as its parents (`None`: every other variable).
    /// Used to restrict the search to discovered Markov blankets or PC sets (`bnsl score
    /// --candidates`); parent sets with a member outside are never generated.
    pub allowed_parents: Option<Vec<VarSet>>,
}

/// What candidate generation did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GenerationStats {
    /// Families whose score was computed.
    pub families_scored: u64,
    /// Families kept as candidates.
    pub families_kept: u64,
    /// Variable sets whose contingency table was counted.
    pub sets_counted: u64,
    /// The parent limit in force (after Cor 1 for BIC).
    pub parent_limit: usize,
}

/// Per parent set, what later levels need to know.
#[derive(Clone, Copy, Debug)]
struct Entry {
    score: f64,
    log_likelihood: f64,
    /// Best score over all proper subsets (−∞ for the empty set).
    best_subset: f64,
    /// Number of joint parent states q(Π).
    parent_states: f64,
    /// Whether supersets may still be considered.
    extendable: bool,
}

/// A parent set that passed the pre-scoring rules, waiting for its score.
struct Proposal {
    set: VarSet,
    best_subset: f64,
    parent_states: f64,
}

/// Relative tolerance under which two local scores count as tied for Lemma 1: Π′ is
/// dropped when σ(Π) ≥ σ(Π′) + ε − 1e-12·max(1, |σ(Π′)|). Rounding in the set
/// decomposition is a few ulps (≈ 1e-15 relative), so this only merges exact ties, and
/// the optimum lost by it is below 1e-12 relative per node.
pub const TIE_TOLERANCE: f64 = 1e-12;

type Level = FxHashMap<VarSet, Entry>;
type StatsCache = FxHashMap<VarSet, SetStats>;

/// Scores all parent sets of every variable up to the limit, pruning as asked, and
/// returns the kept candidates. `on_progress(k)` is called as families get scored.
///
/// Families are scored as F(Π ∪ {X}) − F(Π) (see [`super::local`]): each variable set is
/// counted once per run, in parallel, and shared by every family that contains it.
pub fn generate_candidates(
    scorer: &LocalScorer,
    opts: &CandidateOptions,
    on_progress: &(dyn Fn(u64) + Sync),
) -> (ScoreTable, GenerationStats) {
    let gen = Generator::new(scorer, opts);
    let n = scorer.data().n_vars();
    let mut levels: Vec<Vec<Level>> = vec![Vec::new(); n];
    let mut cache = StatsCache::default();
    let mut stats = GenerationStats {
        parent_limit: gen.limit,
        ..Default::default()
    };
    for size in 0..=gen.limit {
        let proposals: Vec<Vec<Proposal>> = (0..n)
            .into_par_iter()
            .map(|child| gen.propose(child, size, &levels, &cache))
            .collect();
        stats.sets_counted += gen.count_sets(&proposals, &mut cache);
        let next: Vec<Level> = proposals
            .into_par_iter()
            .enumerate()
            .map(|(child, props)| {
                on_progress(props.len() as u64);
                let mut level = Level::with_capacity_and_hasher(props.len(), Default::default());
                level.extend(
                    props
                        .into_iter()
                        .map(|p| (p.set.clone(), gen.score_entry(child, p, &cache))),
                );
                level
            })
            .collect();
        let mut any = false;
        for (child, level) in next.into_iter().enumerate() {
            stats.families_scored += level.len() as u64;
            any |= level.values().any(|e| e.extendable);
            levels[child].push(level);
        }
        if !any {
            break;
        }
    }
    let candidates: Vec<Vec<Candidate>> = levels
        .into_par_iter()
        .map(|child| gen.kept(child))
        .collect();
    stats.families_kept = candidates.iter().map(|c| c.len() as u64).sum();
    let table = ScoreTable::new(scorer.data().names(), candidates)
        .expect("generated candidates are valid: unique sets, finite scores, the empty set kept");
    (table, stats)
}

struct Generator<'s, 'd> {
    scorer: &'s LocalScorer<'d>,
    allowed: Option<&'s [VarSet]>,
    pruning: Pruning,
    limit: usize,
    rows: f64,
    n: usize,
}

impl<'s, 'd> Generator<'s, 'd> {
    fn new(scorer: &'s LocalScorer<'d>, opts: &'s CandidateOptions) -> Self {
        let n = scorer.data().n_vars();
        let rows = scorer.data().n_rows() as f64;
        let mut limit = opts
            .max_parents
            .unwrap_or(n.saturating_sub(1))
            .min(n.saturating_sub(1));
        if let (Pruning::Gap(eps), ScoreKind::Bic) = (opts.pruning, scorer.kind()) {
            let cor1 = (rows.log2() + eps).ceil().max(0.0) as usize;
            limit = limit.min(cor1);
        }
        Generator {
            scorer,
            allowed: opts.allowed_parents.as_deref(),
            pruning: opts.pruning,
            limit,
            rows,
            n,
        }
    }

    /// Whether a known score `lower` is at least `upper + ε` (a subset beating a bound).
    fn beats(&self, lower: f64, upper: f64) -> bool {
        match self.pruning {
            Pruning::Off => false,
            Pruning::Gap(eps) => lower >= upper + eps,
        }
    }

    /// Lemma 1: whether a subset scoring `subset` makes a set scoring `score` redundant,
    /// ties judged up to [`TIE_TOLERANCE`].
    fn dominated(&self, subset: f64, score: f64) -> bool {
        let tie = TIE_TOLERANCE * score.abs().max(1.0);
        self.beats(subset + tie, score)
    }

    /// Whether `x` is an allowed parent of `child`.
    fn may_parent(&self, child: usize, x: usize) -> bool {
        self.allowed.is_none_or(|a| a[child].contains(x))
    }

    fn is_bic(&self) -> bool {
        self.scorer.kind() == ScoreKind::Bic
    }

    fn arity(&self, v: usize) -> f64 {
        self.scorer.arities()[v] as f64
    }

    /// The parent sets of `size` members of `child` that pass the pre-scoring rules:
    /// every immediate subset was kept extendable, and Thm 1 / Thm 3 (BIC) do not apply.
    fn propose(
        &self,
        child: usize,
        size: usize,
        levels: &[Vec<Level>],
        cache: &StatsCache,
    ) -> Vec<Proposal> {
        if size == 0 {
            return vec![Proposal {
                set: VarSet::empty(self.n),
                best_subset: f64::NEG_INFINITY,
                parent_states: 1.0,
            }];
        }
        let prev = &levels[child][size - 1];
        let mut out = Vec::new();
        for (base, base_entry) in prev.iter().filter(|(_, e)| e.extendable) {
            let top = base.iter().last().map_or(0, |m| m + 1);
            for x in (top..self.n).filter(|&x| x != child && self.may_parent(child, x)) {
                let set = base.with(x);
                let Some(best_subset) = self.best_extendable_subset(&set, prev) else {
                    continue;
                };
                let parent_states = base_entry.parent_states * self.arity(x);
                if self.is_bic()
                    && self.pruned_by_bic_bounds(
                        child,
                        &set,
                        best_subset,
                        parent_states,
                        prev,
                        cache,
                    )
                {
                    continue;
                }
                out.push(Proposal {
                    set,
                    best_subset,
                    parent_states,
                });
            }
        }
        out
    }

    /// The best score over the proper subsets of `set`, or `None` if an immediate subset
    /// is missing or may not be extended.
    fn best_extendable_subset(&self, set: &VarSet, prev: &Level) -> Option<f64> {
        let mut best = f64::NEG_INFINITY;
        for y in set.iter() {
            let sub = prev.get(&set.without(y)).filter(|e| e.extendable)?;
            best = best.max(sub.score).max(sub.best_subset);
        }
        Some(best)
    }

    /// Thm 1 and Thm 3 (BIC): true when `set` and all its supersets can be dropped.
    fn pruned_by_bic_bounds(
        &self,
        child: usize,
        set: &VarSet,
        best_subset: f64,
        q: f64,
        prev: &Level,
        cache: &StatsCache,
    ) -> bool {
        let w = self.scorer.bic_weight();
        let r = self.arity(child);
        if self.beats(best_subset, -w * (r - 1.0) * q) {
            return true;
        }
        set.iter().any(|j| {
            let base = set.without(j);
            let (Some(own), Some(base_stats), Some(with_j)) =
                (prev.get(&base), cache.get(&base), cache.get(&base.with(j)))
            else {
                return false;
            };
            let other_ll = with_j.n_log_n - base_stats.n_log_n;
            let gain = (-own.log_likelihood).min(-other_ll);
            let penalty = w * (r - 1.0) * (self.arity(j) - 1.0) * own.parent_states;
            self.beats(penalty, gain)
        })
    }

    /// Counts, in parallel, every set the proposals need (Π and Π ∪ {X}) that is not yet
    /// in the cache; returns how many were counted. Sets are grouped by their prefix
    /// (the set without its largest member) so each group shares one pass for the prefix.
    fn count_sets(&self, proposals: &[Vec<Proposal>], cache: &mut StatsCache) -> u64 {
        // (prefix, last member) of every needed set, deduplicated by a parallel sort.
        let mut needed: Vec<(VarSet, usize)> = proposals
            .par_iter()
            .enumerate()
            .flat_map_iter(|(child, props)| {
                let cache = &*cache;
                props
                    .iter()
                    .flat_map(move |p| [p.set.clone(), p.set.with(child)])
                    .filter(move |s| !cache.contains_key(s))
                    .filter_map(|s| s.iter().last().map(|last| (s.without(last), last)))
            })
            .collect();
        needed.par_sort_unstable();
        needed.dedup();
        if !cache.contains_key(&VarSet::empty(self.n)) {
            cache.insert(VarSet::empty(self.n), self.scorer.set_stats(&[]));
        }
        let groups: Vec<&[(VarSet, usize)]> = needed.chunk_by(|a, b| a.0 == b.0).collect();
        let counted: Vec<(VarSet, SetStats)> = groups
            .into_par_iter()
            .flat_map_iter(|group| {
                let prefix = &group[0].0;
                let exts: Vec<usize> = group.iter().map(|(_, v)| *v).collect();
                let stats = self.scorer.extension_stats(&prefix.to_vec(), &exts);
                exts.into_iter()
                    .zip(stats)
                    .map(move |(v, st)| (prefix.with(v), st))
            })
            .collect();
        let k = counted.len() as u64;
        cache.extend(counted);
        k
    }

    fn score_entry(&self, child: usize, p: Proposal, cache: &StatsCache) -> Entry {
        let family = &cache[&p.set.with(child)];
        let parents = &cache[&p.set];
        let fs = self
            .scorer
            .family_from_stats(child, p.parent_states, family, parents);
        let r = self.arity(child);
        let extendable = match self.scorer.kind() {
            ScoreKind::Bic => !self.bic_size_bound_hit(r, p.parent_states),
            ScoreKind::Bdeu { .. } => !self.beats(
                p.best_subset.max(fs.score),
                -(fs.occurring_configs as f64) * r.ln(),
            ),
        };
        Entry {
            score: fs.score,
            log_likelihood: fs.log_likelihood,
            best_subset: p.best_subset,
            parent_states: p.parent_states,
            extendable,
        }
    }

    /// Thm 2 (BIC): q(Π) > (N ln r + ε) / (w (r − 1)) means no proper superset can help.
    fn bic_size_bound_hit(&self, r: f64, q: f64) -> bool {
        let Pruning::Gap(eps) = self.pruning else {
            return false;
        };
        if r <= 1.0 {
            return false;
        }
        q > (self.rows * r.ln() + eps) / (self.scorer.bic_weight() * (r - 1.0))
    }

    /// The kept candidates of one child: every scored set not beaten by a subset (Lemma 1).
    fn kept(&self, levels: Vec<Level>) -> Vec<Candidate> {
        levels
            .into_iter()
            .flatten()
            .filter(|(_, e)| !self.dominated(e.best_subset, e.score))
            .map(|(parents, e)| Candidate {
                parents,
                score: e.score,
            })
            .collect()
    }
}
