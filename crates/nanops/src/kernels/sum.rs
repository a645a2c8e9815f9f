//! Sum, product, count and mean kernels.

use super::{Reducer, BLOCK, LANES};
use crate::element::{Accumulator, Element, FloatAcc};
use crate::states::{Count, Product, Sum};

/// Sum and NaN count of a block, in `LANES` lanes, values converted by `conv`.
#[inline(always)]
fn block_sum<E: Element, A: Accumulator>(xs: &[E], conv: impl Fn(E) -> A) -> (A, u64) {
    let mut acc = [A::zero(); LANES];
    let mut nans = [0u64; LANES];
    let mut chunks = xs.chunks_exact(LANES);
    for c in &mut chunks {
        for i in 0..LANES {
            let x = c[i];
            let nan = x.is_nan_value();
            acc[i] = acc[i].add(if nan { A::zero() } else { conv(x) });
            nans[i] += nan as u64;
        }
    }
    for (i, &x) in chunks.remainder().iter().enumerate() {
        let nan = x.is_nan_value();
        acc[i] = acc[i].add(if nan { A::zero() } else { conv(x) });
        nans[i] += nan as u64;
    }
    let s = (acc[0].add(acc[1]).add(acc[2].add(acc[3])))
        .add(acc[4].add(acc[5]).add(acc[6].add(acc[7])));
    (s, nans.iter().sum())
}

/// Adds the non-NaN values of `xs` to `sum`, returning how many there were.
#[inline(always)]
pub(crate) fn sum_into<E: Element, A: Accumulator>(
    sum: &mut Sum<A>,
    xs: &[E],
    conv: impl Fn(E) -> A + Copy,
) -> u64 {
    let mut valid = 0;
    for block in xs.chunks(BLOCK) {
        let (s, nans) = block_sum(block, conv);
        sum.push(s);
        valid += block.len() as u64 - nans;
    }
    valid
}

/// `nansum`: non-NaN values added in the accumulator type.
pub(crate) struct SumReducer;

impl<E: Element> Reducer<E> for SumReducer {
    type State = Sum<E::Acc>;
    type Output = E::Sum;
    fn init(&self) -> Self::State {
        Sum::default()
    }
    #[inline]
    fn push_slice(&self, st: &mut Self::State, xs: &[E]) {
        sum_into(st, xs, E::to_acc);
    }
    #[inline]
    fn push_rows(&self, states: &mut [Self::State], rows: &[&[E]]) {
        let (acc, _) = column_sums(states.len(), rows, E::to_acc);
        states.iter_mut().zip(acc).for_each(|(s, a)| s.push(a));
    }
    fn merge(&self, into: &mut Self::State, other: &Self::State) {
        into.merge(other);
    }
    fn finish(&self, st: &Self::State) -> E::Sum {
        E::sum_from_acc(st.value())
    }
}

/// Column sums and NaN counts of a block of rows, each `n` long.
#[inline(always)]
pub(crate) fn column_sums<E: Element, A: Accumulator>(
    n: usize,
    rows: &[&[E]],
    conv: impl Fn(E) -> A,
) -> (Vec<A>, Vec<u32>) {
    let mut acc = vec![A::zero(); n];
    let mut nans = vec![0u32; n];
    for row in rows {
        for ((a, c), &x) in acc.iter_mut().zip(nans.iter_mut()).zip(row.iter()) {
            let nan = x.is_nan_value();
            *a = a.add(if nan { A::zero() } else { conv(x) });
            *c += nan as u32;
        }
    }
    (acc, nans)
}

/// `nanprod`: non-NaN values multiplied in the accumulator type.
pub(crate) struct ProdReducer;

impl<E: Element> Reducer<E> for ProdReducer {
    type State = Product<E::Acc>;
    type Output = E::Sum;
    fn init(&self) -> Self::State {
        Product::default()
    }
    #[inline]
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
        for (i, &x) in chunks.remainder().iter().enumerate() {
            acc[i] = acc[i].mul(if x.is_nan_value() {
                E::Acc::one()
            } else {
                x.to_acc()
            });
        }
        acc.iter().for_each(|&a| st.push(a));
    }
    #[inline]
    fn push_rows(&self, states: &mut [Self::State], rows: &[&[E]]) {
        let mut acc = vec![E::Acc::one(); states.len()];
        for row in rows {
            for (a, &x) in acc.iter_mut().zip(row.iter()) {
                *a = a.mul(if x.is_nan_value() {
                    E::Acc::one()
                } else {
                    x.to_acc()
                });
            }
        }
        states.iter_mut().zip(acc).for_each(|(s, a)| s.push(a));
    }
    fn merge(&self, into: &mut Self::State, other: &Self::State) {
        into.merge(other);
    }
    fn finish(&self, st: &Self::State) -> E::Sum {
        E::sum_from_acc(st.value())
    }
}

/// `nancount`: number of non-NaN values.
pub(crate) struct CountReducer;

impl<E: Element> Reducer<E> for CountReducer {
    type State = Count;
    type Output = u64;
    fn init(&self) -> Count {
        Count::default()
    }
    #[inline]
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
        let rest = chunks
            .remainder()
            .iter()
            .filter(|x| !x.is_nan_value())
            .count();
        st.0 += n.iter().sum::<u64>() + rest as u64;
    }
    #[inline]
    fn push_rows(&self, states: &mut [Count], rows: &[&[E]]) {
        let mut nans = vec![0u32; states.len()];
        for row in rows {
            for (c, &x) in nans.iter_mut().zip(row.iter()) {
                *c += x.is_nan_value() as u32;
            }
        }
        let n = rows.len() as u64;
        states
            .iter_mut()
            .zip(nans)
            .for_each(|(s, c)| s.0 += n - c as u64);
    }
    fn merge(&self, into: &mut Count, other: &Count) {
        into.merge(other);
    }
    fn finish(&self, st: &Count) -> u64 {
        st.0
    }
}

/// `nanmean`: compensated sum and count in the element's floating type.
pub(crate) struct MeanReducer;

impl<E: Element> Reducer<E> for MeanReducer {
    type State = (Sum<E::Float>, Count);
    type Output = E::Mean;
    fn init(&self) -> Self::State {
        (Sum::default(), Count::default())
    }
    #[inline]
    fn push_slice(&self, st: &mut Self::State, xs: &[E]) {
        st.1 .0 += sum_into(&mut st.0, xs, E::to_float);
    }
    #[inline]
    fn push_rows(&self, states: &mut [Self::State], rows: &[&[E]]) {
        let (acc, nans) = column_sums(states.len(), rows, E::to_float);
        let n = rows.len() as u64;
        for ((s, a), c) in states.iter_mut().zip(acc).zip(nans) {
            s.0.push(a);
            s.1 .0 += n - c as u64;
        }
    }
    fn merge(&self, into: &mut Self::State, other: &Self::State) {
        into.0.merge(&other.0);
        into.1.merge(&other.1);
    }
    fn finish(&self, st: &Self::State) -> E::Mean {
        let n = <E::Float as FloatAcc>::real_from_u64(st.1 .0);
        // 0/0 gives NaN for an empty slice, as NumPy.
        E::mean_from_float(st.0.value().div_real(n))
    }
    fn degenerate(&self, st: &Self::State) -> bool {
        st.1 .0 == 0
    }
}
