//! Selection of the `k`-th smallest value of a NaN-free float slice.
//!
//! Quickselect with a branch-free partition
//! ([`super::partition::partition`]: AVX-512 compress where the CPU has it,
//! else a swap per value where only the boundary advances by the
//! comparison's result), so random data costs no mispredicted branches (a
//! Hoare partition with `<` scans mispredicts about every other comparison,
//! and the standard library's `select_nth_unstable_by` adds comparator and
//! pivot machinery on top). The pivot is a median of three, or of three
//! medians of three on long windows; windows of at most [`SMALL`] values are
//! sorted by a sorting network ([`small_sort`]). Ties cannot stall it: when
//! the pivot is the window's least value, a second pass moves every copy of
//! it to the front, and they are done. An adversarial input that keeps the window from shrinking runs out
//! of a `4·log2(n)` round budget and the rest goes to the standard library's
//! introselect, so the worst case stays `O(n log n)`.

use super::partition::partition;
use crate::element::{ascending, SelectFloat};

/// Windows this short are sorted by a sorting network.
const SMALL: usize = 16;
/// Windows at least this long take their pivot from nine values.
const NINTHER: usize = 128;

/// Rearranges `values` (NaN-free) so that `values[k]` is the `k`-th smallest,
/// everything left of it `<=` and everything right of it `>=`; returns the
/// three parts, as `select_nth_unstable_by(k, ascending)` does.
///
/// # Panics
/// If `k >= values.len()` (as the standard library).
pub(crate) fn select_nth<T: SelectFloat>(
    values: &mut [T],
    k: usize,
) -> (&mut [T], &mut T, &mut [T]) {
    assert!(
        k < values.len(),
        "select_nth: rank {k} out of {}",
        values.len()
    );
    let (mut l, mut r) = (0usize, values.len());
    let mut rounds = 4 * (usize::BITS - values.len().leading_zeros()) + 8;
    while r - l > SMALL {
        if rounds == 0 {
            values[l..r].select_nth_unstable_by(k - l, ascending);
            return split(values, k);
        }
        rounds -= 1;
        let w = &mut values[l..r];
        let pivot = choose_pivot(w);
        let below = partition::<T, false>(w, pivot);
        if k < l + below {
            r = l + below;
        } else if below > 0 {
            l += below;
        } else {
            // The pivot is the least value: its copies go to the front.
            let equal = partition::<T, true>(w, pivot);
            if k < l + equal {
                return split(values, k);
            }
            l += equal;
        }
    }
    small_sort(&mut values[l..r]);
    split(values, k)
}

/// The three parts of [`select_nth`]'s result.
fn split<T>(values: &mut [T], k: usize) -> (&mut [T], &mut T, &mut [T]) {
    let (left, rest) = values.split_at_mut(k);
    let (nth, right) = rest.split_first_mut().expect("k < len");
    (left, nth, right)
}

/// The median of three values.
#[inline]
fn median3<T: SelectFloat>(a: T, b: T, c: T) -> T {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    if c < lo {
        lo
    } else if hi < c {
        hi
    } else {
        c
    }
}

/// A pivot for the window: median of its first, middle and last values, or
/// on long windows the median of three such medians (Tukey's ninther).
#[inline]
pub(super) fn choose_pivot<T: SelectFloat>(w: &[T]) -> T {
    let n = w.len();
    let (a, m, z) = (0, n / 2, n - 1);
    if n < NINTHER {
        return median3(w[a], w[m], w[z]);
    }
    let d = n / 8;
    median3(
        median3(w[a], w[a + d], w[a + 2 * d]),
        median3(w[m - d], w[m], w[m + d]),
        median3(w[z - 2 * d], w[z - d], w[z]),
    )
}

/// Sorts a window of at most [`SMALL`] values (NaN-free) without a
/// data-dependent branch: padded with `+inf` to 8 or 16 values, it goes
/// through Batcher's odd–even merge sorting network (19 or 63 comparators,
/// each a compare and two selects, unrolled with the values in registers).
/// An insertion sort's mispredicted branches cost more at these sizes.
pub(crate) fn small_sort<T: SelectFloat>(w: &mut [T]) {
    match w.len() {
        0 | 1 => {}
        2..=8 => network_sort::<T, 8>(w),
        9..=SMALL => network_sort::<T, SMALL>(w),
        _ => w.sort_unstable_by(ascending),
    }
}

/// One comparator: `x[a] <= x[b]` afterwards. A permutation even for
/// `-0.0 == 0.0` (a min/max pair could duplicate one of them).
#[inline(always)]
fn compare_exchange<T: SelectFloat, const N: usize>(x: &mut [T; N], a: usize, b: usize) {
    (x[a], x[b]) = ordered(x[a], x[b]);
}

