"""Type stubs for the public API of nanops (mirrors NumPy's ``nan*`` stubs).

The runtime functions carry no annotations so that ``inspect.signature`` is
exactly NumPy's; the types live here.
"""

from collections.abc import Sequence
from typing import Any, Literal, SupportsIndex, TypeAlias, TypeVar, overload

import numpy as np
import numpy.typing as npt
from numpy._globals import _NoValueType

__version__: str

__all__ = [
    "nansum",
    "nanprod",
    "nanmean",
    "nanvar",
    "nanstd",
    "nanskew",
    "nankurt",
    "nanmin",
    "nanmax",
    "nanargmin",
    "nanargmax",
    "nancumsum",
    "nancumprod",
    "nancount",
    "ss",
    "anynan",
    "allnan",
    "count",
    "nanmedian",
    "nanquantile",
    "nanpercentile",
    "median",
    "quantile",
    "percentile",
    "rankdata",
    "nanrankdata",
    "partition",
    "argpartition",
    "replace",
    "move_sum",
    "move_mean",
    "move_var",
    "move_std",
    "move_min",
    "move_max",
    "move_argmin",
    "move_argmax",
    "move_count",
    "move_median",
    "move_quantile",
    "move_rank",
    "move_cov",
    "move_corr",
    "move_exp_nanmean",
    "move_exp_nansum",
    "move_exp_nanvar",
    "move_exp_nanstd",
    "move_exp_nancount",
    "move_exp_nancov",
    "move_exp_nancorr",
    "ffill",
    "bfill",
    "push",
    "nancovmatrix",
    "nancorrmatrix",
    "move_covmatrix",
    "move_corrmatrix",
    "move_exp_nancovmatrix",
    "move_exp_nancorrmatrix",
    "group_nansum",
    "group_nanprod",
    "group_nanmean",
    "group_nanvar",
    "group_nanstd",
    "group_nanmin",
    "group_nanmax",
    "group_nanargmin",
    "group_nanargmax",
    "group_nancount",
    "group_nanfirst",
    "group_nanlast",
    "group_nanany",
    "group_nanall",
    "group_nansum_of_squares",
    "group_nanskew",
    "group_nankurt",
    "group_nanmedian",
    "group_nanquantile",
    "__version__",
]

_ArrayT = TypeVar("_ArrayT", bound=np.ndarray[Any, Any])

_Axis: TypeAlias = SupportsIndex | tuple[SupportsIndex, ...] | None
_Axis1: TypeAlias = SupportsIndex | None
_QuantileMethod: TypeAlias = Literal[
    "inverted_cdf",
    "averaged_inverted_cdf",
    "closest_observation",
    "interpolated_inverted_cdf",
    "hazen",
    "weibull",
    "linear",
    "median_unbiased",
    "normal_unbiased",
    "lower",
    "higher",
    "midpoint",
    "nearest",
]
# NumPy's `np._NoValue` sentinel is the runtime default of these parameters
# (as in NumPy's own stubs, passing it is allowed: it means "not given").
_KeepDims: TypeAlias = bool | _NoValueType
_Where: TypeAlias = npt.ArrayLike | _NoValueType

# --- sum / prod ------------------------------------------------------------

@overload
def nansum(
    a: npt.ArrayLike,
    axis: _Axis = None,
    dtype: npt.DTypeLike | None = None,
    out: None = None,
    keepdims: _KeepDims = ...,
    initial: Any = ...,
    where: _Where = ...,
) -> Any: ...
@overload
def nansum(
    a: npt.ArrayLike,
    axis: _Axis,
    dtype: npt.DTypeLike | None,
    out: _ArrayT,
    keepdims: _KeepDims = ...,
    initial: Any = ...,
    where: _Where = ...,
) -> _ArrayT: ...
@overload
def nansum(
    a: npt.ArrayLike,
    axis: _Axis = None,
    dtype: npt.DTypeLike | None = None,
    *,
    out: _ArrayT,
    keepdims: _KeepDims = ...,
    initial: Any = ...,
    where: _Where = ...,
) -> _ArrayT: ...
@overload
def nanprod(
    a: npt.ArrayLike,
    axis: _Axis = None,
    dtype: npt.DTypeLike | None = None,
    out: None = None,
    keepdims: _KeepDims = ...,
    initial: Any = ...,
    where: _Where = ...,
) -> Any: ...
@overload
def nanprod(
    a: npt.ArrayLike,
    axis: _Axis,
    dtype: npt.DTypeLike | None,
    out: _ArrayT,
    keepdims: _KeepDims = ...,
    initial: Any = ...,
    where: _Where = ...,
) -> _ArrayT: ...
@overload
def nanprod(
    a: npt.ArrayLike,
    axis: _Axis = None,
    dtype: npt.DTypeLike | None = None,
    *,
    out: _ArrayT,
    keepdims: _KeepDims = ...,
    initial: Any = ...,
    where: _Where = ...,
) -> _ArrayT: ...

