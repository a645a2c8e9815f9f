//! Which CPUs the pool's workers may be woken onto.
//!
//! A worker woken from sleep is queued by the kernel on a CPU it picks at
//! the wake-up; Linux often picks the waking thread's own CPU (it last ran
//! there, and the caches are shared). When the caller then works through
//! the tasks itself ([`HandOff::CallerWorks`](super::HandOff)), the helper
//! waits behind it until the caller's time slice ends or the other CPU's
//! load balancer pulls it over, while that CPU idles: a short call after a
//! pause ran on the caller alone (the measurements are in CHANGELOG.md,
//! "Helpers woken onto an idle CPU").
//!
//! So before the caller hands out tasks it works on itself, the workers'
//! CPU masks leave out the CPU the caller is on; before it hands every task
//! to the pool and sleeps ([`HandOff::Pool`](super::HandOff)), they get
//! their own masks back. Only the masks the workers had when first seen
//! are narrowed (a worker pinned to one CPU keeps it), they are changed
//! only when the caller's CPU or the hand-off changes, and a caller that
//! is itself one of the pool's workers changes nothing. A placement only:
//! which thread runs which task never changes a result.

/// Keeps the pool's workers off the calling thread's CPU (`true`: the
/// caller is about to work through tasks beside them) or gives them back
/// the masks they had (`false`: the caller is about to sleep while they
/// work).
pub(crate) fn place_workers(beside_caller: bool) {
    imp::place_workers(beside_caller);
}

#[cfg(target_os = "linux")]
mod imp {
    use std::sync::atomic::{AtomicI64, Ordering};
    use std::sync::{Mutex, OnceLock};

    /// A worker of the pool: its thread id and the CPU mask it had when
    /// first seen.
    struct Worker {
        tid: libc::pid_t,
        mask: libc::cpu_set_t,
    }

    /// The pool's workers, seen once (the global pool keeps its threads
    /// for the life of the process).
    static WORKERS: OnceLock<Vec<Worker>> = OnceLock::new();

    /// The CPU the workers are kept off, or [`AS_SEEN`] while they have
    /// their own masks (as they start: a hand-off to the pool first sees
    /// nothing to change).
    static KEPT_OFF: AtomicI64 = AtomicI64::new(AS_SEEN);
    const AS_SEEN: i64 = -1;

    /// Held while masks are being changed: a second caller at the same
    /// moment leaves them to the first.
    static CHANGING: Mutex<()> = Mutex::new(());

    pub(super) fn place_workers(beside_caller: bool) {
        if rayon::current_thread_index().is_some() {
            // a task of ours that starts tasks: its thread is a worker
            return;
        }
        let target = if beside_caller {
            // SAFETY: `sched_getcpu` takes no argument and only reads.
            match unsafe { libc::sched_getcpu() } {
                cpu if cpu >= 0 => i64::from(cpu),
                _ => return,
            }
        } else {
            AS_SEEN
        };
        if KEPT_OFF.load(Ordering::Relaxed) == target {
            return;
        }
        let Ok(_changing) = CHANGING.try_lock() else {
            return;
        };
        let workers = WORKERS.get_or_init(see_workers);
        for w in workers {
            let mask = if target == AS_SEEN {
                w.mask
            } else {
                without(&w.mask, target as usize).unwrap_or(w.mask)
            };
            // SAFETY: `mask` is a valid set of the size passed; a failure
            // (the thread gone, a CPU not allowed) leaves the mask as it
            // was, which only costs the placement.
            unsafe { libc::sched_setaffinity(w.tid, std::mem::size_of_val(&mask), &mask) };
        }
        KEPT_OFF.store(target, Ordering::Relaxed);
    }

    /// Every worker's thread id and CPU mask, each read on its own thread.
    fn see_workers() -> Vec<Worker> {
        let seen = rayon::broadcast(|_| {
            // SAFETY: `cpu_set_t` is plain bits; an all-zero set is valid.
            let mut mask: libc::cpu_set_t = unsafe { std::mem::zeroed() };
            // SAFETY: `gettid` only reads; `sched_getaffinity` writes at
            // most `size_of_val(&mask)` bytes into `mask`.
            let tid = unsafe { libc::gettid() };
            let read =
                unsafe { libc::sched_getaffinity(0, std::mem::size_of_val(&mask), &mut mask) };
            (read == 0).then_some(Worker { tid, mask })
        });
        seen.into_iter().flatten().collect()
    }

    /// `mask` without `cpu`, if it holds `cpu` and another CPU.
    pub(super) fn without(mask: &libc::cpu_set_t, cpu: usize) -> Option<libc::cpu_set_t> {
        if cpu >= libc::CPU_SETSIZE as usize {
            return None;
        }
        // SAFETY: `cpu` is below `CPU_SETSIZE`, inside the set's bits (the
        // libc macros index them unchecked).
        unsafe {
            if !libc::CPU_ISSET(cpu, mask) || libc::CPU_COUNT(mask) < 2 {
                return None;
            }
            let mut narrowed = *mask;
            libc::CPU_CLR(cpu, &mut narrowed);
            Some(narrowed)
        }
    }

    #[cfg(test)]
    mod tests {
        use super::without;

        fn set(cpus: &[usize]) -> libc::cpu_set_t {
            // SAFETY: an all-zero set is valid.
            let mut s: libc::cpu_set_t = unsafe { std::mem::zeroed() };
            for &c in cpus {
                // SAFETY: the CPUs of these tests are below `CPU_SETSIZE`.
                unsafe { libc::CPU_SET(c, &mut s) };
            }
            s
        }

        fn cpus(s: &libc::cpu_set_t) -> Vec<usize> {
            // SAFETY: CPUs below 64 are inside the set's bits.
            (0..64)
                .filter(|&c| unsafe { libc::CPU_ISSET(c, s) })
                .collect()
        }

        #[test]
        fn a_mask_loses_the_callers_cpu_only_where_another_is_left() {
            assert_eq!(without(&set(&[0, 1]), 0).map(|s| cpus(&s)), Some(vec![1]));
            assert_eq!(
                without(&set(&[0, 2, 5]), 2).map(|s| cpus(&s)),
                Some(vec![0, 5])
            );
            // a worker pinned to the caller's CPU keeps it
            assert!(without(&set(&[3]), 3).is_none());
            // a mask without the caller's CPU is left as it is
            assert!(without(&set(&[0, 1]), 4).is_none());
            assert!(without(&set(&[0, 1]), 1 << 20).is_none());
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    /// Elsewhere the system places the workers as it will.
    pub(super) fn place_workers(_beside_caller: bool) {}
}
