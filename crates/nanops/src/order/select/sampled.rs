//! The median of a short contiguous lane from one pass over it: sample,
//! bracket, narrow, select.
//!
//! Copying a 1,000-value lane's valid values and selecting its median
//! partitions about twice the lane's length after the copy. Here an evenly
//! spaced sample of about `√n` values ([`MIN_SAMPLE`] to [`MAX_SAMPLE`])
//! gives two values that bracket the median with high probability; one SIMD
//! pass ([`keep_between`]) counts the valid values and those below the
//! bracket and copies only the values inside it (two fifths of 1,000 values,
//! a seventh of 100,000). Inside that narrow slice of the distribution the
//! values are close to evenly spread, so a second pass over the copy, with
//! a bracket interpolated from the exact counts ([`narrow_window`]), keeps
//! about `2√len` of its `len` values; the median is selected there
//! ([`super::apart::nth_and_next`] where it is short). The same idea
//! for long lanes, with a larger sample and several brackets, is
//! `api::bracket`.
//!
//! A miss (the median's ranks outside a bracket: unlucky, skewed or
//! adversarial data, ties) is retried once with a bracket interpolated from
//! the counts the pass made; a second miss of the first bracket answers
//! `None` and the caller copies the lane as before, a second miss of the
//! narrow one selects in the wider copy. The result never depends on the
//! sample or the guesses, only the time does.

use core::mem::MaybeUninit;

use super::apart::nth_and_next;
use super::nth::{extreme, least, padded_sorted, select_nth};
use super::partition::keep_between;
use crate::element::SelectFloat;
use crate::simd::compress::COPY_SLACK;

/// Fewest values read for the sample (evenly spaced) of a lane of at least
/// `MIN_SAMPLE²` values. A lane of `n` gives about `√n`, so that the
/// sample's two selections cost little beside the pass over the lane while
/// the bracket narrows as the lane grows (at 100,000 values 256 sampled
/// measured faster than 64).
const MIN_SAMPLE: usize = 32;
/// Values read for the sample of a shorter lane: sorted by the 16-input
/// network, which gives both bracket ends at once, where two selections of
/// 32 values cost about as much as the pass over the lane. Its wider bracket
/// interpolates worse on skewed values (see [`narrow_window`]): per median
/// of `f64` values with 10% NaN, 16 sampled values measured faster than 32
/// on uniform values and about as fast on exponential ones, for 1,000 and
/// 1,500 values.
const NETWORK_SAMPLE: usize = 16;
/// Most values read for the sample.
const MAX_SAMPLE: usize = 256;
/// Shortest lane that is sampled (a shorter one is copied whole).
pub(crate) const MIN_SAMPLED_LANE: usize = 256;

/// Shortest window narrowed by an interpolated bracket ([`narrow_window`]).
const MIN_NARROWED: usize = 64;

/// Interpolated brackets tried before a window is selected whole.
const NARROW_TRIES: usize = 2;

/// [`bracketed_middles`] with this thread's scratch vector (no allocation
/// once it has grown); `None` at once where the SIMD pass is missing.
pub(crate) fn median_middles<T: SelectFloat>(xs: &[T]) -> Option<Middles<T>> {
    if !T::simd_available() {
        return None;
    }
    T::with_thread_scratch(|kept| bracketed_middles(xs, kept))
}

/// The two middle values of a lane and its valid count.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Middles<T> {
    /// How many of the lane's values are not NaN.
    pub(crate) valid: usize,
    /// The valid values' order statistic `(valid − 1) / 2`.
    pub(crate) lower: T,
    /// The valid values' order statistic `valid / 2` (`lower` for odd `valid`).
    pub(crate) upper: T,
}

/// The valid count and two middle values of `xs` (NaN allowed), by one
/// bracketing pass (two on a miss); `kept` is scratch. `None` when the lane
/// is shorter than [`MIN_SAMPLED_LANE`], more than half the sample is NaN,
/// the type or CPU has no SIMD pass, or both brackets missed: the caller
/// then copies the lane.
pub(crate) fn bracketed_middles<T: SelectFloat>(xs: &[T], kept: &mut Vec<T>) -> Option<Middles<T>> {
    let middle_ranks = |valid: usize| Some(((valid.max(1) - 1) / 2, valid / 2));
    bracketed_pair(xs, 0.5, middle_ranks, kept)
}

/// [`bracketed_pair`] with this thread's scratch vector; `None` at once
/// where the SIMD pass is missing.
pub(crate) fn pair_by_bracket<T: SelectFloat>(
    xs: &[T],
    share: f64,
    ranks_of: impl Fn(usize) -> Option<(usize, usize)>,
) -> Option<Middles<T>> {
    if !T::simd_available() {
        return None;
    }
    T::with_thread_scratch(|kept| bracketed_pair(xs, share, ranks_of, kept))
}

