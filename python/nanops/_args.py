"""Argument handling shared by the public functions.

Everything here is about turning NumPy-style arguments into what the compiled
primitives of :mod:`nanops._nanops` accept (a native, aligned base-class
``ndarray`` and a tuple of normalised axes), and about shaping a primitive's
result back into what NumPy would return (``keepdims``, ``out``, scalars);
also NumPy's RuntimeWarning messages and :func:`warn`.

When a call is outside what the primitives cover, or is an error path whose
exact exception NumPy should produce, the helpers raise :class:`Delegate`; the
public function then calls its fallback (the original NumPy function) with
the caller's arguments.  ``Delegate`` is only ever raised *before* anything
observable has happened (no warning emitted, no ``out`` written).
"""

from __future__ import annotations

import operator
import warnings
from typing import Any, Final

import numpy as np
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

__all__ = [
    "NoValue",
    "Delegate",
    "as_ndarray",
    "kernel_input",
    "integer_argument",
    "strides_whole",
    "dispatch_free",
    "ufunc_axes",
    "tuple_axes",
    "index_axis",
    "keepdims_flag",
    "kept_shape",
    "reduced_shape",
    "out_shape",
    "check_out",
    "where_mask",
    "apply_where",
    "with_dtype",
    "finish_ufunc",
    "finish_order",
    "warn",
    "MSG_EMPTY_MEAN",
    "MSG_DOF",
    "MSG_ALL_NAN",
    "MSG_ALL_NAN_AXIS",
    "F64",
    "INTP",
    "SUM_DTYPE",
    "KERNEL_INEXACT",
    "PRECISION",
]

#: NumPy's "argument not given" sentinel (what NumPy's signatures use).
NoValue: Final[Any] = np._NoValue

F64: Final[np.dtype[Any]] = np.dtype(np.float64)
INTP: Final[np.dtype[Any]] = np.dtype(np.intp)


class Delegate(Exception):
    """Internal signal: let the fallback (NumPy's function) handle this call."""


# --- dtypes --------------------------------------------------------------

#: Type characters of the element types the primitives accept.
KERNEL_CHARS: Final = "?bhilqBHILQefdFD"
_KERNEL_DTYPES: Final[frozenset[np.dtype[Any]]] = frozenset(
    np.dtype(c) for c in KERNEL_CHARS
)


def _sum_dtype(char: str) -> np.dtype[Any]:
    """NumPy's default result dtype of ``np.sum`` for an input type char."""
    dt = np.dtype(char)
    if dt.kind == "b" or (dt.kind == "i" and dt.itemsize < np.dtype(np.int_).itemsize):
        return np.dtype(np.int_)
    if dt.kind == "u" and dt.itemsize < np.dtype(np.uint).itemsize:
        return np.dtype(np.uint)
    return dt


#: The inexact dtypes the primitives accept.
KERNEL_INEXACT: Final[frozenset[np.dtype[Any]]] = frozenset(np.dtype(c) for c in "efdFD")

#: Result dtype of sum/prod/cumsum/cumprod per input type char.
SUM_DTYPE: Final[dict[str, np.dtype[Any]]] = {c: _sum_dtype(c) for c in KERNEL_CHARS}

#: Precision rank of inexact dtypes (real part): half < single < double.
PRECISION: Final[dict[str, int]] = {"e": 1, "f": 2, "d": 3, "F": 2, "D": 3}


def with_dtype(res: np.ndarray, dt: np.dtype[Any]) -> np.ndarray:
    """``res`` as dtype ``dt`` (a free view when only the type char differs)."""
    rdt = res.dtype
    if rdt is dt or (rdt.char == dt.char and rdt.byteorder == dt.byteorder):
        return res
    if rdt.kind == dt.kind and rdt.itemsize == dt.itemsize and dt.isnative:
        return res.view(dt)
    return res.astype(dt)


# --- inputs --------------------------------------------------------------


_PLAIN_TYPES: Final = frozenset(
    (np.ndarray, int, float, bool, complex, list, tuple, type(None))
)


def dispatch_free(x: object) -> bool:
    """True when ``x`` cannot carry a ``__array_function__`` override.

    Base-class ndarrays, ``None`` and plain Python objects qualify; ndarray
    subclasses and duck arrays do not (NumPy must dispatch on them).
    """
    t = type(x)
    return t in _PLAIN_TYPES or not hasattr(t, "__array_function__")


def as_ndarray(a: object) -> np.ndarray:
    """``a`` as a base-class ndarray, or :class:`Delegate`.

    A ``np.memmap`` (what ``np.load(path, mmap_mode="r")`` gives) is an
    ndarray over a file's pages: it is viewed as its base class (no copy),
    so the result is a plain ndarray, as NumPy's ``nansum`` and bottleneck's
    ``move_mean`` return for one.  Other ndarray subclasses (``np.matrix``,
    masked arrays, user subclasses) and objects implementing
    ``__array_function__`` go to NumPy.
    """
    if type(a) is np.ndarray:
        return a
    if type(a) is np.memmap:
        return a.view(np.ndarray)
    if hasattr(type(a), "__array_function__"):
        raise Delegate
    arr = np.asanyarray(a)
    if type(arr) is not np.ndarray:
        raise Delegate
    return arr


