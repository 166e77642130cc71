//! How many cores this process may run on. std counts the machine's logical
//! processors; on Windows that ignores the process's affinity mask (a manager or the
//! user can pin an engine to fewer cores, and GomocupJudge sends no `thread_num`), so
//! there the mask's count is taken where it is smaller.

/// The cores this process may run on (at least 1).
pub fn usable() -> usize {
    let all = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    #[cfg(windows)]
    if let Some(pinned) = windows::affinity_count() {
        return all.min(pinned).max(1);
    }
    all
}

#[cfg(windows)]
mod windows {
    #[link(name = "kernel32")]
    extern "system" {
        fn GetCurrentProcess() -> *mut core::ffi::c_void;
        fn GetProcessAffinityMask(
            process: *mut core::ffi::c_void,
            process_mask: *mut usize,
            system_mask: *mut usize,
        ) -> i32;
    }

    /// The number of processors in the process's affinity mask (of its processor
    /// group), `None` if the call fails or the mask is empty.
    pub fn affinity_count() -> Option<usize> {
        let (mut process_mask, mut system_mask) = (0usize, 0usize);
        // SAFETY: GetCurrentProcess returns a pseudo-handle that needs no closing, and
        // the call writes only the two masks we pass. std offers no affinity query, and
        // a binding crate for one call is more than this.
        let ok = unsafe {
            GetProcessAffinityMask(GetCurrentProcess(), &mut process_mask, &mut system_mask)
        };
        (ok != 0 && process_mask != 0).then(|| process_mask.count_ones() as usize)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn at_least_one_and_no_more_than_std_counts() {
        let all = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert!((1..=all).contains(&super::usable()));
    }
}
