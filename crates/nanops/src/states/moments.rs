//! Count, mean and sum of squared deviations, merged with Chan's formula;
//! with the third and fourth central sums too, merged with Pébay's.

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
        if !center.all_finite() {
            // infinite (or overflowed) mean: no correction; q is NaN or inf
            return Self::from_shifted(n, center, F::zero(), q);
        }
        let nr = F::real_from_u64(n);
        let r2 = r.abs2();
        // |r|² may overflow where |r|²/n does not (a center far off a few
        // huge values): then r·(r/n), which is finite there
        let correction = if r2.is_finite() {
            r2 / nr
        } else {
            r.dot_re(r.div_real(nr))
        };
        // an infinite q stays so: every caller centers near the mean where q
        // overflows (a far running center is refused first), so the
        // correction is rounding there, though it may overflow too
        let m2 = if q.is_infinite() { q } else { q - correction };
        // NaN stays NaN; a rounding below zero (all values equal) becomes 0
        let m2 = if m2 < zero { zero } else { m2 };
        Self::from_shifted(n, center, r.div_real(nr), m2)
    }
    /// [`Moments::from_deviations`] of a short lane, given `1/n` (`inv`)
    /// where `|r|²` may overflow and `None` where it cannot (values of a
    /// narrower type than `F`): where it overflows the correction is
    /// `r·(r·inv)`. A variance reads only `m2`, so the mean's `r/n` is then
    /// dead code, and no division is left that the rare case alone needs
    /// (a loop across lanes computes both sides of a choice).
    #[inline(always)]
    pub(crate) fn from_short_deviations(
        n: u64,
        center: F,
        r: F,
        q: F::Real,
        inv: Option<F::Real>,
    ) -> Self {
        if n == 0 {
            return Self::default();
        }
        let zero = <F::Real as Zero>::zero();
        if !center.all_finite() {
            return Self::from_shifted(n, center, F::zero(), q);
        }
        let nr = F::real_from_u64(n);
        let r2 = r.abs2();
        let correction = match inv {
            Some(inv) if !r2.is_finite() => r.dot_re(r.scale(inv)),
            _ => r2 / nr,
        };
        let m2 = if q.is_infinite() { q } else { q - correction };
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
    /// The same moments with the pivot moved to the mean (rounded), the
    /// shift holding what the rounding left: `(pivot − mean) + shift`,
    /// whose difference is exact where the two are within a factor of two
    /// (Sterbenz). A mean that is not finite goes to the shift, about a
    /// pivot of zero: the pivot stays finite, a center values can be taken
    /// from.
    #[inline(always)]
    pub(crate) fn recentered(self) -> Self {
        let mean = self.pivot + self.shift;
        if mean.all_finite() {
            Moments {
                pivot: mean,
                shift: (self.pivot - mean) + self.shift,
                ..self
            }
        } else {
            Moments {
                pivot: F::zero(),
                shift: mean,
                ..self
            }
        }
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
        // an overflowed total leaves an infinite (or NaN) compensation: inf, not NaN
        self.m2 + <F::Real as Accumulator>::finite_comp(self.m2, self.m2_lo)
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
            self.pivot = if x.all_finite() { x } else { F::zero() };
            self.shift = F::zero();
        }
        let y = x - self.pivot;
        let d = y - self.shift;
        if !d.all_finite() && x.all_finite() {
            // a value and the mean further apart than the range holds (their
            // difference overflows, or the mean did): Chan's merge with the
            // lone value, whose branch for such differences keeps a mean and
            // makes m2 +inf (NaN stays NaN: values with an infinity)
            self.merge(&Self::from_shifted(
                1,
                x,
                F::zero(),
                <F::Real as Zero>::zero(),
            ));
            return;
        }
        self.n += 1;
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
        let mut between = delta.abs2() * (na / nr) * nb;
        if between.is_nan() && !self.m2.is_nan() && !other.m2.is_nan() {
            // two means that overflowed to the same infinity (finite values:
            // their m2 is not NaN, as it is once an infinity was taken)
            between = <F::Real as Float>::infinity();
        }
        let add = other.m2 + between;
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

/// Count, mean and the central sums `Mₖ = Σ(x − mean)ᵏ`, `k = 2, 3, 4`, of
/// real values (`F` is `f32` or `f64`): what skewness and kurtosis are made
/// of.
///
/// The mean is held as `pivot + shift` and `M2`, `M3`, `M4` as compensated
/// pairs, as in [`Moments`]. Two partial states `a`, `b` merge with Pébay's
/// pairwise update (Pébay 2008, "Formulas for robust, one-pass parallel
/// computation of covariances and arbitrary-order statistical moments",
/// eq. 2.1–2.4; its `M2` line is Chan's), δ taken from the pivots and shifts
/// so that it is not rounded at the magnitude of the mean:
///
/// ```text
/// n  = nₐ + n_b,   δ = mean_b − meanₐ,   wₐ = nₐ/n,   w_b = n_b/n
/// M2 = M2ₐ + M2_b + δ²·nₐ·w_b
/// M3 = M3ₐ + M3_b + δ³·nₐ·w_b·(wₐ − w_b) + 3δ·(wₐ·M2_b − w_b·M2ₐ)
/// M4 = M4ₐ + M4_b + δ⁴·nₐ·w_b·(wₐ² − wₐ·w_b + w_b²)
///                 + 6δ²·(wₐ²·M2_b + w_b²·M2ₐ) + 4δ·(wₐ·M3_b − w_b·M3ₐ)
/// ```
///
/// A block of values enters as its power sums about a center near them
/// ([`HigherMoments::from_power_sums`]), so a large offset costs no digits.
///
/// ```
/// use nanops::states::{HigherMoments, State};
/// let mut a = HigherMoments::<f64>::from_slice(&[1e8 + 1.0, 1e8 + 2.0]);
/// a.merge(&HigherMoments::from_slice(&[1e8 + 6.0]));
/// assert_eq!((a.count(), a.mean(), a.m2(), a.m3(), a.m4()), (3, 1e8 + 3.0, 14.0, 18.0, 98.0));
/// assert_eq!(a.skewness(true), (18.0 / 3.0) / (14.0f64 / 3.0).powf(1.5));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HigherMoments<F> {
    n: u64,
    /// A value near the data; the mean is `pivot + shift`. Zero when empty.
    pivot: F,
    /// The mean of `x − pivot`.
    shift: F,
    /// `[M2, M3, M4]`, each the sum of its pair with `lo`.
    m: [F; 3],
    lo: [F; 3],
}

