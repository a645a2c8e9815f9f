"""Exact medians and quantiles of dask arrays along chunked axes, without
rechunking: a distributed selection (the engine behind
:func:`nanops.dask.nanquantile` and its kin).

For each block of outputs (a chunk of the kept axes) the chunks along the
reduced axes are that block's *chunk set*, and four kinds of task run:

1. ``stats`` (per chunk): the non-NaN count of each output and a small
   grid of the chunk's order statistics (``k + 1`` values at known ranks,
   selected by ``nanops.nanquantile(method="lower")``);
2. ``brackets`` (per block): the total count ``n`` of each output, the ranks
   the statistic reads of ``n`` values (``_nanops.order_ranks``: nanops'
   own plan), and for each rank a bracket ``[lo, hi]`` that is *guaranteed*
   to hold it: from the grids, at most ``r`` values lie below ``lo`` and at
   least ``r + 1`` at or below ``hi`` (bounds from exact ranks, not
   estimates, so no bracket ever misses and no second pass is needed);
   neighbouring ranks share one bracket (``_nanops.grid_brackets``);
   Where a chunk's lanes are too long for its grid to pin the ranks down
   within :data:`_GATHER` values per chunk, *refining* passes run first
   (``refine`` per chunk: the values inside each bracket counted and a
   small grid of them; ``rebracket`` per block: the brackets narrowed from
   those grids with the same guarantee; :func:`passes` says how many);
3. ``select`` (per chunk, after all brackets): per output and bracket, the
   numbers of values below ``lo``, equal to ``lo`` and equal to ``hi``, and
   the values strictly inside (ties cost a count, not a copy;
   ``_nanops.bracket_select``, reading the chunk once from memory);
4. ``finish`` (per block): the order statistics at the ranks from those
   counts and values (sorted output by output: ``_nanops.group_by_owner``),
   then the result from them by
   ``_nanops.order_of_ranks``, the very arithmetic ``nanops.nanquantile`` /
   ``nanops.nanmedian`` use on a whole lane: bit for bit the same result.

Every later pass reads the chunks again, bound after every bracket of the
pass before (:func:`dask.graph_manipulation.bind`), so no chunk is held in
memory between the passes.  A chunk of ``c`` values per output sends ``k +
1`` grid values and at most about ``2 c / k`` values per bracket with ``k``
about ``sqrt(c × brackets)`` (:func:`grid_size`): per output, a few times
``sqrt(c × ranks)`` values per chunk, against the whole lane a rechunk
moves.  No pass sends more than :data:`_GATHER` values per output, bracket
and chunk: longer lanes (more than about 130 000 × brackets values per
chunk and output, e.g. ``axis=None`` over chunks of ~100 MB) take one
refining pass (two beyond some 33 million) instead.  Counts travel in
the narrowest integer type the lane allows.
"""

from __future__ import annotations

import math
import operator
import warnings
from typing import Any, Callable, Final

import numpy as np

from . import _nanops
from .states import _count_dtype

__all__ = ["quantile_graph"]

#: Outputs per bracket and finish task (a block of more is split, so that
#: the workers share a block's work and each task's memory stays small).
_ROWS_PER_GROUP: Final = 16384

#: The most values a pass sends per output, bracket and chunk (grid values,
#: or the values inside a bracket, averaged over an output's chunks): lanes
#: longer than a chunk's grid can pin down get refining passes
#: (:func:`passes`) rather than send more.
_GATHER: Final = 512


# --- per chunk -----------------------------------------------------------


def _float_dtype(dtype: np.dtype) -> np.dtype:
    """The float type nanops selects values of ``dtype`` in (integers as float64)."""
    return dtype if dtype.kind == "f" else np.dtype(np.float64)


def _as_float(x: np.ndarray) -> np.ndarray:
    """The chunk in the float type nanops selects it in (:func:`_float_dtype`),
    aligned (see :func:`_aligned`)."""
    return _aligned(x.astype(_float_dtype(x.dtype), copy=False))


def _aligned(a: np.ndarray) -> np.ndarray:
    """``a``, copied if its data is not aligned for its dtype: an array that
    crossed the cluster can arrive unaligned (a view into the message's
    buffer), and the primitives read their arrays as aligned slices."""
    return a if a.flags.aligned else np.require(a, requirements="A")


