//! Problem types and math-program builders for bnsl.
//!
//! Every formulation shares one input, the [`ScoreTable`]: for each node, candidate
//! parent sets ([`VarSet`] bitsets) with local scores. Learned networks are [`Dag`]s,
//! checked against the table before anything is reported.

pub mod dag;
pub mod family;
pub mod milp;
pub mod ordering;
pub mod score_table;
pub mod structural;
pub mod varset;

pub use dag::{Dag, DagError};
pub use family::{ClusterCut, ClusterForm, FamilyIlp};
pub use milp::{MilpModel, Sense};
pub use score_table::{Candidate, ScoreTable, ScoreTableError};
pub use structural::{Infeasibility, StructuralConstraints};
pub use varset::VarSet;
