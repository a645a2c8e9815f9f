//! Moving order statistics (`move_median`, `move_quantile`, `move_rank`):
//! the window's non-NaN values kept sorted, O(log window) comparisons and
//! one `memmove` per step.
//!
//! The window is a sorted array of keys ([`SortedWindow`]): each value's
//! `f64` bits mapped to an integer whose order is the values' total order
//! (`-0.0` just below `0.0`, infinities at the ends), so comparisons are
//! integer comparisons and the value leaving the window is found exactly
//! (bit for bit) by binary search. A step replaces the leaving value by the
//! entering one with one shift of the keys between their two places (often
//! few: values close in time are often close in value); NaN values are never
//! inserted. Measured against bottleneck's double heap (no skip list or
//! sorted blocks were built to compare), the sorted array is faster up to
//! window 1000 and 2.3x slower at 10000 (see the CHANGELOG for the numbers):
//! sorted blocks are the next step for large windows. Quantiles read the ranks they need
//! straight from the sorted keys and finish them with `nanquantile`'s code
//! (`order::select`'s `plan_picks`/`finish_picks`), so every window's
//! quantile is `nanquantile`'s of that window, bit for bit.

use super::window::{LaneKernel, WindowSpec};
use crate::element::{QuantileElement, SelectFloat};
use crate::error::Result;
use crate::options::{QDtype, QuantileMethod};
use crate::order::check_q;
use crate::order::select::{finish_picks, median_of_middles, plan_picks, Pick, QuantileScratch};
use std::mem::MaybeUninit;

/// Windows holding fewer keys are searched by counting (see
/// [`SortedWindow::below`]).
const LINEAR_BELOW: usize = 64;

/// `x`'s bits as an integer ordered as the values' total order (an
/// involution: [`value`] undoes it).
#[inline(always)]
fn key(x: f64) -> i64 {
    let b = x.to_bits() as i64;
    b ^ (((b >> 63) as u64) >> 1) as i64
}

/// The value of a [`key`].
#[inline(always)]
fn value(k: i64) -> f64 {
    f64::from_bits((k ^ (((k >> 63) as u64) >> 1) as i64) as u64)
}

/// A value in `f64` (exact for every element type).
#[inline(always)]
fn wide<E: QuantileElement>(x: E) -> f64 {
    x.to_value().to_f64_exact()
}

/// The non-NaN values of a window, sorted, as [`key`]s.
#[derive(Clone, Debug, Default)]
pub(crate) struct SortedWindow {
    /// The keys, ascending.
    keys: Vec<i64>,
}

impl SortedWindow {
    /// Values held.
    #[inline(always)]
    fn len(&self) -> usize {
        self.keys.len()
    }

    /// Keys below `k`: a binary search, or below [`LINEAR_BELOW`] keys a
    /// count over all of them (branch-free, vectorised: faster than the
    /// binary search's unpredictable branches there).
    #[inline(always)]
    fn below(&self, k: i64) -> usize {
        if self.keys.len() < LINEAR_BELOW {
            self.keys.iter().map(|&v| usize::from(v < k)).sum()
        } else {
            self.keys.partition_point(|&v| v < k)
        }
    }

    /// The value of rank `r` (0: the least).
    #[inline(always)]
    fn rank(&self, r: usize) -> f64 {
        value(self.keys[r])
    }

    /// Takes the non-NaN value `x`.
    #[inline(always)]
    fn insert(&mut self, x: f64) {
        let k = key(x);
        let at = self.below(k);
        self.keys.insert(at, k);
    }

    /// Forgets the non-NaN value `x` (held).
    #[inline(always)]
    fn remove(&mut self, x: f64) {
        let at = self.below(key(x));
        debug_assert_eq!(self.keys[at], key(x));
        self.keys.remove(at);
    }

