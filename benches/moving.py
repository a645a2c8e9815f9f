"""Time nanops' moving windows against bottleneck, numbagg and pandas
(``Series.rolling`` / ``DataFrame.rolling``) in one process.

10% NaN at random, float64 and float32; 1-d 10M values, (1000, 10000)
along axis -1 and (10000, 1000) along axis 0; windows 10, 100, 1000;
``min_count=1``. Each round calls every function once (rounds
interleaved); a case reports the fastest of its rounds for each library and
the ratio fastest peer / nanops. pandas works along axis 0 of a frame: the
(1000, 10000) case hands it the transposed frame (the same lanes).

    python3 benches/moving.py                    # 3 rounds, prints a table
    python3 benches/moving.py --write            # and saves benches/results/moving.json
    python3 benches/moving.py --funcs mean,max --rounds 5
    python3 benches/moving.py --order --write    # median/quantile/rank: moving_order.json
    python3 benches/moving.py --exp --write      # move_exp_nan*: moving_exp.json

``--write`` saves the rows with their raw times; ``python3 benches/report.py
--assemble`` renders them into BENCHMARKS.md.

The order statistics (``--order``): ``move_median`` against bottleneck and
pandas' rolling median, ``move_quantile`` (q = 0.25, linear) against pandas'
rolling quantile, ``move_rank`` against bottleneck (window 1000 only:
bottleneck's rank is O(window) per step); their section is "Moving order
statistics".

The exponential functions (``--exp``): ``move_exp_nan{mean,sum,var,std,count}``
with ``alpha=0.1``, ``min_weight=0`` against numbagg and pandas'
``ewm(alpha=0.1, adjust=True, ignore_na=False)`` (numbagg's definition: a NaN
position decays the older weights; ``ignore_na=True`` is another statistic),
which has no count; their section is "Exponential moving windows" (no
window).
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable

import _omp_passive  # noqa: F401  (first: before numba starts its threads)
import bottleneck as bn
import numbagg
import numpy as np
import pandas as pd

import nanops
from _report import command_line, save

CASES = [((10_000_000,), -1), ((1000, 10000), -1), ((10000, 1000), 0)]
WINDOWS = (10, 100, 1000)
FUNCS = ("sum", "mean", "var", "std", "min", "max")
ORDER_FUNCS = ("median", "quantile", "rank")
EXP_FUNCS = ("exp_mean", "exp_sum", "exp_var", "exp_std", "exp_count")
#: The alpha of the exponential functions.
EXP_ALPHA = 0.1
#: The windows of a function, where not WINDOWS.
FUNC_WINDOWS = {"rank": (1000,), **{f: (0,) for f in EXP_FUNCS}}


def nanops_call(func: str, a: np.ndarray, w: int, axis: int) -> Callable[[], object]:
    if func in EXP_FUNCS:
        g = getattr(nanops, "move_exp_nan" + func[4:])
        return lambda: g(a, alpha=EXP_ALPHA, axis=axis)
    if func == "quantile":
        return lambda: nanops.move_quantile(a, w, 0.25, 1, axis)
    f = getattr(nanops, f"move_{func}")
    return lambda: f(a, w, 1, axis)


def peers(func: str, a: np.ndarray, w: int, axis: int) -> dict[str, Callable[[], object]]:
    calls: dict[str, Callable[[], object]] = {}
    if func in EXP_FUNCS:
        return exp_peers(func, a, axis)
    name = f"move_{func}"
    if hasattr(bn, name):
        calls["bottleneck"] = lambda: getattr(bn, name)(a, w, min_count=1, axis=axis)
    if hasattr(numbagg, name):
        # numbagg's move_var/move_std have ddof fixed at 1 (the same work)
        f = getattr(numbagg, name)
        calls["numbagg"] = lambda: f(a, window=w, min_count=1, axis=axis)
    if a.ndim == 1:
        obj: pd.Series | pd.DataFrame = pd.Series(a)
    else:
        obj = pd.DataFrame(a if axis == 0 else a.T)
    kw2: dict[str, object] = {"ddof": 0} if func in ("var", "std") else {}
    if func == "quantile":
        kw2 = {"q": 0.25, "interpolation": "linear"}
    if func != "rank":  # pandas' rolling rank is another statistic (pct ranks)
        calls["pandas"] = lambda: getattr(obj.rolling(w, min_periods=1), func)(**kw2)
    return calls


def exp_peers(func: str, a: np.ndarray, axis: int) -> dict[str, Callable[[], object]]:
    stat = func[4:]
    f = getattr(numbagg, "move_exp_nan" + stat)
    calls: dict[str, Callable[[], object]] = {
        "numbagg": lambda: f(a, alpha=EXP_ALPHA, axis=axis)}
    obj: pd.Series | pd.DataFrame = (pd.Series(a) if a.ndim == 1
                                     else pd.DataFrame(a if axis == 0 else a.T))
    if stat != "count":
        calls["pandas"] = lambda: getattr(
            obj.ewm(alpha=EXP_ALPHA, adjust=True, ignore_na=False), stat)()
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
    parser.add_argument("--funcs", default=None, help="default: " + ",".join(FUNCS))
    parser.add_argument("--order", action="store_true",
                        help="the order statistics " + ",".join(ORDER_FUNCS))
    parser.add_argument("--exp", action="store_true",
                        help="the exponential functions " + ",".join(EXP_FUNCS))
    parser.add_argument("--windows", default=None, help="default: 10,100,1000")
    parser.add_argument("--dtypes", default="float64,float32")
    parser.add_argument("--write", action="store_true", help="save the rows to benches/results/")
    args = parser.parse_args()
    default = EXP_FUNCS if args.exp else ORDER_FUNCS if args.order else FUNCS
    funcs = (args.funcs or ",".join(default)).split(",")
    title = ("Exponential moving windows" if args.exp else
             "Moving order statistics" if args.order else "Moving windows")
    warnings.simplefilter("ignore", RuntimeWarning)
    rng = np.random.default_rng(0)
    # numbagg compiles on first use: warm every kernel once
    small = rng.standard_normal(100)
    for dt in ("float64", "float32"):
        for f in ("move_sum", "move_mean", "move_var", "move_std"):
            getattr(numbagg, f)(small.astype(dt), window=10, min_count=1)
        for f in ("mean", "sum", "var", "std", "count"):
            getattr(numbagg, "move_exp_nan" + f)(small.astype(dt), alpha=0.5)
    head = (f"| {'shape':>14} | axis | dtype   | {'func':<9} | window | nanops ms | bottleneck ms "
            f"| numbagg ms | pandas ms | peer / nanops |")
    rule = "|" + "|".join("-" * (len(c)) for c in head.split("|")[1:-1]) + "|"
    rows: list[dict[str, object]] = []
    print(head)
    print(rule)
    for shape, axis in CASES:
        for dt in args.dtypes.split(","):
            a = rng.standard_normal(shape).astype(dt)
            a[rng.random(shape) < 0.1] = np.nan
            for func in funcs:
                windows = (tuple(int(w) for w in args.windows.split(","))
                           if args.windows and func not in EXP_FUNCS
                           else FUNC_WINDOWS.get(func, WINDOWS))
                for w in windows:
                    calls = {"nanops": nanops_call(func, a, w, axis)}
                    calls |= peers(func, a, w, axis)
                    best = fastest(calls, args.rounds)
                    peer = min(v for k, v in best.items() if k != "nanops")
                    cell = lambda k: f"{best[k] * 1e3:.1f}" if k in best else "—"  # noqa: E731
                    line = (f"| {str(shape):>14} | {axis:>4} | {dt:<7} | {func:<9} | {('—' if func in EXP_FUNCS else w):>6} "
                            f"| {cell('nanops'):>9} | {cell('bottleneck'):>13} | {cell('numbagg'):>10} "
                            f"| {cell('pandas'):>9} | {peer / best['nanops']:>12.1f}x |")
                    print(line, flush=True)
                    rows.append({"shape": shape, "axis": axis, "dtype": dt, "func": func,
                                 "window": None if func in EXP_FUNCS else w,
                                 "time": {k: v * 1e3 for k, v in best.items()}})
    if args.write:
        name = "moving_exp" if args.exp else "moving_order" if args.order else "moving"
        save(name, title, rows, command=command_line("moving.py"), statistic="fastest",
             rounds=args.rounds)


if __name__ == "__main__":
    main()
