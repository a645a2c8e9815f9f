//! Covariance and correlation matrices (numbagg's `nancovmatrix`,
//! `nancorrmatrix`): for every pair of variables (rows of the last two
//! axes), the statistic of the observations where both are not NaN.
//!
//! Observations are read a block at a time: each variable's block as
//! `f64`, then every pair's block state made by two passes over its values
//! less the block's first pair (in cache; so that a large mean costs no
//! digits of a small spread) and merged into the pair's state by Chan's
//! formula. A task takes a run of observations of one matrix (or several
//! whole matrices); runs are cut at fixed positions and merged in order, so
//! any number of threads gives the same bits.

use crate::element::{QuantileElement, SelectFloat};
use crate::par::{map_tasks, threads};
use crate::simd::dispatch::dispatch_with;
use crate::states::CoState;
use ndarray::{ArrayD, ArrayView2, ArrayViewD, Axis, IxDyn};
use pulp::{Simd, WithSimd};

/// Observations of a block: the blocks of every variable stay in cache
/// while the pairs read them twice.
const BLOCK: usize = 512;
/// Fewest observations of a task's run (a multiple of [`BLOCK`]).
const MIN_RUN: usize = 1 << 15;

/// The observations one task takes of a matrix of `pairs` pairs and `obs`
/// observations: at least [`MIN_RUN`], and at least 64 per pair state, so
/// that the states of all runs take no more memory than the input.
fn run_length(pairs: usize) -> usize {
    MIN_RUN.max(pairs.saturating_mul(64)).div_ceil(BLOCK) * BLOCK
}

/// The bytes [`co_matrix`] holds for `matrices` matrices of `vars`
/// variables and `obs` observations: the pair states of every task, and
/// each thread's block.
pub(crate) fn co_matrix_scratch_bytes(matrices: usize, vars: usize, obs: usize) -> usize {
    let pairs = vars.saturating_mul(vars.saturating_add(1)) / 2;
    let runs = obs.div_ceil(run_length(pairs)).max(1);
    matrices
        .saturating_mul(runs)
        .saturating_mul(pairs)
        .saturating_mul(std::mem::size_of::<CoState>())
        .saturating_add(threads().saturating_mul(vars).saturating_mul(BLOCK * 8))
}

/// The matrix of `a` (at least 2 dimensions: `(..., vars, obs)`) over its
/// last axis: `(..., vars, vars)`, the covariance (`ddof = 1`, `corr:
/// false`) or the correlation (clipped to `[-1, 1]`) of each pair of
/// variables, NaN below 2 pairs, where an infinity is among the pairs, or
/// (correlation) where a variance is 0.
pub(crate) fn co_matrix<E: QuantileElement>(a: &ArrayViewD<'_, E>, corr: bool) -> ArrayD<E::Value> {
    let nd = a.ndim();
    debug_assert!(nd >= 2);
    let (vars, obs) = (a.shape()[nd - 2], a.shape()[nd - 1]);
    let matrices: usize = a.shape()[..nd - 2].iter().product();
    let pairs = vars * (vars + 1) / 2;
    let run = run_length(pairs);
    let runs = obs.div_ceil(run).max(1);
    // whole matrices per task where a matrix is one run: enough tasks for
    // the threads, few enough that a task's start is paid for
    let per = if runs > 1 {
        1
    } else {
        let work = (vars * vars * obs).max(1);
        matrices.min((MIN_RUN * 16).div_ceil(work)).max(1)
    };
    let tasks = if runs > 1 {
        matrices * runs
    } else {
        matrices.div_ceil(per)
    };
    let states: Vec<Vec<CoState>> = map_tasks(tasks, |t| {
        let (first, count, lo, hi) = if runs > 1 {
            let r = t % runs;
            (t / runs, 1, r * run, ((r + 1) * run).min(obs))
        } else {
            let first = t * per;
            (first, per.min(matrices - first), 0, obs)
        };
        let mut states = vec![CoState::default(); pairs * count];
        let mut block = vec![0.0; vars * BLOCK];
        for (m, st) in states.chunks_mut(pairs.max(1)).enumerate().take(count) {
            let x = matrix(a, first + m);
            let mut b = lo;
            while b < hi {
                let e = (b + BLOCK).min(hi);
                read_block(&x, b, e, &mut block);
                let (block, states) = (&block[..], &mut *st);
                if corr {
                    dispatch_with(MergeBlock::<true> { block, states });
                } else {
                    dispatch_with(MergeBlock::<false> { block, states });
                }
                b = e;
            }
        }
        states
    });
    let mut shape = a.shape()[..nd - 1].to_vec();
    shape.push(vars);
    let nan = <E::Value as SelectFloat>::from_f64_nearest(f64::NAN);
    let mut out = ArrayD::from_elem(IxDyn(&shape), nan);
    let flat = out
        .as_slice_mut()
        .expect("a fresh array is in standard order");
    for m in 0..matrices {
        // the matrix's states: its runs merged in order
        let (task, at) = if runs > 1 {
            (m * runs, 0)
        } else {
            (m / per, (m % per) * pairs)
        };
        let mut total = states[task][at..at + pairs].to_vec();
        for r in 1..runs {
            for (s, o) in total.iter_mut().zip(&states[task + r]) {
                if corr {
                    s.merge::<true>(o);
                } else {
                    s.merge::<false>(o);
                }
            }
        }
        let square = &mut flat[m * vars * vars..(m + 1) * vars * vars];
        let mut p = 0;
        for i in 0..vars {
            for j in i..vars {
                let v = if corr {
                    total[p].value::<true>(2).clamp(-1.0, 1.0)
                } else {
                    total[p].value::<false>(2)
                };
                let v = <E::Value as SelectFloat>::from_f64_nearest(v);
                square[i * vars + j] = v;
                square[j * vars + i] = v;
                p += 1;
            }
        }
    }
    out
}

