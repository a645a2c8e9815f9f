"""bottleneck's ``rankdata``, ``nanrankdata`` and ``replace``, and NumPy's
(and bottleneck's) ``partition`` and ``argpartition``, in nanops.

Ranks are checked against their definition (a value's rank is the number of
values below it plus the mean place among its equals; NaN after all, each
apart) on every real dtype, layout and axis, and against bottleneck's own
results bit for bit; partitions against what a partition is (the ``kth``
value in sorted place, none greater before it, none less after it, the same
values; NaN last), NumPy's calls and errors, and bottleneck's values on
NaN-free data; ``replace`` against bottleneck's in-place result. Errors of
bottleneck's functions: its classes and messages.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from _support import make_layout, snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nanops

REAL = ("f8", "f4", "f2", "i8", "i4", "i2", "i1", "u8", "u2", "u1", "?")
LAYOUTS = ("C", "F", "strided", "negative", "transposed", "byteswapped", "unaligned",
           "readonly")
SETTINGS = settings(max_examples=200, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _values(rng: np.random.Generator, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    """Values with many ties (small integers), signed zeros, NaN and inf."""
    kind = np.dtype(dtype).kind
    if kind == "b":
        return np.asarray(rng.random(shape) < 0.5)
    if kind in "iu":
        lo = 0 if kind == "u" else -5
        return np.asarray(rng.integers(lo, 6, shape)).astype(dtype)
    x = np.array(rng.integers(-5, 6, shape), dtype=np.float64)
    x *= 0.5  # in place: a 0-d array stays an array
    x[rng.random(shape) < 0.1] = -0.0
    x[rng.random(shape) < 0.15] = np.nan
    x[rng.random(shape) < 0.05] = np.inf
    x[rng.random(shape) < 0.05] = -np.inf
    return x.astype(dtype)


def _case(data: st.DataObject, dtypes: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    dtype = data.draw(st.sampled_from(dtypes), label="dtype")
    ndim = data.draw(st.integers(0, 3), label="ndim")
    shape = tuple(data.draw(st.lists(st.integers(0, 12), min_size=ndim, max_size=ndim)))
    values = _values(rng, shape, dtype)
    a, owner = make_layout(values, data.draw(st.sampled_from(LAYOUTS), label="layout"))
    return values, a, owner


def _lanes(values: np.ndarray, axis: Any) -> tuple[np.ndarray, int]:
    if axis is None:
        return values.reshape(-1), 0
    return values, axis % values.ndim


def _rank_lane(lane: np.ndarray, nan_ranked: bool) -> list[float]:
    """Ranks by definition: values below, plus the mean place among equals."""
    xs = [float(v) if lane.dtype.kind in "fb" else int(v) for v in lane]
    valid = [x for x in xs if x == x]
    ranks = []
    for i, x in enumerate(xs):
        if x != x:
            before = sum(1 for y in xs[:i] if y != y)
            ranks.append(float(len(valid) + before + 1) if nan_ranked else np.nan)
        else:
            below = sum(1 for y in valid if y < x)
            equal = sum(1 for y in valid if y == x)
            ranks.append(below + (equal + 1) / 2)
    return ranks


def _rank_reference(values: np.ndarray, axis: Any, nan_ranked: bool) -> np.ndarray:
    x, ax = _lanes(values, axis)
    moved = np.moveaxis(x, ax, -1)
    out = np.empty(moved.shape)
    for idx in np.ndindex(moved.shape[:-1]):
        out[idx] = _rank_lane(moved[idx], nan_ranked)
    return np.moveaxis(out, -1, ax)


def _axis(data: st.DataObject, ndim: int, default: Any) -> Any:
    choices = [None, default] + list(range(-ndim, ndim))
    if ndim == 0:
        choices = [None]
    return data.draw(st.sampled_from(choices), label="axis")


@SETTINGS
@given(data=st.data())
def test_ranks_are_their_definition_on_every_dtype_and_layout(data: st.DataObject) -> None:
    values, a, owner = _case(data, REAL)
    axis = _axis(data, values.ndim, None)
    before = snapshot(owner)
    for func, nan_ranked in ((nanops.rankdata, True), (nanops.nanrankdata, False)):
        got = func(a, axis=axis)
        want = _rank_reference(values, axis, nan_ranked)
        assert got.dtype == np.float64 and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    assert snapshot(owner) == before


def _assert_ranks_are_bottlenecks(got: np.ndarray, want: np.ndarray, values: np.ndarray,
                                   axis: Any) -> None:
    """Equal bit for bit where the value is not NaN; where it is, the same
    ranks per lane in some order (bottleneck's NaNs take the last ranks in
    the order its unstable argsort leaves them, nanops' in order of
    position: the README's difference)."""
    assert got.dtype == want.dtype and got.shape == want.shape
    x, ax = _lanes(values, axis)
    nan = np.isnan(x) if x.dtype.kind == "f" else np.zeros(x.shape, bool)
    np.testing.assert_array_equal(got[~nan], want[~nan])
    g = np.moveaxis(np.where(nan, got, 0.0), ax, -1)
    w = np.moveaxis(np.where(nan, want, 0.0), ax, -1)
    np.testing.assert_array_equal(np.sort(g, axis=-1), np.sort(w, axis=-1))


@SETTINGS
@given(data=st.data())
def test_ranks_are_bottlenecks_bit_for_bit(data: st.DataObject) -> None:
    bn = pytest.importorskip("bottleneck")
    values, a, _ = _case(data, ("f8", "f4", "i8", "i4", "f2", "u1"))
    axis = _axis(data, values.ndim, None)
    for ours, theirs in ((nanops.rankdata, bn.rankdata), (nanops.nanrankdata, bn.nanrankdata)):
        _assert_ranks_are_bottlenecks(ours(a, axis=axis), theirs(a, axis=axis), values, axis)


def test_long_lanes_with_many_ties_rank_as_bottleneck() -> None:
    bn = pytest.importorskip("bottleneck")
    rng = np.random.default_rng(7)
    x = rng.integers(0, 300, (4, 50_000)).astype(np.float64)
    x[rng.random(x.shape) < 0.1] = np.nan
    for axis in (None, 0, 1):
        for ours, theirs in ((nanops.rankdata, bn.rankdata),
                             (nanops.nanrankdata, bn.nanrankdata)):
            _assert_ranks_are_bottlenecks(ours(x, axis=axis), theirs(x, axis=axis), x, axis)
    # NaN ranks follow position (bottleneck's follow its sort)
    y = np.full(3000, np.nan)
    y[::7] = 1.0
    ranks = nanops.rankdata(y)
    nan_ranks = ranks[np.isnan(y)]
    np.testing.assert_array_equal(nan_ranks, np.arange(nan_ranks.size) + 429 + 1)


def test_ranks_of_inputs_the_kernels_lack_follow_the_same_rules() -> None:
    z = np.array([1 + 1j, 1 - 1j, complex(np.nan, 0), 0j])
    np.testing.assert_array_equal(nanops.rankdata(z), [3.0, 2.0, 4.0, 1.0])
    np.testing.assert_array_equal(nanops.nanrankdata(z), [3.0, 2.0, np.nan, 1.0])
    o = np.array([3.0, 1, 1.0, 3.0], dtype=object)
    np.testing.assert_array_equal(nanops.rankdata(o), [3.5, 1.5, 1.5, 3.5])
    np.testing.assert_array_equal(nanops.rankdata([[3, 1], [1, 3]], axis=0), [[2, 1], [1, 2]])
    assert nanops.rankdata(np.array(5.0)).shape == (1,)
    assert nanops.rankdata(np.zeros((0, 3)), axis=1).shape == (0, 3)
    assert nanops.rankdata(np.zeros((0, 3), dtype=complex)).shape == (0,)


def _check_partitioned(values: np.ndarray, got: np.ndarray, kth: int, axis: Any) -> None:
    """``got`` is ``values`` partitioned at ``kth`` along ``axis`` (NaN last)."""
    x, ax = _lanes(values, axis)
    assert got.shape == x.shape
    srt = np.sort(x, axis=ax)  # NumPy sorts NaN last
    g = np.moveaxis(got, ax, -1)
    s = np.moveaxis(srt, ax, -1)
    for idx in np.ndindex(g.shape[:-1]):
        lane, want = g[idx], s[idx]
        np.testing.assert_array_equal(np.sort(lane), want)  # the same values
        pivot = lane[kth]
        np.testing.assert_array_equal(pivot, want[kth])
        if pivot == pivot:
            assert np.all(lane[:kth] <= pivot)
            after = lane[kth + 1:]
            assert np.all((after >= pivot) | (after != after))
        else:
            assert np.all(lane[kth + 1:] != lane[kth + 1:])


@SETTINGS
@given(data=st.data())
def test_partitions_put_kth_in_place_on_every_dtype_and_layout(data: st.DataObject) -> None:
    values, a, owner = _case(data, REAL)
    axis = _axis(data, values.ndim, -1)
    x, ax = _lanes(values, axis)
    n = x.shape[ax]
    if n == 0:
        assert nanops.partition(a, 0, axis=axis).shape == x.shape
        assert nanops.argpartition(a, 0, axis=axis).shape == x.shape
        return
    kth = data.draw(st.integers(-n, n - 1), label="kth")  # negative: from the end
    before = snapshot(owner)
    got = nanops.partition(a, kth, axis=axis)
    assert got.dtype == a.dtype  # byte order included, as NumPy's copy
    _check_partitioned(x, got, kth % n, ax)
    at = nanops.argpartition(a, kth, axis=axis)
    assert at.dtype == np.intp and at.shape == x.shape
    np.testing.assert_array_equal(np.sort(at, axis=ax),
                                  np.broadcast_to(np.arange(x.shape[ax]).reshape(
                                      [-1 if d == ax else 1 for d in range(x.ndim)]), x.shape))
    _check_partitioned(x, np.take_along_axis(x, at, axis=ax), kth % n, ax)
    assert snapshot(owner) == before


def test_partitions_agree_with_bottleneck_without_nan() -> None:
    bn = pytest.importorskip("bottleneck")
    rng = np.random.default_rng(11)
    for dtype in ("f8", "f4", "i8", "i4"):
        x = rng.integers(-50, 50, (30, 200)).astype(dtype)
        for axis, kth in ((-1, 0), (-1, 199), (-1, 77), (0, 13), (None, 4321)):
            got, want = nanops.partition(x, kth, axis), bn.partition(x, kth, axis)
            assert got.dtype == want.dtype
            g, w = _lanes(got, axis)[0], _lanes(want, axis)[0]
            ax = -1 if axis is None else axis
            np.testing.assert_array_equal(np.take(g, [kth], axis=ax), np.take(w, [kth], axis=ax))
            np.testing.assert_array_equal(np.sort(g, axis=ax), np.sort(w, axis=ax))
            at = nanops.argpartition(x, kth, axis)
            flat = x.reshape(-1) if axis is None else x
            np.testing.assert_array_equal(
                np.take(np.take_along_axis(flat, at, axis=ax), [kth], axis=ax),
                np.take(w, [kth], axis=ax))


def test_partitions_of_inputs_the_kernels_lack_are_numpys() -> None:
    z = np.array([3 + 1j, 1 + 0j, 2 - 1j])
    np.testing.assert_array_equal(nanops.partition(z, 1)[1], 2 - 1j)
    assert nanops.argpartition(z, 0)[0] == 1
    np.testing.assert_array_equal(nanops.partition([3, 1, 2], 1)[1], 2)
    assert nanops.partition(np.zeros((0, 3)), 0, axis=0).shape == (0, 3)
    np.testing.assert_array_equal(nanops.partition(np.array(5.0), 0, axis=None), [5.0])
    np.testing.assert_array_equal(nanops.argpartition(np.array(5.0), 0), [0])  # NumPy's


def _outcome(func: Any, *args: Any, **kwargs: Any) -> tuple[type, str] | None:
    try:
        func(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - the class and message are compared
        return type(e), str(e)
    return None


@pytest.mark.parametrize("name", ["partition", "argpartition"])
def test_partition_calls_and_errors_are_numpys(name: str) -> None:
    a = np.arange(10.0).reshape(2, 5)[:, ::-1]
    ours, numpys = getattr(nanops, name), getattr(np, name)
    for args, kwargs in [((a, 5), {}), ((a, -6), {}), ((a, 2), {"axis": 2}),
                         ((a, 2), {"axis": -3}), ((np.array(5.0), 0), {}),
                         ((a, 1.5), {}), ((a, True), {}), ((a, 1), {"axis": 1.0}),
                         ((np.zeros((0, 3)), 7), {"axis": 0}), ((a, [1, 3]), {}),
                         ((a, 1), {"kind": "quick"}), ((a, 1), {"order": "x"})]:
        got, want = _outcome(ours, *args, **kwargs), _outcome(numpys, *args, **kwargs)
        assert got == want, (args, kwargs, got, want)
    # what NumPy takes and nanops computes: negative kth, axis None, a list
    for args, kwargs in [((a, -1), {}), ((a, -5), {"axis": None}), ((a, 0), {"axis": 0}),
                         (([3, 1, 2], 1), {}), ((np.zeros((0, 3)), 0), {"axis": 0})]:
        got, want = ours(*args, **kwargs), numpys(*args, **kwargs)
        assert got.shape == want.shape and got.dtype == want.dtype
        if name == "partition":
            np.testing.assert_array_equal(np.sort(got, axis=-1), np.sort(want, axis=-1))
    np.testing.assert_array_equal(ours(a, [1, 3]), numpys(a, [1, 3]))  # NumPy's own


def test_bottlenecks_partition_calls_give_its_values() -> None:
    bn = pytest.importorskip("bottleneck")
    a = np.array([[3.0, 1.0, 2.0, 5.0, 4.0], [9.0, 8.0, 6.0, 6.0, 7.0]])
    for name in ("partition", "argpartition"):
        for kth, axis in ((0, -1), (4, -1), (2, 1), (1, 0), (7, None)):
            got = getattr(nanops, name)(a, kth, axis)
            want = getattr(bn, name)(a, kth, axis)
            assert got.dtype == want.dtype and got.shape == want.shape
            vals = a.reshape(-1) if axis is None else a
            ax = -1 if axis is None else axis
            if name == "argpartition":
                got = np.take_along_axis(vals, got, axis=ax)
                want = np.take_along_axis(vals, want, axis=ax)
            np.testing.assert_array_equal(np.take(got, [kth], axis=ax),
                                          np.take(want, [kth], axis=ax))


@pytest.mark.parametrize("name", ["rankdata", "nanrankdata"])
def test_rank_errors_are_bottlenecks(name: str) -> None:
    bn = pytest.importorskip("bottleneck")
    a = np.arange(6.0).reshape(2, 3)
    for args, kwargs in [((a,), {"axis": 2}), ((a,), {"axis": -3}),
                         ((np.array(5.0),), {"axis": 0}), ((a,), {"axis": 1.0})]:
        got = _outcome(getattr(nanops, name), *args, **kwargs)
        want = _outcome(getattr(bn, name), *args, **kwargs)
        assert want is not None
        assert got is not None and issubclass(got[0], want[0]) and got[1] == want[1], (
            args, kwargs, got, want)


REPLACE_CASES = [
    ("f8", np.nan, 0.0), ("f8", 2.0, 7.0), ("f8", 0.0, 9.0), ("f8", -0.0, np.nan),
    ("f8", np.inf, -1.0), ("f8", 2.5, True), ("f4", 2.0, 1e40), ("f4", 1.1, 3.0),
    ("f4", np.nan, 5.0), ("i8", 2, 9), ("i8", 2.0, 3.0), ("i8", np.nan, 9),
    ("i4", 1, np.float32(3)), ("i4", 2, -7), ("c16", 2, 7), ("c16", np.nan, 5.0),
    ("f2", 2.0, 4.0), ("i2", 2, 7), ("u1", 2, 255), ("u8", 1, 2**63),
]


def _replace_input(dtype: str) -> np.ndarray:
    x = np.array([[0.0, -0.0, 2.0, np.nan], [np.inf, 2.0, 1.1, 2.5]])
    if np.dtype(dtype).kind in "iu":
        x = np.array([[1, 2, 3, 2], [0, 2, 5, 1]])
    return x.astype(dtype)


@pytest.mark.parametrize(("dtype", "old", "new"), REPLACE_CASES)
def test_replace_is_bottlenecks_in_place(dtype: str, old: Any, new: Any) -> None:
    bn = pytest.importorskip("bottleneck")
    ours, theirs = _replace_input(dtype), _replace_input(dtype)
    with np.errstate(over="ignore"):
        assert nanops.replace(ours, old, new) is ours
        bn.replace(theirs, old, new)
    np.testing.assert_array_equal(ours, theirs)
    assert ours.dtype == theirs.dtype


@pytest.mark.parametrize("layout", ["F", "strided", "negative", "transposed", "byteswapped",
                                    "unaligned"])
def test_replace_writes_through_every_layout(layout: str) -> None:
    values = np.array([[1.0, np.nan, 3.0], [np.nan, 5.0, 1.0]])
    a, owner = make_layout(values, layout)
    nanops.replace(a, np.nan, -1.0)
    nanops.replace(a, 1.0, 10.0)
    np.testing.assert_array_equal(a, [[10.0, -1.0, 3.0], [-1.0, 5.0, 10.0]])
    if layout == "strided":
        # the gaps between the view's values are untouched
        gaps = owner.copy()
        gaps[::2, ::2] = 0
        assert not gaps.any()


def test_replace_errors_are_bottlenecks() -> None:
    bn = pytest.importorskip("bottleneck")
    cases = [
        (lambda: np.array([1, 2, 3]), 2, 9.5), (lambda: np.array([1, 2, 3]), 2.5, 9),
        (lambda: np.array([1, 2], dtype=np.int32), 1, 2**31),
        (lambda: np.array([1, 2], dtype=np.int32), 2**40, 3),
        (lambda: np.array([1, 2], dtype=np.int64), 1, np.nan),
        (lambda: np.array([1, 2], dtype=np.int64), 1, np.inf),
        (lambda: np.array([1, 2], dtype=np.int8), 1, 300),
        (lambda: np.array([1, 2], dtype=np.uint8), 1, -3),
        (lambda: np.array([1.0, 2.0]), "a", 3), (lambda: np.array([1.0, 2.0]), 1, None),
        (lambda: np.array([1.0, 2.0]), 1, "3"), (lambda: np.array([1.0, 2.0]), 10**400, 5.0),
        (lambda: np.array([1.0, 2.0]), 1, 10**400), (lambda: np.array([1j, 2.0]), 1, 1j),
        (lambda: [1.0, 2.0], 1, 3),
    ]
    for make, old, new in cases:
        got = _outcome(nanops.replace, make(), old, new)
        want = _outcome(bn.replace, make(), old, new)
        assert want is not None and got == want, (old, new, got, want)


def test_replace_refuses_a_read_only_array_and_leaves_it() -> None:
    a = np.array([1.0, np.nan])
    a.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        nanops.replace(a, np.nan, 0.0)
    assert np.isnan(a[1])


def test_replace_of_other_dtypes_and_subclasses_works_in_place() -> None:
    b = np.array([True, False])
    nanops.replace(b, True, False)
    np.testing.assert_array_equal(b, [False, False])
    b = np.array([True, False])
    nanops.replace(b, 2, False)  # no bool equals 2
    np.testing.assert_array_equal(b, [True, False])
    m = np.ma.masked_array([1.0, np.nan, 3.0], mask=[False, False, True])
    assert nanops.replace(m, np.nan, 0.0) is m
    np.testing.assert_array_equal(m.data, [1.0, 0.0, 3.0])
    i8 = np.array([1, 2], dtype=np.int8)
    nanops.replace(i8, 300, 5)  # no int8 equals 300: nothing to do
    np.testing.assert_array_equal(i8, [1, 2])
    z = np.zeros((3, 4))
    nanops.replace(z[:, 1], 0.0, 1.0)
    np.testing.assert_array_equal(z.sum(axis=0), [0.0, 3.0, 0.0, 0.0])


@pytest.mark.parametrize("dtype", ["f8", "f4", "i8", "i4"])
def test_replace_of_large_arrays_and_every_kind_of_number(dtype: str) -> None:
    # past the size at which the GIL is released, C and F order, and the
    # numbers callers pass (Python ints and floats, NumPy scalars, bools)
    bn = pytest.importorskip("bottleneck")
    rng = np.random.default_rng(5)
    x = rng.integers(-3, 4, (300, 200)).astype(dtype)
    if x.dtype.kind == "f":
        x[rng.random(x.shape) < 0.1] = np.nan
    for order in ("C", "F"):
        for old, new in [(1, 7), (np.int64(2), 9), (3.0, -1), (True, 5), (np.nan, 4)]:
            ours, theirs = np.array(x, order=order), np.array(x, order=order)
            assert nanops.replace(ours, old, new) is ours
            bn.replace(theirs, old, new)
            np.testing.assert_array_equal(ours, theirs)
