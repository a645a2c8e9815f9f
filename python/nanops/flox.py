"""flox adapter: nanops' group-by kernels as ``flox.aggregations.Aggregation``
objects, so that ``flox.groupby_reduce`` and ``flox.xarray.xarray_reduce``
(what xarray's ``groupby`` runs on) compute with nanops, on NumPy arrays and
on dask arrays.

flox's blueprint of a grouped reduction has two parts, both filled here:

* ``numpy``: a callable ``f(group_idx, array, *, axis=-1, size=None,
  fill_value=None, dtype=None, **kwargs)`` doing the whole grouped reduction
  of an in-memory array (flox's in-memory path and its ``blockwise`` method
  on dask) — the matching ``group_nan*`` function;
* ``chunk``/``combine``/``finalize``: flox's map-reduce on dask (methods
  ``"map-reduce"`` and ``"cohorts"``).  Every chunk entry is a callable of
  the same form as ``numpy``, run by flox on each block with the block's
  groups along the last axis; the intermediates are merged along the tree
  by the ``combine`` entries and finished by ``finalize``:

  =====================  ==============================  ======================
  reduction              per-block intermediates          merge
  =====================  ==============================  ======================
  ``nansum``             ``group_nansum``                sum
  ``nanprod``            structured ``(prod, exp, zero,  nanops' product merge
                         inf)`` per group from the core's  (mantissas multiplied,
                         ``group_partial_states``          exponents summed)
  ``count``              ``group_nancount``              sum
  ``nanmean``            ``group_nansum`` (64-bit integers  sums; finalize divides
                         exact, in float64),
                         ``group_nancount``
  ``nanvar``/``nanstd``  structured ``(n, mean, m2)`` per  Chan et al.'s pairwise
                         group (:func:`nanops.states.state_dtype`) from  update
                         ``group_nancount``/``group_nanmean``/``group_nanvar``
  ``nanmin``/``nanmax``  ``group_nanmin``/``group_nanmax``  ``np.nanmin``/``np.nanmax``
  =====================  ==============================  ======================

  The variance states are NumPy structured arrays (``n``: int64, ``mean``,
  ``m2``: float64, the sum of squared deviations from ``mean``), merged by
  :func:`nanops.states.merge` when flox combines blocks that hold every
  group (its "simple combine") and by a grouped merge (nanops' ``group_nansum``
  over the states' fields) when flox combines blocks by their labels.

  The product states keep each group's product as a mantissa, a binary
  exponent and zero/infinity flags (``prod``: the input's accumulator type,
  ``exp``: int64, ``zero``, ``inf``: bool), so that no block's product
  overflows or underflows before the merge: ``[1e300, 1e300, 1e-300,
  1e-300]`` in blocks of two gives 1.0, as in memory, not ``inf · 0``.
  They merge by :func:`nanops.states.merge` in both of flox's combines
  (by label: each label's states gathered into one row first) and finish
  by :func:`nanops.states.finish`, rounded once.  Integers keep their
  wrapping product in ``prod`` (``exp`` 0, no flags).

``nanmedian`` has no map-reduce form in flox (``chunk`` is ``None``): on dask
it needs ``method="blockwise"`` (each group within one block along the
grouped axes), where the per-block step is nanops' ``group_nanmedian``.
:func:`nanops.dask.group` (what ``nanops.group_nanmedian(dask_array, ...)``
runs) rechunks the grouped axes into one block instead.

flox is imported lazily: ``import nanops`` never needs it, and this module
raises ``ImportError`` only when :func:`aggregation` is called without flox.

>>> import numpy as np, nanops.flox, flox                  # doctest: +SKIP
>>> flox.groupby_reduce(np.array([1.0, 2.0, 4.0]), np.array([0, 0, 1]),  # doctest: +SKIP
...                     func=nanops.flox.aggregation("nanmean"), engine="numpy")
(array([1.5, 4. ]), array([0, 1]))
"""

from __future__ import annotations

import copy
import importlib
from collections.abc import Callable
from typing import Any, Final

import numpy as np

from . import states

__all__ = ["aggregation", "AGGREGATIONS", "MAP_REDUCE"]

