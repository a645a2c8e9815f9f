"""Imported by the benchmark scripts before numbagg: numba's OpenMP workers
sleep as soon as a numbagg call ends.

By default they spin for a while after each call, on the cores where the
next call, interleaved (nanops), runs: on a 2-core machine that call lost
a fifth to a third of its time (``group_nansum``, 100,000 random labels),
less with a pause between the two calls. numbagg's own times are the same
either way (the same calls in separate processes, with and without the
setting, within their run-to-run spread). Set only where the environment
does not set it.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
