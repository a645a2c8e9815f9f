//! Covariance and correlation matrices among the variables of an array
//! (numbagg's `nancovmatrix`, `nancorrmatrix`, `move_covmatrix`,
//! `move_corrmatrix`, `move_exp_nancovmatrix`, `move_exp_nancorrmatrix`):
//! every pair of variables, with the observations where both are not NaN.
//!
//! The static matrices are the reduce family's [`co_matrix`]; the moving
//! ones run the pair kernels of `move_cov` … over every pair of variables
//! `i <= j` and write both triangles from one result: by parts of the
//! observations where the kernel's lanes may be cut (each part's columns
//! gathered once, its squares written from the cache), else by one call of
//! the pair driver per variable (the first series a broadcast view).

use crate::element::{QuantileElement, SelectFloat};
use crate::error::{ensure_memory, Error, Result};
use crate::par::{map_chunks_mut, map_tasks, threads, HandOff, SendPtr};
use crate::reduce::{co_matrix, co_matrix_scratch_bytes, matrix};
use crate::scan::{
    driver_scratch_bytes, run_pairs, MoveCoMoment, MoveExpPair, PairKernel, WindowSpec,
};
use ndarray::{Array, ArrayBase, ArrayD, ArrayViewD, Axis, Data, Dimension, Slice};
use std::mem::MaybeUninit;

/// `a` as a dynamic view of at least 2 dimensions.
fn matrix_input<S, E, D>(a: &ArrayBase<S, D>) -> Result<ArrayViewD<'_, E>>
where
    S: Data<Elem = E>,
    D: Dimension,
{
    let x = a.view().into_dyn();
    if x.ndim() < 2 {
        return Err(Error::MatrixDims { ndim: x.ndim() });
    }
    Ok(x)
}

/// [`co_matrix`] of `a`, after its memory is probed.
fn static_matrix<S, E, D>(a: &ArrayBase<S, D>, corr: bool) -> Result<ArrayD<E::Value>>
where
    S: Data<Elem = E>,
    E: QuantileElement,
    D: Dimension,
{
    let x = matrix_input(a)?;
    let nd = x.ndim();
    let (vars, obs) = (x.shape()[nd - 2], x.shape()[nd - 1]);
    let matrices: usize = x.shape()[..nd - 2].iter().product();
    ensure_memory(&[
        (
            matrices.saturating_mul(vars).saturating_mul(vars),
            std::mem::size_of::<E::Value>(),
        ),
        (1, co_matrix_scratch_bytes(matrices, vars, obs)),
    ])?;
    Ok(co_matrix(&x, corr))
}

/// Runs pair kernel `k` along the observations (`nd − 2`) of `x` (at least
/// 2 dimensions: `(..., obs, vars)`) for every pair of variables `i <= j`,
/// into `(..., obs, vars, vars)`: `finish(value, diagonal)` of each result
/// written at `[.., i, j]` and `[.., j, i]`.
fn moving_matrix<E, K, O>(
    x: &ArrayViewD<'_, E>,
    k: &K,
    finish: impl Fn(K::Output, bool) -> O + Sync,
) -> Result<ArrayD<O>>
where
    E: QuantileElement,
    K: PairKernel<E>,
    O: Copy + Send + Sync,
{
    let nd = x.ndim();
    let (obs_axis, var_axis) = (nd - 2, nd - 1);
    let vars = x.shape()[var_axis];
    k.validate(x.shape()[obs_axis])?;
    let mut shape = x.shape().to_vec();
    shape.push(vars);
    let obs = x.shape()[obs_axis];
    let pairs = vars * (vars + 1) / 2;
    let squares = x.len().checked_div(vars).unwrap_or(0);
    let cut = k.cut().map(|(align, warmup)| {
        // positions of a part: a multiple of `align`, `PART` (so that a part
        // pays for its warm-up) unless the pairs' results of `PART`
        // positions would pass `PART_BYTES`
        let fits = PART_BYTES
            / pairs
                .saturating_mul(std::mem::size_of::<K::Output>())
                .max(1);
        (PART.min(fits).div_ceil(align).max(1) * align, align, warmup)
    });
    // the pairs' results: all of them at once, or a part's per task (with
    // its gathered lanes)
    let results = match cut {
        None => (1, squares.saturating_mul(pairs), 0),
        Some((part, _, warmup)) => (
            threads(),
            pairs.saturating_mul(part.min(obs)),
            vars.saturating_mul(part.saturating_add(warmup).min(obs)),
        ),
    };
    ensure_memory(&[
        (x.len().saturating_mul(vars), std::mem::size_of::<O>()),
        (
            results.0,
            results
                .1
                .saturating_mul(std::mem::size_of::<K::Output>())
                .saturating_add(results.2.saturating_mul(std::mem::size_of::<E>())),
        ),
        (
            threads(),
            k.scratch_bytes()
                .saturating_add(driver_scratch_bytes::<E, K::Output>(x, x, obs_axis)),
        ),
    ])?;
    let mut out = Array::<O, _>::uninit(shape);
    let flat = out
        .as_slice_mut()
        .expect("a fresh array is in standard order");
    match cut {
        Some((part, align, warmup)) => by_parts(x, k, (part, align, warmup), &finish, flat),
        None => by_variables(x, k, &finish, flat),
    }
    // SAFETY: every element `[.., i, j]` of every square was written (see
    // `write_squares`).
    Ok(unsafe { out.assume_init() })
}

