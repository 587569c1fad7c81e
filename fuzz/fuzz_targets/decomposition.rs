//! Tree decompositions: `parse_decomposition`. The first line of the input lists the
//! variable names; the rest is the JSON file. A decomposition read is then checked, as
//! `bnsl verify --decomposition` does, against the moral graph of the chain over the
//! names (`TreeDecomposition::check` must refuse, not panic on, whatever it was given).
#![no_main]

mod common;

use bnsl::treewidth::parse_decomposition;
use bnsl_core::treewidth::moral_graph;
use bnsl_core::{Dag, VarSet};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Some(text) = common::text(data) else {
        return;
    };
    let (first, file) = common::first_line(text);
    let names = common::names(first);
    let Ok(decomposition) = parse_decomposition(file, Path::new("fuzz.json"), &names) else {
        return;
    };
    let n = names.len();
    for bag in &decomposition.bags {
        assert!(bag.windows(2).all(|w| w[0] < w[1]) && bag.iter().all(|&v| v < n));
    }
    let mut chain = Dag::empty(n);
    for v in 1..n {
        chain.set_parents(v, VarSet::from_members(n, [v - 1]));
    }
    let _ = decomposition.check(&moral_graph(&chain));
});
