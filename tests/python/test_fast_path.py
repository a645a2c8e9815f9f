"""The fast entry points: one Rust call checks and computes the common case.

``nanops.nansum(a)`` and friends first offer ``a`` and ``axis`` to
``_nanops.fast_*``, which answers for a base-class, aligned, native-order
ndarray of a primitive dtype with ``axis`` None or an in-range ``int``, and
returns ``NotImplemented`` for anything else (the general path then runs).
These tests pin both halves: what the fast path answers equals NumPy (value,
result type, dtype char), and what it must decline it declines.
"""

from __future__ import annotations

import warnings
from typing import Any

import nanops
import numpy as np
import pytest
from nanops import _nanops

FUNCS = [
    "nansum",
    "nanprod",
    "nanmean",
    "nanvar",
    "nanstd",
    "nanmin",
    "nanmax",
    "nanargmin",
    "nanargmax",
    "nanmedian",
]
DTYPES = list("?bhilqBHILQefdFD")
AXES: list[Any] = [None, 0, 1, -1, -2]


def sample(dt: str) -> np.ndarray:
    """A (3, 4) array of `dt` with NaN where the dtype has one, no all-NaN slice."""
    v = np.array(
        [[1.5, np.nan, -2.0, 3.0], [4.0, 0.5, np.nan, 2.0], [7.0, 1.0, 2.0, np.nan]]
    )
    kind = np.dtype(dt).kind
    if kind == "b":
        return np.nan_to_num(v) > 1
    if kind in "iu":
        return np.abs(np.nan_to_num(v) * 2).astype(dt)
    if kind == "c":
        return (v + 1j * v[::-1]).astype(dt)
    return v.astype(dt)


