//! Order statistics of one long lane without copying it: sample, bracket, select.
//!
//! A copy-then-select quantile reads the lane, writes a copy and partitions
//! it several times. Instead (after Floyd and Rivest):
//! 1. a fixed, evenly spaced sample is read (a few thousand loads, not a
//!    pass), and its share of valid values estimates the valid count;
//! 2. for each wanted rank, the sorted sample gives two pivots that bracket
//!    it with overwhelming probability; overlapping brackets merge;
//! 3. one pass over the lane counts the valid values and, for each
//!    bracket, the values below it, and copies only the values inside a
//!    bracket (a small fraction) into scratch;
//! 4. with the exact count, the wanted ranks are known; selection inside
//!    that small buffer gives their order statistics.
//!
//! If a bracket misses (adversarial data, many ties, a rank that moved out
//! of its bracket with the exact count) the caller falls back to the full
//! copy. The result is exact either way: the same order statistics,
//! combined by the same formulas.

use super::select::{keep_between, select_ranks};
use crate::element::{QuantileElement, SelectFloat};
use crate::layout::Walker;
use crate::simd::compress::COPY_SLACK;
use std::cmp::Ordering;

/// Lanes shorter than this are copied whole (sampling and bracketing do not pay).
pub(crate) const MIN_BRACKET_LANE: usize = 1 << 18;
/// Target sample size.
const SAMPLE: usize = 1 << 14;
/// Most brackets one second pass tests each value against.
const MAX_BRACKETS: usize = 8;

fn ascending<T: PartialOrd>(a: &T, b: &T) -> Ordering {
    a.partial_cmp(b).unwrap_or(Ordering::Equal)
}

/// What the sample found.
pub(crate) enum Scan<V> {
    /// A NaN was sampled and NaN propagates.
    Nan,
    /// The sorted valid values of an evenly spaced sample of `read` values.
    Sampled {
        /// How many values were read.
        read: usize,
        /// The valid ones among them, sorted.
        sample: Vec<V>,
    },
}

/// Reads an evenly spaced sample of plan-order output `j` (one lane of
/// `len` values).
pub(crate) fn sample_lane<E: QuantileElement>(
    walker: &Walker<'_, E>,
    j: usize,
    len: usize,
    ignore_nan: bool,
) -> Scan<E::Value> {
    let step = (len / SAMPLE).max(1);
    let mut sample: Vec<E::Value> = Vec::with_capacity(len / step + 1);
    let (mut read, mut has_nan, mut pos) = (0usize, false, 0usize);
    walker.for_each_run(j, 1, |_, xs| {
        // sample positions are multiples of `step` in the lane
        let first = (step - pos % step) % step;
        for &x in xs.iter().skip(first).step_by(step) {
            read += 1;
            has_nan |= x.is_nan_value();
            if !x.is_nan_value() {
                sample.push(x.to_value());
            }
        }
        pos += xs.len();
    });
    if has_nan && !ignore_nan {
        return Scan::Nan;
    }
    sample.sort_unstable_by(ascending);
    Scan::Sampled { read, sample }
}

/// What [`select_bracketed`] found.
pub(crate) struct Bracketed<V> {
    /// The lane's number of valid values.
    pub(crate) n: usize,
    /// The order statistics of the ranks `ranks_of(n)` asked for.
    pub(crate) values: Vec<V>,
}

