"""Weighted quantiles: ``weights=`` with ``inverted_cdf`` (as NumPy) and with
``averaged_inverted_cdf`` (beyond NumPy).

``inverted_cdf`` is compared with NumPy given the same weights broadcast to the
full shape of ``a`` (NumPy's ``nanquantile`` fails with an ``IndexError`` on
1-D or axis-shaped weights of an N-d array, a NumPy bug we do not copy).

``averaged_inverted_cdf`` is compared with a brute-force reference: repeat each
value by its integer weight (0..4) and apply NumPy's unweighted
``averaged_inverted_cdf``. With dyadic q (k/16) the target ``q * total`` is
exact, so "a cumulative weight exactly equal to the target" is well defined.
"""

from __future__ import annotations

from typing import Any, Final

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.lib.array_utils import normalize_axis_tuple

import nanops
from _support import assert_same_contract, mismatch, quiet, run

AIC: Final = "averaged_inverted_cdf"
FUNCS = ["nanquantile", "nanpercentile", "quantile", "percentile"]
UNWEIGHTED_ONLY = [
    "closest_observation", "interpolated_inverted_cdf", "hazen", "weibull", "linear",
    "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint", "nearest",
]
SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------------ inputs


@st.composite
def weighted_problems(draw: st.DrawFn) -> dict[str, Any]:
    """a (with NaN), integer weights 0..4 in one of NumPy's accepted forms,
    axis (None / int / tuple), keepdims and a dyadic q (scalar or array)."""
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.integers(1, 6)) for _ in range(ndim))
    dtype = draw(st.sampled_from([np.float64, np.float64, np.float32, np.int64]))
    ties = draw(st.booleans())
    elems = st.integers(0, 9) if ties else st.integers(-10**6, 10**6)
    a = draw(hnp.arrays(np.int64, shape, elements=elems)).astype(dtype)
    if dtype != np.int64:
        a = a / np.asarray(7 if not ties else 1, dtype)
        if draw(st.booleans()):
            a[draw(hnp.arrays(np.bool_, shape))] = np.nan
    full = draw(hnp.arrays(np.int64, shape, elements=st.integers(0, 4)))
    form = draw(st.sampled_from(["none", "int", "tuple"]))
    if form == "none":
        axis: Any = None
        weights: np.ndarray = full
    elif form == "int":
        axis = draw(st.integers(-ndim, ndim - 1))
        weights = full
        if draw(st.booleans()):  # 1-D weights along the axis instead of full shape
            weights = draw(hnp.arrays(np.int64, shape[axis], elements=st.integers(0, 4)))
    else:
        axes = draw(st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True))
        axis = tuple(axes)
        weights = full
        if draw(st.booleans()):  # weights shaped like the reduced axes
            weights = draw(hnp.arrays(np.int64, tuple(shape[i] for i in axes),
                                      elements=st.integers(0, 4)))
    if draw(st.booleans()):
        weights = weights.astype(np.float64)
    sixteenths = st.one_of(st.sampled_from([4, 8, 12]), st.integers(0, 16))  # quarters hit often
    k = draw(st.one_of(sixteenths, hnp.arrays(np.int64, st.sampled_from([(3,), (2, 2)]),
                                              elements=sixteenths)))
    q = k / 16 if isinstance(k, np.ndarray) else k / 16.0
    return {"a": a, "weights": weights, "axis": axis, "keepdims": draw(st.booleans()), "q": q}


def full_weights(a: np.ndarray, weights: np.ndarray, axis: Any) -> np.ndarray:
    """Weights broadcast to ``a.shape`` following NumPy's rules."""
    if weights.shape == a.shape:
        return weights
    axes = normalize_axis_tuple(axis, a.ndim)
    w = weights.transpose(np.argsort(axes))
    w = w.reshape([a.shape[i] if i in axes else 1 for i in range(a.ndim)])
    return np.broadcast_to(w, a.shape).copy()


def as_percent(name: str, q: Any) -> Any:
    return q * 100 if name.endswith("percentile") else q


