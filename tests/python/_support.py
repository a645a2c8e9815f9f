"""Helpers shared by the differential tests: layouts, calls, comparisons.

Kept out of ``conftest.py`` so that tests import them explicitly
(``from _support import ...``; pytest puts this folder on ``sys.path``).
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import strategies as st

LAYOUTS = (
    "C", "F", "strided", "negative", "transposed",
    "byteswapped", "unaligned", "readonly",
)

# Floating-point-error warnings depend on evaluation order and are not part of
# the contract; the slice warnings ("Mean of empty slice", ...) and every other
# category are.
_FP_WARNING = re.compile(r"(overflow|invalid value|divide by zero|underflow) encountered")


def make_layout(values: np.ndarray, layout: str) -> tuple[np.ndarray, np.ndarray]:
    """A view holding ``values`` in the given memory layout, and its owner buffer.

    The view compares equal to ``values`` element by element; the owner lets a
    test check that no byte of the underlying memory (gaps included) changed.
    """
    shape, dtype = values.shape, values.dtype
    if layout == "C":
        a = np.array(values, order="C", copy=True)
        return a, a
    if layout == "F":
        a = np.array(values, order="F", copy=True)
        return a, a
    if layout == "strided":
        owner = np.zeros(tuple(2 * s for s in shape), dtype)
        every_other: tuple[Any, ...] = (..., *(slice(None, None, 2) for _ in shape))
        a = owner[every_other]
        a[...] = values
        return a, owner
    if layout == "negative":
        flip: tuple[Any, ...] = (..., *(slice(None, None, -1) for _ in shape))
        owner = np.array(values[flip], copy=True)
        return owner[flip], owner
    if layout == "transposed":
        owner = np.array(values.T, order="C", copy=True)
        return owner.T, owner
    if layout == "byteswapped":
        a = values.astype(dtype.newbyteorder())
        return a, a
    if layout == "unaligned":
        raw = np.zeros(values.nbytes + 1, np.uint8)
        a = raw[1:].view(dtype).reshape(shape)
        a[...] = values
        return a, raw
    if layout == "readonly":
        a = np.array(values, copy=True)
        a.setflags(write=False)
        return a, a
    raise ValueError(layout)


def snapshot(owner: np.ndarray) -> bytes:
    return np.ascontiguousarray(owner).view(np.uint8).tobytes()


@dataclass
class Outcome:
    value: Any
    error: BaseException | None
    warnings: frozenset[tuple[type, str]]

    def describe(self) -> str:
        if self.error is not None:
            return f"raised {type(self.error).__name__}: {self.error}"
        v = self.value
        return f"returned {type(v).__name__} dtype={getattr(v, 'dtype', None)} value={v!r}"


def run(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Outcome:
    """Call ``func`` and record its result or exception and its warnings."""
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        try:
            value, error = func(*args, **kwargs), None
        except Exception as exc:  # noqa: BLE001 - compared against NumPy's
            value, error = None, exc
    seen = frozenset(
        (w.category, str(w.message)) for w in rec if not _FP_WARNING.search(str(w.message))
    )
    return Outcome(value, error, seen)


def quiet(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return func(*args, **kwargs)


def public_class(exc: BaseException) -> type:
    """The first public class of ``exc`` (NumPy raises private subclasses)."""
    for cls in type(exc).__mro__:
        if cls.__module__ in ("builtins", "numpy.exceptions"):
            return cls
    return type(exc)


def assert_same_contract(got: Outcome, want: Outcome, where: str, *, check_type: bool = True) -> None:
    """Same exception class, warnings, result type, dtype and shape as NumPy.

    ``check_type=False`` skips the scalar-versus-0-d-array check (NumPy's
    weighted quantiles return 0-d arrays where the unweighted ones return
    scalars).
    """
    if want.error is not None:
        cls = public_class(want.error)
        assert got.error is not None, f"{where}: NumPy {want.describe()}, nanops {got.describe()}"
        assert isinstance(got.error, cls), (
            f"{where}: NumPy raised {cls.__name__}, nanops {got.describe()}"
        )
        return
    if got.error is not None:
        raise AssertionError(f"{where}: NumPy {want.describe()}, nanops {got.describe()}") from got.error
    assert got.warnings == want.warnings, (
        f"{where}: warnings differ: nanops {sorted(map(str, got.warnings))}, "
        f"NumPy {sorted(map(str, want.warnings))}"
    )
    g, w = got.value, want.value
    assert not check_type or isinstance(g, np.ndarray) == isinstance(w, np.ndarray), (
        f"{where}: nanops returned {type(g).__name__}, NumPy {type(w).__name__}"
    )
    # Byte order aside: NumPy's selecting quantiles of a byte-swapped array
    # return a byte-swapped result, an artefact nobody relies on.
    g_dtype, w_dtype = np.asarray(g).dtype, np.asarray(w).dtype
    assert g_dtype.newbyteorder("=") == w_dtype.newbyteorder("="), (
        f"{where}: dtype {g_dtype} != NumPy's {w_dtype}"
    )
    assert np.shape(g) == np.shape(w), f"{where}: shape {np.shape(g)} != NumPy's {np.shape(w)}"


def _complex_class(z: np.ndarray) -> np.ndarray:
    """0 finite, 1 NaN, 2 infinite."""
    inf = np.isinf(z.real) | np.isinf(z.imag)
    return np.where(inf, 2, np.where(np.isnan(z), 1, 0))


def _part_mismatch(g: np.ndarray, r: np.ndarray, atol: np.ndarray, rtol: float, top: float) -> str | None:
    """Compare two float64 arrays: same NaN/inf positions, finite ones close.

    An infinity is accepted against a finite value beyond ``top`` of the same
    sign (rounding at the overflow threshold of the result dtype).
    """
    gn, rn = np.isnan(g), np.isnan(r)
    if not np.array_equal(gn, rn):
        return f"NaN positions differ: got {g}, expected {r}"
    gi, ri = np.isinf(g), np.isinf(r)
    both = gi & ri
    if np.any(both & (np.sign(g) != np.sign(r))):
        return f"infinities differ: got {g}, expected {r}"
    edge = (gi ^ ri) & (np.sign(g) == np.sign(r)) & (np.maximum(abs(g), abs(r)) >= top)
    if np.any((gi ^ ri) & ~edge):
        return f"inf vs finite: got {g}, expected {r}"
    fin = ~(gn | gi | ri)
    err = np.abs(g - r, where=fin, out=np.zeros_like(g))
    bound = atol + rtol * np.abs(r, where=fin, out=np.zeros_like(r))
    bad = fin & ~(err <= bound)
    if np.any(bad):
        return (f"values differ beyond tolerance: got {g[bad]}, expected {r[bad]}, "
                f"|diff| {err[bad]} > bound {np.broadcast_to(bound, g.shape)[bad]}")
    return None


def mismatch(got: Any, ref: Any, *, atol: Any = 0.0, rtol: float = 0.0) -> str | None:
    """Why ``got`` differs from ``ref`` (None when it does not).

    Integer and bool results must be equal; inexact ones may differ by
    ``atol + rtol*|ref|`` per (real and imaginary) part.
    """
    with np.errstate(all="ignore"):
        return _mismatch(np.asarray(got), np.asarray(ref), atol, rtol)


def _mismatch(g: np.ndarray, r: np.ndarray, atol: Any, rtol: float) -> str | None:
    if g.shape != r.shape:
        return f"shape {g.shape} != {r.shape}"
    if g.dtype.kind not in "fc" and r.dtype.kind not in "fc":
        return None if np.array_equal(g, r) else f"got {g}, expected {r}"
    kind = np.result_type(g, r).kind
    dt = g.dtype if g.dtype.kind in "fc" else r.dtype
    top = float(np.finfo(dt).max) * (1 - 4 * float(np.finfo(dt).eps))
    at = np.broadcast_to(np.nan_to_num(np.asarray(atol, dtype=np.float64), nan=0.0), g.shape)
    if kind == "c":
        # C99 Annex G classes: a value with an infinite part is an infinity
        # (whatever the other part, NumPy's complex arithmetic often makes it
        # NaN); otherwise a value with a NaN part is NaN.
        g, r = g.astype(np.complex128), r.astype(np.complex128)
        g_cls, r_cls = _complex_class(g), _complex_class(r)
        if not np.array_equal(g_cls, r_cls):
            return f"NaN/infinity positions differ: got {g}, expected {r}"
        keep = r_cls == 0
        g, r = g[keep], r[keep]
        mag = np.abs(r)
        at = at[keep] + rtol * mag  # relative to |z|, not to each part
        return (_part_mismatch(g.real, r.real, at, 0.0, top)
                or _part_mismatch(g.imag, r.imag, at, 0.0, top))
    return _part_mismatch(g.astype(np.float64), r.astype(np.float64), at, rtol, top)


# --- products: values whose products overflow, underflow, or meet 0 · inf ---


def product_factors(rng: np.random.Generator, shape: Any, dtype: str) -> np.ndarray:
    """Values (of ``shape``) of magnitude 1e-300 … 1e300 (float32: 1e-38 … 1e38) of
    either sign, a few true zeros (of either sign), infinities and NaN
    among them; complex: parts drawn so, and values along the axes."""
    if dtype[0] in "iu":
        return rng.integers(-9 if dtype[0] == "i" else 0, 10, shape).astype(dtype)
    top = 38 if dtype in ("f4", "c8") else 300

    def real() -> np.ndarray:
        x = rng.choice([-1.0, 1.0], shape) * 10.0 ** rng.uniform(-top, top, shape)
        u = rng.random(shape)
        x[u < 0.04] = 0.0
        x[(u >= 0.04) & (u < 0.06)] = -0.0
        x[(u >= 0.06) & (u < 0.08)] = np.inf
        x[(u >= 0.08) & (u < 0.1)] = -np.inf
        x[(u >= 0.1) & (u < 0.2)] = np.nan
        return x

    if dtype[0] == "c":
        # parts set apart: 1j * inf is nan + infj in NumPy's arithmetic
        re, im, u = real(), real(), rng.random(shape)
        re[u > 0.8] = 0.0  # imaginary values, and real ones
        im[u < 0.2] = 0.0
        z = np.empty(shape, dtype)
        z.real, z.imag = re, im
        return z
    return real().astype(dtype)


def assert_same_products(got: np.ndarray, want: np.ndarray, rtol: float) -> None:
    """The same dtype and class per value (NaN, infinite, zero, finite: the
    class nanops' products keep exactly), the sign of real ones, finite
    nonzero values within ``rtol`` (beside subnormal rounding)."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
    np.testing.assert_array_equal(got == 0, want == 0)
    if want.dtype.kind == "f":
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    if want.dtype.kind in "fc":
        tiny = float(np.finfo(want.dtype).smallest_subnormal)
        regular = np.isfinite(want) & (want != 0)
        np.testing.assert_allclose(got[regular], want[regular], rtol=rtol, atol=2 * tiny)
    else:  # integers wrap alike in any order
        np.testing.assert_array_equal(got, want)


# --- extremes (issue Q): mixed magnitudes, lone outliers, overflow, chunkings ---
#
# Shared by the *_extremes tests: lanes of values that mix magnitudes, carry a
# lone outlier or overflow, chunkings with zero-size chunks, and the check of
# a float result against an exact value (``fractions.Fraction``) with a bound.

F64_EPS = float(np.finfo(np.float64).eps)
#: the unit roundoff of float64 and the smallest subnormal, exactly
UNIT = Fraction(1, 2**53)
TINY = Fraction(1, 2**1074)
#: the exact values that round to a finite float64 are those below this
OVERFLOW = Fraction(2**1024 - 2**970)
EXTREME_KINDS = ("magnitudes", "outlier", "overflow")
SPECIALS = (math.nan, math.inf, -math.inf)


@st.composite
def extreme_lanes(draw: Any, kinds: tuple[str, ...] = EXTREME_KINDS, min_size: int = 1,
                  max_size: int = 40, max_exp: int = 300,
                  specials: tuple[float, ...] = SPECIALS) -> np.ndarray:
    """A float64 lane: magnitudes ``1.5·10**e`` for ``|e| <= max_exp`` of
    either sign mixed ("magnitudes"), unit data with one or two outliers of
    1e8 (or 1e16) ("outlier"), values whose sums or squares overflow
    ("overflow"); then up to three of ``specials`` (NaN, ±inf) anywhere."""
    kind = draw(st.sampled_from(kinds), label="kind")
    n = draw(st.integers(min_size, max_size), label="n")
    if kind == "magnitudes":
        exps = draw(st.lists(st.integers(-max_exp, max_exp), min_size=n, max_size=n))
        signs = draw(st.lists(st.sampled_from((-1.0, 1.0)), min_size=n, max_size=n))
        vals = [s * 1.5 * 10.0 ** e for s, e in zip(signs, exps)]
    elif kind == "outlier":
        vals = draw(st.lists(st.floats(-3, 3, allow_nan=False), min_size=n, max_size=n))
        if n:
            for i in draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=2)):
                vals[i] = draw(st.sampled_from((1e8, -1e8, 1e16)))
    elif kind == "overflow":
        vals = draw(st.lists(st.sampled_from((1.7e308, -1.7e308, 1e308, 1e155, -1e155, 2e154,
                                              1.0, 2.5, -3.0)), min_size=n, max_size=n))
    else:
        raise ValueError(kind)
    if specials and n:
        for i in draw(st.lists(st.integers(0, n - 1), max_size=3)):
            vals[i] = draw(st.sampled_from(specials))
    return np.array(vals, dtype=np.float64)


