//! The order-statistics driver: lanes copied into scratch, or bracketed,
//! then selected; quantiles and medians, NaN-skipping and NaN-propagating.
//!
//! Per output element, one pass copies the lane's values into a reusable
//! scratch buffer (dropping NaN, or noting that one was seen), then
//! [`super::select`] reorders the buffer by selection — never a full sort —
//! and all requested quantiles share that one copy. Strided lanes that sit
//! side by side in memory (axis 0 of a C array) are copied a cache-sized
//! tile of lanes at a time ([`super::tiles`]), so each line is read once,
//! not once per lane, and each lane is then selected from contiguous
//! scratch (the median by one bracketing pass over it). A single
//! long lane is not copied at all ([`super::bracket`]), nor is the median of a
//! small contiguous array (`select::sampled`: one bracketing pass, values kept
//! in a per-thread buffer). Lanes are independent
//! and run in parallel, each task with its own scratch buffer; the input is
//! never modified.

use super::bracket::{sample_lane, select_bracketed, Bracketed, Scan, MIN_BRACKET_LANE};
use super::column_sort::{sorted_tile, ColumnScratch, MAX_SORTED_LANE};
use super::select::QuantileScratch;
use super::select::{copy_valid, median_middles, median_of_middles, Middles, MIN_SAMPLED_LANE};
use super::short_median::{short_medians, SHORT_MEDIAN_LANE};
use super::statistic::OrderStatistic;
use super::tiles::{collect_valid, tile_width, transpose_tile};
use crate::element::{QuantileElement, SelectFloat, SelectSealed};
use crate::error::{ensure_memory, Error, Result};
use crate::layout::{Plan, Walker};
use crate::par::{map_chunks_mut, HandOff, SendPtr, MIN_TASK};
use crate::simd::compress::COPY_SLACK;
use crate::statistic::Report;
use ndarray::{ArrayD, ArrayViewD, IxDyn};

