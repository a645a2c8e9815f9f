//! The public functions, one row each, and the extension trait [`NanOps`]
//! made from the same rows.
//!
//! A row is `KIND fn NAME, NAME_axis(ARGS) -> OUTPUT where E: BOUND = STATISTIC;`
//! with the function's documentation above it. Each row becomes two free
//! functions and the two [`NanOps`] methods of the same names: `NAME` takes
//! NumPy's dynamic axis argument and gives an [`ndarray::ArrayD`]; `NAME_axis`
//! takes one [`ndarray::Axis`] and gives a result typed by the input's
//! dimension, as ndarray's own `sum_axis` does. The kind sets the call:
//!
//! | kind       | `NAME`                                | `NAME_axis`                       |
//! |------------|---------------------------------------|-----------------------------------|
//! | `reduce`   | `(&a, axes: impl Into<Axes>, ARGS)`   | `(&a, Axis, ARGS)` → `D::Smaller` |
//! | `quantile` | `(&a, q, axes, ARGS)`, `q` axis first | `(&a, q, Axis, ARGS)` → `D`       |
//! | `arg`      | `(&a, axis: Option<isize>)`           | `(&a, Axis)` → `D::Smaller`       |
//! | `scan`     | `(&a, axis: Option<isize>)`           | `(&a, Axis)` → `D`                |
//! | `window`   | `(&a, ARGS, axis: isize)`             | `(&a, ARGS, Axis)` → `D`          |
//! | `flat`     | `(&a)` → `OUTPUT` (one name only)     |                                   |
//! | `group`    | `(&a, &labels, axes, num_labels, ARGS)` → kept axes + labels (one name only) | |
//!
//! `STATISTIC` is a [`Statistic`] (a type of [`crate::stats`]) for `reduce`,
//! `quantile`, `arg` and `flat`, a scan of the scan family for `scan`
//! (`None`: the array flattened in C order, as NumPy), and a lane kernel of
//! the scan family for `window` (moving windows and fills: the input's
//! shape, along one axis, the axis last as bottleneck's `axis=-1`), and a
//! group statistic of the group family for `group` (numbagg's `group_nan*`:
//! one result per label on the result's last axis).

use super::arg::{NanArgMax, NanArgMin};
use super::stat_types::Median;
use super::stat_types::Quantiles;
use super::statistic::report;
use crate::element::{Element, QuantileElement};
use crate::error::{ensure_memory, Result};
use crate::group::{
    GroupArg, GroupEnd, GroupFunction, GroupMoments, GroupQuantiles, GroupSumOfSquares, GroupTruth,
    Streaming,
};
use crate::options::{Axes, Ddof, NanPolicy, QuantileMethod, QuantileOptions};
use crate::reduce::{
    nan_flags, AllNan, AnyNan, NanCount, NanKurt, NanMax, NanMean, NanMin, NanProd, NanSkew,
    NanStd, NanSum, NanVar, SumOfSquares, VarOrStd,
};
use crate::scan::{
    run_lanes, scan, scan_flat, ArgPartition, CumProd, CumSum, ExpStat, Fill, LaneKernel,
    MoveCount, MoveExp, MoveExtremum, MoveMean, MoveMedian, MoveQuantile, MoveRank, MoveSum,
    MoveVar, Partition, Rank, Scanner, WindowSpec,
};
use crate::statistic::into_dim;
use crate::statistic::Statistic;
use ndarray::{Array, ArrayBase, ArrayD, ArrayViewD, Axis, Data, Dimension};

/// The values of `stat` over `axes`, in dimension `Out`.
fn values<S, E, D, T, Out>(
    a: &ArrayBase<S, D>,
    axes: Axes,
    stat: T,
) -> Result<Array<T::Output, Out>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
    T: Statistic<E>,
    Out: Dimension,
{
    Ok(into_dim(report(a, axes, stat)?.values))
}

/// The scan `s` along `axis` (`None`: of the array flattened in C order), in
/// dimension `Out`.
fn scanned<S, E, D, T, Out>(
    a: &ArrayBase<S, D>,
    axis: Option<isize>,
    s: T,
) -> Result<Array<T::Output, Out>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
    T: Scanner<E>,
    Out: Dimension,
{
    let view = a.view().into_dyn();
    let Some(axis) = axis else {
        // the result, and a C-order copy of a view that is not C-contiguous
        let per_value = std::mem::size_of::<T::Output>() + std::mem::size_of::<E>();
        ensure_memory(&[(view.len(), per_value)])?;
        return Ok(into_dim(scan_flat(&view, &s)));
    };
    let k = Axes::One(axis).normalize(view.ndim())?[0];
    ensure_memory(&[(view.len(), std::mem::size_of::<T::Output>())])?;
    Ok(into_dim(scan(&view, k, &s)))
}

/// The lane kernel `k` along `axis` (negative: from the end), in dimension `Out`.
fn moved<S, E, D, K, Out>(a: &ArrayBase<S, D>, axis: isize, k: K) -> Result<Array<K::Output, Out>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
    K: LaneKernel<E>,
    Out: Dimension,
{
    let view = a.view().into_dyn();
    let axis = Axes::One(axis).normalize(view.ndim())?[0];
    k.validate(view.shape()[axis])?;
    ensure_memory(&[(view.len(), std::mem::size_of::<K::Output>())])?;
    Ok(into_dim(run_lanes(&view, axis, &k)))
}

/// The group statistic `stat` of `a` per label (`op`: the function's name).
fn grouped<S, E, D, SL, DL, T>(
    a: &ArrayBase<S, D>,
    labels: &ArrayBase<SL, DL>,
    axes: Axes,
    num_labels: Option<usize>,
    stat: T,
    op: &'static str,
) -> Result<ArrayD<<T as GroupFunction<E>>::Output>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
    SL: Data<Elem = i64>,
    DL: Dimension,
    T: GroupFunction<E>,
{
    stat.run(
        &a.view().into_dyn(),
        &labels.view().into_dyn(),
        axes,
        num_labels,
        op,
    )
}

/// A window of `window` values needing `min_count` non-NaN ones.
fn spec(window: usize, min_count: Option<usize>) -> WindowSpec {
    WindowSpec { window, min_count }
}

/// `axis` as a single axis.
fn one(axis: Axis) -> Axes {
    Axes::from(axis)
}

mod sealed {
    /// Seals [`super::NanOps`]: implemented for ndarray's arrays only.
    pub trait Sealed {}
    impl<S: ndarray::RawData, D> Sealed for ndarray::ArrayBase<S, D> {}
}

