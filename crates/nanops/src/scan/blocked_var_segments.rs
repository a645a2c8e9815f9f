//! One lane of the blocked moving variance and standard deviation
//! ([`VarOrStd`]) by segments of many blocks, the blocks' Welford chains
//! side by side: the same blocks, tails, heads, Welford steps, Chan merges
//! and counts as [`blocked_part`], so the same bits.
//!
//! [`blocked_part`] walks a block's head chain and the next block's tail
//! chain a value at a time (each step waits on the one before: a
//! subtraction, a multiplication and an addition), with a branch per NaN,
//! and merges and finishes every position (a division and a root) in the
//! same scalar loop. Here, for a segment of blocks:
//! - each block's finite values are packed, forwards for its own heads and
//!   backwards for the next block's tails, one block to a lane of a table
//!   (NaN and infinities take no step, as in
//!   [`BlockStatistic::take`](super::blocked::BlockStatistic::take));
//! - the chains of all the segment's blocks advance together: step `i` of
//!   every lane in one loop across the lanes, which vectorises (every
//!   lane's `i`-th step multiplies by the same `1/i`);
//! - a position's head is its block's state after as many steps as the
//!   block has finite values up to it, its tail the block before's after as
//!   many as that block has after it (both counted while packing); then
//!   every position of the segment merges and finishes in one loop whose
//!   iterations are independent.
//!
//! A segment with an infinity in its windows is done by [`blocked_part`],
//! which counts infinities apart, and so is one with an overflowed window,
//! which it rescales. Windows longer than [`MAX_WINDOW`] go to
//! [`blocked_part`] whole (a segment of [`MIN_LANES`] such blocks would
//! leave the cache), and so do integer lanes.

use super::blocked::{blocked_part, chan_merge, welford_step, wide, VarOrStd};
use crate::element::{QuantileElement, SelectFloat};
use crate::scan::window::WindowSpec;
use std::cell::Cell;
use std::mem::MaybeUninit;

/// Longest window taken by segments; longer ones by [`blocked_part`].
const MAX_WINDOW: usize = 1024;
/// Positions of a segment, at least (a whole number of windows).
const SEGMENT_POSITIONS: usize = 2048;
/// Fewest blocks of a segment (the chains' lanes): enough for a vector of
/// `f64` lanes at every instruction set.
const MIN_LANES: usize = 8;

thread_local! {
    /// The calling thread's segment tables, kept between calls: a lane of a
    /// few segments (a row of a 2-d array) would otherwise pay for their
    /// allocation and first touch more than for its arithmetic. Grown,
    /// never shrunk: at most [`MAX_WINDOW`] · [`MIN_LANES`] positions' worth.
    static SPARE: Cell<Option<Segment>> = const { Cell::new(None) };
}

/// The tables and arrays of one segment of `lanes` blocks of `w` positions.
#[derive(Default)]
struct Segment {
    /// Window length.
    w: usize,
    /// Blocks of a (whole) segment: the lanes of the tables.
    lanes: usize,
    /// `heads[i·lanes + c]`: the `i`-th finite value of the segment's block
    /// `c` (rows past a block's finite values hold stale values: the states
    /// they make are not read).
    heads: Vec<f64>,
    /// `tails[i·lanes + c]`: the `i`-th finite value of the block before
    /// block `c`, counted back from its end.
    tails: Vec<f64>,
    /// The finite values of the block before the segment, in order.
    before: Vec<f64>,
    /// `head_states[i·lanes + c]`: lane `c`'s Welford mean and m2 after its
    /// first `i` values of `heads` (row 0: no value).
    head_states: Vec<[f64; 2]>,
    /// The same for `tails`.
    tail_states: Vec<[f64; 2]>,
    /// `finite[k]`: the finite values of position `s0 − w + k`'s block up
    /// to it (the block before the segment's first is block `−1`).
    finite: Vec<u32>,
    /// `totals[c]`: the finite values of block `c − 1`.
    totals: Vec<u32>,
    /// Each position's parts: head count, mean and m2, tail count, mean and
    /// m2, and `1 / (head count + tail count)`.
    parts: [Vec<f64>; 7],
}

