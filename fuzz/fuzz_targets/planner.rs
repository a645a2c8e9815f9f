//! Fuzz target `planner`: random views (shape, strides — negative, zero,
//! gapped —, axis order, offset) and random axes through the public API,
//! every result checked against a slow, obvious reference that visits every
//! index tuple of the view through ndarray's own indexing and groups the
//! values by their kept indices.
//!
//! Functions: nansum nanprod nancount nanmean nanvar nanstd nanmin nanmax
//! (and their degenerate counts through `nanops::report`), nanargmin nanargmax nancumsum
//! nancumprod, nanmedian median nanquantile quantile, the `NanOps` trait, for
//! `f64`, `f32` and `i64`. Invalid axes must give an axis error, never a panic.
#![no_main]

#[path = "common.rs"]
mod common;

use common::*;
use libfuzzer_sys::fuzz_target;
use nanops::select::SelectFloat;
use nanops::stats::{Median, NanMax, NanMean, NanMin, NanStd, NanVar};
use nanops::{Axes, Element, Error, NanOps, NanPolicy, QuantileElement, QuantileMethod};

/// An index tuple (ndim ≤ 8) without a heap allocation.
type Idx = ([usize; 8], usize);
use ndarray::{ArrayD, ArrayViewD, Axis, IxDyn, ShapeBuilder, Slice};
use std::fmt::Debug;

// ---------------------------------------------------------------- element types

trait Fz: Element + QuantileElement<Value: RefFloat> + Debug + PartialOrd + Send + Sync + 'static {
    const NAME: &'static str;
    /// Results (sum, mean, var) are `f32` (so "about one f32 ulp").
    const F32_RESULT: bool;
    fn gen(mode: u8, b: &mut Bytes, rng: &mut SplitMix, from_input: bool, sub: &[f64]) -> Self;
    /// The value as the reference sees it (`f64`; ints rounded as `as f64`).
    fn x(self) -> f64;
    fn nan(self) -> bool;
    fn same(a: Self, b: Self) -> bool;
    fn sum_f(s: Self::Sum) -> f64;
    fn mean_f(s: Self::Mean) -> f64;
    fn var_f(s: Self::Var) -> f64;
    /// Exact integer sum/product (wrapping), for integer types.
    fn wrapping(xs: &[Self], prod: bool) -> Option<i128>;
    fn sum_i(s: Self::Sum) -> i128;
}

fn float_gen(mode: u8, b: &mut Bytes, rng: &mut SplitMix, from_input: bool, sub: &[f64]) -> f64 {
    if mode % 4 == 2 {
        let bits = if from_input { b.u64() } else { rng.next() };
        // Mostly moderate exponents, sometimes anything.
        return if bits & 0xF == 0 {
            f64::from_bits(bits)
        } else {
            let m = (bits >> 12) as f64 / (1u64 << 52) as f64;
            let e = ((bits >> 4) & 0x3F) as i32 - 32;
            (m - 0.5) * 2f64.powi(e)
        };
    }
    let mut byte = || if from_input { b.u8() } else { rng.next() as u8 };
    match mode % 4 {
        0 => match byte() % 8 {
            7 => f64::NAN,
            k => f64::from(k) - 3.0,
        },
        1 => {
            let k = byte() as usize;
            if k == 255 {
                nan_with_payload()
            } else {
                F64_PALETTE[k % F64_PALETTE.len()]
            }
        }
        _ => sub[byte() as usize % sub.len()],
    }
}

impl Fz for f64 {
    const NAME: &'static str = "f64";
    const F32_RESULT: bool = false;
    fn gen(mode: u8, b: &mut Bytes, rng: &mut SplitMix, from_input: bool, sub: &[f64]) -> Self {
        float_gen(mode, b, rng, from_input, sub)
    }
    fn x(self) -> f64 {
        self
    }
    fn nan(self) -> bool {
        self.is_nan()
    }
    fn same(a: Self, b: Self) -> bool {
        same(a, b)
    }
    fn sum_f(s: f64) -> f64 {
        s
    }
    fn mean_f(s: f64) -> f64 {
        s
    }
    fn var_f(s: f64) -> f64 {
        s
    }
    fn wrapping(_: &[Self], _: bool) -> Option<i128> {
        None
    }
    fn sum_i(_: f64) -> i128 {
        unreachable!()
    }
}

