//! Shared by the fuzz targets: a byte reader, a PRNG, and slow, obvious
//! references written from the definitions (NumPy 2.x's formulas, read off
//! `numpy/lib/_function_base_impl.py`), independent of the crate's own code.
#![allow(dead_code)]

use core::fmt::Debug;
use core::ops::{Add, Div, Mul, Sub};
use nanops::QuantileMethod;

// ---------------------------------------------------------------- input bytes

/// Reads the fuzz input front to back; past the end it yields bytes from a
/// PRNG seeded by the input, so every input decodes to a complete case.
pub struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
    rng: SplitMix,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64 ^ data.len() as u64;
        for &b in data.iter().take(64) {
            seed = seed.rotate_left(5) ^ u64::from(b);
            seed = seed.wrapping_mul(0x100_0000_01B3);
        }
        Bytes {
            data,
            pos: 0,
            rng: SplitMix(seed),
        }
    }

    pub fn u8(&mut self) -> u8 {
        if self.pos < self.data.len() {
            self.pos += 1;
            self.data[self.pos - 1]
        } else {
            self.rng.next() as u8
        }
    }

    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }

    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }

    pub fn u64(&mut self) -> u64 {
        u64::from(self.u32()) | (u64::from(self.u32()) << 32)
    }

    /// Uniform-ish in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 256 {
            self.u8() as usize % n
        } else {
            self.u32() as usize % n
        }
    }

    pub fn bool(&mut self) -> bool {
        self.u8() & 1 == 1
    }

    /// True with probability about `1/n`.
    pub fn one_in(&mut self, n: u8) -> bool {
        self.u8() % n == 0
    }

    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }
}

/// SplitMix64.
#[derive(Clone)]
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

// ---------------------------------------------------------------- values

/// Interesting `f64` values: signed zeros, small integers, halves, extremes,
/// subnormals, infinities, NaN (two payloads).
pub const F64_PALETTE: [f64; 32] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    2.0,
    3.0,
    -7.0,
    0.5,
    -2.5,
    0.1,
    1.0 + f64::EPSILON,
    1e16,
    -1e16,
    1e-300,
    -1e-300,
    5e-324,
    -5e-324,
    1e300,
    -1e300,
    1.7e308,
    -1.7e308,
    f64::MAX,
    3.0e38,
    -3.0e38,
    1.0e-40,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
    f64::NAN,
    42.0,
    -0.75,
    1234.5678,
];

pub fn nan_with_payload() -> f64 {
    f64::from_bits(0x7FF8_0000_0000_0ABC | (1 << 63))
}

// ---------------------------------------------------------------- exact sums

/// Exact sum of finite values (Shewchuk's partials, as Python's `math.fsum`),
/// rounded once at the end. `None` if an intermediate overflows.
pub fn fsum(xs: impl IntoIterator<Item = f64>) -> Option<f64> {
    let mut partials: Vec<f64> = Vec::new();
    for mut x in xs {
        debug_assert!(x.is_finite());
        let mut i = 0;
        for j in 0..partials.len() {
            let mut y = partials[j];
            if x.abs() < y.abs() {
                core::mem::swap(&mut x, &mut y);
            }
            let hi = x + y;
            if !hi.is_finite() {
                return None;
            }
            let lo = y - (hi - x);
            if lo != 0.0 {
                partials[i] = lo;
                i += 1;
            }
            x = hi;
        }
        partials.truncate(i);
        partials.push(x);
    }
    // Round the non-overlapping partials to the nearest double (half-even
    // correction as in CPython's msum).
    let mut n = partials.len();
    if n == 0 {
        return Some(0.0);
    }
    n -= 1;
    let mut hi = partials[n];
    let mut lo = 0.0;
    while n > 0 {
        let x = hi;
        n -= 1;
        let y = partials[n];
        hi = x + y;
        let yr = hi - x;
        lo = y - yr;
        if lo != 0.0 {
            break;
        }
    }
    if n > 0 && ((lo < 0.0 && partials[n - 1] < 0.0) || (lo > 0.0 && partials[n - 1] > 0.0)) {
        let y = lo * 2.0;
        let x = hi + y;
        let yr = x - hi;
        if y == yr {
            hi = x;
        }
    }
    Some(hi)
}

