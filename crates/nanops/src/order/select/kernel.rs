//! Quantiles and medians of one lane by selection on a scratch buffer (never a full sort of
//! a large lane).

use super::apart::{nth_and_next, MAX_APART};
use super::nth::{extreme, first_equal, least, select_nth, small_middles, small_sort};
use super::rank::{pick, Pick};
use crate::element::{contains_nan, SelectFloat};
use crate::options::{QDtype, QuantileMethod};

/// Slices this short are sorted outright (measured: selection does not pay below ~32).
const SORT_BELOW_LEN: usize = 32;

/// Whether sorting `len` values beats selecting `ranks` ranks among them.
///
/// Measured on random `f64` (pdqsort against this module's selection, ranks in adjacent
/// pairs as `linear` asks for): selection wins up to about `sqrt(len)/2` ranks — ~8
/// quantiles of 1000 values, ~80 of 10^5, ~250 of 10^6.
fn sort_is_cheaper(len: usize, ranks: usize) -> bool {
    len < SORT_BELOW_LEN || ranks.saturating_mul(ranks).saturating_mul(4) > len
}

/// Reusable workspace of the quantile kernels.
///
/// Holds the per-`q` plan and the list of wanted ranks (and, for weighted quantiles, the
/// sorted `(value, index)` pairs and cumulative weights). Create one per thread and pass it
/// to every lane: after the first lanes, the kernels allocate nothing.
///
/// ```
/// use nanops::select::{quantiles_in_place, QuantileMethod, QuantileScratch};
///
/// let mut scratch = QuantileScratch::new();
/// let mut out = [0.0; 2];
/// for lane in [[3.0, 1.0, 2.0], [10.0, 30.0, 20.0]] {
///     let mut buffer = lane;
///     quantiles_in_place(&mut buffer, &[0.0, 0.5], QuantileMethod::Linear, &mut scratch, &mut out);
///     assert_eq!(out[1], lane.iter().sum::<f64>() / 3.0);
/// }
/// ```
#[derive(Clone, Debug, Default)]
pub struct QuantileScratch {
    pub(crate) picks: Vec<Pick>,
    pub(crate) ranks: Vec<usize>,
    pub(crate) pairs: Vec<(f64, usize)>,
    pub(crate) cumulative: Vec<f64>,
}

impl QuantileScratch {
    /// An empty workspace (allocates nothing until first used).
    ///
    /// ```
    /// let scratch = nanops::select::QuantileScratch::new();
    /// # let _ = scratch;
    /// ```
    pub fn new() -> Self {
        Self::default()
    }
}

/// Quantiles of one lane, as `np.quantile(values, q, method=method)` with `q` a Python float
/// (or a list of them where `T` is `f64`): `out[i]` gets the quantile for `qs[i]`, bit for
/// bit as NumPy 2.x.
///
/// `values` are the non-NaN values of the lane (`±inf` allowed) in any order; they are
/// reordered (the slice is a scratch buffer). `qs` are probabilities in `[0, 1]`, in any
/// order, duplicates allowed. An empty lane gives NaN everywhere (as does a lane that still
/// holds a NaN, against the contract). No allocation once `scratch` has grown. This is
/// [`quantiles_in_place_with`] with `R = T` and [`QDtype::Float64`].
///
/// ```
/// use nanops::select::{quantiles_in_place, QuantileMethod, QuantileScratch};
///
/// let mut values = [7.0, 1.0, 4.0, 10.0];
/// let mut out = [0.0; 3];
/// let mut scratch = QuantileScratch::new();
/// quantiles_in_place(&mut values, &[0.5, 0.0, 1.0], QuantileMethod::Linear, &mut scratch, &mut out);
/// assert_eq!(out, [5.5, 1.0, 10.0]);
/// quantiles_in_place(&mut values, &[0.5], QuantileMethod::Lower, &mut scratch, &mut out[..1]);
/// assert_eq!(out[0], 4.0);
/// ```
pub fn quantiles_in_place<T: SelectFloat>(
    values: &mut [T],
    qs: &[f64],
    method: QuantileMethod,
    scratch: &mut QuantileScratch,
    out: &mut [T],
) {
    quantiles_in_place_with(values, qs, method, QDtype::Float64, scratch, out);
}

