"""``.nanops`` on pandas objects (:mod:`nanops.pandas`) against pandas' own
methods on the same objects: index, columns, names and dtypes; NaN
positions; values within rounding.  Skipped without pandas."""

from __future__ import annotations

import doctest
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pd = pytest.importorskip("pandas")

import nanops.pandas  # noqa: E402

SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def assert_same(actual: Any, expected: Any, rtol: float = 1e-9) -> None:
    """Equal index, columns, name and dtypes; the same NaN positions; values
    within ``rtol`` of the column's largest (pandas' running sums drift by
    that much)."""
    assert type(actual) is type(expected)
    if isinstance(expected, pd.Series):
        pd.testing.assert_index_equal(actual.index, expected.index)
        assert actual.name == expected.name
        assert actual.dtype == expected.dtype
        pairs = [(actual.to_numpy(), expected.to_numpy())]
    else:
        pd.testing.assert_index_equal(actual.index, expected.index)
        pd.testing.assert_index_equal(actual.columns, expected.columns)
        pd.testing.assert_series_equal(actual.dtypes, expected.dtypes)
        pairs = [(actual.iloc[:, i].to_numpy(), expected.iloc[:, i].to_numpy())
                 for i in range(expected.shape[1])]
    for a, e in pairs:
        a64, e64 = a.astype(np.float64), e.astype(np.float64)
        finite = e64[np.isfinite(e64)]
        scale = float(np.max(np.abs(finite))) if finite.size else 1.0
        np.testing.assert_allclose(a64, e64, rtol=rtol, atol=rtol * scale, equal_nan=True)


def make(seed: int, n: int = 40, dtypes: tuple[str, ...] = ("float64",), nan: float = 0.25,
         frame: bool = True) -> Any:
    """A DataFrame (or its first column as a Series) with a non-default
    index and columns of ``dtypes``."""
    rng = np.random.default_rng(seed)
    columns = {}
    for i, dtype in enumerate(dtypes):
        if dtype == "bool":
            col = rng.random(n) < 0.5
        elif dtype.startswith(("int", "uint")):
            col = rng.integers(0, 50, n).astype(dtype)
        else:
            col = (rng.standard_normal(n) * 10 + 3).astype(dtype)
            col[rng.random(n) < nan] = np.nan
            if n > 6:
                col[2:6] = np.nan  # a run of NaN
        columns[f"c{i}"] = col
    df = pd.DataFrame(columns, index=pd.Index(np.arange(n) * 3 + 100, name="row"))
    return df if frame else df["c0"]


seeds = st.integers(0, 2**16)
frame_dtypes = st.sampled_from([("float64",), ("float64", "float64", "float64"),
                                ("float32", "float64"), ("int64", "float64"), ("int32",),
                                ("bool", "float64")])


# --- rolling -------------------------------------------------------------------------------------

ROLLING = ["sum", "mean", "var", "std", "min", "max", "median", "count"]


@SETTINGS
@given(seed=seeds, dtypes=frame_dtypes, frame=st.booleans(), name=st.sampled_from(ROLLING),
       n=st.integers(1, 40), window=st.integers(1, 45),
       min_periods=st.one_of(st.none(), st.integers(0, 45)), center=st.booleans())
def test_rolling_equals_pandas(seed: int, dtypes: Any, frame: bool, name: str, n: int,
                               window: int, min_periods: Any, center: bool) -> None:
    obj = make(seed, n, dtypes, frame=frame)
    if min_periods is not None and min_periods > window:
        with pytest.raises(ValueError):
            obj.rolling(window, min_periods=min_periods)
        with pytest.raises(ValueError):
            obj.nanops.rolling(window, min_periods=min_periods)
        return
    kw = {"ddof": seed % 2} if name in ("var", "std") else {}
    expected = getattr(obj.rolling(window, min_periods=min_periods, center=center), name)(**kw)
    actual = getattr(obj.nanops.rolling(window, min_periods=min_periods, center=center),
                     name)(**kw)
    assert_same(actual, expected)


