//! Fast entry points: the common call (`nanops.nansum(a)`, `axis=k`) checked
//! and computed in one step.
//!
//! Each `fast_*` function takes the caller's `a` and `axis` as they are. When
//! `a` is a base-class, aligned, native-byte-order ndarray of a kernel dtype
//! (at most [`MAX_NDIM`] dimensions) and `axis` is `None` or an in-range
//! `int`, it returns the result, a 0-d result as a NumPy scalar; otherwise it
//! returns `NotImplemented` and the Python layer takes its general path. The
//! checks cost a few attribute reads here instead of a dozen Python
//! operations, which is most of a 1,000-element call.

use crate::array::{strides_whole, with_array, PyElement, MAX_NDIM};
use crate::compute::{
    compute, flagged, indices, numpy_scalar, pair, sum_of_squares, to_intp, to_py, values, Out,
};
use crate::errors::{guard, KEEP_GIL_BELOW};
use crate::quantile::{quantile_values, Request};
use nanops::stats::{
    AllNan, AnyNan, Median, NanArgMax, NanArgMin, NanMax, NanMean, NanMin, NanProd, NanStd, NanSum,
    NanVar,
};
use nanops::{Axes, Ddof, NanPolicy, QDtype, QuantileMethod};
use ndarray::{ArrayView, ArrayView1, Dimension};
use numpy::{
    npyffi::PyArray_CheckExact, PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::exceptions::PyRuntimeWarning;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyList, PyString, PyTuple};

/// Which dtypes a function's fast path takes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Dtypes {
    /// bool, integers, floats and complex (sum, prod, min, max, argmin, argmax).
    Kernel,
    /// Floats and complex only (mean, var, std: NumPy has its own rules for
    /// integer corner cases, which the general path handles).
    Inexact,
    /// bool, integers and floats (median: complex goes to NumPy).
    Real,
    /// Real floats only (quantiles of a float `q`: the result keeps the dtype).
    Float,
}

/// Whether `a`'s dtype is a native-order kernel dtype of `want`.
///
/// By type number, not by equivalence: `long long` is equivalent to `long`
/// but NumPy answers it with its own type char, which the primitives (they
/// return `long`) would not; such inputs take the general path.
fn dtype_fits(a: &Bound<'_, PyUntypedArray>, want: Dtypes) -> bool {
    use numpy::npyffi::NPY_TYPES as T;
    let d = a.dtype();
    if d.is_native_byteorder() == Some(false) {
        return false;
    }
    let num = d.num();
    let is = |t: T| num == t as std::ffi::c_int;
    let inexact = [
        T::NPY_HALF,
        T::NPY_FLOAT,
        T::NPY_DOUBLE,
        T::NPY_CFLOAT,
        T::NPY_CDOUBLE,
    ];
    let exact = [
        T::NPY_BOOL,
        T::NPY_BYTE,
        T::NPY_UBYTE,
        T::NPY_SHORT,
        T::NPY_USHORT,
        T::NPY_INT,
        T::NPY_UINT,
        T::NPY_LONG,
        T::NPY_ULONG,
    ];
    match want {
        Dtypes::Kernel => inexact.into_iter().chain(exact).any(is),
        Dtypes::Inexact => inexact.into_iter().any(is),
        Dtypes::Real => inexact[..3].iter().copied().chain(exact).any(is),
        Dtypes::Float => inexact[..3].iter().copied().any(is),
    }
}

/// `axis` as an in-range axis of an `ndim`-array: `Ok(None)` for `None`,
/// `Err(())` for anything the fast path does not take (a tuple, a bool, a
/// NumPy integer, an out-of-range int: the general path raises NumPy's error).
fn fast_axis(axis: &Bound<'_, PyAny>, ndim: usize) -> Result<Option<usize>, ()> {
    if axis.is_none() {
        return Ok(None);
    }
    if !axis.is_exact_instance_of::<PyInt>() {
        return Err(());
    }
    let k: isize = axis.extract().map_err(|_| ())?;
    let nd = ndim as isize;
    match k {
        0.. if k < nd => Ok(Some(k as usize)),
        ..0 if k >= -nd => Ok(Some((k + nd) as usize)),
        _ => Err(()),
    }
}

