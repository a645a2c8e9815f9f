"""One-pass partial states (``_nanops.partial_states`` behind
:func:`nanops.states.partial`) against exact references: counts and
integer sums exactly, float sums against ``math.fsum``, means and central
moments against a two-pass float64 computation with ``math.fsum``, minima
and maxima exactly, and every field against the one-call-per-field path
(``states._by_calls``), over dtypes × memory layouts × axis forms × NaN
patterns."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nanops import _nanops, states

DTYPES = ["f8", "f4", "f2", "c16", "c8", "i8", "i4", "i1", "u8", "u2", "u1", "?"]
EPS = float(np.finfo(np.float64).eps)


def _values(rng: np.random.Generator, shape: tuple[int, ...], dtype: str,
            nan_share: float) -> np.ndarray:
    if dtype[0] in "iu?":
        return np.asarray(np.abs(np.round(rng.standard_normal(shape) * 10)) % 100).astype(dtype)
    x = np.asarray(rng.standard_normal(shape) * 10 + rng.choice([0.0, 1e3]))
    x[rng.random(shape) < nan_share] = np.nan
    if dtype[0] == "c":
        y = np.asarray(x + 1j * rng.standard_normal(shape))
        y[rng.random(shape) < nan_share / 2] = complex(1, np.nan)
        return y.astype(dtype)
    return x.astype(dtype)


def _layout(draw: Any, x: np.ndarray) -> np.ndarray:
    """``x`` (same values) in a random memory layout: C, Fortran, a strided
    view of a larger array, reversed axes, or byte-swapped."""
    kind = draw(st.sampled_from(["C", "F", "strided", "reversed", "swapped"]), label="layout")
    if kind == "F" and x.ndim:  # (asfortranarray makes a 0-d array 1-d)
        return np.asfortranarray(x)
    if kind == "strided" and x.ndim:
        big = np.zeros(tuple(2 * n for n in x.shape), x.dtype)
        view = big[tuple(slice(None, None, 2) for _ in x.shape)]
        view[...] = x
        return view
    if kind == "reversed" and x.ndim:
        return np.flip(np.flip(x).copy())
    if kind == "swapped":
        return x.astype(x.dtype.newbyteorder())
    return x


def _lanes(x: np.ndarray, axes: tuple[int, ...]) -> tuple[tuple[int, ...], np.ndarray]:
    """The kept shape (reduced axes as 1) and one row per output holding its
    slice's values."""
    kept = [i for i in range(x.ndim) if i not in axes]
    moved = np.transpose(x, kept + list(axes))
    n_out = math.prod(x.shape[i] for i in kept)
    rows = moved.reshape(n_out, math.prod(x.shape[i] for i in axes))
    return tuple(1 if i in axes else n for i, n in enumerate(x.shape)), rows


def _fsum(v: np.ndarray) -> complex | float:
    if v.dtype.kind == "c":
        return complex(math.fsum(v.real.tolist()), math.fsum(v.imag.tolist()))
    return math.fsum(v.tolist())


def _reference(name: str, x: np.ndarray, axes: tuple[int, ...]) -> dict[str, np.ndarray]:
    """The exact (or correctly rounded float64) fields, with the scale each
    float field's tolerance is relative to (``<field>_scale``), as object
    arrays of the kept shape."""
    shape, rows = _lanes(x, axes)
    wide = rows.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
    keys = ["n", "sum", "sum_scale", "mean", "mean_scale", "m2", "m2_scale", "m3",
            "m3_scale", "m4", "m4_scale", "min", "max"]
    out = {k: np.empty(len(rows), dtype=object) for k in keys}
    for i, (row, w) in enumerate(zip(rows, wide)):
        valid = ~np.isnan(w)
        v = w[valid]
        n = int(valid.sum())
        out["n"][i] = n
        if x.dtype.kind in "iub":
            out["sum"][i] = sum(int(t) for t in row)
        else:
            out["sum"][i] = _fsum(v)
        out["sum_scale"][i] = math.fsum(np.abs(v).tolist())
        mean = out["sum"][i] / n if n else 0.0
        d = v - mean
        a = np.abs(d)
        top = float(np.max(np.abs(v), initial=0.0))
        out["mean"][i] = mean
        out["mean_scale"][i] = top
        out["m2"][i] = math.fsum((a**2).tolist())
        if x.dtype.kind != "c":
            out["m3"][i] = math.fsum((d**3).tolist())
            out["m4"][i] = math.fsum((d**4).tolist())
        for k in (2, 3, 4):
            out[f"m{k}_scale"][i] = math.fsum((a**k).tolist()) + n * top**k
        if v.size and x.dtype.kind != "c":
            out["min"][i] = row[valid][np.argmin(v)]
            out["max"][i] = row[valid][np.argmax(v)]
    return {k: v.reshape(shape) for k, v in out.items()}


def _close(got: np.ndarray, want: np.ndarray, scale: np.ndarray, ulps: float) -> None:
    got_c = np.asarray(got, dtype=np.complex128).ravel()
    for g, w, s in zip(got_c, want.ravel(), scale.ravel()):
        assert abs(g - complex(w)) <= ulps * EPS * (float(s) + abs(complex(w))) + 1e-300, \
            (g, w, s)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_one_pass_states_equal_exact_references(data: st.DataObject) -> None:
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    name = data.draw(st.sampled_from(states.NAMES), label="name")
    dtype = data.draw(st.sampled_from(DTYPES), label="dtype")
    if dtype[0] == "c" and name in ("nanskew", "nankurt"):
        dtype = "f8"
    ndim = data.draw(st.integers(0, 3), label="ndim")
    shape = tuple(data.draw(st.lists(st.integers(0, 9), min_size=ndim, max_size=ndim)))
    nan_share = data.draw(st.sampled_from([0.0, 0.3, 1.0]), label="nan share")
    plain = _values(rng, shape, dtype, nan_share)
    x = _layout(data.draw, plain)
    axis = data.draw(st.one_of(
        st.none(), st.integers(-max(ndim, 1), max(ndim, 1) - 1) if ndim else st.none(),
        st.lists(st.integers(0, max(ndim - 1, 0)), max_size=ndim, unique=True).map(tuple),
    ), label="axis")
    before = x.copy()
    got = states.partial(name, x, axis)
    np.testing.assert_array_equal(x, before)  # the input is not modified
    axes = tuple(range(ndim)) if axis is None else tuple(
        sorted(a % ndim for a in ((axis,) if isinstance(axis, int) else axis)))
    ref = _reference(name, plain, axes)
    assert got.dtype == states.state_dtype(name, x.dtype)
    assert got.shape == ref["n"].shape

    # the one-call-per-field path agrees (the states it gave before; float16
    # and complex64 moments in single precision there, double here)
    old = np.empty_like(got)
    states._by_calls(name, np.asarray(x), axes, old)
    old_ulps = 2.0**29 if plain.dtype in (np.float16, np.complex64) else 1.0

    if "n" in got.dtype.names:
        np.testing.assert_array_equal(got["n"], ref["n"].astype(np.int64))
        np.testing.assert_array_equal(got["n"], old["n"])
    if name in ("nansum", "nanmean"):
        if plain.dtype.kind in "iub" and name == "nansum":
            np.testing.assert_array_equal(got["sum"], ref["sum"].astype(got.dtype["sum"]))
        else:
            _close(got["sum"], ref["sum"], ref["sum_scale"], 4)
        _close(old["sum"], ref["sum"], ref["sum_scale"], 32 * old_ulps)
    if name == "nanprod":
        value = states._product_value(got)
        if plain.dtype.kind in "iub":
            np.testing.assert_array_equal(value, old["prod"])
        else:  # both paths' products, rounded once per value (up to 729)
            # as values: a product beyond the range is a flag in the state,
            # its `prod` field a placeholder (125 values near 1e3 overflow)
            old_value = states._product_value(old)
            finite = np.isfinite(old_value)
            np.testing.assert_array_equal(np.isfinite(value), finite)
            np.testing.assert_allclose(value[finite], old_value[finite], rtol=1e-12, atol=0)
    if name in ("nanvar", "nanstd", "nanskew", "nankurt"):
        _close(got["mean"], ref["mean"], ref["mean_scale"], 8)
        moments = ("m2",) if name in ("nanvar", "nanstd") else ("m2", "m3", "m4")
        for field in moments:
            _close(got[field], ref[field], ref[f"{field}_scale"], 64)
            _close(old[field], ref[field], ref[f"{field}_scale"], 64 * old_ulps)
    if name in ("nanmin", "nanmax"):
        value = got["value"]
        empty = ref["n"] == 0
        if plain.dtype.kind in "fc":
            np.testing.assert_array_equal(np.isnan(value), empty)
        if plain.dtype.kind == "c":
            np.testing.assert_array_equal(value[~empty], old["value"][~empty])
        else:
            want = ref[name[3:]]
            for g, w in zip(value[~empty].ravel(), want[~empty].ravel()):
                assert g == w
            if plain.dtype.kind in "iub" and plain.size == 0:
                np.testing.assert_array_equal(value, old["value"])
                # no value: the identity, which a merge with any value drops
                info = np.iinfo(plain.dtype) if plain.dtype.kind != "b" else None
                identity = (info.max if name == "nanmin" else info.min) if info else \
                    name == "nanmin"
                assert np.all(value == identity)


@pytest.mark.parametrize("dtype", DTYPES)
def test_states_of_pieces_finish_as_the_whole(dtype: str) -> None:
    rng = np.random.default_rng(3)
    x = _values(rng, (6, 50), dtype, 0.2)
    for name in states.NAMES:
        if dtype[0] == "c" and name in ("nanskew", "nankurt"):
            continue
        pieces = [states.partial(name, x[:, i:i + 7], axis=1) for i in range(0, 50, 7)]
        merged = states.merge(name, np.concatenate(pieces, axis=1), axis=1)
        whole = states.partial(name, x, axis=1)
        if name == "nanprod":
            # the same product, its mantissa and exponent split where the
            # rounding puts it
            np.testing.assert_allclose(states.finish(name, merged, axis=1),
                                       states.finish(name, whole, axis=1), rtol=1e-10)
            continue
        for field in whole.dtype.names or ():
            if field == "n" or whole.dtype[field].kind in "iub" or name in ("nanmin", "nanmax"):
                np.testing.assert_array_equal(merged[field], whole[field])
            else:
                np.testing.assert_allclose(merged[field], whole[field],
                                           rtol=1e-10, atol=1e-8, equal_nan=True)


