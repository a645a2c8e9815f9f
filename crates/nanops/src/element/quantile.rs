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

    /// [`QuantileElement::as_values`] for writing (partitions in place).
    #[inline(always)]
    fn as_values_mut(xs: &mut [Self]) -> Option<&mut [Self::Value]> {
        let _ = xs;
        None
    }

    /// The value as an unsigned integer in NumPy's sort order: keys compare
    /// as the values do, equal values (`-0.0` and `0.0`) have one key, and
    /// every NaN has the key `u64::MAX`, above all others (no float that is
    /// not NaN has it: `+inf` is below). Exact for every type, so ranks and
    /// partitions sort keys instead of comparing values.
    ///
    /// ```
    /// use nanops::QuantileElement;
    /// assert!((-1.5_f64).order_key() < 0.0_f64.order_key());
    /// assert_eq!((-0.0_f64).order_key(), 0.0_f64.order_key());
    /// assert_eq!(f64::NAN.order_key(), u64::MAX);
    /// assert!((i64::MIN).order_key() < (-1_i64).order_key());
    /// ```
    fn order_key(self) -> u64;
}

/// The order key of a float widened exactly to `f64` (see
/// [`QuantileElement::order_key`]): its bits with the sign bit flipped for a
/// positive value, every bit flipped for a negative one.
#[inline(always)]
fn float_key(x: f64) -> u64 {
    if x.is_nan() {
        return u64::MAX;
    }
    // +0.0 for -0.0, so that the two zeros are one key
    let bits = (x + 0.0).to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
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
            #[inline(always)]
            fn as_values_mut(xs: &mut [$t]) -> Option<&mut [$t]> { Some(xs) }
            #[inline(always)]
            fn order_key(self) -> u64 { float_key(self.to_f64_exact()) }
        }
    )*};
}
float_quantile!(f16, bf16, f32, f64);

macro_rules! int_quantile {
    ($($t:ty => |$x:ident| $key:expr),*) => {$(
        impl QuantileElement for $t {
            type Value = f64;
            #[inline(always)]
            fn to_value(self) -> f64 { self as f64 }
            #[inline(always)]
            fn order_key(self) -> u64 { let $x = self; $key }
        }
    )*};
}
// signed: the sign bit flipped, so that negatives come first
int_quantile!(
    i8 => |x| (x as i64 as u64) ^ (1 << 63),
    i16 => |x| (x as i64 as u64) ^ (1 << 63),
    i32 => |x| (x as i64 as u64) ^ (1 << 63),
    i64 => |x| (x as u64) ^ (1 << 63),
    u8 => |x| x as u64,
    u16 => |x| x as u64,
    u32 => |x| x as u64,
    u64 => |x| x
);

impl QuantileElement for bool {
    type Value = f64;
    #[inline(always)]
    fn to_value(self) -> f64 {
        self as u8 as f64
    }
    #[inline(always)]
    fn order_key(self) -> u64 {
        self as u64
    }
}
