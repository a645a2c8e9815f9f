//! Order statistics per label (`group_nanmedian`, `group_nanquantile`): a
//! counting sort of each output's valid values by label into one scratch
//! buffer, then the order family's selection kernels on each group's part,
//! groups in parallel; long groups of unsorted labels skip the sort
//! (`super::bracket`: one pass keeps the values near the wanted ranks).
//! Sorted labels (each group one run of positions, as
//! after `np.argsort` or for time bins) need no sort: each group's run is
//! read where it is — its median by one bracketing pass, its quantiles
//! from one copy of its valid values.

use super::bracket::{bracketed_groups, of_group_values};
use super::driver::Grouping;
use crate::element::{Element, QuantileElement, SelectFloat};
use crate::error::{Error, Result};
use crate::options::{Axes, QDtype, QuantileMethod};
use crate::order::push_valid;
use crate::order::select::{
    median_middles, median_of_middles, weighted_quantiles_with, QuantileScratch,
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
/// (`per_value = false`) or one per value. A negative weight is refused
/// wherever it is (as `nanquantile`, whose NumPy check comes before NaN
/// values are dropped); finiteness depends on the value a weight goes
/// with, so [`finite_where_valid`] checks it per output.
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
    if w.iter().any(|&x| x < 0.0) {
        return Err(Error::InvalidWeight);
    }
    Ok((w, per_value))
}

