//! Median of one long lane without copying it: sample, bracket, select.
//!
//! A copy-then-select median reads the lane, writes a copy and partitions it
//! several times. Instead (after Floyd and Rivest):
//! 1. one pass counts the valid values and takes a fixed, evenly spaced sample;
//! 2. the sorted sample gives two pivots that bracket the middle ranks with
//!    overwhelming probability;
//! 3. a second pass counts the values below the lower pivot and copies only
//!    the values inside the bracket (a small fraction) into scratch;
//! 4. selection inside that small buffer gives the middle values.
//!
//! If the bracket misses (adversarial data, many ties) the caller falls back
//! to the full copy. The result is the exact median either way — the same two
//! middle values, combined by the same formula.

use super::order::QuantileElement;
use crate::plan::Walker;
use crate::select::SelectFloat;
use std::cmp::Ordering;

/// Lanes shorter than this are copied whole (the bracket's two passes do not pay).
pub(crate) const MIN_BRACKET_LANE: usize = 1 << 18;
/// Target sample size.
const SAMPLE: usize = 1 << 14;

fn ascending<T: PartialOrd>(a: &T, b: &T) -> Ordering {
    a.partial_cmp(b).unwrap_or(Ordering::Equal)
}

/// What the bracket found.
pub(crate) enum Scan<V> {
    /// No valid value.
    Empty,
    /// A NaN was seen and NaN propagates.
    Nan,
    /// The median.
    Median(V),
    /// The bracket missed: use the full copy.
    Fallback,
}

/// Median of plan-order output `j` (one lane of `len` values) of `walker`.
pub(crate) fn bracket_median<E: QuantileElement>(
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
    if has_nan && !ignore_nan {
        return Scan::Nan;
    }
    if n == 0 {
        return Scan::Empty;
    }
    if sample.len() < 64 {
        return Scan::Fallback;
    }
    sample.sort_unstable_by(ascending);
    let (r0, r1) = if n % 2 == 1 {
        (n / 2, n / 2)
    } else {
        (n / 2 - 1, n / 2)
    };
    let s = sample.len();
    let delta = ((s as f64).sqrt() * 3.0) as usize + 8;
    let p0 = (r0 as f64 / n as f64 * s as f64) as usize;
    let p1 = (r1 as f64 / n as f64 * s as f64) as usize;
    let lo = p0.checked_sub(delta).map(|i| sample[i]);
    let hi = (p1 + delta < s).then(|| sample[p1 + delta]);
    let lo_v = lo.unwrap_or_else(|| E::Value::from_f64_nearest(f64::NEG_INFINITY));
    let hi_v = hi.unwrap_or_else(|| E::Value::from_f64_nearest(f64::INFINITY));
    // second pass: count below the bracket, keep what is inside
    let budget = n / 8 + 1024;
    let mut below = 0usize;
    let mut inside: Vec<E::Value> = Vec::new();
    let mut overflow = false;
    walker.for_each_run(j, 1, |_, xs| {
        if overflow {
            return;
        }
        // Per L1-sized block: a vectorisable count below the bracket, then a
        // branch-free copy of the values inside it (every value is written,
        // the end advances only for those inside). NaN fails every
        // comparison, so it is neither counted nor kept.
        for block in xs.chunks(4096) {
            below += block.iter().filter(|x| x.to_value() < lo_v).count();
            let mut end = inside.len();
            inside.resize(end + block.len(), E::Value::default());
            for &x in block {
                let v = x.to_value();
                inside[end] = v;
                end += ((v >= lo_v) & (v <= hi_v)) as usize;
            }
            inside.truncate(end);
        }
        overflow = inside.len() > budget;
    });
    if overflow || r0 < below || r1 >= below + inside.len() {
        return Scan::Fallback;
    }
    let (k0, k1) = (r0 - below, r1 - below);
    let (_, a, right) = inside.select_nth_unstable_by(k0, ascending);
    let a = *a;
    let b = if k1 == k0 {
        a
    } else {
        match right
            .iter()
            .copied()
            .reduce(|m, x| if x < m { x } else { m })
        {
            Some(b) => b,
            None => return Scan::Fallback,
        }
    };
    let m = if k1 == k0 {
        a
    } else {
        E::Value::mean_of_two(a, b)
    };
    Scan::Median(m)
}
