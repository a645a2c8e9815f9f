"""Arrays whose strides are not whole elements.

NumPy allows a stride that is a multiple of the alignment but not of the
item size: a complex128 field of a structured array whose records are 24
bytes long, a complex64 field of 12-byte records.  An ``ndarray`` view cannot
express such strides, so nanops copies these arrays (on the fast path as on
the general one) instead of reading the wrong values.  Each function is
checked on such a view against itself on a contiguous copy, bit for bit.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import nanops

CALLS: dict[str, tuple[Any, ...]] = {
    "nansum": (),
    "nanprod": (),
    "nanmean": (),
    "nanvar": (),
    "nanstd": (),
    "nanmin": (),
    "nanmax": (),
    "nanargmin": (),
    "nanargmax": (),
    "nancumsum": (),
    "nancumprod": (),
    "nancount": (),
    "nanmedian": (),
    "median": (),
}
# (quantiles and percentiles take real input only, where an aligned view's
# strides are always whole elements; their weights are checked below)


def _field_view(dtype: str) -> np.ndarray:
    """A (5, 6) view of complex values ``24`` (complex128) or ``12``
    (complex64) bytes apart, with NaN in either part."""
    pad = "f8" if dtype == "c16" else "f4"
    records = np.zeros((5, 6), dtype=[("pad", pad), ("z", dtype)])
    rng = np.random.default_rng(5)
    z = rng.standard_normal((5, 6)) + 1j * rng.standard_normal((5, 6))
    z[1, 2] = complex(np.nan, 1.0)
    z[3, 4] = complex(2.0, np.nan)
    records["z"] = z
    view = records["z"]
    assert view.strides[1] % view.itemsize != 0  # the case under test
    return view


def _run(fn: Any, *args: Any, **kwargs: Any) -> Any:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        return fn(*args, **kwargs)


@pytest.mark.parametrize("kwargs", [{}, {"axis": 0}, {"axis": 1}, {"axis": 1, "keepdims": True}],
                         ids=repr)
@pytest.mark.parametrize("dtype", ["c16", "c8"])
@pytest.mark.parametrize("name", sorted(CALLS))
def test_a_view_reads_as_its_copy(name: str, dtype: str, kwargs: dict[str, Any]) -> None:
    if "keepdims" in kwargs and name in ("nancumsum", "nancumprod"):
        pytest.skip("no keepdims")
    view = _field_view(dtype)
    fn = getattr(nanops, name)
    got = _run(fn, view, *CALLS[name], **kwargs)
    want = _run(fn, view.copy(), *CALLS[name], **kwargs)
    assert np.asarray(got).dtype == np.asarray(want).dtype
    np.testing.assert_array_equal(got, want)


def test_weights_that_are_a_field_view() -> None:
    records = np.zeros(6, dtype=[("pad", "i1"), ("w", "f8")])  # 9 bytes apart, unaligned
    records["w"] = [1, 2, 3, 4, 5, 6]
    a = np.array([3.0, 1.0, np.nan, 2.0, 5.0, 4.0])
    got = nanops.nanquantile(a, [0.2, 0.5], weights=records["w"], method="inverted_cdf")
    want = nanops.nanquantile(a, [0.2, 0.5], weights=records["w"].copy(), method="inverted_cdf")
    np.testing.assert_array_equal(got, want)


def test_real_dtypes_align_to_their_item_size() -> None:
    # why only complex views are checked on the general path
    # (``nanops._args.kernel_input``): an aligned real array's strides are
    # whole elements
    for dtype in ["?", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8"]:
        assert np.dtype(dtype).alignment == np.dtype(dtype).itemsize
