//! A request to stop a running solve early, shared by the solve and whoever may stop it.
//!
//! Every solve carries a [`StopToken`] (in [`Limits`](crate::milp::Limits), and in the
//! heuristics' options). Stopping the token makes the solve end as at a time limit and
//! report what it has: its best DAG and its bound. Each solve may have a token of its
//! own, so two solves in one process stop independently; the command line hands one
//! token to the Ctrl+C handler ([`crate::interrupt::catch_ctrl_c`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A cloneable handle on one stop request: clones share it, so a token given to a solve
/// can be stopped from any thread through a clone kept outside.
#[derive(Clone, Debug, Default)]
pub struct StopToken(Arc<AtomicBool>);

impl StopToken {
    /// A token that has not been stopped.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks every solve holding this token (or a clone of it) to stop.
    pub fn stop(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether [`StopToken::stop`] was called on this token or a clone of it.
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }

    /// The flag itself, for a signal handler that can only touch atomics.
    pub(crate) fn flag(&self) -> &Arc<AtomicBool> {
        &self.0
    }
}

/// Two tokens are equal when they are the same request (clones of one token).
impl PartialEq for StopToken {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_the_request_and_others_do_not() {
        let token = StopToken::new();
        let clone = token.clone();
        let other = StopToken::new();
        assert!(!clone.is_stopped());
        token.stop();
        assert!(clone.is_stopped());
        assert!(!other.is_stopped());
        assert_eq!(token, clone);
        assert_ne!(token, other);
    }
}
