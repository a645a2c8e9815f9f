//! `nanskew` / `nankurt` and their state, `HigherMoments`: merges equal
//! pushes, central sums equal exact integer references, every layout and
//! axis subset gives the slow reference, and offsets cost no digits.

use crate::common::*;
use half::{bf16, f16};
use nanops::states::{HigherMoments, State};
use nanops::stats::{NanKurt, NanSkew};
use nanops::Axes;
use ndarray::{array, Array1, Array2, ArrayD, IxDyn};
use num_complex::Complex64;
use proptest::prelude::*;

// --------------------------------------------------------------- references

/// Skewness of the non-NaN values of `xs` as scipy defines it, in two passes
/// over `f64` (NaN where `m2 ≤ (ε·mean)²`, `ε` of `f64`, as `nanskew`).
fn skew_ref(xs: &[f64], bias: bool) -> f64 {
    let v = valid(xs);
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let m = |k: i32| v.iter().map(|x| (x - mean).powi(k)).sum::<f64>() / n;
    let (m2, m3) = (m(2), m(3));
    if v.is_empty() || m2 <= (f64::EPSILON * mean).powi(2) {
        return f64::NAN;
    }
    let g1 = m3 / m2.powf(1.5);
    if bias || n <= 2.0 {
        g1
    } else {
        g1 * (n * (n - 1.0)).sqrt() / (n - 2.0)
    }
}

/// Kurtosis as scipy defines it (see [`skew_ref`]).
fn kurt_ref(xs: &[f64], bias: bool, fisher: bool) -> f64 {
    let v = valid(xs);
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let m = |k: i32| v.iter().map(|x| (x - mean).powi(k)).sum::<f64>() / n;
    let (m2, m4) = (m(2), m(4));
    if v.is_empty() || m2 <= (f64::EPSILON * mean).powi(2) {
        return f64::NAN;
    }
    let g2 = m4 / (m2 * m2);
    let pearson = if bias || n <= 3.0 {
        g2
    } else {
        1.0 / (n - 2.0) / (n - 3.0) * ((n * n - 1.0) * g2 - 3.0 * (n - 1.0).powi(2)) + 3.0
    };
    if fisher {
        pearson - 3.0
    } else {
        pearson
    }
}

/// Central sums of integers, exactly: `A2 = n·M2`, `A3 = n²·M3`,
/// `A4 = n³·M4` from the raw power sums in `i128` (checked: a test that
/// outgrows it fails instead of lying).
fn exact_central(ks: &[i64]) -> (i128, i128, i128, i128) {
    let n = ks.len() as i128;
    let p = |j: u32| -> i128 {
        ks.iter()
            .map(|&k| (k as i128).checked_pow(j).unwrap())
            .try_fold(0i128, |s, x| s.checked_add(x))
            .unwrap()
    };
    let (s, p2, p3, p4) = (p(1), p(2), p(3), p(4));
    let mul = |xs: &[i128]| xs.iter().try_fold(1i128, |a, &b| a.checked_mul(b)).unwrap();
    let a2 = mul(&[n, p2]) - mul(&[s, s]);
    let a3 = mul(&[n, n, p3]) - 3 * mul(&[n, s, p2]) + 2 * mul(&[s, s, s]);
    let a4 = mul(&[n, n, n, p4]) - 4 * mul(&[n, n, s, p3]) + 6 * mul(&[n, s, s, p2])
        - 3 * mul(&[s, s, s, s]);
    (n, a2, a3, a4)
}

/// `g1 = A3 / A2^1.5` and `g2 = A4 / A2²` from the exact integers, each
/// rounded to `f64` once, then divided: within two or three ulps.
fn exact_g(ks: &[i64]) -> (f64, f64) {
    let (_, a2, a3, a4) = exact_central(ks);
    let g1 = a3 as f64 / (a2 as f64).powf(1.5);
    let g2 = a4 as f64 / a2.checked_mul(a2).unwrap() as f64;
    (g1, g2)
}

fn rel(got: f64, want: f64) -> f64 {
    ((got - want) / want).abs()
}

