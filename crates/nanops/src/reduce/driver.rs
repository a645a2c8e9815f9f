//! The reduce family's driver: a plan split across threads, with results
//! independent of the thread count.
//!
//! Two ways to split, chosen from the shape alone:
//! - many outputs: blocks of outputs run on different threads; each output's
//!   state is computed entirely by one task, so the split cannot change bits;
//! - few outputs over many values: the outermost reduced dimension is cut into
//!   chunks of about [`CHUNK`] values, each chunk yields partial states, and the
//!   partials merge in chunk order. The cut depends on the shape only, so one
//!   thread or many give identical bits, run after run.
//!
//! A row strategy (reducing axis 0 of a C array) with up to a few thousand
//! outputs splits its rows the second way; with more, it splits columns in
//! whole tiles. Work below [`MIN_TASK`] values stays on the calling thread;
//! above it, the calling thread and the pool's workers claim the tasks
//! ([`map_tasks`]), so a short call does not wait for sleeping
//! workers to wake.

use super::reducer::{Reducer, COL_TILE};
use super::walk::SHORT_KERNEL_LANE;
use crate::element::Element;
use crate::error::{ensure_memory, Error, Result};
use crate::layout::{Odometer, Plan, Strategy, Walker};
use crate::options::Axes;
use crate::par::{map_tasks, threads, SendPtr, MIN_TASK};
use crate::states::State;
use crate::statistic::Report;
use ndarray::{ArrayD, ArrayViewD, IxDyn};
use std::mem::MaybeUninit;

/// Values per reduction chunk when few outputs share a long reduction.
pub(crate) const CHUNK: usize = 1 << 16;
/// Up to this many outputs, a long reduction is split into chunks.
const FEW_OUTPUTS: usize = 16;
/// Below this many outputs, a row strategy splits its rows among tasks
/// (above, whole column tiles); fixed apart from [`COL_TILE`], so that
/// widening the tiles moved no shape from one split to the other.
const ROW_SPLIT_OUTPUTS: usize = 8192;
/// Most chunks a row-split reduction makes (each holds one state per output).
const MAX_ROW_CHUNKS: usize = 32;

/// Outputs whose states are filled and finished together when each output
/// is computed by one task: the states of a tile stay in cache, and no
/// output-sized array of states is ever allocated.
const OUT_TILE: usize = 4096;

/// The chunk length (indices of the outermost reduced dimension) when the
/// plan is split along its reduction, or `None` when whole outputs go to
/// tasks.
fn chunk_step(plan: &Plan, cut_free: bool) -> Option<usize> {
    let (n_out, n_red) = (plan.out_len(), plan.reduce_len());
    let d0 = plan.reduced[0];
    let rows = plan.strategy() == Strategy::Rows;
    let per_index = n_red / d0.len.max(1);
    // A row strategy with a moderate number of outputs splits its rows, not
    // its columns: a column split would give each task a thin strided slice.
    let split_rows =
        rows && n_out < ROW_SPLIT_OUTPUTS && n_out * n_red >= 2 * MIN_TASK && d0.len > 1;
    if split_rows {
        let step = (MIN_TASK / (per_index * n_out).max(1)).max(d0.len.div_ceil(MAX_ROW_CHUNKS));
        // a statistic whose bits do not depend on the cuts: one chunk per
        // thread, so the fewest merges (the demo's cube along axis 0 was
        // eight chunks on two threads, seven merges of 2,592 states)
        let step = if cut_free {
            step.max(d0.len.div_ceil(threads()))
        } else {
            step
        };
        Some(step.max(1))
    } else if n_out <= FEW_OUTPUTS && n_red >= 2 * CHUNK && d0.len > 1 {
        Some((CHUNK / per_index.max(1)).max(1))
    } else {
        None
    }
}

/// States of every plan-order output, the reduction cut into chunks of
/// `step` indices of the outermost reduced dimension and merged in order.
fn chunked_states<E: Element, R: Reducer<E>>(
    ptr: *const E,
    plan: &Plan,
    r: &R,
    step: usize,
) -> Vec<R::State> {
    let (n_out, n_red) = (plan.out_len(), plan.reduce_len());
    let d0 = plan.reduced[0];
    let chunks = d0.len.div_ceil(step);
    let p = SendPtr(ptr);
    let run_chunk = |c: usize| {
        let ptr = p.get();
        let sub = plan.restrict_reduced(c * step, ((c + 1) * step).min(d0.len));
        let mut st = vec![R::State::default(); n_out];
        // SAFETY: `sub` restricts the plan of the view behind `ptr`.
        let walker = unsafe { Walker::new(ptr, &sub) };
        run(&walker, r.kernel(), &mut st, 0);
        st
    };
    let partials: Vec<Vec<R::State>> = if n_out * n_red >= 2 * MIN_TASK {
        map_tasks(chunks, run_chunk)
    } else {
        (0..chunks).map(run_chunk).collect()
    };
    let mut it = partials.into_iter();
    let mut acc = it
        .next()
        .unwrap_or_else(|| vec![R::State::default(); n_out]);
    for p in it {
        acc.iter_mut().zip(&p).for_each(|(a, b)| a.merge(b));
    }
    acc
}

/// Finishes the states of plan-order outputs `start..start + states.len()`
/// into their places in the C-order output behind `out`; returns how many
/// were degenerate.
///
/// # Safety
/// `out` must point to the plan's whole output, and no other thread may
/// write these outputs meanwhile.
unsafe fn finish_into<E: Element, R: Reducer<E>>(
    plan: &Plan,
    r: &R,
    states: &[R::State],
    start: usize,
    out: *mut R::Output,
) -> usize {
    let mut degenerate = 0;
    if plan.out_in_order() {
        // SAFETY: outputs `start..start + states.len()` are inside `out` (caller).
        let out = unsafe { std::slice::from_raw_parts_mut(out.add(start), states.len()) };
        for (slot, st) in out.iter_mut().zip(states) {
            *slot = r.finish(st);
            degenerate += r.degenerate(st) as usize;
        }
        return degenerate;
    }
    let dims = plan.out_dims();
    let mut odo = Odometer::new(&dims, plan.out_base, start);
    for st in states {
        // SAFETY: the offsets of the plan's outputs lie inside `out` (caller).
        unsafe { *out.offset(odo.offset) = r.finish(st) };
        degenerate += r.degenerate(st) as usize;
        odo.advance();
    }
    degenerate
}

/// Fills `out` (every slot) when every output is computed by one task:
/// blocks of outputs go to threads, each block in tiles of states finished
/// in place.
fn by_outputs<E: Element, R: Reducer<E>>(
    ptr: *const E,
    plan: &Plan,
    r: &R,
    out: &mut [MaybeUninit<R::Output>],
) -> usize {
    let (n_out, n_red) = (plan.out_len(), plan.reduce_len());
    let rows = plan.strategy() == Strategy::Rows;
    let tile = if rows { COL_TILE } else { OUT_TILE };
    // SAFETY: `plan` was made from the view behind `ptr`.
    let walker = unsafe { Walker::new(ptr, plan) };
    let dst = SendPtr(out.as_mut_ptr().cast::<R::Output>().cast_const());
    // lanes of more than 16 values for kernels padded to 32 only
    let short = !rows
        && n_out > 1
        && walker
            .short_lane()
            .is_some_and(|len| R::PAD_SHORT || len <= SHORT_KERNEL_LANE);
    let task = |start: usize, end: usize| {
        // the constants tested where the call is made: the short-lane
        // kernels are then not compiled for the reducers and element types
        // without them
        if R::SHORT && E::SHORT_LANE_KERNELS && short {
            // SAFETY: each task writes its own outputs of the plan's output.
            return unsafe {
                short_lanes_into(&walker, r, start, end - start, dst.get().cast_mut())
            };
        }
        let mut st = Vec::with_capacity(tile.min(end - start));
        let mut degenerate = 0;
        for s in (start..end).step_by(tile) {
            st.clear();
            st.resize(tile.min(end - s), R::State::default());
            run(&walker, r.kernel(), &mut st, s);
            // SAFETY: each task finishes its own outputs of the plan's output.
            degenerate += unsafe { finish_into(plan, r, &st, s, dst.get().cast_mut()) };
        }
        degenerate
    };
    if n_out > 1 && n_out * n_red >= 2 * MIN_TASK {
        let mut per_task = (MIN_TASK / n_red.max(1)).max(1);
        if rows {
            // whole multiples of a quarter tile, and up to a whole tile as
            // long as that leaves eight tasks: tasks stay many where
            // outputs are few, tiles run at full width where they are many
            per_task = per_task
                .max(n_out.div_ceil(8).min(COL_TILE))
                .next_multiple_of(COL_TILE / 4);
        }
        map_tasks(n_out.div_ceil(per_task), |i| {
            task(i * per_task, ((i + 1) * per_task).min(n_out))
        })
        .into_iter()
        .sum()
    } else {
        task(0, n_out)
    }
}

/// [`Walker::run`], compiled once per element type and reducer: the
/// kernels it calls are compiled for the best instruction set (see
/// `reduce::walk`).
#[inline(never)]
fn run<E: Element, R: Reducer<E>>(
    walker: &Walker<'_, E>,
    r: &R,
    st: &mut [R::State],
    start: usize,
) {
    walker.run(r, st, start);
}

/// [`Walker::short_lanes_into`] compiled for the best instruction set.
///
/// # Safety
/// As [`Walker::short_lanes_into`].
#[inline(never)]
unsafe fn short_lanes_into<E: Element, R: Reducer<E>>(
    walker: &Walker<'_, E>,
    r: &R,
    start: usize,
    count: usize,
    out: *mut R::Output,
) -> usize {
    E::dispatch(
        #[inline(always)]
        // SAFETY: as this function's contract.
        || unsafe { walker.short_lanes_into(r, start, count, out) },
    )
}

/// [`Reducer::push_slice`] of one slice, compiled for the best instruction set.
#[inline(never)]
fn run_slice<E: Element, R: Reducer<E>>(r: &R, st: &mut R::State, xs: &[E]) {
    E::dispatch(
        #[inline(always)]
        || r.push_slice(st, xs),
    );
}

/// Reduces `view` over `axes` (sorted, distinct, in range) with `r`.
///
/// Returns the results (C order, the kept axes in order) and the number of
/// degenerate slices (see [`Reducer::degenerate`]).
pub(crate) fn reduce<E: Element, R: Reducer<E>>(
    view: &ArrayViewD<'_, E>,
    axes: &[usize],
    r: &R,
) -> (ArrayD<R::Output>, usize) {
    if axes.len() == view.ndim()
        && view.len() < 2 * CHUNK
        && let Some(xs) = view.as_slice_memory_order()
    {
        // A small contiguous array reduced whole: the plan would be one
        // lane over `xs` in memory order, so the state is the same, bit
        // for bit, without planning.
        let mut st = R::State::default();
        run_slice(r.kernel(), &mut st, xs);
        let value = ArrayD::from_elem(IxDyn(&[]), r.finish(&st));
        return (value, r.degenerate(&st) as usize);
    }
    let plan = Plan::new(view.shape(), view.strides(), axes);
    let n_out = plan.out_len();
    // Left uninitialised: both ways below write every output. (Zeroing it
    // first, 800 KB for a (100000, 10) `nansum` along axis 1, is a second
    // pass over the result that measurably slowed that call: kernel_timing.)
    let mut out = crate::par::uninit_output::<R::Output>(n_out);
    let degenerate = if n_out > 0 {
        let ptr = view.as_ptr();
        match chunk_step(&plan, R::CUT_FREE) {
            Some(step) => {
                let states = chunked_states(ptr, &plan, r, step);
                // SAFETY: `out` is the plan's whole output, written here only.
                unsafe { finish_into(&plan, r, &states, 0, out.as_mut_ptr().cast()) }
            }
            None => by_outputs(ptr, &plan, r, &mut out),
        }
    } else {
        0
    };
    // SAFETY: every output was written (`finish_into` of all `n_out` states,
    // or `by_outputs`).
    let out = unsafe { out.assume_init() }.into_vec();
    let values = ArrayD::from_shape_vec(IxDyn(&plan.out_shape), out)
        .expect("output length matches its shape");
    (values, degenerate)
}

/// [`reduce`], after checking that its buffers fit in memory: one result,
/// one state and one offset per output element (a huge broadcast view can
/// ask for more than exists; that is an error, not an abort).
pub(crate) fn reduce_checked<E: Element, R: Reducer<E>>(
    view: &ArrayViewD<'_, E>,
    axes: &[usize],
    r: &R,
) -> Result<Report<R::Output>> {
    let n_out = (0..view.ndim())
        .filter(|i| !axes.contains(i))
        .try_fold(1usize, |n, i| n.checked_mul(view.shape()[i]))
        .ok_or(Error::OutOfMemory { bytes: usize::MAX })?;
    let per_output = std::mem::size_of::<R::Output>()
        + std::mem::size_of::<R::State>()
        + std::mem::size_of::<isize>();
    ensure_memory(&[(n_out, per_output)])?;
    let (values, degenerate) = reduce(view, axes, r);
    Ok(Report { values, degenerate })
}

/// Computes the reduction `r` as a [`Statistic`]: its axes checked, zero
/// values refused where it has no identity, then [`reduce_checked`].
pub(crate) fn compute<E: Element, R: Reducer<E>>(
    r: &R,
    view: &ArrayViewD<'_, E>,
    axes: &Axes,
) -> Result<Report<R::Output>> {
    let axes = axes.normalize(view.ndim())?;
    if let Some(op) = R::NO_IDENTITY {
        let shape = view.shape();
        let reduced_empty = axes.iter().any(|&i| shape[i] == 0);
        let out_empty = (0..view.ndim()).any(|i| !axes.contains(&i) && shape[i] == 0);
        if reduced_empty && !out_empty {
            return Err(Error::EmptyReduction { op });
        }
    }
    let mut report = reduce_checked(view, &axes, r)?;
    if report.degenerate > 0 && !view.is_empty() {
        // each slice's first element: the reduced axes at index 0
        let mut first = view.view();
        for &k in axes.iter().rev() {
            first = first.index_axis_move(ndarray::Axis(k), 0);
        }
        r.degenerate_from_first(&mut report.values, first);
    }
    Ok(report)
}
