//! Two adjacent order statistics of a short window by quickselect rounds
//! that never copy back.
//!
//! [`super::nth::select_nth`] partitions in place: its SIMD step stores the
//! right values in a spare buffer and copies them back behind the left
//! ones. On the short windows of a 1,000-value median that copy (a `memmove`
//! call) took 11% of the samples in `perf`, likely because it reads vectors
//! the step stored a moment before at other offsets, which store
//! forwarding cannot serve. Here each round leaves the right values where
//! they were stored: the left values go to the front of the window's home in
//! the caller's slice, the right values to the front of a stack buffer, and
//! the next round reads whichever side holds the wanted rank. The caller
//! gets the two values, not a partitioned slice.

use core::mem::MaybeUninit;

use super::nth::{choose_pivot, least, padded_sorted, select_nth};
use crate::element::SelectFloat;
use crate::simd::compress::COPY_SLACK;

/// Windows this short are sorted by the 8-input network (one more
/// partition of a 9- to 16-value window costs less than the 16-input one).
const FINAL: usize = 8;

/// Longest window taken (the stack buffer holds as many values, 4 KB of
/// `f64`, plus a vector of slack).
pub(crate) const MAX_APART: usize = 512;

/// The `k`-th smallest value of the NaN-free `values` and the next one up
/// (the `k + 1`-th; `None` when `k` is the last rank), or `None` when the
/// window is longer than [`MAX_APART`] or the type or CPU has no SIMD
/// partition (the caller then selects in place). `values` is scratch: its
/// contents afterwards are unspecified (no longer a permutation).
///
/// # Panics
/// If `k >= values.len()`.
pub(crate) fn nth_and_next<T: SelectFloat>(values: &mut [T], k: usize) -> Option<(T, Option<T>)> {
    let n = values.len();
    assert!(k < n, "nth_and_next: rank {k} out of {n}");
    if n > MAX_APART || !T::simd_available() {
        return None;
    }
    let mut spare = [MaybeUninit::<T>::uninit(); MAX_APART + COPY_SLACK];
    let (home, sp) = (values.as_mut_ptr(), spare.as_mut_ptr().cast::<T>());
    // The window holds ranks `l..r`; its values are at `home + l` or, after
    // a round that kept the right side, at the front of `spare`.
    let (mut l, mut r, mut in_spare) = (0usize, n, false);
    // The least value above the window (the pivot of the last round that
    // kept the left side: it went right, and everything right of it is
    // at least as large), or `None` while nothing above was discarded.
    let mut above: Option<T> = None;
    let mut rounds = 4 * (usize::BITS - n.leading_zeros()) + 8;
    while r - l > FINAL {
        let len = r - l;
        let src = if in_spare { sp } else { home.wrapping_add(l) };
        // SAFETY: the window's `len` values were written at `src` (the
        // caller's slice, or the spare slots the last round stored).
        let window = unsafe { std::slice::from_raw_parts_mut(src, len) };
        if rounds == 0 {
            // adversarial input: the standard library's introselect
            let (_, &mut nth, right) = select_nth(window, k - l);
            let next = if k + 1 < r { least(right) } else { above };
            return Some((nth, next));
        }
        rounds -= 1;
        let pivot = choose_pivot(window);
        // SAFETY: SIMD is available (checked above); `src` holds `len`
        // values; the left values go to `home + l`, which is `src` or (when
        // `src` is the spare) disjoint from it, with `len` slots; the right
        // ones go to the spare, which is `src` or disjoint from it, with
        // `len + COPY_SLACK` slots.
        let below =
            unsafe { T::partition_apart_simd::<false>(src, len, home.wrapping_add(l), sp, pivot) };
        if k < l + below {
            (r, in_spare, above) = (l + below, false, Some(pivot));
        } else if below > 0 {
            (l, in_spare) = (l + below, true);
        } else {
            // The pivot is the least value: every value went to the spare.
            // Its copies go left now, the greater values stay in the spare.
            // SAFETY: as above, with `src` the spare.
            let equal = unsafe {
                T::partition_apart_simd::<true>(sp, len, home.wrapping_add(l), sp, pivot)
            };
            if k < l + equal {
                let next = if k + 1 < l + equal {
                    Some(pivot)
                } else if equal < len {
                    // SAFETY: the spare's first `len - equal` slots were
                    // just written with the values above the pivot.
                    least(unsafe { std::slice::from_raw_parts(sp, len - equal) })
                } else {
                    above
                };
                return Some((pivot, next));
            }
            (l, in_spare) = (l + equal, true);
        }
    }
    let len = r - l;
    let src = if in_spare { sp } else { home.wrapping_add(l) };
    // SAFETY: as in the loop.
    let window = unsafe { std::slice::from_raw_parts(src, len) };
    let pick = |sorted: &[T]| {
        let next = if k + 1 < r {
            Some(sorted[k + 1 - l])
        } else {
            above
        };
        (sorted[k - l], next)
    };
    Some(pick(&padded_sorted::<T, FINAL>(window)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xorshift(x: &mut u64) -> u64 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }

    /// Every rank of windows of every length up to `MAX_APART` and beyond,
    /// on random, tied, sorted and reversed values, equals a sort's pair.
    fn pairs_equal_a_sort<T: SelectFloat>(make: impl Fn(u64) -> T) {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for n in (1..=40).chain([63, 64, 65, 200, 511, 512, 513]) {
            for pattern in 0..4 {
                let values: Vec<T> = (0..n as u64)
                    .map(|i| match pattern {
                        0 => make(xorshift(&mut x) % 1000),
                        1 => make(xorshift(&mut x) % 3),
                        2 => make(i),
                        _ => make(n as u64 - i),
                    })
                    .collect();
                let mut sorted = values.clone();
                sorted.sort_by(crate::element::ascending);
                for k in 0..n {
                    let mut scratch = values.clone();
                    let got = nth_and_next(&mut scratch, k);
                    if n > MAX_APART || !T::simd_available() {
                        assert!(got.is_none());
                        continue;
                    }
                    let (nth, next) = got.expect("a short window with SIMD");
                    assert!(nth == sorted[k], "n {n} pattern {pattern} k {k}");
                    assert_eq!(next.is_some(), k + 1 < n, "n {n} k {k}");
                    if let Some(next) = next {
                        assert!(next == sorted[k + 1], "n {n} pattern {pattern} k {k}");
                    }
                }
            }
        }
    }

    #[test]
    fn nth_and_next_equal_a_sort_f64() {
        pairs_equal_a_sort(|v| v as f64 - 500.0);
    }

    #[test]
    fn nth_and_next_equal_a_sort_f32() {
        pairs_equal_a_sort(|v| v as f32 * 0.5);
    }

    #[test]
    fn types_without_simd_decline() {
        let mut values = [half::f16::from_f32(1.0); 20];
        assert_eq!(nth_and_next(&mut values, 3), None);
    }
}
