"""Time nanops.nanskew / nankurt against scipy.stats.skew / kurtosis with
``nan_policy="omit"`` in one process.

Float64, 10% NaN at random; each round calls every function once (rounds
interleaved), and each case reports the fastest of the rounds and the ratio
scipy / nanops. ``nanvar`` is timed too, as the kernel's yardstick.

    python3 benches/skew_vs_scipy.py              # 7 rounds
    python3 benches/skew_vs_scipy.py --rounds 15
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable

import numpy as np
import scipy.stats

import nanops

CASES = [((1000, 10000), 1), ((1000, 10000), 0), ((100000, 10), 1), ((10, 100000), 1)]


def fastest(calls: dict[str, Callable[[], object]], rounds: int) -> dict[str, float]:
    best = {name: float("inf") for name in calls}
    for _ in range(rounds):
        for name, call in calls.items():
            t = time.perf_counter()
            call()
            best[name] = min(best[name], time.perf_counter() - t)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    warnings.simplefilter("ignore", RuntimeWarning)
    print(f"{'shape':>14} axis  {'function':<9} {'nanops ms':>10} {'scipy ms':>10} {'ratio':>7}")
    for shape, axis in CASES:
        a = rng.standard_normal(shape)
        a[rng.random(shape) < 0.1] = np.nan
        calls = {
            "nanvar": lambda: nanops.nanvar(a, axis=axis),
            "nanskew": lambda: nanops.nanskew(a, axis=axis),
            "nankurt": lambda: nanops.nankurt(a, axis=axis),
            "skew": lambda: scipy.stats.skew(a, axis=axis, nan_policy="omit"),
            "kurtosis": lambda: scipy.stats.kurtosis(a, axis=axis, nan_policy="omit"),
        }
        best = fastest(calls, args.rounds)
        for ours, theirs in (("nanskew", "skew"), ("nankurt", "kurtosis")):
            print(f"{str(shape):>14} {axis:>4}  {ours:<9} {best[ours] * 1e3:>10.2f} "
                  f"{best[theirs] * 1e3:>10.2f} {best[theirs] / best[ours]:>6.1f}x")
        print(f"{str(shape):>14} {axis:>4}  {'nanvar':<9} {best['nanvar'] * 1e3:>10.2f}")


if __name__ == "__main__":
    main()
