//! A chunk's partial states in one pass, for chunked and distributed
//! engines (`nanops.states`, `nanops.dask`, `nanops.flox`): the core's
//! [`nanops::partial_states`] of a streaming reduction (the states its
//! threads merge), or its [`nanops::group_partial_states`] (one per label),
//! returned as the field arrays of the structured states `nanops.states`
//! documents, in its field order.

use crate::array::{with_array, PyElement};
use crate::compute::to_py;
use crate::errors::guard;
use nanops::element::Factor;
use nanops::states::Product;
use nanops::stats::{
    NanCount, NanMax, NanMean, NanMin, NanProd, NanSkew, NanSum, NanVar, PartialStatistic,
};
use nanops::{Axes, Ddof, Element};
use ndarray::{ArrayD, ArrayViewD};
use num_complex::Complex64;
use numpy::{PyArrayDescrMethods, PyReadonlyArrayDyn, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// An accumulated value as the dtype of its state field: real floats as
/// float64 (float16's float32 accumulator widened, exactly), complex as
/// complex128, integer sums and products as int64/uint64.
trait Field: Copy {
    /// The field's element type.
    type Out: numpy::Element + Default;
    /// The value as the field's element type.
    fn field(self) -> Self::Out;
}

macro_rules! same_field {
    ($($t:ty),*) => {$(
        impl Field for $t {
            type Out = $t;
            fn field(self) -> $t {
                self
            }
        }
    )*};
}
same_field!(f64, Complex64, i64, u64);

impl Field for f32 {
    type Out = f64;
    fn field(self) -> f64 {
        f64::from(self)
    }
}

/// The partial states of `stat` over `axes` of `v`, computed with the GIL
/// released (unless `v` is tiny): one per output, the reduced axes dropped.
fn states_of<E, T>(
    py: Python<'_>,
    v: &ArrayViewD<'_, E>,
    axes: Axes,
    stat: T,
) -> PyResult<ArrayD<T::State>>
where
    E: PyElement,
    T: PartialStatistic<E> + Sync,
{
    guard(py, v.len(), || nanops::partial_states(v, axes, &stat))
}

/// The per-label partial states of `stat` over `axes` of `v`, `labels`
/// theirs, computed with the GIL released (unless `v` is tiny): one per
/// (output, label), the grouped axes replaced by one axis of labels.
fn group_states_of<E, T>(
    py: Python<'_>,
    v: &ArrayViewD<'_, E>,
    labels: &ArrayViewD<'_, i64>,
    axes: Axes,
    num_labels: Option<usize>,
    stat: T,
) -> PyResult<ArrayD<T::State>>
where
    E: PyElement,
    T: PartialStatistic<E> + Sync,
{
    guard(py, v.len(), || {
        nanops::group_partial_states(v, labels, axes, num_labels, &stat)
    })
}

/// The fields `prod`, `exp`, `zero`, `inf` of products' states (their
/// [`Product::parts`]): the mantissa, the binary exponent apart, so that
/// no piece's product overflows or underflows on its way to the merge.
fn product_fields<'py, A: Factor + Field>(
    py: Python<'py>,
    states: &ArrayD<Product<A>>,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    Ok(vec![
        field(py, states, |st| st.parts().0.field())?,
        field(py, states, |st| st.parts().1)?,
        field(py, states, |st| st.parts().2)?,
        field(py, states, |st| st.parts().3)?,
    ])
}

/// One field of `states`, `f` of each, as a new array.
fn field<'py, St, T: numpy::Element>(
    py: Python<'py>,
    states: &ArrayD<St>,
    f: impl Fn(&St) -> T,
) -> PyResult<Bound<'py, PyAny>> {
    to_py(py, states.map(f), false)
}

/// A count as the int64 of the `n` fields.
fn count(n: u64) -> i64 {
    n as i64
}

