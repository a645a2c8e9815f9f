"""Group statistics under extremes (issue Q): values of magnitudes from
1e-300 to 1e300 mixed in one group, a lone 1e8 outlier in unit data,
values whose sums, squares or products overflow, NaN and ±inf; groups that
are empty, all-NaN or of one value; negative labels (skipped). In memory,
on dask arrays (zero-size chunks among random ones), through
``nanops.flox`` aggregations and through ``nanops.states`` merges.

Each group's result is checked against the exact value of its own values
(``fractions.Fraction``), with the bound of the arithmetic:

* sums and means in memory carry a compensated sum (README, "Wider or
  compensated accumulators"): the exact value correctly rounded up to
  ``8·n·eps²·Σ|x|``; chunked, the per-chunk states are added plainly (the
  states' merge, flox's tree: "up to rounding"), which adds ``u·Σ|x|`` per
  chunk (``u = 2**-53``);
* variances follow Welford and Chan, whose error is bounded by
  ``64·n·eps·(var + mean²)`` (the condition ``1 + mean²/var`` of the
  moving windows' test), their roots by half of that relative;
* products are exact in class (zero, finite, infinite, NaN for ``0·inf``;
  the sign of a zero too) and the finite ones within ``(n + 2)·u`` plus the
  subnormal rounding.

Values whose sum or square overflow float64 are in their own tests
(``test_overflow_*``): there a group's result is the exact value or, where
a float partial sum of its values can overflow, an infinity as NumPy's
reduction of the group's values gives (README, "Differences from NumPy"),
never NaN where the exact value is a number, whatever the labels' layout.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from _support import (
    OVERFLOW,
    TINY,
    UNIT,
    chunk_sizes,
    digest_in_subprocess,
    extreme_lanes,
    sqrt_fraction,
    make_layout,
    to_float,
    within,
)
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import dask.array as da
import nanops
import nanops.dask
from nanops import states

flox = pytest.importorskip("flox")
import nanops.flox  # noqa: E402  (needs flox)

STATS = ("sum", "mean", "var", "std", "prod")
U = UNIT
EPS = 2 * UNIT
ZERO = Fraction(0)


def exact_group(stat: str, vals: list[float], ddof: int,
                chunks: int = 1) -> tuple[str, Any, Fraction]:
    """``(kind, exact, tol)`` of ``stat`` over one group's values (NaN
    included, skipped): kind ``"nan"``, ``"inf"`` (exact is ±inf),
    ``"zero"`` (exact is ±0.0, sign included), ``"value"``. ``chunks``: the
    number of pieces whose states are added plainly."""
    v = [x for x in vals if not math.isnan(x)]
    n = len(v)
    pos = any(x == math.inf for x in v)
    neg = any(x == -math.inf for x in v)
    if stat == "prod":
        zero = any(x == 0 for x in v)
        if zero and (pos or neg):
            return "nan", math.nan, ZERO
        negative = sum(math.copysign(1.0, x) < 0 for x in v) % 2 == 1
        if pos or neg:
            return "inf", -math.inf if negative else math.inf, ZERO
        if zero:
            return "zero", -0.0 if negative else 0.0, ZERO
        p = Fraction(1)
        for x in v:
            p *= Fraction(x)
        return "value", p, (n + 2 + chunks) * U * abs(p) + TINY
    if stat in ("sum", "mean") and n == 0:
        return ("value", ZERO, ZERO) if stat == "sum" else ("nan", math.nan, ZERO)
    if pos or neg:
        if stat in ("var", "std") or (pos and neg):
            return "nan", math.nan, ZERO  # inf − inf
        return "inf", math.inf if pos else -math.inf, ZERO
    fr = [Fraction(x) for x in v]
    total = sum(fr, ZERO)
    abs_total = sum((abs(f) for f in fr), ZERO)
    if stat in ("sum", "mean"):
        tol = 2 * U * abs(total) + 8 * n * EPS * EPS * abs_total + chunks * U * abs_total
        if stat == "sum":
            return "value", total, tol
        mean = total / n
        return "value", mean, tol / n + 2 * U * abs(mean) + TINY
    if n - ddof <= 0:
        return "nan", math.nan, ZERO
    mean = total / n
    var = sum(((f - mean) ** 2 for f in fr), ZERO) / (n - ddof)
    # (and each square, product or quotient may underflow by up to TINY/2)
    tol = 64 * n * EPS * (var + mean * mean) * (1 + chunks) + 4 * (n + chunks) * TINY
    if stat == "var":
        return "value", var, tol
    sd = sqrt_fraction(var)
    # |sqrt(g) - sqrt(v)| <= min(|g - v| / sqrt(v), sqrt|g - v|), and the root's rounding
    root = sqrt_fraction(tol) * (1 + 4 * U)
    if sd == 0:
        return "value", ZERO, root
    return "value", sd, min(tol / sd, root) + 4 * U * sd


def check_groups(stat: str, got: np.ndarray, values: np.ndarray, labels: np.ndarray,
                 num_labels: int, ddof: int, where: Any, chunks: int = 1) -> None:
    """``got[..., g]`` against the exact value of group ``g`` of each lane
    (``values`` of shape ``(lanes, n)``, ``labels`` of shape ``(n,)``)."""
    got = np.asarray(got)
    assert got.shape == values.shape[:-1] + (num_labels,), (got.shape, values.shape)
    for lane in np.ndindex(values.shape[:-1]):
        for g in range(num_labels):
            check_group(stat, float(got[lane + (g,)]), values[lane][labels == g], ddof,
                        (where, lane, g), chunks)


def check_group(stat: str, x: float, group: np.ndarray, ddof: int, where: Any,
                chunks: int = 1) -> None:
    """``x`` against the exact ``stat`` of the values ``group``."""
    kind, exact, tol = exact_group(stat, group.tolist(), ddof, chunks)
    if kind == "nan":
        ok = math.isnan(x)
    elif kind == "inf":
        ok = x == exact
    elif kind == "zero":
        ok = x == 0 and math.copysign(1.0, x) == math.copysign(1.0, exact)
    else:
        ok = within(x, exact, tol)
        if ok and stat == "prod" and x == 0:  # an underflowed product keeps its sign
            ok = (math.copysign(1.0, x) < 0) == (exact < 0)
    assert ok, (stat, where, x, kind,
                to_float(Fraction(exact)) if kind == "value" else exact, to_float(tol))


def call(stat: str, values: Any, labels: Any, ddof: int, **kw: Any) -> Any:
    extra = {"ddof": ddof} if stat in ("var", "std") else {}
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        return getattr(nanops, f"group_nan{stat}")(values, labels, **kw, **extra)


def _no_overflow(values: np.ndarray, stat: str) -> bool:
    """Whether no float sum of the values' magnitudes (for the variances:
    of their squares) can overflow: the bounds above hold."""
    if stat == "prod":
        return True  # products are exact in class whatever the magnitudes
    fin = np.abs(values[np.isfinite(values)])
    total = sum((Fraction(float(v)) for v in fin), ZERO)
    if stat in ("var", "std"):
        total = max(total, sum((Fraction(float(v)) ** 2 for v in fin), ZERO))
    return total < OVERFLOW / 4


@st.composite
def grouped(draw: Any, kinds: tuple[str, ...] = ("magnitudes", "outlier")) -> Any:
    """``(values (lanes, n), labels (n,), num_labels, ddof)``: one or two
    lanes of extreme values, labels in ``[-2, k)`` (negatives skipped), a
    group left empty (``num_labels`` beyond the labels), one made all-NaN,
    one of one value when drawn."""
    max_exp = draw(st.sampled_from([150, 300]))
    lanes = draw(st.integers(1, 2))
    first = draw(extreme_lanes(kinds=kinds, max_exp=max_exp))
    n = first.size
    rows = [first] + [draw(extreme_lanes(kinds=kinds, max_exp=max_exp, min_size=n, max_size=n))
                      for _ in range(lanes - 1)]
    values = np.stack(rows)
    k = draw(st.integers(1, 5))
    labels = np.array(draw(st.lists(st.integers(-2, k - 1), min_size=n, max_size=n)), np.int64)
    if draw(st.booleans()):  # one group of NaN only
        values[:, labels == draw(st.integers(0, k - 1))] = np.nan
    if draw(st.booleans()) and n:  # one group of one value
        labels[labels == k - 1] = -1
        labels[draw(st.integers(0, n - 1))] = k - 1
    num_labels = k + draw(st.integers(0, 2))  # the last ones empty
    return values, labels, num_labels, draw(st.sampled_from([0, 1]))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grouped(), st.sampled_from(STATS), st.sampled_from(["C", "F", "strided", "negative"]))
@example((np.array([[1e300, 1.0, -1e300, 1e-300, 1e8, .1, .2, .3]]),
          np.array([0, 0, 0, 0, 1, 1, 1, 1]), 3, 1), "sum", "C")
@example((np.array([[1e8, .1, .2, .3, np.nan]]), np.array([0, 0, 0, 0, -1]), 2, 1), "std", "C")
@example((np.array([[1e300, 1e300, 1e-300, 1e-300, -0.0, 2.0]]), np.array([0, 0, 0, 0, 1, 1]),
          2, 0), "prod", "C")
def test_each_group_is_its_own_values_exactly(case: Any, stat: str, layout: str) -> None:
    values, labels, num_labels, ddof = case
    if not _no_overflow(values, stat):
        return  # beyond the range: test_overflow_* below
    view, _ = make_layout(values, layout)
    got = call(stat, view, labels, ddof, axis=-1, num_labels=num_labels)
    assert got.dtype == np.float64
    check_groups(stat, got, values, labels, num_labels, ddof, "memory")
    if values.shape[0] == 1:  # 1-d values, axis=None: the same numbers
        flat = call(stat, values[0], labels, ddof, num_labels=num_labels)
        np.testing.assert_array_equal(flat, got[0])


def test_a_lone_outlier_leaves_the_other_groups_alone() -> None:
    """One 1e8 (and one 1e16) among 3,000 N(0,1) values in 7 groups: each
    group exact within its bound, and the groups without the outlier
    bit for bit what they are without it."""
    rng = np.random.default_rng(5)
    values = rng.normal(size=3000)
    labels = rng.integers(-1, 7, values.size)
    values[rng.random(values.size) < 0.05] = np.nan
    dirty = values.copy()
    dirty[np.flatnonzero(labels == 3)[0]] = 1e8
    dirty[np.flatnonzero(labels == 5)[2]] = 1e16
    for stat in STATS:
        got = call(stat, dirty, labels, 1, num_labels=7)
        check_groups(stat, got[None], dirty[None], labels, 7, 1, "outlier")
        clean = call(stat, values, labels, 1, num_labels=7)
        keep = [0, 1, 2, 4, 6]
        np.testing.assert_array_equal(got[keep], clean[keep])


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(grouped(kinds=("magnitudes", "outlier", "overflow")), st.sampled_from(STATS), st.data())
def test_dask_groups_with_any_chunking_are_exact_within_the_bound(case: Any, stat: str,
                                                                   data: Any) -> None:
    """``nanops.group_nan*`` of a dask array cut at random along both axes,
    zero-size chunks among them: the exact value within the bound of the
    chunked merge; and where the in-memory call is exact in class (NaN,
    inf, zeros) the same class."""
    values, labels, num_labels, ddof = case
    if not _no_overflow(values, stat):
        return
    rows = data.draw(chunk_sizes(values.shape[0]), label="row chunks")
    cols = data.draw(chunk_sizes(values.shape[1]), label="column chunks")
    x = da.from_array(values, chunks=(rows, cols))
    lazy = call(stat, x, labels, ddof, axis=-1, num_labels=num_labels)
    assert isinstance(lazy, da.Array)
    got = lazy.compute(scheduler="sync")
    pieces = sum(1 for c in cols if c)
    check_groups(stat, got, values, labels, num_labels, ddof, ("dask", rows, cols), pieces)
    memory = call(stat, values, labels, ddof, axis=-1, num_labels=num_labels)
    assert got.dtype == memory.dtype and got.shape == memory.shape
    np.testing.assert_array_equal(np.isnan(got), np.isnan(memory))
    np.testing.assert_array_equal(np.isinf(got), np.isinf(memory))


#: nanops' value of an empty group, given to flox as the fill of groups
#: without members (flox's own default is NaN)
NATURAL = {"sum": 0.0, "prod": 1.0, "mean": np.nan, "var": np.nan, "std": np.nan}


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(grouped(), st.sampled_from(STATS), st.sampled_from(["map-reduce", "cohorts", "memory"]),
       st.data())
def test_flox_aggregations_are_exact_within_the_bound(case: Any, stat: str, method: str,
                                                      data: Any) -> None:
    """``flox.groupby_reduce`` with ``nanops.flox.aggregation``: on NumPy
    arrays (flox's in-memory path: nanops' kernel) and on dask arrays cut at
    random by map-reduce and cohorts (no zero-size chunk: flox's tree fails
    on them with its own aggregations too; ``nanops.group_nan*`` of a dask
    array, above, takes them)."""
    values, labels, num_labels, ddof = case
    if not _no_overflow(values, stat):
        return
    cols = data.draw(chunk_sizes(values.shape[1], zeros=False), label="chunks")
    arr: Any = values if method == "memory" else da.from_array(values, chunks=(1, cols))
    kw: dict[str, Any] = {} if method == "memory" else {"method": method}
    if stat in ("var", "std"):
        kw["finalize_kwargs"] = {"ddof": ddof}
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        res = flox.groupby_reduce(arr, labels, func=nanops.flox.aggregation(f"nan{stat}"),
                                  engine="numpy", expected_groups=np.arange(num_labels),
                                  axis=-1, fill_value=NATURAL[stat], **kw)[0]
        got = res if method == "memory" else res.compute(scheduler="sync")
    pieces = 1 if method == "memory" else len(cols)
    check_groups(stat, got, values, labels, num_labels, ddof, (method, cols), pieces)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(extreme_lanes(kinds=("magnitudes", "outlier", "overflow"), max_size=30),
       st.sampled_from(STATS), st.sampled_from([0, 1]), st.data())
def test_states_and_dask_reductions_of_pieces_are_exact_within_the_bound(
        a: np.ndarray, stat: str, ddof: int, data: Any) -> None:
    """One group's values cut into pieces (zero-size ones among them):
    ``nanops.states`` partial → concatenate → merge → finish, and the dask
    reduction over the same chunks, give the exact value within the bound
    of the chunked merge."""
    if not _no_overflow(a, stat):
        return
    cut = data.draw(chunk_sizes(a.size), label="pieces")
    bounds = np.cumsum((0,) + cut)
    name = f"nan{stat}"
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        parts = [states.partial(name, a[lo:hi]) for lo, hi in zip(bounds[:-1], bounds[1:])]
        merged = states.merge(name, np.concatenate(parts))
        got_states = states.finish(name, merged, keepdims=False, ddof=ddof)
        # no state at all (a zero-length axis): the empty group's value
        nothing = states.finish(name, states.merge(name, np.concatenate(parts)[:0]),
                                keepdims=False, ddof=ddof)
        kw = {"ddof": ddof} if stat in ("var", "std") else {}
        got_dask = getattr(nanops, name)(da.from_array(a, chunks=(cut,)), **kw)
        got_dask = got_dask.compute(scheduler="sync")
        memory = getattr(nanops, name)(a, **kw)
    pieces = sum(1 for c in cut if c)
    check_groups(stat, np.reshape(nothing, (1, 1)), a[None, :0], np.zeros(0, np.int64), 1, ddof,
                 "no state")
    labels = np.zeros(a.size, np.int64)
    for got, where in ((got_states, "states"), (got_dask, "dask"), (memory, "memory")):
        check_groups(stat, np.reshape(got, (1, 1)), a[None], labels, 1, ddof, (where, cut),
                     pieces if where != "memory" else 1)


CODE = """
import hashlib, warnings, numpy as np, nanops

