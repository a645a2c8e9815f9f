"""General paths of the group family: numbagg's ``group_nan*`` call
``f(values, labels, *, axis=None, num_labels=None)``.

``labels`` are integers already factorised (``pandas.factorize``), negative
ones skipped, with the shape of ``values`` along ``axis``: ``None`` (the
default) needs ``labels.shape == values.shape``; an int or a tuple of ints
names the grouped axes, ``labels`` having their lengths in the order given.
The primitives (``_nanops.group_*``) take ``labels`` as ``int64`` aligned
with the grouped axes in increasing order; the helpers here convert and
check the caller's arguments first.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

from ._args import as_ndarray, kernel_input

__all__ = ["group", "group_var", "group_quantile"]


def _labels(labels: Any) -> np.ndarray:
    """``labels`` as an aligned native ``int64`` array (``TypeError`` for a
    non-integer dtype, ``ValueError`` for a ``uint64`` label beyond ``int64``)."""
    lab = np.asarray(labels)
    if lab.dtype.kind not in "iu":
        raise TypeError(
            "labels must be an integer array, already factorised (for instance "
            f"with pandas.factorize); got dtype {lab.dtype}"
        )
    if lab.dtype.kind == "u" and lab.dtype.itemsize == 8 and lab.size:
        top = int(lab.max())
        if top > np.iinfo(np.int64).max:
            raise ValueError(f"label {top} is out of range (labels must fit in int64)")
    lab = lab.astype(np.int64, copy=False)
    if not lab.flags.aligned:
        lab = lab.copy()
    return lab


def _num_labels(num_labels: Any) -> int | None:
    """``num_labels`` as a non-negative int or ``None``."""
    if num_labels is None:
        return None
    if isinstance(num_labels, (bool, np.bool_)):
        raise TypeError("num_labels must be an integer or None")
    try:
        n = operator.index(num_labels)
    except TypeError:
        raise TypeError("num_labels must be an integer or None") from None
    if n < 0:
        raise ValueError(f"num_labels must be non-negative, got {n}")
    if n > np.iinfo(np.intp).max:
        # NumPy's (and numbagg's) error for a dimension beyond intp
        raise ValueError(f"num_labels ({n}) exceeds the maximum allowed dimension "
                         f"({np.iinfo(np.intp).max})")
    return n


def _inputs(
    values: Any, labels: Any, axis: Any, num_labels: Any
) -> tuple[np.ndarray, np.ndarray, tuple[int, ...], int | None]:
    """The primitive's values, labels, sorted axes and ``num_labels``."""
    x = kernel_input(as_ndarray(values))
    lab = _labels(labels)
    if axis is None:
        if lab.shape != x.shape:
            raise ValueError(
                "axis required if values and labels have different shapes: "
                f"{x.shape} vs {lab.shape}"
            )
        axes: tuple[int, ...] = tuple(range(x.ndim))
    else:
        axes = normalize_axis_tuple(axis, x.ndim, "axis")
        if lab.ndim != len(axes):
            raise ValueError(
                f"labels must have one dimension per grouped axis ({len(axes)}), "
                f"got shape {lab.shape}"
            )
        if list(axes) != sorted(axes):
            # numbagg's order: the grouped axes in the order given, after
            # the others (positions of first/last/argmin/argmax count so)
            k = len(axes)
            x = np.moveaxis(x, axes, range(x.ndim - k, x.ndim))
            axes = tuple(range(x.ndim - k, x.ndim))
    return x, lab, axes, _num_labels(num_labels)


def group_quantile(
    prim: Callable[..., np.ndarray],
    values: Any,
    labels: Any,
    q: Any,
    axis: Any,
    num_labels: Any,
    method: Any,
    weights: Any,
) -> np.ndarray:
    """``group_nanquantile``: ``q`` of any shape (prepended to the result),
    in [0, 1]; ``weights`` of the labels' or the values' shape."""
    qa = np.asarray(q)
    if qa.dtype.kind not in "biuf":
        raise TypeError(f"q must be real numbers, got dtype {qa.dtype}")
    qf = qa.astype(np.float64).reshape(-1)
    if not (np.all(qf >= 0) and np.all(qf <= 1)):
        raise ValueError("Quantiles must be in the range [0, 1]")
    if not isinstance(method, str):
        raise TypeError("method must be a string")
    lab_shape = np.shape(labels)
    x, lab, axes, n = _inputs(values, labels, axis, num_labels)
    w = None
    if weights is not None:
        w = np.asarray(weights, dtype=np.float64)
        if axis is not None and w.shape == np.shape(values) and w.shape != lab_shape:
            # weights of the values' shape: their grouped axes moved as the values'
            given = normalize_axis_tuple(axis, w.ndim, "axis")
            if list(given) != sorted(given):
                w = np.moveaxis(w, given, range(w.ndim - len(given), w.ndim))
        if not w.flags.aligned:
            w = w.copy()
    res = prim(x, lab, axes, n, qf.tolist(), method, w)
    return res.reshape(qa.shape + res.shape[1:])


def group(
    prim: Callable[..., np.ndarray],
    values: Any,
    labels: Any,
    axis: Any,
    num_labels: Any,
    *params: Any,
) -> np.ndarray:
    """``group_nansum`` … (``prim``: ``_nanops.group_*``, ``params`` passed on)."""
    x, lab, axes, n = _inputs(values, labels, axis, num_labels)
    return prim(x, lab, axes, n, *params)


def group_var(
    prim: Callable[..., np.ndarray],
    std: bool,
    values: Any,
    labels: Any,
    axis: Any,
    num_labels: Any,
    ddof: Any,
) -> np.ndarray:
    """``group_nanvar``/``group_nanstd``: ``ddof`` a real number."""
    x, lab, axes, n = _inputs(values, labels, axis, num_labels)
    if isinstance(ddof, (bool, np.bool_)) or not isinstance(ddof, (int, float, np.number)):
        raise TypeError(f"ddof must be a real number, got {type(ddof).__name__}")
    return prim(x, lab, axes, n, float(ddof), std)
