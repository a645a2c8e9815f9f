//! Arithmetic of accumulators: compensated addition, Chan-style moments.

use num_complex::Complex;
use num_traits::Float;
use std::fmt::Debug;
use std::ops::{Add, Div, Mul, Sub};

/// A type sums and products are accumulated in.
///
/// Floats add with Neumaier compensation (`comp_add`); integers wrap, as NumPy.
pub trait Accumulator: Copy + Send + Sync + Debug + Default + PartialEq + 'static {
    /// Whether addition is exact (integers wrap but never round): such sums
    /// need no compensation.
    const EXACT: bool;
    /// The type running sums (`nancumsum`) are kept in: `f64` for `f32`
    /// (the accumulator of `f16`/`bf16`, whose plain running sum stops
    /// absorbing small values once it is large; a compensated `f32` pair
    /// still drifts by an `f16` ulp over a million values), `Self` otherwise.
    type Running: Accumulator;
    /// Widens to [`Accumulator::Running`].
    fn to_running(self) -> Self::Running;
    /// Rounds a running sum back.
    fn from_running(r: Self::Running) -> Self;
    /// Additive identity.
    fn zero() -> Self;
    /// Multiplicative identity.
    fn one() -> Self;
    /// `self + other` (wrapping for integers).
    fn add(self, other: Self) -> Self;
    /// `self * other` (wrapping for integers).
    fn mul(self, other: Self) -> Self;
    /// `-self` (wrapping for integers).
    fn neg(self) -> Self;
    /// Adds `x` to the compensated pair `(hi, lo)`; the sum is `hi + lo`.
    ///
    /// ```text
    /// t = hi + x
    /// lo += (hi - t) + x   if |hi| >= |x|
    /// lo += (x - t) + hi   otherwise
    /// hi = t
    /// ```
    fn comp_add(hi: &mut Self, lo: &mut Self, x: Self);
    /// Knuth's branch-free TwoSum: `(t, e)` with `t = self + x` rounded and
    /// `t + e == self + x` exactly (when `t` is finite; `e` may be NaN
    /// otherwise). Integers: `(self + x, 0)`.
    ///
    /// ```text
    /// t = a + x;  b = t − a;  e = (a − (t − b)) + (x − b)
    /// ```
    fn two_sum(self, x: Self) -> (Self, Self);
    /// The compensation `lo` of a pair `(hi, lo)` built with [`two_sum`],
    /// with zero where `hi` is not finite (complex: per part): once a sum
    /// is infinite or NaN its compensation is meaningless (often NaN).
    ///
    /// [`two_sum`]: Accumulator::two_sum
    fn finite_comp(hi: Self, lo: Self) -> Self;
}

macro_rules! int_acc {
    ($($t:ty),*) => {$(
        impl Accumulator for $t {
            const EXACT: bool = true;
            type Running = $t;
            #[inline(always)]
            fn to_running(self) -> $t { self }
            #[inline(always)]
            fn from_running(r: $t) -> Self { r }
            #[inline(always)]
            fn zero() -> Self { 0 }
            #[inline(always)]
            fn one() -> Self { 1 }
            #[inline(always)]
            fn add(self, o: Self) -> Self { self.wrapping_add(o) }
            #[inline(always)]
            fn mul(self, o: Self) -> Self { self.wrapping_mul(o) }
            #[inline(always)]
            fn neg(self) -> Self { self.wrapping_neg() }
            #[inline(always)]
            fn comp_add(hi: &mut Self, _lo: &mut Self, x: Self) { *hi = hi.wrapping_add(x) }
            #[inline(always)]
            fn two_sum(self, x: Self) -> (Self, Self) { (self.wrapping_add(x), 0) }
            #[inline(always)]
            fn finite_comp(_hi: Self, lo: Self) -> Self { lo }
        }
    )*};
}
int_acc!(i64, u64);

#[inline(always)]
fn neumaier<F: Float>(hi: &mut F, lo: &mut F, x: F) {
    let t = *hi + x;
    if hi.abs() >= x.abs() {
        *lo = *lo + ((*hi - t) + x);
    } else {
        *lo = *lo + ((x - t) + *hi);
    }
    *hi = t;
}

#[inline(always)]
fn two_sum<F: Float>(a: F, x: F) -> (F, F) {
    let t = a + x;
    let b = t - a;
    (t, (a - (t - b)) + (x - b))
}

