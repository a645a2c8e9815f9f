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

import contextlib
import warnings
from collections.abc import Callable, Hashable, Iterator, Mapping
from typing import Any, Final

import numpy as np
import pandas as pd  # type: ignore[import-untyped, unused-ignore]
import xarray as xr

import nanops

try:  # dask is optional: without it nothing here is dask-backed
    import dask.array as _da

    from . import dask as _ndask
except ImportError:  # pragma: no cover - dask is in requirements-dev
    _da = None  # type: ignore[assignment]
    _ndask = None  # type: ignore[assignment]

__all__ = ["DataArrayAccessor", "DatasetAccessor", "Rolling", "RollingExp", "GroupBy"]

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

#: Statistics xarray computes on numbers only (``numeric_only=True``): a
#: Dataset's other variables are left out, as xarray leaves them out.
_NUMERIC_ONLY: Final = frozenset({"sum", "mean", "var", "std", "median", "prod"})

#: The group-by statistics: accessor method → nanops function.
GROUP_REDUCTIONS: Final = {
    "sum": "group_nansum",
    "mean": "group_nanmean",
    "var": "group_nanvar",
    "std": "group_nanstd",
    "min": "group_nanmin",
    "max": "group_nanmax",
    "count": "group_nancount",
    "median": "group_nanmedian",
    "first": "group_nanfirst",
    "last": "group_nanlast",
}


