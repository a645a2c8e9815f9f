"""Determinism: the same input gives the same bits, whatever the thread count.

nanops splits big reductions across rayon threads, but at chunk boundaries
that depend on the shape only, and merges the partial states in a fixed
order (``crates/nanops/src/par``). So a result must not change by a single
bit between one thread and many, nor from one run to the next.

Each thread count runs in a fresh interpreter, because rayon reads
``RAYON_NUM_THREADS`` once, when its global pool starts. The worker is this
very file run as a script: it builds a seeded input of 4M values, calls every
function (streaming reductions, scans and order statistics) over several
layouts (C, Fortran, axes 0 and 1 swapped in memory), axes (``None``, each axis, a tuple)
and dtypes (float16/32/64), and prints one SHA-256 digest per call of the
result's dtype, shape and bytes. The worker also reports how many threads its
first large call started, which proves the variable took effect (a test that
silently ran one pool size four times would prove nothing).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import threading
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import nanops
import numpy as np
import pytest

SHAPE = (64, 256, 256)  # 4,194,304 values: far above the parallel thresholds
THREAD_COUNTS = (1, 2, 3, 4)
DTYPES = (np.float64, np.float32, np.float16)
QS = np.array([0.0, 0.1, 0.25, 0.5, 0.9, 1.0])
ALL_LAYOUTS = ("C", "F", "T")
REDUCE_AXES: tuple[Any, ...] = (None, 0, 1, 2, (0, 2))


@dataclass(frozen=True)
class Spec:
    """One function of the workload, with the layouts and axes it is run on."""

    func: Callable[..., Any]
    axes: tuple[Any, ...] = REDUCE_AXES
    layouts: tuple[str, ...] = ALL_LAYOUTS


# Every streaming reduction on every layout and axis (they are cheap); the
# scans, whose output is input-sized, and the order statistics, whose lanes
# are independent anyway, on fewer combinations to keep the run short.
WORKLOAD: dict[str, Spec] = {
    "nansum": Spec(nanops.nansum),
    "nanprod": Spec(nanops.nanprod),
    "nanmean": Spec(nanops.nanmean),
    "nanvar": Spec(lambda a, axis: nanops.nanvar(a, axis=axis, ddof=1)),
    "nanstd": Spec(nanops.nanstd),
    "nanmin": Spec(nanops.nanmin),
    "nanmax": Spec(nanops.nanmax),
    "nanargmin": Spec(nanops.nanargmin, axes=(None, 0, 2)),
    "nanargmax": Spec(nanops.nanargmax, axes=(None, 0, 2)),
    "nancumsum": Spec(nanops.nancumsum, axes=(None, 0), layouts=("C",)),
    "nancumprod": Spec(nanops.nancumprod, axes=(0, 2), layouts=("T",)),
    "nanmedian": Spec(nanops.nanmedian),
    "nanquantile": Spec(lambda a, axis: nanops.nanquantile(a, QS, axis=axis),
                        axes=(None, 0, (0, 2)), layouts=("C", "F")),
    "nanpercentile": Spec(lambda a, axis: nanops.nanpercentile(a, 100 * QS, axis=axis, method="hazen"),
                          axes=(None, 2), layouts=("C", "T")),
}

# ------------------------------------------------------------------ worker


def make_input(dtype: type[np.floating[Any]]) -> dict[str, np.ndarray]:
    """The seeded input in three layouts, for one dtype.

    Values are ``1 + 0.01·N(0, 1)`` so that products of millions of them
    stay finite and informative (a product that under- or overflows would
    hide any difference), with 10% NaN and a few infinity-free outliers.
    """
    rng = np.random.default_rng(20240611)
    x = 1.0 + 0.01 * rng.standard_normal(SHAPE)
    x[rng.random(SHAPE) < 0.1] = np.nan
    x[rng.random(SHAPE) < 1e-5] = 1e3
    c = np.ascontiguousarray(x.astype(dtype))
    return {
        "C": c,
        "F": np.asfortranarray(c),
        # Axes 0 and 1 swapped in memory: neither C nor Fortran order.
        "T": np.ascontiguousarray(c.transpose(1, 0, 2)).transpose(1, 0, 2),
    }


def digest(value: Any) -> str:
    """SHA-256 of a result's dtype, shape and raw bytes."""
    a = np.ascontiguousarray(np.asarray(value))
    h = hashlib.sha256()
    h.update(f"{a.dtype.str}{a.shape}".encode())
    h.update(a.view(np.uint8).tobytes())
    return h.hexdigest()


