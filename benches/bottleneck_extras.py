"""bottleneck's functions beyond NumPy's (``ss``): nanops against bottleneck.

One process, the two libraries called in turns (interleaved rounds, the
order alternating), medians per row; 10% NaN in float inputs, integers in
[-1000, 1000]. The 1,000-value rows measure the per-call cost.

    python3 benches/bottleneck_extras.py [--rounds 15] [--write]

``--write`` puts the table into BENCHMARKS.md (section "bottleneck's other
functions").
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import bottleneck as bn
import numpy as np
from _report import write_section

import nanops

#: (shape, axis) of each row; None reduces every axis.
CASES = [
    ((10_000_000,), None),
    ((1000, 10000), -1),
    ((10000, 1000), 0),
    ((1000, 10000), None),
    ((1000,), None),
]
DTYPES = ["float64", "float32", "int64", "int32"]
FUNCS = ["ss"]


def _values(rng: np.random.Generator, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    if dtype.startswith("int"):
        return rng.integers(-1000, 1000, shape).astype(dtype)
    x = rng.standard_normal(shape).astype(dtype)
    x[rng.random(shape) < 0.1] = np.nan
    return x


def _time(fn: Callable[[], object], inner: int) -> float:
    t0 = time.perf_counter()
    for _ in range(inner):
        fn()
    return (time.perf_counter() - t0) / inner


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    rows = []
    for func in FUNCS:
        for shape, axis in CASES:
            for dtype in DTYPES:
                a = _values(rng, shape, dtype)
                ours = lambda: getattr(nanops, func)(a, axis=axis)  # noqa: E731
                theirs = lambda: getattr(bn, func)(a, axis=axis)  # noqa: E731
                ours(), theirs()  # warm
                inner = max(1, int(2e-3 / max(_time(ours, 1), 1e-7)))
                times: dict[str, list[float]] = {"nanops": [], "bottleneck": []}
                for r in range(args.rounds):
                    pair = [("nanops", ours), ("bottleneck", theirs)]
                    for name, fn in pair if r % 2 == 0 else pair[::-1]:
                        times[name].append(_time(fn, inner))
                ms = {k: statistics.median(v) * 1e3 for k, v in times.items()}
                rows.append((func, shape, axis, dtype, ms["nanops"], ms["bottleneck"]))
                print(f"{func} {shape} axis={axis} {dtype}: nanops {ms['nanops']:.4f} ms, "
                      f"bottleneck {ms['bottleneck']:.4f} ms, "
                      f"{ms['bottleneck'] / ms['nanops']:.2f}x", flush=True)
    lines = [
        "## bottleneck's other functions",
        "",
        f"`python3 benches/bottleneck_extras.py --rounds {args.rounds} --write` "
        f"(bottleneck {bn.__version__}; medians of {args.rounds} interleaved rounds; "
        "10% NaN in floats, integers in [-1000, 1000]):",
        "",
        "| function | shape | axis | dtype | nanops ms | bottleneck ms | bottleneck / nanops |",
        "|---|---|---|---|---:|---:|---:|",
    ]
    for func, shape, axis, dtype, t_ours, t_theirs in rows:
        lines.append(f"| `{func}` | {shape} | {axis} | {dtype} | {t_ours:.4f} | "
                     f"{t_theirs:.4f} | {t_theirs / t_ours:.2f}x |")
    table = "\n".join(lines) + "\n"
    print(table)
    if args.write:
        write_section(table)


if __name__ == "__main__":
    main()
