"""Per-call time of small calls, two nanops packages side by side.

Times 1,000-element calls (where the Python layer's overhead is a visible
part of the total) of the package on ``sys.path`` (``nanops``) against a
second copy importable under another name, in one process, old and new
interleaved (each first in every other round), fastest of ``--rounds``
rounds each::

    PYTHONPATH=python python3 benches/call_overhead.py \\
        --baseline-path /work/baseline --baseline nanops_baseline

The baseline is a copy of an earlier ``python/nanops`` directory (with its
``_nanops*.so``) renamed so that both can be imported together, e.g.
``git archive REV python/nanops | tar -x -C /tmp/b`` then
``mv /tmp/b/python/nanops /tmp/b/nanops_baseline`` and copy the ``.so`` in.
Many short timings (``--number`` calls, ``--rounds`` times) find the quiet
moments of a noisy machine better than a few long ones.  Unless
``--own-compiled`` is given, the baseline package is made to use the new
package's compiled module (the same file, loaded once): two loaded copies of
one ``.so`` sit at different addresses and differ by a few percent from
process to process, which would drown the Python layers' difference.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import timeit
from typing import Any

import numpy as np


def arrays() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """1,000 float64 and float32 values with NaNs, and a (100, 10) float64 grid."""
    rng = np.random.default_rng(0)
    a64 = rng.standard_normal(1000)
    a64[::17] = np.nan
    return a64, a64.astype(np.float32), a64.reshape(100, 10).copy()


def cases(
    m: Any, a64: np.ndarray, a32: np.ndarray, grid: np.ndarray
) -> list[tuple[str, str, dict[str, Any]]]:
    """(label, statement, its globals): the statement calls ``f`` from ``m``."""
    out: list[tuple[str, str, dict[str, Any]]] = []
    for tag, a in (("f64", a64), ("f32", a32)):
        for name in ("nansum", "nanmean", "nanvar", "nanstd", "nanmin", "nanmax",
                     "nanargmax", "nanmedian"):
            out.append((f"{name} {tag}", "f(a)", {"f": getattr(m, name), "a": a}))
        out.append((f"nanquantile(a, 0.5) {tag}", "f(a, 0.5)", {"f": m.nanquantile, "a": a}))
    out.append(("nanquantile(a, [.1,.5,.9]) f64", "f(a, [0.1, 0.5, 0.9])",
                {"f": m.nanquantile, "a": a64}))
    for name in ("nansum", "nanmean", "nanmedian"):
        out.append((f"{name} (100,10) axis=1 f64", "f(a, axis=1)",
                    {"f": getattr(m, name), "a": grid}))
    out.append(("nancumsum f64 (general path)", "f(a)", {"f": m.nancumsum, "a": a64}))
    out.append(("percentile(a, 50.0) f64 (general)", "f(a, 50.0)", {"f": m.percentile, "a": a64}))
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--baseline-path", required=True, help="directory holding the copy")
    p.add_argument("--baseline", required=True, help="the copy's package name")
    p.add_argument("--rounds", type=int, default=600)
    p.add_argument("--number", type=int, default=1000, help="calls per timing")
    p.add_argument("--own-compiled", action="store_true",
                   help="let the baseline load its own copy of the compiled module")
    args = p.parse_args()
    sys.path.append(args.baseline_path)
    new = importlib.import_module("nanops")
    if not args.own_compiled:
        sys.modules[f"{args.baseline}._nanops"] = new._nanops
    old = importlib.import_module(args.baseline)
    print(f"new: {new.__file__}\nold: {old.__file__}")
    old_compiled = sys.modules[f"{args.baseline}._nanops"]
    print(f"compiled: new {new._nanops.__file__}, old {old_compiled.__file__}")
    print(f"{'call':34} {'old us':>8} {'new us':>8} {'new/old':>8}")
    # the same arrays for both: the kernels' speed depends on the alignment
    data = arrays()
    for (name, stmt, g_old), (_, _, g_new) in zip(cases(old, *data), cases(new, *data)):
        results = [eval(stmt, g) for g in (g_old, g_new)]
        assert np.array_equal(*results, equal_nan=True), name
        best = {"old": float("inf"), "new": float("inf")}
        sides = [("old", g_old), ("new", g_new)]
        for _ in range(args.rounds):
            sides.reverse()  # each goes first in every other round
            for side, g in sides:
                t = timeit.timeit(stmt, globals=g, number=args.number) / args.number
                best[side] = min(best[side], t)
        ratio = best["new"] / best["old"]
        print(f"{name:34} {best['old'] * 1e6:8.3f} {best['new'] * 1e6:8.3f} {ratio:8.3f}")


if __name__ == "__main__":
    main()
