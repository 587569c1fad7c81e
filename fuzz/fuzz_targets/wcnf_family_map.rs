//! The family map of a WCNF model written by `bnsl export` (`read_family_map`), with the
//! weight check and variable count `bnsl decode` runs on the same text.
#![no_main]

mod common;

use bnsl_formulations::maxsat::wcnf_format::{check_weights, count_vars, read_family_map};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = common::text(data) else {
        return;
    };
    let _ = check_weights(text);
    let _ = count_vars(text);
    let Ok(map) = read_family_map(text) else {
        return;
    };
    let n = map.names.len();
    assert!(n > 0);
    for f in &map.families {
        assert!(f.var > 0 && f.node < n && f.score.is_finite());
        assert!(f.parents.iter().all(|&u| u < n && u != f.node));
    }
});
