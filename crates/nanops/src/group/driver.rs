//! The group driver: labels checked, grouped axes moved last, states per
//! (output, label) filled by threads at shape-fixed boundaries and merged in
//! a fixed order.

use super::statistic::{GroupStatistic, SHORT_RUN};
use crate::element::Element;
use crate::error::{ensure_memory, Error, Result};
use crate::options::Axes;
use crate::par::{map_chunks_mut, map_tasks, threads, uninit_output, HandOff, MIN_TASK};
use crate::simd::dispatch::dispatch;
use crate::simd::prefetch::prefetch;
use ndarray::{ArrayD, ArrayViewD, IxDyn};
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicI64, Ordering};

/// Most chunks one output's values are split into (each holds a state per label).
const MAX_CHUNKS: usize = 8;

/// Fewest outputs for which values whose grouped axes lead are read in
/// place, a run of rows of one label at a time ([`leading_reduce`]): each
/// run costs a walk's set-up, which many outputs per row repay.
const LEADING_MIN_OUTPUTS: usize = 4096;

/// How many chunks each output's values are split into, a state per label
/// each: several only for few outputs of many values. The count depends on
/// the shape only, so the bits are the same for any number of threads; it
/// is a power of two (three chunks on two threads leave one idle a third of
/// the time).
///
/// Each label costs each chunk more than its values: its state's memory
/// (the first touch of a table's pages), the entry of its first value and
/// a merge, together the time of some dozens of values. So a chunk takes at
/// least [`VALUES_PER_LABEL`] values per label, but values for two tasks
/// make two chunks whatever the labels (a second thread is worth more):
/// eight chunks of 10M values over 100,000 labels held about 12 values per
/// label each, and their tables took more time than the values.
///
/// A settling statistic (`first`, `any`, `all`: [`GroupStatistic::SETTLES`])
/// takes chunks long enough that most of each is read after every label
/// has settled (labels only, no states): a chunk of random labels settles
/// after about `L·ln L` values (the coupon collector's count), each a write
/// to a random state, so each chunk is at least four times that. Still
/// two chunks where there are values for two tasks: each thread then
/// settles the labels once and reads at most half the rest (1M values
/// over 100,000 labels, which never settle, were one chunk on one thread).
fn chunk_count(n_out: usize, n_in: usize, num_labels: usize, settles: bool) -> usize {
    if n_out >= 4 {
        return 1;
    }
    let mut least = MIN_TASK.max(VALUES_PER_LABEL * num_labels);
    let fewest = if n_in >= 2 * MIN_TASK { 2 } else { 1 };
    if settles {
        least = least.max(settling_chunk(num_labels));
    }
    let chunks = (n_in / least).clamp(fewest, MAX_CHUNKS);
    // the largest power of two not above
    1 << chunks.ilog2()
}

/// The values a chunk of a settling statistic takes so that it is mostly
/// read after its labels settle: four times the `L·ln L` values after
/// which random labels have all come (see [`chunk_count`]).
fn settling_chunk(num_labels: usize) -> usize {
    if num_labels <= 1 {
        return 0;
    }
    let to_settle = num_labels as f64 * (num_labels as f64).ln();
    (4.0 * to_settle) as usize
}

/// The fewest values per label a chunk takes (see [`chunk_count`]).
const VALUES_PER_LABEL: usize = 32;

/// The number of labels: `given`, checked against the largest label, or
/// the largest label plus one (0 when every label is negative).
fn label_count(labels: &[i64], given: Option<usize>) -> Result<usize> {
    let max = largest_label(labels);
    match given {
        Some(n) if max >= 0 && max as u64 >= n as u64 => Err(Error::LabelOutOfRange {
            label: max,
            num_labels: n,
        }),
        Some(n) => Ok(n),
        None if max < 0 => Ok(0),
        None => usize::try_from(max)
            .ok()
            .and_then(|m| m.checked_add(1))
            .ok_or(Error::OutOfMemory { bytes: usize::MAX }),
    }
}

/// The largest of `labels`, `-1` if none is larger: in chunks across the
/// threads (any cut gives the same answer), each in a loop that vectorises
/// compiled for the best instruction set. (Integer kernels otherwise run as
/// compiled, SSE2: this pass took a quarter of a call of `group_nansum`.)
fn largest_label(labels: &[i64]) -> i64 {
    let per_task = MIN_TASK.max(labels.len().div_ceil(threads()));
    let tasks = labels.len().div_ceil(per_task);
    map_tasks(tasks, |t| {
        largest_in(&labels[t * per_task..((t + 1) * per_task).min(labels.len())])
    })
    .into_iter()
    .fold(-1, i64::max)
}

/// The largest of `labels`, or `-1`; see [`largest_label`].
#[inline(never)]
fn largest_in(labels: &[i64]) -> i64 {
    dispatch(
        #[inline(always)]
        || labels.iter().fold(-1, |m, &x| m.max(x)),
    )
}

/// Labels judged together by [`runs_are_long`]: a block's way of folding
/// is chosen once, for many values.
const RUN_BLOCK: usize = 8192;

/// Whether the labels of a block come in runs long enough to walk (as
/// sorted labels do): three in four of 32 pairs of neighbours, spread over
/// the block, equal, as in runs of four values and more on average. Only
/// the speed depends on the answer: either way every value enters its
/// label's state. (Seven in eight sent a fifth of the blocks of sorted
/// labels over 100,000 groups, runs of ten, a value at a time, each into
/// the state the value before had just written.)
fn runs_are_long(labels: &[i64]) -> bool {
    let step = (labels.len() / 32).max(1);
    let (mut equal, mut pairs) = (0, 0);
    let mut k = 1;
    while k < labels.len() {
        equal += usize::from(labels[k] == labels[k - 1]);
        pairs += 1;
        k += step;
    }
    4 * equal >= 3 * pairs
}

/// The end of the run of `g` that goes on at `labels[from]`: the first
/// position from `from` on whose label is not `g`, or `labels.len()`.
///
/// [`SHORT_RUN`] labels are compared at a time, with the comparisons
/// gathered into a mask (vector comparisons where the caller is compiled
/// for the machine's instruction set): a run of a thousand labels took a
/// thousand compare-and-branch steps one label at a time. A run shorter
/// than that ends in the first block, so the loop's exit is the same branch
/// for every short run (by blocks of eight, runs of about ten, as sorted
/// labels over many groups make, left after one block or two, at random).
#[inline(always)]
fn run_end(labels: &[i64], from: usize, g: i64) -> usize {
    let mut j = from;
    while let Some(block) = labels.get(j..j + SHORT_RUN) {
        let mut differs = 0u32;
        for (k, &l) in block.iter().enumerate() {
            differs |= u32::from(l != g) << k;
        }
        if differs != 0 {
            return j + differs.trailing_zeros() as usize;
        }
        j += SHORT_RUN;
    }
    while j < labels.len() && labels[j] == g {
        j += 1;
    }
    j
}

/// Tables of states from this size on (bytes) are read ahead in blocks of
/// random labels ([`fold`]): past what the core's nearest caches hold, each
/// value's state is a miss that the loop waited for, one at a time; asked
/// for [`STATES_AHEAD`] values early, the misses overlap. Smaller tables
/// are in those caches, and the hints cost instructions for nothing.
const PREFETCH_TABLE_BYTES: usize = 256 * 1024;

