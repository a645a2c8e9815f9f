//! `Element` for every supported type.

use super::base::{sealed::Sealed, Element};
use crate::simd::opaque::opaque_f64;
use half::{bf16, f16};
use num_complex::Complex;

macro_rules! half_element {
    ($($t:ty),*) => {$(
        impl Sealed for $t {}
        impl Element for $t {
            type Acc = f32;
            type Sum = $t;
            type Float = f32;
            type Mean = $t;
            type Var = $t;
            const CAN_BE_NAN: bool = true;
            const VAR_EPSILON: f64 = <$t>::EPSILON.to_f64_const();
            #[inline(always)]
            fn is_nan_value(self) -> bool { self.is_nan() }
            #[inline(always)]
            fn to_acc(self) -> f32 { self.to_f32() }
            #[inline(always)]
            fn to_float(self) -> f32 { self.to_f32() }
            #[inline(always)]
            fn sum_from_acc(a: f32) -> $t { <$t>::from_f32(a) }
            #[inline(always)]
            fn mean_from_float(x: f32) -> $t { <$t>::from_f32(x) }
            #[inline(always)]
            fn var_from_real(x: f32) -> $t { <$t>::from_f32(x) }
            #[inline(always)]
            fn std_from_real(x: f32) -> $t { <$t>::from_f32(x.sqrt()) }
            #[inline(always)]
            fn less(self, o: Self) -> bool { self.to_f32() < o.to_f32() }
            #[inline(always)]
            fn nan() -> Self { <$t>::NAN }
            #[inline(always)]
            fn dispatch<T>(f: impl FnOnce() -> T) -> T { crate::simd::dispatch::dispatch_avx2(f) }
        }
    )*};
}
half_element!(f16, bf16);

macro_rules! float_element {
    ($t:ty, $acc:ty, $window_sum:path) => {
        impl Sealed for $t {}
        impl Element for $t {
            type Acc = $acc;
            type Sum = $t;
            type Float = $acc;
            type Mean = $t;
            type Var = $t;
            const CAN_BE_NAN: bool = true;
            const VAR_EPSILON: f64 = <$t>::EPSILON as f64;
            #[inline(always)]
            fn is_nan_value(self) -> bool {
                self.is_nan()
            }
            #[inline(always)]
            fn to_acc(self) -> $acc {
                self as $acc
            }
            #[inline(always)]
            fn to_float(self) -> $acc {
                self as $acc
            }
            /// The widened value tested for NaN after it is widened, out of
            /// LLVM's sight ([`opaque_f64`]): a test of the `f32`, which LLVM
            /// makes of any form of the test on the `f64`, became a branch.
            #[inline(always)]
            fn to_acc_nan_zero(self) -> $acc {
                let a = opaque_f64(self as $acc);
                if a.is_nan() {
                    0.0
                } else {
                    a
                }
            }
            /// As [`to_acc_nan_zero`](Element::to_acc_nan_zero): the same
            /// widening.
            #[inline(always)]
            fn to_float_nan_zero(self) -> $acc {
                self.to_acc_nan_zero()
            }
            #[inline(always)]
            fn sum_from_acc(a: $acc) -> $t {
                a as $t
            }
            #[inline(always)]
            fn mean_from_float(x: $acc) -> $t {
                x as $t
            }
            #[inline(always)]
            fn var_from_real(x: $acc) -> $t {
                x as $t
            }
            #[inline(always)]
            fn std_from_real(x: $acc) -> $t {
                // As NumPy: the root of the variance rounded to the result
                // type, wherever that variance is a normal number. Where it
                // overflows or underflows (`f32` data near 3.4e38 has a
                // variance near 1e70: NumPy's `nanstd` returns inf), the root
                // is taken in the wider type and rounded once, so that a
                // representable standard deviation comes back: a deliberate
                // improvement over NumPy. (A no-op for `f64`.)
                let v = x as $t;
                if v.is_normal() {
                    v.sqrt()
                } else {
                    x.sqrt() as $t
                }
            }
            #[inline(always)]
            fn less(self, o: Self) -> bool {
                self < o
            }
            #[inline(always)]
            fn nan() -> Self {
                <$t>::NAN
            }
            const SHORT_LANE_KERNELS: bool = true;
            #[inline(always)]
            fn dispatch<T>(f: impl FnOnce() -> T) -> T {
                crate::simd::dispatch::dispatch(f)
            }
            /// Windows of [`WINDOW`](crate::simd::window::WINDOW) values
            /// only (`L` is a constant: the test folds away).
            #[inline(always)]
            fn window_acc_sum<const L: usize>(window: &[$t; L], len: usize) -> Option<($acc, u32)> {
                $window_sum(window.as_slice().try_into().ok()?, len)
            }
            #[inline(always)]
            fn window_float_sum<const L: usize>(
                window: &[$t; L],
                len: usize,
            ) -> Option<($acc, u32)> {
                Self::window_acc_sum(window, len)
            }
        }
        impl Sealed for Complex<$t> {}
        impl Element for Complex<$t> {
            type Acc = Complex<$acc>;
            type Sum = Complex<$t>;
            type Float = Complex<$acc>;
            type Mean = Complex<$t>;
            type Var = $t;
            const CAN_BE_NAN: bool = true;
            const VAR_EPSILON: f64 = <$t>::EPSILON as f64;
            #[inline(always)]
            fn is_nan_value(self) -> bool {
                self.re.is_nan() || self.im.is_nan()
            }
            #[inline(always)]
            fn to_acc(self) -> Complex<$acc> {
                Complex::new(self.re as $acc, self.im as $acc)
            }
            #[inline(always)]
            fn to_float(self) -> Complex<$acc> {
                Complex::new(self.re as $acc, self.im as $acc)
            }
            #[inline(always)]
            fn sum_from_acc(a: Complex<$acc>) -> Self {
                Complex::new(a.re as $t, a.im as $t)
            }
            #[inline(always)]
            fn mean_from_float(x: Complex<$acc>) -> Self {
                Complex::new(x.re as $t, x.im as $t)
            }
            #[inline(always)]
            fn var_from_real(x: $acc) -> $t {
                x as $t
            }
            #[inline(always)]
            fn std_from_real(x: $acc) -> $t {
                // As NumPy: the root of the variance rounded to the result
                // type, wherever that variance is a normal number. Where it
                // overflows or underflows (`f32` data near 3.4e38 has a
                // variance near 1e70: NumPy's `nanstd` returns inf), the root
                // is taken in the wider type and rounded once, so that a
                // representable standard deviation comes back: a deliberate
                // improvement over NumPy. (A no-op for `f64`.)
                let v = x as $t;
                if v.is_normal() {
                    v.sqrt()
                } else {
                    x.sqrt() as $t
                }
            }
            #[inline(always)]
            fn less(self, o: Self) -> bool {
                // a NaN part makes the value NaN: never less, never greater
                // (`1+nanj < 2` must not hold although `1 < 2`)
                !(self.is_nan_value() || o.is_nan_value())
                    && (self.re < o.re || (self.re == o.re && self.im < o.im))
            }
            #[inline(always)]
            fn nan() -> Self {
                Complex::new(<$t>::NAN, <$t>::NAN)
            }
        }
    };
}
float_element!(f32, f64, crate::simd::window::sum_f32);
float_element!(f64, f64, crate::simd::window::sum_f64);

