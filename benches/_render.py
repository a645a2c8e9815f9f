"""Compact Markdown tables of the saved results (``benches/results/*.json``),
for ``benches/report.py``: ratios in the cells, the raw times in the files.

A ratio is the fastest peer's time over nanops' (above 1.0×: nanops is
faster). A row migrated from an older BENCHMARKS.md carries the ratio as it
was printed there (``ratio``, ``peer``), to the file's ``ratio_decimals``; a
row saved by a script carries only its times, and the ratio is computed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

Row = dict[str, Any]
Data = dict[str, Any]

#: Short names of the peers in the cells.
PEERS = {
    "numpy": "np", "bottleneck": "bn", "numbagg": "nb", "pandas": "pd",
    "flox-numpy": "fx", "flox-numbagg": "fx+nb", "dask": "da",
}
#: Keys of a row's times that are not peers (compare.py's floor and earlier build,
#: dask_cluster.py's states computed as before).
NOT_PEERS = ("nanops", "floor", "baseline", "before")


def shape_text(value: Any) -> str:
    """A shape or an axis as Python writes it: ``(1000, 10)``, ``(10,)``, ``None``, ``0``."""
    return str(tuple(value)) if isinstance(value, list) else str(value)


def table(header: list[str], rows: Iterable[list[str]], left: int = 1) -> list[str]:
    """A Markdown table; the first ``left`` columns left-aligned, the others right.
    No padding around the cells: the wide tables must fit the file's size."""
    rule = "|" + "---|" * left + "--:|" * (len(header) - left)
    return ["|" + "|".join(header) + "|", rule, *("|" + "|".join(cells) + "|" for cells in rows)]


def best_peer(row: Row, names: dict[str, str] = PEERS) -> tuple[str, float] | None:
    """The peer with the shortest time in ``row`` and that time."""
    peers = [(t, k) for k, t in row["time"].items() if k not in NOT_PEERS and t is not None]
    if not peers:
        return None
    t, k = min(peers)
    return names.get(k, k), t


def ratio(row: Row, names: dict[str, str] = PEERS) -> tuple[float | None, str]:
    """The fastest peer's time over nanops' and the peer's short name."""
    best = best_peer(row, names)
    if "ratio" in row:
        peer = row.get("peer")
        return row["ratio"], names.get(peer, peer) if peer else (best[0] if best else "")
    ours = row["time"].get("nanops")
    if best is None or not ours:
        return None, ""
    return best[1] / ours, best[0]


def fmt_ratio(value: float | None, decimals: int = 2) -> str:
    """``1.23×`` (``decimals`` places), ``—`` for no ratio."""
    return "—" if value is None else f"{value:.{decimals}f}×"


def cell(row: Row | None, data: Data, names: dict[str, str] = PEERS, peer: bool = True) -> str:
    """A row's ratio, with its fastest peer unless ``peer`` is false; empty without a row."""
    if row is None:
        return ""
    value, who = ratio(row, names)
    text = fmt_ratio(value, data.get("ratio_decimals", 2))
    return f"{text} {who}" if peer and value is not None and who else text


Groups = list[tuple[tuple[str, ...], dict[str, Row]]]


def pivot(rows: list[Row], key: Callable[[Row], tuple[str, ...]],
          column: Callable[[Row], str]) -> tuple[list[str], Groups]:
    """The rows grouped by ``key`` (first-seen order), each group's rows by ``column``;
    and the columns in first-seen order."""
    columns: list[str] = []
    groups: dict[tuple[str, ...], dict[str, Row]] = {}
    for r in rows:
        col = column(r)
        if col not in columns:
            columns.append(col)
        groups.setdefault(key(r), {})[col] = r
    return columns, list(groups.items())


#: The dtype columns' order, whichever a run met first.
DTYPES = ["float64", "float32", "int64", "int32"]


