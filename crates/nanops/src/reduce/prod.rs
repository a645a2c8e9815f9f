//! `nanprod`: non-NaN values multiplied in lanes, exact in class.

use super::driver::statistics;
use super::reducer::{Reducer, LANES};
use crate::element::{Element, Factor};
use crate::states::{Product, State};

/// [`nanprod`](crate::nanprod): non-NaN values multiplied in the accumulator
/// type, exact in class ([`Product`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NanProd;

statistics!(NanProd);

/// Factors multiplied into a lane between two renormalisations of its
/// mantissa (each factor's part is below 2 in magnitude, below 2√2 for
/// complex, so 16 of them stay far inside the range of `f32`).
const RENORMALIZE_EVERY: usize = 16;

/// One lane of a product: mantissa, exponent, zero and infinity flags.
#[derive(Clone, Copy)]
struct Lane<A> {
    part: A,
    exp: i64,
    zero: bool,
    inf: bool,
}

impl<A: Factor> Lane<A> {
    #[inline(always)]
    fn new() -> Self {
        Lane {
            part: A::one(),
            exp: 0,
            zero: false,
            inf: false,
        }
    }
    /// Multiplies in one value; NaN is skipped.
    #[inline(always)]
    fn push<E: Element<Acc = A>>(&mut self, x: E) {
        let nan = x.is_nan_value();
        let (p, e, zero, inf) = x.to_acc().split();
        self.part = self.part.mul(if nan { A::one() } else { p });
        self.exp += if nan { 0 } else { e };
        self.zero |= zero & !nan;
        self.inf |= inf & !nan;
    }
    #[inline(always)]
    fn renormalize(&mut self) {
        let (part, k) = self.part.renormalize();
        self.part = part;
        self.exp += k;
    }
    #[inline(always)]
    fn state(self) -> Product<A> {
        Product::from_parts(self.part, self.exp, self.zero, self.inf)
    }
}

impl<E: Element> Reducer<E> for NanProd {
    type Value = E::Acc;
    type State = Product<E::Acc>;
    type Output = E::Sum;
    #[inline(always)]
    fn push_slice(&self, st: &mut Self::State, xs: &[E]) {
        let mut lanes = [Lane::<E::Acc>::new(); LANES];
        for block in xs.chunks(LANES * RENORMALIZE_EVERY) {
            let mut chunks = block.chunks_exact(LANES);
            for c in &mut chunks {
                for i in 0..LANES {
                    lanes[i].push(c[i]);
                }
            }
            let rem = chunks.remainder();
            for i in 0..rem.len() {
                lanes[i].push(rem[i]);
            }
            if E::Acc::EXACT_CLASS {
                for lane in &mut lanes {
                    lane.renormalize();
                }
            }
        }
        for lane in lanes {
            st.merge(&lane.state());
        }
    }
    #[inline(always)]
    fn push_rows(&self, states: &mut [Self::State], rows: &[&[E]]) {
        let mut lanes = vec![Lane::<E::Acc>::new(); states.len()];
        for block in rows.chunks(RENORMALIZE_EVERY) {
            for row in block {
                let (lanes, row) = (&mut lanes[..], &row[..states.len()]);
                for j in 0..row.len() {
                    lanes[j].push(row[j]);
                }
            }
            if E::Acc::EXACT_CLASS {
                for lane in &mut lanes {
                    lane.renormalize();
                }
            }
        }
        for (st, lane) in states.iter_mut().zip(lanes) {
            st.merge(&lane.state());
        }
    }
    fn finish(&self, st: &Self::State) -> E::Sum {
        E::sum_from_acc(st.value())
    }
}
