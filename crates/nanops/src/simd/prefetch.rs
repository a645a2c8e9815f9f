//! Software prefetch: asking for memory ahead of the value in hand.

/// Hints that the cache line at `p` will be read soon (no-op off x86-64).
#[inline(always)]
pub(crate) fn prefetch<E>(p: *const E) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// How far ahead of the value in hand the streaming loops ask for memory.
/// The hardware prefetcher alone left a single thread reading main memory
/// below its bandwidth in the compensated sum; with the hint `COLD=1
/// kernel_timing` (input evicted from the caches before each call, one
/// thread) measured `nansum` and `nanmin` faster (numbers in the CHANGELOG).
const AHEAD_BYTES: usize = 8192;

/// Hints that the memory [`AHEAD_BYTES`] past `p` will be read soon.
#[inline(always)]
pub(crate) fn prefetch_ahead<E>(p: *const E) {
    prefetch(p.wrapping_byte_add(AHEAD_BYTES));
}

/// Hints that the cache lines of `xs` (each line it touches, the last one
/// too when `xs` does not start a line), moved on by [`prefetch_ahead`]'s
/// distance, will be read soon.
#[inline(always)]
pub(crate) fn prefetch_lines_ahead<E>(xs: &[E]) {
    let bytes = std::mem::size_of_val(xs);
    // from the start of the first line, so that the steps reach the last
    let lead = xs.as_ptr() as usize % 64;
    let first_line = xs.as_ptr().cast::<u8>().wrapping_sub(lead);
    let mut off = 0;
    while off < lead + bytes {
        prefetch_ahead(first_line.wrapping_add(off));
        off += 64;
    }
}
