//! Order statistics per label (`group_nanmedian`, `group_nanquantile`): a
//! counting sort of each output's valid values by label into one scratch
//! buffer, then the order family's selection kernels on each group's part,
//! groups in parallel.

use super::driver::Grouping;
use crate::element::{Element, QuantileElement, SelectFloat};
use crate::error::{Error, Result};
use crate::options::{Axes, QDtype, QuantileMethod};
use crate::order::select::{
    median_of_scratch, quantiles_in_place_with, weighted_quantiles_with, QuantileScratch,
    WeightedQuantileError,
};
use crate::par::{map_tasks, SendPtr, MIN_TASK};
use ndarray::{ArrayD, ArrayViewD, IxDyn};

/// Most tasks the groups of one output are split into.
const MAX_TASKS: usize = 64;

/// What to compute of each group: its median, or quantiles (`qs`, with
/// `method` and optional `weights`).
#[derive(Clone, Debug)]
pub struct GroupQuantiles<'a> {
    /// The probabilities; `None`: the median.
    pub qs: Option<&'a [f64]>,
    /// The quantile method.
    pub method: QuantileMethod,
    /// Weights of the labels' shape (one per grouped position) or of the
    /// values' shape.
    pub weights: Option<ArrayViewD<'a, f64>>,
}

impl GroupQuantiles<'_> {
    /// The median of each group.
    pub fn median() -> Self {
        GroupQuantiles {
            qs: None,
            method: QuantileMethod::Linear,
            weights: None,
        }
    }
}

/// The weights in the grouping's order: one per grouped position
/// (`per_row = false`) or one per value.
fn weights_in_order<'w, E: Element>(
    w: &'w ArrayViewD<'w, f64>,
    g: &Grouping<'_, E>,
    values_shape: &[usize],
) -> Result<(ndarray::CowArray<'w, f64, IxDyn>, bool)> {
    let labels_shape = g.labels.shape();
    let (w, per_value) = if w.shape() == labels_shape {
        (w.as_standard_layout(), false)
    } else if w.shape() == values_shape {
        let moved = w.view().permuted_axes(IxDyn(&g.order));
        (
            ndarray::CowArray::from(moved.as_standard_layout().into_owned()),
            true,
        )
    } else {
        return Err(Error::WeightsShape {
            expected: values_shape.to_vec(),
            found: w.shape().to_vec(),
        });
    };
    if w.iter().any(|&x| !(x >= 0.0 && x.is_finite())) {
        return Err(Error::InvalidWeight);
    }
    Ok((w, per_value))
}

