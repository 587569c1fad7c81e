//! Plain structure learning as weighted MaxSAT (the encoding Berg, Järvisalo & Malone
//! 2014 build on; SPEC C7).
//!
//! Variables:
//! - `x(v, i)`: node `v` takes its `i`-th candidate parent set (one per candidate, in
//!   table order, numbered first);
//! - `o(u, w)` for `u < w`: `u` comes before `w` in a total order of the nodes;
//! - the auxiliary variables of the at-most-one constraints.
//!
//! Hard clauses:
//! - at least one candidate per node: `x(v, 1) ∨ … ∨ x(v, m)`;
//! - at most one, by Sinz's sequential counter (`m − 1` auxiliaries `s_j` meaning "one of
//!   the first `j` is chosen"): `¬x_j ∨ s_j`, `¬s_{j−1} ∨ s_j`, `¬x_j ∨ ¬s_{j−1}`;
//! - parents first: `¬x(v, i) ∨ before(u, v)` for each parent `u` of the candidate, where
//!   `before(u, v)` is `o(u, v)` or `¬o(v, u)`;
//! - the order is transitive: no directed triangle, `¬before(a, b) ∨ ¬before(b, c) ∨
//!   ¬before(c, a)` and the reverse, for every triple (a tournament without directed
//!   triangles is a total order).
//!
//! So the hard clauses hold exactly for the DAGs made of candidates (with a topological
//! order). A candidate's weight is `round((best(v) − score(v, i)) · 10^d)`, where
//! `best(v)` is the best score of `v`'s candidates. Soft clauses: `¬x(v, i)` with that
//! weight, for every candidate of positive weight, so a network costs the sum of its
//! candidates' weights: `Σ best − score` scaled, up to the rounding of each weight by at
//! most `0.5 · 10^−d`. The MaxSAT optimum is thus a DAG within `n · 0.5 · 10^−d` of the
//! optimal score, and its score is always recomputed from the table, never read off the
//! cost. `d` is the largest of `0..=9` for which the sum of each node's largest weight
//! stays below 2^53.

use super::{Lit, Wcnf};
use crate::{Dag, ScoreTable, VarSet};

/// The most decimal digits the weights keep.
pub const MAX_DIGITS: u32 = 9;

/// The encoding of a table (see the module doc).
#[derive(Clone, Debug, PartialEq)]
pub struct BnslEncoding {
    /// The formula.
    pub wcnf: Wcnf,
    /// The variable of each node's candidates, in table order.
    pub family_vars: Vec<Vec<Lit>>,
    /// The variables `o(u, w)`.
    order: Order,
    /// The counter variables `s_j` of each node's at-most-one constraint.
    counters: Vec<Vec<Lit>>,
    /// Weights are costs times `10^digits`, rounded.
    pub digits: u32,
    /// The sum of each node's best score: a network scores about `offset − cost ·
    /// 10^−digits`.
    pub offset: f64,
}

/// The meaning of the family variables of an encoding: enough to read an answer back
/// into a network without the score table.
#[derive(Clone, Debug, PartialEq)]
pub struct FamilyMap {
    /// Node names by index.
    pub names: Vec<String>,
    /// Every candidate parent set.
    pub families: Vec<MappedFamily>,
}

/// One candidate parent set of a [`FamilyMap`].
#[derive(Clone, Debug, PartialEq)]
pub struct MappedFamily {
    /// Its variable.
    pub var: Lit,
    /// The child, by index.
    pub node: usize,
    /// Its local score.
    pub score: f64,
    /// The parents, by index.
    pub parents: Vec<usize>,
}

/// Why an assignment is not a network of the encoding.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DecodeError {
    /// A node has no candidate set true.
    #[error("node {0} takes no parent set")]
    NoFamily(String),
    /// A node has several candidates set true.
    #[error("node {0} takes more than one parent set")]
    SeveralFamilies(String),
    /// The chosen families make a cycle.
    #[error("the chosen parent sets make a directed cycle")]
    Cyclic,
}

