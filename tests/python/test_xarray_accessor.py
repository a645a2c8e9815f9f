"""``.nanops`` on xarray objects (:mod:`nanops.xarray`) against xarray's own
methods on the same objects: values (within rounding), NaN positions,
dtypes, dims, coords, names and attrs as ``keep_attrs`` says.

xarray's reference is its plain path (``use_numbagg=False,
use_bottleneck=False``: the windows built by ``construct``), except where
xarray needs numbagg (``rolling_exp``, ``ffill``/``bfill``).  dask-backed
objects are checked to stay lazy and to equal xarray after computing (the
synchronous scheduler).  Skipped without xarray.
"""

from __future__ import annotations

import doctest
import subprocess
import sys
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

xr = pytest.importorskip("xarray")
pd = pytest.importorskip("pandas")

import nanops.xarray  # noqa: E402
from nanops import (  # noqa: E402  (the modules holding the accessors' code)
    _xarray_groupby,
    _xarray_reduce,
    _xarray_rolling,
    _xarray_rolling_exp,
    _xarray_support,
)

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
PLAIN = {"use_numbagg": False, "use_bottleneck": False}


# --- comparison ----------------------------------------------------------------------------------


def _pairs(actual: Any, expected: Any) -> list[tuple[Any, Any]]:
    if isinstance(expected, xr.DataArray):
        return [(actual, expected)]
    assert sorted(map(str, actual.data_vars)) == sorted(map(str, expected.data_vars))
    return [(actual[k], expected[k]) for k in expected.data_vars]


def assert_same(actual: Any, expected: Any, rtol: float | None = None,
                check_dtype: bool = True) -> None:
    """The same metadata (dims, coords, name, attrs) and dtype; the same NaN
    positions; values within ``rtol`` of the largest (float32: 2e-5)."""
    assert type(actual) is type(expected)
    if isinstance(expected, xr.DataArray):
        xr.testing.assert_identical(actual.copy(data=np.asarray(expected.data)), expected)
    else:
        xr.testing.assert_identical(
            actual.copy(data={k: np.asarray(expected[k].data) for k in expected.data_vars}),
            expected)
    for a, e in _pairs(actual, expected):
        if check_dtype:
            assert a.dtype == e.dtype, (a.name, a.dtype, e.dtype)
        av = np.asarray(a.values, dtype=np.float64)
        ev = np.asarray(e.values, dtype=np.float64)
        tol = rtol if rtol is not None else (
            2e-5 if np.float32 in (a.dtype, e.dtype) else 1e-9)
        finite = ev[np.isfinite(ev)]
        scale = float(np.max(np.abs(finite))) if finite.size else 1.0
        np.testing.assert_allclose(av, ev, rtol=tol, atol=tol * scale, equal_nan=True)


def _no_attrs(obj: Any) -> Any:
    """``obj`` with no attrs on it nor on its data variables: xarray's
    ``quantile(keep_attrs=False)`` keeps the variables' attrs (its
    ``Variable.quantile`` ignores False); nanops drops them (README)."""
    obj = obj.copy()
    obj.attrs = {}
    if isinstance(obj, xr.Dataset):
        for var in obj.data_vars.values():
            var.attrs = {}
    return obj


def _lazy(obj: Any) -> bool:
    import dask

    arrays = [obj.data] if isinstance(obj, xr.DataArray) else [
        v.data for v in obj.data_vars.values()]
    return all(dask.is_dask_collection(a) for a in arrays)


# --- data ----------------------------------------------------------------------------------------


