//! The AVX-512 sum of a short window, per float type: a run of a group-by
//! over sorted labels, read at a fixed width of [`WINDOW`] values.
//!
//! The reduce family sums a short lane as a tree (`fold_tree`: the first
//! half added to the second, then again, down to one value), a kernel
//! written to vectorise across many lanes side by side. A group-by meets
//! its runs one at a time, and there LLVM made of that tree two-value
//! vectors and a branch per step: sorted labels over 100,000 groups (runs
//! of about ten values) took longer than a value-at-a-time loop. Here one
//! run's window is two (`f64`) or one (`f32`) 512-bit vectors, masked past
//! the run and where NaN, and the tree is the halves of the vector added:
//! the same additions in the same order, so the same bits.

/// Values a window holds.
pub(crate) const WINDOW: usize = 16;

/// Whether this CPU has AVX-512 (F): the kernels' instructions (the answer
/// is cached by the standard library).
#[cfg(target_arch = "x86_64")]
#[inline]
fn avx512_available() -> bool {
    is_x86_feature_detected!("avx512f")
}

/// The sum, in `f64`, of the values among `window[..len]` that are not
/// NaN, added as `fold_tree` adds a lane of [`WINDOW`] values (the others
/// as zero), and their count; `None` where the CPU lacks AVX-512.
#[inline(always)]
pub(crate) fn sum_f64(window: &[f64; WINDOW], len: usize) -> Option<(f64, u32)> {
    #[cfg(target_arch = "x86_64")]
    if avx512_available() {
        // SAFETY: AVX-512 F is available (checked above).
        return Some(unsafe { avx512::sum_f64(window, len) });
    }
    let _ = (window, len);
    None
}

/// [`sum_f64`] of `f32` values, each widened to `f64` first (as the sums
/// of `f32` accumulate).
#[inline(always)]
pub(crate) fn sum_f32(window: &[f32; WINDOW], len: usize) -> Option<(f64, u32)> {
    #[cfg(target_arch = "x86_64")]
    if avx512_available() {
        // SAFETY: AVX-512 F is available (checked above).
        return Some(unsafe { avx512::sum_f32(window, len) });
    }
    let _ = (window, len);
    None
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::WINDOW;
    use std::arch::x86_64::*;

    /// The lanes of the first `len` values (all sixteen from `len` 16 on).
    #[inline(always)]
    fn run_lanes(len: usize) -> u16 {
        if len >= WINDOW {
            u16::MAX
        } else {
            (1u16 << len) - 1
        }
    }

    /// The tree of two vectors of eight sums: `lo + hi`, then the halves
    /// of that, down to one value (`fold_tree`'s order for sixteen).
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn tree(lo: __m512d, hi: __m512d) -> f64 {
        let eight = _mm512_add_pd(lo, hi);
        let four = _mm256_add_pd(
            _mm512_castpd512_pd256(eight),
            _mm512_extractf64x4_pd::<1>(eight),
        );
        let two = _mm_add_pd(
            _mm256_castpd256_pd128(four),
            _mm256_extractf128_pd::<1>(four),
        );
        _mm_cvtsd_f64(_mm_add_sd(two, _mm_unpackhi_pd(two, two)))
    }

    /// See [`super::sum_f64`].
    ///
    /// # Safety
    /// AVX-512 F must be available.
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn sum_f64(window: &[f64; WINDOW], len: usize) -> (f64, u32) {
        let lanes = run_lanes(len);
        // SAFETY: the window holds sixteen values, eight per load.
        let (lo, hi) = unsafe {
            (
                _mm512_loadu_pd(window.as_ptr()),
                _mm512_loadu_pd(window.as_ptr().add(8)),
            )
        };
        let valid_lo = _mm512_mask_cmp_pd_mask::<_CMP_ORD_Q>(lanes as u8, lo, lo);
        let valid_hi = _mm512_mask_cmp_pd_mask::<_CMP_ORD_Q>((lanes >> 8) as u8, hi, hi);
        let sum = tree(
            _mm512_maskz_mov_pd(valid_lo, lo),
            _mm512_maskz_mov_pd(valid_hi, hi),
        );
        (sum, valid_lo.count_ones() + valid_hi.count_ones())
    }

    /// See [`super::sum_f32`].
    ///
    /// # Safety
    /// AVX-512 F must be available.
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn sum_f32(window: &[f32; WINDOW], len: usize) -> (f64, u32) {
        // SAFETY: the window holds sixteen values.
        let xs = unsafe { _mm512_loadu_ps(window.as_ptr()) };
        let valid = _mm512_mask_cmp_ps_mask::<_CMP_ORD_Q>(run_lanes(len), xs, xs);
        let xs = _mm512_maskz_mov_ps(valid, xs);
        let halves = _mm512_castps_pd(xs);
        let lo = _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_castpd512_pd256(halves)));
        let hi = _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd::<1>(halves)));
        (tree(lo, hi), valid.count_ones())
    }
}

#[cfg(test)]
mod tests {
    use super::{sum_f32, sum_f64, WINDOW};

    /// The reduce family's tree (`fold_tree`: `a[i] + a[i + half]`, halving
    /// down to one value), one value at a time, NaN and the values past
    /// `len` as zero.
    fn reference(window: &[f64; WINDOW], len: usize) -> (f64, u32) {
        let mut acc = [0.0; WINDOW];
        let mut valid = 0;
        for k in 0..len {
            if !window[k].is_nan() {
                acc[k] = window[k];
                valid += 1;
            }
        }
        let mut half = WINDOW / 2;
        while half > 0 {
            for i in 0..half {
                acc[i] += acc[i + half];
            }
            half /= 2;
        }
        (acc[0], valid)
    }

    #[test]
    fn window_sums_have_the_trees_bits() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for case in 0..2000 {
            let mut w64 = [0.0f64; WINDOW];
            let mut w32 = [0.0f32; WINDOW];
            for k in 0..WINDOW {
                let r = next();
                let x = match r % 11 {
                    0 => f64::NAN,
                    1 => f64::INFINITY * if r & 64 == 0 { 1.0 } else { -1.0 },
                    2 => -0.0,
                    _ => {
                        ((r >> 11) as f64 / (1u64 << 53) as f64 - 0.5)
                            * 10f64.powi((r % 17) as i32 - 8)
                    }
                };
                w64[k] = x;
                w32[k] = x as f32;
            }
            let len = case % (WINDOW + 1);
            let wide: [f64; WINDOW] = w32.map(f64::from);
            for (got, want) in [
                (sum_f64(&w64, len), reference(&w64, len)),
                (sum_f32(&w32, len), reference(&wide, len)),
            ] {
                // `None` only where the CPU lacks AVX-512
                if let Some((sum, valid)) = got {
                    assert_eq!(valid, want.1, "case {case}");
                    assert_eq!(
                        sum.to_bits(),
                        want.0.to_bits(),
                        "case {case}: {sum} vs {}",
                        want.0
                    );
                }
            }
        }
    }
}
