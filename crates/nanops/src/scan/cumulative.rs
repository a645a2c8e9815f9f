//! `nancumsum` / `nancumprod`: running totals treating NaN as the identity.

use super::scanner::Scanner;
use crate::element::{Accumulator, Element};
use crate::states::Product;

/// `nancumsum`: the running sum in [`Accumulator::Running`], NaN counted as
/// zero, each position rounded to the result type.
///
/// `f16`/`bf16` accumulate in `f32` elsewhere, but their running totals are
/// kept in `f64`: a plain `f32` running total stops absorbing small values
/// once it is large (a million float16 values, cancelling pairs up to 1e4 and
/// small ones, ended at 3066 instead of 4499).
pub(crate) struct CumSum;

impl<E: Element> Scanner<E> for CumSum {
    type Running = <E::Acc as Accumulator>::Running;
    type Output = E::Sum;
    #[inline(always)]
    fn start(&self) -> Self::Running {
        Accumulator::zero()
    }
    #[inline(always)]
    fn step(&self, running: &mut Self::Running, x: E) -> E::Sum {
        if !x.is_nan_value() {
            *running = running.add(x.to_acc().to_running());
        }
        E::sum_from_acc(E::Acc::from_running(*running))
    }
}

/// `nancumprod`: the running product in the accumulator type, NaN counted
/// as one, exact in class ([`Product`]: no running product overflows or
/// underflows on its way, each position is rounded once).
pub(crate) struct CumProd;

impl<E: Element> Scanner<E> for CumProd {
    /// The product so far, and the factors multiplied plainly since its
    /// mantissa was last renormalised.
    type Running = (Product<E::Acc>, usize);
    type Output = E::Sum;
    #[inline(always)]
    fn start(&self) -> Self::Running {
        (Product::default(), 0)
    }
    #[inline(always)]
    fn step(&self, (product, run): &mut Self::Running, x: E) -> E::Sum {
        if !x.is_nan_value() {
            product.push_running(x.to_acc(), run);
        }
        E::sum_from_acc(product.value())
    }
}
