//! `interrupt::reclaim_sigint` on a stand-in for a solver that installs its own SIGINT
//! handler (as CBC does): bnsl's handler goes back in front, records the request and
//! passes the signal on; once the guard is dropped, bnsl's handler is back alone. A test
//! binary of its own, since it changes the process's SIGINT disposition.

use bnsl_solvers::interrupt;
use std::sync::atomic::{AtomicUsize, Ordering};

static SOLVER_SAW: AtomicUsize = AtomicUsize::new(0);

extern "C" fn solver_handler(_: libc::c_int) {
    SOLVER_SAW.fetch_add(1, Ordering::SeqCst);
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
fn a_reclaimed_sigint_is_recorded_and_passed_on_to_the_solver() {
    interrupt::catch_ctrl_c();
    let ours = current_handler();
    let solver = solver_handler as *const () as libc::sighandler_t;
    {
        let _guard = interrupt::HandlerGuard::save();
        // SAFETY: the stand-in handler only touches an atomic.
        unsafe { libc::signal(libc::SIGINT, solver) };
        interrupt::reclaim_sigint();
        assert_eq!(current_handler(), ours, "bnsl's handler is back in front");
        assert!(!interrupt::requested());
        // SAFETY: a handler is installed, so raising SIGINT runs it and returns.
        unsafe { libc::raise(libc::SIGINT) };
        assert!(interrupt::requested(), "the request is recorded");
        assert_eq!(SOLVER_SAW.load(Ordering::SeqCst), 1, "and passed on");
        // The solver puts its handler back; reclaiming again changes nothing else.
        unsafe { libc::signal(libc::SIGINT, solver) };
        interrupt::reclaim_sigint();
        assert_eq!(current_handler(), ours);
    }
    assert_eq!(current_handler(), ours, "the guard restores bnsl's handler");
    // Without a guard there is nothing to reclaim from.
    unsafe { libc::signal(libc::SIGINT, solver) };
    interrupt::reclaim_sigint();
    assert_eq!(current_handler(), solver);
}
