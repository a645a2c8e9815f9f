"""Group-by reductions (``group_nan*``): against a per-group loop over
NumPy's ``nan*`` functions (and scipy for skew/kurtosis), against numbagg's
``group_nan*`` and pandas ``groupby`` where they have the function, over
dtypes, layouts, axes (None, int, tuple), negative labels and every integer
label dtype; the errors for bad labels; the caller's data left unchanged.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import scipy.stats
from _support import make_layout
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.exceptions import AxisError

import nanops

STREAMING = (
    "sum", "prod", "mean", "var", "std", "min", "max", "argmin", "argmax",
    "count", "first", "last", "any", "all", "sum_of_squares", "skew", "kurt",
)
LAYOUTS = ("C", "F", "strided", "negative", "transposed", "byteswapped", "unaligned")


def _first(v: np.ndarray) -> Any:
    ok = v[~np.isnan(v)] if v.dtype.kind in "fc" else v
    return ok[0] if ok.size else np.nan


def _last(v: np.ndarray) -> Any:
    ok = v[~np.isnan(v)] if v.dtype.kind in "fc" else v
    return ok[-1] if ok.size else np.nan


def _valid(v: np.ndarray) -> np.ndarray:
    return v[~np.isnan(v)] if v.dtype.kind in "fc" else v


def _argext(f: Callable[..., Any]) -> Callable[[np.ndarray, np.ndarray], float]:
    def ref(v: np.ndarray, pos: np.ndarray) -> float:
        if v.size == 0 or (v.dtype.kind in "fc" and np.isnan(v).all()):
            return np.nan
        return float(pos[f(v)])

    return ref


def _moment(kind: str, **kw: Any) -> Callable[[np.ndarray], float]:
    def ref(v: np.ndarray) -> float:
        x = _valid(v).astype(np.float64)
        if x.size < 2:
            return np.nan
        f = scipy.stats.skew if kind == "skew" else scipy.stats.kurtosis
        return float(f(x, **kw))

    return ref


#: The slow obvious reference of each statistic: one group's values (in the
#: C order of the grouped axes) → its result.
REFS: dict[str, Callable[..., Any]] = {
    "sum": np.nansum,
    "prod": np.nanprod,
    "mean": lambda v: np.nanmean(v) if _valid(v).size else np.nan,
    "var": lambda v, ddof=1: np.nanvar(v, ddof=ddof) if _valid(v).size > ddof else np.nan,
    "std": lambda v, ddof=1: np.nanstd(v, ddof=ddof) if _valid(v).size > ddof else np.nan,
    "min": lambda v: np.nanmin(v) if _valid(v).size else np.nan,
    "max": lambda v: np.nanmax(v) if _valid(v).size else np.nan,
    "count": lambda v: _valid(v).size,
    "first": _first,
    "last": _last,
    "any": lambda v: bool(np.any(_valid(v) != 0)),
    "all": lambda v: bool(np.all(_valid(v) != 0)),
    "sum_of_squares": lambda v: np.nansum(v.astype(np.float64) ** 2),
    "skew": _moment("skew", bias=True),
    "kurt": _moment("kurt", bias=True, fisher=True),
}


def reference(stat: str, values: np.ndarray, labels: np.ndarray, axes: tuple[int, ...],
              num_labels: int) -> np.ndarray:
    """The per-group loop: the grouped axes moved last and flattened, each
    group's values selected by a mask and reduced by ``REFS[stat]``."""
    kept = [a for a in range(values.ndim) if a not in axes]
    moved = np.transpose(values, kept + list(axes))
    n_in = int(np.prod([values.shape[a] for a in axes], dtype=np.int64))
    flat = moved.reshape(moved.shape[: len(kept)] + (n_in,))
    lab = labels.reshape(-1)
    pos = np.arange(lab.size)
    out = np.empty(flat.shape[:-1] + (num_labels,), dtype=np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for idx in np.ndindex(flat.shape[:-1]):
            for g in range(num_labels):
                sel = flat[idx][lab == g]
                if stat in ("argmin", "argmax"):
                    f = np.nanargmin if stat == "argmin" else np.nanargmax
                    out[idx + (g,)] = _argext(f)(sel, pos[lab == g])
                else:
                    out[idx + (g,)] = REFS[stat](sel)
    return out


def group_fn(stat: str) -> Callable[..., np.ndarray]:
    return getattr(nanops, f"group_nan{stat}")


def _close(got: np.ndarray, want: np.ndarray, dtype: np.dtype[Any]) -> None:
    rtol = {"float32": 1e-5, "float16": 2e-3}.get(dtype.name, 1e-9)
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=rtol, atol=rtol * 1e-3,
                               equal_nan=True)