def make(seed: int, n: int = 30, dtype: str = "float64", nan: float = 0.2, inf: bool = False,
         ny: int = 2, nx: int = 3) -> Any:
    """A (time, y, x) DataArray with a time coordinate, coords along each
    dim, a non-dim label coordinate, a name and attrs."""
    rng = np.random.default_rng(seed)
    if dtype.startswith("int"):
        values = rng.integers(-20, 20, (n, ny, nx)).astype(dtype)
    else:
        values = rng.standard_normal((n, ny, nx)).astype(dtype)
        values[rng.random(values.shape) < nan] = np.nan
        if nx > 2 and n > 3:
            values[:, 0, 1] = np.nan  # an all-NaN lane
        if inf:
            values[rng.random(values.shape) < 0.1] = np.inf
            values[rng.random(values.shape) < 0.1] = -np.inf
    time = pd.date_range("2001-01-25", periods=n, freq="3D")
    lab = rng.integers(0, 4, n).astype(np.float64)
    lab[rng.random(n) < 0.15] = np.nan
    coords = {"time": time, "y": np.arange(ny) * 10, "x": list("abcdefg"[:nx]),
              "lab": ("time", lab, {"what": "label"}), "yy": ("y", np.arange(ny) + 0.5)}
    da = xr.DataArray(values, dims=("time", "y", "x"), coords=coords, name="tas",
                      attrs={"units": "K"})
    da.time.attrs["axis"] = "T"
    return da


def make_ds(seed: int, **kw: Any) -> Any:
    da = make(seed, **kw)
    other = make(seed + 1, **kw).isel(x=0, drop=True).rename("pr").drop_vars("lab")
    return xr.Dataset({"tas": da, "pr": other,
                       "c": ("y", np.arange(da.sizes["y"], dtype=np.float64) + 1,
                             {"units": "m"})},
                      attrs={"title": "t"})


seeds = st.integers(0, 2**16)
dtypes = st.sampled_from(["float64", "float32", "int32"])
keeps = st.sampled_from([None, True, False])


# --- reductions and quantiles --------------------------------------------------------------------

REDUCTIONS = ["sum", "mean", "var", "std", "min", "max", "count", "median", "prod"]


@SETTINGS
@given(seed=seeds, dtype=dtypes, name=st.sampled_from(REDUCTIONS),
       dim=st.sampled_from(["time", "y", ("time", "x"), None]), keep=keeps,
       dataset=st.booleans())
def test_reductions_equal_xarray(seed: int, dtype: str, name: str, dim: Any, keep: Any,
                                 dataset: bool) -> None:
    obj = make_ds(seed, dtype=dtype) if dataset else make(seed, dtype=dtype)
    kw: dict[str, Any] = {"keep_attrs": keep}
    if name in ("var", "std"):
        kw["ddof"] = seed % 2
    with xr.set_options(**PLAIN), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = getattr(obj, name)(dim, **kw)
    assert_same(getattr(obj.nanops, name)(dim, **kw), expected)


@pytest.mark.parametrize("name", ["sum", "prod"])
def test_min_count(name: str) -> None:
    da = make(3)
    with xr.set_options(**PLAIN):
        expected = getattr(da, name)("time", min_count=20)
    assert_same(getattr(da.nanops, name)("time", min_count=20), expected)


@SETTINGS
@given(seed=seeds, dtype=dtypes, name=st.sampled_from(["argmin", "argmax"]),
       dim=st.sampled_from(["time", "x"]), keep=keeps)
def test_argmin_argmax_equal_xarray(seed: int, dtype: str, name: str, dim: str,
                                    keep: Any) -> None:
    da = make(seed, dtype=dtype)
    if dtype.startswith("float"):
        da = da.where(da.notnull().any(dim), 0.0)  # all-NaN slices raise (tested below)
    with xr.set_options(**PLAIN):
        expected = getattr(da, name)(dim, keep_attrs=keep)
    assert_same(getattr(da.nanops, name)(dim, keep_attrs=keep), expected)


def test_argmin_of_all_nan_slice_raises_as_xarray() -> None:
    da = make(1)
    with pytest.raises(ValueError):
        da.argmin("time")
    with pytest.raises(ValueError):
        da.nanops.argmin("time")


