"""Exact where NumPy is exact, better where it is not: checked against exact
references, not against NumPy's rounding.

* Products (``nanprod``, ``nancumprod``) are exact in class: their sign and
  class (zero, finite, infinite) are those of the exact product, NaN only
  where a true zero meets an infinity; the finite ones are within rounding of
  the exact product (``fractions.Fraction``), for every float and complex
  dtype, layout and axis, over random mixes of 0, ±inf, NaN, tiny, huge and
  ordinary values.
* ``nanmin``/``nanmax`` of an all-NaN complex slice return its first NaN
  element as it is, as NumPy does (``nan+1j`` stays ``nan+1j``).
* The documented differences (README, "Differences from NumPy") hold, each
  against its exact value: complex ``nanmean`` with an infinite part, wider
  product accumulators, ``nanvar``/``nanstd`` with ``dtype=float64`` on
  narrow input, float32 ``nanstd`` beyond the float32 variance range.
* Byte-swapped float16 input gives NumPy's results (in native byte order).
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction
from typing import Any

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.lib.array_utils import normalize_axis_tuple

import nanops
from _support import LAYOUTS, make_layout

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
FLOATS = [np.float16, np.float32, np.float64]
COMPLEX = [np.complex64, np.complex128]
NAN, INF = np.nan, np.inf

# ------------------------------------------------------------------ values


def _palette(dtype: np.dtype) -> list[float]:
    """Zeros, infinities, NaN, and values whose products underflow and
    overflow the accumulator quickly: tiny and huge for the dtype."""
    info = np.finfo(dtype)
    tiny = float(info.tiny) * 4
    huge = float(info.max) / 4
    ordinary = [1.5, -0.75, 3.0, -2.0, 0.1, 7.25]
    return [0.0, -0.0, INF, -INF, NAN, tiny, -tiny, huge, -huge, *ordinary]


@st.composite
def product_arrays(draw: st.DrawFn, dtypes: list[Any]) -> np.ndarray:
    dtype = np.dtype(draw(st.sampled_from(dtypes)))
    ndim = draw(st.integers(0, 3))
    shape = tuple(draw(st.integers(1 if ndim else 0, 6)) for _ in range(ndim))
    real = np.dtype(dtype.char.lower()) if dtype.kind == "c" else dtype
    pal = _palette(real)
    # mostly ordinary values, with some specials at random positions
    weights = st.sampled_from(pal[5:] * 3 + pal[:5])
    if dtype.kind == "c":
        elem = st.builds(complex, weights, st.sampled_from([0.0, 0.0, 1.0, -2.5] + pal))
    else:
        elem = weights
    return draw(hnp.arrays(dtype, shape, elements=elem))


# -------------------------------------------------------- exact references


def _fraction(x: float) -> Fraction:
    return Fraction(float(x))


def exact_real_product(xs: np.ndarray) -> tuple[str, int, Fraction]:
    """(class, sign, |value|) of the exact product of the non-NaN ``xs``:
    class is "nan" (a zero times an infinity), "zero", "inf" or "finite"."""
    vals = [float(x) for x in xs.ravel() if not math.isnan(float(x))]
    sign = 1
    for v in vals:
        if math.copysign(1.0, v) < 0:
            sign = -sign
    zero = any(v == 0 for v in vals)
    inf = any(math.isinf(v) for v in vals)
    if zero and inf:
        return "nan", sign, Fraction(0)
    if zero:
        return "zero", sign, Fraction(0)
    if inf:
        return "inf", sign, Fraction(0)
    mag = Fraction(1)
    for v in vals:
        mag *= abs(_fraction(v))
    return "finite", sign, mag


def _tolerance(dtype: np.dtype, n: int) -> float:
    """Relative rounding of a product of ``n`` factors in nanops' accumulator
    (float32 for float16, float64 otherwise), then once to ``dtype``."""
    real = np.dtype(dtype.char.lower()) if dtype.kind == "c" else dtype
    acc = np.float32 if real == np.float16 else np.float64
    factor = 4 if dtype.kind == "c" else 1  # a complex product rounds in both parts
    return (n + 2) * factor * float(np.finfo(acc).eps) + float(np.finfo(real).eps)


def check_real(got: float, xs: np.ndarray, dtype: np.dtype, where: str) -> None:
    cls, sign, mag = exact_real_product(xs)
    n = int(xs.size)
    info = np.finfo(dtype)
    if cls == "nan":
        assert math.isnan(got), f"{where}: expected NaN (0 · inf), got {got!r}"
        return
    assert not math.isnan(got), f"{where}: NaN, expected class {cls}"
    if cls in ("zero", "inf"):
        want = 0.0 if cls == "zero" else INF
        assert abs(got) == want and math.copysign(1.0, got) == sign, (
            f"{where}: got {got!r}, expected {'-' if sign < 0 else '+'}{want}")
        return
    tol = _tolerance(dtype, n)
    # the exact value, rounded once to the result dtype (overflowing to inf,
    # underflowing to 0) up to the accumulated rounding
    if mag > Fraction(float(info.max)) * (1 + Fraction(tol)):
        assert got == sign * INF, f"{where}: got {got!r}, exact {float(mag):e} overflows"
        return
    if mag < Fraction(float(info.smallest_subnormal)) / 2 * (1 - Fraction(tol)):
        assert got == 0 and math.copysign(1.0, got) == sign, f"{where}: got {got!r}, exact underflows"
        return
    if mag > Fraction(float(info.max)) * (1 - Fraction(tol)):
        assert abs(got) == INF or abs(_fraction(abs(got)) - mag) <= mag * Fraction(tol), where
        return
    assert math.isfinite(got) and math.copysign(1.0, got) == sign, f"{where}: got {got!r}"
    err = abs(_fraction(abs(got)) - mag)
    bound = mag * Fraction(tol) + Fraction(float(info.smallest_subnormal))
    assert err <= bound, f"{where}: got {got!r}, exact {float(mag):.17g} (rel {float(err / mag):.3g})"


def exact_complex_product(xs: np.ndarray) -> tuple[str, tuple[Fraction, Fraction]]:
    """(class, value or direction) of the exact product of non-NaN complex
    ``xs``: a zero times an infinity is "nan"; with infinities, the result is
    the point at infinity in the direction of the product of the finite
    factors and of the infinite ones' directions (their infinite parts)."""
    vals = [complex(x) for x in xs.ravel() if not (math.isnan(x.real) or math.isnan(x.imag))]
    zero = any(v == 0 for v in vals)
    inf = any(math.isinf(v.real) or math.isinf(v.imag) for v in vals)
    if zero and inf:
        return "nan", (Fraction(0), Fraction(0))
    re, im = Fraction(1), Fraction(0)
    for v in vals:
        if math.isinf(v.real) or math.isinf(v.imag):
            a = Fraction(int(math.copysign(1, v.real))) if math.isinf(v.real) else Fraction(0)
            b = Fraction(int(math.copysign(1, v.imag))) if math.isinf(v.imag) else Fraction(0)
        elif v == 0:
            continue
        else:
            a, b = _fraction(v.real), _fraction(v.imag)
        re, im = re * a - im * b, re * b + im * a
    return ("inf" if inf else "zero" if zero else "finite"), (re, im)


