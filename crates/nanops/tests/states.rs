//! States: merging partial states equals pushing every value into one.

use nanops::states::{ArgExtremum, Count, Extremum, Moments, Product, State, Sum};
use num_complex::Complex64;
use proptest::prelude::*;

fn values() -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(
        prop_oneof![8 => -1e3f64..1e3, 1 => Just(f64::NAN), 1 => (-5i32..5).prop_map(f64::from)],
        0..200,
    )
}

fn close(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn sum_merge_equals_push(xs in values(), cut in 0usize..200) {
        let xs: Vec<f64> = xs.into_iter().filter(|x| !x.is_nan()).collect();
        let cut = cut.min(xs.len());
        let (mut all, mut a, mut b) = (Sum::<f64>::default(), Sum::default(), Sum::default());
        xs.iter().for_each(|&x| all.push(x));
        xs[..cut].iter().for_each(|&x| a.push(x));
        xs[cut..].iter().for_each(|&x| b.push(x));
        a.merge(&b);
        prop_assert!(close(a.value(), all.value()));
        // agrees with a plain sum to well within its rounding error
        let plain: f64 = xs.iter().sum();
        prop_assert!(close(all.value(), plain));
    }

    #[test]
    fn moments_merge_equals_push(xs in values(), cut in 0usize..200) {
        let xs: Vec<f64> = xs.into_iter().filter(|x| !x.is_nan()).collect();
        let cut = cut.min(xs.len());
        let mut all = Moments::<f64>::default();
        xs.iter().for_each(|&x| all.push(x));
        let mut a = Moments::from_slice(&xs[..cut]);
        a.merge(&Moments::from_slice(&xs[cut..]));
        prop_assert_eq!(a.count(), all.count());
        prop_assert!(close(a.mean(), all.mean()));
        prop_assert!(close(a.m2(), all.m2()));
        let whole = Moments::from_slice(&xs);
        prop_assert!(close(whole.m2(), all.m2()));
    }

    #[test]
    fn complex_moments_are_real(re in prop::collection::vec(-10.0f64..10.0, 1..50), im in prop::collection::vec(-10.0f64..10.0, 1..50)) {
        let zs: Vec<Complex64> = re.iter().zip(&im).map(|(&r, &i)| Complex64::new(r, i)).collect();
        let m = Moments::from_slice(&zs);
        let mut w = Moments::<Complex64>::default();
        zs.iter().for_each(|&z| w.push(z));
        // |z - mean|^2 = (re - mean_re)^2 + (im - mean_im)^2
        let re_m = Moments::from_slice(&re[..zs.len()]);
        let im_m = Moments::from_slice(&im[..zs.len()]);
        prop_assert!(close(m.m2(), re_m.m2() + im_m.m2()));
        prop_assert!(close(w.m2(), m.m2()));
    }

    #[test]
    fn extremum_and_count_merge_equals_push(xs in values(), cut in 0usize..200) {
        let cut = cut.min(xs.len());
        let mut all = Extremum::<f64, false>::default();
        let mut arg = ArgExtremum::<f64, true>::default();
        let mut count = Count::default();
        xs.iter().enumerate().for_each(|(i, &x)| { all.push(x); arg.push(x, i); count.push_valid(!x.is_nan()) });
        let (mut a, mut b) = (Extremum::<f64, false>::default(), Extremum::default());
        let (mut aa, mut ab) = (ArgExtremum::<f64, true>::default(), ArgExtremum::default());
        xs[..cut].iter().enumerate().for_each(|(i, &x)| { a.push(x); aa.push(x, i) });
        xs[cut..].iter().enumerate().for_each(|(i, &x)| { b.push(x); ab.push(x, cut + i) });
        // merging in either order gives the same, ties to the first index
        a.merge(&b);
        ab.merge(&aa);
        prop_assert_eq!(a.value(), all.value());
        prop_assert_eq!(ab.get(), arg.get());
        let mut c2 = Count(xs[..cut].iter().filter(|x| !x.is_nan()).count() as u64);
        c2.merge(&Count(xs[cut..].iter().filter(|x| !x.is_nan()).count() as u64));
        prop_assert_eq!(c2, count);
        let want = xs.iter().copied().filter(|x| !x.is_nan()).fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.min(x))));
        prop_assert_eq!(all.value(), want);
    }

    #[test]
    fn product_merge_equals_push(xs in prop::collection::vec(-2.0f64..2.0, 0..40), cut in 0usize..40) {
        let cut = cut.min(xs.len());
        let mut all = Product::<f64>::default();
        xs.iter().for_each(|&x| all.push(x));
        let (mut a, mut b) = (Product::<f64>::default(), Product::default());
        xs[..cut].iter().for_each(|&x| a.push(x));
        xs[cut..].iter().for_each(|&x| b.push(x));
        a.merge(&b);
        prop_assert!(close(a.value(), all.value()));
    }
}

/// Two finite sums of squared deviations whose total overflows: the merged
/// `m2` is +inf, never NaN (the compensation of an overflowed total is
/// itself infinite and must not be added back).
#[test]
fn moments_whose_merged_m2_overflows_are_infinite_not_nan() {
    let mut a = Moments::<f64>::from_shifted(2, 0.0, 0.0, 1e308);
    a.merge(&Moments::from_shifted(2, 0.0, 0.0, 1e308));
    assert_eq!(a.m2(), f64::INFINITY);
    assert_eq!(a.variance(0.0), Some(f64::INFINITY));
}

/// A compensated sum that overflows is ±inf, never NaN: pushed, merged, or
/// merged after both halves overflowed (the compensation of an overflowed
/// total is infinite and must not be added back).
#[test]
fn sums_that_overflow_are_infinite_not_nan() {
    let mut pushed = Sum::<f64>::default();
    [1.7e308, 1.7e308, 1.0].iter().for_each(|&x| pushed.push(x));
    assert_eq!(pushed.value(), f64::INFINITY);
    let mut a = pushed;
    a.merge(&pushed);
    assert_eq!(a.value(), f64::INFINITY);
    let mut b = Sum::<f64>::of(1.7e308);
    b.merge(&Sum::of(1.7e308));
    assert_eq!(b.value(), f64::INFINITY);
}
