//! Count, mean and sum of squared deviations, merged with Chan's formula.

use super::state::{Invertible, State};
use super::sum::Sum;
use crate::element::{Accumulator, FloatAcc};
use num_traits::{Float, Zero};

/// First and second moments of the values seen: `n`, `mean`, `m2 = Σ|x − mean|²`.
///
/// The mean is held as a pair `pivot + shift`: `pivot` is a value near the
/// data (a rounded mean of some block of it) and `shift` the mean of
/// `x − pivot`, kept to full relative precision. A mean near `1e8` is then
/// known far better than to `ulp(1e8)`, which matters when states merge.
/// Two partial states `a`, `b` merge with Chan, Golub and LeVeque's formula
///
/// ```text
/// n    = nₐ + n_b
/// δ    = mean_b − meanₐ = (pivot_b − pivotₐ) + (shift_b − shiftₐ)
/// mean = meanₐ + δ·n_b/n                 (shiftₐ += δ·n_b/n, pivotₐ kept)
/// m2   = m2ₐ + m2_b + |δ|²·nₐ·n_b/n
/// ```
///
/// which keeps the accuracy of a two-pass computation: pivots of blocks of
/// similar data are close, so `pivot_b − pivotₐ` is exact (Sterbenz), and δ
/// is not rounded at the magnitude of the mean. For complex values the mean
/// is complex and `m2` real.
///
/// ```
/// use nanops::states::Moments;
/// let m = Moments::<f64>::from_slice(&[1e9 + 1.0, 1e9 + 2.0, 1e9 + 3.0]);
/// assert_eq!(m.variance(1.0), Some(1.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moments<F: FloatAcc> {
    n: u64,
    /// A value near the data; the mean is `pivot + shift`. Zero when empty.
    pivot: F,
    /// The mean of `x − pivot`.
    shift: F,
    /// `m2` as a compensated pair `m2 + m2_lo`: a state merges thousands of
    /// blocks, and a plain running total would lose a few ulps to rounding.
    m2: F::Real,
    m2_lo: F::Real,
}

impl<F: FloatAcc> Default for Moments<F> {
    fn default() -> Self {
        Moments {
            n: 0,
            pivot: F::zero(),
            shift: F::zero(),
            m2: <F::Real as Zero>::zero(),
            m2_lo: <F::Real as Zero>::zero(),
        }
    }
}

impl<F: FloatAcc> Moments<F> {
    /// Builds the moments of a slice in two passes (mean, then deviations).
    pub fn from_slice(xs: &[F]) -> Self {
        if xs.is_empty() {
            return Self::default();
        }
        let n = xs.len() as u64;
        let mut sum = Sum::<F>::default();
        xs.iter().for_each(|&x| sum.push(x));
        let center = sum.value().div_real(F::real_from_u64(n));
        let (mut r, mut q) = (F::zero(), <F::Real as Zero>::zero());
        for &x in xs {
            let d = x - center;
            r = r + d;
            q = q + d.abs2();
        }
        Self::from_deviations(n, center, r, q)
    }
    /// A state from its parts: count, mean and sum of squared deviations.
    /// The mean becomes the pivot (see [`Moments::from_shifted`]).
    #[inline(always)]
    pub fn from_parts(n: u64, mean: F, m2: F::Real) -> Self {
        Self::from_shifted(n, mean, F::zero(), m2)
    }
    /// A state whose mean is `pivot + shift`, held as that pair: count, pivot
    /// (a value near the data), `shift` (the mean of `x − pivot`) and sum of
    /// squared deviations from the mean.
    ///
    /// ```
    /// use nanops::states::Moments;
    /// let m = Moments::<f64>::from_shifted(2, 1e8, 0.25, 0.5);
    /// assert_eq!(m.mean(), 1e8 + 0.25);
    /// assert_eq!((m.pivot(), m.shift()), (1e8, 0.25));
    /// ```
    #[inline(always)]
    pub fn from_shifted(n: u64, pivot: F, shift: F, m2: F::Real) -> Self {
        Moments {
            n,
            pivot,
            shift,
            m2,
            m2_lo: <F::Real as Zero>::zero(),
        }
    }
    /// The moments of `n` values from their deviations from `center` (any
    /// value near them, usually their rounded mean): `r = Σ(x − center)`,
    /// `q = Σ|x − center|²`. This is the corrected two-pass formula
    /// `m2 = q − |r|²/n`, with the mean `center + r/n`.
    #[inline(always)]
    pub(crate) fn from_deviations(n: u64, center: F, r: F, q: F::Real) -> Self {
        if n == 0 {
            return Self::default();
        }
        let zero = <F::Real as Zero>::zero();
        if center.any_nan() || !center.abs2().is_finite() {
            // infinite (or overflowed) mean: no correction; q is NaN or inf
            return Self::from_shifted(n, center, F::zero(), q);
        }
        let nr = F::real_from_u64(n);
        let m2 = q - r.abs2() / nr;
        // NaN stays NaN; a rounding below zero (all values equal) becomes 0
        let m2 = if m2 < zero { zero } else { m2 };
        Self::from_shifted(n, center, r.div_real(nr), m2)
    }
    /// The center a block of `block_len` values can be reduced about
    /// before it merges into this state: the state's mean, once the state
    /// holds at least half as many values and the mean is finite (the
    /// rounding argument is on `kernels::moments::tile_moments`).
    #[inline(always)]
    pub(crate) fn running_center(&self, block_len: usize) -> Option<F> {
        let mean = self.pivot + self.shift;
        (2 * self.n >= block_len as u64 && self.n > 0 && mean.abs2().is_finite()).then_some(mean)
    }
    /// Number of values.
    pub fn count(&self) -> u64 {
        self.n
    }
    /// Mean (NaN when empty): `pivot + shift`, rounded once.
    pub fn mean(&self) -> F {
        if self.n == 0 {
            F::zero().scale(F::Real::nan())
        } else {
            self.pivot + self.shift
        }
    }
    /// The pivot: the mean is `pivot() + shift()`.
    pub fn pivot(&self) -> F {
        self.pivot
    }
    /// The mean of the values minus the pivot.
    pub fn shift(&self) -> F {
        self.shift
    }
    /// Sum of squared deviations from the mean.
    pub fn m2(&self) -> F::Real {
        self.m2 + self.m2_lo
    }
    /// `m2 / (n − ddof)`, or `None` when `n − ddof ≤ 0`.
    pub fn variance(&self, ddof: f64) -> Option<F::Real> {
        let dof = self.n as f64 - ddof;
        if dof > 0.0 {
            Some(self.m2() / F::real_from_f64(dof))
        } else {
            None
        }
    }
}