/// `a` as an array for the fast path, with its one axis (`None`: all), or
/// `None` when the general path must run.
fn fast_input<'py>(
    a: &Bound<'py, PyAny>,
    axis: &Bound<'py, PyAny>,
    want: Dtypes,
) -> Option<(Bound<'py, PyUntypedArray>, Option<usize>)> {
    // SAFETY: `a` is a valid object pointer; the check only reads its type.
    if unsafe { PyArray_CheckExact(a.py(), a.as_ptr()) } == 0 {
        return None;
    }
    let arr = a.cast::<PyUntypedArray>().ok()?;
    if arr.ndim() > MAX_NDIM || !arr.is_aligned() || !strides_whole(arr) || !dtype_fits(arr, want) {
        return None;
    }
    let axis = fast_axis(axis, arr.ndim()).ok()?;
    Some((arr.clone(), axis))
}

/// Which memory orders [`whole_slice`] takes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Order {
    /// C or Fortran: the order of the values does not matter to the result.
    Any,
    /// C only: the result is a position in C order (`nanargmin`).
    C,
}

/// The values of a whole `float64` or `float32` array.
enum WholeFloat<'a> {
    F64(&'a [f64]),
    F32(&'a [f32]),
}

/// The values of a whole array `a` as one slice, for the calls that reduce
/// all of it (`axis` is `None`): an exact, non-empty `float64` or `float32`
/// ndarray in native byte order, aligned and contiguous in `order`, small
/// enough to be read with the GIL held ([`KEEP_GIL_BELOW`], as
/// [`crate::array::AnyArray::borrow`] does). `None` otherwise. No typed cast and no `ndarray` view of the
/// `numpy` crate: half the cost of a 1,000-value median call. The core
/// reduces a whole contiguous array as one lane in memory order whatever its
/// view's shape, so the result is the general path's, bit for bit.
fn whole_slice<'a>(
    a: &'a Bound<'_, PyAny>,
    axis: &Bound<'_, PyAny>,
    order: Order,
) -> Option<WholeFloat<'a>> {
    whole_values(a, axis, order, false)
}

/// [`whole_slice`], or with `head_of_large` the first [`KEEP_GIL_BELOW`]
/// values of a whole array at least that large (read with the GIL held,
/// for the calls whose answer often lies there: `anynan`, `allnan`).
fn whole_values<'a>(
    a: &'a Bound<'_, PyAny>,
    axis: &Bound<'_, PyAny>,
    order: Order,
    head_of_large: bool,
) -> Option<WholeFloat<'a>> {
    use numpy::npyffi::NPY_TYPES as T;
    if !axis.is_none() {
        return None;
    }
    // SAFETY: `a` is a valid object pointer; the check only reads its type.
    if unsafe { PyArray_CheckExact(a.py(), a.as_ptr()) } == 0 {
        return None;
    }
    let arr = a.cast::<PyUntypedArray>().ok()?;
    let n = arr.len();
    let contiguous = match order {
        Order::Any => arr.is_contiguous(),
        Order::C => arr.is_c_contiguous(),
    };
    if n == 0 || (n >= KEEP_GIL_BELOW) != head_of_large || !contiguous || !arr.is_aligned() {
        return None;
    }
    let n = n.min(KEEP_GIL_BELOW);
    let d = arr.dtype();
    if d.is_native_byteorder() == Some(false) {
        return None;
    }
    // SAFETY: the array holds `n` aligned values of its dtype (checked
    // above) in one contiguous block at `data`; it outlives the borrow of
    // `a`, and nothing writes it while this thread holds the GIL (see
    // `readonly`).
    let data = unsafe { (*arr.as_array_ptr()).fields.data };
    let num = d.num();
    if num == T::NPY_DOUBLE as std::ffi::c_int {
        // SAFETY: see above; the dtype is `float64`.
        Some(WholeFloat::F64(unsafe {
            std::slice::from_raw_parts(data.cast(), n)
        }))
    } else if num == T::NPY_FLOAT as std::ffi::c_int {
        // SAFETY: see above; the dtype is `float32`.
        Some(WholeFloat::F32(unsafe {
            std::slice::from_raw_parts(data.cast(), n)
        }))
    } else {
        None
    }
}

