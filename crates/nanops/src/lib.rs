//! # nanops
//!
//! NaN-aware reductions over n-dimensional [`ndarray`] arrays with NumPy's
//! semantics: `nansum nanprod nanmean nanvar nanstd nanmin nanmax nanargmin
//! nanargmax nancumsum nancumprod`, plus [`nancount`].
//!
//! NaN marks a missing value and is skipped. Any array or view works — any
//! dimension, strides, negative strides — and is never modified. Float
//! accumulators are wider than the data (`f16` in `f32`, `f32` in `f64`,
//! compensated sums), so results are at least as accurate as NumPy's.
//!
//! ```
//! use ndarray::array;
//! use nanops::{Axes, NanOps};
//!
//! let temps = array![[12.5, f64::NAN, 14.0], [f64::NAN, f64::NAN, 9.0]];
//! assert_eq!(temps.nanmean(Axes::All)?[[]], 35.5 / 3.0);
//! assert_eq!(temps.nanmax(1)?, array![14.0, 9.0].into_dyn());
//! assert_eq!(temps.nancount(0)?, array![1, 0, 2].into_dyn());
//! # Ok::<(), nanops::Error>(())
//! ```
//!
//! ## Architecture
//! - [`element`]: the sealed [`Element`] trait — accumulator, result types, NaN test;
//! - [`states`]: mergeable partial states (`Count`, `Sum`, `Moments`, `Extremum`);
//! - `plan`: normalises (shape, strides, axes) into a loop nest with contiguous inner loops;
//! - `kernels`: contiguous slices → states, in lane accumulators LLVM vectorises;
//! - `par`: threads with fixed chunk boundaries (same bits for any thread count);
//! - `api`: the functions below and the [`NanOps`] extension trait.
#![warn(missing_docs)]

mod api;
mod axes;
pub mod element;
mod error;
mod kernels;
mod par;
mod plan;
pub mod select;
mod simd;
pub mod states;

pub use api::*;
pub use axes::Axes;
pub use element::Element;
pub use error::{Error, Result};
pub use select::{QDtype, QuantileMethod};

/// The README's Rust example, compiled and run as a doctest.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
