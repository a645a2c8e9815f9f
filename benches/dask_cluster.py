"""Time nanops' lazy dask reductions against dask's own on a LocalCluster.

A float32 (time, lat, lon) cube with 10% NaN is generated on the cluster's
workers (``dask.array.random``), persisted in their memory, and reduced over
time (``axis=0``) and over everything (``axis=None``) by ``nanops.<name>``
(nanops' kernels per chunk, partial states merged up the tree) and by
``dask.array.<name>`` (NumPy per chunk). Rounds are interleaved; a case
reports the fastest round of each and the peak memory of the workers during
its rounds (``distributed.diagnostics.MemorySampler``).

    python3 benches/dask_cluster.py                     # (730, 361, 400): 0.4 GB
    python3 benches/dask_cluster.py --shape 3650,721,800 --write   # the issue's 8 GB

``--write`` saves the rows (seconds, peak MB) to
``benches/results/dask.json``; ``python3 benches/report.py --assemble``
renders them into BENCHMARKS.md.

``--before`` adds, interleaved, the chunk states computed as before
``_nanops.partial_states`` (one nanops call per state field: ``nancount``,
``nansum``, ``nanmean``, ``nanvar``), patched into the workers for its
rounds, and its ratio to the one-pass states.
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

CASES: list[tuple[str, dict[str, object]]] = [
    ("nanmean", {"axis": 0}),
    ("nanvar", {"axis": 0}),
    ("nanstd", {"axis": 0, "ddof": 1}),
    ("nanmax", {"axis": 0}),
    ("nansum", {"axis": None}),
    ("nanmean", {"axis": None}),
    ("nanvar", {"axis": None}),
]


def _one_call_per_field(on: bool) -> None:
    """In a worker: chunk states by one nanops call per field (``on``), or
    by ``_nanops.partial_states`` again."""
    from nanops import states

    if on:
        states._saved_one_pass = states._one_pass  # type: ignore[attr-defined]
        states._one_pass = lambda *_: False  # type: ignore[assignment]
    elif hasattr(states, "_saved_one_pass"):
        states._one_pass = states._saved_one_pass


def _by_calls(client: distributed.Client, call: Callable[[], object]) -> object:
    """``call()`` with the workers' chunk states computed as before
    ``_nanops.partial_states``."""
    client.run(_one_call_per_field, True)
    try:
        return call()
    finally:
        client.run(_one_call_per_field, False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", default="730,361,400")
    parser.add_argument("--chunk-mb", type=float, default=100.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--write", action="store_true", help="save the rows to benches/results/")
    parser.add_argument("--before", action="store_true",
                        help="also time the states computed one call per field")
    args = parser.parse_args()
    warnings.simplefilter("ignore", RuntimeWarning)
    shape = tuple(int(n) for n in args.shape.split(","))
    per_step = shape[1] * shape[2] * 4
    steps = max(1, int(args.chunk_mb * 1e6 // per_step))
    chunks = (steps, shape[1], shape[2])
    with distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1,
                                  dashboard_address=None, silence_logs=50) as cluster, \
            distributed.Client(cluster) as client:
        rng = da.random.default_rng(0)
        x = rng.standard_normal(shape, chunks=chunks, dtype=np.float32)
        x = da.where(rng.random(shape, chunks=chunks) < 0.1, np.float32(np.nan), x)
        x = x.persist()
        distributed.wait(x)
        sampler = MemorySampler()
        head = ("| func | axis | nanops s | dask s | dask / nanops | nanops peak MB "
                "| dask peak MB |")
        if args.before:
            head += " one call per field s | before / now |"
        rule = "|" + "|".join("-" * len(c) for c in head.split("|")[1:-1]) + "|"
        rows: list[dict[str, object]] = []
        print(f"{shape} float32, chunks {chunks}, {args.workers} workers", flush=True)
        print(head)
        print(rule)
        for name, kwargs in CASES:
            calls: dict[str, Callable[[], object]] = {
                "nanops": lambda: getattr(nanops, name)(x, **kwargs).compute(),
                "dask": lambda: getattr(da, name)(x, **kwargs).compute(),
            }
            if args.before:
                calls["before"] = lambda: _by_calls(
                    client, lambda: getattr(nanops, name)(x, **kwargs).compute())
            best = {k: float("inf") for k in calls}
            peak = {k: 0.0 for k in calls}
            for r in range(args.rounds):
                for k, call in calls.items():
                    label = f"{k}-{name}-{r}"
                    with sampler.sample(label, interval=0.05):
                        t = time.perf_counter()
                        call()
                        best[k] = min(best[k], time.perf_counter() - t)
                    frame = sampler.to_pandas()
                    peak[k] = max(peak[k], float(frame[label].max()) / 1e6)
            line = (f"| {name} | {kwargs.get('axis')} | {best['nanops']:.3f} | "
                    f"{best['dask']:.3f} | {best['dask'] / best['nanops']:.2f}x | "
                    f"{peak['nanops']:.0f} | {peak['dask']:.0f} |")
            if args.before:
                line += f" {best['before']:.3f} | {best['before'] / best['nanops']:.2f}x |"
            print(line, flush=True)
            rows.append({"func": name, "axis": kwargs.get("axis"), "time": best, "peak_mb": peak})
    if args.write:
        save("dask", "dask on a LocalCluster", rows, command=command_line("dask_cluster.py"),
             statistic="fastest", rounds=args.rounds, unit="s",
             params={"shape": shape, "chunks": chunks, "workers": args.workers})


if __name__ == "__main__":
    main()
