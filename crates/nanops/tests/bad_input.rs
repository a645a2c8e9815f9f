//! Bad input through the public API: every case is an `Err` of the documented
//! variant (or the documented `Ok`), and none panics.
//!
//! Each row of a table is a name, a call and the outcome it must have. The
//! call runs under `catch_unwind`, so a panic fails its row (with the panic's
//! message) instead of the whole test. The tables cover axes (out of range,
//! repeated, beyond `isize`), empty input for reductions without identity,
//! all-NaN slices for `nanargmin`/`nanargmax`, `q` outside `[0, 1]` or NaN,
//! weights (negative, non-finite, all zero, mis-shaped, with a method that
//! has none), quantile method names, `ddof` beyond the count, and buffers too
//! large to allocate (huge zero-stride views), plus the per-lane kernels of
//! [`nanops::select`].

use nanops::select::{
    median_in_place, quantiles_in_place, weighted_quantiles, QuantileScratch,
    UnknownQuantileMethod, WeightedQuantileError,
};
use nanops::stats::{Median, NanMax, NanMean, NanMin, NanStd, NanVar, Quantiles};
use nanops::{Axes, Error, NanOps, NanPolicy, QuantileMethod, QuantileOptions};
use ndarray::{array, Array1, ArrayD, ArrayViewD, Axis, IxDyn, ShapeBuilder};
use std::fmt::Debug;
use std::panic::{catch_unwind, AssertUnwindSafe};

const NAN: f64 = f64::NAN;
const INF: f64 = f64::INFINITY;

/// What a row must give.
enum Expect<E> {
    /// An `Err` the predicate accepts (the documented variant).
    Err(fn(&E) -> bool),
    /// `Ok`, and the predicate accepts the value's `Debug` form.
    Ok(fn(&str) -> bool),
}

struct Case<'a, E> {
    name: &'static str,
    call: Box<dyn Fn() -> Result<String, E> + 'a>,
    expect: Expect<E>,
}

fn case<'a, T: Debug, E>(
    name: &'static str,
    call: impl Fn() -> Result<T, E> + 'a,
    expect: Expect<E>,
) -> Case<'a, E> {
    Case {
        name,
        call: Box::new(move || call().map(|v| format!("{v:?}"))),
        expect,
    }
}

fn any_ok(_: &str) -> bool {
    true
}

