//! Exact order statistics of lanes held in many chunks, for distributed
//! engines (`nanops.dask`): no chunk ever sees a whole lane.
//!
//! The selection runs in two passes over the chunks. The first reads from
//! each chunk, per lane, its count of valid values and a *grid*: the values
//! at `k + 1` evenly spaced ranks of the chunk's part of the lane
//! ([`grid_ranks`]). From every chunk's grid, [`grid_brackets`] finds for
//! each wanted rank of the whole lane a bracket `[lo, hi]` that surely holds
//! it (bounds from exact ranks, not estimates). The second pass reads each
//! chunk again and [`bracket_select`] counts, per lane and bracket, the
//! values below `lo`, equal to `lo` and equal to `hi`, and keeps the values
//! strictly inside; [`group_by_owner`] then sorts the kept values of all
//! chunks lane by lane, from which the engine reads the wanted ranks.

use ndarray::{Array2, ArrayView2, ArrayView3};

use crate::element::SelectFloat;

/// The ranks of a chunk's grid for `count` valid values: rank `i` (of
/// `0..=k`) is `floor((count - 1) · (i / k))` computed in `f64`, the rank
/// `nanquantile(method="lower")` reads for `q = i / k`.
///
/// ```
/// use nanops::chunked::grid_ranks;
///
/// assert_eq!(grid_ranks(11, 4), vec![0, 2, 5, 7, 10]);
/// assert_eq!(grid_ranks(0, 2), vec![0, 0, 0]);
/// ```
pub fn grid_ranks(count: usize, k: usize) -> Vec<i64> {
    let c1 = count.saturating_sub(1) as f64;
    (0..=k)
        .map(|i| (c1 * (i as f64 / k.max(1) as f64)).floor() as i64)
        .collect()
}

/// A key ordering `f64` values as `<` does, `-0.0` just below `+0.0`, NaN last.
#[inline]
fn order_key(v: f64) -> u64 {
    if v.is_nan() {
        return u64::MAX;
    }
    let bits = v.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    }
}

/// The value of an [`order_key`] (not called for NaN's key).
#[inline]
fn from_order_key(key: u64) -> f64 {
    if key >> 63 == 1 {
        f64::from_bits(key & !(1 << 63))
    } else {
        f64::from_bits(!key)
    }
}

/// One grid entry of one chunk: its value's key, the number of the chunk's
/// values from its rank up to the next grid rank (`up`), and from the rank
/// after the previous grid rank up to its own (`down`).
#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    up: i64,
    down: i64,
}

