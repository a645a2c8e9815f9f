//! Order statistics through the planner: every layout and axis subset, long lanes.

use crate::common::*;
use nanops::stats::Quantiles;
use nanops::{Axes, QuantileMethod};
use ndarray::{Array1, ArrayD, IxDyn};
use proptest::prelude::*;

fn sorted_median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = v.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => v[n / 2],
        _ => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn medians_and_quantiles_match_the_reference_in_every_layout((a, axes) in array_and_axes()) {
        let med = reference(&a, &axes, |g| sorted_median(&mut valid(g)));
        let med_prop = reference(&a, &axes, |g| {
            if g.iter().any(|x| x.is_nan()) { f64::NAN } else { sorted_median(&mut g.to_vec()) }
        });
        let lower = reference(&a, &axes, |g| {
            let mut v = valid(g);
            v.sort_by(|a, b| a.partial_cmp(b).unwrap());
            // method lower at q = 0.25: floor((n - 1) * q)
            if v.is_empty() { f64::NAN } else { v[((v.len() - 1) as f64 * 0.25).floor() as usize] }
        });
        for (name, buf, layout) in layouts(&a) {
            let v = view(&buf, layout);
            let ax = || Axes::from(axes.clone());
            prop_assert!(same(&nanops::nanmedian(&v, ax()).unwrap(), &med), "nanmedian {}", name);
            prop_assert!(same(&nanops::median(&v, ax()).unwrap(), &med_prop), "median {}", name);
            let q = nanops::nanquantile(&v, &[0.25], ax(), QuantileMethod::Lower).unwrap();
            let q0 = q.index_axis(ndarray::Axis(0), 0).to_owned();
            prop_assert!(same(&q0, &lower), "nanquantile lower {}", name);
        }
    }
}

#[test]
fn strided_lanes_copied_in_groups_match_the_reference() {
    // Axis 0 of C arrays (and the other layouts): lanes side by side are
    // copied a cache line at a time; widths around the group size (8 f64)
    // with leftover lanes, one-row reductions, ties and NaN.
    let mut u = uniform(0x9e37_79b9_7f4a_7c15);
    for (rows, cols) in [(5, 7), (300, 8), (300, 9), (41, 17), (1, 40), (64, 33)] {
        let v: Vec<f64> = (0..rows * cols)
            .map(|_| match u() {
                p if p < 0.1 => f64::NAN,
                p => (p * 5.0).floor() + u() * 1e-3 * (p > 0.5) as u8 as f64,
            })
            .collect();
        let a = ArrayD::from_shape_vec(IxDyn(&[rows, cols]), v).unwrap();
        let axes = vec![0];
        let med = reference(&a, &axes, |g| sorted_median(&mut valid(g)));
        let q90 = reference(&a, &axes, |g| {
            let mut v = valid(g);
            v.sort_by(|a, b| a.partial_cmp(b).unwrap());
            if v.is_empty() {
                return f64::NAN;
            }
            let pos = (v.len() - 1) as f64 * 0.9;
            let (i, g) = (pos.floor() as usize, pos - pos.floor());
            match v.get(i + 1) {
                Some(&b) => v[i] + (b - v[i]) * g,
                None => v[i],
            }
        });
        for (name, buf, layout) in layouts(&a) {
            let view = view(&buf, layout);
            let got = nanops::nanmedian(&view, 0).unwrap();
            assert!(same(&got, &med), "nanmedian {rows}×{cols} {name}");
            let q = nanops::nanquantile(&view, &[0.9, 0.5], 0, QuantileMethod::Linear).unwrap();
            let (q0, q1) = (
                q.index_axis(ndarray::Axis(0), 0),
                q.index_axis(ndarray::Axis(0), 1),
            );
            assert!(
                same(&q0.to_owned(), &q90),
                "nanquantile 0.9 {rows}×{cols} {name}"
            );
            assert!(
                same(&q1.to_owned(), &med),
                "nanquantile 0.5 {rows}×{cols} {name}"
            );
        }
    }
}

