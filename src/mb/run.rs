//! Discovering blankets target by target, with the per-target measures of Ling et al. 2019, §5.1
//! (number of CI tests and time).

use super::{bamb, hiton_mb, iamb, Algorithm, Blanket, CiTester, MbError};
use std::time::Instant;

/// The blanket of one target and what finding it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct TargetRun {
    /// The target (index of a data variable).
    pub target: usize,
    /// The blanket found.
    pub blanket: Blanket,
    /// Distinct performed CI tests this target's search asked for (some may have been
    /// computed earlier in the run, for another target).
    pub ci_tests: u64,
    /// Wall-clock seconds of this target's search.
    pub time_s: f64,
}

/// Finds the blanket of `target` with `algorithm`.
pub fn discover(ci: &mut CiTester, target: usize, algorithm: Algorithm) -> TargetRun {
    ci.take_requested();
    let start = Instant::now();
    let blanket = match algorithm {
        Algorithm::Bamb => bamb(ci, target),
        Algorithm::Iamb => iamb(ci, target),
        Algorithm::Hiton => hiton_mb(ci, target),
    };
    TargetRun {
        target,
        blanket,
        ci_tests: ci.take_requested(),
        time_s: start.elapsed().as_secs_f64(),
    }
}

/// Finds the blankets of `targets` in order, sharing the test cache; `on_done` is called
/// after each target.
pub fn discover_all(
    ci: &mut CiTester,
    targets: &[usize],
    algorithm: Algorithm,
    on_done: &dyn Fn(&TargetRun),
) -> Vec<TargetRun> {
    targets
        .iter()
        .map(|&t| {
            let run = discover(ci, t, algorithm);
            on_done(&run);
            run
        })
        .collect()
}

/// The index of the variable called `name`, or an error listing the known names.
pub fn target_index(ci: &CiTester, name: &str) -> Result<usize, MbError> {
    let data = ci.data();
    data.index_of(name).ok_or_else(|| MbError::UnknownTarget {
        name: name.to_string(),
        known: data.names().join(", "),
    })
}
