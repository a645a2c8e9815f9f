//! The table of primitives: one row per compiled function of
//! `nanops._nanops` (see `_nanops.pyi` for the contract), from which the
//! `#[pyfunction]`s and the module's registration are made.
//!
//! A row is `fn NAME(a, ARGS) -> Out|Flagged [CATEGORY] |v| BODY;`: the
//! function takes a NumPy array `a` of a dtype of `CATEGORY` (`all`, `real`,
//! `inexact`, `float`: see `array::with_array!`) and its `ARGS`, and returns
//! `BODY`, evaluated with `v` the typed view of `a` (element type `E`).
//! Functions with bodies of their own (quantiles, the fast entry points)
//! are listed after the rows, for registration only.

use crate::array::with_array;
use crate::compute::{flagged, indices, sum_of_squares, to_intp, to_py, values, Flagged, Out};
use crate::errors::guard;
use nanops::stats::{
    Median, NanArgMax, NanArgMin, NanCount, NanKurt, NanMax, NanMean, NanMin, NanProd, NanSkew,
    NanStd, NanSum, NanVar,
};
use nanops::{Axes, Ddof, NanPolicy, QuantileMethod};
use numpy::{PyReadonlyArray1, PyReadonlyArrayDyn, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// NaN skipped (`nan*` functions) or propagated (`median`, `quantile`).
fn policy(ignore_nan: bool) -> NanPolicy {
    if ignore_nan {
        NanPolicy::Omit
    } else {
        NanPolicy::Propagate
    }
}

/// `f(labels)` computed with the GIL released (unless `len` is tiny), as
/// a new array: the body of the group primitives.
fn grouped<'py, T: numpy::Element + Send>(
    py: Python<'py>,
    len: usize,
    labels: &PyReadonlyArrayDyn<'py, i64>,
    f: impl FnOnce(&ndarray::ArrayViewD<'_, i64>) -> nanops::Result<ndarray::ArrayD<T>> + Send,
) -> Out<'py> {
    let l = labels.as_array();
    to_py(py, guard(py, len, || f(&l))?, false)
}

/// The second array of a function of two series, borrowed as the first's
/// element type `E` (`TypeError` for another dtype: the Python layer casts
/// both to one).
fn second<'py, E: numpy::Element>(
    b: &Bound<'py, PyUntypedArray>,
) -> PyResult<numpy::PyReadonlyArrayDyn<'py, E>> {
    use numpy::PyArrayMethods;
    match b.cast::<numpy::PyArrayDyn<E>>() {
        Ok(arr) => Ok(arr.try_readonly()?),
        Err(_) => Err(crate::array::unsupported(b)),
    }
}

/// Expands the rows into `#[pyfunction]`s and `register`.
macro_rules! primitives {
    (
        $($(#[$doc:meta])* fn $name:ident($a:ident $(, $arg:ident: $argty:ty)*) -> $ret:ident [$cat:ident] |$v:ident| $body:expr;)*
        also: $($extra:path),* $(,)?
    ) => {
        $(
            $(#[$doc])*
            #[pyfunction]
            #[pyo3(signature = ($a $(, $arg)*))]
            fn $name<'py>($a: &Bound<'py, PyUntypedArray> $(, $arg: $argty)*) -> $ret<'py> {
                with_array!($a, $cat, |$v: E| $body)
            }
        )*

        /// Adds every primitive to the module.
        pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $(m.add_function(wrap_pyfunction!($name, m)?)?;)*
            $(m.add_function(wrap_pyfunction!($extra, m)?)?;)*
            Ok(())
        }
    };
}

/// Sum of squares, NaN propagated (bottleneck's `ss`; int32 kept).
#[pyfunction]
fn ss<'py>(a: &Bound<'py, PyUntypedArray>, axes: Vec<usize>) -> Out<'py> {
    sum_of_squares(a, axes, false)
}