impl<F: Float> Default for HigherMoments<F> {
    fn default() -> Self {
        let zero = <F as Zero>::zero();
        HigherMoments {
            n: 0,
            pivot: zero,
            shift: zero,
            m: [zero; 3],
            lo: [zero; 3],
        }
    }
}

/// `x` in `F` (a count, a small constant).
#[inline(always)]
fn real<F: Float>(x: impl num_traits::ToPrimitive) -> F {
    F::from(x).unwrap_or_else(F::nan)
}

impl<F: Float + Accumulator> HigherMoments<F> {
    /// The state of `n` values from their power sums about `center` (any
    /// value near them, usually their rounded mean): `s = [Σd, Σd², Σd³,
    /// Σd⁴]` with `d = x − center`. With `δ = Σd/n` (the mean is
    /// `center + δ`) the central sums are
    ///
    /// ```text
    /// M2 = Σd² − δ·Σd
    /// M3 = Σd³ − δ·(3Σd² − 2δ·Σd)
    /// M4 = Σd⁴ − δ·(4Σd³ − δ·(6Σd² − 3δ·Σd))
    /// ```
    ///
    /// (the binomial expansions of `Σ(d − δ)ᵏ`; `M2` is the corrected
    /// two-pass formula of [`Moments`]), exact but for the rounding of the
    /// sums as long as `δ` is small beside the spread: the kernels check
    /// that and otherwise sum again about the block's own mean.
    ///
    /// ```
    /// use nanops::states::HigherMoments;
    /// // 1, 2, 6 about the center 2: d = −1, 0, 4
    /// let m = HigherMoments::<f64>::from_power_sums(3, 2.0, [3.0, 17.0, 63.0, 257.0]);
    /// assert_eq!((m.mean(), m.m2(), m.m3(), m.m4()), (3.0, 14.0, 18.0, 98.0));
    /// ```
    #[inline(always)]
    pub fn from_power_sums(n: u64, center: F, s: [F; 4]) -> Self {
        if n == 0 {
            return Self::default();
        }
        let [s1, s2, s3, s4] = s;
        let zero = <F as Zero>::zero();
        if !center.is_finite() {
            // infinite (or NaN) data: the sums are already NaN or infinite
            let m = [s2, s3, s4];
            return HigherMoments {
                n,
                pivot: center,
                m,
                ..Self::default()
            };
        }
        let d = s1 / real::<F>(n);
        let (two, three, four, six) = (real::<F>(2), real::<F>(3), real::<F>(4), real::<F>(6));
        let m2 = s2 - d * s1;
        let m3 = s3 - d * (three * s2 - two * d * s1);
        let m4 = s4 - d * (four * s3 - d * (six * s2 - three * d * s1));
        // NaN stays NaN; a rounding below zero (all values equal) becomes 0
        let clamp = |m: F| if m < zero { zero } else { m };
        HigherMoments {
            n,
            pivot: center,
            shift: d,
            m: [clamp(m2), m3, clamp(m4)],
            lo: [zero; 3],
        }
    }
    /// Builds the state of a slice in two passes: the mean, then the power
    /// sums of the deviations from it ([`HigherMoments::from_power_sums`]).
    pub fn from_slice(xs: &[F]) -> Self {
        if xs.is_empty() {
            return Self::default();
        }
        let n = xs.len() as u64;
        let mut sum = Sum::<F>::default();
        xs.iter().for_each(|&x| sum.push(x));
        let center = sum.value() / real::<F>(n);
        let mut s = [<F as Zero>::zero(); 4];
        for &x in xs {
            let d = x - center;
            let d2 = d * d;
            s = [s[0] + d, s[1] + d2, s[2] + d2 * d, s[3] + d2 * d2];
        }
        Self::from_power_sums(n, center, s)
    }
    /// The center a block of `block_len` values can be summed about before
    /// it merges into this state: its mean, once it holds at least half as
    /// many values and the mean is finite (as [`Moments`]).
    #[inline(always)]
    pub(crate) fn running_center(&self, block_len: usize) -> Option<F> {
        let mean = self.pivot + self.shift;
        (2 * self.n >= block_len as u64 && self.n > 0 && mean.is_finite()).then_some(mean)
    }
    /// Number of values.
    pub fn count(&self) -> u64 {
        self.n
    }
    /// Mean (NaN when empty): `pivot + shift`, rounded once.
    pub fn mean(&self) -> F {
        if self.n == 0 {
            F::nan()
        } else {
            self.pivot + self.shift
        }
    }
    /// `M2 = Σ(x − mean)²`.
    pub fn m2(&self) -> F {
        self.m[0] + F::finite_comp(self.m[0], self.lo[0])
    }
    /// `M3 = Σ(x − mean)³`.
    pub fn m3(&self) -> F {
        self.m[1] + F::finite_comp(self.m[1], self.lo[1])
    }
    /// `M4 = Σ(x − mean)⁴`.
    pub fn m4(&self) -> F {
        self.m[2] + F::finite_comp(self.m[2], self.lo[2])
    }
    /// The biased central moments `mₖ = Mₖ/n`, `k = 2, 3, 4`, or `None`
    /// where a skewness or kurtosis has no value: no values, `m2 = 0` (all
    /// values equal) or a non-finite `m2` (infinite values, overflow).
    fn moments(&self) -> Option<(F, F, F)> {
        let n = real::<F>(self.n);
        let m2 = self.m2() / n;
        (m2 > <F as Zero>::zero() && m2.is_finite()).then(|| (m2, self.m3() / n, self.m4() / n))
    }
    /// Sample skewness, as `scipy.stats.skew`: the Fisher–Pearson
    /// coefficient `g1 = m3 / m2^1.5` (`bias = true`), or the adjusted
    /// `G1 = g1·√(n(n − 1))/(n − 2)` (`bias = false` and `n > 2`; scipy keeps
    /// `g1` for `n ≤ 2`). NaN without values, with `m2 = 0` or a non-finite
    /// `m2`.
    ///
    /// ```
    /// use nanops::states::HigherMoments;
    /// let m = HigherMoments::<f64>::from_slice(&[2.0, 8.0, 0.0, 4.0, 1.0, 9.0, 9.0, 0.0]);
    /// assert!((m.skewness(true) - 0.2650554122698573).abs() < 1e-15);
    /// assert!(HigherMoments::<f64>::from_slice(&[3.0, 3.0]).skewness(true).is_nan());
    /// ```
    pub fn skewness(&self, bias: bool) -> F {
        let Some((m2, m3, _)) = self.moments() else {
            return F::nan();
        };
        let g1 = m3 / (m2 * m2.sqrt());
        if bias || self.n <= 2 {
            return g1;
        }
        let n = real::<F>(self.n);
        g1 * (n * (n - real(1))).sqrt() / (n - real(2))
    }
    /// Sample kurtosis, as `scipy.stats.kurtosis`: `g2 = m4 / m2²`
    /// (`bias = true`), or from k-statistics (`bias = false` and `n > 3`;
    /// scipy keeps `g2` for `n ≤ 3`):
    ///
    /// ```text
    /// G2 − 3 = ((n + 1)·g2 − 3(n − 1))·(n − 1) / ((n − 2)(n − 3))
    /// ```
    ///
    /// Fisher's definition (`fisher = true`) subtracts 3 (0 for a normal
    /// distribution), Pearson's does not. NaN as [`HigherMoments::skewness`].
    ///
    /// ```
    /// use nanops::states::HigherMoments;
    /// let m = HigherMoments::<f64>::from_slice(&[1.0, 2.0, 3.0, 6.0]);
    /// assert_eq!(m.kurtosis(true, true), -1.0);
    /// assert_eq!(m.kurtosis(false, true), 1.5);
    /// let m = HigherMoments::<f64>::from_slice(&[1.0, 2.0, 6.0]);
    /// assert_eq!(m.kurtosis(false, false), m.kurtosis(true, false)); // n ≤ 3: g2 kept
    /// ```
    pub fn kurtosis(&self, bias: bool, fisher: bool) -> F {
        let Some((m2, _, m4)) = self.moments() else {
            return F::nan();
        };
        let g2 = m4 / (m2 * m2);
        let three = real::<F>(3);
        let excess = if bias || self.n <= 3 {
            g2 - three
        } else {
            let n = real::<F>(self.n);
            let n1 = n - real(1);
            ((n + real(1)) * g2 - three * n1) * n1 / ((n - real(2)) * (n - three))
        };
        if fisher {
            excess
        } else {
            excess + three
        }
    }
}

