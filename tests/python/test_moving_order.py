"""Moving order statistics (``move_median``, ``move_quantile``,
``move_rank``): against a slow obvious reference (``np.nanquantile`` /
``np.median`` of each window, all 13 methods, bit for bit; the rank counted
from the window's values), bottleneck (``move_median``, ``move_rank``) and
pandas' rolling quantile (the 5 methods it has), over dtypes, layouts, axes,
windows, ``min_count`` and NaN/inf patterns; ``q`` shapes and the errors.
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

import nanops

METHODS = (
    "inverted_cdf", "averaged_inverted_cdf", "closest_observation",
    "interpolated_inverted_cdf", "hazen", "weibull", "linear", "median_unbiased",
    "normal_unbiased", "lower", "higher", "midpoint", "nearest",
)
PANDAS_METHODS = ("linear", "lower", "higher", "nearest", "midpoint")
LAYOUTS = ("C", "F", "strided", "negative", "transposed", "byteswapped", "unaligned")
DTYPES = ("float64", "float32", "float16", "int64", "int32", "uint8", "bool")


@st.composite
def cases(draw: Any, inf: bool = True) -> tuple[np.ndarray, int, int, int | None]:
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(1, 6), min_size=ndim, max_size=ndim)))
    pool = [float(i) for i in range(-9, 10)] + [0.5, -2.25, 1e-3, math.nan, math.nan]
    if inf:
        pool += [math.inf, -math.inf]
    n = int(np.prod(shape))
    vals = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))
    a = np.array(vals).reshape(shape)
    axis = draw(st.integers(-ndim, ndim - 1))
    window = draw(st.integers(1, shape[axis]))
    min_count = draw(st.none() | st.integers(1, window))
    return a, axis, window, min_count


def as_dtype(a: np.ndarray, dtype: str) -> np.ndarray:
    if np.dtype(dtype).kind in "iub":
        a = np.nan_to_num(a, nan=1.0, posinf=3.0, neginf=-3.0).round()
        if dtype == "uint8":
            a = np.abs(a)
        if dtype == "bool":
            a = a > 0
    return a.astype(dtype)


def result_dtype(dt: np.dtype) -> np.dtype:
    return dt if dt.kind == "f" else np.dtype(np.float64)


def windows(a: np.ndarray, window: int, min_count: int | None, axis: int):
    """Every position's window of valid values (in the result dtype, oldest
    first), its last value and its output index, or None below ``min_count``."""
    m = window if min_count is None else min_count
    x = np.moveaxis(a.astype(result_dtype(a.dtype)), axis, -1)
    for idx in np.ndindex(x.shape[:-1]):
        lane = x[idx]
        for i in range(lane.shape[0]):
            w = lane[max(0, i + 1 - window): i + 1]
            v = w[~np.isnan(w)]
            yield idx + (i,), (v if len(v) >= m else None), w[-1]


def reference(stat: Any, a: np.ndarray, window: int, min_count: int | None,
              axis: int) -> np.ndarray:
    """``stat(valid values, last value)`` of every window (NaN below
    ``min_count``), the input's shape, in the result dtype."""
    out = np.empty(np.moveaxis(a, axis, -1).shape, dtype=result_dtype(a.dtype))
    for pos, v, last in windows(a, window, min_count, axis):
        out[pos] = math.nan if v is None else stat(v, last)
    return np.moveaxis(out, -1, axis)


def median_ref(v: np.ndarray, last: Any) -> Any:
    return np.median(v)  # NumPy's median of the valid values (nanmedian's)


def rank_ref(v: np.ndarray, last: Any) -> float:
    """bottleneck's definition, counted from the values."""
    x = float(last)
    if math.isnan(x):
        return math.nan
    n = len(v)
    if n == 1:
        return 0.0
    g = 2.0 * sum(1 for y in v if float(y) < x)
    e = float(sum(1 for y in v if float(y) == x))
    return 2.0 * (0.5 * (g + e - 1.0) / (n - 1.0) - 0.5)


