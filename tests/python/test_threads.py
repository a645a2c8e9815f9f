"""Thread safety and GIL release of the compiled functions.

* Python threads calling nanops at once, on the same shared arrays, get
  exactly (bit for bit) the results of a serial run, and leave the inputs
  untouched. The inputs are large enough for nanops to split them across its
  rayon pool, so calls from different Python threads interleave their tasks
  on the same pool, and small enough ones stay on the calling thread.
* The GIL is released while nanops computes: a pure-Python thread keeps
  running during one long call. Its progress is read from timestamps it logs
  itself, in the middle half of the call, so the Python code before and after
  the native call (argument parsing, wrapping the result) cannot account for
  it. A control call that is known to hold the GIL (``sum(range(n))``, one C
  loop) shows that the probe does detect a held GIL.
"""

from __future__ import annotations

import random
import sys
import threading
import time
import warnings
from collections.abc import Callable
from functools import partial
from itertools import pairwise
from typing import Any

import nanops
import numpy as np
import pytest
from _support import snapshot

N_THREADS = 8
BIG = (1000, 2000)  # 2M values: above the threshold for using rayon threads
QS = [0.1, 0.5, 0.9]

Case = tuple[str, Callable[[], Any]]

# ------------------------------------------------------------------ inputs


def _values(rng: np.random.Generator, shape: tuple[int, ...], dtype: type) -> np.ndarray:
    """``1 + 0.01·N(0, 1)`` with 10% NaN and no all-NaN lane along any axis.

    Values near 1 keep products of thousands of them finite, so ``nanprod``
    and ``nancumprod`` results carry information.
    """
    x = 1.0 + 0.01 * rng.standard_normal(shape)
    x[rng.random(shape) < 0.1] = np.nan
    x[(0,) * len(shape)] = 1.0  # one known value; lanes are long or few
    return np.ascontiguousarray(x.astype(dtype))


def shared_inputs() -> dict[str, np.ndarray]:
    """The arrays all threads share, in several sizes, layouts and dtypes."""
    rng = np.random.default_rng(7)
    big64 = _values(rng, BIG, np.float64)
    return {
        "big64": big64,                                        # C order
        "big64T": big64.T,                                     # Fortran-order view
        "big32": _values(rng, (BIG[0] * BIG[1],), np.float32),  # 1-D
        "mask": rng.random(BIG) < 0.9,                         # where= of big64
        "small64": _values(rng, (7, 13), np.float64),
        "small32": _values(rng, (5, 4, 3), np.float32),
        "small16": _values(rng, (2, 50), np.float16),
    }