@SETTINGS
@given(seed=seeds, dtype=dtypes, dataset=st.booleans(),
       q=st.sampled_from([0.5, 0.0, 1.0, [0.1, 0.9], [0.25]]),
       method=st.sampled_from(["linear", "nearest", "lower", "hazen", "median_unbiased"]),
       dim=st.sampled_from(["time", ("time", "y"), None]), keep=keeps)
def test_quantile_equals_xarray(seed: int, dtype: str, dataset: bool, q: Any, method: str,
                                dim: Any, keep: Any) -> None:
    obj = make_ds(seed, dtype=dtype) if dataset else make(seed, dtype=dtype)
    with xr.set_options(**PLAIN), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = obj.quantile(q, dim=dim, method=method, keep_attrs=keep)
    if keep is False:
        expected = _no_attrs(expected)
    assert_same(obj.nanops.quantile(q, dim=dim, method=method, keep_attrs=keep), expected)


# --- rolling windows -----------------------------------------------------------------------------

ROLLING = ["sum", "mean", "var", "std", "min", "max", "median", "count", "argmin", "argmax"]


@SETTINGS
@given(seed=seeds, dtype=dtypes, name=st.sampled_from(ROLLING), n=st.integers(1, 25),
       window=st.integers(1, 30), min_periods=st.one_of(st.none(), st.integers(1, 31)),
       center=st.booleans(), keep=keeps, inf=st.booleans(), dim=st.sampled_from(["time", "x"]))
def test_rolling_equals_xarray(seed: int, dtype: str, name: str, n: int, window: int,
                               min_periods: Any, center: bool, keep: Any, inf: bool,
                               dim: str) -> None:
    da = make(seed, n=n, dtype=dtype, inf=inf and name in ("min", "max", "argmin", "argmax"))
    kw = {"ddof": seed % 2} if name in ("var", "std") else {}
    with xr.set_options(**PLAIN), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = getattr(da.rolling({dim: window}, min_periods=min_periods, center=center),
                           name)(keep_attrs=keep, **kw)
    actual = getattr(da.nanops.rolling({dim: window}, min_periods=min_periods, center=center),
                     name)(keep_attrs=keep, **kw)
    if name == "count" and keep is False:
        # xarray's count(keep_attrs=False) drops the coordinates' attrs as
        # well (its notnull(keep_attrs=False)); nanops keeps them (README)
        actual = actual.copy()
        for coord in actual.coords.values():
            coord.attrs = {}
    assert_same(actual, expected)


def test_rolling_argmin_ties_count_from_window_start() -> None:
    # xarray's windows are padded at the start; the oldest of equal minima
    da = xr.DataArray([2.0, 1.0, 1.0, np.nan, 1.0, np.inf, np.nan, np.inf], dims="t")
    for center in (False, True):
        with xr.set_options(**PLAIN):
            expected = da.rolling(t=3, center=center, min_periods=1).argmin()
        assert_same(da.nanops.rolling(t=3, center=center, min_periods=1).argmin(), expected)


@SETTINGS
@given(seed=seeds, dataset=st.booleans(), name=st.sampled_from(["mean", "max", "median"]),
       keep=keeps)
def test_rolling_dataset_equals_xarray(seed: int, dataset: bool, name: str, keep: Any) -> None:
    ds = make_ds(seed)
    with xr.set_options(**PLAIN), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = getattr(ds.rolling(time=4, min_periods=2), name)(keep_attrs=keep)
    assert_same(getattr(ds.nanops.rolling(time=4, min_periods=2), name)(keep_attrs=keep),
                expected)


@SETTINGS
@given(seed=seeds, dtype=dtypes, n=st.integers(1, 20), window=st.integers(1, 8),
       min_periods=st.one_of(st.none(), st.integers(1, 8)), center=st.booleans(),
       q=st.sampled_from([0.5, 0.1, [0.2, 0.8]]),
       method=st.sampled_from(["linear", "nearest", "midpoint", "weibull"]))
