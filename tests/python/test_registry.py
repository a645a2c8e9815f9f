"""The public functions as the registry generates them (``nanops._registry``).

Pins what callers see of each function (NumPy's exact signature, the name
list, ``__module__``/``__name__``/``__doc__``, runnable doctest examples,
warnings attributed to the caller's line) and checks the generator itself on
small made-up rows: when the fast entry is tried, how its result and flag
are used, how the general path and the fallback are called, and which rows
it refuses.
"""

from __future__ import annotations

import doctest
import inspect
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import nanops
from nanops import _nanops, _registry
from nanops._args import Delegate, NoValue
from nanops._generate import GENERAL_PATH, Fast, General, Row, Warn, build

NAMES = [name for name in nanops.__all__ if name != "__version__"]

#: ``str(inspect.signature(...))`` of every public function, as NumPy's.
SIGNATURES = {
    "nansum": "(a, axis=None, dtype=None, out=None, keepdims=<no value>, initial=<no value>, where=<no value>)",
    "nanprod": "(a, axis=None, dtype=None, out=None, keepdims=<no value>, initial=<no value>, where=<no value>)",
    "nanmean": "(a, axis=None, dtype=None, out=None, keepdims=<no value>, *, where=<no value>)",
    "nanvar": "(a, axis=None, dtype=None, out=None, ddof=0, keepdims=<no value>, *, where=<no value>, mean=<no value>, correction=<no value>)",
    "nanstd": "(a, axis=None, dtype=None, out=None, ddof=0, keepdims=<no value>, *, where=<no value>, mean=<no value>, correction=<no value>)",
    "nanskew": "(a, axis=None, dtype=None, out=None, keepdims=<no value>, *, where=<no value>, bias=True)",
    "nankurt": "(a, axis=None, dtype=None, out=None, keepdims=<no value>, *, where=<no value>, bias=True, fisher=True)",
    "nanmin": "(a, axis=None, out=None, keepdims=<no value>, initial=<no value>, where=<no value>)",
    "nanmax": "(a, axis=None, out=None, keepdims=<no value>, initial=<no value>, where=<no value>)",
    "nanargmin": "(a, axis=None, out=None, *, keepdims=<no value>)",
    "nanargmax": "(a, axis=None, out=None, *, keepdims=<no value>)",
    "nancumsum": "(a, axis=None, dtype=None, out=None)",
    "nancumprod": "(a, axis=None, dtype=None, out=None)",
    "nancount": "(a, axis=None, keepdims=False)",
    "ss": "(a, axis=None)",
    "anynan": "(a, axis=None)",
    "allnan": "(a, axis=None)",
    "count": "(a, axis=None, keepdims=False)",
    "nanmedian": "(a, axis=None, out=None, overwrite_input=False, keepdims=<no value>)",
    "nanquantile": "(a, q, axis=None, out=None, overwrite_input=False, method='linear', keepdims=<no value>, *, weights=None)",
    "nanpercentile": "(a, q, axis=None, out=None, overwrite_input=False, method='linear', keepdims=<no value>, *, weights=None)",
    "median": "(a, axis=None, out=None, overwrite_input=False, keepdims=False)",
    "quantile": "(a, q, axis=None, out=None, overwrite_input=False, method='linear', keepdims=False, *, weights=None)",
    "percentile": "(a, q, axis=None, out=None, overwrite_input=False, method='linear', keepdims=False, *, weights=None)",
    "rankdata": "(a, axis=None)",
    "nanrankdata": "(a, axis=None)",
    "partition": "(a, kth, axis=-1, kind='introselect', order=None)",
    "argpartition": "(a, kth, axis=-1, kind='introselect', order=None)",
    "replace": "(a, old, new)",
    "move_sum": "(a, window, min_count=None, axis=-1)",
    "move_mean": "(a, window, min_count=None, axis=-1)",
    "move_var": "(a, window, min_count=None, axis=-1, ddof=0)",
    "move_std": "(a, window, min_count=None, axis=-1, ddof=0)",
    "move_min": "(a, window, min_count=None, axis=-1)",
    "move_max": "(a, window, min_count=None, axis=-1)",
    "move_argmin": "(a, window, min_count=None, axis=-1)",
    "move_argmax": "(a, window, min_count=None, axis=-1)",
    "move_count": "(a, window, min_count=None, axis=-1)",
    "move_median": "(a, window, min_count=None, axis=-1)",
    "move_quantile": "(a, window, q, min_count=None, axis=-1, method='linear')",
    "move_rank": "(a, window, min_count=None, axis=-1)",
    "move_cov": "(a, b, window, min_count=None, axis=-1)",
    "move_corr": "(a, b, window, min_count=None, axis=-1)",
    "move_exp_nanmean": "(a, /, *, alpha, min_weight=0, axis=-1)",
    "move_exp_nansum": "(a, /, *, alpha, min_weight=0, axis=-1)",
    "move_exp_nanvar": "(a, /, *, alpha, min_weight=0, axis=-1)",
    "move_exp_nanstd": "(a, /, *, alpha, min_weight=0, axis=-1)",
    "move_exp_nancount": "(a, /, *, alpha, min_weight=0, axis=-1)",
    "move_exp_nancov": "(a, b, /, *, alpha, min_weight=0, axis=-1)",
    "move_exp_nancorr": "(a, b, /, *, alpha, min_weight=0, axis=-1)",
    "ffill": "(a, *, limit=None, axis=-1)",
    "bfill": "(a, *, limit=None, axis=-1)",
    "push": "(a, n=None, axis=-1)",
    "nancovmatrix": "(a)",
    "nancorrmatrix": "(a)",
    "move_covmatrix": "(a, window, min_count=None)",
    "move_corrmatrix": "(a, window, min_count=None)",
    "move_exp_nancovmatrix": "(a, alpha, min_weight=0)",
    "move_exp_nancorrmatrix": "(a, alpha, min_weight=0)",
    "group_nansum": "(values, labels, *, axis=None, num_labels=None)",
    "group_nanprod": "(values, labels, *, axis=None, num_labels=None)",
    "group_nanmean": "(values, labels, *, axis=None, num_labels=None)",
    "group_nanvar": "(values, labels, *, axis=None, num_labels=None, ddof=1)",
    "group_nanstd": "(values, labels, *, axis=None, num_labels=None, ddof=1)",
    "group_nanmin": "(values, labels, *, axis=None, num_labels=None)",
    "group_nanmax": "(values, labels, *, axis=None, num_labels=None)",
    "group_nanargmin": "(values, labels, *, axis=None, num_labels=None)",
    "group_nanargmax": "(values, labels, *, axis=None, num_labels=None)",
    "group_nancount": "(values, labels, *, axis=None, num_labels=None)",
    "group_nanfirst": "(values, labels, *, axis=None, num_labels=None)",
    "group_nanlast": "(values, labels, *, axis=None, num_labels=None)",
    "group_nanany": "(values, labels, *, axis=None, num_labels=None)",
    "group_nanall": "(values, labels, *, axis=None, num_labels=None)",
    "group_nansum_of_squares": "(values, labels, *, axis=None, num_labels=None)",
    "group_nanskew": "(values, labels, *, axis=None, num_labels=None, bias=True)",
    "group_nankurt": "(values, labels, *, axis=None, num_labels=None, bias=True, fisher=True)",
    "group_nanmedian": "(values, labels, *, axis=None, num_labels=None)",
    "group_nanquantile": "(values, labels, q, *, axis=None, num_labels=None, method='linear', weights=None)",
}


