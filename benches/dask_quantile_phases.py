"""Time the four task functions of nanops' exact dask quantile in one process.

The selection behind ``nanops.nanquantile(dask_array, q, axis=0)``
(``nanops._dask_order``) runs ``_stats`` per chunk, ``_brackets`` per group
of outputs, ``_select`` per chunk and ``_finish`` per group; this script
calls them directly on in-memory chunks along the first axis of a float32
(time, outputs) array (10% NaN), checks the result against
``nanops.nanquantile`` of the whole array bit for bit, and prints each
phase's time next to nanops on the whole array.

    python3 benches/dask_quantile_phases.py                 # (1460, 72000) in 34 chunks of 43
    python3 benches/dask_quantile_phases.py --outputs 577000 # the 3.4 GB cube's outputs
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import nanops
from nanops import _dask_order as order
from nanops.dask import _order_plan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1460)
    parser.add_argument("--outputs", type=int, default=72000)
    parser.add_argument("--chunk", type=int, default=43)
    parser.add_argument("--k", type=int, default=None,
                        help="grid intervals per chunk (default: the graph's choice)")
    args = parser.parse_args()
    q = [0.1, 0.5, 0.9]
    rng = np.random.default_rng(0)
    chunks = []
    for start in range(0, args.steps, args.chunk):
        x = rng.standard_normal((min(args.chunk, args.steps - start), args.outputs),
                                dtype=np.float32)
        x[rng.random(x.shape) < 0.1] = np.nan
        chunks.append(x)
    plan = _order_plan("nanquantile", np.dtype(np.float32), q, "linear", None)
    assert plan is not None
    k = args.k or order.grid_size(args.chunk, len(q))
    n = args.outputs
    step = max(1, -(-n // max(1, -(-n // order._ROWS_PER_GROUP))))
    groups = [slice(s, min(s + step, n)) for s in range(0, n, step)]
    times = {}
    t = time.perf_counter()
    stats = [order._stats(x, (0,), k, groups) for x in chunks]
    times["stats"] = time.perf_counter() - t
    t = time.perf_counter()
    brackets = [order._brackets([s[g] for s in stats], k, plan) for g in range(len(groups))]
    times["brackets"] = time.perf_counter() - t
    keys = [{"lo": b["lo"], "hi": b["hi"], "active": b["active"]} for b in brackets]
    t = time.perf_counter()
    selected = [order._select(x, (0,), keys) for x in chunks]
    times["select"] = time.perf_counter() - t
    t = time.perf_counter()
    parts = [order._finish([s[g] for s in selected], brackets[g], plan)
             for g in range(len(groups))]
    times["finish"] = time.perf_counter() - t
    whole = np.concatenate(chunks)
    t = time.perf_counter()
    want = nanops.nanquantile(whole, q, axis=0)
    times["nanops on the whole array"] = time.perf_counter() - t
    assert np.array_equal(np.concatenate(parts, axis=1), want, equal_nan=True)
    print(f"float32 ({args.steps}, {n}) in {len(chunks)} chunks of {args.chunk}, k = {k}:")
    for name, secs in times.items():
        print(f"  {name:28s} {secs:7.2f} s")
    # what the workers hold: every chunk's grids until its group's brackets,
    # every chunk's selected part until its group's finish
    held_stats = sum(_nbytes(s) for s in stats)
    held_selected = sum(_nbytes(s) for s in selected)
    print(f"  held: grids {held_stats / 1e6:.0f} MB, selected parts {held_selected / 1e6:.0f} MB"
          f" (the input: {whole.nbytes / 1e6:.0f} MB)")


def _nbytes(obj: object) -> int:
    """The bytes of the arrays in nested lists, tuples and dicts."""
    if isinstance(obj, np.ndarray):
        return obj.nbytes
    if isinstance(obj, dict):
        return sum(_nbytes(v) for v in obj.values())
    if isinstance(obj, (list, tuple)):
        return sum(_nbytes(v) for v in obj)
    return 0


if __name__ == "__main__":
    main()