@SETTINGS
@given(seed=seeds, dtypes=frame_dtypes, frame=st.booleans(), n=st.integers(1, 40),
       window=st.integers(1, 12), min_periods=st.one_of(st.none(), st.integers(0, 12)),
       center=st.booleans(), q=st.sampled_from([0.0, 0.1, 0.5, 0.75, 1.0, 1 / 3]),
       interpolation=st.sampled_from(["linear", "lower", "higher", "midpoint", "nearest"]))
def test_rolling_quantile_equals_pandas(seed: int, dtypes: Any, frame: bool, n: int,
                                        window: int, min_periods: Any, center: bool, q: float,
                                        interpolation: str) -> None:
    obj = make(seed, n, dtypes, frame=frame)
    if min_periods is not None and min_periods > window:
        min_periods = window
    expected = obj.rolling(window, min_periods=min_periods, center=center).quantile(
        q, interpolation=interpolation)
    actual = obj.nanops.rolling(window, min_periods=min_periods, center=center).quantile(
        q, interpolation=interpolation)
    assert_same(actual, expected)


def test_rolling_of_a_wide_frame_is_one_call(monkeypatch: Any) -> None:
    df = make(1, 50, ("float64",) * 8)
    calls = []
    real = nanops.move_median

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(np.shape(args[0]))
        return real(*args, **kwargs)

    monkeypatch.setattr(nanops, "move_median", counted)
    assert_same(df.nanops.rolling(5).median(), df.rolling(5).median())
    assert calls == [(8, 50)]  # the (columns, rows) lanes of the frame's block


# --- exponentially weighted ----------------------------------------------------------------------


@SETTINGS
@given(seed=seeds, dtypes=frame_dtypes, frame=st.booleans(),
       name=st.sampled_from(["mean", "sum", "var", "std"]), n=st.integers(1, 40),
       window=st.sampled_from([{"alpha": 0.3}, {"alpha": 0.9}, {"com": 2.5}, {"span": 7},
                               {"halflife": 3.0}]),
       min_periods=st.integers(0, 5), ignore_na=st.booleans())
def test_ewm_equals_pandas(seed: int, dtypes: Any, frame: bool, name: str, n: int,
                           window: dict[str, float], min_periods: int, ignore_na: bool) -> None:
    obj = make(seed, n, dtypes, frame=frame)
    expected = getattr(obj.ewm(**window, min_periods=min_periods, ignore_na=ignore_na), name)()
    actual = getattr(obj.nanops.ewm(**window, min_periods=min_periods, ignore_na=ignore_na),
                     name)()
    if name in ("var", "std"):
        # with one value seen pandas gives NaN, or 0 after NaN rows (rounding
        # of its bias correction); nanops NaN (README)
        seen = obj.notna().cumsum()
        expected = expected.where(seen >= 2)
    # the variance's sums of squares lose digits to cancellation, pandas' and
    # numbagg's (nanops') in different places
    assert_same(actual, expected, rtol=1e-6 if name in ("var", "std") else 1e-8)


# --- group-by ------------------------------------------------------------------------------------

GROUPED = ["sum", "mean", "var", "std", "min", "max", "count", "median", "first", "last"]
group_dtypes = st.sampled_from([("float64",), ("float64", "float32", "float64"),
                                ("int64", "float64"), ("int32", "int8"), ("uint8",),
                                ("bool", "float64")])


def _keys(seed: int, n: int, kind: str) -> Any:
    rng = np.random.default_rng(seed + 7)
    if kind == "str":
        return pd.Series(rng.choice(["b", "a", "c", "d"], n), name="key")
    keys = rng.integers(0, 6, n).astype(np.float64)
    keys[rng.random(n) < 0.15] = np.nan
    return pd.Series(keys, name="key")


@SETTINGS
@given(seed=seeds, dtypes=group_dtypes, frame=st.booleans(), name=st.sampled_from(GROUPED),
       n=st.integers(1, 40), kind=st.sampled_from(["float", "str", "column"]),
       sort=st.booleans(), dropna=st.booleans())