def _stats(x: np.ndarray, axes: tuple[int, ...], k: int, groups: list[slice]
           ) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per output of the chunk (kept axes in C order): the non-NaN count and
    the values at the grid ranks (``floor((c - 1) · i / k)`` for ``i`` in
    ``0..=k``, as ``nanops::chunked::grid_ranks``; NaN for an output without
    values), ``(outputs, k + 1)``; split into the groups of outputs."""
    import nanops

    xf = _as_float(x)
    lane = math.prod(x.shape[i] for i in axes)
    counts = np.asarray(_nanops.nancount(xf, axes)).reshape(-1).astype(_count_dtype(lane))
    if xf.size == 0:
        grid = np.full((counts.size, k + 1), np.nan, xf.dtype)
    else:
        # nanops' own selection of the grid ranks (method "lower" reads rank
        # floor((c - 1) · q), the ranks `_nanops.grid_brackets` assumes)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # outputs without values
            grid = nanops.nanquantile(xf, np.arange(k + 1) / k, axis=axes, method="lower")
        grid = np.ascontiguousarray(np.asarray(grid, xf.dtype).reshape(k + 1, -1).T)
        grid[counts == 0] = np.nan  # one NaN (a NaN in the data may carry a sign)
    return [(counts[g], np.ascontiguousarray(grid[g])) for g in groups]


def _against_brackets(x: np.ndarray, axes: tuple[int, ...], groups: list[dict[str, Any]]
                      ) -> tuple[int, list[int], np.dtype, tuple[Any, ...]]:
    """The chunk against the brackets of its groups of outputs:
    ``(outputs, bracket columns in use, the count dtype of its lane,
    _nanops.bracket_select(...))``, the chunk read as (lane position,
    output) — a view when the reduced axes lead."""
    xf = _as_float(x)
    lo = np.concatenate([g["lo"] for g in groups])
    hi = np.concatenate([g["hi"] for g in groups])
    active = np.concatenate([g["active"] for g in groups])
    n_out = lo.shape[0]
    lane = math.prod(x.shape[i] for i in axes)
    lanes = np.moveaxis(xf, axes, tuple(range(len(axes)))).reshape(lane, n_out)
    cols = [b for b in range(lo.shape[1]) if active[:, b].any()]
    return n_out, cols, _count_dtype(lane), _nanops.bracket_select(lanes, lo, hi, cols)


def _group_rows(groups: list[dict[str, Any]]) -> list[slice]:
    """The rows of each group among the concatenated outputs of ``groups``."""
    stops = np.cumsum([g["lo"].shape[0] for g in groups])
    return [slice(int(b - g["lo"].shape[0]), int(b)) for g, b in zip(groups, stops)]


def _select(x: np.ndarray, axes: tuple[int, ...], groups: list[dict[str, Any]]
            ) -> list[dict[str, Any]]:
    """Per output and bracket (the brackets of consecutive groups of
    outputs): the values below ``lo``, equal to ``lo`` and equal to ``hi``
    (when ``hi > lo``) counted, and the values strictly between with their
    outputs (``_nanops.bracket_select`` over the chunk in its own
    layout); split by group."""
    # What goes back is kept small, as every chunk's part stays in memory
    # until the final selection: counts only for the bracket columns in use,
    # in the narrowest type that holds a lane's length; the values inside a
    # bracket ordered by output, with how many each output has (not an
    # owner per value).
    n_out, cols, count_dtype, (below64, at_lo64, at_hi64, inside, owner) = _against_brackets(
        x, axes, groups)
    below, at_lo, at_hi = (c.astype(count_dtype) for c in (below64, at_lo64, at_hi64))
    n_inside = np.empty((n_out, len(cols)), count_dtype)
    for i, o in enumerate(owner):
        n_inside[:, i] = np.bincount(o, minlength=n_out)
    out = []
    for rows in _group_rows(groups):
        # each column's owners ascend (the kernel sorts them)
        cut = [np.searchsorted(o, [rows.start, rows.stop]) for o in owner]
        out.append({"cols": cols, "below": below[rows], "at_lo": at_lo[rows],
                    "at_hi": at_hi[rows], "n_inside": n_inside[rows],
                    "inside": [v[i:j] for v, (i, j) in zip(inside, cut)]})
    return out


def _refine(x: np.ndarray, axes: tuple[int, ...], groups: list[dict[str, Any]], k: int
            ) -> list[dict[str, Any]]:
    """A refining pass over one chunk: per output and bracket in use, the
    values at or below ``lo`` counted (``settled``), the values strictly
    inside counted (``n_inside``) and a grid of theirs (``k + 1`` values at
    the ranks ``floor((m - 1) · i / k)`` of the ``m`` sorted values, as
    ``nanops::chunked::grid_ranks``; NaN where ``m`` is 0), ``(outputs,
    brackets, k + 1)``: what :func:`_rebracket` narrows the brackets with,
    instead of the values themselves; split by group."""
    n_out, cols, count_dtype, (below, at_lo, _, inside, owner) = _against_brackets(
        x, axes, groups)
    settled = (below + at_lo).astype(count_dtype)
    n_inside = np.zeros((n_out, len(cols)), count_dtype)
    grid = np.full((n_out, len(cols), k + 1), np.nan, _float_dtype(x.dtype))
    steps = np.arange(k + 1) / k  # i / k in float64, as grid_ranks
    for i, (vals, own) in enumerate(zip(inside, owner)):
        vals, m = _nanops.group_by_owner(vals, own.astype(np.int32), n_out)
        m = np.asarray(m, np.int64)
        n_inside[:, i] = m
        rows = np.flatnonzero(m)
        if rows.size:
            start = np.cumsum(m) - m
            ranks = np.floor((m[rows, None] - 1).astype(np.float64) * steps).astype(np.int64)
            grid[rows, i, :] = np.asarray(vals)[start[rows, None] + ranks]
    return [{"cols": cols, "settled": settled[rows], "n_inside": n_inside[rows],
             "grid": grid[rows]} for rows in _group_rows(groups)]


# --- per block of outputs --------------------------------------------------


def _brackets(stats: list[tuple[np.ndarray, np.ndarray]], k: int, plan: dict[str, Any]
              ) -> dict[str, Any]:
    """The ranks each output needs and a bracket per run of neighbouring
    ranks, from every chunk's :func:`_stats` of the same outputs."""
    counts = np.asarray(np.sum([c for c, _ in stats], axis=0, dtype=np.int64))
    ranks = _nanops.order_ranks(counts, plan["q"], plan["method"], plan["q_code"],
                                plan["median"])
    n_out, n_cols = ranks.shape
    # a rank joins the bracket of the rank before it when it is its neighbour
    starts = np.ones((n_out, n_cols), bool)
    if n_cols > 1:
        starts[:, 1:] = ranks[:, 1:] - ranks[:, :-1] > 1
    starts &= ranks >= 0
    group = np.maximum.accumulate(np.where(starts, np.arange(n_cols), 0), axis=1)
    # the last rank of each bracket: the rank before the next start
    targets_lo = np.where(starts, ranks, -1)
    targets_hi = np.full((n_out, n_cols), -1, np.int64)
    valid = ranks >= 0
    for j in range(n_cols):
        rows = np.flatnonzero(valid[:, j])
        targets_hi[rows, group[rows, j]] = ranks[rows, j]
    # guaranteed brackets from every chunk's grid (``_nanops.grid_brackets``:
    # the grid entries merged and sorted per output, bounds from their ranks)
    lo, hi = _nanops.grid_brackets(np.stack([g for _, g in stats]),
                                   np.stack([c for c, _ in stats]).astype(np.int64), k,
                                   targets_lo, targets_hi)
    return {"counts": counts, "ranks": ranks, "group": group, "lo": lo, "hi": hi,
            "active": starts, "targets_lo": targets_lo, "targets_hi": targets_hi}


