"""Private compiled module of nanops (Rust, PyO3). Interface contract.

These are the *primitives* the public Python layer (``nanops/__init__.py`` and
friends) builds NumPy's semantics on.  They do no argument parsing beyond type
checks: callers must pass

* ``a``: a base-class ``numpy.ndarray`` (not a subclass), native byte order,
  aligned, of dtype bool, int8/16/32/64, uint8/16/32/64, float16, float32,
  float64, complex64 or complex128; any strides (negative too), any ndim
  (0-d included), zero-size allowed. ``a`` is never modified.
* ``axes``: a tuple of distinct, non-negative, in-range ints, in any order.
  ``()`` reduces nothing (every element is its own slice).

Every returned array is new, C-contiguous, with shape ``a.shape`` minus
``axes`` (0-d when every axis is reduced). NaN means "missing": complex values
are NaN when either part is; integers and bools are never NaN. All primitives
release the GIL while computing. A bad argument raises ``TypeError`` /
``ValueError`` (``numpy.exceptions.AxisError`` for an axis out of range); a
result or scratch buffer too large to allocate (say, a huge zero-stride
broadcast view) raises ``MemoryError`` instead of aborting; no Rust panic
reaches Python (an internal panic would be a ``RuntimeError``).
"""

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = [
    "group_nanmedian",
    "group_nanquantile",
    "group_nansum",
    "group_nanprod",
    "group_nanmean",
    "group_nanvar",
    "group_nanmin",
    "group_nanmax",
    "group_nanargmin",
    "group_nanargmax",
    "group_nancount",
    "group_nanfirst",
    "group_nanlast",
    "group_nanany",
    "group_nanall",
    "group_nansum_of_squares",
    "group_nanskew",
    "group_nankurt",
    "nansum",
    "nanprod",
    "nancount",
    "ss",
    "anynan",
    "allnan",
    "rankdata",
    "partition",
    "argpartition",
    "replace",
    "nanmean",
    "nanvar",
    "nanskew",
    "nankurt",
    "nanmin",
    "nanmax",
    "nanargmin",
    "nanargmax",
    "nancumsum",
    "nancumprod",
    "fast_nansum",
    "fast_nanprod",
    "fast_ss",
    "fast_nanflag",
    "fast_replace",
    "fast_rankdata",
    "fast_partition",
    "fast_nanmean",
    "fast_nanvar",
    "fast_nanextremum",
    "fast_nanarg",
    "fast_nanmedian",
    "fast_nanquantile",
    "nanquantile",
    "order_ranks",
    "order_of_ranks",
    "grid_brackets",
    "bracket_select",
    "group_by_owner",
    "partial_states",
    "group_partial_states",
    "nanmedian",
    "move_sum",
    "move_mean",
    "move_var",
    "move_std",
    "move_min",
    "move_max",
    "move_argmin",
    "move_argmax",
    "move_count",
    "move_median",
    "move_quantile",
    "move_rank",
    "move_cov",
    "move_corr",
    "move_exp_nanmean",
    "move_exp_nansum",
    "move_exp_nanvar",
    "move_exp_nanstd",
    "move_exp_nancount",
    "move_exp_nancov",
    "move_exp_nancorr",
    "co_matrix",
    "move_co_matrix",
    "move_exp_co_matrix",
    "fill",
]

