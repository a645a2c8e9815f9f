//! The blocked moving sum and mean ([`SumOrMean`]) with their per-position
//! work in loops that vectorise.
//!
//! The same blocks, tails, heads, compensated sums and integer counts as
//! [`blocked_part`] and [`blocked_rows`], and the same operations on each
//! window in the same order, so the same bits; only the loops differ. The
//! generic walk merges a tail and a head and finishes the window in the
//! step that extends the head, a chain of dependent additions that leaves
//! the merge and finish (most of the work) scalar. Here:
//! - one lane ([`part`]): each block's head aggregates and counts are built
//!   first, in one pass beside the next block's tails (two independent
//!   chains), and then every position of the block merges and finishes in
//!   a loop whose iterations are independent;
//! - lanes side by side ([`rows`]): every field of the lanes' states is an
//!   array of its own (compensated sum high and low parts, counts as exact
//!   `f64` integers), so the loop across lanes reads and writes plain
//!   arrays.

use super::blocked::{
    redo_overflowed, rescaled_block, two_sum, wide, CompensatedSum, Counts, SumOrMean,
};
use crate::element::{QuantileElement, SelectFloat};
use crate::scan::window::WindowSpec;
use std::mem::MaybeUninit;

/// A value as the sum takes it: finite values as they are, NaN and
/// infinities (counted apart) as an exact zero.
///
/// As a mask of the bits rather than a choice: in the scalar chains of the
/// heads and tails a choice became a branch, mispredicted at every NaN.
#[inline(always)]
pub(super) fn taken(v: f64) -> f64 {
    let bits = v.to_bits();
    let finite = (bits & !(1u64 << 63)) < f64::INFINITY.to_bits();
    f64::from_bits(bits & u64::from(finite).wrapping_neg())
}

/// The result of a window at scale 1 from its merged compensated sum
/// `(hi, lo)` and its counts (`n` non-NaN values, `inf` infinities, `pos` of
/// them `+inf`, exact integers in `f64`), NaN below `min` values; and
/// whether its finite values overflowed. [`result`](super::blocked::result) of [`SumOrMean`] with
/// the counts as floats, branch-free.
#[inline(always)]
pub(super) fn finish(
    mean: bool,
    hi: f64,
    lo: f64,
    n: f64,
    inf: f64,
    pos: f64,
    min: f64,
) -> (f64, bool) {
    let s = hi + lo;
    let finite = if mean { s / n } else { s };
    let infinite = if pos == inf {
        f64::INFINITY
    } else if pos == 0.0 {
        f64::NEG_INFINITY
    } else {
        f64::NAN
    };
    let y = if inf == 0.0 { finite } else { infinite };
    let counted = n >= min;
    let overflowed = counted & !y.is_finite() & (inf == 0.0);
    (if counted { y } else { f64::NAN }, overflowed)
}

/// A block's running counts: `n[k]`, `inf[k]`, `pos[k]` count the non-NaN,
/// infinite and `+inf` values among its first `k` (exact integers in
/// `f64`), so a window's counts are differences of two of them.
struct Cumulative {
    /// Non-NaN values.
    n: Vec<f64>,
    /// Infinities (either sign).
    inf: Vec<f64>,
    /// `+inf` values.
    pos: Vec<f64>,
}

impl Cumulative {
    /// Counts for blocks of `w` values, all zero.
    fn new(w: usize) -> Self {
        Cumulative {
            n: vec![0.0; w + 1],
            inf: vec![0.0; w + 1],
            pos: vec![0.0; w + 1],
        }
    }

    /// The counts of the first `k` values as [`Counts`].
    fn counts(&self, k: usize) -> Counts {
        Counts {
            n: self.n[k] as usize,
            inf: self.inf[k] as usize,
            pos: self.pos[k] as usize,
        }
    }

    /// Counts `xs` (at most `w` values); the infinities only where `xs`
    /// holds one (else zero), which is the common case and a cheaper loop.
    #[inline(always)]
    fn fill<E: QuantileElement>(&mut self, xs: &[E]) -> bool {
        let any_inf = xs.iter().any(|&x| wide(x).is_infinite());
        let mut n = 0usize;
        for (k, &x) in xs.iter().enumerate() {
            n += usize::from(!wide(x).is_nan());
            self.n[k + 1] = n as f64;
        }
        if any_inf {
            let (mut inf, mut pos) = (0usize, 0usize);
            for (k, &x) in xs.iter().enumerate() {
                let v = wide(x);
                inf += usize::from(v.is_infinite());
                pos += usize::from(v == f64::INFINITY);
                self.inf[k + 1] = inf as f64;
                self.pos[k + 1] = pos as f64;
            }
        } else {
            self.inf[..=xs.len()].fill(0.0);
            self.pos[..=xs.len()].fill(0.0);
        }
        any_inf
    }
}