/// The order statistics of output `j` (a lane of `len` values) for the
/// ranks `ranks_of(n)` (sorted, distinct, below `n`) of its `n` valid
/// values, from the sample of [`sample_lane`]; `None` when a bracket
/// missed (the caller then copies the lane). `ranks_of` is called with an
/// estimate of `n`, then with the exact count, last.
pub(crate) fn select_bracketed<E: QuantileElement>(
    walker: &Walker<'_, E>,
    j: usize,
    len: usize,
    read: usize,
    sample: &[E::Value],
    mut ranks_of: impl FnMut(usize) -> Vec<usize>,
) -> Option<Bracketed<E::Value>> {
    let s = sample.len();
    if s < 64 {
        return None;
    }
    // The valid count, estimated from the sample's share of valid values.
    let n_guess = ((len as f64 * s as f64 / read as f64) as usize).clamp(s, len);
    let ranks = ranks_of(n_guess);
    if ranks.is_empty() || ranks.last().is_some_and(|&r| r >= n_guess) {
        return None;
    }
    // Each rank's bracket in the sample, ±3 standard deviations of the
    // sample rank; brackets that overlap merge. (A rank's place in the
    // sample is its share of the count, which the estimate barely moves.)
    let delta = ((s as f64).sqrt() * 3.0) as usize + 8;
    let mut bounds: Vec<(usize, usize)> = Vec::new();
    for &r in &ranks {
        let p = (r as f64 / n_guess as f64 * s as f64) as usize;
        let (a, b) = (p.saturating_sub(delta), p + delta);
        match bounds.last_mut() {
            Some(last) if a <= last.1 => last.1 = b,
            _ => bounds.push((a, b)),
        }
    }
    if bounds.len() > MAX_BRACKETS {
        return None;
    }
    // The brackets' values; brackets whose values meet (ties in the sample)
    // merge too, so that every value lies in at most one.
    // Bracket `i` holds the values in `lo[i]..=hi[i]`.
    let (mut lo, mut hi): (Vec<E::Value>, Vec<E::Value>) = (Vec::new(), Vec::new());
    for &(a, b) in &bounds {
        let from = if a == 0 {
            E::Value::from_f64_nearest(f64::NEG_INFINITY)
        } else {
            sample[a]
        };
        let to = if b >= s {
            E::Value::from_f64_nearest(f64::INFINITY)
        } else {
            sample[b]
        };
        match hi.last_mut() {
            Some(last) if from <= *last => {
                if to > *last {
                    *last = to;
                }
            }
            _ => {
                lo.push(from);
                hi.push(to);
            }
        }
    }
    // The pass: per L1-sized block, the valid values and those below each
    // bracket are counted and those inside one are kept (see `scan_block`).
    // The brackets span `span` of the sample, so about that share of the
    // values falls inside; twice as many means the sample misled us.
    let span: usize = bounds.iter().map(|&(a, b)| b.min(s) - a).sum();
    if span * 4 > s {
        return None; // a quarter of the lane or more: copying it is as cheap
    }
    let budget = n_guess * span / s * 2 + 1024;
    // the valid values below each bracket, and all of them
    let (mut below, mut n) = (vec![0usize; lo.len()], 0usize);
    let mut inside: Vec<E::Value> = Vec::new();
    let mut overflow = false;
    walker.for_each_run(j, 1, |_, xs| {
        for block in xs.chunks(4096) {
            if overflow {
                return;
            }
            let counts = (&mut below[..], &mut n);
            match lo.len() {
                1 => scan_block::<E, 1>(block, &lo, &hi, counts, &mut inside),
                2 => scan_block::<E, 2>(block, &lo, &hi, counts, &mut inside),
                3 => scan_block::<E, 3>(block, &lo, &hi, counts, &mut inside),
                4 => scan_block::<E, 4>(block, &lo, &hi, counts, &mut inside),
                _ => scan_block::<E, MAX_BRACKETS>(block, &lo, &hi, counts, &mut inside),
            }
            overflow = inside.len() > budget;
        }
    });
    if overflow {
        return None;
    }
    // Values of earlier brackets come first in the sorted `inside`: a rank's
    // position there is its rank among the values of its bracket, plus the
    // sizes of the brackets below.
    let mut before = 0;
    let mut first_pos = Vec::with_capacity(lo.len());
    for (&l, &h) in lo.iter().zip(&hi) {
        let size = inside.iter().filter(|&&v| (v >= l) & (v <= h)).count();
        first_pos.push((before, size));
        before += size;
    }
    let ranks = ranks_of(n);
    let mut positions = Vec::with_capacity(ranks.len());
    for &r in &ranks {
        let (&under, &(start, _)) = below
            .iter()
            .zip(&first_pos)
            .find(|&(&under, &(_, size))| r >= under && r < under + size)?;
        positions.push(start + r - under);
    }
    select_ranks(&mut inside, 0, &positions);
    let values = positions.iter().map(|&p| inside[p]).collect();
    Some(Bracketed { n, values })
}

/// One block of the pass: adds the valid values of `block` to `valid` and
/// to `below[i]` those under bracket `i` (`lo[i]..=hi[i]`; at most `K`
/// brackets, missing ones are empty) and appends those inside a bracket to
/// `inside`.
///
/// By SIMD where the type and CPU have it ([`keep_between`]); otherwise
/// vectorisable counts, then a branch-free copy (every value is written,
/// the end advances only for those inside; with `K` fixed the bracket tests
/// unroll). NaN fails every comparison: neither counted nor kept.
#[inline(always)]
fn scan_block<E: QuantileElement, const K: usize>(
    block: &[E],
    lo: &[E::Value],
    hi: &[E::Value],
    (below, valid): (&mut [usize], &mut usize),
    inside: &mut Vec<E::Value>,
) {
    // empty brackets (lo = +inf > hi = -inf) pad the arrays to K
    let mut l = [E::Value::from_f64_nearest(f64::INFINITY); K];
    let mut h = [E::Value::from_f64_nearest(f64::NEG_INFINITY); K];
    l[..lo.len()].copy_from_slice(lo);
    h[..hi.len()].copy_from_slice(hi);
    inside.reserve(block.len() + COPY_SLACK);
    let start = inside.len();
    if let Some(values) = E::as_values(block) {
        let mut counts = [0usize; K];
        let spare = inside.spare_capacity_mut();
        if let Some(kept) = keep_between(values, &l, &h, &mut counts, Some(valid), spare) {
            // SAFETY: `keep_between` wrote the first `kept` spare slots.
            unsafe { inside.set_len(start + kept) };
            for (b, c) in below.iter_mut().zip(counts) {
                *b += c;
            }
            return;
        }
    }
    *valid += block.iter().filter(|x| !x.is_nan_value()).count();
    for (b, &l) in below.iter_mut().zip(lo) {
        *b += block.iter().filter(|x| x.to_value() < l).count();
    }
    let spare = &mut inside.spare_capacity_mut()[..block.len()];
    let mut end = 0;
    for &x in block {
        let v = x.to_value();
        // `end` ≤ the number of values seen so far, so it stays in `spare`
        spare[end].write(v);
        let mut keep = false;
        for i in 0..K {
            keep |= (v >= l[i]) & (v <= h[i]);
        }
        end += keep as usize;
    }
    // SAFETY: the first `end` spare slots were written.
    unsafe { inside.set_len(start + end) };
}
