//! Bindings of the order statistics (see `_nanops.pyi` for the contract).

use crate::dispatch::{check_ndim, dispatch, dispatch_real, readonly, PyElement};
use crate::errors::guard;
use nanops::select::SelectFloat;
use nanops::{Axes, QDtype, QuantileElement, QuantileMethod, QuantileOptions};
use ndarray::{ArrayView, Dimension};
use numpy::{PyArray, PyReadonlyArrayDyn, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

type Flagged<'py> = PyResult<(Bound<'py, PyAny>, bool)>;

/// Everything a quantile call needs besides the array.
struct Request<'py> {
    q: Vec<f64>,
    q_shape: Vec<usize>,
    axes: Vec<usize>,
    method: QuantileMethod,
    weights: Option<PyReadonlyArrayDyn<'py, f64>>,
    ignore_nan: bool,
    q_dtype: QDtype,
}

fn quantile_impl<'py, E, R>(a: &Bound<'py, PyUntypedArray>, req: &Request<'py>) -> Flagged<'py>
where
    E: PyElement + QuantileElement,
    R: SelectFloat + From<E::Value> + Default + numpy::Element,
{
    let ro = readonly::<E>(a)?;
    let v = ro.as_array();
    if let Some(w) = &req.weights {
        check_ndim(w.ndim())?;
    }
    let w = req.weights.as_ref().map(|w| w.as_array());
    let opts = QuantileOptions {
        method: req.method,
        ignore_nan: req.ignore_nan,
        weights: w,
        q_dtype: req.q_dtype,
    };
    let (q, axes) = (req.q.as_slice(), req.axes.clone());
    let r = guard(a.py(), a.len(), || {
        nanops::quantile_report::<_, E, _, R>(&v, q, axes, &opts)
    })?;
    let mut shape = req.q_shape.clone();
    shape.extend_from_slice(&r.values.shape()[1..]);
    let values = r
        .values
        .into_shape_with_order(shape)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok((
        PyArray::from_owned_array(a.py(), values).into_any(),
        r.degenerate > 0,
    ))
}

fn quantile_f64<'py, E>(a: &Bound<'py, PyUntypedArray>, req: &Request<'py>) -> Flagged<'py>
where
    E: PyElement + QuantileElement,
    f64: From<E::Value>,
{
    quantile_impl::<E, f64>(a, req)
}

fn quantile_f32<'py, E>(a: &Bound<'py, PyUntypedArray>, req: &Request<'py>) -> Flagged<'py>
where
    E: PyElement + QuantileElement,
    f32: From<E::Value>,
{
    quantile_impl::<E, f32>(a, req)
}

fn quantile_f16<'py, E>(a: &Bound<'py, PyUntypedArray>, req: &Request<'py>) -> Flagged<'py>
where
    E: PyElement + QuantileElement,
    half::f16: From<E::Value>,
{
    quantile_impl::<E, half::f16>(a, req)
}