/// A small deterministic generator (xorshift64), as `tests/accuracy.rs`.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn normal(&mut self) -> f64 {
        (0..12).map(|_| self.unit()).sum::<f64>() - 6.0
    }
    /// A skewed, heavy-tailed integer: `round(sd·(z² − 1))` (χ² with one
    /// degree of freedom: skewness 2√2, excess kurtosis 12).
    fn chi2_int(&mut self, sd: f64) -> i64 {
        let z = self.normal();
        (sd * (z * z - 1.0)).round() as i64
    }
}

// ------------------------------------------------------------- the state

fn finite_values() -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(
        prop_oneof![6 => -1e3f64..1e3, 2 => (-5i32..5).prop_map(f64::from), 1 => 1e6f64..1.001e6],
        0..300,
    )
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a.is_nan() && b.is_nan()) || (a - b).abs() <= tol * a.abs().max(b.abs()).max(1.0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Pushing every value, merging the states of any three-way split, and
    /// the two-pass `from_slice` give the same state.
    #[test]
    fn merge_equals_push(xs in finite_values(), c1 in 0usize..300, c2 in 0usize..300) {
        let (c1, c2) = (c1.min(xs.len()), c2.min(xs.len()));
        let (c1, c2) = (c1.min(c2), c1.max(c2));
        let mut pushed = HigherMoments::<f64>::default();
        xs.iter().for_each(|&x| pushed.push(x));
        let mut merged = HigherMoments::from_slice(&xs[..c1]);
        let mut tail = HigherMoments::from_slice(&xs[c1..c2]);
        tail.merge(&HigherMoments::from_slice(&xs[c2..]));
        merged.merge(&tail);
        let whole = HigherMoments::from_slice(&xs);
        for st in [&pushed, &merged] {
            prop_assert_eq!(st.count(), whole.count());
            prop_assert!(close(st.mean(), whole.mean(), 1e-12));
            // central sums: relative to the scale of the data's spread
            let s2 = whole.m2().max(1e-300);
            prop_assert!(close(st.m2(), whole.m2(), 1e-10), "{} {}", st.m2(), whole.m2());
            prop_assert!((st.m3() - whole.m3()).abs() <= 1e-9 * s2.powf(1.5) * (xs.len() as f64).sqrt().max(1.0) + 1e-9 * whole.m3().abs());
            prop_assert!(close(st.m4(), whole.m4(), 1e-9), "{} {}", st.m4(), whole.m4());
        }
    }

    /// Pébay's merge of integer data, in any split, equals the exact
    /// central sums (computed in `i128`).
    #[test]
    fn pebay_equals_exact_central_sums(ks in prop::collection::vec(-1000i64..1000, 1..400), cut in 0usize..400) {
        let cut = cut.min(ks.len());
        let xs: Vec<f64> = ks.iter().map(|&k| k as f64).collect();
        let mut st = HigherMoments::<f64>::default();
        for part in [&xs[..cut], &xs[cut..]] {
            // pushed one by one in the first part, as a block in the second
            let mut b = HigherMoments::default();
            if part.len() % 2 == 0 { part.iter().for_each(|&x| b.push(x)) } else { b = HigherMoments::from_slice(part) }
            st.merge(&b);
        }
        let (n, a2, a3, a4) = exact_central(&ks);
        let nf = n as f64;
        prop_assert!(close(st.m2(), a2 as f64 / nf, 1e-13), "m2 {} vs {}", st.m2(), a2 as f64 / nf);
        let scale3 = (a2 as f64 / nf).powf(1.5) * nf.sqrt();
        prop_assert!((st.m3() - a3 as f64 / (nf * nf)).abs() <= 1e-12 * scale3.max(1.0), "m3 {} vs {}", st.m3(), a3 as f64 / (nf * nf));
        prop_assert!(close(st.m4(), a4 as f64 / (nf * nf * nf), 1e-12), "m4 {} vs {}", st.m4(), a4 as f64 / (nf * nf * nf));
    }
}

// ------------------------------------------------ layouts, axes, reference

