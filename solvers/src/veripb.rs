//! A checker of pseudo-Boolean proofs in VeriPB's format (version 1.2; Gocht &
//! Nordström 2021, *Certifying Parity Reasoning Efficiently Using Pseudo-Boolean
//! Proofs*, AAAI, §2, and VeriPB's documentation): the cutting-planes rules that bnsl's
//! proofs of optimality use, checked in exact integer arithmetic.
//!
//! The formula is an OPB file of `≥` constraints over variables `x1, x2, …`. The proof
//! starts with `pseudo-Boolean proof version 1.2`; then, one per line:
//! - `f N`: load the formula's `N` constraints (ids `1..=N`);
//! - `rup C ;`: add `C` if unit propagation on the constraints so far and the negation
//!   of `C` reaches a conflict (reverse unit propagation);
//! - `pol …`: add the constraint computed in reverse Polish notation from constraint ids,
//!   literal axioms (`x3`, `~x3`: the literal is at least 0), `+` (addition), `k *`
//!   (multiplication by a positive integer), `k d` (division, rounding up), `s`
//!   (saturation) and `x3 w` (weakening: the variable dropped);
//! - `del id ID…`: the constraints no longer propagate nor may be used (what they
//!   propagated on their own stays assigned: it follows from the formula all the same);
//! - `c ID`: constraint `ID` is a contradiction (the sum of its coefficients is below its
//!   degree); the proof is accepted once one is.
//!
//! Lines starting with `*` are comments. Every derived constraint gets the next id.
//! Constraints are kept normalised: positive coefficients on literals, one literal per
//! variable, and a degree; sums that leave 128-bit integers are rejected.

/// A literal: variable `|l|` (from 1), negated when `l < 0`.
type Lit = i64;

/// A normalised constraint `Σ a_i · l_i ≥ degree`, every `a_i > 0`, one literal per
/// variable.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Constraint {
    terms: Vec<(Lit, i128)>,
    degree: i128,
}

/// What a checked proof held.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VeripbSummary {
    /// Constraints of the formula.
    pub formula: usize,
    /// Constraints added by reverse unit propagation.
    pub rup: usize,
    /// Constraints added by cutting-planes steps (`pol`).
    pub pol: usize,
}

