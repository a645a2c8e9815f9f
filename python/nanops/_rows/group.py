"""The registry rows of the group-by reductions, numbagg's ``group_nan*``
call (see :mod:`nanops._registry`)."""

from __future__ import annotations

import inspect
from typing import Final

from .. import _group, _nanops
from .._generate import General, Row, UNSUPPORTED

__all__ = ["ROWS"]


#: The call shared by the ``group_*`` functions (numbagg's), put into each
#: docstring in place of its line ``GROUP CALL`` (:func:`_group_row`).
_GROUP_CALL: Final = """\
numbagg's call: ``labels`` are integers already factorised (any
integer dtype; negative labels are skipped) with the shape of
``values`` along ``axis`` (``None``: the same shape as ``values``; an
int or a tuple of ints: the grouped axes, ``labels`` with their
lengths in that order).  The result has the other axes of ``values``,
then one axis of ``num_labels`` groups (``None``: the largest label
plus one).  ``ValueError`` for a label at or above ``num_labels`` or
mis-shaped labels, ``TypeError`` for non-integer labels."""

#: The data of every ``group_*`` example, in place of its line ``GROUP EXAMPLE``.
_GROUP_EXAMPLE: Final = """\
>>> import numpy as np, nanops
>>> values = np.array([1.0, 4.0, np.nan, 2.0, 5.0])
>>> labels = np.array([0, 0, 1, 2, 0])"""

#: The call of most ``group_*`` functions.
_GROUP_SIGNATURE: Final = "values, labels, *, axis=None, num_labels=None"


def _group_row(
    name: str, doc: str, *, signature: str = _GROUP_SIGNATURE, general: General | None = None
) -> Row:
    """The row of ``name``: numbagg's call (``signature``), its primitive
    ``_nanops.<name>`` through :func:`nanops._group.group` unless ``general``
    says otherwise, no NumPy fallback, and ``doc`` with its lines ``GROUP
    CALL`` and ``GROUP EXAMPLE`` filled in."""
    text = inspect.cleandoc(doc)
    text = text.replace("GROUP CALL", _GROUP_CALL).replace("GROUP EXAMPLE", _GROUP_EXAMPLE)
    return Row(
        name=name,
        signature=signature,
        general=general or General(_group.group, getattr(_nanops, name)),
        fallback=UNSUPPORTED,  # NumPy has no group_* functions
        doc=text,
    )


