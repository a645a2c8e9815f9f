//! The family's one trait, [`Reducer`], and the lane helpers its kernels share.
//!
//! A [`Reducer`] ties a [`State`] to the loops that fill it. The planner
//! hands it either a contiguous run of one output's values (`push_slice`) or
//! contiguous rows holding one value for each of many outputs (`push_rows`);
//! threads and chunks combine its states with [`State::merge`].
//!
//! Loops over slices keep `LANES` independent accumulators so that LLVM
//! vectorises them without reassociating floating-point additions itself,
//! and NaN is masked by a select (`if nan { identity } else { x }`).

use crate::element::Element;
use crate::states::State;
use ndarray::{ArrayD, ArrayViewD};

/// Independent accumulators per loop.
pub(crate) const LANES: usize = 8;
/// Values summed in lanes before the block total enters the compensated state.
pub(crate) const BLOCK: usize = 256;
/// Rows folded per [`Reducer::push_rows`] call.
pub(crate) const ROW_BLOCK: usize = 64;
/// Columns per tile of the rows strategy (keeps column accumulators in
/// cache). Each row of a tile is one contiguous read: 8192 columns (32 KB
/// of `f32`) stream where 2048 left each row's read too short for the
/// hardware prefetcher (`nanmax` along axis 0 of a (1460, 181, 360) `f32`
/// cube, `examples/layout_timing.rs`: closer to the one-thread floor,
/// medians of 9 interleaved runs each; `nanmean` alike).
pub(crate) const COL_TILE: usize = 8192;

/// How many of `rows` the column loops of `push_rows` take four at a time
/// (the rest one at a time, or two: [`row_pairs`]), for a column state of
/// `state_bytes`: four rows per pass load and store the state once per
/// four rows, which pays where the state and the rows streaming past it do
/// not fit L1 together (a whole 8192-column tile: 32–96 KB, a 32 KB L1);
/// where they fit, one row per pass measured faster (`nanmin` along axis 0
/// of a (10000, 1000) `f32` array, before the pairs).
#[inline(always)]
pub(crate) fn rows_in_fours(rows: usize, state_bytes: usize) -> usize {
    const HALF_L1_BYTES: usize = 16 * 1024;
    if state_bytes > HALF_L1_BYTES {
        rows / 4 * 4
    } else {
        0
    }
}

/// `rows` two at a time, an odd last row paired with itself, with the count
/// of distinct rows in the pair (2, or 1 for that last row): the column
/// loops of extrema and arg-extrema fold each pair into the column state in
/// one pass. Their one-row pass stored `if x beats best[j] { x } else
/// { best[j] }` back to `best[j]`, which LLVM 22 turns into a masked store
/// (`vmaskmovps`), microcoded on AMD Zen: `perf annotate` put 80% of
/// `nanmin`'s samples on those stores along axis 0 of the demo's
/// (365, 36, 72) `float32` cube. A pair's stored value is a choice between
/// the second row and the first choice, not the slot's own load, and
/// offering a row twice keeps the state as once (a value never beats
/// itself), so the pairs give the same bits as one row per pass.
#[inline(always)]
pub(crate) fn row_pairs<'a, E>(
    rows: &'a [&'a [E]],
) -> impl Iterator<Item = (&'a [E], &'a [E], usize)> {
    rows.chunks(2).map(|p| (p[0], p[p.len() - 1], p.len()))
}

/// Folds the lanes into one value by halving: lane `i` takes lane `i + w` for
/// `w = LANES/2, …, 1`, the way a SIMD register folds. (A tree in another
/// order makes LLVM shuffle lanes inside the hot loop to match it.)
#[inline(always)]
pub(crate) fn fold_lanes<T: Copy>(mut acc: [T; LANES], add: impl Fn(T, T) -> T) -> T {
    let mut w = LANES / 2;
    while w > 0 {
        for i in 0..w {
            acc[i] = add(acc[i], acc[i + w]);
        }
        w /= 2;
    }
    acc[0]
}

/// Folds the `L` values of `a` by halving: value `i` takes value `i + w`,
/// `w` the largest power of two below the count left, until one is left.
/// `L` is a constant, so the loops unroll into a tree of depth
/// `⌈log2 L⌉` (a sum's rounding error grows with the depth, not with `L`).
#[inline(always)]
pub(crate) fn fold_tree<T: Copy, const L: usize>(mut a: [T; L], add: impl Fn(T, T) -> T) -> T {
    let mut n = L;
    while n > 1 {
        let w = n.next_power_of_two() / 2;
        for i in 0..n - w {
            a[i] = add(a[i], a[i + w]);
        }
        n = w;
    }
    a[0]
}

/// `window` with the values from `len` on replaced by NaN (which the
/// short-lane kernels skip).
#[inline(always)]
pub(crate) fn padded_with_nan<E: Element, const L: usize>(window: &[E; L], len: usize) -> [E; L] {
    let mut padded = *window;
    for (k, x) in padded.iter_mut().enumerate() {
        if k >= len {
            *x = E::nan();
        }
    }
    padded
}

