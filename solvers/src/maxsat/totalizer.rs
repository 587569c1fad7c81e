//! The incremental totalizer (Bailleux & Boufkhad 2003; made incremental by Martins et
//! al. 2014): unary counters over a set of literals, built in a binary tree whose leaves
//! are the inputs; output `k` of a node is implied true when at least `k` of its inputs
//! are. Outputs are created only up to the bound asked for so far, and
//! [`Totalizer::output`] extends every node when a larger one is needed. Only the
//! "at least" direction is encoded: it is all a minimisation needs, since a solver never
//! gains by setting an output without cause.

use super::oracle::Oracle;
use bnsl_formulations::maxsat::Lit;

/// A node of the tree: `outputs[k − 1]` means "at least `k` of my inputs are true".
struct Node {
    outputs: Vec<Lit>,
    inputs: usize,
    children: Option<(usize, usize)>,
}

/// A totalizer over some literals.
pub(crate) struct Totalizer {
    nodes: Vec<Node>,
    root: usize,
    /// Outputs exist (and are defined) up to this count.
    built: usize,
}

impl Totalizer {
    /// The totalizer of `inputs` (at least one) with outputs up to 1, which are the
    /// inputs' disjunction; its clauses go to `oracle`.
    pub(crate) fn new(inputs: &[Lit], oracle: &mut Oracle) -> Self {
        assert!(!inputs.is_empty(), "a totalizer needs inputs");
        let mut nodes = Vec::with_capacity(2 * inputs.len());
        let root = Self::tree(inputs, &mut nodes);
        let mut tot = Totalizer {
            nodes,
            root,
            built: 0,
        };
        tot.extend(tot.root, 1, oracle);
        tot.built = 1;
        tot
    }

    fn tree(inputs: &[Lit], nodes: &mut Vec<Node>) -> usize {
        let node = if let [only] = inputs {
            Node {
                outputs: vec![*only],
                inputs: 1,
                children: None,
            }
        } else {
            let (l, r) = inputs.split_at(inputs.len() / 2);
            let left = Self::tree(l, nodes);
            let right = Self::tree(r, nodes);
            Node {
                outputs: Vec::new(),
                inputs: inputs.len(),
                children: Some((left, right)),
            }
        };
        nodes.push(node);
        nodes.len() - 1
    }

    /// The number of inputs.
    pub(crate) fn inputs(&self) -> usize {
        self.nodes[self.root].inputs
    }

    /// The literal "at least `k` inputs are true" (`1 ≤ k ≤ inputs`), building the
    /// outputs up to `k` first.
    pub(crate) fn output(&mut self, k: usize, oracle: &mut Oracle) -> Lit {
        assert!(1 <= k && k <= self.inputs(), "output {k} out of range");
        if k > self.built {
            self.extend(self.root, k, oracle);
            self.built = k;
        }
        self.nodes[self.root].outputs[k - 1]
    }

    /// Builds the outputs of `node` up to `bound` (capped by its inputs): new outputs
    /// `o_s` with clauses `a_i ∧ b_j → o_{i+j}` for the children's outputs, for every
    /// new sum `s = i + j`.
    fn extend(&mut self, node: usize, bound: usize, oracle: &mut Oracle) {
        let Some((left, right)) = self.nodes[node].children else {
            return;
        };
        let bound = bound.min(self.nodes[node].inputs);
        let old = self.nodes[node].outputs.len();
        if bound <= old {
            return;
        }
        self.extend(left, bound, oracle);
        self.extend(right, bound, oracle);
        for _ in old..bound {
            let o = oracle.new_var();
            self.nodes[node].outputs.push(o);
        }
        let a = self.nodes[left].outputs.clone();
        let b = self.nodes[right].outputs.clone();
        let out = &self.nodes[node].outputs;
        for i in 0..=a.len() {
            for j in 0..=b.len() {
                let s = i + j;
                if s <= old || s > bound {
                    continue;
                }
                let mut clause = Vec::with_capacity(3);
                if i > 0 {
                    clause.push(-a[i - 1]);
                }
                if j > 0 {
                    clause.push(-b[j - 1]);
                }
                clause.push(out[s - 1]);
                oracle.add_clause(&clause);
            }
        }
    }
}
