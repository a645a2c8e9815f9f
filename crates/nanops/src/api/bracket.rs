//! Order statistics of one long lane without copying it: sample, bracket, select.
//!
//! A copy-then-select quantile reads the lane, writes a copy and partitions
//! it several times. Instead (after Floyd and Rivest):
//! 1. one pass counts the valid values and takes a fixed, evenly spaced sample;
//! 2. for each wanted rank, the sorted sample gives two pivots that bracket
//!    it with overwhelming probability; overlapping brackets merge;
//! 3. a second pass counts, for each bracket, the values below it, and copies
//!    only the values inside a bracket (a small fraction) into scratch;
//! 4. selection inside that small buffer gives the wanted order statistics.
//!
//! If a bracket misses (adversarial data, many ties) the caller falls back
//! to the full copy. The result is exact either way: the same order
//! statistics, combined by the same formulas.

use super::order::QuantileElement;
use crate::plan::Walker;
use crate::select::{select_ranks, SelectFloat};
use std::cmp::Ordering;

/// Lanes shorter than this are copied whole (the bracket's two passes do not pay).
pub(crate) const MIN_BRACKET_LANE: usize = 1 << 18;
/// Target sample size.
const SAMPLE: usize = 1 << 14;
/// Most brackets one second pass tests each value against.
const MAX_BRACKETS: usize = 8;

fn ascending<T: PartialOrd>(a: &T, b: &T) -> Ordering {
    a.partial_cmp(b).unwrap_or(Ordering::Equal)
}

/// What the first pass found.
pub(crate) enum Scan<V> {
    /// No valid value.
    Empty,
    /// A NaN was seen and NaN propagates.
    Nan,
    /// `n` valid values, and an evenly spaced sorted sample of them.
    Sampled {
        /// Number of valid values.
        n: usize,
        /// The sorted sample.
        sample: Vec<V>,
    },
}

/// First pass over plan-order output `j` (one lane of `len` values): the
/// valid count and a sorted sample.
pub(crate) fn sample_lane<E: QuantileElement>(
    walker: &Walker<'_, E>,
    j: usize,
    len: usize,
    ignore_nan: bool,
) -> Scan<E::Value> {
    let step = (len / SAMPLE).max(1);
    let mut sample: Vec<E::Value> = Vec::with_capacity(len / step + 1);
    let (mut n, mut has_nan, mut pos) = (0usize, false, 0usize);
    walker.for_each_run(j, 1, |_, xs| {
        if E::CAN_BE_NAN {
            let nans = xs.iter().filter(|x| x.is_nan_value()).count();
            has_nan |= nans > 0;
            n += xs.len() - nans;
        } else {
            n += xs.len();
        }
        // sample positions are multiples of `step` in the lane
        let first = (step - pos % step) % step;
        for &x in xs.iter().skip(first).step_by(step) {
            if !x.is_nan_value() {
                sample.push(x.to_value());
            }
        }
        pos += xs.len();
    });
    // as the copying path: an empty lane first, then NaN propagation
    if n == 0 {
        return Scan::Empty;
    }
    if has_nan && !ignore_nan {
        return Scan::Nan;
    }
    sample.sort_unstable_by(ascending);
    Scan::Sampled { n, sample }
}

/// One bracket: the values in `lo..=hi`.
struct Bracket<V> {
    lo: V,
    hi: V,
    /// Number of valid values below `lo` (second pass).
    below: usize,
}

