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

/// Most chunks one output's values are split into for the counting sort.
const MAX_SORT_CHUNKS: usize = 8;

/// The valid values of one output (and their weights, `w`) sorted by label
/// into `scratch` (and `wscratch`): group `k` gets `offsets[k]..offsets[k +
/// 1]`, its values in their order in `xs`. Chunks of `xs` (boundaries from
/// the length only) are counted, then scattered, in parallel: each chunk
/// writes after the chunks before it, so the order is the same for any
/// number of threads. The scratch is written, not zeroed first (for 10M
/// values the zeroing cost a sixth of a `group_nanmedian` call).
fn counting_sort<E: QuantileElement>(
    xs: &[E],
    labels: &[i64],
    w: Option<&[f64]>,
    groups: usize,
    offsets: &mut Vec<usize>,
    scratch: &mut Vec<E::Value>,
    wscratch: &mut Vec<f64>,
) {
    let n_in = xs.len();
    // a chunk's counts are `groups` words: keep them below the values' size
    let chunks = (n_in / MIN_TASK)
        .min(n_in / groups.max(1))
        .clamp(1, MAX_SORT_CHUNKS);
    let len = n_in.div_ceil(chunks).max(1);
    let range = |c: usize| (c * len).min(n_in)..((c + 1) * len).min(n_in);
    let counts = map_tasks(chunks, |c| {
        let mut count = vec![0usize; groups];
        for j in range(c) {
            let l = labels[j];
            if l >= 0 && !xs[j].is_nan_value() {
                count[l as usize] += 1;
            }
        }
        count
    });
    offsets.clear();
    offsets.resize(groups + 1, 0);
    // cursors[c][k]: where chunk `c` writes its first value of group `k`
    let mut cursors = counts;
    let mut at = 0;
    for k in 0..groups {
        offsets[k] = at;
        for cursor in cursors.iter_mut() {
            let n = cursor[k];
            cursor[k] = at;
            at += n;
        }
    }
    offsets[groups] = at;
    let total = at;
    scratch.clear();
    scratch.reserve(total);
    wscratch.clear();
    if w.is_some() {
        wscratch.reserve(total);
    }
    let (vp, wp) = (
        SendPtr(scratch.as_mut_ptr().cast_const()),
        SendPtr(wscratch.as_mut_ptr().cast_const()),
    );
    let cursors = &cursors;
    map_tasks(chunks, |c| {
        let mut cursor = cursors[c].clone();
        for j in range(c) {
            let l = labels[j];
            if l >= 0 && !xs[j].is_nan_value() {
                let at = &mut cursor[l as usize];
                // SAFETY: the cursors of the chunks cut `0..total` into
                // disjoint ranges, one per (group, chunk), each as long as
                // the chunk's count of the group: every slot below `total`
                // (the capacity reserved) is written once, by one task.
                unsafe {
                    vp.get().cast_mut().add(*at).write(xs[j].to_value());
                    if let Some(w) = w {
                        wp.get().cast_mut().add(*at).write(w[j]);
                    }
                }
                *at += 1;
            }
        }
    });
    // SAFETY: every slot below `total` was written above.
    unsafe {
        scratch.set_len(total);
        if w.is_some() {
            wscratch.set_len(total);
        }
    }
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
        let w_row = weights.as_ref().map(|(w, per_value)| {
            let w = w.as_slice().expect("standard layout");
            if *per_value {
                &w[r * n_in..(r + 1) * n_in]
            } else {
                w
            }
        });
        counting_sort(
            xs,
            labels,
            w_row,
            groups,
            &mut offsets,
            &mut scratch,
            &mut wscratch,
        );
        let total = offsets[groups];
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

    /// The median of sorted values (the mean of the middle two for an even count).
    fn median_of_sorted(xs: &[f64]) -> f64 {
        let m = xs.len();
        if m % 2 == 1 {
            xs[m / 2]
        } else {
            (xs[m / 2 - 1] + xs[m / 2]) / 2.0
        }
    }

    /// `group_order`'s median of each label of `v` along axis 1.
    fn group_medians(v: &Array2<f64>, l: &[i64]) -> ArrayD<f64> {
        let labels = ndarray::Array1::from(l.to_vec()).into_dyn();
        let vd = v.clone().into_dyn();
        group_order(
            &vd.view(),
            &labels.view(),
            Axes::One(1),
            None,
            &GroupQuantiles::median(),
        )
        .unwrap()
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
        let med = group_medians(&v, &l);
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
                assert_eq!(med[[r, g]], median_of_sorted(&xs));
                for (i, &p) in qs.iter().enumerate() {
                    let k = (p * (m - 1) as f64).floor() as usize;
                    assert_eq!(q[[i, r, g]], xs[k]);
                }
            }
        }
    }

    #[test]
    fn the_chunked_counting_sort_keeps_each_group_and_its_weights() {
        // long enough for three chunks of the counting sort
        let (n, groups) = (3 * MIN_TASK + 17, 29_usize);
        let v = Array2::from_shape_fn((1, n), |(_, j)| {
            if j % 13 == 0 {
                f64::NAN
            } else {
                ((j * 7919) % 1013) as f64 - 500.0
            }
        });
        let l: Vec<i64> = (0..n)
            .map(|j| ((j * 104_729) % (groups + 2)) as i64 - 2)
            .collect();
        let labels = ndarray::Array1::from(l.clone()).into_dyn();
        let vd = v.clone().into_dyn();
        let med = group_medians(&v, &l);
        for g in 0..groups {
            let xs = sorted_group(&v, &l, 0, g as i64);
            assert_eq!(med[[0, g]], median_of_sorted(&xs), "group {g}");
        }
        // weights travel with their values: each group's weighted quantile
        // equals the one of that group alone (one chunk, in order)
        let w: Vec<f64> = (0..n).map(|j| (j % 5) as f64).collect();
        let wd = ndarray::Array1::from(w.clone()).into_dyn();
        let qs = [0.3, 0.5, 0.9];
        let stat = GroupQuantiles {
            qs: Some(&qs),
            method: QuantileMethod::InvertedCdf,
            weights: Some(wd.view()),
        };
        let all = group_order(&vd.view(), &labels.view(), Axes::One(1), None, &stat).unwrap();
        for g in 0..groups {
            let keep: Vec<usize> = (0..n).filter(|&j| l[j] == g as i64).collect();
            let xs = ndarray::Array1::from_iter(keep.iter().map(|&j| v[[0, j]])).into_dyn();
            let ws = ndarray::Array1::from_iter(keep.iter().map(|&j| w[j])).into_dyn();
            let zeros = ndarray::Array1::<i64>::zeros(keep.len()).into_dyn();
            let alone = GroupQuantiles {
                weights: Some(ws.view()),
                ..stat.clone()
            };
            let one = group_order(&xs.view(), &zeros.view(), Axes::All, None, &alone).unwrap();
            for i in 0..qs.len() {
                assert_eq!(all[[i, 0, g]].to_bits(), one[[i, 0]].to_bits(), "group {g}");
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