/// Medians and the number of empty (all-NaN) slices; a 0-d result as a
/// NumPy scalar if `scalar`.
pub(crate) fn median_impl<'py, E>(
    a: &Bound<'py, PyUntypedArray>,
    axes: Vec<usize>,
    ignore_nan: bool,
    scalar: bool,
) -> PyResult<(Bound<'py, PyAny>, usize)>
where
    E: PyElement + QuantileElement,
    E::Value: numpy::Element,
{
    let ro = readonly::<E>(a)?;
    median_of(a.py(), &ro.as_array(), Axes::from(axes), ignore_nan, scalar)
}

/// [`median_impl`] of a view.
pub(crate) fn median_of<'py, E, D>(
    py: Python<'py>,
    v: &ArrayView<'_, E, D>,
    axes: Axes,
    ignore_nan: bool,
    scalar: bool,
) -> PyResult<(Bound<'py, PyAny>, usize)>
where
    E: PyElement + QuantileElement,
    E::Value: numpy::Element,
    D: Dimension,
{
    let r = guard(py, v.len(), || nanops::median_report(v, axes, ignore_nan))?;
    let values = match r.values.first() {
        Some(x) if scalar && r.values.ndim() == 0 => crate::dispatch::numpy_scalar(py, x)?,
        _ => PyArray::from_owned_array(py, r.values).into_any(),
    };
    Ok((values, r.degenerate))
}

/// `nanquantile` of a float array for one Python-float `q` (NumPy's weak
/// scalar: the result keeps the dtype, `q` arithmetic in `float64`), as the
/// fast path wants it: a 0-d result as a NumPy scalar, and whether some
/// slice was all-NaN.
pub(crate) fn weak_quantile_impl<'py, E>(
    a: &Bound<'py, PyUntypedArray>,
    q: f64,
    axes: Vec<usize>,
    method: QuantileMethod,
) -> PyResult<(Bound<'py, PyAny>, bool)>
where
    E: PyElement + QuantileElement,
    E::Value: numpy::Element,
{
    let ro = readonly::<E>(a)?;
    let v = ro.as_array();
    let opts = QuantileOptions {
        method,
        ignore_nan: true,
        weights: None,
        q_dtype: QDtype::Float64,
    };
    let r = guard(a.py(), a.len(), || {
        nanops::quantile_report::<_, E, _, E::Value>(&v, &[q], axes, &opts)
    })?;
    // the leading axis is `q`'s, of length one
    let values = r.values.index_axis_move(ndarray::Axis(0), 0);
    let values = match values.first() {
        Some(x) if values.ndim() == 0 => crate::dispatch::numpy_scalar(a.py(), x)?,
        _ => PyArray::from_owned_array(a.py(), values).into_any(),
    };
    Ok((values, r.degenerate > 0))
}

/// Quantiles `q` (a 1-d `q` of `float64`, not weak) of a `float64` array,
/// ignoring NaN: the result is `float64` of shape `(q.len(),) + kept`, and
/// the flag tells whether some slice was all-NaN. The fast path of a list
/// or tuple of Python floats.
pub(crate) fn float64_quantiles<'py>(
    a: &Bound<'py, PyUntypedArray>,
    q: Vec<f64>,
    axes: Vec<usize>,
    method: QuantileMethod,
) -> Flagged<'py> {
    let req = Request {
        q_shape: vec![q.len()],
        q,
        axes,
        method,
        weights: None,
        ignore_nan: true,
        q_dtype: QDtype::Float64,
    };
    quantile_impl::<f64, f64>(a, &req)
}

fn parse_q_dtype(s: &str) -> PyResult<QDtype> {
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
fn nanquantile<'py>(
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
        .map_err(|e: nanops::select::UnknownQuantileMethod| PyValueError::new_err(e.to_string()))?;
    check_ndim(q.ndim())?;
    let qv = q.as_array();
    let req = Request {
        q: qv.iter().copied().collect(),
        q_shape: qv.shape().to_vec(),
        axes,
        method,
        weights,
        ignore_nan,
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
    match result.as_str() {
        "f8" => dispatch_real!(a, quantile_f64(&req)),
        "f4" => dispatch!(a, quantile_f32(&req), f32, half::f16),
        "f2" => dispatch!(a, quantile_f16(&req), half::f16),
        other => Err(PyValueError::new_err(format!(
            "unknown result dtype {other:?}"
        ))),
    }
}

/// Median of each slice (NumPy's `median`/`nanmedian` arithmetic, without its overflow).
#[pyfunction]
fn nanmedian<'py>(
    a: &Bound<'py, PyUntypedArray>,
    axes: Vec<usize>,
    ignore_nan: bool,
) -> Flagged<'py> {
    let (values, empty) = dispatch_real!(a, median_impl(axes, ignore_nan, false))?;
    Ok((values, empty > 0))
}

/// Adds the order-statistics functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(nanquantile, m)?)?;
    m.add_function(wrap_pyfunction!(nanmedian, m)?)?;
    Ok(())
}