# ----------------------------------------------------- brute-force reference


def repeated_aic(a: np.ndarray, w: np.ndarray, q: Any, axis: Any, keepdims: bool,
                 skipna: bool) -> np.ndarray:
    """Weighted averaged_inverted_cdf by repeating each value w times."""
    axes = tuple(range(a.ndim)) if axis is None else normalize_axis_tuple(axis, a.ndim)
    kept = [i for i in range(a.ndim) if i not in axes]
    order = kept + list(axes)
    kept_shape = tuple(a.shape[i] for i in kept)
    lanes = np.moveaxis(a, order, range(a.ndim)).reshape(kept_shape + (-1,))
    wl = np.moveaxis(w, order, range(a.ndim)).reshape(kept_shape + (-1,))
    qa = np.asarray(q, dtype=np.float64)
    out = np.empty(qa.shape + kept_shape)
    for idx in np.ndindex(kept_shape):
        x, ww = lanes[idx].astype(np.float64), wl[idx]
        nan = np.isnan(x)
        if nan.any() and not skipna:
            out[(...,) + idx] = np.nan
            continue
        rep = np.repeat(x[~nan], ww[~nan].astype(np.int64))
        out[(...,) + idx] = np.quantile(rep, qa, method=AIC) if rep.size else np.nan
    if keepdims:
        out = out.reshape(qa.shape + tuple(1 if i in axes else a.shape[i] for i in range(a.ndim)))
    return out


def test_reference_reproduces_unweighted_numpy() -> None:
    rng = np.random.default_rng(0)
    a = rng.normal(size=(4, 7))
    q = np.arange(17) / 16
    got = repeated_aic(a, np.ones_like(a), q, 1, False, True)
    np.testing.assert_array_equal(got, np.quantile(a, q, axis=1, method=AIC))


# -------------------------------------------------------------------- tests


@pytest.mark.parametrize("name", FUNCS)
@SETTINGS
@given(problem=weighted_problems())
def test_inverted_cdf_matches_numpy(name: str, problem: dict[str, Any]) -> None:
    a, w, axis, keepdims = problem["a"], problem["weights"], problem["axis"], problem["keepdims"]
    q = as_percent(name, problem["q"])
    kwargs = {"axis": axis, "keepdims": keepdims, "method": "inverted_cdf"}
    got = run(getattr(nanops, name), a, q, weights=w, **kwargs)
    want = run(getattr(np, name), a, q, weights=full_weights(a, w, axis), **kwargs)
    where = f"{name}(<{a.dtype} {a.shape}>, {q!r}, weights={w!r}, **{kwargs})"
    assert_same_contract(got, want, where, check_type=False)
    if want.error is None:
        problem_text = mismatch(got.value, want.value)
        assert problem_text is None, f"{where}: {problem_text}"


@pytest.mark.parametrize("name", FUNCS)
@SETTINGS
@given(problem=weighted_problems())
def test_averaged_inverted_cdf_matches_repetition(name: str, problem: dict[str, Any]) -> None:
    a, w, axis, keepdims = problem["a"], problem["weights"], problem["axis"], problem["keepdims"]
    q = as_percent(name, problem["q"])
    where = f"{name}(<{a.dtype} {a.shape}>, {q!r}, weights={w!r}, axis={axis}, keepdims={keepdims})"
    func = getattr(nanops, name)
    got = run(func, a, q, axis=axis, keepdims=keepdims, method=AIC, weights=w)
    # Same errors and warnings as the weighted inverted_cdf (e.g. a slice whose
    # non-NaN values all weigh 0 is a ValueError, an all-NaN slice warns).
    twin = run(func, a, q, axis=axis, keepdims=keepdims, method="inverted_cdf", weights=w)
    if twin.error is not None:
        assert got.error is not None and isinstance(got.error, type(twin.error)), (
            f"{where}: inverted_cdf raised {twin.error!r}, averaged {got.describe()}"
        )
        return
    assert got.error is None, f"{where}: {got.describe()}"
    assert got.warnings == twin.warnings, f"{where}: {got.warnings} != {twin.warnings}"
    unweighted = np.asarray(quiet(getattr(np, name), a, q, axis=axis, keepdims=keepdims, method=AIC))
    value = np.asarray(got.value)
    assert value.dtype == unweighted.dtype, f"{where}: dtype {value.dtype} != {unweighted.dtype}"
    expected = repeated_aic(a, full_weights(a, w, axis), problem["q"], axis, keepdims,
                            skipna=name.startswith("nan"))
    # the average of two neighbours may be computed in the input's precision
    eps = max(float(np.finfo(d).eps) for d in (value.dtype, a.dtype) if d.kind == "f")
    scale = float(np.nanmax(np.abs(a), initial=0.0)) if a.size else 0.0
    text = mismatch(value, expected, atol=2 * eps * scale, rtol=eps)
    assert text is None, f"{where}: {text}"


