"""Partial states of the streaming reductions, for chunked and distributed engines.

A reduction over data held in pieces (dask chunks, files, workers) is
computed as the threads of one call compute it: each piece is reduced to a
small *state* per output, states are merged, and the merged state is
finished into the result.  Here a state is a NumPy structured array with
the shape of the piece's result with ``keepdims=True``, so it concatenates,
slices and pickles like any array:

* :func:`partial` — the states of one piece (nanops' kernels over it),
* :func:`merge` — states merged along axes (one state per remaining output),
* :func:`finish` — the result from merged states.

``finish(name, merge(name, concat([partial(name, p) for p in pieces])))``
equals ``nanops.<name>`` of the whole array up to rounding, for any way of
cutting it into pieces.  The fields are

=================  ====================================================
``nansum``         ``sum`` (int64/uint64 for integers and bools, float64
                   for real floats, complex128 for complex)
``nanprod``        ``prod`` (as ``sum``), ``exp`` (int64), ``zero``,
                   ``inf`` (bool): the product of the finite nonzero values
                   is ``prod · 2**exp``, ``prod`` the running mantissa in
                   [1, 2) times the signs (complex: directions) of the
                   zeros and infinities, which are flagged apart, so that
                   no piece's or merge's product overflows or underflows
                   (integers wrap as NumPy's: ``exp`` 0, no flags)
``nancount``       ``n`` (int64)
``nanmean``        ``n``, ``sum`` (float64 or complex128)
``nanvar``,        ``n``, ``mean`` (float64 or complex128), ``m2`` (float64:
``nanstd``         the sum of squared deviations from ``mean``; merged with
                   Chan et al.'s pairwise update)
``nanmin``,        ``value`` (the input dtype; NaN for a piece with no
``nanmax``         value)
``nanskew``,       ``n``, ``mean``, ``m2``, ``m3``, ``m4`` (float64: sums of
``nankurt``        the 2nd-4th powers of the deviations; merged with
                   Pébay's pairwise update; real input only)
=================  ====================================================

Examples
--------
>>> import numpy as np, nanops
>>> from nanops import states
>>> a = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, np.nan]])
>>> pieces = [states.partial("nanvar", a[:, :2], axis=1),
...           states.partial("nanvar", a[:, 2:], axis=1)]
>>> merged = states.merge("nanvar", np.concatenate(pieces, axis=1), axis=1)
>>> states.finish("nanvar", merged, axis=1, keepdims=False)
array([1.  , 0.25])
>>> nanops.nanvar(a, axis=1)
array([1.  , 0.25])
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping
from typing import Any, Final

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

__all__ = [
    "NAMES",
    "partial",
    "merge",
    "finish",
    "state_dtype",
    "partial_fields",
    "merge_fields",
    "finish_fields",
]

#: The reductions that have partial states.
NAMES: Final = (
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
)


def _accumulator(dtype: np.dtype, name: str) -> np.dtype:
    """The dtype a state accumulates ``dtype`` values in."""
    if dtype.kind == "c":
        return np.dtype(np.complex128)
    if name in ("nansum", "nanprod") and dtype.kind in "biu":
        return np.dtype(np.uint64 if dtype.kind == "u" and dtype.itemsize == 8 else np.int64)
    return np.dtype(np.float64)


def state_dtype(name: str, dtype: Any) -> np.dtype:
    """The structured dtype of ``name``'s states for input of ``dtype``.

    >>> state_dtype("nanvar", np.float32)
    dtype([('n', '<i8'), ('mean', '<f8'), ('m2', '<f8')])
    """
    dtype = np.dtype(dtype)
    acc = _accumulator(dtype, name)
    fields: dict[str, list[tuple[str, Any]]] = {
        "nansum": [("sum", acc)],
        "nanprod": [("prod", acc), ("exp", np.int64), ("zero", np.bool_), ("inf", np.bool_)],
        "nancount": [("n", np.int64)],
        "nanmean": [("n", np.int64), ("sum", acc)],
        "nanvar": [("n", np.int64), ("mean", acc), ("m2", np.float64)],
        "nanstd": [("n", np.int64), ("mean", acc), ("m2", np.float64)],
        "nanmin": [("value", dtype)],
        "nanmax": [("value", dtype)],
        "nanskew": _HIGHER,
        "nankurt": _HIGHER,
    }
    if name not in fields:
        raise ValueError(f"no partial states for {name!r}; known: {', '.join(NAMES)}")
    return np.dtype(fields[name])


_HIGHER: Final = [(f, np.float64) for f in ("n", "mean", "m2", "m3", "m4")]


def _check_fields(name: str, fields: Mapping[str, Any]) -> None:
    """``ValueError`` unless ``fields`` are the fields of ``name``'s states
    (states of another reduction, or not states at all); an unknown
    ``name`` gets :func:`state_dtype`'s error."""
    expected = state_dtype(name, np.float64).names or ()
    if set(fields) == set(expected):
        return
    if not fields:
        raise ValueError(f"{name}'s states are a structured array with the fields "
                         f"{expected}; got an array without fields")
    owners = [other for other in NAMES
              if set(state_dtype(other, np.float64).names or ()) == set(fields)]
    whose = f"states of {' or '.join(owners)}" if owners else "not states of any reduction"
    raise ValueError(
        f"these are {whose} (fields {tuple(fields)}), not {name}'s (fields {expected}): "
        "merge and finish states with the name of the reduction that made them"
    )


