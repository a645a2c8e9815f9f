"""bottleneck's functions beyond NumPy's (``ss``, ``anynan``, ``allnan``,
``rankdata``, ``nanrankdata``, ``partition``, ``argpartition``, ``replace``):
nanops against bottleneck.

One process, the two libraries called in turns (interleaved rounds, the
order alternating), medians per row. Float inputs hold 10% NaN, or none,
or only NaN (the data column); integers lie in [-1000, 1000]. ``partition``
inputs hold no NaN (bottleneck's result is undefined with NaN); ``kth`` is a
third of the axis. ``replace`` puts NaN for NaN (5 for 5 in integers), so
every call sees the same array. The 1,000-value rows measure the per-call
cost.

    python3 benches/bottleneck_extras.py [--rounds 15] [--only NAME,...] [--write]

``--write`` saves the rows with their raw times to
``benches/results/bottleneck_extras.json``; ``python3 benches/report.py
--assemble`` renders them into BENCHMARKS.md (section "bottleneck's other
functions").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import bottleneck as bn
import numpy as np
from _interleave import interleaved_ms
from _report import comparison_args, finish_comparison

import nanops

#: (shape, axis) of the reductions' rows; None reduces every axis.
REDUCE_CASES = [
    ((10_000_000,), None),
    ((1000, 10000), -1),
    ((10000, 1000), 0),
    ((1000, 10000), None),
    ((1000,), None),
]
#: (shape, axis) of the rows of ranks and partitions (sorting is slower).
LANE_CASES = [
    ((1_000_000,), -1),
    ((1000, 1000), -1),
    ((1000, 1000), 0),
    ((1000,), -1),
]
DTYPES = ["float64", "float32", "int64", "int32"]
FLOATS = ["float64", "float32"]

#: name -> (cases, dtypes, data kinds, call of a library's function)
SPECS: dict[str, tuple[list[Any], list[str], list[str], Callable[..., Any]]] = {
    "ss": (REDUCE_CASES, DTYPES, ["10% NaN"], lambda f, a, ax: f(a, axis=ax)),
    "anynan": (REDUCE_CASES, FLOATS, ["no NaN", "10% NaN"], lambda f, a, ax: f(a, axis=ax)),
    "allnan": (REDUCE_CASES, FLOATS, ["all NaN", "10% NaN"], lambda f, a, ax: f(a, axis=ax)),
    "rankdata": (LANE_CASES, DTYPES, ["10% NaN"], lambda f, a, ax: f(a, axis=ax)),
    "nanrankdata": (LANE_CASES, DTYPES, ["10% NaN"], lambda f, a, ax: f(a, axis=ax)),
    "partition": (LANE_CASES, DTYPES, ["no NaN"],
                  lambda f, a, ax: f(a, a.shape[ax] // 3, axis=ax)),
    "argpartition": (LANE_CASES, DTYPES, ["no NaN"],
                     lambda f, a, ax: f(a, a.shape[ax] // 3, axis=ax)),
    "replace": ([((10_000_000,), None), ((1000,), None)], DTYPES, ["10% NaN"],
                lambda f, a, ax: f(a, np.nan, np.nan) if a.dtype.kind == "f" else f(a, 5, 5)),
}


def _values(rng: np.random.Generator, shape: tuple[int, ...], dtype: str,
            data: str) -> np.ndarray:
    if dtype.startswith("int"):
        return rng.integers(-1000, 1000, shape).astype(dtype)
    if data == "all NaN":
        return np.full(shape, np.nan, dtype)
    x = rng.standard_normal(shape).astype(dtype)
    if data == "10% NaN":
        x[rng.random(shape) < 0.1] = np.nan
    return x


def main() -> None:
    args = comparison_args(__doc__ or "", list(SPECS), 15)
    rng = np.random.default_rng(0)
    rows = []
    for func in args.only.split(","):
        cases, dtypes, kinds, call = SPECS[func]
        for shape, axis in cases:
            for dtype in dtypes:
                for data in kinds if dtype in FLOATS else kinds[:1]:
                    a = _values(rng, shape, dtype, data)
                    f_ours, f_theirs = getattr(nanops, func), getattr(bn, func)
                    ours = lambda: call(f_ours, a, axis)  # noqa: E731
                    theirs = lambda: call(f_theirs, a, axis)  # noqa: E731
                    ms = interleaved_ms({"nanops": ours, "bottleneck": theirs}, args.rounds)
                    shown = data if dtype in FLOATS else "ints"
                    rows.append((func, shape, axis, dtype, shown, ms["nanops"], ms["bottleneck"]))
                    print(f"{func} {shape} axis={axis} {dtype} {shown}: nanops "
                          f"{ms['nanops']:.4f} ms, bottleneck {ms['bottleneck']:.4f} ms, "
                          f"{ms['bottleneck'] / ms['nanops']:.2f}x", flush=True)
    finish_comparison(
        "bottleneck_extras", "bottleneck_extras.py", "bottleneck's other functions",
        ["function", "shape", "axis", "dtype", "data"], "bottleneck", bn.__version__, rows, args)


if __name__ == "__main__":
    main()
