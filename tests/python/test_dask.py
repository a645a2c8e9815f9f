"""nanops on dask arrays (issue H, parts 2, 3 and 6): partial states
(:mod:`nanops.states`), lazy reductions computed by nanops' kernels
(:mod:`nanops.dask`), and a real ``distributed.LocalCluster``.

Every result is checked against nanops on the computed array (within the
rounding the merge of partial sums adds, bounded by ``math.fsum``-exact
references where the tolerance matters) for random chunkings.
"""

from __future__ import annotations

import math
import pickle
import warnings
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nanops
from nanops import states

da = pytest.importorskip("dask.array")
nanops_dask = pytest.importorskip("nanops.dask")

NAMES = states.NAMES
DTYPES = ["f8", "f4", "f2", "c16", "c8", "i4", "u1", "?"]


def _values(rng: np.random.Generator, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    x = rng.standard_normal(shape) * 10
    if dtype in ("i4", "u1", "?"):
        x = np.abs(x).astype(dtype)
        return x
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
    """A random chunking of ``shape`` (irregular chunks included)."""
    out = []
    for n in shape:
        cuts = sorted(draw(st.sets(st.integers(1, max(n - 1, 1)), max_size=3)))
        cuts = [c for c in cuts if 0 < c < n]
        edges = [0, *cuts, n]
        out.append(tuple(b - a for a, b in zip(edges, edges[1:])) or (n,))
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
    scale = float(np.nanmax(np.abs(values.astype(np.complex128)), initial=1.0))
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
    values = _values(rng, shape, dtype)
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
    np.testing.assert_allclose(got, want, atol=atol, rtol=rtol, equal_nan=True)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))  # NaN positions exactly


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


@pytest.fixture(scope="module")
def cluster_client() -> Any:
    distributed = pytest.importorskip("distributed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=None, silence_logs=50)
        client = distributed.Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


def test_reductions_on_a_local_cluster(cluster_client: Any) -> None:
    rng = np.random.default_rng(11)
    values = _values(rng, (40, 30), "f4")
    x = da.from_array(values, chunks=(7, 11))
    for name in NAMES:
        lazy = _call(getattr(nanops, name), x, axis=0)
        got = _call(cluster_client.compute(lazy).result)
        want = _call(getattr(nanops, name), values, axis=0)
        atol, rtol = _tolerance(name, values.dtype, values)
        np.testing.assert_allclose(got, want, atol=atol, rtol=rtol, equal_nan=True)
        assert got.dtype == want.dtype


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
    got = _call(future.result, timeout=120)
    want = _call(nanops.nanvar, values, axis=0, ddof=1)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, equal_nan=True)
    assert not future.status == "error"


# --- moving windows and fills (issue H, part 5) ----------------------------

# the exponential functions have no lazy form (a scan over the whole axis)
MOVING = sorted(n for n in nanops.__all__ if n.startswith("move_") and n != "move_quantile"
                and not n.startswith("move_exp_"))
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
