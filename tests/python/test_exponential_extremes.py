"""Exponential moving windows under extremes (issue Q): magnitudes from
1e-300 to 1e300 mixed in one lane, a lone 1e8 outlier in unit data, NaN and
infinities, alphas of 0, of 1 and near 1, per position or scalar.

Every position is checked against the exact value of numbagg's definition
(README, "Differences from numbagg and pandas"): the decayed sums
``Σ x·W``, ``Σ x²·W``, ``Σ W``, ``Σ W²`` and ``Σ alpha·W`` of the values so
far, ``W`` the product of the decays ``1 − alpha`` (numbagg's float
``1.0 - alpha``, taken exactly) since each value, computed with
``fractions.Fraction``; then the mean ``Σx·W / ΣW``, the sum, the count
``ΣW`` and the bias-corrected variance ``(Σx²W/ΣW − (ΣxW/ΣW)²) / (1 −
ΣW²/(ΣW)²)``, NaN where ``Σ alpha·W < min_weight``.

The tolerance is the rounding bound of numbagg's operations in float64,
propagated to first order along the recurrence (``exp_lane``): each decayed
sum ``s ← fl(fl(d·s) + x)`` gains at most ``u·(d·A + A')`` per step (``A``
the sum of the absolute values it holds, ``u = 2**-53``) and ``2**-1074`` per
product that underflows, the old error times ``d``; the quotients and the
difference of the variance add their own ``u`` and carry the errors of
their operands; the whole bound is doubled for the second-order terms. The
variance's bound is proportional to ``Σx²W`` (numbagg's sums of squares, as
documented), so it is wide after an outlier and narrows as it decays: the
test checks that nothing beyond that remains.

Where the bound cannot decide (the weight at ``min_weight`` within its
rounding, a bias correction ``1 − ΣW²/(ΣW)²`` not above its rounding: one
value, or ``alpha`` near 1, or a weight that underflowed) either NaN or
any value is accepted. Values whose sums or squares overflow float64 are
in their own tests (``test_overflow_*``): there numbagg's float recurrence
is the answer (its running sums overflow and keep the infinity; README,
"Differences from numbagg and pandas"), position by position.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from _support import (
    OVERFLOW,
    TINY,
    UNIT,
    digest_in_subprocess,
    extreme_lanes,
    sqrt_fraction,
    make_layout,
    same_bits,
    to_float,
    within,
)
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import nanops

STATS = ("mean", "sum", "var", "std", "count")
U = UNIT
ZERO = Fraction(0)


@dataclass(frozen=True)
class Want:
    """What one position may hold: ``"nan"``; ``"value"`` (within ``tol`` of
    ``exact``, an infinity where that reaches the overflow threshold);
    ``"inf"`` (exactly ``exact``'s infinity); ``"below"`` (NaN, or a value in
    ``[0, tol]``: a standard deviation whose variance may round negative);
    ``"any"`` (the bound cannot decide)."""

    kind: str
    exact: Fraction | float = ZERO
    tol: Fraction = ZERO


def exp_lane(stat: str, xs: list[float], alphas: list[float], min_weight: float) -> list[Want]:
    """The exact value of ``move_exp_nan<stat>`` and its bound at each
    position of one lane (see the module's notes)."""
    return [_position(stat, s) for s in exp_states(xs, alphas, min_weight)]


def exp_states(xs: list[float], alphas: list[float], min_weight: float) -> list[dict[str, Any]]:
    """The exact decayed sums of one lane and their float error bounds, at
    each position."""
    F = Fraction
    # exact decayed sums, and the float error bound of each (both Fractions)
    sx = sx2 = sw = sw2 = wt = ZERO
    ax = ZERO  # Σ|x|·W: the size of what sx holds
    ex = ex2 = ew = ew2 = ewt = ZERO
    pos_inf = neg_inf = seen = False
    mw = F(min_weight)
    out = []
    for x, a in zip(xs, alphas):
        d = F(1.0 - a)  # numbagg's decay, a float (exactly taken)
        dd = d * d
        # decay: one product (d·s) rounded, or underflowing by up to TINY;
        # the squared weights by the rounded d**2 too
        ex = d * ex + U * d * ax + TINY
        ex2 = d * ex2 + U * d * sx2 + TINY
        ew = d * ew + U * d * sw + TINY
        ewt = d * ewt + U * d * wt + TINY
        ew2 = dd * ew2 + 2 * U * dd * sw2 + TINY
        sx, sx2, sw, sw2, wt, ax = sx * d, sx2 * d, sw * d, sw2 * dd, wt * d, ax * d
        if not math.isnan(x):
            seen = True
            if math.isinf(x):
                pos_inf |= x > 0
                neg_inf |= x < 0
            else:
                fx = F(x)
                sx, ax, sx2 = sx + fx, ax + abs(fx), sx2 + fx * fx
                ex += U * ax
                ex2 += U * fx * fx + TINY + U * sx2  # x*x rounded (or underflowing), the sum
            sw, sw2, wt = sw + 1, sw2 + 1, wt + F(a)
            ew, ew2, ewt = ew + U * sw, ew2 + U * sw2, ewt + U * wt
        out.append(dict(
            sx=sx, sx2=sx2, sw=sw, sw2=sw2, wt=wt, ex=ex, ex2=ex2, ew=ew, ew2=ew2, ewt=ewt,
            mw=mw, seen=seen, pos_inf=pos_inf, neg_inf=neg_inf))
    return out


def _position(stat: str, s: dict[str, Any]) -> Want:
    """One position's ``Want`` from the lane's exact sums and their bounds."""
    sw, ew, wt, ewt, mw = s["sw"], s["ew"], s["wt"], s["ewt"], s["mw"]
    # (a float sum of non-negative terms is non-negative: min_weight <= 0 passes)
    if mw > 0 and abs(wt - mw) <= 2 * ewt:
        return Want("any")  # the weight is at min_weight within its rounding
    if wt < mw and mw > 0:
        return Want("nan")
    if stat == "count":
        return Want("value", sw, 2 * ew)
    if not s["seen"]:
        return Want("nan")  # nothing seen: the sum is NaN, the mean 0/0
    inf = s["pos_inf"] or s["neg_inf"]
    if inf and stat in ("var", "std"):
        return Want("nan")  # inf − inf
    if inf:
        if s["pos_inf"] and s["neg_inf"]:
            return Want("nan")
        return Want("inf", math.inf if s["pos_inf"] else -math.inf)
    sx, ex = s["sx"], s["ex"]
    if stat == "sum":
        return Want("value", sx, 2 * ex)
    if ew >= sw / 2:
        return Want("any")  # the weights underflowed: ΣW has no digit left
    m = sx / sw
    em = (ex + abs(m) * ew) / sw * (1 + 4 * ew / sw) + U * abs(m)
    if stat == "mean":
        return Want("value", m, 2 * em)
    sx2, ex2, sw2, ew2 = s["sx2"], s["ex2"], s["sw2"], s["ew2"]
    big_a = sx2 / sw
    ea = (ex2 + big_a * ew) / sw * (1 + 4 * ew / sw) + U * big_a
    big_b = m * m
    eb = 2 * abs(m) * em + em * em + U * big_b + TINY
    vb = big_a - big_b
    evb = ea + eb + U * (big_a + big_b + ea + eb) + TINY
    r = sw2 / (sw * sw)
    er = r * (ew2 / sw2 + 2 * ew / sw) * (1 + 8 * ew / sw) + 2 * U * r
    bias = 1 - r
    ebias = er + U
    if bias - 2 * ebias <= 0:
        return Want("any")  # one value (0/0), or a bias correction lost in rounding
    v = vb / bias
    ev = 2 * ((evb + abs(v) * 2 * ebias) / (bias - 2 * ebias) + U * abs(v) + TINY)
    if stat == "var":
        return Want("value", v, ev)
    if v - ev <= 0:
        return Want("below", ZERO, sqrt_fraction(v + ev) * (1 + 4 * U))
    # |sqrt(g) - sqrt(v)| = |g - v| / (sqrt(g) + sqrt(v)), g >= v - ev; the root rounded
    sd = sqrt_fraction(v)
    es = ev / (sd + sqrt_fraction(v - ev)) * (1 + 8 * U) + 4 * U * sd
    return Want("value", sd, es)


def check_lane(stat: str, got: np.ndarray, wants: list[Want], where: Any) -> None:
    for i, (g, w) in enumerate(zip(np.asarray(got, dtype=np.float64).tolist(), wants)):
        ok = {
            "any": True,
            "nan": math.isnan(g),
            "inf": g == w.exact,
            "value": within(g, w.exact, w.tol),  # type: ignore[arg-type]
            "below": math.isnan(g) or 0 <= g <= w.tol,
        }[w.kind]
        assert ok, (stat, where, i, g, w.kind, to_float(Fraction(w.exact)) if w.kind != "inf"
                    else w.exact, to_float(w.tol))


def call(stat: str, a: Any, **kw: Any) -> np.ndarray:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        return getattr(nanops, f"move_exp_nan{stat}")(a, **kw)


def _no_overflow(a: np.ndarray, stat: str) -> bool:
    """Whether numbagg's float sums of ``a`` stay finite: ``Σ|x|`` (and for
    the variance ``Σx²``) below the range."""
    fin = np.abs(a[np.isfinite(a)])
    total = sum((Fraction(float(v)) for v in fin), ZERO)
    if stat in ("var", "std"):
        total = max(total, sum((Fraction(float(v)) ** 2 for v in fin), ZERO))
    return total < OVERFLOW / 4


ALPHA = (st.sampled_from([0.0, 0.5, 0.1, 0.9, 0.01, 0.99, 0.999999])
         | st.floats(0.0, 1.0, exclude_max=True))
MIN_WEIGHT = st.sampled_from([0.0, 0.0, 0.3, 0.5, 0.99, -1.0])


@st.composite
def exp_cases(draw: Any, kinds: tuple[str, ...] = ("magnitudes", "outlier")) -> Any:
    """A lane, its alphas (a scalar or one per position; 1.0 only in lanes
    without infinities: ``inf · 0`` is another question, see
    ``test_alpha_one_lets_an_infinity_leave``), a ``min_weight``."""
    a = draw(extreme_lanes(kinds=kinds, max_exp=draw(st.sampled_from([150, 300]))))
    # (nor in lanes that overflow: alpha = 1 forgets their infinity, numbagg not)
    alpha_st = ALPHA if np.isinf(a).any() or "overflow" in kinds else ALPHA | st.just(1.0)
    if draw(st.booleans()):
        alpha: Any = draw(alpha_st)
        alphas = [float(alpha)] * a.size
    else:
        alphas = draw(st.lists(alpha_st, min_size=a.size, max_size=a.size))
        alpha = np.array(alphas)
    return a, alpha, alphas, draw(MIN_WEIGHT)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(exp_cases(), st.sampled_from(STATS))
@example((np.array([1e8, .1, .2, .3, .4, .5, .6, .7]), 0.5, [0.5] * 8, 0.0), "std")
@example((np.array([1.5e300, 1.0, -1.5e300, 1.5e-300, 2.0]), 0.1, [0.1] * 5, 0.0), "mean")
@example((np.array([1.5e150, 1.5e-150, -1.5e150, 3.0, 4.0]), 0.25, [0.25] * 5, 0.0), "var")
@example((np.array([np.inf, 1.0, np.nan, -np.inf, 2.0]), 0.3, [0.3] * 5, 0.5), "sum")
def test_each_position_is_the_exact_recurrence_within_its_bound(case: Any, stat: str) -> None:
    a, alpha, alphas, min_weight = case
    if not _no_overflow(a, stat):
        return  # beyond the range: test_overflow_* below
    got = call(stat, a, alpha=alpha, min_weight=min_weight)
    assert got.shape == a.shape and got.dtype == np.float64
    check_lane(stat, got, exp_lane(stat, a.tolist(), alphas, min_weight), (a, alpha))


def test_a_lone_outlier_in_unit_data_decays_away() -> None:
    """One 1e8 in N(0,1) values, alpha 0.25: every position of the first 160
    within the bound of the exact recurrence; over 400 positions, what
    remains of the outlier 80 positions on is its own decayed term, as if
    it had never been there but for that weight."""
    rng = np.random.default_rng(11)
    a = rng.normal(size=400)
    a[50] = 1e8
    a[rng.random(a.size) < 0.1] = np.nan
    head = a[:160]
    sums = exp_states(head.tolist(), [0.25] * head.size, 0.1)
    for stat in STATS:
        got = call(stat, head, alpha=0.25, min_weight=0.1)
        check_lane(stat, got, [_position(stat, s) for s in sums], "outlier")
    clean = a.copy()
    clean[50] = 0.0  # the outlier's weight is also in ΣW: replace it by 0, not NaN
    age = (np.arange(a.size) - 50)[130:]
    # what remains is the outlier's own term: x·0.75**age / ΣW for the mean
    # and sum (ΣW >= 1 here), x²·0.75**age / (ΣW · bias) for the variance
    # (bias > 0.5), with the rounding of its own sums, which decays alike
    for stat, x in (("mean", 1e8), ("sum", 1e8), ("var", 1e16)):
        diff = call(stat, a, alpha=0.25) - call(stat, clean, alpha=0.25)
        assert (np.abs(diff[130:]) <= 4 * x * 0.75 ** age + 1e-12).all(), stat


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(exp_cases(kinds=("magnitudes", "outlier", "overflow")), st.sampled_from(STATS),
       st.sampled_from(["C", "F", "strided", "negative"]))
def test_layouts_give_the_same_bits(case: Any, stat: str, layout: str) -> None:
    """A lane alone, as a row and as a column of a 2-d array (in every memory
    layout), and reversed twice: the same bits (also under overflow)."""
    a, alpha, _, min_weight = case
    one = call(stat, a, alpha=alpha, min_weight=min_weight)
    wide = np.stack([a, a[::-1], a])
    for arr, axis, pick in ((wide, 1, (0, slice(None))), (wide.T, 0, (slice(None), 2))):
        view, _ = make_layout(arr, layout)
        same_bits(call(stat, view, alpha=alpha, min_weight=min_weight, axis=axis)[pick], one)
    same_bits(call(stat, a[::-1].copy()[::-1], alpha=alpha, min_weight=min_weight), one)


THREADS_CODE = """
import hashlib, warnings, numpy as np, nanops

warnings.simplefilter("ignore")
np.seterr(all="ignore")
rng = np.random.default_rng(17)
a = rng.normal(size=(96, 1500))
a[rng.random(a.shape) < 1e-3] = 1e8
a[rng.random(a.shape) < 1e-3] = 1.5e300
a[rng.random(a.shape) < 1e-3] = -1.5e-300
a[rng.random(a.shape) < 0.05] = np.nan
a[rng.random(a.shape) < 1e-4] = np.inf
h = hashlib.sha256()
for stat in ("mean", "sum", "var", "std", "count"):
    f = getattr(nanops, "move_exp_nan" + stat)
    for axis, alpha in ((-1, 0.05), (0, 0.3), (-1, rng.random(1500))):
        h.update(np.ascontiguousarray(f(a, alpha=alpha, min_weight=0.1, axis=axis)).tobytes())
print(h.hexdigest())
"""


def test_thread_counts_give_the_same_bits() -> None:
    """144,000 values (above the parallel threshold) with outliers, huge and
    tiny values, NaN and inf: 1 and 3 rayon threads, the same bits."""
    one = digest_in_subprocess(THREADS_CODE, 1)
    assert one and one == digest_in_subprocess(THREADS_CODE, 3)


# --- beyond the range: numbagg's recurrence (README) ---------------------------
# nanops keeps numbagg's operations in numbagg's order, so where a float sum
# overflows it gives what numbagg gives (pandas' ewm keeps some of these in
# range: the README says which); each docstring has numbagg's answer and the
# exact one.


def as_numbagg(stat: str, a: np.ndarray, alpha: Any, min_weight: float = 0.0) -> None:
    """``move_exp_nan<stat>`` gives numbagg's result at every position: NaN
    and infinities where numbagg has them, finite values to 4 ulps."""
    numbagg = pytest.importorskip("numbagg")
    got = call(stat, a, alpha=alpha, min_weight=min_weight)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        want = getattr(numbagg, f"move_exp_nan{stat}")(a, alpha=alpha, min_weight=min_weight)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=f"{stat} {a}")
    np.testing.assert_array_equal(np.where(np.isinf(want), want, 0), np.where(np.isinf(got), got, 0))
    finite = np.isfinite(want)
    np.testing.assert_allclose(got[finite], want[finite], rtol=float(4 * UNIT), atol=0)


