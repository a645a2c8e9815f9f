"""``rank`` of :mod:`nanops.xarray`'s accessors: xarray's ``rank`` (which
needs bottleneck, off by default in xarray) by nanops' ``nanrankdata`` and
``rankdata``, with xarray's dims, coords, names, attrs and dask rules."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
import xarray as xr

import nanops

__all__ = ["rank"]


def _ranked(var: xr.Variable, dim: Hashable, pct: bool) -> xr.Variable:
    """One variable ranked along ``dim``, as ``xr.Variable.rank``: floats by
    ``nanrankdata`` (NaN stays NaN), others by ``rankdata``; ``pct`` divides
    by the count of valid values. dask data: lazy, ``dim`` in one chunk
    (``apply_ufunc``'s ``dask="parallelized"``, as xarray)."""
    func = nanops.nanrankdata if var.dtype.kind == "f" else nanops.rankdata
    ranked = xr.apply_ufunc(
        func, var, input_core_dims=[[dim]], output_core_dims=[[dim]],
        dask="parallelized", output_dtypes=[np.float64], kwargs={"axis": -1},
    ).transpose(*var.dims)
    if pct:
        ranked /= var.notnull().sum(dim)
    return ranked


def rank(obj: xr.DataArray | xr.Dataset, dim: Hashable, pct: bool,
         keep_attrs: bool | None) -> Any:
    """xarray's ``rank(dim, pct=False, keep_attrs=None)`` of ``obj``: data
    variables without ``dim`` are dropped, coordinates kept; a Dataset's
    attrs kept unless ``keep_attrs`` is False."""
    if dim not in obj.dims:
        raise ValueError(f"Dimension {dim!r} not found in data dimensions {tuple(obj.dims)}")
    if isinstance(obj, xr.DataArray):
        r = _ranked(obj.variable, dim, pct)
        return xr.DataArray(r.data, dims=r.dims, coords=obj.coords, name=obj.name,
                            attrs=r.attrs)
    variables = {name: _ranked(var.variable, dim, pct)
                 for name, var in obj.data_vars.items() if dim in var.dims}
    keep = True if keep_attrs is None else keep_attrs
    return xr.Dataset(variables, coords=obj.coords, attrs=obj.attrs if keep else {})
