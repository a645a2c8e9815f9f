"""A moment NumPy lacks is one registry row: ``General(_moments.moment, prim)``
with ``fallback=UNSUPPORTED`` (``nanops._generate``).

The rows here are made up over a primitive of ``_nanops.nanvar``'s shape,
the population variance, so that every answer has a NumPy reference:
``moment`` must plan dtypes, axes, ``keepdims``, ``out`` and ``where``
exactly as ``nanvar``'s path does, and what it delegates must be refused
with NumPy's ``AxisError`` or a ``TypeError`` naming the function.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from numpy.exceptions import AxisError

import nanops
from nanops import _moments, _nanops
from nanops._generate import UNSUPPORTED, General, Row, build


def spread(a: np.ndarray, axes: tuple[int, ...], ddof: float) -> tuple[np.ndarray, bool]:
    """A primitive shaped like ``_nanops.nanvar``: ``(result, flag)``."""
    return _nanops.nanvar(a, axes, ddof, False)  # type: ignore[no-any-return]


ROW = Row(
    name="nanspread",
    signature="a, axis=None, dtype=None, out=None, keepdims=NoValue, *, where=NoValue, ddof=0.0",
    general=General(_moments.moment, spread),
    fallback=UNSUPPORTED,
    doc="""
    Variance again, as a moment NumPy lacks.

    Examples
    --------
    >>> 1
    1
    """,
)
nanspread = build(ROW, "nanops")

RNG = np.random.default_rng(7)
X = RNG.standard_normal((4, 5, 3))
X[RNG.random(X.shape) < 0.2] = np.nan


@pytest.mark.parametrize("dtype", ["f2", "f4", "f8", "i4", "u1", "?"])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2), ()])
@pytest.mark.parametrize("keepdims", [False, True])
def test_the_row_computes_as_nanvar(dtype: str, axis: Any, keepdims: bool) -> None:
    a = X.astype(dtype) if dtype[0] == "f" else np.abs(np.nan_to_num(X * 3)).astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = nanspread(a, axis=axis, keepdims=keepdims)
        want = nanops.nanvar(a, axis=axis, keepdims=keepdims)
    assert np.asarray(got).dtype == np.asarray(want).dtype
    assert type(got) is type(want)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64])
def test_dtype_and_out_as_nanvar(dtype: Any) -> None:
    got = nanspread(X, axis=1, dtype=dtype)
    assert got.dtype == dtype
    np.testing.assert_array_equal(got, nanops.nanvar(X, axis=1, dtype=dtype))
    out = np.empty((4, 3), dtype=dtype)
    assert nanspread(X.astype(np.float16), axis=1, out=out) is out
    np.testing.assert_array_equal(out, nanops.nanvar(X.astype(np.float16), axis=1, out=np.empty_like(out)))


def test_where_masks_floats_and_integers() -> None:
    mask = RNG.random(X.shape) < 0.7
    np.testing.assert_array_equal(
        nanspread(X, axis=0, where=mask), nanops.nanvar(X, axis=0, where=mask)
    )
    ints = np.nan_to_num(X * 10).astype(np.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = np.nanvar(np.where(mask, ints, np.nan), axis=(0, 1))
        got = nanspread(ints, axis=(0, 1), where=mask)
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_the_flag_warns_degrees_of_freedom_at_the_callers_line() -> None:
    a = np.array([[1.0, np.nan], [2.0, np.nan]])
    with pytest.warns(RuntimeWarning, match="Degrees of freedom <= 0 for slice.") as caught:
        got = nanspread(a, axis=0)
    assert caught[0].filename == __file__
    np.testing.assert_array_equal(got, [0.25, np.nan])


def test_complex_input_is_refused_by_name() -> None:
    with pytest.raises(TypeError, match="spread is defined for real input only"):
        nanspread(np.array([1 + 1j, 2]))


@pytest.mark.parametrize("axis", [3, -4, (0, 0), (1, 5)])
def test_bad_axes_get_numpys_error(axis: Any) -> None:
    with pytest.raises((AxisError, ValueError)) as info:
        nanspread(X, axis=axis)
    with pytest.raises(info.type):
        np.sum(X, axis=axis)


@pytest.mark.parametrize("call, shown", [
    (lambda: nanspread(np.ma.masked_array([1.0, 2.0], mask=[0, 1])),
     "a: MaskedArray of dtype float64"),
    (lambda: nanspread(np.array(["x", "y"], dtype=object)), "a: ndarray of dtype object"),
    (lambda: nanspread(X, dtype=np.int32), "dtype="),
    (lambda: nanspread(X, axis=0, out=np.empty(3)), "out=ndarray of dtype float64 and shape (3,)"),
    (lambda: nanspread(X, keepdims="yes"), "keepdims='yes'"),
    (lambda: nanspread(X, where=np.ones(4)), "where="),
])
def test_what_the_general_path_delegates_is_a_type_error(call: Any, shown: str) -> None:
    with pytest.raises(TypeError, match="nanops.nanspread does not support this call") as info:
        call()
    assert shown in str(info.value)
    assert "NumPy has no nanspread" in str(info.value)


def test_a_masked_array_is_told_to_convert_itself() -> None:
    with pytest.raises(TypeError, match="np.asarray"):
        nanspread(np.ma.masked_array([1.0, 2.0]))


def test_unsupported_row_builds_without_numpy_counterpart() -> None:
    assert not hasattr(np, "nanspread")
    assert repr(UNSUPPORTED) == "UNSUPPORTED"
    assert nanspread.__name__ == "nanspread" and "Variance again" in (nanspread.__doc__ or "")
