"""The public functions of nanops, one row each; their order is ``__all__``.

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
Add its row here, at the place it should take in ``__all__``, and its
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

import inspect
from collections.abc import Callable
from typing import Any, Final

import numpy as np

from . import _extrema, _group, _moments, _moving, _nanops, _order, _sums
from ._args import MSG_ALL_NAN, MSG_DOF, MSG_EMPTY_MEAN
from ._generate import GENERAL_PATH, UNSUPPORTED, Fast, General, Row, Warn, build

__all__ = ["ROWS", "FUNCTIONS"]


#: The call shared by the ``group_*`` functions (numbagg's), put into each
#: docstring in place of its line ``GROUP CALL`` (:func:`_group_doc`).
_GROUP_CALL: Final = """\
numbagg's call: ``labels`` are integers already factorised (any
integer dtype; negative labels are skipped) with the shape of
``values`` along ``axis`` (``None``: the same shape as ``values``; an
int or a tuple of ints: the grouped axes, ``labels`` with their
lengths in that order).  The result has the other axes of ``values``,
then one axis of ``num_labels`` groups (``None``: the largest label
plus one).  ``ValueError`` for a label at or above ``num_labels`` or
mis-shaped labels, ``TypeError`` for non-integer labels."""


def _group_doc(doc: str) -> str:
    """``doc`` (cleaned of its indentation) with its line ``GROUP CALL``
    replaced by :data:`_GROUP_CALL`."""
    return inspect.cleandoc(doc).replace("GROUP CALL", _GROUP_CALL)


ROWS: Final[tuple[Row, ...]] = (
    # --- sum / prod ----------------------------------------------------------
    Row(
        name="nansum",
        signature=(
            "a, axis=None, dtype=None, out=None, keepdims=NoValue, initial=NoValue, "
            "where=NoValue"
        ),
        fast=Fast(
            _nanops.fast_nansum,
            "a, axis",
            at_defaults=("dtype", "out", "keepdims", "initial", "where"),
        ),
        general=General(_sums.sum_prod, _nanops.nansum, np.add),
        doc="""
        Sum of array elements over the given axes, treating NaN as zero.

        Same signature, result dtype and semantics as :func:`numpy.nansum`.
        Floats accumulate in higher precision (float16 in float32, float32 in
        float64, float64 compensated), so results can be more accurate than
        NumPy's.  ``dtype=``/``out=`` of a wider inexact type cast the input first
        (a copy).

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.nansum(np.array([[1.0, np.nan], [2.0, 3.0]]), axis=0)
        array([3., 3.])
        """,
    ),
    Row(
        name="nanprod",
        signature=(
            "a, axis=None, dtype=None, out=None, keepdims=NoValue, initial=NoValue, "
            "where=NoValue"
        ),
        fast=Fast(
            _nanops.fast_nanprod,
            "a, axis",
            at_defaults=("dtype", "out", "keepdims", "initial", "where"),
        ),
        general=General(_sums.sum_prod, _nanops.nanprod, np.multiply),
        doc="""
        Product of array elements over the given axes, treating NaN as one.

        Same signature, result dtype and semantics as :func:`numpy.nanprod`
        (floats accumulate in higher precision, see :func:`nansum`).

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.nanprod(np.array([[1.0, np.nan], [2.0, 3.0]]), axis=1)
        array([1., 6.])
        """,
    ),
    # --- mean / var / std ----------------------------------------------------
    Row(
        name="nanmean",
        signature=(
            "a, axis=None, dtype=None, out=None, keepdims=NoValue, *, where=NoValue"
        ),
        fast=Fast(
            _nanops.fast_nanmean,
            "a, axis",
            at_defaults=("dtype", "out", "keepdims", "where"),
            flag=Warn(MSG_EMPTY_MEAN),
        ),
        general=General(_moments.mean),
        doc="""
        Arithmetic mean over the given axes, ignoring NaN.

        Same signature, result dtype, warning (``RuntimeWarning: Mean of empty
        slice``) and errors as :func:`numpy.nanmean`.  The sum accumulates in
        higher precision than NumPy's (see :func:`nansum`).  With ``dtype=`` (or
        ``out=``) of an integer-input float type narrower than float64, the mean is
        computed in float64 and rounded once.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.nanmean(np.array([[1.0, np.nan], [3.0, 4.0]]))
        np.float64(2.6666666666666665)
        """,
    ),
    Row(
        name="nanvar",
        signature=(
            "a, axis=None, dtype=None, out=None, ddof=0, keepdims=NoValue, *, "
            "where=NoValue, mean=NoValue, correction=NoValue"
        ),
        fast=Fast(
            _nanops.fast_nanvar,
            "a, axis, float(ddof), False",
            at_defaults=("dtype", "out", "keepdims", "where", "mean", "correction"),
            when="type(ddof) is int or type(ddof) is float",
            flag=Warn(MSG_DOF, when="ddof == ddof"),  # a NaN ddof: NaN, no warning
        ),
        general=General(_moments.var, False),
        doc="""
        Variance over the given axes, ignoring NaN.

        Same signature, result dtype (real for complex input), warning
        (``RuntimeWarning: Degrees of freedom <= 0 for slice.``) and errors as
        :func:`numpy.nanvar`.  Computed in one pass with Chan's merge of
        two-pass blocks, in higher precision for float16/float32.

        Differences from NumPy: with ``dtype=``/``out=`` more precise than the
        input, everything is computed in that precision (the input is cast, a
        copy); NumPy still rounds the deviations to the input's dtype.
        ``mean=`` is handled with NumPy operations (one copy of the input).

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.nanvar(np.array([[1.0, np.nan], [3.0, 4.0]]), axis=0)
        array([1., 0.])
        """,
    ),
    Row(
        name="nanstd",
        signature=(
            "a, axis=None, dtype=None, out=None, ddof=0, keepdims=NoValue, *, "
            "where=NoValue, mean=NoValue, correction=NoValue"
        ),
        fast=Fast(
            _nanops.fast_nanvar,
            "a, axis, float(ddof), True",
            at_defaults=("dtype", "out", "keepdims", "where", "mean", "correction"),
            when="type(ddof) is int or type(ddof) is float",
            flag=Warn(MSG_DOF, when="ddof == ddof"),
        ),
        general=General(_moments.var, True),
        doc="""
        Standard deviation over the given axes, ignoring NaN.

        Same signature, result dtype, warning and errors as :func:`numpy.nanstd`
        (see :func:`nanvar`); ``nanstd(a)`` equals ``np.sqrt(nanvar(a))`` exactly.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.nanstd(np.array([[1.0, np.nan], [3.0, 4.0]]), axis=1)
        array([0. , 0.5])
        """,
    ),
    # --- skewness / kurtosis (not in NumPy) -----------------------------------
    Row(
        name="nanskew",
        signature=(
            "a, axis=None, dtype=None, out=None, keepdims=NoValue, *, "
            "where=NoValue, bias=True"
        ),
        general=General(_moments.moment, _nanops.nanskew),
        fallback=UNSUPPORTED,
        doc="""
        Sample skewness over the given axes, ignoring NaN (not in NumPy).

        The values of ``scipy.stats.skew(a, axis, bias=bias, nan_policy="omit")``:
        the Fisher-Pearson coefficient ``g1 = m3 / m2**1.5`` of the biased central
        moments ``m_k = sum((x - mean)**k) / n`` over the ``n`` non-NaN values, or
        with ``bias=False`` the adjusted ``G1 = g1 * sqrt(n*(n-1)) / (n-2)`` (for
        ``n > 2``; scipy keeps ``g1`` below).  ``axis``, ``dtype``, ``out``,
        ``keepdims`` and ``where`` as :func:`nanvar` (``axis=None`` reduces
        everything, as NumPy); the result dtype is :func:`nanvar`'s (float64 for
        integers and bool; float16 and float32 kept, computed in float32 and
        float64).  One pass, accurate at any offset (``1e8 + x`` loses no digits).

        NaN where ``m2 <= (eps * mean)**2``, ``eps`` the machine epsilon of the
        result dtype: scipy's rule for slices whose values are all equal or too
        close to equal; and for slices of fewer than two values, with
        ``RuntimeWarning: Degrees of freedom <= 0 for slice.``  Complex input
        raises ``TypeError`` (scipy's complex skewness has no meaning), and so do
        inputs the compiled path does not take (subclasses such as masked arrays,
        object dtype; convert them first): NumPy has no such function to hand
        them to.  ``bias`` must be a bool.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.nanskew(np.array([[2.0, 8, 0, 4, 1, 9, 9, 0], [1, 2, 3, np.nan, 4, 5, 6, 7]]), axis=1)
        array([0.26505541, 0.        ])
        """,
    ),
    Row(
        name="nankurt",
        signature=(
            "a, axis=None, dtype=None, out=None, keepdims=NoValue, *, "
            "where=NoValue, bias=True, fisher=True"
        ),
        general=General(_moments.moment, _nanops.nankurt),
        fallback=UNSUPPORTED,
        doc="""
        Sample kurtosis over the given axes, ignoring NaN (not in NumPy).

        The values of ``scipy.stats.kurtosis(a, axis, fisher=fisher, bias=bias,
        nan_policy="omit")``: ``g2 = m4 / m2**2`` (moments as in :func:`nanskew`),
        or with ``bias=False`` the k-statistic estimate
        ``G2 = ((n+1)*g2 - 3*(n-1)) * (n-1) / ((n-2)*(n-3)) + 3`` (for ``n > 3``;
        scipy keeps ``g2`` below); ``fisher=True`` subtracts 3 (excess kurtosis,
        0 for a normal distribution).  Arguments (``bias`` and ``fisher`` bools),
        result dtype, NaN, warnings and errors as :func:`nanskew`.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.nankurt(np.array([1.0, 2.0, np.nan, 3.0, 6.0]))
        np.float64(-1.0)
        >>> nanops.nankurt(np.array([1.0, 2.0, np.nan, 3.0, 6.0]), fisher=False)
        np.float64(2.0)
        """,
    ),
    # --- min / max / argmin / argmax -----------------------------------------
    Row(
        name="nanmin",
        signature=(
            "a, axis=None, out=None, keepdims=NoValue, initial=NoValue, where=NoValue"
        ),
        fast=Fast(
            _nanops.fast_nanextremum,
            "a, axis, False",
            at_defaults=("out", "keepdims", "initial", "where"),
            flag=Warn(MSG_ALL_NAN),
        ),
        general=General(_extrema.extremum, _nanops.nanmin, np.fmin),
        doc="""
        Minimum over the given axes, ignoring NaN.

        Same signature, result dtype, warning (``RuntimeWarning: All-NaN slice
        encountered``, result NaN) and errors as :func:`numpy.nanmin`.  Complex
        values order lexicographically, as in NumPy.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.nanmin(np.array([[1.0, np.nan], [3.0, 4.0]]), axis=0)
        array([1., 4.])
        """,
    ),
    Row(
        name="nanmax",
        signature=(
            "a, axis=None, out=None, keepdims=NoValue, initial=NoValue, where=NoValue"
        ),
        fast=Fast(
            _nanops.fast_nanextremum,
            "a, axis, True",
            at_defaults=("out", "keepdims", "initial", "where"),
            flag=Warn(MSG_ALL_NAN),
        ),
        general=General(_extrema.extremum, _nanops.nanmax, np.fmax),
        doc="""
        Maximum over the given axes, ignoring NaN.

        Same signature, result dtype, warning and errors as
        :func:`numpy.nanmax` (see :func:`nanmin`).

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.nanmax(np.array([[1.0, np.nan], [3.0, 4.0]]), axis=1)
        array([1., 4.])
        """,
    ),
    Row(
        name="nanargmin",
        signature="a, axis=None, out=None, *, keepdims=NoValue",
        fast=Fast(
            _nanops.fast_nanarg, "a, axis, False", at_defaults=("out", "keepdims")
        ),
        general=General(_extrema.arg_extremum, _nanops.nanargmin),
        doc="""
        Index of the minimum over an axis, ignoring NaN.

        Same signature and errors as :func:`numpy.nanargmin`:
        ``ValueError("All-NaN slice encountered")`` for an all-NaN slice.

        Differences from NumPy: the index never points at a NaN.  NumPy
        replaces NaN with +inf, so for a slice like ``[nan, inf]`` it returns 0
        (the NaN's index); nanops returns 1.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.nanargmin(np.array([[np.nan, 4.0], [2.0, 3.0]]), axis=0)
        array([1, 1])
        """,
    ),
    Row(
        name="nanargmax",
        signature="a, axis=None, out=None, *, keepdims=NoValue",
        fast=Fast(
            _nanops.fast_nanarg, "a, axis, True", at_defaults=("out", "keepdims")
        ),
        general=General(_extrema.arg_extremum, _nanops.nanargmax),
        doc="""
        Index of the maximum over an axis, ignoring NaN.

        Same signature and errors as :func:`numpy.nanargmax` (see
        :func:`nanargmin`; for ``[nan, -inf]`` nanops returns 1, NumPy 0).

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.nanargmax(np.array([[np.nan, 4.0], [5.0, 3.0]]), axis=1)
        array([1, 0])
        """,
    ),
    # --- cumulative ----------------------------------------------------------
    Row(
        name="nancumsum",
        signature="a, axis=None, dtype=None, out=None",
        general=General(_sums.cumulative, _nanops.nancumsum),
        doc="""
        Cumulative sum along an axis, treating NaN as zero.

        Same signature, result dtype and semantics as :func:`numpy.nancumsum`
        (``axis=None`` works on the flattened array).

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.nancumsum(np.array([1.0, np.nan, 2.0]))
        array([1., 1., 3.])
        """,
    ),
    Row(
        name="nancumprod",
        signature="a, axis=None, dtype=None, out=None",
        general=General(_sums.cumulative, _nanops.nancumprod),
        doc="""
        Cumulative product along an axis, treating NaN as one.

        Same signature, result dtype and semantics as :func:`numpy.nancumprod`.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.nancumprod(np.array([2.0, np.nan, 3.0]))
        array([2., 2., 6.])
        """,
    ),
    # --- count (not in NumPy) ------------------------------------------------
    Row(
        name="nancount",
        signature="a, axis=None, keepdims=False",
        general=General(_sums.count),
        fallback=_sums.count_fallback,
        doc="""
        Number of non-NaN elements over the given axes (not in NumPy).

        ``axis`` is None, an int or a tuple of ints (as for :func:`nansum`); the
        result is ``np.intp``.  Integers and bools are never NaN.  Inputs the
        compiled kernels do not support (subclasses, object, datetime, long
        double) are counted with NumPy operations (NaT counts as missing).

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.nancount(np.array([[1.0, np.nan], [3.0, 4.0]]), axis=1)
        array([1, 2])
        """,
    ),
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
    # --- moving windows (not in NumPy) ---------------------------------------
    Row(
        name="move_sum",
        signature="a, window, min_count=None, axis=-1",
        general=General(_moving.moving, _nanops.move_sum),
        fallback=UNSUPPORTED,  # NumPy has no move_sum
        doc="""
        Moving-window sum along an axis, ignoring NaN.

        Bottleneck's ``move_sum`` call (positional or keyword), pandas'
        ``rolling(window, min_periods=min_count).sum()``: at each position,
        over the last ``window`` values along ``axis`` (fewer at the start),
        NaN skipped; NaN where fewer than ``min_count`` values are not NaN
        (``None``: the whole window).  Any ndim, axis and layout; float32
        stays float32, float16 float16, integers and bool give float64
        (computed in float64, rounded once).  ``ValueError`` for a window
        outside ``1..a.shape[axis]`` or a ``min_count`` outside
        ``1..window``, bottleneck's messages.
        Running sums are compensated and rebuilt from the window every
        ``max(2 * window, 1024)`` positions, so they do not drift; an infinity
        leaving the window leaves no NaN behind.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.move_sum(np.array([1.0, 2.0, np.nan, 4.0]), 2, min_count=1)
        array([1., 3., 2., 4.])
        """,
    ),
    Row(
        name="move_mean",
        signature="a, window, min_count=None, axis=-1",
        general=General(_moving.moving, _nanops.move_mean),
        fallback=UNSUPPORTED,  # NumPy has no move_mean
        doc="""
        Moving-window mean along an axis, ignoring NaN.

        Bottleneck's ``move_mean`` call (positional or keyword), pandas'
        ``rolling(window, min_periods=min_count).mean()``: at each position,
        over the last ``window`` values along ``axis`` (fewer at the start),
        NaN skipped; NaN where fewer than ``min_count`` values are not NaN
        (``None``: the whole window).  Any ndim, axis and layout; float32
        stays float32, float16 float16, integers and bool give float64
        (computed in float64, rounded once).  ``ValueError`` for a window
        outside ``1..a.shape[axis]`` or a ``min_count`` outside
        ``1..window``, bottleneck's messages.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.move_mean(np.array([1.0, 2.0, np.nan, 4.0]), 2)
        array([nan, 1.5, nan, nan])
        """,
    ),
    Row(
        name="move_var",
        signature="a, window, min_count=None, axis=-1, ddof=0",
        general=General(_moving.moving_ddof, _nanops.move_var),
        fallback=UNSUPPORTED,  # NumPy has no move_var
        doc="""
        Moving-window variance along an axis, ignoring NaN.

        Bottleneck's ``move_var`` call (positional or keyword), pandas'
        ``rolling(window, min_periods=min_count).var()``: at each position,
        over the last ``window`` values along ``axis`` (fewer at the start),
        NaN skipped; NaN where fewer than ``min_count`` values are not NaN
        (``None``: the whole window).  Any ndim, axis and layout; float32
        stays float32, float16 float16, integers and bool give float64
        (computed in float64, rounded once).  ``ValueError`` for a window
        outside ``1..a.shape[axis]`` or a ``min_count`` outside
        ``1..window``, bottleneck's messages.
        ``ddof`` as NumPy's (bottleneck's default 0; pandas' is 1).  NaN
        where ``count - ddof <= 0`` (bottleneck gives inf at ``count ==
        ddof``) or where the window holds an infinity.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.move_var(np.array([1.0, 3.0, 5.0]), 2)
        array([nan,  1.,  1.])
        """,
    ),
    Row(
        name="move_std",
        signature="a, window, min_count=None, axis=-1, ddof=0",
        general=General(_moving.moving_ddof, _nanops.move_std),
        fallback=UNSUPPORTED,  # NumPy has no move_std
        doc="""
        Moving-window standard deviation along an axis, ignoring NaN.

        Bottleneck's ``move_std`` call (positional or keyword), pandas'
        ``rolling(window, min_periods=min_count).std()``: at each position,
        over the last ``window`` values along ``axis`` (fewer at the start),
        NaN skipped; NaN where fewer than ``min_count`` values are not NaN
        (``None``: the whole window).  Any ndim, axis and layout; float32
        stays float32, float16 float16, integers and bool give float64
        (computed in float64, rounded once).  ``ValueError`` for a window
        outside ``1..a.shape[axis]`` or a ``min_count`` outside
        ``1..window``, bottleneck's messages.
        The square root of :func:`move_var`.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.move_std(np.array([1.0, 3.0, 5.0]), 2)
        array([nan,  1.,  1.])
        """,
    ),
    Row(
        name="move_min",
        signature="a, window, min_count=None, axis=-1",
        general=General(_moving.moving, _nanops.move_min),
        fallback=UNSUPPORTED,  # NumPy has no move_min
        doc="""
        Moving-window minimum along an axis, ignoring NaN.

        Bottleneck's ``move_min`` call (positional or keyword), pandas'
        ``rolling(window, min_periods=min_count).min()``: at each position,
        over the last ``window`` values along ``axis`` (fewer at the start),
        NaN skipped; NaN where fewer than ``min_count`` values are not NaN
        (``None``: the whole window).  Any ndim, axis and layout; float32
        stays float32, float16 float16, integers and bool give float64
        (computed in float64, rounded once).  ``ValueError`` for a window
        outside ``1..a.shape[axis]`` or a ``min_count`` outside
        ``1..window``, bottleneck's messages.
        Amortised O(1) per step (a monotonic deque).

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.move_min(np.array([3.0, 1.0, np.nan, 2.0]), 2, min_count=1)
        array([3., 1., 1., 2.])
        """,
    ),
    Row(
        name="move_max",
        signature="a, window, min_count=None, axis=-1",
        general=General(_moving.moving, _nanops.move_max),
        fallback=UNSUPPORTED,  # NumPy has no move_max
        doc="""
        Moving-window maximum along an axis, ignoring NaN.

        Bottleneck's ``move_max`` call (positional or keyword), pandas'
        ``rolling(window, min_periods=min_count).max()``: at each position,
        over the last ``window`` values along ``axis`` (fewer at the start),
        NaN skipped; NaN where fewer than ``min_count`` values are not NaN
        (``None``: the whole window).  Any ndim, axis and layout; float32
        stays float32, float16 float16, integers and bool give float64
        (computed in float64, rounded once).  ``ValueError`` for a window
        outside ``1..a.shape[axis]`` or a ``min_count`` outside
        ``1..window``, bottleneck's messages.
        Amortised O(1) per step (a monotonic deque).

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.move_max(np.array([3.0, 1.0, np.nan, 2.0]), 2, min_count=1)
        array([3., 3., 1., 2.])
        """,
    ),
    Row(
        name="move_argmin",
        signature="a, window, min_count=None, axis=-1",
        general=General(_moving.moving, _nanops.move_argmin),
        fallback=UNSUPPORTED,  # NumPy has no move_argmin
        doc="""
        Moving-window position of the minimum, ignoring NaN.

        Bottleneck's ``move_argmin`` call (positional or keyword), pandas'
        ``rolling(window, min_periods=min_count).apply(np.argmin)()``: at each position,
        over the last ``window`` values along ``axis`` (fewer at the start),
        NaN skipped; NaN where fewer than ``min_count`` values are not NaN
        (``None``: the whole window).  Any ndim, axis and layout; float32
        stays float32, float16 float16, integers and bool give float64
        (computed in float64, rounded once).  ``ValueError`` for a window
        outside ``1..a.shape[axis]`` or a ``min_count`` outside
        ``1..window``, bottleneck's messages.
        Counted as bottleneck counts it: back from the window's last
        position (0 is the newest value, ``window - 1`` the oldest); of equal
        minima the newest.  A float array (NaN where there are too few
        values).

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.move_argmin(np.array([1.0, 3.0, 1.0, 2.0]), 3)
        array([nan, nan,  0.,  1.])
        """,
    ),
    Row(
        name="move_argmax",
        signature="a, window, min_count=None, axis=-1",
        general=General(_moving.moving, _nanops.move_argmax),
        fallback=UNSUPPORTED,  # NumPy has no move_argmax
        doc="""
        Moving-window position of the maximum, ignoring NaN.

        Bottleneck's ``move_argmax`` call (positional or keyword), pandas'
        ``rolling(window, min_periods=min_count).apply(np.argmax)()``: at each position,
        over the last ``window`` values along ``axis`` (fewer at the start),
        NaN skipped; NaN where fewer than ``min_count`` values are not NaN
        (``None``: the whole window).  Any ndim, axis and layout; float32
        stays float32, float16 float16, integers and bool give float64
        (computed in float64, rounded once).  ``ValueError`` for a window
        outside ``1..a.shape[axis]`` or a ``min_count`` outside
        ``1..window``, bottleneck's messages.
        Counted as :func:`move_argmin`'s.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.move_argmax(np.array([1.0, 3.0, 3.0, 2.0]), 3)
        array([nan, nan,  0.,  1.])
        """,
    ),
    Row(
        name="move_count",
        signature="a, window, min_count=None, axis=-1",
        general=General(_moving.moving, _nanops.move_count),
        fallback=UNSUPPORTED,  # NumPy has no move_count
        doc="""
        Moving-window count of the non-NaN values along an axis.

        Bottleneck's call of its ``move_*`` functions (positional or keyword;
        bottleneck has no ``move_count``): at each position,
        over the last ``window`` values along ``axis`` (fewer at the start),
        NaN skipped; NaN where fewer than ``min_count`` values are not NaN
        (``None``: the whole window).  Any ndim, axis and layout; float32
        stays float32, float16 float16, integers and bool give float64
        (computed in float64, rounded once).  ``ValueError`` for a window
        outside ``1..a.shape[axis]`` or a ``min_count`` outside
        ``1..window``, bottleneck's messages.
        pandas' ``rolling(window, min_periods=min_count).count()`` differs: it
        gives NaN only where the window has fewer than ``min_periods``
        positions (0 for an all-NaN window).

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.move_count(np.array([1.0, np.nan, 2.0]), 2, min_count=1)
        array([1., 1., 1.])
        """,
    ),
    Row(
        name="move_median",
        signature="a, window, min_count=None, axis=-1",
        general=General(_moving.moving, _nanops.move_median),
        fallback=UNSUPPORTED,  # NumPy has no move_median
        doc="""
        Moving-window median along an axis, ignoring NaN.

        Bottleneck's ``move_median`` call (positional or keyword), pandas'
        ``rolling(window, min_periods=min_count).median()``: at each position,
        :func:`nanmedian` of the last ``window`` values along ``axis`` (fewer
        at the start); NaN where fewer than ``min_count`` values are not NaN
        (``None``: the whole window).  Any ndim, axis and layout; float32
        stays float32, float16 float16, integers and bool give float64.
        ``ValueError`` for a window outside ``1..a.shape[axis]`` or a
        ``min_count`` outside ``1..window``, bottleneck's messages.
        The window's values are kept sorted: O(log window) comparisons and
        one shift per step.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.move_median(np.array([1.0, 9.0, np.nan, 4.0, 2.0]), 3, min_count=1)
        array([1. , 5. , 5. , 6.5, 3. ])
        """,
    ),
    Row(
        name="move_quantile",
        signature="a, window, q, min_count=None, axis=-1, method='linear'",
        general=General(_moving.moving_quantile),
        fallback=UNSUPPORTED,  # NumPy has no move_quantile
        doc="""
        Moving-window quantile along an axis, ignoring NaN, any of NumPy's
        13 methods.

        At each position, :func:`nanquantile` of the last ``window`` values
        along ``axis`` (fewer at the start) with ``q`` a Python float, bit
        for bit; NaN where fewer than ``min_count`` values are not NaN
        (``None``: the whole window).  ``q`` is a scalar or 1-d, in
        ``[0, 1]``; a 1-d ``q`` prepends its length to the result's shape,
        as :func:`nanquantile`.  pandas' ``rolling(window,
        min_periods=min_count).quantile(q, interpolation)`` for the methods
        it has (``linear``, ``lower``, ``higher``, ``nearest``,
        ``midpoint``).  Any ndim, axis and layout; float32 stays float32
        (also for a ``q`` array, where :func:`nanquantile` gives float64),
        float16 float16, integers and bool give float64.  ``ValueError``
        for a bad window, ``min_count``, ``q`` or method.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.move_quantile(np.array([1.0, 2.0, 4.0, 8.0]), 3, 0.25)
        array([nan, nan, 1.5, 3. ])
        >>> nanops.move_quantile(np.array([1.0, 2.0, 4.0]), 2, [0.0, 1.0], method="lower")
        array([[nan,  1.,  2.],
               [nan,  2.,  4.]])
        """,
    ),
    Row(
        name="move_rank",
        signature="a, window, min_count=None, axis=-1",
        general=General(_moving.moving, _nanops.move_rank),
        fallback=UNSUPPORTED,  # NumPy has no move_rank
        doc="""
        Moving-window rank of each value among the window's non-NaN values.

        Bottleneck's ``move_rank`` call and definition: with ``less`` values
        of the window below the position's value and ``equal`` equal to it
        (itself included) among ``n`` non-NaN values, ``2 * (0.5 * (2 * less
        + equal - 1) / (n - 1) - 0.5)``, in ``[-1, 1]`` (-1: the least, 1:
        the greatest); 0 where ``n == 1``, NaN where the value is NaN or
        ``n < min_count`` (``None``: the whole window).  Any ndim, axis and
        layout; float32 stays float32 (bottleneck gives float64), float16
        float16, integers and bool give float64.  O(log window) per step.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.move_rank(np.array([3.0, 1.0, 2.0, 2.0]), 3, min_count=1)
        array([ 0. , -1. ,  0. ,  0.5])
        """,
    ),
    Row(
        name="ffill",
        signature="a, *, limit=None, axis=-1",
        general=General(_moving.fill, False),
        fallback=UNSUPPORTED,  # NumPy has no ffill
        doc="""
        Forward fill: each NaN replaced by the last non-NaN value before it.

        Along ``axis``, at most ``limit`` positions away (``None``: any
        distance), as pandas' ``ffill(limit=)``; ``limit`` must be positive.
        The input's dtype (integers and bool are copied).

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.ffill(np.array([np.nan, 1.0, np.nan, np.nan]), limit=1)
        array([nan,  1.,  1., nan])
        """,
    ),
    Row(
        name="bfill",
        signature="a, *, limit=None, axis=-1",
        general=General(_moving.fill, True),
        fallback=UNSUPPORTED,  # NumPy has no bfill
        doc="""
        Backward fill: each NaN replaced by the first non-NaN value after it.

        See :func:`ffill`.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.bfill(np.array([np.nan, np.nan, 2.0]))
        array([2., 2., 2.])
        """,
    ),
    Row(
        name="push",
        signature="a, n=None, axis=-1",
        general=General(_moving.push),
        fallback=UNSUPPORTED,  # NumPy has no push
        doc="""
        Bottleneck's ``push``: forward fill of at most ``n`` positions.

        :func:`ffill` with bottleneck's call and checks (``n`` is ``None``
        or non-negative; 0 fills nothing).

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.push(np.array([1.0, np.nan, np.nan]), 1)
        array([ 1.,  1., nan])
        """,
    ),
    # --- group-by (numbagg's group_nan*) ----------------------------------
    Row(
        name="group_nansum",
        signature="values, labels, *, axis=None, num_labels=None",
        general=General(_group.group, _nanops.group_nansum),
        fallback=UNSUPPORTED,  # NumPy has no group_nansum
        doc=_group_doc("""
        Sum of the non-NaN values of each group.

        GROUP CALL
        An empty group sums to 0; the dtype is :func:`nansum`'s.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> values = np.array([1.0, 4.0, np.nan, 2.0, 5.0])
        >>> labels = np.array([0, 0, 1, 2, 0])
        >>> nanops.group_nansum(values, labels)
        array([10.,  0.,  2.])
        """),
    ),
    Row(
        name="group_nanprod",
        signature="values, labels, *, axis=None, num_labels=None",
        general=General(_group.group, _nanops.group_nanprod),
        fallback=UNSUPPORTED,  # NumPy has no group_nanprod
        doc=_group_doc("""
        Product of the non-NaN values of each group.

        GROUP CALL
        An empty group gives 1; the dtype is :func:`nanprod`'s.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> values = np.array([1.0, 4.0, np.nan, 2.0, 5.0])
        >>> labels = np.array([0, 0, 1, 2, 0])
        >>> nanops.group_nanprod(values, labels)
        array([20.,  1.,  2.])
        """),
    ),
    Row(
        name="group_nanmean",
        signature="values, labels, *, axis=None, num_labels=None",
        general=General(_group.group, _nanops.group_nanmean),
        fallback=UNSUPPORTED,  # NumPy has no group_nanmean
        doc=_group_doc("""
        Mean of the non-NaN values of each group.

        GROUP CALL
        An empty or all-NaN group gives NaN (no warning, as numbagg); the
        dtype is :func:`nanmean`'s (integers give float64).

        Examples
        --------
        >>> import numpy as np, nanops
        >>> values = np.array([1.0, 4.0, np.nan, 2.0, 5.0])
        >>> labels = np.array([0, 0, 1, 2, 0])
        >>> nanops.group_nanmean(values, labels)
        array([3.33333333,        nan, 2.        ])
        """),
    ),
    Row(
        name="group_nanvar",
        signature="values, labels, *, axis=None, num_labels=None, ddof=1",
        general=General(_group.group_var, _nanops.group_nanvar, False),
        fallback=UNSUPPORTED,  # NumPy has no group_nanvar
        doc=_group_doc("""
        Variance of the non-NaN values of each group.

        GROUP CALL
        ``ddof=1`` by default (numbagg's and pandas'); NaN where a group has
        ``count - ddof <= 0`` values (no warning).  Complex values give a real
        result, integers float64.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> values = np.array([1.0, 4.0, np.nan, 2.0, 5.0])
        >>> labels = np.array([0, 0, 1, 2, 0])
        >>> nanops.group_nanvar(values, labels)
        array([4.33333333,        nan,        nan])
        """),
    ),
    Row(
        name="group_nanstd",
        signature="values, labels, *, axis=None, num_labels=None, ddof=1",
        general=General(_group.group_var, _nanops.group_nanvar, True),
        fallback=UNSUPPORTED,  # NumPy has no group_nanstd
        doc=_group_doc("""
        Standard deviation of the non-NaN values of each group.

        GROUP CALL
        ``ddof=1`` by default; NaN where ``count - ddof <= 0``.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> values = np.array([1.0, 4.0, np.nan, 2.0, 5.0])
        >>> labels = np.array([0, 0, 1, 2, 0])
        >>> nanops.group_nanstd(values, labels, ddof=0)
        array([1.69967317,        nan, 0.        ])
        """),
    ),
    Row(
        name="group_nanmin",
        signature="values, labels, *, axis=None, num_labels=None",
        general=General(_group.group, _nanops.group_nanmin),
        fallback=UNSUPPORTED,  # NumPy has no group_nanmin
        doc=_group_doc("""
        Minimum of the non-NaN values of each group.

        GROUP CALL
        An empty group gives NaN; for integer values it is a ``ValueError``
        (no NaN to give).

        Examples
        --------
        >>> import numpy as np, nanops
        >>> values = np.array([1.0, 4.0, np.nan, 2.0, 5.0])
        >>> labels = np.array([0, 0, 1, 2, 0])
        >>> nanops.group_nanmin(values, labels)
        array([ 1., nan,  2.])
        """),
    ),
    Row(
        name="group_nanmax",
        signature="values, labels, *, axis=None, num_labels=None",
        general=General(_group.group, _nanops.group_nanmax),
        fallback=UNSUPPORTED,  # NumPy has no group_nanmax
        doc=_group_doc("""
        Maximum of the non-NaN values of each group.

        GROUP CALL
        An empty group gives NaN; for integer values it is a ``ValueError``.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> values = np.array([1.0, 4.0, np.nan, 2.0, 5.0])
        >>> labels = np.array([0, 0, 1, 2, 0])
        >>> nanops.group_nanmax(values, labels)
        array([ 5., nan,  2.])
        """),
    ),
    Row(
        name="group_nanargmin",
        signature="values, labels, *, axis=None, num_labels=None",
        general=General(_group.group, _nanops.group_nanargmin),
        fallback=UNSUPPORTED,  # NumPy has no group_nanargmin
        doc=_group_doc("""
        Position of the first minimum of each group.

        GROUP CALL
        The flat (C-order) index over the grouped axes, as float64 with NaN
        for an empty group (numbagg's result).

        Examples
        --------
        >>> import numpy as np, nanops
        >>> values = np.array([1.0, 4.0, np.nan, 2.0, 5.0])
        >>> labels = np.array([0, 0, 1, 2, 0])
        >>> nanops.group_nanargmin(values, labels)
        array([ 0., nan,  3.])
        """),
    ),
    Row(
        name="group_nanargmax",
        signature="values, labels, *, axis=None, num_labels=None",
        general=General(_group.group, _nanops.group_nanargmax),
        fallback=UNSUPPORTED,  # NumPy has no group_nanargmax
        doc=_group_doc("""
        Position of the first maximum of each group.

        GROUP CALL
        The flat (C-order) index over the grouped axes, as float64 with NaN
        for an empty group (numbagg's result).

        Examples
        --------
        >>> import numpy as np, nanops
        >>> values = np.array([1.0, 4.0, np.nan, 2.0, 5.0])
        >>> labels = np.array([0, 0, 1, 2, 0])
        >>> nanops.group_nanargmax(values, labels)
        array([ 4., nan,  3.])
        """),
    ),
    Row(
        name="group_nancount",
        signature="values, labels, *, axis=None, num_labels=None",
        general=General(_group.group, _nanops.group_nancount),
        fallback=UNSUPPORTED,  # NumPy has no group_nancount
        doc=_group_doc("""
        Number of non-NaN values of each group.

        GROUP CALL
        As int64 (numbagg gives the values' dtype).

        Examples
        --------
        >>> import numpy as np, nanops
        >>> values = np.array([1.0, 4.0, np.nan, 2.0, 5.0])
        >>> labels = np.array([0, 0, 1, 2, 0])
        >>> nanops.group_nancount(values, labels)
        array([3, 0, 1])
        """),
    ),
    Row(
        name="group_nanfirst",
        signature="values, labels, *, axis=None, num_labels=None",
        general=General(_group.group, _nanops.group_nanfirst),
        fallback=UNSUPPORTED,  # NumPy has no group_nanfirst
        doc=_group_doc("""
        First non-NaN value of each group (C order over the grouped axes).

        GROUP CALL
        An empty group gives NaN; for integer values it is a ``ValueError``.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> values = np.array([1.0, 4.0, np.nan, 2.0, 5.0])
        >>> labels = np.array([0, 0, 1, 2, 0])
        >>> nanops.group_nanfirst(values, labels)
        array([ 1., nan,  2.])
        """),
    ),
    Row(
        name="group_nanlast",
        signature="values, labels, *, axis=None, num_labels=None",
        general=General(_group.group, _nanops.group_nanlast),
        fallback=UNSUPPORTED,  # NumPy has no group_nanlast
        doc=_group_doc("""
        Last non-NaN value of each group (C order over the grouped axes).

        GROUP CALL
        An empty group gives NaN; for integer values it is a ``ValueError``.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> values = np.array([1.0, 4.0, np.nan, 2.0, 5.0])
        >>> labels = np.array([0, 0, 1, 2, 0])
        >>> nanops.group_nanlast(values, labels)
        array([ 5., nan,  2.])
        """),
    ),
    Row(
        name="group_nanany",
        signature="values, labels, *, axis=None, num_labels=None",
        general=General(_group.group, _nanops.group_nanany),
        fallback=UNSUPPORTED,  # NumPy has no group_nanany
        doc=_group_doc("""
        Whether any non-NaN value of each group is nonzero.

        GROUP CALL
        As bool (numbagg gives the values' dtype); an empty group gives
        False.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> values = np.array([1.0, 4.0, np.nan, 2.0, 5.0])
        >>> labels = np.array([0, 0, 1, 2, 0])
        >>> nanops.group_nanany(values, labels)
        array([ True, False,  True])
        """),
    ),
    Row(
        name="group_nanall",
        signature="values, labels, *, axis=None, num_labels=None",
        general=General(_group.group, _nanops.group_nanall),
        fallback=UNSUPPORTED,  # NumPy has no group_nanall
        doc=_group_doc("""
        Whether every non-NaN value of each group is nonzero.

        GROUP CALL
        As bool (numbagg gives the values' dtype); an empty group gives
        True.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.group_nanall(np.array([1.0, 0.0, np.nan]), np.array([0, 0, 1]))
        array([False,  True])
        """),
    ),
    Row(
        name="group_nansum_of_squares",
        signature="values, labels, *, axis=None, num_labels=None",
        general=General(_group.group, _nanops.group_nansum_of_squares),
        fallback=UNSUPPORTED,  # NumPy has no group_nansum_of_squares
        doc=_group_doc("""
        Sum of the squares of the non-NaN values of each group.

        GROUP CALL
        Real values only (complex: ``TypeError``); 0 for an empty group.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> values = np.array([1.0, 4.0, np.nan, 2.0, 5.0])
        >>> labels = np.array([0, 0, 1, 2, 0])
        >>> nanops.group_nansum_of_squares(values, labels)
        array([42.,  0.,  4.])
        """),
    ),
    Row(
        name="group_nanskew",
        signature="values, labels, *, axis=None, num_labels=None, bias=True",
        general=General(_group.group, _nanops.group_nanskew),
        fallback=UNSUPPORTED,  # NumPy has no group_nanskew
        doc=_group_doc("""
        Skewness of the non-NaN values of each group (:func:`nanskew`).

        GROUP CALL
        ``bias`` as :func:`scipy.stats.skew`; NaN for a group of fewer than
        two values.  Real values only.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.group_nanskew(np.array([1.0, 2.0, 10.0, 3.0]), np.array([0, 0, 0, 1]))
        array([0.67455548,        nan])
        """),
    ),
    Row(
        name="group_nankurt",
        signature="values, labels, *, axis=None, num_labels=None, bias=True, fisher=True",
        general=General(_group.group, _nanops.group_nankurt),
        fallback=UNSUPPORTED,  # NumPy has no group_nankurt
        doc=_group_doc("""
        Kurtosis of the non-NaN values of each group (:func:`nankurt`).

        GROUP CALL
        ``bias`` and ``fisher`` as :func:`scipy.stats.kurtosis`; NaN for a
        group of fewer than two values.  Real values only.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.group_nankurt(np.array([1.0, 2.0, 3.0, 4.0]), np.array([0, 0, 0, 0]))
        array([-1.36])
        """),
    ),
    Row(
        name="group_nanmedian",
        signature="values, labels, *, axis=None, num_labels=None",
        general=General(_group.group, _nanops.group_nanmedian),
        fallback=UNSUPPORTED,  # NumPy has no group_nanmedian
        doc=_group_doc("""
        Median of the non-NaN values of each group.

        GROUP CALL
        An empty or all-NaN group gives NaN (no warning); the dtype is
        :func:`nanmedian`'s (integers give float64).  Each group's median is
        selected, never sorted, after one counting sort of the values by
        label.  Real values only.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> values = np.array([1.0, 4.0, np.nan, 2.0, 5.0])
        >>> labels = np.array([0, 0, 1, 2, 0])
        >>> nanops.group_nanmedian(values, labels)
        array([ 4., nan,  2.])
        """),
    ),
    Row(
        name="group_nanquantile",
        signature=(
            "values, labels, q, *, axis=None, num_labels=None, method='linear', weights=None"
        ),
        general=General(_group.group_quantile, _nanops.group_nanquantile),
        fallback=UNSUPPORTED,  # NumPy has no group_nanquantile
        doc=_group_doc("""
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
        >>> import numpy as np, nanops
        >>> values = np.array([1.0, 4.0, np.nan, 2.0, 5.0])
        >>> labels = np.array([0, 0, 1, 2, 0])
        >>> nanops.group_nanquantile(values, labels, [0.5, 1.0])
        array([[ 4., nan,  2.],
               [ 5., nan,  2.]])
        """),
    ),
)

#: The public functions, by name, in the order of ``ROWS``.
FUNCTIONS: Final[dict[str, Callable[..., Any]]] = {
    row.name: build(row, __package__ or "nanops") for row in ROWS
}