/// Guaranteed brackets for ranks of lanes split into chunks.
///
/// `grids` is `(chunks, lanes, k + 1)`: for each chunk and lane the values at
/// the chunk's [`grid_ranks`] of its `counts[chunk, lane]` valid values
/// (ignored where the count is 0). `targets_lo` and `targets_hi` are
/// `(lanes, brackets)`: a bracket must hold the whole lane's ranks
/// `targets_lo ..= targets_hi` (`-1` for no bracket). The result is `(lo,
/// hi)`, each `(lanes, brackets)` in `f64` (NaN where there is no bracket):
/// at most `targets_lo` of the lane's values are below `lo`, and at least
/// `targets_hi + 1` are at or below `hi`, so the values at those ranks lie in
/// `[lo, hi]`. Both bounds are grid values.
///
/// How: merged over the chunks and sorted, every grid entry bounds from
/// above the values surely below it (the sum of `up` of the entries before
/// it) and from below those at or below it (the sum of `down` up to it);
/// `lo` is the last entry whose first bound is at most `targets_lo`, `hi`
/// the first whose second reaches `targets_hi + 1`. Ties between entries may
/// sort in any order: a bound then only gets looser.
///
/// ```
/// use nanops::chunked::{grid_brackets, grid_ranks};
/// use ndarray::{array, Array3};
///
/// // one lane in two chunks: [0, 1, …, 9] and [10, …, 19], grids of k = 2
/// let k = 2;
/// let mut grids = Array3::<f64>::zeros((2, 1, k + 1));
/// for (c, start) in [0.0, 10.0].into_iter().enumerate() {
///     for (i, r) in grid_ranks(10, k).into_iter().enumerate() {
///         grids[[c, 0, i]] = start + r as f64;
///     }
/// }
/// let counts = array![[10i64], [10]];
/// let (lo, hi) = grid_brackets(grids.view(), counts.view(), k,
///                              array![[9i64]].view(), array![[10i64]].view());
/// // ranks 9 and 10 of the whole lane are 9.0 and 10.0: the grids pin them exactly
/// assert_eq!((lo[[0, 0]], hi[[0, 0]]), (9.0, 10.0));
/// ```
pub fn grid_brackets<T: SelectFloat>(
    grids: ArrayView3<'_, T>,
    counts: ArrayView2<'_, i64>,
    k: usize,
    targets_lo: ArrayView2<'_, i64>,
    targets_hi: ArrayView2<'_, i64>,
) -> (Array2<f64>, Array2<f64>) {
    let (chunks, lanes, width) = grids.dim();
    let brackets = targets_lo.ncols();
    let mut lo = Array2::from_elem((lanes, brackets), f64::NAN);
    let mut hi = Array2::from_elem((lanes, brackets), f64::NAN);
    let mut entries: Vec<Entry> = Vec::with_capacity(chunks * width);
    let mut below: Vec<i64> = Vec::with_capacity(chunks * width);
    let mut at_or_below: Vec<i64> = Vec::with_capacity(chunks * width);
    let mut ranks_by_count: Vec<(i64, Vec<i64>)> = Vec::new();
    for lane in 0..lanes {
        if targets_lo.row(lane).iter().all(|&t| t < 0) {
            continue;
        }
        entries.clear();
        for c in 0..chunks {
            let n = counts[[c, lane]];
            if n <= 0 {
                continue;
            }
            // chunks mostly share a count: keep the last few rank plans
            let ranks = match ranks_by_count.iter().position(|(m, _)| *m == n) {
                Some(i) => &ranks_by_count[i].1,
                None => {
                    if ranks_by_count.len() == 8 {
                        ranks_by_count.remove(0);
                    }
                    ranks_by_count.push((n, grid_ranks(n as usize, k)));
                    &ranks_by_count.last().expect("just pushed").1
                }
            };
            for (i, &p) in ranks.iter().enumerate().take(width) {
                let next = ranks.get(i + 1).copied().unwrap_or(n);
                let prev = if i == 0 { -1 } else { ranks[i - 1] };
                entries.push(Entry {
                    key: order_key(grids[[c, lane, i]].to_f64_exact()),
                    up: next - p,
                    down: p - prev,
                });
            }
        }
        if entries.is_empty() {
            continue;
        }
        entries.sort_unstable_by_key(|e| e.key);
        below.clear();
        at_or_below.clear();
        let (mut sum_up, mut sum_down) = (0i64, 0i64);
        for e in &entries {
            below.push(sum_up);
            sum_up += e.up;
            sum_down += e.down;
            at_or_below.push(sum_down);
        }
        let last = entries.len() - 1;
        for b in 0..brackets {
            let (t_lo, t_hi) = (targets_lo[[lane, b]], targets_hi[[lane, b]]);
            if t_lo < 0 {
                continue;
            }
            let i_lo = below.partition_point(|&x| x <= t_lo).saturating_sub(1);
            let i_hi = at_or_below.partition_point(|&x| x < t_hi + 1).min(last);
            lo[[lane, b]] = from_order_key(entries[i_lo].key);
            hi[[lane, b]] = from_order_key(entries[i_hi].key);
        }
    }
    (lo, hi)
}

/// One chunk's values against the brackets of its lanes ([`bracket_select`]).
#[derive(Clone, Debug, PartialEq)]
pub struct BracketSelection<T> {
    /// `(lanes, columns)`: values below the bracket's `lo`.
    pub below: Array2<i64>,
    /// `(lanes, columns)`: values equal to `lo`.
    pub at_lo: Array2<i64>,
    /// `(lanes, columns)`: values equal to `hi` where `hi > lo` (else 0).
    pub at_hi: Array2<i64>,
    /// Per column: the values strictly between `lo` and `hi`.
    pub inside: Vec<Vec<T>>,
    /// Per column: the lane of each value of `inside`.
    pub owner: Vec<Vec<i32>>,
}

