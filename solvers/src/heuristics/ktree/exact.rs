//! Version 1 of Algorithm 1 (Nie et al. 2016, §4, step 2.c): the best DAG whose moral
//! graph is a subgraph of a given k-tree, exactly, by dynamic programming over the
//! k-tree's cliques in the manner of Korhonen & Parviainen (2013).
//!
//! The bags are the root k-clique and, for each joined node `v`, `v` with the k-clique
//! it joined; the bag of `v` hangs below the bag of the last-joined node of that clique
//! (below the root when there is none). They form a tree decomposition of the k-tree.
//!
//! Why the program is exact:
//! - a DAG whose moral graph lies in the k-tree `T` lies in an acyclic orientation of
//!   `T` (orient `T` by a topological order of the DAG), and each of its families is a
//!   clique of `T`, hence inside some bag;
//! - conversely, an orientation of `T` that orders every bag linearly, the orders agreeing
//!   on shared nodes, is acyclic: `T` is chordal, so a shortest directed cycle would be a
//!   triangle, which lies in a bag;
//! - so the best DAG is the best choice of a linear order of every bag (agreeing on the
//!   separators) and, for every node, one bag holding it in which it takes its best
//!   candidate among the nodes before it.
//!
//! The program goes up the tree of bags. For a bag, an order `π` of its nodes and a set
//! `G` of its nodes, the table holds the best score of the families placed in its
//! subtree when exactly the nodes of `G` among its own have their family placed there.
//! Children join by a max-plus convolution over disjoint sets (about `2·3^k` terms per
//! order). A bag sends its parent, for each order of the separator and each set, the best
//! over the `k + 1` places of its joined node, which must have its family placed (no bag
//! above holds it). Time `Θ(n·(k+1)!·3^k)`, memory `n·k!·2^k` numbers: exponential in
//! `k` only, linear in `n`.

use super::code::KTree;
use crate::heuristics::Network;
use bnsl_formulations::{ScoreTable, VarSet};

/// The widest k-trees Version 1 takes: each k-tree costs `(k+1)!·3^k` operations and
/// `k!·2^k` numbers per node, which at `k = 7` is already 88 million operations per node
/// (Nie et al. found it intractable beyond 8).
pub const VERSION_1_MAX_WIDTH: usize = 6;

/// A set of positions within a bag.
type Mask = usize;

/// The best DAG whose moral graph is a subgraph of `tree`; `None` when some node has no
/// candidate inside the k-tree (a candidate list without the empty set).
pub(crate) fn best_in_ktree(table: &ScoreTable, tree: &KTree) -> Option<Network> {
    let program = Program::new(table, tree);
    let messages: Vec<Message> = {
        let mut messages = vec![Message::default(); program.bags.len()];
        for b in (1..program.bags.len()).rev() {
            messages[b] = program.message(b, &messages);
        }
        messages
    };
    let full = (1 << program.k) - 1;
    let (order, score) = (0..program.small.len())
        .map(|r| (r, program.combine(0, r, &messages, None)[full]))
        .fold(
            (0, f64::NEG_INFINITY),
            |best, x| if x.1 > best.1 { x } else { best },
        );
    if score == f64::NEG_INFINITY {
        return None;
    }
    let mut choice = vec![usize::MAX; table.n()];
    program.trace(order, full, &messages, &mut choice);
    Some(Network::from_choice(table, choice))
}

/// The linear orders of `0..size`, in lexicographic order: order `r` has Lehmer rank `r`.
struct Orders {
    perms: Vec<Vec<u8>>,
}

impl Orders {
    fn new(size: usize) -> Orders {
        let mut perms: Vec<Vec<u8>> = vec![Vec::new()];
        for _ in 0..size {
            let mut longer = Vec::with_capacity(perms.len() * size);
            for p in &perms {
                for x in (0..size as u8).filter(|x| !p.contains(x)) {
                    let mut q = p.clone();
                    q.push(x);
                    longer.push(q);
                }
            }
            perms = longer;
        }
        Orders { perms }
    }

    fn len(&self) -> usize {
        self.perms.len()
    }
}

/// The Lehmer rank of a permutation of `0..perm.len()`.
fn rank(perm: &[u8]) -> usize {
    (0..perm.len()).fold(0, |r, i| {
        let smaller = perm[i + 1..].iter().filter(|&&x| x < perm[i]).count();
        r * (perm.len() - i) + smaller
    })
}

/// `mask` with bit `q` removed (the bits above it shift down).
fn without_bit(mask: Mask, q: usize) -> Mask {
    ((mask >> (q + 1)) << q) | (mask & ((1 << q) - 1))
}

