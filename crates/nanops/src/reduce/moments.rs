//! Variance kernel: cache-sized blocks, each reduced about a center near
//! its mean, merged with Chan.
//!
//! Each block's moments are computed around a center `c` with the corrected
//! two-pass formula: the pass sums `d = x − c` as well as `|d|²`, so the
//! block's mean is `c + Σd/n` to full precision and `m2 = Σ|d|² − |Σd|²/n`.
//! The center is the mean of the state the block merges into once that
//! state holds half a block of values (one pass over the block), otherwise
//! the block's rounded mean (a first pass in cache). The state keeps `c` as
//! its pivot ([`Moments`]): merging blocks then never rounds the difference
//! of their means at the magnitude of the data (at an offset of 1e8 that
//! rounding cost six digits of the variance).

use super::driver::statistics;
use super::reducer::{fold_tree, Reducer, BLOCK, LANES, ROW_BLOCK};
use super::sum::{block_sum, column_sums, short_sum};
use crate::element::{Accumulator, Element, FloatAcc};
use crate::options::Ddof;
use crate::simd::prefetch::prefetch_ahead;
use crate::states::{Moments, State};
use num_traits::{Float, Zero};

/// Moments of one block of at most [`BLOCK`] values: mean first (plain
/// lanes: it is only the pivot), then the deviations from it while the block
/// is still in cache.
#[inline(always)]
fn block_moments<E: Element>(xs: &[E]) -> Moments<E::Float> {
    let (sum, nans) = block_sum(xs, E::to_float);
    let n = xs.len() as u64 - nans;
    if n == 0 {
        return Moments::default();
    }
    let center = sum.div_real(E::Float::real_from_u64(n));
    let (r, q) = deviation_sums(xs, center);
    Moments::from_deviations(n, center, r, q)
}

/// `Σ (x − center)` and `Σ |x − center|²` over the non-NaN values of `xs`,
/// each in a loop of its own whose lanes add up in lane order at the end.
///
/// The shape is for LLVM's vectoriser: one loop keeping both sums, lanes
/// folded by halving, or a remainder added into the lanes made it pair the
/// lanes two by two in 128-bit registers, a quarter of the AVX-512 width.
/// This way both loops use whole registers: 10M `f32` `nanvar` 7.9 → 4.9 ms
/// on one thread, 3.9 → 2.4 ms on two (`kernel_timing nanvar`).
#[inline(always)]
fn deviation_sums<E: Element>(
    xs: &[E],
    center: E::Float,
) -> (E::Float, <E::Float as FloatAcc>::Real) {
    (
        lane_sum(xs, center, deviation),
        lane_sum(xs, center, squared_deviation),
    )
}

/// `Σ f(x, center)` over `xs` in [`LANES`] lanes added in lane order, the
/// values past the last whole chunk after them (see [`deviation_sums`]).
#[inline(always)]
fn lane_sum<E: Element, T: Accumulator>(
    xs: &[E],
    center: E::Float,
    f: impl Fn(E, E::Float) -> T,
) -> T {
    let mut chunks = xs.chunks_exact(LANES);
    let mut acc = [T::zero(); LANES];
    for c in &mut chunks {
        for i in 0..LANES {
            acc[i] = T::add(acc[i], f(c[i], center));
        }
    }
    let mut s = acc[0];
    for i in 1..LANES {
        s = T::add(s, acc[i]);
    }
    for &x in chunks.remainder() {
        s = T::add(s, f(x, center));
    }
    s
}

/// `Σ (x − center)` over the non-NaN values of `xs` and their count, the
/// sum in [`LANES`] lanes added in lane order (as [`lane_sum`]); the first
/// read of a block, so it asks for memory ahead.
#[inline(always)]
fn counted_deviation_sum<E: Element>(xs: &[E], center: E::Float) -> (E::Float, u64) {
    let mut chunks = xs.chunks_exact(LANES);
    let mut acc = [<E::Float as Accumulator>::zero(); LANES];
    let mut valid = [0u64; LANES];
    for c in &mut chunks {
        prefetch_ahead(c.as_ptr());
        for i in 0..LANES {
            acc[i] = acc[i] + deviation(c[i], center);
            valid[i] += !c[i].is_nan_value() as u64;
        }
    }
    let (mut s, mut n) = (acc[0], valid[0]);
    for i in 1..LANES {
        s = s + acc[i];
        n += valid[i];
    }
    for &x in chunks.remainder() {
        s = s + deviation(x, center);
        n += !x.is_nan_value() as u64;
    }
    (s, n)
}

/// `|x − center|²`; zero for NaN.
#[inline(always)]
fn squared_deviation<E: Element>(x: E, center: E::Float) -> <E::Float as FloatAcc>::Real {
    let d2 = (x.to_float() - center).abs2();
    if x.is_nan_value() {
        <<E::Float as FloatAcc>::Real as Zero>::zero()
    } else {
        d2
    }
}

