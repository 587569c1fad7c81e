//! Structural-constraint files: `parse_constraints`. The first line of the input lists
//! the variable names (as a score file would give them); the rest is the file.
#![no_main]

mod common;

use bnsl_core::fio::parse_constraints;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Some(text) = common::text(data) else {
        return;
    };
    let (first, rest) = common::first_line(text);
    let names = common::names(first);
    let Ok(cons) = parse_constraints(rest, Path::new("fuzz.txt"), &names) else {
        return;
    };
    let n = names.len();
    for &(p, c) in cons.required.iter().chain(&cons.forbidden) {
        assert!(p < n && c < n && p != c);
    }
    for &(v, _) in &cons.max_parents_of {
        assert!(v < n);
    }
});
