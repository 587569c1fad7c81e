//! The branching rule "arrows": GOBNILP's branching on arrows (Bartlett & Cussens 2017,
//! §7) by bounds on the family columns alone, with no arrow variable and no linking row
//! in the LP.
//!
//! On a fractional LP solution the rule takes an arrow u → v whose value
//! `a(u→v) = Σ_{Π ∋ u} x(v, Π)` is fractional ([`ArrowLinks::most_fractional`]) and
//! makes two children: in one every family of v holding u is closed (u → v absent), in
//! the other every family of v without u (u → v present). Every DAG lies in exactly one
//! child, and the split moves LP weight of a whole arc, where a family column's
//! branch at 0 removes one of thousands of candidates.
//!
//! With more than one candidate the rule probes (strong branching, as SCIP's own rules
//! do for a variable): for each of the most fractional arrows it solves both children's
//! LPs in SCIP's probing mode, takes the arrow with the best product of bound gains
//! (`SCIPgetBranchScore`) and gives the children their LP bounds. A child whose LP is
//! infeasible or beyond the incumbent closes its side at the node instead.
//!
//! With a reliability above 0 the rule branches as reliability branching does (Achterberg,
//! Koch & Martin 2005), on arrows: each probing teaches the arrow's pseudocosts (the
//! children's LP gain per unit of the arrow's change); among more candidates, an arrow
//! probed that often is scored by its pseudocosts alone, and only the others, the best
//! estimated first, are probed.
//!
//! Split by adjacency (GOBNILP also branches on adjacency variables, Bartlett & Cussens
//! 2017 §7), the rule takes the fractional arrow's pair u–v, when the LP puts weight on
//! both u → v and v → u, and makes up to three children, by bounds alone: no edge
//! (every family of v holding u and of u holding v closed), u → v (v's families without
//! u closed, and u's holding v), and v → u. Every DAG lies in exactly one. On
//! score-equivalent scores the LP spreads an edge's weight over its two directions; an
//! arrow's absent child then moves it to the reverse arrow and gains little, where the
//! no-edge child removes both. Probing scores a split by its two smallest child gains,
//! as SCIP scores an n-ary branching.

use super::engine::{check, ScipCallFailed, Shared};
use bnsl_formulations::family::arrows::ArrowLinks;
use bnsl_formulations::FamilyIlp;
use russcip::ffi;
use std::cell::RefCell;
use std::ffi::{CStr, CString};
use std::os::raw::{c_int, c_uint};

/// The rule's name in SCIP.
const NAME: &CStr = c"arrows";

/// Priority among branching rules: above SCIP's (relpscost: 10,000), so it decides.
const PRIORITY: c_int = 50_000;

/// An arrow value this close to 0 or 1 counts as integral.
const TOLERANCE: f64 = 1e-6;

/// The probing LPs' iteration limit: this many times the average LP's iterations so
/// far, within [`MIN_ITERATIONS`, `MAX_ITERATIONS`].
const ITERATION_FACTOR: i64 = 2;
const MIN_ITERATIONS: i64 = 200;
const MAX_ITERATIONS: i64 = 20_000;

