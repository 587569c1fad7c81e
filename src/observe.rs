//! What a long run reports while it goes, to whoever watches: the command line draws it
//! as progress bars or log lines; a library user may log it or ignore it ([`Silent`]).

use crate::maxsat::MaxSatScores;
use bnsl_solvers::heuristics::SearchProgress;
use bnsl_solvers::ilp::IlpProgress;

/// Receives a run's progress. Every method has a no-op default, so an observer
/// implements only what it shows. Calls may come from several threads at once (scoring
/// runs in parallel), hence `Sync`.
pub trait Observer: Sync {
    /// A stage of `total` steps (`None`: unknown) begins, e.g. `scoring families`.
    fn stage(&self, _name: &str, _total: Option<u64>) {}
    /// `steps` more steps of the current stage are done.
    fn advance(&self, _steps: u64) {}
    /// The current stage is over.
    fn stage_done(&self) {}
    /// An exact solve moved: incumbent, bound, cuts, nodes or rounds changed.
    fn ilp(&self, _progress: &IlpProgress) {}
    /// The order search finished a restart.
    fn search(&self, _progress: &SearchProgress) {}
    /// A MaxSAT solve found a model or a core.
    fn maxsat(&self, _progress: &MaxSatScores) {}
}

/// The name of the stage in which an exact solve runs; its progress comes through
/// [`Observer::ilp`].
pub const EXACT_SOLVE: &str = "exact solve";

/// An observer that shows nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Observer for Silent {}
