//! Kernels: contiguous slices in, partial states out.
//!
//! A [`Reducer`] ties a state type to the loops that fill it. The planner
//! hands it either a contiguous run of one output's values (`push_slice`) or
//! a contiguous row holding one value for each of many outputs (`push_row`);
//! threads and chunks combine its states with `merge`.
//!
//! Loops over slices keep `LANES` independent accumulators so that LLVM
//! vectorises them without reassociating floating-point additions itself,
//! and NaN is masked by a select (`if nan { identity } else { x }`).

mod extremum;
mod moments;
mod sum;

pub(crate) use extremum::ExtremumReducer;
pub(crate) use moments::VarReducer;
pub(crate) use sum::{CountReducer, MeanReducer, ProdReducer, SumReducer};

use crate::element::Element;

/// Independent accumulators per loop.
pub(crate) const LANES: usize = 8;
/// Values summed in lanes before the block total enters the compensated state.
pub(crate) const BLOCK: usize = 256;
/// Rows folded per [`Reducer::push_rows`] call.
pub(crate) const ROW_BLOCK: usize = 64;
/// Columns per tile of the rows strategy (keeps column accumulators in cache).
pub(crate) const COL_TILE: usize = 2048;

/// One reduction: its partial state and the loops that fill it.
pub(crate) trait Reducer<E: Element>: Sync {
    /// The partial state of one output element.
    type State: Clone + Send + Sync;
    /// The result type of one output element.
    type Output: Copy + Default + Send + Sync + 'static;
    /// The empty state.
    fn init(&self) -> Self::State;
    /// Folds a contiguous run of one output's values.
    fn push_slice(&self, st: &mut Self::State, xs: &[E]);
    /// Folds a block of rows: `rows[i][j]` goes into `states[j]`; every row has
    /// `states.len()` values. Blocks are short (at most [`ROW_BLOCK`] rows), so
    /// implementations accumulate them in plain column accumulators and touch
    /// the (compensated) states once per block.
    fn push_rows(&self, states: &mut [Self::State], rows: &[&[E]]);
    /// Merges a partial state over later values into `into`.
    fn merge(&self, into: &mut Self::State, other: &Self::State);
    /// The result of a state.
    fn finish(&self, st: &Self::State) -> Self::Output;
    /// Whether the state's slice had no usable value (NumPy warns for these).
    fn degenerate(&self, _st: &Self::State) -> bool {
        false
    }
}