/// Includes the rule into `scip` for the family columns of `ilp`, owning a handle on
/// `engine`; `probes`: how many of the most fractional arrows are probed per node (0
/// or 1: the most fractional, no probing); `adjacency`: split the arrows' adjacencies
/// three ways instead of the arrows two ways.
pub(super) fn include(
    scip: *mut ffi::SCIP,
    engine: &Shared,
    ilp: &FamilyIlp<'_>,
    probes: usize,
    reliability: u32,
    adjacency: bool,
) -> Result<(), ScipCallFailed> {
    let desc = CString::new("arrows by family-column bounds").expect("static text");
    let links = ArrowLinks::of(ilp);
    let mut adjacency_of = vec![0; links.arrows.len()];
    for (e, pair) in links.adjacencies.iter().enumerate() {
        for &a in &pair.arrows {
            adjacency_of[a] = e;
        }
    }
    let keys = links.arrows.len() + links.adjacencies.len();
    let rule = ArrowBranching {
        engine: engine.clone(),
        pseudocosts: RefCell::new(Pseudocosts::new(keys)),
        links,
        adjacency,
        adjacency_of,
        probes: probes.max(1),
        reliability,
    };
    let data = Box::into_raw(Box::new(rule)) as *mut ffi::SCIP_BRANCHRULEDATA;
    let mut branchrule = std::ptr::null_mut();
    // SAFETY: the callbacks below match SCIP's signatures; `data` is freed by `free`.
    unsafe {
        check(ffi::SCIPincludeBranchruleBasic(
            scip,
            &mut branchrule,
            NAME.as_ptr(),
            desc.as_ptr(),
            PRIORITY,
            -1,
            1.0,
            data,
        ))?;
        check(ffi::SCIPsetBranchruleExecLp(
            scip,
            branchrule,
            Some(execute_lp),
        ))?;
        check(ffi::SCIPsetBranchruleFree(scip, branchrule, Some(free)))?;
    }
    Ok(())
}

/// The rule's data.
struct ArrowBranching {
    engine: Shared,
    links: ArrowLinks,
    /// Whether the rule splits an adjacency three ways instead of an arrow two ways
    /// when the LP puts weight on both arrows of the pair.
    adjacency: bool,
    /// Per arrow, its adjacency (an index into the links' adjacencies).
    adjacency_of: Vec<usize>,
    probes: usize,
    /// Probings of every child after which a split is scored by its pseudocosts
    /// alone; 0: every candidate is probed.
    reliability: u32,
    pseudocosts: RefCell<Pseudocosts>,
}

/// How many candidate splits per probe the rule scores when it has pseudocosts
/// ([`ArrowBranching::reliability`] above 0).
const CANDIDATES_PER_PROBE: usize = 4;

/// The kinds of child over both kinds of split: an arrow's absent and present, an
/// adjacency's no edge, first arrow and second arrow.
const SIDES: usize = 5;

/// A candidate split of the node: its key (an arrow's index into the links' arrows, or
/// an adjacency's into their adjacencies plus the number of arrows) and its children.
struct Split {
    key: usize,
    children: Vec<Child>,
}

/// A child of a [`Split`].
struct Child {
    /// Which child of its split kind it is (arrow: absent 0, present 1; adjacency: no
    /// edge 2, the adjacency's first arrow 3, its second 4), for the pseudocosts.
    side: usize,
    /// The transformed family columns it closes (those still open at the node).
    columns: Vec<*mut ffi::SCIP_VAR>,
    /// How far the split's arrow values move in it, in sum.
    distance: f64,
    /// Its node selection priority: the LP weight already on its side.
    priority: f64,
}

/// The arrows' or adjacencies' pseudocosts (Achterberg, Koch & Martin 2005, reliability
/// branching, on splits instead of variables): per split and side, the mean gain of the
/// child's LP value over its node's per unit of the child's [`Child::distance`],
/// learned from the probings.
struct Pseudocosts {
    sums: Vec<[f64; SIDES]>,
    counts: Vec<[u32; SIDES]>,
    total: [f64; SIDES],
    total_count: [u32; SIDES],
}

impl Pseudocosts {
    fn new(keys: usize) -> Self {
        Pseudocosts {
            sums: vec![[0.0; SIDES]; keys],
            counts: vec![[0; SIDES]; keys],
            total: [0.0; SIDES],
            total_count: [0; SIDES],
        }
    }

    /// Records a probing of `split` whose children gained `gains` over the node's LP.
    fn record(&mut self, split: &Split, gains: &[Option<f64>]) {
        for (child, gain) in split.children.iter().zip(gains) {
            let Some(gain) = gain else { continue };
            let unit = gain / child.distance.max(TOLERANCE);
            self.sums[split.key][child.side] += unit;
            self.counts[split.key][child.side] += 1;
            self.total[child.side] += unit;
            self.total_count[child.side] += 1;
        }
    }

