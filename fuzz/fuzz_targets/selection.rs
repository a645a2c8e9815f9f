//! Fuzz target `selection`: lanes of `f64`/`f32` full of ties, NaN, ±inf,
//! signed zeros and extremes, random `q` (0, 1, `k/n`, neighbours of those,
//! invalid ones), every `QuantileMethod`, every `q` precision (`QDtype`) and
//! result type, through `nanquantile`/`quantile` (`nanops::report` of `stats::Quantiles`),
//! `nanmedian`/`median` (`median_report`, including the sampled "bracket"
//! median of lanes ≥ 2¹⁸), weighted `inverted_cdf`/`averaged_inverted_cdf`,
//! and the lane kernels of `nanops::select`. Each result is compared, bit for
//! bit (up to the sign of a zero), with a reference that sorts the lane and
//! applies NumPy 2.x's formulas (`common.rs`), written independently of the
//! crate; weighted quantiles with integer weights are also compared with the
//! unweighted quantile of the sample with each value repeated by its weight.
#![no_main]

#[path = "common.rs"]
mod common;

use common::*;
use libfuzzer_sys::fuzz_target;
use nanops::select::{
    median_in_place, quantiles_in_place, weighted_quantiles, QuantileScratch, SelectFloat,
    WeightedQuantileError,
};
use nanops::stats::{Median, Quantiles};
use nanops::{Error, NanPolicy, QDtype, QuantileElement, QuantileMethod, QuantileOptions, Report};

/// NaN skipped or propagated.
fn policy(ignore_nan: bool) -> NanPolicy {
    if ignore_nan { NanPolicy::Omit } else { NanPolicy::Propagate }
}

/// Quantiles `qs` as `R`, through the one general entry.
fn quantile_report<S, T, D, R>(
    view: &ndarray::ArrayBase<S, D>,
    qs: &[f64],
    axis: impl Into<nanops::Axes>,
    opts: &QuantileOptions<'_>,
) -> nanops::Result<Report<R>>
where
    S: ndarray::Data<Elem = T>,
    T: QuantileElement,
    D: ndarray::Dimension,
    R: SelectFloat + From<T::Value> + Default,
{
    let opts = QuantileOptions {
        weights: opts.weights.as_ref().map(|w| w.view()),
        ..opts.clone()
    };
    nanops::report(view, axis, Quantiles::<R>::new(qs, opts))
}
use ndarray::{Array1, ArrayD, ArrayViewD, Axis, IxDyn, ShapeBuilder};
use std::fmt::Debug;

trait SelT: QuantileElement<Value = Self> + SelectFloat + RefFloat + Default + Debug {
    const NAME: &'static str;
    fn from_bits_raw(bits: u64) -> Self;
    /// Quantiles with results in `f64` (a float64 `q` array).
    fn report_f64(
        view: &ArrayViewD<'_, Self>,
        qs: &[f64],
        axis: isize,
        opts: &QuantileOptions<'_>,
    ) -> nanops::Result<Report<f64>>;
}

impl SelT for f64 {
    const NAME: &'static str = "f64";
    fn from_bits_raw(bits: u64) -> Self {
        f64::from_bits(bits)
    }
    fn report_f64(
        view: &ArrayViewD<'_, Self>,
        qs: &[f64],
        axis: isize,
        opts: &QuantileOptions<'_>,
    ) -> nanops::Result<Report<f64>> {
        quantile_report::<_, _, _, f64>(view, qs, axis, opts)
    }
}

impl SelT for f32 {
    const NAME: &'static str = "f32";
    fn from_bits_raw(bits: u64) -> Self {
        f32::from_bits(bits as u32)
    }
    fn report_f64(
        view: &ArrayViewD<'_, Self>,
        qs: &[f64],
        axis: isize,
        opts: &QuantileOptions<'_>,
    ) -> nanops::Result<Report<f64>> {
        quantile_report::<_, _, _, f64>(view, qs, axis, opts)
    }
}

