//! The group family against a slow obvious reference: each group's values
//! collected one by one (C order over the grouped axes), reduced by hand.

use nanops::{Axes, QuantileMethod};
use ndarray::{Array2, ArrayD, Axis};
use proptest::prelude::*;

/// The valid values of each (row, group) of `v` (rows along axis 0, the
/// grouped axis 1).
fn groups(v: &Array2<f64>, labels: &[i64], n: usize) -> Vec<Vec<Vec<f64>>> {
    v.axis_iter(Axis(0))
        .map(|row| {
            let mut gs = vec![Vec::new(); n];
            for (j, &x) in row.iter().enumerate() {
                if labels[j] >= 0 && !x.is_nan() {
                    gs[labels[j] as usize].push(x);
                }
            }
            gs
        })
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || (a - b).abs() <= 1e-9 * (1.0 + b.abs())
}

fn check(got: &ArrayD<f64>, want: impl Fn(&[f64]) -> f64, gs: &[Vec<Vec<f64>>]) {
    for (r, row) in gs.iter().enumerate() {
        for (g, xs) in row.iter().enumerate() {
            let (a, b) = (got[[r, g]], want(xs));
            assert!(close(a, b), "row {r} group {g}: {a} vs {b} ({xs:?})");
        }
    }
}

fn input() -> impl Strategy<Value = (Array2<f64>, Vec<i64>, usize)> {
    (1usize..4, 0usize..60, 1usize..6).prop_flat_map(|(rows, cols, n)| {
        (
            prop::collection::vec(
                prop_oneof![3 => -50i32..50, 1 => Just(i32::MIN)],
                rows * cols,
            ),
            prop::collection::vec(-1i64..n as i64, cols),
            Just((rows, cols, n)),
        )
            .prop_map(|(vals, labels, (rows, cols, n))| {
                let v = vals
                    .into_iter()
                    .map(|x| {
                        if x == i32::MIN {
                            f64::NAN
                        } else {
                            x as f64 / 4.0
                        }
                    })
                    .collect();
                (Array2::from_shape_vec((rows, cols), v).unwrap(), labels, n)
            })
    })
}

proptest! {
    #[test]
    fn streaming_statistics_match_the_reference((v, labels, n) in input()) {
        let l = ndarray::Array1::from(labels.clone());
        let gs = groups(&v, &labels, n);
        let ax = || Axes::One(1);
        check(&nanops::group_nansum(&v, &l, ax(), Some(n)).unwrap(), |xs| xs.iter().sum(), &gs);
        let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len() as f64;
        check(&nanops::group_nanmean(&v, &l, ax(), Some(n)).unwrap(), mean, &gs);
        let var = |xs: &[f64]| {
            if xs.len() < 2 { return f64::NAN; }
            let m = mean(xs);
            xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (xs.len() - 1) as f64
        };
        check(&nanops::group_nanvar(&v, &l, ax(), Some(n), 1.0).unwrap(), var, &gs);
        let min = |xs: &[f64]| xs.iter().copied().reduce(f64::min).unwrap_or(f64::NAN);
        check(&nanops::group_nanmin(&v, &l, ax(), Some(n)).unwrap(), min, &gs);
        let first = |xs: &[f64]| xs.first().copied().unwrap_or(f64::NAN);
        check(&nanops::group_nanfirst(&v, &l, ax(), Some(n)).unwrap(), first, &gs);
        let last = |xs: &[f64]| xs.last().copied().unwrap_or(f64::NAN);
        check(&nanops::group_nanlast(&v, &l, ax(), Some(n)).unwrap(), last, &gs);
        let count = nanops::group_nancount(&v, &l, ax(), Some(n)).unwrap().mapv(|c| c as f64);
        check(&count, |xs| xs.len() as f64, &gs);
        let ss = |xs: &[f64]| xs.iter().map(|x| x * x).sum();
        check(&nanops::group_nansum_of_squares(&v, &l, ax(), Some(n)).unwrap(), ss, &gs);
        // argmax: the first position holding the group's maximum
        let arg = nanops::group_nanargmax(&v, &l, ax(), Some(n)).unwrap();
        for (r, row) in gs.iter().enumerate() {
            for (g, xs) in row.iter().enumerate() {
                let m = xs.iter().copied().reduce(f64::max);
                let want = m.map_or(f64::NAN, |m| {
                    (0..labels.len()).find(|&j| labels[j] == g as i64 && v[[r, j]] == m).unwrap() as f64
                });
                prop_assert!(close(arg[[r, g]], want));
            }
        }
    }

    #[test]
    fn medians_and_quantiles_match_a_sort((v, labels, n) in input(), q in 0.0f64..=1.0) {
        let l = ndarray::Array1::from(labels.clone());
        let gs = groups(&v, &labels, n);
        let sorted = |xs: &[f64]| { let mut s = xs.to_vec(); s.sort_by(f64::total_cmp); s };
        let median = |xs: &[f64]| {
            let s = sorted(xs);
            let m = s.len();
            if m == 0 { f64::NAN } else if m % 2 == 1 { s[m / 2] } else { (s[m / 2 - 1] + s[m / 2]) / 2.0 }
        };
        check(&nanops::group_nanmedian(&v, &l, Axes::One(1), Some(n)).unwrap(), median, &gs);
        let lower = nanops::group_nanquantile(&v, &l, Axes::One(1), Some(n), &[q], QuantileMethod::Lower, None).unwrap();
        let lower = lower.index_axis(Axis(0), 0).to_owned();
        check(&lower, |xs| {
            let s = sorted(xs);
            if s.is_empty() { f64::NAN } else { s[(q * (s.len() - 1) as f64).floor() as usize] }
        }, &gs);
    }
}