/// A streaming reduction of a whole array (`axis=None`), as the fast entry
/// points return it.
#[derive(Clone, Copy)]
enum Whole {
    /// `nansum`: the sum.
    Sum,
    /// `nanmean`: `(mean, all-NaN)`.
    Mean,
    /// `nanvar` (`std`: `nanstd`): `(value, count − ddof ≤ 0)`.
    Var { ddof: f64, std: bool },
    /// `nanmax` (`max = false`: `nanmin`): `(value, all-NaN)`.
    Extremum { max: bool },
    /// `nanargmax` (`max = false`: `nanargmin`): the position.
    Arg { max: bool },
}

impl Whole {
    /// The memory orders whose values the reduction takes as one slice.
    fn order(self) -> Order {
        match self {
            Whole::Arg { .. } => Order::C,
            _ => Order::Any,
        }
    }

    /// The reduction of the values `xs` (a whole array), as a NumPy scalar
    /// or a `(scalar, flag)` pair: the general fast path's functions, on a
    /// 1-d view of the values.
    fn run<'py, E>(self, py: Python<'py>, xs: &[E]) -> Out<'py>
    where
        E: PyElement,
        E::Sum: numpy::Element,
        E::Mean: numpy::Element,
        E::Var: numpy::Element,
    {
        let v = ArrayView1::from(xs);
        whole_or_axes(py, &v, Axes::All, self)
    }

    /// The reduction of a whole `float64` or `float32` array that
    /// [`whole_slice`] takes; `None` for any other input or axis.
    fn try_run<'py>(
        self,
        a: &Bound<'py, PyAny>,
        axis: &Bound<'py, PyAny>,
    ) -> Option<PyResult<Bound<'py, PyAny>>> {
        Some(match whole_slice(a, axis, self.order())? {
            WholeFloat::F64(xs) => self.run(a.py(), xs),
            WholeFloat::F32(xs) => self.run(a.py(), xs),
        })
    }
}

/// NumPy's `RuntimeWarning: All-NaN slice encountered`, `count` times,
/// attributed to the caller of the Python function that called the fast
/// entry point (stack level 2, where NumPy's `nanmedian` points).
fn warn_all_nan(py: Python<'_>, count: usize) -> PyResult<()> {
    let category = py.get_type::<PyRuntimeWarning>();
    for _ in 0..count {
        PyErr::warn(py, &category, c"All-NaN slice encountered", 2)?;
    }
    Ok(())
}

/// `NotImplemented`: the caller takes its general path.
fn declined<'py>(a: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    Ok(a.py().NotImplemented().into_bound(a.py()))
}

/// [`fast_input`] with the reduced axes spelled out (all for `None`);
/// `nonempty` also declines zero-size arrays (reductions NumPy rejects there).
fn fast_axes<'py>(
    a: &Bound<'py, PyAny>,
    axis: &Bound<'py, PyAny>,
    want: Dtypes,
    nonempty: bool,
) -> Option<(Bound<'py, PyUntypedArray>, Vec<usize>)> {
    let (x, ax) = fast_input(a, axis, want).filter(|(x, _)| !nonempty || x.len() > 0)?;
    let axes = match ax {
        Some(k) => vec![k],
        None => (0..x.ndim()).collect(),
    };
    Some((x, axes))
}

