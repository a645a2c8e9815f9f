"""General paths of the functions that rearrange or rewrite values rather
than reduce them: bottleneck's ``rankdata``, ``nanrankdata`` and ``replace``,
with its argument checks and messages, and the fallbacks for inputs the
primitives lack (NumPy operations, as bottleneck's own slow paths); NumPy's
``partition`` and ``argpartition`` (bottleneck's are the same call), whose
fallback is NumPy's own.
"""

from __future__ import annotations

import numbers
import operator
from typing import Any

import numpy as np

from . import _nanops
from ._args import (
    KERNEL_CHARS,
    Delegate,
    as_ndarray,
    index_axis,
    integer_argument,
    kernel_input,
)

__all__ = [
    "rank",
    "rankdata_fallback",
    "nanrankdata_fallback",
    "partition",
    "replace",
]


def _lanes(x: np.ndarray, axis: Any) -> tuple[np.ndarray, int]:
    """``x`` and the axis its lanes run along: ``axis=None`` flattens ``x``
    in C order (bottleneck's ``axis=None``); an int out of range is an
    ``AxisError`` (a ``ValueError``) with bottleneck's message."""
    if axis is None:
        return x.reshape(-1), 0
    ax = integer_argument(axis, "axis")
    if not -x.ndim <= ax < x.ndim:
        # bottleneck names a negative axis after adding the dimensions
        shown = ax + x.ndim if ax < 0 else ax
        raise np.exceptions.AxisError(f"axis(={shown}) out of bounds")
    return x, ax % x.ndim


def _real_input(a: Any) -> np.ndarray:
    """``a`` as the primitives take it (real dtypes), or :class:`Delegate`."""
    x = kernel_input(as_ndarray(a))
    if x.dtype.kind == "c":
        raise Delegate
    return x


# --- rankdata / nanrankdata ------------------------------------------------


def rank(nan_ranked: bool, a: Any, axis: Any) -> np.ndarray:
    """``rankdata`` (``nan_ranked``: NaN ranked last) or ``nanrankdata``."""
    x, ax = _lanes(_real_input(a), axis)
    return _nanops.rankdata(x, ax, nan_ranked)


def _rank_lane(v: np.ndarray, nan_ranked: bool) -> np.ndarray:
    """The ranks of one lane with NumPy operations: a stable argsort, then
    the mean rank of each run of equal values (a NaN is never equal)."""
    order = np.argsort(v, kind="stable")
    s = v[order]
    nan = np.not_equal(s, s, dtype=bool)
    starts_run = np.ones(s.size, dtype=bool)
    starts_run[1:] = np.not_equal(s[1:], s[:-1], dtype=bool) | nan[1:]
    starts = np.flatnonzero(starts_run)
    ends = np.append(starts[1:], s.size)
    ranks = np.empty(s.size)
    ranks[order] = np.repeat((starts + 1 + ends) / 2.0, ends - starts)
    if not nan_ranked:
        ranks[order[nan]] = np.nan
    return ranks


def _rank_fallback(nan_ranked: bool, a: Any, axis: Any) -> np.ndarray:
    x, ax = _lanes(np.asarray(a), axis)
    out = np.empty(x.shape)
    if x.size:
        out[...] = np.apply_along_axis(_rank_lane, ax, x, nan_ranked)
    return out


def rankdata_fallback(a: Any, axis: Any = None) -> np.ndarray:
    """``rankdata`` with NumPy operations (complex, object, subclasses)."""
    return _rank_fallback(True, a, axis)


def nanrankdata_fallback(a: Any, axis: Any = None) -> np.ndarray:
    """``nanrankdata`` with NumPy operations (complex, object, subclasses)."""
    return _rank_fallback(False, a, axis)


# --- partition / argpartition ----------------------------------------------