# ------------------------------------------------------------ public surface


def test_all_is_the_registry_order() -> None:
    assert NAMES == [row.name for row in _registry.ROWS] == list(SIGNATURES)
    assert nanops.__all__ == [*NAMES, "__version__"]
    assert len(set(NAMES)) == len(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_signature_is_pinned(name: str) -> None:
    assert str(inspect.signature(getattr(nanops, name))) == SIGNATURES[name]


@pytest.mark.parametrize("name", [n for n in NAMES if hasattr(np, n)])
def test_signature_equals_numpys(name: str) -> None:
    ours = inspect.signature(getattr(nanops, name)).parameters
    numpys = inspect.signature(getattr(np, name)).parameters
    assert ours == numpys  # names, kinds, defaults (np._NoValue itself)


@pytest.mark.parametrize("name", NAMES)
def test_function_metadata(name: str) -> None:
    func = getattr(nanops, name)
    assert func.__module__ == "nanops"
    assert func.__name__ == func.__qualname__ == name
    assert getattr(np, name, None) is not func
    doc = func.__doc__
    assert doc and not doc[0].isspace() and doc.endswith("\n    ")
    assert "\n    Examples\n    --------\n    >>> " in doc
    assert f"def {name}(" in inspect.getsource(func)


@pytest.mark.parametrize("name", NAMES)
def test_docstring_examples_run(name: str) -> None:
    func = getattr(nanops, name)
    test = doctest.DocTestParser().get_doctest(func.__doc__, {}, name, None, 0)
    assert test.examples
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = runner.run(test, out=lambda text: None)
    assert result.failed == 0, f"{name}: {result.failed} doctest example(s) failed"


# ------------------------------------------------ warnings at the caller's line

ALL_NAN_COLUMN = np.array([[1.5, np.nan], [np.nan, np.nan], [4.0, np.nan]])
WARNING_CALLS: list[tuple[str, Callable[[], object], str]] = [
    ("nanmean fast", lambda: nanops.nanmean(ALL_NAN_COLUMN, axis=0), "Mean of empty slice"),
    ("nanmean general", lambda: nanops.nanmean(ALL_NAN_COLUMN, axis=0, keepdims=False),
     "Mean of empty slice"),
    ("nanvar fast", lambda: nanops.nanvar(ALL_NAN_COLUMN, axis=0), "Degrees of freedom"),
    ("nanvar general", lambda: nanops.nanvar(ALL_NAN_COLUMN, axis=0, keepdims=False),
     "Degrees of freedom"),
    ("nanstd fast", lambda: nanops.nanstd(ALL_NAN_COLUMN, axis=0), "Degrees of freedom"),
    ("nanstd mean=", lambda: nanops.nanstd(ALL_NAN_COLUMN, axis=0, mean=np.zeros(2)),
     "Degrees of freedom"),
    ("nanmin fast", lambda: nanops.nanmin(ALL_NAN_COLUMN, axis=0), "All-NaN slice"),
    ("nanmax general", lambda: nanops.nanmax(ALL_NAN_COLUMN, axis=0, keepdims=False),
     "All-NaN slice"),
    ("nanmedian fast", lambda: nanops.nanmedian(ALL_NAN_COLUMN, axis=0), "All-NaN slice"),
    ("nanmedian general", lambda: nanops.nanmedian(ALL_NAN_COLUMN, axis=0, keepdims=False),
     "All-NaN slice"),
    ("nanquantile fast flag", lambda: nanops.nanquantile(ALL_NAN_COLUMN, 0.5, axis=0),
     "All-NaN slice"),
    ("nanpercentile", lambda: nanops.nanpercentile(ALL_NAN_COLUMN, 50, axis=0), "All-NaN slice"),
]


@pytest.mark.parametrize("call, message", [(c, m) for _, c, m in WARNING_CALLS],
                         ids=[w for w, _, _ in WARNING_CALLS])
def test_warnings_point_at_the_callers_line(call: Callable[[], object], message: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    assert caught and all(message in str(w.message) for w in caught)
    assert {(w.category, w.filename) for w in caught} == {(RuntimeWarning, __file__)}


# ------------------------------------------------------------- the generator


class Calls:
    """Stand-ins for a row's fast entry, general path and fallback that log
    their calls; each answers what the test sets."""

    def __init__(self) -> None:
        self.log: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
        self.fast_answer: Any = NotImplemented
        self.general_raises = False

    def fast(self, *args: Any) -> Any:
        self.log.append(("fast", args, {}))
        return self.fast_answer

    def general(self, *args: Any) -> Any:
        self.log.append(("general", args, {}))
        if self.general_raises:
            raise Delegate
        return "general"

    def fallback(self, *args: Any, **kwargs: Any) -> Any:
        self.log.append(("fallback", args, kwargs))
        return "fallback"


SKEW_SIGNATURE = (
    "a, axis=None, dtype=None, out=None, keepdims=NoValue, *, where=NoValue, bias=True"
)


def skew_row(calls: Calls, flag: Warn | object | None) -> Row:
    """A row shaped like the planned ``nanskew`` (see ``nanops._registry``)."""
    return Row(
        name="nanskew",
        signature=SKEW_SIGNATURE,
        fast=Fast(
            calls.fast,
            "a, axis, bias",
            at_defaults=("dtype", "out", "keepdims", "where"),
            when="type(bias) is bool",
            flag=flag,  # type: ignore[arg-type]
        ),
        general=General(calls.general, "const", 7),
        fallback=calls.fallback,
        doc="""
        Skewness.

        Examples
        --------
        >>> 1
        1
        """,
    )


def test_generated_function_has_the_rows_signature_and_doc() -> None:
    func = build(skew_row(Calls(), None), "somewhere")
    assert str(inspect.signature(func)) == (
        "(a, axis=None, dtype=None, out=None, keepdims=<no value>, *, where=<no value>, bias=True)"
    )
    assert inspect.signature(func).parameters["keepdims"].default is np._NoValue
    assert func.__module__ == "somewhere" and func.__qualname__ == "nanskew"
    assert func.__doc__ == "Skewness.\n\n    Examples\n    --------\n    >>> 1\n    1\n    "


def test_fast_entry_only_for_the_common_call() -> None:
    calls = Calls()
    func = build(skew_row(calls, None), "nanops")
    calls.fast_answer = "fast"
    assert func("A", 1) == "fast"
    assert func("A", keepdims=False, bias=False) == "general"
    assert func("A", bias=1) == "general"  # `when` does not hold
    assert calls.log == [
        ("fast", ("A", 1, True), {}),
        ("general", ("const", 7, "A", None, None, None, False, NoValue, False), {}),
        ("general", ("const", 7, "A", None, None, None, NoValue, NoValue, 1), {}),
    ]


def test_not_implemented_takes_the_general_path_and_delegate_the_fallback() -> None:
    calls = Calls()
    func = build(skew_row(calls, None), "nanops")
    calls.general_raises = True
    assert func("A", axis=0, where=True) == "fallback"
    assert calls.log[-2:] == [
        ("general", ("const", 7, "A", 0, None, None, NoValue, True, True), {}),
        ("fallback", ("A",), {"axis": 0, "where": True}),
    ]
    calls.log.clear()
    func("A", None, keepdims=False, bias=False)
    assert calls.log[-1] == ("fallback", ("A",), {"keepdims": False, "bias": False})
    calls.log.clear()
    func("A")
    assert [kind for kind, _, _ in calls.log] == ["fast", "general", "fallback"]


def test_flag_warns_at_the_callers_line() -> None:
    calls = Calls()
    func = build(skew_row(calls, Warn("Skew of nothing", when="bias")), "nanops")
    calls.fast_answer = ("value", True)
    with pytest.warns(RuntimeWarning, match="Skew of nothing") as caught:
        assert func("A") == "value"
    assert caught[0].filename == __file__
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert func("A", bias=False) == "value"  # `when` does not hold: no warning
        calls.fast_answer = ("value", False)
        assert func("A") == "value"


def test_flag_can_hand_the_call_to_the_general_path() -> None:
    calls = Calls()
    func = build(skew_row(calls, GENERAL_PATH), "nanops")
    calls.fast_answer = ("value", False)
    assert func("A") == "value"
    calls.fast_answer = ("value", True)
    assert func("A") == "general"


def test_a_row_over_a_compiled_flagged_primitive() -> None:
    """A moment with ``_nanops.nanvar``'s shape, ``(result, flag)``, is one
    row (its fast entry a compiled function) plus nothing else."""
    row = Row(
        name="nanvar_again",
        signature="a, axis=None, dtype=None, out=None, ddof=0, keepdims=NoValue, *, "
        "where=NoValue, mean=NoValue, correction=NoValue",
        fast=Fast(
            _nanops.fast_nanvar,
            "a, axis, float(ddof), False",
            at_defaults=("dtype", "out", "keepdims", "where", "mean", "correction"),
            when="type(ddof) is int or type(ddof) is float",
            flag=Warn("Degrees of freedom <= 0 for slice.", when="ddof == ddof"),
        ),
        general=General(nanops._moments.var, False),
        fallback=np.nanvar,
        doc="Variance again.",
    )
    func = build(row, "nanops")
    a = np.array([[1.0, np.nan], [3.0, np.nan]])
    with pytest.warns(RuntimeWarning, match="Degrees of freedom") as caught:
        got = func(a, axis=0)
        want = nanops.nanvar(a, axis=0)
    assert caught[0].filename == __file__
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(func(a.tolist(), axis=1, keepdims=True, ddof=0.0),
                                  np.nanvar(a, axis=1, keepdims=True))


@pytest.mark.parametrize("change, error", [
    ({"fast": Fast(print, "a", at_defaults=("method",))}, "cannot be tested by identity"),
    ({"fast": Fast(print, "a, axis", at_defaults=(), when="no_such_name")}, "unknown names"),
    ({"signature": "a, _private=None"}, "reserved"),
    ({"signature": "a, NoValue=None"}, "reserved"),
])
def test_bad_rows_fail_at_import(change: dict[str, Any], error: str) -> None:
    fields: dict[str, Any] = {
        "name": "f",
        "signature": "a, axis=None, method='linear'",
        "general": General(print),
        "fallback": print,
        "doc": "F.",
    }
    fields.update(change)
    with pytest.raises((ValueError, NameError), match=error):
        build(Row(**fields), "nanops")


def test_a_row_without_a_numpy_counterpart_needs_a_fallback() -> None:
    row = Row(name="nanskew", signature="a", general=General(print), doc="Skew.")
    with pytest.raises(LookupError, match="needs a fallback"):
        build(row, "nanops")