@st.composite
def grouped_arrays(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, Any, tuple[int, ...], int]:
    """Values with NaN, labels (negative ones too) and an axis argument."""
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(0, 6), min_size=ndim, max_size=ndim)))
    dtype = np.dtype(draw(st.sampled_from(["float64", "float32", "int64", "int16", "uint8"])))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    values = rng.standard_normal(shape) * 10
    if dtype.kind == "f":
        values[rng.random(shape) < draw(st.sampled_from([0.0, 0.2, 0.9]))] = np.nan
        values = values.astype(dtype)
    else:
        values = np.abs(values).astype(dtype) % 7
    mode = draw(st.sampled_from(["none", "int", "tuple"]))
    if mode == "none" or ndim == 1:
        axis: Any = None if mode == "none" else draw(st.sampled_from([0, -1]))
        axes = tuple(range(ndim)) if axis is None else (0,)
    elif mode == "int":
        axis = draw(st.integers(-ndim, ndim - 1))
        axes = (axis % ndim,)
    else:
        axes = tuple(sorted(draw(st.sets(st.integers(0, ndim - 1), min_size=1))))
        axis = axes
    num_labels = draw(st.integers(1, 5))
    lshape = tuple(shape[a] for a in axes)
    labels = rng.integers(-1, num_labels, size=lshape)
    return values, labels, axis, axes, num_labels


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=grouped_arrays(), stat=st.sampled_from(STREAMING))
def test_against_a_per_group_loop(data: Any, stat: str) -> None:
    values, labels, axis, axes, num_labels = data
    if stat in ("min", "max", "first", "last") and values.dtype.kind != "f":
        values = values.astype(np.float64)  # empty integer groups are errors (below)
    want = reference(stat, values, labels, axes, num_labels)
    got = group_fn(stat)(values, labels, axis=axis, num_labels=num_labels)
    assert got.shape == want.shape
    if stat in ("prod",) and values.dtype.kind in "iu":
        want = reference(stat, values.astype(np.int64), labels, axes, num_labels)
    _close(got, want, values.dtype)


@settings(max_examples=40, deadline=None)
@given(
    data=grouped_arrays(),
    stat=st.sampled_from(["sum", "mean", "var", "min", "argmax", "first", "last", "count"]),
    layout=st.sampled_from(LAYOUTS),
)
def test_any_layout_and_data_unchanged(data: Any, stat: str, layout: str) -> None:
    values, labels, axis, axes, num_labels = data
    values = values.astype(np.float64)
    a, owner = make_layout(values, layout)
    before = owner.copy()
    got = group_fn(stat)(a, labels, axis=axis, num_labels=num_labels)
    _close(got, reference(stat, values, labels, axes, num_labels), values.dtype)
    np.testing.assert_array_equal(owner, before)


@pytest.mark.parametrize("ddof", [0, 1, 2])
def test_var_std_ddof(ddof: int) -> None:
    rng = np.random.default_rng(ddof)
    values = rng.standard_normal((3, 50))
    values[values > 1.2] = np.nan
    labels = rng.integers(-1, 6, 50)
    for stat in ("var", "std"):
        got = group_fn(stat)(values, labels, axis=-1, ddof=ddof)
        want = np.empty_like(got)
        for i in range(3):
            for g in range(got.shape[-1]):
                want[i, g] = REFS[stat](values[i][labels == g], ddof=ddof)
        _close(got, want, values.dtype)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("first", ["near", "far"])
