"""Time the ``.nanops`` accessors (:mod:`nanops.xarray`, :mod:`nanops.pandas`)
against xarray's and pandas' own methods on the same objects, in one process.

xarray: a (730, 181, 360) float32 daily cube (10% NaN at random, a time
coordinate from 2000-01-01): rolling mean/max/median over 15 days and a
rolling 0.9 quantile (xarray has none: its ``construct("window")`` and
``quantile`` over the windows; NumPy's quantile of every window takes
minutes on the whole cube, so that plain path is timed once on 1/12 of the
longitudes and scaled, marked ≈), groupby month mean/median/0.9 quantile and
resample to month starts (mean).  Each xarray row is timed three ways:
``plain`` (``use_numbagg=False, use_bottleneck=False``: the ``construct``
path xarray takes by default since bottleneck is off, and everywhere
numbagg is not installed), ``numbagg`` (xarray's default options with
numbagg installed: ``use_numbagg=True``) and ``bottleneck``
(``use_bottleneck=True, use_numbagg=False``); xarray's group-by takes
flox in all three (``use_flox=True``, its default).

pandas: a (1e6, 20) float64 frame (10% NaN): rolling median and 0.1
quantile over 30 rows, and a groupby 0.5 quantile over 1000 integer keys.

Each round calls every variant once (rounds interleaved); a row reports the
median of its rounds per variant and the speed-ups nanops / each peer and
against the fastest peer.

    python3 benches/xarray_pandas.py                 # full shapes, 3 rounds
    python3 benches/xarray_pandas.py --quick         # (365, 45, 90) cube, (1e5, 20) frame
    python3 benches/xarray_pandas.py --write         # and save benches/results/xarray_pandas.json
    python3 benches/xarray_pandas.py --rounds 5 --rows rolling_median,groupby_quantile

``--write`` saves the rows with their raw times; ``python3 benches/report.py
--assemble`` renders them into BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import _omp_passive  # noqa: F401  (first: before numba starts its threads)
import gc
import statistics
import time
import warnings
from collections.abc import Callable
from typing import Any

import bottleneck  # noqa: F401  (the peers: their versions are saved)
import flox  # noqa: F401
import numbagg  # noqa: F401
import numpy as np
import pandas as pd
import xarray as xr

import nanops.pandas  # noqa: F401  (registers .nanops)
import nanops.xarray  # noqa: F401
from _report import command_line, save

#: The cube's and the frame's shapes: full and ``--quick``.
CUBE = {"full": (730, 181, 360), "quick": (365, 45, 90)}
FRAME = {"full": (1_000_000, 20), "quick": (100_000, 20)}
#: xarray's three option sets.
XARRAY_PATHS = {
    "plain": {"use_numbagg": False, "use_bottleneck": False},
    "numbagg": {"use_numbagg": True, "use_bottleneck": False},
    "bottleneck": {"use_numbagg": False, "use_bottleneck": True},
}
WINDOW = 15
#: The rolling quantile's plain xarray path is timed on 1/SLICE of the cube.
SLICE = 12
FRAME_WINDOW = 30
GROUPS = 1000


def cube(shape: tuple[int, int, int], rng: np.random.Generator) -> xr.DataArray:
    values = rng.standard_normal(shape, dtype=np.float32) * 8 + 285
    values[rng.random(shape) < 0.1] = np.nan
    time_ = pd.date_range("2000-01-01", periods=shape[0], freq="D")
    return xr.DataArray(values, dims=("time", "lat", "lon"),
                        coords={"time": time_, "lat": np.linspace(-90, 90, shape[1]),
                                "lon": np.linspace(0, 359, shape[2])},
                        name="tas", attrs={"units": "K"})


def rolling_quantile_xarray(da: xr.DataArray) -> Any:
    """xarray's way to a rolling quantile: the quantile over ``construct``'s windows."""
    rolling = da.rolling(time=WINDOW)
    return rolling.construct("window").quantile(0.9, dim="window").where(
        rolling.count() >= WINDOW)


def xarray_rows(da: xr.DataArray) -> dict[str, tuple[Callable[[], Any], Callable[[], Any]]]:
    """name → (xarray's call, nanops' call)."""
    return {
        "rolling_mean": (lambda: da.rolling(time=WINDOW).mean(),
                         lambda: da.nanops.rolling(time=WINDOW).mean()),
        "rolling_max": (lambda: da.rolling(time=WINDOW).max(),
                        lambda: da.nanops.rolling(time=WINDOW).max()),
        "rolling_median": (lambda: da.rolling(time=WINDOW).median(),
                           lambda: da.nanops.rolling(time=WINDOW).median()),
        "rolling_quantile": (lambda: rolling_quantile_xarray(da),
                             lambda: da.nanops.rolling(time=WINDOW).quantile(0.9)),
        "groupby_mean": (lambda: da.groupby("time.month").mean(),
                         lambda: da.nanops.groupby("time.month").mean()),
        "groupby_median": (lambda: da.groupby("time.month").median(),
                           lambda: da.nanops.groupby("time.month").median()),
        "groupby_quantile": (lambda: da.groupby("time.month").quantile(0.9),
                             lambda: da.nanops.groupby("time.month").quantile(0.9)),
        "resample_mean": (lambda: da.resample(time="MS").mean(),
                          lambda: da.nanops.resample(time="MS").mean()),
    }


def pandas_rows(df: pd.DataFrame, keys: np.ndarray
                ) -> dict[str, tuple[Callable[[], Any], Callable[[], Any]]]:
    return {
        "frame_rolling_median": (lambda: df.rolling(FRAME_WINDOW).median(),
                                 lambda: df.nanops.rolling(FRAME_WINDOW).median()),
        "frame_rolling_quantile": (lambda: df.rolling(FRAME_WINDOW).quantile(0.1),
                                   lambda: df.nanops.rolling(FRAME_WINDOW).quantile(0.1)),
        "frame_groupby_quantile": (lambda: df.groupby(keys).quantile(0.5),
                                   lambda: df.nanops.groupby(keys).quantile(0.5)),
    }


def timed(call: Callable[[], Any]) -> float:
    gc.collect()
    t = time.perf_counter()
    call()
    return time.perf_counter() - t


def run(calls: dict[str, Callable[[], Any]], rounds: int) -> dict[str, float]:
    """The median over ``rounds`` interleaved rounds of each call."""
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(rounds):
        for name, call in calls.items():
            times[name].append(timed(call))
    return {name: statistics.median(ts) for name, ts in times.items()}


def with_options(options: dict[str, bool], call: Callable[[], Any]) -> Callable[[], Any]:
    def wrapped() -> Any:
        with xr.set_options(**options):
            return call()
    return wrapped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="smaller shapes")
    parser.add_argument("--rows", default=None, help="a comma-separated subset of the rows")
    parser.add_argument("--write", action="store_true", help="save the rows to benches/results/")
    args = parser.parse_args()
    size = "quick" if args.quick else "full"
    warnings.simplefilter("ignore", RuntimeWarning)
    rng = np.random.default_rng(0)
    da = cube(CUBE[size], rng)
    n, k = FRAME[size]
    values = rng.standard_normal((n, k))
    values[rng.random((n, k)) < 0.1] = np.nan
    df = pd.DataFrame(values, columns=[f"c{i}" for i in range(k)])
    keys = rng.integers(0, GROUPS, n)
    wanted = set(args.rows.split(",")) if args.rows else None

    # numbagg compiles on first use: warm its kernels on a small cube
    small = cube((40, 3, 4), rng)
    with xr.set_options(**XARRAY_PATHS["numbagg"]):
        for name, (theirs, _) in xarray_rows(small).items():
            theirs()

    head = (f"| {'row':<22} | {'shape':>16} | nanops ms | {'xarray plain ms':>15} "
            f"| {'xarray+numbagg ms':>17} | {'xarray+bottleneck ms':>20} | {'pandas ms':>9} "
            f"| {'× plain':>7} | {'× fastest peer':>14} |")
    rule = "|" + "|".join("-" * len(c) for c in head.split("|")[1:-1]) + "|"
    rows: list[dict[str, Any]] = []
    print(head)
    print(rule, flush=True)

    scaled: set[str] = set()

    def report(row: str, shape: tuple[int, ...], best: dict[str, float]) -> None:
        def cell(key: str) -> str:
            if key not in best:
                return "—"
            return ("≈" if key == "plain" and row in scaled else "") + f"{best[key] * 1e3:.0f}"

        peers = {key: v for key, v in best.items() if key != "nanops"}
        plain = best.get("plain", best.get("pandas"))
        assert plain is not None
        fastest = min(peers.values())
        line = (f"| {row:<22} | {str(shape):>16} | {cell('nanops'):>9} | {cell('plain'):>15} "
                f"| {cell('numbagg'):>17} | {cell('bottleneck'):>20} | {cell('pandas'):>9} "
                f"| {plain / best['nanops']:>6.1f}× | {fastest / best['nanops']:>13.1f}× |")
        print(line, flush=True)
        rows.append({"row": row, "shape": shape, "time": {k: v * 1e3 for k, v in best.items()},
                     **({"scaled": True} if row in scaled else {})})

    for row, (theirs, ours) in xarray_rows(da).items():
        if wanted and row not in wanted:
            continue
        calls = {"nanops": ours}
        for path, options in XARRAY_PATHS.items():
            if row == "rolling_quantile" and path != "numbagg":
                continue  # timed below, on a slice
            calls[path] = with_options(options, theirs)
        best = run(calls, args.rounds)
        if row == "rolling_quantile":
            # NumPy's quantile over the constructed windows (xarray's plain
            # path; bottleneck has no quantile, so the same): minutes on the
            # whole cube; timed once on 1/SLICE of the longitudes, scaled
            part = da.isel(lon=slice(0, max(da.sizes["lon"] // SLICE, 1)))
            scale = da.sizes["lon"] / part.sizes["lon"]
            once = timed(with_options(XARRAY_PATHS["plain"],
                                      lambda: rolling_quantile_xarray(part)))
            best["plain"] = once * scale
            scaled.add(row)
        report(row, da.shape, best)
    for row, (theirs, ours) in pandas_rows(df, keys).items():
        if wanted and row not in wanted:
            continue
        report(row, df.shape, run({"nanops": ours, "pandas": theirs}, args.rounds))

    if args.write:
        save("xarray_pandas", "xarray and pandas accessors", rows,
             command=command_line("xarray_pandas.py"), statistic="median", rounds=args.rounds,
             params={"window": WINDOW, "frame_window": FRAME_WINDOW, "slice": SLICE,
                     "groups": GROUPS})

if __name__ == "__main__":
    main()
