//! Bindings of the streaming reductions (see `_nanops.pyi` for the contract).

use crate::dispatch::{dispatch_all, readonly, PyElement};
use crate::errors::guard;
use nanops::{Axes, Report};
use ndarray::{ArrayD, ArrayView, Dimension};
use numpy::{PyArray, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;

type Out<'py> = PyResult<Bound<'py, PyAny>>;
type Flagged<'py> = PyResult<(Bound<'py, PyAny>, bool)>;

/// The result as a new array, or as a NumPy scalar when it is 0-d and the
/// caller asked for one (`scalar`: the fast entry points of `fast.rs`).
fn to_py<'py, T: numpy::Element>(py: Python<'py>, a: ArrayD<T>, scalar: bool) -> Out<'py> {
    if scalar && a.ndim() == 0 {
        if let Some(x) = a.first() {
            return crate::dispatch::numpy_scalar(py, x);
        }
    }
    Ok(PyArray::from_owned_array(py, a).into_any())
}

/// `a` cast element by element to `int64` (NumPy's `intp` here: indices and
/// counts), in the same buffer: collecting a `Vec`'s `into_iter().map()`
/// into a `Vec` of a type of the same size reuses the allocation, where
/// `mapv` filled a second array (0.05-0.08 ms of a (100000, 10)
/// `nanargmax` that takes 0.37-0.42 ms without).
fn to_intp<T: Copy>(a: ArrayD<T>, cast: impl Fn(T) -> i64) -> ArrayD<i64> {
    if !a.is_standard_layout() {
        return a.mapv(cast);
    }
    let (shape, n) = (a.raw_dim(), a.len());
    let (v, offset) = a.into_raw_vec_and_offset();
    let off = offset.unwrap_or(0);
    let v: Vec<i64> = if off == 0 && v.len() == n {
        v.into_iter().map(cast).collect()
    } else {
        v[off..off + n].iter().map(|&x| cast(x)).collect()
    };
    ArrayD::from_shape_vec(shape, v).expect("C order, as many values as the shape")
}

fn flagged<'py, T: numpy::Element>(py: Python<'py>, r: Report<T>, scalar: bool) -> Flagged<'py> {
    Ok((to_py(py, r.values, scalar)?, r.degenerate > 0))
}

/// Defines `$name_impl::<E>` (the array borrowed, then `$of_name`) and
/// `$of_name::<E, D>` running `$call(&view, axes)` and returning the array
/// (the `_of` form also serves the whole-array fast path of `fast.rs`).
macro_rules! plain {
    ($impl_name:ident, $of_name:ident, $call:path, $out:ident) => {
        pub(crate) fn $impl_name<'py, E: PyElement>(
            a: &Bound<'py, PyUntypedArray>,
            axes: Vec<usize>,
            scalar: bool,
        ) -> Out<'py>
        where
            E::$out: numpy::Element,
        {
            let ro = readonly::<E>(a)?;
            $of_name(a.py(), &ro.as_array(), Axes::from(axes), scalar)
        }

        pub(crate) fn $of_name<'py, E: PyElement, D: Dimension>(
            py: Python<'py>,
            v: &ArrayView<'_, E, D>,
            axes: Axes,
            scalar: bool,
        ) -> Out<'py>
        where
            E::$out: numpy::Element,
        {
            let r = guard(py, v.len(), || $call(v, axes))?;
            to_py(py, r, scalar)
        }
    };
}
plain!(sum_impl, sum_of, nanops::nansum, Sum);
plain!(prod_impl, prod_of, nanops::nanprod, Sum);

fn count_impl<'py, E: PyElement>(a: &Bound<'py, PyUntypedArray>, axes: Vec<usize>) -> Out<'py> {
    let ro = readonly::<E>(a)?;
    let v = ro.as_array();
    let r = guard(a.py(), a.len(), || nanops::nancount(&v, Axes::from(axes)))?;
    to_py(a.py(), to_intp(r, |c| c as i64), false)
}

