//! Exponentially weighted moving statistics (`move_exp_nanmean`,
//! `move_exp_nansum`, `move_exp_nanvar`, `move_exp_nanstd`,
//! `move_exp_nancount`): lane kernels over the whole history of a lane,
//! numbagg's definitions, computed in `f64`.
//!
//! At position `i`, with `αᵢ` the position's `alpha` and `dᵢ = 1 − αᵢ`,
//! every decayed sum is first multiplied by `dᵢ` (NaN positions decay the
//! history too) and then, when `xᵢ` is not NaN, takes the value's term:
//!
//! ```text
//! Σx ← dᵢ·Σx + xᵢ       Σx² ← dᵢ·Σx² + xᵢ²      weight ← dᵢ·weight + αᵢ
//! Σw ← dᵢ·Σw + 1        Σw² ← dᵢ²·Σw² + 1
//! ```
//!
//! A position gives NaN unless `weight >= min_weight`; otherwise the mean is
//! `Σx/Σw`, the sum `Σx` (NaN before the first value), the count `Σw`, the
//! variance `(Σx²/Σw − (Σx/Σw)²) / (1 − Σw²/Σw²)` where that bias factor is
//! positive (NaN otherwise) and the standard deviation its square root. The
//! operations are numbagg's, in its order (a NaN position adds `0.0` where
//! numbagg adds nothing: only the sign of a zero can differ; and `alpha = 1`
//! forgets the history even where it holds an infinity, see [`decay`]).
//!
//! The state at a position depends on the whole lane before it, so a lane is
//! never cut: one lane is a chain of dependent steps. Lanes are computed
//! side by side instead, in SIMD lanes: when the axis is an outer one (axis
//! 0 of a C array) a tile's rows are read and written in place, and
//! contiguous lanes (the last axis) are transposed in groups into scratch
//! first (the same operations in the same order: the same bits).

use super::blocked::wide;
use super::window::LaneKernel;
use crate::element::{QuantileElement, SelectFloat};
use crate::error::{Error, Result};
use crate::simd::dispatch::dispatch_avx2;
use std::mem::MaybeUninit;

/// Which exponentially weighted statistic a [`MoveExp`] gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ExpStat {
    /// `move_exp_nanmean`.
    Mean,
    /// `move_exp_nansum`.
    Sum,
    /// `move_exp_nanvar`.
    Var,
    /// `move_exp_nanstd`.
    Std,
    /// `move_exp_nancount`.
    Count,
}

/// The kernel of the `move_exp_nan*` functions.
pub(crate) struct MoveExp<'a> {
    /// The statistic.
    pub stat: ExpStat,
    /// One `alpha` for every position, or one per position along the axis.
    pub alpha: &'a [f64],
    /// The decayed weight a position needs for a result (otherwise NaN).
    pub min_weight: f64,
}

/// [`ExpStat`] as a constant parameter of the loops (each statistic gets
/// its own loop, with only the sums it needs).
const MEAN: u8 = 0;
/// See [`MEAN`].
const SUM: u8 = 1;
/// See [`MEAN`].
const VAR: u8 = 2;
/// See [`MEAN`].
const STD: u8 = 3;
/// See [`MEAN`].
const COUNT: u8 = 4;

/// The decayed sums of one lane (numbagg's `sum_x`/`numer`, `sum_x_2`,
/// `sum_weight`/`denom`/`count`, `sum_weight_2`, `weight`).
#[derive(Clone, Copy, Default)]
struct Decayed {
    /// Decayed sum of the values.
    sum_x: f64,
    /// Decayed sum of the squared values.
    sum_x2: f64,
    /// Decayed count of the values.
    sum_w: f64,
    /// Decayed sum of the squared decayed counts.
    sum_w2: f64,
    /// Decayed sum of the `alpha`s of the values.
    weight: f64,
    /// 1 once a value was taken (`move_exp_nansum` gives NaN before).
    seen: f64,
}

