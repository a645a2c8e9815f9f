//! Partial states as public API: a reduction computed on pieces of an array
//! (chunks of a larger-than-memory array, blocks on the workers of a
//! cluster), merged in order, then finished, gives the reduction of the
//! whole array up to rounding.

use crate::element::Element;
use crate::error::Result;
use crate::group::{group_reduce, Streaming};
use crate::options::Axes;
use crate::reduce::{Partial, PartialStatistic};
use crate::states::State;
use crate::statistic::Report;
use ndarray::{ArrayBase, ArrayD, ArrayViewD, Data, Dimension, IxDyn};

/// The partial states of the reduction `stat` over `axes` of `a`, one per
/// output (the shape `stat`'s function gives): what a distributed engine
/// computes on each chunk. [`finish_states`] of them is exactly the
/// function's result; [`merge_states`] joins the states of chunks.
///
/// ```
/// use ndarray::{array, s, Axis};
/// use nanops::stats::NanVar;
/// use nanops::{finish_states, merge_states, partial_states, Ddof};
/// let a = array![[1.0, f64::NAN, 3.0], [4.0, 5.0, 6.5], [7.0, 8.0, f64::NAN]];
/// let var = NanVar(Ddof(1.0));
/// // two chunks along axis 0, as a dask array would hold them
/// let top = partial_states(&a.slice(s![..1, ..]), 0, &var).unwrap();
/// let bottom = partial_states(&a.slice(s![1.., ..]), 0, &var).unwrap();
/// let both = ndarray::stack(Axis(0), &[top.view(), bottom.view()]).unwrap();
/// let merged = merge_states(&both.view(), 0).unwrap();
/// let result = finish_states::<f64, _>(&var, &merged.view());
/// let whole = nanops::nanvar(&a, 0, 1.0).unwrap();
/// for (x, y) in result.values.iter().zip(whole.iter()) {
///     assert!((x - y).abs() <= 1e-12 * y.abs());
/// }
/// assert_eq!(result.degenerate, 0);
/// ```
pub fn partial_states<S, E, D, T>(
    a: &ArrayBase<S, D>,
    axes: impl Into<Axes>,
    stat: &T,
) -> Result<ArrayD<T::State>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
    T: PartialStatistic<E>,
{
    let view = a.view().into_dyn();
    stat.partial(&view, &axes.into())
}

/// The partial states of the reduction `stat` per label: one state per
/// (output, label), in the shape of the group function's result (the kept
/// axes, then one axis of `num_labels` groups). `labels` are those of
/// [`group_nansum`](crate::group_nansum): the shape of `values` along
/// `axes` (in increasing axis order), negative labels skipped, `num_labels`
/// by default the largest label plus one. What a distributed group-by
/// computes on each block: the states of one label from several blocks
/// merge with [`merge_states`] (or [`State::merge`]), and [`finish_states`]
/// gives the group function's result. The states of the whole array finish
/// to exactly the group function's result (`group_nanprod` for
/// [`NanProd`](crate::stats::NanProd)): the same driver, kernels and merge
/// order, stopped before `finish`.
///
/// A product's state keeps a mantissa and a binary exponent apart
/// ([`Product`](crate::states::Product)), so the blocks' products neither
/// overflow nor underflow before they are merged:
///
/// ```
/// use ndarray::{array, s, Axis};
/// use nanops::stats::NanProd;
/// use nanops::{finish_states, group_partial_states, merge_states};
/// let a = array![1e300, 1e300, 2.0, 1e-300, 1e-300, f64::NAN];
/// let labels = array![0, 0, 1, 0, 0, 1];
/// // two blocks, as a dask array would hold them: a state per label each
/// let left = group_partial_states(&a.slice(s![..3]), &labels.slice(s![..3]), 0, None, &NanProd)?;
/// let right = group_partial_states(&a.slice(s![3..]), &labels.slice(s![3..]), 0, Some(2), &NanProd)?;
/// assert_eq!(left.shape(), &[2]);
/// // each block's product of label 0 alone overflows, or underflows
/// assert_eq!((left[0].value(), right[0].value()), (f64::INFINITY, 0.0));
/// let both = ndarray::stack(Axis(0), &[left.view(), right.view()]).unwrap();
/// let merged = merge_states(&both.view(), 0)?;
/// let r = finish_states::<f64, _>(&NanProd, &merged.view());
/// assert_eq!(r.values, nanops::group_nanprod(&a, &labels, 0, None)?);
/// assert!((r.values[0] - 1.0).abs() < 1e-15 && r.values[1] == 2.0);
/// # Ok::<(), nanops::Error>(())
/// ```
///
/// # Errors
/// As the group functions': [`Error::LabelsShape`](crate::Error::LabelsShape)
/// for labels not of the shape of `values` along `axes`,
/// [`Error::LabelOutOfRange`](crate::Error::LabelOutOfRange) for a label at
/// or above `num_labels`, an invalid axis, or
/// [`Error::OutOfMemory`](crate::Error::OutOfMemory).
pub fn group_partial_states<S, E, D, SL, DL, T>(
    values: &ArrayBase<S, D>,
    labels: &ArrayBase<SL, DL>,
    axes: impl Into<Axes>,
    num_labels: Option<usize>,
    stat: &T,
) -> Result<ArrayD<T::State>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
    SL: Data<Elem = i64>,
    DL: Dimension,
    T: PartialStatistic<E>,
{
    let kernel = stat.kernel();
    // the group functions' own driver and adapter (`Streaming`), with a
    // reducer whose results are its states: bit for bit the states those
    // functions finish
    group_reduce(
        &values.view().into_dyn(),
        &labels.view().into_dyn(),
        axes.into(),
        num_labels,
        &Streaming(Partial(&kernel)),
        "group_partial_states",
    )
}

