//! The family's one trait, [`GroupStatistic`], the adapter that makes every
//! reducer of the reduce family one, and the statistics of the group family
//! alone.

use crate::element::{Accumulator, Element, FloatAcc};
use crate::reduce::{reduce, square, Partial, Reducer, VarOrStd};
use crate::states::{ArgExtremum, Moments, RecenteredMoments, State, Sum};
use ndarray::ArrayViewD;

/// Runs of one label shorter than this enter by
/// [`GroupStatistic::push_short_run`]: below a vector's worth of lanes
/// twice over, the reduce kernels' set-up for a slice costs more than the
/// values (random labels over few groups make runs of two or three every
/// few values).
pub(super) const SHORT_RUN: usize = 16;

/// One statistic per label: its partial state, how a run of values of one
/// label enters it, how states merge and how a state becomes the result.
///
/// Public only in name: the module is private, so no user can name or
/// implement it (it is the family's internal contract).
pub trait GroupStatistic<E: Element>: Sync {
    /// The partial state of one (output, label); `Default` is the empty state.
    type State: Clone + Default + Send + Sync;
    /// The result type of one (output, label).
    type Output: Copy + Default + Send + Sync + 'static;
    /// Folds a run of consecutive values of one label; `start` is the flat
    /// position (C order over the grouped axes) of `xs[0]`.
    fn push_run(&self, st: &mut Self::State, xs: &[E], start: usize);
    /// [`push_run`](GroupStatistic::push_run) of one value at `index`
    /// (unsorted labels: most runs are one value long).
    #[inline(always)]
    fn push_one(&self, st: &mut Self::State, x: E, index: usize) {
        self.push_run(st, std::slice::from_ref(&x), index);
    }
    /// [`push_one`](GroupStatistic::push_one) of each of a short run of
    /// values of one label, `window[..len]` (`len` below [`SHORT_RUN`]),
    /// the first at `start`: a statistic whose `push_one` is made for
    /// values of labels at random may fold a run another way. `window`
    /// goes on past the run with the values that follow, to
    /// [`SHORT_RUN`] values where there are as many, so that a run can be
    /// read at a fixed width.
    #[inline(always)]
    fn push_short_run(&self, st: &mut Self::State, window: &[E], len: usize, start: usize) {
        for (k, &x) in window[..len].iter().enumerate() {
            self.push_one(st, x, start + k);
        }
    }
    /// Whether [`fold`](super::driver) readies the states of a chunk of
    /// random labels first, when they are few: it reads the chunk until
    /// each label's state has been [`prime`](GroupStatistic::prime)d with
    /// its label's first value that primes, and then pushes every value by
    /// [`push_primed`](GroupStatistic::push_primed).
    const PRIMES: bool = false;
    /// Readies the empty state `st` with `x`, the first valid value of its
    /// label in a chunk, if `x` can; returns whether it did (a variance's
    /// center is finite: an infinite value leaves the state for a later one).
    #[inline(always)]
    fn prime(&self, _st: &mut Self::State, _x: E) -> bool {
        false
    }
    /// [`push_one`](GroupStatistic::push_one) into a state
    /// [`prime`](GroupStatistic::prime)d with the first value of its label
    /// that primes (or, where no value of the chunk primes it, an empty
    /// one), with the same result.
    #[inline(always)]
    fn push_primed(&self, st: &mut Self::State, x: E, index: usize) {
        self.push_one(st, x, index);
    }
    /// Adds the state of values that come after those of `st`.
    fn merge(&self, st: &mut Self::State, later: &Self::State);
    /// Whether a state can settle: once [`settled`](GroupStatistic::settled),
    /// every later value leaves it as it is (the first valid value; whether
    /// any value is nonzero). The driver then skips the values of settled
    /// labels.
    const SETTLES: bool = false;
    /// Whether `st` is settled (see [`SETTLES`](GroupStatistic::SETTLES)).
    #[inline(always)]
    fn settled(&self, _st: &Self::State) -> bool {
        false
    }
    /// [`push_one`](GroupStatistic::push_one) into a state that is not
    /// settled, which for a statistic that settles is the empty state
    /// (no valid value yet; no deciding value): written without being read.
    /// Returns whether `st` is settled after. A settling statistic's must
    /// also hold when values are offered from last to first into states
    /// settled or not, a deciding value overwriting: the driver folds
    /// chunks too short to settle so (the state then holds the first
    /// deciding value).
    #[inline(always)]
    fn push_unsettled(&self, st: &mut Self::State, x: E, index: usize) -> bool {
        self.push_one(st, x, index);
        self.settled(st)
    }
    /// Whether [`run_states`](GroupStatistic::run_states) has a walk of its
    /// own across the outputs: the driver then reads values whose grouped
    /// axes lead in place, rather than copying them with the grouped axes
    /// last (the default below is the slow way, one value at a time).
    const RUN_STATES: bool = false;
    /// The states, one per output, of `rows`: a 2-d `(run, outputs)` view of
    /// consecutive values of one label along the leading grouped axes (row
    /// `k` at flat position `start + k`), each row across the outputs.
    fn run_states(&self, rows: &ArrayViewD<'_, E>, start: usize) -> Vec<Self::State> {
        let n_out = rows.shape().get(1).copied().unwrap_or(0);
        let mut states = vec![Self::State::default(); n_out];
        for (k, row) in rows.outer_iter().enumerate() {
            for (st, &x) in states.iter_mut().zip(row.iter()) {
                self.push_one(st, x, start + k);
            }
        }
        states
    }
    /// The result of a state; `None` when the result type cannot hold the
    /// result of an empty group (the minimum of integers: NaN does not exist).
    fn finish(&self, st: &Self::State) -> Option<Self::Output>;
}

