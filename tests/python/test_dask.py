"""nanops on dask arrays (issue H, parts 2, 3 and 6): partial states
(:mod:`nanops.states`), lazy reductions computed by nanops' kernels
(:mod:`nanops.dask`), and a real ``distributed.LocalCluster``.

Every result is checked against nanops on the computed array (within the
rounding the merge of partial sums adds, bounded by ``math.fsum``-exact
references where the tolerance matters) for random chunkings.
"""

from __future__ import annotations

import importlib.util
import math
import pickle
import warnings
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from _support import assert_same_products, product_factors
from numpy.lib.array_utils import normalize_axis_tuple
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nanops
from nanops import states

da = pytest.importorskip("dask.array")
nanops_dask = pytest.importorskip("nanops.dask")

NAMES = states.NAMES
DTYPES = ["f8", "f4", "f2", "c16", "c8", "i4", "u1", "?"]


def _values(rng: np.random.Generator, shape: tuple[int, ...], dtype: str,
            infs: bool = False) -> np.ndarray:
    x = rng.standard_normal(shape) * 10
    if dtype in ("i4", "u1", "?"):
        x = np.abs(x).astype(dtype)
        return x
    if infs:  # inf and -inf, alone or meeting in one chunk (inf - inf is NaN)
        x[rng.random(shape) < 0.1] = np.inf
        x[rng.random(shape) < 0.1] = -np.inf
    if dtype.startswith("c"):
        y = x + 1j * rng.standard_normal(shape)
        y[rng.random(shape) < 0.1] = complex(np.nan, 1)  # NaN in the real part
        y[rng.random(shape) < 0.1] = complex(1, np.nan)  # NaN in the imaginary part
        return y.astype(dtype)
    x[rng.random(shape) < 0.2] = np.nan
    if x.ndim >= 2:
        x[:, 0] = np.nan  # an all-NaN column (a land mask)
    return x.astype(dtype)


def _chunks(draw: Any, shape: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """A random chunking of ``shape`` (irregular chunks included, and now and
    then a chunk of no values, as filtering or slicing leaves)."""
    out = []
    for n in shape:
        cuts = sorted(draw(st.sets(st.integers(1, max(n - 1, 1)), max_size=3)))
        cuts = [c for c in cuts if 0 < c < n]
        edges = [0, *cuts, n]
        sizes = [b - a for a, b in zip(edges, edges[1:])] or [n]
        if draw(st.integers(0, 3), label="empty chunk") == 0:
            sizes.insert(draw(st.integers(0, len(sizes)), label="at"), 0)
        out.append(tuple(sizes))
    return tuple(out)


def _tolerance(name: str, dtype: np.dtype, values: np.ndarray) -> tuple[float, float]:
    eps = float(np.finfo(np.float16 if dtype == np.float16 else
                         np.float32 if dtype in (np.float32, np.complex64) else np.float64).eps)
    if name in ("nanmin", "nanmax", "nancount"):
        return 0.0, 0.0
    if name == "nanprod":
        return 0.0, 64 * eps
    if name in ("nanskew", "nankurt"):  # dimensionless; M3, M4 merged in float64
        return 1e-9 + 64 * eps, 64 * eps
    magnitude = np.abs(values.astype(np.complex128))
    scale = float(np.max(magnitude[np.isfinite(magnitude)], initial=1.0))
    return 8 * eps * scale, 8 * eps


def _call(fn: Any, *args: Any, **kwargs: Any) -> Any:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        return fn(*args, **kwargs)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_lazy_reductions_equal_nanops_on_the_computed_array(data: st.DataObject) -> None:
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    name = data.draw(st.sampled_from(NAMES), label="name")
    dtype = data.draw(st.sampled_from(DTYPES), label="dtype")
    ndim = data.draw(st.integers(1, 3), label="ndim")
    shape = tuple(data.draw(st.lists(st.integers(1, 7), min_size=ndim, max_size=ndim)))
    values = _values(rng, shape, dtype, infs=data.draw(st.booleans(), label="infs"))
    x = da.from_array(values, chunks=_chunks(data.draw, shape))
    axis = data.draw(st.one_of(
        st.none(), st.integers(-ndim, ndim - 1),
        st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True).map(tuple),
    ), label="axis")
    kwargs: dict[str, Any] = {"axis": axis, "keepdims": data.draw(st.booleans(), label="kd")}
    if name in ("nanvar", "nanstd"):
        kwargs["ddof"] = data.draw(st.sampled_from([0, 1, 2]), label="ddof")
    if name in ("nansum", "nanmean") and dtype[0] in "fiu?" and data.draw(st.booleans()):
        kwargs["dtype"] = np.float64
    if name in ("nanskew", "nankurt"):
        kwargs["bias"] = data.draw(st.booleans(), label="bias")
        if dtype.startswith("c"):  # real input only, on dask as on NumPy arrays
            with pytest.raises(TypeError):
                _call(getattr(nanops, name), values, **kwargs)
            with pytest.raises(TypeError):
                _call(getattr(nanops, name), x, **kwargs)
            return
    if name == "nankurt":
        kwargs["fisher"] = data.draw(st.booleans(), label="fisher")
    lazy = _call(getattr(nanops, name), x, **kwargs)
    assert isinstance(lazy, da.Array)
    assert any(str(k[0] if isinstance(k, tuple) else k).startswith(f"nanops-{name}")
               for k in lazy.dask.keys())  # nanops' kernels, not dask's
    got = _call(lazy.compute)
    want = _call(getattr(nanops, name), values, **kwargs)
    assert lazy.dtype == np.asarray(want).dtype == np.asarray(got).dtype
    assert np.shape(got) == np.shape(want)
    atol, rtol = _tolerance(name, values.dtype, values)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))  # NaN positions exactly
    np.testing.assert_array_equal(np.isinf(got), np.isinf(want))  # and inf positions
    finite = ~np.isnan(want)
    # the parts apart: a complex result may be infinite in one part only
    for part in (np.real, np.imag):
        np.testing.assert_allclose(part(np.asarray(got)[finite]), part(np.asarray(want)[finite]),
                                   atol=atol, rtol=rtol)