def _axes(axis: Any, ndim: int) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    return normalize_axis_tuple(axis, ndim)


def _nanops(name: str) -> Callable[..., Any]:
    import nanops

    return getattr(nanops, name)  # type: ignore[no-any-return]


def partial(name: str, a: Any, axis: Any = None) -> np.ndarray:
    """The states of ``name`` over ``axis`` of ``a``, one per output, shaped
    as the result with ``keepdims=True``: one pass of the reduction's own
    kernels (``_nanops.partial_states``, the states its threads merge).

    >>> partial("nanmean", np.array([1.0, np.nan, 2.0]))
    array([(2, 3.)], dtype=[('n', '<i8'), ('sum', '<f8')])
    """
    a = np.asarray(a)
    return _pack(state_dtype(name, a.dtype), partial_fields(name, a, _axes(axis, a.ndim)))


def partial_fields(name: str, a: np.ndarray, axes: tuple[int, ...]) -> dict[str, np.ndarray]:
    """:func:`partial`'s fields as separate contiguous arrays (what the dask
    tree carries: merged without reading a structured array's strided
    fields); ``axes`` a tuple of normalised axes.

    >>> partial_fields("nanmean", np.array([[1.0, np.nan], [2.0, 4.0]]), (0,))
    {'n': array([[2, 1]]), 'sum': array([[3., 4.]])}
    """
    fields = _one_pass(name, a, axes)
    if fields is None:
        out = np.empty(
            tuple(1 if i in axes else n for i, n in enumerate(a.shape)),
            state_dtype(name, a.dtype),
        )
        _by_calls(name, a, axes, out)
        fields = _unpack(out)
    if name in ("nanmin", "nanmax") and a.dtype.kind in "biu" and \
            math.prod(a.shape[i] for i in axes) == 0:
        fields = {**fields, "value": np.full_like(fields["value"], _no_value(name, a.dtype))}
    return fields


def _no_value(name: str, dtype: np.dtype) -> Any:
    """The ``value`` of a ``nanmin``/``nanmax`` state of a piece without
    values: NaN for floats; for integers and bools, which cannot be NaN, the
    reduction's identity, which no merge with a value keeps."""
    if dtype.kind in "fc":
        return np.nan
    if dtype.kind == "b":
        return name == "nanmin"
    info = np.iinfo(dtype)
    return info.max if name == "nanmin" else info.min


def _unpack(states: np.ndarray) -> dict[str, np.ndarray]:
    """The fields of structured ``states`` (views)."""
    return {field: states[field] for field in states.dtype.names or ()}


def _pack(sdtype: np.dtype, fields: Mapping[str, np.ndarray]) -> np.ndarray:
    """``fields`` as one structured array of the state dtype ``sdtype``."""
    out = np.empty(np.shape(next(iter(fields.values()))), sdtype)
    for field in sdtype.names or ():
        out[field] = fields[field]
    return out


def _count_dtype(most: int) -> np.dtype:
    """The narrowest unsigned type that holds counts up to ``most`` (int64
    beyond uint32): what chunked engines keep counts in while they move
    and wait (the dask tree's states, the quantile selection's parts)."""
    for t in (np.uint8, np.uint16, np.uint32):
        if most <= np.iinfo(t).max:
            return np.dtype(t)
    return np.dtype(np.int64)


