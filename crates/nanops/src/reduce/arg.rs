//! Argmin / argmax kernels: the first extremum and its position.

use super::extremum::{better, lanes_extremum_in_registers};
use super::reducer::{fold_tree, row_pairs, rows_in_fours, Reducer, LANES};
use crate::element::Element;
use crate::states::{beats, ArgExtremum, State};

/// Values per block of [`arg_slice`]: 32 KB of `f64`, so the rare second
/// look at a block reads it from the L1 cache.
const ARG_BLOCK: usize = 4096;

/// The first extremum of `xs` and its index, NaN ignored; `None` when all are NaN.
///
/// Block by block: the block's extremum comes from the plain extremum loop
/// (no positions in the hot loop), and only when it beats the best so far
/// is the block searched again, from the cache, for the first position
/// holding it. On data in random order the best improves in a few blocks
/// only (about `ln` of their number), so the search is rare; sorted data
/// searches every block, still from the cache. Ties keep the earlier block,
/// and within a block the first equal value: the first extremum, as a scan
/// finds it (`0.0` and `-0.0` compare equal, so a scan keeps the first).
#[inline(always)]
pub(crate) fn arg_slice<E: Element, const MAX: bool>(xs: &[E]) -> Option<(E, usize)> {
    if xs.len() < 2 * LANES {
        // short lanes ((100000, 10) along axis 1): no lane set-up
        let mut win = ArgExtremum::<E, MAX>::default();
        for i in 0..xs.len() {
            win.push(xs[i], i);
        }
        return win.get();
    }
    let mut win: Option<(E, usize)> = None;
    for (b, block) in xs.chunks(ARG_BLOCK).enumerate() {
        let Some(m) = lanes_extremum_in_registers::<E, MAX>(block) else {
            continue;
        };
        if win.is_some_and(|(w, _)| !beats::<E, MAX>(m, w)) {
            continue;
        }
        if let Some(at) = first_equal(block, m) {
            win = Some((block[at], b * ARG_BLOCK + at));
        }
    }
    win
}

/// The first position of a value equal to `m`: groups of `2 · LANES` values
/// compared at once (a vector compare and a mask test), then the position
/// inside the first group that holds one.
#[inline(always)]
fn first_equal<E: Element>(xs: &[E], m: E) -> Option<usize> {
    const GROUP: usize = 2 * LANES;
    let mut groups = xs.chunks_exact(GROUP);
    let mut start = 0;
    for g in &mut groups {
        let mut any = false;
        for i in 0..GROUP {
            any |= g[i] == m;
        }
        if any {
            break;
        }
        start += GROUP;
    }
    xs[start..].iter().position(|&x| x == m).map(|i| start + i)
}

/// The first position in a short lane holding a value equal to `m` (`L`
/// when none does), without a branch: the loop runs backwards keeping the
/// last match. Equal is `==`, so `0.0` and `-0.0` match each other.
#[inline(always)]
fn first_equal_in_lane<E: Element, const L: usize>(xs: &[E; L], m: E) -> usize {
    let mut at = L;
    for i in (0..L).rev() {
        if xs[i] == m {
            at = i;
        }
    }
    at
}

/// The partial state of one output: the best value with its position, and
/// how many positions the state has seen (the offset of the next value).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ArgState<E: Element, const MAX: bool> {
    best: ArgExtremum<E, MAX>,
    seen: usize,
}

impl<E: Element, const MAX: bool> State<E> for ArgState<E, MAX> {
    /// The position of the first extremum, `None` when all values were NaN.
    type Output = Option<usize>;
    #[inline(always)]
    fn push(&mut self, x: E) {
        self.best.push(x, self.seen);
        self.seen += 1;
    }
    /// `other` covers the positions after this state's.
    #[inline(always)]
    fn merge(&mut self, other: &Self) {
        if let Some((v, i)) = other.best.get() {
            self.best.push(v, self.seen + i);
        }
        self.seen += other.seen;
    }
    #[inline(always)]
    fn finish(&self) -> Option<usize> {
        self.best.get().map(|(_, i)| i)
    }
}

/// `nanargmin` (`MAX = false`) or `nanargmax` (`MAX = true`) along one
/// reduced dimension whose plan order is the logical order (the caller
/// ensures no stride was flipped).
pub(crate) struct ArgReducer<const MAX: bool>;