impl Segment {
    /// Tables for segments of `lanes` blocks of `w` positions: the calling
    /// thread's from its last call, reshaped (their stale values are
    /// written before they are read, or make states that are not read).
    fn take(w: usize, lanes: usize) -> Self {
        let mut seg = SPARE.with(Cell::take).unwrap_or_default();
        let (table, states) = (w * lanes, (w + 1) * lanes);
        seg.w = w;
        seg.lanes = lanes;
        seg.heads.resize(table, 0.0);
        seg.tails.resize(table, 0.0);
        seg.before.resize(w, 0.0);
        seg.head_states.resize(states, [0.0; 2]);
        seg.tail_states.resize(states, [0.0; 2]);
        seg.finite.resize((lanes + 1) * w, 0);
        seg.totals.resize(lanes + 1, 0);
        for v in &mut seg.parts {
            v.resize(table, 0.0);
        }
        seg
    }

    /// Keeps the tables for the calling thread's next call.
    fn give_back(self) {
        SPARE.with(|spare| spare.set(Some(self)));
    }

    /// Packs the heads' values of the blocks of positions `s0..s1` and the
    /// tails' values of the blocks before them (none before the lane's
    /// start) into the tables, and counts their finite values.
    #[inline(always)]
    fn pack<E: QuantileElement>(&mut self, xs: &[E], s0: usize, s1: usize) {
        let (w, lanes) = (self.w, self.lanes);
        let (finite_before, finite) = self.finite.split_at_mut(w);
        self.totals[0] = if s0 >= w {
            let n = pack_lane(&mut self.before, 1, &xs[s0 - w..s0], finite_before);
            copy_backwards(&self.before, 1, &mut self.tails, lanes, n);
            n
        } else {
            finite_before.fill(0);
            0
        };
        for (c, b) in (s0..s1).step_by(w).enumerate() {
            let block = &xs[b..(b + w).min(s1)];
            let counts = &mut finite[c * w..];
            let n = pack_lane(&mut self.heads[c..], lanes, block, counts);
            self.totals[c + 1] = n;
            // the next block's tails: this block's finite values backwards,
            // copied from the heads (no value tested again)
            if c + 1 < lanes {
                copy_backwards(&self.heads[c..], lanes, &mut self.tails[c + 1..], lanes, n);
            }
        }
    }

    /// Each position's head and tail (`m` positions): each block's state
    /// after as many steps as it has finite values in the window. A gather,
    /// kept apart so that the merge's loop vectorises.
    #[inline(always)]
    fn gather(&mut self, m: usize, inv: &[f64]) {
        let (w, lanes) = (self.w, self.lanes);
        let [hn, hm, hq, tn, tm, tq, inv_n] = &mut self.parts;
        for c in 0..m.div_ceil(w) {
            let (head, tail) = (&self.head_states[c..], &self.tail_states[c..]);
            let before_total = self.totals[c];
            let len = w.min(m - c * w);
            let (before, this) = (
                &self.finite[c * w..][..len],
                &self.finite[(c + 1) * w..][..len],
            );
            // every slice exactly `len` long: no bounds checks on them
            let block = c * w..c * w + len;
            let (hn, hm, hq) = (
                &mut hn[block.clone()],
                &mut hm[block.clone()],
                &mut hq[block.clone()],
            );
            let (tn, tm, tq) = (
                &mut tn[block.clone()],
                &mut tm[block.clone()],
                &mut tq[block.clone()],
            );
            let inv_n = &mut inv_n[block];
            for t in 0..len {
                let heads = this[t] as usize;
                let tails = (before_total - before[t]) as usize;
                let [mean, m2] = head[heads * lanes];
                (hn[t], hm[t], hq[t]) = (heads as f64, mean, m2);
                let [mean, m2] = tail[tails * lanes];
                (tn[t], tm[t], tq[t]) = (tails as f64, mean, m2);
                inv_n[t] = inv[heads + tails];
            }
        }
    }

