"""Time nanops against NumPy, bottleneck and numbagg in one process.

Interleaved repeats (each round calls every library once), medians;
float64 and float32; 10% NaN. For each case it
also times the memory floor (``np.add.reduce`` of a NaN-free array of the same
size and dtype) and prints nanops' speed-up over the fastest peer and its time
over the floor. Saves the rows with their raw times (``--write``, the
default unless ``--no-write`` or ``--only``) to ``benches/results/compare.json``
(``compare_cold.json`` with ``--cold``, ``layouts.json`` / ``layouts_cold.json``
with ``--layouts``) and draws benches/speedups.png; ``python3
benches/report.py --assemble`` then renders them into BENCHMARKS.md.

    python3 benches/compare.py            # full run (several minutes)
    python3 benches/compare.py --cold     # large cases from main memory
    python3 benches/compare.py --quick    # fewer repeats
    python3 benches/compare.py --baseline DIR   # also time an earlier build
    python3 benches/compare.py --layouts         # the layouts of real gappy data
    python3 benches/compare.py --layouts --cold  # the same from main memory

``--layouts`` times the shapes real data has instead of the synthetic ones:
climate cubes (time, lat, lon) reduced over time and over (lat, lon), sensor
tables along either axis, an image stack along axis 0, and many short rows;
float64 and float32, 10% NaN scattered plus all-NaN lanes (a land/sea mask,
dead sensors). Its floor is the fastest NumPy streaming read of the same
bytes (``np.add.reduce`` of a NaN-free copy along the same axes, or over its
flat memory), and each row gets the issue's target and whether it is met.

``--baseline DIR`` times, interleaved with the others in the same rounds, an
earlier build of nanops: ``DIR/nanops_baseline`` is a copy of an earlier
installed package directory (``python/nanops`` with its ``_nanops*.so``)
renamed so that both import together, e.g. ``cp -r
$(python3 -c "import nanops, os; print(os.path.dirname(nanops.__file__))")
DIR/nanops_baseline`` before installing the new build. The table then gains
a column ``new/old``: the median over rounds of nanops' time over the
baseline's in the same round (three times the rounds); the baseline is not
a peer.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import _omp_passive  # noqa: F401  (first: before numba starts its threads)
import numpy as np
from _report import command_line, save

import nanops

try:
    import bottleneck as bn
except ImportError:  # pragma: no cover - optional peer
    bn = None
try:
    import numbagg as nb
except ImportError:  # pragma: no cover - optional peer
    nb = None

ROOT = Path(__file__).resolve().parent.parent

#: An earlier build of nanops timed beside the current one (``--baseline``).
baseline = None

SHAPES: list[tuple[tuple[int, ...], int | tuple[int, ...] | None]] = [
    ((10_000_000,), None),
    ((1000, 10_000), 1),
    ((10_000, 1000), 0),
    ((100_000, 10), 1),
    ((100, 200, 300), (0, 2)),
    ((1000,), None),
]
#: The layouts real data has (``--layouts``): (label, shape, axis, masked axes).
#: The masked axes hold a fixed pattern of all-NaN lanes along the others
#: (land/sea mask of a cube's (lat, lon); dead sensors; masked pixels).
LAYOUTS: list[tuple[str, tuple[int, ...], int | tuple[int, ...], tuple[int, ...]]] = [
    ("climate cube", (365, 36, 72), 0, (1, 2)),
    ("climate cube", (365, 36, 72), (1, 2), (1, 2)),
    ("climate cube", (1460, 181, 360), 0, (1, 2)),
    ("climate cube", (1460, 181, 360), (1, 2), (1, 2)),
    ("sensor table", (1_000_000, 20), 0, (1,)),
    ("sensor table", (1_000_000, 20), 1, (1,)),
    ("image stack", (64, 1024, 1024), 0, (1, 2)),
    ("short rows", (100_000, 10), 1, ()),
]

#: NumPy's nanquantile along an axis runs a Python loop over the lanes
#: (tens of microseconds each): beyond this many lanes it is not timed.
NUMPY_QUANTILE_MAX_LANES = 100_000

STREAMING = {"nansum", "nanmean", "nanvar", "nanstd", "nanargmax"}
EXTREMA = {"nanmin", "nanmax"}

FUNCS = [
    "nansum", "nanmean", "nanvar", "nanstd", "nanmin", "nanmax", "nanargmax",
    "nanmedian", "nanquantile(0.5)", "nanquantile([.1,.5,.9])",
]


def single_axis(axis):
    """bottleneck and numbagg's argmax take one axis: None or an int."""
    return axis is None or isinstance(axis, int)


