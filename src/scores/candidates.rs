//! Candidate parent sets: sequential generation up to a parent limit, level by level
//! (all sets of size s for every child before size s + 1), with the pruning rules of
//! Liao et al. 2019 ("Pruning Rules for Candidate Parent Sets") in their ε-relaxed form.
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
use super::set_key::SetKey;
use bnsl_formulations::{Candidate, ScoreTable, VarSet};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::sync::atomic::{AtomicU64, Ordering};

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
struct Proposal<K> {
    set: K,
    best_subset: f64,
    parent_states: f64,
}

/// Memory a proposed family takes until its level is scored and pruned: the proposal,
/// its scored entry and its share of the counted sets (about 85 bytes measured on
/// 50 million families).
pub const BYTES_PER_FAMILY: u64 = 96;

/// Proposals counted locally before they are added to the shared count and checked.
const PROPOSALS_PER_CHECK: u64 = 4096;

/// Candidate generation would not fit in memory.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error(
    "scoring every parent set of up to {limit} parents of {n} variables needs more than \
     {needed_gib:.1} GiB ({families} families proposed by size {size}, about \
     {BYTES_PER_FAMILY} bytes each), above the {budget_gib:.1} GiB it may use (half the \
     memory available); lower \
     --max-parents, restrict the parents (--candidates), or explore with a budget \
     (--search independence --time-per-var S)",
    needed_gib = *.families as f64 * BYTES_PER_FAMILY as f64 / (1u64 << 30) as f64,
    budget_gib = *.budget_bytes as f64 / (1u64 << 30) as f64
)]
pub struct TooManyFamilies {
    /// Variables of the data set.
    pub n: usize,
    /// The parent limit in force.
    pub limit: usize,
    /// The parent-set size being proposed when the budget ran out.
    pub size: usize,
    /// Families proposed so far (scored ones included).
    pub families: u64,
    /// The memory budget in bytes.
    pub budget_bytes: u64,
}

/// Relative tolerance under which two local scores count as tied for Lemma 1: Π′ is
/// dropped when σ(Π) ≥ σ(Π′) + ε − 1e-12·max(1, |σ(Π′)|). Rounding in the set
/// decomposition is a few ulps (≈ 1e-15 relative), so this only merges exact ties, and
/// the optimum lost by it is below 1e-12 relative per node.
pub const TIE_TOLERANCE: f64 = 1e-12;

/// The scored parent sets of one child and one size, in proposal order.
type Level<K> = Vec<(K, Entry)>;
/// A [`Level`] indexed by parent set, built when the next size is proposed from it.
type LevelIndex<K> = FxHashMap<K, Entry>;
/// Counted sets (without single-state members, see [`Generator::counted_as`]).
type StatsCache<K> = FxHashMap<K, SetStats>;

/// Scores all parent sets of every variable up to the limit, pruning as asked, and
/// returns the kept candidates. `on_progress(k)` is called as families get scored.
///
/// Families are scored as F(Π ∪ {X}) − F(Π) (see [`super::local`]): each variable set is
/// counted once per run, in parallel, and shared by every family that contains it.
///
/// Memory grows with the families proposed ([`BYTES_PER_FAMILY`] each); when they would
/// exceed half the memory available (the other half is headroom: the proposal lists
/// grow by doubling), generation stops with [`TooManyFamilies`] before it scores them.
pub fn generate_candidates(
    scorer: &LocalScorer,
    opts: &CandidateOptions,
    on_progress: &(dyn Fn(u64) + Sync),
) -> Result<(ScoreTable, GenerationStats), TooManyFamilies> {
    let budget = bnsl_formulations::machine::available_memory_bytes().map_or(u64::MAX, |m| m / 2);
    generate_within(scorer, opts, budget, on_progress)
}

/// [`generate_candidates`] within a memory budget of `budget_bytes`.
pub(crate) fn generate_within(
    scorer: &LocalScorer,
    opts: &CandidateOptions,
    budget_bytes: u64,
    on_progress: &(dyn Fn(u64) + Sync),
) -> Result<(ScoreTable, GenerationStats), TooManyFamilies> {
    if u64::fits(scorer.data().n_vars()) {
        generate::<u64>(scorer, opts, budget_bytes, on_progress)
    } else {
        generate::<VarSet>(scorer, opts, budget_bytes, on_progress)
    }
}

