"""Runs the benchmark scripts that feed BENCHMARKS.md, then writes
BENCHMARKS.md whole from their saved results.

Each script run with ``--write`` saves one section's rows to
``benches/results/<name>.json`` (``benches/_report.py``); this script renders
every such file, in the order of :data:`SECTIONS`, under a head naming the
machine and the versions the files recorded. A section's hand-written note
on what limits its rows below 1.0× is ``benches/notes/<name>.md``.

    python3 benches/report.py                     # every script in turn (hours), then assemble
    python3 benches/report.py --only moving,group # those scripts, then assemble
    python3 benches/report.py --assemble          # assemble only: no timing
    python3 benches/report.py --list              # the sections and their commands

``build`` (the fresh clone's stage times) has no script here: it is saved by
``python3 benches/build_time.py LOG`` from the log of ``CI=true bash .ci/run``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import _render as render
from _report import BENCHMARKS, RESULTS, ROOT, load

NOTES = ROOT / "benches" / "notes"


@dataclass(frozen=True)
class Section:
    """A section of BENCHMARKS.md: its results file, the command that measures
    it (None: saved by hand), what its rows are, and its table's renderer."""

    name: str
    argv: list[str] | None
    about: str
    table: Callable[[dict], list[str]]


def _dask_about(how: str) -> str:
    return ("A float32 (time, lat, lon) cube {shape}, 10% NaN, chunks {chunks}, " + how
            + " on {workers} worker processes of one thread; peak: the workers' summed memory "
            "while a call ran.")


