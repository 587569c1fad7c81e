//! Core-guided search (OLL) with stratification, weight-aware core extraction, core
//! trimming and hardening (see the parent module).
//!
//! Every soft clause is an assumption literal (true when the clause is satisfied: the
//! clause's literal for a unit clause, else the negation of a relaxation variable) with
//! a residual weight. A core `K` with least residual weight `w` raises the lower bound
//! by `w` and takes `w` off each of its members; when the stratum yields no more cores,
//! each core found is relaxed: a totalizer over its violations, whose output "at least
//! k violated" becomes a soft clause of weight `w` for the least `k ≥ 2` that may
//! be false (core exhaustion), and a member that is itself output
//! `k` of a totalizer brings output `k + 1` in with weight `w`. The cost of any model is
//! then the lower bound plus the residual weight it violates.

use super::oracle::Answer;
use super::totalizer::Totalizer;
use super::{Outcome, Search};
use bnsl_formulations::maxsat::Lit;
use rustc_hash::FxHashMap;

/// How many times a core is fed back to the solver to shrink it.
const TRIM_ROUNDS: usize = 5;

/// One soft clause of the current formulation.
struct Soft {
    /// True when satisfied.
    lit: Lit,
    /// Residual weight (0: no longer assumed).
    weight: u64,
    /// For output `k` of a totalizer: which and `k`.
    sum: Option<(usize, usize)>,
}

/// The least `k ≥ 2` for which "fewer than `k` of the totalizer's inputs are violated"
/// may hold: each output found forced true raises the lower bound by `weight` (core
/// exhaustion, Ignatiev et al. 2019). `None` when stopped.
fn exhaust(tot: &mut Totalizer, weight: u64, search: &mut Search<'_>) -> Option<usize> {
    let mut k = 2;
    while k <= tot.inputs() && !search.closed() {
        let output = tot.output(k, &mut search.oracle);
        match search.oracle.solve(&[-output]) {
            Answer::Unsat(_) => {
                search.oracle.add_clause(&[output]);
                search.raise(weight);
                k += 1;
            }
            Answer::Sat(model) => {
                search.offer(model);
                return Some(k);
            }
            Answer::Stopped => return None,
        }
    }
    Some(k)
}

/// The state of the search.
struct Oll {
    softs: Vec<Soft>,
    by_lit: FxHashMap<Lit, usize>,
    totalizers: Vec<Totalizer>,
    /// Cores found in this stratum, not yet relaxed: members and their weight.
    pending: Vec<(Vec<usize>, u64)>,
    /// Soft clauses of at least this weight are assumed.
    threshold: u64,
}

/// Runs OLL on the formula of `search` (its hard clauses already in the oracle).
pub(super) fn run(search: &mut Search<'_>) -> Outcome {
    let mut oll = Oll {
        softs: Vec::new(),
        by_lit: FxHashMap::default(),
        totalizers: Vec::new(),
        pending: Vec::new(),
        threshold: 0,
    };
    let mut next_var = search.wcnf.num_vars;
    let violated = search.relax_softs(&mut next_var);
    for ((weight, _), &lit) in search.wcnf.soft.iter().zip(&violated) {
        oll.add_soft(-lit, *weight, None);
    }
    if let Some(end) = search.first_model() {
        return end;
    }
    oll.harden(search);
    oll.threshold = oll.next_threshold(u64::MAX);
    loop {
        if search.closed() {
            return Outcome::Closed;
        }
        let assumed = oll.assumed();
        match search.oracle.solve(&assumed) {
            Answer::Sat(model) => {
                search.offer(model);
                oll.harden(search);
                if !oll.pending.is_empty() {
                    oll.relax_pending(search);
                } else if oll.threshold > 1 && oll.has_below_threshold() {
                    oll.threshold = oll.next_threshold(oll.threshold);
                } else {
                    // Every soft clause holds under the lower bound's reformulation.
                    search.lower_bound = search.upper_bound().unwrap_or(search.lower_bound);
                    return Outcome::Closed;
                }
            }
            Answer::Unsat(core) => {
                if core.is_empty() {
                    // The hardened formula has no model besides those already excluded:
                    // the incumbent is optimal.
                    search.lower_bound = search.upper_bound().unwrap_or(search.lower_bound);
                    return Outcome::Closed;
                }
                let Some(core) = oll.trim(search, core) else {
                    return Outcome::Stopped;
                };
                oll.take_core(search, core);
            }
            Answer::Stopped => return Outcome::Stopped,
        }
    }
}

