//! URLearning `.pss` score files: `parse_pss`; a table read is written back and must
//! read back identical.
#![no_main]

mod common;

use bnsl_core::fio::{parse_pss, write_pss};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Some(text) = common::text(data) else {
        return;
    };
    let path = Path::new("fuzz.pss");
    let Ok(file) = parse_pss(path, text) else {
        return;
    };
    let mut out = Vec::new();
    write_pss(&file.table, &mut out).expect("a table read can be written");
    let again = parse_pss(path, std::str::from_utf8(&out).unwrap())
        .unwrap_or_else(|e| panic!("the written table does not read back: {e}"));
    assert_eq!(again.table, file.table);
});