def test_counts_beyond_one_and_two_bytes_stay_exact() -> None:
    # the tree carries counts in the narrowest unsigned type and widens them
    # as merged counts grow: a chunk of 300 steps (uint16), 70 000 in all
    # (uint32), and ddof near the count (n - ddof computed in int64)
    rng = np.random.default_rng(12)
    values = rng.standard_normal((70_000, 2))
    values[::7, 1] = np.nan
    x = da.from_array(values, chunks=(300, 1))
    assert np.array_equal(nanops.nancount(x, axis=0).compute(), [70_000, 60_000])
    for name, kwargs in (("nanmean", {}), ("nanvar", {"ddof": 69_999}),
                         ("nanstd", {"ddof": 60_001}), ("nanvar", {"ddof": 0})):
        got = _call(getattr(nanops, name)(x, axis=0, **kwargs).compute)
        want = _call(getattr(nanops, name), values, axis=0, **kwargs)
        np.testing.assert_allclose(got, want, rtol=1e-12, equal_nan=True)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))


def test_inf_and_minus_inf_in_one_chunk_give_nan_as_nanops() -> None:
    # a chunk's state is NaN where its values give NaN (inf - inf, 0 * inf);
    # merging states must carry that NaN, not skip it as a missing value
    for values, chunks in (([np.inf, -np.inf, 1.0, 2.0], 2), ([np.inf, 1.0, -np.inf, 2.0], 2),
                           ([0.0, np.inf, 2.0, 3.0], 2)):
        values = np.array(values)
        x = da.from_array(values, chunks=chunks)
        for name in NAMES:
            want = _call(getattr(nanops, name), values)
            got = _call(getattr(nanops, name)(x).compute)
            np.testing.assert_array_equal(got, want, err_msg=f"{name}({values})")
            pieces = np.concatenate([states.partial(name, values[:2]),
                                     states.partial(name, values[2:])])
            merged = states.merge(name, pieces)
            got = _call(states.finish, name, merged, keepdims=False,
                        dtype=np.asarray(want).dtype)
            np.testing.assert_array_equal(got, want, err_msg=f"states {name}({values})")


def test_float32_mean_of_many_chunks_is_exact_to_the_rounding() -> None:
    rng = np.random.default_rng(7)
    values = (rng.standard_normal(200_000) * 1e3 + 1e4).astype(np.float32)
    values[rng.random(values.size) < 0.1] = np.nan
    x = da.from_array(values, chunks=1_000)
    got = nanops.nanmean(x).compute()
    finite = values[~np.isnan(values)].astype(np.float64)
    exact = Fraction(math.fsum(finite)) / len(finite)
    assert got.dtype == np.float32
    assert abs(Fraction(float(got)) - exact) <= Fraction(float(np.spacing(got)))


def test_states_pickle_and_merge_in_any_order() -> None:
    rng = np.random.default_rng(3)
    values = _values(rng, (6, 9), "f8")
    for name in NAMES:
        pieces = [states.partial(name, values[:, i:i + 3], axis=1) for i in range(0, 9, 3)]
        pieces = [pickle.loads(pickle.dumps(p)) for p in pieces]
        forward = states.merge(name, np.concatenate(pieces, axis=1), axis=1)
        backward = states.merge(name, np.concatenate(pieces[::-1], axis=1), axis=1)
        tree = states.merge(name, np.concatenate(
            [states.merge(name, np.concatenate(pieces[:2], axis=1), axis=1), pieces[2]],
            axis=1), axis=1)
        want = _call(getattr(nanops, name), values, axis=1)
        for merged in (forward, backward, tree):
            got = _call(states.finish, name, merged, axis=1, keepdims=False,
                        dtype=np.asarray(want).dtype)
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, equal_nan=True)


def test_states_warn_as_numpy_for_empty_slices() -> None:
    merged = states.partial("nanmean", np.full((2, 3), np.nan), axis=0)
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        got = states.finish("nanmean", merged, axis=0, keepdims=False)
    assert np.isnan(got).all()
    with pytest.raises(ValueError, match="no partial states"):
        states.partial("nanmedian", np.ones(3))


def test_calls_nanops_dask_does_not_take_go_to_dasks_own_function() -> None:
    x = da.from_array(np.arange(12.0).reshape(3, 4), chunks=2)
    with_where = nanops.nanmean(x, axis=0, out=None)  # out=None is the default
    assert any("nanops-" in str(k) for k in with_where.dask.keys())
    # nanargmax has no partial states: dask's own function, as np.nanargmax
    arg = nanops.nanargmax(x, axis=0)
    assert not any("nanops-" in str(k) for k in arg.dask.keys())
    np.testing.assert_array_equal(arg.compute(), [2, 2, 2, 2])
    # the public module has the same functions
    np.testing.assert_allclose(nanops_dask.nanstd(x, axis=1, ddof=1).compute(),
                               np.nanstd(np.arange(12.0).reshape(3, 4), axis=1, ddof=1))
    with pytest.raises(ValueError, match="has no 'nanmedian'"):
        nanops_dask.reduce("nanmedian", x)


def test_import_nanops_does_not_import_dask() -> None:
    import subprocess
    import sys

    code = "import sys, nanops; print('dask' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


# Every wait on the cluster is bounded: a lost worker fails a test, never hangs the run.
CLUSTER_TIMEOUT_S = 120


