//! The data side: data sets and their readers, BIF networks, forward sampling.

pub mod dataset;

pub use dataset::{DataSet, Variable};
