"""``nanskew`` / ``nankurt`` against ``scipy.stats.skew`` / ``kurtosis`` with
``nan_policy="omit"`` and against exact references.

Two references per slice:

* **exact**: the statistic's definition (scipy's: biased central moments,
  its ``bias=False`` corrections, NaN where ``m2 <= (eps * mean)**2``) in
  rational arithmetic (``fractions.Fraction``) on the slice's non-NaN
  values, rounded once.  ``eps`` is the machine epsilon of the result dtype,
  which is what scipy applies when it computes in the input's dtype.  NaN
  positions must match it exactly (but for slices within a millionth of
  the ``m2 = (eps * mean)**2`` boundary, where either answer is right), and
  values within ``16 * eps_c * cond + eps_r * |ref|``: ``eps_c`` is the
  epsilon of the type nanops computes in (float32 for float16 input,
  float64 otherwise), ``cond`` the statistic's condition number
  (``mean|d|**3 / m2**1.5`` for the skewness, ``m4 / m2**2`` for the
  kurtosis, times the ``bias=False`` factor), ``eps_r * |ref|`` one rounding
  to the result dtype.
* **scipy** itself, run on a float64 copy of the input (scipy computes
  float16/float32 input in that type, off by far more than nanops): where
  both are finite they must agree within the bound above plus scipy's own
  error, ``16 * eps64 * (|mean| / std) * (1 + |g|)``, which comes from
  subtracting a rounded mean (it dominates for data far from zero).
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction
from typing import Any

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
import scipy.stats
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.exceptions import AxisError

import nanops
from _support import make_layout

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

DTYPES = [np.float16, np.float32, np.float64, np.float64, np.int8, np.int32, np.int64,
          np.uint8, np.uint64, np.bool_]
LAYOUTS = ("C", "F", "strided", "negative", "transposed", "byteswapped")
MAX_SIDE = {0: 0, 1: 40, 2: 10, 3: 5, 4: 3}


def result_dtype(dt: np.dtype[Any]) -> np.dtype[Any]:
    return dt if dt.kind == "f" else np.dtype(np.float64)


def compute_eps(dt: np.dtype[Any]) -> float:
    """Epsilon of the type nanops computes in."""
    return float(np.finfo(np.float32 if dt == np.float16 else np.float64).eps)


# ------------------------------------------------------------- references


def _slices(x: np.ndarray, axis: Any) -> tuple[tuple[int, ...], list[np.ndarray]]:
    """The output shape and the values of each output's slice (C order)."""
    axes = tuple(range(x.ndim)) if axis is None else np.lib.array_utils.normalize_axis_tuple(axis, x.ndim)
    kept = [i for i in range(x.ndim) if i not in axes]
    moved = np.moveaxis(x, kept, list(range(len(kept))))
    out_shape = tuple(x.shape[i] for i in kept)
    flat = moved.reshape((math.prod(out_shape), -1)) if x.size else np.zeros((math.prod(out_shape), 0))
    return out_shape, list(flat)


