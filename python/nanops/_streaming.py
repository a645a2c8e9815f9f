"""Streaming reductions: sum, prod, mean, var, std, min, max, argmin, argmax,
cumsum, cumprod and count, ignoring NaN.

Each public function has NumPy's signature and semantics.  The common case
(a base-class ndarray of a supported dtype, no exotic arguments) goes straight
to one compiled primitive; anything else is handled by casting or masking on a
documented rare path, or delegated to the original NumPy function.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from . import _nanops
from ._args import (
    F64,
    INTP,
    PRECISION,
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
    original,
    out_shape,
    reduced_shape,
    ufunc_axes,
    warn,
    where_mask,
    with_dtype,
)

__all__ = [
    "nansum",
    "nanprod",
    "nanmean",
    "nanvar",
    "nanstd",
    "nanmin",
    "nanmax",
    "nanargmin",
    "nanargmax",
    "nancumsum",
    "nancumprod",
    "nancount",
]

_NAN = "numpy.lib._nanfunctions_impl"
_np_nansum = original(_NAN, "nansum")
_np_nanprod = original(_NAN, "nanprod")
_np_nanmean = original(_NAN, "nanmean")
_np_nanvar = original(_NAN, "nanvar")
_np_nanstd = original(_NAN, "nanstd")
_np_nanmin = original(_NAN, "nanmin")
_np_nanmax = original(_NAN, "nanmax")
_np_nanargmin = original(_NAN, "nanargmin")
_np_nanargmax = original(_NAN, "nanargmax")
_np_nancumsum = original(_NAN, "nancumsum")
_np_nancumprod = original(_NAN, "nancumprod")

# The fast entry points, bound once (a module attribute lookup per call
# is a measurable part of a 1,000-value call).
_fast_nansum = _nanops.fast_nansum
_fast_nanprod = _nanops.fast_nanprod
_fast_nanmean = _nanops.fast_nanmean
_fast_nanvar = _nanops.fast_nanvar
_fast_nanextremum = _nanops.fast_nanextremum
_fast_nanarg = _nanops.fast_nanarg

_KERNEL_INEXACT = frozenset(np.dtype(c) for c in "efdFD")
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

_MSG_EMPTY_MEAN = "Mean of empty slice"
_MSG_DOF = "Degrees of freedom <= 0 for slice."
_MSG_ALL_NAN = "All-NaN slice encountered"
# NumPy words it differently when the input was not an ndarray (lists, scalars).
_MSG_ALL_NAN_AXIS = "All-NaN axis encountered"


# --- dtype planning --------------------------------------------------------


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
    if comp in _KERNEL_INEXACT and (xdt.kind != "c" or ck == "c"):
        return comp, comp
    raise Delegate


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
    if comp not in _KERNEL_INEXACT:
        raise Delegate
    if xdt.kind == "c" and comp.kind != "c" and not real:
        raise Delegate
    prec = PRECISION[comp.char]
    if prec <= PRECISION[natural.char]:
        return None, comp
    if xdt.kind == "c":
        return _COMPLEX_OF[prec], comp
    return (_REAL_OF_PRECISION[prec] if real else comp), comp


# --- sum / prod ------------------------------------------------------------


def _sum_prod(
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


def nansum(
    a,
    axis=None,
    dtype=None,
    out=None,
    keepdims=NoValue,
    initial=NoValue,
    where=NoValue,
):
    """Sum of array elements over the given axes, treating NaN as zero.

    Same signature, result dtype and semantics as :func:`numpy.nansum`.
    Floats accumulate in higher precision (float16 in float32, float32 in
    float64, float64 compensated), so results can be more accurate than
    NumPy's.  ``dtype=``/``out=`` of a wider inexact type cast the input first
    (a copy).

    Examples
    --------
    >>> import numpy as np, nanops
    >>> nanops.nansum(np.array([[1.0, np.nan], [2.0, 3.0]]), axis=0)
    array([3., 3.])
    """
    if (
        dtype is None
        and out is None
        and keepdims is NoValue
        and initial is NoValue
        and where is NoValue
    ):
        res = _fast_nansum(a, axis)
        if res is not NotImplemented:
            return res
    try:
        return _sum_prod(
            _nanops.nansum, np.add, a, axis, dtype, out, keepdims, initial, where
        )
    except Delegate:
        return _np_nansum(
            a,
            axis=axis,
            dtype=dtype,
            out=out,
            keepdims=keepdims,
            initial=initial,
            where=where,
        )


def nanprod(
    a,
    axis=None,
    dtype=None,
    out=None,
    keepdims=NoValue,
    initial=NoValue,
    where=NoValue,
):
    """Product of array elements over the given axes, treating NaN as one.

    Same signature, result dtype and semantics as :func:`numpy.nanprod`
    (floats accumulate in higher precision, see :func:`nansum`).

    Examples
    --------
    >>> import numpy as np, nanops
    >>> nanops.nanprod(np.array([[1.0, np.nan], [2.0, 3.0]]), axis=1)
    array([1., 6.])
    """
    if (
        dtype is None
        and out is None
        and keepdims is NoValue
        and initial is NoValue
        and where is NoValue
    ):
        res = _fast_nanprod(a, axis)
        if res is not NotImplemented:
            return res
    try:
        return _sum_prod(
            _nanops.nanprod,
            np.multiply,
            a,
            axis,
            dtype,
            out,
            keepdims,
            initial,
            where,
        )
    except Delegate:
        return _np_nanprod(
            a,
            axis=axis,
            dtype=dtype,
            out=out,
            keepdims=keepdims,
            initial=initial,
            where=where,
        )


# --- mean ------------------------------------------------------------------


def _mean(a: Any, axis: Any, dtype: Any, out: Any, keepdims: Any, where: Any) -> Any:
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
    if where is not NoValue:
        mask = where_mask(where, x.shape)
        if mask is not None:
            x = apply_where(x, mask)
    if cast is not None:
        x = x.astype(cast)
    res, empty = _nanops.nanmean(x, axes)
    res = with_dtype(res, post)
    if empty:
        warn(_MSG_EMPTY_MEAN, 3)
    return finish_ufunc(res, out, kd, kshape)


def nanmean(
    a,
    axis=None,
    dtype=None,
    out=None,
    keepdims=NoValue,
    *,
    where=NoValue,
):
    """Arithmetic mean over the given axes, ignoring NaN.

    Same signature, result dtype, warning (``RuntimeWarning: Mean of empty
    slice``) and errors as :func:`numpy.nanmean`.  The sum accumulates in
    higher precision than NumPy's (see :func:`nansum`).  With ``dtype=`` (or
    ``out=``) of an integer-input float type narrower than float64, the mean is
    computed in float64 and rounded once.

    Examples
    --------
    >>> import numpy as np, nanops
    >>> nanops.nanmean(np.array([[1.0, np.nan], [3.0, 4.0]]))
    np.float64(2.6666666666666665)
    """
    if dtype is None and out is None and keepdims is NoValue and where is NoValue:
        fast = _fast_nanmean(a, axis)
        if fast is not NotImplemented:
            res, empty = fast
            if empty:
                warn(_MSG_EMPTY_MEAN, 2)
            return res
    try:
        return _mean(a, axis, dtype, out, keepdims, where)
    except Delegate:
        return _np_nanmean(
            a, axis=axis, dtype=dtype, out=out, keepdims=keepdims, where=where
        )


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


def _var(
    a: Any,
    axis: Any,
    dtype: Any,
    out: Any,
    ddof: Any,
    keepdims: Any,
    where: Any,
    mean: Any,
    correction: Any,
    std: bool,
) -> Any:
    x = kernel_input(as_ndarray(a))
    inexact = x.dtype.kind in "fc"
    natural: np.dtype[Any] = _REAL_OF[x.dtype.char] if inexact else F64
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
    if where is not NoValue:
        mask = where_mask(where, x.shape)
        if mask is not None:
            x = apply_where(x, mask)
    if cast is not None:
        x = x.astype(cast)
    if mean is NoValue:
        res, bad = _nanops.nanvar(x, axes, dd, std)
    else:
        res, bad = _var_with_mean(x, axes, mean, dd, std, _REAL_OF[x.dtype.char])
    res = with_dtype(res, post)
    if bad and dd == dd:  # NumPy: a NaN ddof gives NaN, without the warning
        warn(_MSG_DOF, 4)
    return finish_ufunc(res, out, kd, kshape)


def _var_entry(
    a: Any,
    axis: Any,
    dtype: Any,
    out: Any,
    ddof: Any,
    keepdims: Any,
    where: Any,
    mean: Any,
    correction: Any,
    std: bool,
    fallback: Callable[..., Any],
) -> Any:
    """``nanvar``/``nanstd``: the common call's fast path, the general path,
    or NumPy's function for what the general path hands back."""
    if (
        dtype is None
        and out is None
        and keepdims is NoValue
        and where is NoValue
        and mean is NoValue
        and correction is NoValue
        and (type(ddof) is int or type(ddof) is float)
    ):
        fast = _fast_nanvar(a, axis, float(ddof), std)
        if fast is not NotImplemented:
            res, bad = fast
            if bad and ddof == ddof:  # a NaN ddof: NaN, no warning (NumPy)
                warn(_MSG_DOF, 3)
            return res
    try:
        return _var(a, axis, dtype, out, ddof, keepdims, where, mean, correction, std)
    except Delegate:
        return fallback(
            a,
            axis=axis,
            dtype=dtype,
            out=out,
            ddof=ddof,
            keepdims=keepdims,
            where=where,
            mean=mean,
            correction=correction,
        )