/// [`generate_candidates`] with parent sets represented as `K` (see [`SetKey`]).
fn generate<K: SetKey>(
    scorer: &LocalScorer,
    opts: &CandidateOptions,
    budget_bytes: u64,
    on_progress: &(dyn Fn(u64) + Sync),
) -> Result<(ScoreTable, GenerationStats), TooManyFamilies> {
    let gen = Generator::<K>::new(scorer, opts);
    let max_families = budget_bytes / BYTES_PER_FAMILY;
    let n = scorer.data().n_vars();
    let mut levels: Vec<Vec<Level<K>>> = vec![Vec::new(); n];
    let mut cache = StatsCache::default();
    let mut stats = GenerationStats {
        parent_limit: gen.limit,
        ..Default::default()
    };
    for size in 0..=gen.limit {
        let prev: Vec<LevelIndex<K>> = levels
            .par_iter()
            .map(|child| child.last().map_or_else(Default::default, index))
            .collect();
        let proposed = AtomicU64::new(stats.families_scored);
        let proposals: Vec<Vec<Proposal<K>>> = (0..n)
            .into_par_iter()
            .map(|child| gen.propose(child, size, &prev, &cache, &proposed, max_families))
            .collect();
        drop(prev);
        let families = proposed.into_inner();
        if families > max_families {
            return Err(TooManyFamilies {
                n,
                limit: gen.limit,
                size,
                families,
                budget_bytes,
            });
        }
        stats.sets_counted += gen.count_sets(&proposals, &mut cache);
        let next: Vec<Level<K>> = proposals
            .into_par_iter()
            .enumerate()
            .map(|(child, props)| {
                on_progress(props.len() as u64);
                props
                    .into_iter()
                    .map(|p| (p.set.clone(), gen.score_entry(child, p, &cache)))
                    .collect()
            })
            .collect();
        let last = size == gen.limit;
        let mut any = false;
        for (child, mut level) in next.into_iter().enumerate() {
            stats.families_scored += level.len() as u64;
            any |= level.iter().any(|(_, e)| e.extendable);
            if last {
                // No level follows to extend these sets: only the kept ones matter.
                level.retain(|(_, e)| gen.is_kept(e));
            }
            levels[child].push(level);
        }
        if !any {
            break;
        }
    }
    drop(cache);
    let candidates: Vec<Vec<Candidate>> = levels
        .into_par_iter()
        .map(|child| gen.kept(child))
        .collect();
    stats.families_kept = candidates.iter().map(|c| c.len() as u64).sum();
    let table = ScoreTable::new(scorer.data().names(), candidates)
        .expect("generated candidates are valid: unique sets, finite scores, the empty set kept");
    Ok((table, stats))
}

/// A level indexed by parent set.
fn index<K: SetKey>(level: &Level<K>) -> LevelIndex<K> {
    level.iter().cloned().collect()
}

struct Generator<'s, 'd, K> {
    scorer: &'s LocalScorer<'d>,
    allowed: Option<&'s [VarSet]>,
    pruning: Pruning,
    limit: usize,
    rows: f64,
    n: usize,
    /// The variables with a single state: they split no configuration and multiply no
    /// state count, so a set has exactly the counts, F and G of the set without them.
    single_state: K,
}

impl<'s, 'd, K: SetKey> Generator<'s, 'd, K> {
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
        let single_state = (0..n)
            .filter(|&v| scorer.arities()[v] == 1)
            .fold(K::empty(n), |s, v| s.with(v));
        Generator {
            scorer,
            allowed: opts.allowed_parents.as_deref(),
            pruning: opts.pruning,
            limit,
            rows,
            n,
            single_state,
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
    /// `prev` holds every child's level of `size − 1` (unused for `size` 0). Every
    /// proposal is added to `proposed`, shared by all children; once that exceeds
    /// `max_families` the proposals stop short, and the children still to come propose
    /// nothing.
    fn propose(
        &self,
        child: usize,
        size: usize,
        prev: &[LevelIndex<K>],
        cache: &StatsCache<K>,
        proposed: &AtomicU64,
        max_families: u64,
    ) -> Vec<Proposal<K>> {
        if size == 0 {
            return vec![Proposal {
                set: K::empty(self.n),
                best_subset: f64::NEG_INFINITY,
                parent_states: 1.0,
            }];
        }
        if proposed.load(Ordering::Relaxed) > max_families {
            return Vec::new();
        }
        let own = &prev[child];
        let mut out = Vec::new();
        for (base, base_entry) in own.iter().filter(|(_, e)| e.extendable) {
            let top = base.last().map_or(0, |m| m + 1);
            for x in (top..self.n).filter(|&x| x != child && self.may_parent(child, x)) {
                let set = base.with(x);
                let Some(best_subset) = self.best_extendable_subset(&set, own) else {
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
                if (out.len() as u64).is_multiple_of(PROPOSALS_PER_CHECK)
                    && proposed.fetch_add(PROPOSALS_PER_CHECK, Ordering::Relaxed) > max_families
                {
                    return out;
                }
            }
        }
        proposed.fetch_add(out.len() as u64 % PROPOSALS_PER_CHECK, Ordering::Relaxed);
        out
    }

    /// The best score over the proper subsets of `set`, or `None` if an immediate subset
    /// is missing or may not be extended.
    fn best_extendable_subset(&self, set: &K, prev: &LevelIndex<K>) -> Option<f64> {
        let mut best = f64::NEG_INFINITY;
        for y in set.members() {
            let sub = prev.get(&set.without(y)).filter(|e| e.extendable)?;
            best = best.max(sub.score).max(sub.best_subset);
        }
        Some(best)
    }

    /// Thm 1 and Thm 3 (BIC): true when `set` and all its supersets can be dropped.
    fn pruned_by_bic_bounds(
        &self,
        child: usize,
        set: &K,
        best_subset: f64,
        q: f64,
        prev: &[LevelIndex<K>],
        cache: &StatsCache<K>,
    ) -> bool {
        let w = self.scorer.bic_weight();
        let r = self.arity(child);
        if self.beats(best_subset, -w * (r - 1.0) * q) {
            return true;
        }
        // Thm 3 reads G(set) only where a family (Y | set \ {Y}) was scored at the previous
        // level, i.e. where counting it cost nothing extra.
        let scored_as_family = set.members().any(|y| prev[y].contains_key(&set.without(y)));
        if !scored_as_family {
            return false;
        }
        let with_j = &cache[&self.counted_as(set)];
        set.members().any(|j| {
            let base = set.without(j);
            let (Some(own), Some(base_stats)) =
                (prev[child].get(&base), cache.get(&self.counted_as(&base)))
            else {
                return false;
            };
            let other_ll = with_j.n_log_n - base_stats.n_log_n;
            let gain = (-own.log_likelihood).min(-other_ll);
            let penalty = w * (r - 1.0) * (self.arity(j) - 1.0) * own.parent_states;
            self.beats(penalty, gain)
        })
    }

    /// Counts, in parallel, every set the proposals need (Π and Π ∪ {X}, each as
    /// [`Self::counted_as`]) that is not yet in the cache; returns how many were counted. Sets are grouped by their prefix
    /// (the set without its largest member) so each group shares one pass for the prefix.
    fn count_sets(&self, proposals: &[Vec<Proposal<K>>], cache: &mut StatsCache<K>) -> u64 {
        // (prefix, last member) of every needed set, deduplicated by a parallel sort.
        let mut needed: Vec<(K, usize)> = proposals
            .par_iter()
            .enumerate()
            .flat_map_iter(|(child, props)| {
                let cache = &*cache;
                props
                    .iter()
                    .flat_map(move |p| {
                        [self.counted_as(&p.set), self.counted_as(&p.set.with(child))]
                    })
                    .filter(move |s| !cache.contains_key(s))
                    .filter_map(|s| s.last().map(|last| (s.without(last), last)))
            })
            .collect();
        needed.par_sort_unstable();
        needed.dedup();
        cache
            .entry(K::empty(self.n))
            .or_insert_with(|| self.scorer.set_stats(&[]));
        let groups: Vec<&[(K, usize)]> = needed.chunk_by(|a, b| a.0 == b.0).collect();
        let counted: Vec<(K, SetStats)> = groups
            .into_par_iter()
            .flat_map_iter(|group| {
                let prefix = &group[0].0;
                let exts: Vec<usize> = group.iter().map(|(_, v)| *v).collect();
                let members: Vec<usize> = prefix.members().collect();
                let stats = self.scorer.extension_stats(&members, &exts);
                exts.into_iter()
                    .zip(stats)
                    .map(move |(v, st)| (prefix.with(v), st))
            })
            .collect();
        let k = counted.len() as u64;
        cache.reserve(counted.len());
        cache.extend(counted);
        k
    }

    /// The set whose counts stand for `set`'s: `set` without its single-state members.
    fn counted_as(&self, set: &K) -> K {
        set.minus(&self.single_state)
    }

    fn score_entry(&self, child: usize, p: Proposal<K>, cache: &StatsCache<K>) -> Entry {
        let family = &cache[&self.counted_as(&p.set.with(child))];
        let parents = &cache[&self.counted_as(&p.set)];
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

    /// Whether a scored set is kept: no subset beats it (Lemma 1).
    fn is_kept(&self, e: &Entry) -> bool {
        !self.dominated(e.best_subset, e.score)
    }

    /// The kept candidates of one child: every scored set not beaten by a subset (Lemma 1),
    /// in [`ScoreTable`]'s order (best first, then smaller sets, then by set), which is
    /// cheaper to establish on keys than on [`Candidate`]s.
    fn kept(&self, levels: Vec<Level<K>>) -> Vec<Candidate> {
        let mut kept: Vec<(f64, K)> = levels
            .into_iter()
            .flatten()
            .filter(|(_, e)| self.is_kept(e))
            .map(|(parents, e)| (e.score, parents))
            .collect();
        kept.sort_unstable_by(|a, b| {
            b.0.total_cmp(&a.0)
                .then_with(|| a.1.len().cmp(&b.1.len()))
                .then_with(|| a.1.cmp(&b.1))
        });
        kept.into_iter()
            .map(|(score, parents)| Candidate {
                parents: parents.to_varset(self.n),
                score,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{DataSet, Variable};
    use proptest::prelude::*;

    /// Random data whose variables have 1 to 3 states (single-state ones included).
    fn data() -> impl Strategy<Value = DataSet> {
        (proptest::collection::vec(1usize..=3, 2..=5), 1usize..30).prop_flat_map(
            |(arities, rows)| {
                let cols = proptest::collection::vec(
                    proptest::collection::vec(any::<u8>(), rows),
                    arities.len(),
                );
                (Just(arities), cols).prop_map(|(arities, cols)| {
                    let vars = arities
                        .iter()
                        .enumerate()
                        .map(|(v, &a)| Variable::with_arity(format!("x{v}"), a))
                        .collect();
                    let cols = cols
                        .into_iter()
                        .zip(&arities)
                        .map(|(col, &a)| col.into_iter().map(|x| x % a as u8).collect())
                        .collect();
                    DataSet::new(vars, cols)
                })
            },
        )
    }

    fn kinds() -> impl Strategy<Value = ScoreKind> {
        prop_oneof![Just(ScoreKind::Bic), Just(ScoreKind::Bdeu { ess: 1.0 })]
    }

    fn prunings() -> impl Strategy<Value = Pruning> {
        prop_oneof![
            Just(Pruning::Off),
            Just(Pruning::Gap(0.0)),
            Just(Pruning::Gap(1.0))
        ]
    }

    proptest! {
        /// Bit-mask keys and `VarSet` keys generate the same table and statistics.
        #[test]
        fn mask_and_varset_keys_agree(d in data(), kind in kinds(), pruning in prunings()) {
            let scorer = LocalScorer::new(&d, kind);
            let opts = CandidateOptions { max_parents: None, pruning, allowed_parents: None };
            let by_mask = generate::<u64>(&scorer, &opts, u64::MAX, &|_| {});
            let by_varset = generate::<VarSet>(&scorer, &opts, u64::MAX, &|_| {});
            prop_assert_eq!(by_mask, by_varset);
        }

        /// Every score equals the family scored directly from its own two counts, which
        /// keeps single-state parents and children (generation counts sets without them).
        #[test]
        fn scores_match_direct_scoring(d in data(), kind in kinds()) {
            let scorer = LocalScorer::new(&d, kind);
            let opts = CandidateOptions {
                max_parents: None,
                pruning: Pruning::Off,
                allowed_parents: None,
            };
            let (table, _) = generate_candidates(&scorer, &opts, &|_| {}).expect("fits in memory");
            for v in 0..table.n() {
                for c in table.candidates(v) {
                    let direct = scorer.score(v, &c.parents.to_vec()).score;
                    prop_assert!((c.score - direct).abs() <= 1e-9 * direct.abs().max(1.0));
                }
            }
        }
    }

    /// Generation that would propose more families than the memory budget holds stops
    /// with the count and the budget, before scoring them; with room it gives the table.
    #[test]
    fn too_many_families_for_the_budget_is_an_error() {
        let vars = (0..40)
            .map(|i| Variable::with_arity(format!("x{i}"), 2))
            .collect();
        let columns = (0..40)
            .map(|c| {
                (0..20)
                    .map(|r| ((r * 7 + c * 3 + r * c) % 2) as u8)
                    .collect()
            })
            .collect();
        let d = DataSet::new(vars, columns);
        let scorer = LocalScorer::new(&d, ScoreKind::Bic);
        let opts = CandidateOptions {
            max_parents: Some(2),
            pruning: Pruning::Off,
            allowed_parents: None,
        };
        let budget = 1000 * BYTES_PER_FAMILY;
        let err = generate_within(&scorer, &opts, budget, &|_| {}).unwrap_err();
        assert_eq!((err.n, err.limit, err.size), (40, 2, 1));
        assert!(err.families > 1000, "{err:?}");
        let message = err.to_string();
        assert!(message.contains("lower --max-parents"), "{message}");
        let (table, stats) =
            generate_within(&scorer, &opts, 100_000 * BYTES_PER_FAMILY, &|_| {}).expect("fits");
        assert_eq!(stats.families_scored, 40 * (1 + 39 + 39 * 38 / 2));
        assert_eq!(table.n(), 40);
    }
}
