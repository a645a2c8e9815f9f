"""General paths of the moments: mean, var and std.

Each helper takes the registry row's constants, then the public function's
parameters in signature order (see :mod:`nanops._registry`), and raises
:class:`~nanops._args.Delegate` for what it hands to NumPy.  A further
moment backed by a primitive shaped like ``_nanops.nanvar`` (a real result
and a flag) builds on :func:`_real_dtypes` and :func:`_masked_cast` as
:func:`var` does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _nanops
from ._args import (
    F64,
    KERNEL_INEXACT,
    MSG_DOF,
    MSG_EMPTY_MEAN,
    PRECISION,
    Delegate,
    NoValue,
    apply_where,
    as_ndarray,
    check_out,
    dispatch_free,
    finish_ufunc,
    keepdims_flag,
    kept_shape,
    kernel_input,
    out_shape,
    ufunc_axes,
    warn,
    where_mask,
    with_dtype,
)

__all__ = ["mean", "var"]

_REAL_OF: dict[str, np.dtype[Any]] = {
    "e": np.dtype("e"),
    "f": np.dtype("f"),
    "d": F64,
    "F": np.dtype("f"),
    "D": F64,
}
_COMPLEX_OF: dict[int, np.dtype[Any]] = {
    1: np.dtype("F"),
    2: np.dtype("F"),
    3: np.dtype("D"),
}
_REAL_OF_PRECISION: dict[int, np.dtype[Any]] = {
    1: np.dtype("e"),
    2: np.dtype("f"),
    3: F64,
}


# --- dtype planning --------------------------------------------------------


def _inexact_plan(
    xdt: np.dtype[Any], natural: np.dtype[Any], comp: np.dtype[Any], real: bool
) -> tuple[np.dtype[Any] | None, np.dtype[Any]]:
    """Plan mean (``real=False``) or var/std (``real``) computed in ``comp``.

    Returns the dtype to cast the input to first (None: no cast) and the
    result dtype.  ``comp`` is the inexact dtype NumPy would compute in
    (from ``dtype=`` or ``out=``).  A more precise ``comp`` than the
    primitive's natural result casts the input first (a copy); a less
    precise one casts the result.  Complex input with a real ``comp`` for
    the mean (NumPy warns and drops the imaginary part) and long double go
    to NumPy.
    """
    if comp is natural or (comp.char == natural.char and comp.isnative):
        return None, natural
    if comp not in KERNEL_INEXACT:
        raise Delegate
    if xdt.kind == "c" and comp.kind != "c" and not real:
        raise Delegate
    prec = PRECISION[comp.char]
    if prec <= PRECISION[natural.char]:
        return None, comp
    if xdt.kind == "c":
        return _COMPLEX_OF[prec], comp
    return (_REAL_OF_PRECISION[prec] if real else comp), comp


def _real_dtypes(
    x: np.ndarray, dtype: Any, out: Any
) -> tuple[np.dtype[Any], np.dtype[Any]]:
    """The natural and the requested dtype of a real moment of ``x``.

    The natural dtype is what the primitive returns (the real dtype of a
    float or complex ``x``, float64 for integers); the requested one comes
    from ``dtype=`` or ``out=`` as NumPy's ``var`` takes them.  Complex or
    non-float requests go to NumPy.
    """
    natural = _REAL_OF[x.dtype.char] if x.dtype.kind in "fc" else F64
    comp = natural
    if dtype is not None:
        comp = np.dtype(dtype)
        if comp.kind != "f" or x.dtype.kind == "c":
            # non-inexact: NumPy's TypeError; complex: NumPy returns complex;
            # complex input with a real dtype: NumPy drops the imaginary part
            raise Delegate
    if out is not None:
        if type(out) is not np.ndarray or out.dtype.kind != "f":
            # TypeError for inexact input (NumPy's message); complex out:
            # NumPy's ComplexWarning paths
            raise Delegate
        if dtype is None:
            comp = np.promote_types(natural, out.dtype)
        elif out.dtype != comp:
            raise Delegate  # NumPy then mixes both dtypes in its steps
    return natural, comp


def _masked_cast(x: np.ndarray, where: Any, cast: np.dtype[Any] | None) -> np.ndarray:
    """``x`` with NaN where ``where`` is False, cast to ``cast`` (None: kept)."""
    if where is not NoValue:
        mask = where_mask(where, x.shape)
        if mask is not None:
            x = apply_where(x, mask)
    if cast is not None:
        x = x.astype(cast)
    return x


# --- mean ------------------------------------------------------------------


def mean(a: Any, axis: Any, dtype: Any, out: Any, keepdims: Any, where: Any) -> Any:
    """``nanmean``."""
    x = kernel_input(as_ndarray(a))
    axes = ufunc_axes(axis, x.ndim)
    kd = keepdims_flag(keepdims)
    kshape = kept_shape(x.shape, axes) if kd else None
    inexact = x.dtype.kind in "fc"
    natural = x.dtype if inexact else F64
    comp = natural
    if dtype is not None:
        comp = np.dtype(dtype)
        if comp.kind not in "fc":
            raise Delegate  # TypeError for inexact input (NumPy's message)
    if out is not None:
        check_out(out, out_shape(x.shape, axes, kd))
        if out.dtype.kind not in "fc":
            raise Delegate  # TypeError for inexact input (NumPy's message)
        if (comp.kind == "c") != (out.dtype.kind == "c"):
            raise Delegate  # NumPy's ComplexWarning paths
        if dtype is None and inexact:
            # the sum with `out` computes in the promoted dtype
            comp = np.promote_types(natural, out.dtype)
        elif dtype is not None and out.dtype != comp:
            raise Delegate  # NumPy then mixes both dtypes in its steps
    if not inexact and (x.size == 0 or (x.ndim == 0 and axis is not None)):
        # np.mean: own empty-slice warnings; AxisError for 0-d with an axis
        raise Delegate
    cast, post = _inexact_plan(x.dtype, natural, comp, real=False)
    x = _masked_cast(x, where, cast)
    res, empty = _nanops.nanmean(x, axes)
    res = with_dtype(res, post)
    if empty:
        warn(MSG_EMPTY_MEAN, 3)
    return finish_ufunc(res, out, kd, kshape)


# --- var / std -------------------------------------------------------------


def _ddof_value(ddof: Any) -> float:
    """``ddof`` as a float (ints, floats, NumPy scalars); else delegate."""
    if isinstance(ddof, (int, float, np.integer, np.floating)):
        return float(ddof)
    raise Delegate


def _var_with_mean(
    x: np.ndarray,
    axes: tuple[int, ...],
    mean: Any,
    ddof: float,
    std: bool,
    sum_dtype: np.dtype[Any],
) -> tuple[np.ndarray, bool]:
    """Variance (or std) of float/complex ``x`` around a given ``mean``.

    Rare path done with NumPy operations (one copy of ``x``): deviations are
    stored in ``x``'s dtype as NumPy does, NaN positions of ``x`` contribute
    nothing, a NaN ``mean`` makes its slice NaN.
    """
    if not dispatch_free(mean):
        raise Delegate
    m = np.asarray(mean)
    if m.dtype.kind not in "biufc":
        raise Delegate
    nan = np.isnan(x)
    dev = np.empty_like(x)
    np.subtract(x, m, out=dev, casting="unsafe")
    np.copyto(dev, 0, where=nan)
    if dev.dtype.kind == "c":
        sq = np.multiply(dev, dev.conj()).real
    else:
        sq = np.multiply(dev, dev, out=dev)
    ssq = np.asarray(np.add.reduce(sq, axis=axes, dtype=sum_dtype))
    dof = _nanops.nancount(x, axes) - ddof
    var = np.empty_like(ssq)
    with np.errstate(divide="ignore", invalid="ignore"):
        np.true_divide(ssq, dof, out=var, casting="unsafe")
    bad = dof <= 0
    any_bad = bool(bad.any())
    if any_bad:
        np.copyto(var, np.nan, where=bad)
    if std:
        np.sqrt(var, out=var)
    return var, any_bad


def var(
    std: bool,
    a: Any,
    axis: Any,
    dtype: Any,
    out: Any,
    ddof: Any,
    keepdims: Any,
    where: Any,
    mean: Any,
    correction: Any,
) -> Any:
    """``nanvar`` (``std=False``) or ``nanstd`` (``std=True``)."""
    x = kernel_input(as_ndarray(a))
    inexact = x.dtype.kind in "fc"
    natural, comp = _real_dtypes(x, dtype, out)
    # NumPy checks ddof/correction before looking at the axes
    if correction is not NoValue:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    dd = _ddof_value(ddof)
    axes = ufunc_axes(axis, x.ndim)
    kd = keepdims_flag(keepdims)
    kshape = kept_shape(x.shape, axes) if kd else None
    if out is not None:
        check_out(out, out_shape(x.shape, axes, kd))
    if not inexact:
        if mean is not NoValue or (x.ndim == 0 and axis is not None):
            raise Delegate  # np.var: AxisError for 0-d with an axis
        if where is not NoValue and where is not True:
            raise Delegate  # integers cannot hold the NaN that masks
        n = 1
        for ax in axes:
            n *= x.shape[ax]
        if n - dd <= 0:
            raise Delegate  # np.var divides by max(n - ddof, 0): inf, own warnings
    cast, post = _inexact_plan(x.dtype, natural, comp, real=True)
    x = _masked_cast(x, where, cast)
    if mean is NoValue:
        res, bad = _nanops.nanvar(x, axes, dd, std)
    else:
        res, bad = _var_with_mean(x, axes, mean, dd, std, _REAL_OF[x.dtype.char])
    res = with_dtype(res, post)
    if bad and dd == dd:  # NumPy: a NaN ddof gives NaN, without the warning
        warn(MSG_DOF, 3)
    return finish_ufunc(res, out, kd, kshape)
