//! Exponentially weighted covariance and correlation of two series
//! (numbagg's `move_exp_nancov`, `move_exp_nancorr`): a [`PairKernel`] over
//! the whole history of a lane, numbagg's definitions and operations in its
//! order, computed in `f64`.
//!
//! At position `i`, with `dᵢ = 1 − αᵢ`, every decayed sum is multiplied by
//! `dᵢ` and, when both values are not NaN, takes the pair's term (as the
//! one-series sums of [`super::exponential`]):
//!
//! ```text
//! Σx ← dᵢ·Σx + xᵢ   Σy ← dᵢ·Σy + yᵢ   Σxy ← dᵢ·Σxy + xᵢyᵢ   (Σx², Σy²: correlation)
//! Σw ← dᵢ·Σw + 1    Σw² ← dᵢ²·Σw² + 1  weight ← dᵢ·weight + αᵢ
//! ```
//!
//! The covariance is `(Σxy − ΣxΣy/Σw) / Σw / (1 − Σw²/Σw²)`, the correlation
//! `(Σxy − ΣxΣy/Σw) / √((Σx² − Σx²/Σw)(Σy² − Σy²/Σw))`, both NaN unless
//! `weight >= min_weight` and that bias factor is positive (and, for the
//! correlation, the root is). A lane is one chain of dependent steps, never
//! cut; lanes run on threads.

use super::blocked::wide;
use super::exponential::{check_alpha, decay, narrow};
use super::pair_driver::PairKernel;
use crate::element::QuantileElement;
use crate::error::Result;
use crate::simd::dispatch::dispatch_avx2;
use std::mem::MaybeUninit;

/// The kernel of `move_exp_nancov` (`corr: false`) and `move_exp_nancorr`.
pub(crate) struct MoveExpPair<'a> {
    /// Whether to give the correlation.
    pub corr: bool,
    /// One `alpha` for every position, or one per position along the axis.
    pub alpha: &'a [f64],
    /// The decayed weight a position needs for a result (otherwise NaN).
    pub min_weight: f64,
}

/// The decayed sums of one pair of lanes (numbagg's `sum_x1`, `sum_x2`,
/// `sum_x1x2`, `sum_x1_2`, `sum_x2_2`, `sum_weight`, `sum_weight_2`,
/// `weight`).
#[derive(Clone, Copy, Default)]
struct PairDecayed {
    /// Decayed sum of the first values.
    sum_x: f64,
    /// Decayed sum of the second values.
    sum_y: f64,
    /// Decayed sum of their products.
    sum_xy: f64,
    /// Decayed sum of the squared first values (correlation).
    sum_xx: f64,
    /// Decayed sum of the squared second values (correlation).
    sum_yy: f64,
    /// Decayed count of the pairs.
    sum_w: f64,
    /// Decayed sum of the squared decayed counts.
    sum_w2: f64,
    /// Decayed sum of the `alpha`s of the pairs.
    weight: f64,
}

impl PairDecayed {
    /// Decays every sum by `1 − a` and takes `(x, y)` unless one is NaN
    /// (branch-free: a NaN adds zeros).
    #[inline(always)]
    fn step<const CORR: bool>(&mut self, x: f64, y: f64, a: f64) {
        let d = 1.0 - a;
        let valid = !(x.is_nan() || y.is_nan());
        let (u, v) = if valid { (x, y) } else { (0.0, 0.0) };
        let one = if valid { 1.0 } else { 0.0 };
        self.sum_x = decay(self.sum_x, d) + u;
        self.sum_y = decay(self.sum_y, d) + v;
        self.sum_xy = decay(self.sum_xy, d) + u * v;
        if CORR {
            self.sum_xx = decay(self.sum_xx, d) + u * u;
            self.sum_yy = decay(self.sum_yy, d) + v * v;
        }
        self.sum_w = self.sum_w * d + one;
        self.sum_w2 = self.sum_w2 * (d * d) + one;
        self.weight = self.weight * d + if valid { a } else { 0.0 };
    }

    /// The statistic at this position: every operation computed and the
    /// result selected, so that a loop of these over positions vectorises
    /// (the selected value has the bits of numbagg's branches).
    #[inline(always)]
    fn finish<const CORR: bool>(&self, min_weight: f64) -> f64 {
        let bias = 1.0 - self.sum_w2 / (self.sum_w * self.sum_w);
        let valid = self.weight >= min_weight && bias > 0.0;
        let value = if CORR {
            let cov = self.sum_xy - self.sum_x * self.sum_y / self.sum_w;
            let var_x = self.sum_xx - self.sum_x * self.sum_x / self.sum_w;
            let var_y = self.sum_yy - self.sum_y * self.sum_y / self.sum_w;
            let d = (var_x * var_y).sqrt();
            let r = cov / d;
            if d > 0.0 {
                r
            } else {
                f64::NAN
            }
        } else {
            let biased = (self.sum_xy - self.sum_x * self.sum_y / self.sum_w) / self.sum_w;
            biased / bias
        };
        if valid {
            value
        } else {
            f64::NAN
        }
    }
}