/// Why a formula or proof was rejected.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum VeripbError {
    /// The OPB formula is not in the form this checker reads.
    #[error("formula line {line}: {why}")]
    Formula {
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// A proof line is malformed or its step does not follow.
    #[error("proof line {line}: {why}")]
    Step {
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// The proof ended without a contradiction.
    #[error("the proof ends without deriving a contradiction (no accepted `c` step)")]
    NoContradiction,
}

impl Constraint {
    fn sum_of_coefficients(&self) -> Option<i128> {
        self.terms
            .iter()
            .try_fold(0i128, |s, &(_, a)| s.checked_add(a))
    }

    /// The sum of two constraints, normalised.
    fn plus(&self, other: &Constraint) -> Option<Constraint> {
        let mut sum = Constraint {
            terms: Vec::with_capacity(self.terms.len() + other.terms.len()),
            degree: self.degree.checked_add(other.degree)?,
        };
        let (mut a, mut b) = (self.terms.iter().peekable(), other.terms.iter().peekable());
        loop {
            let next = match (a.peek(), b.peek()) {
                (Some(ta), Some(tb)) if ta.0.abs() <= tb.0.abs() => a.next(),
                (Some(_), Some(_)) | (None, Some(_)) => b.next(),
                (Some(_), None) => a.next(),
                (None, None) => return Some(sum),
            };
            let &(l, c) = next.expect("a term was peeked");
            sum.push_term(l, c)?;
        }
    }

    /// Appends `c · l` to terms sorted by variable, merging it with the last term when
    /// that is on the same variable (`a · l + b · ¬l = (a − b) · l + b`).
    fn push_term(&mut self, l: Lit, c: i128) -> Option<()> {
        match self.terms.last_mut() {
            _ if c == 0 => {}
            Some(last) if last.0 == l => last.1 = last.1.checked_add(c)?,
            Some(last) if last.0 == -l => {
                self.degree = self.degree.checked_sub(last.1.min(c))?;
                match last.1.cmp(&c) {
                    std::cmp::Ordering::Greater => last.1 -= c,
                    std::cmp::Ordering::Less => *last = (l, c - last.1),
                    std::cmp::Ordering::Equal => {
                        self.terms.pop();
                    }
                }
            }
            _ => self.terms.push((l, c)),
        }
        Some(())
    }

    fn is_contradiction(&self) -> bool {
        self.sum_of_coefficients().is_some_and(|s| s < self.degree)
    }

    /// `¬C`: `Σ a · ¬l ≥ Σ a − degree + 1`.
    fn negation(&self) -> Option<Constraint> {
        let total = self.sum_of_coefficients()?;
        Some(Constraint {
            terms: self.terms.iter().map(|&(l, a)| (-l, a)).collect(),
            degree: total.checked_sub(self.degree)?.checked_add(1)?,
        })
    }

    fn scaled(&self, k: i128) -> Option<Constraint> {
        Some(Constraint {
            terms: self
                .terms
                .iter()
                .map(|&(l, a)| Some((l, a.checked_mul(k)?)))
                .collect::<Option<_>>()?,
            degree: self.degree.checked_mul(k)?,
        })
    }

    fn divided(&self, k: i128) -> Constraint {
        let up = |a: i128| a.div_euclid(k) + i128::from(a.rem_euclid(k) != 0);
        Constraint {
            terms: self.terms.iter().map(|&(l, a)| (l, up(a))).collect(),
            degree: up(self.degree),
        }
    }

    fn saturated(&self) -> Constraint {
        let cap = self.degree.max(0);
        Constraint {
            terms: self
                .terms
                .iter()
                .map(|&(l, a)| (l, a.min(cap)))
                .filter(|&(_, a)| a > 0)
                .collect(),
            degree: self.degree,
        }
    }

    /// Drops variable `x` (adding its literal's axiom): the degree falls by its
    /// coefficient.
    fn weakened(&self, x: i64) -> Option<Constraint> {
        let mut degree = self.degree;
        let mut terms = Vec::with_capacity(self.terms.len());
        for &(l, a) in &self.terms {
            if l.abs() == x {
                degree = degree.checked_sub(a)?;
            } else {
                terms.push((l, a));
            }
        }
        Some(Constraint { terms, degree })
    }
}

/// Parses `a1 l1 a2 l2 … >= d ;` (the words after any rule name).
fn parse_constraint(words: &[&str]) -> Result<Constraint, String> {
    let Some(ge) = words.iter().position(|&w| w == ">=") else {
        return Err("expected a constraint `a1 l1 … >= d ;` (only `>=` is read)".into());
    };
    if words.get(ge + 2) != Some(&";") || words.len() != ge + 3 {
        return Err("a constraint ends with `>= DEGREE ;`".into());
    }
    let degree: i128 = words[ge + 1]
        .parse()
        .map_err(|_| format!("`{}` is not an integer degree", words[ge + 1]))?;
    if ge % 2 != 0 {
        return Err("coefficients and literals must come in pairs".into());
    }
    // `a · l` with `a < 0` is `|a| · ¬l − |a|`.
    let mut terms = Vec::with_capacity(ge / 2);
    let mut constant: i128 = 0;
    for pair in words[..ge].chunks(2) {
        let a: i128 = pair[0]
            .parse()
            .map_err(|_| format!("`{}` is not an integer coefficient", pair[0]))?;
        let lit = parse_literal(pair[1])?;
        if a >= 0 {
            terms.push((lit, a));
        } else {
            terms.push((
                -lit,
                a.checked_neg().ok_or("a coefficient is out of range")?,
            ));
            constant = constant
                .checked_add(a)
                .ok_or("a coefficient is out of range")?;
        }
    }
    terms.sort_by_key(|&(l, _)| l.abs());
    let mut c = Constraint {
        terms: Vec::with_capacity(terms.len()),
        degree: degree
            .checked_sub(constant)
            .ok_or("the degree is out of range")?,
    };
    for (l, a) in terms {
        c.push_term(l, a).ok_or("a coefficient is out of range")?;
    }
    Ok(c)
}

fn parse_literal(word: &str) -> Result<Lit, String> {
    let (negated, name) = match word.strip_prefix('~') {
        Some(rest) => (true, rest),
        None => (false, word),
    };
    let var: i64 = name
        .strip_prefix('x')
        .and_then(|n| n.parse().ok())
        .filter(|&v| v > 0 && v < i64::from(i32::MAX))
        .ok_or_else(|| format!("`{word}` is not a literal `xN` or `~xN`"))?;
    Ok(if negated { -var } else { var })
}

/// The constraint database with unit propagation for reverse-unit-propagation checks
/// (counter-based: each constraint's slack, the sum of its coefficients on literals not
/// false minus its degree). What the constraints propagate on their own stays assigned
/// (the root trail); a check propagates from there and is undone back to it.
#[derive(Default)]
struct Database {
    constraints: Vec<Constraint>,
    /// For literal `l` (at [`slot`]), the constraints that contain it, with its
    /// coefficient.
    occurrences: Vec<Vec<(usize, i128)>>,
    /// Slack under the current assignment.
    slack: Vec<i128>,
    max_coef: Vec<i128>,
    /// Per variable: 0 unassigned, 1 true, -1 false.
    value: Vec<i8>,
    /// The assigned literals, in order.
    trail: Vec<Lit>,
    /// The constraints alone propagate to a conflict: every constraint follows.
    inconsistent: bool,
    /// Constraints removed by `del`: they no longer propagate.
    deleted: Vec<bool>,
}

/// Index of literal `l` in [`Database::occurrences`].
fn slot(l: Lit) -> usize {
    2 * l.unsigned_abs() as usize + usize::from(l < 0)
}

impl Database {
    /// Adds `c` for good, with what it propagates.
    fn add(&mut self, c: Constraint) -> Option<usize> {
        let id = self.push(c)?;
        if !self.inconsistent && self.propagate_from(id) {
            self.inconsistent = true;
        }
        Some(id)
    }

    fn push(&mut self, c: Constraint) -> Option<usize> {
        let id = self.constraints.len();
        let mut slack = c.degree.checked_neg()?;
        let max_coef = c.terms.iter().map(|&(_, a)| a).max().unwrap_or(0);
        for &(l, a) in &c.terms {
            let k = slot(l);
            if self.occurrences.len() <= k + 1 {
                self.occurrences.resize(k + 2, Vec::new());
                self.value.resize(k / 2 + 1, 0);
            }
            self.occurrences[k].push((id, a));
            if !self.is_false(l) {
                slack = slack.checked_add(a)?;
            }
        }
        self.slack.push(slack);
        self.max_coef.push(max_coef);
        self.deleted.push(false);
        self.constraints.push(c);
        Some(id)
    }

    /// Removes the last constraint pushed (with nothing it propagated left assigned).
    fn pop(&mut self) {
        let c = self.constraints.pop().expect("a constraint to pop");
        for &(l, _) in &c.terms {
            self.occurrences[slot(l)].pop();
        }
        self.slack.pop();
        self.max_coef.pop();
        self.deleted.pop();
    }

    /// Takes constraints out of propagation (between checks, at the root trail).
    fn delete(&mut self, ids: &[usize]) {
        for &id in ids {
            self.deleted[id] = true;
            for k in 0..self.constraints[id].terms.len() {
                let l = self.constraints[id].terms[k].0;
                self.occurrences[slot(l)].retain(|(other, _)| !ids.contains(other));
            }
        }
    }

    fn is_false(&self, l: Lit) -> bool {
        let v = self.value[l.unsigned_abs() as usize];
        v != 0 && (v > 0) != (l > 0)
    }

    /// Queues the unassigned literals of constraint `id` that its slack forces; whether
    /// it is falsified.
    fn scan(&self, id: usize, queue: &mut Vec<Lit>) -> bool {
        let slack = self.slack[id];
        if slack < 0 {
            return true;
        }
        for &(l, a) in &self.constraints[id].terms {
            if a > slack && self.value[l.unsigned_abs() as usize] == 0 {
                queue.push(l);
            }
        }
        false
    }

    /// Propagates what constraint `id` forces, to a fixpoint; whether that conflicts.
    /// The assignments stay on the trail.
    fn propagate_from(&mut self, id: usize) -> bool {
        let mut queue: Vec<Lit> = Vec::new();
        if self.slack[id] >= self.max_coef[id] {
            return false;
        }
        let mut conflict = self.scan(id, &mut queue);
        let mut head = 0;
        while !conflict && head < queue.len() {
            let l = queue[head];
            head += 1;
            match self.value[l.unsigned_abs() as usize] {
                0 => {}
                v if (v > 0) == (l > 0) => continue,
                _ => return true,
            }
            self.value[l.unsigned_abs() as usize] = if l > 0 { 1 } else { -1 };
            self.trail.push(l);
            let falsified = slot(-l);
            for k in 0..self.occurrences[falsified].len() {
                let (id, a) = self.occurrences[falsified][k];
                self.slack[id] -= a;
                if self.slack[id] < self.max_coef[id] && self.scan(id, &mut queue) {
                    conflict = true;
                }
            }
        }
        conflict
    }

    /// Unassigns the trail back to `len` literals.
    fn undo_to(&mut self, len: usize) {
        while self.trail.len() > len {
            let l = self.trail.pop().expect("a literal");
            self.value[l.unsigned_abs() as usize] = 0;
            for k in 0..self.occurrences[slot(-l)].len() {
                let (id, a) = self.occurrences[slot(-l)][k];
                self.slack[id] += a;
            }
        }
    }

    /// Whether adding `c` makes unit propagation conflict; the database is as before
    /// afterwards.
    fn conflicts_with(&mut self, c: Constraint) -> Option<bool> {
        if self.inconsistent {
            return Some(true);
        }
        let root = self.trail.len();
        let id = self.push(c)?;
        let conflict = self.propagate_from(id);
        self.undo_to(root);
        self.pop();
        Some(conflict)
    }
}

/// Checks `proof` (VeriPB 1.2, the rules in the module doc) against the OPB `formula`.
pub fn check_veripb(formula: &str, proof: &str) -> Result<VeripbSummary, VeripbError> {
    let mut axioms = parse_formula(formula)?;
    let mut db = Database::default();
    let mut summary = VeripbSummary {
        formula: axioms.len(),
        ..VeripbSummary::default()
    };
    let mut loaded = false;
    let mut lines = proof.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
    match lines.next() {
        Some((_, "pseudo-Boolean proof version 1.2")) => {}
        _ => {
            return Err(VeripbError::Step {
                line: 1,
                why: "expected `pseudo-Boolean proof version 1.2`".into(),
            })
        }
    }
    for (line, text) in lines {
        let step = |why: String| VeripbError::Step { line, why };
        let words: Vec<&str> = text.split_whitespace().collect();
        let Some((&rule, rest)) = words.split_first() else {
            continue;
        };
        if rule.starts_with('*') {
            continue;
        }
        if !loaded && rule != "f" {
            return Err(step("the formula must be loaded (`f N`) first".into()));
        }
        match rule {
            "f" if !loaded => {
                let n: usize = rest
                    .first()
                    .and_then(|w| w.parse().ok())
                    .ok_or_else(|| step("expected `f N`".into()))?;
                if n != axioms.len() {
                    return Err(step(format!(
                        "`f {n}`, but the formula has {} constraints",
                        axioms.len()
                    )));
                }
                for c in std::mem::take(&mut axioms) {
                    db.add(c)
                        .ok_or_else(|| step("a formula constraint is out of range".into()))?;
                }
                loaded = true;
            }
            "rup" => {
                let c = parse_constraint(rest).map_err(step)?;
                rup(&mut db, &c).map_err(step)?;
                db.add(c).ok_or_else(|| step("out of range".into()))?;
                summary.rup += 1;
            }
            "pol" => {
                let c = polish(&db, rest).map_err(step)?;
                db.add(c).ok_or_else(|| step("out of range".into()))?;
                summary.pol += 1;
            }
            "del" => {
                if rest.first() != Some(&"id") {
                    return Err(step("only `del id ID…` is read".into()));
                }
                let ids = rest[1..]
                    .iter()
                    .map(|word| constraint_id(&db, word))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(step)?;
                db.delete(&ids);
            }
            "c" => {
                let id = constraint_id(&db, rest.first().copied().unwrap_or("")).map_err(step)?;
                if !db.constraints[id].is_contradiction() {
                    return Err(step(format!(
                        "constraint {} is not a contradiction",
                        id + 1
                    )));
                }
                return Ok(summary);
            }
            _ => return Err(step(format!("`{rule}` is not a rule this checker reads"))),
        }
    }
    Err(VeripbError::NoContradiction)
}

fn parse_formula(text: &str) -> Result<Vec<Constraint>, VeripbError> {
    let mut constraints = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('*') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let c =
            parse_constraint(&words).map_err(|why| VeripbError::Formula { line: i + 1, why })?;
        constraints.push(c);
    }
    Ok(constraints)
}