def cases(x: dict[str, np.ndarray]) -> list[Case]:
    """(label, call) pairs covering all 14 functions over ``x``'s arrays."""
    big64, big64T, big32 = x["big64"], x["big64T"], x["big32"]
    out: list[Case] = [
        # Large C-ordered float64, each axis kind (all, outer, inner, tuple).
        ("nansum big64", lambda: nanops.nansum(big64)),
        ("nansum big64 axis=0", lambda: nanops.nansum(big64, axis=0)),
        ("nansum big64 axis=1 where", lambda: nanops.nansum(big64, axis=1, where=x["mask"])),
        ("nanprod big64 axis=1", lambda: nanops.nanprod(big64, axis=1)),
        ("nanprod big64 axis=0", lambda: nanops.nanprod(big64, axis=0)),
        ("nanmean big64", lambda: nanops.nanmean(big64)),
        ("nanmean big64 axis=(0,1)", lambda: nanops.nanmean(big64, axis=(0, 1), keepdims=True)),
        ("nanmean big64 axis=0 out", lambda: nanops.nanmean(big64, axis=0, out=np.empty(BIG[1]))),
        ("nanvar big64 axis=0 ddof=1", lambda: nanops.nanvar(big64, axis=0, ddof=1)),
        ("nanvar big64", lambda: nanops.nanvar(big64)),
        ("nanstd big64 axis=1", lambda: nanops.nanstd(big64, axis=1)),
        ("nanmin big64", lambda: nanops.nanmin(big64)),
        ("nanmax big64 axis=0", lambda: nanops.nanmax(big64, axis=0)),
        ("nanargmin big64", lambda: nanops.nanargmin(big64)),
        ("nanargmax big64 axis=1", lambda: nanops.nanargmax(big64, axis=1)),
        ("nanargmin big64 axis=0", lambda: nanops.nanargmin(big64, axis=0)),
        ("nancumsum big64 axis=0", lambda: nanops.nancumsum(big64, axis=0)),
        ("nancumprod big64 axis=1", lambda: nanops.nancumprod(big64, axis=1)),
        ("nanmedian big64", lambda: nanops.nanmedian(big64)),
        ("nanmedian big64 axis=0", lambda: nanops.nanmedian(big64, axis=0)),
        ("nanquantile big64 axis=1", lambda: nanops.nanquantile(big64, QS, axis=1)),
        ("nanpercentile big64", lambda: nanops.nanpercentile(big64, 90, method="nearest")),
        # The same buffer seen in Fortran order.
        ("nansum big64T axis=0", lambda: nanops.nansum(big64T, axis=0)),
        ("nanmean big64T", lambda: nanops.nanmean(big64T)),
        ("nanvar big64T axis=1", lambda: nanops.nanvar(big64T, axis=1)),
        ("nanmax big64T axis=1", lambda: nanops.nanmax(big64T, axis=1)),
        ("nanargmax big64T axis=0", lambda: nanops.nanargmax(big64T, axis=0)),
        ("nanmedian big64T axis=0", lambda: nanops.nanmedian(big64T, axis=0)),
        # Large float32, one long lane (float64 accumulators, chunked merges).
        ("nansum big32", lambda: nanops.nansum(big32)),
        ("nanprod big32", lambda: nanops.nanprod(big32)),
        ("nanmean big32", lambda: nanops.nanmean(big32)),
        ("nanstd big32 ddof=1", lambda: nanops.nanstd(big32, ddof=1)),
        ("nanmin big32", lambda: nanops.nanmin(big32)),
        ("nanargmax big32", lambda: nanops.nanargmax(big32)),
        ("nancumsum big32", lambda: nanops.nancumsum(big32)),
        ("nanmedian big32", lambda: nanops.nanmedian(big32)),
        ("nanquantile big32", lambda: nanops.nanquantile(big32, QS, method="hazen")),
        ("nanpercentile big32", lambda: nanops.nanpercentile(big32, [5, 95])),
    ]
    # Small arrays: every function, every axis (the calling thread only).
    for name in ("small64", "small32", "small16"):
        a = x[name]
        for axis in (None, *range(a.ndim)):
            out += [
                (f"{f.__name__} {name} axis={axis}", partial(f, a, axis=axis))
                for f in (nanops.nansum, nanops.nanprod, nanops.nanmean, nanops.nanvar,
                          nanops.nanstd, nanops.nanmin, nanops.nanmax, nanops.nanargmin,
                          nanops.nanargmax, nanops.nancumsum, nanops.nancumprod,
                          nanops.nanmedian)
            ]
            out += [
                (f"nanquantile {name} axis={axis}", partial(nanops.nanquantile, a, QS, axis=axis)),
                (f"nanpercentile {name} axis={axis}", partial(nanops.nanpercentile, a, 50, axis=axis)),
            ]
    return out


def same_bits(got: Any, want: Any) -> bool:
    """Same kind (array or scalar), dtype, shape and bytes, NaN payloads included."""
    if isinstance(got, np.ndarray) != isinstance(want, np.ndarray) or type(got) is not type(want):
        return False
    g, w = np.asarray(got), np.asarray(want)
    return g.dtype == w.dtype and g.shape == w.shape and g.tobytes() == w.tobytes()


# ------------------------------------------------------------------- tests


def test_cases_cover_every_function() -> None:
    """The concurrent workload calls all 14 functions."""
    called = {label.split()[0] for label, _ in cases(shared_inputs())}
    assert called == {
        "nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmin", "nanmax",
        "nanargmin", "nanargmax", "nancumsum", "nancumprod", "nanmedian",
        "nanquantile", "nanpercentile",
    }


