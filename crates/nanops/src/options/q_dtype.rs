//! The precision of NumPy's quantile index arithmetic.

/// The NumPy dtype of the `q` argument, which sets the precision of the index arithmetic.
///
/// NumPy computes the virtual index `v`, `floor(v)` and the interpolation weight `γ` in the
/// dtype of `q` (a Python int `n` and the method's constants are cast to it), so a float32
/// `q` array gives float32 index arithmetic. The interpolation itself happens in the result
/// dtype, chosen by the caller as the output type `R` of the kernels:
///
/// ```text
/// q passed as                          QDtype    NumPy result dtype R (float input T)
/// Python float (scalar)                Float64   T            (NEP 50 weak scalar)
/// Python int 0 or 1 (scalar)           Integer   T
/// list / float64 array / np.float64    Float64   promote(T, float64) = float64
/// float32 array / np.float32           Float32   promote(T, float32)
/// float16 array / np.float16           Float16   promote(T, float16) = T
/// integer array                        Integer   float64 (T for the take-only methods)
/// ```
///
/// `Integer` differs from `Float64` only for `linear`: `(n - 1)·q` is then an integer and
/// NumPy takes `x[(n - 1)·q]` instead of interpolating (which matters for `±inf` values:
/// interpolating `inf` with itself gives NaN).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum QDtype {
    /// `q` is float64, or a Python float: index arithmetic in `f64`.
    #[default]
    Float64,
    /// `q` is float32: index arithmetic in `f32`.
    Float32,
    /// `q` is float16: index arithmetic in `f16` (`n` above 65504 becomes `inf`, as NumPy).
    Float16,
    /// `q` is an integer (only 0 and 1 are valid): as `Float64`, except that `linear` takes
    /// an order statistic without interpolation.
    Integer,
}
