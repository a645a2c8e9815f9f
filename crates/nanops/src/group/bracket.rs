//! Medians and quantiles per label in one pass over unsorted labels, no
//! counting sort: a sample of each group's values brackets the wanted
//! ranks, one pass counts each group's valid values and those below its
//! bracket and copies only the values inside it, and the exact ranks are
//! selected there.
//!
//! The counting sort moves every value into its group's place (two passes
//! over values and labels, one write of all values, then a selection over
//! all of them); here one pass reads values and labels and keeps about
//! `3/√s` of each group's values (`s` sampled per group). Each pass step is
//! branch-free (the value is written to its group's next slot whether or not
//! it is kept; the count advances only when it is), so values on either side
//! of the bracket cost the same. A group whose ranks fall outside its
//! bracket, or whose kept values overflow the room guessed from the sample,
//! is done again exactly by a second pass that copies that group's values
//! whole: the result never depends on the sample, only the time does.

use crate::element::{QuantileElement, SelectFloat};
use crate::options::{QDtype, QuantileMethod};
use crate::order::select::{
    median_of_scratch, quantiles_in_place_with, select_ranks, QuantileScratch, RankPlan,
};
use crate::par::{map_tasks, MIN_TASK};
use std::cmp::Ordering;
use std::mem::MaybeUninit;

/// Values sampled per group (about), for `n` values in `groups` groups:
/// `√(n / groups)` within 256..=1024. The bracket spans `±(1.5·√s + 2)`
/// sample ranks around the wanted ones (about three standard deviations of
/// the sample's count below a rank), so a group misses rarely and keeps
/// about a fifth (256 sampled) to a tenth (1024) of its values.
fn sample_per_group(n: usize, groups: usize) -> usize {
    ((n as f64 / groups.max(1) as f64).sqrt() as usize).clamp(256, 1024)
}

/// Fewest values per group, on average, for which the bracketing pass is
/// used (shorter groups: the sample would be most of the values).
pub(crate) const MIN_GROUP_LEN: usize = 2048;

/// Most chunks a row is split into for the pass (each with its own counts
/// and kept values per group).
const MAX_CHUNKS: usize = 8;

/// One group's bracket and, per chunk, its counts and room.
#[derive(Clone, Copy, Debug)]
struct Slot<T> {
    /// Values `>= lo` and `<= hi` are kept.
    lo: T,
    hi: T,
    /// Valid values below `lo`.
    below: usize,
    /// Valid values of the group.
    valid: usize,
    /// Values kept (at most `room`).
    kept: usize,
    /// Where the group's kept values start in its chunk's buffer.
    base: usize,
    /// Room for kept values; one more slot behind it takes the writes of
    /// values not kept once it is full.
    room: usize,
}

/// One chunk's pass: its slot per group, and the buffer of the values each
/// group kept (group `g`'s in `base..base + kept` of its slot).
type Pass<T> = (Vec<Slot<T>>, Vec<MaybeUninit<T>>);

/// The results of every group of one output (`xs`, `labels` below
/// `groups`; negative labels skipped), `nq` per group in `out` (the median
/// for `qs = None`); `false`, with `out` untouched, where the pass does not
/// pay (groups shorter than [`MIN_GROUP_LEN`] on average) and the caller
/// sorts by label instead.
pub(crate) fn bracketed_groups<E: QuantileElement>(
    xs: &[E],
    labels: &[i64],
    groups: usize,
    qs: Option<&[f64]>,
    method: QuantileMethod,
    out: &mut [E::Value],
) -> bool {
    let n = xs.len().min(labels.len());
    if groups == 0 || n < groups.saturating_mul(MIN_GROUP_LEN) {
        return false;
    }
    let nq = qs.map_or(1, <[f64]>::len);
    let slots = brackets(xs, labels, groups, qs);
    let chunks = (n / MIN_TASK).clamp(1, MAX_CHUNKS);
    let len = n.div_ceil(chunks);
    let passes = map_tasks(chunks, |c| {
        let range = (c * len).min(n)..((c + 1) * len).min(n);
        keep_inside(&xs[range.clone()], &labels[range], &slots, n)
    });
    // groups in blocks, each selecting from its groups' kept values
    let tasks = groups.clamp(1, 64);
    let per_task = groups.div_ceil(tasks);
    let passes = &passes;
    let parts = map_tasks(groups.div_ceil(per_task), |t| {
        let mut res = vec![E::Value::NAN; (((t + 1) * per_task).min(groups) - t * per_task) * nq];
        let mut missed = Vec::new();
        let mut kept: Vec<E::Value> = Vec::new();
        for g in t * per_task..((t + 1) * per_task).min(groups) {
            let slot = &mut res[(g - t * per_task) * nq..(g - t * per_task + 1) * nq];
            if !select_group(passes, g, qs, method, &mut kept, slot) {
                missed.push(g);
            }
        }
        (res, missed)
    });
    let mut missed = Vec::new();
    for (t, (res, m)) in parts.into_iter().enumerate() {
        let at = t * per_task * nq;
        out[at..at + res.len()].copy_from_slice(&res);
        missed.extend(m);
    }
    if !missed.is_empty() {
        redo_whole(xs, labels, groups, &missed, qs, method, nq, out);
    }
    true
}