    /// Whether every child of `split` was probed at least `reliability` times.
    fn reliable(&self, split: &Split, reliability: u32) -> bool {
        let counts = &self.counts[split.key];
        split
            .children
            .iter()
            .all(|child| counts[child.side] >= reliability)
    }

    /// The estimated gains of the children of `split`: the split's mean unit gain, or
    /// the mean over every split before the split has one, times the distance.
    fn estimate(&self, split: &Split) -> Vec<f64> {
        split
            .children
            .iter()
            .map(|child| {
                let (sum, count) = match self.counts[split.key][child.side] {
                    0 => (self.total[child.side], self.total_count[child.side]),
                    count => (self.sums[split.key][child.side], count),
                };
                let unit = if count == 0 {
                    1.0
                } else {
                    sum / f64::from(count)
                };
                unit * child.distance
            })
            .collect()
    }
}

/// A child's LP in probing.
#[derive(Clone, Copy)]
enum ChildLp {
    /// Infeasible, or its bound reaches the cutoff.
    Closed,
    /// Solved: its value, a bound of the child.
    Bound(f64),
    /// Stopped at the iteration limit: its value, an estimate for scoring only.
    Estimate(f64),
    /// Not solved.
    Unknown,
}

impl ChildLp {
    /// The child's bound for [`ffi::SCIPupdateNodeLowerbound`], if proved.
    fn bound(self) -> Option<f64> {
        match self {
            ChildLp::Bound(value) => Some(value),
            _ => None,
        }
    }

    /// The gain over the node's LP value `base` for the pseudocosts: of a solved LP only.
    fn learned(self, base: f64) -> Option<f64> {
        match self {
            ChildLp::Bound(value) => Some((value - base).max(0.0)),
            _ => None,
        }
    }

    /// The gain over the node's LP value `base`, for scoring: a closed child's is
    /// infinite (a split scores by its two smallest gains, so with one child closed by
    /// its two others).
    fn gain(self, base: f64) -> f64 {
        match self {
            ChildLp::Bound(value) | ChildLp::Estimate(value) => (value - base).max(0.0),
            ChildLp::Closed => f64::INFINITY,
            ChildLp::Unknown => 0.0,
        }
    }
}

/// What probing decided.
enum Decision {
    /// Branch on split `index`, its children's LPs in order.
    Branch(usize, Vec<ChildLp>),
    /// Close these columns at the node: every other child was closed.
    Reduce(Vec<*mut ffi::SCIP_VAR>),
    /// Every child of some split is closed: so is the node.
    Cutoff,
}

impl ArrowBranching {
    /// Branches at the node of the current LP solution; SCIP's result.
    fn branch(&self, scip: *mut ffi::SCIP) -> Result<ffi::SCIP_RESULT, ScipCallFailed> {
        let splits = self.splits(scip)?;
        if splits.is_empty() {
            return Ok(ffi::SCIP_Result_SCIP_DIDNOTRUN);
        }
        let decision = if splits.len() == 1 {
            Decision::Branch(0, Vec::new())
        } else {
            // SAFETY: the live instance, in the branching callback of an LP solution.
            unsafe { self.choose(scip, &splits)? }
        };
        match decision {
            Decision::Branch(index, lps) => {
                // SAFETY: as above.
                unsafe { create_children(scip, &splits[index], &lps)? };
                Ok(ffi::SCIP_Result_SCIP_BRANCHED)
            }
            Decision::Reduce(columns) => {
                for var in columns {
                    // SAFETY: as above; a transformed column of the instance.
                    check(unsafe { ffi::SCIPchgVarUb(scip, var, 0.0) })?;
                }
                Ok(ffi::SCIP_Result_SCIP_REDUCEDDOM)
            }
            Decision::Cutoff => Ok(ffi::SCIP_Result_SCIP_CUTOFF),
        }
    }

    /// How many of the most fractional arrows are candidates at a node.
    fn candidates(&self) -> usize {
        if self.reliability == 0 {
            self.probes
        } else {
            self.probes * CANDIDATES_PER_PROBE
        }
    }