@pytest.fixture(scope="module")
def cluster_client() -> Any:
    distributed = pytest.importorskip("distributed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=None, silence_logs=50)
        # Not the default scheduler: the tests that follow in this module compute on
        # threads, not on a cluster a test above killed a worker of.
        client = distributed.Client(cluster, set_as_default=False)
    try:
        yield client
    finally:
        client.close(timeout=CLUSTER_TIMEOUT_S)
        cluster.close(timeout=CLUSTER_TIMEOUT_S)


def test_reductions_on_a_local_cluster(cluster_client: Any) -> None:
    rng = np.random.default_rng(11)
    values = _values(rng, (40, 30), "f4")
    x = da.from_array(values, chunks=(7, 11))
    for name in NAMES:
        lazy = _call(getattr(nanops, name), x, axis=0)
        got = _call(cluster_client.compute(lazy).result, timeout=CLUSTER_TIMEOUT_S)
        want = _call(getattr(nanops, name), values, axis=0)
        atol, rtol = _tolerance(name, values.dtype, values)
        np.testing.assert_allclose(got, want, atol=atol, rtol=rtol, equal_nan=True)
        assert got.dtype == want.dtype


def test_order_graphs_of_other_groupings_share_no_key_on_a_cluster(cluster_client: Any) -> None:
    """A selection graph's keys name its grids and output groups: two graphs
    of the same input that differ in them share no key, so a scheduler that
    still holds the first graph's results never hands them to the second
    (it did: the second assembled the first's groups, ``cannot reshape``)."""
    from unittest import mock

    from nanops import _dask_order

    rng = np.random.default_rng(13)
    values = _order_values(rng, (8, 8, 1), "f4", "nan")
    x = da.from_array(values, chunks=((3, 0, 5), (2, 0, 6), (1, 0)))
    want = _call(nanops.nanquantile, values, [0.1, 0.5, 0.9], axis=0, method="inverted_cdf")
    keys = []
    for turn in range(8):
        small = turn % 2 == 1
        with mock.patch.object(_dask_order, "grid_size",
                               (lambda c, b: 4) if small else _dask_order.grid_size), \
                mock.patch.object(_dask_order, "_ROWS_PER_GROUP", 3 if small else 16384):
            lazy = nanops.nanquantile(x, [0.1, 0.5, 0.9], axis=0, method="inverted_cdf")
            keys.append(set(map(str, lazy.dask.keys())))
            got = _call(cluster_client.compute(lazy).result, timeout=CLUSTER_TIMEOUT_S)
        np.testing.assert_array_equal(got, want)
    shared = keys[0] & keys[1]
    assert all(str(x.name) in k for k in shared), shared  # the input's chunks alone


def _slow_copy(block: np.ndarray) -> np.ndarray:
    import time

    time.sleep(0.05)
    return block.copy()


def test_a_worker_killed_mid_reduction_changes_nothing(cluster_client: Any) -> None:
    import os
    import signal
    import time

    rng = np.random.default_rng(12)
    values = _values(rng, (64, 64), "f8")
    x = da.from_array(values, chunks=(4, 16)).map_blocks(_slow_copy, dtype=values.dtype)
    lazy = nanops.nanvar(x, axis=0, ddof=1)
    future = cluster_client.compute(lazy)
    time.sleep(0.5)  # some chunks done, some not
    pids = cluster_client.run(os.getpid)
    victim = sorted(pids.values())[0]
    os.kill(victim, signal.SIGKILL)  # the nanny starts a new worker; dask reruns the lost tasks
    got = _call(future.result, timeout=CLUSTER_TIMEOUT_S)
    want = _call(nanops.nanvar, values, axis=0, ddof=1)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, equal_nan=True)
    assert not future.status == "error"


# --- moving windows and fills (issue H, part 5) ----------------------------

# the exponential functions have no lazy form (a scan over the whole axis),
# nor the functions of two series and the matrices (refused: test_moving_pairs,
# test_matrices)
MOVING = sorted(n for n in nanops.__all__ if n.startswith("move_") and n != "move_quantile"
                and not n.startswith("move_exp_") and n not in ("move_cov", "move_corr")
                and not n.endswith("matrix"))
# sums, means and variances are rebuilt from each block's start: rounding only
ROUNDED = {"move_sum", "move_mean", "move_var", "move_std"}


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_moving_windows_on_dask_equal_nanops(data: st.DataObject) -> None:
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    name = data.draw(st.sampled_from(MOVING), label="name")
    dtype = data.draw(st.sampled_from(["f8", "f4", "i4"]), label="dtype")
    ndim = data.draw(st.integers(1, 2), label="ndim")
    shape = tuple(data.draw(st.lists(st.integers(1, 12), min_size=ndim, max_size=ndim)))
    values = _values(rng, shape, dtype)
    x = da.from_array(values, chunks=_chunks(data.draw, shape))
    axis = data.draw(st.integers(-ndim, ndim - 1), label="axis")
    window = data.draw(st.integers(1, shape[axis]), label="window")
    min_count = data.draw(st.one_of(st.none(), st.integers(1, window)), label="min_count")
    lazy = nanops.__dict__[name](x, window, min_count, axis=axis)
    assert isinstance(lazy, da.Array)
    got = _call(lazy.compute)
    want = _call(getattr(nanops, name), values, window, min_count, axis=axis)
    assert got.dtype == want.dtype == lazy.dtype and got.shape == want.shape
    if name in ROUNDED:
        eps = float(np.finfo(want.dtype).eps)
        scale = float(np.nanmax(np.abs(values.astype(np.float64)), initial=1.0))
        atol = 16 * eps * scale * (scale if name == "move_var" else 1.0) * window
        np.testing.assert_allclose(got, want, atol=atol, rtol=16 * eps, equal_nan=True)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    else:
        np.testing.assert_array_equal(got, want)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_fills_cross_chunk_borders(data: st.DataObject) -> None:
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    shape = tuple(data.draw(st.lists(st.integers(1, 12), min_size=1, max_size=2)))
    values = rng.standard_normal(shape)
    values[rng.random(shape) < data.draw(st.sampled_from([0.3, 0.7, 0.95]))] = np.nan
    x = da.from_array(values, chunks=_chunks(data.draw, shape))
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    limit = data.draw(st.one_of(st.none(), st.integers(1, 14)), label="limit")
    for name in ("ffill", "bfill"):
        got = getattr(nanops, name)(x, limit=limit, axis=axis)
        assert isinstance(got, da.Array)
        np.testing.assert_array_equal(got.compute(),
                                      getattr(nanops, name)(values, limit=limit, axis=axis))
    np.testing.assert_array_equal(nanops.push(x, limit, axis).compute(),
                                  nanops.push(values, limit, axis))


def test_moving_errors_on_dask_are_nanops_errors() -> None:
    x = da.from_array(np.arange(10.0), chunks=3)
    with pytest.raises(ValueError, match="Moving window"):
        nanops.move_mean(x, 11)
    with pytest.raises(ValueError):
        nanops.move_mean(x, 3, min_count=4)
    with pytest.raises(np.exceptions.AxisError):
        nanops.move_sum(x, 2, axis=1)
    np.testing.assert_array_equal(nanops.ffill(da.arange(4, chunks=2)).compute(), np.arange(4))


# --- medians and quantiles: exact distributed selection (issue H, part 4) ---

METHODS = sorted(nanops._order.METHODS)


