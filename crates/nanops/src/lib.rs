//! # nanops
//!
//! NaN-aware statistics over n-dimensional [`ndarray`] arrays with NumPy's
//! semantics: `nansum nanprod nanmean nanvar nanstd nanmin nanmax nanargmin
//! nanargmax nanmedian nanquantile nancumsum nancumprod`, the NaN-propagating
//! `median` and `quantile`, plus [`nancount`] and bottleneck's sum of squares
//! [`ss`].
//!
//! NaN marks a missing value and is skipped. Any array or view works — any
//! dimension, strides, negative strides — and is never modified. Float
//! accumulators are wider than the data (`f16` in `f32`, `f32` in `f64`,
//! compensated sums), so results are at least as accurate as NumPy's.
//!
//! ```
//! use ndarray::{array, Axis};
//! use nanops::{Axes, NanOps};
//!
//! let temps = array![[12.5, f64::NAN, 14.0], [f64::NAN, f64::NAN, 9.0]];
//! assert_eq!(temps.nanmean(Axes::All)?[[]], 35.5 / 3.0);
//! assert_eq!(temps.nanmax_axis(Axis(1))?, array![14.0, 9.0]);
//! assert_eq!(temps.nancount(0)?, array![1, 0, 2].into_dyn());
//! # Ok::<(), nanops::Error>(())
//! ```
//!
//! ## Architecture
//! Shared machinery below, families above, the API on top; no module imports
//! one above it (a test checks the `use` lines).
//! - [`options`](Axes), [`Error`]: what every function takes and returns;
//! - `simd`: run-time instruction-set dispatch, prefetch, AVX-512 compress kernels;
//! - [`element`]: the sealed [`Element`] trait — accumulator, result types, NaN test;
//! - [`states`]: mergeable partial states under one [`State`](states::State) trait;
//! - `layout`: normalises (shape, strides, axes) into a loop nest with contiguous inner loops;
//! - `par`: the thread driver (fixed task boundaries: same bits for any thread count);
//! - families, each with one trait a new function implements: `reduce`
//!   (one-pass reductions: `Reducer`), `order` (medians and quantiles by
//!   selection: `OrderStatistic`), `scan` (cumulative functions: `Scanner`);
//! - `api`: the functions, the [`NanOps`] extension trait and [`report`].
#![warn(missing_docs)]

mod api;
pub mod element;
mod error;
mod group;
mod layout;
mod options;
mod order;
mod par;
mod reduce;
mod scan;
mod simd;
pub mod states;
mod statistic;

pub use api::*;
pub use element::{Element, QuantileElement};
pub use error::{Error, Result};
pub use options::{
    Axes, Ddof, NanPolicy, QDtype, QuantileMethod, QuantileOptions, UnknownQuantileMethod,
};
pub use order::chunked;
pub use order::select;
pub use statistic::{Report, Statistic};

/// The README's Rust example, compiled and run as a doctest.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
