//! Factors of products that are exact in class: every finite nonzero factor
//! split into a mantissa and a binary exponent, zeros and infinities counted
//! apart, so that partial products never overflow or underflow.

use super::accumulate::Accumulator;
use num_complex::Complex;

/// What one factor contributes to a product exact in class.
///
/// A finite nonzero factor `x` is `part · 2^exp` with `|part|` in `[1, 2)`
/// (complex: the larger part's magnitude in `[1, 2)`); a zero or an infinity
/// contributes its sign (complex: its direction, each part `±1` or `0`) as
/// `part`, and sets its flag. Integers wrap as NumPy's and have no classes:
/// the factor is itself, exponent 0.
pub trait Factor: Accumulator {
    /// Whether products of this type track classes and exponents (floats).
    const EXACT_CLASS: bool;
    /// How many *tame* factors (see [`tame`](Factor::tame)) a running
    /// mantissa in `[1, 2)` can take before it could overflow or underflow:
    /// a kernel multiplies that many plainly, then renormalises.
    const TAME_RUN: usize;
    /// Whether the value is NaN (skipped, so harmless) or a factor whose
    /// magnitude is within `2^±16`: runs of those multiply plainly.
    fn tame(self) -> bool;
    /// `(part, exp, zero, inf)` of a factor that is not NaN (see the trait).
    fn split(self) -> (Self, i64, bool, bool);
    /// A running mantissa as `(part, exp)` with `part · 2^exp == self`
    /// (exactly; a finite nonzero `self`), `|part|` back in `[1, 2)`.
    fn renormalize(self) -> (Self, i64);
    /// `self · 2^e`, rounded once (to ±inf past the largest value, to a
    /// subnormal or zero below the smallest normal).
    fn ldexp(self, e: i64) -> Self;
    /// The product of factors that held a zero (`zero`) and/or an infinity
    /// (`inf`), `part` the product of the signs or directions and of the
    /// finite factors: NaN when both, a signed zero or a signed infinity
    /// (complex: infinite in the parts where `part` is nonzero) otherwise.
    fn special(part: Self, zero: bool, inf: bool) -> Self;
    /// Whether the value is NaN (complex: either part).
    fn nan_value(self) -> bool;
}

macro_rules! int_factor {
    ($($t:ty),*) => {$(
        impl Factor for $t {
            const EXACT_CLASS: bool = false;
            const TAME_RUN: usize = usize::MAX;
            #[inline(always)]
            fn tame(self) -> bool { true }
            #[inline(always)]
            fn split(self) -> (Self, i64, bool, bool) { (self, 0, false, false) }
            #[inline(always)]
            fn renormalize(self) -> (Self, i64) { (self, 0) }
            #[inline(always)]
            fn ldexp(self, _e: i64) -> Self { self }
            #[inline(always)]
            fn special(part: Self, _zero: bool, _inf: bool) -> Self { part }
            #[inline(always)]
            fn nan_value(self) -> bool { false }
        }
    )*};
}
int_factor!(i64, u64);

