//! Cutting-planes proofs of optimality in VeriPB's pseudo-Boolean format, made from a
//! certificate of the family ILP ([`DualCertificate`]), for score tables whose bound
//! CNF no SAT solver refutes in reasonable time (SPEC C10; the DRAT proofs of
//! [`crate::proof`] serve the small ones).
//!
//! A proof of a DAG `D` of cost `c` is a directory:
//! - `bound.opb`: the hard clauses of the table's MaxSAT encoding (`encode_bnsl` of the
//!   table without dominated candidates), each node's "at most one parent set" as one
//!   pseudo-Boolean constraint `Σ ¬x ≥ m − 1` (the sequential counter among the clauses
//!   says the same), and the objective bound `Σ w · x ≤ K`, written `Σ w · ¬x ≥ Σ w − K`
//!   (only positive coefficients), with `K = c − 1 − T`, `T = 10^(d−6) + n` (the
//!   certificate's tolerance of one millionth of score, plus the rounding of each
//!   weight): unsatisfiable exactly when no network costs `K` or less, so that `D` is
//!   optimal to within `10^−6 + 1.5 · n · 10^−d` of score;
//! - `bound.pbp`: a VeriPB 1.2 refutation of it;
//! - `proof.json`: the cost, `K`, the weights' precision and the counts.
//!
//! The refutation follows the certificate:
//! 1. each cluster `C` of a leaf is derived as the clause "some node of `C` takes a
//!    parent set outside `C`" by `k(k + 1)/2` reverse-unit-propagation lemmas (the
//!    ordering principle: with `C = {c_1 … c_k}`, "unless the cluster clause holds, `c_i`
//!    has a predecessor among `c_1 … c_m`", for `m = k` down to 1);
//! 2. each set packing `S` as `Σ x ≤ 1` over its all-in families: per node `v` of `S` and
//!    other member `w`, "an all-in family of `v` puts `w` before `v`" (the node's at-most-
//!    one row, weakened, times `m − 1`, plus the `m` clauses "`x` puts `w` first", divided
//!    by `m`), pairs summed (`w` before `v` or `v` before `w`), and pairs merged into the
//!    whole set by the usual induction with division;
//! 3. each leaf as one linear combination: the objective bound times `10^(12−d)`, each
//!    cluster clause times `λ_C`, each packing times `μ_S` (on the certificate's grid of
//!    `10^−12`), and each node's at-least-one or at-most-one row times the exact integer
//!    `a_v = min (10^(12−d) · w(v, Π) − Σ λ + Σ μ)` over the candidates the leaf allows;
//!    every allowed candidate's coefficient is then at most 0 and the constant exceeds
//!    what the rest can give, so "some candidate the leaf forbids is taken" follows by
//!    reverse unit propagation;
//! 4. each branch on an arc `u → v` sums its sides' clauses and `v`'s at-most-one row
//!    and saturates: "some candidate the branch's own side forbids is taken"; at the root
//!    that is the empty clause.
//!
//! [`check_pb_proof`] rebuilds `bound.opb` from the table and `D`, compares it line by
//! line, and checks `bound.pbp` with bnsl's own checker ([`check_veripb`]), which shares
//! no code with the writer; VeriPB checks the same two files.

use crate::proof::{io_error, pruned_encoding_and_cost, ProofError};
use bnsl_formulations::family::certificate::{
    fixed::PLACES, ClusterDual, DualCertificate, LeafDual, PackingDual, Restriction, TreeItem,
};
use bnsl_formulations::maxsat::bnsl::BnslEncoding;
use bnsl_formulations::maxsat::Lit;
use bnsl_formulations::{Dag, ScoreTable, VarSet};
use bnsl_solvers::veripb::{check_veripb, VeripbSummary};
use serde_json::json;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

/// The file names inside a proof directory.
const OPB: &str = "bound.opb";
const PBP: &str = "bound.pbp";
const META: &str = "proof.json";

/// What a written proof holds.
#[derive(Clone, Debug, PartialEq)]
pub struct PbProofWritten {
    /// The DAG's cost in the encoding's integer weights.
    pub cost: u64,
    /// The formula's bound `K`: no network costs `K` or less.
    pub bound: i128,
    /// Constraints of `bound.opb`.
    pub constraints: usize,
    /// Steps of `bound.pbp`.
    pub steps: usize,
    /// Leaves of the certificate's tree (one linear combination each).
    pub leaves: usize,
}

/// Whether `dir` holds a cutting-planes proof (rather than a DRAT one).
pub fn is_pb_proof(dir: &Path) -> bool {
    dir.join(OPB).exists()
}