/// The order statistics of ranks `ranks` (sorted, distinct, below `n`) of
/// output `j`'s valid values, from the sample of [`sample_lane`]; `None`
/// when a bracket missed (the caller then copies the lane).
pub(crate) fn select_bracketed<E: QuantileElement>(
    walker: &Walker<'_, E>,
    j: usize,
    n: usize,
    sample: &[E::Value],
    ranks: &[usize],
) -> Option<Vec<E::Value>> {
    let s = sample.len();
    if s < 64 || ranks.is_empty() || ranks.last().is_some_and(|&r| r >= n) {
        return None;
    }
    // Each rank's bracket in the sample, ±3 standard deviations of the
    // sample rank; brackets that overlap merge. `of_rank[i]`: the bracket of
    // `ranks[i]`.
    let delta = ((s as f64).sqrt() * 3.0) as usize + 8;
    let mut bounds: Vec<(usize, usize)> = Vec::new();
    let mut of_rank = Vec::with_capacity(ranks.len());
    for &r in ranks {
        let p = (r as f64 / n as f64 * s as f64) as usize;
        let (a, b) = (p.saturating_sub(delta), p + delta);
        match bounds.last_mut() {
            Some(last) if a <= last.1 => last.1 = b,
            _ => bounds.push((a, b)),
        }
        of_rank.push(bounds.len() - 1);
    }
    if bounds.len() > MAX_BRACKETS {
        return None;
    }
    // The brackets' values; brackets whose values meet (ties in the sample)
    // merge too, so that every value lies in at most one.
    let mut brackets: Vec<Bracket<E::Value>> = Vec::with_capacity(bounds.len());
    let mut merged_into = Vec::with_capacity(bounds.len());
    for &(a, b) in &bounds {
        let lo = if a == 0 {
            E::Value::from_f64_nearest(f64::NEG_INFINITY)
        } else {
            sample[a]
        };
        let hi = if b >= s {
            E::Value::from_f64_nearest(f64::INFINITY)
        } else {
            sample[b]
        };
        match brackets.last_mut() {
            Some(last) if lo <= last.hi => {
                if hi > last.hi {
                    last.hi = hi;
                }
            }
            _ => brackets.push(Bracket { lo, hi, below: 0 }),
        }
        merged_into.push(brackets.len() - 1);
    }
    let of_rank: Vec<usize> = of_rank.iter().map(|&b| merged_into[b]).collect();
    // Second pass: per L1-sized block, vectorisable counts below each
    // bracket, then a branch-free copy of the values inside one (every value
    // is written, the end advances only for those inside). NaN fails every
    // comparison, so it is neither counted nor kept.
    // The brackets span `span` of the sample, so about that share of the
    // values falls inside; twice as many means the sample misled us.
    let span: usize = bounds.iter().map(|&(a, b)| b.min(s) - a).sum();
    if span * 4 > s {
        return None; // a quarter of the lane or more: copying it is as cheap
    }
    let budget = n * span / s * 2 + 1024;
    let lo: Vec<E::Value> = brackets.iter().map(|br| br.lo).collect();
    let hi: Vec<E::Value> = brackets.iter().map(|br| br.hi).collect();
    let mut inside: Vec<E::Value> = Vec::new();
    let mut overflow = false;
    walker.for_each_run(j, 1, |_, xs| {
        if overflow {
            return;
        }
        for block in xs.chunks(4096) {
            for br in brackets.iter_mut() {
                br.below += block.iter().filter(|x| x.to_value() < br.lo).count();
            }
            match brackets.len() {
                1 => keep_inside::<E, 1>(block, &lo, &hi, &mut inside),
                2 => keep_inside::<E, 2>(block, &lo, &hi, &mut inside),
                3 | 4 => keep_inside::<E, 4>(block, &lo, &hi, &mut inside),
                _ => keep_inside::<E, MAX_BRACKETS>(block, &lo, &hi, &mut inside),
            }
        }
        overflow = inside.len() > budget;
    });
    if overflow {
        return None;
    }
    // Values of earlier brackets come first in the sorted `inside`: a rank's
    // position there is its rank among the values of its bracket, plus the
    // sizes of the brackets below.
    let mut before = 0;
    let mut first_pos = Vec::with_capacity(brackets.len());
    for br in &brackets {
        let size = inside
            .iter()
            .filter(|&&v| (v >= br.lo) & (v <= br.hi))
            .count();
        first_pos.push((before, size));
        before += size;
    }
    let mut positions = Vec::with_capacity(ranks.len());
    for (&r, &b) in ranks.iter().zip(&of_rank) {
        let (start, size) = first_pos[b];
        let below = brackets[b].below;
        if r < below || r >= below + size {
            return None;
        }
        positions.push(start + r - below);
    }
    select_ranks(&mut inside, 0, &positions);
    Some(positions.iter().map(|&p| inside[p]).collect())
}

/// Appends the values of `block` that lie in one of the brackets
/// `lo[i]..=hi[i]` (at most `K` of them; missing ones are empty) to `inside`.
///
/// Branch-free: every value is written, the end advances only for those
/// inside; with `K` fixed the bracket tests unroll.
#[inline(always)]
fn keep_inside<E: QuantileElement, const K: usize>(
    block: &[E],
    lo: &[E::Value],
    hi: &[E::Value],
    inside: &mut Vec<E::Value>,
) {
    // empty brackets (lo = +inf > hi = -inf) pad the arrays to K
    let mut l = [E::Value::from_f64_nearest(f64::INFINITY); K];
    let mut h = [E::Value::from_f64_nearest(f64::NEG_INFINITY); K];
    l[..lo.len()].copy_from_slice(lo);
    h[..hi.len()].copy_from_slice(hi);
    let mut end = inside.len();
    inside.resize(end + block.len(), E::Value::default());
    for &x in block {
        let v = x.to_value();
        inside[end] = v;
        let mut keep = false;
        for i in 0..K {
            keep |= (v >= l[i]) & (v <= h[i]);
        }
        end += keep as usize;
    }
    inside.truncate(end);
}
