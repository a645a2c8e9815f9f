"""The flox adapter (:mod:`nanops.flox`): ``flox.groupby_reduce`` and
``flox.xarray.xarray_reduce`` through nanops' kernels equal flox's own
engines and xarray's own ``groupby`` result.  Skipped without flox/xarray."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

flox = pytest.importorskip("flox")
xr = pytest.importorskip("xarray")
from flox.xarray import xarray_reduce  # noqa: E402

import nanops.flox  # noqa: E402

NAMES = sorted(nanops.flox.AGGREGATIONS)


def _data(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    values = rng.standard_normal((3, 200))
    values[rng.random(values.shape) < 0.2] = np.nan
    values[:, :7] = np.nan  # an all-NaN group (label 5 below)
    labels = rng.integers(0, 5, 200)
    labels[:7] = 5
    return values, labels


@pytest.mark.parametrize("name", NAMES)
def test_groupby_reduce_equals_flox(name: str) -> None:
    values, labels = _data()
    kw = {"finalize_kwargs": {"ddof": 1}} if name in ("nanvar", "nanstd") else {}
    want, wgroups = flox.groupby_reduce(values, labels, func=name, engine="numpy", **kw)
    got, groups = flox.groupby_reduce(
        values, labels, func=nanops.flox.aggregation(name), engine="numpy", **kw
    )
    np.testing.assert_array_equal(groups, wgroups)
    np.testing.assert_allclose(got, want, rtol=1e-12, equal_nan=True)


@pytest.mark.parametrize("name", ["nansum", "nanmean", "nanmax"])
def test_fill_value_for_empty_groups(name: str) -> None:
    values, labels = _data(1)
    groups = np.arange(7)  # 6 has no member
    want, _ = flox.groupby_reduce(values, labels, func=name, expected_groups=groups,
                                  fill_value=-99.0, engine="numpy")
    got, _ = flox.groupby_reduce(values, labels, func=nanops.flox.aggregation(name),
                                 expected_groups=groups, fill_value=-99.0, engine="numpy")
    np.testing.assert_allclose(got, want, equal_nan=True)


@pytest.mark.parametrize(
    "name, method", [("nansum", "sum"), ("nanmean", "mean"), ("nanstd", "std"),
                     ("nanvar", "var"), ("nanmin", "min"), ("nanmax", "max"),
                     ("nanprod", "prod"), ("nanmedian", "median")]
)
def test_xarray_reduce_equals_xarray_groupby(name: str, method: str) -> None:
    values, labels = _data(2)
    da = xr.DataArray(values, dims=("x", "time"),
                      coords={"g": ("time", labels), "x": [10, 20, 30]})
    want = getattr(da.groupby("g"), method)(skipna=True)
    got = xarray_reduce(da, "g", func=nanops.flox.aggregation(name), engine="numpy",
                        **({"ddof": 0} if method in ("std", "var") else {}))
    xr.testing.assert_allclose(got.transpose(*want.dims), want)


def test_unknown_name_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="no flox aggregation"):
        nanops.flox.aggregation("nanmode")


def test_import_nanops_does_not_import_flox() -> None:
    code = "import sys, nanops, nanops.flox; sys.exit('flox' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


# --- dask: flox's map-reduce with nanops' per-block kernels -----------------

XARRAY_METHODS = [("nansum", "sum"), ("nanmean", "mean"), ("nanvar", "var"),
                  ("nanstd", "std"), ("nanmin", "min"), ("nanmax", "max"), ("count", "count")]


@pytest.mark.parametrize("name, method", XARRAY_METHODS)
@pytest.mark.parametrize("flox_method", ["map-reduce", "cohorts"])
@pytest.mark.parametrize("dtype", ["f8", "f4"])
def test_xarray_reduce_on_dask_equals_xarray_on_the_computed_array(
    name: str, method: str, flox_method: str, dtype: str
) -> None:
    pytest.importorskip("dask.array")
    values, labels = _data(3)
    values = values.astype(dtype)
    da = xr.DataArray(values, dims=("x", "time"),
                      coords={"g": ("time", labels), "x": [10, 20, 30]})
    lazy_da = da.chunk({"x": 2, "time": 23}).assign_coords(g=("time", labels))  # labels in memory
    ddof = {"ddof": 1} if method in ("std", "var") else {}  # xarray_reduce's **finalize_kwargs
    with dask_sync():
        got = xarray_reduce(lazy_da, "g", func=nanops.flox.aggregation(name), engine="numpy",
                            method=flox_method, **ddof)
        assert got.chunks is not None  # lazy
        got = got.compute()
    want = getattr(da.groupby("g"), method)(**ddof)
    assert got.dtype == want.dtype
    rtol = 1e-5 if dtype == "f4" else 1e-12
    xr.testing.assert_allclose(got.transpose(*want.dims), want, rtol=rtol)


def test_xarray_median_on_dask_is_blockwise_with_nanops() -> None:
    pytest.importorskip("dask.array")
    values, _ = _data(4)
    labels = np.repeat(np.arange(8), 25)  # each group within one block of 50
    da = xr.DataArray(values, dims=("x", "time"), coords={"g": ("time", labels)})
    with dask_sync():
        got = xarray_reduce(da.chunk({"time": 50}).assign_coords(g=("time", labels)), "g", func=nanops.flox.aggregation("nanmedian"),
                            engine="numpy", method="blockwise").compute()
    want = da.groupby("g").median()
    xr.testing.assert_allclose(got.transpose(*want.dims), want)


def test_map_reduce_blocks_run_nanops_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    dask_array = pytest.importorskip("dask.array")
    shapes: list[tuple[int, ...]] = []
    original = nanops.group_nanvar

    def spy(*args: object, **kwargs: object) -> np.ndarray:
        shapes.append(np.shape(args[0]))
        return original(*args, **kwargs)

    monkeypatch.setattr(nanops, "group_nanvar", spy)
    values, labels = _data(5)
    x = dask_array.from_array(values, chunks=(3, 50))
    with dask_sync():
        got, _ = flox.groupby_reduce(x, labels, func=nanops.flox.aggregation("nanvar"),
                                     engine="numpy", method="map-reduce",
                                     expected_groups=np.arange(6))
        got = got.compute()
    want, _ = flox.groupby_reduce(values, labels, func="nanvar", engine="numpy")
    np.testing.assert_allclose(got, want, rtol=1e-12, equal_nan=True)
    assert shapes == [(3, 50)] * 4  # one call per block


def dask_sync() -> object:
    import dask

    return dask.config.set(scheduler="sync")
