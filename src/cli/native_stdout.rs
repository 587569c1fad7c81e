//! Keeping standard output for bnsl's own results while a native back-end prints.
//!
//! SCIP, HiGHS and CBC write their logs (`--solver-log`) to the process's standard
//! output (file descriptor 1), where `bnsl learn --json` writes its result, and a few
//! lines even with their logs off (Clp's "N slacks added" in CBC's rounds). `bnsl learn`
//! points file descriptor 1 at standard error for the rest of the run, so whatever the
//! libraries print goes there, and bnsl's own output ([`super::out`]) goes to a copy of
//! the original standard output.

use std::fs::File;
use std::io::Write;
use std::mem::ManuallyDrop;
use std::os::fd::{FromRawFd, RawFd};
use std::sync::OnceLock;

/// The copy of the original standard output, once the native logs are sent to stderr.
static RESULTS: OnceLock<RawFd> = OnceLock::new();

/// Sends everything written to file descriptor 1 from now on to standard error, and
/// keeps the original standard output for [`write_results`].
pub(crate) fn send_native_logs_to_stderr() -> std::io::Result<()> {
    if RESULTS.get().is_some() {
        return Ok(());
    }
    std::io::stdout().flush()?;
    // SAFETY: dup and dup2 on the process's own standard descriptors; the copy is never
    // closed, and descriptor 1 stays open (as a copy of descriptor 2).
    let copy = unsafe { libc::dup(1) };
    if copy < 0 {
        return Err(std::io::Error::last_os_error());
    }
    if unsafe { libc::dup2(2, 1) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    let _ = RESULTS.set(copy);
    Ok(())
}

/// Writes `text` to the original standard output: to the copy kept by
/// [`send_native_logs_to_stderr`] if it ran, else to `std::io::stdout()`.
pub(crate) fn write_results(text: std::fmt::Arguments<'_>) -> std::io::Result<()> {
    match RESULTS.get() {
        Some(&fd) => {
            // SAFETY: `fd` is the open copy made above, never closed: the File is not
            // dropped.
            let mut file = ManuallyDrop::new(unsafe { File::from_raw_fd(fd) });
            file.write_fmt(text)?;
            file.flush()
        }
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_fmt(text)?;
            stdout.flush()
        }
    }
}
