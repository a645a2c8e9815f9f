//! Accuracy on ill-conditioned inputs against exact references computed here:
//! the values are integers times a power of two, so their sums (and sums of
//! squares) are exact in `i128`.

use half::f16;
use nanops::Axes;
use ndarray::{Array1, Array2};

/// A small deterministic generator (xorshift64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Roughly normal integer with standard deviation `sd` (sum of 12 uniforms).
    fn normal_int(&mut self, sd: f64) -> i64 {
        let z: f64 = (0..12).map(|_| self.unit()).sum::<f64>() - 6.0;
        (z * sd).round() as i64
    }
}

/// `num / den` (integers) to f64 with a relative error of a few ulp at most.
fn ratio(num: i128, den: i128) -> f64 {
    num as f64 / den as f64
}

/// Exact variance of `offset + k·2^-20` (offset a multiple of 2^-20): the
/// offset cancels, `var = (n·Σk² − (Σk)²) / (n·(n − ddof)) · 2^-40`.
fn exact_var(ks: &[i64], ddof: i128) -> f64 {
    let n = ks.len() as i128;
    let s: i128 = ks.iter().map(|&k| k as i128).sum();
    let q: i128 = ks.iter().map(|&k| (k as i128) * (k as i128)).sum();
    ratio(n * q - s * s, n * (n - ddof)) * 2f64.powi(-40)
}

fn rel(got: f64, want: f64) -> f64 {
    ((got - want) / want).abs()
}

/// Values `1e8 + k·2^-20` (exact in f64: ulp(1e8) = 2^-26), k ~ N(0, 2^20).
fn offset_values(n: usize, seed: u64) -> (Vec<f64>, Vec<i64>) {
    let mut rng = Rng(seed);
    let ks: Vec<i64> = (0..n).map(|_| rng.normal_int((1 << 20) as f64)).collect();
    let xs = ks
        .iter()
        .map(|&k| 1e8 + k as f64 * 2f64.powi(-20))
        .collect();
    (xs, ks)
}

#[test]
fn float64_variance_at_a_large_offset_is_two_pass_accurate() {
    // The size (two blocks) and a larger one with NaN between values.
    for (n, seed) in [(512, 1), (100_000, 2), (1000, 3), (300, 4)] {
        let (xs, ks) = offset_values(n, seed);
        let mut rng = Rng(seed + 100);
        let mut with_nan = Vec::new();
        for &x in &xs {
            while rng.unit() < 0.1 {
                with_nan.push(f64::NAN);
            }
            with_nan.push(x);
        }
        let a = Array1::from(with_nan);
        for ddof in [0, 1] {
            let want = exact_var(&ks, ddof);
            let got = nanops::nanvar(&a, Axes::All, ddof as f64).unwrap()[[]];
            assert!(
                rel(got, want) < 1e-13,
                "n={n} ddof={ddof}: {got} vs exact {want}"
            );
            let sd = nanops::nanstd(&a, Axes::All, ddof as f64).unwrap()[[]];
            assert!(rel(sd, want.sqrt()) < 1e-13, "n={n} ddof={ddof}: std {sd}");
        }
        let mean = nanops::nanmean(&a, Axes::All).unwrap()[[]];
        let s: i128 = ks.iter().map(|&k| k as i128).sum();
        let want_mean = 1e8 + ratio(s, n as i128) * 2f64.powi(-20);
        assert!(
            (mean - want_mean).abs() <= 1.5e-8,
            "mean {mean} vs {want_mean}"
        );
    }
}

/// `Σk²·n − (Σk)²` over `n(n − ddof)`, times `2^-40`, correctly rounded:
/// the quotient is taken in integers to 80 bits, then rounded once to f64.
fn exact_var_rounded(ks: &[i64], ddof: i128) -> f64 {
    let n = ks.len() as i128;
    let s: i128 = ks.iter().map(|&k| k as i128).sum();
    let q: i128 = ks.iter().map(|&k| (k as i128) * (k as i128)).sum();
    let (num, den) = (n * q - s * s, n * (n - ddof));
    let shift = 126 - (128 - num.leading_zeros() as i32);
    ((num << shift) / den) as f64 * 2f64.powi(-40 - shift)
}

