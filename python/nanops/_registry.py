"""The public functions of nanops, one row each; their order is ``__all__``.

The rows live by family in :mod:`nanops._rows` (``reductions``, ``order``,
``rearrange``, ``moving``, ``matrices``, ``group``); this module joins them
and builds the functions.

A :class:`~nanops._generate.Row` declares everything about one function, and
:func:`~nanops._generate.build` turns it into the function (source written
with the exact signature and executed once, so no generic wrapper sits in the
call path):

``name``, ``signature``
    The public name and the parameter list as written in a ``def``: NumPy's
    names, defaults (``NoValue`` is NumPy's ``np._NoValue``) and ``*``
    marker, so ``inspect.signature`` equals NumPy's.
``fast`` (optional)
    The compiled fast entry for the common call:
    ``Fast(_nanops.fast_x, "a, axis, ...", at_defaults=(...), when=...,
    flag=...)`` calls ``fast_x`` with those argument expressions when the
    parameters in ``at_defaults`` are at their defaults and ``when`` holds.
    It answers ``NotImplemented`` (take the general path) or the result:
    the value itself (``flag=None``) or ``(value, flag)``, where a set flag
    warns at the caller's line (``flag=Warn(message, when=...)``) or hands
    the call to the general path (``flag=GENERAL_PATH``).
``general``
    ``General(helper, *consts)``: the general path, called as
    ``helper(*consts, <every parameter in signature order>)``.  It covers
    what the primitives cover and raises ``Delegate`` (before anything
    observable happens) for the rest.  Helpers live by family in
    :mod:`~nanops._sums`, :mod:`~nanops._moments`, :mod:`~nanops._extrema`
    and :mod:`~nanops._order`; they warn with stack level 3.
``fallback`` (optional)
    Called with the arguments the caller gave (the required ones
    positionally, the others by keyword where not identical to their
    defaults, so that NumPy's dispatch hands a duck array's call on with
    nothing its own function might refuse) when the general path delegates;
    by default NumPy's own function of the same name (captured at import).
    A function NumPy lacks names :data:`~nanops._generate.UNSUPPORTED`
    (NumPy's ``AxisError`` for a bad ``axis``, otherwise a ``TypeError``
    naming the function and the arguments) or a hand-written fallback.
``doc``
    The docstring (indentation is normalised), with a doctest example.

Adding a function
-----------------
Add its row to its family's module in :mod:`nanops._rows`, at the place it
should take in ``__all__``, and its
general-path helper if no existing one fits; then its stubs in
``__init__.pyi`` (``tests/python/test_stubs.py`` checks them against the
generated function with ``mypy.stubtest``) and its signature in
``SIGNATURES`` of ``tests/python/test_registry.py``.  A real statistic of
the moments family backed by a compiled primitive shaped like
``_nanops.nanvar`` (``prim(a, axes, *params) -> (result, flag)``) needs no
helper: :func:`~nanops._moments.moment` is its general path, the parameters
after ``where`` passed on to the primitive.  For instance ``nanskew``, over
``_nanops.nanskew(a, axes, bias)``::

    Row(
        name="nanskew",
        signature=(
            "a, axis=None, dtype=None, out=None, keepdims=NoValue, *, "
            "where=NoValue, bias=True"
        ),
        general=General(_moments.moment, _nanops.nanskew),
        fallback=UNSUPPORTED,  # NumPy has no nanskew
        doc=\"\"\"...\"\"\",
    ),

and, once the compiled module has a fast entry ``fast_nanskew(a, axis,
bias)`` answering ``(result, flag)``, the row gains::

        fast=Fast(
            _nanops.fast_nanskew,
            "a, axis, bias",
            at_defaults=("dtype", "out", "keepdims", "where"),
            when="type(bias) is bool",
            flag=Warn(MSG_DOF),
        ),

A function NumPy lacks needs ``fallback=UNSUPPORTED`` or a fallback of its
own (``nancount``'s is :func:`nanops._sums.count_fallback`, the count done
with NumPy operations).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ._generate import Row, build
from ._rows import group, matrices, moving, order, rearrange, reductions

__all__ = ["ROWS", "FUNCTIONS"]

#: Every public function's row, in the order of ``nanops.__all__``: the
#: families' rows (:mod:`nanops._rows`) joined.
ROWS: Final[tuple[Row, ...]] = (
    *reductions.ROWS,
    *order.ROWS,
    *rearrange.ROWS,
    *moving.ROWS,
    *matrices.ROWS,
    *group.ROWS,
)

#: The public functions, by name, in the order of ``ROWS``.
FUNCTIONS: Final[dict[str, Callable[..., Any]]] = {
    row.name: build(row, __package__ or "nanops") for row in ROWS
}
