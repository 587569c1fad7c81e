//! A mock solver that, like Clp around each initial LP solve, saves the SIGINT
//! disposition, installs its own handler, and puts the saved one back; its handler
//! writes through state that is valid only while that installation is in force. While
//! `interrupt::reclaim_sigint` polls and stops are forwarded at random moments, the
//! solver's handler must run only while it is installed, only on the solver's thread,
//! and it must run. A test binary of its own, since it changes the process's SIGINT
//! disposition.

use bnsl_solvers::interrupt;
use bnsl_solvers::StopToken;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Whether the mock solver's handler is installed (set before it installs it, cleared
/// after it puts the saved disposition back).
static INSTALLED: AtomicBool = AtomicBool::new(false);
static SOLVER_THREAD: AtomicU64 = AtomicU64::new(0);
static CALLS_WHILE_INSTALLED: AtomicUsize = AtomicUsize::new(0);
static CALLS_AFTER_REMOVAL: AtomicUsize = AtomicUsize::new(0);
static CALLS_ON_ANOTHER_THREAD: AtomicUsize = AtomicUsize::new(0);

fn this_thread() -> u64 {
    // SAFETY: `pthread_self` has no preconditions.
    unsafe { libc::pthread_self() as u64 }
}

extern "C" fn solver_handler(_: libc::c_int) {
    if this_thread() != SOLVER_THREAD.load(Ordering::SeqCst) {
        CALLS_ON_ANOTHER_THREAD.fetch_add(1, Ordering::SeqCst);
    }
    if INSTALLED.load(Ordering::SeqCst) {
        CALLS_WHILE_INSTALLED.fetch_add(1, Ordering::SeqCst);
    } else {
        CALLS_AFTER_REMOVAL.fetch_add(1, Ordering::SeqCst);
    }
}

fn spin(duration: Duration) {
    let began = Instant::now();
    while began.elapsed() < duration {
        std::hint::spin_loop();
    }
}

/// One guarded solve: `rounds` initial LP solves of 3 ms, 1 ms apart.
fn solve(rounds: usize) {
    let _guard = interrupt::HandlerGuard::save();
    SOLVER_THREAD.store(this_thread(), Ordering::SeqCst);
    let solver = solver_handler as *const () as libc::sighandler_t;
    for _ in 0..rounds {
        INSTALLED.store(true, Ordering::SeqCst);
        // SAFETY: the mock handler only touches atomics.
        let saved = unsafe { libc::signal(libc::SIGINT, solver) };
        spin(Duration::from_millis(3));
        // SAFETY: puts back the disposition saved just above.
        unsafe { libc::signal(libc::SIGINT, saved) };
        INSTALLED.store(false, Ordering::SeqCst);
        spin(Duration::from_millis(1));
    }
}

/// A small deterministic pseudo-random sequence (xorshift), for the moments of stops.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn a_solver_handler_runs_only_while_installed_and_on_the_solvers_thread() {
    let token = StopToken::new();
    interrupt::catch_ctrl_c(&token);
    let mut state = 0x9e37_79b9_7f4a_7c15;
    for trial in 0..60 {
        let solver = std::thread::spawn(|| solve(10));
        let stop_after = Duration::from_micros(next(&mut state) % 30_000);
        let began = Instant::now();
        let mut stopped = false;
        while !solver.is_finished() {
            interrupt::reclaim_sigint();
            if began.elapsed() >= stop_after && !stopped {
                stopped = true;
                if trial == 0 {
                    // The first stop is a real SIGINT to the process.
                    // SAFETY: bnsl's handler is installed; it stops the token.
                    unsafe { libc::kill(libc::getpid(), libc::SIGINT) };
                }
            }
            if stopped {
                interrupt::forward_stop_to_guarded_solver();
            }
            std::thread::sleep(Duration::from_micros(next(&mut state) % 2_000));
        }
        solver.join().unwrap();
    }
    assert!(token.is_stopped(), "the SIGINT stopped the token");
    assert_eq!(CALLS_AFTER_REMOVAL.load(Ordering::SeqCst), 0, "stale calls");
    assert_eq!(CALLS_ON_ANOTHER_THREAD.load(Ordering::SeqCst), 0);
    assert!(
        CALLS_WHILE_INSTALLED.load(Ordering::SeqCst) > 0,
        "stops reached the solver"
    );
}
