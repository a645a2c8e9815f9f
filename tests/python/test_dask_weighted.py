"""Weighted quantiles of dask arrays without rechunking (issue H, item 4):
``nanops.nanquantile(dask_array, q, weights=w, method=...)`` for
``inverted_cdf`` and ``averaged_inverted_cdf`` is an exact distributed
selection (:mod:`nanops._dask_weighted`).

Every result is compared bit for bit (values, dtype, sign of zero) with
nanops on the computed array, and every error with nanops' error.
"""

from __future__ import annotations

import math
import warnings
from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.lib.array_utils import normalize_axis_tuple

import nanops

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")
pytest.importorskip("nanops.dask")

from nanops import _dask_order  # noqa: E402  (after the skips: needs dask's import)

METHODS = ("inverted_cdf", "averaged_inverted_cdf")


def _quiet(fn: Any, *args: Any, **kwargs: Any) -> Any:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        return fn(*args, **kwargs)


def _compute(lazy: Any) -> Any:
    return _quiet(lazy.compute, scheduler="synchronous")


def _first_slice_all_nan(values: np.ndarray, axis: Any) -> bool:
    axes = tuple(range(values.ndim)) if axis is None else normalize_axis_tuple(axis, values.ndim)
    lanes = np.moveaxis(values, axes, tuple(range(-len(axes), 0)))
    first = lanes.reshape(-1, math.prod(values.shape[i] for i in axes))[0]
    return values.dtype.kind == "f" and bool(np.isnan(first).all())


def _same(got: Any, want: Any, values: np.ndarray, axis: Any) -> None:
    got, want = np.asarray(got), np.asarray(want)
    if got.dtype != want.dtype:
        # nanops (as NumPy) gives a's dtype when the first slice is all-NaN;
        # the lazy result's dtype is fixed before the data are seen
        assert _first_slice_all_nan(values, axis), (got.dtype, want.dtype)
        got = got.astype(want.dtype)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def _check(name: str, values: np.ndarray, x: Any, q: Any, weights: Any, w_np: np.ndarray,
           **kwargs: Any) -> None:
    """The lazy result (or error) against nanops on the computed arrays."""
    try:
        want = _quiet(getattr(nanops, name), values, q, weights=w_np, **kwargs)
    except ValueError as err:
        # at call time (q, method, shapes) or at compute time (the weights' values)
        with pytest.raises(ValueError, match=str(err).replace(".", r"\.")):
            _compute(getattr(nanops, name)(x, q, weights=weights, **kwargs))
        return
    lazy = getattr(nanops, name)(x, q, weights=weights, **kwargs)
    if not (isinstance(weights, da.Array) and weights.chunks != x.chunks):
        assert not any("rechunk" in str(layer) for layer in lazy.dask.layers)
    _same(_compute(lazy), want, values, kwargs.get("axis"))


