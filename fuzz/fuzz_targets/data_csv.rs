//! CSV data: `parse_data` under each `Header` choice, with and without declared
//! variables (the first byte chooses); the data set read is checked for consistency.
#![no_main]

mod common;

use bnsl::data::{parse_data, DataFormat, Header, LoadOptions};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Some((choice, text)) = common::choose(data, 8) else {
        return;
    };
    let header = [
        Header::Auto,
        Header::Absent,
        Header::Present,
        Header::WithArities,
    ][usize::from(choice % 4)];
    let opts = LoadOptions {
        format: DataFormat::Auto,
        header,
        declared: (choice >= 4).then(common::declared),
    };
    if let Ok(set) = parse_data(text, Path::new("fuzz.csv"), &opts) {
        common::check_data(&set);
    }
});
