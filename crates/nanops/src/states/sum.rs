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
    /// Adds `x` with Knuth's TwoSum rather than Neumaier's branch: the same
    /// state whenever the sum is finite (both keep the addition's exact
    /// error), and the same value when it is not (the compensation of an
    /// infinite or NaN sum is ignored). For values that arrive one at a
    /// time in no order (a group-by over random labels), where the branch
    /// on the larger magnitude goes either way.
    ///
    /// ```
    /// use nanops::states::{State, Sum};
    /// let (mut a, mut b) = (Sum::<f64>::default(), Sum::<f64>::default());
    /// for x in [1e16, 1.0, -1e16, 0.5] { a.push(x); b.push_branch_free(x) }
    /// assert_eq!(a, b);
    /// ```
    #[inline(always)]
    pub fn push_branch_free(&mut self, x: A) {
        let (t, e) = self.hi.two_sum(x);
        self.lo = self.lo.add(e);
        self.hi = t;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// TwoSum and Neumaier's branch keep the same exact error: equal states
    /// while the sum is finite, equal values once it is not; magnitudes on
    /// both sides of the running sum, zeros, infinities and overflows.
    #[test]
    fn branch_free_pushes_give_neumaiers_state() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for case in 0..400 {
            let (mut a, mut b) = (Sum::<f64>::default(), Sum::<f64>::default());
            for _ in 0..200 {
                let r = next();
                let x = match (r % 23, case % 4) {
                    (0, 3) => f64::INFINITY,
                    (1, 3) => -1.7e308,
                    (2, 2) => 1.7e308,
                    (3, _) => 0.0,
                    (4, _) => -0.0,
                    _ => {
                        let m = (r >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
                        m * 10f64.powi(((r >> 5) % 40) as i32 - 20)
                    }
                };
                a.push(x);
                b.push_branch_free(x);
                if a.hi.is_finite() {
                    assert_eq!(
                        (a.hi.to_bits(), a.lo.to_bits()),
                        (b.hi.to_bits(), b.lo.to_bits())
                    );
                }
                assert_eq!(a.value().to_bits(), b.value().to_bits(), "case {case}");
            }
        }
    }
}