def test_groupby_equals_pandas(seed: int, dtypes: Any, frame: bool, name: str, n: int,
                               kind: str, sort: bool, dropna: bool) -> None:
    obj = make(seed, n, dtypes, frame=frame)
    keys = _keys(seed, n, "float" if kind == "column" else kind).set_axis(obj.index)
    if kind == "column":
        if not frame:
            return
        obj = obj.assign(key=keys)
        by: Any = "key"
    else:
        by = keys
    kw = {"ddof": seed % 2} if name in ("var", "std") else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = getattr(obj.groupby(by, sort=sort, dropna=dropna), name)(**kw)
    actual = getattr(obj.nanops.groupby(by, sort=sort, dropna=dropna), name)(**kw)
    assert_same(actual, expected, rtol=1e-6 if "float32" in dtypes else 1e-9)


@SETTINGS
@given(seed=seeds, dtypes=st.sampled_from([("float64",), ("float64", "int64"), ("float32",)]),
       frame=st.booleans(), n=st.integers(1, 40),
       q=st.sampled_from([0.5, 0.0, 0.25, [0.1, 0.9], [0.5]]),
       interpolation=st.sampled_from(["linear", "lower", "higher", "midpoint", "nearest"]))
def test_groupby_quantile_equals_pandas(seed: int, dtypes: Any, frame: bool, n: int, q: Any,
                                        interpolation: str) -> None:
    obj = make(seed, n, dtypes, frame=frame)
    keys = _keys(seed, n, "str").set_axis(obj.index)
    expected = obj.groupby(keys).quantile(q, interpolation=interpolation)
    actual = obj.nanops.groupby(keys).quantile(q, interpolation=interpolation)
    assert_same(actual, expected, rtol=1e-6 if "float32" in dtypes else 1e-9)


def test_groupby_several_keys_and_levels() -> None:
    df = make(3, 60, ("float64", "int64"))
    df = df.assign(a=np.arange(60) % 3, b=np.arange(60) % 2)
    for name in ("mean", "max", "median"):
        assert_same(getattr(df.nanops.groupby(["a", "b"]), name)(),
                    getattr(df.groupby(["a", "b"]), name)())
    indexed = df.set_index("a", append=True)
    assert_same(indexed.nanops.groupby(level="a").sum(), indexed.groupby(level="a").sum())
    assert_same(df.nanops.groupby("a").quantile([0.2, 0.8]), df.groupby("a").quantile([0.2, 0.8]))


def test_groupby_numeric_only_and_non_numeric_columns() -> None:
    df = make(4, 30, ("float64",)).assign(s=list("xyz") * 10, k=np.arange(30) % 4)
    assert_same(df.nanops.groupby("k").mean(numeric_only=True),
                df.groupby("k").mean(numeric_only=True))
    with pytest.raises(TypeError):  # pandas: no mean of strings
        df.groupby("k").mean()
    with pytest.raises(TypeError):
        df.nanops.groupby("k").mean()
    with pytest.raises(NotImplementedError, match="'s'"):  # pandas: the smallest string
        df.nanops.groupby("k").min()


def test_window_statistics_numeric_only() -> None:
    df = make(8, 30, ("float64", "int32")).assign(s=list("abc") * 10)
    assert_same(df.nanops.rolling(4).mean(numeric_only=True),
                df.rolling(4).mean(numeric_only=True))
    assert_same(df.nanops.ewm(com=3).std(numeric_only=True), df.ewm(com=3).std(numeric_only=True))
    with pytest.raises(pd.errors.DataError):
        df.rolling(4).mean()
    with pytest.raises(pd.errors.DataError):
        df.nanops.rolling(4).mean()


# --- what nanops does not honour, and errors -----------------------------------------------------