#: flox's reduction name → (nanops function name, keyword arguments taken
#: from flox's ``finalize_kwargs``, the value nanops gives an empty group).
AGGREGATIONS: dict[str, tuple[str, tuple[str, ...], float]] = {
    "nansum": ("group_nansum", (), 0.0),
    "nanprod": ("group_nanprod", (), 1.0),
    "nanmean": ("group_nanmean", (), np.nan),
    "nanvar": ("group_nanvar", ("ddof",), np.nan),
    "nanstd": ("group_nanstd", ("ddof",), np.nan),
    "nanmin": ("group_nanmin", (), np.nan),
    "nanmax": ("group_nanmax", (), np.nan),
    "nanmedian": ("group_nanmedian", (), np.nan),
    "count": ("group_nancount", (), 0),
}

#: The reductions whose dask map-reduce (``chunk``/``combine``) runs nanops'
#: kernels; ``nanmedian`` is blockwise only (flox has no map-reduce for it).
MAP_REDUCE: Final = ("nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmin",
                     "nanmax", "count")

#: The structured dtype of the per-group variance states.
_VAR_STATE: Final = states.state_dtype("nanvar", np.float64)


def _same_fill(fill_value: Any, natural: float) -> bool:
    """Whether nanops' value for an empty group is already ``fill_value``."""
    if fill_value is None:
        return True
    try:
        fv = float(fill_value)
    except (TypeError, ValueError):
        return False
    return fv == natural or (np.isnan(fv) and np.isnan(natural))


def _grouped_axes(array: np.ndarray, group_idx: np.ndarray) -> tuple[int, ...]:
    """The trailing axes of ``array`` that ``group_idx`` labels."""
    return tuple(range(array.ndim - group_idx.ndim, array.ndim))


def _members(group_idx: np.ndarray, size: int) -> np.ndarray:
    """The number of elements labelled with each group in ``[0, size)``."""
    flat = group_idx.reshape(-1)
    return np.bincount(flat[(flat >= 0) & (flat < size)], minlength=size)[:size]


def _kernel(name: str) -> Callable[..., np.ndarray]:
    """flox's callable (``numpy`` entry, or a ``chunk`` entry) for ``name``."""
    import nanops

    fname, params, natural = AGGREGATIONS[name]
    fn = getattr(nanops, fname)

    def reduction(
        group_idx: Any,
        array: Any,
        *,
        axis: int = -1,
        size: int | None = None,
        fill_value: Any = None,
        dtype: Any = None,
        **kwargs: Any,
    ) -> np.ndarray:
        array = np.asarray(array)
        group_idx = np.asarray(group_idx)
        axes = _grouped_axes(array, group_idx)
        extra = {p: kwargs[p] for p in params if p in kwargs}
        if "ddof" in params:
            extra.setdefault("ddof", 0)  # flox's (and NumPy's) default, not numbagg's
        if size is None:
            size = int(group_idx.max()) + 1 if group_idx.size else 0
        members = _members(group_idx, size)
        empty = members == 0
        if fname in ("group_nanmin", "group_nanmax") and array.dtype.kind in "biu" and empty.any():
            # an integer result cannot hold NaN: reduce the groups present
            # only (relabelled 0..k-1), the others get ``fill_value``
            present = np.flatnonzero(~empty)
            relabel = np.full(size + 1, -1, np.int64)
            relabel[present] = np.arange(present.size)
            idx = np.where((group_idx >= 0) & (group_idx < size), group_idx, size)
            part = fn(array, relabel[idx], axis=axes, num_labels=present.size, **extra)
            fv = 0 if fill_value is None else fill_value
            # the fill's own type (not its smallest: INT64_MAX, flox's fill
            # for an integer min, is a uint64 there, which takes the result
            # to float64 and back to INT64_MIN)
            res = np.full(part.shape[:-1] + (size,), fv,
                          dtype=np.result_type(part, np.asarray(fv)))
            res[..., present] = part
        else:
            res = fn(array, group_idx, axis=axes, num_labels=size, **extra)
        if not _same_fill(fill_value, natural) and empty.any():
            # flox's fill_value is for groups without members (an all-NaN
            # group keeps the reduction's own value, as flox's engines give)
            res = res.astype(np.result_type(res, np.asarray(fill_value)), copy=False)
            res[..., empty] = fill_value
        if dtype is not None:
            res = res.astype(dtype, copy=False)
        return res

    reduction.__name__ = f"nanops_{fname}"
    return reduction