/// Distance from `x` to the next `f32` away from zero (the `f32` ulp at `x`).
pub fn ulp32(x: f64) -> f64 {
    let x = (x as f32).abs();
    if x.is_nan() {
        return f64::NAN;
    }
    if x == f32::MAX || x.is_infinite() {
        let x = f32::MAX;
        return f64::from(x) - f64::from(f32::from_bits(x.to_bits() - 1));
    }
    f64::from(f32::from_bits(x.to_bits() + 1)) - f64::from(x)
}

/// Equal as values, NaN equal to NaN, `-0.0` equal to `0.0`.
pub fn same(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a == b
}

// ---------------------------------------------------------------- float types

/// The float types the references compute in (`f64`, `f32`), with NumPy's
/// conversions: `from_f64` rounds to nearest (ties to even), as a cast.
pub trait RefFloat:
    Copy
    + PartialOrd
    + Debug
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + 'static
{
    const NAN: Self;
    const ZERO: Self;
    const ONE: Self;
    const HALF: Self;
    fn from_f64(x: f64) -> Self;
    fn from_usize(n: usize) -> Self;
    fn to_f64(self) -> f64;
    fn floor(self) -> Self;
    fn ceil(self) -> Self;
    fn round_even(self) -> Self;
    fn is_nan(self) -> bool;
    fn is_finite(self) -> bool;
}

impl RefFloat for f64 {
    const NAN: Self = f64::NAN;
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    const HALF: Self = 0.5;
    fn from_f64(x: f64) -> Self {
        x
    }
    fn from_usize(n: usize) -> Self {
        n as f64
    }
    fn to_f64(self) -> f64 {
        self
    }
    fn floor(self) -> Self {
        f64::floor(self)
    }
    fn ceil(self) -> Self {
        f64::ceil(self)
    }
    fn round_even(self) -> Self {
        f64::round_ties_even(self)
    }
    fn is_nan(self) -> bool {
        f64::is_nan(self)
    }
    fn is_finite(self) -> bool {
        f64::is_finite(self)
    }
}

