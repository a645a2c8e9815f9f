"""Bad input: every wrong argument gets NumPy's exception, never a crash.

One table (``TABLE``) of ``(function, args, kwargs)`` rows covers what a user
can get wrong with the 14 NaN functions: invalid, duplicate or mistyped axes;
arrays that are strings, ``None``, ragged nested lists or other non-numbers;
``q`` out of range or NaN; unknown methods; negative, mis-shaped or all-zero
weights; ``out`` of the wrong shape, dtype or type; non-inexact ``dtype``;
``ddof`` together with ``correction``; mis-shaped or non-boolean ``where``;
unknown keywords.  A second table (``EXTREME``) holds valid but unusual input:
0-d arrays, zero-size reduced axes, 32 dimensions, all axes as a tuple,
non-contiguous ``out``, integer and nested ``q``, object and bool arrays.

Each row calls NumPy's function and nanops' on fresh deep copies of the same
arguments and requires the same outcome: the very same exception class with a
non-empty message, or (when NumPy does not raise) the same warnings, result
type, dtype, shape and values.  The arguments must come back unmodified
(``out`` aside).

Crashes cannot be caught in-process: ``test_no_crash_in_a_subprocess`` runs
every row (and direct calls of the compiled primitives with garbage
arguments) in a child interpreter and requires a clean exit, so a segfault,
a Rust abort or a hang fails one test instead of killing the suite.  In the
main process a watchdog (``faulthandler``) ends a hung test with a traceback.
"""

from __future__ import annotations

import copy
import faulthandler
import pickle
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _support import Outcome, mismatch, run

import nanops

NAN = np.nan

REDUCTIONS = ("nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmin", "nanmax")
ARGS = ("nanargmin", "nanargmax")
CUMULATIVE = ("nancumsum", "nancumprod")
QUANTILES = ("nanquantile", "nanpercentile")
ORDER = ("nanmedian",) + QUANTILES
ALL = REDUCTIONS + ARGS + CUMULATIVE + ORDER
#: Functions with ``dtype=``.
WITH_DTYPE = ("nansum", "nanprod", "nanmean", "nanvar", "nanstd") + CUMULATIVE
#: Functions whose ``axis`` may be a tuple.
TUPLE_AXIS = REDUCTIONS + ORDER

A = np.array([[1.0, NAN, 3.0], [4.0, 5.0, NAN]])
A3 = np.arange(24.0).reshape(2, 3, 4)
A3[0, 1, 2] = NAN
ALL_NAN = np.array([[NAN, NAN], [1.0, NAN]])
BOOLS = np.array([[True, False, True], [False, False, True]])
INT8 = np.array([[1, -2, 3], [4, 5, -128]], dtype=np.int8)
HIGH_DIM = np.ones((1,) * 32)  # NumPy's maximum is 64 dimensions
HIGH_DIM[(0,) * 32] = 2.0
# Beyond the 32 dimensions the compiled primitives take (handed to NumPy).
DIMS_33 = np.ones((1,) * 33)
DIMS_64 = np.ones((2,) + (1,) * 63)
DIMS_64[1] = NAN


def _readonly(x: np.ndarray) -> np.ndarray:
    x = x.copy()
    x.setflags(write=False)
    return x


def _q(name: str) -> tuple[Any, ...]:
    """The positional ``q`` a function needs (none for the others)."""
    return {"nanquantile": (0.5,), "nanpercentile": (50,)}.get(name, ())


def _scale(name: str, q: Any) -> Any:
    """A quantile ``q`` (in [0, 1]) as the function takes it (percent for percentile)."""
    if name != "nanpercentile":
        return q
    if isinstance(q, np.ndarray):
        return q * 100 if q.dtype.kind == "f" else q
    if isinstance(q, (list, tuple)):
        return type(q)(_scale(name, v) for v in q)
    return q * 100 if isinstance(q, float) else q


def case(tag: str, name: str, *args: Any, **kwargs: Any) -> Any:
    return pytest.param(name, args, kwargs, id=f"{name}-{tag}")


def each(names: tuple[str, ...], tag: str, a: Any, **kwargs: Any) -> Iterator[Any]:
    """A row per function: ``f(a, [q,] **kwargs)``."""
    for name in names:
        yield case(tag, name, a, *_q(name), **kwargs)