def _one_pass(name: str, a: np.ndarray, axes: tuple[int, ...]) -> dict[str, np.ndarray] | None:
    """The core's partial states of ``a`` in one pass, a contiguous array per
    field shaped as the result with ``keepdims=True``; None for input the
    primitives do not take (object or long double dtypes, more than 32
    dimensions) and complex input to skewness/kurtosis (whose error
    :func:`_by_calls` raises)."""
    from . import _args
    from . import _nanops as core

    if name in ("nanskew", "nankurt") and a.dtype.kind == "c":
        return None
    try:
        x = _args.kernel_input(a)
    except _args.Delegate:
        return None
    if x.dtype == np.float16 and name not in ("nanmin", "nanmax"):
        # the float32 kernels accumulate in float64, as the fields hold it
        # (float16's own accumulate in float32, whose range a state's
        # product or sum of squares can leave where the result does not)
        x = x.astype(np.float32)
    sdtype = state_dtype(name, a.dtype)
    shape = tuple(1 if i in axes else n for i, n in enumerate(a.shape))
    values = core.partial_states(name, x, list(axes))
    return {
        field: np.asarray(v, sdtype[field]).reshape(shape)
        for field, v in zip(sdtype.names or (), values, strict=True)
    }


def _by_calls(name: str, a: np.ndarray, axes: tuple[int, ...], out: np.ndarray) -> None:
    """Fills ``out`` with the states of ``a`` from nanops' public functions,
    one call (one pass) per field: the path of input the primitives do not
    take, and the reference the one-pass states are tested against."""
    acc = _accumulator(a.dtype, name)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        if name in ("nansum", "nanprod"):
            out[name[3:]] = _nanops(name)(a, axes, dtype=acc, keepdims=True)
        if name == "nanprod":
            # the product itself, as its own mantissa: exact where finite
            out["exp"] = 0
            if acc.kind in "fc":
                prod = out["prod"]
                nan = np.isnan(prod)
                out["zero"] = (prod == 0) & ~nan
                out["inf"] = np.isinf(prod) & ~nan
                out["prod"] = np.where(out["zero"] | out["inf"], _direction(prod), prod)
            else:
                out["zero"] = out["inf"] = False
        if name in ("nancount", "nanmean", "nanvar", "nanstd"):
            out["n"] = _nanops("nancount")(a, axes, keepdims=True)
        if name == "nanmean":
            out["sum"] = _nanops("nansum")(a, axes, dtype=acc, keepdims=True)
        if name in ("nanvar", "nanstd"):
            n = out["n"]
            mean = _nanops("nanmean")(a, axes, dtype=acc, keepdims=True)
            var = _nanops("nanvar")(a, axes, dtype=acc, keepdims=True)
            out["mean"] = np.where(n > 0, mean, 0)
            out["m2"] = np.where(n > 0, np.real(var) * n, 0.0)
        if name in ("nanskew", "nankurt"):
            _higher_partial(a, axes, out)
        if name in ("nanmin", "nanmax"):
            if a.size == 0:
                out["value"] = _no_value(name, a.dtype)
            else:
                out["value"] = _nanops(name)(a, axes, keepdims=True)


def merge(name: str, states: np.ndarray, axis: Any = None) -> np.ndarray:
    """``states`` merged along ``axis`` (kept with length 1).

    >>> s = np.concatenate([partial("nansum", [1.0, 2.0]), partial("nansum", [np.nan, 4.0])])
    >>> merge("nansum", s)
    array([(7.,)], dtype=[('sum', '<f8')])
    """
    states = np.asarray(states)
    return _pack(states.dtype, merge_fields(name, _unpack(states), _axes(axis, states.ndim)))