#: Most dimensions the primitives take.  NumPy 2 allows 64, but the Rust
#: ``numpy`` crate's array views stop at 32 (it panics beyond: a
#: ``PanicException``), so larger arrays go to NumPy.
MAX_KERNEL_NDIM: Final = 32


def strides_whole(arr: np.ndarray) -> bool:
    """Whether every stride (along an axis longer than 1) is a whole number
    of elements; NumPy allows others (a complex128 field of a structured
    array is 24 bytes apart), which the primitives' views cannot express."""
    size = arr.itemsize
    return all(n <= 1 or s % size == 0 for n, s in zip(arr.shape, arr.strides))


def kernel_input(arr: np.ndarray) -> np.ndarray:
    """``arr`` in a form the primitives accept, or :class:`Delegate`.

    Byte-swapped arrays get a native-order copy, and unaligned arrays or
    arrays with strides that are not whole elements an aligned contiguous
    copy (documented copies on rare paths).  Object, string, void,
    datetime/timedelta and long double dtypes raise :class:`Delegate`, and
    so do arrays of more than :data:`MAX_KERNEL_NDIM` dimensions.
    """
    if arr.ndim > MAX_KERNEL_NDIM:
        raise Delegate
    dt = arr.dtype
    if dt in _KERNEL_DTYPES:
        # an aligned real array's strides are whole elements (its alignment is
        # its item size); only complex ones (aligned to half) need the check
        if arr.flags.aligned and (dt.kind != "c" or strides_whole(arr)):
            return arr
        return arr.copy()
    if dt.char in KERNEL_CHARS and dt.names is None and dt.subdtype is None:
        # non-native byte order (or a dtype carrying metadata)
        return arr.astype(np.dtype(dt.char))
    raise Delegate


def integer_argument(x: Any, name: str) -> int:
    """``x`` as an int, bottleneck's way: a ``bool`` or anything without
    ``__index__`` is ``TypeError: `name` must be an integer``."""
    if isinstance(x, (bool, np.bool_)):
        raise TypeError(f"`{name}` must be an integer")
    try:
        return operator.index(x)
    except TypeError:
        raise TypeError(f"`{name}` must be an integer") from None


# --- axes ----------------------------------------------------------------

_ALL_AXES: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(range(n)) for n in range(65)
)


def ufunc_axes(axis: Any, ndim: int) -> tuple[int, ...]:
    """Axes as a ufunc reduction (``np.sum``) accepts them.

    ``None``, an integer or a tuple of integers; a 0-d array accepts the
    integer axes 0 and -1 (as NumPy's reductions do).  Invalid axes (out of
    range, repeated, lists, non-integers) go to NumPy for its own error.
    """
    if axis is None:
        return _ALL_AXES[ndim]
    try:
        if type(axis) is tuple:
            if any(type(ax) is bool for ax in axis):
                raise Delegate  # NumPy: TypeError "an integer is required"
            return normalize_axis_tuple(axis, ndim)
        if isinstance(axis, list) or type(axis) is bool:
            raise Delegate  # NumPy: TypeError (a bool is no axis for a ufunc)
        ax = operator.index(axis)
        if ndim == 0 and (ax == 0 or ax == -1):
            return ()
        return (normalize_axis_index(ax, ndim),)
    except (TypeError, ValueError):  # AxisError is a ValueError
        raise Delegate from None


def tuple_axes(axis: Any, ndim: int) -> tuple[int, ...]:
    """Axes as ``np.median``/``np.quantile`` accept them (lists too).

    Invalid axes go to NumPy for its own error.
    """
    if axis is None:
        return _ALL_AXES[ndim]
    try:
        return normalize_axis_tuple(axis, ndim)
    except (TypeError, ValueError):
        raise Delegate from None


def index_axis(axis: Any, ndim: int) -> int | None:
    """A single axis (``np.argmin``/``np.cumsum`` style), or ``None``.

    A 0-d array behaves as a 1-element 1-d array for axes 0 and -1 (the
    primitive then works on the flattened array).  Invalid axes (tuples,
    out of range, non-integers) go to NumPy for its own error.
    """
    if axis is None:
        return None
    if type(axis) is bool:
        raise Delegate  # NumPy: TypeError "an integer is required"
    try:
        ax = operator.index(axis)
        if ndim == 0:
            if ax == 0 or ax == -1:
                return None
            raise Delegate
        return normalize_axis_index(ax, ndim)
    except (TypeError, ValueError):
        raise Delegate from None