# --- mean / var / std ------------------------------------------------------

@overload
def nanmean(
    a: npt.ArrayLike,
    axis: _Axis = None,
    dtype: npt.DTypeLike | None = None,
    out: None = None,
    keepdims: _KeepDims = ...,
    *,
    where: _Where = ...,
) -> Any: ...
@overload
def nanmean(
    a: npt.ArrayLike,
    axis: _Axis,
    dtype: npt.DTypeLike | None,
    out: _ArrayT,
    keepdims: _KeepDims = ...,
    *,
    where: _Where = ...,
) -> _ArrayT: ...
@overload
def nanmean(
    a: npt.ArrayLike,
    axis: _Axis = None,
    dtype: npt.DTypeLike | None = None,
    *,
    out: _ArrayT,
    keepdims: _KeepDims = ...,
    where: _Where = ...,
) -> _ArrayT: ...
@overload
def nanvar(
    a: npt.ArrayLike,
    axis: _Axis = None,
    dtype: npt.DTypeLike | None = None,
    out: None = None,
    ddof: float = 0,
    keepdims: _KeepDims = ...,
    *,
    where: _Where = ...,
    mean: npt.ArrayLike | _NoValueType = ...,
    correction: float | _NoValueType = ...,
) -> Any: ...
@overload
def nanvar(
    a: npt.ArrayLike,
    axis: _Axis,
    dtype: npt.DTypeLike | None,
    out: _ArrayT,
    ddof: float = 0,
    keepdims: _KeepDims = ...,
    *,
    where: _Where = ...,
    mean: npt.ArrayLike | _NoValueType = ...,
    correction: float | _NoValueType = ...,
) -> _ArrayT: ...
@overload
def nanvar(
    a: npt.ArrayLike,
    axis: _Axis = None,
    dtype: npt.DTypeLike | None = None,
    *,
    out: _ArrayT,
    ddof: float = 0,
    keepdims: _KeepDims = ...,
    where: _Where = ...,
    mean: npt.ArrayLike | _NoValueType = ...,
    correction: float | _NoValueType = ...,
) -> _ArrayT: ...
@overload
def nanstd(
    a: npt.ArrayLike,
    axis: _Axis = None,
    dtype: npt.DTypeLike | None = None,
    out: None = None,
    ddof: float = 0,
    keepdims: _KeepDims = ...,
    *,
    where: _Where = ...,
    mean: npt.ArrayLike | _NoValueType = ...,
    correction: float | _NoValueType = ...,
) -> Any: ...
@overload
def nanstd(
    a: npt.ArrayLike,
    axis: _Axis,
    dtype: npt.DTypeLike | None,
    out: _ArrayT,
    ddof: float = 0,
    keepdims: _KeepDims = ...,
    *,
    where: _Where = ...,
    mean: npt.ArrayLike | _NoValueType = ...,
    correction: float | _NoValueType = ...,
) -> _ArrayT: ...
@overload
def nanstd(
    a: npt.ArrayLike,
    axis: _Axis = None,
    dtype: npt.DTypeLike | None = None,
    *,
    out: _ArrayT,
    ddof: float = 0,
    keepdims: _KeepDims = ...,
    where: _Where = ...,
    mean: npt.ArrayLike | _NoValueType = ...,
    correction: float | _NoValueType = ...,
) -> _ArrayT: ...

# --- skewness / kurtosis (nanops only) ---------------------------------------