def impls(name: str, axis) -> dict[str, Callable[[np.ndarray], object] | None]:
    """The implementations of one function for one axis, by library."""
    q = {"nanquantile(0.5)": 0.5, "nanquantile([.1,.5,.9])": [0.1, 0.5, 0.9]}.get(name)
    base = "nanquantile" if q is not None else name
    out: dict[str, Callable | None] = {}
    if q is None:
        out["nanops"] = lambda a: getattr(nanops, base)(a, axis=axis)
        out["numpy"] = lambda a: getattr(np, base)(a, axis=axis)
        if baseline is not None:
            out["baseline"] = lambda a: getattr(baseline, base)(a, axis=axis)
    else:
        out["nanops"] = lambda a: nanops.nanquantile(a, q, axis=axis)
        out["numpy"] = lambda a: np.nanquantile(a, q, axis=axis)
        if baseline is not None:
            out["baseline"] = lambda a: baseline.nanquantile(a, q, axis=axis)
    bn_ok = bn is not None and q is None and hasattr(bn, base) and single_axis(axis)
    out["bottleneck"] = (lambda a: getattr(bn, base)(a, axis=axis)) if bn_ok else None
    nb_ax = -1 if axis is None else axis
    if nb is None:
        out["numbagg"] = None
    elif q is not None:
        out["numbagg"] = lambda a: nb.nanquantile(a, q, axis=nb_ax) if axis is not None else nb.nanquantile(a.reshape(-1), q, axis=0)
    elif base in {"nanargmax"} and not single_axis(axis):
        out["numbagg"] = None
    elif hasattr(nb, base):
        fn = getattr(nb, base)
        out["numbagg"] = (lambda a: fn(a.reshape(-1), axis=0)) if axis is None else (lambda a: fn(a, axis=axis))
    else:
        out["numbagg"] = None
    return out


def l3_bytes() -> int:
    """Size of the last-level cache (Linux sysfs; 256 MiB when unknown)."""
    try:
        text = Path("/sys/devices/system/cpu/cpu0/cache/index3/size").read_text().strip()
        scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1], 1)
        return int(text.rstrip("KMG")) * scale
    except (OSError, ValueError, IndexError):
        return 256 << 20


class Evictor:
    """Reads a buffer twice the size of the last-level cache, so that the
    next call finds its input in main memory (``--cold``)."""

    def __init__(self) -> None:
        self.buf = np.ones(2 * l3_bytes() // 8)

    def __call__(self) -> None:
        np.maximum.reduce(self.buf)


def warm_batch(fn: Callable[[], object], calls: int = 10) -> float:
    """Mean seconds per call of `calls` back-to-back calls of `fn`."""
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - t0) / calls


def timings(fns: dict[str, Callable[[], object]], repeats: int, budget: float,
            before: Callable[[], None] | None = None) -> dict[str, float]:
    """Median seconds per call of each function, measured interleaved.

    Every round calls each function once, in an order shuffled anew each
    round (or, for calls under 0.1 ms, a
    loop of about 2 ms, its length set from warm calls), so a slow spell of
    the shared machine hits every library alike and their ratios stay
    meaningful; tiny calls get at least 40 rounds. Before each timed call,
    `before` runs (untimed) if given; otherwise the function is called once
    untimed, so that every library is timed in the cache state its own call
    leaves (the state of repeated calls), not in whatever the previous
    library left. Rounds stop after
    `repeats`, or after three once `budget` seconds are spent. A function
    whose first call took longer than `budget` is not repeated (NumPy's
    Python loop for quantiles along an axis takes seconds).
    """
    inner: dict[str, int] = {}
    samples: dict[str, list[float]] = {}
    for name, fn in fns.items():
        if before is not None:
            before()
        t0 = time.perf_counter()
        fn()
        first = time.perf_counter() - t0
        samples[name] = [first] if first > budget else []
        if first < 1e-2:
            # calibrate on warm calls (a first call can be many times
            # slower, e.g. numba's dispatch): the fastest of three batches
            # of ten, since one batch can catch a pause of the machine, and
            # a sub-microsecond call then timed alone (inner loop of 1) reads
            # the clock's own cost as its time, 2-4x too slow for a whole row
            first = min(warm_batch(fn) for _ in range(3))
        inner[name] = max(1, int(2e-3 / max(first, 1e-7))) if first < 1e-4 else 1
    if all(n > 1 for n in inner.values()):
        # tiny calls: rounds take milliseconds, so take many more of them,
        # spread over time, or one slow spell of the machine decides a row
        repeats = max(repeats, 40)
    order_rng = random.Random(0)
    start = time.perf_counter()
    for done in range(repeats):
        # at least three rounds; then stop once the budget is spent
        if done >= 3 and time.perf_counter() - start > budget:
            break
        # a new order every round (seeded shuffle), so that a library that
        # leaves the machine slowed (numbagg's OpenMP threads keep spinning
        # after a call; a long single-threaded call lets the other core go
        # idle) precedes each of the others alike. (A rotation of one fixed
        # order, used before, starts elsewhere but keeps every library's
        # predecessor: nanops always came right after the floor.)
        names = list(fns)
        order_rng.shuffle(names)
        if "nanops" in names and "baseline" in names:
            # the two builds side by side, in turns first: each is timed
            # after the same predecessors as often as the other (a seeded
            # shuffle repeats its orders in every row, so a peer that
            # leaves the machine slowed could precede one build more often
            # in every row: (100000, 10) rows read 1.2-1.95x where the two
            # builds timed alone, interleaved, were within 3%)
            names.remove("baseline")
            at = names.index("nanops") + (done % 2)
            names.insert(at, "baseline")
        for name in names:
            fn = fns[name]
            if samples[name] and samples[name][0] > budget:
                continue
            n = inner[name]
            if before is not None:
                before()
            elif n == 1:
                fn()
            t0 = time.perf_counter()
            for _ in range(n):
                fn()
            samples[name].append((time.perf_counter() - t0) / n)
    global last_samples
    last_samples = samples
    return {name: statistics.median(ts) for name, ts in samples.items()}


