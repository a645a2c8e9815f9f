"""The reductions and quantiles of :mod:`nanops.xarray`'s accessors: xarray's
``sum`` … ``argmax`` and ``quantile`` by nanops' ``nan*`` functions (dask:
through :mod:`nanops.dask`)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, Final

import numpy as np
import xarray as xr

import nanops

from ._accessor_support import quiet
from ._xarray_support import (NUMERIC_ONLY, as_q, check_dims, dataset_of, dims_of, is_dask,
                              is_numeric, ndask, refuse_non_numeric, refuse_skipna,
                              resolve_keep_attrs, unchanged, where)

__all__ = ["REDUCTIONS", "Reductions"]


#: The reductions: accessor method → nanops function.
REDUCTIONS: Final = {
    "sum": "nansum",
    "mean": "nanmean",
    "var": "nanvar",
    "std": "nanstd",
    "min": "nanmin",
    "max": "nanmax",
    "count": "nancount",
    "median": "nanmedian",
    "prod": "nanprod",
    "argmin": "nanargmin",
    "argmax": "nanargmax",
}


def _reduce_data(name: str, x: Any, axes: tuple[int, ...], **kwargs: Any) -> Any:
    """``nanops.<REDUCTIONS[name]>`` of ``x`` over ``axes`` (lazily for dask)."""
    fname = REDUCTIONS[name]
    if name in ("argmin", "argmax"):
        (axis,) = axes
        return getattr(nanops, fname)(x, axis=axis)
    if is_dask(x):
        if name == "median":
            out = ndask.nanmedian(x, axis=axes)
            if out is not NotImplemented:
                return out
        elif fname in ndask.NAMES:
            return ndask.reduce(fname, x, axes, **kwargs)
    return getattr(nanops, fname)(x, axis=axes, **kwargs)


def _quantile_data(x: Any, q: np.ndarray, axes: tuple[int, ...], method: Any) -> Any:
    if is_dask(x):
        out = ndask.nanquantile(x, q, axis=axes, method=method)
        if out is not NotImplemented:
            return out
    return nanops.nanquantile(x, q, axis=axes, method=method)


def _reduced(var: xr.DataArray, dims: tuple[Hashable, ...], data: Any, keep_attrs: bool,
             q: np.ndarray | None = None) -> xr.DataArray:
    """A reduction's result: ``data`` with ``var``'s name, its coordinates not
    along ``dims`` and, per ``keep_attrs``, its attrs; a quantile's ``q``
    as a leading ``quantile`` dimension (1-d) or a scalar coordinate."""
    drop = [k for k, c in var.coords.items() if set(c.dims) & set(dims)]
    kept = var.drop_vars(drop).coords
    new_dims = tuple(d for d in var.dims if d not in dims)
    if q is not None and q.ndim:
        new_dims = ("quantile",) + new_dims
    if not is_dask(data):
        data = np.asarray(data)
    out = xr.DataArray(data, dims=new_dims, coords=kept, name=var.name,
                       attrs=dict(var.attrs) if keep_attrs else {})
    if q is not None:
        out = out.assign_coords(quantile=("quantile", q) if q.ndim else q)
    return out


def _reduce_var(var: xr.DataArray, name: str, dims: tuple[Hashable, ...], keep_attrs: bool,
                **kwargs: Any) -> xr.DataArray:
    axes = tuple(var.get_axis_num(d) for d in dims)
    with quiet():
        data = _reduce_data(name, var.data, axes, **kwargs)
    return _reduced(var, dims, data, keep_attrs)


def _quantile_var(var: xr.DataArray, q: np.ndarray, dims: tuple[Hashable, ...], method: str,
                  keep_attrs: bool) -> xr.DataArray:
    axes = tuple(var.get_axis_num(d) for d in dims)
    with quiet():
        data = _quantile_data(var.data, q, axes, method)
    return _reduced(var, dims, data, keep_attrs, q)


def _sum_min_count(var: xr.DataArray, out: xr.DataArray, dims: tuple[Hashable, ...],
                   min_count: int | None) -> xr.DataArray:
    """xarray's ``min_count`` of a sum or product: NaN where fewer values."""
    if not min_count or var.dtype.kind not in "fc":
        return out
    axes = tuple(var.get_axis_num(d) for d in dims)
    count = _reduce_data("count", var.data, axes)
    data = where(count < min_count, np.nan, out.data)
    return out.copy(deep=False, data=data)


