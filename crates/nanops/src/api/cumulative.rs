//! `nancumsum` / `nancumprod`: running totals treating NaN as the identity.

use crate::element::{Accumulator, Element};
use crate::error::{ensure_memory, Result};
use ndarray::{ArrayBase, ArrayD, Axis, Data, Dimension, IxDyn};

/// Running totals in `T` (`widen` maps a value, NaN included, into it),
/// rounded to the result type by `finish`.
fn cumulative<S, E, D, T>(
    a: &ArrayBase<S, D>,
    axis: Option<isize>,
    widen: impl Fn(&E) -> T,
    op: impl Fn(T, T) -> T,
    finish: impl Fn(T) -> E::Sum,
) -> Result<ArrayD<E::Sum>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
    T: Accumulator,
{
    let k = axis
        .map(|axis| crate::Axes::One(axis).normalize(a.ndim()))
        .transpose()?
        .map(|k| k[0]);
    // The running totals (in `T`) and the result (in `E::Sum`), both input-sized.
    ensure_memory(&[(
        a.len(),
        std::mem::size_of::<T>() + std::mem::size_of::<E::Sum>(),
    )])?;
    let (mut acc, k) = match k {
        None => {
            let flat: Vec<T> = a.iter().map(widen).collect();
            (
                ArrayD::from_shape_vec(IxDyn(&[flat.len()]), flat).expect("1-d"),
                0,
            )
        }
        Some(k) => (a.map(widen).into_dyn(), k),
    };
    if !acc.is_empty() {
        acc.accumulate_axis_inplace(Axis(k), |&prev, cur| *cur = op(prev, *cur));
    }
    Ok(acc.mapv(finish))
}

/// Cumulative sum along `axis`, NaN counted as zero.
///
/// ```text
/// out[i] = Σ_{j ≤ i} (x[j] if x[j] is not NaN else 0)
/// ```
/// `axis = None` runs over the array flattened in C order (a 1-d result).
/// Running totals are kept in [`Element::Acc`] and rounded per element,
/// except for `f16`/`bf16` (accumulated in `f32`): their running totals are
/// kept in `f64` ([`Accumulator::Running`]), since a plain `f32` running
/// total stops absorbing small values once it is large (a million float16
/// values, cancelling pairs up to 1e4 and small ones, ended at 3066 instead
/// of 4499).
///
/// # Errors
/// Axis errors.
///
/// ```
/// use ndarray::array;
/// let a = array![1.0, f64::NAN, 2.0];
/// assert_eq!(nanops::nancumsum(&a, Some(0)).unwrap(), array![1.0, 1.0, 3.0].into_dyn());
/// ```
pub fn nancumsum<S, E, D>(a: &ArrayBase<S, D>, axis: Option<isize>) -> Result<ArrayD<E::Sum>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
{
    let widen = |&x: &E| {
        if x.is_nan_value() {
            <E::Acc as Accumulator>::Running::zero()
        } else {
            x.to_acc().to_running()
        }
    };
    cumulative(a, axis, widen, Accumulator::add, |r| {
        E::sum_from_acc(E::Acc::from_running(r))
    })
}

/// Cumulative product along `axis`, NaN counted as one.
///
/// # Errors
/// Axis errors.
///
/// ```
/// use ndarray::array;
/// let a = array![[2.0, f64::NAN], [3.0, 4.0]];
/// assert_eq!(nanops::nancumprod(&a, None).unwrap(), array![2.0, 2.0, 6.0, 24.0].into_dyn());
/// ```
pub fn nancumprod<S, E, D>(a: &ArrayBase<S, D>, axis: Option<isize>) -> Result<ArrayD<E::Sum>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
{
    let widen = |&x: &E| {
        if x.is_nan_value() {
            E::Acc::one()
        } else {
            x.to_acc()
        }
    };
    cumulative(a, axis, widen, Accumulator::mul, E::sum_from_acc)
}
