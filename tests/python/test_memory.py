"""Peak memory: streaming reductions allocate no input-sized temporaries.

Each function is measured in a fresh interpreter (this file run as a script),
on an 800 MB float64 input of 100M values with 10% NaN, filled in small
chunks so that building it leaves no large temporary behind. For each case
the worker trims the C heap, resets the kernel's peak-RSS counter
(``/proc/self/clear_refs``), reads the current RSS, calls the function once
and reads the peak RSS (``VmHWM``); the difference is the call's peak extra
memory: scratch buffers, partial states, thread stacks touched, the output.

* ``nanmean``, ``nanvar``, ``nanmax``, ``nanargmin`` over all values, and over
  axis 0 and axis 1 of the same buffer seen as (10000, 10000): extra < 10% of
  the input.
* Order statistics copy the non-NaN values of one lane into a scratch
  buffer per thread: ``nanmedian`` over all values (a single lane) may use one
  input-sized lane plus 10%; ``nanmedian``/``nanquantile`` over rows use at
  most one row-sized scratch per pool thread, plus the output, plus a little
  slack for allocator and thread bookkeeping.
* Control: NumPy's own ``nanmean``, which copies the input, is measured at
  more than the input's size, so the method does see temporaries.

Linux only (``/proc``); skipped when less than 4 GB of memory is available.
These tests take about 20 s (mostly page-faulting the input in each worker).
"""

from __future__ import annotations

import ctypes
import gc
import json
import os
import subprocess
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import nanops
import numpy as np
import pytest

N = 100_000_000               # values: 800 MB of float64
SIDE = 10_000                 # the 2-D cases view the buffer as (SIDE, SIDE)
INPUT_BYTES = N * 8
STREAMING_LIMIT = INPUT_BYTES // 10
SLACK = 8 << 20               # allocator/thread bookkeeping allowed to order statistics
MIN_AVAILABLE = 4 << 30
QS = [0.1, 0.5, 0.9]

# Case name -> (array view, axis). "all" reduces a 1-D view of the buffer.
CASES = ("all", "axis0", "axis1")

FUNCS: dict[str, Callable[..., Any]] = {
    "nanmean": nanops.nanmean,
    "nanvar": nanops.nanvar,
    "nanmax": nanops.nanmax,
    "nanargmin": nanops.nanargmin,
    "nanmedian": nanops.nanmedian,
    "nanquantile": lambda a, axis: nanops.nanquantile(a, QS, axis=axis),
    # Control: NumPy's nanmean copies the input (NaN replaced by 0) and
    # builds a mask, so the measurement must see input-sized temporaries.
    "numpy.nanmean": np.nanmean,
}

# ------------------------------------------------------------------ worker


def _status_bytes(field: str) -> int:
    """A memory field of ``/proc/self/status`` (``VmRSS``, ``VmHWM``), in bytes."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"{field} not in /proc/self/status")


def _reset_peak() -> bool:
    """Reset ``VmHWM`` to the current RSS; False where the kernel refuses."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        return False
    return _status_bytes("VmHWM") <= _status_bytes("VmRSS") + (1 << 20)


def _trim_heap() -> None:
    """Return freed C-heap memory to the system, so that a call cannot reuse it unseen."""
    gc.collect()
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):  # not glibc
        pass


def _build_input() -> np.ndarray:
    """100M float64 values uniform in [0.1, 1) or NaN (10%), filled in 1 MB chunks."""
    a = np.empty(N)
    rng = np.random.default_rng(12345)
    step = 1 << 17
    for start in range(0, N, step):
        chunk = a[start:start + step]
        rng.random(out=chunk)
        chunk[chunk < 0.1] = np.nan
    return a


def _view(a: np.ndarray, case: str) -> tuple[np.ndarray, int | None]:
    if case == "all":
        return a, None
    return a.reshape(SIDE, SIDE), int(case[-1])


