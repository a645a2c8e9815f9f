//! Order statistics: quantiles and medians, NaN-skipping and NaN-propagating.
//!
//! Per output element, one pass copies the lane's values into a reusable
//! scratch buffer (dropping NaN, or noting that one was seen), then
//! [`crate::select`] reorders the buffer by selection — never a full sort —
//! and all requested quantiles share that one copy. Strided lanes that sit
//! side by side in memory (axis 0 of a C array) are copied a cache line's
//! worth at a time, so each line is read once, not once per lane. A single
//! long lane is not copied at all ([`super::bracket`]), nor is the median of a
//! small contiguous array (`select::sampled`: one bracketing pass, values kept
//! in a per-thread buffer). Lanes are independent
//! and run in parallel, each task with its own scratch buffer; the input is
//! never modified.

use super::bracket::{sample_lane, select_bracketed, Bracketed, Scan, MIN_BRACKET_LANE};
use super::short_median::short_medians;
use crate::axes::Axes;
use crate::element::Element;
use crate::error::{ensure_memory, Error, Result};
use crate::par::{SendPtr, MIN_TASK};
use crate::plan::{Plan, Walker};
use crate::select::{copy_valid, finish_picks, plan_picks, COPY_SLACK};
use crate::select::{median_middles, median_of_middles, Middles, Sealed, MIN_SAMPLED_LANE};
use crate::select::{
    median_of_scratch, quantiles_in_place_with, weighted_quantiles_with, QDtype, QuantileMethod,
    QuantileScratch, SelectFloat, WeightedQuantileError,
};
use crate::Report;
use half::{bf16, f16};
use ndarray::{ArrayBase, ArrayD, ArrayViewD, Data, Dimension, IxDyn};
use rayon::prelude::*;

/// Element types with an order: real floats, integers and `bool` (complex has none).
///
/// `Value` is the type quantiles are selected and interpolated in: the float
/// itself, `f64` for integers and `bool` (NumPy's result dtype).
pub trait QuantileElement: Element {
    /// The float type of the lane's values.
    type Value: SelectFloat + Default;
    /// Converts one value (exactly for floats and integers up to 2⁵³).
    fn to_value(self) -> Self::Value;

    /// The values themselves when `Self` is `Value` (the float types), so
    /// that a lane can be copied by SIMD; `None` for the converted types.
    ///
    /// ```
    /// use nanops::QuantileElement;
    /// assert_eq!(f64::as_values(&[1.0, 2.0]), Some(&[1.0, 2.0][..]));
    /// assert_eq!(i32::as_values(&[1, 2]), None);
    /// ```
    #[inline(always)]
    fn as_values(xs: &[Self]) -> Option<&[Self::Value]> {
        let _ = xs;
        None
    }
}

macro_rules! float_quantile {
    ($($t:ty),*) => {$(
        impl QuantileElement for $t {
            type Value = $t;
            #[inline(always)]
            fn to_value(self) -> $t { self }
            #[inline(always)]
            fn as_values(xs: &[$t]) -> Option<&[$t]> { Some(xs) }
        }
    )*};
}
float_quantile!(f16, bf16, f32, f64);

macro_rules! int_quantile {
    ($($t:ty),*) => {$(
        impl QuantileElement for $t {
            type Value = f64;
            #[inline(always)]
            fn to_value(self) -> f64 { self as f64 }
        }
    )*};
}
int_quantile!(i8, i16, i32, i64, u8, u16, u32, u64);

impl QuantileElement for bool {
    type Value = f64;
    #[inline(always)]
    fn to_value(self) -> f64 {
        self as u8 as f64
    }
}

/// How quantiles are computed: method, NaN policy, weights and NumPy's dtype of `q`.
///
/// ```
/// use nanops::{QuantileMethod, QuantileOptions};
/// let o = QuantileOptions::default();
/// assert_eq!(o.method, QuantileMethod::Linear);
/// assert!(o.ignore_nan && o.weights.is_none());
/// ```
#[derive(Clone, Debug)]
pub struct QuantileOptions<'a> {
    /// One of NumPy's 13 methods.
    pub method: QuantileMethod,
    /// `true`: skip NaN (`nanquantile`); `false`: a lane with NaN gives NaN (`quantile`).
    pub ignore_nan: bool,
    /// Non-negative finite weights of the array's shape (possibly a broadcast
    /// view), for `InvertedCdf` and `AveragedInvertedCdf`.
    pub weights: Option<ArrayViewD<'a, f64>>,
    /// The NumPy dtype `q` had, which sets the precision of NumPy's index
    /// arithmetic (see [`QDtype`]); `Float64` for plain Rust use.
    pub q_dtype: QDtype,
}

