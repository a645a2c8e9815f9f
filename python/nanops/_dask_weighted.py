"""Exact weighted quantiles of dask arrays along chunked axes, without
rechunking: the weighted twin of :mod:`nanops._dask_order` (the engine
behind ``nanops.nanquantile(dask_array, q, weights=w, method=...)`` for
``inverted_cdf`` and ``averaged_inverted_cdf``).

What nanops computes on a lane: the non-NaN values of positive weight,
sorted (ties in lane order), the cumulative weights ``c[k]`` summed in that
order in float64 and the total ``W``; the quantile is the first ``k`` whose
``c[k]`` passes a test against ``q`` (rounded to ``q``'s float type), for
``averaged_inverted_cdf`` with the next value when ``c[k]`` lands on the
target.  A sequential float sum cannot be rebuilt from per-chunk sums in
general, but it is *exact* — so the same in any order — when every partial
sum is representable: all positive weights of an output are multiples of
``2**e`` (``e`` the smallest lowest-set-bit exponent among them) and their
total is below ``2**(53 + e)``.  Integer weights (counts, frequencies)
below ``2**53`` always are, and so are dyadic fractions such as ``k / 8``.

Four kinds of task run, as in the unweighted selection:

1. ``stats`` (per chunk): per output the non-NaN count, the positive-weight
   total, the exactness data (the smallest lowest-set-bit exponent; any
   negative weight; any NaN/inf weight of a non-NaN value) and a grid of
   ``k + 1`` values at evenly spaced *ranks* of the chunk's sorted
   positive-weight values, each with the chunk's weight strictly below it
   and at or below it;
2. ``brackets`` (per group of outputs): the total ``W``, which outputs are
   exact, and for each distinct ``q`` a bracket ``[lo, hi]`` from guaranteed
   bounds on the weight below every grid value: the weight strictly below
   ``lo`` is surely short of the target (by a margin wider than any
   rounding of ``q``'s type: 11 bits for float16), the weight at or below
   ``hi`` surely passes it with room (rounded, it lands strictly above the
   target, so no mean with a next value is taken there), or ``hi`` is the
   lane's maximum: the answer, and the value after it when
   ``averaged_inverted_cdf`` reads one, lie in ``[lo, hi]``;
   Lanes too long for one grid to pin the target down within
   ``_dask_order._GATHER`` values per output, bracket and chunk take
   *refining* passes first (as the unweighted selection; ``refine`` per
   chunk: the weight below ``lo`` and a grid of the values in ``[lo,
   hi]`` with their weights below and at or below; ``rebracket`` per group:
   the same bounds, offset by the weight below ``lo``, on the narrower
   grids);
3. ``select`` (per chunk, second pass after every bracket, bound with
   :func:`dask.graph_manipulation.bind`): per exact output and bracket the
   weight of the values below ``lo`` and above ``hi`` (sums of exact
   weights: exact in any order) and the values in ``[lo, hi]`` inclusive
   with their weights and lane positions; for an inexact output every
   positive-weight value with its weight and lane position (it is
   gathered: a rounded sequential sum needs every earlier weight);
4. ``finish`` (per group): per bracket, a compact lane per exact output —
   ``lo`` carrying the weight below ``lo`` first, the bracket's values in
   (value, lane position) order, ``hi`` carrying the weight above ``hi``
   last — and one ``nanops.nanquantile`` call on those lanes (padded with
   zero weights); the gathered lanes in lane order in one more call.  The
   compact lane's cumulative weights are the whole lane's (exact sums), its
   first entry is never chosen (its cumulative weight is short of the
   target) and its last is never chosen nor read as the next value (the
   test passes, strictly above the target, at the last copy of ``hi``,
   and all copies precede it), so the result is bit for bit
   ``nanops.nanquantile`` of the computed array.

Errors are nanops': a negative weight anywhere, then a NaN/inf weight of a
non-NaN value or an output of non-NaN values whose weights sum to 0 or
overflow, raise ``ValueError`` with nanops' message — at compute time, from
one task after all the brackets (so the same error whatever the order in
which chunks run).
"""

from __future__ import annotations

import math
import operator
import warnings
from typing import Any, Final

import numpy as np

from ._dask_order import (Blocks, _as_float, _assemble, graph_shape, grid_size, passes,
                          refining_passes)


__all__ = ["weighted_graph"]

#: Outputs per step of the brackets' vectorised work (bounds its memory).
_ROWS_PER_STEP: Final = 2048
#: Unit roundoff and smallest positive value of each q type (``q_code``).
_ROUNDING: Final = {"f2": (2.0**-11, 2.0**-24), "f4": (2.0**-24, 2.0**-149),
                    "f8": (2.0**-53, 2.0**-1074)}
