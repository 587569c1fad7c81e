//! Ctrl+C (SIGINT) as a request to stop a long solve early and report what it has, the
//! way SCIP and GOBNILP treat it.
//!
//! [`catch_ctrl_c`] installs a handler that stops one [`StopToken`] at the first SIGINT;
//! the solve holding that token stops as at a time limit. A second SIGINT ends the
//! process at once (exit code 130). SCIP is told not to catch SIGINT itself (its
//! back-ends watch the token instead) and HiGHS ignores signals.
//!
//! CBC needs more care: it installs a SIGINT handler of its own while it solves, leaves
//! it installed after the solve, and often drops the signal (one that came in its root
//! processing, and on one program every one; see `milp::cbc`). Its back-end wraps each
//! solve in a [`HandlerGuard`] and, while the solve runs, calls [`reclaim_sigint`]: this
//! module's handler goes back in front, stops the token and passes the signal on to
//! CBC's. A token stopped without a signal reaches CBC through
//! [`forward_stop_to_guarded_solver`]. A solve that still does not stop is left running
//! ([`abandon_solve`]) and the process ends after its report
//! ([`exit_if_a_solve_was_abandoned`]).
//!
//! CBC's handler runs only on the thread of the solve it guards. It writes through
//! CBC's global pointers to the model in progress and to a heuristic's sub-model, which
//! that thread frees and replaces as it goes; CBC assumes the handler interrupts the
//! thread that owns them. Run on another thread (the signal lands on any thread, and a
//! token is stopped from the thread that waits for the solve), it raced with those
//! frees and once corrupted the heap. So a signal or stop meant for CBC on another
//! thread is re-sent to the solve's thread (`pthread_kill`), and only there calls CBC's
//! handler.

use crate::stop::StopToken;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The flag of the token that SIGINT stops (leaked by [`catch_ctrl_c`]), null before.
static TOKEN: AtomicPtr<AtomicBool> = AtomicPtr::new(std::ptr::null_mut());
static ABANDONED: AtomicBool = AtomicBool::new(false);
/// The handler of the solve in progress that [`on_sigint`] passes SIGINT on to
/// (a `fn(c_int)` as an address), 0 for none.
static CHAINED: AtomicUsize = AtomicUsize::new(0);
/// Whether a [`HandlerGuard`] is alive, that is a solver call with a handler of its own
/// is in progress.
static GUARDED: AtomicBool = AtomicBool::new(false);
/// Whether the guarded solver's handler has been called since the guard was made.
static FORWARDED: AtomicBool = AtomicBool::new(false);
/// The thread of the guarded solver call (a `pthread_t`), valid while [`GUARDED`].
static GUARDED_THREAD: AtomicU64 = AtomicU64::new(0);
/// Whether a SIGINT was re-sent to the guarded thread ([`call_on_the_guarded_thread`])
/// and not yet handled there: it is for the solver's handler, not a second Ctrl+C.
static RESENT: AtomicBool = AtomicBool::new(false);
/// Orders [`reclaim_sigint`] against a guard's save and restore.
static DISPOSITION: Mutex<()> = Mutex::new(());

extern "C" fn on_sigint(signal: libc::c_int) {
    if RESENT.swap(false, Ordering::SeqCst) {
        call_on_the_guarded_thread(signal);
        return;
    }
    let token = TOKEN.load(Ordering::SeqCst);
    // SAFETY: a non-null pointer is the leaked flag of `catch_ctrl_c`, never freed.
    if !token.is_null() && unsafe { &*token }.swap(true, Ordering::SeqCst) {
        // SAFETY: `_exit` is async-signal-safe.
        unsafe { libc::_exit(130) };
    }
    if CHAINED.load(Ordering::SeqCst) != 0 {
        FORWARDED.store(true, Ordering::SeqCst);
        call_on_the_guarded_thread(signal);
    }
}

