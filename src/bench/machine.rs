//! What a study ran on: the machine (host, CPU model, cores, memory, kernel) and the
//! software (each bnsl binary's version and commit, the back-ends linked into this one).

use serde::{Deserialize, Serialize};
use std::path::Path;

/// One machine's record, written when a study starts on it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MachineInfo {
    /// Host name.
    pub host: String,
    /// CPU model (`/proc/cpuinfo`'s `model name`).
    pub cpu: String,
    /// Logical cores.
    pub cores: usize,
    /// Memory, GiB.
    pub memory_gib: f64,
    /// Kernel (`/proc/version`'s first three words).
    pub kernel: String,
    /// `bnsl --version` of each bnsl binary the study runs.
    pub bnsl: Vec<String>,
    /// The MILP back-ends linked into the bnsl running the study, with versions.
    pub backends: Vec<String>,
    /// Seconds since the Unix epoch when the study started here.
    pub started_at: u64,
}

impl MachineInfo {
    /// This machine, with the versions of the given bnsl binaries.
    pub fn here(binaries: &[&Path]) -> Self {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu = cpuinfo
            .lines()
            .find(|l| l.starts_with("model name"))
            .and_then(|l| l.split_once(':'))
            .map_or("unknown".to_string(), |(_, v)| v.trim().to_string());
        let memory_gib = bnsl_core::machine::total_memory_bytes()
            .map_or(0.0, |b| b as f64 / (1u64 << 30) as f64);
        let kernel = std::fs::read_to_string("/proc/version")
            .map(|v| v.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
            .unwrap_or_else(|_| std::env::consts::OS.to_string());
        MachineInfo {
            host: host_name(),
            cpu,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            memory_gib: (memory_gib * 10.0).round() / 10.0,
            kernel,
            bnsl: binaries.iter().map(|b| version_of(b)).collect(),
            backends: crate::solvers::milp::backends()
                .iter()
                .map(|b| b.version())
                .collect(),
            started_at: super::unix_seconds(),
        }
    }
}

/// The host name (`/proc/sys/kernel/hostname`, else `$HOSTNAME`, else `unknown`).
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "unknown".to_string())
}

/// `BINARY --version`, with the binary's path.
fn version_of(binary: &Path) -> String {
    let version = std::process::Command::new(binary)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    format!(
        "{}: {}",
        binary.display(),
        version.unwrap_or_else(|| "no --version".to_string())
    )
}