def nansum(a: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """Sum of non-NaN values (empty -> 0).

    Result dtype: bool/int8..int64 -> int64, uint8..uint64 -> uint64 (both
    wrap on overflow, as NumPy), floats and complex keep their dtype
    (accumulated in wider precision: f16 in f32, f32 in f64, f64 compensated).
    """

def nanprod(a: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """Product of non-NaN values (empty -> 1). Result dtype as ``nansum``."""

def nancount(a: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """Number of non-NaN values, dtype int64."""

def ss(a: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """Sum of squares, NaN propagated (bottleneck's ``ss``); ``nansum``'s
    result dtype (int32 kept, as bottleneck's) and accumulation."""

def anynan(a: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """Whether each slice holds a NaN (bool; false for an empty slice)."""

def allnan(a: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """Whether each slice is all NaN (bool; true for an empty slice)."""

def rankdata(a: np.ndarray, axis: int, nan_ranked: bool) -> np.ndarray:
    """Ranks from 1 along ``axis``, ties averaged, float64; NaN ranked
    last, each apart (``nan_ranked``), or NaN (``nanrankdata``). Real dtypes."""

def partition(a: np.ndarray, kth: int, axis: int) -> np.ndarray:
    """A copy partitioned along ``axis`` at ``kth`` (``0 <= kth < len``
    unless the axis is empty), NaN last. Real dtypes."""

def argpartition(a: np.ndarray, kth: int, axis: int) -> np.ndarray:
    """The positions (int64) that partition along ``axis`` at ``kth``."""

def replace(a: np.ndarray, old_new: np.ndarray) -> None:
    """Every value of the writeable ``a`` equal to ``old_new[0]`` (every NaN
    if that is NaN) set to ``old_new[1]``, in place; ``old_new`` has ``a``'s
    dtype. ``ValueError`` for a read-only ``a``."""

def nanmean(a: np.ndarray, axes: tuple[int, ...]) -> tuple[np.ndarray, bool]:
    """Mean of non-NaN values and whether any slice was empty (its mean is NaN).

    Result dtype: bool/ints -> float64; floats/complex keep their dtype.
    """

def nanvar(
    a: np.ndarray, axes: tuple[int, ...], ddof: float, std: bool
) -> tuple[np.ndarray, bool]:
    """Variance (``std=True``: standard deviation) of non-NaN values.

    ``sum(|x - mean|**2) / (count - ddof)``; a slice with ``count - ddof <= 0``
    gives NaN and sets the returned flag. Result dtype is real: complex64 ->
    float32, complex128 -> float64, bool/ints -> float64, floats keep theirs.
    """

def nanskew(a: np.ndarray, axes: tuple[int, ...], bias: bool) -> tuple[np.ndarray, bool]:
    """Skewness of non-NaN values, as ``scipy.stats.skew(..., nan_policy="omit")``,
    and whether any slice had fewer than two values.

    Real input only (``TypeError`` for complex); result dtype as ``nanvar``'s.
    NaN where ``m2 <= (eps * mean)**2`` (``eps`` of the result dtype; scipy's
    rule) and for slices of fewer than two values.
    """

def nankurt(
    a: np.ndarray, axes: tuple[int, ...], bias: bool, fisher: bool
) -> tuple[np.ndarray, bool]:
    """Kurtosis of non-NaN values, as ``scipy.stats.kurtosis(..., nan_policy="omit")``
    (``fisher``: minus 3), and whether any slice had fewer than two values. As
    ``nanskew`` otherwise."""

def nanmin(a: np.ndarray, axes: tuple[int, ...]) -> tuple[np.ndarray, bool]:
    """Minimum ignoring NaN, and whether any slice was all-NaN (result NaN there).

    Result dtype = ``a.dtype``. Complex values order lexicographically (real,
    then imaginary), as NumPy. Raises ``ValueError`` when a reduced axis has
    length 0 and the output is not empty (no identity).
    """

def nanmax(a: np.ndarray, axes: tuple[int, ...]) -> tuple[np.ndarray, bool]:
    """Maximum ignoring NaN; see ``nanmin``."""

def nanargmin(a: np.ndarray, axis: int | None) -> np.ndarray:
    """Index of the first minimum ignoring NaN, int64 (0-d for ``axis=None``,
    which indexes the C-order flattened array).

    Raises ``ValueError("All-NaN slice encountered")`` for an all-NaN slice and
    ``ValueError("attempt to get argmin of an empty sequence")`` for an empty one.
    """

def nanargmax(a: np.ndarray, axis: int | None) -> np.ndarray:
    """Index of the first maximum ignoring NaN; see ``nanargmin``."""

def nancumsum(a: np.ndarray, axis: int | None) -> np.ndarray:
    """Cumulative sum treating NaN as 0, same shape as ``a`` (``axis=None``:
    over the C-order flattened array, 1-D). Result dtype as ``nansum``."""

def nancumprod(a: np.ndarray, axis: int | None) -> np.ndarray:
    """Cumulative product treating NaN as 1; see ``nancumsum``."""

def nanquantile(
    a: np.ndarray,
    q: npt.NDArray[np.float64],
    axes: tuple[int, ...],
    method: str,
    weights: np.ndarray | None,
    ignore_nan: bool,
    q_dtype: str = "f8",
    result: str | None = None,
) -> tuple[np.ndarray, bool]:
    """Quantiles of each slice; result shape ``q.shape + reduced shape``.

    ``q`` is a float64 array of any shape with values in [0, 1] (checked by the
    caller; out of range raises ValueError). ``method`` is one of NumPy's 13
    method names. ``weights``: None or a float64 array of ``a``'s shape (a
    broadcast view is fine), non-negative; only for ``inverted_cdf`` and
    ``averaged_inverted_cdf``.
    ``ignore_nan=True``: NaNs are dropped, an empty/all-NaN slice gives NaN and
    sets the flag. ``ignore_nan=False``: a slice with any NaN gives NaN (flag
    is set only for empty slices). Complex input raises ``TypeError``.

    NumPy's precision rules (to reproduce its bits):
    ``q_dtype`` is the dtype ``q`` had in the call: "f8" (float64 array, list,
    or Python float), "f4", "f2", or "int" (integer q); it sets the precision
    of the index arithmetic. ``result`` is NumPy's result dtype, "f2"/"f4"/"f8",
    in which the interpolation runs: for a Python-float (weak) scalar q it is
    the input's float dtype; for a q array it is ``promote(a.dtype, q.dtype)``;
    integer/bool input always "f8". ``None`` means the input's float dtype
    (float64 for integers/bool). A result narrower than the input's float dtype
    raises ``TypeError``.
    """

def nanmedian(
    a: np.ndarray, axes: tuple[int, ...], ignore_nan: bool
) -> tuple[np.ndarray, bool]:
    """Median of each slice and whether any slice was empty (or all-NaN).

    ``ignore_nan=False``: a slice with any NaN gives NaN. Result dtype: float
    inputs keep theirs, bool/ints -> float64. The mean of the two middle values
    is NumPy's, bit for bit, but does not overflow (``[1.7e308, 1.7e308]`` ->
    1.7e308). Complex input raises ``TypeError``.
    """

# --- fast entry points ------------------------------------------------------
# The common call checked and computed in one step. ``a`` and ``axis`` are the
# caller's, unchecked: when ``a`` is a base-class, aligned, native-byte-order
# ndarray of a primitive dtype (``int64`` as ``long``, not ``long long``; mean,
# var and std: floats and complex only) with at most 32 dimensions, and
# ``axis`` is ``None`` or an in-range ``int`` (not a bool or NumPy integer),
# the result is returned, a 0-d one as a NumPy scalar; otherwise
# ``NotImplemented``, and the caller takes its general path.
# ``fast_nanextremum`` and ``fast_nanarg`` also answer ``NotImplemented`` for
# a zero-size ``a`` (NumPy's errors come from the general path).

def fast_nansum(a: object, axis: object) -> object:
    """``nansum`` of the fast path, or ``NotImplemented``."""

def fast_nanprod(a: object, axis: object) -> object:
    """``nanprod`` of the fast path, or ``NotImplemented``."""

def fast_ss(a: object, axis: object) -> object:
    """``ss`` of the fast path (int32 kept), or ``NotImplemented``."""

def fast_replace(a: object, old: object, new: object) -> object:
    """``replace`` in place for an exact, writeable, contiguous float64,
    float32, int64 or int32 array and Python float/int values (ints only,
    in range, for integer arrays): returns ``a``; else ``NotImplemented``."""

def fast_rankdata(a: object, axis: object, nan_ranked: bool) -> object:
    """``rankdata`` (``nan_ranked``) or ``nanrankdata`` of an exact ndarray
    of a real dtype (``axis=None``: C-contiguous), or ``NotImplemented``."""

def fast_partition(a: object, kth: object, axis: object, arg: bool) -> object:
    """``partition`` (``arg``: ``argpartition``) for an int ``kth`` in range
    of an exact ndarray of a real dtype, or ``NotImplemented``."""

def fast_nanflag(a: object, axis: object, all: bool) -> object:
    """``anynan`` (``all``: ``allnan``) of the fast path, a Python bool for
    ``axis=None``, or ``NotImplemented``."""

def fast_nanmean(a: object, axis: object) -> object:
    """``(mean, any slice empty)``, or ``NotImplemented``."""

def fast_nanvar(a: object, axis: object, ddof: float, std: bool) -> object:
    """``(variance or std, any slice with count - ddof <= 0)``, or ``NotImplemented``."""

def fast_nanextremum(a: object, axis: object, max: bool) -> object:
    """``(min or max, any slice all-NaN)``, or ``NotImplemented``."""

def fast_nanarg(a: object, axis: object, max: bool) -> object:
    """Index of the first min or max (``ValueError`` for an all-NaN slice), or ``NotImplemented``."""

def fast_nanmedian(a: object, axis: object) -> object:
    """The median (after warning ``All-NaN slice encountered`` once per
    all-NaN slice, attributed to the caller's caller), or ``NotImplemented``
    (also for a zero-size ``a``)."""

def order_ranks(
    counts: npt.NDArray[np.int64],
    q: Sequence[float],
    method: str,
    q_dtype: str,
    median: bool,
) -> npt.NDArray[np.int64]:
    """For each non-NaN count ``n`` (1-d int64, non-negative: else
    ``ValueError``), the ranks (0-based, ascending) of ``n`` sorted values
    that ``nanquantile(q, method)`` (``q_dtype`` as for :func:`nanquantile`),
    or the median with ``median``, reads: shape ``(len(counts), 2 * len(q))``
    (``(len(counts), 2)`` for the median), rows padded with ``-1``."""

def order_of_ranks(
    counts: npt.NDArray[np.int64],
    at_ranks: np.ndarray,
    q: Sequence[float],
    method: str,
    q_dtype: str,
    median: bool,
    result: str,
) -> np.ndarray:
    """The statistic :func:`order_ranks` planned, from the values at its
    ranks (``at_ranks``: float64/float32/float16 of :func:`order_ranks`'s
    shape, each row's first values those of its ranks): shape ``(len(q),
    len(counts))`` (``(1, len(counts))`` for the median) in the dtype
    ``result`` (``"f8"``, ``"f4"``, ``"f2"``, no narrower than the values'),
    bit for bit :func:`nanquantile`/:func:`nanmedian` of the whole slice."""

def grid_brackets(
    grids: np.ndarray,
    counts: npt.NDArray[np.int64],
    k: int,
    targets_lo: npt.NDArray[np.int64],
    targets_hi: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Brackets ``(lo, hi)``, each ``(lanes, brackets)`` float64 (NaN where
    ``targets_lo`` is -1), holding the ranks ``targets_lo ..= targets_hi`` of
    each lane, from every chunk's grid (``grids``: ``(chunks, lanes, k + 1)``
    float64/32/16, the values at the grid ranks of ``counts[chunk, lane]``
    valid values)."""

def bracket_select(
    lanes: np.ndarray,
    lo: npt.NDArray[np.float64],
    hi: npt.NDArray[np.float64],
    columns: Sequence[int],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64],
           tuple[np.ndarray, ...], tuple[npt.NDArray[np.int32], ...]]:
    """One pass over a chunk's ``lanes`` (``(length, lanes)``, float64/32/16)
    against the brackets ``lo``/``hi`` (``(lanes, brackets)``) in
    ``columns``: the counts below ``lo``, at ``lo`` and at ``hi`` (``(lanes,
    len(columns))``), and per column the values strictly inside with their
    lanes (ascending)."""

def group_by_owner(
    values: np.ndarray, owner: npt.NDArray[np.int32], lanes: int
) -> tuple[np.ndarray, npt.NDArray[np.int64]]:
    """``values`` (1-d float64/32/16, no NaN) sorted by their lane
    (``owner``, in ``0..lanes``), then ascending, and each lane's count."""

def partial_states(name: str, a: np.ndarray, axes: Sequence[int]) -> tuple[np.ndarray, ...]:
    """The partial states of the reduction ``name`` (``nansum``, ``nanprod``,
    ``nancount``, ``nanmean``, ``nanvar``, ``nanstd``, ``nanmin``, ``nanmax``,
    ``nanskew``, ``nankurt``; else ``ValueError``) over ``axes`` (normalised)
    of ``a``, one per output with the reduced axes dropped, in one pass of
    the reduction's kernels: a tuple of field arrays in the order of
    ``nanops.states.state_dtype(name, a.dtype)`` (``n`` int64, float64 for
    skewness/kurtosis; sums, means and moments float64 or complex128
    (float16 accumulated in float32); integer sums and products wrapping in
    int64 for signed and bool input, uint64 for unsigned; ``value`` of
    ``a``'s dtype, NaN (0 for integers) without a value). Complex ``a`` to
    ``nanskew``/``nankurt``: ``TypeError``."""

def group_partial_states(
    name: str,
    a: np.ndarray,
    labels: npt.NDArray[np.int64],
    axes: Sequence[int],
    num_labels: int | None,
) -> tuple[np.ndarray, ...]:
    """The per-label partial states of the reduction ``name`` (``nanprod``;
    else ``ValueError``) over ``axes`` (increasing) of ``a``: ``labels``
    (int64) has ``a``'s shape along ``axes``, negative labels skipped; one
    state per (output, label), shaped as ``group_<name>``'s result (the other
    axes, then ``num_labels`` groups, ``None``: largest label + 1), as a
    tuple of field arrays in the order of ``nanops.states.state_dtype(name,
    a.dtype)`` (``nanprod``: ``prod`` float64, complex128, or the wrapping
    integer product in int64/uint64, ``exp`` int64, ``zero``, ``inf`` bool).
    One pass of the group function's driver and kernels: finished, the
    states are exactly its result; the states of blocks merge by label."""

def fast_nanquantile(a: object, q: object, axis: object, method: object) -> object:
    """``(quantile, any slice all-NaN)`` for a float ``a`` and a Python-float
    ``q`` in ``[0, 1]`` (the result keeps ``a``'s dtype), or a float64 ``a`` and
    a non-empty list or tuple of such floats (a float64 result, ``q``'s axis
    first), and a known ``method``; or ``NotImplemented`` (also for a
    zero-size ``a``)."""

def move_sum(a: np.ndarray, window: int, min_count: int | None, axis: int) -> np.ndarray:
    """Moving-window sum along ``axis`` (in range, may be negative), NaN skipped.

    ``1 <= window <= a.shape[axis]`` and ``min_count`` ``None`` (the whole
    window) or in ``1..=window`` (otherwise ``ValueError``); real dtypes only
    (``TypeError`` for complex).  Result: ``a.shape``; float16/float32/float64
    keep their dtype, integers and bool give float64; NaN where a window has
    fewer than ``min_count`` non-NaN values.
    """

def move_mean(a: np.ndarray, window: int, min_count: int | None, axis: int) -> np.ndarray:
    """Moving mean; see ``move_sum``."""

def move_var(
    a: np.ndarray, window: int, min_count: int | None, axis: int, ddof: float
) -> np.ndarray:
    """Moving var with ``ddof``; see ``move_sum``."""

def move_std(
    a: np.ndarray, window: int, min_count: int | None, axis: int, ddof: float
) -> np.ndarray:
    """Moving std with ``ddof``; see ``move_sum``."""

def move_min(a: np.ndarray, window: int, min_count: int | None, axis: int) -> np.ndarray:
    """Moving min; see ``move_sum``."""

def move_max(a: np.ndarray, window: int, min_count: int | None, axis: int) -> np.ndarray:
    """Moving max; see ``move_sum``."""

def move_argmin(a: np.ndarray, window: int, min_count: int | None, axis: int) -> np.ndarray:
    """Moving argmin; see ``move_sum``."""

def move_argmax(a: np.ndarray, window: int, min_count: int | None, axis: int) -> np.ndarray:
    """Moving argmax; see ``move_sum``."""

def move_count(a: np.ndarray, window: int, min_count: int | None, axis: int) -> np.ndarray:
    """Moving count; see ``move_sum``."""

def move_median(a: np.ndarray, window: int, min_count: int | None, axis: int) -> np.ndarray:
    """Moving median (``nanmedian`` of each window); see ``move_sum``."""

def move_quantile(
    a: np.ndarray, window: int, min_count: int | None, axis: int, q: float, method: str
) -> np.ndarray:
    """Moving quantile ``q`` in ``[0, 1]`` by NumPy's ``method``
    (``nanquantile`` of each window with ``q`` a Python float); see
    ``move_sum``. ``ValueError`` for an unknown method or a bad ``q``."""

def move_rank(a: np.ndarray, window: int, min_count: int | None, axis: int) -> np.ndarray:
    """Moving rank of each value in its window, in ``[-1, 1]``
    (bottleneck's); see ``move_sum``."""

def move_cov(
    a: np.ndarray, b: np.ndarray, window: int, min_count: int | None, axis: int
) -> np.ndarray:
    """Moving covariance (``ddof=1``) of the pairs of ``a`` and ``b`` (one
    dtype and shape) both not NaN, numbagg's; NaN where fewer than
    ``max(min_count, 2)`` pairs (``None``: the window) or an infinity."""

def move_corr(
    a: np.ndarray, b: np.ndarray, window: int, min_count: int | None, axis: int
) -> np.ndarray:
    """Moving correlation of the pairs of ``a`` and ``b``, numbagg's; as
    ``move_cov``, and NaN where a series is constant."""

def move_exp_nanmean(
    a: np.ndarray, alpha: np.ndarray, min_weight: float, axis: int
) -> np.ndarray:
    """Exponentially weighted moving mean, numbagg's; ``alpha`` a
    contiguous float64 array of one value or one per position along
    ``axis``; NaN where the decayed weight is below ``min_weight``."""

def move_exp_nansum(
    a: np.ndarray, alpha: np.ndarray, min_weight: float, axis: int
) -> np.ndarray:
    """Exponentially weighted moving sum (NaN before the first value), numbagg's; ``alpha`` a
    contiguous float64 array of one value or one per position along
    ``axis``; NaN where the decayed weight is below ``min_weight``."""

def move_exp_nanvar(
    a: np.ndarray, alpha: np.ndarray, min_weight: float, axis: int
) -> np.ndarray:
    """Exponentially weighted moving variance (bias-corrected), numbagg's; ``alpha`` a
    contiguous float64 array of one value or one per position along
    ``axis``; NaN where the decayed weight is below ``min_weight``."""

def move_exp_nanstd(
    a: np.ndarray, alpha: np.ndarray, min_weight: float, axis: int
) -> np.ndarray:
    """Exponentially weighted moving standard deviation, numbagg's; ``alpha`` a
    contiguous float64 array of one value or one per position along
    ``axis``; NaN where the decayed weight is below ``min_weight``."""

def move_exp_nancount(
    a: np.ndarray, alpha: np.ndarray, min_weight: float, axis: int
) -> np.ndarray:
    """Exponentially weighted moving count of non-NaN values, numbagg's; ``alpha`` a
    contiguous float64 array of one value or one per position along
    ``axis``; NaN where the decayed weight is below ``min_weight``."""

def move_exp_nancov(
    a: np.ndarray, b: np.ndarray, alpha: np.ndarray, min_weight: float, axis: int
) -> np.ndarray:
    """Exponentially weighted covariance of ``a`` and ``b`` (one dtype and
    shape), numbagg's; ``alpha`` as ``move_exp_nanmean``'s."""

def move_exp_nancorr(
    a: np.ndarray, b: np.ndarray, alpha: np.ndarray, min_weight: float, axis: int
) -> np.ndarray:
    """Exponentially weighted correlation of ``a`` and ``b`` (one dtype and
    shape), numbagg's; ``alpha`` as ``move_exp_nanmean``'s."""

def co_matrix(a: np.ndarray, corr: bool) -> np.ndarray:
    """Covariance (``corr``: correlation) matrix of ``a`` of shape
    ``(..., vars, obs)`` over its last axis, pairwise complete, numbagg's
    ``nancovmatrix``/``nancorrmatrix``: ``(..., vars, vars)``."""

def move_co_matrix(
    a: np.ndarray, window: int, min_count: int | None, corr: bool
) -> np.ndarray:
    """Moving covariance (``corr``: correlation) matrix of ``a`` of shape
    ``(..., obs, vars)``, numbagg's ``move_covmatrix``/``move_corrmatrix``:
    ``(..., obs, vars, vars)``, ``move_cov`` of each pair."""

def move_exp_co_matrix(
    a: np.ndarray, alpha: np.ndarray, min_weight: float, corr: bool
) -> np.ndarray:
    """Exponentially weighted covariance (``corr``: correlation) matrix of
    ``a`` of shape ``(..., obs, vars)``, numbagg's
    ``move_exp_nancovmatrix``/``move_exp_nancorrmatrix``; ``alpha`` as
    ``move_exp_nanmean``'s."""

def fill(a: np.ndarray, limit: int | None, axis: int, backward: bool) -> np.ndarray:
    """NaN replaced by the nearest non-NaN value before it (``backward``:
    after it) along ``axis``, at most ``limit`` positions away (``None``: any);
    the input's dtype and shape."""

def group_nansum(
    a: np.ndarray,
    labels: npt.NDArray[np.int64],
    axes: tuple[int, ...],
    num_labels: int | None,
) -> np.ndarray:
    """``nansum`` per label: ``labels`` (int64) has ``a``'s shape along ``axes``
    (increasing), negative labels skipped; the result has the other axes, then
    ``num_labels`` (``None``: largest label + 1)."""
def group_nanprod(
    a: np.ndarray,
    labels: npt.NDArray[np.int64],
    axes: tuple[int, ...],
    num_labels: int | None,
) -> np.ndarray:
    """``nanprod`` per label: ``labels`` (int64) has ``a``'s shape along ``axes``
    (increasing), negative labels skipped; the result has the other axes, then
    ``num_labels`` (``None``: largest label + 1)."""
def group_nanmean(
    a: np.ndarray,
    labels: npt.NDArray[np.int64],
    axes: tuple[int, ...],
    num_labels: int | None,
) -> np.ndarray:
    """``nanmean`` per label: ``labels`` (int64) has ``a``'s shape along ``axes``
    (increasing), negative labels skipped; the result has the other axes, then
    ``num_labels`` (``None``: largest label + 1)."""
def group_nanvar(
    a: np.ndarray,
    labels: npt.NDArray[np.int64],
    axes: tuple[int, ...],
    num_labels: int | None, ddof: float, std: bool,
) -> np.ndarray:
    """``nanvar`` per label: ``labels`` (int64) has ``a``'s shape along ``axes``
    (increasing), negative labels skipped; the result has the other axes, then
    ``num_labels`` (``None``: largest label + 1). ``std``: the standard deviation."""
def group_nanmin(
    a: np.ndarray,
    labels: npt.NDArray[np.int64],
    axes: tuple[int, ...],
    num_labels: int | None,
) -> np.ndarray:
    """``nanmin`` per label: ``labels`` (int64) has ``a``'s shape along ``axes``
    (increasing), negative labels skipped; the result has the other axes, then
    ``num_labels`` (``None``: largest label + 1)."""
def group_nanmax(
    a: np.ndarray,
    labels: npt.NDArray[np.int64],
    axes: tuple[int, ...],
    num_labels: int | None,
) -> np.ndarray:
    """``nanmax`` per label: ``labels`` (int64) has ``a``'s shape along ``axes``
    (increasing), negative labels skipped; the result has the other axes, then
    ``num_labels`` (``None``: largest label + 1)."""
def group_nanargmin(
    a: np.ndarray,
    labels: npt.NDArray[np.int64],
    axes: tuple[int, ...],
    num_labels: int | None,
) -> np.ndarray:
    """``nanargmin`` per label: ``labels`` (int64) has ``a``'s shape along ``axes``
    (increasing), negative labels skipped; the result has the other axes, then
    ``num_labels`` (``None``: largest label + 1)."""
def group_nanargmax(
    a: np.ndarray,
    labels: npt.NDArray[np.int64],
    axes: tuple[int, ...],
    num_labels: int | None,
) -> np.ndarray:
    """``nanargmax`` per label: ``labels`` (int64) has ``a``'s shape along ``axes``
    (increasing), negative labels skipped; the result has the other axes, then
    ``num_labels`` (``None``: largest label + 1)."""
def group_nancount(
    a: np.ndarray,
    labels: npt.NDArray[np.int64],
    axes: tuple[int, ...],
    num_labels: int | None,
) -> np.ndarray:
    """``nancount`` per label: ``labels`` (int64) has ``a``'s shape along ``axes``
    (increasing), negative labels skipped; the result has the other axes, then
    ``num_labels`` (``None``: largest label + 1)."""
def group_nanfirst(
    a: np.ndarray,
    labels: npt.NDArray[np.int64],
    axes: tuple[int, ...],
    num_labels: int | None,
) -> np.ndarray:
    """``nanfirst`` per label: ``labels`` (int64) has ``a``'s shape along ``axes``
    (increasing), negative labels skipped; the result has the other axes, then
    ``num_labels`` (``None``: largest label + 1)."""
def group_nanlast(
    a: np.ndarray,
    labels: npt.NDArray[np.int64],
    axes: tuple[int, ...],
    num_labels: int | None,
) -> np.ndarray:
    """``nanlast`` per label: ``labels`` (int64) has ``a``'s shape along ``axes``
    (increasing), negative labels skipped; the result has the other axes, then
    ``num_labels`` (``None``: largest label + 1)."""
def group_nanany(
    a: np.ndarray,
    labels: npt.NDArray[np.int64],
    axes: tuple[int, ...],
    num_labels: int | None,
) -> np.ndarray:
    """``nanany`` per label: ``labels`` (int64) has ``a``'s shape along ``axes``
    (increasing), negative labels skipped; the result has the other axes, then
    ``num_labels`` (``None``: largest label + 1)."""
def group_nanall(
    a: np.ndarray,
    labels: npt.NDArray[np.int64],
    axes: tuple[int, ...],
    num_labels: int | None,
) -> np.ndarray:
    """``nanall`` per label: ``labels`` (int64) has ``a``'s shape along ``axes``
    (increasing), negative labels skipped; the result has the other axes, then
    ``num_labels`` (``None``: largest label + 1)."""
def group_nansum_of_squares(
    a: np.ndarray,
    labels: npt.NDArray[np.int64],
    axes: tuple[int, ...],
    num_labels: int | None,
) -> np.ndarray:
    """``nansum_of_squares`` per label: ``labels`` (int64) has ``a``'s shape along ``axes``
    (increasing), negative labels skipped; the result has the other axes, then
    ``num_labels`` (``None``: largest label + 1)."""
def group_nanskew(
    a: np.ndarray,
    labels: npt.NDArray[np.int64],
    axes: tuple[int, ...],
    num_labels: int | None, bias: bool,
) -> np.ndarray:
    """``nanskew`` per label: ``labels`` (int64) has ``a``'s shape along ``axes``
    (increasing), negative labels skipped; the result has the other axes, then
    ``num_labels`` (``None``: largest label + 1)."""
def group_nankurt(
    a: np.ndarray,
    labels: npt.NDArray[np.int64],
    axes: tuple[int, ...],
    num_labels: int | None, bias: bool, fisher: bool,
) -> np.ndarray:
    """``nankurt`` per label: ``labels`` (int64) has ``a``'s shape along ``axes``
    (increasing), negative labels skipped; the result has the other axes, then
    ``num_labels`` (``None``: largest label + 1)."""
def group_nanmedian(
    a: np.ndarray,
    labels: npt.NDArray[np.int64],
    axes: tuple[int, ...],
    num_labels: int | None,
) -> np.ndarray:
    """``nanmedian`` per label (see ``group_nansum``); real ``a`` only."""
def group_nanquantile(
    a: np.ndarray,
    labels: npt.NDArray[np.int64],
    axes: tuple[int, ...],
    num_labels: int | None,
    q: list[float],
    method: str,
    weights: npt.NDArray[np.float64] | None,
) -> np.ndarray:
    """``nanquantile`` per label: ``q``'s axis first, then the other axes of
    ``a``, then the labels; ``weights`` of ``labels``' or ``a``'s shape."""
