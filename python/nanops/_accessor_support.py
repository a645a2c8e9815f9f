"""What the pandas and xarray accessors (:mod:`nanops.pandas`,
:mod:`nanops.xarray`) share: the group-by table and the warning filter."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator
from typing import Final

import numpy as np

__all__ = ["GROUP_REDUCTIONS", "quiet"]

#: The group-by statistics: accessor method → nanops function.
GROUP_REDUCTIONS: Final = {
    "sum": "group_nansum",
    "mean": "group_nanmean",
    "var": "group_nanvar",
    "std": "group_nanstd",
    "min": "group_nanmin",
    "max": "group_nanmax",
    "count": "group_nancount",
    "median": "group_nanmedian",
    "first": "group_nanfirst",
    "last": "group_nanlast",
    "quantile": "group_nanquantile",
}


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """nanops warns as NumPy does ("Mean of empty slice" …); pandas and
    xarray do not."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        yield
