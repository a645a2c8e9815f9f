"""The flox adapter (:mod:`nanops.flox`): ``flox.groupby_reduce`` and
``flox.xarray.xarray_reduce`` through nanops' kernels equal flox's own
engines and xarray's own ``groupby`` result.  Skipped without flox/xarray."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from _support import assert_same_products, product_factors

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


@pytest.mark.parametrize("name", ["nansum", "nanprod", "nanmean", "nanmax"])
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

XARRAY_METHODS = [("nansum", "sum"), ("nanprod", "prod"), ("nanmean", "mean"),
                  ("nanvar", "var"), ("nanstd", "std"), ("nanmin", "min"), ("nanmax", "max"),
                  ("count", "count")]


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


@pytest.mark.parametrize("name", ["nanmin", "nanmax"])
def test_dask_integer_extrema_of_groups_missing_from_a_block(name: str) -> None:
    dask_array = pytest.importorskip("dask.array")
    values, labels = np.arange(12), np.array([0, 0, 1, 1, 2, 2] * 2)  # the last block: 2 only
    want, _ = flox.groupby_reduce(values, labels, func=name, engine="numpy")
    with dask_sync():
        got, _ = flox.groupby_reduce(dask_array.from_array(values, chunks=5), labels,
                                     func=nanops.flox.aggregation(name), engine="numpy")
        got = got.compute()
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def test_dask_mean_of_64_bit_integers_does_not_wrap() -> None:
    dask_array = pytest.importorskip("dask.array")
    values, labels = np.full(6, 2**62), np.array([0, 1, 0, 1, 0, 0])
    with dask_sync():
        got, _ = flox.groupby_reduce(dask_array.from_array(values, chunks=4), labels,
                                     func=nanops.flox.aggregation("nanmean"), engine="numpy")
        got = got.compute()
    np.testing.assert_array_equal(got, nanops.group_nanmean(values, labels))


# --- products: per-block states that neither overflow nor underflow ---------


def test_dask_products_of_blocks_that_overflow_are_exact_in_class() -> None:
    # issue 38 item 6: [1e300, 1e300] gives inf, [1e-300, 1e-300] gives 0,
    # inf · 0 = NaN; the blocks' states keep mantissa and exponent apart
    dask_array = pytest.importorskip("dask.array")
    values, labels = np.array([1e300, 1e300, 1e-300, 1e-300]), np.zeros(4, int)
    want = nanops.group_nanprod(values, labels)
    for by in (labels, dask_array.from_array(labels, chunks=2)):  # the two combines
        with dask_sync():
            got, _ = flox.groupby_reduce(dask_array.from_array(values, chunks=2), by,
                                         func=nanops.flox.aggregation("nanprod"),
                                         engine="numpy")
            got = got.compute()
        np.testing.assert_array_equal(got, want)
        np.testing.assert_allclose(got, [1.0], rtol=1e-15)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("dtype", ["f8", "c16", "f4", "i8"])
@pytest.mark.parametrize("combine", ["map-reduce", "cohorts", "by label"])
def test_dask_products_equal_group_nanprod_in_memory(seed: int, dtype: str, combine: str) -> None:
    # many magnitudes, zeros, infinities (0 · inf: NaN), NaN skipped, random
    # chunkings; blocks that hold every group merge by nanops.states.merge
    # ("map-reduce", "cohorts"), others by label (dask labels)
    dask_array = pytest.importorskip("dask.array")
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 60))
    values = product_factors(rng, (3, n), dtype)
    labels = rng.integers(0, 4, n)
    cuts = np.unique(rng.integers(1, n, int(rng.integers(0, 5))))
    chunks = tuple(np.diff(np.concatenate([[0], cuts, [n]])).tolist())
    x = dask_array.from_array(values, chunks=((1, 2), chunks))
    if combine == "by label":
        by, kw = dask_array.from_array(labels, chunks=(chunks,)), {}
    else:
        by, kw = labels, {"method": combine}
    want, groups = flox.groupby_reduce(values, labels, func=nanops.flox.aggregation("nanprod"),
                                       engine="numpy")
    np.testing.assert_array_equal(want, nanops.group_nanprod(values, labels, axis=1)[:, groups])
    with dask_sync(), np.errstate(all="ignore"):
        got, got_groups = flox.groupby_reduce(x, by, func=nanops.flox.aggregation("nanprod"),
                                              engine="numpy", **kw)
        got = got.compute()
    np.testing.assert_array_equal(np.asarray(got_groups), groups)
    assert_same_products(got, want, rtol=1e-12 if dtype in ("f8", "c16") else 2.0**-22)


def test_dask_products_of_groups_missing_from_blocks_take_flox_fill_value() -> None:
    # as flox's own nanprod on the same dask array: without fill_value a group
    # without members is 1.0 on dask (NaN in memory: flox's own difference)
    dask_array = pytest.importorskip("dask.array")
    values = np.array([[2.0, np.nan, 3.0, 1e30, 1e30, 1e-30],
                       [1.0, 2.0, 5.0, 0.0, 6.0, np.inf]])
    labels = np.array([0, 1, 0, 3, 3, 3])  # 1 all-NaN in row 0, 2 and 4 without members
    x = dask_array.from_array(values, chunks=(1, 2))
    for fill_value in (None, -99.0, np.nan):
        kw = {"expected_groups": np.arange(5), "fill_value": fill_value}
        with dask_sync(), np.errstate(all="ignore"):
            got, _ = flox.groupby_reduce(x, labels, func=nanops.flox.aggregation("nanprod"),
                                         engine="numpy", **kw)
            got = got.compute()
            flox_own, _ = flox.groupby_reduce(x, labels, func="nanprod", engine="numpy", **kw)
            flox_own = flox_own.compute()
        np.testing.assert_allclose(got, flox_own, rtol=1e-15, equal_nan=True)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(flox_own))
        if fill_value is not None:  # and as in memory
            want, _ = flox.groupby_reduce(values, labels, func=nanops.flox.aggregation("nanprod"),
                                          engine="numpy", **kw)
            np.testing.assert_allclose(got, want, rtol=1e-15, equal_nan=True)
        assert np.isnan(got[1, 3])  # 0 · inf, the two in different blocks
        empty = 1.0 if fill_value is None else fill_value
        np.testing.assert_array_equal(got[:, [2, 4]], np.full((2, 2), empty))


def dask_sync() -> object:
    import dask

    return dask.config.set(scheduler="sync")