/// `mask` with a set bit inserted at `q` (the bits from `q` shift up).
fn with_bit(mask: Mask, q: usize) -> Mask {
    ((mask >> q) << (q + 1)) | (1 << q) | (mask & ((1 << q) - 1))
}

/// One clique of the decomposition.
struct Bag {
    /// Its nodes, sorted; positions index them.
    members: Vec<usize>,
    /// The position of its joined node (`None` for the root clique).
    joined: Option<usize>,
    /// The position of its parent's member missing from its separator (`None` when the
    /// parent is the root clique, which is the whole separator).
    missing_in_parent: Option<usize>,
    /// The bags below it.
    children: Vec<usize>,
    /// For each position `a`, each set of other positions: the best candidate of the
    /// node at `a` with parents among them, and its score (`-inf`: none).
    families: Vec<Vec<(f64, usize)>>,
}

/// What a bag sends its parent: for each order `σ` of the separator and set `F` of it,
/// at `σ · 2^k + F`, the best score of its subtree and the bag's order giving it.
#[derive(Clone, Default)]
struct Message {
    score: Vec<f64>,
    order: Vec<u32>,
}

/// The program of one k-tree.
struct Program {
    k: usize,
    bags: Vec<Bag>,
    /// Orders of `k` positions (separators, the root) and of `k + 1` (joined bags).
    small: Orders,
    big: Orders,
    /// `dropped[q][r]`: the rank of order `r` of `k + 1` positions with position `q`
    /// removed.
    dropped: Vec<Vec<usize>>,
}

impl Program {
    fn new(table: &ScoreTable, tree: &KTree) -> Program {
        let n = table.n();
        let k = tree.root.len();
        let mut bag_of = vec![0usize; n];
        for (i, &v) in tree.joined.iter().enumerate() {
            bag_of[v] = i + 1;
        }
        let mut bags = vec![Bag::new(table, tree.root.clone(), None, None)];
        for &v in &tree.joined {
            let clique = &tree.clique[v];
            let parent = clique.iter().map(|&u| bag_of[u]).max().unwrap_or(0);
            let mut members = clique.clone();
            members.push(v);
            members.sort_unstable();
            let joined = members.iter().position(|&u| u == v);
            let missing = (parent > 0).then(|| {
                let above = &bags[parent].members;
                above
                    .iter()
                    .position(|u| !clique.contains(u))
                    .expect("a child's clique is its parent's bag less one node")
            });
            bags[parent].children.push(bag_of[v]);
            bags.push(Bag::new(table, members, joined, missing));
        }
        let big = Orders::new(k + 1);
        let dropped = (0..=k)
            .map(|q| {
                big.perms
                    .iter()
                    .map(|p| {
                        let rest: Vec<u8> = p
                            .iter()
                            .filter(|&&a| usize::from(a) != q)
                            .map(|&a| a - u8::from(usize::from(a) > q))
                            .collect();
                        rank(&rest)
                    })
                    .collect()
            })
            .collect();
        Program {
            k,
            bags,
            small: Orders::new(k),
            big,
            dropped,
        }
    }

    fn orders_of(&self, b: usize) -> &Orders {
        if b == 0 {
            &self.small
        } else {
            &self.big
        }
    }

    /// For each position of bag `b`, its best family (score, candidate index) among the
    /// nodes before it in the bag's order `r`.
    fn families_in_order(&self, b: usize, r: usize) -> Vec<(f64, usize)> {
        let bag = &self.bags[b];
        let mut best = vec![(f64::NEG_INFINITY, usize::MAX); bag.members.len()];
        let mut before: Mask = 0;
        for &a in &self.orders_of(b).perms[r] {
            let a = usize::from(a);
            best[a] = bag.families[a][before];
            before |= 1 << a;
        }
        best
    }

    /// The order of child bag `c`'s separator that its parent's order `r` induces.
    fn separator_order(&self, c: usize, r: usize) -> usize {
        match self.bags[c].missing_in_parent {
            Some(q) => self.dropped[q][r],
            None => r,
        }
    }

    /// A set of the parent's positions inside child bag `c`'s separator, as a set of
    /// the separator's positions.
    fn separator_set(&self, c: usize, s: Mask) -> Mask {
        self.bags[c]
            .missing_in_parent
            .map_or(s, |q| without_bit(s, q))
    }

