//! The window of a moving order statistic over a long window: O(log n)
//! per step, where the sorted array ([`super::ordered`]'s `SortedWindow`)
//! shifts O(window) keys.
//!
//! The values of the lane's part are known before the first step, so they
//! are sorted once (by [`key`], ties by position): each position owns one
//! slot of that order, and a window is the set of its positions' slots —
//! one bit per slot. A Fenwick tree over the bitset's words counts the set
//! bits, so the value of rank `r` (the `r`-th set bit) and the number of
//! values below a key are found in O(log n) word reads, and a step sets
//! one bit and clears one. For a part of a million positions the bitset
//! takes 125 KB and the tree 62 KB (they stay in L2), the sorted keys 8 MB.

use super::sort_key::{equal_keys, value, OrderedWindow};

/// Bits per word of the bitset.
const WORD: usize = 64;

/// The set of a window's slots in the sorted order of a lane part's values.
pub(crate) struct RankedWindow {
    /// The part's non-NaN values as keys, ascending (ties by position).
    sorted: Vec<i64>,
    /// The slot of each position of the part (`u32::MAX` for NaN).
    slot: Vec<u32>,
    /// One bit per slot: whether its value is in the window.
    bits: Vec<u64>,
    /// Fenwick tree (1-based) of the bitset words' popcounts.
    tree: Vec<u32>,
    /// Values in the window.
    len: usize,
    /// The position of the part's first value in the lane.
    base: usize,
}

impl RankedWindow {
    /// The empty window over the lane positions `base..base + keys.len()`,
    /// `keys[j]` the key of position `base + j` (`None` for NaN).
    pub(crate) fn new(base: usize, keys: impl Iterator<Item = Option<i64>>) -> RankedWindow {
        let mut n_positions = 0;
        let mut order: Vec<(i64, u32)> = keys
            .enumerate()
            .filter_map(|(j, k)| {
                n_positions = j + 1;
                k.map(|k| (k, j as u32))
            })
            .collect();
        order.sort_unstable();
        let mut slot = vec![u32::MAX; n_positions];
        for (s, &(_, j)) in order.iter().enumerate() {
            slot[j as usize] = s as u32;
        }
        let words = order.len().div_ceil(WORD);
        RankedWindow {
            sorted: order.into_iter().map(|(k, _)| k).collect(),
            slot,
            bits: vec![0; words],
            tree: vec![0; words + 1],
            len: 0,
            base,
        }
    }

    /// Adds `delta` to the count of word `w`.
    #[inline(always)]
    fn bump(&mut self, w: usize, delta: i32) {
        let mut i = w + 1;
        while i < self.tree.len() {
            self.tree[i] = self.tree[i].wrapping_add_signed(delta);
            i += i & i.wrapping_neg();
        }
    }

    /// Set bits in words `0..w`.
    #[inline(always)]
    fn before_word(&self, w: usize) -> usize {
        let (mut i, mut n) = (w, 0usize);
        while i > 0 {
            n += self.tree[i] as usize;
            i &= i - 1;
        }
        n
    }

    /// Values in the window whose key is below `k`.
    #[inline(always)]
    fn below(&self, k: i64) -> usize {
        let s = self.sorted.partition_point(|&v| v < k);
        let (w, b) = (s / WORD, s % WORD);
        let partial = if b == 0 {
            0
        } else {
            (self.bits[w] & ((1u64 << b) - 1)).count_ones() as usize
        };
        self.before_word(w) + partial
    }

    /// Takes the value at lane position `i` (not NaN) into the window.
    #[inline(always)]
    pub(crate) fn insert(&mut self, i: usize) {
        let s = self.slot[i - self.base] as usize;
        self.bits[s / WORD] |= 1 << (s % WORD);
        self.bump(s / WORD, 1);
        self.len += 1;
    }

    /// Forgets the value at lane position `i` (in the window).
    #[inline(always)]
    pub(crate) fn remove(&mut self, i: usize) {
        let s = self.slot[i - self.base] as usize;
        self.bits[s / WORD] &= !(1 << (s % WORD));
        self.bump(s / WORD, -1);
        self.len -= 1;
    }
}