def _chunks(draw: Any, shape: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    out = []
    for n in shape:
        cuts = sorted(draw(st.sets(st.integers(1, max(n - 1, 1)), max_size=3)))
        edges = [0, *[c for c in cuts if 0 < c < n], n]
        out.append(tuple(b - a for a, b in zip(edges, edges[1:])))
    return tuple(out)


def _weights(rng: np.random.Generator, shape: tuple[int, ...], kind: str) -> np.ndarray:
    if kind == "int":
        return rng.integers(0, 6, shape)  # zeros included
    if kind == "dyadic":
        return rng.integers(0, 17, shape) / 8
    if kind == "float":
        return rng.random(shape)  # not exact: gathered
    w = rng.integers(1, 4, shape).astype(np.float64)  # "mix": some outputs gathered
    w.reshape(-1)[:: 3] = rng.random(w.reshape(-1)[:: 3].shape)
    return w


@st.composite
def _cases(draw: Any) -> dict[str, Any]:
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(1, 7), min_size=ndim, max_size=ndim)))
    dtype = draw(st.sampled_from(["f8", "f4", "f2", "i4", "?"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    pattern = draw(st.sampled_from(["none", "nan", "ties", "inf", "all-nan"]))
    values = rng.standard_normal(shape) * 10
    if pattern in ("ties", "inf"):
        values = np.round(values / 8)
    if dtype == "i4":
        values = values.astype(dtype)
    elif dtype == "?":
        values = values > 0
    else:
        if pattern != "none":
            values[rng.random(shape) < 0.25] = np.nan
        if pattern == "inf":
            values[rng.random(shape) < 0.15] = np.inf
            values[rng.random(shape) < 0.15] = -np.inf
        if pattern == "all-nan":
            values[..., 0] = np.nan
        values = values.astype(dtype)
    axis = draw(st.one_of(
        st.none(), st.integers(-ndim, ndim - 1),
        st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True).map(tuple)))
    form = draw(st.sampled_from(["full", "dask", "lane"]))
    axes = (tuple(range(ndim)) if axis is None
            else normalize_axis_tuple(axis, ndim))
    if form == "lane" and axis is None:
        form = "full"
    kind = draw(st.sampled_from(["int", "dyadic", "float", "mix"]))
    if form == "lane":
        w_arg = w_np = _weights(rng, tuple(shape[i] for i in axes), kind)
        if w_arg.shape != shape:  # (of a's shape, they are full-shape weights)
            w_np = np.broadcast_to(w_arg.transpose(np.argsort(axes)).reshape(
                tuple(n if i in axes else 1 for i, n in enumerate(shape))), shape)
    else:
        w_arg = w_np = _weights(rng, shape, kind)
    q = draw(st.sampled_from([
        0.0, 1.0, 0.5, 0.3, [0.0, 0.25, 0.25, 1.0], np.array([0.1, 0.9], np.float32),
        np.array([0.0, 0.5, 0.75, 1.0], np.float16), np.array(0.4), [0.5, 0.5],
        np.array([[0.2, 0.5, 0.2], [0.9, 0.0, 0.7]]), [[0.25], [0.75]]]))
    chunks = _chunks(draw, shape)
    x = da.from_array(values, chunks=chunks)
    if form == "dask":
        w_arg = da.from_array(w_np, chunks=chunks)
    return {"values": values, "x": x, "weights": w_arg, "w_np": w_np, "q": q, "axis": axis,
            "method": draw(st.sampled_from(METHODS)), "keepdims": draw(st.booleans()),
            "percent": draw(st.booleans()), "refine": draw(st.booleans())}


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(_cases())
def test_weighted_dask_quantiles_equal_nanops_bit_for_bit(case: dict[str, Any]) -> None:
    q = case["q"]
    name = "nanpercentile" if case["percent"] else "nanquantile"
    if case["percent"]:
        q = q * 100 if isinstance(q, np.ndarray) else (
            [v * 100 for v in q] if isinstance(q, list) else q * 100)
    # a gather bound of 6 values per bracket: refining passes on these small lanes
    gather = 6 if case["refine"] else _dask_order._GATHER
    with mock.patch.object(_dask_order, "_GATHER", gather):
        _check(name, case["values"], case["x"], q, case["weights"], case["w_np"],
               axis=case["axis"], method=case["method"], keepdims=case["keepdims"])


@pytest.mark.parametrize("method", METHODS)
def test_infinities_ties_and_exact_hits_of_the_target(method: str) -> None:
    # integer weights and q on multiples of 1/W: the cumulative weight lands
    # exactly on the target (averaged_inverted_cdf's mean of two values),
    # also between tied infinities (a NaN mean in nanops, kept here)
    rng = np.random.default_rng(3)
    values = rng.choice([-np.inf, -2.0, 0.0, -0.0, 1.0, np.inf, np.nan], (40, 6))
    weights = rng.integers(0, 4, values.shape)
    weights[0] = 1
    q = np.linspace(0, 1, 49)
    for chunks in ((1, 6), (7, 2), (40, 6)):
        x = da.from_array(values, chunks=chunks)
        for axis in (0, None, (0, 1)):
            _check("nanquantile", values, x, q, weights, weights, axis=axis, method=method)


def test_exact_and_gathered_outputs_side_by_side() -> None:
    rng = np.random.default_rng(4)
    values = rng.standard_normal((30, 8))
    values[rng.random(values.shape) < 0.2] = np.nan
    values[:, 2] = np.nan  # an all-NaN output
    weights = rng.integers(0, 5, values.shape).astype(np.float64)
    weights[:, 1] = rng.random(30)  # random floats: gathered
    weights[:, 3] = 2.0 ** -1074 * rng.integers(1, 9, 30)  # subnormal, exact
    weights[:, 4] = 2.0 ** 60 * rng.integers(1, 9, 30)  # huge, exact
    weights[:, 5] = rng.integers(1, 9, 30) + 2.0 ** 52  # total beyond 2**53: gathered
    weights[:, 6] = rng.integers(0, 3, 30) * 1e-3  # multiples of 1e-3: not dyadic
    x = da.from_array(values, chunks=(7, 3))
    for method in METHODS:
        for q in (0.5, [0.0, 0.1, 0.5, 0.9, 1.0], np.array([0.3, 0.6], np.float16)):
            _check("nanquantile", values, x, q, weights, weights, axis=0, method=method)
    lazy = nanops.nanquantile(x, 0.5, axis=0, method="inverted_cdf", weights=weights)
    with pytest.warns(RuntimeWarning, match="All-NaN slice encountered"):
        lazy.compute(scheduler="synchronous")


def test_float16_q_with_large_total_weights() -> None:
    # averaged_inverted_cdf rounds the total weight to q's type: float16
    # overflows above 65504 (those outputs are gathered)
    rng = np.random.default_rng(5)
    values = rng.standard_normal((50, 3))
    weights = rng.integers(0, 3000, values.shape)
    weights[:, 1] = rng.integers(0, 20, 50)
    x = da.from_array(values, chunks=(9, 2))
    for method in METHODS:
        for q in (np.array([0.0, 0.5, 1.0], np.float16), np.array([0.25], np.float32)):
            _check("nanquantile", values, x, q, weights, weights, axis=0, method=method)


def test_dtypes_and_result_dtypes() -> None:
    rng = np.random.default_rng(6)
    base = rng.standard_normal((12, 5)) * 20
    weights = rng.integers(0, 4, base.shape)
    weights[0] = 1
    for dtype in ("f8", "f4", "f2", "i8", "i2", "u1"):
        values = np.abs(base).astype(dtype)
        x = da.from_array(values, chunks=(5, 2))
        for method in METHODS:
            for q in (0.5, [0.2, 0.7], np.array([0.5], np.float32), np.float16(0.25)):
                _check("nanquantile", values, x, q, weights, weights, axis=0, method=method)
                _check("nanpercentile", values, x, 50, weights, weights, axis=1,
                       method=method, keepdims=True)


def test_weight_errors_are_nanops_errors() -> None:
    values = np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, np.nan], [4.0, 5.0, 6.0]])
    x = da.from_array(values, chunks=1)
    cases = {
        "negative where the value is NaN": [[1, -1, 1], [1, 1, 1], [1, 1, 1]],
        "NaN at a value": [[1, 1, np.nan], [1, 1, 1], [1, 1, 1]],
        "inf at a value": [[1, 1, 1], [1, 1, 1], [1, np.inf, 1]],
        "NaN and inf where the values are NaN": [[1, np.nan, 1], [np.inf, np.nan, 1],
                                                 [1, 1, 1]],
        "all zero": [[0, 1, 0], [1, 1, 1], [1, 1, 1]],
        "all zero where all is NaN": [[1, 1, 1], [0, 0, 0], [1, 1, 1]],
        "negative and NaN": [[1, 1, np.nan], [1, 1, 1], [1, 1, -2]],
    }
    for weights in cases.values():
        w = np.array(weights, np.float64)
        for method in METHODS:
            _check("nanquantile", values, x, [0.5, 0.1], w, w, axis=1, method=method)
            _check("nanquantile", values, x, 0.5, da.from_array(w, chunks=2), w, axis=1,
                   method=method)
    # call-time errors, as nanops raises them
    w = np.ones(3)
    with pytest.raises(ValueError, match="Only method 'inverted_cdf'"):
        nanops.nanquantile(x, 0.5, axis=1, weights=w)
    with pytest.raises(ValueError, match="Shape of weights"):
        nanops.nanquantile(x, 0.5, axis=1, weights=np.ones(4), method="inverted_cdf")
    with pytest.raises(TypeError, match="Axis must be specified"):
        nanops.nanquantile(x, 0.5, weights=w, method="inverted_cdf")
    with pytest.raises(ValueError, match="Quantiles must be in the range"):
        nanops.nanquantile(x, 1.5, axis=1, weights=w, method="inverted_cdf")
    with pytest.raises(ValueError, match="Percentiles must be in the range"):
        nanops.nanpercentile(x, -5, axis=1, weights=w, method="inverted_cdf")


