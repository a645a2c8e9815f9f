//! The group family: a statistic per label (`group_nansum`, …,
//! `group_nanquantile`), numbagg's group-by reductions.
//!
//! A streaming function of this family is a
//! [`GroupStatistic`](statistic::GroupStatistic): a partial state per
//! (output, label), filled from runs of consecutive values that share a
//! label (`push_run`), merged in order, finished into the result. The
//! one-pass statistics of the reduce family plug in unchanged through
//! [`Streaming`] (a run is a slice their kernels fold); the rest (first,
//! last, any, all, argmin, argmax, sum of squares) are small states here.
//! Its driver ([`group_reduce`]) checks the labels, moves the grouped axes
//! last, splits the work over threads at shape-fixed boundaries and merges
//! the partial states of one output in a fixed order, so any number of
//! threads gives the same bits. Medians and quantiles
//! ([`GroupQuantiles`]) sort each output's valid values by label (a counting
//! sort) and run the order family's selection kernels on each group, groups
//! in parallel. [`GroupFunction`] is what the API rows call.

mod bracket;
mod driver;
mod order;
#[cfg(test)]
mod reference;
pub(crate) mod statistic;

pub(crate) use driver::group_reduce;
pub(crate) use order::{group_order, GroupQuantiles};
pub(crate) use statistic::{
    GroupArg, GroupEnd, GroupMoments, GroupStatistic, GroupSumOfSquares, GroupTruth, Streaming,
};

use crate::element::{Element, QuantileElement};
use crate::error::Result;
use crate::options::Axes;
use ndarray::{ArrayD, ArrayViewD};

/// A function of the group family: a streaming [`GroupStatistic`] or
/// [`GroupQuantiles`], run over values and their labels.
pub trait GroupFunction<E: Element> {
    /// The result type of one (output, label).
    type Output;
    /// The result (see `group_reduce` and `group_order`); `op` names the
    /// function in errors.
    fn run(
        &self,
        values: &ArrayViewD<'_, E>,
        labels: &ArrayViewD<'_, i64>,
        axes: Axes,
        num_labels: Option<usize>,
        op: &'static str,
    ) -> Result<ArrayD<Self::Output>>;
}

/// Implements [`GroupFunction`] for a [`GroupStatistic`] (by type: a
/// blanket implementation would overlap [`GroupQuantiles`]' for the
/// compiler, which cannot see that `Element` is sealed).
macro_rules! streaming_function {
    ($([$($gen:tt)*] $t:ty),* $(,)?) => {$(
        impl<E: Element, $($gen)*> GroupFunction<E> for $t
        where
            $t: GroupStatistic<E>,
        {
            type Output = <$t as GroupStatistic<E>>::Output;
            fn run(
                &self,
                values: &ArrayViewD<'_, E>,
                labels: &ArrayViewD<'_, i64>,
                axes: Axes,
                num_labels: Option<usize>,
                op: &'static str,
            ) -> Result<ArrayD<Self::Output>> {
                group_reduce(values, labels, axes, num_labels, self, op)
            }
        }
    )*};
}

streaming_function!(
    [R] Streaming<R>,
    [const MAX: bool] GroupArg<MAX>,
    [const LAST: bool] GroupEnd<LAST>,
    [const ALL: bool] GroupTruth<ALL>,
    [] GroupSumOfSquares,
    [] GroupMoments,
);

impl<E: QuantileElement> GroupFunction<E> for GroupQuantiles<'_> {
    type Output = E::Value;
    fn run(
        &self,
        values: &ArrayViewD<'_, E>,
        labels: &ArrayViewD<'_, i64>,
        axes: Axes,
        num_labels: Option<usize>,
        _op: &'static str,
    ) -> Result<ArrayD<E::Value>> {
        group_order(values, labels, axes, num_labels, self)
    }
}
