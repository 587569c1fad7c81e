//! Ordering-based heuristics for large instances (seed 001, Scanagatta, de Campos,
//! Corani & Zaffalon, *Learning Bayesian Networks with Thousands of Variables*, NIPS 2015,
//! §4): OBS, ASOBS with its descendant matrix, the swap local search over adjacent nodes,
//! the insertion local search (one node moved to any position; not in seed 001), and
//! parallel random restarts.
//!
//! A network is built for a total order of the variables by choosing, per node, the best
//! candidate parent set allowed by a consistency rule; candidate lists are sorted best
//! first, so "the best allowed" is the first allowed one.

pub mod asobs;
pub mod descendants;
pub mod insertion;
pub mod local_search;
pub mod network;
pub mod obs;
pub mod search;

pub use asobs::asobs_network;
pub use network::Network;
pub use obs::obs_network;
pub use search::{
    asobs_search, asobs_search_with_progress, sample_order, AsobsOptions, AsobsResult,
    HeuristicError, LocalSearch, Rule, SearchProgress,
};

#[cfg(test)]
mod tests;
