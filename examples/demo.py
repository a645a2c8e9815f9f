"""nanops next to NumPy on a year of gridded daily temperatures with gaps.

Loads ``data/temperature_daily.npy`` (365 days x 36 lat x 72 lon, float32,
about 18 % missing) and ``data/stations_hourly.csv``, computes a handful of
statistics with nanops and with NumPy, prints a table of timings (median of at
least a few runs, more for fast calls) and the largest difference, and checks that the results agree.

    python3 examples/demo.py
"""

from __future__ import annotations

import statistics
import sys
import time
import warnings
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

import nanops

try:  # xarray is optional: without it the xarray part is skipped
    import xarray as xr

    import nanops.xarray  # noqa: F401  (registers the .nanops accessor)
except ImportError:
    xr = None

DATA = Path(__file__).resolve().parent.parent / "data"


def median_time(func: Callable[[], Any], repeats: int,
                min_seconds: float = 0.05) -> tuple[float, Any]:
    """Median wall time of at least ``repeats`` calls (after one warm-up),
    more for fast calls, until ``min_seconds`` have passed (a call of a
    tenth of a millisecond is one interrupt from twice its time: five of
    them made the printed speed-up a coin toss), and the result."""
    result = func()
    times: list[float] = []
    while len(times) < repeats or (sum(times) < min_seconds and len(times) < 1000):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def max_abs_diff(a: Any, b: Any) -> float:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    assert a.shape == b.shape, (a.shape, b.shape)
    assert np.array_equal(np.isnan(a), np.isnan(b)), "NaN positions differ"
    finite = ~np.isnan(a)
    return float(np.max(np.abs(a[finite] - b[finite]), initial=0.0))


# (function, arguments after the array, keyword arguments, repeats, tolerance in °C)
GRID_STATISTICS: list[tuple[str, tuple[Any, ...], dict[str, Any], int, float]] = [
    ("nanmean", (), {"axis": 0}, 5, 1e-3),          # climatology of each cell
    ("nanstd", (), {"axis": 0}, 5, 1e-3),
    ("nanmin", (), {"axis": 0}, 5, 0.0),
    ("nanmax", (), {"axis": 0}, 5, 0.0),
    ("nanmean", (), {"axis": (1, 2)}, 5, 1e-3),     # grid average of each day
    ("nanmedian", (), {"axis": 0}, 3, 1e-3),
    ("nanquantile", ([0.1, 0.5, 0.9],), {"axis": 0}, 3, 1e-3),
    ("nancount", (), {"axis": 0}, 5, 0.0),
]


def numpy_nancount(a: np.ndarray, axis: Any = None) -> Any:
    """NumPy has no nancount; this is the usual idiom."""
    return np.count_nonzero(~np.isnan(a), axis=axis)


def call_text(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    parts = ["t", *map(repr, args), *(f"{k}={v!r}" for k, v in kwargs.items())]
    return f"{name}({', '.join(parts)})"


def print_table(rows: list[tuple[str, ...]]) -> None:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for k, row in enumerate(rows):
        cells = [c.ljust(w) if i < 2 else c.rjust(w)
                 for i, (c, w) in enumerate(zip(row, widths, strict=True))]
        print("  ".join(cells))
        if k == 0:
            print("  ".join("-" * w for w in widths))


def grid_demo() -> None:
    t = np.load(DATA / "temperature_daily.npy")
    print(f"temperature_daily.npy: {t.shape} {t.dtype}, {np.isnan(t).mean():.1%} missing "
          f"(days x lat x lon, °C)\n")
    rows: list[tuple[str, ...]] = [
        ("function", "call", "nanops ms", "NumPy ms", "speed-up", "max |diff|")
    ]
    for name, args, kwargs, repeats, tol in GRID_STATISTICS:
        theirs = numpy_nancount if name == "nancount" else getattr(np, name)
        ours = getattr(nanops, name)
        with warnings.catch_warnings():  # the Antarctic cells are empty: NaN + warning
            warnings.simplefilter("ignore", RuntimeWarning)
            t_ours, r_ours = median_time(partial(ours, t, *args, **kwargs), repeats)
            t_theirs, r_theirs = median_time(partial(theirs, t, *args, **kwargs), repeats)
        call = call_text(name, args, kwargs)
        diff = max_abs_diff(r_ours, r_theirs)
        assert diff <= tol, f"{call}: nanops and NumPy differ by {diff} > {tol}"
        rows.append((name, call, f"{t_ours * 1e3:.2f}", f"{t_theirs * 1e3:.2f}",
                     f"{t_theirs / t_ours:.1f}x", f"{diff:.2g}"))
    print_table(rows)


def station_demo() -> None:
    names = (DATA / "stations_hourly.csv").read_text().splitlines()[0].split(",")[1:]
    readings = np.genfromtxt(DATA / "stations_hourly.csv", delimiter=",", skip_header=1,
                             usecols=range(1, len(names) + 1), dtype=np.float64)
    count = nanops.nancount(readings, axis=0)
    mean = nanops.nanmean(readings, axis=0)
    low, high = nanops.nanmin(readings, axis=0), nanops.nanmax(readings, axis=0)
    p90 = nanops.nanpercentile(readings, 90, axis=0)
    np.testing.assert_array_equal(count, np.count_nonzero(~np.isnan(readings), axis=0))
    np.testing.assert_allclose(mean, np.nanmean(readings, axis=0), rtol=1e-12)
    np.testing.assert_array_equal(low, np.nanmin(readings, axis=0))
    np.testing.assert_array_equal(high, np.nanmax(readings, axis=0))
    np.testing.assert_allclose(p90, np.nanpercentile(readings, 90, axis=0), rtol=1e-12)
    print(f"\nstations_hourly.csv: {readings.shape[0]} hours x {len(names)} stations\n")
    rows: list[tuple[str, ...]] = [("station", "readings", "mean °C", "min °C", "max °C", "p90 °C")]
    for k, name in enumerate(names):
        rows.append((name, f"{count[k]}", f"{mean[k]:.2f}", f"{low[k]:.1f}", f"{high[k]:.1f}",
                     f"{p90[k]:.1f}"))
    print_table(rows)


def xarray_demo() -> None:
    """The same grid as an xarray DataArray: a rolling median over time by
    xarray and by its ``.nanops`` accessor (same call, same result)."""
    if xr is None:
        print("\n(xarray is not installed: the xarray example is skipped)")
        return
    tas = xr.DataArray(np.load(DATA / "temperature_daily.npy"), dims=("time", "lat", "lon"),
                       name="tas", attrs={"units": "°C"})
    with warnings.catch_warnings():  # all-NaN windows: NaN + warning
        warnings.simplefilter("ignore", RuntimeWarning)
        t_ours, ours = median_time(lambda: tas.nanops.rolling(time=15, min_periods=10).median(), 3)
        t_theirs, theirs = median_time(lambda: tas.rolling(time=15, min_periods=10).median(), 3)
    xr.testing.assert_allclose(ours, theirs, rtol=1e-6)
    print("\nxarray, the same grid as a DataArray (time, lat, lon):\n")
    print_table([
        ("call", "nanops ms", "xarray ms", "speed-up"),
        ("tas.nanops.rolling(time=15, min_periods=10).median()", f"{t_ours * 1e3:.2f}",
         f"{t_theirs * 1e3:.2f}", f"{t_theirs / t_ours:.1f}x"),
    ])


def main() -> int:
    print(f"nanops {getattr(nanops, '__version__', '?')}, NumPy {np.__version__}\n")
    grid_demo()
    station_demo()
    xarray_demo()
    print("\nnanops agrees with NumPy (and xarray) on every statistic above.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
