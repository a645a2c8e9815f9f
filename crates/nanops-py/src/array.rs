//! The dtype table: a NumPy array of any dtype nanops computes on, as one
//! enum of typed read-only borrows, and the one `match` that runs generic
//! code on it.

use crate::errors::KEEP_GIL_BELOW;
use half::f16;
use ndarray::ArrayViewD;
use num_complex::{Complex32, Complex64};
use numpy::{
    PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArray,
    PyUntypedArrayMethods,
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

/// Whether every stride of `a` (along an axis longer than 1) is a whole
/// number of elements: NumPy allows others (a `complex128` field of a
/// structured array is 24 bytes apart, a multiple of its 8-byte alignment
/// only), which an `ndarray` view cannot express (the `numpy` crate divides
/// the byte strides by the item size, and the view would read the wrong
/// values).
pub fn strides_whole(a: &Bound<'_, PyUntypedArray>) -> bool {
    let size = a.dtype().itemsize() as isize;
    size > 0
        && a.shape()
            .iter()
            .zip(a.strides())
            .all(|(&n, &s)| n <= 1 || s % size == 0)
}

/// The element types the bindings accept (NumPy dtype ↔ Rust type).
pub trait PyElement: nanops::Element + numpy::Element {}
impl<T: nanops::Element + numpy::Element> PyElement for T {}

/// A read-only typed borrow of an input array (see [`AnyArray::borrow`]).
pub enum Borrowed<'py, E: PyElement> {
    /// Registered with the `numpy` crate's dynamic borrow checker.
    Checked(PyReadonlyArrayDyn<'py, E>),
    /// A small input read while the GIL is held.
    Held(Bound<'py, PyArrayDyn<E>>),
}

impl<E: PyElement> Borrowed<'_, E> {
    /// The array as an `ndarray` view.
    pub fn as_array(&self) -> ArrayViewD<'_, E> {
        match self {
            Borrowed::Checked(ro) => ro.as_array(),
            // SAFETY: see `AnyArray::borrow`: nothing writes the array while
            // the view lives (this thread holds the GIL and nanops never
            // borrows an array mutably).
            Borrowed::Held(a) => unsafe { a.as_array() },
        }
    }
}

/// Borrows `arr` (whose dtype is `E`'s) read-only.
///
/// Inputs the core reduces with the GIL held (fewer than
/// [`KEEP_GIL_BELOW`] elements) skip the `numpy` crate's dynamic borrow
/// registration, a tenth of a short call's fixed cost: while this thread
/// holds the GIL no Python code runs, and nanops never takes a mutable
/// borrow, so the only writer the check could catch is native code running
/// without the GIL, which NumPy's own functions do not guard against either.
/// Larger inputs are registered, since the GIL is released while they are read.
fn borrow<'py, E: PyElement>(arr: &Bound<'py, PyUntypedArray>) -> PyResult<Borrowed<'py, E>> {
    let typed = arr.cast::<PyArrayDyn<E>>()?;
    if arr.len() < KEEP_GIL_BELOW {
        return Ok(Borrowed::Held(typed.clone()));
    }
    Ok(Borrowed::Checked(typed.try_readonly()?))
}

/// Declares [`AnyArray`] and its constructor from one table of
/// `variant: Rust type` rows.
macro_rules! dtype_table {
    ($($(#[$doc:meta])* $variant:ident: $t:ty),* $(,)?) => {
        /// A borrowed input array of one of nanops' element types.
        pub enum AnyArray<'py> {
            $($(#[$doc])* $variant(Borrowed<'py, $t>),)*
        }

        impl<'py> AnyArray<'py> {
            /// Borrows `a` as the variant of its dtype; `TypeError` for a
            /// dtype nanops does not compute on (object, strings, datetime,
            /// long double, byte-swapped), `ValueError` beyond
            /// [`MAX_NDIM`] dimensions or for strides that are not whole
            /// elements ([`strides_whole`]).
            pub fn borrow(a: &Bound<'py, PyUntypedArray>) -> PyResult<Self> {
                let dt = a.dtype();
                $(
                    if dt.is_equiv_to(&numpy::dtype::<$t>(a.py())) {
                        check_ndim(a.ndim())?;
                        if !strides_whole(a) {
                            return Err(PyValueError::new_err(
                                "nanops' primitives take arrays whose strides are whole \
                                 elements (the Python layer copies the others)",
                            ));
                        }
                        return Ok(AnyArray::$variant(borrow::<$t>(a)?));
                    }
                )*
                Err(PyTypeError::new_err(format!("nanops does not support dtype {dt}")))
            }
        }
    };
}

dtype_table! {
    /// `float64`
    F64: f64,
    /// `float32`
    F32: f32,
    /// `float16`
    F16: f16,
    /// `complex128`
    C128: Complex64,
    /// `complex64`
    C64: Complex32,
    /// `int64`
    I64: i64,
    /// `int32`
    I32: i32,
    /// `int16`
    I16: i16,
    /// `int8`
    I8: i8,
    /// `uint64`
    U64: u64,
    /// `uint32`
    U32: u32,
    /// `uint16`
    U16: u16,
    /// `uint8`
    U8: u8,
    /// `bool`
    Bool: bool,
}

/// `TypeError` for a dtype a function does not take.
pub fn unsupported(a: &Bound<'_, PyUntypedArray>) -> PyErr {
    PyTypeError::new_err(format!("nanops does not support dtype {}", a.dtype()))
}

/// Runs `$body` with `$v` the typed view of `$a` and `E` its element type,
/// over the dtypes of a category (`all`; `real`: no complex; `inexact`:
/// floats and complex; `float`: real floats); `TypeError` for the others.
macro_rules! with_array {
    ($a:expr, all, |$v:ident: E| $body:expr) => {
        $crate::array::with_array!(@go $a, $v, $body,
            F64 f64, F32 f32, F16 half::f16, C128 num_complex::Complex64,
            C64 num_complex::Complex32, I64 i64, I32 i32, I16 i16, I8 i8, U64 u64,
            U32 u32, U16 u16, U8 u8, Bool bool)
    };
    ($a:expr, real, |$v:ident: E| $body:expr) => {
        $crate::array::with_array!(@go $a, $v, $body,
            F64 f64, F32 f32, F16 half::f16, I64 i64, I32 i32, I16 i16, I8 i8, U64 u64,
            U32 u32, U16 u16, U8 u8, Bool bool)
    };
    ($a:expr, inexact, |$v:ident: E| $body:expr) => {
        $crate::array::with_array!(@go $a, $v, $body,
            F64 f64, F32 f32, F16 half::f16, C128 num_complex::Complex64,
            C64 num_complex::Complex32)
    };
    ($a:expr, float, |$v:ident: E| $body:expr) => {
        $crate::array::with_array!(@go $a, $v, $body, F64 f64, F32 f32, F16 half::f16)
    };
    (@go $a:expr, $v:ident, $body:expr, $($variant:ident $t:ty),*) => {{
        let a: &pyo3::Bound<'_, numpy::PyUntypedArray> = $a;
        #[allow(unreachable_patterns)]
        match $crate::array::AnyArray::borrow(a)? {
            $($crate::array::AnyArray::$variant(ro) => {
                #[allow(dead_code)]
                type E = $t;
                let $v = ro.as_array();
                $body
            })*
            _ => Err($crate::array::unsupported(a)),
        }
    }};
}

pub(crate) use with_array;