class Exact:
    """The exact statistics of one slice (``fractions.Fraction``)."""

    def __init__(self, values: np.ndarray, eps_r: float) -> None:
        v = values[~np.isnan(values)]
        self.n = n = len(v)
        self.inf = bool(np.isinf(v).any())
        self.nan = n == 0 or self.inf
        self.boundary = False
        if self.nan:
            return
        fr = [Fraction(float(t)) for t in v]
        mean = sum(fr, Fraction(0)) / n
        d = [t - mean for t in fr]
        self.M2 = sum((t * t for t in d), Fraction(0))
        self.M3 = sum((t * t * t for t in d), Fraction(0))
        self.M4 = sum((t ** 4 for t in d), Fraction(0))
        threshold = (Fraction(eps_r) * mean) ** 2 * n  # n * (eps * mean)**2 against M2
        self.nan = self.M2 <= threshold
        self.boundary = abs(self.M2 - threshold) <= threshold / 10**6
        self.abs3 = float(sum((abs(t) ** 3 for t in d), Fraction(0)) / n)
        self.mean, self.std = float(mean), math.sqrt(float(self.M2 / n))

    def skew(self, bias: bool) -> tuple[float, float]:
        """The skewness and its condition number."""
        if self.nan:
            return math.nan, 0.0
        n = self.n
        q = self.M3 * self.M3 * n / self.M2**3  # g1**2
        factor = 1.0
        if not bias and n > 2:
            q *= Fraction(n * (n - 1), (n - 2) ** 2)
            factor = math.sqrt(n * (n - 1)) / (n - 2)
        g = math.copysign(math.sqrt(float(q)), float(self.M3))
        return g, factor * (self.abs3 / self.std**3 + 1.5 * abs(g))

    def kurt(self, bias: bool, fisher: bool) -> tuple[float, float]:
        """The kurtosis and its condition number."""
        if self.nan:
            return math.nan, 0.0
        n = self.n
        g2 = self.M4 * n / self.M2**2
        cond = float(g2)
        if not bias and n > 3:
            g2 = ((n + 1) * g2 - 3 * (n - 1)) * (n - 1) / Fraction((n - 2) * (n - 3)) + 3
            cond *= (n + 1) * (n - 1) / ((n - 2) * (n - 3))
        return float(g2 - 3 if fisher else g2), 3 * cond


def references(x: np.ndarray, axis: Any, kind: str, bias: bool, fisher: bool) -> dict[str, np.ndarray]:
    """Exact values, their bounds, NaN and boundary masks, and scipy's values."""
    eps_r = float(np.finfo(result_dtype(x.dtype)).eps)
    eps_c = compute_eps(x.dtype)
    x64 = x.astype(np.float64)
    shape, slices = _slices(x64, axis)
    exact, bound, sbound, nan, edge = [], [], [], [], []
    for s in slices:
        e = Exact(s, eps_r)
        g, cond = e.skew(bias) if kind == "skew" else e.kurt(bias, fisher)
        exact.append(g)
        b = 16 * eps_c * cond + eps_r * abs(g)
        bound.append(b)
        sbound.append(b + (0 if e.nan else 16 * 2**-52 * (abs(e.mean) / e.std + 1) * (1 + abs(g))))
        nan.append(e.nan)
        edge.append(e.boundary)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        if kind == "skew":
            sp = scipy.stats.skew(x64, axis=axis, bias=bias, nan_policy="omit")
        else:
            sp = scipy.stats.kurtosis(x64, axis=axis, bias=bias, fisher=fisher, nan_policy="omit")
    arr = {k: np.array(v, dtype=bool if k in ("nan", "edge") else float).reshape(shape)
           for k, v in dict(exact=exact, bound=bound, sbound=sbound, nan=nan, edge=edge).items()}
    arr["scipy"] = np.asarray(sp, dtype=np.float64).reshape(shape)
    return arr


def check(got: Any, x: np.ndarray, axis: Any, kind: str, bias: bool = True, fisher: bool = True) -> None:
    g = np.asarray(got)
    assert g.dtype == result_dtype(x.dtype), (g.dtype, x.dtype)
    ref = references(x, axis, kind, bias, fisher)
    g64 = g.astype(np.float64)
    assert g64.shape == ref["exact"].shape
    gnan = np.isnan(g64)
    wrong_nan = (gnan != ref["nan"]) & ~ref["edge"]
    assert not wrong_nan.any(), f"NaN positions: got {g64}, exact {ref['exact']}"
    both = ~gnan & ~ref["nan"]
    err = np.abs(g64 - ref["exact"], where=both, out=np.zeros_like(g64))
    bad = both & (err > ref["bound"])
    assert not bad.any(), f"got {g64[bad]}, exact {ref['exact'][bad]}, bound {ref['bound'][bad]}"
    sp = ref["scipy"]
    with np.errstate(invalid="ignore"):
        seen = both & np.isfinite(sp)
        err = np.abs(g64 - sp, where=seen, out=np.zeros_like(g64))
    bad = seen & (err > ref["sbound"])
    assert not bad.any(), f"got {g64[bad]}, scipy {sp[bad]}, bound {ref['sbound'][bad]}"


# ---------------------------------------------------------------- strategies