/// bottleneck's `replace`: every value of `a` equal to `old_new[0]` (every
/// NaN, if that is NaN) set to `old_new[1]`, in place. `old_new` has `a`'s
/// dtype (the Python layer casts and checks the two values); a read-only
/// `a` is NumPy's `ValueError`.
#[pyfunction]
fn replace(a: &Bound<'_, PyUntypedArray>, old_new: &Bound<'_, PyUntypedArray>) -> PyResult<()> {
    use numpy::{PyArray1, PyArrayDyn, PyArrayMethods};
    macro_rules! typed {
        ($($t:ty),*) => {$(
            if let Ok(arr) = a.cast::<PyArrayDyn<$t>>() {
                let pair = old_new.cast::<PyArray1<$t>>()?.readonly();
                let (old, new) = match pair.as_slice()? {
                    &[old, new] => (old, new),
                    _ => return Err(PyValueError::new_err("old_new must hold two values")),
                };
                let mut rw = arr
                    .try_readwrite()
                    .map_err(|_| PyValueError::new_err("assignment destination is read-only"))?;
                let mut v = rw.as_array_mut();
                return guard(a.py(), a.len(), || {
                    nanops::replace(&mut v, old, new);
                    Ok(())
                });
            }
        )*};
    }
    typed!(
        f64,
        f32,
        half::f16,
        num_complex::Complex64,
        num_complex::Complex32,
        i64,
        i32,
        i16,
        i8,
        u64,
        u32,
        u16,
        u8,
        bool
    );
    Err(crate::array::unsupported(a))
}

