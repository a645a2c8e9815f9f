"""nanops on dask arrays: lazy reductions computed by nanops' kernels.

Each function returns a lazy :class:`dask.array.Array` built as a
:func:`dask.array.reduction` tree: nanops reduces every chunk to partial
states (:mod:`nanops.states`), the tree merges them with the same rules the
threads of one call use, and the root finishes them into the result.  The
result equals ``nanops.<name>`` of the computed array up to rounding, for
any chunking; its dtype is the one ``nanops.<name>`` gives.

``nanops.nansum(dask_array, ...)`` and the other functions named in
:data:`NAMES` come here by themselves when called with arguments these
functions take (``axis``, ``dtype``, ``keepdims``, ``ddof``); any other call
on a dask array goes on to NumPy's dispatch (dask's own function), with the
arguments the caller gave.  dask is imported only when this module is.

Examples
--------
>>> import numpy as np, dask.array as da, nanops
>>> x = da.from_array(np.array([[1.0, np.nan, 3.0], [4.0, 5.0, np.nan]]), chunks=1)
>>> lazy = nanops.nanmean(x, axis=0)
>>> type(lazy).__name__
'Array'
>>> lazy.compute()
array([2.5, 5. , 3. ])
"""

from __future__ import annotations

import functools
import warnings
from typing import Any, Final

import dask.array as da
import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

from . import states

__all__ = [
    "NAMES",
    "reduce",
    "route",
    "nansum",
    "nanprod",
    "nancount",
    "nanmean",
    "nanvar",
    "nanstd",
    "nanmin",
    "nanmax",
]

#: The functions computed here (the reductions with partial states).
NAMES: Final = states.NAMES

_TAKES_DTYPE: Final = frozenset({"nansum", "nanprod", "nanmean", "nanvar", "nanstd"})
_TAKES_DDOF: Final = frozenset({"nanvar", "nanstd"})


def _result_dtype(name: str, dtype: Any, kwargs: dict[str, Any]) -> np.dtype:
    """The dtype nanops gives for input of ``dtype`` (asked of nanops itself)."""
    import nanops

    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.asarray(getattr(nanops, name)(np.ones((2,), dtype), **kwargs)).dtype


def _chunk(name: str, x: np.ndarray, axis: tuple[int, ...], keepdims: bool = True,
           **_: Any) -> np.ndarray:
    return states.partial(name, x, axis)


def _combine(name: str, x: np.ndarray, axis: tuple[int, ...], keepdims: bool = True,
             **_: Any) -> np.ndarray:
    return states.merge(name, x, axis)


def _aggregate(name: str, result_dtype: np.dtype, ddof: float, x: np.ndarray,
               axis: tuple[int, ...], keepdims: bool = False, **_: Any) -> Any:
    merged = states.merge(name, x, axis)
    value = states.finish(name, merged, axis=axis, keepdims=keepdims, dtype=result_dtype,
                          ddof=ddof)
    return np.asarray(value)


def reduce(name: str, a: da.Array, axis: Any = None, dtype: Any = None,
           keepdims: bool = False, ddof: float = 0, split_every: Any = None) -> da.Array:
    """``nanops.<name>(a, axis, dtype=dtype, keepdims=keepdims[, ddof=ddof])``
    of the dask array ``a``, lazily; ``split_every`` as in
    :func:`dask.array.reduction`.

    >>> import numpy as np, dask.array as da
    >>> reduce("nansum", da.ones((4, 4), chunks=2), axis=1).compute()
    array([4., 4., 4., 4.])
    """
    if name not in NAMES:
        raise ValueError(f"nanops.dask has no {name!r}; it has {', '.join(NAMES)}")
    axes = tuple(range(a.ndim)) if axis is None else normalize_axis_tuple(axis, a.ndim)
    kwargs: dict[str, Any] = {}
    if dtype is not None:
        kwargs["dtype"] = dtype
    if name in _TAKES_DDOF:
        kwargs["ddof"] = ddof
    result_dtype = _result_dtype(name, a.dtype, kwargs)
    return da.reduction(
        a,
        chunk=functools.partial(_chunk, name),
        combine=functools.partial(_combine, name),
        aggregate=functools.partial(_aggregate, name, result_dtype, ddof),
        axis=axes,
        keepdims=bool(keepdims),
        # the chunks and the tree carry states; `meta` gives the result's dtype
        dtype=states.state_dtype(name, a.dtype),
        split_every=split_every,
        concatenate=True,
        meta=np.empty((0,) * (a.ndim if keepdims else a.ndim - len(axes)), result_dtype),
        name=f"nanops-{name}",
    )


