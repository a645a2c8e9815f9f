//! Moving windows and fills against a slow obvious reference: every window
//! computed from its own values, for every layout, axis, window and
//! `min_count`.

use crate::common::*;
use ndarray::{ArrayD, Axis, IxDyn};
use proptest::prelude::*;

/// The statistics, by name, as the reference computes them from the
/// window's non-NaN values (`n` of them, at least `min_count`).
const STATS: [&str; 9] = [
    "sum", "mean", "count", "min", "max", "argmin", "argmax", "var", "std1",
];

/// The order statistics (`q:METHOD:Q` is `move_quantile`), compared bit for
/// bit: every one of NumPy's 13 methods, at several `q`.
const ORDERED: [&str; 16] = [
    "median",
    "rank",
    "q:inverted_cdf:0.1",
    "q:averaged_inverted_cdf:0.5",
    "q:closest_observation:0.9",
    "q:interpolated_inverted_cdf:0.3",
    "q:hazen:0.75",
    "q:weibull:0.2",
    "q:linear:0.3",
    "q:linear:1.0",
    "q:median_unbiased:0.6",
    "q:normal_unbiased:0.4",
    "q:lower:0.5",
    "q:higher:0.45",
    "q:nearest:0.5",
    "q:midpoint:0.0",
];

/// The order statistics the long-array tests run (the others differ only
/// in the finishing arithmetic, which the proptest covers).
const ORDERED_LONG: [&str; 4] = ["median", "rank", "q:linear:0.3", "q:hazen:0.75"];

/// A `q:METHOD:Q` statistic's method and probability.
fn quantile_stat(stat: &str) -> Option<(nanops::QuantileMethod, f64)> {
    let mut parts = stat.strip_prefix("q:")?.split(':');
    let method = parts.next()?.parse().ok()?;
    Some((method, parts.next()?.parse().ok()?))
}

/// The reference of an order statistic over the window `w` (oldest first):
/// the median and the rank counted from the window's values, a quantile by
/// `nanops::select::quantiles_in_place` (NumPy's `nanquantile` of one lane)
/// of the window's non-NaN values.
fn of_window_ordered(stat: &str, w: &[f64], min_count: usize) -> f64 {
    let mut v = valid(w);
    let n = v.len();
    if n < min_count {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    if let Some((method, q)) = quantile_stat(stat) {
        let mut out = [0.0];
        let mut scratch = nanops::select::QuantileScratch::new();
        nanops::select::quantiles_in_place(&mut v, &[q], method, &mut scratch, &mut out);
        return out[0];
    }
    match stat {
        "median" if n % 2 == 1 => v[n / 2],
        "median" => (v[n / 2 - 1] + v[n / 2]) / 2.0,
        "rank" => {
            let x = w[w.len() - 1];
            if x.is_nan() {
                f64::NAN
            } else if n == 1 {
                0.0
            } else {
                // bottleneck's: g = 2·less, e = equal (itself included)
                let g = 2.0 * v.iter().filter(|&&y| y < x).count() as f64;
                let e = v.iter().filter(|&&y| y == x).count() as f64;
                2.0 * (0.5 * (g + e - 1.0) / (n as f64 - 1.0) - 0.5)
            }
        }
        _ => unreachable!(),
    }
}

/// The same values bit for bit (any NaN equal to any NaN).
fn same_bits(a: &ArrayD<f64>, b: &ArrayD<f64>) -> bool {
    a.shape() == b.shape()
        && a.iter()
            .zip(b.iter())
            .all(|(x, y)| (x.is_nan() && y.is_nan()) || x.to_bits() == y.to_bits())
}

/// The reference of one statistic over the window `w` (oldest first).
fn of_window(stat: &str, w: &[f64], min_count: usize) -> f64 {
    if ORDERED.contains(&stat) {
        return of_window_ordered(stat, w, min_count);
    }
    let v = valid(w);
    let n = v.len();
    if n < min_count {
        return f64::NAN;
    }
    let sum = || v.iter().sum::<f64>();
    let var = |ddof: f64| {
        if v.iter().any(|x| x.is_infinite()) || n as f64 - ddof <= 0.0 {
            return f64::NAN;
        }
        let m = sum() / n as f64;
        v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n as f64 - ddof)
    };
    // distance back from the window's end of the newest extreme value
    let arg = |better: fn(f64, f64) -> bool| {
        let mut best: Option<(usize, f64)> = None;
        for (j, &x) in w.iter().enumerate().rev() {
            if x.is_nan() {
                continue;
            }
            if best.is_none_or(|(_, b)| better(x, b)) {
                best = Some((w.len() - 1 - j, x));
            }
        }
        best.map_or(f64::NAN, |(d, _)| d as f64)
    };
    match stat {
        "sum" => sum(),
        "mean" => sum() / n as f64,
        "count" => n as f64,
        "min" => v.iter().copied().fold(f64::INFINITY, f64::min),
        "max" => v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        "argmin" => arg(|x, b| x < b),
        "argmax" => arg(|x, b| x > b),
        "var" => var(0.0),
        "std1" => var(1.0).sqrt(),
        _ => unreachable!(),
    }
}

