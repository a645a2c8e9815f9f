"""Duck arrays (issue H, part 1): an input nanops does not compute natively
(a dask or sparse array: anything with its own ``__array_function__``) is
handed to NumPy's function with only the arguments the caller gave, so the
call dispatches exactly as ``np.nan*`` would: the same result type, the same
values, and the same error where the array's library has no such function.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import nanops

# Every nanops function that stands in for a NumPy function of the same name,
# with the positional arguments after the array.
NUMPY_TWINS: dict[str, tuple[Any, ...]] = {
    "nansum": (),
    "nanprod": (),
    "nanmean": (),
    "nanvar": (),
    "nanstd": (),
    "nanmin": (),
    "nanmax": (),
    "nanargmin": (),
    "nanargmax": (),
    "nancumsum": (),
    "nancumprod": (),
    "nanmedian": (),
    "nanquantile": (0.25,),
    "nanpercentile": (75,),
    "median": (),
    "quantile": (0.25,),
    "percentile": (75,),
    "partition": (1,),
    "argpartition": (1,),
}

# Keyword sets a caller passes, each valid for the functions that take it.
CALLS: list[dict[str, Any]] = [
    {},
    {"axis": 0},
    {"axis": 1},
    {"axis": -1, "keepdims": True},
    {"axis": (0, 1)},
]

TAKES_TUPLE_AXIS = {"nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmin", "nanmax",
                    "nanmedian", "nanquantile", "nanpercentile", "median", "quantile",
                    "percentile"}
TAKES_KEEPDIMS = TAKES_TUPLE_AXIS | {"nanargmin", "nanargmax"}


def _values() -> np.ndarray:
    x = np.arange(24, dtype=np.float64).reshape(4, 6) - 7.5
    x[0, 1] = x[2, 4] = x[3, 0] = np.nan
    return x


def _same_outcome(ours: Any, theirs: Any) -> tuple[Any, Any] | None:
    """``(ours(), theirs())`` when both return a result of one type (the
    caller compares the values), None when both raise one exception class."""
    try:
        expected = theirs()
    except Exception as err:  # the library has no such function, or refuses the call
        with pytest.raises(type(err)):
            ours()
        return None
    got = ours()
    assert type(got) is type(expected)
    return got, expected


def _applicable(name: str, kwargs: dict[str, Any]) -> bool:
    if isinstance(kwargs.get("axis"), tuple) and name not in TAKES_TUPLE_AXIS:
        return False
    return not ("keepdims" in kwargs and name not in TAKES_KEEPDIMS)


@pytest.mark.parametrize("kwargs", CALLS, ids=repr)
@pytest.mark.parametrize("name", sorted(NUMPY_TWINS))
def test_dask_arrays_dispatch_as_numpy_does(
    name: str, kwargs: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    da = pytest.importorskip("dask.array")
    if not _applicable(name, kwargs):
        pytest.skip("NumPy's function does not take these arguments")
    # dask runs numbagg's nanmedian/nanquantile where numbagg is installed:
    # a numba compilation of ~20 s per process, the same on both sides, so
    # the tests let dask use NumPy's per chunk
    monkeypatch.setattr("dask.array.reductions.HAS_NUMBAGG", False, raising=False)
    x = da.from_array(_values(), chunks=(2, 3))
    args = NUMPY_TWINS[name]
    ours, theirs = getattr(nanops, name), getattr(np, name)
    if name in ("nanmedian", "nanquantile", "nanpercentile"):
        # nanops.dask computes these itself (an exact distributed selection, also
        # over axis=None where dask raises): NumPy on the computed array is the peer
        got = ours(x, *args, **kwargs)
        assert isinstance(got, da.Array)
        np.testing.assert_array_equal(got.compute(), theirs(_values(), *args, **kwargs))
        return
    outcome = _same_outcome(lambda: ours(x, *args, **kwargs), lambda: theirs(x, *args, **kwargs))
    if outcome is None:
        return
    got, expected = outcome
    if not isinstance(expected, da.Array):
        # dask has no such function: NumPy computes the array and answers
        np.testing.assert_array_equal(got, expected)
        return
    assert isinstance(got, da.Array)  # lazy, as NumPy's dispatch gives it
    got, expected = got.compute(), expected.compute()
    assert np.asarray(got).dtype == np.asarray(expected).dtype
    if (name in ("nanmin", "nanmax", "nanargmin", "nanargmax")
            or np.asarray(got).dtype.kind not in "fc"):
        np.testing.assert_array_equal(got, expected)  # selections and integers: exact
    else:
        # sums merged in another order than dask's: equal to the rounding
        eps = float(np.finfo(np.asarray(got).dtype).eps)
        np.testing.assert_allclose(got, expected, rtol=8 * eps, atol=0, equal_nan=True)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(expected))


@pytest.mark.parametrize("kwargs", CALLS[:4], ids=repr)
@pytest.mark.parametrize("name", sorted(NUMPY_TWINS))
def test_sparse_arrays_dispatch_as_numpy_does(name: str, kwargs: dict[str, Any]) -> None:
    sparse = pytest.importorskip("sparse")
    if not _applicable(name, kwargs):
        pytest.skip("NumPy's function does not take these arguments")
    x = sparse.COO.from_numpy(_values())
    args = NUMPY_TWINS[name]
    ours, theirs = getattr(nanops, name), getattr(np, name)
    outcome = _same_outcome(lambda: ours(x, *args, **kwargs), lambda: theirs(x, *args, **kwargs))
    if outcome is None:
        return
    got, expected = outcome
    dense = (lambda r: r.todense()) if hasattr(expected, "todense") else np.asarray
    np.testing.assert_array_equal(dense(got), dense(expected))


def test_every_numpy_twin_is_covered() -> None:
    twins = {name for name in nanops.__all__ if hasattr(np, name) and name != "__version__"}
    assert twins == set(NUMPY_TWINS)


def test_arguments_the_caller_gives_reach_the_array_library() -> None:
    da = pytest.importorskip("dask.array")
    x = da.from_array(_values(), chunks=2)
    got = nanops.nanvar(x, axis=0, ddof=1, dtype=np.float32)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got.compute(), np.nanvar(_values(), axis=0, ddof=1), rtol=1e-6)
    # an argument dask's function lacks is passed on, and refused as NumPy's
    # dispatch refuses it
    with pytest.raises(TypeError):
        nanops.nanmean(x, axis=0, where=np.ones((4, 6), bool))
    with pytest.raises(TypeError):
        np.nanmean(x, axis=0, where=np.ones((4, 6), bool))
