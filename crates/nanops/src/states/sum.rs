//! Compensated sum and plain product.

use crate::element::Accumulator;

/// A sum held as a compensated pair: the value is `hi + lo`.
///
/// Floats add with Neumaier's compensation, so the error does not grow with
/// the number of values; integers wrap on overflow, as NumPy's.
///
/// ```
/// use nanops::states::Sum;
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
    /// Adds one value.
    #[inline(always)]
    pub fn push(&mut self, x: A) {
        A::comp_add(&mut self.hi, &mut self.lo, x);
    }
    /// Adds another partial sum.
    #[inline(always)]
    pub fn merge(&mut self, other: &Self) {
        self.push(other.hi);
        self.push(other.lo);
    }
    /// The sum.
    #[inline(always)]
    pub fn value(&self) -> A {
        self.hi.add(self.lo)
    }
}

/// A product; the identity is one.
///
/// ```
/// use nanops::states::Product;
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
    /// Multiplies by one value.
    #[inline(always)]
    pub fn push(&mut self, x: A) {
        self.0 = self.0.mul(x);
    }
    /// Multiplies by another partial product.
    #[inline(always)]
    pub fn merge(&mut self, other: &Self) {
        self.push(other.0);
    }
    /// The product.
    #[inline(always)]
    pub fn value(&self) -> A {
        self.0
    }
}