# --- small wiring helpers ------------------------------------------------------


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """nanops warns as NumPy does ("Mean of empty slice" …); xarray does not."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


def _is_dask(x: Any) -> bool:
    return _da is not None and isinstance(x, _da.Array)


def _keep_attrs(keep_attrs: bool | None) -> bool:
    """xarray's rule: the argument, else the global option, else True (the
    default of this xarray for every operation here)."""
    if keep_attrs is not None:
        return bool(keep_attrs)
    option = xr.get_options()["keep_attrs"]
    return True if option == "default" else bool(option)


def _numeric(var: xr.DataArray) -> bool:
    return var.dtype.kind in "biuf"


def _refuse_non_numeric(var: xr.DataArray, what: str) -> None:
    if not _numeric(var):
        raise NotImplementedError(
            f"nanops.{what} of {var.name!r}: dtype {var.dtype} (nanops computes on bool, "
            "integer and float data); use xarray's own method for this variable"
        )


def _refuse_skipna(skipna: bool | None, var: xr.DataArray, what: str) -> None:
    if skipna is False and var.dtype.kind in "cfO":
        raise NotImplementedError(
            f"nanops.{what}: skipna=False (nanops skips NaN); use xarray's own method"
        )


def _along(axis: int, index: Any) -> tuple[Any, ...]:
    """An index taking ``index`` along ``axis`` and everything along the others."""
    return (slice(None),) * axis + (index,)


def _pad(x: Any, axis: int, before: int, after: int, value: float) -> Any:
    pads = [(before, after) if i == axis else (0, 0) for i in range(x.ndim)]
    if _is_dask(x):
        return _da.pad(x, pads, mode="constant", constant_values=value)
    return np.pad(x, pads, mode="constant", constant_values=value)


def _where(mask: Any, value: float, x: Any) -> Any:
    """``x`` with ``value`` where ``mask`` (lazily for dask)."""
    if _is_dask(x) or _is_dask(mask):
        return _da.where(mask, value, x)
    return np.where(mask, value, x)


def _isnan(x: Any) -> Any:
    return _da.isnan(x) if _is_dask(x) else np.isnan(x)


def _nan_like(x: Any) -> Any:
    return _da.full_like(x, np.nan) if _is_dask(x) else np.full_like(x, np.nan)


def _as_float(x: Any) -> Any:
    """``x`` in float64 where it cannot hold NaN (integers, bool)."""
    return x if x.dtype.kind in "fc" else x.astype(np.float64)


def _dims_of(dim: Any, obj: xr.DataArray | xr.Dataset) -> tuple[Hashable, ...]:
    """``dim`` as xarray reads it (None or ``...``: all; a name; names)."""
    if dim is None or dim is ...:
        return tuple(obj.dims)
    if isinstance(dim, str) or not isinstance(dim, (list, tuple, set, frozenset)):
        return (dim,)
    return tuple(dim)


def _check_dims(dims: tuple[Hashable, ...], obj: xr.DataArray | xr.Dataset) -> None:
    missing = tuple(d for d in dims if d not in obj.dims)
    if missing:
        raise ValueError(
            f"Dimensions {missing} not found in data dimensions {tuple(obj.dims)}"
        )


def _dataset(ds: xr.Dataset, results: dict[Hashable, xr.DataArray], keep_attrs: bool,
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


def _with_data(template: xr.DataArray, data: Any, keep_attrs: bool) -> xr.DataArray:
    out = template.copy(deep=False, data=data)
    out.attrs = dict(template.attrs) if keep_attrs else {}
    return out


def _unchanged(var: xr.DataArray, keep_attrs: bool) -> xr.DataArray:
    return _with_data(var, var.data, keep_attrs)


# --- reductions -----------------------------------------------------------------


def _reduce_data(name: str, x: Any, axes: tuple[int, ...], **kwargs: Any) -> Any:
    """``nanops.<REDUCTIONS[name]>`` of ``x`` over ``axes`` (lazily for dask)."""
    fname = REDUCTIONS[name]
    if name in ("argmin", "argmax"):
        (axis,) = axes
        return getattr(nanops, fname)(x, axis=axis)
    if _is_dask(x):
        if name == "median":
            out = _ndask.nanmedian(x, axis=axes)
            if out is not NotImplemented:
                return out
        elif fname in _ndask.NAMES:
            return _ndask.reduce(fname, x, axes, **kwargs)
    return getattr(nanops, fname)(x, axis=axes, **kwargs)


def _quantile_data(x: Any, q: np.ndarray, axes: tuple[int, ...], method: Any) -> Any:
    if _is_dask(x):
        out = _ndask.nanquantile(x, q, axis=axes, method=method)
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
    if not _is_dask(data):
        data = np.asarray(data)
    out = xr.DataArray(data, dims=new_dims, coords=kept, name=var.name,
                       attrs=dict(var.attrs) if keep_attrs else {})
    if q is not None:
        out = out.assign_coords(quantile=("quantile", q) if q.ndim else q)
    return out


def _reduce_var(var: xr.DataArray, name: str, dims: tuple[Hashable, ...], keep_attrs: bool,
                **kwargs: Any) -> xr.DataArray:
    axes = tuple(var.get_axis_num(d) for d in dims)
    with _quiet():
        data = _reduce_data(name, var.data, axes, **kwargs)
    return _reduced(var, dims, data, keep_attrs)


def _quantile_var(var: xr.DataArray, q: np.ndarray, dims: tuple[Hashable, ...], method: str,
                  keep_attrs: bool) -> xr.DataArray:
    axes = tuple(var.get_axis_num(d) for d in dims)
    with _quiet():
        data = _quantile_data(var.data, q, axes, method)
    return _reduced(var, dims, data, keep_attrs, q)


def _sum_min_count(var: xr.DataArray, out: xr.DataArray, dims: tuple[Hashable, ...],
                   min_count: int | None) -> xr.DataArray:
    """xarray's ``min_count`` of a sum or product: NaN where fewer values."""
    if not min_count or var.dtype.kind not in "fc":
        return out
    axes = tuple(var.get_axis_num(d) for d in dims)
    count = _reduce_data("count", var.data, axes)
    data = _where(count < min_count, np.nan, out.data)
    return out.copy(deep=False, data=data)


