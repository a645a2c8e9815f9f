//! The scan family: results of the input's shape, computed along one axis:
//! cumulative sums and products, moving windows and fills.
//!
//! A cumulative function is a [`Scanner`](scanner::Scanner): a running
//! value and the step that takes the next value into it. The driver
//! ([`scan`]) plans the view along the axis (`layout::AlongPlan`), walks
//! contiguous lanes or rows of lanes, and splits the lanes over threads.
//!
//! A moving window or a fill is a [`LaneKernel`](window::LaneKernel): it
//! computes one whole contiguous lane at a time (the value leaving a window
//! is read back from the lane). Its driver ([`run_lanes`]) plans the view
//! the same way and copies strided lanes, and tiles of axis-0 lanes, into
//! contiguous scratch. Whole-lane rearrangements (ranks, partitions) are
//! lane kernels too, never cut.
//!
//! A statistic of two series (`move_cov`, `move_exp_nancorr`) is a
//! [`PairKernel`](pair_driver::PairKernel), whose driver ([`run_pairs`])
//! hands it the two lanes of each position along the other axes.

mod blocked;
mod blocked_segments;
mod blocked_sum;
mod blocked_var_rows;
mod blocked_var_segments;
mod co_moments;
mod cumulative;
mod driver;
mod exponential;
mod exponential_pair;
mod fill;
mod moving;
mod ordered;
mod pair_driver;
mod partition;
mod rank;
mod ranked_window;
mod scanner;
mod segment_counts;
mod sort_key;
#[cfg(test)]
mod test_lanes;
mod window;
mod window_driver;

pub(crate) use co_moments::MoveCoMoment;
pub(crate) use cumulative::{CumProd, CumSum};
pub(crate) use driver::{scan, scan_flat};
pub(crate) use exponential::{ExpStat, MoveExp};
pub(crate) use exponential_pair::MoveExpPair;
pub(crate) use fill::Fill;
pub(crate) use moving::{MoveCount, MoveExtremum, MoveMean, MoveSum, MoveVar};
pub(crate) use ordered::{MoveMedian, MoveQuantile, MoveRank};
pub(crate) use pair_driver::{driver_scratch_bytes, run_pairs, PairKernel};
pub(crate) use partition::{ArgPartition, Partition};
pub(crate) use rank::Rank;
pub(crate) use scanner::Scanner;
pub(crate) use window::{LaneKernel, WindowSpec};
pub(crate) use window_driver::run_lanes;
