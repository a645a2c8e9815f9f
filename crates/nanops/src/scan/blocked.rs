//! Moving sums, means and variances by blocks of the window.
//!
//! Sums, means and variances never take a value back out of a running
//! state: a removal cancels the leaving value's digits, and where it was
//! much larger than the rest (an outlier, or a value whose square
//! overflows) the small values' digits went with it, for every later
//! position. Instead the lane is cut into blocks of `window` positions
//! (the "two stacks" of a sliding-window aggregation): the window of a
//! position in block `b` is a tail of block `b - 1` and a head of block
//! `b`; the tails' aggregates are built once per block, backwards, the
//! heads' forwards, and each position merges one of each. Every window's
//! result is therefore computed from that window's values only, with the
//! rounding of one compensated sum (or Welford and Chan's merge), in
//! amortised O(1) per position. Counts and infinities are counted apart,
//! in integers. A window whose finite values overflow in `f64` is computed
//! again from values scaled by a power of two and its result scaled back,
//! so a window whose result is finite gets it.

use super::window::WindowSpec;
use crate::element::{QuantileElement, SelectFloat};
use std::mem::MaybeUninit;

/// A value in `f64`, the arithmetic type of every moving statistic.
#[inline(always)]
pub(crate) fn wide<E: QuantileElement>(x: E) -> f64 {
    x.to_value().to_f64_exact()
}

/// An aggregate of a run of finite values that merges with the aggregate
/// of the run after it, without subtraction.
pub(crate) trait Aggregate: Copy + Default {
    /// Takes one value (already scaled; NaN and infinities are not taken);
    /// `inv[k]` is `1/k` for every count `k` up to the window.
    fn push(&mut self, x: f64, inv: &[f64]);
    /// The aggregate of this run followed by `newer`.
    fn then(&self, newer: &Self, inv: &[f64]) -> Self;
}

/// Knuth's TwoSum: `(t, e)` with `t = a + b` rounded and `t + e == a + b`
/// exactly (for finite `t`), branch-free.
#[inline(always)]
pub(crate) fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let t = a + b;
    let bp = t - a;
    (t, (a - (t - bp)) + (b - bp))
}

/// A compensated sum `hi + lo`: `hi` the rounded sum, `lo` the sum of the
/// exact rounding errors of the additions into `hi`.
#[derive(Clone, Copy, Default)]
pub(crate) struct CompensatedSum {
    /// Leading part.
    pub(crate) hi: f64,
    /// The rounding errors.
    pub(crate) lo: f64,
}

impl Aggregate for CompensatedSum {
    #[inline(always)]
    fn push(&mut self, x: f64, _: &[f64]) {
        let (t, e) = two_sum(self.hi, x);
        self.hi = t;
        self.lo += e;
    }
    #[inline(always)]
    fn then(&self, newer: &Self, _: &[f64]) -> Self {
        let (t, e) = two_sum(self.hi, newer.hi);
        CompensatedSum {
            hi: t,
            lo: (self.lo + newer.lo) + e,
        }
    }
}

/// Welford's count, mean and sum of squared deviations; runs merge by
/// Chan's formula. Counts divide by multiplying with their reciprocals
/// (`inv`), so no step waits on a division.
#[derive(Clone, Copy, Default)]
pub(crate) struct Welford {
    /// Values taken.
    n: usize,
    /// Their mean.
    mean: f64,
    /// Their sum of squared deviations from the mean.
    m2: f64,
}

impl Aggregate for Welford {
    #[inline(always)]
    fn push(&mut self, x: f64, inv: &[f64]) {
        self.n += 1;
        (self.mean, self.m2) = welford_step(self.mean, self.m2, x, inv[self.n]);
    }
    #[inline(always)]
    fn then(&self, newer: &Self, inv: &[f64]) -> Self {
        if self.n == 0 {
            return *newer;
        }
        if newer.n == 0 {
            return *self;
        }
        let n = self.n + newer.n;
        let (mean, m2) = chan_merge(
            (self.n as f64, self.mean, self.m2),
            (newer.n as f64, newer.mean, newer.m2),
            inv[n],
        );
        Welford { n, mean, m2 }
    }
}