impl Fz for f32 {
    const NAME: &'static str = "f32";
    const F32_RESULT: bool = true;
    fn gen(mode: u8, b: &mut Bytes, rng: &mut SplitMix, from_input: bool, sub: &[f64]) -> Self {
        if mode % 4 == 2 && (if from_input { b.u8() } else { rng.next() as u8 }) & 3 == 0 {
            return f32::from_bits(if from_input { b.u32() } else { rng.next() as u32 });
        }
        float_gen(mode, b, rng, from_input, sub) as f32
    }
    fn x(self) -> f64 {
        f64::from(self)
    }
    fn nan(self) -> bool {
        self.is_nan()
    }
    fn same(a: Self, b: Self) -> bool {
        same(a.into(), b.into())
    }
    fn sum_f(s: f32) -> f64 {
        s.into()
    }
    fn mean_f(s: f32) -> f64 {
        s.into()
    }
    fn var_f(s: f32) -> f64 {
        s.into()
    }
    fn wrapping(_: &[Self], _: bool) -> Option<i128> {
        None
    }
    fn sum_i(_: f32) -> i128 {
        unreachable!()
    }
}

const I64_PALETTE: [i64; 16] = [
    0,
    1,
    -1,
    2,
    3,
    -7,
    100,
    i64::MAX,
    i64::MIN,
    i64::MAX - 1,
    1 << 53,
    (1 << 53) + 1,
    -(1 << 62),
    1 << 62,
    42,
    1_000_000_007,
];

impl Fz for i64 {
    const NAME: &'static str = "i64";
    const F32_RESULT: bool = false;
    fn gen(mode: u8, b: &mut Bytes, rng: &mut SplitMix, from_input: bool, _: &[f64]) -> Self {
        if mode % 3 == 2 {
            return (if from_input { b.u64() } else { rng.next() }) as i64;
        }
        let byte = if from_input { b.u8() } else { rng.next() as u8 };
        match mode % 3 {
            0 => i64::from(byte % 7) - 3,
            _ => I64_PALETTE[byte as usize % 16],
        }
    }
    fn x(self) -> f64 {
        self as f64
    }
    fn nan(self) -> bool {
        false
    }
    fn same(a: Self, b: Self) -> bool {
        a == b
    }
    fn sum_f(s: i64) -> f64 {
        s as f64
    }
    fn mean_f(s: f64) -> f64 {
        s
    }
    fn var_f(s: f64) -> f64 {
        s
    }
    fn wrapping(xs: &[Self], prod: bool) -> Option<i128> {
        Some(if prod {
            xs.iter().fold(1i64, |a, &x| a.wrapping_mul(x)) as i128
        } else {
            xs.iter().fold(0i64, |a, &x| a.wrapping_add(x)) as i128
        })
    }
    fn sum_i(s: i64) -> i128 {
        s as i128
    }
}

// ---------------------------------------------------------------- the case

struct Case {
    desc: String,
}

macro_rules! fail {
    ($case:expr, $($arg:tt)*) => {
        panic!("[{}] {}", $case.desc, format!($($arg)*))
    };
}

/// Axis errors the crate may give for these axes: the first failure in the
/// given order (ufunc.reduce's order), or NumPy's `normalize_axis_tuple`
/// order (all bounds first, then duplicates).
fn expected_axes(axes: &Axes, nd: usize) -> Result<Vec<usize>, Vec<Error>> {
    let given: Vec<isize> = match axes {
        Axes::All => return Ok((0..nd).collect()),
        Axes::One(a) => vec![*a],
        Axes::Many(v) => v.clone(),
    };
    let n = nd as isize;
    let norm = |a: isize| if a < 0 { a + n } else { a };
    let oob = |a: isize| a < -n || a >= n;
    let mut errs = Vec::new();
    // in order
    let mut seen = Vec::new();
    for &a in &given {
        if oob(a) {
            errs.push(Error::AxisOutOfBounds { axis: a, ndim: nd });
            break;
        }
        let k = norm(a) as usize;
        if seen.contains(&k) {
            errs.push(Error::DuplicateAxis { axis: k });
            break;
        }
        seen.push(k);
    }
    // bounds first
    if let Some(&a) = given.iter().find(|&&a| oob(a)) {
        errs.push(Error::AxisOutOfBounds { axis: a, ndim: nd });
    }
    if errs.is_empty() {
        let mut v = seen.clone();
        v.sort_unstable();
        return Ok(v);
    }
    Err(errs)
}

/// Every element of the view in C order with its index tuple, through
/// ndarray's indexing.
fn elements<T: Copy>(v: &ArrayViewD<'_, T>) -> Vec<(Idx, T)> {
    let shape = v.shape().to_vec();
    let nd = shape.len();
    assert!(nd <= 8);
    let total: usize = shape.iter().product();
    let mut out = Vec::with_capacity(total);
    if total == 0 {
        return out;
    }
    let mut idx = [0usize; 8];
    loop {
        out.push(((idx, nd), v[IxDyn(&idx[..nd])]));
        let mut d = shape.len();
        loop {
            if d == 0 {
                return out;
            }
            d -= 1;
            idx[d] += 1;
            if idx[d] < shape[d] {
                break;
            }
            idx[d] = 0;
        }
    }
}

