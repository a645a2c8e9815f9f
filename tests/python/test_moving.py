"""Moving windows and fills: against bottleneck (its ``move_*`` and
``push``), pandas ``rolling``/``ffill``/``bfill`` and a slow obvious
reference (each window's values taken one by one), over dtypes, layouts,
axes, windows, ``min_count`` and NaN/inf patterns; the float32 drift
criterion against ``math.fsum`` windows; bottleneck's errors.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import bottleneck as bn
import numpy as np
import pandas as pd
import pytest
from _support import make_layout
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.exceptions import AxisError

import nanops

STATS = ("sum", "mean", "var", "std", "min", "max", "argmin", "argmax", "count")
LAYOUTS = ("C", "F", "strided", "negative", "transposed", "byteswapped", "unaligned")
DTYPES = ("float64", "float32", "float16", "int64", "int32", "uint8", "bool")


def _window_ref(stat: str, w: np.ndarray, min_count: int, ddof: int) -> float:
    """``stat`` of one window (oldest value first), from its values."""
    v = [float(x) for x in w if not math.isnan(float(x))]
    n = len(v)
    if n < min_count:
        return math.nan
    if stat == "count":
        return float(n)
    if stat in ("sum", "mean"):
        pos = any(x == math.inf for x in v)
        neg = any(x == -math.inf for x in v)
        s = math.nan if pos and neg else math.inf if pos else -math.inf if neg else math.fsum(v)
        return s if stat == "sum" else s / n
    if stat in ("var", "std"):
        if any(math.isinf(x) for x in v) or n - ddof <= 0:
            return math.nan
        m = math.fsum(v) / n
        var = math.fsum((x - m) ** 2 for x in v) / (n - ddof)
        return var if stat == "var" else math.sqrt(var)
    if stat in ("min", "max"):
        return min(v) if stat == "min" else max(v)
    # argmin / argmax: distance back from the window's end, newest of ties
    best: tuple[int, float] | None = None
    for j in range(len(w) - 1, -1, -1):
        x = float(w[j])
        if math.isnan(x):
            continue
        if best is None or (x < best[1] if stat == "argmin" else x > best[1]):
            best = (len(w) - 1 - j, x)
    assert best is not None
    return float(best[0])


def reference(stat: str, a: np.ndarray, window: int, min_count: int | None,
              axis: int, ddof: int = 0) -> np.ndarray:
    """The slow obvious result, in float64."""
    m = window if min_count is None else min_count
    x = np.moveaxis(np.asarray(a, dtype=np.float64), axis, -1)
    out = np.empty(x.shape)
    for idx in np.ndindex(x.shape[:-1]):
        lane = x[idx]
        for i in range(lane.shape[0]):
            out[idx + (i,)] = _window_ref(stat, lane[max(0, i + 1 - window): i + 1], m, ddof)
    return np.moveaxis(out, -1, axis)


def call(stat: str, a: Any, window: int, min_count: int | None, axis: int,
         ddof: int = 0) -> np.ndarray:
    f = getattr(nanops, f"move_{stat}")
    if stat in ("var", "std"):
        return f(a, window, min_count, axis, ddof)
    return f(a, window, min_count=min_count, axis=axis)


def result_dtype(dt: np.dtype) -> np.dtype:
    return dt if dt.kind == "f" else np.dtype(np.float64)


def assert_close(got: np.ndarray, want: np.ndarray, rtol: float, atol: float = 0.0) -> None:
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=rtol, atol=atol, equal_nan=True)


def tolerance(dtype: np.dtype, stat: str) -> float:
    eps = float(np.finfo(result_dtype(dtype)).eps)
    return 2 * eps if stat not in ("var", "std") else 8 * eps


@st.composite
def cases(draw: Any, inf: bool = True) -> tuple[np.ndarray, int, int, int | None]:
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(1, 6), min_size=ndim, max_size=ndim)))
    pool = [float(i) for i in range(-9, 10)] + [0.5, -2.25, math.nan, math.nan]
    if inf:
        pool += [math.inf, -math.inf]
    n = int(np.prod(shape))
    vals = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))
    a = np.array(vals).reshape(shape)
    axis = draw(st.integers(-ndim, ndim - 1))
    length = shape[axis]
    window = draw(st.integers(1, length))
    min_count = draw(st.none() | st.integers(1, window))
    return a, axis, window, min_count


def as_dtype(a: np.ndarray, dtype: str) -> np.ndarray:
    if np.dtype(dtype).kind in "iub":
        a = np.nan_to_num(a, nan=1.0, posinf=3.0, neginf=-3.0)
        if dtype == "uint8":
            a = np.abs(a)
        if dtype == "bool":
            a = a > 0
    return a.astype(dtype)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(), st.sampled_from(DTYPES), st.sampled_from(LAYOUTS), st.integers(0, 2))
def test_against_the_slow_reference(case: Any, dtype: str, layout: str, ddof: int) -> None:
    a, axis, window, min_count = case
    a = as_dtype(a, dtype)
    view, owner = make_layout(a, layout)
    before = owner.copy()
    for stat in STATS:
        got = call(stat, view, window, min_count, axis, ddof)
        assert got.shape == a.shape
        assert got.dtype == result_dtype(a.dtype), (stat, got.dtype)
        want = reference(stat, a, window, min_count, axis, ddof)
        assert_close(got, want, rtol=tolerance(a.dtype, stat), atol=1e-12)
    np.testing.assert_array_equal(owner, before)  # the input is never modified


@settings(max_examples=150, deadline=None)
@given(cases(inf=False), st.sampled_from(("float64", "float32", "int64", "int32")),
       st.sampled_from(("C", "F", "negative")))
def test_against_bottleneck(case: Any, dtype: str, layout: str) -> None:
    # no infinities: bottleneck's running sums turn an infinity leaving the
    # window into NaN (nanops counts infinities apart)
    a, axis, window, min_count = case
    a = as_dtype(a, dtype)
    view, _ = make_layout(a, layout)
    for stat in STATS:
        if stat == "count":
            continue  # bottleneck has no move_count
        got = call(stat, view, window, min_count, axis)
        want = getattr(bn, f"move_{stat}")(view, window, min_count=min_count, axis=axis)
        assert got.dtype == want.dtype, stat
        if stat == "std":
            # compared as variances: the root magnifies bottleneck's float32
            # rounding near zero (its std of [-9, -9, -9] after a -7 is
            # 5.6e-4, the root of a 3e-7 residue; nanops' is 0, as the
            # slow reference's above)
            got, want = got.astype(np.float64) ** 2, want.astype(np.float64) ** 2
        assert_close(got, want, rtol=1e-5 if dtype == "float32" else 1e-9, atol=1e-5)
    count = nanops.move_count(view, window, 1, axis)
    for ddof in (1, 2):
        for stat in ("var", "std"):
            got = call(stat, view, window, min_count, axis, ddof)
            want = getattr(bn, f"move_{stat}")(view, window, min_count=min_count, axis=axis, ddof=ddof)
            # where count <= ddof bottleneck divides by zero or a negative
            # number (inf, -0.0); nanops gives NaN, as pandas
            want = np.where(count <= ddof, np.nan, want)
            if stat == "std":  # as variances (above)
                got, want = got.astype(np.float64) ** 2, want.astype(np.float64) ** 2
            assert_close(got, want, rtol=1e-5 if dtype == "float32" else 1e-9, atol=1e-5)
    n = None if min_count is None else min_count - 1
    np.testing.assert_array_equal(nanops.push(view, n, axis), bn.push(view, n, axis))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from([1.0, -2.0, 3.5, 7.0, 0.25, math.nan]), min_size=1, max_size=40),
       st.data())
def test_against_pandas_rolling(vals: list[float], data: Any) -> None:
    a = np.array(vals)
    window = data.draw(st.integers(1, len(a)))
    min_count = data.draw(st.none() | st.integers(1, window))
    m = window if min_count is None else min_count
    r = pd.Series(a).rolling(window, min_periods=m)
    for stat, want in [
        ("sum", r.sum()), ("mean", r.mean()), ("min", r.min()), ("max", r.max()),
        ("count", pandas_count(r, m)),
    ]:
        assert_close(call(stat, a, window, min_count, 0), want.to_numpy(), rtol=1e-12, atol=1e-12)
    for ddof in (0, 1):
        for stat, want in [("var", r.var(ddof=ddof)), ("std", r.std(ddof=ddof))]:
            assert_close(call(stat, a, window, min_count, 0, ddof), want.to_numpy(),
                         rtol=1e-9, atol=1e-7)
    limit = data.draw(st.none() | st.integers(1, 5))
    s = pd.Series(a)
    np.testing.assert_array_equal(nanops.ffill(a, limit=limit), s.ffill(limit=limit).to_numpy())
    np.testing.assert_array_equal(nanops.bfill(a, limit=limit), s.bfill(limit=limit).to_numpy())


def pandas_count(r: Any, min_count: int) -> Any:
    """pandas' ``rolling().count()`` gives NaN only where fewer than
    ``min_periods`` *positions* are in the window; nanops' ``move_count``,
    as every ``move_*``, where fewer than ``min_count`` non-NaN values."""
    c = r.count()
    return c.where(c >= min_count)


def test_pandas_frame_along_axis_0() -> None:
    rng = np.random.default_rng(3)
    a = rng.normal(size=(300, 7))
    a[rng.random(a.shape) < 0.2] = np.nan
    r = pd.DataFrame(a).rolling(25, min_periods=5)
    for stat in ("sum", "mean", "min", "max"):
        assert_close(call(stat, a, 25, 5, 0), getattr(r, stat)().to_numpy(), rtol=1e-12, atol=1e-12)
    assert_close(call("count", a, 25, 5, 0), pandas_count(r, 5).to_numpy(), rtol=0)
    assert_close(nanops.move_std(a, 25, 5, 0, ddof=1), r.std().to_numpy(), rtol=1e-9)


def test_wide_arrays_tiles_and_threads_match_the_reference() -> None:
    """Axis 0 of C arrays wider than a tile and large enough for threads."""
    rng = np.random.default_rng(5)
    a = rng.integers(-50, 50, size=(400, 700)).astype(np.float64)
    a[rng.random(a.shape) < 0.1] = np.nan
    for stat in ("sum", "var", "max", "argmin"):
        want = reference(stat, a[:, :40], 9, 4, 0)
        for axis_view, sl in ((a, np.s_[:, :40]), (np.asfortranarray(a), np.s_[:, :40])):
            got = call(stat, axis_view, 9, 4, 0)
            assert_close(got[sl], want, rtol=1e-12, atol=1e-12)
        np.testing.assert_array_equal(call(stat, a, 9, 4, 0), call(stat, a.T, 9, 4, 1).T)


def test_float32_move_mean_does_not_drift() -> None:
    """10M float32 values, 10% NaN: every sampled position within 2 eps of
    the exact mean of its window (``math.fsum`` over the window)."""
    rng = np.random.default_rng(11)
    n, window = 10_000_000, 1000
    a = (rng.normal(size=n) * 100 + 1000).astype(np.float32)
    a[rng.random(n) < 0.1] = np.nan
    got = nanops.move_mean(a, window, min_count=1)
    assert got.dtype == np.float32
    eps = float(np.finfo(np.float32).eps)
    positions = np.concatenate([np.arange(0, 2000), rng.integers(0, n, 3000), np.arange(n - 2000, n)])
    worst = 0.0
    for i in positions:
        w = a[max(0, i + 1 - window): i + 1].astype(np.float64)
        v = w[~np.isnan(w)]
        exact = math.fsum(v.tolist()) / len(v)
        worst = max(worst, abs(float(got[i]) - exact) / abs(exact))
    assert worst <= 2 * eps, worst
    # bottleneck's naive float32 running sum, for contrast, drifts
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        drift = np.nanmax(np.abs(bn.move_mean(a, window, 1)[positions].astype(np.float64)
                                 - got[positions].astype(np.float64)))
    assert drift >= 0.0


@pytest.mark.parametrize(
    "call_",
    [
        lambda f: f(np.ones(5), 0),
        lambda f: f(np.ones(5), 6),
        lambda f: f(np.ones(5), 3, min_count=4),
        lambda f: f(np.ones(5), 3, min_count=0),
        lambda f: f(np.ones(5), 3, axis=2),
        lambda f: f(np.ones(5), 2.5),
        lambda f: f(np.float64(3.0), 1),
    ],
)
def test_errors_are_bottlenecks(call_: Any) -> None:
    for name in ("move_mean", "move_max", "move_std"):
        with pytest.raises(Exception) as theirs:
            call_(getattr(bn, name))
        with pytest.raises(type(theirs.value)) as ours:
            call_(getattr(nanops, name))
        if not isinstance(theirs.value, (AxisError,)) and "axis" not in str(theirs.value):
            assert str(ours.value) == str(theirs.value)


def test_limits_beyond_64_bits_are_errors_that_name_the_argument() -> None:
    a = np.array([1.0, np.nan, np.nan, 4.0])
    with pytest.raises(OverflowError, match="`n`"):
        nanops.push(a, 2**64)
    for name in ("ffill", "bfill"):
        with pytest.raises(OverflowError, match="`limit`"):
            getattr(nanops, name)(a, limit=2**64)
        # the largest limit taken fills as far as no limit
        np.testing.assert_array_equal(getattr(nanops, name)(a, limit=2**64 - 1),
                                      getattr(nanops, name)(a))


def test_fill_errors_and_dtypes() -> None:
    with pytest.raises(ValueError, match="nonnegative"):
        nanops.push(np.ones(3), -1)
    with pytest.raises(ValueError, match="greater than 0"):
        nanops.ffill(np.ones(3), limit=0)
    with pytest.raises(TypeError):
        nanops.move_mean(np.ones(3, complex), 2)
    ints = np.arange(6).reshape(2, 3)
    assert nanops.ffill(ints).dtype == ints.dtype
    np.testing.assert_array_equal(nanops.bfill(ints, axis=0), ints)
    c = np.array([np.nan, 1 + 2j, np.nan])
    np.testing.assert_array_equal(nanops.ffill(c), [np.nan, 1 + 2j, 1 + 2j])
    h = np.array([1, np.nan, 3], np.float16)
    assert nanops.move_sum(h, 2, 1).dtype == np.float16
