//! SCIP's node cuts ([`NodeCuts`](crate::milp::NodeCuts)): a [`CutSeparator`] called on
//! every node's LP solution, fractional or integral, and on every solution SCIP finds.
//!
//! - a separator plugin hands fractional LP solutions to it and adds the rows it
//!   returns as global cuts (to the node's LP and to SCIP's cut pool);
//! - a constraint handler `node_cuts`, below integrality, makes its rows lazy
//!   constraints: an integral LP solution it separates gets its rows as cuts
//!   (`SEPARATED`); a solution of a heuristic, the start or the search that violates a
//!   row it returns is refused (check); a pseudo solution (no LP at the node) that does
//!   asks for the LP. So SCIP's answer satisfies every row the separator returns at it.
//!
//! The rows are valid for the problem, not implied by the model SCIP holds, so SCIP
//! must not reason from the model alone where that would cut them off: dual reductions
//! (which may fix a column no row of the model asks for, although a cut does) are off
//! ([`PARAMS`]); the handler has no constraint objects, hence no locks. Presolving may
//! still aggregate or fix columns: SCIP writes a cut's terms on what stands for them.

use crate::ilp::scip_bc::engine::{check, ScipCallFailed};
use crate::ilp::scip_bc::handler::{self, code, Handler};
use crate::milp::{CutRow, CutSeparator};
use russcip::prelude::*;
use russcip::{ffi, ProblemCreated, SCIPSeparator, Solving};
use std::cell::Cell;
use std::ffi::CString;
use std::os::raw::{c_int, c_uint};
use std::sync::Arc;

/// SCIP parameters of a solve with node cuts (see the module documentation).
pub(super) const PARAMS: [(&str, &str); 2] = [
    ("misc/allowstrongdualreds", "FALSE"),
    ("misc/allowweakdualreds", "FALSE"),
];

/// A row is violated when the point misses its side by more than this.
const VIOLATION: f64 = 1e-6;

/// Includes `separator` into `scip`, over `columns` (the original variables of the
/// model's columns, in order): the separator plugin and the constraint handler.
pub(super) fn include(
    scip: &mut Model<ProblemCreated>,
    separator: Arc<dyn CutSeparator>,
    columns: &[russcip::Variable],
) -> Result<(), ScipCallFailed> {
    let cuts = || UserCuts {
        separator: separator.clone(),
        columns: columns.iter().map(|v| v.inner()).collect(),
        added: Cell::new(0),
    };
    let handler = Handler {
        name: "node_cuts",
        description: "the rows of the caller's separator, as lazy constraints",
        priority: -100,
        enforce_lp,
        enforce_pseudo,
        check: check_solution,
    };
    handler::include(scip.scip_ptr(), handler, cuts())?;
    scip.include_separator(
        "node_cuts",
        "the caller's cuts at every node",
        100_000,
        1,
        1.0,
        false,
        false,
        Box::new(cuts()),
    );
    Ok(())
}

/// A [`CutSeparator`] and the model's columns. The columns are held as raw pointers: a
/// russcip `Variable` keeps its SCIP instance alive, and the instance owns the plugins.
struct UserCuts {
    separator: Arc<dyn CutSeparator>,
    /// The original variable of each column; they live as long as the instance.
    columns: Vec<*mut ffi::SCIP_VAR>,
    /// Rows added so far (for their names).
    added: Cell<usize>,
}

impl UserCuts {
    /// The rows that `sol` (null: the current LP or pseudo solution) violates.
    fn violated(&self, scip: *mut ffi::SCIP, sol: *mut ffi::SCIP_SOL) -> Vec<CutRow> {
        // SAFETY: the original variables of the live instance, read at a solution of
        // it (SCIP maps an original variable to what stands for it).
        let values: Vec<f64> = self
            .columns
            .iter()
            .map(|&var| unsafe { ffi::SCIPgetSolVal(scip, sol, var) })
            .collect();
        let mut rows = self.separator.separate(&values);
        rows.retain(|row| {
            let activity: f64 = row.terms.iter().map(|&(c, a)| a * values[c]).sum();
            activity < row.lower - VIOLATION
        });
        rows
    }

