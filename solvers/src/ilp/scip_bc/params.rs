//! Setting SCIP parameters by name from text (`--scip-param name=value`): the value is
//! parsed according to the parameter's type as SCIP declares it.

use russcip::ffi;
use std::ffi::CString;

/// Why a parameter could not be set.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ScipParamError {
    /// SCIP has no parameter of that name.
    #[error("unknown SCIP parameter `{0}`")]
    Unknown(String),
    /// The parameter belongs to one of the engine's own plugins, and the solve did not
    /// include that plugin.
    #[error(
        "SCIP parameter `{name}` belongs to bnsl's plugin `{plugin}`, which this solve does \
         not include (README, `--scip-param`, says which solves include each plugin)"
    )]
    PluginNotIncluded {
        /// Parameter name.
        name: String,
        /// The plugin's parameter prefix, e.g. `branching/arrows`.
        plugin: String,
    },
    /// The value does not parse as the parameter's type.
    #[error("SCIP parameter `{name}` takes a {kind}, not `{value}`")]
    BadValue {
        /// Parameter name.
        name: String,
        /// Its type.
        kind: &'static str,
        /// The value given.
        value: String,
    },
    /// SCIP rejected the value (out of range, or fixed).
    #[error("SCIP rejected `{name}` = `{value}` (code {code})")]
    Rejected {
        /// Parameter name.
        name: String,
        /// The value given.
        value: String,
        /// SCIP's return code.
        code: ffi::SCIP_RETCODE,
    },
}

/// Whether `scip` has a parameter called `name`.
pub(super) fn exists(scip: *mut ffi::SCIP, name: &str) -> bool {
    let Ok(c_name) = CString::new(name) else {
        return false;
    };
    // SAFETY: a lookup on a live instance.
    !unsafe { ffi::SCIPgetParam(scip, c_name.as_ptr()) }.is_null()
}

/// Whether `scip` has a parameter whose name starts with `prefix`.
fn has_prefix(scip: *mut ffi::SCIP, prefix: &str) -> bool {
    // SAFETY: queries on a live instance; SCIP's array holds `SCIPgetNParams` live
    // parameters, whose names are NUL-terminated strings.
    unsafe {
        let count = usize::try_from(ffi::SCIPgetNParams(scip)).unwrap_or(0);
        let params = ffi::SCIPgetParams(scip);
        (0..count).any(|i| {
            let name = std::ffi::CStr::from_ptr(ffi::SCIPparamGetName(*params.add(i)));
            name.to_bytes().starts_with(prefix.as_bytes())
        })
    }
}

/// The error for a parameter `name` that `scip` does not have: a plugin of the engine
/// that `scip` lacks ([`super::plugin_of`]), or an unknown name.
fn missing(scip: *mut ffi::SCIP, name: &str) -> ScipParamError {
    match super::plugin_of(name) {
        Some(prefix) if !has_prefix(scip, prefix) => ScipParamError::PluginNotIncluded {
            name: name.to_string(),
            plugin: prefix.trim_end_matches('/').to_string(),
        },
        _ => ScipParamError::Unknown(name.to_string()),
    }
}

/// Sets parameter `name` of `scip` to `value`, parsed by the parameter's type
/// (bool: true/false/1/0; int, longint, real: numbers; char: one character; string).
pub(crate) fn set(scip: *mut ffi::SCIP, name: &str, value: &str) -> Result<(), ScipParamError> {
    let c_name = CString::new(name).map_err(|_| ScipParamError::Unknown(name.to_string()))?;
    // SAFETY: a lookup on a live instance.
    let param = unsafe { ffi::SCIPgetParam(scip, c_name.as_ptr()) };
    if param.is_null() {
        return Err(missing(scip, name));
    }
    let bad = |kind: &'static str| ScipParamError::BadValue {
        name: name.to_string(),
        kind,
        value: value.to_string(),
    };
    let v = value.trim();
    // SAFETY: `param` is a live parameter of `scip`; the setters copy their input.
    let code = unsafe {
        match ffi::SCIPparamGetType(param) {
            ffi::SCIP_ParamType_SCIP_PARAMTYPE_BOOL => {
                let b = match v.to_ascii_lowercase().as_str() {
                    "true" | "1" | "on" => 1,
                    "false" | "0" | "off" => 0,
                    _ => return Err(bad("bool")),
                };
                ffi::SCIPsetBoolParam(scip, c_name.as_ptr(), b)
            }
            ffi::SCIP_ParamType_SCIP_PARAMTYPE_INT => {
                let i = v.parse().map_err(|_| bad("int"))?;
                ffi::SCIPsetIntParam(scip, c_name.as_ptr(), i)
            }
            ffi::SCIP_ParamType_SCIP_PARAMTYPE_LONGINT => {
                let i = v.parse().map_err(|_| bad("longint"))?;
                ffi::SCIPsetLongintParam(scip, c_name.as_ptr(), i)
            }
            ffi::SCIP_ParamType_SCIP_PARAMTYPE_REAL => {
                let x = v.parse().map_err(|_| bad("real"))?;
                ffi::SCIPsetRealParam(scip, c_name.as_ptr(), x)
            }
            ffi::SCIP_ParamType_SCIP_PARAMTYPE_CHAR => {
                let mut chars = v.chars();
                let c = match (chars.next(), chars.next()) {
                    (Some(c), None) if c.is_ascii() => c as std::os::raw::c_char,
                    _ => return Err(bad("char")),
                };
                ffi::SCIPsetCharParam(scip, c_name.as_ptr(), c)
            }
            _ => {
                let s = CString::new(value).map_err(|_| bad("string"))?;
                ffi::SCIPsetStringParam(scip, c_name.as_ptr(), s.as_ptr())
            }
        }
    };
    if code == ffi::SCIP_Retcode_SCIP_OKAY {
        Ok(())
    } else {
        Err(ScipParamError::Rejected {
            name: name.to_string(),
            value: value.to_string(),
            code,
        })
    }
}
