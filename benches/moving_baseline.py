"""Time nanops' moving sums, means and variances against an earlier build
of nanops, paired in one process (rounds interleaved, the order of the two
alternating), and print the ratio earlier / current per case.

``DIR/nanops_baseline`` is a copy of an earlier installed ``nanops``
package renamed (as for ``benches/compare.py --baseline``); the current
build is the ``nanops`` on ``sys.path``. The cases are those of
``benches/moving.py``: 10% NaN, ``min_count=1``, 1-d 10M values, (1000,
10000) along axis -1 and (10000, 1000) along axis 0, windows 10, 100, 1000,
float64 and float32; the fastest of ``--rounds`` calls each.

    python3 benches/moving_baseline.py --baseline DIR
    python3 benches/moving_baseline.py --baseline DIR --funcs sum,var --rounds 5
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings

import numpy as np


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, help="directory holding nanops_baseline")
    parser.add_argument("--funcs", default="sum,mean,var,std")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, args.baseline)
    import nanops
    import nanops_baseline

    warnings.simplefilter("ignore")
    rng = np.random.default_rng(0)
    print(f"{'dtype':8} {'shape':15} {'axis':>4} {'window':>6} {'func':5} "
          f"{'earlier ms':>10} {'current ms':>10} {'earlier / current':>17}")
    worst = np.inf
    for dtype in ("float64", "float32"):
        for shape, axis in (((10_000_000,), -1), ((1000, 10000), -1), ((10000, 1000), 0)):
            a = rng.random(shape).astype(dtype)
            a[rng.random(shape) < 0.1] = np.nan
            for window in (10, 100, 1000):
                for func in args.funcs.split(","):
                    best = {"earlier": np.inf, "current": np.inf}
                    libs = [("earlier", nanops_baseline), ("current", nanops)]
                    for r in range(args.rounds):
                        for key, lib in libs if r % 2 == 0 else libs[::-1]:
                            fn = getattr(lib, f"move_{func}")
                            t = time.perf_counter()
                            fn(a, window, min_count=1, axis=axis)
                            best[key] = min(best[key], time.perf_counter() - t)
                    ratio = best["earlier"] / best["current"]
                    worst = min(worst, ratio)
                    print(f"{dtype:8} {str(shape):15} {axis:>4} {window:>6} {func:5} "
                          f"{best['earlier'] * 1e3:10.1f} {best['current'] * 1e3:10.1f} "
                          f"{ratio:17.2f}", flush=True)
    print(f"lowest earlier / current: {worst:.2f}")


if __name__ == "__main__":
    main()