/// NumPy's weighted `inverted_cdf` of one group's `(value, weight)` pairs,
/// by its definition: the smallest value at which the cumulative weight
/// over the total reaches `q` (and is positive); NaN for no positive weight.
fn weighted_inverted_cdf(pairs: &[(f64, f64)], q: f64) -> f64 {
    let mut s = pairs.to_vec();
    s.sort_by(|a, b| a.0.total_cmp(&b.0));
    let total: f64 = s.iter().map(|p| p.1).sum();
    if total == 0.0 {
        return f64::NAN;
    }
    let mut c = 0.0;
    for &(x, w) in &s {
        c += w;
        if c / total >= q && c > 0.0 {
            return x;
        }
    }
    s.last().map_or(f64::NAN, |p| p.0)
}

#[test]
fn weighted_quantiles_give_nan_for_a_group_of_zero_weight() {
    use nanops::Error;
    use ndarray::{array, Array1};
    let nan = f64::NAN;
    // group 0: a NaN value of NaN weight; group 1: a NaN value of infinite
    // weight; group 2: weights all zero (the NaN of an empty group, the
    // other groups unaffected); group 3: empty; label -1: skipped
    let v = array![
        [3.0, nan, 1.0, 2.0, 5.0, nan, 4.0, 7.0, 6.0, 9.0, 8.0],
        [1.0, nan, nan, 2.0, 3.0, nan, 8.0, 7.0, 6.0, 5.0, 4.0],
    ];
    let labels: Array1<i64> = array![0, 0, 0, 0, 1, 1, 1, 2, 2, -1, 1];
    let w = array![
        2.0,
        nan,
        1.0,
        3.0,
        1.0,
        f64::INFINITY,
        2.0,
        0.0,
        0.0,
        1.0,
        1.0
    ];
    let qs = [0.0, 0.2, 0.5, 0.8, 1.0];
    let n = 4;
    let wrow = w.view().into_dyn();
    let got = nanops::group_nanquantile(
        &v,
        &labels,
        Axes::One(1),
        Some(n),
        &qs,
        QuantileMethod::InvertedCdf,
        Some(wrow),
    )
    .unwrap();
    assert_eq!(got.shape(), &[qs.len(), 2, n]);
    // by hand, row 0 group 0: values 1, 2, 3 of weights 1, 3, 2 (total 6)
    let hand = [1.0, 2.0, 2.0, 3.0, 3.0];
    for (i, &h) in hand.iter().enumerate() {
        assert_eq!(got[[i, 0, 0]], h, "q {}", qs[i]);
    }
    for r in 0..2 {
        for g in 0..n {
            let pairs: Vec<(f64, f64)> = (0..labels.len())
                .filter(|&j| labels[j] == g as i64 && !v[[r, j]].is_nan())
                .map(|j| (v[[r, j]], w[j]))
                .collect();
            for (i, &q) in qs.iter().enumerate() {
                let (a, b) = (got[[i, r, g]], weighted_inverted_cdf(&pairs, q));
                assert!(
                    a == b || (a.is_nan() && b.is_nan()),
                    "row {r} group {g} q {q}: {a} vs {b}"
                );
            }
            if g >= 2 {
                assert!(got.slice(ndarray::s![.., r, g]).iter().all(|x| x.is_nan()));
            }
        }
    }
    // weights of the values' shape: row 1's zero-weight group is group 0,
    // and its NaN value (position 5) has a NaN weight
    let mut wv = ndarray::Array2::from_shape_fn((2, labels.len()), |(_, j)| w[j]);
    for j in 0..4 {
        wv[[1, j]] = 0.0;
    }
    wv[[1, 5]] = nan;
    let got = nanops::group_nanquantile(
        &v,
        &labels,
        Axes::One(1),
        Some(n),
        &qs,
        QuantileMethod::InvertedCdf,
        Some(wv.view().into_dyn()),
    )
    .unwrap();
    for r in 0..2 {
        for g in 0..n {
            let pairs: Vec<(f64, f64)> = (0..labels.len())
                .filter(|&j| labels[j] == g as i64 && !v[[r, j]].is_nan())
                .map(|j| (v[[r, j]], wv[[r, j]]))
                .collect();
            for (i, &q) in qs.iter().enumerate() {
                let (a, b) = (got[[i, r, g]], weighted_inverted_cdf(&pairs, q));
                assert!(
                    a == b || (a.is_nan() && b.is_nan()),
                    "values' shape: row {r} group {g} q {q}: {a} vs {b}"
                );
            }
        }
    }
    assert!(got[[2, 1, 0]].is_nan() && !got[[2, 0, 0]].is_nan());
    // still refused: a NaN, infinite or negative weight on a non-NaN value
    // (of a group or of a skipped label), a negative one anywhere (NumPy
    // checks the sign before it drops NaN values)
    let cases: [(usize, f64); 6] = [
        (0, nan),
        (4, f64::INFINITY),
        (3, -1.0),
        (9, nan),
        (9, -f64::INFINITY),
        (1, -1.0),
    ];
    for (j, bad) in cases {
        let mut wb = w.clone();
        wb[j] = bad;
        let r = nanops::group_nanquantile(
            &v,
            &labels,
            Axes::One(1),
            Some(n),
            &qs,
            QuantileMethod::InvertedCdf,
            Some(wb.view().into_dyn()),
        );
        assert_eq!(r, Err(Error::InvalidWeight), "weight {bad} at {j}");
    }
    // a NaN weight on a value NaN in one row but not in the other: refused
    let mut wb = w.clone();
    wb[2] = nan;
    let r = nanops::group_nanquantile(
        &v,
        &labels,
        Axes::One(1),
        Some(n),
        &qs,
        QuantileMethod::InvertedCdf,
        Some(wb.view().into_dyn()),
    );
    assert_eq!(r, Err(Error::InvalidWeight));
}

