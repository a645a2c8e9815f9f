//! `anynan` and `allnan`: whether a slice holds a NaN, whether it holds
//! nothing else. Both stop reading a slice once its answer is known, as
//! bottleneck's do: in the reduce driver (threads, any layout) and, for
//! the layouts read in memory order, in one ordered walk ([`answer`])
//! whose early stop a split over threads would lose.

use super::reducer::{Reducer, ROW_BLOCK};
use super::register::statistics;
use crate::element::Element;
use crate::states::Seen;
use ndarray::{ArrayD, ArrayViewD, IxDyn};

/// Values read between two checks for an early answer: a block's flags
/// are or-ed without a branch (a loop LLVM vectorises), and the scan stops
/// after the first block with a hit.
const BLOCK: usize = 64;
/// The bytes of the first block of a slice (one cache line): short,
/// because the answer often lies in the first values (a NaN in data with
/// gaps, a value in `allnan`), and each lane's first read is a cache miss
/// of its own.
const FIRST_BYTES: usize = 64;
/// Rows of a column tile read before the rest of the rows are taken in
/// memory order ([`seen_down_columns`]).
const PROBE_ROWS: usize = 64;
/// Columns of a tile read down together (a cache line of `f64`).
const TILE: usize = 8;

/// Whether `xs` holds a NaN (`VALID`: a value that is not NaN).
#[inline(always)]
fn seen_in<E: Element, const VALID: bool>(xs: &[E]) -> bool {
    if !E::CAN_BE_NAN {
        return VALID && !xs.is_empty();
    }
    let hit = |x: E| x.is_nan_value() != VALID;
    let first_len = (FIRST_BYTES / std::mem::size_of::<E>()).max(1);
    let (first, xs) = xs.split_at(xs.len().min(first_len));
    let mut found = false;
    for i in 0..first.len() {
        found |= hit(first[i]);
    }
    if found {
        return true;
    }
    let mut blocks = xs.chunks_exact(BLOCK);
    for b in &mut blocks {
        let mut found = false;
        for i in 0..BLOCK {
            found |= hit(b[i]);
        }
        if found {
            return true;
        }
    }
    let rest = blocks.remainder();
    let mut found = false;
    for i in 0..rest.len() {
        found |= hit(rest[i]);
    }
    found
}

/// Whether each column of the C-order `rows` × `w` block `xs` holds a NaN
/// (`VALID`: a value that is not NaN), read as bottleneck reads a column
/// (down to its answer) but [`TILE`] columns at a time: each tile is read
/// down its first
/// [`PROBE_ROWS`] rows until all its columns are answered. If a quarter of
/// the tiles or fewer are still open, each is read on down to its answer
/// (a few strided lines each, where bottleneck's scattered columns end);
/// otherwise the remaining rows are read in memory order, [`ROW_BLOCK`]
/// rows at a time, until no column is open (data with few or no answers,
/// which is read whole either way).
fn seen_down_columns<E: Element, const VALID: bool>(xs: &[E], rows: usize, w: usize) -> Vec<bool> {
    let mut seen = vec![false; w];
    if !E::CAN_BE_NAN {
        seen.fill(VALID && rows > 0);
        return seen;
    }
    let hit = |x: E| x.is_nan_value() != VALID;
    // rows `from..to` of the tile at `c0`; whether its columns are all
    // answered (a whole tile as arrays of TILE, so the loops unroll)
    let down = |seen: &mut [bool], c0: usize, from: usize, to: usize| {
        let c1 = (c0 + TILE).min(w);
        if c1 - c0 == TILE {
            let s: &mut [bool; TILE] = (&mut seen[c0..c1]).try_into().expect("TILE columns");
            for r in from..to {
                let row: &[E; TILE] = xs[r * w + c0..r * w + c1].try_into().expect("TILE values");
                for j in 0..TILE {
                    s[j] |= hit(row[j]);
                }
                if s.iter().all(|&b| b) {
                    return true;
                }
            }
            return false;
        }
        let s = &mut seen[c0..c1];
        for r in from..to {
            let row = &xs[r * w + c0..r * w + c1];
            for j in 0..row.len() {
                s[j] |= hit(row[j]);
            }
            if s.iter().all(|&b| b) {
                return true;
            }
        }
        false
    };
    let probe = rows.min(PROBE_ROWS);
    let open: Vec<usize> = (0..w)
        .step_by(TILE)
        .filter(|&c0| !down(&mut seen, c0, 0, probe))
        .collect();
    if open.len() * 4 <= w.div_ceil(TILE) {
        for c0 in open {
            down(&mut seen, c0, probe, rows);
        }
        return seen;
    }
    let mut open = true;
    let mut r0 = probe;
    while open && r0 < rows {
        let r1 = (r0 + ROW_BLOCK).min(rows);
        for r in r0..r1 {
            let row = &xs[r * w..(r + 1) * w];
            for j in 0..w {
                seen[j] |= hit(row[j]);
            }
        }
        open = !seen.iter().all(|&b| b);
        r0 = r1;
    }
    seen
}

