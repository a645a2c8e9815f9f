//! `replace`: bottleneck's in-place substitution of one value by another,
//! the one function that writes the caller's array (it is asked to).

use crate::element::Element;
use ndarray::{ArrayBase, DataMut, Dimension};

/// Sets every value of `a` equal to `old` to `new`, in place (bottleneck's
/// `replace`): with `old` NaN, every NaN; otherwise every value `== old`
/// (so `0.0` also replaces `-0.0`).
///
/// ```
/// use ndarray::array;
/// let mut a = array![1.0, f64::NAN, -0.0];
/// nanops::replace(&mut a, f64::NAN, 2.0);
/// nanops::replace(&mut a, 0.0, 5.0);
/// assert_eq!(a, array![1.0, 2.0, 5.0]);
/// ```
pub fn replace<S, E, D>(a: &mut ArrayBase<S, D>, old: E, new: E)
where
    S: DataMut<Elem = E>,
    E: Element,
    D: Dimension,
{
    if old.is_nan_value() {
        substitute(a, new, |x: E| x.is_nan_value());
    } else {
        substitute(a, new, |x: E| {
            !x.less(old) && !old.less(x) && !x.is_nan_value()
        });
    }
}

/// Sets the values of `a` for which `hit` holds to `new`. A contiguous
/// array is rewritten whole, each value by a select of `new` or itself (a
/// loop LLVM vectorises into compares, blends and full stores, as
/// bottleneck's C loop compiles), compiled for the baseline instruction
/// set on purpose: with AVX2, LLVM turns the select stored back, or a
/// conditional write, into masked stores, microcoded on AMD Zen (measured
/// on a standalone loop over float32 values with 10% NaN: slower than this
/// SSE2 select, and so was a branch per value; BENCHMARKS.md has the
/// function's numbers). Other layouts element by element, writing the hits.
#[inline(always)]
fn substitute<S, E, D>(a: &mut ArrayBase<S, D>, new: E, hit: impl Fn(E) -> bool)
where
    S: DataMut<Elem = E>,
    E: Element,
    D: Dimension,
{
    if let Some(xs) = a.as_slice_memory_order_mut() {
        for x in xs.iter_mut() {
            *x = if hit(*x) { new } else { *x };
        }
    } else {
        a.map_inplace(|x| {
            if hit(*x) {
                *x = new;
            }
        });
    }
}