def test_rolling_quantile_is_each_windows_quantile(seed: int, dtype: str, n: int, window: int,
                                                   min_periods: Any, center: bool, q: Any,
                                                   method: str) -> None:
    # the reference: xarray's quantile of each window (``construct``) where
    # the window holds at least ``min_periods`` values
    da = make(seed, n=n, dtype=dtype)
    rolling = da.rolling(time=window, min_periods=min_periods, center=center)
    with xr.set_options(**PLAIN), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        windows = rolling.construct("window")
        expected = windows.quantile(q, dim="window", method=method)
        expected = expected.where(rolling.count() >= rolling.min_periods)
        expected = expected.transpose(*(["quantile"] if np.ndim(q) else []), *da.dims)
    actual = da.nanops.rolling(time=window, min_periods=min_periods, center=center).quantile(
        q, method=method)
    assert actual.dtype == (np.float32 if dtype == "float32" else np.float64)
    assert_same(actual, expected.astype(actual.dtype), rtol=2e-5 if dtype == "float32" else None)


def test_rolling_keeps_float32() -> None:
    da = make(2, dtype="float32")
    assert da.nanops.rolling(time=3).mean().dtype == np.float32
    assert da.nanops.rolling(time=3).count().dtype == np.float64


# --- exponential windows, fills ------------------------------------------------------------------


@SETTINGS
@given(seed=seeds, dtype=dtypes, dataset=st.booleans(),
       name=st.sampled_from(["mean", "sum", "std", "var"]),
       window=st.sampled_from([("span", 3.0), ("alpha", 0.3), ("com", 2.0), ("halflife", 4.0)]),
       keep=keeps)
def test_rolling_exp_equals_xarray(seed: int, dtype: str, dataset: bool, name: str,
                                   window: Any, keep: Any) -> None:
    obj = make_ds(seed, dtype=dtype) if dataset else make(seed, dtype=dtype)
    window_type, value = window
    kw = {"keep_attrs": keep} if name in ("mean", "sum") else {}
    expected = getattr(obj.rolling_exp(time=value, window_type=window_type), name)(**kw)
    actual = getattr(obj.nanops.rolling_exp(time=value, window_type=window_type), name)(**kw)
    assert_same(actual, expected, rtol=1e-7)


@SETTINGS
@given(seed=seeds, dtype=dtypes, dataset=st.booleans(), name=st.sampled_from(["cov", "corr"]),
       window=st.sampled_from([("span", 3.0), ("alpha", 0.3), ("halflife", 4.0)]),
       min_weight=st.sampled_from([0.0, 0.5]))
def test_rolling_exp_cov_corr_equal_xarray(seed: int, dtype: str, dataset: bool, name: str,
                                           window: Any, min_weight: float) -> None:
    obj = make_ds(seed, dtype=dtype) if dataset else make(seed, dtype=dtype)
    other = make(seed + 1, dtype=dtype).isel(x=0)  # broadcast along x
    window_type, value = window
    expected = getattr(obj.rolling_exp(time=value, window_type=window_type,
                                       min_weight=min_weight), name)(other)
    actual = getattr(obj.nanops.rolling_exp(time=value, window_type=window_type,
                                            min_weight=min_weight), name)(other)
    assert_same(actual, expected, rtol=1e-7)


@SETTINGS
@given(seed=seeds, dtype=dtypes, dataset=st.booleans(), name=st.sampled_from(["ffill", "bfill"]),
       limit=st.sampled_from([None, 1, 3]), dim=st.sampled_from(["time", "x"]))
def test_fills_equal_xarray(seed: int, dtype: str, dataset: bool, name: str, limit: Any,
                            dim: str) -> None:
    obj = make_ds(seed, dtype=dtype, nan=0.5) if dataset else make(seed, dtype=dtype, nan=0.5)
    expected = getattr(obj, name)(dim, limit=limit)  # xarray needs numbagg (on by default)
    assert_same(getattr(obj.nanops, name)(dim, limit=limit), expected, rtol=0.0)