    /// Chooses among `splits` as reliability branching does: splits whose pseudocosts
    /// are reliable are scored by them, the others (at most [`ArrowBranching::probes`],
    /// the best estimated first) by probing, which also teaches the pseudocosts. With a
    /// reliability of 0 every split is probed.
    ///
    /// # Safety
    /// `scip` must be live, in the branching callback of an LP solution.
    unsafe fn choose(
        &self,
        scip: *mut ffi::SCIP,
        splits: &[Split],
    ) -> Result<Decision, ScipCallFailed> {
        let mut pseudocosts = self.pseudocosts.borrow_mut();
        let (probed, reliable) = if self.reliability == 0 {
            ((0..splits.len()).collect(), None)
        } else {
            // SAFETY: see the function's contract.
            unsafe { self.rank(scip, splits, &pseudocosts) }
        };
        // SAFETY: see the function's contract.
        let best = unsafe { probe(scip, splits, &probed, &mut pseudocosts)? };
        Ok(match (best, reliable) {
            (Some((probed, _)), Some((estimated, index))) if estimated > probed => {
                Decision::Branch(index, Vec::new())
            }
            (Some((_, decision)), _) => decision,
            (None, Some((_, index))) => Decision::Branch(index, Vec::new()),
            (None, None) => Decision::Branch(0, Vec::new()),
        })
    }

    /// The splits to probe (the unreliable ones, at most [`ArrowBranching::probes`], the
    /// best estimated first) and the best reliable one with its estimated score.
    ///
    /// # Safety
    /// `scip` must be live.
    unsafe fn rank(
        &self,
        scip: *mut ffi::SCIP,
        splits: &[Split],
        pseudocosts: &Pseudocosts,
    ) -> (Vec<usize>, Option<(f64, usize)>) {
        let mut reliable: Option<(f64, usize)> = None;
        let mut unreliable = Vec::new();
        for (index, split) in splits.iter().enumerate() {
            // SAFETY: see the function's contract.
            let score = unsafe { branch_score(scip, &pseudocosts.estimate(split)) };
            if pseudocosts.reliable(split, self.reliability) {
                if reliable.is_none_or(|(best, _)| score > best) {
                    reliable = Some((score, index));
                }
            } else {
                unreliable.push((score, index));
            }
        }
        unreliable.sort_by(|x, y| y.0.total_cmp(&x.0));
        unreliable.truncate(self.probes);
        let probed = unreliable.into_iter().map(|(_, index)| index).collect();
        (probed, reliable)
    }

    /// The key of the split of arrow `a`, of LP value `value`, and its arrows with their
    /// values: the arrow's own, or when the rule splits adjacencies and the LP puts
    /// weight on both arrows of the pair, the adjacency's.
    fn split_key(
        &self,
        a: usize,
        value: f64,
        arrow_value: impl Fn(usize) -> f64,
    ) -> (usize, Vec<(usize, f64)>) {
        let e = self.adjacency_of[a];
        if self.adjacency {
            let pair: Vec<(usize, f64)> = self.links.adjacencies[e]
                .arrows
                .iter()
                .map(|&arrow| (arrow, arrow_value(arrow)))
                .collect();
            if pair.len() == 2 && pair.iter().all(|&(_, v)| v >= TOLERANCE) {
                return (self.links.arrows.len() + e, pair);
            }
        }
        (a, vec![(a, value)])
    }