def _rebracket(parts: list[dict[str, Any]], brackets: dict[str, Any], k: int
               ) -> dict[str, Any]:
    """The brackets of a group narrowed by one refining pass
    (:func:`_refine` of every chunk): the values at or below ``lo`` number
    ``base``, those strictly inside ``m``, so a wanted rank ``t`` of the
    lane is ``lo`` itself when ``t < base``, at or above ``hi`` when ``t >=
    base + m`` and otherwise rank ``t - base`` of the values inside, which
    the chunks' grids of those values bracket again
    (``_nanops.grid_brackets``): the same guarantee, on a range about ``k /
    2`` times narrower."""
    out = dict(brackets)
    lo, hi = brackets["lo"].copy(), brackets["hi"].copy()
    t_lo_all, t_hi_all = brackets["targets_lo"], brackets["targets_hi"]
    cols = parts[0]["cols"] if parts else []
    for i, b in enumerate(cols):
        base = np.sum([p["settled"][:, i] for p in parts], axis=0, dtype=np.int64)
        counts = np.stack([p["n_inside"][:, i] for p in parts]).astype(np.int64)
        m = counts.sum(axis=0)
        valid = t_lo_all[:, b] >= 0
        rel_lo, rel_hi = t_lo_all[:, b] - base, t_hi_all[:, b] - base
        only_lo = valid & (rel_hi < 0)  # every wanted rank is lo: [lo, lo]
        only_hi = valid & ~only_lo & (rel_lo >= m)  # every wanted rank is hi: [hi, hi]
        take_lo = valid & ~only_lo & ~only_hi & (rel_lo >= 0)
        take_hi = valid & ~only_lo & ~only_hi & (rel_hi < m)
        new_lo, new_hi = lo[:, b].copy(), hi[:, b].copy()
        new_hi[only_lo] = lo[only_lo, b]
        new_lo[only_hi] = hi[only_hi, b]
        grid_rows = take_lo | take_hi
        if grid_rows.any():
            t_lo = np.where(grid_rows, np.maximum(rel_lo, 0), -1)[:, None]
            t_hi = np.where(grid_rows, np.minimum(rel_hi, m - 1), -1)[:, None]
            g_lo, g_hi = _nanops.grid_brackets(
                np.stack([p["grid"][:, i] for p in parts]), counts, k, t_lo, t_hi)
            new_lo[take_lo] = np.asarray(g_lo)[take_lo, 0]
            new_hi[take_hi] = np.asarray(g_hi)[take_hi, 0]
        lo[:, b], hi[:, b] = new_lo, new_hi
    out["lo"], out["hi"] = lo, hi
    return out