/// `x − center` in the floating type; zero for NaN (it adds nothing).
/// A function, not a closure: see [`first_valid`](super::first_valid).
#[inline(always)]
fn deviation<E: Element>(x: E, center: E::Float) -> E::Float {
    if x.is_nan_value() {
        <E::Float as Accumulator>::zero()
    } else {
        x.to_float() - center
    }
}

/// Columns whose accumulators [`tile_moments`] keeps in registers.
const COLUMN_TILE: usize = 16;

/// How many tiles ahead [`tile_moments`] asks for each row's memory.
const TILES_AHEAD: usize = 4;

/// Block moments of the `W` columns from `j` of `rows`, merged into
/// `states`, with the tile's sums in registers.
///
/// The deviations are taken from a center near each column's mean: the
/// mean of the column's state so far when that state already holds at
/// least half as many values as the block has rows (one pass over the
/// block), otherwise the block's own mean (a first pass; the tile's rows,
/// at most `ROW_BLOCK × W` values, are still in L1 for the second).
///
/// The corrected formula `m2 = q − |r|²/n_b` (`n_b` values in the block)
/// rounds `q`, which exceeds the block's `m2` by `|r|²/n_b = n_b·|δ|²`. With
/// the state's mean as center, `δ` is the difference of the two means, and
/// that excess is `(nₐ + n_b)/nₐ ≤ 3` times the between-means term
/// `|δ|²·nₐ·n_b/(nₐ + n_b)` that Chan's merge adds to the total anyway, so the rounding stays a few ulps
/// of the merged `m2`, as in Welford's update (`tests/accuracy.rs`: columns
/// drifting far from their first block's mean stay within three ulps).
/// Tiles, one read per value and the prefetch: `(10000, 1000)` along axis 0,
/// one thread, `f64` 7.7 → 5.2 ms, `f32` 5.8 → 4.6 ms (`kernel_timing`).
#[inline(always)]
fn tile_moments<E: Element, const W: usize>(
    states: &mut [Moments<E::Float>; W],
    rows: &[&[E]],
    j: usize,
) {
    let zero = <E::Float as Accumulator>::zero();
    let zero_r = <<E::Float as FloatAcc>::Real as Zero>::zero();
    let mut centers = [zero; W];
    let mut settled = true;
    for i in 0..W {
        let center = states[i].running_center(rows.len());
        centers[i] = center.unwrap_or(zero);
        settled &= center.is_some();
    }
    if !settled {
        centers = tile_means(rows, j);
    }
    let (mut r, mut q, mut valid) = ([zero; W], [zero_r; W], [0u64; W]);
    for row in rows {
        let x: &[E; W] = row[j..j + W].try_into().expect("a whole tile");
        prefetch_tile::<E, W>(row, j);
        for i in 0..W {
            let nan = x[i].is_nan_value();
            let d = if nan {
                zero
            } else {
                x[i].to_float() - centers[i]
            };
            r[i] = r[i] + d;
            q[i] = q[i] + d.abs2();
            valid[i] += if nan { 0 } else { 1 };
        }
    }
    for i in 0..W {
        let valid = valid[i];
        states[i].merge(&Moments::from_deviations(valid, centers[i], r[i], q[i]));
    }
}

/// The means of the non-NaN values of the `W` columns from `j` of `rows`
/// (zero for a column without one).
#[inline(always)]
fn tile_means<E: Element, const W: usize>(rows: &[&[E]], j: usize) -> [E::Float; W] {
    let zero = <E::Float as Accumulator>::zero();
    let mut sums = [zero; W];
    let mut nans = [0u32; W];
    for row in rows {
        let x: &[E; W] = row[j..j + W].try_into().expect("a whole tile");
        prefetch_tile::<E, W>(row, j);
        for i in 0..W {
            let nan = x[i].is_nan_value();
            sums[i] = sums[i] + if nan { zero } else { x[i].to_float() };
            nans[i] += nan as u32;
        }
    }
    let n = rows.len() as u64;
    for i in 0..W {
        let valid = (n - nans[i] as u64).max(1);
        sums[i] = sums[i].div_real(E::Float::real_from_u64(valid));
    }
    sums
}

/// Asks for the memory of `row` [`TILES_AHEAD`] tiles of `W` past `j`: a
/// block's rows are read a tile at a time, one short run per row, too many
/// streams at once for the hardware prefetcher.
#[inline(always)]
fn prefetch_tile<E, const W: usize>(row: &[E], j: usize) {
    let ahead = row.as_ptr().wrapping_add(j + TILES_AHEAD * W);
    for b in (0..W * size_of::<E>()).step_by(64) {
        crate::simd::prefetch::prefetch(ahead.wrapping_byte_add(b));
    }
}

