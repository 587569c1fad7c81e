//! The propagator "acyclic": at every node, closes (fixes to 0) the family columns that
//! would close a cycle with the arcs the node's bounds imply
//! ([`propagate_acyclicity`], GOBNILP's DAG-cluster propagation), and cuts off nodes
//! whose bounds admit no DAG.
//!
//! Written against SCIP's C API (russcip has no propagator wrapper). The bound changes
//! carry no reason, so conflict analysis treats them as branching decisions, which is
//! sound.

use super::engine::{check, ScipCallFailed, Shared};
use bnsl_formulations::family::propagation::{propagate_acyclicity, Propagated};
use russcip::ffi;
use std::ffi::{CStr, CString};
use std::os::raw::c_uint;

/// Priority among propagators (SCIP's own range from −1,000,000 to 1,000,000; high runs
/// first: the rule is cheap and its fixings feed the others).
const PRIORITY: i32 = 500_000;

/// The propagator's name in SCIP.
pub(super) const NAME: &CStr = c"acyclic";

/// Includes the propagator into `scip`, owning a handle on `engine`.
pub(super) fn include(scip: *mut ffi::SCIP, engine: &Shared) -> Result<(), ScipCallFailed> {
    let desc = CString::new("closes family columns that would close a cycle").expect("static text");
    let data = Box::into_raw(Box::new(engine.clone())) as *mut ffi::SCIP_PROPDATA;
    let mut prop = std::ptr::null_mut();
    // SAFETY: the callbacks below match SCIP's signatures; `data` is freed by `free`.
    unsafe {
        check(ffi::SCIPincludePropBasic(
            scip,
            &mut prop,
            NAME.as_ptr(),
            desc.as_ptr(),
            PRIORITY,
            1,
            0,
            ffi::SCIP_PROPTIMING_BEFORELP,
            Some(execute),
            data,
        ))?;
        check(ffi::SCIPsetPropFree(scip, prop, Some(free)))?;
    }
    Ok(())
}

unsafe extern "C" fn execute(
    scip: *mut ffi::SCIP,
    prop: *mut ffi::SCIP_PROP,
    _timing: ffi::SCIP_PROPTIMING,
    result: *mut ffi::SCIP_RESULT,
) -> ffi::SCIP_RETCODE {
    // SAFETY: SCIP calls this with the propagator made by `include` (its data is a
    // `Shared`) and a live output slot.
    let engine = unsafe { &*(ffi::SCIPpropGetData(prop) as *const Shared) };
    match propagate(scip, engine) {
        Ok(outcome) => {
            // SAFETY: see above.
            unsafe { *result = outcome };
            ffi::SCIP_Retcode_SCIP_OKAY
        }
        Err(ScipCallFailed(code)) => code,
    }
}

/// Reads the local upper bounds, propagates, and applies the closings.
fn propagate(scip: *mut ffi::SCIP, engine: &Shared) -> Result<ffi::SCIP_RESULT, ScipCallFailed> {
    let close: Vec<*mut ffi::SCIP_VAR> = {
        let mut engine = engine.borrow_mut();
        // SAFETY: live transformed variables in the solving stage.
        let open: Vec<bool> = engine
            .transformed(scip)?
            .iter()
            .map(|&var| unsafe { ffi::SCIPvarGetUbLocal(var) } > 0.5)
            .collect();
        let columns = match propagate_acyclicity(&engine.ilp, &open) {
            Propagated::Infeasible => return Ok(ffi::SCIP_Result_SCIP_CUTOFF),
            Propagated::Close(columns) => columns,
        };
        let vars = engine.transformed(scip)?;
        columns.iter().map(|&c| vars[c]).collect()
    };
    if close.is_empty() {
        return Ok(ffi::SCIP_Result_SCIP_DIDNOTFIND);
    }
    for var in close {
        let (mut infeasible, mut tightened): (c_uint, c_uint) = (0, 0);
        // SAFETY: a local bound change of a live variable during propagation.
        check(unsafe {
            ffi::SCIPtightenVarUb(scip, var, 0.0, 0, &mut infeasible, &mut tightened)
        })?;
        if infeasible != 0 {
            return Ok(ffi::SCIP_Result_SCIP_CUTOFF);
        }
    }
    Ok(ffi::SCIP_Result_SCIP_REDUCEDDOM)
}

unsafe extern "C" fn free(_scip: *mut ffi::SCIP, prop: *mut ffi::SCIP_PROP) -> ffi::SCIP_RETCODE {
    // SAFETY: the data was made by `Box::into_raw` in `include` and is freed once.
    unsafe {
        let data = ffi::SCIPpropGetData(prop) as *mut Shared;
        drop(Box::from_raw(data));
        ffi::SCIPpropSetData(prop, std::ptr::null_mut());
    }
    ffi::SCIP_Retcode_SCIP_OKAY
}
