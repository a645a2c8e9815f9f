//! Which order statistics a quantile needs: NumPy's virtual index, index clipping and gamma.
//!
//! Everything here mirrors `numpy/lib/_function_base_impl.py` (`_QuantileMethods`,
//! `_compute_virtual_index`, `_get_indexes`, `_get_gamma`, `_inverted_cdf`,
//! `_closest_observation`, `_discrete_interpolation_to_boundaries`) operation by operation, in
//! the precision NumPy uses: the dtype of `q` (see [`QDtype`]).

use half::f16;

use crate::element::SelectFloat;
use crate::options::{QDtype, QuantileMethod};

/// What one quantile needs from the sorted lane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Pick {
    /// The result is NaN (empty lane, or a NaN `q`).
    Nan,
    /// The result is the order statistic of this rank.
    Take(usize),
    /// The result is NumPy's `_lerp(x[lo], x[hi], γ)`; `γ` and `1 - γ` are computed in the
    /// precision of `q` and held exactly in `f64`.
    Lerp {
        lo: usize,
        hi: usize,
        gamma: f64,
        one_minus_gamma: f64,
    },
}

/// How a lerp-path method modifies `γ` (NumPy's `fix_gamma`).
#[derive(Clone, Copy)]
enum GammaRule {
    /// `γ = v - floor(v)` (after clipping), unchanged.
    Fraction,
    /// `averaged_inverted_cdf`: `γ = 0.5` where the clipped `γ == 0`, else `1`.
    Averaged,
    /// `midpoint`: `γ = 0` where `v` is an integer, else `0.5`.
    Midpoint,
}

/// The order statistics one quantile `q` of `n` values needs, for `method`, with NumPy's
/// arithmetic in the precision of `q_dtype`.
///
/// `q` outside `[0, 1]` is clipped through NumPy's index clipping (no panic); NaN `q` or
/// `n == 0` gives [`Pick::Nan`].
pub(crate) fn pick(n: usize, q: f64, method: QuantileMethod, q_dtype: QDtype) -> Pick {
    if n == 0 || q.is_nan() {
        return Pick::Nan;
    }
    match q_dtype {
        QDtype::Float64 => pick_in::<f64>(n, q, method),
        QDtype::Float32 => pick_in::<f32>(n, q, method),
        QDtype::Float16 => pick_in::<f16>(n, q, method),
        QDtype::Integer => {
            if method == QuantileMethod::Linear && q.fract() == 0.0 {
                // `(n - 1) * q` is an integer array: NumPy's `take` path.
                take(((n - 1) as f64) * q, n)
            } else {
                pick_in::<f64>(n, q, method)
            }
        }
    }
}

/// [`pick`] with all index arithmetic in `Q`.
///
/// ```text
/// inverted_cdf           i = n·q - 1;        x[i]  if frac(i) == 0, else x[floor(i) + 1]
/// closest_observation    i = n·q - 1 - 1/2;  x[i]  if frac(i) == 0 and floor(i) is odd,
///                                            else x[floor(i) + 1]      (then clip at 0)
/// lower / higher         x[floor((n - 1)·q)] / x[ceil((n - 1)·q)]
/// nearest                x[rint((n - 1)·q)]  (round half to even, np.around)
/// averaged_inverted_cdf  v = n·q - 1                   → lerp, γ rule "averaged"
/// midpoint               v = (floor(m) + ceil(m))/2, m = (n - 1)·q → lerp, γ rule "midpoint"
/// linear                 v = (n - 1)·q                 → lerp
/// (α, β) methods         v = ((n·q) + (α + q·(1 - α - β))) - 1   → lerp
/// ```
fn pick_in<Q: SelectFloat>(n: usize, q: f64, method: QuantileMethod) -> Pick {
    use QuantileMethod as M;
    let c = Q::from_f64_nearest;
    let q = c(q);
    let one = c(1.0);
    let n_q = c(n as f64);
    let n_minus_1 = c((n - 1) as f64);
    match method {
        M::InvertedCdf => {
            let index = n_q * q - one;
            let previous = floor(index);
            let chosen = if index - previous == c(0.0) {
                previous
            } else {
                previous + one
            };
            take(chosen.to_f64_exact(), n)
        }
        M::ClosestObservation => {
            let index = n_q * q - one - c(0.5);
            let previous = floor(index);
            let odd = previous.to_f64_exact().rem_euclid(2.0) == 1.0;
            let chosen = if index - previous == c(0.0) && odd {
                previous
            } else {
                previous + one
            };
            take(chosen.to_f64_exact(), n)
        }
        M::Lower => take(floor(n_minus_1 * q).to_f64_exact(), n),
        M::Higher => take(ceil(n_minus_1 * q).to_f64_exact(), n),
        M::Nearest => take((n_minus_1 * q).to_f64_exact().round_ties_even(), n),
        M::AveragedInvertedCdf => lerp_pick(n_q * q - one, n, GammaRule::Averaged),
        M::Midpoint => {
            let m = n_minus_1 * q;
            lerp_pick(c(0.5) * (floor(m) + ceil(m)), n, GammaRule::Midpoint)
        }
        M::Linear => lerp_pick(n_minus_1 * q, n, GammaRule::Fraction),
        M::InterpolatedInvertedCdf => continuous::<Q>(n_q, q, 0.0, 1.0, n),
        M::Hazen => continuous::<Q>(n_q, q, 0.5, 0.5, n),
        M::Weibull => continuous::<Q>(n_q, q, 0.0, 0.0, n),
        M::MedianUnbiased => continuous::<Q>(n_q, q, 1.0 / 3.0, 1.0 / 3.0, n),
        M::NormalUnbiased => continuous::<Q>(n_q, q, 3.0 / 8.0, 3.0 / 8.0, n),
    }
}

