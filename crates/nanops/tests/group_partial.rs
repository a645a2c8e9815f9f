//! Per-label partial states ([`group_partial_states`]): the states of the
//! whole array finish to exactly what the group function gives, and the
//! states of blocks, merged label by label, to the same up to rounding —
//! for products whose blocks overflow or underflow on their own.

use nanops::states::State;
use nanops::stats::{NanMean, NanProd, NanSum, NanVar};
use nanops::{finish_states, group_partial_states, merge_states, Axes, Ddof};
use ndarray::{concatenate, Array2, ArrayD, Axis};
use num_complex::Complex64;
use proptest::prelude::*;

/// Magnitudes 1e-300 … 1e300 of either sign, with true zeros (of either
/// sign), infinities and NaN among them.
fn factor() -> impl Strategy<Value = f64> {
    prop_oneof![
        12 => (-300i32..=300, any::<bool>(), 1.0f64..10.0)
            .prop_map(|(e, neg, m)| if neg { -m } else { m } * 10f64.powi(e)),
        1 => Just(0.0),
        1 => Just(-0.0),
        1 => Just(f64::INFINITY),
        1 => Just(f64::NEG_INFINITY),
        2 => Just(f64::NAN),
    ]
}

/// Values of up to 4 × 40 factors, labels along axis 1 (-1: skipped) of up
/// to 5 groups, and up to 3 cuts of axis 1 into blocks.
fn input() -> impl Strategy<Value = (Array2<f64>, Vec<i64>, usize, Vec<usize>)> {
    (1usize..4, 0usize..40, 1usize..6).prop_flat_map(|(rows, cols, n)| {
        (
            prop::collection::vec(factor(), rows * cols),
            prop::collection::vec(-1i64..n as i64, cols),
            Just(n),
            prop::collection::vec(0usize..=cols, 0..3),
        )
            .prop_map(move |(v, labels, n, cuts)| {
                (
                    Array2::from_shape_vec((rows, cols), v).unwrap(),
                    labels,
                    n,
                    cuts,
                )
            })
    })
}

/// The same class (NaN, zero, infinity or finite) and sign; finite nonzero
/// values within `rtol` of each other.
fn same(a: f64, b: f64, rtol: f64) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() && b.is_nan();
    }
    if a == 0.0 || b == 0.0 || a.is_infinite() || b.is_infinite() {
        return a == b && a.is_sign_negative() == b.is_sign_negative();
    }
    (a - b).abs() <= rtol * a.abs().max(b.abs())
}

/// Bit for bit, any NaN equal to any NaN.
fn bits(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
}

/// The per-label states of the blocks of `v` between `cuts` along axis 1,
/// merged label by label in block order, then finished.
fn merged_blocks(v: &Array2<f64>, labels: &[i64], n: usize, cuts: &[usize]) -> ArrayD<f64> {
    let mut bounds = cuts.to_vec();
    bounds.extend([0, v.ncols()]);
    bounds.sort_unstable();
    let parts: Vec<_> = bounds
        .windows(2)
        .map(|w| {
            let block = v.slice(ndarray::s![.., w[0]..w[1]]);
            let lab = ndarray::aview1(&labels[w[0]..w[1]]);
            // a block's states: (rows, groups), a merge axis in front
            group_partial_states(&block, &lab, 1, Some(n), &NanProd)
                .unwrap()
                .insert_axis(Axis(0))
        })
        .collect();
    let views: Vec<_> = parts.iter().map(|p| p.view()).collect();
    let stacked = concatenate(Axis(0), &views).unwrap();
    let merged = merge_states(&stacked.view(), 0).unwrap();
    finish_states::<f64, _>(&NanProd, &merged.view()).values
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn products_per_label_finish_as_group_nanprod((v, labels, n, cuts) in input()) {
        let lab = ndarray::aview1(&labels);
        let want = nanops::group_nanprod(&v, &lab, 1, Some(n)).unwrap();
        // the whole array's states: exactly the function's result
        let states = group_partial_states(&v, &lab, 1, Some(n), &NanProd).unwrap();
        prop_assert_eq!(states.shape(), want.shape());
        let whole = finish_states::<f64, _>(&NanProd, &states.view());
        for (a, b) in whole.values.iter().zip(want.iter()) {
            prop_assert!(bits(*a, *b), "whole {} vs group_nanprod {}", a, b);
        }
        // blocks merged label by label: the same up to rounding, exact in class
        let got = merged_blocks(&v, &labels, n, &cuts);
        for (a, b) in got.iter().zip(want.iter()) {
            prop_assert!(same(*a, *b, 1e-12), "blocks {} vs group_nanprod {} ({:?})", a, b, cuts);
        }
    }

    #[test]
    fn complex_products_per_label_finish_as_group_nanprod(
        (re, labels, n, _cuts) in input(),
        turn in prop::collection::vec(0usize..4, 160),
    ) {
        // each value turned by a power of i: directions as well as magnitudes
        let mut k = 0;
        let v = re.mapv(|x| {
            k += 1;
            match turn[k % turn.len()] {
                0 => Complex64::new(x, 0.0),
                1 => Complex64::new(0.0, x),
                2 => Complex64::new(x, x),
                _ => Complex64::new(x, 1.0),
            }
        });
        let lab = ndarray::aview1(&labels);
        let want = nanops::group_nanprod(&v, &lab, 1, Some(n)).unwrap();
        let states = group_partial_states(&v, &lab, 1, Some(n), &NanProd).unwrap();
        let whole = finish_states::<Complex64, _>(&NanProd, &states.view());
        for (a, b) in whole.values.iter().zip(want.iter()) {
            prop_assert!(bits(a.re, b.re) && bits(a.im, b.im), "whole {} vs group_nanprod {}", a, b);
        }
    }
}

