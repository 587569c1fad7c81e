//! bnsl: Bayesian network structure learning by mathematical programming.
//!
//! This crate holds the data side (data sets, BIF networks, local scores, candidate
//! parent sets), score-file formats, verification and output, and the command line.
//! Problem types come from [`bnsl_formulations`], solvers from [`bnsl_solvers`].

pub use bnsl_formulations as formulations;
pub use bnsl_solvers as solvers;

pub mod cli;
pub mod dag_io;
pub mod data;
pub mod error;
pub mod fio;
pub mod ilp;
pub mod mb;
pub mod pipeline;
pub mod progress;
pub mod report;
pub mod scores;

pub use error::InputError;
