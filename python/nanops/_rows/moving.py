"""The registry rows of the moving windows and fills: bottleneck's
``move_*`` and ``push``, pandas' ``ffill``/``bfill`` (see
:mod:`nanops._registry`)."""

from __future__ import annotations

import inspect
from typing import Final

from .. import _moving, _nanops
from .._generate import General, Row, UNSUPPORTED

__all__ = ["ROWS"]


#: What every ``move_*`` window means, put into each docstring in place of
#: its line ``WINDOW RULES`` (:func:`_moving_row`).
_WINDOW_RULES: Final = """\
over the last ``window`` values along ``axis`` (fewer at the start),
NaN skipped; NaN where fewer than ``min_count`` values are not NaN
(``None``: the whole window).  Any ndim, axis and layout; float32
stays float32, float16 float16, integers and bool give float64
(computed in float64, rounded once).  ``ValueError`` for a window
outside ``1..a.shape[axis]`` or a ``min_count`` outside
``1..window``, bottleneck's messages."""

#: bottleneck's call of most ``move_*`` functions.
_MOVING_SIGNATURE: Final = "a, window, min_count=None, axis=-1"


def _moving_row(
    name: str, doc: str, *, signature: str = _MOVING_SIGNATURE, general: General | None = None
) -> Row:
    """The row of ``name``: bottleneck's call (``signature``), its primitive
    ``_nanops.<name>`` through :func:`nanops._moving.moving` unless
    ``general`` says otherwise, no NumPy fallback, and ``doc`` with its line
    ``WINDOW RULES`` filled in."""
    return Row(
        name=name,
        signature=signature,
        general=general or General(_moving.moving, getattr(_nanops, name)),
        fallback=UNSUPPORTED,  # NumPy has no move_* functions
        doc=inspect.cleandoc(doc).replace("WINDOW RULES", _WINDOW_RULES),
    )


#: What every ``move_exp_*`` function takes, put into each docstring in
#: place of its line ``EXP RULES`` (:func:`_exp_row`).
_EXP_RULES: Final = """\
``alpha`` is a scalar, a list or 1-d array with one value per position
along ``axis``, or an array whose ``axis`` is the moved one and whose
other axes broadcast to the input's; its values are not checked (0 to 1
makes sense).  ``min_weight``: a position whose decayed sum of the
alphas of its values (``weight = d * weight + alpha``) is below it
gives NaN.  ``axis`` is an int or a 1-tuple.  Any ndim and layout;
float32 stays float32 and float16 float16 (numbagg gives float64 for
both), integers and bool give float64; computed in float64 with
numbagg's operations in its order, rounded once.  NumPy has no such
function; dask arrays are not supported."""


#: What ``move_cov`` and ``move_corr`` take, put into each docstring in
#: place of its line ``PAIR RULES`` (:func:`_pair_row`).
_PAIR_RULES: Final = """\
over the pairs of the last ``window`` positions along ``axis`` (fewer
at the start) whose two values are both not NaN; NaN where fewer than
``min_count`` pairs (``None``: the whole window; 0 counts as 1), and
where the window holds an infinity.  ``a`` and ``b`` broadcast
together, of real dtypes (NumPy's promotion); float32 stays float32,
float16 float16, integers and bool give float64.  ``axis`` an int or
a 1-tuple.  ``ValueError`` for a window outside ``1..a.shape[axis]``
or a ``min_count`` outside ``0..window``, numbagg's messages.
Computed in float64 by blocks of the window (Welford's co-moments
merged by Chan's formula): each window's result from its own pairs,
where numbagg's running sums keep the rounding of every value they
have seen (and NaN for good after an infinity)."""


def _pair_row(name: str, doc: str) -> Row:
    """The row of ``name``: numbagg's call of two series, its primitive
    ``_nanops.<name>`` through :func:`nanops._moving.moving_pair`, and
    ``doc`` with its line ``PAIR RULES`` filled in."""
    return Row(
        name=name,
        signature="a, b, window, min_count=None, axis=-1",
        general=General(_moving.moving_pair, getattr(_nanops, name)),
        fallback=UNSUPPORTED,  # NumPy has no moving covariance
        doc=inspect.cleandoc(doc).replace("PAIR RULES", _PAIR_RULES),
    )


