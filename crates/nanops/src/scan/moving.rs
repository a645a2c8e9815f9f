//! Moving-window statistics (`move_sum` … `move_argmax`, `move_count`):
//! lane kernels over a trailing window, NaN skipped, computed in `f64`.
//!
//! Sums, means and variances are computed by blocks of the window
//! ([`super::blocked`]): every window's result from that window's values
//! alone. Extrema and their positions keep a monotonic deque of (index,
//! value) pairs (amortised O(1) per step).

use super::blocked::{rows_width, wide, BlockStatistic, SumOrMean, VarOrStd};
use super::window::{LaneKernel, WindowSpec};
use super::{blocked_segments, blocked_sum, blocked_var_rows, blocked_var_segments};
use crate::element::{QuantileElement, SelectFloat};
use crate::error::Result;
use std::mem::MaybeUninit;

/// The [`LaneKernel`] of a blocked statistic (`blocked`): `$k` the kernel,
/// `$stat` its statistic, `$spec` its window; `dispatched` runs it compiled
/// for the best instruction set, `baseline` as compiled (the sums' select of
/// finite values measured slower at the wider sets for float32, at issue Q:
/// the "Moving windows under extremes" section in BENCHMARKS.md's history).
macro_rules! blocked_kernel {
    ($kernel:ty, $k:ident => $stat:expr, $spec:expr, $run:ident, $part:path, $rows:path) => {
        impl<E: QuantileElement> LaneKernel<E> for $kernel {
            type Output = E::Value;
            fn cut(&self) -> Option<(usize, usize)> {
                let $k = self;
                Some(($spec.window, $spec.window))
            }
            fn validate(&self, len: usize) -> Result<()> {
                let $k = self;
                $spec.validate(len)
            }
            fn part(
                &self,
                xs: &[E],
                from: usize,
                out: &mut [MaybeUninit<E::Value>],
                _: &mut Vec<(usize, f64)>,
            ) {
                let $k = self;
                let (stat, spec) = ($stat, &$spec);
                blocked_kernel!(@$run E, $part(&stat, spec, xs, from, out));
            }
            fn rows_tile(&self) -> Option<usize> {
                let $k = self;
                let stat = $stat;
                rows_width_for(&stat, $spec.window)
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
                let $k = self;
                let (stat, spec) = ($stat, &$spec);
                // SAFETY: as this function's contract.
                blocked_kernel!(@$run E, unsafe {
                    $rows(&stat, spec, src, stride_in, dst, stride_out, len, width)
                });
            }
        }
    };
    (@dispatched $e:ident, $call:expr) => {
        // the driver's calls of `part`/`rows` are not inlined into its
        // dispatched loops: dispatched here
        $e::dispatch(
            #[inline(always)]
            || $call,
        )
    };
    (@avx2 $e:ident, $call:expr) => {
        $crate::simd::dispatch::dispatch_avx2(
            #[inline(always)]
            || $call,
        )
    };
    (@baseline $e:ident, $call:expr) => {
        $call
    };
}

/// [`rows_width`] for the statistic `_stat` (its type named by the value).
fn rows_width_for<S: BlockStatistic>(_stat: &S, window: usize) -> Option<usize> {
    rows_width::<S>(window)
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

blocked_kernel!(MoveSum, k => SumOrMean { mean: false }, k.0, avx2, blocked_segments::part, blocked_sum::rows);
blocked_kernel!(MoveMean, k => SumOrMean { mean: true }, k.0, avx2, blocked_segments::part, blocked_sum::rows);
blocked_kernel!(
    MoveVar,
    k => VarOrStd {
        ddof: k.ddof,
        std: k.std
    },
    k.spec,
    dispatched,
    blocked_var_segments::part,
    blocked_var_rows::rows
);

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