def _check_against_repetition(values: list[float], weights: list[int], q: float) -> None:
    a, w = np.array(values), np.array(weights)
    got = nanops.nanquantile(a, q, method=AIC, weights=w)
    expected = repeated_aic(a, w, q, None, False, skipna=True)
    np.testing.assert_allclose(got, expected, rtol=1e-15)


def test_averaged_at_an_exact_cumulative_weight_averages_the_neighbours() -> None:
    # cumulative weights 1,2,3,4; target 0.5 * 4 = 2 is hit exactly -> (2 + 3) / 2
    _check_against_repetition([4.0, 1.0, 3.0, 2.0], [1, 1, 1, 1], 0.5)
    # the neighbour skips values of weight 0: (1 + 3) / 2
    _check_against_repetition([1.0, 2.0, 3.0], [1, 0, 1], 0.5)
    # target falls inside a weight: no averaging
    _check_against_repetition([1.0, 2.0, 3.0], [1, 3, 1], 0.5)


@pytest.mark.parametrize("method", ["inverted_cdf", AIC])
def test_weights_of_nan_values_are_ignored(method: Any) -> None:
    a = np.array([5.0, np.nan, 1.0, np.nan, 3.0])
    w = np.array([1.0, 100.0, 2.0, 7.0, 1.0])
    keep = ~np.isnan(a)
    q = np.arange(17) / 16
    got = nanops.nanquantile(a, q, method=method, weights=w)
    expected = nanops.nanquantile(a[keep], q, method=method, weights=w[keep])
    np.testing.assert_array_equal(got, expected)


def test_weighted_nan_propagating_quantile_gives_nan() -> None:
    a = np.array([[1.0, np.nan, 2.0], [1.0, 3.0, 2.0]])
    for method in ("inverted_cdf", AIC):
        got = nanops.quantile(a, 0.5, axis=1, method=method, weights=np.ones(3))
        assert np.isnan(got[0]) and not np.isnan(got[1])


# ------------------------------------------------------------------- errors


@pytest.mark.parametrize("name", FUNCS)
@pytest.mark.parametrize("method", UNWEIGHTED_ONLY)
def test_other_methods_reject_weights(name: str, method: Any) -> None:
    a = np.arange(6.0)
    with pytest.raises(ValueError):
        getattr(np, name)(a, as_percent(name, 0.5), method=method, weights=np.ones(6))
    with pytest.raises(ValueError):
        getattr(nanops, name)(a, as_percent(name, 0.5), method=method, weights=np.ones(6))


@pytest.mark.parametrize("name", FUNCS)
@pytest.mark.parametrize("method", ["inverted_cdf", AIC])
def test_negative_weights_are_rejected(name: str, method: Any) -> None:
    a = np.array([[1.0, 2.0, np.nan], [3.0, 4.0, 5.0]])
    w = np.array([1.0, -1.0, 1.0])
    with pytest.raises(ValueError):
        getattr(nanops, name)(a, as_percent(name, 0.5), axis=1, method=method, weights=w)


