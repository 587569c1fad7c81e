//! jkl score files: `parse_jkl`; a table read is written back (in the naming the file
//! used) and must read back identical.
#![no_main]

mod common;

use bnsl_core::fio::{parse_jkl, write_jkl};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Some(text) = common::text(data) else {
        return;
    };
    let path = Path::new("fuzz.jkl");
    let Ok(file) = parse_jkl(path, text) else {
        return;
    };
    let mut out = Vec::new();
    write_jkl(&file.table, &mut out, file.naming).expect("a table read can be written");
    let again = parse_jkl(path, std::str::from_utf8(&out).unwrap())
        .unwrap_or_else(|e| panic!("the written table does not read back: {e}"));
    assert_eq!(again.table, file.table);
    assert_eq!(again.naming, file.naming);
});