fn check_all(a: &ArrayD<f64>, axes: &[usize], tol: f64) -> Result<(), TestCaseError> {
    let ax = || Axes::from(axes.to_vec());
    for (name, buf, layout) in layouts(a) {
        let v = view(&buf, layout);
        for bias in [true, false] {
            let want = reference(a, axes, |g| skew_ref(g, bias));
            let got = nanops::nanskew(&v, ax(), bias).unwrap();
            prop_assert!(
                near(&got, &want, tol),
                "nanskew {} bias={}: {} vs {}",
                name,
                bias,
                got,
                want
            );
            for fisher in [true, false] {
                let want = reference(a, axes, |g| kurt_ref(g, bias, fisher));
                let got = nanops::nankurt(&v, ax(), bias, fisher).unwrap();
                prop_assert!(
                    near(&got, &want, tol),
                    "nankurt {} bias={} fisher={}: {} vs {}",
                    name,
                    bias,
                    fisher,
                    got,
                    want
                );
            }
        }
    }
    Ok(())
}

/// Equal within `tol` relative (absolute near zero), NaN exactly where NaN.
fn near(a: &ArrayD<f64>, b: &ArrayD<f64>, tol: f64) -> bool {
    a.shape() == b.shape()
        && a.iter()
            .zip(b.iter())
            .all(|(x, y)| (x.is_nan() && y.is_nan()) || (x - y).abs() <= tol * x.abs().max(1.0))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_layout_and_axis_subset_matches_the_reference((a, axes) in array_and_axes()) {
        check_all(&a, &axes, 1e-11)?;
    }
}

/// Tall, wide and many-short-lane arrays cross the block (256 values), row
/// block (64 rows), column tile, thread-chunk and short-lane boundaries
/// that small property-test arrays never reach; a drift along the reduced
/// axis makes blocks far from the running mean sum again about their own.
#[test]
fn large_arrays_match_the_reference() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let cases: Vec<(Vec<usize>, Vec<usize>, f64)> = vec![
        (vec![65, 3], vec![0], 0.0),
        (vec![129, 7], vec![0], 0.01),
        (vec![1000, 37], vec![0], 0.0),
        (vec![1000, 37], vec![1], 0.0),
        (vec![3, 70_000], vec![1], 0.0),
        (vec![70_000, 4], vec![0], 1e-4),
        (vec![70_000, 4], vec![1], 0.0),
        (vec![300, 2100], vec![0], 0.05),
        (vec![300, 2100], vec![1], 0.05),
        (vec![5000, 10], vec![1], 0.0),
        (vec![40, 50, 7], vec![0, 2], 0.0),
        (vec![2, 200_000], vec![1], 2e-5),
        (vec![200_000], vec![0], 1e-4),
    ];
    for (shape, axes, drift) in cases {
        let n: usize = shape.iter().product();
        let v: Vec<f64> = (0..n)
            .map(|i| {
                if rng.unit() < 0.1 {
                    f64::NAN
                } else {
                    rng.normal().exp() + drift * i as f64
                }
            })
            .collect();
        let a = ArrayD::from_shape_vec(IxDyn(&shape), v).unwrap();
        check_all(&a, &axes, 1e-9).unwrap_or_else(|e| panic!("{shape:?} over {axes:?}: {e}"));
    }
}

// --------------------------------------------------------------- accuracy

/// `offset + k·unit` for skewed integers `k` (χ², see [`Rng::chi2_int`]),
/// with NaN between them, and the exact `g1`, `g2` of the values.
fn offset_data(n: usize, offset: f64, unit: f64, seed: u64) -> (Array1<f64>, f64, f64) {
    let mut rng = Rng(seed);
    let ks: Vec<i64> = (0..n).map(|_| rng.chi2_int(256.0)).collect();
    let mut xs = Vec::with_capacity(n + n / 8);
    for &k in &ks {
        while rng.unit() < 0.1 {
            xs.push(f64::NAN);
        }
        let x = offset + k as f64 * unit;
        assert_eq!(x - offset, k as f64 * unit, "the data are exact");
        xs.push(x);
    }
    let (g1, g2) = exact_g(&ks);
    (Array1::from(xs), g1, g2)
}