def _order_values(rng: np.random.Generator, shape: tuple[int, ...], dtype: str,
                  pattern: str) -> np.ndarray:
    x = rng.standard_normal(shape) * 10
    if pattern == "ties":
        x = np.round(x / 5)
    if dtype in ("i4", "u1", "i8"):
        return np.abs(x).astype(dtype)
    if pattern != "none":
        x[rng.random(shape) < 0.25] = np.nan
    if pattern == "inf":
        x[rng.random(shape) < 0.1] = np.inf
        x[rng.random(shape) < 0.1] = -np.inf
    if pattern == "all-nan" and x.ndim >= 2:
        x[:, 0] = np.nan
    return x.astype(dtype)


def _first_slice_all_nan(values: np.ndarray, axis: Any) -> bool:
    axes = tuple(range(values.ndim)) if axis is None else normalize_axis_tuple(axis, values.ndim)
    lanes = np.moveaxis(values, axes, tuple(range(-len(axes), 0)))
    first = lanes.reshape(-1, math.prod(values.shape[i] for i in axes))[0]
    return values.dtype.kind == "f" and bool(np.isnan(first).all())


def _order_call(name: str, values: Any, q: Any, **kwargs: Any) -> Any:
    fn = getattr(nanops, name)
    return _call(fn, values, **kwargs) if name == "nanmedian" else _call(fn, values, q, **kwargs)


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_dask_quantiles_are_nanops_bits_on_the_computed_array(data: st.DataObject) -> None:
    from unittest import mock

    from nanops import _dask_order

    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    name = data.draw(st.sampled_from(["nanmedian", "nanquantile", "nanpercentile"]))
    dtype = data.draw(st.sampled_from(["f8", "f4", "f2", "i4", "u1"]), label="dtype")
    pattern = data.draw(st.sampled_from(["none", "nan", "ties", "inf", "all-nan"]))
    ndim = data.draw(st.integers(1, 3), label="ndim")
    shape = tuple(data.draw(st.lists(st.integers(1, 9), min_size=ndim, max_size=ndim)))
    values = _order_values(rng, shape, dtype, pattern)
    x = da.from_array(values, chunks=_chunks(data.draw, shape))
    axis = data.draw(st.one_of(
        st.none(), st.integers(-ndim, ndim - 1),
        st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True).map(tuple),
    ), label="axis")
    method = data.draw(st.sampled_from(METHODS), label="method")
    scale = 100 if name == "nanpercentile" else 1
    q: Any = data.draw(st.sampled_from([
        0.5, 0.0, 1.0, 0.1, [0.1, 0.5, 0.9], [0.9, 0.1, 0.1001, 1.0],
        np.array([0.3, 0.7], np.float32), np.array(0.25), 1,
    ]), label="q")
    q = q if isinstance(q, np.ndarray) else (
        [v * scale for v in q] if isinstance(q, list) else q * scale)
    if isinstance(q, np.ndarray):
        q = q * q.dtype.type(scale)
    kwargs: dict[str, Any] = {"axis": axis, "keepdims": data.draw(st.booleans(), label="kd")}
    if name != "nanmedian":
        kwargs["method"] = method
    small_grid = data.draw(st.booleans(), label="small_grid")  # brackets far wider than lanes
    # a gather bound of 6 values per bracket: refining passes on these small lanes
    refine = data.draw(st.booleans(), label="refine")
    try:
        want = _order_call(name, values, q, **kwargs)
    except (TypeError, ValueError) as e:  # NumPy's refusals (e.g. bool-like casts)
        with pytest.raises(type(e)):
            _order_call(name, x, q, **kwargs).compute()
        return
    if nanops.dask._order_plan(name, values.dtype, q, method, None) is None:
        return  # nanops hands these to NumPy, and nanops.dask to dask
    with mock.patch.object(_dask_order, "grid_size",
                           (lambda c, b: 4) if small_grid else _dask_order.grid_size), \
            mock.patch.object(_dask_order, "_ROWS_PER_GROUP", 3 if small_grid else 16384), \
            mock.patch.object(_dask_order, "_GATHER", 6 if refine else _dask_order._GATHER):
        lazy = _order_call(name, x, q, **kwargs)
        got = _call(lazy.compute)
        plan = nanops.dask._order_plan(name, values.dtype, q, method, None)
        axes = tuple(range(ndim)) if axis is None else normalize_axis_tuple(axis, ndim)
        max_lane = math.prod(max(x.chunks[i]) for i in axes)
        rounds = _dask_order.passes(max_lane, 1 if plan["median"] else len(plan["q"]))[2]
    assert (rounds > 0) == any("nanops-order-refine0" in str(k) for k in lazy.dask.keys())
    assert isinstance(lazy, da.Array)
    assert any("nanops-order" in str(k) for k in lazy.dask.keys())  # no rechunk
    assert not any("rechunk" in str(k) for k in lazy.dask.keys())
    assert np.shape(got) == np.shape(want)
    quirk = (np.asarray(got).dtype != np.asarray(want).dtype
             and name != "nanmedian" and _first_slice_all_nan(values, axis))
    if quirk:
        # NumPy's (and so nanops') result dtype for an all-NaN first slice
        # depends on the data (the documented difference): nanops computed
        # the other slices in the input's narrower dtype, so equal within
        # its rounding, not bit for bit
        eps = float(np.finfo(np.asarray(want).dtype).eps)
        finite = np.abs(values[np.isfinite(values)]).astype(np.float64)
        scale = float(finite.max()) if finite.size else 1.0
        np.testing.assert_allclose(got, want, rtol=8 * eps, atol=8 * eps * scale,
                                   equal_nan=True)
        return
    np.testing.assert_array_equal(got, want)  # bit for bit (NaN where NaN; 0.0 == -0.0)
    if not (name != "nanmedian" and _first_slice_all_nan(values, axis)):
        # (NumPy's dtype for an all-NaN first slice depends on the data)
        assert np.asarray(got).dtype == np.asarray(want).dtype == lazy.dtype
    if values.dtype != np.float16 or name != "nanmedian":
        numpy_fn = getattr(np, name)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            ref = numpy_fn(values, **kwargs) if name == "nanmedian" else numpy_fn(
                values, q, **kwargs)
        np.testing.assert_array_equal(got, ref)


