"""The sorted window against bottleneck's double heap over window sizes:
move_median (and move_quantile against pandas) on 2M float64 values, 10% NaN,
windows 10, 100, 1000, 10000 (best of 2 calls each), and move_rank at window
1000 on 500k values. Prints one line per window (ms).

    PYTHONPATH=python python3 benches/order_windows.py
"""

import time

import bottleneck as bn
import numpy as np
import pandas as pd

import nanops

rng = np.random.default_rng(0)
a = rng.standard_normal(2_000_000)
a[rng.random(a.shape) < 0.1] = np.nan


def t(f):
    best = 1e9
    for _ in range(2):
        s = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - s)
    return best * 1e3


for w in (10, 100, 1000, 10000):
    line = "%5d median nanops %.1f bn %.1f" % (
        w, t(lambda: nanops.move_median(a, w, 1)), t(lambda: bn.move_median(a, w, 1)))
    if w <= 1000:
        line += "  quantile nanops %.1f pandas %.1f" % (
            t(lambda: nanops.move_quantile(a, w, 0.25, 1)),
            t(lambda: pd.Series(a).rolling(w, min_periods=1).quantile(0.25)))
    print(line, flush=True)
b = a[:500_000]
print("rank 1000 nanops %.1f bn %.1f" % (t(lambda: nanops.move_rank(b, 1000, 1)),
                                         t(lambda: bn.move_rank(b, 1000, 1))))