/// Whether every non-NaN value of `xs` has a finite weight in `w`. A NaN
/// value is skipped with its weight, so a NaN or infinite weight there is
/// no error (as `nanquantile`); a value of a negative label, in no group,
/// is checked as any other non-NaN value.
fn finite_where_valid<E: Element>(xs: &[E], w: &[f64]) -> bool {
    xs.iter()
        .zip(w)
        .all(|(x, w)| w.is_finite() || x.is_nan_value())
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

/// Where each group's run of positions starts when `labels` are sorted
/// (non-decreasing, so negative labels come first): `groups + 1` positions,
/// the last one the end; `None` for labels out of order. Blocks of labels
/// are checked without a branch per label, stopping at the first block out
/// of order (at once for random labels).
fn sorted_bounds(labels: &[i64], groups: usize) -> Option<Vec<usize>> {
    const BLOCK: usize = 1024;
    let mut previous = i64::MIN;
    for block in labels.chunks(BLOCK) {
        let descends = block.windows(2).fold(false, |d, w| d | (w[1] < w[0]));
        if descends || block[0] < previous {
            return None;
        }
        previous = block[block.len() - 1];
    }
    Some(
        (0..=groups)
            .map(|k| labels.partition_point(|&l| l < k as i64))
            .collect(),
    )
}

/// The results of groups `g0..g1` of one output `xs` whose labels are
/// sorted (group `k` is `xs[bounds[k]..bounds[k + 1]]`), `nq` per group:
/// the median by one bracketing pass over the run where it is long enough
/// (no copy), else the run's valid values copied once and selected (for
/// quantiles of long runs this measured faster than [`bracketed_groups`]'
/// pass over the run, whose bracket a far quantile leaves wide; the
/// numbers are in the CHANGELOG).
fn sorted_groups<E: QuantileElement>(
    xs: &[E],
    bounds: &[usize],
    (g0, g1): (usize, usize),
    stat: &GroupQuantiles<'_>,
    nq: usize,
) -> Vec<E::Value> {
    let mut res = vec![E::Value::default(); (g1 - g0) * nq];
    let mut vals: Vec<E::Value> = Vec::new();
    let mut qscratch = QuantileScratch::new();
    for k in g0..g1 {
        let run = &xs[bounds[k]..bounds[k + 1]];
        let slot = &mut res[(k - g0) * nq..(k - g0 + 1) * nq];
        if stat.qs.is_none()
            && let Some(m) = E::as_values(run).and_then(median_middles)
        {
            slot[0] = median_of_middles(m.valid, m.lower, m.upper);
            continue;
        }
        vals.clear();
        push_valid(&mut vals, run);
        of_group_values(&mut vals, stat.qs, stat.method, &mut qscratch, slot);
    }
    res
}

/// Writes the results of output `r`, `parts` of `per_task` groups with
/// `nq` values each, into `out` (`[q][output][group]`).
fn place<T: Copy>(
    parts: impl IntoIterator<Item = Result<Vec<T>>>,
    per_task: usize,
    nq: usize,
    n_out: usize,
    groups: usize,
    r: usize,
    out: &mut [T],
) -> Result<()> {
    let mut k = 0;
    for part in parts {
        for (i, &v) in part?.iter().enumerate() {
            let (group, qi) = (k + i / nq, i % nq);
            out[qi * n_out * groups + r * groups + group] = v;
        }
        k += per_task;
    }
    Ok(())
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
    if let Some(qs) = stat.qs
        && let Some(&q) = qs.iter().find(|q| !(0.0..=1.0).contains(*q))
    {
        return Err(Error::InvalidQuantile { q });
    }
    if stat.weights.is_some() && !stat.method.supports_weights() {
        return Err(Error::WeightsUnsupported {
            method: stat.method.name(),
        });
    }
    // results, and one scratch copy of the values (and weights) per output
    let per_result = nq * std::mem::size_of::<E::Value>();
    let g = Grouping::new(
        values,
        labels,
        axes,
        num_labels,
        |_, _, _| per_result,
        false,
        false,
    )?;
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
    // weighted quantiles keep the counting sort (it moves the weights too)
    let bounds = match weights {
        None => sorted_bounds(labels, groups),
        Some(_) => None,
    };
    for r in 0..n_out {
        let xs = g.row(r);
        if let Some(bounds) = &bounds {
            let total = bounds[groups] - bounds[0];
            let tasks = if total < MIN_TASK {
                1
            } else {
                groups.clamp(1, MAX_TASKS)
            };
            let per_task = groups.div_ceil(tasks.max(1)).max(1);
            let parts = map_tasks(groups.div_ceil(per_task), |t| {
                let span = (t * per_task, ((t + 1) * per_task).min(groups));
                sorted_groups(xs, bounds, span, stat, nq)
            });
            place(
                parts.into_iter().map(Ok),
                per_task,
                nq,
                n_out,
                groups,
                r,
                &mut out,
            )?;
            continue;
        }
        if weights.is_none() {
            // long groups of unsorted labels: one bracketing pass, no sort
            let mut res = vec![E::Value::default(); groups * nq];
            if bracketed_groups(xs, labels, groups, stat.qs, stat.method, &mut res) {
                place([Ok(res)], groups, nq, n_out, groups, r, &mut out)?;
                continue;
            }
        }
        let w_row = weights.as_ref().map(|(w, per_value)| {
            let w = w.as_slice().expect("standard layout");
            if *per_value {
                &w[r * n_in..(r + 1) * n_in]
            } else {
                w
            }
        });
        if let Some(w) = w_row
            && !finite_where_valid(xs, w)
        {
            return Err(Error::InvalidWeight);
        }
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
                let weights = if has_weights { &wscratch[lo..hi] } else { &[] };
                match stat.qs {
                    // no weight to place a quantile: NaN, as an empty group
                    // (NumPy's error is for a whole lane; here it would fail
                    // every other group of the call)
                    Some(_) if has_weights && weights.iter().all(|&w| w == 0.0) => {
                        slot.fill(E::Value::NAN);
                    }
                    Some(qs) if has_weights => weighted_quantiles_with(
                        vals,
                        weights,
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
                    qs => of_group_values(vals, qs, stat.method, &mut qscratch, slot),
                }
            }
            Ok(res)
        });
        place(parts, per_task, nq, n_out, groups, r, &mut out)?;
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
    use crate::group::reference::{linear_of_sorted, median_of_sorted, sorted_group};
    use ndarray::Array2;

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
                let xs = sorted_group(v.row(r).as_slice().unwrap(), &l, g as i64);
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
            let xs = sorted_group(v.row(0).as_slice().unwrap(), &l, g as i64);
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
    fn sorted_labels_read_each_run_in_place_with_the_bits_of_the_sort() {
        // runs long (bracketing pass) and short (copied), negative labels
        // first, an empty group (3) and an all-NaN group (5)
        let sizes = [2100, 3, 1, 0, 2500, 40, 1];
        let mut l: Vec<i64> = vec![-1; 9];
        for (g, &n) in sizes.iter().enumerate() {
            l.extend(std::iter::repeat_n(g as i64, n));
        }
        let n = l.len();
        let v = Array2::from_shape_fn((2, n), |(r, j)| {
            let in_nan_group = l[j] == 4;
            if in_nan_group || (j * 7 + r) % 10 == 0 {
                f64::NAN
            } else {
                ((j * 7919 + r * 31) % 1013) as f64 / 7.0
            }
        });
        assert!(sorted_bounds(&l, 7).is_some());
        let med = group_medians(&v, &l);
        let qs = [0.1, 0.5, 0.9];
        let stat = GroupQuantiles {
            qs: Some(&qs),
            method: QuantileMethod::Linear,
            weights: None,
        };
        let labels = ndarray::Array1::from(l.clone()).into_dyn();
        let vd = v.clone().into_dyn();
        let q = group_order(&vd.view(), &labels.view(), Axes::One(1), None, &stat).unwrap();
        // the same values and labels in reverse order go through the sort
        let rl: Vec<i64> = l.iter().rev().copied().collect();
        assert!(sorted_bounds(&rl, 7).is_none());
        let rv = v.slice(ndarray::s![.., ..;-1]).to_owned();
        let rmed = group_medians(&rv, &rl);
        let rlabels = ndarray::Array1::from(rl.clone()).into_dyn();
        let rvd = rv.clone().into_dyn();
        let rq = group_order(&rvd.view(), &rlabels.view(), Axes::One(1), None, &stat).unwrap();
        for r in 0..2 {
            for g in 0..7 {
                let xs = sorted_group(v.row(r).as_slice().unwrap(), &l, g as i64);
                let want = if xs.is_empty() {
                    f64::NAN
                } else {
                    median_of_sorted(&xs)
                };
                assert_eq!(med[[r, g]].to_bits(), want.to_bits(), "row {r} group {g}");
                assert_eq!(med[[r, g]].to_bits(), rmed[[r, g]].to_bits());
                for i in 0..qs.len() {
                    assert_eq!(q[[i, r, g]].to_bits(), rq[[i, r, g]].to_bits());
                    if xs.is_empty() {
                        assert!(q[[i, r, g]].is_nan());
                    } else {
                        let want = linear_of_sorted(&xs, qs[i]);
                        assert!((q[[i, r, g]] - want).abs() <= 1e-12 * want.abs().max(1.0));
                    }
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
        // a group whose weights are all zero: NaN, the others as before
        let zero = ndarray::array![1.0, 0.0, 5.0, 0.0].into_dyn();
        let zeroed = GroupQuantiles {
            weights: Some(zero.view()),
            ..stat.clone()
        };
        let q = group_order(&v.view(), &l.view(), Axes::All, None, &zeroed).unwrap();
        assert_eq!(q[[0, 0]], 3.0);
        assert!(q[[0, 1]].is_nan());
        // a NaN or infinite weight on a NaN value is skipped with the value
        let vn = ndarray::array![1.0_f64, f64::NAN, 3.0, f64::NAN, 10.0].into_dyn();
        let ln = ndarray::array![0, 0, 0, 1, 1].into_dyn();
        let wn = ndarray::array![1.0, f64::NAN, 5.0, f64::INFINITY, 1.0].into_dyn();
        let skipped = GroupQuantiles {
            weights: Some(wn.view()),
            ..stat.clone()
        };
        let q = group_order(&vn.view(), &ln.view(), Axes::All, None, &skipped).unwrap();
        assert_eq!((q[[0, 0]], q[[0, 1]]), (3.0, 10.0));
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