impl Default for QuantileOptions<'_> {
    fn default() -> Self {
        QuantileOptions {
            method: QuantileMethod::Linear,
            ignore_nan: true,
            weights: None,
            q_dtype: QDtype::Float64,
        }
    }
}

/// Which statistic each lane gets.
#[derive(Clone, Copy)]
enum Stat<'q> {
    Median,
    Quantiles(&'q [f64]),
}

impl Stat<'_> {
    /// Whether results carry a leading `q` axis (quantiles do, medians not).
    fn has_q_axis(&self) -> bool {
        matches!(self, Stat::Quantiles(_))
    }

    /// Values per output: one median, or one per `q`.
    fn len(&self) -> usize {
        match self {
            Stat::Median => 1,
            Stat::Quantiles(q) => q.len(),
        }
    }
}

/// Checks every `q` is in `[0, 1]`.
fn check_q(q: &[f64]) -> Result<()> {
    match q.iter().find(|q| !(0.0..=1.0).contains(*q)) {
        Some(&q) => Err(Error::InvalidQuantile { q }),
        None => Ok(()),
    }
}

/// Probes the memory an order statistic over `axes` of `shape` will allocate:
/// `nq` results of `R` per output (computed, then scattered to C order), one
/// offset per output, a lane scratch copy of `per_value` bytes per value (one
/// per concurrent task), and `copy` bytes per element of `shape` (the weighted
/// path's copy of values and weights).
fn ensure_order_memory<R>(
    shape: &[usize],
    axes: &[usize],
    nq: usize,
    per_value: usize,
    copy: usize,
) -> Result<()> {
    let lane: usize = axes.iter().map(|&i| shape[i]).product();
    let n_out: usize = (0..shape.len())
        .filter(|i| !axes.contains(i))
        .map(|i| shape[i])
        .product();
    let tasks = rayon::current_num_threads().clamp(1, n_out.max(1));
    ensure_memory(&[
        (n_out.saturating_mul(nq), 2 * std::mem::size_of::<R>()),
        (n_out, std::mem::size_of::<isize>()),
        (lane.saturating_mul(tasks), per_value),
        (shape.iter().product(), copy),
    ])
}

/// Result layout: `nq` values per output, plan-order outputs, then scattered
/// to `(q, out…)` C order: plan-order output `j` goes to `offsets[j]`, or to
/// `j` when `offsets` is `None` (the plan's [`Plan::out_in_order`]).
fn scatter<R: Copy + Default>(
    per_output: Vec<R>,
    nq: usize,
    offsets: Option<&[isize]>,
    out_shape: &[usize],
    with_q_axis: bool,
) -> ArrayD<R> {
    let n_out: usize = out_shape.iter().product();
    let out = match offsets {
        // one value per output, already in C order: no second buffer (a
        // (100000, 10) median's output is 800 KB)
        None if nq == 1 => per_output,
        _ => {
            let mut out = vec![R::default(); nq * n_out];
            for j in 0..n_out {
                let off = offsets.map_or(j, |o| o[j] as usize);
                for k in 0..nq {
                    out[k * n_out + off] = per_output[j * nq + k];
                }
            }
            out
        }
    };
    let mut shape = Vec::with_capacity(out_shape.len() + 1);
    if with_q_axis {
        shape.push(nq);
    }
    shape.extend_from_slice(out_shape);
    ArrayD::from_shape_vec(IxDyn(&shape), out).expect("length matches shape")
}