class _Reductions:
    """The reductions shared by the DataArray and Dataset accessors."""

    _obj: Any

    def _reduce(self, name: str, dim: Any, keep_attrs: bool | None, skipna: bool | None = None,
                min_count: int | None = None, **kwargs: Any) -> Any:
        obj = self._obj
        keep = _keep_attrs(keep_attrs)
        dims = _dims_of(dim, obj)
        _check_dims(dims, obj)

        def one(var: xr.DataArray) -> xr.DataArray:
            _refuse_skipna(skipna, var, name)
            _refuse_non_numeric(var, name)
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
                   if not (name in _NUMERIC_ONLY and not _numeric(var))}
        return _dataset(obj, results, keep, dims)

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
        keep = _keep_attrs(keep_attrs)
        qa = np.asarray(q, dtype=np.float64)
        if qa.ndim > 1:
            raise ValueError("q must be a scalar or 1d")
        dims = _dims_of(dim, obj)
        _check_dims(dims, obj)

        def one(var: xr.DataArray) -> xr.DataArray:
            _refuse_skipna(skipna, var, "quantile")
            if not _numeric(var):
                raise TypeError(f"nanops.quantile of {var.name!r}: dtype {var.dtype} is not "
                                "numeric")
            return _quantile_var(var, qa, tuple(d for d in var.dims if d in dims), method, keep)

        if isinstance(obj, xr.DataArray):
            return one(obj)
        results = {}
        for key, var in obj.data_vars.items():
            if var.dims and not set(var.dims) & set(dims):
                results[key] = _unchanged(var, keep)
            else:
                results[key] = one(var)
        extra: dict[Hashable, Any] = {"quantile": qa} if qa.ndim == 0 else {}
        return _dataset(obj, results, keep, dims, extra)

    # --- windows, fills, groups ------------------------------------------------

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
        return self._fill("ffill", dim, limit)

    def bfill(self, dim: Hashable, limit: int | None = None) -> Any:
        """xarray's ``bfill``: carry the next value backward, by :func:`nanops.bfill`."""
        return self._fill("bfill", dim, limit)

    def _fill(self, name: str, dim: Hashable, limit: int | None) -> Any:
        obj = self._obj
        _check_dims((dim,), obj)

        def one(var: xr.DataArray) -> xr.DataArray:
            x = var.data
            if x.dtype.kind not in "fc":
                return var.copy(deep=False)  # nothing can be missing
            axis = var.get_axis_num(dim)
            if _is_dask(x):
                data = _ndask.fill(name, x, limit=limit, axis=axis)
            else:
                data = getattr(nanops, name)(x, limit=limit, axis=axis)
            return _with_data(var, data, True)

        if isinstance(obj, xr.DataArray):
            return one(obj)
        results = {k: one(v) if dim in v.dims else v.copy(deep=False)
                   for k, v in obj.data_vars.items()}
        return _dataset(obj, results, True)

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
class DataArrayAccessor(_Reductions):
    """``da.nanops``: xarray's reductions, quantiles, rolling and exponential
    windows, fills, group-by and resampling of a DataArray, computed by nanops.

    >>> import xarray as xr, nanops.xarray
    >>> xr.DataArray([[1.0, 2.0], [3.0, float("nan")]], dims=("t", "x")).nanops.sum("t").values
    array([4., 2.])
    """

    def __init__(self, obj: xr.DataArray) -> None:
        self._obj = obj


@xr.register_dataset_accessor("nanops")
class DatasetAccessor(_Reductions):
    """``ds.nanops``: the methods of :class:`DataArrayAccessor` applied to
    every data variable, as xarray's Dataset methods apply them."""

    def __init__(self, obj: xr.Dataset) -> None:
        self._obj = obj


# --- moving windows ---------------------------------------------------------------


def _move(fname: str, x: Any, window: int, *args: Any, min_count: int, axis: int,
          **kwargs: Any) -> Any:
    if _is_dask(x):
        return _ndask.moving(fname, x, window, *args, min_count=min_count, axis=axis, **kwargs)
    return getattr(nanops, fname)(x, window, *args, min_count=min_count, axis=axis, **kwargs)