def outcome(f: Any, a: Any, axis: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return f(a, axis=axis)
        except Exception as e:  # noqa: BLE001 - the class is compared
            return type(e)


@pytest.mark.parametrize("name", FUNCS)
@pytest.mark.parametrize("dt", DTYPES)
def test_common_calls_answer_as_numpy(name: str, dt: str) -> None:
    a = sample(dt)
    for x in (a, np.asarray(a[0, 0]), a[:, ::-2]):
        for axis in AXES if x.ndim == 2 else [None]:
            got = outcome(getattr(nanops, name), x, axis)
            want = outcome(getattr(np, name), x, axis)
            if isinstance(want, type):
                assert got is want, (name, dt, axis)
                continue
            assert type(got) is type(want), (name, dt, axis, type(got), type(want))
            g, w = np.asarray(got), np.asarray(want)
            assert g.dtype.char == w.dtype.char, (name, dt, axis)
            assert g.shape == w.shape
            # nanops accumulates wider than NumPy: results agree to a few ulps
            rtol = 4 * np.finfo(g.dtype).eps if g.dtype.kind in "fc" else 0
            np.testing.assert_allclose(g, w, rtol=rtol, atol=0, equal_nan=True)


def test_fast_path_returns_numpy_scalars_for_whole_reductions() -> None:
    a = sample("d")
    assert type(_nanops.fast_nansum(a, None)) is np.float64
    assert type(_nanops.fast_nanarg(a, None, True)) is np.int64
    res, empty = _nanops.fast_nanmean(a.astype("f"), None)
    assert type(res) is np.float32 and empty is False
    assert type(_nanops.fast_nanmedian(a, None)) is np.float64
    assert type(_nanops.fast_nanmedian(a.astype("f"), None)) is np.float32


@pytest.mark.parametrize("a, axis, count", [
    (np.full((2, 3), np.nan), 1, 2),  # one warning per all-NaN slice
    (np.full(1000, np.nan), None, 1),  # the whole-array path
    (np.full(1000, np.nan, dtype="f"), None, 1),
])
def test_nanmedian_warns_once_per_all_nan_slice_at_the_callers_line(a, axis, count) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = nanops.nanmedian(a, axis=axis)
    assert np.isnan(res).all()
    assert [str(w.message) for w in caught] == ["All-NaN slice encountered"] * count
    assert all(w.category is RuntimeWarning and w.filename == __file__ for w in caught)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(RuntimeWarning):
            nanops.nanmedian(a, axis=axis)


@pytest.mark.parametrize(
    "why, a, axis",
    [
        ("byte-swapped", sample("d").astype(">f8"), None),
        ("long long", sample("q"), None),
        ("long double", sample("g"), None),
        ("object", sample("d").astype(object), None),
        ("matrix subclass", np.asmatrix(sample("d")), None),
        ("list", [1.0, 2.0], None),
        ("unaligned", np.frombuffer(b"\0" + sample("d").tobytes(), "d", 12, 1), None),
        ("bool axis", sample("d"), True),
        ("NumPy-integer axis", sample("d"), np.int64(0)),
        ("tuple axis", sample("d"), (0,)),
        ("axis out of range", sample("d"), 2),
        ("negative axis out of range", sample("d"), -3),
    ],
)
def test_fast_path_declines_what_it_does_not_take(why: str, a: Any, axis: Any) -> None:
    assert _nanops.fast_nansum(a, axis) is NotImplemented, why
    assert _nanops.fast_nanextremum(a, axis, True) is NotImplemented, why
    assert _nanops.fast_nanarg(a, axis, False) is NotImplemented, why


def test_inexact_only_and_real_only_functions_decline_other_dtypes() -> None:
    ints, cplx = sample("l"), sample("D")
    assert _nanops.fast_nanmean(ints, None) is NotImplemented
    assert _nanops.fast_nanvar(ints, None, 0.0, False) is NotImplemented
    assert _nanops.fast_nanmedian(cplx, None) is NotImplemented
    assert _nanops.fast_nansum(ints, None) == nanops.nansum(ints)


def test_zero_size_goes_to_the_general_path_for_its_errors() -> None:
    empty = np.zeros((0, 3))
    assert _nanops.fast_nanextremum(empty, None, False) is NotImplemented
    assert _nanops.fast_nanarg(empty, None, False) is NotImplemented
    assert _nanops.fast_nanmedian(empty, None) is NotImplemented
    with pytest.raises(ValueError):
        nanops.nanmin(empty)
    with pytest.raises(ValueError):
        nanops.nanargmax(empty)
    assert _nanops.fast_nansum(empty, 0).shape == (3,)


QUANTILE_METHODS = ["linear", "lower", "nearest", "hazen", "median_unbiased", "midpoint"]


@pytest.mark.parametrize("dt", list("efd"))
@pytest.mark.parametrize("method", QUANTILE_METHODS)
def test_float_q_quantiles_answer_as_numpy(dt: str, method: str) -> None:
    a = sample(dt)
    for x in (a, a[:, ::-2], np.asarray(a[0, 0])):
        for axis in AXES if x.ndim == 2 else [None]:
            for q in (0.0, 0.3, 0.5, 1.0):
                fast = _nanops.fast_nanquantile(x, q, axis, method)
                assert fast is not NotImplemented
                got = nanops.nanquantile(x, q, axis=axis, method=method)
                want = np.nanquantile(x, q, axis=axis, method=method)
                assert type(got) is type(want) is type(fast[0]), (dt, method, axis, q)
                g, w = np.asarray(got), np.asarray(want)
                assert g.dtype == w.dtype and g.shape == w.shape
                # bit for bit (signed zeros and NaN included)
                assert g.tobytes() == w.tobytes(), (dt, method, axis, q, g, w)


@pytest.mark.parametrize("method", QUANTILE_METHODS)
def test_float_list_q_quantiles_answer_as_numpy(method: str) -> None:
    a = sample("d")
    for x in (a, a[:, ::-2], np.asarray(a[0, 0])):
        for axis in AXES if x.ndim == 2 else [None]:
            for q in ([0.3], (0.0, 0.5, 1.0), [0.9, 0.1, 0.9]):
                fast = _nanops.fast_nanquantile(x, q, axis, method)
                assert fast is not NotImplemented
                got = nanops.nanquantile(x, q, axis=axis, method=method)
                want = np.nanquantile(x, q, axis=axis, method=method)
                assert type(got) is type(want) is type(fast[0]), (method, axis, q)
                assert got.dtype == want.dtype and got.shape == want.shape
                assert got.tobytes() == want.tobytes(), (method, axis, q, got, want)


@pytest.mark.parametrize(
    "why, a, q, method",
    [
        ("integer array", sample("l"), 0.5, "linear"),
        ("complex array", sample("D"), 0.5, "linear"),
        ("integer q (not interpolated)", sample("d"), 1, "linear"),
        ("NumPy-float q", sample("d"), np.float64(0.5), "linear"),
        ("list q of a float32 array (NumPy's result dtype rules)", sample("f"), [0.5], "linear"),
        ("empty list q", sample("d"), [], "linear"),
        ("list q with an int", sample("d"), [0.5, 1], "linear"),
        ("list q with a NumPy float", sample("d"), [np.float64(0.5)], "linear"),
        ("list q above 1", sample("d"), (0.5, 1.5), "linear"),
        ("nested list q", sample("d"), [[0.5]], "linear"),
        ("array q", sample("d"), np.array([0.5]), "linear"),
        ("q above 1", sample("d"), 1.5, "linear"),
        ("NaN q", sample("d"), float("nan"), "linear"),
        ("unknown method", sample("d"), 0.5, "bogus"),
        ("zero size", np.zeros((0, 3)), 0.5, "linear"),
    ],
)
def test_fast_quantile_declines_what_it_does_not_take(
    why: str, a: Any, q: Any, method: str
) -> None:
    assert _nanops.fast_nanquantile(a, q, None, method) is NotImplemented, why


def test_fast_quantile_leaves_all_nan_slices_to_the_general_path() -> None:
    a = np.array([[np.nan, np.nan], [1.0, 2.0]])
    res, any_empty = _nanops.fast_nanquantile(a, 0.5, 1, "linear")
    assert any_empty is True and np.isnan(res[0]) and res[1] == 1.5
    with pytest.warns(RuntimeWarning, match="All-NaN slice"):
        got = nanops.nanquantile(a, 0.5, axis=1)
    np.testing.assert_array_equal(got, [np.nan, 1.5])


@pytest.mark.parametrize("dt", ["d", "f"])
@pytest.mark.parametrize("order", ["C", "F"])
def test_whole_array_fast_path_equals_the_general_path(dt: str, order: str) -> None:
    """A whole contiguous float array is read as one slice (``axis=None``);
    its results equal the general path's bit for bit (``keepdims=False``
    takes that path), and the positions of ``nanargmin``/``nanargmax`` of a
    Fortran-order array stay C-order positions, as NumPy's."""
    rng = np.random.default_rng(7)
    v = rng.standard_normal((37, 29)).astype(dt)
    v[rng.random(v.shape) < 0.1] = np.nan
    a = np.asarray(v, order=order)
    for name in ["nansum", "nanmean", "nanvar", "nanstd", "nanmin", "nanmax"]:
        fast = getattr(nanops, name)(a)
        general = getattr(nanops, name)(a, keepdims=False)
        assert type(fast) is type(general), name
        assert fast.tobytes() == np.asarray(general).tobytes(), name
    for name in ["nanargmin", "nanargmax"]:
        got = getattr(nanops, name)(a)
        assert type(got) is np.intp
        assert got == getattr(np, name)(a), name
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert np.isnan(nanops.nanmean(np.full(100, np.nan, dtype=dt)))
        assert np.isnan(nanops.nanmax(np.full(100, np.nan, dtype=dt)))
        assert np.isnan(nanops.nanvar(np.ones(1, dtype=dt), ddof=1))
    assert [w.category for w in caught] == [RuntimeWarning] * 3
    with pytest.raises(ValueError):
        nanops.nanargmax(np.full(100, np.nan, dtype=dt))