def test_weights_along_several_axes_in_the_callers_order() -> None:
    rng = np.random.default_rng(7)
    values = rng.standard_normal((4, 5, 6))
    lane = rng.integers(1, 5, (6, 4))  # for axis=(2, 0)
    full = np.broadcast_to(lane.T[:, None, :], values.shape)
    x = da.from_array(values, chunks=(3, 2, 4))
    for method in METHODS:
        want = nanops.nanquantile(values, [0.3, 0.8], axis=(2, 0), weights=full, method=method)
        for w in (lane, da.from_array(lane, chunks=(4, 3))):
            got = _compute(nanops.nanquantile(x, [0.3, 0.8], axis=(2, 0), weights=w,
                                              method=method))
            _same(got, want, values, (2, 0))


def test_the_graph_has_no_rechunk_and_integer_weights_move_few_values() -> None:
    from dask.core import get

    rng = np.random.default_rng(8)
    values = rng.standard_normal((200, 50))
    values[rng.random(values.shape) < 0.1] = np.nan
    n_valid = int(np.count_nonzero(~np.isnan(values)))
    x = da.from_array(values, chunks=(20, 50))

    def moved(lazy: Any) -> tuple[int, int]:
        graph = dict(lazy.__dask_graph__())
        keys = [k for k in graph if isinstance(k, tuple) and "wquantile-select" in k[0]]
        assert len(keys) == 10  # one select task per chunk
        parts = get(graph, keys)
        inside = sum(e["values"].size for p in parts for g in p for e in g["inside"])
        gathered = sum(g["gathered"]["values"].size for p in parts for g in p)
        return inside, gathered

    for method in METHODS:
        for kind in ("int", "float"):
            w = rng.integers(1, 10, values.shape) if kind == "int" else rng.random(values.shape)
            for weights in (w, w[:, 0]):  # full shape; along the axis
                lazy = nanops.nanquantile(x, [0.1, 0.5, 0.9], axis=0, method=method,
                                          weights=weights)
                names = [str(layer) for layer in lazy.dask.layers]
                assert not any("rechunk" in n for n in names), names
                inside, gathered = moved(lazy)
                if kind == "int":
                    # three brackets per output: a fraction of the lanes
                    assert gathered == 0 and inside < n_valid // 4, (inside, n_valid)
                else:
                    assert inside == 0 and gathered == n_valid
                full = np.broadcast_to(weights if weights.ndim == 2 else weights[:, None],
                                       values.shape)
                want = nanops.nanquantile(values, [0.1, 0.5, 0.9], axis=0, method=method,
                                          weights=full)
                _same(_compute(lazy), want, values, 0)


