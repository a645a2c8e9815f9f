"""General paths of the covariance and correlation matrices (numbagg's
``nancovmatrix``, ``nancorrmatrix``, ``move_covmatrix``,
``move_corrmatrix``, ``move_exp_nancovmatrix``, ``move_exp_nancorrmatrix``),
with numbagg's checks and messages.

The primitives (``_nanops.co_matrix``, ``move_co_matrix``,
``move_exp_co_matrix``) take the array in numbagg's fixed layout and a flag
for the correlation; the helpers here check the caller's arguments first so
that a bad one raises the exception (and message) numbagg raises.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ._args import MAX_KERNEL_NDIM, Delegate, as_ndarray, integer_argument, kernel_input
from ._moving import exp_alpha_lane, numbagg_min_count, real_argument

__all__ = ["matrix", "moving_matrix", "moving_exp_matrix"]


def _input(a: Any, name: str, layout: str) -> np.ndarray:
    """``a`` as the primitives take it: a real array of at least 2
    dimensions (numbagg's ``ValueError`` naming ``layout``), one more
    dimension than it has within what the primitives return."""
    x = as_ndarray(a)
    if x.dtype.kind not in "biuf":
        raise TypeError(f"nanops' matrix functions take real numbers, not {x.dtype}")
    if x.ndim < 2:
        extra = (" For 1D arrays, use nanvar for variance calculations."
                 if layout == "vars, obs" else "")
        raise ValueError(f"{name} requires at least a 2D array with shape (..., {layout}).{extra}")
    if x.ndim >= MAX_KERNEL_NDIM:
        raise Delegate
    return kernel_input(x)


def matrix(prim: Callable[..., np.ndarray], corr: bool, a: Any) -> np.ndarray:
    """``nancovmatrix``/``nancorrmatrix``: ``a`` of shape ``(..., vars,
    obs)``, the result ``(..., vars, vars)``."""
    name = "nancorrmatrix" if corr else "nancovmatrix"
    return prim(_input(a, name, "vars, obs"), corr)


def moving_matrix(prim: Callable[..., np.ndarray], corr: bool, a: Any, window: Any,
                  min_count: Any) -> np.ndarray:
    """``move_covmatrix``/``move_corrmatrix``: ``a`` of shape ``(..., obs,
    vars)``, the result ``(..., obs, vars, vars)``; numbagg's checks of
    ``min_count`` (0 to ``window``, 0 as 1) and then of ``window``."""
    name = "move_corrmatrix" if corr else "move_covmatrix"
    x = _input(a, name, "obs, vars")
    w = integer_argument(window, "window")
    m = numbagg_min_count(min_count, w)
    if not 0 < w <= x.shape[-2]:
        raise ValueError(f"window not in valid range: {w}")
    return prim(x, w, m, corr)


def moving_exp_matrix(prim: Callable[..., np.ndarray], corr: bool, a: Any, alpha: Any,
                      min_weight: Any) -> np.ndarray:
    """``move_exp_nancovmatrix``/``move_exp_nancorrmatrix``: ``a`` of shape
    ``(..., obs, vars)``, ``alpha`` a scalar or a list broadcast along the
    observations, a 1-d array of their length, or an array of shape
    ``(..., obs)`` broadcasting to the input's leading axes (computed per
    matrix)."""
    name = "move_exp_nancorrmatrix" if corr else "move_exp_nancovmatrix"
    x = _input(a, name, "obs, vars")
    mw = real_argument(min_weight, "min_weight")
    if mw.ndim != 0:
        raise TypeError(f"min_weight must be a scalar, got an array of shape {mw.shape}")
    weight = float(mw)
    n = x.shape[-2]
    core = "(m,n),(m),()->(m,n,n)"
    if isinstance(alpha, np.ndarray) and alpha.ndim == 0:
        raise ValueError(f"{name}: Input operand 1 does not have enough dimensions (has 0, "
                         f"gufunc core with signature {core} requires 1)")
    if not isinstance(alpha, np.ndarray) or alpha.ndim == 1:
        lanes = real_argument(alpha, "alpha")
        if lanes.ndim == 1 and isinstance(alpha, np.ndarray) and lanes.shape[0] != n:
            raise ValueError(f"{name}: Input operand 1 has a mismatch in its core dimension "
                             f"0, with gufunc signature {core} (size {lanes.shape[0]} is "
                             f"different from {n})")
        return prim(x, exp_alpha_lane(np.broadcast_to(lanes, (n,))), weight, corr)
    lanes = real_argument(alpha, "alpha")
    if lanes.shape[-1] != n:
        raise ValueError(f"{name}: Input operand 1 has a mismatch in its core dimension 0, "
                         f"with gufunc signature {core} (size {lanes.shape[-1]} is "
                         f"different from {n})")
    lead = x.shape[:-2]
    if np.broadcast_shapes(lead, lanes.shape[:-1]) != lead:
        raise ValueError(f"alpha of shape {lanes.shape} does not broadcast to the input's "
                         f"leading axes {lead}")
    lanes = np.broadcast_to(lanes, (*lead, n))
    out: np.ndarray | None = None
    for idx in np.ndindex(*lead):
        r = prim(x[idx], exp_alpha_lane(lanes[idx]), weight, corr)
        if out is None:
            out = np.empty((*lead, *r.shape), dtype=r.dtype)
        out[idx] = r
    if out is None:  # no matrix: the primitive's dtype and shape
        return prim(x, np.zeros(1), weight, corr)
    return out