/// `what` of `v` over `axes`, as the fast entry points return it: a value
/// (a NumPy scalar when 0-d), or a `(value, flag)` pair.
fn whole_or_axes<'py, E, D>(
    py: Python<'py>,
    v: &ArrayView<'_, E, D>,
    axes: Axes,
    what: Whole,
) -> Out<'py>
where
    E: PyElement,
    D: Dimension,
    E::Sum: numpy::Element,
    E::Mean: numpy::Element,
    E::Var: numpy::Element,
{
    match what {
        Whole::Sum => values(py, v, axes, NanSum, true),
        Whole::Mean => pair(py, flagged(py, v, axes, NanMean, true)?),
        Whole::Var { ddof, std: false } => {
            pair(py, flagged(py, v, axes, NanVar(Ddof(ddof)), true)?)
        }
        Whole::Var { ddof, std: true } => pair(py, flagged(py, v, axes, NanStd(Ddof(ddof)), true)?),
        Whole::Extremum { max: false } => pair(py, flagged(py, v, axes, NanMin, true)?),
        Whole::Extremum { max: true } => pair(py, flagged(py, v, axes, NanMax, true)?),
        Whole::Arg { max: false } => indices(py, v, axes, NanArgMin::default(), true),
        Whole::Arg { max: true } => indices(py, v, axes, NanArgMax::default(), true),
    }
}

/// `nansum(a, axis)`, or `NotImplemented`.
#[pyfunction]
pub(crate) fn fast_nansum<'py>(
    a: &Bound<'py, PyAny>,
    axis: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    if let Some(result) = Whole::Sum.try_run(a, axis) {
        return result;
    }
    let Some((x, axes)) = fast_axes(a, axis, Dtypes::Kernel, false) else {
        return declined(a);
    };
    with_array!(&x, all, |v: E| values(
        a.py(),
        &v,
        Axes::from(axes),
        NanSum,
        true
    ))
}

/// `nanprod(a, axis)`, or `NotImplemented`.
#[pyfunction]
pub(crate) fn fast_nanprod<'py>(
    a: &Bound<'py, PyAny>,
    axis: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let Some((x, axes)) = fast_axes(a, axis, Dtypes::Kernel, false) else {
        return declined(a);
    };
    with_array!(&x, all, |v: E| values(
        a.py(),
        &v,
        Axes::from(axes),
        NanProd,
        true
    ))
}

/// `ss(a, axis)` ([`sum_of_squares`]), or `NotImplemented`.
#[pyfunction]
pub(crate) fn fast_ss<'py>(
    a: &Bound<'py, PyAny>,
    axis: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let Some((x, axes)) = fast_axes(a, axis, Dtypes::Kernel, false) else {
        return declined(a);
    };
    sum_of_squares(&x, axes, true)
}

/// `anynan(a, axis)` (`all`: `allnan`), or `NotImplemented`; for `axis=None`
/// a Python bool, as bottleneck answers. A whole small float array is read
/// as one slice ([`whole_slice`], [`AnyNan::of`]); a whole array of
/// integers or bools is answered from its size.
#[pyfunction]
pub(crate) fn fast_nanflag<'py>(
    a: &Bound<'py, PyAny>,
    axis: &Bound<'py, PyAny>,
    all: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let py = a.py();
    let answer = |seen: bool| Ok(PyBool::new(py, seen).to_owned().into_any());
    let of = |xs: WholeFloat<'_>| match (xs, all) {
        (WholeFloat::F64(xs), false) => AnyNan::of(xs),
        (WholeFloat::F64(xs), true) => AllNan::of(xs),
        (WholeFloat::F32(xs), false) => AnyNan::of(xs),
        (WholeFloat::F32(xs), true) => AllNan::of(xs),
    };
    if let Some(xs) = whole_slice(a, axis, Order::Any) {
        return answer(of(xs));
    }
    // a large whole array: its head first, with the GIL held (a NaN for
    // anynan, a value for allnan answers the call); else all of it below
    if let Some(head) = whole_values(a, axis, Order::Any, true) {
        let seen = of(head);
        if seen != all {
            return answer(seen);
        }
    }
    let Some((x, axes)) = fast_axes(a, axis, Dtypes::Kernel, false) else {
        return declined(a);
    };
    let whole = axis.is_none();
    if whole && matches!(x.dtype().kind(), b'b' | b'i' | b'u') {
        return answer(all && x.len() == 0);
    }
    let flags = with_array!(&x, all, |v: E| {
        let flags = guard(py, v.len(), || {
            if all {
                nanops::allnan(&v, Axes::from(axes))
            } else {
                nanops::anynan(&v, Axes::from(axes))
            }
        })?;
        to_py(py, flags, false)
    })?;
    if whole {
        answer(flags.is_truthy()?)
    } else {
        Ok(flags)
    }
}

