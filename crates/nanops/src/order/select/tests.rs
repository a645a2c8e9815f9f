//! Kernels against the brute-force references (`reference.rs`): random lanes with ties,
//! `±inf`, huge values; random and "exact tie" probabilities; every method and precision.

use half::f16;
use proptest::prelude::*;

use super::kernel::select_ranks;
use super::reference;
use super::*;

/// Same bits, or both NaN.
fn same<R: SelectFloat>(a: R, b: R) -> bool {
    let (a, b) = (a.to_f64_exact(), b.to_f64_exact());
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// A small deterministic generator (xorshift64*), for the large-lane tests.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn value() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => (-6i32..6).prop_map(|i| f64::from(i) * 0.5),
        4 => -1e3f64..1e3,
        1 => prop::sample::select(vec![
            f64::INFINITY,
            f64::NEG_INFINITY,
            1.7e308,
            -1.7e308,
            1e-310,
            0.1,
            1.0 / 3.0,
        ]),
    ]
}

fn probability() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => 0.0f64..=1.0,
        1 => prop::sample::select(vec![0.0, 1.0, 0.5, 0.25, 0.75, 0.3, 0.28, 1e-12, 0.999_999]),
        3 => (0u32..=24, 1u32..=24)
            .prop_filter("q <= 1", |(a, b)| a <= b)
            .prop_map(|(a, b)| f64::from(a) / f64::from(b)),
    ]
}

