"""``.nanops`` on xarray's DataArray and Dataset: xarray's calls, nanops' kernels.

``import nanops.xarray`` registers the accessor.  Its methods have the call
shapes of xarray's own (``da.nanops.mean("time")``,
``da.nanops.rolling(time=7, min_periods=3).median()``,
``ds.nanops.groupby("time.month").quantile(0.9)``,
``da.nanops.resample(time="MS").mean()``) and return what xarray's return —
the same dims, coords, names and attrs (as ``keep_attrs`` says, xarray's
default when None), values within rounding — computed by nanops' public
functions.  A Dataset applies to each data variable as xarray does.

dask-backed objects stay lazy: the reductions, medians and quantiles,
moving windows, fills and group-by run through :mod:`nanops.dask` (exact
quantiles over chunked dims, windows overlapping across chunks, group-by
through flox with nanops' kernels).

What xarray accepts and nanops cannot honour (several rolling dims,
``skipna=False`` on float data, several or multi-dimensional groups, a
dask-backed group variable, non-numeric variables where xarray computes on
them) raises ``NotImplementedError`` naming the argument.  Argument errors
are xarray's own: the rolling, groupby and resample arguments are parsed by
xarray.

Examples
--------
>>> import numpy as np, xarray as xr, nanops.xarray
>>> da = xr.DataArray([1.0, np.nan, 3.0, 4.0], dims="time", name="t")
>>> da.nanops.rolling(time=2, min_periods=1).mean().values
array([1. , 1. , 3. , 3.5])
>>> da.nanops.mean("time").item()
2.6666666666666665
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import xarray as xr

from ._accessor_support import GROUP_REDUCTIONS as GROUP_REDUCTIONS  # (re-exported)
from ._xarray_groupby import GroupBy
from ._xarray_reduce import REDUCTIONS as REDUCTIONS  # (re-exported)
from ._xarray_reduce import Reductions as _Reductions
from ._xarray_rolling import Rolling
from ._xarray_rolling import fill as _fill
from ._xarray_rolling_exp import RollingExp
from ._xarray_rank import rank as _rank

__all__ = ["DataArrayAccessor", "DatasetAccessor", "Rolling", "RollingExp", "GroupBy"]



class _Accessor(_Reductions):
    """The methods shared by the DataArray and Dataset accessors: the
    reductions and quantiles, windows, fills, groups and resampling."""

    def rolling(self, dim: Mapping[Any, int] | None = None, min_periods: int | None = None,
                center: bool | Mapping[Any, bool] = False, **window_kwargs: int) -> Rolling:
        """xarray's ``rolling`` along one dimension: ``rolling(time=7,
        min_periods=None, center=False)``; its statistics are nanops'
        ``move_*`` functions (see :class:`Rolling`)."""
        windows = dict(dim or {}, **window_kwargs)
        return Rolling(self._obj, windows, min_periods, center)

    def rolling_exp(self, window: Mapping[Any, float] | None = None, window_type: str = "span",
                    **window_kwargs: float) -> RollingExp:
        """xarray's ``rolling_exp(time=alpha_or_span, window_type=...)``: numbagg's
        exponentially weighted statistics, by nanops' ``move_exp_nan*``."""
        return RollingExp(self._obj, dict(window or {}, **window_kwargs), window_type)

    def ffill(self, dim: Hashable, limit: int | None = None) -> Any:
        """xarray's ``ffill``: carry the last value forward over at most
        ``limit`` NaN (all when None), by :func:`nanops.ffill`."""
        return _fill(self._obj, "ffill", dim, limit)

    def bfill(self, dim: Hashable, limit: int | None = None) -> Any:
        """xarray's ``bfill``: carry the next value backward, by :func:`nanops.bfill`."""
        return _fill(self._obj, "bfill", dim, limit)

    def rank(self, dim: Hashable, *, pct: bool = False, keep_attrs: bool | None = None) -> Any:
        """xarray's ``rank``: each value's rank along ``dim`` from 1, ties
        averaged, NaN kept (``pct``: divided by the count of values), by
        :func:`nanops.nanrankdata` (floats) and :func:`nanops.rankdata`;
        without bottleneck."""
        return _rank(self._obj, dim, pct, keep_attrs)

    def groupby(self, group: Any = None, **kwargs: Any) -> GroupBy:
        """xarray's ``groupby`` (the same arguments, parsed by xarray: a name
        such as ``"time.month"``, a DataArray, a grouper): one group
        variable along one dimension; the statistics are nanops'
        ``group_nan*`` functions (see :class:`GroupBy`)."""
        return GroupBy(self._obj, self._obj.groupby(group, **kwargs))

    def resample(self, indexer: Mapping[Any, Any] | None = None, **kwargs: Any) -> GroupBy:
        """xarray's ``resample`` (``resample(time="MS")``, ``closed``,
        ``label``, ``offset``, ``origin`` as xarray; bins by xarray/pandas):
        the statistics of :class:`GroupBy`; an empty bin is NaN."""
        return GroupBy(self._obj, self._obj.resample(indexer, **kwargs), resample=True)


@xr.register_dataarray_accessor("nanops")
class DataArrayAccessor(_Accessor):
    """``da.nanops``: xarray's reductions, quantiles, rolling and exponential
    windows, fills, group-by and resampling of a DataArray, computed by nanops.

    >>> import xarray as xr, nanops.xarray
    >>> xr.DataArray([[1.0, 2.0], [3.0, float("nan")]], dims=("t", "x")).nanops.sum("t").values
    array([4., 2.])
    """

    def __init__(self, obj: xr.DataArray) -> None:
        self._obj = obj


@xr.register_dataset_accessor("nanops")
class DatasetAccessor(_Accessor):
    """``ds.nanops``: the methods of :class:`DataArrayAccessor` applied to
    every data variable, as xarray's Dataset methods apply them."""

    def __init__(self, obj: xr.Dataset) -> None:
        self._obj = obj
