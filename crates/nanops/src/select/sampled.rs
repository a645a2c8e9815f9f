//! The median of a short contiguous lane from one pass over it: sample,
//! bracket, select.
//!
//! Copying a 1,000-value lane's valid values and selecting its median
//! partitions about twice the lane's length after the copy. Here an evenly
//! spaced sample of about `√n` values ([`MIN_SAMPLE`] to [`MAX_SAMPLE`])
//! gives two values that bracket the median with high probability; one SIMD
//! pass ([`keep_between`]) counts the valid values and those below the
//! bracket and copies only the values inside it (two fifths of 1,000 values,
//! a seventh of 100,000); the median is selected there
//! ([`super::apart::nth_and_next`] where it is short). The same idea
//! for long lanes, with a larger sample and several brackets, is
//! `api::bracket`.
//!
//! A miss (the median's ranks outside the bracket: unlucky or adversarial
//! data, ties) answers `None` and the caller copies the lane as before, so
//! the result never depends on the sample, only the time does.

use core::mem::MaybeUninit;

use super::apart::nth_and_next;
use super::compress::{keep_between, COPY_SLACK};
use super::float::SelectFloat;
use super::kernel::least;
use super::nth::select_nth;

/// Fewest values read for the sample (evenly spaced). A lane of `n` gives
/// about `√n`, so that the sample's two selections cost little beside the
/// pass over the lane while the bracket narrows as the lane grows (1,000
/// `f64` values: 32 sampled measured 0.80–0.87 µs against 0.88–0.94 µs
/// with 64; 100,000 values: 256 sampled 48 µs against 60 µs with 64).
const MIN_SAMPLE: usize = 32;
/// Most values read for the sample.
const MAX_SAMPLE: usize = 256;
/// Shortest lane that is sampled (a shorter one is copied whole).
pub(crate) const MIN_SAMPLED_LANE: usize = 256;

/// Most values a thread keeps in its scratch vector between calls (512 KB
/// of `f64`).
pub(crate) const MAX_SCRATCH: usize = 1 << 16;

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
/// bracketing pass; `kept` is scratch. `None` when the lane is shorter
/// than [`MIN_SAMPLED_LANE`], more than half the sample is NaN, the type or
/// CPU has no SIMD pass, or the bracket missed: the caller then copies the
/// lane.
pub(crate) fn bracketed_middles<T: SelectFloat>(xs: &[T], kept: &mut Vec<T>) -> Option<Middles<T>> {
    let n = xs.len();
    if n < MIN_SAMPLED_LANE {
        return None;
    }
    // The sample: value `step/2 + j·step` for each `j`, NaN dropped.
    // (a float square root: `usize::isqrt` is a software loop)
    let len = ((n as f64).sqrt() as usize).clamp(MIN_SAMPLE, MAX_SAMPLE);
    let step = n / len;
    // Two copies, one for each selection (which leaves its slice scrambled).
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
    // plus one rank (a miss costs a copy; a wider bracket keeps more:
    // 2.5 deviations plus two ranks measured 1.05 µs against 0.98 µs for
    // 1,000 f64 values with a 64-value sample).
    let center = s / 2;
    let half_width = (s as f64).sqrt() as usize + 1;
    let (a, b) = (center - half_width, center + half_width);
    let (hi, _) = nth_and_next(first, b)?;
    let (lo, _) = nth_and_next(second, a)?;
    kept.clear();
    kept.reserve(n + COPY_SLACK);
    let (mut below, mut valid) = ([0usize; 1], 0usize);
    let inside = keep_between(
        xs,
        &[lo],
        &[hi],
        &mut below,
        &mut valid,
        kept.spare_capacity_mut(),
    )?;
    // SAFETY: `keep_between` wrote the first `inside` spare slots.
    unsafe { kept.set_len(inside) };
    let (lower_rank, upper_rank) = ((valid.max(1) - 1) / 2, valid / 2);
    let below = below[0];
    if valid == 0 || lower_rank < below || upper_rank >= below + inside {
        return None;
    }
    let (lower, next) = match nth_and_next(kept, lower_rank - below) {
        Some(pair) => pair,
        None => {
            let (_, &mut lower, right) = select_nth(kept, lower_rank - below);
            (lower, least(right))
        }
    };
    let upper = if upper_rank == lower_rank {
        lower
    } else {
        next?
    };
    Some(Middles {
        valid,
        lower,
        upper,
    })
}

#[cfg(test)]
mod tests {
    use super::super::float::sealed::Sealed;
    use super::*;

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
        let mut answered = 0;
        for n in [255, 256, 257, 300, 999, 1000, 1001, 4096, 70_000] {
            for round in 0..40 {
                let xs: Vec<f64> = (0..n)
                    .map(|i| match round % 5 {
                        // uniform with 10% NaN
                        0 => match xorshift(&mut x) % 10 {
                            0 => f64::NAN,
                            r => (xorshift(&mut x) % 1000) as f64 + r as f64 / 10.0,
                        },
                        // few distinct values (ties across the bracket ends)
                        1 => (xorshift(&mut x) % 3) as f64,
                        // sorted, then reversed
                        2 => i as f64,
                        3 => (n - i) as f64,
                        // ±0 and ±inf among NaN runs
                        _ => [0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 1.0]
                            [(xorshift(&mut x) % 6) as usize],
                    })
                    .collect();
                let got = bracketed_middles(&xs, &mut kept);
                if n < MIN_SAMPLED_LANE {
                    assert_eq!(got, None);
                }
                if let Some(got) = got {
                    answered += 1;
                    let want = sorted_middles(&xs).expect("a sampled lane has values");
                    assert_eq!(got.valid, want.valid, "n {n} round {round}");
                    // equal as numbers: which of -0.0 and 0.0 is picked is free
                    assert!(got.lower == want.lower, "n {n} round {round}");
                    assert!(got.upper == want.upper, "n {n} round {round}");
                }
            }
        }
        // With AVX-512 most lanes are answered; without it, none.
        if f64::simd_available() {
            assert!(answered > 200, "answered {answered}");
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