/// One chunk's lanes (`lanes`: `(lane length, lanes)`, a lane per column,
/// NaN skipped; read block by block of lanes, each block twice while in
/// cache, or lane by lane where lanes are contiguous or few) against the brackets `lo`/`hi` (`(lanes,
/// brackets)`, NaN for none) in the bracket columns `columns`: per lane and
/// column the counts of values below `lo`, equal to `lo` and equal to `hi`
/// (when `hi > lo`), and the values strictly between, with their lanes
/// (ascending; a lane's values in lane order). Ties cost a count, not a
/// copy. A column outside `lo`'s
/// columns, or lanes beyond `i32::MAX`, panic (an engine's own inputs).
///
/// ```
/// use nanops::chunked::bracket_select;
/// use ndarray::array;
///
/// let lanes = array![[1.0f64, 5.0], [2.0, f64::NAN], [3.0, 7.0], [2.0, 6.0]];
/// let s = bracket_select(lanes.view(), array![[2.0], [5.0]].view(),
///                        array![[3.0], [9.0]].view(), &[0]);
/// assert_eq!(s.below, array![[1], [0]]);
/// assert_eq!(s.at_lo, array![[2], [1]]);
/// assert_eq!(s.at_hi, array![[1], [0]]);
/// assert_eq!((s.inside[0].clone(), s.owner[0].clone()), (vec![7.0, 6.0], vec![1, 1]));
/// ```
pub fn bracket_select<T: SelectFloat>(
    lanes: ArrayView2<'_, T>,
    lo: ArrayView2<'_, f64>,
    hi: ArrayView2<'_, f64>,
    columns: &[usize],
) -> BracketSelection<T> {
    // Lanes a block at a time, the chunk read row by row (its own layout when
    // the lanes are its columns): the block's bounds and counts stay in L1.
    // Per bracket column two passes over the block, neither with a branch on
    // the data: the first counts (below, at `lo`, at `hi`, inside), the
    // second writes every value into its lane's next slot and advances the
    // slot only for a value inside, so the kept values land lane by lane in
    // row order (one spare slot per lane takes the writes of a full lane).
    // A branch on "inside" mispredicted about as often as values were kept,
    // and sorting the kept values by lane cost as much again.
    let (len, n_lanes) = lanes.dim();
    let cols = columns.len();
    let mut below = Array2::zeros((n_lanes, cols));
    let mut at_lo = Array2::zeros((n_lanes, cols));
    let mut at_hi = Array2::zeros((n_lanes, cols));
    let mut inside = vec![Vec::new(); cols];
    let mut owner = vec![Vec::new(); cols];
    if lanes_apart(&lanes) {
        let mut buf: Vec<T> = Vec::new();
        for j in 0..n_lanes {
            let lane = lanes.column(j);
            let xs: &[T] = match lane.to_slice() {
                Some(xs) => xs,
                None => {
                    buf.clear();
                    buf.extend(lane.iter().copied());
                    &buf
                }
            };
            // a block of the lane at a time, every column's two loops over
            // it while it is in cache: the lane is read from memory once
            let mut n = vec![[0usize; 4]; cols];
            for part in xs.chunks(BLOCK_VALUES) {
                for (c, &b) in columns.iter().enumerate() {
                    let m = select_in_lane(part, lo[[j, b]], hi[[j, b]], &mut inside[c]);
                    for (total, add) in n[c].iter_mut().zip(m) {
                        *total += add;
                    }
                }
            }
            let lane_no = i32::try_from(j).expect("at most i32::MAX lanes per chunk");
            for (c, n) in n.iter().enumerate() {
                owner[c].extend(std::iter::repeat_n(lane_no, n[3]));
                below[[j, c]] = n[0] as i64;
                at_lo[[j, c]] = n[1] as i64;
                at_hi[[j, c]] = n[2] as i64;
            }
        }
        return BracketSelection {
            below,
            at_lo,
            at_hi,
            inside,
            owner,
        };
    }
    let mut bounds = BlockBounds::<T>::new();
    let mut counts = BlockCounts::new();
    let mut slot = [0usize; SELECT_BLOCK];
    let mut scratch: Vec<T> = Vec::new();
    let mut row_buf: Vec<T> = Vec::with_capacity(SELECT_BLOCK);
    for start in (0..n_lanes).step_by(SELECT_BLOCK) {
        let end = (start + SELECT_BLOCK).min(n_lanes);
        let w = end - start;
        for (c, &b) in columns.iter().enumerate() {
            bounds.set(
                lo.slice(ndarray::s![start..end, b]),
                hi.slice(ndarray::s![start..end, b]),
            );
            counts.clear(w);
            for r0 in (0..len).step_by(ROWS_PER_COUNT) {
                for r in r0..(r0 + ROWS_PER_COUNT).min(len) {
                    counts.add_row(&bounds, block_row(&lanes, r, start, end, &mut row_buf));
                }
                counts.flush(w);
            }
            let kept: usize = counts.total[3][..w].iter().map(|&n| n as usize).sum();
            if kept > 0 {
                let mut next = 0usize;
                for (s, &n) in slot[..w].iter_mut().zip(&counts.total[3][..w]) {
                    *s = next;
                    next += n as usize + 1;
                }
                scratch.clear();
                scratch.resize(next, T::NAN);
                for r in 0..len {
                    let row = block_row(&lanes, r, start, end, &mut row_buf);
                    let (l, h) = (&bounds.lo[..w], &bounds.hi[..w]);
                    for (jj, &x) in row.iter().enumerate() {
                        let keep = (x > l[jj]) & (x < h[jj]); // `&`, not `&&`: no branch
                        scratch[slot[jj]] = x;
                        slot[jj] += usize::from(keep);
                    }
                }
                let mut from = 0usize;
                for (jj, &n) in counts.total[3][..w].iter().enumerate() {
                    let n = n as usize;
                    let lane = i32::try_from(start + jj).expect("at most i32::MAX lanes per chunk");
                    inside[c].extend_from_slice(&scratch[from..from + n]);
                    owner[c].extend(std::iter::repeat_n(lane, n));
                    from += n + 1;
                }
            }
            for jj in 0..w {
                below[[start + jj, c]] = counts.total[0][jj];
                at_lo[[start + jj, c]] = counts.total[1][jj];
                at_hi[[start + jj, c]] = counts.total[2][jj];
            }
        }
    }
    BracketSelection {
        below,
        at_lo,
        at_hi,
        inside,
        owner,
    }
}

