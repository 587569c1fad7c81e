//! Markov blanket discovery by conditional-independence tests (Ling et al. 2019).
//!
//! - [`ci_test`]: the G² test with its degrees of freedom, sparse-table rule, cache and
//!   counter; every algorithm asks it the same way.
//! - [`bamb`](mod@bamb): BAMB, Ling et al. 2019, Algorithm 1 (candidate PC and spouses found together, false
//!   positives removed in one go).
//! - [`iamb`](mod@iamb): IAMB, the baseline of Ling et al. 2019, §5 (grow by strongest dependence, then shrink).
//! - [`hiton`]: HITON-MB, the most accurate baseline of Ling et al. 2019 (HITON-PC of the target and of
//!   each of its PC members, spouses by the v-structure test).
//! - `contingency`: the stratified counts behind G² and its adjusted degrees of freedom.
//! - `subsets`: BAMB's separating-set search.
//! - [`truth`]: the true blanket read off a network, and precision / recall / F1.
//! - [`restrict`]: candidate parents restricted to the discovered PC sets or blankets.
//! - [`run`]: discovering the blankets of several targets with per-target counts and times.

pub mod bamb;
pub mod ci_test;
mod contingency;
pub mod hiton;
pub mod iamb;
pub mod restrict;
pub mod run;
mod subsets;
pub mod truth;

pub use bamb::bamb;
pub use ci_test::{CiOptions, CiOutcome, CiTester, GSquare};
pub use hiton::{hiton_mb, hiton_pc};
pub use iamb::iamb;
pub use restrict::{allowed_parents, Restriction};
pub use run::{discover, discover_all, target_index, TargetRun};
pub use truth::{accuracy, true_blanket, Accuracy, TrueBlanket, TruthMap};

/// The blanket discovery algorithms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Algorithm {
    /// BAMB (Ling et al. 2019, Algorithm 1): reports the parents-and-children and the
    /// spouses.
    #[default]
    Bamb,
    /// IAMB (Tsamardinos et al. 2003), a baseline of Ling et al. 2019: reports the
    /// blanket only.
    Iamb,
    /// HITON-MB (Aliferis et al. 2003), a baseline of Ling et al. 2019: reports the PC
    /// set and the spouses.
    Hiton,
}

impl Algorithm {
    /// The lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Algorithm::Bamb => "bamb",
            Algorithm::Iamb => "iamb",
            Algorithm::Hiton => "hiton",
        }
    }
}

/// A discovered Markov blanket, as sorted variable indices.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Blanket {
    /// The Markov blanket.
    pub mb: Vec<usize>,
    /// Parents and children, when the algorithm tells them apart from the spouses.
    pub pc: Option<Vec<usize>>,
    /// Spouses (MB minus PC), when the algorithm tells them apart.
    pub spouses: Option<Vec<usize>>,
}

/// Errors of blanket discovery: options, unusable data, targets, the true network.
#[derive(Debug, thiserror::Error)]
pub enum MbError {
    /// An option is out of range.
    #[error("{0}")]
    Option(String),
    /// The data cannot be tested (too few rows, a constant column).
    #[error("{0}")]
    Data(String),
    /// A target name that is not a variable of the data.
    #[error("unknown target `{name}`: the data has the variables {known}")]
    UnknownTarget {
        /// The name asked for.
        name: String,
        /// The data's variable names, comma-separated.
        known: String,
    },
    /// The true network does not have the data's variables.
    #[error("{0}")]
    Truth(String),
}
