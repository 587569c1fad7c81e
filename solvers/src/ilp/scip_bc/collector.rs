//! The constraint handler "collect": the branch and cut of seed 002 that collects every
//! DAG scoring at least the objective limit, instead of proving one optimal.
//!
//! Its priorities are below every other handler's, so it sees only solutions that
//! every other constraint accepts: DAGs of candidate families.
//! - check (solutions of heuristics): the DAG is recorded ([`Found`]) and the solution
//!   rejected, so SCIP's primal bound stays at the objective limit and the search
//!   prunes by the limit alone;
//! - LP and pseudo-solution enforcement (a DAG G at a node): G is recorded and excluded
//!   by a no-good enforced by branching: with c₁ … c_k the columns of G not fixed to 1
//!   at the node, child i fixes c₁ … c_{i−1} to 1 and c_i to 0. The children cover the
//!   node's DAGs except G, and no DAG twice, so no no-good row is stored and a DAG is
//!   never reached again at another node. When k = 0 the node holds G alone and is cut
//!   off. The c_i are ordered by `ilp::small_region::settling_order`, and a child whose
//!   region is small is collected by enumeration there instead of being created.
//!
//! Cluster separation and the acyclicity handler run as in the optimising solve.
//! SCIP stops (interrupted) once the network limit is reached.

use super::engine::{check, ScipCallFailed, Shared};
use super::handler::{self, code, Handler};
use crate::ilp::collect::{CollectProgress, Found, Offered};
use crate::ilp::small_region::{child_region, dags_of_region, settling_order};
use bnsl_formulations::FamilyIlp;
use russcip::ffi;
use std::cell::RefCell;
use std::os::raw::{c_int, c_uint};
use std::rc::Rc;

/// Enforcement and check priority: below every handler SCIP includes (logicor's is
/// −2,000,000).
const PRIORITY: c_int = -3_000_000;

/// The state of the handler: the engine (program, variables), the DAGs found and the
/// progress callback.
pub(super) struct Collector {
    engine: Shared,
    /// The DAGs collected.
    pub found: Found,
    progress: &'static dyn Fn(&CollectProgress),
}

/// A collector shared between the handler and the solve that reads it afterwards.
pub(super) type SharedCollector = Rc<RefCell<Collector>>;

impl Collector {
    /// A collector recording into `found`.
    ///
    /// # Safety
    /// `progress` must outlive the SCIP instance the handler is included in.
    pub(super) unsafe fn new(
        engine: Shared,
        found: Found,
        progress: &dyn Fn(&CollectProgress),
    ) -> Self {
        // SAFETY: lifetime only; the caller guarantees `progress` outlives the handler.
        let progress: &'static dyn Fn(&CollectProgress) = unsafe { std::mem::transmute(progress) };
        Collector {
            engine,
            found,
            progress,
        }
    }

    /// Offers the DAG of `sol` (null: the node's LP or pseudo solution); returns its
    /// chosen columns. Stops SCIP at the network limit.
    fn offer(
        &mut self,
        scip: *mut ffi::SCIP,
        sol: *mut ffi::SCIP_SOL,
    ) -> Result<Vec<usize>, ScipCallFailed> {
        let mut engine = self.engine.borrow_mut();
        let values = engine.values(scip, sol)?;
        let columns = engine.ilp.chosen_columns(&values);
        engine.recycle(values);
        record(&mut self.found, self.progress, scip, &engine.ilp, &columns)?;
        Ok(columns)
    }

    /// Excludes the DAG of `columns` from the node by branching (see the module doc);
    /// the enforcement result. A child whose region is small is collected by
    /// enumeration (module `ilp::small_region`) instead of being created.
    fn exclude(
        &mut self,
        scip: *mut ffi::SCIP,
        columns: &[usize],
    ) -> Result<ffi::SCIP_RESULT, ScipCallFailed> {
        let mut engine = self.engine.borrow_mut();
        let max_part = if engine.has_links() {
            0
        } else {
            engine.settings.region_part
        };
        let vars = engine.transformed(scip)?.to_vec();
        // SAFETY: local bounds of live transformed variables.
        let free: Vec<usize> = columns
            .iter()
            .copied()
            .filter(|&c| unsafe { ffi::SCIPvarGetLbLocal(vars[c]) } < 0.5)
            .collect();
        if free.is_empty() {
            return Ok(ffi::SCIP_Result_SCIP_CUTOFF);
        }
        let ilp = &engine.ilp;
        let region = (max_part > 0).then(|| allowed_at_node(ilp, &vars));
        let free = match &region {
            Some(region) => settling_order(ilp, region, &free, self.found.threshold()),
            None => free,
        };
        let mut branched = false;
        for (i, &column) in free.iter().enumerate() {
            if let Some(region) = &region {
                let child = child_region(ilp, region, &free[..i], column);
                let threshold = self.found.threshold();
                if let Some(dags) = dags_of_region(ilp, &child, threshold, max_part) {
                    for dag in &dags {
                        record(&mut self.found, self.progress, scip, ilp, dag)?;
                    }
                    continue;
                }
            }
            // SAFETY: a child of the focus node, made in its enforcement, with bound
            // changes on live transformed variables.
            unsafe {
                let estimate = ffi::SCIPgetLocalTransEstimate(scip);
                let mut child = std::ptr::null_mut();
                check(ffi::SCIPcreateChild(scip, &mut child, 0.0, estimate))?;
                for &kept in &free[..i] {
                    check(ffi::SCIPchgVarLbNode(scip, child, vars[kept], 1.0))?;
                }
                check(ffi::SCIPchgVarUbNode(scip, child, vars[column], 0.0))?;
            }
            branched = true;
        }
        Ok(if branched {
            ffi::SCIP_Result_SCIP_BRANCHED
        } else {
            ffi::SCIP_Result_SCIP_CUTOFF
        })
    }

    /// Records and excludes the node's solution; the enforcement result.
    fn enforce(&mut self, scip: *mut ffi::SCIP) -> Result<ffi::SCIP_RESULT, ScipCallFailed> {
        let columns = self.offer(scip, std::ptr::null_mut())?;
        self.exclude(scip, &columns)
    }
}

/// Records the DAG of `columns` in `found` and reports it on `progress` if new; stops
/// SCIP at the network limit.
fn record(
    found: &mut Found,
    progress: &dyn Fn(&CollectProgress),
    scip: *mut ffi::SCIP,
    ilp: &FamilyIlp<'_>,
    columns: &[usize],
) -> Result<(), ScipCallFailed> {
    if found.offer(ilp, columns) == Offered::Recorded {
        // SAFETY: a query on the live instance in the solving stage.
        let nodes = unsafe { ffi::SCIPgetNTotalNodes(scip) };
        progress(&CollectProgress {
            networks: found.len(),
            nodes: u64::try_from(nodes).unwrap_or(0),
        });
        if found.is_full() {
            // SAFETY: the live instance, in the solving stage.
            check(unsafe { ffi::SCIPinterruptSolve(scip) })?;
        }
    }
    Ok(())
}

/// Per node of the network, the columns the focus node allows: the one fixed to 1 if
/// any, else those not fixed to 0.
fn allowed_at_node(ilp: &FamilyIlp<'_>, vars: &[*mut ffi::SCIP_VAR]) -> Vec<Vec<usize>> {
    (0..ilp.n())
        .map(|v| {
            let columns = ilp.columns_of(v);
            // SAFETY: local bounds of live transformed variables.
            let fixed = columns
                .clone()
                .find(|&c| unsafe { ffi::SCIPvarGetLbLocal(vars[c]) } > 0.5);
            match fixed {
                Some(c) => vec![c],
                None => columns
                    .filter(|&c| unsafe { ffi::SCIPvarGetUbLocal(vars[c]) } > 0.5)
                    .collect(),
            }
        })
        .collect()
}

/// The handler's name in SCIP.
pub(super) const NAME: &str = "collect";

/// Includes the handler into `scip`, owning a handle on `collector`.
pub(super) fn include(
    scip: *mut ffi::SCIP,
    collector: &SharedCollector,
) -> Result<(), ScipCallFailed> {
    let handler = Handler {
        name: NAME,
        description: "collects every DAG above the objective limit",
        priority: PRIORITY,
        enforce_lp,
        enforce_pseudo,
        check: check_solution,
    };
    handler::include(scip, handler, collector.clone()).map(|_| ())
}

/// The collector behind a handler.
///
/// # Safety
/// `conshdlr` must be the handler created by [`include`].
unsafe fn collector_of<'a>(conshdlr: *mut ffi::SCIP_CONSHDLR) -> &'a SharedCollector {
    // SAFETY: see the function's contract.
    unsafe { handler::data_of(conshdlr) }
}

/// Enforcement of a node's solution that every other handler accepted
/// (`solinfeasible` false): record and exclude it.
///
/// # Safety
/// As for SCIP's enforcement callbacks of the handler made by [`include`].
unsafe fn enforce_node(
    scip: *mut ffi::SCIP,
    conshdlr: *mut ffi::SCIP_CONSHDLR,
    solinfeasible: c_uint,
    result: *mut ffi::SCIP_RESULT,
) -> ffi::SCIP_RETCODE {
    if solinfeasible != 0 {
        // SAFETY: `result` is SCIP's output slot.
        unsafe { *result = ffi::SCIP_Result_SCIP_FEASIBLE };
        return ffi::SCIP_Retcode_SCIP_OKAY;
    }
    // SAFETY: SCIP calls this with the handler made by `include`.
    let collector = unsafe { collector_of(conshdlr) };
    code((|| {
        let outcome = collector.borrow_mut().enforce(scip)?;
        // SAFETY: `result` is SCIP's output slot.
        unsafe { *result = outcome };
        Ok(())
    })())
}

unsafe extern "C" fn enforce_lp(
    scip: *mut ffi::SCIP,
    conshdlr: *mut ffi::SCIP_CONSHDLR,
    _conss: *mut *mut ffi::SCIP_CONS,
    _nconss: c_int,
    _nusefulconss: c_int,
    solinfeasible: c_uint,
    result: *mut ffi::SCIP_RESULT,
) -> ffi::SCIP_RETCODE {
    // SAFETY: forwarded from SCIP's call.
    unsafe { enforce_node(scip, conshdlr, solinfeasible, result) }
}

unsafe extern "C" fn enforce_pseudo(
    scip: *mut ffi::SCIP,
    conshdlr: *mut ffi::SCIP_CONSHDLR,
    _conss: *mut *mut ffi::SCIP_CONS,
    _nconss: c_int,
    _nusefulconss: c_int,
    solinfeasible: c_uint,
    objinfeasible: c_uint,
    result: *mut ffi::SCIP_RESULT,
) -> ffi::SCIP_RETCODE {
    if objinfeasible != 0 {
        // Below the objective limit: SCIP cuts the node off.
        // SAFETY: `result` is SCIP's output slot.
        unsafe { *result = ffi::SCIP_Result_SCIP_DIDNOTRUN };
        return ffi::SCIP_Retcode_SCIP_OKAY;
    }
    // SAFETY: forwarded from SCIP's call.
    unsafe { enforce_node(scip, conshdlr, solinfeasible, result) }
}

unsafe extern "C" fn check_solution(
    scip: *mut ffi::SCIP,
    conshdlr: *mut ffi::SCIP_CONSHDLR,
    _conss: *mut *mut ffi::SCIP_CONS,
    _nconss: c_int,
    sol: *mut ffi::SCIP_SOL,
    _checkintegrality: c_uint,
    _checklprows: c_uint,
    _printreason: c_uint,
    _completely: c_uint,
    result: *mut ffi::SCIP_RESULT,
) -> ffi::SCIP_RETCODE {
    // SAFETY: SCIP calls this with the handler made by `include`.
    let collector = unsafe { collector_of(conshdlr) };
    code((|| {
        collector.borrow_mut().offer(scip, sol)?;
        // SAFETY: `result` is SCIP's output slot.
        unsafe { *result = ffi::SCIP_Result_SCIP_INFEASIBLE };
        Ok(())
    })())
}