#: The rows, in the order of ``nanops.__all__``.
ROWS: Final[tuple[Row, ...]] = (
    # --- group-by (numbagg's group_nan*) ----------------------------------
    _group_row(
        "group_nansum",
        """
        Sum of the non-NaN values of each group.

        GROUP CALL
        An empty group sums to 0; the dtype is :func:`nansum`'s.

        Examples
        --------
        GROUP EXAMPLE
        >>> nanops.group_nansum(values, labels)
        array([10.,  0.,  2.])
        """,
    ),
    _group_row(
        "group_nanprod",
        """
        Product of the non-NaN values of each group.

        GROUP CALL
        An empty group gives 1; the dtype is :func:`nanprod`'s.

        Examples
        --------
        GROUP EXAMPLE
        >>> nanops.group_nanprod(values, labels)
        array([20.,  1.,  2.])
        """,
    ),
    _group_row(
        "group_nanmean",
        """
        Mean of the non-NaN values of each group.

        GROUP CALL
        An empty or all-NaN group gives NaN (no warning, as numbagg); the
        dtype is :func:`nanmean`'s (integers give float64).

        Examples
        --------
        GROUP EXAMPLE
        >>> nanops.group_nanmean(values, labels)
        array([3.33333333,        nan, 2.        ])
        """,
    ),
    _group_row(
        "group_nanvar",
        """
        Variance of the non-NaN values of each group.

        GROUP CALL
        ``ddof=1`` by default (numbagg's and pandas'); NaN where a group has
        ``count - ddof <= 0`` values (no warning).  Complex values give a real
        result, integers float64.

        Examples
        --------
        GROUP EXAMPLE
        >>> nanops.group_nanvar(values, labels)
        array([4.33333333,        nan,        nan])
        """,
        signature="values, labels, *, axis=None, num_labels=None, ddof=1",
        general=General(_group.group_var, _nanops.group_nanvar, False),
    ),
    _group_row(
        "group_nanstd",
        """
        Standard deviation of the non-NaN values of each group.

        GROUP CALL
        ``ddof=1`` by default; NaN where ``count - ddof <= 0``.

        Examples
        --------
        GROUP EXAMPLE
        >>> nanops.group_nanstd(values, labels, ddof=0)
        array([1.69967317,        nan, 0.        ])
        """,
        signature="values, labels, *, axis=None, num_labels=None, ddof=1",
        general=General(_group.group_var, _nanops.group_nanvar, True),
    ),
    _group_row(
        "group_nanmin",
        """
        Minimum of the non-NaN values of each group.

        GROUP CALL
        An empty group gives NaN; for integer values it is a ``ValueError``
        (no NaN to give).

        Examples
        --------
        GROUP EXAMPLE
        >>> nanops.group_nanmin(values, labels)
        array([ 1., nan,  2.])
        """,
    ),
    _group_row(
        "group_nanmax",
        """
        Maximum of the non-NaN values of each group.

        GROUP CALL
        An empty group gives NaN; for integer values it is a ``ValueError``.

        Examples
        --------
        GROUP EXAMPLE
        >>> nanops.group_nanmax(values, labels)
        array([ 5., nan,  2.])
        """,
    ),
    _group_row(
        "group_nanargmin",
        """
        Position of the first minimum of each group.

        GROUP CALL
        The flat (C-order) index over the grouped axes, as float64 with NaN
        for an empty group (numbagg's result).

        Examples
        --------
        GROUP EXAMPLE
        >>> nanops.group_nanargmin(values, labels)
        array([ 0., nan,  3.])
        """,
    ),
    _group_row(
        "group_nanargmax",
        """
        Position of the first maximum of each group.

        GROUP CALL
        The flat (C-order) index over the grouped axes, as float64 with NaN
        for an empty group (numbagg's result).

        Examples
        --------
        GROUP EXAMPLE
        >>> nanops.group_nanargmax(values, labels)
        array([ 4., nan,  3.])
        """,
    ),
    _group_row(
        "group_nancount",
        """
        Number of non-NaN values of each group.

        GROUP CALL
        As int64 (numbagg gives the values' dtype).

        Examples
        --------
        GROUP EXAMPLE
        >>> nanops.group_nancount(values, labels)
        array([3, 0, 1])
        """,
    ),
    _group_row(
        "group_nanfirst",
        """
        First non-NaN value of each group (C order over the grouped axes).

        GROUP CALL
        An empty group gives NaN; for integer values it is a ``ValueError``.

        Examples
        --------
        GROUP EXAMPLE
        >>> nanops.group_nanfirst(values, labels)
        array([ 1., nan,  2.])
        """,
    ),
    _group_row(
        "group_nanlast",
        """
        Last non-NaN value of each group (C order over the grouped axes).

        GROUP CALL
        An empty group gives NaN; for integer values it is a ``ValueError``.

        Examples
        --------
        GROUP EXAMPLE
        >>> nanops.group_nanlast(values, labels)
        array([ 5., nan,  2.])
        """,
    ),
    _group_row(
        "group_nanany",
        """
        Whether any non-NaN value of each group is nonzero.

        GROUP CALL
        As bool (numbagg gives the values' dtype); an empty group gives
        False.

        Examples
        --------
        GROUP EXAMPLE
        >>> nanops.group_nanany(values, labels)
        array([ True, False,  True])
        """,
    ),
    _group_row(
        "group_nanall",
        """
        Whether every non-NaN value of each group is nonzero.

        GROUP CALL
        As bool (numbagg gives the values' dtype); an empty group gives
        True.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.group_nanall(np.array([1.0, 0.0, np.nan]), np.array([0, 0, 1]))
        array([False,  True])
        """,
    ),
    _group_row(
        "group_nansum_of_squares",
        """
        Sum of the squares of the non-NaN values of each group.

        GROUP CALL
        Real values only (complex: ``TypeError``); 0 for an empty group.

        Examples
        --------
        GROUP EXAMPLE
        >>> nanops.group_nansum_of_squares(values, labels)
        array([42.,  0.,  4.])
        """,
    ),
    _group_row(
        "group_nanskew",
        """
        Skewness of the non-NaN values of each group (:func:`nanskew`).

        GROUP CALL
        ``bias`` as :func:`scipy.stats.skew`; NaN for a group of fewer than
        two values.  Real values only.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.group_nanskew(np.array([1.0, 2.0, 10.0, 3.0]), np.array([0, 0, 0, 1]))
        array([0.67455548,        nan])
        """,
        signature="values, labels, *, axis=None, num_labels=None, bias=True",
    ),
    _group_row(
        "group_nankurt",
        """
        Kurtosis of the non-NaN values of each group (:func:`nankurt`).

        GROUP CALL
        ``bias`` and ``fisher`` as :func:`scipy.stats.kurtosis`; NaN for a
        group of fewer than two values.  Real values only.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.group_nankurt(np.array([1.0, 2.0, 3.0, 4.0]), np.array([0, 0, 0, 0]))
        array([-1.36])
        """,
        signature="values, labels, *, axis=None, num_labels=None, bias=True, fisher=True",
    ),
    _group_row(
        "group_nanmedian",
        """
        Median of the non-NaN values of each group.

        GROUP CALL
        An empty or all-NaN group gives NaN (no warning); the dtype is
        :func:`nanmedian`'s (integers give float64).  Each group's median is
        selected, never sorted, after one counting sort of the values by
        label.  Real values only.

        Examples
        --------
        GROUP EXAMPLE
        >>> nanops.group_nanmedian(values, labels)
        array([ 4., nan,  2.])
        """,
    ),
    _group_row(
        "group_nanquantile",
        """
        Quantiles of the non-NaN values of each group.

        GROUP CALL
        ``q`` (in [0, 1]) of any shape is prepended to the result's shape, as
        :func:`nanquantile`; ``method`` is one of NumPy's 13 methods;
        ``weights`` (non-negative) have the labels' or the values' shape and
        need ``method='inverted_cdf'`` or ``'averaged_inverted_cdf'``.  The
        result has the values' float dtype (float32 stays float32, integers
        give float64: NumPy's dtype for a Python-float ``q``).  An empty
        group gives NaN.  Real values only.

        Examples
        --------
        GROUP EXAMPLE
        >>> nanops.group_nanquantile(values, labels, [0.5, 1.0])
        array([[ 4., nan,  2.],
               [ 5., nan,  2.]])
        """,
        signature=(
            "values, labels, q, *, axis=None, num_labels=None, method='linear', weights=None"
        ),
        general=General(_group.group_quantile, _nanops.group_nanquantile),
    ),
)