/// The valid count of `xs` (NaN allowed) and the values of two adjacent
/// ranks of its valid values, `k` and `k_up` (`k` or `k + 1`), which
/// `ranks_of(valid)` gives (`None`: none wanted; this answers `None`),
/// by the bracketing pass [`bracketed_middles`] makes for the median: its
/// bracket is centred on the sample's value at `share` (in `[0, 1]`) of
/// its valid values, about `k / valid` (a quantile's `q`). `lower` and
/// `upper` of the answer are the values of ranks `k` and `k_up`. `None`
/// where the caller must copy the lane (as [`bracketed_middles`]).
pub(crate) fn bracketed_pair<T: SelectFloat>(
    xs: &[T],
    share: f64,
    ranks_of: impl Fn(usize) -> Option<(usize, usize)>,
    kept: &mut Vec<T>,
) -> Option<Middles<T>> {
    let n = xs.len();
    if n < MIN_SAMPLED_LANE {
        return None;
    }
    // The sample: value `step/2 + j·step` for each `j`, NaN dropped.
    // (a float square root: `usize::isqrt` is a software loop)
    let len = if n < MIN_SAMPLE * MIN_SAMPLE {
        NETWORK_SAMPLE
    } else {
        ((n as f64).sqrt() as usize).clamp(MIN_SAMPLE, MAX_SAMPLE)
    };
    let step = n / len;
    // Two copies, one for each selection (which leaves its slice scrambled;
    // the network reads `first` only).
    let mut first = [MaybeUninit::<T>::uninit(); MAX_SAMPLE];
    let mut second = [MaybeUninit::<T>::uninit(); MAX_SAMPLE];
    let mut s = 0;
    for x in xs.iter().skip(step / 2).step_by(step).take(len) {
        first[s].write(*x);
        second[s].write(*x);
        s += !x.is_nan_value() as usize;
    }
    if s < len / 2 {
        return None;
    }
    // SAFETY: the first `s` slots of both were written (`s ≤ len ≤ MAX_SAMPLE`).
    let (first, second) = unsafe {
        (
            std::slice::from_raw_parts_mut(first.as_mut_ptr().cast::<T>(), s),
            std::slice::from_raw_parts_mut(second.as_mut_ptr().cast::<T>(), s),
        )
    };
    // The count of sample values below the median is Binomial(s, 1/2):
    // standard deviation √s / 2. The bracket spans two of them each side,
    // plus one rank (a miss costs a second pass; a wider bracket keeps
    // more values, and skewed ones interpolate worse in `narrow_window`:
    // with 32 of 1,000 normal f64 values sampled, 3 deviations measured
    // slower than 2).
    // (For another share the count is Binomial(s, share), narrower; the
    // same bracket keeps its margin.) Beyond either end of the sample the
    // bracket reaches to the infinities.
    let center = ((s as f64 * share.clamp(0.0, 1.0)) as usize).min(s - 1);
    let half_width = (s as f64).sqrt() as usize + 1;
    let (a, b) = (center.checked_sub(half_width), center + half_width);
    let (below_all, above_all) = (
        T::from_f64_nearest(f64::NEG_INFINITY),
        T::from_f64_nearest(f64::INFINITY),
    );
    let (lo, hi) = if len == NETWORK_SAMPLE {
        let sorted = padded_sorted::<T, NETWORK_SAMPLE>(first);
        let lo = a.map_or(below_all, |a| sorted[a]);
        (lo, if b < s { sorted[b] } else { above_all })
    } else {
        let hi = if b < s {
            nth_and_next(first, b)?.0
        } else {
            above_all
        };
        let lo = match a {
            Some(a) => nth_and_next(second, a)?.0,
            None => below_all,
        };
        (lo, hi)
    };
    // Room for the window and, behind it, the narrower window of
    // `narrow_window`: `n + COPY_SLACK` values each.
    kept.clear();
    kept.reserve(2 * (n + COPY_SLACK));
    let (window_slots, narrow_slots) = kept.spare_capacity_mut().split_at_mut(n + COPY_SLACK);
    let (mut below, mut valid) = ([0usize; 1], 0usize);
    let mut inside = keep_between(xs, &[lo], &[hi], &mut below, Some(&mut valid), window_slots)?;
    if valid == 0 {
        return None;
    }
    let (lower_rank, upper_rank) = ranks_of(valid)?;
    if upper_rank >= valid || upper_rank < lower_rank || upper_rank > lower_rank + 1 {
        return None;
    }
    let (mut lo, mut hi) = (lo, hi);
    if lower_rank < below[0] || upper_rank >= below[0] + inside {
        // A miss: one more pass, its bracket extrapolated from the counts
        // at the sample's ends (a second miss copies the lane; so does a
        // miss of a bracket with an infinite end: nothing to extrapolate).
        if !(lo.to_f64_exact().is_finite() && hi.to_f64_exact().is_finite()) {
            return None;
        }
        let counted = |below: usize| below.min(valid);
        (lo, hi) = interpolated_bracket(
            (lo.to_f64_exact(), counted(below[0])),
            (hi.to_f64_exact(), counted(below[0] + inside)),
            lower_rank,
            upper_rank,
            1,
        );
        below = [0];
        inside = keep_between(xs, &[lo], &[hi], &mut below, Some(&mut 0), window_slots)?;
        if lower_rank < below[0] || upper_rank >= below[0] + inside {
            return None;
        }
    }
    let below = below[0];
    // SAFETY: `keep_between` wrote the first `inside` slots.
    let window = unsafe { written(window_slots, inside) };
    let (lower, upper) = narrow_window(
        window,
        narrow_slots,
        (lo, hi),
        lower_rank - below,
        upper_rank - below,
    )?;
    Some(Middles {
        valid,
        lower,
        upper,
    })
}

