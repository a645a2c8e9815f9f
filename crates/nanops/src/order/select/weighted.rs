//! Weighted quantiles: NumPy 2.x's weighted `inverted_cdf`, and a weighted
//! `averaged_inverted_cdf` that NumPy does not offer.

use core::fmt;

use half::f16;

use super::kernel::{lerp, QuantileScratch};
use crate::element::{ascending, contains_nan, SelectFloat};
use crate::options::{QDtype, QuantileMethod};

/// Why a weighted quantile could not be computed. The messages are NumPy's `ValueError`s.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WeightedQuantileError {
    /// The method does not support weights (only `inverted_cdf` and
    /// `averaged_inverted_cdf` do).
    UnsupportedMethod(QuantileMethod),
    /// `values` and `weights` differ in length.
    LengthMismatch {
        /// Length of `values`.
        values: usize,
        /// Length of `weights`.
        weights: usize,
    },
    /// A weight is negative.
    NegativeWeight,
    /// A weight is NaN or infinite, the weights sum to infinity, or they are all zero (for
    /// a lane that has values).
    InvalidTotalWeight,
}

impl fmt::Display for WeightedQuantileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightedQuantileError::UnsupportedMethod(method) => write!(
                f,
                "Only methods 'inverted_cdf' and 'averaged_inverted_cdf' support weights. \
                 Got: {method}."
            ),
            WeightedQuantileError::LengthMismatch { values, weights } => write!(
                f,
                "weights must have the same length as the values: {weights} != {values}"
            ),
            WeightedQuantileError::NegativeWeight => f.write_str("Weights must be non-negative."),
            WeightedQuantileError::InvalidTotalWeight => {
                f.write_str("Weights included NaN, inf or were all zero.")
            }
        }
    }
}

impl std::error::Error for WeightedQuantileError {}

/// Weighted quantiles of one lane with a Python-float `q`: [`weighted_quantiles_with`] with
/// `R = T` and [`QDtype::Float64`].
///
/// ```
/// use nanops::select::{weighted_quantiles, QuantileMethod, QuantileScratch};
///
/// let values = [1.0, 2.0, 3.0, 4.0];
/// let weights = [1.0, 0.0, 2.0, 1.0];
/// let mut out = [0.0; 3];
/// let mut scratch = QuantileScratch::new();
/// weighted_quantiles(&values, &weights, &[0.25, 0.5, 1.0], QuantileMethod::InvertedCdf,
///                    &mut scratch, &mut out)?;
/// assert_eq!(out, [1.0, 3.0, 4.0]);
/// weighted_quantiles(&values, &weights, &[0.25], QuantileMethod::AveragedInvertedCdf,
///                    &mut scratch, &mut out[..1])?;
/// assert_eq!(out[0], 2.0); // the CDF is exactly 0.25 at 1.0: mean of 1.0 and 3.0
/// # Ok::<(), nanops::select::WeightedQuantileError>(())
/// ```
pub fn weighted_quantiles<T: SelectFloat>(
    values: &[T],
    weights: &[f64],
    qs: &[f64],
    method: QuantileMethod,
    scratch: &mut QuantileScratch,
    out: &mut [T],
) -> Result<(), WeightedQuantileError> {
    weighted_quantiles_with(values, weights, qs, method, QDtype::Float64, scratch, out)
}

