"""numbagg's covariance and correlation matrices (``nancovmatrix``,
``nancorrmatrix``, ``move_covmatrix``, ``move_corrmatrix``,
``move_exp_nancovmatrix``, ``move_exp_nancorrmatrix``): nanops against
numbagg.

One process, the two libraries called in turns (interleaved rounds, the
order alternating), medians per row. The variables hold 10% NaN; each is the
one before plus noise. Window 100 for the moving matrices, ``alpha=0.1`` for
the exponential ones. The small rows measure the per-call cost.

    python3 benches/numbagg_matrices.py [--rounds 9] [--only NAME,...] [--write]

``--write`` saves the rows with their raw times to
``benches/results/numbagg_matrices.json``; ``python3 benches/report.py
--assemble`` renders them into BENCHMARKS.md (section "numbagg's
covariance and correlation matrices").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numbagg
import numpy as np
from _interleave import interleaved_ms
from _report import comparison_args, finish_comparison

import nanops

#: Shapes of the static matrices' input, ``(..., vars, obs)``.
STATIC = [(10, 1_000_000), (100, 10_000), (50, 10, 2000), (3, 1000)]
#: Shapes of the moving matrices' input, ``(..., obs, vars)``.
MOVING = [(100_000, 10), (20, 10_000, 5), (1000, 3)]
DTYPES = ["float64", "float32"]

#: name -> (shapes, the variables' axis, call of a library's function)
SPECS: dict[str, tuple[list[tuple[int, ...]], int, Callable[..., Any]]] = {
    "nancovmatrix": (STATIC, -2, lambda f, a: f(a)),
    "nancorrmatrix": (STATIC, -2, lambda f, a: f(a)),
    "move_covmatrix": (MOVING, -1, lambda f, a: f(a, 100)),
    "move_corrmatrix": (MOVING, -1, lambda f, a: f(a, 100)),
    "move_exp_nancovmatrix": (MOVING, -1, lambda f, a: f(a, 0.1)),
    "move_exp_nancorrmatrix": (MOVING, -1, lambda f, a: f(a, 0.1)),
}


def data(rng: np.random.Generator, shape: tuple[int, ...], axis: int, dtype: str) -> np.ndarray:
    """Correlated variables along ``axis``, 10% NaN."""
    a = np.cumsum(rng.standard_normal(shape), axis=axis).astype(dtype)
    a[rng.random(shape) < 0.1] = np.nan
    return a


def main() -> None:
    args = comparison_args(__doc__ or "", list(SPECS), 9)
    rng = np.random.default_rng(0)
    rows = []
    for func in args.only.split(","):
        shapes, axis, call = SPECS[func]
        for shape in shapes:
            for dtype in DTYPES:
                a = data(rng, shape, axis, dtype)
                f_ours, f_theirs = getattr(nanops, func), getattr(numbagg, func)
                ours = lambda: call(f_ours, a)  # noqa: E731
                theirs = lambda: call(f_theirs, a)  # noqa: E731
                # warmed first (numbagg compiles on its first call)
                ms = interleaved_ms({"nanops": ours, "numbagg": theirs}, args.rounds)
                rows.append((func, shape, dtype, ms["nanops"], ms["numbagg"]))
                print(f"{func} {shape} {dtype}: nanops {ms['nanops']:.4f} ms, numbagg "
                      f"{ms['numbagg']:.4f} ms, {ms['numbagg'] / ms['nanops']:.2f}x", flush=True)
    finish_comparison(
        "numbagg_matrices", "numbagg_matrices.py", "numbagg's covariance and correlation matrices",
        ["function", "shape", "dtype"], "numbagg", numbagg.__version__, rows, args)


if __name__ == "__main__":
    main()