impl<F: Float + Accumulator> State<F> for HigherMoments<F> {
    /// `(count, mean, M2, M3, M4)`.
    type Output = (u64, F, F, F, F);
    /// Adds one value: a one-value state merged in.
    #[inline(always)]
    fn push(&mut self, x: F) {
        self.merge(&Self::from_power_sums(1, x, [<F as Zero>::zero(); 4]));
    }
    /// Merges another partial state (Pébay's update, see the type's docs;
    /// the mean as in [`Moments`]' merge).
    #[inline(always)]
    fn merge(&mut self, other: &Self) {
        if other.n == 0 {
            return;
        }
        if self.n == 0 {
            *self = *other;
            return;
        }
        let (na, nb) = (real::<F>(self.n), real::<F>(other.n));
        let n = na + nb;
        let (wa, wb) = (na / n, nb / n);
        let delta = (other.pivot - self.pivot) + (other.shift - self.shift);
        let (m2a, m2b) = (self.m2(), other.m2());
        let (m3a, m3b) = (self.m3(), other.m3());
        let d2 = delta * delta;
        let nab = na * wb; // nₐ·n_b/n
        let add = [
            other.m[0] + d2 * nab,
            other.m[1] + delta * (d2 * nab * (wa - wb) + real::<F>(3) * (wa * m2b - wb * m2a)),
            other.m[2]
                + delta
                    * (real::<F>(4) * (wa * m3b - wb * m3a)
                        + delta
                            * (real::<F>(6) * (wa * wa * m2b + wb * wb * m2a)
                                + d2 * nab * (wa * wa - wa * wb + wb * wb))),
        ];
        for ((m, lo), (add, other_lo)) in self
            .m
            .iter_mut()
            .zip(&mut self.lo)
            .zip(add.into_iter().zip(other.lo))
        {
            <F as Accumulator>::comp_add(m, lo, add);
            *lo = *lo + other_lo;
        }
        if delta.is_finite() {
            self.shift = self.shift + delta * wb;
        } else {
            // infinite means: weighted average without cancellation
            self.pivot = self.mean() * wa + other.mean() * wb;
            self.shift = <F as Zero>::zero();
        }
        self.n += other.n;
    }
    fn finish(&self) -> (u64, F, F, F, F) {
        (self.count(), self.mean(), self.m2(), self.m3(), self.m4())
    }
}
