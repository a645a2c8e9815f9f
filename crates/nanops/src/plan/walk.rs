//! Executing a [`Plan`]: the loop nests of the three strategies.

use super::{Dim, Plan, Strategy};
use crate::element::Element;
use crate::kernels::{prefetch_ahead, Reducer, COL_TILE, ROW_BLOCK};

/// Values gathered per kernel call by [`Strategy::Gather`].
const GATHER: usize = 1024;
/// Lanes at most this long, one per output, are reduced across outputs
/// ([`Walker::short_lanes`]): lane set-up and folding would cost more than
/// the values.
pub(crate) const SHORT_LANE: usize = 16;
/// Rows ahead that [`Walker::for_each_row_of`] prefetches (measured on
/// `nanmedian` along axis 0 of a 10000 × 1000 array: 8 rows gained 10–15%;
/// 4 to 32 were alike).
const PREFETCH_ROWS: usize = 8;
/// Outputs transposed together by [`Walker::short_lanes`].
const SHORT_TILE: usize = 256;

/// Mixed-radix counter over `dims` (outermost first) that tracks the offset.
pub(crate) struct Odometer<'a> {
    dims: &'a [Dim],
    idx: Vec<usize>,
    /// Offset of the current index.
    pub offset: isize,
}

impl<'a> Odometer<'a> {
    /// Positioned at flat (C-order) index `start` of `dims`.
    pub fn new(dims: &'a [Dim], base: isize, start: usize) -> Self {
        let mut idx = vec![0; dims.len()];
        let mut rest = start;
        let mut offset = base;
        for (k, d) in dims.iter().enumerate().rev() {
            if d.len == 0 {
                break;
            }
            idx[k] = rest % d.len;
            rest /= d.len;
            offset += idx[k] as isize * d.stride;
        }
        Odometer { dims, idx, offset }
    }

    /// Indices left before the innermost dimension wraps (counting the current one).
    pub fn run_left(&self) -> usize {
        match (self.dims.last(), self.idx.last()) {
            (Some(d), Some(&i)) => d.len - i,
            _ => 1,
        }
    }

    /// Moves to the next index (wrapping past the end).
    #[inline]
    pub fn advance(&mut self) {
        for k in (0..self.dims.len()).rev() {
            let d = self.dims[k];
            self.idx[k] += 1;
            self.offset += d.stride;
            if self.idx[k] < d.len {
                return;
            }
            self.offset -= d.stride * d.len as isize;
            self.idx[k] = 0;
        }
    }
}

/// Calls `f` with the offset of every index of `dims` (outermost first,
/// C order), starting from `base`.
#[inline(always)]
pub(crate) fn for_each_offset(dims: &[Dim], base: isize, mut f: impl FnMut(isize)) {
    match dims {
        [] => f(base),
        // `for` loops, not `for_each`: an adaptor's out-of-line `fold` would
        // take `f` (the kernel) out of the `simd::dispatch` versions.
        [d] => {
            for i in 0..d.len {
                f(base + i as isize * d.stride);
            }
        }
        [o, d] => {
            for i in 0..o.len {
                let b = base + i as isize * o.stride;
                for j in 0..d.len {
                    f(b + j as isize * d.stride);
                }
            }
        }
        _ => {
            let n: usize = dims.iter().map(|d| d.len).product();
            let mut odo = Odometer::new(dims, base, 0);
            for _ in 0..n {
                f(odo.offset);
                odo.advance();
            }
        }
    }
}

/// Copies `len` values at `stride` starting at `ptr` into `dst` (cleared first).
///
/// # Safety
/// Every `ptr + i·stride`, `i < len`, must be a valid element.
#[inline(always)]
pub(crate) unsafe fn gather<E: Copy>(ptr: *const E, len: usize, stride: isize, dst: &mut Vec<E>) {
    dst.clear();
    dst.extend((0..len).map(|i| *ptr.offset(i as isize * stride)));
}