impl<F: FloatAcc> State<F> for Moments<F> {
    /// `(count, mean, m2)`: the number of values, their mean and the sum of
    /// their squared deviations from it.
    type Output = (u64, F, F::Real);
    /// Adds one value (Welford's update, on `x − pivot`; the first value
    /// becomes the pivot when it is finite).
    #[inline(always)]
    fn push(&mut self, x: F) {
        if self.n == 0 {
            self.pivot = if x.any_nan() || !x.abs2().is_finite() {
                F::zero()
            } else {
                x
            };
            self.shift = F::zero();
        }
        let y = x - self.pivot;
        self.n += 1;
        let d = y - self.shift;
        self.shift = self.shift + d.div_real(F::real_from_u64(self.n));
        self.m2 = self.m2 + d.dot_re(y - self.shift);
    }
    /// Merges another partial state (Chan's formula, see the type's docs).
    #[inline(always)]
    fn merge(&mut self, other: &Self) {
        if other.n == 0 {
            return;
        }
        if self.n == 0 {
            *self = *other;
            return;
        }
        let n = self.n + other.n;
        let nr = F::real_from_u64(n);
        let (na, nb) = (F::real_from_u64(self.n), F::real_from_u64(other.n));
        let delta = (other.pivot - self.pivot) + (other.shift - self.shift);
        if delta.any_nan() || !delta.abs2().is_finite() {
            // infinite means: weighted average without cancellation
            let mean = self.mean().scale(na / nr) + other.mean().scale(nb / nr);
            self.pivot = mean;
            self.shift = F::zero();
        } else {
            self.shift = self.shift + delta.scale(nb / nr);
        }
        let add = other.m2 + delta.abs2() * (na / nr) * nb;
        <F::Real as Accumulator>::comp_add(&mut self.m2, &mut self.m2_lo, add);
        self.m2_lo = self.m2_lo + other.m2_lo;
        self.n = n;
    }
    fn finish(&self) -> (u64, F, F::Real) {
        (self.count(), self.mean(), self.m2())
    }
}

impl<F: FloatAcc> Invertible<F> for Moments<F> {
    /// Welford's update run backwards: with `n` values after the removal,
    /// ```text
    /// shift' = shift − (y − shift)/n        y = x − pivot
    /// m2'    = m2 − (y − shift')·(y − shift)
    /// ```
    #[inline(always)]
    fn remove(&mut self, x: F) {
        if self.n <= 1 {
            *self = Self::default();
            return;
        }
        let y = x - self.pivot;
        self.n -= 1;
        let d = y - self.shift;
        self.shift = self.shift - d.div_real(F::real_from_u64(self.n));
        let zero = <F::Real as Zero>::zero();
        let m2 = self.m2 - d.dot_re(y - self.shift);
        // a rounding below zero (the values left are all equal) becomes 0
        self.m2 = if m2 < zero { zero } else { m2 };
    }
}
