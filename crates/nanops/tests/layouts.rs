//! The planner: every layout of the same values gives the reference result,
//! for every subset of axes.

use crate::common::*;
use nanops::{Axes, Ddof};
use ndarray::ArrayD;
use proptest::prelude::*;

fn to_f64<T: Copy + Into<f64>>(a: ArrayD<T>) -> ArrayD<f64> {
    a.mapv(Into::into)
}

fn check_all(a: &ArrayD<f64>, axes: &[usize]) -> Result<(), TestCaseError> {
    let ax = || Axes::from(axes.to_vec());
    let sum = reference(a, axes, |g| valid(g).iter().sum());
    // bottleneck's `ss`: NaN propagated
    let squares = reference(a, axes, |g| g.iter().map(|x| x * x).sum());
    let count = reference(a, axes, |g| valid(g).len() as f64);
    // anynan / allnan as 1.0 / 0.0
    let any_nan = reference(a, axes, |g| (valid(g).len() < g.len()) as u8 as f64);
    let all_nan = reference(a, axes, |g| valid(g).is_empty() as u8 as f64);
    let mean = reference(a, axes, |g| {
        let v = valid(g);
        v.iter().sum::<f64>() / v.len() as f64
    });
    let var = |ddof: f64| {
        reference(a, axes, move |g| {
            let v = valid(g);
            let n = v.len() as f64;
            if n - ddof <= 0.0 {
                return f64::NAN;
            }
            let m = v.iter().sum::<f64>() / n;
            v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - ddof)
        })
    };
    let (var0, var1) = (var(0.0), var(1.0));
    let min = reference(a, axes, |g| valid(g).into_iter().fold(f64::NAN, f64::min));
    let max = reference(a, axes, |g| valid(g).into_iter().fold(f64::NAN, f64::max));
    let reduces_empty = axes.iter().any(|&i| a.shape()[i] == 0);
    let out_empty = (0..a.ndim()).any(|i| !axes.contains(&i) && a.shape()[i] == 0);
    for (name, buf, layout) in layouts(a) {
        let v = view(&buf, layout);
        prop_assert!(same(&v.to_owned(), a), "layout {} shows other values", name);
        prop_assert!(
            same(&nanops::nansum(&v, ax()).unwrap(), &sum),
            "nansum {}",
            name
        );
        prop_assert!(
            same(&nanops::ss(&v, ax()).unwrap(), &squares),
            "ss {}",
            name
        );
        let flags = |f: ArrayD<bool>| f.mapv(|b| b as u8 as f64);
        prop_assert!(
            same(&flags(nanops::anynan(&v, ax()).unwrap()), &any_nan),
            "anynan {}",
            name
        );
        prop_assert!(
            same(&flags(nanops::allnan(&v, ax()).unwrap()), &all_nan),
            "allnan {}",
            name
        );
        prop_assert!(
            same(
                &to_f64(nanops::nancount(&v, ax()).unwrap().mapv(|c| c as u32)),
                &count
            ),
            "nancount {}",
            name
        );
        prop_assert!(
            same(&nanops::nanmean(&v, ax()).unwrap(), &mean),
            "nanmean {}",
            name
        );
        prop_assert!(
            same(&nanops::nanvar(&v, ax(), Ddof(0.0)).unwrap(), &var0),
            "nanvar {}",
            name
        );
        prop_assert!(
            same(&nanops::nanvar(&v, ax(), 1.0).unwrap(), &var1),
            "nanvar1 {}",
            name
        );
        prop_assert!(
            same(
                &nanops::nanstd(&v, ax(), 1.0).unwrap(),
                &var1.mapv(f64::sqrt)
            ),
            "nanstd {}",
            name
        );
        if reduces_empty && !out_empty {
            prop_assert!(nanops::nanmin(&v, ax()).is_err());
        } else {
            prop_assert!(
                same(&nanops::nanmin(&v, ax()).unwrap(), &min),
                "nanmin {}",
                name
            );
            prop_assert!(
                same(&nanops::nanmax(&v, ax()).unwrap(), &max),
                "nanmax {}",
                name
            );
        }
        // products of ±1 and 2 are exact in any order
        let pm = v.mapv(|x| {
            if x.is_nan() {
                x
            } else if x as i64 % 2 == 0 {
                2.0
            } else {
                -1.0
            }
        });
        let pm_ref = reference(&pm, axes, |g| valid(g).iter().product());
        prop_assert!(
            same(&nanops::nanprod(&pm, ax()).unwrap(), &pm_ref),
            "nanprod {}",
            name
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_layout_matches_the_reference((a, axes) in array_and_axes()) {
        check_all(&a, &axes)?;
    }

    #[test]
    fn arg_extrema_match_the_reference(a in array(), pick in 0usize..4) {
        for (name, buf, layout) in layouts(&a) {
            let v = view(&buf, layout);
            let axis = if a.ndim() == 0 { None } else { Some((pick % a.ndim()) as isize) };
            let got = nanops::nanargmin(&v, axis);
            // reference: first minimum of each lane in C order
            let lanes: Vec<Vec<f64>> = match axis {
                None => vec![a.iter().copied().collect()],
                Some(k) => a.lanes(ndarray::Axis(k as usize)).into_iter().map(|l| l.to_vec()).collect(),
            };
            let expect: Vec<Option<usize>> = lanes.iter().map(|l| {
                let m = valid(l).into_iter().fold(f64::NAN, f64::min);
                l.iter().position(|&x| x == m)
            }).collect();
            let out_empty = axis.is_some() && lanes.is_empty();
            if out_empty {
                prop_assert!(got.is_ok(), "{}", name);
                continue;
            }
            if expect.iter().any(|e| e.is_none()) {
                prop_assert!(got.is_err(), "{}: expected an error", name);
            } else {
                let got = got.unwrap();
                let want: Vec<usize> = expect.into_iter().map(Option::unwrap).collect();
                prop_assert_eq!(got.iter().copied().collect::<Vec<_>>(), want, "{}", name);
            }
        }
    }

    #[test]
    fn cumulative_sums_match_the_reference(a in array(), pick in 0usize..4) {
        let axis = if a.ndim() == 0 { None } else { Some((pick % a.ndim()) as isize) };
        let mut want = match axis {
            None => ArrayD::from_shape_vec(ndarray::IxDyn(&[a.len()]), a.iter().copied().collect()).unwrap(),
            Some(_) => a.clone(),
        };
        want.mapv_inplace(|x| if x.is_nan() { 0.0 } else { x });
        let k = axis.unwrap_or(0) as usize;
        if !want.is_empty() {
            want.accumulate_axis_inplace(ndarray::Axis(k), |&p, c| *c += p);
        }
        for (name, buf, layout) in layouts(&a) {
            let v = view(&buf, layout);
            prop_assert!(same(&nanops::nancumsum(&v, axis).unwrap(), &want), "{}", name);
        }
    }
}

#[test]
fn empty_reduction_of_min_is_an_error_but_sum_is_zero() {
    let a = ArrayD::<f64>::zeros(ndarray::IxDyn(&[0, 3]));
    assert!(matches!(
        nanops::nanmin(&a, 0),
        Err(nanops::Error::EmptyReduction { .. })
    ));
    assert_eq!(
        nanops::nansum(&a, 0).unwrap(),
        ArrayD::zeros(ndarray::IxDyn(&[3]))
    );
    assert_eq!(nanops::nanmin(&a, 1).unwrap().len(), 0);
}

/// Tall and wide arrays cross the row-block (64 rows), column-tile and
/// thread-chunk boundaries that small property-test arrays never reach;
/// many ties check that the first extremum wins across those boundaries.
#[test]
fn arg_extrema_of_tall_and_wide_arrays_match_the_reference() {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for &(rows, cols) in &[
        (65, 3),
        (129, 7),
        (1000, 5),
        (70_000, 4),
        (3, 70_000),
        (300, 2100),
    ] {
        let v: Vec<f64> = (0..rows * cols)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                match x % 11 {
                    0 => f64::NAN,
                    k => (k % 4) as f64,
                }
            })
            .collect();
        let a = ndarray::Array2::from_shape_vec((rows, cols), v).unwrap();
        for k in 0..2 {
            let lanes: Vec<Vec<f64>> = a
                .lanes(ndarray::Axis(k))
                .into_iter()
                .map(|l| l.to_vec())
                .collect();
            let first = |l: &Vec<f64>, max: bool| {
                let m = valid(l)
                    .into_iter()
                    .fold(f64::NAN, if max { f64::max } else { f64::min });
                l.iter().position(|&y| y == m)
            };
            for max in [false, true] {
                let want: Vec<Option<usize>> = lanes.iter().map(|l| first(l, max)).collect();
                let got = if max {
                    nanops::nanargmax(&a, Some(k as isize))
                } else {
                    nanops::nanargmin(&a, Some(k as isize))
                };
                if want.iter().any(Option::is_none) {
                    assert!(
                        got.is_err(),
                        "{rows}x{cols} axis {k} max={max}: expected an error"
                    );
                } else {
                    let want: Vec<usize> = want.into_iter().map(Option::unwrap).collect();
                    let got: Vec<usize> = got.unwrap().iter().copied().collect();
                    assert_eq!(got, want, "{rows}x{cols} axis {k} max={max}");
                }
            }
        }
        let flat: Vec<f64> = a.iter().copied().collect();
        let m = valid(&flat).into_iter().fold(f64::NAN, f64::max);
        let got = nanops::nanargmax(&a, None).unwrap()[[]];
        assert_eq!(
            Some(got),
            flat.iter().position(|&y| y == m),
            "{rows}x{cols} flat"
        );
    }
}