def pivoted(data: Data, key_names: list[str], key: Callable[[Row], tuple[str, ...]],
            column: Callable[[Row], str], text: Callable[[Row | None], str],
            order: list[str] | None = None) -> list[str]:
    """A table of ``data``'s rows: one line per ``key``, one cell per ``column``
    (those in ``order`` first, in its order)."""
    columns, groups = pivot(data["rows"], key, column)
    if order:
        columns.sort(key=lambda c: order.index(c) if c in order else len(order))
    return table(key_names + columns,
                 ([*k, *(text(cells.get(c)) for c in columns)] for k, cells in groups),
                 left=len(key_names))


def below_floor(data: Data, names: dict[str, str] = PEERS) -> str:
    """A line counting the rows below 1.0× and naming the lowest ratio."""
    values = [v for v in (ratio(r, names)[0] for r in data["rows"]) if v is not None]
    if not values:
        return ""
    low = fmt_ratio(min(values), data.get("ratio_decimals", 2))
    under = sum(v < 1.0 for v in values)
    if not under:
        rows = f"{len(values)} row" + ("s" if len(values) != 1 else "")
        return f"No row below 1.0× ({rows}; lowest {low})."
    return f"Rows below 1.0×: {under} of {len(values)}; lowest {low}."


def reductions(data: Data) -> list[str]:
    """compare.py's tables: fastest peer ÷ nanops, then nanops ÷ floor, per function."""
    layouts = any("target" in r for r in data["rows"])
    names = ["dtype", "shape", "axis"]

    def key(r: Row) -> tuple[str, ...]:
        return r["dtype"], shape_text(r["shape"]), shape_text(r["axis"])

    def speed(r: Row | None) -> str:
        miss = r is not None and r.get("target", "").endswith("MISS")
        return cell(r, data) + (" ✗" if miss else "")

    def floor(r: Row | None) -> str:
        if r is None:
            return ""
        value = r.get("over_floor")
        if value is None:
            value = r["time"]["nanops"] / r["time"]["floor"]
        return f"{value:.2f}"

    func = lambda r: r["func"]  # noqa: E731
    lines = pivoted(data, names, key, func, speed)
    if not layouts:  # the layouts' targets (✗) weigh the floor; its ratio is in the file
        lines += ["", "× floor (nanops' time ÷ the floor's):", ""]
        lines += pivoted(data, names, key, func, floor)
    lines += ["", below_floor(data)]
    if layouts:
        met = [r for r in data["rows"] if r.get("target")]
        ok = sum(r["target"].endswith("met") for r in met)
        lines[-1] += f" Targets met: {ok} of {len(met)}."
    olds = [r["new_old"] for r in data["rows"] if r.get("new_old")]
    if olds:
        lines[-1] += (f" `new/old` (nanops ÷ the `--baseline` build in the same rounds): "
                      f"{min(olds):.2f}–{max(olds):.2f}, {sum(v > 1.05 for v in olds)} of "
                      f"{len(olds)} rows above 1.05.")
    return lines


def moving(data: Data) -> list[str]:
    """moving.py's tables: a line per case and function, a cell per window
    (the exponential functions, without windows: a cell per function)."""
    rows = data["rows"]
    text = lambda r: cell(r, data)  # noqa: E731
    case = lambda r: (shape_text(r["shape"]), str(r["axis"]), r["dtype"])  # noqa: E731
    if all(r.get("window") is None for r in rows):
        lines = pivoted(data, ["shape", "axis", "dtype"], case, lambda r: r["func"], text)
    else:
        lines = pivoted(data, ["shape", "axis", "dtype", "func"],
                        lambda r: (*case(r), r["func"]), lambda r: f"w={r['window']}", text)
    return lines + ["", below_floor(data)]


def group(data: Data) -> list[str]:
    """group.py's table: a line per size, dtype, labels and groups, a cell per function."""
    lines = pivoted(data, ["values", "dtype", "labels", "groups"],
                    lambda r: (f"{r['values']:,}", r["dtype"], r["labels"], f"{r['groups']:,}"),
                    lambda r: r["func"], lambda r: cell(r, data))
    return lines + ["", below_floor(data)]


#: The xarray accessors' peers: xarray's three paths and pandas.
XARRAY_PEERS = {"plain": "xr", "numbagg": "xr+nb", "bottleneck": "xr+bn", "pandas": "pd"}


