//! Variance kernel: two passes inside a cache-sized block, blocks merged with Chan.

use super::sum::{column_sums, sum_into};
use super::{Reducer, BLOCK, LANES};
use crate::element::{Element, FloatAcc};
use crate::states::{Moments, Sum};
use num_traits::{Float, Zero};

/// Moments of one block of at most [`BLOCK`] values: mean first, then the
/// squared deviations while the block is still in cache.
#[inline(always)]
fn block_moments<E: Element>(xs: &[E]) -> Moments<E::Float> {
    let mut sum = Sum::<E::Float>::default();
    let n = sum_into(&mut sum, xs, E::to_float);
    if n == 0 {
        return Moments::default();
    }
    let mean = sum.value().div_real(E::Float::real_from_u64(n));
    let zero = <E::Float as FloatAcc>::Real::zero();
    let mut acc = [zero; LANES];
    let mut chunks = xs.chunks_exact(LANES);
    for c in &mut chunks {
        for i in 0..LANES {
            let x = c[i];
            let d = (x.to_float() - mean).abs2();
            acc[i] = acc[i] + if x.is_nan_value() { zero } else { d };
        }
    }
    for (i, &x) in chunks.remainder().iter().enumerate() {
        if !x.is_nan_value() {
            acc[i] = acc[i] + (x.to_float() - mean).abs2();
        }
    }
    let m2 = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
    Moments::from_parts(n, mean, m2)
}

/// `nanvar` / `nanstd` with `ddof`.
pub(crate) struct VarReducer {
    /// Delta degrees of freedom.
    pub ddof: f64,
    /// Return the square root (standard deviation).
    pub std: bool,
}

impl<E: Element> Reducer<E> for VarReducer {
    type State = Moments<E::Float>;
    type Output = E::Var;
    fn init(&self) -> Self::State {
        Moments::default()
    }
    #[inline]
    fn push_slice(&self, st: &mut Self::State, xs: &[E]) {
        for block in xs.chunks(BLOCK) {
            st.merge(&block_moments(block));
        }
    }
    /// Two passes over the block (it is in cache): column means, then squared
    /// deviations; each column's block moments merge into its state with Chan.
    #[inline]
    fn push_rows(&self, states: &mut [Self::State], rows: &[&[E]]) {
        let (sums, nans) = column_sums(states.len(), rows, E::to_float);
        let n = rows.len() as u64;
        let means: Vec<E::Float> = sums
            .iter()
            .zip(&nans)
            .map(|(&s, &c)| s.div_real(E::Float::real_from_u64((n - c as u64).max(1))))
            .collect();
        let zero = <E::Float as FloatAcc>::Real::zero();
        let mut m2 = vec![zero; states.len()];
        for row in rows {
            for ((m, &mean), &x) in m2.iter_mut().zip(&means).zip(row.iter()) {
                let d = (x.to_float() - mean).abs2();
                *m = *m + if x.is_nan_value() { zero } else { d };
            }
        }
        for (((s, mean), m), c) in states.iter_mut().zip(means).zip(m2).zip(nans) {
            s.merge(&Moments::from_parts(n - c as u64, mean, m));
        }
    }
    fn merge(&self, into: &mut Self::State, other: &Self::State) {
        into.merge(other);
    }
    fn finish(&self, st: &Self::State) -> E::Var {
        let v = st
            .variance(self.ddof)
            .unwrap_or_else(<E::Float as FloatAcc>::Real::nan);
        if self.std {
            E::std_from_real(v)
        } else {
            E::var_from_real(v)
        }
    }
    fn degenerate(&self, st: &Self::State) -> bool {
        st.variance(self.ddof).is_none()
    }
}