/// The bound formula, its text, and where its rows are.
struct Formula {
    encoding: BnslEncoding,
    cost: u64,
    bound: i128,
    text: String,
    constraints: usize,
    /// Id of each node's at-most-one row.
    at_most_one: Vec<usize>,
    objective: usize,
    /// Each variable's weight.
    weight: HashMap<Lit, u64>,
}

fn literal(l: Lit) -> String {
    if l > 0 {
        format!("x{l}")
    } else {
        format!("~x{}", -l)
    }
}

fn formula(table: &ScoreTable, dag: &Dag) -> Result<(ScoreTable, Formula), ProofError> {
    let (pruned, encoding, cost) = pruned_encoding_and_cost(table, dag)?;
    let n = pruned.n();
    let tolerance = 10i128.pow(encoding.digits.saturating_sub(6)) + n as i128;
    let bound = i128::from(cost) - 1 - tolerance;
    let weight: HashMap<Lit, u64> = encoding
        .wcnf
        .soft
        .iter()
        .map(|(w, clause)| (-clause[0], *w))
        .collect();
    let hard = &encoding.wcnf.hard;
    let constraints = hard.len() + n + 1;
    let mut text = format!(
        "* #variable= {} #constraint= {constraints}\n* bnsl optimality proof: no network of this score table costs at most {bound} \
         (weights are score differences times 10^{}, rounded)\n",
        encoding.wcnf.num_vars, encoding.digits
    );
    for clause in hard {
        for &l in clause {
            let _ = write!(text, "1 {} ", literal(l));
        }
        text.push_str(">= 1 ;\n");
    }
    let mut at_most_one = Vec::with_capacity(n);
    for (v, xs) in encoding.family_vars.iter().enumerate() {
        for &x in xs {
            let _ = write!(text, "1 {} ", literal(-x));
        }
        let _ = writeln!(text, ">= {} ;", xs.len() - 1);
        at_most_one.push(hard.len() + v + 1);
    }
    let mut total: i128 = 0;
    for xs in &encoding.family_vars {
        for x in xs {
            if let Some(&w) = weight.get(x) {
                let _ = write!(text, "{w} {} ", literal(-*x));
                total += i128::from(w);
            }
        }
    }
    let _ = writeln!(text, ">= {} ;", total - bound);
    Ok((
        pruned,
        Formula {
            encoding,
            cost,
            bound,
            text,
            constraints,
            at_most_one,
            objective: constraints,
            weight,
        },
    ))
}

/// The proof's lines, numbering each new constraint.
struct ProofLog {
    text: String,
    next_id: usize,
    steps: usize,
}

impl ProofLog {
    fn step(&mut self, line: &str) -> usize {
        self.text.push_str(line);
        self.text.push('\n');
        self.steps += 1;
        self.next_id += 1;
        self.next_id - 1
    }

    /// Deletes constraints that later steps do not use (they stop propagating).
    fn delete(&mut self, ids: &[usize]) {
        self.text.push_str("del id");
        for id in ids {
            let _ = write!(self.text, " {id}");
        }
        self.text.push('\n');
        self.steps += 1;
    }

    fn rup_clause(&mut self, lits: &[Lit]) -> usize {
        let mut line = String::from("rup");
        for &l in lits {
            let _ = write!(line, " 1 {}", literal(l));
        }
        line.push_str(" >= 1 ;");
        self.step(&line)
    }
}

/// The id of each hard clause of `encoding` in the formula, by its sorted literals.
fn clause_ids(encoding: &BnslEncoding) -> HashMap<Vec<Lit>, usize> {
    let mut ids = HashMap::new();
    for (k, clause) in encoding.wcnf.hard.iter().enumerate() {
        let mut key = clause.clone();
        key.sort_unstable();
        ids.entry(key).or_insert(k + 1);
    }
    ids
}

/// The builder of a refutation from a certificate (steps 1–4 of the module doc).
struct Prover<'a> {
    table: &'a ScoreTable,
    f: &'a Formula,
    clause_ids: HashMap<Vec<Lit>, usize>,
    log: ProofLog,
    clusters: HashMap<Vec<usize>, usize>,
    /// Packing id, or `None` when no candidate is all-in for the set.
    packings: HashMap<Vec<usize>, Option<usize>>,
    leaf: usize,
}

