//! Product, exact in class.

use super::state::State;
use crate::element::Factor;

/// A product exact in class: its sign and class (zero, finite, infinite) are
/// those of the exact product of the values pushed, and it is NaN only when
/// a true zero meets an infinity, or a NaN was pushed.
///
/// Finite nonzero factors are held as a mantissa and a binary exponent (each
/// factor split into both, [`Factor::split`]), so that no partial product
/// overflows or underflows: the mantissa product rounds as the plain product
/// would, and the result is rounded once, by [`Factor::ldexp`], at the end.
/// Zeros and infinities are counted apart, their signs (complex: their
/// directions) multiplied into the mantissa. Integers wrap, as NumPy's.
///
/// ```
/// use nanops::states::{Product, State};
/// let mut p = Product::<f64>::default();
/// p.push_slice(&[f64::INFINITY, 1e-300, 1e-300]);
/// assert_eq!(p.value(), f64::INFINITY); // a plain product in two lanes: inf · 0 = NaN
/// let mut q = Product::<f64>::default();
/// q.push_slice(&[1e300, 1e300, 0.0]);
/// assert_eq!(q.value(), 0.0); // a running product: inf · 0 = NaN
/// p.merge(&q);
/// assert!(p.value().is_nan()); // an infinity times a true zero
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Product<A: Factor> {
    /// The product of the factors' parts (mantissas, signs, directions).
    part: A,
    /// The sum of the finite factors' binary exponents.
    exp: i64,
    /// A true zero was a factor.
    zero: bool,
    /// An infinity was a factor.
    inf: bool,
    /// A NaN was a factor.
    nan: bool,
}

impl<A: Factor> Default for Product<A> {
    fn default() -> Self {
        Product {
            part: A::one(),
            exp: 0,
            zero: false,
            inf: false,
            nan: false,
        }
    }
}

impl<A: Factor> Product<A> {
    /// A partial product holding `x`.
    pub fn from_value(x: A) -> Self {
        let mut p = Self::default();
        p.push(x);
        p
    }
    /// A partial product from its parts: the product of the finite factors'
    /// mantissas (and of the signs of zeros and infinities) `part`, the sum
    /// of their exponents `exp`, and whether a zero or an infinity was a
    /// factor (the lanes of a kernel keep these apart).
    #[inline(always)]
    pub(crate) fn from_parts(part: A, exp: i64, zero: bool, inf: bool) -> Self {
        let (part, k) = part.renormalize();
        Product {
            part,
            exp: exp + k,
            zero,
            inf,
            nan: false,
        }
    }
    /// Multiplies by `x` (not NaN) plainly when it is tame
    /// ([`Factor::tame`]) and fewer than [`Factor::TAME_RUN`] factors were
    /// multiplied plainly since the mantissa was last renormalised (counted
    /// in `run`), else as [`State::push`]: the fast form of a running product.
    #[inline(always)]
    pub(crate) fn push_running(&mut self, x: A, run: &mut usize) {
        if x.tame() && *run < A::TAME_RUN {
            self.part = self.part.mul(x);
            *run += 1;
            return;
        }
        self.push(x);
        *run = 0;
    }
    /// The product's parts `(part, exp, zero, inf)`: the product of the
    /// finite nonzero factors' mantissas and of the zeros' and infinities'
    /// signs (complex: directions), kept in `[1, 2)` (NaN where a NaN was
    /// a factor), the sum of the factors' binary exponents, and whether a
    /// zero or an infinity was a factor. The form in which a partial
    /// product travels between the pieces of a distributed reduction: no
    /// piece's product overflows or underflows, and the pieces' parts
    /// multiply into the whole's as [`State::merge`] multiplies them.
    ///
    /// ```
    /// use nanops::states::{Product, State};
    /// let mut p = Product::<f64>::default();
    /// p.push_slice(&[1e300, -1e300]);
    /// let (part, exp, zero, inf) = p.parts();
    /// assert!((-2.0..=-1.0).contains(&part) && exp > 1024 && !zero && !inf);
    /// ```
    pub fn parts(&self) -> (A, i64, bool, bool) {
        let part = if self.nan {
            A::special(self.part, true, true)
        } else {
            self.part
        };
        (part, self.exp, self.zero, self.inf)
    }
    /// The product (the same as [`State::finish`]), rounded once.
    #[inline(always)]
    pub fn value(&self) -> A {
        if self.nan || self.zero || self.inf {
            return A::special(self.part, self.zero || self.nan, self.inf || self.nan);
        }
        self.part.ldexp(self.exp)
    }
}

impl<A: Factor> State<A> for Product<A> {
    type Output = A;
    #[inline(always)]
    fn push(&mut self, x: A) {
        if x.nan_value() {
            self.nan = true;
            return;
        }
        let (p, e, zero, inf) = x.split();
        let (part, k) = self.part.mul(p).renormalize();
        self.part = part;
        self.exp += e + k;
        self.zero |= zero;
        self.inf |= inf;
    }
    #[inline(always)]
    fn merge(&mut self, other: &Self) {
        let (part, k) = self.part.mul(other.part).renormalize();
        self.part = part;
        self.exp += other.exp + k;
        self.zero |= other.zero;
        self.inf |= other.inf;
        self.nan |= other.nan;
    }
    #[inline(always)]
    fn finish(&self) -> A {
        self.value()
    }
}