def test_not_implemented_names_the_argument() -> None:
    s = make(5, 30, frame=False).set_axis(pd.date_range("2000-01-01", periods=30, freq="D"))
    df = make(5, 30, ("float64", "float64"))
    ext = df.assign(e=pd.array([1, None] * 15, dtype="Int64"))
    cases = [
        (lambda: s.nanops.rolling("7D"), "window"),
        (lambda: s.nanops.rolling(pd.Timedelta("3D")), "window"),
        (lambda: s.nanops.rolling(3, closed="both"), "closed"),
        (lambda: s.nanops.rolling(3, step=2), "step"),
        (lambda: s.nanops.rolling(3, win_type="triang"), "win_type"),
        (lambda: df.nanops.rolling(3, method="table"), "method"),
        (lambda: ext.nanops.rolling(3).sum(), "Int64"),
        (lambda: ext.nanops.groupby("c0").sum(), "Int64"),
        (lambda: df.nanops.ewm(alpha=0.5, adjust=False), "adjust"),
        (lambda: df.nanops.ewm(alpha=1.0), "alpha"),
        (lambda: df.nanops.ewm(span=1), "span"),
        (lambda: s.nanops.ewm(halflife="2D", times=s.index), "times"),
        (lambda: df.nanops.ewm(alpha=0.5).var(bias=True), "bias"),
        (lambda: df.nanops.groupby("c0", as_index=False), "as_index"),
        (lambda: df.nanops.groupby("c0").first(skipna=False), "skipna"),
        (lambda: df.nanops.groupby("c0").sum(min_count=2), "min_count"),
        (lambda: df.nanops.rolling(3).mean(engine="numba"), "engine"),
        (lambda: df.nanops.ewm(alpha=0.5).mean(engine_kwargs={"nopython": True}),
         "engine_kwargs"),
    ]
    for call, word in cases:
        with pytest.raises(NotImplementedError, match=word):
            call()


def test_errors_are_pandas() -> None:
    s = make(6, 30, frame=False)
    df = make(6, 30, ("float64",)).assign(s=list("ab") * 15, b=np.arange(30) % 2 == 0)
    cases = [
        (lambda o: o.rolling(-1), lambda: s.nanops.rolling(-1)),
        (lambda o: o.rolling(3, min_periods=4), lambda: s.nanops.rolling(3, min_periods=4)),
        (lambda o: o.rolling(3, center="x"), lambda: s.nanops.rolling(3, center="x")),
        (lambda o: o.rolling(3).quantile(2.0), lambda: s.nanops.rolling(3).quantile(2.0)),
        (lambda o: o.rolling(3).quantile(0.5, interpolation="hazen"),
         lambda: s.nanops.rolling(3).quantile(0.5, interpolation="hazen")),
        (lambda o: o.ewm(), lambda: s.nanops.ewm()),
        (lambda o: o.ewm(alpha=0.5, span=3), lambda: s.nanops.ewm(alpha=0.5, span=3)),
        (lambda o: o.ewm(alpha=1.5), lambda: s.nanops.ewm(alpha=1.5)),
        (lambda o: o.groupby("nope"), lambda: df.nanops.groupby("nope")),
        (lambda o: df.rolling(3).sum(), lambda: df.nanops.rolling(3).sum()),
        (lambda o: df[["b"]].groupby(df.s).quantile(0.5),
         lambda: df[["b"]].nanops.groupby(df.s).quantile(0.5)),
    ]
    for theirs, ours in cases:
        with pytest.raises(Exception) as caught:
            theirs(s)
        with pytest.raises(caught.type):
            ours()


# --- the module ----------------------------------------------------------------------------------


def test_docstrings_and_examples() -> None:
    mod = nanops.pandas
    for name in mod.__all__:
        item = getattr(mod, name)
        assert item.__doc__, name
        for attr, member in vars(item).items():
            if callable(member) and not attr.startswith("_"):
                assert member.__doc__, f"{name}.{attr}"
    for attr, member in vars(mod._PandasAccessor).items():
        if callable(member) and not attr.startswith("_"):
            assert member.__doc__, attr
    result = doctest.testmod(mod, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted > 0
