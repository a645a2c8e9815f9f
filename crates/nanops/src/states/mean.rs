//! Mean: a compensated sum and a count.

use super::state::{Invertible, State};
use super::sum::Sum;
use crate::element::FloatAcc;

/// The mean of the values seen: a compensated [`Sum`] and their count.
///
/// ```
/// use nanops::states::{Mean, State};
/// let mut m = Mean::<f64>::default();
/// m.push_slice(&[1.0, 2.0]);
/// let mut n = Mean::default();
/// n.push(6.0);
/// m.merge(&n);
/// assert_eq!(m.finish(), 3.0);
/// assert_eq!((m.sum(), m.count()), (9.0, 3));
/// assert!(Mean::<f64>::default().finish().is_nan());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Mean<F: FloatAcc> {
    /// The sum of the values.
    pub(crate) sum: Sum<F>,
    /// How many values were added.
    pub(crate) count: u64,
}

impl<F: FloatAcc> Mean<F> {
    /// A state of `count` values summing to `sum`.
    #[inline(always)]
    pub fn from_parts(sum: Sum<F>, count: u64) -> Self {
        Mean { sum, count }
    }
    /// Number of values.
    #[inline(always)]
    pub fn count(&self) -> u64 {
        self.count
    }
    /// The sum of the values (its compensation folded in).
    #[inline(always)]
    pub fn sum(&self) -> F {
        self.sum.value()
    }
}

impl<F: FloatAcc> State<F> for Mean<F> {
    /// The mean; NaN when empty (`0 / 0`, as NumPy).
    type Output = F;
    #[inline(always)]
    fn push(&mut self, x: F) {
        self.sum.push(x);
        self.count += 1;
    }
    #[inline(always)]
    fn merge(&mut self, other: &Self) {
        self.sum.merge(&other.sum);
        self.count += other.count;
    }
    #[inline(always)]
    fn finish(&self) -> F {
        self.sum.value().div_real(F::real_from_u64(self.count))
    }
}

impl<F: FloatAcc> Invertible<F> for Mean<F> {
    #[inline(always)]
    fn remove(&mut self, x: F) {
        self.sum.push(x.neg());
        self.count -= 1;
    }
}
