//! The float types order statistics select in, and their exact NumPy rounding rules.

use core::cmp::Ordering;
use core::fmt::Debug;
use core::ops::{Add, Mul, Sub};

use half::{bf16, f16};

/// Most values a thread keeps in its scratch vector between calls (512 KB
/// of `f64`; see `Sealed::with_thread_scratch`).
pub(crate) const MAX_SCRATCH: usize = 1 << 16;

/// The seal of [`SelectFloat`], which also carries the per-type fast path of
/// the partition step (out of the public trait's reach).
pub(crate) mod sealed {
    use core::mem::MaybeUninit;

    use crate::simd::compress::{f32s, f64s};

    pub trait Sealed: Sized {
        /// `order::select::partition` by SIMD: `None` where
        /// this type or CPU has none (the scalar pass runs instead).
        #[inline]
        fn partition_simd<const INCLUSIVE: bool>(_w: &mut [Self], _pivot: Self) -> Option<usize> {
            None
        }

        /// `order::select::copy_valid` by SIMD (`dst` has
        /// `simd::compress::COPY_SLACK` slots more than `src`);
        /// `None` where this type or CPU has none.
        #[inline]
        fn copy_valid_simd(_src: &[Self], _dst: &mut [MaybeUninit<Self>]) -> Option<usize> {
            None
        }

        /// `order::select::keep_between` by SIMD (`dst` has the
        /// slack); `None` where this type or CPU has none.
        #[inline]
        fn keep_between_simd<const K: usize>(
            _block: &[Self],
            _lo: &[Self; K],
            _hi: &[Self; K],
            _below: &mut [usize; K],
            _valid: Option<&mut usize>,
            _dst: &mut [MaybeUninit<Self>],
        ) -> Option<usize> {
            None
        }

        /// `order::select::apart`'s partition step by SIMD: the values
        /// of `src` that go left of `pivot` to `left_dst`, the others to
        /// `right_dst`; returns the left count.
        ///
        /// # Safety
        /// [`Sealed::simd_available`] answered `true` (the default panics);
        /// `src` is readable for `n` values; each destination is `src` or
        /// disjoint from it, `left_dst` writable for `n` values and
        /// `right_dst` for `n + COPY_SLACK`.
        #[inline]
        unsafe fn partition_apart_simd<const INCLUSIVE: bool>(
            _src: *const Self,
            _n: usize,
            _left_dst: *mut Self,
            _right_dst: *mut Self,
            _pivot: Self,
        ) -> usize {
            unreachable!("no SIMD partition for this type")
        }

        /// Whether this type's SIMD kernels run on this CPU (the methods
        /// above then answer `Some`).
        #[inline]
        fn simd_available() -> bool {
            false
        }

        /// Runs `f` on a scratch vector: for the types with SIMD kernels,
        /// this thread's own (kept between calls while it holds at most
        /// [`super::MAX_SCRATCH`] values), else a new one.
        #[inline]
        fn with_thread_scratch<R>(f: impl FnOnce(&mut Vec<Self>) -> R) -> R {
            f(&mut Vec::new())
        }
    }
    /// The SIMD entry points of a type with kernels in `compress::$kernels`.
    macro_rules! sealed_with_simd {
        ($t:ty, $kernels:ident) => {
            impl Sealed for $t {
                #[inline]
                fn partition_simd<const INCLUSIVE: bool>(w: &mut [$t], pivot: $t) -> Option<usize> {
                    $kernels::partition::<INCLUSIVE>(w, pivot)
                }

                #[inline]
                fn copy_valid_simd(src: &[$t], dst: &mut [MaybeUninit<$t>]) -> Option<usize> {
                    $kernels::copy_valid(src, dst)
                }

                #[inline]
                fn keep_between_simd<const K: usize>(
                    block: &[$t],
                    lo: &[$t; K],
                    hi: &[$t; K],
                    below: &mut [usize; K],
                    valid: Option<&mut usize>,
                    dst: &mut [MaybeUninit<$t>],
                ) -> Option<usize> {
                    $kernels::keep_between(block, lo, hi, below, valid, dst)
                }

                #[inline]
                unsafe fn partition_apart_simd<const INCLUSIVE: bool>(
                    src: *const $t,
                    n: usize,
                    left_dst: *mut $t,
                    right_dst: *mut $t,
                    pivot: $t,
                ) -> usize {
                    #[cfg(target_arch = "x86_64")]
                    // SAFETY: the caller's contract is the kernel's
                    // (`COPY_SLACK` covers a vector of either type).
                    return unsafe {
                        $kernels::avx512::partition_apart::<INCLUSIVE>(
                            src, n, left_dst, right_dst, pivot,
                        )
                    };
                    #[cfg(not(target_arch = "x86_64"))]
                    unreachable!("no SIMD partition on this architecture")
                }

                #[inline]
                fn simd_available() -> bool {
                    $kernels::available()
                }

                #[inline]
                fn with_thread_scratch<R>(f: impl FnOnce(&mut Vec<$t>) -> R) -> R {
                    use std::cell::Cell;
                    thread_local! {
                        static SCRATCH: Cell<Vec<$t>> = const { Cell::new(Vec::new()) };
                    }
                    SCRATCH.with(|cell| {
                        // taken out, so a nested call gets a fresh vector
                        let mut scratch = cell.take();
                        let result = f(&mut scratch);
                        if scratch.capacity() <= super::MAX_SCRATCH {
                            cell.set(scratch);
                        }
                        result
                    })
                }
            }
        };
    }
    sealed_with_simd!(f64, f64s);
    sealed_with_simd!(f32, f32s);
    impl Sealed for half::f16 {}
    impl Sealed for half::bf16 {}
}