def partition(arg: bool, a: Any, kth: Any, axis: Any, kind: Any, order: Any) -> np.ndarray:
    """``np.partition`` (``arg``: ``np.argpartition``) for one int ``kth``
    in range, the default ``kind`` and no ``order``; NumPy takes the rest
    (a sequence of ``kth``, 0-d input, and its own errors)."""
    if kind != "introselect" or order is not None or type(kth) is bool:
        raise Delegate
    given = as_ndarray(a)
    x = _real_input(given)
    if x.ndim == 0:
        raise Delegate
    ax = 0 if axis is None else index_axis(axis, x.ndim)
    if axis is None:
        x = x.reshape(-1)
    if ax is None:  # no axis of a 0-d array (checked above; for the types)
        raise Delegate
    n = x.shape[ax]
    try:
        k = operator.index(kth)
    except TypeError:
        raise Delegate from None
    if not -n <= k < n:
        raise Delegate
    res = (_nanops.argpartition if arg else _nanops.partition)(x, k % n, ax)  # n > 0: -n <= k < n
    if not arg and res.dtype != given.dtype:
        res = res.astype(given.dtype)  # a byte-swapped input's order, as NumPy's copy
    # NumPy's copy keeps a memory-mapped input's class (as bottleneck's)
    return res.view(np.memmap) if type(a) is np.memmap else res


# --- replace ---------------------------------------------------------------

#: The integer dtypes bottleneck's compiled ``replace`` takes: a value out
#: of their range is its ``ValueError``; other integer dtypes follow NumPy.
_BOTTLENECK_INTS = frozenset(np.dtype(c) for c in "il" if np.dtype(c).itemsize in (4, 8))


def _is_nan(x: Any) -> bool:
    return x != x


def _too_large(x: Any) -> bool:
    try:
        float(x)
    except OverflowError:
        return True
    return False


def _as_int(x: Any, name: str, dt: np.dtype[Any]) -> int | None:
    """``x`` as a value of the integer dtype ``dt`` (``None``: an ``old`` no
    value of ``dt`` equals), with bottleneck's errors for a value that is
    not a whole number, and for one out of range."""
    if isinstance(x, (float, np.floating)) and not (np.isfinite(x) and x == int(x)):
        raise ValueError(f"Cannot safely cast `{name}` to int")
    v = int(x)
    info = np.iinfo(dt)
    if info.min <= v <= info.max:
        return v
    if dt in _BOTTLENECK_INTS:
        raise ValueError(f"Cannot safely cast `{name}` to int")
    if name == "old":
        return None
    raise OverflowError(f"Python integer {v} out of bounds for {dt}")


def replace(a: Any, old: Any, new: Any) -> Any:
    """bottleneck's ``replace``: every value of ``a`` equal to ``old`` (every
    NaN if ``old`` is NaN) set to ``new``, in place; returns ``a``."""
    if not isinstance(a, np.ndarray):
        raise TypeError("works in place so input must be an array, not (e.g.) a list")
    for value, name in ((old, "old"), (new, "new")):
        # bottleneck's rule: a real number a double holds (not complex, not
        # an int beyond every float)
        if not isinstance(value, numbers.Real) or _too_large(value):
            raise TypeError(f"`{name}` must be a number")
    x = a if type(a) is np.ndarray else a.view(np.ndarray)
    if not x.flags.writeable:
        raise ValueError("assignment destination is read-only")
    kind = x.dtype.kind
    if kind in "iu":
        if _is_nan(old):
            return a
        o, n = _as_int(old, "old", x.dtype), _as_int(new, "new", x.dtype)
        if o is None:
            return a
        old, new = o, n
    if kind in "iufc" and x.dtype.char in KERNEL_CHARS and x.dtype.isnative and x.flags.aligned:
        with np.errstate(over="ignore"):
            pair = np.array([old, new], dtype=x.dtype)
        _nanops.replace(x, pair)
    else:
        hits = np.not_equal(x, x, dtype=bool) if _is_nan(old) else x == old
        x[hits] = new
    return a
