"""The registry rows of the reductions: sums, products, means, variances,
skewness and kurtosis, extrema and their indices, cumulative sums and
products, counts (see :mod:`nanops._registry`)."""

from __future__ import annotations

from typing import Final

import numpy as np

from .. import _extrema, _moments, _nanops, _sums
from .._args import MSG_ALL_NAN, MSG_DOF, MSG_EMPTY_MEAN
from .._generate import Fast, General, Row, UNSUPPORTED, Warn

__all__ = ["ROWS"]


def _nan_flag_row(name: str, all_nan: bool, doc: str) -> Row:
    """The row of ``anynan`` (``all_nan`` False) or ``allnan``: one fast
    entry, one general helper, each told which."""
    return Row(
        name=name,
        signature="a, axis=None",
        fast=Fast(_nanops.fast_nanflag, f"a, axis, {all_nan}", at_defaults=()),
        general=General(_sums.nan_flag, getattr(_nanops, name)),
        fallback=_sums.allnan_fallback if all_nan else _sums.anynan_fallback,
        doc=doc,
    )


def _count_row(name: str, doc: str) -> Row:
    """The row of ``nancount`` or its alias ``count`` (numbagg's name)."""
    return Row(
        name=name,
        signature="a, axis=None, keepdims=False",
        general=General(_sums.count),
        fallback=_sums.count_fallback,
        doc=doc,
    )


#: The rows, in the order of ``nanops.__all__``.
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
    _count_row(
        "nancount",
        """
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
    # --- bottleneck's sum of squares (not in NumPy) --------------------------
    Row(
        name="ss",
        signature="a, axis=None",
        fast=Fast(_nanops.fast_ss, "a, axis", at_defaults=()),
        general=General(_sums.ss),
        fallback=_sums.ss_fallback,
        doc="""
        Sum of the squares of the values along an axis, NaN propagated.

        Bottleneck's ``ss`` (not in NumPy): ``axis`` None (every axis), an
        int, or (beyond bottleneck) a tuple of ints; a slice holding NaN gives
        NaN.  The squares are summed as :func:`nansum` sums values: float32
        in float64, float16 in float32 (exact squares) and float64
        compensated, so the result can differ from bottleneck's running
        float32 sum in the last bits (it is closer to the exact one); the
        result dtype is
        ``nansum``'s (int32 stays int32, wrapping as bottleneck's).  Inputs
        the kernels lack go to ``np.sum(a * a, axis)``, bottleneck's own way
        for them.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.ss(np.array([[1.0, 2.0], [3.0, np.nan]]), axis=1)
        array([ 5., nan])
        """,
    ),
    # --- bottleneck's and numbagg's NaN tests (not in NumPy) ---------------
    _nan_flag_row(
        "anynan",
        False,
        """
        Whether any value along the given axes is NaN.

        Bottleneck's and numbagg's ``anynan`` (not in NumPy): ``axis`` None,
        an int or (numbagg's) a tuple of ints; ``axis=None`` answers a Python
        bool (bottleneck's type), other axes a bool array.  Integers and
        bools are never NaN; an empty slice holds no NaN.  Each slice is
        read only up to its first NaN.  Inputs the kernels lack are tested
        with NumPy operations (NaT counts as missing).

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.anynan(np.array([[1.0, np.nan], [3.0, 4.0]]), axis=1)
        array([ True, False])
        """,
    ),
    _nan_flag_row(
        "allnan",
        True,
        """
        Whether every value along the given axes is NaN.

        Bottleneck's and numbagg's ``allnan`` (not in NumPy), called as
        :func:`anynan`; an empty slice is all NaN (``True``), a non-empty
        slice of integers or bools never.  Each slice is read only up to its
        first value that is not NaN.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.allnan(np.array([[np.nan, np.nan], [3.0, np.nan]]), axis=1)
        array([ True, False])
        """,
    ),
    _count_row(
        "count",
        """
        Number of non-NaN elements over the given axes: numbagg's name for
        :func:`nancount`, which it is in every respect.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.count(np.array([[1.0, np.nan], [3.0, 4.0]]), axis=0)
        array([2, 1])
        """,
    ),
)