#: Per-round seconds of the last :func:`timings` call, by function name.
last_samples: dict[str, list[float]] = {}


def new_over_old() -> float | None:
    """nanops' time over the baseline's in the last :func:`timings` call: the
    median of the per-round ratios. Both ran in the same round, close in time,
    so a slow spell of the machine scales both and cancels in their ratio,
    where a ratio of two medians keeps it: pairs measure a ratio of a few
    percent that two medians of a handful of rounds cannot (those moved rows
    by ±10% between runs)."""
    new, old = last_samples.get("nanops"), last_samples.get("baseline")
    if not new or not old:
        return None
    return statistics.median(a / b for a, b in zip(new, old))


def data(shape, dtype, rng) -> np.ndarray:
    a = rng.random(shape).astype(dtype) * 100
    a[rng.random(shape) < 0.1] = np.nan
    return a


def gappy(shape, dtype, masked: tuple[int, ...], rng) -> np.ndarray:
    """10% NaN at random, plus about 10% all-NaN lanes: the positions along
    `masked` (a land/sea mask, dead sensors) that are NaN at every position
    of the other axes."""
    a = rng.random(shape, dtype=np.float64 if dtype == np.float64 else np.float32)
    a *= 100
    a[rng.random(shape, dtype=np.float32) < 0.1] = np.nan
    if masked:
        mask_shape = tuple(n if i in masked else 1 for i, n in enumerate(shape))
        mask = np.random.default_rng(1).random(mask_shape) < 0.1
        np.copyto(a, np.nan, where=mask)
    return a


def target(name: str, size: int, r: dict) -> str:
    """The issue's target for a row and whether it is met."""
    ours, floor, peers = r["nanops"], r["floor"], r["peers"]
    best = min(peers.values()) if peers else None
    big = size >= 1_000_000
    if name in EXTREMA:
        goal = ">= NumPy" + (", <= 1.5x floor" if big else "")
        ok = r.get("numpy") is None or ours <= r["numpy"]
        ok = ok and (not big or ours <= 1.5 * floor)
    elif name in STREAMING:
        goal = ">= 2x peers" + (", <= 1.5x floor" if big else "")
        ok = (best is None or best >= 2 * ours) and (not big or ours <= 1.5 * floor)
    else:
        goal = "<= 3x floor" if big else ">= 3x peers"
        ok = ours <= 3 * floor if big else (best is None or best >= 3 * ours)
    return f"{goal}: {'met' if ok else 'MISS'}"


