//! `rankdata`/`nanrankdata`: each value's rank along its lane, ties
//! averaged, as bottleneck's.

use super::sort_key::sorted_positions;
use super::window::LaneKernel;
use crate::element::{Element, QuantileElement};
use crate::error::Result;
use std::mem::MaybeUninit;

/// The rank of each value in its lane, from 1; equal values share the mean
/// of their ranks. `nan_ranked`: NaN ranks after every value, each NaN apart
/// in the order of position (bottleneck's `rankdata`); otherwise a NaN's
/// rank is NaN and the others rank among themselves (`nanrankdata`).
pub(crate) struct Rank {
    /// Whether NaN values get ranks (`rankdata`) or NaN (`nanrankdata`).
    pub nan_ranked: bool,
}

impl Rank {
    /// Writes the ranks of `xs` from its values' order keys sorted
    /// (`keys`, ascending) and the position of each (`at(i)`).
    fn write<E: Element>(
        &self,
        xs: &[E],
        keys: &[u64],
        at: impl Fn(usize) -> usize,
        out: &mut [MaybeUninit<f64>],
    ) {
        let n = keys.len();
        let mut i = 0;
        while i < n {
            if xs[at(i)].is_nan_value() {
                // NaNs sort last: the rest of the lane
                for j in i..n {
                    out[at(j)].write(if self.nan_ranked {
                        (j + 1) as f64
                    } else {
                        f64::NAN
                    });
                }
                break;
            }
            // the run of values equal to this one (one key: NaN has its own)
            let mut j = i + 1;
            while j < n && keys[j] == keys[i] {
                j += 1;
            }
            // the mean of ranks i + 1 ..= j, exact (a half-integer)
            let rank = (i + 1 + j) as f64 / 2.0;
            for r in i..j {
                out[at(r)].write(rank);
            }
            i = j;
        }
    }
}

impl<E: QuantileElement> LaneKernel<E> for Rank {
    type Output = f64;
    fn validate(&self, _len: usize) -> Result<()> {
        Ok(())
    }
    /// A whole lane (`from` is always 0: a rank depends on the whole lane).
    /// Positions are sorted by the values' order keys, equal keys in order
    /// of position ([`sorted_positions`]).
    fn part(
        &self,
        xs: &[E],
        _from: usize,
        out: &mut [MaybeUninit<f64>],
        _: &mut Vec<(usize, f64)>,
    ) {
        let keys: Vec<u64> = xs.iter().map(|x| x.order_key()).collect();
        match sorted_positions(&keys) {
            Some((sorted, at)) => self.write(xs, &sorted, |i| at[i] as usize, out),
            None => {
                let mut at: Vec<usize> = (0..keys.len()).collect();
                at.sort_by_key(|&i| (keys[i], i));
                let sorted: Vec<u64> = at.iter().map(|&i| keys[i]).collect();
                self.write(xs, &sorted, |i| at[i], out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranks<E: QuantileElement>(xs: &[E], nan_ranked: bool) -> Vec<f64> {
        let mut out = vec![MaybeUninit::uninit(); xs.len()];
        Rank { nan_ranked }.part(xs, 0, &mut out, &mut Vec::new());
        // SAFETY: `part` writes every position.
        out.iter().map(|r| unsafe { r.assume_init() }).collect()
    }

    #[test]
    fn ties_share_the_mean_rank_and_nan_ranks_last_or_not_at_all() {
        let nan = f64::NAN;
        let xs = [3.0, nan, 1.0, 3.0, -0.0, 0.0, nan];
        assert_eq!(ranks(&xs, true), [4.5, 6.0, 3.0, 4.5, 1.5, 1.5, 7.0]);
        let r = ranks(&xs, false);
        assert!(r[1].is_nan() && r[6].is_nan());
        assert_eq!([r[0], r[2], r[3], r[4], r[5]], [4.5, 3.0, 4.5, 1.5, 1.5]);
        assert_eq!(
            ranks(&[i64::MAX, i64::MAX - 1, i64::MAX], true),
            [2.5, 1.0, 2.5]
        );
        assert_eq!(ranks::<f64>(&[], true), Vec::<f64>::new());
        assert!(ranks(&[nan, nan], false).iter().all(|r| r.is_nan()));
        assert_eq!(
            ranks(&[f64::INFINITY, nan, f64::NEG_INFINITY], true),
            [2.0, 3.0, 1.0]
        );
        assert_eq!(ranks(&[u64::MAX, 0, u64::MAX], true), [2.5, 1.0, 2.5]);
    }

    #[test]
    fn long_lanes_sorted_by_radix_rank_as_their_definition() {
        // past the radix threshold: keys differing in several bytes, ties,
        // signed zeros and NaN, against the definition (values below, plus
        // the mean place among equals; NaN after all, by position)
        let xs: Vec<f64> = (0..1000_u32)
            .map(|i| match i % 7 {
                0 => f64::NAN,
                1 => -0.0,
                2 => 0.0,
                _ => ((i * 7919) % 101) as f64 * if i % 2 == 0 { -1.5 } else { 1e300 },
            })
            .collect();
        let got = ranks(&xs, true);
        let valid: Vec<f64> = xs.iter().copied().filter(|x| !x.is_nan()).collect();
        let mut nans = 0;
        for (x, r) in xs.iter().zip(&got) {
            let want = if x.is_nan() {
                nans += 1;
                (valid.len() + nans) as f64
            } else {
                let below = valid.iter().filter(|v| *v < x).count();
                let equal = valid.iter().filter(|v| *v == x).count();
                below as f64 + (equal + 1) as f64 / 2.0
            };
            assert_eq!(*r, want, "{x}");
        }
        let ints: Vec<i64> = (0..600)
            .map(|i| (i * 37 % 50) - 25 + i64::MIN / 2)
            .collect();
        let got = ranks(&ints, false);
        for (x, r) in ints.iter().zip(&got) {
            let below = ints.iter().filter(|v| *v < x).count();
            let equal = ints.iter().filter(|v| *v == x).count();
            assert_eq!(*r, below as f64 + (equal + 1) as f64 / 2.0);
        }
    }
}