/// Reusable per-block arrays of [`part`]: the tails, the heads and the
/// counts of a block and the block before it.
struct Block {
    /// `tail_hi[k] + tail_lo[k]`: the sum of the previous block's values from
    /// its `k`-th on.
    tail_hi: Vec<f64>,
    /// See `tail_hi`.
    tail_lo: Vec<f64>,
    /// The tails being built for the next block.
    next_hi: Vec<f64>,
    /// See `next_hi`.
    next_lo: Vec<f64>,
    /// The sum of the block's values up to position `k`.
    head_hi: Vec<f64>,
    /// See `head_hi`.
    head_lo: Vec<f64>,
    /// The previous block's counts.
    before: Cumulative,
    /// This block's counts.
    this: Cumulative,
}

impl Block {
    /// Arrays for blocks of `w` positions.
    fn new(w: usize) -> Self {
        let v = || vec![0.0; w];
        Block {
            tail_hi: v(),
            tail_lo: v(),
            next_hi: v(),
            next_lo: v(),
            head_hi: v(),
            head_lo: v(),
            before: Cumulative::new(w),
            this: Cumulative::new(w),
        }
    }
}

/// Whether the sums of `E` keep a compensation. Values of 8 bytes (`f64`,
/// 64-bit integers) do: a window's `f64` sum of them rounds. Narrower ones
/// (`f32`, `f16`, smaller integers) have 29 or more bits to spare in `f64`,
/// so a window's plain sum (at most a window of roundings far below the
/// result's precision) needs no compensation, and its chains are one
/// addition a step rather than six.
#[inline(always)]
pub(super) fn compensated<E>() -> bool {
    std::mem::size_of::<E>() >= 8
}

/// `a + b` as a pair `(sum, error)`: [`two_sum`] where `compensated`,
/// otherwise the plain sum and no error (`compensated` is a constant of
/// the element type: the branch folds away).
#[inline(always)]
pub(super) fn add(compensated: bool, a: f64, b: f64) -> (f64, f64) {
    if compensated {
        two_sum(a, b)
    } else {
        (a + b, 0.0)
    }
}

/// One step of a compensated sum's chain: `(hi, lo)` takes `v` (as
/// [`taken`]) and the new pair is stored at `hi_out`, `lo_out` (`lo` only
/// where `c`: without compensation it stays the `+0` it was made with).
#[inline(always)]
pub(super) fn step(c: bool, acc: &mut CompensatedSum, v: f64, hi_out: &mut f64, lo_out: &mut f64) {
    step_taken(c, acc, taken(v), hi_out, lo_out);
}

/// [`step`] of a value already [`taken`] (zero for NaN and infinities),
/// for callers that take a whole run of values in a loop of its own.
#[inline(always)]
pub(super) fn step_taken(
    c: bool,
    acc: &mut CompensatedSum,
    v: f64,
    hi_out: &mut f64,
    lo_out: &mut f64,
) {
    let (t, e) = add(c, acc.hi, v);
    acc.hi = t;
    acc.lo += e;
    *hi_out = acc.hi;
    if c {
        *lo_out = acc.lo;
    }
}

