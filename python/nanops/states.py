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
``nanprod``        ``prod`` (as ``sum``)
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

import warnings
from collections.abc import Callable
from typing import Any, Final

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

__all__ = ["NAMES", "partial", "merge", "finish", "state_dtype"]

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
        "nanprod": [("prod", acc)],
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
    axes = _axes(axis, a.ndim)
    out = np.empty(
        tuple(1 if i in axes else n for i, n in enumerate(a.shape)), state_dtype(name, a.dtype)
    )
    if not _one_pass(name, a, axes, out):
        _by_calls(name, a, axes, out)
    return out


def _one_pass(name: str, a: np.ndarray, axes: tuple[int, ...], out: np.ndarray) -> bool:
    """Fills ``out`` with the core's partial states of ``a`` in one pass;
    False, leaving it, for input the primitives do not take (object or long
    double dtypes, more than 32 dimensions) and complex input to
    skewness/kurtosis (whose error :func:`_by_calls` raises)."""
    from . import _args
    from . import _nanops as core

    if name in ("nanskew", "nankurt") and a.dtype.kind == "c":
        return False
    try:
        x = _args.kernel_input(a)
    except _args.Delegate:
        return False
    if x.dtype == np.float16 and name not in ("nanmin", "nanmax"):
        # the float32 kernels accumulate in float64, as the fields hold it
        # (float16's own accumulate in float32, whose range a state's
        # product or sum of squares can leave where the result does not)
        x = x.astype(np.float32)
    fields = core.partial_states(name, x, list(axes))
    names = out.dtype.names or ()
    for field, values in zip(names, fields, strict=True):
        out[field] = values.reshape(out.shape)
    return True


def _by_calls(name: str, a: np.ndarray, axes: tuple[int, ...], out: np.ndarray) -> None:
    """Fills ``out`` with the states of ``a`` from nanops' public functions,
    one call (one pass) per field: the path of input the primitives do not
    take, and the reference the one-pass states are tested against."""
    acc = _accumulator(a.dtype, name)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        if name in ("nansum", "nanprod"):
            out[name[3:]] = _nanops(name)(a, axes, dtype=acc, keepdims=True)
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
                out["value"] = np.nan if a.dtype.kind in "fc" else 0
            else:
                out["value"] = _nanops(name)(a, axes, keepdims=True)


def merge(name: str, states: np.ndarray, axis: Any = None) -> np.ndarray:
    """``states`` merged along ``axis`` (kept with length 1).

    >>> s = np.concatenate([partial("nansum", [1.0, 2.0]), partial("nansum", [np.nan, 4.0])])
    >>> merge("nansum", s)
    array([(7.,)], dtype=[('sum', '<f8')])
    """
    states = np.asarray(states)
    axes = _axes(axis, states.ndim)
    out = np.empty(
        tuple(1 if i in axes else n for i, n in enumerate(states.shape)), states.dtype
    )
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        if name == "nansum":
            out["sum"] = _nanops("nansum")(states["sum"], axes, keepdims=True)
        elif name == "nanprod":
            out["prod"] = _nanops("nanprod")(states["prod"], axes, keepdims=True)
        elif name == "nancount":
            out["n"] = np.sum(states["n"], axis=axes, keepdims=True)
        elif name == "nanmean":
            out["n"] = np.sum(states["n"], axis=axes, keepdims=True)
            out["sum"] = _nanops("nansum")(states["sum"], axes, keepdims=True)
        elif name in ("nanvar", "nanstd"):
            n_i = states["n"]
            n = np.sum(n_i, axis=axes, keepdims=True)
            total = _nanops("nansum")(n_i * states["mean"], axes, keepdims=True)
            mean = np.where(n > 0, total / np.maximum(n, 1), 0)
            spread = n_i * np.abs(states["mean"] - mean) ** 2
            out["n"] = n
            out["mean"] = mean
            out["m2"] = _nanops("nansum")(states["m2"] + spread, axes, keepdims=True)
        elif name in ("nanskew", "nankurt"):
            _higher_merge(states, axes, out)
        elif name in ("nanmin", "nanmax"):
            if states.size == 0:
                out["value"] = np.nan if states.dtype["value"].kind in "fc" else 0
            else:
                out["value"] = _nanops(name)(states["value"], axes, keepdims=True)
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
    axes = _axes(axis, states.ndim)
    with np.errstate(all="ignore"):
        if name in ("nansum", "nanprod"):
            value = states[name[3:]]
        elif name == "nancount":
            value = states["n"]
        elif name == "nanmean":
            n = states["n"]
            value = states["sum"] / np.where(n > 0, n, np.nan)
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


def _higher_merge(states: np.ndarray, axes: tuple[int, ...], out: np.ndarray) -> None:
    """Folds ``states`` along ``axes`` into ``out`` (Pébay 2008, pairwise)."""
    rest = [i for i in range(states.ndim) if i not in axes]
    moved = np.moveaxis(states, list(axes), list(range(states.ndim - len(axes), states.ndim)))
    flat: np.ndarray[Any, Any] = moved.reshape(moved.shape[: len(rest)] + (-1,))
    n, mean, m2, m3, m4 = [np.zeros(flat.shape[:-1]) for _ in range(5)]
    for j in range(flat.shape[-1]):
        b = flat[..., j]
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
    # the kept dimensions are `rest` in their order: out's shape with 1s added
    for field, value in zip(("n", "mean", "m2", "m3", "m4"), (n, mean, m2, m3, m4)):
        out[field] = value.reshape(out.shape)


def _higher_finish(name: str, states: np.ndarray, bias: bool, fisher: bool,
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
