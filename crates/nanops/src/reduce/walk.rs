//! The reduce family's walks of a plan: folding contiguous runs, rows of
//! outputs side by side, and many short lanes into partial states.

use crate::element::Element;
use crate::layout::{for_each_offset, Dim, Odometer, Strategy, Walker, SHORT_LANE};
use crate::simd::prefetch::prefetch_lines_ahead;

use super::reducer::{Reducer, COL_TILE};

/// Outputs transposed together by [`Walker::short_lanes`].
const SHORT_TILE: usize = 256;

/// Lanes at most this long have loops compiled for their length: the
/// transposition of [`Walker::short_lanes`] and the lane kernels of
/// [`Walker::short_lanes_into`] ([`Reducer::short_state`]). Longer short
/// lanes (to [`SHORT_LANE`]) are transposed by a loop over the run-time
/// length, or padded with NaN to [`SHORT_LANE`] values for one lane
/// kernel: a kernel for each length to 32 more than doubled the bindings'
/// build (CHANGELOG).
pub(crate) const SHORT_KERNEL_LANE: usize = 16;

/// Where [`Walker::short_lanes_into`]'s padded lanes are: one after
/// another (their values, and the plan-order index of the first one's
/// output), or `stride` apart from `offset`, `run` of them, with the
/// odometer of their outputs.
enum Lanes<'a, 'w, 'o, E> {
    Adjacent(&'a [E], usize),
    Apart(
        &'a Walker<'w, E>,
        (isize, isize, usize),
        &'a mut Odometer<'o>,
    ),
}

/// Calls `f::<…, L>(args)` with `L` the run-time length `$len` made a
/// constant, 1 to [`SHORT_KERNEL_LANE`], so the short-lane loops unroll.
macro_rules! by_short_len {
    (@call $f:ident, [$($t:ty),*], [$($arg:expr),*], $l:literal) => {
        $f::<$($t,)* $l>($($arg),*)
    };
    (@match $len:expr, $f:ident, $t:tt, $arg:tt, $($l:literal)*) => {
        match $len {
            $($l => by_short_len!(@call $f, $t, $arg, $l),)*
            _ => unreachable!("short lanes are at most {SHORT_KERNEL_LANE} long here"),
        }
    };
    ($len:expr, $f:ident::<$($t:ty),*>($($arg:expr),*)) => {
        by_short_len!(@match $len, $f, [$($t),*], [$($arg),*],
            1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16)
    };
}

/// Transposes `rows` (`w` rows of `len` values, one after another) into
/// `block` (`len` rows of `w` values): `block[l·w + k] = rows[k·len + l]`.
///
/// The length is made a constant (1 to [`SHORT_LANE`]) so each row's loads
/// unroll and vectorise as one interleaved group. Compiled once per element
/// type (for the best instruction set), not inlined into every reducer: the
/// sixteen unrolled copies are the same whatever is done with the block.
#[inline(never)]
fn transpose_rows<E: Element>(rows: &[E], len: usize, block: &mut [E]) {
    E::dispatch(
        #[inline(always)]
        || transpose_fixed(rows, len, block),
    )
}

/// [`transpose_rows`], inlined into the instruction set's version.
#[inline(always)]
fn transpose_fixed<E: Copy>(rows: &[E], len: usize, block: &mut [E]) {
    #[inline(always)]
    fn fixed<E: Copy, const L: usize>(rows: &[E], block: &mut [E]) {
        let w = rows.len() / L;
        assert!(block.len() >= w * L);
        let (src, dst) = (rows.as_ptr(), block.as_mut_ptr());
        for k in 0..w {
            for l in 0..L {
                // SAFETY: k·L + l < w·L ≤ rows.len(), l·w + k < L·w ≤ block.len().
                unsafe { *dst.add(l * w + k) = *src.add(k * L + l) };
            }
        }
    }
    if len > SHORT_KERNEL_LANE {
        // a row of the block at a time: its writes in order, its reads
        // `len` apart in lines already read for the row before
        let w = rows.len() / len;
        for (l, row) in block[..w * len].chunks_exact_mut(w).enumerate() {
            for (slot, lane) in row.iter_mut().zip(rows.chunks_exact(len)) {
                *slot = lane[l];
            }
        }
        return;
    }
    by_short_len!(len, fixed::<E>(rows, block))
}