def nanvar(
    a,
    axis=None,
    dtype=None,
    out=None,
    ddof=0,
    keepdims=NoValue,
    *,
    where=NoValue,
    mean=NoValue,
    correction=NoValue,
):
    """Variance over the given axes, ignoring NaN.

    Same signature, result dtype (real for complex input), warning
    (``RuntimeWarning: Degrees of freedom <= 0 for slice.``) and errors as
    :func:`numpy.nanvar`.  Computed in one pass with Chan's merge of
    two-pass blocks, in higher precision for float16/float32.

    Differences from NumPy: with ``dtype=``/``out=`` more precise than the
    input, everything is computed in that precision (the input is cast, a
    copy); NumPy still rounds the deviations to the input's dtype.
    ``mean=`` is handled with NumPy operations (one copy of the input).

    Examples
    --------
    >>> import numpy as np, nanops
    >>> nanops.nanvar(np.array([[1.0, np.nan], [3.0, 4.0]]), axis=0)
    array([1., 0.])
    """
    return _var_entry(
        a, axis, dtype, out, ddof, keepdims, where, mean, correction, False, _np_nanvar
    )


def nanstd(
    a,
    axis=None,
    dtype=None,
    out=None,
    ddof=0,
    keepdims=NoValue,
    *,
    where=NoValue,
    mean=NoValue,
    correction=NoValue,
):
    """Standard deviation over the given axes, ignoring NaN.

    Same signature, result dtype, warning and errors as :func:`numpy.nanstd`
    (see :func:`nanvar`); ``nanstd(a)`` equals ``np.sqrt(nanvar(a))`` exactly.

    Examples
    --------
    >>> import numpy as np, nanops
    >>> nanops.nanstd(np.array([[1.0, np.nan], [3.0, 4.0]]), axis=1)
    array([0. , 0.5])
    """
    return _var_entry(
        a, axis, dtype, out, ddof, keepdims, where, mean, correction, True, _np_nanstd
    )