def test_overflow_mean_of_huge_values() -> None:
    """``move_exp_nanmean([1.7e308, 1.7e308], alpha=.5)`` is ``[1.7e308,
    inf]`` as numbagg's (exact: ``[1.7e308, 1.7e308]``)."""
    as_numbagg("mean", np.array([1.7e308, 1.7e308]), 0.5)
    np.testing.assert_array_equal(call("mean", np.array([1.7e308, 1.7e308]), alpha=0.5),
                                  [1.7e308, np.inf])


def test_overflow_sum_keeps_its_infinity() -> None:
    """``move_exp_nansum([1.7e308, 1.7e308, 1], alpha=.5)`` is ``[1.7e308,
    inf, inf]`` as numbagg's (exact: ``[1.7e308, inf, 1.275e308]``)."""
    as_numbagg("sum", np.array([1.7e308, 1.7e308, 1.0]), 0.5)


def test_overflow_variances_whose_squares_overflow() -> None:
    """``move_exp_nanvar([1.7e308, 1.7e308], alpha=.5)`` is ``[nan, nan]``
    (exact ``[nan, 0]``), ``move_exp_nanvar([1.7e308, 1e155])`` ``[nan,
    nan]`` (exact ``[nan, inf]``), ``move_exp_nanstd([1, 2e154])`` ``[nan,
    inf]`` (exact ``[nan, 1.414e154]``): numbagg's answers."""
    as_numbagg("var", np.array([1.7e308, 1.7e308]), 0.5)
    as_numbagg("var", np.array([1.7e308, 1e155]), 0.5)
    as_numbagg("std", np.array([1.7e308, 1e155]), 0.5)
    as_numbagg("std", np.array([1.0, 2e154]), 0.5)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(exp_cases(kinds=("overflow",)), st.sampled_from(STATS))
def test_overflow_each_position_is_numbaggs(case: Any, stat: str) -> None:
    """Lanes whose float sums (or sums of squares) overflow: numbagg's
    result at each position (the bounded exact checks above hold where
    nothing overflows)."""
    a, alpha, alphas, min_weight = case
    as_numbagg(stat, a, np.asarray(alphas) if np.ndim(alpha) else alpha, min_weight)


def test_alpha_one_lets_an_infinity_leave() -> None:
    """alpha = 1: each position is its own value (the older ones weigh
    ``0**age = 0``), so an infinity leaves as any value does:
    ``move_exp_nanmean([inf, 1, 2], alpha=1)`` is ``[inf, 1, 2]`` as pandas'
    ``ewm(alpha=1)`` gives (numbagg: ``inf · 0`` is NaN forever after; it
    was here too)."""
    a = np.array([np.inf, 1.0, 2.0])
    np.testing.assert_array_equal(call("mean", a, alpha=1.0), [np.inf, 1.0, 2.0])
    np.testing.assert_array_equal(call("sum", a, alpha=1.0), [np.inf, 1.0, 2.0])
