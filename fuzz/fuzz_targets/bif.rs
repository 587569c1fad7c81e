//! BIF networks: `parse_bif`; a network read passes `BayesNet::check` and, when its
//! names can be written and it is small, is written back and reads back with the same
//! variables, graph and (within rounding) probabilities.
#![no_main]

mod common;

use bnsl::data::{parse_bif, write_bif};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Some(text) = common::text(data) else {
        return;
    };
    let path = Path::new("fuzz.bif");
    let Ok(net) = parse_bif(text, path) else {
        return;
    };
    if let Err(e) = net.check() {
        panic!("a network read fails its check: {e}");
    }
    if net.cpts.iter().map(Vec::len).sum::<usize>() > 100_000 {
        return;
    }
    let mut out = Vec::new();
    if write_bif(&net, &mut out).is_err() {
        // A name that BIF cannot hold unquoted: refused by the writer.
        return;
    }
    let again = parse_bif(std::str::from_utf8(&out).unwrap(), path)
        .unwrap_or_else(|e| panic!("the written network does not read back: {e}"));
    assert_eq!(again.variables, net.variables);
    assert_eq!(again.parents, net.parents);
    for (a, b) in again.cpts.iter().zip(&net.cpts) {
        assert_eq!(a.len(), b.len());
        assert!(a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-12));
    }
});