/// A float type the selection kernels work on: `f64`, `f32`, [`half::f16`] and [`half::bf16`].
///
/// Arithmetic (`+ - *`) is the type's own, correctly rounded, as in NumPy: `f16` and `bf16`
/// compute in `f32` and round back after every operation, which gives the same bits as a
/// native half-precision operation (`f32` has more than `2p + 2` bits).
///
/// The trait is sealed; its methods have names that do not collide with `num_traits::Float`.
pub trait SelectFloat:
    sealed::Sealed
    + Copy
    + PartialOrd
    + Debug
    + Send
    + Sync
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + 'static
{
    /// A quiet NaN of this type.
    const NAN: Self;

    /// The value as `f64`; exact for every supported type.
    fn to_f64_exact(self) -> f64;

    /// `x` rounded to the nearest value of this type, ties to even, in one step (no double
    /// rounding through `f32`); out-of-range values become `±inf`.
    ///
    /// This is how NumPy converts a Python float to the array's dtype.
    fn from_f64_nearest(x: f64) -> Self;

    /// Whether the value is NaN.
    fn is_nan_value(self) -> bool;

    /// The mean of two values as `np.median` computes it for an even-sized slice, without
    /// its overflow.
    ///
    /// ```text
    /// f64, f32:  (a + b) / 2 in the type            (NumPy: mean of the two middle values)
    ///            a/2 + b/2  when a + b overflows but a and b are finite  (NumPy: ±inf)
    /// f16:       round_f16((f32(a) + f32(b)) / 2)    (np.mean accumulates float16 in float32)
    /// bf16:      round_bf16(f32 rule above)  (no NumPy reference; accumulates in float32)
    /// ```
    fn mean_of_two(a: Self, b: Self) -> Self;
}

impl SelectFloat for f64 {
    const NAN: Self = f64::NAN;

    #[inline]
    fn to_f64_exact(self) -> f64 {
        self
    }

    #[inline]
    fn from_f64_nearest(x: f64) -> Self {
        x
    }

    #[inline]
    fn is_nan_value(self) -> bool {
        self.is_nan()
    }

    #[inline]
    fn mean_of_two(a: Self, b: Self) -> Self {
        let sum = a + b;
        if sum.is_infinite() && a.is_finite() && b.is_finite() {
            // Both halves are exact here (|a|, |b| are far above the subnormal range), so the
            // single rounding of the addition gives the correctly rounded mean.
            a * 0.5 + b * 0.5
        } else {
            sum / 2.0
        }
    }
}

impl SelectFloat for f32 {
    const NAN: Self = f32::NAN;

    #[inline]
    fn to_f64_exact(self) -> f64 {
        f64::from(self)
    }

    #[inline]
    fn from_f64_nearest(x: f64) -> Self {
        // `as` rounds to nearest, ties to even, and saturates to ±inf.
        x as f32
    }

