"""Writing a benchmark's section into BENCHMARKS.md, shared by the scripts."""

from __future__ import annotations

import argparse
from pathlib import Path

#: The benchmarks file, at the repository root.
BENCHMARKS = Path(__file__).resolve().parent.parent / "BENCHMARKS.md"


def write_section(section: str, path: Path = BENCHMARKS) -> None:
    """Puts ``section`` (``"## Title\\n\\n" + command line + table``) into ``path``.

    An existing section of the same title has its heading, introduction and
    first table replaced; paragraphs written below that table (what limits a
    row, profiles) stay. A new section is appended at the end.
    """
    heading = section.split("\n", 1)[0] + "\n"
    text = path.read_text()
    start = text.find(heading)
    if start < 0 or (start > 0 and text[start - 1] != "\n"):
        path.write_text(text.rstrip("\n") + "\n\n" + section.rstrip("\n") + "\n")
        return
    nxt = text.find("\n## ", start + len(heading))
    end = len(text) if nxt < 0 else nxt + 1
    lines = text[start:end].split("\n")
    first = next((i for i, ln in enumerate(lines) if ln.startswith("|")), None)
    if first is None:
        keep = text[end:]
    else:
        last = first
        while last < len(lines) and lines[last].startswith("|"):
            last += 1
        keep = "\n".join(lines[last:]) + text[end:]
    new = section.rstrip("\n") + "\n"
    if keep and not keep.startswith("\n"):
        keep = "\n" + keep
    path.write_text(text[:start] + new + keep)


def comparison_section(title: str, intro: str, columns: list[str], peer: str,
                       rows: list[tuple[tuple[object, ...], float, float]]) -> str:
    """The section ``## title``, ``intro``, and a table of ``rows``: each row's
    cells under ``columns`` (a first cell is written as code), then nanops'
    and ``peer``'s milliseconds and their ratio."""
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


def comparison_args(doc: str, names: list[str], rounds: int) -> argparse.Namespace:
    """The command line of a comparison script (``doc``: its docstring):
    ``--rounds`` (default ``rounds``), ``--only`` (a comma-separated subset
    of ``names``, all by default) and ``--write``."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=rounds)
    ap.add_argument("--only", default=",".join(names))
    ap.add_argument("--write", action="store_true")
    return ap.parse_args()
