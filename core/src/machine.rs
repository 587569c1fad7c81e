//! What this machine offers: its memory, for the commands that size their tables from
//! numbers in the input and must refuse what cannot fit before they allocate.

/// The memory available to a new process, in bytes: `/proc/meminfo`'s `MemAvailable`,
/// else its `MemTotal` (Linux); `None` where neither can be read.
pub fn available_memory_bytes() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    meminfo_field(&info, "MemAvailable:").or_else(|| meminfo_field(&info, "MemTotal:"))
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
}
