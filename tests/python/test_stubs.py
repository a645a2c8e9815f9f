"""The type stubs agree with the runtime (``mypy.stubtest``).

``python -m mypy.stubtest nanops`` checks ``nanops/__init__.pyi`` against
the imported package (the functions the registry generates: parameter names,
kinds and defaults, ``__all__``) and, as a submodule, ``nanops/_nanops.pyi``
against the compiled module.  The private ``.py`` modules are their own
stubs, so this also type-checks them with mypy.  (Naming ``nanops._nanops``
as well would make mypy see that stub twice: "Duplicate module".)  Nothing
needs an allowlist today.

stubtest does not compare the default values of overloaded functions (it
merges the overloads first), so ``test_stub_defaults_are_the_runtime_ones``
reads ``__init__.pyi`` and compares every literal default of every overload,
and the parameter order, with ``inspect.signature`` of the runtime function.
"""

from __future__ import annotations

import ast
import inspect
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import nanops

STUB = Path(nanops.__file__).with_name("__init__.pyi")


def test_stubs_match_the_runtime(tmp_path: Path) -> None:
    pytest.importorskip("mypy.stubtest")
    package_root = str(Path(nanops.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [package_root, *filter(None, [os.environ.get("PYTHONPATH")])]
    )}
    proc = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "nanops"],
        cwd=tmp_path,  # mypy's cache goes there
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Success" in proc.stdout


def _stub_functions() -> dict[str, list[ast.FunctionDef]]:
    """Every ``def`` of ``__init__.pyi`` (all overloads), by name."""
    found: dict[str, list[ast.FunctionDef]] = {}
    for node in ast.parse(STUB.read_text()).body:
        if isinstance(node, ast.FunctionDef):
            found.setdefault(node.name, []).append(node)
    return found


def _stub_parameters(fn: ast.FunctionDef) -> list[tuple[str, ast.expr | None]]:
    """(name, default expression or None) of each parameter, in order."""
    args = fn.args
    positional = args.posonlyargs + args.args
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults))
    defaults += args.defaults
    params = list(zip([a.arg for a in positional], defaults))
    params += [(a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults)]
    return params


def test_stub_defaults_are_the_runtime_ones() -> None:
    stubs = _stub_functions()
    public = [name for name in nanops.__all__ if name != "__version__"]
    assert sorted(stubs) == sorted(public)
    for name in public:
        runtime = inspect.signature(getattr(nanops, name)).parameters
        for overload in stubs[name]:
            params = _stub_parameters(overload)
            where = f"{name} (stub line {overload.lineno})"
            assert [p for p, _ in params] == list(runtime), where
            for param, default in params:
                if default is None:  # required in this overload
                    continue
                if isinstance(default, ast.Constant) and default.value is not Ellipsis:
                    assert runtime[param].default == default.value, f"{where}: {param}"
                elif isinstance(default, ast.UnaryOp):  # a negative number: `axis=-1`
                    assert runtime[param].default == ast.literal_eval(default), f"{where}: {param}"
                else:  # `...`: only where the runtime default is NumPy's sentinel
                    assert isinstance(default, ast.Constant), f"{where}: {param}"
                    assert runtime[param].default is np._NoValue, f"{where}: {param}"
