//! The exponential moving functions against numbagg's recurrence written out
//! plainly (a loop over each lane, NaN skipped by a branch, as numbagg
//! writes it), for every layout, axis, `alpha` (one value or one per
//! position) and `min_weight`.

use crate::common::*;
use ndarray::{ArrayD, Axis, IxDyn};
use proptest::prelude::*;

/// The statistics, by name.
const STATS: [&str; 5] = ["mean", "sum", "var", "std", "count"];

/// numbagg's loop of `stat` over one lane (`alpha`: one value or one per
/// position), with nanops' one departure: `alpha = 1` forgets the history.
fn numbagg_lane(stat: &str, xs: &[f64], alpha: &[f64], min_weight: f64) -> Vec<f64> {
    let (mut sx, mut sx2, mut sw, mut sw2, mut weight) = (0.0, 0.0, 0.0, 0.0, 0.0);
    let mut seen = false;
    let mut out = Vec::with_capacity(xs.len());
    for (i, &x) in xs.iter().enumerate() {
        let a = if alpha.len() == 1 { alpha[0] } else { alpha[i] };
        let decay = 1.0 - a;
        // (but `alpha = 1` forgets an infinity too: README, where numbagg's
        // `inf·0` is NaN for good)
        if decay == 0.0 {
            (sx, sx2) = (0.0, 0.0);
        } else {
            sx *= decay;
            sx2 *= decay;
        }
        sw *= decay;
        sw2 *= decay * decay;
        weight *= decay;
        if !x.is_nan() {
            sx += x;
            sx2 += x * x;
            sw += 1.0;
            sw2 += 1.0;
            weight += a;
            seen = true;
        }
        let enough = weight >= min_weight;
        out.push(match stat {
            "mean" if enough => sx / sw,
            "sum" if enough && seen => sx,
            "count" if enough => sw,
            "var" | "std" => {
                let biased = sx2 / sw - (sx / sw) * (sx / sw);
                let bias = 1.0 - sw2 / (sw * sw);
                if enough && bias > 0.0 {
                    if stat == "std" {
                        (biased / bias).sqrt()
                    } else {
                        biased / bias
                    }
                } else {
                    f64::NAN
                }
            }
            _ => f64::NAN,
        });
    }
    out
}

/// The reference along `axis`.
fn reference(a: &ArrayD<f64>, axis: usize, stat: &str, alpha: &[f64], mw: f64) -> ArrayD<f64> {
    let mut out = a.clone();
    for (lane, mut o) in a
        .lanes(Axis(axis))
        .into_iter()
        .zip(out.lanes_mut(Axis(axis)))
    {
        let xs: Vec<f64> = lane.iter().copied().collect();
        for (y, v) in o.iter_mut().zip(numbagg_lane(stat, &xs, alpha, mw)) {
            *y = v;
        }
    }
    out
}

/// `stat` computed by nanops.
fn computed<S, D>(
    a: &ndarray::ArrayBase<S, D>,
    stat: &str,
    alpha: &[f64],
    mw: f64,
    axis: isize,
) -> nanops::Result<ArrayD<f64>>
where
    S: ndarray::Data<Elem = f64>,
    D: ndarray::Dimension,
{
    match stat {
        "mean" => nanops::move_exp_nanmean(a, alpha, mw, axis),
        "sum" => nanops::move_exp_nansum(a, alpha, mw, axis),
        "var" => nanops::move_exp_nanvar(a, alpha, mw, axis),
        "std" => nanops::move_exp_nanstd(a, alpha, mw, axis),
        _ => nanops::move_exp_nancount(a, alpha, mw, axis),
    }
}

/// Equal bit for bit, any NaN equal to any NaN and `-0.0` to `0.0` (a NaN
/// position adds `0.0` where numbagg adds nothing).
fn same_values(a: &ArrayD<f64>, b: &ArrayD<f64>) -> bool {
    a.shape() == b.shape()
        && a.iter()
            .zip(b.iter())
            .all(|(x, y)| (x.is_nan() && y.is_nan()) || x == y)
}

/// Small integers, NaN and infinities.
fn value_inf() -> impl Strategy<Value = f64> {
    prop_oneof![
        8 => (-20i32..20).prop_map(|x| x as f64),
        3 => Just(f64::NAN),
        1 => Just(f64::INFINITY),
        1 => Just(f64::NEG_INFINITY),
    ]
}

/// An alpha: mostly in `0..=1`, with the edges.
fn alpha_value() -> impl Strategy<Value = f64> {
    prop_oneof![
        6 => 0.0f64..=1.0,
        1 => Just(0.0),
        1 => Just(1.0),
        1 => Just(0.5),
    ]
}

