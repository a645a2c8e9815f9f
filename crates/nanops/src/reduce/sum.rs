//! Sum kernels: plain lanes over blocks, or compensated lanes, into a
//! compensated [`Sum`]; the short-lane and column variants the other
//! reductions reuse.

use super::reducer::{
    fold_lanes, fold_tree, padded_with_nan, rows_in_fours, Reducer, BLOCK, LANES,
};
use super::register::statistics;
use crate::element::{Accumulator, Element};
use crate::simd::prefetch::prefetch_ahead;
use crate::states::{State, Sum};

/// Compensated lanes per loop: two AVX-512 registers of `f64`. With one
/// (8 lanes) each step waits on the latency of the previous addition to the
/// same register; measured (`kernel_timing nansum`, A/B in one process)
/// 16 lanes were faster than 8 on 10M `f64`, and 32 lanes gained little
/// more while overflowing AVX2's 16 registers.
const COMP_LANES: usize = 16;

/// Sum and NaN count of a block, in `LANES` plain lanes, values converted by `conv`.
#[inline(always)]
pub(crate) fn block_sum<E: Element, A: Accumulator>(xs: &[E], conv: impl Fn(E) -> A) -> (A, u64) {
    let mut acc = [A::zero(); LANES];
    let mut nans = [0u64; LANES];
    let mut chunks = xs.chunks_exact(LANES);
    for c in &mut chunks {
        prefetch_ahead(c.as_ptr());
        for i in 0..LANES {
            let x = c[i];
            let nan = x.is_nan_value();
            acc[i] = acc[i].add(if nan { A::zero() } else { conv(x) });
            nans[i] += nan as u64;
        }
    }
    let rem = chunks.remainder();
    for i in 0..rem.len() {
        let x = rem[i];
        let nan = x.is_nan_value();
        acc[i] = acc[i].add(if nan { A::zero() } else { conv(x) });
        nans[i] += nan as u64;
    }
    (fold_lanes(acc, A::add), fold_lanes(nans, |a, b| a + b))
}

/// Whether sums of `E` in `A` use compensated lanes ([`comp_sum`]): float
/// accumulators as wide as the input (`f64`, `complex128`, and `i64`/`u64`
/// means). Wider accumulators (`f16` → `f32`, `f32` → `f64`) already absorb
/// the rounding of the input type and stay on the plain lanes; integer sums
/// are exact.
#[inline(always)]
fn compensated<E: Element, A: Accumulator>() -> bool {
    !A::EXACT && std::mem::size_of::<E>() == std::mem::size_of::<A>()
}

/// Sum and NaN count of a slice in [`COMP_LANES`] compensated lanes: every value
/// enters its lane with [`Accumulator::two_sum`] and the rounding errors
/// add up in a second set of lanes; the lanes fold by halving, also with
/// TwoSum. The result `(hi, lo)` is the sum with an error of about
/// `ulp(hi) + n·ε²·Σ|x|` whatever the cancellation (a plain or pairwise sum
/// errs by up to `log n·ε·Σ|x|`). Branch-free: it vectorises like the plain
/// lanes at about three times the arithmetic, still below memory bandwidth.
#[inline(always)]
fn comp_sum<E: Element, A: Accumulator>(xs: &[E], conv: impl Fn(E) -> A) -> (A, A, u64) {
    let mut hi = [A::zero(); COMP_LANES];
    let mut lo = [A::zero(); COMP_LANES];
    let mut nans = [0u64; COMP_LANES];
    let mut chunks = xs.chunks_exact(COMP_LANES);
    for c in &mut chunks {
        prefetch_ahead(c.as_ptr());
        for i in 0..COMP_LANES {
            let x = c[i];
            let nan = x.is_nan_value();
            let (t, e) = hi[i].two_sum(if nan { A::zero() } else { conv(x) });
            hi[i] = t;
            lo[i] = lo[i].add(e);
            nans[i] += nan as u64;
        }
    }
    // The tail goes into lane 0 one value at a time: indexing the lanes by a
    // run-time position would keep them in memory in the loop above.
    for &x in chunks.remainder() {
        let nan = x.is_nan_value();
        let (t, e) = hi[0].two_sum(if nan { A::zero() } else { conv(x) });
        hi[0] = t;
        lo[0] = lo[0].add(e);
        nans[0] += nan as u64;
    }
    let mut w = COMP_LANES / 2;
    while w > 0 {
        for i in 0..w {
            let (t, e) = hi[i].two_sum(hi[i + w]);
            hi[i] = t;
            lo[i] = lo[i].add(lo[i + w]).add(e);
        }
        w /= 2;
    }
    // A lane that became infinite or NaN stays so, and so does the folded
    // `hi`: a finite `hi` means every compensation term is finite.
    (hi[0], A::finite_comp(hi[0], lo[0]), nans.iter().sum())
}