/// `anynan` (`VALID = false`) or `allnan` (`VALID = true`) of `view` over
/// the normalised `axes`, by one walk in memory order on the calling
/// thread for a C-contiguous view reduced over every axis (one slice), its
/// last axis (contiguous lanes, each read to its answer) or its first
/// ([`seen_down_columns`]); `None` for other layouts and axes, which the
/// reduce driver takes. Threads would not pay here: the work is unknown
/// until the answers are, often a few values a slice.
pub(crate) fn answer<E: Element, const VALID: bool>(
    view: &ArrayViewD<'_, E>,
    axes: &[usize],
) -> Option<ArrayD<bool>> {
    let xs = view.as_slice()?;
    let shape = view.shape();
    let nd = shape.len();
    // an answer from "seen": anynan is seen, allnan its negation
    let answered = |seen: bool| seen != VALID;
    if axes.len() == nd {
        let seen = E::dispatch(|| seen_in::<E, VALID>(xs));
        return Some(ArrayD::from_elem(IxDyn(&[]), answered(seen)));
    }
    if axes.len() != 1 {
        return None;
    }
    let ax = axes[0];
    let out_shape: Vec<usize> = shape
        .iter()
        .enumerate()
        .filter(|&(d, _)| d != ax)
        .map(|(_, &s)| s)
        .collect();
    let flags: Vec<bool> = if ax == nd - 1 {
        let n = shape[ax];
        if n == 0 {
            vec![answered(false); out_shape.iter().product()]
        } else {
            E::dispatch(|| {
                xs.chunks_exact(n)
                    .map(|lane| answered(seen_in::<E, VALID>(lane)))
                    .collect()
            })
        }
    } else if ax == 0 {
        let w = out_shape.iter().product();
        E::dispatch(|| seen_down_columns::<E, VALID>(xs, shape[0], w))
            .into_iter()
            .map(answered)
            .collect()
    } else {
        return None;
    };
    ArrayD::from_shape_vec(IxDyn(&out_shape), flags).ok()
}

/// Folds a block of rows into column flags (see [`seen_in`]); a block
/// whose columns all have their answer is not read.
#[inline(always)]
fn seen_in_rows<E: Element, const VALID: bool>(states: &mut [Seen], rows: &[&[E]]) {
    if states.iter().all(|s| s.0) {
        return;
    }
    if !E::CAN_BE_NAN {
        if VALID && !rows.is_empty() {
            states.iter_mut().for_each(|s| s.0 = true);
        }
        return;
    }
    for row in rows {
        let row = &row[..states.len()];
        for j in 0..row.len() {
            states[j].0 |= row[j].is_nan_value() != VALID;
        }
    }
}

/// [`anynan`](crate::anynan): whether a slice holds a NaN (`false` for an
/// empty slice and for integers).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AnyNan;

/// [`allnan`](crate::allnan): whether every value of a slice is NaN (`true`
/// for an empty slice; `false` for a non-empty slice of integers).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AllNan;

statistics!(AnyNan, AllNan);

impl AnyNan {
    /// Whether the values `xs` hold a NaN: the kernel of one contiguous
    /// slice, without the planning and result array of
    /// [`anynan`](crate::anynan) (for small calls that answer a bool).
    ///
    /// ```
    /// use nanops::stats::AnyNan;
    /// assert!(AnyNan::of(&[1.0, f64::NAN]));
    /// assert!(!AnyNan::of(&[1_i32, 2]));
    /// ```
    #[inline]
    pub fn of<E: Element>(xs: &[E]) -> bool {
        E::dispatch(|| seen_in::<E, false>(xs))
    }
}

impl AllNan {
    /// Whether every value of `xs` is NaN (`true` for none), as
    /// [`AnyNan::of`] for [`allnan`](crate::allnan).
    ///
    /// ```
    /// use nanops::stats::AllNan;
    /// assert!(AllNan::of(&[f64::NAN, f64::NAN]));
    /// assert!(AllNan::of::<f64>(&[]));
    /// ```
    #[inline]
    pub fn of<E: Element>(xs: &[E]) -> bool {
        !E::dispatch(|| seen_in::<E, true>(xs))
    }
}

