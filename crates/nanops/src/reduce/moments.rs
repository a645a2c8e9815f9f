//! Variance kernel: cache-sized blocks, each reduced about a center near
//! its mean, merged with Chan; skewness and kurtosis the same way with the
//! third and fourth powers, merged with Pébay (see [`NanSkew`]).
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

use super::reducer::{fold_tree, Reducer, BLOCK, LANES, ROW_BLOCK};
use super::register::statistics;
use super::sum::{block_sum, column_sums, short_sum};
use crate::element::{Accumulator, Element, FloatAcc};
use crate::options::Ddof;
use crate::simd::prefetch::prefetch_ahead;
use crate::states::{HigherMoments, Moments, State};
use num_traits::{Float, One, Zero};

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
    if !q.is_finite() {
        return overflowed_moments(xs.iter().copied());
    }
    Moments::from_deviations(n, center, r, q)
}

/// The moments of `values` (NaN skipped) where the block kernels' sum of
/// squared deviations was not finite: a plain two-pass computation whose
/// center is the mean even where the values' float sum overflows (then
/// `Σ x/n`, which cannot), so `m2` is `+inf` or the true value for finite
/// values, and NaN only where an infinity is among them.
#[inline(never)]
fn overflowed_moments<E: Element>(values: impl Iterator<Item = E> + Clone) -> Moments<E::Float> {
    let valid = || {
        values
            .clone()
            .filter(|x| !x.is_nan_value())
            .map(E::to_float)
    };
    let n = valid().count() as u64;
    if n == 0 {
        return Moments::default();
    }
    let nr = E::Float::real_from_u64(n);
    let zero = <E::Float as Accumulator>::zero();
    let mut center = valid().fold(zero, |s, x| s + x).div_real(nr);
    if !center.all_finite() {
        // the values' float sum overflowed (or they hold an infinity)
        center = valid().fold(zero, |s, x| s + x.div_real(nr));
    }
    let (mut r, mut q) = (zero, <<E::Float as FloatAcc>::Real as Zero>::zero());
    for x in valid() {
        let d = x - center;
        r = r + d;
        q = q + d.abs2();
    }
    Moments::from_deviations(n, center, r, q)
}

/// `Σ (x − center)` and `Σ |x − center|²` over the non-NaN values of `xs`,
/// each in a loop of its own whose lanes add up in lane order at the end.
///
/// The shape is for LLVM's vectoriser: one loop keeping both sums, lanes
/// folded by halving, or a remainder added into the lanes made it pair the
/// lanes two by two in 128-bit registers, a quarter of the AVX-512 width.
/// This way both loops use whole registers (`kernel_timing nanvar`: float32
/// faster on one thread and on two).
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
/// Tiles, one read per value and the prefetch: `(10000, 1000)` along axis 0
/// measured faster on one thread for `f64` and `f32` (`kernel_timing`).
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
        if !q[i].is_finite() {
            // squares about the running (or the block's rounded) mean overflowed
            states[i].merge(&overflowed_moments(rows.iter().map(|row| row[j + i])));
        } else {
            states[i].merge(&Moments::from_deviations(valid[i], centers[i], r[i], q[i]));
        }
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
        if q[c].is_finite() {
            states[c].merge(&Moments::from_deviations(valid, centers[c], r[c], q[c]));
        } else {
            states[c].merge(&overflowed_moments(rows.iter().map(|row| row[j + c])));
        }
    }
}