def _rolling_data(fname: str, x: Any, axis: int, window: int, min_periods: int, center: bool,
                  *args: Any, **kwargs: Any) -> Any:
    """``nanops.<fname>`` with xarray's window placement: the window ends at
    the label (``center=False``) or holds it at ``window // 2`` from its
    start; positions before the start and after the end are missing, as
    xarray pads them; fewer than ``min_periods`` values give NaN."""
    n = x.shape[axis]
    if n == 0:  # no window: an empty float result (a q dimension in front)
        out = _as_float(x).copy()
        q: Any = args[0] if args else 0.0
        if np.ndim(q):
            out = (_da if _is_dask(out) else np).stack([out] * len(q))
        return out
    lead = (window - 1) // 2 if center else 0
    if lead:
        x = _pad(_as_float(x), axis, 0, lead, np.nan)
    width = min(window, n + lead)  # a longer window sees no more values
    out = _move(fname, x, width, *args, min_count=min(min_periods, width), axis=axis, **kwargs)
    if min_periods > width:
        out = _nan_like(out)
    if lead:
        shift = 1 if out.ndim > x.ndim else 0  # move_quantile's q dimension
        out = out[_along(axis + shift, slice(lead, None))]
    return out


def _rolling_arg(fname: str, x: Any, axis: int, window: int, min_periods: int,
                 center: bool) -> Any:
    """xarray's rolling ``argmin``/``argmax``: the index within each window
    of length ``window`` counted from its oldest position (padding
    included), the oldest of equal extrema; NaN (and the padding) taken as
    +inf for argmin, -inf for argmax, as xarray fills them.

    nanops' ``move_argmin`` counts back from the window's end and picks the
    newest of ties: on the reversed lane that is the oldest, counted from
    the start.  Where the data hold the fill value itself (+inf for argmin)
    a window's extremum can tie with a NaN or the padding: then NaN is
    filled as xarray fills it and the count taken apart."""
    fill = np.inf if fname == "move_argmin" else -np.inf
    x = _as_float(x)
    lead = (window - 1) // 2 if center else 0
    n = x.shape[axis]
    if n == 0:
        return x.astype(np.float64)
    if _is_dask(x):
        ties = True
    else:
        ties = bool(np.any(x == fill))
    if ties:
        with _quiet():
            counts = _rolling_data("move_count", x, axis, window, min_periods, center)
        x = _where(_isnan(x), fill, x)
    padded = _pad(x, axis, window - 1, lead, fill if ties else np.nan)
    flip = _along(axis, slice(None, None, -1))
    with _quiet():
        out = _move(fname, padded[flip], window, min_count=1 if ties else min(min_periods, window),
                    axis=axis)[flip]
    out = out[_along(axis, slice(lead, lead + n))].astype(np.float64)
    if ties:
        out = _where(_isnan(counts), np.nan, out)
    elif min_periods > window:
        out = _nan_like(out)
    return out