/// Each group's bracket from an evenly spaced sample of the row, and the
/// room its kept values are expected to need (for the whole row).
fn brackets<E: QuantileElement>(
    xs: &[E],
    labels: &[i64],
    groups: usize,
    qs: Option<&[f64]>,
) -> Vec<Slot<E::Value>> {
    let n = xs.len().min(labels.len());
    let step = (n / (groups * sample_per_group(n, groups))).max(1);
    let mut seen = vec![0usize; groups];
    let mut samples: Vec<Vec<E::Value>> = vec![Vec::new(); groups];
    for j in (step / 2..n).step_by(step) {
        let l = labels[j];
        if l >= 0 {
            seen[l as usize] += 1;
            let x = xs[j].to_value();
            if !x.is_nan_value() {
                samples[l as usize].push(x);
            }
        }
    }
    let (pa, pb) = match qs {
        None => (0.5, 0.5),
        Some(qs) => qs
            .iter()
            .fold((1.0f64, 0.0f64), |(a, b), &q| (a.min(q), b.max(q))),
    };
    let inf = E::Value::from_f64_nearest(f64::INFINITY);
    let neg_inf = E::Value::from_f64_nearest(f64::NEG_INFINITY);
    // the sample holds no NaN
    let order = |x: &E::Value, y: &E::Value| x.partial_cmp(y).unwrap_or(Ordering::Equal);
    let mut slots = Vec::with_capacity(groups);
    for (g, sample) in samples.iter_mut().enumerate() {
        let m = sample.len();
        let width = (1.5 * (m as f64).sqrt()) as usize + 2;
        let last = m.saturating_sub(1) as f64;
        let a = ((pa * last).floor() as usize).checked_sub(width);
        let b = Some((pb * last).ceil() as usize + width).filter(|&b| b < m);
        let (lo, hi, share) = if m < 16 {
            (neg_inf, inf, 1.0)
        } else {
            let lo = a.map_or(neg_inf, |a| *sample.select_nth_unstable_by(a, order).1);
            let hi = b.map_or(inf, |b| *sample.select_nth_unstable_by(b, order).1);
            let span = b.unwrap_or(m - 1) - a.unwrap_or(0) + 1;
            (lo, hi, span as f64 / m as f64)
        };
        let expected = share * (seen[g] * step) as f64;
        let room = (1.5 * expected + 8.0 * expected.sqrt()) as usize + 64;
        slots.push(Slot {
            lo,
            hi,
            below: 0,
            valid: 0,
            kept: 0,
            base: 0,
            room: room.min(n),
        });
    }
    slots
}

/// One chunk's pass (`xs`, `labels`, of a row of `n` values): per group the
/// valid count, the count below its bracket, and the values inside it kept
/// in the returned buffer (room scaled to the chunk's share of the row).
fn keep_inside<E: QuantileElement>(
    xs: &[E],
    labels: &[i64],
    whole: &[Slot<E::Value>],
    n: usize,
) -> Pass<E::Value> {
    let share = xs.len() as f64 / n.max(1) as f64;
    let mut slots = whole.to_vec();
    let mut end = 0;
    for s in &mut slots {
        s.room = ((s.room as f64 * share) as usize + 32).min(xs.len());
        s.base = end;
        end += s.room + 1;
    }
    let mut buf: Vec<MaybeUninit<E::Value>> = Vec::with_capacity(end);
    // SAFETY: `MaybeUninit` needs no initialisation.
    unsafe { buf.set_len(end) };
    for (x, &l) in xs.iter().zip(labels) {
        if l < 0 {
            continue;
        }
        let s = &mut slots[l as usize];
        let x = x.to_value();
        s.valid += !x.is_nan_value() as usize;
        s.below += (x < s.lo) as usize;
        let inside = (x >= s.lo) & (x <= s.hi);
        // written whether kept or not: `kept <= room`, and slot `room` is spare
        buf[s.base + s.kept].write(x);
        s.kept = (s.kept + inside as usize).min(s.room);
    }
    (slots, buf)
}