/// The variance or, where `self.std`, the standard deviation, with the ddof
/// `self.ddof`.
impl<E: Element> Reducer<E> for VarOrStd {
    type Value = E::Float;
    type State = Moments<E::Float>;
    type Output = E::Var;
    type Kernel = Self;
    #[inline(always)]
    fn kernel(&self) -> &Self {
        self
    }
    #[inline(always)]
    /// Block by block; a block is centered on the state's mean once the
    /// state holds half a block (one pass fewer: see [`tile_moments`] for
    /// why the rounding stays that of a two-pass sum).
    fn push_slice(&self, st: &mut Self::State, xs: &[E]) {
        for block in xs.chunks(BLOCK) {
            if let Some(center) = st.running_center(block.len()) {
                let (r, n) = counted_deviation_sum(block, center);
                let q = lane_sum(block, center, squared_deviation);
                if q.is_finite() {
                    st.merge(&Moments::from_deviations(n, center, r, q));
                    continue;
                }
                // squares about a far center overflowed (the corrected
                // formula would make inf − inf): the block about its own mean
            }
            st.merge(&block_moments(block));
        }
    }
    #[inline(always)]
    fn push_value(&self, st: &mut Self::State, x: E) {
        if !x.is_nan_value() {
            st.push(x.to_float());
        }
    }
    const SHORT: bool = true;
    const PAD_SHORT: bool = false;
    /// Both passes over the lane in registers: the mean, then the
    /// deviations from it, each added as a tree.
    #[inline(always)]
    fn short_state<const L: usize>(&self, xs: &[E; L]) -> Self::State {
        // each value loaded once (NaN as zero), then every pass over the
        // registers: the loop over many short lanes vectorises across them,
        // and loads repeated per pass are repeated gathers there
        let zero = <E::Float as Accumulator>::zero();
        let mut values = [zero; L];
        let mut valid = [0u64; L];
        for i in 0..L {
            let nan = xs[i].is_nan_value();
            values[i] = if nan { zero } else { xs[i].to_float() };
            valid[i] = u64::from(!nan);
        }
        let n = fold_tree(valid, |a, b| a + b);
        if n == 0 {
            return Moments::default();
        }
        let nr = E::Float::real_from_u64(n);
        let narrow = std::mem::size_of::<E>() < 8;
        let mut inv = None;
        let center = if narrow {
            // values narrower than 8 bytes: a short lane's sum of them, and
            // of their squared deviations, in the wider float cannot overflow
            fold_tree(values, |a, b| a + b).div_real(nr)
        } else {
            // the sum of the values over n, which cannot overflow where
            // their float sum would (as `overflowed_moments` does after the
            // fact), without a branch or a call. Squares that overflow
            // about a finite center make `q` +inf, which `from_deviations`
            // keeps.
            let one_over_n = <<E::Float as FloatAcc>::Real as One>::one() / nr;
            inv = Some(one_over_n);
            fold_tree(values.map(|v| v.scale(one_over_n)), |a, b| a + b)
        };
        let mut d = [zero; L];
        for i in 0..L {
            d[i] = if valid[i] == 0 {
                zero
            } else {
                values[i] - center
            };
        }
        let q = fold_tree(d.map(|d| d.abs2()), |a, b| a + b);
        let r = fold_tree(d, |a, b| a + b);
        Moments::from_short_deviations(n, center, r, q, inv)
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
                tile_moments::<E, COLUMN_TILE>(tile.try_into().expect("a whole tile"), rows, j);
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
            .variance(self.ddof.0)
            .unwrap_or_else(<E::Float as FloatAcc>::Real::nan);
        if self.std {
            E::std_from_real(v)
        } else {
            E::var_from_real(v)
        }
    }
    fn degenerate(&self, st: &Self::State) -> bool {
        st.variance(self.ddof.0).is_none()
    }
}

/// [`nanvar`](crate::nanvar) with its `ddof`; degenerate: `count − ddof ≤ 0`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NanVar(pub Ddof);

/// [`nanstd`](crate::nanstd) with its `ddof`; degenerate: `count − ddof ≤ 0`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NanStd(pub Ddof);

pub(crate) use var_or_std::VarOrStd;

mod var_or_std {
    use crate::options::Ddof;

    /// The one kernel of [`NanVar`](super::NanVar) and
    /// [`NanStd`](super::NanStd) (their results, partial states and group
    /// forms): the square root is taken or not when a state is finished, so
    /// the moments kernels are compiled once for both. Public in name only
    /// (the statistics' associated types name it); unreachable from outside.
    #[derive(Clone, Copy, Debug, Default, PartialEq)]
    pub struct VarOrStd {
        /// Delta degrees of freedom.
        pub(crate) ddof: Ddof,
        /// The standard deviation rather than the variance.
        pub(crate) std: bool,
    }
}

