//! The separator "clusters" ([`ClusterSeparator`]) included through SCIP's C API with
//! both of SCIP's separation callbacks: LP solutions, and arbitrary points. russcip's
//! wrapper has only the first; the second is what SCIP's close-cut separator calls: it
//! asks every separator for cuts of a point between the LP optimum and the incumbent
//! (Ben-Ameur & Neto's "in-out" stabilisation of the cut loop, as GOBNILP uses it).

use super::engine::{check, ScipCallFailed, Shared};
use super::plugins::ClusterSeparator;
use russcip::ffi;
use std::ffi::{CStr, CString};
use std::os::raw::{c_int, c_uint};

/// The separator's name in SCIP.
pub(super) const NAME: &CStr = c"clusters";

/// Priority among separators: above SCIP's own, so cluster cuts come first.
const PRIORITY: c_int = 100_000;

/// Includes the separator into `scip`, owning a handle on `engine`: frequency 1,
/// whatever the node's bound. SCIP's exponential back-off
/// (`separating/clusters/expbackoff`, 4 by default) then calls it at depths 0, 1, 4,
/// 16, 64 only; optimising solves of tables that are not large set it to 1, every
/// node (`SMALL_TABLE_PARAMS`).
pub(super) fn include(scip: *mut ffi::SCIP, engine: &Shared) -> Result<(), ScipCallFailed> {
    let desc = CString::new("cluster cuts: heuristics and the exact sub-IP").expect("static text");
    let data = Box::into_raw(Box::new(ClusterSeparator(engine.clone()))) as *mut ffi::SCIP_SEPADATA;
    let mut sepa = std::ptr::null_mut();
    // SAFETY: the callbacks below match SCIP's signatures; `data` is freed by `free`.
    unsafe {
        check(ffi::SCIPincludeSepaBasic(
            scip,
            &mut sepa,
            NAME.as_ptr(),
            desc.as_ptr(),
            PRIORITY,
            1,
            1.0,
            0,
            0,
            Some(execute_lp),
            Some(execute_sol),
            data,
        ))?;
        check(ffi::SCIPsetSepaFree(scip, sepa, Some(free)))?;
    }
    Ok(())
}

/// The separator behind `sepa`.
///
/// # Safety
/// `sepa` must be the separator made by [`include`].
unsafe fn separator_of<'a>(sepa: *mut ffi::SCIP_SEPA) -> &'a ClusterSeparator {
    // SAFETY: see the function's contract.
    unsafe { &*(ffi::SCIPsepaGetData(sepa) as *const ClusterSeparator) }
}

/// Separates `sol` (null: the LP solution) into SCIP's output slot `result`.
///
/// # Safety
/// `sepa` must be the separator made by [`include`], `result` a live output slot.
unsafe fn separate(
    scip: *mut ffi::SCIP,
    sepa: *mut ffi::SCIP_SEPA,
    sol: *mut ffi::SCIP_SOL,
    result: *mut ffi::SCIP_RESULT,
) -> ffi::SCIP_RETCODE {
    // SAFETY: see the function's contract.
    let separator = unsafe { separator_of(sepa) };
    let outcome = separator
        .separate(scip, sol)
        .unwrap_or(ffi::SCIP_Result_SCIP_DIDNOTRUN);
    // SAFETY: see the function's contract.
    unsafe { *result = outcome };
    ffi::SCIP_Retcode_SCIP_OKAY
}

unsafe extern "C" fn execute_lp(
    scip: *mut ffi::SCIP,
    sepa: *mut ffi::SCIP_SEPA,
    result: *mut ffi::SCIP_RESULT,
    _allowlocal: c_uint,
    _depth: c_int,
) -> ffi::SCIP_RETCODE {
    // SAFETY: SCIP calls this with the separator made by `include`.
    unsafe { separate(scip, sepa, std::ptr::null_mut(), result) }
}

unsafe extern "C" fn execute_sol(
    scip: *mut ffi::SCIP,
    sepa: *mut ffi::SCIP_SEPA,
    sol: *mut ffi::SCIP_SOL,
    result: *mut ffi::SCIP_RESULT,
    _allowlocal: c_uint,
    _depth: c_int,
) -> ffi::SCIP_RETCODE {
    // SAFETY: SCIP calls this with the separator made by `include` and a live point.
    unsafe { separate(scip, sepa, sol, result) }
}

unsafe extern "C" fn free(_scip: *mut ffi::SCIP, sepa: *mut ffi::SCIP_SEPA) -> ffi::SCIP_RETCODE {
    // SAFETY: the data was made by `Box::into_raw` in `include` and is freed once.
    unsafe {
        let data = ffi::SCIPsepaGetData(sepa) as *mut ClusterSeparator;
        drop(Box::from_raw(data));
        ffi::SCIPsepaSetData(sepa, std::ptr::null_mut());
    }
    ffi::SCIP_Retcode_SCIP_OKAY
}
