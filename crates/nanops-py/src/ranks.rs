//! A quantile or median in two steps, for engines that hold a lane's values
//! in many chunks (`nanops.dask`): the ranks it reads of `n` values
//! (`order_ranks`), and its result from the values found at those ranks
//! (`order_of_ranks`), both by the core's [`RankPlan`], so the result is
//! the one `nanquantile`/`nanmedian` gives on the whole lane, bit for bit.

use crate::array::{unsupported, AnyArray};
use crate::errors::guard;
use crate::quantile::parse_q_dtype;
use nanops::select::{QDtype, QuantileMethod, RankPlan, SelectFloat};
use ndarray::{Array2, ArrayView2, ArrayViewD, Ix2};
use numpy::{PyArray, PyArray2, PyReadonlyArray1, PyUntypedArray};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// What one call plans: the statistic and its arguments, parsed.
struct Request {
    q: Vec<f64>,
    method: QuantileMethod,
    q_dtype: QDtype,
    median: bool,
}

impl Request {
    fn parse(q: Vec<f64>, method: &str, q_dtype: &str, median: bool) -> PyResult<Self> {
        let method = method
            .parse()
            .map_err(|e: nanops::UnknownQuantileMethod| PyValueError::new_err(e.to_string()))?;
        Ok(Self {
            q,
            method,
            q_dtype: parse_q_dtype(q_dtype)?,
            median,
        })
    }

    /// The plan for `n` values.
    fn plan(&self, n: usize) -> RankPlan {
        if self.median {
            RankPlan::median(n)
        } else {
            RankPlan::quantiles(n, &self.q, self.method, self.q_dtype)
        }
    }

    /// Most ranks one output needs (the columns of `order_ranks`).
    fn max_ranks(&self) -> usize {
        if self.median {
            2
        } else {
            2 * self.q.len()
        }
    }

    /// Results per output (the rows of `order_of_ranks`).
    fn width(&self) -> usize {
        if self.median {
            1
        } else {
            self.q.len()
        }
    }
}

/// The counts as `usize`; `ValueError` for a negative one.
fn counts_of(counts: &PyReadonlyArray1<'_, i64>) -> PyResult<Vec<usize>> {
    counts
        .as_array()
        .iter()
        .map(|&c| usize::try_from(c).map_err(|_| PyValueError::new_err("negative count")))
        .collect()
}

/// For each count `n`, the ranks (ascending) the statistic reads of `n`
/// sorted values; shape `(len(counts), 2)` for the median, `(len(counts),
/// 2 * len(q))` for quantiles, rows padded with `-1`.
#[pyfunction]
#[pyo3(signature = (counts, q, method, q_dtype, median))]
pub(crate) fn order_ranks<'py>(
    counts: PyReadonlyArray1<'py, i64>,
    q: Vec<f64>,
    method: &str,
    q_dtype: &str,
    median: bool,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let py = counts.py();
    let req = Request::parse(q, method, q_dtype, median)?;
    let ns = counts_of(&counts)?;
    let ranks = guard(py, ns.len(), || {
        let mut out = Array2::from_elem((ns.len(), req.max_ranks()), -1i64);
        for (row, &n) in out.rows_mut().into_iter().zip(&ns) {
            for (slot, &r) in row.into_iter().zip(req.plan(n).ranks()) {
                *slot = r as i64;
            }
        }
        Ok(out)
    })?;
    Ok(PyArray::from_owned_array(py, ranks))
}

/// The results of every output from the values at its ranks, `(width, outputs)`.
fn finish_all<T, R>(ns: &[usize], at: ArrayView2<'_, T>, req: &Request) -> Array2<R>
where
    T: SelectFloat,
    R: SelectFloat + From<T> + Default,
{
    let width = req.width();
    let mut out = Array2::from_elem((width, ns.len()), R::default());
    let mut row = vec![R::default(); width];
    for (j, &n) in ns.iter().enumerate() {
        let plan = req.plan(n);
        let values: Vec<T> = at.row(j).iter().copied().take(plan.ranks().len()).collect();
        plan.finish(&values, &mut row);
        out.column_mut(j)
            .iter_mut()
            .zip(&row)
            .for_each(|(o, r)| *o = *r);
    }
    out
}

/// [`finish_all`] on a typed 2-d view, as a NumPy array.
fn finished<'py, T, R>(
    py: Python<'py>,
    ns: &[usize],
    at: ArrayViewD<'_, T>,
    req: &Request,
) -> PyResult<Bound<'py, PyAny>>
where
    T: SelectFloat + Send + Sync,
    R: SelectFloat + From<T> + Default + numpy::Element + Send,
{
    let at = at
        .into_dimensionality::<Ix2>()
        .map_err(|_| PyValueError::new_err("values at the ranks must be 2-d"))?;
    if at.nrows() != ns.len() || at.ncols() < req.max_ranks() {
        return Err(PyValueError::new_err(format!(
            "values at the ranks must have shape ({}, {}), not {:?}",
            ns.len(),
            req.max_ranks(),
            at.shape()
        )));
    }
    let out = guard(py, at.len(), || Ok(finish_all::<T, R>(ns, at, req)))?;
    Ok(PyArray::from_owned_array(py, out).into_any())
}

/// For each count `n` and the values at its ranks (`at_ranks`, one row per
/// count as `order_ranks` laid them out; float64, float32 or float16), the
/// statistic in the dtype `result` (`"f8"`, `"f4"`, `"f2"`, at least as wide
/// as the values'): shape `(len(q), len(counts))` (`(1, len(counts))` for the
/// median).
#[pyfunction]
#[pyo3(signature = (counts, at_ranks, q, method, q_dtype, median, result))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn order_of_ranks<'py>(
    counts: PyReadonlyArray1<'py, i64>,
    at_ranks: &Bound<'py, PyUntypedArray>,
    q: Vec<f64>,
    method: &str,
    q_dtype: &str,
    median: bool,
    result: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let py = counts.py();
    let req = Request::parse(q, method, q_dtype, median)?;
    let ns = counts_of(&counts)?;
    use half::f16;
    match (AnyArray::borrow(at_ranks)?, result) {
        (AnyArray::F64(v), "f8") => finished::<f64, f64>(py, &ns, v.as_array(), &req),
        (AnyArray::F32(v), "f8") => finished::<f32, f64>(py, &ns, v.as_array(), &req),
        (AnyArray::F16(v), "f8") => finished::<f16, f64>(py, &ns, v.as_array(), &req),
        (AnyArray::F32(v), "f4") => finished::<f32, f32>(py, &ns, v.as_array(), &req),
        (AnyArray::F16(v), "f4") => finished::<f16, f32>(py, &ns, v.as_array(), &req),
        (AnyArray::F16(v), "f2") => finished::<f16, f16>(py, &ns, v.as_array(), &req),
        (_, "f8" | "f4" | "f2") => Err(unsupported(at_ranks)),
        (_, other) => Err(PyValueError::new_err(format!(
            "unknown result dtype {other:?}"
        ))),
    }
}