impl From<NanVar> for VarOrStd {
    fn from(v: NanVar) -> Self {
        VarOrStd {
            ddof: v.0,
            std: false,
        }
    }
}

impl From<NanStd> for VarOrStd {
    fn from(s: NanStd) -> Self {
        VarOrStd {
            ddof: s.0,
            std: true,
        }
    }
}

statistics!(NanVar => VarOrStd, NanStd => VarOrStd);

// --- skewness and kurtosis ---------------------------------------------------

/// The real type skewness and kurtosis of `E` are computed in (`f64` for
/// `f32`, integers and `bool`; `f32` for `f16`/`bf16`).
type Real<E> = <<E as Element>::Float as FloatAcc>::Real;

/// `x` in [`Real`]: the real part of its floating type (the value itself for
/// real `E`; `x·1` folds away).
#[inline(always)]
fn real<E: Element>(x: E) -> Real<E> {
    x.to_float().dot_re(<E::Float as Accumulator>::one())
}

/// Whether `E` is complex: its floating type is wider than its real type.
fn is_complex<E: Element>() -> bool {
    size_of::<E::Float>() != size_of::<Real<E>>()
}

/// `x − center` in [`Real`]; zero for NaN (it adds nothing).
#[inline(always)]
fn real_deviation<E: Element>(x: E, center: Real<E>) -> Real<E> {
    if x.is_nan_value() {
        <Real<E> as Zero>::zero()
    } else {
        real(x) - center
    }
}

/// `Σ dᴷ`, `d = x − center`, over the non-NaN values of `xs` (`K` = 2, 3
/// or 4), in [`LANES`] lanes added in lane order, the values past the last
/// whole chunk after them: the shape [`deviation_sums`] found LLVM
/// vectorises at full width, one sum per loop.
#[inline(always)]
fn power_sum<E: Element, const K: u32>(xs: &[E], center: Real<E>) -> Real<E> {
    #[inline(always)]
    fn pow<R: Float, const K: u32>(d: R) -> R {
        let d2 = d * d;
        match K {
            2 => d2,
            3 => d2 * d,
            _ => d2 * d2,
        }
    }
    let mut chunks = xs.chunks_exact(LANES);
    let mut acc = [<Real<E> as Zero>::zero(); LANES];
    for c in &mut chunks {
        for i in 0..LANES {
            acc[i] = acc[i] + pow::<_, K>(real_deviation(c[i], center));
        }
    }
    let mut s = acc[0];
    for i in 1..LANES {
        s = s + acc[i];
    }
    for &x in chunks.remainder() {
        s = s + pow::<_, K>(real_deviation(x, center));
    }
    s
}

/// `Σ (x − center)` over the non-NaN values of `xs` and their count, as
/// [`counted_deviation_sum`] (the first read of a block: it asks for
/// memory ahead).
#[inline(always)]
fn counted_real_sum<E: Element>(xs: &[E], center: Real<E>) -> (u64, Real<E>) {
    let mut chunks = xs.chunks_exact(LANES);
    let mut acc = [<Real<E> as Zero>::zero(); LANES];
    let mut valid = [0u64; LANES];
    for c in &mut chunks {
        prefetch_ahead(c.as_ptr());
        for i in 0..LANES {
            acc[i] = acc[i] + real_deviation(c[i], center);
            valid[i] += !c[i].is_nan_value() as u64;
        }
    }
    let (mut s, mut n) = (acc[0], valid[0]);
    for i in 1..LANES {
        s = s + acc[i];
        n += valid[i];
    }
    for &x in chunks.remainder() {
        s = s + real_deviation(x, center);
        n += !x.is_nan_value() as u64;
    }
    (n, s)
}

/// `[Σd, Σd², Σd³, Σd⁴]` of `d = x − center` over the non-NaN values of
/// `xs`, and their count: one loop per sum over the block (in cache after
/// the first). Measured on one thread (`(1000, 10000)` `f64` along axis 1):
/// faster than one loop keeping the three power sums, as fast as 16 lanes
/// per sum, and a little slower than `nanvar`.
#[inline(always)]
fn power_sums<E: Element>(xs: &[E], center: Real<E>) -> (u64, [Real<E>; 4]) {
    let (n, s1) = counted_real_sum(xs, center);
    let s2 = power_sum::<E, 2>(xs, center);
    let s3 = power_sum::<E, 3>(xs, center);
    let s4 = power_sum::<E, 4>(xs, center);
    (n, [s1, s2, s3, s4])
}

