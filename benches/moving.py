"""Time nanops' moving windows against bottleneck, numbagg and pandas
(``Series.rolling`` / ``DataFrame.rolling``) in one process.

10% NaN at random, float64 and float32; 1-d 10M values, (1000, 10000)
along axis -1 and (10000, 1000) along axis 0; windows 10, 100, 1000;
``min_count=1``. Each round calls every function once (rounds
interleaved); a case reports the fastest of its rounds for each library and
the ratio fastest peer / nanops. pandas works along axis 0 of a frame: the
(1000, 10000) case hands it the transposed frame (the same lanes).

    python3 benches/moving.py                    # 3 rounds, prints a table
    python3 benches/moving.py --write            # and rewrites BENCHMARKS.md's section
    python3 benches/moving.py --funcs mean,max --rounds 5
"""

from __future__ import annotations

import argparse
import os
import re
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import bottleneck as bn
import numbagg
import numpy as np
import pandas as pd

import nanops

CASES = [((10_000_000,), -1), ((1000, 10000), -1), ((10000, 1000), 0)]
WINDOWS = (10, 100, 1000)
FUNCS = ("sum", "mean", "var", "std", "min", "max")


def peers(func: str, a: np.ndarray, w: int, axis: int) -> dict[str, Callable[[], object]]:
    calls: dict[str, Callable[[], object]] = {}
    name = f"move_{func}"
    calls["bottleneck"] = lambda: getattr(bn, name)(a, w, min_count=1, axis=axis)
    if hasattr(numbagg, name):
        # numbagg's move_var/move_std have ddof fixed at 1 (the same work)
        f = getattr(numbagg, name)
        calls["numbagg"] = lambda: f(a, window=w, min_count=1, axis=axis)
    if a.ndim == 1:
        obj: pd.Series | pd.DataFrame = pd.Series(a)
    else:
        obj = pd.DataFrame(a if axis == 0 else a.T)
    kw2 = {"ddof": 0} if func in ("var", "std") else {}
    calls["pandas"] = lambda: getattr(obj.rolling(w, min_periods=1), func)(**kw2)
    return calls


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
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--funcs", default=",".join(FUNCS))
    parser.add_argument("--dtypes", default="float64,float32")
    parser.add_argument("--write", action="store_true", help="rewrite BENCHMARKS.md's section")
    args = parser.parse_args()
    warnings.simplefilter("ignore", RuntimeWarning)
    rng = np.random.default_rng(0)
    # numbagg compiles on first use: warm every kernel once
    small = rng.standard_normal(100)
    for dt in ("float64", "float32"):
        for f in ("move_sum", "move_mean", "move_var", "move_std"):
            getattr(numbagg, f)(small.astype(dt), window=10, min_count=1)
    head = (f"| {'shape':>14} | axis | dtype   | func | window | nanops ms | bottleneck ms "
            f"| numbagg ms | pandas ms | peer / nanops |")
    rule = "|" + "|".join("-" * (len(c)) for c in head.split("|")[1:-1]) + "|"
    lines = [head, rule]
    print(head)
    print(rule)
    for shape, axis in CASES:
        for dt in args.dtypes.split(","):
            a = rng.standard_normal(shape).astype(dt)
            a[rng.random(shape) < 0.1] = np.nan
            for func in args.funcs.split(","):
                for w in WINDOWS:
                    calls = {"nanops": lambda: getattr(nanops, f"move_{func}")(a, w, 1, axis)}
                    calls |= peers(func, a, w, axis)
                    best = fastest(calls, args.rounds)
                    peer = min(v for k, v in best.items() if k != "nanops")
                    cell = lambda k: f"{best[k] * 1e3:.1f}" if k in best else "—"  # noqa: E731
                    line = (f"| {str(shape):>14} | {axis:>4} | {dt:<7} | {func:<4} | {w:>6} "
                            f"| {cell('nanops'):>9} | {cell('bottleneck'):>13} | {cell('numbagg'):>10} "
                            f"| {cell('pandas'):>9} | {peer / best['nanops']:>12.1f}x |")
                    print(line, flush=True)
                    lines.append(line)
    if args.write:
        path = Path(__file__).resolve().parent.parent / "BENCHMARKS.md"
        text = path.read_text()
        cmd = "python3 benches/moving.py --write" + (
            f" --rounds {args.rounds}" if args.rounds != 3 else "")
        section = (
            "## Moving windows\n\n"
            f"`{cmd}` ({os.cpu_count()} CPUs; bottleneck {bn.__version__}, numbagg "
            f"{numbagg.__version__}, pandas {pd.__version__}; fastest of {args.rounds} interleaved "
            "rounds; 10% NaN, `min_count=1`; pandas along axis 0 of a frame, the transposed one "
            "for axis -1):\n\n" + "\n".join(lines) + "\n"
        )
        if "## Moving windows" in text:
            text = re.sub(r"## Moving windows\n.*?(?=\n## |\Z)", section.rstrip("\n") + "\n",
                          text, flags=re.S)
        else:
            text = text.rstrip("\n") + "\n\n" + section
        path.write_text(text)


if __name__ == "__main__":
    main()