/// The two reducers: `$valid` is what their flag records (a NaN, or a value
/// that is not NaN), `$finish` turns the flag into the answer.
macro_rules! nan_flag {
    ($t:ty, $valid:expr, |$s:ident| $finish:expr) => {
        impl<E: Element> Reducer<E> for $t {
            const CUT_FREE: bool = true;
            type Value = bool;
            type State = Seen;
            type Output = bool;
            type Kernel = Self;
            #[inline(always)]
            fn kernel(&self) -> &Self {
                self
            }
            #[inline(always)]
            fn push_slice(&self, st: &mut Seen, xs: &[E]) {
                st.0 = st.0 || seen_in::<E, { $valid }>(xs);
            }
            #[inline(always)]
            fn push_value(&self, st: &mut Seen, x: E) {
                st.0 |= x.is_nan_value() != $valid;
            }
            #[inline(always)]
            fn push_rows(&self, states: &mut [Seen], rows: &[&[E]]) {
                seen_in_rows::<E, { $valid }>(states, rows);
            }
            fn finish(&self, $s: &Seen) -> bool {
                $finish
            }
        }
    };
}

nan_flag!(AnyNan, false, |s| s.0);
nan_flag!(AllNan, true, |s| !s.0);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_find_a_hit_anywhere_and_nothing_else() {
        for n in [0, 1, 63, 64, 65, 200] {
            let valid = vec![1.0_f64; n];
            assert!(!seen_in::<f64, false>(&valid));
            assert_eq!(seen_in::<f64, true>(&valid), n > 0);
            for at in 0..n {
                let mut xs = valid.clone();
                xs[at] = f64::NAN;
                assert!(seen_in::<f64, false>(&xs), "NaN at {at} of {n}");
                let mut ys = vec![f64::NAN; n];
                ys[at] = -0.0;
                assert!(seen_in::<f64, true>(&ys), "value at {at} of {n}");
            }
        }
        assert!(!seen_in::<i32, false>(&[1, 2]));
        assert!(seen_in::<i32, true>(&[1]));
        assert!(!seen_in::<i32, true>(&[]));
    }

    #[test]
    fn ordered_walks_answer_as_the_reduce_driver() {
        use crate::options::Axes;
        use crate::statistic::Statistic;
        // NaN placed so that columns are answered in the probe, after it, or
        // never; lanes whose NaN is in the first block, a later one, or none
        let (rows, w) = (150, 37);
        let mut xs = vec![1.0_f64; rows * w];
        for c in 0..w {
            match c % 4 {
                0 => xs[(c % 7) * w + c] = f64::NAN,
                1 => xs[(70 + c) * w + c] = f64::NAN,
                2 => {}
                _ => (0..rows).for_each(|r| xs[r * w + c] = f64::NAN),
            }
        }
        let a = ndarray::Array2::from_shape_vec((rows, w), xs)
            .unwrap()
            .into_dyn();
        for axes in [vec![0], vec![1], vec![0, 1]] {
            let v = a.view();
            let any = answer::<f64, false>(&v, &axes).unwrap();
            let all = answer::<f64, true>(&v, &axes).unwrap();
            let ax = Axes::from(axes.clone());
            assert_eq!(any, AnyNan.compute(&v, &ax).unwrap().values, "{axes:?}");
            assert_eq!(all, AllNan.compute(&v, &ax).unwrap().values, "{axes:?}");
        }
        assert!(answer::<f64, false>(&a.view().reversed_axes(), &[0]).is_none());
        let empty = ndarray::ArrayD::<f64>::zeros(IxDyn(&[0, 3]));
        assert_eq!(
            answer::<f64, true>(&empty.view(), &[0]).unwrap().as_slice(),
            Some(&[true; 3][..])
        );
        assert_eq!(answer::<f64, true>(&empty.view(), &[1]).unwrap().len(), 0);
    }

    #[test]
    fn rows_answer_each_column() {
        let (r0, r1) = ([1.0, f64::NAN, f64::NAN], [2.0, 3.0, f64::NAN]);
        let mut nan = [Seen(false); 3];
        seen_in_rows::<f64, false>(&mut nan, &[&r0, &r1]);
        assert_eq!(nan, [Seen(false), Seen(true), Seen(true)]);
        let mut valid = [Seen(false); 3];
        seen_in_rows::<f64, true>(&mut valid, &[&r0, &r1]);
        assert_eq!(valid, [Seen(true), Seen(true), Seen(false)]);
        let mut ints = [Seen(false); 2];
        seen_in_rows::<i64, true>(&mut ints, &[&[1, 2]]);
        assert_eq!(ints, [Seen(true); 2]);
    }
}
