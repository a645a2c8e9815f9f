"""Odd but ordinary inputs (issue Q): axis tuples in reversed (any) order
and memory-mapped arrays (``np.load(path, mmap_mode="r")``, the usual way
to open a large array), for a few functions of every family — reductions,
order statistics, moving and exponential windows, fills, group-by, and
their dask forms.

A reversed tuple names the same axes: a reduction or an order statistic
gives NumPy's result (and the bits of the sorted tuple); a group-by reads
the labels and counts positions along the axes in the order given
(numbagg's rule, README "Differences from numbagg and pandas (group-by)"),
checked against a per-group loop written here. A memmap is the ndarray it
is: the bits of the in-memory call, as a plain ndarray (README, "Every
dtype NumPy's functions take works").
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _support import same_bits

import dask.array as da
import nanops
import nanops.dask


def _data(shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    """Distinct values (no ties for argmin/argmax/first/last), 15% NaN, one
    1e8 outlier and one tiny value."""
    rng = np.random.default_rng(seed)
    a = rng.permutation(math.prod(shape)).astype(np.float64).reshape(shape) / 7 - 3
    a[rng.random(shape) < 0.15] = np.nan
    a.flat[rng.integers(a.size)] = 1e8
    a.flat[rng.integers(a.size)] = 1.5e-300
    return a


def quiet(f: Callable[..., Any], *args: Any, **kw: Any) -> Any:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        return f(*args, **kw)


# --- reversed axis tuples ------------------------------------------------------

REDUCE: dict[str, tuple[Callable[..., Any], Callable[..., Any], dict[str, Any]]] = {
    "nansum": (nanops.nansum, np.nansum, {}),
    "nanmean": (nanops.nanmean, np.nanmean, {}),
    "nanvar": (nanops.nanvar, np.nanvar, {"ddof": 1}),
    "nanstd": (nanops.nanstd, np.nanstd, {}),
    "nanprod": (nanops.nanprod, np.nanprod, {}),
    "nanmin": (nanops.nanmin, np.nanmin, {}),
    "nanmax": (nanops.nanmax, np.nanmax, {}),
    "nanmedian": (nanops.nanmedian, np.nanmedian, {}),
    "nanquantile": (lambda a, axis, **k: nanops.nanquantile(a, [0.1, 0.5, 0.93], axis=axis, **k),
                    lambda a, axis, **k: np.nanquantile(a, [0.1, 0.5, 0.93], axis=axis, **k),
                    {"method": "weibull"}),
    "nanpercentile": (lambda a, axis, **k: nanops.nanpercentile(a, 37.5, axis=axis, **k),
                      lambda a, axis, **k: np.nanpercentile(a, 37.5, axis=axis, **k), {}),
}
REVERSED = [((1, 0), (0, 1)), ((2, 0), (0, 2)), ((2, 1, 0), (0, 1, 2)), ((-1, 0), (0, 2)),
            ((2, 1), (1, 2))]


@pytest.mark.parametrize("name", sorted(REDUCE))
@pytest.mark.parametrize("given, ordered", REVERSED)
def test_reductions_and_order_statistics_over_reversed_axes(name: str, given: tuple[int, ...],
                                                            ordered: tuple[int, ...]) -> None:
    ours, numpys, kw = REDUCE[name]
    a = _data((4, 5, 6))
    got = quiet(ours, a, axis=given, **kw)
    same_bits(np.asarray(got), np.asarray(quiet(ours, a, axis=ordered, **kw)))
    same_bits(np.asarray(quiet(ours, a, axis=given, keepdims=True, **kw)),
              np.asarray(quiet(ours, a, axis=ordered, keepdims=True, **kw)))
    want = quiet(numpys, a, axis=ordered, **kw)
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-13 * 1e8, equal_nan=True)


@pytest.mark.parametrize("name", ["nansum", "nanmean", "nanvar", "nanprod", "nanmax", "nanmedian",
                                  "nanskew", "nankurt"])
def test_dask_reductions_over_reversed_axes(name: str) -> None:
    a = _data((4, 5, 6), seed=1)
    x = da.from_array(a, chunks=(3, (2, 0, 3), 4))
    f = getattr(nanops, name)
    got = quiet(lambda: f(x, axis=(2, 0)).compute(scheduler="sync"))
    want = quiet(f, a, axis=(0, 2))
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12 * 1e8, equal_nan=True)


def _group_reference(stat: str, values: np.ndarray, labels: np.ndarray, axis: tuple[int, ...],
                     num_labels: int) -> np.ndarray:
    """Per group, NumPy on the group's values taken along ``axis`` in the
    order given (positions counted along that order)."""
    k = len(axis)
    moved = np.moveaxis(values, axis, range(values.ndim - k, values.ndim))
    kept = moved.shape[: values.ndim - k]
    flat = moved.reshape(kept + (-1,))
    lab = labels.reshape(-1)
    out = np.full(kept + (num_labels,), np.nan)
    for g in range(num_labels):
        pos = np.flatnonzero(lab == g)
        for idx in np.ndindex(kept):
            v = flat[idx][pos]
            ok = ~np.isnan(v)
            if stat == "sum":
                out[idx + (g,)] = math.fsum(v[ok])
            elif stat == "count":
                out[idx + (g,)] = ok.sum()
            elif not ok.any():
                continue
            elif stat == "mean":
                out[idx + (g,)] = math.fsum(v[ok]) / ok.sum()
            elif stat == "var":
                out[idx + (g,)] = np.var(v[ok], ddof=1) if ok.sum() > 1 else np.nan
            elif stat == "median":
                out[idx + (g,)] = np.median(v[ok])
            elif stat in ("first", "last"):
                out[idx + (g,)] = v[ok][0 if stat == "first" else -1]
            elif stat in ("argmin", "argmax"):
                out[idx + (g,)] = pos[getattr(np, f"nan{stat}")(v)]
    return out


@pytest.mark.parametrize("stat", ["sum", "mean", "var", "count", "first", "last", "argmin",
                                  "argmax", "median"])
@pytest.mark.parametrize("axis", [(1, 0), (2, 0), (2, 1, 0), (0, 2), (2, 1)])
def test_group_by_over_reversed_axes_follows_the_order_given(stat: str,
                                                             axis: tuple[int, ...]) -> None:
    rng = np.random.default_rng(3)
    values = _data((3, 4, 5), seed=2)
    labels = rng.integers(-1, 4, tuple(values.shape[i] for i in axis))
    got = quiet(getattr(nanops, f"group_nan{stat}"), values, labels, axis=axis, num_labels=4)
    want = _group_reference(stat, values, labels, axis, 4)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=1e-12, atol=1e-12 * 1e8,
                               equal_nan=True)


@pytest.mark.parametrize("stat", ["sum", "mean", "var", "median"])
def test_dask_group_by_over_reversed_axes(stat: str) -> None:
    rng = np.random.default_rng(4)
    values = _data((3, 4, 5), seed=5)
    labels = rng.integers(-1, 4, (5, 3))
    x = da.from_array(values, chunks=((2, 1), 4, (2, 0, 3)))
    fn = getattr(nanops, f"group_nan{stat}")
    got = quiet(lambda: fn(x, labels, axis=(2, 0), num_labels=4).compute(scheduler="sync"))
    want = _group_reference(stat, values, labels, (2, 0), 4)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12 * 1e8, equal_nan=True)


# --- memory-mapped input ------------------------------------------------------

CALLS: dict[str, Callable[[np.ndarray], Any]] = {
    # reductions and order statistics
    "nansum": lambda a: nanops.nansum(a, axis=(1, 0)),
    "nanvar": lambda a: nanops.nanvar(a, axis=0, ddof=1),
    "nanprod": lambda a: nanops.nanprod(a, axis=1),
    "nanskew": lambda a: nanops.nanskew(a, axis=1),
    "nankurt": lambda a: nanops.nankurt(a),
    "nanargmax": lambda a: nanops.nanargmax(a, axis=1),
    "nancumsum": lambda a: nanops.nancumsum(a, axis=0),
    "nanmedian": lambda a: nanops.nanmedian(a, axis=(1, 0)),
    "nanquantile": lambda a: nanops.nanquantile(a, [0.2, 0.7], axis=1, method="hazen"),
    # moving windows and fills
    "move_sum": lambda a: nanops.move_sum(a, 4, min_count=1),
    "move_std": lambda a: nanops.move_std(a, 5, min_count=2, axis=0, ddof=1),
    "move_median": lambda a: nanops.move_median(a, 3, min_count=1),
    "move_rank": lambda a: nanops.move_rank(a, 4, axis=0),
    "move_argmax": lambda a: nanops.move_argmax(a, 3, min_count=1),
    "move_corr": lambda a: nanops.move_corr(a, a[::-1], 4, min_count=2, axis=0),
    "ffill": lambda a: nanops.ffill(a, limit=2),
    "push": lambda a: nanops.push(a, None, axis=0),
    # exponential windows
    "move_exp_nanmean": lambda a: nanops.move_exp_nanmean(a, alpha=0.3, min_weight=0.2),
    "move_exp_nanvar": lambda a: nanops.move_exp_nanvar(a, alpha=np.linspace(0.1, 0.9, a.shape[0]),
                                                        axis=0),
    "move_exp_nancount": lambda a: nanops.move_exp_nancount(a, alpha=0.5, axis=(1,)),
    "move_exp_nancov": lambda a: nanops.move_exp_nancov(a, a[:, ::-1], alpha=0.4),
    # covariance and correlation matrices
    "nancovmatrix": lambda a: nanops.nancovmatrix(a),
    "move_corrmatrix": lambda a: nanops.move_corrmatrix(a, 3, min_count=2),
    "move_exp_nancovmatrix": lambda a: nanops.move_exp_nancovmatrix(a, 0.4),
    # group-by
    "group_nansum": lambda a: nanops.group_nansum(a, np.arange(a.shape[1]) % 3 - 1, axis=1),
    "group_nanvar": lambda a: nanops.group_nanvar(a, np.arange(a.shape[0]) % 2, axis=0),
    "group_nanfirst": lambda a: nanops.group_nanfirst(
        a, (np.arange(a.size) % 4).reshape(a.shape[::-1]), axis=(1, 0)),
    "group_nanmedian": lambda a: nanops.group_nanmedian(a, np.arange(a.shape[1]) % 3, axis=1),
    "group_nanquantile": lambda a: nanops.group_nanquantile(
        a, np.arange(a.shape[1]) % 2, [0.25, 0.5], axis=1, weights=np.ones(a.shape),
        method="inverted_cdf"),
}


@pytest.fixture(scope="module")
def mapped(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """memmaps (read-only, from ``np.load``) of a C and of a Fortran array,
    and a strided slice of one, each with its in-memory twin (of the same
    layout: a strided view is a strided view of an ndarray)."""
    root: Path = tmp_path_factory.mktemp("memmap")
    a = _data((12, 10), seed=6)
    out: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for name, arr in (("C", a), ("F", np.asfortranarray(a))):
        np.save(root / f"{name}.npy", arr)
        m = np.load(root / f"{name}.npy", mmap_mode="r")
        assert isinstance(m, np.memmap)
        out[name] = (m, np.array(arr))
    m = out["C"][0][::2, 1::2]
    assert isinstance(m, np.memmap)
    out["strided"] = (m, np.array(a)[::2, 1::2])  # the same strides in memory
    return out


@pytest.mark.parametrize("layout", ["C", "F", "strided"])
@pytest.mark.parametrize("name", sorted(CALLS))
def test_memmap_gives_the_bits_of_the_ndarray(mapped: Any, name: str, layout: str) -> None:
    m, a = mapped[layout]
    got = quiet(CALLS[name], m)
    want = quiet(CALLS[name], a)
    assert not isinstance(got, np.memmap), type(got)
    same_bits(np.asarray(got), np.asarray(want))


def test_dask_arrays_of_a_memmap(mapped: Any) -> None:
    """dask chunks of a memmap are memmaps: reductions, moving windows and
    group-by on them give what they give on the ndarray."""
    m, a = mapped["C"]
    x = da.from_array(m, chunks=(4, 3))
    labels = np.arange(a.shape[1]) % 3
    pairs: list[tuple[Any, Any]] = [
        (nanops.nanmean(x, axis=1), nanops.nanmean(a, axis=1)),
        (nanops.nanskew(x, axis=0), nanops.nanskew(a, axis=0)),
        (nanops.nanmedian(x, axis=(1, 0)), nanops.nanmedian(a, axis=(1, 0))),
        (nanops.dask.moving("move_mean", x, 3, min_count=1), nanops.move_mean(a, 3, min_count=1)),
        (nanops.group_nanmean(x, labels, axis=1), nanops.group_nanmean(a, labels, axis=1)),
    ]
    for got, want in pairs:
        np.testing.assert_allclose(quiet(got.compute, scheduler="sync"), want, rtol=1e-12,
                                   atol=1e-12 * 1e8, equal_nan=True)


# --- dask arrays of unknown chunk sizes ----------------------------------------

UNKNOWN: dict[str, Callable[[Any], Any]] = {
    "nansum": lambda a: nanops.nansum(a),
    "nanmean": lambda a: nanops.nanmean(a),
    "nanvar": lambda a: nanops.nanvar(a, ddof=1),
    "nanprod": lambda a: nanops.nanprod(a),
    "nanskew": lambda a: nanops.nanskew(a),
    "nanmedian": lambda a: nanops.nanmedian(a),
    "nanquantile": lambda a: nanops.nanquantile(a, 0.3),
    "move_sum": lambda a: nanops.move_sum(a, 2, min_count=1),
    "ffill": lambda a: nanops.ffill(a),
    "ffill_limit": lambda a: nanops.ffill(a, limit=1),
    "bfill": lambda a: nanops.bfill(a),
    "push": lambda a: nanops.push(a, None),
    "group_nansum": lambda a: nanops.group_nansum(a, np.arange(int(np.size(a))) % 2, num_labels=2),
}
VALUES = np.array([1.0, np.nan, 3.0, np.nan, np.nan, 6.0, 1e8, np.nan])
MASKS = {"no empty chunk": np.array([1, 0, 1, 1, 0, 1, 1, 1], bool),
         "an empty chunk": np.array([1, 1, 0, 0, 1, 1, 0, 1], bool)}


def _unknown(mask: np.ndarray) -> Any:
    x = da.from_array(VALUES, chunks=2)
    u = x[da.from_array(mask, chunks=2)]
    assert all(math.isnan(c) for c in u.chunks[0])
    return u


def _computes_or_says_so(name: str, mask: np.ndarray) -> None:
    """The in-memory result of the computed array, or a ``ValueError`` that
    says the chunk sizes are unknown (issue Q, 13)."""
    f = UNKNOWN[name]
    try:
        got = quiet(lambda: np.asarray(f(_unknown(mask)).compute(scheduler="sync")))
    except ValueError as error:
        assert "unknown" in str(error) and "compute_chunk_sizes" in str(error), repr(error)
        return
    want = quiet(f, VALUES[mask])
    np.testing.assert_allclose(got, want, rtol=1e-13, equal_nan=True)


@pytest.mark.parametrize("mask", sorted(MASKS))
@pytest.mark.parametrize("name", sorted(UNKNOWN))
def test_unknown_chunk_sizes_compute_or_say_so(name: str, mask: str) -> None:
    _computes_or_says_so(name, MASKS[mask])


@pytest.mark.parametrize("name", ["ffill", "bfill", "push"])
@pytest.mark.parametrize("mask", sorted(MASKS))
def test_fills_of_unknown_chunks_compute(name: str, mask: str) -> None:
    """A fill along an axis of unknown chunk sizes needs none of them: it
    computes, an empty chunk included (``ffill`` of ``[1, nan | | nan, 6]``
    gives ``[1, 1, 1, 6]``; it raised a broadcast error once), and equals the
    in-memory fill exactly."""
    got = np.asarray(UNKNOWN[name](_unknown(MASKS[mask])).compute(scheduler="sync"))
    np.testing.assert_array_equal(got, UNKNOWN[name](VALUES[MASKS[mask]]))


def test_fills_of_unknown_chunks_beside_the_axis_say_so() -> None:
    """Along an axis whose blocks' neighbours have unknown sizes the fill
    needs those sizes: nanops' "unknown" error."""
    u = _unknown(MASKS["no empty chunk"])
    grid = da.stack([u, u])  # unknown sizes along axis 1, filled along 0
    with pytest.raises(ValueError, match="compute_chunk_sizes"):
        nanops.ffill(grid, axis=0)