class Reductions:
    """The reductions shared by the DataArray and Dataset accessors."""

    _obj: Any

    def _reduce(self, name: str, dim: Any, keep_attrs: bool | None, skipna: bool | None = None,
                min_count: int | None = None, **kwargs: Any) -> Any:
        obj = self._obj
        keep = resolve_keep_attrs(keep_attrs)
        dims = dims_of(dim, obj)
        check_dims(dims, obj)

        def one(var: xr.DataArray) -> xr.DataArray:
            refuse_skipna(skipna, var, name)
            refuse_non_numeric(var, name)
            own = tuple(d for d in var.dims if d in dims)
            if name in ("argmin", "argmax") and len(own) != 1:
                raise NotImplementedError(
                    f"nanops.{name}: dim={dim!r} (one dimension; xarray returns a dict of "
                    "indices for several)"
                )
            out = _reduce_var(var, name, own, keep, **kwargs)
            return _sum_min_count(var, out, own, min_count)

        if isinstance(obj, xr.DataArray):
            return one(obj)
        # a variable without the dims is reduced over none of its axes, as
        # xarray reduces it (a variance of 0, a count of 1)
        results = {key: one(var) for key, var in obj.data_vars.items()
                   if not (name in NUMERIC_ONLY and not is_numeric(var))}
        return dataset_of(obj, results, keep, dims)

    def sum(self, dim: Any = None, *, skipna: bool | None = None, min_count: int | None = None,
            keep_attrs: bool | None = None) -> Any:
        """xarray's ``sum`` (NaN skipped; ``min_count`` as xarray) by :func:`nanops.nansum`."""
        return self._reduce("sum", dim, keep_attrs, skipna, min_count)

    def prod(self, dim: Any = None, *, skipna: bool | None = None,
             min_count: int | None = None, keep_attrs: bool | None = None) -> Any:
        """xarray's ``prod`` (``min_count`` as xarray) by :func:`nanops.nanprod`."""
        return self._reduce("prod", dim, keep_attrs, skipna, min_count)

    def mean(self, dim: Any = None, *, skipna: bool | None = None,
             keep_attrs: bool | None = None) -> Any:
        """xarray's ``mean`` by :func:`nanops.nanmean`."""
        return self._reduce("mean", dim, keep_attrs, skipna)

    def var(self, dim: Any = None, *, skipna: bool | None = None, ddof: int = 0,
            keep_attrs: bool | None = None) -> Any:
        """xarray's ``var`` (``ddof=0`` by default, as xarray) by :func:`nanops.nanvar`."""
        return self._reduce("var", dim, keep_attrs, skipna, ddof=ddof)

    def std(self, dim: Any = None, *, skipna: bool | None = None, ddof: int = 0,
            keep_attrs: bool | None = None) -> Any:
        """xarray's ``std`` (``ddof=0`` by default, as xarray) by :func:`nanops.nanstd`."""
        return self._reduce("std", dim, keep_attrs, skipna, ddof=ddof)

    def min(self, dim: Any = None, *, skipna: bool | None = None,
            keep_attrs: bool | None = None) -> Any:
        """xarray's ``min`` by :func:`nanops.nanmin`."""
        return self._reduce("min", dim, keep_attrs, skipna)

    def max(self, dim: Any = None, *, skipna: bool | None = None,
            keep_attrs: bool | None = None) -> Any:
        """xarray's ``max`` by :func:`nanops.nanmax`."""
        return self._reduce("max", dim, keep_attrs, skipna)

    def count(self, dim: Any = None, *, keep_attrs: bool | None = None) -> Any:
        """xarray's ``count`` (non-NaN values, int64) by :func:`nanops.nancount`."""
        return self._reduce("count", dim, keep_attrs)

    def median(self, dim: Any = None, *, skipna: bool | None = None,
               keep_attrs: bool | None = None) -> Any:
        """xarray's ``median`` by :func:`nanops.nanmedian` (dask: an exact
        distributed selection, no rechunk)."""
        return self._reduce("median", dim, keep_attrs, skipna)

    def argmin(self, dim: Any = None, *, skipna: bool | None = None,
               keep_attrs: bool | None = None) -> Any:
        """xarray's ``argmin`` along one dimension (int64; ``ValueError`` for an
        all-NaN slice) by :func:`nanops.nanargmin`; a NaN's index is never
        returned (see the README's differences)."""
        return self._reduce("argmin", dim, keep_attrs, skipna)

    def argmax(self, dim: Any = None, *, skipna: bool | None = None,
               keep_attrs: bool | None = None) -> Any:
        """xarray's ``argmax`` along one dimension by :func:`nanops.nanargmax`."""
        return self._reduce("argmax", dim, keep_attrs, skipna)

    def quantile(self, q: Any, dim: Any = None, *, method: str = "linear",
                 keep_attrs: bool | None = None, skipna: bool | None = None,
                 interpolation: Any = None) -> Any:
        """xarray's ``quantile`` (a ``quantile`` dimension first for a 1-d
        ``q``, a scalar ``quantile`` coordinate for a scalar one; the 13
        NumPy methods) by :func:`nanops.nanquantile` (dask: an exact
        distributed selection, no rechunk)."""
        if interpolation is not None:
            raise NotImplementedError("nanops.quantile: interpolation= (deprecated); use method=")
        obj = self._obj
        keep = resolve_keep_attrs(keep_attrs)
        qa = as_q(q)
        dims = dims_of(dim, obj)
        check_dims(dims, obj)

        def one(var: xr.DataArray) -> xr.DataArray:
            refuse_skipna(skipna, var, "quantile")
            if not is_numeric(var):
                raise TypeError(f"nanops.quantile of {var.name!r}: dtype {var.dtype} is not "
                                "numeric")
            return _quantile_var(var, qa, tuple(d for d in var.dims if d in dims), method, keep)

        if isinstance(obj, xr.DataArray):
            return one(obj)
        results = {}
        for key, var in obj.data_vars.items():
            if var.dims and not set(var.dims) & set(dims):
                results[key] = unchanged(var, keep)
            else:
                results[key] = one(var)
        extra: dict[Hashable, Any] = {"quantile": qa} if qa.ndim == 0 else {}
        return dataset_of(obj, results, keep, dims, extra)
