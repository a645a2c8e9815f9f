//! Product.

use super::state::State;
use crate::element::Accumulator;

/// A product; the identity is one.
///
/// ```
/// use nanops::states::{Product, State};
/// let mut p = Product::<f64>::default();
/// p.push(2.0);
/// p.merge(&Product::from_value(3.0));
/// assert_eq!(p.value(), 6.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Product<A: Accumulator>(A);

impl<A: Accumulator> Default for Product<A> {
    fn default() -> Self {
        Product(A::one())
    }
}

impl<A: Accumulator> Product<A> {
    /// A partial product holding `x`.
    pub fn from_value(x: A) -> Self {
        Product(x)
    }
    /// The product (the same as [`State::finish`]).
    #[inline(always)]
    pub fn value(&self) -> A {
        self.0
    }
}

impl<A: Accumulator> State<A> for Product<A> {
    type Output = A;
    #[inline(always)]
    fn push(&mut self, x: A) {
        self.0 = self.0.mul(x);
    }
    #[inline(always)]
    fn merge(&mut self, other: &Self) {
        self.push(other.0);
    }
    #[inline(always)]
    fn finish(&self) -> A {
        self.0
    }
}