/// Values of short lanes reduced between two rounds of prefetch requests
/// (for the reducers whose [`Reducer::PREFETCH_SHORT`] is set): 25 lanes of
/// 10, 2 KB of `f64` or 1 KB of `f32`. Measured on `(100000, 10)`: blocks of
/// 8 KB slowed both dtypes, from main memory and cached; blocks of 1 KB of
/// `f64` slowed the cached mean.
const SHORT_BLOCK_VALUES: usize = 256;

/// [`Reducer::push_rows`] of one block, compiled for the best instruction
/// set once per element type and reducer.
///
/// The walks that call it (the rows of a plan, transposed short lanes) do
/// index arithmetic once per block of rows, so they are compiled once, at
/// the baseline, around this call, instead of once per instruction set with
/// the kernel inlined at each of their call sites (the reduce family's walks
/// were the largest part of the release build's code).
#[inline(never)]
fn push_rows<E: Element, R: Reducer<E>>(r: &R, states: &mut [R::State], rows: &[&[E]]) {
    E::dispatch(
        #[inline(always)]
        || r.push_rows(states, rows),
    );
}

/// [`Walker::for_each_run`] with [`Reducer::push_slice`], compiled for the
/// best instruction set: runs can be short and many, so the kernel stays
/// inlined into the walk.
#[inline(never)]
fn push_runs<E: Element, R: Reducer<E>>(
    walker: &Walker<'_, E>,
    r: &R,
    states: &mut [R::State],
    start: usize,
) {
    E::dispatch(
        #[inline(always)]
        || {
            walker.for_each_run(
                start,
                states.len(),
                #[inline(always)]
                |j, xs| r.push_slice(&mut states[j], xs),
            )
        },
    );
}

