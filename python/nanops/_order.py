"""General paths of the order statistics: median, quantile and percentile,
NaN-ignoring (``nanmedian``/``nanquantile``/``nanpercentile``) and
NaN-propagating (``median``/``quantile``/``percentile``).

Quantiles and percentiles map onto the primitive ``_nanops.nanquantile``;
medians onto ``_nanops.nanmedian`` (NumPy's median is the *mean* of the two
middle values, which differs in the last bit from the 0.5-quantile and, for
infinities, in more).  This module reproduces NumPy's argument checks, result
dtypes and warnings around them.  Each helper takes the registry row's
constants, then the public function's parameters in signature order (see
:mod:`nanops._registry`), and raises :class:`~nanops._args.Delegate` for what
it hands to NumPy.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

from . import _nanops
from ._args import (
    F64,
    MSG_ALL_NAN,
    Delegate,
    as_ndarray,
    check_out,
    dispatch_free,
    finish_order,
    keepdims_flag,
    kept_shape,
    kernel_input,
    out_shape,
    strides_whole,
    tuple_axes,
    warn,
    with_dtype,
)

__all__ = ["median", "quantile"]

#: NumPy's quantile methods (Hyndman & Fan and friends).
METHODS: Final = frozenset(
    (
        "inverted_cdf",
        "averaged_inverted_cdf",
        "closest_observation",
        "interpolated_inverted_cdf",
        "hazen",
        "weibull",
        "linear",
        "median_unbiased",
        "normal_unbiased",
        "lower",
        "higher",
        "midpoint",
        "nearest",
    )
)
#: Methods that pick an element (no interpolation): result keeps a's dtype.
_DISCRETE: Final = frozenset(
    ("inverted_cdf", "closest_observation", "lower", "higher", "nearest")
)
#: Methods that accept ``weights`` (NumPy: only ``inverted_cdf``).
_WEIGHTED: Final = ("inverted_cdf", "averaged_inverted_cdf")
_FLOATS: Final = frozenset(np.dtype(c) for c in "efd")
#: Methods whose virtual index stays integer for integer ``q`` in NumPy.
_INT_INDEX: Final = frozenset(
    ("interpolated_inverted_cdf", "weibull", "averaged_inverted_cdf")
)

#: ``q_dtype`` argument of ``_nanops.nanquantile`` per (kind, itemsize) of q.
_Q_CODE: Final = {
    **{("f", n): f"f{n}" for n in (2, 4, 8)},
    **{(k, n): "int" for k in "biu" for n in (1, 2, 4, 8)},
}
#: ``result`` argument of ``_nanops.nanquantile``: the float dtype NumPy
#: interpolates in (None for the input's own, or float64 for integers).
_RESULT_CODE: Final = {"e": "f2", "f": "f4", "d": "f8"}

# --- helpers ---------------------------------------------------------------


def _all_nan_slices(x: np.ndarray, axes: tuple[int, ...]) -> int:
    """Number of slices of ``x`` over ``axes`` without a non-NaN value."""
    return int(np.count_nonzero(_nanops.nancount(x, axes) == 0))


def _q_is_valid(q: np.ndarray) -> bool:
    """Whether every quantile lies in [0, 1] (NaN does not)."""
    if q.ndim == 0:
        return 0.0 <= float(q) <= 1.0
    if q.size == 0:
        if q.ndim == 1:
            return True
        raise Delegate  # NumPy's q.min() error
    if q.ndim == 1 and q.size < 10:
        return all(0.0 <= float(v) <= 1.0 for v in q)
    return bool(q.min() >= 0 and q.max() <= 1)


def _q_array(q: Any, percent: bool) -> np.ndarray:
    """``q`` as an array of quantiles in [0, 1] (never modifying ``q``)."""
    if not percent:
        qa = np.asanyarray(q)
    elif type(q) is int or type(q) is float:
        qa = np.array(q / 100)  # the same float64 division, without a ufunc call
    else:
        qa = np.true_divide(q, 100, out=...)
    if type(qa) is not np.ndarray or qa.dtype.kind not in "biuf":
        raise Delegate
    if not _q_is_valid(qa):
        if percent:
            raise ValueError("Percentiles must be in the range [0, 100]")
        raise ValueError("Quantiles must be in the range [0, 1]")
    return qa


def _weights_array(weights: Any, x: np.ndarray, axis: Any, method: Any) -> np.ndarray:
    """Validate ``weights`` as NumPy does; return them as float64 of x's shape.

    The result may be a broadcast (zero-stride, read-only) view.
    """
    if method not in _WEIGHTED:
        raise ValueError(
            "Only method 'inverted_cdf' supports weights "
            f"(nanops also supports 'averaged_inverted_cdf'). Got: {method}."
        )
    axes = None if axis is None else normalize_axis_tuple(axis, x.ndim, argname="axis")
    wa = np.asanyarray(weights)
    if type(wa) is not np.ndarray or wa.dtype.kind not in "biuf":
        raise Delegate
    if wa.shape != x.shape:
        if axes is None:
            raise TypeError(
                "Axis must be specified when shapes of a and weights differ."
            )
        if wa.shape != tuple(x.shape[ax] for ax in axes):
            raise ValueError(
                "Shape of weights must be consistent with "
                "shape of a along specified axis."
            )
        wa = wa.transpose(np.argsort(axes)).reshape(
            tuple(n if i in axes else 1 for i, n in enumerate(x.shape))
        )
    if np.any(wa < 0):
        raise ValueError("Weights must be non-negative.")
    wa = wa.astype(F64, copy=False)
    if not (wa.flags.aligned and strides_whole(wa)):
        wa = wa.copy()
    return np.broadcast_to(wa, x.shape)


def _check_weight_sums(
    x: np.ndarray, w: np.ndarray, axes: tuple[int, ...], ignore_nan: bool
) -> None:
    """NumPy's error for slices whose weights sum to 0, inf or NaN.

    With ``ignore_nan`` the weights of NaN elements do not count and
    all-NaN slices are exempt (their result is NaN).
    """
    skip_nan = ignore_nan and x.dtype.kind == "f"
    wm = np.where(np.isnan(x), 0.0, w) if skip_nan else w
    with np.errstate(over="ignore", invalid="ignore"):
        total = np.add.reduce(wm, axis=axes)
    bad = ~(np.isfinite(total) & (total > 0))
    if skip_nan:
        bad &= _nanops.nancount(x, axes) > 0
    if np.any(bad):
        raise ValueError("Weights included NaN, inf or were all zero.")


def _result_dtype(
    adt: np.dtype[Any], q: np.ndarray, weak_q: bool, method: str, weighted: bool
) -> np.dtype[Any]:
    """NumPy's result dtype of ``quantile(a, q, method=method)``.

    Methods that pick an element, and ``linear`` with integer ``q``, keep
    ``adt`` (native byte order: results are always native-endian).
    Interpolating methods promote it with the dtype of the virtual index:
    ``q``'s float dtype (float64 for integer ``q``), or a weak Python float
    when ``q`` was a Python scalar (float inputs keep their dtype).  Cases
    where NumPy interpolates in integers or in a float narrower than float64
    for integer input, or raises (bool input), go to NumPy.
    """
    if weighted and method == "inverted_cdf":
        return adt
    int_q = q.dtype.kind in "biu"
    if method in _DISCRETE or (method == "linear" and int_q):
        return adt
    if adt.kind == "b":
        raise Delegate  # NumPy: TypeError (boolean subtract)
    if weak_q:
        # a Python float weight: floats keep their dtype, integers give float64
        return adt if adt in _FLOATS else F64
    if int_q:
        if method in _INT_INDEX:
            raise Delegate  # NumPy interpolates with an integer weight
        return F64
    rd = np.promote_types(adt, q.dtype)
    if adt.kind != "f" and rd != F64:
        raise Delegate  # e.g. int8 with float32 q: NumPy's int8 differences
    return rd


# --- implementations -------------------------------------------------------


def _beyond_float64(x: np.ndarray) -> bool:
    """Whether a 64-bit integer array holds values float64 cannot represent exactly."""
    limit = 2**53
    return bool(x.size) and (int(x.max()) > limit or int(x.min()) < -limit)


def median(
    ignore_nan: bool, a: Any, axis: Any, out: Any, overwrite_input: Any, keepdims: Any
) -> Any:
    """``nanmedian`` (``ignore_nan``) or ``median``; ``overwrite_input`` is
    ignored (the input is never modified)."""
    x = kernel_input(as_ndarray(a))
    if x.size == 0 or x.dtype.kind == "c":
        raise Delegate  # NumPy's empty-input path; complex medians
    axes = tuple_axes(axis, x.ndim)
    kd = keepdims_flag(keepdims)
    kshape = kept_shape(x.shape, axes) if kd else None
    rd = x.dtype if x.dtype.kind == "f" else F64
    if out is not None:
        check_out(out, out_shape(x.shape, axes, kd))
        if out.dtype != rd:
            raise Delegate  # NumPy's casting into `out` varies by path
    res, empty = _nanops.nanmedian(x, axes, ignore_nan)
    res = with_dtype(res, rd)
    if ignore_nan and empty:
        warn(MSG_ALL_NAN, 3, count=_all_nan_slices(x, axes))
    return finish_order(res, out, kd, kshape)


def quantile(
    percent: bool,
    ignore_nan: bool,
    a: Any,
    q: Any,
    axis: Any,
    out: Any,
    overwrite_input: Any,
    method: Any,
    keepdims: Any,
    weights: Any,
) -> Any:
    """``nanquantile``/``quantile`` (``percent=False``) or
    ``nanpercentile``/``percentile`` (``percent``), NaN-ignoring with
    ``ignore_nan``; ``overwrite_input`` is ignored."""
    x = kernel_input(as_ndarray(a))
    if not (dispatch_free(q) and dispatch_free(weights)):
        raise Delegate
    if x.dtype.kind == "c":
        raise TypeError("a must be an array of real numbers")
    weak_q = type(q) in (int, float)
    qa = _q_array(q, percent)
    w = None if weights is None else _weights_array(weights, x, axis, method)
    if x.size == 0 or method not in METHODS:
        raise Delegate  # NumPy's empty-input path; its invalid-method error
    rd = _result_dtype(x.dtype, qa, weak_q, method, w is not None)
    if rd.kind in "iu" and rd.itemsize == 8 and _beyond_float64(x):
        raise Delegate  # the kernels select in float64: exact only up to 2**53
    axes = tuple_axes(axis, x.ndim)
    if qa.ndim > 2:
        raise ValueError("q must be a scalar or 1d")
    # NumPy refuses weighted averaged_inverted_cdf, and its weighted nan-versions
    # with a 2-d q raise IndexError (a NumPy bug): those we compute ourselves.
    odd_2d_q = ignore_nan and qa.ndim == 2 and w is None
    odd_no_axes = w is not None and not axes and method != "averaged_inverted_cdf"
    if odd_2d_q or odd_no_axes:
        raise Delegate  # NumPy's own (odd) results for these
    kd = keepdims_flag(keepdims)
    kshape = qa.shape + kept_shape(x.shape, axes) if kd else None
    if out is not None:
        check_out(out, qa.shape + out_shape(x.shape, axes, kd))
        if out.dtype != rd:
            raise Delegate  # NumPy's casting into `out` varies by path
    if w is not None:
        _check_weight_sums(x, w, axes, ignore_nan)
        if ignore_nan and x.dtype.kind == "f" and not np.isfinite(w).all():
            # NumPy drops NaN elements with their weights, so a NaN or inf
            # weight there is no error; the primitive refuses any non-finite
            # weight (the check above has cleared all the others).
            w = np.where(np.isnan(x), 0.0, w)
    prim_method = method
    if method == "linear" and qa.dtype.kind in "biu":
        prim_method = "lower"  # integer q: NumPy takes elements, no lerp
    q_code = "f8" if weak_q else _Q_CODE[qa.dtype.kind, qa.dtype.itemsize]
    q64 = qa if qa.dtype == F64 else qa.astype(F64)
    res, empty = _nanops.nanquantile(
        x, q64, axes, prim_method, w, ignore_nan, q_code, _RESULT_CODE.get(rd.char)
    )
    n_all_nan = 0
    if ignore_nan and (empty or qa.size == 0):
        counts = _nanops.nancount(x, axes)
        n_all_nan = int(np.count_nonzero(counts == 0))
        if counts.flat[0] == 0:
            # NumPy: an all-NaN first slice (its result in a's dtype) sets
            # the dtype of the whole result
            rd = x.dtype
    elif (
        not ignore_nan
        and res.ndim == 0
        and out is None
        and x.dtype.kind == "f"
        and np.isnan(res)
        and int(_nanops.nancount(x, axes)) < x.size
    ):
        # NumPy returns the slice's NaN element itself (a's dtype)
        rd = x.dtype
    res = with_dtype(res, rd)
    if n_all_nan:
        warn(MSG_ALL_NAN, 3, count=n_all_nan)
    if (
        w is not None
        and method == "inverted_cdf"
        and out is None
        and not kd
        and res.ndim == 0
        and not (res.dtype.kind == "f" and np.isnan(res))
    ):
        return res  # NumPy's weighted path returns a 0-d array, not a scalar
    return finish_order(res, out, kd, kshape)
