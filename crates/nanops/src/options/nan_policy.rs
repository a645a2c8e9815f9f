//! What a NaN in the data means.

/// What a NaN in a slice does to the slice's result.
///
/// `Omit` is NumPy's `nan*` functions (NaN marks a missing value and is
/// skipped); `Propagate` is NumPy's plain functions (`np.median`,
/// `np.quantile`: any NaN makes the slice's result NaN).
///
/// ```
/// use ndarray::array;
/// use nanops::{NanPolicy, Axes};
/// let a = array![1.0, f64::NAN, 3.0];
/// assert_eq!(nanops::nanmedian(&a, Axes::All)?[[]], 2.0);
/// assert!(nanops::median(&a, Axes::All)?[[]].is_nan());
/// assert_eq!(NanPolicy::default(), NanPolicy::Omit);
/// # Ok::<(), nanops::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum NanPolicy {
    /// Skip NaN: a slice's result is that of its other values.
    #[default]
    Omit,
    /// A slice holding a NaN gives NaN.
    Propagate,
}

impl NanPolicy {
    /// Whether NaN values are skipped.
    ///
    /// ```
    /// assert!(nanops::NanPolicy::Omit.skips_nan());
    /// ```
    #[inline(always)]
    pub fn skips_nan(self) -> bool {
        self == NanPolicy::Omit
    }
}
