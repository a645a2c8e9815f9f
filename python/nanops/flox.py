"""flox adapter: nanops' group-by kernels as ``flox.aggregations.Aggregation``
objects, so that ``flox.groupby_reduce`` and ``flox.xarray.xarray_reduce``
(what xarray's ``groupby`` runs on) compute with nanops.

flox's documented extension point is the ``Aggregation`` blueprint: its
``numpy`` entry may be a callable ``f(group_idx, array, *, axis=-1,
size=None, fill_value=None, dtype=None, **kwargs)`` that does the whole
grouped reduction of an in-memory array (flox calls it directly instead of
its engines).  :func:`aggregation` returns a copy of flox's own blueprint
for the reduction with that entry replaced by the matching ``group_nan*``
function, so flox keeps its own argument handling, reindexing and dask
path (for dask arrays the blockwise ``chunk``/``combine`` steps stay flox's).

flox is imported lazily: ``import nanops`` never needs it, and this module
raises ``ImportError`` only when :func:`aggregation` is called without flox.

>>> import numpy as np, nanops.flox, flox                  # doctest: +SKIP
>>> flox.groupby_reduce(np.array([1.0, 2.0, 4.0]), np.array([0, 0, 1]),
...                     func=nanops.flox.aggregation("nanmean"), engine="numpy")
(array([1.5, 4. ]), array([0, 1]))
"""

from __future__ import annotations

import copy
import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["aggregation", "AGGREGATIONS"]

#: flox's reduction name → (nanops function name, keyword arguments taken
#: from flox's ``finalize_kwargs``, the value nanops gives an empty group).
AGGREGATIONS: dict[str, tuple[str, tuple[str, ...], float]] = {
    "nansum": ("group_nansum", (), 0.0),
    "nanprod": ("group_nanprod", (), 1.0),
    "nanmean": ("group_nanmean", (), np.nan),
    "nanvar": ("group_nanvar", ("ddof",), np.nan),
    "nanstd": ("group_nanstd", ("ddof",), np.nan),
    "nanmin": ("group_nanmin", (), np.nan),
    "nanmax": ("group_nanmax", (), np.nan),
    "nanmedian": ("group_nanmedian", (), np.nan),
}


def _same_fill(fill_value: Any, natural: float) -> bool:
    """Whether nanops' value for an empty group is already ``fill_value``."""
    if fill_value is None:
        return True
    try:
        fv = float(fill_value)
    except (TypeError, ValueError):
        return False
    return fv == natural or (np.isnan(fv) and np.isnan(natural))


def _kernel(name: str) -> Callable[..., np.ndarray]:
    """flox's ``numpy`` callable for the reduction ``name``."""
    import nanops

    fname, params, natural = AGGREGATIONS[name]
    fn = getattr(nanops, fname)

    def reduction(
        group_idx: Any,
        array: Any,
        *,
        axis: int = -1,
        size: int | None = None,
        fill_value: Any = None,
        dtype: Any = None,
        **kwargs: Any,
    ) -> np.ndarray:
        array = np.asarray(array)
        group_idx = np.asarray(group_idx)
        k = group_idx.ndim
        axes = tuple(range(array.ndim - k, array.ndim))
        extra = {p: kwargs[p] for p in params if p in kwargs}
        if "ddof" in params:
            extra.setdefault("ddof", 0)  # flox's (and NumPy's) default, not numbagg's
        res = fn(array, group_idx, axis=axes, num_labels=size, **extra)
        if not _same_fill(fill_value, natural):
            # flox's fill_value is for groups without members (an all-NaN
            # group keeps the reduction's own value, as flox's engines give)
            flat = group_idx.reshape(-1)
            members = np.bincount(flat[flat >= 0], minlength=res.shape[-1])[: res.shape[-1]]
            empty = members == 0
            if empty.any():
                res = res.astype(np.result_type(res, np.asarray(fill_value)), copy=False)
                res[..., empty] = fill_value
        if dtype is not None:
            res = res.astype(dtype, copy=False)
        return res

    reduction.__name__ = f"nanops_{fname}"
    return reduction


def aggregation(name: str) -> Any:
    """A ``flox.aggregations.Aggregation`` computing flox's reduction ``name``
    (one of :data:`AGGREGATIONS`) with nanops; pass it as ``func=`` to
    ``flox.groupby_reduce`` or ``flox.xarray.xarray_reduce`` with
    ``engine="numpy"`` (flox's numbagg engine post-processes results as its
    own).  ``ValueError`` for a name nanops does not provide; ``ImportError``
    without flox."""
    if name not in AGGREGATIONS:
        raise ValueError(
            f"nanops provides no flox aggregation {name!r}; choose one of {sorted(AGGREGATIONS)}"
        )
    flox_aggregations = importlib.import_module("flox.aggregations")  # lazily: optional
    agg = copy.deepcopy(flox_aggregations.AGGREGATIONS[name])
    agg.numpy = (_kernel(name),)
    return agg
