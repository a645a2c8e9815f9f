//! Minimum and maximum kernels.

use super::reducer::{first_valid, fold_tree, row_pairs, rows_in_fours, Reducer, LANES};
use super::register::statistics;
use crate::element::Element;
use crate::simd::prefetch::prefetch_ahead;
use crate::states::{beats, Extremum, State};
use ndarray::{ArrayD, ArrayViewD};

/// Lanes of the extremum loop: a compare and a blend per value are so cheap
/// that 16 independent lanes (a whole AVX-512 register of `f32`) pay.
const EXT_LANES: usize = 2 * LANES;

/// The extremum of `xs` (NaN skipped; `None` when all are NaN) in
/// [`EXT_LANES`] lanes, each seeded with the first valid value: NaN never
/// beats it, so the loop needs no validity flags. A tie keeps the earlier
/// value within a lane and the lower lane across lanes (only `0.0` and
/// `-0.0` can tell which). The form `nanmin`/`nanmax` use; `nanargmin`/
/// `nanargmax` use [`lanes_extremum_in_registers`], the same value.
///
/// No software prefetch, unlike the other streaming loops: NumPy gives
/// arrays of 4 MiB and more huge pages, across which the hardware
/// prefetcher runs on by itself, and there the hint only took issue slots
/// and fill buffers from the loads (a (1460, 181, 360) `float64` cube along
/// axes (1, 2), from main memory: slower than NumPy's `fmin.reduce` on one
/// thread with the hint, as fast without; numbers in the CHANGELOG).
#[inline(always)]
pub(crate) fn lanes_extremum<E: Element, const MAX: bool>(xs: &[E]) -> Option<E> {
    let first = first_valid(xs)?;
    let xs = &xs[first..];
    let mut best = [xs[0]; EXT_LANES];
    let mut chunks = xs.chunks_exact(EXT_LANES);
    for c in &mut chunks {
        for i in 0..EXT_LANES {
            // a select, not a conditional store: inlined into a larger loop
            // (`arg_slice`), the store form stayed a branch per value
            best[i] = if beats::<E, MAX>(c[i], best[i]) {
                c[i]
            } else {
                best[i]
            };
        }
    }
    let rem = chunks.remainder();
    for i in 0..rem.len() {
        let x = rem[i];
        if beats::<E, MAX>(x, best[i]) {
            best[i] = x;
        }
    }
    let mut m = best[0];
    for b in best {
        if beats::<E, MAX>(b, m) {
            m = b;
        }
    }
    Some(m)
}

/// [`lanes_extremum`]'s value, with the lanes indexed by constants only so
/// that they stay in registers through the loop, for the long blocks of
/// `arg_slice`.
///
/// In [`lanes_extremum`] the remainder loop indexes the lanes by position,
/// which leaves them a stack array stored on every chunk. After the
/// restructuring that slot straddled two cache lines in `arg_slice`: the
/// two stores took 59% of `nanargmax`'s samples (`perf annotate`,
/// (100, 10000) along axis 1, 2 threads: twice the time of the build
/// before, whose slot was aligned). This form fixes that but made runs of
/// 300 values in `nanmin`/`nanmax` (axes (0, 2) of (100, 200, 300))
/// slower, so those keep
/// [`lanes_extremum`]. (Copying the lanes before the remainder loop kept
/// the stores; padding the remainder into a whole chunk slowed short runs.)
///
/// The lanes fold first, in lane order (a tie keeps the lower lane),
/// remembering the winner's lane; then the remainder value of lane `j` (the
/// last value of that lane) wins when it beats the extremum, or ties it from
/// a lower lane than the winner's (whose own best was then strictly worse).
#[inline(always)]
pub(crate) fn lanes_extremum_in_registers<E: Element, const MAX: bool>(xs: &[E]) -> Option<E> {
    let first = first_valid(xs)?;
    let xs = &xs[first..];
    let mut best = [xs[0]; EXT_LANES];
    let mut chunks = xs.chunks_exact(EXT_LANES);
    for c in &mut chunks {
        prefetch_ahead(c.as_ptr());
        for i in 0..EXT_LANES {
            best[i] = if beats::<E, MAX>(c[i], best[i]) {
                c[i]
            } else {
                best[i]
            };
        }
    }
    let mut m = best[0];
    let mut lane = 0;
    for i in 1..EXT_LANES {
        if beats::<E, MAX>(best[i], m) {
            m = best[i];
            lane = i;
        }
    }
    for (j, &x) in chunks.remainder().iter().enumerate() {
        let ties = j < lane && !x.is_nan_value() && !beats::<E, MAX>(m, x);
        if beats::<E, MAX>(x, m) || ties {
            m = x;
            lane = j;
        }
    }
    Some(m)
}

/// The better of two values for the short-lane trees of `ExtremumReducer`
/// and `ArgReducer` and the column loops of `ExtremumReducer`: `b` when it
/// beats `a` or `a` is NaN (a tie keeps `a`).
#[inline(always)]
pub(crate) fn better<E: Element, const MAX: bool>(a: E, b: E) -> E {
    if beats::<E, MAX>(b, a) | a.is_nan_value() {
        b
    } else {
        a
    }
}

