//! Count, mean and sum of squared deviations, merged with Chan's formula.

use crate::element::FloatAcc;
use num_traits::{Float, Zero};

/// First and second moments of the values seen: `n`, `mean`, `m2 = Σ|x − mean|²`.
///
/// Two partial states `a`, `b` merge with Chan, Golub and LeVeque's formula
///
/// ```text
/// n    = nₐ + n_b
/// δ    = mean_b − meanₐ
/// mean = meanₐ + δ·n_b/n
/// m2   = m2ₐ + m2_b + |δ|²·nₐ·n_b/n
/// ```
///
/// which keeps the accuracy of a two-pass computation. For complex values the
/// mean is complex and `m2` real.
///
/// ```
/// use nanops::states::Moments;
/// let m = Moments::<f64>::from_slice(&[1e9 + 1.0, 1e9 + 2.0, 1e9 + 3.0]);
/// assert_eq!(m.variance(1.0), Some(1.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moments<F: FloatAcc> {
    n: u64,
    mean: F,
    m2: F::Real,
}

impl<F: FloatAcc> Default for Moments<F> {
    fn default() -> Self {
        Moments {
            n: 0,
            mean: F::zero(),
            m2: <F::Real as Zero>::zero(),
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
        let mut sum = crate::states::Sum::<F>::default();
        xs.iter().for_each(|&x| sum.push(x));
        let mean = sum.value().div_real(F::real_from_u64(n));
        let m2 = xs
            .iter()
            .fold(<F::Real as Zero>::zero(), |acc, &x| acc + (x - mean).abs2());
        Self::from_parts(n, mean, m2)
    }
    /// A state from its parts: count, mean and sum of squared deviations.
    #[inline(always)]
    pub fn from_parts(n: u64, mean: F, m2: F::Real) -> Self {
        Moments { n, mean, m2 }
    }
    /// Adds one value (Welford's update).
    #[inline]
    pub fn push(&mut self, x: F) {
        self.n += 1;
        let d = x - self.mean;
        self.mean = self.mean + d.div_real(F::real_from_u64(self.n));
        self.m2 = self.m2 + d.dot_re(x - self.mean);
    }
    /// Merges another partial state (Chan's formula).
    #[inline]
    pub fn merge(&mut self, other: &Self) {
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
        let delta = other.mean - self.mean;
        let mean = if delta.any_nan() || !delta.abs2().is_finite() {
            // infinite means: weighted average without cancellation
            self.mean.scale(na / nr) + other.mean.scale(nb / nr)
        } else {
            self.mean + delta.scale(nb / nr)
        };
        self.m2 = self.m2 + other.m2 + delta.abs2() * (na / nr) * nb;
        self.mean = mean;
        self.n = n;
    }
    /// Number of values.
    pub fn count(&self) -> u64 {
        self.n
    }
    /// Mean (NaN when empty).
    pub fn mean(&self) -> F {
        if self.n == 0 {
            F::zero().scale(F::Real::nan())
        } else {
            self.mean
        }
    }
    /// Sum of squared deviations from the mean.
    pub fn m2(&self) -> F::Real {
        self.m2
    }
    /// `m2 / (n − ddof)`, or `None` when `n − ddof ≤ 0`.
    pub fn variance(&self, ddof: f64) -> Option<F::Real> {
        let dof = self.n as f64 - ddof;
        if dof > 0.0 {
            Some(self.m2 / F::real_from_f64(dof))
        } else {
            None
        }
    }
}
