//! Ctrl+C (SIGINT) as a request to stop a long solve early and report what it has, the
//! way SCIP and GOBNILP treat it.
//!
//! [`catch_ctrl_c`] installs a handler that stops one [`StopToken`] at the first SIGINT;
//! the solve holding that token stops as at a time limit. A second SIGINT ends the
//! process at once (exit code 130). SCIP is told not to catch SIGINT itself (its
//! back-ends watch the token instead) and HiGHS ignores signals.
//!
//! CBC needs more care. Its LP solver, Clp, installs a SIGINT handler of its own around
//! each initial LP solve (`ClpSimplex::initialSolve`), saving the disposition in force
//! and putting it back at the end. That handler stops the LP in progress through a
//! static pointer to the LP's model, which Clp leaves pointing at that model when it
//! puts the old disposition back; the model may be freed soon after. So the handler may
//! be called only while its own installation is in force, and only on the thread that
//! solves (it interrupts the code that owns the model).
//!
//! A solver call with a handler of its own runs inside a [`HandlerGuard`], and a thread
//! that waits for it calls [`reclaim_sigint`] every few tens of milliseconds. When the
//! solver's handler is in force, reclaiming puts a *stand-in* of bnsl's in front of it:
//! a handler function that remembers which solver handler it displaced. A SIGINT that
//! reaches a stand-in stops the token and then runs the displaced handler on the solver's
//! thread (re-sent there with `pthread_kill` when it landed elsewhere). When the solver
//! puts back what it saved, the stand-in it saved comes back with it, or bnsl's own
//! handler, which runs no solver handler: a displaced handler is thus called only while
//! the solver's installation of it would still be in force. Solvers that nest their
//! installations (save, install, put back) are covered three levels deep, each level
//! with a stand-in of its own. A token stopped without a signal reaches the solver
//! through [`forward_stop_to_guarded_solver`]. A solve that still does not stop is left
//! running ([`abandon_solve`]) and the process ends after its report
//! ([`exit_if_a_solve_was_abandoned`]).

use crate::stop::StopToken;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// How many solver handlers installed one inside another bnsl can stand in front of;
/// a deeper one is left in force alone.
const LEVELS: usize = 3;

/// The flag of the token that SIGINT stops (leaked by [`catch_ctrl_c`]), null before.
static TOKEN: AtomicPtr<AtomicBool> = AtomicPtr::new(std::ptr::null_mut());
static ABANDONED: AtomicBool = AtomicBool::new(false);
/// The solver handler (a `fn(c_int)` as an address, 0 for none) that the stand-in of
/// each level displaced.
static DISPLACED: [AtomicUsize; LEVELS] = [const { AtomicUsize::new(0) }; LEVELS];
/// How many levels of stand-ins were in force when [`reclaim_sigint`] last looked.
static DEPTH: AtomicUsize = AtomicUsize::new(0);
/// Whether a [`HandlerGuard`] is alive, that is a solver call with a handler of its own
/// is in progress.
static GUARDED: AtomicBool = AtomicBool::new(false);
/// Whether a stop has been passed on to the guarded solver since the guard was made.
static FORWARDED: AtomicBool = AtomicBool::new(false);
/// The thread of the guarded solver call (a `pthread_t`), valid while [`GUARDED`].
static GUARDED_THREAD: AtomicU64 = AtomicU64::new(0);
/// Whether a SIGINT was re-sent to the guarded thread and not yet handled there: it is
/// for the displaced handler, not a second Ctrl+C.
static RESENT: AtomicBool = AtomicBool::new(false);
/// Orders [`reclaim_sigint`] and [`forward_stop_to_guarded_solver`] against a guard's
/// save and restore.
static DISPOSITION: Mutex<()> = Mutex::new(());

/// The stand-ins, one per level.
const STAND_INS: [extern "C" fn(libc::c_int); LEVELS] =
    [stand_in::<0>, stand_in::<1>, stand_in::<2>];