/// Implements [`Reducer`] for `$t`: the minimum (`$max = false`) or the
/// maximum (`$max = true`) of the valid values.
macro_rules! extremum_reducer {
    ($t:ty, $max:literal) => {
        impl<E: Element> Reducer<E> for $t {
            const NO_IDENTITY: Option<&'static str> = Some(if $max { "fmax" } else { "fmin" });
            const CUT_FREE: bool = true;
            type Value = E;
            type State = Extremum<E, $max>;
            type Output = E;
            type Kernel = Self;
            #[inline(always)]
            fn kernel(&self) -> &Self {
                self
            }
            #[inline(always)]
            fn push_slice(&self, st: &mut Self::State, xs: &[E]) {
                if xs.len() < 2 * LANES {
                    // short lanes ((100000, 10) along axis 1): no lane set-up
                    for i in 0..xs.len() {
                        st.push(xs[i]);
                    }
                    return;
                }
                if let Some(m) = lanes_extremum::<E, $max>(xs) {
                    st.push(m);
                }
            }
            #[inline(always)]
            fn push_value(&self, st: &mut Self::State, x: E) {
                st.offer(x);
            }
            const SHORT: bool = true;
            /// Whole chunks of rows at a time: the states are `Option`s, which
            /// the fold of a block's column bests into them read and wrote by
            /// gathers and scatters, a quarter of `nanmin`'s time along axis 0
            /// of the demo's (365, 36, 72) `float32` cube in blocks of 64 rows
            /// (`perf annotate`, one thread).
            const ROWS_PER_PUSH: usize = 1024;
            /// The lane's values folded as a tree in registers (`(100000, 10)` along
            /// axis 1): NaN loses to any value. The tree pairs values `i` and
            /// `i + w`, so among equal values it may not keep the first; only zeros
            /// (`0.0`, `-0.0`) are equal yet differ, so a zero result is replaced by
            /// the lane's first zero, as a scan finds it (and NumPy).
            #[inline(always)]
            fn short_state<const L: usize>(&self, xs: &[E; L]) -> Self::State {
                let mut m = fold_tree(*xs, better::<E, $max>);
                if m == E::default() {
                    // the value, not its position (`ArgReducer` keeps the position):
                    // indexing by a found position measured 10–45% slower here
                    for i in (0..L).rev() {
                        if xs[i] == m {
                            m = xs[i];
                        }
                    }
                }
                Extremum::from_value((!m.is_nan_value()).then_some(m))
            }
            #[inline(always)]
            fn push_rows(&self, states: &mut [Self::State], rows: &[&[E]]) {
                let Some((first, rest)) = rows.split_first() else {
                    return;
                };
                let n = first.len();
                let mut best = first.to_vec();
                // Four rows per pass over `best` where it does not fit L1
                // (64 KB of `f64` for a whole column tile): each column
                // still takes the rows one after another (the same bits as
                // a pass per row), `best` loaded and stored once per four.
                let fours = rows_in_fours(rest.len(), n * std::mem::size_of::<E>());
                let (in_fours, one_by_one) = rest.split_at(fours);
                for q in in_fours.chunks_exact(4) {
                    let (best, r0, r1, r2, r3) = (
                        &mut best[..n],
                        &q[0][..n],
                        &q[1][..n],
                        &q[2][..n],
                        &q[3][..n],
                    );
                    for j in 0..n {
                        // NaN never beats; a NaN best is replaced by anything
                        let mut b = better::<E, $max>(best[j], r0[j]);
                        b = better::<E, $max>(b, r1[j]);
                        b = better::<E, $max>(b, r2[j]);
                        best[j] = better::<E, $max>(b, r3[j]);
                    }
                }
                for (r0, r1, _) in row_pairs(one_by_one) {
                    let (best, r0, r1) = (&mut best[..n], &r0[..n], &r1[..n]);
                    for j in 0..n {
                        let b = better::<E, $max>(best[j], r0[j]);
                        best[j] = better::<E, $max>(b, r1[j]);
                    }
                }
                for j in 0..states.len() {
                    states[j].push(best[j]);
                }
            }
            fn finish(&self, st: &Self::State) -> E {
                st.value().unwrap_or_else(E::nan)
            }
            fn degenerate(&self, st: &Self::State) -> bool {
                st.value().is_none()
            }
            /// An all-NaN slice gives its first element as it is, as NumPy's
            /// `fmin.reduce` does (the NaN's other part, its sign and
            /// payload kept: `nanmin([nan+1j])` is `nan+1j`).
            fn degenerate_from_first(&self, out: &mut ArrayD<E>, first: ArrayViewD<'_, E>) {
                let take = |o: &mut E, f: E| {
                    if o.is_nan_value() {
                        *o = f;
                    }
                };
                // a plain loop where both are contiguous (the first row of
                // a C array reduced along axis 0): `Zip` over dynamic
                // dimensions cost as much as finishing the states
                if let (Some(o), Some(f)) = (out.as_slice_mut(), first.as_slice()) {
                    o.iter_mut().zip(f).for_each(|(o, &f)| take(o, f));
                } else {
                    ndarray::Zip::from(out)
                        .and(&first)
                        .for_each(|o, &f| take(o, f));
                }
            }
        }
    };
}