    /// The results of the segment's positions (`out.len()`) from their
    /// parts, and whether any overflowed. Every iteration is independent:
    /// the loop vectorises. The segment holds no infinity: a window's
    /// non-NaN values are its finite ones.
    #[inline(always)]
    fn finish<V: SelectFloat>(
        &self,
        stat: &VarOrStd,
        min: f64,
        out: &mut [MaybeUninit<V>],
    ) -> bool {
        let m = out.len();
        // every slice exactly `m` long: no bounds checks in the loop
        let [hn, hm, hq, tn, tm, tq, inv_n] = &self.parts;
        let (hn, hm, hq) = (&hn[..m], &hm[..m], &hq[..m]);
        let (tn, tm, tq, inv_n) = (&tn[..m], &tm[..m], &tq[..m], &inv_n[..m]);
        // a copy the loop owns: read through the reference, its fields were
        // loaded again at every position (the output might alias them)
        let stat = VarOrStd {
            ddof: stat.ddof,
            std: stat.std,
        };
        let mut overflow = 0u8;
        for t in 0..m {
            // `Welford::then` of the tail and the head
            let (_, merged) = chan_merge((tn[t], tm[t], tq[t]), (hn[t], hm[t], hq[t]), inv_n[t]);
            let m2 = if tn[t] == 0.0 {
                hq[t]
            } else if hn[t] == 0.0 {
                tq[t]
            } else {
                merged
            };
            let n = hn[t] + tn[t];
            let y = stat.of_m2(n, false, m2, 1.0);
            let counted = n >= min;
            overflow |= u8::from(counted & stat.m2_overflowed(n, false, y));
            out[t].write(V::from_f64_nearest(if counted { y } else { f64::NAN }));
        }
        overflow != 0
    }
}

/// Writes the finite values of `block`, in order, down a lane of a table
/// whose rows are `stride` long (`table` starts at the lane's first slot),
/// `counts[i]` the number of them up to `block[i]`; gives their number. A
/// NaN or an infinity is written and then written over: no branch.
#[inline(always)]
fn pack_lane<E: QuantileElement>(
    table: &mut [f64],
    stride: usize,
    block: &[E],
    counts: &mut [u32],
) -> u32 {
    let mut n = 0u32;
    for (&x, count) in block.iter().zip(counts) {
        let v = wide(x);
        table[n as usize * stride] = v;
        n += u32::from(v.is_finite());
        *count = n;
    }
    n
}

/// Copies the first `n` values down a lane of `from` (rows `from_stride`
/// long) backwards down a lane of `to` (rows `to_stride` long).
#[inline(always)]
fn copy_backwards(from: &[f64], from_stride: usize, to: &mut [f64], to_stride: usize, n: u32) {
    let n = n as usize;
    for i in 0..n {
        to[i * to_stride] = from[(n - 1 - i) * from_stride];
    }
}

/// Welford's chains of every lane of the tables `values` (rows `lanes`
/// long; the heads' and the tails', side by side: two independent chains
/// in one loop): `states[(i + 1)·lanes + c]` the mean and m2 of lane `c`
/// after its first `i + 1` values; row 0 the empty state. The steps of
/// [`Welford::push`](super::blocked::Welford), one row of lanes at a time.
#[inline(always)]
fn chains(values: [&[f64]; 2], states: [&mut [[f64; 2]]; 2], lanes: usize, inv: &[f64]) {
    let [head_values, tail_values] = values;
    let [head_states, tail_states] = states;
    head_states[..lanes].fill([0.0; 2]);
    tail_states[..lanes].fill([0.0; 2]);
    let rows = head_values
        .chunks_exact(lanes)
        .zip(tail_values.chunks_exact(lanes));
    for (i, (head_row, tail_row)) in rows.enumerate() {
        let r = inv[i + 1];
        let (head_done, head_next) = head_states.split_at_mut((i + 1) * lanes);
        let (tail_done, tail_next) = tail_states.split_at_mut((i + 1) * lanes);
        let heads = head_done[i * lanes..]
            .iter()
            .zip(&mut head_next[..lanes])
            .zip(head_row);
        let tails = tail_done[i * lanes..]
            .iter()
            .zip(&mut tail_next[..lanes])
            .zip(tail_row);
        for (head, tail) in heads.zip(tails) {
            for ((&[mean, m2], next), &x) in [head, tail] {
                let (mean, m2) = welford_step(mean, m2, x, r);
                *next = [mean, m2];
            }
        }
    }
}

