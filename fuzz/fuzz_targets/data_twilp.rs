//! TWILP data (n, arities, N, rows): `parse_data` with `DataFormat::Twilp`, with and
//! without declared variables (the first byte chooses); the data set read is checked.
#![no_main]

mod common;

use bnsl::data::{parse_data, DataFormat, LoadOptions};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Some((choice, text)) = common::choose(data, 2) else {
        return;
    };
    let declared = (choice == 1).then(|| common::declared()[2..].to_vec());
    let opts = LoadOptions {
        format: DataFormat::Twilp,
        declared,
        ..Default::default()
    };
    if let Ok(set) = parse_data(text, Path::new("fuzz.data"), &opts) {
        common::check_data(&set);
        assert!(set
            .names()
            .iter()
            .enumerate()
            .all(|(i, n)| *n == i.to_string()));
    }
});
