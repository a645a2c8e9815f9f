"""The moving windows and fills of :mod:`nanops.xarray`'s accessors:
xarray's ``rolling`` statistics by nanops' ``move_*`` functions, ``ffill``
and ``bfill`` by nanops' (dask: through :mod:`nanops.dask`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any

import numpy as np
import xarray as xr

import nanops

from ._accessor_support import quiet
from ._xarray_support import (along, as_float, as_q, check_dims, dask_array, dataset_of,
                              is_dask, isnan, nan_like, ndask, pad, refuse_non_numeric,
                              resolve_keep_attrs, unchanged, where, with_data)

__all__ = ["Rolling", "fill"]


def _move(fname: str, x: Any, window: int, *args: Any, min_count: int, axis: int,
          **kwargs: Any) -> Any:
    if is_dask(x):
        return ndask.moving(fname, x, window, *args, min_count=min_count, axis=axis, **kwargs)
    return getattr(nanops, fname)(x, window, *args, min_count=min_count, axis=axis, **kwargs)


def _rolling_data(fname: str, x: Any, axis: int, window: int, min_periods: int, center: bool,
                  *args: Any, **kwargs: Any) -> Any:
    """``nanops.<fname>`` with xarray's window placement: the window ends at
    the label (``center=False``) or holds it at ``window // 2`` from its
    start; positions before the start and after the end are missing, as
    xarray pads them; fewer than ``min_periods`` values give NaN."""
    n = x.shape[axis]
    if n == 0:  # no window: an empty float result (a q dimension in front)
        out = as_float(x).copy()
        q: Any = args[0] if args else 0.0
        if np.ndim(q):
            out = (dask_array if is_dask(out) else np).stack([out] * len(q))
        return out
    lead = (window - 1) // 2 if center else 0
    if lead:
        x = pad(as_float(x), axis, 0, lead, np.nan)
    width = min(window, n + lead)  # a longer window sees no more values
    out = _move(fname, x, width, *args, min_count=min(min_periods, width), axis=axis, **kwargs)
    if min_periods > width:
        out = nan_like(out)
    if lead:
        shift = 1 if out.ndim > x.ndim else 0  # move_quantile's q dimension
        out = out[along(axis + shift, slice(lead, None))]
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
    x = as_float(x)
    lead = (window - 1) // 2 if center else 0
    n = x.shape[axis]
    if n == 0:
        return x.astype(np.float64)
    if is_dask(x):
        ties = True
    else:
        ties = bool(np.any(x == fill))
    if ties:
        with quiet():
            counts = _rolling_data("move_count", x, axis, window, min_periods, center)
        x = where(isnan(x), fill, x)
    padded = pad(x, axis, window - 1, lead, fill if ties else np.nan)
    flip = along(axis, slice(None, None, -1))
    with quiet():
        out = _move(fname, padded[flip], window, min_count=1 if ties else min(min_periods, window),
                    axis=axis)[flip]
    out = out[along(axis, slice(lead, lead + n))].astype(np.float64)
    if ties:
        out = where(isnan(counts), np.nan, out)
    elif min_periods > window:
        out = nan_like(out)
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
        keep = resolve_keep_attrs(keep_attrs)

        def one(var: xr.DataArray) -> xr.DataArray:
            refuse_non_numeric(var, f"rolling(...).{label}")
            with quiet():
                data = compute(var.data, var.get_axis_num(self.dim))
            template = var
            if q is not None:
                template = (var.assign_coords(quantile=q) if q.ndim == 0
                            else var.expand_dims(quantile=q))
            return with_data(template, data, keep)

        obj = self.obj
        if isinstance(obj, xr.DataArray):
            return one(obj)
        results = {k: one(v) if self.dim in v.dims else unchanged(v, keep)
                   for k, v in obj.data_vars.items()}
        return dataset_of(obj, results, keep)

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
        qa = as_q(q)

        def compute(x: Any, axis: int) -> Any:
            if qa.ndim == 0 or not is_dask(x):
                arg = float(qa) if qa.ndim == 0 else qa
                return _rolling_data("move_quantile", x, axis, self.window, self.min_periods,
                                     self.center, arg, method=method)
            # nanops.dask's moving windows keep the shape: one q at a time
            return dask_array.stack([_rolling_data("move_quantile", x, axis, self.window,
                                            self.min_periods, self.center, float(v),
                                            method=method) for v in qa])

        return self._apply("quantile", compute, keep_attrs, qa)


# --- fills -----------------------------------------------------------------------------------


def fill(obj: xr.DataArray | xr.Dataset, name: str, dim: Hashable, limit: int | None) -> Any:
    """xarray's ``ffill`` or ``bfill`` (``name``) of ``obj`` along ``dim`` by
    the nanops function of that name (dask: through :mod:`nanops.dask`)."""
    check_dims((dim,), obj)

    def one(var: xr.DataArray) -> xr.DataArray:
        x = var.data
        if x.dtype.kind not in "fc":
            return var.copy(deep=False)  # nothing can be missing
        axis = var.get_axis_num(dim)
        if is_dask(x):
            data = ndask.fill(name, x, limit=limit, axis=axis)
        else:
            data = getattr(nanops, name)(x, limit=limit, axis=axis)
        return with_data(var, data, True)

    if isinstance(obj, xr.DataArray):
        return one(obj)
    results = {k: one(v) if dim in v.dims else v.copy(deep=False)
               for k, v in obj.data_vars.items()}
    return dataset_of(obj, results, True)
