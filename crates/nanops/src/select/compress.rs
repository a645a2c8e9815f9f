//! The partition step of selection: moves the values of a NaN-free window
//! that go left of a pivot (`x < pivot`, or `x <= pivot`) to its front.
//!
//! Two implementations, the same result up to the order inside each side:
//!
//! - [`partition_scalar`]: Lomuto's scheme with an unconditional swap, one
//!   value per step, no data-dependent branch (every type, every CPU);
//! - on x86-64 with AVX-512, `f64` and `f32` windows go through
//!   [`avx512`]: 8 (or 16) values per step are compared with the pivot and
//!   *compressed* into the left values (stored back in place, behind the
//!   read position) and the right values (stored in a per-thread spare
//!   buffer, then copied behind the left ones). 1,000 random `f64`: 0.7 µs
//!   per selection instead of 3.4 µs.
//!
//! The spare buffer stays allocated with its thread, so it is capped at
//! [`SIMD_BLOCK`] values: a longer window is partitioned block by block,
//! and each block's left values are swapped in behind the left values so
//! far ([`blockwise`]; at most one extra move per value).
//!
//! The module also holds the other compress kernels of order statistics:
//! the NaN-dropping copy of a lane ([`copy_valid`]) and the bracketing
//! scan of a long lane ([`keep_between`]).

use core::mem::MaybeUninit;

use super::float::SelectFloat;

/// Block length of the SIMD partition (its spare buffer is as long).
const SIMD_BLOCK: usize = 1 << 16;

/// Moves the values `x < pivot` (`x <= pivot` when `INCLUSIVE`) of the
/// NaN-free `w` to its front; returns how many there are. The rest follow
/// them; the order inside each side is unspecified.
#[inline]
pub(crate) fn partition<T: SelectFloat, const INCLUSIVE: bool>(w: &mut [T], pivot: T) -> usize {
    match T::partition_simd::<INCLUSIVE>(w, pivot) {
        Some(left) => left,
        None => partition_scalar(w, |x| if INCLUSIVE { x <= pivot } else { x < pivot }),
    }
}

/// Moves the values for which `goes_left` holds to the front, in one
/// branch-free pass (Lomuto's scheme with an unconditional swap); returns
/// how many there are.
#[inline]
pub(crate) fn partition_scalar<T: Copy>(w: &mut [T], goes_left: impl Fn(T) -> bool) -> usize {
    let mut i = 0;
    for k in 0..w.len() {
        let x = w[k];
        // Invariant: w[..i] go left, w[i..k] do not; moving w[i] to k and
        // `x` to i keeps it whichever side `x` belongs to.
        // Not `w.swap(i, k)`: measured 3.5× slower here (`kernel_timing
        // nanmedian "1000, 10000"`), the compare then waits on a reload.
        #[allow(clippy::manual_swap)]
        {
            w[k] = w[i];
            w[i] = x;
        }
        i += goes_left(x) as usize;
    }
    i
}

/// Partitions `w` in blocks of `block` values with `part` (which moves the
/// left values of one block to its front and returns their count), keeping
/// `w` as `[left | right | not yet partitioned]`; returns the left count.
///
/// After a block, `w` reads `[left | right | block's left | block's
/// right]`: exchanging the shorter of the middle two runs with the far end
/// of the other joins the left values (the order inside a side is free).
fn blockwise<T>(w: &mut [T], block: usize, mut part: impl FnMut(&mut [T]) -> usize) -> usize {
    let (mut left, mut done) = (0, 0);
    while done < w.len() {
        let end = (done + block).min(w.len());
        let block_left = part(&mut w[done..end]);
        let k = (done - left).min(block_left);
        // w[left..left + k] (right values) ⇄ the last k of the block's left
        let (head, tail) = w.split_at_mut(done + block_left - k);
        head[left..left + k].swap_with_slice(&mut tail[..k]);
        left += block_left;
        done = end;
    }
    left
}