/// A reducer of the reduce family (`NanSum`, `NanMean`, `NanVar`, …) as a
/// group statistic: each run is a slice its kernel folds, its state merges,
/// its `finish` gives the result, so a group's value is what the reduction
/// gives for the group's values. A reduction without identity (min, max)
/// of an empty group of integers has no result (`None`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Streaming<R>(pub R);

impl<E: Element, R: Reducer<E>> GroupStatistic<E> for Streaming<R>
where
    R::State: Copy + 'static,
{
    type State = R::State;
    type Output = R::Output;
    #[inline(always)]
    fn push_run(&self, st: &mut Self::State, xs: &[E], _start: usize) {
        self.0.push_slice(st, xs);
    }
    #[inline(always)]
    fn push_one(&self, st: &mut Self::State, x: E, _index: usize) {
        self.0.push_value(st, x);
    }
    /// A reducer with a short-lane kernel ([`Reducer::SHORT`]) takes the
    /// run as a window of [`SHORT_RUN`] values, those past the run
    /// replaced by NaN (which those kernels skip), by that kernel, and
    /// merges its state in: the run's length no loop's exit (taken at
    /// random where sorted labels over many groups make runs of a few
    /// values), the values summed as the reduction sums a short lane.
    /// Otherwise (integers, no NaN to pad with; the last values) the
    /// values one after another into a copy of the state, stored once:
    /// pushed into the state in place, each value's store and the next
    /// one's load of it were in the chain.
    #[inline(always)]
    fn push_short_run(&self, st: &mut Self::State, window: &[E], len: usize, _start: usize) {
        if let Some(window) = window
            .first_chunk::<SHORT_RUN>()
            .filter(|_| R::SHORT && E::CAN_BE_NAN)
        {
            st.merge(&self.0.short_window_state(window, len));
            return;
        }
        let mut run = *st;
        for &x in &window[..len] {
            self.0.push_value(&mut run, x);
        }
        *st = run;
    }
    #[inline(always)]
    fn merge(&self, st: &mut Self::State, later: &Self::State) {
        st.merge(later);
    }
    const RUN_STATES: bool = true;
    /// The reduction's partial states along the run's rows: the reduce
    /// family's own walk of strided lanes, vectorised across the outputs.
    fn run_states(&self, rows: &ArrayViewD<'_, E>, _start: usize) -> Vec<Self::State> {
        let (states, _) = reduce(rows, &[0], &Partial(self.0.kernel()));
        // a fresh C-order array: its buffer is the states in order
        let (states, offset) = states.into_raw_vec_and_offset();
        debug_assert_eq!(offset.unwrap_or(0), 0);
        states
    }
    fn finish(&self, st: &Self::State) -> Option<Self::Output> {
        if !E::CAN_BE_NAN && R::NO_IDENTITY.is_some() && self.0.degenerate(st) {
            return None;
        }
        Some(self.0.finish(st))
    }
}

/// [`nanvar`](crate::nanvar) or [`nanstd`](crate::nanstd) of each label
/// (numbagg's `group_nanvar`/`group_nanstd`): [`Streaming`]'s, but a value
/// that comes alone (random labels) enters by [`RecenteredMoments`], a
/// subtraction, a product and two additions, rather than by Welford's update, whose
/// division at each value took most of the time; and its state is 32 bytes
/// rather than 40 (a table of random labels is read at random). Runs go to
/// the reduce family's kernel, as in [`Streaming`], and merge in.
#[derive(Clone, Copy, Debug, Default)]
pub struct GroupMoments(pub VarOrStd);