/// How many values ahead [`fold`] asks for the state of a random label:
/// far enough for a miss to arrive, near enough that the line is still held
/// when its value comes (a stand-alone loop of compensated sums over
/// 100,000 random labels was fastest from 8 to 16).
const STATES_AHEAD: usize = 12;

/// Folds the values `xs` of one output, `labels` theirs, into `states`,
/// which are empty; `start` is the position of `xs[0]` among the output's
/// values; negative labels are skipped. Returns the largest label without
/// a state (at least `states.len()`), or −1 if there is none: the driver
/// folds labels it has not checked against a given `num_labels` (a pass
/// over the labels before the fold read them twice, which cost a fast
/// statistic as much as the fold), and reports them after it.
///
/// Blocks of [`RUN_BLOCK`] labels in runs ([`runs_are_long`]) are walked
/// run by run: runs of at least [`SHORT_RUN`] values enter as one slice
/// (the reduce kernels vectorise it), shorter ones by
/// [`GroupStatistic::push_short_run`].
/// Other blocks (random labels) enter a value at a time, with no test on
/// the labels: finding each run's end cost a branch per value taken at
/// random (two neighbours share a label one time in `num_labels`), which
/// took more time than the statistic ([`Scattered`]). A statistic that
/// [`PRIMES`](GroupStatistic::PRIMES) has its states primed first where
/// the labels are few and the first block's are random ([`prime_states`]).
///
/// Not inlined: called once per output (or chunk of one), from the two
/// ways [`group_reduce`] splits its work, which would each hold a copy of
/// the kernels for every instruction set.
#[inline(never)]
fn fold<E: Element, T: GroupStatistic<E>>(
    stat: &T,
    states: &mut [T::State],
    xs: &[E],
    labels: &[i64],
    start: usize,
) -> i64 {
    E::dispatch(
        #[inline(always)]
        || {
            let n = xs.len().min(labels.len());
            let (xs, labels) = (&xs[..n], &labels[..n]);
            let first_block = &labels[..n.min(RUN_BLOCK)];
            if T::SETTLES && n < settling_chunk(states.len()) && !runs_are_long(first_block) {
                return settle_backwards(stat, states, xs, labels, start);
            }
            let mut scattered = Scattered::new(states);
            scattered.primed = T::PRIMES
                && !scattered.prefetch
                && settling_chunk(states.len()) <= n
                && !runs_are_long(first_block);
            if scattered.primed {
                prime_states(stat, states, xs, labels);
            }
            let mut missing = -1;
            let mut i = 0;
            while i < n {
                let end = ((i / RUN_BLOCK + 1) * RUN_BLOCK).min(n);
                if !runs_are_long(&labels[i..end]) {
                    let m = scattered.push(stat, states, &xs[i..end], &labels[i..], start + i);
                    missing = missing.max(m);
                    i = end;
                    continue;
                }
                // runs starting in this block, each walked to its end
                while i < end {
                    let g = labels[i];
                    let j = run_end(labels, i + 1, g);
                    if let Some(st) = states.get_mut(g as usize) {
                        if j - i < SHORT_RUN {
                            let window = &xs[i..n.min(i + SHORT_RUN)];
                            stat.push_short_run(st, window, j - i, start + i);
                        } else {
                            stat.push_run(st, &xs[i..j], start + i);
                        }
                        scattered.ran(stat, g as usize, st);
                    } else {
                        // a negative label keeps −1
                        missing = missing.max(g);
                    }
                    i = j;
                }
            }
            missing
        },
    )
}

/// [`fold`] of a settling statistic's chunk of random labels too short for
/// them to settle (fewer than [`settling_chunk`] values; labels in runs
/// keep the walk by runs, whose tests are predicted): the values from last to
/// first, each offered to its label's state as if it were unsettled
/// ([`GroupStatistic::push_unsettled`]), so the last offer that decides,
/// which is the first deciding value, is the one a state keeps (`first`;
/// for `any`/`all` any deciding value decides alike). Each value is a
/// write, with no test of a settled bit (taken at random when labels do
/// not settle) and no read of the state; the states are read ahead where
/// the table is large ([`PREFETCH_TABLE_BYTES`]).
#[inline(always)]
fn settle_backwards<E: Element, T: GroupStatistic<E>>(
    stat: &T,
    states: &mut [T::State],
    xs: &[E],
    labels: &[i64],
    start: usize,
) -> i64 {
    let prefetch_states = std::mem::size_of_val(states) >= PREFETCH_TABLE_BYTES;
    let mut missing = -1;
    for k in (0..xs.len()).rev() {
        if prefetch_states {
            let ahead = k.checked_sub(STATES_AHEAD).map_or(0, |a| labels[a]);
            prefetch(states.as_ptr().wrapping_add(ahead as usize));
        }
        let g = labels[k];
        match states.get_mut(g as usize) {
            Some(st) => {
                stat.push_unsettled(st, xs[k], start + k);
            }
            None => missing = missing.max(g),
        }
    }
    missing
}

/// Readies each of `states` (all empty) with the first value of its label
/// among `xs` that primes it ([`GroupStatistic::prime`]), reading until
/// every state is primed or the values end. Labels without a state are
/// passed over (the fold that follows finds them).
///
/// For few labels, in a chunk at least four times the values after which
/// random labels have all come ([`settling_chunk`]): the read then stops
/// within a quarter of the chunk.
#[inline(always)]
fn prime_states<E: Element, T: GroupStatistic<E>>(
    stat: &T,
    states: &mut [T::State],
    xs: &[E],
    labels: &[i64],
) {
    let mut primed = vec![false; states.len()];
    let mut unprimed = states.len();
    for (&x, &g) in xs.iter().zip(labels) {
        if unprimed == 0 {
            break;
        }
        let Some(done) = primed.get_mut(g as usize) else {
            continue;
        };
        if !*done && stat.prime(&mut states[g as usize], x) {
            *done = true;
            unprimed -= 1;
        }
    }
}

/// How [`fold`] enters blocks of random labels: a value at a time, the
/// states read ahead where the table is large ([`PREFETCH_TABLE_BYTES`]),
/// and for statistics whose states settle ([`GroupStatistic::SETTLES`]) a
/// bit per label that skips settled ones (the bits stay in the nearest
/// cache where a table of states does not: `group_nanfirst` over 100,000
/// random labels read a state per value).
struct Scattered {
    /// Whether states are prefetched [`STATES_AHEAD`] values early.
    prefetch: bool,
    /// Whether the states were primed ([`prime_states`]): values then
    /// enter by [`GroupStatistic::push_primed`].
    primed: bool,
    /// Bit `g` set: label `g`'s state is settled (clear: the state is
    /// empty, see [`GroupStatistic::push_unsettled`]); made from the states
    /// at the first block of random labels, and kept by [`Scattered::ran`]
    /// for states that runs settle after.
    settled: Option<Vec<u64>>,
    /// How many bits of `settled` are clear: at none, a block's values
    /// change no state, and only its labels are read (for the range).
    unsettled: usize,
}