def test_products_never_overflow_between_pieces() -> None:
    """Issue Q: each piece's product overflows or underflows on its own,
    the whole does not; the exact product travels as mantissa and exponent."""
    a = np.array([1e300, 1e300, 1e-300, 1e-300])
    pieces = np.concatenate([states.partial("nanprod", a[i:i + 2]) for i in (0, 2)])
    assert states.finish("nanprod", states.merge("nanprod", pieces)) == pytest.approx(1.0)
    c = a.astype(np.complex128) * 1j
    pieces = np.concatenate([states.partial("nanprod", c[i:i + 2]) for i in (0, 2)])
    np.testing.assert_allclose(states.finish("nanprod", states.merge("nanprod", pieces)),
                               np.prod(np.array([1j, 1j, 1j, 1j])), rtol=1e-12)
    # many pieces merged pairwise, far beyond the range at every step
    big = np.full(64, 1e300)
    parts = [states.partial("nanprod", big[i:i + 4]) for i in range(0, 64, 4)]
    while len(parts) > 1:
        parts = [states.merge("nanprod", np.concatenate(parts[i:i + 2])) for i in range(0, len(parts), 2)]
    small = states.merge("nanprod", np.concatenate(
        [parts[0], states.partial("nanprod", np.full(64, 1e-300))]))
    assert states.finish("nanprod", small) == pytest.approx(1.0, rel=1e-12)


def test_primitive_errors() -> None:
    with pytest.raises(ValueError, match="no partial states"):
        _nanops.partial_states("nanmedian", np.ones(3), [0])
    with pytest.raises(TypeError, match="real input"):
        _nanops.partial_states("nanskew", np.ones(3, np.complex128), [0])
    with pytest.raises(TypeError):
        _nanops.partial_states("nansum", np.ones(3, object), [0])
    with pytest.raises(ValueError):
        _nanops.partial_states("nansum", np.ones((2, 2)), [2])
    # complex skewness through the public function: NumPy-style TypeError
    with pytest.raises(TypeError):
        states.partial("nanskew", np.ones(3, np.complex128))


def test_fields_are_in_state_order_and_shape() -> None:
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    x[0, 0, 0] = np.nan
    for name in states.NAMES:
        fields = _nanops.partial_states(name, x, [0, 2])
        assert len(fields) == len(states.state_dtype(name, x.dtype).names or ())
        assert all(f.shape == (3,) for f in fields)
    n, mean, m2 = _nanops.partial_states("nanvar", x, [0, 2])
    assert n.dtype == np.int64 and mean.dtype == m2.dtype == np.float64
    np.testing.assert_array_equal(n, [7, 8, 8])


def test_read_only_and_large_inputs_take_the_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: Any) -> None:
        raise AssertionError("the one-call-per-field path was taken")

    monkeypatch.setattr(states, "_by_calls", refuse)
    rng = np.random.default_rng(5)
    x = rng.standard_normal((43, 70, 80)).astype(np.float32)  # GIL released at this size
    x[rng.random(x.shape) < 0.1] = np.nan
    x.flags.writeable = False
    got = states.partial("nanvar", x, axis=0)
    np.testing.assert_array_equal(got["n"][0], np.sum(~np.isnan(x), axis=0))
    np.testing.assert_allclose(got["m2"][0] / got["n"][0],
                               np.nanvar(x.astype(np.float64), axis=0), rtol=1e-10)


@pytest.mark.parametrize("name", ["nanskew", "nankurt", "nanvar", "nanmean"])
def test_merges_along_and_beside_empty_axes(name: str) -> None:
    import nanops

    for shape, axis in (((0, 3), 0), ((2, 0), 0), ((0, 3), 1), ((2, 0, 3), (0, 2))):
        values = np.zeros(shape)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # empty slices
            merged = states.merge(name, states.partial(name, values, axis=axis), axis=axis)
            got = states.finish(name, merged, axis=axis, keepdims=False)
            want = getattr(nanops, name)(values, axis=axis)
        assert np.shape(got) == np.shape(want)
        np.testing.assert_array_equal(got, want)


def test_states_of_another_reduction_are_a_clear_error() -> None:
    mean = states.partial("nanmean", np.arange(4.0))
    for call in (states.merge, states.finish):
        with pytest.raises(ValueError, match="states of nanmean.*not nanvar's"):
            call("nanvar", mean)
    with pytest.raises(ValueError, match="without fields"):
        states.merge("nansum", np.arange(3.0))
    # the reductions that share their states take each other's
    var = states.partial("nanvar", np.arange(4.0))
    np.testing.assert_allclose(states.finish("nanstd", states.merge("nanstd", var)),
                               [np.std(np.arange(4.0))])


def test_the_module_examples_run() -> None:
    import doctest

    result = doctest.testmod(states, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
