//! The blocked moving variance and standard deviation ([`VarOrStd`]) of
//! lanes side by side (the rows strategy: axis 0 of a C array), with the
//! work across the lanes in loops that vectorise.
//!
//! [`blocked_rows`] keeps one [`Welford`](super::blocked::Welford) state per
//! lane, takes a value behind a branch (NaN and infinities take no step) and
//! looks `1/n` up by the lane's own count: its loop across the lanes stays
//! scalar. Here every field of the lanes' states is an array of its own
//! (counts as exact integers in `f64`), a value that takes no step keeps
//! the old state by a choice, not a branch, and `1/n` is computed as
//! `1.0 / n`, the operation that fills the lookup table. The same steps,
//! merges and counts on each lane in the same order, so the same bits as
//! [`blocked_rows`].

use super::blocked::{blocked_rows, chan_merge, redo_overflowed, welford_step, wide, VarOrStd};
use crate::element::{QuantileElement, SelectFloat};
use crate::scan::window::WindowSpec;
use std::mem::MaybeUninit;

/// Welford states of lanes side by side, one array per field.
struct Chains {
    /// Finite values taken (exact integers in `f64`).
    n: Vec<f64>,
    /// Their mean.
    mean: Vec<f64>,
    /// Their sum of squared deviations from the mean.
    m2: Vec<f64>,
}

impl Chains {
    /// `len` empty states.
    fn new(len: usize) -> Self {
        Chains {
            n: vec![0.0; len],
            mean: vec![0.0; len],
            m2: vec![0.0; len],
        }
    }

    /// The first `width` states' fields, each exactly `width` long.
    fn lanes(&mut self, width: usize) -> (&mut [f64], &mut [f64], &mut [f64]) {
        (
            &mut self.n[..width],
            &mut self.mean[..width],
            &mut self.m2[..width],
        )
    }

    /// Empties every state.
    fn clear(&mut self) {
        for field in [&mut self.n, &mut self.mean, &mut self.m2] {
            field.fill(0.0);
        }
    }
}

/// The state `(n, mean, m2)` after taking `x`: `Welford::push` for a
/// finite `x` (with `1/n` computed, the same bits as the table's), the
/// state unchanged for NaN and infinities, as `VarOrStd::take`.
#[inline(always)]
fn step(n: f64, mean: f64, m2: f64, x: f64) -> (f64, f64, f64) {
    let n1 = n + 1.0;
    let (mean1, m2_1) = welford_step(mean, m2, x, 1.0 / n1);
    if x.is_finite() {
        (n1, mean1, m2_1)
    } else {
        (n, mean, m2)
    }
}

/// One step of `width` chains (`xs.len()`): `(n, mean, m2)` the states
/// after taking `xs` into the states `before`.
///
/// Its own function so that its slices are known apart: inlined, the loop
/// vectorises without a test of their overlap at run time (which, hoisted
/// out of the caller's loop over rows, fails for neighbouring rows of one
/// table).
#[inline(always)]
fn step_row<E: QuantileElement>(
    xs: &[E],
    before: (&[f64], &[f64], &[f64]),
    n: &mut [f64],
    mean: &mut [f64],
    m2: &mut [f64],
) {
    let width = xs.len();
    let (before_n, before_mean, before_m2) = before;
    // every slice exactly `width` long: no bounds checks
    let (before_n, before_mean, before_m2) = (
        &before_n[..width],
        &before_mean[..width],
        &before_m2[..width],
    );
    let (n, mean, m2) = (&mut n[..width], &mut mean[..width], &mut m2[..width]);
    for c in 0..width {
        (n[c], mean[c], m2[c]) = step(before_n[c], before_mean[c], before_m2[c], wide(xs[c]));
    }
}

