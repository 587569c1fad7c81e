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
//! With adjacencies on ([`AdjacencySplits`]), the rule also splits on an unordered pair
//! {u, v} whose adjacency
//! `e(u–v) = a(u→v) + a(v→u)` is fractional, as GOBNILP branches on its adjacency
//! variables: one child closes every family of v holding u and of u holding v (no edge),
//! the other holds the local row `e(u–v) ≥ 1` (an edge, either way). Probing adds that
//! row to the probing LP.
//!
//! With a reliability above 0 the rule branches as reliability branching does (Achterberg,
//! Koch & Martin 2005), on arrows: each probing teaches the arrow's pseudocosts (the
//! children's LP gain per unit of the arrow's change); among more candidates, an arrow
//! probed that often is scored by its pseudocosts alone, and only the others, the best
//! estimated first, are probed.

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
/// or 1: the most fractional, no probing).
pub(super) fn include(
    scip: *mut ffi::SCIP,
    engine: &Shared,
    ilp: &FamilyIlp<'_>,
    probes: usize,
    reliability: u32,
    adjacencies: AdjacencySplits,
) -> Result<(), ScipCallFailed> {
    let desc = CString::new("arrows by family-column bounds").expect("static text");
    let links = ArrowLinks::of(ilp);
    let rule = ArrowBranching {
        engine: engine.clone(),
        pseudocosts: RefCell::new(Pseudocosts::new(links.len())),
        links,
        probes: probes.max(1),
        reliability,
        adjacencies,
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
    probes: usize,
    /// Probings of both children after which an arrow is scored by its pseudocosts
    /// alone; 0: every candidate is probed.
    reliability: u32,
    /// Whether fractional adjacencies are candidates.
    adjacencies: AdjacencySplits,
    pseudocosts: RefCell<Pseudocosts>,
}

/// Which splits on adjacencies the arrow rule makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AdjacencySplits {
    /// None: arrows only.
    Off,
    /// The most fractional adjacencies are candidates beside the arrows.
    Also,
    /// While some adjacency is fractional, only adjacencies are candidates.
    First,
}

/// How many candidate arrows per probe the rule scores when it has pseudocosts
/// ([`ArrowBranching::reliability`] above 0).
const CANDIDATES_PER_PROBE: usize = 4;

/// A candidate split: its object (an arrow's index into the links' arrows, or the
/// arrows' count plus an adjacency's index), its LP value, and its two children: the
/// transformed family columns the absent child closes (those still open at the node)
/// and what the present child holds.
struct Split {
    object: usize,
    absent: Vec<*mut ffi::SCIP_VAR>,
    present: Present,
    value: f64,
}

/// The present child of a split.
enum Present {
    /// An arrow's: these open columns closed (the child's families without the parent).
    Closes(Vec<*mut ffi::SCIP_VAR>),
    /// An adjacency's: at least one of these open columns (the families of either node
    /// holding the other) at 1, a local row.
    Covers(Vec<*mut ffi::SCIP_VAR>),
}

impl Split {
    /// How far the arrow's value moves in each child: to 0 when absent, to 1 when present.
    fn distances(&self) -> [f64; 2] {
        [self.value, 1.0 - self.value]
    }
}

/// The arrows' pseudocosts (Achterberg, Koch & Martin 2005, reliability branching, on
/// arrows instead of variables): per arrow and child (absent, present), the mean gain
/// of the child's LP value over its node's per unit of the arrow's change, learned from
/// the probings.
struct Pseudocosts {
    sums: Vec<[f64; 2]>,
    counts: Vec<[u32; 2]>,
    total: [f64; 2],
    total_count: [u32; 2],
}

impl Pseudocosts {
    fn new(arrows: usize) -> Self {
        Pseudocosts {
            sums: vec![[0.0; 2]; arrows],
            counts: vec![[0; 2]; arrows],
            total: [0.0; 2],
            total_count: [0; 2],
        }
    }

    /// Records a probing of `split` whose children gained `gains` over the node's LP.
    fn record(&mut self, split: &Split, gains: [Option<f64>; 2]) {
        for (side, (gain, distance)) in gains.into_iter().zip(split.distances()).enumerate() {
            let Some(gain) = gain else { continue };
            let unit = gain / distance.max(TOLERANCE);
            self.sums[split.object][side] += unit;
            self.counts[split.object][side] += 1;
            self.total[side] += unit;
            self.total_count[side] += 1;
        }
    }

    /// Whether both children of `arrow` were probed at least `reliability` times.
    fn reliable(&self, arrow: usize, reliability: u32) -> bool {
        self.counts[arrow].iter().all(|&count| count >= reliability)
    }