#[test]
fn long_lane_medians_are_exact_for_any_distribution() {
    let n = 1 << 19;
    let mut rand = uniform(12345u64);
    let cases: Vec<(&str, Vec<f64>)> = vec![
        ("uniform odd", (0..n + 1).map(|_| rand()).collect()),
        ("uniform even", (0..n).map(|_| rand()).collect()),
        (
            "with nan",
            (0..n)
                .map(|_| {
                    let u = rand();
                    if u < 0.2 {
                        f64::NAN
                    } else {
                        u
                    }
                })
                .collect(),
        ),
        ("ties", (0..n).map(|_| (rand() * 3.0).floor()).collect()),
        ("sorted", (0..n).map(|i| i as f64).collect()),
        ("skewed", (0..n).map(|_| rand().powi(20) * 1e300).collect()),
        ("all nan", vec![f64::NAN; n]),
    ];
    for (name, v) in cases {
        let a = Array1::from(v.clone());
        let want = sorted_median(
            &mut v
                .iter()
                .copied()
                .filter(|x| !x.is_nan())
                .collect::<Vec<_>>(),
        );
        let got = nanops::nanmedian(&a, 0).unwrap()[[]];
        assert!(
            got == want || (got.is_nan() && want.is_nan()),
            "{name}: {got} vs {want}"
        );
        let prop = nanops::median(&a, 0).unwrap()[[]];
        let want_prop = if v.iter().any(|x| x.is_nan()) {
            f64::NAN
        } else {
            want
        };
        assert!(
            prop == want_prop || (prop.is_nan() && want_prop.is_nan()),
            "{name} (propagating)"
        );
        // the same lane, strided and reversed
        let big = ArrayD::from_shape_vec(
            IxDyn(&[v.len(), 1]),
            v.iter().copied().rev().collect::<Vec<_>>(),
        )
        .unwrap();
        let got = nanops::nanmedian(&big, Axes::All).unwrap()[[]];
        assert!(got == want || (got.is_nan() && want.is_nan()), "{name} 2-d");
    }
}

/// Quantiles of one long lane are bracketed from a sample (no copy of the
/// lane); they must equal the copying kernel's, bit for bit, for every
/// method, several `q` at once (more brackets than one pass takes, too),
/// ties, NaN and infinities.
#[test]
fn long_lane_quantiles_equal_the_copying_kernel() {
    use nanops::select::{quantiles_in_place, QuantileScratch};
    let n = 1 << 19;
    let mut rand = uniform(0x853c_49e6_748f_ea9bu64);
    let cases: Vec<(&str, Vec<f64>)> = vec![
        ("uniform", (0..n + 3).map(|_| rand()).collect()),
        (
            "nan and inf",
            (0..n)
                .map(|_| match rand() {
                    u if u < 0.1 => f64::NAN,
                    u if u < 0.12 => f64::INFINITY,
                    u if u > 0.99 => f64::NEG_INFINITY,
                    u => u,
                })
                .collect(),
        ),
        ("ties", (0..n).map(|_| (rand() * 5.0).floor()).collect()),
        // a NaN that an evenly spaced sample is unlikely to read: the
        // propagating quantile must still see it
        (
            "three nan",
            (0..n)
                .map(|i| match i {
                    1 | 12_345 | 99_999 => f64::NAN,
                    _ => rand(),
                })
                .collect(),
        ),
        // the valid count differs from what a sample at some stride sees
        (
            "nan in runs",
            (0..n)
                .map(|i| if i % 1000 < 700 { f64::NAN } else { rand() })
                .collect(),
        ),
        ("sorted", (0..n).map(|i| i as f64).collect()),
        ("all nan", vec![f64::NAN; n]),
    ];
    let qsets: [&[f64]; 5] = [
        &[0.5],
        &[0.1, 0.5, 0.9],
        &[0.0, 1.0, 0.5],
        &[0.9, 0.001, 0.25, 0.75, 0.999],
        &[0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0],
    ];
    let methods = [
        QuantileMethod::Linear,
        QuantileMethod::Lower,
        QuantileMethod::Nearest,
        QuantileMethod::InvertedCdf,
        QuantileMethod::AveragedInvertedCdf,
        QuantileMethod::MedianUnbiased,
        QuantileMethod::Midpoint,
    ];
    let mut scratch = QuantileScratch::new();
    for (name, v) in &cases {
        let a = Array1::from(v.clone());
        let valid: Vec<f64> = v.iter().copied().filter(|x| !x.is_nan()).collect();
        for q in qsets {
            for method in methods {
                let got = nanops::nanquantile(&a, q, 0, method).unwrap();
                let mut want = vec![0.0; q.len()];
                quantiles_in_place(&mut valid.clone(), q, method, &mut scratch, &mut want);
                for (g, w) in got.iter().zip(&want) {
                    assert!(
                        g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()),
                        "{name} {method:?} q={q:?}: {got} vs {want:?}"
                    );
                }
                let prop = nanops::quantile(&a, q, 0, method).unwrap();
                let has_nan = valid.len() < v.len();
                for (g, w) in prop.iter().zip(&want) {
                    assert!(
                        if has_nan {
                            g.is_nan()
                        } else {
                            g.to_bits() == w.to_bits()
                        },
                        "{name} {method:?} q={q:?} (propagating)"
                    );
                }
            }
        }
    }
}

#[test]
fn quantile_errors_are_typed() {
    let a = Array1::from(vec![1.0, 2.0]);
    assert_eq!(
        nanops::nanquantile(&a, &[1.5], 0, QuantileMethod::Linear).unwrap_err(),
        nanops::Error::InvalidQuantile { q: 1.5 }
    );
    let w = ArrayD::from_elem(IxDyn(&[2]), 1.0);
    let opts = nanops::QuantileOptions {
        weights: Some(w.view()),
        ..Default::default()
    };
    assert!(matches!(
        nanops::report(&a, 0, Quantiles::<f64>::new(&[0.5], opts)),
        Err(nanops::Error::WeightsUnsupported { .. })
    ));
    let neg = ArrayD::from_elem(IxDyn(&[2]), -1.0);
    let opts = nanops::QuantileOptions {
        weights: Some(neg.view()),
        method: QuantileMethod::InvertedCdf,
        ..Default::default()
    };
    assert_eq!(
        nanops::report(&a, 0, Quantiles::<f64>::new(&[0.5], opts)).unwrap_err(),
        nanops::Error::InvalidWeight
    );
}

/// Many short lanes (`(100000, 10)` along axis 1) take a kernel of their own
/// (lanes sorted side by side in tiles): every lane length, tiles cut short,
/// thread tasks starting mid-tile, NaN (all-NaN lanes included), ±inf, ties.
#[test]
fn many_short_lane_medians_match_the_reference() {
    let palette = [
        f64::NAN,
        -2.0,
        0.5,
        1.0,
        1.0,
        3.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        7.25,
    ];
    let mut cases: Vec<(usize, usize)> = (1..=16).map(|l| (203, l)).collect();
    cases.push((30_001, 10)); // split across threads
    for (rows, l) in cases {
        let v = from_palette(&palette, rows * l, 0x5851_f42d_4c95_7f2d + l as u64);
        let a = ArrayD::from_shape_vec(IxDyn(&[rows, l]), v.clone()).unwrap();
        let nan_med = nanops::nanmedian(&a, 1).unwrap();
        let med = nanops::median(&a, 1).unwrap();
        for (i, lane) in v.chunks_exact(l).enumerate() {
            let mut valid: Vec<f64> = lane.iter().copied().filter(|y| !y.is_nan()).collect();
            let want = sorted_median(&mut valid);
            let want_prop = if lane.iter().any(|y| y.is_nan()) {
                f64::NAN
            } else {
                want
            };
            assert!(
                same_value(nan_med[[i]], want),
                "L={l} {lane:?}: nanmedian {}",
                nan_med[[i]]
            );
            assert!(
                same_value(med[[i]], want_prop),
                "L={l} {lane:?}: median {}",
                med[[i]]
            );
        }
    }
}