def merge_fields(name: str, fields: Mapping[str, np.ndarray],
                 axes: tuple[int, ...]) -> dict[str, np.ndarray]:
    """:func:`merge` on states given as one array per field (all of one
    shape), merged along ``axes`` (kept with length 1).

    The sums of states are plain sums, not NaN-skipping ones: a state's
    ``sum`` (or ``prod``, ``mean``, ``m2``) is NaN only where its piece's
    values gave NaN (``inf - inf``, ``0 * inf``), and the whole must too.
    Products are nanops' own (no overflow of a partial product), NaN where a
    piece's was.  Only ``nanmin``/``nanmax`` skip NaN: it marks a piece
    without values.

    >>> pieces = [partial_fields("nansum", np.array(v), (0,)) for v in ([np.inf, -np.inf], [1.0])]
    >>> stacked = {"sum": np.stack([p["sum"] for p in pieces])}
    >>> merge_fields("nansum", stacked, (0,))  # inf - inf in a piece: NaN, as nanops gives
    {'sum': array([[nan]])}
    """
    _check_fields(name, fields)

    def total(x: np.ndarray) -> np.ndarray:
        return np.sum(x, axis=axes, keepdims=True)

    out: dict[str, np.ndarray] = {}
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        if name == "nansum":
            out["sum"] = total(fields["sum"])
        elif name == "nanprod":
            out.update(_merged_products(fields, axes))
        elif name == "nancount":
            out["n"] = total(fields["n"])
        elif name == "nanmean":
            out["n"] = total(fields["n"])
            out["sum"] = total(fields["sum"])
        elif name in ("nanvar", "nanstd"):
            n_i, mean_i = fields["n"], fields["mean"]
            n = total(n_i)
            mean = np.where(n > 0, total(n_i * mean_i) / np.maximum(n, 1), 0)
            spread = n_i * np.abs(mean_i - mean) ** 2
            out["n"] = n
            out["mean"] = mean
            out["m2"] = total(fields["m2"] + spread)
        elif name in ("nanskew", "nankurt"):
            out.update(_higher_merge(fields, axes))
        elif name in ("nanmin", "nanmax"):
            value = fields["value"]
            if value.size == 0:
                shape = tuple(1 if i in axes else n for i, n in enumerate(value.shape))
                out["value"] = np.full(shape, np.nan if value.dtype.kind in "fc" else 0,
                                       value.dtype)
            else:
                out["value"] = np.asarray(_nanops(name)(value, axes, keepdims=True))
        else:
            state_dtype(name, np.float64)  # raises for an unknown name
    return out


def finish(
    name: str,
    states: np.ndarray,
    *,
    axis: Any = None,
    keepdims: bool = True,
    dtype: Any = None,
    ddof: float = 0,
    bias: bool = True,
    fisher: bool = True,
) -> Any:
    """The result of ``name`` from merged ``states``; ``axis`` names the
    merged axes (dropped unless ``keepdims``), ``dtype`` the result dtype
    (by default the accumulator's: float64, complex128, int64), ``ddof``
    the delta degrees of freedom of ``nanvar``/``nanstd``, ``bias`` and
    ``fisher`` those of ``nanskew``/``nankurt``.  Warns as NumPy
    does for an empty slice.

    >>> finish("nanmean", partial("nanmean", [[1.0, 2.0], [np.nan, 4.0]], axis=0), axis=0,
    ...        keepdims=False)
    array([1., 3.])
    """
    states = np.asarray(states)
    return finish_fields(name, _unpack(states), axis=_axes(axis, states.ndim),
                         keepdims=keepdims, dtype=dtype, ddof=ddof, bias=bias, fisher=fisher)


def _direction(p: np.ndarray) -> np.ndarray:
    """The sign (complex: the direction of the infinite parts) of zeros and
    infinities, as the core keeps them in a product's mantissa."""
    if p.dtype.kind == "c":
        def unit(v: np.ndarray) -> np.ndarray:
            return np.where(np.isinf(v), np.copysign(1.0, v), 0.0)
        inf = np.isinf(p.real) | np.isinf(p.imag)
        return np.where(inf, unit(p.real) + 1j * unit(p.imag), 1.0 + 0j)
    return np.copysign(np.ones_like(p), p)


def _merged_products(fields: Mapping[str, np.ndarray],
                     axes: tuple[int, ...]) -> dict[str, np.ndarray]:
    """Products' fields merged along ``axes``, as the core merges them: the
    mantissas multiplied by the core's own product (whose state keeps
    exponents apart), the exponents summed, the flags or-ed; NaN where a
    piece's mantissa was NaN."""
    from . import _nanops as core

    prod = np.ascontiguousarray(fields["prod"])
    shape = tuple(1 if i in axes else n for i, n in enumerate(prod.shape))
    part, exp, zero, inf = (np.asarray(v).reshape(shape)
                            for v in core.partial_states("nanprod", prod, list(axes)))
    out = {
        "prod": part.astype(prod.dtype, copy=False),
        "exp": (np.sum(fields["exp"], axis=axes, keepdims=True, dtype=np.int64)
                + exp).astype(np.int64),
        "zero": np.any(fields["zero"], axis=axes, keepdims=True) | zero,
        "inf": np.any(fields["inf"], axis=axes, keepdims=True) | inf,
    }
    if prod.dtype.kind in "fc":
        bad = np.any(np.isnan(prod), axis=axes, keepdims=True)
        if bad.any():
            nan = complex(np.nan, np.nan) if prod.dtype.kind == "c" else np.nan
            out["prod"] = np.where(bad, np.asarray(nan, prod.dtype), out["prod"])
    return out


