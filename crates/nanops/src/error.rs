//! The one error type of the crate.

use std::fmt;

/// Everything that can go wrong in a nanops call.
///
/// Each variant corresponds to one exception NumPy raises for the same input
/// (the Python bindings map them one to one): axis problems are NumPy's
/// `AxisError`/`ValueError`, the rest `ValueError`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// An axis is outside `-ndim..ndim`.
    AxisOutOfBounds {
        /// The axis as given.
        axis: isize,
        /// The number of dimensions of the array.
        ndim: usize,
    },
    /// The same axis was named twice.
    DuplicateAxis {
        /// The repeated axis, normalised to `0..ndim`.
        axis: usize,
    },
    /// A reduction without identity (min, max, argmin, argmax) over zero elements.
    EmptyReduction {
        /// The operation, as NumPy names it in its message (`"fmin"`, `"argmin"`, …).
        op: &'static str,
    },
    /// `nanargmin`/`nanargmax` met a slice holding only NaN.
    AllNanSlice,
    /// A quantile outside `[0, 1]` (or NaN).
    InvalidQuantile {
        /// The offending value.
        q: f64,
    },
    /// Weights of the wrong shape.
    WeightsShape {
        /// The shape weights must have.
        expected: Vec<usize>,
        /// The shape given.
        found: Vec<usize>,
    },
    /// A negative or non-finite weight.
    InvalidWeight,
    /// Weights with a quantile method that does not define them.
    WeightsUnsupported {
        /// The method's NumPy name.
        method: &'static str,
    },
    /// An unknown quantile method name.
    UnknownMethod {
        /// The name given.
        name: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::AxisOutOfBounds { axis, ndim } => write!(
                f,
                "axis {axis} is out of bounds for array of dimension {ndim}"
            ),
            Error::DuplicateAxis { axis } => write!(f, "repeated axis {axis}"),
            Error::EmptyReduction { op } if op.starts_with("arg") => {
                write!(f, "attempt to get {op} of an empty sequence")
            }
            Error::EmptyReduction { op } => write!(
                f,
                "zero-size array to reduction operation {op} which has no identity"
            ),
            Error::AllNanSlice => write!(f, "All-NaN slice encountered"),
            Error::InvalidQuantile { q } => {
                write!(f, "Quantiles must be in the range [0, 1], got {q}")
            }
            Error::WeightsShape { expected, found } => write!(
                f,
                "weights of shape {found:?} do not match the array's shape {expected:?}"
            ),
            Error::InvalidWeight => write!(f, "Weights must be non-negative and finite."),
            Error::WeightsUnsupported { method } => write!(
                f,
                "Only method 'inverted_cdf' and 'averaged_inverted_cdf' support weights, got '{method}'."
            ),
            Error::UnknownMethod { name } => {
                write!(f, "'{name}' is not a valid method")
            }
        }
    }
}

impl std::error::Error for Error {}

/// `Result` with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