    /// Bag `b`'s table for its order `r`: for each set of its positions, the best score
    /// of the families placed in its subtree. With `trace`, also the set each child
    /// takes, per child and per set.
    fn combine(
        &self,
        b: usize,
        r: usize,
        messages: &[Message],
        mut trace: Option<&mut Vec<Vec<Mask>>>,
    ) -> Vec<f64> {
        let bag = &self.bags[b];
        let size = bag.members.len();
        let here = self.families_in_order(b, r);
        let mut table = vec![0.0; 1 << size];
        for g in 1..table.len() {
            let a = g.trailing_zeros() as usize;
            table[g] = table[g & (g - 1)] + here[a].0;
        }
        let width = 1 << self.k;
        for &c in &bag.children {
            let child = &self.bags[c];
            let sigma = self.separator_order(c, r);
            let separator = child
                .missing_in_parent
                .map_or((1 << size) - 1, |q| ((1 << size) - 1) ^ (1 << q));
            let from = &messages[c].score[sigma * width..(sigma + 1) * width];
            let mut next = vec![f64::NEG_INFINITY; table.len()];
            let mut taken = trace.as_ref().map(|_| vec![0; table.len()]);
            for g in 0..table.len() {
                let avail = g & separator;
                let mut s = avail;
                loop {
                    let value = table[g ^ s] + from[self.separator_set(c, s)];
                    if value > next[g] {
                        next[g] = value;
                        if let Some(t) = taken.as_mut() {
                            t[g] = s;
                        }
                    }
                    if s == 0 {
                        break;
                    }
                    s = (s - 1) & avail;
                }
            }
            if let (Some(t), Some(steps)) = (taken, trace.as_mut()) {
                steps.push(t);
            }
            table = next;
        }
        table
    }

    /// What joined bag `b` sends its parent.
    fn message(&self, b: usize, messages: &[Message]) -> Message {
        let joined = self.bags[b].joined.expect("only joined bags send messages");
        let width = 1 << self.k;
        let mut out = Message {
            score: vec![f64::NEG_INFINITY; self.small.len() * width],
            order: vec![0; self.small.len() * width],
        };
        for r in 0..self.big.len() {
            let table = self.combine(b, r, messages, None);
            let base = self.dropped[joined][r] * width;
            for (g, &value) in table.iter().enumerate() {
                if g >> joined & 1 == 1 {
                    let at = base + without_bit(g, joined);
                    if value > out.score[at] {
                        out.score[at] = value;
                        out.order[at] = r as u32;
                    }
                }
            }
        }
        out
    }

    /// Fills `choice` with the families of the best DAG below the root order `r` and set
    /// `g`, walking the bags down the way the messages were built.
    fn trace(&self, r: usize, g: Mask, messages: &[Message], choice: &mut [usize]) {
        let width = 1 << self.k;
        let mut stack = vec![(0usize, r, g)];
        while let Some((b, r, mut g)) = stack.pop() {
            let bag = &self.bags[b];
            let mut steps = Vec::new();
            self.combine(b, r, messages, Some(&mut steps));
            for (&c, taken) in bag.children.iter().zip(&steps).rev() {
                let s = taken[g];
                g ^= s;
                let child = &self.bags[c];
                let f = self.separator_set(c, s);
                let order = messages[c].order[self.separator_order(c, r) * width + f] as usize;
                let joined = child.joined.expect("children are joined bags");
                stack.push((c, order, with_bit(f, joined)));
            }
            for (a, (_, candidate)) in self.families_in_order(b, r).into_iter().enumerate() {
                if g >> a & 1 == 1 {
                    choice[bag.members[a]] = candidate;
                }
            }
        }
    }
}

impl Bag {
    fn new(
        table: &ScoreTable,
        members: Vec<usize>,
        joined: Option<usize>,
        missing_in_parent: Option<usize>,
    ) -> Bag {
        let set = VarSet::from_members(table.n(), members.iter().copied());
        let families = (0..members.len())
            .map(|a| best_families(table, &members, &set, a))
            .collect();
        Bag {
            members,
            joined,
            missing_in_parent,
            children: Vec::new(),
            families,
        }
    }
}

/// For the node at position `a` of a bag, and each set of positions, its best candidate
/// with parents among them (candidates with parents outside the bag are not allowed).
fn best_families(
    table: &ScoreTable,
    members: &[usize],
    set: &VarSet,
    a: usize,
) -> Vec<(f64, usize)> {
    let size = members.len();
    let v = members[a];
    let mut best = vec![(f64::NEG_INFINITY, usize::MAX); 1 << size];
    for (i, c) in table.candidates(v).iter().enumerate() {
        if c.parents.len() < size && c.parents.is_subset(set) {
            let mask = (0..size)
                .filter(|&p| c.parents.contains(members[p]))
                .fold(0, |m, p| m | 1 << p);
            if c.score > best[mask].0 {
                best[mask] = (c.score, i);
            }
        }
    }
    for bit in 0..size {
        for mask in 0..best.len() {
            if mask >> bit & 1 == 1 && best[mask ^ (1 << bit)].0 > best[mask].0 {
                best[mask] = best[mask ^ (1 << bit)];
            }
        }
    }
    best
}