macro_rules! fail {
    ($desc:expr, $($arg:tt)*) => {
        panic!("[{}] {}", $desc, format!($($arg)*))
    };
}

fn isnan<T: RefFloat>(x: T) -> bool {
    RefFloat::is_nan(x)
}

fn f<T: RefFloat>(x: T) -> f64 {
    RefFloat::to_f64(x)
}

/// Values of one case: `nlanes` lanes of `len` values.
fn gen_values<T: SelT>(b: &mut Bytes, n: usize, huge: bool) -> Vec<T> {
    let mode = b.below(6);
    let sub: Vec<f64> = (0..1 + b.below(6)).map(|_| F64_PALETTE[b.below(32)]).collect();
    if huge {
        // Patterns for the sampled median: random, ties, sorted runs, organ pipe.
        let mut rng = SplitMix(b.u64());
        let pattern = b.below(6);
        let nan_every = [0usize, 2, 3, 1000, 7, 1][b.below(6)];
        return (0..n)
            .map(|i| {
                if nan_every > 0 && rng.next() as usize % nan_every == 0 {
                    return <T as RefFloat>::NAN;
                }
                let v = match pattern {
                    0 => (rng.next() >> 11) as f64,
                    1 => sub[rng.next() as usize % sub.len()],
                    2 => i as f64,
                    3 => (n - i) as f64,
                    4 => (i.min(n - i)) as f64,
                    _ => (rng.next() % 3) as f64,
                };
                T::from_f64(v)
            })
            .collect();
    }
    (0..n)
        .map(|_| match mode {
            0 | 1 => T::from_f64(sub[b.below(sub.len())]),
            2 => T::from_f64(F64_PALETTE[b.below(32)]),
            3 => match b.u8() % 12 {
                11 => <T as RefFloat>::NAN,
                k => T::from_f64(f64::from(k) - 5.0),
            },
            4 => T::from_bits_raw(b.u64()),
            _ => T::from_f64(f64::from(b.u16()) / 64.0 - 512.0),
        })
        .collect()
}

/// One `q`: interesting fractions, ranks `k/n`, `k/(n-1)`, their float
/// neighbours, raw values; rarely an invalid one.
fn gen_q(b: &mut Bytes, n: usize, allow_invalid: bool) -> f64 {
    let n = n.max(1) as f64;
    let q = match b.below(12) {
        0 => 0.0,
        1 => 1.0,
        2 => 0.5,
        3 => [0.25, 0.75, 1.0 / 3.0, 2.0 / 3.0, 0.1, 0.9, 0.28, -0.0][b.below(8)],
        4 | 5 => (b.below(n as usize + 1) as f64 / n).min(1.0),
        6 => (b.below(n as usize) as f64 / (n - 1.0).max(1.0)).min(1.0),
        7 => {
            let q = (b.below(n as usize + 1) as f64 / n).min(1.0);
            let q = if b.bool() { q.next_up() } else { q.next_down() };
            q.clamp(0.0, 1.0)
        }
        8 => b.u32() as f64 / u32::MAX as f64,
        9 => (b.below(8) as f64 + 0.5) / 8.0,
        10 => f64::from_bits(b.u64()).abs().min(1.0),
        _ => (b.below(n as usize * 2 + 1) as f64 / (2.0 * n)).min(1.0),
    };
    if allow_invalid && b.one_in(40) {
        return [-0.5, 1.5, f64::NAN, f64::INFINITY, -1e-300, 1.0f64.next_up()][b.below(6)];
    }
    if q.is_nan() {
        0.5
    } else {
        q
    }
}

struct Lanes<T> {
    /// Each lane's values, in lane order.
    all: Vec<Vec<T>>,
}

impl<T: SelT> Lanes<T> {
    fn valid(&self, j: usize) -> Vec<T> {
        self.all[j].iter().copied().filter(|x| !isnan(*x)).collect()
    }
    fn has_nan(&self, j: usize) -> bool {
        self.all[j].iter().any(|x| isnan(*x))
    }
}