/// Weighted quantiles of one lane: `values[i]` has weight `weights[i]`; `out[i]` gets the
/// quantile for `qs[i]` (only `min(qs.len(), out.len())` are written).
///
/// `values` are the non-NaN values of the lane (their weights paired, NaN-value entries
/// already dropped), `±inf` allowed; neither slice is modified. Weights must be finite and
/// `>= 0`. An empty lane gives NaN everywhere (`Ok`); a lane whose weights are all zero is
/// [`WeightedQuantileError::InvalidTotalWeight`], as NumPy's `ValueError`.
///
/// The values are sorted (ties in their original order) and the weights summed in that
/// order in `f64`, `c[k] = w[0] + … + w[k]`, `W = c[n-1]`:
///
/// ```text
/// inverted_cdf (NumPy 2.x, bit for bit):
///     cdf[k] = round_q(c[k] / W)                   (rounded to the q dtype, as NumPy)
///     k*     = first k with cdf[k] >= q and cdf[k] > 0,   result x[k*]
/// averaged_inverted_cdf (not in NumPy):
///     t      = round_q(W)·q                        (in the q dtype)
///     k*     = first k with c[k] >= t and c[k] > 0
///     c[k*] == t and a later value with positive weight exists:
///            result _lerp(x[k*], x[next positive], 1/2) = b - (b - a)·(1/2)
///     otherwise: result x[k*]
/// ```
///
/// The averaged rule compares unnormalised sums, so with unit (or integer) weights it is the
/// unweighted `averaged_inverted_cdf` of the sample with every value repeated by its weight,
/// bit for bit, for finite values. (Where NumPy's unweighted method takes one order
/// statistic through `_lerp(a, b, 1)`, which is NaN when `b - a` is infinite, this returns
/// the order statistic.) NumPy's weighted `inverted_cdf` compares normalised sums and so
/// differs, at a few `q`, from the unweighted method with unit weights — e.g. `n = 25,
/// q = 0.28` — and is reproduced as it is.
///
/// Differences from NumPy: NumPy sorts with an unstable `argsort`, so for tied values with
/// non-integer weights its cumulative sums may be added in another order (a last-bit
/// difference in `c[k]`, which can move `k*` only when `c[k]/W` lands exactly on `q`).
///
/// ```
/// use nanops::select::{weighted_quantiles_with, QDtype, QuantileMethod, QuantileScratch};
///
/// let values = [3.0f32, 1.0, 2.0];
/// let weights = [1.0, 1.0, 2.0];
/// let mut out = [0.0f32; 1];
/// let mut scratch = QuantileScratch::new();
/// weighted_quantiles_with(&values, &weights, &[0.5], QuantileMethod::InvertedCdf,
///                         QDtype::Float32, &mut scratch, &mut out)?;
/// assert_eq!(out[0], 2.0);
/// # Ok::<(), nanops::select::WeightedQuantileError>(())
/// ```
pub fn weighted_quantiles_with<T, R>(
    values: &[T],
    weights: &[f64],
    qs: &[f64],
    method: QuantileMethod,
    q_dtype: QDtype,
    scratch: &mut QuantileScratch,
    out: &mut [R],
) -> Result<(), WeightedQuantileError>
where
    T: SelectFloat,
    R: SelectFloat + From<T>,
{
    if !method.supports_weights() {
        return Err(WeightedQuantileError::UnsupportedMethod(method));
    }
    if values.len() != weights.len() {
        return Err(WeightedQuantileError::LengthMismatch {
            values: values.len(),
            weights: weights.len(),
        });
    }
    if weights.iter().any(|&w| w < 0.0) {
        return Err(WeightedQuantileError::NegativeWeight);
    }
    if weights.iter().any(|w| !w.is_finite()) {
        return Err(WeightedQuantileError::InvalidTotalWeight);
    }
    if values.is_empty() || contains_nan(values) {
        // An all-NaN lane (NaN, as NumPy); NaN values are against the contract: NaN too.
        out.iter_mut().for_each(|slot| *slot = R::NAN);
        return Ok(());
    }

    // Entries of zero weight can never be chosen (the first k with cdf[k] >= q always has
    // a positive weight) and do not change any partial sum: leave them out.
    let pairs = &mut scratch.pairs;
    pairs.clear();
    pairs.extend(
        values
            .iter()
            .zip(weights)
            .enumerate()
            .filter(|&(_, (_, &w))| w > 0.0)
            .map(|(i, (&v, _))| (v.to_f64_exact(), i)),
    );
    pairs.sort_unstable_by(|a, b| ascending(&a.0, &b.0).then(a.1.cmp(&b.1)));
    let cumulative = &mut scratch.cumulative;
    cumulative.clear();
    let mut running = 0.0f64;
    cumulative.extend(pairs.iter().map(|&(_, i)| {
        running += weights[i];
        running
    }));
    let total = running;
    if pairs.is_empty() || !total.is_finite() || total <= 0.0 {
        return Err(WeightedQuantileError::InvalidTotalWeight);
    }

    let lane = SortedLane {
        pairs,
        cumulative,
        total,
    };
    for (slot, &q) in out.iter_mut().zip(qs) {
        *slot = match q_dtype {
            QDtype::Float64 | QDtype::Integer => lane.quantile::<f64, T, R>(q, method),
            QDtype::Float32 => lane.quantile::<f32, T, R>(q, method),
            QDtype::Float16 => lane.quantile::<f16, T, R>(q, method),
        };
    }
    Ok(())
}

/// Values of positive weight in ascending order, with their cumulative weights.
struct SortedLane<'a> {
    pairs: &'a [(f64, usize)],
    cumulative: &'a [f64],
    total: f64,
}

impl SortedLane<'_> {
    /// The weighted quantile at `q`, with the CDF comparisons in precision `Q`.
    fn quantile<Q, T, R>(&self, q: f64, method: QuantileMethod) -> R
    where
        Q: SelectFloat,
        T: SelectFloat,
        R: SelectFloat + From<T>,
    {
        if q.is_nan() {
            return R::NAN;
        }
        let round = Q::from_f64_nearest;
        let zero = round(0.0);
        let q = round(q);
        let last = self.pairs.len() - 1;
        let value = |k: usize| T::from_f64_nearest(self.pairs[k].0);
        match method {
            QuantileMethod::AveragedInvertedCdf => {
                let target = round(self.total) * q;
                let k = self
                    .cumulative
                    .partition_point(|&c| !(round(c) >= target && round(c) > zero))
                    .min(last);
                if round(self.cumulative[k]) == target && k < last {
                    lerp(value(k), value(k + 1), 0.5, 0.5)
                } else {
                    R::from(value(k))
                }
            }
            // `InvertedCdf`; other methods were refused before.
            _ => {
                let k = self
                    .cumulative
                    .partition_point(|&c| {
                        let cdf = round(c / self.total);
                        !(cdf >= q && cdf > zero)
                    })
                    .min(last);
                R::from(value(k))
            }
        }
    }
}