def quantile_ref(q: float, method: str) -> Any:
    return lambda v, last: np.nanquantile(v, q, method=method)


def assert_same(got: np.ndarray, want: np.ndarray) -> None:
    """Equal values bit for bit, NaN equal to NaN, the same dtype."""
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_array_equal(got, want, strict=True)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(), st.sampled_from(DTYPES), st.sampled_from(LAYOUTS),
       st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.6, 0.75, 0.9, 1.0]))
def test_against_the_slow_reference(case: Any, dtype: str, layout: str, q: float) -> None:
    a, axis, window, min_count = case
    a = as_dtype(a, dtype)
    view, owner = make_layout(a, layout)
    before = owner.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # inf - inf in the references
        for method in METHODS:
            got = nanops.move_quantile(view, window, q, min_count, axis, method)
            assert_same(got, reference(quantile_ref(q, method), a, window, min_count, axis))
        assert_same(nanops.move_median(view, window, min_count, axis),
                    reference(median_ref, a, window, min_count, axis))
        got = nanops.move_rank(view, window, min_count=min_count, axis=axis)
        want = reference(rank_ref, a, window, min_count, axis)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=0, atol=0, equal_nan=True)
    np.testing.assert_array_equal(owner, before)  # the input is never modified


@settings(max_examples=120, deadline=None)
@given(cases(inf=False), st.sampled_from(("float64", "float32", "int64", "int32")),
       st.sampled_from(("C", "F", "negative")))
def test_against_bottleneck(case: Any, dtype: str, layout: str) -> None:
    a, axis, window, min_count = case
    a = as_dtype(a, dtype)
    view, _ = make_layout(a, layout)
    for name in ("move_median", "move_rank"):
        got = getattr(nanops, name)(view, window, min_count=min_count, axis=axis)
        want = getattr(bn, name)(view, window, min_count=min_count, axis=axis)
        assert got.dtype == want.dtype, name
        np.testing.assert_allclose(got, want, rtol=1e-6 if dtype == "float32" else 1e-12,
                                   atol=0, equal_nan=True)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from([1.0, -2.0, 3.5, 7.0, 0.25, 1e3, math.nan]),
                min_size=1, max_size=40),
       st.data())
def test_against_pandas_rolling_quantile(vals: list[float], data: Any) -> None:
    a = np.array(vals)
    window = data.draw(st.integers(1, len(a)))
    min_count = data.draw(st.none() | st.integers(1, window))
    q = data.draw(st.sampled_from([0.0, 0.2, 0.25, 0.5, 0.7, 1.0]))
    r = pd.Series(a).rolling(window, min_periods=window if min_count is None else min_count)
    for method in PANDAS_METHODS:
        want = r.quantile(q, interpolation=method).to_numpy()
        got = nanops.move_quantile(a, window, q, min_count, method=method)
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, equal_nan=True)
    np.testing.assert_allclose(nanops.move_median(a, window, min_count), r.median().to_numpy(),
                               rtol=1e-12, atol=1e-12, equal_nan=True)


def test_pandas_frame_along_axis_0_and_q_arrays() -> None:
    rng = np.random.default_rng(3)
    a = rng.normal(size=(300, 7))
    a[rng.random(a.shape) < 0.2] = np.nan
    r = pd.DataFrame(a).rolling(25, min_periods=5)
    qs = [0.1, 0.5, 0.95]
    got = nanops.move_quantile(a, 25, qs, 5, 0)
    assert got.shape == (3, 300, 7)
    for k, q in enumerate(qs):
        np.testing.assert_allclose(got[k], r.quantile(q).to_numpy(), rtol=1e-12, atol=1e-12)
        np.testing.assert_array_equal(got[k], nanops.move_quantile(a, 25, q, 5, 0))
    assert nanops.move_quantile(a, 25, np.array([]), 5, 0).shape == (0, 300, 7)
    assert nanops.move_quantile(a, 25, np.float32(0.5), 5, 0).shape == (300, 7)