/// [`GroupStatistic::push_unsettled`], out of line: the loop's one branch
/// per value stays the test of the label's bit. (Inlined, the NaN test of
/// the value was moved before it: a branch taken at random where NaN is
/// scattered, for every value.) The state is written without being read:
/// no wait for its line, the first time a chunk meets a label.
#[cold]
#[inline(never)]
fn push_unsettled<E: Element, T: GroupStatistic<E>>(
    stat: &T,
    st: &mut T::State,
    x: E,
    index: usize,
) -> bool {
    stat.push_unsettled(st, x, index)
}

impl Scattered {
    fn new<S>(states: &[S]) -> Self {
        Scattered {
            prefetch: std::mem::size_of_val(states) >= PREFETCH_TABLE_BYTES,
            primed: false,
            settled: None,
            unsettled: 0,
        }
    }

    /// Notes that a run was pushed into `st`, label `g`'s state.
    #[inline(always)]
    fn ran<E: Element, T: GroupStatistic<E>>(&mut self, stat: &T, g: usize, st: &T::State) {
        if let Some(bits) = self.settled.as_mut().filter(|_| T::SETTLES) {
            let bit = 1 << (g % 64);
            if bits[g / 64] & bit == 0 && stat.settled(st) {
                bits[g / 64] |= bit;
                self.unsettled -= 1;
            }
        }
    }

    /// Pushes `xs` (the first `xs.len()` of `labels`, which run on to the
    /// end of the fold's labels, for the reads ahead) into `states`; `start`
    /// is the position of `xs[0]`. Returns the largest label without a
    /// state, or −1.
    #[inline(always)]
    fn push<E: Element, T: GroupStatistic<E>>(
        &mut self,
        stat: &T,
        states: &mut [T::State],
        xs: &[E],
        labels: &[i64],
        start: usize,
    ) -> i64 {
        let mut missing = -1;
        let block = xs.iter().zip(labels);
        if T::SETTLES {
            if self.settled.is_none() {
                let mut bits = vec![0u64; states.len().div_ceil(64)];
                self.unsettled = states.len();
                for (g, st) in states.iter().enumerate() {
                    if stat.settled(st) {
                        bits[g / 64] |= 1 << (g % 64);
                        self.unsettled -= 1;
                    }
                }
                self.settled = Some(bits);
            }
            let bits = self.settled.as_mut().expect("made above");
            for (k, (&x, &g)) in block.enumerate() {
                if self.unsettled == 0 {
                    // every state settled: the rest of the block's labels
                    // are read for their range only (a loop that vectorises)
                    let top = labels[k..xs.len()].iter().fold(-1, |m, &h| m.max(h));
                    if top >= 0 && top as u64 >= states.len() as u64 {
                        missing = missing.max(top);
                    }
                    break;
                }
                let Some(st) = states.get_mut(g as usize) else {
                    missing = missing.max(g);
                    continue;
                };
                let (word, bit) = (g as usize / 64, 1u64 << (g as usize % 64));
                if bits[word] & bit == 0 && push_unsettled(stat, st, x, start + k) {
                    bits[word] |= bit;
                    self.unsettled -= 1;
                }
            }
        } else if self.prefetch {
            for (k, (&x, &g)) in block.enumerate() {
                // a label past the end asks for the state of 0: a hint only
                // (a prefetch never faults, and a negative label's address
                // is as harmless)
                let ahead = labels.get(k + STATES_AHEAD).copied().unwrap_or(0);
                prefetch(states.as_ptr().wrapping_add(ahead as usize));
                match states.get_mut(g as usize) {
                    Some(st) => stat.push_one(st, x, start + k),
                    None => missing = missing.max(g),
                }
            }
        } else if T::PRIMES && self.primed {
            for (k, (&x, &g)) in block.enumerate() {
                match states.get_mut(g as usize) {
                    Some(st) => stat.push_primed(st, x, start + k),
                    None => missing = missing.max(g),
                }
            }
        } else {
            for (k, (&x, &g)) in block.enumerate() {
                match states.get_mut(g as usize) {
                    Some(st) => stat.push_one(st, x, start + k),
                    None => missing = missing.max(g),
                }
            }
        }
        missing
    }
}

/// [`Error::LabelOutOfRange`] for `missing`, the largest label [`fold`]
/// found without a state, unless it is −1 (none).
fn out_of_range(missing: i64, num_labels: usize) -> Result<()> {
    if missing < 0 {
        return Ok(());
    }
    Err(Error::LabelOutOfRange {
        label: missing,
        num_labels,
    })
}

/// Writes the results of `states` to `out` (one slot per state); an empty
/// group whose result the output type cannot hold is [`Error::EmptyGroup`].
fn finish_into<E: Element, T: GroupStatistic<E>>(
    stat: &T,
    op: &'static str,
    states: &[T::State],
    out: &mut [MaybeUninit<T::Output>],
) -> Result<()> {
    for (group, (st, slot)) in states.iter().zip(out).enumerate() {
        slot.write(stat.finish(st).ok_or(Error::EmptyGroup { op, group })?);
    }
    Ok(())
}

/// Bytes kept between two chunks' sets of states in [`chunk_tables`]: no
/// cache line (nor pair of lines, which cores fetch together) holds states
/// of two chunks, which two threads would write at once (few labels: the
/// sets of all chunks fit in a few lines).
const TABLE_GAP: usize = 128;

/// Where the sets of states of [`chunk_tables`] start: every `stride`
/// states.
fn table_stride<S>(num_labels: usize) -> usize {
    num_labels + TABLE_GAP.div_ceil(std::mem::size_of::<S>().max(1))
}

/// The states of `chunks` chunks, `num_labels` each (every
/// [`table_stride`]), filled by `fill(chunk, states)` as tasks: one buffer
/// for all (its pages come in few faults, huge ones where the system grants
/// them, rather than one fault per 4 KiB of every chunk's set), each
/// chunk's states set to empty by its own task.
fn chunk_tables<S: Default + Send + Sync>(
    chunks: usize,
    num_labels: usize,
    fill: impl Fn(usize, &mut [S]) + Sync,
) -> Box<[S]> {
    let stride = table_stride::<S>(num_labels);
    let mut tables = uninit_output::<S>(chunks * stride);
    map_chunks_mut(HandOff::CallerWorks, &mut tables, stride, |c, slots| {
        for slot in slots.iter_mut() {
            slot.write(S::default());
        }
        // SAFETY: every slot of this chunk was written just above, and
        // `MaybeUninit<S>` has the layout of `S`.
        let states = unsafe { &mut *(std::ptr::from_mut(slots) as *mut [S]) };
        fill(c, &mut states[..num_labels]);
    });
    // SAFETY: each chunk's task wrote every one of its slots (the tasks
    // cover the buffer, and a panic in one would have unwound past here).
    unsafe { tables.assume_init() }
}

/// Writes the result of each label to `out` from its states in `tables`
/// (the chunks' sets of `out.len()` labels, in order, from
/// [`chunk_tables`]), merged in chunk order. Labels are split among the
/// threads: a label's merges do not depend on the split, so neither do the
/// bits.
fn merge_tables<E: Element, T: GroupStatistic<E>>(
    stat: &T,
    op: &'static str,
    tables: &[T::State],
    out: &mut [MaybeUninit<T::Output>],
) -> Result<()> {
    let num_labels = out.len();
    let stride = table_stride::<T::State>(num_labels);
    let chunks = tables.len().div_ceil(stride).max(1);
    // a label's work is a merge per chunk: tasks of at least `MIN_TASK`
    // merges, at most one per thread, of equal size
    let most = (MIN_TASK / chunks)
        .max(num_labels.div_ceil(threads()))
        .max(1);
    let per_task = num_labels.div_ceil(num_labels.div_ceil(most).max(1)).max(1);
    let done = map_chunks_mut(HandOff::CallerWorks, out, per_task, |t, slots| {
        merge_labels(stat, op, tables, (chunks, stride), t * per_task, slots)
    });
    done.into_iter().collect()
}