# --- min / max -------------------------------------------------------------


def _extremum(
    prim: Callable[[np.ndarray, tuple[int, ...]], tuple[np.ndarray, bool]],
    combine: np.ufunc,
    a: Any,
    axis: Any,
    out: Any,
    keepdims: Any,
    initial: Any,
    where: Any,
) -> Any:
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
        warn(_MSG_ALL_NAN if isinstance(a, np.ndarray) else _MSG_ALL_NAN_AXIS, 3)
    return result


def nanmin(
    a,
    axis=None,
    out=None,
    keepdims=NoValue,
    initial=NoValue,
    where=NoValue,
):
    """Minimum over the given axes, ignoring NaN.

    Same signature, result dtype, warning (``RuntimeWarning: All-NaN slice
    encountered``, result NaN) and errors as :func:`numpy.nanmin`.  Complex
    values order lexicographically, as in NumPy.

    Examples
    --------
    >>> import numpy as np, nanops
    >>> nanops.nanmin(np.array([[1.0, np.nan], [3.0, 4.0]]), axis=0)
    array([1., 4.])
    """
    if out is None and keepdims is NoValue and initial is NoValue and where is NoValue:
        fast = _fast_nanextremum(a, axis, False)
        if fast is not NotImplemented:
            res, all_nan = fast
            if all_nan:
                warn(_MSG_ALL_NAN, 2)
            return res
    try:
        return _extremum(
            _nanops.nanmin, np.fmin, a, axis, out, keepdims, initial, where
        )
    except Delegate:
        return _np_nanmin(
            a, axis=axis, out=out, keepdims=keepdims, initial=initial, where=where
        )