/// The position of the `r`-th (0-based) set bit of `x`, which has more
/// than `r` bits set: halves, quarters and bytes skipped by their
/// popcounts, then at most seven bits cleared.
#[inline(always)]
fn select_bit(x: u64, mut r: u32) -> usize {
    let mut shift = 0;
    for width in [32, 16, 8] {
        let low = (x >> shift) & ((1u64 << width) - 1);
        let c = low.count_ones();
        if r >= c {
            r -= c;
            shift += width;
        }
    }
    let mut byte = (x >> shift) & 0xff;
    for _ in 0..r {
        byte &= byte - 1;
    }
    shift + byte.trailing_zeros() as usize
}

impl OrderedWindow for RankedWindow {
    #[inline(always)]
    fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    fn rank(&self, r: usize) -> f64 {
        // the Fenwick descent: the last word whose predecessors hold at most r
        let mut step = (self.tree.len() - 1).next_power_of_two();
        let (mut w, mut left) = (0usize, r);
        while step > 0 {
            let next = w + step;
            if next < self.tree.len() && (self.tree[next] as usize) <= left {
                w = next;
                left -= self.tree[next] as usize;
            }
            step /= 2;
        }
        let s = w * WORD + select_bit(self.bits[w], left as u32);
        value(self.sorted[s])
    }

    #[inline(always)]
    fn less_and_equal(&self, x: f64) -> (usize, usize) {
        let (lo, hi) = equal_keys(x);
        let less = self.below(lo);
        let upto = if hi == i64::MAX {
            self.len
        } else {
            self.below(hi + 1)
        };
        (less, upto - less)
    }
}

#[cfg(test)]
mod tests {
    use super::super::sort_key::key;
    use super::*;

    #[test]
    fn select_bit_finds_every_set_bit() {
        for x in [1u64, 0x8000_0000_0000_0000, u64::MAX, 0xF0F0_1234_8000_0001] {
            let mut r = 0;
            for b in 0..64 {
                if x >> b & 1 == 1 {
                    assert_eq!(select_bit(x, r), b, "{x:x} {r}");
                    r += 1;
                }
            }
        }
    }

    #[test]
    fn ranks_and_counts_follow_inserts_and_removals() {
        let vals = [3.0, f64::NAN, 1.0, 2.0, 2.0, -0.0, 0.0, 5.0];
        let mut w = RankedWindow::new(
            10,
            vals.iter().map(|&x: &f64| (!x.is_nan()).then(|| key(x))),
        );
        for i in [10, 12, 13, 14, 15, 16] {
            w.insert(i);
        }
        let got: Vec<f64> = (0..w.len()).map(|r| w.rank(r)).collect();
        assert_eq!(got, [-0.0, 0.0, 1.0, 2.0, 2.0, 3.0]);
        assert_eq!(w.rank(0).to_bits(), (-0.0f64).to_bits());
        assert_eq!(w.less_and_equal(0.0), (0, 2));
        assert_eq!(w.less_and_equal(2.0), (3, 2));
        w.remove(13);
        w.remove(15);
        w.insert(17);
        let got: Vec<f64> = (0..w.len()).map(|r| w.rank(r)).collect();
        assert_eq!(got, [0.0, 1.0, 2.0, 3.0, 5.0]);
        assert_eq!(w.less_and_equal(9.0), (5, 0));
        assert_eq!(w.less_and_equal(f64::INFINITY), (5, 0));
    }

    #[test]
    fn long_parts_match_a_sorted_reference() {
        // many words: the Fenwick descent crosses several levels
        let n = 5000usize;
        let vals: Vec<f64> = (0..n).map(|i| ((i * 7919) % 1009) as f64 - 500.0).collect();
        let mut w = RankedWindow::new(0, vals.iter().map(|&x| Some(key(x))));
        let window = 700;
        for i in 0..n {
            w.insert(i);
            if i >= window {
                w.remove(i - window);
            }
            if i % 97 == 0 {
                let mut sorted: Vec<f64> = vals[(i + 1).saturating_sub(window)..=i].to_vec();
                sorted.sort_by(f64::total_cmp);
                for r in [0, sorted.len() / 2, sorted.len() - 1] {
                    assert_eq!(w.rank(r), sorted[r], "{i} {r}");
                }
                let x = vals[i];
                let less = sorted.iter().filter(|&&v| v < x).count();
                let equal = sorted.iter().filter(|&&v| v == x).count();
                assert_eq!(w.less_and_equal(x), (less, equal));
            }
        }
    }
}