@st.composite
def chunk_sizes(draw: Any, n: int, zeros: bool = True, max_chunks: int = 6) -> tuple[int, ...]:
    """A random cut of ``n`` positions into chunks, zero-size ones among
    them when ``zeros`` (dask takes ``(0,)`` for an empty axis)."""
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=max_chunks - 1)))
    sizes = [b - a for a, b in zip([0, *cuts], [*cuts, n])]
    if not zeros:
        sizes = [s for s in sizes if s] or [n]
    elif draw(st.booleans()):
        sizes.insert(draw(st.integers(0, len(sizes))), 0)
    return tuple(sizes)


def to_float(f: Fraction) -> float:
    """``f`` correctly rounded to float64 (±inf beyond the range)."""
    try:
        return float(f)
    except OverflowError:
        return math.inf if f > 0 else -math.inf


def within(got: float, exact: Fraction, tol: Fraction) -> bool:
    """Whether the float ``got`` is within ``tol`` of the exact value ``exact``
    (an infinity of its sign where ``|exact| + tol`` reaches the overflow
    threshold, so rounding at the edge of the range is allowed)."""
    if math.isnan(got):
        return False
    if math.isinf(got):
        return (got > 0) == (exact > 0) and abs(exact) + tol >= OVERFLOW
    return abs(Fraction(got) - exact) <= tol