/// Encodes `table` (see the module doc).
pub fn encode_bnsl(table: &ScoreTable) -> BnslEncoding {
    let n = table.n();
    let mut wcnf = Wcnf::default();
    let family_vars: Vec<Vec<Lit>> = (0..n)
        .map(|v| table.candidates(v).iter().map(|_| wcnf.new_var()).collect())
        .collect();
    let order = Order::new(&mut wcnf, n);
    let mut encoding = BnslEncoding {
        wcnf,
        family_vars,
        order,
        counters: vec![Vec::new(); n],
        digits: 0,
        offset: 0.0,
    };
    for v in 0..n {
        encoding.exactly_one(v);
        encoding.parents_first(table, v);
    }
    encoding.order.transitive(&mut encoding.wcnf);
    encoding.costs(table);
    encoding
}

impl BnslEncoding {
    fn n(&self) -> usize {
        self.family_vars.len()
    }

    /// The literal "`a` comes before `b`".
    pub fn before(&self, a: usize, b: usize) -> Lit {
        self.order.before(a, b)
    }

    fn exactly_one(&mut self, v: usize) {
        let xs = self.family_vars[v].clone();
        self.wcnf.hard.push(xs.clone());
        let mut previous: Option<Lit> = None;
        for (j, &x) in xs.iter().enumerate() {
            let last = j + 1 == xs.len();
            if let Some(s) = previous {
                self.wcnf.hard.push(vec![-x, -s]);
            }
            if !last {
                let s = self.wcnf.new_var();
                self.counters[v].push(s);
                self.wcnf.hard.push(vec![-x, s]);
                if let Some(p) = previous {
                    self.wcnf.hard.push(vec![-p, s]);
                }
                previous = Some(s);
            }
        }
    }

    fn parents_first(&mut self, table: &ScoreTable, v: usize) {
        for (i, c) in table.candidates(v).iter().enumerate() {
            let x = self.family_vars[v][i];
            for u in c.parents.iter() {
                let clause = vec![-x, self.before(u, v)];
                self.wcnf.hard.push(clause);
            }
        }
    }

    fn costs(&mut self, table: &ScoreTable) {
        let n = table.n();
        let best: Vec<f64> = (0..n)
            .map(|v| {
                table
                    .candidates(v)
                    .iter()
                    .map(|c| c.score)
                    .fold(f64::NEG_INFINITY, f64::max)
            })
            .collect();
        let widest: f64 = (0..n)
            .map(|v| {
                table
                    .candidates(v)
                    .iter()
                    .map(|c| best[v] - c.score)
                    .fold(0.0, f64::max)
            })
            .sum();
        self.digits = (0..=MAX_DIGITS)
            .rev()
            .find(|&d| widest * 10f64.powi(d as i32) < 2f64.powi(53))
            .unwrap_or(0);
        let scale = 10f64.powi(self.digits as i32);
        self.offset = best.iter().sum();
        for (v, top) in best.iter().enumerate() {
            for (c, &x) in table.candidates(v).iter().zip(&self.family_vars[v]) {
                let weight = ((top - c.score) * scale).round() as u64;
                if weight > 0 {
                    self.wcnf.soft.push((weight, vec![-x]));
                }
            }
        }
    }

    /// The assignment of a DAG made of candidates (`None` if one of its parent sets is
    /// not a candidate or it has a cycle): its families, a topological order, and the
    /// counters. Index 0 is unused.
    pub fn assignment(&self, table: &ScoreTable, dag: &Dag) -> Option<Vec<bool>> {
        let n = self.n();
        let order = dag.topological_order().ok()?;
        let mut position = vec![0; n];
        for (p, &v) in order.iter().enumerate() {
            position[v] = p;
        }
        let mut value = vec![false; self.wcnf.num_vars as usize + 1];
        for v in 0..n {
            let chosen = table
                .candidates(v)
                .iter()
                .position(|c| c.parents == *dag.parents(v))?;
            self.set_family(&mut value, v, chosen);
        }
        for a in 0..n {
            for b in a + 1..n {
                value[self.before(a, b) as usize] = position[a] < position[b];
            }
        }
        Some(value)
    }

