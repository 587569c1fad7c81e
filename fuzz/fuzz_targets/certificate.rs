//! Certificates of optimality: `parse_certificate` against a small fixed score table,
//! then `DualCertificate::check` (exact arithmetic), as `bnsl verify --certificate`
//! does: both must refuse, not panic on, whatever they are given.
#![no_main]

mod common;

use bnsl::certificate::parse_certificate;
use bnsl_core::{Candidate, ScoreTable, VarSet};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

/// Three variables `a`, `b`, `c` with a few candidates each.
fn table() -> ScoreTable {
    let family = |parents: &[usize], score: f64| Candidate {
        parents: VarSet::from_members(3, parents.iter().copied()),
        score,
    };
    ScoreTable::new(
        vec!["a".into(), "b".into(), "c".into()],
        vec![
            vec![family(&[1], -1.5), family(&[], -2.25)],
            vec![family(&[0, 2], -3.0), family(&[2], -3.5), family(&[], -4.0)],
            vec![family(&[], -1.0)],
        ],
    )
    .expect("a valid table")
}

fuzz_target!(|data: &[u8]| {
    let Some(text) = common::text(data) else {
        return;
    };
    let table = table();
    let Ok(certificate) = parse_certificate(text, Path::new("fuzz.cert.json"), &table) else {
        return;
    };
    let _ = certificate.check(&table);
});