warnings.simplefilter("ignore")
np.seterr(all="ignore")
rng = np.random.default_rng(23)
v = rng.normal(size=(3, 100_000))
v[rng.random(v.shape) < 1e-3] = 1e8
v[rng.random(v.shape) < 1e-3] = 1.5e300
v[rng.random(v.shape) < 1e-3] = -1.5e-300
v[rng.random(v.shape) < 0.05] = np.nan
lab = rng.integers(-1, 40, v.shape[1])
h = hashlib.sha256()
for stat in ("sum", "mean", "var", "std", "prod"):
    f = getattr(nanops, "group_nan" + stat)
    h.update(f(v, lab, axis=-1).tobytes())
    h.update(f(v.T.copy(), lab, axis=0).tobytes())
    h.update(f(v[0], lab).tobytes())
print(h.hexdigest())
"""


def test_thread_counts_give_the_same_bits() -> None:
    """300,000 values with outliers, huge and tiny values, NaN: 1 and 3
    rayon threads, the same bits."""
    one = digest_in_subprocess(CODE, 1)
    assert one and one == digest_in_subprocess(CODE, 3)


# --- beyond the range: NumPy's arithmetic (README) -----------------------------
# A group's result is its values' reduction (nanops.nansum/nanmean/nanvar/
# nanstd), and those overflow as NumPy's where a float partial sum does; the
# moving windows give the exact answers (issue Q). Each docstring has the
# exact answer beside NumPy's.


def _as_numpy(stat: str, values: list[float], labels: list[int], ddof: int) -> None:
    """Each group exactly NumPy's ``nan<stat>`` of its values (these all
    overflow on the way: NumPy's result is ``inf``)."""
    v, lab = np.array([values]), np.array(labels)
    k = max(labels) + 1
    got = call(stat, v, lab, ddof, axis=-1, num_labels=k)[0]
    extra = {"ddof": ddof} if stat in ("var", "std") else {}
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        want = [getattr(np, f"nan{stat}")(v[0][lab == g], **extra) for g in range(k)]
    np.testing.assert_array_equal(got, want, err_msg=f"{stat} of {values} by {labels}")


