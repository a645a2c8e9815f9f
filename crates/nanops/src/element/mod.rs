//! The element types nanops reduces, and the arithmetic types it reduces them in.
//!
//! [`Element`] is sealed: it is implemented for `f16`, `bf16`, `f32`, `f64`,
//! `Complex<f32>`, `Complex<f64>`, every primitive integer and `bool`. Each
//! element names
//! - its accumulator [`Element::Acc`] for sums and products (wider than the
//!   storage type: `f16` → `f32`, `f32` → `f64`; integers wrap in 64 bits as NumPy),
//! - its floating type [`Element::Float`] for means and variances (`f64` for integers),
//! - the types results are returned in (NumPy's result dtypes).
//!
//! Order statistics need an order: [`QuantileElement`] (real floats,
//! integers, `bool`) names the float each type is selected in, a
//! [`SelectFloat`] (`f64`, `f32`, `f16`, `bf16`), whose sealed methods reach
//! the type's SIMD kernels.
//!
//! Integers and `bool` are never NaN: their `is_nan` is a constant `false`
//! and the masking code compiles away.

mod accumulate;
mod base;
mod factor;
mod impls;
mod quantile;
mod select_float;

pub use accumulate::{Accumulator, FloatAcc};
pub use base::Element;
pub use factor::Factor;
pub use quantile::QuantileElement;
pub use select_float::SelectFloat;
pub(crate) use select_float::{ascending, contains_nan, sealed::Sealed as SelectSealed};
