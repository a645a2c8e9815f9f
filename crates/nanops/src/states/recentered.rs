//! [`Moments`] fed one value at a time without a division per value: a
//! count and two power sums about a center that moves to the mean at
//! doubling counts.

use super::moments::Moments;
use super::state::State;
use crate::element::FloatAcc;
use num_traits::{Float, One, Zero};

/// The count at which the center first moves to the mean again (after the
/// first value): the center moves at counts 1, `MIN_BLOCK`, then at every
/// doubling (a power of two).
const MIN_BLOCK: u64 = 32;

/// The moments of values that come one at a time, as a value of a random
/// label in a group-by does, held as their count `n`, a center `c` and the
/// power sums `s₁ = Σ(x − c)`, `s₂ = Σ|x − c|²`.
///
/// Welford's update divides by the count at every value; here a value adds
/// `d = x − c` and `|d|²` to the sums, and the sums give the moments by the
/// corrected two-pass formula `m2 = s₂ − |s₁|²/n` ([`Moments::from_deviations`]).
/// Its rounding costs a few ulps of `s₂ = m2 + n·|c − mean|²`, so the center
/// moves to the mean ([`RecenteredMoments::recenter`]: the sums are rewritten
/// about it, `s₂` becoming `m2`) at the first value and at counts 32, 64,
/// 128, …: the values since are at most as many as those whose mean the
/// center is, and `|c − mean|²` stays of the order of the spread over the
/// count. A state then costs 32 bytes for `f64`, one division per doubling,
/// and no division per value.
///
/// A value whose `|d|²` is not finite (an infinity, or a deviation past the
/// range's square root) enters by Welford's update ([`Moments`]' `push`),
/// which keeps its meaning for those (NaN for infinities, `inf` for an
/// overflowed spread, a finite `m2` where the spread fits).
///
/// ```
/// use nanops::states::{RecenteredMoments, State};
/// let mut m = RecenteredMoments::<f64>::default();
/// for x in [1e9 + 1.0, f64::NAN, 1e9 + 2.0, 1e9 + 3.0] {
///     m.push(x);
/// }
/// let (n, mean, m2) = m.finish();
/// assert_eq!((n, mean, m2), (3, 1e9 + 2.0, 2.0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
// two states per cache line for `f64`: a random label's value touches one
#[repr(align(32))]
pub struct RecenteredMoments<F: FloatAcc> {
    /// How many values.
    n: u64,
    /// The center `c`: finite (zero when empty).
    center: F,
    /// `Σ(x − c)`.
    sum: F,
    /// `Σ|x − c|²`.
    sum_sq: F::Real,
}

