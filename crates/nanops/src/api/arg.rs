//! `nanargmin` / `nanargmax`: the index of the first extremum along one axis,
//! or in the array flattened in C order.

use crate::element::Element;
use crate::error::{ensure_memory, Error, Result};
use crate::options::Axes;
use crate::reduce::{arg_slice, reduce, ArgReducer};
use crate::states::ArgExtremum;
use crate::statistic::{sealed::Sealed, Report, Statistic};
use ndarray::{ArrayD, ArrayView1, ArrayViewD, Axis, IxDyn, Zip};

/// [`nanargmin`](crate::nanargmin) (`MAX = false`) or
/// [`nanargmax`](crate::nanargmax) (`MAX = true`): over one axis, or over
/// every axis ([`Axes::All`]: the index in the array flattened in C order).
/// An all-NaN slice is an error, not a degenerate count.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NanArg<const MAX: bool>;

/// [`NanArg`] of the minimum.
pub type NanArgMin = NanArg<false>;
/// [`NanArg`] of the maximum.
pub type NanArgMax = NanArg<true>;

impl<const MAX: bool> Sealed for NanArg<MAX> {}

impl<E: Element, const MAX: bool> Statistic<E> for NanArg<MAX> {
    type Output = usize;
    fn compute(&self, view: &ArrayViewD<'_, E>, axes: &Axes) -> Result<Report<usize>> {
        let op = if MAX { "argmax" } else { "argmin" };
        let values = match axes {
            Axes::All => flat::<E, MAX>(view, op)?,
            Axes::One(axis) => along::<E, MAX>(view, *axis, op)?,
            Axes::Many(v) if v.len() == 1 => along::<E, MAX>(view, v[0], op)?,
            Axes::Many(_) => return Err(Error::TooManyAxes { op }),
        };
        Ok(Report {
            values,
            degenerate: 0,
        })
    }
}

/// Index of the first extremum of one lane.
fn lane_arg<E: Element, const MAX: bool>(lane: ArrayView1<'_, E>) -> Option<usize> {
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
    let (values, all_nan) = reduce(view, axes, &ArgReducer::<MAX>);
    if all_nan > 0 {
        return Err(Error::AllNanSlice);
    }
    Ok(values)
}

/// The index of the first extremum of the view flattened in C order (0-d).
fn flat<E: Element, const MAX: bool>(
    view: &ArrayViewD<'_, E>,
    op: &'static str,
) -> Result<ArrayD<usize>> {
    if view.is_empty() {
        return Err(Error::EmptyReduction { op });
    }
    if view.is_standard_layout() {
        // C order is memory order: one contiguous lane (a 0-d result).
        let all: Vec<usize> = (0..view.ndim()).collect();
        return planned::<E, MAX>(view, &all);
    }
    let found = match view.as_slice() {
        Some(xs) => lane_arg::<E, MAX>(ArrayView1::from(xs)),
        None => {
            let mut st = ArgExtremum::<E, MAX>::default();
            view.iter().enumerate().for_each(|(i, &x)| st.push(x, i));
            st.get().map(|(_, i)| i)
        }
    };
    let i = found.ok_or(Error::AllNanSlice)?;
    Ok(ArrayD::from_elem(IxDyn(&[]), i))
}

/// The index of the first extremum of every lane along `axis`.
fn along<E: Element, const MAX: bool>(
    view: &ArrayViewD<'_, E>,
    axis: isize,
    op: &'static str,
) -> Result<ArrayD<usize>> {
    let k = Axes::One(axis).normalize(view.ndim())?[0];
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
        return planned::<E, MAX>(view, &[k]);
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