impl RefFloat for f32 {
    const NAN: Self = f32::NAN;
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    const HALF: Self = 0.5;
    fn from_f64(x: f64) -> Self {
        x as f32
    }
    fn from_usize(n: usize) -> Self {
        n as f32
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    fn floor(self) -> Self {
        f32::floor(self)
    }
    fn ceil(self) -> Self {
        f32::ceil(self)
    }
    fn round_even(self) -> Self {
        f32::round_ties_even(self)
    }
    fn is_nan(self) -> bool {
        f32::is_nan(self)
    }
    fn is_finite(self) -> bool {
        f32::is_finite(self)
    }
}

/// Sorted copy (NaN must have been removed).
pub fn sorted<T: RefFloat>(xs: &[T]) -> Vec<T> {
    assert!(xs.iter().all(|x| !x.is_nan()));
    let mut v = xs.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v
}

// ---------------------------------------------------------------- medians

/// `np.median` of the (NaN-free) values, in their own type: the middle value,
/// or the mean of the two middle ones, `(a + b) / 2`, except that where
/// `a + b` overflows with `a` and `b` finite the crate documents `a/2 + b/2`
/// (NumPy: ±inf).
pub fn ref_median<T: RefFloat>(xs: &[T]) -> T {
    let x = sorted(xs);
    let n = x.len();
    if n == 0 {
        return T::NAN;
    }
    if n % 2 == 1 {
        return x[n / 2];
    }
    let (a, b) = (x[n / 2 - 1], x[n / 2]);
    let two = T::ONE + T::ONE;
    let s = a + b;
    if !s.is_finite() && !s.is_nan() && a.is_finite() && b.is_finite() {
        a * T::HALF + b * T::HALF
    } else {
        s / two
    }
}

// ---------------------------------------------------------------- quantiles

/// One quantile as NumPy 2.x's `_quantile` computes it for a 1-d lane of the
/// sorted, NaN-free values `x` (dtype `T`), with the index arithmetic in the
/// dtype of `q` (`I`), and the interpolation in the result dtype `R`:
///
/// * `q` a Python float on `T` data: `I = f64`, `R = T` (γ becomes a weak
///   Python float: rounded to `T`; `1 - γ` is computed in `f64` first);
/// * `q` an array of dtype `I`: `R = promote(T, I)`.
///
/// `integer_q`: `q` is a Python int (0 or 1): `linear` takes an order
/// statistic without interpolation.
pub fn np_quantile<T: RefFloat, I: RefFloat, R: RefFloat>(
    x: &[T],
    q: f64,
    method: QuantileMethod,
    integer_q: bool,
) -> R {
    use QuantileMethod as M;
    let n = x.len();
    if n == 0 {
        return R::NAN;
    }
    let qi = I::from_f64(q);
    // Python ints mixed with an `I` array are converted to `I` ("weak").
    let ni = I::from_usize(n);
    let n1 = I::from_usize(n - 1);
    let take = |i: usize| R::from_f64(x[i].to_f64());
    // `_discrete_interpolation_to_boundaries`
    let discrete = |index: I, keep_previous: &dyn Fn(I, I) -> bool| -> usize {
        let previous = index.floor();
        let next = previous + I::ONE;
        let gamma = index - previous;
        let chosen = if keep_previous(gamma, index) { previous } else { next };
        let c = chosen.to_f64();
        let c = if c < 0.0 { 0.0 } else { c };
        // NumPy would index out of bounds here; never happens for q in [0, 1].
        (c as usize).min(n - 1)
    };
    // `_compute_virtual_index`: n*q + (alpha + q*(1 - alpha - beta)) - 1,
    // where `1 - alpha - beta` is Python float arithmetic.
    let hf = |alpha: f64, beta: f64| -> I {
        let c = 1.0 - alpha - beta;
        (ni * qi + (I::from_f64(alpha) + qi * I::from_f64(c))) - I::ONE
    };
    enum V<I> {
        Int(usize),
        Float(I),
    }
    let v = match method {
        M::InvertedCdf => V::Int(discrete(ni * qi - I::ONE, &|g, _| g == I::ZERO)),
        M::ClosestObservation => V::Int(discrete(ni * qi - I::ONE - I::HALF, &|g, idx| {
            let f = idx.floor().to_f64();
            g == I::ZERO && f.rem_euclid(2.0) == 1.0
        })),
        M::Lower => V::Int((n1 * qi).floor().to_f64() as usize),
        M::Higher => V::Int((n1 * qi).ceil().to_f64() as usize),
        M::Nearest => V::Int((n1 * qi).round_even().to_f64() as usize),
        M::Linear if integer_q => V::Int((n1 * qi).to_f64() as usize),
        M::Linear => V::Float(n1 * qi),
        M::AveragedInvertedCdf => V::Float(ni * qi - I::ONE),
        M::InterpolatedInvertedCdf => V::Float(hf(0.0, 1.0)),
        M::Hazen => V::Float(hf(0.5, 0.5)),
        M::Weibull => V::Float(hf(0.0, 0.0)),
        M::MedianUnbiased => V::Float(hf(1.0 / 3.0, 1.0 / 3.0)),
        M::NormalUnbiased => V::Float(hf(3.0 / 8.0, 3.0 / 8.0)),
        M::Midpoint => {
            let w = n1 * qi;
            V::Float(I::HALF * (w.floor() + w.ceil()))
        }
    };
    let v = match v {
        V::Int(i) => return take(i.min(n - 1)),
        V::Float(v) => v,
    };
    // `_get_indexes`
    let (mut previous, mut next) = (v.floor(), v.floor() + I::ONE);
    if v >= n1 {
        previous = I::ZERO - I::ONE;
        next = I::ZERO - I::ONE;
    }
    if v < I::ZERO {
        previous = I::ZERO;
        next = I::ZERO;
    }
    // `_get_gamma` with `fix_gamma`
    let gamma = v - previous;
    let gamma = match method {
        M::AveragedInvertedCdf => {
            if gamma == I::ZERO {
                I::HALF
            } else {
                I::ONE
            }
        }
        M::Midpoint => {
            if v.to_f64().rem_euclid(1.0) == 0.0 {
                I::ZERO
            } else {
                I::HALF
            }
        }
        _ => gamma,
    };
    let at = |i: I| -> T {
        let i = i.to_f64();
        if i < 0.0 {
            x[n - 1]
        } else {
            x[i as usize]
        }
    };
    let (a, b) = (at(previous), at(next));
    // `_lerp(a, b, t)`: b - a in T; the rest in R.
    let diff = b - a;
    let (ra, rb, rd) = (
        R::from_f64(a.to_f64()),
        R::from_f64(b.to_f64()),
        R::from_f64(diff.to_f64()),
    );
    if gamma >= I::HALF {
        let omg = I::ONE - gamma;
        rb - rd * R::from_f64(omg.to_f64())
    } else {
        ra + rd * R::from_f64(gamma.to_f64())
    }
}

/// NumPy 2.x's weighted `inverted_cdf` for one lane (NaN-free values, finite
/// non-negative weights with a positive total): sort (ties in input order),
/// cumulative sum of the weights in `f64`, normalise, round to the dtype of
/// `q` (`I`), `cdf[cdf == 0] = -1` when `cdf[0] == 0`, `searchsorted(left)`,
/// clip to `n - 1`.
pub fn np_weighted_inverted_cdf<T: RefFloat, I: RefFloat>(values: &[T], weights: &[f64], q: f64) -> T {
    let n = values.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| values[i].partial_cmp(&values[j]).unwrap());
    let mut cdf = Vec::with_capacity(n);
    let mut run = 0.0f64;
    for &i in &order {
        run += weights[i];
        cdf.push(run);
    }
    let total = cdf[n - 1];
    assert!(total > 0.0 && total.is_finite());
    let mut cdf: Vec<f64> = cdf.iter().map(|c| I::from_f64(c / total).to_f64()).collect();
    if cdf[0] == 0.0 {
        cdf.iter_mut().filter(|c| **c == 0.0).for_each(|c| *c = -1.0);
    }
    let q = I::from_f64(q).to_f64();
    let k = cdf.iter().position(|&c| c >= q).unwrap_or(n).min(n - 1);
    values[order[k]]
}