/// The sum of squared deviations of a tail `(tn, tm, tq)` followed by a
/// head `(hn, hm, hq)`: `Welford::then`'s, branch-free.
#[inline(always)]
fn merged_m2(tn: f64, tm: f64, tq: f64, hn: f64, hm: f64, hq: f64) -> f64 {
    let (_, merged) = chan_merge((tn, tm, tq), (hn, hm, hq), 1.0 / (tn + hn));
    if tn == 0.0 {
        hq
    } else if hn == 0.0 {
        tq
    } else {
        merged
    }
}

/// [`blocked_rows`] of [`VarOrStd`] (the same bits): `width` lanes side by
/// side, position `i` of lane `c` read at `src + i·stride_in + c` and
/// written at `dst + i·stride_out + c`. Integer lanes keep the generic
/// walk (compiled for the floating types alone: build time).
///
/// # Safety
/// Rows `0..len` of `width` lanes lie in the view and in the output, and no
/// other thread writes those outputs.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) unsafe fn rows<E: QuantileElement>(
    stat: &VarOrStd,
    spec: &WindowSpec,
    src: *const E,
    stride_in: isize,
    dst: *mut E::Value,
    stride_out: isize,
    len: usize,
    width: usize,
) {
    if !E::CAN_BE_NAN {
        // SAFETY: this function's contract.
        return unsafe { blocked_rows(stat, spec, src, stride_in, dst, stride_out, len, width) };
    }
    let (w, min_f) = (spec.window, spec.min_count() as f64);
    // a copy the loops own: read through the reference, its fields were
    // loaded again at every lane (the output might alias them)
    let var = VarOrStd {
        ddof: stat.ddof,
        std: stat.std,
    };
    // SAFETY (both closures): rows `0..len` of `width` lanes lie in the view
    // and in the output (this function's contract).
    let row =
        |i: usize| unsafe { std::slice::from_raw_parts(src.offset(i as isize * stride_in), width) };
    let out_row = |i: usize| unsafe {
        std::slice::from_raw_parts_mut(
            dst.offset(i as isize * stride_out)
                .cast::<MaybeUninit<E::Value>>(),
            width,
        )
    };
    // tails.*[k * width + c]: lane c's tail from the previous block's k-th
    // value; row w stays empty (the start of every tail's chain)
    let mut tails = Chains::new((w + 1) * width);
    let mut head = Chains::new(width);
    // non-NaN values and infinities in each lane's window
    let (mut n, mut inf) = (vec![0.0; width], vec![0.0; width]);
    let mut overflow = vec![false; width];
    let mut b = 0;
    while b < len {
        let block_end = (b + w).min(len);
        let tailed_end = if b >= w {
            for k in (1..w).rev() {
                // row k takes row k + 1's states (row w: empty) and value k
                let (cur_n, next_n) = tails.n[k * width..].split_at_mut(width);
                let (cur_mean, next_mean) = tails.mean[k * width..].split_at_mut(width);
                let (cur_m2, next_m2) = tails.m2[k * width..].split_at_mut(width);
                step_row(
                    row(b - w + k),
                    (&next_n[..width], &next_mean[..width], &next_m2[..width]),
                    cur_n,
                    cur_mean,
                    cur_m2,
                );
            }
            (b + w - 1).min(block_end)
        } else {
            b
        };
        head.clear();
        overflow.fill(false);
        for i in b..block_end {
            let (xs, ys) = (row(i), out_row(i));
            // counts: the leaving row's values out, the new row's in
            if i >= w {
                let old = row(i - w);
                let (n, inf) = (&mut n[..width], &mut inf[..width]);
                for c in 0..width {
                    let v = wide(old[c]);
                    n[c] -= f64::from(u8::from(!v.is_nan()));
                    inf[c] -= f64::from(u8::from(v.is_infinite()));
                }
            }
            // a position past the tailed ones reads the (empty) row 0
            let k = if i < tailed_end { i + 1 - b } else { 0 };
            let lanes = k * width..(k + 1) * width;
            let (tn, tm, tq) = (
                &tails.n[lanes.clone()],
                &tails.mean[lanes.clone()],
                &tails.m2[lanes],
            );
            let tailed = i < tailed_end;
            let (head_n, head_mean, head_m2) = head.lanes(width);
            let (n, inf, overflow) = (&mut n[..width], &mut inf[..width], &mut overflow[..width]);
            for c in 0..width {
                let v = wide(xs[c]);
                n[c] += f64::from(u8::from(!v.is_nan()));
                inf[c] += f64::from(u8::from(v.is_infinite()));
                let (hn, hm, hq) = step(head_n[c], head_mean[c], head_m2[c], v);
                (head_n[c], head_mean[c], head_m2[c]) = (hn, hm, hq);
                let m2 = if tailed {
                    merged_m2(tn[c], tm[c], tq[c], hn, hm, hq)
                } else {
                    hq
                };
                let infinite = inf[c] > 0.0;
                let y = var.of_m2(n[c], infinite, m2, 1.0);
                let counted = n[c] >= min_f;
                overflow[c] |= counted & var.m2_overflowed(n[c], infinite, y);
                ys[c].write(<E::Value as SelectFloat>::from_f64_nearest(if counted {
                    y
                } else {
                    f64::NAN
                }));
            }
        }
        // SAFETY: rows `0..block_end` of the tile lie in the view and in the
        // output (this function's contract).
        unsafe {
            redo_overflowed(
                &var,
                spec,
                &overflow,
                b..block_end,
                src,
                stride_in,
                dst,
                stride_out,
            );
        }
        b = block_end;
    }
}

