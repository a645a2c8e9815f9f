"""Shared pytest configuration for the Python test-suite of nanops.

Markers are registered here (as well as in ``pyproject.toml``) so that the suite
runs warning-free whichever configuration file pytest picks up.

``numpy_difference`` marks a test that pins a *documented* difference from NumPy
(wider accumulation, overflow-free median, weighted ``averaged_inverted_cdf``
...). Such tests fail by design when ``nanops`` is only NumPy in disguise; set
``NANOPS_SHIM=1`` to skip them when validating the suite against such a shim.
The default run includes them.
"""

from __future__ import annotations

import os

import pytest

SHIM = os.environ.get("NANOPS_SHIM", "") not in ("", "0")

MARKERS = (
    "thread_unsafe: NumPy's marker for tests not safe under pytest-run-parallel",
    "slow: long-running tests",
    "numpy_difference: pins a documented difference from NumPy (skipped with NANOPS_SHIM=1)",
)


def pytest_configure(config: pytest.Config) -> None:
    for line in MARKERS:
        config.addinivalue_line("markers", line)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not SHIM:
        return
    skip = pytest.mark.skip(reason="documented difference from NumPy; NANOPS_SHIM=1")
    for item in items:
        if item.get_closest_marker("numpy_difference") is not None:
            item.add_marker(skip)