/// The input of the lane functions' fast entries (`rankdata`,
/// `partition`): [`fast_input`] of a real dtype, with its axis; `axis=None`
/// (the flattened array) only for a C-contiguous `a`, whose values are the
/// flattened array's in order.
fn lanes_input<'py>(
    a: &Bound<'py, PyAny>,
    axis: &Bound<'py, PyAny>,
) -> Option<(Bound<'py, PyUntypedArray>, Option<usize>)> {
    fast_input(a, axis, Dtypes::Real).filter(|(x, ax)| ax.is_some() || x.is_c_contiguous())
}

/// `rankdata(a, axis)` (`nan_ranked = false`: `nanrankdata`), or
/// `NotImplemented`.
#[pyfunction]
pub(crate) fn fast_rankdata<'py>(
    a: &Bound<'py, PyAny>,
    axis: &Bound<'py, PyAny>,
    nan_ranked: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let py = a.py();
    let Some((x, ax)) = lanes_input(a, axis) else {
        return declined(a);
    };
    with_array!(&x, real, |v: E| {
        let flat = v.as_slice().map(ArrayView1::from);
        if ax.is_none() && flat.is_none() {
            return declined(a);
        }
        let ranks = guard(py, v.len(), || match (ax, &flat, nan_ranked) {
            (None, Some(f), true) => nanops::rankdata(f, 0),
            (None, Some(f), false) => nanops::nanrankdata(f, 0),
            (k, _, true) => nanops::rankdata(&v, k.unwrap_or(0) as isize),
            (k, _, false) => nanops::nanrankdata(&v, k.unwrap_or(0) as isize),
        })?;
        to_py(py, ranks, false)
    })
}

/// `partition(a, kth, axis)` (`arg`: `argpartition`) for one int `kth` in
/// range of an array of at least one dimension, or `NotImplemented`.
#[pyfunction]
pub(crate) fn fast_partition<'py>(
    a: &Bound<'py, PyAny>,
    kth: &Bound<'py, PyAny>,
    axis: &Bound<'py, PyAny>,
    arg: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let py = a.py();
    let Some((x, ax)) = lanes_input(a, axis) else {
        return declined(a);
    };
    if x.ndim() == 0 || !kth.is_exact_instance_of::<PyInt>() {
        return declined(a);
    }
    let n = ax.map_or(x.len(), |k| x.shape()[k]) as isize;
    let Ok(k) = kth.extract::<isize>() else {
        return declined(a);
    };
    if !(-n..n).contains(&k) {
        return declined(a);
    }
    let k = k.rem_euclid(n) as usize;
    let along = ax.unwrap_or(0) as isize;
    with_array!(&x, real, |v: E| {
        let flat = v.as_slice().map(ArrayView1::from);
        if ax.is_none() && flat.is_none() {
            return declined(a);
        }
        if arg {
            let at = guard(py, v.len(), || match (ax, &flat) {
                (None, Some(f)) => nanops::argpartition(f, k, along),
                _ => nanops::argpartition(&v, k, along),
            })?;
            to_py(py, to_intp(at), false)
        } else {
            let parts = guard(py, v.len(), || match (ax, &flat) {
                (None, Some(f)) => nanops::partition(f, k, along),
                _ => nanops::partition(&v, k, along),
            })?;
            to_py(py, parts, false)
        }
    })
}

/// A pointer into an array handed to the one job that writes it, which may
/// run with the GIL released.
struct SendMut<E>(*mut E);
// SAFETY: the pointee is written only by the job it is handed to, while
// the caller holds the array.
unsafe impl<E> Send for SendMut<E> {}

