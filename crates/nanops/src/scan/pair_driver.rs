//! The driver of pair kernels (`move_cov`, `move_corr`, `move_exp_nancov`,
//! `move_exp_nancorr`): two arrays of one shape, their lanes along one axis
//! taken in pairs, every pair handed to the kernel as two contiguous slices.
//!
//! Lanes are counted in C order over the other dimensions of the logical
//! shape (not re-planned by stride, as [`super::run_lanes`] does: the two
//! inputs may have different layouts, so the same count must name the same
//! lane in both). Strided lanes are copied into scratch first, a tile of
//! neighbouring lanes at a time, position by position across the tile (the
//! lanes along axis 0 of a C array lie side by side: each row of a tile is
//! one contiguous read), and their results scattered back the same way.
//! Lanes contiguous in both inputs and the output are cut into parts as
//! [`super::window_driver`] cuts them, so that one long lane runs on several
//! threads. Lanes never interact, and the cuts depend on the shape and the
//! kernel only: any split over threads gives the same bits.

use super::window_driver::Parts;
use crate::element::Element;
use crate::error::Result;
use crate::layout::{Dim, Odometer};
use crate::par::{map_tasks, threads, uninit_output, SendPtr, MIN_TASK};
use ndarray::{ArrayD, ArrayViewD, IxDyn};
use std::mem::MaybeUninit;

/// Positions of a tile copied at a time (see [`run_units`]).
const TRANSPOSE_BLOCK: usize = 64;

/// A computation over two lanes of one length whose output has that length
/// (moving co-moments of two series).
pub(crate) trait PairKernel<E: Element>: Sync {
    /// The result type of one position.
    type Output: Copy + Send + Sync + 'static;
    /// The kernel's reusable buffers, one per task.
    type Scratch: Default;
    /// Checks the kernel's options against the length of the axis.
    fn validate(&self, len: usize) -> Result<()>;
    /// Writes positions `from..from + out.len()` of the lanes `xs` and `ys`
    /// (whose values before `from` it may read). `from` is 0 or a multiple
    /// of [`PairKernel::cut`]'s alignment.
    fn part(
        &self,
        xs: &[E],
        ys: &[E],
        from: usize,
        out: &mut [MaybeUninit<Self::Output>],
        scratch: &mut Self::Scratch,
    );
    /// As [`super::LaneKernel::cut`]: `Some((align, warmup))` when a lane
    /// may be cut at any multiple of `align` with the same bits.
    fn cut(&self) -> Option<(usize, usize)> {
        None
    }
    /// The bytes of [`PairKernel::Scratch`] one task may hold, so that the
    /// caller can probe for them before a call that could not get them.
    fn scratch_bytes(&self) -> usize {
        0
    }
}

/// The bytes [`run_pairs`] holds in scratch per task along `axis` of `a`
/// and `b` with outputs of `O`: none for lanes contiguous in both inputs
/// and the output (the last axis); for strided lanes at most
/// [`SCRATCH_BYTES`] over a tile, or one lane where a lane is larger.
pub(crate) fn driver_scratch_bytes<E, O>(
    a: &ArrayViewD<'_, E>,
    b: &ArrayViewD<'_, E>,
    axis: usize,
) -> usize {
    let last = axis + 1 == a.ndim();
    if last && a.strides()[axis] == 1 && b.strides()[axis] == 1 {
        return 0;
    }
    let len = a.shape()[axis];
    let per_lane = len.saturating_mul(2 * std::mem::size_of::<E>() + std::mem::size_of::<O>());
    per_lane.max(SCRATCH_BYTES.min(per_lane.saturating_mul(MAX_TILE)))
}

/// Most bytes of one tile's scratch, unless a single lane needs more.
const SCRATCH_BYTES: usize = 8 << 20;
/// Most lanes of one tile.
const MAX_TILE: usize = 64;

/// Where the lanes of one array lie: the other dimensions (C order of the
/// logical shape) and the stride along the axis.
struct Lanes {
    /// The other dimensions with this array's strides.
    others: Vec<Dim>,
    /// The stride along the axis.
    step: isize,
}