/// Group `g`'s results from the chunks' kept values into `out`; `false`
/// when a chunk ran out of room or a wanted rank is outside the bracket.
fn select_group<T: SelectFloat>(
    passes: &[Pass<T>],
    g: usize,
    qs: Option<&[f64]>,
    method: QuantileMethod,
    kept: &mut Vec<T>,
    out: &mut [T],
) -> bool {
    let (mut valid, mut below, mut inside) = (0, 0, 0);
    for (slots, _) in passes {
        let s = &slots[g];
        if s.kept == s.room {
            return false;
        }
        (valid, below, inside) = (valid + s.valid, below + s.below, inside + s.kept);
    }
    if valid == 0 {
        out.fill(T::NAN);
        return true;
    }
    let plan = match qs {
        None => RankPlan::median(valid),
        Some(qs) => RankPlan::quantiles(valid, qs, method, QDtype::Float64),
    };
    let ranks = plan.ranks();
    match (ranks.first(), ranks.last()) {
        (Some(&first), Some(&last)) if first >= below && last < below + inside => {}
        _ => return false,
    }
    kept.clear();
    for (slots, buf) in passes {
        let s = &slots[g];
        // SAFETY: the first `kept` slots of the group's range were written
        // (a value is written at `base + kept` before `kept` advances).
        kept.extend(
            buf[s.base..s.base + s.kept]
                .iter()
                .map(|v| unsafe { v.assume_init() }),
        );
    }
    select_ranks(kept, below, ranks);
    let at: Vec<T> = ranks.iter().map(|&r| kept[r - below]).collect();
    plan.finish(&at, out);
    true
}

/// The groups `missed` (sorted) done exactly: their valid values copied
/// whole by one more pass, then selected as the counting sort's groups are.
#[allow(clippy::too_many_arguments)]
fn redo_whole<E: QuantileElement>(
    xs: &[E],
    labels: &[i64],
    groups: usize,
    missed: &[usize],
    qs: Option<&[f64]>,
    method: QuantileMethod,
    nq: usize,
    out: &mut [E::Value],
) {
    let mut which = vec![usize::MAX; groups];
    for (i, &g) in missed.iter().enumerate() {
        which[g] = i;
    }
    let mut values: Vec<Vec<E::Value>> = vec![Vec::new(); missed.len()];
    for (x, &l) in xs.iter().zip(labels) {
        if l >= 0 && which[l as usize] != usize::MAX {
            let x = x.to_value();
            if !x.is_nan_value() {
                values[which[l as usize]].push(x);
            }
        }
    }
    let mut scratch = QuantileScratch::new();
    for (vals, &g) in values.iter_mut().zip(missed) {
        let slot = &mut out[g * nq..(g + 1) * nq];
        of_group_values(vals, qs, method, &mut scratch, slot);
    }
}