/// bottleneck's `replace(a, old, new)` for its common call, in place, or
/// `NotImplemented`: `a` an exact, writeable, aligned, contiguous ndarray
/// of `float64`/`float32`/`int64`/`int32` in native byte order, `old` and
/// `new` exact Python floats or ints (ints only, and in range, for integer
/// arrays). Returns `a`. The values are written through one slice of the
/// array's memory, without the `numpy` crate's typed borrow, as
/// [`whole_slice`] reads them.
#[pyfunction]
pub(crate) fn fast_replace<'py>(
    a: &Bound<'py, PyAny>,
    old: &Bound<'py, PyAny>,
    new: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    use numpy::npyffi::{NPY_ARRAY_WRITEABLE, NPY_TYPES as T};
    let py = a.py();
    // SAFETY: `a` is a valid object pointer; the check only reads its type.
    if unsafe { PyArray_CheckExact(py, a.as_ptr()) } == 0 {
        return declined(a);
    }
    let Ok(arr) = a.cast::<PyUntypedArray>() else {
        return declined(a);
    };
    // SAFETY: `arr` is an ndarray; its flags field is always valid.
    let writeable = unsafe { (*arr.as_array_ptr()).fields.flags } & NPY_ARRAY_WRITEABLE != 0;
    let d = arr.dtype();
    if !writeable
        || !arr.is_contiguous()
        || !arr.is_aligned()
        || d.is_native_byteorder() == Some(false)
    {
        return declined(a);
    }
    let n = arr.len();
    // SAFETY: the array holds `n` aligned values of its dtype in one
    // contiguous, writeable block at `data`; the slices made from it below
    // live only in this call, while `a` is held.
    let data = unsafe { (*arr.as_array_ptr()).fields.data };
    fn exact<T>(x: &Bound<'_, PyAny>) -> bool
    where
        T: pyo3::type_object::PyTypeInfo,
    {
        x.is_exact_instance_of::<T>()
    }
    let number = |x: &Bound<'py, PyAny>| exact::<PyFloat>(x) || exact::<PyInt>(x);
    let int = |x: &Bound<'py, PyAny>| exact::<PyInt>(x);
    fn run<E: PyElement>(
        py: Python<'_>,
        data: *mut std::ffi::c_char,
        n: usize,
        old: E,
        new: E,
    ) -> PyResult<()> {
        let ptr = SendMut(data.cast::<E>());
        guard(py, n, move || {
            let ptr = ptr;
            // SAFETY: see `fast_replace`.
            let xs = unsafe { std::slice::from_raw_parts_mut(ptr.0, n) };
            nanops::replace(&mut ndarray::ArrayViewMut1::from(xs), old, new);
            Ok(())
        })
    }
    let num = d.num();
    let is = |t: T| num == t as std::ffi::c_int;
    if n == 0 {
        return declined(a);
    }
    if is(T::NPY_DOUBLE) && number(old) && number(new) {
        let (Ok(o), Ok(w)) = (old.extract::<f64>(), new.extract::<f64>()) else {
            return declined(a);
        };
        run::<f64>(py, data, n, o, w)?;
    } else if is(T::NPY_FLOAT) && number(old) && number(new) {
        let (Ok(o), Ok(w)) = (old.extract::<f64>(), new.extract::<f64>()) else {
            return declined(a);
        };
        // NumPy's cast of a double to float32 (nearest; beyond: inf)
        run::<f32>(py, data, n, o as f32, w as f32)?;
    } else if is(T::NPY_LONG) && int(old) && int(new) {
        let (Ok(o), Ok(w)) = (old.extract::<i64>(), new.extract::<i64>()) else {
            return declined(a);
        };
        run::<i64>(py, data, n, o, w)?;
    } else if is(T::NPY_INT) && int(old) && int(new) {
        let (Ok(o), Ok(w)) = (old.extract::<i32>(), new.extract::<i32>()) else {
            return declined(a);
        };
        run::<i32>(py, data, n, o, w)?;
    } else {
        return declined(a);
    }
    Ok(a.clone())
}

/// `(nanmean(a, axis), any slice empty)`, or `NotImplemented`.
#[pyfunction]
pub(crate) fn fast_nanmean<'py>(
    a: &Bound<'py, PyAny>,
    axis: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    if let Some(result) = Whole::Mean.try_run(a, axis) {
        return result;
    }
    let Some((x, axes)) = fast_axes(a, axis, Dtypes::Inexact, false) else {
        return declined(a);
    };
    with_array!(&x, inexact, |v: E| whole_or_axes(
        a.py(),
        &v,
        Axes::from(axes),
        Whole::Mean
    ))
}