def _product_value(fields: Mapping[str, np.ndarray]) -> np.ndarray:
    """The product from its fields, as the core finishes it: the mantissa
    times ``2**exp`` rounded once; a signed zero, a signed (complex:
    directed) infinity, or NaN where both a zero and an infinity were
    factors."""
    prod, exp, zero, inf = fields["prod"], fields["exp"], fields["zero"], fields["inf"]
    if prod.dtype.kind not in "fc":
        return prod
    # beyond ±2200 every mantissa overflows or underflows alike; ldexp takes
    # C ints
    e = np.clip(exp, -2200, 2200).astype(np.int32)
    if prod.dtype.kind == "c":
        def parts(re: np.ndarray, im: np.ndarray) -> np.ndarray:
            # set apart, not ``re + 1j * im``: 1j * inf is nan + infj, and
            # -0.0 + 0.0 loses a zero's sign
            z = np.empty(prod.shape, prod.dtype)
            z.real, z.imag = re, im
            return z

        def infinite(v: np.ndarray) -> np.ndarray:
            return np.where(v == 0, v, np.copysign(np.inf, v))
        regular = parts(np.ldexp(prod.real, e), np.ldexp(prod.imag, e))
        zeroed = prod * np.zeros((), prod.dtype)
        infinity = parts(infinite(prod.real), infinite(prod.imag))
        nan = complex(np.nan, np.nan)
    else:
        regular = np.ldexp(prod, e)
        zeroed = np.copysign(np.zeros_like(prod), prod)
        infinity = np.copysign(np.full_like(prod, np.inf), prod)
        nan = np.nan
    value = np.where(zero, zeroed, np.where(inf, infinity, regular))
    value = np.where((zero & inf) | np.isnan(prod), np.asarray(nan, prod.dtype), value)
    return value.astype(prod.dtype, copy=False)


def finish_fields(
    name: str,
    states: Mapping[str, np.ndarray],
    *,
    axis: tuple[int, ...],
    keepdims: bool = True,
    dtype: Any = None,
    ddof: float = 0,
    bias: bool = True,
    fisher: bool = True,
) -> Any:
    """:func:`finish` on merged states given as one array per field;
    ``axis`` is the tuple of merged axes.

    >>> finish_fields("nanmean", {"n": np.array([2, 4]), "sum": np.array([3.0, 2.0])},
    ...               axis=(), keepdims=False)
    array([1.5, 0.5])
    """
    _check_fields(name, states)
    axes = axis
    with np.errstate(all="ignore"):
        if name == "nansum":
            value = states["sum"]
        elif name == "nanprod":
            value = _product_value(states)
        elif name == "nancount":
            value = states["n"]
        elif name == "nanmean":
            n = states["n"]
            count = np.where(n > 0, n, np.nan)
            total = states["sum"]
            if total.dtype.kind == "c":
                # each part divided by the count, as nanops does (a complex
                # division by count + 0j would make inf + 1j into inf + nanj)
                value = np.empty(np.broadcast_shapes(total.shape, count.shape), total.dtype)
                value.real = total.real / count
                value.imag = total.imag / count
            else:
                value = total / count
            if np.any(n == 0):
                warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=2)
        elif name in ("nanvar", "nanstd"):
            dof = states["n"] - ddof
            value = np.where(dof > 0, states["m2"] / np.where(dof > 0, dof, 1), np.nan)
            if np.any(dof <= 0):
                warnings.warn("Degrees of freedom <= 0 for slice.", RuntimeWarning, stacklevel=2)
            if name == "nanstd":
                value = np.sqrt(value)
        elif name in ("nanskew", "nankurt"):
            value = _higher_finish(name, states, bias, fisher, dtype)
        elif name in ("nanmin", "nanmax"):
            value = states["value"]
            if value.dtype.kind in "fc" and np.any(np.isnan(value)):
                warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=2)
        else:
            state_dtype(name, np.float64)  # raises for an unknown name
        if dtype is not None:
            value = value.astype(dtype)
    if not keepdims:
        value = np.squeeze(value, axis=axes)
        if value.ndim == 0:
            value = value[()]
    return value


# --- skewness and kurtosis: (n, mean, M2, M3, M4) --------------------------


