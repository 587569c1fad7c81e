//! Ctrl+C (SIGINT) as a request to stop a long solve early and report what it has, the
//! way SCIP and GOBNILP treat it.
//!
//! [`catch_ctrl_c`] installs a handler that records the first SIGINT; engines poll
//! [`requested`] between rounds and stop as at a time limit. A second SIGINT ends the
//! process at once (exit code 130). SCIP and CBC install their own SIGINT handlers while
//! they solve and stop their search on it without telling this module; their back-ends
//! report such a stop through [`record`], and the CBC back-end puts this module's
//! handler back after each solve ([`HandlerGuard`]), since CBC never removes its own.
//! HiGHS ignores signals; its back-end polls [`requested`] from HiGHS's MIP-interrupt
//! callback.

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// Whether the user asked to stop (a SIGINT since [`catch_ctrl_c`]).
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}

/// Records a stop request that a solver's own handler caught.
pub fn record() {
    REQUESTED.store(true, Ordering::SeqCst);
}

extern "C" fn on_sigint(_: libc::c_int) {
    if REQUESTED.swap(true, Ordering::SeqCst) {
        // SAFETY: `_exit` is async-signal-safe.
        unsafe { libc::_exit(130) };
    }
}

/// Installs the SIGINT handler (see the module documentation). Once is enough; later
/// calls do nothing.
pub fn catch_ctrl_c() {
    if INSTALLED.swap(true, Ordering::SeqCst) {
        return;
    }
    // SAFETY: the handler only touches an atomic and calls `_exit`, both
    // async-signal-safe.
    unsafe { libc::signal(libc::SIGINT, on_sigint as *const () as libc::sighandler_t) };
}

/// Saves the SIGINT disposition when made and restores it when dropped: around a
/// solver call that installs its own handler and leaves it behind (CBC).
pub struct HandlerGuard(libc::sigaction);

impl HandlerGuard {
    /// Remembers the current disposition.
    pub fn save() -> Self {
        // SAFETY: with a null new action, `sigaction` only reads the current one into
        // the zeroed (valid) struct.
        unsafe {
            let mut current: libc::sigaction = std::mem::zeroed();
            libc::sigaction(libc::SIGINT, std::ptr::null(), &mut current);
            HandlerGuard(current)
        }
    }
}

impl Drop for HandlerGuard {
    fn drop(&mut self) {
        // SAFETY: `self.0` was filled in by `sigaction`.
        unsafe { libc::sigaction(libc::SIGINT, &self.0, std::ptr::null_mut()) };
    }
}