#[test]
fn float64_skewness_and_kurtosis_at_large_and_tiny_offsets_are_exact_to_a_few_ulps() {
    // 1e8 + k·2^-20: the spread is 1e-12 of the offset; 2^-27 + k·2^-60 (near
    // 7e-9): values near 1e-8 spread over 1e-8 of themselves
    let mut worst = (0.0f64, 0.0f64);
    for (offset, unit) in [
        (1e8, 2f64.powi(-20)),
        (2f64.powi(-27), 2f64.powi(-60)),
        (0.0, 1.0),
    ] {
        for (n, seed) in [(5, 1), (300, 2), (1000, 3), (20_000, 4), (40_000, 5)] {
            let (a, g1, g2) = offset_data(n, offset, unit, seed);
            let skew = nanops::nanskew(&a, Axes::All, true).unwrap()[[]];
            let kurt = nanops::nankurt(&a, Axes::All, true, false).unwrap()[[]];
            let excess = nanops::nankurt(&a, Axes::All, true, true).unwrap()[[]];
            let (e1, e2) = (rel(skew, g1), rel(kurt, g2));
            worst = (worst.0.max(e1), worst.1.max(e2));
            // ε = 2.2e-16; the reference g1 itself is good to about 2ε
            assert!(
                e1 <= 8.0 * f64::EPSILON,
                "offset {offset:e} n={n}: skew {skew} vs {g1} ({e1:e})"
            );
            assert!(
                e2 <= 8.0 * f64::EPSILON,
                "offset {offset:e} n={n}: kurt {kurt} vs {g2} ({e2:e})"
            );
            assert!(
                (excess - (g2 - 3.0)).abs() <= 8.0 * f64::EPSILON * g2,
                "excess {excess}"
            );
            // the same values along axis 0 of a column (the rows kernel)
            let col = a.clone().into_shape_with_order((a.len(), 1)).unwrap();
            let skew0 = nanops::nanskew(&col, 0, true).unwrap()[[0]];
            assert!(
                rel(skew0, g1) <= 8.0 * f64::EPSILON,
                "column: {skew0} vs {g1}"
            );
        }
    }
    eprintln!(
        "worst relative errors: skew {:e}, kurtosis {:e}",
        worst.0, worst.1
    );
}

#[test]
fn float64_accuracy_survives_drift_along_the_axis() {
    // a quadratic trend: each block's mean runs away from the running mean
    // (blocks are summed again about their own), and the whole is skewed
    let mut rng = Rng(77);
    let ks: Vec<i64> = (0..10_000i64)
        .map(|i| rng.chi2_int(256.0) + i * i / 2000)
        .collect();
    let a = Array1::from_iter(ks.iter().map(|&k| 1e8 + k as f64 * 2f64.powi(-20)));
    let (g1, g2) = exact_g(&ks);
    assert!(g1 > 0.3, "a skewed whole: {g1}");
    let skew = nanops::nanskew(&a, 0, true).unwrap()[[]];
    let kurt = nanops::nankurt(&a, 0, true, false).unwrap()[[]];
    assert!(rel(skew, g1) <= 8.0 * f64::EPSILON, "{skew} vs {g1}");
    assert!(rel(kurt, g2) <= 8.0 * f64::EPSILON, "{kurt} vs {g2}");
}

#[test]
fn float32_results_are_within_an_ulp_of_the_exact_values() {
    // 1e4 + k·2^-10 in f32 (ulp of 1e4 is 2^-10), computed in f64
    for (n, seed) in [(10, 7), (1000, 8), (30_000, 9)] {
        let (a, g1, g2) = offset_data(n, 1e4, 2f64.powi(-10), seed);
        let a32 = a.mapv(|x| x as f32);
        assert!(a32
            .iter()
            .zip(&a)
            .all(|(&x, &y)| x as f64 == y || y.is_nan()));
        let skew = nanops::nanskew(&a32, 0, true).unwrap()[[]];
        let kurt = nanops::nankurt(&a32, 0, true, false).unwrap()[[]];
        assert!(
            rel(skew as f64, g1) <= f32::EPSILON as f64,
            "{skew} vs {g1}"
        );
        assert!(
            rel(kurt as f64, g2) <= f32::EPSILON as f64,
            "{kurt} vs {g2}"
        );
    }
}

// ---------------------------------------------- result types, NaN rules