/// Values grouped by output element (C order over the kept axes), each group
/// in C order of the reduced indices; and the output shape.
fn group<T: Copy>(els: &[(Idx, T)], shape: &[usize], red: &[usize]) -> (Vec<usize>, Vec<Vec<T>>) {
    let kept: Vec<usize> = (0..shape.len()).filter(|i| !red.contains(i)).collect();
    let out_shape: Vec<usize> = kept.iter().map(|&i| shape[i]).collect();
    let n_out: usize = out_shape.iter().product();
    let mut groups = vec![Vec::new(); n_out];
    for ((idx, _), x) in els {
        let mut o = 0;
        for &k in &kept {
            o = o * shape[k] + idx[k];
        }
        groups[o].push(*x);
    }
    (out_shape, groups)
}

fn check_shape<U>(case: &Case, what: &str, got: &ArrayD<U>, want: &[usize]) {
    if got.shape() != want {
        fail!(case, "{what}: shape {:?}, expected {:?}", got.shape(), want);
    }
}

/// `got` (a float result) against `exact` with an absolute tolerance in f64
/// (`tol`), plus one rounding of the result type.
fn close(got: f64, exact: f64, tol: f64, f32res: bool) -> bool {
    if got.is_nan() || exact.is_nan() {
        return got.is_nan() && exact.is_nan();
    }
    let lim = if f32res { f64::from(f32::MAX) } else { f64::MAX };
    if got.is_infinite() && exact.is_finite() && exact.abs() + tol * 2.0 >= lim {
        // At the edge of the result type's range: overflow is acceptable.
        return got.signum() == exact.signum();
    }
    if exact.is_infinite() || got.is_infinite() {
        return got == exact;
    }
    if f32res {
        (got - exact).abs() <= ulp32(exact) + tol
    } else {
        (got - exact).abs() <= tol + 2.0 * f64::EPSILON * exact.abs()
    }
}

fn log2n(n: usize) -> f64 {
    (n.max(2) as f64).log2().ceil()
}

/// Expected sum of the non-NaN values: `Ok(value, tolerance)`, `Err(())` if
/// the values overflow on the way (then any result is accepted).
fn ref_sum(xs: &[f64]) -> Result<(f64, f64), ()> {
    let pinf = xs.iter().any(|&x| x == f64::INFINITY);
    let ninf = xs.iter().any(|&x| x == f64::NEG_INFINITY);
    if pinf && ninf {
        return Ok((f64::NAN, 0.0));
    }
    let finite_abs: f64 = xs.iter().filter(|x| x.is_finite()).map(|x| x.abs()).sum();
    if (pinf || ninf) && !(finite_abs < 1e306) {
        // The finite values may overflow to the opposite infinity on the way,
        // depending on the order of the additions (NumPy's too): inf or NaN.
        return Err(());
    }
    if pinf {
        return Ok((f64::INFINITY, 0.0));
    }
    if ninf {
        return Ok((f64::NEG_INFINITY, 0.0));
    }
    let a: f64 = xs.iter().map(|x| x.abs()).sum();
    if !a.is_finite() || a > 1e306 {
        return Err(());
    }
    let s = fsum(xs.iter().copied()).ok_or(())?;
    // No worse than NumPy's pairwise summation.
    let tol = f64::EPSILON * (2.0 * s.abs() + a * (log2n(xs.len()) + 2.0));
    Ok((s, tol))
}