    #[inline]
    fn is_nan_value(self) -> bool {
        self.is_nan()
    }

    #[inline]
    fn mean_of_two(a: Self, b: Self) -> Self {
        let sum = a + b;
        if sum.is_infinite() && a.is_finite() && b.is_finite() {
            a * 0.5 + b * 0.5
        } else {
            sum / 2.0
        }
    }
}

impl SelectFloat for f16 {
    const NAN: Self = f16::NAN;

    #[inline]
    fn to_f64_exact(self) -> f64 {
        self.to_f64()
    }

    #[inline]
    fn from_f64_nearest(x: f64) -> Self {
        // Round to odd into f32, then to nearest into f16: exact single rounding, because
        // f32 keeps more than p + 2 = 13 bits. (`f16::from_f64` may round twice through f32.)
        f16::from_f32(f64_to_f32_round_to_odd(x))
    }

    #[inline]
    fn is_nan_value(self) -> bool {
        self.is_nan()
    }

    #[inline]
    fn mean_of_two(a: Self, b: Self) -> Self {
        f16::from_f32((a.to_f32() + b.to_f32()) / 2.0)
    }
}

impl SelectFloat for bf16 {
    const NAN: Self = bf16::NAN;

    #[inline]
    fn to_f64_exact(self) -> f64 {
        self.to_f64()
    }

    #[inline]
    fn from_f64_nearest(x: f64) -> Self {
        bf16::from_f32(f64_to_f32_round_to_odd(x))
    }

    #[inline]
    fn is_nan_value(self) -> bool {
        self.is_nan()
    }

    #[inline]
    fn mean_of_two(a: Self, b: Self) -> Self {
        // bf16 has f32's exponent range, so the f32 sum can overflow: use the f32 rule.
        bf16::from_f32(f32::mean_of_two(a.to_f32(), b.to_f32()))
    }
}

/// `x` rounded to `f32` with "round to odd": truncate towards zero, and set the last
/// mantissa bit when the result is inexact. A second rounding of this value to a format with
/// at most 22 mantissa bits then equals a direct rounding of `x`.
fn f64_to_f32_round_to_odd(x: f64) -> f32 {
    let nearest = x as f32;
    if !x.is_finite() || f64::from(nearest) == x {
        return nearest;
    }
    let mut bits = nearest.to_bits();
    if f64::from(nearest).abs() > x.abs() {
        // Rounded away from zero (possibly to ±inf): step one ulp back towards zero.
        bits -= 1;
    }
    f32::from_bits(bits | 1)
}

/// The ascending order used by sorting and selection: IEEE `<` (`-0.0 == 0.0`, as NumPy).
///
/// A total preorder only on NaN-free data: every caller checks [`contains_nan`] first (a
/// NaN would make the order inconsistent, and Rust's sort and select routines may panic on
/// an inconsistent order). Plain float comparison keeps pdqsort's partitioning branch-free:
/// measured, it sorts twice as fast as a NaN-aware comparator.
#[inline]
pub(crate) fn ascending<T: SelectFloat>(a: &T, b: &T) -> Ordering {
    a.partial_cmp(b).unwrap_or(Ordering::Equal)
}

