"""The registry rows of the covariance and correlation matrices: numbagg's
``nancovmatrix``, ``nancorrmatrix``, ``move_covmatrix``,
``move_corrmatrix``, ``move_exp_nancovmatrix``, ``move_exp_nancorrmatrix``
(see :mod:`nanops._registry`)."""

from __future__ import annotations

import inspect
from typing import Final

from .. import _matrices, _nanops
from .._generate import General, Row, UNSUPPORTED

__all__ = ["ROWS"]

#: What every matrix function's result is, put into each docstring in place
#: of its line ``MATRIX RULES``.
_MATRIX_RULES: Final = """\
Each pair of variables ``i``, ``j`` takes the observations where both
are not NaN (pairwise complete, as pandas' ``DataFrame.cov``); the
result is symmetric.  float32 stays float32 and float16 float16,
integers and bool give float64 (computed in float64, rounded once);
correlations are clipped to ``[-1, 1]`` (as ``np.corrcoef``).  Any
layout; ``ValueError`` (numbagg's message) for fewer than 2
dimensions.  NumPy has no such function; dask arrays are not
supported."""


def _row(name: str, signature: str, general: General, doc: str) -> Row:
    """The row of ``name``: numbagg's call, no NumPy fallback, ``doc`` with
    its line ``MATRIX RULES`` filled in."""
    return Row(
        name=name,
        signature=signature,
        general=general,
        fallback=UNSUPPORTED,  # NumPy has no matrices of pairwise statistics
        doc=inspect.cleandoc(doc).replace("MATRIX RULES", _MATRIX_RULES),
    )


ROWS: Final[tuple[Row, ...]] = (
    _row(
        "nancovmatrix",
        "a",
        General(_matrices.matrix, _nanops.co_matrix, False),
        """
        Covariance matrix of the variables of ``a``, ignoring NaN.

        numbagg's ``nancovmatrix``: ``a`` has shape ``(..., vars, obs)``
        (variables along axis -2, observations along axis -1), the result
        ``(..., vars, vars)``; element ``[..., i, j]`` is the sample
        covariance (``ddof=1``) of variables ``i`` and ``j``, NaN below 2
        observations or where an infinity is among them.  Computed by
        blocks (each pair's block less its first pair, two passes per
        block, blocks merged by Chan's formula).
        MATRIX RULES

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.nancovmatrix(np.array([[1.0, 2.0, 3.0, np.nan], [2.0, 4.0, 7.0, 1.0]]))
        array([[1. , 2.5],
               [2.5, 7. ]])
        """,
    ),
    _row(
        "nancorrmatrix",
        "a",
        General(_matrices.matrix, _nanops.co_matrix, True),
        """
        Correlation matrix of the variables of ``a``, ignoring NaN.

        numbagg's ``nancorrmatrix``: as :func:`nancovmatrix`, Pearson's
        correlation of each pair, NaN also where a variable is constant
        over the pair's observations.
        MATRIX RULES

        Examples
        --------
        >>> import numpy as np, nanops
        >>> nanops.nancorrmatrix(np.array([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]]))
        array([[ 1., -1.],
               [-1.,  1.]])
        """,
    ),
    _row(
        "move_covmatrix",
        "a, window, min_count=None",
        General(_matrices.moving_matrix, _nanops.move_co_matrix, False),
        """
        Moving-window covariance matrix of the variables of ``a``, ignoring NaN.

        numbagg's ``move_covmatrix``: ``a`` has shape ``(..., obs, vars)``
        (observations along axis -2, variables along axis -1), the result
        ``(..., obs, vars, vars)``; element ``[..., t, i, j]`` is
        :func:`move_cov` of variables ``i`` and ``j`` at observation ``t``
        (the last ``window`` observations; NaN below ``min_count`` pairs,
        ``None``: the whole window, 0 counts as 1).  ``ValueError`` for a
        window outside ``1..obs`` or a ``min_count`` outside
        ``0..window``, numbagg's messages.
        MATRIX RULES

        Examples
        --------
        >>> import numpy as np, nanops
        >>> a = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 4.0], [3.0, 9.0]])
        >>> nanops.move_covmatrix(a, 3)[2]
        array([[1.        , 2.        ],
               [2.        , 4.33333333]])
        """,
    ),
    _row(
        "move_corrmatrix",
        "a, window, min_count=None",
        General(_matrices.moving_matrix, _nanops.move_co_matrix, True),
        """
        Moving-window correlation matrix of the variables of ``a``, ignoring NaN.

        numbagg's ``move_corrmatrix``: as :func:`move_covmatrix`,
        :func:`move_corr` of each pair.
        MATRIX RULES

        Examples
        --------
        >>> import numpy as np, nanops
        >>> a = np.array([[1.0, 3.0], [2.0, 2.0], [4.0, 1.0]])
        >>> nanops.move_corrmatrix(a, 2)[2]
        array([[ 1., -1.],
               [-1.,  1.]])
        """,
    ),
    _row(
        "move_exp_nancovmatrix",
        "a, alpha, min_weight=0",
        General(_matrices.moving_exp_matrix, _nanops.move_exp_co_matrix, False),
        """
        Exponentially weighted moving covariance matrix of the variables of ``a``.

        numbagg's ``move_exp_nancovmatrix``: ``a`` has shape ``(..., obs,
        vars)``, the result ``(..., obs, vars, vars)``; element ``[..., t,
        i, j]`` is :func:`move_exp_nancov` of variables ``i`` and ``j``,
        computed on each variable less its first finite value (no
        cancellation of a large mean); a diagonal below 0 by rounding is 0.
        ``alpha`` is a scalar or a list (broadcast along the observations),
        a 1-d array of their length, or an array of shape ``(..., obs)``
        broadcasting to the leading axes.
        MATRIX RULES

        Examples
        --------
        >>> import numpy as np, nanops
        >>> a = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 4.0]])
        >>> nanops.move_exp_nancovmatrix(a, alpha=0.5)[1]
        array([[0.5, 0.5],
               [0.5, 0.5]])
        """,
    ),
    _row(
        "move_exp_nancorrmatrix",
        "a, alpha, min_weight=0",
        General(_matrices.moving_exp_matrix, _nanops.move_exp_co_matrix, True),
        """
        Exponentially weighted moving correlation matrix of the variables of ``a``.

        numbagg's ``move_exp_nancorrmatrix``: as
        :func:`move_exp_nancovmatrix`, :func:`move_exp_nancorr` of each
        pair.
        MATRIX RULES

        Examples
        --------
        >>> import numpy as np, nanops
        >>> a = np.array([[0.0, 0.0], [1.0, -1.0], [3.0, -3.0]])
        >>> nanops.move_exp_nancorrmatrix(a, alpha=0.5)[2]
        array([[ 1., -1.],
               [-1.,  1.]])
        """,
    ),
)