def test_dask_quantiles_of_long_lanes_with_ties_and_infinities() -> None:
    rng = np.random.default_rng(21)
    values = np.round(rng.standard_normal((3, 20_000)) * 50)
    values[rng.random(values.shape) < 0.2] = np.nan
    values[0, :5000] = np.inf
    values[1, rng.random(20_000) < 0.01] = -np.inf
    values[2] = np.nan
    values[2, 123] = 4.0
    x = da.from_array(values, chunks=(2, 1_700))
    for method in METHODS:
        got = _call(nanops.nanquantile(x, [0.0, 0.1, 0.5, 0.77, 1.0], axis=1,
                                       method=method).compute)
        want = _call(nanops.nanquantile, values, [0.0, 0.1, 0.5, 0.77, 1.0], axis=1,
                     method=method)
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(_call(nanops.nanmedian(x).compute),
                                  _call(nanops.nanmedian, values))
    np.testing.assert_array_equal(_call(nanops.nanmedian(x, axis=(0, 1)).compute),
                                  _call(nanops.nanmedian, values, axis=(0, 1)))


def test_dask_quantiles_move_a_small_part_of_the_array() -> None:
    from nanops import _dask_order

    rng = np.random.default_rng(5)
    values = rng.standard_normal((4, 200_000))
    axes, plan = (1,), nanops.dask._order_plan("nanquantile", values.dtype,
                                               [0.1, 0.5, 0.9], "linear", None)
    assert plan is not None
    chunks = [values[:, i:i + 20_000] for i in range(0, 200_000, 20_000)]
    k = _dask_order.grid_size(20_000, 3)
    stats = [_dask_order._stats(c, axes, k, [slice(0, 4)])[0] for c in chunks]
    brackets = _dask_order._brackets(stats, k, plan)
    selected = [_dask_order._select(c, axes, [brackets])[0] for c in chunks]
    moved = sum(grid.size for _, grid in stats) + sum(
        v.size for s in selected for v in s["inside"])
    # per output and chunk: the grid and about 2c/k values per bracket, k ~ sqrt(2c · 3)
    assert moved < 10 * 4 * 3 * 4 * math.isqrt(20_000 * 3)  # ~5% of the array, not all of it
    got = _dask_order._finish(selected, brackets, plan)
    np.testing.assert_array_equal(got, nanops.nanquantile(values, [0.1, 0.5, 0.9], axis=1))


def test_long_lanes_take_refining_passes_and_send_little() -> None:
    from nanops import _dask_order

    rng = np.random.default_rng(8)
    values = np.round(rng.standard_normal((2, 600_000)) * 300)  # ties
    values[rng.random(values.shape) < 0.1] = np.nan
    values[0, rng.random(600_000) < 0.01] = np.inf
    values[1, :2000] = -np.inf
    chunk = 150_000
    chunks = [values[:, i:i + chunk] for i in range(0, values.shape[1], chunk)]
    axes, q = (1,), [0.1, 0.5, 0.9]
    plan = nanops.dask._order_plan("nanquantile", values.dtype, q, "linear", None)
    assert plan is not None
    k, k_refine, rounds = _dask_order.passes(chunk, 3)
    assert rounds == 0  # 150 000 values per chunk: the grid of k + 1 suffices for 3 brackets
    k, k_refine, rounds = _dask_order.passes(chunk, 1)
    assert rounds == 1 and k + 1 <= _dask_order._GATHER
    plan = nanops.dask._order_plan("nanmedian", values.dtype, None, "linear", None)
    assert plan is not None
    group = [slice(0, 2)]
    stats = [_dask_order._stats(c, axes, k, group)[0] for c in chunks]
    brackets = _dask_order._brackets(stats, k, plan)
    refined = [_dask_order._refine(c, axes, [brackets], k_refine)[0] for c in chunks]
    narrowed = _dask_order._rebracket(refined, brackets, k_refine)
    selected = [_dask_order._select(c, axes, [narrowed])[0] for c in chunks]
    per_pass = [
        sum(grid.size for _, grid in stats),
        sum(r["grid"].size for r in refined),
        sum(v.size for s in selected for v in s["inside"]),
    ]
    # outputs (2) × brackets (1) × chunks (4) × the bound, in every pass
    assert max(per_pass) <= 2 * 1 * len(chunks) * _dask_order._GATHER, per_pass
    # without the refining pass the last pass would have sent far more
    unrefined = [_dask_order._select(c, axes, [brackets])[0] for c in chunks]
    assert sum(v.size for s in unrefined for v in s["inside"]) > 4 * per_pass[2]
    got = _dask_order._finish(selected, narrowed, plan)  # (width, outputs)
    np.testing.assert_array_equal(got[0], nanops.nanmedian(values, axis=1))
    # and the whole graph, with every method, on the lazy array
    x = da.from_array(values, chunks=(1, chunk))
    lazy = nanops.nanmedian(x, axis=1)
    assert any("nanops-order-refine0" in str(key) for key in lazy.dask.keys())
    np.testing.assert_array_equal(_call(lazy.compute), nanops.nanmedian(values, axis=1))
    for method in METHODS:
        got = _call(nanops.nanquantile(x, 0.3, axis=1, method=method).compute)
        np.testing.assert_array_equal(got, nanops.nanquantile(values, 0.3, axis=1,
                                                              method=method))


def test_dask_quantile_calls_it_does_not_take_go_to_dask() -> None:
    values = np.arange(24.0).reshape(4, 6)
    x = da.from_array(values, chunks=2)
    with pytest.raises(ValueError, match="Quantiles must be in the range"):
        nanops.nanquantile(x, 1.5)
    with pytest.raises(ValueError, match="Percentiles must be in the range"):
        nanops.nanpercentile(x, -1)
    with pytest.raises(TypeError, match="real numbers"):
        nanops.nanquantile(x.astype(complex), 0.5)
    # out= and weights= are left to NumPy's dispatch (dask's own function, or its error)
    lazy = nanops.nanmedian(x, axis=0, overwrite_input=True)
    assert any("nanops-order" in str(k) for k in lazy.dask.keys())
    np.testing.assert_array_equal(lazy.compute(), np.nanmedian(values, axis=0))
    np.testing.assert_array_equal(
        nanops.nanquantile(x, 0.5, 1, None, False, "lower", True).compute(),
        np.nanquantile(values, 0.5, axis=1, method="lower", keepdims=True))
    np.testing.assert_array_equal(nanops_dask.nanpercentile(x, [50, 10], axis=0).compute(),
                                  np.nanpercentile(values, [50, 10], axis=0))


