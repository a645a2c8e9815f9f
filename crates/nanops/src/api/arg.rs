//! `nanargmin` / `nanargmax`: the index of the first extremum along one axis.

use crate::element::Element;
use crate::error::{ensure_memory, Error, Result};
use crate::kernels::{arg_slice, ArgReducer};
use crate::states::ArgExtremum;
use ndarray::{ArrayBase, ArrayD, ArrayViewD, Axis, Data, Dimension, IxDyn, Zip};

/// Index of the first extremum of one lane.
fn lane_arg<E: Element, const MAX: bool>(lane: ndarray::ArrayView1<'_, E>) -> Option<usize> {
    if let Some(xs) = lane.as_slice() {
        return arg_slice::<E, MAX>(xs).map(|(_, i)| i);
    }
    let mut st = ArgExtremum::<E, MAX>::default();
    lane.iter().enumerate().for_each(|(i, &x)| st.push(x, i));
    st.get().map(|(_, i)| i)
}

/// Through the planner and the one-pass kernel: `axes` is one axis with a
/// non-negative stride, or every axis of a C-contiguous view, so plan order
/// along the reduced dimension is the logical order.
fn planned<E: Element, const MAX: bool>(
    view: &ArrayViewD<'_, E>,
    axes: &[usize],
) -> Result<ArrayD<usize>> {
    let (values, all_nan) = crate::par::reduce(view, axes, &ArgReducer::<MAX>);
    if all_nan > 0 {
        return Err(Error::AllNanSlice);
    }
    Ok(values)
}

fn arg<S, E, D, const MAX: bool>(a: &ArrayBase<S, D>, axis: Option<isize>) -> Result<ArrayD<usize>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
{
    let op = if MAX { "argmax" } else { "argmin" };
    let view = a.view().into_dyn();
    let Some(axis) = axis else {
        if view.is_empty() {
            return Err(Error::EmptyReduction { op });
        }
        if view.is_standard_layout() {
            // C order is memory order: one contiguous lane.
            let all: Vec<usize> = (0..view.ndim()).collect();
            return planned::<E, MAX>(&view, &all);
        }
        let flat = match view.as_slice() {
            Some(xs) => lane_arg::<E, MAX>(ndarray::ArrayView1::from(xs)),
            None => {
                let mut st = ArgExtremum::<E, MAX>::default();
                view.iter().enumerate().for_each(|(i, &x)| st.push(x, i));
                st.get().map(|(_, i)| i)
            }
        };
        let i = flat.ok_or(Error::AllNanSlice)?;
        return Ok(ArrayD::from_elem(IxDyn(&[]), i));
    };
    let k = crate::Axes::One(axis).normalize(view.ndim())?[0];
    let mut out_shape = view.shape().to_vec();
    out_shape.remove(k);
    if out_shape.iter().product::<usize>() == 0 {
        return Ok(ArrayD::zeros(IxDyn(&out_shape)));
    }
    if view.len_of(Axis(k)) == 0 {
        return Err(Error::EmptyReduction { op });
    }
    ensure_memory(&[(out_shape.iter().product(), std::mem::size_of::<usize>())])?;
    if view.strides()[k] >= 0 {
        // The planner keeps a non-negative reduced stride in logical order.
        return planned::<E, MAX>(&view, &[k]);
    }
    let mut out = ArrayD::<usize>::zeros(IxDyn(&out_shape));
    let mut all_nan = false;
    Zip::from(&mut out)
        .and(view.lanes(Axis(k)))
        .for_each(|o, lane| match lane_arg::<E, MAX>(lane) {
            Some(i) => *o = i,
            None => all_nan = true,
        });
    if all_nan {
        return Err(Error::AllNanSlice);
    }
    Ok(out)
}

/// Index of the first minimum along `axis`, ignoring NaN.
///
/// `axis = None` indexes the array flattened in C (row-major) order and gives
/// a 0-d result. Ties go to the first index, as NumPy.
///
/// # Errors
/// [`Error::AllNanSlice`] when a slice holds only NaN, [`Error::EmptyReduction`]
/// for an empty slice, axis errors.
///
/// ```
/// use ndarray::array;
/// let a = array![[f64::NAN, 4.0, 1.0], [2.0, 2.0, f64::NAN]];
/// assert_eq!(nanops::nanargmin(&a, Some(1)).unwrap(), array![2, 0].into_dyn());
/// assert_eq!(nanops::nanargmin(&a, None).unwrap()[[]], 2);
/// ```
pub fn nanargmin<S, E, D>(a: &ArrayBase<S, D>, axis: Option<isize>) -> Result<ArrayD<usize>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
{
    arg::<S, E, D, false>(a, axis)
}

/// Index of the first maximum along `axis`, ignoring NaN; see [`nanargmin`].
///
/// # Errors
/// As [`nanargmin`].
///
/// ```
/// use ndarray::array;
/// let a = array![f64::NAN, 4.0, 4.0];
/// assert_eq!(nanops::nanargmax(&a, Some(0)).unwrap()[[]], 1);
/// assert!(nanops::nanargmax(&array![f64::NAN], None).is_err());
/// ```
pub fn nanargmax<S, E, D>(a: &ArrayBase<S, D>, axis: Option<isize>) -> Result<ArrayD<usize>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
{
    arg::<S, E, D, true>(a, axis)
}