/// `(p, q)` in order, by selects: swapped only when `q < p`, so equal values
/// (`-0.0`, `0.0`) keep their places.
#[inline(always)]
fn ordered<T: SelectFloat>(p: T, q: T) -> (T, T) {
    let swap = q < p;
    (if swap { q } else { p }, if swap { p } else { q })
}

/// Calls `$cx(a, b)` for each literal pair (so that every index is a
/// constant: an array sorted in place lives in registers).
macro_rules! pairs {
    ($cx:ident; $(($a:literal, $b:literal))*) => {
        $($cx($a, $b);)*
    };
}

/// Batcher's odd–even merge sort of 8 inputs (19 comparators), as
/// `$cx(a, b)` calls with `a < b`.
macro_rules! batcher8 {
    ($cx:ident) => {
        pairs!($cx;
            (0, 1) (2, 3) (0, 2) (1, 3) (1, 2) (4, 5) (6, 7) (4, 6) (5, 7) (5, 6) (0, 4) (2, 6)
            (2, 4) (1, 5) (3, 7) (3, 5) (1, 2) (3, 4) (5, 6)
        )
    };
}

/// Batcher's odd–even merge sort of 16 inputs (63 comparators), as
/// `$cx(a, b)` calls with `a < b`.
macro_rules! batcher16 {
    ($cx:ident) => {
        pairs!($cx;
            (0, 1) (2, 3) (0, 2) (1, 3) (1, 2) (4, 5) (6, 7) (4, 6) (5, 7) (5, 6) (0, 4) (2, 6)
            (2, 4) (1, 5) (3, 7) (3, 5) (1, 2) (3, 4) (5, 6) (8, 9) (10, 11) (8, 10) (9, 11)
            (9, 10) (12, 13) (14, 15) (12, 14) (13, 15) (13, 14) (8, 12) (10, 14) (10, 12)
            (9, 13) (11, 15) (11, 13) (9, 10) (11, 12) (13, 14) (0, 8) (4, 12) (4, 8) (2, 10)
            (6, 14) (6, 10) (2, 4) (6, 8) (10, 12) (1, 9) (5, 13) (5, 9) (3, 11) (7, 15)
            (7, 11) (3, 5) (7, 9) (11, 13) (1, 2) (3, 4) (5, 6) (7, 8) (9, 10) (11, 12)
            (13, 14)
        )
    };
}

/// Sorts every column of `block` (`rows` rows of `width` values, row `r` at
/// `r·width`; `rows` = 8 or 16) by the same network as [`small_sort`]: each
/// comparator is a loop over the columns, which vectorises across them
/// (many short lanes sorted at once, one per column). NaN-free values.
#[inline(always)]
pub(crate) fn sort_columns<T: SelectFloat>(block: &mut [T], width: usize, rows: usize) {
    debug_assert!(rows == 8 || rows == 16, "networks of 8 or 16 rows");
    debug_assert!(block.len() >= rows * width);
    let mut cx = |a: usize, b: usize| {
        let (low, high) = block.split_at_mut(b * width);
        let (ra, rb) = (&mut low[a * width..(a + 1) * width], &mut high[..width]);
        for k in 0..width {
            (ra[k], rb[k]) = ordered(ra[k], rb[k]);
        }
    };
    if rows == 8 {
        batcher8!(cx);
    } else {
        batcher16!(cx);
    }
}

/// Sorts every column of `block` (rows of `width` values, row `r` at
/// `r·width`, as many rows as the network has inputs) by the comparators
/// `pairs` (row `a` gets the smaller of rows `a` and `b`), each a loop over
/// the columns, which vectorises across them. NaN-free values.
#[inline(always)]
pub(crate) fn sort_columns_by<T: SelectFloat>(
    block: &mut [T],
    width: usize,
    pairs: &[(usize, usize)],
) {
    for &(a, b) in pairs {
        debug_assert!(a < b && (b + 1) * width <= block.len());
        let (low, high) = block.split_at_mut(b * width);
        let (ra, rb) = (&mut low[a * width..(a + 1) * width], &mut high[..width]);
        for k in 0..width {
            (ra[k], rb[k]) = ordered(ra[k], rb[k]);
        }
    }
}

/// The two middle values `(x[(n-1)/2], x[n/2])` of the sorted `w` (equal
/// for odd `n`) when `1 ≤ n ≤ SMALL`, from the sorting network, without
/// reordering `w`; `None` for other lengths.
pub(crate) fn small_middles<T: SelectFloat>(w: &[T]) -> Option<(T, T)> {
    let n = w.len();
    let (lo, hi) = ((n.max(1) - 1) / 2, n / 2);
    match n {
        1..=8 => {
            let x = padded_sorted::<T, 8>(w);
            Some((x[lo], x[hi]))
        }
        9..=SMALL => {
            let x = padded_sorted::<T, SMALL>(w);
            Some((x[lo], x[hi]))
        }
        _ => None,
    }
}