def check_complex(got: complex, xs: np.ndarray, dtype: np.dtype, where: str) -> None:
    cls, (re, im) = exact_complex_product(xs)
    real = np.dtype(dtype.char.lower())
    info = np.finfo(real)
    tol = Fraction(_tolerance(dtype, int(xs.size)))
    if cls == "nan":
        assert math.isnan(got.real) and math.isnan(got.imag), f"{where}: got {got!r}, expected nan"
        return
    assert not (math.isnan(got.real) or math.isnan(got.imag)), f"{where}: got {got!r} ({cls})"
    if cls == "zero":
        assert got == 0, f"{where}: got {got!r}, expected 0"
        return
    norm2 = re * re + im * im
    if cls == "inf":
        # each part infinite where the exact direction has it, zero where it
        # has none; a part far below the other may go either way (rounding)
        for part, exact in ((got.real, re), (got.imag, im)):
            small = exact * exact <= norm2 * tol * tol
            if not small:
                assert math.isinf(part) and (part > 0) == (exact > 0), f"{where}: got {got!r}"
            else:
                assert part == 0 or math.isinf(part), f"{where}: got {got!r}"
        return
    big = Fraction(float(info.max))
    if norm2 > big * big * (1 - tol) ** 2:
        return  # at or past the overflow threshold: either class is within rounding
    if norm2 < Fraction(float(info.tiny)) ** 2:
        return  # in or near the subnormal range: parts rounded with absolute error
    for part in (got.real, got.imag):
        assert math.isfinite(part), f"{where}: got {got!r}, exact {float(re)}+{float(im)}j"
    err2 = (_fraction(got.real) - re) ** 2 + (_fraction(got.imag) - im) ** 2
    assert err2 <= norm2 * tol * tol, (
        f"{where}: got {got!r}, exact {float(re):.17g}+{float(im):.17g}j")


