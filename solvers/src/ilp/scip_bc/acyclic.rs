//! The constraint handler "acyclic": the chosen families must form a DAG (the cluster
//! constraints of Bartlett & Cussens 2017, eq. (3), enforced lazily as in GOBNILP's
//! `cons_dagcluster`).
//!
//! - check: a solution is feasible iff the graph of its chosen families is acyclic;
//! - LP enforcement (integral LP solutions, the handler's priority being below the
//!   integrality handler's): a cyclic choice yields the cluster cuts of its strongly
//!   connected components and short cycles, added as global rows (`SEPARATED`);
//! - pseudo-solution enforcement (no LP at the node): a cyclic choice asks SCIP to
//!   branch (`INFEASIBLE`), or cuts the node off when every variable is fixed.
//!
//! The handler needs no constraint objects, so it adds no variable locks: the engine
//! turns SCIP's strong dual reductions (those that reason from locks) off instead. It
//! is written against SCIP's C API because russcip's wrapper has neither a
//! pseudo-solution enforcement nor a lock callback.

use super::engine::{Engine, ScipCallFailed, Shared};
use super::handler::{self, code, Handler};
use bnsl_formulations::family::separation::{separate_heuristically, Support};
use bnsl_formulations::{ClusterCut, FamilyIlp};
use russcip::ffi;
use std::os::raw::{c_int, c_uint};

/// Enforcement and check priority: below integrality (0), so only integral LP solutions
/// reach the LP enforcement.
const PRIORITY: c_int = -100;

/// The handler's name in SCIP.
pub(super) const NAME: &str = "acyclic";

/// Includes the handler into `scip`, owning a handle on `engine`.
pub(super) fn include(scip: *mut ffi::SCIP, engine: &Shared) -> Result<(), ScipCallFailed> {
    let handler = Handler {
        name: NAME,
        description: "the chosen parent sets form a DAG",
        priority: PRIORITY,
        enforce_lp,
        enforce_pseudo,
        check: check_solution,
    };
    let conshdlr = handler::include(scip, handler, engine.clone())?;
    engine.borrow_mut().conshdlr = conshdlr;
    Ok(())
}

/// The engine behind a handler.
///
/// # Safety
/// `conshdlr` must be the handler created by [`include`].
unsafe fn engine_of<'a>(conshdlr: *mut ffi::SCIP_CONSHDLR) -> &'a Shared {
    // SAFETY: see the function's contract.
    unsafe { handler::data_of(conshdlr) }
}

/// The cluster cuts violated by an integral choice: the heuristics on the support of the
/// chosen families (exact here: every non-trivial strongly connected component is a
/// violated cluster).
fn cuts_of_choice(ilp: &FamilyIlp<'_>, values: &[f64]) -> Vec<ClusterCut> {
    let mut chosen = vec![0.0; values.len()];
    for v in 0..ilp.n() {
        let best = ilp
            .columns_of(v)
            .max_by(|&a, &b| values[a].total_cmp(&values[b]))
            .expect("every node has a candidate");
        chosen[best] = 1.0;
    }
    let support = Support::new(ilp, &chosen);
    let options = Default::default();
    separate_heuristically(ilp, &support, &options)
}

unsafe extern "C" fn enforce_lp(
    scip: *mut ffi::SCIP,
    conshdlr: *mut ffi::SCIP_CONSHDLR,
    _conss: *mut *mut ffi::SCIP_CONS,
    _nconss: c_int,
    _nusefulconss: c_int,
    _solinfeasible: c_uint,
    result: *mut ffi::SCIP_RESULT,
) -> ffi::SCIP_RETCODE {
    // SAFETY: SCIP calls this with the handler made by `include`.
    let engine = unsafe { engine_of(conshdlr) };
    let mut engine = engine.borrow_mut();
    code((|| {
        let values = engine.values(scip, std::ptr::null_mut())?;
        let outcome = if engine.ilp.graph_of(&values).is_acyclic() {
            ffi::SCIP_Result_SCIP_FEASIBLE
        } else {
            add_choice_cuts(&mut engine, scip, &values)?
        };
        engine.recycle(values);
        // SAFETY: `result` is SCIP's output slot.
        unsafe { *result = outcome };
        Ok(())
    })())
}

/// Adds the cuts of a cyclic integral choice; the enforcement result.
fn add_choice_cuts(
    engine: &mut Engine,
    scip: *mut ffi::SCIP,
    values: &[f64],
) -> Result<ffi::SCIP_RESULT, ScipCallFailed> {
    let cuts = cuts_of_choice(&engine.ilp, values);
    if cuts.is_empty() {
        // Unreachable for a cyclic choice; branching keeps the search exact regardless.
        return Ok(ffi::SCIP_Result_SCIP_INFEASIBLE);
    }
    for cut in &cuts {
        if engine.add_cut(scip, cut, true)? {
            return Ok(ffi::SCIP_Result_SCIP_CUTOFF);
        }
    }
    Ok(ffi::SCIP_Result_SCIP_SEPARATED)
}

unsafe extern "C" fn enforce_pseudo(
    scip: *mut ffi::SCIP,
    conshdlr: *mut ffi::SCIP_CONSHDLR,
    _conss: *mut *mut ffi::SCIP_CONS,
    _nconss: c_int,
    _nusefulconss: c_int,
    _solinfeasible: c_uint,
    _objinfeasible: c_uint,
    result: *mut ffi::SCIP_RESULT,
) -> ffi::SCIP_RETCODE {
    // SAFETY: SCIP calls this with the handler made by `include`.
    let engine = unsafe { engine_of(conshdlr) };
    let mut engine = engine.borrow_mut();
    code((|| {
        let values = engine.values(scip, std::ptr::null_mut())?;
        let acyclic = engine.ilp.graph_of(&values).is_acyclic();
        engine.recycle(values);
        // SAFETY: a query on the live instance; `result` is SCIP's output slot.
        unsafe {
            *result = if acyclic {
                ffi::SCIP_Result_SCIP_FEASIBLE
            } else if ffi::SCIPgetNPseudoBranchCands(scip) == 0 {
                ffi::SCIP_Result_SCIP_CUTOFF
            } else {
                ffi::SCIP_Result_SCIP_INFEASIBLE
            };
        }
        Ok(())
    })())
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
    let engine = unsafe { engine_of(conshdlr) };
    let mut engine = engine.borrow_mut();
    code((|| {
        let values = engine.values(scip, sol)?;
        let acyclic = engine.ilp.graph_of(&values).is_acyclic();
        engine.recycle(values);
        // SAFETY: `result` is SCIP's output slot.
        unsafe {
            *result = if acyclic {
                ffi::SCIP_Result_SCIP_FEASIBLE
            } else {
                ffi::SCIP_Result_SCIP_INFEASIBLE
            };
        }
        Ok(())
    })())
}