#: Totals the exact path handles (outside: gathered), far from any
#: underflow or overflow of the margins' arithmetic.
_W_RANGE: Final = (2.0**-900, 2.0**900)
#: The largest total whose rounding to the q type stays finite, with room
#: (``averaged_inverted_cdf`` rounds ``W`` itself to the q type).
_W_MAX_ROUNDED: Final = {"f2": 60000.0, "f4": 2.0**127, "f8": math.inf}

MSG_NEGATIVE: Final = "Weights must be non-negative."
MSG_BAD: Final = "Weights included NaN, inf or were all zero."


# --- per chunk -----------------------------------------------------------



def _key32(values: np.ndarray) -> np.ndarray:
    """An unsigned key ordering float32 ``values`` as ``<`` does (-0.0 just
    below +0.0; a positive NaN above +inf), as uint64."""
    bits = np.ascontiguousarray(values, np.float32).view(np.uint32)
    return np.where(bits >> 31 == 1, ~bits, bits | np.uint32(0x80000000)).astype(np.uint64)


def _from_key32(key: np.ndarray) -> np.ndarray:
    """The float32 values of :func:`_key32` keys (the low 32 bits of ``key``)."""
    bits = (key & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    return np.where(bits >> 31 == 1, bits ^ np.uint32(0x80000000), ~bits).view(np.float32)


def _lanes(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """The chunk as ``(lane position, output)``: reduced axes first, in C
    order (nanops' lane order), kept axes after (a view when they lead)."""
    lane = math.prod(x.shape[i] for i in axes)
    n_out = math.prod(n for i, n in enumerate(x.shape) if i not in axes)
    return np.moveaxis(x, axes, tuple(range(len(axes)))).reshape(lane, n_out)


def _weights_of(w: np.ndarray, x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """The chunk's weights (a block of the full-shape or broadcast-form
    weights) as float64 ``(lane position, output)``."""
    return _lanes(np.broadcast_to(w, x.shape), axes).astype(np.float64)


def _lowest_bit_exponent(w: np.ndarray) -> np.ndarray:
    """``e`` with ``w`` an odd multiple of ``2**e``, for finite positive
    float64 ``w`` (subnormals included)."""
    bits = np.ascontiguousarray(w, np.float64).view(np.uint64)
    field = (bits >> np.uint64(52)) & np.uint64(0x7FF)
    mantissa = bits & np.uint64((1 << 52) - 1)
    significand = np.where(field == 0, mantissa, mantissa | np.uint64(1 << 52))
    lowest = significand & (~significand + np.uint64(1))  # its lowest set bit
    zeros = np.frexp(lowest.astype(np.float64))[1] - 1  # trailing zero bits
    return np.where(field == 0, -1074, field.astype(np.int64) - 1075) + zeros


def _smallest_exponent(w_dtype: np.dtype, wl: np.ndarray, counted: np.ndarray) -> np.ndarray:
    """Per output (column): the smallest lowest-set-bit exponent among the
    weights ``counted`` (4096 where none is).  Integer weights (as float64,
    as nanops takes them) are multiples of ``2**0``: 0, a lower bound of
    ``e``, which is all the exactness test and the grids need."""
    if w_dtype.kind in "biu":
        return np.where(np.any(counted, axis=0), 0, 4096)
    return np.min(np.where(counted, _lowest_bit_exponent(np.where(counted, wl, 1.0)), 4096),
                  axis=0, initial=4096)


def _stats(x: np.ndarray, w: np.ndarray, axes: tuple[int, ...], k: int,
           groups: list[slice]) -> list[dict[str, np.ndarray]]:
    """Per output of the chunk: the non-NaN count, the positive-weight total,
    the exactness data and the grid (see the module docstring); split into
    the groups of outputs."""
    xl = _as_float(_lanes(x, axes))
    wl = _weights_of(w, x, axes)
    lane, n_out = xl.shape
    notnan = ~np.isnan(xl)
    with np.errstate(invalid="ignore", over="ignore"):
        negative = np.any(wl < 0, axis=0)
        bad = np.any(notnan & ~np.isfinite(wl), axis=0)
        valid = notnan & (wl > 0) & np.isfinite(wl)
        counts = np.count_nonzero(notnan, axis=0)
        wv = np.where(valid, wl, 0.0)
        total = np.sum(wv, axis=0)
        emin = _smallest_exponent(w.dtype, wl, valid)
        # An output whose weights here already do not sum exactly (a total
        # of at least 2**(53 + e)) cannot sum exactly over the whole lane:
        # it will be gathered, and needs no grid (no sort).
        graded = np.flatnonzero(~bad & (total > 0)
                                & (total < np.ldexp(1.0, np.minimum(53 + emin, 2000))))
    grid = np.full((n_out, k + 1), np.nan, xl.dtype)  # data values: exact in their dtype
    below = np.zeros((n_out, k + 1))
    at_or_below = below.copy()
    if lane and graded.size:
        # the graded outputs as rows: values (NaN where they do not count), weights
        xg = np.ascontiguousarray(np.where(valid, xl, np.nan)[:, graded].T)
        wg = np.ascontiguousarray(wv[:, graded].T)
        n_pos = np.count_nonzero(valid[:, graded], axis=0)
        ranks = np.floor(np.maximum(n_pos - 1, 0)[:, None] * (np.arange(k + 1) / k)[None, :])
        grid[graded], below[graded], at_or_below[graded] = _grid(
            xg, wg, ranks.astype(np.int64), int(emin[graded].min()))
    return [{"count": counts[g], "total": total[g], "emin": emin[g], "negative": negative[g],
             "bad": bad[g], "grid": np.ascontiguousarray(grid[g]),
             "below": np.ascontiguousarray(below[g]),
             "at_or_below": np.ascontiguousarray(at_or_below[g])} for g in groups]


def _grid(xg: np.ndarray, wg: np.ndarray, ranks: np.ndarray, e: int
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row (an output whose weights sum exactly; NaN values, with weight
    0, do not count): the values at ``ranks`` of the sorted values, and the
    row's weight strictly below and at or below each.  Ties may sort in any
    order: the weights are read at the ends of a value's run of ties, and
    the sums are exact (``e``: every weight is a multiple of ``2**e``)."""
    rows, lane = xg.shape
    with np.errstate(over="ignore"):
        units = np.ldexp(wg, -e)  # integers
    if xg.dtype.itemsize <= 4 and units.max(initial=0) < 2.0**32:
        # values (as 32-bit order keys, -0.0 as +0.0) and weights (in units
        # of 2**e) packed into one integer: one sort of plain integers, no
        # argsort and no gather
        key = (_key32(xg + np.float32(0)) << np.uint64(32)) | units.astype(np.uint64)
        key.sort(axis=1)
        value_key = key >> np.uint64(32)
        sorted_w = np.ldexp((key & np.uint64(0xFFFFFFFF)).astype(np.float64), e)
        cum = np.concatenate([np.zeros((rows, 1)), np.cumsum(sorted_w, axis=1)], axis=1)
        # the ends of the runs of ties: one search of (row, value) keys
        row_key = np.arange(rows, dtype=np.uint64)[:, None] << np.uint64(32)
        flat = (row_key | value_key).ravel()
        wanted = (row_key | np.take_along_axis(value_key, ranks, axis=1)).ravel()
        base = np.arange(rows)[:, None] * lane
        n_below = np.searchsorted(flat, wanted, side="left").reshape(ranks.shape) - base
        n_at_or_below = np.searchsorted(flat, wanted, side="right").reshape(ranks.shape) - base
        grid = _from_key32(np.take_along_axis(value_key, ranks, axis=1)).astype(xg.dtype)
        return (grid, np.take_along_axis(cum, n_below, axis=1),
                np.take_along_axis(cum, n_at_or_below, axis=1))
    order = np.argsort(xg, axis=1)  # NaN last
    sv = np.take_along_axis(xg, order, axis=1)
    sw = np.take_along_axis(wg, order, axis=1)
    cum = np.cumsum(sw, axis=1)
    pos = np.arange(lane)[None, :]
    starts = np.ones(sv.shape, bool)
    starts[:, 1:] = sv[:, 1:] != sv[:, :-1]
    ends = np.ones(sv.shape, bool)
    ends[:, :-1] = sv[:, :-1] != sv[:, 1:]
    first = np.maximum.accumulate(np.where(starts, pos, 0), axis=1)
    last = np.minimum.accumulate(np.where(ends, pos, lane - 1)[:, ::-1], axis=1)[:, ::-1]
    return (np.take_along_axis(sv, ranks, axis=1),
            np.take_along_axis(cum - sw, np.take_along_axis(first, ranks, axis=1), axis=1),
            np.take_along_axis(cum, np.take_along_axis(last, ranks, axis=1), axis=1))


def _chunk_values(x: np.ndarray, w: np.ndarray, axes: tuple[int, ...]
                  ) -> tuple[np.ndarray, ...]:
    """The chunk as lanes ``(lane, outputs)``: its values, as float, their
    weights, which count (non-NaN, positive weight) and the weights that
    count (0 elsewhere)."""
    xl = _lanes(x, axes)
    xf = _as_float(xl)
    wl = _weights_of(w, x, axes)
    with np.errstate(invalid="ignore"):
        valid = ~np.isnan(xf) & (wl > 0)
        wv = np.where(valid, wl, 0.0)
    return xl, xf, wl, valid, wv


def _select(x: np.ndarray, w: np.ndarray, axes: tuple[int, ...], lane_shape: tuple[int, ...],
            offsets: tuple[int, ...], groups: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per exact output and bracket: the weight below ``lo`` and above
    ``hi``, and the values in ``[lo, hi]`` with their weights, outputs and
    lane positions; for the gathered outputs every positive-weight value;
    split by group."""
    xl, xf, wl, valid, wv = _chunk_values(x, w, axes)
    lane, n_out = xl.shape
    lo = np.concatenate([g["lo"] for g in groups])
    hi = np.concatenate([g["hi"] for g in groups])
    gather = np.concatenate([g["gather"] for g in groups])
    n_cols = lo.shape[1]
    # the chunk's lane positions in the whole lane (C order of the reduced axes)
    local = np.unravel_index(np.arange(lane), tuple(x.shape[i] for i in axes))
    where_in_lane = np.ravel_multi_index(
        tuple(p + o for p, o in zip(local, offsets)), lane_shape).astype(np.int64)
    flat_x, flat_w = xl.reshape(-1), wl.reshape(-1)

    def entries(mask: np.ndarray) -> dict[str, np.ndarray]:
        where = np.flatnonzero(mask)
        return {"values": flat_x[where], "weights": flat_w[where],
                "owner": (where % max(n_out, 1)).astype(np.int64),
                "pos": where_in_lane[where // max(n_out, 1)]}

    below = np.zeros((n_out, n_cols))
    above = below.copy()
    inside = []
    with np.errstate(invalid="ignore"):
        for b in range(n_cols):
            # NaN for the outputs not exact; data values, so exact in the data's dtype
            lo_b = lo[:, b].astype(xf.dtype)[None, :]
            hi_b = hi[:, b].astype(xf.dtype)[None, :]
            below[:, b] = np.sum((xf < lo_b) * wv, axis=0)
            above[:, b] = np.sum((xf > hi_b) * wv, axis=0)
            inside.append(entries(valid & (xf >= lo_b) & (xf <= hi_b)))
    gathered = entries(valid & gather[None, :])
    out, start = [], 0
    for g in groups:
        stop = start + g["lo"].shape[0]

        def part(e: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
            keep = (e["owner"] >= start) & (e["owner"] < stop)
            return {"values": e["values"][keep], "weights": e["weights"][keep],
                    "owner": (e["owner"][keep] - start).astype(np.int32),
                    "pos": e["pos"][keep]}

        out.append({"below": below[start:stop], "above": above[start:stop],
                    "inside": [part(e) for e in inside], "gathered": part(gathered)})
        start = stop
    return out


def _refine(x: np.ndarray, w: np.ndarray, axes: tuple[int, ...], k: int,
            groups: list[dict[str, Any]]) -> list[list[dict[str, np.ndarray]]]:
    """A refining pass over one chunk: per exact output and bracket, the
    weight strictly below ``lo`` (``settled``) and a grid of the chunk's
    values in ``[lo, hi]`` (``k + 1`` values at evenly spaced ranks, with
    the weight of those values strictly below and at or below each, their
    total and their smallest weight exponent: :func:`_stats`' grid, on the
    values inside the bracket); per group a list over the bracket columns."""
    xl, xf, wl, valid, wv = _chunk_values(x, w, axes)
    n_out = xl.shape[1]
    lo = np.concatenate([g["lo"] for g in groups])
    hi = np.concatenate([g["hi"] for g in groups])
    steps = np.arange(k + 1) / k
    columns = []
    for b in range(lo.shape[1]):
        with np.errstate(invalid="ignore"):
            lo_b = lo[:, b].astype(xf.dtype)[None, :]
            hi_b = hi[:, b].astype(xf.dtype)[None, :]
            settled = np.sum((xf < lo_b) * wv, axis=0)
            member = valid & (xf >= lo_b) & (xf <= hi_b)
        m = np.count_nonzero(member, axis=0)
        total = np.sum(np.where(member, wv, 0.0), axis=0)
        grid = np.full((n_out, k + 1), np.nan, xf.dtype)
        below = np.zeros((n_out, k + 1))
        at_or_below = below.copy()
        emin = _smallest_exponent(w.dtype, wl, member)
        rows = np.flatnonzero(m)
        if rows.size:
            xg = np.ascontiguousarray(np.where(member, xf, np.nan)[:, rows].T)
            wg = np.ascontiguousarray(np.where(member, wv, 0.0)[:, rows].T)
            ranks = np.floor((m[rows] - 1)[:, None] * steps[None, :]).astype(np.int64)
            grid[rows], below[rows], at_or_below[rows] = _grid(xg, wg, ranks,
                                                               int(emin[rows].min()))
        columns.append({"settled": settled, "grid": grid, "below": below,
                        "at_or_below": at_or_below, "total": total, "emin": emin})
    out, start = [], 0
    for g in groups:
        stop = start + g["lo"].shape[0]
        out.append([{key: np.ascontiguousarray(v[start:stop]) for key, v in c.items()}
                    for c in columns])
        start = stop
    return out


# --- per group of outputs ----------------------------------------------------


def _bounds(stats: list[dict[str, np.ndarray]], short: np.ndarray, reach: np.ndarray,
            offset: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """For rows of outputs and each bracket column: ``lo``, the largest grid
    value whose weight strictly below is surely ``< short`` (or 0), and
    ``hi``, the smallest grid value whose weight at or below is surely
    ``>= reach`` (the largest grid value when none is).  ``offset`` (per
    row): weight below every grid value besides the grids' own (a refining
    pass's grids cover only the values inside a bracket; exact sums, so
    added, not subtracted from the targets)."""
    n_rows, n_cols = short.shape
    values = np.concatenate([s["grid"] for s in stats], axis=1).astype(np.float64)
    # Per grid entry e of a chunk: the chunk's weight below any v is at most
    # the sum of `up` over the chunk's entries < v (telescoping to `below` at
    # the first entry >= v); its weight at or below v is at least the sum of
    # `down` over the entries <= v (telescoping to `at_or_below` at the last
    # entry <= v).
    ups, downs = [], []
    for s in stats:
        nxt = np.concatenate([s["below"][:, 1:], s["total"][:, None]], axis=1)
        ups.append(nxt - s["below"])
        prev = np.concatenate([np.zeros((n_rows, 1)), s["at_or_below"][:, :-1]], axis=1)
        downs.append(s["at_or_below"] - prev)
    up = np.where(np.isnan(values), 0.0, np.concatenate(ups, axis=1))
    down = np.where(np.isnan(values), 0.0, np.concatenate(downs, axis=1))
    # every weight (so every increment) of these rows is a multiple of 2**e
    e = int(np.min([s["emin"] for s in stats]))
    with np.errstate(over="ignore"):
        up_units, down_units = np.ldexp(up, -e), np.ldexp(down, -e)
    if (all(s["grid"].dtype.itemsize <= 4 for s in stats)
            and max(up_units.max(initial=0), down_units.max(initial=0)) < 2.0**16):
        # float32 values and both increments (integers below 2**16) in one
        # key: one sort of plain integers, no argsort (ties in any order:
        # the sums below are read at the ends of the runs of ties)
        key = ((_key32(values.astype(np.float32) + np.float32(0)) << np.uint64(32))
               | (up_units.astype(np.uint64) << np.uint64(16)) | down_units.astype(np.uint64))
        key.sort(axis=1)
        sv = _from_key32(key >> np.uint64(32)).astype(np.float64)
        up_s = np.ldexp(((key >> np.uint64(16)) & np.uint64(0xFFFF)).astype(np.float64), e)
        down_s = np.ldexp((key & np.uint64(0xFFFF)).astype(np.float64), e)
    else:
        order = np.argsort(values, axis=1)
        sv = np.take_along_axis(values, order, axis=1)
        up_s = np.take_along_axis(up, order, axis=1)
        down_s = np.take_along_axis(down, order, axis=1)
    width = sv.shape[1]
    # sums over the entries strictly below each entry's value: the exclusive
    # prefix sums at the first entry of its run of ties; over the entries at
    # or below it: the inclusive prefix sums at the last entry of the run
    starts = np.ones(sv.shape, bool)
    starts[:, 1:] = sv[:, 1:] != sv[:, :-1]
    first = np.maximum.accumulate(np.where(starts, np.arange(width), 0), axis=1)
    upper = np.take_along_axis(np.cumsum(up_s, axis=1) - up_s, first, axis=1)
    ends = np.ones(sv.shape, bool)
    ends[:, :-1] = sv[:, :-1] != sv[:, 1:]
    last = np.minimum.accumulate(np.where(ends, np.arange(width), width - 1)[:, ::-1],
                                 axis=1)[:, ::-1]
    lower = np.take_along_axis(np.cumsum(down_s, axis=1), last, axis=1)
    below_grid = upper == 0  # nothing of the grids below: the smallest value
    if offset is not None:
        upper, lower = upper + offset[:, None], lower + offset[:, None]
    valid = ~np.isnan(sv)
    n_valid = np.count_nonzero(valid, axis=1)
    rows = np.arange(n_rows)
    lo = np.full((n_rows, n_cols), np.nan)
    hi = lo.copy()
    has = n_valid > 0
    top = np.maximum(n_valid - 1, 0)
    for b in range(n_cols):
        # both bounds are non-decreasing along a row: counts give the positions
        n_lo = np.count_nonzero(valid & ((upper < short[:, b:b + 1]) | below_grid), axis=1)
        n_hi = np.count_nonzero(valid & (lower >= reach[:, b:b + 1]), axis=1)
        i_lo = np.maximum(n_lo - 1, 0)
        i_hi = np.where(n_hi > 0, n_valid - n_hi, top)
        lo[:, b] = np.where(has, sv[rows, i_lo], np.nan)
        hi[:, b] = np.where(has, sv[rows, i_hi], np.nan)
    return lo, hi


def _brackets(stats: list[dict[str, np.ndarray]], plan: dict[str, Any]) -> dict[str, Any]:
    """Totals, exactness and the brackets of a group of outputs."""
    n_out = stats[0]["count"].shape[0]
    counts = np.sum([s["count"] for s in stats], axis=0).astype(np.int64)
    total = np.zeros(n_out)
    with np.errstate(over="ignore", invalid="ignore"):
        for s in stats:
            total = total + s["total"]
    emin = np.min([s["emin"] for s in stats], axis=0)
    negative = np.any([s["negative"] for s in stats], axis=0)
    bad = np.any([s["bad"] for s in stats], axis=0)
    bad |= (counts > 0) & ~(np.isfinite(total) & (total > 0))
    q_code, method = plan["q_code"], plan["method"]
    w_max = _W_MAX_ROUNDED[q_code] if method == "averaged_inverted_cdf" else math.inf
    with np.errstate(over="ignore", invalid="ignore"):
        exact = ((counts > 0) & ~bad & (total >= _W_RANGE[0]) & (total <= _W_RANGE[1])
                 & (total < np.ldexp(1.0, np.minimum(53 + emin, 2000))) & (total < w_max))
    # the weight short of which the test surely fails, and from which it
    # surely passes, per distinct q (see the module docstring)
    rho, tiny = _ROUNDING[q_code]
    margin = 16 * rho
    if method == "averaged_inverted_cdf":
        floor = np.full(n_out, 16 * tiny)
    else:
        floor = total * (16 * tiny if q_code == "f2" else 0.0)
    floor = floor + total * 2.0**-60
    q = np.asarray(plan["q_columns"], np.float64)[None, :]
    t = total[:, None]
    short = q * t * (1 - margin) - floor[:, None]
    reach = q * t * (1 + margin) + floor[:, None]
    n_cols = q.shape[1]
    lo = np.full((n_out, n_cols), np.nan)
    hi = lo.copy()
    rows = np.flatnonzero(exact)
    for step in range(0, rows.size, _ROWS_PER_STEP):
        r = rows[step:step + _ROWS_PER_STEP]
        lo[r], hi[r] = _bounds([{key: v[r] for key, v in st.items()} for st in stats],
                               short[r], reach[r])
    return {"counts": counts, "exact": exact, "gather": (counts > 0) & ~bad & ~exact,
            "lo": lo, "hi": hi, "negative": bool(negative.any()), "bad": bool(bad.any()),
            "short": short, "reach": reach}


def _rebracket(parts: list[list[dict[str, np.ndarray]]], brackets: dict[str, Any]
               ) -> dict[str, Any]:
    """The brackets of a group narrowed by one refining pass (:func:`_refine`
    of every chunk): per exact output and bracket, the grids of the values
    in ``[lo, hi]`` bound the weight below each of them, given the weight
    below ``lo`` (exact sums), with the targets of the first bracketing:
    the same guarantee on a narrower bracket."""
    out = dict(brackets)
    lo, hi = brackets["lo"].copy(), brackets["hi"].copy()
    rows = np.flatnonzero(brackets["exact"])
    for b in range(lo.shape[1]):
        for step in range(0, rows.size, _ROWS_PER_STEP):
            r = rows[step:step + _ROWS_PER_STEP]
            offset = np.sum([p[b]["settled"][r] for p in parts], axis=0)
            stats = [{key: v[r] for key, v in p[b].items()} for p in parts]
            new_lo, new_hi = _bounds(stats, brackets["short"][r, b:b + 1],
                                     brackets["reach"][r, b:b + 1], offset)
            keep = np.isnan(new_lo[:, 0])
            lo[r, b] = np.where(keep, lo[r, b], new_lo[:, 0])
            hi[r, b] = np.where(keep, hi[r, b], new_hi[:, 0])
    out["lo"], out["hi"] = lo, hi
    return out


def _check(brackets: list[dict[str, Any]]) -> int:
    """nanops' errors for the weights, from every group's brackets (one task,
    so the same error whatever order the chunks ran in)."""
    if any(b["negative"] for b in brackets):
        raise ValueError(MSG_NEGATIVE)
    if any(b["bad"] for b in brackets):
        raise ValueError(MSG_BAD)
    return len(brackets)


def _compact(rows: int, parts: list[dict[str, np.ndarray]], dtype: np.dtype, lane_len: int,
             first: tuple[np.ndarray, np.ndarray] | None = None,
             last: tuple[np.ndarray, np.ndarray] | None = None
             ) -> tuple[np.ndarray, np.ndarray]:
    """The lanes of ``rows`` outputs as a ``(rows + 1, width)`` array of
    values and one of weights (zero weights pad them; row 0 is a stand-in
    with one value, so that the first slice nanops sees is never all-NaN),
    from the chunks' entries in lane order — nanops sorts each lane by
    value, ties in lane order, so the order by value needs no sort here.
    Without ``first``/``last``: every entry at its lane position.  With
    them: per row ``first = (value, weight)`` leading, the row's entries
    in lane order, ``last`` closing (each left out at weight 0)."""
    vals = np.concatenate([p["values"] for p in parts]).astype(dtype, copy=False)
    ws = np.concatenate([p["weights"] for p in parts])
    owner = np.concatenate([p["owner"] for p in parts]).astype(np.int64)
    pos = np.concatenate([p["pos"] for p in parts])
    pad = np.nan if dtype.kind == "f" else 0
    if first is None or last is None:
        out_v = np.full((rows + 1, max(lane_len, 1)), pad, dtype)
        out_w = np.zeros(out_v.shape)
        out_v[0, 0], out_w[0, 0] = 0, 1.0
        out_v[owner + 1, pos] = vals
        out_w[owner + 1, pos] = ws
        return out_v, out_w
    order = np.argsort(owner * lane_len + pos)
    vals, ws, owner = vals[order], ws[order], owner[order]
    n_mid = np.bincount(owner, minlength=rows)
    has_first, has_last = first[1] > 0, last[1] > 0
    width = int(max(1, (n_mid + has_first + has_last).max(initial=0)))
    out_v = np.full((rows + 1, width), pad, dtype)
    out_w = np.zeros(out_v.shape)
    out_v[0, 0], out_w[0, 0] = 0, 1.0
    start = np.cumsum(n_mid) - n_mid
    col = has_first[owner] + np.arange(owner.size) - start[owner]
    out_v[owner + 1, col] = vals
    out_w[owner + 1, col] = ws
    r = np.flatnonzero(has_first)
    out_v[r + 1, 0] = first[0][r].astype(dtype)
    out_w[r + 1, 0] = first[1][r]
    r = np.flatnonzero(has_last)
    c = has_first[r] + n_mid[r]
    out_v[r + 1, c] = last[0][r].astype(dtype)
    out_w[r + 1, c] = last[1][r]
    return out_v, out_w


def _finish(selected: list[dict[str, Any]], brackets: dict[str, Any], plan: dict[str, Any]
            ) -> np.ndarray:
    """The weighted quantiles of every output of a group, ``(width, outputs)``:
    nanops on the compact and the gathered lanes."""
    import nanops

    fn = getattr(nanops, plan["name"])
    dtype = np.dtype(plan["dtype"])
    counts, exact, gather = brackets["counts"], brackets["exact"], brackets["gather"]
    n_out = counts.shape[0]
    n_q = plan["n_q"]
    result = np.zeros((n_q, n_out), plan["result_dtype"])
    if result.dtype.kind == "f":
        result[:, counts == 0] = np.nan

    def call(values: np.ndarray, weights: np.ndarray, q: Any) -> np.ndarray:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            got = fn(values, q, axis=1, method=plan["method"], weights=weights)
        return np.asarray(got).reshape(-1, values.shape[0])[:, 1:]

    rows_e = np.flatnonzero(exact)
    if rows_e.size:
        index = np.full(n_out, -1, np.int64)
        index[rows_e] = np.arange(rows_e.size)
        below = np.sum([s["below"] for s in selected], axis=0)
        above = np.sum([s["above"] for s in selected], axis=0)
        for b, q_item in enumerate(plan["q_items"]):
            parts = []
            for s in selected:
                e = s["inside"][b]
                keep = exact[e["owner"]]
                parts.append({"values": e["values"][keep], "weights": e["weights"][keep],
                              "owner": index[e["owner"][keep]], "pos": e["pos"][keep]})
            lo, hi = brackets["lo"][rows_e, b], brackets["hi"][rows_e, b]
            values, weights = _compact(rows_e.size, parts, dtype, plan["lane_len"],
                                       (lo, below[rows_e, b]), (hi, above[rows_e, b]))
            got = call(values, weights, q_item)[0]
            for j in np.flatnonzero(np.asarray(plan["column_of_q"]) == b):
                result[j, rows_e] = got
    rows_g = np.flatnonzero(gather)
    if rows_g.size:
        index = np.full(n_out, -1, np.int64)
        index[rows_g] = np.arange(rows_g.size)
        parts = []
        for s in selected:
            e = s["gathered"]
            parts.append({**e, "owner": index[e["owner"]]})
        values, weights = _compact(rows_g.size, parts, dtype, plan["lane_len"])
        result[:, rows_g] = call(values, weights, plan["q"])
    if np.any(counts == 0):
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=2)
    return result


# --- the graph -----------------------------------------------------------


def weighted_graph(a: Any, w: Any, axes: tuple[int, ...], keepdims: bool,
                   plan: dict[str, Any]) -> Any:
    """The lazy weighted quantiles of ``plan`` of the dask array ``a`` with
    the weights ``w`` (a dask array chunked as ``a``, full shape or length 1
    along the kept axes) over ``axes`` (sorted, normalised)."""
    import dask.array as da
    from dask.base import tokenize
    from dask.delayed import Delayed
    from dask.graph_manipulation import bind
    from dask.highlevelgraph import HighLevelGraph

    plan = {**plan, "lane_len": math.prod(a.shape[i] for i in axes)}
    max_lane = math.prod(max(a.chunks[i]) if a.chunks[i] else 0 for i in axes)
    # about sqrt(2 c × brackets): a finer grid than the unweighted one, as
    # every value kept inside a bracket travels with its weight
    k, k_refine, rounds = passes(max_lane, len(plan["q_items"]),
                                 grid_size(2 * max_lane, len(plan["q_items"])))
    token = tokenize(a, w, axes, keepdims, sorted(plan.items(), key=str),
                     graph_shape(k, k_refine, rounds))
    lane_shape = tuple(a.shape[i] for i in axes)
    starts = [np.concatenate([[0], np.cumsum(c)[:-1]]).astype(int) for c in a.chunks]

    stats_name = f"nanops-wquantile-stats-{token}"
    brackets_name = f"nanops-wquantile-brackets-{token}"
    barrier_name = f"nanops-wquantile-check-{token}"
    blocks = Blocks(a, axes)
    kept_blocks, reduced_blocks = blocks.kept_blocks, blocks.reduced_blocks
    full_index, row_groups = blocks.full_index, blocks.row_groups

    def w_key(name: str, idx: tuple[int, ...]) -> tuple[Any, ...]:
        return (name, *(v if w.numblocks[i] > 1 or w.shape[i] == a.shape[i] else 0
                        for i, v in enumerate(idx)))

    layer1: dict[Any, Any] = {}
    bracket_keys = []
    for kidx in kept_blocks:
        stat_keys = []
        groups = row_groups(kidx)
        for ridx in reduced_blocks:
            idx = full_index(kidx, ridx)
            layer1[(stats_name, *idx)] = (_stats, (a.name, *idx), w_key(w.name, idx), axes,
                                          k, groups)
            stat_keys.append((stats_name, *idx))
        for g in range(len(groups)):
            layer1[(brackets_name, *kidx, g)] = (
                _brackets, [(operator.getitem, key, g) for key in stat_keys], plan)
            bracket_keys.append((brackets_name, *kidx, g))
    layer1[barrier_name] = (_check, bracket_keys)
    graph1 = HighLevelGraph.from_collections(barrier_name, layer1, dependencies=[a, w])
    barrier = Delayed(barrier_name, graph1)
    barrier, brackets_name = refining_passes(
        blocks, "nanops-wquantile", token, rounds, barrier, brackets_name,
        lambda parent, seed: list(bind((a, w), parent, seed=seed)),
        lambda again, idx, group_keys: (_refine, (again[0].name, *idx),
                                        w_key(again[1].name, idx), axes, k_refine, group_keys),
        (_rebracket,))
    again_a, again_w = bind((a, w), barrier, seed=token)  # the last pass

    select_name = f"nanops-wquantile-select-{token}"
    finish_name = f"nanops-wquantile-finish-{token}"
    out_name = f"nanops-wquantile-{token}"
    layer2: dict[Any, Any] = {}
    lead = (0,) * len(plan["q_shape"])
    for kidx in kept_blocks:
        select_keys = []
        groups = row_groups(kidx)
        group_keys = [(brackets_name, *kidx, g) for g in range(len(groups))]
        for ridx in reduced_blocks:
            idx = full_index(kidx, ridx)
            offsets = tuple(int(starts[i][v]) for i, v in zip(axes, ridx))
            layer2[(select_name, *idx)] = (_select, (again_a.name, *idx),
                                           w_key(again_w.name, idx), axes, lane_shape,
                                           offsets, group_keys)
            select_keys.append((select_name, *idx))
        for g in range(len(groups)):
            layer2[(finish_name, *kidx, g)] = (
                _finish, [(operator.getitem, key, g) for key in select_keys],
                (brackets_name, *kidx, g), plan)
        out_idx, shape = blocks.output(kidx, keepdims)
        layer2[(out_name, *lead, *out_idx)] = (
            _assemble, [(finish_name, *kidx, g) for g in range(len(groups))], plan, shape)
    graph2 = HighLevelGraph.from_collections(
        out_name, layer2, dependencies=[again_a, again_w, barrier])  # type: ignore[list-item]
    chunks = blocks.result_chunks(keepdims, plan["q_shape"])
    meta = np.empty((0,) * len(chunks), plan["result_dtype"])
    return da.Array(graph2, out_name, chunks, meta=meta)
