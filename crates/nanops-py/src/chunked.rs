//! The core's selection of lanes held in many chunks ([`nanops::chunked`])
//! for `nanops._dask_order`: the brackets from every chunk's grid, one
//! chunk's counts and values against them, and the kept values sorted lane
//! by lane.

use crate::array::with_array;
use crate::errors::guard;
use nanops::select::SelectFloat;
use ndarray::{Array1, ArrayView2, Ix2, Ix3};
use numpy::{
    IntoPyArray, PyArray1, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// `ValueError` with `msg`.
fn invalid(msg: &str) -> PyErr {
    PyValueError::new_err(msg.to_string())
}

/// Brackets `(lo, hi)`, each `(lanes, brackets)` float64, holding the ranks
/// `targets_lo ..= targets_hi` of each lane, from `grids` (`(chunks, lanes,
/// k + 1)`, float64/32/16: each chunk's values at its grid ranks of
/// `counts[chunk, lane]` valid values).
#[pyfunction]
#[pyo3(signature = (grids, counts, k, targets_lo, targets_hi))]
pub(crate) fn grid_brackets<'py>(
    grids: &Bound<'py, PyUntypedArray>,
    counts: PyReadonlyArray2<'py, i64>,
    k: usize,
    targets_lo: PyReadonlyArray2<'py, i64>,
    targets_hi: PyReadonlyArray2<'py, i64>,
) -> PyResult<Bound<'py, PyTuple>> {
    let py = grids.py();
    let (counts, t_lo, t_hi) = (
        counts.as_array(),
        targets_lo.as_array(),
        targets_hi.as_array(),
    );
    let shape = grids.shape().to_vec();
    if shape.len() != 3
        || shape[2] != k + 1
        || counts.dim() != (shape[0], shape[1])
        || t_lo.nrows() != shape[1]
        || t_lo.dim() != t_hi.dim()
    {
        return Err(invalid(
            "grid_brackets: grids (chunks, lanes, k + 1), counts (chunks, lanes), \
             targets (lanes, brackets) of one shape",
        ));
    }
    let (lo, hi) = with_array!(grids, float, |v: E| {
        let v = v
            .into_dimensionality::<Ix3>()
            .map_err(|_| invalid("grids must be 3-d"))?;
        guard(py, v.len(), || {
            Ok(nanops::chunked::grid_brackets(v, counts, k, t_lo, t_hi))
        })
    })?;
    PyTuple::new(
        py,
        [
            lo.into_pyarray(py).into_any(),
            hi.into_pyarray(py).into_any(),
        ],
    )
}

/// [`nanops::chunked::bracket_select`] on a typed view, as Python objects.
fn selected<'py, T>(
    py: Python<'py>,
    lanes: ArrayView2<'_, T>,
    lo: ArrayView2<'_, f64>,
    hi: ArrayView2<'_, f64>,
    columns: &[usize],
) -> PyResult<Bound<'py, PyTuple>>
where
    T: SelectFloat + numpy::Element,
{
    let s = guard(py, lanes.len(), || {
        Ok(nanops::chunked::bracket_select(lanes, lo, hi, columns))
    })?;
    let inside: Vec<Bound<'py, PyArray1<T>>> = s
        .inside
        .into_iter()
        .map(|v| Array1::from(v).into_pyarray(py))
        .collect();
    let owner: Vec<Bound<'py, PyArray1<i32>>> = s
        .owner
        .into_iter()
        .map(|v| Array1::from(v).into_pyarray(py))
        .collect();
    PyTuple::new(
        py,
        [
            s.below.into_pyarray(py).into_any(),
            s.at_lo.into_pyarray(py).into_any(),
            s.at_hi.into_pyarray(py).into_any(),
            PyTuple::new(py, inside)?.into_any(),
            PyTuple::new(py, owner)?.into_any(),
        ],
    )
}

/// One chunk's `lanes` (`(lane length, lanes)`, float64/32/16)
/// against the brackets `lo`/`hi` (`(lanes, brackets)` float64, NaN for
/// none) in the bracket columns `columns`: `(below, at_lo, at_hi, inside,
/// owner)`, the counts `(lanes, len(columns))` int64 and per column the
/// values strictly inside with their lanes (int32).
#[pyfunction]
#[pyo3(signature = (lanes, lo, hi, columns))]
pub(crate) fn bracket_select<'py>(
    lanes: &Bound<'py, PyUntypedArray>,
    lo: PyReadonlyArray2<'py, f64>,
    hi: PyReadonlyArray2<'py, f64>,
    columns: Vec<usize>,
) -> PyResult<Bound<'py, PyTuple>> {
    let py = lanes.py();
    let (lo, hi) = (lo.as_array(), hi.as_array());
    let shape = lanes.shape().to_vec();
    if shape.len() != 2
        || lo.nrows() != shape[1]
        || lo.dim() != hi.dim()
        || columns.iter().any(|&c| c >= lo.ncols())
        || i32::try_from(shape[1]).is_err()
    {
        return Err(invalid(
            "bracket_select: lanes (length, lanes), lo and hi (lanes, brackets), \
             columns among the brackets",
        ));
    }
    with_array!(lanes, float, |v: E| {
        let v = v
            .into_dimensionality::<Ix2>()
            .map_err(|_| invalid("lanes must be 2-d"))?;
        selected::<E>(py, v, lo, hi, &columns)
    })
}

/// [`nanops::chunked::group_by_owner`] on a typed slice.
fn grouped<'py, T>(
    py: Python<'py>,
    values: &[T],
    owner: &[i32],
    lanes: usize,
) -> PyResult<Bound<'py, PyTuple>>
where
    T: SelectFloat + numpy::Element,
{
    let (sorted, counts) = guard(py, values.len(), || {
        Ok(nanops::chunked::group_by_owner(values, owner, lanes))
    })?
    .ok_or_else(|| invalid("group_by_owner: owners in 0..lanes, one per value"))?;
    PyTuple::new(
        py,
        [
            Array1::from(sorted).into_pyarray(py).into_any(),
            Array1::from(counts).into_pyarray(py).into_any(),
        ],
    )
}

/// `values` (1-d float64/32/16, no NaN) of the lanes `owner` (int32, in
/// `0..lanes`) sorted by lane, then ascending: `(sorted, counts)`, lane `j`'s
/// values following those of the lanes before it.
#[pyfunction]
#[pyo3(signature = (values, owner, lanes))]
pub(crate) fn group_by_owner<'py>(
    values: &Bound<'py, PyUntypedArray>,
    owner: PyReadonlyArray1<'py, i32>,
    lanes: usize,
) -> PyResult<Bound<'py, PyTuple>> {
    let py = values.py();
    let owner = owner.as_array();
    let owner = owner
        .as_slice()
        .ok_or_else(|| invalid("owner must be contiguous"))?;
    with_array!(values, float, |v: E| {
        let contiguous = v.as_standard_layout();
        let slice = contiguous
            .as_slice()
            .ok_or_else(|| invalid("values must be 1-d"))?;
        if v.ndim() != 1 {
            return Err(invalid("values must be 1-d"));
        }
        grouped::<E>(py, slice, owner, lanes)
    })
}