def route(name: str, a: Any, kwargs: dict[str, Any]) -> Any:
    """``reduce(name, a, **kwargs)`` when ``a`` is a dask array and every
    argument is one :func:`reduce` takes; ``NotImplemented`` otherwise."""
    if not isinstance(a, da.Array) or name not in NAMES:
        return NotImplemented
    allowed = {"axis", "keepdims"}
    if name in _TAKES_DTYPE:
        allowed.add("dtype")
    if name in _TAKES_DDOF:
        allowed.add("ddof")
    if not set(kwargs) <= allowed:
        return NotImplemented
    keepdims = kwargs.get("keepdims", False)
    if type(keepdims) not in (bool, np.bool_):
        return NotImplemented
    return reduce(name, a, **kwargs)


def nansum(a: da.Array, axis: Any = None, dtype: Any = None, keepdims: bool = False,
           split_every: Any = None) -> da.Array:
    """:func:`nanops.nansum` of a dask array, lazily (see :func:`reduce`)."""
    return reduce("nansum", a, axis, dtype, keepdims, split_every=split_every)


def nanprod(a: da.Array, axis: Any = None, dtype: Any = None, keepdims: bool = False,
            split_every: Any = None) -> da.Array:
    """:func:`nanops.nanprod` of a dask array, lazily (see :func:`reduce`)."""
    return reduce("nanprod", a, axis, dtype, keepdims, split_every=split_every)


def nancount(a: da.Array, axis: Any = None, keepdims: bool = False,
             split_every: Any = None) -> da.Array:
    """:func:`nanops.nancount` of a dask array, lazily (see :func:`reduce`)."""
    return reduce("nancount", a, axis, None, keepdims, split_every=split_every)


def nanmean(a: da.Array, axis: Any = None, dtype: Any = None, keepdims: bool = False,
            split_every: Any = None) -> da.Array:
    """:func:`nanops.nanmean` of a dask array, lazily (see :func:`reduce`)."""
    return reduce("nanmean", a, axis, dtype, keepdims, split_every=split_every)


def nanvar(a: da.Array, axis: Any = None, dtype: Any = None, ddof: float = 0,
           keepdims: bool = False, split_every: Any = None) -> da.Array:
    """:func:`nanops.nanvar` of a dask array, lazily (see :func:`reduce`)."""
    return reduce("nanvar", a, axis, dtype, keepdims, ddof, split_every)


def nanstd(a: da.Array, axis: Any = None, dtype: Any = None, ddof: float = 0,
           keepdims: bool = False, split_every: Any = None) -> da.Array:
    """:func:`nanops.nanstd` of a dask array, lazily (see :func:`reduce`)."""
    return reduce("nanstd", a, axis, dtype, keepdims, ddof, split_every)


def nanmin(a: da.Array, axis: Any = None, keepdims: bool = False,
           split_every: Any = None) -> da.Array:
    """:func:`nanops.nanmin` of a dask array, lazily (see :func:`reduce`)."""
    return reduce("nanmin", a, axis, None, keepdims, split_every=split_every)


def nanmax(a: da.Array, axis: Any = None, keepdims: bool = False,
           split_every: Any = None) -> da.Array:
    """:func:`nanops.nanmax` of a dask array, lazily (see :func:`reduce`)."""
    return reduce("nanmax", a, axis, None, keepdims, split_every=split_every)