/// Matrix `m` (in C order of the leading axes) of `a`: its last two axes.
pub(crate) fn matrix<'a, E>(a: &ArrayViewD<'a, E>, m: usize) -> ArrayView2<'a, E> {
    let nd = a.ndim();
    let mut x = a.clone();
    let mut rest = m;
    let mut idx = vec![0; nd - 2];
    for d in (0..nd - 2).rev() {
        idx[d] = rest % a.shape()[d];
        rest /= a.shape()[d];
    }
    for i in idx {
        x = x.index_axis_move(Axis(0), i);
    }
    x.into_dimensionality()
        .expect("two axes are left of a matrix")
}

/// Observations `b..e` of every variable of `x` into `block` (rows of
/// [`BLOCK`]) as `f64`, each row's rest NaN.
fn read_block<E: QuantileElement>(x: &ArrayView2<'_, E>, b: usize, e: usize, block: &mut [f64]) {
    for (i, row) in x.outer_iter().enumerate() {
        let (dst, rest) = block[i * BLOCK..(i + 1) * BLOCK].split_at_mut(e - b);
        for (d, v) in dst.iter_mut().zip(row.slice(ndarray::s![b..e])) {
            *d = v.to_value().to_f64_exact();
        }
        rest.fill(f64::NAN);
    }
}

/// Merges into `states` (the pairs `i <= j` in order) each pair's state of
/// the block in `block` (a row of [`BLOCK`] values per variable).
struct MergeBlock<'a, const CORR: bool> {
    block: &'a [f64],
    states: &'a mut [CoState],
}

impl<const CORR: bool> WithSimd for MergeBlock<'_, CORR> {
    type Output = ();
    #[inline(always)]
    fn with_simd<V: Simd>(self, simd: V) {
        let vars = self.block.len() / BLOCK;
        let mut p = 0;
        for i in 0..vars {
            let xs = &self.block[i * BLOCK..(i + 1) * BLOCK];
            for j in i..vars {
                let ys = &self.block[j * BLOCK..(j + 1) * BLOCK];
                self.states[p].merge::<CORR>(&CoState::of_block::<V, CORR>(simd, xs, ys));
                p += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::Array2;

    /// Two passes over the pairs of rows `i` and `j` of `x`.
    fn reference(x: &Array2<f64>, i: usize, j: usize, corr: bool) -> f64 {
        let pairs: Vec<(f64, f64)> = x
            .row(i)
            .iter()
            .zip(x.row(j))
            .filter(|(a, b)| !a.is_nan() && !b.is_nan())
            .map(|(&a, &b)| (a, b))
            .collect();
        let n = pairs.len() as f64;
        if pairs.len() < 2 {
            return f64::NAN;
        }
        let ma = pairs.iter().map(|p| p.0).sum::<f64>() / n;
        let mb = pairs.iter().map(|p| p.1).sum::<f64>() / n;
        let c: f64 = pairs.iter().map(|p| (p.0 - ma) * (p.1 - mb)).sum();
        if !corr {
            return c / (n - 1.0);
        }
        let va: f64 = pairs.iter().map(|p| (p.0 - ma).powi(2)).sum();
        let vb: f64 = pairs.iter().map(|p| (p.1 - mb).powi(2)).sum();
        if va * vb > 0.0 {
            c / (va * vb).sqrt()
        } else {
            f64::NAN
        }
    }

    #[test]
    fn every_pair_matches_two_passes_over_its_observations() {
        // blocks, runs and a tail: 3 runs of a 3-variable matrix
        for obs in [0, 1, 2, 7, 300, 2 * MIN_RUN + 999] {
            let x = Array2::from_shape_fn((3, obs), |(i, k)| {
                if (k * (i + 3)) % 7 == 2 {
                    f64::NAN
                } else {
                    1e8 + ((k * 37 + i * 11) % 23) as f64 * 0.25 - (i * k % 5) as f64
                }
            });
            for corr in [false, true] {
                let got = co_matrix(&x.view().into_dyn(), corr);
                assert_eq!(got.shape(), [3, 3]);
                for i in 0..3 {
                    for j in 0..3 {
                        let want = reference(&x, i, j, corr);
                        let g = got[[i, j]];
                        assert!(
                            g.is_nan() && want.is_nan()
                                || (g - want).abs() <= 1e-9 * want.abs().max(1e-3),
                            "obs {obs} corr {corr} ({i}, {j}): {g} vs {want}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn an_infinity_gives_nan_for_its_pairs_only() {
        let mut x = Array2::from_shape_fn((3, 40), |(i, k)| ((k * (i + 2)) % 9) as f64);
        x[[1, 17]] = f64::INFINITY;
        let got = co_matrix(&x.view().into_dyn(), false);
        assert!(got[[0, 1]].is_nan() && got[[1, 1]].is_nan() && got[[2, 1]].is_nan());
        let want = reference(&x, 0, 2, false);
        assert!((got[[0, 2]] - want).abs() <= 1e-12 * want.abs());
        assert_eq!(got[[2, 0]], got[[0, 2]]);
    }
}