@pytest.mark.thread_unsafe
def test_concurrent_calls_match_serial_results() -> None:
    """8 threads, each running the whole workload in its own order, on shared inputs.

    Every result must equal, bit for bit, the serial result computed first;
    no call may raise; no byte of a shared input may change.
    """
    x = shared_inputs()
    work = cases(x)
    before = {name: snapshot(a) for name, a in x.items()}
    # The data has no empty or all-NaN slice: a warning here would be a bug in
    # the test data (and the warnings machinery is not thread-safe).
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        serial = {label: call() for label, call in work}

    barrier = threading.Barrier(N_THREADS)
    mismatches: list[str] = []
    errors: list[tuple[str, BaseException]] = []
    done = [0] * N_THREADS

    def job(k: int) -> None:
        order = list(work)
        random.Random(k).shuffle(order)
        barrier.wait()
        for label, call in order:
            try:
                got = call()
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append((label, exc))
                continue
            if not same_bits(got, serial[label]):
                mismatches.append(f"thread {k}: {label}: got {got!r}, serial {serial[label]!r}")
            done[k] += 1

    threads = [threading.Thread(target=job, args=(k,)) for k in range(N_THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    if errors:
        label, exc = errors[0]
        raise AssertionError(f"{len(errors)} concurrent calls raised; first: {label}") from exc
    assert not mismatches, f"{len(mismatches)} results differ from serial:\n" + "\n".join(mismatches[:10])
    assert done == [len(work)] * N_THREADS
    changed = [name for name, a in x.items() if snapshot(a) != before[name]]
    assert not changed, f"shared inputs modified: {changed}"


# --------------------------------------------------------------- GIL release

MIN_CALL_S = 0.2       # a probed call must last at least this long
TARGET_CALL_S = 0.35   # calibration aims for this
MIN_PROGRESS = 1000    # heartbeat increments required in the middle of the call
LANE = 1 << 20         # values per row of the probe arrays


class Heartbeat(threading.Thread):
    """A pure-Python counting loop that logs ``(time, count)`` every 256 steps."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.halt = False
        self.log: list[tuple[float, int]] = []

    def run(self) -> None:
        n, log, clock = 0, self.log, time.perf_counter
        while not self.halt:
            n += 1
            if not n & 255:
                log.append((clock(), n))

    def count_at(self, t: float) -> int:
        """The count logged last at or before time ``t`` (0 before the first)."""
        count = 0
        for when, n in self.log:
            if when > t:
                break
            count = n
        return count

    def longest_gap(self, t0: float, t1: float) -> float:
        """The longest time in ``[t0, t1]`` without a log entry."""
        times = [t0, *(w for w, _ in self.log if t0 < w < t1), t1]
        return max(b - a for a, b in pairwise(times))


def probe(call: Callable[[], Any]) -> tuple[float, int, float]:
    """Run ``call`` beside a heartbeat thread.

    Returns the call's duration ``d``, the heartbeat's progress in the middle
    half of the call (``[t0 + d/4, t1 - d/4]``) and its longest pause during
    the call.
    """
    beat = Heartbeat()
    beat.start()
    while len(beat.log) < 10:  # let it get going
        time.sleep(0.001)
    t0 = time.perf_counter()
    call()
    t1 = time.perf_counter()
    beat.halt = True
    beat.join()
    d = t1 - t0
    progress = beat.count_at(t1 - d / 4) - beat.count_at(t0 + d / 4)
    return d, progress, beat.longest_gap(t0, t1)


def calibrated(make_call: Callable[[int], Callable[[], Any]], first: int = 1) -> tuple[int, float]:
    """The smallest power-of-two size ``k >= first`` whose call lasts ``TARGET_CALL_S``.

    Sizes double until one call is long enough, so the probe adapts to the
    speed of the build and of the machine.
    """
    k = first
    while True:
        t0 = time.perf_counter()
        make_call(k)()
        d = time.perf_counter() - t0
        if d >= TARGET_CALL_S or k >= 1 << 16:
            return k, d
        k *= 2 if d > TARGET_CALL_S / 4 else 4


def _rows(rows: int) -> np.ndarray:
    """``rows`` copies of one 1M-value lane, as a zero-stride view (no memory)."""
    rng = np.random.default_rng(3)
    lane = rng.standard_normal(LANE)
    lane[rng.random(LANE) < 0.1] = np.nan
    return np.broadcast_to(lane, (rows, LANE))


PROBES: dict[str, Callable[[int], Callable[[], Any]]] = {
    "nanmedian": lambda k: partial(nanops.nanmedian, _rows(k), axis=1),
    "nanquantile": lambda k: partial(nanops.nanquantile, _rows(k), QS, axis=1),
    "nanvar": lambda k: partial(nanops.nanvar, _rows(k), axis=1),
    "nansum": lambda k: partial(nanops.nansum, _rows(k)),
}


def _probe_calibrated(make_call: Callable[[int], Callable[[], Any]]) -> tuple[float, int, float]:
    """Probe a call calibrated to last long enough (retrying longer if it got faster)."""
    k, _ = calibrated(make_call)
    for _ in range(4):
        d, progress, gap = probe(make_call(k))
        if d >= MIN_CALL_S:
            break
        k *= 2
    assert d >= MIN_CALL_S, f"could not make the call last {MIN_CALL_S} s (last: {d:.3f} s)"
    return d, progress, gap


@pytest.mark.thread_unsafe
@pytest.mark.parametrize("name", list(PROBES))
def test_gil_released_during_computation(name: str) -> None:
    """Another Python thread keeps counting while one long nanops call runs."""
    d, progress, gap = _probe_calibrated(PROBES[name])
    assert progress > MIN_PROGRESS, (
        f"{name}: a Python thread advanced only {progress} steps in the middle half of a "
        f"{d:.3f} s call (longest pause {gap:.3f} s): the GIL seems held"
    )


@pytest.mark.thread_unsafe
@pytest.mark.skipif(not getattr(sys, "_is_gil_enabled", lambda: True)(), reason="no GIL")
def test_probe_detects_a_held_gil() -> None:
    """Control: during ``sum(range(n))``, which holds the GIL, the heartbeat stops.

    The heartbeat cannot run at all while the C loop holds the GIL, so it
    pauses for (nearly) the whole call; a released GIL shows no such pause.
    """
    d, _, gap = _probe_calibrated(lambda k: partial(sum, range(k * 100_000)))
    assert gap > d / 2, f"heartbeat paused at most {gap:.3f} s during a {d:.3f} s GIL-holding call"
