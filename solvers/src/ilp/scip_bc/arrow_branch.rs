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

use super::engine::{check, ScipCallFailed, Shared};
use bnsl_formulations::family::arrows::ArrowLinks;
use bnsl_formulations::FamilyIlp;
use russcip::ffi;
use std::cell::RefCell;
use std::ffi::{CStr, CString};
use std::os::raw::{c_int, c_uint};

/// The rule's name in SCIP.
pub(super) const NAME: &CStr = c"arrows";

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
) -> Result<(), ScipCallFailed> {
    let desc = CString::new("arrows by family-column bounds").expect("static text");
    let links = ArrowLinks::of(ilp);
    let rule = ArrowBranching {
        engine: engine.clone(),
        pseudocosts: RefCell::new(Pseudocosts::new(links.arrows.len())),
        links,
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
    probes: usize,
    /// Probings of both children after which an arrow is scored by its pseudocosts
    /// alone; 0: every candidate is probed.
    reliability: u32,
    pseudocosts: RefCell<Pseudocosts>,
}

/// How many candidate arrows per probe the rule scores when it has pseudocosts
/// ([`ArrowBranching::reliability`] above 0).
const CANDIDATES_PER_PROBE: usize = 4;

/// A candidate arrow's two children, each as the transformed family columns it closes
/// (those still open at the node), the arrow (an index into the links) and its LP value.
struct Split {
    arrow: usize,
    absent: Vec<*mut ffi::SCIP_VAR>,
    present: Vec<*mut ffi::SCIP_VAR>,
    value: f64,
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
            self.sums[split.arrow][side] += unit;
            self.counts[split.arrow][side] += 1;
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
            let (sum, count) = match self.counts[split.arrow][side] {
                0 => (self.total[side], self.total_count[side]),
                count => (self.sums[split.arrow][side], count),
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
            if pseudocosts.reliable(split.arrow, self.reliability) {
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

    /// The splits of the most fractional arrows of the LP solution.
    fn splits(&self, scip: *mut ffi::SCIP) -> Result<Vec<Split>, ScipCallFailed> {
        let mut engine = self.engine.borrow_mut();
        let values = engine.values(scip, std::ptr::null_mut())?;
        let candidates = self
            .links
            .most_fractional(&values, self.candidates(), TOLERANCE);
        engine.recycle(values);
        let ilp = engine.ilp.clone();
        let vars = engine.transformed(scip)?;
        // SAFETY: transformed columns of the live instance.
        let open = |c: usize| unsafe { ffi::SCIPvarGetUbLocal(vars[c]) } > 0.5;
        Ok(candidates
            .into_iter()
            .map(|(a, value)| {
                let arrow = &self.links.arrows[a];
                let holds = |c: &usize| arrow.columns.binary_search(c).is_ok();
                let close = |with: bool| {
                    ilp.columns_of(arrow.child)
                        .filter(|c| holds(c) == with && open(*c))
                        .map(|c| vars[c])
                        .collect()
                };
                Split {
                    arrow: a,
                    absent: close(true),
                    present: close(false),
                    value,
                }
            })
            .collect())
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
        let absent = unsafe { child_lp(scip, &split.absent, limit)? };
        // SAFETY: as above.
        let present = unsafe { child_lp(scip, &split.present, limit)? };
        let decided = match (absent, present) {
            (ChildLp::Closed, ChildLp::Closed) => Some(Decision::Cutoff),
            (ChildLp::Closed, _) => Some(Decision::Reduce(split.present.clone())),
            (_, ChildLp::Closed) => Some(Decision::Reduce(split.absent.clone())),
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

/// The two children of `split`: absent (priority 1 − a), then present (priority a),
/// each with its LP bound from probing when there is one.
///
/// # Safety
/// `scip` must be live, in the branching callback.
unsafe fn create_children(
    scip: *mut ffi::SCIP,
    split: &Split,
    lps: [ChildLp; 2],
) -> Result<(), ScipCallFailed> {
    let sides = [
        (&split.absent, 1.0 - split.value, lps[0]),
        (&split.present, split.value, lps[1]),
    ];
    for (columns, priority, lp) in sides {
        // SAFETY: see the function's contract; `columns` are transformed columns.
        unsafe {
            let estimate = lp
                .bound()
                .unwrap_or_else(|| ffi::SCIPgetLocalTransEstimate(scip));
            let mut child = std::ptr::null_mut();
            check(ffi::SCIPcreateChild(scip, &mut child, priority, estimate))?;
            for &var in columns.iter() {
                check(ffi::SCIPchgVarUbNode(scip, child, var, 0.0))?;
            }
            if let Some(bound) = lp.bound() {
                check(ffi::SCIPupdateNodeLowerbound(scip, child, bound))?;
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
            arrow,
            absent: Vec::new(),
            present: Vec::new(),
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
