//! Ctrl+C (SIGINT) as a request to stop a long solve early and report what it has, the
//! way SCIP and GOBNILP treat it.
//!
//! [`catch_ctrl_c`] installs a handler that records the first SIGINT; engines poll
//! [`requested`] between rounds and stop as at a time limit. A second SIGINT ends the
//! process at once (exit code 130). SCIP and CBC install their own SIGINT handlers while
//! they solve and stop their search on it without telling this module; their back-ends
//! report such a stop through [`record`]. HiGHS ignores signals; its back-end polls
//! [`requested`] from HiGHS's MIP-interrupt callback.
//!
//! CBC needs more care: its handler is left installed after the solve, and it often
//! drops the signal (one that came in its root processing, and on one program every
//! one; see `milp::cbc`). Its
//! back-end wraps each solve in a [`HandlerGuard`] and, while the solve runs, calls
//! [`reclaim_sigint`]: this module's handler goes back in front, records the request
//! and passes the signal on to CBC's. A solve that still does not stop is left
//! running ([`abandon_solve`]) and the process ends after its report
//! ([`exit_if_a_solve_was_abandoned`]).

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

static REQUESTED: AtomicBool = AtomicBool::new(false);
static INSTALLED: AtomicBool = AtomicBool::new(false);
static ABANDONED: AtomicBool = AtomicBool::new(false);
/// The handler of the solve in progress that [`on_sigint`] passes SIGINT on to
/// (a `fn(c_int)` as an address), 0 for none.
static CHAINED: AtomicUsize = AtomicUsize::new(0);
/// Whether a [`HandlerGuard`] is alive, that is a solver call with a handler of its own
/// is in progress.
static GUARDED: AtomicBool = AtomicBool::new(false);
/// Orders [`reclaim_sigint`] against a guard's save and restore.
static DISPOSITION: Mutex<()> = Mutex::new(());

/// Whether the user asked to stop (a SIGINT since [`catch_ctrl_c`]).
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}

/// Records a stop request that a solver's own handler caught.
pub fn record() {
    REQUESTED.store(true, Ordering::SeqCst);
}

extern "C" fn on_sigint(signal: libc::c_int) {
    if REQUESTED.swap(true, Ordering::SeqCst) {
        // SAFETY: `_exit` is async-signal-safe.
        unsafe { libc::_exit(130) };
    }
    let chained = CHAINED.load(Ordering::SeqCst);
    if chained != 0 {
        // SAFETY: `reclaim_sigint` stored a plain (non-`SA_SIGINFO`) handler that the
        // solver in progress installed for SIGINT, so calling it is what the signal
        // would have done.
        let handler: extern "C" fn(libc::c_int) = unsafe { std::mem::transmute(chained) };
        handler(signal);
    }
}

/// [`on_sigint`] as the C library takes a handler.
fn our_handler() -> libc::sighandler_t {
    on_sigint as *const () as libc::sighandler_t
}

fn lock_disposition() -> std::sync::MutexGuard<'static, ()> {
    DISPOSITION
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The current SIGINT disposition.
fn current_disposition() -> libc::sigaction {
    // SAFETY: with a null new action, `sigaction` only reads the current one into the
    // zeroed (valid) struct.
    unsafe {
        let mut current: libc::sigaction = std::mem::zeroed();
        libc::sigaction(libc::SIGINT, std::ptr::null(), &mut current);
        current
    }
}

/// While a guarded solver call runs ([`HandlerGuard`]) and [`catch_ctrl_c`] is in
/// force, puts this module's handler back if the solver replaced it; the solver's
/// handler is then called after the request is recorded. Call it every few tens of
/// milliseconds from a thread that waits for the solver. Does nothing otherwise.
pub fn reclaim_sigint() {
    let _order = lock_disposition();
    if !INSTALLED.load(Ordering::SeqCst) || !GUARDED.load(Ordering::SeqCst) {
        return;
    }
    let current = current_disposition();
    let ours = our_handler();
    if current.sa_sigaction == ours {
        return;
    }
    let plain_function = current.sa_sigaction != libc::SIG_DFL
        && current.sa_sigaction != libc::SIG_IGN
        && current.sa_flags & libc::SA_SIGINFO == 0;
    CHAINED.store(
        if plain_function {
            current.sa_sigaction
        } else {
            0
        },
        Ordering::SeqCst,
    );
    // SAFETY: see `catch_ctrl_c`; the chained handler is the solver's own.
    unsafe { libc::signal(libc::SIGINT, ours) };
}

/// Records that a solve stopped by Ctrl+C was left running on its thread: its back-end
/// returned without its answer.
pub fn abandon_solve() {
    ABANDONED.store(true, Ordering::SeqCst);
}

/// Ends the process with `code` once the report is written if a solve was left running
/// ([`abandon_solve`]): neither waiting for it nor running the C++ libraries' exit-time
/// destructors under its feet. Standard output and error are flushed first.
pub fn exit_if_a_solve_was_abandoned(code: i32) {
    if ABANDONED.load(Ordering::SeqCst) {
        let _ = std::io::stdout().flush();
        let _ = std::io::stderr().flush();
        // SAFETY: ends the process without running exit handlers, on purpose.
        unsafe { libc::_exit(code) };
    }
}

/// Installs the SIGINT handler (see the module documentation). Once is enough; later
/// calls do nothing.
pub fn catch_ctrl_c() {
    if INSTALLED.swap(true, Ordering::SeqCst) {
        return;
    }
    // SAFETY: the handler only touches atomics and calls `_exit` (async-signal-safe) or
    // the handler a solver installed for this signal.
    unsafe { libc::signal(libc::SIGINT, our_handler()) };
}

/// Saves the SIGINT disposition when made and restores it when dropped: around a
/// solver call that installs its own handler and leaves it behind (CBC). While it
/// lives, [`reclaim_sigint`] may put this module's handler in front of the solver's;
/// once dropped, the solver's handler is no longer called.
pub struct HandlerGuard(libc::sigaction);

impl HandlerGuard {
    /// Remembers the current disposition.
    pub fn save() -> Self {
        let _order = lock_disposition();
        GUARDED.store(true, Ordering::SeqCst);
        HandlerGuard(current_disposition())
    }
}

impl Drop for HandlerGuard {
    fn drop(&mut self) {
        let _order = lock_disposition();
        // SAFETY: `self.0` was filled in by `sigaction`.
        unsafe { libc::sigaction(libc::SIGINT, &self.0, std::ptr::null_mut()) };
        CHAINED.store(0, Ordering::SeqCst);
        GUARDED.store(false, Ordering::SeqCst);
    }
}