/// Writes the squares of `out` (`vars × vars` each, square `q` of the
/// pairs' results at `q`): both triangles, `finish(value(i, j, q),
/// diagonal)` with `j >= i`.
fn write_squares<V, O: Copy>(
    out: &mut [MaybeUninit<O>],
    vars: usize,
    value: impl Fn(usize, usize, usize) -> V,
    finish: &impl Fn(V, bool) -> O,
) {
    for (q, m) in out.chunks_mut(vars * vars).enumerate() {
        for i in 0..vars {
            m[i * vars + i].write(finish(value(i, i, q), true));
            for j in i + 1..vars {
                let v = finish(value(i, j, q), false);
                m[i * vars + j].write(v);
                m[j * vars + i].write(v);
            }
        }
    }
}

/// [`moving_matrix`] for a kernel that needs whole lanes: one call of the
/// pair driver per variable `i` (the first series a broadcast view of
/// column `i`, the second the columns from `i` on), then the squares.
fn by_variables<E, K, O>(
    x: &ArrayViewD<'_, E>,
    k: &K,
    finish: &(impl Fn(K::Output, bool) -> O + Sync),
    out: &mut [MaybeUninit<O>],
) where
    E: QuantileElement,
    K: PairKernel<E>,
    O: Copy + Send + Sync,
{
    let nd = x.ndim();
    let (obs_axis, var_axis) = (nd - 2, nd - 1);
    let vars = x.shape()[var_axis];
    let rows: Vec<ArrayD<K::Output>> = (0..vars)
        .map(|i| {
            let ys = x.slice_axis(Axis(var_axis), Slice::from(i..));
            let first = x.slice_axis(Axis(var_axis), Slice::from(i..i + 1));
            let xs = first
                .broadcast(ys.raw_dim())
                .expect("an axis of length 1 broadcasts");
            run_pairs(&xs, &ys, obs_axis, k)
        })
        .collect();
    let rows: Vec<&[K::Output]> = rows
        .iter()
        .map(|r| r.as_slice().expect("the driver's results are in C order"))
        .collect();
    let square = vars * vars;
    // whole squares per task: each written once, in cache
    let per = (1 << 16) / square.max(1) + 1;
    map_chunks_mut(HandOff::CallerWorks, out, per * square, |t, chunk| {
        let first = t * per;
        let value = |i: usize, j: usize, q: usize| rows[i][(first + q) * (vars - i) + j - i];
        write_squares(chunk, vars, value, finish);
    });
}

