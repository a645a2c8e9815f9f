"""Time weighted dask quantiles (``nanops._dask_weighted``) against the
rechunking path they replace, on a LocalCluster (two worker processes,
one thread each).

A float32 (time, y, x) cube with 10% NaN is generated lazily on the workers
(``dask.array.random``: generated again by every computation, and twice by
the selection, whose second pass reads the chunks again) and reduced by
``nanops.nanquantile(x, [.1, .5, .9], axis=0, method="inverted_cdf",
weights=lane)`` with integer weights along time, against the previous
implementation (time rechunked into one chunk, nanops per block).  Rounds
alternate; each row gives the fastest round and the workers' peak summed
memory (``distributed.diagnostics.MemorySampler``); the results are
checked equal.

    PYTHONPATH=python python3 benches/dask_weighted_cluster.py SHAPE CHUNKS
    PYTHONPATH=python python3 benches/dask_weighted_cluster.py 4000,100,100 500,100,100
"""

from __future__ import annotations

import functools
import sys
import time
import warnings

import dask.array as da
import distributed
import numpy as np
from distributed.diagnostics import MemorySampler

import nanops
from nanops import dask as nanops_dask

Q = [0.1, 0.5, 0.9]


def cube(shape: tuple[int, ...], chunks: tuple[int, ...]) -> da.Array:
    rng = da.random.default_rng(0)
    x = rng.standard_normal(shape, chunks=chunks, dtype=np.float32)
    return da.where(rng.random(shape, chunks=chunks) < 0.1, np.float32(np.nan), x)


def selection(x: da.Array, lane: np.ndarray) -> da.Array:
    return nanops.nanquantile(x, Q, axis=0, method="inverted_cdf", weights=lane)


def rechunked(x: da.Array, lane: np.ndarray) -> da.Array:
    """The previous implementation: time in one chunk, nanops per block."""
    xr = x.rechunk({0: -1})
    w = da.broadcast_to(da.from_array(lane.reshape(-1, 1, 1).astype(np.float64)), x.shape)
    fn = functools.partial(nanops_dask._weighted_block, "nanquantile", Q, (0,), "inverted_cdf")
    return da.map_blocks(fn, xr, w.rechunk(xr.chunks), dtype=np.float32,
                         chunks=((len(Q),), (1,)) + xr.chunks[1:], new_axis=[0]).squeeze(axis=1)


def main() -> None:
    shape = tuple(int(v) for v in sys.argv[1].split(","))
    chunks = tuple(int(v) for v in sys.argv[2].split(","))
    lane = np.random.default_rng(1).integers(1, 5, shape[0])
    warnings.simplefilter("ignore")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=50) as cluster, \
            distributed.Client(cluster) as client:
        sampler = MemorySampler()
        times: dict[str, list[float]] = {}
        for r in range(2):
            results = []
            for label, build in (("selection", selection), ("rechunk", rechunked)):
                with sampler.sample(f"{label}{r}", interval=0.05):
                    start = time.perf_counter()
                    results.append(client.compute(build(cube(shape, chunks), lane)).result())
                    times.setdefault(label, []).append(time.perf_counter() - start)
            np.testing.assert_array_equal(results[0], results[1])
        frame = sampler.to_pandas()
        for label, ts in times.items():
            peak = max(frame[f"{label}{r}"].max() for r in range(2)) / 2**20
            print(f"{shape} in {chunks}: {label:9s} {min(ts):6.2f} s "
                  f"(rounds {', '.join(f'{t:.2f}' for t in ts)}), workers' peak {peak:.0f} MiB")


if __name__ == "__main__":
    main()