# --- ranks ---------------------------------------------------------------------------------------


@SETTINGS
@given(seed=seeds, dtype=dtypes, dataset=st.booleans(), dim=st.sampled_from(["time", "y", "x"]),
       pct=st.booleans(), keep=keeps)
def test_rank_equals_xarray(seed: int, dtype: str, dataset: bool, dim: str, pct: bool,
                            keep: Any) -> None:
    obj = make_ds(seed, dtype=dtype) if dataset else make(seed, dtype=dtype)
    # ties: xarray ranks them as bottleneck, the mean of their places
    obj = obj.round(0) if dtype != "int32" else obj
    # xarray's rank needs bottleneck (installed, off by default since 2025)
    expected = obj.rank(dim, pct=pct, keep_attrs=keep)
    assert_same(obj.nanops.rank(dim, pct=pct, keep_attrs=keep), expected, rtol=0.0)


def test_rank_errors_and_dask_are_xarrays(synchronous: Any) -> None:
    da = make(3)
    with pytest.raises(ValueError, match="not found in data dimensions"):
        da.nanops.rank("z")
    with pytest.raises(ValueError, match="not found in data dimensions"):
        da.rank("z")
    lazy = da.chunk({"y": 1}).nanops.rank("time", pct=True)
    assert _lazy(lazy)
    assert_same(lazy.compute(), da.rank("time", pct=True), rtol=0.0)
    with pytest.raises(ValueError, match="multiple chunks"):
        da.chunk({"time": 7}).nanops.rank("time")


# --- group-by and resampling ---------------------------------------------------------------------

GROUPED = ["sum", "mean", "var", "std", "min", "max", "count", "median", "first", "last"]


def _group(kind: str, da: Any) -> Any:
    if kind == "array":  # a DataArray of labels with NaN, as the group
        return xr.DataArray(da["lab"].values, dims="time", name="label")
    return kind


@SETTINGS
@given(seed=seeds, dtype=dtypes, name=st.sampled_from(GROUPED),
       group=st.sampled_from(["time.month", "lab", "array", "time.dayofweek"]), keep=keeps,
       dataset=st.booleans())
def test_groupby_equals_xarray(seed: int, dtype: str, name: str, group: str, keep: Any,
                               dataset: bool) -> None:
    obj = make_ds(seed, dtype=dtype) if dataset else make(seed, dtype=dtype)
    kw: dict[str, Any] = {"keep_attrs": keep}
    if name in ("var", "std"):
        kw["ddof"] = seed % 2
    with xr.set_options(**PLAIN), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = getattr(obj.groupby(_group(group, obj)), name)(**kw)
    assert_same(getattr(obj.nanops.groupby(_group(group, obj)), name)(**kw), expected)


def test_groupby_of_a_dimension_coordinate() -> None:
    da = xr.DataArray(np.arange(8.0), dims="x", coords={"x": [3, 1, 3, 2, 1, 1, 2, 3]},
                      attrs={"a": 1})
    da[2] = np.nan
    for name in GROUPED:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            expected = getattr(da.groupby("x"), name)()
        assert_same(getattr(da.nanops.groupby("x"), name)(), expected)
    bare = xr.DataArray(np.arange(4.0), dims="x")  # no coordinate: each position a group
    assert_same(bare.nanops.groupby("x").sum(), bare.groupby("x").sum())


@SETTINGS
@given(seed=seeds, dtype=dtypes, dataset=st.booleans(),
       q=st.sampled_from([0.5, [0.1, 0.9]]), method=st.sampled_from(["linear", "nearest",
                                                                     "hazen"]))
