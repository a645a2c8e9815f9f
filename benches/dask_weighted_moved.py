"""How many values the weighted dask quantiles move (``nanops._dask_weighted``).

Along axis 0 of a (200, 50) float64 array with 10% NaN in chunks of 20, the
second pass's select tasks return, per output and bracket, the values
inside the bracket (exact outputs) or every positive-weight value
(gathered outputs); this counts them for integer, dyadic (``k/8``) and
random float weights, both weighted methods, one and three ``q``, beside
the unweighted selection's values inside its brackets.  Each result is
checked against nanops on the computed array.

    PYTHONPATH=python python3 benches/dask_weighted_moved.py
"""

from __future__ import annotations

from typing import Any

import dask.array as da
import numpy as np
from dask.core import get

import nanops


def moved(lazy: Any, layer: str) -> tuple[int, int]:
    """(values inside brackets, values gathered) over the select tasks."""
    graph = dict(lazy.__dask_graph__())
    parts = get(graph, [k for k in graph if isinstance(k, tuple) and layer in k[0]])
    if layer == "order-select":
        return sum(a.size for p in parts for g in p for a in g["inside"]), 0
    return (sum(e["values"].size for p in parts for g in p for e in g["inside"]),
            sum(g["gathered"]["values"].size for p in parts for g in p))


def main() -> None:
    rng = np.random.default_rng(8)
    values = rng.standard_normal((200, 50))
    values[rng.random(values.shape) < 0.1] = np.nan
    n = int(np.count_nonzero(~np.isnan(values)))
    x = da.from_array(values, chunks=(20, 50))
    print(f"non-NaN values: {n}")
    for q in (0.5, [0.1, 0.5, 0.9]):
        inside, _ = moved(nanops.nanquantile(x, q, axis=0, method="inverted_cdf"),
                          "order-select")
        print(f"unweighted {'':22s} q={q!s:16s} inside={inside:5d} ({100 * inside / n:.1f}%)")
    kinds = {"int 1..9": rng.integers(1, 10, values.shape),
             "int 0..9": rng.integers(0, 10, values.shape),
             "k/8": rng.integers(0, 17, values.shape) / 8,
             "random": rng.random(values.shape)}
    for kind, w in kinds.items():
        for method in ("inverted_cdf", "averaged_inverted_cdf"):
            for q in (0.5, [0.1, 0.5, 0.9]):
                lazy = nanops.nanquantile(x, q, axis=0, method=method, weights=w)
                inside, gathered = moved(lazy, "wquantile-select")
                np.testing.assert_array_equal(
                    lazy.compute(scheduler="synchronous"),
                    nanops.nanquantile(values, q, axis=0, method=method, weights=w))
                print(f"{kind:9s}  {method:22s} q={q!s:16s} inside={inside:5d} "
                      f"({100 * inside / n:.1f}%) gathered={gathered:5d} "
                      f"({100 * gathered / n:.1f}%)")


if __name__ == "__main__":
    main()