def _mean_sum(group_idx: Any, array: Any, *, axis: int = -1, size: int | None = None,
              fill_value: Any = None, dtype: Any = None, **kwargs: Any) -> np.ndarray:
    """The ``nanmean`` intermediate sum of each group of one block: nanops'
    ``group_nansum``, except that 64-bit integers are summed exactly and
    rounded once to float64, as nanops' ``group_nanmean`` sums them (their
    own sum wraps: ``4 * 2**62`` is 0 in int64).  The sums of the high and
    low 32 bits of the values are exact in int64 (for groups of fewer than
    ``2**31`` values in one block); with the low sum's carry moved into the
    high one, both terms of ``high * 2**32 + low`` are exact in float64
    (for groups of fewer than ``2**22`` values in one block, one rounding
    more beyond), so their float sum is the exact sum rounded once."""
    nansum = _kernel("nansum")
    array = np.asarray(array)
    if array.dtype.kind not in "iu" or array.dtype.itemsize < 8:
        return nansum(group_idx, array, axis=axis, size=size, fill_value=fill_value,
                      dtype=dtype, **kwargs)
    mask = 0xFFFFFFFF
    low = nansum(group_idx, (array & mask).astype(np.int64), size=size)
    high = nansum(group_idx, (array >> 32).astype(np.int64), size=size)
    high += low >> 32
    low &= mask
    res = high.astype(np.float64) * 2.0**32 + low.astype(np.float64)
    if fill_value is not None and fill_value != 0:
        empty = _members(np.asarray(group_idx), res.shape[-1]) == 0
        res[..., empty] = fill_value
    return res if dtype is None else res.astype(dtype, copy=False)


# --- variance: per-group (n, mean, m2) states ---------------------------------


def _var_chunk(group_idx: Any, array: Any, *, axis: int = -1, size: int | None = None,
               fill_value: Any = None, dtype: Any = None, **_: Any) -> np.ndarray:
    """The variance states of each group of one block (nanops' kernels)."""
    import nanops

    array = np.asarray(array)
    group_idx = np.asarray(group_idx)
    axes = _grouped_axes(array, group_idx)
    if size is None:
        size = int(group_idx.max()) + 1 if group_idx.size else 0
    n = nanops.group_nancount(array, group_idx, axis=axes, num_labels=size)
    out = np.zeros(n.shape, _VAR_STATE)
    out["n"] = n
    if array.dtype.kind == "c":
        raise TypeError("nanops' grouped variance states take real input only")
    with np.errstate(all="ignore"):
        mean = nanops.group_nanmean(array, group_idx, axis=axes, num_labels=size)
        var = nanops.group_nanvar(array, group_idx, axis=axes, num_labels=size, ddof=0)
    has = n > 0
    out["mean"] = np.where(has, mean, 0.0)
    out["m2"] = np.where(has, var * n, 0.0)
    return out


def _var_merge_grouped(group_idx: np.ndarray, st: np.ndarray, size: int) -> np.ndarray:
    """States ``st`` (groups along the last axis, labelled ``group_idx``)
    merged per label: Chan et al.'s update through nanops' ``group_nansum``."""
    import nanops

    axes = _grouped_axes(st, group_idx)
    n_i = np.ascontiguousarray(st["n"])
    mean_i = np.ascontiguousarray(st["mean"])
    n = nanops.group_nansum(n_i, group_idx, axis=axes, num_labels=size)
    total = nanops.group_nansum(n_i * mean_i, group_idx, axis=axes, num_labels=size)
    with np.errstate(all="ignore"):
        mean = np.where(n > 0, total / np.maximum(n, 1), 0.0)
    spread = n_i * (mean_i - np.take(mean, np.where(group_idx >= 0, group_idx, 0), axis=-1)) ** 2
    m2 = nanops.group_nansum(np.ascontiguousarray(st["m2"]) + spread, group_idx,
                             axis=axes, num_labels=size)
    out = np.empty(n.shape, _VAR_STATE)
    out["n"], out["mean"], out["m2"] = n, mean, m2
    return out