def nanmax(
    a,
    axis=None,
    out=None,
    keepdims=NoValue,
    initial=NoValue,
    where=NoValue,
):
    """Maximum over the given axes, ignoring NaN.

    Same signature, result dtype, warning and errors as
    :func:`numpy.nanmax` (see :func:`nanmin`).

    Examples
    --------
    >>> import numpy as np, nanops
    >>> nanops.nanmax(np.array([[1.0, np.nan], [3.0, 4.0]]), axis=1)
    array([1., 4.])
    """
    if out is None and keepdims is NoValue and initial is NoValue and where is NoValue:
        fast = _fast_nanextremum(a, axis, True)
        if fast is not NotImplemented:
            res, all_nan = fast
            if all_nan:
                warn(_MSG_ALL_NAN, 2)
            return res
    try:
        return _extremum(
            _nanops.nanmax, np.fmax, a, axis, out, keepdims, initial, where
        )
    except Delegate:
        return _np_nanmax(
            a, axis=axis, out=out, keepdims=keepdims, initial=initial, where=where
        )


# --- argmin / argmax -------------------------------------------------------


def _arg_extremum(
    prim: Callable[[np.ndarray, int | None], np.ndarray],
    a: Any,
    axis: Any,
    out: Any,
    keepdims: Any,
) -> Any:
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


def nanargmin(a, axis=None, out=None, *, keepdims=NoValue):
    """Index of the minimum over an axis, ignoring NaN.

    Same signature and errors as :func:`numpy.nanargmin`:
    ``ValueError("All-NaN slice encountered")`` for an all-NaN slice.

    Differences from NumPy: the index never points at a NaN.  NumPy
    replaces NaN with +inf, so for a slice like ``[nan, inf]`` it returns 0
    (the NaN's index); nanops returns 1.

    Examples
    --------
    >>> import numpy as np, nanops
    >>> nanops.nanargmin(np.array([[np.nan, 4.0], [2.0, 3.0]]), axis=0)
    array([1, 1])
    """
    if out is None and keepdims is NoValue:
        res = _fast_nanarg(a, axis, False)
        if res is not NotImplemented:
            return res
    try:
        return _arg_extremum(_nanops.nanargmin, a, axis, out, keepdims)
    except Delegate:
        return _np_nanargmin(a, axis=axis, out=out, keepdims=keepdims)


