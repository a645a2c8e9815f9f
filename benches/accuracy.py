"""Relative errors of nanops, NumPy, bottleneck and numbagg against exact values.

A handful of ill-conditioned cases (10% NaN, seeded): large offsets, mixed
magnitudes, cancelling pairs, float16 overflow of the running sum. The exact
value of each reduction is computed in integer and ``Fraction`` arithmetic by
the reference of ``tests/python/test_accuracy.py`` (checked there against
``math.fsum``); the inputs are that module's. Prints the table and saves
it to ``benches/results/accuracy.json`` (``python3 benches/report.py
--assemble`` renders it into BENCHMARKS.md, section "Accuracy").

    python3 benches/accuracy.py              # prints and saves (--write: the same)
    python3 benches/accuracy.py --no-write   # print only
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
from _report import command_line, save

import nanops

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "python"))
from test_accuracy import call, data, error, exact_of, reference  # noqa: E402

try:
    import bottleneck as bn
except ImportError:  # pragma: no cover - optional peer
    bn = None
try:
    import numbagg as nb
except ImportError:  # pragma: no cover - optional peer
    nb = None

LIBS = ("nanops", "NumPy", "bottleneck", "numbagg")

# (label, case of test_accuracy.CASES, dtype, function)
CASES: list[tuple[str, str, Any, str]] = [
    ("float32, 10M, 1e4 + N(0,1)", "offset1e4_10M", np.float32, "nansum"),
    ("float32, 10M, 1e4 + N(0,1)", "offset1e4_10M", np.float32, "nanmean"),
    ("float32, 10M, 1e4 + N(0,1)", "offset1e4_10M", np.float32, "nanvar"),
    ("float32, 1M, near 3.4e38", "top_f32", np.float32, "nanmean"),
    ("float16, 20k, 10 + N(0,0.1)", "near10_20k", np.float16, "nanmean"),
    ("float16, 1M, U(0, 0.04)", "small_f16", np.float16, "nansum"),
    ("float64, 1M, 1e8 + N(0,1)", "offset1e8", np.float64, "nanvar"),
    ("float64, 1M, 10^U(-8,8)", "mixed", np.float64, "nansum"),
    ("float64, 1M, ±x pairs up to 1e8 + U(0,1)", "cancel", np.float64, "nansum"),
]


class _Numbagg:
    """numbagg's reductions over a whole 1-d array (it has no ``axis=None``)."""

    def __getattr__(self, name: str) -> Callable[..., Any]:
        fn = getattr(nb, name)
        return lambda a, **kw: fn(a, axis=-1, **kw)


def peers() -> dict[str, Any]:
    """Each library as a module-like object, None when absent."""
    return {"nanops": nanops, "NumPy": np, "bottleneck": bn, "numbagg": _Numbagg() if nb else None}


def relative_error(lib: Any, func: str, a: np.ndarray, want: Fraction) -> str:
    """``|got - want| / |want|`` as ``3.1e-08``; 'inf'/'nan' for such results,
    '—' when the library lacks the function or the dtype; '†' marks a result
    in another dtype than the input's (NumPy's result dtype)."""
    if lib is None:
        return "—"
    try:
        got = call(lib, func, a)
    except (AttributeError, TypeError, ValueError, NotImplementedError):
        return "—"
    except Exception as exc:  # numba's typing errors are not public classes
        if type(exc).__module__.startswith("numba"):
            return "—"
        raise
    mark = "" if np.asarray(got).dtype == a.dtype else " †"
    g = float(got)
    if math.isnan(g):
        return "nan" + mark
    if math.isinf(g):
        return "inf" + mark
    err = error(got, want) / abs(want)
    return ("0" if err == 0 else f"{float(err):.1e}") + mark


def measure() -> list[tuple[str, str, dict[str, str]]]:
    rows = []
    libs = peers()
    for label, case, dtype, func in CASES:
        a = data(case, dtype)
        want = reference(func, exact_of(case, dtype))
        errs = {name: relative_error(lib, func, a, want) for name, lib in libs.items()}
        rows.append((label, func, errs))
        print(f"{label:42} {func:8} " + "  ".join(f"{k} {v:>10}" for k, v in errs.items()), flush=True)
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--no-write", action="store_true", help="print only")
    p.add_argument("--write", action="store_true", help="save the rows (the default)")
    args = p.parse_args()
    rows = measure()
    if not args.no_write:
        save("accuracy", "Accuracy",
             [{"case": label, "function": func, "errors": {k: errs[k] for k in LIBS}}
              for label, func, errs in rows],
             command=command_line("accuracy.py"), statistic=None, rounds=None, unit="")


if __name__ == "__main__":
    main()
