//! The driver of lane kernels (moving windows, fills): every lane handed to
//! the kernel as one contiguous slice, lanes split over threads.
//!
//! The view is planned along the axis ([`AlongPlan`]). A lane contiguous in
//! the input and the output is computed in place; a strided lane is copied
//! into scratch first (and its result scattered back). When the axis is an
//! outer one and the innermost other dimension is contiguous (axis 0 of a C
//! array), a tile of neighbouring lanes is copied row by row into scratch
//! (contiguous reads of each row, a blocked transpose), the kernel runs on
//! each lane of the tile, and the results go back row by row: every memory
//! access of the original array is a contiguous run. Lanes never interact,
//! so any split over threads gives the same bits.

use super::window::LaneKernel;
use crate::element::Element;
use crate::layout::{AlongPlan, AlongStrategy, Dim, Odometer};
use crate::par::{map_tasks, SendPtr, MIN_TASK};
use ndarray::{ArrayD, ArrayViewD, IxDyn};
use std::mem::MaybeUninit;

/// Bytes of input and output a tile of the rows strategy copies (its lanes
/// stay in L2 while the kernel runs over them).
const TILE_BYTES: usize = 1 << 19;
/// Most lanes in one tile of the rows strategy.
const MAX_TILE: usize = 64;

/// Runs kernel `k` along `axis` (in range, its options already validated)
/// of `view`; the result has the view's shape, in C order.
pub(crate) fn run_lanes<E: Element, K: LaneKernel<E>>(
    view: &ArrayViewD<'_, E>,
    axis: usize,
    k: &K,
) -> ArrayD<K::Output> {
    let plan = AlongPlan::new(view.shape(), view.strides(), axis);
    let n = view.len();
    let mut out = crate::par::uninit_output::<K::Output>(n);
    if n > 0 {
        let ptr = SendPtr(view.as_ptr());
        let dst = SendPtr(out.as_mut_ptr().cast::<K::Output>().cast_const());
        let len = plan.axis.dim.len;
        let tile = k
            .rows_tile()
            .unwrap_or_else(|| tile_width::<E, K::Output>(len));
        let parts = Parts::of(&plan, k);
        let (units, per_unit) = match plan.strategy() {
            AlongStrategy::Lanes => (plan.lanes() * parts.count, parts.len),
            AlongStrategy::Rows => {
                let inner = plan.others.last().expect("rows have an inner dim").dim.len;
                (
                    plan.lanes() / inner * inner.div_ceil(tile),
                    len * tile.min(inner),
                )
            }
        };
        let run = |from: usize, to: usize| {
            // SAFETY: the plan was made from `view`; each unit writes its own
            // outputs, every output once.
            unsafe {
                run_units(
                    &plan,
                    k,
                    tile,
                    parts,
                    ptr.get(),
                    dst.get().cast_mut(),
                    from,
                    to,
                )
            }
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

/// How the lanes strategy cuts each lane: `count` parts of `len` values
/// (the last shorter), each a unit of work.
#[derive(Clone, Copy, Debug)]
pub(super) struct Parts {
    /// Parts per lane.
    pub count: usize,
    /// Values per part.
    pub len: usize,
}

impl Parts {
    /// One part per lane, unless the lanes are contiguous in the input and
    /// the output, the kernel allows cuts ([`LaneKernel::cut`]) and a lane
    /// holds at least two parts of `max(2·MIN_TASK, 8·warmup)` values
    /// (rounded up to the alignment): then a long lane (a 1-d array) runs on
    /// several threads. The cuts depend on the shape and the kernel only.
    fn of<E: Element, K: LaneKernel<E>>(plan: &AlongPlan, k: &K) -> Parts {
        let contiguous = plan.axis.dim.stride == 1 && plan.axis.out_stride == 1;
        let lanes = plan.strategy() == AlongStrategy::Lanes;
        Parts::along(plan.axis.dim.len, contiguous && lanes, k.cut())
    }

    /// The parts of lanes of `len` values for a kernel that allows the cuts
    /// `cut` (see [`LaneKernel::cut`]): one per lane unless `contiguous`.
    pub(super) fn along(len: usize, contiguous: bool, cut: Option<(usize, usize)>) -> Parts {
        let whole = Parts { count: 1, len };
        if !contiguous {
            return whole;
        }
        let Some((align, warmup)) = cut else {
            return whole;
        };
        let part = (2 * MIN_TASK).max(8 * warmup).div_ceil(align.max(1)) * align.max(1);
        if len < 2 * part {
            return whole;
        }
        Parts {
            count: len.div_ceil(part),
            len: part,
        }
    }
}

/// Lanes in one tile of the rows strategy for lanes of `len` values.
fn tile_width<E, O>(len: usize) -> usize {
    let per_lane = len.max(1) * (std::mem::size_of::<E>() + std::mem::size_of::<O>()).max(1);
    (TILE_BYTES / per_lane).clamp(4, MAX_TILE)
}

/// Runs the units `from..to` (see [`run_lanes`]), compiled for the best
/// instruction set.
///
/// # Safety
/// `src` is the pointer of the view the plan was made from; `dst` points to
/// its whole C-order output, whose slots of these units no other thread writes.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
unsafe fn run_units<E: Element, K: LaneKernel<E>>(
    plan: &AlongPlan,
    k: &K,
    tile: usize,
    parts: Parts,
    src: *const E,
    dst: *mut K::Output,
    from: usize,
    to: usize,
) {
    E::dispatch(
        #[inline(always)]
        // SAFETY: as this function's contract.
        || unsafe {
            match plan.strategy() {
                AlongStrategy::Lanes if parts.count > 1 => {
                    cut_lanes(plan, k, parts, src, dst, from, to)
                }
                AlongStrategy::Lanes => lanes(plan, k, src, dst, from, to),
                AlongStrategy::Rows => rows(plan, k, tile, src, dst, from, to),
            }
        },
    );
}

/// Lanes `from..to` (C order over the other dimensions), each on its own.
///
/// # Safety
/// As [`run_units`].
#[inline(always)]
unsafe fn lanes<E: Element, K: LaneKernel<E>>(
    plan: &AlongPlan,
    k: &K,
    src: *const E,
    dst: *mut K::Output,
    from: usize,
    to: usize,
) {
    let (in_dims, out_dims) = (plan.in_dims(), plan.out_dims());
    let mut at = Odometer::new(&in_dims, plan.base, from);
    let mut out_at = Odometer::new(&out_dims, plan.out_base, from);
    let axis = plan.axis;
    let (len, step_in, step_out) = (axis.dim.len, axis.dim.stride, axis.out_stride);
    if let Some(group) = k.rows_tile().filter(|_| k.side_lanes()) {
        let group = group.min(SIDE_LANES);
        if step_in == 1 && step_out == 1 && to - from >= 2 && len <= MAX_SIDE_LEN {
            // SAFETY: as this function's contract; the lanes are contiguous.
            unsafe { side_lanes(k, group, &mut at, &mut out_at, src, dst, len, to - from) };
            return;
        }
    }
    let mut xs_buf: Vec<E> = Vec::new();
    let mut ys_buf: Vec<MaybeUninit<K::Output>> = Vec::new();
    let mut scratch = Vec::new();
    for _ in from..to {
        // SAFETY: offsets from the plan lie in the view and in the output.
        unsafe {
            let (x, y) = (src.offset(at.offset), dst.offset(out_at.offset));
            let xs: &[E] = if step_in == 1 {
                std::slice::from_raw_parts(x, len)
            } else {
                xs_buf.clear();
                xs_buf.extend((0..len as isize).map(|i| *x.offset(i * step_in)));
                &xs_buf
            };
            if step_out == 1 {
                let ys = std::slice::from_raw_parts_mut(y.cast::<MaybeUninit<K::Output>>(), len);
                k.part(xs, 0, ys, &mut scratch);
            } else {
                ys_buf.resize(len, MaybeUninit::uninit());
                k.part(xs, 0, &mut ys_buf, &mut scratch);
                for (i, v) in ys_buf.iter().enumerate() {
                    y.offset(i as isize * step_out).write(v.assume_init());
                }
            }
        }
        at.advance();
        out_at.advance();
    }
}

/// Lanes in one group of [`side_lanes`].
const SIDE_LANES: usize = 16;
/// Positions of a group transposed at a time by [`side_lanes`].
const TRANSPOSE_BLOCK: usize = 64;
/// The longest lanes [`side_lanes`] transposes (its scratch holds
/// `SIDE_LANES` of them).
const MAX_SIDE_LEN: usize = 1 << 16;

/// `count` contiguous lanes from the odometers' positions, in groups of
/// `group`: each group transposed into scratch (position `i` of lane `c` at
/// `i·group + c`), computed side by side by [`LaneKernel::rows`] and
/// transposed back; a last group of one lane runs [`LaneKernel::part`].
///
/// # Safety
/// As [`run_units`]; the lanes are contiguous in the input and the output.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn side_lanes<E: Element, K: LaneKernel<E>>(
    k: &K,
    group: usize,
    at: &mut Odometer<'_>,
    out_at: &mut Odometer<'_>,
    src: *const E,
    dst: *mut K::Output,
    len: usize,
    count: usize,
) {
    let mut xt: Vec<E> = vec![E::default(); group * len];
    let mut yt: Vec<MaybeUninit<K::Output>> = vec![MaybeUninit::uninit(); group * len];
    let mut ins: Vec<*const E> = Vec::with_capacity(group);
    let mut outs: Vec<*mut K::Output> = Vec::with_capacity(group);
    let mut done = 0;
    while done < count {
        let w = group.min(count - done);
        ins.clear();
        outs.clear();
        for _ in 0..w {
            // SAFETY: offsets from the plan lie in the view and in the output.
            unsafe {
                ins.push(src.offset(at.offset));
                outs.push(dst.offset(out_at.offset));
            }
            at.advance();
            out_at.advance();
        }
        done += w;
        if w == 1 {
            // SAFETY: the lane is contiguous, `len` values in and out.
            unsafe {
                let xs = std::slice::from_raw_parts(ins[0], len);
                let ys =
                    std::slice::from_raw_parts_mut(outs[0].cast::<MaybeUninit<K::Output>>(), len);
                k.part(xs, 0, ys, &mut Vec::new());
            }
            continue;
        }
        // blocks of positions, so that the scratch rows being written stay
        // in L1 while every lane's run of them is read
        for i0 in (0..len).step_by(TRANSPOSE_BLOCK) {
            let i1 = (i0 + TRANSPOSE_BLOCK).min(len);
            for (c, &x) in ins.iter().enumerate() {
                // SAFETY: as above.
                let run = unsafe { std::slice::from_raw_parts(x.add(i0), i1 - i0) };
                for (row, &v) in xt[i0 * w..i1 * w].chunks_exact_mut(w).zip(run) {
                    row[c] = v;
                }
            }
        }
        // SAFETY: rows `0..len` of `w` lanes at stride `w` lie in the scratch.
        unsafe {
            k.rows(
                xt.as_ptr(),
                w as isize,
                yt.as_mut_ptr().cast::<K::Output>(),
                w as isize,
                len,
                w,
            );
        }
        for i0 in (0..len).step_by(TRANSPOSE_BLOCK) {
            let i1 = (i0 + TRANSPOSE_BLOCK).min(len);
            for (c, &y) in outs.iter().enumerate() {
                for (k, row) in yt[i0 * w..i1 * w].chunks_exact(w).enumerate() {
                    // SAFETY: the kernel wrote every position of the
                    // scratch's `w` lanes; the lane's outputs are this
                    // unit's alone.
                    unsafe { y.add(i0 + k).write(row[c].assume_init()) };
                }
            }
        }
    }
}

/// Units `from..to` of contiguous lanes cut into parts: unit `u` is part
/// `u % parts.count` of lane `u / parts.count`.
///
/// # Safety
/// As [`run_units`]; the lanes are contiguous in the input and the output.
#[inline(always)]
unsafe fn cut_lanes<E: Element, K: LaneKernel<E>>(
    plan: &AlongPlan,
    k: &K,
    parts: Parts,
    src: *const E,
    dst: *mut K::Output,
    from: usize,
    to: usize,
) {
    let (in_dims, out_dims) = (plan.in_dims(), plan.out_dims());
    let len = plan.axis.dim.len;
    let mut scratch = Vec::new();
    for u in from..to {
        let (lane, p) = (u / parts.count, u % parts.count);
        let at = Odometer::new(&in_dims, plan.base, lane).offset;
        let out_at = Odometer::new(&out_dims, plan.out_base, lane).offset;
        let start = p * parts.len;
        let end = (start + parts.len).min(len);
        // SAFETY: the lane lies in the view and in the output (contiguous);
        // this part's outputs are written by this unit only.
        unsafe {
            let xs = std::slice::from_raw_parts(src.offset(at), end);
            let ys = std::slice::from_raw_parts_mut(
                dst.offset(out_at)
                    .add(start)
                    .cast::<MaybeUninit<K::Output>>(),
                end - start,
            );
            k.part(xs, start, ys, &mut scratch);
        }
    }
}

/// Units `from..to` of the rows strategy: unit `u` is tile `u % tiles` of
/// outer index `u / tiles`; its lanes are copied into scratch row by row,
/// computed one by one, and written back row by row.
///
/// # Safety
/// As [`run_units`].
#[inline(always)]
unsafe fn rows<E: Element, K: LaneKernel<E>>(
    plan: &AlongPlan,
    k: &K,
    tile: usize,
    src: *const E,
    dst: *mut K::Output,
    from: usize,
    to: usize,
) {
    let (inner, outer) = plan.others.split_last().expect("rows have an inner dim");
    let width = inner.dim.len;
    let tiles = width.div_ceil(tile);
    let outer_in: Vec<Dim> = outer.iter().map(|d| d.dim).collect();
    let outer_out: Vec<Dim> = outer
        .iter()
        .map(|d| Dim {
            len: d.dim.len,
            stride: d.out_stride,
        })
        .collect();
    let axis = plan.axis;
    let len = axis.dim.len;
    if k.rows_tile().is_some() {
        for u in from..to {
            let (o, t) = (u / tiles, u % tiles);
            let c0 = t * tile;
            let in_base = Odometer::new(&outer_in, plan.base, o).offset + c0 as isize;
            let out_base = Odometer::new(&outer_out, plan.out_base, o).offset + c0 as isize;
            // SAFETY: the tile's rows lie in the view and in the output, and
            // are this unit's alone.
            unsafe {
                k.rows(
                    src.offset(in_base),
                    axis.dim.stride,
                    dst.offset(out_base),
                    axis.out_stride,
                    len,
                    tile.min(width - c0),
                );
            }
        }
        return;
    }
    let mut xs_buf: Vec<E> = vec![E::default(); len * tile.min(width)];
    let mut ys_buf: Vec<MaybeUninit<K::Output>> =
        vec![MaybeUninit::uninit(); len * tile.min(width)];
    let mut scratch = Vec::new();
    for u in from..to {
        let (o, t) = (u / tiles, u % tiles);
        let c0 = t * tile;
        let w = tile.min(width - c0);
        let in_base = Odometer::new(&outer_in, plan.base, o).offset + c0 as isize;
        let out_base = Odometer::new(&outer_out, plan.out_base, o).offset + c0 as isize;
        for i in 0..len {
            // SAFETY: a row of `w` lanes from the plan's offsets lies in the view.
            let row = unsafe {
                std::slice::from_raw_parts(src.offset(in_base + i as isize * axis.dim.stride), w)
            };
            for (c, &x) in row.iter().enumerate() {
                xs_buf[c * len + i] = x;
            }
        }
        for c in 0..w {
            let lane = c * len..(c + 1) * len;
            k.part(&xs_buf[lane.clone()], 0, &mut ys_buf[lane], &mut scratch);
        }
        for i in 0..len {
            // SAFETY: a row of `w` lanes from the plan's offsets lies in the
            // output; the tile's results were all written by the kernel.
            unsafe {
                let row = dst.offset(out_base + i as isize * axis.out_stride);
                for c in 0..w {
                    row.add(c).write(ys_buf[c * len + i].assume_init());
                }
            }
        }
    }
}