def xarray_pandas(data: Data) -> list[str]:
    """xarray_pandas.py's table: nanops' time, the ratio to the plain path and to the fastest."""
    decimals = data.get("ratio_decimals", 2)
    out = []
    for r in data["rows"]:
        t = r["time"]
        plain = r.get("ratio_plain")
        if plain is None:
            base = t.get("plain", t.get("pandas"))
            plain = base / t["nanops"] if base else None
        out.append([r["row"], shape_text(r["shape"]), f"{t['nanops']:.0f}",
                    ("≈" if r.get("scaled") else "") + fmt_ratio(plain, decimals),
                    cell(r, data, XARRAY_PEERS)])
    lines = table(["row", "shape", "nanops ms", "× plain", "× fastest peer"], out, left=2)
    return lines + ["", below_floor(data, XARRAY_PEERS)]


def bottleneck_extras(data: Data) -> list[str]:
    """bottleneck_extras.py's table: a line per function, data and case, a cell per dtype
    (the integer inputs on the line of the first float data)."""
    first: dict[tuple[str, str, str], str] = {}

    def key(r: Row) -> tuple[str, ...]:
        case = (f"`{r['function']}`", shape_text(r["shape"]), shape_text(r["axis"]))
        data_kind = first.setdefault(case, r["data"]) if r["data"] == "ints" else r["data"]
        first.setdefault(case, r["data"])
        return (case[0], data_kind, *case[1:])

    lines = pivoted(data, ["function", "data", "shape", "axis"], key, lambda r: r["dtype"],
                    lambda r: cell(r, data, peer=False), DTYPES)
    return lines + ["", below_floor(data)]


def numbagg_pairs(data: Data) -> list[str]:
    """numbagg_pairs.py's table: a line per function, parameter and dtype, a cell per case."""
    lines = pivoted(data, ["function", "param", "dtype"],
                    lambda r: (f"`{r['function']}`", str(r["param"]), r["dtype"]),
                    lambda r: f"{shape_text(r['shape'])} axis {r['axis']}",
                    lambda r: cell(r, data, peer=False))
    return lines + ["", below_floor(data)]


def numbagg_matrices(data: Data) -> list[str]:
    """numbagg_matrices.py's table: a line per function and shape, a cell per dtype."""
    lines = pivoted(data, ["function", "shape"],
                    lambda r: (f"`{r['function']}`", shape_text(r["shape"])),
                    lambda r: r["dtype"], lambda r: cell(r, data, peer=False), DTYPES)
    return lines + ["", below_floor(data)]


def dask(data: Data, decimals: int) -> list[str]:
    """A dask script's table, in full: seconds (``decimals`` places), ratio, peak memory."""
    def secs(v: float | None) -> str:
        return "—" if v is None else f"{v:.{decimals}f}"

    def mb(v: float | None) -> str:
        return "—" if v is None else f"{v:.0f}"

    out = []
    for r in data["rows"]:
        t, peak = r["time"], r.get("peak_mb", {})
        out.append([r["func"], str(r["axis"]), secs(t.get("nanops")), secs(t.get("dask")),
                    cell(r, data, peer=False), mb(peak.get("nanops")), mb(peak.get("dask"))])
    lines = table(["func", "axis", "nanops s", "dask s", "dask ÷ nanops", "nanops peak MB",
                   "dask peak MB"], out, left=2)
    return lines + ["", below_floor(data)]


def accuracy(data: Data) -> list[str]:
    """accuracy.py's table: the relative errors as the script printed them."""
    libs = list(data["rows"][0]["errors"]) if data["rows"] else []
    return table(["case", "function", *libs],
                 ([r["case"], r["function"], *(r["errors"][k] for k in libs)]
                  for r in data["rows"]), left=2)


def build(data: Data) -> list[str]:
    """The build and test stages' seconds."""
    lines = table(["stage", "seconds"],
                  ([r["stage"] if r["stage"] == "all stages" else f"`{r['stage']}`",
                    f"{r['time']:.0f}"] for r in data["rows"]))
    tests = data.get("params", {}).get("tests")
    return lines + (["", f"Tests: {tests}."] if tests else [])
