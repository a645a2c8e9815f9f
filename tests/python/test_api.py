"""Small, readable behaviour tests of the public Python API.

Tests marked ``numpy_difference`` pin a documented difference from NumPy
(see the README, "Differences from NumPy"); they are skipped when the suite is
validated against a NumPy shim (``NANOPS_SHIM=1``).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from numpy.exceptions import AxisError

import nanops
from _support import assert_same_contract, run

NAN = np.nan
REDUCTIONS = ["nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmin", "nanmax",
              "nanmedian", "median"]
SINGLE_AXIS = ["nanargmin", "nanargmax", "nancumsum", "nancumprod"]
QUANTILES = ["nanquantile", "nanpercentile", "quantile", "percentile"]
ALL = REDUCTIONS + SINGLE_AXIS + QUANTILES
Q = {"nanquantile": 0.3, "quantile": 0.3, "nanpercentile": 30.0, "percentile": 30.0}
GAPPY = np.array([[1.5, NAN, 3.0, -2.0],   # gaps, but no all-NaN row or column
                  [NAN, NAN, 7.25, 0.5],
                  [4.0, 2.0, NAN, 1.0]])
ALL_NAN_COLUMN = np.array([[1.5, NAN, 3.0],
                           [NAN, NAN, 7.25],
                           [4.0, NAN, NAN]])


def call(name: str, module: Any, a: Any, **kwargs: Any) -> Any:
    func: Callable[..., Any] = getattr(module, name)
    return func(a, Q[name], **kwargs) if name in Q else func(a, **kwargs)


def assert_same(got: Any, want: Any) -> None:
    """Same type, dtype, shape and values (NaN == NaN)."""
    assert type(got) is type(want), (type(got), type(want))
    g, w = np.asarray(got), np.asarray(want)
    assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, g.shape, w.dtype, w.shape)
    np.testing.assert_allclose(g, w, rtol=1e-12, equal_nan=True)


# ------------------------------------------------------------------ nancount


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16, np.complex128])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_nancount_counts_non_nan_values(dtype: Any, axis: Any, keepdims: bool) -> None:
    rng = np.random.default_rng(7)
    a = rng.normal(size=(3, 4, 5)).astype(dtype)
    a[rng.random(a.shape) < 0.3] = NAN
    got = nanops.nancount(a, axis=axis, keepdims=keepdims)
    want = np.sum(~np.isnan(a), axis=axis, keepdims=keepdims)
    assert np.asarray(got).dtype.kind in "iu"
    assert np.shape(got) == np.shape(want)
    np.testing.assert_array_equal(got, want)


def test_nancount_complex_nan_in_either_part() -> None:
    a = np.array([1 + 1j, complex(NAN, 0), complex(0, NAN), 2j])
    assert nanops.nancount(a) == 2


@pytest.mark.parametrize("a", [np.arange(6, dtype=np.int8).reshape(2, 3),
                               np.ones((2, 3), bool), [[1, 2, 3], [4, 5, 6]]])
def test_nancount_of_integers_and_lists_counts_everything(a: Any) -> None:
    np.testing.assert_array_equal(nanops.nancount(a, axis=1), [3, 3])
    assert nanops.nancount(a) == 6


def test_nancount_empty_and_bad_axis() -> None:
    assert nanops.nancount(np.empty((0, 3))) == 0
    np.testing.assert_array_equal(nanops.nancount(np.empty((0, 3)), axis=0), [0, 0, 0])
    with pytest.raises(AxisError):
        nanops.nancount(np.ones((2, 2)), axis=2)


# --------------------------------------------------------- scalars and lists


@pytest.mark.parametrize("name", ALL)
def test_lists_give_numpys_result(name: str) -> None:
    data = [[1.5, NAN, 3.0], [4.0, 5.0, NAN]]
    assert_same(call(name, nanops, data, axis=0), call(name, np, data, axis=0))
    assert_same(call(name, nanops, data), call(name, np, data))


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("scalar", [2.5, 3, NAN, np.float32(1.25), True])
def test_scalars_give_numpys_result(name: str, scalar: Any) -> None:
    got = run(call, name, nanops, scalar)
    want = run(call, name, np, scalar)
    assert_same_contract(got, want, f"{name}({scalar!r})")  # errors and warnings too
    if want.error is None:
        assert_same(got.value, want.value)


def test_python_ints_sum_in_the_platform_int() -> None:
    got = nanops.nansum([1, 2, 3])
    assert got == 6 and np.asarray(got).dtype == np.asarray(np.nansum([1, 2, 3])).dtype


# ---------------------------------------------------------------------- out=


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("axis", [0, None])
def test_out_is_filled_and_returned(name: str, axis: Any) -> None:
    want = np.asarray(call(name, np, GAPPY, axis=axis))
    out = np.full(want.shape, -99, dtype=want.dtype)
    got = call(name, nanops, GAPPY, axis=axis, out=out)
    assert got is out
    np.testing.assert_allclose(out, want, rtol=1e-12, equal_nan=True)


# ------------------------------------------------ documented differences


@pytest.mark.numpy_difference
def test_float16_nanmean_of_many_values_does_not_overflow() -> None:
    # NumPy sums 20,000 float16 values near 10 in float16 and gets inf (the
    # sum exceeds 65504); nanops accumulates float16 in float32.
    rng = np.random.default_rng(1)
    a = (10 + rng.normal(scale=0.5, size=20_000)).astype(np.float16)
    a[::97] = NAN
    got = nanops.nanmean(a)
    assert got.dtype == np.float16 and np.isfinite(got)
    finite = [Fraction(float(x)) for x in a if not math.isnan(x)]
    exact = float(sum(finite) / len(finite))
    assert abs(float(got) - exact) <= float(np.spacing(np.float16(exact)))


@pytest.mark.numpy_difference
@pytest.mark.parametrize("name", ["nanmedian", "median"])
def test_median_of_huge_values_does_not_overflow(name: str) -> None:
    # NumPy computes (a + b) / 2 and returns inf.
    assert getattr(nanops, name)([1.7e308, 1.7e308]) == 1.7e308
    got = getattr(nanops, name)(np.array([1.7e308, 1.5e308, 1.6e308, 1.8e308]))
    exact = float((Fraction(1.6e308) + Fraction(1.7e308)) / 2)
    assert abs(got - exact) <= np.spacing(exact)


@pytest.mark.numpy_difference
def test_float32_nansum_down_columns_is_accurate() -> None:
    # Reducing axis 0 of a C array, NumPy adds row after row in float32 and is
    # ~10^4 ulps off here; nanops accumulates float32 in float64.
    rng = np.random.default_rng(2)
    a = (1e4 + rng.normal(size=(200_000, 3))).astype(np.float32)
    a[rng.random(a.shape) < 0.1] = NAN
    got = nanops.nansum(a, axis=0)
    assert got.dtype == np.float32
    for j in range(a.shape[1]):
        column = a[:, j]
        exact = math.fsum(column[~np.isnan(column)].tolist())
        assert abs(float(got[j]) - exact) <= float(np.spacing(np.float32(exact)))


# ---------------------------------------------------------------- exceptions


@pytest.mark.parametrize("name", ALL)
def test_axis_out_of_range_is_axis_error(name: str) -> None:
    with pytest.raises(AxisError):
        call(name, nanops, GAPPY, axis=2)
    with pytest.raises(AxisError):
        call(name, nanops, GAPPY, axis=-3)


@pytest.mark.parametrize("name", REDUCTIONS + QUANTILES)
def test_duplicate_axes_are_value_error(name: str) -> None:
    a = np.ones((2, 3, 4))
    with pytest.raises(ValueError):
        call(name, nanops, a, axis=(0, 0))
    with pytest.raises(ValueError):
        call(name, nanops, a, axis=(1, -2))


@pytest.mark.parametrize("name", QUANTILES)
def test_complex_quantiles_are_type_error(name: str) -> None:
    with pytest.raises(TypeError):
        call(name, nanops, np.array([1 + 1j, 2 - 1j, NAN]))


@pytest.mark.parametrize("name, q", [
    ("nanquantile", 1.5), ("nanquantile", -0.1), ("quantile", [0.5, 2.0]),
    ("nanpercentile", 101.0), ("percentile", -1.0), ("nanquantile", NAN),
])
def test_q_out_of_range_is_value_error(name: str, q: Any) -> None:
    with pytest.raises(ValueError):
        getattr(nanops, name)(GAPPY, q)


def test_other_bad_arguments() -> None:
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        nanops.nanargmin(np.array([NAN, NAN]))
    with pytest.raises(ValueError):
        nanops.nanvar(GAPPY, ddof=1, correction=1)
    with pytest.raises(TypeError):
        nanops.nanmean(GAPPY, dtype=np.int64)
    with pytest.raises(ValueError):
        nanops.nanquantile(GAPPY, 0.5, method="no_such_method")  # type: ignore[call-overload]
    with pytest.raises(ValueError):
        nanops.nanmin(np.empty((0, 3)), axis=0)


@pytest.mark.parametrize("name, message", [
    ("nanmean", "Mean of empty slice"),
    ("nanvar", "Degrees of freedom <= 0 for slice."),
    ("nanmin", "All-NaN slice encountered"),
    ("nanmedian", "All-NaN slice encountered"),
    ("nanquantile", "All-NaN slice encountered"),
])
def test_all_nan_slice_warns_and_gives_nan(name: str, message: str) -> None:
    with pytest.warns(RuntimeWarning, match=message):
        got = call(name, nanops, ALL_NAN_COLUMN, axis=0)
    assert np.isnan(got[1]) and not np.isnan(got[0])


def test_nansum_and_nanprod_of_all_nan_are_identities() -> None:
    assert nanops.nansum([NAN, NAN]) == 0.0
    assert nanops.nanprod([NAN, NAN]) == 1.0


# ---------------------------------------------------------------- delegation


with warnings.catch_warnings():  # np.matrix is pending deprecation, still in use
    warnings.simplefilter("ignore", PendingDeprecationWarning)
    MATRIX = np.matrix([[1.0, NAN, 3.0], [4.0, 5.0, NAN]])
MASKED = np.ma.masked_array([[1.0, NAN, 3.0], [4.0, 5.0, 6.0]],
                            mask=[[False, False, True], [False, False, False]])
OBJECT = np.array([[1.0, NAN, 3.0], [4.0, 5.0, NAN]], dtype=object)


@pytest.mark.parametrize("name", ["nansum", "nanmean", "nanmax", "nanmin", "nanvar",
                                  "nancumsum", "nanargmax", "nanmedian"])
@pytest.mark.parametrize("a", [MATRIX, MASKED], ids=["matrix", "masked"])
@pytest.mark.parametrize("axis", [None, 1])
def test_subclasses_give_numpys_result(name: str, a: Any, axis: Any) -> None:
    outcome = run(call, name, nanops, a, axis=axis)
    expected = run(call, name, np, a, axis=axis)
    assert_same_contract(outcome, expected, f"{name}({type(a).__name__}, axis={axis})")
    if expected.error is not None:
        return  # NumPy itself fails on this subclass (nanmedian of np.matrix)
    got, want = outcome.value, expected.value
    assert type(got) is type(want)
    if isinstance(want, np.ma.MaskedArray):
        np.testing.assert_array_equal(np.ma.getmaskarray(got), np.ma.getmaskarray(want))
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), equal_nan=True)


def _extra_arguments(name: str) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """Arguments that complete a call of ``nanops.<name>`` on a (3, 4) array."""
    if name in ("move_exp_nancov", "move_exp_nancorr"):
        return (GAPPY[::-1],), {"alpha": 0.5}
    if name in ("move_cov", "move_corr"):
        return (GAPPY[::-1], 3), {}
    if name.startswith("move_exp_"):
        return (), {"alpha": 0.5}
    if name == "move_quantile":
        return (2, 0.3), {}
    if name.startswith("move_"):
        return (2,), {}
    labels = np.array([0, 1, 0, 2])
    if name == "group_nanquantile":
        return (labels, 0.3), {"axis": 1}
    if name.startswith("group_"):
        return (labels,), {"axis": 1}
    if name in ("partition", "argpartition"):
        return (1,), {}
    if name == "replace":
        return (np.nan, 0.0), {}
    return ((Q[name],) if name in Q else ()), {}


@pytest.mark.parametrize("name", [n for n in nanops.__all__ if n != "__version__"])
def test_memory_mapped_input_is_computed_on(name: str, tmp_path: Any) -> None:
    # np.load(path, mmap_mode="r") is how a large array is opened: an ndarray
    # over the file's pages, computed on as such (NumPy's and bottleneck's
    # functions give a plain ndarray for one)
    np.save(tmp_path / "a.npy", GAPPY)
    mapped = np.load(tmp_path / "a.npy", mmap_mode="r")
    assert type(mapped) is np.memmap
    args, kwargs = _extra_arguments(name)
    fn = getattr(nanops, name)
    if name == "replace":
        # in place: a read-only mapping is refused, a writeable one written
        with pytest.raises(ValueError, match="read-only"):
            fn(mapped, *args)
        writeable = np.load(tmp_path / "a.npy", mmap_mode="r+")
        assert fn(writeable, *args) is writeable
        np.testing.assert_array_equal(writeable, fn(GAPPY.copy(), *args))
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = fn(GAPPY.copy(), *args, **kwargs)
        got = fn(mapped, *args, **kwargs)
    np.testing.assert_array_equal(got, want)
    if hasattr(np, name):
        # NumPy's class for one: a plain ndarray from its reductions, a
        # memmap from the copy `np.partition` makes (bottleneck's too)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            assert type(got) is type(getattr(np, name)(mapped, *args, **kwargs))
    else:
        assert type(got) is type(want)


@pytest.mark.parametrize("name", ["nansum", "nanmin", "nanmax", "nanmean"])
def test_object_arrays_give_numpys_result(name: str) -> None:
    for axis in (None, 0):
        want = call(name, np, OBJECT, axis=axis)
        got = call(name, nanops, OBJECT, axis=axis)
        assert type(got) is type(want)
        assert np.asarray(got).dtype == np.asarray(want).dtype
        g = np.asarray(got, dtype=np.float64)
        np.testing.assert_array_equal(g, np.asarray(want, dtype=np.float64))