/// Many short lanes (`(100000, 10)` along axis 1) are transposed in tiles and
/// reduced across outputs; these shapes cross the tile and thread-task
/// boundaries, and one lane length sits just past the short-lane limit.
#[test]
fn many_short_lanes_match_the_reference() {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    // every short length (each has its own transposition), tiles that wrap
    // an inner kept axis (100 outputs per row of 3), and longer lanes
    let mut cases: Vec<(Vec<usize>, Vec<usize>)> =
        (1..=16).map(|l| (vec![600, l], vec![1])).collect();
    cases.extend([
        (vec![70_000, 4], vec![1]),
        (vec![3000, 16], vec![1]),
        (vec![500, 17], vec![1]),
        // column states beyond half of L1: the rows loops take four rows
        // per pass (one tile of 9000 columns; 2100 columns just over)
        (vec![13, 9000], vec![0]),
        (vec![150, 2100], vec![0]),
        (vec![40, 50, 7], vec![2]),
        (vec![40, 50, 7], vec![0, 2]),
        (vec![257, 1, 3], vec![2]),
        (vec![3, 100, 5], vec![2]),
    ]);
    for (shape, axes) in cases {
        let n: usize = shape.iter().product();
        let v: Vec<f64> = (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                match x % 9 {
                    0 => f64::NAN,
                    k => k as f64 - 4.0,
                }
            })
            .collect();
        let a = ArrayD::from_shape_vec(ndarray::IxDyn(&shape), v).unwrap();
        check_all(&a, &axes).unwrap_or_else(|e| panic!("{shape:?} over {axes:?}: {e}"));
    }
}