def test_var_of_random_labels_is_two_pass_accurate(dtype: str, first: str) -> None:
    """Values one at a time (random labels) about a large offset, some
    groups led by a far value: each group's variance within ``4·n·eps`` of
    the exact one (``fractions.Fraction``), as a two-pass variance is. A sum
    of squares loses it all here (``mean²/var = 1e16``)."""
    from fractions import Fraction

    rng = np.random.default_rng(11)
    n, groups = 40_000, 37
    values = (1e8 + rng.standard_normal(n)).astype(dtype)
    values[rng.random(n) < 0.1] = np.nan
    labels = rng.integers(0, groups, n)
    if first == "far":
        for g in range(0, groups, 3):
            values[np.flatnonzero(labels == g)[0]] = -1e11 if g % 2 else 1e11
    got = nanops.group_nanvar(values, labels, num_labels=groups, ddof=1)
    eps = float(np.finfo(dtype).eps)
    for g in range(groups):
        v = [Fraction(float(x)) for x in values[labels == g] if not np.isnan(x)]
        mean = sum(v, Fraction(0)) / len(v)
        var = sum(((x - mean) ** 2 for x in v), Fraction(0)) / (len(v) - 1)
        assert abs(Fraction(float(got[g])) - var) <= 4 * len(v) * eps * var, (g, got[g])


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_short_sorted_runs_are_two_pass_accurate(dtype: str) -> None:
    """Sorted labels in runs of 1 to 15 values (each run read at a fixed
    width, masked past its end) about a large offset, NaN among them and
    some runs led by a far value or by NaN: each group's variance within
    ``4·n·eps`` of the exact one (``fractions.Fraction``), its sum within
    ``n·eps`` of the exact sum of its magnitudes (``math.fsum``), its count
    exact."""
    import math
    from fractions import Fraction

    rng = np.random.default_rng(5)
    lengths = np.tile(np.arange(1, 16), 400)
    rng.shuffle(lengths)
    labels = np.repeat(np.arange(lengths.size), lengths)
    n, groups = labels.size, lengths.size
    values = (1e8 + rng.standard_normal(n)).astype(dtype)
    values[rng.random(n) < 0.15] = np.nan
    starts = np.cumsum(lengths) - lengths
    values[starts[::7]] = np.where(np.arange(starts[::7].size) % 2, 1e11, -1e11)
    values[starts[3::7]] = np.nan
    var = nanops.group_nanvar(values, labels, num_labels=groups, ddof=0)
    sums = nanops.group_nansum(values, labels, num_labels=groups)
    counts = nanops.group_nancount(values, labels, num_labels=groups)
    eps = float(np.finfo(dtype).eps)
    for g in range(groups):
        v = [float(x) for x in values[labels == g] if not np.isnan(x)]
        assert counts[g] == len(v)
        assert abs(float(sums[g]) - math.fsum(v)) <= len(v) * eps * math.fsum(map(abs, v))
        if not v:
            assert np.isnan(var[g])
            continue
        exact = [Fraction(x) for x in v]
        mean = sum(exact, Fraction(0)) / len(v)
        want = sum(((x - mean) ** 2 for x in exact), Fraction(0)) / len(v)
        assert abs(Fraction(float(var[g])) - want) <= 4 * len(v) * eps * want, (g, var[g])


