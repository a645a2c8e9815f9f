//! Moving-window statistics (`move_sum` … `move_argmax`, `move_count`):
//! lane kernels over a trailing window, NaN skipped, computed in `f64`.
//!
//! Sums and means keep a compensated pair `hi + lo` updated in O(1) per step
//! by the difference of the entering and the leaving value, both additions
//! error-free (TwoSum), branch-free; variances keep Welford's [`Moments`]
//! run forwards and backwards (`Invertible::remove`). Both are rebuilt from
//! the window's values every [`resync_period`] positions, a period fixed by
//! the window alone (results do not depend on threads, tiles or cuts).
//! Infinite values are counted apart from the finite ones, so an infinity
//! leaving the window leaves no NaN behind. Extrema and their positions keep
//! a monotonic deque of (index, value) pairs (amortised O(1) per step).

use super::window::{LaneKernel, WindowSpec};
use crate::element::{QuantileElement, SelectFloat};
use crate::error::Result;
use crate::states::{Invertible, Moments, State};
use std::mem::MaybeUninit;

/// Positions between two rebuilds of an invertible window state from the
/// window's values: at least twice the window (a rebuild costs at most half
/// a step per position), at least 1024.
#[inline(always)]
pub(crate) fn resync_period(window: usize) -> usize {
    (2 * window).max(1024)
}

/// A value in `f64`, the arithmetic type of every moving statistic.
#[inline(always)]
fn wide<E: QuantileElement>(x: E) -> f64 {
    x.to_value().to_f64_exact()
}

/// A window state that can take and forget values (NaN already skipped).
trait WindowState: Default {
    /// Takes a non-NaN value.
    fn add(&mut self, x: f64);
    /// Forgets a non-NaN value taken earlier.
    fn remove(&mut self, x: f64);
}

/// Count, Welford moments of the finite values, and the infinities.
#[derive(Clone, Copy, Default)]
struct Spread {
    /// Non-NaN values in the window.
    n: usize,
    /// Count, mean and M2 of the finite values.
    moments: Moments<f64>,
    /// Infinite values in the window (any makes the variance NaN).
    infinite: usize,
    /// The newest non-NaN value taken.
    last: f64,
    /// How many non-NaN values taken in a row (NaN skipped) equal `last`:
    /// when it reaches `n` the window's values are all equal and the
    /// variance is exactly 0 (Welford's backward update can leave a
    /// rounding residue there; pandas makes the same check).
    run: usize,
}

impl WindowState for Spread {
    #[inline(always)]
    fn add(&mut self, x: f64) {
        self.n += 1;
        if x.is_finite() {
            self.moments.push(x);
        } else {
            self.infinite += 1;
        }
        if self.run > 0 && x == self.last {
            self.run += 1;
        } else {
            self.last = x;
            self.run = 1;
        }
    }
    #[inline(always)]
    fn remove(&mut self, x: f64) {
        self.n -= 1;
        if x.is_finite() {
            self.moments.remove(x);
        } else {
            self.infinite -= 1;
        }
    }
}

/// The invertible-window loop over positions `from..from + out.len()`:
/// position `i` takes `xs[i]`, forgets `xs[i - window]`, and is rebuilt from
/// the window's values every [`resync_period`] positions; `value(state)`
/// gives a position with at least `min_count` non-NaN values
/// (`count(state)`), NaN otherwise. `from` is 0 or a multiple of the period
/// (at least twice the window), where the state is rebuilt anyway: a part
/// starting there gives the same bits as the whole lane.
#[inline(always)]
fn invertible_part<E: QuantileElement, S: WindowState>(
    spec: &WindowSpec,
    xs: &[E],
    from: usize,
    out: &mut [MaybeUninit<E::Value>],
    count: impl Fn(&S) -> usize,
    value: impl Fn(&S) -> f64,
) {
    let (w, min) = (spec.window, spec.min_count());
    let period = resync_period(w);
    debug_assert!(from.is_multiple_of(period));
    let mut st = S::default();
    let nan = <E::Value as SelectFloat>::from_f64_nearest(f64::NAN);
    // the next multiple of the period at which the state is rebuilt (every
    // such multiple is at least the window)
    let mut rebuild = if from == 0 { period } else { from };
    for (k, (&x, y)) in xs[from..].iter().zip(out.iter_mut()).enumerate() {
        let i = from + k;
        if i >= w {
            if i == rebuild {
                rebuild += period;
                st = S::default();
                for &v in &xs[i + 1 - w..i] {
                    if !v.is_nan_value() {
                        st.add(wide(v));
                    }
                }
            } else {
                let leaving = xs[i - w];
                if !leaving.is_nan_value() {
                    st.remove(wide(leaving));
                }
            }
        }
        if !x.is_nan_value() {
            st.add(wide(x));
        }
        y.write(if count(&st) >= min {
            <E::Value as SelectFloat>::from_f64_nearest(value(&st))
        } else {
            nan
        });
    }
}

