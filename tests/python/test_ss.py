"""``nanops.ss``: bottleneck's sum of squares, NaN propagated.

Checked against an exact reference (``fractions.Fraction``, wrapping integer
arithmetic) on every dtype and layout, and against bottleneck's own ``ss``
for its result dtypes, its values where they are exact, and its errors.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from _support import make_layout, snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.lib.array_utils import normalize_axis_tuple

import nanops

bn = pytest.importorskip("bottleneck")

FLOATS = ("f8", "f4", "f2")
INTS = ("i8", "i4", "i2", "i1", "u8", "u4", "u1", "?")
LAYOUTS = ("C", "F", "strided", "negative", "transposed", "byteswapped", "unaligned")


def _values(rng: np.random.Generator, shape: tuple[int, ...], dtype: str,
            pattern: str) -> np.ndarray:
    kind = np.dtype(dtype).kind
    if kind == "b":
        return rng.random(shape) < 0.5
    if kind in "iu":
        info = np.iinfo(dtype)
        big = pattern == "wide"  # squares that wrap in 64 bits
        hi = int(info.max) if big else min(int(info.max), 1000)
        lo = max(int(info.min), -hi)
        return np.asarray(rng.integers(lo, hi, shape, dtype=dtype, endpoint=True))
    x = np.asarray(rng.standard_normal(shape) * (1e3 if pattern == "wide" else 1.0))
    if pattern in ("nan", "inf"):
        x[rng.random(shape) < 0.2] = np.nan if pattern == "nan" else np.inf
    if kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _exact(values: np.ndarray, axis: Any) -> np.ndarray:
    """The exact sum of squares per output as a float64 array (NaN if a NaN
    is in the slice, inf if an infinity is), for real floating values."""
    nd = values.ndim
    axes = tuple(range(nd)) if axis is None else normalize_axis_tuple(axis, nd)
    lanes = np.moveaxis(values, axes, tuple(range(nd - len(axes), nd)))
    out_shape = lanes.shape[:nd - len(axes)]
    flat = lanes.reshape(out_shape + (math.prod(lanes.shape[nd - len(axes):]),))
    flat = flat.astype(np.float64)
    res = np.empty(out_shape, np.float64)
    for idx in np.ndindex(out_shape):
        lane = flat[idx]
        if np.isnan(lane).any():
            res[idx] = np.nan
        elif np.isinf(lane).any():
            res[idx] = np.inf
        else:
            res[idx] = float(sum((Fraction(float(x)) ** 2 for x in lane), Fraction(0)))
    return res


def _axis_arg(ndim: int, draw: Any) -> Any:
    choice = draw(st.sampled_from(["none", "int", "tuple"] if ndim else ["none"]))
    if choice == "none":
        return None
    if choice == "int":
        return draw(st.integers(-ndim, ndim - 1))
    picked = draw(st.lists(st.integers(0, ndim - 1), unique=True, max_size=ndim))
    return tuple(picked)


def _case(data: st.DataObject, dtypes: tuple[str, ...], longest: int,
          patterns: list[str]) -> tuple[str, np.ndarray, np.ndarray, np.ndarray, Any]:
    """A drawn dtype, values, their view in a drawn layout, its owner and an axis."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    dtype = data.draw(st.sampled_from(dtypes), label="dtype")
    ndim = data.draw(st.integers(0, 3), label="ndim")
    shape = tuple(data.draw(st.lists(st.integers(0, longest), min_size=ndim, max_size=ndim)))
    values = _values(rng, shape, dtype, data.draw(st.sampled_from(patterns), label="pattern"))
    a, owner = make_layout(values, data.draw(st.sampled_from(LAYOUTS), label="layout"))
    return dtype, values, a, owner, _axis_arg(ndim, data.draw)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_floats_are_the_exact_sum_of_squares_rounded(data: st.DataObject) -> None:
    dtype, values, a, owner, axis = _case(data, FLOATS, 40, ["none", "nan", "inf", "wide"])
    before = snapshot(owner)
    with np.errstate(over="ignore"):
        got = np.asarray(nanops.ss(a, axis=axis))
    assert snapshot(owner) == before
    assert got.dtype == np.dtype(dtype)  # the input's float type, native order
    want = _exact(values, axis)
    assert got.shape == want.shape
    # float32/16: the sum of exact squares in a wider type, rounded once
    # (within an ulp of the input type). float64: each square rounds, and a
    # lane is summed in compensated lanes where contiguous, in plain column
    # sums of at most 64 rows otherwise (as `nansum`): within a few ulps, far
    # inside a running sum's `m` ulps for lanes of `m` values
    eps = np.finfo(dtype).eps
    m = values.size // max(want.size, 1)
    rtol = (min(m, 64) + 2) * eps if dtype == "f8" else 2 * eps
    with np.errstate(over="ignore"):
        np.testing.assert_allclose(got.astype(np.float64), want.astype(dtype).astype(np.float64),
                                   rtol=rtol, atol=0, equal_nan=True)


