//! Partial states as public API: chunks' states merged and finished give
//! the reduction of the whole array (up to rounding), and finishing the
//! states of the whole array gives exactly what the function gives.

use nanops::stats::{
    NanCount, NanKurt, NanMax, NanMean, NanMin, NanProd, NanSkew, NanStd, NanSum, NanVar,
};
use nanops::{finish_states, merge_states, partial_states, report, Ddof, Error};
use ndarray::{concatenate, s, Array2, Axis};
use proptest::prelude::*;

/// Arrays of up to 24 × 5 values with NaN, ±inf-free, some all-NaN lanes.
fn arrays() -> impl Strategy<Value = Array2<f64>> {
    (1usize..24, 1usize..5).prop_flat_map(|(r, c)| {
        prop::collection::vec(
            prop_oneof![8 => -1e3f64..1e3, 2 => Just(f64::NAN), 1 => (-3i32..3).prop_map(f64::from)],
            r * c,
        )
        .prop_map(move |v| Array2::from_shape_vec((r, c), v).unwrap())
    })
}

fn close(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// For `stat` over `axis` of `a` cut at `cuts` along that axis: the merged
/// chunks' result is close to the whole's, and the whole's states finish
/// to exactly the function's result and degenerate count.
macro_rules! check {
    ($a:expr, $axis:expr, $cuts:expr, $stat:expr, $to_f64:expr) => {{
        let (a, axis, stat) = (&$a, $axis, $stat);
        let whole = report(a, axis, stat).unwrap();
        let states = partial_states(a, axis, &stat).unwrap();
        let fin = finish_states::<f64, _>(&stat, &states.view());
        prop_assert_eq!(format!("{:?}", fin.values), format!("{:?}", whole.values));
        prop_assert_eq!(fin.degenerate, whole.degenerate);
        let len = a.shape()[axis];
        let mut bounds: Vec<usize> = $cuts.iter().map(|&c: &usize| c % (len + 1)).collect();
        bounds.push(0);
        bounds.push(len);
        bounds.sort_unstable();
        let parts: Vec<_> = bounds
            .windows(2)
            .map(|w| {
                let chunk = a.slice_axis(Axis(axis), (w[0]..w[1]).into());
                partial_states(&chunk, axis, &stat)
                    .unwrap()
                    .insert_axis(Axis(axis))
            })
            .collect();
        let views: Vec<_> = parts.iter().map(|p| p.view()).collect();
        let stacked = concatenate(Axis(axis), &views).unwrap();
        let merged = merge_states(&stacked.view(), axis).unwrap();
        let got = finish_states::<f64, _>(&stat, &merged.view());
        prop_assert_eq!(got.degenerate, whole.degenerate);
        for (x, y) in got.values.iter().zip(whole.values.iter()) {
            let (x, y): (f64, f64) = ($to_f64(*x), $to_f64(*y));
            prop_assert!(close(x, y), "{:?}: chunks {} whole {}", stat, x, y);
        }
    }};
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn merged_chunks_equal_the_whole(a in arrays(), axis in 0usize..2, cuts in prop::collection::vec(0usize..30, 0..3)) {
        let f = |x: f64| x;
        check!(a, axis, cuts, NanSum, f);
        check!(a, axis, cuts, NanMean, f);
        check!(a, axis, cuts, NanVar(Ddof(0.0)), f);
        check!(a, axis, cuts, NanVar(Ddof(1.0)), f);
        check!(a, axis, cuts, NanStd(Ddof(1.0)), f);
        check!(a, axis, cuts, NanMin, f);
        check!(a, axis, cuts, NanMax, f);
        check!(a, axis, cuts, NanSkew { bias: false }, f);
        check!(a, axis, cuts, NanKurt { bias: true, fisher: true }, f);
        check!(a, axis, cuts, NanCount, |x: u64| x as f64);
        // products of up to 24 values of 1e3: keep them finite
        let small = a.mapv(|x| x / 1e3);
        check!(small, axis, cuts, NanProd, f);
    }
}

#[test]
fn float32_states_finish_to_float32_results() {
    let a = ndarray::array![[1.5_f32, f32::NAN, 2.0], [3.0, 4.0, f32::NAN]];
    let states = partial_states(&a, 1, &NanMean).unwrap();
    let r = finish_states::<f32, _>(&NanMean, &states.view());
    assert_eq!(r.values, nanops::nanmean(&a, 1).unwrap());
    let top = partial_states(&a.slice(s![.., ..1]), 1, &NanMean).unwrap();
    let rest = partial_states(&a.slice(s![.., 1..]), 1, &NanMean).unwrap();
    let both = ndarray::stack(Axis(1), &[top.view(), rest.view()]).unwrap();
    let merged = merge_states(&both.view(), 1).unwrap();
    assert_eq!(
        finish_states::<f32, _>(&NanMean, &merged.view()).values,
        r.values
    );
}

#[test]
fn bad_axes_are_errors() {
    let a = Array2::<f64>::zeros((2, 3));
    assert!(matches!(
        partial_states(&a, 2, &NanSum),
        Err(Error::AxisOutOfBounds { .. })
    ));
    let states = partial_states(&a, 0, &NanSum).unwrap();
    assert!(matches!(
        merge_states(&states.view(), 1),
        Err(Error::AxisOutOfBounds { .. })
    ));
    // merging over an empty axis gives empty states
    let none = states.slice(s![..0]).into_dyn();
    let merged = merge_states(&none, 0).unwrap();
    assert_eq!(merged.shape(), &[] as &[usize]);
    assert_eq!(
        finish_states::<f64, _>(&NanSum, &merged.view()).values[[]],
        0.0
    );
}