/// Equal, or both NaN.
fn same_value(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

/// Reductions along a strided axis (axis 0 of a climate cube, a sensor
/// table, an image stack) transpose tiles of side-by-side lanes into
/// scratch: tiles cut short by the end of a task, of the outputs or of a row
/// of a sliced view, lanes long enough for the median's bracketing pass and
/// longer than a tile, all-NaN lanes, ±inf, ties; medians and quantiles
/// against the sorted reference, float32 against its contiguous copy (lanes
/// copied one by one), and the same bits for 1 to 4 threads.
#[test]
fn tiled_strided_lanes_match_the_reference_for_any_thread_count() {
    let palette = [
        f64::NAN,
        -2.0,
        0.5,
        1.0,
        1.0,
        3.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        7.25,
    ];
    // (shape, columns kept of the last axis: a sliced view when smaller)
    let cases: [(&[usize], usize); 8] = [
        (&[600, 1000], 1000), // several thread tasks
        (&[600, 1000], 997),  // and tiles cut by a row of the view
        (&[300, 3, 50], 50),
        (&[300, 3, 50], 37),
        (&[40, 2000], 2000),
        (&[1500, 70], 70),
        (&[70_000, 3], 3),
        (&[64, 33, 31], 31),
    ];
    let mut u = uniform(0x2545_f491_4f6c_dd1d);
    for (case, &(shape, keep)) in cases.iter().enumerate() {
        let n: usize = shape.iter().product();
        let inner = shape[shape.len() - 1];
        let mut v = from_palette(&palette, n, 0x9e37_79b9 + case as u64);
        for (i, x) in v.iter_mut().enumerate() {
            if i % inner == 4 {
                *x = f64::NAN; // an all-NaN lane (a land/sea mask)
            } else if !x.is_nan() && u() < 0.5 {
                *x += u(); // distinct values beside the ties
            }
        }
        let full = ArrayD::from_shape_vec(IxDyn(shape), v).unwrap();
        let last = ndarray::Axis(shape.len() - 1);
        let a = full
            .slice_axis(last, ndarray::Slice::from(0..keep))
            .to_owned();
        let sliced = full.slice_axis(last, ndarray::Slice::from(0..keep));
        let med = reference(&a, &[0], |g| sorted_median(&mut valid(g)));
        let med_prop = reference(&a, &[0], |g| {
            if g.iter().any(|x| x.is_nan()) {
                f64::NAN
            } else {
                sorted_median(&mut g.to_vec())
            }
        });
        let q90 = reference(&a, &[0], |g| {
            let mut v = valid(g);
            v.sort_by(|a, b| a.partial_cmp(b).unwrap());
            if v.is_empty() {
                return f64::NAN;
            }
            // method higher at q = 0.9: ceil((n - 1) * q)
            v[((v.len() - 1) as f64 * 0.9).ceil() as usize]
        });
        let a32 = sliced.mapv(|x| x as f32);
        let a32_lanes_last = a32
            .view()
            .permuted_axes((1..shape.len()).chain([0]).collect::<Vec<_>>())
            .as_standard_layout()
            .to_owned();
        let last32 = shape.len() - 1;
        let want32 = (
            nanops::nanmedian(&a32_lanes_last, last32).unwrap(),
            nanops::nanquantile(&a32_lanes_last, &[0.1, 0.5], last32, QuantileMethod::Linear)
                .unwrap(),
        );
        let run = |threads: usize| {
            crate::common::with_threads(threads, || {
                let q = nanops::nanquantile(&sliced, &[0.9], 0, QuantileMethod::Higher).unwrap();
                (
                    nanops::nanmedian(&sliced, 0).unwrap(),
                    nanops::median(&sliced, 0).unwrap(),
                    q.index_axis(ndarray::Axis(0), 0).to_owned(),
                    nanops::nanmedian(&a32, 0).unwrap(),
                    nanops::nanquantile(&a32, &[0.1, 0.5], 0, QuantileMethod::Linear).unwrap(),
                )
            })
        };
        let one = run(1);
        assert!(same(&one.0, &med), "nanmedian {shape:?}[.., :{keep}]");
        assert!(same(&one.1, &med_prop), "median {shape:?}[.., :{keep}]");
        assert!(same(&one.2, &q90), "nanquantile {shape:?}[.., :{keep}]");
        let bits = |a: &ArrayD<f32>| a.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&one.3), bits(&want32.0), "f32 nanmedian {shape:?}");
        assert_eq!(bits(&one.4), bits(&want32.1), "f32 nanquantile {shape:?}");
        for threads in 2..=4 {
            let other = run(threads);
            let bits64 = |a: &ArrayD<f64>| a.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits64(&one.0), bits64(&other.0), "{threads} threads");
            assert_eq!(bits64(&one.1), bits64(&other.1), "{threads} threads");
            assert_eq!(bits64(&one.2), bits64(&other.2), "{threads} threads");
            assert_eq!(bits(&one.3), bits(&other.3), "{threads} threads");
            assert_eq!(bits(&one.4), bits(&other.4), "{threads} threads");
        }
    }
}