/// [`blocked_part`] of [`VarOrStd`] (the same bits) by segments of many
/// blocks: positions `from..from + out.len()` of lane `xs`, `from` a
/// multiple of the window.
#[inline(always)]
pub(crate) fn part<E: QuantileElement>(
    stat: &VarOrStd,
    spec: &WindowSpec,
    xs: &[E],
    from: usize,
    out: &mut [MaybeUninit<E::Value>],
) {
    let w = spec.window;
    // integers (no NaN: every block full) keep the block walk, so that the
    // segments are compiled for the floating types alone: an instance per
    // element type and instruction set is build time
    if w > MAX_WINDOW || !E::CAN_BE_NAN {
        return blocked_part(stat, spec, xs, from, out);
    }
    debug_assert!(from.is_multiple_of(w));
    let min = spec.min_count() as f64;
    let end = from + out.len();
    let lanes = (SEGMENT_POSITIONS / w)
        .max(MIN_LANES)
        .min(out.len().div_ceil(w));
    let inv: Vec<f64> = (0..=w).map(|k| 1.0 / k as f64).collect();
    let mut seg = Segment::take(w, lanes);
    let mut s0 = from;
    while s0 < end {
        let s1 = (s0 + lanes * w).min(end);
        let out_seg = &mut out[s0 - from..s1 - from];
        // an infinity in the windows (rare): the block walk, which counts
        // them apart
        let infinite = xs[s0.saturating_sub(w)..s1]
            .iter()
            .fold(false, |any, &x| any | wide(x).is_infinite());
        if infinite {
            blocked_part(stat, spec, xs, s0, out_seg);
            s0 = s1;
            continue;
        }
        seg.pack(xs, s0, s1);
        chains(
            [&seg.heads, &seg.tails],
            [&mut seg.head_states, &mut seg.tail_states],
            lanes,
            &inv,
        );
        seg.gather(s1 - s0, &inv);
        if seg.finish(stat, min, out_seg) {
            // rare: the block walk rescales each overflowed block
            blocked_part(stat, spec, xs, s0, out_seg);
        }
        s0 = s1;
    }
    seg.give_back();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::test_lanes::{
        capped, mixed_lane, narrowed, result_bits, spec, without_infinities,
    };

    #[test]
    fn segments_give_the_block_walks_bits() {
        let windows = [(1, 1), (2, 1), (3, 2), (10, 1), (10, 10), (17, 3), (600, 1)];
        for (w, min) in windows
            .into_iter()
            .chain([(MAX_WINDOW, 1), (MAX_WINDOW + 1, 2)])
        {
            for (ddof, std) in [(0.0, false), (1.0, true), (2.0, false)] {
                let stat = VarOrStd { ddof, std };
                let sp = spec(w, min);
                for seed in 0..3u64 {
                    let n = 2 * SEGMENT_POSITIONS + 9 * w + seed as usize;
                    let xs = mixed_lane(n, seed + 11);
                    // `xs` has infinities (the block walk's segments) and
                    // overflowing windows; then none of either (the
                    // segments' own results), overflows without an infinity
                    // (found by the segments, redone by the block walk), and
                    // blocks without a value
                    let in_range = capped(&xs, 1e150, -3.5);
                    let finite = without_infinities(&in_range);
                    let overflowing = without_infinities(&xs);
                    let gappy: Vec<f64> = finite
                        .iter()
                        .enumerate()
                        .map(|(i, &x)| if (i / 7) % 3 == 0 { f64::NAN } else { x })
                        .collect();
                    let (narrow_range, narrow_gappy) = (narrowed(&in_range), narrowed(&gappy));
                    for from in [0, w, 5 * w] {
                        let walk =
                            |xs: &[_], from, out: &mut [_]| blocked_part(&stat, &sp, xs, from, out);
                        let segments =
                            |xs: &[_], from, out: &mut [_]| part(&stat, &sp, xs, from, out);
                        for xs in [&xs, &in_range, &finite, &overflowing, &gappy] {
                            let (got, want) =
                                (result_bits(xs, from, segments), result_bits(xs, from, walk));
                            assert_eq!(got, want, "w {w} min {min} from {from}");
                        }
                        for xs in [&narrow_range, &narrow_gappy] {
                            let walk = |xs: &[f32], from, out: &mut [_]| {
                                blocked_part(&stat, &sp, xs, from, out)
                            };
                            let segments =
                                |xs: &[f32], from, out: &mut [_]| part(&stat, &sp, xs, from, out);
                            let (got, want) =
                                (result_bits(xs, from, segments), result_bits(xs, from, walk));
                            assert_eq!(got, want, "f32 w {w} min {min} from {from}");
                        }
                    }
                }
            }
        }
    }
}
