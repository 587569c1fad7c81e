//! When a running search must wrap up: its deadline has passed or it was stopped from
//! outside.

use crate::stop::StopToken;
use std::time::Instant;

/// The deadline and stop token a search watches while it runs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budget<'a> {
    deadline: Option<Instant>,
    stop: Option<&'a StopToken>,
}

impl<'a> Budget<'a> {
    /// A budget that is never spent.
    pub(crate) fn unlimited() -> Self {
        Budget {
            deadline: None,
            stop: None,
        }
    }

    /// Spent at `deadline` (if any) or once `stop` is stopped.
    pub(crate) fn new(deadline: Option<Instant>, stop: &'a StopToken) -> Self {
        Budget {
            deadline,
            stop: Some(stop),
        }
    }

    /// Whether the search must wrap up now.
    pub(crate) fn is_spent(&self) -> bool {
        self.stop.is_some_and(StopToken::is_stopped)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}