/// Quantiles of strided lanes by bracketing passes (one per quantile, each
/// centred on its `q`): smooth values (the brackets hit), the ends `q = 0`
/// and `q = 1` (brackets reaching to the infinities), several methods,
/// all-NaN and mostly-NaN lanes, against the copy-and-select path of the
/// same lanes made contiguous, bit for bit, for 1 to 4 threads.
#[test]
fn bracketed_quantiles_of_strided_lanes_equal_the_copied_lanes() {
    let mut u = uniform(0x9e37_79b9_7f4a_7c15);
    let qs = [0.0, 0.1, 0.37, 0.5, 0.9, 1.0];
    let methods = [
        QuantileMethod::Linear,
        QuantileMethod::Lower,
        QuantileMethod::Higher,
        QuantileMethod::Nearest,
        QuantileMethod::Midpoint,
        QuantileMethod::InvertedCdf,
        QuantileMethod::Hazen,
        QuantileMethod::AveragedInvertedCdf,
        QuantileMethod::MedianUnbiased,
    ];
    for &(rows, cols) in &[(700usize, 40usize), (300, 17), (5000, 3)] {
        let a = ndarray::Array2::from_shape_fn((rows, cols), |(_, j)| {
            let x = u();
            if j % 7 == 2 || (j % 7 == 5 && x < 0.8) || x < 0.1 {
                f64::NAN // all-NaN lanes, mostly-NaN lanes, 10% NaN
            } else if j % 3 == 0 {
                -(1.0 - u()).ln() // skewed
            } else {
                u() * 100.0
            }
        })
        .into_dyn();
        let lanes_last = a.t().as_standard_layout().to_owned().into_dyn();
        let a32 = a.mapv(|x| x as f32);
        let lanes_last32 = lanes_last.mapv(|x| x as f32);
        for method in methods {
            let want = nanops::nanquantile(&lanes_last, &qs, 1, method).unwrap();
            let want32 = nanops::nanquantile(&lanes_last32, &qs, 1, method).unwrap();
            let run = |threads: usize| {
                crate::common::with_threads(threads, || {
                    (
                        nanops::nanquantile(&a, &qs, 0, method).unwrap(),
                        nanops::nanquantile(&a32, &qs, 0, method).unwrap(),
                        nanops::nanquantile(&a, &[0.5], 0, method).unwrap(),
                    )
                })
            };
            let bits = |a: &ArrayD<f64>| a.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            let bits32 = |a: &ArrayD<f32>| a.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            let one = run(1);
            let tag = format!("({rows}, {cols}) {method:?}");
            assert_eq!(bits(&one.0), bits(&want), "{tag}");
            assert_eq!(bits32(&one.1), bits32(&want32), "f32 {tag}");
            let want_half = want.index_axis(ndarray::Axis(0), 3).to_owned();
            assert_eq!(
                bits(&one.2.index_axis(ndarray::Axis(0), 0).to_owned()),
                bits(&want_half),
                "{tag}"
            );
            for threads in 2..=4 {
                let other = run(threads);
                assert_eq!(bits(&one.0), bits(&other.0), "{tag} {threads} threads");
                assert_eq!(bits32(&one.1), bits32(&other.1), "{tag} {threads} threads");
            }
        }
    }
}