/// Welford's step: the mean and sum of squared deviations `(mean, m2)` of
/// a run after it takes `x`, `r` being `1 / (its count with x)`.
#[inline(always)]
pub(crate) fn welford_step(mean: f64, m2: f64, x: f64, r: f64) -> (f64, f64) {
    let d = x - mean;
    let mean1 = mean + d * r;
    (mean1, m2 + d * (x - mean1))
}

/// Chan's merge of the Welford states `(count, mean, m2)` of a run and of
/// the run after it (both non-empty): the merged mean and sum of squared
/// deviations; `inv_n` is `1 / (count + count)`.
#[inline(always)]
pub(crate) fn chan_merge(
    (older_n, older_mean, older_m2): (f64, f64, f64),
    (newer_n, newer_mean, newer_m2): (f64, f64, f64),
    inv_n: f64,
) -> (f64, f64) {
    let d = newer_mean - older_mean;
    let r = newer_n * inv_n;
    (
        older_mean + d * r,
        (older_m2 + newer_m2) + d * d * older_n * r,
    )
}

/// The window's non-NaN values and its infinities, counted exactly.
#[derive(Clone, Copy, Default)]
pub(crate) struct Counts {
    /// Non-NaN values.
    pub(crate) n: usize,
    /// Infinite values (either sign).
    pub(crate) inf: usize,
    /// `+inf` values.
    pub(crate) pos: usize,
}

impl Counts {
    /// Takes the value `v`.
    #[inline(always)]
    fn add(&mut self, v: f64) {
        self.n += usize::from(!v.is_nan());
        self.inf += usize::from(v.is_infinite());
        self.pos += usize::from(v == f64::INFINITY);
    }
    /// Forgets the value `v`, taken earlier.
    #[inline(always)]
    fn remove(&mut self, v: f64) {
        self.n -= usize::from(!v.is_nan());
        self.inf -= usize::from(v.is_infinite());
        self.pos -= usize::from(v == f64::INFINITY);
    }
}

/// What a blocked moving statistic computes from a window's aggregate.
pub(crate) trait BlockStatistic: Sync {
    /// The aggregate of the window's finite values.
    type Agg: Aggregate;
    /// The scale a window is computed again at when its finite values
    /// overflow in `f64`: a power of two (scaling back is exact), small
    /// enough that no aggregate of up to 2⁶³ scaled values overflows, large
    /// enough that the values it makes subnormal are too small to change
    /// a result that large.
    const OVERFLOW_SCALE: f64;
    /// Takes value `v` (any `f64`; NaN and infinities are counted apart)
    /// scaled by `scale` into `agg`.
    fn take(agg: &mut Self::Agg, v: f64, scale: f64, inv: &[f64]);
    /// The result of a window with `counts` and the aggregate `agg` of its
    /// finite values scaled by `scale` (1 or [`Self::OVERFLOW_SCALE`]);
    /// non-finite where they overflowed.
    fn value(&self, counts: &Counts, agg: &Self::Agg, scale: f64) -> f64;
    /// Whether `y`, the result of a window with `counts` at scale 1,
    /// overflowed (a finite window's result is not finite).
    fn overflowed(&self, counts: &Counts, y: f64) -> bool;
}

/// The sum (`mean: false`) or the mean of the window's non-NaN values.
pub(crate) struct SumOrMean {
    /// Whether to divide by the count.
    pub mean: bool,
}

