//! Moving covariance and correlation of two series (numbagg's `move_cov`,
//! `move_corr`): a [`PairKernel`] over the pairs of a trailing window whose
//! values are both not NaN, computed in `f64` by blocks of the window, so
//! that every window's result comes from that window's values alone.
//!
//! The lane is cut into blocks of `window` positions from its start. The
//! window ending at `i` is the tail of the block before `i`'s (from
//! `i + 1 − window` on) and the head of `i`'s own block (up to `i`). Heads
//! are Welford's co-moment updates run forwards through a block, tails the
//! same run backwards through the block before, and a position merges its
//! tail and head (Chan's formula). A value outside the window, an outlier
//! or an infinity, never touches the result (numbagg's running sums keep
//! its rounding, or NaN, for the rest of the lane), and the cancellation of
//! `Σxy − ΣxΣy/n` is avoided. A window holding an infinity gives NaN.

use super::blocked::wide;
use super::pair_driver::PairKernel;
use super::window::WindowSpec;
use crate::element::{QuantileElement, SelectFloat};
use crate::error::Result;
use crate::simd::dispatch::dispatch_avx2;
use crate::states::{finish_pair, CoState};
use std::mem::MaybeUninit;

/// `move_cov` (`corr: false`, `ddof = 1`) or `move_corr`: over the pairs of
/// the last `window` positions whose values are both not NaN, NaN where
/// fewer than `min_count` (at least 2 for the covariance), where the window
/// holds an infinity, and for a correlation where a variance is zero.
pub(crate) struct MoveCoMoment {
    /// Window and `min_count`.
    pub spec: WindowSpec,
    /// Whether to give the correlation.
    pub corr: bool,
}

/// The buffers of [`MoveCoMoment`], kept across the lanes of a task.
#[derive(Default)]
pub(crate) struct CoScratch {
    /// `recip[k] = 1/k` for `k` in `1..=window` (`recip[0] = 0`).
    recip: Vec<f64>,
    /// The tails of the block before the current one: `tails[j]` holds the
    /// pairs from `j` positions after that block's start to its end.
    tails: Vec<CoState>,
}

impl MoveCoMoment {
    /// Positions `from..from + out.len()` (`from` a multiple of the window).
    #[inline(always)]
    fn lane<E: QuantileElement, const CORR: bool>(
        &self,
        xs: &[E],
        ys: &[E],
        from: usize,
        out: &mut [MaybeUninit<E::Value>],
        scratch: &mut CoScratch,
    ) {
        let w = self.spec.window;
        let min = self.spec.min_count().max(if CORR { 1 } else { 2 });
        if scratch.recip.len() != w + 1 {
            scratch.recip = (0..=w)
                .map(|k| if k == 0 { 0.0 } else { 1.0 / k as f64 })
                .collect();
        }
        scratch.tails.resize(w + 1, CoState::default());
        let (recip, tails) = (&scratch.recip[..], &mut scratch.tails[..]);
        debug_assert_eq!(from % w, 0, "parts start at a block");
        let end = from + out.len();
        let mut s = from;
        while s < end {
            let e = (s + w).min(end);
            let with_tail = s >= w;
            if with_tail {
                let mut st = CoState::default();
                tails[w] = st;
                for j in (1..w).rev() {
                    let p = s - w + j;
                    st.take::<CORR>(wide(xs[p]), wide(ys[p]), recip);
                    tails[j] = st;
                }
            }
            let mut head = CoState::default();
            let empty = CoState::default();
            for i in s..e {
                head.take::<CORR>(wide(xs[i]), wide(ys[i]), recip);
                // the window `i + 1 − w ..= i` starts `i + 1 − s` positions
                // into the block before
                let t = if with_tail { &tails[i + 1 - s] } else { &empty };
                let v = finish_pair::<CORR>(t, &head, min, recip);
                out[i - from].write(<E::Value as SelectFloat>::from_f64_nearest(v));
            }
            s = e;
        }
    }
}

