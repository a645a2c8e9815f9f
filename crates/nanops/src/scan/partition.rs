//! `partition`/`argpartition`: each lane rearranged so that its `kth`
//! value is where sorting would put it, as NumPy's and bottleneck's.

use super::window::LaneKernel;
use crate::element::{QuantileElement, SelectFloat};
use crate::error::{Error, Result};
use crate::order::select::select_nth;
use std::mem::MaybeUninit;

/// Position `kth` of each lane holds the value sorting would put there,
/// positions before it values not greater, positions after it values not
/// less (NaN sorts last, as NumPy's `partition`).
pub(crate) struct Partition {
    /// The position put in sorted place.
    pub kth: usize,
}

/// Checks `kth` against the axis length (any `kth` for an empty axis, whose
/// lanes have nothing to rearrange).
fn check_kth(kth: usize, len: usize) -> Result<()> {
    if len > 0 && kth >= len {
        return Err(Error::InvalidKth { kth, len });
    }
    Ok(())
}

impl<E: QuantileElement> LaneKernel<E> for Partition {
    type Output = E;
    fn validate(&self, len: usize) -> Result<()> {
        check_kth(self.kth, len)
    }
    /// A whole lane (`from` is always 0).
    fn part(&self, xs: &[E], _from: usize, out: &mut [MaybeUninit<E>], _: &mut Vec<(usize, f64)>) {
        for (o, &x) in out.iter_mut().zip(xs) {
            o.write(x);
        }
        // SAFETY: every position of `out` was written just above, and
        // `MaybeUninit<E>` has `E`'s layout.
        let ys = unsafe { &mut *(out as *mut [MaybeUninit<E>] as *mut [E]) };
        if ys.is_empty() {
            return;
        }
        if let Some(values) = E::as_values_mut(ys) {
            // floats: NaN to the end, then the order family's selection
            // (branch-free partitions) on the rest
            let mut valid = 0;
            for i in 0..values.len() {
                if !values[i].is_nan_value() {
                    values.swap(i, valid);
                    valid += 1;
                }
            }
            if self.kth < valid {
                select_nth(&mut values[..valid], self.kth);
            }
        } else {
            ys.select_nth_unstable_by_key(self.kth, |x| x.order_key());
        }
    }
}

/// [`Partition`] giving positions in the input (`argpartition`).
pub(crate) struct ArgPartition {
    /// The position put in sorted place.
    pub kth: usize,
}

impl<E: QuantileElement> LaneKernel<E> for ArgPartition {
    type Output = usize;
    fn validate(&self, len: usize) -> Result<()> {
        check_kth(self.kth, len)
    }
    /// A whole lane (`from` is always 0).
    fn part(
        &self,
        xs: &[E],
        _from: usize,
        out: &mut [MaybeUninit<usize>],
        _: &mut Vec<(usize, f64)>,
    ) {
        // each value's key packed above its position: one primitive
        // comparison per step (positions break ties, which no caller sees)
        let mut packed: Vec<u128> = xs
            .iter()
            .zip(0u64..)
            .map(|(x, at)| (u128::from(x.order_key()) << 64) | u128::from(at))
            .collect();
        if !packed.is_empty() {
            packed.select_nth_unstable(self.kth);
        }
        for (o, &p) in out.iter_mut().zip(&packed) {
            o.write(p as u64 as usize);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// NumPy's sort order of two values (NaN last; equal values and two
    /// NaNs `Equal`), by comparisons: the reference the keys are checked by.
    fn sort_order(a: f64, b: f64) -> std::cmp::Ordering {
        a.partial_cmp(&b)
            .unwrap_or_else(|| a.is_nan().cmp(&b.is_nan()))
    }

    /// Whether `ys` is partitioned at `kth` with NaN last, and a rearrangement of `xs`.
    fn partitioned(xs: &[f64], ys: &[f64], kth: usize) -> bool {
        let mut sorted = xs.to_vec();
        sorted.sort_by(|a, b| sort_order(*a, *b));
        let mut got = ys.to_vec();
        got.sort_by(|a, b| sort_order(*a, *b));
        let same = |a: f64, b: f64| a == b || (a.is_nan() && b.is_nan());
        let k = ys[kth];
        same(k, sorted[kth])
            && got.iter().zip(&sorted).all(|(a, b)| same(*a, *b))
            && ys[..kth].iter().all(|&y| sort_order(y, k).is_le())
            && ys[kth + 1..].iter().all(|&y| sort_order(y, k).is_ge())
    }

    #[test]
    fn every_kth_is_in_sorted_place_with_nan_last() {
        let nan = f64::NAN;
        let mut xs = vec![3.0, nan, 1.0, 3.0, -0.0, 0.0, nan, f64::INFINITY, -7.5];
        xs.extend((0..60).map(|i| {
            if i % 9 == 0 {
                nan
            } else {
                ((i * 13) % 17) as f64 - 8.0
            }
        }));
        for kth in 0..xs.len() {
            let mut out = vec![MaybeUninit::uninit(); xs.len()];
            Partition { kth }.part(&xs, 0, &mut out, &mut Vec::new());
            // SAFETY: `part` writes every position.
            let ys: Vec<f64> = out.iter().map(|y| unsafe { y.assume_init() }).collect();
            assert!(partitioned(&xs, &ys, kth), "kth {kth}: {ys:?}");
            let mut at = vec![MaybeUninit::uninit(); xs.len()];
            ArgPartition { kth }.part(&xs, 0, &mut at, &mut Vec::new());
            // SAFETY: as above.
            let taken: Vec<f64> = at.iter().map(|i| xs[unsafe { i.assume_init() }]).collect();
            assert!(partitioned(&xs, &taken, kth), "kth {kth}: {taken:?}");
        }
    }

    #[test]
    fn kth_is_checked_against_the_axis() {
        assert_eq!(check_kth(3, 3), Err(Error::InvalidKth { kth: 3, len: 3 }));
        assert!(check_kth(2, 3).is_ok());
        assert!(check_kth(7, 0).is_ok());
        let mut out = vec![MaybeUninit::uninit(); 5];
        Partition { kth: 2 }.part(&[5_i8, -1, 4, -2, 3], 0, &mut out, &mut Vec::new());
        // SAFETY: `part` writes every position.
        let ys: Vec<i8> = out.iter().map(|y| unsafe { y.assume_init() }).collect();
        assert_eq!(ys[2], 3);
        assert!(ys[..2].iter().all(|&y| y < 3) && ys[3..].iter().all(|&y| y > 3));
        assert_eq!(
            Error::InvalidKth { kth: 5, len: 5 }.to_string(),
            "kth(=5) out of bounds (5)"
        );
    }
}