/// Expands the rows: the free functions, the trait's methods and their
/// implementation (see the module docs for the kinds).
macro_rules! nan_functions {
    ($(
        $(#[$doc:meta])*
        $kind:ident fn $name:ident $(, $typed:ident)? ($($arg:ident: $argty:ty),*) -> $out:ty
            where E: $bound:path = $stat:expr;
    )*) => {
        $(nan_functions!(@free $kind [$(#[$doc])*] $name $($typed)? ($($arg: $argty),*) $out, $bound, $stat);)*

        /// NaN-aware statistics as methods of any ndarray array or view.
        ///
        /// Each method is the free function of the same name, the array its
        /// first argument. Sealed: implemented for [`ndarray::ArrayBase`].
        ///
        /// ```
        /// use nanops::NanOps;
        /// use ndarray::{array, Axis};
        /// let a = array![[1.0, f64::NAN], [3.0, 5.0]];
        /// assert_eq!(a.nanmean_axis(Axis(1))?, array![1.0, 4.0]);
        /// assert_eq!(a.t().nansum(0)?, array![1.0, 8.0].into_dyn());
        /// assert_eq!(a.nanmedian_axis(Axis(0))?, array![2.0, 5.0]);
        /// assert_eq!(a.nanargmax_flat()?, 3);
        /// # Ok::<(), nanops::Error>(())
        /// ```
        pub trait NanOps<E: Element, D: Dimension>: sealed::Sealed {
            $(nan_functions!(@sig $kind $name $($typed)? ($($arg: $argty),*) $out, $bound);)*
        }

        impl<S, E, D> NanOps<E, D> for ArrayBase<S, D>
        where
            S: Data<Elem = E>,
            E: Element,
            D: Dimension,
        {
            $(nan_functions!(@method $kind $name $($typed)? ($($arg: $argty),*) $out, $bound);)*
        }
    };

    // ---- free functions
    (@free reduce [$(#[$doc:meta])*] $name:ident $typed:ident ($($arg:ident: $argty:ty),*) $out:ty, $bound:path, $stat:expr) => {
        $(#[$doc])*
        pub fn $name<S, E, D>(a: &ArrayBase<S, D>, axes: impl Into<Axes> $(, $arg: $argty)*) -> Result<ArrayD<$out>>
        where
            S: Data<Elem = E>,
            E: $bound,
            D: Dimension,
        {
            values(a, axes.into(), $stat)
        }
        #[doc = concat!("[`", stringify!($name), "`] over one [`Axis`]: one dimension fewer, typed (as ndarray's `sum_axis`).")]
        ///
        /// # Errors
        #[doc = concat!("As [`", stringify!($name), "`].")]
        pub fn $typed<S, E, D>(a: &ArrayBase<S, D>, axis: Axis $(, $arg: $argty)*) -> Result<Array<$out, D::Smaller>>
        where
            S: Data<Elem = E>,
            E: $bound,
            D: Dimension,
        {
            values(a, one(axis), $stat)
        }
    };
    (@free quantile [$(#[$doc:meta])*] $name:ident $typed:ident ($q:ident: $qty:ty $(, $arg:ident: $argty:ty)*) $out:ty, $bound:path, $stat:expr) => {
        $(#[$doc])*
        pub fn $name<S, E, D>(a: &ArrayBase<S, D>, $q: $qty, axes: impl Into<Axes> $(, $arg: $argty)*) -> Result<ArrayD<$out>>
        where
            S: Data<Elem = E>,
            E: $bound,
            D: Dimension,
        {
            values(a, axes.into(), $stat)
        }
        #[doc = concat!("[`", stringify!($name), "`] over one [`Axis`], typed: `q`'s axis first, then the kept axes.")]
        ///
        /// # Errors
        #[doc = concat!("As [`", stringify!($name), "`].")]
        pub fn $typed<S, E, D>(a: &ArrayBase<S, D>, $q: $qty, axis: Axis $(, $arg: $argty)*) -> Result<Array<$out, D>>
        where
            S: Data<Elem = E>,
            E: $bound,
            D: Dimension,
        {
            values(a, one(axis), $stat)
        }
    };
    (@free arg [$(#[$doc:meta])*] $name:ident $typed:ident () $out:ty, $bound:path, $stat:expr) => {
        $(#[$doc])*
        pub fn $name<S, E, D>(a: &ArrayBase<S, D>, axis: Option<isize>) -> Result<ArrayD<$out>>
        where
            S: Data<Elem = E>,
            E: $bound,
            D: Dimension,
        {
            values(a, axis.map_or(Axes::All, Axes::One), $stat)
        }
        #[doc = concat!("[`", stringify!($name), "`] along one [`Axis`]: one dimension fewer, typed.")]
        ///
        /// # Errors
        #[doc = concat!("As [`", stringify!($name), "`].")]
        pub fn $typed<S, E, D>(a: &ArrayBase<S, D>, axis: Axis) -> Result<Array<$out, D::Smaller>>
        where
            S: Data<Elem = E>,
            E: $bound,
            D: Dimension,
        {
            values(a, one(axis), $stat)
        }
    };
    (@free scan [$(#[$doc:meta])*] $name:ident $typed:ident () $out:ty, $bound:path, $stat:expr) => {
        $(#[$doc])*
        pub fn $name<S, E, D>(a: &ArrayBase<S, D>, axis: Option<isize>) -> Result<ArrayD<$out>>
        where
            S: Data<Elem = E>,
            E: $bound,
            D: Dimension,
        {
            scanned(a, axis, $stat)
        }
        #[doc = concat!("[`", stringify!($name), "`] along one [`Axis`]: the input's shape and dimension.")]
        ///
        /// # Errors
        #[doc = concat!("As [`", stringify!($name), "`].")]
        pub fn $typed<S, E, D>(a: &ArrayBase<S, D>, axis: Axis) -> Result<Array<$out, D>>
        where
            S: Data<Elem = E>,
            E: $bound,
            D: Dimension,
        {
            scanned(a, Some(axis.index() as isize), $stat)
        }
    };
    (@free window [$(#[$doc:meta])*] $name:ident $typed:ident ($($arg:ident: $argty:ty),*) $out:ty, $bound:path, $stat:expr) => {
        $(#[$doc])*
        pub fn $name<S, E, D>(a: &ArrayBase<S, D> $(, $arg: $argty)*, axis: isize) -> Result<ArrayD<$out>>
        where
            S: Data<Elem = E>,
            E: $bound,
            D: Dimension,
        {
            moved(a, axis, $stat)
        }
        #[doc = concat!("[`", stringify!($name), "`] along one [`Axis`]: the input's shape and dimension.")]
        ///
        /// # Errors
        #[doc = concat!("As [`", stringify!($name), "`].")]
        pub fn $typed<S, E, D>(a: &ArrayBase<S, D> $(, $arg: $argty)*, axis: Axis) -> Result<Array<$out, D>>
        where
            S: Data<Elem = E>,
            E: $bound,
            D: Dimension,
        {
            moved(a, axis.index() as isize, $stat)
        }
    };
    (@free flat [$(#[$doc:meta])*] $name:ident () $out:ty, $bound:path, $stat:expr) => {
        $(#[$doc])*
        pub fn $name<S, E, D>(a: &ArrayBase<S, D>) -> Result<$out>
        where
            S: Data<Elem = E>,
            E: $bound,
            D: Dimension,
        {
            let r = report(a, Axes::All, $stat)?;
            Ok(*r.values.first().expect("a whole-array result holds one value"))
        }
    };

    (@free group [$(#[$doc:meta])*] $name:ident ($($arg:ident: $argty:ty),*) $out:ty, $bound:path, $stat:expr) => {
        $(#[$doc])*
        pub fn $name<S, E, D, SL, DL>(
            a: &ArrayBase<S, D>,
            labels: &ArrayBase<SL, DL>,
            axes: impl Into<Axes>,
            num_labels: Option<usize>
            $(, $arg: $argty)*
        ) -> Result<ArrayD<$out>>
        where
            S: Data<Elem = E>,
            E: $bound,
            D: Dimension,
            SL: Data<Elem = i64>,
            DL: Dimension,
        {
            grouped(a, labels, axes.into(), num_labels, $stat, stringify!($name))
        }
    };

    // ---- the trait's methods
    (@sig reduce $name:ident $typed:ident ($($arg:ident: $argty:ty),*) $out:ty, $bound:path) => {
        #[doc = concat!("See [`", stringify!($name), "`](crate::", stringify!($name), ").")]
        fn $name(&self, axes: impl Into<Axes> $(, $arg: $argty)*) -> Result<ArrayD<$out>>
        where
            E: $bound;
        #[doc = concat!("See [`", stringify!($typed), "`](crate::", stringify!($typed), ").")]
        fn $typed(&self, axis: Axis $(, $arg: $argty)*) -> Result<Array<$out, D::Smaller>>
        where
            E: $bound;
    };
    (@sig quantile $name:ident $typed:ident ($q:ident: $qty:ty $(, $arg:ident: $argty:ty)*) $out:ty, $bound:path) => {
        #[doc = concat!("See [`", stringify!($name), "`](crate::", stringify!($name), ").")]
        fn $name(&self, $q: $qty, axes: impl Into<Axes> $(, $arg: $argty)*) -> Result<ArrayD<$out>>
        where
            E: $bound;
        #[doc = concat!("See [`", stringify!($typed), "`](crate::", stringify!($typed), ").")]
        fn $typed(&self, $q: $qty, axis: Axis $(, $arg: $argty)*) -> Result<Array<$out, D>>
        where
            E: $bound;
    };
    (@sig arg $name:ident $typed:ident () $out:ty, $bound:path) => {
        #[doc = concat!("See [`", stringify!($name), "`](crate::", stringify!($name), ").")]
        fn $name(&self, axis: Option<isize>) -> Result<ArrayD<$out>>
        where
            E: $bound;
        #[doc = concat!("See [`", stringify!($typed), "`](crate::", stringify!($typed), ").")]
        fn $typed(&self, axis: Axis) -> Result<Array<$out, D::Smaller>>
        where
            E: $bound;
    };
    (@sig scan $name:ident $typed:ident () $out:ty, $bound:path) => {
        #[doc = concat!("See [`", stringify!($name), "`](crate::", stringify!($name), ").")]
        fn $name(&self, axis: Option<isize>) -> Result<ArrayD<$out>>
        where
            E: $bound;
        #[doc = concat!("See [`", stringify!($typed), "`](crate::", stringify!($typed), ").")]
        fn $typed(&self, axis: Axis) -> Result<Array<$out, D>>
        where
            E: $bound;
    };
    (@sig window $name:ident $typed:ident ($($arg:ident: $argty:ty),*) $out:ty, $bound:path) => {
        #[doc = concat!("See [`", stringify!($name), "`](crate::", stringify!($name), ").")]
        fn $name(&self $(, $arg: $argty)*, axis: isize) -> Result<ArrayD<$out>>
        where
            E: $bound;
        #[doc = concat!("See [`", stringify!($typed), "`](crate::", stringify!($typed), ").")]
        fn $typed(&self $(, $arg: $argty)*, axis: Axis) -> Result<Array<$out, D>>
        where
            E: $bound;
    };
    (@sig flat $name:ident () $out:ty, $bound:path) => {
        #[doc = concat!("See [`", stringify!($name), "`](crate::", stringify!($name), ").")]
        fn $name(&self) -> Result<$out>
        where
            E: $bound;
    };

    (@sig group $name:ident ($($arg:ident: $argty:ty),*) $out:ty, $bound:path) => {
        #[doc = concat!("See [`", stringify!($name), "`](crate::", stringify!($name), ").")]
        fn $name<SL: Data<Elem = i64>, DL: Dimension>(
            &self,
            labels: &ArrayBase<SL, DL>,
            axes: impl Into<Axes>,
            num_labels: Option<usize>
            $(, $arg: $argty)*
        ) -> Result<ArrayD<$out>>
        where
            E: $bound;
    };

    // ---- their implementation: the free functions
    (@method reduce $name:ident $typed:ident ($($arg:ident: $argty:ty),*) $out:ty, $bound:path) => {
        fn $name(&self, axes: impl Into<Axes> $(, $arg: $argty)*) -> Result<ArrayD<$out>>
        where
            E: $bound,
        {
            $name(self, axes $(, $arg)*)
        }
        fn $typed(&self, axis: Axis $(, $arg: $argty)*) -> Result<Array<$out, D::Smaller>>
        where
            E: $bound,
        {
            $typed(self, axis $(, $arg)*)
        }
    };
    (@method quantile $name:ident $typed:ident ($q:ident: $qty:ty $(, $arg:ident: $argty:ty)*) $out:ty, $bound:path) => {
        fn $name(&self, $q: $qty, axes: impl Into<Axes> $(, $arg: $argty)*) -> Result<ArrayD<$out>>
        where
            E: $bound,
        {
            $name(self, $q, axes $(, $arg)*)
        }
        fn $typed(&self, $q: $qty, axis: Axis $(, $arg: $argty)*) -> Result<Array<$out, D>>
        where
            E: $bound,
        {
            $typed(self, $q, axis $(, $arg)*)
        }
    };
    (@method arg $name:ident $typed:ident () $out:ty, $bound:path) => {
        fn $name(&self, axis: Option<isize>) -> Result<ArrayD<$out>>
        where
            E: $bound,
        {
            $name(self, axis)
        }
        fn $typed(&self, axis: Axis) -> Result<Array<$out, D::Smaller>>
        where
            E: $bound,
        {
            $typed(self, axis)
        }
    };
    (@method scan $name:ident $typed:ident () $out:ty, $bound:path) => {
        fn $name(&self, axis: Option<isize>) -> Result<ArrayD<$out>>
        where
            E: $bound,
        {
            $name(self, axis)
        }
        fn $typed(&self, axis: Axis) -> Result<Array<$out, D>>
        where
            E: $bound,
        {
            $typed(self, axis)
        }
    };
    (@method window $name:ident $typed:ident ($($arg:ident: $argty:ty),*) $out:ty, $bound:path) => {
        fn $name(&self $(, $arg: $argty)*, axis: isize) -> Result<ArrayD<$out>>
        where
            E: $bound,
        {
            $name(self $(, $arg)*, axis)
        }
        fn $typed(&self $(, $arg: $argty)*, axis: Axis) -> Result<Array<$out, D>>
        where
            E: $bound,
        {
            $typed(self $(, $arg)*, axis)
        }
    };
    (@method group $name:ident ($($arg:ident: $argty:ty),*) $out:ty, $bound:path) => {
        fn $name<SL: Data<Elem = i64>, DL: Dimension>(
            &self,
            labels: &ArrayBase<SL, DL>,
            axes: impl Into<Axes>,
            num_labels: Option<usize>
            $(, $arg: $argty)*
        ) -> Result<ArrayD<$out>>
        where
            E: $bound,
        {
            $name(self, labels, axes, num_labels $(, $arg)*)
        }
    };
    (@method flat $name:ident () $out:ty, $bound:path) => {
        fn $name(&self) -> Result<$out>
        where
            E: $bound,
        {
            $name(self)
        }
    };
}

nan_functions! {
    /// Sum of the non-NaN values over `axes`; empty slices sum to zero.
    ///
    /// ```text
    /// nansum(x) = Σ { xᵢ : xᵢ not NaN }
    /// ```
    /// Accumulated in [`Element::Acc`] (`f32` → `f64`, `f16` → `f32`) with
    /// compensated block sums; integers wrap on overflow as NumPy's. `axes`
    /// is an integer (negative counts from the end), several axes, an
    /// [`ndarray::Axis`] or [`Axes::All`]; [`nansum_axis`] takes one `Axis`
    /// and gives a typed result of one dimension fewer.
    ///
    /// # Errors
    /// [`Error::AxisOutOfBounds`](crate::Error::AxisOutOfBounds),
    /// [`Error::DuplicateAxis`](crate::Error::DuplicateAxis).
    ///
    /// ```
    /// use ndarray::{array, Axis};
    /// let a = array![[1.0, f64::NAN], [3.0, 4.0]];
    /// assert_eq!(nanops::nansum_axis(&a, Axis(0))?, array![4.0, 4.0]);
    /// assert_eq!(nanops::nansum(&a, -2)?, array![4.0, 4.0].into_dyn());
    /// assert_eq!(nanops::nansum(&a, nanops::Axes::All)?[[]], 8.0);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    reduce fn nansum, nansum_axis() -> E::Sum where E: Element = NanSum;

    /// Sum of the squares of the values over `axes`, NaN propagated (not in
    /// NumPy: bottleneck's `ss`); empty slices give zero.
    ///
    /// ```text
    /// ss(x) = Σ xᵢ²        (NaN if any xᵢ is NaN)
    /// ```
    /// The squares are accumulated as [`nansum`] accumulates values: in
    /// [`Element::Acc`] (`f32` → `f64`, exact squares), compensated for
    /// `f64`; integers wrap on overflow. The result type is `nansum`'s.
    ///
    /// # Errors
    /// [`Error::AxisOutOfBounds`](crate::Error::AxisOutOfBounds),
    /// [`Error::DuplicateAxis`](crate::Error::DuplicateAxis).
    ///
    /// ```
    /// use ndarray::{array, Axis};
    /// let a = array![[1.0, f64::NAN], [3.0, 4.0]];
    /// assert_eq!(nanops::ss_axis(&a, Axis(1))?[1], 25.0);
    /// assert!(nanops::ss_axis(&a, Axis(1))?[0].is_nan());
    /// assert_eq!(nanops::ss(&array![1_i32, 2, 3], 0)?[[]], 14_i64);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    reduce fn ss, ss_axis() -> E::Sum where E: Element = SumOfSquares;

    /// Product of the non-NaN values over `axes`; empty slices give one.
    ///
    /// ```text
    /// nanprod(x) = Π { xᵢ : xᵢ not NaN }
    /// ```
    ///
    /// # Errors
    /// Axis errors.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![2.0, f64::NAN, 3.0];
    /// assert_eq!(nanops::nanprod(&a, 0)?[[]], 6.0);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    reduce fn nanprod, nanprod_axis() -> E::Sum where E: Element = NanProd;

    /// Number of non-NaN values over `axes` (NumPy has no such function).
    ///
    /// ```text
    /// nancount(x) = #{ i : xᵢ not NaN }
    /// ```
    ///
    /// # Errors
    /// Axis errors.
    ///
    /// ```
    /// use ndarray::{array, Axis};
    /// let a = array![[1.0, f64::NAN], [f64::NAN, f64::NAN]];
    /// assert_eq!(nanops::nancount_axis(&a, Axis(1))?, array![1, 0]);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    reduce fn nancount, nancount_axis() -> u64 where E: Element = NanCount;

    /// Mean of the non-NaN values over `axes`; NaN for an empty or all-NaN
    /// slice (count those with [`report`](crate::report) and
    /// [`NanMean`](crate::stats::NanMean)).
    ///
    /// ```text
    /// nanmean(x) = nansum(x) / nancount(x)
    /// ```
    /// Integers and `bool` give `f64`; `f16`/`f32` keep their type but are
    /// accumulated in `f32`/`f64`.
    ///
    /// # Errors
    /// Axis errors.
    ///
    /// ```
    /// use ndarray::{array, Axis};
    /// let a = array![[1.0, f64::NAN], [3.0, 4.0]];
    /// assert_eq!(nanops::nanmean_axis(&a, Axis(1))?, array![1.0, 3.5]);
    /// assert_eq!(nanops::nanmean(&array![1_i32, 2], 0)?[[]], 1.5);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    reduce fn nanmean, nanmean_axis() -> E::Mean where E: Element = NanMean;

    /// Variance of the non-NaN values over `axes`.
    ///
    /// ```text
    /// nanvar(x) = Σ |xᵢ − mean|² / (n − ddof)      over the n non-NaN xᵢ
    /// ```
    /// NaN where `n − ddof ≤ 0`. Complex input gives a real variance. Computed in
    /// one pass over memory: two passes inside cache-sized blocks, blocks merged
    /// with Chan's formula ([`crate::states::Moments`]).
    ///
    /// # Errors
    /// Axis errors.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![1.0, 2.0, f64::NAN, 3.0, 4.0];
    /// assert_eq!(nanops::nanvar(&a, 0, 0.0)?[[]], 1.25);
    /// assert_eq!(nanops::nanvar(&a, 0, 1.0)?[[]], 5.0 / 3.0);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    reduce fn nanvar, nanvar_axis(ddof: impl Into<Ddof>) -> E::Var where E: Element = NanVar(ddof.into());

    /// Standard deviation of the non-NaN values over `axes`: `sqrt(nanvar)`.
    ///
    /// # Errors
    /// Axis errors.
    ///
    /// ```
    /// use ndarray::{array, Axis};
    /// let a = array![[1.0, 3.0], [f64::NAN, 5.0]];
    /// assert_eq!(nanops::nanstd_axis(&a, Axis(1), 0.0)?, array![1.0, 0.0]);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    reduce fn nanstd, nanstd_axis(ddof: impl Into<Ddof>) -> E::Var where E: Element = NanStd(ddof.into());

    /// Sample skewness of the non-NaN values over `axes`, as
    /// `scipy.stats.skew(x, bias=bias, nan_policy="omit")`.
    ///
    /// ```text
    /// mₖ = Σ (xᵢ − mean)ᵏ / n                     over the n non-NaN xᵢ
    /// g1 = m3 / m2^1.5                            bias = true
    /// G1 = g1 · √(n(n − 1)) / (n − 2)             bias = false, n > 2 (n ≤ 2: g1, as scipy)
    /// ```
    /// NaN where `m2 ≤ (ε·mean)²`, `ε` the machine epsilon of the result
    /// type (scipy's rule: all values equal, or too close to equal for a
    /// meaningful skewness), and for slices of fewer than two values, which
    /// [`report`](crate::report) counts as degenerate. Real types only
    /// (scipy's complex results are meaningless); the result type is
    /// `nanvar`'s (`f64` for integers and `bool`, computed in `f32` for `f16`
    /// and in `f64` for `f32`). Computed in one pass over memory: blocks
    /// summed about a center near their mean, merged with Pébay's formulas
    /// ([`crate::states::HigherMoments`]), so an offset costs no digits.
    ///
    /// # Errors
    /// Axis errors.
    ///
    /// ```
    /// use ndarray::{array, Axis};
    /// let a = array![[2.0, 8.0, 0.0, 4.0, 1.0, 9.0, 9.0, 0.0], [1.0, 2.0, 3.0, f64::NAN, 4.0, 5.0, 6.0, 7.0]];
    /// let g = nanops::nanskew_axis(&a, Axis(1), true)?;
    /// assert!((g[0] - 0.2650554122698573).abs() < 1e-15);
    /// assert_eq!(g[1], 0.0);
    /// let big = nanops::nanskew(&a.mapv(|x| x + 1e8), 1, false)?; // an offset costs nothing
    /// assert!((big[0] - 0.2650554122698573 * (8.0f64 * 7.0).sqrt() / 6.0).abs() < 1e-14);
    /// assert!(nanops::nanskew(&array![3.0, 3.0, f64::NAN], 0, true)?[[]].is_nan());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    reduce fn nanskew, nanskew_axis(bias: bool) -> E::Var where E: QuantileElement = NanSkew { bias };

    /// Sample kurtosis of the non-NaN values over `axes`, as
    /// `scipy.stats.kurtosis(x, fisher=fisher, bias=bias, nan_policy="omit")`.
    ///
    /// ```text
    /// g2 = m4 / m2²                                                 bias = true
    /// G2 = ((n + 1)·g2 − 3(n − 1))·(n − 1) / ((n − 2)(n − 3)) + 3   bias = false, n > 3 (n ≤ 3: g2)
    /// result = g2 − 3 (G2 − 3)       fisher = true: excess kurtosis, 0 for a normal distribution
    ///        = g2 (G2)               fisher = false: Pearson's kurtosis
    /// ```
    /// with `mₖ` as in [`nanskew`]; NaN, result types and computation as
    /// [`nanskew`].
    ///
    /// # Errors
    /// Axis errors.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![1.0, 2.0, f64::NAN, 3.0, 6.0];
    /// assert_eq!(nanops::nankurt(&a, 0, true, true)?[[]], -1.0);
    /// assert_eq!(nanops::nankurt(&a, 0, true, false)?[[]], 2.0);
    /// assert_eq!(nanops::nankurt(&a, 0, false, true)?[[]], 1.5);
    /// let b = array![1.0_f32, 2.0, 4.0, 8.0, f32::NAN];
    /// let g = nanops::nankurt(&b, 0, false, true)?[[]]; // f32 in, f32 out
    /// assert!((g - 0.757_656).abs() < 1e-6);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    reduce fn nankurt, nankurt_axis(bias: bool, fisher: bool) -> E::Var where E: QuantileElement = NanKurt { bias, fisher };

    /// Minimum of the non-NaN values over `axes`; NaN for an all-NaN slice.
    ///
    /// Complex values order lexicographically (real part, then imaginary), as NumPy.
    ///
    /// # Errors
    /// [`Error::EmptyReduction`](crate::Error::EmptyReduction) when a reduced
    /// axis has length zero (and the output is not empty); axis errors.
    ///
    /// ```
    /// use ndarray::{array, Axis};
    /// let a = array![[3.0, f64::NAN, 1.0], [f64::NAN, 2.0, 5.0]];
    /// assert_eq!(nanops::nanmin_axis(&a, Axis(1))?, array![1.0, 2.0]);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    reduce fn nanmin, nanmin_axis() -> E where E: Element = NanMin;

    /// Maximum of the non-NaN values over `axes`; NaN for an all-NaN slice.
    ///
    /// # Errors
    /// As [`nanmin`].
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![[3.0, f64::NAN], [f64::NAN, 2.0]];
    /// assert_eq!(nanops::nanmax(&a, 0)?, array![3.0, 2.0].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    reduce fn nanmax, nanmax_axis() -> E where E: Element = NanMax;

    /// Index of the first minimum along `axis`, ignoring NaN. Ties go to the
    /// first index, as NumPy. `None` indexes the array flattened in C order
    /// (a 0-d result; [`nanargmin_flat`] gives the index itself).
    ///
    /// # Errors
    /// [`Error::AllNanSlice`](crate::Error::AllNanSlice) when a slice holds
    /// only NaN, [`Error::EmptyReduction`](crate::Error::EmptyReduction) for
    /// an empty slice, axis errors.
    ///
    /// ```
    /// use ndarray::{array, Axis};
    /// let a = array![[f64::NAN, 4.0, 1.0], [2.0, 2.0, f64::NAN]];
    /// assert_eq!(nanops::nanargmin_axis(&a, Axis(1))?, array![2, 0]);
    /// assert_eq!(nanops::nanargmin(&a, Some(-1))?, array![2, 0].into_dyn());
    /// assert_eq!(nanops::nanargmin(&a, None)?[[]], 2);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    arg fn nanargmin, nanargmin_axis() -> usize where E: Element = NanArgMin::default();

    /// Index of the first maximum along `axis`, ignoring NaN; see [`nanargmin`].
    ///
    /// # Errors
    /// As [`nanargmin`].
    ///
    /// ```
    /// use ndarray::{array, Axis};
    /// let a = array![f64::NAN, 4.0, 4.0];
    /// assert_eq!(nanops::nanargmax_axis(&a, Axis(0))?[()], 1);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    arg fn nanargmax, nanargmax_axis() -> usize where E: Element = NanArgMax::default();

    /// Index of the first minimum of the whole array flattened in C
    /// (row-major) order, ignoring NaN (NumPy's `axis=None`).
    ///
    /// # Errors
    /// [`Error::AllNanSlice`](crate::Error::AllNanSlice) when every value is
    /// NaN, [`Error::EmptyReduction`](crate::Error::EmptyReduction) for an
    /// empty array.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![[f64::NAN, 4.0, 1.0], [2.0, 2.0, f64::NAN]];
    /// assert_eq!(nanops::nanargmin_flat(&a)?, 2);
    /// assert!(nanops::nanargmin_flat(&array![f64::NAN]).is_err());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    flat fn nanargmin_flat() -> usize where E: Element = NanArgMin::default();

    /// Index of the first maximum of the whole array flattened in C order,
    /// ignoring NaN; see [`nanargmin_flat`].
    ///
    /// # Errors
    /// As [`nanargmin_flat`].
    ///
    /// ```
    /// use ndarray::array;
    /// assert_eq!(nanops::nanargmax_flat(&array![[1.0, 5.0], [f64::NAN, 5.0]])?, 1);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    flat fn nanargmax_flat() -> usize where E: Element = NanArgMax::default();

    /// Median of the non-NaN values over `axes`; NaN for an all-NaN slice.
    ///
    /// ```text
    /// nanmedian(x) = x_{(n−1)/2}                        (n odd, sorted valid values)
    ///              = (x_{n/2−1} + x_{n/2}) / 2          (n even; no overflow: see below)
    /// ```
    /// Unlike NumPy, the mean of two huge middle values does not overflow:
    /// `nanmedian([1.7e308, 1.7e308])` is `1.7e308`. Found by selection,
    /// never a sort; integers and `bool` give `f64`.
    ///
    /// # Errors
    /// Axis errors.
    ///
    /// ```
    /// use ndarray::{array, Axis};
    /// let a = array![[3.0, f64::NAN, 1.0, 2.0], [1.7e308, 1.7e308, f64::NAN, f64::NAN]];
    /// assert_eq!(nanops::nanmedian_axis(&a, Axis(1))?, array![2.0, 1.7e308]);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    reduce fn nanmedian, nanmedian_axis() -> E::Value where E: QuantileElement = Median(NanPolicy::Omit);

    /// Median over `axes` where any NaN makes its slice's result NaN (NumPy's `median`).
    ///
    /// # Errors
    /// Axis errors.
    ///
    /// ```
    /// use ndarray::{array, Axis};
    /// let m = nanops::median_axis(&array![[1.0, 5.0, 2.0], [1.0, f64::NAN, 2.0]], Axis(1))?;
    /// assert_eq!(m[0], 2.0);
    /// assert!(m[1].is_nan());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    reduce fn median, median_axis() -> E::Value where E: QuantileElement = Median(NanPolicy::Propagate);

    /// Quantiles of the non-NaN values over `axes`; all-NaN slices give NaN.
    ///
    /// The result has a leading axis of `q.len()`, then the kept axes; floats
    /// keep their type, integers give `f64`. With `method = Linear`, for sorted
    /// valid values `x₀ ≤ … ≤ xₙ₋₁`:
    ///
    /// ```text
    /// v = (n − 1)·q,  i = ⌊v⌋,  γ = v − i
    /// Q(q) = x_i + (x_{i+1} − x_i)·γ          (γ < 0.5)
    ///      = x_{i+1} − (x_{i+1} − x_i)·(1 − γ) (γ ≥ 0.5)
    /// ```
    /// and the other 12 methods as NumPy ([`QuantileMethod`]). Weights, other
    /// result types and NumPy's `q` dtypes: [`Quantiles`](crate::stats::Quantiles).
    ///
    /// # Errors
    /// [`Error::InvalidQuantile`](crate::Error::InvalidQuantile) for `q`
    /// outside `[0, 1]`; axis errors.
    ///
    /// ```
    /// use ndarray::{array, Axis};
    /// use nanops::QuantileMethod;
    /// let a = array![[1.0, f64::NAN, 3.0, 4.0], [f64::NAN, f64::NAN, 5.0, 6.0]];
    /// let q = nanops::nanquantile_axis(&a, &[0.0, 0.5, 1.0], Axis(1), QuantileMethod::Linear)?;
    /// assert_eq!(q, array![[1.0, 5.0], [3.0, 5.5], [4.0, 6.0]]);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    quantile fn nanquantile, nanquantile_axis(q: &[f64], method: QuantileMethod) -> E::Value where E: QuantileElement =
        Quantiles::<E::Value>::new(q, QuantileOptions { method, ..Default::default() });

    /// Quantiles over `axes` where any NaN makes its slice's result NaN (NumPy's `quantile`).
    ///
    /// # Errors
    /// As [`nanquantile`].
    ///
    /// ```
    /// use ndarray::array;
    /// use nanops::QuantileMethod;
    /// let a = array![[1.0, 2.0, 3.0], [1.0, f64::NAN, 3.0]];
    /// let q = nanops::quantile(&a, &[0.5], 1, QuantileMethod::Linear)?;
    /// assert_eq!(q[[0, 0]], 2.0);
    /// assert!(q[[0, 1]].is_nan());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    quantile fn quantile, quantile_axis(q: &[f64], method: QuantileMethod) -> E::Value where E: QuantileElement =
        Quantiles::<E::Value>::new(q, QuantileOptions {
            method,
            nan_policy: NanPolicy::Propagate,
            ..Default::default()
        });

    /// Cumulative sum along `axis`, NaN counted as zero; the result has the
    /// input's shape (`None`: the array flattened in C order, a 1-d result).
    ///
    /// ```text
    /// out[i] = Σ_{j ≤ i} (x[j] if x[j] is not NaN else 0)
    /// ```
    /// Running totals are kept in [`Element::Acc`] and rounded per element,
    /// except for `f16`/`bf16` (accumulated in `f32`): their running totals are
    /// kept in `f64`, since a plain `f32` running total stops absorbing small
    /// values once it is large. Lanes run in parallel; along an outer axis
    /// (axis 0 of a C array) rows of lanes are walked side by side.
    ///
    /// # Errors
    /// Axis errors.
    ///
    /// ```
    /// use ndarray::{array, Axis};
    /// let a = array![[1.0, f64::NAN], [2.0, 3.0]];
    /// assert_eq!(nanops::nancumsum_axis(&a, Axis(0))?, array![[1.0, 0.0], [3.0, 3.0]]);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    scan fn nancumsum, nancumsum_axis() -> E::Sum where E: Element = CumSum;

    /// Cumulative product along `axis`, NaN counted as one.
    ///
    /// # Errors
    /// Axis errors.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![[2.0, f64::NAN], [3.0, 4.0]];
    /// assert_eq!(nanops::nancumprod(&a, Some(1))?, array![[2.0, 2.0], [3.0, 12.0]].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    scan fn nancumprod, nancumprod_axis() -> E::Sum where E: Element = CumProd;

    /// Moving sum: at each position, the sum of the non-NaN values among the
    /// last `window` ones (fewer at the start of the axis), or NaN where
    /// fewer than `min_count` of them are non-NaN (`None`: all `window`),
    /// as bottleneck's `move_sum` and pandas' `rolling(window,
    /// min_periods=min_count).sum()`.
    ///
    /// ```text
    /// out[i] = Σ x[j],  j ∈ (i − window, i], x[j] not NaN
    /// ```
    /// Computed in `f64` with a compensated running sum `hi + lo`, updated in
    /// O(1) per step by the entering minus the leaving value with error-free
    /// additions (TwoSum),
    /// infinities counted apart (one leaving the window leaves no NaN), the
    /// sum rebuilt from the window's values every `max(2·window, 1024)`
    /// positions, so results do not drift; rounded once to the result type
    /// ([`QuantileElement::Value`]: the float itself, `f64` for integers and
    /// `bool`). Lanes run in parallel; every lane is read contiguously.
    ///
    /// # Errors
    /// [`Error::InvalidWindow`](crate::Error::InvalidWindow) unless
    /// `1 <= window <= ` the axis length,
    /// [`Error::InvalidMinCount`](crate::Error::InvalidMinCount) unless
    /// `1 <= min_count <= window`; axis errors.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![1.0, 2.0, f64::NAN, 4.0];
    /// let s = nanops::move_sum(&a, 2, Some(1), -1)?;
    /// assert_eq!(s, array![1.0, 3.0, 2.0, 4.0].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    window fn move_sum, move_sum_axis(window: usize, min_count: Option<usize>) -> E::Value
        where E: QuantileElement = MoveSum(spec(window, min_count));

    /// Moving mean: the mean of the non-NaN values among the last `window`
    /// (see [`move_sum`] for `min_count`, the arithmetic and the errors).
    ///
    /// # Errors
    /// As [`move_sum`].
    ///
    /// ```
    /// use ndarray::{array, Axis};
    /// let a = array![[1.0, 2.0], [3.0, f64::NAN], [5.0, 6.0]];
    /// let m = nanops::move_mean_axis(&a, 2, Some(1), Axis(0))?;
    /// assert_eq!(m, array![[1.0, 2.0], [2.0, 2.0], [4.0, 6.0]]);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    window fn move_mean, move_mean_axis(window: usize, min_count: Option<usize>) -> E::Value
        where E: QuantileElement = MoveMean(spec(window, min_count));

    /// Moving variance with `ddof` delta degrees of freedom (bottleneck's
    /// `ddof=0` default): NaN where fewer than `min_count` non-NaN values,
    /// where `count − ddof <= 0` (bottleneck gives `inf` at `count == ddof`)
    /// or where the window holds an infinity.
    ///
    /// ```text
    /// out[i] = Σ (x[j] − mean)² / (count − ddof)
    /// ```
    /// Welford's update in `f64`, run forwards for the entering value and
    /// backwards for the leaving one, rebuilt as [`move_sum`]'s sum.
    ///
    /// # Errors
    /// As [`move_sum`].
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![1.0, 3.0, 5.0, f64::NAN];
    /// let v = nanops::move_var(&a, 2, Some(1), 0.0, -1)?;
    /// assert_eq!(v, array![0.0, 1.0, 1.0, 0.0].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    window fn move_var, move_var_axis(window: usize, min_count: Option<usize>, ddof: f64) -> E::Value
        where E: QuantileElement = MoveVar { spec: spec(window, min_count), ddof, std: false };

    /// Moving standard deviation: the square root of [`move_var`].
    ///
    /// # Errors
    /// As [`move_sum`].
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![1.0, 3.0, 5.0];
    /// let s: ndarray::ArrayD<f64> = nanops::move_std(&a, 2, None, 1.0, -1)?;
    /// assert!(s[0].is_nan());
    /// assert_eq!(s[2], 2f64.sqrt());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    window fn move_std, move_std_axis(window: usize, min_count: Option<usize>, ddof: f64) -> E::Value
        where E: QuantileElement = MoveVar { spec: spec(window, min_count), ddof, std: true };

    /// Moving count: the number of non-NaN values among the last `window`,
    /// NaN where fewer than `min_count`, as every `move_*` (pandas'
    /// `rolling().count()` gives NaN only where the window has fewer than
    /// `min_periods` positions; bottleneck has no `move_count`).
    ///
    /// # Errors
    /// As [`move_sum`].
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![1.0, f64::NAN, 2.0];
    /// let c = nanops::move_count(&a, 2, Some(1), -1)?;
    /// assert_eq!(c, array![1.0, 1.0, 1.0].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    window fn move_count, move_count_axis(window: usize, min_count: Option<usize>) -> E::Value
        where E: QuantileElement = MoveCount(spec(window, min_count));

    /// Moving minimum of the non-NaN values among the last `window`, in
    /// amortised O(1) per step (a monotonic deque of the window's indices).
    ///
    /// # Errors
    /// As [`move_sum`].
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![3.0, 1.0, f64::NAN, 2.0];
    /// let m = nanops::move_min(&a, 2, Some(1), -1)?;
    /// assert_eq!(m, array![3.0, 1.0, 1.0, 2.0].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    window fn move_min, move_min_axis(window: usize, min_count: Option<usize>) -> E::Value
        where E: QuantileElement = MoveExtremum::<false>::value(spec(window, min_count));

    /// Moving maximum of the non-NaN values among the last `window` (see
    /// [`move_min`]).
    ///
    /// # Errors
    /// As [`move_sum`].
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![3.0, 1.0, f64::NAN, 2.0];
    /// let m = nanops::move_max(&a, 2, Some(1), -1)?;
    /// assert_eq!(m, array![3.0, 3.0, 1.0, 2.0].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    window fn move_max, move_max_axis(window: usize, min_count: Option<usize>) -> E::Value
        where E: QuantileElement = MoveExtremum::<true>::value(spec(window, min_count));

    /// Moving position of the minimum, counted as bottleneck counts it:
    /// back from the window's last position (0: the newest value, `window −
    /// 1`: the oldest); of equal minima, the newest. In the result type (a
    /// float: NaN where fewer than `min_count` non-NaN values).
    ///
    /// # Errors
    /// As [`move_sum`].
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![1.0, 3.0, 1.0, 2.0];
    /// let i: ndarray::ArrayD<f64> = nanops::move_argmin(&a, 3, None, -1)?;
    /// assert!(i[1].is_nan());
    /// assert_eq!((i[2], i[3]), (0.0, 1.0));
    /// # Ok::<(), nanops::Error>(())
    /// ```
    window fn move_argmin, move_argmin_axis(window: usize, min_count: Option<usize>) -> E::Value
        where E: QuantileElement = MoveExtremum::<false>::index(spec(window, min_count));

    /// Moving position of the maximum, counted as [`move_argmin`]'s.
    ///
    /// # Errors
    /// As [`move_sum`].
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![1.0, 3.0, 3.0, 2.0];
    /// let i = nanops::move_argmax(&a, 3, None, -1)?;
    /// assert_eq!((i[2], i[3]), (0.0, 1.0));
    /// # Ok::<(), nanops::Error>(())
    /// ```
    window fn move_argmax, move_argmax_axis(window: usize, min_count: Option<usize>) -> E::Value
        where E: QuantileElement = MoveExtremum::<true>::index(spec(window, min_count));

    /// Moving median of the non-NaN values among the last `window` (NaN
    /// where fewer than `min_count`), as bottleneck's `move_median` and
    /// [`nanmedian`] of each window: the middle value, or the mean of the
    /// two middle values (NumPy's arithmetic, without its overflow). The
    /// window's values are kept sorted: O(log window) comparisons and one
    /// shift of the values between the leaving and the entering one's
    /// places per step.
    ///
    /// # Errors
    /// As [`move_sum`].
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![1.0, 9.0, f64::NAN, 4.0, 2.0];
    /// let m = nanops::move_median(&a, 3, Some(1), -1)?;
    /// assert_eq!(m, array![1.0, 5.0, 5.0, 6.5, 3.0].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    window fn move_median, move_median_axis(window: usize, min_count: Option<usize>) -> E::Value
        where E: QuantileElement = MoveMedian(spec(window, min_count));

    /// Moving quantile `q` of the non-NaN values among the last `window`
    /// (NaN where fewer than `min_count`) by any of NumPy's 13 methods:
    /// each position is [`nanquantile`] of its window with `q` a Python
    /// float, bit for bit (the ranks it needs are read from the sorted
    /// window and finished by `nanquantile`'s own code; as there, the sign
    /// of a zero result may differ where a window holds both zeros).
    ///
    /// # Errors
    /// As [`move_sum`]; [`Error::InvalidQuantile`](crate::Error::InvalidQuantile)
    /// for `q` outside `[0, 1]`.
    ///
    /// ```
    /// use nanops::QuantileMethod;
    /// use ndarray::array;
    /// let a = array![1.0, 2.0, 4.0, 8.0];
    /// let q: ndarray::ArrayD<f64> = nanops::move_quantile(&a, 3, None, 0.25, QuantileMethod::Linear, -1)?;
    /// assert!(q[1].is_nan());
    /// assert_eq!((q[2], q[3]), (1.5, 3.0));
    /// # Ok::<(), nanops::Error>(())
    /// ```
    window fn move_quantile, move_quantile_axis(window: usize, min_count: Option<usize>, q: f64, method: QuantileMethod) -> E::Value
        where E: QuantileElement = MoveQuantile { spec: spec(window, min_count), q, method };

    /// Moving rank of each value among the non-NaN values of its window, as
    /// bottleneck's `move_rank`: with `less` values below it and `equal`
    /// equal to it (itself included) among `n`,
    ///
    /// ```text
    /// r = 2·(0.5·(2·less + equal − 1)/(n − 1) − 0.5)   in [−1, 1]
    /// ```
    ///
    /// 0 where `n = 1`, NaN where the value is NaN or `n < min_count`
    /// (`-0.0` equals `0.0`). O(log window) per step.
    ///
    /// # Errors
    /// As [`move_sum`].
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![3.0, 1.0, 2.0, 2.0];
    /// let r = nanops::move_rank(&a, 3, Some(1), -1)?;
    /// assert_eq!(r, array![0.0, -1.0, 0.0, 0.5].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    window fn move_rank, move_rank_axis(window: usize, min_count: Option<usize>) -> E::Value
        where E: QuantileElement = MoveRank(spec(window, min_count));

    /// Exponentially weighted moving mean of the non-NaN values along
    /// `axis`, as numbagg's `move_exp_nanmean`: at position `i`, with
    /// `dᵢ = 1 − αᵢ`, every decayed sum is multiplied by `dᵢ` (NaN
    /// positions decay the history too), then takes `xᵢ` unless it is NaN:
    ///
    /// ```text
    /// Σx ← dᵢ·Σx + xᵢ    Σw ← dᵢ·Σw + 1    weight ← dᵢ·weight + αᵢ
    /// out[i] = Σx / Σw   where weight ≥ min_weight, else NaN
    /// ```
    ///
    /// `alpha` holds one value for every position, or one per position of
    /// the axis (`αᵢ`); its values are not checked (numbagg's: `0..=1` makes
    /// sense). Computed in `f64` with numbagg's operations in its order,
    /// rounded once to the result type (`f64` for integers and `bool`).
    ///
    /// # Errors
    /// [`Error::AlphaLength`](crate::Error::AlphaLength) for an `alpha` of
    /// neither one value nor the axis length; axis errors.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![1.0, f64::NAN, 4.0];
    /// let m = nanops::move_exp_nanmean(&a, &[0.5], 0.0, -1)?;
    /// // at the last position: (0.25·1 + 4) / (0.25 + 1)
    /// assert_eq!(m, array![1.0, 1.0, 3.4].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    window fn move_exp_nanmean, move_exp_nanmean_axis(alpha: &[f64], min_weight: f64) -> E::Value
        where E: QuantileElement = MoveExp { stat: ExpStat::Mean, alpha, min_weight };

    /// Exponentially weighted moving sum of the non-NaN values, as numbagg's
    /// `move_exp_nansum`: `Σx` of [`move_exp_nanmean`], NaN before the
    /// first non-NaN value and where `weight < min_weight`.
    ///
    /// # Errors
    /// As [`move_exp_nanmean`].
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![f64::NAN, 2.0, f64::NAN, 4.0];
    /// let s = nanops::move_exp_nansum(&a, &[0.5], 0.0, -1)?;
    /// assert!(s[0].is_nan());
    /// assert_eq!((s[1], s[2], s[3]), (2.0, 1.0, 4.5));
    /// # Ok::<(), nanops::Error>(())
    /// ```
    window fn move_exp_nansum, move_exp_nansum_axis(alpha: &[f64], min_weight: f64) -> E::Value
        where E: QuantileElement = MoveExp { stat: ExpStat::Sum, alpha, min_weight };

    /// Exponentially weighted moving variance of the non-NaN values, as
    /// numbagg's `move_exp_nanvar` (pandas' `ewm(...).var(bias=False)`):
    /// with the decayed sums of [`move_exp_nanmean`] and
    /// `Σx² ← dᵢ·Σx² + xᵢ²`, `Σw² ← dᵢ²·Σw² + 1`,
    ///
    /// ```text
    /// out[i] = (Σx²/Σw − (Σx/Σw)²) / (1 − Σw²/Σw²)
    /// ```
    ///
    /// where `weight ≥ min_weight` and the bias factor `1 − Σw²/Σw²` is
    /// positive, NaN elsewhere (numbagg's sums of squares, whose difference
    /// loses digits when the values' mean is large against their spread).
    ///
    /// # Errors
    /// As [`move_exp_nanmean`].
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![1.0, 3.0];
    /// let v: ndarray::ArrayD<f64> = nanops::move_exp_nanvar(&a, &[0.5], 0.0, -1)?;
    /// // biased variance 8/9, bias factor 1 − 1.25/1.5² = 4/9
    /// assert!(v[0].is_nan());
    /// assert!((v[1] - 2.0).abs() < 1e-12);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    window fn move_exp_nanvar, move_exp_nanvar_axis(alpha: &[f64], min_weight: f64) -> E::Value
        where E: QuantileElement = MoveExp { stat: ExpStat::Var, alpha, min_weight };

    /// Exponentially weighted moving standard deviation: the square root of
    /// [`move_exp_nanvar`], as numbagg's `move_exp_nanstd`.
    ///
    /// # Errors
    /// As [`move_exp_nanmean`].
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![1.0, 3.0];
    /// let s: ndarray::ArrayD<f64> = nanops::move_exp_nanstd(&a, &[0.5], 0.0, -1)?;
    /// assert!((s[1] - 2f64.sqrt()).abs() < 1e-12);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    window fn move_exp_nanstd, move_exp_nanstd_axis(alpha: &[f64], min_weight: f64) -> E::Value
        where E: QuantileElement = MoveExp { stat: ExpStat::Std, alpha, min_weight };

    /// Exponentially weighted moving count of the non-NaN values, as
    /// numbagg's `move_exp_nancount`: `Σw` of [`move_exp_nanmean`] (NaN
    /// where `weight < min_weight`).
    ///
    /// # Errors
    /// As [`move_exp_nanmean`].
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![1.0, f64::NAN, 1.0];
    /// let c = nanops::move_exp_nancount(&a, &[0.5], 0.0, 0)?;
    /// assert_eq!(c, array![1.0, 0.5, 1.25].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    window fn move_exp_nancount, move_exp_nancount_axis(alpha: &[f64], min_weight: f64) -> E::Value
        where E: QuantileElement = MoveExp { stat: ExpStat::Count, alpha, min_weight };

    /// Forward fill: each NaN replaced by the last non-NaN value before it
    /// along `axis`, if that is at most `limit` positions back (`None`: any
    /// distance), as pandas' `ffill(limit=)` and bottleneck's `push(a, n)`;
    /// the input's type, other values copied (integers and `bool` unchanged).
    ///
    /// # Errors
    /// Axis errors.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![f64::NAN, 1.0, f64::NAN, f64::NAN];
    /// let f = nanops::ffill(&a, Some(1), -1)?;
    /// assert!(f[0].is_nan() && f[3].is_nan());
    /// assert_eq!((f[1], f[2]), (1.0, 1.0));
    /// # Ok::<(), nanops::Error>(())
    /// ```
    window fn ffill, ffill_axis(limit: Option<usize>) -> E
        where E: Element = Fill { limit, backward: false };

    /// Backward fill: each NaN replaced by the first non-NaN value after it
    /// along `axis`, if at most `limit` positions ahead (see [`ffill`]).
    ///
    /// # Errors
    /// Axis errors.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![f64::NAN, f64::NAN, 2.0];
    /// assert_eq!(nanops::bfill(&a, None, 0)?, array![2.0, 2.0, 2.0].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    window fn bfill, bfill_axis(limit: Option<usize>) -> E
        where E: Element = Fill { limit, backward: true };

    /// The rank of each value along `axis`, from 1, equal values sharing the
    /// mean of their ranks (bottleneck's `rankdata`); NaN ranks after every
    /// other value, each NaN apart in the order of position. Ranks over the
    /// whole array (bottleneck's `axis=None`): `rankdata(&a.flatten(), 0)`.
    ///
    /// # Errors
    /// Axis errors.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![3.0, f64::NAN, 1.0, 3.0];
    /// assert_eq!(nanops::rankdata(&a, 0)?, array![2.5, 4.0, 1.0, 2.5].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    window fn rankdata, rankdata_axis() -> f64 where E: QuantileElement = Rank { nan_ranked: true };

    /// [`rankdata`] of the non-NaN values along `axis`; NaN where the value
    /// is NaN (bottleneck's `nanrankdata`).
    ///
    /// # Errors
    /// Axis errors.
    ///
    /// ```
    /// use ndarray::array;
    /// let r = nanops::nanrankdata(&array![3.0, f64::NAN, 1.0, 3.0], 0)?;
    /// assert!(r[1].is_nan());
    /// assert_eq!((r[0], r[2], r[3]), (2.5, 1.0, 2.5));
    /// # Ok::<(), nanops::Error>(())
    /// ```
    window fn nanrankdata, nanrankdata_axis() -> f64
        where E: QuantileElement = Rank { nan_ranked: false };

    /// A copy of `a` rearranged along `axis` so that position `kth` of each
    /// lane holds the value sorting would put there, the positions before it
    /// values not greater and those after it values not less, in no given
    /// order (NumPy's and bottleneck's `partition`; NaN sorts last, as
    /// NumPy's). Over the whole array: `partition(&a.flatten(), kth, 0)`.
    ///
    /// # Errors
    /// Axis errors; [`Error::InvalidKth`](crate::Error::InvalidKth) unless
    /// `kth` is below the length of the axis (any `kth` for an empty axis).
    ///
    /// ```
    /// use ndarray::array;
    /// let p = nanops::partition(&array![5, 1, 4, 2, 3], 2, 0)?;
    /// assert_eq!(p[2], 3);
    /// assert!(p.iter().take(2).all(|&x| x < 3) && p.iter().skip(3).all(|&x| x > 3));
    /// # Ok::<(), nanops::Error>(())
    /// ```
    window fn partition, partition_axis(kth: usize) -> E
        where E: QuantileElement = Partition { kth };

    /// The positions along `axis` that would [`partition`] each lane: `a`
    /// taken at them is a partition of `a` at `kth` (NumPy's and
    /// bottleneck's `argpartition`).
    ///
    /// # Errors
    /// As [`partition`].
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![5.0, 1.0, f64::NAN, 2.0];
    /// let at = nanops::argpartition(&a, 1, 0)?;
    /// assert_eq!(a[at[1]], 2.0);
    /// assert!(a[at[3]].is_nan());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    window fn argpartition, argpartition_axis(kth: usize) -> usize
        where E: QuantileElement = ArgPartition { kth };

    /// Sum of the non-NaN values of each group; an empty group sums to zero.
    ///
    /// ```text
    /// group_nansum(x)ₖ = Σ { xⱼ : labelsⱼ = k, xⱼ not NaN }
    /// ```
    ///
    /// `labels` has the shape of `a` along `axes` (an integer, several axes
    /// or [`Axes::All`]; the axes in increasing order): the value at labels'
    /// position `j` goes to group `labels[j]`; negative labels are skipped.
    /// The result has the kept axes of `a`, then one axis of `num_labels`
    /// groups (`None`: the largest label plus one), as numbagg's `group_*`.
    /// Accumulated as [`nansum`] (compensated, in [`Element::Acc`]).
    ///
    /// # Errors
    /// [`Error::LabelsShape`](crate::Error::LabelsShape),
    /// [`Error::LabelOutOfRange`](crate::Error::LabelOutOfRange) (a label at
    /// or above `num_labels`), axis errors.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![1.0, f64::NAN, 3.0, 4.0];
    /// let labels = array![0, 0, 2, -1];
    /// assert_eq!(nanops::group_nansum(&a, &labels, 0, None)?, array![1.0, 0.0, 3.0].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    group fn group_nansum() -> E::Sum where E: Element = Streaming(NanSum);

    /// Product of the non-NaN values of each group; an empty group gives one.
    ///
    /// ```text
    /// group_nanprod(x)ₖ = Π { xⱼ : labelsⱼ = k, xⱼ not NaN }
    /// ```
    ///
    /// `labels` has the shape of `a` along `axes` (an integer, several axes
    /// or [`Axes::All`]; the axes in increasing order): the value at labels'
    /// position `j` goes to group `labels[j]`; negative labels are skipped.
    /// The result has the kept axes of `a`, then one axis of `num_labels`
    /// groups (`None`: the largest label plus one), as numbagg's `group_*`.
    ///
    /// # Errors
    /// [`Error::LabelsShape`](crate::Error::LabelsShape),
    /// [`Error::LabelOutOfRange`](crate::Error::LabelOutOfRange) (a label at
    /// or above `num_labels`), axis errors.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![2.0, 3.0, f64::NAN];
    /// let labels = array![0, 0, 1];
    /// assert_eq!(nanops::group_nanprod(&a, &labels, 0, None)?, array![6.0, 1.0].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    group fn group_nanprod() -> E::Sum where E: Element = Streaming(NanProd);

    /// Number of non-NaN values of each group.
    ///
    /// ```text
    /// group_nancount(x)ₖ = #{ j : labelsⱼ = k, xⱼ not NaN }
    /// ```
    ///
    /// `labels` has the shape of `a` along `axes` (an integer, several axes
    /// or [`Axes::All`]; the axes in increasing order): the value at labels'
    /// position `j` goes to group `labels[j]`; negative labels are skipped.
    /// The result has the kept axes of `a`, then one axis of `num_labels`
    /// groups (`None`: the largest label plus one), as numbagg's `group_*`.
    ///
    /// # Errors
    /// [`Error::LabelsShape`](crate::Error::LabelsShape),
    /// [`Error::LabelOutOfRange`](crate::Error::LabelOutOfRange) (a label at
    /// or above `num_labels`), axis errors.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![2.0, f64::NAN, 3.0];
    /// let labels = array![0, 0, 1];
    /// assert_eq!(nanops::group_nancount(&a, &labels, 0, Some(3))?, array![1, 1, 0].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    group fn group_nancount() -> u64 where E: Element = Streaming(NanCount);

    /// Mean of the non-NaN values of each group; NaN for an empty group (as [`nanmean`] of an empty slice).
    ///
    /// ```text
    /// group_nanmean(x)ₖ = group_nansum(x)ₖ / group_nancount(x)ₖ
    /// ```
    ///
    /// `labels` has the shape of `a` along `axes` (an integer, several axes
    /// or [`Axes::All`]; the axes in increasing order): the value at labels'
    /// position `j` goes to group `labels[j]`; negative labels are skipped.
    /// The result has the kept axes of `a`, then one axis of `num_labels`
    /// groups (`None`: the largest label plus one), as numbagg's `group_*`.
    ///
    /// # Errors
    /// [`Error::LabelsShape`](crate::Error::LabelsShape),
    /// [`Error::LabelOutOfRange`](crate::Error::LabelOutOfRange) (a label at
    /// or above `num_labels`), axis errors.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![[1.0, 3.0, 5.0], [2.0, f64::NAN, 6.0]];
    /// let labels = array![0, 0, 1];
    /// let m = nanops::group_nanmean(&a, &labels, 1, None)?;
    /// assert_eq!(m, array![[2.0, 5.0], [2.0, 6.0]].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    group fn group_nanmean() -> E::Mean where E: Element = Streaming(NanMean);

    /// Variance of the non-NaN values of each group with `ddof` (numbagg's and pandas' default is 1); NaN where `count − ddof ≤ 0`.
    ///
    /// ```text
    /// group_nanvar(x)ₖ = Σ (xⱼ − meanₖ)² / (countₖ − ddof)
    /// ```
    ///
    /// `labels` has the shape of `a` along `axes` (an integer, several axes
    /// or [`Axes::All`]; the axes in increasing order): the value at labels'
    /// position `j` goes to group `labels[j]`; negative labels are skipped.
    /// The result has the kept axes of `a`, then one axis of `num_labels`
    /// groups (`None`: the largest label plus one), as numbagg's `group_*`.
    ///
    /// # Errors
    /// [`Error::LabelsShape`](crate::Error::LabelsShape),
    /// [`Error::LabelOutOfRange`](crate::Error::LabelOutOfRange) (a label at
    /// or above `num_labels`), axis errors.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![1.0, 3.0, f64::NAN, 7.0];
    /// let labels = array![0, 0, 0, 1];
    /// let v = nanops::group_nanvar(&a, &labels, 0, None, 1.0)?;
    /// assert_eq!(v[0], 2.0);
    /// assert!(v[1].is_nan()); // one value, ddof = 1
    /// # Ok::<(), nanops::Error>(())
    /// ```
    group fn group_nanvar(ddof: impl Into<Ddof>) -> E::Var where E: Element = GroupMoments(VarOrStd::from(NanVar(ddof.into())));

    /// Standard deviation of the non-NaN values of each group with `ddof`; NaN where `count − ddof ≤ 0`.
    ///
    /// ```text
    /// group_nanstd(x)ₖ = √ group_nanvar(x)ₖ
    /// ```
    ///
    /// `labels` has the shape of `a` along `axes` (an integer, several axes
    /// or [`Axes::All`]; the axes in increasing order): the value at labels'
    /// position `j` goes to group `labels[j]`; negative labels are skipped.
    /// The result has the kept axes of `a`, then one axis of `num_labels`
    /// groups (`None`: the largest label plus one), as numbagg's `group_*`.
    ///
    /// # Errors
    /// [`Error::LabelsShape`](crate::Error::LabelsShape),
    /// [`Error::LabelOutOfRange`](crate::Error::LabelOutOfRange) (a label at
    /// or above `num_labels`), axis errors.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![1.0, 3.0, 5.0];
    /// let labels = array![0, 0, 1];
    /// assert_eq!(nanops::group_nanstd(&a, &labels, 0, None, 0.0)?, array![1.0, 0.0].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    group fn group_nanstd(ddof: impl Into<Ddof>) -> E::Var where E: Element = GroupMoments(VarOrStd::from(NanStd(ddof.into())));

    /// Skewness of the non-NaN values of each group, as [`nanskew`] (scipy's `skew`); NaN for fewer than two values.
    ///
    /// ```text
    /// group_nanskew(x)ₖ = nanskew({ xⱼ : labelsⱼ = k })
    /// ```
    ///
    /// `labels` has the shape of `a` along `axes` (an integer, several axes
    /// or [`Axes::All`]; the axes in increasing order): the value at labels'
    /// position `j` goes to group `labels[j]`; negative labels are skipped.
    /// The result has the kept axes of `a`, then one axis of `num_labels`
    /// groups (`None`: the largest label plus one), as numbagg's `group_*`.
    ///
    /// # Errors
    /// [`Error::LabelsShape`](crate::Error::LabelsShape),
    /// [`Error::LabelOutOfRange`](crate::Error::LabelOutOfRange) (a label at
    /// or above `num_labels`), axis errors.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![1.0, 2.0, 10.0, 5.0, 5.0];
    /// let labels = array![0, 0, 0, 1, 1];
    /// let s: ndarray::ArrayD<f64> = nanops::group_nanskew(&a, &labels, 0, None, true)?;
    /// assert!(s[0] > 0.0 && s[1].is_nan()); // group 1 has no spread
    /// # Ok::<(), nanops::Error>(())
    /// ```
    group fn group_nanskew(bias: bool) -> E::Var where E: QuantileElement = Streaming(NanSkew { bias });

    /// Kurtosis of the non-NaN values of each group, as [`nankurt`] (scipy's `kurtosis`); NaN for fewer than two values.
    ///
    /// ```text
    /// group_nankurt(x)ₖ = nankurt({ xⱼ : labelsⱼ = k })
    /// ```
    ///
    /// `labels` has the shape of `a` along `axes` (an integer, several axes
    /// or [`Axes::All`]; the axes in increasing order): the value at labels'
    /// position `j` goes to group `labels[j]`; negative labels are skipped.
    /// The result has the kept axes of `a`, then one axis of `num_labels`
    /// groups (`None`: the largest label plus one), as numbagg's `group_*`.
    ///
    /// # Errors
    /// [`Error::LabelsShape`](crate::Error::LabelsShape),
    /// [`Error::LabelOutOfRange`](crate::Error::LabelOutOfRange) (a label at
    /// or above `num_labels`), axis errors.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![1.0, 2.0, 3.0, 4.0];
    /// let labels = array![0, 0, 0, 0];
    /// let k: ndarray::ArrayD<f64> = nanops::group_nankurt(&a, &labels, 0, None, true, true)?;
    /// assert!((k[0] + 1.36).abs() < 1e-12);
    /// # Ok::<(), nanops::Error>(())
    /// ```
    group fn group_nankurt(bias: bool, fisher: bool) -> E::Var where E: QuantileElement = Streaming(NanKurt { bias, fisher });

    /// Minimum of the non-NaN values of each group; NaN for an empty group (floats).
    ///
    /// ```text
    /// group_nanmin(x)ₖ = min { xⱼ : labelsⱼ = k, xⱼ not NaN }
    /// ```
    ///
    /// `labels` has the shape of `a` along `axes` (an integer, several axes
    /// or [`Axes::All`]; the axes in increasing order): the value at labels'
    /// position `j` goes to group `labels[j]`; negative labels are skipped.
    /// The result has the kept axes of `a`, then one axis of `num_labels`
    /// groups (`None`: the largest label plus one), as numbagg's `group_*`.
    ///
    /// # Errors
    /// [`Error::LabelsShape`](crate::Error::LabelsShape),
    /// [`Error::LabelOutOfRange`](crate::Error::LabelOutOfRange) (a label at
    /// or above `num_labels`), axis errors, [`Error::EmptyGroup`](crate::Error::EmptyGroup) for an empty group of integers (no NaN to give).
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![3.0, 1.0, f64::NAN, 2.0];
    /// let labels = array![0, 0, 1, 2];
    /// let m = nanops::group_nanmin(&a, &labels, 0, None)?;
    /// assert_eq!((m[0], m[2]), (1.0, 2.0));
    /// assert!(m[1].is_nan());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    group fn group_nanmin() -> E where E: Element = Streaming(NanMin);

    /// Maximum of the non-NaN values of each group; NaN for an empty group (floats).
    ///
    /// ```text
    /// group_nanmax(x)ₖ = max { xⱼ : labelsⱼ = k, xⱼ not NaN }
    /// ```
    ///
    /// `labels` has the shape of `a` along `axes` (an integer, several axes
    /// or [`Axes::All`]; the axes in increasing order): the value at labels'
    /// position `j` goes to group `labels[j]`; negative labels are skipped.
    /// The result has the kept axes of `a`, then one axis of `num_labels`
    /// groups (`None`: the largest label plus one), as numbagg's `group_*`.
    ///
    /// # Errors
    /// [`Error::LabelsShape`](crate::Error::LabelsShape),
    /// [`Error::LabelOutOfRange`](crate::Error::LabelOutOfRange) (a label at
    /// or above `num_labels`), axis errors, [`Error::EmptyGroup`](crate::Error::EmptyGroup) for an empty group of integers (no NaN to give).
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![3, 1, 7];
    /// let labels = array![0, 0, 1];
    /// assert_eq!(nanops::group_nanmax(&a, &labels, 0, None)?, array![3, 7].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    group fn group_nanmax() -> E where E: Element = Streaming(NanMax);

    /// Position of the first minimum of the non-NaN values of each group, as `f64`; NaN for an empty group (numbagg's result).
    ///
    /// ```text
    /// group_nanargmin(x)ₖ = min { j : labelsⱼ = k, xⱼ = group_nanmin(x)ₖ }
    /// ```
    ///
    /// `labels` has the shape of `a` along `axes` (an integer, several axes
    /// or [`Axes::All`]; the axes in increasing order): the value at labels'
    /// position `j` goes to group `labels[j]`; negative labels are skipped.
    /// The result has the kept axes of `a`, then one axis of `num_labels`
    /// groups (`None`: the largest label plus one), as numbagg's `group_*`.
    /// The position is the flat (C-order) index over the grouped axes.
    ///
    /// # Errors
    /// [`Error::LabelsShape`](crate::Error::LabelsShape),
    /// [`Error::LabelOutOfRange`](crate::Error::LabelOutOfRange) (a label at
    /// or above `num_labels`), axis errors.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![3.0, 1.0, 5.0, 1.0];
    /// let labels = array![0, 0, 1, 0];
    /// assert_eq!(nanops::group_nanargmin(&a, &labels, 0, None)?, array![1.0, 2.0].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    group fn group_nanargmin() -> f64 where E: Element = GroupArg::<false>;

    /// Position of the first maximum of the non-NaN values of each group, as `f64`; NaN for an empty group (numbagg's result).
    ///
    /// ```text
    /// group_nanargmax(x)ₖ = min { j : labelsⱼ = k, xⱼ = group_nanmax(x)ₖ }
    /// ```
    ///
    /// `labels` has the shape of `a` along `axes` (an integer, several axes
    /// or [`Axes::All`]; the axes in increasing order): the value at labels'
    /// position `j` goes to group `labels[j]`; negative labels are skipped.
    /// The result has the kept axes of `a`, then one axis of `num_labels`
    /// groups (`None`: the largest label plus one), as numbagg's `group_*`.
    /// The position is the flat (C-order) index over the grouped axes.
    ///
    /// # Errors
    /// [`Error::LabelsShape`](crate::Error::LabelsShape),
    /// [`Error::LabelOutOfRange`](crate::Error::LabelOutOfRange) (a label at
    /// or above `num_labels`), axis errors.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![3.0, 1.0, 5.0, 3.0];
    /// let labels = array![0, 0, 1, 0];
    /// assert_eq!(nanops::group_nanargmax(&a, &labels, 0, None)?, array![0.0, 2.0].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    group fn group_nanargmax() -> f64 where E: Element = GroupArg::<true>;

    /// First non-NaN value of each group (in C order over the grouped axes); NaN for an empty group (floats).
    ///
    /// ```text
    /// group_nanfirst(x)ₖ = x_min{ j : labelsⱼ = k, xⱼ not NaN }
    /// ```
    ///
    /// `labels` has the shape of `a` along `axes` (an integer, several axes
    /// or [`Axes::All`]; the axes in increasing order): the value at labels'
    /// position `j` goes to group `labels[j]`; negative labels are skipped.
    /// The result has the kept axes of `a`, then one axis of `num_labels`
    /// groups (`None`: the largest label plus one), as numbagg's `group_*`.
    ///
    /// # Errors
    /// [`Error::LabelsShape`](crate::Error::LabelsShape),
    /// [`Error::LabelOutOfRange`](crate::Error::LabelOutOfRange) (a label at
    /// or above `num_labels`), axis errors, [`Error::EmptyGroup`](crate::Error::EmptyGroup) for an empty group of integers (no NaN to give).
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![f64::NAN, 2.0, 3.0];
    /// let labels = array![0, 0, 0];
    /// assert_eq!(nanops::group_nanfirst(&a, &labels, 0, None)?, array![2.0].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    group fn group_nanfirst() -> E where E: Element = GroupEnd::<false>;

    /// Last non-NaN value of each group (in C order over the grouped axes); NaN for an empty group (floats).
    ///
    /// ```text
    /// group_nanlast(x)ₖ = x_max{ j : labelsⱼ = k, xⱼ not NaN }
    /// ```
    ///
    /// `labels` has the shape of `a` along `axes` (an integer, several axes
    /// or [`Axes::All`]; the axes in increasing order): the value at labels'
    /// position `j` goes to group `labels[j]`; negative labels are skipped.
    /// The result has the kept axes of `a`, then one axis of `num_labels`
    /// groups (`None`: the largest label plus one), as numbagg's `group_*`.
    ///
    /// # Errors
    /// [`Error::LabelsShape`](crate::Error::LabelsShape),
    /// [`Error::LabelOutOfRange`](crate::Error::LabelOutOfRange) (a label at
    /// or above `num_labels`), axis errors, [`Error::EmptyGroup`](crate::Error::EmptyGroup) for an empty group of integers (no NaN to give).
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![1.0, 2.0, f64::NAN];
    /// let labels = array![0, 0, 0];
    /// assert_eq!(nanops::group_nanlast(&a, &labels, 0, None)?, array![2.0].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    group fn group_nanlast() -> E where E: Element = GroupEnd::<true>;

    /// Whether any non-NaN value of each group is nonzero (`false` for an empty group).
    ///
    /// ```text
    /// group_nanany(x)ₖ = ∃ j : labelsⱼ = k, xⱼ not NaN, xⱼ ≠ 0
    /// ```
    ///
    /// `labels` has the shape of `a` along `axes` (an integer, several axes
    /// or [`Axes::All`]; the axes in increasing order): the value at labels'
    /// position `j` goes to group `labels[j]`; negative labels are skipped.
    /// The result has the kept axes of `a`, then one axis of `num_labels`
    /// groups (`None`: the largest label plus one), as numbagg's `group_*`.
    ///
    /// # Errors
    /// [`Error::LabelsShape`](crate::Error::LabelsShape),
    /// [`Error::LabelOutOfRange`](crate::Error::LabelOutOfRange) (a label at
    /// or above `num_labels`), axis errors.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![0.0, f64::NAN, 2.0];
    /// let labels = array![0, 0, 1];
    /// assert_eq!(nanops::group_nanany(&a, &labels, 0, None)?, array![false, true].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    group fn group_nanany() -> bool where E: Element = GroupTruth::<false>;

    /// Whether every non-NaN value of each group is nonzero (`true` for an empty group).
    ///
    /// ```text
    /// group_nanall(x)ₖ = ∀ j : labelsⱼ = k, xⱼ not NaN ⇒ xⱼ ≠ 0
    /// ```
    ///
    /// `labels` has the shape of `a` along `axes` (an integer, several axes
    /// or [`Axes::All`]; the axes in increasing order): the value at labels'
    /// position `j` goes to group `labels[j]`; negative labels are skipped.
    /// The result has the kept axes of `a`, then one axis of `num_labels`
    /// groups (`None`: the largest label plus one), as numbagg's `group_*`.
    ///
    /// # Errors
    /// [`Error::LabelsShape`](crate::Error::LabelsShape),
    /// [`Error::LabelOutOfRange`](crate::Error::LabelOutOfRange) (a label at
    /// or above `num_labels`), axis errors.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![0.0, 1.0, f64::NAN];
    /// let labels = array![0, 0, 1];
    /// assert_eq!(nanops::group_nanall(&a, &labels, 0, None)?, array![false, true].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    group fn group_nanall() -> bool where E: Element = GroupTruth::<true>;

    /// Sum of the squares of the non-NaN values of each group; zero for an empty group.
    ///
    /// ```text
    /// group_nansum_of_squares(x)ₖ = Σ { xⱼ² : labelsⱼ = k, xⱼ not NaN }
    /// ```
    ///
    /// `labels` has the shape of `a` along `axes` (an integer, several axes
    /// or [`Axes::All`]; the axes in increasing order): the value at labels'
    /// position `j` goes to group `labels[j]`; negative labels are skipped.
    /// The result has the kept axes of `a`, then one axis of `num_labels`
    /// groups (`None`: the largest label plus one), as numbagg's `group_*`.
    /// Accumulated as [`nansum`]; integers wrap on overflow.
    ///
    /// # Errors
    /// [`Error::LabelsShape`](crate::Error::LabelsShape),
    /// [`Error::LabelOutOfRange`](crate::Error::LabelOutOfRange) (a label at
    /// or above `num_labels`), axis errors.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![1.0, 2.0, f64::NAN];
    /// let labels = array![0, 0, 1];
    /// assert_eq!(nanops::group_nansum_of_squares(&a, &labels, 0, None)?, array![5.0, 0.0].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    group fn group_nansum_of_squares() -> E::Sum where E: QuantileElement = GroupSumOfSquares;

    /// Median of the non-NaN values of each group; NaN for an empty group
    /// (as [`nanmedian`] of an all-NaN slice).
    ///
    /// ```text
    /// group_nanmedian(x)ₖ = nanmedian({ xⱼ : labelsⱼ = k })
    /// ```
    ///
    /// `labels` has the shape of `a` along `axes` (an integer, several axes
    /// or [`Axes::All`]; the axes in increasing order): the value at labels'
    /// position `j` goes to group `labels[j]`; negative labels are skipped.
    /// The result has the kept axes of `a`, then one axis of `num_labels`
    /// groups (`None`: the largest label plus one). Each output's valid
    /// values are sorted by label (a counting sort), then each group's
    /// median is selected (never sorted), groups in parallel.
    ///
    /// # Errors
    /// [`Error::LabelsShape`](crate::Error::LabelsShape),
    /// [`Error::LabelOutOfRange`](crate::Error::LabelOutOfRange), axis errors.
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![1.0, 5.0, 2.0, f64::NAN, 7.0];
    /// let labels = array![0, 0, 0, 1, 2];
    /// let m = nanops::group_nanmedian(&a, &labels, 0, None)?;
    /// assert_eq!((m[0], m[2]), (2.0, 7.0));
    /// assert!(m[1].is_nan());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    group fn group_nanmedian() -> E::Value where E: QuantileElement = GroupQuantiles::median();

    /// Quantiles of the non-NaN values of each group, [`nanquantile`]'s 13
    /// methods and weights; NaN for an empty group.
    ///
    /// ```text
    /// group_nanquantile(x, q)ᵢₖ = nanquantile({ xⱼ : labelsⱼ = k }, qᵢ)
    /// ```
    ///
    /// Labels as [`group_nanmedian`]; the result has `q`'s axis first, then
    /// the kept axes, then the groups. `weights` (non-negative, finite on
    /// the non-NaN values: a NaN value is skipped with its weight) has the
    /// labels' shape (one weight per grouped position) or `a`'s shape; only
    /// `inverted_cdf` and `averaged_inverted_cdf` take weights, and a group
    /// whose weights are all zero gives NaN, as an empty group. The
    /// arithmetic is `nanquantile`'s with `q` a float64 and the result in
    /// `E::Value` (float32 stays float32).
    ///
    /// # Errors
    /// As [`group_nanmedian`], and
    /// [`Error::InvalidQuantile`](crate::Error::InvalidQuantile),
    /// [`Error::WeightsShape`](crate::Error::WeightsShape),
    /// [`Error::InvalidWeight`](crate::Error::InvalidWeight),
    /// [`Error::WeightsUnsupported`](crate::Error::WeightsUnsupported).
    ///
    /// ```
    /// use ndarray::array;
    /// use nanops::QuantileMethod;
    /// let a = array![1.0, 2.0, 3.0, 4.0, 10.0];
    /// let labels = array![0, 0, 0, 0, 1];
    /// let q = nanops::group_nanquantile(&a, &labels, 0, None, &[0.5, 1.0], QuantileMethod::Linear, None)?;
    /// assert_eq!(q, array![[2.5, 10.0], [4.0, 10.0]].into_dyn());
    /// # Ok::<(), nanops::Error>(())
    /// ```
    group fn group_nanquantile(q: &[f64], method: QuantileMethod, weights: Option<ArrayViewD<'_, f64>>) -> E::Value
        where E: QuantileElement = GroupQuantiles { qs: Some(q), method, weights };
}

/// Whether each slice over `axes` holds a NaN (bottleneck's and numbagg's
/// `anynan`): `false` for empty slices and for integers. A slice is read
/// only up to its first NaN (in blocks); C-contiguous arrays reduced over
/// every axis, the last or the first are answered by one ordered walk,
/// other layouts by the reduce driver.
///
/// # Errors
/// Axis errors.
///
/// ```
/// use ndarray::array;
/// let a = array![[1.0, f64::NAN], [2.0, 3.0]];
/// assert_eq!(nanops::anynan(&a, 1)?, array![true, false].into_dyn());
/// assert!(nanops::anynan(&a, nanops::Axes::All)?[[]]);
/// # Ok::<(), nanops::Error>(())
/// ```
pub fn anynan<S, E, D>(a: &ArrayBase<S, D>, axes: impl Into<Axes>) -> Result<ArrayD<bool>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
{
    flags::<E, false>(a.view().into_dyn(), axes.into())
}

/// [`anynan`] along one [`Axis`], in the input's dimension less one.
///
/// # Errors
/// As [`anynan`].
pub fn anynan_axis<S, E, D>(a: &ArrayBase<S, D>, axis: Axis) -> Result<Array<bool, D::Smaller>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
{
    Ok(into_dim(flags::<E, false>(a.view().into_dyn(), one(axis))?))
}

/// Whether every value of each slice over `axes` is NaN (bottleneck's and
/// numbagg's `allnan`): `true` for empty slices, `false` for non-empty
/// slices of integers. A slice is read only up to its first value that is
/// not NaN, as [`anynan`] reads.
///
/// # Errors
/// Axis errors.
///
/// ```
/// use ndarray::{array, Axis};
/// let a = array![[f64::NAN, f64::NAN], [2.0, f64::NAN]];
/// assert_eq!(nanops::allnan_axis(&a, Axis(1))?, array![true, false]);
/// assert!(!nanops::allnan(&a, nanops::Axes::All)?[[]]);
/// # Ok::<(), nanops::Error>(())
/// ```
pub fn allnan<S, E, D>(a: &ArrayBase<S, D>, axes: impl Into<Axes>) -> Result<ArrayD<bool>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
{
    flags::<E, true>(a.view().into_dyn(), axes.into())
}

/// [`allnan`] along one [`Axis`], in the input's dimension less one.
///
/// # Errors
/// As [`allnan`].
pub fn allnan_axis<S, E, D>(a: &ArrayBase<S, D>, axis: Axis) -> Result<Array<bool, D::Smaller>>
where
    S: Data<Elem = E>,
    E: Element,
    D: Dimension,
{
    Ok(into_dim(flags::<E, true>(a.view().into_dyn(), one(axis))?))
}

/// `anynan` (`ALL = false`) or `allnan` of `view` over `axes`: the ordered
/// walk where the layout has one, else the reduce driver.
fn flags<E: Element, const ALL: bool>(view: ArrayViewD<'_, E>, axes: Axes) -> Result<ArrayD<bool>> {
    let normal = axes.normalize(view.ndim())?;
    if let Some(answers) = nan_flags::answer::<E, ALL>(&view, &normal) {
        return Ok(answers);
    }
    let axes = Axes::from(normal);
    Ok(if ALL {
        report(&view, axes, AllNan)?.values
    } else {
        report(&view, axes, AnyNan)?.values
    })
}
