//! The [`Element`] trait: one sealed trait for every type nanops reduces.

use super::accumulate::FloatAcc;
use super::factor::Factor;
use std::fmt::Debug;

pub(crate) mod sealed {
    pub trait Sealed {}
}

/// A type nanops can reduce. Sealed: see the [module docs](crate::element).
///
/// ```
/// use nanops::Element;
/// assert!(f64::NAN.is_nan_value());
/// assert!(!Element::is_nan_value(3_i32));
/// assert_eq!(<f32 as Element>::to_acc(1.5_f32), 1.5_f64);
/// ```
pub trait Element:
    Copy + Default + Send + Sync + Debug + PartialEq + 'static + sealed::Sealed
{
    /// Accumulator of sums and products (products exact in class: [`Factor`]).
    type Acc: Factor;
    /// Type of `nansum`/`nanprod`/`nancumsum` results (NumPy's result dtype).
    type Sum: Copy + Default + Send + Sync + Debug + 'static;
    /// Arithmetic type of means and variances.
    type Float: FloatAcc;
    /// Type of `nanmean` results.
    type Mean: Copy + Default + Send + Sync + Debug + 'static;
    /// Type of `nanvar`/`nanstd` results (real, also for complex input).
    type Var: Copy + Default + Send + Sync + Debug + 'static;
    /// Whether a value of this type can be NaN at all.
    const CAN_BE_NAN: bool;
    /// The machine epsilon of [`Var`](Element::Var), as `f64` (where
    /// scipy's degenerate-moment rule of `nanskew`/`nankurt` applies).
    const VAR_EPSILON: f64;
    /// True for NaN (complex: either part NaN).
    fn is_nan_value(self) -> bool;
    /// Widens to the accumulator type.
    fn to_acc(self) -> Self::Acc;
    /// Converts to the floating type of means and variances.
    fn to_float(self) -> Self::Float;
    /// [`to_acc`](Element::to_acc), NaN as zero: a value that comes alone
    /// enters a sum with no branch on NaN (a branch taken at random where
    /// NaN is scattered).
    #[inline(always)]
    fn to_acc_nan_zero(self) -> Self::Acc {
        if self.is_nan_value() {
            <Self::Acc as super::accumulate::Accumulator>::zero()
        } else {
            self.to_acc()
        }
    }
    /// [`to_float`](Element::to_float), NaN as zero (a mean's value that
    /// comes alone, as [`to_acc_nan_zero`](Element::to_acc_nan_zero)).
    #[inline(always)]
    fn to_float_nan_zero(self) -> Self::Float {
        if self.is_nan_value() {
            <Self::Float as super::accumulate::Accumulator>::zero()
        } else {
            self.to_float()
        }
    }
    /// Rounds an accumulated sum or product to the result type.
    fn sum_from_acc(acc: Self::Acc) -> Self::Sum;
    /// Rounds a mean to the result type.
    fn mean_from_float(x: Self::Float) -> Self::Mean;
    /// Rounds a variance to the result type.
    fn var_from_real(x: <Self::Float as FloatAcc>::Real) -> Self::Var;
    /// A standard deviation from an unrounded variance. `f32`/`f64` take the
    /// square root of the variance rounded to the result type, as NumPy's
    /// `nanstd` does; `f16` takes it in `f32` and rounds once (rounding a
    /// subnormal `f16` variance first would lose most of its digits).
    fn std_from_real(x: <Self::Float as FloatAcc>::Real) -> Self::Var;
    /// `self < other` in NumPy's order (complex: lexicographic). Never true with NaN.
    fn less(self, other: Self) -> bool;
    /// The NaN of this type (integers, which have none: zero, never observed
    /// because their slices cannot be all-NaN and empty slices are errors).
    fn nan() -> Self;
    /// Whether reductions give short lanes (at most 16 values, many outputs)
    /// a kernel per lane length (`Reducer::short_state`) rather than
    /// transposing them into the rows kernel: `f32` and `f64` only. For the
    /// other types those sixteen kernels per reducer (and per instruction
    /// set, for `f16`) cost more build time than the short-lane calls of
    /// those types are worth.
    #[doc(hidden)]
    const SHORT_LANE_KERNELS: bool = false;
    /// The sum in [`Acc`](Element::Acc) of the values of `window[..len]`
    /// that are not NaN, added as the reduce family adds a short lane of
    /// `L` values (the values past `len` as NaN), and their count, where
    /// this type has a vector kernel for windows of `L` on this CPU (`f32`
    /// and `f64`, 16 values, AVX-512: `simd::window`); otherwise `None`.
    #[doc(hidden)]
    #[inline(always)]
    fn window_acc_sum<const L: usize>(
        _window: &[Self; L],
        _len: usize,
    ) -> Option<(Self::Acc, u32)> {
        None
    }
    /// [`window_acc_sum`](Element::window_acc_sum) in
    /// [`Float`](Element::Float), the type of a mean's sum.
    #[doc(hidden)]
    #[inline(always)]
    fn window_float_sum<const L: usize>(
        _window: &[Self; L],
        _len: usize,
    ) -> Option<(Self::Float, u32)> {
        None
    }
    /// Runs a hot loop over values of this type. Real floating types run it
    /// compiled for the best instruction set of the CPU (see `simd::dispatch`);
    /// complex, integers and `bool` run it as compiled (rare enough not to
    /// be worth three copies of every loop in build time and code size).
    #[doc(hidden)]
    #[inline(always)]
    fn dispatch<T>(f: impl FnOnce() -> T) -> T {
        f()
    }
}