/// Whether [`bracket_select`] reads `lanes` one lane at a time: when each
/// lane is contiguous (a chunk reduced over all its axes, or over its
/// trailing ones in C order) or there are too few lanes for a block of
/// rows to pay (row by row, a single lane of a whole chunk cost a slice per
/// value).
fn lanes_apart<T>(lanes: &ArrayView2<'_, T>) -> bool {
    let (len, n_lanes) = lanes.dim();
    len > 1 && (n_lanes < 16 || (lanes.strides()[0] == 1 && n_lanes > 1))
}

/// A block of one contiguous lane (at most [`BLOCK_VALUES`] values) against
/// one bracket: the counts below `lo`, at `lo`, at `hi` (where `hi > lo`)
/// and inside, the values inside appended to `out` in lane order. Both
/// loops are free of branches on the data (the second writes every value
/// at the end of `out` and keeps it only when inside).
fn select_in_lane<T: SelectFloat>(xs: &[T], lo: f64, hi: f64, out: &mut Vec<T>) -> [usize; 4] {
    let (l, h) = (T::from_f64_nearest(lo), T::from_f64_nearest(hi));
    let he = if hi > lo { h } else { T::NAN };
    let mut m = [0u32; 4];
    for &x in xs {
        m[0] += u32::from(x < l);
        m[1] += u32::from(x == l);
        m[2] += u32::from(x == he);
        m[3] += u32::from((x > l) & (x < h));
    }
    if m[3] > 0 {
        let from = out.len();
        out.resize(from + m[3] as usize + 1, T::NAN);
        let mut at = from;
        for &x in xs {
            out[at] = x;
            at += usize::from((x > l) & (x < h));
        }
        out.truncate(from + m[3] as usize);
    }
    m.map(|v| v as usize)
}

/// Values of one lane taken at a time by [`bracket_select`] (256 KB of
/// `f64`: every bracket's two loops read them from cache); below `u32::MAX`.
const BLOCK_VALUES: usize = 1 << 15;

/// Lanes per block of [`bracket_select`].
const SELECT_BLOCK: usize = 256;
/// Rows counted in `u32` before the counts move to `i64` (no overflow for
/// any lane length).
const ROWS_PER_COUNT: usize = 1 << 30;

