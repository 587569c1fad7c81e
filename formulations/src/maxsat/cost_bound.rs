//! The cost of an assignment as a binary number, and clauses that bound it: the
//! pseudo-Boolean constraint `Σ w_i · violated_i ≤ K` of a [`Wcnf`] in
//! CNF, as an adder network (Warners 1998; the "adder" encoding of Eén & Sörensson
//! 2006, §5.1).
//!
//! Each soft clause `i` gets a literal `violated_i` (the negation of its only literal
//! when it is a unit clause; otherwise a fresh variable `r_i` with the hard clause
//! `C_i ∨ r_i`). Bit `j` of weight `w_i` puts `violated_i` in bucket `j`. A bucket of
//! three or more literals is reduced by a full adder (sum back into bucket `j`, carry
//! into bucket `j + 1`), one of two by a half adder; a bucket of one literal is bit `j`
//! of the sum. Adders are defined by equivalences (Tseitin), so the sum bits are a
//! function of the violated literals. [`CostAdder::at_most`] then forbids every binary
//! number above `K` (for each bit `j` where `K` has 0: the sum may not have 1 there while
//! agreeing with `K` on all higher bits).
//!
//! The weights are arbitrary 64-bit integers; the encoding has `O(Σ_i popcount(w_i))`
//! adders, so it stays small where a totalizer over the sums of distinct weights would
//! not (bnsl's weights are costs scaled by `10^9`).

use super::{Lit, Wcnf};

/// The adder network of a formula's cost (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CostAdder {
    /// The clauses defining the relaxation variables and the adders.
    pub clauses: Vec<Vec<Lit>>,
    /// Bit `j` of the cost, from the least significant; `None` where the bit is always 0.
    pub bits: Vec<Option<Lit>>,
}

impl CostAdder {
    /// Builds the adder of `wcnf`'s soft clauses whose violation literals are
    /// `violated` (one per soft clause, in order), numbering new variables from
    /// `*next_var`.
    pub fn build(wcnf: &Wcnf, violated: &[Lit], next_var: &mut u32) -> CostAdder {
        let mut fresh = || {
            *next_var += 1;
            *next_var as Lit
        };
        let mut clauses = Vec::new();
        let mut buckets: Vec<Vec<Lit>> = vec![Vec::new(); 64];
        for ((weight, _), &lit) in wcnf.soft.iter().zip(violated) {
            for (j, bucket) in buckets.iter_mut().enumerate() {
                if weight >> j & 1 == 1 {
                    bucket.push(lit);
                }
            }
        }
        let mut bits = Vec::new();
        let mut j = 0;
        while j < buckets.len() {
            let mut queue = std::mem::take(&mut buckets[j]);
            let mut head = 0;
            while queue.len() - head >= 2 {
                let (a, b) = (queue[head], queue[head + 1]);
                if queue.len() - head >= 3 {
                    let c = queue[head + 2];
                    head += 3;
                    let (sum, carry) = (fresh(), fresh());
                    full_adder(&mut clauses, [a, b, c], sum, carry);
                    queue.push(sum);
                    push_carry(&mut buckets, j + 1, carry);
                } else {
                    head += 2;
                    let (sum, carry) = (fresh(), fresh());
                    half_adder(&mut clauses, [a, b], sum, carry);
                    queue.push(sum);
                    push_carry(&mut buckets, j + 1, carry);
                }
            }
            bits.push(queue.get(head).copied());
            j += 1;
        }
        while bits.last() == Some(&None) {
            bits.pop();
        }
        CostAdder { clauses, bits }
    }