/// NumPy's `_compute_virtual_index`: `n·q + (α + q·(1 - α - β)) - 1`, where `1 - α - β` is
/// Python float arithmetic and every other operation is in `Q`.
fn continuous<Q: SelectFloat>(n_q: Q, q: Q, alpha: f64, beta: f64, n: usize) -> Pick {
    let c = Q::from_f64_nearest;
    let virtual_index = n_q * q + (c(alpha) + q * c(1.0 - alpha - beta)) - c(1.0);
    lerp_pick(virtual_index, n, GammaRule::Fraction)
}

/// NumPy's `_get_indexes` + `_get_gamma` for a virtual index `v` (in `Q`):
///
/// ```text
/// v >= n - 1 (or NaN):  lo = hi = n - 1,  γ = v - (-1)
/// v < 0:                lo = hi = 0,      γ = v - 0
/// otherwise:            lo = floor(v), hi = lo + 1 (in Q),  γ = v - floor(v)
/// ```
///
/// then the method's γ rule, then `1 - γ` in `Q`.
fn lerp_pick<Q: SelectFloat>(virtual_index: Q, n: usize, rule: GammaRule) -> Pick {
    let c = Q::from_f64_nearest;
    let zero = c(0.0);
    let one = c(1.0);
    let last = n - 1;
    let (lo, hi, previous) = if virtual_index.is_nan_value() || virtual_index >= c(last as f64) {
        (last, last, c(-1.0))
    } else if virtual_index < zero {
        (0, 0, zero)
    } else {
        let previous = floor(virtual_index);
        (
            clip_index(previous.to_f64_exact(), n),
            clip_index((previous + one).to_f64_exact(), n),
            previous,
        )
    };
    let fraction = virtual_index - previous;
    let gamma = match rule {
        GammaRule::Fraction => fraction,
        GammaRule::Averaged if fraction == zero => c(0.5),
        GammaRule::Averaged => one,
        GammaRule::Midpoint if virtual_index.to_f64_exact() % 1.0 == 0.0 => zero,
        GammaRule::Midpoint => c(0.5),
    };
    Pick::Lerp {
        lo,
        hi,
        gamma: gamma.to_f64_exact(),
        one_minus_gamma: (one - gamma).to_f64_exact(),
    }
}

fn floor<Q: SelectFloat>(x: Q) -> Q {
    Q::from_f64_nearest(x.to_f64_exact().floor())
}

fn ceil<Q: SelectFloat>(x: Q) -> Q {
    Q::from_f64_nearest(x.to_f64_exact().ceil())
}

/// A `Take` of an integral index held in a float; negative indices clip to 0 (as NumPy's
/// `res[res < 0] = 0`), indices past the end to `n - 1` (NumPy would raise), NaN gives NaN.
fn take(index: f64, n: usize) -> Pick {
    if index.is_nan() {
        Pick::Nan
    } else {
        Pick::Take(clip_index(index, n))
    }
}