/// Positions whose sums [`lane`] keeps before it finishes them together.
const CHUNK: usize = 64;

/// One whole pair of lanes, by chunks of [`CHUNK`] positions: the chain of
/// steps keeps each position's sums, then a loop without a dependency from
/// one position to the next finishes them (its divisions and roots in SIMD
/// lanes, where the chain leaves one at a time).
#[inline(always)]
fn lane<E: QuantileElement, const CORR: bool>(
    xs: &[E],
    ys: &[E],
    alpha: &[f64],
    min_weight: f64,
    out: &mut [MaybeUninit<E::Value>],
) {
    let mut st = PairDecayed::default();
    let mut kept = [PairDecayed::default(); CHUNK];
    let one = if let [a] = *alpha { Some(a) } else { None };
    for c0 in (0..out.len()).step_by(CHUNK) {
        let c1 = (c0 + CHUNK).min(out.len());
        for (i, k) in (c0..c1).zip(kept.iter_mut()) {
            let a = one.unwrap_or_else(|| alpha[i]);
            st.step::<CORR>(wide(xs[i]), wide(ys[i]), a);
            *k = st;
        }
        for (o, k) in out[c0..c1].iter_mut().zip(&kept) {
            o.write(narrow::<E>(k.finish::<CORR>(min_weight)));
        }
    }
}

impl<E: QuantileElement> PairKernel<E> for MoveExpPair<'_> {
    type Output = E::Value;
    type Scratch = ();
    fn validate(&self, len: usize) -> Result<()> {
        check_alpha(self.alpha, len)
    }
    fn part(&self, xs: &[E], ys: &[E], from: usize, out: &mut [MaybeUninit<E::Value>], _: &mut ()) {
        debug_assert_eq!(from, 0, "exponential lanes are never cut");
        let (alpha, mw) = (self.alpha, self.min_weight);
        // the driver's call of `part` is not inlined into its dispatched
        // loop: dispatched here (the arithmetic is in f64 for every `E`)
        if self.corr {
            dispatch_avx2(
                #[inline(always)]
                || lane::<E, true>(xs, ys, alpha, mw, out),
            );
        } else {
            dispatch_avx2(
                #[inline(always)]
                || lane::<E, false>(xs, ys, alpha, mw, out),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbaggs_sums_give_its_covariance_and_correlation() {
        // a = [0, 1, 2], b = a² with alpha 0.5: numbagg's move_exp_nancov
        // gives [nan, 0.5000000000000001, 2.071428571428571], move_exp_nancorr [nan, 1,
        // 0.96828182]: from the sums by hand, at position 2 Σw = 1.75,
        // Σw² = 1.3125, Σx = 2.5, Σy = 4.5, Σxy = 8.5, Σx² = 4.5, Σy² = 16.5
        let (x, y) = ([0.0, 1.0, 2.0], [0.0, 1.0, 4.0]);
        let run = |corr| {
            let k = MoveExpPair {
                corr,
                alpha: &[0.5],
                min_weight: 0.0,
            };
            let mut out = [MaybeUninit::uninit(); 3];
            PairKernel::<f64>::part(&k, &x, &y, 0, &mut out, &mut ());
            out.map(|v| unsafe { v.assume_init() })
        };
        let cov = run(false);
        assert!(cov[0].is_nan());
        assert_eq!(cov[1], (1.0 - 1.0 / 1.5) / 1.5 / (1.0 - 1.25 / 2.25));
        assert_eq!(cov[1], 0.5000000000000001);
        let bias = 1.0 - 1.3125 / (1.75 * 1.75);
        assert_eq!(cov[2], (8.5 - 2.5 * 4.5 / 1.75) / 1.75 / bias);
        assert_eq!(cov[2], 2.071428571428571);
        let corr = run(true);
        assert!(corr[0].is_nan());
        let want = (8.5 - 2.5 * 4.5 / 1.75)
            / ((4.5f64 - 2.5 * 2.5 / 1.75) * (16.5 - 4.5 * 4.5 / 1.75)).sqrt();
        assert_eq!(corr[2], want);
        assert_eq!(corr[2], 0.9682818167765577);
    }
}