SECTIONS = [
    Section("compare", ["benches/compare.py", "--write"],
            "float64 and float32. Each timed call follows an untimed call of the same function "
            "(the cache state of repeated calls); the arrays fit in the {llc_mib} MiB last-level "
            "cache. A row stops after three rounds once its time budget is spent; calls under "
            "0.1 ms get at least 40. The floor: `np.add.reduce` of a NaN-free array of the same "
            "size and dtype.",
            render.reductions),
    Section("compare_cold", ["benches/compare.py", "--cold", "--write"],
            "The same cases with the caches evicted before every timed call (a read of twice the "
            "{llc_mib} MiB last-level cache): every library and the floor read from main memory. "
            "Inputs under 1M values are left out.", render.reductions),
    Section("layouts", ["benches/compare.py", "--layouts", "--write"],
            "Climate cubes (time, lat, lon), sensor tables, an image stack and short rows: 10% NaN "
            "plus about 10% all-NaN lanes (a land/sea mask, dead sensors; nanargmax gets one value "
            "in each). The floor: the fastest NumPy streaming read of the same bytes. NumPy's "
            "nanquantile along an axis is not timed beyond {numpy_quantile_max_lanes:,} lanes. "
            "✗: the row misses its target (`target` in benches/compare.py: streaming ≥ 2× peers, "
            "extrema ≥ NumPy, order statistics ≥ 3× peers; from 1M values streaming and extrema "
            "also ≤ 1.5× floor, order statistics ≤ 3× floor instead).", render.reductions),
    Section("layouts_cold", ["benches/compare.py", "--layouts", "--cold", "--quick", "--write"],
            "The layouts above with the caches evicted before every timed call; inputs under 1M "
            "values are left out.", render.reductions),
    Section("moving", ["benches/moving.py", "--write"],
            "`move_{{sum,mean,var,std,min,max}}` against bottleneck, numbagg and pandas' "
            "`rolling` (along axis 0 of a frame, the transposed frame for axis -1); "
            "`min_count=1`.", render.moving),
    Section("moving_order", ["benches/moving.py", "--order", "--rounds", "2", "--write"],
            "`move_median` against bottleneck and pandas, `move_quantile` (q = 0.25, linear) "
            "against pandas, `move_rank` against bottleneck (window 1000 only); `min_count=1`.",
            render.moving),
    Section("moving_exp", ["benches/moving.py", "--exp", "--write"],
            "`move_exp_nan*` with `alpha=0.1`, `min_weight=0` against numbagg and pandas' "
            "`ewm(alpha=0.1, adjust=True, ignore_na=False)` (which has no count).", render.moving),
    Section("group", ["benches/group.py", "--rounds", "2", "--write"],
            "`group_nan*` against numbagg's, flox's `groupby_reduce` (fx: numpy engine, fx+nb: "
            "numbagg engine) and pandas' `Series.groupby`; labels in 0..groups, sorted or random; "
            "quantile q = 0.9, linear; {rounds_1M} rounds for 1M values.", render.group),
    Section("xarray_pandas", ["benches/xarray_pandas.py", "--write"],
            "`da.nanops.…` / `df.nanops.…` against the same call without `.nanops`: a (730, 181, "
            "360) float32 cube (rolling {window} days, groupby month, resample to months) and a "
            "(1000000, 20) frame (rolling {frame_window} rows, groupby {groups} keys). `× plain`: "
            "against xarray's default path (xr; pandas for the frame rows); `× fastest peer` also "
            "against xarray with numbagg (xr+nb) or bottleneck (xr+bn). ≈: xarray's rolling "
            "quantile timed once on 1/{slice} of the longitudes and scaled.",
            render.xarray_pandas),
    Section("bottleneck_extras", ["benches/bottleneck_extras.py", "--rounds", "15", "--write"],
            "bottleneck ÷ nanops. Integers in [-1000, 1000] (the int columns); `partition` and "
            "`argpartition` at a third of the axis, without NaN; `replace` puts NaN for NaN, 5 "
            "for 5.", render.bottleneck_extras),
    Section("numbagg_pairs", ["benches/numbagg_pairs.py", "--rounds", "7", "--write"],
            "numbagg ÷ nanops. Both series 10% NaN; `param`: the window or alpha.",
            render.numbagg_pairs),
    Section("numbagg_matrices", ["benches/numbagg_matrices.py", "--rounds", "7", "--write"],
            "numbagg ÷ nanops. 10% NaN; static matrices of `(..., vars, obs)`, moving ones of "
            "`(..., obs, vars)`, window 100, alpha 0.1.", render.numbagg_matrices),
    Section("dask", ["benches/dask_cluster.py", "--shape", "3650,721,800", "--rounds", "2",
                     "--write"],
            _dask_about("persisted") + " nanops' lazy reductions against `dask.array`'s.",
            lambda d: render.dask(d, 3)),
    Section("dask_quantile", ["benches/dask_quantile.py", "--shape", "1460,721,800", "--rounds",
                              "1", "--write"],
            _dask_about("generated lazily by every call")
            + " dask has no quantile over several axes; the last row times generation alone.",
            lambda d: render.dask(d, 2)),
    Section("dask_quantile_persist", ["benches/dask_quantile.py", "--shape", "1460,721,800",
                                      "--rounds", "1", "--cases", "quantile0,median0",
                                      "--persist", "--write"],
            _dask_about("generated once and persisted"), lambda d: render.dask(d, 2)),
    Section("accuracy", ["benches/accuracy.py", "--write"],
            "Relative error |result − exact| / |exact| of whole-array reductions (10% NaN; nanvar "
            "with ddof=0), the exact values in integer and `Fraction` arithmetic "
            "(`tests/python/test_accuracy.py`). `inf`: the result overflowed; `—`: no such "
            "function or dtype; `†`: the result is not in the input's dtype (bottleneck returns a "
            "Python float for float32, numbagg float32 for float16), so not rounded to it.",
            render.accuracy),
    Section("build", None,
            "A fresh clone, `CI=true bash .ci/run`: each stage of the README's two commands, "
            "timed.", render.build),
]

HEAD = """# Benchmarks

Written whole by `python3 benches/report.py` from `benches/results/*.json` (raw times, command,
date, commit, versions); do not edit it by hand. Past numbers live in git and CHANGELOG.md.

Every section times nanops against its peers in one process: 10% NaN unless it says otherwise,
each library called in turn in interleaved rounds, a row reporting the median or the fastest of
its rounds (the section's line says which). A cell `1.23× bn` is the fastest peer's time ÷
nanops' (above 1.0×: nanops is faster) and that peer: np NumPy, bn bottleneck, nb numbagg,
pd pandas, fx flox, da dask. The machine is shared and noisy: compare ratios within one table
only."""

#: The order of the versions in the head.
LIBS = ["Python", "NumPy", "bottleneck", "numbagg", "pandas", "xarray", "dask", "flox", "nanops"]


def recorded(results: dict[str, dict], field: str, keys: list[str],
             text: Callable[[str, str], str]) -> list[str]:
    """Each of ``keys`` in the files' ``field`` (machine or versions), as
    ``text(key, value)``: one value, or each value with the sections that
    recorded it."""
    found: dict[str, dict[str, list[str]]] = {}
    for name, data in results.items():
        for key, value in data.get(field, {}).items():
            found.setdefault(key, {}).setdefault(str(value), []).append(name)
    out = []
    for key in [k for k in keys if k in found] + sorted(k for k in found if k not in keys):
        values = found[key]
        if len(values) == 1:
            out.append(text(key, next(iter(values))))
        else:
            out.append(", ".join(f"{text(key, v)} ({', '.join(names)})"
                                 for v, names in values.items()))
    return out