    /// The splits of the most fractional arrows of the LP solution, each once: the
    /// arrows', or their adjacencies' (see [`ArrowBranching::split_key`]).
    fn splits(&self, scip: *mut ffi::SCIP) -> Result<Vec<Split>, ScipCallFailed> {
        let mut engine = self.engine.borrow_mut();
        let values = engine.values(scip, std::ptr::null_mut())?;
        let candidates = self
            .links
            .most_fractional(&values, self.candidates(), TOLERANCE);
        let arrow_value = |a: usize| -> f64 {
            self.links.arrows[a]
                .columns
                .iter()
                .map(|&c| values[c])
                .sum()
        };
        let mut keys: Vec<(usize, Vec<(usize, f64)>)> = Vec::new();
        for (a, value) in candidates {
            let (key, arrows) = self.split_key(a, value, arrow_value);
            if keys.iter().all(|(k, _)| *k != key) {
                keys.push((key, arrows));
            }
        }
        engine.recycle(values);
        let ilp = engine.ilp.clone();
        let vars = engine.transformed(scip)?;
        // SAFETY: transformed columns of the live instance.
        let open = |c: usize| unsafe { ffi::SCIPvarGetUbLocal(vars[c]) } > 0.5;
        // The open columns of `arrow`'s child that hold its parent (`with`) or not.
        let columns_of = |arrow: usize, with: bool| -> Vec<*mut ffi::SCIP_VAR> {
            let arrow = &self.links.arrows[arrow];
            ilp.columns_of(arrow.child)
                .filter(|c| arrow.columns.binary_search(c).is_ok() == with && open(*c))
                .map(|c| vars[c])
                .collect()
        };
        Ok(keys
            .into_iter()
            .map(|(key, arrows)| Split {
                key,
                children: if arrows.len() == 2 {
                    adjacency_children(&arrows, columns_of)
                } else {
                    arrow_children(
                        arrows[0].1,
                        columns_of(arrows[0].0, true),
                        columns_of(arrows[0].0, false),
                    )
                },
            })
            .collect())
    }
}

/// The two children of an arrow of LP value `value`: absent (closing `holding`, the
/// child's families that hold the parent) and present (closing `lacking`, the others).
fn arrow_children(
    value: f64,
    holding: Vec<*mut ffi::SCIP_VAR>,
    lacking: Vec<*mut ffi::SCIP_VAR>,
) -> Vec<Child> {
    vec![
        Child {
            side: 0,
            columns: holding,
            distance: value,
            priority: 1.0 - value,
        },
        Child {
            side: 1,
            columns: lacking,
            distance: 1.0 - value,
            priority: value,
        },
    ]
}

/// The children of an adjacency u–v whose one or two arrows have LP values `arrows`
/// (arrow index, value): no edge (every family of either node holding the other
/// closed), then per arrow u → v present (v's families without u closed, and u's
/// holding v). Every DAG lies in exactly one. A direction whose arrow has no open
/// family left is no child. `columns_of(arrow, with)`: the open families of the
/// arrow's child that hold its parent (`with`) or lack it.
fn adjacency_children(
    arrows: &[(usize, f64)],
    columns_of: impl Fn(usize, bool) -> Vec<*mut ffi::SCIP_VAR>,
) -> Vec<Child> {
    let edge: f64 = arrows.iter().map(|&(_, value)| value).sum();
    let mut children = vec![Child {
        side: 2,
        columns: arrows
            .iter()
            .flat_map(|&(a, _)| columns_of(a, true))
            .collect(),
        distance: edge,
        priority: 1.0 - edge,
    }];
    for (side, &(arrow, value)) in arrows.iter().enumerate() {
        if columns_of(arrow, true).is_empty() {
            continue;
        }
        let mut columns = columns_of(arrow, false);
        let reverse = arrows.iter().filter(|&&(other, _)| other != arrow);
        columns.extend(reverse.flat_map(|&(other, _)| columns_of(other, true)));
        children.push(Child {
            side: side + 3,
            columns,
            distance: (1.0 - value) + (edge - value),
            priority: value,
        });
    }
    children
}

/// SCIP's branching score of a split whose children gain `gains`: as SCIP scores an
/// n-ary branching, by its two smallest gains.
///
/// # Safety
/// `scip` must be live.
unsafe fn branch_score(scip: *mut ffi::SCIP, gains: &[f64]) -> f64 {
    let mut sorted = gains.to_vec();
    sorted.sort_by(f64::total_cmp);
    let smallest = |i: usize| sorted.get(i).copied().unwrap_or(f64::INFINITY);
    let (first, second) = (smallest(0), smallest(1));
    // SAFETY: see the function's contract; SCIP allows a null variable.
    unsafe { ffi::SCIPgetBranchScore(scip, std::ptr::null_mut(), first, second) }
}

