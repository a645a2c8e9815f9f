//! Strided lanes gathered a tile at a time: the order statistics of a
//! reduction along a non-contiguous axis (axis 0 of a climate cube, of a
//! sensor table, of an image stack).
//!
//! A tile is `width` lanes that sit side by side in memory. One pass over the
//! reduced axis reads, at each reduced index, the contiguous row of the
//! tile's `width` values (a few cache lines of one page, not one line per
//! lane) and transposes it into a column of contiguous scratch, lane `g`
//! from `g·lane`, NaN kept: the copy has no data-dependent stores. The tile
//! is sized to stay in the per-core L2 cache between that copy and the
//! selections that follow, one lane after another, from contiguous scratch.
//! Threads take whole tiles (the driver's tasks are whole multiples of the
//! tile width), and every lane's result depends on its values only, so any
//! thread count gives the same bits.
//!
//! ```text
//! memory (axis 0 reduced)        scratch (one tile)
//! row 0: a0 b0 c0 d0 …           a0 a1 a2 … | b0 b1 b2 … | c0 c1 …
//! row 1: a1 b1 c1 d1 …    →      lane a       lane b       lane c
//! row 2: a2 b2 c2 d2 …
//! ```

use super::select::copy_valid;
use crate::element::{QuantileElement, SelectFloat};
use crate::layout::Walker;
use crate::simd::compress::COPY_SLACK;

/// Bytes of scratch one tile fills: half the 1 MiB per-core L2 of the
/// machines measured (the copy's reads stream through the rest).
const TILE_BYTES: usize = 512 << 10;
/// Most scratch a tile of two cache lines per row may take: a tile as
/// narrow as one line reads a line per row where the hardware fetches the
/// pair of lines around it, so long lanes are taken two lines wide while
/// the tile stays within the per-core L2 (1.25 MiB or more on the machines
/// measured).
const PAIR_TILE_BYTES: usize = 1280 << 10;
/// Most lanes in one tile (bounds the stores one row spreads over).
const MAX_TILE_WIDTH: usize = 1024;
/// Most scratch one task may hold for a tile of long lanes (a tile is at
/// least a cache line of each row wide; beyond this, lanes are copied one
/// at a time).
const MAX_TILE_SCRATCH: usize = 256 << 20;

/// How many side-by-side lanes of `lane` values one tile holds, when the
/// values are `size` bytes wide: a whole number of cache lines of each row,
/// as many as fit [`TILE_BYTES`] of scratch, at least two where they fit
/// [`PAIR_TILE_BYTES`] and else one; `None` when even
/// one cache line's worth of lanes would take more than
/// [`MAX_TILE_SCRATCH`].
pub(crate) fn tile_width(lane: usize, size: usize) -> Option<usize> {
    let line = (64 / size.max(1)).max(1);
    let lane_bytes = lane.saturating_mul(size).max(1);
    if lane_bytes.saturating_mul(line) > MAX_TILE_SCRATCH {
        return None;
    }
    let fit = TILE_BYTES / lane_bytes;
    let least = if lane_bytes.saturating_mul(2 * line) <= PAIR_TILE_BYTES {
        2 * line
    } else {
        line
    };
    Some((fit / line * line).clamp(least.min(MAX_TILE_WIDTH), MAX_TILE_WIDTH))
}

/// Copies the `width` side-by-side lanes of `lane` values of plan-order
/// outputs `start..start + width` into `block`, lane `g` at
/// `g·lane..(g + 1)·lane` in some fixed order of the reduced indices, NaN
/// included (the caller checks [`Walker::side_by_side`]).
pub(crate) fn transpose_tile<E: QuantileElement>(
    walker: &Walker<'_, E>,
    start: usize,
    width: usize,
    lane: usize,
    block: &mut Vec<E::Value>,
) {
    let len = width * lane;
    // every slot is written below: the scratch is not zeroed first
    block.clear();
    block.reserve(len);
    let spare = &mut block.spare_capacity_mut()[..len];
    let mut i = 0;
    walker.for_each_row_of(start, width, |row| {
        assert!(
            i < lane && row.len() == width,
            "a row of the tile out of its shape"
        );
        // the row's value `g` goes to lane `g`'s slot `i`, at `g·lane + i`:
        // a running offset, no division or bounds check per row
        let mut at = i;
        for &x in row {
            // SAFETY: `at = g·lane + i` with `g < width` and `i < lane`
            // (asserted above), so `at < width·lane = spare.len()`.
            unsafe { spare.get_unchecked_mut(at).write(x.to_value()) };
            at += lane;
        }
        i += 1;
    });
    assert_eq!(i, lane, "a tile of fewer rows than the lane has values");
    // SAFETY: each of the `lane` rows wrote its slot of every lane, so all
    // `width·lane` slots are initialised.
    unsafe { block.set_len(len) };
}

/// Writes the non-NaN values of `xs` to `vals` (cleared first, grown as
/// needed); returns whether there was a NaN.
pub(crate) fn collect_valid<T: SelectFloat>(vals: &mut Vec<T>, xs: &[T]) -> bool {
    vals.clear();
    vals.reserve(xs.len() + COPY_SLACK);
    if let Some(end) = copy_valid(xs, vals.spare_capacity_mut()) {
        // SAFETY: the SIMD copy wrote the first `end` spare slots.
        unsafe { vals.set_len(end) };
        return end < xs.len();
    }
    let spare = &mut vals.spare_capacity_mut()[..xs.len()];
    let mut end = 0;
    for &x in xs {
        // `end` ≤ the number of values seen so far, so it stays in `spare`
        spare[end].write(x);
        end += !x.is_nan_value() as usize;
    }
    // SAFETY: the first `end` spare slots were written (valid values only).
    unsafe { vals.set_len(end) };
    end < xs.len()
}

#[cfg(test)]
mod tests {
    use super::{collect_valid, tile_width, MAX_TILE_WIDTH, PAIR_TILE_BYTES, TILE_BYTES};

    #[test]
    fn tiles_are_whole_cache_lines_within_the_budget() {
        for size in [2, 4, 8, 16] {
            let line = 64 / size;
            for lane in [1, 2, 10, 64, 365, 1460, 10_000, 100_000, 1_000_000] {
                let width = tile_width(lane, size).expect("fits");
                assert_eq!(width % line, 0, "lane {lane} size {size}");
                assert!(width >= line && width <= MAX_TILE_WIDTH);
                assert!(
                    width <= 2 * line && width * lane * size <= PAIR_TILE_BYTES
                        || width * lane * size <= TILE_BYTES
                        || width == line
                );
            }
        }
        assert_eq!(tile_width(usize::MAX / 2, 8), None);
    }

    #[test]
    fn collect_valid_keeps_the_order_of_the_valid_values() {
        for len in [0, 1, 7, 64, 65, 1000] {
            let xs: Vec<f64> = (0..len)
                .map(|i| if i % 3 == 1 { f64::NAN } else { i as f64 })
                .collect();
            let mut vals = vec![9.0; 3];
            let had_nan = collect_valid(&mut vals, &xs);
            let want: Vec<f64> = xs.iter().copied().filter(|x| !x.is_nan()).collect();
            assert_eq!(vals, want);
            assert_eq!(had_nan, want.len() < len);
        }
    }
}