/// [`merge_tables`]' task: the results of labels `first..first +
/// slots.len()`, each its states merged across the `chunks` (each `stride`
/// states along `tables`) and finished into its slot.
///
/// Not inlined, and compiled for the machine's instruction set: one call
/// per task, a label's merge and finish in the loop (inside the generic
/// walk of the tasks they ran as baseline code, a call per merge).
#[inline(never)]
fn merge_labels<E: Element, T: GroupStatistic<E>>(
    stat: &T,
    op: &'static str,
    tables: &[T::State],
    (chunks, stride): (usize, usize),
    first: usize,
    slots: &mut [MaybeUninit<T::Output>],
) -> Result<()> {
    E::dispatch(
        #[inline(always)]
        || {
            for (k, slot) in slots.iter_mut().enumerate() {
                let label = first + k;
                let mut st = tables[label].clone();
                for c in 1..chunks {
                    stat.merge(&mut st, &tables[c * stride + label]);
                }
                let result = stat
                    .finish(&st)
                    .ok_or(Error::EmptyGroup { op, group: label })?;
                slot.write(result);
            }
            Ok(())
        },
    )
}

/// The grouping of one call: labels checked, the values with the grouped
/// axes last in C order (a copy only when the view is not already so).
pub(crate) struct Grouping<'a, E> {
    /// The values, `n_out` rows of `n_in` (kept axes first).
    pub values: ndarray::CowArray<'a, E, IxDyn>,
    /// The labels, `n_in` of them in C order.
    pub labels: ndarray::CowArray<'a, i64, IxDyn>,
    /// The axis order that moves the grouped axes last.
    pub order: Vec<usize>,
    /// The number of groups.
    pub num_labels: usize,
    /// The number of outputs (the kept axes' size).
    pub n_out: usize,
    /// The number of values of each output.
    pub n_in: usize,
    /// The result's shape: the kept axes, then the groups.
    pub shape: Vec<usize>,
    /// Whether `values` are in their own order, the grouped axes leading
    /// (C order: `n_in` rows of `n_out`), not moved last.
    pub leading: bool,
}

impl<'a, E: Element> Grouping<'a, E> {
    /// Checks `labels` against `values` along `axes` and `num_labels`;
    /// `per_result(n_out, n_in, num_labels)` is the memory in bytes the
    /// caller will allocate per result (the result, its states, scratch),
    /// probed with the copy of the values before anything is allocated.
    /// With `rows_in_place`, values whose grouped axes lead (C-contiguous,
    /// many outputs) are kept in place rather than copied (`leading`).
    /// With `fold_checks_labels`, labels are not checked against a given
    /// `num_labels` here where the caller's [`fold`] will see each of them
    /// (not when `leading`, nor when there are no outputs): the caller
    /// reports what `fold` returns.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        values: &'a ArrayViewD<'a, E>,
        labels: &'a ArrayViewD<'a, i64>,
        axes: Axes,
        num_labels: Option<usize>,
        per_result: impl FnOnce(usize, usize, usize) -> usize,
        rows_in_place: bool,
        fold_checks_labels: bool,
    ) -> Result<Self> {
        let ndim = values.ndim();
        let axes = axes.normalize(ndim)?;
        let expected: Vec<usize> = axes.iter().map(|&a| values.shape()[a]).collect();
        if labels.shape() != expected.as_slice() {
            return Err(Error::LabelsShape {
                expected,
                found: labels.shape().to_vec(),
            });
        }
        let labels = labels.as_standard_layout();
        let flat = labels
            .as_slice()
            .expect("a standard-layout array is a slice");
        let unchecked = fold_checks_labels && num_labels.is_some();
        let num_labels = match num_labels {
            Some(n) if unchecked => n,
            given => label_count(flat, given)?,
        };
        let kept: Vec<usize> = (0..ndim).filter(|a| !axes.contains(a)).collect();
        let mut shape: Vec<usize> = kept.iter().map(|&a| values.shape()[a]).collect();
        let n_out: usize = shape.iter().product();
        let n_in = flat.len();
        shape.push(num_labels);
        let results = n_out
            .checked_mul(num_labels)
            .ok_or(Error::OutOfMemory { bytes: usize::MAX })?;
        ensure_memory(&[
            (results, per_result(n_out, n_in, num_labels)),
            (values.len(), std::mem::size_of::<E>()),
        ])?;
        let order: Vec<usize> = kept.iter().chain(axes.iter()).copied().collect();
        let leading = rows_in_place
            && n_out >= LEADING_MIN_OUTPUTS
            && axes.iter().enumerate().all(|(i, &a)| i == a)
            && values.is_standard_layout();
        if unchecked && (leading || n_out == 0) {
            label_count(flat, Some(num_labels))?;
        }
        if leading {
            return Ok(Grouping {
                values: ndarray::CowArray::from(values.view()),
                labels,
                order,
                num_labels,
                n_out,
                n_in,
                shape,
                leading,
            });
        }
        let moved = values.view().permuted_axes(IxDyn(&order));
        let values = if moved.is_standard_layout() {
            ndarray::CowArray::from(moved)
        } else {
            ndarray::CowArray::from(moved.as_standard_layout().into_owned())
        };
        Ok(Grouping {
            values,
            labels,
            order,
            num_labels,
            n_out,
            n_in,
            shape,
            leading,
        })
    }

    /// The values of output `r`.
    pub(crate) fn row(&self, r: usize) -> &[E] {
        let flat = self.values.as_slice().expect("standard layout");
        &flat[r * self.n_in..(r + 1) * self.n_in]
    }

    /// The labels, in C order.
    pub(crate) fn labels(&self) -> &[i64] {
        self.labels.as_slice().expect("standard layout")
    }
}

