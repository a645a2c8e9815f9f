//! `nanmean`: the sum kernels, with the count, into a [`Mean`].

use super::reducer::{padded_with_nan, Reducer};
use super::register::statistics;
use super::sum::{column_sums, short_sum, sum_into};
use crate::element::Element;
use crate::states::{Mean, State, Sum};

/// [`nanmean`](crate::nanmean): compensated sum and count in the element's floating type.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NanMean;

statistics!(NanMean);

impl<E: Element> Reducer<E> for NanMean {
    type Value = E::Float;
    type State = Mean<E::Float>;
    type Output = E::Mean;
    type Kernel = Self;
    #[inline(always)]
    fn kernel(&self) -> &Self {
        self
    }
    #[inline(always)]
    fn push_slice(&self, st: &mut Self::State, xs: &[E]) {
        st.count += sum_into(&mut st.sum, xs, E::to_float);
    }
    #[inline(always)]
    fn push_value(&self, st: &mut Self::State, x: E) {
        // as `NanSum`'s: NaN adds zero to the sum and nothing to the count
        st.sum.push_branch_free(x.to_float_nan_zero());
        st.count += u64::from(!x.is_nan_value());
    }
    const SHORT: bool = true;
    const PREFETCH_SHORT: bool = true;
    #[inline(always)]
    fn short_state<const L: usize>(&self, xs: &[E; L]) -> Self::State {
        let (sum, valid) = short_sum(xs, E::to_float);
        Mean::from_parts(Sum::of(sum), valid)
    }
    #[inline(always)]
    fn short_window_state<const L: usize>(&self, window: &[E; L], len: usize) -> Self::State {
        match E::window_float_sum(window, len) {
            Some((sum, valid)) => Mean::from_parts(Sum::of(sum), u64::from(valid)),
            None => self.short_state(&padded_with_nan(window, len)),
        }
    }
    #[inline(always)]
    fn push_rows(&self, states: &mut [Self::State], rows: &[&[E]]) {
        let (acc, nans) = column_sums(states.len(), rows, E::to_float);
        let n = rows.len() as u64;
        for j in 0..states.len() {
            states[j].sum.push(acc[j]);
            states[j].count += n - nans[j] as u64;
        }
    }
    fn finish(&self, st: &Self::State) -> E::Mean {
        // 0/0 gives NaN for an empty slice, as NumPy.
        E::mean_from_float(st.finish())
    }
    fn degenerate(&self, st: &Self::State) -> bool {
        st.count == 0
    }
}