def nanargmax(a, axis=None, out=None, *, keepdims=NoValue):
    """Index of the maximum over an axis, ignoring NaN.

    Same signature and errors as :func:`numpy.nanargmax` (see
    :func:`nanargmin`; for ``[nan, -inf]`` nanops returns 1, NumPy 0).

    Examples
    --------
    >>> import numpy as np, nanops
    >>> nanops.nanargmax(np.array([[np.nan, 4.0], [5.0, 3.0]]), axis=1)
    array([1, 0])
    """
    if out is None and keepdims is NoValue:
        res = _fast_nanarg(a, axis, True)
        if res is not NotImplemented:
            return res
    try:
        return _arg_extremum(_nanops.nanargmax, a, axis, out, keepdims)
    except Delegate:
        return _np_nanargmax(a, axis=axis, out=out, keepdims=keepdims)


# --- cumsum / cumprod ------------------------------------------------------


def _cumulative(
    prim: Callable[[np.ndarray, int | None], np.ndarray],
    a: Any,
    axis: Any,
    dtype: Any,
    out: Any,
) -> Any:
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


def nancumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sum along an axis, treating NaN as zero.

    Same signature, result dtype and semantics as :func:`numpy.nancumsum`
    (``axis=None`` works on the flattened array).

    Examples
    --------
    >>> import numpy as np, nanops
    >>> nanops.nancumsum(np.array([1.0, np.nan, 2.0]))
    array([1., 1., 3.])
    """
    try:
        return _cumulative(_nanops.nancumsum, a, axis, dtype, out)
    except Delegate:
        return _np_nancumsum(a, axis=axis, dtype=dtype, out=out)


def nancumprod(a, axis=None, dtype=None, out=None):
    """Cumulative product along an axis, treating NaN as one.

    Same signature, result dtype and semantics as :func:`numpy.nancumprod`.

    Examples
    --------
    >>> import numpy as np, nanops
    >>> nanops.nancumprod(np.array([2.0, np.nan, 3.0]))
    array([2., 2., 6.])
    """
    try:
        return _cumulative(_nanops.nancumprod, a, axis, dtype, out)
    except Delegate:
        return _np_nancumprod(a, axis=axis, dtype=dtype, out=out)


# --- count -----------------------------------------------------------------


def _count_fallback(a: Any, axis: Any, keepdims: Any) -> Any:
    """``nancount`` with NumPy operations, for inputs the primitive lacks."""
    arr = np.asanyarray(a)
    kind = arr.dtype.kind
    if kind in "fcmM":
        valid = ~np.isnan(arr)
    elif kind == "O":
        valid = ~np.not_equal(arr, arr, dtype=bool)
    else:
        valid = np.ones_like(arr, dtype=bool)
    return np.sum(valid, axis=axis, dtype=np.intp, keepdims=bool(keepdims))


def nancount(a, axis=None, keepdims=False):
    """Number of non-NaN elements over the given axes (not in NumPy).

    ``axis`` is None, an int or a tuple of ints (as for :func:`nansum`); the
    result is ``np.intp``.  Integers and bools are never NaN.  Inputs the
    compiled kernels do not support (subclasses, object, datetime, long
    double) are counted with NumPy operations (NaT counts as missing).

    Examples
    --------
    >>> import numpy as np, nanops
    >>> nanops.nancount(np.array([[1.0, np.nan], [3.0, 4.0]]), axis=1)
    array([1, 2])
    """
    if type(axis) is list:
        axis = tuple(axis)
    try:
        x = kernel_input(as_ndarray(a))
        axes = ufunc_axes(axis, x.ndim)
        kd = bool(keepdims)
        kshape = kept_shape(x.shape, axes) if kd else None
        return finish_ufunc(_nanops.nancount(x, axes), None, kd, kshape)
    except Delegate:
        return _count_fallback(a, axis, keepdims)