@overload
def nanskew(
    a: npt.ArrayLike,
    axis: _Axis = None,
    dtype: npt.DTypeLike | None = None,
    out: None = None,
    keepdims: _KeepDims = ...,
    *,
    where: _Where = ...,
    bias: bool = True,
) -> Any: ...
@overload
def nanskew(
    a: npt.ArrayLike,
    axis: _Axis,
    dtype: npt.DTypeLike | None,
    out: _ArrayT,
    keepdims: _KeepDims = ...,
    *,
    where: _Where = ...,
    bias: bool = True,
) -> _ArrayT: ...
@overload
def nanskew(
    a: npt.ArrayLike,
    axis: _Axis = None,
    dtype: npt.DTypeLike | None = None,
    *,
    out: _ArrayT,
    keepdims: _KeepDims = ...,
    where: _Where = ...,
    bias: bool = True,
) -> _ArrayT: ...
@overload
def nankurt(
    a: npt.ArrayLike,
    axis: _Axis = None,
    dtype: npt.DTypeLike | None = None,
    out: None = None,
    keepdims: _KeepDims = ...,
    *,
    where: _Where = ...,
    bias: bool = True,
    fisher: bool = True,
) -> Any: ...
@overload
def nankurt(
    a: npt.ArrayLike,
    axis: _Axis,
    dtype: npt.DTypeLike | None,
    out: _ArrayT,
    keepdims: _KeepDims = ...,
    *,
    where: _Where = ...,
    bias: bool = True,
    fisher: bool = True,
) -> _ArrayT: ...
@overload
def nankurt(
    a: npt.ArrayLike,
    axis: _Axis = None,
    dtype: npt.DTypeLike | None = None,
    *,
    out: _ArrayT,
    keepdims: _KeepDims = ...,
    where: _Where = ...,
    bias: bool = True,
    fisher: bool = True,
) -> _ArrayT: ...

# --- min / max / argmin / argmax -------------------------------------------

@overload
def nanmin(
    a: npt.ArrayLike,
    axis: _Axis = None,
    out: None = None,
    keepdims: _KeepDims = ...,
    initial: Any = ...,
    where: _Where = ...,
) -> Any: ...
@overload
def nanmin(
    a: npt.ArrayLike,
    axis: _Axis,
    out: _ArrayT,
    keepdims: _KeepDims = ...,
    initial: Any = ...,
    where: _Where = ...,
) -> _ArrayT: ...
@overload
def nanmin(
    a: npt.ArrayLike,
    axis: _Axis = None,
    *,
    out: _ArrayT,
    keepdims: _KeepDims = ...,
    initial: Any = ...,
    where: _Where = ...,
) -> _ArrayT: ...
@overload
def nanmax(
    a: npt.ArrayLike,
    axis: _Axis = None,
    out: None = None,
    keepdims: _KeepDims = ...,
    initial: Any = ...,
    where: _Where = ...,
) -> Any: ...
@overload
def nanmax(
    a: npt.ArrayLike,
    axis: _Axis,
    out: _ArrayT,
    keepdims: _KeepDims = ...,
    initial: Any = ...,
    where: _Where = ...,
) -> _ArrayT: ...
@overload
def nanmax(
    a: npt.ArrayLike,
    axis: _Axis = None,
    *,
    out: _ArrayT,
    keepdims: _KeepDims = ...,
    initial: Any = ...,
    where: _Where = ...,
) -> _ArrayT: ...
@overload
def nanargmin(
    a: npt.ArrayLike,
    axis: None = None,
    out: None = None,
    *,
    keepdims: Literal[False] | _NoValueType = ...,
) -> np.intp: ...
@overload
def nanargmin(
    a: npt.ArrayLike,
    axis: _Axis1 = None,
    out: None = None,
    *,
    keepdims: _KeepDims = ...,
) -> Any: ...
@overload
def nanargmin(
    a: npt.ArrayLike,
    axis: _Axis1,
    out: _ArrayT,
    *,
    keepdims: _KeepDims = ...,
) -> _ArrayT: ...
@overload
def nanargmin(
    a: npt.ArrayLike,
    axis: _Axis1 = None,
    *,
    out: _ArrayT,
    keepdims: _KeepDims = ...,
) -> _ArrayT: ...
@overload
def nanargmax(
    a: npt.ArrayLike,
    axis: None = None,
    out: None = None,
    *,
    keepdims: Literal[False] | _NoValueType = ...,
) -> np.intp: ...
@overload
def nanargmax(
    a: npt.ArrayLike,
    axis: _Axis1 = None,
    out: None = None,
    *,
    keepdims: _KeepDims = ...,
) -> Any: ...
@overload
def nanargmax(
    a: npt.ArrayLike,
    axis: _Axis1,
    out: _ArrayT,
    *,
    keepdims: _KeepDims = ...,
) -> _ArrayT: ...
@overload
def nanargmax(
    a: npt.ArrayLike,
    axis: _Axis1 = None,
    *,
    out: _ArrayT,
    keepdims: _KeepDims = ...,
) -> _ArrayT: ...