/// [`moving_matrix`] for a kernel whose lanes may be cut at multiples of
/// `align` (reading `warmup` positions before a cut), in parts of `part`
/// positions: each task takes a part of the observations of one matrix, gathers its variables (and the
/// warm-up before) into contiguous lanes, runs every pair over the part,
/// and writes the part's squares, so that no result leaves the cache
/// before its square is written. The cuts follow the shape and the kernel
/// only: any number of threads gives the same bits.
fn by_parts<E, K, O>(
    x: &ArrayViewD<'_, E>,
    k: &K,
    (part, align, warmup): (usize, usize, usize),
    finish: &(impl Fn(K::Output, bool) -> O + Sync),
    out: &mut [MaybeUninit<O>],
) where
    E: QuantileElement,
    K: PairKernel<E>,
    O: Copy + Send + Sync,
{
    let nd = x.ndim();
    let (obs, vars) = (x.shape()[nd - 2], x.shape()[nd - 1]);
    let matrices = x.len().checked_div(obs * vars).unwrap_or(0);
    let pairs = vars * (vars + 1) / 2;
    let parts = obs.div_ceil(part).max(1);
    let square = vars * vars;
    let base = SendPtr(out.as_mut_ptr().cast_const());
    map_tasks(matrices * parts, |u| {
        let (m, p) = (u / parts, u % parts);
        let (t0, t1) = (p * part, ((p + 1) * part).min(obs));
        // the warm-up, from a multiple of `align` (the lane's cuts)
        let lo = t0.saturating_sub(warmup) / align * align;
        let view = matrix(x, m);
        let len = t1 - lo;
        let mut cols: Vec<E> = Vec::with_capacity(vars * len);
        for v in 0..vars {
            cols.extend(view.column(v).slice(ndarray::s![lo..t1]).iter().copied());
        }
        let mut results: Vec<MaybeUninit<K::Output>> = Vec::with_capacity(pairs * (t1 - t0));
        results.resize_with(pairs * (t1 - t0), MaybeUninit::uninit);
        let mut scratch = K::Scratch::default();
        let mut chunks = results.chunks_mut(t1 - t0);
        for i in 0..vars {
            for j in i..vars {
                let dst = chunks.next().expect("one chunk per pair");
                let (xs, ys) = (&cols[i * len..(i + 1) * len], &cols[j * len..(j + 1) * len]);
                k.part(xs, ys, t0 - lo, dst, &mut scratch);
            }
        }
        // SAFETY: `part` wrote every position of every pair's chunk
        let results: &[K::Output] =
            unsafe { std::slice::from_raw_parts(results.as_ptr().cast(), results.len()) };
        // pair (i, j)'s chunk: the pairs of the rows before i, then j − i
        let start: Vec<usize> = (0..vars)
            .scan(0, |at, i| {
                let s = *at;
                *at += vars - i;
                Some(s)
            })
            .collect();
        let n = t1 - t0;
        let value = |i: usize, j: usize, q: usize| results[(start[i] + j - i) * n + q];
        let first = m * obs + t0;
        // SAFETY: unit `u` is the only one to write squares `first..` of its
        // part, a range inside `out`, which outlives every task
        let dst = unsafe {
            std::slice::from_raw_parts_mut(
                base.get().cast_mut().add(first * square),
                (t1 - t0) * square,
            )
        };
        write_squares(dst, vars, value, finish);
    });
}

/// Positions of a part of [`by_parts`], where its results fit
/// [`PART_BYTES`].
const PART: usize = 512;
/// Most bytes of a part's results (unless a part of one window needs
/// more).
const PART_BYTES: usize = 8 << 20;

/// A correlation clipped to `[-1, 1]` (NaN kept), or a covariance whose
/// diagonal (a variance) is not below 0, as numbagg's matrices give them.
fn matrix_value<V: SelectFloat>(v: f64, corr: bool, diagonal: bool) -> V {
    let v = if corr {
        v.clamp(-1.0, 1.0)
    } else if diagonal && v < 0.0 {
        0.0
    } else {
        v
    };
    V::from_f64_nearest(v)
}

/// The moving co-moment matrix of `a` (see [`move_covmatrix`]).
fn moving_co_matrix<S, E, D>(
    a: &ArrayBase<S, D>,
    window: usize,
    min_count: Option<usize>,
    corr: bool,
) -> Result<ArrayD<E::Value>>
where
    S: Data<Elem = E>,
    E: QuantileElement,
    D: Dimension,
{
    let x = matrix_input(a)?;
    let k = MoveCoMoment {
        spec: WindowSpec { window, min_count },
        corr,
    };
    moving_matrix(&x, &k, |v: E::Value, diagonal| {
        matrix_value(v.to_f64_exact(), corr, diagonal)
    })
}

