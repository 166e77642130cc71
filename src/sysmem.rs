//! How much memory the machine can give the transposition table. A GUI may ask for any
//! `hash_size` (Yixin-Board offers sizes up to 2^k KB); on Linux a table larger than
//! the free memory is granted and then killed by the kernel as the table is cleared,
//! so requests are capped by what the system reports as available.

/// Bytes the system reports as available without swapping (Linux: `MemAvailable` in
/// /proc/meminfo), or None where that is not known (elsewhere an allocation the system
/// cannot back fails, and the table halves until it fits: `TranspositionTable::new`).
pub fn available_bytes() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|text| parse_meminfo(&text))
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// `MemAvailable` from the text of /proc/meminfo (`MemAvailable:   123456 kB`), in bytes.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn parse_meminfo(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let mut fields = line["MemAvailable:".len()..].split_whitespace();
    let value: u64 = fields.next()?.parse().ok()?;
    match fields.next() {
        Some("kB") => value.checked_mul(1024),
        None => Some(value),
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::parse_meminfo;

    #[test]
    fn reads_mem_available_in_bytes() {
        let text = "MemTotal:       24576000 kB\nMemFree:        20000000 kB\n\
                    MemAvailable:   21000000 kB\nBuffers:          100000 kB\n";
        assert_eq!(parse_meminfo(text), Some(21_000_000 * 1024));
        assert_eq!(parse_meminfo("MemTotal: 5 kB\n"), None);
        assert_eq!(parse_meminfo("MemAvailable: lots kB\n"), None);
        assert_eq!(parse_meminfo("MemAvailable: 5 MB\n"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_machine_reports_some_memory() {
        assert!(super::available_bytes().is_some_and(|b| b > 0));
    }
}