/// Short lanes take a tree of their own for `nanmin` / `nanmax`: it must
/// give what a scan gives, the first of equal values included (`0.0` and
/// `-0.0` compare equal; NumPy keeps the first), with NaN skipped and
/// all-NaN lanes NaN.
#[test]
fn short_lane_extrema_match_a_scan_signed_zeros_included() {
    let palette = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    for l in 1..=16 {
        let rows = 300;
        let v = from_palette(&palette, rows * l, 0x9e37_79b9_7f4a_7c15 + l as u64);
        let a = ArrayD::from_shape_vec(ndarray::IxDyn(&[rows, l]), v.clone()).unwrap();
        let min = nanops::nanmin(&a, 1).unwrap();
        let max = nanops::nanmax(&a, 1).unwrap();
        for (i, lane) in v.chunks_exact(l).enumerate() {
            let scan = |better: fn(f64, f64) -> bool| {
                lane.iter()
                    .copied()
                    .filter(|y| !y.is_nan())
                    .fold(None, |b: Option<f64>, y| match b {
                        Some(b) if !better(y, b) => Some(b),
                        _ => Some(y),
                    })
                    .unwrap_or(f64::NAN)
            };
            let (want_min, want_max) = (scan(|y, b| y < b), scan(|y, b| y > b));
            assert_eq!(
                min[[i]].to_bits(),
                want_min.to_bits(),
                "L={l} row {lane:?} min"
            );
            assert_eq!(
                max[[i]].to_bits(),
                want_max.to_bits(),
                "L={l} row {lane:?} max"
            );
        }
    }
}