/// The binary layout of a float type: its bits as an integer, the mantissa
/// width and the exponent bias.
macro_rules! float_factor {
    ($t:ty, $bits:ty, $mant:literal, $bias:literal, $emin:literal, $subnormal_lift:literal, $run:literal) => {
        impl Factor for $t {
            const EXACT_CLASS: bool = true;
            /// `1 + 16·run` stays below the largest exponent and `−16·run`
            /// above the smallest normal one.
            const TAME_RUN: usize = $run;
            #[inline(always)]
            fn tame(self) -> bool {
                (1.0 / 65536.0..=65536.0).contains(&self.abs()) | self.is_nan()
            }
            #[inline(always)]
            fn split(self) -> (Self, i64, bool, bool) {
                const EXP_MASK: $bits = ((1 << (<$bits>::BITS - 1 - $mant)) - 1) << $mant;
                let zero = self == 0.0;
                let inf = self.is_infinite();
                // subnormals are lifted into the normal range first
                let sub = !zero && self.abs() < <$t>::MIN_POSITIVE;
                let x = if sub {
                    self * (2.0 as $t).powi($subnormal_lift)
                } else {
                    self
                };
                let bits = x.to_bits();
                let e = ((bits & EXP_MASK) >> $mant) as i64 - $bias;
                let part = <$t>::from_bits((bits & !EXP_MASK) | (($bias as $bits) << $mant));
                let exp = e - if sub { $subnormal_lift as i64 } else { 0 };
                if zero || inf {
                    ((1.0 as $t).copysign(self), 0, zero, inf)
                } else {
                    (part, exp, false, false)
                }
            }
            #[inline(always)]
            fn renormalize(self) -> (Self, i64) {
                let (part, exp, _, _) = self.split();
                (part, exp)
            }
            #[inline(always)]
            fn ldexp(self, e: i64) -> Self {
                if (($emin)..=$bias).contains(&e) {
                    // `2^e` is exact: one product, one rounding (to ±inf past
                    // the largest value, to a subnormal below the smallest
                    // normal one)
                    return self * pow2::<$t>(e);
                }
                if self == 0.0 || !self.is_finite() {
                    return self;
                }
                let (m, k) = self.renormalize();
                let e = e + k;
                if e > $bias {
                    return <$t>::INFINITY.copysign(m);
                }
                if e >= $emin {
                    return m * pow2::<$t>(e);
                }
                if e < $emin - $mant - 2 {
                    return (0.0 as $t).copysign(m);
                }
                // a subnormal result: the one rounding is the last product
                (m * pow2::<$t>($emin)) * pow2::<$t>(e - $emin)
            }
            #[inline(always)]
            fn special(part: Self, zero: bool, inf: bool) -> Self {
                match (zero, inf) {
                    (true, true) => <$t>::NAN,
                    (true, false) => (0.0 as $t).copysign(part),
                    _ => <$t>::INFINITY.copysign(part),
                }
            }
            #[inline(always)]
            fn nan_value(self) -> bool {
                self.is_nan()
            }
        }

        impl Factor for Complex<$t> {
            const EXACT_CLASS: bool = true;
            /// As the real type's, one fewer: `|z|` reaches `√2·2^16`.
            const TAME_RUN: usize = $run - 1;
            #[inline(always)]
            fn tame(self) -> bool {
                let (a, b) = (self.re.abs(), self.im.abs());
                let big = if a >= b { a } else { b };
                ((big >= 1.0 / 65536.0) & (a <= 65536.0) & (b <= 65536.0))
                    | self.re.is_nan()
                    | self.im.is_nan()
            }
            #[inline(always)]
            fn split(self) -> (Self, i64, bool, bool) {
                let (re, im) = (self.re, self.im);
                if re.is_infinite() || im.is_infinite() {
                    // the direction of the point at infinity: the infinite parts
                    let dir = |p: $t| {
                        if p.is_infinite() {
                            (1.0 as $t).copysign(p)
                        } else {
                            0.0
                        }
                    };
                    return (Complex::new(dir(re), dir(im)), 0, false, true);
                }
                if re == 0.0 && im == 0.0 {
                    return (Complex::new(1.0, 0.0), 0, true, false);
                }
                // the larger part's exponent scales both (exactly, but a part
                // far smaller than the other may lose digits it does not need)
                let big = if re.abs() >= im.abs() { re } else { im };
                let (_, exp, _, _) = big.split();
                (
                    Complex::new(re.ldexp(-exp), im.ldexp(-exp)),
                    exp,
                    false,
                    false,
                )
            }
            #[inline(always)]
            fn renormalize(self) -> (Self, i64) {
                let (part, exp, _, _) = self.split();
                (part, exp)
            }
            #[inline(always)]
            fn ldexp(self, e: i64) -> Self {
                Complex::new(self.re.ldexp(e), self.im.ldexp(e))
            }
            #[inline(always)]
            fn special(part: Self, zero: bool, inf: bool) -> Self {
                match (zero, inf) {
                    (true, true) => Complex::new(<$t>::NAN, <$t>::NAN),
                    // the signs IEEE multiplication gives a zero
                    (true, false) => part * Complex::new(0.0, 0.0),
                    _ => {
                        let part_inf = |p: $t| {
                            if p == 0.0 {
                                p
                            } else {
                                <$t>::INFINITY.copysign(p)
                            }
                        };
                        Complex::new(part_inf(part.re), part_inf(part.im))
                    }
                }
            }
            #[inline(always)]
            fn nan_value(self) -> bool {
                self.re.is_nan() || self.im.is_nan()
            }
        }
    };
}

