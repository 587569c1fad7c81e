//! One run as a child process: started in a process group of its own, its output
//! collected, killed (the whole group) past its wall-clock or memory limit, and its
//! peak resident memory read from the kernel's resource usage when it is reaped
//! (`wait4`, which counts the descendants it waited for as well).

use crate::solvers::StopToken;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The limits of one child.
#[derive(Clone, Copy, Debug)]
pub struct ChildLimits {
    /// Wall-clock seconds after which the child's group is killed.
    pub kill_after: f64,
    /// Resident memory (KiB) of the child past which its group is killed.
    pub memory_kib: Option<u64>,
}

/// How a child ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// It exited with this code.
    Exited(i32),
    /// A signal it did not handle ended it.
    Signalled(i32),
    /// It was killed past its wall-clock limit.
    Timeout,
    /// It was killed past its memory limit.
    Memout,
    /// The study was stopped (Ctrl+C) and the child killed.
    Interrupted,
}

/// What a child did.
#[derive(Clone, Debug)]
pub struct ChildRun {
    /// How it ended.
    pub ending: Ending,
    /// Seconds from start to end.
    pub wall_s: f64,
    /// Peak resident memory, KiB (the kernel's `ru_maxrss`).
    pub peak_rss_kib: u64,
    /// Its standard output.
    pub stdout: String,
    /// Its standard error.
    pub stderr: String,
}

/// How often the child is looked at.
const POLL: Duration = Duration::from_millis(10);

/// Runs `argv` in `dir` under `limits`; `stop` kills it early.
pub fn run_child(
    argv: &[String],
    dir: &Path,
    limits: ChildLimits,
    stop: &StopToken,
) -> std::io::Result<ChildRun> {
    let (program, args) = argv
        .split_first()
        .ok_or_else(|| std::io::Error::other("empty command line"))?;
    let start = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()?;
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let pid = libc::pid_t::try_from(child.id()).map_err(std::io::Error::other)?;
    let (ending, peak_rss_kib) = watch(pid, start, limits, stop)?;
    Ok(ChildRun {
        ending,
        wall_s: start.elapsed().as_secs_f64(),
        peak_rss_kib,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    })
}

/// A thread reading a pipe to its end.
fn drain(pipe: Option<impl Read + Send + 'static>) -> JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            // A read error ends the output there; what was read is kept.
            let _ = pipe.read_to_end(&mut bytes);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// Waits for the child `pid`, killing its group at a limit; how it ended and its peak
/// resident memory (KiB).
fn watch(
    pid: libc::pid_t,
    start: Instant,
    limits: ChildLimits,
    stop: &StopToken,
) -> std::io::Result<(Ending, u64)> {
    let mut killed: Option<Ending> = None;
    loop {
        if let Some((status, rss)) = reap(pid, killed.is_some())? {
            // What the child left running in its group is ended with it.
            // SAFETY: signals the group the child led; ESRCH when it is empty.
            unsafe { libc::killpg(pid, libc::SIGKILL) };
            let ending = killed.unwrap_or_else(|| ending_of(status));
            return Ok((ending, rss));
        }
        if killed.is_none() {
            killed = if stop.is_stopped() {
                Some(Ending::Interrupted)
            } else if start.elapsed().as_secs_f64() > limits.kill_after {
                Some(Ending::Timeout)
            } else if limits
                .memory_kib
                .is_some_and(|limit| resident_kib(pid).is_some_and(|rss| rss > limit))
            {
                Some(Ending::Memout)
            } else {
                None
            };
            if killed.is_some() {
                // SAFETY: signals the process group this function's child leads.
                unsafe { libc::killpg(pid, libc::SIGKILL) };
            }
        }
        std::thread::sleep(POLL);
    }
}

/// The wait status and peak resident memory (KiB) of `pid` once it has ended; `None`
/// while it runs (or, with `block`, after waiting for it).
fn reap(pid: libc::pid_t, block: bool) -> std::io::Result<Option<(libc::c_int, u64)>> {
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain data the call fills in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let flags = if block { 0 } else { libc::WNOHANG };
    loop {
        // SAFETY: `pid` is this process's unreaped child; the pointers are valid.
        let got = unsafe { libc::wait4(pid, &mut status, flags, &mut usage) };
        if got == pid {
            return Ok(Some((status, u64::try_from(usage.ru_maxrss).unwrap_or(0))));
        }
        if got == 0 {
            return Ok(None);
        }
        let error = std::io::Error::last_os_error();
        if error.kind() != std::io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
}

fn ending_of(status: libc::c_int) -> Ending {
    if libc::WIFEXITED(status) {
        Ending::Exited(libc::WEXITSTATUS(status))
    } else {
        Ending::Signalled(libc::WTERMSIG(status))
    }
}

/// The resident memory of `pid` now, KiB (`VmRSS` of `/proc/PID/status`).
fn resident_kib(pid: libc::pid_t) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str, limits: ChildLimits) -> ChildRun {
        let argv = ["sh", "-c", script].map(String::from);
        run_child(&argv, Path::new("."), limits, &StopToken::new()).expect("runs")
    }

    const GENEROUS: ChildLimits = ChildLimits {
        kill_after: 30.0,
        memory_kib: None,
    };

    #[test]
    fn output_and_exit_code_are_kept() {
        let run = sh("echo out; echo err >&2; exit 3", GENEROUS);
        assert_eq!(run.ending, Ending::Exited(3));
        assert_eq!(run.stdout, "out\n");
        assert_eq!(run.stderr, "err\n");
        assert!(run.peak_rss_kib > 0);
    }

    #[test]
    fn a_child_past_its_time_is_killed_with_its_group() {
        let limits = ChildLimits {
            kill_after: 0.3,
            memory_kib: None,
        };
        // The grandchild holds the pipe open: the run ends only if the group is killed.
        let run = sh("sleep 20 & sleep 20; echo never", limits);
        assert_eq!(run.ending, Ending::Timeout);
        assert!(run.wall_s < 5.0, "took {} s", run.wall_s);
        assert!(run.stdout.is_empty());
    }

    #[test]
    fn a_child_past_its_memory_is_killed() {
        let limits = ChildLimits {
            kill_after: 30.0,
            memory_kib: Some(20_000),
        };
        // python3 holds 200 MB resident until it is killed.
        let run = sh(
            "exec python3 -c 'import time; b = bytearray(200_000_000); time.sleep(20)'",
            limits,
        );
        assert_eq!(run.ending, Ending::Memout);
    }

    #[test]
    fn a_stopped_study_kills_its_child() {
        let stop = StopToken::new();
        stop.stop();
        let argv = ["sleep", "20"].map(String::from);
        let run = run_child(&argv, Path::new("."), GENEROUS, &stop).expect("runs");
        assert_eq!(run.ending, Ending::Interrupted);
    }

    #[test]
    fn a_missing_program_is_an_error() {
        let argv = ["/nonexistent/program".to_string()];
        assert!(run_child(&argv, Path::new("."), GENEROUS, &StopToken::new()).is_err());
    }
}