def test_groupby_quantile_equals_xarray(seed: int, dtype: str, dataset: bool, q: Any,
                                        method: str) -> None:
    if dataset:
        # xarray's Dataset puts the quantile dimension elsewhere for methods
        # other than "linear" (its path without flox); nanops' layout is the
        # DataArray's for every method
        method = "linear"
    obj = make_ds(seed, dtype=dtype) if dataset else make(seed, dtype=dtype)
    with xr.set_options(**PLAIN), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = obj.groupby("time.month").quantile(q, method=method)
    actual = obj.nanops.groupby("time.month").quantile(q, method=method)
    # float32 values are interpolated in float32 (xarray: float64)
    assert_same(actual, expected, rtol=2e-5 if dtype == "float32" else None)


@SETTINGS
@given(seed=seeds, dtype=dtypes, name=st.sampled_from(GROUPED + ["quantile"]),
       freq=st.sampled_from(["MS", "W", "10D", "YS"]), gaps=st.booleans(), keep=keeps,
       dataset=st.booleans())
def test_resample_equals_xarray(seed: int, dtype: str, name: str, freq: str, gaps: bool,
                                keep: Any, dataset: bool) -> None:
    obj = make_ds(seed, n=40, dtype=dtype) if dataset else make(seed, n=40, dtype=dtype)
    if dataset and name in ("first", "last"):
        obj = obj.drop_vars("c")  # xarray's resample first/last fail on it
    if gaps:  # empty bins: NaN for every statistic
        obj = obj.isel(time=np.r_[0:5, 25:40])
        if dtype.startswith("int") and name in ("first", "last"):
            dtype, obj = "float64", obj.astype(np.float64)  # xarray: garbage integers
    kw: dict[str, Any] = {"keep_attrs": keep}
    args = (0.3,) if name == "quantile" else ()
    with xr.set_options(**PLAIN), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = getattr(obj.resample(time=freq), name)(*args, **kw)
    actual = getattr(obj.nanops.resample(time=freq), name)(*args, **kw)
    if gaps and name == "count":
        # xarray's flox path gives NaN also for a bin holding only NaN; nanops
        # 0, as xarray without flox and as its groupby (README)
        filled = obj.time.resample(time=freq).count() > 0

        def zero_where_filled(v: Any) -> Any:
            return v.where(v.notnull() | ~filled, 0.0) if v.dtype.kind == "f" else v

        expected = (zero_where_filled(expected) if isinstance(expected, xr.DataArray)
                    else expected.map(zero_where_filled, keep_attrs=True))
    assert_same(actual, expected, rtol=2e-5 if dtype == "float32" else None)


@pytest.mark.parametrize("options", [{"closed": "right", "label": "right"},
                                     {"offset": "2D"}, {"origin": "epoch"}])
def test_resample_options_equal_xarray(options: dict[str, str]) -> None:
    da = make(14, n=40)
    for name in ("mean", "count", "max"):
        with xr.set_options(**PLAIN), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            expected = getattr(da.resample(time="7D", **options), name)()
        assert_same(getattr(da.nanops.resample(time="7D", **options), name)(), expected)


# --- dask: lazy until computed -------------------------------------------------------------------

dask = pytest.importorskip("dask")


@pytest.fixture(autouse=False)
def synchronous() -> Any:
    with dask.config.set(scheduler="synchronous"):
        yield


CHUNKS = [{"time": 7}, {"time": 4, "x": 2}, {"time": -1, "y": 1}]


@pytest.mark.parametrize("chunks", CHUNKS)
@pytest.mark.parametrize("name", ["sum", "mean", "std", "max", "count", "median", "argmin"])
def test_dask_reductions_stay_lazy(synchronous: Any, chunks: dict[str, int], name: str) -> None:
    da = make(5).fillna(0.5) if name == "argmin" else make(5)
    actual = getattr(da.chunk(chunks).nanops, name)("time")
    assert _lazy(actual)
    with xr.set_options(**PLAIN), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert_same(actual.compute(), getattr(da, name)("time"))


