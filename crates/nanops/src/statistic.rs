//! What every family computes: a [`Statistic`] of some axes of a view, and
//! its [`Report`], the values with the count of slices that had no usable
//! value. (The public entry is `nanops::report`.)

use crate::element::Element;
use crate::error::Result;
use crate::options::Axes;
use ndarray::{ArrayD, ArrayViewD, Dimension};

pub(crate) mod sealed {
    /// Seals [`super::Statistic`]: the statistics are nanops' own.
    pub trait Sealed {}
}

/// A statistic nanops computes over some axes of an array (the types in
/// [`crate::stats`]): what [`report`](crate::report) takes.
///
/// Sealed: every statistic is one of nanops' functions, and its `compute`
/// runs that function's family (reduce, order) over any layout.
pub trait Statistic<E: Element>: sealed::Sealed {
    /// The type of one result value.
    type Output;
    /// Computes the statistic of `view` over `axes`, with the number of
    /// slices that had no usable value.
    #[doc(hidden)]
    fn compute(&self, view: &ArrayViewD<'_, E>, axes: &Axes) -> Result<Report<Self::Output>>;
}

/// Results of a reduction, with the number of slices that had no usable value.
///
/// `degenerate` counts the output elements whose slice was empty or all-NaN
/// (for `nanvar`/`nanstd`: had `count − ddof ≤ 0`); NumPy warns about them.
/// [`report`](crate::report) gives one for any statistic.
///
/// ```
/// use ndarray::array;
/// use nanops::stats::NanMean;
/// let a = array![[1.0, f64::NAN], [f64::NAN, f64::NAN]];
/// let r = nanops::report(&a, 1, NanMean).unwrap();
/// assert_eq!(r.degenerate, 1);
/// assert!(r.values[1].is_nan());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Report<T, D: Dimension = ndarray::IxDyn> {
    /// One value per output element.
    pub values: ndarray::Array<T, D>,
    /// Number of output elements whose slice had no usable value.
    pub degenerate: usize,
}

/// `a` as an array of dimension `D` (it has `D`'s number of dimensions).
pub(crate) fn into_dim<T, D: Dimension>(a: ArrayD<T>) -> ndarray::Array<T, D> {
    a.into_dimensionality::<D>()
        .expect("a result has the dimensions its axes argument gives")
}