def calls() -> Iterator[tuple[str, Callable[[], Any]]]:
    """Every (label, call) of the workload, in a fixed order."""
    for dtype in DTYPES:
        arrays = make_input(dtype)
        for name, spec in WORKLOAD.items():
            # The third layout only for float64: enough to cover its plan.
            layouts = [lay for lay in spec.layouts if lay != "T" or dtype is np.float64]
            for layout in layouts or spec.layouts[:1]:
                for axis in spec.axes:
                    yield (f"{np.dtype(dtype).name}/{layout}/{name}/axis={axis}",
                           partial(spec.func, arrays[layout], axis=axis))


def compute_digests() -> dict[str, str]:
    """Digest of every call of the workload."""
    out: dict[str, str] = {}
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for label, call in calls():
            out[label] = digest(call())
    return out


def _thread_count() -> int:
    return len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else -1


def worker(repeat: bool) -> None:
    """Entry point of the subprocess: print the digests (twice with ``repeat``) as JSON."""
    before = _thread_count()
    nanops.nansum(np.ones(1 << 22))  # starts rayon's global pool
    started = _thread_count() - before if before >= 0 else -1
    runs = [compute_digests() for _ in range(2 if repeat else 1)]
    print(json.dumps({"pool_threads": started, "runs": runs}))


# ------------------------------------------------------------------- tests

# The thread count whose worker computes everything twice: the most threads,
# where scheduling varies most from run to run.
REPEATED = THREAD_COUNTS[-1]


def _run_worker(threads: int) -> dict[str, Any]:
    env = dict(os.environ)
    env["RAYON_NUM_THREADS"] = str(threads)
    # Keep NumPy's BLAS from starting threads of its own, which would blur
    # the thread count the worker reports.
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = "1"
    package_root = str(Path(nanops.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
    args = [sys.executable, __file__] + (["--repeat"] if threads == REPEATED else [])
    proc = subprocess.run(args, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert proc.returncode == 0, f"worker with {threads} threads failed:\n{proc.stderr}"
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


@pytest.fixture(scope="module")
def per_thread_count() -> dict[int, dict[str, Any]]:
    """Each worker's report, by thread count."""
    return {n: _run_worker(n) for n in THREAD_COUNTS}


@pytest.mark.slow
def test_rayon_num_threads_takes_effect(per_thread_count: dict[int, dict[str, Any]]) -> None:
    """Each worker's first large call starts exactly the requested pool."""
    if not os.path.isdir("/proc/self/task"):
        pytest.skip("needs /proc to count threads")
    started = {n: r["pool_threads"] for n, r in per_thread_count.items()}
    assert started == {n: n for n in THREAD_COUNTS}, f"threads started per RAYON_NUM_THREADS: {started}"


@pytest.mark.slow
def test_same_bits_for_every_thread_count(per_thread_count: dict[int, dict[str, Any]]) -> None:
    """1, 2, 3 and 4 threads give bit-identical results for every call."""
    reference = per_thread_count[THREAD_COUNTS[0]]["runs"][0]
    assert len(reference) > 300
    for n in THREAD_COUNTS[1:]:
        got = per_thread_count[n]["runs"][0]
        assert got.keys() == reference.keys()
        differ = [label for label in reference if got[label] != reference[label]]
        assert not differ, (
            f"{len(differ)} of {len(reference)} results differ between 1 and {n} threads, "
            f"e.g. {differ[:10]}"
        )


@pytest.mark.slow
def test_same_bits_run_after_run(per_thread_count: dict[int, dict[str, Any]]) -> None:
    """Two runs of the whole workload in one process give identical bits."""
    first, second = per_thread_count[REPEATED]["runs"]
    differ = [label for label in first if first[label] != second[label]]
    assert not differ, f"{len(differ)} results changed between two runs, e.g. {differ[:10]}"


@pytest.mark.slow
@pytest.mark.thread_unsafe
def test_same_bits_from_concurrent_callers() -> None:
    """Calls racing on the shared pool from two Python threads still agree.

    Two threads compute a subset of the workload at once (their rayon tasks
    interleave on the same pool) and must match a serial computation.
    """
    a = make_input(np.float64)["C"]
    subset = {
        "nansum": lambda: nanops.nansum(a),
        "nanvar0": lambda: nanops.nanvar(a, axis=0),
        "nanmean02": lambda: nanops.nanmean(a, axis=(0, 2)),
        "nanmedian2": lambda: nanops.nanmedian(a, axis=2),
        "nanquantile": lambda: nanops.nanquantile(a, QS),
    }
    serial = {k: digest(f()) for k, f in subset.items()}
    results: list[dict[str, str]] = []

    def job() -> None:
        results.append({k: digest(f()) for k, f in subset.items()})

    threads = [threading.Thread(target=job) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [serial, serial]


if __name__ == "__main__":
    worker(repeat="--repeat" in sys.argv[1:])