def run_layouts(repeats: int, budget: float, cold: bool = False, only: str = "") -> list[dict]:
    """The layouts of real data (``LAYOUTS``), float64 and float32."""
    rows = []
    warnings.simplefilter("ignore")
    before = Evictor() if cold else None
    for dtype in (np.float64, np.float32):
        for label, shape, axis, masked in LAYOUTS:
            size = int(np.prod(shape))
            if cold and size < 1_000_000:
                continue  # small inputs live in cache whatever one does
            if only and only not in f"{np.dtype(dtype).name} {shape} {axis}":
                continue
            rng = np.random.default_rng(0)
            a = gappy(shape, dtype, masked, rng)
            clean = np.nan_to_num(a)
            flat = clean.reshape(-1)
            lanes = size // int(np.prod([shape[i] for i in np.atleast_1d(axis)]))
            for name in FUNCS:
                if name == "nanargmax" and not single_axis(axis):
                    continue  # argmax takes one axis
                libs = impls(name, axis)
                if name.startswith("nanquantile") and lanes > NUMPY_QUANTILE_MAX_LANES:
                    libs["numpy"] = None
                fixed = None
                if name == "nanargmax":
                    # all-NaN lanes raise in every library: give each one
                    # value at the first position (restored afterwards)
                    allnan = np.isnan(a).all(axis=axis)
                    fixed = np.moveaxis(a, axis, 0)
                    fixed[0][allnan] = 0.0
                fns = {lib: (lambda fn=fn: fn(a)) for lib, fn in libs.items() if fn is not None}
                fns["floor_axis"] = lambda: np.add.reduce(clean, axis=axis)
                fns["floor_flat"] = lambda: np.add.reduce(flat)
                measured = timings(fns, repeats, budget, before)
                if fixed is not None:
                    fixed[0][allnan] = np.nan
                floor = min(measured.pop("floor_axis"), measured.pop("floor_flat"))
                times: dict[str, float | None] = {lib: measured.get(lib) for lib in libs}
                peers = {k: v for k, v in times.items()
                         if k not in ("nanops", "baseline") and v is not None}
                best_peer = min(peers, key=peers.get) if peers else None
                ours = times["nanops"]
                row = {
                    "dtype": np.dtype(dtype).name, "shape": shape, "axis": axis, "func": name,
                    "label": label, **times, "floor": floor, "peers": peers,
                    "best_peer": best_peer,
                    "speedup": (peers[best_peer] / ours) if best_peer else None,
                    "over_floor": ours / floor,
                    "vs_baseline": new_over_old(),
                }
                row["target"] = target(name, size, row)
                rows.append(row)
                print(f"{np.dtype(dtype).name:8} {str(shape):16} {str(axis):7} {name:26} "
                      f"nanops {ours*1e3:9.3f} ms  best peer {best_peer or '-':10} "
                      f"x{row['speedup'] or float('nan'):7.2f}  floor x{row['over_floor']:6.2f}  "
                      f"{row['target']}"
                      + (f"  new/old {row['vs_baseline']:5.2f}" if row["vs_baseline"] else ""),
                      flush=True)
            del a, clean, flat
    return rows


def run(repeats: int, budget: float, cold: bool = False, only: str = "") -> list[dict]:
    rng = np.random.default_rng(0)
    rows = []
    warnings.simplefilter("ignore")
    before = Evictor() if cold else None
    for dtype in (np.float64, np.float32):
        for shape, axis in SHAPES:
            if cold and int(np.prod(shape)) < 1_000_000:
                continue  # small inputs live in cache whatever one does
            a = data(shape, dtype, rng)
            clean = np.nan_to_num(a)
            for name in FUNCS:
                if name == "nanargmax" and not single_axis(axis):
                    continue  # argmax takes one axis
                if only and only not in f"{np.dtype(dtype).name} {shape} {name}":
                    continue
                libs = impls(name, axis)
                fns = {lib: (lambda fn=fn: fn(a)) for lib, fn in libs.items() if fn is not None}
                fns["floor"] = lambda: np.add.reduce(clean, axis=axis)
                measured = timings(fns, repeats, budget, before)
                floor = measured.pop("floor")
                times: dict[str, float | None] = {lib: measured.get(lib) for lib in libs}
                peers = {k: v for k, v in times.items()
                         if k not in ("nanops", "baseline") and v is not None}
                best_peer = min(peers, key=peers.get) if peers else None
                ours = times["nanops"]
                rows.append({
                    "dtype": np.dtype(dtype).name, "shape": shape, "axis": axis, "func": name,
                    **{k: v for k, v in times.items()}, "floor": floor,
                    "best_peer": best_peer,
                    "speedup": (peers[best_peer] / ours) if best_peer else None,
                    "over_floor": ours / floor,
                    "vs_baseline": new_over_old(),
                })
                print(f"{np.dtype(dtype).name:8} {str(shape):16} {str(axis):7} {name:26} "
                      f"nanops {ours*1e3:9.3f} ms  best peer {best_peer or '-':10} "
                      f"x{rows[-1]['speedup'] or float('nan'):7.2f}  floor x{rows[-1]['over_floor']:6.2f}"
                      + (f"  new/old {rows[-1]['vs_baseline']:5.2f}" if rows[-1]["vs_baseline"] else ""),
                      flush=True)
    return rows


