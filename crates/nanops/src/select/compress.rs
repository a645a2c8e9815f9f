//! The partition step of selection: moves the values of a NaN-free window
//! that go left of a pivot (`x < pivot`, or `x <= pivot`) to its front.
//!
//! Two implementations, the same result up to the order inside each side:
//!
//! - [`partition_scalar`]: Lomuto's scheme with an unconditional swap, one
//!   value per step, no data-dependent branch (every type, every CPU);
//! - on x86-64 with AVX-512, `f64` and `f32` windows go through their
//!   kernels ([`f64s`], [`f32s`], one macro): 8 (or 16) values per step are
//!   compared with the pivot and *compressed* into the left values (stored
//!   back in place, behind the read position) and the right values (stored
//!   in a per-thread spare buffer, then copied behind the left ones). 1,000
//!   random `f64`: 0.7 µs per selection instead of 3.4 µs.
//!
//! The spare buffer stays allocated with its thread, so it is capped at
//! [`SIMD_BLOCK`] values: a longer window is partitioned block by block,
//! and each block's left values are swapped in behind the left values so
//! far ([`blockwise`]; at most one extra move per value).
//!
//! The module also holds the other compress kernels of order statistics:
//! the NaN-dropping copy of a lane ([`copy_valid`]), the bracketing scan of
//! a long lane ([`keep_between`]) and the partition step that leaves the
//! two sides in two buffers, without the copy back (`partition_apart`, for
//! [`super::apart`]).

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

/// Slack a destination of [`copy_valid`] / [`keep_between`] needs past the
/// source's length (the SIMD versions store whole vectors).
pub(crate) const COPY_SLACK: usize = 16;

/// Writes the non-NaN values of `src` to the front of `dst`, in order, by
/// SIMD where the type and CPU have it; returns how many, or `None` when the
/// caller must copy value by value (no SIMD version, or `dst` shorter than
/// `src.len() + COPY_SLACK`).
#[inline]
pub(crate) fn copy_valid<T: SelectFloat>(src: &[T], dst: &mut [MaybeUninit<T>]) -> Option<usize> {
    if dst.len() < src.len() + COPY_SLACK {
        return None;
    }
    T::copy_valid_simd(src, dst)
}

/// One block of a bracketing pass: adds, for each bracket `lo[i]..=hi[i]`,
/// the values of `block` below `lo[i]` to `below[i]` and, when `valid` is
/// given, the non-NaN values to it (`None` for a block known to be NaN-free:
/// the pass is then cheaper), and writes the values inside some bracket, in
/// order, to the front of `dst`; returns how many. `None` where there is no
/// SIMD version for the type or CPU, or `dst` is shorter than `block.len() +
/// COPY_SLACK`: the caller then scans by value.
#[inline]
pub(crate) fn keep_between<T: SelectFloat, const K: usize>(
    block: &[T],
    lo: &[T; K],
    hi: &[T; K],
    below: &mut [usize; K],
    valid: Option<&mut usize>,
    dst: &mut [MaybeUninit<T>],
) -> Option<usize> {
    if dst.len() < block.len() + COPY_SLACK {
        return None;
    }
    T::keep_between_simd(block, lo, hi, below, valid, dst)
}

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

            /// [`super::partition`] by AVX-512, block by block
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

            /// [`super::copy_valid`] by AVX-512 (`dst` has the slack);
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

            /// [`super::keep_between`] by AVX-512 (`dst` has the slack);
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
    /// NaN, empty padding brackets, and lengths around the vector widths;
    /// with the valid values counted, and without on the block less its NaN.
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
            let nan_free: Vec<T> = block
                .iter()
                .copied()
                .filter(|v| !v.is_nan_value())
                .collect();
            for (block, count_valid) in [(&block, true), (&nan_free, false)] {
                let mut want_below = [0usize; K];
                let mut want = Vec::new();
                let want_valid = block.iter().filter(|v| !v.is_nan_value()).count();
                for &v in block {
                    for i in 0..K {
                        want_below[i] += (v < lo[i]) as usize;
                    }
                    if (0..K).any(|i| v >= lo[i] && v <= hi[i]) {
                        want.push(v.to_f64_exact().to_bits());
                    }
                }
                let (mut below, mut valid) = ([7usize; K], 3usize);
                let mut dst = vec![MaybeUninit::new(palette[0]); n + COPY_SLACK];
                let counted = count_valid.then_some(&mut valid);
                if let Some(end) = keep_between(block, &lo, &hi, &mut below, counted, &mut dst) {
                    // SAFETY: the buffer was initialised.
                    let got: Vec<u64> = dst[..end]
                        .iter()
                        .map(|v| unsafe { v.assume_init() }.to_f64_exact().to_bits())
                        .collect();
                    assert_eq!(got, want, "n {n}");
                    let want_below = want_below.map(|b| b + 7);
                    assert_eq!(below, want_below, "n {n}");
                    let want_valid = if count_valid { want_valid + 3 } else { 3 };
                    assert_eq!(valid, want_valid, "n {n}");
                }
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