fn run_case<T: Fz>(b: &mut Bytes) {
    // ---- the base buffer
    let huge = b.one_in(64) && b.one_in(4);
    let mut rng = SplitMix(b.u64());
    let mode = b.u8();
    let sub: Vec<f64> = {
        let k = 1 + b.below(4);
        (0..k).map(|_| F64_PALETTE[b.below(F64_PALETTE.len())]).collect()
    };
    let mut base_shape: Vec<usize>;
    if huge {
        let nd = 1 + b.below(2);
        base_shape = (0..nd).map(|_| 1 + b.below(2)).collect();
        let big = b.below(nd);
        base_shape[big] = (1 << 17) + b.u16() as usize * 2;
    } else {
        let nd = b.below(6);
        base_shape = (0..nd)
            .map(|_| {
                let c = b.u8();
                match c % 16 {
                    0 => 0,
                    1..=3 => 1,
                    4..=10 => 2 + (c as usize >> 4) % 4,
                    11..=13 => 5 + (c as usize >> 4),
                    14 => 20 + b.u8() as usize,
                    _ => 256 + b.u16() as usize % 2300,
                }
            })
            .collect();
        let cap: usize = if b.one_in(8) { 1 << 14 } else { 1 << 11 };
        while base_shape.iter().product::<usize>() > cap {
            let m = (0..base_shape.len()).max_by_key(|&i| base_shape[i]).unwrap();
            base_shape[m] /= 2;
        }
    }
    let total: usize = base_shape.iter().product();
    let from_input = !huge;
    let data: Vec<T> = (0..total)
        .map(|_| {
            let fi = from_input && b.remaining() > 0;
            T::gen(mode, b, &mut rng, fi, &sub)
        })
        .collect();
    let fortran = b.bool();
    let base = if fortran {
        ArrayD::from_shape_vec(IxDyn(&base_shape).f(), data).unwrap()
    } else {
        ArrayD::from_shape_vec(IxDyn(&base_shape), data).unwrap()
    };

    // ---- view operations
    let mut v = base.view();
    let mut ops = Vec::new();
    let n_ops = b.below(7);
    for _ in 0..n_ops {
        let nd = v.ndim();
        match b.below(6) {
            0 if nd > 0 => {
                let a = b.below(nd);
                let len = v.len_of(Axis(a)) as isize;
                let mut s = b.below(len as usize + 1) as isize;
                let mut e = len - b.below(len as usize + 1) as isize;
                if s > e {
                    std::mem::swap(&mut s, &mut e);
                }
                let step = [1, 2, 3, -1, -2, -3, 5, -1][b.below(8)];
                v.slice_axis_inplace(Axis(a), Slice::new(s, Some(e), step));
                ops.push(format!("slice(ax{a},{s}..{e};{step})"));
            }
            1 if nd > 0 => {
                let a = b.below(nd);
                v.invert_axis(Axis(a));
                ops.push(format!("invert(ax{a})"));
            }
            2 if nd > 1 => {
                let mut perm: Vec<usize> = (0..nd).collect();
                for i in (1..nd).rev() {
                    perm.swap(i, b.below(i + 1));
                }
                ops.push(format!("permute{perm:?}"));
                v = v.permuted_axes(perm);
            }
            3 if nd > 0 => {
                let a = b.below(nd);
                let len = v.len_of(Axis(a));
                if len > 0 {
                    let i = b.below(len);
                    v.index_axis_inplace(Axis(a), i);
                    ops.push(format!("index(ax{a}={i})"));
                }
            }
            4 if nd < 6 => {
                let a = b.below(nd + 1);
                v.insert_axis_inplace(Axis(a));
                ops.push(format!("insert(ax{a})"));
            }
            _ => {}
        }
    }
    // ---- broadcasting (stride 0) of some length-1 axes
    let mut bshape = v.shape().to_vec();
    let mut bcast = false;
    if b.one_in(3) {
        for d in bshape.iter_mut() {
            if *d == 1 && b.bool() {
                *d = [0, 2, 3, 4, 7][b.below(5)];
                bcast = true;
            }
        }
    }
    let bview;
    let view: ArrayViewD<'_, T> = if bcast {
        bview = v.broadcast(IxDyn(&bshape)).expect("broadcast of length-1 axes");
        ops.push(format!("broadcast{bshape:?}"));
        bview.view()
    } else {
        v.view()
    };
    let case = Case {
        desc: format!(
            "{} base{:?}{} ops {:?} → shape {:?} strides {:?}",
            T::NAME,
            base_shape,
            if fortran { "F" } else { "C" },
            ops,
            view.shape(),
            view.strides()
        ),
    };

    // ---- axes
    let nd = view.ndim() as isize;
    let pick_axis = |b: &mut Bytes| -> isize {
        if b.one_in(8) {
            b.below(2 * nd as usize + 5) as isize - nd - 2
        } else if nd == 0 {
            0
        } else {
            let a = b.below(nd as usize) as isize;
            if b.bool() {
                a - nd
            } else {
                a
            }
        }
    };
    let axes = match b.below(8) {
        0 | 1 => Axes::All,
        2..=4 => Axes::One(pick_axis(b)),
        5 | 6 => {
            let mut all: Vec<usize> = (0..nd as usize).collect();
            for i in (1..all.len()).rev() {
                all.swap(i, b.below(i + 1));
            }
            let k = b.below(nd as usize + 1);
            Axes::Many(
                all[..k]
                    .iter()
                    .map(|&a| if b.bool() { a as isize - nd } else { a as isize })
                    .collect(),
            )
        }
        _ => {
            let k = b.below(nd as usize + 2);
            Axes::Many((0..k).map(|_| pick_axis(b)).collect())
        }
    };
    let arg_axis: Option<isize> = if b.one_in(3) { None } else { Some(pick_axis(b)) };
    let ddof = [0.0, 1.0, 2.0, 0.5, -1.0][b.below(5)];
    let method = QuantileMethod::ALL[b.below(13)];
    let qs: Vec<f64> = (0..b.below(4))
        .map(|_| [0.0, 1.0, 0.5, 0.25, 0.1, 0.9, 1.0 / 3.0][b.below(7)])
        .collect();
    let case = Case {
        desc: format!("{} axes {:?} arg_axis {:?} ddof {} {:?} q {:?}", case.desc, axes, arg_axis, ddof, method, qs),
    };

    let els = elements(&view);
    check_reductions(&case, &view, &els, &axes, ddof);
    check_order(&case, &view, &els, &axes, method, &qs);
    check_arg_cum(&case, &view, &els, arg_axis);
}

