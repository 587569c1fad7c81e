//! Solver-comparison studies (`bnsl bench`, SPEC §2 C9): a [`plan`] names instances,
//! methods and seeds; every run is a child process ([`child`]) killed past its
//! wall-clock or memory limit, its answer and peak memory kept as a [`record`] in a
//! result folder ([`store`]) with the [`machine`] it ran on; [`report`] turns result
//! folders into markdown tables, a consistency check, and Dolan-Moré performance
//! profiles and time-versus-time scatter plots ([`plot`]).

pub mod child;
pub mod machine;
pub mod plan;
pub mod plot;
pub mod record;
pub mod report;
pub mod store;