impl Lanes {
    /// The lanes along `axis` of an array of `shape` and `strides`.
    fn of(shape: &[usize], strides: &[isize], axis: usize) -> Lanes {
        let others = (0..shape.len())
            .filter(|&d| d != axis)
            .map(|d| Dim {
                len: shape[d],
                stride: strides[d],
            })
            .collect();
        Lanes {
            others,
            step: strides[axis],
        }
    }
}

/// Runs kernel `k` along `axis` (in range, its options already validated)
/// of `a` and `b` (of one shape); the result has their shape, in C order.
pub(crate) fn run_pairs<E: Element, K: PairKernel<E>>(
    a: &ArrayViewD<'_, E>,
    b: &ArrayViewD<'_, E>,
    axis: usize,
    k: &K,
) -> ArrayD<K::Output> {
    debug_assert_eq!(a.shape(), b.shape());
    let shape = a.shape();
    let n = a.len();
    let mut out = uninit_output::<K::Output>(n);
    if n > 0 {
        let mut c_strides = vec![0isize; shape.len()];
        let mut acc = 1isize;
        for (s, &len) in c_strides.iter_mut().zip(shape).rev() {
            *s = acc;
            acc *= len as isize;
        }
        let len = shape[axis];
        let ways = [
            Lanes::of(shape, a.strides(), axis),
            Lanes::of(shape, b.strides(), axis),
            Lanes::of(shape, &c_strides, axis),
        ];
        let contiguous = ways.iter().all(|w| w.step == 1);
        let parts = Parts::along(len, contiguous, k.cut());
        let units = n / len * parts.count;
        let ptrs = (
            SendPtr(a.as_ptr()),
            SendPtr(b.as_ptr()),
            SendPtr(out.as_mut_ptr().cast::<K::Output>().cast_const()),
        );
        let run = |from: usize, to: usize| {
            // SAFETY: the lanes were made from the views' shapes and
            // strides and the output's C order; each unit writes its own
            // outputs, every output once.
            unsafe {
                run_units(
                    k,
                    &ways,
                    len,
                    parts,
                    (ptrs.0.get(), ptrs.1.get()),
                    ptrs.2.get().cast_mut(),
                    from,
                    to,
                )
            }
        };
        if n >= 2 * MIN_TASK && units > 1 {
            let per_task = if contiguous {
                (MIN_TASK / parts.len.max(1)).max(1)
            } else {
                // strided lanes: a few tasks per thread, each reusing its
                // tile's scratch over many lanes (any split: the same bits)
                units.div_ceil(4 * threads())
            };
            map_tasks(units.div_ceil(per_task), |t| {
                run(t * per_task, ((t + 1) * per_task).min(units))
            });
        } else {
            run(0, units);
        }
    }
    // SAFETY: every output was written (each unit writes all of its own).
    let out = unsafe { out.assume_init() }.into_vec();
    ArrayD::from_shape_vec(IxDyn(shape), out).expect("output length matches its shape")
}