/// The median (`qs = None`) or the quantiles of each label's valid values:
/// `[q, kept axes…, label]` for quantiles, `[kept axes…, label]` for the
/// median; NaN for a group without valid values.
pub(crate) fn group_order<E: QuantileElement>(
    values: &ArrayViewD<'_, E>,
    labels: &ArrayViewD<'_, i64>,
    axes: Axes,
    num_labels: Option<usize>,
    stat: &GroupQuantiles<'_>,
) -> Result<ArrayD<E::Value>> {
    let nq = stat.qs.map_or(1, <[f64]>::len);
    if let Some(qs) = stat.qs {
        if let Some(&q) = qs.iter().find(|q| !(0.0..=1.0).contains(*q)) {
            return Err(Error::InvalidQuantile { q });
        }
    }
    if stat.weights.is_some() && !stat.method.supports_weights() {
        return Err(Error::WeightsUnsupported {
            method: stat.method.name(),
        });
    }
    // results, and one scratch copy of the values (and weights) per output
    let per_result = nq * std::mem::size_of::<E::Value>();
    let g = Grouping::new(values, labels, axes, num_labels, per_result)?;
    let (n_out, n_in, groups) = (g.n_out, g.n_in, g.num_labels);
    crate::error::ensure_memory(&[(n_in, std::mem::size_of::<E::Value>() + 16)])?;
    let weights = match &stat.weights {
        Some(w) => Some(weights_in_order(w, &g, values.shape())?),
        None => None,
    };
    let labels = g.labels();
    let mut out = vec![E::Value::default(); nq * n_out * groups];
    let mut offsets = vec![0usize; groups + 1];
    let mut scratch: Vec<E::Value> = Vec::new();
    let mut wscratch: Vec<f64> = Vec::new();
    for r in 0..n_out {
        let xs = g.row(r);
        // counting sort: counts, offsets, then the values scattered by label
        offsets.fill(0);
        for j in 0..n_in {
            let l = labels[j];
            if l >= 0 && !xs[j].is_nan_value() {
                offsets[l as usize + 1] += 1;
            }
        }
        for k in 0..groups {
            offsets[k + 1] += offsets[k];
        }
        let total = offsets[groups];
        scratch.clear();
        scratch.resize(total, E::Value::default());
        let mut cursor = offsets[..groups].to_vec();
        let w_row = weights.as_ref().map(|(w, per_value)| {
            let w = w.as_slice().expect("standard layout");
            if *per_value {
                &w[r * n_in..(r + 1) * n_in]
            } else {
                w
            }
        });
        if let Some(w) = w_row {
            wscratch.clear();
            wscratch.resize(total, 0.0);
            for j in 0..n_in {
                let l = labels[j];
                if l >= 0 && !xs[j].is_nan_value() {
                    let c = &mut cursor[l as usize];
                    scratch[*c] = xs[j].to_value();
                    wscratch[*c] = w[j];
                    *c += 1;
                }
            }
        } else {
            for j in 0..n_in {
                let l = labels[j];
                if l >= 0 && !xs[j].is_nan_value() {
                    let c = &mut cursor[l as usize];
                    scratch[*c] = xs[j].to_value();
                    *c += 1;
                }
            }
        }
        // the groups in blocks of about equal counts of groups; a group's
        // result does not depend on the block it is in
        let tasks = if total < MIN_TASK {
            1
        } else {
            groups.clamp(1, MAX_TASKS)
        };
        let per_task = groups.div_ceil(tasks.max(1)).max(1);
        let base = SendPtr(scratch.as_mut_ptr().cast_const());
        let (offsets, wscratch) = (&offsets, &wscratch);
        let has_weights = w_row.is_some();
        let parts = map_tasks(groups.div_ceil(per_task), |t| -> Result<Vec<E::Value>> {
            let (g0, g1) = (t * per_task, ((t + 1) * per_task).min(groups));
            let mut res = vec![E::Value::default(); (g1 - g0) * nq];
            let mut qscratch = QuantileScratch::new();
            for k in g0..g1 {
                let (lo, hi) = (offsets[k], offsets[k + 1]);
                // SAFETY: the groups `g0..g1` of task `t` own the disjoint
                // range `offsets[g0]..offsets[g1]` of `scratch`, which
                // outlives the tasks (`map_tasks` returns when all are done).
                let vals = unsafe {
                    std::slice::from_raw_parts_mut(base.get().cast_mut().add(lo), hi - lo)
                };
                let slot = &mut res[(k - g0) * nq..(k - g0 + 1) * nq];
                match stat.qs {
                    None => slot[0] = median_of_scratch(vals),
                    Some(_) if vals.is_empty() => slot.fill(E::Value::NAN),
                    Some(qs) if has_weights => weighted_quantiles_with(
                        vals,
                        &wscratch[lo..hi],
                        qs,
                        stat.method,
                        QDtype::Float64,
                        &mut qscratch,
                        slot,
                    )
                    .map_err(|e| match e {
                        WeightedQuantileError::UnsupportedMethod(m) => {
                            Error::WeightsUnsupported { method: m.name() }
                        }
                        _ => Error::InvalidWeight,
                    })?,
                    Some(qs) => quantiles_in_place_with(
                        vals,
                        qs,
                        stat.method,
                        QDtype::Float64,
                        &mut qscratch,
                        slot,
                    ),
                }
            }
            Ok(res)
        });
        let mut k = 0;
        for part in parts {
            for (i, &v) in part?.iter().enumerate() {
                let (group, qi) = (k + i / nq, i % nq);
                out[qi * n_out * groups + r * groups + group] = v;
            }
            k += per_task;
        }
    }
    let mut shape = g.shape.clone();
    if stat.qs.is_some() {
        shape.insert(0, nq);
    }
    Ok(ArrayD::from_shape_vec(IxDyn(&shape), out).expect("one result per q, output and label"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::Array2;

    /// Sorted valid values of group `g` in row `r`.
    fn sorted_group(v: &Array2<f64>, l: &[i64], r: usize, g: i64) -> Vec<f64> {
        let mut xs: Vec<f64> = (0..l.len())
            .filter(|&j| l[j] == g && !v[[r, j]].is_nan())
            .map(|j| v[[r, j]])
            .collect();
        xs.sort_by(f64::total_cmp);
        xs
    }

    #[test]
    fn medians_and_lower_quantiles_match_a_sort_per_group() {
        // many values (several tasks per output) and a few outputs
        let (rows, n, groups) = (2, 3 * MIN_TASK / 2, 37);
        let v = Array2::from_shape_fn((rows, n), |(r, j)| {
            let x = ((j * 7919 + r * 13) % 1009) as f64;
            if j % 11 == 0 {
                f64::NAN
            } else {
                x
            }
        });
        let l: Vec<i64> = (0..n)
            .map(|j| ((j * 31) % (groups + 1)) as i64 - 1)
            .collect();
        let labels = ndarray::Array1::from(l.clone()).into_dyn();
        let vd = v.clone().into_dyn();
        let med = group_order(
            &vd.view(),
            &labels.view(),
            Axes::One(1),
            None,
            &GroupQuantiles::median(),
        )
        .unwrap();
        let qs = [0.0, 0.25, 1.0];
        let stat = GroupQuantiles {
            qs: Some(&qs),
            method: QuantileMethod::Lower,
            weights: None,
        };
        let q = group_order(&vd.view(), &labels.view(), Axes::One(1), None, &stat).unwrap();
        assert_eq!(med.shape(), &[rows, groups]);
        assert_eq!(q.shape(), &[3, rows, groups]);
        for r in 0..rows {
            for g in 0..groups {
                let xs = sorted_group(&v, &l, r, g as i64);
                let m = xs.len();
                let want = if m % 2 == 1 {
                    xs[m / 2]
                } else {
                    (xs[m / 2 - 1] + xs[m / 2]) / 2.0
                };
                assert_eq!(med[[r, g]], want);
                for (i, &p) in qs.iter().enumerate() {
                    let k = (p * (m - 1) as f64).floor() as usize;
                    assert_eq!(q[[i, r, g]], xs[k]);
                }
            }
        }
    }

    #[test]
    fn weights_and_errors() {
        let v = ndarray::array![1.0_f64, 2.0, 3.0, 10.0].into_dyn();
        let l = ndarray::array![0, 0, 0, 1].into_dyn();
        let w = ndarray::array![1.0, 0.0, 5.0, 1.0].into_dyn();
        let qs = [0.5];
        let stat = GroupQuantiles {
            qs: Some(&qs),
            method: QuantileMethod::InvertedCdf,
            weights: Some(w.view()),
        };
        let q = group_order(&v.view(), &l.view(), Axes::All, Some(3), &stat).unwrap();
        assert_eq!((q[[0, 0]], q[[0, 1]]), (3.0, 10.0));
        assert!(q[[0, 2]].is_nan());
        let linear = GroupQuantiles {
            method: QuantileMethod::Linear,
            ..stat.clone()
        };
        assert!(matches!(
            group_order(&v.view(), &l.view(), Axes::All, None, &linear),
            Err(Error::WeightsUnsupported { .. })
        ));
        let neg = ndarray::array![1.0, -1.0, 1.0, 1.0].into_dyn();
        let bad = GroupQuantiles {
            weights: Some(neg.view()),
            ..stat.clone()
        };
        assert_eq!(
            group_order(&v.view(), &l.view(), Axes::All, None, &bad),
            Err(Error::InvalidWeight)
        );
        let big = [1.5];
        let out_of_range = GroupQuantiles {
            qs: Some(&big),
            weights: None,
            ..stat
        };
        assert_eq!(
            group_order(&v.view(), &l.view(), Axes::All, None, &out_of_range),
            Err(Error::InvalidQuantile { q: 1.5 })
        );
    }
}