def test_overflow_sum_is_numpys_inf() -> None:
    """``group_nansum([1e308, 1e308, -1.7e308], [0, 0, 0])`` is ``[inf]``
    as ``np.nansum`` (exact: 3e307; README)."""
    _as_numpy("sum", [1e308, 1e308, -1.7e308], [0, 0, 0], 0)


def test_overflow_mean_is_numpys_inf() -> None:
    """``group_nanmean([1.7e308, 1.7e308], [0, 0])`` is ``[inf]`` as
    ``np.nanmean``."""
    _as_numpy("mean", [1.7e308, 1.7e308], [0, 0], 0)


def test_overflow_variances_are_numpys_inf_or_exact() -> None:
    """Variances and deviations whose squares overflow are ``inf`` as
    NumPy's, never NaN: ``group_nanstd([2.5, -1e155], [0, 0], ddof=0)`` and
    ``group_nanstd([1.7e308, -1.7e308, 2e154], [0, 0, 0], ddof=0)`` (NaN
    once: the values' difference overflowed in Welford's update, and the
    block's rounded mean 0 made ``inf − inf`` of the corrected formula).
    Where only the values' sum overflows the variance is exact:
    ``group_nanvar([1.7e308, 1.7e308], [0, 0])`` is ``[0.0]`` (NumPy: inf,
    its mean overflows; README)."""
    _as_numpy("std", [2.5, -1e155], [0, 0], 0)
    _as_numpy("std", [1.7e308, -1.7e308, 2e154], [0, 0, 0], 0)
    _as_numpy("std", [1.7e308, 5.0, -1.7e308, 2e154], [0, 1, 0, 0], 0)
    for ddof in (0, 1):
        got = call("var", np.array([[1.7e308] * 2]), np.array([0, 0]), ddof, axis=-1)
        np.testing.assert_array_equal(got, [[0.0]])