def _wrapped_sum_of_squares(values: np.ndarray, axis: Any, bits: int, signed: bool) -> Any:
    """The sum of squares modulo 2**bits (as a signed or unsigned integer)."""
    v = values.astype(object)
    total = np.sum(v * v, axis=axis, dtype=object)
    mod = 1 << bits

    def wrap(t: int) -> int:
        t = int(t) % mod
        return t - mod if signed and t >= mod // 2 else t

    return np.vectorize(wrap, otypes=[object])(total)


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_integers_are_the_exact_sum_wrapped_as_the_result_type(data: st.DataObject) -> None:
    dtype, values, a, owner, axis = _case(data, INTS, 20, ["none", "wide"])
    before = snapshot(owner)
    got = np.asarray(nanops.ss(a, axis=axis))
    assert snapshot(owner) == before
    # the result dtype of bottleneck (int32 and int64 kept) and of its
    # `np.sum(a * a)` for the others (NumPy's sum type)
    want_dtype = np.dtype(dtype) if dtype in ("i8", "i4") else np.sum(np.zeros(0, dtype)).dtype
    assert got.dtype == want_dtype
    # the squares taken in the result type, as bottleneck's kernels and
    # NumPy's sum take them, except that narrow types square without wrapping
    # in their own type (README: differences from bottleneck)
    out = np.dtype(want_dtype)
    want = _wrapped_sum_of_squares(values, axis, 8 * out.itemsize, out.kind == "i")
    assert got.tolist() == np.asarray(want).tolist()


@pytest.mark.parametrize("dtype", ["f8", "f4", "i8", "i4"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_bottleneck_gives_the_same_results(dtype: str, axis: Any) -> None:
    rng = np.random.default_rng(3)
    values = _values(rng, (17, 300), dtype, "none" if dtype[0] == "f" else "wide")
    got, want = nanops.ss(values, axis=axis), bn.ss(values, axis=axis)
    assert np.asarray(got).dtype == np.asarray(want).dtype or axis is None
    if dtype[0] == "i":
        assert np.asarray(got).tolist() == np.asarray(want).tolist()  # both wrap alike
    else:
        # bottleneck adds one by one in the input's type: float32 rounds more
        rtol = 1e-5 if dtype == "f4" else 1e-12
        np.testing.assert_allclose(got, want, rtol=rtol, equal_nan=True)


def test_bottleneck_examples() -> None:
    assert nanops.ss(np.array([1.0, np.nan])) != nanops.ss(np.array([1.0, np.nan]))  # NaN
    assert nanops.ss(np.array([3e200])) == math.inf
    assert nanops.ss(np.array([2**32], np.int64)) == 0  # 2**64 wraps, as bottleneck's
    assert nanops.ss(np.array([50000], np.int32)) == bn.ss(np.array([50000], np.int32))
    assert nanops.ss(np.array([1, 2, 3], np.int32)).dtype == np.int32
    np.testing.assert_array_equal(nanops.ss(np.zeros((0, 3)), axis=0), np.zeros(3))
    assert nanops.ss(np.zeros((0, 3))) == 0.0
    assert nanops.ss(np.float64(3.0)) == 9.0
    assert nanops.ss([1, 2]) == 5
    assert nanops.ss(np.array([1 + 2j, 3j])) == bn.ss(np.array([1 + 2j, 3j]))  # z², summed
    assert nanops.ss(np.array([True, True, False])) == bn.ss(np.array([True, True, False]))


def test_bad_axes_raise_what_bottleneck_raises() -> None:
    # bottleneck raises ValueError; NumPy's AxisError is one
    with pytest.raises(ValueError):
        bn.ss(np.ones(3), axis=2)
    with pytest.raises(ValueError):
        nanops.ss(np.ones(3), axis=2)
    with pytest.raises(TypeError):
        nanops.ss(np.ones(3), axis=1.5)


def test_other_arrays_go_to_bottlenecks_own_way() -> None:
    da = pytest.importorskip("dask.array")
    values = np.arange(12.0).reshape(3, 4)
    lazy = nanops.ss(da.from_array(values, chunks=2), axis=0)
    assert isinstance(lazy, da.Array)
    np.testing.assert_array_equal(lazy.compute(), bn.ss(values, axis=0))
    masked = np.ma.masked_array(values, mask=values > 5)
    assert nanops.ss(masked) == np.sum(masked * masked)