impl Oll {
    fn add_soft(&mut self, lit: Lit, weight: u64, sum: Option<(usize, usize)>) {
        if weight == 0 {
            return;
        }
        if let Some(&i) = self.by_lit.get(&lit) {
            self.softs[i].weight += weight;
            return;
        }
        self.by_lit.insert(lit, self.softs.len());
        self.softs.push(Soft { lit, weight, sum });
    }

    /// The assumptions of the current stratum.
    fn assumed(&self) -> Vec<Lit> {
        self.softs
            .iter()
            .filter(|s| s.weight > 0 && s.weight >= self.threshold)
            .map(|s| s.lit)
            .collect()
    }

    fn has_below_threshold(&self) -> bool {
        self.softs
            .iter()
            .any(|s| s.weight > 0 && s.weight < self.threshold)
    }

    /// The next stratum below `threshold`: the heaviest residual weight under it, and
    /// everything within a factor 2 of that.
    fn next_threshold(&self, threshold: u64) -> u64 {
        let top = self
            .softs
            .iter()
            .map(|s| s.weight)
            .filter(|&w| w > 0 && w < threshold)
            .max()
            .unwrap_or(1);
        (top / 2).max(1)
    }

    /// Shrinks `core` (assumption literals) by solving under it again, up to
    /// [`TRIM_ROUNDS`] times or until it stops shrinking; `None` when stopped.
    fn trim(&self, search: &mut Search<'_>, mut core: Vec<Lit>) -> Option<Vec<usize>> {
        for _ in 0..TRIM_ROUNDS {
            if core.len() <= 1 {
                break;
            }
            match search.oracle.solve(&core) {
                Answer::Unsat(smaller) if !smaller.is_empty() && smaller.len() < core.len() => {
                    core = smaller
                }
                Answer::Unsat(_) => break,
                Answer::Sat(_) => unreachable!("a core is unsatisfiable"),
                Answer::Stopped => return None,
            }
        }
        Some(core.iter().map(|l| self.by_lit[l]).collect())
    }

    /// Raises the lower bound by the core's least weight, takes it off its members and
    /// keeps the core for relaxation.
    fn take_core(&mut self, search: &mut Search<'_>, core: Vec<usize>) {
        let least = core
            .iter()
            .map(|&i| self.softs[i].weight)
            .min()
            .expect("a core has members");
        for &i in &core {
            self.softs[i].weight -= least;
        }
        search.raise(least);
        self.pending.push((core, least));
    }

    /// Relaxes the cores of the stratum (see the module doc).
    fn relax_pending(&mut self, search: &mut Search<'_>) {
        for (core, weight) in std::mem::take(&mut self.pending) {
            for &i in &core {
                if let Some((t, k)) = self.softs[i].sum {
                    if k < self.totalizers[t].inputs() {
                        let next = self.totalizers[t].output(k + 1, &mut search.oracle);
                        self.add_soft(-next, weight, Some((t, k + 1)));
                    }
                }
            }
            if let [only] = core[..] {
                search.oracle.add_clause(&[-self.softs[only].lit]);
                continue;
            }
            let violated: Vec<Lit> = core.iter().map(|&i| -self.softs[i].lit).collect();
            let mut tot = Totalizer::new(&violated, &mut search.oracle);
            let Some(k) = exhaust(&mut tot, weight, search) else {
                return;
            };
            if k <= tot.inputs() {
                let output = tot.output(k, &mut search.oracle);
                self.totalizers.push(tot);
                self.add_soft(-output, weight, Some((self.totalizers.len() - 1, k)));
            }
        }
    }

    /// Makes hard every soft clause heavier than the gap between the incumbent and the
    /// lower bound: violating it would cost more than the incumbent.
    fn harden(&mut self, search: &mut Search<'_>) {
        let Some(ub) = search.upper_bound() else {
            return;
        };
        let gap = ub - search.lower_bound;
        for s in &mut self.softs {
            if s.weight > gap {
                search.oracle.add_clause(&[s.lit]);
                s.weight = 0;
            }
        }
    }
}