#[test]
fn the_issue_reproducer_merges_to_one() {
    // [1e300, 1e300, 1e-300, 1e-300] in blocks of two, all in group 0:
    // each block's product alone is inf, then 0; merged, 1.0 as in memory
    let v = Array2::from_shape_vec((1, 4), vec![1e300, 1e300, 1e-300, 1e-300]).unwrap();
    let labels = [0, 0, 0, 0];
    let got = merged_blocks(&v, &labels, 1, &[2]);
    let want = nanops::group_nanprod(&v, &ndarray::aview1(&labels), 1, None).unwrap();
    assert_eq!(got, want);
    assert!((got[[0, 0]] - 1.0).abs() < 1e-15);
}

#[test]
fn long_lanes_split_over_threads_give_the_functions_bits() {
    // few outputs of many values: the driver cuts each output's values into
    // chunks (a state per label each) and merges them; the states stop
    // there, and finish to the function's bits
    let mut u = {
        let mut x = 0x9E37_79B9_7F4A_7C15_u64;
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
    };
    let n = 600_000;
    let v: Vec<f64> = (0..n)
        .map(|_| {
            let r = u();
            match r % 97 {
                0 => f64::NAN,
                1 => 0.0,
                _ => (1.0 + (r >> 11) as f64 / (1u64 << 53) as f64) * 2f64.powi((r % 7) as i32 - 3),
            }
        })
        .collect();
    let labels: Vec<i64> = (0..n).map(|_| (u() % 5) as i64 - 1).collect();
    let (v, labels) = (ndarray::Array1::from(v), ndarray::Array1::from(labels));
    let want = nanops::group_nanprod(&v, &labels, Axes::All, None).unwrap();
    let states = group_partial_states(&v, &labels, Axes::All, None, &NanProd).unwrap();
    let got = finish_states::<f64, _>(&NanProd, &states.view()).values;
    assert_eq!(got.len(), 4);
    for (a, b) in got.iter().zip(want.iter()) {
        assert!(bits(*a, *b), "{a} vs {b}");
    }
    // the mantissa and exponent carry what no f64 holds
    assert!(states.iter().any(|st| st.parts().1.abs() > 1100));
}

#[test]
fn other_reductions_states_per_label_finish_as_their_group_functions() {
    let v = Array2::from_shape_fn((3, 11), |(i, j)| {
        if (i + j) % 4 == 0 {
            f64::NAN
        } else {
            (i * 11 + j) as f64 * 0.3 - 4.0
        }
    });
    let labels = ndarray::arr1(&[0, 2, 2, -1, 0, 1, 3, 3, 0, 2, 1]);
    let sum = group_partial_states(&v, &labels, 1, Some(5), &NanSum).unwrap();
    assert_eq!(
        finish_states::<f64, _>(&NanSum, &sum.view()).values,
        nanops::group_nansum(&v, &labels, 1, Some(5)).unwrap()
    );
    let mean = group_partial_states(&v, &labels, 1, Some(5), &NanMean).unwrap();
    let want = nanops::group_nanmean(&v, &labels, 1, Some(5)).unwrap();
    let got = finish_states::<f64, _>(&NanMean, &mean.view());
    assert!(got
        .values
        .iter()
        .zip(want.iter())
        .all(|(a, b)| bits(*a, *b)));
    // group 4 of each row is empty, group 0 of row 0 all NaN
    assert_eq!(got.degenerate, 4);
    let var = NanVar(Ddof(1.0));
    let states = group_partial_states(&v, &labels, 1, Some(5), &var).unwrap();
    let want = nanops::group_nanvar(&v, &labels, 1, Some(5), 1.0).unwrap();
    let got = finish_states::<f64, _>(&var, &states.view()).values;
    assert!(got.iter().zip(want.iter()).all(|(a, b)| bits(*a, *b)));
    // an empty group's state is the empty state
    assert_eq!(states[[0, 4]].count(), 0);
    assert_eq!(sum[[0, 4]].finish(), 0.0);
}

#[test]
fn bad_labels_are_the_group_functions_errors() {
    let v = ndarray::arr1(&[1.0, 2.0, 3.0]);
    let r = group_partial_states(&v, &ndarray::arr1(&[0, 3, 1]), 0, Some(3), &NanProd);
    assert_eq!(
        r.map(|_| ()),
        Err(nanops::Error::LabelOutOfRange {
            label: 3,
            num_labels: 3
        })
    );
    let r = group_partial_states(&v, &ndarray::arr1(&[0, 1]), 0, None, &NanProd);
    assert!(matches!(r, Err(nanops::Error::LabelsShape { .. })));
}