impl Decayed {
    /// Decays every sum by `1 − a` and takes `x` unless it is NaN
    /// (branch-free: a NaN adds zeros).
    #[inline(always)]
    fn step<const S: u8>(&mut self, x: f64, a: f64) {
        let d = 1.0 - a;
        let valid = !x.is_nan();
        let v = if valid { x } else { 0.0 };
        let one = if valid { 1.0 } else { 0.0 };
        self.weight = self.weight * d + if valid { a } else { 0.0 };
        if S != COUNT {
            self.sum_x = decay(self.sum_x, d) + v;
        }
        if S != SUM {
            self.sum_w = self.sum_w * d + one;
        }
        if S == VAR || S == STD {
            self.sum_x2 = decay(self.sum_x2, d) + v * v;
            self.sum_w2 = self.sum_w2 * (d * d) + one;
        }
        if S == SUM {
            self.seen = self.seen.max(one);
        }
    }

    /// The statistic at this position.
    #[inline(always)]
    fn finish<const S: u8>(&self, min_weight: f64) -> f64 {
        let enough = self.weight >= min_weight;
        match S {
            MEAN if enough => self.sum_x / self.sum_w,
            SUM if enough && self.seen > 0.0 => self.sum_x,
            COUNT if enough => self.sum_w,
            VAR | STD => {
                let mean = self.sum_x / self.sum_w;
                let biased = self.sum_x2 / self.sum_w - mean * mean;
                let bias = 1.0 - self.sum_w2 / (self.sum_w * self.sum_w);
                if enough && bias > 0.0 {
                    let var = biased / bias;
                    if S == STD {
                        var.sqrt()
                    } else {
                        var
                    }
                } else {
                    f64::NAN
                }
            }
            _ => f64::NAN,
        }
    }
}

/// A decayed sum `s` times the decay `d`, numbagg's `s·d`, except that a
/// decay of 0 (`alpha = 1`) forgets an infinite or NaN sum too: the older
/// values weigh `0` exactly, where numbagg's `inf·0` is NaN for good.
#[inline(always)]
pub(super) fn decay(s: f64, d: f64) -> f64 {
    if d == 0.0 {
        0.0
    } else {
        s * d
    }
}

/// A result in the output type (rounded once).
#[inline(always)]
pub(super) fn narrow<E: QuantileElement>(v: f64) -> E::Value {
    <E::Value as SelectFloat>::from_f64_nearest(v)
}

/// One whole lane of statistic `S`.
#[inline(always)]
fn lane<E: QuantileElement, const S: u8>(
    xs: &[E],
    alpha: &[f64],
    min_weight: f64,
    out: &mut [MaybeUninit<E::Value>],
) {
    let mut st = Decayed::default();
    if let [a] = *alpha {
        for (&x, y) in xs.iter().zip(out.iter_mut()) {
            st.step::<S>(wide(x), a);
            y.write(narrow::<E>(st.finish::<S>(min_weight)));
        }
    } else {
        for ((&x, &a), y) in xs.iter().zip(alpha).zip(out.iter_mut()) {
            st.step::<S>(wide(x), a);
            y.write(narrow::<E>(st.finish::<S>(min_weight)));
        }
    }
}

/// Lanes [`side_by_side`] computes at once.
const SIDE: usize = 128;

/// The decayed sums of [`SIDE`] lanes, one array per sum.
struct Sides {
    /// See [`Decayed::sum_x`].
    sum_x: [f64; SIDE],
    /// See [`Decayed::sum_x2`].
    sum_x2: [f64; SIDE],
    /// See [`Decayed::sum_w`].
    sum_w: [f64; SIDE],
    /// See [`Decayed::sum_w2`].
    sum_w2: [f64; SIDE],
    /// See [`Decayed::weight`].
    weight: [f64; SIDE],
    /// See [`Decayed::seen`].
    seen: [f64; SIDE],
}