/// One group's result from its valid values `vals` (reordered): its
/// median (`qs = None`) or its quantiles `qs` by `method` into `out`; NaN
/// for a group without values.
pub(crate) fn of_group_values<T: SelectFloat>(
    vals: &mut [T],
    qs: Option<&[f64]>,
    method: QuantileMethod,
    scratch: &mut QuantileScratch,
    out: &mut [T],
) {
    match qs {
        None => out[0] = median_of_scratch(vals),
        Some(_) if vals.is_empty() => out.fill(T::NAN),
        Some(qs) => quantiles_in_place_with(vals, qs, method, QDtype::Float64, scratch, out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::group::reference::{linear_of_sorted, median_of_sorted, sorted_group};

    /// `bracketed_groups` of every group (it must take the call), linear
    /// quantiles `qs` or the median.
    fn by_bracket<E: QuantileElement>(
        xs: &[E],
        labels: &[i64],
        groups: usize,
        qs: Option<&[f64]>,
    ) -> Vec<E::Value> {
        let mut out = vec![E::Value::NAN; groups * qs.map_or(1, <[f64]>::len)];
        let linear = QuantileMethod::Linear;
        assert!(bracketed_groups(xs, labels, groups, qs, linear, &mut out));
        out
    }

    /// Checks medians and linear quantiles of every group against a sort.
    fn check(xs: &[f64], labels: &[i64], groups: usize) {
        let med = by_bracket(xs, labels, groups, None);
        let qs = [0.0, 0.1, 0.5, 0.9, 1.0];
        let q = by_bracket(xs, labels, groups, Some(&qs));
        for g in 0..groups {
            let v = sorted_group(xs, labels, g as i64);
            if v.is_empty() {
                assert!(med[g].is_nan());
                assert!(q[g * qs.len()..(g + 1) * qs.len()]
                    .iter()
                    .all(|x| x.is_nan()));
                continue;
            }
            assert_eq!(
                med[g].to_bits(),
                median_of_sorted(&v).to_bits(),
                "group {g}"
            );
            for (i, &p) in qs.iter().enumerate() {
                let want = linear_of_sorted(&v, p);
                let got = q[g * qs.len() + i];
                assert!(
                    (got - want).abs() <= 1e-12 * want.abs().max(1.0),
                    "group {g} q {p}"
                );
            }
        }
    }

    /// A reproducible pseudo-random sequence in `[0, 1)`.
    fn uniform(n: usize, seed: u64) -> Vec<f64> {
        let mut s = seed;
        (0..n)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (s >> 11) as f64 / (1u64 << 53) as f64
            })
            .collect()
    }

    #[test]
    fn random_labels_with_nan_and_skipped_labels_give_the_exact_ranks() {
        let (n, groups) = (5 * 2 * MIN_TASK + 3, 6);
        let u = uniform(2 * n, 7);
        let labels: Vec<i64> = u[n..].iter().map(|&x| (x * 7.0) as i64 - 1).collect();
        let xs: Vec<f64> = u[..n]
            .iter()
            .zip(&labels)
            .map(|(&x, &l)| {
                if x < 0.1 || l == 4 {
                    f64::NAN // group 4 has no valid value
                } else {
                    (x - 0.5) * 1e3 + l as f64
                }
            })
            .collect();
        check(&xs, &labels, groups);
    }

    #[test]
    fn a_sample_that_misleads_the_bracket_costs_time_not_exactness() {
        // the evenly spaced sample sees only the small values of group 0
        // (every other group's bracket is fine), and group 1 is all ties
        let groups = 3;
        let n = groups * MIN_GROUP_LEN * 4;
        let step = n / (groups * sample_per_group(n, groups));
        let labels: Vec<i64> = (0..n).map(|j| ((j / step) % 3) as i64).collect();
        let u = uniform(n, 11);
        let xs: Vec<f64> = (0..n)
            .map(|j| match labels[j] {
                0 if j % step == step / 2 => -1e6 + j as f64,
                0 => u[j],
                1 => 2.5,
                _ => u[j] * 10.0,
            })
            .collect();
        check(&xs, &labels, groups);
    }

    #[test]
    fn short_groups_are_left_to_the_sort() {
        let xs = vec![1.0; 100];
        let labels = vec![0i64; 100];
        let mut out = [7.0];
        assert!(!bracketed_groups(
            &xs,
            &labels,
            1,
            None,
            QuantileMethod::Linear,
            &mut out
        ));
        assert_eq!(out[0], 7.0);
    }

    #[test]
    fn float32_and_integer_values() {
        let n = 4 * MIN_GROUP_LEN * 2;
        let u = uniform(2 * n, 3);
        let labels: Vec<i64> = u[n..].iter().map(|&x| (x * 2.0) as i64).collect();
        let ints: Vec<i32> = u[..n].iter().map(|&x| (x * 1000.0) as i32).collect();
        let med: Vec<f64> = by_bracket(&ints, &labels, 2, None);
        let floats: Vec<f32> = ints.iter().map(|&i| i as f32).collect();
        let med32: Vec<f32> = by_bracket(&floats, &labels, 2, None);
        let as_f64: Vec<f64> = ints.iter().map(|&i| i as f64).collect();
        for g in 0..2 {
            let want = median_of_sorted(&sorted_group(&as_f64, &labels, g as i64));
            assert_eq!(med[g], want);
            assert_eq!(med32[g] as f64, want);
        }
    }
}
