//! Weighted quantiles: each lane's valid values with their weights, then
//! the weighted selection kernel.

use super::driver::scatter;
use super::select::{weighted_quantiles_with, QuantileScratch, WeightedQuantileError};
use crate::element::{QuantileElement, SelectFloat};
use crate::error::{Error, Result};
use crate::options::QuantileOptions;
use crate::statistic::Report;
use ndarray::ArrayViewD;

/// Quantiles `q` of `view` over `axes` (sorted, distinct, in range) with the
/// weights and method of `opts`, in the result type `R`, with the number of
/// slices without a valid value. Kept axes first, reduced axes last, each
/// lane's values and weights are copied in C order.
pub(crate) fn weighted<E, R>(
    view: &ArrayViewD<'_, E>,
    weights: &ArrayViewD<'_, f64>,
    axes: &[usize],
    q: &[f64],
    opts: &QuantileOptions<'_>,
) -> Result<Report<R>>
where
    E: QuantileElement,
    R: SelectFloat + From<E::Value> + Default,
{
    if weights.shape() != view.shape() {
        return Err(Error::WeightsShape {
            expected: view.shape().to_vec(),
            found: weights.shape().to_vec(),
        });
    }
    if weights.iter().any(|w| !w.is_finite() || *w < 0.0) {
        return Err(Error::InvalidWeight);
    }
    // Kept axes first, reduced axes last, as (outputs, lane) C-order copies.
    let kept: Vec<usize> = (0..view.ndim()).filter(|i| !axes.contains(i)).collect();
    let perm: Vec<usize> = kept.iter().chain(axes).copied().collect();
    let out_shape: Vec<usize> = kept.iter().map(|&i| view.shape()[i]).collect();
    let n_out: usize = out_shape.iter().product();
    let lane: usize = axes.iter().map(|&i| view.shape()[i]).product();
    let flat = |v: ArrayViewD<'_, f64>| -> Vec<f64> {
        v.permuted_axes(perm.clone()).iter().copied().collect()
    };
    let w = flat(weights.view());
    let x: Vec<E> = view
        .view()
        .permuted_axes(perm.clone())
        .iter()
        .copied()
        .collect();
    let nq = q.len();
    let mut results = vec![R::default(); n_out * nq];
    let mut degenerate = 0;
    let mut scratch = QuantileScratch::new();
    let (mut vals, mut ws) = (Vec::with_capacity(lane), Vec::with_capacity(lane));
    for j in 0..n_out {
        let out = &mut results[j * nq..(j + 1) * nq];
        vals.clear();
        ws.clear();
        let mut has_nan = false;
        for i in j * lane..(j + 1) * lane {
            if x[i].is_nan_value() {
                has_nan = true;
            } else {
                vals.push(x[i].to_value());
                ws.push(w[i]);
            }
        }
        if vals.is_empty() || (has_nan && !opts.nan_policy.skips_nan()) {
            out.fill(R::NAN);
            degenerate += vals.is_empty() as usize;
            continue;
        }
        weighted_quantiles_with(&vals, &ws, q, opts.method, opts.q_dtype, &mut scratch, out)
            .map_err(|e| match e {
                WeightedQuantileError::UnsupportedMethod(m) => {
                    Error::WeightsUnsupported { method: m.name() }
                }
                _ => Error::InvalidWeight,
            })?;
    }
    Ok(Report {
        values: scatter(results, nq, None, &out_shape, true),
        degenerate,
    })
}