/// bnsl's own handler: stops the token, or ends the process at a second SIGINT. A
/// re-sent signal that finds it in force came after the solver put its saved disposition
/// back: the handler it was meant for is gone, and the stop waits for the next one.
extern "C" fn on_sigint(_: libc::c_int) {
    if is_a_resent_signal() {
        FORWARDED.store(false, Ordering::SeqCst);
        return;
    }
    stop_the_token_or_exit();
}

/// The stand-in of level `LEVEL` (see the module documentation): a Ctrl+C stops the
/// token and then runs the handler this stand-in displaced, on the solver's thread.
extern "C" fn stand_in<const LEVEL: usize>(signal: libc::c_int) {
    if !is_a_resent_signal() {
        stop_the_token_or_exit();
        // Whoever marks the stop forwarded first (this handler or a waiting thread's
        // `forward_stop_to_guarded_solver`) re-sends it: one re-sent signal at a time,
        // so none is taken for a second Ctrl+C.
        let first = !FORWARDED.swap(true, Ordering::SeqCst);
        if !is_the_guarded_thread() {
            if first {
                resend_to_the_guarded_thread();
            }
            return;
        }
    }
    let displaced = DISPLACED[LEVEL].load(Ordering::SeqCst);
    if displaced != 0 {
        // SAFETY: `stand_in_front` stored a plain (non-`SA_SIGINFO`) handler that the
        // solver installed, and this stand-in is in force, so the solver has not put back
        // what it saved: calling the handler here, on the solver's thread, is what the
        // signal would have done.
        let handler: extern "C" fn(libc::c_int) = unsafe { std::mem::transmute(displaced) };
        handler(signal);
    }
}

/// Stops [`TOKEN`]'s flag; ends the process if it was stopped already. Async-signal-safe.
fn stop_the_token_or_exit() {
    let token = TOKEN.load(Ordering::SeqCst);
    // SAFETY: a non-null pointer is the leaked flag of `catch_ctrl_c`, never freed.
    if !token.is_null() && unsafe { &*token }.swap(true, Ordering::SeqCst) {
        // SAFETY: `_exit` is async-signal-safe.
        unsafe { libc::_exit(130) };
    }
}

/// Whether this signal is one [`resend_to_the_guarded_thread`] sent; consumes the mark.
fn is_a_resent_signal() -> bool {
    is_the_guarded_thread() && RESENT.swap(false, Ordering::SeqCst)
}

fn is_the_guarded_thread() -> bool {
    this_thread() == GUARDED_THREAD.load(Ordering::SeqCst)
}

/// Sends SIGINT to the guarded thread, marked as re-sent. Async-signal-safe.
fn resend_to_the_guarded_thread() {
    RESENT.store(true, Ordering::SeqCst);
    let guarded = GUARDED_THREAD.load(Ordering::SeqCst) as libc::pthread_t;
    // SAFETY: the thread of the live guard (its drop, on that thread, restores bnsl's
    // handler first).
    if unsafe { libc::pthread_kill(guarded, libc::SIGINT) } != 0 {
        RESENT.store(false, Ordering::SeqCst);
    }
}

/// A handler function as the C library takes it.
fn as_handler(function: extern "C" fn(libc::c_int)) -> libc::sighandler_t {
    function as *const () as libc::sighandler_t
}

/// What a SIGINT handler in force is.
enum Handler {
    Ours,
    StandIn(usize),
    Solvers,
}

