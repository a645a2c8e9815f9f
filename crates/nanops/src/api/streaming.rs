//! Streaming reductions: one pass over memory, mergeable states.

use crate::axes::Axes;
use crate::element::Element;
use crate::error::{ensure_memory, Error, Result};
use crate::kernels::{
    CountReducer, ExtremumReducer, MeanReducer, ProdReducer, Reducer, SumReducer, VarReducer,
};
use crate::par;
use ndarray::{ArrayBase, ArrayD, Data, Dimension};

/// Delta degrees of freedom of a variance: the divisor is `count − ddof`.
///
/// NumPy accepts any real `ddof` (and the alias `correction`); `Ddof(0.0)` is
/// the population variance, `Ddof(1.0)` the unbiased sample variance.
///
/// ```
/// use nanops::Ddof;
/// assert_eq!(Ddof::default(), Ddof(0.0));
/// assert_eq!(Ddof::from(1), Ddof(1.0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Ddof(pub f64);

impl From<f64> for Ddof {
    fn from(x: f64) -> Self {
        Ddof(x)
    }
}

impl From<i32> for Ddof {
    fn from(x: i32) -> Self {
        Ddof(x as f64)
    }
}

/// Results of a reduction, with the number of slices that had no usable value.
///
/// `degenerate` counts the output elements whose slice was empty or all-NaN
/// (for `nanvar`/`nanstd`: had `count − ddof ≤ 0`); NumPy warns about them.
///
/// ```
/// use ndarray::array;
/// let a = array![[1.0, f64::NAN], [f64::NAN, f64::NAN]];
/// let r = nanops::nanmean_report(&a, 1).unwrap();
/// assert_eq!(r.degenerate, 1);
/// assert!(r.values[1].is_nan());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Report<T> {
    /// One value per output element.
    pub values: ArrayD<T>,
    /// Number of output elements whose slice had no usable value.
    pub degenerate: usize,
}

fn run<S, E, D, R>(a: &ArrayBase<S, D>, axes: Axes, r: &R) -> Result<Report<R::Output>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
    R: Reducer<E>,
{
    let view = a.view().into_dyn();
    let axes = axes.normalize(view.ndim())?;
    // One result, one state and one offset per output element.
    let n_out = (0..view.ndim())
        .filter(|i| !axes.contains(i))
        .try_fold(1usize, |n, i| n.checked_mul(view.shape()[i]))
        .ok_or(Error::OutOfMemory { bytes: usize::MAX })?;
    let per_output = std::mem::size_of::<R::Output>()
        + std::mem::size_of::<R::State>()
        + std::mem::size_of::<isize>();
    ensure_memory(&[(n_out, per_output)])?;
    let (values, degenerate) = par::reduce(&view, &axes, r);
    Ok(Report { values, degenerate })
}

/// Fails when a reduction without identity would run over zero values.
fn check_nonempty<S: Data, D: Dimension>(
    a: &ArrayBase<S, D>,
    axes: &Axes,
    op: &'static str,
) -> Result<()> {
    let ax = axes.normalize(a.ndim())?;
    let shape = a.shape();
    let reduced_empty = ax.iter().any(|&i| shape[i] == 0);
    let out_empty = (0..a.ndim()).any(|i| !ax.contains(&i) && shape[i] == 0);
    if reduced_empty && !out_empty {
        return Err(Error::EmptyReduction { op });
    }
    Ok(())
}

/// Sum of the non-NaN values over `axes`; empty slices sum to zero.
///
/// ```text
/// nansum(x) = Σ { xᵢ : xᵢ not NaN }
/// ```
/// Accumulated in [`Element::Acc`] (`f32` → `f64`, `f16` → `f32`) with
/// compensated block sums; integers wrap on overflow as NumPy's.
///
/// # Errors
/// [`Error::AxisOutOfBounds`], [`Error::DuplicateAxis`].
///
/// ```
/// use ndarray::array;
/// let a = array![[1.0, f64::NAN], [3.0, 4.0]];
/// assert_eq!(nanops::nansum(&a, 0).unwrap(), array![4.0, 4.0].into_dyn());
/// assert_eq!(nanops::nansum(&a, nanops::Axes::All).unwrap()[[]], 8.0);
/// ```
pub fn nansum<S, E, D>(a: &ArrayBase<S, D>, axes: impl Into<Axes>) -> Result<ArrayD<E::Sum>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
{
    Ok(run(a, axes.into(), &SumReducer)?.values)
}

