//! The order-statistics family: medians and quantiles (13 methods, weights),
//! NaN-skipping and NaN-propagating.
//!
//! A function of this family is an
//! [`OrderStatistic`](statistic::OrderStatistic): what it needs of a lane's
//! sorted valid values. The driver ([`unweighted`]) copies each lane's valid
//! values into per-task scratch (strided lanes side by side a cache-sized
//! tile at a time, [`tiles`]), brackets the ranks of a single long lane from a sample without a
//! copy, sorts many short lanes side by side for the median, sorts short
//! strided lanes across lanes ([`column_sort`]), and runs lanes
//! in parallel; the [`select`] kernels reorder the scratch by selection,
//! never a full sort. Weighted quantiles take their own path ([`weighted`]).
//! Lanes held in many chunks (a distributed engine's) are selected by
//! [`chunked`]'s brackets.

mod bracket;
pub mod chunked;
mod column_sort;
mod driver;
pub mod select;
mod short_median;
mod statistic;
mod tiles;
mod weighted;

pub(crate) use bracket::MIN_BRACKET_LANE;
pub(crate) use driver::{check_q, ensure_order_memory, push_valid, small_whole, unweighted};
pub(crate) use statistic::{Median, OrderStatistic, Quantiles};
pub(crate) use weighted::weighted;
