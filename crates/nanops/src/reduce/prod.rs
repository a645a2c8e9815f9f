//! `nanprod`: non-NaN values multiplied in lanes.

use super::driver::statistics;
use super::reducer::{Reducer, LANES};
use crate::element::{Accumulator, Element};
use crate::states::{Product, State};

/// [`nanprod`](crate::nanprod): non-NaN values multiplied in the accumulator type.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NanProd;

statistics!(NanProd);

impl<E: Element> Reducer<E> for NanProd {
    type Value = E::Acc;
    type State = Product<E::Acc>;
    type Output = E::Sum;
    #[inline(always)]
    fn push_slice(&self, st: &mut Self::State, xs: &[E]) {
        let mut acc = [E::Acc::one(); LANES];
        let mut chunks = xs.chunks_exact(LANES);
        for c in &mut chunks {
            for i in 0..LANES {
                let x = c[i];
                acc[i] = acc[i].mul(if x.is_nan_value() {
                    E::Acc::one()
                } else {
                    x.to_acc()
                });
            }
        }
        let rem = chunks.remainder();
        for i in 0..rem.len() {
            let x = rem[i];
            acc[i] = acc[i].mul(if x.is_nan_value() {
                E::Acc::one()
            } else {
                x.to_acc()
            });
        }
        acc.iter().for_each(|&a| st.push(a));
    }
    #[inline(always)]
    fn push_rows(&self, states: &mut [Self::State], rows: &[&[E]]) {
        let mut acc = vec![E::Acc::one(); states.len()];
        for row in rows {
            let (acc, row) = (&mut acc[..], &row[..states.len()]);
            for j in 0..row.len() {
                let x = row[j];
                acc[j] = acc[j].mul(if x.is_nan_value() {
                    E::Acc::one()
                } else {
                    x.to_acc()
                });
            }
        }
        let acc = &acc[..states.len()];
        for j in 0..acc.len() {
            states[j].push(acc[j]);
        }
    }
    fn finish(&self, st: &Self::State) -> E::Sum {
        E::sum_from_acc(st.value())
    }
}
