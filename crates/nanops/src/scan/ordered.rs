//! Moving order statistics (`move_median`, `move_quantile`, `move_rank`):
//! the window's non-NaN values kept sorted, O(log window) comparisons and
//! one `memmove` per step.
//!
//! A window of up to [`RANKED_FROM`] values is a sorted array of keys
//! ([`SortedWindow`]): each value's
//! `f64` bits mapped to an integer whose order is the values' total order
//! (`-0.0` just below `0.0`, infinities at the ends), so comparisons are
//! integer comparisons and the value leaving the window is found exactly
//! (bit for bit) by binary search. A step replaces the leaving value by the
//! entering one with one shift of the keys between their two places (often
//! few: values close in time are often close in value); NaN values are never
//! inserted. Measured against bottleneck's double heap (no skip list or
//! sorted blocks were built to compare), the sorted array is faster up to
//! window 1000 and slower at 10000 (see the CHANGELOG for the numbers),
//! and its shifts make a step O(window): a larger window is a
//! [`RankedWindow`] (a bitset over the part's sorted values with a Fenwick
//! tree over its words, O(log n) per step). Both give the same ranks, so the
//! same bits. Quantiles read the ranks they need
//! straight from the sorted keys and finish them with `nanquantile`'s code
//! (`order::select`'s `plan_picks`/`finish_picks`), so every window's
//! quantile is `nanquantile`'s of that window, bit for bit.

use super::blocked::wide;
use super::ranked_window::RankedWindow;
use super::sort_key::{equal_keys, key, value, OrderedWindow};
use super::window::{LaneKernel, WindowSpec};
use crate::element::{QuantileElement, SelectFloat};
use crate::error::Result;
use crate::options::{QDtype, QuantileMethod};
use crate::order::check_q;
use crate::order::select::{finish_picks, median_of_middles, plan_picks, Pick, QuantileScratch};
use std::mem::MaybeUninit;

/// Windows of at least this many values are a [`RankedWindow`]: below, the
/// sorted array's shifts cost less than the ranked window's sort and
/// Fenwick descents (measured on both sides of the switch: BENCHMARKS.md,
/// "Moving order statistics").
const RANKED_FROM: usize = 4096;

/// Windows holding fewer keys are searched by counting (see
/// [`SortedWindow::below`]).
const LINEAR_BELOW: usize = 64;

/// A position's result from its window: the statistic of a kernel.
trait Give<E: QuantileElement> {
    /// The result at lane position `i`, whose window `win` holds at least
    /// `min_count` values.
    fn give<W: OrderedWindow>(&mut self, win: &W, i: usize) -> E::Value;
}

/// The non-NaN values of a window, sorted, as [`key`]s.
#[derive(Clone, Debug, Default)]
pub(crate) struct SortedWindow {
    /// The keys, ascending.
    keys: Vec<i64>,
}

impl OrderedWindow for SortedWindow {
    #[inline(always)]
    fn len(&self) -> usize {
        self.keys.len()
    }

    #[inline(always)]
    fn rank(&self, r: usize) -> f64 {
        value(self.keys[r])
    }

    #[inline(always)]
    fn less_and_equal(&self, x: f64) -> (usize, usize) {
        let (lo, hi) = equal_keys(x);
        let less = self.below(lo);
        let upto = less + self.keys[less..].partition_point(|&v| v <= hi);
        (less, upto - less)
    }
}

impl SortedWindow {
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

/// Runs the window over positions `from..from + out.len()` of `xs`:
/// before position `i`'s output the window holds the non-NaN values of
/// `xs[i + 1 - window..=i]`; `give` gives position `i`'s result where the
/// window holds at least `min_count` values (NaN otherwise).
fn ordered_part<E: QuantileElement, G: Give<E>>(
    spec: &WindowSpec,
    xs: &[E],
    from: usize,
    out: &mut [MaybeUninit<E::Value>],
    give: &mut G,
) {
    if spec.window >= RANKED_FROM {
        ranked_part(spec, xs, from, out, give);
    } else {
        sorted_part(spec, xs, from, out, give);
    }
}

/// [`ordered_part`] with a [`SortedWindow`].
fn sorted_part<E: QuantileElement, G: Give<E>>(
    spec: &WindowSpec,
    xs: &[E],
    from: usize,
    out: &mut [MaybeUninit<E::Value>],
    give: &mut G,
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
        y.write(if win.len() >= min {
            give.give(&win, i)
        } else {
            nan
        });
    }
}