macro_rules! float_acc {
    ($($t:ty),*) => {$(
        impl Accumulator for $t {
            const EXACT: bool = false;
            type Running = f64;
            #[inline(always)]
            fn to_running(self) -> f64 { self as f64 }
            #[inline(always)]
            fn from_running(r: f64) -> Self { r as $t }
            #[inline(always)]
            fn zero() -> Self { 0.0 }
            #[inline(always)]
            fn one() -> Self { 1.0 }
            #[inline(always)]
            fn add(self, o: Self) -> Self { self + o }
            #[inline(always)]
            fn mul(self, o: Self) -> Self { self * o }
            #[inline(always)]
            fn neg(self) -> Self { -self }
            #[inline(always)]
            fn comp_add(hi: &mut Self, lo: &mut Self, x: Self) {
                if x.is_finite() && hi.is_finite() {
                    neumaier(hi, lo, x)
                } else {
                    // inf/NaN: plain IEEE addition; compensation would make NaN of inf - inf.
                    *hi += x;
                }
            }
            #[inline(always)]
            fn two_sum(self, x: Self) -> (Self, Self) { two_sum(self, x) }
            #[inline(always)]
            fn finite_comp(hi: Self, lo: Self) -> Self { if hi.is_finite() { lo } else { 0.0 } }
        }
        impl Accumulator for Complex<$t> {
            const EXACT: bool = false;
            type Running = Complex<f64>;
            #[inline(always)]
            fn to_running(self) -> Complex<f64> { Complex::new(self.re as f64, self.im as f64) }
            #[inline(always)]
            fn from_running(r: Complex<f64>) -> Self { Complex::new(r.re as $t, r.im as $t) }
            #[inline(always)]
            fn zero() -> Self { Complex::new(0.0, 0.0) }
            #[inline(always)]
            fn one() -> Self { Complex::new(1.0, 0.0) }
            #[inline(always)]
            fn add(self, o: Self) -> Self { self + o }
            #[inline(always)]
            fn mul(self, o: Self) -> Self { self * o }
            #[inline(always)]
            fn neg(self) -> Self { -self }
            #[inline(always)]
            fn comp_add(hi: &mut Self, lo: &mut Self, x: Self) {
                <$t>::comp_add(&mut hi.re, &mut lo.re, x.re);
                <$t>::comp_add(&mut hi.im, &mut lo.im, x.im);
            }
            #[inline(always)]
            fn two_sum(self, x: Self) -> (Self, Self) {
                let (re, ere) = two_sum(self.re, x.re);
                let (im, eim) = two_sum(self.im, x.im);
                (Complex::new(re, im), Complex::new(ere, eim))
            }
            #[inline(always)]
            fn finite_comp(hi: Self, lo: Self) -> Self {
                Complex::new(<$t>::finite_comp(hi.re, lo.re), <$t>::finite_comp(hi.im, lo.im))
            }
        }
    )*};
}
float_acc!(f32, f64);

/// A floating type means and variances are computed in: `f32`, `f64` and their complex.
///
/// `Real` is the type of squared magnitudes, so the variance of complex data is real.
pub trait FloatAcc:
    Accumulator + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self>
{
    /// The real type (`Self` for real floats).
    type Real: Float + Accumulator + Debug + Send + Sync;
    /// `|x|²`.
    fn abs2(self) -> Self::Real;
    /// Whether every part is finite (`x·0` is NaN exactly for an infinite or
    /// NaN part; `|x|²` would overflow for finite values above the square
    /// root of the range).
    #[inline(always)]
    fn all_finite(self) -> bool {
        !self
            .scale(<Self::Real as num_traits::Zero>::zero())
            .any_nan()
    }
    /// Multiplies by a real number.
    fn scale(self, r: Self::Real) -> Self;
    /// Divides by a real number.
    fn div_real(self, r: Self::Real) -> Self;
    /// A count as a real number. Counts below 2⁶³ convert as signed
    /// integers, the same value: x86-64 before AVX-512 has no instruction
    /// for unsigned ones (their conversion took five, in the chain of each
    /// value's Welford update).
    fn real_from_u64(n: u64) -> Self::Real;
    /// An `f64` rounded to the real type.
    fn real_from_f64(x: f64) -> Self::Real;
    /// True when either part is NaN.
    fn any_nan(self) -> bool;
    /// `Re(self · conj(other))`: the product of two reals, the dot product of complex parts.
    fn dot_re(self, other: Self) -> Self::Real;
}

macro_rules! float_floatacc {
    ($($t:ty),*) => {$(
        impl FloatAcc for $t {
            type Real = $t;
            #[inline(always)]
            fn abs2(self) -> $t { self * self }
            #[inline(always)]
            fn scale(self, r: $t) -> Self { self * r }
            #[inline(always)]
            fn div_real(self, r: $t) -> Self { self / r }
            #[inline(always)]
            fn real_from_u64(n: u64) -> $t { i64::try_from(n).map_or(n as $t, |n| n as $t) }
            #[inline(always)]
            fn real_from_f64(x: f64) -> $t { x as $t }
            #[inline(always)]
            fn any_nan(self) -> bool { self.is_nan() }
            #[inline(always)]
            fn dot_re(self, o: Self) -> $t { self * o }
        }
        impl FloatAcc for Complex<$t> {
            type Real = $t;
            #[inline(always)]
            fn abs2(self) -> $t { self.re * self.re + self.im * self.im }
            #[inline(always)]
            fn scale(self, r: $t) -> Self { Complex::new(self.re * r, self.im * r) }
            #[inline(always)]
            fn div_real(self, r: $t) -> Self { Complex::new(self.re / r, self.im / r) }
            #[inline(always)]
            fn real_from_u64(n: u64) -> $t { i64::try_from(n).map_or(n as $t, |n| n as $t) }
            #[inline(always)]
            fn real_from_f64(x: f64) -> $t { x as $t }
            #[inline(always)]
            fn any_nan(self) -> bool { self.re.is_nan() || self.im.is_nan() }
            #[inline(always)]
            fn dot_re(self, o: Self) -> $t { self.re * o.re + self.im * o.im }
        }
    )*};
}
float_floatacc!(f32, f64);