fn expect_axis_err<U: Debug>(case: &Case, what: &str, r: nanops::Result<U>, allowed: &[Error]) {
    match r {
        Err(e) if allowed.contains(&e) => {}
        other => fail!(case, "{what}: expected one of {allowed:?}, got {other:?}"),
    }
}

fn check_reductions<T: Fz>(case: &Case, view: &ArrayViewD<'_, T>, els: &[(Idx, T)], axes: &Axes, ddof: f64) {
    let nd = view.ndim();
    let red = match expected_axes(axes, nd) {
        Ok(r) => r,
        Err(allowed) => {
            expect_axis_err(case, "nansum", nanops::nansum(view, axes.clone()), &allowed);
            expect_axis_err(case, "nanprod", nanops::nanprod(view, axes.clone()), &allowed);
            expect_axis_err(case, "nancount", nanops::nancount(view, axes.clone()), &allowed);
            expect_axis_err(case, "nanmean", nanops::nanmean(view, axes.clone()), &allowed);
            expect_axis_err(case, "nanvar", nanops::nanvar(view, axes.clone(), ddof), &allowed);
            expect_axis_err(case, "nanstd", view.nanstd(axes.clone(), ddof), &allowed);
            expect_axis_err(case, "nanmin", nanops::nanmin(view, axes.clone()), &allowed);
            expect_axis_err(case, "nanmax", view.nanmax(axes.clone()), &allowed);
            expect_axis_err(case, "nanmedian", nanops::nanmedian(view, axes.clone()), &allowed);
            return;
        }
    };
    let (out_shape, groups) = group(els, view.shape(), &red);
    let lane_len: usize = red.iter().map(|&i| view.shape()[i]).product();
    let vals: Vec<Vec<f64>> = groups
        .iter()
        .map(|g| g.iter().filter(|x| !x.nan()).map(|x| x.x()).collect())
        .collect();

    // nancount
    let got = nanops::nancount(view, axes.clone()).unwrap_or_else(|e| fail!(case, "nancount: {e:?}"));
    check_shape(case, "nancount", &got, &out_shape);
    for (j, (g, w)) in got.iter().zip(&vals).enumerate() {
        if *g != w.len() as u64 {
            fail!(case, "nancount[{j}] = {g}, expected {}", w.len());
        }
    }

    // nansum
    let got = nanops::nansum(view, axes.clone()).unwrap_or_else(|e| fail!(case, "nansum: {e:?}"));
    check_shape(case, "nansum", &got, &out_shape);
    for (j, (g, grp)) in got.iter().zip(&groups).enumerate() {
        if let Some(w) = T::wrapping(grp, false) {
            if T::sum_i(*g) != w {
                fail!(case, "nansum[{j}] = {g:?}, expected {w} (wrapping)");
            }
            continue;
        }
        let g = T::sum_f(*g);
        if let Ok((s, tol)) = ref_sum(&vals[j]) {
            if !close(g, s, tol, T::F32_RESULT) {
                fail!(case, "nansum[{j}] = {g:e}, expected {s:e} ± {tol:e}; values {:?}", vals[j]);
            }
        }
    }

    // nanprod
    let got = nanops::nanprod(view, axes.clone()).unwrap_or_else(|e| fail!(case, "nanprod: {e:?}"));
    check_shape(case, "nanprod", &got, &out_shape);
    for (j, (g, grp)) in got.iter().zip(&groups).enumerate() {
        if let Some(w) = T::wrapping(grp, true) {
            if T::sum_i(*g) != w {
                fail!(case, "nanprod[{j}] = {g:?}, expected {w} (wrapping)");
            }
            continue;
        }
        let g = T::sum_f(*g);
        let xs = &vals[j];
        // Only where no order of the products can overflow or underflow.
        let spread: f64 = xs.iter().filter(|x| **x != 0.0 && x.is_finite()).map(|x| x.abs().log2().abs()).sum();
        if spread > 1000.0 {
            continue;
        }
        let has_inf = xs.iter().any(|x| x.is_infinite());
        let has_zero = xs.iter().any(|x| *x == 0.0);
        let neg = xs.iter().filter(|x| x.is_sign_negative()).count() % 2 == 1;
        let ok = if has_inf && has_zero {
            g.is_nan()
        } else if has_inf {
            g == if neg { f64::NEG_INFINITY } else { f64::INFINITY }
        } else if has_zero {
            g == 0.0
        } else {
            let p: f64 = xs.iter().product();
            close(g, p, p.abs() * f64::EPSILON * (xs.len() as f64 + 2.0), T::F32_RESULT)
        };
        if !ok {
            fail!(case, "nanprod[{j}] = {g:e}; values {xs:?}");
        }
    }

    // nanmean (+ report)
    let rep = nanops::report(view, axes.clone(), NanMean).unwrap_or_else(|e| fail!(case, "nanmean: {e:?}"));
    check_shape(case, "nanmean", &rep.values, &out_shape);
    let empty = vals.iter().filter(|w| w.is_empty()).count();
    if rep.degenerate != empty {
        fail!(case, "nanmean degenerate {} expected {empty}", rep.degenerate);
    }
    let plain = nanops::nanmean(view, axes.clone()).unwrap();
    for (j, (g, p)) in rep.values.iter().zip(plain.iter()).enumerate() {
        let (g, p) = (T::mean_f(*g), T::mean_f(*p));
        if !same(g, p) {
            fail!(case, "nanmean[{j}] {g:e} != nanmean_report {p:e}");
        }
        let xs = &vals[j];
        if xs.is_empty() {
            if !g.is_nan() {
                fail!(case, "nanmean[{j}] of empty = {g:e}");
            }
            continue;
        }
        if let Ok((s, tol)) = ref_sum(xs) {
            let n = xs.len() as f64;
            if !close(g, s / n, tol / n + f64::EPSILON * (s / n).abs(), T::F32_RESULT) {
                fail!(case, "nanmean[{j}] = {g:e}, expected {:e}; values {xs:?}", s / n);
            }
        }
    }

    // nanvar / nanstd (+ reports)
    let var = nanops::report(view, axes.clone(), NanVar(ddof.into())).unwrap_or_else(|e| fail!(case, "nanvar: {e:?}"));
    let std = nanops::report(view, axes.clone(), NanStd(ddof.into())).unwrap_or_else(|e| fail!(case, "nanstd: {e:?}"));
    check_shape(case, "nanvar", &var.values, &out_shape);
    check_shape(case, "nanstd", &std.values, &out_shape);
    let degenerate = vals.iter().filter(|w| w.len() as f64 - ddof <= 0.0).count();
    if var.degenerate != degenerate || std.degenerate != degenerate {
        fail!(case, "nanvar/nanstd degenerate {}/{} expected {degenerate}", var.degenerate, std.degenerate);
    }
    let via_trait = view.nanvar(axes.clone(), ddof).unwrap();
    for (j, ((gv, gs), gt)) in var.values.iter().zip(std.values.iter()).zip(via_trait.iter()).enumerate() {
        let (gv, gs, gt) = (T::var_f(*gv), T::var_f(*gs), T::var_f(*gt));
        if !same(gv, gt) {
            fail!(case, "nanvar[{j}] {gv:e} != NanOps::nanvar {gt:e}");
        }
        let xs = &vals[j];
        let dof = xs.len() as f64 - ddof;
        if dof <= 0.0 || xs.iter().any(|x| x.is_infinite()) {
            if !gv.is_nan() || !gs.is_nan() {
                fail!(case, "nanvar/nanstd[{j}] = {gv:e}/{gs:e}, expected NaN (dof {dof}); values {xs:?}");
            }
            continue;
        }
        let sq: f64 = xs.iter().map(|x| x * x).sum();
        if !sq.is_finite() || sq > 1e290 {
            continue;
        }
        let n = xs.len() as f64;
        let m = fsum(xs.iter().copied()).unwrap() / n;
        let m2 = fsum(xs.iter().map(|x| (x - m) * (x - m))).unwrap();
        let want = m2 / dof;
        let tol = 8.0 * f64::EPSILON * (log2n(xs.len()) + 2.0) * sq / dof + f64::MIN_POSITIVE;
        if !(gv >= 0.0) || !close(gv, want, tol, T::F32_RESULT) {
            fail!(case, "nanvar[{j}] = {gv:e}, expected {want:e} ± {tol:e}; values {xs:?}");
        }
        let want_s = want.sqrt();
        let tol_s = tol.sqrt() + 2.0 * f64::EPSILON * want_s;
        if !(gs >= 0.0) || !close(gs, want_s, tol_s, T::F32_RESULT) {
            fail!(case, "nanstd[{j}] = {gs:e}, expected {want_s:e} ± {tol_s:e}; values {xs:?}");
        }
    }

    // nanmin / nanmax (+ reports)
    let n_out: usize = out_shape.iter().product();
    if n_out > 0 && lane_len == 0 {
        for (what, r) in [
            ("nanmin", nanops::report(view, axes.clone(), NanMin).map(|_| ())),
            ("nanmax", nanops::report(view, axes.clone(), NanMax).map(|_| ())),
        ] {
            match r {
                Err(Error::EmptyReduction { .. }) => {}
                other => fail!(case, "{what} over an empty axis: {other:?}"),
            }
        }
    } else {
        for max in [false, true] {
            let what = if max { "nanmax" } else { "nanmin" };
            let rep = if max {
                nanops::report(view, axes.clone(), NanMax)
            } else {
                nanops::report(view, axes.clone(), NanMin)
            }
            .unwrap_or_else(|e| fail!(case, "{what}: {e:?}"));
            check_shape(case, what, &rep.values, &out_shape);
            let mut all_nan = 0;
            for (j, (g, grp)) in rep.values.iter().zip(&groups).enumerate() {
                let mut best: Option<T> = None;
                for &x in grp.iter().filter(|x| !x.nan()) {
                    best = match best {
                        None => Some(x),
                        Some(bx) if (max && x > bx) || (!max && x < bx) => Some(x),
                        keep => keep,
                    };
                }
                match best {
                    None => {
                        all_nan += 1;
                        if !g.nan() {
                            fail!(case, "{what}[{j}] of all-NaN = {g:?}");
                        }
                    }
                    Some(bx) => {
                        if !T::same(*g, bx) {
                            fail!(case, "{what}[{j}] = {g:?}, expected {bx:?}; group {grp:?}");
                        }
                    }
                }
            }
            if rep.degenerate != all_nan {
                fail!(case, "{what} degenerate {} expected {all_nan}", rep.degenerate);
            }
        }
    }
}