def _bad_rows() -> Iterator[Any]:
    # --- axis ----------------------------------------------------------------
    yield from each(ALL, "axis-out-of-range", A, axis=2)
    yield from each(ALL, "axis-negative-out-of-range", A, axis=-3)
    yield from each(ALL, "axis-numpy-int-out-of-range", A, axis=np.int64(7))
    yield from each(ALL, "axis-huge-int", A, axis=2**70)
    yield from each(ALL, "axis-float", A, axis=1.0)
    yield from each(ALL, "axis-string", A, axis="0")
    yield from each(ALL, "axis-object", A, axis=object())
    yield from each(ALL, "axis-float-array", A, axis=np.array(1.0))
    yield from each(ALL, "axis-on-0d", np.array(3.0), axis=1)
    yield from each(ALL, "axis-on-0d-negative", np.array(3.0), axis=-2)
    yield from each(ALL, "axis-list", A, axis=[0, 1])
    yield from each(TUPLE_AXIS, "axis-duplicate", A, axis=(0, 0))
    yield from each(TUPLE_AXIS, "axis-duplicate-negative", A, axis=(1, -1))
    yield from each(TUPLE_AXIS, "axis-tuple-out-of-range", A, axis=(0, 2))
    yield from each(TUPLE_AXIS, "axis-tuple-of-floats", A, axis=(0.0, 1.0))
    yield from each(TUPLE_AXIS, "axis-tuple-with-none", A, axis=(0, None))
    yield from each(TUPLE_AXIS, "axis-duplicate-3d", A3, axis=(2, 0, -1))
    yield from each(ARGS + CUMULATIVE, "axis-tuple", A, axis=(0,))
    yield from each(ARGS + CUMULATIVE, "axis-tuple-2", A, axis=(0, 1))

    # --- the array itself ----------------------------------------------------
    yield from each(ALL, "a-string", "abc")
    yield from each(ALL, "a-list-of-strings", ["1.0", "2.0"])
    yield from each(ALL, "a-string-array", np.array(["a", "b"]))
    yield from each(ALL, "a-bytes", b"ab")
    yield from each(ALL, "a-none", None)
    yield from each(ALL, "a-list-with-none", [1.0, None, 3.0])
    yield from each(ALL, "a-ragged", [[1.0, 2.0], [3.0]])
    yield from each(ALL, "a-ragged-deep", [[1.0, [2.0, 3.0]], [4.0, 5.0]])
    yield from each(ALL, "a-ragged-empty", [[], [1.0]])
    yield from each(ALL, "a-dict", {"x": 1.0})
    yield from each(ALL, "a-set", {1.0, 2.0})
    yield from each(ALL, "a-object-strings", np.array(["a", 1.0], dtype=object))
    yield from each(ALL, "a-structured", np.zeros(3, dtype=[("x", "f8"), ("y", "i4")]))
    yield from each(ALL, "a-void", np.zeros(3, dtype="V4"))
    yield from each(ALL, "a-complex", np.array([1 + 1j, NAN, 2 - 1j]))
    yield from each(ALL, "a-datetime", np.array(["2020-01-01", "NaT"], dtype="M8[D]"))

    # --- q -------------------------------------------------------------------
    for name in QUANTILES:
        s = 100 if name == "nanpercentile" else 1
        yield case("q-above", name, A, 1.5 * s)
        yield case("q-below", name, A, -0.1 * s)
        yield case("q-tiny-above", name, A, np.nextafter(1.0, 2.0) * s)
        yield case("q-nan", name, A, NAN)
        yield case("q-inf", name, A, np.inf)
        yield case("q-minus-inf", name, A, -np.inf)
        yield case("q-list-one-bad", name, A, [0.5 * s, 2.0 * s])
        yield case("q-list-with-nan", name, A, [0.5 * s, NAN])
        yield case("q-array-nan-f32", name, A, np.array([NAN], dtype=np.float32))
        yield case("q-nested-one-bad", name, A, [[0.1 * s], [1.1 * s]])
        yield case("q-int-above", name, A, 2 * s)
        yield case("q-int-negative", name, A, -1)
        yield case("q-int8-array-negative", name, A, np.array([0, -1], dtype=np.int8))
        yield case("q-string", name, A, "0.5")
        yield case("q-none", name, A, None)
        yield case("q-complex", name, A, 0.5 + 0j)
        yield case("q-object-array", name, A, np.array([0.5, None], dtype=object))
        yield case("q-ragged", name, A, [[0.1, 0.2], [0.3]])
        yield case("q-empty-2d", name, A, np.empty((0, 2)))
        yield case("q-3d", name, A, np.full((2, 1, 2), 0.5 * s))
        yield case("q-missing", name, A)
        # --- method ----------------------------------------------------------
        yield case("method-unknown", name, A, 0.5 * s, method="no_such_method")
        yield case("method-wrong-case", name, A, 0.5 * s, method="Linear")
        yield case("method-none", name, A, 0.5 * s, method=None)
        yield case("method-int", name, A, 0.5 * s, method=1)
        yield case("method-empty", name, A, 0.5 * s, method="")
        yield case("interpolation-removed", name, A, 0.5 * s, interpolation="linear")
        # --- weights ---------------------------------------------------------
        w = np.ones_like(A)
        m = "inverted_cdf"
        yield case("w-negative", name, A, 0.5 * s, axis=1, method=m,
                   weights=np.array([[1.0, -1.0, 1.0], [1.0, 1.0, 1.0]]))
        yield case("w-negative-tiny", name, A, 0.5 * s, axis=0, method=m,
                   weights=np.array([1.0, -1e-300]))
        yield case("w-shape-no-axis", name, A, 0.5 * s, method=m, weights=np.ones(3))
        yield case("w-shape-wrong-axis", name, A, 0.5 * s, axis=1, method=m,
                   weights=np.ones(2))
        yield case("w-shape-2d-wrong", name, A, 0.5 * s, axis=1, method=m,
                   weights=np.ones((3, 2)))
        yield case("w-all-zero", name, A, 0.5 * s, axis=1, method=m,
                   weights=np.zeros_like(A))
        yield case("w-all-zero-flat", name, A, 0.5 * s, method=m, weights=np.zeros_like(A))
        yield case("w-zero-on-valid", name, A, 0.5 * s, axis=1, method=m,
                   weights=np.array([[0.0, 1.0, 0.0], [1.0, 1.0, 1.0]]))
        yield case("w-nan", name, A, 0.5 * s, axis=1, method=m,
                   weights=np.array([[1.0, 1.0, NAN], [1.0, 1.0, 1.0]]))
        yield case("w-inf", name, A, 0.5 * s, axis=1, method=m,
                   weights=np.array([[1.0, np.inf, 1.0], [1.0, 1.0, 1.0]]))
        yield case("w-linear-method", name, A, 0.5 * s, axis=1, weights=w)
        yield case("w-lower-method", name, A, 0.5 * s, axis=1, method="lower", weights=w)
        yield case("w-unknown-method", name, A, 0.5 * s, axis=1, method="nope", weights=w)
        yield case("w-strings", name, A, 0.5 * s, axis=1, method=m,
                   weights=np.array([["a"] * 3] * 2))
        yield case("w-complex", name, A, 0.5 * s, axis=1, method=m,
                   weights=w.astype(complex))
        yield case("w-ragged", name, A, 0.5 * s, axis=1, method=m,
                   weights=[[1.0, 1.0], [1.0]])
        yield case("w-with-bad-axis", name, A, 0.5 * s, axis=3, method=m, weights=w)
        yield case("w-with-duplicate-axes", name, A, 0.5 * s, axis=(1, 1), method=m,
                   weights=w)

    # --- out -----------------------------------------------------------------
    for name in ALL:
        q = _q(name)
        yield case("out-wrong-shape", name, A, *q, axis=0, out=np.empty(5))
        yield case("out-wrong-ndim", name, A, *q, axis=0, out=np.empty((1, 3)))
        yield case("out-list", name, A, *q, axis=0, out=[0.0, 0.0, 0.0])
        yield case("out-tuple", name, A, *q, axis=0, out=(np.empty(3),))
        yield case("out-readonly", name, A, *q, axis=0, out=_readonly(np.empty(3)))
        yield case("out-bool", name, A, *q, axis=0, out=np.empty(3, dtype=bool))
        yield case("out-string", name, A, *q, axis=0, out=np.empty(3, dtype="U3"))
    for name in REDUCTIONS + ("nanmedian",) + QUANTILES:
        q = _q(name)
        yield case("out-int", name, A, *q, axis=0, out=np.empty(3, dtype=np.int64))
        yield case("out-complex", name, A, *q, axis=0, out=np.empty(3, dtype=complex))
        yield case("out-scalar-shape", name, A, *q, out=np.empty(1))
    for name in ARGS:
        yield case("out-float", name, A, axis=0, out=np.empty(3))
        yield case("out-int8", name, A, axis=0, out=np.empty(3, dtype=np.int8))
    for name in CUMULATIVE:
        yield case("out-cum-flat-shape", name, A, out=np.empty((2, 3)))
        yield case("out-cum-axis-shape", name, A, axis=0, out=np.empty(6))
        yield case("out-cum-int", name, A, axis=0, out=np.empty((2, 3), dtype=np.int64))

    # --- dtype ---------------------------------------------------------------
    for name in WITH_DTYPE:
        yield case("dtype-unknown", name, A, dtype="no_such_dtype")
        yield case("dtype-string", name, A, dtype=str)
        yield case("dtype-object", name, A, dtype=object)
        yield case("dtype-datetime", name, A, dtype="M8[s]")
        yield case("dtype-instance", name, A, dtype=1.0)
    for name in ("nanmean", "nanvar", "nanstd"):
        yield case("dtype-int", name, A, dtype=np.int64)
        yield case("dtype-bool", name, A, dtype=bool)
        yield case("dtype-int-on-ints", name, INT8, dtype=np.int32)
        yield case("dtype-int-out-int", name, A, axis=0, dtype=np.int64,
                   out=np.empty(3, dtype=np.int64))
    for name in ("nanmin", "nanmax", "nanmedian") + QUANTILES + ARGS:
        yield case("dtype-not-a-parameter", name, A, *_q(name), dtype=np.float32)

    # --- ddof / correction ---------------------------------------------------
    for name in ("nanvar", "nanstd"):
        yield case("ddof-and-correction", name, A, ddof=1, correction=1)
        yield case("ddof-and-correction-zero", name, A, ddof=1, correction=0)
        yield case("ddof-and-correction-float", name, A, ddof=0.5, correction=0.5)
        yield case("ddof-string", name, A, ddof="1")
        yield case("ddof-none", name, A, ddof=None)
        yield case("ddof-list", name, A, ddof=[1])
        yield case("ddof-complex", name, A, ddof=1j)
        yield case("correction-string", name, A, correction="1")
        yield case("ddof-too-large", name, A, axis=1, ddof=5)
        yield case("ddof-equals-count", name, A, axis=0, ddof=2)
        yield case("ddof-negative", name, A, axis=1, ddof=-1)
        yield case("ddof-nan", name, A, axis=1, ddof=NAN)
        yield case("ddof-float", name, A, axis=1, ddof=0.5)
        yield case("mean-wrong-shape", name, A, axis=1, mean=np.zeros(5))
        yield case("mean-string", name, A, axis=1, keepdims=True, mean="x")

    # --- where ---------------------------------------------------------------
    for name in REDUCTIONS:
        init = {"initial": 0.0} if name in ("nanmin", "nanmax") else {}
        yield case("where-mis-shaped", name, A, where=np.ones((3, 2), bool), **init)
        yield case("where-too-many-dims", name, A, where=np.ones((2, 2, 3), bool), **init)
        yield case("where-ints", name, A, where=np.array([1, 0, 1]), **init)
        yield case("where-floats", name, A, where=np.array([1.0, 0.0, 1.0]), **init)
        yield case("where-string", name, A, where="yes", **init)
        yield case("where-none", name, A, where=None, **init)
        yield case("where-ragged", name, A, where=[[True], [True, False]], **init)
    for name in ("nanmin", "nanmax"):
        yield case("where-without-initial", name, A, where=np.array([True, False, True]))
        yield case("where-all-false-no-initial", name, A, where=False)
    for name in ARGS + CUMULATIVE + ORDER:
        yield case("where-not-a-parameter", name, A, *_q(name), where=True)

    # --- initial / keepdims / unknown keywords -------------------------------
    for name in ("nansum", "nanprod", "nanmin", "nanmax"):
        yield case("initial-string", name, A, initial="a")
        yield case("initial-array", name, A, axis=0, initial=np.ones(3))
        yield case("initial-none", name, A, initial=None)
        yield case("initial-list", name, A, initial=[1.0])
    for name in ("nanmean", "nanvar", "nanstd") + ARGS + CUMULATIVE + ORDER:
        yield case("initial-not-a-parameter", name, A, *_q(name), initial=0.0)
    for name in ALL:
        yield case("unknown-keyword", name, A, *_q(name), no_such_keyword=1)
        yield case("too-many-positional", name, A, *_q(name), *([None] * 9))
    for name in REDUCTIONS + ARGS + ORDER:
        yield case("keepdims-string", name, A, *_q(name), axis=0, keepdims="yes")
        yield case("keepdims-array", name, A, *_q(name), axis=0, keepdims=np.array([1, 0]))
    for name in ("nanmedian",) + QUANTILES:
        yield case("overwrite-input-string", name, A, *_q(name), overwrite_input="yes")

    # --- empty and all-NaN input where NumPy raises -------------------------
    for name in ("nanmin", "nanmax") + ARGS:
        yield case("empty", name, np.array([]))
        yield case("empty-2d-none", name, np.empty((0, 3)))
        yield case("empty-reduced-axis", name, np.empty((0, 3)), axis=0)
        yield case("empty-list", name, [])
    for name in ARGS:
        yield case("all-nan", name, np.array([NAN, NAN]))
        yield case("all-nan-slice", name, ALL_NAN, axis=1)
        yield case("all-nan-list", name, [NAN])
        yield case("all-nan-0d", name, np.array(NAN))


