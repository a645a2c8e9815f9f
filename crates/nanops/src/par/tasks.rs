//! Indexed tasks run by the calling thread together with the pool's workers.
//!
//! A rayon `par_iter` started from a thread outside the pool hands every task
//! to the workers and puts the caller to sleep until they are done. Between
//! calls the workers sleep too, so a call of a few hundred microseconds pays
//! for waking them and, at the end, for waking the caller: after an idle
//! pause such a call on two threads measured slower than on one, back to
//! back faster.
//!
//! [`map_tasks`] lets the caller work instead: the caller and the helpers it
//! asks the pool for claim task indices from one counter, so the caller never
//! waits for a helper that has not woken yet; it waits only for tasks a
//! helper has already claimed. Results are stored by index, so they do not
//! depend on who ran which task.
//!
//! That suits short calls only. When the caller works, a helper woken late
//! (measured on a 2-core machine: the woken worker queued behind the busy
//! caller while the pool's other worker spun, and half of the calls of a
//! `nanquantile` of some milliseconds ran a quarter longer) leaves the
//! caller alone on most of the work. [`HandOff::Pool`] is for long calls:
//! every task goes to the pool's workers while the caller sleeps, which
//! costs the wake-up the short calls avoid but keeps both cores busy.
//!
//! The late wake-up itself was the kernel queueing the woken worker on the
//! caller's own CPU: [`place_workers`] keeps the workers off that CPU while
//! the caller works beside them (see `placement`).

use std::any::Any;
use std::mem::MaybeUninit;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::placement::place_workers;
use super::send_ptr::SendPtr;

/// Least number of values worth a task of its own.
pub(crate) const MIN_TASK: usize = 1 << 17;

/// What the caller and the helpers share: the claim counter, the count of
/// finished tasks and the first panic. Helpers hold it by `Arc`, so a helper
/// that wakes after the call returned still finds the counter.
struct Shared {
    next: AtomicUsize,
    done: AtomicUsize,
    panic: Mutex<Option<Box<dyn Any + Send>>>,
}

/// The job a helper runs, as a raw pointer: it may dangle once the call
/// returns, and is only called for a claimed index below the task count,
/// which can only happen while the call is still waiting for that task.
type JobPtr = SendPtr<dyn Fn(usize) + Sync>;

/// Claims and runs tasks until none is left.
///
/// # Safety
/// `job` must be live for every index below `n` that this call can claim.
unsafe fn work(shared: &Shared, job: JobPtr, n: usize) {
    loop {
        let i = shared.next.fetch_add(1, Ordering::Relaxed);
        if i >= n {
            return;
        }
        // SAFETY: `i < n` was claimed here, and the caller of `map_tasks`
        // does not return before task `i` is counted as done (below).
        let f = unsafe { &*job.get() };
        if let Err(p) = catch_unwind(AssertUnwindSafe(|| f(i))) {
            shared
                .panic
                .lock()
                .expect("never poisoned")
                .get_or_insert(p);
        }
        shared.done.fetch_add(1, Ordering::Release);
    }
}

/// Who runs the tasks of [`map_tasks_by`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HandOff {
    /// The caller and up to `threads − 1` pool workers: for calls short
    /// enough that waking the pool would be a large part of them.
    CallerWorks,
    /// The pool's workers, the caller sleeping until they are done: for
    /// calls of milliseconds, where a late helper would cost more than the
    /// wake-up.
    Pool,
}

/// The threads [`map_tasks`] may run tasks on: the calling thread and the
/// pool's workers. Task boundaries follow the shape alone, so that results
/// do not depend on it, except where any cut gives the same bits.
pub(crate) fn threads() -> usize {
    rayon::current_num_threads().max(1)
}

/// `f(0), …, f(n − 1)`, computed by the calling thread and up to
/// `rayon::current_num_threads() − 1` pool workers, in the order of the
/// indices (`map_tasks(4, |i| i * i)` is `[0, 1, 4, 9]`). A panic in any
/// task is resumed on the calling thread once the other tasks are done.
pub(crate) fn map_tasks<T: Send + Sync>(n: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    map_tasks_by(HandOff::CallerWorks, n, f)
}

/// [`map_tasks`] with the choice of who runs the tasks; the results are
/// the same (in index order) either way.
///
/// Generic only in the slots it fills: running the tasks is
/// [`run_tasks`], compiled once, so the pool's machinery is not
/// instantiated again for every kernel that starts tasks.
pub(crate) fn map_tasks_by<T: Send + Sync>(
    hand_off: HandOff,
    n: usize,
    f: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    if n <= 1 || rayon::current_num_threads() == 1 {
        return (0..n).map(f).collect();
    }
    let mut out: Vec<MaybeUninit<T>> = Vec::with_capacity(n);
    out.resize_with(n, MaybeUninit::uninit);
    let slots = SendPtr(out.as_mut_ptr().cast_const());
    let job = move |i: usize| {
        let v = f(i);
        // SAFETY: index `i` is run once, so this slot is written by this
        // task only, and `out` outlives every task (`run_tasks` returns
        // only when all are done).
        unsafe { slots.get().cast_mut().add(i).write(MaybeUninit::new(v)) };
    };
    // A panic in a task unwinds from here once the others are done: the
    // slots of panicked tasks are uninitialised, so none is read, and
    // dropping `out` frees the buffer and leaks the finished values.
    run_tasks(hand_off, n, &job);
    // SAFETY: every slot was written (`run_tasks` returned, so no task
    // panicked), and `MaybeUninit<T>` has the layout of `T`.
    out.into_iter()
        .map(|v| unsafe { v.assume_init() })
        .collect()
}

