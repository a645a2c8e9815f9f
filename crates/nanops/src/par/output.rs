//! The buffers results are written into.
//!
//! A large result (a moving window's, a scan's) is written once, by the
//! tasks, and its pages are first touched there: with 4 KiB pages a fault
//! every 4 KiB costs as much as a cheap window's arithmetic. NumPy backs
//! its arrays of 4 MiB and more with transparent huge pages (it asks the
//! kernel with `madvise`); so do these buffers, on Linux, where the kernel
//! grants them on request.

use std::mem::MaybeUninit;

/// Bytes from which a buffer asks for huge pages (NumPy's threshold).
const HUGE_PAGES_FROM: usize = 4 << 20;

/// An uninitialised buffer of `n` values, backed by huge pages where the
/// system grants them (a request only: the contents and the result do not
/// depend on it).
pub(crate) fn uninit_output<T>(n: usize) -> Box<[MaybeUninit<T>]> {
    let mut buf = Box::<[T]>::new_uninit_slice(n);
    let bytes = std::mem::size_of_val(&*buf);
    if bytes >= HUGE_PAGES_FROM {
        advise_huge_pages(buf.as_mut_ptr().cast(), bytes);
    }
    buf
}

/// Asks the kernel to back the whole pages of `bytes` bytes from `ptr` with
/// huge pages (`MADV_HUGEPAGE`); failure leaves them as they were.
#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut u8, bytes: usize) {
    // SAFETY: `sysconf` only reads a system constant.
    let page = match unsafe { libc::sysconf(libc::_SC_PAGESIZE) } {
        p if p > 0 => p as usize,
        _ => return,
    };
    let start = (ptr as usize).next_multiple_of(page);
    let end = (ptr as usize + bytes) / page * page;
    if end > start {
        // SAFETY: `start..end` lies inside the caller's allocation, and
        // `MADV_HUGEPAGE` changes how its pages are backed, not what they
        // hold. The result is ignored on purpose: it is advice.
        unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE) };
    }
}

/// Elsewhere the pages stay as the allocator gives them.
#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut u8, _bytes: usize) {}

#[cfg(test)]
mod tests {
    use super::uninit_output;

    #[test]
    fn buffers_of_every_size_hold_what_is_written() {
        for n in [0, 1, 1000, (4 << 20) / 8 + 3, (16 << 20) / 8] {
            let mut buf = uninit_output::<f64>(n);
            assert_eq!(buf.len(), n);
            for (i, slot) in buf.iter_mut().enumerate() {
                slot.write(i as f64);
            }
            // SAFETY: every slot was written just above.
            let buf = unsafe { buf.assume_init() };
            assert!(buf.iter().enumerate().all(|(i, &x)| x == i as f64));
        }
    }
}