/// Quantiles of one lane with NumPy's arithmetic for a given `q` dtype and result dtype `R`.
///
/// As [`quantiles_in_place`], but the index arithmetic runs in the precision of `q_dtype`
/// and the interpolation in `R`, which must be NumPy's result dtype for the call (see
/// [`QDtype`]): e.g. `np.quantile(float32_array, [0.1, 0.9])` (a list, i.e. a float64 array)
/// is `T = f32, R = f64, QDtype::Float64`, and the difference `b - a` is then still computed
/// in `f32`, as NumPy does. Values that need no interpolation are converted to `R` exactly.
///
/// The interpolation is NumPy's `_lerp`:
///
/// ```text
/// d = b - a                      (in T)
/// γ <  0.5:  a + d·γ             (in R, γ rounded to R)
/// γ >= 0.5:  b - d·(1 - γ)       (in R, 1 - γ computed in the q dtype, then rounded to R)
/// ```
///
/// so `inf` neighbours give NaN exactly where NumPy's do (`inf - inf`, `0·inf`).
/// Only `min(qs.len(), out.len())` outputs are written.
///
/// ```
/// use nanops::select::{quantiles_in_place_with, QDtype, QuantileMethod, QuantileScratch};
///
/// let mut values = [1.0f32, 2.0, 4.0];
/// let mut out = [0.0f64; 1];
/// let mut scratch = QuantileScratch::new();
/// quantiles_in_place_with(&mut values, &[0.3], QuantileMethod::Linear, QDtype::Float64,
///                         &mut scratch, &mut out);
/// assert_eq!(out[0], 1.6); // np.quantile(np.float32([1, 2, 4]), [0.3]) -> float64
/// ```
pub fn quantiles_in_place_with<T, R>(
    values: &mut [T],
    qs: &[f64],
    method: QuantileMethod,
    q_dtype: QDtype,
    scratch: &mut QuantileScratch,
    out: &mut [R],
) where
    T: SelectFloat,
    R: SelectFloat + From<T>,
{
    if contains_nan(values) {
        // Against the contract; NaN results, as NumPy's quantile of a lane with NaN.
        out.iter_mut().for_each(|slot| *slot = R::NAN);
        return;
    }
    plan_picks(
        values.len(),
        &qs[..qs.len().min(out.len())],
        method,
        q_dtype,
        scratch,
    );
    select_ranks(values, 0, &scratch.ranks);
    finish_picks(&scratch.picks, |rank| values.get(rank).copied(), out);
}

/// Plans the quantiles `qs` of `n` values: one [`Pick`] per `q` in
/// `scratch.picks`, and the ranks they read, sorted and distinct, in
/// `scratch.ranks`.
pub(crate) fn plan_picks(
    n: usize,
    qs: &[f64],
    method: QuantileMethod,
    q_dtype: QDtype,
    scratch: &mut QuantileScratch,
) {
    scratch.picks.clear();
    scratch.ranks.clear();
    for &q in qs {
        let wanted = pick(n, q, method, q_dtype);
        match wanted {
            Pick::Nan => {}
            Pick::Take(rank) => scratch.ranks.push(rank),
            Pick::Lerp { lo, hi, .. } => {
                scratch.ranks.push(lo);
                if hi != lo {
                    scratch.ranks.push(hi);
                }
            }
        }
        scratch.picks.push(wanted);
    }
    scratch.ranks.sort_unstable();
    scratch.ranks.dedup();
}

/// The quantiles of planned `picks` (see [`plan_picks`]), reading the
/// order statistic of each rank through `value` (`None`: NaN).
pub(crate) fn finish_picks<T, R>(picks: &[Pick], value: impl Fn(usize) -> Option<T>, out: &mut [R])
where
    T: SelectFloat,
    R: SelectFloat + From<T>,
{
    for (slot, wanted) in out.iter_mut().zip(picks) {
        *slot = match *wanted {
            Pick::Nan => R::NAN,
            Pick::Take(rank) => value(rank).map_or(R::NAN, R::from),
            Pick::Lerp {
                lo,
                hi,
                gamma,
                one_minus_gamma,
            } => match (value(lo), value(hi)) {
                (Some(a), Some(b)) => lerp(a, b, gamma, one_minus_gamma),
                _ => R::NAN,
            },
        };
    }
}

/// NumPy's `_lerp(a, b, γ)` with the difference in `T` and the rest in `R` (see
/// [`quantiles_in_place_with`]).
#[inline]
pub(crate) fn lerp<T, R>(a: T, b: T, gamma: f64, one_minus_gamma: f64) -> R
where
    T: SelectFloat,
    R: SelectFloat + From<T>,
{
    let diff = R::from(b - a);
    if gamma >= 0.5 {
        R::from(b) - diff * R::from_f64_nearest(one_minus_gamma)
    } else {
        R::from(a) + diff * R::from_f64_nearest(gamma)
    }
}

/// The median of one lane, as `np.median` (and `np.nanmedian` of the non-NaN values): the
/// middle value, or the mean of the two middle values computed as NumPy's `mean` does, but
/// without overflow (see [`SelectFloat::mean_of_two`]).
///
/// `values` are reordered. An empty lane gives NaN.
///
/// ```text
/// n odd:   x[(n - 1)/2]
/// n even:  mean_of_two(x[n/2 - 1], x[n/2])    f64/f32: (a + b)/2, or a/2 + b/2 on overflow
/// ```
///
/// ```
/// use nanops::select::median_in_place;
///
/// assert_eq!(median_in_place(&mut [3.0, 1.0, 2.0, 10.0]), 2.5);
/// assert_eq!(median_in_place(&mut [1.7e308, 1.7e308]), 1.7e308); // NumPy: inf
/// assert!(median_in_place::<f64>(&mut []).is_nan());
/// ```
pub fn median_in_place<T: SelectFloat>(values: &mut [T]) -> T {
    let n = values.len();
    if n == 0 || contains_nan(values) {
        return T::NAN;
    }
    if let Some((lower, upper)) = small_middles(values) {
        return median_of_middles(n, lower, upper);
    }
    median_by_selection(values)
}

