//! The statistics of two series along an axis (numbagg's `move_cov`,
//! `move_corr`, `move_exp_nancov`, `move_exp_nancorr`): two arrays of one
//! shape in, one result of that shape out.

use crate::element::QuantileElement;
use crate::error::{ensure_memory, Error, Result};
use crate::options::Axes;
use crate::par::threads;
use crate::scan::{
    driver_scratch_bytes, run_pairs, MoveCoMoment, MoveExpPair, PairKernel, WindowSpec,
};
use crate::statistic::into_dim;
use ndarray::{Array, ArrayBase, ArrayD, Axis, Data, Dimension};

/// The pair kernel `k` along `axis` (negative: from the end) of `a` and
/// `b`, in dimension `Out`.
fn paired<S1, S2, E, D, K, Out>(
    a: &ArrayBase<S1, D>,
    b: &ArrayBase<S2, D>,
    axis: isize,
    k: K,
) -> Result<Array<K::Output, Out>>
where
    S1: Data<Elem = E>,
    S2: Data<Elem = E>,
    E: QuantileElement,
    D: Dimension,
    K: PairKernel<E>,
    Out: Dimension,
{
    let (x, y) = (a.view().into_dyn(), b.view().into_dyn());
    if x.shape() != y.shape() {
        return Err(Error::PairShapes {
            first: x.shape().to_vec(),
            second: y.shape().to_vec(),
        });
    }
    let axis = Axes::One(axis).normalize(x.ndim())?[0];
    let len = x.shape()[axis];
    k.validate(len)?;
    // the result, and each thread's scratch: the kernel's (a window's
    // states) and the driver's (strided lanes gathered)
    let scratch = k
        .scratch_bytes()
        .saturating_add(driver_scratch_bytes::<E, K::Output>(&x, &y, axis));
    ensure_memory(&[
        (x.len(), std::mem::size_of::<K::Output>()),
        (threads(), scratch),
    ])?;
    Ok(into_dim(run_pairs(&x, &y, axis, &k)))
}

/// The co-moment kernel of a window.
fn co_moment(window: usize, min_count: Option<usize>, corr: bool) -> MoveCoMoment {
    MoveCoMoment {
        spec: WindowSpec { window, min_count },
        corr,
    }
}

