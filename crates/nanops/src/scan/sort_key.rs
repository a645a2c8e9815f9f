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

/// Lanes shorter than this are sorted by comparisons whatever their keys.
const RADIX_FROM: usize = 256;
/// The most bytes in which keys may differ for a radix sort: each byte is
/// a pass over the lane, and past three passes a comparison sort of the
/// keys packed with their positions measured faster (random `f64` keys,
/// which differ in all eight, from 256 to 16,000 values).
const RADIX_MOST_BYTES: usize = 3;

/// The positions of `keys` in ascending order of key, equal keys in order
/// of position, with the keys in that order less the least key.
///
/// Keys are taken less the least one, so integers in a narrow range (at
/// any offset) differ in one or two low bytes: those lanes go to a
/// least-significant-digit radix sort over the bytes in which the keys
/// differ (stable, so equal keys keep their order of position); others to
/// an unstable sort of each key packed above its position (which breaks
/// ties). Lanes of `u32::MAX` values or more are not taken (`None`).
pub(crate) fn sorted_positions(keys: &[u64]) -> Option<(Vec<u64>, Vec<u32>)> {
    let n = keys.len();
    if n >= u32::MAX as usize {
        return None;
    }
    let least = keys.iter().copied().min().unwrap_or(0);
    let (mut all_or, mut all_and) = (0u64, u64::MAX);
    let mut k: Vec<u64> = keys
        .iter()
        .map(|&x| {
            let d = x - least;
            all_or |= d;
            all_and &= d;
            d
        })
        .collect();
    let varying = all_or ^ all_and;
    let digits: Vec<u32> = (0..8)
        .filter(|d| (varying >> (8 * d)) & 0xff != 0)
        .collect();
    if n < RADIX_FROM || digits.len() > RADIX_MOST_BYTES {
        let mut packed: Vec<u128> = k
            .iter()
            .zip(0u32..)
            .map(|(&key, at)| (u128::from(key) << 64) | u128::from(at))
            .collect();
        packed.sort_unstable();
        return Some(
            packed
                .into_iter()
                .map(|p| ((p >> 64) as u64, p as u32))
                .unzip(),
        );
    }
    let mut at: Vec<u32> = (0..n as u32).collect();
    let mut counts = vec![[0u32; 256]; digits.len()];
    for &x in &k {
        for (c, &d) in counts.iter_mut().zip(&digits) {
            c[((x >> (8 * d)) & 0xff) as usize] += 1;
        }
    }
    let (mut k2, mut at2) = (vec![0u64; n], vec![0u32; n]);
    for (c, &d) in counts.iter().zip(&digits) {
        let mut next = [0u32; 256];
        let mut sum = 0u32;
        for (b, &m) in c.iter().enumerate() {
            next[b] = sum;
            sum += m;
        }
        for i in 0..n {
            let b = ((k[i] >> (8 * d)) & 0xff) as usize;
            let o = next[b] as usize;
            next[b] += 1;
            k2[o] = k[i];
            at2[o] = at[i];
        }
        std::mem::swap(&mut k, &mut k2);
        std::mem::swap(&mut at, &mut at2);
    }
    Some((k, at))
}
