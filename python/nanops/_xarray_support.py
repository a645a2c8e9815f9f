"""The wiring shared by the parts of :mod:`nanops.xarray`: dask or NumPy
arrays alike, xarray's argument conventions, its results rebuilt."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, Final

import numpy as np
import xarray as xr

try:  # dask is optional: without it nothing here is dask-backed
    import dask.array as dask_array

    from . import dask as ndask
except ImportError:  # pragma: no cover - dask is in requirements-dev
    dask_array = None  # type: ignore[assignment]
    ndask = None  # type: ignore[assignment]

#: Statistics xarray computes on numbers only (``numeric_only=True``): a
#: Dataset's other variables are left out, as xarray leaves them out.
NUMERIC_ONLY: Final = frozenset({"sum", "mean", "var", "std", "median", "prod"})


def is_dask(x: Any) -> bool:
    return dask_array is not None and isinstance(x, dask_array.Array)


def resolve_keep_attrs(keep_attrs: bool | None) -> bool:
    """xarray's rule: the argument, else the global option, else True (the
    default of this xarray for every operation here)."""
    if keep_attrs is not None:
        return bool(keep_attrs)
    option = xr.get_options()["keep_attrs"]
    return True if option == "default" else bool(option)


def is_numeric(var: xr.DataArray) -> bool:
    return var.dtype.kind in "biuf"


def refuse_non_numeric(var: xr.DataArray, what: str) -> None:
    if not is_numeric(var):
        raise NotImplementedError(
            f"nanops.{what} of {var.name!r}: dtype {var.dtype} (nanops computes on bool, "
            "integer and float data); use xarray's own method for this variable"
        )


def refuse_skipna(skipna: bool | None, var: xr.DataArray, what: str) -> None:
    if skipna is False and var.dtype.kind in "cfO":
        raise NotImplementedError(
            f"nanops.{what}: skipna=False (nanops skips NaN); use xarray's own method"
        )


def as_q(q: Any) -> np.ndarray:
    """A quantile's ``q`` in float64, a scalar or 1-d as xarray takes it."""
    qa = np.asarray(q, dtype=np.float64)
    if qa.ndim > 1:
        raise ValueError("q must be a scalar or 1d")
    return qa


def along(axis: int, index: Any) -> tuple[Any, ...]:
    """An index taking ``index`` along ``axis`` and everything along the others."""
    return (slice(None),) * axis + (index,)


def pad(x: Any, axis: int, before: int, after: int, value: float) -> Any:
    pads = [(before, after) if i == axis else (0, 0) for i in range(x.ndim)]
    if is_dask(x):
        return dask_array.pad(x, pads, mode="constant", constant_values=value)
    return np.pad(x, pads, mode="constant", constant_values=value)


def where(mask: Any, value: float, x: Any) -> Any:
    """``x`` with ``value`` where ``mask`` (lazily for dask)."""
    if is_dask(x) or is_dask(mask):
        return dask_array.where(mask, value, x)
    return np.where(mask, value, x)


def isnan(x: Any) -> Any:
    return dask_array.isnan(x) if is_dask(x) else np.isnan(x)


def nan_like(x: Any) -> Any:
    return dask_array.full_like(x, np.nan) if is_dask(x) else np.full_like(x, np.nan)


def as_float(x: Any) -> Any:
    """``x`` in float64 where it cannot hold NaN (integers, bool)."""
    return x if x.dtype.kind in "fc" else x.astype(np.float64)


def dims_of(dim: Any, obj: xr.DataArray | xr.Dataset) -> tuple[Hashable, ...]:
    """``dim`` as xarray reads it (None or ``...``: all; a name; names)."""
    if dim is None or dim is ...:
        return tuple(obj.dims)
    if isinstance(dim, str) or not isinstance(dim, (list, tuple, set, frozenset)):
        return (dim,)
    return tuple(dim)


def check_dims(dims: tuple[Hashable, ...], obj: xr.DataArray | xr.Dataset) -> None:
    missing = tuple(d for d in dims if d not in obj.dims)
    if missing:
        raise ValueError(
            f"Dimensions {missing} not found in data dimensions {tuple(obj.dims)}"
        )


def dataset_of(ds: xr.Dataset, results: dict[Hashable, xr.DataArray], keep_attrs: bool,
               drop_dims: tuple[Hashable, ...] = (),
               extra_coords: Mapping[Hashable, Any] | None = None) -> xr.Dataset:
    """A Dataset of ``results`` with ``ds``'s coordinates (less those along
    ``drop_dims``), ``extra_coords`` and, per ``keep_attrs``, its attrs."""
    out = xr.Dataset(results, attrs=dict(ds.attrs) if keep_attrs else {})
    kept = {k: c.variable for k, c in ds.coords.items()
            if not set(c.dims) & set(drop_dims) and k not in out.coords}
    out = out.assign_coords(kept)
    if extra_coords:
        out = out.assign_coords(extra_coords)
    return out


def with_data(template: xr.DataArray, data: Any, keep_attrs: bool) -> xr.DataArray:
    out = template.copy(deep=False, data=data)
    out.attrs = dict(template.attrs) if keep_attrs else {}
    return out


def unchanged(var: xr.DataArray, keep_attrs: bool) -> xr.DataArray:
    return with_data(var, var.data, keep_attrs)