def _higher_partial(a: np.ndarray, axes: tuple[int, ...], out: np.ndarray) -> None:
    """Fills ``out`` with the moments of ``a`` over ``axes`` in float64: the
    mean by nanops, then nanops' sums of the deviations' powers."""
    if a.dtype.kind == "c":
        raise TypeError("nanskew/nankurt take real input only")
    x = a.astype(np.float64, copy=False)
    n = _nanops("nancount")(x, axes, keepdims=True).astype(np.float64)
    mean = np.where(n > 0, _nanops("nanmean")(x, axes, keepdims=True), 0.0)
    d = x - mean
    d2 = d * d
    out["n"] = n
    out["mean"] = mean
    out["m2"] = _nanops("nansum")(d2, axes, keepdims=True)
    out["m3"] = _nanops("nansum")(d2 * d, axes, keepdims=True)
    out["m4"] = _nanops("nansum")(d2 * d2, axes, keepdims=True)


def _higher_merge(fields: Mapping[str, np.ndarray],
                  axes: tuple[int, ...]) -> dict[str, np.ndarray]:
    """Folds the states ``fields`` along ``axes`` (Pébay 2008, pairwise)."""
    ndim = np.ndim(fields["n"])
    shape = tuple(1 if i in axes else n for i, n in enumerate(np.shape(fields["n"])))
    rest = [i for i in range(ndim) if i not in axes]

    def flat(x: np.ndarray) -> np.ndarray:
        moved = np.moveaxis(x, list(axes), list(range(ndim - len(axes), ndim)))
        # the merged length spelled out: -1 is ambiguous where a kept axis is empty
        merged = math.prod(moved.shape[len(rest):])
        return moved.reshape(moved.shape[: len(rest)] + (merged,))

    st = {f: flat(fields[f]) for f in ("n", "mean", "m2", "m3", "m4")}
    n, mean, m2, m3, m4 = [np.zeros(st["n"].shape[:-1]) for _ in range(5)]
    for j in range(st["n"].shape[-1]):
        b = {f: v[..., j] for f, v in st.items()}
        nb = b["n"]
        total = n + nb
        safe = np.where(total > 0, total, 1.0)
        delta = b["mean"] - mean
        na_nb = n * nb
        m4 = (m4 + b["m4"] + delta**4 * na_nb * (n * n - na_nb + nb * nb) / safe**3
              + 6 * delta**2 * (n * n * b["m2"] + nb * nb * m2) / safe**2
              + 4 * delta * (n * b["m3"] - nb * m3) / safe)
        m3 = (m3 + b["m3"] + delta**3 * na_nb * (n - nb) / safe**2
              + 3 * delta * (n * b["m2"] - nb * m2) / safe)
        m2 = m2 + b["m2"] + delta**2 * na_nb / safe
        mean = np.where(total > 0, mean + delta * nb / safe, 0.0)
        n = total
    # the kept dimensions are `rest` in their order: the shape with 1s added
    return {field: value.reshape(shape)
            for field, value in zip(("n", "mean", "m2", "m3", "m4"), (n, mean, m2, m3, m4))}


def _higher_finish(name: str, states: Mapping[str, np.ndarray], bias: bool, fisher: bool,
                   dtype: Any) -> np.ndarray:
    """scipy's skewness/kurtosis from the moments, as nanops computes them:
    NaN without values, and where ``m2 <= (eps · mean)²`` with ``eps`` that
    of the result dtype (scipy's rule for nearly constant data)."""
    n = states["n"]
    safe = np.where(n > 0, n, 1.0)
    m2, m3, m4 = states["m2"] / safe, states["m3"] / safe, states["m4"] / safe
    eps = np.finfo(dtype if dtype is not None and np.dtype(dtype).kind == "f"
                   else np.float64).eps
    scale = eps * states["mean"]
    defined = (n > 0) & (m2 > scale * scale) & np.isfinite(m2)
    m2 = np.where(defined, m2, 1.0)
    if name == "nanskew":
        value = m3 / (m2 * np.sqrt(m2))
        adjust = (not bias) & (n > 2)
        nn = np.where(adjust, n, 3.0)
        value = np.where(adjust, value * np.sqrt(nn * (nn - 1)) / (nn - 2), value)
    else:
        g2 = m4 / (m2 * m2)
        adjust = (not bias) & (n > 3)
        nn = np.where(adjust, n, 4.0)
        n1 = nn - 1
        value = np.where(adjust, ((nn + 1) * g2 - 3 * n1) * n1 / ((nn - 2) * (nn - 3)), g2 - 3)
        if not fisher:
            value = value + 3
    return np.where(defined, value, np.nan)
