//! Study plans of `bnsl bench`: `parse_plan`, in a folder of its own holding two score
//! files for the globs to find. Inputs with `/` or `**` are skipped: they would send the
//! globs over the machine's file system, which is slow, not a parser's fault.
#![no_main]

mod common;

use bnsl::bench::plan::{parse_plan, MAX_RUNS};
use libfuzzer_sys::fuzz_target;
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::OnceLock;

/// The plan's path, in a folder with `a.jkl` and `b.BDeu.jkl`.
fn plan_path() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("bnsl-fuzz-plan-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        for file in ["a.jkl", "b.BDeu.jkl"] {
            std::fs::write(dir.join(file), "1\nx 1\n0 0\n").expect("a score file");
        }
        dir.join("plan.toml")
    })
}

fuzz_target!(|data: &[u8]| {
    let Some(text) = common::text(data) else {
        return;
    };
    if text.contains('/') || text.contains("**") {
        return;
    }
    let Ok(plan) = parse_plan(plan_path(), text) else {
        return;
    };
    let runs = plan.runs();
    assert!(runs.len() <= MAX_RUNS);
    let keys: HashSet<&str> = runs.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(keys.len(), runs.len(), "run keys are unique");
});
