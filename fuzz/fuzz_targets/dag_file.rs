//! DAG files over known variables: `parse_dag_file` (parent lists, model strings and
//! JSON, or BIF when the first byte says so). After that byte, the first line lists the
//! variable names (as a score file or data set would give them); the rest is the file.
#![no_main]

mod common;

use bnsl::dag_io::parse_dag_file;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Some((choice, text)) = common::choose(data, 2) else {
        return;
    };
    let (first, file) = common::first_line(text);
    let names = common::names(first);
    let path = Path::new(if choice == 0 { "fuzz.txt" } else { "fuzz.bif" });
    let Ok(read) = parse_dag_file(file, path, &names) else {
        return;
    };
    let n = names.len();
    assert_eq!(read.dag.n(), n);
    assert!(read.unlisted.iter().all(|&v| v < n));
});