/// Row `r` of the block `start..end` of `lanes` as a slice: the view's own
/// memory when the row is contiguous, else copied into `buf`.
#[inline(always)]
fn block_row<'a: 'b, 'b, T: Copy>(
    lanes: &ArrayView2<'a, T>,
    r: usize,
    start: usize,
    end: usize,
    buf: &'b mut Vec<T>,
) -> &'b [T] {
    let row = (*lanes).slice_move(ndarray::s![r, start..end]);
    match row.to_slice() {
        Some(s) => s,
        None => {
            buf.clear();
            buf.extend(row.iter().copied());
            buf
        }
    }
}

/// One block's brackets in the chunk's type: `lo`, `hi`, and `hi` where
/// `hi > lo` (else NaN: `at_hi` counts nothing), NaN bounds for none.
struct BlockBounds<T> {
    lo: [T; SELECT_BLOCK],
    hi: [T; SELECT_BLOCK],
    hi_eq: [T; SELECT_BLOCK],
}

impl<T: SelectFloat> BlockBounds<T> {
    fn new() -> Self {
        Self {
            lo: [T::NAN; SELECT_BLOCK],
            hi: [T::NAN; SELECT_BLOCK],
            hi_eq: [T::NAN; SELECT_BLOCK],
        }
    }

    fn set(&mut self, lo: ndarray::ArrayView1<'_, f64>, hi: ndarray::ArrayView1<'_, f64>) {
        for (jj, (&l, &h)) in lo.iter().zip(hi.iter()).enumerate() {
            self.lo[jj] = T::from_f64_nearest(l);
            self.hi[jj] = T::from_f64_nearest(h);
            self.hi_eq[jj] = if h > l { self.hi[jj] } else { T::NAN };
        }
    }
}

/// One block's counts per lane: below `lo`, at `lo`, at `hi`, inside; `u32`
/// while counting rows, then added to the `i64` totals.
struct BlockCounts {
    part: [[u32; SELECT_BLOCK]; 4],
    total: [[i64; SELECT_BLOCK]; 4],
}

impl BlockCounts {
    fn new() -> Self {
        Self {
            part: [[0; SELECT_BLOCK]; 4],
            total: [[0; SELECT_BLOCK]; 4],
        }
    }

    fn clear(&mut self, w: usize) {
        for k in 0..4 {
            self.part[k][..w].fill(0);
            self.total[k][..w].fill(0);
        }
    }

    /// Counts one row (`row.len()` lanes of the block): compares and adds,
    /// no branch, so the loop vectorises.
    #[inline(always)]
    fn add_row<T: SelectFloat>(&mut self, b: &BlockBounds<T>, row: &[T]) {
        let w = row.len();
        let (l, h, he) = (&b.lo[..w], &b.hi[..w], &b.hi_eq[..w]);
        let [n_below, n_lo, n_hi, n_in] = &mut self.part;
        let (n_below, n_lo, n_hi, n_in) = (
            &mut n_below[..w],
            &mut n_lo[..w],
            &mut n_hi[..w],
            &mut n_in[..w],
        );
        for jj in 0..w {
            let x = row[jj];
            n_below[jj] += u32::from(x < l[jj]);
            n_lo[jj] += u32::from(x == l[jj]);
            n_hi[jj] += u32::from(x == he[jj]);
            n_in[jj] += u32::from((x > l[jj]) & (x < h[jj]));
        }
    }

    fn flush(&mut self, w: usize) {
        for k in 0..4 {
            for jj in 0..w {
                self.total[k][jj] += i64::from(self.part[k][jj]);
                self.part[k][jj] = 0;
            }
        }
    }
}