/// Appends the non-NaN values of `xs` to `vals`; returns whether there was a NaN.
///
/// Branch-free: every value is written, the end advances only past valid
/// ones (a branch on NaN mispredicts at random NaN positions).
#[inline]
fn push_valid<E: QuantileElement>(vals: &mut Vec<E::Value>, xs: &[E]) -> bool {
    if !E::CAN_BE_NAN {
        vals.extend(xs.iter().map(|x| x.to_value()));
        return false;
    }
    vals.reserve(xs.len() + COPY_SLACK);
    let start = vals.len();
    if let Some(end) =
        E::as_values(xs).and_then(|values| copy_valid(values, vals.spare_capacity_mut()))
    {
        // SAFETY: the SIMD copy wrote the first `end` spare slots.
        unsafe { vals.set_len(start + end) };
        return end < xs.len();
    }
    let spare = &mut vals.spare_capacity_mut()[..xs.len()];
    let mut end = 0;
    for &x in xs {
        // `end` ≤ the number of values seen so far, so it stays in `spare`
        spare[end].write(x.to_value());
        end += !x.is_nan_value() as usize;
    }
    // SAFETY: the first `end` spare slots were written (valid values only).
    unsafe { vals.set_len(start + end) };
    end < xs.len()
}

/// Longest strided lane copied in groups (bounds the group's scratch).
const MAX_GROUP_LANE: usize = 1 << 16;

/// Copies the values of `group` side-by-side lanes of `lane` values,
/// starting at plan-order output `start`, into `block` (lane `g` from
/// `g·lane`), NaN dropped; returns each lane's count of valid values.
fn group_copy<E: QuantileElement>(
    walker: &Walker<'_, E>,
    start: usize,
    group: usize,
    lane: usize,
    block: &mut Vec<E::Value>,
) -> Vec<usize> {
    block.clear();
    block.resize(group * lane, E::Value::default());
    let mut ends: Vec<usize> = (0..group).map(|g| g * lane).collect();
    walker.for_each_row_of(start, group, |row| {
        for (end, &x) in ends.iter_mut().zip(row) {
            // `end` stays below its lane's end: one slot per value read
            block[*end] = x.to_value();
            *end += !x.is_nan_value() as usize;
        }
    });
    ends.iter()
        .enumerate()
        .map(|(g, &e)| e - g * lane)
        .collect()
}

/// Fills `out` with one lane's statistic from its valid values `vals`
/// (scratch: left in an unspecified state), or NaN when it has none or a
/// NaN propagates; returns 1 for a lane without values.
fn lane_result<T, R>(
    vals: &mut [T],
    has_nan: bool,
    stat: Stat<'_>,
    opts: &QuantileOptions<'_>,
    scratch: &mut QuantileScratch,
    out: &mut [R],
) -> usize
where
    T: SelectFloat,
    R: SelectFloat + From<T>,
{
    if vals.is_empty() || (has_nan && !opts.ignore_nan) {
        out.fill(R::NAN);
        return vals.is_empty() as usize;
    }
    lane_stat(vals, stat, opts, scratch, out);
    0
}

/// Computes one lane's statistic from its valid values into `out`.
fn lane_stat<T, R>(
    vals: &mut [T],
    stat: Stat<'_>,
    opts: &QuantileOptions<'_>,
    scratch: &mut QuantileScratch,
    out: &mut [R],
) where
    T: SelectFloat,
    R: SelectFloat + From<T>,
{
    match stat {
        Stat::Median => out[0] = R::from(median_of_scratch(vals)),
        Stat::Quantiles(q) => {
            quantiles_in_place_with(vals, q, opts.method, opts.q_dtype, scratch, out)
        }
    }
}

