//! Order statistics of one lane: quantiles (13 methods, optionally weighted) and medians,
//! bit for bit as NumPy 2.x.
//!
//! The caller copies the non-NaN values of a lane into a scratch buffer; the kernels then
//! reorder that buffer by *selection* (`select_nth_unstable_by` on successively smaller
//! sub-slices), never a full sort of a large lane. Several quantiles of one lane share the
//! buffer: their ranks are sorted and each part of the buffer is partitioned once.
//!
//! - [`quantiles_in_place`] / [`quantiles_in_place_with`]: `np.quantile` /
//!   `np.nanquantile` of one lane, any [`QuantileMethod`];
//! - [`median_in_place`]: `np.median` / `np.nanmedian` of one lane (without its overflow);
//! - [`weighted_quantiles`] / [`weighted_quantiles_with`]: `weights=` (`inverted_cdf`, and
//!   `averaged_inverted_cdf` which NumPy lacks);
//! - `sampled::median_middles` (crate-internal): the median of a short contiguous lane from
//!   one bracketing pass over it, without copying the lane;
//! - [`RankPlan`]: a quantile or median in two steps, the ranks it reads of `n` values and
//!   its result from the values at those ranks (for values spread over many chunks);
//! - [`QuantileScratch`]: the reusable workspace, one per thread;
//! - [`SelectFloat`]: the element types (`f64`, `f32`, `f16`, `bf16`).
//!
//! # NumPy's arithmetic, reproduced
//!
//! NumPy computes a quantile in two precisions, and so do these kernels:
//!
//! ```text
//! 1. index arithmetic in the dtype of q (QDtype): the virtual index v, floor(v), the
//!    clipping to [0, n-1] (v >= n-1 → both neighbours are x[n-1] and γ = v + 1;
//!    v < 0 → both are x[0] and γ = v), γ = v - floor(v) and 1 - γ;
//! 2. the interpolation _lerp(a, b, γ) in the result dtype R, with b - a in the input
//!    dtype T:   γ < 0.5: a + (b - a)·γ      γ >= 0.5: b - (b - a)·(1 - γ)
//! ```
//!
//! A Python-float `q` is a "weak" scalar (NEP 50): `R = T` and `γ` is rounded to `T`
//! (float32 and float16 inputs interpolate in float32 and float16), while `1 - γ` is still
//! computed in float64 first. A `q` array makes `R = promote(T, q.dtype)`: a float32 lane
//! with a float64 `q` array interpolates in float64 (but `b - a` in float32) and returns
//! float64. Both are [`quantiles_in_place_with`] with the matching `R` and [`QDtype`].
//!
//! Infinite values follow NumPy's formula to the letter: `np.quantile([1, inf], 0.5)` is
//! NaN (`inf - inf·0.5`), and so is the linear `q = 1` quantile of a lane whose maximum is
//! `inf` when `q` is a float (`γ = n`, `inf - (inf - inf)·(1 - n)`), but not when `q` is the
//! integer `1` ([`QDtype::Integer`]).
//!
//! # Differences from NumPy
//!
//! - [`median_in_place`] of two huge values does not overflow: NumPy's
//!   `np.median([1.7e308, 1.7e308])` is `inf`, ours `1.7e308`. Otherwise it is NumPy's
//!   `mean` of the two middle values, bit for bit.
//! - `np.nanmedian` of a float16 array along an axis shorter than 600 goes through
//!   `np.ma.median`, which adds the two middle values in float16 (`65504 + 65504 = inf`);
//!   [`median_in_place`] follows `np.median` (sum in float32), which NumPy uses otherwise.
//! - Weighted quantiles: see [`weighted_quantiles_with`] (tie order of the sort).
//! - Where a lane holds both `-0.0` and `0.0`, which of the two an order statistic returns
//!   depends on the partitioning (in NumPy too), so the sign of a zero result may differ.
//!   A randomized comparison (15 000 quantiles, all methods, dtypes and `q` dtypes, with
//!   ties and infinities) found no other difference.
//! - Graceful on bad input where NumPy raises: `q` outside `[0, 1]` is clipped to the ends
//!   through the index clipping, a NaN `q` gives NaN, and a lane that still holds a NaN
//!   value (the caller should have removed them) gives NaN.

mod apart;
mod kernel;
mod nth;
mod partition;
mod plan;
mod rank;
mod sampled;
mod weighted;

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

pub use crate::element::SelectFloat;
pub use crate::options::{QDtype, QuantileMethod, UnknownQuantileMethod};
pub(crate) use kernel::{
    finish_picks, median_of_middles, median_of_scratch, plan_picks, select_ranks,
};
pub use kernel::{median_in_place, quantiles_in_place, quantiles_in_place_with, QuantileScratch};
pub(crate) use nth::{select_nth, sort_columns, sort_columns_by};
pub(crate) use partition::{copy_valid, keep_between};
pub use plan::RankPlan;
pub(crate) use rank::{pick, Pick};
pub(crate) use sampled::{median_middles, pair_by_bracket, Middles, MIN_SAMPLED_LANE};
pub use weighted::{weighted_quantiles, weighted_quantiles_with, WeightedQuantileError};
