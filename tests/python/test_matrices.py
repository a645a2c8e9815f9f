"""The covariance and correlation matrices: ``nancovmatrix``,
``nancorrmatrix`` (against exact fractions, numbagg and pandas'
``DataFrame.cov/corr``), ``move_covmatrix``, ``move_corrmatrix`` (each pair
is ``move_cov``/``move_corr`` of its two columns, bit for bit; numbagg) and
``move_exp_nancovmatrix``, ``move_exp_nancorrmatrix`` (each pair is
``move_exp_nancov`` of its columns less their first values, bit for bit;
numbagg); over dtypes, layouts, shapes, NaN/inf patterns, large offsets;
numbagg's errors.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd
import pytest
from _support import digest_in_subprocess, make_layout, same_bits, snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_moving_pairs import exact_window

import nanops

numbagg = pytest.importorskip("numbagg")

LAYOUTS = ("C", "F", "strided", "negative", "transposed", "byteswapped", "unaligned", "readonly")
DTYPES = ("float64", "float32", "float16", "int64", "int32", "uint8", "bool")
MOVING = ("move_covmatrix", "move_corrmatrix")
EXPONENTIAL = ("move_exp_nancovmatrix", "move_exp_nancorrmatrix")
EVERY = ("nancovmatrix", "nancorrmatrix", *MOVING, *EXPONENTIAL)


def call(name: str, a: Any) -> np.ndarray:
    """``nanops.<name>`` of ``a`` with arguments that fit every shape."""
    fn = getattr(nanops, name)
    if name in MOVING:
        return fn(a, min(3, a.shape[-2]) if a.ndim > 1 else 3, min_count=1)
    if name in EXPONENTIAL:
        return fn(a, 0.3)
    return fn(a)


@st.composite
def static_cases(draw: Any) -> np.ndarray:
    lead = tuple(draw(st.lists(st.integers(1, 3), max_size=2)))
    vars_, obs = draw(st.integers(1, 4)), draw(st.integers(0, 40))
    shape = (*lead, vars_, obs)
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    scale = draw(st.sampled_from([1.0, 1e-3, 1e6]))
    offset = draw(st.sampled_from([0.0, 1e3, -1e8]))
    x = rng.integers(-50, 50, shape) * scale + offset
    x[..., 0, :] = rng.standard_normal((*lead, obs)) * scale
    x[rng.random(shape) < draw(st.sampled_from([0.0, 0.2, 0.6]))] = np.nan
    if draw(st.booleans()) and x.size:
        x.flat[draw(st.integers(0, x.size - 1))] = draw(st.sampled_from([np.inf, -np.inf]))
    return x


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(static_cases(), st.booleans(), st.sampled_from(LAYOUTS))
def test_static_matrices_match_exact_fractions(x: np.ndarray, corr: bool, layout: str) -> None:
    a, owner = make_layout(x, layout)
    before = snapshot(owner)
    got = (nanops.nancorrmatrix if corr else nanops.nancovmatrix)(a)
    assert snapshot(owner) == before
    vars_ = x.shape[-2]
    assert got.shape == (*x.shape[:-1], vars_) and got.dtype == np.float64
    for idx in np.ndindex(*x.shape[:-2]):
        for i in range(vars_):
            for j in range(vars_):
                g = float(got[idx][i, j])
                assert g == float(got[idx][j, i]) or math.isnan(g)
                v, bound = exact_window(x[idx][i].tolist(), x[idx][j].tolist(), corr, 2)
                if v is None:
                    assert math.isnan(g), (idx, i, j, g)
                    continue
                if corr:
                    v = min(max(v, Fraction(-1)), Fraction(1))
                tol = bound + abs(v) * Fraction(1, 2**52) + Fraction(1, 2**1000)
                assert abs(Fraction(g) - v) <= 4 * tol, (idx, i, j, g, float(v), float(tol))


@pytest.mark.parametrize("corr", [False, True])
def test_static_matrices_match_numbagg_and_pandas(corr: bool) -> None:
    rng = np.random.default_rng(7)
    x = rng.standard_normal((3, 5, 200)) + 1e6
    x[rng.random(x.shape) < 0.2] = np.nan
    name = "nancorrmatrix" if corr else "nancovmatrix"
    got = getattr(nanops, name)(x)
    np.testing.assert_allclose(got, getattr(numbagg, name)(x), rtol=1e-7, equal_nan=True)
    for k in range(3):
        frame = pd.DataFrame(x[k].T)
        want = frame.corr() if corr else frame.cov()
        np.testing.assert_allclose(got[k], want.to_numpy(), rtol=1e-9, atol=1e-9)


def test_static_runs_of_a_long_axis_match_exact_and_any_thread_count() -> None:
    # more observations than one task's run: runs merged in order
    rng = np.random.default_rng(11)
    x = rng.standard_normal((3, 100_003)) * 0.01 + 1e8
    x[rng.random(x.shape) < 0.1] = np.nan
    got = nanops.nancovmatrix(x)
    for i in range(3):
        for j in range(3):
            v, bound = exact_window(x[i].tolist(), x[j].tolist(), False, 2)
            assert v is not None
            assert abs(Fraction(float(got[i, j])) - v) <= 4 * bound + abs(v) * Fraction(1, 2**52)
    code = ("import numpy as np, nanops, hashlib\n"
            "rng = np.random.default_rng(11)\n"
            "x = rng.standard_normal((3, 100_003)) * 0.01 + 1e8\n"
            "x[rng.random(x.shape) < 0.1] = np.nan\n"
            "print(hashlib.sha256(nanops.nancorrmatrix(x).tobytes()).hexdigest())\n")
    assert digest_in_subprocess(code, 1) == digest_in_subprocess(code, 2)


def test_an_infinity_gives_nan_for_its_variable_only() -> None:
    x = np.arange(30.0).reshape(3, 10) % 7
    x[1, 4] = np.inf
    got = nanops.nancovmatrix(x)
    assert np.isnan(got[1]).all() and np.isnan(got[:, 1]).all()
    np.testing.assert_allclose(got[[0, 0, 2, 2], [0, 2, 0, 2]],
                               np.cov(x[[0, 2]]).reshape(-1), rtol=1e-14)


@st.composite
def moving_cases(draw: Any) -> tuple[np.ndarray, int, int | None]:
    lead = tuple(draw(st.lists(st.integers(1, 3), max_size=2)))
    obs, vars_ = draw(st.integers(1, 30)), draw(st.integers(1, 4))
    window = draw(st.integers(1, obs))
    min_count = draw(st.one_of(st.none(), st.integers(0, window)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    offset = draw(st.sampled_from([0.0, 1e8]))
    x = rng.standard_normal((*lead, obs, vars_)) + offset
    x[rng.random(x.shape) < draw(st.sampled_from([0.0, 0.3]))] = np.nan
    return x, window, min_count


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(moving_cases(), st.sampled_from(MOVING), st.sampled_from(LAYOUTS))
def test_moving_matrices_are_the_pair_functions_of_each_pair(case: Any, name: str,
                                                             layout: str) -> None:
    x, window, min_count = case
    a, owner = make_layout(x, layout)
    before = snapshot(owner)
    got = getattr(nanops, name)(a, window, min_count)
    assert snapshot(owner) == before
    vars_ = x.shape[-1]
    assert got.shape == (*x.shape, vars_) and got.dtype == np.float64
    pair = nanops.move_corr if name == "move_corrmatrix" else nanops.move_cov
    for i in range(vars_):
        for j in range(vars_):
            # the lower triangle mirrors the upper
            lo, hi = min(i, j), max(i, j)
            want = pair(x[..., lo], x[..., hi], window, min_count, axis=-1)
            if name == "move_corrmatrix":
                want = np.clip(want, -1.0, 1.0)
            same_bits(got[..., i, j], want)


@pytest.mark.parametrize("name", MOVING)
def test_moving_matrices_match_numbagg(name: str) -> None:
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 300, 4)) * 3 + 10
    x[rng.random(x.shape) < 0.15] = np.nan
    for window, min_count in [(20, None), (20, 5), (300, 2), (1, None)]:
        got = getattr(nanops, name)(x, window, min_count)
        want = getattr(numbagg, name)(x, window, min_count)
        np.testing.assert_allclose(got, want, rtol=1e-8, atol=1e-10, equal_nan=True)


def test_moving_matrix_on_threads_equals_its_pieces() -> None:
    # one long observation axis: the pair driver cuts its lanes into parts
    rng = np.random.default_rng(9)
    x = rng.standard_normal((300_000, 3))
    x[rng.random(x.shape) < 0.1] = np.nan
    got = nanops.move_covmatrix(x, 1000, 10)
    for i, j in [(0, 0), (0, 2), (1, 2)]:
        same_bits(got[:, i, j], nanops.move_cov(x[:, i], x[:, j], 1000, 10))
        same_bits(got[:, j, i], got[:, i, j])


def _first_finite_shifted(x: np.ndarray) -> np.ndarray:
    """Each variable (last axis) less its first finite observation (axis -2)."""
    out = x.astype(np.float64)
    for idx in np.ndindex(*x.shape[:-2]):
        for v in range(x.shape[-1]):
            col = out[idx][:, v]
            finite = col[np.isfinite(col)]
            col -= finite[0] if finite.size else 0.0
    return out


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(moving_cases(), st.sampled_from(EXPONENTIAL), st.sampled_from(LAYOUTS),
       st.sampled_from([0.0, 0.5, 2.0]), st.sampled_from(["scalar", "lane"]))
def test_exponential_matrices_are_the_pair_functions_of_shifted_columns(
        case: Any, name: str, layout: str, min_weight: float, kind: str) -> None:
    x, _, _ = case
    a, owner = make_layout(x, layout)
    before = snapshot(owner)
    obs = x.shape[-2]
    alpha: Any = 0.3 if kind == "scalar" else np.linspace(0.1, 0.9, obs)
    got = getattr(nanops, name)(a, alpha, min_weight)
    assert snapshot(owner) == before
    corr = name == "move_exp_nancorrmatrix"
    pair = nanops.move_exp_nancorr if corr else nanops.move_exp_nancov
    shifted = _first_finite_shifted(x)
    for i in range(x.shape[-1]):
        for j in range(x.shape[-1]):
            lo, hi = min(i, j), max(i, j)
            want = pair(shifted[..., lo], shifted[..., hi], alpha=alpha, min_weight=min_weight)
            want = np.clip(want, -1, 1) if corr else want
            if i == j and not corr:
                want = np.where(want < 0, 0.0, want)
            same_bits(got[..., i, j], want)


@pytest.mark.parametrize("name", EXPONENTIAL)
def test_exponential_matrices_match_numbagg(name: str) -> None:
    rng = np.random.default_rng(6)
    x = rng.standard_normal((2, 200, 3)) + 1e6
    x[rng.random(x.shape) < 0.15] = np.nan
    for alpha, min_weight in [(0.2, 0.0), (0.05, 0.5)]:
        got = getattr(nanops, name)(x, alpha, min_weight)
        want = getattr(numbagg, name)(x, alpha, min_weight)
        np.testing.assert_allclose(got, want, rtol=1e-7, atol=1e-9, equal_nan=True)
    per_matrix = np.array([np.linspace(0.1, 0.5, 200), np.full(200, 0.3)])
    got = getattr(nanops, name)(x, per_matrix)
    for k in range(2):
        same_bits(got[k], getattr(nanops, name)(x[k], per_matrix[k]))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", EVERY)
def test_dtypes_keep_their_float_and_integers_give_float64(dtype: str, name: str) -> None:
    rng = np.random.default_rng(3)
    x = rng.integers(0, 2 if dtype == "bool" else 9, (2, 7, 3)).astype(dtype)
    got = call(name, x)
    want_dtype = x.dtype if x.dtype.kind == "f" else np.dtype(np.float64)
    assert got.dtype == want_dtype
    wide = call(name, x.astype(np.float64))
    if x.dtype.kind == "f":
        np.testing.assert_array_equal(got, wide.astype(dtype))
    else:
        same_bits(got, wide)


@pytest.mark.parametrize("name", EVERY)
@pytest.mark.parametrize("shape", [(0, 3, 4), (2, 0, 4), (2, 3, 0), (1, 1), (4, 1), (1, 4)])
def test_empty_and_single_shapes(name: str, shape: tuple[int, ...]) -> None:
    x = np.arange(float(np.prod(shape))).reshape(shape)
    if name in MOVING and shape[-2] == 0:
        with pytest.raises(ValueError, match="window"):  # no window fits
            call(name, x)
        return
    got = call(name, x)
    if name in ("nancovmatrix", "nancorrmatrix"):
        assert got.shape == (*shape[:-1], shape[-2])
    else:
        assert got.shape == (*shape, shape[-1])


@pytest.mark.parametrize("name", EVERY)
def test_one_dimension_is_numbaggs_error(name: str) -> None:
    layout = "vars, obs" if name in ("nancovmatrix", "nancorrmatrix") else "obs, vars"
    message = rf"{name} requires at least a 2D array with shape \(\.\.\., {layout}\)"
    with pytest.raises(ValueError, match=message):
        call(name, np.ones(5))
    args = [3] if name in MOVING else [0.3] if name in EXPONENTIAL else []
    with pytest.raises(ValueError, match=message):
        getattr(numbagg, name)(np.ones(5), *args)


@pytest.mark.parametrize("name", MOVING)
@pytest.mark.parametrize("window, min_count, message", [
    (0, None, "window not in valid range: 0"),
    (6, None, "window not in valid range: 6"),
    (3, -1, "min_count must be positive: -1"),
    (3, 4, r"min_count \(4\) cannot be greater than window \(3\)"),
])
def test_moving_arguments_are_numbaggs_errors(name: str, window: int, min_count: int | None,
                                              message: str) -> None:
    x = np.ones((5, 2))
    with pytest.raises(ValueError, match=message):
        getattr(nanops, name)(x, window, min_count)
    with pytest.raises(ValueError, match=message):
        getattr(numbagg, name)(x, window, min_count)


@pytest.mark.parametrize("name", EXPONENTIAL)
def test_exponential_arguments_are_refused(name: str) -> None:
    fn = getattr(nanops, name)
    x = np.ones((5, 2))
    with pytest.raises(ValueError, match="does not have enough dimensions"):
        fn(x, np.array(0.5))
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        fn(x, np.ones(3) / 2)
    with pytest.raises(TypeError, match="min_weight must be a scalar"):
        fn(x, 0.5, np.ones(2))
    with pytest.raises(ValueError, match="broadcast"):
        fn(np.ones((2, 5, 2)), np.ones((3, 5)) / 2)


@pytest.mark.parametrize("name", EVERY)
def test_other_inputs_are_refused(name: str) -> None:
    with pytest.raises(TypeError):
        call(name, np.ones((3, 4), dtype=complex))
    with pytest.raises(TypeError):
        call(name, np.ma.masked_array(np.ones((3, 4)), mask=np.eye(3, 4, dtype=bool)))
    da = pytest.importorskip("dask.array")
    with pytest.raises(TypeError):
        call(name, da.ones((3, 4), chunks=2))


def test_correlations_are_clipped_and_constant_variables_give_nan() -> None:
    x = np.array([[1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 6.0, 8.0], [5.0, 5.0, 5.0, 5.0]])
    r = nanops.nancorrmatrix(x)
    assert (np.abs(r[:2, :2]) <= 1).all() and np.isnan(r[2]).all() and np.isnan(r[:, 2]).all()
    m = nanops.move_corrmatrix(x.T * 0.1 + 1e8, 2)
    assert (np.abs(m[~np.isnan(m)]) <= 1).all()
