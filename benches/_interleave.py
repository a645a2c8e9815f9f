"""Timing libraries against each other in one process, shared by the scripts:
interleaved rounds, the order alternating, medians."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def _time(fn: Callable[[], object], inner: int) -> float:
    t0 = time.perf_counter()
    for _ in range(inner):
        fn()
    return (time.perf_counter() - t0) / inner


def interleaved_ms(fns: dict[str, Callable[[], object]], rounds: int) -> dict[str, float]:
    """The median milliseconds per call of each of ``fns`` (name -> call):
    each called once to warm, then timed in ``rounds`` rounds, the order of
    the calls reversed every other round, each timing repeating its call for
    about 2 ms (by the first function's time)."""
    for fn in fns.values():
        fn()
    first = next(iter(fns.values()))
    inner = max(1, int(2e-3 / max(_time(first, 1), 1e-7)))
    times: dict[str, list[float]] = {name: [] for name in fns}
    order = list(fns.items())
    for r in range(rounds):
        for name, fn in order if r % 2 == 0 else order[::-1]:
            times[name].append(_time(fn, inner))
    return {name: statistics.median(v) * 1e3 for name, v in times.items()}