/// The exponential co-moment matrix of `a` (see [`move_exp_nancovmatrix`]):
/// numbagg's recurrences over the values less each variable's first finite
/// value (exact in the arithmetic, and no cancellation of a large mean).
fn moving_exp_matrix<S, E, D>(
    a: &ArrayBase<S, D>,
    alpha: &[f64],
    min_weight: f64,
    corr: bool,
) -> Result<ArrayD<E::Value>>
where
    S: Data<Elem = E>,
    E: QuantileElement,
    D: Dimension,
{
    let x = matrix_input(a)?;
    ensure_memory(&[(x.len(), std::mem::size_of::<f64>())])?;
    let mut shifted = x.mapv(|v| v.to_value().to_f64_exact());
    for mut lane in shifted.lanes_mut(Axis(x.ndim() - 2)) {
        let shift = lane.iter().copied().find(|v| v.is_finite()).unwrap_or(0.0);
        lane.map_inplace(|v| *v -= shift);
    }
    let k = MoveExpPair {
        corr,
        alpha,
        min_weight,
    };
    moving_matrix(&shifted.view(), &k, |v: f64, diagonal| {
        matrix_value(v, corr, diagonal)
    })
}

/// Expands the rows: each row is the function's documentation and
/// `fn NAME(ARGS) = IMPL[CORR];`, a public function of `a` and `ARGS`
/// calling `IMPL(a, ARGS, CORR)`.
macro_rules! matrix_functions {
    ($(
        $(#[$doc:meta])*
        fn $name:ident($($arg:ident: $argty:ty),*) = $imp:ident[$corr:expr];
    )*) => {$(
        $(#[$doc])*
        pub fn $name<S, E, D>(a: &ArrayBase<S, D>, $($arg: $argty),*) -> Result<ArrayD<E::Value>>
        where
            S: Data<Elem = E>,
            E: QuantileElement,
            D: Dimension,
        {
            $imp(a, $($arg,)* $corr)
        }
    )*};
}

matrix_functions! {
    /// Covariance matrix of the variables of `a` (numbagg's `nancovmatrix`):
    /// `a` is `(..., vars, obs)`, the result `(..., vars, vars)`, element
    /// `[.., i, j]` the sample covariance (`ddof = 1`) of the observations where
    /// variables `i` and `j` are both not NaN (pandas' `DataFrame.cov`, pairwise
    /// complete); NaN below 2 such observations or where an infinity is among
    /// them.
    ///
    /// Computed in `f64` by blocks: each pair's block less its first pair, by
    /// two passes, blocks merged by Chan's formula; rounded once to the result type ([`QuantileElement::Value`]).
    /// Matrices, and runs of long observation axes, run in parallel.
    ///
    /// # Errors
    /// [`Error::MatrixDims`](crate::Error::MatrixDims) for fewer than 2
    /// dimensions; [`Error::OutOfMemory`](crate::Error::OutOfMemory).
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![[1.0, 2.0, 3.0, f64::NAN], [2.0, 4.0, 7.0, 1.0]];
    /// let c: ndarray::ArrayD<f64> = nanops::nancovmatrix(&a)?;
    /// assert_eq!(c.shape(), [2, 2]);
    /// assert_eq!(c[[0, 0]], 1.0);
    /// assert_eq!(c[[0, 1]], 2.5);
    /// assert_eq!(c[[1, 0]], 2.5);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    fn nancovmatrix() = static_matrix[false];

    /// Correlation matrix of the variables of `a` (numbagg's `nancorrmatrix`):
    /// as [`nancovmatrix`], Pearson's correlation of each pair's complete
    /// observations, clipped to `[-1, 1]` (as `np.corrcoef`); NaN also where a
    /// variable is constant over them.
    ///
    /// # Errors
    /// As [`nancovmatrix`].
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![[1.0, 2.0, 3.0], [3.0, 2.0, 1.0], [1.0, 1.0, 1.0]];
    /// let r: ndarray::ArrayD<f64> = nanops::nancorrmatrix(&a)?;
    /// assert_eq!(r[[0, 0]], 1.0);
    /// assert_eq!(r[[0, 1]], -1.0);
    /// assert!(r[[0, 2]].is_nan());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    fn nancorrmatrix() = static_matrix[true];

    /// Moving covariance matrix (numbagg's `move_covmatrix`): `a` is
    /// `(..., obs, vars)`, the result `(..., obs, vars, vars)`, element
    /// `[.., t, i, j]` [`move_cov`](crate::move_cov) of variables `i` and `j`
    /// at observation `t` (the pairs of the last `window` observations whose
    /// two values are not NaN; NaN below `min_count` of them, `None`: the
    /// window, at least 2).
    ///
    /// # Errors
    /// [`Error::MatrixDims`](crate::Error::MatrixDims) for fewer than 2
    /// dimensions; [`Error::InvalidWindow`](crate::Error::InvalidWindow) unless
    /// `1 <= window <= obs`, [`Error::InvalidMinCount`](crate::Error::InvalidMinCount)
    /// unless `1 <= min_count <= window`.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![[0.0, 0.0], [1.0, 1.0], [2.0, 4.0], [3.0, 9.0]];
    /// let c: ndarray::ArrayD<f64> = nanops::move_covmatrix(&a, 3, None)?;
    /// assert_eq!(c.shape(), [4, 2, 2]);
    /// assert!(c[[1, 0, 1]].is_nan());
    /// assert_eq!(c[[2, 0, 1]], 2.0);
    /// assert_eq!(c[[3, 1, 0]], 4.0);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    fn move_covmatrix(window: usize, min_count: Option<usize>) = moving_co_matrix[false];

    /// Moving correlation matrix (numbagg's `move_corrmatrix`): as
    /// [`move_covmatrix`], [`move_corr`](crate::move_corr) of each pair,
    /// clipped to `[-1, 1]`.
    ///
    /// # Errors
    /// As [`move_covmatrix`].
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![[1.0, 3.0], [2.0, 2.0], [4.0, 1.0]];
    /// let r: ndarray::ArrayD<f64> = nanops::move_corrmatrix(&a, 2, None)?;
    /// assert!(r[[0, 0, 1]].is_nan());
    /// assert_eq!(r[[2, 0, 1]], -1.0);
    /// assert_eq!(r[[2, 1, 1]], 1.0);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    fn move_corrmatrix(window: usize, min_count: Option<usize>) = moving_co_matrix[true];

    /// Exponentially weighted covariance matrix (numbagg's
    /// `move_exp_nancovmatrix`): `a` is `(..., obs, vars)`, the result
    /// `(..., obs, vars, vars)`, element `[.., t, i, j]`
    /// [`move_exp_nancov`](crate::move_exp_nancov) of variables `i` and `j`
    /// (`alpha` one value or one per observation), computed on each variable
    /// less its first finite value (as numbagg's matrices: no cancellation of
    /// a large mean); a diagonal below 0 by rounding is 0.
    ///
    /// # Errors
    /// [`Error::MatrixDims`](crate::Error::MatrixDims) for fewer than 2
    /// dimensions; [`Error::AlphaLength`](crate::Error::AlphaLength) for an
    /// `alpha` of another length than 1 or `obs`.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![[0.0, 0.0], [1.0, 1.0], [2.0, 4.0]];
    /// let c: ndarray::ArrayD<f64> = nanops::move_exp_nancovmatrix(&a, &[0.5], 0.0)?;
    /// assert!(c[[0, 0, 1]].is_nan());
    /// assert!((c[[1, 0, 1]] - 0.5).abs() < 1e-12);
    /// assert_eq!(c[[2, 0, 1]], c[[2, 1, 0]]);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    fn move_exp_nancovmatrix(alpha: &[f64], min_weight: f64) = moving_exp_matrix[false];

    /// Exponentially weighted correlation matrix (numbagg's
    /// `move_exp_nancorrmatrix`): as [`move_exp_nancovmatrix`],
    /// [`move_exp_nancorr`](crate::move_exp_nancorr) of each pair, clipped to
    /// `[-1, 1]`.
    ///
    /// # Errors
    /// As [`move_exp_nancovmatrix`].
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![[0.0, 0.0], [1.0, -1.0], [3.0, -3.0]];
    /// let r: ndarray::ArrayD<f64> = nanops::move_exp_nancorrmatrix(&a, &[0.5], 0.0)?;
    /// assert!(r[[0, 0, 1]].is_nan());
    /// assert!((r[[2, 0, 1]] + 1.0).abs() < 1e-12);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    fn move_exp_nancorrmatrix(alpha: &[f64], min_weight: f64) = moving_exp_matrix[true];
}