    /// Forgets `out` (held) and takes `x`, both non-NaN: the keys between
    /// their places shift by one.
    #[inline(always)]
    fn replace(&mut self, out: f64, x: f64) {
        let (ko, ki) = (key(out), key(x));
        if self.keys.len() < LINEAR_BELOW {
            // both places in one branch-free pass: `to` counts `ko` when
            // `ki > ko` and is at most `at` otherwise
            let (mut at, mut to) = (0usize, 0usize);
            for &v in &self.keys {
                at += usize::from(v < ko);
                to += usize::from(v < ki);
            }
            debug_assert_eq!(self.keys[at], ko);
            if ki > ko {
                self.keys.copy_within(at + 1..to, at);
                self.keys[to - 1] = ki;
            } else {
                self.keys.copy_within(to..at, to + 1);
                self.keys[to] = ki;
            }
            return;
        }
        let at = self.below(ko);
        debug_assert_eq!(self.keys[at], ko);
        if ki > ko {
            let to = at + 1 + self.keys[at + 1..].partition_point(|&v| v < ki);
            self.keys.copy_within(at + 1..to, at);
            self.keys[to - 1] = ki;
        } else {
            let to = self.keys[..at].partition_point(|&v| v < ki);
            self.keys.copy_within(to..at, to + 1);
            self.keys[to] = ki;
        }
    }

    /// Values `< x` and values `== x` (IEEE: `-0.0 == 0.0`), `x` not NaN.
    #[inline(always)]
    fn less_and_equal(&self, x: f64) -> (usize, usize) {
        let (lo, hi) = if x == 0.0 {
            (key(-0.0), key(0.0))
        } else {
            (key(x), key(x))
        };
        let less = self.below(lo);
        let upto = less + self.keys[less..].partition_point(|&v| v <= hi);
        (less, upto - less)
    }

    /// Rebuilds the window from `xs` (NaN skipped).
    fn fill<E: QuantileElement>(&mut self, xs: &[E]) {
        self.keys.clear();
        self.keys.extend(
            xs.iter()
                .filter(|x| !x.is_nan_value())
                .map(|&x| key(wide(x))),
        );
        self.keys.sort_unstable();
    }
}

/// Runs the sorted window over positions `from..from + out.len()` of `xs`:
/// before position `i`'s output the window holds the non-NaN values of
/// `xs[i + 1 - window..=i]`; `give(window, i)` is position `i`'s result
/// (with at least `min_count` values; NaN otherwise unless `always`).
#[inline(always)]
fn sorted_part<E: QuantileElement>(
    spec: &WindowSpec,
    xs: &[E],
    from: usize,
    out: &mut [MaybeUninit<E::Value>],
    mut give: impl FnMut(&SortedWindow, usize) -> E::Value,
) {
    let (w, min) = (spec.window, spec.min_count());
    let mut win = SortedWindow::default();
    win.keys.reserve(w);
    // the window of position `from - 1`, which position `from` updates
    win.fill(&xs[from.saturating_sub(w)..from]);
    let nan = <E::Value as SelectFloat>::from_f64_nearest(f64::NAN);
    for (k, y) in out.iter_mut().enumerate() {
        let i = from + k;
        let x = xs[i];
        let entering = !x.is_nan_value();
        match (i >= w).then(|| xs[i - w]).filter(|v| !v.is_nan_value()) {
            Some(leaving) if entering => win.replace(wide(leaving), wide(x)),
            Some(leaving) => win.remove(wide(leaving)),
            None if entering => win.insert(wide(x)),
            None => {}
        }
        y.write(if win.len() >= min { give(&win, i) } else { nan });
    }
}

/// `move_median`: the median of the window's non-NaN values, as
/// `nanmedian`'s (the mean of the two middle values for an even count).
pub(crate) struct MoveMedian(pub WindowSpec);

/// `move_quantile`: quantile `q` of the window's non-NaN values by
/// `method`, as `nanquantile`'s with `q` a Python float.
pub(crate) struct MoveQuantile {
    /// Window and `min_count`.
    pub spec: WindowSpec,
    /// The probability, in `[0, 1]`.
    pub q: f64,
    /// NumPy's method.
    pub method: QuantileMethod,
}

/// `move_rank`: the rank of each position's value among the window's
/// non-NaN values, as bottleneck's (`2·(less + (equal − 1)/2)/(n − 1) − 1`
/// in `[-1, 1]`, 0 for a window of one value, NaN for a NaN value).
pub(crate) struct MoveRank(pub WindowSpec);

