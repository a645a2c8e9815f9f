//! `nancumsum` / `nancumprod`: running totals treating NaN as the identity.

use crate::element::{Accumulator, Element};
use crate::error::Result;
use ndarray::{ArrayBase, ArrayD, Axis, Data, Dimension, IxDyn};

fn cumulative<S, E, D>(
    a: &ArrayBase<S, D>,
    axis: Option<isize>,
    identity: E::Acc,
    op: impl Fn(E::Acc, E::Acc) -> E::Acc,
) -> Result<ArrayD<E::Sum>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
{
    let widen = |&x: &E| {
        if x.is_nan_value() {
            identity
        } else {
            x.to_acc()
        }
    };
    let (mut acc, k) = match axis {
        None => {
            let flat: Vec<E::Acc> = a.iter().map(widen).collect();
            (
                ArrayD::from_shape_vec(IxDyn(&[flat.len()]), flat).expect("1-d"),
                0,
            )
        }
        Some(axis) => {
            let k = crate::Axes::One(axis).normalize(a.ndim())?[0];
            (a.map(widen).into_dyn(), k)
        }
    };
    if !acc.is_empty() {
        acc.accumulate_axis_inplace(Axis(k), |&prev, cur| *cur = op(prev, *cur));
    }
    Ok(acc.mapv(E::sum_from_acc))
}

/// Cumulative sum along `axis`, NaN counted as zero.
///
/// ```text
/// out[i] = Σ_{j ≤ i} (x[j] if x[j] is not NaN else 0)
/// ```
/// `axis = None` runs over the array flattened in C order (a 1-d result).
/// Running totals are kept in [`Element::Acc`] and rounded per element.
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
    cumulative(a, axis, E::Acc::zero(), Accumulator::add)
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
    cumulative(a, axis, E::Acc::one(), Accumulator::mul)
}