impl Prover<'_> {
    /// The id of node `v`'s at-least-one clause.
    fn at_least_one(&self, v: usize) -> usize {
        let mut key = self.f.encoding.family_vars[v].clone();
        key.sort_unstable();
        self.clause_ids[&key]
    }

    fn x(&self, v: usize, i: usize) -> Lit {
        self.f.encoding.family_vars[v][i]
    }

    fn candidates(&self, v: usize) -> impl Iterator<Item = (usize, &VarSet)> + '_ {
        self.table
            .candidates(v)
            .iter()
            .enumerate()
            .map(|(i, c)| (i, &c.parents))
    }

    /// The cluster clause of `nodes` (step 1).
    fn cluster(&mut self, nodes: &VarSet) -> usize {
        let key = nodes.to_vec();
        if let Some(&id) = self.clusters.get(&key) {
            return id;
        }
        let outside: Vec<Lit> = key
            .iter()
            .flat_map(|&v| {
                self.candidates(v)
                    .filter(|(_, p)| !p.intersects(nodes))
                    .map(move |(i, _)| (v, i))
            })
            .map(|(v, i)| self.x(v, i))
            .collect();
        let mut level: Vec<usize> = Vec::new();
        for m in (1..=key.len()).rev() {
            let previous = std::mem::take(&mut level);
            for i in 0..m {
                let mut lits = outside.clone();
                lits.extend(
                    (0..m)
                        .filter(|&j| j != i)
                        .map(|j| self.f.encoding.before(key[j], key[i])),
                );
                level.push(self.log.rup_clause(&lits));
            }
            if !previous.is_empty() {
                self.log.delete(&previous);
            }
        }
        let id = level[0];
        self.clusters.insert(key, id);
        id
    }

    /// `Σ x ≤ 1` over the all-in families of `nodes` (step 2), or `None` if it has none.
    fn packing(&mut self, nodes: &VarSet) -> Option<usize> {
        let key = nodes.to_vec();
        if let Some(&id) = self.packings.get(&key) {
            return id;
        }
        let all_in: Vec<(usize, Vec<usize>)> = key
            .iter()
            .map(|&v| {
                let rest = nodes.without(v);
                let fams = self
                    .candidates(v)
                    .filter(|(_, p)| rest.is_subset(p))
                    .map(|(i, _)| i)
                    .collect();
                (v, fams)
            })
            .filter(|(_, fams): &(usize, Vec<usize>)| !fams.is_empty())
            .collect();
        let id = match all_in.len() {
            0 => None,
            1 => Some(self.weakened_at_most_one(all_in[0].0, &all_in[0].1)),
            _ => Some(self.merged_packing(&all_in)),
        };
        self.packings.insert(key, id);
        id
    }

    /// `v`'s at-most-one row restricted to the candidates `keep` (as a `pol` prefix).
    fn weakened_row(&self, v: usize, keep: &[usize]) -> String {
        let mut line = format!("{}", self.f.at_most_one[v]);
        for (i, _) in self.candidates(v) {
            if !keep.contains(&i) {
                let _ = write!(line, " x{} w", self.x(v, i));
            }
        }
        line
    }

    fn weakened_at_most_one(&mut self, v: usize, keep: &[usize]) -> usize {
        let line = format!("pol {}", self.weakened_row(v, keep));
        self.log.step(&line)
    }

    /// "An all-in family of `v` puts `w` before `v`": `Σ x ≤ before(w, v)`.
    fn all_in_before(&mut self, v: usize, fams: &[usize], w: usize) -> usize {
        let before = self.f.encoding.before(w, v);
        let clause_id = |x: Lit| {
            let mut key = vec![-x, before];
            key.sort_unstable();
            self.clause_ids[&key]
        };
        if let [only] = fams {
            return clause_id(self.x(v, *only));
        }
        let m = fams.len();
        let mut line = format!("pol {} {} *", self.weakened_row(v, fams), m - 1);
        for &i in fams {
            let _ = write!(line, " {} +", clause_id(self.x(v, i)));
        }
        let _ = write!(line, " {m} d");
        self.log.step(&line)
    }

    fn merged_packing(&mut self, all_in: &[(usize, Vec<usize>)]) -> usize {
        let k = all_in.len();
        let mut pair = vec![vec![0; k]; k];
        for a in 0..k {
            for b in a + 1..k {
                let ab = self.all_in_before(all_in[a].0, &all_in[a].1, all_in[b].0);
                let ba = self.all_in_before(all_in[b].0, &all_in[b].1, all_in[a].0);
                pair[a][b] = self.log.step(&format!("pol {ab} {ba} +"));
            }
        }
        let mut merged = pair[0][1];
        for j in 2..k {
            let mut line = format!("pol {merged} {} *", j - 1);
            for row in pair.iter().take(j) {
                let _ = write!(line, " {} +", row[j]);
            }
            let _ = write!(line, " {j} d");
            merged = self.log.step(&line);
        }
        merged
    }

    /// The clause "some candidate `side` forbids is taken" of a leaf (step 3).
    fn leaf(&mut self, dual: &LeafDual, side: &Restriction) -> Result<usize, ProofError> {
        let n = self.table.n();
        let forbidden = self.forbidden(side);
        let allowed: Vec<Vec<usize>> = (0..n)
            .map(|v| {
                self.candidates(v)
                    .filter(|(_, p)| side.allows(v, p))
                    .map(|(i, _)| i)
                    .collect()
            })
            .collect();
        let combination = match allowed.iter().all(|a| !a.is_empty()) {
            true => Some(self.leaf_combination(dual, &allowed)?),
            false => None,
        };
        self.leaf += 1;
        let clause = self.log.rup_clause(&forbidden);
        if let Some(id) = combination {
            self.log.delete(&[id]);
        }
        Ok(clause)
    }

    fn leaf_combination(
        &mut self,
        dual: &LeafDual,
        allowed: &[Vec<usize>],
    ) -> Result<usize, ProofError> {
        let scale = 10i128.pow(PLACES - self.f.encoding.digits);
        let clusters: Vec<(&ClusterDual, usize)> = dual
            .clusters
            .iter()
            .filter(|c| c.lambda.0 > 0)
            .map(|c| (c, self.cluster(&c.cluster)))
            .collect();
        let packings: Vec<(&PackingDual, usize)> = dual
            .packings
            .iter()
            .filter(|p| p.mu.0 > 0)
            .filter_map(|p| Some((p, self.packing(&p.nodes)?)))
            .collect();
        let mut line = format!("pol {} {scale} *", self.f.objective);
        let mut total: i128 = 0;
        for (c, id) in &clusters {
            let _ = write!(line, " {id} {} * +", c.lambda.0);
            total = total.checked_add(c.lambda.0).ok_or(ProofError::Overflow)?;
        }
        for (p, id) in &packings {
            let _ = write!(line, " {id} {} * +", p.mu.0);
            total = total.checked_sub(p.mu.0).ok_or(ProofError::Overflow)?;
        }
        for (v, fams) in allowed.iter().enumerate() {
            let mut a_v: Option<i128> = None;
            for &i in fams {
                let value = self.reduced_value(v, i, scale, &clusters, &packings)?;
                a_v = Some(a_v.map_or(value, |a| a.min(value)));
            }
            let a_v = a_v.expect("every node has an allowed candidate here");
            total = total.checked_add(a_v).ok_or(ProofError::Overflow)?;
            match a_v.cmp(&0) {
                std::cmp::Ordering::Greater => {
                    let _ = write!(line, " {} {a_v} * +", self.at_least_one(v));
                }
                std::cmp::Ordering::Less => {
                    let _ = write!(line, " {} {} * +", self.f.at_most_one[v], -a_v);
                }
                std::cmp::Ordering::Equal => {}
            }
        }
        let needed = self
            .f
            .bound
            .checked_mul(scale)
            .ok_or(ProofError::Overflow)?;
        if total <= needed {
            return Err(ProofError::WeakLeaf {
                leaf: self.leaf,
                bound: total,
                needed,
            });
        }
        Ok(self.log.step(&line))
    }

    /// `10^(12−d) · w(v, Π) − Σ λ + Σ μ` over the rows the candidate `(v, i)` is in.
    fn reduced_value(
        &self,
        v: usize,
        i: usize,
        scale: i128,
        clusters: &[(&ClusterDual, usize)],
        packings: &[(&PackingDual, usize)],
    ) -> Result<i128, ProofError> {
        let parents = &self.table.candidates(v)[i].parents;
        let w = i128::from(self.f.weight.get(&self.x(v, i)).copied().unwrap_or(0));
        let mut value = w.checked_mul(scale).ok_or(ProofError::Overflow)?;
        for (c, _) in clusters {
            if c.cluster.contains(v) && !parents.intersects(&c.cluster) {
                value = value.checked_sub(c.lambda.0).ok_or(ProofError::Overflow)?;
            }
        }
        for (p, _) in packings {
            if p.nodes.contains(v) && p.nodes.without(v).is_subset(parents) {
                value = value.checked_add(p.mu.0).ok_or(ProofError::Overflow)?;
            }
        }
        Ok(value)
    }

    fn forbidden(&self, side: &Restriction) -> Vec<Lit> {
        (0..self.table.n())
            .flat_map(|v| {
                self.candidates(v)
                    .filter(move |(_, p)| !side.allows(v, p))
                    .map(move |(i, _)| (v, i))
            })
            .map(|(v, i)| self.x(v, i))
            .collect()
    }

    /// The clause of the subtree at `tree[*at..]` under `side` (steps 3 and 4).
    fn subtree(
        &mut self,
        tree: &[TreeItem],
        at: &mut usize,
        side: &Restriction,
    ) -> Result<usize, ProofError> {
        let item = tree.get(*at).ok_or(ProofError::Shape)?;
        *at += 1;
        match item {
            TreeItem::Leaf(dual) => self.leaf(dual, side),
            TreeItem::Branch { node, parent } => {
                let with = self.subtree(tree, at, &side.with_arc(*parent, *node))?;
                let without = self.subtree(tree, at, &side.without_arc(*parent, *node))?;
                let amo = self.f.at_most_one[*node];
                let clause = self.log.step(&format!("pol {with} {without} + {amo} + s"));
                self.log.delete(&[with, without]);
                Ok(clause)
            }
        }
    }
}