/// Runs the kernel on a copy of `values` and checks every output against the reference.
fn check_lane<T, R>(values: &[T], qs: &[f64], q_dtype: QDtype, scratch: &mut QuantileScratch)
where
    T: SelectFloat,
    R: SelectFloat + From<T>,
{
    let integer = q_dtype == QDtype::Integer;
    for method in QuantileMethod::ALL {
        let mut buffer = values.to_vec();
        let mut out = vec![R::from_f64_nearest(-7.0); qs.len()];
        quantiles_in_place_with(&mut buffer, qs, method, q_dtype, scratch, &mut out);
        for (&q, &got) in qs.iter().zip(&out) {
            let want: R = reference::quantile(values, q, method, integer);
            assert!(
                same(got, want),
                "{method} q={q} n={}: got {got:?}, want {want:?}, values {values:?}",
                values.len()
            );
        }
        // The buffer is a permutation of the input.
        let (mut a, mut b) = (reference::sorted(values), reference::sorted(&buffer));
        a.iter_mut()
            .chain(b.iter_mut())
            .for_each(|x| *x = *x + T::from_f64_nearest(0.0));
        assert!(a.iter().zip(&b).all(|(x, y)| same(*x, *y)));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn quantiles_match_reference_f64(
        values in prop::collection::vec(value(), 0..40),
        qs in prop::collection::vec(probability(), 1..8),
    ) {
        let mut scratch = QuantileScratch::new();
        check_lane::<f64, f64>(&values, &qs, QDtype::Float64, &mut scratch);
    }

    #[test]
    fn quantiles_match_reference_f32(
        values in prop::collection::vec(value(), 0..40),
        qs in prop::collection::vec(probability(), 1..8),
    ) {
        let values: Vec<f32> = values.iter().map(|&v| f32::from_f64_nearest(v)).collect();
        let mut scratch = QuantileScratch::new();
        check_lane::<f32, f32>(&values, &qs, QDtype::Float64, &mut scratch);
        check_lane::<f32, f64>(&values, &qs, QDtype::Float64, &mut scratch);
    }

    #[test]
    fn quantiles_match_reference_f16(
        values in prop::collection::vec(value(), 0..40),
        qs in prop::collection::vec(probability(), 1..8),
    ) {
        let values: Vec<f16> = values.iter().map(|&v| f16::from_f64_nearest(v)).collect();
        let mut scratch = QuantileScratch::new();
        check_lane::<f16, f16>(&values, &qs, QDtype::Float64, &mut scratch);
        check_lane::<f16, f64>(&values, &qs, QDtype::Float64, &mut scratch);
    }

    #[test]
    fn integer_q_matches_reference(values in prop::collection::vec(value(), 0..20)) {
        let mut scratch = QuantileScratch::new();
        check_lane::<f64, f64>(&values, &[1.0, 0.0, 1.0], QDtype::Integer, &mut scratch);
        let values: Vec<f32> = values.iter().map(|&v| f32::from_f64_nearest(v)).collect();
        check_lane::<f32, f32>(&values, &[0.0, 1.0], QDtype::Integer, &mut scratch);
    }

    #[test]
    fn median_matches_reference(values in prop::collection::vec(value(), 0..40)) {
        let mut buffer = values.clone();
        prop_assert!(same(median_in_place(&mut buffer), reference::median(&values)));
        let v32: Vec<f32> = values.iter().map(|&v| f32::from_f64_nearest(v)).collect();
        let mut buffer = v32.clone();
        prop_assert!(same(median_in_place(&mut buffer), reference::median(&v32)));
        let v16: Vec<f16> = values.iter().map(|&v| f16::from_f64_nearest(v)).collect();
        let mut buffer = v16.clone();
        prop_assert!(same(median_in_place(&mut buffer), reference::median(&v16)));
    }

    #[test]
    fn scratch_median_matches_reference(values in prop::collection::vec(value(), 0..600)) {
        // lanes up to and past `MAX_APART` (512): up to it,
        // `median_of_scratch` selects without the in-place partition
        let mut buffer = values.clone();
        prop_assert!(same(median_of_scratch(&mut buffer), reference::median(&values)));
        let v32: Vec<f32> = values.iter().map(|&v| f32::from_f64_nearest(v)).collect();
        let mut buffer = v32.clone();
        prop_assert!(same(median_of_scratch(&mut buffer), reference::median(&v32)));
    }

    #[test]
    fn weighted_match_repeated_sample(
        entries in prop::collection::vec((value(), 0u8..=4), 0..25),
        qs in prop::collection::vec(probability(), 1..6),
    ) {
        let values: Vec<f64> = entries.iter().map(|e| e.0).collect();
        let weights: Vec<f64> = entries.iter().map(|e| f64::from(e.1)).collect();
        let repeated = reference::repeat_by_weight(&values, &weights);
        let mut scratch = QuantileScratch::new();
        let mut out = vec![0.0; qs.len()];
        for method in [QuantileMethod::InvertedCdf, QuantileMethod::AveragedInvertedCdf] {
            let result = weighted_quantiles(&values, &weights, &qs, method, &mut scratch, &mut out);
            if values.is_empty() {
                prop_assert!(result.is_ok() && out.iter().all(|x| x.is_nan()));
                continue;
            }
            if repeated.is_empty() {
                prop_assert_eq!(result, Err(WeightedQuantileError::InvalidTotalWeight));
                continue;
            }
            prop_assert!(result.is_ok());
            for (&q, &got) in qs.iter().zip(&out) {
                if method == QuantileMethod::InvertedCdf {
                    // NumPy's own weighted rule (normalised CDF) ...
                    let numpy = reference::weighted_inverted_cdf(&values, &weights, q);
                    prop_assert!(same(got, numpy), "q={} got {} want {}", q, got, numpy);
                    // ... equals the repeated sample except where c/W rounds onto q.
                    let total: f64 = weights.iter().sum();
                    if (0..=total as u32).all(|c| f64::from(c) / total != q || f64::from(c) == total * q) {
                        let unweighted: f64 = reference::quantile(&repeated, q, method, false);
                        prop_assert!(same(got, unweighted));
                    }
                } else if repeated.iter().all(|v| v.is_finite()) {
                    let unweighted: f64 = reference::quantile(&repeated, q, method, false);
                    prop_assert!(same(got, unweighted), "q={} got {} want {}", q, got, unweighted);
                }
            }
        }
    }

    #[test]
    fn weighted_inverted_cdf_matches_numpy_rule(
        entries in prop::collection::vec((value(), prop_oneof![Just(0.0), 0.0f64..3.0]), 1..30),
        qs in prop::collection::vec(probability(), 1..6),
    ) {
        let values: Vec<f64> = entries.iter().map(|e| e.0).collect();
        let weights: Vec<f64> = entries.iter().map(|e| e.1).collect();
        let mut scratch = QuantileScratch::new();
        let mut out = vec![0.0; qs.len()];
        let result = weighted_quantiles(&values, &weights, &qs, QuantileMethod::InvertedCdf,
                                        &mut scratch, &mut out);
        if weights.iter().all(|&w| w == 0.0) {
            prop_assert_eq!(result, Err(WeightedQuantileError::InvalidTotalWeight));
        } else {
            prop_assert!(result.is_ok());
            for (&q, &got) in qs.iter().zip(&out) {
                let want = reference::weighted_inverted_cdf(&values, &weights, q);
                prop_assert!(same(got, want));
            }
        }
    }

    #[test]
    fn select_ranks_places_order_statistics(
        values in prop::collection::vec(-50i32..50, 0..300),
        ranks in prop::collection::btree_set(0usize..300, 0..20),
    ) {
        let values: Vec<f64> = values.into_iter().map(f64::from).collect();
        let ranks: Vec<usize> = ranks.into_iter().filter(|&r| r < values.len()).collect();
        let mut buffer = values.clone();
        select_ranks(&mut buffer, 0, &ranks);
        let sorted = reference::sorted(&values);
        for &r in &ranks {
            prop_assert_eq!(buffer[r], sorted[r]);
            prop_assert!(buffer[..r].iter().all(|&x| x <= buffer[r]));
            prop_assert!(buffer[r + 1..].iter().all(|&x| x >= buffer[r]));
        }
    }
}

#[test]
fn large_lanes_many_quantiles() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut scratch = QuantileScratch::new();
    for &n in &[25usize, 100, 1000, 5000] {
        for round in 0..4 {
            let values: Vec<f64> = (0..n)
                .map(|_| match round {
                    0 => rng.unit() * 100.0 - 50.0,
                    1 => rng.below(7) as f64,
                    2 => (rng.unit() - 0.5) * 1e300,
                    _ => {
                        if rng.below(10) == 0 {
                            f64::INFINITY
                        } else {
                            rng.unit()
                        }
                    }
                })
                .collect();
            let k = [1, 2, 3, 10, 50][round + (n % 2)];
            let mut qs: Vec<f64> = (0..k).map(|_| rng.unit()).collect();
            qs.extend([0.5, 0.0, 1.0, 0.5, 1.0 / 3.0]);
            check_lane::<f64, f64>(&values, &qs, QDtype::Float64, &mut scratch);
            let mut buffer = values.clone();
            assert!(same(
                median_in_place(&mut buffer),
                reference::median(&values)
            ));
        }
    }
}