@st.composite
def shapes(draw: st.DrawFn) -> tuple[int, ...]:
    ndim = draw(st.sampled_from([1, 2, 3, 4, 1, 2, 0]))
    shape = [draw(st.integers(1, MAX_SIDE[ndim])) for _ in range(ndim)]
    if ndim and draw(st.integers(0, 9)) == 0:
        shape[draw(st.integers(0, ndim - 1))] = 0
    return tuple(shape)


def _values(dt: np.dtype[Any]) -> st.SearchStrategy[Any]:
    if dt.kind == "b":
        return st.booleans()
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return st.one_of(st.integers(max(int(info.min), -5), min(int(info.max), 5)),
                         st.integers(int(info.min), int(info.max)))
    width = 8 * dt.itemsize
    big = 200.0 if width == 16 else 1e6
    return st.one_of(
        st.integers(-5, 5).map(float),
        # float64 values below 1e-60 are flushed to 0: the fourth powers of
        # their deviations underflow (nanops and scipy alike give NaN or noise)
        st.floats(-big, big, allow_nan=False, allow_infinity=False, width=width).map(  # type: ignore[arg-type]
            lambda v: 0.0 if abs(v) < 1e-60 else v
        ),
        st.floats(1e3, 1e3 + 1, width=width),  # type: ignore[arg-type]  # an offset, small spread
    )


@st.composite
def arrays(draw: st.DrawFn) -> np.ndarray:
    dt = np.dtype(draw(st.sampled_from(DTYPES)))
    shape = draw(shapes())
    x = draw(hnp.arrays(dt, shape, elements=_values(dt)))
    if dt.kind == "f" and x.size:
        pattern = draw(st.sampled_from(["none", "some", "some", "slab", "all", "inf"]))
        if pattern == "some":
            x[draw(hnp.arrays(np.bool_, shape))] = np.nan
        elif pattern == "slab" and x.ndim:
            ax = draw(st.integers(0, x.ndim - 1))
            idx = draw(st.integers(0, x.shape[ax] - 1))
            x[(slice(None),) * ax + (idx,)] = np.nan
        elif pattern == "all":
            x[...] = np.nan
        elif pattern == "inf":
            x.flat[draw(st.integers(0, x.size - 1))] = np.inf
    return x


@st.composite
def axes(draw: st.DrawFn, ndim: int) -> Any:
    if ndim == 0:
        return draw(st.sampled_from([None, 0, -1]))
    choice = draw(st.sampled_from(["none", "int", "neg", "tuple"]))
    if choice == "none":
        return None
    if choice == "int":
        return draw(st.integers(0, ndim - 1))
    if choice == "neg":
        return draw(st.integers(-ndim, -1))
    picked = draw(st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True))
    return tuple(p - ndim if draw(st.booleans()) else p for p in picked)


def _scipy_axis(axis: Any, ndim: int) -> Any:
    """scipy takes no axis on 0-d input other than None."""
    return None if ndim == 0 else axis


# ------------------------------------------------------------ the property


@SETTINGS
@given(data=st.data())
def test_nanskew_and_nankurt_equal_scipy_and_the_exact_values(data: st.DataObject) -> None:
    x = data.draw(arrays())
    axis = data.draw(axes(x.ndim))
    layout = data.draw(st.sampled_from(LAYOUTS))
    bias, fisher = data.draw(st.booleans()), data.draw(st.booleans())
    view, _ = make_layout(x, layout)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        skew = nanops.nanskew(view, axis=axis, bias=bias)
        kurt = nanops.nankurt(view, axis=axis, bias=bias, fisher=fisher)
    sa = _scipy_axis(axis, x.ndim)
    check(skew, x, sa, "skew", bias)
    check(kurt, x, sa, "kurt", bias, fisher)


# ---------------------------------------------------------------- accuracy


def _exact_g(ks: list[int]) -> tuple[Fraction, Fraction]:
    """``g1**2`` and ``g2`` of integers ``ks`` exactly (offsets and units cancel)."""
    n = len(ks)
    s = sum(ks)
    d = [n * k - s for k in ks]  # n * (k - mean)
    a2 = sum(t * t for t in d)
    a3 = sum(t**3 for t in d)
    a4 = sum(t**4 for t in d)
    # m_j = a_j / n**(j + 1): g1**2 = m3**2 / m2**3 = a3**2 * n / a2**3, g2 = a4 * n / a2**2
    return Fraction(a3 * a3 * n, a2**3) * (1 if a3 >= 0 else -1), Fraction(a4 * n, a2 * a2)