macro_rules! int_element {
    ($acc:ty; $($t:ty),*) => {$(
        impl Sealed for $t {}
        impl Element for $t {
            type Acc = $acc;
            type Sum = $acc;
            type Float = f64;
            type Mean = f64;
            type Var = f64;
            const CAN_BE_NAN: bool = false;
            const VAR_EPSILON: f64 = f64::EPSILON;
            #[inline(always)]
            fn is_nan_value(self) -> bool { false }
            #[inline(always)]
            fn to_acc(self) -> $acc { self as $acc }
            #[inline(always)]
            fn to_float(self) -> f64 { self as f64 }
            #[inline(always)]
            fn sum_from_acc(a: $acc) -> $acc { a }
            #[inline(always)]
            fn mean_from_float(x: f64) -> f64 { x }
            #[inline(always)]
            fn var_from_real(x: f64) -> f64 { x }
            #[inline(always)]
            fn std_from_real(x: f64) -> f64 { x.sqrt() }
            #[inline(always)]
            fn less(self, o: Self) -> bool { self < o }
            #[inline(always)]
            fn nan() -> Self { 0 }
        }
    )*};
}
int_element!(i64; i8, i16, i32, i64);
int_element!(u64; u8, u16, u32, u64);

impl Sealed for bool {}
impl Element for bool {
    type Acc = i64;
    type Sum = i64;
    type Float = f64;
    type Mean = f64;
    type Var = f64;
    const CAN_BE_NAN: bool = false;
    const VAR_EPSILON: f64 = f64::EPSILON;
    #[inline(always)]
    fn is_nan_value(self) -> bool {
        false
    }
    #[inline(always)]
    fn to_acc(self) -> i64 {
        self as i64
    }
    #[inline(always)]
    fn to_float(self) -> f64 {
        self as u8 as f64
    }
    #[inline(always)]
    fn sum_from_acc(a: i64) -> i64 {
        a
    }
    #[inline(always)]
    fn mean_from_float(x: f64) -> f64 {
        x
    }
    #[inline(always)]
    fn var_from_real(x: f64) -> f64 {
        x
    }
    #[inline(always)]
    fn std_from_real(x: f64) -> f64 {
        x.sqrt()
    }
    #[inline(always)]
    fn less(self, o: Self) -> bool {
        !self & o
    }
    #[inline(always)]
    fn nan() -> Self {
        false
    }
}