/// The values of many lanes (`values[i]` of lane `owner[i]`, `0 <= owner <
/// lanes`, no NaN) sorted by lane, then ascending within each lane (`-0.0`
/// and `+0.0` equal), and the number of values of each lane: lane `j`'s
/// values are `sorted[start_j .. start_j + counts[j]]` with `start_j` the
/// sum of the counts before it. `None` if an owner is out of range or the
/// lengths differ.
///
/// ```
/// use nanops::chunked::group_by_owner;
///
/// let (sorted, counts) = group_by_owner(&[5.0f32, 1.0, 3.0, 2.0], &[1, 0, 1, 1], 3).unwrap();
/// assert_eq!(sorted, vec![1.0, 2.0, 3.0, 5.0]);
/// assert_eq!(counts, vec![1, 3, 0]);
/// ```
pub fn group_by_owner<T: SelectFloat>(
    values: &[T],
    owner: &[i32],
    lanes: usize,
) -> Option<(Vec<T>, Vec<i64>)> {
    if values.len() != owner.len() {
        return None;
    }
    let mut counts = vec![0i64; lanes];
    for &o in owner {
        *counts.get_mut(usize::try_from(o).ok()?)? += 1;
    }
    let mut next = Vec::with_capacity(lanes);
    let mut start = 0usize;
    for &n in &counts {
        next.push(start);
        start += n as usize;
    }
    let mut sorted = vec![T::NAN; values.len()];
    for (&v, &o) in values.iter().zip(owner) {
        let slot = &mut next[o as usize];
        sorted[*slot] = v;
        *slot += 1;
    }
    let mut from = 0usize;
    for &n in &counts {
        let to = from + n as usize;
        sorted[from..to].sort_unstable_by(|a, b| a.partial_cmp(b).expect("no NaN inside"));
        from = to;
    }
    Some((sorted, counts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::Array3;

    /// A small deterministic generator (no dependency for tests).
    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *seed >> 33
    }

    #[test]
    fn brackets_hold_every_rank_of_random_lanes() {
        let mut seed = 7u64;
        for round in 0..200 {
            let chunks = 1 + (lcg(&mut seed) % 6) as usize;
            let k = 1 + (lcg(&mut seed) % 6) as usize;
            // lanes with ties and NaN, split into chunks of random lengths
            let parts: Vec<Vec<f64>> = (0..chunks)
                .map(|_| {
                    let len = (lcg(&mut seed) % 12) as usize;
                    (0..len)
                        .map(|_| match lcg(&mut seed) % 10 {
                            0 => f64::NAN,
                            1 => -0.0,
                            v => (v % 4) as f64 - 1.0 + (round % 3) as f64,
                        })
                        .collect()
                })
                .collect();
            let mut whole: Vec<f64> = parts
                .iter()
                .flatten()
                .copied()
                .filter(|v| !v.is_nan())
                .collect();
            whole.sort_by(|a, b| a.partial_cmp(b).unwrap());
            if whole.is_empty() {
                continue;
            }
            let mut grids = Array3::from_elem((chunks, 1, k + 1), f64::NAN);
            let mut counts = Array2::zeros((chunks, 1));
            for (c, part) in parts.iter().enumerate() {
                let mut valid: Vec<f64> = part.iter().copied().filter(|v| !v.is_nan()).collect();
                valid.sort_by(|a, b| a.partial_cmp(b).unwrap());
                counts[[c, 0]] = valid.len() as i64;
                if !valid.is_empty() {
                    for (i, r) in grid_ranks(valid.len(), k).into_iter().enumerate() {
                        grids[[c, 0, i]] = valid[r as usize];
                    }
                }
            }
            for t_lo in 0..whole.len() as i64 {
                let t_hi = (t_lo + (lcg(&mut seed) % 3) as i64).min(whole.len() as i64 - 1);
                let (lo, hi) = grid_brackets(
                    grids.view(),
                    counts.view(),
                    k,
                    Array2::from_elem((1, 1), t_lo).view(),
                    Array2::from_elem((1, 1), t_hi).view(),
                );
                let (l, h) = (lo[[0, 0]], hi[[0, 0]]);
                assert!(
                    l <= whole[t_lo as usize],
                    "round {round}: lo {l} above rank {t_lo}"
                );
                assert!(
                    h >= whole[t_hi as usize],
                    "round {round}: hi {h} below rank {t_hi}"
                );
            }
        }
    }

    #[test]
    fn selection_counts_match_a_direct_count() {
        let mut seed = 3u64;
        let (len, n_lanes) = (9, 300); // more lanes than a block
        let lanes = Array2::from_shape_fn((len, n_lanes), |_| match lcg(&mut seed) % 7 {
            0 => f32::NAN,
            v => v as f32,
        });
        let lo = Array2::from_shape_fn((n_lanes, 2), |(j, b)| {
            if j % 7 == 4 {
                f64::NAN
            } else {
                (1 + (j + b) % 3) as f64
            }
        });
        let hi = Array2::from_shape_fn((n_lanes, 2), |(j, b)| (3 + (j * b) % 3) as f64);
        let s = bracket_select(lanes.view(), lo.view(), hi.view(), &[1]);
        assert!(s.owner[0].windows(2).all(|p| p[0] <= p[1]), "owners ascend");
        // a transposed (strided) view reads the same
        let t = lanes.t().to_owned();
        assert_eq!(bracket_select(t.t(), lo.view(), hi.view(), &[1]), s);
        for j in 0..n_lanes {
            let lane: Vec<f32> = lanes.column(j).to_vec();
            let (l, h) = (lo[[j, 1]] as f32, hi[[j, 1]] as f32);
            if lo[[j, 1]].is_nan() {
                assert_eq!(
                    (s.below[[j, 0]], s.at_lo[[j, 0]], s.at_hi[[j, 0]]),
                    (0, 0, 0)
                );
                continue;
            }
            assert_eq!(
                s.below[[j, 0]],
                lane.iter().filter(|&&x| x < l).count() as i64
            );
            assert_eq!(
                s.at_lo[[j, 0]],
                lane.iter().filter(|&&x| x == l).count() as i64
            );
            let want_hi = if h > l {
                lane.iter().filter(|&&x| x == h).count()
            } else {
                0
            };
            assert_eq!(s.at_hi[[j, 0]], want_hi as i64);
            let mut inside: Vec<f32> = lane.iter().copied().filter(|&x| x > l && x < h).collect();
            let mut got: Vec<f32> = s.inside[0]
                .iter()
                .zip(&s.owner[0])
                .filter(|&(_, &o)| o as usize == j)
                .map(|(&v, _)| v)
                .collect();
            inside.sort_by(|a, b| a.partial_cmp(b).unwrap());
            got.sort_by(|a, b| a.partial_cmp(b).unwrap());
            assert_eq!(got, inside);
        }
    }

    #[test]
    fn few_or_contiguous_lanes_select_as_a_direct_count() {
        let mut seed = 11u64;
        for (len, n_lanes) in [(1000, 1), (50, 5), (3, 40), (70_000, 2)] {
            let lanes = Array2::from_shape_fn((len, n_lanes), |_| match lcg(&mut seed) % 9 {
                0 => f64::NAN,
                1 => -0.0,
                v => v as f64,
            });
            let lo = Array2::from_shape_fn((n_lanes, 2), |(j, b)| (1 + (j + b) % 4) as f64);
            let hi = Array2::from_shape_fn((n_lanes, 2), |(j, b)| {
                if j % 5 == 3 {
                    f64::NAN
                } else {
                    (4 + (j * b) % 4) as f64
                }
            });
            // C layout, and the same lanes contiguous (F layout)
            let f = lanes.t().to_owned();
            for view in [lanes.view(), f.t()] {
                let s = bracket_select(view, lo.view(), hi.view(), &[0, 1]);
                for j in 0..n_lanes {
                    for b in 0..2 {
                        let lane: Vec<f64> = lanes.column(j).to_vec();
                        let (l, h) = (lo[[j, b]], hi[[j, b]]);
                        let count =
                            |f: &dyn Fn(f64) -> bool| lane.iter().filter(|&&x| f(x)).count();
                        assert_eq!(s.below[[j, b]], count(&|x| x < l) as i64);
                        assert_eq!(s.at_lo[[j, b]], count(&|x| x == l) as i64);
                        let want_hi = if h > l { count(&|x| x == h) } else { 0 };
                        assert_eq!(s.at_hi[[j, b]], want_hi as i64);
                        // kept in lane order, lanes ascending
                        let want: Vec<f64> =
                            lane.iter().copied().filter(|&x| x > l && x < h).collect();
                        let got: Vec<f64> = s.inside[b]
                            .iter()
                            .zip(&s.owner[b])
                            .filter(|&(_, &o)| o as usize == j)
                            .map(|(&v, _)| v)
                            .collect();
                        assert_eq!(got, want, "lane {j} column {b} of {len}x{n_lanes}");
                    }
                }
                for b in 0..2 {
                    assert!(s.owner[b].windows(2).all(|p| p[0] <= p[1]), "owners ascend");
                }
            }
        }
    }

    #[test]
    fn grouping_refuses_bad_owners() {
        assert!(group_by_owner(&[1.0f64], &[2], 2).is_none());
        assert!(group_by_owner(&[1.0f64], &[-1], 2).is_none());
        assert!(group_by_owner(&[1.0f64], &[], 2).is_none());
        let (sorted, counts) = group_by_owner::<f64>(&[], &[], 2).unwrap();
        assert!(sorted.is_empty());
        assert_eq!(counts, vec![0, 0]);
    }
}