def sqrt_fraction(v: Fraction) -> Fraction:
    """The square root of ``v >= 0`` as a Fraction, to about ``2**-100``
    relative (a float root of ``v`` scaled by a power of 4, then one Newton
    step), whatever the range of ``v``."""
    if v == 0:
        return Fraction(0)
    k = (v.numerator.bit_length() - v.denominator.bit_length()) // 2
    r = Fraction(math.sqrt(float(v / Fraction(4) ** k))) * Fraction(2) ** k
    return (r + v / r) / 2


def same_bits(got: np.ndarray, want: np.ndarray) -> None:
    """``got`` and ``want`` hold the same floats: equal values, NaN at the
    same places, the same sign of each zero (NaN payloads aside)."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype)
    np.testing.assert_array_equal(got, want)
    if got.dtype.kind == "f":
        np.testing.assert_array_equal(np.signbit(got) & ~np.isnan(got),
                                      np.signbit(want) & ~np.isnan(want))


def digest_in_subprocess(code: str, threads: int) -> str:
    """What ``code`` (Python, importing nanops, printing to stdout) prints in
    a fresh interpreter whose rayon pool has ``threads`` threads (rayon reads
    ``RAYON_NUM_THREADS`` once, when its pool starts)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    import nanops

    env = dict(os.environ)
    env["RAYON_NUM_THREADS"] = str(threads)
    root = str(Path(nanops.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout
