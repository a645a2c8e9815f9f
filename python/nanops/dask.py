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

Chunks of no values are taken as they come.  Unknown chunk sizes (NaN, as
after boolean indexing) are taken by the reductions; the functions that need
them (medians and quantiles, moving windows and fills that cross chunk
borders, group-by) raise a ``ValueError`` that says to compute them first
(``x.compute_chunk_sizes()``).

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
import math
import operator
import warnings
from typing import Any, Final

import dask.array as da
import numpy as np
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from . import states

__all__ = [
    "NAMES",
    "reduce",
    "route",
    "moving",
    "fill",
    "push",
    "nansum",
    "nanprod",
    "nancount",
    "nanmean",
    "nanvar",
    "nanstd",
    "nanmin",
    "nanmax",
    "nanskew",
    "nankurt",
    "nanmedian",
    "nanquantile",
    "nanpercentile",
    "GROUP_NAMES",
    "group",
]

#: The functions computed here (the reductions with partial states).
NAMES: Final = states.NAMES

_TAKES_DTYPE: Final = frozenset(
    {"nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanskew", "nankurt"}
)
_TAKES_DDOF: Final = frozenset({"nanvar", "nanstd"})
_TAKES_BIAS: Final = frozenset({"nanskew", "nankurt"})


def _known_chunks(name: str, a: da.Array, axes: Any = None) -> None:
    """``ValueError`` for ``nanops.<name>`` of a dask array whose chunk
    sizes along ``axes`` (by default all) are unknown (NaN, as after boolean
    indexing), which the computation needs; the message says how to get
    them, as dask's own does."""
    dims = range(a.ndim) if axes is None else axes
    if any(math.isnan(c) for i in dims for c in a.chunks[i]):
        raise ValueError(
            f"nanops.{name} of a dask array needs its chunk sizes, which are unknown "
            f"(NaN) here: chunks {a.chunks}.  Compute them first with "
            "x.compute_chunk_sizes() (see https://docs.dask.org/en/latest/"
            "array-chunks.html#unknown-chunks)"
        )


def _result_dtype(name: str, dtype: Any, kwargs: dict[str, Any]) -> np.dtype:
    """The dtype nanops gives for input of ``dtype`` (asked of nanops itself)."""
    import nanops

    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.asarray(getattr(nanops, name)(np.ones((2,), dtype), **kwargs)).dtype


def _chunk(name: str, x: np.ndarray, axis: tuple[int, ...], keepdims: bool = True,
           computing_meta: bool = False, **_: Any) -> Any:
    if computing_meta:  # dask asks for the chunks' array type: an empty state
        return np.empty((0,) * np.ndim(x), states.state_dtype(name, x.dtype))
    x = np.asarray(x)
    return _narrow_counts(states.partial_fields(name, x, axis),
                          math.prod(x.shape[i] for i in axis))


def _narrow_counts(fields: dict[str, np.ndarray], most: int | None = None
                   ) -> dict[str, np.ndarray]:
    """``fields`` with an integer count ``n`` held in the narrowest unsigned
    type that holds ``most`` (by default its largest value): the tree moves
    and merges every chunk's state of every output, and a count of a
    chunk's 43 steps needs one byte, not the public state's eight
    (``nanmean`` over time: 9.2 → 5.2 MB a state)."""
    n = fields.get("n")
    if n is None or n.dtype.kind not in "iu":
        return fields
    most = int(n.max(initial=0)) if most is None else most
    return {**fields, "n": n.astype(states._count_dtype(most), copy=False)}


