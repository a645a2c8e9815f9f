"""nanops: fast, accurate NaN-aware reductions; a drop-in for NumPy's ``nan*``.

Every public function has the signature, result dtypes, warnings and errors
of its NumPy counterpart (``nanops.nanmean`` ~ ``numpy.nanmean``, ...).  The
work is done by the compiled module ``nanops._nanops`` (Rust); inputs it does
not cover (ndarray subclasses, object/datetime/long double dtypes, exotic
argument combinations) are handed to NumPy itself.  ``nancount`` is an
addition: the number of non-NaN values.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from ._order import median, nanmedian, nanpercentile, nanquantile, percentile, quantile
from ._streaming import (
    nanargmax,
    nanargmin,
    nancount,
    nancumprod,
    nancumsum,
    nanmax,
    nanmean,
    nanmin,
    nanprod,
    nanstd,
    nansum,
    nanvar,
)

for _f in (
    nansum,
    nanprod,
    nanmean,
    nanvar,
    nanstd,
    nanmin,
    nanmax,
    nanargmin,
    nanargmax,
    nancumsum,
    nancumprod,
    nancount,
    nanmedian,
    nanquantile,
    nanpercentile,
    median,
    quantile,
    percentile,
):
    _f.__module__ = __name__
del _f

try:
    __version__: str = version("nanops")
except PackageNotFoundError:  # running from a source tree
    __version__ = "0+unknown"

__all__ = [
    "nansum",
    "nanprod",
    "nanmean",
    "nanvar",
    "nanstd",
    "nanmin",
    "nanmax",
    "nanargmin",
    "nanargmax",
    "nancumsum",
    "nancumprod",
    "nancount",
    "nanmedian",
    "nanquantile",
    "nanpercentile",
    "median",
    "quantile",
    "percentile",
    "__version__",
]
