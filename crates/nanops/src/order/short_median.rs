//! Medians of many short lanes (`(100000, 10)` along axis 1), sorted side by
//! side.
//!
//! One lane at a time, a median of ten values pays for a copy, a call and a
//! sorting network run on one lane's worth of registers. Here a tile of
//! lanes is laid out as columns (value `l` of lane `k` at row `l`), NaN
//! dropped and the rest padded with `+inf`, and every comparator of the
//! network is one loop across the tile, which vectorises across lanes. The
//! network and its padding are those of the one-lane path
//! (`select::small_sort`), so the picked middles are the same values (a
//! zero's sign aside: the one-lane path picks its network by the number of
//! valid values, this one by the lane length).

use super::select::{median_of_middles, sort_columns};
use crate::element::{QuantileElement, SelectFloat};
use crate::layout::Walker;
use crate::simd::prefetch::prefetch_lines_ahead;

/// Lanes sorted together: 16 rows of 64 `f64` are 8 KB, in the L1 cache.
const TILE: usize = 64;

/// The longest lanes sorted here (the network's rows); longer short lanes
/// (to `layout::SHORT_LANE`) take the one-lane path.
pub(crate) const SHORT_MEDIAN_LANE: usize = 16;

/// Writes the medians of the plan-order outputs `start..start + out.len()`,
/// each one lane of at most 16 values, into `out`; returns how many had no
/// valid value (NaN results that NumPy warns about).
///
/// With `ignore_nan` false (`median`), a lane holding NaN gives NaN.
pub(crate) fn short_medians<E, R>(
    walker: &Walker<'_, E>,
    start: usize,
    lane: usize,
    ignore_nan: bool,
    out: &mut [R],
) -> usize
where
    E: QuantileElement,
    R: SelectFloat + From<E::Value>,
{
    debug_assert!((1..=SHORT_MEDIAN_LANE).contains(&lane), "a short lane");
    let rows = if lane <= 8 { 8 } else { SHORT_MEDIAN_LANE };
    let inf = E::Value::from_f64_nearest(f64::INFINITY);
    let mut block = vec![inf; rows * TILE];
    let mut valid = [0usize; TILE];
    let mut degenerate = 0;
    for (t, out) in out.chunks_mut(TILE).enumerate() {
        let width = out.len();
        block.fill(inf);
        valid[..width].fill(0);
        // Valid values go down their column one after another, without a
        // branch: every value is written where the next valid one goes, and
        // only a valid one moves that place on. A NaN written last is then
        // covered by +inf.
        walker.for_each_run(start + t * TILE, width, |k, xs| {
            // The lane's lines 8 KB ahead: faster from main memory (f64
            // (100000, 10)), no slower cached.
            prefetch_lines_ahead(xs);
            let mut n = valid[k];
            for &x in xs {
                block[n * TILE + k] = x.to_value();
                n += !x.is_nan_value() as usize;
            }
            if n < rows {
                block[n * TILE + k] = inf;
            }
            valid[k] = n;
        });
        E::dispatch(
            #[inline(always)]
            || sort_columns(&mut block, TILE, rows),
        );
        for k in 0..width {
            let n = valid[k];
            // every lane holds `lane` values: fewer valid ones means NaN
            out[k] = if n == 0 || (!ignore_nan && n < lane) {
                degenerate += (n == 0) as usize;
                R::NAN
            } else {
                let (lo, hi) = (block[(n - 1) / 2 * TILE + k], block[n / 2 * TILE + k]);
                R::from(median_of_middles(n, lo, hi))
            };
        }
    }
    degenerate
}