def test_dask_quantile_on_a_local_cluster_survives_a_killed_worker(
        cluster_client: Any) -> None:
    import os
    import signal
    import time

    rng = np.random.default_rng(13)
    values = _order_values(rng, (48, 64), "f4", "nan")
    x = da.from_array(values, chunks=(4, 16)).map_blocks(_slow_copy, dtype=values.dtype)
    lazy = nanops.nanquantile(x, [0.1, 0.5, 0.9], axis=0)
    future = cluster_client.compute(lazy)
    time.sleep(0.5)  # some chunks done, some not
    pids = cluster_client.run(os.getpid)
    os.kill(sorted(pids.values())[0], signal.SIGKILL)
    got = _call(future.result, timeout=CLUSTER_TIMEOUT_S)
    want = _call(nanops.nanquantile, values, [0.1, 0.5, 0.9], axis=0)
    np.testing.assert_array_equal(got, want)
    assert got.dtype == want.dtype
    # and over axis=None, which dask itself does not offer
    got = _call(cluster_client.compute(nanops.nanmedian(x)).result, timeout=CLUSTER_TIMEOUT_S)
    np.testing.assert_array_equal(got, _call(nanops.nanmedian, values))


def test_weighted_dask_quantiles_on_a_local_cluster(cluster_client: Any) -> None:
    # the selection with weights (tests/python/test_dask_weighted.py) across
    # worker processes: integer weights (brackets) and float weights (gathered)
    rng = np.random.default_rng(17)
    values = _order_values(rng, (6, 11, 4), "f8", "nan")
    x = da.from_array(values, chunks=(2, 3, 4))
    for weights in (rng.integers(0, 5, values.shape), rng.random(values.shape)):
        for method in ("inverted_cdf", "averaged_inverted_cdf"):
            for q, axis, kd in (([0.2, 0.5], 1, False), (0.3, (0, 2), True),
                                (0.7, None, False)):
                lazy = nanops.nanquantile(x, q, axis=axis, method=method, keepdims=kd,
                                          weights=weights)
                assert not any("rechunk" in str(layer) for layer in lazy.dask.layers)
                got = _call(cluster_client.compute(lazy).result, timeout=CLUSTER_TIMEOUT_S)
                want = _call(nanops.nanquantile, values, q, axis=axis, method=method,
                             keepdims=kd, weights=weights)
                np.testing.assert_array_equal(got, want)
            lane = weights[0, :, 0]
            got = _call(cluster_client.compute(nanops.nanpercentile(
                x, [30, 60], axis=1, method=method, weights=lane)).result,
                        timeout=CLUSTER_TIMEOUT_S)
            want = _call(nanops.nanpercentile, values, [30, 60], axis=1, method=method,
                         weights=lane)
            np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match="weights"):
        nanops.nanquantile(x, 0.5, axis=1, weights=np.ones(11))
    with pytest.raises(ValueError, match="non-negative"):
        _call(cluster_client.compute(nanops.nanquantile(
            x, 0.5, axis=1, method="inverted_cdf", weights=-np.ones(11))).result,
              timeout=CLUSTER_TIMEOUT_S)


# --- group-by on dask: flox's map-reduce with nanops' kernels ---------------

GROUP_NAMES = sorted(nanops_dask.GROUP_NAMES)
needs_flox = pytest.mark.skipif(importlib.util.find_spec("flox") is None,
                                reason="group-by on dask needs flox")


@needs_flox
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_dask_group_by_equals_nanops_on_the_computed_array(data: st.DataObject) -> None:
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    name = data.draw(st.sampled_from(GROUP_NAMES), label="name")
    dtype = data.draw(st.sampled_from(["f8", "f4", "i4"]), label="dtype")
    ndim = data.draw(st.integers(1, 3), label="ndim")
    shape = tuple(data.draw(st.lists(st.integers(1, 7), min_size=ndim, max_size=ndim)))
    values = _values(rng, shape, dtype, infs=data.draw(st.booleans(), label="infs"))
    x = da.from_array(values, chunks=_chunks(data.draw, shape))
    axis = data.draw(st.one_of(
        st.none(), st.integers(-ndim, ndim - 1),
        st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True).map(tuple),
    ), label="axis")
    grouped = (tuple(range(ndim)) if axis is None
               else normalize_axis_tuple(axis, ndim))
    lab_shape = shape if axis is None else tuple(shape[i] for i in grouped)
    top = data.draw(st.integers(1, 5), label="groups")
    labels = rng.integers(-1, top, lab_shape)  # -1: skipped
    kwargs: dict[str, Any] = {"axis": axis}
    if data.draw(st.booleans(), label="num_labels given"):
        kwargs["num_labels"] = top + 1  # the last group has no member
    if name in ("group_nanvar", "group_nanstd"):
        kwargs["ddof"] = data.draw(st.sampled_from([0, 1]), label="ddof")
    fn = getattr(nanops, name)
    try:
        want = _call(fn, values, labels, **kwargs)
    except ValueError as error:  # an integer min/max of an empty group
        with pytest.raises(ValueError, match=str(error)[:30]):
            _call(fn, x, labels, **kwargs)
        return
    lazy = _call(fn, x, labels, **kwargs)
    assert isinstance(lazy, da.Array)
    got = _call(lazy.compute)
    assert got.dtype == want.dtype and got.shape == want.shape
    atol, rtol = _tolerance(name[len("group_"):], values.dtype, values)
    if name in ("group_nanvar", "group_nanstd"):  # squared deviations: the scale squared
        finite = np.abs(values[np.isfinite(values)])
        scale = float(np.max(finite, initial=1.0))
        atol, rtol = atol * scale, 64 * rtol
    np.testing.assert_allclose(got, want, atol=atol, rtol=rtol, equal_nan=True)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))  # NaN and inf exactly
    np.testing.assert_array_equal(np.isinf(got), np.isinf(want))


