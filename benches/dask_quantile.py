"""Time nanops' exact distributed quantiles against dask's own on a LocalCluster.

A float32 (time, lat, lon) cube with 10% NaN, chunked along time only
(about ``--chunk-mb`` per chunk), is generated lazily on the workers
(``dask.array.random``: every computation generates it again, so nothing
but the statistic's own work stays in memory), and reduced by
``nanops.nanquantile(x, [.1, .5, .9], axis=0)`` (per chunk counts and a grid
sample, brackets, one selecting pass, the final selection per block of
outputs: no rechunk) and ``dask.array.nanquantile`` (which rechunks time into
one chunk first), by ``nanmedian`` both ways, and over ``axis=None`` (nanops
only: dask has no quantile over several axes). Rounds are interleaved; a case
reports the fastest round of each and the workers' peak summed memory during
its rounds (``distributed.diagnostics.MemorySampler``).

    python3 benches/dask_quantile.py                  # (730, 361, 400): 0.4 GB
    python3 benches/dask_quantile.py --shape 3650,721,800 --write   # the issue's 8 GB
    python3 benches/dask_quantile.py --cases quantile0,quantileNone   # some rows only
    python3 benches/dask_quantile.py --persist        # the cube held on the workers

``--write`` saves the rows (seconds, peak MB) to
``benches/results/dask_quantile.json`` (``dask_quantile_persist.json`` with
``--persist``); ``python3 benches/report.py --assemble`` renders them into
BENCHMARKS.md.

With ``--persist`` the cube is generated once and held on the workers, so
the rows time the statistics' own work (nanops' two passes then read memory
instead of generating the cube twice).
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable

import dask.array as da
import distributed
import numpy as np
from distributed.diagnostics import MemorySampler

import nanops
from _report import command_line, save

Q = [0.1, 0.5, 0.9]
#: The rows, in the order they run.
CASE_KEYS = ("quantile0", "median0", "quantileNone", "generation")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", default="730,361,400")
    parser.add_argument("--chunk-mb", type=float, default=100.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--write", action="store_true", help="save the rows to benches/results/")
    parser.add_argument("--cases", default="quantile0,median0,quantileNone,generation",
                        help="rows to run (comma-separated): " + ", ".join(CASE_KEYS))
    parser.add_argument("--persist", action="store_true",
                        help="generate the cube once and hold it on the workers")
    args = parser.parse_args()
    wanted = args.cases.split(",")
    unknown = sorted(set(wanted) - set(CASE_KEYS))
    if unknown:
        parser.error(f"unknown cases {unknown}; choose from {', '.join(CASE_KEYS)}")
    warnings.simplefilter("ignore", RuntimeWarning)
    shape = tuple(int(n) for n in args.shape.split(","))
    per_step = shape[1] * shape[2] * 4
    steps = max(1, int(args.chunk_mb * 1e6 // per_step))
    chunks = (steps, shape[1], shape[2])
    rng = da.random.default_rng(0)
    x = rng.standard_normal(shape, chunks=chunks, dtype=np.float32)
    x = da.where(rng.random(shape, chunks=chunks) < 0.1, np.float32(np.nan), x)
    cases: list[tuple[str, str, str, dict[str, Callable[[], object]]]] = [
        ("quantile0", "nanquantile(q=[.1, .5, .9])", "0", {
            "nanops": lambda: nanops.nanquantile(x, Q, axis=0).compute(),
            "dask": lambda: da.nanquantile(x, Q, axis=0).compute(),
        }),
        ("median0", "nanmedian", "0", {
            "nanops": lambda: nanops.nanmedian(x, axis=0).compute(),
            "dask": lambda: da.nanmedian(x, axis=0).compute(),
        }),
        ("quantileNone", "nanquantile(q=[.1, .5, .9])", "None", {
            "nanops": lambda: nanops.nanquantile(x, Q).compute(),
        }),
        ("generation", "nanmean (generation alone, for scale)", "0", {
            "nanops": lambda: nanops.nanmean(x, axis=0).compute(),
        }),
    ]
    cases = [c for c in cases if c[0] in wanted]
    with distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1,
                                  dashboard_address=None, silence_logs=50) as cluster, \
            distributed.Client(cluster):
        if args.persist:
            held = x.persist()
            distributed.wait(held)
            x = held
        sampler = MemorySampler()
        head = ("| func | axis | nanops s | dask s | dask / nanops | nanops peak MB "
                "| dask peak MB |")
        rule = "|" + "|".join("-" * len(c) for c in head.split("|")[1:-1]) + "|"
        rows: list[dict[str, object]] = []
        print(f"{shape} float32, chunks {chunks}, {args.workers} workers", flush=True)
        print(head)
        print(rule)
        for _, name, axis, calls in cases:
            best = {k: float("inf") for k in calls}
            peak = {k: 0.0 for k in calls}
            for r in range(args.rounds):
                for k, call in calls.items():
                    label = f"{k}-{name}-{axis}-{r}"
                    with sampler.sample(label, interval=0.05):
                        t = time.perf_counter()
                        call()
                        best[k] = min(best[k], time.perf_counter() - t)
                    frame = sampler.to_pandas()
                    peak[k] = max(peak[k], float(frame[label].max()) / 1e6)
            if "dask" in calls:
                tail = (f"{best['dask']:.2f} | {best['dask'] / best['nanops']:.2f}x | "
                        f"{peak['nanops']:.0f} | {peak['dask']:.0f} |")
            else:
                tail = f"— | — | {peak['nanops']:.0f} | — |"
            line = f"| {name} | {axis} | {best['nanops']:.2f} | {tail}"
            print(line, flush=True)
            rows.append({"func": name, "axis": axis, "time": best, "peak_mb": peak})
    if args.write:
        save("dask_quantile_persist" if args.persist else "dask_quantile",
             "dask quantiles on a LocalCluster" + (", cube held in memory" if args.persist else ""),
             rows, command=command_line("dask_quantile.py"), statistic="fastest",
             rounds=args.rounds, unit="s",
             params={"shape": shape, "chunks": chunks, "workers": args.workers})


if __name__ == "__main__":
    main()
