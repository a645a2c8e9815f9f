//! Compensated sum.

use super::state::{Invertible, State};
use crate::element::Accumulator;

/// A sum held as a compensated pair: the value is `hi + lo`.
///
/// Floats add with Neumaier's compensation, so the error does not grow with
/// the number of values (nor with values removed again, in a moving window);
/// integers wrap on overflow, as NumPy's.
///
/// ```
/// use nanops::states::{State, Sum};
/// let mut s = Sum::<f64>::default();
/// for x in [1e16, 1.0, -1e16] { s.push(x) }
/// assert_eq!(s.value(), 1.0); // a naive sum gives 0.0
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sum<A: Accumulator> {
    hi: A,
    lo: A,
}

impl<A: Accumulator> Sum<A> {
    /// The sum of one value: what pushing `x` to an empty state gives
    /// (compensated addition to zero is exact).
    #[inline(always)]
    pub fn of(x: A) -> Self {
        Sum {
            hi: x,
            lo: A::zero(),
        }
    }
    /// The sum (the same as [`State::finish`]).
    #[inline(always)]
    pub fn value(&self) -> A {
        // an overflowed `hi` leaves an infinite compensation: inf, not NaN
        self.hi.add(A::finite_comp(self.hi, self.lo))
    }
}

impl<A: Accumulator> State<A> for Sum<A> {
    type Output = A;
    #[inline(always)]
    fn push(&mut self, x: A) {
        A::comp_add(&mut self.hi, &mut self.lo, x);
    }
    #[inline(always)]
    fn merge(&mut self, other: &Self) {
        self.push(other.hi);
        self.push(A::finite_comp(other.hi, other.lo));
    }
    #[inline(always)]
    fn finish(&self) -> A {
        self.value()
    }
}

impl<A: Accumulator> Invertible<A> for Sum<A> {
    /// Subtracts `x`, compensated like an addition.
    #[inline(always)]
    fn remove(&mut self, x: A) {
        self.push(x.neg());
    }
}