/// Writes the cutting-planes proof that `certificate.dag` is optimal for `table` into
/// `dir` (created if needed), following the certificate (see the module doc).
pub fn write_pb_proof(
    table: &ScoreTable,
    certificate: &DualCertificate,
    dir: &Path,
) -> Result<PbProofWritten, ProofError> {
    let (pruned, f) = formula(table, &certificate.dag)?;
    let mut prover = Prover {
        table: &pruned,
        f: &f,
        clause_ids: clause_ids(&f.encoding),
        log: ProofLog {
            text: format!("pseudo-Boolean proof version 1.2\nf {}\n", f.constraints),
            next_id: f.constraints + 1,
            steps: 0,
        },
        clusters: HashMap::new(),
        packings: HashMap::new(),
        leaf: 0,
    };
    let last = if f.bound < 0 {
        f.objective
    } else {
        let mut at = 0;
        let root = prover.subtree(&certificate.tree, &mut at, &Restriction::none(pruned.n()))?;
        if at != certificate.tree.len() {
            return Err(ProofError::Shape);
        }
        root
    };
    let _ = writeln!(prover.log.text, "c {last}");
    fs::create_dir_all(dir).map_err(io_error(dir))?;
    for (name, text) in [(OPB, &f.text), (PBP, &prover.log.text)] {
        let path = dir.join(name);
        fs::write(&path, text).map_err(io_error(&path))?;
    }
    let written = PbProofWritten {
        cost: f.cost,
        bound: f.bound,
        constraints: f.constraints,
        steps: prover.log.steps + 1,
        leaves: prover.leaf,
    };
    let meta = json!({
        "format": "VeriPB 1.2 (cutting planes)",
        "cost": f.cost,
        "bound": f.bound.to_string(),
        "weight_digits": f.encoding.digits,
        "constraints": f.constraints,
        "steps": written.steps,
        "leaves": written.leaves,
        "from": "a family-ILP certificate (bnsl learn --certificate)",
    });
    let meta_path = dir.join(META);
    fs::write(&meta_path, format!("{meta:#}\n")).map_err(io_error(&meta_path))?;
    Ok(written)
}