/// Calls `f::<…, L>(args)` with `L` the run-time length `$len` made a
/// constant, 1 to [`SHORT_LANE`], so the short-lane loops unroll.
macro_rules! by_short_len {
    (@call $f:ident, [$($t:ty),*], [$($arg:expr),*], $l:literal) => {
        $f::<$($t,)* $l>($($arg),*)
    };
    (@match $len:expr, $f:ident, $t:tt, $arg:tt, $($l:literal)*) => {
        match $len {
            $($l => by_short_len!(@call $f, $t, $arg, $l),)*
            _ => unreachable!("short lanes are at most {SHORT_LANE} long"),
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
/// unroll and vectorise as one interleaved group.
#[inline(always)]
fn transpose_rows<E: Copy>(rows: &[E], len: usize, block: &mut [E]) {
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
    by_short_len!(len, fixed::<E>(rows, block))
}

/// Values of short lanes reduced between two rounds of prefetch requests
/// (for the reducers whose [`Reducer::PREFETCH_SHORT`] is set): 25 lanes of
/// 10, 2 KB of `f64` or 1 KB of `f32`. Measured on `(100000, 10)`: blocks of
/// 8 KB slowed both dtypes, from main memory and cached; blocks of 1 KB of
/// `f64` slowed the cached mean 1.7×.
const SHORT_BLOCK_VALUES: usize = 256;

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

/// Runs a plan over the memory of one array view.
pub(crate) struct Walker<'a, E> {
    ptr: *const E,
    plan: &'a Plan,
}

// SAFETY: the walker only reads through `ptr`, which points into a view of
// `E: Sync` values that outlives it.
unsafe impl<E: Sync> Send for Walker<'_, E> {}
unsafe impl<E: Sync> Sync for Walker<'_, E> {}

impl<'a, E: Element> Walker<'a, E> {
    /// A walker over `plan` for the view whose first element is at `ptr`.
    ///
    /// # Safety
    /// `plan` must have been made from that view's shape and strides (possibly
    /// restricted), and the view must outlive the walker.
    pub unsafe fn new(ptr: *const E, plan: &'a Plan) -> Self {
        Walker { ptr, plan }
    }

    #[inline(always)]
    fn slice(&self, offset: isize, len: usize) -> &[E] {
        // SAFETY: offsets come from the plan, inside the view (see `new`).
        unsafe { std::slice::from_raw_parts(self.ptr.offset(offset), len) }
    }

    /// Folds the plan-order outputs `start..start + states.len()` into `states`.
    #[inline(always)]
    pub fn run<R: Reducer<E>>(&self, r: &R, states: &mut [R::State], start: usize) {
        if states.is_empty() || self.plan.reduce_len() == 0 {
            return;
        }
        if self.plan.strategy() == Strategy::Rows {
            return self.rows(r, states, start);
        }
        if let Some(len) = self.short_lane().filter(|_| states.len() > 1) {
            return self.short_lanes(r, states, start, len);
        }
        self.for_each_run(
            start,
            states.len(),
            #[inline(always)]
            |j, xs| r.push_slice(&mut states[j], xs),
        );
    }

    /// Calls `f(j, run)` for every contiguous run of the values of plan-order
    /// output `start + j`, `j < count`, in order of `j`. Strided values are
    /// gathered into a scratch buffer first.
    #[inline(always)]
    pub fn for_each_run(&self, start: usize, count: usize, mut f: impl FnMut(usize, &[E])) {
        if self.plan.reduce_len() == 0 {
            return;
        }
        let (inner, outer) = self.plan.reduced.split_last().expect("never empty");
        let kept: Vec<Dim> = self.plan.kept.iter().map(|k| k.dim).collect();
        let mut odo = Odometer::new(&kept, self.plan.base, start);
        if inner.stride == 1 {
            for j in 0..count {
                for_each_offset(
                    outer,
                    odo.offset,
                    #[inline(always)]
                    |o| f(j, self.slice(o, inner.len)),
                );
                odo.advance();
            }
            return;
        }
        let mut scratch = Vec::with_capacity(GATHER.min(inner.len));
        for j in 0..count {
            for_each_offset(
                outer,
                odo.offset,
                #[inline(always)]
                |o| {
                    let mut done = 0;
                    while done < inner.len {
                        let n = GATHER.min(inner.len - done);
                        // SAFETY: indices `done..done + n` of the lane are inside the view.
                        unsafe {
                            let p = self.ptr.offset(o + done as isize * inner.stride);
                            gather(p, n, inner.stride, &mut scratch);
                        }
                        f(j, &scratch);
                        done += n;
                    }
                },
            );
            odo.advance();
        }
    }

    /// Whether plan-order outputs `start..start + width` sit side by side in
    /// memory (the innermost kept dimension is contiguous and does not wrap
    /// among them): then one reduced index holds a contiguous row of their
    /// values ([`Walker::for_each_row_of`]).
    pub fn side_by_side(&self, start: usize, width: usize) -> bool {
        let Some(inner) = self.plan.kept.last() else {
            return false;
        };
        inner.dim.stride == 1 && inner.dim.len - start % inner.dim.len >= width
    }

    /// Calls `f` with the `width` values of the outputs `start..start + width`
    /// (side by side: see [`Walker::side_by_side`]) at each reduced index, in
    /// some fixed order of the indices. Reading many lanes at once this way
    /// touches each cache line and page once, where lane-by-lane gathers of
    /// a strided reduction (axis 0 of a C array) touch them once per lane.
    #[inline(always)]
    pub fn for_each_row_of(&self, start: usize, width: usize, mut f: impl FnMut(&[E])) {
        debug_assert!(self.side_by_side(start, width));
        let kept: Vec<Dim> = self.plan.kept.iter().map(|k| k.dim).collect();
        let base = Odometer::new(&kept, self.plan.base, start).offset;
        if let [d] = self.plan.reduced[..] {
            // Each row is a cache miss on its own page, which the hardware
            // prefetcher does not follow: ask for rows ahead.
            let pf = PREFETCH_ROWS;
            for i in 0..d.len {
                if i + pf < d.len {
                    prefetch(
                        self.ptr
                            .wrapping_offset(base + (i + pf) as isize * d.stride),
                    );
                }
                f(self.slice(base + i as isize * d.stride, width));
            }
            return;
        }
        for_each_offset(
            &self.plan.reduced,
            base,
            #[inline(always)]
            |o| f(self.slice(o, width)),
        );
    }

    /// Many outputs, each one short lane (`(100000, 10)` along axis 1):
    /// tiles of outputs are transposed into a scratch block whose row `l`
    /// holds value `l` of every output of the tile, and the block goes
    /// through the rows kernel, vectorised across outputs.
    #[inline(always)]
    fn short_lanes<R: Reducer<E>>(&self, r: &R, states: &mut [R::State], start: usize, len: usize) {
        let kept: Vec<Dim> = self.plan.kept.iter().map(|k| k.dim).collect();
        let mut odo = Odometer::new(&kept, self.plan.base, start);
        let mut block = vec![E::default(); len * SHORT_TILE.min(states.len())];
        // Lanes adjacent in memory (a C-contiguous block of rows) are read as
        // one slice when a tile does not wrap the innermost kept dimension.
        let adjacent = self
            .plan
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
            r.push_rows(tile, &rows[..len]);
        }
    }

    /// The length of the plan's one reduced dimension when it is a short
    /// contiguous lane (reduced across outputs by [`Walker::short_lanes`] or,
    /// for reducers with [`Reducer::SHORT`], [`Walker::short_lanes_into`]).
    pub fn short_lane(&self) -> Option<usize> {
        match self.plan.reduced[..] {
            [lane] if lane.stride == 1 && lane.len <= SHORT_LANE && lane.len > 0 => Some(lane.len),
            _ => None,
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
    pub unsafe fn short_lanes_into<R: Reducer<E>>(
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
        #[inline(always)]
        fn each<E: Element, R: Reducer<E>, const L: usize>(
            w: &Walker<'_, E>,
            r: &R,
            start: usize,
            count: usize,
            out: *mut R::Output,
        ) -> usize {
            let kept: Vec<Dim> = w.plan.kept.iter().map(|k| k.dim).collect();
            let stride = kept.last().map_or(0, |d| d.stride);
            let in_order = w.plan.out_in_order();
            let out_dims = w.plan.out_dims();
            let mut degenerate = 0;
            let mut done = 0;
            // runs along the innermost kept dimension: offsets step by its
            // stride, without the odometer's per-index bookkeeping
            while done < count {
                let j = start + done;
                let odo = Odometer::new(&kept, w.plan.base, j);
                let run = odo.run_left().min(count - done);
                if in_order && stride == L as isize {
                    // rows one after another, outputs one after another
                    let rows = w.slice(odo.offset, run * L);
                    // SAFETY: outputs `j..j + run` lie in `out` (caller).
                    let out = unsafe { std::slice::from_raw_parts_mut(out.add(j), run) };
                    // lanes in blocks, each block asking for the memory of a
                    // later one: the hardware prefetcher alone leaves the
                    // reads of main memory and the lanes' work one after the
                    // other (a cheap reducer's own choice: the extra loop
                    // slows the heavier lane kernels when the input is cached)
                    let block = if R::PREFETCH_SHORT {
                        (SHORT_BLOCK_VALUES / L).max(1)
                    } else {
                        run.max(1)
                    };
                    for (outs, rows) in out.chunks_mut(block).zip(rows.chunks(block * L)) {
                        if R::PREFETCH_SHORT {
                            prefetch_lines_ahead(rows);
                        }
                        for (slot, lane) in outs.iter_mut().zip(rows.chunks_exact(L)) {
                            let lane = lane.try_into().expect("chunks of L");
                            *slot = one::<E, R, L>(r, lane, &mut degenerate);
                        }
                    }
                } else {
                    let mut dst = Odometer::new(&out_dims, w.plan.out_base, j);
                    for k in 0..run {
                        let lane = w.slice(odo.offset + k as isize * stride, L);
                        let value = one::<E, R, L>(r, lane.try_into().expect("L"), &mut degenerate);
                        // SAFETY: the plan's output offsets lie in `out` (caller).
                        unsafe { *out.offset(dst.offset) = value };
                        dst.advance();
                    }
                }
                done += run;
            }
            degenerate
        }
        let len = self.short_lane().expect("a short lane");
        by_short_len!(len, each::<E, R>(self, r, start, count, out))
    }

    #[inline(always)]
    fn rows<R: Reducer<E>>(&self, r: &R, states: &mut [R::State], start: usize) {
        let (inner, outer) = self.plan.kept.split_last().expect("rows need a kept dim");
        let row_len = inner.dim.len;
        let outer: Vec<Dim> = outer.iter().map(|k| k.dim).collect();
        let end = start + states.len();
        let mut j = start;
        while j < end {
            let (o, c0) = (j / row_len, j % row_len);
            let n = (row_len - c0).min(end - j);
            let base = Odometer::new(&outer, self.plan.base, o).offset + c0 as isize;
            // column tiles keep the block's accumulators in cache
            for c in (0..n).step_by(COL_TILE) {
                let w = COL_TILE.min(n - c);
                let sts = &mut states[j - start + c..j - start + c + w];
                let mut block: Vec<&[E]> = Vec::with_capacity(ROW_BLOCK);
                for_each_offset(
                    &self.plan.reduced,
                    base + c as isize,
                    #[inline(always)]
                    |off| {
                        block.push(self.slice(off, w));
                        if block.len() == ROW_BLOCK {
                            r.push_rows(sts, &block);
                            block.clear();
                        }
                    },
                );
                if !block.is_empty() {
                    r.push_rows(sts, &block);
                }
            }
            j += n;
        }
    }
}
