"""The results store of the benchmark scripts, shared by them.

A script run with ``--write`` saves its section's data to
``benches/results/<name>.json`` (:func:`save`): the command line, the date,
the commit, the machine, the versions of the libraries it imported and one
JSON object per row with its raw times. ``python3 benches/report.py
--assemble`` renders BENCHMARKS.md from those files; no script writes
BENCHMARKS.md itself.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: The benchmarks file, at the repository root (written by ``benches/report.py``).
BENCHMARKS = ROOT / "BENCHMARKS.md"
#: One JSON file per section of BENCHMARKS.md.
RESULTS = ROOT / "benches" / "results"

#: Distribution names whose versions a results file records when the script
#: imported them (key: the module name).
PACKAGES = {
    "numpy": "NumPy", "bottleneck": "bottleneck", "numbagg": "numbagg", "pandas": "pandas",
    "xarray": "xarray", "dask": "dask", "flox": "flox", "nanops": "nanops",
}


def git_commit() -> tuple[str, bool]:
    """The short hash of HEAD and whether tracked files differ from it;
    ``("unknown", False)`` outside a git checkout."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                              check=True, timeout=30).stdout.strip()
    try:
        return git("rev-parse", "--short", "HEAD"), bool(
            git("status", "--porcelain", "--untracked-files=no"))
    except (OSError, subprocess.SubprocessError):
        return "unknown", False


def machine() -> dict[str, Any]:
    """CPU count, architecture and kernel of this machine."""
    return {"cpus": os.cpu_count(), "arch": platform.machine(),
            "kernel": f"{platform.system()} {platform.release()}"}


def versions() -> dict[str, str]:
    """Python's version and those of the :data:`PACKAGES` the script imported."""
    out = {"Python": platform.python_version()}
    for module, label in PACKAGES.items():
        mod = sys.modules.get(module)
        version = getattr(mod, "__version__", None) if mod is not None else None
        if version is not None:
            out[label] = str(version)
    return out


def command_line(script: str) -> str:
    """The command that ran ``script`` (``python3 benches/x.py`` and its arguments)."""
    return " ".join(["python3", f"benches/{script}", *sys.argv[1:]])


def _rounded(value: Any) -> Any:
    """Floats to 6 significant digits (the timings' noise is percents), recursively."""
    if isinstance(value, float):
        return float(f"{value:.6g}")
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_rounded(v) for v in value]
    return value


def dumps(data: dict[str, Any]) -> str:
    """``data`` as JSON, one line per row (short diffs when numbers change)."""
    head = json.dumps({k: v for k, v in data.items() if k != "rows"}, indent=1,
                      ensure_ascii=False)
    rows = ",\n".join("  " + json.dumps(r, ensure_ascii=False) for r in data.get("rows", []))
    return head[:-2] + ',\n "rows": [\n' + rows + "\n ]\n}\n"


def save(name: str, title: str, rows: Sequence[dict[str, Any]], *, command: str,
         statistic: str | None, rounds: int | None, unit: str = "ms",
         commit: str | None = None, directory: Path = RESULTS, **extra: Any) -> Path:
    """Writes ``directory/<name>.json``: the section ``title`` measured now.

    ``rows``: one dict per row, the case's fields and ``"time"`` (library ->
    time in ``unit``, None where not timed); ``statistic``: ``"median"`` or
    ``"fastest"`` of ``rounds`` interleaved rounds (None: not timings);
    ``commit``: what was measured, when not HEAD's working tree; ``extra``:
    further fields (``params``: the script's fixed settings worth showing).
    """
    dirty = False
    if commit is None:
        commit, dirty = git_commit()
    data: dict[str, Any] = {
        "title": title, "command": command,
        "date": datetime.datetime.now(datetime.timezone.utc).date().isoformat(),
        "commit": commit, **({"dirty": True} if dirty else {}),
        "statistic": statistic, "rounds": rounds, "unit": unit,
        "machine": machine(), "versions": versions(), **extra,
        "rows": _rounded(list(rows)),
    }
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.json"
    path.write_text(dumps(data))
    print(f"saved {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}; "
          "python3 benches/report.py --assemble renders BENCHMARKS.md", flush=True)
    return path


def load(name: str, directory: Path = RESULTS) -> dict[str, Any] | None:
    """The saved results of section ``name``, None when there are none."""
    path = directory / f"{name}.json"
    return json.loads(path.read_text()) if path.exists() else None


def comparison_section(title: str, intro: str, columns: list[str], peer: str,
                       rows: list[tuple[tuple[object, ...], float, float]]) -> str:
    """A Markdown table of ``rows`` for the terminal, under ``## title`` and
    ``intro``: each row's cells under ``columns`` (a first cell is written as
    code), then nanops' and ``peer``'s milliseconds and their ratio."""
    lines = [
        f"## {title}",
        "",
        intro,
        "",
        "| " + " | ".join(columns) + f" | nanops ms | {peer} ms | {peer} / nanops |",
        "|" + "---|" * len(columns) + "---:|---:|---:|",
    ]
    for cells, ours, theirs in rows:
        first, *rest = cells
        text = " | ".join([f"`{first}`", *(str(c) for c in rest)])
        lines.append(f"| {text} | {ours:.4f} | {theirs:.4f} | {theirs / ours:.2f}x |")
    return "\n".join(lines) + "\n"


def comparison_rows(columns: list[str], peer: str,
                    rows: list[tuple[tuple[object, ...], float, float]]) -> list[dict[str, Any]]:
    """The rows of :func:`comparison_section` as results rows: the cells
    under ``columns`` (tuples as lists), ``"time"`` nanops' and ``peer``'s ms."""
    return [{**dict(zip(columns, cells)), "time": {"nanops": ours, peer: theirs}}
            for cells, ours, theirs in rows]


def comparison_args(doc: str, names: list[str], rounds: int) -> argparse.Namespace:
    """The command line of a comparison script (``doc``: its docstring):
    ``--rounds`` (default ``rounds``), ``--only`` (a comma-separated subset
    of ``names``, all by default) and ``--write`` (save the results)."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=rounds)
    ap.add_argument("--only", default=",".join(names))
    ap.add_argument("--write", action="store_true",
                    help="save the rows to benches/results/ (see benches/report.py)")
    return ap.parse_args()


def finish_comparison(name: str, script: str, title: str, columns: list[str], peer: str,
                      version: str, rows: list[tuple[Any, ...]],
                      args: argparse.Namespace) -> None:
    """Prints the table of a comparison script's ``rows`` (its ``columns``'
    cells, then nanops' and ``peer``'s milliseconds) and, with ``--write``,
    saves them as section ``name`` (``title``); ``version``: the peer's."""
    cases = [(tuple(row[:-2]), row[-2], row[-1]) for row in rows]
    print(comparison_section(
        title, f"{peer} {version}; medians of {args.rounds} interleaved rounds",
        columns, peer, cases))
    if args.write:
        save(name, title, comparison_rows(columns, peer, cases), command=command_line(script),
             statistic="median", rounds=args.rounds)