class Rolling:
    """``obj.nanops.rolling(dim=window, min_periods=None, center=False)``:
    xarray's rolling statistics along one dimension by nanops' moving
    windows.

    Each window position holds the window of xarray's: ending at the label,
    or (``center=True``) ``[i - window // 2, i + (window - 1) // 2]``;
    ``min_periods`` (default: the window) non-NaN values give a value, fewer
    NaN.  Results have xarray's dims, coords, name and attrs (per
    ``keep_attrs``) and dtypes (float32 stays float32; integers give
    float64; ``count``, ``argmin``, ``argmax`` give float64).

    >>> import numpy as np, xarray as xr, nanops.xarray
    >>> da = xr.DataArray([3.0, 1.0, np.nan, 2.0], dims="t")
    >>> da.nanops.rolling(t=2, min_periods=1).max().values
    array([3., 3., 1., 2.])
    """

    def __init__(self, obj: xr.DataArray | xr.Dataset, windows: Mapping[Any, int],
                 min_periods: int | None = None,
                 center: bool | Mapping[Any, bool] = False) -> None:
        # xarray's checks and errors (rolling objects are built lazily)
        obj.rolling(windows, min_periods=min_periods, center=center)
        if len(windows) != 1:
            raise NotImplementedError(
                f"nanops rolling: windows {dict(windows)} (one dimension; nanops' moving "
                "windows run along one axis)"
            )
        ((self.dim, window),) = windows.items()
        self.window = int(window)
        self.min_periods = self.window if min_periods is None else int(min_periods)
        self.center = bool(center.get(self.dim, False) if isinstance(center, Mapping) else center)
        self.obj = obj

    def __repr__(self) -> str:
        return (f"nanops.xarray.Rolling [{self.dim}->{self.window}"
                f"{'(center)' if self.center else ''}]")

    def _apply(self, label: str, compute: Callable[[Any, int], Any], keep_attrs: bool | None,
               q: np.ndarray | None = None) -> Any:
        keep = _keep_attrs(keep_attrs)

        def one(var: xr.DataArray) -> xr.DataArray:
            _refuse_non_numeric(var, f"rolling(...).{label}")
            with _quiet():
                data = compute(var.data, var.get_axis_num(self.dim))
            template = var
            if q is not None:
                template = (var.assign_coords(quantile=q) if q.ndim == 0
                            else var.expand_dims(quantile=q))
            return _with_data(template, data, keep)

        obj = self.obj
        if isinstance(obj, xr.DataArray):
            return one(obj)
        results = {k: one(v) if self.dim in v.dims else _unchanged(v, keep)
                   for k, v in obj.data_vars.items()}
        return _dataset(obj, results, keep)

    def _moving(self, fname: str, keep_attrs: bool | None, **kwargs: Any) -> Any:
        def compute(x: Any, axis: int) -> Any:
            out = _rolling_data(fname, x, axis, self.window, self.min_periods, self.center,
                                **kwargs)
            return out.astype(np.float64) if fname == "move_count" else out

        return self._apply(fname[5:], compute, keep_attrs)

    def sum(self, keep_attrs: bool | None = None) -> Any:
        """Sum of each window by :func:`nanops.move_sum`."""
        return self._moving("move_sum", keep_attrs)

    def mean(self, keep_attrs: bool | None = None) -> Any:
        """Mean of each window by :func:`nanops.move_mean`."""
        return self._moving("move_mean", keep_attrs)

    def var(self, keep_attrs: bool | None = None, ddof: int = 0) -> Any:
        """Variance of each window (``ddof=0`` as xarray) by :func:`nanops.move_var`."""
        return self._moving("move_var", keep_attrs, ddof=ddof)

    def std(self, keep_attrs: bool | None = None, ddof: int = 0) -> Any:
        """Standard deviation of each window by :func:`nanops.move_std`."""
        return self._moving("move_std", keep_attrs, ddof=ddof)

    def min(self, keep_attrs: bool | None = None) -> Any:
        """Minimum of each window by :func:`nanops.move_min`."""
        return self._moving("move_min", keep_attrs)

    def max(self, keep_attrs: bool | None = None) -> Any:
        """Maximum of each window by :func:`nanops.move_max`."""
        return self._moving("move_max", keep_attrs)

    def median(self, keep_attrs: bool | None = None) -> Any:
        """Median of each window (``nanmedian`` of it) by :func:`nanops.move_median`."""
        return self._moving("move_median", keep_attrs)

    def count(self, keep_attrs: bool | None = None) -> Any:
        """Non-NaN values in each window (float64, NaN below ``min_periods``)
        by :func:`nanops.move_count`."""
        return self._moving("move_count", keep_attrs)

    def argmin(self, keep_attrs: bool | None = None) -> Any:
        """Index of each window's minimum counted from the window's start (as
        xarray: padding included, the oldest of ties), float64, by
        :func:`nanops.move_argmin`."""
        return self._apply("argmin", lambda x, axis: _rolling_arg(
            "move_argmin", x, axis, self.window, self.min_periods, self.center), keep_attrs)

    def argmax(self, keep_attrs: bool | None = None) -> Any:
        """Index of each window's maximum, as :meth:`argmin`, by :func:`nanops.move_argmax`."""
        return self._apply("argmax", lambda x, axis: _rolling_arg(
            "move_argmax", x, axis, self.window, self.min_periods, self.center), keep_attrs)

    def quantile(self, q: Any, method: str = "linear", keep_attrs: bool | None = None) -> Any:
        """The ``q`` quantile(s) of each window with at least ``min_periods``
        values (``nanquantile`` of the window, 13 methods) by
        :func:`nanops.move_quantile`; a 1-d ``q`` adds a leading
        ``quantile`` dimension, a scalar a ``quantile`` coordinate, as
        xarray's ``quantile`` does.  float32 data give float32."""
        qa = np.asarray(q, dtype=np.float64)
        if qa.ndim > 1:
            raise ValueError("q must be a scalar or 1d")

        def compute(x: Any, axis: int) -> Any:
            if qa.ndim == 0 or not _is_dask(x):
                arg = float(qa) if qa.ndim == 0 else qa
                return _rolling_data("move_quantile", x, axis, self.window, self.min_periods,
                                     self.center, arg, method=method)
            # nanops.dask's moving windows keep the shape: one q at a time
            return _da.stack([_rolling_data("move_quantile", x, axis, self.window,
                                            self.min_periods, self.center, float(v),
                                            method=method) for v in qa])

        return self._apply("quantile", compute, keep_attrs, qa)