/// `w` (1 to `N` values) padded with `+inf` to `N` and sorted by Batcher's
/// network for `N` = 8 or 16 inputs (generated by the textbook recursion;
/// `networks_sort_every_zero_one_input` checks them).
#[inline]
pub(super) fn padded_sorted<T: SelectFloat, const N: usize>(w: &[T]) -> [T; N] {
    let (n, inf) = (w.len(), T::from_f64_nearest(f64::INFINITY));
    // element by element with a select: a `copy_from_slice` of a run-time
    // length is a `memmove` call, which cost more than the network here
    let mut x = [inf; N];
    for (i, slot) in x.iter_mut().enumerate() {
        let v = w[i.min(n - 1)];
        *slot = if i < n { v } else { inf };
    }
    let mut cx = |a, b| compare_exchange(&mut x, a, b);
    if N == 8 {
        batcher8!(cx);
    } else {
        batcher16!(cx);
    }
    x
}

/// Sorts `w` (1 to `N` values, `N` = 8 or 16) through [`padded_sorted`].
#[inline]
fn network_sort<T: SelectFloat, const N: usize>(w: &mut [T]) {
    let x = padded_sorted::<T, N>(w);
    w.copy_from_slice(&x[..w.len()]);
}

/// The least of NaN-free `values` (`None` when empty); see [`extreme`].
pub(super) fn least<T: SelectFloat>(values: &[T]) -> Option<T> {
    extreme(values, |x, best| x < best)
}

/// The value of NaN-free `values` that no other `beats` (`None` when
/// empty), in eight independent lanes: one running extreme waits on its
/// previous comparison at every value (a large share of a 1,000-value
/// median), eight lanes fill a vector.
#[inline(always)]
pub(super) fn extreme<T: SelectFloat>(values: &[T], beats: impl Fn(T, T) -> bool) -> Option<T> {
    const LANES: usize = 8;
    let first = *values.first()?;
    let mut lanes = [first; LANES];
    let mut chunks = values.chunks_exact(LANES);
    for c in &mut chunks {
        for i in 0..LANES {
            if beats(c[i], lanes[i]) {
                lanes[i] = c[i];
            }
        }
    }
    let mut best = first;
    for x in lanes.into_iter().chain(chunks.remainder().iter().copied()) {
        if beats(x, best) {
            best = x;
        }
    }
    Some(best)
}

