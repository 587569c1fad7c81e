//! bnsl: Bayesian network structure learning by mathematical programming.
//!
//! This crate holds the data side (data sets, BIF networks, local scores, candidate
//! parent sets), score-file formats, verification and output, and the learning pipeline
//! ([`pipeline::learn`]). Problem types come from [`bnsl_formulations`], solvers from
//! [`bnsl_solvers`]. It draws nothing on the terminal: long runs report to an
//! [`observe::Observer`] and stop through a [`StopToken`]. The command line (`bnsl`) is
//! the binary built on it.
//!
//! # Example
//!
//! Learn a network from a score file with the first MILP back-end compiled in (SCIP's
//! branch and cut where present; without one, the ASOBS heuristic), under a time limit,
//! with a progress observer, and a stop token that another thread could stop; then
//! verify the DAG and print it (`examples/learn_with_scip.rs` is the longer version).
//!
//! ```
//! use bnsl::fio::read_scores;
//! use bnsl::observe::Observer;
//! use bnsl::pipeline::{learn, LearnOptions, Method};
//! use bnsl::report::Status;
//! use bnsl::solvers::ilp::IlpProgress;
//! use std::path::Path;
//!
//! struct Bound;
//! impl Observer for Bound {
//!     fn ilp(&self, p: &IlpProgress) {
//!         eprintln!("bound {:?}, incumbent {:?}", p.bound, p.incumbent);
//!     }
//! }
//!
//! let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances/scores/sachs_1000.BDeu1.palim3.jkl");
//! let table = read_scores(&path)?.table;
//! let exact = !bnsl::solvers::milp::backends().is_empty();
//! let mut options = LearnOptions::new(if exact { Method::Ilp } else { Method::Asobs });
//! options.ilp.options.limits.time_limit = Some(60.0);
//! options.heuristic.time_limit = Some(std::time::Duration::from_secs(1));
//! let stop = options.stop.clone(); // `stop.stop()` from any thread ends the run early
//! let report = learn(&table, &options, &Bound)?;
//! let dag = report.dag.as_ref().expect("a DAG");
//! assert_eq!(dag.check(&table)?, report.score.unwrap());
//! if exact {
//!     assert_eq!(report.status, Status::Optimal);
//! }
//! println!("{}", report.summary());
//! # drop(stop);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use bnsl_core::fio;
pub use bnsl_formulations as formulations;
pub use bnsl_solvers as solvers;

#[cfg(feature = "bench")]
pub mod bench;
pub mod bound_history;
pub mod certificate;
pub mod collection;
pub mod dag_io;
pub mod data;
pub mod error;
pub mod ilp;
pub mod maxsat;
pub mod mb;
pub mod observe;
pub mod pb_proof;
pub mod pipeline;
pub mod proof;
pub mod report;
pub mod scores;
pub mod treewidth;

pub use bnsl_solvers::StopToken;
pub use error::InputError;