impl<E: QuantileElement> PairKernel<E> for MoveCoMoment {
    type Output = E::Value;
    type Scratch = CoScratch;
    fn validate(&self, len: usize) -> Result<()> {
        self.spec.validate(len)
    }
    fn part(
        &self,
        xs: &[E],
        ys: &[E],
        from: usize,
        out: &mut [MaybeUninit<E::Value>],
        scratch: &mut CoScratch,
    ) {
        // the driver's call of `part` is not inlined into its dispatched
        // loop: dispatched here (the arithmetic is in f64 for every `E`)
        if self.corr {
            dispatch_avx2(
                #[inline(always)]
                || self.lane::<E, true>(xs, ys, from, out, scratch),
            );
        } else {
            dispatch_avx2(
                #[inline(always)]
                || self.lane::<E, false>(xs, ys, from, out, scratch),
            );
        }
    }
    fn cut(&self) -> Option<(usize, usize)> {
        Some((self.spec.window, self.spec.window))
    }
    fn scratch_bytes(&self) -> usize {
        (self.spec.window + 1)
            .saturating_mul(std::mem::size_of::<CoState>() + std::mem::size_of::<f64>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The covariance (or correlation) of the pairs of `x[i+1-w..=i]`, by
    /// two passes over the window's pairs.
    fn reference(x: &[f64], y: &[f64], w: usize, min: usize, corr: bool) -> Vec<f64> {
        (0..x.len())
            .map(|i| {
                let lo = (i + 1).saturating_sub(w);
                let pairs: Vec<(f64, f64)> = (lo..=i)
                    .filter(|&j| !x[j].is_nan() && !y[j].is_nan())
                    .map(|j| (x[j], y[j]))
                    .collect();
                let n = pairs.len();
                if n < min.max(if corr { 1 } else { 2 }) {
                    return f64::NAN;
                }
                let ma = pairs.iter().map(|p| p.0).sum::<f64>() / n as f64;
                let mb = pairs.iter().map(|p| p.1).sum::<f64>() / n as f64;
                let c: f64 = pairs.iter().map(|p| (p.0 - ma) * (p.1 - mb)).sum();
                if !corr {
                    return c / (n - 1) as f64;
                }
                let va: f64 = pairs.iter().map(|p| (p.0 - ma) * (p.0 - ma)).sum();
                let vb: f64 = pairs.iter().map(|p| (p.1 - mb) * (p.1 - mb)).sum();
                if va * vb > 0.0 {
                    c / (va.sqrt() * vb.sqrt())
                } else {
                    f64::NAN
                }
            })
            .collect()
    }

    fn run(
        x: &[f64],
        y: &[f64],
        w: usize,
        min: Option<usize>,
        corr: bool,
        from: usize,
    ) -> Vec<f64> {
        let k = MoveCoMoment {
            spec: WindowSpec {
                window: w,
                min_count: min,
            },
            corr,
        };
        let mut out = vec![MaybeUninit::uninit(); x.len() - from];
        PairKernel::<f64>::part(&k, x, y, from, &mut out, &mut CoScratch::default());
        out.iter().map(|v| unsafe { v.assume_init() }).collect()
    }

    #[test]
    fn every_window_matches_two_passes_over_its_pairs() {
        let x: Vec<f64> = (0..97)
            .map(|i| {
                if i % 7 == 3 {
                    f64::NAN
                } else {
                    ((i * 37) % 23) as f64 - 4.5
                }
            })
            .collect();
        let y: Vec<f64> = (0..97)
            .map(|i| {
                if i % 11 == 5 {
                    f64::NAN
                } else {
                    ((i * 13) % 17) as f64 * 0.25
                }
            })
            .collect();
        for corr in [false, true] {
            for w in [1, 2, 3, 5, 10, 97] {
                for min in [None, Some(1), Some(w)] {
                    let got = run(&x, &y, w, min, corr, 0);
                    let want = reference(&x, &y, w, min.unwrap_or(w), corr);
                    for (i, (g, r)) in got.iter().zip(&want).enumerate() {
                        assert!(
                            g.is_nan() && r.is_nan() || (g - r).abs() <= 1e-12 * r.abs().max(1.0),
                            "corr {corr} w {w} min {min:?} at {i}: {g} vs {r}"
                        );
                    }
                    // a part starting at a block gives the same bits
                    let from = (x.len() / 2 / w) * w;
                    let part = run(&x, &y, w, min, corr, from);
                    assert_eq!(
                        part.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                        got[from..].iter().map(|v| v.to_bits()).collect::<Vec<_>>()
                    );
                }
            }
        }
    }

    #[test]
    fn an_outlier_or_infinity_leaves_only_its_windows() {
        let mut x: Vec<f64> = (0..40).map(|i| (i % 5) as f64).collect();
        let y: Vec<f64> = (0..40).map(|i| (i % 3) as f64).collect();
        x[12] = 1e15;
        let clean = {
            let mut c = x.clone();
            c[12] = 0.0;
            c
        };
        let (w, got, base) = (
            4,
            run(&x, &y, 4, None, false, 0),
            run(&clean, &y, 4, None, false, 0),
        );
        for i in 16..40 {
            assert_eq!(got[i], base[i], "window at {i} holds no outlier");
        }
        x[12] = f64::INFINITY;
        let inf = run(&x, &y, w, None, true, 0);
        assert!(inf[12..16].iter().all(|v| v.is_nan()));
        assert_eq!(inf[16..], run(&clean, &y, w, None, true, 0)[16..]);
    }
}
