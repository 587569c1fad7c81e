//! Bounded-treewidth structure learning as weighted MaxSAT (Berg, Järvisalo & Malone,
//! "Learning optimal bounded treewidth Bayesian networks via maximum satisfiability",
//! AISTATS 2014): the plain encoding ([`super::bnsl`]) plus an elimination ordering of
//! the moral graph whose filled graph gives every node at most `W` higher neighbours.
//!
//! Variables added:
//! - `e(i, j)` for `i < j`: `i` is eliminated before `j`;
//! - `a(i, j)` for `i ≠ j`: `i` and `j` are adjacent in the filled moral graph and `i` is
//!   eliminated first (`j` is a higher neighbour of `i`);
//! - the counters of each node's at-most-`W` constraint.
//!
//! Hard clauses added:
//! - the elimination order is transitive (no directed triangle, as for the DAG's order);
//! - `a(i, j) → e(i, j)` (with `e(j, i)` read as `¬e(i, j)`);
//! - moral edges: a candidate `x(v, S)` implies `a(u, v) ∨ a(v, u)` for each parent `u`
//!   and `a(u, w) ∨ a(w, u)` for each pair of parents (the parents are married);
//! - fill-in: `a(i, j) ∧ a(i, k) → a(j, k) ∨ a(k, j)` for `j < k`: when `i` is
//!   eliminated, its higher neighbours become a clique;
//! - at most `W` higher neighbours per node: `Σ_j a(i, j) ≤ W`, by Sinz's sequential
//!   counter (`W` counters per input, `s(k, c)` meaning "at least `c` of the first `k`
//!   inputs").
//!
//! A satisfying assignment's arcs are a chordal supergraph of the moral graph whose
//! cliques have at most `W + 1` nodes, so the DAG has treewidth at most `W`; conversely
//! a DAG of treewidth at most `W` has an elimination order of its moral graph with at
//! most `W` higher neighbours per node, which sets every variable. Candidates of more
//! than `W` parents must be dropped first (a family is a clique of the moral graph);
//! [`encode_bounded_treewidth`] refuses a table that has them.

use super::bnsl::{encode_bnsl, BnslEncoding, Order};
use super::{Lit, Wcnf};
use crate::ScoreTable;

/// A table with a candidate of more than `W` parents.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{node} has a candidate parent set of {parents} parents, more than the treewidth bound {width} allows")]
pub struct TooManyParents {
    /// The child.
    pub node: String,
    /// Its parents' count.
    pub parents: usize,
    /// The bound.
    pub width: usize,
}

/// Encodes `table` with treewidth at most `width` (see the module doc).
pub fn encode_bounded_treewidth(
    table: &ScoreTable,
    width: usize,
) -> Result<BnslEncoding, TooManyParents> {
    let n = table.n();
    for v in 0..n {
        if let Some(c) = table.candidates(v).iter().find(|c| c.parents.len() > width) {
            return Err(TooManyParents {
                node: table.names()[v].clone(),
                parents: c.parents.len(),
                width,
            });
        }
    }
    let mut encoding = encode_bnsl(table);
    let family_vars = encoding.family_vars.clone();
    let wcnf = &mut encoding.wcnf;
    let order = Order::new(wcnf, n);
    order.transitive(wcnf);
    let arcs: Vec<Vec<Lit>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| if i == j { 0 } else { wcnf.new_var() })
                .collect()
        })
        .collect();
    let arc = |i: usize, j: usize| arcs[i][j];
    let edge = |u: usize, w: usize| vec![arc(u, w), arc(w, u)];
    for i in 0..n {
        for j in (0..n).filter(|&j| j != i) {
            wcnf.hard.push(vec![-arc(i, j), order.before(i, j)]);
        }
    }
    for (v, vars) in family_vars.iter().enumerate() {
        for (c, &x) in table.candidates(v).iter().zip(vars) {
            let parents: Vec<usize> = c.parents.iter().collect();
            for (k, &u) in parents.iter().enumerate() {
                wcnf.hard.push([vec![-x], edge(u, v)].concat());
                for &w in &parents[k + 1..] {
                    wcnf.hard.push([vec![-x], edge(u, w)].concat());
                }
            }
        }
    }
    for i in 0..n {
        for j in 0..n {
            for k in j + 1..n {
                if i != j && i != k {
                    let fill = [vec![-arc(i, j), -arc(i, k)], edge(j, k)].concat();
                    wcnf.hard.push(fill);
                }
            }
        }
        let higher: Vec<Lit> = (0..n).filter(|&j| j != i).map(|j| arc(i, j)).collect();
        at_most(wcnf, &higher, width);
    }
    Ok(encoding)
}

/// `Σ inputs ≤ bound` by Sinz's sequential counter.
fn at_most(wcnf: &mut Wcnf, inputs: &[Lit], bound: usize) {
    if inputs.len() <= bound {
        return;
    }
    if bound == 0 {
        for &x in inputs {
            wcnf.hard.push(vec![-x]);
        }
        return;
    }
    // counters[k][c]: at least c + 1 of inputs[..=k] are true.
    let mut previous: Vec<Lit> = Vec::new();
    for (k, &x) in inputs.iter().enumerate() {
        let last = k + 1 == inputs.len();
        if !previous.is_empty() {
            // Overflow: bound true before, and x true.
            wcnf.hard.push(vec![-x, -previous[bound - 1]]);
        }
        if last {
            break;
        }
        let current: Vec<Lit> = (0..bound).map(|_| wcnf.new_var()).collect();
        wcnf.hard.push(vec![-x, current[0]]);
        for (c, &count) in current.iter().enumerate() {
            if let Some(&p) = previous.get(c) {
                wcnf.hard.push(vec![-p, count]);
            }
            if c > 0 {
                if let Some(&p) = previous.get(c - 1) {
                    wcnf.hard.push(vec![-x, -p, count]);
                }
            }
        }
        previous = current;
    }
}