/// `(nanvar(a, axis, ddof), any slice with count − ddof ≤ 0)` (`std`: the
/// standard deviation), or `NotImplemented`.
#[pyfunction]
pub(crate) fn fast_nanvar<'py>(
    a: &Bound<'py, PyAny>,
    axis: &Bound<'py, PyAny>,
    ddof: f64,
    std: bool,
) -> PyResult<Bound<'py, PyAny>> {
    if let Some(result) = (Whole::Var { ddof, std }).try_run(a, axis) {
        return result;
    }
    let Some((x, axes)) = fast_axes(a, axis, Dtypes::Inexact, false) else {
        return declined(a);
    };
    let what = Whole::Var { ddof, std };
    with_array!(&x, inexact, |v: E| whole_or_axes(
        a.py(),
        &v,
        Axes::from(axes),
        what
    ))
}

/// `(nanmax(a, axis), any slice all-NaN)` (`max = false`: nanmin), or
/// `NotImplemented` (also for a zero-size `a`: NumPy's error comes from the
/// general path).
#[pyfunction]
pub(crate) fn fast_nanextremum<'py>(
    a: &Bound<'py, PyAny>,
    axis: &Bound<'py, PyAny>,
    max: bool,
) -> PyResult<Bound<'py, PyAny>> {
    if let Some(result) = (Whole::Extremum { max }).try_run(a, axis) {
        return result;
    }
    let Some((x, axes)) = fast_axes(a, axis, Dtypes::Kernel, true) else {
        return declined(a);
    };
    let what = Whole::Extremum { max };
    with_array!(&x, all, |v: E| whole_or_axes(
        a.py(),
        &v,
        Axes::from(axes),
        what
    ))
}

/// `nanargmax(a, axis)` (`max = false`: nanargmin), or `NotImplemented`
/// (also for a zero-size `a`).
#[pyfunction]
pub(crate) fn fast_nanarg<'py>(
    a: &Bound<'py, PyAny>,
    axis: &Bound<'py, PyAny>,
    max: bool,
) -> PyResult<Bound<'py, PyAny>> {
    if let Some(result) = (Whole::Arg { max }).try_run(a, axis) {
        return result;
    }
    let Some((x, ax)) = fast_input(a, axis, Dtypes::Kernel).filter(|(x, _)| x.len() > 0) else {
        return declined(a);
    };
    let axes = ax.map_or(Axes::All, |k| Axes::One(k as isize));
    with_array!(&x, all, |v: E| whole_or_axes(
        a.py(),
        &v,
        axes,
        Whole::Arg { max }
    ))
}

/// `nanmedian(a, axis)` after one [`warn_all_nan`] per all-NaN slice, or `NotImplemented`
/// (also for a zero-size `a`).
#[pyfunction]
pub(crate) fn fast_nanmedian<'py>(
    a: &Bound<'py, PyAny>,
    axis: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = a.py();
    let (values, empty) = match whole_slice(a, axis, Order::Any) {
        Some(WholeFloat::F64(xs)) => median(py, &ArrayView1::from(xs), Axes::All)?,
        Some(WholeFloat::F32(xs)) => median(py, &ArrayView1::from(xs), Axes::All)?,
        None => {
            let Some((x, axes)) = fast_axes(a, axis, Dtypes::Real, true) else {
                return declined(a);
            };
            with_array!(&x, real, |v: E| median(py, &v, Axes::from(axes)))?
        }
    };
    warn_all_nan(py, empty)?;
    Ok(values)
}