@pytest.mark.parametrize("bias", [True, False])
def test_skew_kurt_bias_fisher(bias: bool) -> None:
    rng = np.random.default_rng(7)
    values = rng.standard_normal(200) ** 3
    labels = rng.integers(0, 4, 200)
    skew = nanops.group_nanskew(values, labels, bias=bias)
    kurt = nanops.group_nankurt(values, labels, bias=bias, fisher=False)
    for g in range(4):
        v = values[labels == g]
        assert skew[g] == pytest.approx(scipy.stats.skew(v, bias=bias), rel=1e-10)
        assert kurt[g] == pytest.approx(scipy.stats.kurtosis(v, bias=bias, fisher=False), rel=1e-10)


@pytest.mark.parametrize(
    "ldtype", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", ">i4"]
)
def test_labels_of_any_integer_dtype(ldtype: str) -> None:
    values = np.arange(12.0)
    labels = np.array([0, 1, 2, 1] * 3)
    want = nanops.group_nanmean(values, labels)
    got = nanops.group_nanmean(values, labels.astype(ldtype))
    np.testing.assert_array_equal(got, want)


def test_result_dtypes() -> None:
    lab = np.array([0, 1, 0])
    f32 = np.array([1.0, 2.0, 3.0], np.float32)
    i32 = np.array([1, 2, 3], np.int32)
    assert nanops.group_nansum(f32, lab).dtype == np.float32
    assert nanops.group_nanmean(f32, lab).dtype == np.float32
    assert nanops.group_nansum(i32, lab).dtype == np.int64
    assert nanops.group_nanmean(i32, lab).dtype == np.float64
    assert nanops.group_nanmin(i32, lab).dtype == np.int32
    assert nanops.group_nancount(f32, lab).dtype == np.int64
    assert nanops.group_nanany(f32, lab).dtype == np.bool_
    assert nanops.group_nanargmax(i32, lab).dtype == np.float64
    assert nanops.group_nansum(np.array([True, True, False]), lab).tolist() == [1, 1]


def test_complex_values() -> None:
    v = np.array([1 + 1j, np.nan, 3 - 1j, 2j])
    lab = np.array([0, 0, 0, 1])
    np.testing.assert_allclose(nanops.group_nansum(v, lab), [4 + 0j, 2j])
    np.testing.assert_allclose(nanops.group_nanvar(v, lab, ddof=0), [np.nanvar(v[:3]), 0.0])
    with pytest.raises(TypeError):
        nanops.group_nanskew(v, lab)


def test_zero_size_and_all_negative_labels() -> None:
    assert nanops.group_nansum(np.zeros(0), np.zeros(0, int)).shape == (0,)
    assert nanops.group_nansum(np.zeros((2, 0)), np.zeros(0, int), axis=1).shape == (2, 0)
    np.testing.assert_array_equal(
        nanops.group_nansum(np.ones(3), np.array([-1, -1, -1]), num_labels=2), [0.0, 0.0]
    )
    np.testing.assert_array_equal(
        nanops.group_nanmean(np.zeros((0, 3)), np.array([0, 1, 1]), axis=1), np.zeros((0, 2))
    )


def test_bad_labels_are_clear_errors() -> None:
    v = np.arange(4.0)
    with pytest.raises(TypeError, match="integer"):
        nanops.group_nansum(v, np.array([0.0, 1.0, 0.0, 1.0]))
    with pytest.raises(TypeError, match="integer"):
        nanops.group_nansum(v, np.array([True, False, True, True]))
    with pytest.raises(ValueError, match="out of range"):
        nanops.group_nansum(v, np.array([0, 1, 5, 1]), num_labels=3)
    with pytest.raises(ValueError, match="out of range"):
        nanops.group_nansum(v, np.array([0, 1, 2**63, 1], np.uint64))
    with pytest.raises(ValueError, match="shape"):
        nanops.group_nansum(v, np.array([0, 1, 0]))
    with pytest.raises(ValueError, match="axis required"):
        nanops.group_nansum(v.reshape(2, 2), np.array([0, 1]))
    with pytest.raises(ValueError, match="shape"):
        nanops.group_nansum(v.reshape(2, 2), np.array([0, 1, 1]), axis=1)
    with pytest.raises(AxisError):
        nanops.group_nansum(v, np.array([0, 1, 0, 1]), axis=1)
    with pytest.raises(ValueError, match="non-negative"):
        nanops.group_nansum(v, np.array([0, 1, 0, 1]), num_labels=-1)
    with pytest.raises(TypeError):
        nanops.group_nansum(v, np.array([0, 1, 0, 1]), num_labels=1.5)


@pytest.mark.parametrize("shape,labels_shape,axis", [
    ((5,), (4,), None), ((3, 5), (4,), -1), ((3, 5), (4,), 1), ((3, 5), (3, 4), None),
    ((2, 3, 5), (3, 4), (1, 2)), ((3, 5), (2,), 0),
])
def test_labels_of_the_wrong_shape_say_what_numbagg_says(
        shape: tuple[int, ...], labels_shape: tuple[int, ...], axis: Any) -> None:
    """Callers that match numbagg's message keep working (the same class and words)."""
    numbagg = pytest.importorskip("numbagg")
    values, labels = np.ones(shape), np.zeros(labels_shape, np.int64)
    with pytest.raises(ValueError) as theirs:
        numbagg.group_nansum(values, labels, axis=axis)
    with pytest.raises(ValueError) as ours:
        nanops.group_nansum(values, labels, axis=axis)
    assert str(ours.value) == str(theirs.value)
    with pytest.raises(ValueError, match="group 1 has no value"):
        nanops.group_nanmin(np.array([3, 4]), np.array([0, 2]))
    with pytest.raises(TypeError):
        nanops.group_nansum(np.array(["a", "b"], dtype=object), np.array([0, 1]))


@pytest.mark.parametrize("name", ["sum", "mean", "var", "min", "max", "count", "first",
                                  "last", "argmax", "any", "all", "median"])
