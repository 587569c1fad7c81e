//! What this machine offers: its memory, for the commands that size their tables from
//! numbers in the input and must refuse what cannot fit before they allocate.

/// The memory this process may still take, in bytes: `/proc/meminfo`'s `MemAvailable`
/// (else its `MemTotal`), or the process's address-space limit (`ulimit -v`, from
/// `/proc/self/limits`) when that is lower (Linux); `None` where none can be read.
pub fn available_memory_bytes() -> Option<u64> {
    let machine = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| {
            meminfo_field(&info, "MemAvailable:").or_else(|| meminfo_field(&info, "MemTotal:"))
        });
    let process = std::fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|limits| address_space_limit(&limits));
    match (machine, process) {
        (Some(m), Some(p)) => Some(m.min(p)),
        (m, p) => m.or(p),
    }
}

/// The machine's memory in bytes (`/proc/meminfo`'s `MemTotal`), where it can be read.
pub fn total_memory_bytes() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    meminfo_field(&info, "MemTotal:")
}

/// The soft "Max address space" limit of a `/proc/self/limits` text, in bytes; `None`
/// when unlimited or absent.
fn address_space_limit(limits: &str) -> Option<u64> {
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    line["Max address space".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// The value of the `/proc/meminfo` line starting with `key`, in bytes (the file gives
/// KiB).
fn meminfo_field(info: &str, key: &str) -> Option<u64> {
    let line = info.lines().find(|l| l.starts_with(key))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_kib_fields() {
        let info = "MemTotal:       24576000 kB\nMemFree: 1 kB\nMemAvailable:   2048 kB\n";
        assert_eq!(meminfo_field(info, "MemAvailable:"), Some(2048 * 1024));
        assert_eq!(meminfo_field(info, "MemTotal:"), Some(24_576_000 * 1024));
        assert_eq!(meminfo_field(info, "SwapTotal:"), None);
    }

    #[test]
    fn reads_the_address_space_limit() {
        let head = "Limit                     Soft Limit           Hard Limit           Units\n";
        let limited = format!(
            "{head}Max address space         8589934592           unlimited            bytes\n"
        );
        assert_eq!(address_space_limit(&limited), Some(8 << 30));
        let unlimited = format!(
            "{head}Max address space         unlimited            unlimited            bytes\n"
        );
        assert_eq!(address_space_limit(&unlimited), None);
        assert_eq!(address_space_limit(head), None);
    }
}