/// The results of the block's first `tails.0.len()` positions (those whose
/// window begins in the block before) or of positions given `heads` only
/// (`tails` empty: a window inside the block), and whether any overflowed.
/// `first` is the index in the block of the first position. Every
/// iteration is independent: the loop vectorises.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn finish_positions<V: SelectFloat>(
    c: bool,
    mean: bool,
    min: f64,
    first: usize,
    (tail_hi, tail_lo): (&[f64], &[f64]),
    (head_hi, head_lo): (&[f64], &[f64]),
    counts: (&Cumulative, &Cumulative),
    infinities: bool,
    out: &mut [MaybeUninit<V>],
) -> bool {
    let m = out.len();
    let tailed = !tail_hi.is_empty();
    let (before, this) = counts;
    let w = before.n.len() - 1;
    // every slice exactly `m` long: no bounds checks in the loop
    let (hh, hl) = (&head_hi[first..first + m], &head_lo[first..first + m]);
    let (th, tl) = if tailed {
        (&tail_hi[..m], &tail_lo[..m])
    } else {
        (&head_hi[first..first + m], &head_lo[first..first + m])
    };
    // the window of position `first + j` holds the block before's values
    // from its `first + j + 1`-th on and this block's first `first + j + 1`
    let (bn, tn) = (
        &before.n[first + 1..first + 1 + m],
        &this.n[first + 1..first + 1 + m],
    );
    let (bi, ti) = (
        &before.inf[first + 1..first + 1 + m],
        &this.inf[first + 1..first + 1 + m],
    );
    let (bp, tp) = (
        &before.pos[first + 1..first + 1 + m],
        &this.pos[first + 1..first + 1 + m],
    );
    let (total_n, total_inf, total_pos) = if tailed {
        (before.n[w], before.inf[w], before.pos[w])
    } else {
        (0.0, 0.0, 0.0)
    };
    let mut overflow = 0u8;
    for j in 0..m {
        let (hi, lo) = if tailed {
            let (t, e) = add(c, th[j], hh[j]);
            (t, (tl[j] + hl[j]) + e)
        } else {
            (hh[j], hl[j])
        };
        let prev_n = if tailed { total_n - bn[j] } else { 0.0 };
        let n = prev_n + tn[j];
        let (inf, pos) = if infinities {
            let prev_inf = if tailed { total_inf - bi[j] } else { 0.0 };
            let prev_pos = if tailed { total_pos - bp[j] } else { 0.0 };
            (prev_inf + ti[j], prev_pos + tp[j])
        } else {
            (0.0, 0.0)
        };
        let (y, over) = finish(mean, hi, lo, n, inf, pos, min);
        overflow |= u8::from(over);
        out[j].write(V::from_f64_nearest(y));
    }
    overflow != 0
}

