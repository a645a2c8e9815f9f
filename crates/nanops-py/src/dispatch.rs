//! From a NumPy array of any supported dtype to a typed ndarray view.

use crate::errors::KEEP_GIL_BELOW;
use ndarray::ArrayViewD;
use numpy::{
    PyArrayDyn, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

/// Most dimensions an array may have here: the `numpy` crate's views panic
/// beyond 32 (NumPy 2 allows 64; the Python layer hands those to NumPy).
pub const MAX_NDIM: usize = 32;

/// `ValueError` for an array of more than [`MAX_NDIM`] dimensions, checked
/// before viewing it (where the `numpy` crate would panic).
pub fn check_ndim(ndim: usize) -> PyResult<()> {
    if ndim > MAX_NDIM {
        return Err(PyValueError::new_err(format!(
            "nanops' primitives take at most {MAX_NDIM} dimensions, got {ndim}"
        )));
    }
    Ok(())
}

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

/// The element types the bindings accept (NumPy dtype ↔ Rust type).
pub trait PyElement: nanops::Element + numpy::Element {}
impl<T: nanops::Element + numpy::Element> PyElement for T {}

/// A read-only typed borrow of an input array (see [`readonly`]).
pub enum Borrowed<'py, E: PyElement> {
    /// Registered with the `numpy` crate's dynamic borrow checker.
    Checked(PyReadonlyArrayDyn<'py, E>),
    /// A small input read while the GIL is held (see [`readonly`]).
    Held(Bound<'py, PyArrayDyn<E>>),
}

impl<E: PyElement> Borrowed<'_, E> {
    /// The array as an `ndarray` view.
    pub fn as_array(&self) -> ArrayViewD<'_, E> {
        match self {
            Borrowed::Checked(ro) => ro.as_array(),
            // SAFETY: see `readonly`: nothing writes the array while the
            // view lives (this thread holds the GIL and nanops never borrows
            // an array mutably).
            Borrowed::Held(a) => unsafe { a.as_array() },
        }
    }
}

/// Borrows `a` as a read-only typed array.
///
/// Inputs the core reduces with the GIL held (fewer than
/// [`KEEP_GIL_BELOW`] elements) skip the `numpy` crate's dynamic borrow
/// registration, about 100 ns of a one-microsecond call: while this thread
/// holds the GIL no Python code runs, and nanops never takes a mutable
/// borrow, so the only writer the check could catch is native code running
/// without the GIL, which NumPy's own functions do not guard against either.
/// Larger inputs are registered, since the GIL is released while they are read.
pub fn readonly<'py, E: PyElement>(a: &Bound<'py, PyUntypedArray>) -> PyResult<Borrowed<'py, E>> {
    let arr = a
        .cast::<PyArrayDyn<E>>()
        .map_err(|_| PyTypeError::new_err(format!("unsupported array dtype {}", a.dtype())))?;
    check_ndim(a.ndim())?;
    if a.len() < KEEP_GIL_BELOW {
        return Ok(Borrowed::Held(arr.clone()));
    }
    Ok(Borrowed::Checked(arr.try_readonly()?))
}

/// Calls the generic function `$f::<E>($a, args…)` for the element type `E`
/// matching the dtype of `$a`, trying the listed types in order; `TypeError`
/// for any other dtype.
macro_rules! dispatch {
    (@try $a:ident, $dt:ident, $f:ident, ($($arg:expr),*), ) => {
        Err(pyo3::exceptions::PyTypeError::new_err(
            format!("nanops does not support dtype {}", $dt),
        ))
    };
    (@try $a:ident, $dt:ident, $f:ident, ($($arg:expr),*), $t:ty, $($rest:ty,)*) => {
        if $dt.is_equiv_to(&numpy::dtype::<$t>($a.py())) {
            $f::<$t>($a, $($arg),*)
        } else {
            $crate::dispatch::dispatch!(@try $a, $dt, $f, ($($arg),*), $($rest,)*)
        }
    };
    ($a:expr, $f:ident ( $($arg:expr),* ), $($t:ty),*) => {{
        use numpy::{PyArrayDescrMethods, PyUntypedArrayMethods};
        let a = $a;
        let dt = a.dtype();
        $crate::dispatch::dispatch!(@try a, dt, $f, ($($arg),*), $($t,)*)
    }};
}

/// [`dispatch!`] over every element type.
macro_rules! dispatch_all {
    ($a:expr, $f:ident ( $($arg:expr),* )) => {
        $crate::dispatch::dispatch!($a, $f ($($arg),*),
            f64, f32, half::f16, num_complex::Complex64, num_complex::Complex32,
            i64, i32, i16, i8, u64, u32, u16, u8, bool)
    };
}

/// [`dispatch!`] over the real (non-complex) element types.
#[allow(unused_macros)]
macro_rules! dispatch_real {
    ($a:expr, $f:ident ( $($arg:expr),* )) => {
        $crate::dispatch::dispatch!($a, $f ($($arg),*),
            f64, f32, half::f16, i64, i32, i16, i8, u64, u32, u16, u8, bool)
    };
}

#[allow(unused_imports)]
pub(crate) use {dispatch, dispatch_all, dispatch_real};