@pytest.mark.parametrize("values, labels", [
    ([1.0, 2.0, 3.0, 1e300], [0, 1, 0, 0]),
    ([2.0, 1.0, 3.0, 1e300], [1, 0, 0, 0]),
    ([1.0, 3.0, 1e300, 2.0], [0, 0, 0, 1]),
])
def test_overflow_variance_is_inf_in_every_layout(values: list[float], labels: list[int]) -> None:
    """The group ``[1, 3, 1e300]`` has variance ``inf`` whatever the labels'
    layout (it was NaN where a run of it was reduced about the running mean
    of the values before: ``inf − inf`` in the corrected formula)."""
    _as_numpy("var", values, labels, 0)


def check_overflowing_groups(stat: str, got: np.ndarray, values: np.ndarray,
                             labels: np.ndarray, num_labels: int, ddof: int) -> None:
    """``got[..., g]``: the exact value of group ``g`` within the bound of
    :func:`check_groups`, or, where a float partial sum of the group's values
    (of their squares for variances) can overflow, an infinity (+inf for
    variances and deviations), as NumPy's reductions give; NaN only where
    the exact value is NaN or, for sums and means, where partial sums can
    overflow to both infinities."""
    got = np.asarray(got)
    for lane in np.ndindex(values.shape[:-1]):
        for g in range(num_labels):
            group = values[lane][labels == g]
            x = float(got[lane + (g,)])
            if math.isinf(x) and not _no_overflow(group, stat):
                if exact_group(stat, group.tolist(), ddof)[0] == "value":
                    assert stat in ("sum", "mean") or x > 0, (stat, lane, g, x)
                    continue
            if math.isnan(x) and stat in ("sum", "mean") and _both_ways(group):
                continue  # partial sums overflowed to both infinities: inf − inf
            check_group(stat, x, group, ddof, (lane, g))


def _both_ways(group: np.ndarray) -> bool:
    """Whether float partial sums of ``group`` can reach both infinities
    (its positive and its negative values each sum beyond a quarter of the
    range, or an infinity): their sum is then NaN in some orders, NumPy's
    too (README)."""
    def reach(part: np.ndarray) -> bool:
        return bool(np.isinf(part).any()) or sum(
            (Fraction(float(v)) for v in np.abs(part)), ZERO) >= OVERFLOW / 4
    return reach(group[group > 0]) and reach(group[group < 0])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grouped(kinds=("overflow",)), st.sampled_from(("sum", "mean", "var", "std")))
def test_overflow_each_group_is_exact_or_numpys_inf(case: Any, stat: str) -> None:
    """Groups of values whose sums or squares overflow float64: each group
    the exact value within the same bound, or an infinity where a partial
    sum can overflow (:func:`check_overflowing_groups`)."""
    values, labels, num_labels, ddof = case
    got = call(stat, values, labels, ddof, axis=-1, num_labels=num_labels)
    assert np.asarray(got).shape == values.shape[:-1] + (num_labels,)
    check_overflowing_groups(stat, got, values, labels, num_labels, ddof)
