//! The partition step of selection and the copies of order statistics,
//! for any [`SelectFloat`]: by the type's SIMD kernels where it has them
//! (`crate::simd::compress`, reached through `SelectFloat`'s sealed methods),
//! by a branch-free scalar pass otherwise. Both give the same result up to
//! the order inside each side.

use core::mem::MaybeUninit;

use crate::element::SelectFloat;
use crate::simd::compress::{partition_scalar, COPY_SLACK};

/// Moves the values `x < pivot` (`x <= pivot` when `INCLUSIVE`) of the
/// NaN-free `w` to its front; returns how many there are. The rest follow
/// them; the order inside each side is unspecified.
#[inline]
pub(crate) fn partition<T: SelectFloat, const INCLUSIVE: bool>(w: &mut [T], pivot: T) -> usize {
    match T::partition_simd::<INCLUSIVE>(w, pivot) {
        Some(left) => left,
        None => partition_scalar(w, |x| if INCLUSIVE { x <= pivot } else { x < pivot }),
    }
}

/// Writes the non-NaN values of `src` to the front of `dst`, in order, by
/// SIMD where the type and CPU have it; returns how many, or `None` when the
/// caller must copy value by value (no SIMD version, or `dst` shorter than
/// `src.len() + COPY_SLACK`).
#[inline]
pub(crate) fn copy_valid<T: SelectFloat>(src: &[T], dst: &mut [MaybeUninit<T>]) -> Option<usize> {
    if dst.len() < src.len() + COPY_SLACK {
        return None;
    }
    T::copy_valid_simd(src, dst)
}

