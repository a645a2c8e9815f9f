//! Running a statistic of the core with the GIL released, and its result
//! as the Python object the primitives return.

use crate::errors::guard;
use nanops::stats::SumOfSquares;
use nanops::{Axes, Report, Statistic};
use ndarray::{ArrayD, ArrayView, Dimension};
use numpy::{
    PyArray, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyTuple};

use crate::array::{with_array, PyElement};

/// A primitive's result: an array, or a NumPy scalar for a 0-d result when
/// asked for one.
pub type Out<'py> = PyResult<Bound<'py, PyAny>>;
/// A result with a flag: whether some slice was degenerate (empty or
/// all-NaN; `count − ddof ≤ 0` for variances), where NumPy warns.
pub type Flagged<'py> = PyResult<(Bound<'py, PyAny>, bool)>;

/// `x` as a NumPy scalar of its dtype (`numpy.float64(x)`, …), made by
/// NumPy's `PyArray_Scalar` without a 0-d array in between.
pub fn numpy_scalar<'py, T: numpy::Element>(py: Python<'py>, x: &T) -> PyResult<Bound<'py, PyAny>> {
    use numpy::PyArrayDescrMethods;
    let descr = numpy::dtype::<T>(py);
    // SAFETY: `x` is a valid value of the dtype `descr` describes (the
    // `numpy::Element` contract); `PyArray_Scalar` copies it and returns a
    // new reference (or NULL with an exception set: a `MemoryError`).
    unsafe {
        let obj = numpy::npyffi::PY_ARRAY_API.PyArray_Scalar(
            py,
            (x as *const T).cast_mut().cast(),
            descr.as_dtype_ptr(),
            std::ptr::null_mut(),
        );
        Bound::from_owned_ptr_or_err(py, obj)
    }
}

/// The result as a new array, or as a NumPy scalar when it is 0-d and the
/// caller asked for one (`scalar`: the fast entry points).
pub fn to_py<'py, T: numpy::Element>(py: Python<'py>, a: ArrayD<T>, scalar: bool) -> Out<'py> {
    if scalar && a.ndim() == 0 {
        if let Some(x) = a.first() {
            return numpy_scalar(py, x);
        }
    }
    Ok(PyArray::from_owned_array(py, a).into_any())
}

/// Counts and indices, which NumPy returns as `int64` (`intp` here).
pub trait Index: Copy {
    /// The value as `int64`.
    fn as_i64(self) -> i64;
}

impl Index for u64 {
    fn as_i64(self) -> i64 {
        self as i64
    }
}

impl Index for usize {
    fn as_i64(self) -> i64 {
        self as i64
    }
}

/// `a` cast element by element to `int64`, in the same buffer: collecting a
/// `Vec`'s `into_iter().map()` into a `Vec` of a type of the same size reuses
/// the allocation, where `mapv` filled a second array (a pass over fresh
/// pages, a sizeable share of a short `nanargmax`).
pub fn to_intp<T: Index>(a: ArrayD<T>) -> ArrayD<i64> {
    if !a.is_standard_layout() {
        return a.mapv(T::as_i64);
    }
    let (shape, n) = (a.raw_dim(), a.len());
    let (v, offset) = a.into_raw_vec_and_offset();
    let off = offset.unwrap_or(0);
    let v: Vec<i64> = if off == 0 && v.len() == n {
        v.into_iter().map(T::as_i64).collect()
    } else {
        v[off..off + n].iter().map(|&x| x.as_i64()).collect()
    };
    ArrayD::from_shape_vec(shape, v).expect("C order, as many values as the shape")
}

/// A `(result, flag)` pair as a Python tuple.
pub fn pair<'py>(py: Python<'py>, (res, flag): (Bound<'py, PyAny>, bool)) -> Out<'py> {
    let flag = PyBool::new(py, flag).to_owned().into_any();
    Ok(PyTuple::new(py, [res, flag])?.into_any())
}

/// `stat` of `v` over `axes`, computed with the GIL released (unless `v` is
/// tiny), with the count of degenerate slices.
pub fn compute<E, D, T>(
    py: Python<'_>,
    v: &ArrayView<'_, E, D>,
    axes: Axes,
    stat: T,
) -> PyResult<Report<T::Output>>
where
    E: PyElement,
    D: Dimension,
    T: Statistic<E> + Send,
    T::Output: Send,
{
    guard(py, v.len(), || nanops::report(v, axes, stat))
}

/// The values of `stat` (an array, or a scalar if `scalar` and 0-d).
pub fn values<'py, E, D, T>(
    py: Python<'py>,
    v: &ArrayView<'_, E, D>,
    axes: Axes,
    stat: T,
    scalar: bool,
) -> Out<'py>
where
    E: PyElement,
    D: Dimension,
    T: Statistic<E> + Send,
    T::Output: numpy::Element + Send,
{
    to_py(py, compute(py, v, axes, stat)?.values, scalar)
}

/// The values of `stat` as `int64` (counts, indices).
pub fn indices<'py, E, D, T>(
    py: Python<'py>,
    v: &ArrayView<'_, E, D>,
    axes: Axes,
    stat: T,
    scalar: bool,
) -> Out<'py>
where
    E: PyElement,
    D: Dimension,
    T: Statistic<E> + Send,
    T::Output: Index + Send,
{
    to_py(py, to_intp(compute(py, v, axes, stat)?.values), scalar)
}

/// The values of `stat` and whether some slice was degenerate.
pub fn flagged<'py, E, D, T>(
    py: Python<'py>,
    v: &ArrayView<'_, E, D>,
    axes: Axes,
    stat: T,
    scalar: bool,
) -> Flagged<'py>
where
    E: PyElement,
    D: Dimension,
    T: Statistic<E> + Send,
    T::Output: numpy::Element + Send,
{
    let r = compute(py, v, axes, stat)?;
    Ok((to_py(py, r.values, scalar)?, r.degenerate > 0))
}

/// bottleneck's `ss` of `x` over `axes` (the primitive and the fast entry
/// point): `nansum`'s result type, except int32, which keeps its type as
/// bottleneck's result does. The int64 sum wrapped to 32 bits is
/// bottleneck's int32 sum wrapping as it goes: both are the sum modulo 2³².
pub fn sum_of_squares<'py>(
    x: &Bound<'py, PyUntypedArray>,
    axes: Vec<usize>,
    scalar: bool,
) -> Out<'py> {
    let py = x.py();
    if x.dtype().is_equiv_to(&numpy::dtype::<i32>(py)) {
        let ints = x.cast::<PyArrayDyn<i32>>()?.readonly();
        let sums = compute(py, &ints.as_array(), Axes::from(axes), SumOfSquares)?.values;
        return to_py(py, sums.mapv(|s: i64| s as i32), scalar);
    }
    with_array!(x, all, |v: E| values(
        py,
        &v,
        Axes::from(axes),
        SumOfSquares,
        scalar
    ))
}
