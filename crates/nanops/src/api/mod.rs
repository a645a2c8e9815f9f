//! The public functions, the extension trait [`NanOps`] on ndarray arrays,
//! and [`report`], the one way to ask any statistic for its count of
//! degenerate slices.
//!
//! Every function is one row of the table in `functions.rs`, which makes
//! both the free function and the trait method; its statistic is a type of
//! [`stats`] (reductions, order statistics) or a scan of the scan family.
//! [`replace`], which writes its input, stands apart (`replace.rs`), and so
//! do the statistics of two series, `move_cov` … (`pairs.rs`), and the
//! covariance and correlation matrices (`matrices.rs`).

mod arg;
mod functions;
mod matrices;
mod pairs;
mod partial;
mod replace;
mod stat_types;
mod statistic;

pub use functions::*;
pub use matrices::{
    move_corrmatrix, move_covmatrix, move_exp_nancorrmatrix, move_exp_nancovmatrix, nancorrmatrix,
    nancovmatrix,
};
pub use pairs::{
    move_corr, move_corr_axis, move_cov, move_cov_axis, move_exp_nancorr, move_exp_nancorr_axis,
    move_exp_nancov, move_exp_nancov_axis,
};
pub use partial::{finish_states, group_partial_states, merge_states, partial_states};
pub use replace::replace;
pub use statistic::report;

/// The statistics [`report`] computes: one type per function.
pub mod stats {
    pub use super::arg::{NanArg, NanArgMax, NanArgMin};
    pub use super::stat_types::{Median, Quantiles};
    // the reduce family's statistics (`NanSum`, …, `NanVar`), whatever it has
    pub use crate::reduce::*;
}