def test_a_label_past_num_labels_is_an_error_on_every_path(name: str) -> None:
    # labels are checked while the values are folded where num_labels is
    # given: one output cut into chunks, outputs by rows, grouped axis
    # leading (read in place), and no values at all
    fn = getattr(nanops, f"group_nan{name}")
    rng = np.random.default_rng(8)
    n = 300_000
    labels = rng.integers(0, 50, n)
    labels[n // 2] = 61
    labels[n - 3] = -4
    values = rng.standard_normal(n)
    with pytest.raises(ValueError, match="label 61 is out of range"):
        fn(values, labels, num_labels=50)
    assert fn(values, labels, num_labels=62).shape == (62,)
    rows = rng.standard_normal((6, 40))
    row_labels = np.arange(40) % 5
    row_labels[7] = 9
    with pytest.raises(ValueError, match="label 9 is out of range"):
        fn(rows, row_labels, axis=1, num_labels=5)
    leading = rng.standard_normal((5, 5000))
    with pytest.raises(ValueError, match="label 4 is out of range"):
        fn(leading, np.array([0, 0, 4, 1, 1]), axis=0, num_labels=2)
    with pytest.raises(ValueError, match="label 5 is out of range"):
        fn(np.zeros((0, 4)), np.array([0, 5, 1, 2]), axis=1, num_labels=3)


def test_num_labels_beyond_a_dimension_is_numbaggs_error() -> None:
    v, labels = np.arange(4.0), np.zeros(4, int)
    numbagg = pytest.importorskip("numbagg")
    for n in (2**63, 2**64):
        with pytest.raises(ValueError):
            numbagg.group_nansum(v, labels, num_labels=n)
        for name in ("group_nansum", "group_nanmedian"):
            with pytest.raises(ValueError, match="num_labels"):
                getattr(nanops, name)(v, labels, num_labels=n)


def test_axis_tuple_in_any_order() -> None:
    rng = np.random.default_rng(3)
    values = rng.standard_normal((2, 3, 4))
    labels = rng.integers(0, 3, (3, 4))
    want = nanops.group_nansum(values, labels, axis=(1, 2))
    got = nanops.group_nansum(values, labels.T, axis=(2, 1))
    np.testing.assert_allclose(got, want)


@pytest.mark.parametrize("stat", ["first", "last", "argmin", "argmax", "sum", "quantile"])
@pytest.mark.parametrize("axis", [(1, 0), (2, 0), (2, 1, 0), (0, 2)])
def test_positions_follow_the_axis_order_given(stat: str, axis: tuple[int, ...]) -> None:
    """numbagg's order: the grouped axes in the order given, so the first,
    last and arg* positions count along them in that order."""
    numbagg = pytest.importorskip("numbagg")
    rng = np.random.default_rng(7)
    values = rng.permutation(60).astype(np.float64).reshape(3, 4, 5)
    values[rng.random(values.shape) < 0.2] = np.nan
    labels = rng.integers(0, 3, tuple(values.shape[k] for k in axis))
    if stat == "quantile":
        # group_nanquantile has no numbagg twin with weights: the same groups,
        # values flattened in the given order
        moved = np.moveaxis(values, axis, range(3 - len(axis), 3))
        w = rng.random(values.shape)
        wm = np.moveaxis(w, axis, range(3 - len(axis), 3))
        got = nanops.group_nanquantile(values, labels, 0.5, axis=axis, num_labels=3,
                                       weights=w, method="inverted_cdf")
        kept = moved.shape[: 3 - len(axis)]
        flat = moved.reshape(kept + (-1,))
        for g in range(3):
            m = labels.reshape(-1) == g
            for idx in np.ndindex(kept):
                want = np.nanquantile(flat[idx][m], 0.5, weights=wm.reshape(kept + (-1,))[idx][m],
                                      method="inverted_cdf")
                np.testing.assert_array_equal(got[idx + (g,)], want)
        return
    want = getattr(numbagg, f"group_nan{stat}")(values, labels, axis=axis, num_labels=3)
    got = getattr(nanops, f"group_nan{stat}")(values, labels, axis=axis, num_labels=3)
    np.testing.assert_allclose(got, want)


# --- peers -----------------------------------------------------------------

NUMBAGG = ("sum", "prod", "mean", "var", "std", "min", "max", "argmin", "argmax",
           "count", "first", "last", "any", "all", "sum_of_squares")


@settings(max_examples=40, deadline=None)
@given(
    stat=st.sampled_from(NUMBAGG),
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(1, 300),
    num_labels=st.integers(1, 20),
    nan_share=st.sampled_from([0.0, 0.3, 1.0]),
)
def test_against_numbagg(stat: str, seed: int, n: int, num_labels: int, nan_share: float) -> None:
    numbagg = pytest.importorskip("numbagg")
    rng = np.random.default_rng(seed)
    values = rng.standard_normal((2, n))
    values[rng.random((2, n)) < nan_share] = np.nan
    labels = rng.integers(-1, num_labels, n)
    want = getattr(numbagg, f"group_nan{stat}")(values, labels, axis=-1, num_labels=num_labels)
    got = group_fn(stat)(values, labels, axis=-1, num_labels=num_labels)
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=1e-9, atol=1e-12, equal_nan=True)


PANDAS = {"sum": "sum", "prod": "prod", "mean": "mean", "var": "var", "std": "std",
          "min": "min", "max": "max", "count": "count", "first": "first", "last": "last",
          "skew": "skew", "kurt": "kurt"}


@settings(max_examples=30, deadline=None)
@given(stat=st.sampled_from(sorted(PANDAS)), seed=st.integers(0, 2**32 - 1),
       n=st.integers(1, 300), num_labels=st.integers(1, 20))