def _skewed_ints(n: int, seed: int, sd: float) -> list[int]:
    rng = np.random.default_rng(seed)
    return [int(v) for v in np.round(sd * (rng.standard_normal(n) ** 2 - 1))]


@pytest.mark.parametrize("offset, unit", [(1e8, 2.0**-20), (2.0**-27, 2.0**-60), (0.0, 1.0)])
@pytest.mark.parametrize("n", [7, 1000, 100_000])
def test_float64_offsets_cost_no_digits(offset: float, unit: float, n: int) -> None:
    ks = _skewed_ints(n, n, 256.0)
    x = offset + np.array(ks, dtype=np.float64) * unit
    assert np.array_equal(x - offset, np.array(ks) * unit)  # the values are exact
    x = np.insert(x, np.arange(0, n, 9), np.nan)  # NaN between them
    q1, g2 = _exact_g(ks)
    g1 = math.copysign(math.sqrt(float(abs(q1))), float(q1))
    eps = np.finfo(np.float64).eps
    skew = nanops.nanskew(x)
    kurt = nanops.nankurt(x, fisher=False)
    assert abs(skew - g1) <= 4 * eps * abs(g1), (skew, g1)
    assert abs(kurt - float(g2)) <= 4 * eps * float(g2), (kurt, float(g2))
    # along axis 0 of a column and along axis 1 of a row: the same values
    col = nanops.nanskew(x[:, None], axis=0)[0]
    assert abs(col - g1) <= 4 * eps * abs(g1), (col, g1)
    # scipy, for comparison (its error grows with offset / spread)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        sp = scipy.stats.skew(x, nan_policy="omit")
    assert abs(sp - g1) <= 64 * eps * (abs(offset) / (unit * 256) + 1) * (1 + abs(g1))


@pytest.mark.parametrize("n", [10, 30_000])
def test_float32_results_are_within_an_ulp(n: int) -> None:
    ks = _skewed_ints(n, 3 + n, 256.0)
    x = (1e4 + np.array(ks, dtype=np.float64) * 2.0**-10).astype(np.float32)
    assert np.array_equal(x.astype(np.float64), 1e4 + np.array(ks) * 2.0**-10)
    q1, g2 = _exact_g(ks)
    g1 = math.copysign(math.sqrt(float(abs(q1))), float(q1))
    eps = float(np.finfo(np.float32).eps)
    skew, kurt = nanops.nanskew(x), nanops.nankurt(x)
    assert skew.dtype == kurt.dtype == np.float32
    assert abs(float(skew) - g1) <= eps * abs(g1)
    assert abs(float(kurt) - float(g2 - 3)) <= eps * abs(float(g2 - 3))


# ------------------------------------------------- arguments as nanvar's


X = np.random.default_rng(5).standard_normal((6, 7, 8)) ** 2
X[X > 2.5] = np.nan


@pytest.mark.parametrize("func", [nanops.nanskew, nanops.nankurt])
def test_keepdims_out_where_dtype(func: Any) -> None:
    base = func(X, axis=(0, 2))
    np.testing.assert_array_equal(func(X, axis=(0, 2), keepdims=True), base.reshape(1, 7, 1))
    out = np.empty(7)
    assert func(X, axis=(0, 2), out=out) is out
    np.testing.assert_array_equal(out, base)
    out32 = np.empty((1, 7, 1), np.float32)
    func(X, axis=(-3, -1), out=out32, keepdims=True)
    np.testing.assert_array_equal(out32.ravel(), base.astype(np.float32))
    assert func(X, axis=1, dtype=np.float32).dtype == np.float32
    # dtype= more precise than the input: computed in it (the input cast first)
    x16 = X.astype(np.float16)
    wide = func(x16, axis=1, dtype=np.float64)
    np.testing.assert_array_equal(wide, func(x16.astype(np.float64), axis=1))
    mask = np.random.default_rng(6).random(X.shape) < 0.6
    np.testing.assert_array_equal(func(X, axis=2, where=mask), func(np.where(mask, X, np.nan), axis=2))
    ints = np.arange(6 * 7 * 8).reshape(6, 7, 8) ** 2 % 11
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # columns left with one value
        np.testing.assert_allclose(
            func(ints, axis=0, where=mask), func(np.where(mask, ints, np.nan), axis=0), rtol=1e-14
        )
    assert isinstance(func(X), np.float64)
    assert func(X, axis=None, keepdims=True).shape == (1, 1, 1)