impl BlockStatistic for SumOrMean {
    type Agg = CompensatedSum;
    /// 2⁻⁶⁴: a sum of 2⁶³ values below 2¹⁰²⁴⁻⁶⁴ stays below 2¹⁰²³.
    const OVERFLOW_SCALE: f64 = f64::from_bits((1023 - 64) << 52);
    #[inline(always)]
    fn take(agg: &mut CompensatedSum, v: f64, scale: f64, inv: &[f64]) {
        // branch-free: a value not taken adds an exact zero
        agg.push(if v.is_finite() { v * scale } else { 0.0 }, inv);
    }
    #[inline(always)]
    fn value(&self, c: &Counts, agg: &CompensatedSum, scale: f64) -> f64 {
        if c.inf == 0 {
            let s = agg.hi + agg.lo;
            // the mean divided before it is scaled back: a mean of values
            // whose sum overflows is in range
            (if self.mean { s / c.n as f64 } else { s }) / scale
        } else if c.pos == c.inf {
            f64::INFINITY
        } else if c.pos == 0 {
            f64::NEG_INFINITY
        } else {
            f64::NAN
        }
    }
    #[inline(always)]
    fn overflowed(&self, c: &Counts, y: f64) -> bool {
        !y.is_finite() & (c.inf == 0)
    }
}

/// The variance (or standard deviation) with `ddof` of the window's
/// non-NaN values (NaN where `count <= ddof` or an infinity is in the window).
pub(crate) struct VarOrStd {
    /// Delta degrees of freedom.
    pub ddof: f64,
    /// Whether to give the standard deviation.
    pub std: bool,
}

impl BlockStatistic for VarOrStd {
    type Agg = Welford;
    /// 2⁻⁶⁰⁰: squared deviations of scaled values stay below 2⁸⁵⁰, their
    /// sum over 2⁶³ values below 2⁹¹⁵.
    const OVERFLOW_SCALE: f64 = f64::from_bits((1023 - 600) << 52);
    #[inline(always)]
    fn take(agg: &mut Welford, v: f64, scale: f64, inv: &[f64]) {
        if v.is_finite() {
            agg.push(v * scale, inv);
        }
    }
    #[inline(always)]
    fn value(&self, c: &Counts, agg: &Welford, scale: f64) -> f64 {
        self.of_m2(c.n as f64, c.inf > 0, agg.m2, scale)
    }
    #[inline(always)]
    fn overflowed(&self, c: &Counts, y: f64) -> bool {
        self.m2_overflowed(c.n as f64, c.inf > 0, y)
    }
}

impl VarOrStd {
    /// [`BlockStatistic::value`] from the window's non-NaN count `n`
    /// (an integer in `f64`), whether it holds an infinity, and the sum of
    /// squared deviations `m2` of its finite values scaled by `scale`.
    #[inline(always)]
    pub(crate) fn of_m2(&self, n: f64, infinite: bool, m2: f64, scale: f64) -> f64 {
        let dof = n - self.ddof;
        let var = m2 / dof;
        let y = if self.std {
            var.sqrt() / scale
        } else {
            var / scale / scale
        };
        // a choice, not a branch: callers' loops over positions vectorise
        if infinite | (dof <= 0.0) {
            f64::NAN
        } else {
            y
        }
    }
    /// [`BlockStatistic::overflowed`] from the counts as [`Self::of_m2`]
    /// takes them.
    #[inline(always)]
    pub(crate) fn m2_overflowed(&self, n: f64, infinite: bool, y: f64) -> bool {
        !y.is_finite() & !infinite & (n - self.ddof > 0.0)
    }
}

/// The aggregates of the tails of the block before `b` (see
/// [`blocked_part`]): `tails[k]` takes `xs[b - w + k..b]`, for `k` in `1..w`.
#[inline(always)]
fn fill_tails<E: QuantileElement, S: BlockStatistic>(
    tails: &mut [S::Agg],
    xs: &[E],
    b: usize,
    scale: f64,
    inv: &[f64],
) {
    let w = tails.len();
    let mut acc = S::Agg::default();
    for k in (1..w).rev() {
        S::take(&mut acc, wide(xs[b - w + k]), scale, inv);
        tails[k] = acc;
    }
}

