//! Exact and heuristic solvers for Bayesian network structure learning, and the MILP
//! back-ends behind cargo features.

pub mod dp;
pub mod drat;
pub mod enumerate;
pub mod heuristics;
pub mod ilp;
pub mod interrupt;
pub mod maxsat;
pub mod milp;
pub mod stop;
pub mod veripb;

pub use stop::StopToken;

#[cfg(test)]
mod test_tables;