/// `stat` of the values of each label: `labels` has the shape of `values`
/// along `axes` (in increasing axis order), negative labels are skipped;
/// the result has the kept axes, then one axis of `num_labels` (by default
/// the largest label plus one). `op` names the function in errors.
pub(crate) fn group_reduce<E: Element, T: GroupStatistic<E>>(
    values: &ArrayViewD<'_, E>,
    labels: &ArrayViewD<'_, i64>,
    axes: Axes,
    num_labels: Option<usize>,
    stat: &T,
    op: &'static str,
) -> Result<ArrayD<T::Output>> {
    // per label: the result, and a state per chunk of its output (an
    // output's chunks are held at once; with one chunk a task reuses one set
    // of states for its outputs, so at most one set per output). Not
    // `MAX_CHUNKS` states: many labels leave one chunk, and asking for eight
    // made `num_labels = 2**24` probe 9 GiB where 1.3 GiB is used.
    let per_result = |n_out, n_in, num_labels| {
        std::mem::size_of::<T::Output>()
            + chunk_count(n_out, n_in, num_labels, T::SETTLES) * std::mem::size_of::<T::State>()
    };
    let g = Grouping::new(
        values,
        labels,
        axes,
        num_labels,
        per_result,
        T::RUN_STATES,
        true,
    )?;
    if g.leading {
        return leading_reduce(stat, op, &g);
    }
    let (n_out, n_in, num_labels) = (g.n_out, g.n_in, g.num_labels);
    let labels = g.labels();
    // few outputs of many values: chunks of each output's values
    let chunks = chunk_count(n_out, n_in, num_labels, T::SETTLES);
    // the results are written in place, each output's labels by the task
    // that finishes them (no parts collected and copied)
    let mut out = uninit_output::<T::Output>(n_out * num_labels);
    if num_labels == 0 && n_out > 0 {
        // no result to write, but the labels are still checked
        out_of_range(fold(stat, &mut [], g.row(0), labels, 0), 0)?;
    } else if chunks > 1 {
        let len = n_in.div_ceil(chunks);
        let missing = AtomicI64::new(-1);
        for (r, results) in out.chunks_mut(num_labels).enumerate() {
            let xs = g.row(r);
            let tables = chunk_tables(chunks, num_labels, |c, states| {
                let lo = (c * len).min(n_in);
                let hi = ((c + 1) * len).min(n_in);
                let m = fold(stat, states, &xs[lo..hi], &labels[lo..hi], lo);
                missing.fetch_max(m, Ordering::Relaxed);
            });
            out_of_range(missing.load(Ordering::Relaxed), num_labels)?;
            merge_tables(stat, op, &tables, results)?;
        }
    } else {
        // many outputs: blocks of whole outputs per task
        let per_task = (MIN_TASK / n_in.max(1)).max(1);
        let done = map_chunks_mut(
            HandOff::CallerWorks,
            &mut out,
            per_task * num_labels,
            |t, results| -> Result<()> {
                let mut states = vec![T::State::default(); num_labels];
                for (k, row_results) in results.chunks_mut(num_labels).enumerate() {
                    if k > 0 {
                        states.fill(T::State::default());
                    }
                    let row = g.row(t * per_task + k);
                    out_of_range(fold(stat, &mut states, row, labels, 0), num_labels)?;
                    finish_into(stat, op, &states, row_results)?;
                }
                Ok(())
            },
        );
        done.into_iter().collect::<Result<()>>()?;
    }
    // SAFETY: every slot was written: each output's labels by `merge_tables`
    // or `finish_into`, which return an error (returned above) unless they
    // wrote all; with no labels there is no slot.
    let out = unsafe { out.assume_init() }.into_vec();
    Ok(ArrayD::from_shape_vec(IxDyn(&g.shape), out).expect("one result per output and label"))
}

