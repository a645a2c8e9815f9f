"""The group-by and resampling of :mod:`nanops.xarray`'s accessors: xarray's
grouped statistics by nanops' ``group_nan*`` functions (dask: through
:mod:`nanops.dask`, or blockwise over the gathered grouped axis)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
import pandas as pd  # type: ignore[import-untyped, unused-ignore]
import xarray as xr

import nanops

from ._accessor_support import GROUP_REDUCTIONS, quiet
from ._xarray_support import (NUMERIC_ONLY, as_float, as_q, dask_array, dataset_of, dims_of,
                              is_dask, is_numeric, ndask, refuse_non_numeric, refuse_skipna,
                              resolve_keep_attrs, where)

__all__ = ["GroupBy"]


def _group_blockwise(fname: str, x: Any, labels: np.ndarray, axis: int, n: int, *args: Any,
                     **kwargs: Any) -> Any:
    """``nanops.<fname>`` of a dask array whose grouped axis is gathered into
    one chunk (the statistics :mod:`nanops.dask` has no map-reduce for)."""
    fn = getattr(nanops, fname)
    moved = dask_array.moveaxis(x, axis, -1).rechunk({x.ndim - 1: -1})
    with quiet():
        probe = np.asarray(fn(np.zeros((1,) * (x.ndim - 1) + (labels.size,), x.dtype), labels,
                              *args, axis=-1, num_labels=n, **kwargs))
    lead = probe.ndim - x.ndim  # a q dimension in front
    chunks = tuple((s,) for s in probe.shape[:lead]) + moved.chunks[:-1] + ((n,),)

    def block(b: np.ndarray) -> np.ndarray:
        with quiet():
            return np.asarray(fn(b, labels, *args, axis=-1, num_labels=n, **kwargs))

    return dask_array.map_blocks(block, moved, chunks=chunks, dtype=probe.dtype,
                          new_axis=list(range(lead)) if lead else None,
                          meta=np.empty((0,) * probe.ndim, probe.dtype))


class GroupBy:
    """``obj.nanops.groupby(group)`` / ``obj.nanops.resample(time=freq)``:
    xarray's grouped statistics by nanops' ``group_nan*`` functions.

    The groups are xarray's own (its factorisation of the group variable:
    sorted unique values, NaN labels left out; resampling bins by pandas'
    rules), so the result has xarray's group coordinate (the dimension
    taking the grouped one's place), the other coords and the attrs per
    ``keep_attrs``.  A Dataset's variables without the grouped dimension are
    repeated along the groups, as xarray's flox path repeats them.  An empty
    group (a resampling bin without a time step) is NaN for every statistic.

    >>> import numpy as np, pandas as pd, xarray as xr, nanops.xarray
    >>> t = pd.date_range("2000-01-01", periods=4, freq="15D")
    >>> da = xr.DataArray([1.0, 2.0, np.nan, 4.0], dims="time", coords={"time": t})
    >>> da.nanops.groupby("time.month").mean().values
    array([1.5, 4. ])
    """

    def __init__(self, obj: xr.DataArray | xr.Dataset, grouped: Any,
                 resample: bool = False) -> None:
        groupers = getattr(grouped, "groupers", None)
        if groupers is None:  # xarray before its groupers (2024.09)
            raise NotImplementedError(f"nanops groupby needs xarray >= 2024.10 (this is "
                                      f"{xr.__version__})")
        if len(groupers) != 1:
            raise NotImplementedError("nanops groupby: several group variables (one only)")
        (grouper,) = groupers
        codes = grouper.codes
        if is_dask(codes.data):
            raise NotImplementedError("nanops groupby: a dask-backed group variable "
                                      "(compute it first)")
        if codes.ndim != 1:
            raise NotImplementedError(f"nanops groupby: a group of dims {codes.dims} "
                                      "(one dimension only)")
        self.obj = obj
        self.dim: Hashable = codes.dims[0]
        # resampling keeps the dimension's name (xarray groups under a
        # temporary one and renames it back)
        self.name: Hashable = self.dim if resample else grouper.name
        self.labels = np.asarray(codes.data).astype(np.intp, copy=False)
        index = grouper.full_index
        self.ngroups = len(index)
        members = np.bincount(self.labels[self.labels >= 0], minlength=self.ngroups)
        self.empty = members == 0
        self.coord = (None if isinstance(index, pd.RangeIndex)
                      else xr.Variable((self.name,), index, attrs=dict(codes.attrs)))

    def __repr__(self) -> str:
        return f"nanops.xarray.GroupBy over {self.dim!r}: {self.ngroups} groups ({self.name!r})"

    def _data(self, fname: str, x: Any, axis: int, *args: Any, **kwargs: Any) -> Any:
        """nanops' grouped statistic of ``x`` along ``axis``: groups last
        (a quantile's ``q`` first)."""
        n = self.ngroups
        if self.empty.any() and x.dtype.kind in "biu" and fname in (
                "group_nanmin", "group_nanmax", "group_nanfirst", "group_nanlast"):
            x = x.astype(np.float64)  # an empty group is NaN
        if is_dask(x):
            if fname in ndask.GROUP_NAMES:
                return ndask.group(fname, x, self.labels, axis=axis, num_labels=n, **kwargs)
            return _group_blockwise(fname, x, self.labels, axis, n, *args, **kwargs)
        return getattr(nanops, fname)(x, self.labels, *args, axis=axis, num_labels=n, **kwargs)

    def _one(self, var: xr.DataArray, fname: str, keep: bool, q: np.ndarray | None,
             **kwargs: Any) -> xr.DataArray:
        if self.dim not in var.dims:  # repeated along the groups, as xarray does
            out = var.expand_dims({self.name: self.ngroups})  # attrs kept, as xarray's
            if q is not None and q.ndim:
                out = out.expand_dims(quantile=q, axis=1)
            return out if self.coord is None else out.assign_coords({self.name: self.coord})
        axis = var.get_axis_num(self.dim)
        args = (q,) if q is not None else ()
        with quiet():
            out = self._data(fname, var.data, axis, *args, **kwargs)
        lead = 0 if q is None or q.ndim == 0 else 1
        out = (dask_array if is_dask(out) else np).moveaxis(out, -1, lead + axis)
        if lead:
            out = (dask_array if is_dask(out) else np).moveaxis(out, 0, -1)
        if q is not None:  # NumPy's (so xarray's) dtype for this q and method
            with quiet():
                dtype = np.asarray(nanops.nanquantile(np.zeros(1, var.dtype), q,
                                                      method=kwargs["method"])).dtype
            out = out.astype(dtype, copy=False)
        if self.empty.any():
            shape = [1] * out.ndim
            shape[axis] = self.ngroups
            out = where(self.empty.reshape(shape), np.nan, as_float(out))
        dims = tuple(self.name if d == self.dim else d for d in var.dims)
        coords: dict[Hashable, Any] = {k: c.variable for k, c in var.coords.items()
                                       if self.dim not in c.dims}
        if q is not None:
            if q.ndim:
                dims += ("quantile",)
                coords["quantile"] = ("quantile", q)
            else:
                coords["quantile"] = ((), q)
        result = xr.DataArray(out, dims=dims, coords=coords, name=var.name,
                              attrs=dict(var.attrs) if keep else {})
        if self.coord is not None:
            result = result.assign_coords({self.name: self.coord})
        return result

    def _apply(self, name: str, dim: Any, keep_attrs: bool | None, skipna: bool | None = None,
               q: np.ndarray | None = None, **kwargs: Any) -> Any:
        if dim is not None and dims_of(dim, self.obj) != (self.dim,):
            raise NotImplementedError(f"nanops groupby {name}: dim={dim!r} (the grouped "
                                      f"dimension {self.dim!r} only)")
        keep = resolve_keep_attrs(keep_attrs)
        fname = GROUP_REDUCTIONS[name]  # "quantile" exactly when q is given

        def one(var: xr.DataArray) -> xr.DataArray:
            refuse_skipna(skipna, var, name)
            if not is_numeric(var):
                if name == "quantile":
                    raise TypeError(f"nanops quantile of {var.name!r}: dtype {var.dtype} "
                                    "is not numeric")
                refuse_non_numeric(var, name)
            return self._one(var, fname, keep, q, **kwargs)

        obj = self.obj
        if isinstance(obj, xr.DataArray):
            return one(obj)
        results = {k: one(v) for k, v in obj.data_vars.items()
                   if not (name in NUMERIC_ONLY and not is_numeric(v))}
        extra: dict[Hashable, Any] = {self.name: self.coord} if self.coord is not None else {}
        if q is not None and q.ndim == 0:
            extra["quantile"] = q
        return dataset_of(obj, results, keep, (self.dim,), extra)

    def sum(self, dim: Any = None, *, skipna: bool | None = None,
            keep_attrs: bool | None = None) -> Any:
        """Sum of each group (0 for an all-NaN group) by :func:`nanops.group_nansum`."""
        return self._apply("sum", dim, keep_attrs, skipna)

    def mean(self, dim: Any = None, *, skipna: bool | None = None,
             keep_attrs: bool | None = None) -> Any:
        """Mean of each group by :func:`nanops.group_nanmean`."""
        return self._apply("mean", dim, keep_attrs, skipna)

    def var(self, dim: Any = None, *, skipna: bool | None = None, ddof: int = 0,
            keep_attrs: bool | None = None) -> Any:
        """Variance of each group (``ddof=0`` as xarray) by :func:`nanops.group_nanvar`."""
        return self._apply("var", dim, keep_attrs, skipna, ddof=ddof)

    def std(self, dim: Any = None, *, skipna: bool | None = None, ddof: int = 0,
            keep_attrs: bool | None = None) -> Any:
        """Standard deviation of each group (``ddof=0``) by :func:`nanops.group_nanstd`."""
        return self._apply("std", dim, keep_attrs, skipna, ddof=ddof)

    def min(self, dim: Any = None, *, skipna: bool | None = None,
            keep_attrs: bool | None = None) -> Any:
        """Minimum of each group by :func:`nanops.group_nanmin`."""
        return self._apply("min", dim, keep_attrs, skipna)

    def max(self, dim: Any = None, *, skipna: bool | None = None,
            keep_attrs: bool | None = None) -> Any:
        """Maximum of each group by :func:`nanops.group_nanmax`."""
        return self._apply("max", dim, keep_attrs, skipna)

    def count(self, dim: Any = None, *, keep_attrs: bool | None = None) -> Any:
        """Non-NaN values of each group (int64) by :func:`nanops.group_nancount`."""
        return self._apply("count", dim, keep_attrs)

    def median(self, dim: Any = None, *, skipna: bool | None = None,
               keep_attrs: bool | None = None) -> Any:
        """Median of each group by :func:`nanops.group_nanmedian`."""
        return self._apply("median", dim, keep_attrs, skipna)

    def first(self, skipna: bool | None = None, keep_attrs: bool | None = None) -> Any:
        """First non-NaN value of each group by :func:`nanops.group_nanfirst`."""
        return self._apply("first", None, keep_attrs, skipna)

    def last(self, skipna: bool | None = None, keep_attrs: bool | None = None) -> Any:
        """Last non-NaN value of each group by :func:`nanops.group_nanlast`."""
        return self._apply("last", None, keep_attrs, skipna)

    def quantile(self, q: Any, dim: Any = None, *, method: str = "linear",
                 keep_attrs: bool | None = None, skipna: bool | None = None,
                 interpolation: Any = None) -> Any:
        """The ``q`` quantile(s) of each group (13 methods; a 1-d ``q`` adds a
        last ``quantile`` dimension, as xarray's) by
        :func:`nanops.group_nanquantile`; float64 as xarray's."""
        if interpolation is not None:
            raise NotImplementedError("nanops quantile: interpolation= (deprecated); use method=")
        qa = as_q(q)
        return self._apply("quantile", dim, keep_attrs, skipna, qa, method=method)
