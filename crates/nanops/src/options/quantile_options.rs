//! Everything a quantile takes besides the data, `q` and the axes.

use super::nan_policy::NanPolicy;
use super::q_dtype::QDtype;
use super::quantile_method::QuantileMethod;
use ndarray::ArrayViewD;

/// How quantiles are computed: method, NaN policy, weights and NumPy's dtype of `q`.
///
/// ```
/// use nanops::{NanPolicy, QuantileMethod, QuantileOptions};
/// let o = QuantileOptions::default();
/// assert_eq!(o.method, QuantileMethod::Linear);
/// assert_eq!(o.nan_policy, NanPolicy::Omit);
/// assert!(o.weights.is_none());
/// ```
#[derive(Clone, Debug, Default)]
pub struct QuantileOptions<'a> {
    /// One of NumPy's 13 methods.
    pub method: QuantileMethod,
    /// `Omit`: skip NaN (`nanquantile`); `Propagate`: a lane with NaN gives NaN (`quantile`).
    pub nan_policy: NanPolicy,
    /// Non-negative finite weights of the array's shape (possibly a broadcast
    /// view), for `InvertedCdf` and `AveragedInvertedCdf`.
    pub weights: Option<ArrayViewD<'a, f64>>,
    /// The NumPy dtype `q` had, which sets the precision of NumPy's index
    /// arithmetic (see [`QDtype`]); `Float64` for plain Rust use.
    pub q_dtype: QDtype,
}
