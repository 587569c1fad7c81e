//! The core of bnsl: the types every method shares and their file formats.
//!
//! A learning problem is a [`ScoreTable`]: for each node, candidate parent sets
//! ([`VarSet`] bitsets) with local scores, read from and written to GOBNILP's jkl and
//! URLearning's `.pss` files by [`fio`]. Learned networks are [`Dag`]s, checked against
//! the table before anything is reported; [`StructuralConstraints`] (required and
//! forbidden arcs, parent limits) restrict the table, read from constraint files by
//! [`fio::read_constraints`]. Every input error names the file and the line
//! ([`input::InputError`]).

pub mod dag;
pub mod equivalence;
pub mod fio;
pub mod input;
pub mod machine;
pub mod score_table;
pub mod strong_components;
pub mod structural;
pub mod treewidth;
pub mod varset;

pub use dag::{Dag, DagError};
pub use score_table::{score_problem, Candidate, ScoreTable, ScoreTableError, MAX_ABS_SCORE};
pub use structural::{Infeasibility, StructuralConstraints};
pub use varset::VarSet;
