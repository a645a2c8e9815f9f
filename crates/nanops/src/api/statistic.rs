//! The one way to ask for any statistic: [`report`], over a [`Statistic`].

use crate::element::Element;
use crate::error::Result;
use crate::options::Axes;
use crate::statistic::{Report, Statistic};
use ndarray::{ArrayBase, Data, Dimension};

/// The statistic `stat` of `a` over `axes`, with the number of slices that
/// had no usable value (empty or all-NaN; for a variance, `count − ddof ≤
/// 0`), where NumPy warns: the one way to ask any function for that count.
///
/// ```
/// use ndarray::array;
/// use nanops::stats::{NanMax, NanVar};
/// let a = array![[1.0, f64::NAN], [f64::NAN, f64::NAN]];
/// let r = nanops::report(&a, 1, NanMax)?;
/// assert_eq!((r.values[0], r.degenerate), (1.0, 1));
/// let v = nanops::report(&a, 0, NanVar(1.0.into()))?;
/// assert_eq!(v.degenerate, 2); // one value, ddof 1
/// # Ok::<(), nanops::Error>(())
/// ```
///
/// # Errors
/// The statistic's own (axis errors; see each function).
pub fn report<S, E, D, T>(
    a: &ArrayBase<S, D>,
    axes: impl Into<Axes>,
    stat: T,
) -> Result<Report<T::Output>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
    T: Statistic<E>,
{
    stat.compute(&a.view().into_dyn(), &axes.into())
}
