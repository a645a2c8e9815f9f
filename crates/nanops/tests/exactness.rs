//! Products exact in class, and the first NaN of an all-NaN complex slice.

use nanops::states::{Product, State};
use ndarray::{array, Array1, ArrayD, IxDyn, ShapeBuilder};
use num_complex::Complex64;
use proptest::prelude::*;

/// The class of the exact product of the non-NaN `xs` and its sign:
/// `None` for NaN (a zero times an infinity), else `(class, negative)` with
/// class 0 (zero), 1 (finite) or 2 (infinite).
fn exact_class(xs: &[f64]) -> Option<(u8, bool)> {
    let vals: Vec<f64> = xs.iter().copied().filter(|x| !x.is_nan()).collect();
    let negative = vals.iter().filter(|x| x.is_sign_negative()).count() % 2 == 1;
    let zero = vals.contains(&0.0);
    let inf = vals.iter().any(|x| x.is_infinite());
    match (zero, inf) {
        (true, true) => None,
        (true, false) => Some((0, negative)),
        (false, true) => Some((2, negative)),
        // finite factors: the exact magnitude's binary exponent decides
        (false, false) => {
            let log2: f64 = vals.iter().map(|x| x.abs().log2()).sum();
            let class = if log2 >= 1024.0 {
                2
            } else if log2 < -1075.0 {
                0
            } else {
                1
            };
            Some((class, negative))
        }
    }
}

fn class_of(x: f64) -> Option<(u8, bool)> {
    if x.is_nan() {
        return None;
    }
    let class = if x == 0.0 {
        0
    } else if x.is_infinite() {
        2
    } else {
        1
    };
    Some((class, x.is_sign_negative()))
}

fn value() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => prop::sample::select(vec![1.5, -0.75, 3.0, 0.1, -7.0]),
        2 => prop::sample::select(vec![1e-300, -1e-300, 1e300, -1e300, 5e-324]),
        1 => prop::sample::select(vec![0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Whole arrays, lanes of a 2-d array along either axis (the lane and
    /// the rows kernels), the running product, and states merged from any
    /// split: the exact product's class and sign, far from the overflow and
    /// underflow thresholds where rounding could decide the class.
    #[test]
    fn products_are_exact_in_class(xs in prop::collection::vec(value(), 1..60), cut in 0usize..60) {
        let want = exact_class(&xs);
        let borderline = {
            let log2: f64 = xs.iter().filter(|x| x.is_finite() && **x != 0.0).map(|x| x.abs().log2()).sum();
            (log2 - 1024.0).abs() < 8.0 || (log2 + 1075.0).abs() < 8.0
        };
        prop_assume!(!borderline);
        let a = Array1::from(xs.clone());
        let got = nanops::nanprod(&a, 0).unwrap()[[]];
        prop_assert_eq!(class_of(got), want, "nanprod {:?} = {}", xs, got);
        let cum = nanops::nancumprod(&a, Some(0)).unwrap();
        prop_assert_eq!(class_of(cum[[xs.len() - 1]]), want, "nancumprod {:?}", xs);
        // as a column of a (n, 3) C array: the rows kernel
        let n = xs.len();
        let grid = ArrayD::from_shape_fn(IxDyn(&[n, 3]), |ix| xs[ix[0]]);
        let cols = nanops::nanprod(&grid, 0).unwrap();
        prop_assert_eq!(class_of(cols[[1]]), want, "columns {:?}", xs);
        let mut fortran = ArrayD::zeros(IxDyn(&[3, n]).f());
        fortran.assign(&grid.t());
        prop_assert_eq!(class_of(nanops::nanprod(&fortran, 1).unwrap()[[2]]), want);
        // two states merged
        let cut = cut.min(n);
        let (mut p, mut q) = (Product::<f64>::default(), Product::<f64>::default());
        xs[..cut].iter().filter(|x| !x.is_nan()).for_each(|&x| p.push(x));
        xs[cut..].iter().filter(|x| !x.is_nan()).for_each(|&x| q.push(x));
        p.merge(&q);
        prop_assert_eq!(class_of(p.finish()), want);
    }
}

#[test]
fn the_issue_examples() {
    let inf = f64::INFINITY;
    let mut a = vec![inf];
    a.extend([1e-300; 16]);
    assert_eq!(nanops::nanprod(&Array1::from(a), 0).unwrap()[[]], inf);
    let mut b = vec![0.0];
    b.extend([1e300; 16]);
    assert_eq!(nanops::nanprod(&Array1::from(b), 0).unwrap()[[]], 0.0);
    let mut c = vec![1e300; 16];
    c.push(0.0);
    assert_eq!(nanops::nanprod(&Array1::from(c), 0).unwrap()[[]], 0.0);
    let h = array![
        half::f16::from_f32(300.0),
        half::f16::from_f32(300.0),
        half::f16::ZERO
    ];
    let cum = nanops::nancumprod(&h, Some(0)).unwrap();
    assert_eq!(cum[[1]], half::f16::INFINITY);
    assert_eq!(cum[[2]], half::f16::ZERO);
}

#[test]
fn complex_infinities_keep_their_direction() {
    let c = Complex64::new;
    let a = array![c(f64::INFINITY, 0.0), c(0.0, 1.0), c(f64::NAN, 3.0)];
    assert_eq!(nanops::nanprod(&a, 0).unwrap()[[]], c(0.0, f64::INFINITY));
    let z = array![c(f64::INFINITY, 1.0), c(0.0, 0.0)];
    let p = nanops::nanprod(&z, 0).unwrap()[[]];
    assert!(p.re.is_nan() && p.im.is_nan());
}

#[test]
fn an_all_nan_complex_slice_gives_its_first_element() {
    let c = Complex64::new;
    let nan = f64::NAN;
    let a = array![[c(nan, 1.0), c(2.0, nan)], [c(nan, 7.0), c(3.0, nan)]];
    // along each axis, in C and reversed layouts: the logically first NaN
    for view in [a.view(), a.slice(ndarray::s![..;-1, ..;-1])] {
        for axis in 0..2 {
            let got = nanops::nanmin(&view, axis).unwrap();
            let want = view.index_axis(ndarray::Axis(axis), 0);
            for (g, w) in got.iter().zip(want.iter()) {
                // the element itself: both parts' bits
                assert_eq!(
                    (g.re.to_bits(), g.im.to_bits()),
                    (w.re.to_bits(), w.im.to_bits())
                );
            }
        }
        let whole = nanops::nanmax(&view, nanops::Axes::All).unwrap()[[]];
        let first = view[[0, 0]];
        assert_eq!(whole.im.to_bits(), first.im.to_bits());
        assert_eq!(whole.re.to_bits(), first.re.to_bits());
    }
}
