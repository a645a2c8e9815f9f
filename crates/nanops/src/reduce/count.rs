//! `nancount`: the number of non-NaN values.

use super::reducer::{fold_lanes, Reducer, LANES};
use super::register::statistics;
use crate::element::Element;
use crate::states::Count;

/// [`nancount`](crate::nancount): the number of non-NaN values.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NanCount;

statistics!(NanCount);

impl<E: Element> Reducer<E> for NanCount {
    const CUT_FREE: bool = true;
    type Value = bool;
    type State = Count;
    type Output = u64;
    type Kernel = Self;
    #[inline(always)]
    fn kernel(&self) -> &Self {
        self
    }
    #[inline(always)]
    fn push_slice(&self, st: &mut Count, xs: &[E]) {
        if !E::CAN_BE_NAN {
            st.0 += xs.len() as u64;
            return;
        }
        let mut n = [0u64; LANES];
        let mut chunks = xs.chunks_exact(LANES);
        for c in &mut chunks {
            for i in 0..LANES {
                n[i] += !c[i].is_nan_value() as u64;
            }
        }
        let rem = chunks.remainder();
        let mut rest = 0;
        for i in 0..rem.len() {
            rest += !rem[i].is_nan_value() as u64;
        }
        st.0 += fold_lanes(n, |a, b| a + b) + rest;
    }
    #[inline(always)]
    fn push_value(&self, st: &mut Count, x: E) {
        st.0 += !x.is_nan_value() as u64;
    }
    #[inline(always)]
    fn push_rows(&self, states: &mut [Count], rows: &[&[E]]) {
        let mut nans = vec![0u32; states.len()];
        for row in rows {
            let (nans, row) = (&mut nans[..], &row[..states.len()]);
            for j in 0..row.len() {
                nans[j] += row[j].is_nan_value() as u32;
            }
        }
        let n = rows.len() as u64;
        for j in 0..states.len() {
            states[j].0 += n - nans[j] as u64;
        }
    }
    fn finish(&self, st: &Count) -> u64 {
        st.0
    }
}
