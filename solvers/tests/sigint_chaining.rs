//! `interrupt::reclaim_sigint` on a mock solver that installs its own SIGINT handler
//! and leaves it in force: a stand-in of bnsl's goes in front of it, stops the token and
//! passes the signal on; once the guard is dropped, bnsl's handler is back alone. A token
//! stopped without a signal reaches the solver's handler through
//! `forward_stop_to_guarded_solver`, once per guard, and on the solver's thread when
//! the stop comes from another one. A test binary of its own, since it changes the
//! process's SIGINT disposition.

use bnsl_solvers::interrupt;
use bnsl_solvers::StopToken;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

static SOLVER_SAW: AtomicUsize = AtomicUsize::new(0);
/// The thread the stand-in handler last ran on (a `pthread_t`).
static SOLVER_RAN_ON: AtomicU64 = AtomicU64::new(0);

extern "C" fn solver_handler(_: libc::c_int) {
    // SAFETY: `pthread_self` has no preconditions.
    SOLVER_RAN_ON.store(unsafe { libc::pthread_self() } as u64, Ordering::SeqCst);
    SOLVER_SAW.fetch_add(1, Ordering::SeqCst);
}

fn this_thread() -> u64 {
    // SAFETY: `pthread_self` has no preconditions.
    unsafe { libc::pthread_self() as u64 }
}

fn current_handler() -> libc::sighandler_t {
    // SAFETY: reads the current disposition into a zeroed struct.
    unsafe {
        let mut current: libc::sigaction = std::mem::zeroed();
        libc::sigaction(libc::SIGINT, std::ptr::null(), &mut current);
        current.sa_sigaction
    }
}

#[test]
fn sigint_stops_the_token_and_reaches_the_solver_and_a_token_stop_is_forwarded() {
    let token = StopToken::new();
    interrupt::catch_ctrl_c(&token);
    let ours = current_handler();
    let solver = solver_handler as *const () as libc::sighandler_t;
    {
        // A stop without a signal is forwarded once the solver has its handler in.
        let _guard = interrupt::HandlerGuard::save();
        interrupt::forward_stop_to_guarded_solver();
        assert_eq!(
            SOLVER_SAW.load(Ordering::SeqCst),
            0,
            "no solver handler yet"
        );
        // SAFETY: the stand-in handler only touches an atomic.
        unsafe { libc::signal(libc::SIGINT, solver) };
        interrupt::forward_stop_to_guarded_solver();
        interrupt::forward_stop_to_guarded_solver();
        assert_eq!(SOLVER_SAW.load(Ordering::SeqCst), 1, "forwarded once");
        assert_eq!(SOLVER_RAN_ON.load(Ordering::SeqCst), this_thread());
    }
    SOLVER_SAW.store(0, Ordering::SeqCst);
    {
        let _guard = interrupt::HandlerGuard::save();
        // SAFETY: the stand-in handler only touches an atomic.
        unsafe { libc::signal(libc::SIGINT, solver) };
        interrupt::reclaim_sigint();
        let stand_in = current_handler();
        assert!(
            stand_in != ours && stand_in != solver,
            "a stand-in is in front"
        );
        assert!(!token.is_stopped());
        // SAFETY: a handler is installed, so raising SIGINT runs it and returns.
        unsafe { libc::raise(libc::SIGINT) };
        assert!(token.is_stopped(), "the token is stopped");
        assert_eq!(
            SOLVER_SAW.load(Ordering::SeqCst),
            1,
            "and the signal passed on"
        );
        interrupt::forward_stop_to_guarded_solver();
        assert_eq!(SOLVER_SAW.load(Ordering::SeqCst), 1, "not forwarded twice");
        // The solver installs its handler again over the stand-in: a stand-in of the
        // next level goes in front of it.
        unsafe { libc::signal(libc::SIGINT, solver) };
        interrupt::reclaim_sigint();
        let second = current_handler();
        assert!(
            ![ours, solver, stand_in].contains(&second),
            "a second stand-in"
        );
    }
    assert_eq!(current_handler(), ours, "the guard restores bnsl's handler");
    // Without a guard there is nothing to reclaim from.
    unsafe { libc::signal(libc::SIGINT, solver) };
    interrupt::reclaim_sigint();
    assert_eq!(current_handler(), solver);
    // A solve on a thread of its own: a stop forwarded from this thread runs the
    // solver's handler on the solver's thread.
    unsafe { libc::signal(libc::SIGINT, ours) };
    SOLVER_SAW.store(0, Ordering::SeqCst);
    let (ready, guard_made) = std::sync::mpsc::channel();
    let solver_thread = std::thread::spawn(move || {
        let _guard = interrupt::HandlerGuard::save();
        // SAFETY: the stand-in handler only touches atomics.
        unsafe { libc::signal(libc::SIGINT, solver) };
        ready.send(this_thread()).unwrap();
        let began = Instant::now();
        while SOLVER_SAW.load(Ordering::SeqCst) == 0 && began.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(1));
        }
    });
    let solver_id = guard_made.recv().unwrap();
    interrupt::reclaim_sigint();
    interrupt::forward_stop_to_guarded_solver();
    solver_thread.join().unwrap();
    assert_eq!(SOLVER_SAW.load(Ordering::SeqCst), 1, "forwarded");
    assert_eq!(
        SOLVER_RAN_ON.load(Ordering::SeqCst),
        solver_id,
        "on the solver's thread"
    );
    assert_ne!(solver_id, this_thread());
    assert_eq!(current_handler(), ours, "the guard restores bnsl's handler");
}