/// The SIMD partition of `f64` windows: `None` where it does not apply
/// (no AVX-512).
#[inline]
pub(crate) fn partition_f64<const INCLUSIVE: bool>(w: &mut [f64], pivot: f64) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        use std::cell::Cell;
        thread_local! {
            static SPARE: Cell<Vec<f64>> = const { Cell::new(Vec::new()) };
        }
        if avx512::available() {
            return Some(SPARE.with(|cell| {
                let mut spare = cell.take();
                spare.resize(w.len().min(SIMD_BLOCK) + avx512::F64_LANES, 0.0);
                let left = blockwise(w, SIMD_BLOCK, |block| {
                    // SAFETY: AVX-512 (F, DQ, BW) and POPCNT are available (checked
                    // above), and `spare` holds `block.len() + F64_LANES` values.
                    unsafe { avx512::partition_f64::<INCLUSIVE>(block, &mut spare, pivot) }
                });
                cell.set(spare);
                left
            }));
        }
    }
    let _ = (w, pivot);
    None
}

/// The SIMD partition of `f32` windows (see [`partition_f64`]).
#[inline]
pub(crate) fn partition_f32<const INCLUSIVE: bool>(w: &mut [f32], pivot: f32) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        use std::cell::Cell;
        thread_local! {
            static SPARE: Cell<Vec<f32>> = const { Cell::new(Vec::new()) };
        }
        if avx512::available() {
            return Some(SPARE.with(|cell| {
                let mut spare = cell.take();
                spare.resize(w.len().min(SIMD_BLOCK) + avx512::F32_LANES, 0.0);
                let left = blockwise(w, SIMD_BLOCK, |block| {
                    // SAFETY: AVX-512 (F, DQ, BW) and POPCNT are available (checked
                    // above), and `spare` holds `block.len() + F32_LANES` values.
                    unsafe { avx512::partition_f32::<INCLUSIVE>(block, &mut spare, pivot) }
                });
                cell.set(spare);
                left
            }));
        }
    }
    let _ = (w, pivot);
    None
}

/// Slack a destination of [`copy_valid_f64`] / [`copy_valid_f32`] needs past
/// the source's length (the SIMD copy stores whole vectors).
pub(crate) const COPY_SLACK: usize = 16;

/// Writes the non-NaN values of `src` to the front of `dst`, in order, by
/// SIMD where the type and CPU have it (see [`copy_valid_f64`]); returns how
/// many, or `None` when the caller must copy value by value.
#[inline]
pub(crate) fn copy_valid<T: SelectFloat>(src: &[T], dst: &mut [MaybeUninit<T>]) -> Option<usize> {
    T::copy_valid_simd(src, dst)
}

/// Writes the non-NaN values of `src` to the front of `dst`, in order, by
/// AVX-512 compress; returns how many. `None` where it does not apply (no
/// AVX-512, or `dst` shorter than `src.len() + COPY_SLACK`); the caller
/// then copies value by value.
#[inline]
pub(crate) fn copy_valid_f64(src: &[f64], dst: &mut [MaybeUninit<f64>]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if dst.len() >= src.len() + COPY_SLACK && avx512::available() {
        // SAFETY: AVX-512 (F, DQ, BW) and POPCNT are available, and `dst` has the
        // slack the whole-vector stores need.
        return Some(unsafe { avx512::copy_valid_f64(src, dst) });
    }
    let _ = (src, dst);
    None
}

/// [`copy_valid_f64`] for `f32`.
#[inline]
pub(crate) fn copy_valid_f32(src: &[f32], dst: &mut [MaybeUninit<f32>]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if dst.len() >= src.len() + COPY_SLACK && avx512::available() {
        // SAFETY: as in `copy_valid_f64`.
        return Some(unsafe { avx512::copy_valid_f32(src, dst) });
    }
    let _ = (src, dst);
    None
}

/// One block of the bracketing pass of a long lane's quantiles: adds the
/// non-NaN values of `block` to `valid` and, for each bracket
/// `lo[i]..=hi[i]`, those below `lo[i]` to `below[i]`, and writes the values
/// inside some bracket, in order, to the front of `dst`; returns how many.
/// `None` where there is no SIMD version for the type or CPU, or `dst` is
/// shorter than `block.len() + COPY_SLACK`: the caller then scans by value.
#[inline]
pub(crate) fn keep_between<T: SelectFloat, const K: usize>(
    block: &[T],
    lo: &[T; K],
    hi: &[T; K],
    below: &mut [usize; K],
    valid: &mut usize,
    dst: &mut [MaybeUninit<T>],
) -> Option<usize> {
    if dst.len() < block.len() + COPY_SLACK {
        return None;
    }
    T::keep_between_simd(block, lo, hi, below, valid, dst)
}