impl<E: Element> GroupStatistic<E> for GroupMoments {
    type State = RecenteredMoments<E::Float>;
    type Output = E::Var;
    #[inline(always)]
    fn push_run(&self, st: &mut Self::State, xs: &[E], _start: usize) {
        let mut run = Moments::default();
        Reducer::<E>::push_slice(&self.0, &mut run, xs);
        st.merge(&RecenteredMoments::from(run));
    }
    #[inline(always)]
    fn push_one(&self, st: &mut Self::State, x: E, _index: usize) {
        st.push_skipping_nan(x.to_float());
    }
    /// Few labels: each state centered on its label's first finite value
    /// before the values come, so that no value moves a center (the product
    /// by which a label's first value did, with no branch, was in the chain
    /// of each value, a third of its time over ten labels).
    const PRIMES: bool = true;
    #[inline(always)]
    fn prime(&self, st: &mut Self::State, x: E) -> bool {
        let x = x.to_float();
        let finite = x.all_finite();
        if finite {
            *st = RecenteredMoments::centered_on(x);
        }
        finite
    }
    #[inline(always)]
    fn push_primed(&self, st: &mut Self::State, x: E, _index: usize) {
        st.push_about_center(x.to_float());
    }
    /// A run into an empty state (sorted labels) as a window of
    /// [`SHORT_RUN`] values, its moments summed as a tree
    /// ([`RecenteredMoments::of_window`]): one value at a time, the run's
    /// length was a loop's exit taken at random, and each value's sums in
    /// the chain of the next. Otherwise (a label seen before in the chunk,
    /// the last values, a square that overflows) the values one after
    /// another into a copy of the state, stored once (as [`Streaming`]'s),
    /// by `push_in_run`, whose center stays out of the chain.
    #[inline(always)]
    fn push_short_run(&self, st: &mut Self::State, window: &[E], len: usize, _start: usize) {
        if let Some(window) = window.first_chunk::<SHORT_RUN>().filter(|_| st.is_empty()) {
            let mut floats = [<E::Float as Accumulator>::zero(); SHORT_RUN];
            for (f, &x) in floats.iter_mut().zip(window) {
                *f = x.to_float();
            }
            if let Some(run) = RecenteredMoments::of_window(&floats, len) {
                *st = run;
                return;
            }
        }
        let mut run = *st;
        for &x in &window[..len] {
            run.push_in_run(x.to_float());
        }
        *st = run;
    }
    #[inline(always)]
    fn merge(&self, st: &mut Self::State, later: &Self::State) {
        st.merge(later);
    }
    const RUN_STATES: bool = true;
    /// As [`Streaming`]'s: the reduce family's walk across the outputs.
    fn run_states(&self, rows: &ArrayViewD<'_, E>, start: usize) -> Vec<Self::State> {
        let moments = Streaming(self.0).run_states(rows, start);
        moments.into_iter().map(RecenteredMoments::from).collect()
    }
    fn finish(&self, st: &Self::State) -> Option<Self::Output> {
        Some(Reducer::<E>::finish(&self.0, &st.moments()))
    }
}

/// The position (C order over the grouped axes) of a label's first minimum
/// (`MAX = false`) or maximum, as `f64`; NaN for a group without a valid
/// value (numbagg's `group_nanargmin`/`group_nanargmax`).
#[derive(Clone, Copy, Debug, Default)]
pub struct GroupArg<const MAX: bool>;

impl<E: Element, const MAX: bool> GroupStatistic<E> for GroupArg<MAX> {
    type State = ArgExtremum<E, MAX>;
    type Output = f64;
    #[inline(always)]
    fn push_run(&self, st: &mut Self::State, xs: &[E], start: usize) {
        for (k, &x) in xs.iter().enumerate() {
            st.push(x, start + k);
        }
    }
    #[inline(always)]
    fn merge(&self, st: &mut Self::State, later: &Self::State) {
        State::merge(st, later);
    }
    fn finish(&self, st: &Self::State) -> Option<f64> {
        Some(st.get().map_or(f64::NAN, |(_, i)| i as f64))
    }
}

/// A label's first (`LAST = false`) or last valid value; NaN for a group
/// without one (`None` for integers, which have no NaN).
#[derive(Clone, Copy, Debug, Default)]
pub struct GroupEnd<const LAST: bool>;