/// Expands the rows: each row is the function's documentation and
/// `fn NAME(ARGS) = KERNEL;`, then the documentation of its one-[`Axis`] form
/// and `fn NAME_axis;`. `NAME(&a, &b, ARGS, axis: isize)` gives an
/// [`ArrayD`]; `NAME_axis(&a, &b, ARGS, Axis)` the inputs' dimension.
macro_rules! pair_functions {
    ($(
        $(#[$doc:meta])*
        fn $name:ident($($arg:ident: $argty:ty),*) = $kernel:expr;
        $(#[$typed_doc:meta])*
        fn $typed:ident;
    )*) => {$(
        $(#[$doc])*
        pub fn $name<S1, S2, E, D>(
            a: &ArrayBase<S1, D>,
            b: &ArrayBase<S2, D>,
            $($arg: $argty,)*
            axis: isize,
        ) -> Result<ArrayD<E::Value>>
        where
            S1: Data<Elem = E>,
            S2: Data<Elem = E>,
            E: QuantileElement,
            D: Dimension,
        {
            paired(a, b, axis, $kernel)
        }

        $(#[$typed_doc])*
        pub fn $typed<S1, S2, E, D>(
            a: &ArrayBase<S1, D>,
            b: &ArrayBase<S2, D>,
            $($arg: $argty,)*
            axis: Axis,
        ) -> Result<Array<E::Value, D>>
        where
            S1: Data<Elem = E>,
            S2: Data<Elem = E>,
            E: QuantileElement,
            D: Dimension,
        {
            paired(a, b, axis.index() as isize, $kernel)
        }
    )*};
}

/// The exponential pair kernel.
fn exp_pair(alpha: &[f64], min_weight: f64, corr: bool) -> MoveExpPair<'_> {
    MoveExpPair {
        corr,
        alpha,
        min_weight,
    }
}

pair_functions! {
    /// Moving covariance of `a` and `b` along `axis` (numbagg's `move_cov`):
    /// at each position, the sample covariance (`ddof = 1`) of the pairs among
    /// the last `window` positions whose two values are both not NaN; NaN where
    /// fewer than `min_count` pairs (`None`: the whole window; at least 2), or
    /// where the window holds an infinity.
    ///
    /// Computed in `f64` by blocks of the window (Welford's co-moments of the
    /// values less a value of the block, run forwards and backwards, merged by
    /// Chan's formula): every window's result from its own pairs alone, so an
    /// outlier or an infinity leaves no trace after it has left the window,
    /// and a large mean costs no digits of a small spread. Rounded once to the result type
    /// ([`QuantileElement::Value`]). Lanes, and parts of one long lane, run in
    /// parallel.
    ///
    /// # Errors
    /// [`Error::PairShapes`](crate::Error::PairShapes) unless `a` and `b` have
    /// one shape; [`Error::InvalidWindow`](crate::Error::InvalidWindow) unless
    /// `1 <= window <= ` the axis length,
    /// [`Error::InvalidMinCount`](crate::Error::InvalidMinCount) unless
    /// `1 <= min_count <= window`; axis errors.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![0.0, 1.0, 2.0, 3.0, 4.0];
    /// let b = array![0.0, 1.0, 4.0, 9.0, f64::NAN];
    /// let c: ndarray::ArrayD<f64> = nanops::move_cov(&a, &b, 3, Some(2), -1)?;
    /// assert!(c[0].is_nan());
    /// assert_eq!(c.as_slice().unwrap()[1..], [0.5, 2.0, 4.0, 2.5]);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    fn move_cov(window: usize, min_count: Option<usize>) = co_moment(window, min_count, false);
    /// [`move_cov`] along one [`Axis`]: the input's shape and dimension.
    ///
    /// # Errors
    /// As [`move_cov`].
    ///
    /// ```
    /// use ndarray::{array, Axis};
    /// let a = array![[1.0, 2.0], [3.0, 5.0]];
    /// let c: ndarray::Array2<f64> = nanops::move_cov_axis(&a, &a, 2, None, Axis(0))?;
    /// assert_eq!(c.row(1).to_vec(), [2.0, 4.5]);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    fn move_cov_axis;

    /// Moving correlation of `a` and `b` along `axis` (numbagg's `move_corr`):
    /// at each position, Pearson's correlation of the pairs among the last
    /// `window` positions whose two values are both not NaN; NaN where fewer
    /// than `min_count` pairs (`None`: the whole window), where either series
    /// is constant over those pairs, or where the window holds an infinity.
    /// Computed as [`move_cov`].
    ///
    /// # Errors
    /// As [`move_cov`].
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![1.0, 2.0, 3.0, 4.0];
    /// let b = array![2.0, 4.0, 7.0, 1.0];
    /// let r: ndarray::ArrayD<f64> = nanops::move_corr(&a, &b, 2, None, -1)?;
    /// assert!(r[0].is_nan());
    /// assert_eq!(r.as_slice().unwrap()[1..], [1.0, 1.0, -1.0]);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    fn move_corr(window: usize, min_count: Option<usize>) = co_moment(window, min_count, true);
    /// [`move_corr`] along one [`Axis`]: the input's shape and dimension.
    ///
    /// # Errors
    /// As [`move_cov`].
    ///
    /// ```
    /// use ndarray::{array, Axis};
    /// let a = array![[1.0, 2.0], [3.0, 1.0]];
    /// let b = array![[0.0, 0.0], [1.0, 1.0]];
    /// let r: ndarray::Array2<f64> = nanops::move_corr_axis(&a, &b, 2, None, Axis(0))?;
    /// assert_eq!(r.row(1).to_vec(), [1.0, -1.0]);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    fn move_corr_axis;

    /// Exponentially weighted covariance of `a` and `b` along `axis`, numbagg's
    /// `move_exp_nancov` (pandas' `ewm(alpha=…).cov(bias=False)` with
    /// `ignore_na=False`): with `alpha` one value for every position or one per
    /// position, the decayed sums of the pairs whose two values are not NaN
    /// (see [`move_exp_nanmean`](crate::move_exp_nanmean) for the decay, the
    /// weight and `min_weight`),
    ///
    /// ```text
    /// out[i] = (Σxy − ΣxΣy/Σw) / Σw / (1 − Σw²/Σw²)
    /// ```
    /// NaN unless the decayed weight reaches `min_weight` and the bias factor
    /// is positive. Numbagg's operations in its order, in `f64`, rounded once.
    ///
    /// # Errors
    /// [`Error::PairShapes`](crate::Error::PairShapes) unless `a` and `b` have
    /// one shape; [`Error::AlphaLength`](crate::Error::AlphaLength) for an
    /// `alpha` of another length than one or the axis length; axis errors.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![0.0, 1.0, 2.0];
    /// let b = array![0.0, 1.0, 4.0];
    /// let c: ndarray::ArrayD<f64> = nanops::move_exp_nancov(&a, &b, &[0.5], 0.0, -1)?;
    /// assert!(c[0].is_nan());
    /// assert!((c[1] - 0.5).abs() < 1e-12);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    fn move_exp_nancov(alpha: &[f64], min_weight: f64) = exp_pair(alpha, min_weight, false);
    /// [`move_exp_nancov`] along one [`Axis`]: the input's shape and dimension.
    ///
    /// # Errors
    /// As [`move_exp_nancov`].
    ///
    /// ```
    /// use ndarray::{array, Axis};
    /// let a = array![[0.0], [1.0]];
    /// let c: ndarray::Array2<f64> = nanops::move_exp_nancov_axis(&a, &a, &[0.5], 0.0, Axis(0))?;
    /// assert!((c[[1, 0]] - 0.5).abs() < 1e-12);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    fn move_exp_nancov_axis;

    /// Exponentially weighted correlation of `a` and `b` along `axis`,
    /// numbagg's `move_exp_nancorr`: with the decayed sums of
    /// [`move_exp_nancov`] and `Σx²`, `Σy²`,
    ///
    /// ```text
    /// out[i] = (Σxy − ΣxΣy/Σw) / √((Σx² − Σx²/Σw)(Σy² − Σy²/Σw))
    /// ```
    /// NaN where [`move_exp_nancov`] is NaN or the root is not positive.
    ///
    /// # Errors
    /// As [`move_exp_nancov`].
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![0.0, 1.0, 2.0];
    /// let r: ndarray::ArrayD<f64> = nanops::move_exp_nancorr(&a, &a.mapv(|x| -x), &[0.5], 0.0, -1)?;
    /// assert!(r[0].is_nan());
    /// assert!((r[2] + 1.0).abs() < 1e-12);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    fn move_exp_nancorr(alpha: &[f64], min_weight: f64) = exp_pair(alpha, min_weight, true);
    /// [`move_exp_nancorr`] along one [`Axis`]: the input's shape and dimension.
    ///
    /// # Errors
    /// As [`move_exp_nancov`].
    ///
    /// ```
    /// use ndarray::{array, Axis};
    /// let a = array![[0.0], [1.0], [3.0]];
    /// let r: ndarray::Array2<f64> = nanops::move_exp_nancorr_axis(&a, &a, &[0.5], 0.0, Axis(0))?;
    /// assert!((r[[2, 0]] - 1.0).abs() < 1e-12);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    fn move_exp_nancorr_axis;
}