def _extreme_rows() -> Iterator[Any]:
    """Valid input at the edges: must give NumPy's result."""
    yield from each(ALL, "0d", np.array(3.0))
    yield from each(ALL, "0d-nan", np.array(NAN))
    yield from each(ALL, "0d-axis-0", np.array(3.0), axis=0)
    yield from each(ALL, "0d-axis-minus-1", np.array(3.0), axis=-1)
    yield from each(ALL, "numpy-scalar", np.float32(2.5))
    yield from each(ALL, "python-float", 2.5)
    yield from each(ALL, "python-int", 7)
    yield from each(ALL, "python-bool", True)
    yield from each(ALL, "python-complex", 1 + 2j)
    yield from each(ALL, "list", [1.0, NAN, 2.0])
    yield from each(ALL, "nested-list", [[1.0, NAN], [2.0, 3.0]])
    yield from each(ALL, "tuple", (1.0, NAN, 2.0))
    yield from each(ALL, "big-python-int", [2**70, 1])
    yield from each(ALL, "zero-size-kept-axis", np.empty((3, 0)), axis=0)
    yield from each(ALL, "zero-size-kept-axis-1", np.empty((0, 3)), axis=1)
    yield from each(ALL, "zero-size-both", np.empty((0, 0)), axis=0)
    yield from each(REDUCTIONS[:5] + CUMULATIVE + ORDER, "zero-size-reduced", np.empty((0, 3)),
                    axis=0)
    yield from each(REDUCTIONS[:5] + CUMULATIVE + ORDER, "zero-size-all", np.empty((0, 3)))
    yield from each(REDUCTIONS[:5] + CUMULATIVE + ORDER, "empty-list", [])
    yield from each(ALL, "32-dims", HIGH_DIM)
    yield from each(ALL, "32-dims-last-axis", HIGH_DIM, axis=31)
    yield from each(ALL, "32-dims-axis-minus-32", HIGH_DIM, axis=-32)
    yield from each(TUPLE_AXIS, "32-dims-all-axes", HIGH_DIM, axis=tuple(range(32)))
    yield from each(TUPLE_AXIS, "32-dims-all-axes-reversed", HIGH_DIM,
                    axis=tuple(range(-1, -33, -1)))
    yield from each(ALL, "33-dims", DIMS_33)
    yield from each(ALL, "33-dims-axis", DIMS_33, axis=-1)
    yield from each(ALL, "64-dims", DIMS_64)
    yield from each(ALL, "64-dims-axis-0", DIMS_64, axis=0)
    yield from each(TUPLE_AXIS, "64-dims-all-axes", DIMS_64, axis=tuple(range(64)))
    yield from each(TUPLE_AXIS, "all-axes", A3, axis=(0, 1, 2))
    yield from each(TUPLE_AXIS, "all-axes-shuffled", A3, axis=(2, -3, 1))
    yield from each(TUPLE_AXIS, "empty-axis-tuple", A3, axis=())
    yield from each(TUPLE_AXIS, "keepdims-all-axes", A3, axis=(0, 1, 2), keepdims=True)
    yield from each(ALL, "axis-numpy-int", A, axis=np.int8(1))
    yield from each(ALL, "axis-bool", A, axis=True)
    yield from each(ALL, "object-array", A.astype(object))
    yield from each(ALL, "object-array-axis", A.astype(object), axis=0)
    yield from each(ALL, "bool-array", BOOLS)
    yield from each(ALL, "bool-array-axis", BOOLS, axis=0)
    yield from each(ALL, "int8-array", INT8, axis=1)
    yield from each(ALL, "readonly", _readonly(A), axis=1)
    yield from each(ALL, "ndarray-of-lists", np.array([[1.0, 2.0], [3.0, NAN]]).tolist())
    yield from each(ALL, "all-nan-reductions", ALL_NAN[:1], axis=1)
    # non-contiguous out
    for name in REDUCTIONS + ARGS + ("nanmedian",) + QUANTILES:
        out = np.zeros(6, dtype=np.intp if name in ARGS else np.float64)[::2]
        yield case("out-non-contiguous", name, A, *_q(name), axis=0, out=out)
        yield case("out-0d", name, A, *_q(name),
                   out=np.zeros((), dtype=np.intp if name in ARGS else np.float64))
    for name in CUMULATIVE:
        yield case("out-non-contiguous", name, A, axis=1, out=np.zeros((2, 6))[:, ::2])
        yield case("out-fortran", name, A, axis=0, out=np.zeros((2, 3), order="F"))
    for name in ("nansum", "nanmean", "nanmin"):
        yield case("out-float32", name, A, axis=1, out=np.zeros(2, dtype=np.float32))
    # q edge cases
    for name in QUANTILES:
        pct = name == "nanpercentile"
        yield case("q-int8-array", name, A, np.array([0, 1], dtype=np.int8), axis=1)
        yield case("q-int8-array-percent", name, A,
                   np.array([0, 50, 100] if pct else [0, 1], dtype=np.int8), axis=1)
        yield case("q-uint8-0d", name, A, np.uint8(1), axis=0)
        yield case("q-bool", name, A, True)
        yield case("q-list-of-lists", name, A, _scale(name, [[0.1, 0.5], [0.9, 1.0]]),
                   axis=1)
        yield case("q-tuple", name, A, _scale(name, (0.25, 0.75)))
        yield case("q-empty-list", name, A, [])
        yield case("q-empty-array-axis", name, A, np.array([]), axis=1)
        yield case("q-ends", name, A, _scale(name, [0.0, 1.0]), axis=0)
        yield case("q-float32", name, A, _scale(name, np.array([0.3, 0.7], np.float32)))
        yield case("q-float16", name, A, _scale(name, np.float16(0.5)))
        yield case("q-fraction", name, A, _scale(name, 1 / 3), axis=1)
        yield case("q-readonly", name, A, _readonly(np.array(_scale(name, [0.5]))))
        for method in ("lower", "nearest", "hazen", "inverted_cdf", "averaged_inverted_cdf"):
            yield case(f"method-{method}", name, A, _scale(name, 0.4), axis=1, method=method)
        yield case("w-some-zero", name, A, _scale(name, 0.5), axis=1,
                   method="inverted_cdf", weights=np.array([[1.0, 0.0, 2.0], [0.0, 3.0, 1.0]]))
        yield case("w-int", name, A, _scale(name, 0.5), axis=1, method="inverted_cdf",
                   weights=np.array([[1, 2, 3], [4, 5, 6]]))
        yield case("w-all-zero-on-all-nan-slice", name, ALL_NAN, _scale(name, 0.5), axis=1,
                   method="inverted_cdf", weights=np.array([[0.0, 0.0], [1.0, 0.0]]))
    for name in ("nanvar", "nanstd"):
        yield case("ddof-larger-than-count", name, A, ddof=10)
        yield case("correction-only", name, A, axis=1, correction=1)
        yield case("ddof-numpy-int", name, A, axis=1, ddof=np.int8(1))
        yield case("mean-given", name, A, axis=1, keepdims=True,
                   mean=np.array([[2.0], [4.5]]))
    for name in REDUCTIONS:
        init = {"initial": -1.0} if name in ("nanmin", "nanmax") else {}
        yield case("where-broadcast", name, A, where=np.array([True, False, True]), **init)
        yield case("where-scalar-false", name, A, axis=0, where=False, **init)
    for name in ("nansum", "nanprod", "nanmin", "nanmax"):
        yield case("initial-numpy-scalar", name, A, axis=1, initial=np.float32(2.0))
        yield case("initial-int", name, INT8, axis=1, initial=3)
    for name in WITH_DTYPE:
        yield case("dtype-float32", name, A, axis=0, dtype=np.float32)
        yield case("dtype-complex", name, A, axis=0, dtype=complex)
        yield case("dtype-char", name, INT8, axis=0, dtype="f8")
    for name in ("nansum", "nanprod") + CUMULATIVE:
        yield case("dtype-int8-on-floats", name, A, axis=0, dtype=np.int8)
    for name in REDUCTIONS + ARGS + ORDER:
        yield case("keepdims-int", name, A, *_q(name), axis=0, keepdims=1)
        yield case("keepdims-numpy-bool", name, A, *_q(name), axis=1, keepdims=np.True_)
    for name in ("nanmedian",) + QUANTILES:
        yield case("overwrite-input", name, A.copy(), *_q(name), axis=0, overwrite_input=True)
    yield case("huge-int64-median", "nanmedian", np.array([2**62 + 1, 2**62 + 3, 2**62 + 5]))
    yield case("byteswapped", "nanmean", A.astype(">f8"), axis=1)
    yield case("unaligned", "nansum", np.frombuffer(b"\0" + A.tobytes(), dtype=np.float64,
                                                    offset=1).reshape(2, 3), axis=1)


