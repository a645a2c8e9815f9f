//! Minimum and maximum kernels.

use super::driver::statistics;
use super::reducer::{first_valid, fold_tree, Reducer, LANES};
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
/// `-0.0` can tell which).
#[inline(always)]
pub(crate) fn lanes_extremum<E: Element, const MAX: bool>(xs: &[E]) -> Option<E> {
    let first = first_valid(xs)?;
    let xs = &xs[first..];
    let mut best = [xs[0]; EXT_LANES];
    let mut chunks = xs.chunks_exact(EXT_LANES);
    for c in &mut chunks {
        prefetch_ahead(c.as_ptr());
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
    // The remainder goes into a copy, so `best` itself is only indexed by
    // constants and stays in registers through the loop above. Indexing
    // `best` by `i < rem.len()` made it a stack array stored on every chunk,
    // at an offset that straddled two cache lines: those two stores took 59%
    // of `nanargmax`'s samples (`perf annotate`, (100, 10000) along axis 1,
    // 2 threads: 0.15 ms, where the build before the restructuring, whose
    // slot was aligned, took 0.077 ms). Padding the remainder into a whole
    // chunk instead (a copy of its length per call) made short runs slower:
    // float32 `nanmin` over axes (0, 2) of (100, 200, 300), runs of 300 values,
    // took 1.14-1.26x the previous build's time.
    let mut tail = best;
    let rem = chunks.remainder();
    for i in 0..rem.len() {
        if beats::<E, MAX>(rem[i], tail[i]) {
            tail[i] = rem[i];
        }
    }
    let mut m = tail[0];
    for b in tail {
        if beats::<E, MAX>(b, m) {
            m = b;
        }
    }
    Some(m)
}

/// The better of two values for the short-lane trees of `ExtremumReducer`
/// and `ArgReducer`: `b` when it beats `a` or `a` is NaN (a tie keeps `a`).
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
            type Value = E;
            type State = Extremum<E, $max>;
            type Output = E;
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
            const SHORT: bool = true;
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
                let mut best = first.to_vec();
                for row in rest {
                    let (best, row) = (&mut best[..], &row[..first.len()]);
                    for j in 0..row.len() {
                        // NaN never beats; a NaN best is replaced by anything
                        let x = row[j];
                        best[j] = if beats::<E, $max>(x, best[j]) | best[j].is_nan_value() {
                            x
                        } else {
                            best[j]
                        };
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
                ndarray::Zip::from(out).and(&first).for_each(|o, &f| {
                    if o.is_nan_value() {
                        *o = f;
                    }
                });
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
