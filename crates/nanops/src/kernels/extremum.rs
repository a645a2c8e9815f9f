//! Minimum and maximum kernels.

use super::{Reducer, LANES};
use crate::element::Element;
use crate::states::extremum::beats;
use crate::states::Extremum;

/// `nanmin` (`MAX = false`) or `nanmax` (`MAX = true`).
pub(crate) struct ExtremumReducer<const MAX: bool>;

impl<E: Element, const MAX: bool> Reducer<E> for ExtremumReducer<MAX> {
    type State = Extremum<E, MAX>;
    type Output = E;
    fn init(&self) -> Self::State {
        Extremum::default()
    }
    #[inline]
    fn push_slice(&self, st: &mut Self::State, xs: &[E]) {
        // Seed every lane with the first valid value: NaN never beats it,
        // so the loop needs no validity flags.
        let Some(first) = xs.iter().position(|x| !x.is_nan_value()) else {
            return;
        };
        let xs = &xs[first..];
        let mut best = [xs[0]; LANES];
        let mut chunks = xs.chunks_exact(LANES);
        for c in &mut chunks {
            for i in 0..LANES {
                if beats::<E, MAX>(c[i], best[i]) {
                    best[i] = c[i];
                }
            }
        }
        for (i, &x) in chunks.remainder().iter().enumerate() {
            if beats::<E, MAX>(x, best[i]) {
                best[i] = x;
            }
        }
        best.iter().for_each(|&b| st.push(b));
    }
    #[inline]
    fn push_rows(&self, states: &mut [Self::State], rows: &[&[E]]) {
        let Some((first, rest)) = rows.split_first() else {
            return;
        };
        let mut best = first.to_vec();
        for row in rest {
            for (b, &x) in best.iter_mut().zip(row.iter()) {
                // NaN never beats; a NaN best is replaced by anything
                if beats::<E, MAX>(x, *b) | b.is_nan_value() {
                    *b = x;
                }
            }
        }
        states.iter_mut().zip(best).for_each(|(s, b)| s.push(b));
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
