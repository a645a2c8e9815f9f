//! The AVX-512 *compress* kernels of order statistics, per float type.
//!
//! These kernels know nothing of the element traits: each float type's
//! module ([`f64s`], [`f32s`], one macro) offers safe entry points that
//! answer `None` where the CPU lacks AVX-512, over `unsafe` AVX-512 kernels.
//! The order-statistics family reaches them through the sealed methods of
//! `element::SelectFloat`:
//!
//! - the partition step of selection: 8 (or 16) values per step are compared
//!   with the pivot and *compressed* into the left values (stored back in
//!   place, behind the read position) and the right values (stored in a
//!   per-thread spare buffer, then copied behind the left ones), with no
//!   branch on the comparison, which the scalar pass ([`partition_scalar`])
//!   mispredicts on random values. The spare buffer stays allocated with its
//!   thread, so it is capped at [`SIMD_BLOCK`] values: a longer window is
//!   partitioned block by block ([`blockwise`]);
//! - the NaN-dropping copy of a lane (`copy_valid`), the bracketing scan of
//!   a long lane (`keep_between`) and the partition step that leaves the two
//!   sides in two buffers (`avx512::partition_apart`).

/// Block length of the SIMD partition (its spare buffer is as long).
pub(crate) const SIMD_BLOCK: usize = 1 << 16;

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
        // Not `w.swap(i, k)`: measured slower here (`kernel_timing
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
pub(crate) fn blockwise<T>(
    w: &mut [T],
    block: usize,
    mut part: impl FnMut(&mut [T]) -> usize,
) -> usize {
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

/// Slack a destination of [`copy_valid`] / [`keep_between`] needs past the
/// source's length (the SIMD versions store whole vectors).
pub(crate) const COPY_SLACK: usize = 16;

/// Whether this CPU has the AVX-512 instructions the kernels use (the
/// answer is cached by the standard library).
#[cfg(target_arch = "x86_64")]
#[inline]
fn avx512_available() -> bool {
    is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512dq")
        && is_x86_feature_detected!("avx512bw")
        && is_x86_feature_detected!("popcnt")
}

/// The SIMD kernels of one float type, as a module: safe entry points that
/// answer `None` where the CPU lacks AVX-512 (the sealed `SelectFloat`
/// methods call them), over `unsafe` AVX-512 kernels. `f64` and `f32`
/// differ only in the names of their intrinsics, given here.
macro_rules! simd_kernels {
    (
        $(#[$doc:meta])*
        $module:ident: $t:ty, $lanes:literal lanes in $vec:ty, mask $mask:ty;
        float: $load:ident $maskz_load:ident $store:ident $mask_store:ident $set1:ident
            $compress:ident $cmp:ident $mask_cmp:ident $as_bits:ident;
        int: $int:ty, $set1_int:ident $cmple_int:ident $mask_add:ident $reduce_add:ident,
            infinity $inf_bits:literal
    ) => {
        $(#[$doc])*
        pub(crate) mod $module {
            use core::mem::MaybeUninit;

            /// Values in one 512-bit vector.
            #[cfg(target_arch = "x86_64")]
            const LANES: usize = $lanes;

            /// Whether these kernels run on this CPU.
            #[inline]
            pub(crate) fn available() -> bool {
                #[cfg(target_arch = "x86_64")]
                if super::avx512_available() {
                    return true;
                }
                false
            }

            /// The partition step by AVX-512, block by block
            /// ([`super::blockwise`]) with a per-thread spare buffer;
            /// `None` without AVX-512.
            #[inline]
            pub(crate) fn partition<const INCLUSIVE: bool>(w: &mut [$t], pivot: $t) -> Option<usize> {
                #[cfg(target_arch = "x86_64")]
                {
                    use std::cell::Cell;
                    thread_local! {
                        static SPARE: Cell<Vec<$t>> = const { Cell::new(Vec::new()) };
                    }
                    if super::avx512_available() {
                        return Some(SPARE.with(|cell| {
                            let mut spare = cell.take();
                            // grown, never shrunk: a shorter window after a
                            // longer one then costs no fill
                            let need = w.len().min(super::SIMD_BLOCK) + LANES;
                            if spare.len() < need {
                                spare.resize(need, 0.0);
                            }
                            let left = super::blockwise(w, super::SIMD_BLOCK, |block| {
                                // SAFETY: AVX-512 (F, DQ, BW) and POPCNT are available
                                // (checked above); `spare` holds `block.len() + LANES`.
                                unsafe { avx512::partition::<INCLUSIVE>(block, &mut spare, pivot) }
                            });
                            cell.set(spare);
                            left
                        }));
                    }
                }
                let _ = (w, pivot);
                None
            }

            /// The NaN-dropping copy by AVX-512 (`dst` has the slack);
            /// `None` without AVX-512.
            #[inline]
            pub(crate) fn copy_valid(src: &[$t], dst: &mut [MaybeUninit<$t>]) -> Option<usize> {
                debug_assert!(dst.len() >= src.len() + super::COPY_SLACK);
                #[cfg(target_arch = "x86_64")]
                if super::avx512_available() {
                    // SAFETY: AVX-512 is available; the caller gave the slack.
                    return Some(unsafe { avx512::copy_valid(src, dst) });
                }
                let _ = (src, dst);
                None
            }

            /// One block of the bracketing scan by AVX-512 (`dst` has the slack);
            /// `None` without AVX-512.
            #[inline]
            pub(crate) fn keep_between<const K: usize>(
                block: &[$t],
                lo: &[$t; K],
                hi: &[$t; K],
                below: &mut [usize; K],
                valid: Option<&mut usize>,
                dst: &mut [MaybeUninit<$t>],
            ) -> Option<usize> {
                debug_assert!(dst.len() >= block.len() + super::COPY_SLACK);
                #[cfg(target_arch = "x86_64")]
                if super::avx512_available() {
                    // SAFETY: AVX-512 is available; the caller gave the slack.
                    return Some(unsafe {
                        match valid {
                            Some(valid) => avx512::keep_between::<K, true>(block, lo, hi, below, valid, dst),
                            None => avx512::keep_between::<K, false>(block, lo, hi, below, &mut 0, dst),
                        }
                    });
                }
                let _ = (block, lo, hi, below, valid, dst);
                None
            }

            /// The AVX-512 kernels (callers check `avx512_available`;
            /// `partition_apart` is called by the sealed `SelectFloat`
            /// method of the same name).
            #[cfg(target_arch = "x86_64")]
            pub(crate) mod avx512 {
                use super::LANES;
                use core::mem::MaybeUninit;
                use std::arch::x86_64::*;

                /// The lanes of `v` that are not NaN: those whose magnitude
                /// bits are at most infinity's. An integer compare: LLVM
                /// fails to compile the float self-compare (`x == x`) in an
                /// unoptimised crate that imports the function by thin LTO
                /// (`cargo test --release --doc`).
                #[inline]
                #[target_feature(enable = "avx512f,avx512dq,avx512bw,popcnt")]
                fn is_valid(v: $vec) -> $mask {
                    let magnitude = _mm512_and_si512($as_bits(v), $set1_int(<$int>::MAX));
                    $cmple_int(magnitude, $set1_int($inf_bits))
                }

                /// One pass over `w` (NaN-free): per vector, the lanes that go
                /// left (`x < pivot`, or `<=` when `INCLUSIVE`) are compressed
                /// and stored at the left end of `w`, the others at the end of
                /// `spare`; then the right values are copied behind the left
                /// ones. Returns the left count.
                ///
                /// The left store of a full vector writes `LANES` slots from
                /// `left`, and `left ≤ i` (the read position), so it only
                /// overwrites values already read: the current vector or
                /// earlier ones.
                ///
                /// # Safety
                /// The CPU has AVX-512 (F, DQ, BW) and POPCNT;
                /// `spare.len() ≥ w.len() + LANES`.
                #[target_feature(enable = "avx512f,avx512dq,avx512bw,popcnt")]
                pub(super) unsafe fn partition<const INCLUSIVE: bool>(
                    w: &mut [$t],
                    spare: &mut [$t],
                    pivot: $t,
                ) -> usize {
                    let n = w.len();
                    debug_assert!(spare.len() >= n + LANES);
                    let wp = w.as_mut_ptr();
                    // SAFETY: the left values go back into `w` itself, the
                    // right ones to `spare`, disjoint from it and long enough.
                    let left = unsafe {
                        partition_apart::<INCLUSIVE>(wp, n, wp, spare.as_mut_ptr(), pivot)
                    };
                    w[left..].copy_from_slice(&spare[..n - left]);
                    left
                }

                /// One pass over the `n` NaN-free values at `src`: per
                /// vector, the lanes that go left (`x < pivot`, or `<=` when
                /// `INCLUSIVE`) are compressed and stored at `left_dst`, the
                /// others at `right_dst`, each behind the values stored
                /// before (so either may be `src` itself: a store never
                /// passes the read position). Returns the left count. No
                /// copy back: the right values stay where they were stored.
                ///
                /// # Safety
                /// The CPU has AVX-512 (F, DQ, BW) and POPCNT; `src` is
                /// readable for `n` values; `left_dst` is `src` or disjoint
                /// from it and writable for `n` values; `right_dst` is `src`
                /// or disjoint from it and writable for `n + LANES` values.
                #[target_feature(enable = "avx512f,avx512dq,avx512bw,popcnt")]
                pub(crate) unsafe fn partition_apart<const INCLUSIVE: bool>(
                    src: *const $t,
                    n: usize,
                    left_dst: *mut $t,
                    right_dst: *mut $t,
                    pivot: $t,
                ) -> usize {
                    let p = $set1(pivot);
                    let goes_left = |valid: $mask, v: $vec| {
                        if INCLUSIVE {
                            $mask_cmp::<_CMP_LE_OQ>(valid, v, p)
                        } else {
                            $mask_cmp::<_CMP_LT_OQ>(valid, v, p)
                        }
                    };
                    let (mut left, mut right, mut i) = (0usize, 0usize, 0usize);
                    while i + LANES <= n {
                        // SAFETY: `i + LANES ≤ n`; `left, right ≤ i`, so a store
                        // into `src` covers only values already read, and
                        // `left + LANES ≤ n`, `right + LANES ≤ n + LANES`.
                        unsafe {
                            let v = $load(src.add(i));
                            let m = goes_left(!0, v);
                            $store(left_dst.add(left), $compress(m, v));
                            $store(right_dst.add(right), $compress(!m, v));
                            let count = m.count_ones() as usize;
                            left += count;
                            right += LANES - count;
                        }
                        i += LANES;
                    }
                    let rest = n - i;
                    if rest > 0 {
                        let valid = ((1u32 << rest) - 1) as $mask;
                        // SAFETY: the masked load reads `i..n`; the masked left
                        // store writes `count ≤ rest` slots from `left ≤ i`,
                        // inside `..n`; the right store ends below
                        // `i + LANES ≤ n + LANES`, after every value was read.
                        unsafe {
                            let v = $maskz_load(valid, src.add(i));
                            let m = goes_left(valid, v);
                            let count = m.count_ones() as usize;
                            let stored = ((1u32 << count) - 1) as $mask;
                            $mask_store(left_dst.add(left), stored, $compress(m, v));
                            $store(right_dst.add(right), $compress(valid & !m, v));
                            left += count;
                        }
                    }
                    left
                }

                /// The non-NaN values of `src`, in order, to the front of
                /// `dst`, by whole-vector stores of the compressed valid
                /// lanes; returns how many.
                ///
                /// # Safety
                /// The CPU has AVX-512 (F, DQ, BW) and POPCNT;
                /// `dst.len() ≥ src.len() + LANES`.
                #[target_feature(enable = "avx512f,avx512dq,avx512bw,popcnt")]
                pub(super) unsafe fn copy_valid(src: &[$t], dst: &mut [MaybeUninit<$t>]) -> usize {
                    debug_assert!(dst.len() >= src.len() + LANES);
                    let dp = dst.as_mut_ptr().cast::<$t>();
                    let mut end = 0usize;
                    let mut chunks = src.chunks_exact(LANES);
                    for chunk in &mut chunks {
                        // SAFETY: the load reads the values of `chunk`; `end` is
                        // at most the number of values read before it, so the
                        // store ends below `src.len() + LANES ≤ dst.len()`.
                        unsafe {
                            let v = $load(chunk.as_ptr());
                            let m = is_valid(v);
                            $store(dp.add(end), $compress(m, v));
                            end += m.count_ones() as usize;
                        }
                    }
                    for &x in chunks.remainder() {
                        dst[end].write(x);
                        end += !x.is_nan() as usize;
                    }
                    end
                }

                /// [`super::keep_between`]: per vector, one compare per bracket
                /// end, counts by popcount (one bracket) or in vector lanes
                /// of `$int` (several; see the comment in the body), and the
                /// compressed values inside stored as a whole vector. The
                /// non-NaN values are counted into `valid` only when
                /// `COUNT_VALID` (a NaN-free block skips that compare and add).
                ///
                /// # Safety
                /// The CPU has AVX-512 (F, DQ, BW) and POPCNT;
                /// `dst.len() ≥ block.len() + LANES`.
                #[target_feature(enable = "avx512f,avx512dq,avx512bw,popcnt")]
                pub(super) unsafe fn keep_between<const K: usize, const COUNT_VALID: bool>(
                    block: &[$t],
                    lo: &[$t; K],
                    hi: &[$t; K],
                    below: &mut [usize; K],
                    valid: &mut usize,
                    dst: &mut [MaybeUninit<$t>],
                ) -> usize {
                    debug_assert!(dst.len() >= block.len() + LANES);
                    debug_assert!((block.len() / LANES) < <$int>::MAX as usize);
                    let dp = dst.as_mut_ptr().cast::<$t>();
                    let (mut l, mut h) = ([$set1(0.0); K], [$set1(0.0); K]);
                    for i in 0..K {
                        (l[i], h[i]) = ($set1(lo[i]), $set1(hi[i]));
                    }
                    // Per bracket, the values at or above `lo[i]` are counted
                    // (its mask is also the keep test's): those below are the
                    // valid ones less these. One bracket counts by popcount of
                    // the masks (a `kmov` on port 0): a masked vector add
                    // compiles to a mask-to-vector move on port 5, where the
                    // compares and the compress queue. Several count in
                    // vector lanes: LLVM turns their popcounts into one
                    // slower vector popcount.
                    let one = $set1_int(1);
                    let zero = _mm512_setzero_si512();
                    let (mut at_least_lanes, mut valid_lanes) = ([zero; K], zero);
                    let (mut at_least_count, mut vector_valid) = ([0usize; K], 0usize);
                    let mut end = 0usize;
                    let mut chunks = block.chunks_exact(LANES);
                    for chunk in &mut chunks {
                        // SAFETY: the load reads `chunk`; `end` is at most the
                        // number of values read before it, so the store ends
                        // below `dst.len()`.
                        unsafe {
                            let v = $load(chunk.as_ptr());
                            if COUNT_VALID && K == 1 {
                                vector_valid += is_valid(v).count_ones() as usize;
                            } else if COUNT_VALID {
                                valid_lanes = $mask_add(valid_lanes, is_valid(v), valid_lanes, one);
                            }
                            let mut keep: $mask = 0;
                            for i in 0..K {
                                // ordered compares: NaN is neither counted nor kept
                                let at_least = $cmp::<_CMP_GE_OQ>(v, l[i]);
                                if K == 1 {
                                    at_least_count[i] += at_least.count_ones() as usize;
                                } else {
                                    at_least_lanes[i] =
                                        $mask_add(at_least_lanes[i], at_least, at_least_lanes[i], one);
                                }
                                keep |= $mask_cmp::<_CMP_LE_OQ>(at_least, v, h[i]);
                            }
                            $store(dp.add(end), $compress(keep, v));
                            end += keep.count_ones() as usize;
                        }
                    }
                    vector_valid += if COUNT_VALID {
                        $reduce_add(valid_lanes) as usize
                    } else {
                        block.len() - chunks.remainder().len()
                    };
                    for i in 0..K {
                        let at_least = at_least_count[i] + $reduce_add(at_least_lanes[i]) as usize;
                        below[i] += vector_valid - at_least;
                    }
                    *valid += vector_valid;
                    for &x in chunks.remainder() {
                        *valid += (COUNT_VALID && !x.is_nan()) as usize;
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
            }
        }
    };
}

simd_kernels! {
    /// The SIMD kernels of `f64` (8 lanes).
    f64s: f64, 8 lanes in __m512d, mask __mmask8;
    float: _mm512_loadu_pd _mm512_maskz_loadu_pd _mm512_storeu_pd _mm512_mask_storeu_pd
        _mm512_set1_pd _mm512_maskz_compress_pd _mm512_cmp_pd_mask _mm512_mask_cmp_pd_mask
        _mm512_castpd_si512;
    int: i64, _mm512_set1_epi64 _mm512_cmple_epu64_mask _mm512_mask_add_epi64
        _mm512_reduce_add_epi64, infinity 0x7ff0_0000_0000_0000
}

simd_kernels! {
    /// The SIMD kernels of `f32` (16 lanes).
    f32s: f32, 16 lanes in __m512, mask __mmask16;
    float: _mm512_loadu_ps _mm512_maskz_loadu_ps _mm512_storeu_ps _mm512_mask_storeu_ps
        _mm512_set1_ps _mm512_maskz_compress_ps _mm512_cmp_ps_mask _mm512_mask_cmp_ps_mask
        _mm512_castps_si512;
    int: i32, _mm512_set1_epi32 _mm512_cmple_epu32_mask _mm512_mask_add_epi32
        _mm512_reduce_add_epi32, infinity 0x7f80_0000
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