fn run<T: SelT>(b: &mut Bytes) {
    // ---- lanes and layout
    let huge = b.one_in(100);
    let nlanes = if huge { 1 } else { 1 + b.below(4) };
    let len = if huge {
        (1 << 18) + b.u16() as usize * 2
    } else {
        match b.below(16) {
            0..=11 => b.below(41),
            _ => 41 + b.u16() as usize % 2000,
        }
    };
    let data: Vec<T> = gen_values::<T>(b, nlanes * len, huge);
    let layout = b.below(3);
    // lanes along the last axis (contiguous), or the first (strided), or F order
    let (arr, lane_axis) = match layout {
        0 => (ArrayD::from_shape_vec(IxDyn(&[nlanes, len]), data).unwrap(), 1usize),
        1 => (ArrayD::from_shape_vec(IxDyn(&[len, nlanes]).f(), data).unwrap(), 0),
        _ => (ArrayD::from_shape_vec(IxDyn(&[len, nlanes]), data).unwrap(), 0),
    };
    let view = arr.view();
    let lanes = Lanes {
        all: view.lanes(Axis(lane_axis)).into_iter().map(|l| l.to_vec()).collect(),
    };
    assert_eq!(lanes.all.len(), nlanes);
    let axis: isize = if b.bool() { lane_axis as isize } else { lane_axis as isize - 2 };
    let desc = format!("{} {}x{} layout {} axis {}", T::NAME, nlanes, len, layout, axis);
    let sorted_valid: Vec<Vec<T>> = (0..nlanes).map(|j| sorted(&lanes.valid(j))).collect();
    let empty_lanes = sorted_valid.iter().filter(|s| s.is_empty()).count();

    // ---- medians
    for ignore_nan in [true, false] {
        let rep = nanops::report(&view, axis, Median(policy(ignore_nan)))
            .unwrap_or_else(|e| fail!(desc, "median({ignore_nan}): {e:?}"));
        if rep.values.shape() != [nlanes] {
            fail!(desc, "median shape {:?}", rep.values.shape());
        }
        for j in 0..nlanes {
            let want = if ignore_nan || !lanes.has_nan(j) {
                f(ref_median(&sorted_valid[j]))
            } else {
                f64::NAN
            };
            let got = rep.values[j].to_f64_exact();
            if !same(got, want) {
                fail!(desc, "median(ignore_nan={ignore_nan})[{j}] = {got:e}, expected {want:e}; lane {:?}", lanes.all[j]);
            }
        }
        // (the NaN-propagating median of a long lane that holds NaN stops at
        // the first pass and does not count it as empty: only nanmedian's count
        // is checked there)
        if rep.degenerate != empty_lanes && (ignore_nan || !huge) {
            fail!(desc, "median(ignore_nan={ignore_nan}) degenerate {} expected {empty_lanes}", rep.degenerate);
        }
    }

    // ---- quantiles
    let nq = if huge { 1 + b.below(2) } else { b.below(6) };
    let ref_n = sorted_valid.first().map_or(0, |s| s.len());
    let mut qs: Vec<f64> = (0..nq).map(|_| gen_q(b, ref_n, true)).collect();
    let config = b.below(8);
    let (q_dtype, integer_q) = match config {
        0..=3 => (QDtype::Float64, false),
        4 | 5 => (QDtype::Float32, false),
        6 => (QDtype::Float64, false), // with R = f64
        _ => (QDtype::Integer, true),
    };
    if q_dtype == QDtype::Float32 {
        // a float32 `q` array: the values are float32
        qs.iter_mut().for_each(|q| *q = f64::from(*q as f32));
    }
    if integer_q {
        qs.iter_mut().for_each(|q| *q = if *q >= 0.5 { 1.0 } else { 0.0 });
    }
    let invalid_q = qs.iter().copied().find(|q| !(0.0..=1.0).contains(q));
    let methods: Vec<QuantileMethod> = if huge {
        vec![QuantileMethod::ALL[b.below(13)]]
    } else {
        QuantileMethod::ALL.to_vec()
    };
    let desc = format!("{desc} q {qs:?} {q_dtype:?}{}", if config == 6 { " R=f64" } else { "" });
    for &method in &methods {
        for ignore_nan in [true, false] {
            let opts = QuantileOptions {
                method,
                nan_policy: policy(ignore_nan),
                weights: None,
                q_dtype,
            };
            if config == 6 {
                let r = T::report_f64(&view, &qs, axis, &opts);
                check_quantiles::<T, f64, f64>(&desc, r, &lanes, &sorted_valid, &qs, &opts, invalid_q, integer_q);
            } else if q_dtype == QDtype::Float32 {
                let r = quantile_report::<_, _, _, T>(&view, &qs, axis, &opts);
                check_quantiles::<T, f32, T>(&desc, r, &lanes, &sorted_valid, &qs, &opts, invalid_q, integer_q);
            } else {
                let r = quantile_report::<_, _, _, T>(&view, &qs, axis, &opts);
                check_quantiles::<T, f64, T>(&desc, r, &lanes, &sorted_valid, &qs, &opts, invalid_q, integer_q);
            }
        }
    }

    // ---- lane kernels of nanops::select
    if !huge {
        check_kernels::<T>(&desc, &lanes, &sorted_valid, &qs, b);
    }

    // ---- weighted
    if !huge && len <= 400 {
        check_weighted::<T>(&desc, &view, &lanes, lane_axis, axis, b);
    }
}

