"""The registry rows of the order statistics: medians, quantiles and
percentiles, NaN-skipping and NaN-propagating (see :mod:`nanops._registry`)."""

from __future__ import annotations

from typing import Final

from .. import _nanops, _order
from .._generate import Fast, GENERAL_PATH, General, Row

__all__ = ["ROWS"]


#: The rows, in the order of ``nanops.__all__``.
ROWS: Final[tuple[Row, ...]] = (
    # --- order statistics ----------------------------------------------------
    Row(
        name="nanmedian",
        signature="a, axis=None, out=None, overwrite_input=False, keepdims=NoValue",
        fast=Fast(
            _nanops.fast_nanmedian,  # warns about all-NaN slices itself
            "a, axis",
            at_defaults=("out", "keepdims"),
        ),
        general=General(_order.median, True),
        doc="""
        Median over the given axes, ignoring NaN.

        Same signature, result dtype (float64 for integer input), warning
        (``RuntimeWarning: All-NaN slice encountered``, once per all-NaN slice as
        NumPy) and errors as :func:`numpy.nanmedian`.  Uses selection, not a sort;
        ``overwrite_input`` is accepted and the input is never modified.
        Complex and empty inputs are handled by NumPy.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.nanmedian(np.array([[10.0, np.nan, 4.0], [3.0, 2.0, 1.0]]), axis=1)
        array([7., 2.])
        """,
    ),
    Row(
        name="nanquantile",
        signature=(
            "a, q, axis=None, out=None, overwrite_input=False, method='linear', "
            "keepdims=NoValue, *, weights=None"
        ),
        fast=Fast(
            _nanops.fast_nanquantile,
            "a, q, axis, method",
            at_defaults=("out", "keepdims", "weights"),
            when="type(q) is float or type(q) is list or type(q) is tuple",
            flag=GENERAL_PATH,  # all-NaN slices: the general path counts the warnings
        ),
        general=General(_order.quantile, False, True),
        doc="""
        q-th quantile(s) over the given axes, ignoring NaN.

        Same signature, methods, result shape (``q``'s shape first) and dtype,
        warnings and errors as :func:`numpy.nanquantile`.

        Differences from NumPy: ``weights`` are also accepted with
        ``method="averaged_inverted_cdf"``, and 1-d weights along one axis of an
        n-d array work (NumPy 2.4 raises ``IndexError`` there); results are
        native byte order even for byte-swapped input; ``overwrite_input`` never
        modifies the input.  Empty input, an invalid ``method`` and a few exotic
        ``q`` dtype combinations are handled by NumPy itself.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.nanquantile(np.array([1.0, np.nan, 3.0, 2.0]), [0.25, 0.5])
        array([1.5, 2. ])
        """,
    ),
    Row(
        name="nanpercentile",
        signature=(
            "a, q, axis=None, out=None, overwrite_input=False, method='linear', "
            "keepdims=NoValue, *, weights=None"
        ),
        general=General(_order.quantile, True, True),
        doc="""
        q-th percentile(s) over the given axes, ignoring NaN.

        As :func:`nanquantile` with ``q`` in [0, 100] (same as
        :func:`numpy.nanpercentile`).

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.nanpercentile(np.array([1.0, np.nan, 3.0, 2.0]), 50)
        np.float64(2.0)
        """,
    ),
    Row(
        name="median",
        signature="a, axis=None, out=None, overwrite_input=False, keepdims=False",
        general=General(_order.median, False),
        doc="""
        Median over the given axes; a slice containing NaN gives NaN.

        Same signature, result dtype and errors as :func:`numpy.median`; the mean
        of the two middle values is computed as NumPy does (``(lo + hi) / 2``,
        but without overflowing to inf for huge finite values).  Complex and
        empty inputs are handled by NumPy.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.median(np.array([[10.0, 7.0, 4.0], [3.0, 2.0, np.nan]]), axis=1)
        array([ 7., nan])
        """,
    ),
    Row(
        name="quantile",
        signature=(
            "a, q, axis=None, out=None, overwrite_input=False, method='linear', "
            "keepdims=False, *, weights=None"
        ),
        general=General(_order.quantile, False, False),
        doc="""
        q-th quantile(s) over the given axes; a slice containing NaN gives NaN.

        Same signature, methods, result shape and dtype and errors as
        :func:`numpy.quantile`; the differences listed for :func:`nanquantile`
        apply.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.quantile(np.arange(5.0), [0.25, 0.75])
        array([1., 3.])
        """,
    ),
    Row(
        name="percentile",
        signature=(
            "a, q, axis=None, out=None, overwrite_input=False, method='linear', "
            "keepdims=False, *, weights=None"
        ),
        general=General(_order.quantile, True, False),
        doc="""
        q-th percentile(s) over the given axes; a slice containing NaN gives NaN.

        As :func:`quantile` with ``q`` in [0, 100] (same as
        :func:`numpy.percentile`).

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.percentile(np.arange(5.0), 50)
        np.float64(2.0)
        """,
    ),
)