/// One block of a bracketing pass: adds, for each bracket `lo[i]..=hi[i]`,
/// the values of `block` below `lo[i]` to `below[i]` and, when `valid` is
/// given, the non-NaN values to it (`None` for a block known to be NaN-free:
/// the pass is then cheaper), and writes the values inside some bracket, in
/// order, to the front of `dst`; returns how many. `None` where there is no
/// SIMD version for the type or CPU, or `dst` is shorter than `block.len() +
/// COPY_SLACK`: the caller then scans by value.
#[inline]
pub(crate) fn keep_between<T: SelectFloat, const K: usize>(
    block: &[T],
    lo: &[T; K],
    hi: &[T; K],
    below: &mut [usize; K],
    valid: Option<&mut usize>,
    dst: &mut [MaybeUninit<T>],
) -> Option<usize> {
    if dst.len() < block.len() + COPY_SLACK {
        return None;
    }
    T::keep_between_simd(block, lo, hi, below, valid, dst)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::compress::SIMD_BLOCK;

    /// Checks that `w` is a permutation of `before` whose first `left`
    /// values go left of `pivot` and the others do not.
    fn check<T: SelectFloat>(before: &[T], w: &[T], left: usize, pivot: T, inclusive: bool) {
        let goes_left = |x: T| if inclusive { x <= pivot } else { x < pivot };
        assert!(
            w[..left].iter().all(|&x| goes_left(x)),
            "{before:?} → {w:?}"
        );
        assert!(
            w[left..].iter().all(|&x| !goes_left(x)),
            "{before:?} → {w:?}"
        );
        let bits = |v: &[T]| {
            let mut b: Vec<u64> = v.iter().map(|x| x.to_f64_exact().to_bits()).collect();
            b.sort_unstable();
            b
        };
        assert_eq!(bits(before), bits(w), "not a permutation");
    }

    fn all_lengths<T: SelectFloat>(make: impl Fn(u64) -> T) {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for n in (0..80).chain([255, 256, 257, 1000, 4099, SIMD_BLOCK * 2 + 37]) {
            for round in 0..4 {
                let before: Vec<T> = (0..n)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        make(if round == 0 { x % 3 } else { x % 1000 })
                    })
                    .collect();
                let pivot = before.get(n / 2).copied().unwrap_or(make(1));
                for inclusive in [false, true] {
                    let mut w = before.clone();
                    let left = if inclusive {
                        partition::<T, true>(&mut w, pivot)
                    } else {
                        partition::<T, false>(&mut w, pivot)
                    };
                    check(&before, &w, left, pivot, inclusive);
                    let mut s = before.clone();
                    let scalar =
                        partition_scalar(
                            &mut s,
                            |x| {
                                if inclusive {
                                    x <= pivot
                                } else {
                                    x < pivot
                                }
                            },
                        );
                    assert_eq!(left, scalar, "n {n}");
                }
            }
        }
    }

    /// `copy_valid` against a filter, at every length around the vector
    /// widths, with NaN (quiet, signalling, negative), ±inf and ±0.
    fn copies_the_valid_values<T: SelectFloat>(palette: &[T]) {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for n in (0..70).chain([1000, 1001]) {
            let src: Vec<T> = (0..n)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    palette[(x % palette.len() as u64) as usize]
                })
                .collect();
            let want: Vec<u64> = src
                .iter()
                .filter(|v| !v.is_nan_value())
                .map(|v| v.to_f64_exact().to_bits())
                .collect();
            let mut dst = vec![MaybeUninit::new(palette[0]); n + COPY_SLACK];
            if let Some(end) = copy_valid(&src, &mut dst) {
                // SAFETY: `copy_valid` wrote the first `end` slots (and the
                // buffer was initialised anyway).
                let got: Vec<u64> = dst[..end]
                    .iter()
                    .map(|v| unsafe { v.assume_init() }.to_f64_exact().to_bits())
                    .collect();
                assert_eq!(got, want, "n {n}");
            }
            // too short a destination: no SIMD copy
            assert_eq!(copy_valid(&src, &mut dst[..n]), None);
        }
    }

    #[test]
    fn the_simd_copy_keeps_exactly_the_valid_values_in_order() {
        copies_the_valid_values(&[
            1.5,
            -0.0,
            0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -f64::NAN,
            f64::from_bits(0x7ff0_0000_0000_0001), // signalling NaN
            f64::MAX,
            f64::MIN_POSITIVE / 2.0,
        ]);
        copies_the_valid_values(&[
            1.5f32,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::from_bits(0xff80_0001), // negative signalling NaN
            f32::MIN,
        ]);
    }

    /// `keep_between` against a scalar scan: counts below each bracket and
    /// the kept values in order, for values on the bracket ends, ±0, ±inf,
    /// NaN, empty padding brackets, and lengths around the vector widths;
    /// with the valid values counted, and without on the block less its NaN.
    fn keeps_what_a_scan_keeps<T: SelectFloat, const K: usize>(
        palette: &[T],
        lo: [T; K],
        hi: [T; K],
    ) {
        let mut x = 0x853c_49e6_748f_ea9bu64;
        for n in (0..40).chain([4096]) {
            let block: Vec<T> = (0..n)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    palette[(x % palette.len() as u64) as usize]
                })
                .collect();
            let nan_free: Vec<T> = block
                .iter()
                .copied()
                .filter(|v| !v.is_nan_value())
                .collect();
            for (block, count_valid) in [(&block, true), (&nan_free, false)] {
                let mut want_below = [0usize; K];
                let mut want = Vec::new();
                let want_valid = block.iter().filter(|v| !v.is_nan_value()).count();
                for &v in block {
                    for i in 0..K {
                        want_below[i] += (v < lo[i]) as usize;
                    }
                    if (0..K).any(|i| v >= lo[i] && v <= hi[i]) {
                        want.push(v.to_f64_exact().to_bits());
                    }
                }
                let (mut below, mut valid) = ([7usize; K], 3usize);
                let mut dst = vec![MaybeUninit::new(palette[0]); n + COPY_SLACK];
                let counted = count_valid.then_some(&mut valid);
                if let Some(end) = keep_between(block, &lo, &hi, &mut below, counted, &mut dst) {
                    // SAFETY: the buffer was initialised.
                    let got: Vec<u64> = dst[..end]
                        .iter()
                        .map(|v| unsafe { v.assume_init() }.to_f64_exact().to_bits())
                        .collect();
                    assert_eq!(got, want, "n {n}");
                    let want_below = want_below.map(|b| b + 7);
                    assert_eq!(below, want_below, "n {n}");
                    let want_valid = if count_valid { want_valid + 3 } else { 3 };
                    assert_eq!(valid, want_valid, "n {n}");
                }
            }
        }
    }

    #[test]
    fn the_simd_bracket_scan_counts_and_keeps_as_a_plain_scan() {
        let f64s = [
            -2.0,
            -1.0,
            -0.0,
            0.0,
            0.5,
            1.0,
            3.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        keeps_what_a_scan_keeps(&f64s, [-0.0], [1.0]);
        keeps_what_a_scan_keeps(&f64s, [-2.0, 1.0], [-1.0, 3.0]);
        let inf = f64::INFINITY;
        keeps_what_a_scan_keeps(&f64s, [-inf, 0.5, 3.0, inf], [-2.0, 0.5, inf, -inf]);
        let f32s = [-2.0f32, -0.0, 0.0, 1.0, 3.0, f32::INFINITY, f32::NAN];
        keeps_what_a_scan_keeps(&f32s, [0.0], [1.0]);
        let (a, b) = (
            [-2.0f32, 0.0, 1.0, 3.0, 9.0, 9.0, 9.0, 9.0],
            [-2.0f32, 0.5, 1.0, 9.0, 1.0, 1.0, 1.0, 1.0],
        );
        keeps_what_a_scan_keeps(&f32s, a, b);
    }

    #[test]
    fn every_length_is_partitioned_as_the_scalar_pass_counts() {
        all_lengths(|k| k as f64 - 500.0);
        all_lengths(|k| k as f32 * 0.25);
        all_lengths(|k| half::f16::from_f32(k as f32));
        all_lengths(|k| [0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY][k as usize % 4]);
    }
}