/// [`ordered_part`] with a [`RankedWindow`] over the part and the window
/// before it.
fn ranked_part<E: QuantileElement, G: Give<E>>(
    spec: &WindowSpec,
    xs: &[E],
    from: usize,
    out: &mut [MaybeUninit<E::Value>],
    give: &mut G,
) {
    let (w, min) = (spec.window, spec.min_count());
    let base = from.saturating_sub(w);
    let end = from + out.len();
    let keys = xs[base..end]
        .iter()
        .map(|x| (!x.is_nan_value()).then(|| key(wide(*x))));
    let mut win = RankedWindow::new(base, keys);
    for (i, x) in xs.iter().enumerate().take(from).skip(base) {
        if !x.is_nan_value() {
            win.insert(i);
        }
    }
    let nan = <E::Value as SelectFloat>::from_f64_nearest(f64::NAN);
    for (k, y) in out.iter_mut().enumerate() {
        let i = from + k;
        if i >= w && !xs[i - w].is_nan_value() {
            win.remove(i - w);
        }
        if !xs[i].is_nan_value() {
            win.insert(i);
        }
        y.write(if win.len() >= min {
            give.give(&win, i)
        } else {
            nan
        });
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

/// [`MoveMedian`]'s statistic.
struct Median;

impl<E: QuantileElement> Give<E> for Median {
    #[inline(always)]
    fn give<W: OrderedWindow>(&mut self, win: &W, _: usize) -> E::Value {
        let of = |x: f64| <E::Value as SelectFloat>::from_f64_nearest(x);
        let n = win.len();
        median_of_middles(n, of(win.rank((n - 1) / 2)), of(win.rank(n / 2)))
    }
}

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
        ordered_part(&self.0, xs, from, out, &mut Median);
    }
}

/// [`MoveQuantile`]'s statistic: the plan of each count (it depends on
/// the count alone), made once.
struct Quantile<'a, V> {
    /// The kernel.
    kernel: &'a MoveQuantile,
    /// Plans by count.
    plans: Vec<Option<Pick>>,
    /// The planner's scratch.
    scratch: QuantileScratch,
    /// The result's slot.
    result: [V; 1],
}

impl<E: QuantileElement> Give<E> for Quantile<'_, E::Value> {
    #[inline(always)]
    fn give<W: OrderedWindow>(&mut self, win: &W, _: usize) -> E::Value {
        let of = |x: f64| <E::Value as SelectFloat>::from_f64_nearest(x);
        let n = win.len();
        let (q, method) = (self.kernel.q, self.kernel.method);
        let scratch = &mut self.scratch;
        let plan = *self.plans[n].get_or_insert_with(|| {
            plan_picks(n, &[q], method, QDtype::Float64, scratch);
            scratch.picks[0]
        });
        finish_picks(&[plan], |r| Some(of(win.rank(r))), &mut self.result);
        self.result[0]
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
        let mut give = Quantile::<E::Value> {
            kernel: self,
            plans: vec![None; self.spec.window + 1],
            scratch: QuantileScratch::new(),
            result: [<E::Value as SelectFloat>::from_f64_nearest(f64::NAN)],
        };
        ordered_part(&self.spec, xs, from, out, &mut give);
    }
}

/// [`MoveRank`]'s statistic over the lane `xs`.
struct Rank<'a, E> {
    /// The lane.
    xs: &'a [E],
}

impl<E: QuantileElement> Give<E> for Rank<'_, E> {
    #[inline(always)]
    fn give<W: OrderedWindow>(&mut self, win: &W, i: usize) -> E::Value {
        let of = |x: f64| <E::Value as SelectFloat>::from_f64_nearest(x);
        let x = self.xs[i];
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
        ordered_part(&self.0, xs, from, out, &mut Rank { xs });
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
