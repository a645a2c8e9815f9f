//! The scan family's one trait, [`Scanner`].

use crate::element::Element;

/// One scan: a running value carried along an axis, one output per input
/// value (`out[i]` depends on `x[0..=i]`).
///
/// A new scan implements `start` and `step`; the driver
/// (`scan::driver::scan`) runs it along any axis of any layout, lanes in
/// parallel, rows of lanes side by side when the axis is an outer one.
pub(crate) trait Scanner<E: Element>: Sync {
    /// The running value carried along a lane.
    type Running: Copy + Send + Sync;
    /// The result type of one position.
    type Output: Copy + Send + Sync + 'static;
    /// The running value before the first position.
    fn start(&self) -> Self::Running;
    /// Takes the value at the next position into `running` and returns that
    /// position's result.
    fn step(&self, running: &mut Self::Running, x: E) -> Self::Output;
}
