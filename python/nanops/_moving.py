"""General paths of the moving-window family: ``move_*``, ``ffill``,
``bfill`` and ``push``, with bottleneck's argument checks and messages.

The primitives (``_nanops.move_sum`` …, ``_nanops.fill``) take a window in
``1..=len``, a ``min_count`` in ``1..=window`` or ``None`` and one axis; the
helpers here check the caller's arguments first so that a bad one raises the
exception (and message) bottleneck raises.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from . import _nanops
from ._args import as_ndarray, kernel_input

__all__ = ["moving", "moving_ddof", "moving_quantile", "fill", "push"]


def _integer(x: Any, name: str) -> int:
    """``x`` as an int (``TypeError`` as bottleneck's for a non-integer)."""
    if isinstance(x, (bool, np.bool_)):
        raise TypeError(f"`{name}` must be an integer")
    try:
        return operator.index(x)
    except TypeError:
        raise TypeError(f"`{name}` must be an integer") from None


def _input(a: Any, axis: Any) -> tuple[np.ndarray, int]:
    """The primitive's input and the normalised axis (``AxisError``)."""
    x = kernel_input(as_ndarray(a))
    if x.ndim == 0:
        raise ValueError("moving window functions require ndim > 0")
    return x, normalize_axis_index(_integer(axis, "axis"), x.ndim)


def _window(x: np.ndarray, ax: int, window: Any, min_count: Any) -> tuple[int, int | None]:
    """``window`` and ``min_count`` checked as bottleneck checks them."""
    w = _integer(window, "window")
    n = x.shape[ax]
    if not 1 <= w <= n:
        raise ValueError(f"Moving window (={w}) must between 1 and {n}, inclusive")
    if min_count is None:
        return w, None
    m = _integer(min_count, "min_count")
    if m <= 0:
        raise ValueError("`min_count` must be greater than zero.")
    if m > w:
        raise ValueError(f"min_count ({m}) cannot be greater than window ({w})")
    return w, m


def moving(
    prim: Callable[[np.ndarray, int, int | None, int], np.ndarray],
    a: Any,
    window: Any,
    min_count: Any,
    axis: Any,
) -> np.ndarray:
    """``move_sum``/``move_mean``/``move_count``/``move_min``/``move_max``/
    ``move_argmin``/``move_argmax`` (``prim``: ``_nanops.move_*``)."""
    x, ax = _input(a, axis)
    w, m = _window(x, ax, window, min_count)
    return prim(x, w, m, ax)


def moving_ddof(
    prim: Callable[[np.ndarray, int, int | None, int, float], np.ndarray],
    a: Any,
    window: Any,
    min_count: Any,
    axis: Any,
    ddof: Any,
) -> np.ndarray:
    """``move_var``/``move_std`` (``prim``: ``_nanops.move_var``/``move_std``)."""
    x, ax = _input(a, axis)
    w, m = _window(x, ax, window, min_count)
    return prim(x, w, m, ax, float(_integer(ddof, "ddof")))


def moving_quantile(
    a: Any,
    window: Any,
    q: Any,
    min_count: Any,
    axis: Any,
    method: Any,
) -> np.ndarray:
    """``move_quantile``: ``q`` a scalar or 1-d in ``[0, 1]`` (``nanquantile``'s
    checks and messages), its shape prepended to the result's; each ``q``
    computed as a Python float by ``_nanops.move_quantile``."""
    x, ax = _input(a, axis)
    w, m = _window(x, ax, window, min_count)
    qa = np.asarray(q, dtype=np.float64)
    if qa.ndim > 1:
        raise ValueError("q must be a scalar or 1d")
    if not np.all((qa >= 0) & (qa <= 1)):
        raise ValueError("Quantiles must be in the range [0, 1]")
    if not isinstance(method, str):
        raise ValueError(f"{method!r} is not a valid method.")
    if qa.ndim == 0:
        return _nanops.move_quantile(x, w, m, ax, float(qa), method)
    first = _nanops.move_quantile(x, w, m, ax, float(qa[0]) if qa.size else 0.5, method)
    out = np.empty((qa.size,) + first.shape, dtype=first.dtype)
    if qa.size:
        out[0] = first
    for i in range(1, qa.size):
        out[i] = _nanops.move_quantile(x, w, m, ax, float(qa[i]), method)
    return out


def fill(backward: bool, a: Any, limit: Any, axis: Any) -> np.ndarray:
    """``ffill``/``bfill``: ``limit`` is ``None`` or a positive int (pandas')."""
    x, ax = _input(a, axis)
    if limit is not None:
        limit = _integer(limit, "limit")
        if limit <= 0:
            raise ValueError("Limit must be greater than 0")
    return _nanops.fill(x, limit, ax, backward)


def push(a: Any, n: Any, axis: Any) -> np.ndarray:
    """bottleneck's ``push``: ``n`` is ``None`` or a non-negative int."""
    x, ax = _input(a, axis)
    if n is not None:
        n = _integer(n, "n")
        if n < 0:
            raise ValueError("`n` must be nonnegative")
    return _nanops.fill(x, n, ax, False)