#[cfg(test)]
mod tests {
    use super::{rows, VarOrStd};
    use crate::scan::blocked::blocked_rows;
    use crate::scan::test_lanes::{mixed_lane, narrowed, spec};

    /// The bits of `kernel` over `len` rows of `width` lanes of `xs`.
    fn run<E: crate::element::QuantileElement>(
        xs: &[E],
        len: usize,
        width: usize,
        kernel: unsafe fn(
            &VarOrStd,
            &crate::scan::window::WindowSpec,
            *const E,
            isize,
            *mut E::Value,
            isize,
            usize,
            usize,
        ),
        stat: &VarOrStd,
        sp: &crate::scan::window::WindowSpec,
    ) -> Vec<u64>
    where
        E::Value: Into<f64> + Default + Copy,
    {
        let mut ys = vec![E::Value::default(); len * width];
        // SAFETY: `len` rows of `width` values in each buffer.
        unsafe {
            kernel(
                stat,
                sp,
                xs.as_ptr(),
                width as isize,
                ys.as_mut_ptr(),
                width as isize,
                len,
                width,
            )
        };
        ys.into_iter().map(|y| y.into().to_bits()).collect()
    }

    #[test]
    fn lanes_side_by_side_give_the_generic_walks_bits() {
        for (w, min) in [(1, 1), (2, 1), (3, 2), (4, 4), (9, 1), (31, 5)] {
            for (ddof, std) in [(0.0, false), (1.0, true), (2.0, false)] {
                let stat = VarOrStd { ddof, std };
                let sp = spec(w, min);
                let (len, width) = (4 * w + 5, 19);
                let xs = mixed_lane(len * width, w as u64 + 3);
                // every kind of value, then values in range with NaN gaps
                let tame: Vec<f64> = xs
                    .iter()
                    .map(|&x| if x.is_nan() || x.abs() < 1e8 { x } else { 0.25 })
                    .collect();
                for xs in [&xs, &tame] {
                    let want = run(xs, len, width, blocked_rows::<f64, VarOrStd>, &stat, &sp);
                    let got = run(xs, len, width, rows::<f64>, &stat, &sp);
                    assert_eq!(got, want, "w {w} min {min} ddof {ddof} std {std}");
                    let narrow = narrowed(xs);
                    let want = run(
                        &narrow,
                        len,
                        width,
                        blocked_rows::<f32, VarOrStd>,
                        &stat,
                        &sp,
                    );
                    let got = run(&narrow, len, width, rows::<f32>, &stat, &sp);
                    assert_eq!(got, want, "f32 w {w} min {min} ddof {ddof} std {std}");
                }
            }
        }
    }
}
