//! A MaxSAT solver's answer as `bnsl decode` reads it: the input is the model, a NUL
//! byte, then the answer (without a NUL, the input is both). `read_solution` gets the
//! model's `count_vars`, and a model whose family map reads is decoded with the values.
#![no_main]

mod common;

use bnsl_formulations::maxsat::wcnf_format::{count_vars, read_family_map, read_solution};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = common::text(data) else {
        return;
    };
    let (model, answer) = text.split_once('\0').unwrap_or((text, text));
    let num_vars = count_vars(model);
    let Ok(value) = read_solution(answer, num_vars) else {
        return;
    };
    let vars = value.true_vars();
    assert!(vars.windows(2).all(|w| w[0] < w[1]));
    assert!(vars.iter().all(|&v| (1..=num_vars).contains(&v)));
    if let Ok(map) = read_family_map(model) {
        if let Ok((dag, score)) = map.decode_with(|v| value.value(v)) {
            assert!(dag.is_acyclic() && !score.is_nan());
        }
    }
});