/// [`lane`] for `width <= SIDE` lanes side by side (the rows strategy: axis
/// 0 of a C array): the same operations on each lane in the same order, so
/// the same bits, with every row read and written contiguously.
///
/// # Safety
/// As [`LaneKernel::rows`].
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn side_by_side<E: QuantileElement, const S: u8>(
    alpha: &[f64],
    min_weight: f64,
    src: *const E,
    stride_in: isize,
    dst: *mut E::Value,
    stride_out: isize,
    len: usize,
    width: usize,
) {
    let width = width.min(SIDE);
    let mut s = Sides {
        sum_x: [0.0; SIDE],
        sum_x2: [0.0; SIDE],
        sum_w: [0.0; SIDE],
        sum_w2: [0.0; SIDE],
        weight: [0.0; SIDE],
        seen: [0.0; SIDE],
    };
    for i in 0..len {
        let a = if alpha.len() == 1 { alpha[0] } else { alpha[i] };
        // SAFETY: row `i` of `width` lanes lies in the view and in the
        // output, which no other thread writes (this function's contract).
        let (xs, ys) = unsafe {
            (
                std::slice::from_raw_parts(src.offset(i as isize * stride_in), width),
                std::slice::from_raw_parts_mut(dst.offset(i as isize * stride_out), width),
            )
        };
        for (c, (&x, y)) in xs.iter().zip(ys.iter_mut()).enumerate() {
            let mut st = Decayed {
                sum_x: s.sum_x[c],
                sum_x2: s.sum_x2[c],
                sum_w: s.sum_w[c],
                sum_w2: s.sum_w2[c],
                weight: s.weight[c],
                seen: s.seen[c],
            };
            st.step::<S>(wide(x), a);
            *y = narrow::<E>(st.finish::<S>(min_weight));
            s.sum_x[c] = st.sum_x;
            s.sum_x2[c] = st.sum_x2;
            s.sum_w[c] = st.sum_w;
            s.sum_w2[c] = st.sum_w2;
            s.weight[c] = st.weight;
            s.seen[c] = st.seen;
        }
    }
}

/// [`Error::AlphaLength`] unless `alpha` has one value or `len`.
pub(super) fn check_alpha(alpha: &[f64], len: usize) -> Result<()> {
    let found = alpha.len();
    if found == 1 || found == len {
        Ok(())
    } else {
        Err(Error::AlphaLength { found, len })
    }
}

impl MoveExp<'_> {
    /// The statistic as the constant of the loops.
    fn code(&self) -> u8 {
        match self.stat {
            ExpStat::Mean => MEAN,
            ExpStat::Sum => SUM,
            ExpStat::Var => VAR,
            ExpStat::Std => STD,
            ExpStat::Count => COUNT,
        }
    }
}

