"""NumPy's own ``numpy/lib/tests/test_nanfunctions.py``, run against nanops.

How it is wired
---------------
1. The test module is loaded from the *installed* NumPy (``numpy.__file__``),
   never copied into this repository, under the private name ``MODULE_NAME``.
2. While it is being imported, every ``numpy.nan*`` name is rebound to the
   matching ``nanops`` function: NumPy's class bodies capture the functions at
   import time (``nanfuncs = [np.nanmin, np.nanmax]``, parametrize lists, ...).
3. Right after the import the real NumPy functions are put back, so no other
   test file ever sees a patched NumPy. The loaded module's global ``np`` is
   then replaced by ``NumpyWithNanops``, a module object that forwards every
   attribute to NumPy except the rebound names, so that calls made *inside* the
   test bodies at run time (``np.nanmedian(d, ...)``) also reach nanops.
4. Every ``Test*`` class and ``test*`` function of that module is re-exported
   here, so pytest collects NumPy's whole suite as part of ours (node ids read
   ``tests/python/test_numpy_suite.py::TestNanFunctions_MinMax::...``).

The ``test_wiring_*`` functions at the bottom check that this really happened.
"""

from __future__ import annotations

import importlib.util
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import nanops

REBOUND: tuple[str, ...] = (
    "nanmin", "nanmax", "nanargmin", "nanargmax", "nansum", "nanprod",
    "nancumsum", "nancumprod", "nanmean", "nanvar", "nanstd",
    "nanmedian", "nanquantile", "nanpercentile",
)
MODULE_NAME = "nanops_numpy_suite_test_nanfunctions"
NUMPY_TEST_FILE = Path(np.__file__).parent / "lib" / "tests" / "test_nanfunctions.py"

# NumPy's genuine functions, captured before anything is rebound.
NUMPY_ORIGINALS: dict[str, Callable[..., Any]] = {n: getattr(np, n) for n in REBOUND}


class NumpyWithNanops(types.ModuleType):
    """``numpy`` as seen by the loaded test module: nan* names come from nanops."""

    def __getattr__(self, name: str) -> Any:  # only called for names not set below
        return getattr(np, name)


def _load_numpy_suite() -> types.ModuleType:
    if not NUMPY_TEST_FILE.is_file():
        raise FileNotFoundError(
            f"{NUMPY_TEST_FILE} is missing: this NumPy was installed without its tests"
        )
    spec = importlib.util.spec_from_file_location(MODULE_NAME, NUMPY_TEST_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[MODULE_NAME] = module
    try:
        for name in REBOUND:
            setattr(np, name, getattr(nanops, name))
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(MODULE_NAME, None)
        raise
    finally:
        for name, func in NUMPY_ORIGINALS.items():
            setattr(np, name, func)
    proxy = NumpyWithNanops("numpy", "NumPy with nan* functions taken from nanops")
    for name in REBOUND:
        setattr(proxy, name, getattr(nanops, name))
    module.np = proxy  # type: ignore[attr-defined]
    return module


numpy_suite = _load_numpy_suite()

EXPOSED: list[str] = []
for _name, _obj in vars(numpy_suite).items():
    is_test_class = _name.startswith("Test") and isinstance(_obj, type)
    is_test_func = _name.startswith("test") and isinstance(_obj, types.FunctionType)
    if is_test_class or is_test_func:
        assert _name not in globals(), f"name clash with NumPy's test {_name}"
        globals()[_name] = _obj
        EXPOSED.append(_name)
del _name, _obj


def test_wiring_numpy_is_restored() -> None:
    for name, func in NUMPY_ORIGINALS.items():
        assert getattr(np, name) is func, f"numpy.{name} was left rebound"
        assert getattr(nanops, name) is not func, f"nanops.{name} is NumPy's own function"


def test_wiring_runtime_calls_reach_nanops() -> None:
    proxy = numpy_suite.np
    assert isinstance(proxy, NumpyWithNanops)
    for name in REBOUND:
        assert getattr(proxy, name) is getattr(nanops, name)
    assert proxy.ndarray is np.ndarray  # everything else is NumPy's


def test_wiring_class_bodies_captured_nanops() -> None:
    assert numpy_suite.TestNanFunctions_MinMax.nanfuncs == [nanops.nanmin, nanops.nanmax]
    assert numpy_suite.TestNanFunctions_ArgminArgmax.nanfuncs == [nanops.nanargmin, nanops.nanargmax]
    assert numpy_suite.TestNanFunctions_SumProd.nanfuncs == [nanops.nansum, nanops.nanprod]
    assert numpy_suite.TestNanFunctions_MeanVarStd.nanfuncs == [
        nanops.nanmean, nanops.nanvar, nanops.nanstd,
    ]
    assert set(numpy_suite.TestSignatureMatch.NANFUNCS) == {getattr(nanops, n) for n in REBOUND}
    assert set(numpy_suite.TestNanFunctions_NumberTypes.nanfuncs) <= {
        getattr(nanops, n) for n in REBOUND
    }


def test_wiring_every_numpy_test_is_collected(request: pytest.FixtureRequest) -> None:
    classes = [n for n in EXPOSED if n.startswith("Test")]
    assert len(classes) >= 10, EXPOSED  # MinMax, ArgminArgmax, SumProd, ... Quantile
    here = request.node.nodeid.split("::")[0]
    collected = {
        item.nodeid.split("::")[1].split("[")[0]
        for item in request.session.items
        if item.nodeid.startswith(here + "::")
    }
    opt = request.config.option
    if opt.keyword or opt.markexpr or any("::" in arg for arg in request.config.args):
        pytest.skip("a selection is active: collection is checked on full runs only")
    missing = set(EXPOSED) - collected
    assert not missing, f"NumPy tests not collected: {sorted(missing)}"