/// Probes the children of the splits at `indices`, recording their gains in
/// `pseudocosts`; the best split with its score, or what closed children prove (score
/// infinite); `None` when `indices` is empty.
///
/// # Safety
/// `scip` must be live, in the branching callback of an LP solution.
unsafe fn probe(
    scip: *mut ffi::SCIP,
    splits: &[Split],
    indices: &[usize],
    pseudocosts: &mut Pseudocosts,
) -> Result<Option<(f64, Decision)>, ScipCallFailed> {
    if indices.is_empty() {
        return Ok(None);
    }
    // SAFETY: see the function's contract.
    let (base, limit) = unsafe { (ffi::SCIPgetLPObjval(scip), iteration_limit(scip)) };
    // SAFETY: as above; not in probing (a branching callback).
    check(unsafe { ffi::SCIPstartProbing(scip) })?;
    let mut best: Option<(f64, Decision)> = None;
    for &index in indices {
        let split = &splits[index];
        let mut lps = Vec::with_capacity(split.children.len());
        for child in &split.children {
            // SAFETY: in probing, at depth 0.
            lps.push(unsafe { child_lp(scip, &child.columns, limit)? });
        }
        let mut open = split
            .children
            .iter()
            .zip(&lps)
            .filter(|(_, lp)| !matches!(lp, ChildLp::Closed));
        let decided = match (open.next(), open.next()) {
            (None, _) => Some(Decision::Cutoff),
            (Some((child, _)), None) => Some(Decision::Reduce(child.columns.clone())),
            _ => None,
        };
        if let Some(decision) = decided {
            best = Some((f64::INFINITY, decision));
            break;
        }
        let learned: Vec<Option<f64>> = lps.iter().map(|lp| lp.learned(base)).collect();
        pseudocosts.record(split, &learned);
        let gains: Vec<f64> = lps.iter().map(|lp| lp.gain(base)).collect();
        // SAFETY: as above.
        let score = unsafe { branch_score(scip, &gains) };
        if best.as_ref().is_none_or(|(s, _)| score > *s) {
            best = Some((score, Decision::Branch(index, lps)));
        }
    }
    // SAFETY: in probing, started above.
    check(unsafe { ffi::SCIPendProbing(scip) })?;
    Ok(best)
}

/// The LP of the child that closes `columns`, solved in a new probing node below the
/// probing root, which it returns to.
///
/// # Safety
/// `scip` must be live and in probing at depth 0.
unsafe fn child_lp(
    scip: *mut ffi::SCIP,
    columns: &[*mut ffi::SCIP_VAR],
    limit: c_int,
) -> Result<ChildLp, ScipCallFailed> {
    // SAFETY: see the function's contract; `columns` are transformed columns.
    unsafe {
        check(ffi::SCIPnewProbingNode(scip))?;
        for &var in columns {
            check(ffi::SCIPchgVarUbProbing(scip, var, 0.0))?;
        }
        let (mut error, mut cutoff): (c_uint, c_uint) = (0, 0);
        check(ffi::SCIPsolveProbingLP(
            scip,
            limit,
            &mut error,
            &mut cutoff,
        ))?;
        let status = ffi::SCIPgetLPSolstat(scip);
        let outcome = if cutoff != 0
            || status == ffi::SCIP_LPSolStat_SCIP_LPSOLSTAT_INFEASIBLE
            || status == ffi::SCIP_LPSolStat_SCIP_LPSOLSTAT_OBJLIMIT
        {
            ChildLp::Closed
        } else if error != 0 {
            ChildLp::Unknown
        } else if status == ffi::SCIP_LPSolStat_SCIP_LPSOLSTAT_OPTIMAL {
            let value = ffi::SCIPgetLPObjval(scip);
            if ffi::SCIPisGE(scip, value, ffi::SCIPgetCutoffbound(scip)) != 0 {
                ChildLp::Closed
            } else {
                ChildLp::Bound(value)
            }
        } else if status == ffi::SCIP_LPSolStat_SCIP_LPSOLSTAT_ITERLIMIT {
            ChildLp::Estimate(ffi::SCIPgetLPObjval(scip))
        } else {
            ChildLp::Unknown
        };
        check(ffi::SCIPbacktrackProbing(scip, 0))?;
        Ok(outcome)
    }
}

