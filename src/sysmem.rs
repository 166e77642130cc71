//! How much memory the machine can give the transposition table. A GUI may ask for any
//! `hash_size` (Yixin-Board offers sizes up to 2^k KB); a table larger than the free
//! memory is granted and then paged out or killed as the search fills it, so requests
//! are capped by what the system reports as available (Linux and Windows).

/// Bytes the system reports as available without swapping (Linux: `MemAvailable` in
/// /proc/meminfo; Windows: `ullAvailPhys` of `GlobalMemoryStatusEx`), or None where
/// that is not known (there an allocation the system cannot back fails, and the table
/// halves until it fits: `TranspositionTable::new`).
pub fn available_bytes() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|text| parse_meminfo(&text))
    }
    #[cfg(windows)]
    {
        windows::available_physical()
    }
    #[cfg(not(any(target_os = "linux", windows)))]
    {
        None
    }
}

#[cfg(windows)]
mod windows {
    /// `MEMORYSTATUSEX` of the Windows API (sysinfoapi.h), field for field.
    #[repr(C)]
    struct MemoryStatusEx {
        length: u32,
        memory_load: u32,
        total_phys: u64,
        avail_phys: u64,
        total_page_file: u64,
        avail_page_file: u64,
        total_virtual: u64,
        avail_virtual: u64,
        avail_extended_virtual: u64,
    }

    #[link(name = "kernel32")]
    extern "system" {
        fn GlobalMemoryStatusEx(buffer: *mut MemoryStatusEx) -> i32;
    }

    pub fn available_physical() -> Option<u64> {
        let mut status = MemoryStatusEx {
            length: std::mem::size_of::<MemoryStatusEx>() as u32,
            memory_load: 0,
            total_phys: 0,
            avail_phys: 0,
            total_page_file: 0,
            avail_page_file: 0,
            total_virtual: 0,
            avail_virtual: 0,
            avail_extended_virtual: 0,
        };
        // SAFETY: the buffer is a live MEMORYSTATUSEX with its length field set, as the
        // call requires; it writes only inside it. std has no memory query, and a
        // binding crate for one call is more than this.
        let ok = unsafe { GlobalMemoryStatusEx(&mut status) };
        (ok != 0).then_some(status.avail_phys)
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

    #[cfg(any(target_os = "linux", windows))]
    #[test]
    fn this_machine_reports_some_memory() {
        assert!(super::available_bytes().is_some_and(|b| b > 0));
    }
}
