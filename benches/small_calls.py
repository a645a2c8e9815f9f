"""Per-call cost of 1,000-element reductions: nanops against bottleneck.

The fastest of 200 loops of 200 calls each (microseconds per call), one
process, float64 and float32, 10% NaN. Minima, not medians: on a shared
machine the fastest loop is the one least disturbed, and at a microsecond
per call a single disturbance would dominate a median. `compare.py` gives
the interleaved medians the issue asks for; this script checks their
1,000-element rows.

    python3 benches/small_calls.py
"""

from __future__ import annotations

import time
from collections.abc import Callable

import bottleneck as bn
import numpy as np

import nanops

FUNCS = ["nansum", "nanmean", "nanvar", "nanmin", "nanmax", "nanargmax", "nanmedian"]


def fastest_us(fn: Callable[[], object], loops: int = 200, calls: int = 200) -> float:
    """Microseconds per call of the fastest loop."""
    best = float("inf")
    for _ in range(loops):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - t0) / calls)
    return best * 1e6


def main() -> None:
    rng = np.random.default_rng(0)
    for dtype in (np.float64, np.float32):
        a = (rng.random(1000) * 100).astype(dtype)
        a[rng.random(1000) < 0.1] = np.nan
        for name in FUNCS:
            ours = fastest_us(lambda: getattr(nanops, name)(a))
            theirs = fastest_us(lambda: getattr(bn, name)(a))
            print(f"{np.dtype(dtype).name:8} {name:10} nanops {ours:6.2f} us  "
                  f"bottleneck {theirs:6.2f} us  ratio {theirs / ours:5.2f}")


if __name__ == "__main__":
    main()