/// The block moments of the columns `j..j + states.len()` of `rows`, merged
/// into `states`: column means, then the deviations from
/// them, with column accumulators in memory (the columns left after the
/// last whole tile).
#[inline(always)]
fn column_moments<E: Element>(states: &mut [Moments<E::Float>], rows: &[&[E]], j: usize) {
    let w = states.len();
    let mut columns: [&[E]; ROW_BLOCK] = [&[]; ROW_BLOCK];
    for (c, row) in columns.iter_mut().zip(rows) {
        *c = &row[j..j + w];
    }
    let (sums, nans) = column_sums(w, &columns[..rows.len()], E::to_float);
    let n = rows.len() as u64;
    let mut centers: Vec<E::Float> = sums.clone();
    for c in 0..w {
        let valid = (n - nans[c] as u64).max(1);
        centers[c] = sums[c].div_real(E::Float::real_from_u64(valid));
    }
    let zero = <E::Float as Accumulator>::zero();
    let zero_r = <<E::Float as FloatAcc>::Real as Zero>::zero();
    let mut r = vec![zero; w];
    let mut q = vec![zero_r; w];
    for row in rows {
        let (r, q, centers, row) = (&mut r[..w], &mut q[..w], &centers[..w], &row[j..j + w]);
        for c in 0..w {
            let d = deviation(row[c], centers[c]);
            r[c] = r[c] + d;
            q[c] = q[c] + d.abs2();
        }
    }
    for c in 0..w {
        let valid = n - nans[c] as u64;
        states[c].merge(&Moments::from_deviations(valid, centers[c], r[c], q[c]));
    }
}

/// Implements [`Reducer`] for `$t`, the variance (`$std = false`) or the
/// standard deviation (`$std = true`) with the ddof `self.0`.
macro_rules! var_reducer {
    ($t:ty, $std:literal) => {
        impl<E: Element> Reducer<E> for $t {
            type Value = E::Float;
            type State = Moments<E::Float>;
            type Output = E::Var;
            #[inline(always)]
            /// Block by block; a block is centered on the state's mean once the
            /// state holds half a block (one pass fewer: see [`tile_moments`] for
            /// why the rounding stays that of a two-pass sum).
            fn push_slice(&self, st: &mut Self::State, xs: &[E]) {
                for block in xs.chunks(BLOCK) {
                    if let Some(center) = st.running_center(block.len()) {
                        let (r, n) = counted_deviation_sum(block, center);
                        let q = lane_sum(block, center, squared_deviation);
                        st.merge(&Moments::from_deviations(n, center, r, q));
                    } else {
                        st.merge(&block_moments(block));
                    }
                }
            }
            const SHORT: bool = true;
            /// Both passes over the lane in registers: the mean, then the
            /// deviations from it, each added as a tree.
            #[inline(always)]
            fn short_state<const L: usize>(&self, xs: &[E; L]) -> Self::State {
                let (sum, n) = short_sum(xs, E::to_float);
                if n == 0 {
                    return Moments::default();
                }
                let center = sum.div_real(E::Float::real_from_u64(n));
                let zero = <E::Float as Accumulator>::zero();
                let mut d = [zero; L];
                for i in 0..L {
                    d[i] = deviation(xs[i], center);
                }
                let q = fold_tree(d.map(|d| d.abs2()), |a, b| a + b);
                let r = fold_tree(d, |a, b| a + b);
                Moments::from_deviations(n, center, r, q)
            }
            /// The block's moments of each column from its deviations (sum and sum
            /// of squares: the corrected two-pass formula, as in `block_moments`)
            /// from a center near the column's mean, merged into its state with
            /// Chan. Columns go in tiles of [`COLUMN_TILE`] ([`tile_moments`]), the
            /// columns after the last whole tile together ([`column_moments`]).
            #[inline(always)]
            fn push_rows(&self, states: &mut [Self::State], rows: &[&[E]]) {
                for rows in rows.chunks(ROW_BLOCK) {
                    let mut tiles = states.chunks_exact_mut(COLUMN_TILE);
                    let mut j = 0;
                    for tile in &mut tiles {
                        tile_moments::<E, COLUMN_TILE>(
                            tile.try_into().expect("a whole tile"),
                            rows,
                            j,
                        );
                        j += COLUMN_TILE;
                    }
                    let rest = tiles.into_remainder();
                    if !rest.is_empty() {
                        column_moments(rest, rows, j);
                    }
                }
            }
            fn finish(&self, st: &Self::State) -> E::Var {
                let v = st
                    .variance(self.0 .0)
                    .unwrap_or_else(<E::Float as FloatAcc>::Real::nan);
                if $std {
                    E::std_from_real(v)
                } else {
                    E::var_from_real(v)
                }
            }
            fn degenerate(&self, st: &Self::State) -> bool {
                st.variance(self.0 .0).is_none()
            }
        }
    };
}

/// [`nanvar`](crate::nanvar) with its `ddof`; degenerate: `count − ddof ≤ 0`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NanVar(pub Ddof);

/// [`nanstd`](crate::nanstd) with its `ddof`; degenerate: `count − ddof ≤ 0`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NanStd(pub Ddof);

var_reducer!(NanVar, false);
var_reducer!(NanStd, true);
statistics!(NanVar, NanStd);