#[test]
fn float64_variance_of_a_million_values_is_within_an_ulp() {
    // A million values, 10% NaN between them: thousands of blocks merge, and
    // their sums of squared deviations add up in a compensated pair. Without
    // it the error reached several ulps (7e-16); NumPy's pairwise sums stay
    // within about 1.5 ulp on such data.
    for (offset, seed) in [(1e8, 11), (1e8, 12), (0.0, 13), (0.0, 14)] {
        let mut rng = Rng(seed);
        let ks: Vec<i64> = (0..1_000_000)
            .map(|_| rng.normal_int((1 << 20) as f64))
            .collect();
        let mut xs = Vec::with_capacity(1_100_000);
        for &k in &ks {
            if rng.unit() < 0.1 {
                xs.push(f64::NAN);
            }
            xs.push(offset + k as f64 * 2f64.powi(-20));
        }
        let a = Array1::from(xs);
        for ddof in [0, 1] {
            let want = exact_var_rounded(&ks, ddof);
            let got = nanops::nanvar(&a, Axes::All, ddof as f64).unwrap()[[]];
            // one ulp of the result is 1.1e-16 to 2.2e-16 of it
            assert!(
                rel(got, want) <= 2.3e-16,
                "offset {offset} seed {seed} ddof {ddof}: {got:e} vs exact {want:e} (rel {:e})",
                rel(got, want)
            );
        }
    }
}

#[test]
fn float64_variance_at_a_large_offset_along_axis_0() {
    // Reducing axis 0 of a C array takes the rows path (column accumulators).
    let (rows, cols) = (5000, 3);
    let mut ks = vec![Vec::new(); cols];
    let mut a = Array2::<f64>::zeros((rows, cols));
    let mut rng = Rng(7);
    for i in 0..rows {
        for j in 0..cols {
            if rng.unit() < 0.1 {
                a[[i, j]] = f64::NAN;
                continue;
            }
            let k = rng.normal_int((1 << 20) as f64);
            ks[j].push(k);
            a[[i, j]] = 1e8 * (j + 1) as f64 + k as f64 * 2f64.powi(-20);
        }
    }
    for ddof in [0, 1] {
        let got = nanops::nanvar(&a, 0, ddof as f64).unwrap();
        for j in 0..cols {
            let want = exact_var(&ks[j], ddof);
            assert!(
                rel(got[[j]], want) < 1e-13,
                "col {j} ddof {ddof}: {} vs {want}",
                got[[j]]
            );
        }
    }
}

#[test]
fn variance_of_equal_values_is_zero_and_of_inf_is_nan() {
    let a = Array1::from_elem(255, 0.1f64);
    assert_eq!(nanops::nanvar(&a, Axes::All, 0.0).unwrap()[[]], 0.0);
    assert_eq!(nanops::nanstd(&a, Axes::All, 0.0).unwrap()[[]], 0.0);
    let mut b = Array1::from_elem(1000, 3.0f64);
    b[700] = f64::INFINITY;
    assert!(nanops::nanvar(&b, Axes::All, 0.0).unwrap()[[]].is_nan());
    assert_eq!(nanops::nanmean(&b, Axes::All).unwrap()[[]], f64::INFINITY);
    // Along axis 0 (the rows kernel): an infinity in the first block, in a
    // later one, or both signs, makes its column's variance NaN; a column of
    // NaN after a few values keeps those values' variance.
    let mut c = Array2::from_shape_fn((1000, 40), |(i, j)| (i % 7) as f64 + j as f64);
    c[[3, 2]] = f64::INFINITY;
    c[[700, 17]] = f64::NEG_INFINITY;
    c[[100, 30]] = f64::INFINITY;
    c[[900, 30]] = f64::NEG_INFINITY;
    c.slice_mut(ndarray::s![2.., 35]).fill(f64::NAN);
    let v = nanops::nanvar(&c, 0, 0.0).unwrap();
    for j in 0..40 {
        if [2, 17, 30].contains(&j) {
            assert!(v[[j]].is_nan(), "col {j}: {}", v[[j]]);
        } else if j == 35 {
            assert_eq!(v[[j]], 0.25, "col {j}");
        } else {
            // 1000 values: 143 of each residue mod 7 but 142 of 6
            let ks: Vec<i64> = (0..1000).map(|i| i % 7).collect();
            let want = exact_var_rounded(&ks, 0) * 2f64.powi(40);
            assert!(
                rel(v[[j]], want) <= 2.3e-16,
                "col {j}: {} vs {want}",
                v[[j]]
            );
        }
    }
}

