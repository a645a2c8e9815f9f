//! One lane of the blocked moving sum and mean ([`SumOrMean`]) by segments
//! of many blocks: the same blocks, tails, heads, compensated sums and
//! counts as [`blocked_sum::part`], so the same bits, with the per-position
//! work of a whole segment in one loop.
//!
//! [`blocked_sum::part`] merges and finishes block by block, so a short
//! window pays a loop's set-up and remainder every few positions. Here a
//! segment of about [`SEGMENT_POSITIONS`] positions is built first (each
//! block's heads beside the block before's tails, and the running counts of
//! the segment and the window before it), then every position merges its
//! tail and head and finishes in one loop whose iterations are independent.
//! A window's counts are differences of running counts taken from the
//! window before the segment on: exact integers in `f64`, so the same
//! numbers as the block-wise counts. A segment with an overflowed window is
//! done again by [`blocked_sum::part`], whose rescaling it shares.

use super::blocked::{wide, CompensatedSum, SumOrMean};
use super::blocked_sum::{self, add, compensated, finish, step_taken, taken};
use super::segment_counts::SegmentCounts;
use crate::element::{QuantileElement, SelectFloat};
use crate::scan::window::WindowSpec;
use std::mem::MaybeUninit;

/// Positions of a segment, at least (a whole number of windows, one window
/// where the window is longer). The segment's arrays (about seven `f64` per
/// position) then stay in the first-level cache.
const SEGMENT_POSITIONS: usize = 512;

/// The arrays of one segment of `blocks` blocks of `w` positions.
struct Segment {
    /// Window length.
    w: usize,
    /// `vals[k]`: the value at position `k − w` counted from the segment's
    /// start, as [`taken`] (zero for NaN and infinities), from `w` before
    /// the segment on. Taken in one loop that vectorises: in the chains of
    /// the heads and tails the mask compiled as a branch, mispredicted at
    /// every NaN.
    vals: Vec<f64>,
    /// `head_hi[j] + head_lo[j]`: the sum of position `j`'s block up to it.
    head_hi: Vec<f64>,
    /// See `head_hi`.
    head_lo: Vec<f64>,
    /// `tail_hi[t] + tail_lo[t]`, `t = j + 1`: the sum of the block before
    /// `j`'s from position `j − w + 1` to its end (set for the positions
    /// whose window begins in the block before).
    tail_hi: Vec<f64>,
    /// See `tail_hi`.
    tail_lo: Vec<f64>,
    /// The running counts of positions `w` before the segment on: `n[t]`
    /// non-NaN values among the first `t`, and so on.
    counts: SegmentCounts,
    /// Whether position `j` is its block's last (its window is its block).
    last: Vec<bool>,
}

impl Segment {
    /// Arrays for segments of `blocks` blocks of `w` positions.
    fn new(w: usize, blocks: usize) -> Self {
        let s = w * blocks;
        let v = |len: usize| vec![0.0; len];
        Segment {
            w,
            vals: v(s + w),
            head_hi: v(s),
            head_lo: v(s),
            tail_hi: v(s + 1),
            tail_lo: v(s + 1),
            counts: SegmentCounts::new(w, s),
            last: (0..s).map(|j| j % w == w - 1).collect(),
        }
    }

    /// The values (as [`taken`]) and running counts of positions `s0 −
    /// w..s1` of `xs` (those before 0 count nothing); whether any of them is
    /// infinite (else the infinities' counts are left as they were: they are
    /// not read).
    #[inline(always)]
    fn count<E: QuantileElement>(&mut self, xs: &[E], s0: usize, s1: usize) -> bool {
        let w = self.w;
        let first = s0.saturating_sub(w);
        let skipped = w - (s0 - first);
        for (v, &x) in self.vals[skipped..].iter_mut().zip(&xs[first..s1]) {
            *v = taken(wide(x));
        }
        self.counts.count(xs, s0, s1)
    }

    /// Each block's heads and, beside them, the tails of the block before
    /// (built backwards from its end), for positions `s0..s1` of the values
    /// [`Segment::count`] took: the same chains, in the same order, as
    /// [`blocked_sum::part`].
    #[inline(always)]
    fn sums(&mut self, c: bool, s0: usize, s1: usize) {
        let w = self.w;
        let mut hs = s0;
        while hs < s1 {
            let len = w.min(s1 - hs);
            let j0 = hs - s0;
            // every slice cut to its loop's length: no bounds checks inside
            let block = &self.vals[j0 + w..j0 + w + len];
            let mut head = CompensatedSum::default();
            let mut heads = self.head_hi[j0..j0 + len]
                .iter_mut()
                .zip(&mut self.head_lo[j0..j0 + len])
                .zip(block);
            if hs >= w {
                // the block before's value `i` (position `hs − w + i`) is the
                // tail of the positions from `i − 1` on in this block, kept at
                // `t = j0 + i`; its value `0` is no position's tail
                let before = &self.vals[j0 + 1..j0 + w];
                let mut tail = CompensatedSum::default();
                let mut tails = self.tail_hi[j0 + 1..j0 + w]
                    .iter_mut()
                    .zip(&mut self.tail_lo[j0 + 1..j0 + w])
                    .zip(before)
                    .rev();
                let common = (w - 1).min(len);
                // two independent chains side by side; `take` first, so the
                // zip stops before it draws a head it would drop
                for (((h_hi, h_lo), &x), ((t_hi, t_lo), &y)) in
                    heads.by_ref().take(common).zip(tails.by_ref())
                {
                    step_taken(c, &mut head, x, h_hi, h_lo);
                    step_taken(c, &mut tail, y, t_hi, t_lo);
                }
                for ((t_hi, t_lo), &y) in tails {
                    step_taken(c, &mut tail, y, t_hi, t_lo);
                }
            }
            for ((h_hi, h_lo), &x) in heads {
                step_taken(c, &mut head, x, h_hi, h_lo);
            }
            hs += len;
        }
    }

