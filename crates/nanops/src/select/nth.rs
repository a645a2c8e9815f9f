//! Selection of the `k`-th smallest value of a NaN-free float slice.
//!
//! Wirth's quickselect (the loop bottleneck uses too): a median-of-three
//! pivot, a Hoare partition with plain `<` comparisons, and only the side
//! holding `k` kept. On short and random lanes it runs about twice as fast as
//! the standard library's `select_nth_unstable_by`, whose comparator and
//! pivot machinery dominate at these sizes. An adversarial input that keeps
//! the window from shrinking runs out of a `4·log2(n)` round budget and the
//! rest goes to the standard library's introselect, so the worst case stays
//! `O(n log n)`.

use super::float::{ascending, SelectFloat};

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
    let (mut l, mut r) = (0usize, values.len() - 1);
    let mut rounds = 4 * (usize::BITS - values.len().leading_zeros()) + 8;
    while l < r {
        if rounds == 0 {
            values[l..=r].select_nth_unstable_by(k - l, ascending);
            break;
        }
        rounds -= 1;
        // median of values[l], values[mid], values[r] moved to k
        let m = l + (r - l) / 2;
        if values[m] < values[l] {
            values.swap(m, l);
        }
        if values[r] < values[l] {
            values.swap(r, l);
        }
        if values[r] < values[m] {
            values.swap(r, m);
        }
        values.swap(m, k);
        let x = values[k];
        let (mut i, mut j) = (l, r);
        loop {
            // `x` stays in l..=r, so both scans stop inside the window
            while values[i] < x {
                i += 1;
            }
            while x < values[j] {
                j -= 1;
            }
            if i <= j {
                values.swap(i, j);
                i += 1;
                // j − 1 would leave the slice: the window is split at 0
                if j == 0 {
                    break;
                }
                j -= 1;
            }
            if i > j {
                break;
            }
        }
        if j < k {
            l = i;
        }
        if k < i {
            r = j;
        }
    }
    let (left, rest) = values.split_at_mut(k);
    let (nth, right) = rest.split_first_mut().expect("k < len");
    (left, nth, right)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_a_full_sort_for_every_rank() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for len in [1usize, 2, 3, 5, 10, 16, 17, 100, 1000] {
            for pattern in 0..4 {
                let v: Vec<f64> = (0..len)
                    .map(|i| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
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
                for (k, &want) in sorted.iter().enumerate() {
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