/// A group whose sum of squared deviations overflows has an infinite
/// variance (NumPy's `nanvar` of its values) whatever the labels' layout:
/// its values in one run, or split by another label's (issue Q, G5).
#[test]
fn variance_that_overflows_is_infinite_in_every_layout() {
    let layouts: [([f64; 4], [i64; 4]); 3] = [
        ([1.0, 2.0, 3.0, 1e300], [0, 1, 0, 0]),
        ([2.0, 1.0, 3.0, 1e300], [1, 0, 0, 0]),
        ([1.0, 3.0, 1e300, 2.0], [0, 0, 0, 1]),
    ];
    for (values, labels) in layouts {
        let v = Array2::from_shape_vec((1, 4), values.to_vec()).unwrap();
        let l = ndarray::Array1::from(labels.to_vec());
        let got = nanops::group_nanvar(&v, &l, Axes::One(1), Some(2), 0.0).unwrap();
        assert_eq!(got[[0, 0]], f64::INFINITY, "{values:?} by {labels:?}");
        assert_eq!(got[[0, 1]], 0.0, "{values:?} by {labels:?}");
    }
}

/// The same along axis 0 (the rows kernel): a column whose squares about
/// its running mean overflow is infinite, not NaN.
#[test]
fn column_variance_that_overflows_is_infinite_not_nan() {
    let mut v = Array2::<f64>::ones((300, 20));
    v[[299, 3]] = 1e300;
    let got = nanops::nanvar(&v, Axes::One(0), 0.0).unwrap();
    assert_eq!(got[3], f64::INFINITY);
    assert_eq!(got[4], 0.0);
    let mut lane = vec![1.0; 100_000];
    lane[99_999] = 1e300;
    let lane = ndarray::Array1::from(lane);
    assert_eq!(variance_of_all(&lane), f64::INFINITY);
}