/// The statistic of a single long lane by [`select_bracketed`] (no copy of
/// the lane); `None` when a bracket missed.
fn bracketed<E, R>(
    walker: &Walker<'_, E>,
    plan: &Plan,
    lane: usize,
    stat: Stat<'_>,
    opts: &QuantileOptions<'_>,
) -> Option<Report<R>>
where
    E: QuantileElement,
    R: SelectFloat + From<E::Value> + Default,
{
    let nq = stat.len();
    let mut out = vec![R::default(); nq];
    match sample_lane(walker, 0, lane, opts.ignore_nan) {
        Scan::Nan => out.fill(R::NAN),
        Scan::Sampled { read, sample } => {
            let mut scratch = QuantileScratch::new();
            let ranks_of = |n: usize| match stat {
                Stat::Median if n % 2 == 1 => vec![n / 2],
                Stat::Median => vec![n / 2 - 1, n / 2],
                Stat::Quantiles(q) => {
                    plan_picks(n, q, opts.method, opts.q_dtype, &mut scratch);
                    scratch.ranks.clone()
                }
            };
            let Bracketed { n, values: v } =
                select_bracketed(walker, 0, lane, read, &sample, ranks_of)?;
            if n < lane && !opts.ignore_nan {
                out.fill(R::NAN); // a NaN the sample missed
            } else if let Stat::Quantiles(_) = stat {
                // `scratch` holds the plan for the exact count (the last call)
                let ranks = &scratch.ranks;
                let value = |r: usize| ranks.binary_search(&r).ok().map(|i| v[i]);
                finish_picks(&scratch.picks, value, &mut out);
            } else {
                let m = match v[..] {
                    [a, b] => E::Value::mean_of_two(a, b),
                    _ => v[0],
                };
                out[0] = R::from(m);
            }
        }
    }
    let offsets = (!plan.out_in_order()).then(|| plan.out_offsets());
    let values = scatter(
        out,
        nq,
        offsets.as_deref(),
        &plan.out_shape,
        stat.has_q_axis(),
    );
    // a lane without valid values never gets here: its sample is empty
    Some(Report {
        values,
        degenerate: 0,
    })
}

/// The statistic of a small contiguous array reduced whole (fewer than
/// [`MIN_BRACKET_LANE`] values): its median from one bracketing pass
/// ([`sampled_median`]), or one copy of its valid values into this thread's
/// scratch; no plan (the values' order does not matter).
fn small_whole<E, R>(xs: &[E], stat: Stat<'_>, opts: &QuantileOptions<'_>) -> Report<R>
where
    E: QuantileElement,
    R: SelectFloat + From<E::Value> + Default,
{
    if let Some(report) = sampled_median(xs, stat, opts) {
        return report;
    }
    let nq = stat.len();
    let mut out = vec![R::default(); nq];
    let degenerate = E::Value::with_thread_scratch(|vals| {
        vals.clear();
        let has_nan = push_valid(vals, xs);
        let mut scratch = QuantileScratch::new();
        lane_result(vals, has_nan, stat, opts, &mut scratch, &mut out)
    });
    let shape: &[usize] = if stat.has_q_axis() { &[nq] } else { &[] };
    let values = ArrayD::from_shape_vec(IxDyn(shape), out).expect("length matches shape");
    Report { values, degenerate }
}

/// The median of a whole contiguous array from [`median_middles`] (one
/// bracketing pass, no copy of the array); `None` for other statistics,
/// types without the SIMD pass, and lanes the bracket missed.
fn sampled_median<E, R>(xs: &[E], stat: Stat<'_>, opts: &QuantileOptions<'_>) -> Option<Report<R>>
where
    E: QuantileElement,
    R: SelectFloat + From<E::Value>,
{
    if !matches!(stat, Stat::Median) || xs.len() < MIN_SAMPLED_LANE {
        return None;
    }
    let Middles {
        valid,
        lower,
        upper,
    } = median_middles(E::as_values(xs)?)?;
    let value = if valid < xs.len() && !opts.ignore_nan {
        R::NAN
    } else {
        R::from(median_of_middles(valid, lower, upper))
    };
    Some(Report {
        values: ArrayD::from_elem(IxDyn(&[]), value),
        degenerate: 0, // the sample held valid values
    })
}