/// The values of ranks `k` and `k_up` (`k` or `k + 1`) of the NaN-free
/// `window`, whose values all lie in `lo..=hi`; `spare` (as long as
/// `window` plus [`COPY_SLACK`]) is scratch. `None` where an order
/// statistic cannot be had this way (the caller copies the lane).
///
/// A long window is narrowed first by one more bracketing pass whose ends
/// are interpolated between `lo` and `hi` ([`interpolated_bracket`]):
/// inside the first bracket, a narrow slice of the lane's distribution, the
/// values are close to evenly spread, so the value at rank `r` is near
/// `lo + (hi − lo)·r/len`. When a wanted rank falls outside the narrow
/// window (skewed values: about four lanes in five of exponential data;
/// ties; infinities) the pass's own counts give a closer pair of points for
/// a second guess, and after [`NARROW_TRIES`] misses the selection runs on
/// the whole window: only the time depends on the guesses, never the
/// result. (Per median of 1,000 `f64` values with 10% NaN it measured
/// faster on uniform and normal values and no slower on exponential ones.)
fn narrow_window<T: SelectFloat>(
    window: &mut [T],
    spare: &mut [MaybeUninit<T>],
    (lo, hi): (T, T),
    k: usize,
    k_up: usize,
) -> Option<(T, T)> {
    let len = window.len();
    // An infinite end (a bracket reaching beyond the sample, or infinite
    // values) gives nothing to interpolate from: the window's own least or
    // greatest value is a point of its counting function too.
    let finite = |x: T| x.to_f64_exact().is_finite();
    let lo = if finite(lo) { lo } else { least(window)? };
    let hi = if finite(hi) {
        hi
    } else {
        extreme(window, |x, best| x > best)?
    };
    if len >= MIN_NARROWED && finite(lo) && finite(hi) {
        // Two points of the window's counting function: a value and how
        // many values lie below it (or, at the top, up to it); the wanted
        // ranks lie between them.
        let (mut from, mut to) = ((lo.to_f64_exact(), 0usize), (hi.to_f64_exact(), len));
        for attempt in 0..NARROW_TRIES {
            let (lo2, hi2) = interpolated_bracket(from, to, k, k_up, attempt);
            let mut below = [0usize; 1];
            let inside = keep_between(window, &[lo2], &[hi2], &mut below, None, spare)?;
            let below = below[0];
            if below <= k && k_up < below + inside {
                // SAFETY: `keep_between` wrote the first `inside` slots.
                let narrow = unsafe { written(spare, inside) };
                return middle_pair(narrow, k - below, k_up - below);
            }
            // The pass counted the values below `lo2` and up to `hi2`: the
            // next guess interpolates between the nearer of them and the
            // old end on the wanted ranks' side.
            if k < below {
                to = (lo2.to_f64_exact(), below);
            } else if k >= below + inside {
                from = (hi2.to_f64_exact(), below + inside);
            } else {
                break; // the bracket split the two ranks
            }
        }
    }
    middle_pair(window, k, k_up)
}

/// The ends of a bracket around ranks `k` and `k_up` by linear
/// interpolation between two points `(value, count)` of a window's counting
/// function, `margin` ranks outside them: `√count + 1`, for the rank of a
/// value among `count` evenly spread values varies by `√count / 2`, doubled
/// on a retry (whose first guess was off).
fn interpolated_bracket<T: SelectFloat>(
    (from, below_from): (f64, usize),
    (to, below_to): (f64, usize),
    k: usize,
    k_up: usize,
    attempt: usize,
) -> (T, T) {
    let count = below_to.saturating_sub(below_from).max(1) as f64;
    let margin = (1 + attempt) as f64 * count.sqrt() + 1.0;
    let spread = (to - from) / count;
    let at = |rank: f64| T::from_f64_nearest(from + spread * (rank - below_from as f64));
    (at(k as f64 - margin), at(k_up as f64 + 1.0 + margin))
}

