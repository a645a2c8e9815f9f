//! What the windows of the moving order statistics share: values as
//! integer keys in their total order, and what a statistic reads of a
//! window ([`OrderedWindow`]), kept by a sorted array
//! (`ordered::SortedWindow`) or a ranked bitset ([`super::ranked_window`]).

/// `x`'s bits as an integer ordered as the values' total order (an
/// involution: [`value`] undoes it).
#[inline(always)]
pub(crate) fn key(x: f64) -> i64 {
    let b = x.to_bits() as i64;
    b ^ (((b >> 63) as u64) >> 1) as i64
}

/// The value of a [`key`].
#[inline(always)]
pub(crate) fn value(k: i64) -> f64 {
    f64::from_bits((k ^ (((k >> 63) as u64) >> 1) as i64) as u64)
}

/// The keys of the values equal to `x` (not NaN), lowest and highest:
/// `-0.0` and `0.0` for a zero (IEEE: `-0.0 == 0.0`), `x`'s own otherwise.
#[inline(always)]
pub(crate) fn equal_keys(x: f64) -> (i64, i64) {
    if x == 0.0 {
        (key(-0.0), key(0.0))
    } else {
        (key(x), key(x))
    }
}

/// What an order statistic reads of a window's non-NaN values.
pub(crate) trait OrderedWindow {
    /// Values held.
    fn len(&self) -> usize;
    /// The value of rank `r` (0: the least; `r < len`).
    fn rank(&self, r: usize) -> f64;
    /// Values `< x` and values `== x` (IEEE: `-0.0 == 0.0`), `x` not NaN.
    fn less_and_equal(&self, x: f64) -> (usize, usize);
}