    /// Adds `rows` as global rows of the LP and of the cut pool, made by `sepa` (null:
    /// by the constraint handler). Returns whether one proved the node infeasible.
    fn add(
        &self,
        scip: *mut ffi::SCIP,
        sepa: *mut ffi::SCIP_SEPA,
        rows: &[CutRow],
        force: bool,
    ) -> Result<bool, ScipCallFailed> {
        for cut in rows {
            if self.add_one(scip, sepa, cut, force)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn add_one(
        &self,
        scip: *mut ffi::SCIP,
        sepa: *mut ffi::SCIP_SEPA,
        cut: &CutRow,
        force: bool,
    ) -> Result<bool, ScipCallFailed> {
        let name = CString::new(format!("node_cut_{}", self.added.get())).expect("no NUL");
        self.added.set(self.added.get() + 1);
        let mut row = std::ptr::null_mut();
        // SAFETY: SCIP calls on the live instance in its solving stage; every column is
        // a variable of it; the row is released before returning.
        unsafe {
            let (lower, upper) = (cut.lower, ffi::SCIPinfinity(scip));
            if sepa.is_null() {
                check(ffi::SCIPcreateEmptyRowUnspec(
                    scip,
                    &mut row,
                    name.as_ptr(),
                    lower,
                    upper,
                    0,
                    0,
                    1,
                ))?;
            } else {
                check(ffi::SCIPcreateEmptyRowSepa(
                    scip,
                    &mut row,
                    sepa,
                    name.as_ptr(),
                    lower,
                    upper,
                    0,
                    0,
                    1,
                ))?;
            }
            check(ffi::SCIPcacheRowExtensions(scip, row))?;
            for &(column, coefficient) in &cut.terms {
                let var = ffi::SCIPvarGetTransVar(self.columns[column]);
                check(ffi::SCIPaddVarToRow(scip, row, var, coefficient))?;
            }
            check(ffi::SCIPflushRowExtensions(scip, row))?;
            handler::add_global_row(scip, row, force)
        }
    }
}

/// Fractional LP solutions: the rows as cuts.
impl Separator for UserCuts {
    fn execute_lp(&mut self, model: Model<Solving>, sepa: SCIPSeparator) -> SeparationResult {
        let scip = model.scip_ptr();
        let rows = self.violated(scip, std::ptr::null_mut());
        if rows.is_empty() {
            return SeparationResult::DidNotFind;
        }
        match self.add(scip, sepa.inner(), &rows, false) {
            Ok(false) => SeparationResult::Separated,
            Ok(true) => SeparationResult::Cutoff,
            Err(_) => SeparationResult::DidNotRun,
        }
    }
}

/// The handler's data.
///
/// # Safety
/// `conshdlr` must be the handler made by [`include`].
unsafe fn cuts_of<'a>(conshdlr: *mut ffi::SCIP_CONSHDLR) -> &'a UserCuts {
    // SAFETY: see the function's contract.
    unsafe { handler::data_of(conshdlr) }
}

/// Integral LP solutions: the rows as forced cuts.
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
    let cuts = unsafe { cuts_of(conshdlr) };
    code((|| {
        let rows = cuts.violated(scip, std::ptr::null_mut());
        let outcome = if rows.is_empty() {
            ffi::SCIP_Result_SCIP_FEASIBLE
        } else if cuts.add(scip, std::ptr::null_mut(), &rows, true)? {
            ffi::SCIP_Result_SCIP_CUTOFF
        } else {
            ffi::SCIP_Result_SCIP_SEPARATED
        };
        // SAFETY: SCIP's output slot.
        unsafe { *result = outcome };
        Ok(())
    })())
}

/// Pseudo solutions (no LP at the node): a violated row asks for the LP.
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
    // SAFETY: SCIP calls this with the handler made by `include` and its output slot.
    unsafe {
        judge(
            scip,
            conshdlr,
            std::ptr::null_mut(),
            ffi::SCIP_Result_SCIP_SOLVELP,
            result,
        )
    }
}

/// Any solution: feasible when it violates no row the separator returns at it.
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
    // SAFETY: SCIP calls this with the handler made by `include`, a live solution and
    // its output slot.
    unsafe {
        judge(
            scip,
            conshdlr,
            sol,
            ffi::SCIP_Result_SCIP_INFEASIBLE,
            result,
        )
    }
}

/// Sets `result` to feasible when `sol` (null: the current LP or pseudo solution)
/// violates no row the separator returns at it, else to `violated`.
///
/// # Safety
/// `conshdlr` must be the handler made by [`include`], `sol` null or a live solution
/// of `scip`, `result` SCIP's output slot.
unsafe fn judge(
    scip: *mut ffi::SCIP,
    conshdlr: *mut ffi::SCIP_CONSHDLR,
    sol: *mut ffi::SCIP_SOL,
    violated: ffi::SCIP_RESULT,
    result: *mut ffi::SCIP_RESULT,
) -> ffi::SCIP_RETCODE {
    // SAFETY: see the function's contract.
    unsafe {
        let feasible = cuts_of(conshdlr).violated(scip, sol).is_empty();
        *result = if feasible {
            ffi::SCIP_Result_SCIP_FEASIBLE
        } else {
            violated
        };
    }
    ffi::SCIP_Retcode_SCIP_OKAY
}
