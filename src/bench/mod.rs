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

/// Seconds since the Unix epoch now (0 on a clock set before it): the time stamps of
/// machine and run records.
fn unix_seconds() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