#[allow(clippy::too_many_arguments)]
fn check_quantiles<T: SelT, I: RefFloat, R>(
    desc: &str,
    r: nanops::Result<Report<R>>,
    lanes: &Lanes<T>,
    sorted_valid: &[Vec<T>],
    qs: &[f64],
    opts: &QuantileOptions<'_>,
    invalid_q: Option<f64>,
    integer_q: bool,
) where
    R: SelectFloat + RefFloat + Default,
{
    let method = opts.method;
    if let Some(bad) = invalid_q {
        match r {
            Err(Error::InvalidQuantile { q }) if q.to_bits() == bad.to_bits() => return,
            other => fail!(desc, "{method:?}: invalid q {bad} gave {:?}", other.map(|r| r.values)),
        }
    }
    let rep = r.unwrap_or_else(|e| fail!(desc, "{method:?} ignore_nan={}: {e:?}", opts.nan_policy.skips_nan()));
    let nlanes = lanes.all.len();
    if rep.values.shape() != [qs.len(), nlanes] {
        fail!(desc, "{method:?}: shape {:?}", rep.values.shape());
    }
    let empty = sorted_valid.iter().filter(|s| s.is_empty()).count();
    if !qs.is_empty() && rep.degenerate != empty {
        fail!(desc, "{method:?}: degenerate {} expected {empty}", rep.degenerate);
    }
    for (k, &q) in qs.iter().enumerate() {
        for j in 0..nlanes {
            let want = if !opts.nan_policy.skips_nan() && lanes.has_nan(j) {
                f64::NAN
            } else {
                f(np_quantile::<T, I, R>(&sorted_valid[j], q, method, integer_q))
            };
            let got = f(rep.values[[k, j]]);
            if !same(got, want) {
                fail!(
                    desc,
                    "{method:?} ignore_nan={} q={q:e} lane {j}: got {got:e}, expected {want:e}; sorted valid {:?}",
                    opts.nan_policy.skips_nan(),
                    sorted_valid[j]
                );
            }
        }
    }
}

