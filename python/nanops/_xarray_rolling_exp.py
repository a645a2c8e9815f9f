"""The exponential windows of :mod:`nanops.xarray`'s accessors: xarray's
``rolling_exp`` (numbagg's statistics) by nanops' ``move_exp_nan*``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import xarray as xr

import nanops

from ._accessor_support import quiet
from ._xarray_support import resolve_keep_attrs

__all__ = ["RollingExp"]


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
    with quiet():
        out = getattr(nanops, fname)(x.astype(np.float64, copy=False), alpha=alpha,
                                     min_weight=min_weight, axis=axis)
    return out  # type: ignore[no-any-return]


def _move_exp_pair(x: np.ndarray, y: np.ndarray, *, fname: str, alpha: float,
                   min_weight: float, axis: int) -> np.ndarray:
    """``nanops.<fname>`` of two blocks, in float64 as numbagg computes and
    returns it."""
    with quiet():
        out = getattr(nanops, fname)(x.astype(np.float64, copy=False),
                                     y.astype(np.float64, copy=False), alpha=alpha,
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
        return self._apply("move_exp_nanmean", resolve_keep_attrs(keep_attrs))

    def sum(self, keep_attrs: bool | None = None) -> Any:
        """Exponentially weighted sum by :func:`nanops.move_exp_nansum`."""
        return self._apply("move_exp_nansum", resolve_keep_attrs(keep_attrs))

    def std(self) -> Any:
        """Exponentially weighted standard deviation (bias-corrected) by
        :func:`nanops.move_exp_nanstd`; attrs kept, as xarray keeps them."""
        return self._apply("move_exp_nanstd", True)

    def var(self) -> Any:
        """Exponentially weighted variance (bias-corrected) by
        :func:`nanops.move_exp_nanvar`; attrs kept, as xarray keeps them."""
        return self._apply("move_exp_nanvar", True)

    def _apply_pair(self, fname: str, other: Any) -> Any:
        return xr.apply_ufunc(
            _move_exp_pair, self.obj, other,
            input_core_dims=[[self.dim], [self.dim]], output_core_dims=[[self.dim]],
            kwargs={"fname": fname, "alpha": self.alpha, "min_weight": self.min_weight,
                    "axis": -1},
            keep_attrs=True, on_missing_core_dim="copy", dask="parallelized",
            output_dtypes=[np.float64],
        ).transpose(*self.obj.dims)

    def cov(self, other: Any) -> Any:
        """Exponentially weighted covariance with ``other`` (bias-corrected)
        by :func:`nanops.move_exp_nancov`; attrs kept, as xarray keeps them.

        >>> import xarray as xr, nanops.xarray
        >>> da = xr.DataArray([1, 1, 2, 2, 2], dims="x")
        >>> da.nanops.rolling_exp(x=2).cov(da**2).values
        array([       nan, 0.        , 1.38461538, 0.55384615, 0.19338843])
        """
        return self._apply_pair("move_exp_nancov", other)

    def corr(self, other: Any) -> Any:
        """Exponentially weighted correlation with ``other`` by
        :func:`nanops.move_exp_nancorr`; attrs kept, as xarray keeps them.

        >>> import xarray as xr, nanops.xarray
        >>> da = xr.DataArray([1, 1, 2, 2, 2], dims="x")
        >>> da.nanops.rolling_exp(x=2).corr(da.shift(x=1)).values
        array([       nan,        nan,        nan, 0.4330127 , 0.48038446])
        """
        return self._apply_pair("move_exp_nancorr", other)