/// Values further apart than the range holds (`1.7e308` and `-1.7e308`):
/// the variance is +inf, as NumPy's `nanvar`, never NaN — in one block
/// (whose rounded mean is far off the values), value by value (Welford's
/// update, whose differences overflow) and by group.
#[test]
fn variance_of_values_further_apart_than_the_range_is_infinite() {
    for extra in [0usize, 1, 13, 5000] {
        let mut xs = vec![1.7e308, -1.7e308, 2e154];
        xs.resize(3 + extra, 0.0);
        let v = ndarray::Array1::from(xs.clone());
        let got = nanops::nanvar(&v, Axes::All, 0.0).unwrap();
        assert_eq!(
            got.first().copied(),
            Some(f64::INFINITY),
            "{extra} zeros after"
        );
        let mut pushed = nanops::states::Moments::<f64>::default();
        xs.iter()
            .for_each(|&x| nanops::states::State::push(&mut pushed, x));
        assert_eq!(
            pushed.variance(0.0),
            Some(f64::INFINITY),
            "{extra} zeros after, pushed"
        );
    }
    let v = Array2::from_shape_vec((1, 4), vec![1.7e308, 5.0, -1.7e308, 2e154]).unwrap();
    let l = ndarray::Array1::from(vec![0i64, 1, 0, 0]);
    let got = nanops::group_nanstd(&v, &l, Axes::One(1), Some(2), 0.0).unwrap();
    assert_eq!((got[[0, 0]], got[[0, 1]]), (f64::INFINITY, 0.0));
    // a run whose sum overflowed (its mean inf), then a value pushed alone
    let v = Array2::<f64>::from_elem((1, 4), 1.7e308);
    let l = ndarray::Array1::from(vec![0i64, 0, -1, 0]);
    let got = nanops::group_nanvar(&v, &l, Axes::One(1), Some(1), 0.0).unwrap();
    assert!(!got[[0, 0]].is_nan(), "{got}");
    // a run whose sum overflowed, then one whose huge deviations' rounding
    // leaves |Σd|² (and |Σd|·|Σd|/n) overflowing beside an infinite Σd²
    let mut xs = vec![1.7e308; 20];
    xs.extend([-1.7e308, 1e155]);
    let mut labels = vec![0i64; 22];
    labels[18] = 1;
    let v = Array2::from_shape_vec((1, 22), xs).unwrap();
    let got = nanops::group_nanvar(
        &v,
        &ndarray::Array1::from(labels),
        Axes::One(1),
        Some(2),
        0.0,
    );
    assert_eq!(got.unwrap()[[0, 0]], f64::INFINITY);
    // one run whose lanes' sums overflow to both infinities (its float sum
    // NaN, so its rounded mean too)
    let mut xs = vec![1.7e308; 26];
    (xs[1], xs[9]) = (-1.7e308, -1.7e308);
    let v = Array2::from_shape_vec((1, 26), xs).unwrap();
    let l = ndarray::Array1::from(vec![0i64; 26]);
    let got = nanops::group_nanvar(&v, &l, Axes::One(1), Some(1), 0.0).unwrap();
    assert_eq!(got[[0, 0]], f64::INFINITY);
    let lane = v.row(0).to_owned();
    assert_eq!(variance_of_all(&lane), f64::INFINITY);
    // two runs whose sums overflowed (both means inf), merged
    let v = Array2::<f64>::from_elem((1, 5), 1.7e308);
    let l = ndarray::Array1::from(vec![0i64, 0, -1, 0, 0]);
    let got = nanops::group_nanvar(&v, &l, Axes::One(1), Some(1), 0.0).unwrap();
    assert!(!got[[0, 0]].is_nan(), "{got}");
}