def _finish(selected: list[dict[str, Any]], brackets: dict[str, Any], plan: dict[str, Any]
            ) -> np.ndarray:
    """The statistic of every output of a group from the selected values,
    ``(width, outputs)``."""
    counts, ranks, group = brackets["counts"], brackets["ranks"], brackets["group"]
    lo, hi = brackets["lo"], brackets["hi"]
    n_out, n_cols = ranks.shape
    # the counts of the bracket columns in use, summed over the chunks (int64)
    cols = selected[0]["cols"] if selected else []
    below = np.zeros((n_out, n_cols), np.int64)
    at_lo, at_hi = below.copy(), below.copy()
    for part in selected:
        below[:, cols] += part["below"]
        at_lo[:, cols] += part["at_lo"]
        at_hi[:, cols] += part["at_hi"]
    value_dtype = np.dtype(plan["value_dtype"])
    at = np.zeros((n_out, n_cols), value_dtype)
    column = {b: i for i, b in enumerate(cols)}
    for b in range(n_cols):
        # every chunk's values inside bracket b, sorted by output, then value
        if b in column:
            vals = np.concatenate([s["inside"][column[b]] for s in selected]).astype(value_dtype)
            outputs = np.arange(n_out, dtype=np.int32)
            owner = np.concatenate(
                [np.repeat(outputs, s["n_inside"][:, column[b]]) for s in selected])
        else:
            vals, owner = np.empty(0, value_dtype), np.empty(0, np.int32)
        vals, n_inside = _nanops.group_by_owner(vals, owner.astype(np.int32), n_out)
        start = np.cumsum(n_inside) - n_inside
        for j in range(b, n_cols):
            rows = np.flatnonzero((group[:, j] == b) & (ranks[:, j] >= 0))
            if rows.size == 0:
                continue
            pos = ranks[rows, j] - below[rows, b]
            n_lo, n_in = at_lo[rows, b], n_inside[rows]
            if np.any(pos < 0) or np.any(pos >= n_lo + n_in + at_hi[rows, b]):
                raise RuntimeError("nanops.dask: a bracket missed its rank (please report)")
            in_lo = pos < n_lo
            in_mid = ~in_lo & (pos < n_lo + n_in)
            picked = np.where(in_lo, lo[rows, b], hi[rows, b]).astype(value_dtype)
            mid_at = start[rows] + np.where(in_mid, pos - n_lo, 0)
            if vals.size:
                picked = np.where(in_mid, vals[np.minimum(mid_at, vals.size - 1)], picked)
            at[rows, j] = picked
    result = _nanops.order_of_ranks(_aligned(counts), at, plan["q"], plan["method"],
                                    plan["q_code"],
                                    plan["median"], plan["result_code"])
    result = np.asarray(result).astype(plan["result_dtype"], copy=False)
    if np.any(counts == 0):
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=2)
    return result