#[test]
fn empty_lane_and_bad_q_give_nan() {
    let mut scratch = QuantileScratch::new();
    let mut out = [0.0f32; 3];
    quantiles_in_place::<f32>(
        &mut [],
        &[0.0, 0.5, 1.0],
        QuantileMethod::Linear,
        &mut scratch,
        &mut out,
    );
    assert!(out.iter().all(|x| x.is_nan()));
    let mut values = [1.0f32, 2.0];
    for method in QuantileMethod::ALL {
        quantiles_in_place(
            &mut values,
            &[f64::NAN, -0.5, 1.5],
            method,
            &mut scratch,
            &mut out,
        );
        assert!(out[0].is_nan());
        assert!(out[1] == 1.0 || out[1].is_nan(), "{method} {:?}", out);
        assert!(out[2] == 2.0 || out[2].is_nan(), "{method} {:?}", out);
    }
}

#[test]
fn shorter_out_and_unsorted_duplicate_qs() {
    let mut scratch = QuantileScratch::new();
    let mut values = [5.0, 1.0, 4.0, 2.0, 3.0];
    let mut out = [0.0; 2];
    quantiles_in_place(
        &mut values,
        &[1.0, 0.0, 0.5],
        QuantileMethod::Linear,
        &mut scratch,
        &mut out,
    );
    assert_eq!(out, [5.0, 1.0]);
    let mut out = [0.0; 4];
    quantiles_in_place(
        &mut values,
        &[0.5, 0.25, 0.5, 0.25],
        QuantileMethod::Linear,
        &mut scratch,
        &mut out,
    );
    assert_eq!(out, [3.0, 2.0, 3.0, 2.0]);
    let mut out = [0.0; 5];
    quantiles_in_place(
        &mut values,
        &[0.5],
        QuantileMethod::Linear,
        &mut scratch,
        &mut out,
    );
    assert_eq!(out, [3.0, 0.0, 0.0, 0.0, 0.0]);
}

#[test]
fn nan_values_do_not_panic() {
    // Against the contract, but must stay panic-free: every result is NaN.
    let mut scratch = QuantileScratch::new();
    let mut rng = Rng(7);
    for n in [1usize, 2, 30, 200] {
        let values: Vec<f64> = (0..n)
            .map(|_| {
                if rng.below(3) == 0 {
                    f64::NAN
                } else {
                    rng.unit()
                }
            })
            .collect();
        let qs: Vec<f64> = (0..40).map(|i| f64::from(i) / 39.0).collect();
        let mut out = vec![0.0; qs.len()];
        for method in QuantileMethod::ALL {
            let mut buffer = values.clone();
            quantiles_in_place(&mut buffer, &qs, method, &mut scratch, &mut out);
        }
        let mut buffer = values.clone();
        let _ = median_in_place(&mut buffer);
        let weights = vec![1.0; n];
        let _ = weighted_quantiles(
            &values,
            &weights,
            &qs,
            QuantileMethod::InvertedCdf,
            &mut scratch,
            &mut out,
        );
    }
}

