//! Methods on ndarray arrays.

use super::*;
use crate::axes::Axes;
use crate::element::Element;
use crate::error::Result;
use ndarray::{ArrayBase, ArrayD, Data, Dimension};

/// NaN-aware reductions as methods on any ndarray array or view.
///
/// Each method forwards to the free function of the same name.
///
/// ```
/// use nanops::NanOps;
/// use ndarray::array;
/// let a = array![[1.0, f64::NAN], [3.0, 5.0]];
/// assert_eq!(a.nanmean(1).unwrap(), array![1.0, 4.0].into_dyn());
/// assert_eq!(a.t().nansum(0).unwrap(), array![1.0, 8.0].into_dyn());
/// ```
pub trait NanOps<E: Element> {
    /// See [`nansum`].
    fn nansum(&self, axes: impl Into<Axes>) -> Result<ArrayD<E::Sum>>;
    /// See [`nanprod`].
    fn nanprod(&self, axes: impl Into<Axes>) -> Result<ArrayD<E::Sum>>;
    /// See [`nancount`].
    fn nancount(&self, axes: impl Into<Axes>) -> Result<ArrayD<u64>>;
    /// See [`nanmean`].
    fn nanmean(&self, axes: impl Into<Axes>) -> Result<ArrayD<E::Mean>>;
    /// See [`nanvar`].
    fn nanvar(&self, axes: impl Into<Axes>, ddof: impl Into<Ddof>) -> Result<ArrayD<E::Var>>;
    /// See [`nanstd`].
    fn nanstd(&self, axes: impl Into<Axes>, ddof: impl Into<Ddof>) -> Result<ArrayD<E::Var>>;
    /// See [`nanmin`].
    fn nanmin(&self, axes: impl Into<Axes>) -> Result<ArrayD<E>>;
    /// See [`nanmax`].
    fn nanmax(&self, axes: impl Into<Axes>) -> Result<ArrayD<E>>;
    /// See [`nanargmin`].
    fn nanargmin(&self, axis: Option<isize>) -> Result<ArrayD<usize>>;
    /// See [`nanargmax`].
    fn nanargmax(&self, axis: Option<isize>) -> Result<ArrayD<usize>>;
    /// See [`nancumsum`].
    fn nancumsum(&self, axis: Option<isize>) -> Result<ArrayD<E::Sum>>;
    /// See [`nancumprod`].
    fn nancumprod(&self, axis: Option<isize>) -> Result<ArrayD<E::Sum>>;
}

impl<S, E, D> NanOps<E> for ArrayBase<S, D>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
{
    fn nansum(&self, axes: impl Into<Axes>) -> Result<ArrayD<E::Sum>> {
        nansum(self, axes)
    }
    fn nanprod(&self, axes: impl Into<Axes>) -> Result<ArrayD<E::Sum>> {
        nanprod(self, axes)
    }
    fn nancount(&self, axes: impl Into<Axes>) -> Result<ArrayD<u64>> {
        nancount(self, axes)
    }
    fn nanmean(&self, axes: impl Into<Axes>) -> Result<ArrayD<E::Mean>> {
        nanmean(self, axes)
    }
    fn nanvar(&self, axes: impl Into<Axes>, ddof: impl Into<Ddof>) -> Result<ArrayD<E::Var>> {
        nanvar(self, axes, ddof)
    }
    fn nanstd(&self, axes: impl Into<Axes>, ddof: impl Into<Ddof>) -> Result<ArrayD<E::Var>> {
        nanstd(self, axes, ddof)
    }
    fn nanmin(&self, axes: impl Into<Axes>) -> Result<ArrayD<E>> {
        nanmin(self, axes)
    }
    fn nanmax(&self, axes: impl Into<Axes>) -> Result<ArrayD<E>> {
        nanmax(self, axes)
    }
    fn nanargmin(&self, axis: Option<isize>) -> Result<ArrayD<usize>> {
        nanargmin(self, axis)
    }
    fn nanargmax(&self, axis: Option<isize>) -> Result<ArrayD<usize>> {
        nanargmax(self, axis)
    }
    fn nancumsum(&self, axis: Option<isize>) -> Result<ArrayD<E::Sum>> {
        nancumsum(self, axis)
    }
    fn nancumprod(&self, axis: Option<isize>) -> Result<ArrayD<E::Sum>> {
        nancumprod(self, axis)
    }
}