/// Checks every `q` is in `[0, 1]`.
pub(crate) fn check_q(q: &[f64]) -> Result<()> {
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
pub(crate) fn ensure_order_memory<R>(
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
pub(crate) fn scatter<R: Copy + Default>(
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
pub(crate) fn push_valid<E: QuantileElement>(vals: &mut Vec<E::Value>, xs: &[E]) -> bool {
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

/// Fills `out` with one lane's statistic from its valid values `vals`
/// (scratch: left in an unspecified state), or NaN when it has none or a
/// NaN propagates; returns 1 for a lane without values.
fn lane_result<T, R, S>(
    vals: &mut [T],
    has_nan: bool,
    stat: &S,
    scratch: &mut QuantileScratch,
    out: &mut [R],
) -> usize
where
    T: SelectFloat,
    R: SelectFloat + From<T>,
    S: OrderStatistic,
{
    if vals.is_empty() || (has_nan && !stat.nan_policy().skips_nan()) {
        out.fill(R::NAN);
        return vals.is_empty() as usize;
    }
    stat.of_values(vals, scratch, out);
    0
}

/// Fills `out` with the statistic of one lane `raw` of a transposed tile
/// (NaN included; left in an unspecified state): the median by one
/// bracketing pass ([`median_middles`]) where it applies, else the valid
/// values copied to `vals` and selected there; returns 1 for a lane without
/// values.
fn tile_lane_result<T, R, S>(
    raw: &mut [T],
    stat: &S,
    vals: &mut Vec<T>,
    scratch: &mut QuantileScratch,
    out: &mut [R],
) -> usize
where
    T: SelectFloat,
    R: SelectFloat + From<T>,
    S: OrderStatistic,
{
    if raw.len() >= MIN_SAMPLED_LANE
        && let Some(valid) = stat.of_lane_by_brackets(raw, scratch, out)
    {
        // a lane without valid values never gets here: its sample is empty
        if valid < raw.len() && !stat.nan_policy().skips_nan() {
            out.fill(R::NAN);
        }
        return 0;
    }
    let has_nan = collect_valid(vals, raw);
    lane_result(vals, has_nan, stat, scratch, out)
}

/// The statistic of a single long lane by [`select_bracketed`] (no copy of
/// the lane); `None` when a bracket missed.
fn bracketed<E, R, S>(
    walker: &Walker<'_, E>,
    plan: &Plan,
    lane: usize,
    stat: &S,
) -> Option<Report<R>>
where
    E: QuantileElement,
    R: SelectFloat + From<E::Value> + Default,
    S: OrderStatistic,
{
    let nq = stat.width();
    let skips_nan = stat.nan_policy().skips_nan();
    let mut out = vec![R::default(); nq];
    match sample_lane(walker, 0, lane, skips_nan) {
        Scan::Nan => out.fill(R::NAN),
        Scan::Sampled { read, sample } => {
            let mut scratch = QuantileScratch::new();
            let ranks_of = |n: usize| stat.ranks(n, &mut scratch);
            let Bracketed { n, values } =
                select_bracketed(walker, 0, lane, read, &sample, ranks_of)?;
            if n < lane && !skips_nan {
                out.fill(R::NAN); // a NaN the sample missed
            } else {
                // `scratch` holds what `ranks` worked out for the exact count
                // (the last call)
                stat.of_ranks(&values, &scratch, &mut out);
            }
        }
    }
    let offsets = (!plan.out_in_order()).then(|| plan.out_offsets());
    let values = scatter(
        out,
        nq,
        offsets.as_deref(),
        &plan.out_shape,
        stat.leading_axis(),
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
pub(crate) fn small_whole<E, R, S>(xs: &[E], stat: &S) -> Report<R>
where
    E: QuantileElement,
    R: SelectFloat + From<E::Value> + Default,
    S: OrderStatistic,
{
    if let Some(report) = sampled_median(xs, stat) {
        return report;
    }
    let nq = stat.width();
    let mut out = vec![R::default(); nq];
    let degenerate = E::Value::with_thread_scratch(|vals| {
        vals.clear();
        let has_nan = push_valid(vals, xs);
        let mut scratch = QuantileScratch::new();
        lane_result(vals, has_nan, stat, &mut scratch, &mut out)
    });
    let shape: &[usize] = if stat.leading_axis() { &[nq] } else { &[] };
    let values = ArrayD::from_shape_vec(IxDyn(shape), out).expect("length matches shape");
    Report { values, degenerate }
}

/// The median of a whole contiguous array from [`median_middles`] (one
/// bracketing pass, no copy of the array); `None` for other statistics,
/// types without the SIMD pass, and lanes the bracket missed.
fn sampled_median<E, R, S>(xs: &[E], stat: &S) -> Option<Report<R>>
where
    E: QuantileElement,
    R: SelectFloat + From<E::Value>,
    S: OrderStatistic,
{
    if !stat.is_median() || xs.len() < MIN_SAMPLED_LANE {
        return None;
    }
    let Middles {
        valid,
        lower,
        upper,
    } = median_middles(E::as_values(xs)?)?;
    let value = if valid < xs.len() && !stat.nan_policy().skips_nan() {
        R::NAN
    } else {
        R::from(median_of_middles(valid, lower, upper))
    };
    Some(Report {
        values: ArrayD::from_elem(IxDyn(&[]), value),
        degenerate: 0, // the sample held valid values
    })
}

/// The order statistic `stat` of `view` over `axes` (sorted, distinct, in
/// range), in the result type `R`, with the number of slices without a
/// valid value.
pub(crate) fn unweighted<E, R, S>(
    view: &ArrayViewD<'_, E>,
    axes: &[usize],
    stat: &S,
) -> Result<Report<R>>
where
    E: QuantileElement,
    R: SelectFloat + From<E::Value> + Default,
    S: OrderStatistic,
{
    let nq = stat.width();
    let with_q_axis = stat.leading_axis();
    if axes.len() == view.ndim()
        && view.len() < MIN_BRACKET_LANE
        && let Some(xs) = view.as_slice_memory_order()
    {
        return Ok(small_whole(xs, stat));
    }
    let plan = Plan::new(view.shape(), view.strides(), axes);
    let (n_out, lane) = (plan.out_len(), plan.reduce_len());
    if n_out == 1 && lane >= MIN_BRACKET_LANE {
        // The bracket keeps at most half the lane (else it gives up): fail
        // now, not after a pass over a view too large to hold that.
        ensure_memory(&[(lane / 2 + 1024, std::mem::size_of::<E::Value>())])?;
        // SAFETY: `plan` was made from `view`.
        let walker = unsafe { Walker::new(view.as_ptr(), &plan) };
        if let Some(report) = bracketed::<E, R, S>(&walker, &plan, lane, stat) {
            return Ok(report);
        }
    }
    // Each task copies a whole lane (the bracket above copies none), or
    // tiles of `group` strided lanes at once.
    let strided = plan.reduced.last().is_some_and(|d| d.stride != 1);
    let group = if strided && n_out > 1 {
        tile_width(lane, std::mem::size_of::<E::Value>()).unwrap_or(1)
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
        let short = walker.short_lane().filter(|&len| len <= SHORT_MEDIAN_LANE);
        if let (true, Some(len)) = (stat.is_median(), short) {
            // many short contiguous lanes: sorted side by side
            let skips_nan = stat.nan_policy().skips_nan();
            return short_medians(&walker, start, len, skips_nan, chunk);
        }
        let count = chunk.len() / nq.max(1);
        let mut vals: Vec<E::Value> = Vec::with_capacity(lane);
        let mut scratch = QuantileScratch::new();
        let mut degenerate = 0;
        let mut flush = |vals: &mut Vec<E::Value>, has_nan: bool, j: usize| {
            let out = &mut chunk[j * nq..(j + 1) * nq];
            degenerate += lane_result(vals, has_nan, stat, &mut scratch, out);
            vals.clear();
        };
        let mut done = 0;
        if group > 1 {
            // Strided lanes: tiles of up to `group` side-by-side lanes are
            // sorted across lanes where lanes are short, else transposed
            // into `block` and selected from there; a lane that does not
            // sit beside the next one is copied by itself.
            let mut block: Vec<E::Value> = Vec::new();
            let mut columns = ColumnScratch::default();
            while done < count {
                let width = group
                    .min(count - done)
                    .min(walker.side_by_side_len(start + done));
                if width > 1 && lane <= MAX_SORTED_LANE {
                    let out = &mut chunk[done * nq..(done + width) * nq];
                    degenerate += sorted_tile(
                        &walker,
                        start + done,
                        width,
                        lane,
                        stat,
                        &mut columns,
                        &mut scratch,
                        out,
                    );
                    done += width;
                } else if width > 1 {
                    transpose_tile(&walker, start + done, width, lane, &mut block);
                    for (g, raw) in block[..width * lane].chunks_exact_mut(lane).enumerate() {
                        let out = &mut chunk[(done + g) * nq..(done + g + 1) * nq];
                        degenerate += tile_lane_result(raw, stat, &mut vals, &mut scratch, out);
                    }
                    done += width;
                } else {
                    vals.clear();
                    let mut has_nan = false;
                    walker.for_each_run(start + done, 1, |_, xs| {
                        has_nan |= push_valid(&mut vals, xs)
                    });
                    let out = &mut chunk[done * nq..(done + 1) * nq];
                    degenerate += lane_result(&mut vals, has_nan, stat, &mut scratch, out);
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
        // strided lanes: a few tiles per task, so that a task's scratch
        // (allocated, and its pages faulted, once per task) serves several
        let per_task = (MIN_TASK / lane.max(1))
            .max(if group > 1 { 4 * group } else { 1 })
            .clamp(1, n_out.div_ceil(8).max(1))
            .next_multiple_of(group);
        // selection costs microseconds per value: a call with tasks is
        // milliseconds long, so the pool takes them all (`HandOff::Pool`)
        map_chunks_mut(HandOff::Pool, &mut results, per_task * nq, |t, chunk| {
            run(t * per_task, chunk)
        })
        .into_iter()
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
