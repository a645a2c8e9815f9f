"""How a registry row becomes a public function.

A :class:`Row` (see :mod:`nanops._registry`) declares one public function:
its signature, docstring, compiled fast entry (:class:`Fast`), general path
(:class:`General`) and fallback.  :func:`build` writes the function's source
with the row's exact signature and executes it once at import (the technique
of :mod:`dataclasses`), so that a call costs what a hand-written wrapper
costs: no ``*args``/``**kwargs`` packing, and no Python frame between the
caller and the compiled fast entry or the general-path helper (warnings keep
pointing at the caller's line: stack level 2 from the public function, 3 from
a helper).  For ``nanmean`` it writes::

    def nanmean(a, axis=None, dtype=None, out=None, keepdims=NoValue, *, where=NoValue):
        if dtype is None and out is None and keepdims is NoValue and where is NoValue:
            _r = _fast(a, axis)
            if _r is not NotImplemented:
                _value, _flag = _r
                if _flag:
                    _warn('Mean of empty slice', 2)
                return _value
        try:
            return _general(a, axis, dtype, out, keepdims, where)
        except _Delegate:
            _kw = {}
            if axis is not None:
                _kw['axis'] = axis
            ...                                  # one test per optional parameter
            return _fallback(a, **_kw)

``inspect.getsource`` shows a generated function's source (it is registered
in :mod:`linecache` under the file name ``<nanops.NAME>``).
"""

from __future__ import annotations

import ast
import builtins
import importlib
import inspect
import linecache
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

from ._args import Delegate, NoValue, warn
from .states import NAMES as STATE_NAMES

__all__ = ["Row", "Fast", "General", "Warn", "GENERAL_PATH", "UNSUPPORTED", "build"]


@dataclass(frozen=True)
class Warn:
    """The fast entry's flag raises ``RuntimeWarning(message)`` at the caller's
    line (only where the expression ``when``, over the parameters, holds)."""

    message: str
    when: str | None = None


class _GeneralPath:
    def __repr__(self) -> str:
        return "GENERAL_PATH"


#: The fast entry's flag hands the call to the general path (which warns).
GENERAL_PATH: Final = _GeneralPath()


class _Unsupported:
    def __repr__(self) -> str:
        return "UNSUPPORTED"


#: The ``fallback`` of a row NumPy has no function for: what the general path
#: delegates is refused with NumPy's error for an invalid ``axis``
#: (``AxisError``) and otherwise a ``TypeError`` naming the function and the
#: arguments (see :func:`_unsupported`).
UNSUPPORTED: Final = _Unsupported()


@dataclass(frozen=True)
class Fast:
    """A row's compiled fast entry.

    ``entry(<args>)`` is tried when every parameter named in ``at_defaults``
    is at its default (which must be ``None``, ``NoValue``, ``True`` or
    ``False``: tested by identity) and the expression ``when`` holds.  It
    answers ``NotImplemented`` (take the general path) or the result: the
    value itself (``flag=None``), or ``(value, flag)`` where a set flag warns
    (:class:`Warn`) or takes the general path (:data:`GENERAL_PATH`).
    ``args`` and ``when`` are Python expressions over the parameters.
    """

    entry: Callable[..., object]
    args: str
    at_defaults: tuple[str, ...]
    when: str | None = None
    flag: Warn | _GeneralPath | None = None


class General:
    """A row's general path: ``helper(*consts, <every parameter in signature
    order>)``, raising :class:`~nanops._args.Delegate` for what the row's
    fallback should do."""

    __slots__ = ("helper", "consts")

    def __init__(self, helper: Callable[..., Any], *consts: object) -> None:
        self.helper = helper
        self.consts = consts

    def __repr__(self) -> str:
        names = [self.helper.__qualname__, *map(repr, self.consts)]
        return f"General({', '.join(names)})"


@dataclass(frozen=True)
class Row:
    """One public function (see :mod:`nanops._registry`).

    ``signature`` is the parameter list as written in a ``def`` (defaults may
    name ``NoValue``, NumPy's ``np._NoValue``); ``doc`` is the docstring
    (any indentation); ``fallback`` is called, with the required parameters
    positionally and the others by keyword, when the general path raises
    ``Delegate`` (None: NumPy's function of the same name, which must exist;
    :data:`UNSUPPORTED`: refuse the call with a clear error, for a function
    NumPy lacks).
    """

    name: str
    signature: str
    doc: str
    general: General
    fast: Fast | None = None
    fallback: Callable[..., Any] | _Unsupported | None = None


#: NumPy's private modules holding the functions nanops stands in for.
_NUMPY_IMPLS: Final = ("numpy.lib._nanfunctions_impl", "numpy.lib._function_base_impl")


