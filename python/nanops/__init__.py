"""nanops: fast, accurate NaN-aware reductions; a drop-in for NumPy's ``nan*``.

Every public function has the signature, result dtypes, warnings and errors
of its NumPy counterpart (``nanops.nanmean`` ~ ``numpy.nanmean``, ...).  The
work is done by the compiled module ``nanops._nanops`` (Rust); inputs it does
not cover (ndarray subclasses, object/datetime/long double dtypes, exotic
argument combinations) are handed to NumPy itself.  ``nancount`` is an
addition: the number of non-NaN values.

The functions are generated from the rows of :mod:`nanops._registry`, whose
order is ``__all__``.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from ._registry import FUNCTIONS

globals().update(FUNCTIONS)

try:
    __version__: str = version("nanops")
except PackageNotFoundError:  # running from a source tree
    __version__ = "0+unknown"

__all__ = [*FUNCTIONS, "__version__"]