fn clip_index(index: f64, n: usize) -> usize {
    let last = n.saturating_sub(1);
    if index <= 0.0 || index.is_nan() {
        0
    } else if index >= last as f64 {
        last
    } else {
        // In range and integral: the conversion is exact.
        index as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use QuantileMethod as M;

    fn lerp(lo: usize, hi: usize, gamma: f64) -> Pick {
        Pick::Lerp {
            lo,
            hi,
            gamma,
            one_minus_gamma: 1.0 - gamma,
        }
    }

    #[test]
    fn linear_indices() {
        assert_eq!(pick(5, 0.5, M::Linear, QDtype::Float64), lerp(2, 3, 0.0));
        assert_eq!(pick(5, 0.3, M::Linear, QDtype::Float64), {
            let v = 4.0 * 0.3;
            lerp(1, 2, v - 1.0)
        });
        // q = 1 clips to the last value with γ = v + 1 (NumPy's `previous = -1`).
        assert_eq!(pick(5, 1.0, M::Linear, QDtype::Float64), lerp(4, 4, 5.0));
        assert_eq!(pick(5, 1.0, M::Linear, QDtype::Integer), Pick::Take(4));
        assert_eq!(pick(5, 0.0, M::Linear, QDtype::Integer), Pick::Take(0));
        assert_eq!(pick(1, 0.7, M::Linear, QDtype::Float64), lerp(0, 0, 1.0));
    }

    #[test]
    fn discontinuous_indices() {
        // n = 4: inverted_cdf picks x[ceil(4q) - 1].
        assert_eq!(pick(4, 0.5, M::InvertedCdf, QDtype::Float64), Pick::Take(1));
        assert_eq!(
            pick(4, 0.51, M::InvertedCdf, QDtype::Float64),
            Pick::Take(2)
        );
        assert_eq!(pick(4, 0.0, M::InvertedCdf, QDtype::Float64), Pick::Take(0));
        assert_eq!(pick(4, 1.0, M::InvertedCdf, QDtype::Float64), Pick::Take(3));
        // closest_observation: n·q - 1.5; at an integer, keep it when it is odd.
        assert_eq!(
            pick(4, 0.625, M::ClosestObservation, QDtype::Float64),
            Pick::Take(1)
        );
        assert_eq!(
            pick(4, 0.875, M::ClosestObservation, QDtype::Float64),
            Pick::Take(3)
        );
        assert_eq!(
            pick(4, 0.0, M::ClosestObservation, QDtype::Float64),
            Pick::Take(0)
        );
        assert_eq!(
            pick(4, 1.0, M::ClosestObservation, QDtype::Float64),
            Pick::Take(3)
        );
        // nearest rounds half to even.
        assert_eq!(pick(4, 0.5, M::Nearest, QDtype::Float64), Pick::Take(2));
        assert_eq!(pick(6, 0.5, M::Nearest, QDtype::Float64), Pick::Take(2));
        assert_eq!(pick(6, 0.5, M::Lower, QDtype::Float64), Pick::Take(2));
        assert_eq!(pick(6, 0.5, M::Higher, QDtype::Float64), Pick::Take(3));
    }

    #[test]
    fn averaged_and_midpoint_gamma() {
        assert_eq!(
            pick(4, 0.5, M::AveragedInvertedCdf, QDtype::Float64),
            lerp(1, 2, 0.5)
        );
        assert_eq!(
            pick(4, 0.6, M::AveragedInvertedCdf, QDtype::Float64),
            lerp(1, 2, 1.0)
        );
        // Clipped ends: γ is computed from the clipped index, so it is never 0 there.
        assert_eq!(
            pick(4, 0.0, M::AveragedInvertedCdf, QDtype::Float64),
            lerp(0, 0, 1.0)
        );
        assert_eq!(
            pick(4, 1.0, M::AveragedInvertedCdf, QDtype::Float64),
            lerp(3, 3, 1.0)
        );
        assert_eq!(pick(5, 0.5, M::Midpoint, QDtype::Float64), lerp(2, 3, 0.0));
        assert_eq!(pick(6, 0.5, M::Midpoint, QDtype::Float64), lerp(2, 3, 0.5));
        assert_eq!(pick(6, 1.0, M::Midpoint, QDtype::Float64), lerp(5, 5, 0.0));
    }

    #[test]
    fn float32_index_arithmetic() {
        // 0.3 in f32 is 0.300000011920928955078125: (n - 1)·q rounds in f32.
        let q32 = f64::from(0.3f32);
        let v = 9.0f32 * 0.3f32;
        let expect = lerp(2, 3, f64::from(v - 2.0));
        assert_eq!(pick(10, q32, M::Linear, QDtype::Float32), expect);
    }

    #[test]
    fn nan_and_out_of_range_are_graceful() {
        for method in M::ALL {
            for q_dtype in [
                QDtype::Float64,
                QDtype::Float32,
                QDtype::Float16,
                QDtype::Integer,
            ] {
                assert_eq!(pick(3, f64::NAN, method, q_dtype), Pick::Nan);
                assert_eq!(pick(0, 0.5, method, q_dtype), Pick::Nan);
                for q in [-1.0, 2.0, f64::INFINITY, f64::NEG_INFINITY, 1e300] {
                    match pick(3, q, method, q_dtype) {
                        Pick::Nan => {}
                        Pick::Take(i) => assert!(i < 3),
                        Pick::Lerp { lo, hi, .. } => assert!(lo < 3 && hi < 3),
                    }
                }
            }
            // f16 index arithmetic overflows for n > 65519: no panic either.
            for q in [0.0, 0.5, 1.0] {
                match pick(100_000, q, method, QDtype::Float16) {
                    Pick::Nan => {}
                    Pick::Take(i) => assert!(i < 100_000),
                    Pick::Lerp { lo, hi, .. } => assert!(lo < 100_000 && hi < 100_000),
                }
            }
        }
    }
}