/// The sample with every value repeated by its integer weight, sorted.
pub fn repeated<T: RefFloat>(values: &[T], weights: &[f64]) -> Vec<T> {
    let mut out = Vec::new();
    for (&v, &w) in values.iter().zip(weights) {
        assert!(w.fract() == 0.0 && w >= 0.0);
        for _ in 0..w as usize {
            out.push(v);
        }
    }
    sorted(&out)
}

/// The crate's weighted `averaged_inverted_cdf` with integer weights, by its
/// documented equivalence: NumPy's unweighted `averaged_inverted_cdf` of the
/// repeated sample, except that where NumPy's `_lerp(a, b, 1)` would give
/// `b` through `b - (b - a)·0` (NaN when `b - a` is not finite) the order
/// statistic `b` itself is returned.
///
/// Returns the acceptable results: where the two averaged neighbours are the
/// same infinity, NumPy's `_lerp` gives NaN (`inf - inf`) while the crate's
/// rule gives NaN only when they are separate entries of the lane and the
/// value itself when one entry's weight covers both; both are accepted.
pub fn averaged_by_repetition<T: RefFloat>(values: &[T], weights: &[f64], q: f64) -> Vec<T> {
    let x = repeated(values, weights);
    let n = x.len();
    let v = n as f64 * q - 1.0;
    let (mut previous, mut next) = (v.floor(), v.floor() + 1.0);
    if v >= (n - 1) as f64 {
        previous = -1.0;
        next = -1.0;
    }
    if v < 0.0 {
        previous = 0.0;
        next = 0.0;
    }
    let at = |i: f64| if i < 0.0 { x[n - 1] } else { x[i as usize] };
    let (a, b) = (at(previous), at(next));
    if v - previous == 0.0 {
        // γ = 1/2: b - (b - a)·(1/2)
        let mean = b - (b - a) * T::HALF;
        if a == b && !a.is_finite() {
            vec![mean, a]
        } else {
            vec![mean]
        }
    } else {
        vec![b]
    }
}