/// A window's result at scale 1 (NaN with fewer than `min` values), and
/// whether its finite values overflowed.
#[inline(always)]
pub(crate) fn result<S: BlockStatistic>(
    stat: &S,
    counts: &Counts,
    agg: &S::Agg,
    min: usize,
) -> (f64, bool) {
    let y = stat.value(counts, agg, 1.0);
    let counted = counts.n >= min;
    let y_or_nan = if counted { y } else { f64::NAN };
    (y_or_nan, counted & stat.overflowed(counts, y))
}

/// Positions `from..from + out.len()` of lane `xs` (`from` a multiple of
/// the window) by blocks of `window` positions (see the module's notes);
/// a position with fewer than `min_count` non-NaN values is NaN.
///
/// A position whose finite values overflow is computed again from the
/// same parts of its window at [`BlockStatistic::OVERFLOW_SCALE`]
/// ([`rescaled_block`]): whether it is, and its bits, depend on its
/// window's values and its place in the block only.
///
/// Inlined into its callers, which run inside the SIMD dispatch.
#[inline(always)]
pub(crate) fn blocked_part<E: QuantileElement, S: BlockStatistic>(
    stat: &S,
    spec: &WindowSpec,
    xs: &[E],
    from: usize,
    out: &mut [MaybeUninit<E::Value>],
) {
    let (w, min) = (spec.window, spec.min_count());
    debug_assert!(from.is_multiple_of(w));
    let end = from + out.len();
    let inv: Vec<f64> = (0..=w).map(|k| 1.0 / k as f64).collect();
    let mut tails = vec![S::Agg::default(); w];
    let mut counts = Counts::default();
    for &x in &xs[from.saturating_sub(w)..from] {
        counts.add(wide(x));
    }
    let mut b = from;
    while b < end {
        let block_end = (b + w).min(end);
        let start_counts = counts;
        // the positions whose window begins in the block before: all but
        // the block's last (whose window is the block) and, in the lane's
        // first block, none
        let tailed_end = if b >= w {
            fill_tails::<E, S>(&mut tails, xs, b, 1.0, &inv);
            (b + w - 1).min(block_end)
        } else {
            b
        };
        let mut head = S::Agg::default();
        let mut overflow = false;
        for i in b..tailed_end {
            let v = wide(xs[i]);
            S::take(&mut head, v, 1.0, &inv);
            counts.add(v);
            counts.remove(wide(xs[i - w]));
            let agg = tails[i + 1 - b].then(&head, &inv);
            let (y, over) = result(stat, &counts, &agg, min);
            overflow |= over;
            out[i - from].write(<E::Value as SelectFloat>::from_f64_nearest(y));
        }
        for i in tailed_end..block_end {
            let v = wide(xs[i]);
            S::take(&mut head, v, 1.0, &inv);
            counts.add(v);
            if i >= w {
                counts.remove(wide(xs[i - w]));
            }
            let (y, over) = result(stat, &counts, &head, min);
            overflow |= over;
            out[i - from].write(<E::Value as SelectFloat>::from_f64_nearest(y));
        }
        if overflow {
            rescaled_block(
                stat,
                w,
                min,
                xs,
                b,
                block_end,
                from,
                start_counts,
                &tails,
                &inv,
                out,
            );
        }
        b = block_end;
    }
}

