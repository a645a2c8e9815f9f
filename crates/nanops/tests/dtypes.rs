//! Result types and values across element types.

use half::f16;
use nanops::{Axes, NanOps};
use ndarray::{array, Array1, ArrayD};
use num_complex::Complex32;

#[test]
fn integers_sum_in_64_bits_and_wrap_like_numpy() {
    let a = array![100_i8, 100, 100];
    assert_eq!(nanops::nansum(&a, 0).unwrap()[[]], 300_i64);
    let u = array![u64::MAX, 2];
    assert_eq!(nanops::nansum(&u, 0).unwrap()[[]], 1_u64);
    let b = array![true, false, true];
    assert_eq!(nanops::nansum(&b, 0).unwrap()[[]], 2_i64);
    assert_eq!(nanops::nanmean(&b, 0).unwrap()[[]], 2.0 / 3.0);
}

#[test]
fn float32_sums_accumulate_in_f64() {
    // 10M copies of 0.1f32 summed naively in f32 drift far away; we stay within an ulp.
    let a = Array1::<f32>::from_elem(10_000_000, 0.1);
    let s = nanops::nansum(&a, 0).unwrap()[[]];
    let exact = 0.1f32 as f64 * 1e7;
    assert!(((s as f64 - exact) / exact).abs() < 1e-7, "{s}");
    let m = nanops::nanmean(&a, 0).unwrap()[[]];
    assert_eq!(m, 0.1f32);
}

#[test]
fn float16_mean_does_not_overflow() {
    // NumPy's float16 nanmean of 20,000 values near 10 overflows to inf.
    let a = Array1::<f16>::from_elem(20_000, f16::from_f32(10.0));
    assert_eq!(a.nanmean(0).unwrap()[[]], f16::from_f32(10.0));
    let v = a.nanvar(0, 0.0).unwrap()[[]];
    assert_eq!(v, f16::from_f32(0.0));
}

#[test]
fn complex_variance_is_real_and_nan_in_either_part_is_skipped() {
    let a = array![
        Complex32::new(1.0, 1.0),
        Complex32::new(f32::NAN, 0.0),
        Complex32::new(3.0, -1.0)
    ];
    let v: ArrayD<f32> = nanops::nanvar(&a, 0, 0.0).unwrap();
    // |z - mean|^2 with mean 2+0i: (1 + 1) and (1 + 1), mean 2
    assert_eq!(v[[]], 2.0);
    assert_eq!(nanops::nancount(&a, 0).unwrap()[[]], 2);
    assert_eq!(nanops::nanmin(&a, 0).unwrap()[[]], Complex32::new(1.0, 1.0));
}

#[test]
fn variance_survives_large_offsets() {
    let a = Array1::from_iter((0..100_000).map(|i| 1e9 + (i % 4) as f64));
    let v = nanops::nanvar(&a, 0, 0.0).unwrap()[[]];
    assert!((v - 1.25).abs() < 1e-9, "{v}");
}

#[test]
fn errors_are_typed() {
    let a = array![[1.0, 2.0]];
    assert_eq!(
        nanops::nansum(&a, 2).unwrap_err(),
        nanops::Error::AxisOutOfBounds { axis: 2, ndim: 2 }
    );
    assert_eq!(
        nanops::nansum(&a, [1, -1]).unwrap_err(),
        nanops::Error::DuplicateAxis { axis: 1 }
    );
    assert_eq!(
        nanops::nanargmax(&array![f64::NAN], None).unwrap_err(),
        nanops::Error::AllNanSlice
    );
    assert!(nanops::nanargmin(&Array1::<f64>::zeros(0), None).is_err());
    assert_eq!(
        nanops::nansum(&a, Axes::Many(vec![])).unwrap(),
        a.into_dyn()
    );
}