impl<E: Element, const MAX: bool> Reducer<E> for ArgReducer<MAX> {
    type Value = E;
    type State = ArgState<E, MAX>;
    type Output = usize;
    type Kernel = Self;
    #[inline(always)]
    fn kernel(&self) -> &Self {
        self
    }
    #[inline(always)]
    fn push_slice(&self, st: &mut Self::State, xs: &[E]) {
        if let Some((v, i)) = arg_slice::<E, MAX>(xs) {
            st.best.push(v, st.seen + i);
        }
        st.seen += xs.len();
    }
    const SHORT: bool = true;
    const PREFETCH_SHORT: bool = true;
    /// The lane's extremum as a tree (a NaN loses to anything), then the
    /// first position holding a value equal to it: the first extremum, as a
    /// scan finds it (`0.0` and `-0.0` tie).
    #[inline(always)]
    fn short_state<const L: usize>(&self, xs: &[E; L]) -> Self::State {
        let m = fold_tree(*xs, better::<E, MAX>);
        let at = first_equal_in_lane(xs, m);
        let mut best = ArgExtremum::default();
        if at < L {
            best.push(xs[at], at);
        }
        ArgState { best, seen: L }
    }
    /// Rows are consecutive positions of every state (all states of a block
    /// have seen the same number of positions).
    #[inline(always)]
    fn push_rows(&self, states: &mut [Self::State], rows: &[&[E]]) {
        let Some(first) = rows.first() else {
            return;
        };
        let base = states.first().map_or(0, |s| s.seen);
        debug_assert!(rows.len() < u32::MAX as usize, "a block of rows");
        // Seed from the state, or from the first row (`at` = its row). Every
        // row, the first included, is then offered: an equal value never
        // replaces the seed, so a first-row seed stays at row 0.
        let mut best: Vec<E> = Vec::with_capacity(states.len());
        // rows of a block fit in u32, which keeps `at` as narrow as `f32`
        // values (one register of each per step)
        let mut at: Vec<u32> = Vec::with_capacity(states.len());
        for j in 0..states.len() {
            match states[j].best.get() {
                Some((v, _)) => {
                    best.push(v);
                    at.push(u32::MAX);
                }
                None => {
                    best.push(first[j]);
                    at.push(0);
                }
            }
        }
        // NaN never beats; a NaN seed is replaced by any valid value. `x`
        // (row `r`) is taken when valid and not beaten-or-equalled by `b`
        // (with a NaN `b` that is any valid `x`): one compare for floats.
        #[inline(always)]
        fn offer<E: Element, const MAX: bool>(b: &mut E, a: &mut u32, x: E, r: u32) {
            let take = !x.is_nan_value() & !(beats::<E, MAX>(*b, x) | (x == *b));
            *b = if take { x } else { *b };
            *a = if take { r } else { *a };
        }
        let n = first.len();
        // Four rows per pass over `best` and `at` where they do not fit L1:
        // each column still takes the rows one after another (the same
        // result as a pass per row), the state loaded and stored once per four.
        let state = n * (std::mem::size_of::<E>() + std::mem::size_of::<u32>());
        let (in_fours, one_by_one) = rows.split_at(rows_in_fours(rows.len(), state));
        let mut r = 0u32;
        for q in in_fours.chunks_exact(4) {
            let (best, at) = (&mut best[..n], &mut at[..n]);
            let (r0, r1, r2, r3) = (&q[0][..n], &q[1][..n], &q[2][..n], &q[3][..n]);
            for j in 0..n {
                let (mut b, mut a) = (best[j], at[j]);
                offer::<E, MAX>(&mut b, &mut a, r0[j], r);
                offer::<E, MAX>(&mut b, &mut a, r1[j], r + 1);
                offer::<E, MAX>(&mut b, &mut a, r2[j], r + 2);
                offer::<E, MAX>(&mut b, &mut a, r3[j], r + 3);
                (best[j], at[j]) = (b, a);
            }
            r += 4;
        }
        for (r0, r1, count) in row_pairs(one_by_one) {
            let (best, at, r0, r1) = (&mut best[..n], &mut at[..n], &r0[..n], &r1[..n]);
            // an odd last row is offered twice with one index: kept as once
            let r_next = r + count as u32 - 1;
            for j in 0..n {
                let (mut b, mut a) = (best[j], at[j]);
                offer::<E, MAX>(&mut b, &mut a, r0[j], r);
                offer::<E, MAX>(&mut b, &mut a, r1[j], r_next);
                (best[j], at[j]) = (b, a);
            }
            r = r_next + 1;
        }
        for j in 0..states.len() {
            if at[j] != u32::MAX {
                states[j].best.push(best[j], base + at[j] as usize);
            }
            states[j].seen += rows.len();
        }
    }
    fn finish(&self, st: &Self::State) -> usize {
        st.finish().unwrap_or(0)
    }
    fn degenerate(&self, st: &Self::State) -> bool {
        st.best.get().is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// First index of the extremum by a plain scan.
    fn slow<const MAX: bool>(xs: &[f64]) -> Option<usize> {
        let mut best: Option<(f64, usize)> = None;
        for (i, &x) in xs.iter().enumerate() {
            if x.is_nan() {
                continue;
            }
            match best {
                Some((b, _)) if !(if MAX { x > b } else { x < b }) => {}
                _ => best = Some((x, i)),
            }
        }
        best.map(|(_, i)| i)
    }

    #[test]
    fn arg_slice_matches_a_plain_scan() {
        let mut x = 12345u64;
        // up to several blocks of ARG_BLOCK values
        for len in [0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 64, 100, 1000, 4097, 9000] {
            for _ in 0..50 {
                let xs: Vec<f64> = (0..len)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        match x % 7 {
                            0 => f64::NAN,
                            k => (k % 4) as f64, // many ties
                        }
                    })
                    .collect();
                assert_eq!(arg_slice::<f64, true>(&xs).map(|p| p.1), slow::<true>(&xs));
                assert_eq!(
                    arg_slice::<f64, false>(&xs).map(|p| p.1),
                    slow::<false>(&xs)
                );
            }
        }
    }

    #[test]
    fn arg_slice_over_blocks_matches_a_plain_scan() {
        // Blocks whose best improves every time (sorted data), never (the
        // extremum first), an all-NaN block, ±0 ties across blocks, and runs
        // of equal values straddling a block boundary.
        let n = 3 * ARG_BLOCK + 17;
        let rising: Vec<f64> = (0..n).map(|i| i as f64).collect();
        let falling: Vec<f64> = (0..n).map(|i| -(i as f64)).collect();
        let mut nan_block = rising.clone();
        nan_block[ARG_BLOCK..2 * ARG_BLOCK].fill(f64::NAN);
        let mut zeros = vec![-1.0; n];
        zeros[ARG_BLOCK + 5] = -0.0;
        zeros[2 * ARG_BLOCK + 1] = 0.0;
        let mut straddle = vec![0.5; n];
        straddle[ARG_BLOCK - 3..ARG_BLOCK + 3].fill(9.0);
        straddle[2 * ARG_BLOCK] = 9.0;
        for xs in [rising, falling, nan_block, zeros, straddle] {
            assert_eq!(arg_slice::<f64, true>(&xs).map(|p| p.1), slow::<true>(&xs));
            assert_eq!(
                arg_slice::<f64, false>(&xs).map(|p| p.1),
                slow::<false>(&xs)
            );
            let signed = |m: Option<(f64, usize)>| m.map(|(v, i)| (v.to_bits(), i));
            let first =
                |max: bool| slow_value(&xs, max).map(|(v, i): (f64, usize)| (v.to_bits(), i));
            assert_eq!(signed(arg_slice::<f64, true>(&xs)), first(true));
            assert_eq!(signed(arg_slice::<f64, false>(&xs)), first(false));
        }
    }

    /// The first extremum and its position by a plain scan.
    fn slow_value(xs: &[f64], max: bool) -> Option<(f64, usize)> {
        let i = if max {
            slow::<true>(xs)
        } else {
            slow::<false>(xs)
        }?;
        Some((xs[i], i))
    }

    /// `short_state` of every lane of `L` values drawn from NaN, ±0 and a
    /// few ties gives the position a plain scan gives.
    fn short_matches_scan<const L: usize>(seed: &mut u64) {
        for _ in 0..300 {
            let lane: [f64; L] = std::array::from_fn(|_| {
                *seed ^= *seed << 13;
                *seed ^= *seed >> 7;
                *seed ^= *seed << 17;
                [f64::NAN, 0.0, -0.0, 1.0, -1.0, 2.0][(*seed % 6) as usize]
            });
            let max = Reducer::<f64>::short_state(&ArgReducer::<true>, &lane);
            let min = Reducer::<f64>::short_state(&ArgReducer::<false>, &lane);
            assert_eq!(max.best.get().map(|p| p.1), slow::<true>(&lane), "{lane:?}");
            assert_eq!(
                min.best.get().map(|p| p.1),
                slow::<false>(&lane),
                "{lane:?}"
            );
            assert_eq!(max.seen, L);
        }
    }

    #[test]
    fn short_lanes_match_a_plain_scan() {
        let mut seed = 99u64;
        short_matches_scan::<1>(&mut seed);
        short_matches_scan::<2>(&mut seed);
        short_matches_scan::<3>(&mut seed);
        short_matches_scan::<7>(&mut seed);
        short_matches_scan::<10>(&mut seed);
        short_matches_scan::<16>(&mut seed);
    }

    #[test]
    fn rows_and_merge_keep_positions() {
        let r = ArgReducer::<true>;
        let rows: Vec<Vec<f64>> = vec![
            vec![f64::NAN, 1.0, 5.0],
            vec![f64::NAN, 3.0, 5.0],
            vec![2.0, 3.0, 7.0],
            vec![2.0, 0.0, 6.0],
        ];
        let refs: Vec<&[f64]> = rows.iter().map(|r| r.as_slice()).collect();
        // blocks of two and one rows into one state, then one more row in a
        // second state merged after it
        let mut a = vec![ArgState::<f64, true>::default(); 3];
        r.push_rows(&mut a, &refs[..2]);
        r.push_rows(&mut a, &refs[2..3]);
        let mut b = vec![ArgState::<f64, true>::default(); 3];
        r.push_rows(&mut b, &refs[3..]);
        for (x, y) in a.iter_mut().zip(&b) {
            x.merge(y);
        }
        let got: Vec<usize> = a.iter().map(|s| Reducer::<f64>::finish(&r, s)).collect();
        assert_eq!(got, vec![2, 1, 2]);
    }
}