def _numpy_original(name: str, ours: str = "nanops") -> Callable[..., Any]:
    """NumPy's own implementation of ``numpy.<name>``.

    Captured at import time because callers (NumPy's test-suite among them)
    may later rebind ``numpy.<name>`` to ours.  If that already happened
    before nanops was imported (the function's module starts with ``ours``),
    it is taken from NumPy's private module.
    """
    fn: Callable[..., Any] | None = getattr(np, name, None)
    if fn is None:
        raise LookupError(f"NumPy has no {name}: its registry row needs a fallback")
    if getattr(fn, "__module__", "").startswith(ours):
        for module in _NUMPY_IMPLS:
            impl = getattr(importlib.import_module(module), name, None)
            if impl is not None:
                return impl  # type: ignore[no-any-return]
    return fn


def _describe(value: object) -> str:
    """A short description of an argument for an error message."""
    if isinstance(value, np.ndarray):
        kind = "ndarray" if type(value) is np.ndarray else type(value).__qualname__
        return f"{kind} of dtype {value.dtype} and shape {value.shape}"
    text = repr(value)
    return text if len(text) <= 40 else f"{type(value).__qualname__} object"


def _unsupported(name: str, params: Mapping[str, inspect.Parameter]) -> Callable[..., Any]:
    """The fallback of a row whose ``fallback`` is :data:`UNSUPPORTED`.

    It is called with the caller's arguments when the general path delegates
    (an input the compiled primitives do not take: an ndarray subclass or
    duck array, an object/datetime/long double dtype; or an argument they do
    not cover: a non-float ``dtype``/``out``, a ``where`` that is not a
    boolean mask of the input's shape, a ``keepdims`` that is not a bool, an
    ``out`` of the wrong shape).  There is no NumPy function to hand the
    call to, and converting a subclass with ``np.asarray`` could silently
    drop what it means (a masked array's mask), so it raises: an invalid
    ``axis`` gets NumPy's own error (``AxisError``, as NumPy's reductions),
    anything else a ``TypeError`` naming the function and the arguments
    that differ from their defaults.
    """
    names = list(params)

    def fallback(*args: Any, **kwargs: Any) -> Any:
        bound = {**dict(zip(names, args)), **kwargs}
        a: Any = bound.get(names[0])
        axis = bound.get("axis")
        if axis is not None:
            try:
                ndim = np.ndim(a)
            except Exception:
                ndim = None
            if ndim is not None:
                normalize_axis_tuple(axis, max(ndim, 1))  # AxisError, TypeError
        given = [
            f"{p}={_describe(v)}"
            for p, v in bound.items()
            if p != names[0] and v is not params[p].default
        ]
        what = ", ".join([f"{names[0]}: {_describe(a)}", *given])
        hint = ""
        if type(a) is not np.ndarray and hasattr(type(a), "__array_function__"):
            hint = "; convert the input with np.asarray first if that keeps its meaning"
        raise TypeError(
            f"nanops.{name} does not support this call ({what}), and NumPy has "
            f"no {name} to hand it to (see help(nanops.{name})){hint}"
        )

    fallback.__qualname__ = fallback.__name__ = f"{name}_unsupported"
    return fallback


#: The fills, which :mod:`nanops.dask` computes on dask arrays.
_FILLS: Final = frozenset({"ffill", "bfill", "push"})
#: The order statistics nanops.dask computes by a distributed selection.
_DASK_ORDER: Final = frozenset({"nanmedian", "nanquantile", "nanpercentile"})


def _dask_first(name: str, fallback: Callable[..., Any]) -> Callable[..., Any]:
    """``fallback``, except that a dask array called with arguments
    :func:`nanops.dask.route` takes gets nanops' lazy computation
    (:mod:`nanops.dask`, imported on the first such call)."""

    def routed(a: Any, *args: Any, **kwargs: Any) -> Any:
        if type(a).__module__.partition(".")[0] == "dask":
            from . import dask as nanops_dask

            result = nanops_dask.route(name, a, args, kwargs)
            if result is not NotImplemented:
                return result
        return fallback(a, *args, **kwargs)

    routed.__qualname__ = routed.__name__ = f"{name}_fallback"
    return routed


def _parameters(signature: str) -> Mapping[str, inspect.Parameter]:
    """The parameters of ``def f(<signature>)``."""
    scratch: dict[str, Any] = {"NoValue": NoValue}
    exec(f"def f({signature}): pass", scratch)
    return inspect.signature(scratch["f"]).parameters


def _identity_literal(row: Row, param: inspect.Parameter) -> str:
    """The source that names ``param``'s default, for an ``is`` test."""
    default = param.default
    if default is NoValue:
        return "NoValue"
    if default is None or default is True or default is False:
        return repr(default)
    raise ValueError(
        f"{row.name}: the fast entry needs {param.name} at its default, "
        f"but {default!r} cannot be tested by identity"
    )