/// The positions `b..block_end` of [`blocked_part`] whose finite values
/// overflowed, computed again from their windows' values scaled by
/// [`BlockStatistic::OVERFLOW_SCALE`] (the same parts of each window:
/// the previous block's tail, then the block's head); `counts` are the
/// counts before position `b`, `tails` the block's unscaled tails.
#[allow(clippy::too_many_arguments)]
#[cold]
#[inline(never)]
pub(crate) fn rescaled_block<E: QuantileElement, S: BlockStatistic>(
    stat: &S,
    w: usize,
    min: usize,
    xs: &[E],
    b: usize,
    block_end: usize,
    from: usize,
    mut counts: Counts,
    tails: &[S::Agg],
    inv: &[f64],
    out: &mut [MaybeUninit<E::Value>],
) {
    let mut scaled_tails = vec![S::Agg::default(); w];
    if b >= w {
        fill_tails::<E, S>(&mut scaled_tails, xs, b, S::OVERFLOW_SCALE, inv);
    }
    let (mut head, mut scaled_head) = (S::Agg::default(), S::Agg::default());
    for i in b..block_end {
        let v = wide(xs[i]);
        S::take(&mut head, v, 1.0, inv);
        S::take(&mut scaled_head, v, S::OVERFLOW_SCALE, inv);
        counts.add(v);
        if i >= w {
            counts.remove(wide(xs[i - w]));
        }
        let k = i + 1 - b;
        let tailed = b >= w && k < w;
        let agg = if tailed {
            tails[k].then(&head, inv)
        } else {
            head
        };
        let y = stat.value(&counts, &agg, 1.0);
        if counts.n >= min && stat.overflowed(&counts, y) {
            let agg = if tailed {
                scaled_tails[k].then(&scaled_head, inv)
            } else {
                scaled_head
            };
            // at this scale only a result beyond `f64` overflows
            let y = stat.value(&counts, &agg, S::OVERFLOW_SCALE);
            let y = if y.is_nan() { f64::INFINITY } else { y };
            out[i - from].write(<E::Value as SelectFloat>::from_f64_nearest(y));
        }
    }
}

/// Bytes of tail aggregates a tile of [`blocked_rows`] keeps (the tiles'
/// width follows from the window). More than L2 holds at long windows: a
/// wider tile reads longer runs of each input row, which the memory
/// prefetchers follow better than they keep narrow tiles' tails in cache
/// (measured at issue Q, 1 MiB to 4 MiB: the "Moving windows under
/// extremes" section in BENCHMARKS.md's history).
const ROWS_TAIL_BYTES: usize = 4 << 20;
/// Most lanes [`blocked_rows`] computes side by side.
const ROWS_MAX_WIDTH: usize = 256;
/// Fewest lanes worth computing side by side; a window needing narrower
/// tiles takes the driver's transposed lanes instead.
const ROWS_MIN_WIDTH: usize = 16;

/// How many lanes [`blocked_rows`] computes side by side for `S` and this
/// window: as many as keep the tiles' tails within [`ROWS_TAIL_BYTES`]
/// (`None` where fewer than [`ROWS_MIN_WIDTH`]).
pub(crate) fn rows_width<S: BlockStatistic>(window: usize) -> Option<usize> {
    let per_lane = window.max(1) * std::mem::size_of::<S::Agg>();
    let width = (ROWS_TAIL_BYTES / per_lane).min(ROWS_MAX_WIDTH);
    (width >= ROWS_MIN_WIDTH).then_some(width)
}

