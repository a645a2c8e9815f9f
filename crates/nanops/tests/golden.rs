//! The selection kernels against numbers computed by NumPy 2.4
//! (`golden/golden.py` → `golden/data.rs`),
//! compared bit for bit.

use half::f16;

use nanops::select::{
    median_in_place, quantiles_in_place_with, weighted_quantiles_with, QuantileScratch, SelectFloat,
};
use nanops::{QDtype, QuantileMethod};

#[path = "golden/data.rs"]
#[rustfmt::skip]
mod golden_data;

use golden_data::{MEDIANS, QS_F16, QS_F32, QS_F64, QS_INT, QS_WEAK, QUANTILES, WEIGHTED};

/// NumPy's results, in NumPy's result dtype (`F16` holds `f32` literals of `f16` values).
pub enum Expected {
    F64(&'static [f64]),
    F32(&'static [f32]),
    F16(&'static [f32]),
}

impl Expected {
    fn to_f64(&self) -> Vec<f64> {
        match self {
            Expected::F64(xs) => xs.to_vec(),
            Expected::F32(xs) => xs.iter().map(|&x| f64::from(x)).collect(),
            Expected::F16(xs) => xs.iter().map(|&x| f16::from_f32(x).to_f64()).collect(),
        }
    }
}

/// `np.quantile(values.astype(dtype), q, method=method)` for the `q` of `mode`.
pub struct QuantileCase {
    pub dtype: &'static str,
    pub mode: &'static str,
    pub method: &'static str,
    pub values: &'static [f64],
    pub expected: Expected,
}

/// `np.quantile(values, q, method="inverted_cdf", weights=weights)`.
pub struct WeightedCase {
    pub dtype: &'static str,
    pub mode: &'static str,
    pub values: &'static [f64],
    pub weights: &'static [f64],
    pub expected: Expected,
}

/// `np.median(values.astype(dtype))`.
pub struct MedianCase {
    pub dtype: &'static str,
    pub values: &'static [f64],
    pub expected: Expected,
}

fn qs_of(mode: &str) -> &'static [f64] {
    match mode {
        "weak" => QS_WEAK,
        "int" => QS_INT,
        "f64" => QS_F64,
        "f32" => QS_F32,
        "f16" => QS_F16,
        _ => panic!("unknown mode {mode}"),
    }
}

fn q_dtype_of(mode: &str) -> QDtype {
    match mode {
        "weak" | "f64" => QDtype::Float64,
        "int" => QDtype::Integer,
        "f32" => QDtype::Float32,
        "f16" => QDtype::Float16,
        _ => panic!("unknown mode {mode}"),
    }
}

fn convert<T: SelectFloat>(values: &[f64]) -> Vec<T> {
    values.iter().map(|&v| T::from_f64_nearest(v)).collect()
}

fn run<T, R>(case: &QuantileCase, method: QuantileMethod, scratch: &mut QuantileScratch) -> Vec<f64>
where
    T: SelectFloat,
    R: SelectFloat + From<T>,
{
    let qs = qs_of(case.mode);
    let q_dtype = q_dtype_of(case.mode);
    let mut values: Vec<T> = convert(case.values);
    let mut out = vec![R::NAN; qs.len()];
    quantiles_in_place_with(&mut values, qs, method, q_dtype, scratch, &mut out);
    // Also one q at a time (as NumPy was called for scalar q).
    for (i, &q) in qs.iter().enumerate() {
        let mut single = [R::NAN];
        let mut values: Vec<T> = convert(case.values);
        quantiles_in_place_with(&mut values, &[q], method, q_dtype, scratch, &mut single);
        assert!(same_bits(single[0].to_f64_exact(), out[i].to_f64_exact()));
    }
    out.iter().map(|x| x.to_f64_exact()).collect()
}

fn same_bits(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

#[test]
fn quantiles_match_numpy() {
    let mut scratch = QuantileScratch::new();
    let mut failures = Vec::new();
    for case in QUANTILES {
        let method: QuantileMethod = case.method.parse().unwrap();
        // The result type R: T for a weak (Python) q, else promote(T, q dtype).
        let got = match (case.dtype, case.mode) {
            ("f64", _) => run::<f64, f64>(case, method, &mut scratch),
            ("f32", "weak" | "int" | "f32" | "f16") => run::<f32, f32>(case, method, &mut scratch),
            ("f32", "f64") => run::<f32, f64>(case, method, &mut scratch),
            ("f16", "weak" | "int" | "f16") => run::<f16, f16>(case, method, &mut scratch),
            ("f16", "f32") => run::<f16, f32>(case, method, &mut scratch),
            ("f16", "f64") => run::<f16, f64>(case, method, &mut scratch),
            _ => panic!("unknown case {} {}", case.dtype, case.mode),
        };
        let want = case.expected.to_f64();
        assert_eq!(got.len(), want.len());
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            if !same_bits(*g, *w) {
                failures.push(format!(
                    "{} {} {} q={}: got {g:e}, NumPy {w:e} (values {:?})",
                    case.dtype,
                    case.mode,
                    case.method,
                    qs_of(case.mode)[i],
                    case.values
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn weighted_match_numpy() {
    let mut scratch = QuantileScratch::new();
    for case in WEIGHTED {
        let qs = qs_of(case.mode);
        let q_dtype = q_dtype_of(case.mode);
        let method = QuantileMethod::InvertedCdf;
        let got: Vec<f64> = match case.dtype {
            "f64" => {
                let mut out = vec![0.0f64; qs.len()];
                weighted_quantiles_with(
                    case.values,
                    case.weights,
                    qs,
                    method,
                    q_dtype,
                    &mut scratch,
                    &mut out,
                )
                .unwrap();
                out
            }
            "f32" => {
                let values: Vec<f32> = convert(case.values);
                let mut out = vec![0.0f32; qs.len()];
                weighted_quantiles_with(
                    &values,
                    case.weights,
                    qs,
                    method,
                    q_dtype,
                    &mut scratch,
                    &mut out,
                )
                .unwrap();
                out.iter().map(|&x| f64::from(x)).collect()
            }
            "f16" => {
                let values: Vec<f16> = convert(case.values);
                let mut out = vec![f16::ZERO; qs.len()];
                weighted_quantiles_with(
                    &values,
                    case.weights,
                    qs,
                    method,
                    q_dtype,
                    &mut scratch,
                    &mut out,
                )
                .unwrap();
                out.iter().map(|x| x.to_f64()).collect()
            }
            other => panic!("unknown dtype {other}"),
        };
        let want = case.expected.to_f64();
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!(
                same_bits(*g, *w),
                "{} {} q={}: got {g}, NumPy {w}; values {:?} weights {:?}",
                case.dtype,
                case.mode,
                qs[i],
                case.values,
                case.weights
            );
        }
    }
}

#[test]
fn medians_match_numpy() {
    for case in MEDIANS {
        let got = match case.dtype {
            "f64" => median_in_place(&mut case.values.to_vec()),
            "f32" => f64::from(median_in_place(&mut convert::<f32>(case.values))),
            "f16" => median_in_place(&mut convert::<f16>(case.values)).to_f64(),
            other => panic!("unknown dtype {other}"),
        };
        let want = case.expected.to_f64()[0];
        assert!(
            same_bits(got, want),
            "{} median of {:?}: got {got:e}, NumPy {want:e}",
            case.dtype,
            case.values,
        );
    }
}
