"""The exponential moving functions (``move_exp_nan*``): against numbagg and
a slow obvious reference (numbagg's documented recurrence as a plain Python
loop), over dtypes, layouts, axes, ``alpha`` (scalar, list, 1-d and n-d
arrays), ``min_weight`` and NaN/inf patterns; pandas' ``ewm`` where its
definition is the same (``adjust=True, ignore_na=False``); numbagg's errors.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from _support import make_layout
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import nanops

numbagg = pytest.importorskip("numbagg")

STATS = ("mean", "sum", "var", "std", "count")
LAYOUTS = ("C", "F", "strided", "negative", "transposed", "byteswapped", "unaligned")
DTYPES = ("float64", "float32", "float16", "int64", "int32", "uint8", "bool")


def lane_ref(stat: str, xs: list[float], alphas: list[float], min_weight: float) -> list[float]:
    """numbagg's recurrence over one lane, one position at a time, in
    float64 scalars (IEEE division by zero, as numbagg's), but ``alpha = 1``
    forgets the sums even where they hold an infinity (README)."""
    f = np.float64
    sx = sx2 = sw = sw2 = weight = f(0.0)
    seen = False
    out = []
    with np.errstate(all="ignore"):
        for x, a in zip(xs, alphas):
            d = f(1.0) - f(a)
            sx, sx2, sw, sw2, weight = sx * d, sx2 * d, sw * d, sw2 * (d * d), weight * d
            if d == 0:
                sx = sx2 = f(0.0)  # numbagg: inf·0 is NaN
            if not math.isnan(x):
                sx, sx2, sw, sw2 = sx + f(x), sx2 + f(x) * f(x), sw + 1.0, sw2 + 1.0
                weight, seen = weight + f(a), True
            value = f(math.nan)
            if weight >= min_weight:
                if stat == "mean":
                    value = sx / sw
                elif stat == "sum":
                    value = sx if seen else value
                elif stat == "count":
                    value = sw
                else:
                    bias = 1.0 - sw2 / (sw * sw)
                    if bias > 0:
                        var = (sx2 / sw - (sx / sw) ** 2) / bias
                        value = var if stat == "var" else np.sqrt(var)
            out.append(float(value))
    return out


def reference(stat: str, a: np.ndarray, alpha: Any, min_weight: float, axis: int) -> np.ndarray:
    """The slow obvious result in float64 (``alpha``: a scalar or one value
    per position along ``axis``)."""
    x = np.moveaxis(np.asarray(a, dtype=np.float64), axis, -1)
    alphas = np.broadcast_to(np.asarray(alpha, dtype=np.float64), x.shape[-1:]).tolist()
    out = np.empty(x.shape)
    for idx in np.ndindex(x.shape[:-1]):
        out[idx] = lane_ref(stat, x[idx].tolist(), alphas, min_weight)
    return np.moveaxis(out, -1, axis)


def call(stat: str, a: Any, **kw: Any) -> np.ndarray:
    return getattr(nanops, f"move_exp_nan{stat}")(a, **kw)


def result_dtype(dt: np.dtype) -> np.dtype:
    return dt if dt.kind == "f" else np.dtype(np.float64)


def as_dtype(a: np.ndarray, dtype: str) -> np.ndarray:
    if np.dtype(dtype).kind in "iub":
        a = np.nan_to_num(a, nan=1.0, posinf=3.0, neginf=-3.0)
        if dtype == "uint8":
            a = np.abs(a)
        if dtype == "bool":
            a = a > 0
    return a.astype(dtype)


def assert_close(got: np.ndarray, want: np.ndarray, dtype: np.dtype, stat: str) -> None:
    eps = float(np.finfo(result_dtype(dtype)).eps)
    # var/std: numbagg's difference of sums of squares cancels; the rounding
    # of the sums (relative to the largest square) shows in the difference
    rtol, atol = (2 * eps, 1e-12) if stat not in ("var", "std") else (64 * eps, 1e-9)
    if dtype == np.float16:
        atol = max(atol, 4 * eps)
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=rtol, atol=atol, equal_nan=True)


ALPHAS = st.sampled_from([0.0, 1.0, 0.5, 0.1, 0.9, 0.25]) | st.floats(0.0, 1.0)
MIN_WEIGHTS = st.sampled_from([0, 0.0, 0.3, 0.5, 0.99, 1, -1.0])


@st.composite
def cases(draw: Any, inf: bool = True) -> tuple[np.ndarray, int, Any, Any]:
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(1, 6), min_size=ndim, max_size=ndim)))
    pool = [float(i) for i in range(-9, 10)] + [0.5, -2.25, math.nan, math.nan]
    if inf:
        pool += [math.inf, -math.inf]
    n = int(np.prod(shape))
    vals = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))
    a = np.array(vals).reshape(shape)
    axis = draw(st.integers(-ndim, ndim - 1))
    if draw(st.booleans()):
        alpha: Any = draw(ALPHAS)
    else:
        alpha = np.array(draw(st.lists(ALPHAS, min_size=shape[axis], max_size=shape[axis])))
    return a, axis, alpha, draw(MIN_WEIGHTS)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(), st.sampled_from(DTYPES), st.sampled_from(LAYOUTS))
def test_against_the_slow_reference(case: Any, dtype: str, layout: str) -> None:
    a, axis, alpha, min_weight = case
    a = as_dtype(a, dtype)
    view, owner = make_layout(a, layout)
    before = owner.copy()
    for stat in STATS:
        got = call(stat, view, alpha=alpha, min_weight=min_weight, axis=axis)
        assert got.shape == a.shape
        assert got.dtype == result_dtype(a.dtype), (stat, got.dtype)
        want = reference(stat, a, alpha, float(min_weight), axis)
        assert_close(got, want, a.dtype, stat)
    np.testing.assert_array_equal(owner, before)  # the input is never modified


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(), st.sampled_from(("float64", "float32", "int64", "int32", "bool")),
       st.sampled_from(("C", "F", "negative", "strided")))
@example(case=(np.array([-9.0, math.inf, -9.0]), 0, np.array([0.0, 0.0, 1.0]), 0),
         dtype="float64", layout="C")
def test_against_numbagg(case: Any, dtype: str, layout: str) -> None:
    a, axis, alpha, min_weight = case
    a = as_dtype(a, dtype)
    view, _ = make_layout(a, layout)
    # alpha = 1 forgets an infinity where numbagg's inf·0 is NaN for good
    # (README): with both, the positions from the first alpha of 1 on are
    # the slow reference's (test_against_the_slow_reference), not numbagg's
    lane_alpha = np.broadcast_to(np.asarray(alpha, dtype=np.float64), (a.shape[axis],))
    upto = a.shape[axis]
    if np.isinf(np.asarray(a, dtype=np.float64)).any() and (lane_alpha == 1).any():
        upto = int(np.argmax(lane_alpha == 1))
    before = tuple(slice(0, upto) if k == axis % a.ndim else slice(None) for k in range(a.ndim))
    for stat in STATS:
        got = call(stat, view, alpha=alpha, min_weight=min_weight, axis=axis)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            want = getattr(numbagg, f"move_exp_nan{stat}")(
                view, alpha=alpha, min_weight=min_weight, axis=axis)
        # numbagg gives float64 for float32 input; nanops rounds it once
        want = np.asarray(want, dtype=result_dtype(a.dtype)).astype(np.float64)
        assert_close(got[before], want[before], a.dtype, stat)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4), st.integers(1, 5), st.integers(2, 6), st.integers(0, 2), st.data())
def test_nd_alpha_against_numbagg(d0: int, d1: int, d2: int, axis: int, data: Any) -> None:
    shape = (d0, d1, d2)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    a = rng.standard_normal(shape)
    a[rng.random(shape) < 0.2] = np.nan
    # alpha: the moved axis first-class (numbagg's alpha axis is `axis`), the
    # others the input's or 1 (broadcast); a few distinct lanes repeated
    ashape = tuple(s if (k == axis or data.draw(st.booleans())) else 1 for k, s in enumerate(shape))
    alpha = rng.choice([0.1, 0.5, 0.8], size=ashape)
    for stat in STATS:
        got = call(stat, a, alpha=alpha, min_weight=0.2, axis=axis)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            want = getattr(numbagg, f"move_exp_nan{stat}")(a, alpha=alpha, min_weight=0.2, axis=axis)
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, equal_nan=True)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([1.0, -2.0, 3.5, 7.0, 0.25, math.nan]), min_size=1, max_size=40),
       st.sampled_from([0.5, 0.1, 0.9]) | st.floats(0.01, 0.99))
@example(vals=[1.0, math.nan, math.nan, math.nan], alpha=0.9)
@example(vals=[1.0, 3.5, 3.5, 3.5, 3.5, 3.5, 3.5, math.nan, 3.5], alpha=0.9)
def test_against_pandas_ewm(vals: list[float], alpha: float) -> None:
    # numbagg's definition is pandas' adjust=True with ignore_na=False (a NaN
    # position decays the older weights too); min_periods=1 is min_weight=0
    # except before the first value (alpha = 1 is pandas' forward fill, not
    # numbagg's 0/0)
    a = np.array(vals)
    e = pd.Series(a).ewm(alpha=alpha, adjust=True, ignore_na=False, min_periods=1)
    for stat, want in [("mean", e.mean()), ("sum", e.sum())]:
        got = call(stat, a, alpha=alpha)
        np.testing.assert_allclose(got, want.to_numpy(), rtol=1e-9, atol=1e-11, equal_nan=True)
    # The variance from two valid values on (with one, numbagg's, and
    # nanops', bias correction divides a rounding residue by another: 0 or
    # NaN where pandas says NaN). pandas' variance is a running update that
    # gives exactly 0 for equal values, numbagg's (and nanops') a difference
    # of sums of squares, whose residue (~eps * x**2) the bias correction
    # divides by 1 - sum(w**2) / sum(w)**2 (tiny when alpha is near 1 and
    # one weight dominates): the tolerance is that bound, position by position.
    two = np.cumsum(~np.isnan(a)) >= 2
    bound = _variance_residue_bound(a, alpha)
    var = e.var().to_numpy()
    got = call("var", a, alpha=alpha)
    assert (np.abs(got - var) <= 1e-9 * np.abs(var) + bound)[two].all()
    # the standard deviation where the variance is well above the residue
    # (at the residue it may be negative: NaN, as numbagg's)
    spread = two & (var > 1e3 * bound)
    std = e.std().to_numpy()[spread]
    got = call("std", a, alpha=alpha)[spread]
    assert (np.abs(got - std) <= 1e-9 * std + bound[spread] / (2 * std)).all()


def _variance_residue_bound(a: np.ndarray, alpha: float) -> np.ndarray:
    """Per position, a bound on the rounding residue of an exponentially
    weighted variance computed as a difference of weighted sums of squares
    (``16 eps max(x**2)`` over the bias correction ``1 - sum w**2 / (sum
    w)**2``, the weights ``(1 - alpha)**age`` of the valid values so far)."""
    out = np.full(a.size, np.inf)
    for t in range(a.size):
        ages = t - np.flatnonzero(~np.isnan(a[: t + 1]))
        if ages.size < 2:
            continue
        w = (1.0 - alpha) ** ages.astype(np.float64)
        correction = 1.0 - (w * w).sum() / w.sum() ** 2
        if correction > 0:
            x = a[: t + 1][~np.isnan(a[: t + 1])]
            out[t] = 16 * np.finfo(np.float64).eps * float((x * x).max()) / correction
    return out


def test_wide_long_and_axis0_arrays_against_numbagg() -> None:
    # many lanes (transposed in groups on the last axis, tiles on axis 0),
    # long lanes (beyond the groups' limit), alpha per position
    rng = np.random.default_rng(3)
    for shape in [(37, 500), (500, 37), (3, 70_000), (4, 5, 300)]:
        a = rng.standard_normal(shape) * 10 + 3
        a[rng.random(shape) < 0.1] = np.nan
        for axis in range(len(shape)):
            for alpha in (0.05, rng.random(shape[axis])):
                for dt in ("float64", "float32"):
                    x = a.astype(dt)
                    for stat in STATS:
                        got = call(stat, x, alpha=alpha, min_weight=0.1, axis=axis)
                        want = getattr(numbagg, f"move_exp_nan{stat}")(
                            x, alpha=alpha, min_weight=0.1, axis=axis)
                        tol = 1e-12 if dt == "float64" else 3e-7
                        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True)


def test_examples_and_call_forms() -> None:
    x = np.array([1.0, np.nan, 4.0])
    np.testing.assert_array_equal(nanops.move_exp_nanmean(x, alpha=0.5), [1.0, 1.0, 3.4])
    np.testing.assert_array_equal(nanops.move_exp_nanmean(x, alpha=[0.5, 0.5, 0.5]),
                                  [1.0, 1.0, 3.4])
    np.testing.assert_array_equal(nanops.move_exp_nancount(x, alpha=0.5, axis=(0,)),
                                  [1.0, 0.5, 1.25])
    # axis=(): the input's values, as numbagg (a copy here)
    y = nanops.move_exp_nanmean(x, alpha=0.5, axis=())
    np.testing.assert_array_equal(y, x)
    assert y is not x
    assert nanops.move_exp_nansum(np.ones(0), alpha=0.5).shape == (0,)
    assert nanops.move_exp_nansum(np.ones((0, 3)), alpha=[0.1, 0.2, 0.3]).shape == (0, 3)
    assert nanops.move_exp_nanmean(np.ones((2, 3), np.float16), alpha=0.5).dtype == np.float16


@pytest.mark.parametrize("kw, exc", [
    (dict(alpha=np.array([0.1, 0.2])), ValueError),       # wrong length
    (dict(alpha=np.array(0.5)), ValueError),              # a 0-d array: no core dimension
    (dict(alpha=np.full((3, 1), 0.5)), ValueError),       # moved axis of length 1
    (dict(alpha=np.full((2, 3, 4), 0.5)), ValueError),    # grows the result (numbagg broadcasts)
    (dict(alpha=[0.5, 0.5]), ValueError),                 # a list that does not broadcast
    (dict(alpha="x"), TypeError),
    (dict(alpha=None), TypeError),
    (dict(alpha=1j), TypeError),
    (dict(alpha=0.5, min_weight="a"), TypeError),
    (dict(alpha=0.5, min_weight=None), TypeError),
    (dict(alpha=0.5, axis=2), IndexError),                # nanops: AxisError, an IndexError
    (dict(alpha=0.5, axis=-3), IndexError),
    (dict(alpha=0.5, axis=1.0), TypeError),
    (dict(alpha=0.5, axis=(0, 1)), ValueError),
])
def test_bad_arguments_raise_numbaggs_exceptions(kw: dict[str, Any], exc: type) -> None:
    x = np.ones((3, 4))
    with pytest.raises(exc):
        nanops.move_exp_nanmean(x, **kw)
    if kw.get("alpha") is not None and not (isinstance(kw.get("alpha"), np.ndarray)
                                            and kw["alpha"].shape == (2, 3, 4)):
        with pytest.raises(exc):
            numbagg.move_exp_nanmean(x, **kw)


def test_other_bad_input() -> None:
    with pytest.raises(TypeError):
        nanops.move_exp_nanmean(np.ones(3), 0.5)  # alpha is keyword-only
    with pytest.raises(TypeError):
        nanops.move_exp_nanmean(np.ones(3))  # alpha is required
    with pytest.raises(IndexError):
        nanops.move_exp_nanmean(np.array(3.0), alpha=0.5)  # numbagg's IndexError
    with pytest.raises(TypeError):
        nanops.move_exp_nanmean(np.ones(3, complex), alpha=0.5)


def test_dask_arrays_are_refused() -> None:
    da = pytest.importorskip("dask.array")
    with pytest.raises(TypeError, match="does not support this call"):
        nanops.move_exp_nanmean(da.ones(4, chunks=2), alpha=0.5)