/// The iteration limit of a probing LP (see [`ITERATION_FACTOR`]).
///
/// # Safety
/// `scip` must be live, in the solving stage.
unsafe fn iteration_limit(scip: *mut ffi::SCIP) -> c_int {
    // SAFETY: see the function's contract.
    let (iterations, lps) = unsafe { (ffi::SCIPgetNLPIterations(scip), ffi::SCIPgetNLPs(scip)) };
    let average = iterations / lps.max(1);
    let limit = (ITERATION_FACTOR * average).clamp(MIN_ITERATIONS, MAX_ITERATIONS);
    c_int::try_from(limit).expect("the limit is at most MAX_ITERATIONS")
}

/// The children of `split` that probing did not close, each with its LP bound from
/// probing when there is one (`lps`: the children's LPs in order, or empty).
///
/// # Safety
/// `scip` must be live, in the branching callback.
unsafe fn create_children(
    scip: *mut ffi::SCIP,
    split: &Split,
    lps: &[ChildLp],
) -> Result<(), ScipCallFailed> {
    for (index, child) in split.children.iter().enumerate() {
        let lp = lps.get(index).copied().unwrap_or(ChildLp::Unknown);
        if matches!(lp, ChildLp::Closed) {
            continue;
        }
        // SAFETY: see the function's contract; the columns are transformed columns.
        unsafe {
            let estimate = lp
                .bound()
                .unwrap_or_else(|| ffi::SCIPgetLocalTransEstimate(scip));
            let mut node = std::ptr::null_mut();
            check(ffi::SCIPcreateChild(
                scip,
                &mut node,
                child.priority,
                estimate,
            ))?;
            for &var in &child.columns {
                check(ffi::SCIPchgVarUbNode(scip, node, var, 0.0))?;
            }
            if let Some(bound) = lp.bound() {
                check(ffi::SCIPupdateNodeLowerbound(scip, node, bound))?;
            }
        }
    }
    Ok(())
}

unsafe extern "C" fn execute_lp(
    scip: *mut ffi::SCIP,
    branchrule: *mut ffi::SCIP_BRANCHRULE,
    _allowaddcons: c_uint,
    result: *mut ffi::SCIP_RESULT,
) -> ffi::SCIP_RETCODE {
    // SAFETY: SCIP calls this with the rule made by `include` and a live output slot.
    unsafe {
        let rule = &*(ffi::SCIPbranchruleGetData(branchrule) as *const ArrowBranching);
        match rule.branch(scip) {
            Ok(outcome) => {
                *result = outcome;
                ffi::SCIP_Retcode_SCIP_OKAY
            }
            Err(ScipCallFailed(code)) => code,
        }
    }
}