/// Product of the non-NaN values over `axes`; empty slices give one.
///
/// ```text
/// nanprod(x) = Π { xᵢ : xᵢ not NaN }
/// ```
///
/// # Errors
/// [`Error::AxisOutOfBounds`], [`Error::DuplicateAxis`].
///
/// ```
/// use ndarray::array;
/// let a = array![2.0, f64::NAN, 3.0];
/// assert_eq!(nanops::nanprod(&a, 0).unwrap()[[]], 6.0);
/// ```
pub fn nanprod<S, E, D>(a: &ArrayBase<S, D>, axes: impl Into<Axes>) -> Result<ArrayD<E::Sum>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
{
    Ok(run(a, axes.into(), &ProdReducer)?.values)
}

/// Number of non-NaN values over `axes` (NumPy has no such function).
///
/// ```text
/// nancount(x) = #{ i : xᵢ not NaN }
/// ```
///
/// # Errors
/// [`Error::AxisOutOfBounds`], [`Error::DuplicateAxis`].
///
/// ```
/// use ndarray::array;
/// let a = array![[1.0, f64::NAN], [f64::NAN, f64::NAN]];
/// assert_eq!(nanops::nancount(&a, 1).unwrap(), array![1, 0].into_dyn());
/// ```
pub fn nancount<S, E, D>(a: &ArrayBase<S, D>, axes: impl Into<Axes>) -> Result<ArrayD<u64>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
{
    Ok(run(a, axes.into(), &CountReducer)?.values)
}

/// Mean of the non-NaN values over `axes`, with the count of empty slices.
///
/// # Errors
/// As [`nanmean`].
///
/// ```
/// use ndarray::array;
/// let r = nanops::nanmean_report(&array![f64::NAN], 0).unwrap();
/// assert_eq!(r.degenerate, 1);
/// ```
pub fn nanmean_report<S, E, D>(
    a: &ArrayBase<S, D>,
    axes: impl Into<Axes>,
) -> Result<Report<E::Mean>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
{
    run(a, axes.into(), &MeanReducer)
}

/// Mean of the non-NaN values over `axes`; NaN for an empty or all-NaN slice.
///
/// ```text
/// nanmean(x) = nansum(x) / nancount(x)
/// ```
/// Integers and `bool` give `f64`; `f16`/`f32` keep their type but are
/// accumulated in `f32`/`f64`.
///
/// # Errors
/// [`Error::AxisOutOfBounds`], [`Error::DuplicateAxis`].
///
/// ```
/// use ndarray::array;
/// let a = array![[1.0, f64::NAN], [3.0, 4.0]];
/// assert_eq!(nanops::nanmean(&a, 1).unwrap(), array![1.0, 3.5].into_dyn());
/// assert_eq!(nanops::nanmean(&array![1_i32, 2], 0).unwrap()[[]], 1.5);
/// ```
pub fn nanmean<S, E, D>(a: &ArrayBase<S, D>, axes: impl Into<Axes>) -> Result<ArrayD<E::Mean>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
{
    Ok(nanmean_report(a, axes)?.values)
}

/// Variance of the non-NaN values, with the count of slices where `count − ddof ≤ 0`.
///
/// # Errors
/// As [`nanvar`].
///
/// ```
/// use ndarray::array;
/// let r = nanops::nanvar_report(&array![1.0, f64::NAN], 0, nanops::Ddof(1.0)).unwrap();
/// assert_eq!(r.degenerate, 1);
/// ```
pub fn nanvar_report<S, E, D>(
    a: &ArrayBase<S, D>,
    axes: impl Into<Axes>,
    ddof: impl Into<Ddof>,
) -> Result<Report<E::Var>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
{
    let r = VarReducer {
        ddof: ddof.into().0,
        std: false,
    };
    run(a, axes.into(), &r)
}

/// Variance of the non-NaN values over `axes`.
///
/// ```text
/// nanvar(x) = Σ |xᵢ − mean|² / (n − ddof)      over the n non-NaN xᵢ
/// ```
/// NaN where `n − ddof ≤ 0`. Complex input gives a real variance. Computed in
/// one pass over memory: two passes inside cache-sized blocks, blocks merged
/// with Chan's formula ([`crate::states::Moments`]).
///
/// # Errors
/// [`Error::AxisOutOfBounds`], [`Error::DuplicateAxis`].
///
/// ```
/// use ndarray::array;
/// let a = array![1.0, 2.0, f64::NAN, 3.0, 4.0];
/// assert_eq!(nanops::nanvar(&a, 0, 0.0).unwrap()[[]], 1.25);
/// assert_eq!(nanops::nanvar(&a, 0, 1.0).unwrap()[[]], 5.0 / 3.0);
/// ```
pub fn nanvar<S, E, D>(
    a: &ArrayBase<S, D>,
    axes: impl Into<Axes>,
    ddof: impl Into<Ddof>,
) -> Result<ArrayD<E::Var>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
{
    Ok(nanvar_report(a, axes, ddof)?.values)
}