def test_against_pandas_groupby(stat: str, seed: int, n: int, num_labels: int) -> None:
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(seed)
    values = rng.standard_normal(n)
    values[rng.random(n) < 0.3] = np.nan
    labels = rng.integers(-1, num_labels, n)
    kw = {"bias": False} if stat in ("skew", "kurt") else {}
    got = group_fn(stat)(values, labels, num_labels=num_labels, **kw).astype(np.float64)
    if stat in ("skew", "kurt"):
        # pandas gives NaN below 3 (skew) or 4 (kurt) values, scipy's formula a number
        counts = nanops.group_nancount(values, labels, num_labels=num_labels)
        got[counts < (3 if stat == "skew" else 4)] = np.nan
    keep = labels >= 0
    grouped = pd.Series(values[keep]).groupby(labels[keep])
    want = getattr(grouped, PANDAS[stat])().reindex(range(num_labels))
    if stat in ("sum", "prod", "count"):
        want = want.fillna({"sum": 0, "prod": 1, "count": 0}[stat])
    np.testing.assert_allclose(got.astype(np.float64), want.to_numpy(np.float64), rtol=1e-8,
                               atol=1e-12, equal_nan=True)


def test_threads_give_the_same_bits() -> None:
    """Chunks merge in a fixed order: the result does not depend on the
    thread count (a second process with one thread)."""
    import subprocess
    import sys

    code = (
        "import numpy as np, nanops, sys;"
        "rng = np.random.default_rng(1); v = rng.standard_normal(1_000_003);"
        "v[::7] = np.nan; l = rng.integers(-1, 50, v.size);"
        "sys.stdout.write(nanops.group_nanvar(v, l).tobytes().hex())"
    )
    import os

    outs = []
    for threads in ("1", "2"):
        env = {**os.environ, "RAYON_NUM_THREADS": threads}
        outs.append(subprocess.run([sys.executable, "-c", code], env=env, check=True,
                                   capture_output=True, text=True).stdout)
    assert outs[0] == outs[1]


#: Enough outputs that values whose grouped axis leads are read in place,
#: a run of rows of one label at a time (the core's ``LEADING_MIN_OUTPUTS``).
LEADING_SHAPE = (23, 64, 70)


@pytest.mark.parametrize("stat", STREAMING)
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
@pytest.mark.parametrize("pattern", ["runs", "random", "months"])
def test_leading_grouped_axis_in_place(stat: str, dtype: str, pattern: str) -> None:
    """Grouped along a leading axis of C-contiguous values with many
    outputs (an axis-0 group-by of a cube): the in-place walk by runs of
    rows agrees with the per-group loop and with the same values in
    Fortran order (which the driver copies, grouped axis last)."""
    rng = np.random.default_rng(7)
    n = LEADING_SHAPE[0]
    values = rng.standard_normal(LEADING_SHAPE) * 10
    if dtype == "int64":
        values = np.abs(values).astype(dtype) % 7
    else:
        values[rng.random(LEADING_SHAPE) < 0.2] = np.nan
        values[:, 0, 0] = np.nan  # an all-NaN output
        values = values.astype(dtype)
    labels = {"runs": np.arange(n) // 5,
              "random": rng.integers(-1, 5, n),
              "months": np.array([0, 0, 1, 1, 1, 2, -1, 3, 3] * 3)[:n]}[pattern]
    num_labels = int(labels.max()) + 2  # one empty group
    fn = group_fn(stat)
    if dtype == "int64" and stat in ("min", "max", "first", "last"):
        # an empty group of integers has no result: the same error both ways
        for v in (values, np.asfortranarray(values)):
            with pytest.raises(ValueError, match="has no value"):
                fn(v, labels, axis=0, num_labels=num_labels)
        num_labels -= 1
        labels = np.where(labels >= 0, np.arange(n) % num_labels, -1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = fn(values, labels, axis=0, num_labels=num_labels)
        copied = fn(np.asfortranarray(values), labels, axis=0, num_labels=num_labels)
    assert got.shape == (64, 70, num_labels) and got.dtype == copied.dtype
    _close(got, copied.astype(np.float64), values.dtype)
    corner = values[:, :3, :4]
    _close(got[:3, :4], reference(stat, corner, labels, (0,), num_labels), values.dtype)
