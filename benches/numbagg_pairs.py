"""numbagg's functions of two series (``move_cov``, ``move_corr``,
``move_exp_nancov``, ``move_exp_nancorr``): nanops against numbagg.

One process, the two libraries called in turns (interleaved rounds, the
order alternating), medians per row. Both series hold 10% NaN (independent
positions); the second is the first plus noise. Windows 10 and 1000 for the
moving functions, ``alpha=0.1`` for the exponential ones. The 1,000-value
rows measure the per-call cost.

    python3 benches/numbagg_pairs.py [--rounds 9] [--only NAME,...] [--write]

``--write`` saves the rows with their raw times to
``benches/results/numbagg_pairs.json``; ``python3 benches/report.py
--assemble`` renders them into BENCHMARKS.md (section "numbagg's functions
of two series").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numbagg
import numpy as np
from _interleave import interleaved_ms
from _report import comparison_args, finish_comparison

import nanops

#: (shape, axis) of the rows.
CASES = [
    ((10_000_000,), -1),
    ((1000, 10000), -1),
    ((10000, 1000), 0),
    ((1000,), -1),
]
DTYPES = ["float64", "float32"]

#: name -> (parameters, call of a library's function)
SPECS: dict[str, tuple[list[Any], Callable[..., Any]]] = {
    "move_cov": ([10, 1000], lambda f, a, b, p, ax: f(a, b, window=p, axis=ax)),
    "move_corr": ([10, 1000], lambda f, a, b, p, ax: f(a, b, window=p, axis=ax)),
    "move_exp_nancov": ([0.1], lambda f, a, b, p, ax: f(a, b, alpha=p, axis=ax)),
    "move_exp_nancorr": ([0.1], lambda f, a, b, p, ax: f(a, b, alpha=p, axis=ax)),
}


def main() -> None:
    args = comparison_args(__doc__ or "", list(SPECS), 9)
    rng = np.random.default_rng(0)
    rows = []
    for func in args.only.split(","):
        params, call = SPECS[func]
        for shape, axis in CASES:
            for dtype in DTYPES:
                a = rng.standard_normal(shape).astype(dtype)
                b = (a + rng.standard_normal(shape)).astype(dtype)
                a[rng.random(shape) < 0.1] = np.nan
                b[rng.random(shape) < 0.1] = np.nan
                for p in params:
                    if isinstance(p, int) and p > shape[axis]:
                        continue
                    f_ours, f_theirs = getattr(nanops, func), getattr(numbagg, func)
                    ours = lambda: call(f_ours, a, b, p, axis)  # noqa: E731
                    theirs = lambda: call(f_theirs, a, b, p, axis)  # noqa: E731
                    # warmed first (numbagg compiles on its first call)
                    ms = interleaved_ms({"nanops": ours, "numbagg": theirs}, args.rounds)
                    rows.append((func, shape, axis, dtype, p, ms["nanops"], ms["numbagg"]))
                    print(f"{func} {shape} axis={axis} {dtype} {p}: nanops "
                          f"{ms['nanops']:.4f} ms, numbagg {ms['numbagg']:.4f} ms, "
                          f"{ms['numbagg'] / ms['nanops']:.2f}x", flush=True)
    finish_comparison(
        "numbagg_pairs", "numbagg_pairs.py", "numbagg's functions of two series",
        ["function", "shape", "axis", "dtype", "param"], "numbagg", numbagg.__version__, rows, args)


if __name__ == "__main__":
    main()