fn constraint_id(db: &Database, word: &str) -> Result<usize, String> {
    word.parse::<usize>()
        .ok()
        .filter(|&id| id >= 1 && id <= db.constraints.len() && !db.deleted[id - 1])
        .map(|id| id - 1)
        .ok_or_else(|| format!("`{word}` is not the id of a constraint so far (or it was deleted)"))
}

fn rup(db: &mut Database, c: &Constraint) -> Result<(), String> {
    if c.degree <= 0 {
        return Ok(());
    }
    let negation = c.negation().ok_or("out of range")?;
    if db.conflicts_with(negation).ok_or("out of range")? {
        Ok(())
    } else {
        Err("unit propagation does not refute its negation".into())
    }
}

/// Evaluates a `pol` sequence.
fn polish(db: &Database, words: &[&str]) -> Result<Constraint, String> {
    let range = || "a coefficient left the range of 128-bit integers".to_string();
    let mut stack: Vec<Constraint> = Vec::new();
    let words: Vec<&str> = words.iter().copied().take_while(|&w| w != ";").collect();
    let mut k = 0;
    while k < words.len() {
        let word = words[k];
        let next = words.get(k + 1).copied();
        if matches!(next, Some("*") | Some("d")) {
            let factor: i128 = word
                .parse()
                .ok()
                .filter(|&f| f > 0)
                .ok_or_else(|| format!("`{word}` is not a positive factor"))?;
            let top = stack.pop().ok_or("an operator lacks its constraint")?;
            stack.push(if next == Some("*") {
                top.scaled(factor).ok_or_else(range)?
            } else {
                top.divided(factor)
            });
            k += 2;
            continue;
        }
        if next == Some("w") {
            let lit = parse_literal(word)?;
            if lit < 0 {
                return Err("weakening takes a variable, not a negated literal".into());
            }
            let top = stack.pop().ok_or("an operator lacks its constraint")?;
            stack.push(top.weakened(lit).ok_or_else(range)?);
            k += 2;
            continue;
        }
        match word {
            "+" => {
                let b = stack.pop().ok_or("`+` needs two constraints")?;
                let a = stack.pop().ok_or("`+` needs two constraints")?;
                stack.push(a.plus(&b).ok_or_else(range)?);
            }
            "s" => {
                let top = stack.pop().ok_or("`s` needs a constraint")?;
                stack.push(top.saturated());
            }
            "0" if k + 1 == words.len() => {}
            _ if word.starts_with('x') || word.starts_with('~') => {
                stack.push(Constraint {
                    terms: vec![(parse_literal(word)?, 1)],
                    degree: 0,
                });
            }
            _ => stack.push(db.constraints[constraint_id(db, word)?].clone()),
        }
        k += 1;
    }
    match stack.len() {
        1 => Ok(stack.pop().expect("one constraint")),
        _ => Err(format!(
            "the sequence leaves {} constraints, not one",
            stack.len()
        )),
    }
}

#[cfg(test)]
mod tests;