fn unweighted<E, R>(
    view: &ArrayViewD<'_, E>,
    axes: &[usize],
    stat: Stat<'_>,
    opts: &QuantileOptions<'_>,
) -> Result<Report<R>>
where
    E: QuantileElement,
    R: SelectFloat + From<E::Value> + Default,
{
    let nq = stat.len();
    let with_q_axis = stat.has_q_axis();
    if axes.len() == view.ndim() && view.len() < MIN_BRACKET_LANE {
        if let Some(xs) = view.as_slice_memory_order() {
            return Ok(small_whole(xs, stat, opts));
        }
    }
    let plan = Plan::new(view.shape(), view.strides(), axes);
    let (n_out, lane) = (plan.out_len(), plan.reduce_len());
    if n_out == 1 && lane >= MIN_BRACKET_LANE {
        // The bracket keeps at most half the lane (else it gives up): fail
        // now, not after a pass over a view too large to hold that.
        ensure_memory(&[(lane / 2 + 1024, std::mem::size_of::<E::Value>())])?;
        // SAFETY: `plan` was made from `view`.
        let walker = unsafe { Walker::new(view.as_ptr(), &plan) };
        if let Some(report) = bracketed::<E, R>(&walker, &plan, lane, stat, opts) {
            return Ok(report);
        }
    }
    // Each task copies a whole lane (the bracket above copies none), or
    // `group` strided lanes at once.
    let strided = plan.reduced.last().is_some_and(|d| d.stride != 1);
    let group = if strided && n_out > 1 && lane <= MAX_GROUP_LANE {
        (64 / std::mem::size_of::<E>()).clamp(1, 16)
    } else {
        1
    };
    let tasks = rayon::current_num_threads().clamp(1, n_out.max(1));
    ensure_memory(&[(
        lane.saturating_mul(tasks).saturating_mul(group),
        std::mem::size_of::<E::Value>(),
    )])?;
    let mut results = vec![R::default(); n_out * nq];
    let ptr = SendPtr(view.as_ptr());
    let run = |start: usize, chunk: &mut [R]| -> usize {
        // SAFETY: `plan` was made from `view`, which outlives this call.
        let walker = unsafe { Walker::new(ptr.get(), &plan) };
        if let (Stat::Median, Some(len)) = (stat, walker.short_lane()) {
            // many short contiguous lanes: sorted side by side
            return short_medians(&walker, start, len, opts.ignore_nan, chunk);
        }
        let count = chunk.len() / nq.max(1);
        let mut vals: Vec<E::Value> = Vec::with_capacity(lane);
        let mut scratch = QuantileScratch::new();
        let mut degenerate = 0;
        let mut flush = |vals: &mut Vec<E::Value>, has_nan: bool, j: usize| {
            let out = &mut chunk[j * nq..(j + 1) * nq];
            degenerate += lane_result(vals, has_nan, stat, opts, &mut scratch, out);
            vals.clear();
        };
        let mut done = 0;
        if group > 1 {
            // Strided lanes: `group` side-by-side lanes are copied at once
            // (`group_copy`), one output after another otherwise.
            let mut block: Vec<E::Value> = Vec::new();
            while done < count {
                let width = group.min(count - done);
                if width == group && walker.side_by_side(start + done, width) {
                    let ends = group_copy(&walker, start + done, group, lane, &mut block);
                    for (g, &end) in ends.iter().enumerate() {
                        let lane_vals = &mut block[g * lane..g * lane + end];
                        let out = &mut chunk[(done + g) * nq..(done + g + 1) * nq];
                        degenerate +=
                            lane_result(lane_vals, end < lane, stat, opts, &mut scratch, out);
                    }
                    done += width;
                } else {
                    let mut has_nan = false;
                    walker.for_each_run(start + done, 1, |_, xs| {
                        has_nan |= push_valid(&mut vals, xs)
                    });
                    let out = &mut chunk[done * nq..(done + 1) * nq];
                    degenerate += lane_result(&mut vals, has_nan, stat, opts, &mut scratch, out);
                    vals.clear();
                    done += 1;
                }
            }
            return degenerate;
        }
        let (mut current, mut has_nan) = (0, false);
        walker.for_each_run(start, count, |j, xs| {
            while current < j {
                flush(&mut vals, has_nan, current);
                (current, has_nan) = (current + 1, false);
            }
            has_nan |= push_valid(&mut vals, xs);
        });
        while current < count {
            flush(&mut vals, has_nan, current);
            (current, has_nan) = (current + 1, false);
        }
        degenerate
    };
    let degenerate = if nq == 0 || n_out == 0 {
        0
    } else if n_out > 1 && n_out * lane >= 2 * MIN_TASK {
        let per_task = (MIN_TASK / lane.max(1))
            .clamp(1, n_out.div_ceil(8).max(1))
            .next_multiple_of(group);
        results
            .par_chunks_mut(per_task * nq)
            .enumerate()
            .map(|(t, chunk)| run(t * per_task, chunk))
            .sum()
    } else {
        run(0, &mut results)
    };
    let offsets = (!plan.out_in_order()).then(|| plan.out_offsets());
    let values = scatter(
        results,
        nq,
        offsets.as_deref(),
        &plan.out_shape,
        with_q_axis,
    );
    Ok(Report { values, degenerate })
}

