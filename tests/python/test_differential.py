"""Differential tests: every nanops function against NumPy, under hypothesis.

Each example draws a dtype, a shape (0-d and zero-size included), NaN/inf
gaps, a memory layout and the keyword arguments, then checks that nanops

* raises when NumPy raises, with the same public exception class;
* otherwise emits the same warnings (category and text; floating-point-error
  warnings such as "overflow encountered" are ignored), and returns the same
  type (array or scalar), dtype and shape;
* returns the same values: integers and selections exactly, everything else
  within rounding of a reference. The reference is NumPy itself for
  bool/int/float64/complex128 and NumPy run on the input widened to
  float64/complex128 (result cast back) for float16/float32/complex64, since
  nanops accumulates those in wider precision. Where NumPy's own narrow result
  is off the reference (overflow, rounding), matching NumPy is accepted too;
* never modifies its input (any byte of the underlying buffer).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any, Literal, cast

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.lib.array_utils import normalize_axis_tuple

import nanops
from _support import (
    LAYOUTS,
    assert_same_contract,
    make_layout,
    mismatch,
    public_class,
    quiet,
    run,
    snapshot,
)

INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOATS = [np.float16, np.float32, np.float64]
COMPLEX = [np.complex64, np.complex128]
DTYPES = [np.bool_, *INTS, *FLOATS, *FLOATS, *COMPLEX]  # floats drawn twice as often
WIDE = {np.dtype(np.float16): np.float64, np.dtype(np.float32): np.float64,
        np.dtype(np.complex64): np.complex128}
METHODS = (
    "inverted_cdf", "averaged_inverted_cdf", "closest_observation",
    "interpolated_inverted_cdf", "hazen", "weibull", "linear", "median_unbiased",
    "normal_unbiased", "lower", "higher", "midpoint", "nearest",
)
SELECTING = {"inverted_cdf", "closest_observation", "lower", "higher", "nearest"}
MAX_SIDE = {0: 0, 1: 40, 2: 10, 3: 5, 4: 3}  # at most 125 elements

SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# ---------------------------------------------------------------- strategies


@st.composite
def shapes(draw: st.DrawFn) -> tuple[int, ...]:
    """Mostly non-empty shapes of 1 to 4 dims; sometimes 0-d or zero-size."""
    ndim = draw(st.sampled_from([1, 2, 3, 4, 1, 2, 3, 0]))
    shape = [draw(st.integers(1, MAX_SIDE[ndim])) for _ in range(ndim)]
    if ndim and draw(st.sampled_from([False] * 7 + [True])):
        shape[draw(st.integers(0, ndim - 1))] = 0
    return tuple(shape)


def _elements(dtype: np.dtype, kind: str) -> st.SearchStrategy[Any]:
    if dtype.kind == "b":
        return st.booleans()
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        small = st.integers(max(int(info.min), -3), min(int(info.max), 3))
        return st.one_of(small, st.integers(int(info.min), int(info.max)))
    if kind == "prod":  # exact or nearly exact products, no spurious overflow
        if dtype.kind == "c":
            return st.sampled_from([0, 1, -1, 1j, -1j, 1 + 1j, 1 - 1j])
        return st.sampled_from([0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0])
    width = cast(Literal[16, 32, 64], 8 * dtype.itemsize // (2 if dtype.kind == "c" else 1))
    rounded = np.dtype(f"f{width // 8}").type
    big = 100.0 if width == 16 else 1e6
    real = st.one_of(
        st.integers(-4, 4).map(float),  # ties and exact sums
        st.floats(-big, big, allow_nan=False, allow_infinity=False, width=width),
        # full-mantissa values (hypothesis' floats favour short ones)
        st.integers(-997 * int(big), 997 * int(big)).map(lambda k: float(rounded(k / 997))),
    )
    if dtype.kind == "c":
        return st.builds(complex, real, real)
    return real


@st.composite
def _mask(draw: st.DrawFn, shape: tuple[int, ...], patterns: list[str]) -> np.ndarray:
    pattern = draw(st.sampled_from(patterns))
    if pattern == "none":
        return np.zeros(shape, bool)
    if pattern == "all":
        return np.ones(shape, bool)
    if pattern == "slab" and len(shape) > 0 and math.prod(shape) > 0:
        mask = np.zeros(shape, bool)
        ax = draw(st.integers(0, len(shape) - 1))
        idx = draw(st.integers(0, shape[ax] - 1))
        mask[(slice(None),) * ax + (idx,)] = True
        return mask
    return draw(hnp.arrays(np.bool_, shape))


@st.composite
def gappy_arrays(draw: st.DrawFn, dtypes: list[Any], kind: str = "sum") -> np.ndarray:
    """A C-contiguous native array; float/complex ones with NaN and ±inf gaps."""
    dtype = np.dtype(draw(st.sampled_from(dtypes)))
    shape = draw(shapes())
    # Distinct values mostly; sometimes mostly one repeated value (ties).
    fill = st.nothing() if draw(st.sampled_from([True, True, False])) else None
    values = draw(hnp.arrays(dtype, shape, elements=_elements(dtype, kind), fill=fill))
    if dtype.kind not in "fc":
        return values
    # Complex products of infinities are NaN or infinite depending on the
    # order of the multiplications (even within NumPy): no infinities there.
    if not (kind == "prod" and dtype.kind == "c") and draw(st.sampled_from([False, False, True])):
        inf = draw(_mask(shape, ["random", "slab"]))
        sign = draw(hnp.arrays(np.bool_, shape))
        values[inf & sign] = np.inf
        values[inf & ~sign] = -np.inf
    nan = draw(_mask(shape, ["none", "random", "random", "all", "slab"]))
    if dtype.kind == "c":
        part = draw(st.sampled_from(["real", "imag", "both"]))
        values[nan] = {"real": complex(np.nan, 1), "imag": complex(1, np.nan),
                       "both": complex(np.nan, np.nan)}[part]
    else:
        values[nan] = np.nan
    return values


@st.composite
def axes(draw: st.DrawFn, ndim: int, tuples: bool = True) -> Any:
    """None, an int (maybe negative), a tuple, or sometimes an invalid axis."""
    kinds = ["none", "int", "int", "bad"] + (["tuple", "tuple"] if tuples else [])
    kind = draw(st.sampled_from(kinds))

    def sign(ax: int) -> int:
        return ax - ndim if draw(st.booleans()) else ax

    if kind == "int" and ndim > 0:
        return sign(draw(st.integers(0, ndim - 1)))
    if kind == "tuple":
        return tuple(sign(ax) for ax in draw(st.lists(st.integers(0, max(ndim - 1, 0)),
                                                      unique=True, max_size=ndim)))
    if kind == "bad":
        bad = [ndim, -ndim - 1] + ([(0, -ndim)] if tuples and ndim > 0 else [])
        return draw(st.sampled_from(bad))
    return None


# --------------------------------------------------------------- tolerances


def eps_of(*dtypes: Any) -> float:
    """Machine epsilon of the narrowest inexact dtype involved."""
    eps = [float(np.finfo(d).eps) for d in dtypes if d is not None and np.dtype(d).kind in "fc"]
    return max(eps) if eps else float(np.finfo(np.float64).eps)


def finite_abs(values: np.ndarray) -> np.ndarray:
    """|x| in float64, NaN kept, infinities replaced by 0 (they never reach a
    finite result)."""
    x = np.abs(values.astype(np.complex128 if values.dtype.kind == "c" else np.float64))
    return np.where(np.isinf(x), 0.0, x)


def max_abs(values: np.ndarray) -> float:
    x = finite_abs(values)
    return float(np.nanmax(x, initial=0.0, where=~np.isnan(x)))


def reduced_count(shape: tuple[int, ...], axis: Any) -> int:
    if axis is None or len(shape) == 0:  # NumPy accepts axis=0 for 0-d sums
        return math.prod(shape)
    return math.prod(shape[i] for i in normalize_axis_tuple(axis, len(shape)))


def _red_kwargs(kwargs: dict[str, Any]) -> dict[str, Any]:
    return {k: kwargs[k] for k in ("axis", "keepdims", "where") if k in kwargs}


def tolerance(kind: str, values: np.ndarray, kwargs: dict[str, Any], ref: Any,
              result_dtype: np.dtype, eps: float | None = None,
              worst_case: bool = False) -> tuple[Any, float]:
    """(atol, rtol) for the rounding of a sound algorithm in precision ``eps``.

    Sums are bounded by ``(2 + log2 n) * eps * sum|x|`` (pairwise or blocked
    summation, what NumPy and nanops do; ``worst_case`` uses the bound
    ``n * eps * sum|x|`` of any order instead); variances by the same factor
    on the result plus the second-order effect of an inexact mean; products
    relatively by ``(n + 2) * eps``; quantiles by a few ``eps`` of the data range.
    """
    if kind == "exact":
        return 0.0, 0.0
    eps = eps if eps is not None else eps_of(values.dtype, result_dtype, kwargs.get("dtype"))
    axis = kwargs.get("axis")
    absx = finite_abs(values)
    red = _red_kwargs(kwargs)
    n = reduced_count(values.shape, axis) + 1
    lg = n + 1.0 if worst_case else 2 + math.log2(n)
    r = np.abs(np.asarray(ref, dtype=np.complex128 if np.iscomplexobj(ref) else np.float64))
    r = np.where(np.isfinite(r), r, 0.0)
    if kind == "sum":
        scale = quiet(np.nansum, absx, **red) + abs(kwargs.get("initial", 0))
        return lg * eps * scale, eps
    if kind == "mean":
        return lg * eps * np.nan_to_num(quiet(np.nanmean, absx, **red)), eps
    if kind == "cumsum":
        n = reduced_count(values.shape, axis)
        return (n + 1) * eps * quiet(np.nancumsum, absx, axis=axis), eps
    if kind in ("prod", "cumprod"):
        n = values.size if kind == "prod" else reduced_count(values.shape, axis)
        return 0.0, (n + 2) * eps
    if kind in ("var", "std"):
        m = max_abs(values)
        ddof = kwargs.get("correction", kwargs.get("ddof", 0))
        count = quiet(np.sum, ~np.isnan(absx), **red)
        d = np.maximum(count - ddof, 1.0)
        var = r if kind == "var" else r * r
        atol = (lg + 4) * eps * var + n * (lg * eps * m) ** 2 / d
        if values.dtype.kind in "biu":  # each value is rounded to float64 first
            atol = atol + 4 * n * eps * m * m / d
        if kind == "var":
            return atol, 0.0
        return 2 * atol / (r + np.sqrt(atol)) + eps * r, 0.0
    if kind == "quantile":
        return 4 * eps * max_abs(values), eps
    raise ValueError(kind)


# ------------------------------------------------------------------- driver


def reference(name: str, values: np.ndarray, args: tuple[Any, ...],
              kwargs: dict[str, Any], result: Any, kind: str = "") -> Any:
    """NumPy on widened input, cast to NumPy's result dtype. Interpolating
    quantiles of integers are widened to float64 too: NumPy interpolates in
    the integer type and overflows (quantile of int32 [2**31-1, -2**31])."""
    target = WIDE.get(values.dtype, values.dtype)
    if kind == "quantile" and values.dtype.kind in "iu":
        target = np.float64
    wide = values.astype(target, copy=True)
    if kind in ("prod", "cumprod") and kwargs.get("dtype") is not None:
        # a narrow dtype= makes NumPy's running product overflow (then
        # inf * 0 = nan) where the exact product is finite or zero: nanops'
        # products are exact in class, so the reference runs wide too
        wide_kind = "c16" if np.dtype(kwargs["dtype"]).kind == "c" else "f8"
        kwargs = {**kwargs, "dtype": np.result_type(kwargs["dtype"], wide_kind)}
    try:
        ref = quiet(getattr(np, name), wide, *args, **kwargs)
    except Exception:  # noqa: BLE001 - NumPy's float path can fail where its int path did not
        return result  # (quantile of an empty int array, q=[]): NumPy's own result then
    return quiet(np.asarray(ref).astype, np.asarray(result).dtype)


def differential(name: str, values: np.ndarray, layout: str, args: tuple[Any, ...],
                 kwargs: dict[str, Any], kind: str) -> None:
    where = f"{name}(<{values.dtype} {values.shape} {layout}>, *{args!r}, **{kwargs!r})"
    a, owner = make_layout(values, layout)
    before = snapshot(owner)
    got = run(getattr(nanops, name), a, *args, **kwargs)
    if not kwargs.get("overwrite_input"):
        assert snapshot(owner) == before, f"{where}: the input was modified"
    want = run(getattr(np, name), make_layout(values, layout)[0], *args, **kwargs)
    assert_same_contract(got, want, where)
    if want.error is not None:
        return
    if kind == "arg":
        problem = arg_mismatch(name, values, kwargs, got.value, want.value)
        assert problem is None, f"{where}: {problem}\nnanops: {got.value!r}\nNumPy: {want.value!r}"
        return
    ref = reference(name, values, args, kwargs, want.value, kind)
    with np.errstate(all="ignore"):
        atol, rtol = tolerance(kind, values, kwargs, ref, np.asarray(want.value).dtype)
    problem = mismatch(got.value, ref, atol=atol, rtol=rtol)
    if problem and mismatch(want.value, ref, atol=atol, rtol=rtol):
        # NumPy's own narrow-precision result is off the reference here
        # (overflow, rounding): agreeing with NumPy is fine as well.
        problem = mismatch(got.value, want.value, atol=atol, rtol=rtol) and problem
    assert problem is None, f"{where}: {problem}\nnanops: {got.value!r}\nNumPy: {want.value!r}"


def arg_mismatch(name: str, values: np.ndarray, kwargs: dict[str, Any], got: Any,
                 want: Any) -> str | None:
    """nanargmin/nanargmax: NumPy's index, or - where NumPy points at a NaN
    because the extreme is +inf (argmin) / -inf (argmax) and a NaN comes
    first (NumPy replaces NaN by that infinity) - the index of that infinity.
    For complex input the replacement is that infinity + 0j, which ties with
    or beats any value whose real part is that infinity."""
    g, w = np.asarray(got), np.asarray(want)
    if g.shape != w.shape or not np.issubdtype(g.dtype, np.integer):
        return f"got {g!r}, expected {w!r}"
    axis, keepdims = kwargs.get("axis"), kwargs.get("keepdims", False)
    if values.ndim == 0 or values.size == 0:
        return None if np.array_equal(g, w) else f"got {g}, expected {w}"
    lanes, ax = (values.reshape(-1), 0) if axis is None else (values, axis % values.ndim)

    def at(index: np.ndarray) -> np.ndarray:
        index = index if keepdims and axis is not None else np.expand_dims(index, ax)
        return np.take_along_axis(lanes, index.reshape(index.shape[-lanes.ndim:]), ax)

    fill = np.inf if name == "nanargmin" else -np.inf
    if values.dtype.kind not in "fc" or np.array_equal(g, w):
        return None if np.array_equal(g, w) else f"got {g}, expected {w}"
    vg, vw = at(g), at(w)
    nan_for_inf = np.isnan(vw) & ~np.isnan(vg) & (np.real(vg) == fill)
    ok = (g.reshape(vg.shape) == w.reshape(vw.shape)) | nan_for_inf
    return None if ok.all() else f"got {g}, expected {w}"


def _where_and_initial(draw: Callable[..., Any], values: np.ndarray, initial: bool) -> dict[str, Any]:
    extra: dict[str, Any] = {}
    if draw(st.sampled_from([False, False, True])):
        extra["where"] = draw(hnp.arrays(np.bool_, values.shape))
    if initial and values.dtype.kind != "b" and draw(st.booleans()):
        choices = [0, 3] if values.dtype.kind in "bu" else [0, 3, -2]
        extra["initial"] = draw(st.sampled_from(choices))
    return extra


def _dtype_kwarg(draw: Callable[..., Any], values: np.ndarray, choices: list[Any]) -> dict[str, Any]:
    if values.dtype.kind == "c":  # real accumulators for complex input only warn
        return {}
    dtype = draw(st.sampled_from([None, None, None, *choices]))
    return {} if dtype is None else {"dtype": dtype}


# -------------------------------------------------------------------- tests


def _common(data: st.DataObject, kind: str = "sum",
            tuples: bool = True) -> tuple[np.ndarray, str, dict[str, Any]]:
    values = data.draw(gappy_arrays(DTYPES, kind), label="values")
    layout = data.draw(st.sampled_from(LAYOUTS), label="layout")
    return values, layout, {"axis": data.draw(axes(values.ndim, tuples), label="axis")}


@pytest.mark.parametrize("name", ["nansum", "nanprod"])
@SETTINGS
@given(st.data())
def test_sum_prod(name: str, data: st.DataObject) -> None:
    kind = "sum" if name == "nansum" else "prod"
    values, layout, kwargs = _common(data, kind)
    kwargs["keepdims"] = data.draw(st.booleans(), label="keepdims")
    kwargs |= _dtype_kwarg(data.draw, values, ["f8", "f4"])
    kwargs |= _where_and_initial(data.draw, values, initial=True)
    differential(name, values, layout, (), kwargs, kind)


@pytest.mark.parametrize("name", ["nanmean", "nanvar", "nanstd"])
@SETTINGS
@given(st.data())
def test_mean_var_std(name: str, data: st.DataObject) -> None:
    values, layout, kwargs = _common(data)
    kwargs["keepdims"] = data.draw(st.booleans(), label="keepdims")
    kwargs |= _dtype_kwarg(data.draw, values, ["f8", "f4"] if name == "nanmean" else ["f8"])
    kwargs |= _where_and_initial(data.draw, values, initial=False)
    if name != "nanmean":
        ddof = data.draw(st.sampled_from([0, 1, 2, 0.5, 1.5]), label="ddof")
        kwargs["correction" if data.draw(st.booleans(), label="as correction") else "ddof"] = ddof
    kind = {"nanmean": "mean", "nanvar": "var", "nanstd": "std"}[name]
    differential(name, values, layout, (), kwargs, kind)


@pytest.mark.parametrize("name", ["nanmin", "nanmax"])
@SETTINGS
@given(st.data())
def test_min_max(name: str, data: st.DataObject) -> None:
    values, layout, kwargs = _common(data)
    kwargs["keepdims"] = data.draw(st.booleans(), label="keepdims")
    kwargs |= _where_and_initial(data.draw, values, initial=True)
    differential(name, values, layout, (), kwargs, "exact")


@pytest.mark.parametrize("name", ["nanargmin", "nanargmax"])
@SETTINGS
@given(st.data())
def test_argmin_argmax(name: str, data: st.DataObject) -> None:
    values, layout, kwargs = _common(data, tuples=False)
    kwargs["keepdims"] = data.draw(st.booleans(), label="keepdims")
    differential(name, values, layout, (), kwargs, "arg")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_column_extrema_at_every_row_count(dtype: type) -> None:
    """Extrema along axis 0 fold rows into column states two at a time, an
    odd last row offered twice: values and positions as NumPy's for every
    row count across two blocks of rows, ties and NaN included."""
    rng = np.random.default_rng(7)
    for rows in range(1, 134):
        for cols in (5, 300):
            a = rng.integers(-2, 3, (rows, cols)).astype(dtype)
            a[rng.random(a.shape) < 0.3] = np.nan
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                for name in ("nanmin", "nanmax"):
                    got, want = getattr(nanops, name)(a, axis=0), getattr(np, name)(a, axis=0)
                    np.testing.assert_array_equal(got, want, err_msg=f"{name} {rows}x{cols}")
            valid = a[:, ~np.isnan(a).all(axis=0)]
            for name in ("nanargmin", "nanargmax"):
                got, want = getattr(nanops, name)(valid, axis=0), getattr(np, name)(valid, axis=0)
                np.testing.assert_array_equal(got, want, err_msg=f"{name} {rows}x{cols}")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("length", [17, 20, 31, 32, 33])
def test_rows_of_17_to_32_values_match_numpy(dtype: type, length: int) -> None:
    """Rows of 17 to 32 values reduced along axis 1, one after another in
    memory or every other row (lanes padded with NaN to 32 for one kernel,
    or transposed; medians lane by lane): extrema, their positions, medians
    and NaN counts exactly as NumPy's, signed zeros, infinities and all-NaN
    rows included; sums, means and variances within rounding of NumPy's
    float64 values."""
    rng = np.random.default_rng(length)
    a = rng.integers(-3, 4, (41, length)).astype(dtype)
    a[rng.random(a.shape) < 0.2] = np.nan
    a[rng.random(a.shape) < 0.1] = -0.0
    a[3] = np.nan
    a[5, 2], a[6, -1], a[7, [0, -1]] = np.inf, -np.inf, [np.inf, -np.inf]
    wide = a.astype(np.float64)
    tol = 1e-12 if dtype == np.float64 else 1e-6
    for view, ref in ((a, wide), (a[::2], wide[::2]), (a[:, :length - 1], wide[:, :length - 1])):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            for name in ("nanmin", "nanmax"):
                got, want = getattr(nanops, name)(view, axis=1), getattr(np, name)(view, axis=1)
                assert got.dtype == want.dtype
                np.testing.assert_array_equal(np.signbit(got), np.signbit(want), err_msg=name)
                np.testing.assert_array_equal(got, want, err_msg=name)
            np.testing.assert_array_equal(nanops.nanmedian(view, axis=1),
                                          np.nanmedian(view, axis=1))
            np.testing.assert_array_equal(nanops.nancount(view, axis=1),
                                          np.sum(~np.isnan(view), axis=1))
            for name in ("nansum", "nanmean", "nanvar", "nanstd"):
                got, want = getattr(nanops, name)(view, axis=1), getattr(np, name)(ref, axis=1)
                assert got.dtype == view.dtype, name
                np.testing.assert_allclose(got, want.astype(dtype), rtol=tol, atol=tol,
                                           err_msg=name)
        valid = view[~np.isnan(view).all(axis=1)]
        for name in ("nanargmin", "nanargmax"):
            got, want = getattr(nanops, name)(valid, axis=1), getattr(np, name)(valid, axis=1)
            np.testing.assert_array_equal(got, want, err_msg=name)


@pytest.mark.parametrize("name", ["nancumsum", "nancumprod"])
@SETTINGS
@given(st.data())
def test_cumsum_cumprod(name: str, data: st.DataObject) -> None:
    kind = "cumsum" if name == "nancumsum" else "cumprod"
    values, layout, kwargs = _common(data, "prod" if kind == "cumprod" else "sum", tuples=False)
    kwargs |= _dtype_kwarg(data.draw, values, ["f8"])
    differential(name, values, layout, (), kwargs, kind)


@pytest.mark.parametrize("name", ["nanmedian", "median"])
@SETTINGS
@given(st.data())
def test_median(name: str, data: st.DataObject) -> None:
    values, layout, kwargs = _common(data)
    kwargs["keepdims"] = data.draw(st.booleans(), label="keepdims")
    kwargs["overwrite_input"] = layout != "readonly" and data.draw(st.booleans(), label="overwrite")
    differential(name, values, layout, (), kwargs, "quantile")


@SETTINGS
@given(st.data())
def test_nancount(data: st.DataObject) -> None:
    """nancount (not in NumPy) against ``np.sum(~np.isnan(a), ...)``."""
    values, layout, kwargs = _common(data)
    kwargs["keepdims"] = data.draw(st.booleans(), label="keepdims")
    a, owner = make_layout(values, layout)
    before = snapshot(owner)
    got = run(nanops.nancount, a, **kwargs)
    assert snapshot(owner) == before, "nancount modified its input"
    want = run(np.sum, ~np.isnan(values), **kwargs)
    if want.error is not None:
        assert got.error is not None and isinstance(got.error, public_class(want.error)), got.describe()
        return
    assert got.error is None, got.describe()
    assert np.asarray(got.value).dtype.kind in "iu" and np.shape(got.value) == np.shape(want.value)
    np.testing.assert_array_equal(got.value, want.value)


@st.composite
def quantile_q(draw: st.DrawFn) -> Any:
    """q as Python float/int, NumPy scalar, list or array of any shape;
    sometimes out of range or NaN."""
    unit = st.one_of(st.sampled_from([0.0, 0.5, 1.0, 0.25]), st.floats(0, 1), st.floats(0, 1))
    form = draw(st.sampled_from(["float", "float", "int", "np", "list", "array", "array", "bad"]))
    if form == "float":
        return draw(unit)
    if form == "int":
        return draw(st.sampled_from([0, 1]))
    if form == "np":
        return np.float64(draw(unit))
    if form == "list":
        return draw(st.lists(unit, max_size=4))
    if form == "array":
        return draw(hnp.arrays(np.float64, hnp.array_shapes(min_dims=0, max_dims=2, max_side=3),
                               elements=unit))
    return draw(st.sampled_from([-0.25, 1.5, np.nan, [0.5, 2.0]]))


def _percent(q: Any) -> Any:
    if isinstance(q, list):
        return [x * 100 for x in q]
    return q * 100


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name", ["nanquantile", "quantile", "nanpercentile", "percentile"])
@settings(SETTINGS, max_examples=25)
@given(st.data())
def test_quantile_percentile(name: str, method: str, data: st.DataObject) -> None:
    values, layout, kwargs = _common(data)
    q = data.draw(quantile_q(), label="q")
    if name.endswith("percentile"):
        q = _percent(q)
    kwargs["keepdims"] = data.draw(st.booleans(), label="keepdims")
    kwargs["method"] = method
    kwargs["overwrite_input"] = layout != "readonly" and data.draw(st.booleans(), label="overwrite")
    kind = "exact" if method in SELECTING else "quantile"
    differential(name, values, layout, (q,), kwargs, kind)


# ------------------------------------------------ accuracy beyond NumPy


@pytest.mark.numpy_difference
@SETTINGS
@given(st.data())
def test_narrow_floats_accumulate_wider(data: st.DataObject) -> None:
    """float16/float32/complex64 sums, means, variances are as accurate as a
    float64 computation rounded once to the result dtype (NumPy is not)."""
    name = data.draw(st.sampled_from(["nansum", "nanmean", "nanvar", "nanstd", "nancumsum"]))
    values = data.draw(gappy_arrays([np.float16, np.float32, np.complex64]), label="values")
    axis = data.draw(axes(values.ndim, tuples=name != "nancumsum"), label="axis")
    a, _ = make_layout(values, data.draw(st.sampled_from(LAYOUTS), label="layout"))
    got = run(getattr(nanops, name), a, axis=axis)
    if got.error is not None:
        assert isinstance(got.error, (ValueError, IndexError)), got.describe()  # a bad axis
        return
    out_dtype = np.asarray(got.value).dtype
    ref = reference(name, values, (), {"axis": axis}, got.value)
    acc = np.float32 if values.dtype == np.float16 else np.float64
    kind = {"nansum": "sum", "nanmean": "mean", "nanvar": "var", "nanstd": "std",
            "nancumsum": "cumsum"}[name]
    with np.errstate(all="ignore"):
        atol, _ = tolerance(kind, values, {"axis": axis}, ref, out_dtype, eps=eps_of(acc),
                            worst_case=True)
    atol = atol + 2 * float(np.finfo(out_dtype).smallest_subnormal)
    problem = mismatch(got.value, ref, atol=atol, rtol=float(np.finfo(out_dtype).eps))
    assert problem is None, f"{name}(<{values.dtype} {values.shape}>, axis={axis}): {problem}"


# ------------------------------------------------ large arrays, many tasks

_LARGE_SHAPE = (3, 40_000, 10)  # 1.2M values: split across tasks


@pytest.mark.parametrize("layout", ["C", "F", "T"])
@pytest.mark.parametrize("axis", [2, 1, 0, (0, 2)])
def test_large_arrays_every_output_written(layout: str, axis: Any) -> None:
    """Above the parallel threshold, outputs are written into a buffer left
    uninitialised (``par::reduce``) by several tasks, in plan order or
    scattered (layout "T": axes 0 and 1 swapped in memory). Every value must
    match NumPy, so no output can be skipped or written twice."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal(_LARGE_SHAPE)
    x[rng.random(_LARGE_SHAPE) < 0.1] = np.nan
    a = {
        "C": x,
        "F": np.asfortranarray(x),
        "T": np.ascontiguousarray(x.transpose(1, 0, 2)).transpose(1, 0, 2),
    }[layout]
    # nanargmax takes one axis, and raises for an all-NaN slice (axis 0 has some)
    arg = isinstance(axis, int) and not np.isnan(x).all(axis=axis).any()
    exact = ["nanmin", "nanmax", "nanmedian"] + (["nanargmax"] if arg else [])
    for name in ["nansum", "nanmean", "nanvar", *exact]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN slices
            got = getattr(nanops, name)(a, axis=axis)
            want = getattr(np, name)(x, axis=axis)
        assert got.shape == want.shape and got.dtype == want.dtype, name
        if name in exact:
            np.testing.assert_array_equal(got, want, err_msg=name)
        else:
            np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12, err_msg=name)