/// [`blocked_part`] for `width` lanes side by side (the rows strategy:
/// axis 0 of a C array; at most [`rows_width`] lanes): position `i` of
/// lane `c` read at `src + i·stride_in + c`, written at
/// `dst + i·stride_out + c`. The same operations on each lane in the same
/// order as [`blocked_part`], so the same bits; a block of a lane whose
/// finite values overflowed is computed again by [`blocked_part`] on a copy
/// of that lane's two blocks.
///
/// # Safety
/// Rows `0..len` of `width` lanes lie in the view and in the output, and no
/// other thread writes those outputs.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) unsafe fn blocked_rows<E: QuantileElement, S: BlockStatistic>(
    stat: &S,
    spec: &WindowSpec,
    src: *const E,
    stride_in: isize,
    dst: *mut E::Value,
    stride_out: isize,
    len: usize,
    width: usize,
) {
    let (w, min) = (spec.window, spec.min_count());
    // SAFETY (both closures): rows `0..len` of `width` lanes lie in the view
    // and in the output (this function's contract).
    let row =
        |i: usize| unsafe { std::slice::from_raw_parts(src.offset(i as isize * stride_in), width) };
    let out_row = |i: usize| unsafe {
        std::slice::from_raw_parts_mut(
            dst.offset(i as isize * stride_out)
                .cast::<MaybeUninit<E::Value>>(),
            width,
        )
    };
    let inv: Vec<f64> = (0..=w).map(|k| 1.0 / k as f64).collect();
    // tails[k * width + c]: lane c's tail from the previous block's k-th value
    let mut tails = vec![S::Agg::default(); w * width];
    let mut acc = vec![S::Agg::default(); width];
    let mut head = vec![S::Agg::default(); width];
    let mut counts = vec![Counts::default(); width];
    let mut overflow = vec![false; width];
    let mut b = 0;
    while b < len {
        let block_end = (b + w).min(len);
        let tailed_end = if b >= w {
            acc.fill(S::Agg::default());
            for k in (1..w).rev() {
                let xs = row(b - w + k);
                let t = &mut tails[k * width..(k + 1) * width];
                for c in 0..width {
                    S::take(&mut acc[c], wide(xs[c]), 1.0, &inv);
                    t[c] = acc[c];
                }
            }
            (b + w - 1).min(block_end)
        } else {
            b
        };
        head.fill(S::Agg::default());
        overflow.fill(false);
        for i in b..block_end {
            let (xs, ys) = (row(i), out_row(i));
            let leaving = (i >= w).then(|| row(i - w));
            let k = i + 1 - b;
            for c in 0..width {
                let v = wide(xs[c]);
                S::take(&mut head[c], v, 1.0, &inv);
                counts[c].add(v);
                if let Some(old) = leaving {
                    counts[c].remove(wide(old[c]));
                }
                let agg = if i < tailed_end {
                    tails[k * width + c].then(&head[c], &inv)
                } else {
                    head[c]
                };
                let (y, over) = result(stat, &counts[c], &agg, min);
                overflow[c] |= over;
                ys[c].write(<E::Value as SelectFloat>::from_f64_nearest(y));
            }
        }
        // SAFETY: rows `0..block_end` of the tile lie in the view and in the
        // output (this function's contract).
        unsafe {
            redo_overflowed(
                stat,
                spec,
                &overflow,
                b..block_end,
                src,
                stride_in,
                dst,
                stride_out,
            );
        }
        b = block_end;
    }
}

/// The block `rows` of each lane `c` of a tile of [`blocked_rows`] (or its
/// sums' form) with `overflowed[c]`, computed again by [`blocked_part`] on a
/// copy of the lane from the block before on: it redoes the windows whose
/// finite values overflowed from scaled values.
///
/// # Safety
/// Rows `rows.start − window .. rows.end` (from 0) of the `overflowed.len()`
/// lanes lie in the view and in the output, and no other thread writes
/// those outputs.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
pub(crate) unsafe fn redo_overflowed<E: QuantileElement, S: BlockStatistic>(
    stat: &S,
    spec: &WindowSpec,
    overflowed: &[bool],
    rows: std::ops::Range<usize>,
    src: *const E,
    stride_in: isize,
    dst: *mut E::Value,
    stride_out: isize,
) {
    let first = rows.start.saturating_sub(spec.window);
    for c in (0..overflowed.len()).filter(|&c| overflowed[c]) {
        // SAFETY: these positions lie in the view (this function's contract).
        let lane: Vec<E> = (first..rows.end)
            .map(|i| unsafe { *src.offset(i as isize * stride_in + c as isize) })
            .collect();
        let mut ys = vec![MaybeUninit::uninit(); rows.len()];
        blocked_part(stat, spec, &lane, rows.start - first, &mut ys);
        for (i, y) in rows.clone().zip(ys) {
            // SAFETY: `blocked_part` wrote every position of the block, and
            // the output position is this tile's (the contract).
            unsafe {
                dst.offset(i as isize * stride_out + c as isize)
                    .write(y.assume_init());
            }
        }
    }
}