def _assemble(groups: list[np.ndarray], plan: dict[str, Any], out_shape: tuple[int, ...]
              ) -> np.ndarray:
    """A block of the result from its groups' results."""
    width_shape = () if plan["q_shape"] is None else plan["q_shape"]
    block = np.concatenate(groups, axis=1).reshape(width_shape + out_shape)
    return block[()] if block.ndim == 0 else block  # a NumPy scalar, as nanops gives


# --- the graph -----------------------------------------------------------


def grid_size(max_lane: int, n_brackets: int) -> int:
    """``k``: the grid intervals per chunk, about ``sqrt(c × brackets)``,
    balancing what the workers hold in the first pass (every chunk's
    ``k + 1`` grid values per output, until the brackets) against the
    second (every chunk's values inside the brackets, fewer as ``k`` grows,
    and their counts, until the final selection).  Measured with
    ``benches/dask_quantile_phases.py --k K`` (34 chunks of 43 steps, three
    quantiles): k = 8, 10, 12, 16 held 144, 113, 130, 169 MB of a 420 MB
    input at the larger of the two moments, in about the same time."""
    return int(min(max(math.isqrt(max(max_lane, 1) * max(n_brackets, 1)), 4), 4096))


def passes(max_lane: int, n_brackets: int, k_first: int | None = None
           ) -> tuple[int, int, int]:
    """``(k, k_refine, rounds)``: the first grid's intervals, the refining
    grids' intervals and the number of refining passes, so that no pass
    sends more than :data:`_GATHER` values per output, bracket and chunk
    (averaged over the chunks of an output).

    The first pass sends ``k + 1`` grid values per output and chunk (``k``
    from :func:`grid_size`, raised where that spares a refining pass, at
    most ``_GATHER × brackets - 1``); the values
    left inside a bracket then number at most ``2 × ceil(c / k)`` per chunk
    of lane length ``c`` plus the bracket's span of ranks (a chunk's values
    below ``lo`` and above ``hi`` are fixed up to a grid interval on each
    side), and a refining pass (:func:`_refine`, ``k_refine + 1`` values per
    bracket) leaves ``2 × ceil(m / k_refine)`` of ``m``.  Refining passes
    run while that bound exceeds ``_GATHER``: none for lanes of up to about
    ``_GATHER² / 2 × brackets`` (130 000 × brackets) values per chunk, one
    up to some 33 million (one bracket; 100 million for three), two beyond.
    ``k_first``: the first grid's intervals before the cap (default
    :func:`grid_size`; the weighted selection asks for a finer one)."""
    lane = max(max_lane, 1)
    first = grid_size(lane, n_brackets) if k_first is None else k_first
    cap = max(1, _GATHER * max(n_brackets, 1) - 1)
    # a finer first grid, up to the cap, where it spares a refining pass
    enough = -(-lane // max((_GATHER - 2) // 2, 1))
    k = max(1, min(max(first, enough), cap))
    k_refine = max(_GATHER - 1, 2)
    inside, rounds = 2 * -(-lane // k) + 2, 0
    while inside > _GATHER and rounds < 16:
        narrower = 2 * -(-inside // k_refine) + 2
        if narrower >= inside:
            break
        inside, rounds = narrower, rounds + 1
    return k, k_refine, rounds


class Blocks:
    """The blocks of a dask array ``a`` reduced over ``axes``: which chunk
    indices a block of outputs and a chunk along the reduced axes make, the
    groups of outputs each bracket and finish task takes, and the result's
    blocks (shared by the unweighted and the weighted selection)."""

    def __init__(self, a: Any, axes: tuple[int, ...]) -> None:
        self.a, self.axes = a, axes
        self.kept = [i for i in range(a.ndim) if i not in axes]
        self.kept_blocks = list(np.ndindex(*[a.numblocks[i] for i in self.kept]))
        self.reduced_blocks = list(np.ndindex(*[a.numblocks[i] for i in axes]))

    def full_index(self, kidx: tuple[int, ...], ridx: tuple[int, ...]) -> tuple[int, ...]:
        """The chunk index of block ``kidx`` of outputs and chunk ``ridx`` along the axes."""
        idx = [0] * self.a.ndim
        for i, v in zip(self.kept, kidx):
            idx[i] = v
        for i, v in zip(self.axes, ridx):
            idx[i] = v
        return tuple(idx)

    def row_groups(self, kidx: tuple[int, ...]) -> list[slice]:
        """The outputs of block ``kidx`` in groups of at most ``_ROWS_PER_GROUP``."""
        n_out = math.prod(self.a.chunks[i][v] for i, v in zip(self.kept, kidx))
        step = max(1, -(-n_out // max(1, -(-n_out // _ROWS_PER_GROUP))))
        return [slice(s, min(s + step, n_out)) for s in range(0, max(n_out, 1), step)]

    def output(self, kidx: tuple[int, ...], keepdims: bool
               ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The result block's index (without the ``q`` axes) and shape for block ``kidx``."""
        a = self.a
        if not keepdims:
            return kidx, tuple(a.chunks[i][v] for i, v in zip(self.kept, kidx))
        out_idx = self.full_index(kidx, (0,) * len(self.axes))
        return out_idx, tuple(1 if i in self.axes else a.chunks[i][out_idx[i]]
                              for i in range(a.ndim))

    def result_chunks(self, keepdims: bool, q_shape: tuple[int, ...] | None
                      ) -> tuple[tuple[int, ...], ...]:
        """The result's chunks: the ``q`` axes first, then the kept axes."""
        a = self.a
        if keepdims:
            chunks = tuple(((1,) if i in self.axes else a.chunks[i]) for i in range(a.ndim))
        else:
            chunks = tuple(a.chunks[i] for i in self.kept)
        return tuple((n,) for n in (q_shape or ())) + chunks


def refining_passes(blocks: Blocks, prefix: str, token: str, rounds: int, barrier: Any,
                    brackets_name: str, rebind: Callable[[Any, str], list[Any]],
                    refine_task: Callable[[list[Any], tuple[int, ...], list[Any]], tuple[Any, ...]],
                    rebracket: tuple[Any, ...]) -> tuple[Any, str]:
    """The layers of ``rounds`` refining passes after ``barrier`` (a Delayed
    after every bracket of the keys ``(brackets_name, *block, group)``):
    each pass reads the chunks again (``rebind(parent, seed)``: the inputs
    bound after ``parent``), runs ``refine_task(inputs, chunk index, the
    chunk's group bracket keys)`` per chunk and ``rebracket[0](parts,
    brackets, *rebracket[1:])`` per group.  Returns the last barrier and the
    name of the last brackets (shared by the unweighted and the weighted
    selection)."""
    from dask.delayed import Delayed
    from dask.highlevelgraph import HighLevelGraph

    for r in range(rounds):  # each pass after every bracket before it
        again = rebind(barrier, f"{token}-{r}")
        refine_name = f"{prefix}-refine{r}-{token}"
        narrowed_name = f"{prefix}-brackets{r + 1}-{token}"
        barrier_name = f"{prefix}-barrier{r + 1}-{token}"
        layer: dict[Any, Any] = {}
        narrowed_keys = []
        for kidx in blocks.kept_blocks:
            groups = blocks.row_groups(kidx)
            group_keys = [(brackets_name, *kidx, g) for g in range(len(groups))]
            refine_keys = []
            for ridx in blocks.reduced_blocks:
                idx = blocks.full_index(kidx, ridx)
                layer[(refine_name, *idx)] = refine_task(again, idx, group_keys)
                refine_keys.append((refine_name, *idx))
            for g in range(len(groups)):
                layer[(narrowed_name, *kidx, g)] = (
                    rebracket[0], [(operator.getitem, key, g) for key in refine_keys],
                    (brackets_name, *kidx, g), *rebracket[1:])
                narrowed_keys.append((narrowed_name, *kidx, g))
        layer[barrier_name] = (len, narrowed_keys)
        graph = HighLevelGraph.from_collections(barrier_name, layer,
                                                dependencies=[*again, barrier])
        barrier, brackets_name = Delayed(barrier_name, graph), narrowed_name
    return barrier, brackets_name


def graph_shape(k: int, k_refine: int, rounds: int) -> tuple[int, ...]:
    """What, besides the input and the plan, shapes a selection graph: the
    grids' intervals, the refining passes and the outputs per group (part of
    every key's token)."""
    return k, k_refine, rounds, _ROWS_PER_GROUP


def quantile_graph(a: Any, axes: tuple[int, ...], keepdims: bool, plan: dict[str, Any]) -> Any:
    """The lazy statistic of ``plan`` of the dask array ``a`` over ``axes``
    (sorted, normalised): result shape ``q`` shape + kept shape (reduced
    axes as length 1 with ``keepdims``), dtype ``plan["result_dtype"]``."""
    import dask.array as da
    from dask.base import tokenize
    from dask.delayed import Delayed
    from dask.graph_manipulation import bind
    from dask.highlevelgraph import HighLevelGraph

    max_lane = math.prod(max(a.chunks[i]) if a.chunks[i] else 0 for i in axes)
    n_brackets = 1 if plan["median"] else len(plan["q"])
    k, k_refine, rounds = passes(max_lane, n_brackets)
    # the keys name everything that shapes the graph (the grids, the passes
    # and the output groups), not only the input: a scheduler that still
    # holds an equal key from another graph reuses its value
    token = tokenize(a, axes, keepdims, sorted(plan.items(), key=str),
                     graph_shape(k, k_refine, rounds))

    stats_name = f"nanops-order-stats-{token}"
    brackets_name = f"nanops-order-brackets-{token}"
    barrier_name = f"nanops-order-barrier-{token}"
    layer1: dict[Any, Any] = {}
    blocks = Blocks(a, axes)
    kept_blocks, reduced_blocks = blocks.kept_blocks, blocks.reduced_blocks
    full_index, row_groups = blocks.full_index, blocks.row_groups

    bracket_keys = []
    for kidx in kept_blocks:
        stat_keys = []
        groups = row_groups(kidx)
        for ridx in reduced_blocks:
            idx = full_index(kidx, ridx)
            layer1[(stats_name, *idx)] = (_stats, (a.name, *idx), axes, k, groups)
            stat_keys.append((stats_name, *idx))
        for g in range(len(groups)):
            layer1[(brackets_name, *kidx, g)] = (
                _brackets, [(operator.getitem, key, g) for key in stat_keys], k, plan)
            bracket_keys.append((brackets_name, *kidx, g))
    layer1[barrier_name] = (len, bracket_keys)
    graph1 = HighLevelGraph.from_collections(barrier_name, layer1, dependencies=[a])
    barrier = Delayed(barrier_name, graph1)
    barrier, brackets_name = refining_passes(
        blocks, "nanops-order", token, rounds, barrier, brackets_name,
        lambda parent, seed: [bind(a, parent, seed=seed)],
        lambda again, idx, group_keys: (_refine, (again[0].name, *idx), axes, group_keys,
                                        k_refine),
        (_rebracket, k_refine))
    again = bind(a, barrier, seed=token)  # the last pass, after every bracket

    select_name = f"nanops-order-select-{token}"
    out_name = f"nanops-order-{token}"
    layer2: dict[Any, Any] = {}
    lead = () if plan["q_shape"] is None else (0,) * len(plan["q_shape"])
    finish_name = f"nanops-order-finish-{token}"
    for kidx in kept_blocks:
        select_keys = []
        groups = row_groups(kidx)
        group_keys = [(brackets_name, *kidx, g) for g in range(len(groups))]
        for ridx in reduced_blocks:
            idx = full_index(kidx, ridx)
            layer2[(select_name, *idx)] = (_select, (again.name, *idx), axes, group_keys)
            select_keys.append((select_name, *idx))
        for g in range(len(groups)):
            layer2[(finish_name, *kidx, g)] = (
                _finish, [(operator.getitem, key, g) for key in select_keys],
                (brackets_name, *kidx, g), plan)
        out_idx, shape = blocks.output(kidx, keepdims)
        layer2[(out_name, *lead, *out_idx)] = (
            _assemble, [(finish_name, *kidx, g) for g in range(len(groups))], plan, shape)
    graph2 = HighLevelGraph.from_collections(
        out_name, layer2, dependencies=[again, barrier])  # type: ignore[list-item]
    chunks = blocks.result_chunks(keepdims, plan["q_shape"])
    meta = np.empty((0,) * len(chunks), plan["result_dtype"])
    return da.Array(graph2, out_name, chunks, meta=meta)