#[test]
fn large_reductions_give_the_same_bits_for_any_thread_count() {
    let a = Array1::from_iter(
        (0..3_000_000u64).map(|i| ((i * 7919) % 1000) as f64 * 0.001 + 1e-3 / (1 + i % 7) as f64),
    );
    let a2 = a.clone().into_shape_with_order((3000, 1000)).unwrap();
    let run = |threads: usize| {
        crate::common::with_threads(threads, || {
            (
                nanops::nansum(&a, 0).unwrap(),
                nanops::nanvar(&a, 0, 1.0).unwrap(),
                nanops::nanmean(&a2, 0).unwrap(),
                nanops::nanstd(&a2, 1, 0.0).unwrap(),
            )
        })
    };
    let one = run(1);
    assert_eq!(one, run(2));
    assert_eq!(one, run(3));
    assert_eq!(one, run(4));
}

/// Axis 0 with many outputs (a climate cube reduced over time): tasks of
/// whole column tiles, tiles cut by the end of the outputs; NaN and
/// all-NaN columns.
#[test]
fn many_column_reductions_give_the_same_bits_for_any_thread_count() {
    let (rows, cols) = (40, 20_011);
    let a = ndarray::Array2::from_shape_fn((rows, cols), |(i, j)| {
        if j % 10 == 3 || (i * 31 + j * 17) % 9 == 0 {
            f32::NAN
        } else {
            ((i * 7919 + j * 104_729) % 1000) as f32 * 0.013
        }
    });
    let run = |threads: usize| {
        crate::common::with_threads(threads, || {
            let bits = |x: ndarray::ArrayD<f32>| x.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            (
                bits(nanops::nanmean(&a, 0).unwrap()),
                bits(nanops::nanstd(&a, 0, 1.0).unwrap()),
                bits(nanops::nanmax(&a, 0).unwrap()),
                bits(nanops::nansum(&a, 0).unwrap()),
            )
        })
    };
    let one = run(1);
    for threads in 2..=4 {
        assert_eq!(one, run(threads), "{threads} threads");
    }
}

/// Axis 0 with few outputs (the row split): extrema and counts are cut in
/// as many chunks as threads, and still give the same bits: the first of
/// equal extrema (`-0.0` before `0.0` or after it, in chunks that the
/// thread counts cut differently) and all-NaN columns (NaN).
#[test]
fn cut_free_row_splits_give_the_same_bits_for_any_thread_count() {
    let (rows, cols) = (3000, 97);
    let a = ndarray::Array2::from_shape_fn((rows, cols), |(i, j)| match (i * 7 + j * 13) % 23 {
        _ if j == 5 => f64::NAN,
        0 if j % 2 == 0 => 0.0,
        0 => -0.0,
        1 if (i / 700) % 2 == 0 => -0.0,
        1 => 0.0,
        2 => f64::NAN,
        k => (k as f64) * if j % 3 == 0 { 1.0 } else { -1.0 } + 11.0,
    });
    // the reference: one value after another, a tie keeping the first
    let first_best = |max: bool| -> Vec<u64> {
        (0..cols)
            .map(|j| {
                let mut best: Option<f64> = None;
                for i in 0..rows {
                    let x = a[[i, j]];
                    let beats = |b: f64| if max { x > b } else { x < b };
                    if !x.is_nan() && best.is_none_or(beats) {
                        best = Some(x);
                    }
                }
                best.unwrap_or(f64::NAN).to_bits()
            })
            .collect()
    };
    let run = |threads: usize| {
        crate::common::with_threads(threads, || {
            let bits = |x: ndarray::ArrayD<f64>| x.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            (
                bits(nanops::nanmin(&a, 0).unwrap()),
                bits(nanops::nanmax(&a, 0).unwrap()),
                nanops::nancount(&a, 0).unwrap(),
            )
        })
    };
    let one = run(1);
    assert_eq!(one.0, first_best(false));
    assert_eq!(one.1, first_best(true));
    for threads in 2..=7 {
        assert_eq!(one, run(threads), "{threads} threads");
    }
}
