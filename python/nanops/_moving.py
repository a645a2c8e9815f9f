"""General paths of the moving-window family: ``move_*``, ``ffill``,
``bfill`` and ``push``, with bottleneck's argument checks and messages.

The primitives (``_nanops.move_sum`` …, ``_nanops.fill``) take a window in
``1..=len``, a ``min_count`` in ``1..=window`` or ``None`` and one axis; the
helpers here check the caller's arguments first so that a bad one raises the
exception (and message) bottleneck raises.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from . import _nanops
from ._args import as_ndarray, integer_argument, kernel_input

__all__ = ["moving", "moving_ddof", "moving_quantile", "moving_pair", "moving_exp",
           "moving_exp_pair", "exp_alpha_lane", "numbagg_min_count", "real_argument", "fill",
           "push"]

#: The primitives of the exponential functions: ``(x, [y,] alpha, min_weight, axis)``.
ExpPrimitive = Callable[..., np.ndarray]


#: The largest ``limit``/``n`` the primitives take (a ``usize``, more than
#: any axis holds); a larger one is refused with an error that names it.
_MOST: Final = 2**64 - 1


def _count(x: Any, name: str) -> int:
    """``x`` as an int the primitives take (``OverflowError`` naming the
    argument beyond 2**64 - 1, as Python's for an int too large to convert)."""
    n = integer_argument(x, name)
    if n > _MOST:
        raise OverflowError(f"`{name}` ({n}) is too large: at most 2**64 - 1")
    return n


def _input(a: Any, axis: Any) -> tuple[np.ndarray, int]:
    """The primitive's input and the normalised axis (``AxisError``)."""
    x = kernel_input(as_ndarray(a))
    if x.ndim == 0:
        raise ValueError("moving window functions require ndim > 0")
    return x, normalize_axis_index(integer_argument(axis, "axis"), x.ndim)


def _window(x: np.ndarray, ax: int, window: Any, min_count: Any) -> tuple[int, int | None]:
    """``window`` and ``min_count`` checked as bottleneck checks them."""
    w = integer_argument(window, "window")
    n = x.shape[ax]
    if not 1 <= w <= n:
        raise ValueError(f"Moving window (={w}) must between 1 and {n}, inclusive")
    if min_count is None:
        return w, None
    m = integer_argument(min_count, "min_count")
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
    return prim(x, w, m, ax, float(integer_argument(ddof, "ddof")))


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
    qa = np.asarray(q)
    if qa.dtype.kind not in "biuf":  # NumPy's quantile: a TypeError for strings
        raise TypeError(f"q must be real numbers, got {q!r}")
    qa = qa.astype(np.float64)
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


def _one_axis(axis: Any, name: str) -> Any:
    """numbagg's ``axis`` of a function of two series: an int or a 1-tuple."""
    if isinstance(axis, tuple):
        if axis == ():
            raise ValueError("`axis` cannot be an empty tuple when passing more than one "
                             "array; since we default to returning the input.")
        if len(axis) > 1:
            raise ValueError(f"only one axis can be passed to {name}; got {axis}")
        (axis,) = axis
    return axis


def _pair(a: Any, b: Any) -> tuple[np.ndarray, np.ndarray]:
    """``a`` and ``b`` broadcast to one shape and cast to one real dtype
    (NumPy's promotion), as the primitives take them; ``TypeError`` for
    other dtypes, as numbagg's gufuncs refuse them; :class:`Delegate` for a
    subclass or duck array (a masked array's mask is not dropped)."""
    x, y = as_ndarray(a), as_ndarray(b)
    # each step only where needed: a small call costs what its Python costs
    dt = x.dtype if x.dtype == y.dtype else np.result_type(x, y)
    if dt.kind not in "biuf":
        raise TypeError(f"nanops' functions of two series take real numbers, not {dt}")
    if x.dtype != dt or y.dtype != dt:
        x, y = x.astype(dt, copy=False), y.astype(dt, copy=False)
    if x.shape != y.shape:
        x, y = np.broadcast_arrays(x, y)
    if x.ndim == 0:
        raise ValueError("moving window functions require ndim > 0")
    return kernel_input(x), kernel_input(y)


def moving_pair(prim: Callable[..., np.ndarray], a: Any, b: Any, window: Any, min_count: Any,
                axis: Any) -> np.ndarray:
    """``move_cov``/``move_corr`` (``prim``: ``_nanops.move_cov``/``move_corr``)
    with numbagg's checks and messages: ``window`` in ``1..len``, a
    ``min_count`` from 0 to ``window`` (0 as 1), ``axis`` an int or a
    1-tuple; ``a`` and ``b`` broadcast together."""
    ax_arg = _one_axis(axis, prim.__name__)
    x, y = _pair(a, b)
    ax = normalize_axis_index(integer_argument(ax_arg, "axis"), x.ndim)
    w = integer_argument(window, "window")
    if not 0 < w <= x.shape[ax]:
        raise ValueError(f"window not in valid range: {w}")
    return prim(x, y, w, numbagg_min_count(min_count, w), ax)


def numbagg_min_count(min_count: Any, window: int) -> int | None:
    """``min_count`` checked as numbagg checks it against ``window`` (0 to
    ``window``; 0 counts as 1), ``None`` kept (the whole window)."""
    if min_count is None:
        return None
    m = integer_argument(min_count, "min_count")
    if m < 0:
        raise ValueError(f"min_count must be positive: {m}")
    if m > window:
        raise ValueError(f"min_count ({m}) cannot be greater than window ({window})")
    return max(m, 1)


def real_argument(v: Any, what: str) -> np.ndarray:
    """``v`` as an array of bool, integers or floats (``TypeError`` otherwise,
    as numbagg's gufuncs refuse other types)."""
    arr = np.asarray(v)
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{what} must be real numbers, got {v!r}")
    return arr


def moving_exp(prim: ExpPrimitive, a: Any, alpha: Any, min_weight: Any, axis: Any) -> np.ndarray:
    """``move_exp_nan*`` (``prim``: ``_nanops.move_exp_nan*``) with numbagg's
    call: ``alpha`` a scalar or a list broadcast along the axis, a 1-d array
    of the axis length, or an array whose ``axis`` is the moved one and whose
    other axes broadcast to the input's (computed per distinct alpha lane);
    ``axis`` an int or a 1-tuple (``()``: a copy of the input)."""
    if isinstance(axis, tuple) and axis == ():
        return np.array(a, copy=True)
    return _exponential(prim, (kernel_input(as_ndarray(a)),), alpha, min_weight, axis)


def moving_exp_pair(prim: ExpPrimitive, a: Any, b: Any, alpha: Any, min_weight: Any,
                    axis: Any) -> np.ndarray:
    """``move_exp_nancov``/``move_exp_nancorr``: :func:`moving_exp`'s call
    for two series, broadcast together (``axis=()`` is numbagg's
    ``ValueError``)."""
    axis = _one_axis(axis, prim.__name__)
    return _exponential(prim, _pair(a, b), alpha, min_weight, axis)


def _exponential(prim: ExpPrimitive, xs: tuple[np.ndarray, ...], alpha: Any, min_weight: Any,
                 axis: Any) -> np.ndarray:
    """:func:`moving_exp` of the series ``xs`` (one shape, kernel inputs)."""
    name = prim.__name__
    if isinstance(axis, tuple):
        if len(axis) > 1:
            raise ValueError(f"Only one axis can be passed to {name}; got {axis}")
        (axis,) = axis
    x = xs[0]
    axis = integer_argument(axis, "axis")
    ax = normalize_axis_index(axis, x.ndim)
    mw = real_argument(min_weight, "min_weight")
    if mw.ndim != 0:
        raise TypeError(f"min_weight must be a scalar, got an array of shape {mw.shape}")
    weight = float(mw)
    n = x.shape[ax]
    k = len(xs)
    core = ",".join(["(a)"] * (k + 1)) + ",()->(a)"
    mismatch = (f"{name}: Input operand {k} has a mismatch in its core dimension 0, with "
                f"gufunc signature {core} (size {{}} is different from {{}})")
    if not isinstance(alpha, np.ndarray):
        lane = np.broadcast_to(real_argument(alpha, "alpha"), (n,))
    elif alpha.ndim == 0:
        raise ValueError(f"{name}: Input operand {k} does not have enough dimensions (has 0, "
                         f"gufunc core with signature {core} requires 1)")
    elif alpha.ndim == 1:
        lane = real_argument(alpha, "alpha")
        if lane.shape[0] != n:
            raise ValueError(mismatch.format(lane.shape[0], n))
    else:
        return _exp_per_lane(prim, xs, ax, np.moveaxis(real_argument(alpha, "alpha"), axis, -1),
                             weight, mismatch)
    return prim(*xs, exp_alpha_lane(lane), weight, ax)


def exp_alpha_lane(lane: np.ndarray) -> np.ndarray:
    """A lane of alphas (one per position) as the primitives take it:
    contiguous float64, one value where all are equal (the loops without a
    load per step), ``[0.0]`` for an empty axis."""
    lane = np.ascontiguousarray(lane, dtype=np.float64)
    if lane.shape[0] == 0:
        return np.zeros(1)
    if bool((lane == lane[0]).all()):
        return lane[:1]
    return lane


def _exp_per_lane(prim: ExpPrimitive, xs: tuple[np.ndarray, ...], ax: int, alpha: np.ndarray,
                  weight: float, mismatch: str) -> np.ndarray:
    """:func:`moving_exp` for an alpha of two or more dimensions (its moved
    axis last): the lanes that share an alpha lane computed by one call."""
    xm = np.moveaxis(xs[0], ax, -1)
    n = xm.shape[-1]
    if alpha.shape[-1] != n:
        raise ValueError(mismatch.format(alpha.shape[-1], n))
    loop = xm.shape[:-1]
    if np.broadcast_shapes(loop, alpha.shape[:-1]) != loop:
        raise ValueError(f"alpha of shape {alpha.shape} (moved axis last) does not broadcast "
                         f"to the input's shape {xm.shape} along the other axes")
    m = int(np.prod(loop, dtype=np.int64))
    if m == 0 or n == 0:
        return prim(*xs, np.zeros(1), weight, ax)
    lanes = np.ascontiguousarray(np.broadcast_to(alpha, xm.shape), dtype=np.float64).reshape(m, n)
    values = [np.ascontiguousarray(np.moveaxis(x, ax, -1)).reshape(m, n) for x in xs]
    distinct, which = np.unique(lanes, axis=0, return_inverse=True)
    which = which.reshape(-1)
    out: np.ndarray | None = None
    for k in range(distinct.shape[0]):
        rows = np.flatnonzero(which == k)
        r = prim(*(v[rows] for v in values), np.ascontiguousarray(distinct[k]), weight, 1)
        if out is None:
            out = np.empty((m, n), dtype=r.dtype)
        out[rows] = r
    assert out is not None
    return np.ascontiguousarray(np.moveaxis(out.reshape(xm.shape), -1, ax))


def fill(backward: bool, a: Any, limit: Any, axis: Any) -> np.ndarray:
    """``ffill``/``bfill``: ``limit`` is ``None`` or a positive int (pandas')."""
    x, ax = _input(a, axis)
    if limit is not None:
        limit = _count(limit, "limit")
        if limit <= 0:
            raise ValueError("Limit must be greater than 0")
    return _nanops.fill(x, limit, ax, backward)


def push(a: Any, n: Any, axis: Any) -> np.ndarray:
    """bottleneck's ``push``: ``n`` is ``None`` or a non-negative int."""
    x, ax = _input(a, axis)
    if n is not None:
        n = _count(n, "n")
        if n < 0:
            raise ValueError("`n` must be nonnegative")
    return _nanops.fill(x, n, ax, False)