    /// The estimated gains of the children of `split`: the arrow's mean unit gain, or
    /// the mean over every arrow before the arrow has one, times the distance.
    fn estimate(&self, split: &Split) -> [f64; 2] {
        let mut gains = [0.0; 2];
        for (side, distance) in split.distances().into_iter().enumerate() {
            let (sum, count) = match self.counts[split.object][side] {
                0 => (self.total[side], self.total_count[side]),
                count => (self.sums[split.object][side], count),
            };
            let unit = if count == 0 {
                1.0
            } else {
                sum / f64::from(count)
            };
            gains[side] = unit * distance;
        }
        gains
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

    /// The gain over the node's LP value `base`, for scoring.
    fn gain(self, base: f64) -> f64 {
        match self {
            ChildLp::Bound(value) | ChildLp::Estimate(value) => (value - base).max(0.0),
            ChildLp::Closed | ChildLp::Unknown => 0.0,
        }
    }
}

/// What probing decided.
enum Decision {
    /// Branch on split `index`, the children's LPs (absent, present).
    Branch(usize, [ChildLp; 2]),
    /// Close these columns at the node: the other child was closed.
    Reduce(Vec<*mut ffi::SCIP_VAR>),
    /// Both children of some arrow are closed: so is the node.
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
            Decision::Branch(0, [ChildLp::Unknown; 2])
        } else {
            // SAFETY: the live instance, in the branching callback of an LP solution.
            unsafe { self.choose(scip, &splits)? }
        };
        match decision {
            Decision::Branch(index, lps) => {
                // SAFETY: as above.
                unsafe { create_children(scip, &splits[index], lps)? };
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

    /// Chooses among `splits` as reliability branching does: arrows whose pseudocosts
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
                Decision::Branch(index, [ChildLp::Unknown; 2])
            }
            (Some((_, decision)), _) => decision,
            (None, Some((_, index))) => Decision::Branch(index, [ChildLp::Unknown; 2]),
            (None, None) => Decision::Branch(0, [ChildLp::Unknown; 2]),
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
            let score = unsafe { branch_score(scip, pseudocosts.estimate(split)) };
            if pseudocosts.reliable(split.object, self.reliability) {
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

    /// The splits of the most fractional arrows of the LP solution, and of its most
    /// fractional adjacencies when those are candidates.
    fn splits(&self, scip: *mut ffi::SCIP) -> Result<Vec<Split>, ScipCallFailed> {
        let mut engine = self.engine.borrow_mut();
        let values = engine.values(scip, std::ptr::null_mut())?;
        let count = self.candidates();
        let adjacencies = match self.adjacencies {
            AdjacencySplits::Off => Vec::new(),
            AdjacencySplits::Also | AdjacencySplits::First => self
                .links
                .most_fractional_adjacencies(&values, count, TOLERANCE),
        };
        let arrows = if self.adjacencies == AdjacencySplits::First && !adjacencies.is_empty() {
            Vec::new()
        } else {
            self.links.most_fractional(&values, count, TOLERANCE)
        };
        engine.recycle(values);
        let ilp = engine.ilp.clone();
        let vars = engine.transformed(scip)?;
        // SAFETY: transformed columns of the live instance.
        let open = |c: usize| unsafe { ffi::SCIPvarGetUbLocal(vars[c]) } > 0.5;
        // The open columns of arrow `a`'s child whose parent set holds (`with`) or lacks
        // its parent.
        let columns = |a: usize, with: bool| -> Vec<*mut ffi::SCIP_VAR> {
            let arrow = &self.links.arrows[a];
            let holds = |c: &usize| arrow.columns.binary_search(c).is_ok();
            ilp.columns_of(arrow.child)
                .filter(|c| holds(c) == with && open(*c))
                .map(|c| vars[c])
                .collect()
        };
        let mut splits: Vec<Split> = arrows
            .into_iter()
            .map(|(a, value)| Split {
                object: a,
                absent: columns(a, true),
                present: Present::Closes(columns(a, false)),
                value,
            })
            .collect();
        splits.extend(adjacencies.into_iter().map(|(e, value)| {
            let either: Vec<_> = self.links.adjacencies[e]
                .arrows
                .iter()
                .flat_map(|&a| columns(a, true))
                .collect();
            Split {
                object: self.links.arrows.len() + e,
                absent: either.clone(),
                present: Present::Covers(either),
                value,
            }
        }));
        Ok(splits)
    }
}

/// SCIP's branching score of children gaining `gains` (absent, present).
///
/// # Safety
/// `scip` must be live.
unsafe fn branch_score(scip: *mut ffi::SCIP, gains: [f64; 2]) -> f64 {
    // SAFETY: see the function's contract; SCIP allows a null variable.
    unsafe { ffi::SCIPgetBranchScore(scip, std::ptr::null_mut(), gains[0], gains[1]) }
}

/// Probes the children of the splits at `indices`, recording their gains in
/// `pseudocosts`; the best split with its score, or what a closed child proves (score
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
        // SAFETY: in probing, at depth 0.
        let absent = unsafe { child_lp(scip, &split.absent, None, limit)? };
        // SAFETY: as above.
        let present = unsafe {
            match &split.present {
                Present::Closes(columns) => child_lp(scip, columns, None, limit)?,
                Present::Covers(columns) => child_lp(scip, &[], Some(columns), limit)?,
            }
        };
        let decided = match (absent, &split.present, present) {
            (ChildLp::Closed, _, ChildLp::Closed) => Some(Decision::Cutoff),
            (ChildLp::Closed, Present::Closes(columns), _) => {
                Some(Decision::Reduce(columns.clone()))
            }
            (ChildLp::Closed, Present::Covers(_), _) => {
                // The edge is forced: its child alone, with its row.
                Some(Decision::Branch(index, [absent, present]))
            }
            (_, _, ChildLp::Closed) => Some(Decision::Reduce(split.absent.clone())),
            _ => None,
        };
        if let Some(decision) = decided {
            best = Some((f64::INFINITY, decision));
            break;
        }
        pseudocosts.record(split, [absent.learned(base), present.learned(base)]);
        // SAFETY: as above.
        let score = unsafe { branch_score(scip, [absent.gain(base), present.gain(base)]) };
        if best.as_ref().is_none_or(|(s, _)| score > *s) {
            best = Some((score, Decision::Branch(index, [absent, present])));
        }
    }
    // SAFETY: in probing, started above.
    check(unsafe { ffi::SCIPendProbing(scip) })?;
    Ok(best)
}