impl<E: Element, const LAST: bool> GroupStatistic<E> for GroupEnd<LAST> {
    type State = Option<E>;
    type Output = E;
    #[inline(always)]
    fn push_run(&self, st: &mut Option<E>, xs: &[E], _start: usize) {
        if LAST {
            if let Some(&x) = xs.iter().rev().find(|x| !x.is_nan_value()) {
                *st = Some(x);
            }
        } else if st.is_none() {
            *st = xs.iter().copied().find(|x| !x.is_nan_value());
        }
    }
    /// The last valid value of a run read as a window of [`SHORT_RUN`]
    /// values: the valid ones among the run's as a mask (compared side by
    /// side where the caller is compiled for the machine), its highest bit
    /// the value kept. One value at a time, each valid value was a branch
    /// taken at random where NaN is scattered. The first valid value as
    /// [`push_run`](GroupStatistic::push_run) finds it.
    #[inline(always)]
    fn push_short_run(&self, st: &mut Option<E>, window: &[E], len: usize, start: usize) {
        let Some(window) = window.first_chunk::<SHORT_RUN>().filter(|_| LAST) else {
            self.push_run(st, &window[..len], start);
            return;
        };
        let mut valid = 0u32;
        for (k, &x) in window.iter().enumerate() {
            valid |= u32::from(k < len && !x.is_nan_value()) << k;
        }
        if valid != 0 {
            *st = Some(window[(u32::BITS - 1 - valid.leading_zeros()) as usize]);
        }
    }
    #[inline(always)]
    fn merge(&self, st: &mut Option<E>, later: &Option<E>) {
        if later.is_some() && (LAST || st.is_none()) {
            *st = *later;
        }
    }
    /// The first valid value, once found, is the result.
    const SETTLES: bool = !LAST;
    #[inline(always)]
    fn settled(&self, st: &Option<E>) -> bool {
        !LAST && st.is_some()
    }
    #[inline(always)]
    fn push_unsettled(&self, st: &mut Option<E>, x: E, _index: usize) -> bool {
        if x.is_nan_value() {
            return false;
        }
        *st = Some(x);
        !LAST
    }
    fn finish(&self, st: &Option<E>) -> Option<E> {
        st.or_else(|| E::CAN_BE_NAN.then(E::nan))
    }
}

/// Whether any (`ALL = false`) or every valid value of a label is nonzero
/// (NaN skipped: an empty group gives `false` for any, `true` for all).
#[derive(Clone, Copy, Debug, Default)]
pub struct GroupTruth<const ALL: bool>;

impl<E: Element, const ALL: bool> GroupStatistic<E> for GroupTruth<ALL> {
    /// Whether a deciding value was seen: a nonzero one for any, a zero
    /// one for all.
    type State = bool;
    type Output = bool;
    #[inline(always)]
    fn push_run(&self, st: &mut bool, xs: &[E], _start: usize) {
        if !*st {
            let zero = E::default();
            *st = xs
                .iter()
                .any(|&x| !x.is_nan_value() && ((x == zero) == ALL));
        }
    }
    #[inline(always)]
    fn merge(&self, st: &mut bool, later: &bool) {
        *st |= *later;
    }
    /// A deciding value decides.
    const SETTLES: bool = true;
    #[inline(always)]
    fn settled(&self, st: &bool) -> bool {
        *st
    }
    #[inline(always)]
    fn push_unsettled(&self, st: &mut bool, x: E, _index: usize) -> bool {
        let deciding = !x.is_nan_value() && ((x == E::default()) == ALL);
        if deciding {
            *st = true;
        }
        deciding
    }
    fn finish(&self, st: &bool) -> Option<bool> {
        Some(*st != ALL)
    }
}

/// The sum of the squares of a label's valid values, accumulated as
/// `nansum` (in [`Element::Acc`], compensated).
#[derive(Clone, Copy, Debug, Default)]
pub struct GroupSumOfSquares;

impl<E: Element> GroupStatistic<E> for GroupSumOfSquares {
    type State = Sum<E::Acc>;
    type Output = E::Sum;
    #[inline(always)]
    fn push_run(&self, st: &mut Self::State, xs: &[E], _start: usize) {
        for &x in xs {
            if !x.is_nan_value() {
                st.push(square(x));
            }
        }
    }
    #[inline(always)]
    fn merge(&self, st: &mut Self::State, later: &Self::State) {
        st.merge(later);
    }
    fn finish(&self, st: &Self::State) -> Option<E::Sum> {
        Some(E::sum_from_acc(st.value()))
    }
}