def check_product(got: Any, xs: np.ndarray, dtype: np.dtype, where: str) -> None:
    if dtype.kind == "c":
        check_complex(complex(got), xs, dtype, where)
    else:
        check_real(float(got), xs, dtype, where)


# ------------------------------------------------------------------- tests


@SETTINGS
@given(st.data())
def test_nanprod_is_exact_in_class(data: st.DataObject) -> None:
    values = data.draw(product_arrays(FLOATS + COMPLEX), label="values")
    layout = data.draw(st.sampled_from(LAYOUTS), label="layout")
    nd = values.ndim
    axis: Any = data.draw(st.one_of(
        st.none(),
        st.integers(-nd, nd - 1) if nd else st.none(),
        st.lists(st.integers(0, max(nd - 1, 0)), unique=True, max_size=nd).map(tuple),
    ), label="axis")
    a, _ = make_layout(values, layout)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = np.asarray(nanops.nanprod(a, axis=axis))
    assert got.dtype == values.dtype
    axes = tuple(range(nd)) if axis is None else normalize_axis_tuple(axis, nd) if nd else ()
    kept = [i for i in range(nd) if i not in axes]
    lanes = np.moveaxis(values, kept, list(range(len(kept)))).reshape(
        got.size, -1) if values.size or not got.size else np.zeros((got.size, 0), values.dtype)
    for j, (g, lane) in enumerate(zip(got.ravel(), lanes)):
        check_product(g, lane, values.dtype, f"nanprod {values.dtype} axis={axis} lane {j} {lane!r}")


@SETTINGS
@given(st.data())
def test_nancumprod_is_exact_in_class(data: st.DataObject) -> None:
    values = data.draw(product_arrays(FLOATS + COMPLEX), label="values")
    layout = data.draw(st.sampled_from(LAYOUTS), label="layout")
    nd = values.ndim
    axis = data.draw(st.integers(-nd, nd - 1) if nd else st.none(), label="axis")
    a, _ = make_layout(values, layout)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = np.asarray(nanops.nancumprod(a, axis=axis))
    assert got.dtype == values.dtype
    if axis is None:
        flat = values.reshape(-1)
        for i in range(flat.size):
            check_product(got[i], flat[: i + 1], values.dtype, f"nancumprod flat [{i}] {flat!r}")
        return
    lanes_in = np.moveaxis(values, axis, -1)
    lanes_out = np.moveaxis(got, axis, -1)
    for idx in np.ndindex(lanes_in.shape[:-1]):
        lane = lanes_in[idx]
        for i in range(lane.size):
            check_product(lanes_out[idx][i], lane[: i + 1], values.dtype,
                          f"nancumprod axis={axis} {idx} [{i}] {lane!r}")


def test_the_issue_examples() -> None:
    """The products named in the issue, with their exact answers."""
    assert nanops.nanprod(np.array([INF] + [1e-300] * 16)) == INF
    assert nanops.nanprod(np.array([0.0] + [1e300] * 16)) == 0.0
    # NumPy's running product overflows first and gives NaN here
    assert nanops.nanprod(np.array([1e300] * 16 + [0.0])) == 0.0
    np.testing.assert_array_equal(
        nanops.nancumprod(np.array([300, 300, 0], dtype=np.float16)),
        np.array([300, INF, 0], dtype=np.float16))
    with np.errstate(all="ignore"):
        assert np.isnan(np.cumprod(np.array([300, 300, 0], dtype=np.float16))[2])