@needs_flox
@pytest.mark.parametrize("name", ["group_nanprod", "group_nansum"])
def test_dask_integer_group_products_and_sums_wrap_as_nanops(name: str) -> None:
    # products of 42 integers up to ~30 overflow int64: nanops (as NumPy)
    # wraps; flox carried them in float64 when given a float fill value
    rng = np.random.default_rng(1)
    values = (np.abs(rng.standard_normal((6, 7, 7)) * 10)).astype("i4") + 1
    if name == "group_nansum":
        values = values.astype("i8") * (2**58)  # sums wrap too
    labels = np.zeros((6, 7), int)
    want = getattr(nanops, name)(values, labels, axis=(0, 2))
    x = da.from_array(values, chunks=(2, 7, 3))
    got = getattr(nanops, name)(x, labels, axis=(0, 2)).compute(scheduler="sync")
    assert got.dtype == want.dtype == np.int64
    np.testing.assert_array_equal(got, want)


@needs_flox
def test_dask_group_by_runs_nanops_kernels_on_each_block(monkeypatch: Any) -> None:
    calls = []
    original = nanops.group_nansum

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append(np.shape(args[0]))
        return original(*args, **kwargs)

    monkeypatch.setattr(nanops, "group_nansum", spy)
    values = np.arange(60.0).reshape(3, 20)
    x = da.from_array(values, chunks=(3, 5))
    labels = np.arange(20) % 4
    got = nanops_dask.group("group_nanmean", x, labels, axis=-1).compute(scheduler="sync")
    np.testing.assert_allclose(got, original(values, labels, axis=-1) / 5)
    assert sorted(calls) == [(3, 5)] * 4  # one call per block, none on the whole array


@needs_flox
def test_dask_group_by_refuses_what_nanops_refuses() -> None:
    x = da.from_array(np.arange(6.0), chunks=2)
    with pytest.raises(ValueError, match="out of range"):
        nanops.group_nansum(x, np.array([0, 1, 2, 3, 4, 5]), num_labels=3)
    with pytest.raises(TypeError, match="integer"):
        nanops.group_nansum(x, np.linspace(0, 1, 6))
    with pytest.raises(TypeError, match="does not support"):  # dask labels: not computed here
        nanops.group_nansum(x, da.from_array(np.zeros(6, int), chunks=3))


@needs_flox
def test_dask_group_by_on_a_local_cluster(cluster_client: Any) -> None:
    rng = np.random.default_rng(5)
    values = _values(rng, (6, 90), "f4")
    labels = rng.integers(0, 7, 90)
    x = da.from_array(values, chunks=(4, 25))
    for name in GROUP_NAMES:
        want = _call(getattr(nanops, name), values, labels, axis=-1)
        got = _call(cluster_client.compute(_call(getattr(nanops, name), x, labels,
                                                 axis=-1)).result,
                         timeout=CLUSTER_TIMEOUT_S)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, equal_nan=True)


# --- odd chunkings and arguments (issue Q) -----------------------------------


@pytest.mark.parametrize("name", ["nanskew", "nankurt"])
def test_higher_moments_with_an_empty_chunk_along_a_kept_axis(name: str) -> None:
    values = np.random.default_rng(21).standard_normal((3, 4))
    for chunks, axis in ((((3,), (2, 0, 2)), 0), (((1, 2), (2, 0, 2)), 0),
                         (((1, 0, 2), (2, 2)), 1)):
        x = da.from_array(values, chunks=chunks)
        got = getattr(nanops, name)(x, axis=axis).compute(scheduler="sync")
        np.testing.assert_allclose(got, getattr(nanops, name)(values, axis=axis), rtol=1e-12)


def test_fills_and_group_by_with_an_empty_chunk() -> None:
    values = np.array([[1.0, np.nan, np.nan, 4.0, np.nan], [np.nan, 2.0, np.nan, np.nan, 5.0]])
    for chunks in (((2,), (2, 0, 3)), ((1, 0, 1), (1, 3, 0, 1))):
        x = da.from_array(values, chunks=chunks)
        for name in ("ffill", "bfill"):
            got = getattr(nanops, name)(x).compute(scheduler="sync")
            np.testing.assert_array_equal(got, getattr(nanops, name)(values))
        np.testing.assert_array_equal(nanops.push(x, None).compute(scheduler="sync"),
                                      nanops.push(values, None))
        if importlib.util.find_spec("flox") is not None:
            labels = np.array([0, 1, 0, 1, 1])
            got = nanops.group_nanmean(x, labels, axis=1).compute(scheduler="sync")
            np.testing.assert_allclose(got, nanops.group_nanmean(values, labels, axis=1))


def test_push_of_zero_positions_is_a_copy_as_nanops() -> None:
    values = np.array([1.0, np.nan, 3.0, np.nan])
    for a in (values, np.arange(4)):
        got = nanops.push(da.from_array(a, chunks=3), 0).compute(scheduler="sync")
        want = nanops.push(a, 0)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


@needs_flox
@pytest.mark.parametrize("name", ["group_nanvar", "group_nanstd"])
def test_dask_group_variance_of_complex_values(name: str) -> None:
    values = np.array([[1 + 1j, 2, 3j, 4, np.nan, complex(1, np.nan)],
                       [2j, 1 - 1j, 5, 1j, 2, 3]])
    labels = np.array([0, 0, 1, 1, 0, 1])
    for ddof in (0, 1):
        got = getattr(nanops, name)(da.from_array(values, chunks=(1, 4)), labels, axis=1,
                                    ddof=ddof).compute(scheduler="sync")
        want = getattr(nanops, name)(values, labels, axis=1, ddof=ddof)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-12)


@needs_flox
def test_dask_group_mean_of_64_bit_integers_does_not_wrap() -> None:
    values = np.full(4, 2**62)
    got = nanops.group_nanmean(da.from_array(values, chunks=4), np.zeros(4, int))
    np.testing.assert_array_equal(got.compute(scheduler="sync"), [2.0**62])
    rng = np.random.default_rng(22)
    stamps = 1_700_000_000_000_000_000 + rng.integers(0, 10**15, (3, 40))  # nanoseconds
    labels = rng.integers(0, 3, 40)
    for a in (stamps, stamps.astype(np.uint64), -stamps):
        got = nanops.group_nanmean(da.from_array(a, chunks=(2, 7)), labels, axis=1)
        np.testing.assert_allclose(got.compute(scheduler="sync"),
                                   nanops.group_nanmean(a, labels, axis=1), rtol=4 * 2.0**-52)