fn classify(handler: libc::sighandler_t) -> Handler {
    if handler == as_handler(on_sigint) {
        return Handler::Ours;
    }
    match STAND_INS.iter().position(|&s| as_handler(s) == handler) {
        Some(level) => Handler::StandIn(level),
        None => Handler::Solvers,
    }
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
/// force, puts a stand-in in front of the solver's handler if one is in force (see the
/// module documentation). Call it every few tens of milliseconds from a thread that
/// waits for the solver. Does nothing otherwise.
pub fn reclaim_sigint() {
    let _order = lock_disposition();
    if !TOKEN.load(Ordering::SeqCst).is_null() && GUARDED.load(Ordering::SeqCst) {
        stand_in_front(&current_disposition());
    }
}

/// The work of [`reclaim_sigint`] on the disposition `current`, with the lock held and
/// a guard alive: returns the level of the stand-in now in force, if one is.
fn stand_in_front(current: &libc::sigaction) -> Option<usize> {
    match classify(current.sa_sigaction) {
        Handler::Ours => {
            DEPTH.store(0, Ordering::SeqCst);
            None
        }
        Handler::StandIn(level) => {
            DEPTH.store(level + 1, Ordering::SeqCst);
            Some(level)
        }
        Handler::Solvers => {
            // The solver installed it over the last level seen or, having put some back
            // meanwhile, over a lower one: either way no stand-in of this level or above
            // is saved anywhere.
            let level = DEPTH.load(Ordering::SeqCst);
            let stand_in = *STAND_INS.get(level)?;
            let displaced = if is_plain_function(current) {
                current.sa_sigaction
            } else {
                0
            };
            DISPLACED[level].store(displaced, Ordering::SeqCst);
            // SAFETY: the stand-in only touches atomics, calls `pthread_kill` and `_exit`
            // (async-signal-safe) and the solver's own handler as described above.
            unsafe { libc::signal(libc::SIGINT, as_handler(stand_in)) };
            DEPTH.store(level + 1, Ordering::SeqCst);
            Some(level)
        }
    }
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

/// Passes a stopped [`StopToken`] on to the guarded solver call in progress
/// ([`HandlerGuard`]) as a Ctrl+C would: when a handler of the solver's is in force, a
/// stand-in goes in front of it and SIGINT is sent to the solver's thread, where the
/// stand-in runs it. Once per guard, unless the solver had put its handler away when
/// the signal came; does nothing without a guard or while no handler of the solver's is
/// in force (call it again on the next poll).
pub fn forward_stop_to_guarded_solver() {
    let _order = lock_disposition();
    if !GUARDED.load(Ordering::SeqCst) || FORWARDED.load(Ordering::SeqCst) {
        return;
    }
    let current = current_disposition();
    // SIG_DFL, SIG_IGN or an `SA_SIGINFO` handler: nothing to forward to, and no
    // stand-in goes in front of it here, since without `catch_ctrl_c` a stand-in would
    // leave a Ctrl+C with no token to stop.
    if matches!(classify(current.sa_sigaction), Handler::Solvers) && !is_plain_function(&current) {
        return;
    }
    let in_force = stand_in_front(&current);
    if in_force.is_some_and(|level| DISPLACED[level].load(Ordering::SeqCst) != 0)
        && !FORWARDED.swap(true, Ordering::SeqCst)
    {
        resend_to_the_guarded_thread();
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
    // SAFETY: the handler only touches atomics and calls `_exit` (async-signal-safe).
    unsafe { libc::signal(libc::SIGINT, as_handler(on_sigint)) };
}

/// Saves the SIGINT disposition when made and restores it when dropped: around a
/// solver call that installs its own handler. While it lives, [`reclaim_sigint`] may put
/// stand-ins in front of the solver's handlers; once dropped, no solver handler is
/// called.
pub struct HandlerGuard(libc::sigaction);

impl HandlerGuard {
    /// Remembers the current disposition and the calling thread, the solver's: make
    /// the guard on the thread that calls the solver.
    pub fn save() -> Self {
        let _order = lock_disposition();
        GUARDED_THREAD.store(this_thread(), Ordering::SeqCst);
        GUARDED.store(true, Ordering::SeqCst);
        FORWARDED.store(false, Ordering::SeqCst);
        DEPTH.store(0, Ordering::SeqCst);
        HandlerGuard(current_disposition())
    }
}

impl Drop for HandlerGuard {
    fn drop(&mut self) {
        let _order = lock_disposition();
        // SAFETY: `self.0` was filled in by `sigaction`.
        unsafe { libc::sigaction(libc::SIGINT, &self.0, std::ptr::null_mut()) };
        for displaced in &DISPLACED {
            displaced.store(0, Ordering::SeqCst);
        }
        GUARDED.store(false, Ordering::SeqCst);
    }
}