def test_long_lanes_threads_and_tiles_match_bottleneck() -> None:
    """Long lanes (cut over threads), axis 0 of a C array (transposed
    tiles), windows up to 2000: bottleneck's median and rank."""
    rng = np.random.default_rng(5)
    a = rng.integers(-500, 500, size=(40, 20_000)).astype(np.float64)
    a[rng.random(a.shape) < 0.1] = np.nan
    for window in (3, 150, 2000):
        for name in ("move_median", "move_rank"):
            want = getattr(bn, name)(a, window, min_count=1)
            np.testing.assert_allclose(getattr(nanops, name)(a, window, 1), want,
                                       rtol=1e-12, equal_nan=True)
            np.testing.assert_array_equal(getattr(nanops, name)(a.T, window, 1, axis=0), want.T)
    flat = a.ravel()
    np.testing.assert_array_equal(nanops.move_median(flat, 999, 1), bn.move_median(flat, 999, 1))


def test_signed_zeros_and_infinities() -> None:
    a = np.array([4.0, -0.0, 0.0, np.inf, -np.inf, np.inf, 1.0])
    np.testing.assert_array_equal(nanops.move_rank(a, 3, 1), bn.move_rank(a, 3, 1))
    med = nanops.move_median(a, 2, 1)
    np.testing.assert_array_equal(med, [4.0, 2.0, 0.0, np.inf, np.nan, np.nan, np.inf])
    q = nanops.move_quantile(a, 2, 1.0, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # inf - inf
        want = [np.nanquantile(a[max(0, i - 1): i + 1], 1.0) for i in range(len(a))]
    np.testing.assert_array_equal(q, want)


@pytest.mark.parametrize(
    "call_",
    [
        lambda f: f(np.ones(5), 0),
        lambda f: f(np.ones(5), 6),
        lambda f: f(np.ones(5), 3, min_count=4),
        lambda f: f(np.ones(5), 3, min_count=0),
        lambda f: f(np.ones(5), 2.5),
        lambda f: f(np.float64(3.0), 1),
    ],
)
def test_errors_are_bottlenecks(call_: Any) -> None:
    for name in ("move_median", "move_rank"):
        with pytest.raises(Exception) as theirs:
            call_(getattr(bn, name))
        with pytest.raises(type(theirs.value)) as ours:
            call_(getattr(nanops, name))
        assert str(ours.value) == str(theirs.value)
    with pytest.raises(Exception) as theirs:
        call_(lambda a, w, **kw: bn.move_median(a, w, **kw))
    with pytest.raises(type(theirs.value)):
        call_(lambda a, w, **kw: nanops.move_quantile(a, w, 0.5, **kw))


def test_quantile_errors_are_numpys() -> None:
    a = np.ones(5)
    for q in (-0.1, 1.5, np.nan, [0.5, 2.0]):
        with pytest.raises(ValueError, match=r"Quantiles must be in the range \[0, 1\]"):
            nanops.move_quantile(a, 2, q)
    with pytest.raises(ValueError, match="q must be a scalar or 1d"):
        nanops.move_quantile(a, 2, [[0.5]])
    with pytest.raises(ValueError, match="is not a valid method"):
        nanops.move_quantile(a, 2, 0.5, method="foo")
    with pytest.raises(ValueError, match="is not a valid method"):
        nanops.move_quantile(a, 2, 0.5, method=None)
    with pytest.raises(TypeError):
        nanops.move_median(np.ones(3, complex), 2)
    for q in ("0.5", ["0.5"]):  # strings: NumPy's quantile raises TypeError
        with pytest.raises(TypeError):
            np.nanquantile(a, q)
        with pytest.raises(TypeError, match="q must be real numbers"):
            nanops.move_quantile(a, 2, q)