/// `2^e` for `e` in the normal exponent range of `f64` (and of `f32`, whose
/// range it covers): exact.
#[inline(always)]
fn pow2<T: From2>(e: i64) -> T {
    T::pow2(e)
}

/// Exact powers of two.
trait From2 {
    fn pow2(e: i64) -> Self;
}

impl From2 for f64 {
    #[inline(always)]
    fn pow2(e: i64) -> f64 {
        f64::from_bits(((e + 1023) as u64) << 52)
    }
}

impl From2 for f32 {
    #[inline(always)]
    fn pow2(e: i64) -> f32 {
        f32::from_bits(((e + 127) as u32) << 23)
    }
}

float_factor!(f64, u64, 52, 1023, -1022, 64, 62);
float_factor!(f32, u32, 23, 127, -126, 32, 7);

#[cfg(test)]
mod tests {
    use super::*;

    /// The product of `xs` by [`Factor`]: parts multiplied and renormalised,
    /// exponents added, classes apart.
    fn product<T: Factor>(xs: &[T]) -> T {
        let (mut m, mut e, mut zero, mut inf) = (T::one(), 0i64, false, false);
        for &x in xs {
            let (p, k, z, i) = x.split();
            let (mm, kk) = m.mul(p).renormalize();
            (m, e, zero, inf) = (mm, e + k + kk, zero | z, inf | i);
        }
        if zero || inf {
            T::special(m, zero, inf)
        } else {
            m.ldexp(e)
        }
    }

    #[test]
    fn split_and_ldexp_round_trip() {
        for x in [
            1.0,
            -1.5,
            3.0e300,
            -2.5e-300,
            5e-324,
            f64::MAX,
            f64::MIN_POSITIVE,
            0.1,
        ] {
            let (p, e, z, i) = x.split();
            assert!(!z && !i && (1.0..2.0).contains(&p.abs()), "{x}: {p} {e}");
            assert_eq!(p.ldexp(e), x, "{x}");
        }
        for x in [1.0f32, -1.5, 3.0e38, 1e-45, f32::MIN_POSITIVE / 3.0] {
            let (p, e, _, _) = x.split();
            assert_eq!(p.ldexp(e), x, "{x}");
        }
    }

    #[test]
    fn classes_are_exact() {
        let inf = f64::INFINITY;
        assert_eq!(product(&[inf, 1e-300, 1e-300, 1e-300]), inf);
        assert_eq!(product(&[0.0, 1e300, 1e300, 1e300]), 0.0);
        assert_eq!(product(&[1e300, 1e300, 1e300, 0.0]), 0.0);
        let (big, small) = (2f64.powi(1000), 2f64.powi(-1000));
        assert_eq!(product(&[-big, big, small, small]), -1.0);
        assert!(product(&[inf, 0.0]).is_nan());
        assert_eq!(product(&[-0.0f64, 5.0]).to_bits(), (-0.0f64).to_bits());
        assert_eq!(product(&[-inf, 1e-320]), -inf);
        // a subnormal result rounded once: 2^-1074 · 0.75 rounds to 2^-1074
        assert_eq!(product(&[5e-324, 0.75]), 5e-324);
        assert_eq!(product(&[1e-200, 1e-200]), 0.0);
        assert_eq!(product(&[1e200, 1e200]), inf);
    }

    #[test]
    fn complex_classes_are_exact() {
        let inf = f64::INFINITY;
        let c = Complex::new;
        // the naive formula gives nan+infj: (inf·0 − 0·1) + (inf·1 + 0·0)j
        assert_eq!(product(&[c(inf, 0.0), c(0.0, 1.0)]), c(0.0, inf));
        assert_eq!(
            product(&[c(inf, 0.0), c(1e-300, 0.0), c(1e-300, 0.0)]),
            c(inf, 0.0)
        );
        assert!(product(&[c(inf, 1.0), c(0.0, 0.0)]).re.is_nan());
        // |(1e300 + 1e300j)(1e300 − 1e300j)| = 2e600, far past f64, then 1e-600
        let p = product(&[
            c(1e300, 1e300),
            c(1e300, -1e300),
            c(1e-300, 0.0),
            c(1e-300, 0.0),
        ]);
        assert!((p.re - 2.0).abs() < 1e-14 && p.im == 0.0, "{p}");
    }
}