impl<E: Element> Walker<'_, E> {
    /// Folds the plan-order outputs `start..start + states.len()` into `states`.
    #[inline(always)]
    pub(crate) fn run<R: Reducer<E>>(&self, r: &R, states: &mut [R::State], start: usize) {
        if states.is_empty() || self.plan().reduce_len() == 0 {
            return;
        }
        if self.plan().strategy() == Strategy::Rows {
            return self.rows(r, states, start);
        }
        if let Some(len) = self.short_lane().filter(|_| states.len() > 1) {
            return self.short_lanes(r, states, start, len);
        }
        push_runs(self, r, states, start);
    }

    /// Many outputs, each one short lane (`(100000, 10)` along axis 1):
    /// tiles of outputs are transposed into a scratch block whose row `l`
    /// holds value `l` of every output of the tile, and the block goes
    /// through the rows kernel, vectorised across outputs.
    #[inline(always)]
    fn short_lanes<R: Reducer<E>>(&self, r: &R, states: &mut [R::State], start: usize, len: usize) {
        let kept: Vec<Dim> = self.plan().kept.iter().map(|k| k.dim).collect();
        let mut odo = Odometer::new(&kept, self.plan().base, start);
        let mut block = vec![E::default(); len * SHORT_TILE.min(states.len())];
        // Lanes adjacent in memory (a C-contiguous block of rows) are read as
        // one slice when a tile does not wrap the innermost kept dimension.
        let adjacent = self
            .plan()
            .kept
            .last()
            .is_some_and(|k| k.dim.stride == len as isize);
        for tile in states.chunks_mut(SHORT_TILE) {
            let w = tile.len();
            let packed = adjacent && odo.run_left() >= w;
            if packed {
                let rows = self.slice(odo.offset, w * len);
                transpose_rows(rows, len, &mut block[..w * len]);
                for _ in 0..w {
                    odo.advance();
                }
            } else {
                for k in 0..w {
                    let x = self.slice(odo.offset, len);
                    for l in 0..len {
                        block[l * w + k] = x[l];
                    }
                    odo.advance();
                }
            }
            let mut rows: [&[E]; SHORT_LANE] = [&[]; SHORT_LANE];
            for (row, vals) in rows.iter_mut().zip(block[..len * w].chunks_exact(w)) {
                *row = vals;
            }
            push_rows(r, tile, &rows[..len]);
        }
    }

    /// Many outputs, each one short lane ([`Walker::short_lane`]), for
    /// reducers with a kernel of their own per short lane
    /// ([`Reducer::short_state`]): each output's state is made, filled and
    /// finished in registers and written to `out` (the plan's whole C-order
    /// output), with the lane length a constant. Returns how many of the
    /// plan-order outputs `start..start + count` were degenerate.
    ///
    /// # Safety
    /// `out` must point to the plan's whole output, and no other thread may
    /// write these outputs meanwhile.
    #[inline(always)]
    pub(crate) unsafe fn short_lanes_into<R: Reducer<E>>(
        &self,
        r: &R,
        start: usize,
        count: usize,
        out: *mut R::Output,
    ) -> usize {
        /// The result of one lane (a function, not a closure: a closure may
        /// stay out of line, compiled for the baseline instruction set).
        #[inline(always)]
        fn one<E: Element, R: Reducer<E>, const L: usize>(
            r: &R,
            lane: &[E; L],
            degenerate: &mut usize,
        ) -> R::Output {
            let st = r.short_state(lane);
            *degenerate += r.degenerate(&st) as usize;
            r.finish(&st)
        }
        /// The results of lanes of 17 to [`SHORT_LANE`] values (`len`) one
        /// after another (`lanes`), or `stride` apart from `offset` (the
        /// outputs from `dst` on): each copied into a lane of
        /// [`SHORT_LANE`] values padded with NaN, which no reducer with a
        /// short-lane kernel counts (the NaN-skipping statistics), and
        /// reduced by the kernel for that length: one kernel for all these
        /// lengths, not one each (see [`SHORT_KERNEL_LANE`]; reducers whose
        /// [`Reducer::PAD_SHORT`] is false are not sent here).
        #[inline(always)]
        fn padded<E: Element, R: Reducer<E>>(
            r: &R,
            lanes: Lanes<'_, '_, '_, E>,
            len: usize,
            out: *mut R::Output,
            degenerate: &mut usize,
        ) {
            let mut lane = [E::nan(); SHORT_LANE];
            let mut reduce = |values: &[E]| {
                lane[..len].copy_from_slice(values);
                one::<E, R, SHORT_LANE>(r, &lane, degenerate)
            };
            match lanes {
                Lanes::Adjacent(rows, first) => {
                    for (k, values) in rows.chunks_exact(len).enumerate() {
                        // SAFETY: outputs `first..first + run` lie in `out` (caller).
                        unsafe { *out.add(first + k) = reduce(values) };
                    }
                }
                Lanes::Apart(w, (offset, stride, run), dst) => {
                    for k in 0..run {
                        let value = reduce(w.slice(offset + k as isize * stride, len));
                        // SAFETY: the plan's output offsets lie in `out` (caller).
                        unsafe { *out.offset(dst.offset) = value };
                        dst.advance();
                    }
                }
            }
        }
        /// The results of lanes one after another (`rows`) into outputs
        /// one after another.
        ///
        /// Lanes in blocks, each block asking for the memory of a later one:
        /// the hardware prefetcher alone leaves the reads of main memory and
        /// the lanes' work one after the other (a cheap reducer's own
        /// choice: the extra loop slows the heavier lane kernels when the
        /// input is cached). The block's lane count is a constant here (of
        /// `L`): LLVM then vectorises the loop across a block's lanes with
        /// 32-bit gather offsets and no long epilogue; a count known only at
        /// run time made it gather with 64-bit offsets, 16 lanes at a time,
        /// and finish most of each block of 25 lanes in a 4-lane epilogue.
        #[inline(always)]
        fn adjacent<E: Element, R: Reducer<E>, const L: usize>(
            r: &R,
            out: &mut [R::Output],
            rows: &[E],
            degenerate: &mut usize,
        ) {
            #[inline(always)]
            fn lanes<E: Element, R: Reducer<E>, const L: usize>(
                r: &R,
                outs: &mut [R::Output],
                rows: &[E],
                degenerate: &mut usize,
            ) {
                for (slot, lane) in outs.iter_mut().zip(rows.chunks_exact(L)) {
                    let lane = lane.try_into().expect("chunks of L");
                    *slot = one::<E, R, L>(r, lane, degenerate);
                }
            }
            if R::PREFETCH_SHORT {
                let block = (SHORT_BLOCK_VALUES / L).max(1);
                for (outs, rows) in out.chunks_mut(block).zip(rows.chunks(block * L)) {
                    prefetch_lines_ahead(rows);
                    lanes::<E, R, L>(r, outs, rows, degenerate);
                }
            } else {
                lanes::<E, R, L>(r, out, rows, degenerate);
            }
        }
        /// The results of `run` lanes `stride` apart from `offset` into the
        /// plan's outputs from `dst` on.
        #[inline(always)]
        fn scattered<E: Element, R: Reducer<E>, const L: usize>(
            w: &Walker<'_, E>,
            r: &R,
            (offset, stride, run): (isize, isize, usize),
            dst: &mut Odometer,
            out: *mut R::Output,
            degenerate: &mut usize,
        ) {
            for k in 0..run {
                let lane = w.slice(offset + k as isize * stride, L);
                let value = one::<E, R, L>(r, lane.try_into().expect("L"), degenerate);
                // SAFETY: the plan's output offsets lie in `out` (caller).
                unsafe { *out.offset(dst.offset) = value };
                dst.advance();
            }
        }
        // Only the lane loops are compiled per length: the walk around them
        // once per element type and reducer.
        let len = self.short_lane().expect("a short lane");
        let kept: Vec<Dim> = self.plan().kept.iter().map(|k| k.dim).collect();
        let stride = kept.last().map_or(0, |d| d.stride);
        let in_order = self.plan().out_in_order();
        let out_dims = self.plan().out_dims();
        let mut degenerate = 0;
        let mut done = 0;
        // runs along the innermost kept dimension: offsets step by its
        // stride, without the odometer's per-index bookkeeping
        while done < count {
            let j = start + done;
            let odo = Odometer::new(&kept, self.plan().base, j);
            let run = odo.run_left().min(count - done);
            if in_order && stride == len as isize {
                // rows one after another, outputs one after another
                let rows = self.slice(odo.offset, run * len);
                let d = &mut degenerate;
                if len > SHORT_KERNEL_LANE {
                    padded(r, Lanes::Adjacent(rows, j), len, out, d);
                } else {
                    // SAFETY: outputs `j..j + run` lie in `out` (caller).
                    let out = unsafe { std::slice::from_raw_parts_mut(out.add(j), run) };
                    by_short_len!(len, adjacent::<E, R>(r, out, rows, d));
                }
            } else {
                let mut dst = Odometer::new(&out_dims, self.plan().out_base, j);
                let (d, lanes) = (&mut degenerate, (odo.offset, stride, run));
                if len > SHORT_KERNEL_LANE {
                    padded(r, Lanes::Apart(self, lanes, &mut dst), len, out, d);
                } else {
                    by_short_len!(len, scattered::<E, R>(self, r, lanes, &mut dst, out, d));
                }
            }
            done += run;
        }
        degenerate
    }

    #[inline(always)]
    fn rows<R: Reducer<E>>(&self, r: &R, states: &mut [R::State], start: usize) {
        let (inner, outer) = self.plan().kept.split_last().expect("rows need a kept dim");
        let row_len = inner.dim.len;
        let outer: Vec<Dim> = outer.iter().map(|k| k.dim).collect();
        let end = start + states.len();
        let mut j = start;
        while j < end {
            let (o, c0) = (j / row_len, j % row_len);
            let n = (row_len - c0).min(end - j);
            let base = Odometer::new(&outer, self.plan().base, o).offset + c0 as isize;
            // column tiles keep the block's accumulators in cache
            for c in (0..n).step_by(COL_TILE) {
                let w = COL_TILE.min(n - c);
                let sts = &mut states[j - start + c..j - start + c + w];
                let mut block: Vec<&[E]> = Vec::with_capacity(R::ROWS_PER_PUSH);
                for_each_offset(
                    &self.plan().reduced,
                    base + c as isize,
                    #[inline(always)]
                    |off| {
                        block.push(self.slice(off, w));
                        if block.len() == R::ROWS_PER_PUSH {
                            push_rows(r, sts, &block);
                            block.clear();
                        }
                    },
                );
                if !block.is_empty() {
                    push_rows(r, sts, &block);
                }
            }
            j += n;
        }
    }
}