/// The NaN-skipping median of `v` over `axes` (a NumPy scalar when 0-d) and
/// the number of all-NaN slices.
fn median<'py, E, D>(
    py: Python<'py>,
    v: &ArrayView<'_, E, D>,
    axes: Axes,
) -> PyResult<(Bound<'py, PyAny>, usize)>
where
    E: PyElement + nanops::QuantileElement,
    E::Value: numpy::Element,
    D: Dimension,
{
    let r = compute(py, v, axes, Median(NanPolicy::Omit))?;
    let values = match r.values.first() {
        Some(x) if r.values.ndim() == 0 => numpy_scalar(py, x)?,
        _ => numpy::PyArray::from_owned_array(py, r.values).into_any(),
    };
    Ok((values, r.degenerate))
}

/// `(nanquantile(a, q, axis, method=method), whether a slice was all-NaN)`
/// for a known `method`, a float `a` and either a Python-float `q` in
/// `[0, 1]` or, for a `float64` `a`, a non-empty list or tuple of them; or
/// `NotImplemented` (also for a zero-size `a`). A float `q` is "weak" (NEP
/// 50): the result keeps `a`'s dtype. A list is a `float64` array `q`: the
/// result is `float64`, which a `float64` `a` gives whatever the method.
#[pyfunction]
pub(crate) fn fast_nanquantile<'py>(
    a: &Bound<'py, PyAny>,
    q: &Bound<'py, PyAny>,
    axis: &Bound<'py, PyAny>,
    method: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let Some((x, axes)) = fast_axes(a, axis, Dtypes::Float, true) else {
        return declined(a);
    };
    let method = method
        .cast_exact::<PyString>()
        .ok()
        .and_then(|m| m.to_str().ok()?.parse::<QuantileMethod>().ok());
    let Some(method) = method else {
        return declined(a); // the general path raises NumPy's error
    };
    let (values, empty) = if let Ok(q) = q.cast_exact::<PyFloat>() {
        let q = q.value();
        if !(0.0..=1.0).contains(&q) {
            return declined(a);
        }
        // NumPy's weak scalar: the result keeps the dtype, `q` arithmetic in
        // `float64`; the leading axis of `q` is dropped
        let req = request(vec![q], vec![], axes, method);
        with_array!(&x, float, |v: E| {
            let (values, empty) = quantile_values::<E, E>(a.py(), &v, &req)?;
            Ok::<_, PyErr>((to_py(a.py(), values, true)?, empty))
        })?
    } else {
        let f64_input = x.dtype().is_equiv_to(&numpy::dtype::<f64>(a.py()));
        let Some(qs) = f64_input.then(|| float_list(q)).flatten() else {
            return declined(a);
        };
        // a `float64` array `q`: a `float64` result, which a `float64`
        // input gives whatever the method
        let req = request(qs.clone(), vec![qs.len()], axes, method);
        with_array!(&x, float, |v: E| {
            let (values, empty) = quantile_values::<E, f64>(a.py(), &v, &req)?;
            Ok::<_, PyErr>((to_py(a.py(), values, false)?, empty))
        })?
    };
    pair(a.py(), (values, empty))
}

/// A NaN-skipping quantile request with `q` of shape `q_shape`, computed
/// in `float64` index arithmetic.
fn request<'py>(
    q: Vec<f64>,
    q_shape: Vec<usize>,
    axes: Vec<usize>,
    method: QuantileMethod,
) -> Request<'py> {
    Request {
        q,
        q_shape,
        axes,
        method,
        weights: None,
        nan_policy: NanPolicy::Omit,
        q_dtype: QDtype::Float64,
    }
}

/// The values of `q` when it is a non-empty list or tuple of Python floats,
/// each in `[0, 1]` (NaN is not), or `None`: the general path takes the
/// rest, and raises NumPy's errors.
fn float_list(q: &Bound<'_, PyAny>) -> Option<Vec<f64>> {
    let items: Vec<Bound<'_, PyAny>> = if let Ok(l) = q.cast_exact::<PyList>() {
        l.iter().collect()
    } else {
        q.cast_exact::<PyTuple>().ok()?.iter().collect()
    };
    if items.is_empty() {
        return None;
    }
    items
        .iter()
        .map(|x| {
            let v = x.cast_exact::<PyFloat>().ok()?.value();
            (0.0..=1.0).contains(&v).then_some(v)
        })
        .collect()
}