pub(crate) fn mean_impl<'py, E: PyElement>(
    a: &Bound<'py, PyUntypedArray>,
    axes: Vec<usize>,
    scalar: bool,
) -> Flagged<'py>
where
    E::Mean: numpy::Element,
{
    let ro = readonly::<E>(a)?;
    mean_of(a.py(), &ro.as_array(), Axes::from(axes), scalar)
}

/// [`mean_impl`] of a view.
pub(crate) fn mean_of<'py, E: PyElement, D: Dimension>(
    py: Python<'py>,
    v: &ArrayView<'_, E, D>,
    axes: Axes,
    scalar: bool,
) -> Flagged<'py>
where
    E::Mean: numpy::Element,
{
    let r = guard(py, v.len(), || nanops::nanmean_report(v, axes))?;
    flagged(py, r, scalar)
}

pub(crate) fn var_impl<'py, E: PyElement>(
    a: &Bound<'py, PyUntypedArray>,
    axes: Vec<usize>,
    ddof: f64,
    std: bool,
    scalar: bool,
) -> Flagged<'py>
where
    E::Var: numpy::Element,
{
    let ro = readonly::<E>(a)?;
    var_of(a.py(), &ro.as_array(), Axes::from(axes), ddof, std, scalar)
}

/// [`var_impl`] of a view.
pub(crate) fn var_of<'py, E: PyElement, D: Dimension>(
    py: Python<'py>,
    v: &ArrayView<'_, E, D>,
    axes: Axes,
    ddof: f64,
    std: bool,
    scalar: bool,
) -> Flagged<'py>
where
    E::Var: numpy::Element,
{
    let r = guard(py, v.len(), || {
        if std {
            nanops::nanstd_report(v, axes, ddof)
        } else {
            nanops::nanvar_report(v, axes, ddof)
        }
    })?;
    flagged(py, r, scalar)
}

pub(crate) fn extremum_impl<'py, E: PyElement>(
    a: &Bound<'py, PyUntypedArray>,
    axes: Vec<usize>,
    max: bool,
    scalar: bool,
) -> Flagged<'py> {
    let ro = readonly::<E>(a)?;
    extremum_of(a.py(), &ro.as_array(), Axes::from(axes), max, scalar)
}

/// [`extremum_impl`] of a view.
pub(crate) fn extremum_of<'py, E: PyElement, D: Dimension>(
    py: Python<'py>,
    v: &ArrayView<'_, E, D>,
    axes: Axes,
    max: bool,
    scalar: bool,
) -> Flagged<'py> {
    let r = guard(py, v.len(), || {
        if max {
            nanops::nanmax_report(v, axes)
        } else {
            nanops::nanmin_report(v, axes)
        }
    })?;
    flagged(py, r, scalar)
}

pub(crate) fn arg_impl<'py, E: PyElement>(
    a: &Bound<'py, PyUntypedArray>,
    axis: Option<isize>,
    max: bool,
    scalar: bool,
) -> Out<'py> {
    let ro = readonly::<E>(a)?;
    arg_of(a.py(), &ro.as_array(), axis, max, scalar)
}

/// [`arg_impl`] of a view.
pub(crate) fn arg_of<'py, E: PyElement, D: Dimension>(
    py: Python<'py>,
    v: &ArrayView<'_, E, D>,
    axis: Option<isize>,
    max: bool,
    scalar: bool,
) -> Out<'py> {
    let r = guard(py, v.len(), || {
        if max {
            nanops::nanargmax(v, axis)
        } else {
            nanops::nanargmin(v, axis)
        }
    })?;
    to_py(py, to_intp(r, |i| i as i64), scalar)
}

fn cumulative_impl<'py, E: PyElement>(
    a: &Bound<'py, PyUntypedArray>,
    axis: Option<isize>,
    prod: bool,
) -> Out<'py>
where
    E::Sum: numpy::Element,
{
    let ro = readonly::<E>(a)?;
    let v = ro.as_array();
    let r = guard(a.py(), a.len(), || {
        if prod {
            nanops::nancumprod(&v, axis)
        } else {
            nanops::nancumsum(&v, axis)
        }
    })?;
    to_py(a.py(), r, false)
}