def worker(name: str, cases: list[str]) -> None:
    """Measure ``name`` on ``cases`` and print ``{"threads", "cases": {case: {...}}}``.

    Where the peak counter cannot be reset, only the first case is measured
    (the parent then starts another worker for the rest).
    """
    func = FUNCS[name]
    # Warm up on a (512, 1024) array, above the parallel threshold, so that
    # rayon's pool and the allocator's per-thread arenas exist beforehand.
    warm = np.arange(512 * 1024, dtype=np.float64).reshape(512, 1024)
    tasks_before = len(os.listdir("/proc/self/task"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for case in cases:
            func(warm, axis=None if case == "all" else int(case[-1]))
    threads = max(1, len(os.listdir("/proc/self/task")) - tasks_before)
    del warm

    a = _build_input()
    report: dict[str, Any] = {"threads": threads, "cases": {}}
    for i, case in enumerate(cases):
        view, axis = _view(a, case)
        _trim_heap()
        if not _reset_peak() and i > 0:
            break
        rss = _status_bytes("VmRSS")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = func(view, axis=axis)
        peak = _status_bytes("VmHWM")
        report["cases"][case] = {
            "extra": peak - rss, "rss": rss, "peak": peak, "out_bytes": np.asarray(result).nbytes,
        }
        del result
    print(json.dumps(report))


# ------------------------------------------------------------------- tests


def _available_bytes() -> int:
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


pytestmark = [
    pytest.mark.slow,
    pytest.mark.thread_unsafe,
    pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux /proc"),
    pytest.mark.skipif(_available_bytes() < MIN_AVAILABLE, reason="needs 4 GB of available memory"),
]


def measure(name: str, cases: tuple[str, ...]) -> tuple[int, dict[str, dict[str, int]]]:
    """Pool threads and per-case measurements of ``name``, from fresh workers."""
    env = dict(os.environ)
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = "1"  # only nanops' own threads are counted and measured
    package_root = str(Path(nanops.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
    measured: dict[str, dict[str, int]] = {}
    threads = 1
    while len(measured) < len(cases):
        todo = [c for c in cases if c not in measured]
        proc = subprocess.run(
            [sys.executable, __file__, name, *todo],
            env=env, capture_output=True, text=True, timeout=300, check=False,
        )
        assert proc.returncode == 0, f"{name} worker failed:\n{proc.stderr}"
        report = json.loads(proc.stdout)
        assert report["cases"], f"{name} worker measured nothing"
        measured.update(report["cases"])
        threads = report["threads"]
    return threads, measured


def _describe(name: str, case: str, m: dict[str, int]) -> str:
    return (f"{name} {case}: peak extra {m['extra'] / 1e6:.1f} MB "
            f"({100 * m['extra'] / INPUT_BYTES:.2f}% of the 800 MB input)")


@pytest.mark.parametrize("name", ["nanmean", "nanvar", "nanmax", "nanargmin"])
def test_streaming_reductions_need_no_input_sized_memory(name: str) -> None:
    """Peak extra memory < 10% of the input, for all values, axis 0 and axis 1."""
    _, measured = measure(name, CASES)
    for case in CASES:
        print(_describe(name, case, measured[case]))
    over = {c: m for c, m in measured.items() if m["extra"] >= STREAMING_LIMIT}
    assert not over, "; ".join(_describe(name, c, m) for c, m in over.items())


def test_measurement_sees_input_sized_temporaries() -> None:
    """Control: ``numpy.nanmean``, which copies its input, measures as such."""
    _, measured = measure("numpy.nanmean", ("all",))
    m = measured["all"]
    print(_describe("numpy.nanmean", "all", m))
    assert m["extra"] > INPUT_BYTES, _describe("numpy.nanmean", "all", m)


def test_nanmedian_of_all_values_needs_one_lane() -> None:
    """All values form one lane: at most one input-sized scratch copy, plus 10%."""
    _, measured = measure("nanmedian", ("all",))
    m = measured["all"]
    print(_describe("nanmedian", "all", m))
    assert m["extra"] <= INPUT_BYTES + STREAMING_LIMIT, _describe("nanmedian", "all", m)


@pytest.mark.parametrize("name", ["nanmedian", "nanquantile"])
def test_order_statistics_over_rows_need_one_lane_per_thread(name: str) -> None:
    """Along an axis: a lane-sized scratch per pool thread, plus the output and slack."""
    cases = ("axis1", "axis0")
    threads, measured = measure(name, cases)
    lane = SIDE * 8
    for case in cases:
        m = measured[case]
        limit = threads * lane + m["out_bytes"] + SLACK
        print(_describe(name, case, m) + f"; limit {limit / 1e6:.2f} MB ({threads} threads)")
        assert m["extra"] <= limit, (
            _describe(name, case, m) + f" > {threads} threads x {lane} B lane + "
            f"{m['out_bytes']} B output + {SLACK} B slack = {limit} B"
        )


if __name__ == "__main__":
    worker(sys.argv[1], sys.argv[2:])