unsafe extern "C" fn free(
    _scip: *mut ffi::SCIP,
    branchrule: *mut ffi::SCIP_BRANCHRULE,
) -> ffi::SCIP_RETCODE {
    // SAFETY: the data was made by `Box::into_raw` in `include` and is freed once.
    unsafe {
        let data = ffi::SCIPbranchruleGetData(branchrule) as *mut ArrowBranching;
        drop(Box::from_raw(data));
        ffi::SCIPbranchruleSetData(branchrule, std::ptr::null_mut());
    }
    ffi::SCIP_Retcode_SCIP_OKAY
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(arrow: usize, value: f64) -> Split {
        Split {
            key: arrow,
            children: arrow_children(value, Vec::new(), Vec::new()),
        }
    }

    #[test]
    fn pseudocosts_are_mean_gains_per_unit_of_the_arrows_change() {
        let mut costs = Pseudocosts::new(3);
        // Arrow 0 at 0.5: absent gains 2 (4 per unit), present 1 (2 per unit).
        costs.record(&split(0, 0.5), &[Some(2.0), Some(1.0)]);
        // Arrow 0 at 0.25: absent gains 2 (8 per unit), present unknown.
        costs.record(&split(0, 0.25), &[Some(2.0), None]);
        let estimate = costs.estimate(&split(0, 0.5));
        let (absent, present) = (estimate[0], estimate[1]);
        assert!((absent - 0.5 * 6.0).abs() < 1e-12, "{absent}");
        assert!((present - 0.5 * 2.0).abs() < 1e-12, "{present}");
        assert!(costs.reliable(&split(0, 0.5), 1));
        assert!(
            !costs.reliable(&split(0, 0.5), 2),
            "present was learned once"
        );
        assert!(!costs.reliable(&split(1, 0.5), 1));
    }

    #[test]
    fn an_arrow_never_probed_takes_the_mean_over_all_arrows() {
        let mut costs = Pseudocosts::new(3);
        assert_eq!(
            costs.estimate(&split(2, 0.5)),
            [0.5, 0.5],
            "no pseudocost: 1 per unit"
        );
        costs.record(&split(0, 0.5), &[Some(1.0), Some(3.0)]);
        costs.record(&split(1, 0.5), &[Some(3.0), None]);
        let estimate = costs.estimate(&split(2, 0.25));
        let (absent, present) = (estimate[0], estimate[1]);
        assert!((absent - 0.25 * 4.0).abs() < 1e-12, "{absent}");
        assert!((present - 0.75 * 6.0).abs() < 1e-12, "{present}");
    }

    /// Stand-ins for transformed columns, never dereferenced.
    fn columns(ids: &[usize]) -> Vec<*mut ffi::SCIP_VAR> {
        ids.iter().map(|&id| id as *mut ffi::SCIP_VAR).collect()
    }

    /// Arrow 0 (u → v): v's families holding u are columns 1 and 2, the others 3.
    /// Arrow 1 (v → u): u's families holding v are 4 (or none when `reverse` is
    /// false), the others 5 and 6.
    fn columns_of(reverse: bool) -> impl Fn(usize, bool) -> Vec<*mut ffi::SCIP_VAR> {
        move |arrow, with| match (arrow, with) {
            (0, true) => columns(&[1, 2]),
            (0, false) => columns(&[3]),
            (1, true) if reverse => columns(&[4]),
            (1, true) => columns(&[]),
            _ => columns(&[5, 6]),
        }
    }

    #[test]
    fn an_adjacency_splits_into_no_edge_and_each_direction() {
        let children = adjacency_children(&[(0, 0.4), (1, 0.5)], columns_of(true));
        let sides: Vec<(usize, Vec<*mut ffi::SCIP_VAR>)> = children
            .iter()
            .map(|child| (child.side, child.columns.clone()))
            .collect();
        assert_eq!(
            sides,
            vec![
                (2, columns(&[1, 2, 4])),
                (3, columns(&[3, 4])),
                (4, columns(&[5, 6, 1, 2])),
            ]
        );
        let distances: Vec<f64> = children.iter().map(|child| child.distance).collect();
        let expected = [0.9, 0.6 + 0.5, 0.5 + 0.4];
        for (distance, expected) in distances.iter().zip(expected) {
            assert!((distance - expected).abs() < 1e-12, "{distances:?}");
        }
        let priorities: Vec<f64> = children.iter().map(|child| child.priority).collect();
        assert!((priorities[0] - 0.1).abs() < 1e-12, "{priorities:?}");
        assert_eq!(priorities[1..], [0.4, 0.5]);
    }

    #[test]
    fn a_direction_with_no_open_family_is_no_child() {
        let children = adjacency_children(&[(0, 0.4), (1, 0.0)], columns_of(false));
        let sides: Vec<usize> = children.iter().map(|child| child.side).collect();
        assert_eq!(sides, vec![2, 3]);
        assert_eq!(children[1].columns, columns(&[3]));
    }
}