@pytest.mark.parametrize("chunks", [{"time": 15}, {"time": -1, "y": 1}])
def test_dask_quantile_stays_lazy(synchronous: Any, chunks: dict[str, int]) -> None:
    ds = make_ds(6)
    actual = ds.chunk(chunks).nanops.quantile([0.1, 0.5], dim="time")
    assert _lazy(actual)
    with xr.set_options(**PLAIN), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert_same(actual.compute(), ds.quantile([0.1, 0.5], dim="time"))


@pytest.mark.parametrize("chunks", CHUNKS)
@pytest.mark.parametrize("name", ["mean", "max", "median", "count", "argmax"])
@pytest.mark.parametrize("center", [False, True])
def test_dask_rolling_stays_lazy(synchronous: Any, chunks: dict[str, int], name: str,
                                 center: bool) -> None:
    da = make(7, inf=name == "argmax")
    actual = getattr(da.chunk(chunks).nanops.rolling(time=5, min_periods=2, center=center),
                     name)()
    assert _lazy(actual)
    with xr.set_options(**PLAIN), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = getattr(da.rolling(time=5, min_periods=2, center=center), name)()
    assert_same(actual.compute(), expected)


def test_dask_rolling_quantile_stays_lazy(synchronous: Any) -> None:
    da = make(8)
    actual = da.chunk(time=6).nanops.rolling(time=4, center=True).quantile([0.2, 0.7])
    assert _lazy(actual)
    assert_same(actual.compute(), da.nanops.rolling(time=4, center=True).quantile([0.2, 0.7]))


@pytest.mark.parametrize("chunks", CHUNKS)
@pytest.mark.parametrize("name", ["sum", "var", "min", "count", "median", "first", "quantile"])
def test_dask_groupby_and_resample_stay_lazy(synchronous: Any, chunks: dict[str, int],
                                             name: str) -> None:
    ds = make_ds(9).drop_vars("c")  # xarray's resample first/last fail on "c"
    args = ([0.2, 0.6],) if name == "quantile" else ()
    for grouped, lazy in ((ds.groupby("time.month"), ds.chunk(chunks).nanops.groupby(
            "time.month")), (ds.resample(time="MS"), ds.chunk(chunks).nanops.resample(time="MS"))):
        actual = getattr(lazy, name)(*args)
        assert _lazy(actual)
        with xr.set_options(**PLAIN), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            expected = getattr(grouped, name)(*args)
        assert_same(actual.compute(), expected)


def test_dask_fills_and_rolling_exp_stay_lazy(synchronous: Any) -> None:
    da = make(10, nan=0.5)
    for name in ("ffill", "bfill"):
        actual = getattr(da.chunk(time=4).nanops, name)("time", limit=2)
        assert _lazy(actual)
        assert_same(actual.compute(), getattr(da, name)("time", limit=2), rtol=0.0)
    actual = da.chunk(x=1).nanops.rolling_exp(time=5).mean()
    assert _lazy(actual)
    assert_same(actual.compute(), da.rolling_exp(time=5).mean(), rtol=1e-7)
    other = make(11, nan=0.2)
    actual = da.chunk(x=1).nanops.rolling_exp(time=5).corr(other.chunk(x=2))
    assert _lazy(actual)
    assert_same(actual.compute(), da.rolling_exp(time=5).corr(other), rtol=1e-7)
    with pytest.raises(ValueError):  # xarray's rule: the dimension in one chunk
        da.chunk(time=4).nanops.rolling_exp(time=5).mean()


# --- what nanops does not honour, and errors -----------------------------------------------------