/// The partial states of the reduction `name` (`nansum`, `nanprod`,
/// `nancount`, `nanmean`, `nanvar`, `nanstd`, `nanmin`, `nanmax`,
/// `nanskew`, `nankurt`) over `axes` of `a`, one per output (the reduced
/// axes dropped), as a tuple of field arrays in the order of
/// `nanops.states.state_dtype(name, a.dtype)`'s fields. One pass over `a`
/// by the reduction's own kernels; `ValueError` for another name,
/// `TypeError` for complex input to `nanskew`/`nankurt`.
#[pyfunction]
#[pyo3(signature = (name, a, axes))]
pub(crate) fn partial_states<'py>(
    name: &str,
    a: &Bound<'py, PyUntypedArray>,
    axes: Vec<usize>,
) -> PyResult<Bound<'py, PyTuple>> {
    let py = a.py();
    let axes = Axes::from(axes);
    let fields: Vec<Bound<'py, PyAny>> = match name {
        "nansum" => with_array!(a, all, |v: E| {
            let s = states_of(py, &v, axes, NanSum)?;
            Ok(vec![field(py, &s, |st| st.value().field())?])
        }),
        "nanprod" => with_array!(a, all, |v: E| {
            product_fields(py, &states_of(py, &v, axes, NanProd)?)
        }),
        "nancount" => with_array!(a, all, |v: E| {
            let s = states_of(py, &v, axes, NanCount)?;
            Ok(vec![field(py, &s, |st| count(st.0))?])
        }),
        "nanmean" => with_array!(a, all, |v: E| {
            let s = states_of(py, &v, axes, NanMean)?;
            Ok(vec![
                field(py, &s, |st| count(st.count()))?,
                field(py, &s, |st| st.sum().field())?,
            ])
        }),
        // a variance's state does not depend on `ddof`, nor is the standard
        // deviation's another one
        "nanvar" | "nanstd" => with_array!(a, all, |v: E| {
            let s = states_of(py, &v, axes, NanVar(Ddof(0.0)))?;
            Ok(vec![
                field(py, &s, |st| count(st.count()))?,
                field(py, &s, |st| {
                    if st.count() == 0 {
                        Default::default()
                    } else {
                        st.mean().field()
                    }
                })?,
                field(py, &s, |st| st.m2().field())?,
            ])
        }),
        "nanmin" => with_array!(a, all, |v: E| {
            let s = states_of(py, &v, axes, NanMin)?;
            Ok(vec![field(py, &s, |st| {
                st.value().unwrap_or_else(<E as Element>::nan)
            })?])
        }),
        "nanmax" => with_array!(a, all, |v: E| {
            let s = states_of(py, &v, axes, NanMax)?;
            Ok(vec![field(py, &s, |st| {
                st.value().unwrap_or_else(<E as Element>::nan)
            })?])
        }),
        // skewness and kurtosis share their state (`bias` and `fisher` act in
        // `finish` only)
        "nanskew" | "nankurt" => {
            if a.dtype().kind() == b'c' {
                return Err(PyTypeError::new_err(format!(
                    "{name} takes real input only, got dtype {}",
                    a.dtype()
                )));
            }
            with_array!(a, real, |v: E| {
                let s = states_of(py, &v, axes, NanSkew { bias: true })?;
                Ok(vec![
                    field(py, &s, |st| st.count() as f64)?,
                    field(py, &s, |st| {
                        if st.count() == 0 {
                            0.0
                        } else {
                            st.mean().field()
                        }
                    })?,
                    field(py, &s, |st| st.m2().field())?,
                    field(py, &s, |st| st.m3().field())?,
                    field(py, &s, |st| st.m4().field())?,
                ])
            })
        }
        _ => Err(PyValueError::new_err(format!(
            "no partial states for {name:?}; known: nansum, nanprod, nancount, nanmean, \
             nanvar, nanstd, nanmin, nanmax, nanskew, nankurt"
        ))),
    }?;
    PyTuple::new(py, fields)
}

/// The per-label partial states of the reduction `name` (`nanprod`) over
/// `axes` (increasing) of `a`, `labels` (int64, `a`'s shape along `axes`,
/// negative labels skipped) theirs: one state per (output, label), shaped
/// as the group function's result (the kept axes, then `num_labels`
/// groups, by default the largest label plus one), as a tuple of field
/// arrays in the order of `nanops.states.state_dtype(name, a.dtype)`'s
/// fields. One pass over `a` by the group function's own driver and
/// kernels: finished, the states are exactly its result. `ValueError` for
/// another name and for the labels the group functions refuse.
#[pyfunction]
#[pyo3(signature = (name, a, labels, axes, num_labels))]
pub(crate) fn group_partial_states<'py>(
    name: &str,
    a: &Bound<'py, PyUntypedArray>,
    labels: PyReadonlyArrayDyn<'py, i64>,
    axes: Vec<usize>,
    num_labels: Option<usize>,
) -> PyResult<Bound<'py, PyTuple>> {
    let py = a.py();
    let axes = Axes::from(axes);
    let l = labels.as_array();
    let fields: Vec<Bound<'py, PyAny>> = match name {
        // the states whose finished value a distributed merge cannot
        // rebuild from the blocks' results (a product overflows per block)
        "nanprod" => with_array!(a, all, |v: E| {
            product_fields(py, &group_states_of(py, &v, &l, axes, num_labels, NanProd)?)
        }),
        _ => Err(PyValueError::new_err(format!(
            "no grouped partial states for {name:?}; known: nanprod"
        ))),
    }?;
    PyTuple::new(py, fields)
}