/// The reference result of `stat` along `axis` of `a`.
fn reference_moving(
    a: &ArrayD<f64>,
    axis: usize,
    window: usize,
    min: usize,
    stat: &str,
) -> ArrayD<f64> {
    let mut out = a.clone();
    for (lane, mut o) in a
        .lanes(Axis(axis))
        .into_iter()
        .zip(out.lanes_mut(Axis(axis)))
    {
        let xs: Vec<f64> = lane.iter().copied().collect();
        for i in 0..xs.len() {
            o[i] = of_window(stat, &xs[(i + 1).saturating_sub(window)..=i], min);
        }
    }
    out
}

/// `stat` computed by nanops.
fn computed(
    v: &ndarray::ArrayViewD<'_, f64>,
    window: usize,
    min: Option<usize>,
    axis: isize,
    stat: &str,
) -> ArrayD<f64> {
    match stat {
        "sum" => nanops::move_sum(v, window, min, axis),
        "mean" => nanops::move_mean(v, window, min, axis),
        "count" => nanops::move_count(v, window, min, axis),
        "min" => nanops::move_min(v, window, min, axis),
        "max" => nanops::move_max(v, window, min, axis),
        "argmin" => nanops::move_argmin(v, window, min, axis),
        "argmax" => nanops::move_argmax(v, window, min, axis),
        "var" => nanops::move_var(v, window, min, 0.0, axis),
        "std1" => nanops::move_std(v, window, min, 1.0, axis),
        "median" => nanops::move_median(v, window, min, axis),
        "rank" => nanops::move_rank(v, window, min, axis),
        _ => {
            let (method, q) = quantile_stat(stat).expect("a quantile statistic");
            nanops::move_quantile(v, window, min, q, method, axis)
        }
    }
    .unwrap()
}

/// Small integers, NaN and infinities.
fn value_inf() -> impl Strategy<Value = f64> {
    prop_oneof![
        8 => (-20i32..20).prop_map(|x| x as f64),
        2 => Just(f64::NAN),
        1 => Just(f64::INFINITY),
        1 => Just(f64::NEG_INFINITY),
    ]
}