/// [`group_reduce`] of values whose grouped axes lead (`g.leading`): each
/// run of rows of one label in place, its states per output by
/// [`GroupStatistic::run_states`], merged into the label's states in the
/// runs' order; a label's results are finished after its last run, so a
/// label of one run (a resampling) holds no states beyond it. (The copy
/// with the grouped axes last, for an axis-0 group-by of a cube, took more
/// time than the statistic.)
fn leading_reduce<E: Element, T: GroupStatistic<E>>(
    stat: &T,
    op: &'static str,
    g: &Grouping<'_, E>,
) -> Result<ArrayD<T::Output>> {
    let (n_out, n_in, num_labels) = (g.n_out, g.n_in, g.num_labels);
    let rows = g
        .values
        .view()
        .into_shape_with_order(IxDyn(&[n_in, n_out]))
        .expect("C-contiguous values are rows of the outputs");
    let labels = g.labels();
    // the runs of equal labels, and where each label's last run starts
    let mut runs = Vec::new();
    let mut last_run = vec![None; num_labels];
    let mut i = 0;
    while i < n_in {
        let label = labels[i];
        let mut j = i + 1;
        while j < n_in && labels[j] == label {
            j += 1;
        }
        if label >= 0 {
            last_run[label as usize] = Some(i);
            runs.push((i, j, label as usize));
        }
        i = j;
    }
    let mut out = vec![T::Output::default(); n_out * num_labels];
    let finish_label = |out: &mut [T::Output], label: usize, states: &[T::State]| -> Result<()> {
        for (o, st) in states.iter().enumerate() {
            out[o * num_labels + label] = stat
                .finish(st)
                .ok_or(Error::EmptyGroup { op, group: label })?;
        }
        Ok(())
    };
    let mut held: Vec<Option<Vec<T::State>>> = vec![None; num_labels];
    for (i, j, label) in runs {
        let run = rows.slice_axis(ndarray::Axis(0), (i..j).into());
        let mut states = stat.run_states(&run, i);
        if let Some(mut earlier) = held[label].take() {
            for (st, later) in earlier.iter_mut().zip(&states) {
                stat.merge(st, later);
            }
            states = earlier;
        }
        if last_run[label] == Some(i) {
            finish_label(&mut out, label, &states)?;
        } else {
            held[label] = Some(states);
        }
    }
    // labels without a value: the empty state's result, if it has one
    if last_run.iter().any(Option::is_none) {
        let nothing = vec![T::State::default(); n_out];
        for (label, last) in last_run.iter().enumerate() {
            if last.is_none() {
                finish_label(&mut out, label, &nothing)?;
            }
        }
    }
    Ok(ArrayD::from_shape_vec(IxDyn(&g.shape), out).expect("one result per output and label"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::group::statistic::{GroupArg, GroupEnd, GroupMoments, GroupTruth, Streaming};
    use crate::reduce::{NanMean, NanSum};
    use ndarray::{array, Array1};

    /// Values whose grouped axis leads, read in place by runs of rows,
    /// against the same values in a layout the driver copies (grouped axis
    /// last): equal sums and means to rounding, equal extrema and counts.
    /// `run_end` against a scan a label at a time: runs ending inside,
    /// at and past blocks of sixteen, and running to the end.
    #[test]
    fn run_end_finds_where_a_run_stops() {
        let labels: Vec<i64> = [3, 3, 3, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 1, 1]
            .into_iter()
            .chain(std::iter::repeat_n(4, 21))
            .collect();
        for from in 0..labels.len() {
            let g = labels[from];
            let mut expected = from;
            while expected < labels.len() && labels[expected] == g {
                expected += 1;
            }
            assert_eq!(run_end(&labels, from, g), expected, "from {from}");
            assert_eq!(
                run_end(&labels, from, -5),
                from,
                "another label, from {from}"
            );
        }
        assert_eq!(run_end(&labels, labels.len(), 4), labels.len());
    }

    #[test]
    fn leading_rows_in_place_agree_with_the_copy() {
        use crate::options::Ddof;
        use crate::reduce::{NanCount, NanMax, NanVar, VarOrStd};
        let (n_in, n_out) = (37, LEADING_MIN_OUTPUTS + 5);
        let x = ndarray::Array2::from_shape_fn((n_in, n_out), |(i, o)| {
            let h = (i * 7919 + o * 104_729) % 1009;
            if h % 11 == 0 {
                f64::NAN
            } else {
                h as f64 * 0.37 - 150.0
            }
        });
        // the same values, transposed in memory: not leading, so copied
        let f = x.t().as_standard_layout().into_owned();
        let f = f.t();
        assert!(!f.is_standard_layout());
        for labels in [
            (0..n_in).map(|i| (i / 5) as i64).collect::<Vec<_>>(),
            (0..n_in).map(|i| ((i * 5) % 4) as i64 - 1).collect(),
            (0..n_in).map(|i| [2, 2, 0, 5, 5, 5, 0][i % 7]).collect(),
        ] {
            let l = Array1::from(labels).into_dyn();
            let (c, f) = (x.view().into_dyn(), f.into_dyn());
            let run = |v: &ArrayViewD<'_, f64>, s: u8| -> ArrayD<f64> {
                let (l, a) = (&l.view(), Axes::Many(vec![0]));
                match s {
                    0 => group_reduce(v, l, a, None, &Streaming(NanSum), "s"),
                    1 => group_reduce(v, l, a, None, &Streaming(NanMean), "m"),
                    2 => group_reduce(
                        v,
                        l,
                        a,
                        None,
                        &GroupMoments(VarOrStd::from(NanVar(Ddof(1.0)))),
                        "v",
                    ),
                    3 => group_reduce(v, l, a, None, &Streaming(NanMax), "x"),
                    _ => group_reduce(v, l, a, None, &Streaming(NanCount), "c")
                        .map(|r| r.mapv(|k| k as f64)),
                }
                .unwrap()
            };
            for s in 0..5u8 {
                let (got, want) = (run(&c, s), run(&f, s));
                assert_eq!(got.shape(), want.shape());
                for (a, b) in got.iter().zip(want.iter()) {
                    let close = (a - b).abs() <= 1e-12 * b.abs().max(1.0);
                    let exact = a.to_bits() == b.to_bits();
                    assert!(exact || (s < 3 && close), "stat {s}: {a} against {b}");
                }
            }
        }
    }

    fn sum(values: &ArrayViewD<'_, f64>, labels: &ArrayViewD<'_, i64>, axes: Axes) -> ArrayD<f64> {
        group_reduce(
            values,
            labels,
            axes,
            None,
            &Streaming(NanSum),
            "group_nansum",
        )
        .unwrap()
    }

    #[test]
    fn sums_per_label_skipping_negative_labels_and_nan() {
        let v = array![1.0, f64::NAN, 3.0, 4.0, 5.0].into_dyn();
        let l = array![0, 0, 2, -1, 0].into_dyn();
        assert_eq!(
            sum(&v.view(), &l.view(), Axes::All),
            array![6.0, 0.0, 3.0].into_dyn()
        );
    }

    #[test]
    fn groups_land_on_the_last_axis_whatever_the_axes_and_layout() {
        let v = ndarray::Array::from_shape_fn((3, 4, 2), |(i, j, k)| (i * 8 + j * 2 + k) as f64);
        let l = array![[0, 1], [1, 0], [2, 2], [0, -1]].into_dyn();
        for view in [v.view(), v.view().reversed_axes().reversed_axes()] {
            let got = sum(&view.into_dyn(), &l.view(), Axes::Many(vec![2, 1]));
            assert_eq!(got.shape(), &[3, 3]);
            for i in 0..3 {
                let mut want = [0.0; 3];
                for j in 0..4 {
                    for k in 0..2 {
                        if l[[j, k]] >= 0 {
                            want[l[[j, k]] as usize] += v[[i, j, k]];
                        }
                    }
                }
                assert_eq!(
                    got.index_axis(ndarray::Axis(0), i)
                        .iter()
                        .copied()
                        .collect::<Vec<_>>(),
                    want.to_vec()
                );
            }
        }
        // the transposed view (not C-contiguous) gives the same
        let t = v.view().permuted_axes([1, 2, 0]);
        let got = sum(&t.into_dyn(), &l.view(), Axes::Many(vec![0, 1]));
        let want = sum(&v.view().into_dyn(), &l.view(), Axes::Many(vec![1, 2]));
        assert_eq!(got, want);
    }

    #[test]
    fn chunked_and_single_thread_results_agree_bit_for_bit() {
        // long enough for several chunks; labels random-looking
        let n = 3 * MIN_TASK + 17;
        let v: Array1<f64> = (0..n).map(|i| ((i * 7919) % 1000) as f64 * 0.1).collect();
        let l: Array1<i64> = (0..n).map(|i| ((i * 31) % 11) as i64 - 1).collect();
        let (v, l) = (v.into_dyn(), l.into_dyn());
        let got = group_reduce(
            &v.view(),
            &l.view(),
            Axes::All,
            None,
            &Streaming(NanMean),
            "m",
        )
        .unwrap();
        let serial = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| {
                group_reduce(
                    &v.view(),
                    &l.view(),
                    Axes::All,
                    None,
                    &Streaming(NanMean),
                    "m",
                )
            })
            .unwrap();
        assert_eq!(got, serial);
        for g in 0..10 {
            let xs: Vec<f64> = (0..n).filter(|&i| l[i] == g).map(|i| v[i]).collect();
            let mean = xs.iter().sum::<f64>() / xs.len() as f64;
            assert!((got[g as usize] - mean).abs() <= 1e-9 * mean.abs());
        }
        // positions survive the chunks
        let arg = group_reduce(
            &v.view(),
            &l.view(),
            Axes::All,
            None,
            &GroupArg::<true>,
            "a",
        )
        .unwrap();
        for g in 0..10 {
            let i = arg[g] as usize;
            assert_eq!(l[i], g as i64);
            assert!((0..n)
                .filter(|&k| l[k] == g as i64)
                .all(|k| v[k] < v[i] || (v[k] == v[i] && k >= i)));
        }
    }

    /// Blocks of random labels (a value at a time) and of runs (a run at a
    /// time, one across a block's end), negative labels and NaN among
    /// them, in one chunk and in several: every valid value counted once,
    /// and the exact statistics (count, maximum, first, last, position of
    /// the first maximum) equal to a value-at-a-time reference.
    #[test]
    fn random_and_run_blocks_fold_every_value_once() {
        use crate::reduce::{NanCount, NanMax};
        for n in [3 * RUN_BLOCK + 123, 3 * MIN_TASK + 5] {
            let labels: Vec<i64> = (0..n)
                .map(|i| match i % (3 * RUN_BLOCK) {
                    k if k < RUN_BLOCK - 5 => ((k * 7919) % 13) as i64 - 1,
                    k if k < RUN_BLOCK + 40 => 4,
                    k if k < 2 * RUN_BLOCK => ((k / 20) % 11) as i64 - 1,
                    k => ((k * 104_729) % 9) as i64,
                })
                .collect();
            let values: Vec<f64> = (0..n)
                .map(|i| match i % 7 {
                    3 => f64::NAN,
                    _ => ((i * 31) % 97) as f64 - 40.0,
                })
                .collect();
            let groups = 1 + *labels.iter().max().unwrap() as usize;
            let (mut count, mut max) = (vec![0u64; groups], vec![f64::NAN; groups]);
            let (mut first, mut last) = (vec![f64::NAN; groups], vec![f64::NAN; groups]);
            let mut argmax = vec![f64::NAN; groups];
            for (i, (&x, &g)) in values.iter().zip(&labels).enumerate() {
                if g < 0 || x.is_nan() {
                    continue;
                }
                let g = g as usize;
                count[g] += 1;
                if max[g].is_nan() || x > max[g] {
                    (max[g], argmax[g]) = (x, i as f64);
                }
                if first[g].is_nan() {
                    first[g] = x;
                }
                last[g] = x;
            }
            let v = Array1::from(values).into_dyn();
            let l = Array1::from(labels).into_dyn();
            let (v, l) = (&v.view(), &l.view());
            let bits = |a: ArrayD<f64>| a.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            let want = |w: Vec<f64>| w.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            let got = group_reduce(v, l, Axes::All, None, &Streaming(NanCount), "c").unwrap();
            assert_eq!(got.iter().copied().collect::<Vec<_>>(), count, "n = {n}");
            let got = group_reduce(v, l, Axes::All, None, &Streaming(NanMax), "x").unwrap();
            assert_eq!(bits(got), want(max));
            let got = group_reduce(v, l, Axes::All, None, &GroupEnd::<false>, "f").unwrap();
            assert_eq!(bits(got), want(first));
            let got = group_reduce(v, l, Axes::All, None, &GroupEnd::<true>, "l").unwrap();
            assert_eq!(bits(got), want(last));
            let got = group_reduce(v, l, Axes::All, None, &GroupArg::<true>, "a").unwrap();
            assert_eq!(bits(got), want(argmax));
            // states that settle (skipped by a bit per label in random
            // blocks, also after runs settled them unseen)
            let truth = |all: bool| -> Vec<bool> {
                (0..groups as i64)
                    .map(|g| {
                        let mut valid = v
                            .iter()
                            .zip(l.iter())
                            .filter(|&(x, &h)| h == g && !x.is_nan());
                        if all {
                            valid.all(|(&x, _)| x != 0.0)
                        } else {
                            valid.any(|(&x, _)| x != 0.0)
                        }
                    })
                    .collect()
            };
            assert!(truth(true).contains(&false) && truth(false).contains(&true));
            let got = group_reduce(v, l, Axes::All, None, &GroupTruth::<false>, "y").unwrap();
            assert_eq!(got.iter().copied().collect::<Vec<_>>(), truth(false));
            let got = group_reduce(v, l, Axes::All, None, &GroupTruth::<true>, "z").unwrap();
            assert_eq!(got.iter().copied().collect::<Vec<_>>(), truth(true));
        }
    }

    /// Few random labels: states primed with each label's first finite
    /// value, then fed by `push_primed`, hold what each label's values
    /// pushed one by one from an empty state hold (count, mean and `m2`
    /// bit for bit), for a label whose values start with infinities, one
    /// with infinities only, one with NaN only, one with no value, one
    /// whose first finite value comes late; negative labels are skipped and
    /// a label past the states is reported.
    #[test]
    fn primed_variance_states_hold_what_values_one_by_one_give() {
        use crate::options::Ddof;
        use crate::reduce::{NanVar, VarOrStd};
        use crate::states::{RecenteredMoments, State};
        let groups = 9usize;
        let n = 20_000usize;
        assert!(settling_chunk(groups) <= n);
        let labels: Vec<i64> = (0..n)
            .map(|i| match i {
                // label 6 comes late; label 8 never; 9 is past the states
                _ if i % 1009 == 17 => 6,
                _ if i == 4321 => 9,
                _ if i % 13 == 5 => -1,
                _ => ((i * 7919) % 6) as i64,
            })
            .collect();
        let values: Vec<f64> = (0..n)
            .map(|i| match (labels[i], i % 11) {
                (1, _) if i < 400 => f64::INFINITY,
                (2, _) => f64::NEG_INFINITY,
                (3, _) => f64::NAN,
                (_, 4) => f64::NAN,
                (4, k) => 1e9 + k as f64,
                (6, _) if i < 5000 => f64::NAN,
                (_, k) => (i % 97) as f64 * 0.37 - k as f64 * 1e3,
            })
            .collect();
        let mut want = vec![RecenteredMoments::<f64>::default(); groups];
        for (&x, &g) in values.iter().zip(&labels) {
            if let Some(st) = usize::try_from(g).ok().and_then(|g| want.get_mut(g)) {
                st.push_skipping_nan(x);
            }
        }
        let stat = GroupMoments(VarOrStd::from(NanVar(Ddof(0.0))));
        let mut got = vec![RecenteredMoments::<f64>::default(); groups];
        assert_eq!(fold(&stat, &mut got, &values, &labels, 0), 9);
        // the variances; the count, mean and `m2` where no value is
        // infinite (the count of a state past an infinity is not used)
        let bits = |m: &RecenteredMoments<f64>| {
            let (n, mean, m2) = m.finish();
            let var: f64 = GroupStatistic::<f64>::finish(&stat, m).unwrap();
            let finite = mean.is_finite();
            (
                var.to_bits(),
                finite.then_some((n, mean.to_bits(), m2.to_bits())),
            )
        };
        for g in 0..groups {
            assert_eq!(bits(&got[g]), bits(&want[g]), "label {g}");
        }
        let var = |g: usize| -> f64 { GroupStatistic::<f64>::finish(&stat, &want[g]).unwrap() };
        assert!(var(4) > 0.0 && var(6) > 0.0 && want[0].finish().0 > 1000);
        assert!(var(1).is_nan() && var(2).is_nan() && want[3].finish().0 == 0);
        assert!(var(8).is_nan() && want[8].finish().0 == 0);
    }

    /// Chunks of random labels too short for them to settle are folded
    /// from last to first (`settle_backwards`): each label's first valid value and
    /// whether any or all of its valid values are nonzero, as a scan
    /// from the front finds them, with negative labels skipped, over one
    /// chunk and over two.
    #[test]
    fn chunks_that_cannot_settle_keep_each_labels_first_value() {
        let groups = 50_000usize;
        for n in [7 * groups / 2, 3 * MIN_TASK + 11] {
            assert!(n < settling_chunk(groups));
            let labels: Vec<i64> = (0..n)
                .map(|i| ((i * 104_729 + i / 3) % (groups + 7)) as i64 - 7)
                .map(|g| if g == 17 { -1 } else { g }) // a group of no value
                .collect();
            let values: Vec<f64> = (0..n)
                .map(|i| match i % 5 {
                    1 => f64::NAN,
                    2 if i % 3 == 0 => 0.0,
                    _ => ((i * 37) % 211) as f64 - 100.5,
                })
                .collect();
            let (mut first, mut any, mut all) = (
                vec![f64::NAN; groups],
                vec![false; groups],
                vec![true; groups],
            );
            for (&x, &g) in values.iter().zip(&labels) {
                if g < 0 || x.is_nan() {
                    continue;
                }
                let g = g as usize;
                if first[g].is_nan() {
                    first[g] = x;
                }
                any[g] |= x != 0.0;
                all[g] &= x != 0.0;
            }
            let v = Array1::from(values).into_dyn();
            let l = Array1::from(labels).into_dyn();
            let (v, l, all_axes) = (&v.view(), &l.view(), || Axes::All);
            let some = Some(groups);
            let got = group_reduce(v, l, all_axes(), some, &GroupEnd::<false>, "f").unwrap();
            let bits = |a: &[f64]| a.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(got.as_slice().unwrap()), bits(&first), "n = {n}");
            let got = group_reduce(v, l, all_axes(), some, &GroupTruth::<false>, "y").unwrap();
            assert_eq!(got.as_slice().unwrap(), &any[..]);
            let got = group_reduce(v, l, all_axes(), some, &GroupTruth::<true>, "z").unwrap();
            assert_eq!(got.as_slice().unwrap(), &all[..]);
            assert!(any.contains(&false) && all.contains(&false) && all.contains(&true));
            let err = group_reduce(v, l, all_axes(), Some(groups - 1), &GroupEnd::<false>, "f");
            let want = Error::LabelOutOfRange {
                label: groups as i64 - 1,
                num_labels: groups - 1,
            };
            assert_eq!(err, Err(want));
        }
    }

    /// A label at or past a given `num_labels` is an error naming the
    /// largest label, whichever way the driver goes: checked while folding
    /// (chunks of one output, whole outputs per task), before (values read
    /// in place, no outputs at all); negative labels are skipped.
    #[test]
    fn labels_past_num_labels_are_errors_on_every_path() {
        let stat = Streaming(NanSum);
        let err = |label, num_labels| Err(Error::LabelOutOfRange { label, num_labels });
        let sum = |v: &ArrayD<f64>, l: &ArrayD<i64>, axes: Axes, n: usize| {
            group_reduce(&v.view(), &l.view(), axes, Some(n), &stat, "s")
        };
        // one output of many values: several chunks
        let n = 3 * MIN_TASK + 5;
        let labels: Vec<i64> = (0..n as i64).map(|i| (i * 7919) % 11 - 1).collect();
        assert!(chunk_count(1, n, 5, false) > 1);
        let v = Array1::from_elem(n, 1.0).into_dyn();
        let l = Array1::from(labels.clone()).into_dyn();
        assert_eq!(sum(&v, &l, Axes::All, 5), err(9, 5));
        assert_eq!(
            sum(&v, &l, Axes::All, 10).unwrap().sum(),
            labels.iter().filter(|&&g| g >= 0).count() as f64
        );
        // many outputs, grouped axis last: whole outputs per task
        let v = ndarray::Array2::from_elem((6, 40), 2.0).into_dyn();
        let l = Array1::from_iter((0..40).map(|i| [0, 7, 2, -3][i % 4])).into_dyn();
        let last = Axes::Many(vec![1]);
        assert_eq!(sum(&v, &l, last.clone(), 3), err(7, 3));
        let first = GroupEnd::<false>;
        let r = group_reduce(&v.view(), &l.view(), last, Some(7), &first, "f");
        assert_eq!(r, err(7, 7));
        // grouped axis leading, many outputs: read in place
        let v = ndarray::Array2::from_elem((5, LEADING_MIN_OUTPUTS), 1.0).into_dyn();
        let l = array![0, 0, 4, 1, 1].into_dyn();
        assert_eq!(sum(&v, &l, Axes::Many(vec![0]), 2), err(4, 2));
        // no outputs
        let v = ndarray::Array2::<f64>::zeros((0, 4)).into_dyn();
        let l = array![0, 5, 1, 2].into_dyn();
        assert_eq!(sum(&v, &l, Axes::Many(vec![1]), 3), err(5, 3));
        // no labels: no result to write, the labels still checked
        let v = ndarray::Array2::from_elem((2, 3), 1.0).into_dyn();
        let l = array![-1, 0, -1].into_dyn();
        assert_eq!(sum(&v, &l, Axes::Many(vec![1]), 0), err(0, 0));
        let l = array![-1, -1, -1].into_dyn();
        let none = sum(&v, &l, Axes::Many(vec![1]), 0).unwrap();
        assert_eq!(none.shape(), &[2, 0]);
    }

    #[test]
    fn the_memory_probe_asks_for_the_states_of_the_chunks_used() {
        // four values in 2^56 groups: one chunk, so one state per label
        // beside its result. The request cannot be met on any machine (an
        // address space is below 2^57 bytes), so the error names its size.
        let v = array![1.0, 2.0, 3.0, 4.0].into_dyn();
        let l = array![0, 1, 1, 0].into_dyn();
        let groups = 1usize << 56;
        type Skew = Streaming<crate::reduce::NanSkew>;
        let skew = Streaming(crate::reduce::NanSkew { bias: true });
        let state = std::mem::size_of::<<Skew as GroupStatistic<f64>>::State>();
        let r = group_reduce(&v.view(), &l.view(), Axes::All, Some(groups), &skew, "k");
        let want = groups * (std::mem::size_of::<f64>() + state) + 4 * 8;
        assert_eq!(r, Err(Error::OutOfMemory { bytes: want }));
        // many values in few groups: the chunks (each a state per label)
        // are unchanged by the estimate
        assert_eq!(chunk_count(1, 8 * MIN_TASK, 3, false), MAX_CHUNKS);
        // a power of two
        assert_eq!(chunk_count(1, 3 * MIN_TASK, 3, false), 2);
        assert_eq!(chunk_count(1, 7 * MIN_TASK, 3, false), 4);
        assert_eq!(chunk_count(4, 8 * MIN_TASK, 3, false), 1);
        assert_eq!(chunk_count(1, 4, groups, false), 1);
        // many labels: values per label in each chunk, but two chunks
        // where there are values for two tasks
        assert_eq!(chunk_count(1, 10_000_000, 100_000, false), 2);
        assert_eq!(chunk_count(1, 1_000_000, 100_000, false), 2);
        assert_eq!(chunk_count(1, 2 * MIN_TASK - 1, 100_000, false), 1);
        assert_eq!(chunk_count(1, 10_000_000, 10_000, false), MAX_CHUNKS);
        // a settling statistic: chunks of at least four times the values
        // its labels take to settle, where there are many labels, but two
        // where there are values for two tasks
        assert_eq!(chunk_count(1, 8 * MIN_TASK, 3, true), MAX_CHUNKS);
        assert_eq!(chunk_count(1, 10_000_000, 10_000, true), 8);
        assert_eq!(chunk_count(1, 20_000_000, 100_000, true), 4);
        assert_eq!(chunk_count(1, 1_000_000, 100_000, true), 2);
        assert_eq!(chunk_count(1, 2 * MIN_TASK - 1, 100_000, true), 1);
    }

    #[test]
    fn bad_labels_are_errors() {
        let v = array![1.0, 2.0].into_dyn();
        let l = array![0, 3].into_dyn();
        let r = group_reduce(
            &v.view(),
            &l.view(),
            Axes::All,
            Some(3),
            &Streaming(NanSum),
            "s",
        );
        assert_eq!(
            r,
            Err(Error::LabelOutOfRange {
                label: 3,
                num_labels: 3
            })
        );
        let short = array![0].into_dyn();
        let r = group_reduce(
            &v.view(),
            &short.view(),
            Axes::All,
            None,
            &Streaming(NanSum),
            "s",
        );
        let err = r.unwrap_err();
        assert!(matches!(err, Error::LabelsShape { .. }));
        // numbagg's words, Python's tuples: callers match the message
        assert_eq!(
            err.to_string(),
            "values must have same shape along axis as labels: (2,) vs (1,)"
        );
        let ints = array![1_i32, 2].into_dyn();
        let r = group_reduce(
            &ints.view(),
            &l.view(),
            Axes::All,
            None,
            &GroupEnd::<false>,
            "f",
        );
        assert_eq!(r, Err(Error::EmptyGroup { op: "f", group: 1 }));
    }
}