/// Ranks `k` and `k_up` (`k` or `k + 1`, both in `values`) of the NaN-free
/// `values`, by [`nth_and_next`] or, for a window too long for it, an
/// in-place selection.
fn middle_pair<T: SelectFloat>(values: &mut [T], k: usize, k_up: usize) -> Option<(T, T)> {
    let (lower, next) = match nth_and_next(values, k) {
        Some(pair) => pair,
        None => {
            let (_, &mut lower, right) = select_nth(values, k);
            (lower, least(right))
        }
    };
    let upper = if k_up == k { lower } else { next? };
    Some((lower, upper))
}

/// The first `count` slots of `slots` as values.
///
/// # Safety
/// The first `count` slots were written.
unsafe fn written<T>(slots: &mut [MaybeUninit<T>], count: usize) -> &mut [T] {
    let slots = &mut slots[..count];
    // SAFETY: written (the caller's promise); `MaybeUninit<T>` has `T`'s layout.
    unsafe { std::slice::from_raw_parts_mut(slots.as_mut_ptr().cast::<T>(), count) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::element::SelectSealed as Sealed;

    /// The middles by sorting a copy.
    fn sorted_middles(xs: &[f64]) -> Option<Middles<f64>> {
        let mut v: Vec<f64> = xs.iter().copied().filter(|x| !x.is_nan()).collect();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        (n > 0).then(|| Middles {
            valid: n,
            lower: v[(n - 1) / 2],
            upper: v[n / 2],
        })
    }

    fn xorshift(x: &mut u64) -> u64 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }

    #[test]
    fn middles_equal_a_sort_or_decline() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut kept = Vec::new();
        let mut kept32 = Vec::new();
        let mut answered = 0;
        for n in [
            255, 256, 257, 300, 999, 1000, 1001, 1023, 1024, 4096, 70_000,
        ] {
            for round in 0..45 {
                let mut unit = || (xorshift(&mut x) >> 11) as f64 / (1u64 << 53) as f64;
                let xs: Vec<f64> = (0..n)
                    .map(|i| match round % 9 {
                        // uniform with 10% NaN
                        0 => match (unit() * 10.0) as u32 {
                            0 => f64::NAN,
                            r => (unit() * 1000.0).floor() + r as f64 / 10.0,
                        },
                        // few distinct values (ties across the bracket ends)
                        1 => (unit() * 3.0).floor(),
                        // sorted, then reversed
                        2 => i as f64,
                        3 => (n - i) as f64,
                        // ±0 and ±inf among NaN runs
                        4 => [0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 1.0]
                            [(unit() * 6.0) as usize],
                        // skewed (exponential): the interpolated brackets miss
                        5 => -(1.0 - unit()).ln(),
                        // two clusters: the median falls in the gap
                        6 => (unit() < 0.5) as u8 as f64 * 1e6 + unit(),
                        // one value nine times in ten
                        7 => {
                            if unit() < 0.9 {
                                5.0
                            } else {
                                unit() * 10.0
                            }
                        }
                        // magnitudes whose differences overflow
                        _ => (unit() - 0.5) * f64::MAX,
                    })
                    .collect();
                let xs32: Vec<f32> = xs.iter().map(|&v| v as f32).collect();
                let widened: Vec<f64> = xs32.iter().map(|&v| v as f64).collect();
                let cases = [
                    (bracketed_middles(&xs, &mut kept), sorted_middles(&xs)),
                    (
                        bracketed_middles(&xs32, &mut kept32).map(|m| Middles {
                            valid: m.valid,
                            lower: m.lower as f64,
                            upper: m.upper as f64,
                        }),
                        sorted_middles(&widened),
                    ),
                ];
                for (got, want) in cases {
                    if n < MIN_SAMPLED_LANE {
                        assert_eq!(got, None);
                    }
                    if let Some(got) = got {
                        answered += 1;
                        let want = want.expect("a sampled lane has values");
                        assert_eq!(got.valid, want.valid, "n {n} round {round}");
                        // equal as numbers: which of -0.0 and 0.0 is picked is free
                        assert!(got.lower == want.lower, "n {n} round {round}");
                        assert!(got.upper == want.upper, "n {n} round {round}");
                    }
                }
            }
        }
        // With AVX-512 most lanes are answered; without it, none.
        if f64::simd_available() {
            assert!(answered > 600, "answered {answered}");
        }
    }

    #[test]
    fn a_lane_of_mostly_nan_is_declined() {
        let xs: Vec<f32> = (0..1000)
            .map(|i| if i % 4 == 0 { i as f32 } else { f32::NAN })
            .collect();
        assert_eq!(bracketed_middles(&xs, &mut Vec::new()), None);
    }
}