# --- cumulative ------------------------------------------------------------

@overload
def nancumsum(
    a: npt.ArrayLike,
    axis: _Axis1 = None,
    dtype: npt.DTypeLike | None = None,
    out: None = None,
) -> np.ndarray[Any, Any]: ...
@overload
def nancumsum(
    a: npt.ArrayLike,
    axis: _Axis1,
    dtype: npt.DTypeLike | None,
    out: _ArrayT,
) -> _ArrayT: ...
@overload
def nancumsum(
    a: npt.ArrayLike,
    axis: _Axis1 = None,
    dtype: npt.DTypeLike | None = None,
    *,
    out: _ArrayT,
) -> _ArrayT: ...
@overload
def nancumprod(
    a: npt.ArrayLike,
    axis: _Axis1 = None,
    dtype: npt.DTypeLike | None = None,
    out: None = None,
) -> np.ndarray[Any, Any]: ...
@overload
def nancumprod(
    a: npt.ArrayLike,
    axis: _Axis1,
    dtype: npt.DTypeLike | None,
    out: _ArrayT,
) -> _ArrayT: ...
@overload
def nancumprod(
    a: npt.ArrayLike,
    axis: _Axis1 = None,
    dtype: npt.DTypeLike | None = None,
    *,
    out: _ArrayT,
) -> _ArrayT: ...

# --- count (nanops only) ---------------------------------------------------

@overload
def nancount(
    a: npt.ArrayLike, axis: None = None, keepdims: Literal[False] = False
) -> np.intp: ...
@overload
def nancount(a: npt.ArrayLike, axis: _Axis = None, keepdims: bool = False) -> Any: ...

# --- bottleneck's sum of squares (nanops only) -----------------------------

def ss(a: npt.ArrayLike, axis: _Axis = None) -> Any: ...

# --- bottleneck's and numbagg's NaN tests, numbagg's count (nanops only) ----

@overload
def anynan(a: npt.ArrayLike, axis: None = None) -> bool: ...
@overload
def anynan(a: npt.ArrayLike, axis: _Axis = None) -> Any: ...
@overload
def allnan(a: npt.ArrayLike, axis: None = None) -> bool: ...
@overload
def allnan(a: npt.ArrayLike, axis: _Axis = None) -> Any: ...
@overload
def count(
    a: npt.ArrayLike, axis: None = None, keepdims: Literal[False] = False
) -> np.intp: ...
@overload
def count(a: npt.ArrayLike, axis: _Axis = None, keepdims: bool = False) -> Any: ...

# --- order statistics ------------------------------------------------------