def _exp_pair_row(name: str, doc: str) -> Row:
    """The row of ``name``: numbagg's call of two series, its primitive
    ``_nanops.<name>`` through :func:`nanops._moving.moving_exp_pair`, and
    ``doc`` with its line ``EXP RULES`` filled in."""
    return Row(
        name=name,
        signature="a, b, /, *, alpha, min_weight=0, axis=-1",
        general=General(_moving.moving_exp_pair, getattr(_nanops, name)),
        fallback=UNSUPPORTED,  # NumPy has no move_exp_* functions
        doc=inspect.cleandoc(doc).replace("EXP RULES", _EXP_RULES),
    )


def _exp_row(name: str, doc: str) -> Row:
    """The row of ``name``: numbagg's call, its primitive ``_nanops.<name>``
    through :func:`nanops._moving.moving_exp`, no NumPy fallback, and
    ``doc`` with its line ``EXP RULES`` filled in."""
    return Row(
        name=name,
        signature="a, /, *, alpha, min_weight=0, axis=-1",
        general=General(_moving.moving_exp, getattr(_nanops, name)),
        fallback=UNSUPPORTED,  # NumPy has no move_exp_* functions
        doc=inspect.cleandoc(doc).replace("EXP RULES", _EXP_RULES),
    )


#: The rows, in the order of ``nanops.__all__``.
ROWS: Final[tuple[Row, ...]] = (
    # --- moving windows (not in NumPy) ---------------------------------------
    _moving_row(
        "move_sum",
        """
        Moving-window sum along an axis, ignoring NaN.

        Bottleneck's ``move_sum`` call (positional or keyword), pandas'
        ``rolling(window, min_periods=min_count).sum()``: at each position,
        WINDOW RULES
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
    _moving_row(
        "move_mean",
        """
        Moving-window mean along an axis, ignoring NaN.

        Bottleneck's ``move_mean`` call (positional or keyword), pandas'
        ``rolling(window, min_periods=min_count).mean()``: at each position,
        WINDOW RULES

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.move_mean(np.array([1.0, 2.0, np.nan, 4.0]), 2)
        array([nan, 1.5, nan, nan])
        """,
    ),
    _moving_row(
        "move_var",
        """
        Moving-window variance along an axis, ignoring NaN.

        Bottleneck's ``move_var`` call (positional or keyword), pandas'
        ``rolling(window, min_periods=min_count).var()``: at each position,
        WINDOW RULES
        ``ddof`` as NumPy's (bottleneck's default 0; pandas' is 1).  NaN
        where ``count - ddof <= 0`` (bottleneck gives inf at ``count ==
        ddof``) or where the window holds an infinity.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.move_var(np.array([1.0, 3.0, 5.0]), 2)
        array([nan,  1.,  1.])
        """,
        signature="a, window, min_count=None, axis=-1, ddof=0",
        general=General(_moving.moving_ddof, _nanops.move_var),
    ),
    _moving_row(
        "move_std",
        """
        Moving-window standard deviation along an axis, ignoring NaN.

        Bottleneck's ``move_std`` call (positional or keyword), pandas'
        ``rolling(window, min_periods=min_count).std()``: at each position,
        WINDOW RULES
        The square root of :func:`move_var`.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.move_std(np.array([1.0, 3.0, 5.0]), 2)
        array([nan,  1.,  1.])
        """,
        signature="a, window, min_count=None, axis=-1, ddof=0",
        general=General(_moving.moving_ddof, _nanops.move_std),
    ),
    _moving_row(
        "move_min",
        """
        Moving-window minimum along an axis, ignoring NaN.

        Bottleneck's ``move_min`` call (positional or keyword), pandas'
        ``rolling(window, min_periods=min_count).min()``: at each position,
        WINDOW RULES
        Amortised O(1) per step (a monotonic deque).

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.move_min(np.array([3.0, 1.0, np.nan, 2.0]), 2, min_count=1)
        array([3., 1., 1., 2.])
        """,
    ),
    _moving_row(
        "move_max",
        """
        Moving-window maximum along an axis, ignoring NaN.

        Bottleneck's ``move_max`` call (positional or keyword), pandas'
        ``rolling(window, min_periods=min_count).max()``: at each position,
        WINDOW RULES
        Amortised O(1) per step (a monotonic deque).

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.move_max(np.array([3.0, 1.0, np.nan, 2.0]), 2, min_count=1)
        array([3., 3., 1., 2.])
        """,
    ),
    _moving_row(
        "move_argmin",
        """
        Moving-window position of the minimum, ignoring NaN.

        Bottleneck's ``move_argmin`` call (positional or keyword), pandas'
        ``rolling(window, min_periods=min_count).apply(np.argmin)()``: at each position,
        WINDOW RULES
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
    _moving_row(
        "move_argmax",
        """
        Moving-window position of the maximum, ignoring NaN.

        Bottleneck's ``move_argmax`` call (positional or keyword), pandas'
        ``rolling(window, min_periods=min_count).apply(np.argmax)()``: at each position,
        WINDOW RULES
        Counted as :func:`move_argmin`'s.

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.move_argmax(np.array([1.0, 3.0, 3.0, 2.0]), 3)
        array([nan, nan,  0.,  1.])
        """,
    ),
    _moving_row(
        "move_count",
        """
        Moving-window count of the non-NaN values along an axis.

        Bottleneck's call of its ``move_*`` functions (positional or keyword;
        bottleneck has no ``move_count``): at each position,
        WINDOW RULES
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
    _moving_row(
        "move_median",
        """
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
    _moving_row(
        "move_quantile",
        """
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
        signature="a, window, q, min_count=None, axis=-1, method='linear'",
        general=General(_moving.moving_quantile),
    ),
    _moving_row(
        "move_rank",
        """
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
    _pair_row(
        "move_cov",
        """
        Moving-window covariance of two series, ignoring NaN pairs.

        numbagg's ``move_cov`` (pandas' ``rolling(window,
        min_periods=min_count).cov(other)``): the sample covariance
        (``ddof=1``, so at least 2 pairs)
        PAIR RULES

        Examples
        --------
        >>> import numpy as np, nanops
        >>> a = np.array([0.0, 1.0, 2.0, 3.0, 4.0])
        >>> nanops.move_cov(a, a**2, 3)
        array([nan, nan,  2.,  4.,  6.])
        """,
    ),
    _pair_row(
        "move_corr",
        """
        Moving-window correlation of two series, ignoring NaN pairs.

        numbagg's ``move_corr`` (pandas' ``rolling(window,
        min_periods=min_count).corr(other)``): Pearson's correlation, NaN
        where either series is constant over the pairs,
        PAIR RULES

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.move_corr(np.array([1.0, 2.0, 3.0, 4.0]), np.array([2.0, 4.0, 7.0, 1.0]), 2)
        array([nan,  1.,  1., -1.])
        """,
    ),
    _exp_row(
        "move_exp_nanmean",
        """
        Exponentially weighted moving mean along an axis, ignoring NaN.

        numbagg's ``move_exp_nanmean``: at each position, with ``d = 1 -
        alpha``, the decayed sums ``sx = d * sx + x`` and ``sw = d * sw + 1``
        (a NaN position only decays them), and the result ``sx / sw``;
        pandas' ``ewm(alpha=alpha, adjust=True, ignore_na=False,
        min_periods=1).mean()``.
        EXP RULES

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.move_exp_nanmean(np.array([1.0, np.nan, 4.0]), alpha=0.5)
        array([1. , 1. , 3.4])
        """,
    ),
    _exp_row(
        "move_exp_nansum",
        """
        Exponentially weighted moving sum along an axis, ignoring NaN.

        numbagg's ``move_exp_nansum``: the decayed sum ``sx`` of
        :func:`move_exp_nanmean` (NaN before the first value that is not NaN).
        EXP RULES

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.move_exp_nansum(np.array([np.nan, 2.0, np.nan, 4.0]), alpha=0.5)
        array([nan, 2. , 1. , 4.5])
        """,
    ),
    _exp_row(
        "move_exp_nanvar",
        """
        Exponentially weighted moving variance along an axis, ignoring NaN.

        numbagg's ``move_exp_nanvar`` (pandas' ``ewm(alpha=alpha,
        adjust=True, ignore_na=False).var()``, bias-corrected): with the
        decayed sums of :func:`move_exp_nanmean`, ``sx2 = d * sx2 + x**2``
        and ``sw2 = d**2 * sw2 + 1``, the result ``(sx2 / sw - (sx / sw)**2)
        / (1 - sw2 / sw**2)`` where that bias factor is positive, NaN
        elsewhere (numbagg's sums of squares: digits are lost where the
        mean is large against the spread).
        EXP RULES

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.move_exp_nanvar(np.array([1.0, 3.0]), alpha=0.5)
        array([nan,  2.])
        """,
    ),
    _exp_row(
        "move_exp_nanstd",
        """
        Exponentially weighted moving standard deviation, ignoring NaN.

        numbagg's ``move_exp_nanstd``: the square root of
        :func:`move_exp_nanvar`.
        EXP RULES

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.move_exp_nanstd(np.array([1.0, 3.0]), alpha=0.5)
        array([       nan, 1.41421356])
        """,
    ),
    _exp_row(
        "move_exp_nancount",
        """
        Exponentially weighted moving count of the values that are not NaN.

        numbagg's ``move_exp_nancount``: the decayed count ``sw`` of
        :func:`move_exp_nanmean`.
        EXP RULES

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.move_exp_nancount(np.array([1.0, np.nan, 1.0]), alpha=0.5)
        array([1.  , 0.5 , 1.25])
        """,
    ),
    _exp_pair_row(
        "move_exp_nancov",
        """
        Exponentially weighted moving covariance of two series, ignoring NaN pairs.

        numbagg's ``move_exp_nancov`` (pandas' ``ewm(alpha=alpha,
        adjust=True, ignore_na=False).cov(other)``, bias-corrected): the
        decayed sums of the positions where ``a`` and ``b`` are both not NaN
        (a position where either is NaN only decays them), ``sx``, ``sy``,
        ``sxy = d * sxy + x * y``, ``sw`` and ``sw2`` as in
        :func:`move_exp_nanvar`, and the result ``(sxy - sx * sy / sw) / sw
        / (1 - sw2 / sw**2)`` where that bias factor is positive, NaN
        elsewhere.  ``a`` and ``b`` broadcast together, of real dtypes
        (``axis=()`` is numbagg's ``ValueError``).
        EXP RULES

        Examples
        --------
        >>> import numpy as np, nanops
        >>> a = np.array([0.0, 1.0, 2.0])
        >>> nanops.move_exp_nancov(a, a**2, alpha=0.5)
        array([       nan, 0.5       , 2.07142857])
        """,
    ),
    _exp_pair_row(
        "move_exp_nancorr",
        """
        Exponentially weighted moving correlation of two series, ignoring NaN pairs.

        numbagg's ``move_exp_nancorr`` (pandas' ``ewm(alpha=alpha,
        adjust=True, ignore_na=False).corr(other)``): with the decayed sums
        of :func:`move_exp_nancov` and ``sxx``, ``syy``, the result ``(sxy -
        sx * sy / sw) / sqrt((sxx - sx**2 / sw) * (syy - sy**2 / sw))``, NaN
        where the covariance is or where that root is not positive.
        EXP RULES

        Examples
        --------
        >>> import numpy as np, nanops
        >>> a = np.array([0.0, 1.0, 2.0])
        >>> nanops.move_exp_nancorr(a, a**2, alpha=0.5)
        array([       nan, 1.        , 0.96828182])
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
)