/// Whether a block's state `b` from power sums about the running mean of
/// the state it merges into (whose `M2` is `m2`) may be kept:
/// `n_b·δ² ≤ M2 + M2_b`, `δ` the block's mean minus the center, i.e. the
/// between-means term the merge adds is at most the `M2` of the merged values.
///
/// The corrections of [`HigherMoments::from_power_sums`] cancel at most
/// `Σ|x − center|³` and `Σ(x − center)⁴` over the block, which for a center
/// near the final mean are what those values add to the two-pass sums
/// `Σ|x − mean|³`, `Σ(x − mean)⁴` anyway (the rounding argument of the
/// variance kernel, [`tile_moments`]). A block failing the test (the data
/// jump or drift away from the running mean) is summed again about its own
/// mean, in cache; stationary data pass (none of the blocks of a
/// `(100, 10000)` normal sample is summed twice).
#[inline(always)]
fn centered_enough<R: Float + Accumulator>(m2: R, b: &HigherMoments<R>, s1: R) -> bool {
    R::from(b.count()).is_some_and(|n| s1 * s1 <= n * (m2 + b.m2()))
}

/// The state of one block of at most [`BLOCK`] values: power sums about
/// `center`, the running mean of the state it merges into (with that
/// state's `M2`), when given and [`centered_enough`], otherwise about the
/// block's own rounded mean (a first pass while the block is in cache).
#[inline(always)]
fn block_higher<E: Element>(
    xs: &[E],
    center: Option<(Real<E>, Real<E>)>,
) -> HigherMoments<Real<E>> {
    if let Some((c, m2)) = center {
        let (n, s) = power_sums(xs, c);
        let st = HigherMoments::from_power_sums(n, c, s);
        if centered_enough(m2, &st, s[0]) {
            return st;
        }
    }
    let (sum, nans) = block_sum(xs, real::<E>);
    let n = xs.len() as u64 - nans;
    if n == 0 {
        return HigherMoments::default();
    }
    let c = sum / <E::Float as FloatAcc>::real_from_u64(n);
    let (n, s) = power_sums(xs, c);
    HigherMoments::from_power_sums(n, c, s)
}

/// Columns whose power sums [`tile_higher`] keeps in registers.
const HIGHER_TILE: usize = 8;

/// The block states of the `W` columns from `j` of `rows` (at most
/// [`ROW_BLOCK`] rows), merged into `states`: power sums about each
/// column's running mean once every state of the tile holds half as many
/// values as the block has rows, otherwise about the block's column means
/// (a first pass; the rows are in L1 for the second). A column not
/// [`centered_enough`] is summed again about its own mean.
#[inline(always)]
fn tile_higher<E: Element, const W: usize>(
    states: &mut [HigherMoments<Real<E>>],
    rows: &[&[E]],
    j: usize,
) {
    let zero = <Real<E> as Zero>::zero();
    let mut centers = [zero; W];
    let mut settled = true;
    for i in 0..W {
        let center = states[i].running_center(rows.len());
        centers[i] = center.unwrap_or(zero);
        settled &= center.is_some();
    }
    if !settled {
        centers = tile_real_means::<E, W>(rows, j);
    }
    let mut acc = [[zero; W]; 4];
    let mut valid = [0u64; W];
    for row in rows {
        let x: &[E; W] = row[j..j + W].try_into().expect("a whole tile");
        prefetch_tile::<E, W>(row, j);
        for i in 0..W {
            let nan = x[i].is_nan_value();
            let d = if nan { zero } else { real(x[i]) - centers[i] };
            let d2 = d * d;
            acc[0][i] = acc[0][i] + d;
            acc[1][i] = acc[1][i] + d2;
            acc[2][i] = acc[2][i] + d2 * d;
            acc[3][i] = acc[3][i] + d2 * d2;
            valid[i] += !nan as u64;
        }
    }
    for i in 0..W {
        let s = [acc[0][i], acc[1][i], acc[2][i], acc[3][i]];
        let mut st = HigherMoments::from_power_sums(valid[i], centers[i], s);
        if settled && !centered_enough(states[i].m2(), &st, s[0]) {
            st = column_higher(rows, j + i);
        }
        states[i].merge(&st);
    }
}