/// Units `from..to`: unit `u` is part `u % parts.count` of lane
/// `u / parts.count` (the kernels dispatch their own arithmetic to the best
/// instruction set; the copies here are moves).
///
/// # Safety
/// `src` are the pointers of the views `ways[0]` and `ways[1]` were made
/// from, `dst` points to the whole C-order output (`ways[2]`), whose slots of
/// these units no other thread writes.
#[allow(clippy::too_many_arguments)]
unsafe fn run_units<E: Element, K: PairKernel<E>>(
    k: &K,
    ways: &[Lanes; 3],
    len: usize,
    parts: Parts,
    src: (*const E, *const E),
    dst: *mut K::Output,
    from: usize,
    to: usize,
) {
    let first = from / parts.count;
    let mut at = [
        Odometer::new(&ways[0].others, 0, first),
        Odometer::new(&ways[1].others, 0, first),
        Odometer::new(&ways[2].others, 0, first),
    ];
    let mut lane = first;
    let mut scratch = K::Scratch::default();
    if parts.count > 1 || ways.iter().all(|w| w.step == 1) {
        for u in from..to {
            while lane < u / parts.count {
                at.iter_mut().for_each(Odometer::advance);
                lane += 1;
            }
            let start = u % parts.count * parts.len;
            let end = (start + parts.len).min(len);
            // SAFETY: contiguous lanes from the lanes' offsets, in the views
            // and the output: values `0..end` in, `start..end` out, this
            // unit's outputs alone.
            unsafe {
                let xs = std::slice::from_raw_parts(src.0.offset(at[0].offset), end);
                let ys = std::slice::from_raw_parts(src.1.offset(at[1].offset), end);
                let out = std::slice::from_raw_parts_mut(
                    dst.offset(at[2].offset)
                        .add(start)
                        .cast::<MaybeUninit<K::Output>>(),
                    end - start,
                );
                k.part(xs, ys, start, out, &mut scratch);
            }
        }
        return;
    }
    // strided lanes (one part each): tiles of `tile` lanes gathered, two
    // cache lines of values across the tile per position
    let per_lane = len * (2 * std::mem::size_of::<E>() + std::mem::size_of::<K::Output>());
    let tile = (128 / std::mem::size_of::<E>().max(1))
        .clamp(4, MAX_TILE)
        .min(SCRATCH_BYTES / per_lane.max(1))
        .clamp(1, to - from);
    let mut xs_buf = vec![E::default(); tile * len];
    let mut ys_buf = vec![E::default(); tile * len];
    let mut out_buf: Vec<MaybeUninit<K::Output>> = vec![MaybeUninit::uninit(); tile * len];
    let mut ptrs: Vec<(*const E, *const E, *mut K::Output)> = Vec::with_capacity(tile);
    let mut u = from;
    while u < to {
        let width = tile.min(to - u);
        ptrs.clear();
        for _ in 0..width {
            // SAFETY: offsets from the lanes lie in the views and the output.
            ptrs.push(unsafe {
                (
                    src.0.offset(at[0].offset),
                    src.1.offset(at[1].offset),
                    dst.offset(at[2].offset),
                )
            });
            at.iter_mut().for_each(Odometer::advance);
        }
        u += width;
        let (sx, sy, so) = (ways[0].step, ways[1].step, ways[2].step);
        // blocks of positions: the rows a block reads across the tile stay in
        // L1 while each lane's run of them is copied out contiguously
        for i0 in (0..len).step_by(TRANSPOSE_BLOCK) {
            let i1 = (i0 + TRANSPOSE_BLOCK).min(len);
            for (c, &(x, y, _)) in ptrs.iter().enumerate() {
                let (xd, yd) = (
                    &mut xs_buf[c * len + i0..c * len + i1],
                    &mut ys_buf[c * len + i0..c * len + i1],
                );
                for (i, (xv, yv)) in (i0..i1).zip(xd.iter_mut().zip(yd.iter_mut())) {
                    // SAFETY: position `i` of each lane lies in its view.
                    unsafe {
                        *xv = *x.offset(i as isize * sx);
                        *yv = *y.offset(i as isize * sy);
                    }
                }
            }
        }
        for c in 0..width {
            let lane = c * len..(c + 1) * len;
            k.part(
                &xs_buf[lane.clone()],
                &ys_buf[lane.clone()],
                0,
                &mut out_buf[lane],
                &mut scratch,
            );
        }
        for i0 in (0..len).step_by(TRANSPOSE_BLOCK) {
            let i1 = (i0 + TRANSPOSE_BLOCK).min(len);
            for (c, &(_, _, o)) in ptrs.iter().enumerate() {
                for (i, v) in (i0..i1).zip(&out_buf[c * len + i0..c * len + i1]) {
                    // SAFETY: the kernel wrote every position of the tile;
                    // the lanes' outputs are this unit's alone.
                    unsafe { o.offset(i as isize * so).write(v.assume_init()) };
                }
            }
        }
    }
}