def _var_combine(*args: Any, **kwargs: Any) -> np.ndarray:
    """flox's ``combine`` for the variance states.  flox calls it in two
    forms: ``f(states, axis=..., keepdims=True)`` to merge blocks that hold
    every group (aligned along the last axis; :func:`nanops.states.merge`),
    and ``f(group_idx, states, size=..., ...)`` to merge by label."""
    if len(args) == 2:
        group_idx, st = (np.asarray(a) for a in args)
        size = kwargs.get("size")
        if size is None:
            size = int(group_idx.max()) + 1 if group_idx.size else 0
        return _var_merge_grouped(group_idx, st, size)
    (st,) = args
    return states.merge("nanvar", np.asarray(st), axis=kwargs["axis"])


def _var_finalize(st: np.ndarray, ddof: float = 0) -> np.ndarray:
    """The variance from merged states (NaN where ``n - ddof <= 0``)."""
    dof = st["n"] - ddof
    with np.errstate(all="ignore"):
        return np.where(dof > 0, st["m2"] / np.where(dof > 0, dof, 1), np.nan)


def _std_finalize(st: np.ndarray, ddof: float = 0) -> np.ndarray:
    """The standard deviation from merged states."""
    return np.sqrt(_var_finalize(st, ddof))


def _mean_finalize(total: np.ndarray, count: np.ndarray) -> np.ndarray:
    """The mean from the merged sums and counts (NaN for no value)."""
    with np.errstate(all="ignore"):
        return total / np.where(count > 0, count, np.nan)


# --- products: per-group (prod, exp, zero, inf) states -------------------------


def _empty_product() -> Any:
    """The empty product's state (the product of no value: one), flox's
    fill for a group a block lacks.  Its ``prod`` is a bool (True: one),
    the narrowest field type: NumPy promotes structured dtypes field by
    field, so a block of fills concatenated with blocks of states takes
    their ``prod`` type (int64, uint64, float64 or complex128, which one
    depends on the input, unknown when the aggregation is made), and the
    fill written into their states casts to it."""
    fields = states.state_dtype("nanprod", np.float64)
    empty = np.zeros((), [(f, np.bool_ if f == "prod" else fields[f]) for f in fields.names or ()])
    empty["prod"] = True
    return empty[()]


#: The empty product's state (see :func:`_empty_product`).
_PROD_EMPTY: Final = _empty_product()


def _prod_chunk(group_idx: Any, array: Any, *, axis: int = -1, size: int | None = None,
                fill_value: Any = None, dtype: Any = None, **_: Any) -> np.ndarray:
    """The product states of each group of one block, as
    :func:`nanops.states.state_dtype` types them for the block's dtype: the
    core's per-label partial states (``_nanops.group_partial_states``), the
    states nanops' ``group_nanprod`` finishes.  flox's ``dtype`` (the
    intermediate's declared type) and ``fill_value`` (what reaches here is
    for groups without members, whose state is the empty product already)
    do not apply to the states."""
    from . import _args, _group
    from . import _nanops as core

    array = np.asarray(array)
    group_idx = np.asarray(group_idx)
    if size is None:
        size = int(group_idx.max()) + 1 if group_idx.size else 0
    try:
        x, lab, axes, n = _group._inputs(array, group_idx, _grouped_axes(array, group_idx), size)
    except _args.Delegate:
        raise TypeError(f"nanops.flox's nanprod takes numbers, got dtype {array.dtype}") from None
    sdtype = states.state_dtype("nanprod", array.dtype)
    fields = core.group_partial_states("nanprod", x, lab, list(axes), n)
    out = np.empty(np.shape(fields[0]), sdtype)
    for field, value in zip(sdtype.names or (), fields, strict=True):
        out[field] = value
    return out