@pytest.mark.parametrize("method", ["inverted_cdf", AIC])
@pytest.mark.parametrize(
    "weights, axis",
    [(np.ones(4), None), (np.ones(5), 1), (np.ones(4), 0), (np.ones((4, 3)), (0, 1))],
    ids=["1d-no-axis", "wrong-length", "wrong-axis", "axes-wrong-order"],
)
def test_misshaped_weights_raise_like_numpy(method: Any, weights: np.ndarray, axis: Any) -> None:
    a = np.ones((3, 4))
    want = run(np.nanquantile, a, 0.5, axis=axis, method="inverted_cdf", weights=weights)
    assert want.error is not None
    got = run(nanops.nanquantile, a, 0.5, axis=axis, method=method, weights=weights)
    assert got.error is not None and isinstance(got.error, type(want.error)), got.describe()



# ------------------------------------------------------------- group-by


def _group_reference(values: np.ndarray, labels: np.ndarray, weights: np.ndarray,
                     q: np.ndarray, num_labels: int) -> np.ndarray:
    """``np.nanquantile`` of each (row, group) with its weights; NaN for a
    group without valid values or whose valid values all have weight 0."""
    out = np.full((q.size, values.shape[0], num_labels), np.nan)
    for r in range(values.shape[0]):
        w_row = weights[r] if weights.ndim == 2 else weights
        for g in range(num_labels):
            m = labels == g
            x, w = values[r, m], w_row[m]
            if np.all(np.isnan(x) | (w == 0)):
                continue
            with np.errstate(invalid="ignore"):  # NaN weights of NaN values
                out[:, r, g] = np.nanquantile(x, q, weights=w, method="inverted_cdf")
    return out


@pytest.mark.parametrize("per_value", [False, True], ids=["labels-shape", "values-shape"])
def test_group_weights_all_zero_give_nan_for_that_group(per_value: bool) -> None:
    """A group whose weights are all zero is NaN, as an empty group (NumPy's
    error is for a whole lane; here it would fail every other group), and a
    NaN or infinite weight on a NaN value is skipped with the value."""
    rng = np.random.default_rng(38)
    rows, n, num_labels = 3, 40, 5
    values = rng.permutation(rows * n).astype(np.float64).reshape(rows, n)
    labels = rng.integers(-1, 4, n)  # group 4: empty; label -1: skipped
    labels[:4] = [0, 1, 2, 3]
    weights = rng.integers(0, 4, n).astype(np.float64)
    weights[labels == 0] += 1  # group 0: a positive weight in every row
    weights[labels == 2] = 0.0  # group 2: no weight
    nan_at = np.flatnonzero(labels == 1)[:2]
    values[:, nan_at] = np.nan
    weights[nan_at] = [np.nan, np.inf]
    values[1, np.flatnonzero(labels == 3)] = np.nan  # row 1, group 3: all NaN
    if per_value:
        weights = np.broadcast_to(weights, values.shape).copy()
        weights[0, labels == 0] = 0.0  # row 0, group 0: no weight
    q = np.array([0.0, 0.1, 0.5, 0.9, 1.0])
    got = nanops.group_nanquantile(values, labels, q, axis=-1, num_labels=num_labels,
                                   method="inverted_cdf", weights=weights)
    want = _group_reference(values, labels, weights, q, num_labels)
    np.testing.assert_array_equal(got, want)
    assert np.isnan(got[:, :, 2]).all() and np.isnan(got[:, :, 4]).all()
    assert not np.isnan(got[:, :, 1]).any()
    assert np.isnan(got[:, 0, 0]).all() == per_value


@pytest.mark.parametrize("bad", [np.nan, np.inf, -1.0])
def test_group_weights_bad_on_a_value_are_still_refused(bad: float) -> None:
    values = np.array([1.0, np.nan, 3.0, 4.0])
    labels = np.array([0, 0, 1, 1])
    weights = np.ones(4)
    weights[2] = bad
    with pytest.raises(ValueError, match="Weights must be non-negative and finite"):
        nanops.group_nanquantile(values, labels, 0.5, method="inverted_cdf",
                                 weights=weights)