/// `move_sum`: the sum of the window's non-NaN values.
pub(crate) struct MoveSum(pub WindowSpec);
/// `move_mean`: the mean of the window's non-NaN values.
pub(crate) struct MoveMean(pub WindowSpec);
/// `move_count`: the number of the window's non-NaN values.
pub(crate) struct MoveCount(pub WindowSpec);
/// `move_var` (`std: false`) / `move_std` (`std: true`): the variance of the
/// window's non-NaN values with `ddof` (NaN where `count <= ddof`).
pub(crate) struct MoveVar {
    /// Window and `min_count`.
    pub spec: WindowSpec,
    /// Delta degrees of freedom.
    pub ddof: f64,
    /// Whether to give the standard deviation.
    pub std: bool,
}

/// Knuth's TwoSum: `(t, e)` with `t = a + b` rounded and `t + e == a + b`
/// exactly (for finite `t`), branch-free.
#[inline(always)]
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let t = a + b;
    let bp = t - a;
    (t, (a - (t - bp)) + (b - bp))
}

/// The window's finite sum as `hi + lo`, its non-NaN count and its
/// infinities.
#[derive(Clone, Copy, Default)]
struct Running {
    /// Leading part of the finite values' sum.
    hi: f64,
    /// The exact rounding errors of every addition into `hi`.
    lo: f64,
    /// Non-NaN values.
    n: usize,
    /// `+inf` values.
    pos: usize,
    /// `-inf` values.
    neg: usize,
}

/// A value split for the running sums: its finite part (0 for NaN and
/// infinities), whether it counts, whether it is `+inf`, `-inf`.
#[inline(always)]
fn parts(v: f64) -> (f64, usize, usize, usize) {
    (
        if v.is_finite() { v } else { 0.0 },
        usize::from(!v.is_nan()),
        usize::from(v == f64::INFINITY),
        usize::from(v == f64::NEG_INFINITY),
    )
}

impl Running {
    /// Takes one value.
    #[inline(always)]
    fn add(&mut self, v: f64) {
        let (f, c, p, m) = parts(v);
        let (t, e) = two_sum(self.hi, f);
        self.hi = t;
        self.lo += e;
        self.n += c;
        self.pos += p;
        self.neg += m;
    }
    /// Takes `v_in` and forgets `v_out`: their finite difference is added
    /// as one exact pair (two TwoSums, one addition on the dependency chain).
    #[inline(always)]
    fn replace(&mut self, v_in: f64, v_out: f64) {
        let (fi, ci, pi, mi) = parts(v_in);
        let (fo, co, po, mo) = parts(v_out);
        let (d, e1) = two_sum(fi, -fo);
        let (t, e2) = two_sum(self.hi, d);
        self.hi = t;
        self.lo += e1 + e2;
        self.n = self.n + ci - co;
        self.pos = self.pos + pi - po;
        self.neg = self.neg + mi - mo;
    }
    /// The sum of the window's non-NaN values.
    #[inline(always)]
    fn total(&self) -> f64 {
        if self.pos | self.neg == 0 {
            self.hi + self.lo
        } else if self.neg == 0 {
            f64::INFINITY
        } else if self.pos == 0 {
            f64::NEG_INFINITY
        } else {
            f64::NAN
        }
    }
}