TABLE = list(_bad_rows())
EXTREME = list(_extreme_rows())

# ---------------------------------------------------------------- machinery


@pytest.fixture(autouse=True)
def _watchdog() -> Iterator[None]:
    """End the process with a traceback if one row hangs (no pytest-timeout here)."""
    faulthandler.dump_traceback_later(120, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()


def _call(module: Any, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Outcome:
    """``module.name(*args, **kwargs)`` on deep copies.

    For nanops, checks that the arguments (``out`` aside) come back intact;
    NumPy may modify them (``overwrite_input=True``).
    """
    args, kwargs = copy.deepcopy((args, kwargs))
    before = _snapshot(args, kwargs)
    outcome = run(getattr(module, name), *args, **kwargs)
    if module is nanops:
        assert _snapshot(args, kwargs) == before, f"nanops.{name} modified its input arguments"
    return outcome


def _snapshot(args: tuple[Any, ...], kwargs: dict[str, Any]) -> bytes | None:
    """Pickled arguments except ``out`` (None when they cannot be pickled)."""
    kept = {k: v for k, v in kwargs.items() if k != "out"}
    try:
        return pickle.dumps((args, kept))
    except Exception:  # noqa: BLE001 - e.g. object() as an axis
        return None


def _values_match(got: Any, want: Any) -> str | None:
    g, w = np.asarray(got), np.asarray(want)
    if g.shape != w.shape:
        return f"shape {g.shape} != NumPy's {w.shape}"
    if g.dtype != w.dtype and g.dtype.newbyteorder("=") != w.dtype.newbyteorder("="):
        return f"dtype {g.dtype} != NumPy's {w.dtype}"
    if w.dtype.kind == "O":
        try:
            gf, wf = g.astype(np.complex128), w.astype(np.complex128)
        except (TypeError, ValueError):  # not numbers: a dict, a set, None
            return None if repr(g) == repr(w) else f"got {g!r}, NumPy {w!r}"
        return mismatch(gf, wf, rtol=1e-12)
    if w.dtype.kind in "fc":
        return mismatch(g, w, rtol=1e-12, atol=1e-300)
    return None if np.array_equal(g, w) else f"got {g!r}, NumPy {w!r}"


def _same_outcome(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    want = _call(np, name, args, kwargs)
    got = _call(nanops, name, args, kwargs)
    where = f"{name}(*{args!r}, **{kwargs!r})"
    if want.error is not None:
        assert got.error is not None, f"{where}: NumPy raised {want.describe()}, nanops {got.describe()}"
        assert type(got.error) is type(want.error), (
            f"{where}: NumPy {want.describe()}, nanops {got.describe()}"
        )
        assert str(got.error).strip(), f"{where}: empty exception message"
        return
    if got.error is not None:
        raise AssertionError(f"{where}: NumPy {want.describe()}, nanops {got.describe()}") from got.error
    assert got.warnings == want.warnings, (
        f"{where}: warnings: nanops {sorted(map(str, got.warnings))}, "
        f"NumPy {sorted(map(str, want.warnings))}"
    )
    g, w = got.value, want.value
    assert isinstance(g, np.ndarray) == isinstance(w, np.ndarray), (
        f"{where}: nanops returned {type(g).__name__}, NumPy {type(w).__name__}"
    )
    if "out" in kwargs and kwargs["out"] is not None and isinstance(w, np.ndarray):
        assert g.strides == w.strides, f"{where}: out not returned"
    problem = _values_match(g, w)
    assert problem is None, f"{where}: {problem}"


# ---------------------------------------------------------------- tests


@pytest.mark.parametrize("name, args, kwargs", TABLE)
def test_bad_input_raises_numpys_exception(name: str, args: tuple[Any, ...],
                                           kwargs: dict[str, Any]) -> None:
    _same_outcome(name, args, kwargs)


@pytest.mark.parametrize("name, args, kwargs", EXTREME)
def test_extreme_valid_input_matches_numpy(name: str, args: tuple[Any, ...],
                                           kwargs: dict[str, Any]) -> None:
    _same_outcome(name, args, kwargs)


# ---------------------------------------------------------------- documented differences


@pytest.mark.numpy_difference
@pytest.mark.parametrize("name", QUANTILES)
def test_weights_along_one_axis_work(name: str) -> None:
    """1-d weights along the reduced axis: NumPy 2.4 raises IndexError, nanops
    gives the result of the same weights broadcast to the array's shape."""
    q = _scale(name, 0.5)
    w = np.array([1.0, 2.0, 3.0])
    want = getattr(np, name)(A, q, axis=1, method="inverted_cdf",
                             weights=np.broadcast_to(w, A.shape))
    got = getattr(nanops, name)(A, q, axis=1, method="inverted_cdf", weights=w)
    np.testing.assert_array_equal(got, want)


# ---------------------------------------------------------------- the compiled primitives

_P = nanops._nanops
_Q = np.array([0.5])

#: Direct calls of the compiled primitives with arguments the Python layer
#: never passes: each must raise an ordinary exception (a Rust panic would be
#: pyo3's ``PanicException``, a ``BaseException``), never crash.
PRIMITIVE_CALLS: list[tuple[str, Any, type[Exception]]] = [
    ("axis out of range", lambda: _P.nansum(A, (5,)), np.exceptions.AxisError),
    ("axis beyond isize", lambda: _P.nansum(A, (2**64 - 1,)), np.exceptions.AxisError),
    ("axis beyond isize, median", lambda: _P.nanmedian(A, (2**63,), True),
     np.exceptions.AxisError),
    ("axis beyond usize", lambda: _P.nansum(A, (2**64,)), OverflowError),
    ("negative axis", lambda: _P.nanmean(A, (-1,)), OverflowError),
    ("duplicate axes", lambda: _P.nanvar(A, (0, 0), 0.0, False), ValueError),
    ("axes not a sequence", lambda: _P.nansum(A, None), TypeError),
    ("array not an ndarray", lambda: _P.nansum([1.0, 2.0], ()), TypeError),
    ("string dtype", lambda: _P.nansum(np.array(["a"]), ()), TypeError),
    ("object dtype", lambda: _P.nanmin(A.astype(object), ()), TypeError),
    ("ddof not a number", lambda: _P.nanvar(A, (1,), "x", False), TypeError),
    ("argmin axis out of range", lambda: _P.nanargmin(A, 5), np.exceptions.AxisError),
    ("argmin of empty", lambda: _P.nanargmax(np.array([]), None), ValueError),
    ("argmin all-NaN", lambda: _P.nanargmin(np.array([NAN]), 0), ValueError),
    ("cumsum axis out of range", lambda: _P.nancumsum(A, -5), np.exceptions.AxisError),
    ("min of empty", lambda: _P.nanmin(np.empty((0, 3)), (0,)), ValueError),
    ("q out of range", lambda: _P.nanquantile(A, np.array([2.0]), (1,), "linear", None, True),
     ValueError),
    ("q NaN", lambda: _P.nanquantile(A, np.array([NAN]), (1,), "linear", None, True),
     ValueError),
    ("q of ints", lambda: _P.nanquantile(A, np.array([1]), (1,), "linear", None, True),
     TypeError),
    ("unknown method", lambda: _P.nanquantile(A, _Q, (1,), "nope", None, True), ValueError),
    ("weights mis-shaped",
     lambda: _P.nanquantile(A, _Q, (1,), "inverted_cdf", np.ones((3, 2)), True), ValueError),
    ("weights negative",
     lambda: _P.nanquantile(A, _Q, (1,), "inverted_cdf", -np.ones((2, 3)), True), ValueError),
    ("weights all zero",
     lambda: _P.nanquantile(A, _Q, (1,), "inverted_cdf", np.zeros((2, 3)), True), ValueError),
    ("weights with linear",
     lambda: _P.nanquantile(A, _Q, (1,), "linear", np.ones((2, 3)), True), ValueError),
    ("unknown q dtype", lambda: _P.nanquantile(A, _Q, (1,), "linear", None, True, "zz"),
     ValueError),
    ("unknown result dtype",
     lambda: _P.nanquantile(A, _Q, (1,), "linear", None, True, "f8", "f1"), ValueError),
    ("narrower result than input",
     lambda: _P.nanquantile(A, _Q, (1,), "linear", None, True, "f8", "f2"), TypeError),
    ("median duplicate axes", lambda: _P.nanmedian(A, (1, 1), True), ValueError),
    # the Rust `numpy` crate panics on views of more than 32 dimensions
    ("33 dimensions", lambda: _P.nansum(DIMS_33, ()), ValueError),
    ("33 dimensions, argmin", lambda: _P.nanargmin(DIMS_33, None), ValueError),
    ("q of 33 dimensions",
     lambda: _P.nanquantile(A, np.full((1,) * 33, 0.5), (1,), "linear", None, True),
     ValueError),
    ("weights of 33 dimensions",
     lambda: _P.nanquantile(A, _Q, (1,), "inverted_cdf", np.ones((1,) * 33), True),
     ValueError),
]


@pytest.mark.parametrize("what, call, cls", PRIMITIVE_CALLS,
                         ids=[c[0] for c in PRIMITIVE_CALLS])
def test_primitives_raise_ordinary_exceptions(what: str, call: Any, cls: type) -> None:
    try:
        call()
    except Exception as exc:  # noqa: BLE001 - a PanicException is no Exception
        assert type(exc) is cls, f"{what}: {type(exc).__name__}: {exc}"
        assert str(exc).strip()
    else:
        raise AssertionError(f"{what}: no exception")


# ---------------------------------------------------------------- crashes, in a child process

#: Public calls on zero-stride views of 2**57 float64 (1 EiB, beyond any
#: address space): NumPy raises MemoryError at once; so must nanops (its
#: compiled code would abort the interpreter on a failed allocation).
_HUGE_CALLS = [
    "nanops.nancumsum(flat)",
    "nanops.nancumprod(wide, axis=1)",
    "nanops.nansum(flat, axis=())",
    "nanops.nanmean(wide, axis=0)",
    "nanops.nanmax(wide, axis=0)",
    "nanops.nanargmin(wide, axis=0)",
    "nanops.nanquantile(flat, 0.5)",
    "nanops.nanquantile(wide, [0.1, 0.9], axis=1)",
    "nanops.nanpercentile(wide, 50, axis=0)",
    "nanops.nanmedian(wide, axis=0)",
    "nanops.nanquantile(wide, 0.5, axis=1, method='inverted_cdf', weights=flat[:2**56])",
]

_CHILD = """
import sys, warnings
sys.path[:0] = {paths!r}
import numpy as np
import nanops
import test_bad_input as t

warnings.simplefilter("ignore")
rows = 0
for p in t.TABLE + t.EXTREME:
    name, args, kwargs = p.values
    try:
        getattr(nanops, name)(*args, **kwargs)
    except Exception:
        pass
    rows += 1
for what, call, cls in t.PRIMITIVE_CALLS:
    try:
        call()
    except Exception:
        pass
    rows += 1
flat = np.broadcast_to(np.float64(1.0), (2**57,))
wide = np.broadcast_to(np.float64(1.0), (2, 2**56))
for src in t._HUGE_CALLS:
    try:
        eval(src)
    except MemoryError:
        pass
    else:
        print("no MemoryError:", src)
        sys.exit(3)
    rows += 1
print("rows", rows)
"""


def test_no_crash_in_a_subprocess() -> None:
    """Every row above, and huge inputs, in a child interpreter: a segfault, an
    abort (a failed allocation in Rust) or a hang fails this test only."""
    paths = [str(Path(__file__).parent), str(Path(nanops.__file__).parent.parent)]
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(_CHILD.format(paths=paths))],
        capture_output=True, text=True, timeout=100,  # the watchdog fires at 120 s
    )
    tail = (proc.stdout + proc.stderr)[-3000:]
    assert proc.returncode == 0, f"child exited with {proc.returncode}:\n{tail}"
    expected = len(TABLE) + len(EXTREME) + len(PRIMITIVE_CALLS) + len(_HUGE_CALLS)
    assert f"rows {expected}" in proc.stdout, tail
