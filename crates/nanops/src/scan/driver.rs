//! The scan family's driver: lanes along one axis, over threads.
//!
//! The view is planned once ([`AlongPlan`]). When the axis is contiguous, or
//! nothing else is, each lane is scanned on its own (strided reads and
//! writes where needed). When the axis is an outer one and the innermost
//! other dimension is contiguous in input and output (axis 0 of a C array),
//! the axis is walked outside and a tile of lanes side by side inside, each
//! lane with its own running value: every read and write is contiguous.
//! Lanes never interact, so any split over threads gives the same bits.

use super::scanner::Scanner;
use crate::element::Element;
use crate::layout::{AlongPlan, AlongStrategy, Dim, Odometer};
use crate::par::{map_tasks, SendPtr, MIN_TASK};
use ndarray::{ArrayD, ArrayViewD, IxDyn};
use std::mem::MaybeUninit;

/// Lanes side by side in one tile of the rows strategy (their running
/// values stay in cache).
const TILE: usize = 2048;

/// Scans `view` along `axis` (in range) with `s`; the result has the
/// view's shape, in C order.
pub(crate) fn scan<E: Element, S: Scanner<E>>(
    view: &ArrayViewD<'_, E>,
    axis: usize,
    s: &S,
) -> ArrayD<S::Output> {
    let plan = AlongPlan::new(view.shape(), view.strides(), axis);
    let n = view.len();
    let mut out = crate::par::uninit_output::<S::Output>(n);
    if n > 0 {
        let ptr = SendPtr(view.as_ptr());
        let dst = SendPtr(out.as_mut_ptr().cast::<S::Output>().cast_const());
        let len = plan.axis.dim.len;
        // units of work: lanes, or (outer index, tile) pairs of the rows strategy
        let (units, per_unit) = match plan.strategy() {
            AlongStrategy::Lanes => (plan.lanes(), len),
            AlongStrategy::Rows => {
                let inner = plan.others.last().expect("rows have an inner dim").dim.len;
                (
                    plan.lanes() / inner * inner.div_ceil(TILE),
                    len * TILE.min(inner),
                )
            }
        };
        let run = |from: usize, to: usize| {
            // SAFETY: the plan was made from `view`; each unit writes its own
            // outputs, every output once.
            unsafe { run_units(&plan, s, ptr.get(), dst.get().cast_mut(), from, to) }
        };
        if n >= 2 * MIN_TASK && units > 1 {
            let per_task = (MIN_TASK / per_unit.max(1)).max(1);
            map_tasks(units.div_ceil(per_task), |t| {
                run(t * per_task, ((t + 1) * per_task).min(units))
            });
        } else {
            run(0, units);
        }
    }
    // SAFETY: every output was written (each unit writes all of its own).
    let out = unsafe { out.assume_init() }.into_vec();
    ArrayD::from_shape_vec(IxDyn(view.shape()), out).expect("output length matches its shape")
}

/// Scans the view flattened in C order (NumPy's `axis=None`); a 1-d result.
pub(crate) fn scan_flat<E: Element, S: Scanner<E>>(
    view: &ArrayViewD<'_, E>,
    s: &S,
) -> ArrayD<S::Output> {
    if let Some(xs) = view.as_slice() {
        return scan(&ndarray::ArrayView1::from(xs).into_dyn(), 0, s);
    }
    let flat: Vec<E> = view.iter().copied().collect();
    scan(&ndarray::ArrayView1::from(&flat[..]).into_dyn(), 0, s)
}

/// Runs the units `from..to` of the plan (see [`scan`]), compiled for the
/// best instruction set.
///
/// # Safety
/// `src` is the pointer of the view the plan was made from; `dst` points to
/// its whole C-order output, whose slots of these units no other thread writes.
#[inline(never)]
unsafe fn run_units<E: Element, S: Scanner<E>>(
    plan: &AlongPlan,
    s: &S,
    src: *const E,
    dst: *mut S::Output,
    from: usize,
    to: usize,
) {
    E::dispatch(
        #[inline(always)]
        // SAFETY: as this function's contract.
        || unsafe {
            match plan.strategy() {
                AlongStrategy::Lanes => lanes(plan, s, src, dst, from, to),
                AlongStrategy::Rows => rows(plan, s, src, dst, from, to),
            }
        },
    );
}

/// Lanes `from..to` (C order over the other dimensions), each scanned on its own.
///
/// # Safety
/// As [`run_units`].
#[inline(always)]
unsafe fn lanes<E: Element, S: Scanner<E>>(
    plan: &AlongPlan,
    s: &S,
    src: *const E,
    dst: *mut S::Output,
    from: usize,
    to: usize,
) {
    let (in_dims, out_dims) = (plan.in_dims(), plan.out_dims());
    let mut at = Odometer::new(&in_dims, plan.base, from);
    let mut out_at = Odometer::new(&out_dims, plan.out_base, from);
    let axis = plan.axis;
    let (len, step_in, step_out) = (axis.dim.len, axis.dim.stride, axis.out_stride);
    for _ in from..to {
        // SAFETY: offsets from the plan lie in the view and in the output.
        unsafe {
            let (x, y) = (src.offset(at.offset), dst.offset(out_at.offset));
            let mut running = s.start();
            if step_in == 1 && step_out == 1 {
                let xs = std::slice::from_raw_parts(x, len);
                let ys = std::slice::from_raw_parts_mut(y.cast::<MaybeUninit<S::Output>>(), len);
                for (y, &x) in ys.iter_mut().zip(xs) {
                    y.write(s.step(&mut running, x));
                }
            } else {
                for i in 0..len as isize {
                    y.offset(i * step_out)
                        .write(s.step(&mut running, *x.offset(i * step_in)));
                }
            }
        }
        at.advance();
        out_at.advance();
    }
}

/// Units `from..to` of the rows strategy: unit `u` is tile `u % tiles` of
/// outer index `u / tiles`; the axis is walked outside, the tile's lanes
/// (contiguous in input and output) inside.
///
/// # Safety
/// As [`run_units`].
#[inline(always)]
unsafe fn rows<E: Element, S: Scanner<E>>(
    plan: &AlongPlan,
    s: &S,
    src: *const E,
    dst: *mut S::Output,
    from: usize,
    to: usize,
) {
    let (inner, outer) = plan.others.split_last().expect("rows have an inner dim");
    let width = inner.dim.len;
    let tiles = width.div_ceil(TILE);
    let outer_in: Vec<Dim> = outer.iter().map(|d| d.dim).collect();
    let outer_out: Vec<Dim> = outer
        .iter()
        .map(|d| Dim {
            len: d.dim.len,
            stride: d.out_stride,
        })
        .collect();
    let axis = plan.axis;
    let mut running = Vec::with_capacity(TILE.min(width));
    for u in from..to {
        let (o, t) = (u / tiles, u % tiles);
        let c0 = t * TILE;
        let w = TILE.min(width - c0);
        let in_base = Odometer::new(&outer_in, plan.base, o).offset + c0 as isize;
        let out_base = Odometer::new(&outer_out, plan.out_base, o).offset + c0 as isize;
        running.clear();
        running.resize(w, s.start());
        for i in 0..axis.dim.len as isize {
            // SAFETY: a row of `w` lanes from the plan's offsets lies in the
            // view and in the output.
            let (xs, ys) = unsafe {
                (
                    std::slice::from_raw_parts(src.offset(in_base + i * axis.dim.stride), w),
                    std::slice::from_raw_parts_mut(
                        dst.offset(out_base + i * axis.out_stride)
                            .cast::<MaybeUninit<S::Output>>(),
                        w,
                    ),
                )
            };
            for ((y, &x), r) in ys.iter_mut().zip(xs).zip(running.iter_mut()) {
                y.write(s.step(r, x));
            }
        }
    }
}