@overload
def nanmedian(
    a: npt.ArrayLike,
    axis: _Axis = None,
    out: None = None,
    overwrite_input: bool = False,
    keepdims: _KeepDims = ...,
) -> Any: ...
@overload
def nanmedian(
    a: npt.ArrayLike,
    axis: _Axis,
    out: _ArrayT,
    overwrite_input: bool = False,
    keepdims: _KeepDims = ...,
) -> _ArrayT: ...
@overload
def nanmedian(
    a: npt.ArrayLike,
    axis: _Axis = None,
    *,
    out: _ArrayT,
    overwrite_input: bool = False,
    keepdims: _KeepDims = ...,
) -> _ArrayT: ...
@overload
def median(
    a: npt.ArrayLike,
    axis: _Axis = None,
    out: None = None,
    overwrite_input: bool = False,
    keepdims: bool = False,
) -> Any: ...
@overload
def median(
    a: npt.ArrayLike,
    axis: _Axis,
    out: _ArrayT,
    overwrite_input: bool = False,
    keepdims: bool = False,
) -> _ArrayT: ...
@overload
def median(
    a: npt.ArrayLike,
    axis: _Axis = None,
    *,
    out: _ArrayT,
    overwrite_input: bool = False,
    keepdims: bool = False,
) -> _ArrayT: ...
@overload
def nanquantile(
    a: npt.ArrayLike,
    q: npt.ArrayLike,
    axis: _Axis = None,
    out: None = None,
    overwrite_input: bool = False,
    method: _QuantileMethod = "linear",
    keepdims: _KeepDims = ...,
    *,
    weights: npt.ArrayLike | None = None,
) -> Any: ...
@overload
def nanquantile(
    a: npt.ArrayLike,
    q: npt.ArrayLike,
    axis: _Axis,
    out: _ArrayT,
    overwrite_input: bool = False,
    method: _QuantileMethod = "linear",
    keepdims: _KeepDims = ...,
    *,
    weights: npt.ArrayLike | None = None,
) -> _ArrayT: ...
@overload
def nanquantile(
    a: npt.ArrayLike,
    q: npt.ArrayLike,
    axis: _Axis = None,
    *,
    out: _ArrayT,
    overwrite_input: bool = False,
    method: _QuantileMethod = "linear",
    keepdims: _KeepDims = ...,
    weights: npt.ArrayLike | None = None,
) -> _ArrayT: ...
@overload
def nanpercentile(
    a: npt.ArrayLike,
    q: npt.ArrayLike,
    axis: _Axis = None,
    out: None = None,
    overwrite_input: bool = False,
    method: _QuantileMethod = "linear",
    keepdims: _KeepDims = ...,
    *,
    weights: npt.ArrayLike | None = None,
) -> Any: ...
@overload
def nanpercentile(
    a: npt.ArrayLike,
    q: npt.ArrayLike,
    axis: _Axis,
    out: _ArrayT,
    overwrite_input: bool = False,
    method: _QuantileMethod = "linear",
    keepdims: _KeepDims = ...,
    *,
    weights: npt.ArrayLike | None = None,
) -> _ArrayT: ...
@overload
def nanpercentile(
    a: npt.ArrayLike,
    q: npt.ArrayLike,
    axis: _Axis = None,
    *,
    out: _ArrayT,
    overwrite_input: bool = False,
    method: _QuantileMethod = "linear",
    keepdims: _KeepDims = ...,
    weights: npt.ArrayLike | None = None,
) -> _ArrayT: ...
@overload
def quantile(
    a: npt.ArrayLike,
    q: npt.ArrayLike,
    axis: _Axis = None,
    out: None = None,
    overwrite_input: bool = False,
    method: _QuantileMethod = "linear",
    keepdims: bool = False,
    *,
    weights: npt.ArrayLike | None = None,
) -> Any: ...
@overload
def quantile(
    a: npt.ArrayLike,
    q: npt.ArrayLike,
    axis: _Axis,
    out: _ArrayT,
    overwrite_input: bool = False,
    method: _QuantileMethod = "linear",
    keepdims: bool = False,
    *,
    weights: npt.ArrayLike | None = None,
) -> _ArrayT: ...
@overload
def quantile(
    a: npt.ArrayLike,
    q: npt.ArrayLike,
    axis: _Axis = None,
    *,
    out: _ArrayT,
    overwrite_input: bool = False,
    method: _QuantileMethod = "linear",
    keepdims: bool = False,
    weights: npt.ArrayLike | None = None,
) -> _ArrayT: ...
@overload
def percentile(
    a: npt.ArrayLike,
    q: npt.ArrayLike,
    axis: _Axis = None,
    out: None = None,
    overwrite_input: bool = False,
    method: _QuantileMethod = "linear",
    keepdims: bool = False,
    *,
    weights: npt.ArrayLike | None = None,
) -> Any: ...
@overload
def percentile(
    a: npt.ArrayLike,
    q: npt.ArrayLike,
    axis: _Axis,
    out: _ArrayT,
    overwrite_input: bool = False,
    method: _QuantileMethod = "linear",
    keepdims: bool = False,
    *,
    weights: npt.ArrayLike | None = None,
) -> _ArrayT: ...
@overload
def percentile(
    a: npt.ArrayLike,
    q: npt.ArrayLike,
    axis: _Axis = None,
    *,
    out: _ArrayT,
    overwrite_input: bool = False,
    method: _QuantileMethod = "linear",
    keepdims: bool = False,
    weights: npt.ArrayLike | None = None,
) -> _ArrayT: ...

