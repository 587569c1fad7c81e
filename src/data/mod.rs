//! The data side: data sets and their readers, BIF networks, forward sampling.
//!
//! [`load_data`] reads CSV ([`csv`]) and the whitespace-separated `.dat` layouts
//! ([`dat`]); [`write_csv`] and [`write_dat`] write them. [`read_bif`] and
//! [`write_bif`] read and write networks ([`BayesNet`]); [`sample()`] draws data from
//! one.

pub mod bif;
pub mod coding;
pub mod csv;
pub mod dat;
pub mod dataset;
pub mod network;
pub mod sample;
pub mod write;

pub use bif::{parse_bif, read_bif, write_bif};
pub use csv::{parse_csv, Header};
pub use dat::{parse_dat, DatLayout};
pub use dataset::{DataSet, Variable, MAX_ARITY};
pub use network::{BayesNet, SUM_TOLERANCE};
pub use sample::sample;
pub use write::{write_csv, write_dat};

use crate::error::{read_text, InputError};
use bnsl_core::input::nonblank_lines;
use std::path::Path;

/// The format of a data file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum DataFormat {
    /// Decide from the file: a name ending in `.csv` (before an optional `.gz`) is CSV;
    /// otherwise CSV when the first non-blank line holds a comma, else a
    /// whitespace-separated layout detected by [`dat::detect_dat_layout`].
    #[default]
    Auto,
    /// Comma-separated values (see [`csv`]).
    Csv,
    /// GOBNILP `.dat`: names, arities, rows.
    Gobnilp,
    /// BLIP's older `.dat`: n, names, arities, N, rows.
    BlipOld,
    /// TWILP input: n, arities, N, rows.
    Twilp,
}

/// How [`load_data`] reads a file.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// The file format.
    pub format: DataFormat,
    /// Whether a CSV file has a header (ignored for the `.dat` layouts).
    pub header: Header,
    /// Declared variables (typically a network's, see [`LoadOptions::with_network`]):
    /// every column must be one of them and takes its declared states, including
    /// states that never occur (scores then use the declared arities).
    pub declared: Option<Vec<Variable>>,
}

impl LoadOptions {
    /// Options declaring the variables and states of `net`.
    pub fn with_network(net: &BayesNet) -> Self {
        LoadOptions {
            declared: Some(net.variables.clone()),
            ..Default::default()
        }
    }
}

/// Reads the data set at `path` (gunzipped when the name ends in `.gz`). Every error
/// names the file, the line where there is one, and the cause; a file without data
/// rows is an error.
pub fn load_data(path: &Path, opts: &LoadOptions) -> Result<DataSet, InputError> {
    parse_data(&read_text(path)?, path, opts)
}

/// Reads a data set from `text`; `path` names it in errors and, under
/// [`DataFormat::Auto`], its extension helps choose the format.
pub fn parse_data(text: &str, path: &Path, opts: &LoadOptions) -> Result<DataSet, InputError> {
    let declared = opts.declared.as_deref();
    match resolve_format(text, path, opts.format) {
        DataFormat::Csv | DataFormat::Auto => parse_csv(text, path, opts.header, declared),
        DataFormat::Gobnilp => parse_dat(text, path, Some(DatLayout::Gobnilp), declared),
        DataFormat::BlipOld => parse_dat(text, path, Some(DatLayout::BlipOld), declared),
        DataFormat::Twilp => parse_dat(text, path, Some(DatLayout::Twilp), declared),
    }
}

/// The concrete format under `format` (see [`DataFormat::Auto`]).
fn resolve_format(text: &str, path: &Path, format: DataFormat) -> DataFormat {
    if format != DataFormat::Auto {
        return format;
    }
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    let first = nonblank_lines(text).next().map_or("", |(_, line)| line);
    if name.ends_with(".csv") || first.contains(',') {
        return DataFormat::Csv;
    }
    match dat::detect_dat_layout(&coding::data_lines(text)) {
        DatLayout::Gobnilp => DataFormat::Gobnilp,
        DatLayout::BlipOld => DataFormat::BlipOld,
        DatLayout::Twilp => DataFormat::Twilp,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_follows_extension_then_content() {
        let auto = |text: &str, name: &str| resolve_format(text, Path::new(name), DataFormat::Auto);
        assert_eq!(auto("a b\n2 2\n0 1\n", "x.csv"), DataFormat::Csv);
        assert_eq!(auto("a b\n2 2\n0 1\n", "x.dat"), DataFormat::Gobnilp);
        assert_eq!(auto("a,b\n0,1\n", "x.txt"), DataFormat::Csv);
        assert_eq!(auto("2\n2 2\n1\n0 1\n", "x.data"), DataFormat::Twilp);
        assert_eq!(auto("a b\n2 2\n0 1\n", "x.csv.gz"), DataFormat::Csv);
    }

    #[test]
    fn declared_network_keeps_unseen_states_through_csv() {
        let net = network::tests::small_net();
        let d = parse_data(
            "c,a\nz,n\nx,n\n",
            Path::new("s.csv"),
            &LoadOptions::with_network(&net),
        )
        .unwrap();
        assert_eq!(d.arities(), [3, 2]);
        assert_eq!(d.column(0), [2, 0]);
    }
}
