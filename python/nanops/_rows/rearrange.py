"""The registry rows of the functions that rearrange or rewrite values:
bottleneck's ranks and ``replace``, NumPy's (and bottleneck's) partitions
(see :mod:`nanops._registry`)."""

from __future__ import annotations

from typing import Final

from .. import _nanops, _rearrange
from .._generate import UNSUPPORTED, Fast, General, Row

__all__ = ["ROWS"]


def _partition_row(name: str, arg: bool, doc: str) -> Row:
    """The row of ``partition`` (``arg`` False) or ``argpartition``: NumPy's
    signature; the fast entry for one int ``kth`` at the default ``kind``."""
    return Row(
        name=name,
        signature="a, kth, axis=-1, kind='introselect', order=None",
        fast=Fast(
            _nanops.fast_partition,
            f"a, kth, axis, {arg}",
            at_defaults=("order",),
            when="type(kind) is str and kind == 'introselect'",
        ),
        general=General(_rearrange.partition, arg),
        doc=doc,
    )


#: The rows, in the order of ``nanops.__all__``.
ROWS: Final[tuple[Row, ...]] = (
    Row(
        name="rankdata",
        signature="a, axis=None",
        fast=Fast(_nanops.fast_rankdata, "a, axis, True", at_defaults=()),
        general=General(_rearrange.rank, True),
        fallback=_rearrange.rankdata_fallback,
        doc="""
        Ranks of the values along an axis, from 1; ties get the mean of
        their ranks.

        Bottleneck's ``rankdata`` (not in NumPy): ``axis=None`` ranks the
        flattened array (a 1-d result); the result is float64.  NaN ranks
        after every other value, each NaN apart in the order of position
        (as bottleneck's).  Complex, object and other dtypes the kernels
        lack are ranked with NumPy operations.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.rankdata(np.array([3.0, np.nan, 1.0, 3.0]))
        array([2.5, 4. , 1. , 2.5])
        """,
    ),
    Row(
        name="nanrankdata",
        signature="a, axis=None",
        fast=Fast(_nanops.fast_rankdata, "a, axis, False", at_defaults=()),
        general=General(_rearrange.rank, False),
        fallback=_rearrange.nanrankdata_fallback,
        doc="""
        Ranks of the non-NaN values along an axis, NaN where the value is NaN.

        Bottleneck's ``nanrankdata`` (not in NumPy), called as
        :func:`rankdata`: the other values rank among themselves.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.nanrankdata(np.array([3.0, np.nan, 1.0, 3.0]))
        array([2.5, nan, 1. , 2.5])
        """,
    ),
    _partition_row("partition", False, """
        A copy of the array rearranged along an axis so that position
        ``kth`` holds the value sorting would put there, values before it
        not greater and values after it not less, in no given order.

        :func:`numpy.partition`'s signature and rules, which take
        bottleneck's ``partition(a, kth, axis)`` calls as they are: ``kth``
        an int (negative from the end), ``axis=None`` partitions the
        flattened array, NaN sorts last (bottleneck's result is undefined
        with NaN).  Lanes run on threads.  A sequence of ``kth``, another
        ``kind``, ``order``, complex and other dtypes the kernels lack go to
        NumPy, as do its errors.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> p = nanops.partition(np.array([5, 1, 4, 2, 3]), 2)
        >>> int(p[2]), sorted(p[:2].tolist()), sorted(p[3:].tolist())
        (3, [1, 2], [4, 5])
        """),
    _partition_row("argpartition", True, """
        The positions along an axis that would :func:`partition` the array
        at ``kth``: ``np.take_along_axis(a, argpartition(a, kth), axis)`` is
        partitioned.

        :func:`numpy.argpartition` (and bottleneck's), called as
        :func:`partition`; the result is ``np.intp``.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> a = np.array([5.0, 1.0, np.nan, 2.0])
        >>> at = nanops.argpartition(a, 1)
        >>> float(a[at[1]]), bool(np.isnan(a[at[3]]))
        (2.0, True)
        """),
    Row(
        name="replace",
        signature="a, old, new",
        fast=Fast(_nanops.fast_replace, "a, old, new", at_defaults=()),
        general=General(_rearrange.replace),
        fallback=UNSUPPORTED,  # the general path takes every ndarray
        doc="""
        Sets every value of ``a`` equal to ``old`` (every NaN if ``old`` is
        NaN) to ``new``, in place, and returns ``a``.

        Bottleneck's ``replace``: ``a`` must be an ndarray (``TypeError``
        otherwise) and writeable (NumPy's ``ValueError`` for a read-only
        array, which bottleneck writes anyway); ``old`` and ``new`` are real
        numbers a double holds (``TypeError`` otherwise), cast to ``a``'s
        dtype.  For integer arrays they must be whole numbers (``ValueError:
        Cannot safely cast ...``), and a NaN ``old`` replaces nothing.
        ``0.0`` also replaces ``-0.0``.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> a = np.array([1.0, np.nan, 0.0])
        >>> _ = nanops.replace(a, np.nan, 2.0)
        >>> a
        array([1., 2., 0.])
        """,
    ),
)