/// [`blocked_part`] of [`SumOrMean`] (the same bits): positions `from..from
/// + out.len()` of lane `xs`, `from` a multiple of the window.
#[inline(always)]
pub(crate) fn part<E: QuantileElement>(
    stat: &SumOrMean,
    spec: &WindowSpec,
    xs: &[E],
    from: usize,
    out: &mut [MaybeUninit<E::Value>],
) {
    let (w, min) = (spec.window, spec.min_count());
    debug_assert!(from.is_multiple_of(w));
    let (mean, min_f) = (stat.mean, min as f64);
    let end = from + out.len();
    let c = compensated::<E>();
    let mut blk = Block::new(w);
    let mut before_inf = false;
    // the tails and counts of the block before the first: from the values
    // before `from` (a part of a cut lane), as `fill_tails` builds them
    if from >= w {
        let mut acc = CompensatedSum::default();
        for k in (1..w).rev() {
            let v = wide(xs[from - w + k]);
            step(c, &mut acc, v, &mut blk.tail_hi[k], &mut blk.tail_lo[k]);
        }
        before_inf = blk.before.fill(&xs[from - w..from]);
    }
    let mut b = from;
    while b < end {
        let block_end = (b + w).min(end);
        let bw = block_end - b;
        let tailed = b >= w;
        let this_inf = blk.this.fill(&xs[b..block_end]);
        // the heads of this block and, beside them, the tails of the next
        // block (this block's values from the `k`-th on, built backwards):
        // two independent chains in one loop
        let mut head = CompensatedSum::default();
        let block = &xs[b..block_end];
        if block_end < end {
            let mut next = CompensatedSum::default();
            for k in 0..w - 1 {
                step(
                    c,
                    &mut head,
                    wide(block[k]),
                    &mut blk.head_hi[k],
                    &mut blk.head_lo[k],
                );
                let j = w - 1 - k;
                step(
                    c,
                    &mut next,
                    wide(block[j]),
                    &mut blk.next_hi[j],
                    &mut blk.next_lo[j],
                );
            }
            let k = w - 1;
            step(
                c,
                &mut head,
                wide(block[k]),
                &mut blk.head_hi[k],
                &mut blk.head_lo[k],
            );
        } else {
            for (k, &x) in block.iter().enumerate() {
                step(
                    c,
                    &mut head,
                    wide(x),
                    &mut blk.head_hi[k],
                    &mut blk.head_lo[k],
                );
            }
        }
        // every position of the block: its tail then its head, finished
        let infinities = before_inf | this_inf;
        let counts = (&blk.before, &blk.this);
        let out_block = &mut out[b - from..block_end - from];
        let tailed_len = if tailed { bw.min(w - 1) } else { 0 };
        let (heads, no_tails) = ((&blk.head_hi[..], &blk.head_lo[..]), (&[][..], &[][..]));
        let tails = (&blk.tail_hi[1..=tailed_len], &blk.tail_lo[1..=tailed_len]);
        let (tailed_out, rest) = out_block.split_at_mut(tailed_len);
        let mut overflow = finish_positions(
            c, mean, min_f, 0, tails, heads, counts, infinities, tailed_out,
        );
        overflow |= finish_positions(
            c, mean, min_f, tailed_len, no_tails, heads, counts, infinities, rest,
        );
        if overflow {
            let tails: Vec<CompensatedSum> = (0..w)
                .map(|k| CompensatedSum {
                    hi: blk.tail_hi[k],
                    lo: blk.tail_lo[k],
                })
                .collect();
            let inv: Vec<f64> = (0..=w).map(|k| 1.0 / k as f64).collect();
            let start_counts = if tailed {
                blk.before.counts(w)
            } else {
                Counts::default()
            };
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
        std::mem::swap(&mut blk.tail_hi, &mut blk.next_hi);
        std::mem::swap(&mut blk.tail_lo, &mut blk.next_lo);
        std::mem::swap(&mut blk.before, &mut blk.this);
        before_inf = this_inf;
        b = block_end;
    }
}

/// One row of the tails of `xs.len()` lanes side by side: each lane's
/// sum `before` (high and low parts) takes its value of `xs` into `hi`, `lo`.
///
/// Its own function, and rows apart, so that its slices are known apart:
/// inlined, the loop vectorises without a test of their overlap at run time
/// (which, hoisted out of the caller's loop over rows, failed and sent every
/// row to the scalar loop).
#[inline(always)]
fn tails_row<E: QuantileElement>(
    comp: bool,
    xs: &[E],
    before: (&[f64], &[f64]),
    hi: &mut [f64],
    lo: &mut [f64],
) {
    let width = xs.len();
    // every slice exactly `width` long: no bounds checks
    let (before_hi, before_lo) = (&before.0[..width], &before.1[..width]);
    let (hi, lo) = (&mut hi[..width], &mut lo[..width]);
    for c in 0..width {
        let (t, e) = add(comp, before_hi[c], taken(wide(xs[c])));
        hi[c] = t;
        lo[c] = before_lo[c] + e;
    }
}

/// [`blocked_rows`] of [`SumOrMean`] (the same bits): `width` lanes side by
/// side, position `i` of lane `c` read at `src + i·stride_in + c` and
/// written at `dst + i·stride_out + c`.
///
/// # Safety
/// Rows `0..len` of `width` lanes lie in the view and in the output, and no
/// other thread writes those outputs.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) unsafe fn rows<E: QuantileElement>(
    stat: &SumOrMean,
    spec: &WindowSpec,
    src: *const E,
    stride_in: isize,
    dst: *mut E::Value,
    stride_out: isize,
    len: usize,
    width: usize,
) {
    let (w, min) = (spec.window, spec.min_count());
    let (mean, min_f) = (stat.mean, min as f64);
    let comp = compensated::<E>();
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
    // tail_hi[k * width + c]: lane c's tail from the previous block's k-th
    // value; row w stays empty (the start of every tail's chain)
    let mut tail_hi = vec![0.0; (w + 1) * width];
    let mut tail_lo = vec![0.0; (w + 1) * width];
    let (mut head_hi, mut head_lo) = (vec![0.0; width], vec![0.0; width]);
    let (mut n, mut inf, mut pos) = (vec![0.0; width], vec![0.0; width], vec![0.0; width]);
    let mut overflow = vec![false; width];
    let mut b = 0;
    while b < len {
        let block_end = (b + w).min(len);
        let tailed_end = if b >= w {
            for k in (1..w).rev() {
                // row k takes row k + 1's sums (row w: empty) and value k
                let (cur_hi, next_hi) = tail_hi[k * width..].split_at_mut(width);
                let (cur_lo, next_lo) = tail_lo[k * width..].split_at_mut(width);
                tails_row(
                    comp,
                    row(b - w + k),
                    (&next_hi[..width], &next_lo[..width]),
                    cur_hi,
                    cur_lo,
                );
            }
            (b + w - 1).min(block_end)
        } else {
            b
        };
        head_hi.fill(0.0);
        head_lo.fill(0.0);
        overflow.fill(false);
        for i in b..block_end {
            let (xs, ys) = (row(i), out_row(i));
            // counts: the leaving row's values out, the new row's in
            if i >= w {
                let old = row(i - w);
                for c in 0..width {
                    let v = wide(old[c]);
                    n[c] -= f64::from(u8::from(!v.is_nan()));
                    inf[c] -= f64::from(u8::from(v.is_infinite()));
                    pos[c] -= f64::from(u8::from(v == f64::INFINITY));
                }
            }
            let k = i + 1 - b;
            let tailed = i < tailed_end;
            let (th, tl) = if tailed {
                (
                    &tail_hi[k * width..(k + 1) * width],
                    &tail_lo[k * width..(k + 1) * width],
                )
            } else {
                (&tail_hi[..width], &tail_lo[..width])
            };
            for c in 0..width {
                let v = wide(xs[c]);
                n[c] += f64::from(u8::from(!v.is_nan()));
                inf[c] += f64::from(u8::from(v.is_infinite()));
                pos[c] += f64::from(u8::from(v == f64::INFINITY));
                let (t, e) = add(comp, head_hi[c], taken(v));
                head_hi[c] = t;
                head_lo[c] += e;
                let (hi, lo) = if tailed {
                    let (t, e) = add(comp, th[c], head_hi[c]);
                    (t, (tl[c] + head_lo[c]) + e)
                } else {
                    (head_hi[c], head_lo[c])
                };
                let (y, over) = finish(mean, hi, lo, n[c], inf[c], pos[c], min_f);
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

#[cfg(test)]
mod tests {
    use super::{part, rows, SumOrMean};
    use crate::scan::blocked::{blocked_part, blocked_rows};
    use crate::scan::test_lanes::{bits, mixed_lane, spec};
    use std::mem::MaybeUninit;

    #[test]
    fn one_lane_gives_the_generic_walks_bits() {
        for (w, min) in [(1, 1), (2, 1), (3, 2), (5, 5), (7, 1), (16, 3), (40, 1)] {
            for mean in [false, true] {
                let stat = SumOrMean { mean };
                let sp = spec(w, min);
                for seed in 0..6 {
                    let xs = mixed_lane(5 * w + 3 + seed as usize, seed);
                    for from in [0, w, 2 * w] {
                        let n = xs.len() - from;
                        let mut want = vec![MaybeUninit::uninit(); n];
                        let mut got = vec![MaybeUninit::uninit(); n];
                        blocked_part(&stat, &sp, &xs, from, &mut want);
                        part(&stat, &sp, &xs, from, &mut got);
                        assert_eq!(
                            bits(&got),
                            bits(&want),
                            "w {w} min {min} mean {mean} from {from}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn lanes_side_by_side_give_the_generic_walks_bits() {
        for (w, min) in [(1, 1), (3, 2), (4, 4), (9, 1)] {
            for mean in [false, true] {
                let stat = SumOrMean { mean };
                let sp = spec(w, min);
                let (len, width) = (4 * w + 5, 19);
                let xs = mixed_lane(len * width, w as u64);
                let mut want = vec![0.0f64; len * width];
                let mut got = vec![0.0f64; len * width];
                let (src, stride) = (xs.as_ptr(), width as isize);
                // SAFETY: `len` rows of `width` values in each buffer.
                unsafe {
                    blocked_rows(
                        &stat,
                        &sp,
                        src,
                        stride,
                        want.as_mut_ptr(),
                        stride,
                        len,
                        width,
                    );
                    rows(
                        &stat,
                        &sp,
                        src,
                        stride,
                        got.as_mut_ptr(),
                        stride,
                        len,
                        width,
                    );
                }
                let b = |v: &[f64]| v.iter().map(|y| y.to_bits()).collect::<Vec<_>>();
                assert_eq!(b(&got), b(&want), "w {w} min {min} mean {mean}");
            }
        }
    }
}