fn weighted<E, R>(
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
        if vals.is_empty() || (has_nan && !opts.ignore_nan) {
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

/// Quantiles with every option, in the result type `R` (`E::Value` or wider),
/// and the number of empty or all-NaN slices.
///
/// The result has shape `[q.len()] + kept axes`. This is the general form of
/// [`nanquantile`] and [`quantile`]: `opts` selects the method, the NaN policy,
/// weights and NumPy's precision rules for `q`.
///
/// # Errors
/// [`Error::InvalidQuantile`], [`Error::WeightsShape`], [`Error::InvalidWeight`],
/// [`Error::WeightsUnsupported`], axis errors.
///
/// ```
/// use nanops::{quantile_report, QuantileMethod, QuantileOptions};
/// use ndarray::{array, ArrayD};
/// let a = array![[1.0f32, 2.0, f32::NAN, 4.0]];
/// let opts = QuantileOptions { method: QuantileMethod::Lower, ..Default::default() };
/// let r = quantile_report::<_, _, _, f64>(&a, &[0.5], 1, &opts).unwrap();
/// assert_eq!(r.values, ArrayD::from_elem(ndarray::IxDyn(&[1, 1]), 2.0));
/// ```
pub fn quantile_report<S, E, D, R>(
    a: &ArrayBase<S, D>,
    q: &[f64],
    axes: impl Into<Axes>,
    opts: &QuantileOptions<'_>,
) -> Result<Report<R>>
where
    S: Data<Elem = E>,
    E: QuantileElement,
    D: Dimension,
    R: SelectFloat + From<E::Value> + Default,
{
    check_q(q)?;
    let view = a.view().into_dyn();
    let axes = axes.into().normalize(view.ndim())?;
    let (per_value, copy) = match opts.weights {
        // the weighted path copies values and weights, then each lane's valid pairs
        Some(_) => (
            std::mem::size_of::<E::Value>() + 8,
            std::mem::size_of::<E>() + 8,
        ),
        None => (0, 0), // its lane copy is probed in `unweighted`
    };
    ensure_order_memory::<R>(view.shape(), &axes, q.len(), per_value, copy)?;
    match &opts.weights {
        Some(w) => {
            if !opts.method.supports_weights() {
                return Err(Error::WeightsUnsupported {
                    method: opts.method.name(),
                });
            }
            weighted(&view, w, &axes, q, opts)
        }
        None => unweighted(&view, &axes, Stat::Quantiles(q), opts),
    }
}

/// Quantiles of the non-NaN values over `axes`; all-NaN slices give NaN.
///
/// The result has shape `[q.len()] + kept axes`; floats keep their type,
/// integers give `f64`. With `method = Linear`, for sorted valid values
/// `x₀ ≤ … ≤ xₙ₋₁`:
///
/// ```text
/// v = (n − 1)·q,  i = ⌊v⌋,  γ = v − i
/// Q(q) = x_i + (x_{i+1} − x_i)·γ          (γ < 0.5)
///      = x_{i+1} − (x_{i+1} − x_i)·(1 − γ) (γ ≥ 0.5)
/// ```
/// and the other 12 methods as NumPy ([`QuantileMethod`]).
///
/// # Errors
/// [`Error::InvalidQuantile`] for `q` outside `[0, 1]`; axis errors.
///
/// ```
/// use ndarray::array;
/// use nanops::QuantileMethod;
/// let a = array![[1.0, f64::NAN, 3.0, 4.0], [f64::NAN, f64::NAN, 5.0, 6.0]];
/// let q = nanops::nanquantile(&a, &[0.0, 0.5, 1.0], 1, QuantileMethod::Linear).unwrap();
/// assert_eq!(q, array![[1.0, 5.0], [3.0, 5.5], [4.0, 6.0]].into_dyn());
/// ```
pub fn nanquantile<S, E, D>(
    a: &ArrayBase<S, D>,
    q: &[f64],
    axes: impl Into<Axes>,
    method: QuantileMethod,
) -> Result<ArrayD<E::Value>>
where
    S: Data<Elem = E>,
    E: QuantileElement,
    D: Dimension,
{
    let opts = QuantileOptions {
        method,
        ..Default::default()
    };
    Ok(quantile_report(a, q, axes, &opts)?.values)
}

/// Quantiles over `axes` where any NaN makes its slice's result NaN (NumPy's `quantile`).
///
/// # Errors
/// As [`nanquantile`].
///
/// ```
/// use ndarray::array;
/// use nanops::QuantileMethod;
/// let a = array![[1.0, 2.0, 3.0], [1.0, f64::NAN, 3.0]];
/// let q = nanops::quantile(&a, &[0.5], 1, QuantileMethod::Linear).unwrap();
/// assert_eq!(q[[0, 0]], 2.0);
/// assert!(q[[0, 1]].is_nan());
/// ```
pub fn quantile<S, E, D>(
    a: &ArrayBase<S, D>,
    q: &[f64],
    axes: impl Into<Axes>,
    method: QuantileMethod,
) -> Result<ArrayD<E::Value>>
where
    S: Data<Elem = E>,
    E: QuantileElement,
    D: Dimension,
{
    let opts = QuantileOptions {
        method,
        ignore_nan: false,
        ..Default::default()
    };
    Ok(quantile_report(a, q, axes, &opts)?.values)
}

/// Median with a NaN policy, and the number of empty or all-NaN slices.
///
/// # Errors
/// Axis errors.
///
/// ```
/// use ndarray::array;
/// let r = nanops::median_report(&array![[f64::NAN], [2.0]], 1, true).unwrap();
/// assert_eq!(r.degenerate, 1);
/// assert_eq!(r.values[1], 2.0);
/// ```
pub fn median_report<S, E, D>(
    a: &ArrayBase<S, D>,
    axes: impl Into<Axes>,
    ignore_nan: bool,
) -> Result<Report<E::Value>>
where
    S: Data<Elem = E>,
    E: QuantileElement,
    D: Dimension,
{
    let opts = QuantileOptions {
        ignore_nan,
        ..Default::default()
    };
    let axes = axes.into();
    if let (Axes::All, Some(xs)) = (&axes, a.as_slice_memory_order()) {
        if xs.len() < MIN_BRACKET_LANE {
            // the whole of a small contiguous array: no dynamic view, no axis list
            return Ok(small_whole(xs, Stat::Median, &opts));
        }
    }
    let view = a.view().into_dyn();
    let axes = axes.normalize(view.ndim())?;
    ensure_order_memory::<E::Value>(view.shape(), &axes, 1, 0, 0)?;
    unweighted(&view, &axes, Stat::Median, &opts)
}

/// Median of the non-NaN values over `axes`; NaN for an all-NaN slice.
///
/// ```text
/// nanmedian(x) = x_{(n−1)/2}                        (n odd, sorted valid values)
///              = (x_{n/2−1} + x_{n/2}) / 2          (n even; no overflow: see below)
/// ```
/// Unlike NumPy, the mean of two huge middle values does not overflow:
/// `nanmedian([1.7e308, 1.7e308])` is `1.7e308`.
///
/// # Errors
/// Axis errors.
///
/// ```
/// use ndarray::array;
/// let a = array![[3.0, f64::NAN, 1.0, 2.0], [1.7e308, 1.7e308, f64::NAN, f64::NAN]];
/// assert_eq!(nanops::nanmedian(&a, 1).unwrap(), array![2.0, 1.7e308].into_dyn());
/// ```
pub fn nanmedian<S, E, D>(a: &ArrayBase<S, D>, axes: impl Into<Axes>) -> Result<ArrayD<E::Value>>
where
    S: Data<Elem = E>,
    E: QuantileElement,
    D: Dimension,
{
    Ok(median_report(a, axes, true)?.values)
}

/// Median over `axes` where any NaN makes its slice's result NaN (NumPy's `median`).
///
/// # Errors
/// Axis errors.
///
/// ```
/// use ndarray::array;
/// let m = nanops::median(&array![[1.0, 5.0, 2.0], [1.0, f64::NAN, 2.0]], 1).unwrap();
/// assert_eq!(m[0], 2.0);
/// assert!(m[1].is_nan());
/// ```
pub fn median<S, E, D>(a: &ArrayBase<S, D>, axes: impl Into<Axes>) -> Result<ArrayD<E::Value>>
where
    S: Data<Elem = E>,
    E: QuantileElement,
    D: Dimension,
{
    Ok(median_report(a, axes, false)?.values)
}