/// Whether any value is NaN (one branch-free pass).
pub(crate) fn contains_nan<T: SelectFloat>(values: &[T]) -> bool {
    values.iter().fold(false, |any, x| any | x.is_nan_value())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_rounding_is_single_step() {
        // 1 + 2^-11 + 2^-40 lies just above the midpoint of 1 and 1 + 2^-10: rounding
        // through f32 first lands on the midpoint and then rounds to even (1.0).
        let x = 1.0 + 2f64.powi(-11) + 2f64.powi(-40);
        assert_eq!(
            f16::from_f64_nearest(x),
            f16::from_f64_const(1.0 + 2f64.powi(-10))
        );
        assert_eq!(f16::from_f64_nearest(1.0 + 2f64.powi(-11)), f16::ONE);
        assert_eq!(f16::from_f64_nearest(1e10), f16::INFINITY);
        assert_eq!(f16::from_f64_nearest(-1e10), f16::NEG_INFINITY);
        assert_eq!(f16::from_f64_nearest(65519.99), f16::MAX);
        assert_eq!(f16::from_f64_nearest(65520.0), f16::INFINITY);
        assert!(f16::from_f64_nearest(f64::NAN).is_nan());
        // Subnormal f16 values, and values far below them.
        let tiny = 2f64.powi(-24);
        assert_eq!(f16::from_f64_nearest(tiny), f16::from_bits(1));
        assert_eq!(f16::from_f64_nearest(tiny * 0.5), f16::from_bits(0));
        assert_eq!(
            f16::from_f64_nearest(tiny * 0.5 * (1.0 + 2f64.powi(-40))),
            f16::from_bits(1)
        );
        assert_eq!(f16::from_f64_nearest(-1e-300).to_bits(), 0x8000);
    }

    #[test]
    fn f16_rounding_matches_exhaustive_midpoints() {
        // For every positive finite f16 value v and its successor w, check values just
        // around the midpoint.
        for bits in 0u16..0x7bff {
            let v = f16::from_bits(bits).to_f64();
            let w = f16::from_bits(bits + 1).to_f64();
            let mid = (v + w) / 2.0; // exact in f64
            let even = if bits % 2 == 0 { bits } else { bits + 1 };
            assert_eq!(f16::from_f64_nearest(mid).to_bits(), even);
            let above = mid + (w - v) * 2f64.powi(-30);
            let below = mid - (w - v) * 2f64.powi(-30);
            assert_eq!(f16::from_f64_nearest(above).to_bits(), bits + 1);
            assert_eq!(f16::from_f64_nearest(below).to_bits(), bits);
        }
    }

    #[test]
    fn round_to_odd_properties() {
        assert_eq!(f64_to_f32_round_to_odd(1.0), 1.0);
        let x = 1.0 + 2f64.powi(-30);
        let r = f64_to_f32_round_to_odd(x);
        assert_eq!(r.to_bits(), 1.0f32.to_bits() | 1);
        let r = f64_to_f32_round_to_odd(-x);
        assert_eq!(r.to_bits(), (-1.0f32).to_bits() | 1);
        assert_eq!(f64_to_f32_round_to_odd(1e300), f32::MAX);
        assert_eq!(f64_to_f32_round_to_odd(f64::INFINITY), f32::INFINITY);
        assert_eq!(f64_to_f32_round_to_odd(1e-300).to_bits(), 1);
    }

    #[test]
    fn bf16_rounding() {
        let x = 1.0 + 2f64.powi(-8) + 2f64.powi(-40);
        assert_eq!(
            bf16::from_f64_nearest(x),
            bf16::from_f64_const(1.0 + 2f64.powi(-7))
        );
        assert_eq!(bf16::from_f64_nearest(1.0 + 2f64.powi(-8)), bf16::ONE);
    }

    #[test]
    fn mean_of_two_matches_numpy_and_avoids_overflow() {
        assert_eq!(f64::mean_of_two(1.0, 2.0), 1.5);
        assert_eq!(f64::mean_of_two(1.7e308, 1.7e308), 1.7e308);
        assert_eq!(f64::mean_of_two(-1.7e308, -1.7e308), -1.7e308);
        assert_eq!(f64::mean_of_two(f64::MAX, f64::MAX), f64::MAX);
        assert_eq!(f64::mean_of_two(1.0, f64::INFINITY), f64::INFINITY);
        assert!(f64::mean_of_two(f64::NEG_INFINITY, f64::INFINITY).is_nan());
        assert_eq!(f32::mean_of_two(3.0e38, 3.0e38), 3.0e38);
        assert_eq!(f32::mean_of_two(1.0, 2.0), 1.5);
        let big = f16::MAX;
        assert_eq!(f16::mean_of_two(big, big), big);
        assert_eq!(bf16::mean_of_two(bf16::MAX, bf16::MAX), bf16::MAX);
    }

    #[test]
    fn ascending_order_and_nan_detection() {
        let mut v = [3.0, -1.0, f64::INFINITY, 0.0, f64::NEG_INFINITY];
        v.sort_unstable_by(ascending);
        assert_eq!(v, [f64::NEG_INFINITY, -1.0, 0.0, 3.0, f64::INFINITY]);
        assert_eq!(ascending(&-0.0, &0.0), Ordering::Equal);
        assert!(!contains_nan(&v));
        assert!(contains_nan(&[1.0, f64::NAN]));
        assert!(contains_nan(&[f16::NAN]));
        assert!(!contains_nan::<f32>(&[]));
    }
}