/// The LP of the child that closes `columns` and, with `cover`, holds the row "at
/// least one of `cover` at 1" (none of them open: the child is closed), solved in a new
/// probing node below the probing root, which it returns to.
///
/// # Safety
/// `scip` must be live and in probing at depth 0.
unsafe fn child_lp(
    scip: *mut ffi::SCIP,
    columns: &[*mut ffi::SCIP_VAR],
    cover: Option<&[*mut ffi::SCIP_VAR]>,
    limit: c_int,
) -> Result<ChildLp, ScipCallFailed> {
    if cover.is_some_and(<[_]>::is_empty) {
        return Ok(ChildLp::Closed);
    }
    // SAFETY: see the function's contract; `columns` and `cover` are transformed columns.
    unsafe {
        check(ffi::SCIPnewProbingNode(scip))?;
        for &var in columns {
            check(ffi::SCIPchgVarUbProbing(scip, var, 0.0))?;
        }
        if let Some(cover) = cover {
            let mut row = covering_row(scip, cover)?;
            check(ffi::SCIPaddRowProbing(scip, row))?;
            check(ffi::SCIPreleaseRow(scip, &mut row))?;
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

/// The two children of `split`: absent (priority 1 − a), then present (priority a),
/// each with its LP bound from probing when there is one; a child whose probing closed
/// it is not made.
///
/// # Safety
/// `scip` must be live, in the branching callback.
unsafe fn create_children(
    scip: *mut ffi::SCIP,
    split: &Split,
    lps: [ChildLp; 2],
) -> Result<(), ScipCallFailed> {
    let (closed, cover) = match &split.present {
        Present::Closes(columns) => (columns.as_slice(), None),
        Present::Covers(columns) => (&[][..], Some(columns.as_slice())),
    };
    let sides = [
        (split.absent.as_slice(), None, 1.0 - split.value, lps[0]),
        (closed, cover, split.value, lps[1]),
    ];
    for (columns, cover, priority, lp) in sides {
        if matches!(lp, ChildLp::Closed) {
            continue;
        }
        // SAFETY: see the function's contract; `columns` and `cover` are transformed
        // columns.
        unsafe {
            let estimate = lp
                .bound()
                .unwrap_or_else(|| ffi::SCIPgetLocalTransEstimate(scip));
            let mut child = std::ptr::null_mut();
            check(ffi::SCIPcreateChild(scip, &mut child, priority, estimate))?;
            for &var in columns {
                check(ffi::SCIPchgVarUbNode(scip, child, var, 0.0))?;
            }
            if let Some(cover) = cover {
                add_covering_constraint(scip, child, cover)?;
            }
            if let Some(bound) = lp.bound() {
                check(ffi::SCIPupdateNodeLowerbound(scip, child, bound))?;
            }
        }
    }
    Ok(())
}

/// The name of an adjacency's row and local constraint.
const EDGE: &CStr = c"edge";

/// A local row "at least one of `cover` at 1", captured by the caller.
///
/// # Safety
/// `scip` must be live, in the solving stage; `cover` transformed columns.
unsafe fn covering_row(
    scip: *mut ffi::SCIP,
    cover: &[*mut ffi::SCIP_VAR],
) -> Result<*mut ffi::SCIP_ROW, ScipCallFailed> {
    let mut row = std::ptr::null_mut();
    let count = c_int::try_from(cover.len()).expect("a node's columns fit a C int");
    // SAFETY: see the function's contract; SCIP copies the variable array.
    unsafe {
        let infinity = ffi::SCIPinfinity(scip);
        check(ffi::SCIPcreateEmptyRowUnspec(
            scip,
            &mut row,
            EDGE.as_ptr(),
            1.0,
            infinity,
            1,
            0,
            1,
        ))?;
        check(ffi::SCIPaddVarsToRowSameCoef(
            scip,
            row,
            count,
            cover.as_ptr().cast_mut(),
            1.0,
        ))?;
    }
    Ok(row)
}

/// Adds to `child` the local set-covering constraint "at least one of `cover` at 1".
///
/// # Safety
/// `scip` must be live, in the branching callback; `child` a child made there; `cover`
/// transformed columns.
unsafe fn add_covering_constraint(
    scip: *mut ffi::SCIP,
    child: *mut ffi::SCIP_NODE,
    cover: &[*mut ffi::SCIP_VAR],
) -> Result<(), ScipCallFailed> {
    let mut cons = std::ptr::null_mut();
    let count = c_int::try_from(cover.len()).expect("a node's columns fit a C int");
    // SAFETY: see the function's contract; SCIP copies the variable array. Flags: initial,
    // separated, enforced, not checked (a DAG outside the child is still a DAG),
    // propagated, local, not modifiable, not dynamic, not removable, sticking at the node.
    unsafe {
        check(ffi::SCIPcreateConsSetcover(
            scip,
            &mut cons,
            EDGE.as_ptr(),
            count,
            cover.as_ptr().cast_mut(),
            1,
            1,
            1,
            0,
            1,
            1,
            0,
            0,
            0,
            1,
        ))?;
        check(ffi::SCIPaddConsNode(
            scip,
            child,
            cons,
            std::ptr::null_mut(),
        ))?;
        check(ffi::SCIPreleaseCons(scip, &mut cons))?;
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

    fn split(object: usize, value: f64) -> Split {
        Split {
            object,
            absent: Vec::new(),
            present: Present::Closes(Vec::new()),
            value,
        }
    }

    #[test]
    fn pseudocosts_are_mean_gains_per_unit_of_the_arrows_change() {
        let mut costs = Pseudocosts::new(3);
        // Arrow 0 at 0.5: absent gains 2 (4 per unit), present 1 (2 per unit).
        costs.record(&split(0, 0.5), [Some(2.0), Some(1.0)]);
        // Arrow 0 at 0.25: absent gains 2 (8 per unit), present unknown.
        costs.record(&split(0, 0.25), [Some(2.0), None]);
        let [absent, present] = costs.estimate(&split(0, 0.5));
        assert!((absent - 0.5 * 6.0).abs() < 1e-12, "{absent}");
        assert!((present - 0.5 * 2.0).abs() < 1e-12, "{present}");
        assert!(costs.reliable(0, 1));
        assert!(!costs.reliable(0, 2), "present was learned once");
        assert!(!costs.reliable(1, 1));
    }

    #[test]
    fn an_arrow_never_probed_takes_the_mean_over_all_arrows() {
        let mut costs = Pseudocosts::new(3);
        assert_eq!(
            costs.estimate(&split(2, 0.5)),
            [0.5, 0.5],
            "no pseudocost: 1 per unit"
        );
        costs.record(&split(0, 0.5), [Some(1.0), Some(3.0)]);
        costs.record(&split(1, 0.5), [Some(3.0), None]);
        let [absent, present] = costs.estimate(&split(2, 0.25));
        assert!((absent - 0.25 * 4.0).abs() < 1e-12, "{absent}");
        assert!((present - 0.75 * 6.0).abs() < 1e-12, "{present}");
    }
}