def test_the_dask_module_functions_take_weights() -> None:
    from nanops import dask as nanops_dask

    rng = np.random.default_rng(11)
    values = rng.standard_normal((9, 4))
    weights = rng.integers(1, 4, 9)
    x = da.from_array(values, chunks=(4, 2))
    for name in ("nanquantile", "nanpercentile"):
        q = [0.3, 0.6] if name == "nanquantile" else [30, 60]
        got = _compute(getattr(nanops_dask, name)(x, q, axis=0, method="inverted_cdf",
                                                  weights=weights))
        want = getattr(nanops, name)(values, q, axis=0, method="inverted_cdf",
                                     weights=weights)
        _same(got, want, values, 0)


def test_calls_the_selection_does_not_take_still_equal_nanops() -> None:
    rng = np.random.default_rng(9)
    values = rng.standard_normal((6, 7))
    weights = rng.integers(1, 4, values.shape)
    x = da.from_array(values, chunks=(4, 3))
    # an empty q: the exact fallback (the reduced axes in one chunk)
    q = np.array([])
    lazy = nanops.nanquantile(x, q, axis=1, weights=weights, method="inverted_cdf")
    assert any("rechunk" in str(layer) for layer in lazy.dask.layers)
    want = nanops.nanquantile(values, q, axis=1, weights=weights, method="inverted_cdf")
    _same(_compute(lazy), want, values, 1)
    # axis=(): nothing to join, nanops per block
    got = _compute(nanops.nanquantile(x, 0.5, axis=(), weights=weights, method="inverted_cdf"))
    _same(got, nanops.nanquantile(values, 0.5, axis=(), weights=weights,
                                  method="inverted_cdf"), values, ())