/// `move_sum` (`MEAN = false`) / `move_mean` over positions
/// `from..from + out.len()` (see [`invertible_part`] for `from` and the
/// rebuilds).
#[inline(always)]
fn sums_part<E: QuantileElement, const MEAN: bool>(
    spec: &WindowSpec,
    xs: &[E],
    from: usize,
    out: &mut [MaybeUninit<E::Value>],
) {
    let (w, min) = (spec.window, spec.min_count());
    let period = resync_period(w);
    debug_assert!(from.is_multiple_of(period));
    let nan = <E::Value as SelectFloat>::from_f64_nearest(f64::NAN);
    let finish = |r: &Running| {
        if r.n >= min {
            let s = r.total();
            <E::Value as SelectFloat>::from_f64_nearest(if MEAN { s / r.n as f64 } else { s })
        } else {
            nan
        }
    };
    let end = from + out.len();
    let mut r = Running::default();
    let mut i = from;
    // positions before the first full window: nothing leaves
    while i < end && i < w {
        r.add(wide(xs[i]));
        out[i - from].write(finish(&r));
        i += 1;
    }
    let mut rebuild = if from == 0 { period } else { from };
    while i < end {
        if i == rebuild {
            r = Running::default();
            for &v in &xs[i + 1 - w..=i] {
                r.add(wide(v));
            }
            out[i - from].write(finish(&r));
            rebuild += period;
            i += 1;
        }
        let stop = end.min(rebuild);
        for (k, y) in out[i - from..stop - from].iter_mut().enumerate() {
            let j = i + k;
            r.replace(wide(xs[j]), wide(xs[j - w]));
            y.write(finish(&r));
        }
        i = stop;
    }
}

/// Lanes [`sums_rows`] computes side by side.
const SIDE: usize = 256;

/// [`sums_part`] for `width <= SIDE` lanes side by side (the rows strategy:
/// axis 0 of a C array): the same operations on each lane in the same
/// order, so the same bits, with every lane's state in an array and every
/// row read and written contiguously.
///
/// # Safety
/// As [`LaneKernel::rows`].
#[inline(always)]
unsafe fn sums_rows<E: QuantileElement, const MEAN: bool>(
    spec: &WindowSpec,
    src: *const E,
    stride_in: isize,
    dst: *mut E::Value,
    stride_out: isize,
    len: usize,
    width: usize,
) {
    let (w, min) = (spec.window, spec.min_count() as f64);
    let period = resync_period(w);
    let width = width.min(SIDE);
    let (mut hi, mut lo) = ([0f64; SIDE], [0f64; SIDE]);
    let (mut n, mut pos, mut neg) = ([0f64; SIDE], [0f64; SIDE], [0f64; SIDE]);
    // SAFETY (both closures): rows `0..len` of `width` lanes lie in the view
    // and in the output (this function's contract).
    let row =
        |i: usize| unsafe { std::slice::from_raw_parts(src.offset(i as isize * stride_in), width) };
    let nan = <E::Value as SelectFloat>::from_f64_nearest(f64::NAN);
    let mut rebuild = period;
    for i in 0..len {
        let adding = i < w || i == rebuild;
        if i == rebuild {
            rebuild += period;
            hi = [0.0; SIDE];
            lo = [0.0; SIDE];
            n = [0.0; SIDE];
            pos = [0.0; SIDE];
            neg = [0.0; SIDE];
            for j in i + 1 - w..i {
                add_row(row(j), &mut hi, &mut lo, &mut n, &mut pos, &mut neg);
            }
        }
        if adding {
            add_row(row(i), &mut hi, &mut lo, &mut n, &mut pos, &mut neg);
        } else {
            let (xin, xout) = (row(i), row(i - w));
            for c in 0..width {
                let (fi, ci, pi, mi) = parts(wide(xin[c]));
                let (fo, co, po, mo) = parts(wide(xout[c]));
                let (d, e1) = two_sum(fi, -fo);
                let (t, e2) = two_sum(hi[c], d);
                hi[c] = t;
                lo[c] += e1 + e2;
                n[c] += ci as f64 - co as f64;
                pos[c] += pi as f64 - po as f64;
                neg[c] += mi as f64 - mo as f64;
            }
        }
        // SAFETY: as `row`.
        let out =
            unsafe { std::slice::from_raw_parts_mut(dst.offset(i as isize * stride_out), width) };
        for c in 0..width {
            let r = Running {
                hi: hi[c],
                lo: lo[c],
                n: n[c] as usize,
                pos: pos[c] as usize,
                neg: neg[c] as usize,
            };
            out[c] = if n[c] >= min {
                let s = r.total();
                <E::Value as SelectFloat>::from_f64_nearest(if MEAN { s / n[c] } else { s })
            } else {
                nan
            };
        }
    }
}