def keepdims_flag(keepdims: object) -> bool:
    """``keepdims`` as a bool (``np._NoValue`` means False).

    Only Python bools and ints are taken here; anything else goes to NumPy,
    whose ufunc reductions parse it as an integer (``TypeError`` for strings,
    floats, ``None``, ``np.bool_`` and arrays) where the median family
    tests its truth value.
    """
    if keepdims is NoValue:
        return False
    if type(keepdims) is bool or type(keepdims) is int:
        return bool(keepdims)
    raise Delegate


def kept_shape(shape: tuple[int, ...], axes: tuple[int, ...]) -> tuple[int, ...]:
    """``shape`` with the reduced ``axes`` set to 1 (``keepdims=True``)."""
    return tuple(1 if i in axes else n for i, n in enumerate(shape))


def reduced_shape(shape: tuple[int, ...], axes: tuple[int, ...]) -> tuple[int, ...]:
    """``shape`` without the reduced ``axes``."""
    return tuple(n for i, n in enumerate(shape) if i not in axes)


def out_shape(
    shape: tuple[int, ...], axes: tuple[int, ...], keepdims: bool
) -> tuple[int, ...]:
    """Shape of a reduction's result (what ``out`` must have)."""
    return kept_shape(shape, axes) if keepdims else reduced_shape(shape, axes)


def check_out(out: object, shape: tuple[int, ...]) -> np.ndarray:
    """Validate ``out``: a writeable base-class ndarray of exactly ``shape``.

    Anything else (wrong shape, read-only, subclass, not an array) goes to
    NumPy, which either handles it (duck arrays, broadcasting assignment in
    the median family) or raises its own error.
    """
    if type(out) is not np.ndarray or out.shape != shape or not out.flags.writeable:
        raise Delegate
    return out


# --- where ---------------------------------------------------------------


def where_mask(where: object, shape: tuple[int, ...]) -> np.ndarray | None:
    """``where`` as a boolean array broadcast to ``shape``; None if all True.

    Non-boolean masks and masks that do not broadcast go to NumPy (its
    error).
    """
    if where is NoValue or where is True:
        return None
    if not dispatch_free(where):
        raise Delegate
    w = np.asarray(where)
    if w.dtype != np.bool_:
        raise Delegate
    if w.ndim > len(shape):
        raise Delegate
    if w.ndim == 0 and bool(w):
        return None
    try:
        return np.broadcast_to(w, shape)
    except ValueError:
        raise Delegate from None


def apply_where(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Copy of float/complex ``x`` with NaN where ``mask`` is False.

    Non-inexact inputs cannot hold NaN and go to NumPy.
    """
    if x.dtype.kind not in "fc":
        raise Delegate
    return np.where(mask, x, np.array(np.nan, dtype=x.dtype))


# --- results -------------------------------------------------------------


def finish_ufunc(
    res: np.ndarray,
    out: np.ndarray | None,
    keepdims: bool,
    kshape: tuple[int, ...] | None,
) -> Any:
    """Shape a reduction result like a ufunc reduction does.

    ``keepdims`` reshapes to ``kshape``; ``out`` is written (unsafe casting,
    the caller has already checked what NumPy allows) and returned; otherwise
    a 0-d result becomes a NumPy scalar (also with ``keepdims`` on a 0-d
    input, as NumPy).
    """
    if keepdims and kshape is not None:
        res = res.reshape(kshape)
    if out is not None:
        np.copyto(out, res, casting="unsafe")
        return out
    if res.ndim == 0:
        return res[()]
    return res


def finish_order(
    res: np.ndarray,
    out: np.ndarray | None,
    keepdims: bool,
    kshape: tuple[int, ...] | None,
) -> Any:
    """Shape a median/quantile result as NumPy's ``_ureduce`` does.

    With ``keepdims`` the result stays an array (0-d too); otherwise a 0-d
    result becomes a NumPy scalar.
    """
    if keepdims and kshape is not None:
        res = res.reshape(kshape)
    if out is not None:
        np.copyto(out, res, casting="unsafe")
        return out
    if res.ndim == 0 and not keepdims:
        return res[()]
    return res


# --- warnings ------------------------------------------------------------

# NumPy's RuntimeWarning messages.
MSG_EMPTY_MEAN: Final = "Mean of empty slice"
MSG_DOF: Final = "Degrees of freedom <= 0 for slice."
MSG_ALL_NAN: Final = "All-NaN slice encountered"
#: How NumPy words ``MSG_ALL_NAN`` for nanmin/nanmax of a non-ndarray (lists, scalars).
MSG_ALL_NAN_AXIS: Final = "All-NaN axis encountered"


def warn(message: str, stacklevel: int, count: int = 1) -> None:
    """Emit ``RuntimeWarning(message)`` ``count`` times.

    ``stacklevel`` counts from the caller of this function, like
    :func:`warnings.warn` does from its own caller: 2 from a public function,
    3 from a general-path helper the public function calls (the public
    functions are generated so that no other frame sits in between; see
    :mod:`nanops._generate`).
    """
    for _ in range(count):
        warnings.warn(message, RuntimeWarning, stacklevel=stacklevel + 1)