/// The means of the non-NaN values of the `W` columns from `j` of `rows`
/// in [`Real`] (zero for a column without one).
#[inline(always)]
fn tile_real_means<E: Element, const W: usize>(rows: &[&[E]], j: usize) -> [Real<E>; W] {
    let zero = <Real<E> as Zero>::zero();
    let mut sums = [zero; W];
    let mut valid = [0u64; W];
    for row in rows {
        let x: &[E; W] = row[j..j + W].try_into().expect("a whole tile");
        for i in 0..W {
            let nan = x[i].is_nan_value();
            sums[i] = sums[i] + if nan { zero } else { real(x[i]) };
            valid[i] += !nan as u64;
        }
    }
    for i in 0..W {
        sums[i] = sums[i] / <E::Float as FloatAcc>::real_from_u64(valid[i].max(1));
    }
    sums
}

/// The state of column `j` of `rows` in two passes (its mean, then the
/// power sums about it).
#[inline(never)]
fn column_higher<E: Element>(rows: &[&[E]], j: usize) -> HigherMoments<Real<E>> {
    let [c] = tile_real_means::<E, 1>(rows, j);
    let zero = <Real<E> as Zero>::zero();
    let (mut s, mut n) = ([zero; 4], 0u64);
    for row in rows {
        let x = row[j];
        if !x.is_nan_value() {
            let d = real(x) - c;
            let d2 = d * d;
            s = [s[0] + d, s[1] + d2, s[2] + d2 * d, s[3] + d2 * d2];
            n += 1;
        }
    }
    HigherMoments::from_power_sums(n, c, s)
}

/// Implements [`Reducer`] for a statistic of [`HigherMoments`] whose value
/// is `$value(self, state)` (in [`Real`]).
macro_rules! higher_reducer {
    ($t:ty, $value:expr) => {
        impl<E: Element> Reducer<E> for $t {
            type Value = Real<E>;
            type State = HigherMoments<Real<E>>;
            type Output = E::Var;
            type Kernel = Self;
            #[inline(always)]
            fn kernel(&self) -> &Self {
                self
            }
            /// Block by block ([`block_higher`]): one pass per block once
            /// the state's mean can center it, Pébay's merge between blocks.
            #[inline(always)]
            fn push_slice(&self, st: &mut Self::State, xs: &[E]) {
                for block in xs.chunks(BLOCK) {
                    let center = st.running_center(block.len()).map(|c| (c, st.m2()));
                    let b = block_higher(block, center);
                    st.merge(&b);
                }
            }
            const SHORT: bool = true;
            const PAD_SHORT: bool = false;
            /// Both passes over the lane in registers: the mean, then the
            /// power sums of the deviations from it, each added as a tree
            /// (`(100000, 10)` `f64` along axis 1 on one thread: less than
            /// half the time of lanes transposed into the rows kernel).
            #[inline(always)]
            fn short_state<const L: usize>(&self, xs: &[E; L]) -> Self::State {
                let (sum, n) = short_sum(xs, real::<E>);
                if n == 0 {
                    return HigherMoments::default();
                }
                let center = sum / <E::Float as FloatAcc>::real_from_u64(n);
                let mut d = [<Real<E> as Zero>::zero(); L];
                for i in 0..L {
                    d[i] = real_deviation(xs[i], center);
                }
                let d2 = d.map(|d| d * d);
                let mut d3 = d2;
                for i in 0..L {
                    d3[i] = d2[i] * d[i];
                }
                let add = |a: Real<E>, b: Real<E>| a + b;
                let s = [
                    fold_tree(d, add),
                    fold_tree(d2, add),
                    fold_tree(d3, add),
                    fold_tree(d2.map(|d2| d2 * d2), add),
                ];
                HigherMoments::from_power_sums(n, center, s)
            }
            /// Blocks of rows, columns in tiles of [`HIGHER_TILE`]
            /// ([`tile_higher`]; the columns after the last whole tile one
            /// by one).
            #[inline(always)]
            fn push_rows(&self, states: &mut [Self::State], rows: &[&[E]]) {
                for rows in rows.chunks(ROW_BLOCK) {
                    let mut tiles = states.chunks_exact_mut(HIGHER_TILE);
                    let mut j = 0;
                    for tile in &mut tiles {
                        tile_higher::<E, HIGHER_TILE>(tile, rows, j);
                        j += HIGHER_TILE;
                    }
                    for st in tiles.into_remainder() {
                        tile_higher::<E, 1>(std::slice::from_mut(st), rows, j);
                        j += 1;
                    }
                }
            }
            /// NaN (scipy's rule) where `m2 ≤ (ε·mean)²`, `ε` the result
            /// type's epsilon, and for complex `E`; the statistic otherwise.
            fn finish(&self, st: &Self::State) -> E::Var {
                let m2 = st.m2() / <E::Float as FloatAcc>::real_from_u64(st.count());
                let eps = <E::Float as FloatAcc>::real_from_f64(E::VAR_EPSILON);
                let scale = eps * st.mean();
                let value = if is_complex::<E>() || m2 <= scale * scale {
                    Real::<E>::nan()
                } else {
                    #[allow(clippy::redundant_closure_call)]
                    ($value)(self, st)
                };
                E::var_from_real(value)
            }
            /// Fewer than two values: no spread to standardise by (`n − 1 ≤ 0`
            /// degrees of freedom), as NumPy's `nanvar` with `ddof = 1`.
            fn degenerate(&self, st: &Self::State) -> bool {
                st.count() < 2 || is_complex::<E>()
            }
        }
    };
}