/// Takes one row of values into the side-by-side sums (as [`Running::add`]).
#[inline(always)]
fn add_row<E: QuantileElement>(
    xs: &[E],
    hi: &mut [f64; SIDE],
    lo: &mut [f64; SIDE],
    n: &mut [f64; SIDE],
    pos: &mut [f64; SIDE],
    neg: &mut [f64; SIDE],
) {
    for (c, &x) in xs.iter().enumerate() {
        let (f, k, p, m) = parts(wide(x));
        let (t, e) = two_sum(hi[c], f);
        hi[c] = t;
        lo[c] += e;
        n[c] += k as f64;
        pos[c] += p as f64;
        neg[c] += m as f64;
    }
}

impl<E: QuantileElement> LaneKernel<E> for MoveSum {
    type Output = E::Value;
    fn cut(&self) -> Option<(usize, usize)> {
        Some((resync_period(self.0.window), self.0.window))
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
        sums_part::<E, false>(&self.0, xs, from, out);
    }
    fn rows_tile(&self) -> Option<usize> {
        Some(SIDE)
    }
    unsafe fn rows(
        &self,
        src: *const E,
        stride_in: isize,
        dst: *mut E::Value,
        stride_out: isize,
        len: usize,
        width: usize,
    ) {
        // SAFETY: as this function's contract.
        unsafe { sums_rows::<E, false>(&self.0, src, stride_in, dst, stride_out, len, width) }
    }
}

impl<E: QuantileElement> LaneKernel<E> for MoveMean {
    type Output = E::Value;
    fn cut(&self) -> Option<(usize, usize)> {
        Some((resync_period(self.0.window), self.0.window))
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
        sums_part::<E, true>(&self.0, xs, from, out);
    }
    fn rows_tile(&self) -> Option<usize> {
        Some(SIDE)
    }
    unsafe fn rows(
        &self,
        src: *const E,
        stride_in: isize,
        dst: *mut E::Value,
        stride_out: isize,
        len: usize,
        width: usize,
    ) {
        // SAFETY: as this function's contract.
        unsafe { sums_rows::<E, true>(&self.0, src, stride_in, dst, stride_out, len, width) }
    }
}

impl<E: QuantileElement> LaneKernel<E> for MoveCount {
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
        let (w, min) = (self.0.window, self.0.min_count());
        // the valid values of the window before `from`
        let mut n = xs[from.saturating_sub(w)..from]
            .iter()
            .filter(|x| !x.is_nan_value())
            .count();
        for (k, (&x, y)) in xs[from..].iter().zip(out.iter_mut()).enumerate() {
            let i = from + k;
            n += usize::from(!x.is_nan_value());
            if i >= w {
                n -= usize::from(!xs[i - w].is_nan_value());
            }
            let v = if n >= min { n as f64 } else { f64::NAN };
            y.write(<E::Value as SelectFloat>::from_f64_nearest(v));
        }
    }
}