impl<F: FloatAcc> RecenteredMoments<F> {
    /// Adds one value; NaN (any part) adds nothing. The NaN test is on the
    /// deviation (NaN exactly where `x` is: the center is finite), and NaN
    /// enters as a zero deviation and no count, with no branch on it: NaN
    /// scattered at random would take a branch at random.
    ///
    /// For values of labels taken at random (a group-by over random
    /// labels): the state's first value moves the center with no branch
    /// ([`RecenteredMoments::push_in_run`] is the form for values of one
    /// state one after another). The same state as `push_in_run`, up to the
    /// sign of a zero sum.
    #[inline(always)]
    pub fn push_skipping_nan(&mut self, x: F) {
        let Some(reached) = self.add_deviation(x) else {
            return;
        };
        // the first value: the center moves onto it, as `recenter` would
        // (the sums hold that value alone, about the empty state's center
        // of zero, and are finite: a square that is not took `pushed_far`).
        // `first` is 1 there and 0 elsewhere, and the sums are scaled by it:
        // LLVM made selects, and the conversion of a comparison, branches,
        // taken at random where a label's first value in a chunk comes (10
        // values per label: a fifth of them), which took half the time of a
        // value. The shift is 1 only where `reached ^ 1` is 0 (counts stay
        // below 2⁶³).
        let first = F::real_from_u64((reached ^ 1).wrapping_sub(1) >> 63);
        let rest = <F::Real as One>::one() - first;
        self.center = self.center + self.sum.scale(first);
        self.sum = self.sum.scale(rest);
        self.sum_sq = self.sum_sq * rest;
        self.recenter_at(reached);
    }
    /// The empty state centered on `center`, a finite value of those to
    /// come (the first, for the bits of [`RecenteredMoments::push_skipping_nan`]),
    /// which [`RecenteredMoments::push_about_center`] then takes: a state
    /// readied before its values (a group-by's labels over a chunk, read
    /// once for each label's first value), so that no value has to move
    /// the center on arrival.
    ///
    /// ```
    /// use nanops::states::{RecenteredMoments, State};
    /// let mut m = RecenteredMoments::<f64>::centered_on(1e9 + 1.0);
    /// for x in [1e9 + 1.0, f64::NAN, 1e9 + 2.0, 1e9 + 3.0] {
    ///     m.push_about_center(x);
    /// }
    /// assert_eq!(m.finish(), (3, 1e9 + 2.0, 2.0));
    /// ```
    pub fn centered_on(center: F) -> Self {
        debug_assert!(center.all_finite(), "a center is finite");
        RecenteredMoments {
            center,
            ..Self::default()
        }
    }
    /// Adds one value (NaN adds nothing) to a state whose center is set:
    /// by [`RecenteredMoments::centered_on`], or by a value before. The
    /// state is then that of [`RecenteredMoments::push_skipping_nan`] for
    /// the same values from the center on, with no product in the chain
    /// from one value of a state to its next. A state that is not centered
    /// (empty, centered at zero) takes its values about zero until its count
    /// reaches 32: its `m2` then carries the rounding of `x²`, so it is for
    /// states without a finite valid value to come.
    #[inline(always)]
    pub fn push_about_center(&mut self, x: F) {
        if let Some(reached) = self.add_deviation(x) {
            self.recenter_at(reached);
        }
    }
    /// The state of the first `len` of `window` (NaN skipped), as
    /// [`RecenteredMoments::push_in_run`] of each into an empty state
    /// would hold it up to rounding: centered on the first valid value,
    /// the deviations summed as a tree; `None` where a square is not finite
    /// (the caller then pushes the values one by one). At most 31 values:
    /// no count reaches the first that moves a center.
    ///
    /// The width is fixed and the values past `len` are read and masked,
    /// so that the loops have no branch on the run's length (sorted labels
    /// over many groups make runs of a few values, each length a branch
    /// taken at random) and compile to vector instructions.
    ///
    /// ```
    /// use nanops::states::{RecenteredMoments, State};
    /// let mut w = [f64::NAN; 16];
    /// w[..4].copy_from_slice(&[f64::NAN, 1e9 + 1.0, 1e9 + 2.0, 1e9 + 3.0]);
    /// let m = RecenteredMoments::of_window(&w, 4).unwrap();
    /// assert_eq!(m.finish(), (3, 1e9 + 2.0, 2.0));
    /// ```
    #[inline(always)]
    pub fn of_window<const W: usize>(window: &[F; W], len: usize) -> Option<Self> {
        debug_assert!(W < 32 && len <= W);
        let mut valid = 0u32;
        for (k, x) in window.iter().enumerate() {
            valid |= u32::from(k < len && !x.any_nan()) << k;
        }
        if valid == 0 {
            return Some(Self::default());
        }
        let center = window[valid.trailing_zeros() as usize];
        // plain loops over the fixed width (`array::from_fn` and `map`
        // were calls, not inlined)
        let mut deviations = [F::zero(); W];
        let mut squares = [<F::Real as Zero>::zero(); W];
        for k in 0..W {
            let d = window[k] - center;
            if valid >> k & 1 == 1 {
                deviations[k] = d;
                squares[k] = d.abs2();
            }
        }
        let sum = tree_sum(deviations);
        let sum_sq = tree_sum(squares);
        if !(sum_sq.is_finite() && center.all_finite()) {
            return None;
        }
        Some(RecenteredMoments {
            n: u64::from(valid.count_ones()),
            center,
            sum,
            sum_sq,
        })
    }
    /// Whether no value entered.
    ///
    /// ```
    /// use nanops::states::{RecenteredMoments, State};
    /// let mut m = RecenteredMoments::<f64>::default();
    /// m.push(f64::NAN);
    /// assert!(m.is_empty());
    /// m.push(2.5);
    /// assert!(!m.is_empty());
    /// ```
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
    /// [`RecenteredMoments::push_skipping_nan`] for values that come one
    /// after another into this state (a short run of one label): the first
    /// value moves the center by a select (which LLVM makes a branch), so
    /// the center stays out of the chain from one value to the next, where
    /// the scaled sums of `push_skipping_nan` put a product in it.
    #[inline(always)]
    pub fn push_in_run(&mut self, x: F) {
        let Some(reached) = self.add_deviation(x) else {
            return;
        };
        if reached == 1 {
            self.center = self.center + self.sum;
            self.sum = F::zero();
            self.sum_sq = <F::Real as Zero>::zero();
        }
        self.recenter_at(reached);
    }
    /// The deviation of `x` from the center added to the sums and the
    /// count (NaN: zero and nothing); the count reached, 0 for NaN, or
    /// `None` where the value entered by Welford's update
    /// ([`RecenteredMoments::pushed_far`]).
    #[inline(always)]
    fn add_deviation(&mut self, x: F) -> Option<u64> {
        let d = x - self.center;
        let valid = !d.any_nan();
        let d = if valid { d } else { F::zero() };
        let d2 = d.abs2();
        if !d2.is_finite() {
            *self = self.pushed_far(x);
            return None;
        }
        self.sum = self.sum + d;
        self.sum_sq = self.sum_sq + d2;
        let added = u64::from(valid);
        self.n += added;
        // `n·added` is 0 for NaN: a test of `valid` here was a branch on NaN
        Some(self.n * added)
    }
    /// Moves the center to the mean at counts 32, 64, 128, …: a power of
    /// two past 16 (`reached` the count a value reached, 0 for NaN).
    #[inline(always)]
    fn recenter_at(&mut self, reached: u64) {
        if reached.is_power_of_two() && reached & (MIN_BLOCK - 1) == 0 {
            *self = self.recentered_out_of_line();
        }
    }
    /// This state and a value whose deviation's square is not finite, by
    /// Welford's update. By value, as [`RecenteredMoments::recentered_out_of_line`]:
    /// a state the caller holds in registers (a run's) stays there.
    #[cold]
    #[inline(never)]
    fn pushed_far(self, x: F) -> Self {
        let mut moments = self.moments();
        moments.push(x);
        Self::from(moments)
    }
    /// Moves the center to the mean: `c' = c + s₁/n` and the sums about it,
    /// `s₂' = m2 + |s₁'|²/n` with `s₁' = s₁ − n·(c' − c)` (what the
    /// rounding of `c'` left). Sums that are not finite, or a mean that is
    /// not, stay as they are: the result is NaN or infinite then anyway.
    #[inline(always)]
    fn recenter(&mut self) {
        if self.n == 0 || !self.sum_sq.is_finite() {
            return;
        }
        if self.n == 1 {
            // one value: itself about itself (exactly, from the empty
            // state's center of zero), with no division
            self.center = self.center + self.sum;
            self.sum = F::zero();
            self.sum_sq = <F::Real as Zero>::zero();
            return;
        }
        let nr = F::real_from_u64(self.n);
        let shift = self.sum.div_real(nr);
        let center = self.center + shift;
        if !center.all_finite() {
            return;
        }
        let zero = <F::Real as Zero>::zero();
        let m2 = self.sum_sq - self.sum.dot_re(shift);
        let m2 = if m2 < zero { zero } else { m2 };
        let rest = self.sum - (center - self.center).scale(nr);
        self.sum_sq = m2 + rest.abs2() / nr;
        self.sum = rest;
        self.center = center;
    }
    /// [`RecenteredMoments::recenter`] where a value reaches a count that
    /// moves the center: rare, and kept out of the loop over values. By
    /// value: a call that took the state's address kept a state the caller
    /// holds in a local (a run's values folded one after another) in
    /// memory, a store and a reload in the chain of every value.
    #[cold]
    #[inline(never)]
    fn recentered_out_of_line(mut self) -> Self {
        self.recenter();
        self
    }
    /// The count, mean and `m2` of the values, as [`Moments`].
    #[inline(always)]
    pub fn moments(&self) -> Moments<F> {
        Moments::from_deviations(self.n, self.center, self.sum, self.sum_sq)
    }
}