/// Calls the guarded solver's chained handler ([`CHAINED`]) if this is the guarded
/// thread; on any other thread re-sends the signal there, where [`on_sigint`] calls it
/// (see the module documentation). Async-signal-safe: atomics, `pthread_self` and
/// `pthread_kill`.
fn call_on_the_guarded_thread(signal: libc::c_int) {
    let chained = CHAINED.load(Ordering::SeqCst);
    if chained == 0 {
        return;
    }
    let guarded = GUARDED_THREAD.load(Ordering::SeqCst);
    if this_thread() == guarded {
        // SAFETY: `reclaim_sigint` stored a plain (non-`SA_SIGINFO`) handler that the
        // solver in progress installed for SIGINT, and this is the solver's thread, so
        // calling it is what the signal would have done.
        let handler: extern "C" fn(libc::c_int) = unsafe { std::mem::transmute(chained) };
        handler(signal);
    } else {
        RESENT.store(true, Ordering::SeqCst);
        // SAFETY: `guarded` is the thread of the live guard (a chained handler is only
        // set while one lives, and the guard's drop runs on that thread).
        if unsafe { libc::pthread_kill(guarded as libc::pthread_t, libc::SIGINT) } != 0 {
            RESENT.store(false, Ordering::SeqCst);
        }
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

/// Whether `action` calls a plain (non-`SA_SIGINFO`) handler function, which may be
/// called with the signal number alone.
fn is_plain_function(action: &libc::sigaction) -> bool {
    action.sa_sigaction != libc::SIG_DFL
        && action.sa_sigaction != libc::SIG_IGN
        && action.sa_flags & libc::SA_SIGINFO == 0
}

/// The calling thread (a `pthread_t`). Async-signal-safe.
fn this_thread() -> u64 {
    // SAFETY: `pthread_self` has no preconditions.
    unsafe { libc::pthread_self() as u64 }
}

/// While a guarded solver call runs ([`HandlerGuard`]) and [`catch_ctrl_c`] is in
/// force, puts this module's handler back if the solver replaced it; the solver's
/// handler is then called after the token is stopped. Call it every few tens of
/// milliseconds from a thread that waits for the solver. Does nothing otherwise.
pub fn reclaim_sigint() {
    let _order = lock_disposition();
    if TOKEN.load(Ordering::SeqCst).is_null() || !GUARDED.load(Ordering::SeqCst) {
        return;
    }
    let current = current_disposition();
    let ours = our_handler();
    if current.sa_sigaction == ours {
        return;
    }
    CHAINED.store(
        if is_plain_function(&current) {
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

/// Has the SIGINT handler of the guarded solver call in progress ([`HandlerGuard`])
/// called on the solver's thread (SIGINT is re-sent there), once per guard, unless a
/// signal already reached it: a [`StopToken`] stopped without a signal (another thread,
/// a library user) then stops CBC as a Ctrl+C would. Does nothing without a guard, or
/// before the solver has installed a plain handler of its own (call it again on the
/// next poll).
pub fn forward_stop_to_guarded_solver() {
    let _order = lock_disposition();
    if !GUARDED.load(Ordering::SeqCst) || FORWARDED.load(Ordering::SeqCst) {
        return;
    }
    if CHAINED.load(Ordering::SeqCst) != 0 {
        FORWARDED.store(true, Ordering::SeqCst);
        call_on_the_guarded_thread(libc::SIGINT);
        return;
    }
    let current = current_disposition();
    if current.sa_sigaction != our_handler() && is_plain_function(&current) {
        FORWARDED.store(true, Ordering::SeqCst);
        let guarded = GUARDED_THREAD.load(Ordering::SeqCst) as libc::pthread_t;
        // SAFETY: the thread of the live guard (its drop, on that thread, waits for the
        // lock held here); the disposition in force there is the solver's handler.
        unsafe { libc::pthread_kill(guarded, libc::SIGINT) };
    }
}

/// Installs the SIGINT handler (see the module documentation): the first SIGINT stops
/// `token`, the second ends the process. The first call decides the token; later calls
/// do nothing.
pub fn catch_ctrl_c(token: &StopToken) {
    let flag = std::sync::Arc::into_raw(token.flag().clone()) as *mut AtomicBool;
    if TOKEN
        .compare_exchange(
            std::ptr::null_mut(),
            flag,
            Ordering::SeqCst,
            Ordering::SeqCst,
        )
        .is_err()
    {
        // SAFETY: `flag` came from `Arc::into_raw` just above and was not stored.
        drop(unsafe { std::sync::Arc::from_raw(flag) });
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
    /// Remembers the current disposition and the calling thread, the solver's: make
    /// the guard on the thread that calls the solver.
    pub fn save() -> Self {
        let _order = lock_disposition();
        GUARDED_THREAD.store(this_thread(), Ordering::SeqCst);
        GUARDED.store(true, Ordering::SeqCst);
        FORWARDED.store(false, Ordering::SeqCst);
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