#[test]
fn numpy_inf_behaviour() {
    // Values printed by NumPy 2.4 (see golden.py for the full tables).
    let mut scratch = QuantileScratch::new();
    let inf = f64::INFINITY;
    let run = |values: &[f64],
               q: f64,
               method: QuantileMethod,
               q_dtype: QDtype,
               scratch: &mut QuantileScratch|
     -> f64 {
        let mut buffer = values.to_vec();
        let mut out = [0.0];
        quantiles_in_place_with(&mut buffer, &[q], method, q_dtype, scratch, &mut out);
        out[0]
    };
    use QuantileMethod as M;
    assert!(run(&[1.0, inf], 0.0, M::Linear, QDtype::Float64, &mut scratch).is_nan());
    assert_eq!(
        run(&[1.0, inf], 0.3, M::Linear, QDtype::Float64, &mut scratch),
        inf
    );
    assert!(run(&[1.0, inf], 0.5, M::Linear, QDtype::Float64, &mut scratch).is_nan());
    assert!(run(&[1.0, inf], 1.0, M::Linear, QDtype::Float64, &mut scratch).is_nan());
    assert_eq!(
        run(&[1.0, inf], 1.0, M::Linear, QDtype::Integer, &mut scratch),
        inf
    );
    assert_eq!(
        run(&[1.0, inf], 0.0, M::Linear, QDtype::Integer, &mut scratch),
        1.0
    );
    assert_eq!(
        run(
            &[1.0, inf],
            0.0,
            M::AveragedInvertedCdf,
            QDtype::Float64,
            &mut scratch
        ),
        1.0
    );
    assert!(run(
        &[1.0, inf],
        0.9,
        M::AveragedInvertedCdf,
        QDtype::Float64,
        &mut scratch
    )
    .is_nan());
    assert_eq!(
        run(
            &[1.0, 2.0, inf],
            0.3,
            M::Hazen,
            QDtype::Float64,
            &mut scratch
        ),
        1.4
    );
    assert_eq!(
        run(
            &[-inf, 1.0, 2.0],
            0.3,
            M::Linear,
            QDtype::Float64,
            &mut scratch
        ),
        -inf
    );
    assert_eq!(
        run(
            &[-inf, 1.0, 2.0],
            0.3,
            M::Midpoint,
            QDtype::Float64,
            &mut scratch
        ),
        -inf
    );
    assert!(run(
        &[-inf, 1.0, 2.0],
        0.0,
        M::Midpoint,
        QDtype::Float64,
        &mut scratch
    )
    .is_nan());
    assert_eq!(
        run(
            &[inf, inf],
            0.5,
            M::InvertedCdf,
            QDtype::Float64,
            &mut scratch
        ),
        inf
    );
    assert_eq!(median_in_place(&mut [1.0, inf]), inf);
    assert!(median_in_place(&mut [-inf, inf]).is_nan());
}

#[test]
fn f16_large_lane_overflows_gamma_like_numpy() {
    // np.quantile(np.ones(70000, np.float16), 1.0) is NaN: γ = n = 70000 → f16 inf.
    let mut scratch = QuantileScratch::new();
    let mut values = vec![f16::ONE; 70_000];
    let mut out = [f16::ZERO; 2];
    quantiles_in_place(
        &mut values,
        &[1.0, 0.5],
        QuantileMethod::Linear,
        &mut scratch,
        &mut out,
    );
    assert!(out[0].is_nan());
    assert_eq!(out[1], f16::ONE);
}