/// [`median_in_place`] of a scratch buffer, whose contents afterwards are
/// unspecified (no longer a permutation): a lane of up to
/// [`MAX_APART`] values is selected by [`nth_and_next`], without the
/// in-place partition's copy back.
pub(crate) fn median_of_scratch<T: SelectFloat>(values: &mut [T]) -> T {
    let n = values.len();
    if n == 0 || contains_nan(values) {
        return T::NAN;
    }
    if let Some((lower, upper)) = small_middles(values) {
        return median_of_middles(n, lower, upper);
    }
    if n <= MAX_APART
        && let Some((lower, next)) = nth_and_next(values, (n - 1) / 2)
    {
        let upper = if n % 2 == 1 { Some(lower) } else { next };
        return upper.map_or(T::NAN, |upper| median_of_middles(n, lower, upper));
    }
    median_by_selection(values)
}

/// The median of NaN-free `values` longer than the sorting networks, by
/// selection in place.
fn median_by_selection<T: SelectFloat>(values: &mut [T]) -> T {
    let n = values.len();
    let middle = n / 2;
    if n % 2 == 1 {
        let (_, median, _) = select_nth(values, middle);
        return *median;
    }
    let (_, lower_middle, right) = select_nth(values, middle - 1);
    let lower_middle = *lower_middle;
    match least(right) {
        Some(upper_middle) => T::mean_of_two(lower_middle, upper_middle),
        None => T::NAN,
    }
}

/// The median of `n` sorted values from its two middle ones,
/// `x[(n − 1)/2]` and `x[n/2]` (the same value for odd `n`).
#[inline(always)]
pub(crate) fn median_of_middles<T: SelectFloat>(n: usize, lower: T, upper: T) -> T {
    if n % 2 == 1 {
        upper
    } else {
        T::mean_of_two(lower, upper)
    }
}

/// Rearranges `values` so that for every rank `r` in `ranks` (sorted, distinct, relative to
/// `offset`, i.e. `values` holds global positions `offset..offset + values.len()`),
/// `values[r - offset]` is the `r`-th smallest value and everything left of it is `<=` and
/// right of it `>=`. `values` must be NaN-free (see `element::ascending`).
///
/// Divide and conquer over the ranks: select the middle wanted rank, then recurse into the
/// two sides with the ranks that fall there, so every level of the recursion partitions
/// disjoint sub-slices (`O(n log k)` for `k` ranks, not `O(n k)`). A wanted neighbour rank
/// `r ± 1` is found by a linear min/max scan of the side instead of another selection.
pub(crate) fn select_ranks<T: SelectFloat>(values: &mut [T], offset: usize, ranks: &[usize]) {
    // Ranks outside the slice would be a caller bug; ignore them rather than panic.
    let len = values.len();
    let ranks = match ranks.iter().position(|&r| r >= offset + len) {
        Some(end) => &ranks[..end],
        None => ranks,
    };
    let ranks = match ranks.iter().position(|&r| r >= offset) {
        Some(start) => &ranks[start..],
        None => return,
    };
    if ranks.is_empty() || len <= 1 {
        return;
    }
    if sort_is_cheaper(len, ranks.len()) {
        small_sort(values); // sorts any length, branch-free up to 16
        return;
    }

    let middle = ranks.len() / 2;
    let pivot = ranks[middle] - offset;
    let (left, _, right) = select_nth(values, pivot);

    let mut left_ranks = &ranks[..middle];
    let mut left = left;
    if let (Some((&last, rest)), Some(end)) = (left_ranks.split_last(), left.len().checked_sub(1))
        && last + 1 == ranks[middle]
    {
        move_max_to_end(left);
        left = &mut left[..end];
        left_ranks = rest;
    }

    let mut right_ranks = &ranks[middle + 1..];
    let mut right = right;
    let mut right_offset = offset + pivot + 1;
    if let Some((&first, rest)) = right_ranks.split_first()
        && first == ranks[middle] + 1
        && !right.is_empty()
    {
        move_min_to_front(right);
        right = &mut right[1..];
        right_offset += 1;
        right_ranks = rest;
    }

    select_ranks(left, offset, left_ranks);
    select_ranks(right, right_offset, right_ranks);
}

/// Swaps the smallest value (its first copy) to the front. No-op on an
/// empty slice. The value by [`extreme`]'s lanes, then its first position
/// by [`first_equal`]'s blocks.
fn move_min_to_front<T: SelectFloat>(values: &mut [T]) {
    let Some(min) = least(values) else {
        return;
    };
    // `==` also matches the other zero: as a scan keeping the first least
    let at = first_equal(values, min).unwrap_or(0);
    values.swap(0, at);
}

/// Swaps the largest value (its first copy) to the back. No-op on an empty
/// slice. As [`move_min_to_front`].
fn move_max_to_end<T: SelectFloat>(values: &mut [T]) {
    let Some(max) = extreme(values, |x, best| x > best) else {
        return;
    };
    let at = first_equal(values, max).unwrap_or(0);
    let end = values.len() - 1;
    values.swap(end, at);
}
