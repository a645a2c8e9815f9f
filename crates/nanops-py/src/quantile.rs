//! The quantile primitive: `q`, its NumPy dtype, the method, weights, the
//! NaN policy and the result dtype, parsed for the core.

use crate::array::{check_ndim, unsupported, with_array, AnyArray, PyElement};
use crate::compute::{compute, Flagged};
use nanops::select::SelectFloat;
use nanops::stats::Quantiles;
use nanops::{Axes, NanPolicy, QDtype, QuantileElement, QuantileMethod, QuantileOptions};
use ndarray::{ArrayD, ArrayViewD};
use numpy::{PyArray, PyReadonlyArrayDyn, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// Everything a quantile call needs besides the array.
pub(crate) struct Request<'py> {
    /// The probabilities, flattened.
    pub q: Vec<f64>,
    /// `q`'s shape, prepended to the result's.
    pub q_shape: Vec<usize>,
    /// The reduced axes.
    pub axes: Vec<usize>,
    /// The method.
    pub method: QuantileMethod,
    /// Weights of the array's shape.
    pub weights: Option<PyReadonlyArrayDyn<'py, f64>>,
    /// Skip NaN (`nanquantile`) or propagate it (`quantile`).
    pub nan_policy: NanPolicy,
    /// NumPy's dtype of `q`.
    pub q_dtype: QDtype,
}

/// The quantiles of `v` as a NumPy array of `R` (`q`'s shape first) and
/// whether some slice was all-NaN.
fn quantiles<'py, E, R>(py: Python<'py>, v: &ArrayViewD<'_, E>, req: &Request<'py>) -> Flagged<'py>
where
    E: PyElement + QuantileElement,
    R: SelectFloat + From<E::Value> + Default + numpy::Element,
{
    let (values, empty) = quantile_values::<E, R>(py, v, req)?;
    Ok((PyArray::from_owned_array(py, values).into_any(), empty))
}

/// The quantiles of `v` as `R` (`q`'s shape first) and whether some slice
/// was all-NaN.
pub(crate) fn quantile_values<'py, E, R>(
    py: Python<'py>,
    v: &ArrayViewD<'_, E>,
    req: &Request<'py>,
) -> PyResult<(ArrayD<R>, bool)>
where
    E: PyElement + QuantileElement,
    R: SelectFloat + From<E::Value> + Default + numpy::Element,
{
    if let Some(w) = &req.weights {
        check_ndim(w.ndim())?;
    }
    let opts = QuantileOptions {
        method: req.method,
        nan_policy: req.nan_policy,
        weights: req.weights.as_ref().map(|w| w.as_array()),
        q_dtype: req.q_dtype,
    };
    let stat = Quantiles::<R>::new(&req.q, opts);
    let r = compute(py, v, Axes::from(req.axes.clone()), stat)?;
    let mut shape = req.q_shape.clone();
    shape.extend_from_slice(&r.values.shape()[1..]);
    let values = r
        .values
        .into_shape_with_order(shape)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok((values, r.degenerate > 0))
}

pub(crate) fn parse_q_dtype(s: &str) -> PyResult<QDtype> {
    Ok(match s {
        "f8" => QDtype::Float64,
        "f4" => QDtype::Float32,
        "f2" => QDtype::Float16,
        "int" => QDtype::Integer,
        _ => return Err(PyValueError::new_err(format!("unknown q dtype {s:?}"))),
    })
}

/// Quantiles of each slice; result shape `q.shape + reduced shape`.
#[pyfunction]
#[pyo3(signature = (a, q, axes, method, weights, ignore_nan, q_dtype = "f8", result = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn nanquantile<'py>(
    a: &Bound<'py, PyUntypedArray>,
    q: PyReadonlyArrayDyn<'py, f64>,
    axes: Vec<usize>,
    method: &str,
    weights: Option<PyReadonlyArrayDyn<'py, f64>>,
    ignore_nan: bool,
    q_dtype: &str,
    result: Option<&str>,
) -> Flagged<'py> {
    let method: QuantileMethod = method
        .parse()
        .map_err(|e: nanops::UnknownQuantileMethod| PyValueError::new_err(e.to_string()))?;
    check_ndim(q.ndim())?;
    let qv = q.as_array();
    let req = Request {
        q: qv.iter().copied().collect(),
        q_shape: qv.shape().to_vec(),
        axes,
        method,
        weights,
        nan_policy: if ignore_nan {
            NanPolicy::Omit
        } else {
            NanPolicy::Propagate
        },
        q_dtype: parse_q_dtype(q_dtype)?,
    };
    let result = match result {
        Some(r) => r.to_string(),
        None => {
            use numpy::PyArrayDescrMethods;
            let dt = a.dtype();
            match (dt.kind(), dt.itemsize()) {
                (b'f', 2) => "f2".into(),
                (b'f', 4) => "f4".into(),
                _ => "f8".into(),
            }
        }
    };
    let py = a.py();
    match result.as_str() {
        "f8" => with_array!(a, real, |v: E| quantiles::<E, f64>(py, &v, &req)),
        "f4" => match AnyArray::borrow(a)? {
            AnyArray::F32(ro) => quantiles::<f32, f32>(py, &ro.as_array(), &req),
            AnyArray::F16(ro) => quantiles::<half::f16, f32>(py, &ro.as_array(), &req),
            _ => Err(unsupported(a)),
        },
        "f2" => match AnyArray::borrow(a)? {
            AnyArray::F16(ro) => quantiles::<half::f16, half::f16>(py, &ro.as_array(), &req),
            _ => Err(unsupported(a)),
        },
        other => Err(PyValueError::new_err(format!(
            "unknown result dtype {other:?}"
        ))),
    }
}