    /// Sets node `v`'s choice of its `i`-th candidate in `value`, with the counters of
    /// its at-most-one constraint.
    pub(crate) fn set_family(&self, value: &mut [bool], v: usize, i: usize) {
        for (j, &x) in self.family_vars[v].iter().enumerate() {
            value[x as usize] = j == i;
        }
        for (j, &s) in self.counters[v].iter().enumerate() {
            value[s as usize] = i <= j;
        }
    }

    /// The family map of the encoding of `table`.
    pub fn family_map(&self, table: &ScoreTable) -> FamilyMap {
        let families = self
            .family_vars
            .iter()
            .enumerate()
            .flat_map(|(v, vars)| {
                vars.iter()
                    .zip(table.candidates(v))
                    .map(move |(&var, c)| MappedFamily {
                        var,
                        node: v,
                        score: c.score,
                        parents: c.parents.to_vec(),
                    })
            })
            .collect();
        FamilyMap {
            names: table.names().to_vec(),
            families,
        }
    }
}

impl FamilyMap {
    /// The network of an assignment (`value[v]` for variable `v`, index 0 unused;
    /// variables beyond it are false): each node's one true family, checked for cycles
    /// (the order variables are not read), and its score summed in node order.
    pub fn decode(&self, value: &[bool]) -> Result<(Dag, f64), DecodeError> {
        self.decode_with(|v| value.get(v).copied().unwrap_or(false))
    }

    /// [`decode`](Self::decode) with the value of variable `v` given by `value(v)` (a
    /// [`Solution`](super::wcnf_format::Solution) read from a solver's answer, say).
    pub fn decode_with(&self, value: impl Fn(usize) -> bool) -> Result<(Dag, f64), DecodeError> {
        let n = self.names.len();
        let mut chosen: Vec<Option<&MappedFamily>> = vec![None; n];
        for f in &self.families {
            if value(f.var as usize) {
                if chosen[f.node].is_some() {
                    return Err(DecodeError::SeveralFamilies(self.names[f.node].clone()));
                }
                chosen[f.node] = Some(f);
            }
        }
        let mut parents = Vec::with_capacity(n);
        let mut score = 0.0;
        for (v, f) in chosen.iter().enumerate() {
            let f = f.ok_or_else(|| DecodeError::NoFamily(self.names[v].clone()))?;
            parents.push(VarSet::from_members(n, f.parents.iter().copied()));
            score += f.score;
        }
        let dag = Dag::from_parents(parents);
        if !dag.is_acyclic() {
            return Err(DecodeError::Cyclic);
        }
        Ok((dag, score))
    }
}

/// A total order of `n` nodes: one variable per pair `u < w`, "`u` before `w`".
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Order {
    n: usize,
    vars: Vec<Lit>,
}

impl Order {
    pub(crate) fn new(wcnf: &mut Wcnf, n: usize) -> Self {
        let vars = (0..n * n.saturating_sub(1) / 2)
            .map(|_| wcnf.new_var())
            .collect();
        Order { n, vars }
    }

    /// "`a` before `b`".
    pub(crate) fn before(&self, a: usize, b: usize) -> Lit {
        let (u, w, sign) = if a < b { (a, b, 1) } else { (b, a, -1) };
        sign * self.vars[u * (2 * self.n - u - 1) / 2 + (w - u - 1)]
    }

    /// No directed triangle, in either direction.
    pub(crate) fn transitive(&self, wcnf: &mut Wcnf) {
        for a in 0..self.n {
            for b in a + 1..self.n {
                for c in b + 1..self.n {
                    wcnf.hard.push(vec![
                        -self.before(a, b),
                        -self.before(b, c),
                        -self.before(c, a),
                    ]);
                    wcnf.hard.push(vec![
                        -self.before(a, c),
                        -self.before(c, b),
                        -self.before(b, a),
                    ]);
                }
            }
        }
    }
}