fn check_kernels<T: SelT>(desc: &str, lanes: &Lanes<T>, sorted_valid: &[Vec<T>], qs: &[f64], b: &mut Bytes) {
    let mut scratch = QuantileScratch::new();
    let method = QuantileMethod::ALL[b.below(13)];
    let valid_qs: Vec<f64> = qs.iter().copied().filter(|q| (0.0..=1.0).contains(q)).collect();
    for (j, lane) in lanes.all.iter().enumerate() {
        // quantiles_in_place reorders, never changes, the values
        let mut vals = lanes.valid(j);
        let mut out = vec![T::default(); valid_qs.len()];
        quantiles_in_place(&mut vals, &valid_qs, method, &mut scratch, &mut out);
        // same multiset of bit patterns (total order: -0.0 before 0.0)
        let bits = |v: &[T]| {
            let mut v: Vec<f64> = v.iter().map(|x| f(*x)).collect();
            v.sort_by(f64::total_cmp);
            v.into_iter().map(f64::to_bits).collect::<Vec<_>>()
        };
        if bits(&vals) != bits(&lanes.valid(j)) {
            fail!(desc, "quantiles_in_place changed the values of lane {j}");
        }
        for (k, &q) in valid_qs.iter().enumerate() {
            let want = f(np_quantile::<T, f64, T>(&sorted_valid[j], q, method, false));
            if !same(f(out[k]), want) {
                fail!(desc, "quantiles_in_place {method:?} q={q:e} lane {j}: {:e} vs {want:e}", f(out[k]));
            }
        }
        // median_in_place
        let mut vals = lanes.valid(j);
        let m = f(median_in_place(&mut vals));
        let want = f(ref_median(&sorted_valid[j]));
        if !same(m, want) {
            fail!(desc, "median_in_place lane {j}: {m:e} vs {want:e}");
        }
        // a lane that still holds NaN (against the contract) gives NaN
        if lane.iter().any(|x| isnan(*x)) {
            let mut vals = lane.clone();
            let mut out = vec![T::default(); valid_qs.len()];
            quantiles_in_place(&mut vals, &valid_qs, method, &mut scratch, &mut out);
            if out.iter().any(|x| !isnan(*x)) {
                fail!(desc, "quantiles_in_place with NaN in lane {j}: {out:?}");
            }
            let mut vals = lane.clone();
            if !isnan(median_in_place(&mut vals)) {
                fail!(desc, "median_in_place with NaN in lane {j}");
            }
        }
        // out-of-range q: clipped to the ends (finite lanes), NaN q gives NaN
        let s = &sorted_valid[j];
        if !s.is_empty() && s.iter().all(|x| RefFloat::is_finite(*x)) {
            let wild = [-0.5, 1.5, f64::NAN, 2.0, -1e-300];
            let mut vals = s.clone();
            let mut out = vec![T::default(); wild.len()];
            quantiles_in_place(&mut vals, &wild, method, &mut scratch, &mut out);
            let (lo, hi) = (f(s[0]), f(s[s.len() - 1]));
            let want = [lo, hi, f64::NAN, hi, lo];
            for i in 0..wild.len() {
                if !same(f(out[i]), want[i]) {
                    fail!(desc, "quantiles_in_place {method:?} q={} lane {j}: {:e}, expected {:e}", wild[i], f(out[i]), want[i]);
                }
            }
        }
    }
    // weighted kernel argument errors
    let vals = [T::from_f64(1.0), T::from_f64(2.0)];
    let mut out = [T::default(); 1];
    match weighted_quantiles(&vals, &[1.0], &[0.5], QuantileMethod::InvertedCdf, &mut scratch, &mut out) {
        Err(WeightedQuantileError::LengthMismatch { values: 2, weights: 1 }) => {}
        other => fail!(desc, "weighted_quantiles length mismatch: {other:?}"),
    }
    match weighted_quantiles(&vals, &[1.0, -1.0], &[0.5], QuantileMethod::InvertedCdf, &mut scratch, &mut out) {
        Err(WeightedQuantileError::NegativeWeight) => {}
        other => fail!(desc, "weighted_quantiles negative weight: {other:?}"),
    }
}