impl<E: QuantileElement> LaneKernel<E> for MoveVar {
    type Output = E::Value;
    fn cut(&self) -> Option<(usize, usize)> {
        Some((resync_period(self.spec.window), self.spec.window))
    }
    fn validate(&self, len: usize) -> Result<()> {
        self.spec.validate(len)
    }
    fn part(
        &self,
        xs: &[E],
        from: usize,
        out: &mut [MaybeUninit<E::Value>],
        _: &mut Vec<(usize, f64)>,
    ) {
        let (ddof, std) = (self.ddof, self.std);
        invertible_part::<E, Spread>(
            &self.spec,
            xs,
            from,
            out,
            |s| s.n,
            |s| {
                let dof = s.n as f64 - ddof;
                if s.infinite > 0 || dof <= 0.0 {
                    return f64::NAN;
                }
                let var = if s.run >= s.n {
                    0.0
                } else {
                    s.moments.m2() / dof
                };
                if std {
                    var.sqrt()
                } else {
                    var
                }
            },
        );
    }
}

/// What a monotonic-deque kernel gives: the extremum or its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Give {
    /// The extreme value.
    Value,
    /// Its distance from the window's last position (bottleneck's index).
    Index,
}

/// `move_min`/`move_max`/`move_argmin`/`move_argmax` (`MAX` picks the
/// extremum): a monotonic deque of the window's non-NaN indices whose values
/// decrease (max) or increase (min) from front to back; ties keep the latest
/// index, so a position's `argmax` is the most recent of equal maxima, as
/// bottleneck's.
pub(crate) struct MoveExtremum<const MAX: bool> {
    /// Window and `min_count`.
    spec: WindowSpec,
    /// Value or index.
    give: Give,
}

impl<const MAX: bool> MoveExtremum<MAX> {
    /// The extreme value of each window.
    pub(crate) fn value(spec: WindowSpec) -> Self {
        MoveExtremum {
            spec,
            give: Give::Value,
        }
    }
    /// The position of each window's extremum, counted back from its last
    /// position (0: the newest value), as bottleneck counts it.
    pub(crate) fn index(spec: WindowSpec) -> Self {
        MoveExtremum {
            spec,
            give: Give::Index,
        }
    }
}

impl<E: QuantileElement, const MAX: bool> LaneKernel<E> for MoveExtremum<MAX> {
    type Output = E::Value;
    fn cut(&self) -> Option<(usize, usize)> {
        Some((1, self.spec.window))
    }
    fn validate(&self, len: usize) -> Result<()> {
        self.spec.validate(len)
    }
    fn part(
        &self,
        xs: &[E],
        from: usize,
        out: &mut [MaybeUninit<E::Value>],
        dq: &mut Vec<(usize, f64)>,
    ) {
        let (w, min) = (self.spec.window, self.spec.min_count());
        let start = from.saturating_sub(w);
        // the deque lives in dq[head..tail]; at most one push per position
        dq.clear();
        dq.resize(from - start + out.len(), (0, 0.0));
        let (mut head, mut tail, mut n) = (0usize, 0usize, 0usize);
        // takes position `i`'s value into the deque; whether it counts
        let take = |i: usize, head: usize, tail: &mut usize, dq: &mut [(usize, f64)]| {
            let x = xs[i];
            if x.is_nan_value() {
                return false;
            }
            let v = wide(x);
            while *tail > head {
                let back = dq[*tail - 1].1;
                let dominated = if MAX { back <= v } else { back >= v };
                if !dominated {
                    break;
                }
                *tail -= 1;
            }
            dq[*tail] = (i, v);
            *tail += 1;
            true
        };
        // the window before `from`: the deque depends on its values alone
        for i in start..from {
            n += usize::from(take(i, head, &mut tail, dq));
        }
        let nan = <E::Value as SelectFloat>::from_f64_nearest(f64::NAN);
        for (k, y) in out.iter_mut().enumerate() {
            let i = from + k;
            if i >= w {
                n -= usize::from(!xs[i - w].is_nan_value());
                if head < tail && dq[head].0 == i - w {
                    head += 1;
                }
            }
            n += usize::from(take(i, head, &mut tail, dq));
            y.write(if n >= min {
                let (j, v) = dq[head];
                match self.give {
                    Give::Value => <E::Value as SelectFloat>::from_f64_nearest(v),
                    Give::Index => <E::Value as SelectFloat>::from_f64_nearest((i - j) as f64),
                }
            } else {
                nan
            });
        }
    }
}
