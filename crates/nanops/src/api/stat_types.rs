//! The order statistics [`report`](super::report) computes: the median and
//! quantiles with every option.

use crate::element::{QuantileElement, SelectFloat};
use crate::error::{Error, Result};
use crate::options::{Axes, NanPolicy, QuantileOptions};
use crate::order::{self, OrderStatistic};
use crate::statistic::{sealed::Sealed, Report, Statistic};
use ndarray::ArrayViewD;
use std::marker::PhantomData;

/// [`nanmedian`](crate::nanmedian) (`NanPolicy::Omit`) or
/// [`median`](crate::median) (`NanPolicy::Propagate`); degenerate: an empty
/// or all-NaN slice.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Median(pub NanPolicy);

impl Sealed for Median {}

impl<E: QuantileElement> Statistic<E> for Median {
    type Output = E::Value;
    fn compute(&self, view: &ArrayViewD<'_, E>, axes: &Axes) -> Result<Report<E::Value>> {
        let stat = order::Median(self.0);
        if let (Axes::All, Some(xs)) = (axes, view.as_slice_memory_order())
            && xs.len() < order::MIN_BRACKET_LANE
        {
            // the whole of a small contiguous array: no plan, no axis list
            return Ok(order::small_whole(xs, &stat));
        }
        let axes = axes.normalize(view.ndim())?;
        order::ensure_order_memory::<E::Value>(view.shape(), &axes, 1, 0, 0)?;
        order::unweighted(view, &axes, &stat)
    }
}

/// Quantiles `q` with every option ([`QuantileOptions`]: method, NaN
/// policy, weights, NumPy's dtype of `q`), in the result type `R`
/// (`E::Value` or a wider float): the general form of
/// [`nanquantile`](crate::nanquantile) and [`quantile`](crate::quantile).
/// The result has a leading axis of `q.len()`.
///
/// ```
/// use nanops::{stats::Quantiles, QuantileMethod, QuantileOptions};
/// use ndarray::{array, ArrayD};
/// let a = array![[1.0f32, 2.0, f32::NAN, 4.0]];
/// let opts = QuantileOptions { method: QuantileMethod::Lower, ..Default::default() };
/// let r = nanops::report(&a, 1, Quantiles::<f64>::new(&[0.5], opts))?;
/// assert_eq!(r.values, ArrayD::from_elem(ndarray::IxDyn(&[1, 1]), 2.0));
/// # Ok::<(), nanops::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Quantiles<'a, R> {
    /// The probabilities, each in `[0, 1]`.
    pub q: &'a [f64],
    /// How they are computed.
    pub opts: QuantileOptions<'a>,
    result: PhantomData<R>,
}

impl<'a, R> Quantiles<'a, R> {
    /// Quantiles `q` computed as `opts` says, with results of type `R`.
    pub fn new(q: &'a [f64], opts: QuantileOptions<'a>) -> Self {
        Quantiles {
            q,
            opts,
            result: PhantomData,
        }
    }
}

impl<R> Sealed for Quantiles<'_, R> {}

impl<E, R> Statistic<E> for Quantiles<'_, R>
where
    E: QuantileElement,
    R: SelectFloat + From<E::Value> + Default,
{
    type Output = R;
    fn compute(&self, view: &ArrayViewD<'_, E>, axes: &Axes) -> Result<Report<R>> {
        let (q, opts) = (self.q, &self.opts);
        order::check_q(q)?;
        let axes = axes.normalize(view.ndim())?;
        let (per_value, copy) = match opts.weights {
            // the weighted path copies values and weights, then each lane's valid pairs
            Some(_) => (
                std::mem::size_of::<E::Value>() + 8,
                std::mem::size_of::<E>() + 8,
            ),
            None => (0, 0), // its lane copy is probed in `unweighted`
        };
        order::ensure_order_memory::<R>(view.shape(), &axes, q.len(), per_value, copy)?;
        match &opts.weights {
            Some(w) => {
                if !opts.method.supports_weights() {
                    return Err(Error::WeightsUnsupported {
                        method: opts.method.name(),
                    });
                }
                order::weighted(view, w, &axes, q, opts)
            }
            None => {
                let stat = order::Quantiles {
                    q,
                    method: opts.method,
                    q_dtype: opts.q_dtype,
                    nan_policy: opts.nan_policy,
                };
                debug_assert_eq!(stat.width(), q.len());
                order::unweighted(view, &axes, &stat)
            }
        }
    }
}