fn check_order<T: Fz>(
    case: &Case,
    view: &ArrayViewD<'_, T>,
    els: &[(Idx, T)],
    axes: &Axes,
    method: QuantileMethod,
    qs: &[f64],
) {
    let red = match expected_axes(axes, view.ndim()) {
        Ok(r) => r,
        Err(allowed) => {
            expect_axis_err(case, "median", nanops::median(view, axes.clone()), &allowed);
            expect_axis_err(case, "nanquantile", nanops::nanquantile(view, qs, axes.clone(), method), &allowed);
            return;
        }
    };
    let (out_shape, groups) = group(els, view.shape(), &red);
    for ignore_nan in [true, false] {
        let what = if ignore_nan { "nanmedian" } else { "median" };
        let rep = nanops::report(view, axes.clone(), Median(if ignore_nan { NanPolicy::Omit } else { NanPolicy::Propagate })).unwrap_or_else(|e| fail!(case, "{what}: {e:?}"));
        check_shape(case, what, &rep.values, &out_shape);
        let mut empty = 0;
        for (j, (g, grp)) in rep.values.iter().zip(&groups).enumerate() {
            let has_nan = grp.iter().any(|x| x.nan());
            let xs: Vec<T::Value> = grp.iter().filter(|x| !x.nan()).map(|x| x.to_value()).collect();
            empty += xs.is_empty() as usize;
            let want = if has_nan && !ignore_nan { f64::NAN } else { RefFloat::to_f64(ref_median(&xs)) };
            let g = g.to_f64_exact();
            if !same(g, want) {
                fail!(case, "{what}[{j}] = {g:e}, expected {want:e}; group {grp:?}");
            }
        }
        if rep.degenerate != empty {
            fail!(case, "{what} degenerate {} expected {empty}", rep.degenerate);
        }
    }
    for ignore_nan in [true, false] {
        let what = if ignore_nan { "nanquantile" } else { "quantile" };
        let got = if ignore_nan {
            nanops::nanquantile(view, qs, axes.clone(), method)
        } else {
            nanops::quantile(view, qs, axes.clone(), method)
        }
        .unwrap_or_else(|e| fail!(case, "{what}: {e:?}"));
        let mut want_shape = vec![qs.len()];
        want_shape.extend_from_slice(&out_shape);
        check_shape(case, what, &got, &want_shape);
        let n_out = groups.len();
        let sorted_groups: Vec<(bool, Vec<T::Value>)> = groups
            .iter()
            .map(|grp| {
                let xs: Vec<T::Value> = grp.iter().filter(|x| !x.nan()).map(|x| x.to_value()).collect();
                (grp.iter().any(|x| x.nan()), sorted(&xs))
            })
            .collect();
        for (k, &q) in qs.iter().enumerate() {
            for (j, grp) in groups.iter().enumerate() {
                let (has_nan, s) = &sorted_groups[j];
                let want = if *has_nan && !ignore_nan {
                    f64::NAN
                } else {
                    RefFloat::to_f64(np_quantile::<T::Value, f64, T::Value>(s, q, method, false))
                };
                let g = got.as_slice().unwrap()[k * n_out + j].to_f64_exact();
                if !same(g, want) {
                    fail!(case, "{what}[q={q}][{j}] = {g:e}, expected {want:e}; group {grp:?}");
                }
            }
        }
    }
}