def test_two_dimensional_q_and_bool_input_need_no_rechunk() -> None:
    rng = np.random.default_rng(10)
    values = rng.standard_normal((6, 40))
    weights = rng.integers(0, 4, values.shape)
    weights[:, 0] = 1
    x = da.from_array(values, chunks=(4, 9))
    q = np.array([[0.2, 0.5, 0.2], [0.7, 0.9, 0.0]])
    for v, lazy_x in ((values, x), (values > 0.3, x > 0.3)):
        lazy = nanops.nanquantile(lazy_x, q, axis=1, weights=weights, method="inverted_cdf")
        assert not any("rechunk" in str(layer) for layer in lazy.dask.layers)
        assert any("nanops-wquantile" in str(layer) for layer in lazy.dask.layers)
        want = nanops.nanquantile(v, q, axis=1, weights=weights, method="inverted_cdf")
        assert want.shape == (2, 3, 6) and lazy.shape == want.shape
        got = _compute(lazy)
        assert got.dtype == want.dtype == lazy.dtype
        _same(got, want, v, 1)


def test_long_lanes_take_refining_passes_and_send_little() -> None:
    from nanops import _dask_weighted

    rng = np.random.default_rng(12)
    # a few ties (copies of a value inside a bracket each travel with their weight)
    values = np.round(rng.standard_normal((2, 600_000)) * 100_000)
    values[rng.random(values.shape) < 0.1] = np.nan
    values[0, rng.random(600_000) < 0.01] = np.inf
    weights = rng.integers(0, 5, values.shape)
    chunk = 150_000
    axes = (1,)
    plan = nanops.dask._weighted_plan("nanquantile", values, 0.5, "inverted_cdf",
                                      np.dtype(np.float64))
    assert plan is not None
    plan = {**plan, "lane_len": values.shape[1]}
    k, k_refine, rounds = _dask_order.passes(chunk, 1, _dask_order.grid_size(2 * chunk, 1))
    assert rounds == 1 and k + 1 <= _dask_order._GATHER
    parts = [(values[:, i:i + chunk], weights[:, i:i + chunk])
             for i in range(0, values.shape[1], chunk)]
    group = [slice(0, 2)]
    stats = [_dask_weighted._stats(x, w, axes, k, group)[0] for x, w in parts]
    brackets = _dask_weighted._brackets(stats, plan)
    assert brackets["exact"].all()
    refined = [_dask_weighted._refine(x, w, axes, k_refine, [brackets])[0] for x, w in parts]
    narrowed = _dask_weighted._rebracket(refined, brackets)

    def select(b: dict[str, Any]) -> list[dict[str, Any]]:
        return [_dask_weighted._select(x, w, axes, (values.shape[1],), (i * chunk,), [b])[0]
                for i, (x, w) in enumerate(parts)]

    selected = select(narrowed)
    per_pass = [sum(s["grid"].size for s in stats),
                sum(c["grid"].size for r in refined for c in r),
                sum(e["values"].size for s in selected for e in s["inside"])]
    # outputs (2) × brackets (1) × chunks (4) × the bound, in every pass
    assert max(per_pass) <= 2 * 1 * len(parts) * _dask_order._GATHER, per_pass
    unrefined = sum(e["values"].size for s in select(brackets) for e in s["inside"])
    assert unrefined > 4 * per_pass[2], (unrefined, per_pass)
    got = _dask_weighted._finish(selected, narrowed, plan)  # (width, outputs)
    want = nanops.nanquantile(values, 0.5, axis=1, weights=weights, method="inverted_cdf")
    np.testing.assert_array_equal(got[0], want)
    # and the whole graph on the lazy arrays
    x = da.from_array(values, chunks=(1, chunk))
    lazy = nanops.nanquantile(x, 0.5, axis=1, weights=weights, method="inverted_cdf")
    assert any("nanops-wquantile-refine0" in str(key) for key in lazy.dask.keys())
    np.testing.assert_array_equal(_compute(lazy), want)


def test_lowest_set_bit_exponent_of_weights() -> None:
    from fractions import Fraction

    from nanops._dask_weighted import _lowest_bit_exponent

    rng = np.random.default_rng(10)
    w = np.concatenate([rng.random(50), rng.integers(1, 2**53, 20).astype(np.float64),
                        2.0 ** rng.integers(-1074, 1023, 20), [5e-324, 3 * 5e-324, 2.0**-1022,
                        np.finfo(np.float64).max, 0.75, 1.0, 6.0]])

    def slow(v: float) -> int:  # the largest e with v / 2**e an integer
        f, e = Fraction(v), max(math.frexp(v)[1] - 53, -1074)  # v is a multiple of 2**e
        while (f / Fraction(2) ** (e + 1)).denominator == 1:
            e += 1
        return e

    np.testing.assert_array_equal(_lowest_bit_exponent(w), [slow(float(v)) for v in w])