@pytest.mark.parametrize("name", ["nanmin", "nanmax"])
@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_complex_all_nan_slices_give_their_first_nan(name: str, dtype: Any, axis: Any,
                                                     layout: str) -> None:
    """NumPy returns an all-NaN slice's first NaN element as it is: compare
    the bits of both parts, not just "is NaN"."""
    x = np.array([[complex(NAN, 1), complex(2, NAN), complex(NAN, NAN)],
                  [complex(1, 5), complex(NAN, -3), complex(0, 0)],
                  [complex(NAN, 7), complex(3, NAN), complex(NAN, 2)]], dtype=dtype)
    if axis is None:
        x = x[[0, 2]]  # all NaN
    a, _ = make_layout(x, layout)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = np.asarray(getattr(nanops, name)(a, axis=axis))
        want = np.asarray(getattr(np, name)(x, axis=axis))
    assert got.dtype == want.dtype and got.shape == want.shape
    parts = lambda z: np.stack([z.real, z.imag])  # noqa: E731
    np.testing.assert_array_equal(parts(got), parts(want))


@SETTINGS
@given(st.data())
def test_byteswapped_float16_gives_numpys_results(data: st.DataObject) -> None:
    """Byte-swapped float16 input: the same results as native input (which
    the differential tests compare with NumPy), in native byte order."""
    values = data.draw(hnp.arrays(np.float16, hnp.array_shapes(max_dims=3, max_side=6),
                                  elements=st.sampled_from([0.5, -1.0, 3.0, 100.0, NAN, INF])))
    swapped = values.astype(values.dtype.newbyteorder())
    name = data.draw(st.sampled_from(["nansum", "nanprod", "nanmean", "nanvar", "nanstd",
                                      "nanmin", "nanmax", "nanmedian", "nancumsum",
                                      "nancumprod", "nancount"]))
    axis = data.draw(st.sampled_from([None, 0, -1]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = np.asarray(getattr(nanops, name)(swapped, axis=axis))
        want = np.asarray(getattr(nanops, name)(values, axis=axis))
    assert got.dtype.isnative and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


# ---------------------------------------------- documented differences


def _exact_mean_var(xs: list[float], ddof: int = 0) -> tuple[Fraction, Fraction]:
    fs = [_fraction(x) for x in xs if not math.isnan(x)]
    mean = sum(fs, Fraction(0)) / len(fs)
    return mean, sum(((f - mean) ** 2 for f in fs), Fraction(0)) / (len(fs) - ddof)


@pytest.mark.numpy_difference
def test_complex_mean_with_an_infinite_part_keeps_the_other_part() -> None:
    """[inf+0j] → inf+0j (NumPy: inf+nanj, from complex division)."""
    assert nanops.nanmean(np.array([complex(INF, 0)])) == complex(INF, 0)
    got = nanops.nanmean(np.array([complex(INF, 1), complex(2, 3), complex(NAN, 0)]))
    assert math.isinf(got.real) and got.imag == 2.0


@pytest.mark.numpy_difference
@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_var_with_dtype_float64_is_float64_all_through(dtype: Any) -> None:
    """``dtype=float64`` on narrow input: deviations in float64, the exact
    variance within float64 rounding (NumPy rounds them to the input dtype)."""
    rng = np.random.default_rng(3)
    x = (rng.standard_normal(2000) * 30 + 1000).astype(dtype)
    x[::13] = NAN
    mean, var = _exact_mean_var([float(v) for v in x], ddof=1)
    got = nanops.nanvar(x, dtype=np.float64, ddof=1)
    assert got.dtype == np.float64
    assert abs(_fraction(got) - var) <= var * Fraction(1e-13)
    std = nanops.nanstd(x, dtype=np.float64, ddof=1)
    assert abs(float(std) - math.sqrt(var)) <= 1e-13 * math.sqrt(var)


@pytest.mark.numpy_difference
@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
def test_narrow_std_does_not_overflow_past_the_variance_range(dtype: Any) -> None:
    """float32/complex64 ``nanstd`` of values near 1e20: the variance (1e40)
    overflows float32, the standard deviation does not (NumPy: inf)."""
    x = np.array([1e20, -1e20, 3e20, NAN], dtype=dtype)
    _, var = _exact_mean_var([float(np.real(v)) for v in x])
    got = nanops.nanstd(x)
    assert got.dtype == np.float32 and math.isfinite(got)
    assert abs(float(got) - math.sqrt(var)) <= 2e-7 * math.sqrt(var)
    with np.errstate(all="ignore"):
        assert np.isinf(np.nanstd(x))
