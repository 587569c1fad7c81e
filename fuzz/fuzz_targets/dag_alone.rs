//! DAG files read on their own, variables named by the file: `parse_dag_alone`
//! (parent lists, model strings and JSON, or BIF when the first byte says so). A DAG
//! read is rendered as JSON and must read back the same over the same names.
#![no_main]

mod common;

use bnsl::dag_io::{parse_dag_alone, parse_dag_file, render_dag, DagFormat};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Some((choice, text)) = common::choose(data, 2) else {
        return;
    };
    let path = Path::new(if choice == 0 { "fuzz.txt" } else { "fuzz.bif" });
    let Ok((names, dag)) = parse_dag_alone(text, path) else {
        return;
    };
    assert_eq!(dag.n(), names.len());
    let json = render_dag(&dag, &names, DagFormat::Json);
    let again = parse_dag_file(&json, Path::new("fuzz.json"), &names)
        .unwrap_or_else(|e| panic!("the rendered DAG does not read back: {e}"));
    assert_eq!(again.dag, dag);
});