/// An array of 1 to 3 dimensions (lengths 1..7), an axis, an alpha (one
/// value or one per position) and a `min_weight`.
fn case() -> impl Strategy<Value = (ArrayD<f64>, usize, Vec<f64>, f64)> {
    prop::collection::vec(1usize..7, 1..=3)
        .prop_flat_map(|shape| {
            let n: usize = shape.iter().product();
            let nd = shape.len();
            (prop::collection::vec(value_inf(), n), Just(shape), 0..nd)
        })
        .prop_flat_map(|(v, shape, axis)| {
            let len = shape[axis];
            let a = ArrayD::from_shape_vec(IxDyn(&shape), v).unwrap();
            let alpha = prop_oneof![
                prop::collection::vec(alpha_value(), 1..=1),
                prop::collection::vec(alpha_value(), len..=len),
            ];
            let mw = prop_oneof![Just(0.0), 0.0f64..1.0, Just(0.5)];
            (Just(a), Just(axis), alpha, mw)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_statistic_every_layout_is_numbaggs_recurrence((a, axis, alpha, mw) in case()) {
        for stat in STATS {
            let want = reference(&a, axis, stat, &alpha, mw);
            for (name, buf, layout) in layouts(&a) {
                let v = view(&buf, layout);
                let got = computed(&v, stat, &alpha, mw, axis as isize).unwrap();
                prop_assert!(same_values(&got, &want), "{} {} axis {} alpha {:?} mw {}:\n{:?}\nwant\n{:?}", stat, name, axis, alpha, mw, got, want);
                let neg = computed(&v, stat, &alpha, mw, axis as isize - a.ndim() as isize).unwrap();
                prop_assert!(same_values(&neg, &want), "{} {} negative axis", stat, name);
            }
        }
    }
}

/// Many lanes (side by side on the last axis, in tiles on axis 0, wider than
/// a tile, a last group of one lane) and long ones (beyond the transposed
/// groups' limit), with random values and alphas.
#[test]
fn wide_and_long_arrays_are_numbaggs_recurrence() {
    let mut r = uniform(7);
    for shape in [
        vec![33usize, 301],
        vec![301, 33],
        vec![17, 5, 40],
        vec![2, 70_000],
    ] {
        let n: usize = shape.iter().product();
        let v: Vec<f64> = (0..n)
            .map(|_| {
                let u = r();
                if u < 0.15 {
                    f64::NAN
                } else {
                    1e3 * u - 400.0
                }
            })
            .collect();
        let a = ArrayD::from_shape_vec(IxDyn(&shape), v).unwrap();
        for axis in 0..shape.len() {
            let len = shape[axis];
            let per_position: Vec<f64> = (0..len).map(|_| r()).collect();
            for alpha in [vec![0.05], per_position] {
                for stat in STATS {
                    let want = reference(&a, axis, stat, &alpha, 0.2);
                    let got = computed(&a, stat, &alpha, 0.2, axis as isize).unwrap();
                    assert!(
                        same_values(&got, &want),
                        "{stat} shape {shape:?} axis {axis}"
                    );
                }
            }
        }
    }
}

#[test]
fn other_dtypes_compute_in_f64_and_round_once() {
    let ints = ndarray::array![1i32, 2, 3, 4].into_dyn();
    let as_f64 = ints.mapv(f64::from);
    assert_eq!(
        nanops::move_exp_nanmean(&ints, &[0.3], 0.0, -1).unwrap(),
        nanops::move_exp_nanmean(&as_f64, &[0.3], 0.0, -1).unwrap()
    );
    let b = ndarray::array![true, false, true].into_dyn();
    assert_eq!(
        nanops::move_exp_nansum(&b, &[0.5], 0.0, 0).unwrap(),
        ndarray::array![1.0, 0.5, 1.25].into_dyn()
    );
    let f = ndarray::array![1.0f32, f32::NAN, 3.0, 0.1].into_dyn();
    let m: ArrayD<f32> = nanops::move_exp_nanvar(&f, &[0.25], 0.0, 0).unwrap();
    let wide = nanops::move_exp_nanvar(&f.mapv(f64::from), &[0.25], 0.0, 0).unwrap();
    for (x, y) in m.iter().zip(wide.iter()) {
        assert!((x.is_nan() && y.is_nan()) || *x == *y as f32);
    }
    let h = ndarray::array![half::f16::from_f32(1.0), half::f16::from_f32(2.0)].into_dyn();
    let c = nanops::move_exp_nancount(&h, &[0.5], 0.0, 0).unwrap();
    assert_eq!(c[1], half::f16::from_f32(1.5));
}

#[test]
fn bad_arguments_are_typed_errors() {
    let a = ndarray::array![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]];
    assert_eq!(
        nanops::move_exp_nanmean(&a, &[0.5, 0.5], 0.0, -1),
        Err(nanops::Error::AlphaLength { found: 2, len: 3 })
    );
    assert!(nanops::move_exp_nanmean(&a, &[0.5, 0.5], 0.0, 0).is_ok());
    assert!(nanops::move_exp_nanmean(&a, &[], 0.0, 0).is_err());
    assert!(matches!(
        nanops::move_exp_nanstd(&a, &[0.5], 0.0, 2),
        Err(nanops::Error::AxisOutOfBounds { .. })
    ));
    // the typed-axis form and the trait method give the same values
    use nanops::NanOps;
    assert_eq!(
        nanops::move_exp_nanmean_axis(&a, &[0.5], 0.0, Axis(1))
            .unwrap()
            .into_dyn(),
        a.move_exp_nanmean(&[0.5], 0.0, 1).unwrap()
    );
}
