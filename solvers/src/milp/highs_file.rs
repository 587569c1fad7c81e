//! Solving a model *file* with HiGHS's own LP and MPS readers: the check that a model
//! bnsl exports (SPEC C11) means to another solver what it means to bnsl.

use super::SolverError;
use highs_sys::{
    kHighsMaximumStringLength, HighsInt, Highs_create, Highs_destroy, Highs_getColName,
    Highs_getModelStatus, Highs_getNumCol, Highs_getObjectiveValue, Highs_getSolution,
    Highs_readModel, Highs_run, Highs_setBoolOptionValue, Highs_setDoubleOptionValue,
    MODEL_STATUS_OPTIMAL, STATUS_OK,
};
use std::ffi::{c_void, CStr, CString};
use std::path::Path;

/// What HiGHS found for a model it read from a file.
#[derive(Clone, Debug, PartialEq)]
pub struct FileSolution {
    /// Whether HiGHS proved optimality (to a zero relative gap).
    pub optimal: bool,
    /// HiGHS's model status code (`MODEL_STATUS_*` of the C API).
    pub model_status: HighsInt,
    /// Objective value in the file's sense.
    pub objective: f64,
    /// Column values, in the file's column order.
    pub values: Vec<f64>,
    /// Column names as HiGHS read them.
    pub names: Vec<String>,
}

/// A HiGHS instance of the C API, destroyed on drop.
struct Instance(*mut c_void);

impl Drop for Instance {
    fn drop(&mut self) {
        // SAFETY: the pointer came from `Highs_create` and is destroyed once.
        unsafe { Highs_destroy(self.0) }
    }
}

fn failure(message: String) -> SolverError {
    SolverError::Backend {
        backend: "highs",
        message,
    }
}

/// Reads the LP or MPS file at `path` (the reader is chosen by the extension) and solves
/// it to a zero gap. A read that HiGHS reports with a warning or an error is an error.
pub fn solve_model_file(path: &Path) -> Result<FileSolution, SolverError> {
    let text = path
        .to_str()
        .ok_or_else(|| failure(format!("{}: not a UTF-8 path", path.display())))?;
    let c_path = CString::new(text).map_err(|_| failure(format!("{text}: NUL in path")))?;
    // SAFETY: every call gets the live instance and NUL-terminated strings; the buffers
    // passed to `Highs_getSolution` and `Highs_getColName` have the lengths HiGHS
    // requires (num_col values, kHighsMaximumStringLength bytes).
    unsafe {
        let highs = Instance(Highs_create());
        Highs_setBoolOptionValue(highs.0, c"output_flag".as_ptr(), 0);
        if Highs_readModel(highs.0, c_path.as_ptr()) != STATUS_OK {
            return Err(failure(format!(
                "{text}: HiGHS could not read the model cleanly"
            )));
        }
        Highs_setDoubleOptionValue(highs.0, c"mip_rel_gap".as_ptr(), 0.0);
        if Highs_run(highs.0) != STATUS_OK {
            return Err(failure(format!("{text}: HiGHS failed to solve the model")));
        }
        let num_col = Highs_getNumCol(highs.0);
        let mut values = vec![0.0; num_col as usize];
        Highs_getSolution(
            highs.0,
            values.as_mut_ptr(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        );
        let names = (0..num_col)
            .map(|j| {
                let mut buffer = vec![0 as std::ffi::c_char; kHighsMaximumStringLength as usize];
                Highs_getColName(highs.0, j, buffer.as_mut_ptr());
                CStr::from_ptr(buffer.as_ptr())
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        let model_status = Highs_getModelStatus(highs.0);
        Ok(FileSolution {
            optimal: model_status == MODEL_STATUS_OPTIMAL,
            model_status,
            objective: Highs_getObjectiveValue(highs.0),
            values,
            names,
        })
    }
}
