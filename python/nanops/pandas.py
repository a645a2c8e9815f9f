"""``.nanops`` on pandas' Series and DataFrame: pandas' calls, nanops' kernels.

``import nanops.pandas`` registers the accessor.  Its methods have the call
shapes of pandas' own (``s.nanops.rolling(30).median()``,
``df.nanops.rolling(30, min_periods=10).quantile(0.1)``,
``df.nanops.ewm(alpha=0.1).std()``, ``df.nanops.groupby("key").quantile(0.9)``)
and return what pandas' return — index, columns, name and dtypes, values
within rounding — computed by nanops' public functions.  A DataFrame is one
n-d call along axis 0 (one per dtype for group-by, whose result dtypes
are per column), not a loop over columns.

What pandas accepts and nanops cannot honour raises ``NotImplementedError``
naming the argument: offset and indexer windows (``"7D"``), ``closed=``,
``step=``, ``win_type=``, ``on=``, ``method="table"``, ``engine="numba"``,
``ewm(adjust=False)``, ``times=``, ``bias=True``, ``as_index=False``,
extension dtypes (``Int64``, ``string``, ``category`` …).  Bad input raises
pandas' own exception: the arguments are checked by building pandas' own
rolling, ewm or groupby object first.

Examples
--------
>>> import numpy as np, pandas as pd, nanops.pandas
>>> s = pd.Series([1.0, np.nan, 3.0, 4.0])
>>> s.nanops.rolling(2, min_periods=1).sum().tolist()
[1.0, 1.0, 3.0, 7.0]
>>> pd.DataFrame({"k": [1, 2, 1], "v": [1.0, 5.0, 3.0]}).nanops.groupby("k").mean()["v"].tolist()
[2.0, 5.0]
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import pandas as pd  # type: ignore[import-untyped, unused-ignore]

import nanops

from ._accessor_support import GROUP_REDUCTIONS, quiet

__all__ = ["SeriesAccessor", "DataFrameAccessor", "Rolling", "ExponentialMovingWindow",
           "GroupBy"]

#: pandas' rolling quantile interpolations, all of them NumPy methods too.
INTERPOLATIONS: Final = ("linear", "lower", "higher", "midpoint", "nearest")

def _refuse(what: str, **given: Any) -> None:
    """``NotImplementedError`` for each argument given a value other than its default."""
    for name, (value, default) in given.items():
        if value is default or (isinstance(value, (bool, int, float, str, np.generic))
                                and value == default):
            continue
        raise NotImplementedError(
            f"nanops {what}: {name}={value!r} is not supported; use pandas' own method"
        )


def _columns_of(obj: pd.Series | pd.DataFrame) -> list[tuple[Any, np.dtype]]:
    if isinstance(obj, pd.Series):
        return [(obj.name, obj.dtype)]
    return list(obj.dtypes.items())


def _refuse_extension(obj: pd.Series | pd.DataFrame, what: str) -> None:
    """``NotImplementedError`` naming a column of an extension dtype."""
    for name, dtype in _columns_of(obj):
        if not isinstance(dtype, np.dtype):
            raise NotImplementedError(
                f"nanops {what}: column {name!r} has the extension dtype {dtype} (nanops "
                "computes NumPy bool, integer and float columns); use pandas' own method"
            )


def _lanes(obj: pd.Series | pd.DataFrame) -> np.ndarray:
    """The data in float64, as pandas computes them, one lane per column
    along the last axis: a DataFrame's (columns, rows) array, without a copy
    where it is one float64 block (pandas holds a block that way)."""
    return obj.to_numpy(dtype=np.float64).T


def _numeric_columns(obj: pd.Series | pd.DataFrame, numeric_only: bool
                     ) -> pd.Series | pd.DataFrame:
    """The columns a window statistic computes on: a frame's number and bool
    columns with pandas' ``numeric_only=True``; pandas' ``DataError`` for
    non-numeric ones (from pandas on the first row), ``NotImplementedError``
    for extension dtypes."""
    if numeric_only and isinstance(obj, pd.DataFrame):
        obj = obj.select_dtypes(include=["number", "bool"])
    if len(obj):
        obj.iloc[:1].rolling(1).sum()
    _refuse_extension(obj, "window statistic")
    return obj


def _refuse_engine(engine: str | None, engine_kwargs: Any) -> None:
    """pandas' ``engine="cython"`` (its default) is nanops' own loop; numba is not."""
    if engine not in (None, "cython"):
        raise NotImplementedError(f"nanops: engine={engine!r} (nanops computes)")
    if engine_kwargs is not None:
        raise NotImplementedError(f"nanops: engine_kwargs={engine_kwargs!r}")


def _wrap(obj: pd.Series | pd.DataFrame, lanes: np.ndarray) -> pd.Series | pd.DataFrame:
    """``lanes`` (as :func:`_lanes` gives them) with ``obj``'s index, name or
    columns; a frame takes the (columns, rows) result as its block, uncopied."""
    if isinstance(obj, pd.Series):
        return pd.Series(lanes, index=obj.index, name=obj.name, copy=False)
    return pd.DataFrame(lanes.T, index=obj.index, columns=obj.columns, copy=False)


class _PandasAccessor:
    """The methods shared by the Series and DataFrame accessors."""

    _obj: Any

    def rolling(self, window: Any, min_periods: int | None = None, center: bool = False,
                win_type: str | None = None, on: str | None = None, closed: str | None = None,
                step: int | None = None, method: str = "single") -> Rolling:
        """pandas' ``rolling(window, min_periods=None, center=False)`` with an
        integer window; the statistics are nanops' ``move_*`` functions
        along axis 0 (see :class:`Rolling`)."""
        return Rolling(self._obj, window, min_periods, center, win_type=win_type, on=on,
                       closed=closed, step=step, method=method)

    def ewm(self, com: float | None = None, span: float | None = None,
            halflife: Any = None, alpha: float | None = None, min_periods: int = 0,
            adjust: bool = True, ignore_na: bool = False, times: Any = None,
            method: str = "single") -> ExponentialMovingWindow:
        """pandas' ``ewm(com|span|halflife|alpha, min_periods=0, adjust=True,
        ignore_na=False)``; the statistics are nanops' ``move_exp_nan*``
        (see :class:`ExponentialMovingWindow`)."""
        return ExponentialMovingWindow(self._obj, com=com, span=span, halflife=halflife,
                                       alpha=alpha, min_periods=min_periods, adjust=adjust,
                                       ignore_na=ignore_na, times=times, method=method)

    def groupby(self, by: Any = None, level: Any = None, as_index: bool = True,
                sort: bool = True, group_keys: bool = True, observed: bool = True,
                dropna: bool = True) -> GroupBy:
        """pandas' ``groupby(by, level=None, sort=True, dropna=True, …)`` (the
        groups are pandas' own: sorted keys, NaN keys dropped as pandas
        drops them); the statistics are nanops' ``group_nan*`` functions
        (see :class:`GroupBy`)."""
        _refuse("groupby", as_index=(as_index, True))
        grouped = self._obj.groupby(by, level=level, as_index=as_index, sort=sort,
                                    group_keys=group_keys, observed=observed, dropna=dropna)
        return GroupBy(self._obj, grouped)


@pd.api.extensions.register_series_accessor("nanops")
class SeriesAccessor(_PandasAccessor):
    """``s.nanops``: pandas' rolling, exponentially weighted and grouped
    statistics of a Series, computed by nanops.

    >>> import pandas as pd, nanops.pandas
    >>> pd.Series([3.0, 1.0, 2.0]).nanops.rolling(2).max().tolist()
    [nan, 3.0, 2.0]
    """

    def __init__(self, obj: pd.Series) -> None:
        self._obj = obj


@pd.api.extensions.register_dataframe_accessor("nanops")
class DataFrameAccessor(_PandasAccessor):
    """``df.nanops``: the methods of :class:`SeriesAccessor` for a
    DataFrame, each one n-d nanops call along axis 0."""

    def __init__(self, obj: pd.DataFrame) -> None:
        self._obj = obj


# --- rolling --------------------------------------------------------------------


class Rolling:
    """``obj.nanops.rolling(window, min_periods=None, center=False)``:
    pandas' fixed-window statistics by nanops' moving windows along axis 0.

    A window ends at its row, or (``center=True``) holds rows
    ``[i - window // 2, i + (window - 1) // 2]``; ``min_periods`` (default:
    the window; 0 allowed, as pandas) non-NaN values give a value, fewer
    NaN (a sum of none is 0 with ``min_periods=0``, as pandas'); ``count``
    is NaN only where fewer than ``min_periods`` rows are in the window.
    The data are computed in float64 and the results are float64, as
    pandas'.

    >>> import pandas as pd, nanops.pandas
    >>> pd.Series([1.0, 2.0, 4.0, 8.0]).nanops.rolling(3, center=True).median().tolist()
    [nan, 2.0, 4.0, nan]
    """

    def __init__(self, obj: pd.Series | pd.DataFrame, window: Any,
                 min_periods: int | None = None, center: bool = False, *,
                 win_type: str | None = None, on: str | None = None, closed: str | None = None,
                 step: int | None = None, method: str = "single") -> None:
        # pandas' own checks and errors first
        obj.rolling(window, min_periods=min_periods, center=center, win_type=win_type, on=on,
                    closed=closed, step=step, method=method)
        if not isinstance(window, (int, np.integer)) or isinstance(window, (bool, np.bool_)):
            raise NotImplementedError(
                f"nanops rolling: window={window!r} (an integer window only; offsets, "
                "timedeltas and indexers are not supported)"
            )
        _refuse("rolling", win_type=(win_type, None), on=(on, None), closed=(closed, None),
                step=(step, None), method=(method, "single"))
        if window == 0:
            raise NotImplementedError("nanops rolling: window=0")
        self.obj = obj
        self.window = int(window)
        self.min_periods = self.window if min_periods is None else int(min_periods)
        self.center = bool(center)

    def __repr__(self) -> str:
        return (f"nanops.pandas.Rolling [window={self.window}, min_periods={self.min_periods}, "
                f"center={self.center}]")

    def _moving(self, fname: str, lanes: np.ndarray, *args: Any, **kwargs: Any) -> np.ndarray:
        """``nanops.<fname>`` along the lanes (the last axis) with pandas'
        window placement."""
        n = lanes.shape[-1]
        lead = (self.window - 1) // 2 if self.center else 0
        if n == 0:
            return lanes.copy()
        x = lanes
        if lead:
            pads = [(0, 0)] * (lanes.ndim - 1) + [(0, lead)]
            x = np.pad(lanes, pads, constant_values=np.nan)
        width = min(self.window, n + lead)
        min_count = max(self.min_periods, 1)
        with quiet():
            out = getattr(nanops, fname)(x, width, *args, min_count=min(min_count, width),
                                         axis=-1, **kwargs)
        if min_count > width:
            out = np.full_like(out, np.nan)
        return out[..., lead:] if lead else out  # type: ignore[no-any-return]

    def _apply(self, fname: str, numeric_only: bool, *args: Any,
               **kwargs: Any) -> pd.Series | pd.DataFrame:
        obj = _numeric_columns(self.obj, numeric_only)
        return _wrap(obj, self._moving(fname, _lanes(obj), *args, **kwargs))

    def sum(self, numeric_only: bool = False, engine: str | None = None,
            engine_kwargs: Any = None) -> pd.Series | pd.DataFrame:
        """Sum of each window by :func:`nanops.move_sum`."""
        _refuse_engine(engine, engine_kwargs)
        obj = _numeric_columns(self.obj, numeric_only)
        out = self._moving("move_sum", _lanes(obj))
        if self.min_periods == 0:  # pandas: the sum of no values is 0
            out = np.where(np.isnan(out), 0.0, out)
        return _wrap(obj, out)

    def mean(self, numeric_only: bool = False, engine: str | None = None,
             engine_kwargs: Any = None) -> pd.Series | pd.DataFrame:
        """Mean of each window by :func:`nanops.move_mean`."""
        _refuse_engine(engine, engine_kwargs)
        return self._apply("move_mean", numeric_only)

    def var(self, ddof: int = 1, numeric_only: bool = False, engine: str | None = None,
            engine_kwargs: Any = None) -> pd.Series | pd.DataFrame:
        """Variance of each window (``ddof=1`` as pandas) by :func:`nanops.move_var`."""
        _refuse_engine(engine, engine_kwargs)
        return self._apply("move_var", numeric_only, ddof=ddof)

    def std(self, ddof: int = 1, numeric_only: bool = False, engine: str | None = None,
            engine_kwargs: Any = None) -> pd.Series | pd.DataFrame:
        """Standard deviation of each window (``ddof=1``) by :func:`nanops.move_std`."""
        _refuse_engine(engine, engine_kwargs)
        return self._apply("move_std", numeric_only, ddof=ddof)

    def min(self, numeric_only: bool = False, engine: str | None = None,
            engine_kwargs: Any = None) -> pd.Series | pd.DataFrame:
        """Minimum of each window by :func:`nanops.move_min`."""
        _refuse_engine(engine, engine_kwargs)
        return self._apply("move_min", numeric_only)

    def max(self, numeric_only: bool = False, engine: str | None = None,
            engine_kwargs: Any = None) -> pd.Series | pd.DataFrame:
        """Maximum of each window by :func:`nanops.move_max`."""
        _refuse_engine(engine, engine_kwargs)
        return self._apply("move_max", numeric_only)

    def median(self, numeric_only: bool = False, engine: str | None = None,
               engine_kwargs: Any = None) -> pd.Series | pd.DataFrame:
        """Median of each window by :func:`nanops.move_median`."""
        _refuse_engine(engine, engine_kwargs)
        return self._apply("move_median", numeric_only)

    def count(self, numeric_only: bool = False) -> pd.Series | pd.DataFrame:
        """pandas' count: the non-NaN values of each window (0 for none), NaN
        where fewer than ``min_periods`` rows are in the window — the
        moving sum (:func:`nanops.move_sum`) of the non-NaN mask, whose
        rows outside the data count as missing."""
        obj = _numeric_columns(self.obj, numeric_only)
        present = (~np.isnan(_lanes(obj))).astype(np.float64)
        return _wrap(obj, self._moving("move_sum", present))

    def quantile(self, q: float, interpolation: str = "linear",
                 numeric_only: bool = False) -> pd.Series | pd.DataFrame:
        """The ``q`` quantile of each window (pandas' five interpolations, as
        NumPy's methods of the same names) by :func:`nanops.move_quantile`."""
        if interpolation not in INTERPOLATIONS:
            raise ValueError(f"interpolation={interpolation!r} is not supported, must be one "
                             f"of {', '.join(INTERPOLATIONS)}")
        if not 0 <= q <= 1:
            raise ValueError("quantile value must be between 0 and 1, inclusive")
        return self._apply("move_quantile", numeric_only, float(q), method=interpolation)


# --- exponentially weighted -------------------------------------------------------------


def _center_of_mass(com: float | None, span: float | None, halflife: Any,
                    alpha: float | None) -> float:
    """pandas' ``com`` from whichever of the four was given (pandas' formulas,
    so that ``1 / (1 + com)`` is the alpha pandas' kernels use)."""
    if com is not None:
        return float(com)
    if span is not None:
        return (span - 1) / 2
    if halflife is not None:
        return float(1 / (1 - np.exp(np.log(0.5) / halflife)) - 1)
    assert alpha is not None  # pandas has checked that one was given
    return (1 - alpha) / alpha


class ExponentialMovingWindow:
    """``obj.nanops.ewm(alpha=…)``: pandas' exponentially weighted mean,
    sum, var and std by nanops' ``move_exp_nan*`` along axis 0.

    These are pandas' ``adjust=True`` statistics (numbagg's): each value
    weighted by ``(1 - alpha)**age``; with ``ignore_na=False`` a NaN row
    ages the history (one alpha for all), with ``ignore_na=True`` it does
    not (alpha 0 at each NaN, an n-d alpha); ``min_periods`` non-NaN values
    so far give a value.  var and std are bias-corrected (``bias=False``)
    and NaN until two values have been seen.
    The data are computed in float64, as pandas'.

    >>> import pandas as pd, nanops.pandas
    >>> pd.Series([1.0, 2.0, 3.0]).nanops.ewm(alpha=0.5).mean().round(4).tolist()
    [1.0, 1.6667, 2.4286]
    """

    def __init__(self, obj: pd.Series | pd.DataFrame, *, com: float | None = None,
                 span: float | None = None, halflife: Any = None, alpha: float | None = None,
                 min_periods: int = 0, adjust: bool = True, ignore_na: bool = False,
                 times: Any = None, method: str = "single") -> None:
        # pandas' own checks and errors first
        obj.ewm(com=com, span=span, halflife=halflife, alpha=alpha, min_periods=min_periods,
                adjust=adjust, ignore_na=ignore_na, times=times, method=method)
        _refuse("ewm", adjust=(adjust, True), times=(times, None), method=(method, "single"))
        if halflife is not None and not isinstance(halflife, (int, float, np.number)):
            raise NotImplementedError(f"nanops ewm: halflife={halflife!r} (a number only)")
        self.obj = obj
        center = _center_of_mass(com, span, halflife, alpha)
        if center == 0:
            # alpha 1: pandas carries the last mean over NaN rows, where
            # numbagg's (nanops') weights have decayed to nothing
            given = {"com": com, "span": span, "halflife": halflife, "alpha": alpha}
            name, value = next((k, v) for k, v in given.items() if v is not None)
            raise NotImplementedError(f"nanops ewm: {name}={value!r} (alpha 1; use pandas' own "
                                      "method or ffill)")
        self.alpha = 1.0 / (1.0 + center)
        self.min_periods = max(int(min_periods or 0), 1)
        self.ignore_na = bool(ignore_na)

    def __repr__(self) -> str:
        return (f"nanops.pandas.ExponentialMovingWindow [alpha={self.alpha}, "
                f"min_periods={self.min_periods}, ignore_na={self.ignore_na}]")

    def _apply(self, fname: str, numeric_only: bool) -> pd.Series | pd.DataFrame:
        obj = _numeric_columns(self.obj, numeric_only)
        lanes = _lanes(obj)
        if lanes.shape[-1] == 0:
            return _wrap(obj, lanes.copy())
        missing = np.isnan(lanes)
        alpha: Any = self.alpha
        if self.ignore_na and missing.any():
            alpha = np.where(missing, 0.0, self.alpha)  # a NaN row does not age the history
        # a variance needs two values: with one, numbagg's bias correction
        # divides rounding noise by rounding noise (pandas' gives NaN or 0)
        need = max(self.min_periods, 2) if fname.endswith(("var", "std")) else self.min_periods
        with quiet():
            out = getattr(nanops, fname)(lanes, alpha=alpha, axis=-1)
            if need > 1:
                seen = nanops.nancumsum(~missing, axis=-1)
                out = np.where(seen < need, np.nan, out)
        return _wrap(obj, out)

    def mean(self, numeric_only: bool = False, engine: str | None = None,
             engine_kwargs: Any = None) -> pd.Series | pd.DataFrame:
        """Exponentially weighted mean by :func:`nanops.move_exp_nanmean`."""
        _refuse_engine(engine, engine_kwargs)
        return self._apply("move_exp_nanmean", numeric_only)

    def sum(self, numeric_only: bool = False, engine: str | None = None,
            engine_kwargs: Any = None) -> pd.Series | pd.DataFrame:
        """Exponentially weighted sum by :func:`nanops.move_exp_nansum`."""
        _refuse_engine(engine, engine_kwargs)
        return self._apply("move_exp_nansum", numeric_only)

    def var(self, bias: bool = False, numeric_only: bool = False) -> pd.Series | pd.DataFrame:
        """Exponentially weighted variance (bias-corrected) by :func:`nanops.move_exp_nanvar`."""
        _refuse("ewm var", bias=(bias, False))
        return self._apply("move_exp_nanvar", numeric_only)

    def std(self, bias: bool = False, numeric_only: bool = False) -> pd.Series | pd.DataFrame:
        """Exponentially weighted standard deviation by :func:`nanops.move_exp_nanstd`."""
        _refuse("ewm std", bias=(bias, False))
        return self._apply("move_exp_nanstd", numeric_only)


# --- group-by -----------------------------------------------------------------------------


def _fitting(values: np.ndarray, dtype: np.dtype) -> np.dtype:
    """pandas' integer result dtype: the column's own where every value fits
    in it, else the 64-bit one nanops computed in (pandas' sums and
    products of int8 … int32 widen only when they overflow)."""
    if dtype.kind in "iu" and values.dtype.kind in "iu" and values.size:
        info = np.iinfo(dtype)
        if values.min() < info.min or values.max() > info.max:
            return values.dtype
    return dtype


class GroupBy:
    """``obj.nanops.groupby(by)``: pandas' grouped statistics by nanops'
    ``group_nan*`` functions.

    The groups are pandas' own (``ngroup()`` of pandas' groupby: sorted keys
    unless ``sort=False``, NaN keys dropped unless ``dropna=False``), the
    result index is pandas' (``size().index``), the value columns are those
    pandas aggregates (a DataFrame grouped by its own columns leaves them
    out), and each result column has pandas' dtype (found by pandas on one
    row: ``sum`` of int32 stays int32, ``mean`` of float32 float32, ``count``
    int64 …).  The columns of one dtype are one n-d call.

    >>> import pandas as pd, nanops.pandas
    >>> df = pd.DataFrame({"k": ["a", "b", "a"], "v": [1.0, 2.0, 4.0]})
    >>> df.nanops.groupby("k").quantile(0.5)["v"].tolist()
    [2.5, 2.0]
    """

    def __init__(self, obj: pd.Series | pd.DataFrame, grouped: Any) -> None:
        self.obj = obj
        self.grouped = grouped
        codes = grouped.ngroup()
        self.labels = np.asarray(codes.fillna(-1).to_numpy(), dtype=np.intp)
        self.index = grouped.size().index
        self.ngroups = len(self.index)
        if self.ngroups and self.labels.max(initial=-1) >= self.ngroups:
            raise NotImplementedError("nanops groupby: groups pandas numbers beyond its result "
                                      "index (unobserved categories)")
        if isinstance(obj, pd.DataFrame):
            # the columns pandas aggregates (less the grouping columns)
            self.values: pd.Series | pd.DataFrame = grouped._obj_with_exclusions
        else:
            self.values = obj

    def __repr__(self) -> str:
        return f"nanops.pandas.GroupBy: {self.ngroups} groups"

    @staticmethod
    def _probe(values: pd.Series | pd.DataFrame, name: str, kwargs: dict[str, Any]) -> Any:
        """pandas' result of ``name`` on the first row (its dtypes, and its
        errors for columns it cannot aggregate), with a NaN row below in the
        float32 columns holding NaN: pandas' mean of float32 is float64
        without NaN and float32 with."""
        head = values.iloc[:1]
        narrow = [c for c, dtype in _columns_of(values)
                  if isinstance(dtype, np.dtype) and dtype.kind == "f" and dtype.itemsize < 8]
        if len(head) and narrow:
            if isinstance(values, pd.Series):
                gaps = [values.name] if values.isna().any() else []
            else:
                isna = values.iloc[:, [values.columns.get_loc(c) for c in narrow]].isna().any()
                gaps = [c for c, missing in isna.items() if missing]
            if gaps:
                head = pd.concat([head, head])
                if isinstance(head, pd.Series):
                    head.iloc[1] = np.nan
                else:
                    for c in gaps:
                        head.iloc[1, head.columns.get_loc(c)] = np.nan
        return getattr(head.groupby(np.zeros(len(head), dtype=np.intp)), name)(**kwargs)

    def _apply(self, name: str, numeric_only: bool = False, pandas_kwargs: Any = None,
               q: Any = None, **kwargs: Any) -> pd.Series | pd.DataFrame:
        values = self.values
        if numeric_only and isinstance(values, pd.DataFrame):
            values = values.select_dtypes(include=["number", "bool"])
        probe = self._probe(values, name, dict(pandas_kwargs or {}, numeric_only=numeric_only))
        _refuse_extension(values, f"groupby {name}")
        fname = GROUP_REDUCTIONS[name]
        args = () if q is None else (q,)
        frame = values.to_frame() if isinstance(values, pd.Series) else values
        columns: dict[int, np.ndarray] = {}
        by_dtype: dict[np.dtype, list[int]] = {}
        for i, dtype in enumerate(frame.dtypes):
            if dtype.kind not in "biuf":
                raise NotImplementedError(
                    f"nanops groupby {name}: column {frame.columns[i]!r} has dtype {dtype} "
                    "(nanops computes bool, integer and float columns); pass "
                    "numeric_only=True or use pandas' own method"
                )
            by_dtype.setdefault(dtype, []).append(i)
        for dtype, where in by_dtype.items():
            # (rows, columns); a frame of one float block gives its (Fortran-
            # ordered) block itself, a selection of columns a copy
            part = frame if len(where) == frame.shape[1] else frame.iloc[:, where]
            block = part.to_numpy(dtype=dtype)
            with quiet():
                out = getattr(nanops, fname)(block, self.labels, *args, axis=0,
                                             num_labels=self.ngroups, **kwargs)
            out = np.moveaxis(out, -1, -2 if q is None or np.ndim(q) == 0 else -2)
            for j, i in enumerate(where):
                columns[i] = out[..., j]
        return self._result(values, frame, columns, probe, q)

    def _result(self, values: pd.Series | pd.DataFrame, frame: pd.DataFrame,
                columns: dict[int, np.ndarray], probe: Any, q: Any) -> pd.Series | pd.DataFrame:
        index = self.index
        dtypes = [probe.dtype] if isinstance(probe, pd.Series) else list(probe.dtypes)
        cols = []
        for i in range(frame.shape[1]):
            col = columns[i]
            if q is not None and np.ndim(q):  # (q, groups) → groups major, as pandas
                col = col.T.reshape(-1)
            cols.append(col.astype(_fitting(col, dtypes[i]), copy=False))
        if q is not None and np.ndim(q):
            qs = np.asarray(q, dtype=np.float64)
            rows = index.repeat(len(qs))
            levels = ([rows.get_level_values(k) for k in range(rows.nlevels)]
                      + [pd.Index(np.tile(qs, len(index)))])
            index = pd.MultiIndex.from_arrays(levels, names=[*index.names, None])
        if isinstance(values, pd.Series):
            return pd.Series(cols[0], index=index, name=values.name)
        return pd.DataFrame(dict(enumerate(cols)), index=index).set_axis(frame.columns, axis=1)

    def sum(self, numeric_only: bool = False, min_count: int = 0) -> pd.Series | pd.DataFrame:
        """Sum of each group (0 for an all-NaN one) by :func:`nanops.group_nansum`."""
        _refuse("groupby sum", min_count=(min_count, 0))
        return self._apply("sum", numeric_only)

    def mean(self, numeric_only: bool = False) -> pd.Series | pd.DataFrame:
        """Mean of each group by :func:`nanops.group_nanmean`."""
        return self._apply("mean", numeric_only)

    def var(self, ddof: int = 1, numeric_only: bool = False) -> pd.Series | pd.DataFrame:
        """Variance of each group (``ddof=1`` as pandas) by :func:`nanops.group_nanvar`."""
        return self._apply("var", numeric_only, {"ddof": ddof}, ddof=ddof)

    def std(self, ddof: int = 1, numeric_only: bool = False) -> pd.Series | pd.DataFrame:
        """Standard deviation of each group (``ddof=1``) by :func:`nanops.group_nanstd`."""
        return self._apply("std", numeric_only, {"ddof": ddof}, ddof=ddof)

    def min(self, numeric_only: bool = False, min_count: int = -1) -> pd.Series | pd.DataFrame:
        """Minimum of each group by :func:`nanops.group_nanmin`."""
        _refuse("groupby min", min_count=(min_count, -1))
        return self._apply("min", numeric_only)

    def max(self, numeric_only: bool = False, min_count: int = -1) -> pd.Series | pd.DataFrame:
        """Maximum of each group by :func:`nanops.group_nanmax`."""
        _refuse("groupby max", min_count=(min_count, -1))
        return self._apply("max", numeric_only)

    def count(self) -> pd.Series | pd.DataFrame:
        """Non-NaN values of each group (int64) by :func:`nanops.group_nancount`."""
        values = self.values
        probe = self._probe(values, "count", {})
        _refuse_extension(values, "groupby count")
        frame = values.to_frame() if isinstance(values, pd.Series) else values
        if any(dtype.kind not in "biuf" for dtype in frame.dtypes):
            raise NotImplementedError("nanops groupby count: a non-numeric column; use "
                                      "pandas' own method")
        block = frame.to_numpy() if len(set(frame.dtypes)) == 1 else frame.to_numpy(np.float64)
        with quiet():
            out = nanops.group_nancount(block, self.labels, axis=0, num_labels=self.ngroups)
        return self._result(values, frame, dict(enumerate(out)), probe, None)

    def median(self, numeric_only: bool = False) -> pd.Series | pd.DataFrame:
        """Median of each group by :func:`nanops.group_nanmedian`."""
        return self._apply("median", numeric_only)

    def first(self, numeric_only: bool = False, min_count: int = -1,
              skipna: bool = True) -> pd.Series | pd.DataFrame:
        """First non-NaN value of each group by :func:`nanops.group_nanfirst`."""
        _refuse("groupby first", min_count=(min_count, -1), skipna=(skipna, True))
        return self._apply("first", numeric_only)

    def last(self, numeric_only: bool = False, min_count: int = -1,
             skipna: bool = True) -> pd.Series | pd.DataFrame:
        """Last non-NaN value of each group by :func:`nanops.group_nanlast`."""
        _refuse("groupby last", min_count=(min_count, -1), skipna=(skipna, True))
        return self._apply("last", numeric_only)

    def quantile(self, q: Any = 0.5, interpolation: str = "linear",
                 numeric_only: bool = False) -> pd.Series | pd.DataFrame:
        """The ``q`` quantile(s) of each group (pandas' five interpolations; a
        list of ``q`` gives pandas' (group, q) MultiIndex rows) by
        :func:`nanops.group_nanquantile`."""
        if interpolation not in INTERPOLATIONS:
            raise ValueError(f"interpolation={interpolation!r} is not supported, must be one "
                             f"of {', '.join(INTERPOLATIONS)}")
        qa = np.asarray(q, dtype=np.float64)
        if qa.ndim > 1 or not np.all((qa >= 0) & (qa <= 1)):
            raise ValueError("quantile values must be between 0 and 1, inclusive")
        arg: Any = float(qa) if qa.ndim == 0 else qa
        return self._apply("quantile", numeric_only, {"q": q, "interpolation": interpolation},
                           q=arg, method=interpolation)

