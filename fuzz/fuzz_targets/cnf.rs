//! DIMACS CNF (`read_cnf`, as `bnsl` reads proof formulas back); a formula read is
//! written with `write_cnf` and must read back identical.
#![no_main]

mod common;

use bnsl_formulations::maxsat::wcnf_format::{read_cnf, write_cnf};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = common::text(data) else {
        return;
    };
    let Ok((num_vars, clauses)) = read_cnf(text) else {
        return;
    };
    let mut out = Vec::new();
    write_cnf(num_vars, &clauses, &[], &mut out).expect("writing to memory");
    let again = read_cnf(std::str::from_utf8(&out).unwrap())
        .unwrap_or_else(|e| panic!("the written formula does not read back: {e}"));
    assert_eq!(again, (num_vars, clauses));
});