/// [`nanskew`](crate::nanskew): sample skewness of the non-NaN values, as
/// `scipy.stats.skew(x, bias=bias, nan_policy="omit")`.
///
/// ```text
/// g1 = m3 / m2^1.5                         mₖ = Σ(xᵢ − mean)ᵏ / n over the n non-NaN xᵢ
/// G1 = g1·√(n(n − 1)) / (n − 2)            bias = false and n > 2 (else g1, as scipy)
/// ```
///
/// NaN where `m2 ≤ (ε·mean)²` with `ε` the machine epsilon of the result
/// type: scipy's rule for data too close to constant (all values equal
/// included) to have a meaningful skewness; also for slices of fewer than
/// two values (degenerate: NumPy's "Degrees of freedom <= 0" slices) and for
/// complex input (`report` only: the free functions take real types).
///
/// Accuracy: blocks of 256 values are summed about a center near their
/// mean (the state's running mean, or the block's own), corrected to central
/// sums ([`HigherMoments::from_power_sums`]) and merged with Pébay's
/// formulas, so an offset (values near `1e8`) costs no digits.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NanSkew {
    /// `false`: the adjusted Fisher–Pearson coefficient `G1`.
    pub bias: bool,
}

/// [`nankurt`](crate::nankurt): sample kurtosis of the non-NaN values, as
/// `scipy.stats.kurtosis(x, fisher=fisher, bias=bias, nan_policy="omit")`.
///
/// ```text
/// g2 = m4 / m2²                                                     bias = true
/// G2 = ((n + 1)·g2 − 3(n − 1))·(n − 1) / ((n − 2)(n − 3)) + 3       bias = false, n > 3 (else g2)
/// result = g2 − 3 (or G2 − 3) with fisher, g2 (or G2) without
/// ```
///
/// NaN as [`NanSkew`]; computed the same way.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NanKurt {
    /// `false`: the k-statistic estimate `G2`.
    pub bias: bool,
    /// `true`: excess kurtosis (Fisher's, 0 for a normal distribution);
    /// `false`: Pearson's (3 for a normal distribution).
    pub fisher: bool,
}

higher_reducer!(NanSkew, |s: &NanSkew, st: &HigherMoments<_>| st
    .skewness(s.bias));
higher_reducer!(NanKurt, |s: &NanKurt, st: &HigherMoments<_>| st
    .kurtosis(s.bias, s.fisher));
statistics!(NanSkew, NanKurt);