/// Standard deviation, with the count of slices where `count − ddof ≤ 0`.
///
/// # Errors
/// As [`nanstd`].
///
/// ```
/// use ndarray::array;
/// let r = nanops::nanstd_report(&array![1.0, 3.0], 0, 0.0).unwrap();
/// assert_eq!((r.values[[]], r.degenerate), (1.0, 0));
/// ```
pub fn nanstd_report<S, E, D>(
    a: &ArrayBase<S, D>,
    axes: impl Into<Axes>,
    ddof: impl Into<Ddof>,
) -> Result<Report<E::Var>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
{
    let r = VarReducer {
        ddof: ddof.into().0,
        std: true,
    };
    run(a, axes.into(), &r)
}

/// Standard deviation of the non-NaN values over `axes`: `sqrt(nanvar)`.
///
/// # Errors
/// [`Error::AxisOutOfBounds`], [`Error::DuplicateAxis`].
///
/// ```
/// use ndarray::array;
/// let a = array![[1.0, 3.0], [f64::NAN, 5.0]];
/// assert_eq!(nanops::nanstd(&a, 1, 0.0).unwrap(), array![1.0, 0.0].into_dyn());
/// ```
pub fn nanstd<S, E, D>(
    a: &ArrayBase<S, D>,
    axes: impl Into<Axes>,
    ddof: impl Into<Ddof>,
) -> Result<ArrayD<E::Var>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
{
    Ok(nanstd_report(a, axes, ddof)?.values)
}

/// Minimum ignoring NaN, with the count of all-NaN slices (NaN there).
///
/// # Errors
/// As [`nanmin`].
///
/// ```
/// use ndarray::array;
/// let r = nanops::nanmin_report(&array![[f64::NAN], [2.0]], 1).unwrap();
/// assert_eq!(r.degenerate, 1);
/// ```
pub fn nanmin_report<S, E, D>(a: &ArrayBase<S, D>, axes: impl Into<Axes>) -> Result<Report<E>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
{
    let axes = axes.into();
    check_nonempty(a, &axes, "fmin")?;
    run(a, axes, &ExtremumReducer::<false>)
}

/// Minimum of the non-NaN values over `axes`; NaN for an all-NaN slice.
///
/// Complex values order lexicographically (real part, then imaginary), as NumPy.
///
/// # Errors
/// [`Error::EmptyReduction`] when a reduced axis has length zero (and the
/// output is not empty); axis errors.
///
/// ```
/// use ndarray::array;
/// let a = array![[3.0, f64::NAN, 1.0], [f64::NAN, 2.0, 5.0]];
/// assert_eq!(nanops::nanmin(&a, 1).unwrap(), array![1.0, 2.0].into_dyn());
/// ```
pub fn nanmin<S, E, D>(a: &ArrayBase<S, D>, axes: impl Into<Axes>) -> Result<ArrayD<E>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
{
    Ok(nanmin_report(a, axes)?.values)
}

/// Maximum ignoring NaN, with the count of all-NaN slices (NaN there).
///
/// # Errors
/// As [`nanmax`].
///
/// ```
/// use ndarray::array;
/// let r = nanops::nanmax_report(&array![f64::NAN, 2.0], 0).unwrap();
/// assert_eq!((r.values[[]], r.degenerate), (2.0, 0));
/// ```
pub fn nanmax_report<S, E, D>(a: &ArrayBase<S, D>, axes: impl Into<Axes>) -> Result<Report<E>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
{
    let axes = axes.into();
    check_nonempty(a, &axes, "fmax")?;
    run(a, axes, &ExtremumReducer::<true>)
}

/// Maximum of the non-NaN values over `axes`; NaN for an all-NaN slice.
///
/// # Errors
/// [`Error::EmptyReduction`] when a reduced axis has length zero (and the
/// output is not empty); axis errors.
///
/// ```
/// use ndarray::array;
/// let a = array![[3.0, f64::NAN], [f64::NAN, 2.0]];
/// assert_eq!(nanops::nanmax(&a, 0).unwrap(), array![3.0, 2.0].into_dyn());
/// ```
pub fn nanmax<S, E, D>(a: &ArrayBase<S, D>, axes: impl Into<Axes>) -> Result<ArrayD<E>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
{
    Ok(nanmax_report(a, axes)?.values)
}