/// The sum of `values` by halves: `W / 2` sums of pairs, then of those,
/// and so on (`W` a power of two), each level a vector addition.
#[inline(always)]
fn tree_sum<T: Copy + std::ops::Add<Output = T>, const W: usize>(mut values: [T; W]) -> T {
    debug_assert!(W.is_power_of_two());
    let mut width = W;
    while width > 1 {
        width /= 2;
        for k in 0..width {
            values[k] = values[k] + values[k + width];
        }
    }
    values[0]
}

impl<F: FloatAcc> From<Moments<F>> for RecenteredMoments<F> {
    /// The same moments about their mean (rounded): `s₁` what the rounding
    /// left, `s₂ = m2 + |s₁|²/n`.
    fn from(moments: Moments<F>) -> Self {
        let m = moments.recentered();
        let n = m.count();
        let sum = m.shift().scale(F::real_from_u64(n));
        RecenteredMoments {
            n,
            center: m.pivot(),
            sum,
            sum_sq: m.m2() + sum.dot_re(m.shift()),
        }
    }
}

impl<F: FloatAcc> State<F> for RecenteredMoments<F> {
    /// `(count, mean, m2)`, as [`Moments`].
    type Output = (u64, F, F::Real);
    #[inline(always)]
    fn push(&mut self, x: F) {
        self.push_skipping_nan(x);
    }
    /// Both states about their means, then the smaller one's sums moved to
    /// the larger one's center: with `δ = c_b − c_a`,
    /// `s₁ = s₁ₐ + s₁_b + n_b·δ`, `s₂ = s₂ₐ + s₂_b + 2·Re(δ̄·s₁_b) + n_b·|δ|²`.
    /// The moments then hold Chan's `m2 = m2ₐ + m2_b + |δ|²·nₐ·n_b/n`,
    /// whose last term comes out of `n_b·|δ|² − |n_b·δ|²/n`: a cancellation
    /// of at most half (`n_b ≤ nₐ`). Sums that are not finite merge as
    /// [`Moments`] do.
    #[inline(always)]
    fn merge(&mut self, other: &Self) {
        if other.n == 0 {
            return;
        }
        if self.n == 0 {
            *self = *other;
            return;
        }
        let (mut a, mut b) = if self.n >= other.n {
            (*self, *other)
        } else {
            (*other, *self)
        };
        a.recenter();
        b.recenter();
        let delta = b.center - a.center;
        let nb = F::real_from_u64(b.n);
        let two = F::real_from_u64(2);
        let sum = a.sum + b.sum + delta.scale(nb);
        let sum_sq = a.sum_sq + b.sum_sq + two * b.sum.dot_re(delta) + delta.abs2() * nb;
        if !(sum_sq.is_finite() && sum.all_finite()) {
            let mut moments = self.moments();
            moments.merge(&other.moments());
            *self = Self::from(moments);
            return;
        }
        *self = RecenteredMoments {
            n: a.n + b.n,
            center: a.center,
            sum,
            sum_sq,
        };
    }
    fn finish(&self) -> (u64, F, F::Real) {
        self.moments().finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The state after `xs` one at a time, against the two-pass moments.
    fn check(xs: &[f64]) {
        let mut m = RecenteredMoments::<f64>::default();
        xs.iter().for_each(|&x| m.push(x));
        let valid: Vec<f64> = xs.iter().copied().filter(|x| !x.is_nan()).collect();
        let want = Moments::from_slice(&valid);
        let (n, mean, m2) = m.finish();
        assert_eq!(n, want.count());
        let close =
            |a: f64, b: f64, tol: f64| a == b || (a.is_nan() && b.is_nan()) || (a - b).abs() <= tol;
        // the mean as a plain sum's (deviations summed one at a time), m2
        // as a two-pass one's
        let magnitude = valid.iter().map(|x| x.abs()).sum::<f64>();
        let mean_tol = 2.0 * f64::EPSILON * magnitude;
        assert!(
            close(mean, want.mean(), mean_tol),
            "{mean} vs {}",
            want.mean()
        );
        assert!(
            close(m2, want.m2(), 1e-13 * want.m2()),
            "{m2} vs {}",
            want.m2()
        );
    }

    #[test]
    fn one_at_a_time_matches_two_passes() {
        for n in [0, 1, 2, 3, 15, 16, 17, 33, 100, 1000] {
            let xs: Vec<f64> = (0..n)
                .map(|i| {
                    if i % 7 == 3 {
                        f64::NAN
                    } else {
                        1e8 + ((i * 37) % 11) as f64
                    }
                })
                .collect();
            check(&xs);
        }
        // a first value far off the rest: the first block's center
        let mut xs = vec![1e12];
        xs.extend((0..5000).map(|i| (i % 13) as f64 * 0.25));
        check(&xs);
        // the far value later, in a block about the earlier mean
        let mut xs: Vec<f64> = (0..5000).map(|i| (i % 13) as f64 * 0.25).collect();
        xs.insert(2500, -1e12);
        check(&xs);
    }

    #[test]
    fn far_values_keep_welfords_meaning() {
        let mut m = RecenteredMoments::<f64>::default();
        [1.0, f64::INFINITY, 2.0].iter().for_each(|&x| m.push(x));
        assert!(m.finish().2.is_nan());
        let mut m = RecenteredMoments::<f64>::default();
        [1e300, -1e300, 1.0].iter().for_each(|&x| m.push(x));
        assert_eq!(m.finish().2, f64::INFINITY);
        let mut m = RecenteredMoments::<f64>::default();
        [f64::NAN, f64::NAN].iter().for_each(|&x| m.push(x));
        assert_eq!(m.finish().0, 0);
    }

    #[test]
    fn merges_as_one_state() {
        let xs: Vec<f64> = (0..300).map(|i| 5.0 + ((i * 29) % 17) as f64).collect();
        let mut a = RecenteredMoments::<f64>::default();
        let mut b = RecenteredMoments::<f64>::default();
        xs[..130].iter().for_each(|&x| a.push(x));
        xs[130..].iter().for_each(|&x| b.push(x));
        a.merge(&b);
        let want = Moments::from_slice(&xs);
        let (n, mean, m2) = a.finish();
        assert_eq!(n, 300);
        assert!((mean - want.mean()).abs() <= 1e-14 * want.mean());
        assert!((m2 - want.m2()).abs() <= 1e-13 * want.m2());
    }

    /// A window's first `len` values against the same pushed one by one:
    /// the same count and center, sums to rounding, for every length and
    /// with NaN anywhere; what lies past `len` (infinities, huge values) is
    /// not read; an infinity or a square that overflows in the run is
    /// `None`; no valid value is the empty state.
    #[test]
    fn a_window_holds_its_runs_values() {
        let pattern = |k: usize| match k % 5 {
            2 => f64::NAN,
            _ => 1e6 + (k * 37 % 23) as f64 * 0.125,
        };
        for len in 0..=16 {
            let mut window = [f64::INFINITY; 16];
            for (k, x) in window.iter_mut().enumerate().take(len) {
                *x = pattern(k + len);
            }
            if len < 16 {
                window[len] = 1e300;
            }
            let mut want = RecenteredMoments::default();
            for &x in &window[..len] {
                want.push_in_run(x);
            }
            let got = RecenteredMoments::of_window(&window, len).expect("finite");
            let (n, mean, m2) = got.finish();
            let (wn, wmean, wm2) = want.finish();
            assert_eq!(
                (n, got.center.to_bits()),
                (wn, want.center.to_bits()),
                "{len}"
            );
            if wn > 0 {
                assert!((mean - wmean).abs() <= 1e-15 * wmean.abs(), "{len}");
                assert!((m2 - wm2).abs() <= 1e-12 * wm2.max(1.0), "{len}");
            }
        }
        let mut window = [f64::NAN; 16];
        assert!(RecenteredMoments::of_window(&window, 16)
            .unwrap()
            .is_empty());
        window[3] = f64::NEG_INFINITY;
        assert!(RecenteredMoments::of_window(&window, 4).is_none());
        assert!(RecenteredMoments::of_window(&window, 3).unwrap().is_empty());
        window[..2].copy_from_slice(&[1e200, -1e200]);
        assert!(RecenteredMoments::of_window(&window, 2).is_none());
    }
}