# --- exponential windows -------------------------------------------------------------


def _exp_alpha(window_type: str, window: float) -> float:
    """xarray's conversion of ``com``/``span``/``halflife``/``alpha`` to alpha."""
    if window_type == "com":
        if window < 0:
            raise ValueError("commust satisfy: com>= 0")
        return 1 / (window + 1)
    if window_type == "span":
        if window < 1:
            raise ValueError("span must satisfy: span >= 1")
        return 2 / (window + 1)
    if window_type == "halflife":
        if window <= 0:
            raise ValueError("halflife must satisfy: halflife > 0")
        return float(1 - np.exp(np.log(0.5) / window))
    if window_type == "alpha":
        if not 0 < window <= 1:
            raise ValueError("alpha must satisfy: 0 < alpha <= 1")
        return window
    raise TypeError(f"_get_alpha() got an unexpected keyword argument {window_type!r}")


def _move_exp(x: np.ndarray, *, fname: str, alpha: float, min_weight: float,
              axis: int) -> np.ndarray:
    """``nanops.<fname>`` of a block, in float64 as numbagg computes and returns it."""
    with _quiet():
        out = getattr(nanops, fname)(x.astype(np.float64, copy=False), alpha=alpha,
                                     min_weight=min_weight, axis=axis)
    return out  # type: ignore[no-any-return]


class RollingExp:
    """``obj.nanops.rolling_exp(dim=window, window_type="span")``: xarray's
    exponentially weighted statistics (numbagg's definitions: ``adjust=True``,
    a NaN position decays the history) by nanops' ``move_exp_nan*``.

    Wired as xarray wires numbagg (``apply_ufunc`` with
    ``dask="parallelized"``: a dask array must hold the dimension in one
    chunk, as xarray requires); float64 results, as numbagg's.

    >>> import xarray as xr, nanops.xarray
    >>> xr.DataArray([1, 1, 2, 2, 2], dims="x").nanops.rolling_exp(x=2).mean().values
    array([1.        , 1.        , 1.69230769, 1.9       , 1.96694215])
    """

    def __init__(self, obj: xr.DataArray | xr.Dataset, windows: Mapping[Any, float],
                 window_type: str = "span", min_weight: float = 0.0) -> None:
        if not windows:
            raise ValueError("rolling_exp needs a dimension and a window, e.g. time=0.5")
        self.obj = obj
        self.dim, window = next(iter(windows.items()))
        self.alpha = _exp_alpha(window_type, window)
        self.min_weight = float(min_weight)

    def _apply(self, fname: str, keep_attrs: bool) -> Any:
        return xr.apply_ufunc(
            _move_exp, self.obj,
            input_core_dims=[[self.dim]], output_core_dims=[[self.dim]],
            kwargs={"fname": fname, "alpha": self.alpha, "min_weight": self.min_weight,
                    "axis": -1},
            keep_attrs=keep_attrs, on_missing_core_dim="copy", dask="parallelized",
            output_dtypes=[np.float64],
        ).transpose(*self.obj.dims)

    def mean(self, keep_attrs: bool | None = None) -> Any:
        """Exponentially weighted mean by :func:`nanops.move_exp_nanmean`."""
        return self._apply("move_exp_nanmean", _keep_attrs(keep_attrs))

    def sum(self, keep_attrs: bool | None = None) -> Any:
        """Exponentially weighted sum by :func:`nanops.move_exp_nansum`."""
        return self._apply("move_exp_nansum", _keep_attrs(keep_attrs))

    def std(self) -> Any:
        """Exponentially weighted standard deviation (bias-corrected) by
        :func:`nanops.move_exp_nanstd`; attrs kept, as xarray keeps them."""
        return self._apply("move_exp_nanstd", True)

    def var(self) -> Any:
        """Exponentially weighted variance (bias-corrected) by
        :func:`nanops.move_exp_nanvar`; attrs kept, as xarray keeps them."""
        return self._apply("move_exp_nanvar", True)


