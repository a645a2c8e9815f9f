"""The functions of two series: ``move_cov``, ``move_corr`` (against an exact
reference in fractions, numbagg and pandas' ``rolling().cov/corr``) and
``move_exp_nancov``, ``move_exp_nancorr`` (numbagg's bits, and its documented
recurrence as a plain loop); over dtypes, layouts, axes, windows,
``min_count``, broadcasting, NaN/inf patterns and outliers; numbagg's errors.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd
import pytest
from _support import make_layout, same_bits, snapshot, sqrt_fraction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nanops

numbagg = pytest.importorskip("numbagg")

EPS = Fraction(1, 2**53)
LAYOUTS = ("C", "F", "strided", "negative", "transposed", "byteswapped", "unaligned", "readonly")
DTYPES = ("float64", "float32", "float16", "int64", "int32", "uint8", "bool")


def exact_window(xs: list[float], ys: list[float], corr: bool, min_pairs: int) -> tuple[
        Fraction | None, Fraction]:
    """The exact covariance (or correlation) of the pairs both not NaN, and a
    bound on the error a float64 computation by Welford's co-moments may
    make; ``None`` where the function gives NaN."""
    valid = [(x, y) for x, y in zip(xs, ys) if not (math.isnan(x) or math.isnan(y))]
    n = len(valid)
    if n < min_pairs or any(math.isinf(x) or math.isinf(y) for x, y in valid):
        return None, Fraction(0)
    pairs = [(Fraction(x), Fraction(y)) for x, y in valid]
    mx = sum(p[0] for p in pairs) / n
    my = sum(p[1] for p in pairs) / n
    dx = [p[0] - mx for p in pairs]
    dy = [p[1] - my for p in pairs]
    c = sum(a * b for a, b in zip(dx, dy))
    spread = sum(abs(a) * abs(b) for a, b in zip(dx, dy)) + abs(c)
    if not corr:
        return c / (n - 1), 16 * (n + 2) * EPS * spread / (n - 1)
    vx = sum(a * a for a in dx)
    vy = sum(b * b for b in dy)
    if vx * vy == 0:
        return None, Fraction(0)
    root = sqrt_fraction(vx * vy)
    return c / root, 16 * (n + 2) * EPS * (1 + spread / root)


def reference(x: np.ndarray, y: np.ndarray, window: int, min_count: int | None, corr: bool,
              axis: int) -> tuple[list[Any], list[Fraction]]:
    """:func:`exact_window` at every position, lanes along ``axis`` in C
    order of the other axes (values and bounds, flat)."""
    xm = np.moveaxis(x.astype(np.float64), axis, -1)
    ym = np.moveaxis(y.astype(np.float64), axis, -1)
    m = window if min_count is None else max(min_count, 1)
    m = max(m, 1 if corr else 2)
    values, bounds = [], []
    for idx in np.ndindex(*xm.shape[:-1]):
        xs, ys = xm[idx].tolist(), ym[idx].tolist()
        for i in range(len(xs)):
            lo = max(0, i + 1 - window)
            v, b = exact_window(xs[lo:i + 1], ys[lo:i + 1], corr, m)
            values.append(v)
            bounds.append(b)
    return values, bounds


def check_exact(got: np.ndarray, x: np.ndarray, y: np.ndarray, window: int,
                min_count: int | None, corr: bool, axis: int) -> None:
    values, bounds = reference(x, y, window, min_count, corr, axis)
    flat = np.moveaxis(got, axis, -1).reshape(-1)
    rounding = Fraction(1, 2**(np.finfo(got.dtype).nmant + 1))
    for k, (g, v, b) in enumerate(zip(flat.tolist(), values, bounds)):
        if v is None:
            assert math.isnan(g), (k, g)
            continue
        assert not math.isnan(g), (k, v)
        tol = b * (1 + rounding) + abs(v) * rounding + Fraction(1, 2**1000)
        assert abs(Fraction(g) - v) <= tol, (k, g, float(v), float(tol))


@st.composite
def pair_cases(draw: Any) -> tuple[np.ndarray, np.ndarray, int, int | None, int]:
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(1, 9), min_size=ndim, max_size=ndim)))
    axis = draw(st.integers(-ndim, ndim - 1))
    n = shape[axis]
    window = draw(st.integers(1, n))
    min_count = draw(st.one_of(st.none(), st.integers(0, window)))
    size = int(np.prod(shape))
    nan = draw(st.sampled_from([0.0, 0.2, 0.6]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    scale = draw(st.sampled_from([1.0, 1e-3, 1e6]))
    offset = draw(st.sampled_from([0.0, 1e3, -1e8]))
    x = (rng.integers(-50, 50, size) * scale + offset).reshape(shape)
    y = (rng.standard_normal(size) * scale).reshape(shape)
    x[rng.random(shape) < nan] = np.nan
    y[rng.random(shape) < nan / 2] = np.nan
    return x, y, window, min_count, axis


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pair_cases(), st.sampled_from(["move_cov", "move_corr"]),
       st.sampled_from(LAYOUTS), st.sampled_from(LAYOUTS))
def test_every_window_matches_exact_fractions(case: Any, name: str, la: str, lb: str) -> None:
    x, y, window, min_count, axis = case
    a, owner_a = make_layout(x, la)
    b, owner_b = make_layout(y, lb)
    before = snapshot(owner_a), snapshot(owner_b)
    got = getattr(nanops, name)(a, b, window, min_count, axis)
    assert (snapshot(owner_a), snapshot(owner_b)) == before
    assert got.dtype == np.float64 and got.shape == x.shape and got.flags.c_contiguous
    check_exact(got, x, y, window, min_count, name == "move_corr", axis % x.ndim)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ["move_cov", "move_corr"])
def test_dtypes_keep_their_float_and_integers_give_float64(dtype: str, name: str) -> None:
    rng = np.random.default_rng(3)
    x = rng.integers(0, 2 if dtype == "bool" else 9, (4, 13)).astype(dtype)
    y = rng.integers(0, 2 if dtype == "bool" else 9, (4, 13)).astype(dtype)
    if x.dtype.kind == "f":
        x[0, 3] = np.nan
    got = getattr(nanops, name)(x, y, 5, min_count=2)
    want = np.float64 if x.dtype.kind in "biu" else x.dtype
    assert got.dtype == want
    if x.dtype.kind == "f" and x.dtype != np.float64:
        wide = getattr(nanops, name)(x.astype(np.float64), y.astype(np.float64), 5, min_count=2)
        same_bits(got, wide.astype(x.dtype))  # computed in float64, rounded once
    check_exact(got, x, y, 5, 2, name == "move_corr", 1)


def test_mixed_dtypes_promote_and_broadcast_as_numbagg() -> None:
    a = np.arange(12.0).reshape(3, 4) ** 1.5
    b = np.array([1.0, 4.0, 2.0, 8.0], dtype=np.float32)
    got = nanops.move_cov(a, b, 3, min_count=2)
    want = numbagg.move_cov(a, b.astype(np.float64)[None, :].repeat(3, 0), window=3, min_count=2)
    assert got.shape == (3, 4) and got.dtype == np.float64
    np.testing.assert_allclose(got, want, rtol=1e-12)
    assert nanops.move_corr(b, a, 2).shape == (3, 4)
    i = nanops.move_cov(np.arange(6), np.arange(6) ** 2, 3)
    np.testing.assert_allclose(i, numbagg.move_cov(np.arange(6.0), np.arange(6.0) ** 2, window=3))


@pytest.mark.parametrize("nan", [0.0, 0.1, 0.5])
@pytest.mark.parametrize("window", [1, 2, 7, 50, 300])
@pytest.mark.parametrize("name", ["move_cov", "move_corr"])
def test_numbaggs_and_pandas_results(name: str, window: int, nan: float) -> None:
    rng = np.random.default_rng(window)
    x = rng.standard_normal((3, 400))
    y = 0.5 * x + rng.standard_normal((3, 400))
    x[rng.random(x.shape) < nan] = np.nan
    y[rng.random(y.shape) < nan] = np.nan
    # numbagg's running sums drift: a window of two pairs, whose statistic
    # cancels most digits of its sums, is off by up to 1e-6 in numbagg's, and
    # its correlation of one pair is not NaN but what the drift leaves (0.4,
    # -2.0): compared where the window holds two pairs or more
    rtol = 1e-9 if window > 2 else 1e-5
    valid = ~(np.isnan(x) | np.isnan(y))
    pairs = nanops.move_sum(valid.astype(np.float64), window, min_count=1)
    for min_count in (None, 1, window):
        got = getattr(nanops, name)(x, y, window, min_count=min_count)
        want = getattr(numbagg, name)(x, y, window=window, min_count=min_count)
        m = window if min_count is None else min_count
        # NaN where too few pairs; one pair has no correlation (zero spread)
        np.testing.assert_array_equal(np.isnan(got), pairs < max(m, 2))
        both = pairs >= 2
        np.testing.assert_allclose(got[both], want[both], rtol=rtol, atol=1e-12)
        m = window if min_count is None else min_count
        if name == "move_cov":
            m = max(m, 2)  # pandas' covariance of one pair is NaN or inf
        if m > window:
            continue
        for r in range(3):
            roll = pd.Series(x[r]).rolling(window, min_periods=m)
            pd_want = getattr(roll, name[5:])(pd.Series(y[r])).to_numpy()
            np.testing.assert_allclose(got[r], pd_want, rtol=1e-9, atol=1e-12)


def test_an_outlier_leaves_no_trace_after_its_windows() -> None:
    # numbagg's running sums keep the outlier's rounding: every later window
    # of theirs loses the digits; each of ours comes from its own pairs
    rng = np.random.default_rng(7)
    x = rng.standard_normal(3000)
    y = rng.standard_normal(3000)
    clean = x.copy()
    x[100] = 1e12
    for name in ("move_cov", "move_corr"):
        got = getattr(nanops, name)(x, y, 20)
        base = getattr(nanops, name)(clean, y, 20)
        same_bits(got[120:], base[120:])
        assert not np.allclose(got[100:120], base[100:120])
    check_exact(nanops.move_cov(x[:200], y[:200], 20), x[:200], y[:200], 20, None, False, 0)


def test_an_infinity_gives_nan_only_in_its_windows() -> None:
    x = np.arange(20.0) % 7
    y = np.arange(20.0) % 5
    x[6] = np.inf
    y[13] = -np.inf
    for name in ("move_cov", "move_corr"):
        got = getattr(nanops, name)(x, y, 3)
        assert np.isnan(got[6:9]).all() and np.isnan(got[13:16]).all()
        finite = np.r_[2:6, 9:13, 16:20]
        assert np.isfinite(got[finite]).all()
        check_exact(got, x, y, 3, None, name == "move_corr", 0)


def test_constant_series_have_no_correlation() -> None:
    x = np.array([2.0, 2.0, 2.0, 3.0, np.nan, 3.0])
    got = nanops.move_corr(x, np.arange(6.0), 3, min_count=1)
    assert np.isnan(got[:3]).all() and np.isnan(got[5])
    assert abs(got[3] - 0.75**0.5) < 1e-15 and got[4] == 1.0


def test_one_long_lane_on_threads_gives_the_bits_of_its_pieces() -> None:
    rng = np.random.default_rng(1)
    x = rng.standard_normal(700_000)
    y = rng.standard_normal(700_000)
    x[rng.random(x.size) < 0.1] = np.nan
    for name in ("move_cov", "move_corr"):
        got = getattr(nanops, name)(x, y, 1000, min_count=1)
        # a piece starting at a multiple of the window, with one window of warm-up
        piece = getattr(nanops, name)(x[299_000:], y[299_000:], 1000, min_count=1)
        same_bits(got[300_000:], piece[1000:])
        assert np.isfinite(got[1000:]).all()


@pytest.mark.parametrize("call, exc, msg", [
    (lambda: nanops.move_cov(np.ones(5), np.ones(5), 6), ValueError, "window not in valid range: 6"),
    (lambda: nanops.move_cov(np.ones(5), np.ones(5), 0), ValueError, "window not in valid range: 0"),
    (lambda: nanops.move_corr(np.ones(5), np.ones(5), 2, min_count=-1), ValueError,
     "min_count must be positive: -1"),
    (lambda: nanops.move_corr(np.ones(5), np.ones(5), 2, min_count=3), ValueError,
     r"min_count \(3\) cannot be greater than window \(2\)"),
    (lambda: nanops.move_cov(np.ones(5), np.ones(5), 2, axis=()), ValueError, "empty tuple"),
    (lambda: nanops.move_cov(np.ones((2, 5)), np.ones(5), 2, axis=(0, 1)), ValueError,
     "only one axis"),
    (lambda: nanops.move_cov(np.ones(5), np.ones(4), 2), ValueError, "broadcast"),
    (lambda: nanops.move_cov(np.ones(5) + 0j, np.ones(5), 2), TypeError, "real numbers"),
    (lambda: nanops.move_cov(1.0, 2.0, 1), ValueError, "ndim > 0"),
    (lambda: nanops.move_cov(np.ones(5), np.ones(5), 2, axis=1), np.exceptions.AxisError,
     "out of bounds"),
    (lambda: nanops.move_cov(np.ones(5), np.ones(5), 2.0), TypeError, "window"),
    (lambda: nanops.move_exp_nancov(np.ones(5), np.ones(5), alpha=np.array(0.5)), ValueError,
     r"Input operand 2 does not have enough dimensions .* \(a\),\(a\),\(a\),\(\)->\(a\)"),
    (lambda: nanops.move_exp_nancorr(np.ones(5), np.ones(5), alpha=np.ones(2) / 2), ValueError,
     "Input operand 2 has a mismatch in its core dimension 0"),
    (lambda: nanops.move_exp_nancov(np.ones(5), np.ones(5), alpha=0.5, axis=()), ValueError,
     "empty tuple"),
    (lambda: nanops.move_exp_nancov(np.ones(5), np.ones(5), alpha=0.5, min_weight=[1, 2]),
     TypeError, "min_weight"),
])
def test_bad_arguments_raise_numbaggs_exceptions(call: Any, exc: type, msg: str) -> None:
    with pytest.raises(exc, match=msg):
        call()


@pytest.mark.parametrize("name", ["move_cov", "move_corr", "move_exp_nancov",
                                  "move_exp_nancorr"])
def test_masked_and_dask_arrays_are_refused_not_computed(name: str) -> None:
    da = pytest.importorskip("dask.array")
    kw: dict[str, Any] = {"alpha": 0.5} if "exp" in name else {"window": 2}
    masked = np.ma.masked_array(np.arange(6.0), mask=[0, 1, 0, 0, 1, 0])
    with pytest.raises(TypeError, match=name):
        getattr(nanops, name)(masked, np.ones(6), **kw)
    with pytest.raises(TypeError, match=name):
        getattr(nanops, name)(np.ones(6), da.ones(6, chunks=3), **kw)
    got = getattr(nanops, name)(list(range(6)), np.arange(6.0) ** 2, **kw)
    assert got.shape == (6,)


def test_numbagg_raises_the_same_classes() -> None:
    with pytest.raises(ValueError, match="window not in valid range"):
        numbagg.move_cov(np.ones(5), np.ones(5), window=6)
    with pytest.raises(ValueError, match="min_count must be positive"):
        numbagg.move_corr(np.ones(5), np.ones(5), window=2, min_count=-1)
    with pytest.raises(ValueError, match="Input operand 2 does not have enough dimensions"):
        numbagg.move_exp_nancov(np.ones(5), np.ones(5), alpha=np.array(0.5))


# --- exponential --------------------------------------------------------------


def exp_lane_ref(xs: list[float], ys: list[float], alphas: list[float], min_weight: float,
                 corr: bool) -> list[float]:
    """numbagg's recurrence of two series over one lane, in float64 scalars
    (but ``alpha = 1`` forgets sums holding an infinity, as the README says)."""
    f = np.float64
    sx = sy = sxy = sxx = syy = sw = sw2 = weight = f(0.0)
    out = []
    with np.errstate(all="ignore"):
        for x, y, a in zip(xs, ys, alphas):
            d = f(1.0) - f(a)
            sx, sy, sxy, sxx, syy = sx * d, sy * d, sxy * d, sxx * d, syy * d
            if d == 0:
                sx = sy = sxy = sxx = syy = f(0.0)
            sw, sw2, weight = sw * d, sw2 * (d * d), weight * d
            if not (math.isnan(x) or math.isnan(y)):
                x, y = f(x), f(y)
                sx, sy, sxy, sxx, syy = sx + x, sy + y, sxy + x * y, sxx + x * x, syy + y * y
                sw, sw2, weight = sw + 1.0, sw2 + 1.0, weight + f(a)
            value = f(math.nan)
            bias = 1.0 - sw2 / (sw * sw)
            if weight >= min_weight and bias > 0:
                if corr:
                    den = np.sqrt((sxx - sx * sx / sw) * (syy - sy * sy / sw))
                    if den > 0:
                        value = (sxy - sx * sy / sw) / den
                else:
                    value = (sxy - sx * sy / sw) / sw / bias
            out.append(float(value))
    return out


@st.composite
def exp_cases(draw: Any) -> tuple[np.ndarray, np.ndarray, Any, float, int]:
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(1, 8), min_size=ndim, max_size=ndim)))
    axis = draw(st.integers(-ndim, ndim - 1))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    x = rng.standard_normal(shape) * 10
    y = rng.integers(-5, 5, shape).astype(np.float64)
    for v, p in ((x, draw(st.sampled_from([0.0, 0.3]))), (y, draw(st.sampled_from([0.0, 0.2])))):
        v[rng.random(shape) < p] = np.nan
    if draw(st.booleans()):
        x.flat[draw(st.integers(0, x.size - 1))] = draw(st.sampled_from([np.inf, -np.inf]))
    kind = draw(st.sampled_from(["scalar", "list", "lane"]))
    n = shape[axis]
    alpha: Any = draw(st.sampled_from([0.5, 0.1, 1.0, 0.0]))
    if kind == "list":
        alpha = [float(v) for v in rng.uniform(0, 1, n)]
    elif kind == "lane":
        alpha = rng.uniform(0, 1, n)
    return x, y, alpha, draw(st.sampled_from([0.0, 0.3, 0.9])), axis


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(exp_cases(), st.booleans(), st.sampled_from(LAYOUTS))
def test_exponential_gives_the_recurrences_bits(case: Any, corr: bool, layout: str) -> None:
    x, y, alpha, min_weight, axis = case
    a, owner = make_layout(x, layout)
    before = snapshot(owner)
    fn = nanops.move_exp_nancorr if corr else nanops.move_exp_nancov
    got = fn(a, y, alpha=alpha, min_weight=min_weight, axis=axis)
    assert snapshot(owner) == before
    n = x.shape[axis]
    alphas = list(np.broadcast_to(np.asarray(alpha, dtype=np.float64), (n,)))
    xm, ym = np.moveaxis(x, axis, -1), np.moveaxis(y, axis, -1)
    want = np.empty(xm.shape)
    for idx in np.ndindex(*xm.shape[:-1]):
        want[idx] = exp_lane_ref(xm[idx].tolist(), ym[idx].tolist(), alphas, min_weight, corr)
    same_bits(np.moveaxis(got, axis, -1), want)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("corr", [False, True])
def test_exponential_matches_numbaggs_bits(dtype: str, corr: bool) -> None:
    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 300)).astype(dtype)
    y = (x + rng.standard_normal((4, 300))).astype(dtype)
    x[rng.random(x.shape) < 0.1] = np.nan
    name = "move_exp_nancorr" if corr else "move_exp_nancov"
    for alpha in (0.3, rng.uniform(0.05, 0.9, 300)):
        for min_weight in (0.0, 0.5):
            got = getattr(nanops, name)(x, y, alpha=alpha, min_weight=min_weight)
            want = getattr(numbagg, name)(x, y, alpha=alpha, min_weight=min_weight)
            assert got.dtype == np.dtype(dtype)  # numbagg: float64 for float32 too
            same_bits(got, want.astype(dtype))
            along0 = getattr(nanops, name)(x.T, y.T, alpha=alpha, min_weight=min_weight, axis=0)
            same_bits(along0.T, got)


def test_exponential_alpha_per_lane_and_broadcast_series() -> None:
    rng = np.random.default_rng(2)
    x = rng.standard_normal((3, 4, 20))
    y = rng.standard_normal((4, 20))
    alpha = rng.uniform(0.1, 0.9, (4, 20))
    for name in ("move_exp_nancov", "move_exp_nancorr"):
        got = getattr(nanops, name)(x, y, alpha=alpha)
        want = getattr(numbagg, name)(x, np.broadcast_to(y, x.shape), alpha=alpha)
        same_bits(got, want)
        moved = getattr(nanops, name)(np.moveaxis(x, -1, 0), y.T[:, None, :], alpha=alpha.T,
                                      axis=0)
        same_bits(np.moveaxis(moved, 0, -1), got)


def test_pandas_ewm_cov_and_corr() -> None:
    rng = np.random.default_rng(4)
    x = pd.Series(rng.standard_normal(200))
    y = pd.Series(rng.standard_normal(200) + x.to_numpy())
    x[rng.random(200) < 0.1] = np.nan
    ew = x.ewm(alpha=0.2, adjust=True, ignore_na=False)
    np.testing.assert_allclose(nanops.move_exp_nancov(x.to_numpy(), y.to_numpy(), alpha=0.2),
                               ew.cov(y).to_numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(nanops.move_exp_nancorr(x.to_numpy(), y.to_numpy(), alpha=0.2),
                               ew.corr(y).to_numpy(), rtol=1e-10, atol=1e-12)