fn check_weighted<T: SelT>(desc: &str, view: &ArrayViewD<'_, T>, lanes: &Lanes<T>, lane_axis: usize, axis: isize, b: &mut Bytes) {
    let shape = view.shape().to_vec();
    let nlanes = lanes.all.len();
    let len = shape[lane_axis];
    let fractional = b.one_in(4);
    let gen_w = |b: &mut Bytes| -> f64 {
        if fractional {
            [0.0, 0.5, 0.25, 0.1, 1.5, 1e-3, 1.0, 3.0][b.below(8)]
        } else {
            [0.0, 1.0, 1.0, 2.0, 3.0, 1.0, 0.0, 4.0][b.below(8)]
        }
    };
    // full-shape weights, or one weight per lane position broadcast across lanes
    let broadcast = b.one_in(3);
    let per_pos: Vec<f64> = (0..len).map(|_| gen_w(b)).collect();
    let full: ArrayD<f64> = if broadcast {
        let w1 = Array1::from(per_pos.clone()).into_dyn();
        let w1 = if lane_axis == 1 { w1.insert_axis(Axis(0)) } else { w1.insert_axis(Axis(1)) };
        w1.broadcast(IxDyn(&shape)).unwrap().to_owned()
    } else {
        ArrayD::from_shape_fn(IxDyn(&shape), |_| gen_w(b))
    };
    let mut full = full;
    // rarely: a bad weight, or the wrong shape
    let bad = b.one_in(30);
    if bad && !full.is_empty() {
        let i = b.below(full.len());
        full.as_slice_mut().unwrap()[i] = [-1.0, f64::NAN, f64::INFINITY, -0.0][b.below(4)];
    }
    let wrong_shape = b.one_in(30);
    let wshape_arr;
    let weights_view: ArrayViewD<'_, f64> = if wrong_shape {
        wshape_arr = ArrayD::<f64>::ones(IxDyn(&[shape[0] + 1, shape[1]]));
        wshape_arr.view()
    } else if broadcast && !bad {
        // a true zero-stride view
        let w1 = Array1::from(per_pos.clone()).into_dyn();
        let w1 = if lane_axis == 1 { w1.insert_axis(Axis(0)) } else { w1.insert_axis(Axis(1)) };
        wshape_arr = w1;
        wshape_arr.broadcast(IxDyn(&shape)).unwrap()
    } else {
        full.view()
    };
    // per-lane weights (lane order)
    let lane_w: Vec<Vec<f64>> = full.lanes(Axis(lane_axis)).into_iter().map(|l| l.to_vec()).collect();
    let any_bad_weight = full.iter().any(|w| !w.is_finite() || *w < 0.0);
    let nq = 1 + b.below(5);
    let qs: Vec<f64> = (0..nq).map(|_| gen_q(b, len, false)).collect();
    let method = [
        QuantileMethod::InvertedCdf,
        QuantileMethod::AveragedInvertedCdf,
        QuantileMethod::Linear,
        QuantileMethod::ALL[b.below(13)],
    ][b.below(4)];
    let q_f32 = method == QuantileMethod::InvertedCdf && b.one_in(4);
    let qs: Vec<f64> = if q_f32 { qs.iter().map(|&q| f64::from(q as f32)).collect() } else { qs };
    let desc = format!(
        "{desc} weighted {method:?} q {qs:?}{} fractional={fractional} broadcast={broadcast} bad={bad} wrong_shape={wrong_shape}",
        if q_f32 { " (f32 q)" } else { "" }
    );
    for ignore_nan in [true, false] {
        let opts = QuantileOptions {
            method,
            nan_policy: policy(ignore_nan),
            weights: Some(weights_view.view()),
            q_dtype: if q_f32 { QDtype::Float32 } else { QDtype::Float64 },
        };
        let r = quantile_report::<_, _, _, T>(view, &qs, axis, &opts);
        if !method.supports_weights() {
            match r {
                Err(Error::WeightsUnsupported { method: m }) if m == method.name() => continue,
                other => fail!(desc, "weights with {method:?}: {:?}", other.map(|r| r.values)),
            }
        }
        if wrong_shape {
            match r {
                Err(Error::WeightsShape { .. }) => continue,
                other => fail!(desc, "wrong weights shape: {:?}", other.map(|r| r.values)),
            }
        }
        if any_bad_weight {
            match r {
                Err(Error::InvalidWeight) => continue,
                other => fail!(desc, "bad weight: {:?}", other.map(|r| r.values)),
            }
        }
        // lanes that are looked at: not NaN-propagated, with a valid value
        let mut zero_total = false;
        // per lane and q: the acceptable results (empty: not checked)
        let mut expected: Vec<Vec<Vec<f64>>> = Vec::new();
        let mut empty = 0;
        for j in 0..nlanes {
            let lane = &lanes.all[j];
            let (vals, ws): (Vec<T>, Vec<f64>) = lane
                .iter()
                .zip(&lane_w[j])
                .filter(|(x, _)| !isnan(**x))
                .map(|(x, w)| (*x, *w))
                .unzip();
            if vals.is_empty() || (!ignore_nan && lanes.has_nan(j)) {
                empty += vals.is_empty() as usize;
                expected.push(vec![vec![f64::NAN]; nq]);
                continue;
            }
            if ws.iter().sum::<f64>() <= 0.0 {
                zero_total = true;
                expected.push(vec![vec![]; nq]);
                continue;
            }
            let integer = ws.iter().all(|w| w.fract() == 0.0);
            let row = qs
                .iter()
                .map(|&q| match method {
                    QuantileMethod::InvertedCdf => vec![f(if q_f32 {
                        np_weighted_inverted_cdf::<T, f32>(&vals, &ws, q)
                    } else {
                        np_weighted_inverted_cdf::<T, f64>(&vals, &ws, q)
                    })],
                    _ if integer => averaged_by_repetition(&vals, &ws, q).into_iter().map(f).collect(),
                    _ => vec![],
                })
                .collect();
            // integer weights: inverted_cdf agrees with the repeated sample,
            // except where c[k]/W lands on q up to rounding
            if method == QuantileMethod::InvertedCdf && integer && !q_f32 {
                let rep = repeated(&vals, &ws);
                let total: f64 = ws.iter().sum();
                for &q in &qs {
                    let w = f(np_weighted_inverted_cdf::<T, f64>(&vals, &ws, q));
                    let u = f(np_quantile::<T, f64, T>(&rep, q, QuantileMethod::InvertedCdf, false));
                    let boundary = (0..=total as usize).any(|c| {
                        let c = c as f64;
                        (c / total - q).abs() <= 4.0 * f64::EPSILON || (total * q - c).abs() <= 4.0 * f64::EPSILON * total
                    });
                    if !same(w, u) && !boundary {
                        fail!(desc, "weighted inverted_cdf {w:e} != repeated-sample inverted_cdf {u:e} at q={q}; values {vals:?} weights {ws:?}");
                    }
                }
            }
            expected.push(row);
        }
        if zero_total {
            match r {
                Err(Error::InvalidWeight) => continue,
                other => fail!(desc, "a lane with zero total weight: {:?}", other.map(|r| r.values)),
            }
        }
        let rep = r.unwrap_or_else(|e| fail!(desc, "weighted ignore_nan={ignore_nan}: {e:?}"));
        if rep.values.shape() != [nq, nlanes] {
            fail!(desc, "weighted shape {:?}", rep.values.shape());
        }
        if rep.degenerate != empty {
            fail!(desc, "weighted degenerate {} expected {empty}", rep.degenerate);
        }
        for (j, row) in expected.iter().enumerate() {
            for (k, want) in row.iter().enumerate() {
                let got = f(rep.values[[k, j]]);
                if !want.is_empty() {
                    if !want.iter().any(|w| same(got, *w)) {
                        fail!(
                            desc,
                            "weighted ignore_nan={ignore_nan} q={} lane {j}: got {got:e}, expected one of {want:?}; lane {:?} weights {:?}",
                            qs[k],
                            lanes.all[j],
                            lane_w[j]
                        );
                    }
                }
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    match b.below(3) {
        0 | 1 => run::<f64>(&mut b),
        _ => run::<f32>(&mut b),
    }
});
