"""Time nanops' group-by reductions (``group_nan*``) against numbagg's
``group_nan*``, flox's ``groupby_reduce`` (numpy and numbagg engines) and
pandas ``Series.groupby`` in one process.

10M and 1M values, 10% NaN at random, float64 and float32; 10 / 1,000 /
100,000 groups; labels sorted (runs of equal labels) and random. Each round
calls every function once (rounds interleaved; three times the rounds for
1M values); a case reports the fastest of its rounds for each library and
the ratio fastest peer / nanops. Peers get the same labels (no negative
ones) and the number of groups where they take it.

    python3 benches/group.py                        # 3 rounds, prints a table
    python3 benches/group.py --write                # and saves benches/results/group.json
    python3 benches/group.py --funcs sum,mean --groups 10,1000 --rounds 2

``--write`` saves the rows with their raw times; ``python3 benches/report.py
--assemble`` renders them into BENCHMARKS.md (section "Group-by").
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable

import _omp_passive  # noqa: F401  (first: before numba starts its threads)
import numbagg
import numpy as np
import pandas as pd

import nanops
from _report import command_line, save

try:
    import flox
except ImportError:  # flox is optional
    flox = None

SIZES = (10_000_000, 1_000_000)
FUNCS = ("sum", "mean", "var", "std", "min", "max", "count", "first", "last", "median",
         "quantile")
#: numbagg has no group median or quantile; flox's numbagg engine falls back
#: to its numpy engine for them (so only flox-numpy is timed)
ORDER = ("median", "quantile")
Q = 0.9
GROUPS = (10, 1000, 100_000)


def peers(func: str, a: np.ndarray, labels: np.ndarray, g: int) -> dict[str, Callable[[], object]]:
    calls: dict[str, Callable[[], object]] = {}
    if func not in ORDER:
        nb = getattr(numbagg, f"group_nan{func}")
        calls["numbagg"] = lambda: nb(a, labels, num_labels=g)
    if flox is not None:
        groups = np.arange(g)
        kw = {"finalize_kwargs": {"q": Q}} if func == "quantile" else {}
        for engine in ("numpy",) if func in ORDER else ("numpy", "numbagg"):
            calls[f"flox-{engine}"] = lambda e=engine: flox.groupby_reduce(
                a, labels, func="count" if func == "count" else f"nan{func}",
                expected_groups=groups, engine=e, **kw)
    grouped = pd.Series(a).groupby(labels)
    if func == "quantile":
        calls["pandas"] = lambda: grouped.quantile(Q)
    else:
        calls["pandas"] = lambda: getattr(grouped, func)()
    return calls


def ours(func: str, a: np.ndarray, labels: np.ndarray, g: int) -> Callable[[], object]:
    if func == "quantile":
        return lambda: nanops.group_nanquantile(a, labels, Q, num_labels=g)
    f = getattr(nanops, f"group_nan{func}")
    return lambda: f(a, labels, num_labels=g)


def fastest(calls: dict[str, Callable[[], object]], rounds: int) -> dict[str, float]:
    best = {name: float("inf") for name in calls}
    for _ in range(rounds):
        for name, call in calls.items():
            t = time.perf_counter()
            call()
            best[name] = min(best[name], time.perf_counter() - t)
    return best


def rounds_for(n: int, rounds: int) -> int:
    """More rounds for fewer values: a call of 1M values takes a few ms,
    where the machine's noise is a larger part (3× the rounds)."""
    return rounds * max(1, SIZES[0] // (3 * n))


LIBS = ("nanops", "numbagg", "flox-numpy", "flox-numbagg", "pandas")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--funcs", default=",".join(FUNCS))
    parser.add_argument("--groups", default=",".join(map(str, GROUPS)))
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--dtypes", default="float64,float32")
    parser.add_argument("--orders", default="sorted,random")
    parser.add_argument("--write", action="store_true", help="save the rows to benches/results/")
    args = parser.parse_args()
    warnings.simplefilter("ignore", RuntimeWarning)
    rng = np.random.default_rng(0)
    # numbagg compiles on first use: warm every kernel once
    for dt in args.dtypes.split(","):
        for f in args.funcs.split(","):
            if f not in ORDER:
                getattr(numbagg, f"group_nan{f}")(np.ones(10, dt), np.arange(10) % 3, num_labels=3)
    head = ("| values     | dtype   | labels | groups | func     | nanops ms | numbagg ms | flox-numpy ms "
            "| flox-numbagg ms | pandas ms | peer / nanops |")
    rule = "|" + "|".join("-" * (len(c)) for c in head.split("|")[1:-1]) + "|"
    rows: list[dict[str, object]] = []
    print(head)
    print(rule)
    for n, dt in ((n, dt) for n in map(int, args.sizes.split(",")) for dt in args.dtypes.split(",")):
        a = rng.standard_normal(n).astype(dt)
        a[rng.random(n) < 0.1] = np.nan
        for order in args.orders.split(","):
            for g in map(int, args.groups.split(",")):
                labels = rng.integers(0, g, n)
                if order == "sorted":
                    labels.sort()
                for func in args.funcs.split(","):
                    calls = {"nanops": ours(func, a, labels, g)}
                    calls |= peers(func, a, labels, g)
                    best = fastest(calls, rounds_for(n, args.rounds))
                    peer = min(v for k, v in best.items() if k != "nanops")
                    cell = lambda k: f"{best[k] * 1e3:.1f}" if k in best else "—"  # noqa: E731
                    line = (f"| {n:>10,} | {dt:<7} | {order:<6} | {g:>6} | {func:<8} | {cell('nanops'):>9} "
                            f"| {cell('numbagg'):>10} | {cell('flox-numpy'):>13} "
                            f"| {cell('flox-numbagg'):>15} | {cell('pandas'):>9} "
                            f"| {peer / best['nanops']:>12.2f}x |")
                    print(line, flush=True)
                    rows.append({"values": n, "dtype": dt, "labels": order, "groups": g,
                                 "func": func, "time": {k: v * 1e3 for k, v in best.items()}})
    if args.write:
        save("group", "Group-by", rows, command=command_line("group.py"), statistic="fastest",
             rounds=args.rounds, params={"rounds_1M": rounds_for(1_000_000, args.rounds)})


if __name__ == "__main__":
    main()
