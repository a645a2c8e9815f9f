//! The running counts of a segment of a lane, for the moving sums' and
//! means' segments ([`blocked_segments`](super::blocked_segments)). The
//! variances' segments ([`blocked_var_segments`](super::blocked_var_segments))
//! count finite values while packing them instead, and leave a segment with
//! an infinity to the block walk.

use super::blocked::wide;
use crate::element::QuantileElement;

/// Running counts of positions `s0 − w..s1` of a lane (those before the
/// lane's start count nothing): `n[k]`, `inf[k]`, `pos[k]` count the
/// non-NaN, infinite and `+inf` values among the first `k`, exact integers
/// in `f64`, so a window's counts are differences of two of them (the same
/// numbers as the block walk's integer counts).
pub(super) struct SegmentCounts {
    /// Window length.
    w: usize,
    /// Non-NaN values.
    pub(super) n: Vec<f64>,
    /// Infinities (either sign); filled only where the segment holds one.
    pub(super) inf: Vec<f64>,
    /// `+inf` values; filled only where the segment holds an infinity.
    pub(super) pos: Vec<f64>,
}

impl SegmentCounts {
    /// Counts for segments of up to `positions` positions and windows of
    /// `w`.
    pub(super) fn new(w: usize, positions: usize) -> Self {
        let len = positions + w + 1;
        SegmentCounts {
            w,
            n: vec![0.0; len],
            inf: vec![0.0; len],
            pos: vec![0.0; len],
        }
    }

    /// Counts positions `s0 − w..s1` of `xs`; whether any of them is
    /// infinite (else the infinities' counts are left as they were: they
    /// are not to be read).
    #[inline(always)]
    pub(super) fn count<E: QuantileElement>(&mut self, xs: &[E], s0: usize, s1: usize) -> bool {
        let w = self.w;
        let first = s0.saturating_sub(w);
        let skipped = w - (s0 - first);
        let values = &xs[first..s1];
        let end = skipped + values.len() + 1;
        let n = &mut self.n[..end];
        n[..=skipped].fill(0.0);
        // an integer chain, branch-free (a float chain with a branch per
        // NaN is what this loop cost before)
        let mut c = 0u32;
        for (slot, &x) in n[skipped + 1..].iter_mut().zip(values) {
            c += u32::from(!wide(x).is_nan());
            *slot = f64::from(c);
        }
        let any_inf = values.iter().any(|&x| wide(x).is_infinite());
        if any_inf {
            let (inf, pos) = (&mut self.inf[..end], &mut self.pos[..end]);
            inf[..=skipped].fill(0.0);
            pos[..=skipped].fill(0.0);
            let (mut ci, mut cp) = (0u32, 0u32);
            for (k, &x) in values.iter().enumerate() {
                let v = wide(x);
                ci += u32::from(v.is_infinite());
                cp += u32::from(v == f64::INFINITY);
                inf[skipped + 1 + k] = f64::from(ci);
                pos[skipped + 1 + k] = f64::from(cp);
            }
        }
        any_inf
    }
}
