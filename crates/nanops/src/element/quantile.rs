//! The element types order statistics take, and the float they select in.

use super::base::Element;
use super::select_float::SelectFloat;
use half::{bf16, f16};

/// Element types with an order: real floats, integers and `bool` (complex has none).
///
/// `Value` is the type quantiles are selected and interpolated in: the float
/// itself, `f64` for integers and `bool` (NumPy's result dtype).
pub trait QuantileElement: Element {
    /// The float type of the lane's values.
    type Value: SelectFloat + Default;
    /// Converts one value (exactly for floats and integers up to 2⁵³).
    fn to_value(self) -> Self::Value;

    /// The values themselves when `Self` is `Value` (the float types), so
    /// that a lane can be copied by SIMD; `None` for the converted types.
    ///
    /// ```
    /// use nanops::QuantileElement;
    /// assert_eq!(f64::as_values(&[1.0, 2.0]), Some(&[1.0, 2.0][..]));
    /// assert_eq!(i32::as_values(&[1, 2]), None);
    /// ```
    #[inline(always)]
    fn as_values(xs: &[Self]) -> Option<&[Self::Value]> {
        let _ = xs;
        None
    }
}

macro_rules! float_quantile {
    ($($t:ty),*) => {$(
        impl QuantileElement for $t {
            type Value = $t;
            #[inline(always)]
            fn to_value(self) -> $t { self }
            #[inline(always)]
            fn as_values(xs: &[$t]) -> Option<&[$t]> { Some(xs) }
        }
    )*};
}
float_quantile!(f16, bf16, f32, f64);

macro_rules! int_quantile {
    ($($t:ty),*) => {$(
        impl QuantileElement for $t {
            type Value = f64;
            #[inline(always)]
            fn to_value(self) -> f64 { self as f64 }
        }
    )*};
}
int_quantile!(i8, i16, i32, i64, u8, u16, u32, u64);

impl QuantileElement for bool {
    type Value = f64;
    #[inline(always)]
    fn to_value(self) -> f64 {
        self as u8 as f64
    }
}