def test_not_implemented_names_the_argument() -> None:
    da = make(11)
    cases = [
        (lambda: da.nanops.rolling(time=3, x=2), "windows"),
        (lambda: da.nanops.mean("time", skipna=False), "skipna"),
        (lambda: da.nanops.argmin(["time", "x"]), "dim"),
        (lambda: da.nanops.quantile(0.5, interpolation="linear"), "interpolation"),
        (lambda: da.nanops.groupby("time.month").mean(dim="x"), "dim"),
        (lambda: da.nanops.groupby(["time.month", "lab"]), "several"),
        (lambda: da.astype(str).nanops.max("time"), "dtype"),
        (lambda: da.astype("datetime64[ns]").nanops.rolling(time=2).max(), "dtype"),
    ]
    for call, word in cases:
        with pytest.raises(NotImplementedError, match=word):
            call()
    stacked = xr.DataArray(np.zeros((2, 3)), dims=("a", "b"),
                           coords={"g": (("a", "b"), [[0, 1, 0], [1, 0, 1]])})
    with pytest.raises(NotImplementedError, match="dims"):
        stacked.nanops.groupby("g").mean()


def test_errors_are_xarrays() -> None:
    da = make(12)
    for call, ours in [
        (lambda o: o.rolling(foo=3), lambda: da.nanops.rolling(foo=3)),
        (lambda o: o.rolling(time=0), lambda: da.nanops.rolling(time=0)),
        (lambda o: o.rolling(time=3, min_periods=0), lambda: da.nanops.rolling(time=3,
                                                                               min_periods=0)),
        (lambda o: o.mean("foo"), lambda: da.nanops.mean("foo")),
        (lambda o: o.quantile(1.5, "time"), lambda: da.nanops.quantile(1.5, "time")),
        (lambda o: o.quantile([[0.5]], "time"), lambda: da.nanops.quantile([[0.5]], "time")),
        (lambda o: o.groupby("foo"), lambda: da.nanops.groupby("foo")),
        (lambda o: o.resample(time="nonsense"), lambda: da.nanops.resample(time="nonsense")),
        (lambda o: o.rolling_exp(time=0.0, window_type="span"),
         lambda: da.nanops.rolling_exp(time=0.0, window_type="span")),
    ]:
        with xr.set_options(**PLAIN), pytest.raises(Exception) as theirs, \
                warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            call(da)
        # the builtin class of xarray's exception (MissingDimensionsError is a ValueError)
        builtin = next(c for c in theirs.type.__mro__ if c.__module__ == "builtins")
        with pytest.raises(builtin):
            ours()


# --- the module ----------------------------------------------------------------------------------


def test_docstrings_and_examples() -> None:
    mod = nanops.xarray
    for name in mod.__all__:
        item = getattr(mod, name)
        assert item.__doc__, name
        for attr, member in vars(item).items():
            if callable(member) and not attr.startswith("_"):
                assert member.__doc__, f"{name}.{attr}"
    for base in mod.DataArrayAccessor.__mro__[1:-1]:
        for attr, member in vars(base).items():
            if callable(member) and not attr.startswith("_"):
                assert member.__doc__, f"{base.__name__}.{attr}"
    # the entry module and the private modules that hold the classes' code
    for part in (mod, _xarray_reduce, _xarray_rolling, _xarray_rolling_exp, _xarray_groupby,
                 _xarray_support):
        result = doctest.testmod(part, optionflags=doctest.NORMALIZE_WHITESPACE)
        assert result.failed == 0, part.__name__
    assert doctest.testmod(mod).attempted > 0


def test_nanops_imports_without_xarray_and_pandas() -> None:
    code = (
        "import sys\n"
        "import nanops\n"
        "assert 'xarray' not in sys.modules and 'pandas' not in sys.modules\n"
        "sys.modules['xarray'] = None\n"
        "sys.modules['pandas'] = None\n"
        "assert float(nanops.nanmean([1.0, float('nan'), 3.0])) == 2.0\n"
        "for mod in ('nanops.xarray', 'nanops.pandas'):\n"
        "    try:\n"
        "        __import__(mod)\n"
        "    except ImportError:\n"
        "        pass\n"
        "    else:\n"
        "        raise AssertionError(mod)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