fn check_arg_cum<T: Fz>(case: &Case, view: &ArrayViewD<'_, T>, els: &[(Idx, T)], axis: Option<isize>) {
    let nd = view.ndim();
    let red = match axis {
        None => (0..nd).collect::<Vec<_>>(),
        Some(a) => match expected_axes(&Axes::One(a), nd) {
            Ok(r) => r,
            Err(allowed) => {
                expect_axis_err(case, "nanargmin", nanops::nanargmin(view, axis), &allowed);
                expect_axis_err(case, "nanargmax", view.nanargmax(axis), &allowed);
                expect_axis_err(case, "nancumsum", nanops::nancumsum(view, axis), &allowed);
                expect_axis_err(case, "nancumprod", view.nancumprod(axis), &allowed);
                return;
            }
        },
    };
    // argmin / argmax: position within the lane (flattened C order for None)
    let (out_shape, groups) = group(els, view.shape(), &red);
    let out_shape = if axis.is_none() { vec![] } else { out_shape };
    let n_out: usize = out_shape.iter().product();
    for max in [false, true] {
        let what = if max { "nanargmax" } else { "nanargmin" };
        let r = if max { nanops::nanargmax(view, axis) } else { nanops::nanargmin(view, axis) };
        let lane_empty = groups.iter().any(|g| g.is_empty()) || (axis.is_none() && els.is_empty());
        let any_all_nan = groups.iter().any(|g| !g.is_empty() && g.iter().all(|x| x.nan()));
        if n_out == 0 {
            match r {
                Ok(got) => check_shape(case, what, &got, &out_shape),
                Err(e) => fail!(case, "{what} with empty output: {e:?}"),
            }
            continue;
        }
        if lane_empty {
            match r {
                Err(Error::EmptyReduction { .. }) => {}
                other => fail!(case, "{what} over an empty lane: {other:?}"),
            }
            continue;
        }
        if any_all_nan {
            match r {
                Err(Error::AllNanSlice) => {}
                other => fail!(case, "{what} with an all-NaN lane: {other:?}"),
            }
            continue;
        }
        let got = r.unwrap_or_else(|e| fail!(case, "{what}: {e:?}"));
        check_shape(case, what, &got, &out_shape);
        for (j, (g, grp)) in got.iter().zip(&groups).enumerate() {
            let mut best: Option<(usize, T)> = None;
            for (i, &x) in grp.iter().enumerate() {
                if x.nan() {
                    continue;
                }
                best = match best {
                    None => Some((i, x)),
                    Some((_, bx)) if (max && x > bx) || (!max && x < bx) => Some((i, x)),
                    keep => keep,
                };
            }
            let (want, _) = best.unwrap();
            if *g != want {
                fail!(case, "{what}[{j}] = {g}, expected {want}; lane {grp:?}");
            }
        }
    }
    // nancumsum / nancumprod: sequential running totals in f64 (or wrapping i64)
    let k = axis.map(|_| red[0]);
    for prod in [false, true] {
        let what = if prod { "nancumprod" } else { "nancumsum" };
        let got = if prod { view.nancumprod(axis) } else { nanops::nancumsum(view, axis) }
            .unwrap_or_else(|e| fail!(case, "{what}: {e:?}"));
        let want_shape = if axis.is_none() { vec![els.len()] } else { view.shape().to_vec() };
        check_shape(case, what, &got, &want_shape);
        // lane id of each element = C order over the other axes
        let shape = view.shape();
        let mut acc_f: Vec<f64> = Vec::new();
        let mut acc_i: Vec<i64> = Vec::new();
        let lane_of = |idx: &[usize]| -> usize {
            match k {
                None => 0,
                Some(k) => {
                    let mut o = 0;
                    for d in 0..shape.len() {
                        if d != k {
                            o = o * shape[d] + idx[d];
                        }
                    }
                    o
                }
            }
        };
        let n_lanes = if els.is_empty() { 0 } else { groups.len().max(1) };
        acc_f.resize(n_lanes.max(1), if prod { 1.0 } else { 0.0 });
        acc_i.resize(n_lanes.max(1), if prod { 1 } else { 0 });
        for (((idx, nd), x), g) in els.iter().zip(got.iter()) {
            let idx = &idx[..*nd];
            let l = lane_of(idx);
            if T::wrapping(&[], false).is_some() {
                let xi = T::wrapping(&[*x], false).unwrap() as i64;
                acc_i[l] = if prod { acc_i[l].wrapping_mul(xi) } else { acc_i[l].wrapping_add(xi) };
                if T::sum_i(*g) != acc_i[l] as i128 {
                    fail!(case, "{what} at {idx:?} = {g:?}, expected {}", acc_i[l]);
                }
            } else {
                if !x.nan() {
                    acc_f[l] = if prod { acc_f[l] * x.x() } else { acc_f[l] + x.x() };
                }
                let want = if T::F32_RESULT { f64::from(acc_f[l] as f32) } else { acc_f[l] };
                let g = T::sum_f(*g);
                if !same(g, want) {
                    fail!(case, "{what} at {idx:?} = {g:e}, expected {want:e}");
                }
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    match b.below(4) {
        0 | 1 => run_case::<f64>(&mut b),
        2 => run_case::<f32>(&mut b),
        _ => run_case::<i64>(&mut b),
    }
});
