//! Smallest or largest valid value, optionally with its index.

use super::state::State;
use crate::element::Element;

/// The minimum (`MAX = false`) or maximum (`MAX = true`) of the valid values.
///
/// ```
/// use nanops::states::{Extremum, State};
/// let mut m = Extremum::<f64, false>::default();
/// for x in [3.0, f64::NAN, 1.0] { m.push(x) }
/// assert_eq!(m.value(), Some(1.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Extremum<E: Element, const MAX: bool> {
    value: Option<E>,
}

impl<E: Element, const MAX: bool> Default for Extremum<E, MAX> {
    fn default() -> Self {
        Extremum { value: None }
    }
}

/// Whether `x` beats `best` (strictly) for a minimum or a maximum.
#[inline(always)]
pub(crate) fn beats<E: Element, const MAX: bool>(x: E, best: E) -> bool {
    if MAX {
        best.less(x)
    } else {
        x.less(best)
    }
}

impl<E: Element, const MAX: bool> Extremum<E, MAX> {
    /// A state holding `value` (or nothing).
    #[inline(always)]
    pub fn from_value(value: Option<E>) -> Self {
        Extremum { value }
    }
    /// [`push`](State::push) for values that come one at a time with NaN
    /// among them at random (a group-by over random labels): NaN never
    /// beats a value (`less` is false), so only an empty state tests for
    /// it, and a held value costs no branch per NaN. The same state as
    /// `push`.
    ///
    /// ```
    /// use nanops::states::Extremum;
    /// let mut m = Extremum::<f64, true>::default();
    /// for x in [f64::NAN, 2.0, f64::NAN, 5.0, 1.0] { m.offer(x) }
    /// assert_eq!(m.value(), Some(5.0));
    /// ```
    #[inline(always)]
    pub fn offer(&mut self, x: E) {
        match self.value {
            Some(b) => {
                if beats::<E, MAX>(x, b) {
                    self.value = Some(x);
                }
            }
            None => {
                if !x.is_nan_value() {
                    self.value = Some(x);
                }
            }
        }
    }
    /// The extremum, `None` when no valid value was seen (the same as
    /// [`State::finish`]).
    #[inline(always)]
    pub fn value(&self) -> Option<E> {
        self.value
    }
}

impl<E: Element, const MAX: bool> State<E> for Extremum<E, MAX> {
    type Output = Option<E>;
    /// Offers one value; NaN is ignored.
    ///
    /// The whole state is chosen and stored, with no branch and no
    /// conditional store: a loop of these over many states (the column
    /// bests of a block of rows into their states) then vectorises with
    /// plain loads and stores, where the branch form became masked gathers
    /// and scatters, microcoded on AMD Zen (`perf annotate`: most of a
    /// `nanmin` along axis 0 of two rows of the demo's cube).
    #[inline(always)]
    fn push(&mut self, x: E) {
        let keep = x.is_nan_value() | matches!(self.value, Some(b) if !beats::<E, MAX>(x, b));
        *self = if keep {
            *self
        } else {
            Extremum { value: Some(x) }
        };
    }
    /// Merges another partial state (as [`push`](State::push), branch-free).
    #[inline(always)]
    fn merge(&mut self, other: &Self) {
        let keep = match other.value {
            None => true,
            Some(x) => x.is_nan_value() | matches!(self.value, Some(b) if !beats::<E, MAX>(x, b)),
        };
        *self = if keep { *self } else { *other };
    }
    #[inline(always)]
    fn finish(&self) -> Option<E> {
        self.value
    }
}

/// The first minimum or maximum of the valid values and its index.
///
/// Ties go to the smaller index, whatever the order of pushes and merges.
///
/// ```
/// use nanops::states::ArgExtremum;
/// let mut m = ArgExtremum::<f64, true>::default();
/// for (i, x) in [1.0, 5.0, f64::NAN, 5.0].into_iter().enumerate() { m.push(x, i) }
/// assert_eq!(m.get(), Some((5.0, 1)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArgExtremum<E: Element, const MAX: bool> {
    best: Option<(E, usize)>,
}

impl<E: Element, const MAX: bool> Default for ArgExtremum<E, MAX> {
    fn default() -> Self {
        ArgExtremum { best: None }
    }
}

impl<E: Element, const MAX: bool> ArgExtremum<E, MAX> {
    /// Offers a value at `index`; NaN is ignored.
    #[inline(always)]
    pub fn push(&mut self, x: E, index: usize) {
        if x.is_nan_value() {
            return;
        }
        match self.best {
            Some((b, i)) if !(beats::<E, MAX>(x, b) || (index < i && !beats::<E, MAX>(b, x))) => {}
            _ => self.best = Some((x, index)),
        }
    }
    /// The extremum and its index, `None` when no valid value was seen.
    #[inline(always)]
    pub fn get(&self) -> Option<(E, usize)> {
        self.best
    }
}

impl<E: Element, const MAX: bool> State<(E, usize)> for ArgExtremum<E, MAX> {
    /// The extremum and its index.
    type Output = Option<(E, usize)>;
    /// Offers a value with its index (the same as the inherent `push`).
    #[inline(always)]
    fn push(&mut self, (x, index): (E, usize)) {
        ArgExtremum::push(self, x, index);
    }
    /// Merges another partial state.
    #[inline(always)]
    fn merge(&mut self, other: &Self) {
        if let Some((x, i)) = other.best {
            self.push(x, i);
        }
    }
    #[inline(always)]
    fn finish(&self) -> Option<(E, usize)> {
        self.best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `offer` keeps what `push` keeps, value and sign of zero, for minima
    /// and maxima: NaN first, between and last, ties of `0.0` and `-0.0`,
    /// infinities.
    #[test]
    fn offer_keeps_what_push_keeps() {
        let nan = f64::NAN;
        let cases: [&[f64]; 5] = [
            &[nan, 0.0, -0.0, nan, 0.0],
            &[-0.0, nan, 0.0, 3.0, -3.0, nan],
            &[nan, nan],
            &[f64::INFINITY, nan, f64::NEG_INFINITY, 1.0],
            &[2.0, 2.0, nan, -1.0, 7.5, 7.5],
        ];
        fn check<const MAX: bool>(xs: &[f64]) {
            let mut a = Extremum::<f64, MAX>::default();
            let mut b = Extremum::<f64, MAX>::default();
            for &x in xs {
                a.push(x);
                b.offer(x);
                assert_eq!(a.value().map(f64::to_bits), b.value().map(f64::to_bits));
            }
        }
        for xs in cases {
            check::<false>(xs);
            check::<true>(xs);
        }
    }
}