/// The states of `states` merged over `axes`, in C order of the merged
/// positions (earlier positions hold earlier values): the states of chunks
/// stacked along the reduced axes become the states of their union.
///
/// ```
/// use ndarray::array;
/// use nanops::states::{State, Sum};
/// let parts = array![Sum::of(1e16), Sum::of(1.0), Sum::of(-1e16)].into_dyn();
/// let total = nanops::merge_states(&parts.view(), 0).unwrap();
/// assert_eq!(total[[]].finish(), 1.0);
/// ```
pub fn merge_states<V, St: State<V>>(
    states: &ArrayViewD<'_, St>,
    axes: impl Into<Axes>,
) -> Result<ArrayD<St>> {
    let merged = axes.into().normalize(states.ndim())?;
    let kept: Vec<usize> = (0..states.ndim()).filter(|i| !merged.contains(i)).collect();
    let out_shape: Vec<usize> = kept.iter().map(|&i| states.shape()[i]).collect();
    let n_merged: usize = merged.iter().map(|&i| states.shape()[i]).product();
    // kept axes first, then the merged ones: each output's states are then
    // one contiguous run of the C-order copy
    let order: Vec<usize> = kept.iter().chain(merged.iter()).copied().collect();
    let moved = states.view().permuted_axes(IxDyn(&order));
    let flat: Vec<St> = moved.iter().cloned().collect();
    let out: Vec<St> = if n_merged == 0 {
        vec![St::default(); out_shape.iter().product()]
    } else {
        flat.chunks(n_merged)
            .map(|run| {
                let mut st = run[0].clone();
                for later in &run[1..] {
                    st.merge(later);
                }
                st
            })
            .collect()
    };
    Ok(ArrayD::from_shape_vec(IxDyn(&out_shape), out).expect("one state per output"))
}

/// The results of `stat` from its partial `states`, with the count of
/// degenerate ones (empty or all-NaN slices, as [`crate::report`] counts
/// them). `E` is the element type the states were computed from (turbofish:
/// `finish_states::<f32, _>`), as it sets the result type.
///
/// ```
/// use ndarray::array;
/// use nanops::stats::NanMean;
/// let a = array![[1.0_f32, f32::NAN], [f32::NAN, f32::NAN]];
/// let states = nanops::partial_states(&a, 1, &NanMean).unwrap();
/// let r = nanops::finish_states::<f32, _>(&NanMean, &states.view());
/// assert_eq!(r.values[0], 1.0);
/// assert!(r.values[1].is_nan());
/// assert_eq!(r.degenerate, 1);
/// ```
pub fn finish_states<E: Element, T: PartialStatistic<E>>(
    stat: &T,
    states: &ArrayViewD<'_, T::State>,
) -> Report<T::Output> {
    let mut degenerate = 0;
    let values = states.map(|st| {
        let (v, bad) = stat.finish_state(st);
        degenerate += usize::from(bad);
        v
    });
    Report { values, degenerate }
}