#[test]
fn float64_sum_with_cancellation_is_correctly_rounded() {
    // Pairs ±x (x up to 2^27 ≈ 1.3e8) and small values in [0, 1), all
    // multiples of 2^-30, shuffled, 10% NaN between them.
    let mut rng = Rng(11);
    let mut ks: Vec<i128> = Vec::new();
    for _ in 0..400_000 {
        let big = ((rng.next() >> 7) & ((1 << 57) - 1)) as i128 >> (rng.next() % 40);
        ks.push(big);
        ks.push(-big);
    }
    for _ in 0..200_000 {
        ks.push((rng.next() >> 34) as i128); // < 2^30
    }
    for i in (1..ks.len()).rev() {
        let j = (rng.next() % (i as u64 + 1)) as usize;
        ks.swap(i, j);
    }
    let scale = 2f64.powi(-30);
    let mut xs = Vec::new();
    for &k in &ks {
        if rng.unit() < 0.1 {
            xs.push(f64::NAN);
        }
        xs.push(k as f64 * scale);
    }
    let total: i128 = ks.iter().sum();
    let want = total as f64 * scale; // total < 2^53: exact
    let a = Array1::from(xs);
    let got = nanops::nansum(&a, Axes::All).unwrap()[[]];
    assert_eq!(got, want);
    let mean = nanops::nanmean(&a, Axes::All).unwrap()[[]];
    let want_mean = want / ks.len() as f64;
    assert!(
        rel(mean, want_mean) <= 2.0 * f64::EPSILON,
        "{mean} vs {want_mean}"
    );
    // The same per row (many short slices) and with infinities.
    let rows = Array2::from_shape_vec(
        (1000, a.len() / 1000),
        a.to_vec()[..a.len() / 1000 * 1000].to_vec(),
    )
    .unwrap();
    let per_row = nanops::nansum(&rows, 1).unwrap();
    for i in 0..1000 {
        let row = rows.row(i);
        let exact: i128 = row
            .iter()
            .filter(|x| !x.is_nan())
            .map(|&x| (x / scale) as i128)
            .sum();
        assert_eq!(per_row[[i]], exact as f64 * scale, "row {i}");
    }
    let mut b = a.clone();
    b[10] = f64::INFINITY;
    assert_eq!(nanops::nansum(&b, Axes::All).unwrap()[[]], f64::INFINITY);
    b[20] = f64::NEG_INFINITY;
    assert!(nanops::nansum(&b, Axes::All).unwrap()[[]].is_nan());
}

/// A float16 cancellation case (as `cancel_f16` of tests/python/test_accuracy.py):
/// pairs ±x (x up to 1e4) and 20% small values in [0, 0.05), shuffled, with
/// about 10% NaN between them. The running sum wanders to ~1e6.
fn f16_cancel(n: usize) -> Vec<f16> {
    let mut rng = Rng(21);
    let mut vals = Vec::with_capacity(n);
    while vals.len() < 4 * n / 5 {
        let x = f16::from_f64(10f64.powf(4.0 * rng.unit()));
        vals.push(x);
        vals.push(-x);
    }
    while vals.len() < n {
        vals.push(f16::from_f64(0.05 * rng.unit()));
    }
    for i in (1..vals.len()).rev() {
        let j = (rng.next() % (i as u64 + 1)) as usize;
        vals.swap(i, j);
    }
    let mut xs = Vec::with_capacity(n + n / 8);
    for x in vals {
        while rng.unit() < 0.1 {
            xs.push(f16::NAN);
        }
        xs.push(x);
    }
    xs
}