/// [`keep_between`] for `f64` (AVX-512).
#[inline]
pub(crate) fn keep_between_f64<const K: usize>(
    block: &[f64],
    lo: &[f64; K],
    hi: &[f64; K],
    below: &mut [usize; K],
    valid: &mut usize,
    dst: &mut [MaybeUninit<f64>],
) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if dst.len() >= block.len() + COPY_SLACK && avx512::available() {
        // SAFETY: AVX-512 is available and `dst` has the slack.
        return Some(unsafe { avx512::keep_between_f64(block, lo, hi, below, valid, dst) });
    }
    let _ = (block, lo, hi, below, valid, dst);
    None
}

/// [`keep_between`] for `f32` (AVX-512).
#[inline]
pub(crate) fn keep_between_f32<const K: usize>(
    block: &[f32],
    lo: &[f32; K],
    hi: &[f32; K],
    below: &mut [usize; K],
    valid: &mut usize,
    dst: &mut [MaybeUninit<f32>],
) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if dst.len() >= block.len() + COPY_SLACK && avx512::available() {
        // SAFETY: AVX-512 is available and `dst` has the slack.
        return Some(unsafe { avx512::keep_between_f32(block, lo, hi, below, valid, dst) });
    }
    let _ = (block, lo, hi, below, valid, dst);
    None
}

