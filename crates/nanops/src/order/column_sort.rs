//! Order statistics of short strided lanes (axis 0 of an image stack: a
//! million lanes of 64 values) by sorting networks run across lanes.
//!
//! One lane at a time, the median of 64 values pays for a transposing copy
//! of the lane, a copy of its valid values and a selection (in a profile the
//! transposing copy took 40% of the samples, the selection most of the
//! rest). Here the lanes stay as memory holds
//! them, side by side: each reduced index is a row of the tile's values,
//! copied as it is (NaN as `+inf`, the valid values counted per lane); a
//! sub-tile of [`SUB_BYTES`] (in L1) is then sorted column by column by
//! Batcher's odd-even merge network, every comparator a loop across the
//! sub-tile's columns, which vectorises across lanes. A lane's `n` valid
//! values are then the first `n` rows of its sorted column (`+inf` sorts
//! last, and a valid `+inf` is the same value as the padding), and the
//! statistic reads its ranks there ([`OrderStatistic::of_sorted`]).
//!
//! A lane's result depends on its values only, so any split of the lanes
//! among threads gives the same bits. The values picked are those of the
//! lane's sorted valid values, as the copying path's selection picks them:
//! the same results, a zero's sign aside where `-0.0` and `0.0` tie.

use super::select::{sort_columns_by, QuantileScratch};
use super::statistic::OrderStatistic;
use crate::element::{QuantileElement, SelectFloat};
use crate::layout::Walker;

/// Longest lane sorted across lanes (longer lanes are bracketed or selected
/// one by one).
pub(crate) const MAX_SORTED_LANE: usize = 64;

/// Bytes of one sub-tile sorted at a time: the network's many passes over
/// it stay in the L1 cache.
const SUB_BYTES: usize = 16 << 10;

/// The comparators of Batcher's odd-even merge sort of `n` inputs (`n` a
/// power of two), in an order that sorts: for each merge size `p` and
/// distance `k`, the pairs `(i + j, i + j + k)` that lie in one block of
/// `2p` inputs.
pub(crate) fn batcher_pairs(n: usize) -> Vec<(usize, usize)> {
    debug_assert!(n.is_power_of_two());
    let mut pairs = Vec::new();
    let mut p = 1;
    while p < n {
        let mut k = p;
        while k >= 1 {
            let mut j = k % p;
            while j + k < n {
                for i in 0..k.min(n - j - k) {
                    if (i + j) / (2 * p) == (i + j + k) / (2 * p) {
                        pairs.push((i + j, i + j + k));
                    }
                }
                j += 2 * k;
            }
            k /= 2;
        }
        p *= 2;
    }
    pairs
}

/// Reusable buffers of [`sorted_tile`]: the tile's rows, one sub-tile, the
/// valid counts and the network.
#[derive(Default)]
pub(crate) struct ColumnScratch<T> {
    rows: Vec<T>,
    sub: Vec<T>,
    valid: Vec<u32>,
    pairs: Vec<(usize, usize)>,
    pairs_for: usize,
}

/// Writes the statistic of the `width` side-by-side lanes of `lane` values
/// (at most [`MAX_SORTED_LANE`]) of plan-order outputs `start..start +
/// width` into `out` (`stat.width()` values per lane); returns how many
/// lanes had no valid value.
#[allow(clippy::too_many_arguments)]
pub(crate) fn sorted_tile<E, R, S>(
    walker: &Walker<'_, E>,
    start: usize,
    width: usize,
    lane: usize,
    stat: &S,
    buf: &mut ColumnScratch<E::Value>,
    scratch: &mut QuantileScratch,
    out: &mut [R],
) -> usize
where
    E: QuantileElement,
    R: SelectFloat + From<E::Value>,
    S: OrderStatistic,
{
    debug_assert!((1..=MAX_SORTED_LANE).contains(&lane));
    let inf = E::Value::from_f64_nearest(f64::INFINITY);
    let height = lane.next_power_of_two().max(2);
    if buf.pairs_for != height {
        buf.pairs = batcher_pairs(height);
        buf.pairs_for = height;
    }
    // The rows as memory holds them, NaN as +inf, and the valid counts.
    buf.rows.clear();
    buf.rows.reserve(lane * width);
    buf.valid.clear();
    buf.valid.resize(width, 0);
    let valid = &mut buf.valid[..];
    let rows = &mut buf.rows;
    // Two loops over the row (in L1 by the second), each vectorised: a
    // `push` per value checked the capacity each time and kept the copy
    // scalar, 37% of `nanmedian`'s samples along axis 0 of a
    // (64, 1024, 1024) `f32` stack (`perf annotate`).
    walker.for_each_row_of(start, width, |row| {
        let row = &row[..width];
        for (count, x) in valid.iter_mut().zip(row) {
            *count += !x.is_nan_value() as u32;
        }
        rows.extend(
            row.iter()
                .map(|&x| if x.is_nan_value() { inf } else { x.to_value() }),
        );
    });
    debug_assert_eq!(rows.len(), lane * width);
    let size = std::mem::size_of::<E::Value>().max(1);
    let sub_width = (SUB_BYTES / (height * size)).clamp(8, 64);
    let nq = stat.width();
    let skips_nan = stat.nan_policy().skips_nan();
    let mut degenerate = 0;
    buf.sub.resize(height * sub_width, inf);
    for c0 in (0..width).step_by(sub_width) {
        let w = sub_width.min(width - c0);
        let sub = &mut buf.sub[..height * w];
        for i in 0..lane {
            sub[i * w..(i + 1) * w].copy_from_slice(&rows[i * width + c0..i * width + c0 + w]);
        }
        sub[lane * w..].fill(inf);
        E::dispatch(
            #[inline(always)]
            || sort_columns_by(sub, w, &buf.pairs),
        );
        for k in 0..w {
            let n = buf.valid[c0 + k] as usize;
            let out = &mut out[(c0 + k) * nq..(c0 + k + 1) * nq];
            if n == 0 || (!skips_nan && n < lane) {
                degenerate += (n == 0) as usize;
                out.fill(R::NAN);
            } else {
                let sub = &*sub;
                stat.of_sorted(n, |r| sub[r * w + k], scratch, out);
            }
        }
    }
    degenerate
}

#[cfg(test)]
mod tests {
    use super::batcher_pairs;

    /// Every network sorts every 0/1 input of its size (the 0-1 principle:
    /// then it sorts every input), up to 16 inputs; larger ones sort random
    /// inputs with ties.
    #[test]
    fn batcher_networks_sort() {
        let apply = |pairs: &[(usize, usize)], v: &mut Vec<u32>| {
            for &(a, b) in pairs {
                if v[b] < v[a] {
                    v.swap(a, b);
                }
            }
        };
        for n in [2usize, 4, 8, 16] {
            let pairs = batcher_pairs(n);
            for bits in 0u32..(1 << n) {
                let mut v: Vec<u32> = (0..n).map(|i| (bits >> i) & 1).collect();
                apply(&pairs, &mut v);
                assert!(v.windows(2).all(|w| w[0] <= w[1]), "n {n} input {bits:b}");
            }
        }
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for n in [32usize, 64] {
            let pairs = batcher_pairs(n);
            for _ in 0..2000 {
                let mut v: Vec<u32> = (0..n)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        (x % 50) as u32
                    })
                    .collect();
                let mut want = v.clone();
                want.sort_unstable();
                apply(&pairs, &mut v);
                assert_eq!(v, want, "n {n}");
            }
        }
    }
}