# --- bottleneck's ranks, partitions and replace (nanops only) ----------------

def rankdata(a: npt.ArrayLike, axis: SupportsIndex | None = None) -> npt.NDArray[np.float64]: ...
def nanrankdata(
    a: npt.ArrayLike, axis: SupportsIndex | None = None
) -> npt.NDArray[np.float64]: ...
def partition(
    a: npt.ArrayLike,
    kth: SupportsIndex | Sequence[SupportsIndex],
    axis: SupportsIndex | None = -1,
    kind: Literal["introselect"] = "introselect",
    order: str | Sequence[str] | None = None,
) -> npt.NDArray[Any]: ...
def argpartition(
    a: npt.ArrayLike,
    kth: SupportsIndex | Sequence[SupportsIndex],
    axis: SupportsIndex | None = -1,
    kind: Literal["introselect"] = "introselect",
    order: str | Sequence[str] | None = None,
) -> npt.NDArray[np.intp]: ...
def replace(a: _ArrayT, old: complex, new: complex) -> _ArrayT: ...

# --- moving windows and fills (nanops only) ----------------------------------

def move_sum(
    a: npt.ArrayLike,
    window: SupportsIndex,
    min_count: SupportsIndex | None = None,
    axis: SupportsIndex = -1,
) -> npt.NDArray[np.floating[Any]]: ...
def move_mean(
    a: npt.ArrayLike,
    window: SupportsIndex,
    min_count: SupportsIndex | None = None,
    axis: SupportsIndex = -1,
) -> npt.NDArray[np.floating[Any]]: ...
def move_var(
    a: npt.ArrayLike,
    window: SupportsIndex,
    min_count: SupportsIndex | None = None,
    axis: SupportsIndex = -1, ddof: int = 0,
) -> npt.NDArray[np.floating[Any]]: ...
def move_std(
    a: npt.ArrayLike,
    window: SupportsIndex,
    min_count: SupportsIndex | None = None,
    axis: SupportsIndex = -1, ddof: int = 0,
) -> npt.NDArray[np.floating[Any]]: ...
def move_min(
    a: npt.ArrayLike,
    window: SupportsIndex,
    min_count: SupportsIndex | None = None,
    axis: SupportsIndex = -1,
) -> npt.NDArray[np.floating[Any]]: ...
def move_max(
    a: npt.ArrayLike,
    window: SupportsIndex,
    min_count: SupportsIndex | None = None,
    axis: SupportsIndex = -1,
) -> npt.NDArray[np.floating[Any]]: ...
def move_argmin(
    a: npt.ArrayLike,
    window: SupportsIndex,
    min_count: SupportsIndex | None = None,
    axis: SupportsIndex = -1,
) -> npt.NDArray[np.floating[Any]]: ...
def move_argmax(
    a: npt.ArrayLike,
    window: SupportsIndex,
    min_count: SupportsIndex | None = None,
    axis: SupportsIndex = -1,
) -> npt.NDArray[np.floating[Any]]: ...
def move_count(
    a: npt.ArrayLike,
    window: SupportsIndex,
    min_count: SupportsIndex | None = None,
    axis: SupportsIndex = -1,
) -> npt.NDArray[np.floating[Any]]: ...
def move_median(
    a: npt.ArrayLike,
    window: SupportsIndex,
    min_count: SupportsIndex | None = None,
    axis: SupportsIndex = -1,
) -> npt.NDArray[np.floating[Any]]: ...
def move_quantile(
    a: npt.ArrayLike,
    window: SupportsIndex,
    q: npt.ArrayLike,
    min_count: SupportsIndex | None = None,
    axis: SupportsIndex = -1,
    method: _QuantileMethod = "linear",
) -> npt.NDArray[np.floating[Any]]: ...
def move_rank(
    a: npt.ArrayLike,
    window: SupportsIndex,
    min_count: SupportsIndex | None = None,
    axis: SupportsIndex = -1,
) -> npt.NDArray[np.floating[Any]]: ...
def move_cov(
    a: npt.ArrayLike,
    b: npt.ArrayLike,
    window: SupportsIndex,
    min_count: SupportsIndex | None = None,
    axis: SupportsIndex | tuple[SupportsIndex] = -1,
) -> npt.NDArray[np.floating[Any]]: ...
def move_corr(
    a: npt.ArrayLike,
    b: npt.ArrayLike,
    window: SupportsIndex,
    min_count: SupportsIndex | None = None,
    axis: SupportsIndex | tuple[SupportsIndex] = -1,
) -> npt.NDArray[np.floating[Any]]: ...
def move_exp_nanmean(
    a: npt.ArrayLike,
    /,
    *,
    alpha: float | npt.ArrayLike,
    min_weight: float = 0,
    axis: SupportsIndex | tuple[SupportsIndex] | tuple[()] = -1,
) -> npt.NDArray[np.floating[Any]]: ...
def move_exp_nansum(
    a: npt.ArrayLike,
    /,
    *,
    alpha: float | npt.ArrayLike,
    min_weight: float = 0,
    axis: SupportsIndex | tuple[SupportsIndex] | tuple[()] = -1,
) -> npt.NDArray[np.floating[Any]]: ...
def move_exp_nanvar(
    a: npt.ArrayLike,
    /,
    *,
    alpha: float | npt.ArrayLike,
    min_weight: float = 0,
    axis: SupportsIndex | tuple[SupportsIndex] | tuple[()] = -1,
) -> npt.NDArray[np.floating[Any]]: ...
def move_exp_nanstd(
    a: npt.ArrayLike,
    /,
    *,
    alpha: float | npt.ArrayLike,
    min_weight: float = 0,
    axis: SupportsIndex | tuple[SupportsIndex] | tuple[()] = -1,
) -> npt.NDArray[np.floating[Any]]: ...
def move_exp_nancount(
    a: npt.ArrayLike,
    /,
    *,
    alpha: float | npt.ArrayLike,
    min_weight: float = 0,
    axis: SupportsIndex | tuple[SupportsIndex] | tuple[()] = -1,
) -> npt.NDArray[np.floating[Any]]: ...
def move_exp_nancov(
    a: npt.ArrayLike,
    b: npt.ArrayLike,
    /,
    *,
    alpha: float | npt.ArrayLike,
    min_weight: float = 0,
    axis: SupportsIndex | tuple[SupportsIndex] = -1,
) -> npt.NDArray[np.floating[Any]]: ...
def move_exp_nancorr(
    a: npt.ArrayLike,
    b: npt.ArrayLike,
    /,
    *,
    alpha: float | npt.ArrayLike,
    min_weight: float = 0,
    axis: SupportsIndex | tuple[SupportsIndex] = -1,
) -> npt.NDArray[np.floating[Any]]: ...
def nancovmatrix(a: npt.ArrayLike) -> npt.NDArray[np.floating[Any]]: ...
def nancorrmatrix(a: npt.ArrayLike) -> npt.NDArray[np.floating[Any]]: ...
def move_covmatrix(
    a: npt.ArrayLike, window: SupportsIndex, min_count: SupportsIndex | None = None
) -> npt.NDArray[np.floating[Any]]: ...
def move_corrmatrix(
    a: npt.ArrayLike, window: SupportsIndex, min_count: SupportsIndex | None = None
) -> npt.NDArray[np.floating[Any]]: ...
def move_exp_nancovmatrix(
    a: npt.ArrayLike, alpha: float | npt.ArrayLike, min_weight: float = 0
) -> npt.NDArray[np.floating[Any]]: ...
def move_exp_nancorrmatrix(
    a: npt.ArrayLike, alpha: float | npt.ArrayLike, min_weight: float = 0
) -> npt.NDArray[np.floating[Any]]: ...
def ffill(
    a: _ArrayT, *, limit: SupportsIndex | None = None, axis: SupportsIndex = -1
) -> _ArrayT: ...
def bfill(
    a: _ArrayT, *, limit: SupportsIndex | None = None, axis: SupportsIndex = -1
) -> _ArrayT: ...
def push(a: _ArrayT, n: SupportsIndex | None = None, axis: SupportsIndex = -1) -> _ArrayT: ...
def group_nansum(
    values: npt.ArrayLike,
    labels: npt.ArrayLike,
    *,
    axis: _Axis = None,
    num_labels: SupportsIndex | None = None,
) -> npt.NDArray[Any]: ...
def group_nanprod(
    values: npt.ArrayLike,
    labels: npt.ArrayLike,
    *,
    axis: _Axis = None,
    num_labels: SupportsIndex | None = None,
) -> npt.NDArray[Any]: ...
def group_nanmean(
    values: npt.ArrayLike,
    labels: npt.ArrayLike,
    *,
    axis: _Axis = None,
    num_labels: SupportsIndex | None = None,
) -> npt.NDArray[Any]: ...
def group_nanvar(
    values: npt.ArrayLike,
    labels: npt.ArrayLike,
    *,
    axis: _Axis = None,
    num_labels: SupportsIndex | None = None,
    ddof: float = 1,
) -> npt.NDArray[Any]: ...
def group_nanstd(
    values: npt.ArrayLike,
    labels: npt.ArrayLike,
    *,
    axis: _Axis = None,
    num_labels: SupportsIndex | None = None,
    ddof: float = 1,
) -> npt.NDArray[Any]: ...
def group_nanmin(
    values: npt.ArrayLike,
    labels: npt.ArrayLike,
    *,
    axis: _Axis = None,
    num_labels: SupportsIndex | None = None,
) -> npt.NDArray[Any]: ...
def group_nanmax(
    values: npt.ArrayLike,
    labels: npt.ArrayLike,
    *,
    axis: _Axis = None,
    num_labels: SupportsIndex | None = None,
) -> npt.NDArray[Any]: ...
def group_nanargmin(
    values: npt.ArrayLike,
    labels: npt.ArrayLike,
    *,
    axis: _Axis = None,
    num_labels: SupportsIndex | None = None,
) -> npt.NDArray[np.float64]: ...
def group_nanargmax(
    values: npt.ArrayLike,
    labels: npt.ArrayLike,
    *,
    axis: _Axis = None,
    num_labels: SupportsIndex | None = None,
) -> npt.NDArray[np.float64]: ...
def group_nancount(
    values: npt.ArrayLike,
    labels: npt.ArrayLike,
    *,
    axis: _Axis = None,
    num_labels: SupportsIndex | None = None,
) -> npt.NDArray[np.int64]: ...
def group_nanfirst(
    values: npt.ArrayLike,
    labels: npt.ArrayLike,
    *,
    axis: _Axis = None,
    num_labels: SupportsIndex | None = None,
) -> npt.NDArray[Any]: ...
def group_nanlast(
    values: npt.ArrayLike,
    labels: npt.ArrayLike,
    *,
    axis: _Axis = None,
    num_labels: SupportsIndex | None = None,
) -> npt.NDArray[Any]: ...
def group_nanany(
    values: npt.ArrayLike,
    labels: npt.ArrayLike,
    *,
    axis: _Axis = None,
    num_labels: SupportsIndex | None = None,
) -> npt.NDArray[np.bool_]: ...
def group_nanall(
    values: npt.ArrayLike,
    labels: npt.ArrayLike,
    *,
    axis: _Axis = None,
    num_labels: SupportsIndex | None = None,
) -> npt.NDArray[np.bool_]: ...
def group_nansum_of_squares(
    values: npt.ArrayLike,
    labels: npt.ArrayLike,
    *,
    axis: _Axis = None,
    num_labels: SupportsIndex | None = None,
) -> npt.NDArray[Any]: ...
def group_nanskew(
    values: npt.ArrayLike,
    labels: npt.ArrayLike,
    *,
    axis: _Axis = None,
    num_labels: SupportsIndex | None = None,
    bias: bool = True,
) -> npt.NDArray[Any]: ...
def group_nankurt(
    values: npt.ArrayLike,
    labels: npt.ArrayLike,
    *,
    axis: _Axis = None,
    num_labels: SupportsIndex | None = None,
    bias: bool = True,
    fisher: bool = True,
) -> npt.NDArray[Any]: ...
def group_nanmedian(
    values: npt.ArrayLike,
    labels: npt.ArrayLike,
    *,
    axis: _Axis = None,
    num_labels: SupportsIndex | None = None,
) -> npt.NDArray[np.floating[Any]]: ...
def group_nanquantile(
    values: npt.ArrayLike,
    labels: npt.ArrayLike,
    q: npt.ArrayLike,
    *,
    axis: _Axis = None,
    num_labels: SupportsIndex | None = None,
    method: _QuantileMethod = "linear",
    weights: npt.ArrayLike | None = None,
) -> npt.NDArray[np.floating[Any]]: ...