#[test]
fn weighted_errors_and_edge_cases() {
    let mut scratch = QuantileScratch::new();
    let mut out = [0.0; 2];
    let values = [1.0, 2.0, 3.0];
    let qs = [0.0, 1.0];
    let err = weighted_quantiles(
        &values,
        &[1.0; 3],
        &qs,
        QuantileMethod::Linear,
        &mut scratch,
        &mut out,
    );
    assert_eq!(
        err,
        Err(WeightedQuantileError::UnsupportedMethod(
            QuantileMethod::Linear
        ))
    );
    assert!(err.unwrap_err().to_string().contains("Got: linear."));
    let err = weighted_quantiles(
        &values,
        &[1.0; 2],
        &qs,
        QuantileMethod::InvertedCdf,
        &mut scratch,
        &mut out,
    );
    assert_eq!(
        err,
        Err(WeightedQuantileError::LengthMismatch {
            values: 3,
            weights: 2
        })
    );
    let err = weighted_quantiles(
        &values,
        &[1.0, -1.0, 1.0],
        &qs,
        QuantileMethod::InvertedCdf,
        &mut scratch,
        &mut out,
    );
    assert_eq!(err, Err(WeightedQuantileError::NegativeWeight));
    for bad in [
        [0.0; 3],
        [1.0, f64::NAN, 1.0],
        [1.0, f64::INFINITY, 0.0],
        [f64::MAX; 3],
    ] {
        let err = weighted_quantiles(
            &values,
            &bad,
            &qs,
            QuantileMethod::InvertedCdf,
            &mut scratch,
            &mut out,
        );
        assert_eq!(err, Err(WeightedQuantileError::InvalidTotalWeight));
        assert_eq!(
            err.unwrap_err().to_string(),
            "Weights included NaN, inf or were all zero."
        );
    }
    // q = 0 skips leading zero weights; q = 1 skips trailing ones.
    weighted_quantiles(
        &values,
        &[0.0, 1.0, 0.0],
        &qs,
        QuantileMethod::InvertedCdf,
        &mut scratch,
        &mut out,
    )
    .unwrap();
    assert_eq!(out, [2.0, 2.0]);
    weighted_quantiles(
        &values,
        &[0.0, 1.0, 0.0],
        &qs,
        QuantileMethod::AveragedInvertedCdf,
        &mut scratch,
        &mut out,
    )
    .unwrap();
    assert_eq!(out, [2.0, 2.0]);
    // Averaged: the CDF is exactly 1/2 after 2.0 (zero weight on 3.0 is skipped).
    weighted_quantiles(
        &[1.0, 2.0, 3.0, 4.0],
        &[1.0, 1.0, 0.0, 2.0],
        &[0.5],
        QuantileMethod::AveragedInvertedCdf,
        &mut scratch,
        &mut out[..1],
    )
    .unwrap();
    assert_eq!(out[0], 3.0);
    // Empty lane: NaN, whatever the weights.
    weighted_quantiles::<f64>(
        &[],
        &[],
        &qs,
        QuantileMethod::InvertedCdf,
        &mut scratch,
        &mut out,
    )
    .unwrap();
    assert!(out.iter().all(|x| x.is_nan()));
}

#[test]
fn weighted_averaged_reduces_to_unweighted_with_unit_weights() {
    let mut rng = Rng(42);
    let mut scratch = QuantileScratch::new();
    for n in 1..60usize {
        let values: Vec<f64> = (0..n)
            .map(|_| (rng.below(20) as f64) * 0.25 - 2.0)
            .collect();
        let weights = vec![1.0; n];
        let qs: Vec<f64> = (0..=n)
            .map(|k| k as f64 / n as f64)
            .chain((0..5).map(|_| rng.unit()))
            .collect();
        let mut out = vec![0.0; qs.len()];
        weighted_quantiles(
            &values,
            &weights,
            &qs,
            QuantileMethod::AveragedInvertedCdf,
            &mut scratch,
            &mut out,
        )
        .unwrap();
        let mut unweighted = vec![0.0; qs.len()];
        let mut buffer = values.clone();
        quantiles_in_place(
            &mut buffer,
            &qs,
            QuantileMethod::AveragedInvertedCdf,
            &mut scratch,
            &mut unweighted,
        );
        for i in 0..qs.len() {
            assert!(
                same(out[i], unweighted[i]),
                "n={n} q={} {} {}",
                qs[i],
                out[i],
                unweighted[i]
            );
        }
    }
}

#[test]
fn scratch_is_reused_without_growth() {
    let mut scratch = QuantileScratch::new();
    let qs = [0.1, 0.5, 0.9];
    let mut out = [0.0; 3];
    let mut values: Vec<f64> = (0..100).map(f64::from).collect();
    quantiles_in_place(
        &mut values,
        &qs,
        QuantileMethod::Linear,
        &mut scratch,
        &mut out,
    );
    let capacity = (scratch.picks.capacity(), scratch.ranks.capacity());
    for _ in 0..10 {
        quantiles_in_place(
            &mut values,
            &qs,
            QuantileMethod::Hazen,
            &mut scratch,
            &mut out,
        );
    }
    assert_eq!(
        capacity,
        (scratch.picks.capacity(), scratch.ranks.capacity())
    );
}
