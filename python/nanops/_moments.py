"""General paths of the moments: mean, var and std, and any further real moment.

Each helper takes the registry row's constants, then the public function's
parameters in signature order (see :mod:`nanops._registry`), and raises
:class:`~nanops._args.Delegate` for what it hands to the row's fallback.

:func:`moment` is the general path of every real statistic of the family
computed by a primitive shaped like ``_nanops.nanvar``:
``prim(x, axes, *params) -> (result, flag)``, a real result (float64 for
integers and bool, float16/float32/float64 kept) and whether some slice was
degenerate.  A new statistic is then a registry row,
``General(_moments.moment, _nanops.nanskew)``, whose signature ends in
``where`` and the primitive's own parameters.  :func:`moment` and
:func:`var` share :class:`_RealPlan` (dtype planning with
:func:`_real_dtypes`/:func:`_inexact_plan`, axes, ``keepdims``, ``out``,
``where`` masking with :func:`_masked_cast`).
"""

from __future__ import annotations

from collections.abc import Callable
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

__all__ = ["mean", "var", "moment"]

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


class _RealPlan:
    """How a real statistic of the moments family runs on one input.

    Built in the order NumPy checks a ``var`` call: the input (from
    :func:`~nanops._args.kernel_input`) and the dtypes (:func:`_real_dtypes`) first, then, after the statistic's own arguments,
    the axes, ``keepdims`` and ``out`` (:meth:`reduce_over`); :meth:`input`
    plans the cast (:func:`_inexact_plan`) and masks ``where``,
    :meth:`finish` shapes the primitive's result.  Every step raises
    :class:`~nanops._args.Delegate` where :func:`var` hands the call on.
    """

    __slots__ = ("x", "inexact", "natural", "comp", "axes", "kd", "kshape", "post")

    def __init__(self, x: np.ndarray, dtype: Any, out: Any) -> None:
        self.x = x
        self.inexact = x.dtype.kind in "fc"
        self.natural, self.comp = _real_dtypes(x, dtype, out)

    def reduce_over(self, axis: Any, keepdims: Any, out: Any) -> None:
        """The axes, ``keepdims`` and ``out`` (checked against the result's shape)."""
        x = self.x
        self.axes = ufunc_axes(axis, x.ndim)
        self.kd = keepdims_flag(keepdims)
        self.kshape = kept_shape(x.shape, self.axes) if self.kd else None
        if out is not None:
            check_out(out, out_shape(x.shape, self.axes, self.kd))

    def input(self, where: Any, mask_integers: bool = False) -> np.ndarray:
        """The primitive's input: ``x`` cast as planned, NaN where ``where``
        is False.  Integers and bool hold no NaN to mask with: they go to
        the fallback, or with ``mask_integers`` are cast to float64 first
        (the type their statistic is computed in anyway)."""
        x = self.x
        cast, self.post = _inexact_plan(x.dtype, self.natural, self.comp, real=True)
        if mask_integers and not self.inexact and where is not NoValue and where is not True:
            x = x.astype(F64)  # `cast` is None: integers compute in float64
        return _masked_cast(x, where, cast)

    def typed(self, res: np.ndarray) -> np.ndarray:
        """The primitive's result in the planned result dtype."""
        return with_dtype(res, self.post)

    def finish(self, res: np.ndarray, out: Any) -> Any:
        """A typed result shaped as a ufunc reduction's (``keepdims``,
        ``out``, a scalar for 0-d)."""
        return finish_ufunc(res, out, self.kd, self.kshape)


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
    plan = _RealPlan(x, dtype, out)
    # NumPy checks ddof/correction before looking at the axes
    if correction is not NoValue:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    dd = _ddof_value(ddof)
    plan.reduce_over(axis, keepdims, out)
    if not plan.inexact:
        if mean is not NoValue or (x.ndim == 0 and axis is not None):
            raise Delegate  # np.var: AxisError for 0-d with an axis
        if where is not NoValue and where is not True:
            raise Delegate  # integers cannot hold the NaN that masks
        n = 1
        for ax in plan.axes:
            n *= x.shape[ax]
        if n - dd <= 0:
            raise Delegate  # np.var divides by max(n - ddof, 0): inf, own warnings
    x = plan.input(where)
    if mean is NoValue:
        res, bad = _nanops.nanvar(x, plan.axes, dd, std)
    else:
        res, bad = _var_with_mean(x, plan.axes, mean, dd, std, _REAL_OF[x.dtype.char])
    res = plan.typed(res)
    if bad and dd == dd:  # NumPy: a NaN ddof gives NaN, without the warning
        warn(MSG_DOF, 3)
    return plan.finish(res, out)


# --- further real moments (skewness, kurtosis, ...) --------------------------


def moment(
    prim: Callable[..., tuple[np.ndarray, bool]],
    a: Any,
    axis: Any,
    dtype: Any,
    out: Any,
    keepdims: Any,
    where: Any,
    *params: Any,
) -> Any:
    """The general path of a real statistic of the moments family that NumPy
    lacks: ``prim(x, axes, *params) -> (result, flag)`` (the shape of
    ``_nanops.nanvar``), ``params`` the public function's parameters after
    ``where``, passed on as given.

    ``axis``, ``dtype``, ``out``, ``keepdims`` and ``where`` work as for
    :func:`var` (same dtype planning, same calls handed to the fallback),
    except that integer and bool input with a ``where`` mask is cast to
    float64 and masked (there is no NumPy function to hand it to).  Complex
    input raises ``TypeError``: these statistics are defined for real
    values only.  A set flag warns ``RuntimeWarning: Degrees of freedom <= 0
    for slice.``
    """
    x = kernel_input(as_ndarray(a))
    if x.dtype.kind == "c":
        name = getattr(prim, "__name__", "this statistic")
        raise TypeError(
            f"{name} is defined for real input only, not {x.dtype} "
            "(take the real part or the magnitude first)"
        )
    plan = _RealPlan(x, dtype, out)
    plan.reduce_over(axis, keepdims, out)
    x = plan.input(where, mask_integers=True)
    res, flag = prim(x, plan.axes, *params)
    res = plan.typed(res)
    if flag:
        warn(MSG_DOF, 3)
    return plan.finish(res, out)