/// [`nanmin`](crate::nanmin); degenerate: an all-NaN slice.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NanMin;

/// [`nanmax`](crate::nanmax); degenerate: an all-NaN slice.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NanMax;

extremum_reducer!(NanMin, false);
extremum_reducer!(NanMax, true);
statistics!(NanMin, NanMax);

#[cfg(test)]
mod tests {
    use super::{lanes_extremum, lanes_extremum_in_registers, NanMax, NanMin, EXT_LANES};
    use proptest::prelude::*;

    /// The definition `lanes_extremum` keeps: lane `i` holds the values at
    /// positions `≡ i (mod EXT_LANES)` after the first valid one, each lane
    /// keeps its earliest best, and the lanes fold in order (a tie keeps the
    /// lower lane). Written plainly, one value at a time.
    fn lane_by_lane<const MAX: bool>(xs: &[f64]) -> Option<f64> {
        let first = xs.iter().position(|x| !x.is_nan())?;
        let xs = &xs[first..];
        let beats = |x: f64, b: f64| if MAX { x > b } else { x < b };
        let mut lanes = vec![xs[0]; EXT_LANES];
        for (k, &x) in xs.iter().enumerate() {
            if beats(x, lanes[k % EXT_LANES]) {
                lanes[k % EXT_LANES] = x;
            }
        }
        let mut m = lanes[0];
        for &b in &lanes {
            if beats(b, m) {
                m = b;
            }
        }
        Some(m)
    }

    /// The minimum and maximum of each column by a plain fold down it (a
    /// tie keeps the earlier value), NaN skipped; NaN for an all-NaN column.
    fn column_fold<const MAX: bool>(a: &ndarray::Array2<f64>) -> Vec<f64> {
        let beats = |x: f64, b: f64| if MAX { x > b } else { x < b };
        a.columns()
            .into_iter()
            .map(|c| {
                c.iter().fold(f64::NAN, |b, &x| {
                    if !x.is_nan() && (b.is_nan() || beats(x, b)) {
                        x
                    } else {
                        b
                    }
                })
            })
            .collect()
    }

    /// Columns of more rows than one `push_rows` call takes (`ROWS_PER_PUSH`,
    /// 1024), in two chunks of rows (300,000 values: the driver cuts them
    /// for its threads): bit for bit the plain fold down each column, the
    /// sign of a tied zero included (the earlier zero stays).
    #[test]
    fn columns_longer_than_a_push_keep_their_extrema() {
        let rows = 2500;
        let a = ndarray::Array2::from_shape_fn((rows, 120), |(i, j)| match j % 6 {
            0 if i % 7 == 3 => f64::NAN,
            0 => ((i * 37) % 1001) as f64 - 500.0,
            1 => f64::NAN,
            2 if i == 1500 => 0.0,
            2 if i == 2100 => -0.0,
            2 => 1.0 + i as f64,
            3 if i == 1100 => -0.0,
            3 if i == 2400 => 0.0,
            3 => -1.0 - i as f64,
            4 if i == rows - 1 => -1e300,
            4 => i as f64,
            _ if i == 0 => 7.0,
            _ => f64::NAN,
        });
        let bits = |v: Vec<f64>| v.into_iter().map(f64::to_bits).collect::<Vec<_>>();
        let view = a.view().into_dyn();
        let min = super::super::driver::reduce(&view, &[0], &NanMin).0;
        let max = super::super::driver::reduce(&view, &[0], &NanMax).0;
        let (min, max) = (min.iter().copied().collect(), max.iter().copied().collect());
        assert_eq!(bits(min), bits(column_fold::<false>(&a)));
        assert_eq!(bits(max), bits(column_fold::<true>(&a)));
    }

    proptest! {
        /// Bit for bit, signed zeros and NaN included, at every remainder
        /// length: values at most zero, so that the extremum is often a
        /// zero whose sign tells which lane won (and their negations for
        /// the minimum).
        #[test]
        fn both_lane_extrema_are_the_lane_by_lane_fold(
            xs in prop::collection::vec(
                prop::sample::select(vec![0.0, -0.0, -1.0, f64::NAN, -2.0]),
                0..(4 * EXT_LANES + 3),
            )
        ) {
            let bits = |v: Option<f64>| v.map(f64::to_bits);
            let neg: Vec<f64> = xs.iter().map(|x| -x).collect();
            let (max, min) = (lane_by_lane::<true>(&xs), lane_by_lane::<false>(&neg));
            prop_assert_eq!(bits(lanes_extremum::<f64, true>(&xs)), bits(max));
            prop_assert_eq!(bits(lanes_extremum::<f64, false>(&neg)), bits(min));
            prop_assert_eq!(bits(lanes_extremum_in_registers::<f64, true>(&xs)), bits(max));
            prop_assert_eq!(bits(lanes_extremum_in_registers::<f64, false>(&neg)), bits(min));
        }
    }
}