    /// The results of the segment's positions `j0..j0 + out.len()` (a
    /// position's window begins in the block before unless it is its
    /// block's last or `tailed` is false), and whether any overflowed.
    /// Every iteration is independent: the loop vectorises.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn finish<V: SelectFloat>(
        &self,
        c: bool,
        mean: bool,
        min: f64,
        tailed: bool,
        infinities: bool,
        j0: usize,
        out: &mut [MaybeUninit<V>],
    ) -> bool {
        let (w, m) = (self.w, out.len());
        // every slice exactly `m` long: no bounds checks in the loop
        let (hh, hl) = (&self.head_hi[j0..j0 + m], &self.head_lo[j0..j0 + m]);
        let (th, tl) = (
            &self.tail_hi[j0 + 1..j0 + 1 + m],
            &self.tail_lo[j0 + 1..j0 + 1 + m],
        );
        let (n_end, n_start) = (
            &self.counts.n[j0 + w + 1..j0 + w + 1 + m],
            &self.counts.n[j0 + 1..j0 + 1 + m],
        );
        let (i_end, i_start) = (
            &self.counts.inf[j0 + w + 1..j0 + w + 1 + m],
            &self.counts.inf[j0 + 1..j0 + 1 + m],
        );
        let (p_end, p_start) = (
            &self.counts.pos[j0 + w + 1..j0 + w + 1 + m],
            &self.counts.pos[j0 + 1..j0 + 1 + m],
        );
        let last = &self.last[j0..j0 + m];
        let mut overflow = 0u8;
        for j in 0..m {
            // values of a narrower type keep no compensation: `lo` is +0
            let (head_lo, tail_lo) = if c { (hl[j], tl[j]) } else { (0.0, 0.0) };
            let (t, e) = add(c, th[j], hh[j]);
            let merged_lo = (tail_lo + head_lo) + e;
            let with_tail = tailed & !last[j];
            let hi = if with_tail { t } else { hh[j] };
            let lo = if with_tail { merged_lo } else { head_lo };
            let n = n_end[j] - n_start[j];
            let (inf, pos) = if infinities {
                (i_end[j] - i_start[j], p_end[j] - p_start[j])
            } else {
                (0.0, 0.0)
            };
            let (y, over) = finish(mean, hi, lo, n, inf, pos, min);
            overflow |= u8::from(over);
            out[j].write(V::from_f64_nearest(y));
        }
        overflow != 0
    }
}

/// [`blocked_sum::part`] (the same bits) by segments of many blocks:
/// positions `from..from + out.len()` of lane `xs`, `from` a multiple of
/// the window.
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
    let c = compensated::<E>();
    let end = from + out.len();
    let blocks = (SEGMENT_POSITIONS / w).max(1).min(out.len().div_ceil(w));
    let mut seg = Segment::new(w, blocks);
    let mut s0 = from;
    while s0 < end {
        let s1 = (s0 + blocks * w).min(end);
        let infinities = seg.count(xs, s0, s1);
        seg.sums(c, s0, s1);
        let out_seg = &mut out[s0 - from..s1 - from];
        // the lane's first block has no block before: its windows are heads
        let untailed = if s0 == 0 { w.min(s1) } else { 0 };
        let (first, rest) = out_seg.split_at_mut(untailed);
        let mut overflow = seg.finish(c, mean, min_f, false, infinities, 0, first);
        overflow |= seg.finish(c, mean, min_f, true, infinities, untailed, rest);
        if overflow {
            // rare: the block-wise kernel rescales each overflowed block
            blocked_sum::part(stat, spec, xs, s0, out_seg);
        }
        s0 = s1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::blocked::blocked_part;
    use crate::scan::test_lanes::{
        capped, mixed_lane, narrowed, result_bits, spec, without_infinities,
    };

    #[test]
    fn segments_give_the_block_walks_bits() {
        for (w, min) in [(1, 1), (2, 1), (3, 2), (10, 1), (10, 10), (17, 3), (600, 1)] {
            for mean in [false, true] {
                let stat = SumOrMean { mean };
                let sp = spec(w, min);
                for seed in 0..4u64 {
                    let n = 3 * SEGMENT_POSITIONS + 7 * w + seed as usize;
                    let xs = mixed_lane(n, seed + 1);
                    // no sum that overflows (the segments' own results),
                    // then no infinity either (the counts' cheap path)
                    let in_range = capped(&xs, 1e300, 0.25);
                    let finite = without_infinities(&in_range);
                    let narrow = narrowed(&in_range);
                    for from in [0, w, 5 * w] {
                        for xs in [&xs, &in_range, &finite] {
                            let walk = |xs: &[f64], from, out: &mut [_]| {
                                blocked_part(&stat, &sp, xs, from, out)
                            };
                            let segments =
                                |xs: &[f64], from, out: &mut [_]| part(&stat, &sp, xs, from, out);
                            let (got, want) =
                                (result_bits(xs, from, segments), result_bits(xs, from, walk));
                            assert_eq!(got, want, "w {w} min {min} from {from}");
                        }
                        let walk = |xs: &[f32], from, out: &mut [_]| {
                            blocked_sum::part(&stat, &sp, xs, from, out)
                        };
                        let segments =
                            |xs: &[f32], from, out: &mut [_]| part(&stat, &sp, xs, from, out);
                        let (got, want) = (
                            result_bits(&narrow, from, segments),
                            result_bits(&narrow, from, walk),
                        );
                        assert_eq!(got, want, "f32 w {w} min {min} from {from}");
                    }
                }
            }
        }
    }
}