def result_rows(rows: list[dict]) -> list[dict]:
    """The rows as saved: the case, ``time`` (ms: each library, the floor and
    the baseline where timed), ``new_old`` and the layouts' ``label`` and
    ``target`` where present."""
    libs = ("nanops", "numpy", "bottleneck", "numbagg", "floor", "baseline")
    out = []
    for r in rows:
        row = {"dtype": r["dtype"], "shape": list(r["shape"]), "axis": r["axis"],
               "func": r["func"]}
        if "label" in r:
            row["label"] = r["label"]
        row["time"] = {k: (None if r.get(k) is None else r[k] * 1e3) for k in libs if k in r}
        if r.get("vs_baseline"):
            row["new_old"] = r["vs_baseline"]
        if "target" in r:
            row["target"] = r["target"]
        out.append(row)
    return out


#: Results name and title of each table (``--cold``, ``--layouts``).
SECTIONS = {
    (False, False): ("compare", "Reductions against NumPy, bottleneck and numbagg"),
    (True, False): ("compare_cold", "Cold caches"),
    (False, True): ("layouts", "Layouts of real data"),
    (True, True): ("layouts_cold", "Layouts of real data, cold caches"),
}


def write(rows: list[dict], command: str, cold: bool, layouts: bool, repeats: int) -> None:
    """Saves the table's rows to ``benches/results/`` (and, for the main
    table, draws benches/speedups.png)."""
    name, title = SECTIONS[(cold, layouts)]
    params: dict[str, object] = {"llc_mib": l3_bytes() >> 20}
    if layouts:
        params["numpy_quantile_max_lanes"] = NUMPY_QUANTILE_MAX_LANES
    save(name, title, result_rows(rows), command=command, statistic="median",
         rounds=repeats, params=params)
    if cold or layouts:
        return
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    labels = [f"{r['func']} {r['shape']} ax={r['axis']} {r['dtype'][5:]}" for r in rows if r["speedup"]]
    vals = [r["speedup"] for r in rows if r["speedup"]]
    fig, ax = plt.subplots(figsize=(10, max(4, len(vals) * 0.18)))
    ax.barh(range(len(vals)), vals, color=["tab:green" if v >= 1 else "tab:red" for v in vals])
    ax.set_yticks(range(len(vals)), labels, fontsize=6)
    ax.axvline(1, color="k", lw=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("speed-up of nanops over the fastest peer (log scale)")
    ax.invert_yaxis()
    fig.tight_layout()
    fig.savefig(ROOT / "benches" / "speedups.png", dpi=110)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--quick", action="store_true", help="fewer repeats")
    p.add_argument("--no-write", action="store_true", help="print only")
    p.add_argument("--write", action="store_true",
                   help="save the rows (the default unless --no-write or --only)")
    p.add_argument("--cold", action="store_true",
                   help="evict the caches before every timed call (inputs of 1M values and more); "
                        "saved as benches/results/compare_cold.json")
    p.add_argument("--layouts", action="store_true",
                   help="the layouts of real gappy data (climate cubes, sensor tables, image stacks); "
                        "saved as benches/results/layouts.json (layouts_cold.json with --cold)")
    p.add_argument("--only", default="",
                   help="cases whose 'dtype shape function' contains this text (print only)")
    p.add_argument("--baseline", default="",
                   help="a directory holding nanops_baseline, an earlier build timed beside this one")
    args = p.parse_args()
    if args.baseline:
        global baseline
        sys.path.insert(0, args.baseline)
        import nanops_baseline
        baseline = nanops_baseline
    repeats, budget = (3, 1.0) if args.quick else (7, 3.0)
    if baseline is not None:
        # a ratio near 1 is the question: more rounds for its median
        repeats, budget = repeats * 3, budget * 2
    runner = run_layouts if args.layouts else run
    rows = runner(repeats, budget, cold=args.cold, only=args.only)
    if args.no_write or args.only:
        return
    write(rows, command_line("compare.py"), args.cold, args.layouts, repeats)


if __name__ == "__main__":
    main()