@needs_flox
def test_dask_group_fixes_on_a_local_cluster(cluster_client: Any) -> None:
    labels = np.array([0, 0, 1, 1, 0, 1])
    ints = np.array([2**62, 2**62, 3, 5, 2**62, 7])
    cplx = np.array([1 + 1j, 2, 3j, 4, np.nan, 1 - 2j])
    for name, values in (("group_nanmean", ints), ("group_nanvar", cplx)):
        lazy = getattr(nanops, name)(da.from_array(values, chunks=((2, 0, 4),)), labels)
        got = cluster_client.compute(lazy).result(timeout=CLUSTER_TIMEOUT_S)
        np.testing.assert_allclose(got, getattr(nanops, name)(values, labels), rtol=1e-12)


# --- grouped products: blocks' states that neither overflow nor underflow ---


@needs_flox
def test_dask_group_products_of_blocks_that_overflow_equal_nanops() -> None:
    # issue 38 item 6: the blocks' products inf and 0 gave inf · 0 = NaN
    values, labels = np.array([1e300, 1e300, 1e-300, 1e-300]), np.zeros(4, int)
    got = nanops.group_nanprod(da.from_array(values, chunks=2), labels).compute(scheduler="sync")
    want = nanops.group_nanprod(values, labels)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_allclose(got, [1.0], rtol=1e-15)
    # complex too, and an empty group: 1
    z = values * (1 + 1j) / np.sqrt(2)
    got = nanops.group_nanprod(da.from_array(z, chunks=2), labels, num_labels=2)
    np.testing.assert_allclose(got.compute(scheduler="sync"),
                               nanops.group_nanprod(z, labels, num_labels=2), rtol=1e-14)


@needs_flox
@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_dask_group_products_equal_nanops_at_every_magnitude(data: st.DataObject) -> None:
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    dtype = data.draw(st.sampled_from(["f8", "c16", "f4", "c8"]), label="dtype")
    ndim = data.draw(st.integers(1, 3), label="ndim")
    shape = tuple(data.draw(st.lists(st.integers(1, 9), min_size=ndim, max_size=ndim)))
    values = product_factors(rng, shape, dtype)
    x = da.from_array(values, chunks=_chunks(data.draw, shape))
    axis = data.draw(st.one_of(
        st.none(), st.integers(-ndim, ndim - 1),
        st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True).map(tuple),
    ), label="axis")
    grouped = tuple(range(ndim)) if axis is None else normalize_axis_tuple(axis, ndim)
    lab_shape = shape if axis is None else tuple(shape[i] for i in grouped)
    top = data.draw(st.integers(1, 4), label="groups")
    labels = rng.integers(-1, top, lab_shape)  # -1: skipped
    kwargs: dict[str, Any] = {"axis": axis}
    if data.draw(st.booleans(), label="num_labels given"):
        kwargs["num_labels"] = top + 1  # the last group has no member: 1
    want = _call(nanops.group_nanprod, values, labels, **kwargs)
    lazy = _call(nanops.group_nanprod, x, labels, **kwargs)
    got = _call(lazy.compute, scheduler="sync")
    # float32 results: the float64 product rounded once, which the merge
    # order can move by one float32 ulp
    assert_same_products(got, want, rtol=1e-12 if dtype in ("f8", "c16") else 2.0**-22)


@needs_flox
def test_dask_group_products_on_a_local_cluster(cluster_client: Any) -> None:
    # the structured states travel between processes
    rng = np.random.default_rng(23)
    labels = rng.integers(0, 3, 60)
    for dtype in ("f8", "c16", "i8"):
        values = (rng.integers(-3, 4, (2, 60)) if dtype == "i8"
                  else product_factors(rng, (2, 60), dtype))
        lazy = nanops.group_nanprod(da.from_array(values, chunks=(1, 7)), labels, axis=1)
        got = _call(cluster_client.compute(lazy).result, timeout=CLUSTER_TIMEOUT_S)
        want = _call(nanops.group_nanprod, values, labels, axis=1)
        if dtype == "i8":
            np.testing.assert_array_equal(got, want)
        else:
            assert_same_products(got, want, rtol=1e-12)


def test_unknown_chunk_sizes_are_a_clear_error() -> None:
    values = np.arange(24.0).reshape(6, 4)
    x = da.from_array(values, chunks=(3, 2))
    x = x[x[:, 0] > 2]  # chunk sizes along axis 0 unknown
    known = values[values[:, 0] > 2]
    calls = [
        lambda: nanops.nanmedian(x, axis=1),
        lambda: nanops.nanquantile(x, 0.5, axis=0),
        lambda: nanops.nanquantile(x, 0.5, axis=1, method="inverted_cdf",
                                   weights=np.ones(4)),
        lambda: nanops.move_mean(x, 2, axis=0),
        lambda: nanops.move_mean(x, 2, axis=1),
        lambda: nanops.ffill(x, axis=1),
        lambda: nanops.bfill(x, axis=1),
        lambda: nanops.push(x, 1, axis=0),
    ]
    if importlib.util.find_spec("flox") is not None:
        calls += [lambda: nanops.group_nansum(x, np.array([0, 1, 0, 1]), axis=1),
                  lambda: nanops.group_nanmedian(x, np.array([0, 1, 0, 1]), axis=1)]
    for call in calls:
        with pytest.raises(ValueError, match=r"unknown.*x\.compute_chunk_sizes\(\)"):
            call()
    # what needs no chunk sizes still works
    np.testing.assert_allclose(nanops.nanmean(x, axis=0).compute(scheduler="sync"),
                               nanops.nanmean(known, axis=0))
    for fill in (nanops.ffill, nanops.bfill):
        np.testing.assert_array_equal(fill(x, axis=0).compute(scheduler="sync"),
                                      fill(known, axis=0))


def test_invalid_quantile_method_is_nanops_error() -> None:
    values = np.arange(10.0)
    x = da.from_array(values, chunks=5)
    for method in ("bogus", 3):
        with pytest.raises(ValueError) as want:
            nanops.nanquantile(values, 0.5, method=method)
        for call in (nanops_dask.nanquantile, nanops.nanquantile):
            with pytest.raises(ValueError) as got:
                call(x, 0.5, method=method)
            assert str(got.value) == str(want.value)


def test_the_module_examples_run() -> None:
    import doctest

    result = doctest.testmod(nanops_dask, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
