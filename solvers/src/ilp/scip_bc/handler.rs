//! What SCIP's constraint handlers (the engine's `acyclic` and `collect`, and the SCIP
//! back-end's `node_cuts`) share: including a handler without constraint objects into
//! SCIP through its C API (russcip's wrapper has neither a pseudo-solution enforcement
//! nor a lock callback), with a Rust value as the handler's data.

use super::engine::{check, ScipCallFailed};
use russcip::ffi;
use std::ffi::CString;
use std::os::raw::{c_int, c_uint};

/// SCIP's LP enforcement callback.
pub(crate) type EnforceLp = unsafe extern "C" fn(
    *mut ffi::SCIP,
    *mut ffi::SCIP_CONSHDLR,
    *mut *mut ffi::SCIP_CONS,
    c_int,
    c_int,
    c_uint,
    *mut ffi::SCIP_RESULT,
) -> ffi::SCIP_RETCODE;

/// SCIP's pseudo-solution enforcement callback.
pub(crate) type EnforcePseudo = unsafe extern "C" fn(
    *mut ffi::SCIP,
    *mut ffi::SCIP_CONSHDLR,
    *mut *mut ffi::SCIP_CONS,
    c_int,
    c_int,
    c_uint,
    c_uint,
    *mut ffi::SCIP_RESULT,
) -> ffi::SCIP_RETCODE;

/// SCIP's solution check callback.
pub(crate) type Check = unsafe extern "C" fn(
    *mut ffi::SCIP,
    *mut ffi::SCIP_CONSHDLR,
    *mut *mut ffi::SCIP_CONS,
    c_int,
    *mut ffi::SCIP_SOL,
    c_uint,
    c_uint,
    c_uint,
    c_uint,
    *mut ffi::SCIP_RESULT,
) -> ffi::SCIP_RETCODE;

/// A handler: its name, description, priority (of enforcement and check alike) and
/// callbacks.
pub(crate) struct Handler {
    pub name: &'static str,
    pub description: &'static str,
    pub priority: c_int,
    pub enforce_lp: EnforceLp,
    pub enforce_pseudo: EnforcePseudo,
    pub check: Check,
}

/// Includes `handler` into `scip` with `data` as its data (freed with the handler);
/// returns the handler.
pub(crate) fn include<T>(
    scip: *mut ffi::SCIP,
    handler: Handler,
    data: T,
) -> Result<*mut ffi::SCIP_CONSHDLR, ScipCallFailed> {
    let name = CString::new(handler.name).expect("static name");
    let desc = CString::new(handler.description).expect("static text");
    let data = Box::into_raw(Box::new(data)) as *mut ffi::SCIP_CONSHDLRDATA;
    let mut conshdlr = std::ptr::null_mut();
    // SAFETY: the callbacks match SCIP's signatures; `data` is freed by `free_data::<T>`.
    unsafe {
        check(ffi::SCIPincludeConshdlrBasic(
            scip,
            &mut conshdlr,
            name.as_ptr(),
            desc.as_ptr(),
            handler.priority,
            handler.priority,
            -1,
            0,
            Some(handler.enforce_lp),
            Some(handler.enforce_pseudo),
            Some(handler.check),
            Some(no_locks),
            data,
        ))?;
        check(ffi::SCIPsetConshdlrFree(
            scip,
            conshdlr,
            Some(free_data::<T>),
        ))?;
    }
    Ok(conshdlr)
}

/// The data of a handler.
///
/// # Safety
/// `conshdlr` must be a handler made by [`include`] with data of type `T`.
pub(crate) unsafe fn data_of<'a, T>(conshdlr: *mut ffi::SCIP_CONSHDLR) -> &'a T {
    // SAFETY: see the function's contract.
    unsafe { &*(ffi::SCIPconshdlrGetData(conshdlr) as *const T) }
}

/// Adds the filled `row` to the LP (forced into it when `force`) and, unless it proves
/// the node infeasible, to the global cut pool; then releases it. Returns whether it
/// proved the node infeasible.
///
/// # Safety
/// `row` must be a live row of the live instance `scip` in its solving stage, owned by
/// the caller (who must not use it afterwards).
pub(crate) unsafe fn add_global_row(
    scip: *mut ffi::SCIP,
    mut row: *mut ffi::SCIP_ROW,
    force: bool,
) -> Result<bool, ScipCallFailed> {
    let mut infeasible = 0;
    // SAFETY: see the function's contract.
    unsafe {
        check(ffi::SCIPaddRow(
            scip,
            row,
            u32::from(force),
            &mut infeasible,
        ))?;
        if infeasible == 0 {
            check(ffi::SCIPaddPoolCut(scip, row))?;
        }
        check(ffi::SCIPreleaseRow(scip, &mut row))?;
    }
    Ok(infeasible != 0)
}

/// A callback's result as SCIP's return code.
pub(crate) fn code(result: Result<(), ScipCallFailed>) -> ffi::SCIP_RETCODE {
    match result {
        Ok(()) => ffi::SCIP_Retcode_SCIP_OKAY,
        Err(ScipCallFailed(code)) => code,
    }
}

/// No constraint objects, hence no locks: the engine turns SCIP's strong dual
/// reductions (those that reason from locks) off instead.
unsafe extern "C" fn no_locks(
    _scip: *mut ffi::SCIP,
    _conshdlr: *mut ffi::SCIP_CONSHDLR,
    _cons: *mut ffi::SCIP_CONS,
    _locktype: ffi::SCIP_LOCKTYPE,
    _nlockspos: c_int,
    _nlocksneg: c_int,
) -> ffi::SCIP_RETCODE {
    ffi::SCIP_Retcode_SCIP_OKAY
}

unsafe extern "C" fn free_data<T>(
    _scip: *mut ffi::SCIP,
    conshdlr: *mut ffi::SCIP_CONSHDLR,
) -> ffi::SCIP_RETCODE {
    // SAFETY: the data was made by `Box::into_raw` in `include` as a `T`, freed once.
    unsafe {
        let data = ffi::SCIPconshdlrGetData(conshdlr) as *mut T;
        drop(Box::from_raw(data));
        ffi::SCIPconshdlrSetData(conshdlr, std::ptr::null_mut());
    }
    ffi::SCIP_Retcode_SCIP_OKAY
}