/// An array of 1 to 3 dimensions (lengths 1..7), an axis, a window and a `min_count`.
fn case() -> impl Strategy<Value = (ArrayD<f64>, usize, usize, Option<usize>)> {
    prop::collection::vec(1usize..7, 1..=3)
        .prop_flat_map(|shape| {
            let n: usize = shape.iter().product();
            let nd = shape.len();
            (prop::collection::vec(value_inf(), n), Just(shape), 0..nd)
        })
        .prop_flat_map(|(v, shape, axis)| {
            let len = shape[axis];
            let a = ArrayD::from_shape_vec(IxDyn(&shape), v).unwrap();
            (Just(a), Just(axis), 1..=len)
        })
        .prop_flat_map(|(a, axis, window)| {
            (
                Just(a),
                Just(axis),
                Just(window),
                prop::option::of(1..=window),
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_statistic_every_layout_matches_the_reference((a, axis, window, min) in case()) {
        let m = min.unwrap_or(window);
        for stat in STATS {
            let want = reference_moving(&a, axis, window, m, stat);
            for (name, buf, layout) in layouts(&a) {
                let v = view(&buf, layout);
                let got = computed(&v, window, min, axis as isize, stat);
                prop_assert!(same(&got, &want), "{} {} axis {} window {} min {:?}:\n{:?}\nwant\n{:?}", stat, name, axis, window, min, got, want);
                let neg = computed(&v, window, min, axis as isize - a.ndim() as isize, stat);
                prop_assert!(same(&neg, &want), "{} {} negative axis", stat, name);
            }
        }
    }

    #[test]
    fn fills_match_the_reference((a, axis, _w, min) in case(), backward in any::<bool>()) {
        let limit = min.map(|m| m - 1);
        let mut want = a.clone();
        for mut lane in want.lanes_mut(Axis(axis)) {
            let n = lane.len();
            let order: Vec<usize> = if backward { (0..n).rev().collect() } else { (0..n).collect() };
            let mut last: Option<(usize, f64)> = None;
            for (k, &i) in order.iter().enumerate() {
                if !lane[i].is_nan() {
                    last = Some((k, lane[i]));
                } else if let Some((j, x)) = last
                    && limit.is_none_or(|l| k - j <= l) {
                        lane[i] = x;
                    }
            }
        }
        for (name, buf, layout) in layouts(&a) {
            let v = view(&buf, layout);
            let got = if backward {
                nanops::bfill(&v, limit, axis as isize)
            } else {
                nanops::ffill(&v, limit, axis as isize)
            }
            .unwrap();
            prop_assert!(same(&got, &want), "{} backward {} limit {:?}", name, backward, limit);
        }
    }
}

proptest! {
    // 16 statistics a case, each against the reference bit for bit
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn order_statistics_every_layout_match_the_reference_bit_for_bit((a, axis, window, min) in case()) {
        let m = min.unwrap_or(window);
        for stat in ORDERED {
            let want = reference_moving(&a, axis, window, m, stat);
            for (name, buf, layout) in layouts(&a) {
                let v = view(&buf, layout);
                let got = computed(&v, window, min, axis as isize, stat);
                prop_assert!(same_bits(&got, &want), "{} {} axis {} window {} min {:?}:\n{:?}\nwant\n{:?}", stat, name, axis, window, min, got, want);
            }
        }
    }
}

/// Axis 0 of a wide C array (tiles of the rows strategy, several tasks over
/// threads) and long lanes crossing many blocks of the window.
#[test]
fn wide_and_long_arrays_match_the_reference() {
    let mut next = uniform(7);
    for (shape, axis, window) in [
        (vec![300usize, 1000], 0usize, 7usize),
        (vec![3000, 40], 1, 40),
        (vec![3, 3000], 1, 300),
        (vec![2, 3, 2100], 2, 1),
        (vec![2100, 2, 3], 0, 2100),
    ] {
        let n: usize = shape.iter().product();
        let v: Vec<f64> = (0..n)
            .map(|_| {
                let u = next();
                if u < 0.1 {
                    f64::NAN
                } else {
                    (u * 200.0).floor() - 100.0
                }
            })
            .collect();
        let a = ArrayD::from_shape_vec(IxDyn(&shape), v).unwrap();
        // the order statistics' reference sorts every window: not the longest
        let ordered = if window <= 300 {
            &ORDERED_LONG[..]
        } else {
            &[]
        };
        for stat in STATS.into_iter().chain(ordered.iter().copied()) {
            let min = Some(window.div_ceil(2));
            let want = reference_moving(&a, axis, window, window.div_ceil(2), stat);
            let got = computed(&a.view(), window, min, axis as isize, stat);
            assert!(
                same(&got, &want),
                "{stat} {shape:?} axis {axis} window {window}"
            );
            let f = a.t().as_standard_layout().into_owned();
            let ft = f.t();
            let got = computed(&ft, window, min, axis as isize, stat);
            assert!(
                same(&got, &want),
                "{stat} {shape:?} fortran axis {axis} window {window}"
            );
        }
    }
}

#[test]
fn other_dtypes_compute_in_f64_and_round_once() {
    let ints = ndarray::array![1i32, 2, 3, 4].into_dyn();
    assert_eq!(
        nanops::move_mean(&ints, 2, None, -1)
            .unwrap()
            .mapv(|x| x.is_nan()),
        ndarray::array![true, false, false, false].into_dyn()
    );
    assert_eq!(
        nanops::move_sum(&ints, 2, Some(1), 0).unwrap(),
        ndarray::array![1.0, 3.0, 5.0, 7.0].into_dyn()
    );
    let b = ndarray::array![true, false, true].into_dyn();
    assert_eq!(
        nanops::move_sum(&b, 3, Some(1), 0).unwrap(),
        ndarray::array![1.0, 1.0, 2.0].into_dyn()
    );
    let f = ndarray::array![1.0f32, f32::NAN, 3.0].into_dyn();
    let m: ArrayD<f32> = nanops::move_mean(&f, 2, Some(1), 0).unwrap();
    assert_eq!(m, ndarray::array![1.0f32, 1.0, 3.0].into_dyn());
    let h = ndarray::array![half::f16::from_f32(1.0), half::f16::from_f32(2.0)].into_dyn();
    assert_eq!(
        nanops::move_max(&h, 2, Some(1), 0).unwrap()[1],
        half::f16::from_f32(2.0)
    );
    // fills keep the type; integers have no NaN to fill
    assert_eq!(nanops::ffill(&ints, None, 0).unwrap(), ints);
}

#[test]
fn bad_windows_are_typed_errors() {
    let a = ndarray::Array2::<f64>::zeros((3, 4));
    assert_eq!(
        nanops::move_mean(&a, 5, None, -1),
        Err(nanops::Error::InvalidWindow { window: 5, len: 4 })
    );
    assert_eq!(
        nanops::move_mean(&a, 0, None, 0),
        Err(nanops::Error::InvalidWindow { window: 0, len: 3 })
    );
    assert_eq!(
        nanops::move_sum(&a, 2, Some(3), 0),
        Err(nanops::Error::InvalidMinCount {
            min_count: 3,
            window: 2
        })
    );
    assert!(matches!(
        nanops::move_sum(&a, 2, Some(0), 0),
        Err(nanops::Error::InvalidMinCount { .. })
    ));
    assert!(matches!(
        nanops::move_max(&a, 2, None, 2),
        Err(nanops::Error::AxisOutOfBounds { .. })
    ));
    let scalar = ndarray::arr0(1.0).into_dyn();
    assert!(nanops::move_max(&scalar, 1, None, -1).is_err());
    assert!(nanops::ffill(&scalar, None, 0).is_err());
}

/// An infinity leaving the window leaves no NaN behind (a naive running
/// sum gives inf − inf), and large values leave no residue.
#[test]
fn sums_forget_exactly() {
    let a = ndarray::array![f64::INFINITY, 1.0, 1.0, 1e300, -1e300, 1.0, 2.0].into_dyn();
    let s = nanops::move_sum(&a, 2, None, 0).unwrap();
    assert_eq!(s[2], 2.0);
    assert_eq!(s[6], 3.0);
    let big = ndarray::array![1e16, 1.0, -1e16, 1.0, 1.0].into_dyn();
    let s = nanops::move_sum(&big, 2, None, 0).unwrap();
    assert_eq!(
        s.iter().skip(1).copied().collect::<Vec<f64>>(),
        [1e16 + 1.0, 1.0 - 1e16, -1e16 + 1.0, 2.0]
    );
}

/// After a value far larger than the rest leaves the window, every later
/// window is computed from its own values (issue Q): no digits of the small
/// values are lost with the large one, and a finite value whose square or
/// sum overflows leaves no NaN behind.
#[test]
fn outliers_and_overflows_leave_no_trace() {
    let a = ndarray::array![1e8, 0.1, 0.2, 0.3].into_dyn();
    let s: ArrayD<f64> = nanops::move_std(&a, 3, None, 0.0, 0).unwrap();
    // the population standard deviation of [0.1, 0.2, 0.3], two-pass
    let m = (0.1 + 0.2 + 0.3) / 3.0;
    let want = (((0.1f64 - m).powi(2) + (0.2f64 - m).powi(2) + (0.3f64 - m).powi(2)) / 3.0).sqrt();
    assert!(
        (s[3] - want).abs() <= 4.0 * f64::EPSILON * want,
        "{} {want}",
        s[3]
    );

    let a = ndarray::array![1e155, 1.0, 2.0, 3.0].into_dyn();
    let v: ArrayD<f64> = nanops::move_var(&a, 2, None, 0.0, 0).unwrap();
    assert!(v[0].is_nan());
    assert_eq!(
        v.iter().skip(1).copied().collect::<Vec<f64>>(),
        [f64::INFINITY, 0.25, 0.25]
    );

    let a = ndarray::array![1.7e308, 1.7e308, 1.0, 2.0, 3.0].into_dyn();
    let s: ArrayD<f64> = nanops::move_sum(&a, 2, None, 0).unwrap();
    assert!(s[0].is_nan());
    assert_eq!(
        s.iter().skip(1).copied().collect::<Vec<f64>>(),
        [f64::INFINITY, 1.7e308, 3.0, 5.0]
    );
    let m: ArrayD<f64> = nanops::move_mean(&a, 2, None, 0).unwrap();
    assert_eq!(m[1], 1.7e308);

    // side by side (axis 0 of a C array) a lane that overflows gives the
    // bits it gives alone, and leaves its neighbours' alone
    let mut g = ArrayD::<f64>::zeros(IxDyn(&[40, 24]));
    for ((i, j), x) in g.indexed_iter_mut().map(|(ix, x)| ((ix[0], ix[1]), x)) {
        *x = if j == 5 && i % 7 < 3 {
            1.7e308
        } else {
            (i * 31 + j * 7) as f64 % 11.0 - 5.0
        };
    }
    for w in [3, 8] {
        for stat in ["sum", "mean", "var", "std1"] {
            let rows = computed(&g.view(), w, Some(1), 0, stat);
            let t = g.t().as_standard_layout().into_owned();
            let lanes = computed(&t.view(), w, Some(1), 1, stat);
            assert!(same_bits(&rows, &lanes.t().to_owned()), "{stat} window {w}");
        }
    }

    // a lone outlier in small integers: every window after it exact
    let mut v: Vec<f64> = (0..5000).map(|i| ((i * 7919) % 13) as f64 - 6.0).collect();
    v[100] = 1e15;
    let a = ArrayD::from_shape_vec(IxDyn(&[5000]), v.clone()).unwrap();
    let s: ArrayD<f64> = nanops::move_sum(&a, 5, None, 0).unwrap();
    let var: ArrayD<f64> = nanops::move_var(&a, 5, None, 0.0, 0).unwrap();
    for i in 105..5000 {
        let w = &v[i - 4..=i];
        let sum: f64 = w.iter().sum();
        assert_eq!(s[i], sum, "{i}");
        let mean = sum / 5.0;
        let exact = w.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / 5.0;
        assert!(
            (var[i] - exact).abs() <= 1e-14 * exact.max(1.0),
            "{i} {} {exact}",
            var[i]
        );
    }
}

/// Windows of 4096 values and more keep a ranked window (a bitset over the
/// lane's sorted values): the same results, bit for bit, as every window
/// sorted (at every seventh position: the reference sorts each window).
#[test]
fn long_windows_of_order_statistics_match_the_reference() {
    let mut next = uniform(13);
    let n = 4400;
    let v: Vec<f64> = (0..n)
        .map(|_| {
            let u = next();
            if u < 0.1 {
                f64::NAN
            } else {
                ((u * 300.0).floor() - 150.0) * 0.5
            }
        })
        .collect();
    let a = ArrayD::from_shape_vec(IxDyn(&[n]), v.clone()).unwrap();
    for stat in ["median", "rank", "q:hazen:0.75"] {
        for window in [4096, 4111] {
            let got = computed(&a.view(), window, Some(1), 0, stat);
            for i in (0..n).step_by(7) {
                let want = of_window(stat, &v[(i + 1).saturating_sub(window)..=i], 1);
                assert!(
                    got[i].to_bits() == want.to_bits() || (got[i].is_nan() && want.is_nan()),
                    "{stat} window {window} position {i}: {} {want}",
                    got[i]
                );
            }
        }
    }
}

/// A long 1-d lane is cut into parts on several threads; the result has the
/// same bits as the lane in one piece (a strided view is never cut).
#[test]
fn cut_lanes_give_the_same_bits_as_whole_ones() {
    let mut next = uniform(11);
    let n = 700_000;
    let v: Vec<f64> = (0..n)
        .map(|_| {
            let u = next();
            if u < 0.1 {
                f64::NAN
            } else {
                u * 1e3 - 400.0
            }
        })
        .collect();
    let mut buf = vec![0.0; 2 * n];
    for (i, &x) in v.iter().enumerate() {
        buf[2 * i] = x;
    }
    let a = ndarray::Array1::from(v).into_dyn();
    let b = ndarray::Array1::from(buf).into_dyn();
    let strided = b.slice_each_axis(|_| ndarray::Slice::new(0, None, 2));
    for window in [5, 3000] {
        for stat in STATS.into_iter().chain(ORDERED_LONG) {
            let whole = computed(&strided, window, Some(1), 0, stat);
            let cut = computed(&a.view(), window, Some(1), 0, stat);
            let same_bits = whole
                .iter()
                .zip(cut.iter())
                .all(|(x, y)| x.to_bits() == y.to_bits());
            assert!(same_bits, "{stat} window {window}");
        }
    }
}

/// A window whose values are all equal has a variance of exactly 0, also
/// after a different value left it (Welford's backward update alone leaves
/// a rounding residue, whose square root is far from 0).
#[test]
fn constant_windows_have_zero_variance() {
    let a = ndarray::array![-9.0, -8.0, -9.0, f64::NAN, -9.0, -9.0, 0.1, 0.1, 0.1, 0.1].into_dyn();
    let s = nanops::move_std(&a, 4, Some(1), 0.0, 0).unwrap();
    assert_eq!(s[5], 0.0);
    assert_eq!(s[9], 0.0);
    assert!(s[1] > 0.0 && s[6] > 0.0);
}

/// Axis 0 of a C array runs lanes side by side (sums and means) or in
/// transposed tiles (the others): the same bits as the lanes one by one.
#[test]
fn rows_give_the_same_bits_as_lanes() {
    let mut next = uniform(13);
    let (rows, cols) = (2600, 300);
    let v: Vec<f64> = (0..rows * cols)
        .map(|_| {
            let u = next();
            if u < 0.1 {
                f64::NAN
            } else if u > 0.999 {
                f64::INFINITY
            } else {
                u * 1e6 - 3e5
            }
        })
        .collect();
    let a = ndarray::Array2::from_shape_vec((rows, cols), v)
        .unwrap()
        .into_dyn();
    let t = a.t().as_standard_layout().into_owned();
    for window in [1, 7, 600] {
        // the order statistics take the transposed tiles as every kernel
        // without a rows form: once is enough
        let ordered = if window == 7 { &ORDERED_LONG[..] } else { &[] };
        for stat in STATS.into_iter().chain(ordered.iter().copied()) {
            let by_rows = computed(&a.view(), window, Some(1), 0, stat);
            let by_lanes = computed(&t.view(), window, Some(1), 1, stat);
            let same_bits = by_rows
                .iter()
                .zip(by_lanes.t().iter())
                .all(|(x, y)| x.to_bits() == y.to_bits());
            assert!(same_bits, "{stat} window {window}");
        }
    }
}

/// Order statistics of other element types: computed in `f64` from the
/// exact values, the result in the element's float type; a bad `q` is a
/// typed error.
#[test]
fn order_statistics_of_other_dtypes_and_bad_q() {
    let ints = ndarray::array![5i64, 1, 4, 2].into_dyn();
    let m = nanops::move_median(&ints, 2, Some(1), 0).unwrap();
    assert_eq!(m, ndarray::array![5.0, 3.0, 2.5, 3.0].into_dyn());
    let f = ndarray::array![1.0f32, f32::NAN, 3.0, 2.0].into_dyn();
    let r: ArrayD<f32> = nanops::move_rank(&f, 3, Some(1), 0).unwrap();
    assert_eq!(r[3], -1.0f32); // 2 below 3 in the window [NaN, 3, 2]
    assert!(r[1].is_nan());
    let q: ArrayD<f32> =
        nanops::move_quantile(&f, 3, Some(2), 0.5, nanops::QuantileMethod::Linear, 0).unwrap();
    assert!(q[0].is_nan() && q[1].is_nan());
    assert_eq!((q[2], q[3]), (2.0f32, 2.5));
    let h = ndarray::array![half::f16::from_f32(1.0), half::f16::from_f32(2.0)].into_dyn();
    assert_eq!(
        nanops::move_median(&h, 2, Some(1), 0).unwrap()[1],
        half::f16::from_f32(1.5)
    );
    let a = ndarray::Array1::<f64>::zeros(3).into_dyn();
    for q in [-0.1, 1.5, f64::NAN] {
        assert!(matches!(
            nanops::move_quantile(&a, 2, None, q, nanops::QuantileMethod::Linear, 0),
            Err(nanops::Error::InvalidQuantile { .. })
        ));
    }
    assert!(matches!(
        nanops::move_median(&a, 4, None, 0),
        Err(nanops::Error::InvalidWindow { .. })
    ));
}