/// Position of the first non-NaN value.
///
/// Hot loops in this module are index loops, not iterator adaptors: an
/// adaptor's `fold` may stay an out-of-line function compiled for the
/// baseline instruction set instead of inlining into the versions
/// `simd::dispatch` compiles.
#[inline(always)]
pub(crate) fn first_valid<E: Element>(xs: &[E]) -> Option<usize> {
    let mut i = 0;
    while i < xs.len() {
        if !xs[i].is_nan_value() {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// One reduction: its partial state, the kernels that fill it, and how a
/// state becomes the function's result.
///
/// A new one-pass reduction is a public type (the statistic users name, as
/// `nanops::stats::NanVar`) implementing this trait, usually only
/// `push_slice`, `push_rows` and `finish`, over a [`State`]; the driver
/// (`reduce::driver::reduce`) runs it over any layout, threads and chunks,
/// and every `Reducer` is a `Statistic` that `nanops::report` computes.
///
/// Public only in name: the module is private, so no user can name or
/// implement it (it is the family's internal contract).
pub trait Reducer<E: Element>: Sync {
    /// The values the state takes (`E::Acc` for sums, `E` for extrema).
    type Value;
    /// The partial state of one output element; `Default` is the empty state.
    type State: State<Self::Value>;
    /// The result type of one output element.
    type Output: Copy + Default + Send + Sync + 'static;
    /// The reducer whose walks fill this one's states: itself, or the
    /// reducer whose partial states these are (`Partial`), so that the walks
    /// over every layout are compiled once for a statistic's results and its
    /// partial states.
    type Kernel: Reducer<E, State = Self::State>;
    /// See [`Reducer::Kernel`].
    fn kernel(&self) -> &Self::Kernel;
    /// Folds a contiguous run of one output's values.
    fn push_slice(&self, st: &mut Self::State, xs: &[E]);
    /// Folds one value (NaN skipped): what `push_slice` of a one-value run
    /// gives, without the lane set-up (the group family pushes runs of one
    /// value where labels are not sorted).
    #[inline(always)]
    fn push_value(&self, st: &mut Self::State, x: E) {
        self.push_slice(st, std::slice::from_ref(&x));
    }
    /// Whether [`Reducer::short_state`] is a kernel of its own. When false,
    /// short lanes are transposed and folded across outputs by `push_rows`.
    const SHORT: bool = false;
    /// Whether lanes of more than 16 values, to 32, go through
    /// [`short_state`](Reducer::short_state) for 32 values, padded with NaN
    /// (`true`), or are transposed and folded across outputs by
    /// [`push_rows`](Reducer::push_rows) (`false`: the variances, whose two
    /// passes over 32 padded values took longer than the transposition, and
    /// skewness and kurtosis, of more passes).
    const PAD_SHORT: bool = true;
    /// Whether short lanes read in order also prefetch the memory ahead of
    /// them. Set by sum, mean and argmin/argmax, whose lane kernels the extra
    /// block loop leaves as fast as before on a cached input and makes
    /// faster from main memory (`COLD=1 kernel_timing`, `(100000, 10)`
    /// `f64`); var and min/max were slower with it on a cached input.
    const PREFETCH_SHORT: bool = false;
    /// At most how many rows one [`push_rows`](Reducer::push_rows) call is
    /// given by the rows walk. [`ROW_BLOCK`] bounds the rows a sum keeps in
    /// plain column accumulators; a statistic exact in any order (min, max)
    /// takes more, so that its states, read and written once per call, are
    /// touched less often.
    const ROWS_PER_PUSH: usize = ROW_BLOCK;
    /// The state of one short lane whose length `L` (at most 16) is a
    /// constant, so its loops unroll into straight-line code that LLVM
    /// vectorises within the lane (`(100000, 10)` along axis 1: one call per
    /// output, the state kept in registers up to its result).
    #[inline(always)]
    fn short_state<const L: usize>(&self, xs: &[E; L]) -> Self::State {
        let mut st = Self::State::default();
        self.push_slice(&mut st, xs);
        st
    }
    /// [`short_state`](Reducer::short_state) of the first `len` values of
    /// `window` (`len` below `L`), as if the others were NaN: a group-by's
    /// run of one label read at a fixed width. Only for reducers with a
    /// short-lane kernel ([`SHORT`](Reducer::SHORT)) of a type that has NaN.
    /// Sum and mean take it from the element's vector kernel where there is
    /// one (`Element::window_acc_sum`), with the same bits.
    #[inline(always)]
    fn short_window_state<const L: usize>(&self, window: &[E; L], len: usize) -> Self::State {
        self.short_state(&padded_with_nan(window, len))
    }
    /// Folds a block of rows: `rows[i][j]` goes into `states[j]`; every row has
    /// `states.len()` values. Blocks are short (at most
    /// [`ROWS_PER_PUSH`](Reducer::ROWS_PER_PUSH) rows, by default
    /// [`ROW_BLOCK`]), so implementations accumulate them in plain column
    /// accumulators and touch the (compensated) states once per block.
    fn push_rows(&self, states: &mut [Self::State], rows: &[&[E]]);
    /// The result of a state.
    fn finish(&self, st: &Self::State) -> Self::Output;
    /// Whether the state's slice had no usable value (NumPy warns for these).
    fn degenerate(&self, _st: &Self::State) -> bool {
        false
    }
    /// For a reduction without identity (min, max), the operation's name as
    /// NumPy's error message gives it: reducing zero values is then an error.
    const NO_IDENTITY: Option<&'static str> = None;
    /// Whether partial states merged in order give the same bits however
    /// the reduction is cut (extrema, counts: no rounding, and a tie keeps
    /// the earlier value). The row splits of these follow the thread count
    /// rather than the shape alone: each cut costs a merge of every
    /// output's states, a branchy scalar loop.
    const CUT_FREE: bool = false;
    /// Sets the results of degenerate slices from `first`, each slice's
    /// first element in logical (C) order, where NumPy returns that element
    /// (`nanmin` of an all-NaN complex slice is its first NaN as it is:
    /// `nan+1j`, not `nan+nanj`); called only when some slice was degenerate.
    fn degenerate_from_first(&self, _out: &mut ArrayD<Self::Output>, _first: ArrayViewD<'_, E>) {}
}