# Order statistics along a strided axis (axis 0 of a climate cube, a sensor
# table, an image stack) gather tiles of side-by-side lanes: tiles cut short
# by the end of the outputs and by a sliced view's rows, lanes long enough
# for the median's bracketing pass, all-NaN lanes (a land/sea mask), ±inf.
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shape", [(300, 7, 37), (1500, 45), (40, 3000), (64, 33, 31)])
def test_order_statistics_along_axis_0_match_numpy(dtype, shape) -> None:
    rng = np.random.default_rng(sum(shape))
    a = (rng.standard_normal(shape) * 10).astype(dtype)
    a[rng.random(shape) < 0.12] = np.nan
    a[rng.random(shape) < 0.01] = np.inf
    a[rng.random(shape) < 0.01] = -np.inf
    a[..., 4] = np.nan  # all-NaN lanes
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for view in (a, a[..., : shape[-1] - 3]):
            np.testing.assert_array_equal(nanops.nanmedian(view, axis=0), np.nanmedian(view, axis=0))
            np.testing.assert_array_equal(nanops.median(view, axis=0), np.median(view, axis=0))
            for method in ("linear", "lower", "nearest", "hazen"):
                q = [0.1, 0.5, 0.9]
                np.testing.assert_array_equal(
                    nanops.nanquantile(view, q, axis=0, method=method),
                    np.nanquantile(view, q, axis=0, method=method),
                )
