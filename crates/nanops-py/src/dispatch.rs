//! From a NumPy array of any supported dtype to a typed ndarray view.

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

/// The element types the bindings accept (NumPy dtype ↔ Rust type).
pub trait PyElement: nanops::Element + numpy::Element {}
impl<T: nanops::Element + numpy::Element> PyElement for T {}

/// Borrows `a` as a read-only typed array.
pub fn readonly<'py, E: PyElement>(
    a: &Bound<'py, PyUntypedArray>,
) -> PyResult<PyReadonlyArrayDyn<'py, E>> {
    let arr = a
        .cast::<PyArrayDyn<E>>()
        .map_err(|_| PyTypeError::new_err(format!("unsupported array dtype {}", a.dtype())))?;
    check_ndim(a.ndim())?;
    Ok(arr.try_readonly()?)
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