def _wide_counts(fields: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """``fields`` with the count ``n`` back in int64, as finishing takes it."""
    n = fields.get("n")
    if n is None or n.dtype.kind != "u":
        return fields
    return {**fields, "n": n.astype(np.int64)}


def _flatten(parts: Any) -> list[dict[str, np.ndarray]]:
    """The states of one tree node: dask hands them as lists nested once per
    reduced axis (or one state alone); all have the same shape."""
    if isinstance(parts, dict):
        return [parts]
    return [leaf for part in parts for leaf in _flatten(part)]


def _merged(name: str, parts: Any) -> dict[str, np.ndarray]:
    """The node's states merged: each field stacked along a new leading axis
    (contiguous), merged along it, the leading axis dropped."""
    leaves = _flatten(parts)
    if len(leaves) == 1:
        return leaves[0]
    stacked = {field: np.stack([leaf[field] for leaf in leaves]) for field in leaves[0]}
    merged = {field: value[0] for field, value in states.merge_fields(name, stacked, (0,)).items()}
    return _narrow_counts(merged)


def _combine(name: str, parts: Any, axis: tuple[int, ...], keepdims: bool = True,
             **_: Any) -> dict[str, np.ndarray]:
    return _merged(name, parts)


def _aggregate(name: str, result_dtype: np.dtype, options: dict[str, Any],
               integer_input: bool, parts: Any, axis: tuple[int, ...],
               keepdims: bool = False, **_: Any) -> Any:
    merged = _wide_counts(_merged(name, parts))
    value = np.asarray(states.finish_fields(name, merged, axis=axis, keepdims=keepdims,
                                            dtype=result_dtype, **options))
    if integer_input and name in _TAKES_DDOF:
        # nanops (as NumPy, which hands integers to ``np.var``) divides the
        # squared deviations by max(n - ddof, 0) for integer and bool input:
        # inf, not NaN, where n <= ddof and the values differ
        dof = merged["n"] - options.get("ddof", 0)
        if np.any(dof <= 0):
            with np.errstate(all="ignore"):
                exact = merged["m2"] / np.maximum(dof, 0)
                if name == "nanstd":
                    exact = np.sqrt(exact)
            exact = exact.astype(result_dtype)
            if not keepdims:
                exact = np.squeeze(exact, axis=axis)
                dof = np.squeeze(dof, axis=axis)
            value = np.where(dof <= 0, exact, value)
    return value


def reduce(name: str, a: da.Array, axis: Any = None, dtype: Any = None,
           keepdims: bool = False, ddof: float = 0, split_every: Any = None, *,
           bias: bool = True, fisher: bool = True) -> da.Array:
    """``nanops.<name>(a, axis, dtype=dtype, keepdims=keepdims[, ddof=ddof]
    [, bias=bias][, fisher=fisher])`` of the dask array ``a``, lazily;
    ``split_every`` as in :func:`dask.array.reduction`.

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
    if name in _TAKES_BIAS:
        kwargs["bias"] = bias
    if name == "nankurt":
        kwargs["fisher"] = fisher
    result_dtype = _result_dtype(name, a.dtype, kwargs)
    options = {k: v for k, v in kwargs.items() if k != "dtype"}
    return da.reduction(
        a,
        chunk=functools.partial(_chunk, name),
        combine=functools.partial(_combine, name),
        aggregate=functools.partial(_aggregate, name, result_dtype, options,
                                    a.dtype.kind in "biu"),
        axis=axes,
        keepdims=bool(keepdims),
        # the chunks and the tree carry states (a dict of contiguous arrays
        # per chunk, merged without concatenating); `meta` gives the
        # result's dtype
        dtype=states.state_dtype(name, a.dtype),
        split_every=split_every,
        concatenate=False,
        meta=np.empty((0,) * (a.ndim if keepdims else a.ndim - len(axes)), result_dtype),
        name=f"nanops-{name}",
    )


def route(name: str, a: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """nanops' lazy computation of ``nanops.<name>(a, *args, **kwargs)`` for
    the dask array ``a`` where there is one (the reductions of
    :data:`NAMES` with the arguments :func:`reduce` takes, the moving
    windows, the fills, the group-by functions of :data:`GROUP_NAMES` with
    in-memory labels); ``NotImplemented`` otherwise."""
    if not isinstance(a, da.Array):
        return NotImplemented
    if name.startswith("move_exp_"):
        return NotImplemented  # a whole-history scan: no lazy form yet
    if name in ("move_cov", "move_corr", "move_covmatrix", "move_corrmatrix"):
        return NotImplemented  # two series, or matrices: no lazy form yet
    if name.startswith("move_"):
        return moving(name, a, *args, **kwargs)
    if name in ("ffill", "bfill"):
        return fill(name, a, *args, **kwargs)
    if name == "push":
        return push(a, *args, **kwargs)
    if name in ORDER_NAMES:
        return _route_order(name, a, args, kwargs)
    if name.startswith("group_"):
        return _route_group(name, a, args, kwargs)
    if name not in NAMES or args:
        return NotImplemented
    allowed = {"axis", "keepdims"}
    if name in _TAKES_DTYPE:
        allowed.add("dtype")
    if name in _TAKES_DDOF:
        allowed.add("ddof")
    if name in _TAKES_BIAS:
        allowed.add("bias")
    if name == "nankurt":
        allowed.add("fisher")
    if not set(kwargs) <= allowed:
        return NotImplemented
    if any(type(kwargs.get(k, False)) not in (bool, np.bool_)
           for k in ("keepdims", "bias", "fisher")):
        return NotImplemented
    return reduce(name, a, **kwargs)


# --- medians and quantiles: an exact distributed selection --------------------

#: The order statistics computed here (:mod:`nanops._dask_order`).
ORDER_NAMES: Final = ("nanmedian", "nanquantile", "nanpercentile")


def _order_plan(name: str, dtype: np.dtype, q: Any, method: Any, weights: Any
                ) -> dict[str, Any] | None:
    """What the selection computes for ``nanops.<name>`` of an array of
    ``dtype``, with NumPy's (and nanops') checks of ``q`` and ``method``;
    None for calls left to NumPy's dispatch (dask's own function)."""
    from . import _order
    from ._args import Delegate

    if weights is not None or dtype.kind not in "fiu":
        if dtype.kind == "c" and name != "nanmedian":
            raise TypeError("a must be an array of real numbers")
        return None  # complex medians, bools, weights: dask's (or NumPy's) own
    value_dtype = np.dtype(dtype.char) if dtype.kind == "f" else np.dtype(np.float64)
    code = {"e": "f2", "f": "f4", "d": "f8"}[value_dtype.char]
    if name == "nanmedian":
        return {"median": True, "q": [0.5], "method": "linear", "q_code": "f8",
                "q_shape": None, "value_dtype": value_dtype, "result_code": code,
                "result_dtype": value_dtype}
    if isinstance(q, da.Array) or not isinstance(method, str):
        return None
    try:
        qa = _order._q_array(q, name == "nanpercentile")
        if method not in _order.METHODS or qa.ndim > 1:
            return None
        rd = _order._result_dtype(dtype, qa, type(q) in (int, float), method, False)
    except Delegate:
        return None
    prim_method = "lower" if method == "linear" and qa.dtype.kind in "biu" else method
    q_code = "f8" if type(q) in (int, float) else _order._Q_CODE[qa.dtype.kind, qa.dtype.itemsize]
    return {"median": False, "q": [float(v) for v in qa.reshape(-1)], "method": prim_method,
            "q_code": q_code, "q_shape": qa.shape, "value_dtype": value_dtype,
            "result_code": _order._RESULT_CODE.get(rd.char, code), "result_dtype": rd}


def order(name: str, a: da.Array, q: Any = None, axis: Any = None, method: str = "linear",
          keepdims: bool = False) -> Any:
    """``nanops.<name>(a[, q], axis, method=method, keepdims=keepdims)``
    (``nanmedian``, ``nanquantile``, ``nanpercentile``) of the dask array
    ``a``, lazily, without rechunking: an exact distributed selection
    (:mod:`nanops._dask_order`), bit for bit ``nanops.<name>`` of the
    computed array (its result dtype fixed in advance: NumPy's result dtype
    for an all-NaN first slice is not followed).  Complex medians and bool
    input go to dask's own function; ``NotImplemented`` then.  Weighted
    quantiles (``nanops.nanquantile(a, q, weights=w, ...)``) are
    :func:`_weighted`'s.

    >>> import numpy as np, dask.array as da
    >>> x = da.from_array(np.array([[1.0, np.nan, 3.0, 8.0], [4.0, 5.0, np.nan, 0.5]]), chunks=1)
    >>> order("nanquantile", x, [0.25, 0.5], axis=1).compute()
    array([[2.  , 2.25],
           [3.  , 4.  ]])
    >>> float(order("nanmedian", x).compute())
    3.5
    """
    from . import _dask_order

    if name not in ORDER_NAMES:
        raise ValueError(f"nanops.dask.order computes {', '.join(ORDER_NAMES)}, not {name!r}")
    if name != "nanmedian":
        _check_method(name, a.dtype, q, method)
    plan = _order_plan(name, a.dtype, q, method, None)
    if plan is not None:
        _known_chunks(name, a)
    if plan is None or a.size == 0 or a.ndim == 0:
        return NotImplemented
    axes = tuple(range(a.ndim)) if axis is None else tuple(sorted(normalize_axis_tuple(axis, a.ndim)))
    return _dask_order.quantile_graph(a, axes, bool(keepdims), plan)


def _check_method(name: str, dtype: np.dtype, q: Any, method: Any) -> None:
    """nanops' (NumPy's) error for an invalid quantile ``method``, from the
    in-memory function on one value of ``dtype`` (``q`` checked with it)."""
    import nanops

    from . import _order

    if isinstance(method, str) and method in _order.METHODS:
        return
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        getattr(nanops, name)(np.zeros((1,), dtype), q, method=method)


_ORDER_PARAMETERS: Final = {
    "nanmedian": ("axis", "out", "overwrite_input", "keepdims"),
    "nanquantile": ("q", "axis", "out", "overwrite_input", "method", "keepdims"),
    "nanpercentile": ("q", "axis", "out", "overwrite_input", "method", "keepdims"),
}


def _route_order(name: str, a: da.Array, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """:func:`order` for a call with the arguments it takes; ``NotImplemented``
    (NumPy's dispatch) for ``out=``, ``overwrite_input=True`` and the rest."""
    params = _ORDER_PARAMETERS[name]
    if len(args) > len(params):
        return NotImplemented
    given = dict(zip(params, args))
    if set(given) & set(kwargs):
        return NotImplemented
    given.update(kwargs)
    if not set(given) <= set(params) | {"weights"}:
        return NotImplemented
    if given.pop("out", None) is not None:
        return NotImplemented
    weights = given.pop("weights", None)
    if weights is not None:
        return _weighted(name, a, weights, **given)
    given.pop("overwrite_input", None)
    keepdims = given.get("keepdims", False)
    if keepdims is np._NoValue:
        given["keepdims"] = False
    elif type(keepdims) not in (bool, int):
        return NotImplemented
    if name != "nanmedian" and "q" not in given:
        return NotImplemented
    return order(name, a, **given)


def _weighted_block(name: str, q: Any, axes: tuple[int, ...], method: str, x: np.ndarray,
                    w: np.ndarray) -> np.ndarray:
    import nanops

    out = getattr(nanops, name)(x, q, axis=axes, method=method, keepdims=True, weights=w)
    return np.asarray(out)


def _weighted_plan(name: str, a: da.Array, q: Any, method: str, result_dtype: np.dtype
                   ) -> dict[str, Any] | None:
    """What the weighted selection (:mod:`nanops._dask_weighted`) computes
    (``q`` of any shape: each distinct value is one bracket column, the
    result takes ``q``'s shape); None for the calls it leaves to the
    rechunking path (an empty ``q``, a dtype other than float or integer)."""
    from . import _order
    from ._args import Delegate

    if a.dtype.kind not in "fiu":
        return None
    try:
        qa = _order._q_array(q, name == "nanpercentile")
    except Delegate:
        return None
    if qa.size == 0:
        return None
    weak = type(q) in (int, float)
    q_code = "f8" if weak else _order._Q_CODE[qa.dtype.kind, qa.dtype.itemsize]
    columns, first, inverse = np.unique(qa.reshape(-1).astype(np.float64), return_index=True,
                                        return_inverse=True)
    # each distinct q as nanops will see it: the same type, so the same
    # rounding of q and the same result dtype
    items = [q] if weak else [np.asarray(q).reshape(-1)[i:i + 1] for i in first]
    return {"name": name, "dtype": a.dtype, "method": method, "q": q, "q_items": items,
            "q_columns": [float(v) for v in columns],
            "column_of_q": [int(v) for v in inverse.reshape(-1)], "n_q": int(qa.size),
            "q_code": "f8" if q_code == "int" else q_code, "q_shape": qa.shape,
            "result_dtype": np.dtype(result_dtype)}


def _weighted(name: str, a: da.Array, weights: Any, q: Any = None, axis: Any = None,
              method: str = "linear", keepdims: Any = False, overwrite_input: Any = False
              ) -> Any:
    """Weighted ``nanquantile``/``nanpercentile`` (``inverted_cdf``,
    ``averaged_inverted_cdf``) of the dask array ``a``, lazily and without
    rechunking: an exact distributed selection carrying cumulative weights
    (:mod:`nanops._dask_weighted`), bit for bit ``nanops.<name>`` of the
    computed array.  ``weights`` (NumPy or dask) have ``a``'s shape, or the
    shape of the reduced axes (``axis`` in the caller's order), as nanops
    takes them; dask weights chunked otherwise than ``a`` are rechunked to
    ``a``'s chunks (an alignment, not a join of the reduced axes).

    Outputs whose positive weights are all multiples of one ``2**e`` with a
    total below ``2**(53 + e)`` (integer weights below 2**53, dyadic
    fractions such as ``k / 8``) move only their brackets' values; the
    others (e.g. random float weights) are gathered whole, lane by lane,
    into the task that finishes their block of outputs, as a sequential sum
    of rounded weights needs every earlier weight.

    Errors: ``q``, ``method`` and the weights' shape at call time, as nanops
    raises them; negative weights, NaN or infinite weights of non-NaN
    values and all-zero weights of an output raise nanops' ``ValueError``
    at compute time (the data are lazy).  The result dtype is fixed in
    advance (NumPy's for an all-NaN first slice is not followed); int64
    values beyond 2**53 are compared with the brackets as float64 (nanops
    hands such arrays to NumPy); the ``All-NaN slice`` warning comes once
    per group of outputs, from the worker.  Bool input is selected as 0/1
    (``uint8``) and the result given as nanops gives it (bool).  An empty
    ``q`` takes an exact fallback that rechunks the reduced axes into one
    chunk and runs nanops per block (as do ``axis=()``, 0-d and empty
    arrays, which have no chunks to join)."""
    import nanops

    from . import _dask_weighted

    if name == "nanmedian" or q is None or not isinstance(method, str):
        return NotImplemented
    if isinstance(q, da.Array):
        return NotImplemented
    _known_chunks(name, a)
    if isinstance(weights, da.Array):
        _known_chunks(name, weights)
    w_shape = tuple(np.shape(weights) if not isinstance(weights, da.Array) else weights.shape)
    if not isinstance(weights, da.Array):
        weights = np.asanyarray(weights)
    if weights.dtype.kind not in "biuf":
        return NotImplemented  # nanops hands those to NumPy
    axes = tuple(range(a.ndim)) if axis is None else tuple(sorted(
        normalize_axis_tuple(axis, a.ndim)))
    if w_shape != a.shape:
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        given = normalize_axis_tuple(axis, a.ndim)
        if w_shape != tuple(a.shape[i] for i in given):
            raise ValueError("Shape of weights must be consistent with shape of a along "
                             "specified axis.")
        # the broadcast form: the reduced axes in order, length 1 along the others
        weights = weights.transpose(tuple(int(i) for i in np.argsort(given))).reshape(
            tuple(n if i in axes else 1 for i, n in enumerate(a.shape)))
    sample = np.zeros((1,) * a.ndim, a.dtype)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        # nanops' (NumPy's) errors for q and method, and the result dtype
        warnings.simplefilter("ignore", RuntimeWarning)
        probe = getattr(nanops, name)(sample, q, axis=axis, method=method,
                                      weights=np.ones(sample.shape))
    kd = False if keepdims is np._NoValue else bool(keepdims)
    # bool values selected as 0/1: the same order, the same picks, cast back
    # to nanops' result dtype (bool) by the plan
    x = a.astype(np.uint8) if a.dtype.kind == "b" else a
    plan = _weighted_plan(name, x, q, method, np.asarray(probe).dtype)
    if plan is not None and a.size and a.ndim and axes:
        chunks = tuple(a.chunks[i] if weights.shape[i] == a.shape[i] else (1,)
                       for i in range(a.ndim))
        if isinstance(weights, da.Array):
            w = weights if weights.chunks == chunks else weights.rechunk(chunks)
        else:
            w = da.from_array(weights, chunks=chunks)
        return _dask_weighted.weighted_graph(x, w, axes, kd, plan)
    # the exact fallback: the reduced axes in one chunk, nanops per block
    w = da.broadcast_to(da.asarray(weights), a.shape).astype(np.float64)
    whole = {i: -1 for i in axes}
    x = a.rechunk(whole)
    w = w.rechunk(x.chunks)
    q_ndim = np.ndim(np.asarray(q))
    fn = functools.partial(_weighted_block, name, q, axes, method)
    out = da.map_blocks(fn, x, w, dtype=np.asarray(probe).dtype,
                        chunks=tuple((n,) for n in np.shape(np.asarray(q)))
                        + tuple((1,) if i in axes else x.chunks[i] for i in range(a.ndim)),
                        new_axis=list(range(q_ndim)) if q_ndim else None)
    if not kd:
        out = out.squeeze(axis=tuple(q_ndim + i for i in axes))
    return out


def nanmedian(a: da.Array, axis: Any = None, keepdims: bool = False) -> Any:
    """:func:`nanops.nanmedian` of a dask array, lazily (see :func:`order`)."""
    return order("nanmedian", a, None, axis, keepdims=keepdims)


def nanquantile(a: da.Array, q: Any, axis: Any = None, method: str = "linear",
                keepdims: bool = False, *, weights: Any = None) -> Any:
    """:func:`nanops.nanquantile` of a dask array, lazily (see :func:`order`;
    with ``weights``, :func:`_weighted`)."""
    if weights is not None:
        return _weighted("nanquantile", a, weights, q, axis, method, keepdims)
    return order("nanquantile", a, q, axis, method, keepdims)


def nanpercentile(a: da.Array, q: Any, axis: Any = None, method: str = "linear",
                  keepdims: bool = False, *, weights: Any = None) -> Any:
    """:func:`nanops.nanpercentile` of a dask array, lazily (see :func:`order`;
    with ``weights``, :func:`_weighted`)."""
    if weights is not None:
        return _weighted("nanpercentile", a, weights, q, axis, method, keepdims)
    return order("nanpercentile", a, q, axis, method, keepdims)


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


def nanskew(a: da.Array, axis: Any = None, dtype: Any = None, keepdims: bool = False,
            split_every: Any = None, *, bias: bool = True) -> da.Array:
    """:func:`nanops.nanskew` of a dask array, lazily (see :func:`reduce`)."""
    return reduce("nanskew", a, axis, dtype, keepdims, split_every=split_every, bias=bias)


def nankurt(a: da.Array, axis: Any = None, dtype: Any = None, keepdims: bool = False,
            split_every: Any = None, *, bias: bool = True, fisher: bool = True) -> da.Array:
    """:func:`nanops.nankurt` of a dask array, lazily (see :func:`reduce`)."""
    return reduce("nankurt", a, axis, dtype, keepdims, split_every=split_every, bias=bias,
                  fisher=fisher)


# --- moving windows and fills ---------------------------------------------


def _probe(name: str, a: da.Array, axis: Any, length: int, *args: Any,
           **kwargs: Any) -> tuple[int, np.dtype]:
    """The axis (normalised) and result dtype of ``nanops.<name>`` on ``a``,
    and its errors for bad arguments, from a call on a small stand-in lane
    of ``length`` values (at most the axis length) of ``a``'s dtype."""
    import nanops

    if not isinstance(axis, (int, np.integer)) or isinstance(axis, (bool, np.bool_)):
        raise TypeError(f"axis must be an integer, got {axis!r}")
    axis = normalize_axis_index(int(axis), a.ndim)
    lane = np.zeros((min(length, a.shape[axis]),), a.dtype)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        result = getattr(nanops, name)(lane, *args, axis=0, **kwargs)
    if np.shape(result) != lane.shape:
        raise TypeError(f"nanops.dask.{name} keeps the input's shape only (a scalar q)")
    return axis, np.asarray(result).dtype


def _overlapped(name: str, func: Any, a: da.Array, axis: int, before: int, after: int,
                dtype: np.dtype) -> da.Array:
    """``func`` over each block of ``a`` with ``before``/``after`` values of
    its neighbours along ``axis`` (rechunked so that every block has as many),
    trimmed back to the block; ``name`` (the public function) for the error
    of unknown chunk sizes, which an overlap needs."""
    if not math.isnan(a.shape[axis]):
        most = max(a.shape[axis] - 1, 0)  # more than the array holds changes nothing
        before, after = min(before, most), min(after, most)
    if before == after == 0:
        return da.map_blocks(func, a, dtype=dtype, meta=np.empty((0,) * a.ndim, dtype))
    _known_chunks(name, a)
    depth = {i: (before, after) if i == axis else (0, 0) for i in range(a.ndim)}
    return da.map_overlap(func, a, depth=depth, boundary="none", trim=True, dtype=dtype,
                          meta=np.empty((0,) * a.ndim, dtype), allow_rechunk=True)


def moving(name: str, a: da.Array, window: Any, *args: Any, axis: Any = -1,
           **kwargs: Any) -> da.Array:
    """``nanops.<name>(a, window, ..., axis=axis)`` (a ``move_*`` function)
    of the dask array ``a``, lazily: each block with the ``window - 1``
    values before it along ``axis`` (:func:`dask.array.map_overlap`), so
    every window position sees its whole window; the same values as nanops
    on the computed array.

    >>> import numpy as np, dask.array as da
    >>> moving("move_sum", da.arange(6.0, chunks=2), 3).compute()
    array([nan, nan,  3.,  6.,  9., 12.])
    """
    import nanops

    if not name.startswith("move_") or not hasattr(nanops, name):
        raise ValueError(f"nanops has no moving-window function {name!r}")
    axis, dtype = _probe(name, a, axis, int(window) if np.ndim(window) == 0 else 1, window,
                         *args, **kwargs)
    before = int(window) - 1
    if before > 0 and not math.isnan(a.shape[axis]):
        # the chunks the overlap will use, so that each block's place in
        # the array is known to it (map_overlap would rechunk alike)
        from dask.array.overlap import ensure_minimum_chunksize

        chunks = list(a.chunks)
        chunks[axis] = ensure_minimum_chunksize(min(before, max(a.shape[axis] - 1, 0)),
                                                a.chunks[axis])
        a = a.rechunk(tuple(chunks))
    ends = tuple(int(e) for e in np.cumsum(a.chunks[axis])) if not math.isnan(a.shape[axis]) \
        else None
    fn = functools.partial(_moving_block, getattr(nanops, name), window, args, axis, kwargs, ends)
    return _overlapped(name, fn, a, axis, before, 0, dtype)


def _moving_block(fn: Any, window: int, args: tuple[Any, ...], axis: int,
                  kwargs: dict[str, Any], ends: tuple[int, ...] | None, block: np.ndarray,
                  block_id: tuple[int, ...] | None = None) -> np.ndarray:
    """``fn(block, window, *args, axis=axis, **kwargs)`` of a block and the
    values before it, ending at ``ends[block_id[axis]]`` in the array.

    The block is computed behind NaN, which no ``move_*`` function counts: a
    block shorter than the window (the array's first, which has nothing
    before it) behind ``window - 1`` of them (the positions it lacks are
    missing either way), and every block behind as many as put its first
    value at a multiple of the window in the whole array. The moving sums
    and variances cut a lane into blocks of the window from its first
    position; so they fall where they fall in memory, and each position
    gets the bits the in-memory call gives it."""
    n = block.shape[axis]
    start = ends[block_id[axis]] - n if ends is not None and block_id is not None else 0
    short = max(window - n, 0)
    lead = short + (start - short) % window
    if lead == 0:
        return fn(block, window, *args, axis=axis, **kwargs)  # type: ignore[no-any-return]
    if block.dtype.kind not in "fc":
        block = block.astype(np.float64)  # integers and bools give float64 anyway
    pad = [(lead, 0) if i == axis else (0, 0) for i in range(block.ndim)]
    padded = np.pad(block, pad, constant_values=np.nan)
    out = fn(padded, window, *args, axis=axis, **kwargs)
    keep = tuple(slice(lead, None) if i == axis else slice(None) for i in range(block.ndim))
    return out[keep]  # type: ignore[no-any-return]


def _fill_block(block: np.ndarray, name: str, axis: int, **_: Any) -> np.ndarray:
    import nanops

    return getattr(nanops, name)(block, axis=axis)  # type: ignore[no-any-return]


def _end_along(block: np.ndarray, axis: int, last: bool) -> np.ndarray:
    """The last (first, ``last=False``) position of ``block`` along ``axis``
    (kept, of length 1); NaN for a block of none there (an empty chunk,
    perhaps of unknown size: it carries nothing of its own)."""
    if block.shape[axis] == 0:
        shape = tuple(1 if i == axis else n for i, n in enumerate(block.shape))
        return np.full(shape, np.nan, block.dtype)
    end = slice(-1, None) if last else slice(0, 1)
    return block[tuple(end if i == axis else slice(None) for i in range(block.ndim))]


def _carried_in(ends: np.ndarray, name: str, axis: int) -> np.ndarray:
    """What each block receives from its neighbours in the fill's direction:
    the blocks' end values filled the same way, moved one block on (NaN into
    the first block filled)."""
    filled = _fill_block(ends, name, axis)
    n = filled.shape[axis]
    none = np.full_like(np.take(filled, [0], axis=axis), np.nan)
    if name == "ffill":
        return np.concatenate([none, np.take(filled, np.arange(n - 1), axis=axis)], axis=axis)
    return np.concatenate([np.take(filled, np.arange(1, n), axis=axis), none], axis=axis)


def _fill_with_carried(current: np.ndarray, carried: np.ndarray) -> np.ndarray:
    # within a filled block only the run at its open end is still NaN
    return np.where(np.isnan(current), carried, current)


def fill(name: str, a: da.Array, *, limit: Any = None, axis: Any = -1) -> da.Array:
    """``nanops.ffill``/``nanops.bfill`` of the dask array ``a``, lazily,
    across chunk borders: with a ``limit``, each block sees the ``limit``
    values before (after) it; without, each block's last value, filled
    forward across the blocks, fills the next block's leading NaN.

    >>> import numpy as np, dask.array as da
    >>> x = da.from_array(np.array([1.0, np.nan, np.nan, np.nan, 5.0]), chunks=2)
    >>> fill("ffill", x).compute()
    array([1., 1., 1., 1., 5.])
    >>> fill("bfill", x, limit=1).compute()
    array([ 1., nan, nan,  5.,  5.])
    """
    import nanops

    if name not in ("ffill", "bfill"):
        raise ValueError(f"fill takes 'ffill' or 'bfill', not {name!r}")
    axis, dtype = _probe(name, a, axis, 1, limit=limit)
    if a.dtype.kind not in "fc":
        return a.copy()  # nothing is missing: kept as nanops keeps it
    if limit is not None:
        fn = functools.partial(getattr(nanops, name), limit=limit, axis=axis)
        before, after = (limit, 0) if name == "ffill" else (0, limit)
        return _overlapped(name, fn, a, axis, before, after, dtype)
    # each block is filled on its own; its end value, filled the same way
    # across the blocks (one small array of a value per block), fills the
    # open end of the next. Only the sizes of the blocks beside the axis are
    # needed: a block of unknown (even zero) length along it carries NaN.
    _known_chunks(name, a, [i for i in range(a.ndim) if i != axis])
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        own = da.map_blocks(_fill_block, a, name, axis=axis, dtype=dtype)
        ones = tuple((1,) * len(c) if i == axis else c for i, c in enumerate(a.chunks))
        ends = da.map_blocks(_end_along, own, axis, name == "ffill", chunks=ones, dtype=dtype)
        carried = da.map_blocks(_carried_in, ends.rechunk({axis: -1}), name, axis, dtype=dtype)
        # map_blocks pairs the blocks by index (it aligns no chunks)
        return da.map_blocks(_fill_with_carried, own, carried.rechunk(ones), dtype=dtype,
                             chunks=own.chunks)


def push(a: da.Array, n: Any = None, axis: Any = -1) -> da.Array:
    """bottleneck's ``push`` (``nanops.push``) of the dask array ``a``: a
    forward fill of at most ``n`` positions (all when None; none when 0),
    lazily.

    >>> import numpy as np, dask.array as da
    >>> push(da.from_array(np.array([1.0, np.nan, np.nan]), chunks=1), 1).compute()
    array([ 1.,  1., nan])
    """
    import nanops

    axis, dtype = _probe("push", a, axis, 1, n)  # bottleneck's errors for a bad n
    if n is not None and operator.index(n) == 0:
        # nothing is filled (ffill's limit has no 0): nanops' copy per block
        return da.map_blocks(functools.partial(nanops.push, n=0, axis=axis), a, dtype=dtype,
                             meta=np.empty((0,) * a.ndim, dtype))
    if a.dtype.kind in "fc":  # an overlap (n) or a scan (None; see fill)
        _known_chunks("push", a, None if n is not None else
                      [i for i in range(a.ndim) if i != axis])
    return fill("ffill", a, limit=n, axis=axis)


# --- group-by: flox's map-reduce with nanops' kernels ------------------------

#: The group-by functions computed here: ``nanops.<name>`` → flox's
#: reduction (:mod:`nanops.flox`) whose map-reduce runs nanops' kernels;
#: ``group_nanmedian`` is computed blockwise after rechunking the grouped
#: axes into one block (flox has no map-reduce for medians).
GROUP_NAMES: Final = {
    "group_nansum": "nansum",
    "group_nanprod": "nanprod",
    "group_nanmean": "nanmean",
    "group_nanvar": "nanvar",
    "group_nanstd": "nanstd",
    "group_nanmin": "nanmin",
    "group_nanmax": "nanmax",
    "group_nancount": "count",
    "group_nanmedian": "nanmedian",
}


def group(name: str, values: da.Array, labels: Any, *, axis: Any = None,
          num_labels: Any = None, ddof: Any = 1) -> da.Array:
    """``nanops.<name>(values, labels, axis=axis, num_labels=num_labels)``
    (a function of :data:`GROUP_NAMES`; ``ddof`` for ``group_nanvar``/
    ``group_nanstd``) of the dask array ``values`` with in-memory ``labels``,
    lazily: flox's ``groupby_reduce`` (method ``"map-reduce"``) with the
    aggregation of :func:`nanops.flox.aggregation`, so each block is reduced
    by nanops' ``group_nan*`` kernels to per-group intermediates that the
    tree merges (the variance as ``(n, mean, m2)`` states, the product as
    ``(prod, exp, zero, inf)`` states: no block's product overflows); the
    values equal nanops' on the computed array up to rounding, with its dtype.
    ``group_nanmedian`` rechunks the grouped axes into one block (an
    all-to-all exchange) and runs nanops' kernel on each block.  The
    variance of complex values is the real part's plus the imaginary
    part's.  nanops' errors for bad labels; ``ImportError`` without flox.

    >>> import numpy as np, dask.array as da
    >>> x = da.from_array(np.array([1.0, 4.0, np.nan, 2.0, 5.0]), chunks=2)
    >>> group("group_nanmean", x, np.array([0, 0, 1, 2, 0])).compute()
    array([3.33333333,        nan, 2.        ])
    """
    import nanops

    from . import _group

    if name not in GROUP_NAMES:
        raise ValueError(f"nanops.dask.group computes {', '.join(GROUP_NAMES)}, not {name!r}")
    _known_chunks(name, values)
    fn = getattr(nanops, name)
    extra = {"ddof": ddof} if name in ("group_nanvar", "group_nanstd") else {}
    lab = _group._labels(labels)
    grouped = (tuple(range(values.ndim)) if axis is None
               else normalize_axis_tuple(axis, values.ndim, "axis"))
    # nanops' own checks and result dtype, from a stand-in of the values
    # with length 1 along the other axes (the labels are in memory already)
    probe_shape = tuple(n if i in grouped else min(n, 1) for i, n in enumerate(values.shape))
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        probe = fn(np.zeros(probe_shape, values.dtype), labels, axis=axis,
                   num_labels=num_labels, **extra)
    n = probe.shape[-1]
    other = tuple(s for i, s in enumerate(values.shape) if i not in grouped)
    if n == 0 or values.size == 0:
        return da.from_array(np.broadcast_to(probe, other + (n,)).copy())
    if extra and values.dtype.kind == "c":
        # the variance of complex values (real: the mean squared modulus of
        # the deviations) is the real part's plus the imaginary part's, each
        # over the non-NaN values (NaN in either part makes the value NaN)
        missing = da.isnan(values)
        parts = [group(name.replace("std", "var"), da.where(missing, np.nan, part), labels,
                       axis=axis, num_labels=num_labels, ddof=ddof)
                 for part in (values.real, values.imag)]
        total = parts[0] + parts[1]
        return (da.sqrt(total) if name == "group_nanstd" else total).astype(probe.dtype)
    k = len(grouped)
    # flox (numpy_groupies) fails on blocks of no values: left out
    empty = {i: tuple(c for c in sizes if c) for i, sizes in enumerate(values.chunks)
             if 0 in sizes}
    if empty:
        values = values.rechunk(empty)
    moved = da.moveaxis(values, grouped, tuple(range(values.ndim - k, values.ndim)))
    by = lab if axis is not None else lab.transpose(grouped)
    if name == "group_nanmedian":
        whole = moved.rechunk({values.ndim - k + j: -1 for j in range(k)})
        trailing = tuple(range(values.ndim - k, values.ndim))
        return da.blockwise(
            functools.partial(_group_block, fn, by, trailing, n, extra),
            tuple(range(values.ndim - k)) + (values.ndim,),
            whole, tuple(range(values.ndim)),
            new_axes={values.ndim: n}, concatenate=True, dtype=probe.dtype,
            meta=np.empty((0,) * (values.ndim - k + 1), probe.dtype),
        )
    try:
        import flox
    except ImportError:
        raise ImportError(f"nanops.{name} of a dask array needs flox (pip install flox)") from None
    from . import flox as nanops_flox

    fname = GROUP_NAMES[name]
    natural = nanops_flox.AGGREGATIONS[fname][2]
    typed: dict[str, Any] = {}
    if fname in ("nansum", "nanprod"):
        # in nanops' result dtype: a Python float fill value would make flox
        # carry integer sums and products in float64 (and cast the
        # overflowed ones back to INT64_MIN), where nanops wraps as NumPy does
        natural = probe.dtype.type(natural)
        typed["dtype"] = probe.dtype
    result = flox.groupby_reduce(
        moved, by, func=nanops_flox.aggregation(fname), expected_groups=np.arange(n),
        axis=tuple(range(values.ndim - k, values.ndim)), engine="numpy", method="map-reduce",
        fill_value=natural, finalize_kwargs={"ddof": float(ddof)} if extra else None, **typed,
    )[0]
    return result.astype(probe.dtype, copy=False)


def _group_block(fn: Any, labels: np.ndarray, axes: tuple[int, ...], n: int,
                 extra: dict[str, Any], block: np.ndarray) -> np.ndarray:
    """``fn`` (a ``group_nan*`` function) of one block holding whole groups."""
    return fn(block, labels, axis=axes, num_labels=n, **extra)  # type: ignore[no-any-return]


def _route_group(name: str, a: da.Array, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """:func:`group` for a call with in-memory labels; ``NotImplemented``
    otherwise (dask labels, unknown keywords: nanops' refusal)."""
    if name not in GROUP_NAMES or len(args) > 1:
        return NotImplemented
    given = dict(kwargs)
    if args:
        if "labels" in given:
            return NotImplemented
        given["labels"] = args[0]
    allowed = {"labels", "axis", "num_labels"}
    if name in ("group_nanvar", "group_nanstd"):
        allowed.add("ddof")
    if "labels" not in given or not set(given) <= allowed:
        return NotImplemented
    if type(given["labels"]).__module__.partition(".")[0] == "dask":
        return NotImplemented
    labels = given.pop("labels")
    return group(name, a, labels, **given)