#[test]
fn float16_cumsum_keeps_an_accurate_running_sum() {
    let xs = f16_cancel(1_000_000);
    let got = nanops::nancumsum(&Array1::from(xs.clone()), Some(0)).unwrap();
    // f16 values are multiples of 2^-24 below 2^16: the f64 running sum is exact.
    let mut exact = 0.0f64;
    let mut checked = 0;
    for (i, &x) in xs.iter().enumerate() {
        if !x.is_nan() {
            exact += x.to_f64();
        }
        let g = got[[i]].to_f64();
        if exact.abs() >= 65520.0 {
            assert_eq!(
                g,
                f64::INFINITY.copysign(exact),
                "element {i}: overflows f16"
            );
        } else if exact.abs() <= 65504.0 {
            // within one float16 ulp of the exact running sum
            let ulp = 2f64.powi(-10) * exact.abs().max(2f64.powi(-14));
            assert!(
                (g - exact).abs() <= ulp,
                "element {i}: {g} vs exact {exact}"
            );
            checked += 1;
        }
    }
    assert!(
        checked > 1000,
        "only {checked} elements within the f16 range"
    );
    assert!(
        exact.abs() < 65504.0 && exact > 100.0,
        "the case sums to {exact}"
    );
    assert_eq!(got[[xs.len() - 1]], f16::from_f64(exact));
    // float32 input (running sums in f64 too) is correctly rounded all along.
    let x32: Vec<f32> = xs.iter().map(|x| x.to_f32()).collect();
    let got32 = nanops::nancumsum(&Array1::from(x32), None).unwrap();
    let mut exact = 0.0f64;
    for (i, &x) in xs.iter().enumerate() {
        if !x.is_nan() {
            exact += x.to_f64();
        }
        assert_eq!(got32[[i]], exact as f32, "f32 element {i}");
    }
}

#[test]
fn float32_std_near_the_largest_float() {
    // The variance (~1e69) overflows f32; the standard deviation fits.
    let mut rng = Rng(31);
    let xs: Vec<f32> = (0..10_000)
        .map(|_| (3.4e38 * (1.0 - 1e-3 * rng.unit())) as f32)
        .collect();
    let wide: Vec<f64> = xs.iter().map(|&x| x as f64).collect();
    let mean = wide.iter().sum::<f64>() / wide.len() as f64;
    let var = wide.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / wide.len() as f64;
    let sd = nanops::nanstd(&Array1::from(xs), Axes::All, 0.0).unwrap()[[]];
    assert!(sd.is_finite());
    assert!(
        rel(sd as f64, var.sqrt()) < 2.0 * f32::EPSILON as f64,
        "{sd} vs {}",
        var.sqrt()
    );
}

#[test]
fn float64_variance_along_axis_0_with_drift_is_within_an_ulp() {
    // Columns of a C array in whole tiles and a remainder, each a noisy
    // drift far from zero, with NaN runs at the start of some columns: the
    // rows kernel centers a block on its column's mean so far, which drift
    // moves away from the block's values.
    let (rows, cols) = (20_000, 37);
    let mut ks = vec![Vec::new(); cols];
    let mut a = Array2::<f64>::zeros((rows, cols));
    let mut rng = Rng(21);
    for i in 0..rows {
        for j in 0..cols {
            let nan_run = j % 5 == 1 && i < 150 + 7 * j;
            if nan_run || rng.unit() < 0.1 {
                a[[i, j]] = f64::NAN;
                continue;
            }
            let drift = (i as i64) << (j % 4 * 4);
            let k = drift + rng.normal_int((1 << 20) as f64);
            ks[j].push(k);
            a[[i, j]] = 1e8 * (j % 3) as f64 + k as f64 * 2f64.powi(-20);
        }
    }
    // Measured: 6.8e-16 at worst (three ulps), as before the kernels centered
    // blocks on running means; NumPy's `nanvar` is off by 6e-13 on data
    // built this way (its mean rounds at the offset). The transposed copy
    // takes the contiguous-lane kernel over the same columns.
    let transposed = a.t().as_standard_layout().to_owned();
    for (ddof, along_lanes) in [(0, false), (1, false), (0, true), (1, true)] {
        let got = if along_lanes {
            nanops::nanvar(&transposed, 1, ddof as f64).unwrap()
        } else {
            nanops::nanvar(&a, 0, ddof as f64).unwrap()
        };
        for j in 0..cols {
            let want = exact_var_rounded(&ks[j], ddof);
            assert!(
                rel(got[[j]], want) <= 1.2e-15,
                "col {j} ddof {ddof} lanes {along_lanes}: {:e} vs exact {want:e} (rel {:e})",
                got[[j]],
                rel(got[[j]], want)
            );
        }
    }
}