impl<E: QuantileElement> LaneKernel<E> for MoveMedian {
    type Output = E::Value;
    fn cut(&self) -> Option<(usize, usize)> {
        Some((1, self.0.window))
    }
    fn validate(&self, len: usize) -> Result<()> {
        self.0.validate(len)
    }
    fn part(
        &self,
        xs: &[E],
        from: usize,
        out: &mut [MaybeUninit<E::Value>],
        _: &mut Vec<(usize, f64)>,
    ) {
        let of = |x: f64| <E::Value as SelectFloat>::from_f64_nearest(x);
        sorted_part(&self.0, xs, from, out, |win, _| {
            let n = win.len();
            median_of_middles(n, of(win.rank((n - 1) / 2)), of(win.rank(n / 2)))
        });
    }
}

impl<E: QuantileElement> LaneKernel<E> for MoveQuantile {
    type Output = E::Value;
    fn cut(&self) -> Option<(usize, usize)> {
        Some((1, self.spec.window))
    }
    fn validate(&self, len: usize) -> Result<()> {
        self.spec.validate(len)?;
        check_q(&[self.q])
    }
    fn part(
        &self,
        xs: &[E],
        from: usize,
        out: &mut [MaybeUninit<E::Value>],
        _: &mut Vec<(usize, f64)>,
    ) {
        let of = |x: f64| <E::Value as SelectFloat>::from_f64_nearest(x);
        let mut scratch = QuantileScratch::new();
        // the plan of each count (it depends on the count alone), made once
        let mut plans: Vec<Option<Pick>> = vec![None; self.spec.window + 1];
        let mut result = [of(f64::NAN)];
        sorted_part(&self.spec, xs, from, out, |win, _| {
            let n = win.len();
            let plan = *plans[n].get_or_insert_with(|| {
                plan_picks(n, &[self.q], self.method, QDtype::Float64, &mut scratch);
                scratch.picks[0]
            });
            finish_picks(&[plan], |r| Some(of(win.rank(r))), &mut result);
            result[0]
        });
    }
}

impl<E: QuantileElement> LaneKernel<E> for MoveRank {
    type Output = E::Value;
    fn cut(&self) -> Option<(usize, usize)> {
        Some((1, self.0.window))
    }
    fn validate(&self, len: usize) -> Result<()> {
        self.0.validate(len)
    }
    fn part(
        &self,
        xs: &[E],
        from: usize,
        out: &mut [MaybeUninit<E::Value>],
        _: &mut Vec<(usize, f64)>,
    ) {
        let of = |x: f64| <E::Value as SelectFloat>::from_f64_nearest(x);
        sorted_part(&self.0, xs, from, out, |win, i| {
            let x = xs[i];
            if x.is_nan_value() {
                return of(f64::NAN);
            }
            let n = win.len();
            if n == 1 {
                return of(0.0);
            }
            // bottleneck's arithmetic: g = 2·less, e = equal (itself included)
            let (less, equal) = win.less_and_equal(wide(x));
            let r = 0.5 * (2.0 * less as f64 + equal as f64 - 1.0) / (n as f64 - 1.0);
            of(2.0 * (r - 0.5))
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_order_values_totally_and_come_back() {
        let xs = [
            f64::NEG_INFINITY,
            -1e300,
            -1.0,
            -f64::MIN_POSITIVE,
            -0.0,
            0.0,
            5e-324,
            1.0,
            1e300,
            f64::INFINITY,
        ];
        for pair in xs.windows(2) {
            assert!(key(pair[0]) < key(pair[1]), "{pair:?}");
        }
        for &x in &xs {
            assert_eq!(value(key(x)).to_bits(), x.to_bits());
        }
    }

    #[test]
    fn sorted_window_replaces_exactly() {
        let mut w = SortedWindow::default();
        for x in [3.0, 1.0, 2.0, 2.0, -0.0, 0.0] {
            w.insert(x);
        }
        w.replace(2.0, 5.0);
        w.replace(-0.0, -7.0);
        w.remove(3.0);
        let got: Vec<u64> = (0..w.len()).map(|r| w.rank(r).to_bits()).collect();
        let want: Vec<u64> = [-7.0, 0.0, 1.0, 2.0, 5.0]
            .iter()
            .map(|x: &f64| x.to_bits())
            .collect();
        assert_eq!(got, want);
        w.insert(-0.0);
        assert_eq!(w.less_and_equal(0.0), (1, 2));
        assert_eq!(w.less_and_equal(2.0), (4, 1));
        assert_eq!(w.less_and_equal(9.0), (6, 0));
    }
}