/// The index of the first value of `values` equal to `v` (`==`, so either
/// zero matches the other), `None` if none is. Blocks of 16 are compared
/// whole, without a branch per value (a vector compare and one test per
/// block), then the hit's block is searched: a scalar search with a branch
/// per value was 89% of `select_ranks`' own time for three quantiles of
/// 10,000-value lanes (`perf annotate`).
#[inline(always)]
pub(super) fn first_equal<T: SelectFloat>(values: &[T], v: T) -> Option<usize> {
    const BLOCK: usize = 16;
    let mut blocks = values.chunks_exact(BLOCK);
    let mut base = 0;
    for block in &mut blocks {
        if block.iter().fold(false, |hit, &x| hit | (x == v)) {
            return block.iter().position(|&x| x == v).map(|i| base + i);
        }
        base += BLOCK;
    }
    blocks
        .remainder()
        .iter()
        .position(|&x| x == v)
        .map(|i| base + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_equal_is_the_first_position_of_an_equal_value() {
        // every length around the block size, the value at every position
        // (and twice), the other zero, and a value that is absent
        for len in 0..40usize {
            let base: Vec<f64> = (0..len).map(|i| i as f64 + 1.0).collect();
            assert_eq!(first_equal(&base, -5.0), None);
            for at in 0..len {
                let mut v = base.clone();
                v[at] = -1.0;
                if at + 3 < len {
                    v[at + 3] = -1.0;
                }
                assert_eq!(first_equal(&v, -1.0), Some(at), "len {len} at {at}");
                v[at] = 0.0;
                assert_eq!(first_equal(&v, -0.0), v.iter().position(|&x| x == -0.0));
            }
        }
    }

    /// A seeded xorshift stream of `u64` (deterministic test data).
    fn xorshift(mut x: u64) -> impl FnMut() -> u64 {
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
    }

    #[test]
    fn matches_a_full_sort_for_every_rank() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        for len in [1usize, 2, 3, 5, 10, 16, 17, 100, 1000, 2500] {
            for pattern in 0..4 {
                let v: Vec<f64> = (0..len)
                    .map(|i| {
                        let x = next();
                        match pattern {
                            0 => (x % 1000) as f64,
                            1 => (x % 3) as f64,   // many ties
                            2 => i as f64,         // sorted
                            _ => (len - i) as f64, // reversed
                        }
                    })
                    .collect();
                let mut sorted = v.clone();
                sorted.sort_by(|a, b| a.partial_cmp(b).unwrap());
                // every rank, or ~300 spread ranks of a long slice
                let step = (len / 300).max(1);
                for (k, &want) in sorted.iter().enumerate().step_by(step) {
                    let mut w = v.clone();
                    let (left, nth, right) = select_nth(&mut w, k);
                    assert_eq!(*nth, want, "len {len} pattern {pattern} k {k}");
                    assert!(left.iter().all(|&y| y <= *nth));
                    assert!(right.iter().all(|&y| y >= *nth));
                }
            }
        }
    }

    #[test]
    fn networks_sort_every_zero_one_input() {
        // The 0-1 principle: a comparator network that sorts every sequence
        // of zeros and ones sorts every sequence.
        for n in [8usize, 16] {
            for bits in 0u32..1 << n {
                let v: Vec<f64> = (0..n).map(|i| ((bits >> i) & 1) as f64).collect();
                let mut w = v.clone();
                match n {
                    8 => network_sort::<f64, 8>(&mut w),
                    _ => network_sort::<f64, 16>(&mut w),
                }
                assert!(w.windows(2).all(|p| p[0] <= p[1]), "{v:?} → {w:?}");
            }
        }
    }

    #[test]
    fn small_sort_permutes_and_orders_every_short_length() {
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        let specials = [f64::INFINITY, f64::NEG_INFINITY, -0.0, 0.0, 1.0, 1.0];
        for len in 0..=20 {
            for _ in 0..200 {
                let v: Vec<f64> = (0..len)
                    .map(|_| {
                        let x = next();
                        specials[(x % 6) as usize] * ((x >> 8) % 3) as f64
                    })
                    .map(|y| if y.is_nan() { 0.0 } else { y })
                    .collect();
                let mut w = v.clone();
                small_sort(&mut w);
                assert!(w.windows(2).all(|p| p[0] <= p[1]), "{v:?} → {w:?}");
                // the same values, bit for bit (signed zeros included)
                let key = |a: &f64, b: &f64| a.total_cmp(b);
                let (mut a, mut b) = (v.clone(), w.clone());
                a.sort_by(key);
                b.sort_by(key);
                assert_eq!(
                    a.iter().map(|y| y.to_bits()).collect::<Vec<_>>(),
                    b.iter().map(|y| y.to_bits()).collect::<Vec<_>>()
                );
            }
        }
    }

    #[test]
    fn sort_columns_sorts_every_column() {
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        for rows in [8, 16] {
            for width in [1, 3, 64] {
                let mut block: Vec<f64> = (0..rows * width)
                    .map(|_| [-1.0, 0.0, 2.5, 2.5, f64::INFINITY, -7.0][(next() % 6) as usize])
                    .collect();
                let mut want: Vec<Vec<f64>> = (0..width)
                    .map(|k| (0..rows).map(|r| block[r * width + k]).collect())
                    .collect();
                want.iter_mut()
                    .for_each(|c| c.sort_by(|a, b| a.partial_cmp(b).unwrap()));
                sort_columns(&mut block, width, rows);
                for (k, col) in want.iter().enumerate() {
                    let got: Vec<f64> = (0..rows).map(|r| block[r * width + k]).collect();
                    assert_eq!(&got, col, "rows {rows} width {width} column {k}");
                }
            }
        }
    }

    #[test]
    fn small_middles_are_the_sorted_middle_values() {
        let mut next = xorshift(0x853c_49e6_748f_ea9b);
        for len in 0..=20usize {
            for _ in 0..100 {
                let v: Vec<f64> = (0..len)
                    .map(|_| {
                        let x = next();
                        (x % 7) as f64 - 3.0
                    })
                    .collect();
                let mut sorted = v.clone();
                sorted.sort_by(|a, b| a.partial_cmp(b).unwrap());
                let want = (1..=SMALL)
                    .contains(&len)
                    .then(|| (sorted[(len - 1) / 2], sorted[len / 2]));
                assert_eq!(small_middles(&v), want, "{v:?}");
            }
        }
    }

    #[test]
    fn infinities_and_signed_zeros() {
        let mut v = [f64::INFINITY, -0.0, 0.0, f64::NEG_INFINITY, 1.0, -1.0];
        let (_, nth, _) = select_nth(&mut v, 0);
        assert_eq!(*nth, f64::NEG_INFINITY);
        let (_, nth, _) = select_nth(&mut v, 5);
        assert_eq!(*nth, f64::INFINITY);
        let (_, nth, _) = select_nth(&mut v, 2);
        assert_eq!(*nth, 0.0);
    }
}
