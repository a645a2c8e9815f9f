//! Minimum and maximum kernels.

use super::{better, first_valid, fold_tree, prefetch_ahead, Reducer, LANES};
use crate::element::Element;
use crate::states::extremum::beats;
use crate::states::Extremum;

/// Lanes of the extremum loop: a compare and a blend per value are so cheap
/// that 16 independent lanes (a whole AVX-512 register of `f32`) pay.
const EXT_LANES: usize = 2 * LANES;

/// `nanmin` (`MAX = false`) or `nanmax` (`MAX = true`).
pub(crate) struct ExtremumReducer<const MAX: bool>;

impl<E: Element, const MAX: bool> Reducer<E> for ExtremumReducer<MAX> {
    type State = Extremum<E, MAX>;
    type Output = E;
    fn init(&self) -> Self::State {
        Extremum::default()
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
        // Seed every lane with the first valid value: NaN never beats it,
        // so the loop needs no validity flags.
        let Some(first) = first_valid(xs) else {
            return;
        };
        let xs = &xs[first..];
        let mut best = [xs[0]; EXT_LANES];
        let mut chunks = xs.chunks_exact(EXT_LANES);
        for c in &mut chunks {
            prefetch_ahead(c.as_ptr());
            for i in 0..EXT_LANES {
                if beats::<E, MAX>(c[i], best[i]) {
                    best[i] = c[i];
                }
            }
        }
        let rem = chunks.remainder();
        for i in 0..rem.len() {
            let x = rem[i];
            if beats::<E, MAX>(x, best[i]) {
                best[i] = x;
            }
        }
        for b in best {
            st.push(b);
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
        let mut m = fold_tree(*xs, better::<E, MAX>);
        if m == E::default() {
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
                best[j] = if beats::<E, MAX>(x, best[j]) | best[j].is_nan_value() {
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
    fn merge(&self, into: &mut Self::State, other: &Self::State) {
        into.merge(other);
    }
    fn finish(&self, st: &Self::State) -> E {
        st.value().unwrap_or_else(E::nan)
    }
    fn degenerate(&self, st: &Self::State) -> bool {
        st.value().is_none()
    }
}