impl<E: QuantileElement> LaneKernel<E> for MoveExp<'_> {
    type Output = E::Value;
    fn validate(&self, len: usize) -> Result<()> {
        check_alpha(self.alpha, len)
    }
    fn part(
        &self,
        xs: &[E],
        from: usize,
        out: &mut [MaybeUninit<E::Value>],
        _: &mut Vec<(usize, f64)>,
    ) {
        debug_assert_eq!(from, 0, "exponential lanes are never cut");
        let (alpha, mw) = (self.alpha, self.min_weight);
        // dispatched here: the driver's call of `part` is not inlined into
        // its dispatched loops, and it ran as baseline (SSE2) code
        // (`perf annotate`: `mulsd`, `addsd`), as the blocked kernels did.
        // AVX2 at most: a lane is a scalar chain, which AVX-512 does not
        // widen, and its selects on mask registers made the float32 sum
        // slower than the baseline code (`move_exp_nansum` of 10M values)
        let code = self.code();
        dispatch_avx2(
            #[inline(always)]
            || match code {
                MEAN => lane::<E, MEAN>(xs, alpha, mw, out),
                SUM => lane::<E, SUM>(xs, alpha, mw, out),
                VAR => lane::<E, VAR>(xs, alpha, mw, out),
                STD => lane::<E, STD>(xs, alpha, mw, out),
                _ => lane::<E, COUNT>(xs, alpha, mw, out),
            },
        )
    }
    fn rows_tile(&self) -> Option<usize> {
        Some(SIDE)
    }
    fn side_lanes(&self) -> bool {
        true
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
        let (alpha, mw) = (self.alpha, self.min_weight);
        let code = self.code();
        // dispatched here, as `part`, but to the best instruction set: the
        // lanes side by side fill whole vectors
        E::dispatch(
            #[inline(always)]
            // SAFETY: as this function's contract.
            || unsafe {
                match code {
                    MEAN => side_by_side::<E, MEAN>(
                        alpha, mw, src, stride_in, dst, stride_out, len, width,
                    ),
                    SUM => side_by_side::<E, SUM>(
                        alpha, mw, src, stride_in, dst, stride_out, len, width,
                    ),
                    VAR => side_by_side::<E, VAR>(
                        alpha, mw, src, stride_in, dst, stride_out, len, width,
                    ),
                    STD => side_by_side::<E, STD>(
                        alpha, mw, src, stride_in, dst, stride_out, len, width,
                    ),
                    _ => side_by_side::<E, COUNT>(
                        alpha, mw, src, stride_in, dst, stride_out, len, width,
                    ),
                }
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// numbagg's `move_exp_nanmean` loop, written as numbagg writes it.
    fn numbagg_mean(xs: &[f64], alpha: f64, min_weight: f64) -> Vec<f64> {
        let (mut numer, mut denom, mut weight) = (0.0, 0.0, 0.0);
        let mut out = Vec::new();
        for &x in xs {
            let decay = 1.0 - alpha;
            numer *= decay;
            denom *= decay;
            weight *= decay;
            if !x.is_nan() {
                numer += x;
                denom += 1.0;
                weight += alpha;
            }
            out.push(if weight >= min_weight {
                numer / denom
            } else {
                f64::NAN
            });
        }
        out
    }

    fn run(k: &MoveExp<'_>, xs: &[f64]) -> Vec<f64> {
        let mut out = vec![MaybeUninit::uninit(); xs.len()];
        LaneKernel::<f64>::part(k, xs, 0, &mut out, &mut Vec::new());
        out.into_iter()
            .map(|v| unsafe { v.assume_init() })
            .collect()
    }

    #[test]
    fn alpha_one_forgets_an_infinity() {
        for stat in [ExpStat::Mean, ExpStat::Sum] {
            let k = MoveExp {
                stat,
                alpha: &[1.0],
                min_weight: 0.0,
            };
            assert_eq!(
                run(&k, &[f64::INFINITY, 1.0, f64::NAN, 2.0])[..2],
                [f64::INFINITY, 1.0]
            );
            assert_eq!(run(&k, &[f64::INFINITY, 1.0, f64::NAN, 2.0])[3], 2.0);
        }
    }

    #[test]
    fn mean_is_numbaggs_loop_bit_for_bit() {
        let xs = [1.0, f64::NAN, 3.0, -2.5, f64::NAN, f64::NAN, 7.0, 0.25];
        for (alpha, mw) in [(0.5, 0.0), (0.1, 0.3), (1.0, 0.0), (0.9, 0.95)] {
            let k = MoveExp {
                stat: ExpStat::Mean,
                alpha: &[alpha],
                min_weight: mw,
            };
            let got = run(&k, &xs);
            let want = numbagg_mean(&xs, alpha, mw);
            for (g, w) in got.iter().zip(&want) {
                assert!(g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()));
            }
        }
    }

    #[test]
    fn alpha_of_the_wrong_length_is_an_error() {
        let k = MoveExp {
            stat: ExpStat::Sum,
            alpha: &[0.5, 0.5],
            min_weight: 0.0,
        };
        assert_eq!(
            LaneKernel::<f64>::validate(&k, 3),
            Err(Error::AlphaLength { found: 2, len: 3 })
        );
        assert!(LaneKernel::<f64>::validate(&k, 2).is_ok());
    }
}
