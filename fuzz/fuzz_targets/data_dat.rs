//! Whitespace-separated `.dat` data: `parse_data` with the layout detected from the
//! content or named (GOBNILP, BLIP's older form), with and without declared variables
//! (the first byte chooses); the data set read is checked for consistency.
#![no_main]

mod common;

use bnsl::data::{parse_data, DataFormat, LoadOptions};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Some((choice, text)) = common::choose(data, 6) else {
        return;
    };
    let format =
        [DataFormat::Auto, DataFormat::Gobnilp, DataFormat::BlipOld][usize::from(choice % 3)];
    let opts = LoadOptions {
        format,
        declared: (choice >= 3).then(common::declared),
        ..Default::default()
    };
    if let Ok(set) = parse_data(text, Path::new("fuzz.dat"), &opts) {
        common::check_data(&set);
    }
});