def _fast_lines(row: Row, fast: Fast, params: Mapping[str, inspect.Parameter]) -> list[str]:
    """The lines that try ``fast.entry`` (indented for the function body)."""
    conditions = [f"{p} is {_identity_literal(row, params[p])}" for p in fast.at_defaults]
    if fast.when is not None:
        conditions.append(f"({fast.when})")
    pad = "    " if conditions else ""
    lines = [f"if {' and '.join(conditions)}:"] if conditions else []
    flag = fast.flag
    lines.append(f"{pad}_r = _fast({fast.args})")
    if flag is None:
        lines += [f"{pad}if _r is not NotImplemented:", f"{pad}    return _r"]
    elif flag is GENERAL_PATH:
        lines += [
            f"{pad}if _r is not NotImplemented and not _r[1]:",
            f"{pad}    return _r[0]",
        ]
    else:
        assert isinstance(flag, Warn)
        test = "_flag" if flag.when is None else f"_flag and ({flag.when})"
        lines += [
            f"{pad}if _r is not NotImplemented:",
            f"{pad}    _value, _flag = _r",
            f"{pad}    if {test}:",
            f"{pad}        _warn({flag.message!r}, 2)",
            f"{pad}    return _value",
        ]
    return lines


def _source(row: Row, params: Mapping[str, inspect.Parameter], ns: dict[str, Any]) -> str:
    """The ``def`` of ``row``'s public function; fills ``ns`` with the names
    it uses besides its parameters and builtins."""
    lines = []
    if row.fast is not None:
        ns["_fast"] = row.fast.entry
        lines += _fast_lines(row, row.fast, params)
    consts = []
    for i, const in enumerate(row.general.consts):
        if const is None or type(const) in (bool, int, str):
            consts.append(repr(const))  # a literal: no global lookup per call
        else:
            ns[f"_c{i}"] = const
            consts.append(f"_c{i}")
    required = [p.name for p in params.values() if p.default is p.empty]
    lines += [
        "try:",
        f"    return _general({', '.join([*consts, *params])})",
        "except _Delegate:",
    ]
    # The fallback gets only the arguments the caller gave (a parameter at
    # its default, tested by identity, is left out): NumPy's dispatch hands
    # a duck array's call on to the array's own function (dask's, sparse's),
    # which need not take every keyword NumPy's function has.
    optional = [p for p in params.values() if p.default is not p.empty]
    if optional:
        lines.append("    _kw = {}")
    for i, p in enumerate(optional):
        default = p.default
        if default is NoValue or default is None or default is True or default is False:
            literal = "NoValue" if default is NoValue else repr(default)
        else:
            literal = f"_d{i}"
            ns[literal] = default
        lines += [f"    if {p.name} is not {literal}:", f"        _kw[{p.name!r}] = {p.name}"]
    call_args = [*required, "**_kw"] if optional else required
    lines.append(f"    return _fallback({', '.join(call_args)})")
    return f"def {row.name}({row.signature}):\n" + "".join(f"    {ln}\n" for ln in lines)


def _check_names(row: Row, src: str, params: Mapping[str, inspect.Parameter], ns: dict[str, Any]) -> None:
    """Refuse a row whose expressions use a name the function cannot see,
    or whose parameters shadow one it needs (an error at import, not a call)."""
    shadowed = [p for p in params if p.startswith("_") or p in ns]
    if shadowed:
        raise ValueError(f"{row.name}: parameter names {shadowed} are reserved")
    known = {*params, "_r", "_value", "_flag", "_kw", *ns, *dir(builtins)}
    unknown = {
        node.id
        for node in ast.walk(ast.parse(src))
        if isinstance(node, ast.Name) and node.id not in known
    }
    if unknown:
        raise NameError(f"{row.name}: unknown names {sorted(unknown)} in its row")


def _docstring(doc: str) -> str:
    """``doc`` laid out as the docstring of a module-level ``def``."""
    first, *rest = inspect.cleandoc(doc).splitlines()
    return "\n".join([first, *("    " + ln if ln else "" for ln in rest)]) + "\n    "


def build(row: Row, module: str) -> Callable[..., Any]:
    """The public function of ``row``, with ``__module__`` ``module``."""
    params = _parameters(row.signature)
    if isinstance(row.fallback, _Unsupported):
        fallback = _unsupported(row.name, params)
    else:
        fallback = row.fallback or _numpy_original(row.name, module)
    if (row.name in STATE_NAMES or row.name.startswith("move_") or row.name in _FILLS
            or row.name in _DASK_ORDER or row.name.startswith("group_")):
        fallback = _dask_first(row.name, fallback)
    ns: dict[str, Any] = {
        "__name__": module,
        "NoValue": NoValue,
        "_Delegate": Delegate,
        "_warn": warn,
        "_general": row.general.helper,
        "_fallback": fallback,
    }
    src = _source(row, params, ns)
    _check_names(row, src, params, ns)
    filename = f"<{module}.{row.name}>"
    exec(compile(src, filename, "exec"), ns)
    fn: Callable[..., Any] = ns.pop(row.name)
    fn.__doc__ = _docstring(row.doc)
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    return fn