    /// Clauses that hold exactly when the cost is at most `bound`.
    pub fn at_most(&self, bound: u64) -> Vec<Vec<Lit>> {
        let width = self.bits.len();
        if width < 64 && bound >> width != 0 {
            return Vec::new();
        }
        let mut clauses = Vec::new();
        'bits: for (j, bit) in self.bits.iter().enumerate() {
            let Some(bit) = *bit else { continue };
            if bound >> j & 1 == 1 {
                continue;
            }
            let mut clause = vec![-bit];
            for (i, higher) in self.bits.iter().enumerate().skip(j + 1) {
                match (*higher, bound >> i & 1 == 1) {
                    (Some(h), true) => clause.push(-h),
                    (Some(h), false) => clause.push(h),
                    // The cost has 0 where the bound has 1: it is below the bound there.
                    (None, true) => continue 'bits,
                    (None, false) => {}
                }
            }
            clauses.push(clause);
        }
        clauses
    }
}

fn push_carry(buckets: &mut Vec<Vec<Lit>>, j: usize, carry: Lit) {
    if buckets.len() <= j {
        buckets.resize(j + 1, Vec::new());
    }
    buckets[j].push(carry);
}

/// `sum ↔ a ⊕ b ⊕ c` and `carry ↔ at least two of a, b, c`.
fn full_adder(clauses: &mut Vec<Vec<Lit>>, [a, b, c]: [Lit; 3], sum: Lit, carry: Lit) {
    for signs in 0..8u32 {
        let s = |k: u32, l: Lit| if signs >> k & 1 == 1 { -l } else { l };
        // The clause is falsified exactly when `a`, `b`, `c` take the values of the bits
        // of `signs`; it then forces `sum` to their parity.
        let parity = signs.count_ones() % 2 == 1;
        clauses.push(vec![
            s(0, a),
            s(1, b),
            s(2, c),
            if parity { sum } else { -sum },
        ]);
    }
    for (x, y) in [(a, b), (a, c), (b, c)] {
        clauses.push(vec![-x, -y, carry]);
        clauses.push(vec![x, y, -carry]);
    }
}

/// `sum ↔ a ⊕ b` and `carry ↔ a ∧ b`.
fn half_adder(clauses: &mut Vec<Vec<Lit>>, [a, b]: [Lit; 2], sum: Lit, carry: Lit) {
    clauses.push(vec![-a, -b, -sum]);
    clauses.push(vec![a, b, -sum]);
    clauses.push(vec![-a, b, sum]);
    clauses.push(vec![a, -b, sum]);
    clauses.push(vec![-a, -b, carry]);
    clauses.push(vec![a, -carry]);
    clauses.push(vec![b, -carry]);
}

/// The violation literal of each soft clause of `wcnf` (see the module doc), with the
/// hard clauses that define the fresh ones, numbering new variables from `*next_var`.
pub fn violation_literals(wcnf: &Wcnf, next_var: &mut u32) -> (Vec<Lit>, Vec<Vec<Lit>>) {
    let mut lits = Vec::with_capacity(wcnf.soft.len());
    let mut clauses = Vec::new();
    for (_, clause) in &wcnf.soft {
        if let [only] = clause[..] {
            lits.push(-only);
        } else {
            *next_var += 1;
            let r = *next_var as Lit;
            let mut relaxed = clause.clone();
            relaxed.push(r);
            clauses.push(relaxed);
            lits.push(r);
        }
    }
    (lits, clauses)
}

/// The CNF stating "a model of `wcnf`'s hard clauses costs at most `bound`": the hard
/// clauses, the relaxation and adder clauses, and [`CostAdder::at_most`], in that
/// order. Deterministic, so a checker rebuilds it from the score table and compares.
pub fn bounded_cost_cnf(wcnf: &Wcnf, bound: u64) -> (u32, Vec<Vec<Lit>>) {
    let mut next_var = wcnf.num_vars;
    let (violated, relax) = violation_literals(wcnf, &mut next_var);
    let adder = CostAdder::build(wcnf, &violated, &mut next_var);
    let mut clauses = wcnf.hard.clone();
    clauses.extend(relax);
    clauses.extend(adder.clauses.iter().cloned());
    clauses.extend(adder.at_most(bound));
    (next_var, clauses)
}
