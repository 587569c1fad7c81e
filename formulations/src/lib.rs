//! Math-program builders for bnsl: the solver-neutral [`MilpModel`], the family program
//! with its cluster cuts ([`family`]), the ordering formulations ([`ordering`],
//! [`linear_order`]) and the
//! bounded-treewidth MILP ([`bounded_treewidth`]), and the MaxSAT encodings
//! ([`maxsat`]).
//!
//! Every formulation shares one input, the [`ScoreTable`] of `bnsl-core` (re-exported
//! here with the other core types): for each node, candidate parent sets ([`VarSet`]
//! bitsets) with local scores. Learned networks are [`Dag`]s, checked against the table
//! before anything is reported.

pub mod bounded_treewidth;
pub mod family;
pub mod linear_order;
pub mod maxsat;
pub mod milp;
pub mod ordering;

pub use bnsl_core::{
    dag, equivalence, machine, score_table, strong_components, structural, treewidth, varset,
};
pub use bnsl_core::{
    Candidate, Dag, DagError, Infeasibility, ScoreTable, ScoreTableError, StructuralConstraints,
    VarSet,
};
pub use family::{ClusterCut, ClusterForm, FamilyIlp};
pub use milp::{MilpModel, Sense};