# --- group-by and resampling ---------------------------------------------------------------


def _group_blockwise(fname: str, x: Any, labels: np.ndarray, axis: int, n: int, *args: Any,
                     **kwargs: Any) -> Any:
    """``nanops.<fname>`` of a dask array whose grouped axis is gathered into
    one chunk (the statistics :mod:`nanops.dask` has no map-reduce for)."""
    fn = getattr(nanops, fname)
    moved = _da.moveaxis(x, axis, -1).rechunk({x.ndim - 1: -1})
    with _quiet():
        probe = np.asarray(fn(np.zeros((1,) * (x.ndim - 1) + (labels.size,), x.dtype), labels,
                              *args, axis=-1, num_labels=n, **kwargs))
    lead = probe.ndim - x.ndim  # a q dimension in front
    chunks = tuple((s,) for s in probe.shape[:lead]) + moved.chunks[:-1] + ((n,),)

    def block(b: np.ndarray) -> np.ndarray:
        with _quiet():
            return np.asarray(fn(b, labels, *args, axis=-1, num_labels=n, **kwargs))

    return _da.map_blocks(block, moved, chunks=chunks, dtype=probe.dtype,
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
        if _is_dask(codes.data):
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
        if _is_dask(x):
            if fname in _ndask.GROUP_NAMES:
                return _ndask.group(fname, x, self.labels, axis=axis, num_labels=n, **kwargs)
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
        with _quiet():
            out = self._data(fname, var.data, axis, *args, **kwargs)
        lead = 0 if q is None or q.ndim == 0 else 1
        out = (_da if _is_dask(out) else np).moveaxis(out, -1, lead + axis)
        if lead:
            out = (_da if _is_dask(out) else np).moveaxis(out, 0, -1)
        if q is not None:  # NumPy's (so xarray's) dtype for this q and method
            with _quiet():
                dtype = np.asarray(nanops.nanquantile(np.zeros(1, var.dtype), q,
                                                      method=kwargs["method"])).dtype
            out = out.astype(dtype, copy=False)
        if self.empty.any():
            shape = [1] * out.ndim
            shape[axis] = self.ngroups
            out = _where(self.empty.reshape(shape), np.nan, _as_float(out))
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
        if dim is not None and _dims_of(dim, self.obj) != (self.dim,):
            raise NotImplementedError(f"nanops groupby {name}: dim={dim!r} (the grouped "
                                      f"dimension {self.dim!r} only)")
        keep = _keep_attrs(keep_attrs)
        fname = "group_nanquantile" if q is not None else GROUP_REDUCTIONS[name]

        def one(var: xr.DataArray) -> xr.DataArray:
            _refuse_skipna(skipna, var, name)
            if not _numeric(var):
                if name == "quantile":
                    raise TypeError(f"nanops quantile of {var.name!r}: dtype {var.dtype} "
                                    "is not numeric")
                _refuse_non_numeric(var, name)
            return self._one(var, fname, keep, q, **kwargs)

        obj = self.obj
        if isinstance(obj, xr.DataArray):
            return one(obj)
        results = {k: one(v) for k, v in obj.data_vars.items()
                   if not (name in _NUMERIC_ONLY and not _numeric(v))}
        extra: dict[Hashable, Any] = {self.name: self.coord} if self.coord is not None else {}
        if q is not None and q.ndim == 0:
            extra["quantile"] = q
        return _dataset(obj, results, keep, (self.dim,), extra)

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
        qa = np.asarray(q, dtype=np.float64)
        if qa.ndim > 1:
            raise ValueError("q must be a scalar or 1d")
        return self._apply("quantile", dim, keep_attrs, skipna, qa, method=method)