/// Adds the non-NaN values of `xs` to `sum`, returning how many there were.
///
/// Float accumulators as wide as the input sum in compensated lanes over the
/// whole slice ([`comp_sum`]); the others in plain lanes over blocks of
/// [`BLOCK`] values, each block total entering the compensated `sum`.
#[inline(always)]
pub(crate) fn sum_into<E: Element, A: Accumulator>(
    sum: &mut Sum<A>,
    xs: &[E],
    conv: impl Fn(E) -> A + Copy,
) -> u64 {
    if compensated::<E, A>() {
        let (hi, lo, nans) = comp_sum(xs, conv);
        sum.push(hi);
        sum.push(lo);
        return xs.len() as u64 - nans;
    }
    let mut valid = 0;
    for block in xs.chunks(BLOCK) {
        let (s, nans) = block_sum(block, conv);
        sum.push(s);
        valid += block.len() as u64 - nans;
    }
    valid
}

/// [`nansum`](crate::nansum): non-NaN values added in the accumulator type.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NanSum;

statistics!(NanSum);

impl<E: Element> Reducer<E> for NanSum {
    type Value = E::Acc;
    type State = Sum<E::Acc>;
    type Output = E::Sum;
    type Kernel = Self;
    #[inline(always)]
    fn kernel(&self) -> &Self {
        self
    }
    #[inline(always)]
    fn push_slice(&self, st: &mut Self::State, xs: &[E]) {
        sum_into(st, xs, E::to_acc);
    }
    #[inline(always)]
    fn push_value(&self, st: &mut Self::State, x: E) {
        // NaN enters as zero, which leaves the sum's value as it is: no
        // branch for values that come one at a time, NaN among them at random
        st.push_branch_free(x.to_acc_nan_zero());
    }
    const SHORT: bool = true;
    const PREFETCH_SHORT: bool = true;
    #[inline(always)]
    fn short_state<const L: usize>(&self, xs: &[E; L]) -> Self::State {
        Sum::of(short_sum(xs, E::to_acc).0)
    }
    #[inline(always)]
    fn short_window_state<const L: usize>(&self, window: &[E; L], len: usize) -> Self::State {
        match E::window_acc_sum(window, len) {
            Some((sum, _)) => Sum::of(sum),
            None => self.short_state(&padded_with_nan(window, len)),
        }
    }
    #[inline(always)]
    fn push_rows(&self, states: &mut [Self::State], rows: &[&[E]]) {
        let (acc, _) = column_sums(states.len(), rows, E::to_acc);
        let acc = &acc[..states.len()];
        for j in 0..acc.len() {
            states[j].push(acc[j]);
        }
    }
    fn finish(&self, st: &Self::State) -> E::Sum {
        E::sum_from_acc(st.value())
    }
}

/// Sum and count of the non-NaN values of a short lane (`L` at most 16),
/// added as a tree ([`fold_tree`]): at most four roundings deep, where
/// NumPy's pairwise sum of 10 values is five deep.
#[inline(always)]
pub(crate) fn short_sum<E: Element, A: Accumulator, const L: usize>(
    xs: &[E; L],
    conv: impl Fn(E) -> A,
) -> (A, u64) {
    let mut acc = [A::zero(); L];
    let mut valid = [0u64; L];
    for i in 0..L {
        let x = xs[i];
        let nan = x.is_nan_value();
        acc[i] = if nan { A::zero() } else { conv(x) };
        valid[i] = !nan as u64;
    }
    (fold_tree(acc, A::add), fold_tree(valid, |a, b| a + b))
}

