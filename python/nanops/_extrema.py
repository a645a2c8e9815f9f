"""General paths of the extrema: min, max, argmin and argmax.

Each helper takes the registry row's constants, then the public function's
parameters in signature order (see :mod:`nanops._registry`), and raises
:class:`~nanops._args.Delegate` for what it hands to NumPy.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ._args import (
    INTP,
    MSG_ALL_NAN,
    MSG_ALL_NAN_AXIS,
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
    reduced_shape,
    ufunc_axes,
    warn,
    where_mask,
    with_dtype,
)

__all__ = ["extremum", "arg_extremum"]


def extremum(
    prim: Callable[[np.ndarray, tuple[int, ...]], tuple[np.ndarray, bool]],
    combine: np.ufunc,
    a: Any,
    axis: Any,
    out: Any,
    keepdims: Any,
    initial: Any,
    where: Any,
) -> Any:
    """``nanmin``/``nanmax`` (``prim`` and ``combine``: ``_nanops.nanmin``
    and ``np.fmin``, or ``_nanops.nanmax`` and ``np.fmax``)."""
    x = kernel_input(as_ndarray(a))
    axes = ufunc_axes(axis, x.ndim)
    kd = keepdims_flag(keepdims)
    kshape = kept_shape(x.shape, axes) if kd else None
    if out is not None:
        check_out(out, out_shape(x.shape, axes, kd))
        if (x.dtype.kind == "c") != (out.dtype.kind == "c") or (
            x.dtype.kind == "f" and out.dtype.kind != "f"
        ):
            # NumPy's ComplexWarning paths; float input into an integer out
            # reduces the cast input (NaN becomes INT_MIN)
            raise Delegate
    has_init = initial is not NoValue
    if where is not NoValue and where is not True:
        if not has_init:
            raise Delegate  # NumPy: "... one has to specify 'initial'"
        mask = where_mask(where, x.shape)
        if mask is not None:
            x = apply_where(x, mask)
    init = None
    if has_init:
        if initial is None or not dispatch_free(initial):
            raise Delegate
        loop = x.dtype if out is None else np.promote_types(x.dtype, out.dtype)
        init = np.asarray(initial, dtype=loop)
        if init.ndim != 0:
            raise Delegate
    empty_reduction = False
    if x.size == 0:
        for ax in axes:
            if x.shape[ax] == 0:
                empty_reduction = True
        if empty_reduction and init is None:
            raise Delegate  # NumPy's "zero-size array to reduction operation"
    if empty_reduction:
        res = np.empty(reduced_shape(x.shape, axes), dtype=x.dtype)
        all_nan = False
    else:
        res, all_nan = prim(x, axes)
        res = with_dtype(res, x.dtype)
    if init is not None:
        if init.dtype != res.dtype:
            res = res.astype(init.dtype)
        if empty_reduction:
            res[...] = init
        else:
            combine(res, init, out=res)
    result = finish_ufunc(res, out, kd, kshape)
    # NumPy warns when the returned result holds a NaN
    if init is not None:
        final = res if out is None else out
        all_nan = final.dtype.kind in "fc" and bool(np.isnan(final).any())
    elif out is not None:
        all_nan = all_nan and out.dtype.kind in "fc"
    if all_nan:
        warn(MSG_ALL_NAN if isinstance(a, np.ndarray) else MSG_ALL_NAN_AXIS, 3)
    return result


def arg_extremum(
    prim: Callable[[np.ndarray, int | None], np.ndarray],
    a: Any,
    axis: Any,
    out: Any,
    keepdims: Any,
) -> Any:
    """``nanargmin``/``nanargmax`` (``prim``: ``_nanops.nanargmin`` or
    ``_nanops.nanargmax``)."""
    x = kernel_input(as_ndarray(a))
    ax = index_axis(axis, x.ndim)
    if ax is not None and x.shape[ax] == 0:
        # NumPy raises for a zero-length axis even when the result is empty
        # (shape (0, 0)); the primitive returns the empty result there.
        raise Delegate
    kd = keepdims_flag(keepdims)
    if ax is None:
        kshape = (1,) * x.ndim if kd else None
        shape = kshape or ()
    else:
        kshape = kept_shape(x.shape, (ax,)) if kd else None
        shape = kshape or reduced_shape(x.shape, (ax,))
    if out is not None:
        check_out(out, shape)
        if not np.can_cast(out.dtype, INTP, "safe"):
            raise Delegate  # NumPy's TypeError
    return finish_ufunc(prim(x, ax), out, kd, kshape)