#[test]
fn result_types_follow_nanvar() {
    let f: ArrayD<f64> = nanops::nanskew(&array![1_i32, 2, 5], 0, true).unwrap();
    let want = skew_ref(&[1.0, 2.0, 5.0], true);
    assert!((f[[]] - want).abs() < 1e-15);
    let u: ArrayD<f64> = nanops::nankurt(&array![1_u8, 2, 5, 9], 0, false, true).unwrap();
    assert!((u[[]] - kurt_ref(&[1.0, 2.0, 5.0, 9.0], false, true)).abs() < 1e-14);
    let b: ArrayD<f64> = nanops::nanskew(&array![true, false, false], 0, true).unwrap();
    assert!((b[[]] - 0.7071067811865478).abs() < 1e-15);
    let s: ArrayD<f32> = nanops::nanskew(&array![1.0f32, 2.0, 5.0, f32::NAN], 0, true).unwrap();
    assert_eq!(s[[]], want as f32);
    let h: ArrayD<f16> = nanops::nanskew(
        &array![f16::from_f32(1.0), f16::from_f32(2.0), f16::from_f32(5.0)],
        0,
        true,
    )
    .unwrap();
    assert_eq!(h[[]], f16::from_f64(want)); // scipy's own float16 arithmetic gives 0.5293
    let g: ArrayD<bf16> = nanops::nankurt(
        &array![
            bf16::from_f32(1.0),
            bf16::from_f32(2.0),
            bf16::from_f32(5.0)
        ],
        0,
        true,
        true,
    )
    .unwrap();
    assert_eq!(
        g[[]],
        bf16::from_f64(kurt_ref(&[1.0, 2.0, 5.0], true, true))
    );
}

#[test]
fn nan_where_scipy_gives_nan_and_degenerate_below_two_values() {
    let a = array![
        [f64::NAN, f64::NAN, f64::NAN],
        [4.0, f64::NAN, f64::NAN],
        [3.0, 3.0, f64::NAN],
        [1.0, 1.0 + f64::EPSILON, 1.0],
        [1.0, 1.0 + 4096.0 * f64::EPSILON, 1.0],
        [1.0, f64::INFINITY, 2.0],
        [1.0, 2.0, f64::NAN]
    ];
    let r = nanops::report(&a, 1, NanSkew { bias: false }).unwrap();
    assert_eq!(r.degenerate, 2); // the empty and the one-value slices
    let v = r.values;
    assert!(v[0].is_nan() && v[1].is_nan() && v[2].is_nan());
    assert!(v[3].is_nan(), "spread within ε of the mean: scipy's NaN");
    // g1 = 1/√2 for two equal values and one apart; G1 = g1·√(3·2)/1
    assert!((v[4] - 3f64.sqrt()).abs() < 1e-9, "{}", v[4]);
    assert!(v[5].is_nan(), "an infinite value");
    assert_eq!(v[6], 0.0, "two values: g1 (scipy keeps it with bias=False)");
    let k = nanops::report(
        &a,
        1,
        NanKurt {
            bias: false,
            fisher: true,
        },
    )
    .unwrap();
    assert_eq!(k.degenerate, 2);
    assert_eq!(k.values[6], -2.0);
    // float32: scipy's rule at float32's epsilon (it computes in float32)
    let near = array![1.0f32, 1.0 + f32::EPSILON, 1.0];
    assert!(nanops::nanskew(&near, 0, true).unwrap()[[]].is_nan());
    let apart = array![1.0f32, 1.0 + 64.0 * f32::EPSILON, 1.0];
    assert!(!nanops::nanskew(&apart, 0, true).unwrap()[[]].is_nan());
}

#[test]
fn complex_input_through_report_is_nan_and_degenerate() {
    // the free functions take real types only; `report` gives NaN
    let z = array![
        Complex64::new(1.0, 1.0),
        Complex64::new(2.0, 0.0),
        Complex64::new(5.0, 0.0)
    ];
    let r = nanops::report(&z, 0, NanSkew { bias: true }).unwrap();
    assert!(r.values[[]].is_nan());
    assert_eq!(r.degenerate, 1);
}

#[test]
fn empty_and_zero_size_inputs() {
    let e = Array2::<f64>::zeros((0, 3));
    let r = nanops::report(
        &e,
        0,
        NanKurt {
            bias: true,
            fisher: true,
        },
    )
    .unwrap();
    assert_eq!(r.values.shape(), &[3]);
    assert!(r.values.iter().all(|x| x.is_nan()));
    assert_eq!(r.degenerate, 3);
    assert_eq!(nanops::nanskew(&e, 1, true).unwrap().shape(), &[0]);
    let z = ArrayD::<f64>::from_elem(IxDyn(&[]), 2.0);
    assert!(nanops::nanskew(&z, Axes::All, true).unwrap()[[]].is_nan());
}