/// Column sums and NaN counts of a block of rows, each `n` long.
#[inline(always)]
pub(crate) fn column_sums<E: Element, A: Accumulator>(
    n: usize,
    rows: &[&[E]],
    conv: impl Fn(E) -> A,
) -> (Vec<A>, Vec<u32>) {
    let mut acc = vec![A::zero(); n];
    let mut nans = vec![0u32; n];
    let valid = |x: E| if x.is_nan_value() { A::zero() } else { conv(x) };
    // Four rows per pass over the accumulators where they do not fit L1
    // (96 KB for a column tile of `f64`): each column still adds the rows
    // one after another (the same bits as a pass per row), `acc` and `nans`
    // loaded and stored once per four rows.
    let state = n * (std::mem::size_of::<A>() + std::mem::size_of::<u32>());
    let (in_fours, one_by_one) = rows.split_at(rows_in_fours(rows.len(), state));
    for q in in_fours.chunks_exact(4) {
        let (acc, nans) = (&mut acc[..n], &mut nans[..n]);
        let (r0, r1, r2, r3) = (&q[0][..n], &q[1][..n], &q[2][..n], &q[3][..n]);
        // Index loops, not iterator adaptors: they inline into the
        // instruction-set versions of `simd::dispatch` (an adaptor's `fold`
        // may stay an out-of-line baseline function).
        for j in 0..n {
            let (x0, x1, x2, x3) = (r0[j], r1[j], r2[j], r3[j]);
            let s = acc[j].add(valid(x0)).add(valid(x1)).add(valid(x2));
            acc[j] = s.add(valid(x3));
            nans[j] += x0.is_nan_value() as u32
                + x1.is_nan_value() as u32
                + x2.is_nan_value() as u32
                + x3.is_nan_value() as u32;
        }
    }
    for row in one_by_one {
        let (acc, nans, row) = (&mut acc[..n], &mut nans[..n], &row[..n]);
        for j in 0..n {
            let x = row[j];
            acc[j] = acc[j].add(valid(x));
            nans[j] += x.is_nan_value() as u32;
        }
    }
    (acc, nans)
}

/// [`ss`](crate::ss): bottleneck's sum of squares, NaN propagated (a slice
/// holding a NaN gives NaN). The squares are summed as `nansum` sums values
/// (in [`Element::Acc`], compensated where it is as wide as the input;
/// integers wrap on overflow).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SumOfSquares;

statistics!(SumOfSquares);

/// `x²` in the accumulator type (exact for `f32` and `f16` in their wider
/// accumulators; wrapping for integers).
#[inline(always)]
pub(crate) fn square<E: Element>(x: E) -> E::Acc {
    let a = x.to_acc();
    a.mul(a)
}

impl<E: Element> Reducer<E> for SumOfSquares {
    type Value = E::Acc;
    type State = Sum<E::Acc>;
    type Output = E::Sum;
    type Kernel = Self;
    #[inline(always)]
    fn kernel(&self) -> &Self {
        self
    }
    #[inline(always)]
    fn push_slice(&self, st: &mut Self::State, xs: &[E]) {
        // The sum kernels skip NaN (for the `nan*` functions): a slice that
        // held one gets a NaN pushed after, which makes the sum NaN.
        if sum_into(st, xs, square::<E>) < xs.len() as u64 {
            st.push(E::nan().to_acc());
        }
    }
    #[inline(always)]
    fn push_value(&self, st: &mut Self::State, x: E) {
        st.push(square(x));
    }
    #[inline(always)]
    fn push_rows(&self, states: &mut [Self::State], rows: &[&[E]]) {
        let (acc, nans) = column_sums(states.len(), rows, square::<E>);
        for j in 0..states.len() {
            states[j].push(acc[j]);
            if nans[j] > 0 {
                states[j].push(E::nan().to_acc());
            }
        }
    }
    fn finish(&self, st: &Self::State) -> E::Sum {
        E::sum_from_acc(st.value())
    }
}
