"""Moving sums, means and variances under extremes (issue Q): a lone
outlier, values whose sum or square overflows, magnitudes from 1e-300 to
1e300 mixed in one lane. Each window's result is checked against the exact
value of that window's own values (``fractions.Fraction``), so a result
that still carries a value that left the window fails.

The tolerance is the arithmetic's own bound: sums and means carry a
compensated (double-length) sum, so they are the exact value correctly
rounded up to ``eps² · Σ|x|`` of the window; variances follow Welford and
Chan, whose error grows with the window's condition ``1 + mean² / var``,
and which below the normal range round to whole subnormal units.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dask.array as da
import nanops
import nanops.dask

EPS = float(np.finfo(np.float64).eps)


def exact_window(stat: str, w: np.ndarray, min_count: int, ddof: int = 0) -> tuple[float, float]:
    """``stat`` of one window, exactly then rounded, and the tolerance the
    arithmetic allows for it (see the module's notes)."""
    v = [float(x) for x in w if not math.isnan(float(x))]
    n = len(v)
    if n < min_count:
        return math.nan, 0.0
    if any(math.isinf(x) for x in v):
        pos = any(x == math.inf for x in v)
        neg = any(x == -math.inf for x in v)
        if stat in ("var", "std") or (pos and neg):
            return math.nan, 0.0
        return (math.inf if pos else -math.inf), 0.0
    fr = [Fraction(x) for x in v]
    total = sum(fr, Fraction(0))
    abs_total = _float(sum((abs(f) for f in fr), Fraction(0)))
    if stat in ("sum", "mean"):
        exact = total if stat == "sum" else total / n
        scale = abs_total if stat == "sum" else abs_total / n
        tol = 2 * EPS * abs(_float(exact)) + 8 * len(v) * EPS * EPS * scale
        return _float(exact), tol
    if n - ddof <= 0:
        return math.nan, 0.0
    mean = total / n
    var = sum(((f - mean) ** 2 for f in fr), Fraction(0)) / (n - ddof)
    var_f = _float(var)
    m = _float(mean)
    cond = 1.0 + (m * m / var_f if var_f > 0 else 0.0) if math.isfinite(var_f) else 1.0
    # plus an absolute bound: a square of deviations below the normal range
    # rounds to a whole subnormal unit (``math.ulp(0.0)``), whatever its size
    tol = 64 * n * EPS * abs(var_f) * min(cond, 1e300) + 4 * n * math.ulp(0.0)
    if stat == "std":
        # the root of a variance beyond the range (scaled by 4**128) may be in it
        std = math.sqrt(var_f) if math.isfinite(var_f) else _sqrt_beyond(var)
        return std, (tol / 2 / std if std and math.isfinite(tol) else 64 * n * EPS * std)
    return var_f, tol


def _sqrt_beyond(v: Fraction) -> float:
    """The square root of a positive ``v`` beyond the range of a float."""
    k = (v.numerator.bit_length() - v.denominator.bit_length()) // 2
    try:
        return math.ldexp(math.sqrt(float(v / 4**k)), k)
    except OverflowError:
        return math.inf


def _float(f: Fraction) -> float:
    try:
        return float(f)
    except OverflowError:
        return math.inf if f > 0 else -math.inf


def check(stat: str, a: np.ndarray, window: int, min_count: int | None = None,
          ddof: int = 0) -> None:
    f = getattr(nanops, f"move_{stat}")
    got = f(a, window, min_count, ddof=ddof) if stat in ("var", "std") else f(
        a, window, min_count=min_count)
    m = window if min_count is None else min_count
    for i in range(a.shape[0]):
        want, tol = exact_window(stat, a[max(0, i + 1 - window): i + 1], m, ddof)
        g = float(got[i])
        if math.isnan(want) or math.isinf(want):
            assert g == want or (math.isnan(g) and math.isnan(want)), (stat, i, g, want)
        else:
            assert abs(g - want) <= tol, (stat, i, g, want, tol)


def test_the_issue_reproducers() -> None:
    std = nanops.move_std(np.array([1e8, .1, .2, .3]), 3)[-1]
    assert abs(std - np.std([.1, .2, .3])) <= 4 * EPS * std
    np.testing.assert_array_equal(nanops.move_var(np.array([1e155, 1, 2, 3]), 2),
                                  [np.nan, np.inf, .25, .25])
    np.testing.assert_array_equal(nanops.move_sum(np.array([1.7e308, 1.7e308, 1, 2, 3]), 2),
                                  [np.nan, np.inf, 1.7e308, 3, 5])
    np.testing.assert_array_equal(nanops.move_mean(np.array([1.7e308, 1.7e308, 1, 2, 3]), 2),
                                  [np.nan, 1.7e308, 8.5e307, 1.5, 2.5])


def test_one_outlier_leaves_no_trace() -> None:
    """One 1e6 outlier in 5,000 N(0,1) values: every later window as exact
    as if it had never been there (pandas: 1e-12)."""
    rng = np.random.default_rng(3)
    a = rng.normal(size=5000)
    a[100] = 1e6
    for stat in ("var", "std", "sum", "mean"):
        got = getattr(nanops, f"move_{stat}")(a, 5)
        clean = getattr(nanops, f"move_{stat}")(a[105:], 5)
        np.testing.assert_allclose(got[109:], clean[4:], rtol=1e-13, atol=1e-13)
    check("var", a[:400], 5)


@st.composite
def extreme_lanes(draw: Any) -> tuple[np.ndarray, int, int | None]:
    """Lanes mixing magnitudes 1e-300 … 1e300, lone 1e8 outliers in unit
    data, values whose sum or square overflows, NaN and infinities."""
    kind = draw(st.sampled_from(("magnitudes", "outlier", "overflow")))
    n = draw(st.integers(1, 40))
    if kind == "magnitudes":
        exps = draw(st.lists(st.integers(-300, 300), min_size=n, max_size=n))
        signs = draw(st.lists(st.sampled_from((-1.0, 1.0)), min_size=n, max_size=n))
        vals = [s * 1.5 * 10.0 ** e for s, e in zip(signs, exps)]
    elif kind == "outlier":
        vals = draw(st.lists(st.floats(-3, 3, allow_nan=False), min_size=n, max_size=n))
        for i in draw(st.lists(st.integers(0, n - 1), max_size=2)):
            vals[i] = draw(st.sampled_from((1e8, -1e8, 1e16)))
    else:
        vals = draw(st.lists(st.sampled_from((1.7e308, -1.7e308, 1e155, -1e155, 1.0, 2.5, -3.0)),
                             min_size=n, max_size=n))
    for i in draw(st.lists(st.integers(0, n - 1), max_size=3)):
        vals[i] = draw(st.sampled_from((math.nan, math.inf, -math.inf)))
    window = draw(st.integers(1, n))
    min_count = draw(st.none() | st.integers(1, window))
    return np.array(vals), window, min_count


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(extreme_lanes(), st.sampled_from(("sum", "mean", "var", "std")), st.integers(0, 1))
def test_each_window_is_its_own_values_exactly(case: Any, stat: str, ddof: int) -> None:
    a, window, min_count = case
    check(stat, a, window, min_count, ddof)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(extreme_lanes(), st.sampled_from(("sum", "mean", "var", "std")), st.data())
def test_layouts_threads_and_chunks_give_the_same_bits(case: Any, stat: str, data: Any) -> None:
    """A lane alone, along either axis of a 2-d array, reversed, and cut
    into dask chunks of any size: the same window, the same bits."""
    a, window, min_count = case
    f = getattr(nanops, f"move_{stat}")
    one = f(a, window, min_count=min_count)
    wide = np.stack([a] * 3)
    np.testing.assert_array_equal(f(wide, window, min_count=min_count, axis=1)[1], one)
    np.testing.assert_array_equal(f(np.ascontiguousarray(wide.T), window, min_count=min_count,
                                    axis=0)[:, 2], one)
    chunk = data.draw(st.integers(1, max(1, a.shape[0])))
    lazy = nanops.dask.moving(f"move_{stat}", da.from_array(a, chunks=chunk), window,
                              min_count=min_count)
    np.testing.assert_array_equal(lazy.compute(scheduler="sync"), one)


@pytest.mark.parametrize("stat", ["sum", "mean", "var", "std"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_distinct_lanes_side_by_side_give_each_lanes_bits(stat: str, dtype: str) -> None:
    """Different lanes computed side by side (along axis 0 in tiles of rows,
    along axis 1 in transposed groups): each lane's results are those of the
    lane alone, bit for bit, past tile and group edges, with NaN gaps,
    infinities, lone outliers and windows that overflow."""
    rng = np.random.default_rng(21)
    f = getattr(nanops, f"move_{stat}")
    kw: dict[str, Any] = {"ddof": 1} if stat in ("var", "std") else {}
    for lanes, n, window in [(37, 300, 7), (300, 90, 30), (5, 2000, 100), (20, 50, 1)]:
        a = rng.normal(size=(lanes, n)) * 10.0 ** rng.integers(-3, 4, size=(lanes, 1))
        a[rng.random(a.shape) < 0.1] = np.nan
        a[rng.random(a.shape) < 0.003] = np.inf
        a[rng.random(a.shape) < 0.003] = 1e8
        if dtype == "float64":
            a[rng.random(a.shape) < 0.002] = 1.7e308
        a = a.astype(dtype)
        mc = min(2, window)
        want = np.stack([f(lane, window, min_count=mc, **kw) for lane in a])
        np.testing.assert_array_equal(f(a, window, min_count=mc, axis=1, **kw), want)
        np.testing.assert_array_equal(
            f(np.ascontiguousarray(a.T), window, min_count=mc, axis=0, **kw), want.T)


def test_long_lanes_cut_over_threads_match_one_piece() -> None:
    """A lane long enough to be cut into parts on threads: the parts give
    the bits of the lane in one piece (its first window of each part is
    computed from that window's values as every other)."""
    rng = np.random.default_rng(9)
    a = rng.normal(size=600_000)
    a[rng.integers(0, a.size, 50)] = 1e12
    a[rng.random(a.size) < 0.05] = np.nan
    for stat in ("sum", "var"):
        f = getattr(nanops, f"move_{stat}")
        whole = f(a, 777, min_count=1)
        nanops.set_num_threads(1) if hasattr(nanops, "set_num_threads") else None
        np.testing.assert_array_equal(f(a, 777, min_count=1), whole)
        check(stat, a[:3000], 777, 1)


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_narrow_floats_round_the_exact_window(dtype: str) -> None:
    a = np.array([6e4, 1, 2, 3, -6e4, 4, 5], dtype=dtype)
    got = nanops.move_sum(a, 3)
    want = [np.nan, np.nan] + [float(sum(Fraction(float(x)) for x in a[i - 2: i + 1]))
                               for i in range(2, a.size)]
    np.testing.assert_array_equal(got, np.array(want).astype(dtype))
