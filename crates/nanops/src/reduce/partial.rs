//! A reduction's partial states as its results: what a chunked or
//! distributed engine computes per chunk, merges, then finishes.

use super::reducer::Reducer;
use crate::element::Element;
use crate::error::Result;
use crate::options::Axes;
use crate::statistic::Statistic;
use ndarray::{ArrayD, ArrayViewD};

/// The reduction `R` whose results are its partial states, one per output
/// (the states its threads merge): the same planner, kernels and merge
/// order, stopped before `finish`.
pub(crate) struct Partial<'r, R>(pub &'r R);

impl<E: Element, R: Reducer<E>> Reducer<E> for Partial<'_, R>
where
    R::State: Copy + 'static,
{
    type Value = R::Value;
    type State = R::State;
    type Output = R::State;
    type Kernel = R::Kernel;
    #[inline(always)]
    fn kernel(&self) -> &R::Kernel {
        self.0.kernel()
    }
    #[inline(always)]
    fn push_slice(&self, st: &mut Self::State, xs: &[E]) {
        self.0.push_slice(st, xs);
    }
    #[inline(always)]
    fn push_value(&self, st: &mut Self::State, x: E) {
        self.0.push_value(st, x);
    }
    const SHORT: bool = R::SHORT;
    const PAD_SHORT: bool = R::PAD_SHORT;
    const PREFETCH_SHORT: bool = R::PREFETCH_SHORT;
    const ROWS_PER_PUSH: usize = R::ROWS_PER_PUSH;
    #[inline(always)]
    fn short_state<const L: usize>(&self, xs: &[E; L]) -> Self::State {
        self.0.short_state(xs)
    }
    #[inline(always)]
    fn push_rows(&self, states: &mut [Self::State], rows: &[&[E]]) {
        self.0.push_rows(states, rows);
    }
    fn finish(&self, st: &Self::State) -> Self::State {
        *st
    }
}

/// A one-pass reduction whose per-output partial states can be computed
/// on pieces of an array, merged, and finished into the reduction's result
/// (the streaming reductions of [`crate::stats`]: `NanSum` … `NanKurt`).
///
/// Sealed, as [`Statistic`]. Use it through [`crate::partial_states`]
/// (per label: [`crate::group_partial_states`]), [`crate::merge_states`]
/// and [`crate::finish_states`].
pub trait PartialStatistic<E: Element>: Statistic<E> {
    /// The partial state of one output: a type of [`crate::states`].
    type State: Copy + Default + Send + Sync + std::fmt::Debug + 'static;
    /// The reducer whose states these are: the one the other families
    /// (the group driver, per label) run to fill the same states.
    #[doc(hidden)]
    type Kernel: Reducer<E, State = Self::State>;
    /// The reducer of this statistic (the statistic's own parameters in it).
    #[doc(hidden)]
    fn kernel(&self) -> Self::Kernel;
    /// The partial states of `view` over `axes`, one per output.
    #[doc(hidden)]
    fn partial(&self, view: &ArrayViewD<'_, E>, axes: &Axes) -> Result<ArrayD<Self::State>>;
    /// Adds `later`, the state of values after those of `st`, to `st`.
    #[doc(hidden)]
    fn merge_state(&self, st: &mut Self::State, later: &Self::State);
    /// The result of a state, and whether its values were degenerate (an
    /// empty or all-NaN slice; `count − ddof ≤ 0` for variances).
    #[doc(hidden)]
    fn finish_state(&self, st: &Self::State) -> (Self::Output, bool);
}

/// The partial states of `r` over `axes` of `view`.
pub(crate) fn partial<E: Element, R: Reducer<E>>(
    r: &R,
    view: &ArrayViewD<'_, E>,
    axes: &Axes,
) -> Result<ArrayD<R::State>>
where
    R::State: Copy + 'static,
{
    let axes = axes.normalize(view.ndim())?;
    Ok(super::driver::reduce_checked(view, &axes, &Partial(r))?.values)
}
