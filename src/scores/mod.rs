//! Local scores from data and candidate parent-set generation with pruning.

pub mod candidates;
pub mod counts;
pub mod local;
pub mod selection;
mod set_key;

pub use candidates::{
    generate_candidates, CandidateOptions, GenerationStats, Pruning, TooManyFamilies,
    BYTES_PER_FAMILY, TIE_TOLERANCE,
};
pub use local::{FamilyScore, LocalScorer, ScoreKind};
pub use selection::{select_candidates, Search, SelectionOptions};