/// Runs `job(0), …, job(n − 1)` as [`HandOff`] says and returns when all
/// are done; a panic in any task is resumed here once the others are done.
fn run_tasks(hand_off: HandOff, n: usize, job: &(dyn Fn(usize) + Sync)) {
    if hand_off == HandOff::Pool {
        use rayon::prelude::*;
        place_workers(false);
        // one index per job, so a late worker leaves its share to the other
        (0..n).into_par_iter().with_max_len(1).for_each(job);
        return;
    }
    let shared = Arc::new(Shared {
        next: AtomicUsize::new(0),
        done: AtomicUsize::new(0),
        panic: Mutex::new(None),
    });
    // SAFETY: erases the lifetime; `work` only calls the job for claimed
    // indices below `n`, and this function waits for all of those.
    let job_ptr: JobPtr = SendPtr(unsafe {
        std::mem::transmute::<*const (dyn Fn(usize) + Sync + '_), *const (dyn Fn(usize) + Sync)>(
            job,
        )
    });
    let helpers = rayon::current_num_threads()
        .saturating_sub(1)
        .min(n.saturating_sub(1));
    if helpers > 0 {
        place_workers(true);
    }
    for _ in 0..helpers {
        let shared = Arc::clone(&shared);
        // SAFETY: as above; the helper holds `shared` by `Arc`.
        rayon::spawn(move || unsafe { work(&shared, job_ptr, n) });
    }
    // SAFETY: `job` lives until this function returns.
    unsafe { work(&shared, job_ptr, n) };
    // Only tasks a helper has claimed are left: it is awake and on them.
    let mut spins = 0u32;
    while shared.done.load(Ordering::Acquire) < n {
        spins += 1;
        if spins < 1 << 12 {
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
    let panic = shared.panic.lock().expect("never poisoned").take();
    if let Some(p) = panic {
        resume_unwind(p);
    }
}

#[cfg(test)]
mod tests {
    use super::{map_tasks, map_tasks_by, HandOff};

    #[test]
    fn results_come_back_in_index_order() {
        for n in [0, 1, 2, 3, 17, 1000] {
            let v = map_tasks(n, |i| (i * i) as u64);
            assert_eq!(v, (0..n).map(|i| (i * i) as u64).collect::<Vec<_>>());
        }
        let strings = map_tasks(50, |i| format!("task {i}"));
        assert_eq!(strings[49], "task 49");
    }

    #[test]
    fn a_panicking_task_panics_the_caller_after_the_others_finish() {
        let r = std::panic::catch_unwind(|| {
            map_tasks(64, |i| {
                assert!(i != 40, "task 40 fails");
                vec![i; 3]
            })
        });
        let msg = r.expect_err("the panic is resumed");
        let text = msg
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| msg.downcast_ref::<String>().map(String::as_str));
        assert_eq!(text, Some("task 40 fails"));
    }

    #[test]
    fn both_hand_offs_give_the_same_results() {
        for n in [0, 1, 2, 5, 64] {
            let by_pool = map_tasks_by(HandOff::Pool, n, |i| i as u64 * 3);
            let by_caller = map_tasks_by(HandOff::CallerWorks, n, |i| i as u64 * 3);
            assert_eq!(by_pool, by_caller);
            assert_eq!(by_pool, (0..n as u64).map(|i| i * 3).collect::<Vec<_>>());
        }
        let r = std::panic::catch_unwind(|| {
            map_tasks_by(HandOff::Pool, 16, |i| assert!(i != 7, "task 7 fails"))
        });
        assert!(r.is_err(), "a panic in a pool task reaches the caller");
    }

    #[test]
    fn placing_the_workers_either_way_leaves_the_results() {
        for beside_caller in [true, false, true, true, false] {
            super::place_workers(beside_caller);
            for hand_off in [HandOff::CallerWorks, HandOff::Pool] {
                let v = map_tasks_by(hand_off, 64, |i| i * 2);
                assert_eq!(v, (0..64).map(|i| i * 2).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn nested_calls_finish() {
        let v = map_tasks(8, |i| map_tasks(8, |j| i * 8 + j).iter().sum::<usize>());
        assert_eq!(v.iter().sum::<usize>(), (0..64).sum::<usize>());
    }
}
