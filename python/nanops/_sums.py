"""General paths of the additive family: sum, prod, cumsum, cumprod, count.

Each helper takes the registry row's constants, then the public function's
parameters in signature order (see :mod:`nanops._registry`), and raises
:class:`~nanops._args.Delegate` for what it hands to the row's fallback.
``count_fallback`` is that fallback for ``nancount`` (NumPy has no such
function): the count done with NumPy operations; ``ss_fallback`` is
bottleneck's own way for the inputs its kernels lack; ``nan_flag`` and its
fallbacks answer ``anynan``/``allnan``, which are counts' yes-or-no forms.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from . import _nanops
from ._args import (
    KERNEL_INEXACT,
    SUM_DTYPE,
    Delegate,
    NoValue,
    apply_where,
    as_ndarray,
    check_out,
    dispatch_free,
    finish_ufunc,
    index_axis,
    keepdims_flag,
    kept_shape,
    kernel_input,
    out_shape,
    ufunc_axes,
    where_mask,
    with_dtype,
)

__all__ = [
    "sum_prod",
    "cumulative",
    "count",
    "count_fallback",
    "ss",
    "ss_fallback",
    "nan_flag",
    "anynan_fallback",
    "allnan_fallback",
]


def _accumulation(
    xdt: np.dtype[Any], natural: np.dtype[Any], comp: np.dtype[Any]
) -> tuple[np.dtype[Any] | None, np.dtype[Any]]:
    """Plan sum/prod/cumsum/cumprod of an ``xdt`` input computed in ``comp``.

    Returns the dtype to cast the input to first (None: no cast) and the
    result dtype.  ``natural`` is what the primitive returns for ``xdt``.
    Integer results are cast afterwards (wrapping sums and products commute
    with the cast); an inexact ``comp`` other than ``natural`` casts the
    input first (a copy, so that rounding happens as NumPy's does).  Other
    combinations (float to integer or bool, complex to real, long double) go
    to NumPy.
    """
    if comp is natural or (comp.char == natural.char and comp.isnative):
        return None, natural
    ck = comp.kind
    if ck in "iu" and xdt.kind in "biu" and comp.isnative:
        return None, comp
    if comp in KERNEL_INEXACT and (xdt.kind != "c" or ck == "c"):
        return comp, comp
    raise Delegate


# --- sum / prod ------------------------------------------------------------


def sum_prod(
    prim: Callable[[np.ndarray, tuple[int, ...]], np.ndarray],
    combine: np.ufunc,
    a: Any,
    axis: Any,
    dtype: Any,
    out: Any,
    keepdims: Any,
    initial: Any,
    where: Any,
) -> Any:
    """``nansum``/``nanprod`` (``prim`` and ``combine``: ``_nanops.nansum``
    and ``np.add``, or ``_nanops.nanprod`` and ``np.multiply``)."""
    x = kernel_input(as_ndarray(a))
    axes = ufunc_axes(axis, x.ndim)
    kd = keepdims_flag(keepdims)
    kshape = kept_shape(x.shape, axes) if kd else None
    natural = SUM_DTYPE[x.dtype.char]
    comp = natural if dtype is None else np.dtype(dtype)
    if out is not None:
        check_out(out, out_shape(x.shape, axes, kd))
        if (comp.kind == "c") != (out.dtype.kind == "c"):
            raise Delegate  # NumPy's ComplexWarning paths
        if dtype is None:
            # a ufunc reduction with `out` computes in the promoted dtype
            comp = np.promote_types(x.dtype, out.dtype)
    mask = None if where is NoValue else where_mask(where, x.shape)
    cast, post = _accumulation(x.dtype, natural, comp)
    init = None
    if initial is not NoValue:
        if initial is None or combine is np.multiply or not dispatch_free(initial):
            # a product starting from `initial` can differ from
            # `initial * product` (overflow to inf times 0): NumPy's order
            raise Delegate
        if out is not None and out.dtype != post:
            raise Delegate  # NumPy's casting of `initial` then depends on out
        init = np.asarray(initial, dtype=post)
        if init.ndim != 0:
            raise Delegate
    if mask is not None:
        x = apply_where(x, mask)
    if cast is not None:
        x = x.astype(cast)
    res = with_dtype(prim(x, axes), post)
    if init is not None:
        combine(res, init, out=res)
    return finish_ufunc(res, out, kd, kshape)


# --- cumsum / cumprod ------------------------------------------------------


def cumulative(
    prim: Callable[[np.ndarray, int | None], np.ndarray],
    a: Any,
    axis: Any,
    dtype: Any,
    out: Any,
) -> Any:
    """``nancumsum``/``nancumprod`` (``prim``: ``_nanops.nancumsum`` or
    ``_nanops.nancumprod``)."""
    x = kernel_input(as_ndarray(a))
    ax = index_axis(axis, x.ndim)
    natural = SUM_DTYPE[x.dtype.char]
    comp = natural if dtype is None else np.dtype(dtype)
    if out is not None:
        check_out(out, x.shape if ax is not None else (x.size,))
        if (comp.kind == "c") != (out.dtype.kind == "c") or (
            (x.dtype.kind == "c") != (out.dtype.kind == "c")
        ):
            raise Delegate  # NumPy's ComplexWarning paths
        if dtype is None:
            # accumulating into `out` computes in the promoted dtype
            comp = np.promote_types(x.dtype, out.dtype)
    cast, post = _accumulation(x.dtype, natural, comp)
    if cast is not None:
        x = x.astype(cast)
    if ax is None and x.ndim == 1:
        ax = 0  # the same result; spares the primitive its flattening path
    res = with_dtype(prim(x, ax), post)
    if out is not None:
        np.copyto(out, res, casting="unsafe")
        return out
    return res


# --- count -----------------------------------------------------------------


def count(a: Any, axis: Any, keepdims: Any) -> Any:
    """``nancount`` for the inputs the primitive takes (a list ``axis`` is
    taken as a tuple)."""
    if type(axis) is list:
        axis = tuple(axis)
    x = kernel_input(as_ndarray(a))
    axes = ufunc_axes(axis, x.ndim)
    kd = bool(keepdims)
    kshape = kept_shape(x.shape, axes) if kd else None
    return finish_ufunc(_nanops.nancount(x, axes), None, kd, kshape)


def count_fallback(a: Any, axis: Any = None, keepdims: Any = False) -> Any:
    """``nancount`` with NumPy operations, for inputs the primitive lacks
    (subclasses, object, datetime, long double; NaT counts as missing)."""
    if type(axis) is list:
        axis = tuple(axis)
    arr = np.asanyarray(a)
    kind = arr.dtype.kind
    if kind in "fcmM":
        valid = ~np.isnan(arr)
    elif kind == "O":
        valid = ~np.not_equal(arr, arr, dtype=bool)
    else:
        valid = np.ones_like(arr, dtype=bool)
    return np.sum(valid, axis=axis, dtype=np.intp, keepdims=bool(keepdims))


def ss(a: Any, axis: Any) -> Any:
    """bottleneck's ``ss`` for the inputs the primitive takes (``axis`` as
    ``np.sum`` takes it; the primitive keeps int32 as bottleneck does)."""
    x = kernel_input(as_ndarray(a))
    return finish_ufunc(_nanops.ss(x, ufunc_axes(axis, x.ndim)), None, False, None)


def ss_fallback(a: Any, axis: Any = None) -> Any:
    """``ss`` as bottleneck computes it for dtypes its kernels lack:
    ``np.sum(a * a, axis)`` (duck arrays stay what their library makes)."""
    return np.sum(np.multiply(a, a), axis=axis)


# --- anynan / allnan -------------------------------------------------------


def nan_flag(prim: Callable[[np.ndarray, tuple[int, ...]], np.ndarray], a: Any, axis: Any) -> Any:
    """``anynan``/``allnan`` (``prim``: ``_nanops.anynan`` or
    ``_nanops.allnan``) for the inputs the primitive takes; ``axis`` None,
    an int or (numbagg's) a tuple or list of ints. ``axis=None`` answers a
    Python bool, as bottleneck's; other 0-d results are NumPy bools."""
    if type(axis) is list:
        axis = tuple(axis)
    x = kernel_input(as_ndarray(a))
    res = finish_ufunc(prim(x, ufunc_axes(axis, x.ndim)), None, False, None)
    return bool(res) if axis is None else res


def _nan_flags(a: Any) -> Any:
    """Where ``a`` is NaN (NaT for datetimes; an object that is not equal
    to itself), with NumPy operations; duck arrays stay what their library
    makes."""
    arr = a if hasattr(type(a), "__array_function__") else np.asanyarray(a)
    kind = arr.dtype.kind
    if kind in "fc":
        return np.isnan(arr)
    if kind in "mM":
        return np.isnat(arr)
    if kind == "O":
        return np.not_equal(arr, arr, dtype=bool)
    return np.zeros_like(arr, dtype=bool)


def _axis_arg(axis: Any) -> Any:
    """A list of axes as the tuple NumPy's reductions take."""
    return tuple(axis) if type(axis) is list else axis


def anynan_fallback(a: Any, axis: Any = None) -> Any:
    """``anynan`` with NumPy operations, for inputs the primitive lacks."""
    res = _nan_flags(a).any(axis=_axis_arg(axis))
    return bool(res) if axis is None else res


def allnan_fallback(a: Any, axis: Any = None) -> Any:
    """``allnan`` with NumPy operations, for inputs the primitive lacks."""
    res = _nan_flags(a).all(axis=_axis_arg(axis))
    return bool(res) if axis is None else res
