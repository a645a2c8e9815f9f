"""Group medians and quantiles (``group_nanmedian``, ``group_nanquantile``):
against a per-group loop over ``np.nanmedian``/``np.nanquantile`` (all 13
methods, weights with ``inverted_cdf``), over dtypes, layouts and axes; the
errors for bad ``q``, methods and weights."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from _support import make_layout
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nanops

METHODS = (
    "inverted_cdf", "averaged_inverted_cdf", "closest_observation",
    "interpolated_inverted_cdf", "hazen", "weibull", "linear", "median_unbiased",
    "normal_unbiased", "lower", "higher", "midpoint", "nearest",
)
LAYOUTS = ("C", "F", "strided", "negative", "transposed", "byteswapped", "unaligned")


def per_group(values: np.ndarray, labels: np.ndarray, axes: tuple[int, ...], num_labels: int,
              f: Any, nq: int | None) -> np.ndarray:
    """``f(one group's values, its weights' positions)`` for every output and group."""
    kept = [a for a in range(values.ndim) if a not in axes]
    moved = np.transpose(values, kept + list(axes))
    n_in = int(np.prod([values.shape[a] for a in axes], dtype=np.int64))
    flat = moved.reshape(moved.shape[: len(kept)] + (n_in,))
    lab = labels.reshape(-1)
    shape = flat.shape[:-1] + (num_labels,)
    out = np.empty(((nq,) if nq is not None else ()) + shape)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for idx in np.ndindex(flat.shape[:-1]):
            for g in range(num_labels):
                sel = lab == g
                out[(...,) + idx + (g,)] = f(flat[idx][sel], sel, idx)
    return out


@st.composite
def cases(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, Any, tuple[int, ...], int]:
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(0, 7), min_size=ndim, max_size=ndim)))
    dtype = draw(st.sampled_from(["float64", "float32", "int32"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    values = np.round(rng.standard_normal(shape) * 4, draw(st.sampled_from([0, 3])))
    if dtype != "int32":
        values[rng.random(shape) < draw(st.sampled_from([0.0, 0.3, 0.95]))] = np.nan
    values = values.astype(dtype)
    if ndim == 1 or draw(st.booleans()):
        axis: Any = draw(st.sampled_from([None, -1]))
        axes = tuple(range(ndim)) if axis is None else (ndim - 1,)
    else:
        axes = tuple(sorted(draw(st.sets(st.integers(0, ndim - 1), min_size=1))))
        axis = axes
    num_labels = draw(st.integers(1, 5))
    labels = rng.integers(-1, num_labels, size=tuple(shape[a] for a in axes))
    return values, labels, axis, axes, num_labels


def _close(got: np.ndarray, want: np.ndarray, dtype: np.dtype[Any]) -> None:
    tol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=tol, atol=tol, equal_nan=True)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=cases())
def test_median_against_a_per_group_loop(data: Any) -> None:
    values, labels, axis, axes, num_labels = data
    want = per_group(values, labels, axes, num_labels,
                     lambda v, _s, _i: np.nanmedian(v) if v.size else np.nan, None)
    got = nanops.group_nanmedian(values, labels, axis=axis, num_labels=num_labels)
    assert got.shape == want.shape
    _close(got, want, values.dtype)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=cases(), method=st.sampled_from(METHODS),
       q=st.one_of(st.floats(0, 1), st.lists(st.floats(0, 1), min_size=1, max_size=3)))
def test_quantile_against_a_per_group_loop(data: Any, method: str, q: Any) -> None:
    values, labels, axis, axes, num_labels = data
    qa = np.asarray(q, dtype=np.float64)
    want = per_group(
        values, labels, axes, num_labels,
        lambda v, _s, _i: (np.nanquantile(v.astype(np.float64), qa.reshape(-1), method=method)
                           if v.size else np.full(qa.size, np.nan)),
        qa.size,
    ).reshape(qa.shape + tuple(s for i, s in enumerate(values.shape) if i not in axes)
              + (num_labels,))
    got = nanops.group_nanquantile(values, labels, q, axis=axis, num_labels=num_labels,
                                   method=method)
    assert got.shape == want.shape
    _close(got, want, values.dtype)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=cases(), full=st.booleans(),
       q=st.lists(st.floats(0, 1), min_size=1, max_size=3))
def test_weighted_inverted_cdf_against_numpy(data: Any, full: bool, q: list[float]) -> None:
    values, labels, axis, axes, num_labels = data
    rng = np.random.default_rng(0)
    wshape = values.shape if full else labels.shape
    weights = rng.integers(1, 4, wshape).astype(np.float64)
    kept = [a for a in range(values.ndim) if a not in axes]
    n_in = int(np.prod([values.shape[a] for a in axes], dtype=np.int64))
    wflat = (np.transpose(weights, kept + list(axes)).reshape(
        tuple(values.shape[a] for a in kept) + (n_in,)) if full else weights.reshape(-1))

    def ref(v: np.ndarray, sel: np.ndarray, idx: tuple[int, ...]) -> np.ndarray:
        w = (wflat[idx] if full else wflat)[sel]
        ok = ~np.isnan(v.astype(np.float64))
        if not ok.any():
            return np.full(len(q), np.nan)
        return np.quantile(v[ok].astype(np.float64), q, method="inverted_cdf", weights=w[ok])

    want = per_group(values, labels, axes, num_labels, ref, len(q))
    got = nanops.group_nanquantile(values, labels, q, axis=axis, num_labels=num_labels,
                                   method="inverted_cdf", weights=weights)
    _close(got, want, values.dtype)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_any_layout_data_unchanged(layout: str) -> None:
    rng = np.random.default_rng(5)
    values = rng.standard_normal((4, 30))
    values[values > 1] = np.nan
    labels = rng.integers(-1, 6, 30)
    a, owner = make_layout(values, layout)
    before = owner.copy()
    got = nanops.group_nanquantile(a, labels, [0.1, 0.9], axis=1, method="hazen")
    want = nanops.group_nanquantile(values, labels, [0.1, 0.9], axis=1, method="hazen")
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(owner, before)


def test_large_groups_in_parallel_match_numpy() -> None:
    rng = np.random.default_rng(11)
    values = rng.standard_normal(400_000)
    values[::9] = np.nan
    labels = rng.integers(0, 7, values.size)
    got = nanops.group_nanmedian(values, labels)
    want = [np.nanmedian(values[labels == g]) for g in range(7)]
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("labels_order", ["sorted", "random"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_long_groups_sorted_or_random_labels_all_methods(labels_order: str, dtype: str) -> None:
    # long groups take the paths without a counting sort: sorted labels read
    # each group's run in place, random ones one bracketing pass
    rng = np.random.default_rng(5)
    n, groups = 60_000, 5
    values = (rng.standard_normal(n) * 100).round(1).astype(dtype)  # ties too
    labels = rng.integers(-1, groups, n)
    labels[labels == 3] = 2  # group 3 empty
    if labels_order == "sorted":
        labels.sort()
    values[rng.random(n) < 0.1] = np.nan
    values[labels == 4] = np.nan  # group 4 all NaN
    groups_values = [values[labels == g] for g in range(groups)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want_median = np.array([np.nanmedian(v) if v.size else np.nan for v in groups_values])
        np.testing.assert_array_equal(
            nanops.group_nanmedian(values, labels, num_labels=groups), want_median)
        q = [0.0, 0.1, 0.5, 0.9, 1.0]
        for method in METHODS:
            got = nanops.group_nanquantile(values, labels, q, num_labels=groups, method=method)
            want = np.stack([
                np.nanquantile(v.astype(np.float64), q, method=method) if v.size
                else np.full(len(q), np.nan)
                for v in groups_values
            ], axis=-1)
            _close(got, want, np.dtype(dtype))


def test_bad_arguments() -> None:
    v, lab = np.arange(4.0), np.array([0, 1, 0, 1])
    with pytest.raises(ValueError, match="range"):
        nanops.group_nanquantile(v, lab, 1.5)
    with pytest.raises(ValueError, match="not a valid method"):
        nanops.group_nanquantile(v, lab, 0.5, method="bogus")
    with pytest.raises(ValueError):
        nanops.group_nanquantile(v, lab, 0.5, weights=np.ones(4))  # linear takes no weights
    with pytest.raises(ValueError):
        nanops.group_nanquantile(v, lab, 0.5, method="inverted_cdf", weights=-np.ones(4))
    with pytest.raises(ValueError):
        nanops.group_nanquantile(v, lab, 0.5, method="inverted_cdf", weights=np.ones(3))
    with pytest.raises(TypeError):
        nanops.group_nanmedian(v.astype(complex), lab)
    with pytest.raises(TypeError):
        nanops.group_nanmedian(v, lab.astype(float))