/// `nanvar` (ddof 0) of every value of `lane`.
fn variance_of_all(lane: &ndarray::Array1<f64>) -> f64 {
    let v = nanops::nanvar(lane, Axes::All, 0.0).unwrap();
    *v.first().expect("a 0-d result")
}

/// Sorted labels in runs of 1 to 20 values (a run shorter than 16 is read
/// as a window of 16, in vector registers where the CPU has AVX-512), over
/// enough values that the run walk is taken, of `f64` or `f32`: sums and
/// means exact in any order (quarters), so equal to the reference's bits;
/// the last and first valid value and the count of each group.
fn sorted_runs() -> impl Strategy<Value = (Vec<f64>, Vec<i64>, usize)> {
    prop::collection::vec(
        (
            1usize..=20,
            prop::collection::vec(prop_oneof![4 => -400i32..400, 1 => Just(i32::MIN)], 20),
        ),
        40..120,
    )
    .prop_map(|runs| {
        let (mut values, mut labels) = (Vec::new(), Vec::new());
        for (g, (len, vals)) in runs.iter().enumerate() {
            for &v in &vals[..*len] {
                values.push(if v == i32::MIN {
                    f64::NAN
                } else {
                    f64::from(v) / 4.0
                });
                labels.push(g as i64);
            }
        }
        (values, labels, runs.len())
    })
}

fn check_sorted_runs<E>(
    values: &[f64],
    labels: &[i64],
    n: usize,
    to: impl Fn(f64) -> E,
    back: impl Fn(E) -> f64,
) where
    E: nanops::Element<Sum = E, Mean = E>,
{
    let v = ndarray::Array1::from_iter(values.iter().map(|&x| to(x)));
    let l = ndarray::Array1::from(labels.to_vec());
    let ax = || Axes::One(0);
    let sums = nanops::group_nansum(&v, &l, ax(), Some(n)).unwrap();
    let means = nanops::group_nanmean(&v, &l, ax(), Some(n)).unwrap();
    let lasts = nanops::group_nanlast(&v, &l, ax(), Some(n)).unwrap();
    let firsts = nanops::group_nanfirst(&v, &l, ax(), Some(n)).unwrap();
    let counts = nanops::group_nancount(&v, &l, ax(), Some(n)).unwrap();
    for g in 0..n {
        let xs: Vec<f64> = (0..values.len())
            .filter(|&j| labels[j] == g as i64 && !values[j].is_nan())
            .map(|j| values[j])
            .collect();
        let sum: f64 = xs.iter().sum();
        let mean = if xs.is_empty() {
            f64::NAN
        } else {
            sum / xs.len() as f64
        };
        let same = |a: f64, b: f64| {
            a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()) || (a == 0.0 && b == 0.0)
        };
        assert!(
            same(back(sums[g]), sum),
            "group {g}: sum {} vs {sum}",
            back(sums[g])
        );
        assert!(
            same(back(means[g]), back(to(mean))),
            "group {g}: mean {} vs {mean}",
            back(means[g])
        );
        let last = xs.last().copied().unwrap_or(f64::NAN);
        let first = xs.first().copied().unwrap_or(f64::NAN);
        assert!(
            same(back(lasts[g]), last),
            "group {g}: last {} vs {last}",
            back(lasts[g])
        );
        assert!(
            same(back(firsts[g]), first),
            "group {g}: first {} vs {first}",
            back(firsts[g])
        );
        assert_eq!(counts[g] as usize, xs.len(), "group {g}: count");
    }
}

proptest! {
    #[test]
    fn sorted_runs_sum_as_the_reference((values, labels, n) in sorted_runs()) {
        check_sorted_runs(&values, &labels, n, |x| x, |x| x);
        check_sorted_runs(&values, &labels, n, |x| x as f32, f64::from);
    }
}
