//! Slow, obvious references and array strategies shared by the integration tests.
#![allow(dead_code)]

use ndarray::{ArrayD, Dimension, IxDyn, ShapeBuilder, Slice};
use proptest::prelude::*;

/// A seeded xorshift generator of uniform values in `[0, 1)` (deterministic
/// test data without a dependency).
pub fn uniform(seed: u64) -> impl FnMut() -> f64 {
    let mut x = seed;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// `n` values drawn from `palette` by a seeded generator ([`uniform`]):
/// data made of chosen specials (NaN, ±0, ±inf, ties).
pub fn from_palette(palette: &[f64], n: usize, seed: u64) -> Vec<f64> {
    let mut u = uniform(seed);
    (0..n)
        .map(|_| palette[(u() * palette.len() as f64) as usize])
        .collect()
}

/// The values of each output's slice (kept axes in C order) and the output shape.
pub fn slices(a: &ArrayD<f64>, axes: &[usize]) -> (Vec<usize>, Vec<Vec<f64>>) {
    let shape = a.shape().to_vec();
    let out_shape: Vec<usize> = (0..shape.len())
        .filter(|i| !axes.contains(i))
        .map(|i| shape[i])
        .collect();
    let n_out: usize = out_shape.iter().product();
    let mut groups = vec![Vec::new(); n_out];
    for (idx, &x) in a.indexed_iter() {
        let mut flat = 0;
        for (i, &ix) in idx.slice().iter().enumerate() {
            if !axes.contains(&i) {
                flat = flat * shape[i] + ix;
            }
        }
        groups[flat].push(x);
    }
    (out_shape, groups)
}

/// Applies `f` to each slice and shapes the result.
pub fn reference(a: &ArrayD<f64>, axes: &[usize], f: impl Fn(&[f64]) -> f64) -> ArrayD<f64> {
    let (shape, groups) = slices(a, axes);
    let v: Vec<f64> = groups.iter().map(|g| f(g)).collect();
    ArrayD::from_shape_vec(IxDyn(&shape), v).unwrap()
}

/// The non-NaN values of a slice.
pub fn valid(xs: &[f64]) -> Vec<f64> {
    xs.iter().copied().filter(|x| !x.is_nan()).collect()
}

/// Small integers and NaN (exact in any summation order).
pub fn value() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => (-20i32..20).prop_map(|x| x as f64),
        1 => Just(f64::NAN),
    ]
}

/// A random array of up to 4 dimensions (lengths 0..5) of small integers and NaN.
pub fn array() -> impl Strategy<Value = ArrayD<f64>> {
    prop::collection::vec(0usize..5, 0..=4).prop_flat_map(|shape| {
        let n: usize = shape.iter().product();
        prop::collection::vec(value(), n)
            .prop_map(move |v| ArrayD::from_shape_vec(IxDyn(&shape), v).unwrap())
    })
}

/// A random subset of the axes of an `ndim`-array.
pub fn axes_subset(ndim: usize) -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(any::<bool>(), ndim).prop_map(|m| {
        m.iter()
            .enumerate()
            .filter(|&(_, &b)| b)
            .map(|(i, _)| i)
            .collect()
    })
}

/// An array with its axes, for reductions over a random subset.
pub fn array_and_axes() -> impl Strategy<Value = (ArrayD<f64>, Vec<usize>)> {
    array().prop_flat_map(|a| {
        let nd = a.ndim();
        (Just(a), axes_subset(nd))
    })
}

/// Equal up to 1e-9 relative, NaN equal to NaN.
pub fn same(a: &ArrayD<f64>, b: &ArrayD<f64>) -> bool {
    a.shape() == b.shape()
        && a.iter().zip(b.iter()).all(|(x, y)| {
            (x.is_nan() && y.is_nan()) || x == y || (x - y).abs() <= 1e-9 * x.abs().max(1.0)
        })
}

/// The same values as `a` in several memory layouts: C, Fortran, negative
/// strides on every axis, and a strided (step 2) view into a larger buffer.
pub fn layouts(a: &ArrayD<f64>) -> Vec<(&'static str, ArrayD<f64>, Layout)> {
    let shape = a.shape().to_vec();
    let mut f = ArrayD::<f64>::zeros(IxDyn(&shape).f());
    f.assign(a);
    let mut rev = a.clone();
    rev.slice_each_axis_inplace(|_| Slice::new(0, None, -1));
    let rev = rev.as_standard_layout().into_owned();
    let big_shape: Vec<usize> = shape.iter().map(|&n| 2 * n).collect();
    let mut big = ArrayD::<f64>::from_elem(IxDyn(&big_shape), 1e300);
    big.slice_each_axis_mut(|_| Slice::new(0, None, 2))
        .assign(a);
    vec![
        ("c", a.clone(), Layout::Plain),
        ("f", f, Layout::Plain),
        ("negative", rev, Layout::Reversed),
        ("strided", big, Layout::Step2),
    ]
}

/// How to view an array returned by [`layouts`] so it shows `a`'s values.
#[derive(Clone, Copy, Debug)]
pub enum Layout {
    /// As is.
    Plain,
    /// Every axis reversed (negative strides).
    Reversed,
    /// Every other element of every axis.
    Step2,
}

/// The view of `buf` that holds the original values.
pub fn view(buf: &ArrayD<f64>, layout: Layout) -> ndarray::ArrayViewD<'_, f64> {
    match layout {
        Layout::Plain => buf.view(),
        Layout::Reversed => buf.slice_each_axis(|_| Slice::new(0, None, -1)),
        Layout::Step2 => buf.slice_each_axis(|_| Slice::new(0, None, 2)),
    }
}

/// `f()` run in a pool of `threads` threads of its own (the thread count a
/// call sees), for the tests that results do not depend on it.
pub fn with_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
        .install(f)
}