/// Checks the cutting-planes proof in `dir` that `dag` is optimal for `table`:
/// `bound.opb` rebuilt and compared, then `bound.pbp` checked against it.
pub fn check_pb_proof(
    table: &ScoreTable,
    dag: &Dag,
    dir: &Path,
) -> Result<VeripbSummary, ProofError> {
    let (_, f) = formula(table, dag)?;
    let opb_path = dir.join(OPB);
    let text = fs::read_to_string(&opb_path).map_err(io_error(&opb_path))?;
    if let Some((k, (got, want))) = text
        .lines()
        .zip(f.text.lines())
        .enumerate()
        .find(|(_, (a, b))| a != b)
    {
        return Err(ProofError::WrongFormula {
            path: opb_path,
            why: format!(
                "line {} is not the bound formula of this table and DAG (expected {} characters starting {:?}, found {:?})",
                k + 1,
                want.len(),
                want.chars().take(60).collect::<String>(),
                got.chars().take(60).collect::<String>()
            ),
        });
    }
    if text.lines().count() != f.text.lines().count() {
        return Err(ProofError::WrongFormula {
            path: opb_path,
            why: format!(
                "{} lines, where the bound formula of this table and DAG has {}",
                text.lines().count(),
                f.text.lines().count()
            ),
        });
    }
    let pbp_path = dir.join(PBP);
    let proof = fs::read_to_string(&pbp_path).map_err(io_error(&pbp_path))?;
    check_veripb(&f.text, &proof).map_err(|source| ProofError::RejectedSteps {
        path: pbp_path,
        source,
    })
}