/// Runs every row; collects the failures (wrong outcome or a panic) of all of them.
fn check<E: Debug>(table: Vec<Case<'_, E>>) {
    let rows = table.len();
    let mut failures = Vec::new();
    for c in table {
        match catch_unwind(AssertUnwindSafe(|| (c.call)())) {
            Err(panic) => {
                let msg = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                failures.push(format!("{}: panicked: {msg}", c.name));
            }
            Ok(outcome) => {
                let good = match (&c.expect, &outcome) {
                    (Expect::Err(p), Err(e)) => p(e),
                    (Expect::Ok(p), Ok(v)) => p(v),
                    _ => false,
                };
                if !good {
                    failures.push(format!("{}: unexpected {outcome:?}", c.name));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {rows} rows failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn out_of_bounds(e: &Error) -> bool {
    matches!(e, Error::AxisOutOfBounds { .. })
}
fn duplicate(e: &Error) -> bool {
    matches!(e, Error::DuplicateAxis { .. })
}
fn empty(e: &Error) -> bool {
    matches!(e, Error::EmptyReduction { .. })
}
fn all_nan(e: &Error) -> bool {
    matches!(e, Error::AllNanSlice)
}
fn bad_q(e: &Error) -> bool {
    matches!(e, Error::InvalidQuantile { .. })
}
fn weights_shape(e: &Error) -> bool {
    matches!(e, Error::WeightsShape { .. })
}
fn bad_weight(e: &Error) -> bool {
    matches!(e, Error::InvalidWeight)
}
fn unsupported(e: &Error) -> bool {
    matches!(e, Error::WeightsUnsupported { .. })
}
fn no_memory(e: &Error) -> bool {
    matches!(e, Error::OutOfMemory { .. })
}
/// The values part of a `Debug` string (ndarray appends `, shape=[…], …`).
fn values(v: &str) -> &str {
    v.split(", shape=").next().unwrap_or(v)
}
/// Every value is NaN (and there is at least one).
fn all_nan_values(v: &str) -> bool {
    let v = values(v);
    v.contains("NaN")
        && v.replace("NaN", "")
            .replace(['[', ']', ',', ' ', '\n'], "")
            .is_empty()
}
fn is_empty(v: &str) -> bool {
    v == "0"
}

fn gappy() -> ArrayD<f64> {
    array![[1.0, NAN, 3.0], [4.0, 5.0, NAN]].into_dyn()
}

/// A read-only view of `2^57` copies of one value: 1 EiB of logical data
/// that no machine can copy (nor address: 2^60 bytes as `f64`).
fn huge<'a>(one: &'a [f64; 1], shape: &[usize]) -> ArrayViewD<'a, f64> {
    let strides = IxDyn(&vec![0; shape.len()]);
    ArrayViewD::from_shape(IxDyn(shape).strides(strides), one).unwrap()
}

fn quantile_with<'w>(
    a: &ArrayD<f64>,
    q: &[f64],
    axes: impl Into<Axes>,
    method: QuantileMethod,
    weights: Option<ArrayViewD<'w, f64>>,
) -> nanops::Result<ArrayD<f64>> {
    let opts = QuantileOptions {
        method,
        weights,
        ..Default::default()
    };
    Ok(nanops::report(a, axes, Quantiles::<f64>::new(q, opts))?.values)
}

#[test]
fn axis_errors_are_err() {
    let a = gappy();
    let a = &a;
    let zero_d = ArrayD::from_elem(IxDyn(&[]), 2.0);
    let z = &zero_d;
    let lin = QuantileMethod::Linear;
    check(vec![
        case("nansum axis 2", || a.nansum(2), Expect::Err(out_of_bounds)),
        case(
            "nansum axis -3",
            || a.nansum(-3),
            Expect::Err(out_of_bounds),
        ),
        case(
            "nansum isize::MIN",
            || a.nansum(isize::MIN),
            Expect::Err(out_of_bounds),
        ),
        case(
            "nansum isize::MAX",
            || a.nansum(isize::MAX),
            Expect::Err(out_of_bounds),
        ),
        case(
            "nansum i64::MIN",
            || a.nansum(i64::MIN),
            Expect::Err(out_of_bounds),
        ),
        // `usize::MAX as isize` is -1, a valid axis: must not be taken for one.
        case(
            "nansum usize::MAX",
            || a.nansum(usize::MAX),
            Expect::Err(out_of_bounds),
        ),
        case(
            "nansum [usize::MAX]",
            || a.nansum([usize::MAX]),
            Expect::Err(out_of_bounds),
        ),
        case(
            "nansum vec![0, usize::MAX - 1]",
            || a.nansum(vec![0usize, usize::MAX - 1]),
            Expect::Err(out_of_bounds),
        ),
        case(
            "nansum Axis(usize::MAX)",
            || a.nansum(Axis(usize::MAX)),
            Expect::Err(out_of_bounds),
        ),
        case(
            "nansum [0, 2]",
            || a.nansum([0, 2]),
            Expect::Err(out_of_bounds),
        ),
        case("nansum [0, 0]", || a.nansum([0, 0]), Expect::Err(duplicate)),
        case(
            "nansum [1, -1]",
            || a.nansum([1, -1]),
            Expect::Err(duplicate),
        ),
        case(
            "nansum [-2, 0]",
            || a.nansum([-2, 0]),
            Expect::Err(duplicate),
        ),
        case(
            "nanprod axis 2",
            || a.nanprod(2),
            Expect::Err(out_of_bounds),
        ),
        case(
            "nanprod [0, 0]",
            || a.nanprod([0, 0]),
            Expect::Err(duplicate),
        ),
        case(
            "nancount axis 2",
            || a.nancount(2),
            Expect::Err(out_of_bounds),
        ),
        case(
            "nancount [1, 1]",
            || a.nancount([1, 1]),
            Expect::Err(duplicate),
        ),
        case(
            "nanmean axis 2",
            || a.nanmean(2),
            Expect::Err(out_of_bounds),
        ),
        case(
            "nanmean [0, 0]",
            || a.nanmean([0, 0]),
            Expect::Err(duplicate),
        ),
        case(
            "nanmean_report axis -3",
            || nanops::report(a, -3, NanMean),
            Expect::Err(out_of_bounds),
        ),
        case(
            "nanvar axis 2",
            || a.nanvar(2, 0.0),
            Expect::Err(out_of_bounds),
        ),
        case(
            "nanvar [0, 0]",
            || a.nanvar([0, 0], 1.0),
            Expect::Err(duplicate),
        ),
        case(
            "nanvar_report axis 9",
            || nanops::report(a, 9, NanVar(0.0.into())),
            Expect::Err(out_of_bounds),
        ),
        case(
            "nanstd axis 2",
            || a.nanstd(2, 0.0),
            Expect::Err(out_of_bounds),
        ),
        case(
            "nanstd_report [1, 1]",
            || nanops::report(a, [1, 1], NanStd(0.0.into())),
            Expect::Err(duplicate),
        ),
        case("nanmin axis 2", || a.nanmin(2), Expect::Err(out_of_bounds)),
        case("nanmin [0, 0]", || a.nanmin([0, 0]), Expect::Err(duplicate)),
        case(
            "nanmin_report axis -3",
            || nanops::report(a, -3, NanMin),
            Expect::Err(out_of_bounds),
        ),
        case("nanmax axis 2", || a.nanmax(2), Expect::Err(out_of_bounds)),
        case(
            "nanmax_report [0, 0]",
            || nanops::report(a, [0, 0], NanMax),
            Expect::Err(duplicate),
        ),
        case(
            "nanargmin Some(2)",
            || a.nanargmin(Some(2)),
            Expect::Err(out_of_bounds),
        ),
        case(
            "nanargmin Some(-3)",
            || a.nanargmin(Some(-3)),
            Expect::Err(out_of_bounds),
        ),
        case(
            "nanargmax Some(isize::MIN)",
            || a.nanargmax(Some(isize::MIN)),
            Expect::Err(out_of_bounds),
        ),
        case(
            "nancumsum Some(2)",
            || a.nancumsum(Some(2)),
            Expect::Err(out_of_bounds),
        ),
        case(
            "nancumprod Some(-3)",
            || a.nancumprod(Some(-3)),
            Expect::Err(out_of_bounds),
        ),
        case(
            "nanmedian axis 2",
            || nanops::nanmedian(a, 2),
            Expect::Err(out_of_bounds),
        ),
        case(
            "nanmedian [0, 0]",
            || nanops::nanmedian(a, [0, 0]),
            Expect::Err(duplicate),
        ),
        case(
            "median axis -3",
            || nanops::median(a, -3),
            Expect::Err(out_of_bounds),
        ),
        case(
            "median_report [1, -1]",
            || nanops::report(a, [1, -1], Median(NanPolicy::Omit)),
            Expect::Err(duplicate),
        ),
        case(
            "nanquantile axis 2",
            || nanops::nanquantile(a, &[0.5], 2, lin),
            Expect::Err(out_of_bounds),
        ),
        case(
            "nanquantile [0, 0]",
            || nanops::nanquantile(a, &[0.5], [0, 0], lin),
            Expect::Err(duplicate),
        ),
        case(
            "quantile axis usize::MAX",
            || nanops::quantile(a, &[0.5], usize::MAX, lin),
            Expect::Err(out_of_bounds),
        ),
        // a 0-d array has no axis at all (Axes::All is its only reduction)
        case(
            "0-d nansum axis 0",
            || z.nansum(0),
            Expect::Err(out_of_bounds),
        ),
        case(
            "0-d nanmean axis -1",
            || z.nanmean(-1),
            Expect::Err(out_of_bounds),
        ),
        case(
            "0-d nanargmin Some(0)",
            || z.nanargmin(Some(0)),
            Expect::Err(out_of_bounds),
        ),
        case(
            "0-d nancumsum Some(0)",
            || z.nancumsum(Some(0)),
            Expect::Err(out_of_bounds),
        ),
        case(
            "0-d nanmedian axis 0",
            || nanops::nanmedian(z, 0),
            Expect::Err(out_of_bounds),
        ),
        case(
            "0-d nansum All",
            || z.nansum(Axes::All),
            Expect::Ok(|v| v.contains("2.0")),
        ),
        case(
            "0-d nanargmin None",
            || z.nanargmin(None).map(|r| r[[]]),
            Expect::Ok(|v| v == "0"),
        ),
        case(
            "0-d nancumsum None",
            || z.nancumsum(None),
            Expect::Ok(|v| v.contains("2.0")),
        ),
        case(
            "0-d nanquantile All",
            || nanops::nanquantile(z, &[0.5], Axes::All, lin),
            Expect::Ok(|v| v.contains("2.0")),
        ),
        case(
            "empty axis list reduces nothing",
            || a.nansum(Axes::Many(vec![])),
            Expect::Ok(any_ok),
        ),
    ]);
}

#[test]
fn empty_and_all_nan_input() {
    let empty1 = Array1::<f64>::zeros(0);
    let e = &empty1;
    let rows0 = ArrayD::<f64>::zeros(IxDyn(&[0, 3]));
    let r0 = &rows0;
    let cols0 = ArrayD::<f64>::zeros(IxDyn(&[3, 0]));
    let c0 = &cols0;
    let both0 = ArrayD::<f64>::zeros(IxDyn(&[0, 0]));
    let b0 = &both0;
    let nans = array![[NAN, NAN], [1.0, NAN]];
    let n = &nans;
    let lin = QuantileMethod::Linear;
    check(vec![
        // no identity: an error whenever a result element has no value at all
        case("nanmin of []", || e.nanmin(0), Expect::Err(empty)),
        case(
            "nanmax of [] All",
            || e.nanmax(Axes::All),
            Expect::Err(empty),
        ),
        case("nanmin (0, 3) axis 0", || r0.nanmin(0), Expect::Err(empty)),
        case("nanmax (3, 0) axis 1", || c0.nanmax(1), Expect::Err(empty)),
        case(
            "nanmin_report (0, 3) All",
            || nanops::report(r0, Axes::All, NanMin),
            Expect::Err(empty),
        ),
        case("nanargmin of []", || e.nanargmin(None), Expect::Err(empty)),
        case(
            "nanargmax of [] Some(0)",
            || e.nanargmax(Some(0)),
            Expect::Err(empty),
        ),
        case(
            "nanargmin (0, 3) Some(0)",
            || r0.nanargmin(Some(0)),
            Expect::Err(empty),
        ),
        case(
            "nanargmax (3, 0) Some(1)",
            || c0.nanargmax(Some(1)),
            Expect::Err(empty),
        ),
        case(
            "nanargmin (0, 3) None",
            || r0.nanargmin(None),
            Expect::Err(empty),
        ),
        // documented: an empty result is fine (nothing to reduce)
        case(
            "nanmin (0, 3) axis 1",
            || r0.nanmin(1).map(|r| r.len()),
            Expect::Ok(is_empty),
        ),
        case(
            "nanmin (0, 0) axis 0",
            || b0.nanmin(0).map(|r| r.len()),
            Expect::Ok(is_empty),
        ),
        case(
            "nanargmin (0, 3) Some(1)",
            || r0.nanargmin(Some(1)).map(|r| r.len()),
            Expect::Ok(is_empty),
        ),
        case(
            "nanargmax (3, 0) Some(0)",
            || c0.nanargmax(Some(0)).map(|r| r.len()),
            Expect::Ok(is_empty),
        ),
        // all-NaN slices
        case(
            "nanargmin [NaN] None",
            || array![NAN].nanargmin(None),
            Expect::Err(all_nan),
        ),
        case(
            "nanargmax with one valid value",
            || n.nanargmax(None).map(|r| r[[]]),
            Expect::Ok(|v| v == "2"),
        ),
        case(
            "nanargmin all-NaN row",
            || n.nanargmin(Some(1)),
            Expect::Err(all_nan),
        ),
        case(
            "nanargmax all-NaN column",
            || n.nanargmax(Some(0)),
            Expect::Err(all_nan),
        ),
        case(
            "nanargmin all-NaN f32",
            || array![f32::NAN, f32::NAN].nanargmin(Some(0)),
            Expect::Err(all_nan),
        ),
        case(
            "nanmin all-NaN row gives NaN",
            || n.nanmin(1),
            Expect::Ok(|v| v.contains("NaN")),
        ),
        // reductions with identity, and order statistics: Ok on empty input
        case(
            "nansum of []",
            || e.nansum(0),
            Expect::Ok(|v| v.contains("0.0")),
        ),
        case(
            "nanprod of []",
            || e.nanprod(0),
            Expect::Ok(|v| v.contains("1.0")),
        ),
        case(
            "nancount of []",
            || e.nancount(0).map(|r| r[[]]),
            Expect::Ok(|v| v == "0"),
        ),
        case("nanmean of []", || e.nanmean(0), Expect::Ok(all_nan_values)),
        case(
            "nanmean_report of [] counts it",
            || nanops::report(e, 0, NanMean).map(|r| r.degenerate),
            Expect::Ok(|v| v == "1"),
        ),
        case(
            "nanvar of []",
            || e.nanvar(0, 0.0),
            Expect::Ok(all_nan_values),
        ),
        case(
            "nanstd (0, 3) axis 0",
            || r0.nanstd(0, 1.0),
            Expect::Ok(all_nan_values),
        ),
        case(
            "nancumsum of []",
            || e.nancumsum(None).map(|r| r.len()),
            Expect::Ok(is_empty),
        ),
        case(
            "nancumprod (0, 3) Some(1)",
            || r0.nancumprod(Some(1)).map(|r| r.len()),
            Expect::Ok(is_empty),
        ),
        case(
            "nanmedian of []",
            || nanops::nanmedian(e, 0),
            Expect::Ok(all_nan_values),
        ),
        case(
            "nanmedian (0, 3) axis 0",
            || nanops::nanmedian(r0, 0),
            Expect::Ok(all_nan_values),
        ),
        case(
            "median of []",
            || nanops::median(e, Axes::All),
            Expect::Ok(all_nan_values),
        ),
        case(
            "nanquantile of []",
            || nanops::nanquantile(e, &[0.5], 0, lin),
            Expect::Ok(all_nan_values),
        ),
        case(
            "nanquantile (3, 0) axis 1",
            || nanops::nanquantile(c0, &[0.1, 0.9], 1, lin),
            Expect::Ok(all_nan_values),
        ),
        case(
            "nanquantile all-NaN row",
            || nanops::nanquantile(n, &[0.5], 1, lin),
            Expect::Ok(|v| v.contains("NaN") && v.contains("1.0")),
        ),
    ]);
}

#[test]
fn quantile_arguments() {
    let a = gappy();
    let a = &a;
    let ints = array![[3_i32, 1, 2], [7, 5, 6]];
    let i = &ints;
    let f32s = array![1.0f32, f32::NAN, 2.0];
    let f = &f32s;
    let lin = QuantileMethod::Linear;
    let w_ok = ArrayD::from_elem(IxDyn(&[2, 3]), 1.0);
    let w_ok = &w_ok;
    let icdf = QuantileMethod::InvertedCdf;
    let w = |rows: [[f64; 3]; 2]| ArrayD::from_shape_vec(IxDyn(&[2, 3]), rows.concat()).unwrap();
    let neg = w([[1.0, -1.0, 1.0], [1.0, 1.0, 1.0]]);
    let tiny_neg = w([[1.0, 1.0, 1.0], [1.0, 1.0, -1e-300]]);
    let nan_w = w([[1.0, 1.0, NAN], [1.0, 1.0, 1.0]]);
    let inf_w = w([[1.0, 1.0, INF], [1.0, 1.0, 1.0]]);
    let zeros = w([[0.0; 3]; 2]);
    let zero_on_valid = w([[0.0, 1.0, 0.0], [1.0, 1.0, 1.0]]);
    let some_zero = w([[1.0, 0.0, 2.0], [0.0, 3.0, 1.0]]);
    let row = array![1.0, 2.0, 3.0];
    let row_view = row.broadcast((2, 3)).unwrap().into_dyn();
    let wrong = ArrayD::from_elem(IxDyn(&[3, 2]), 1.0);
    let flat = ArrayD::from_elem(IxDyn(&[6]), 1.0);
    check(vec![
        case(
            "q above 1",
            || nanops::nanquantile(a, &[1.5], 1, lin),
            Expect::Err(bad_q),
        ),
        case(
            "q below 0",
            || nanops::nanquantile(a, &[-0.1], 1, lin),
            Expect::Err(bad_q),
        ),
        case(
            "q just above 1",
            || nanops::nanquantile(a, &[1.0 + f64::EPSILON], 1, lin),
            Expect::Err(bad_q),
        ),
        case(
            "q -0.0 is fine",
            || nanops::nanquantile(a, &[-0.0], 1, lin),
            Expect::Ok(any_ok),
        ),
        case(
            "q NaN",
            || nanops::nanquantile(a, &[NAN], 1, lin),
            Expect::Err(|e| matches!(e, Error::InvalidQuantile { q } if q.is_nan())),
        ),
        case(
            "q +inf",
            || nanops::nanquantile(a, &[INF], 1, lin),
            Expect::Err(bad_q),
        ),
        case(
            "q -inf",
            || nanops::nanquantile(a, &[-INF], Axes::All, lin),
            Expect::Err(bad_q),
        ),
        case(
            "q one bad of two",
            || nanops::nanquantile(a, &[0.5, 2.0], 0, lin),
            Expect::Err(|e| matches!(e, Error::InvalidQuantile { q } if *q == 2.0)),
        ),
        case(
            "quantile q above 1",
            || nanops::quantile(a, &[1.5], 1, lin),
            Expect::Err(bad_q),
        ),
        case(
            "int input q NaN",
            || nanops::nanquantile(i, &[NAN], 1, lin),
            Expect::Err(bad_q),
        ),
        case(
            "f32 input q > 1",
            || nanops::nanquantile(f, &[3.0], 0, lin),
            Expect::Err(bad_q),
        ),
        case(
            "q bad beats bad axis",
            || nanops::nanquantile(a, &[2.0], 7, lin),
            Expect::Err(bad_q),
        ),
        case(
            "bad q with weights",
            || quantile_with(a, &[2.0], 1, icdf, Some(w_ok.view())),
            Expect::Err(bad_q),
        ),
        case(
            "empty q",
            || nanops::nanquantile(a, &[], 1, lin).map(|r| r.shape().to_vec()),
            Expect::Ok(|v| v == "[0, 2]"),
        ),
        case(
            "empty q, all axes",
            || nanops::quantile(a, &[], Axes::All, lin).map(|r| r.shape().to_vec()),
            Expect::Ok(|v| v == "[0]"),
        ),
        case(
            "empty q weighted",
            || quantile_with(a, &[], 1, icdf, Some(w_ok.view())).map(|r| r.shape().to_vec()),
            Expect::Ok(|v| v == "[0, 2]"),
        ),
        // weights
        case(
            "weights wrong shape",
            || quantile_with(a, &[0.5], 1, icdf, Some(wrong.view())),
            Expect::Err(weights_shape),
        ),
        case(
            "weights flat",
            || quantile_with(a, &[0.5], Axes::All, icdf, Some(flat.view())),
            Expect::Err(weights_shape),
        ),
        case(
            "weights negative",
            || quantile_with(a, &[0.5], 1, icdf, Some(neg.view())),
            Expect::Err(bad_weight),
        ),
        case(
            "weights tiny negative",
            || quantile_with(a, &[0.5], 0, icdf, Some(tiny_neg.view())),
            Expect::Err(bad_weight),
        ),
        case(
            "weights NaN",
            || quantile_with(a, &[0.5], 1, icdf, Some(nan_w.view())),
            Expect::Err(bad_weight),
        ),
        case(
            "weights inf",
            || quantile_with(a, &[0.5], 1, icdf, Some(inf_w.view())),
            Expect::Err(bad_weight),
        ),
        case(
            "weights all zero",
            || quantile_with(a, &[0.5], 1, icdf, Some(zeros.view())),
            Expect::Err(bad_weight),
        ),
        case(
            "weights all zero, all axes",
            || {
                quantile_with(
                    a,
                    &[0.5],
                    Axes::All,
                    QuantileMethod::AveragedInvertedCdf,
                    Some(zeros.view()),
                )
            },
            Expect::Err(bad_weight),
        ),
        case(
            "weights zero on every valid value",
            || quantile_with(a, &[0.5], 1, icdf, Some(zero_on_valid.view())),
            Expect::Err(bad_weight),
        ),
        case(
            "weights with linear",
            || quantile_with(a, &[0.5], 1, lin, Some(w_ok.view())),
            Expect::Err(|e| matches!(e, Error::WeightsUnsupported { method: "linear" })),
        ),
        case(
            "weights with lower",
            || quantile_with(a, &[0.5], 1, QuantileMethod::Lower, Some(w_ok.view())),
            Expect::Err(unsupported),
        ),
        case(
            "weights with hazen",
            || quantile_with(a, &[0.5], 1, QuantileMethod::Hazen, Some(w_ok.view())),
            Expect::Err(unsupported),
        ),
        case(
            "weights some zero",
            || quantile_with(a, &[0.5], 1, icdf, Some(some_zero.view())),
            Expect::Ok(|v| v.contains("3.0") && v.contains("5.0")),
        ),
        case(
            "weights broadcast view",
            || quantile_with(a, &[0.5], 1, icdf, Some(row_view.clone())),
            Expect::Ok(any_ok),
        ),
        case(
            "weights averaged_inverted_cdf",
            || {
                quantile_with(
                    a,
                    &[0.5],
                    1,
                    QuantileMethod::AveragedInvertedCdf,
                    Some(w_ok.view()),
                )
            },
            Expect::Ok(any_ok),
        ),
    ]);
    // method names: NumPy's, exactly (case-sensitive, no padding)
    let parse = |name: &'static str| move || name.parse::<QuantileMethod>();
    check(vec![
        case(
            "method unknown",
            parse("no_such_method"),
            Expect::Err(|e: &UnknownQuantileMethod| e.0 == "no_such_method"),
        ),
        case(
            "method wrong case",
            parse("Linear"),
            Expect::Err(|e| e.0 == "Linear"),
        ),
        case("method empty", parse(""), Expect::Err(|e| e.0.is_empty())),
        case(
            "method padded",
            parse(" linear"),
            Expect::Err(|e| e.0 == " linear"),
        ),
        case(
            "method known",
            parse("median_unbiased"),
            Expect::Ok(|v| v == "MedianUnbiased"),
        ),
    ]);
}

#[test]
fn weights_on_all_nan_lanes_are_not_an_error() {
    // an all-NaN lane's result is NaN whatever its weights (NumPy's nanquantile)
    let a = array![[NAN, NAN], [1.0, NAN]].into_dyn();
    let w = array![[0.0, 0.0], [1.0, 0.0]].into_dyn();
    let a = &a;
    check(vec![case(
        "zero weights on an all-NaN lane",
        || quantile_with(a, &[0.5], 1, QuantileMethod::InvertedCdf, Some(w.view())),
        Expect::Ok(|v| v.contains("NaN") && v.contains("1.0")),
    )]);
}

#[test]
fn ddof_beyond_the_count_is_nan_not_an_error() {
    let a = gappy();
    let a = &a;
    check(vec![
        case(
            "nanvar ddof 5",
            || a.nanvar(1, 5.0),
            Expect::Ok(all_nan_values),
        ),
        case(
            "nanvar ddof = count",
            || a.nanvar(0, 2.0),
            Expect::Ok(all_nan_values),
        ),
        case(
            "nanvar_report ddof 5 counts",
            || nanops::report(a, 1, NanVar(5.0.into())).map(|r| r.degenerate),
            Expect::Ok(|v| v == "2"),
        ),
        case(
            "nanstd ddof 10 All",
            || a.nanstd(Axes::All, 10),
            Expect::Ok(all_nan_values),
        ),
        case(
            "nanvar ddof NaN",
            || a.nanvar(1, NAN),
            Expect::Ok(all_nan_values),
        ),
        case(
            "nanvar ddof inf",
            || a.nanvar(1, INF),
            Expect::Ok(all_nan_values),
        ),
        case("nanvar ddof -inf", || a.nanvar(1, -INF), Expect::Ok(any_ok)),
        case("nanvar ddof -1", || a.nanvar(1, -1.0), Expect::Ok(any_ok)),
        case(
            "nanstd ddof f64::MAX",
            || a.nanstd(0, f64::MAX),
            Expect::Ok(all_nan_values),
        ),
        case(
            "nanvar of ints ddof 9",
            || array![1_i64, 2].nanvar(0, 9),
            Expect::Ok(all_nan_values),
        ),
    ]);
}

#[test]
fn buffers_too_large_to_allocate_are_err() {
    // Zero-stride views of 2^57 elements: their results or the scratch copies
    // of them cannot be allocated. Each call must fail at once (no pass over
    // the data first), with an `Err`, not an abort.
    let one = [1.0];
    let flat = huge(&one, &[1 << 57]);
    let wide = huge(&one, &[2, 1 << 56]);
    let f = &flat;
    let w = &wide;
    let lin = QuantileMethod::Linear;
    let weights = huge(&[1.0], &[1 << 57]);
    check(vec![
        case("nancumsum", || f.nancumsum(None), Expect::Err(no_memory)),
        case(
            "nancumprod axis 0",
            || f.nancumprod(Some(0)),
            Expect::Err(no_memory),
        ),
        case(
            "nansum over no axis",
            || f.nansum(Axes::Many(vec![])),
            Expect::Err(no_memory),
        ),
        case(
            "nanmean over axis 0 of (2, 2^56)",
            || w.nanmean(0),
            Expect::Err(no_memory),
        ),
        case(
            "nanvar over axis 0 of (2, 2^56)",
            || w.nanvar(0, 1.0),
            Expect::Err(no_memory),
        ),
        case(
            "nanmin over axis 0 of (2, 2^56)",
            || w.nanmin(0),
            Expect::Err(no_memory),
        ),
        case(
            "nancount over no axis",
            || f.nancount(Axes::Many(vec![])),
            Expect::Err(no_memory),
        ),
        case(
            "nanargmin over axis 0 of (2, 2^56)",
            || w.nanargmin(Some(0)),
            Expect::Err(no_memory),
        ),
        case(
            "nanquantile of one huge lane",
            || nanops::nanquantile(f, &[0.5], 0, lin),
            Expect::Err(no_memory),
        ),
        case(
            "nanquantile over axis 0 of (2, 2^56)",
            || nanops::nanquantile(w, &[0.5], 0, lin),
            Expect::Err(no_memory),
        ),
        case(
            "nanquantile over axis 1 of (2, 2^56)",
            || nanops::nanquantile(w, &[0.5], 1, lin),
            Expect::Err(no_memory),
        ),
        case(
            "nanmedian of one huge lane (sampled bracket)",
            || nanops::nanmedian(f, 0),
            Expect::Err(no_memory),
        ),
        case(
            "nanquantile of one huge lane, several q",
            || nanops::nanquantile(f, &[0.1, 0.5, 0.9], 0, lin),
            Expect::Err(no_memory),
        ),
        case(
            "nanmedian over axis 0 of (2, 2^56)",
            || nanops::nanmedian(w, 0),
            Expect::Err(no_memory),
        ),
        case(
            "median over no axis",
            || nanops::median(f, Axes::Many(vec![])),
            Expect::Err(no_memory),
        ),
        case(
            "weighted quantile",
            || {
                let opts = QuantileOptions {
                    method: QuantileMethod::InvertedCdf,
                    weights: Some(weights.view()),
                    ..Default::default()
                };
                nanops::report(f, 0, Quantiles::<f64>::new(&[0.5], opts)).map(|r| r.values)
            },
            Expect::Err(no_memory),
        ),
        case(
            "many q over a huge output",
            || nanops::nanquantile(w, &[0.5; 64], 0, lin),
            Expect::Err(no_memory),
        ),
    ]);
    let msg = f.nancumsum(None).unwrap_err().to_string();
    assert!(msg.starts_with("Unable to allocate"), "{msg}");
}

#[test]
fn lane_kernels_never_panic_on_bad_input() {
    // `select` documents graceful results for what the API refuses: `q`
    // outside [0, 1] is clipped to the ends, NaN `q` or values give NaN.
    let lanes = |qs: &'static [f64], method: QuantileMethod| {
        move || -> Result<Vec<f64>, ()> {
            let mut values = [4.0, 1.0, 3.0, 2.0];
            let mut out = vec![0.0; qs.len()];
            let mut scratch = QuantileScratch::new();
            quantiles_in_place(&mut values, qs, method, &mut scratch, &mut out);
            Ok(out)
        }
    };
    let mut table = Vec::new();
    for method in QuantileMethod::ALL {
        table.push(case(
            "q far outside [0, 1]",
            lanes(&[-1e300, 1e300, -INF, INF], method),
            Expect::Ok(any_ok),
        ));
        table.push(case(
            "q NaN",
            lanes(&[NAN], method),
            Expect::Ok(|v| v.contains("NaN")),
        ));
        table.push(case(
            "q empty",
            lanes(&[], method),
            Expect::Ok(|v| v == "[]"),
        ));
    }
    table.push(case(
        "empty lane",
        || {
            let mut out = [0.0; 2];
            quantiles_in_place::<f64>(
                &mut [],
                &[0.0, 1.0],
                QuantileMethod::Linear,
                &mut QuantileScratch::new(),
                &mut out,
            );
            Ok::<_, ()>(out)
        },
        Expect::Ok(all_nan_values),
    ));
    table.push(case(
        "lane holding NaN",
        || {
            let mut out = [0.0; 1];
            quantiles_in_place(
                &mut [1.0, NAN],
                &[0.5],
                QuantileMethod::Nearest,
                &mut QuantileScratch::new(),
                &mut out,
            );
            Ok::<_, ()>(out)
        },
        Expect::Ok(all_nan_values),
    ));
    table.push(case(
        "out shorter than q",
        || {
            let mut out = [0.0; 1];
            quantiles_in_place(
                &mut [1.0, 2.0],
                &[0.5, 0.7, 0.9],
                QuantileMethod::Linear,
                &mut QuantileScratch::new(),
                &mut out,
            );
            Ok::<_, ()>(out)
        },
        Expect::Ok(any_ok),
    ));
    table.push(case(
        "median of empty",
        || Ok::<_, ()>(median_in_place::<f64>(&mut [])),
        Expect::Ok(|v| v == "NaN"),
    ));
    table.push(case(
        "median with NaN",
        || Ok::<_, ()>(median_in_place(&mut [NAN, 1.0])),
        Expect::Ok(|v| v == "NaN"),
    ));
    check(table);

    let weighted = |values: &'static [f64], weights: &'static [f64], method: QuantileMethod| {
        move || {
            let mut out = [0.0; 1];
            weighted_quantiles(
                values,
                weights,
                &[0.5],
                method,
                &mut QuantileScratch::new(),
                &mut out,
            )
            .map(|()| out)
        }
    };
    let icdf = QuantileMethod::InvertedCdf;
    check(vec![
        case(
            "length mismatch",
            weighted(&[1.0, 2.0], &[1.0], icdf),
            Expect::Err(|e| matches!(e, WeightedQuantileError::LengthMismatch { .. })),
        ),
        case(
            "negative",
            weighted(&[1.0, 2.0], &[1.0, -1.0], icdf),
            Expect::Err(|e| *e == WeightedQuantileError::NegativeWeight),
        ),
        case(
            "NaN weight",
            weighted(&[1.0, 2.0], &[1.0, NAN], icdf),
            Expect::Err(|e| *e == WeightedQuantileError::InvalidTotalWeight),
        ),
        case(
            "inf weight",
            weighted(&[1.0, 2.0], &[INF, 1.0], icdf),
            Expect::Err(|e| *e == WeightedQuantileError::InvalidTotalWeight),
        ),
        case(
            "sum overflows",
            weighted(&[1.0, 2.0], &[f64::MAX, f64::MAX], icdf),
            Expect::Err(|e| *e == WeightedQuantileError::InvalidTotalWeight),
        ),
        case(
            "all zero",
            weighted(&[1.0, 2.0], &[0.0, 0.0], icdf),
            Expect::Err(|e| *e == WeightedQuantileError::InvalidTotalWeight),
        ),
        case(
            "unsupported method",
            weighted(&[1.0], &[1.0], QuantileMethod::Linear),
            Expect::Err(|e| matches!(e, WeightedQuantileError::UnsupportedMethod(_))),
        ),
        case(
            "empty lane",
            weighted(&[], &[], icdf),
            Expect::Ok(all_nan_values),
        ),
        case(
            "tiny positive weights",
            weighted(&[1.0, 2.0], &[1e-320, 1e-320], icdf),
            Expect::Ok(any_ok),
        ),
    ]);
}
