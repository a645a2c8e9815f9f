"""``nanops.anynan``, ``nanops.allnan`` (bottleneck's and numbagg's) and
``nanops.count`` (numbagg's name for ``nancount``).

Checked against NumPy's ``np.isnan(a).any/all(axis)`` (the answer is exact)
on every dtype, layout and axis; against bottleneck's and numbagg's own
functions for their argument forms, result types and errors; and where the
kernels stop reading early (a NaN, or a value, at each position around their
block boundaries, along both kinds of axis).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from _support import make_layout, snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nanops

DTYPES = ("f8", "f4", "f2", "c16", "c8", "i8", "i4", "i2", "i1", "u8", "u1", "?")
LAYOUTS = ("C", "F", "strided", "negative", "transposed", "byteswapped", "unaligned",
           "readonly")


def _values(rng: np.random.Generator, shape: tuple[int, ...], dtype: str,
            pattern: str) -> np.ndarray:
    kind = np.dtype(dtype).kind
    if kind == "b":
        return rng.random(shape) < 0.5
    if kind in "iu":
        return rng.integers(0, 100, shape).astype(dtype)
    x = rng.standard_normal(shape)
    share = {"none": 0.0, "few": 0.02, "half": 0.5, "most": 0.98, "all": 1.0}[pattern]
    x[rng.random(shape) < share] = np.nan
    x[rng.random(shape) < 0.05] = np.inf
    if kind == "c":
        x = x + 1j * np.where(rng.random(shape) < share / 2, np.nan, 1.0)
    return x.astype(dtype)


def _reference(values: np.ndarray, axis: Any, all_nan: bool) -> Any:
    flags = np.isnan(values) if values.dtype.kind in "fc" else np.zeros(values.shape, bool)
    res = flags.all(axis=axis) if all_nan else flags.any(axis=axis)
    return bool(res) if axis is None else res


def _axis(draw: Any, ndim: int) -> Any:
    kind = draw(st.sampled_from(["none", "int", "tuple"] if ndim else ["none"]))
    if kind == "none":
        return None
    if kind == "int":
        return draw(st.integers(-ndim, ndim - 1))
    return tuple(draw(st.lists(st.integers(0, ndim - 1), unique=True, max_size=ndim)))


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_answers_are_numpys_on_every_dtype_layout_and_axis(data: st.DataObject) -> None:
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    dtype = data.draw(st.sampled_from(DTYPES), label="dtype")
    ndim = data.draw(st.integers(0, 3), label="ndim")
    shape = tuple(data.draw(st.lists(st.integers(0, 70), min_size=ndim, max_size=ndim)))
    pattern = data.draw(st.sampled_from(["none", "few", "half", "most", "all"]))
    values = _values(rng, shape, dtype, pattern)
    a, owner = make_layout(values, data.draw(st.sampled_from(LAYOUTS), label="layout"))
    axis = _axis(data.draw, ndim)
    before = snapshot(owner)
    for func, all_nan in ((nanops.anynan, False), (nanops.allnan, True)):
        got = func(a, axis=axis)
        want = _reference(values, axis, all_nan)
        if axis is None:
            assert type(got) is bool and got == want, (func.__name__, got, want)
        else:
            assert isinstance(got, (np.ndarray, np.bool_))
            assert np.asarray(got).dtype == np.bool_
            np.testing.assert_array_equal(got, want)
    assert snapshot(owner) == before


@pytest.mark.parametrize("dtype", ["f8", "f4", "f2"])
@pytest.mark.parametrize("n", [1, 63, 64, 65, 129, 40_000])
def test_a_nan_or_a_value_anywhere_in_a_lane_is_found(dtype: str, n: int) -> None:
    # positions around the kernels' blocks of 64 values, and whole arrays
    # past the size the fast entry reads with the GIL held
    positions = sorted({0, 1, 62, 63, 64, 65, n // 2, n - 2, n - 1} & set(range(n)))
    for at in positions:
        valid = np.ones(n, dtype)
        valid[at] = np.nan
        assert nanops.anynan(valid) is True
        assert nanops.allnan(valid) is (n == 1)
        nans = np.full(n, np.nan, dtype)
        nans[at] = -0.0
        assert nanops.allnan(nans) is False
        assert nanops.anynan(nans) is (n > 1)
        # the same lanes along the last axis and down the first
        rows = np.stack([valid, np.ones(n, dtype), nans])
        np.testing.assert_array_equal(nanops.anynan(rows, axis=1), [True, False, n > 1])
        np.testing.assert_array_equal(nanops.allnan(rows, axis=1), [n == 1, False, False])
        np.testing.assert_array_equal(nanops.anynan(rows.T.copy(), axis=0),
                                      [True, False, n > 1])
        np.testing.assert_array_equal(nanops.allnan(rows.T.copy(), axis=0),
                                      [n == 1, False, False])


def test_columns_answered_early_still_answer_the_late_ones() -> None:
    # along axis 0 every column is answered once its first NaN is read; the
    # last column gets its NaN only in the last row
    a = np.ones((1000, 50))
    a[:5, :-1] = np.nan
    a[-1, -1] = np.nan
    assert nanops.anynan(a, axis=0).all()
    a[-1, -1] = 1.0
    want = np.r_[np.ones(49, bool), False]
    np.testing.assert_array_equal(nanops.anynan(a, axis=0), want)
    b = np.full((1000, 50), np.nan)
    b[:3, :-1] = 0.0
    b[-1, -1] = 2.0
    assert not nanops.allnan(b, axis=0).any()
    b[-1, -1] = np.nan
    np.testing.assert_array_equal(nanops.allnan(b, axis=0), ~want)


def test_large_arrays_answer_on_threads() -> None:
    a = np.zeros((3, 2_000_000))
    assert nanops.anynan(a) is False
    a[2, -1] = np.nan
    assert nanops.anynan(a) is True
    np.testing.assert_array_equal(nanops.anynan(a, axis=1), [False, False, True])
    np.testing.assert_array_equal(nanops.anynan(a, axis=0)[-2:], [False, True])
    assert nanops.allnan(np.full(5_000_000, np.nan)) is True
    # answers in the head of a large array, and only past it
    for at in (0, 40_000, 4_999_999):
        for dtype in ("f8", "f4"):
            x = np.zeros(5_000_000, dtype)
            x[at] = np.nan
            assert nanops.anynan(x) is True
            assert nanops.anynan(x.reshape(1000, 5000)) is True
            y = np.full(5_000_000, np.nan, dtype)
            y[at] = 1.0
            assert nanops.allnan(y) is False
            assert nanops.allnan(y.reshape(5000, 1000, order="F")) is False


def test_empty_and_integer_answers_are_bottlenecks() -> None:
    assert nanops.anynan(np.array([])) is False
    assert nanops.allnan(np.array([])) is True
    assert nanops.allnan(np.array([], "i8")) is True
    assert nanops.allnan(np.array([1, 2])) is False
    assert nanops.anynan(np.array([1, 2])) is False
    np.testing.assert_array_equal(nanops.allnan(np.zeros((0, 3)), axis=0), [True] * 3)
    assert nanops.allnan(np.zeros((0, 3)), axis=1).shape == (0,)
    assert nanops.anynan(np.float64("nan")) is True
    assert nanops.anynan([1.0, np.nan]) is True


def test_inputs_the_kernels_lack_are_tested_with_numpy() -> None:
    t = np.array(["2020-01-01", "NaT"], dtype="datetime64[D]")
    assert nanops.anynan(t) is True and nanops.allnan(t) is False
    o = np.array([1.0, float("nan"), "x"], dtype=object)
    assert nanops.anynan(o) is True
    np.testing.assert_array_equal(nanops.anynan(o.reshape(1, 3), axis=0), [False, True, False])
    m = np.ma.masked_array([1.0, np.nan], mask=[False, False])
    assert nanops.anynan(m) is True
    assert nanops.anynan(np.array([1.0, 2.0], dtype=np.longdouble)) is False
    assert nanops.allnan([[np.nan, np.nan]], axis=[0, 1]) == np.True_


def test_bad_axes_raise_numpys_axis_error() -> None:
    a = np.zeros((2, 3))
    for func in (nanops.anynan, nanops.allnan):
        with pytest.raises(np.exceptions.AxisError):
            func(a, axis=2)
        with pytest.raises(np.exceptions.AxisError):
            func(np.array(1.0), axis=1)
        with pytest.raises(ValueError):
            func(a, axis=(0, 0))
        with pytest.raises(TypeError):
            func(a, axis=1.0)


def test_results_match_bottleneck() -> None:
    bn = pytest.importorskip("bottleneck")
    rng = np.random.default_rng(3)
    for dtype in ("f8", "f4", "i8", "i4"):
        for shape in ((0,), (7,), (5, 0), (40, 33), (3, 4, 5)):
            x = _values(rng, shape, dtype, "few")
            for axis in (None, *range(-len(shape), len(shape))):
                for ours, theirs in ((nanops.anynan, bn.anynan), (nanops.allnan, bn.allnan)):
                    got, want = ours(x, axis=axis), theirs(x, axis=axis)
                    assert type(got) is type(want) or axis is not None
                    np.testing.assert_array_equal(got, want)


def test_results_and_errors_match_numbagg() -> None:
    nb = pytest.importorskip("numbagg")
    rng = np.random.default_rng(4)
    x = _values(rng, (6, 40, 3), "f8", "half")
    x[1] = np.nan
    for axis in (None, 0, -1, (0, 2), (1,), (0, 1, 2)):
        for ours, theirs in ((nanops.anynan, nb.anynan), (nanops.allnan, nb.allnan),
                             (nanops.count, nb.count)):
            np.testing.assert_array_equal(ours(x, axis=axis), theirs(x, axis=axis))
    with pytest.raises(np.exceptions.AxisError):
        nb.anynan(x, axis=3)
    with pytest.raises(np.exceptions.AxisError):
        nanops.anynan(x, axis=3)


def test_count_is_nancount() -> None:
    a = np.array([[1.0, np.nan], [np.nan, np.nan]])
    assert nanops.count(a) == nanops.nancount(a) == 1
    np.testing.assert_array_equal(nanops.count(a, axis=1, keepdims=True), [[1], [0]])


def test_dask_arrays_stay_lazy_until_asked() -> None:
    da = pytest.importorskip("dask.array")
    x = np.ones((10, 4))
    x[3, 2] = np.nan
    d = da.from_array(x, chunks=(5, 2))
    per_column = nanops.anynan(d, axis=0)
    assert isinstance(per_column, da.Array)
    np.testing.assert_array_equal(per_column.compute(scheduler="sync"),
                                  [False, False, True, False])