/// The AVX-512 kernels (x86-64 only; callers check [`avx512::available`]).
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use core::mem::MaybeUninit;
    use std::arch::x86_64::*;

    /// `f64` values in one 512-bit vector.
    pub(super) const F64_LANES: usize = 8;
    /// `f32` values in one 512-bit vector.
    pub(super) const F32_LANES: usize = 16;

    /// Whether this CPU has the instructions the partition uses (the
    /// answer is cached by the standard library).
    #[inline]
    pub(super) fn available() -> bool {
        is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512dq")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("popcnt")
    }

    /// One pass over `w` (NaN-free): per vector, the lanes that go left
    /// (`x < pivot`, or `<=` when `INCLUSIVE`) are compressed and stored at
    /// the left end of `w`, the others at the end of `spare`; then the
    /// right values are copied behind the left ones. Returns the left count.
    ///
    /// The left store of a full vector writes `F64_LANES` slots from
    /// `left`, and `left ≤ i` (the read position), so it only overwrites
    /// values already read: the current vector or earlier ones.
    ///
    /// # Safety
    /// The CPU has AVX-512 (F, DQ, BW) and POPCNT; `spare.len() ≥ w.len() + F64_LANES`.
    #[target_feature(enable = "avx512f,avx512dq,avx512bw,popcnt")]
    pub(super) unsafe fn partition_f64<const INCLUSIVE: bool>(
        w: &mut [f64],
        spare: &mut [f64],
        pivot: f64,
    ) -> usize {
        const L: usize = F64_LANES;
        let n = w.len();
        debug_assert!(spare.len() >= n + L);
        let (wp, sp) = (w.as_mut_ptr(), spare.as_mut_ptr());
        let p = _mm512_set1_pd(pivot);
        let goes_left = |valid: __mmask8, v: __m512d| {
            if INCLUSIVE {
                _mm512_mask_cmp_pd_mask::<_CMP_LE_OQ>(valid, v, p)
            } else {
                _mm512_mask_cmp_pd_mask::<_CMP_LT_OQ>(valid, v, p)
            }
        };
        let (mut left, mut right, mut i) = (0usize, 0usize, 0usize);
        while i + L <= n {
            // SAFETY: `i + L ≤ n`; `left ≤ i`, so `left + L ≤ n`; `right ≤ i`,
            // so `right + L ≤ spare.len()`.
            unsafe {
                let v = _mm512_loadu_pd(wp.add(i));
                let m = goes_left(!0, v);
                _mm512_storeu_pd(wp.add(left), _mm512_maskz_compress_pd(m, v));
                _mm512_storeu_pd(sp.add(right), _mm512_maskz_compress_pd(!m, v));
                let count = m.count_ones() as usize;
                left += count;
                right += L - count;
            }
            i += L;
        }
        let rest = n - i;
        if rest > 0 {
            let valid = ((1u32 << rest) - 1) as __mmask8;
            // SAFETY: the masked load reads slots `i..n`; the masked left
            // store writes `count ≤ rest` slots from `left ≤ i`, inside
            // `..n`; the right store stays below `n + L ≤ spare.len()`.
            unsafe {
                let v = _mm512_maskz_loadu_pd(valid, wp.add(i));
                let m = goes_left(valid, v);
                let count = m.count_ones() as usize;
                let stored = ((1u32 << count) - 1) as __mmask8;
                _mm512_mask_storeu_pd(wp.add(left), stored, _mm512_maskz_compress_pd(m, v));
                _mm512_storeu_pd(sp.add(right), _mm512_maskz_compress_pd(valid & !m, v));
                left += count;
                right += rest - count;
            }
        }
        w[left..].copy_from_slice(&spare[..right]);
        left
    }

    /// The lanes of `v` that are not NaN: those whose magnitude bits are at
    /// most infinity's. An integer compare: LLVM fails to compile the float
    /// self-compare (`x == x`) in an unoptimised crate that imports the
    /// function by thin LTO (`cargo test --release --doc`).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512bw,popcnt")]
    fn is_valid_pd(v: __m512d) -> __mmask8 {
        let magnitude = _mm512_and_si512(_mm512_castpd_si512(v), _mm512_set1_epi64(i64::MAX));
        _mm512_cmple_epu64_mask(magnitude, _mm512_set1_epi64(0x7ff0_0000_0000_0000))
    }

    /// [`is_valid_pd`] for `f32` lanes.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512bw,popcnt")]
    fn is_valid_ps(v: __m512) -> __mmask16 {
        let magnitude = _mm512_and_si512(_mm512_castps_si512(v), _mm512_set1_epi32(i32::MAX));
        _mm512_cmple_epu32_mask(magnitude, _mm512_set1_epi32(0x7f80_0000))
    }

    /// The non-NaN values of `src`, in order, to the front of `dst`, by
    /// whole-vector stores of the compressed valid lanes; returns how many.
    ///
    /// # Safety
    /// The CPU has AVX-512 (F, DQ, BW) and POPCNT; `dst.len() ≥ src.len() + F64_LANES`.
    #[target_feature(enable = "avx512f,avx512dq,avx512bw,popcnt")]
    pub(super) unsafe fn copy_valid_f64(src: &[f64], dst: &mut [MaybeUninit<f64>]) -> usize {
        const L: usize = F64_LANES;
        debug_assert!(dst.len() >= src.len() + L);
        let dp = dst.as_mut_ptr().cast::<f64>();
        let mut end = 0usize;
        let mut chunks = src.chunks_exact(L);
        for chunk in &mut chunks {
            // SAFETY: the load reads the `L` values of `chunk`; `end` is at
            // most the number of values read before it, so the store ends
            // below `src.len() + L ≤ dst.len()`.
            unsafe {
                let v = _mm512_loadu_pd(chunk.as_ptr());
                let m = is_valid_pd(v);
                _mm512_storeu_pd(dp.add(end), _mm512_maskz_compress_pd(m, v));
                end += m.count_ones() as usize;
            }
        }
        for &x in chunks.remainder() {
            dst[end].write(x);
            end += !x.is_nan() as usize;
        }
        end
    }

    /// [`copy_valid_f64`] for `f32`, 16 values per vector.
    ///
    /// # Safety
    /// The CPU has AVX-512 (F, DQ, BW) and POPCNT; `dst.len() ≥ src.len() + F32_LANES`.
    #[target_feature(enable = "avx512f,avx512dq,avx512bw,popcnt")]
    pub(super) unsafe fn copy_valid_f32(src: &[f32], dst: &mut [MaybeUninit<f32>]) -> usize {
        const L: usize = F32_LANES;
        debug_assert!(dst.len() >= src.len() + L);
        let dp = dst.as_mut_ptr().cast::<f32>();
        let mut end = 0usize;
        let mut chunks = src.chunks_exact(L);
        for chunk in &mut chunks {
            // SAFETY: as in `copy_valid_f64`.
            unsafe {
                let v = _mm512_loadu_ps(chunk.as_ptr());
                let m = is_valid_ps(v);
                _mm512_storeu_ps(dp.add(end), _mm512_maskz_compress_ps(m, v));
                end += m.count_ones() as usize;
            }
        }
        for &x in chunks.remainder() {
            dst[end].write(x);
            end += !x.is_nan() as usize;
        }
        end
    }

    /// [`super::keep_between`] for `f64`: per vector, one compare per
    /// bracket end, counts kept in vector lanes (a masked add each), and the
    /// compressed values inside stored as a whole vector.
    ///
    /// # Safety
    /// The CPU has AVX-512 (F, DQ, BW) and POPCNT; `dst.len() ≥ block.len() + F64_LANES`.
    #[target_feature(enable = "avx512f,avx512dq,avx512bw,popcnt")]
    pub(super) unsafe fn keep_between_f64<const K: usize>(
        block: &[f64],
        lo: &[f64; K],
        hi: &[f64; K],
        below: &mut [usize; K],
        valid: &mut usize,
        dst: &mut [MaybeUninit<f64>],
    ) -> usize {
        const L: usize = F64_LANES;
        debug_assert!(dst.len() >= block.len() + L);
        let dp = dst.as_mut_ptr().cast::<f64>();
        let (mut l, mut h) = ([_mm512_setzero_pd(); K], [_mm512_setzero_pd(); K]);
        for i in 0..K {
            (l[i], h[i]) = (_mm512_set1_pd(lo[i]), _mm512_set1_pd(hi[i]));
        }
        // counts in vector lanes, added under masks (no popcount per bracket)
        let one = _mm512_set1_epi64(1);
        let (mut under_count, mut valid_count) =
            ([_mm512_setzero_si512(); K], _mm512_setzero_si512());
        let mut end = 0usize;
        let mut chunks = block.chunks_exact(L);
        for chunk in &mut chunks {
            // SAFETY: the load reads `chunk`; `end` is at most the number of
            // values read before it, so the store ends below `dst.len()`.
            unsafe {
                let v = _mm512_loadu_pd(chunk.as_ptr());
                let is_valid = is_valid_pd(v);
                valid_count = _mm512_mask_add_epi64(valid_count, is_valid, valid_count, one);
                let mut keep: __mmask8 = 0;
                for i in 0..K {
                    let under = _mm512_cmp_pd_mask::<_CMP_LT_OQ>(v, l[i]);
                    under_count[i] =
                        _mm512_mask_add_epi64(under_count[i], under, under_count[i], one);
                    // valid and not under: at or above lo[i]
                    keep |= _mm512_mask_cmp_pd_mask::<_CMP_LE_OQ>(is_valid & !under, v, h[i]);
                }
                _mm512_storeu_pd(dp.add(end), _mm512_maskz_compress_pd(keep, v));
                end += keep.count_ones() as usize;
            }
        }
        for i in 0..K {
            below[i] += _mm512_reduce_add_epi64(under_count[i]) as usize;
        }
        *valid += _mm512_reduce_add_epi64(valid_count) as usize;
        for &x in chunks.remainder() {
            *valid += !x.is_nan() as usize;
            let mut keep = false;
            for i in 0..K {
                below[i] += (x < lo[i]) as usize;
                keep |= (x >= lo[i]) & (x <= hi[i]);
            }
            dst[end].write(x);
            end += keep as usize;
        }
        end
    }

    /// [`keep_between_f64`] for `f32`, 16 values per vector (32-bit lane
    /// counts: blocks of fewer than 2³² values).
    ///
    /// # Safety
    /// The CPU has AVX-512 (F, DQ, BW) and POPCNT; `dst.len() ≥ block.len() + F32_LANES`.
    #[target_feature(enable = "avx512f,avx512dq,avx512bw,popcnt")]
    pub(super) unsafe fn keep_between_f32<const K: usize>(
        block: &[f32],
        lo: &[f32; K],
        hi: &[f32; K],
        below: &mut [usize; K],
        valid: &mut usize,
        dst: &mut [MaybeUninit<f32>],
    ) -> usize {
        const L: usize = F32_LANES;
        debug_assert!(dst.len() >= block.len() + L && block.len() < 1 << 32);
        let dp = dst.as_mut_ptr().cast::<f32>();
        let (mut l, mut h) = ([_mm512_setzero_ps(); K], [_mm512_setzero_ps(); K]);
        for i in 0..K {
            (l[i], h[i]) = (_mm512_set1_ps(lo[i]), _mm512_set1_ps(hi[i]));
        }
        // counts in vector lanes, added under masks (no popcount per bracket)
        let one = _mm512_set1_epi32(1);
        let (mut under_count, mut valid_count) =
            ([_mm512_setzero_si512(); K], _mm512_setzero_si512());
        let mut end = 0usize;
        let mut chunks = block.chunks_exact(L);
        for chunk in &mut chunks {
            // SAFETY: the load reads `chunk`; `end` is at most the number of
            // values read before it, so the store ends below `dst.len()`.
            unsafe {
                let v = _mm512_loadu_ps(chunk.as_ptr());
                let is_valid = is_valid_ps(v);
                valid_count = _mm512_mask_add_epi32(valid_count, is_valid, valid_count, one);
                let mut keep: __mmask16 = 0;
                for i in 0..K {
                    let under = _mm512_cmp_ps_mask::<_CMP_LT_OQ>(v, l[i]);
                    under_count[i] =
                        _mm512_mask_add_epi32(under_count[i], under, under_count[i], one);
                    // valid and not under: at or above lo[i]
                    keep |= _mm512_mask_cmp_ps_mask::<_CMP_LE_OQ>(is_valid & !under, v, h[i]);
                }
                _mm512_storeu_ps(dp.add(end), _mm512_maskz_compress_ps(keep, v));
                end += keep.count_ones() as usize;
            }
        }
        for i in 0..K {
            below[i] += _mm512_reduce_add_epi32(under_count[i]) as usize;
        }
        *valid += _mm512_reduce_add_epi32(valid_count) as usize;
        for &x in chunks.remainder() {
            *valid += !x.is_nan() as usize;
            let mut keep = false;
            for i in 0..K {
                below[i] += (x < lo[i]) as usize;
                keep |= (x >= lo[i]) & (x <= hi[i]);
            }
            dst[end].write(x);
            end += keep as usize;
        }
        end
    }

    /// [`partition_f64`] for `f32`, 16 values per vector.
    ///
    /// # Safety
    /// The CPU has AVX-512 (F, DQ, BW) and POPCNT; `spare.len() ≥ w.len() + F32_LANES`.
    #[target_feature(enable = "avx512f,avx512dq,avx512bw,popcnt")]
    pub(super) unsafe fn partition_f32<const INCLUSIVE: bool>(
        w: &mut [f32],
        spare: &mut [f32],
        pivot: f32,
    ) -> usize {
        const L: usize = F32_LANES;
        let n = w.len();
        debug_assert!(spare.len() >= n + L);
        let (wp, sp) = (w.as_mut_ptr(), spare.as_mut_ptr());
        let p = _mm512_set1_ps(pivot);
        let goes_left = |valid: __mmask16, v: __m512| {
            if INCLUSIVE {
                _mm512_mask_cmp_ps_mask::<_CMP_LE_OQ>(valid, v, p)
            } else {
                _mm512_mask_cmp_ps_mask::<_CMP_LT_OQ>(valid, v, p)
            }
        };
        let (mut left, mut right, mut i) = (0usize, 0usize, 0usize);
        while i + L <= n {
            // SAFETY: as in `partition_f64`.
            unsafe {
                let v = _mm512_loadu_ps(wp.add(i));
                let m = goes_left(!0, v);
                _mm512_storeu_ps(wp.add(left), _mm512_maskz_compress_ps(m, v));
                _mm512_storeu_ps(sp.add(right), _mm512_maskz_compress_ps(!m, v));
                let count = m.count_ones() as usize;
                left += count;
                right += L - count;
            }
            i += L;
        }
        let rest = n - i;
        if rest > 0 {
            let valid = ((1u32 << rest) - 1) as __mmask16;
            // SAFETY: as in `partition_f64`.
            unsafe {
                let v = _mm512_maskz_loadu_ps(valid, wp.add(i));
                let m = goes_left(valid, v);
                let count = m.count_ones() as usize;
                let stored = ((1u32 << count) - 1) as __mmask16;
                _mm512_mask_storeu_ps(wp.add(left), stored, _mm512_maskz_compress_ps(m, v));
                _mm512_storeu_ps(sp.add(right), _mm512_maskz_compress_ps(valid & !m, v));
                left += count;
                right += rest - count;
            }
        }
        w[left..].copy_from_slice(&spare[..right]);
        left
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks that `w` is a permutation of `before` whose first `left`
    /// values go left of `pivot` and the others do not.
    fn check<T: SelectFloat>(before: &[T], w: &[T], left: usize, pivot: T, inclusive: bool) {
        let goes_left = |x: T| if inclusive { x <= pivot } else { x < pivot };
        assert!(
            w[..left].iter().all(|&x| goes_left(x)),
            "{before:?} → {w:?}"
        );
        assert!(
            w[left..].iter().all(|&x| !goes_left(x)),
            "{before:?} → {w:?}"
        );
        let bits = |v: &[T]| {
            let mut b: Vec<u64> = v.iter().map(|x| x.to_f64_exact().to_bits()).collect();
            b.sort_unstable();
            b
        };
        assert_eq!(bits(before), bits(w), "not a permutation");
    }

    fn all_lengths<T: SelectFloat>(make: impl Fn(u64) -> T) {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for n in (0..80).chain([255, 256, 257, 1000, 4099, SIMD_BLOCK * 2 + 37]) {
            for round in 0..4 {
                let before: Vec<T> = (0..n)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        make(if round == 0 { x % 3 } else { x % 1000 })
                    })
                    .collect();
                let pivot = before.get(n / 2).copied().unwrap_or(make(1));
                for inclusive in [false, true] {
                    let mut w = before.clone();
                    let left = if inclusive {
                        partition::<T, true>(&mut w, pivot)
                    } else {
                        partition::<T, false>(&mut w, pivot)
                    };
                    check(&before, &w, left, pivot, inclusive);
                    let mut s = before.clone();
                    let scalar =
                        partition_scalar(
                            &mut s,
                            |x| {
                                if inclusive {
                                    x <= pivot
                                } else {
                                    x < pivot
                                }
                            },
                        );
                    assert_eq!(left, scalar, "n {n}");
                }
            }
        }
    }

    /// `copy_valid` against a filter, at every length around the vector
    /// widths, with NaN (quiet, signalling, negative), ±inf and ±0.
    fn copies_the_valid_values<T: SelectFloat>(palette: &[T]) {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for n in (0..70).chain([1000, 1001]) {
            let src: Vec<T> = (0..n)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    palette[(x % palette.len() as u64) as usize]
                })
                .collect();
            let want: Vec<u64> = src
                .iter()
                .filter(|v| !v.is_nan_value())
                .map(|v| v.to_f64_exact().to_bits())
                .collect();
            let mut dst = vec![MaybeUninit::new(palette[0]); n + COPY_SLACK];
            if let Some(end) = copy_valid(&src, &mut dst) {
                // SAFETY: `copy_valid` wrote the first `end` slots (and the
                // buffer was initialised anyway).
                let got: Vec<u64> = dst[..end]
                    .iter()
                    .map(|v| unsafe { v.assume_init() }.to_f64_exact().to_bits())
                    .collect();
                assert_eq!(got, want, "n {n}");
            }
            // too short a destination: no SIMD copy
            assert_eq!(copy_valid(&src, &mut dst[..n]), None);
        }
    }

    #[test]
    fn the_simd_copy_keeps_exactly_the_valid_values_in_order() {
        copies_the_valid_values(&[
            1.5,
            -0.0,
            0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -f64::NAN,
            f64::from_bits(0x7ff0_0000_0000_0001), // signalling NaN
            f64::MAX,
            f64::MIN_POSITIVE / 2.0,
        ]);
        copies_the_valid_values(&[
            1.5f32,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::from_bits(0xff80_0001), // negative signalling NaN
            f32::MIN,
        ]);
    }

    /// `keep_between` against a scalar scan: counts below each bracket and
    /// the kept values in order, for values on the bracket ends, ±0, ±inf,
    /// NaN, empty padding brackets, and lengths around the vector widths.
    fn keeps_what_a_scan_keeps<T: SelectFloat, const K: usize>(
        palette: &[T],
        lo: [T; K],
        hi: [T; K],
    ) {
        let mut x = 0x853c_49e6_748f_ea9bu64;
        for n in (0..40).chain([4096]) {
            let block: Vec<T> = (0..n)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    palette[(x % palette.len() as u64) as usize]
                })
                .collect();
            let mut want_below = [0usize; K];
            let mut want = Vec::new();
            let want_valid = block.iter().filter(|v| !v.is_nan_value()).count();
            for &v in &block {
                for i in 0..K {
                    want_below[i] += (v < lo[i]) as usize;
                }
                if (0..K).any(|i| v >= lo[i] && v <= hi[i]) {
                    want.push(v.to_f64_exact().to_bits());
                }
            }
            let (mut below, mut valid) = ([7usize; K], 3usize);
            let mut dst = vec![MaybeUninit::new(palette[0]); n + COPY_SLACK];
            if let Some(end) = keep_between(&block, &lo, &hi, &mut below, &mut valid, &mut dst) {
                // SAFETY: the buffer was initialised.
                let got: Vec<u64> = dst[..end]
                    .iter()
                    .map(|v| unsafe { v.assume_init() }.to_f64_exact().to_bits())
                    .collect();
                assert_eq!(got, want, "n {n}");
                let want_below = want_below.map(|b| b + 7);
                assert_eq!(below, want_below, "n {n}");
                assert_eq!(valid, want_valid + 3, "n {n}");
            }
        }
    }

    #[test]
    fn the_simd_bracket_scan_counts_and_keeps_as_a_plain_scan() {
        let f64s = [
            -2.0,
            -1.0,
            -0.0,
            0.0,
            0.5,
            1.0,
            3.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        keeps_what_a_scan_keeps(&f64s, [-0.0], [1.0]);
        keeps_what_a_scan_keeps(&f64s, [-2.0, 1.0], [-1.0, 3.0]);
        let inf = f64::INFINITY;
        keeps_what_a_scan_keeps(&f64s, [-inf, 0.5, 3.0, inf], [-2.0, 0.5, inf, -inf]);
        let f32s = [-2.0f32, -0.0, 0.0, 1.0, 3.0, f32::INFINITY, f32::NAN];
        keeps_what_a_scan_keeps(&f32s, [0.0], [1.0]);
        let (a, b) = (
            [-2.0f32, 0.0, 1.0, 3.0, 9.0, 9.0, 9.0, 9.0],
            [-2.0f32, 0.5, 1.0, 9.0, 1.0, 1.0, 1.0, 1.0],
        );
        keeps_what_a_scan_keeps(&f32s, a, b);
    }

    #[test]
    fn blockwise_partition_joins_the_blocks() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for n in [0, 1, 5, 64, 100, 1000] {
            for block in [1, 3, 7, 64, 2000] {
                let before: Vec<u32> = (0..n)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        (x % 100) as u32
                    })
                    .collect();
                let mut w = before.clone();
                let left = blockwise(&mut w, block, |b| partition_scalar(b, |v| v < 30));
                assert_eq!(left, before.iter().filter(|&&v| v < 30).count());
                assert!(w[..left].iter().all(|&v| v < 30) && w[left..].iter().all(|&v| v >= 30));
                let (mut a, mut b) = (before.clone(), w.clone());
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b, "n {n} block {block}");
            }
        }
    }

    #[test]
    fn every_length_is_partitioned_as_the_scalar_pass_counts() {
        all_lengths(|k| k as f64 - 500.0);
        all_lengths(|k| k as f32 * 0.25);
        all_lengths(|k| half::f16::from_f32(k as f32));
        all_lengths(|k| [0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY][k as usize % 4]);
    }
}