def test_results_per_dtype() -> None:
    x = np.array([1, 2, 5, 9])
    for dt, want in [(np.float16, np.float16), (np.float32, np.float32), (np.int8, np.float64),
                     (np.uint64, np.float64), (np.bool_, np.float64)]:
        assert nanops.nanskew(x.astype(dt)).dtype == want
        assert nanops.nankurt(x.astype(dt), bias=False).dtype == want


def test_zero_dim_and_zero_size() -> None:
    with pytest.warns(RuntimeWarning, match=r"Degrees of freedom <= 0 for slice\."):
        assert np.isnan(nanops.nanskew(np.float64(3.0)))
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        r = nanops.nankurt(np.zeros((0, 3)), axis=0)
    assert r.shape == (3,) and np.isnan(r).all()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert nanops.nanskew(np.zeros((0, 3)), axis=1).shape == (0,)
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        r = nanops.nanskew(X, axis=())  # every value its own slice
    assert r.shape == X.shape and np.isnan(r).all()


# ------------------------------------------------------ warnings and errors


def test_warns_for_slices_of_fewer_than_two_values_only() -> None:
    a = np.array([[np.nan, np.nan, np.nan], [4.0, np.nan, np.nan], [3.0, 3.0, np.nan], [1.0, 2.0, 4.0]])
    with pytest.warns(RuntimeWarning, match=r"^Degrees of freedom <= 0 for slice\.$") as caught:
        s = nanops.nanskew(a, axis=1)
    assert len(caught) == 1 and caught[0].filename == __file__
    assert np.isnan(s[:3]).all() and np.isfinite(s[3])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isnan(nanops.nanskew(a[2:3], axis=1)[0])  # constant: NaN, no warning
        assert np.isnan(nanops.nankurt(np.full(5, 7.0)))


@pytest.mark.parametrize("func", [nanops.nanskew, nanops.nankurt])
def test_errors(func: Any) -> None:
    with pytest.raises(TypeError, match="real input only.*complex128"):
        func(np.array([1 + 1j, 2, 3]))
    with pytest.raises(TypeError, match="real input only.*complex64"):
        func(np.ones(3, np.complex64), axis=0, dtype=np.float32)
    for axis in (3, -4, (0, 3)):
        with pytest.raises(AxisError):
            func(X, axis=axis)
    with pytest.raises(ValueError, match="repeated axis"):
        func(X, axis=(1, 1))
    with pytest.raises(TypeError):
        func(X, axis=1.0)
    with pytest.raises(TypeError, match="does not support this call"):
        func(X, dtype=np.int64)
    with pytest.raises(TypeError, match="does not support this call"):
        func(X, axis=0, out=np.empty(3))
    with pytest.raises(TypeError, match="does not support this call.*np.asarray"):
        func(np.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0]))
    with pytest.raises(TypeError):
        func(X.astype(object))


def test_scipy_definitions_for_few_values() -> None:
    # bias=False keeps the biased value where the correction is undefined (as scipy)
    for vals in ([1.0, 2.0], [1.0, 2.0, 4.0], [1.0, 2.0, 4.0, 8.0]):
        x = np.array(vals)
        for bias in (True, False):
            assert nanops.nanskew(x, bias=bias) == pytest.approx(
                scipy.stats.skew(x, bias=bias), rel=1e-14, abs=1e-15)
            for fisher in (True, False):
                assert nanops.nankurt(x, bias=bias, fisher=fisher) == pytest.approx(
                    scipy.stats.kurtosis(x, bias=bias, fisher=fisher), rel=1e-14, abs=1e-15)