def _merge_by_label(name: str, st: np.ndarray, group_idx: np.ndarray, size: int,
                    empty: Any) -> np.ndarray:
    """States ``st`` (groups along the last axes, labelled ``group_idx``)
    merged per label in ``[0, size)`` by :func:`nanops.states.merge`: each
    label's states gathered, in their order, into one row of a
    ``(..., size, most)`` array padded with the empty state ``empty``, and
    the rows merged.  ``most`` is the largest number of states of one label
    (at most the number of blocks flox combines at once: a block's states
    have one per group)."""
    k = group_idx.ndim
    lead = st.shape[: st.ndim - k]
    flat = st.reshape(lead + (group_idx.size,))
    lab = group_idx.reshape(-1)
    pos = np.flatnonzero((lab >= 0) & (lab < size))
    pos = pos[np.argsort(lab[pos], kind="stable")]  # by label, each label's in order
    by_label = lab[pos]
    counts = np.bincount(by_label, minlength=size)
    rank = np.arange(pos.size) - (np.cumsum(counts) - counts)[by_label]
    rows = np.full(lead + (size, max(int(counts.max(initial=0)), 1)), empty, st.dtype)
    rows[..., by_label, rank] = flat[..., pos]
    return states.merge(name, rows, axis=-1)[..., 0]


def _prod_combine(*args: Any, **kwargs: Any) -> np.ndarray:
    """flox's ``combine`` for the product states, in flox's two forms (see
    :func:`_var_combine`): ``f(states, axis=..., keepdims=True)`` merges
    blocks that hold every group (:func:`nanops.states.merge`),
    ``f(group_idx, states, size=..., ...)`` merges by label
    (:func:`_merge_by_label`)."""
    if len(args) == 2:
        group_idx, st = (np.asarray(a) for a in args)
        size = kwargs.get("size")
        if size is None:
            size = int(group_idx.max()) + 1 if group_idx.size else 0
        return _merge_by_label("nanprod", st, group_idx, size, _PROD_EMPTY)
    (st,) = args
    return states.merge("nanprod", np.asarray(st), axis=kwargs["axis"])


def _prod_finalize(st: np.ndarray) -> np.ndarray:
    """The products of merged states (:func:`nanops.states.finish`: the
    mantissa times ``2**exp`` rounded once; NaN where a zero met an
    infinity), in the accumulator's type (flox casts to the result's)."""
    return states.finish("nanprod", st, axis=())  # type: ignore[no-any-return]


def _map_reduce(agg: Any, name: str) -> None:
    """Replace flox's ``chunk``/``combine``/``finalize`` of ``agg`` by
    nanops' kernels and merges (see the module's table)."""
    if name in ("nansum", "nanmin", "nanmax", "count"):
        agg.chunk = (_kernel(name),)
    elif name == "nanprod":
        agg.chunk = (_prod_chunk,)
        agg.combine = (_prod_combine,)
        agg.finalize = _prod_finalize
        agg.fill_value["intermediate"] = (_PROD_EMPTY,)
        agg.dtype_init["intermediate"] = (_PROD_EMPTY.dtype,)
    elif name == "nanmean":
        agg.chunk = (_mean_sum, _kernel("count"))
        agg.finalize = _mean_finalize
    elif name in ("nanvar", "nanstd"):
        agg.chunk = (_var_chunk,)
        agg.combine = (_var_combine,)
        agg.finalize = _var_finalize if name == "nanvar" else _std_finalize
        zero = np.zeros((), _VAR_STATE)[()]
        agg.fill_value["intermediate"] = (zero,)
        agg.dtype_init["intermediate"] = (_VAR_STATE,)


def aggregation(name: str) -> Any:
    """A ``flox.aggregations.Aggregation`` computing flox's reduction ``name``
    (one of :data:`AGGREGATIONS`) with nanops; pass it as ``func=`` to
    ``flox.groupby_reduce`` or ``flox.xarray.xarray_reduce`` with
    ``engine="numpy"`` (flox's numbagg engine post-processes results as its
    own).  On dask arrays the per-block steps of flox's ``"map-reduce"`` and
    ``"cohorts"`` methods are nanops' kernels too (:data:`MAP_REDUCE`);
    ``nanmedian`` needs ``method="blockwise"``.  ``ValueError`` for a name
    nanops does not provide; ``ImportError`` without flox."""
    if name not in AGGREGATIONS:
        raise ValueError(
            f"nanops provides no flox aggregation {name!r}; choose one of {sorted(AGGREGATIONS)}"
        )
    flox_aggregations = importlib.import_module("flox.aggregations")  # lazily: optional
    agg = copy.deepcopy(flox_aggregations.AGGREGATIONS[name])
    agg.numpy = (_kernel(name),)
    if name in MAP_REDUCE:
        _map_reduce(agg, name)
    return agg