/// Sum of non-NaN values.
#[pyfunction]
fn nansum<'py>(a: &Bound<'py, PyUntypedArray>, axes: Vec<usize>) -> Out<'py> {
    dispatch_all!(a, sum_impl(axes, false))
}

/// Product of non-NaN values.
#[pyfunction]
fn nanprod<'py>(a: &Bound<'py, PyUntypedArray>, axes: Vec<usize>) -> Out<'py> {
    dispatch_all!(a, prod_impl(axes, false))
}

/// Number of non-NaN values.
#[pyfunction]
fn nancount<'py>(a: &Bound<'py, PyUntypedArray>, axes: Vec<usize>) -> Out<'py> {
    dispatch_all!(a, count_impl(axes))
}

/// Mean of non-NaN values, and whether a slice was empty.
#[pyfunction]
fn nanmean<'py>(a: &Bound<'py, PyUntypedArray>, axes: Vec<usize>) -> Flagged<'py> {
    dispatch_all!(a, mean_impl(axes, false))
}

/// Variance (or standard deviation) of non-NaN values, and whether a slice had `count - ddof <= 0`.
#[pyfunction]
fn nanvar<'py>(
    a: &Bound<'py, PyUntypedArray>,
    axes: Vec<usize>,
    ddof: f64,
    std: bool,
) -> Flagged<'py> {
    dispatch_all!(a, var_impl(axes, ddof, std, false))
}

/// Minimum ignoring NaN, and whether a slice was all-NaN.
#[pyfunction]
fn nanmin<'py>(a: &Bound<'py, PyUntypedArray>, axes: Vec<usize>) -> Flagged<'py> {
    dispatch_all!(a, extremum_impl(axes, false, false))
}

/// Maximum ignoring NaN, and whether a slice was all-NaN.
#[pyfunction]
fn nanmax<'py>(a: &Bound<'py, PyUntypedArray>, axes: Vec<usize>) -> Flagged<'py> {
    dispatch_all!(a, extremum_impl(axes, true, false))
}

/// Index of the first minimum ignoring NaN.
#[pyfunction]
#[pyo3(signature = (a, axis))]
fn nanargmin<'py>(a: &Bound<'py, PyUntypedArray>, axis: Option<isize>) -> Out<'py> {
    dispatch_all!(a, arg_impl(axis, false, false))
}

/// Index of the first maximum ignoring NaN.
#[pyfunction]
#[pyo3(signature = (a, axis))]
fn nanargmax<'py>(a: &Bound<'py, PyUntypedArray>, axis: Option<isize>) -> Out<'py> {
    dispatch_all!(a, arg_impl(axis, true, false))
}

/// Cumulative sum, NaN as zero.
#[pyfunction]
#[pyo3(signature = (a, axis))]
fn nancumsum<'py>(a: &Bound<'py, PyUntypedArray>, axis: Option<isize>) -> Out<'py> {
    dispatch_all!(a, cumulative_impl(axis, false))
}

/// Cumulative product, NaN as one.
#[pyfunction]
#[pyo3(signature = (a, axis))]
fn nancumprod<'py>(a: &Bound<'py, PyUntypedArray>, axis: Option<isize>) -> Out<'py> {
    dispatch_all!(a, cumulative_impl(axis, true))
}

/// Adds the streaming functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(nansum, m)?)?;
    m.add_function(wrap_pyfunction!(nanprod, m)?)?;
    m.add_function(wrap_pyfunction!(nancount, m)?)?;
    m.add_function(wrap_pyfunction!(nanmean, m)?)?;
    m.add_function(wrap_pyfunction!(nanvar, m)?)?;
    m.add_function(wrap_pyfunction!(nanmin, m)?)?;
    m.add_function(wrap_pyfunction!(nanmax, m)?)?;
    m.add_function(wrap_pyfunction!(nanargmin, m)?)?;
    m.add_function(wrap_pyfunction!(nanargmax, m)?)?;
    m.add_function(wrap_pyfunction!(nancumsum, m)?)?;
    m.add_function(wrap_pyfunction!(nancumprod, m)?)?;
    Ok(())
}