def head(results: dict[str, dict]) -> str:
    """The file's head: what the numbers are, the machine, the versions."""
    machine = recorded(results, "machine", ["arch", "cpus", "kernel"],
                       lambda k, v: f"{v} CPUs" if k == "cpus" else v)
    versions = recorded(results, "versions", LIBS, lambda k, v: f"{k} {v}")
    return "\n".join([HEAD, "", "- machine: " + (", ".join(machine) or "not recorded"),
                      "- versions: " + ", ".join(versions)])


def statistic(data: dict) -> str:
    """How the section's rows were taken: ``median of 7 interleaved rounds``."""
    stat = data.get("statistic")
    if stat is None:
        return ""
    rounds = data.get("rounds")
    if rounds == 1:
        return "one round"
    word = {"median": "medians", "fastest": "fastest"}.get(stat, stat)
    return f"{word} of {rounds} interleaved rounds" if rounds else f"{word} of interleaved rounds"


def section(spec: Section, data: dict) -> str:
    """One section: title, command and when measured, what the rows are, the
    table, the rows below 1.0× and the note on what limits them."""
    when = f"measured {data['date']} at {data['commit']}"
    if data.get("dirty"):
        when += " with uncommitted changes"
    line = " · ".join(x for x in (f"`{data['command']}`", statistic(data), when) if x)
    if data.get("note"):
        line += f" ({data['note']})"  # rows measured at other commits
    lines = [f"## {data['title']}", "", line, ""]
    if data.get("stale"):
        lines += [f"**Stale: {data['stale']}.**", ""]
    params = {k: render.shape_text(v) if isinstance(v, list) else v
              for k, v in data.get("params", {}).items()}
    lines += [spec.about.format(**params), "", *spec.table(data)]
    note = NOTES / f"{spec.name}.md"
    if note.exists():
        lines += ["", note.read_text().strip()]
    return "\n".join(lines).rstrip("\n") + "\n"


def assemble(results_dir: Path = RESULTS, out: Path = BENCHMARKS) -> int:
    """Writes ``out`` from the results files; returns its size in bytes."""
    results = {s.name: d for s in SECTIONS if (d := load(s.name, results_dir)) is not None}
    unknown = sorted(p.stem for p in results_dir.glob("*.json")
                     if p.stem not in {s.name for s in SECTIONS})
    if unknown:
        print(f"not in SECTIONS, left out: {', '.join(unknown)}", file=sys.stderr)
    parts = [head(results)] + [section(s, results[s.name]) for s in SECTIONS if s.name in results]
    text = "\n\n".join(p.rstrip("\n") for p in parts) + "\n"
    out.write_text(text)
    return len(text.encode())


def main() -> None:
    names = [s.name for s in SECTIONS]
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--assemble", action="store_true", help="only write BENCHMARKS.md")
    p.add_argument("--only", default="", help="comma-separated: " + ",".join(names))
    p.add_argument("--list", action="store_true", help="print the sections and commands")
    args = p.parse_args()
    if args.list:
        for s in SECTIONS:
            print(f"{s.name:22} {'python3 ' + ' '.join(s.argv) if s.argv else '(by hand)'}")
        return
    wanted = args.only.split(",") if args.only else names
    unknown = sorted(set(wanted) - set(names))
    if unknown:
        p.error(f"unknown sections {unknown}; choose from {', '.join(names)}")
    failed: list[str] = []
    if not args.assemble:
        for s in SECTIONS:
            if s.name not in wanted:
                continue
            if s.argv is None:
                print(f"{s.name}: no script; see benches/build_time.py", file=sys.stderr)
                continue
            print(f"== {s.name}: python3 {' '.join(s.argv)}", flush=True)
            # a failed script keeps its earlier results; the others still run
            if subprocess.run([sys.executable, *s.argv], cwd=ROOT).returncode:
                failed.append(s.name)
    size = assemble()
    print(f"wrote {BENCHMARKS.relative_to(ROOT)} ({size} bytes)")
    if failed:
        sys.exit(f"failed (their sections keep the earlier results): {', '.join(failed)}")


if __name__ == "__main__":
    main()