primitives! {
    /// Sum of non-NaN values.
    fn nansum(a, axes: Vec<usize>) -> Out [all] |v| values(a.py(), &v, Axes::from(axes), NanSum, false);
    /// Product of non-NaN values.
    fn nanprod(a, axes: Vec<usize>) -> Out [all] |v| values(a.py(), &v, Axes::from(axes), NanProd, false);
    /// Number of non-NaN values.
    fn nancount(a, axes: Vec<usize>) -> Out [all] |v| indices(a.py(), &v, Axes::from(axes), NanCount, false);
    /// Whether each slice holds a NaN.
    fn anynan(a, axes: Vec<usize>) -> Out [all] |v|
        to_py(a.py(), guard(a.py(), a.len(), || nanops::anynan(&v, Axes::from(axes)))?, false);
    /// Whether each slice is all NaN (true for an empty slice).
    fn allnan(a, axes: Vec<usize>) -> Out [all] |v|
        to_py(a.py(), guard(a.py(), a.len(), || nanops::allnan(&v, Axes::from(axes)))?, false);
    /// Mean of non-NaN values, and whether a slice was empty.
    fn nanmean(a, axes: Vec<usize>) -> Flagged [all] |v| flagged(a.py(), &v, Axes::from(axes), NanMean, false);
    /// Variance (or standard deviation) of non-NaN values, and whether a slice had `count - ddof <= 0`.
    fn nanvar(a, axes: Vec<usize>, ddof: f64, std: bool) -> Flagged [all] |v| if std {
        flagged(a.py(), &v, Axes::from(axes), NanStd(Ddof(ddof)), false)
    } else {
        flagged(a.py(), &v, Axes::from(axes), NanVar(Ddof(ddof)), false)
    };
    /// Skewness of non-NaN values (scipy's `skew`), and whether a slice had fewer than two.
    fn nanskew(a, axes: Vec<usize>, bias: bool) -> Flagged [real] |v|
        flagged(a.py(), &v, Axes::from(axes), NanSkew { bias }, false);
    /// Kurtosis of non-NaN values (scipy's `kurtosis`), and whether a slice had fewer than two.
    fn nankurt(a, axes: Vec<usize>, bias: bool, fisher: bool) -> Flagged [real] |v|
        flagged(a.py(), &v, Axes::from(axes), NanKurt { bias, fisher }, false);
    /// Minimum ignoring NaN, and whether a slice was all-NaN.
    fn nanmin(a, axes: Vec<usize>) -> Flagged [all] |v| flagged(a.py(), &v, Axes::from(axes), NanMin, false);
    /// Maximum ignoring NaN, and whether a slice was all-NaN.
    fn nanmax(a, axes: Vec<usize>) -> Flagged [all] |v| flagged(a.py(), &v, Axes::from(axes), NanMax, false);
    /// Index of the first minimum ignoring NaN.
    fn nanargmin(a, axis: Option<isize>) -> Out [all] |v|
        indices(a.py(), &v, axis.map_or(Axes::All, Axes::One), NanArgMin::default(), false);
    /// Index of the first maximum ignoring NaN.
    fn nanargmax(a, axis: Option<isize>) -> Out [all] |v|
        indices(a.py(), &v, axis.map_or(Axes::All, Axes::One), NanArgMax::default(), false);
    /// Cumulative sum, NaN as zero.
    fn nancumsum(a, axis: Option<isize>) -> Out [all] |v|
        to_py(a.py(), guard(a.py(), a.len(), || nanops::nancumsum(&v, axis))?, false);
    /// Cumulative product, NaN as one.
    fn nancumprod(a, axis: Option<isize>) -> Out [all] |v|
        to_py(a.py(), guard(a.py(), a.len(), || nanops::nancumprod(&v, axis))?, false);
    /// Median of each slice (NumPy's `median`/`nanmedian` arithmetic, without its overflow).
    fn nanmedian(a, axes: Vec<usize>, ignore_nan: bool) -> Flagged [real] |v|
        flagged(a.py(), &v, Axes::from(axes), Median(policy(ignore_nan)), false);
    /// Moving sum (NaN where fewer than `min_count` non-NaN values).
    fn move_sum(a, window: usize, min_count: Option<usize>, axis: isize) -> Out [real] |v|
        to_py(a.py(), guard(a.py(), a.len(), || nanops::move_sum(&v, window, min_count, axis))?, false);
    /// Moving mean (NaN where fewer than `min_count` non-NaN values).
    fn move_mean(a, window: usize, min_count: Option<usize>, axis: isize) -> Out [real] |v|
        to_py(a.py(), guard(a.py(), a.len(), || nanops::move_mean(&v, window, min_count, axis))?, false);
    /// Moving count of non-NaN values (NaN where fewer than `min_count` non-NaN values).
    fn move_count(a, window: usize, min_count: Option<usize>, axis: isize) -> Out [real] |v|
        to_py(a.py(), guard(a.py(), a.len(), || nanops::move_count(&v, window, min_count, axis))?, false);
    /// Moving minimum (NaN where fewer than `min_count` non-NaN values).
    fn move_min(a, window: usize, min_count: Option<usize>, axis: isize) -> Out [real] |v|
        to_py(a.py(), guard(a.py(), a.len(), || nanops::move_min(&v, window, min_count, axis))?, false);
    /// Moving maximum (NaN where fewer than `min_count` non-NaN values).
    fn move_max(a, window: usize, min_count: Option<usize>, axis: isize) -> Out [real] |v|
        to_py(a.py(), guard(a.py(), a.len(), || nanops::move_max(&v, window, min_count, axis))?, false);
    /// Moving position of the minimum, back from the window's end (NaN where fewer than `min_count` non-NaN values).
    fn move_argmin(a, window: usize, min_count: Option<usize>, axis: isize) -> Out [real] |v|
        to_py(a.py(), guard(a.py(), a.len(), || nanops::move_argmin(&v, window, min_count, axis))?, false);
    /// Moving position of the maximum, back from the window's end (NaN where fewer than `min_count` non-NaN values).
    fn move_argmax(a, window: usize, min_count: Option<usize>, axis: isize) -> Out [real] |v|
        to_py(a.py(), guard(a.py(), a.len(), || nanops::move_argmax(&v, window, min_count, axis))?, false);
    /// Moving variance with `ddof`.
    fn move_var(a, window: usize, min_count: Option<usize>, axis: isize, ddof: f64) -> Out [real] |v|
        to_py(a.py(), guard(a.py(), a.len(), || nanops::move_var(&v, window, min_count, ddof, axis))?, false);
    /// Moving standard deviation with `ddof`.
    fn move_std(a, window: usize, min_count: Option<usize>, axis: isize, ddof: f64) -> Out [real] |v|
        to_py(a.py(), guard(a.py(), a.len(), || nanops::move_std(&v, window, min_count, ddof, axis))?, false);
    /// Moving median (NaN where fewer than `min_count` non-NaN values).
    fn move_median(a, window: usize, min_count: Option<usize>, axis: isize) -> Out [real] |v|
        to_py(a.py(), guard(a.py(), a.len(), || nanops::move_median(&v, window, min_count, axis))?, false);
    /// Moving quantile `q` by NumPy's `method` (NaN where fewer than `min_count` non-NaN values).
    fn move_quantile(a, window: usize, min_count: Option<usize>, axis: isize, q: f64, method: &str) -> Out [real] |v| {
        let method: QuantileMethod = method
            .parse()
            .map_err(|e: nanops::UnknownQuantileMethod| PyValueError::new_err(e.to_string()))?;
        to_py(a.py(), guard(a.py(), a.len(), || nanops::move_quantile(&v, window, min_count, q, method, axis))?, false)
    };
    /// Moving rank of each value in its window, bottleneck's (NaN where fewer than `min_count` non-NaN values).
    fn move_rank(a, window: usize, min_count: Option<usize>, axis: isize) -> Out [real] |v|
        to_py(a.py(), guard(a.py(), a.len(), || nanops::move_rank(&v, window, min_count, axis))?, false);
    /// Exponentially weighted moving mean, numbagg's (`alpha`: one value or one per position; NaN where the weight is below `min_weight`).
    fn move_exp_nanmean(a, alpha: PyReadonlyArray1<'py, f64>, min_weight: f64, axis: isize) -> Out [real] |v| {
        let alpha = alpha.as_slice()?;
        to_py(a.py(), guard(a.py(), a.len(), || nanops::move_exp_nanmean(&v, alpha, min_weight, axis))?, false)
    };
    /// Exponentially weighted moving sum, numbagg's (`alpha`: one value or one per position; NaN where the weight is below `min_weight`).
    fn move_exp_nansum(a, alpha: PyReadonlyArray1<'py, f64>, min_weight: f64, axis: isize) -> Out [real] |v| {
        let alpha = alpha.as_slice()?;
        to_py(a.py(), guard(a.py(), a.len(), || nanops::move_exp_nansum(&v, alpha, min_weight, axis))?, false)
    };
    /// Exponentially weighted moving variance, numbagg's (`alpha`: one value or one per position; NaN where the weight is below `min_weight`).
    fn move_exp_nanvar(a, alpha: PyReadonlyArray1<'py, f64>, min_weight: f64, axis: isize) -> Out [real] |v| {
        let alpha = alpha.as_slice()?;
        to_py(a.py(), guard(a.py(), a.len(), || nanops::move_exp_nanvar(&v, alpha, min_weight, axis))?, false)
    };
    /// Exponentially weighted moving standard deviation, numbagg's (`alpha`: one value or one per position; NaN where the weight is below `min_weight`).
    fn move_exp_nanstd(a, alpha: PyReadonlyArray1<'py, f64>, min_weight: f64, axis: isize) -> Out [real] |v| {
        let alpha = alpha.as_slice()?;
        to_py(a.py(), guard(a.py(), a.len(), || nanops::move_exp_nanstd(&v, alpha, min_weight, axis))?, false)
    };
    /// Exponentially weighted moving count, numbagg's (`alpha`: one value or one per position; NaN where the weight is below `min_weight`).
    fn move_exp_nancount(a, alpha: PyReadonlyArray1<'py, f64>, min_weight: f64, axis: isize) -> Out [real] |v| {
        let alpha = alpha.as_slice()?;
        to_py(a.py(), guard(a.py(), a.len(), || nanops::move_exp_nancount(&v, alpha, min_weight, axis))?, false)
    };
    /// Moving covariance of `a` and `b` (of `a`'s dtype and shape), numbagg's (NaN where fewer than `min_count` pairs, at least 2).
    fn move_cov(a, b: &Bound<'py, PyUntypedArray>, window: usize, min_count: Option<usize>, axis: isize) -> Out [real] |v| {
        let b = second::<E>(b)?;
        let w = b.as_array();
        to_py(a.py(), guard(a.py(), a.len(), || nanops::move_cov(&v, &w, window, min_count, axis))?, false)
    };
    /// Moving correlation of `a` and `b` (of `a`'s dtype and shape), numbagg's (NaN where fewer than `min_count` pairs).
    fn move_corr(a, b: &Bound<'py, PyUntypedArray>, window: usize, min_count: Option<usize>, axis: isize) -> Out [real] |v| {
        let b = second::<E>(b)?;
        let w = b.as_array();
        to_py(a.py(), guard(a.py(), a.len(), || nanops::move_corr(&v, &w, window, min_count, axis))?, false)
    };
    /// Exponentially weighted covariance of `a` and `b` (of `a`'s dtype and shape), numbagg's.
    fn move_exp_nancov(a, b: &Bound<'py, PyUntypedArray>, alpha: PyReadonlyArray1<'py, f64>, min_weight: f64, axis: isize) -> Out [real] |v| {
        let (b, alpha) = (second::<E>(b)?, alpha.as_slice()?);
        let w = b.as_array();
        to_py(a.py(), guard(a.py(), a.len(), || nanops::move_exp_nancov(&v, &w, alpha, min_weight, axis))?, false)
    };
    /// Exponentially weighted correlation of `a` and `b` (of `a`'s dtype and shape), numbagg's.
    fn move_exp_nancorr(a, b: &Bound<'py, PyUntypedArray>, alpha: PyReadonlyArray1<'py, f64>, min_weight: f64, axis: isize) -> Out [real] |v| {
        let (b, alpha) = (second::<E>(b)?, alpha.as_slice()?);
        let w = b.as_array();
        to_py(a.py(), guard(a.py(), a.len(), || nanops::move_exp_nancorr(&v, &w, alpha, min_weight, axis))?, false)
    };
    /// Covariance (`corr`: correlation) matrix of `(..., vars, obs)`, numbagg's `nancovmatrix`/`nancorrmatrix`.
    fn co_matrix(a, corr: bool) -> Out [real] |v|
        to_py(a.py(), guard(a.py(), a.len(), || if corr {
            nanops::nancorrmatrix(&v)
        } else {
            nanops::nancovmatrix(&v)
        })?, false);
    /// Moving covariance (`corr`: correlation) matrix of `(..., obs, vars)`, numbagg's `move_covmatrix`/`move_corrmatrix`.
    fn move_co_matrix(a, window: usize, min_count: Option<usize>, corr: bool) -> Out [real] |v|
        to_py(a.py(), guard(a.py(), a.len(), || if corr {
            nanops::move_corrmatrix(&v, window, min_count)
        } else {
            nanops::move_covmatrix(&v, window, min_count)
        })?, false);
    /// Exponential covariance (`corr`: correlation) matrix of `(..., obs, vars)`, numbagg's `move_exp_nancovmatrix`/`move_exp_nancorrmatrix`.
    fn move_exp_co_matrix(a, alpha: PyReadonlyArray1<'py, f64>, min_weight: f64, corr: bool) -> Out [real] |v| {
        let alpha = alpha.as_slice()?;
        to_py(a.py(), guard(a.py(), a.len(), || if corr {
            nanops::move_exp_nancorrmatrix(&v, alpha, min_weight)
        } else {
            nanops::move_exp_nancovmatrix(&v, alpha, min_weight)
        })?, false)
    };
    /// NaN filled forwards (`backward`: backwards) at most `limit` positions.
    fn fill(a, limit: Option<usize>, axis: isize, backward: bool) -> Out [all] |v|
        to_py(a.py(), guard(a.py(), a.len(), || if backward {
            nanops::bfill(&v, limit, axis)
        } else {
            nanops::ffill(&v, limit, axis)
        })?, false);
    /// Sum of the non-NaN values per label.
    fn group_nansum(a, labels: PyReadonlyArrayDyn<'py, i64>, axes: Vec<usize>, num_labels: Option<usize>) -> Out [all] |v|
        grouped(a.py(), a.len(), &labels, |l| nanops::group_nansum(&v, l, Axes::from(axes), num_labels));
    /// Product of the non-NaN values per label.
    fn group_nanprod(a, labels: PyReadonlyArrayDyn<'py, i64>, axes: Vec<usize>, num_labels: Option<usize>) -> Out [all] |v|
        grouped(a.py(), a.len(), &labels, |l| nanops::group_nanprod(&v, l, Axes::from(axes), num_labels));
    /// Mean of the non-NaN values per label (NaN for an empty group).
    fn group_nanmean(a, labels: PyReadonlyArrayDyn<'py, i64>, axes: Vec<usize>, num_labels: Option<usize>) -> Out [all] |v|
        grouped(a.py(), a.len(), &labels, |l| nanops::group_nanmean(&v, l, Axes::from(axes), num_labels));
    /// Minimum per label (NaN for an empty group).
    fn group_nanmin(a, labels: PyReadonlyArrayDyn<'py, i64>, axes: Vec<usize>, num_labels: Option<usize>) -> Out [all] |v|
        grouped(a.py(), a.len(), &labels, |l| nanops::group_nanmin(&v, l, Axes::from(axes), num_labels));
    /// Maximum per label (NaN for an empty group).
    fn group_nanmax(a, labels: PyReadonlyArrayDyn<'py, i64>, axes: Vec<usize>, num_labels: Option<usize>) -> Out [all] |v|
        grouped(a.py(), a.len(), &labels, |l| nanops::group_nanmax(&v, l, Axes::from(axes), num_labels));
    /// Position of the first minimum per label, as float64 (NaN for an empty group).
    fn group_nanargmin(a, labels: PyReadonlyArrayDyn<'py, i64>, axes: Vec<usize>, num_labels: Option<usize>) -> Out [all] |v|
        grouped(a.py(), a.len(), &labels, |l| nanops::group_nanargmin(&v, l, Axes::from(axes), num_labels));
    /// Position of the first maximum per label, as float64 (NaN for an empty group).
    fn group_nanargmax(a, labels: PyReadonlyArrayDyn<'py, i64>, axes: Vec<usize>, num_labels: Option<usize>) -> Out [all] |v|
        grouped(a.py(), a.len(), &labels, |l| nanops::group_nanargmax(&v, l, Axes::from(axes), num_labels));
    /// First non-NaN value per label (NaN for an empty group).
    fn group_nanfirst(a, labels: PyReadonlyArrayDyn<'py, i64>, axes: Vec<usize>, num_labels: Option<usize>) -> Out [all] |v|
        grouped(a.py(), a.len(), &labels, |l| nanops::group_nanfirst(&v, l, Axes::from(axes), num_labels));
    /// Last non-NaN value per label (NaN for an empty group).
    fn group_nanlast(a, labels: PyReadonlyArrayDyn<'py, i64>, axes: Vec<usize>, num_labels: Option<usize>) -> Out [all] |v|
        grouped(a.py(), a.len(), &labels, |l| nanops::group_nanlast(&v, l, Axes::from(axes), num_labels));
    /// Whether any non-NaN value of a label is nonzero.
    fn group_nanany(a, labels: PyReadonlyArrayDyn<'py, i64>, axes: Vec<usize>, num_labels: Option<usize>) -> Out [all] |v|
        grouped(a.py(), a.len(), &labels, |l| nanops::group_nanany(&v, l, Axes::from(axes), num_labels));
    /// Whether every non-NaN value of a label is nonzero.
    fn group_nanall(a, labels: PyReadonlyArrayDyn<'py, i64>, axes: Vec<usize>, num_labels: Option<usize>) -> Out [all] |v|
        grouped(a.py(), a.len(), &labels, |l| nanops::group_nanall(&v, l, Axes::from(axes), num_labels));
    /// Sum of the squares of the non-NaN values per label.
    fn group_nansum_of_squares(a, labels: PyReadonlyArrayDyn<'py, i64>, axes: Vec<usize>, num_labels: Option<usize>) -> Out [real] |v|
        grouped(a.py(), a.len(), &labels, |l| nanops::group_nansum_of_squares(&v, l, Axes::from(axes), num_labels));
    /// Number of non-NaN values per label.
    fn group_nancount(a, labels: PyReadonlyArrayDyn<'py, i64>, axes: Vec<usize>, num_labels: Option<usize>) -> Out [all] |v|
        {
        let l = labels.as_array();
        let r = guard(a.py(), a.len(), || nanops::group_nancount(&v, &l, Axes::from(axes), num_labels))?;
        to_py(a.py(), to_intp(r), false)
    };
    /// Variance (or standard deviation) per label with `ddof`.
    fn group_nanvar(a, labels: PyReadonlyArrayDyn<'py, i64>, axes: Vec<usize>, num_labels: Option<usize>, ddof: f64, std: bool) -> Out [all] |v|
        grouped(a.py(), a.len(), &labels, |l| if std {
            nanops::group_nanstd(&v, l, Axes::from(axes), num_labels, ddof)
        } else {
            nanops::group_nanvar(&v, l, Axes::from(axes), num_labels, ddof)
        });
    /// Skewness per label (scipy's `skew`).
    fn group_nanskew(a, labels: PyReadonlyArrayDyn<'py, i64>, axes: Vec<usize>, num_labels: Option<usize>, bias: bool) -> Out [real] |v|
        grouped(a.py(), a.len(), &labels, |l| nanops::group_nanskew(&v, l, Axes::from(axes), num_labels, bias));
    /// Kurtosis per label (scipy's `kurtosis`).
    fn group_nankurt(a, labels: PyReadonlyArrayDyn<'py, i64>, axes: Vec<usize>, num_labels: Option<usize>, bias: bool, fisher: bool) -> Out [real] |v|
        grouped(a.py(), a.len(), &labels, |l| nanops::group_nankurt(&v, l, Axes::from(axes), num_labels, bias, fisher));
    /// Median per label (NaN for an empty group).
    fn group_nanmedian(a, labels: PyReadonlyArrayDyn<'py, i64>, axes: Vec<usize>, num_labels: Option<usize>) -> Out [real] |v|
        grouped(a.py(), a.len(), &labels, |l| nanops::group_nanmedian(&v, l, Axes::from(axes), num_labels));
    /// Quantiles per label (`q` 1-d, its axis first; `weights` of the labels' or the values' shape).
    fn group_nanquantile(a, labels: PyReadonlyArrayDyn<'py, i64>, axes: Vec<usize>, num_labels: Option<usize>, q: Vec<f64>, method: &str, weights: Option<PyReadonlyArrayDyn<'py, f64>>) -> Out [real] |v| {
        let method: nanops::QuantileMethod = method
            .parse()
            .map_err(|e: nanops::UnknownQuantileMethod| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
        let w = weights.as_ref().map(|w| w.as_array());
        grouped(a.py(), a.len(), &labels, |l| {
            nanops::group_nanquantile(&v, l, Axes::from(axes), num_labels, &q, method, w.clone())
        })
    };
    /// Ranks along `axis` from 1, ties averaged (`nan_ranked`: NaN ranked last, each apart; otherwise NaN).
    fn rankdata(a, axis: isize, nan_ranked: bool) -> Out [real] |v| {
        let ranks = guard(a.py(), a.len(), || if nan_ranked {
            nanops::rankdata(&v, axis)
        } else {
            nanops::nanrankdata(&v, axis)
        })?;
        to_py(a.py(), ranks, false)
    };
    /// A copy partitioned along `axis` at `kth` (NaN last).
    fn partition(a, kth: usize, axis: isize) -> Out [real] |v|
        to_py(a.py(), guard(a.py(), a.len(), || nanops::partition(&v, kth, axis))?, false);
    /// The positions that partition along `axis` at `kth`.
    fn argpartition(a, kth: usize, axis: isize) -> Out [real] |v|
        to_py(a.py(), to_intp(guard(a.py(), a.len(), || nanops::argpartition(&v, kth, axis))?), false);
    also:
    ss,
    replace,
    crate::partial::partial_states,
    crate::partial::group_partial_states,
    crate::quantile::nanquantile,
    crate::ranks::order_ranks,
    crate::ranks::order_of_ranks,
    crate::chunked::grid_brackets,
    crate::chunked::bracket_select,
    crate::chunked::group_by_owner,
    crate::fast::fast_nansum,
    crate::fast::fast_nanprod,
    crate::fast::fast_ss,
    crate::fast::fast_nanflag,
    crate::fast::fast_replace,
    crate::fast::fast_rankdata,
    crate::fast::fast_partition,
    crate::fast::fast_nanmean,
    crate::fast::fast_nanvar,
    crate::fast::fast_nanextremum,
    crate::fast::fast_nanarg,
    crate::fast::fast_nanmedian,
    crate::fast::fast_nanquantile,
}
