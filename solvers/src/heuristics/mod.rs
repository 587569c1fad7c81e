//! Ordering-based heuristics for large instances (Scanagatta, de Campos, Corani &
//! Zaffalon 2015, *Learning Bayesian Networks with Thousands of Variables*, NIPS 2015,
//! §4): OBS, ASOBS with its descendant test, the swap local search over adjacent nodes,
//! the insertion local search (one node moved to any position; not in Scanagatta et al.), and
//! parallel random restarts; and k-tree sampling for DAGs of bounded treewidth (Nie et al.
//! 2016, §4, [`ktree_search`]).
//!
//! A network is built for a total order of the variables by choosing, per node, the best
//! candidate parent set allowed by a consistency rule; candidate lists are sorted best
//! first, so "the best allowed" is the first allowed one.

mod asobs;
mod budget;
mod descendants;
mod insertion;
mod ktree;
mod local_search;
mod narrow;
mod network;
mod obs;
mod search;

pub use asobs::asobs_network;
pub(crate) use budget::Budget;
pub use ktree::{
    ktree_search, KtreeOptions, KtreeResult, KtreeVersion, DEFAULT_CLIMB_STEPS, VERSION_1_MAX_WIDTH,
};
pub(crate) use local_search::swap_search;
pub(crate) use narrow::narrow_greedy;
pub use network::Network;
pub use obs::obs_network;
pub use search::{
    asobs_search, asobs_search_with_progress, sample_order, AsobsOptions, AsobsResult,
    HeuristicError, LocalSearch, Rule, SearchProgress,
};

#[cfg(test)]
mod tests;
