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
    /// A function of one axis (`nanargmin`, `nanargmax`) was given several.
    TooManyAxes {
        /// The operation, as NumPy names it (`"argmin"`, `"argmax"`).
        op: &'static str,
    },
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
    /// A moving window outside `1..=len` (bottleneck's `ValueError`).
    InvalidWindow {
        /// The window given.
        window: usize,
        /// The length of the axis moved along.
        len: usize,
    },
    /// A `kth` outside `0..len` for `partition`/`argpartition` (NumPy's
    /// `ValueError`).
    InvalidKth {
        /// The `kth` given.
        kth: usize,
        /// The length of the axis partitioned along.
        len: usize,
    },
    /// A `min_count` of zero or above the window (bottleneck's `ValueError`).
    InvalidMinCount {
        /// The `min_count` given.
        min_count: usize,
        /// The window.
        window: usize,
    },
    /// An exponential moving function's `alpha` of a length other than one
    /// or the axis length (numbagg's core-dimension `ValueError`).
    AlphaLength {
        /// The number of values of `alpha` given.
        found: usize,
        /// The length of the axis moved along.
        len: usize,
    },
    /// A buffer the call needs (its result, a scratch copy) cannot be allocated
    /// (NumPy's `MemoryError`).
    ///
    /// Rust aborts the process when an allocation fails, so large buffers are
    /// probed first: an impossible request — typically a huge zero-stride
    /// (broadcast) view whose logical size is far beyond memory — is an error
    /// instead of an abort. `bytes` is `usize::MAX` when the size overflows.
    OutOfMemory {
        /// The bytes requested.
        bytes: usize,
    },
    /// Group labels whose shape is not the values' shape along the grouped axes.
    LabelsShape {
        /// The shape labels must have (the values' lengths along the axes).
        expected: Vec<usize>,
        /// The shape given.
        found: Vec<usize>,
    },
    /// The two arrays of a function of two series (`move_cov`, …) differ in
    /// shape (NumPy's broadcasting `ValueError`; the Python layer broadcasts
    /// first, as numbagg's gufuncs do).
    PairShapes {
        /// The first array's shape.
        first: Vec<usize>,
        /// The second array's shape.
        second: Vec<usize>,
    },
    /// A matrix function (`nancovmatrix`, `move_covmatrix`, …) given fewer
    /// than 2 dimensions: it needs an axis of variables and one of
    /// observations (numbagg's `ValueError`).
    MatrixDims {
        /// The array's number of dimensions.
        ndim: usize,
    },
    /// A group label at or above `num_labels`.
    LabelOutOfRange {
        /// The largest label.
        label: i64,
        /// The number of labels given.
        num_labels: usize,
    },
    /// A group without a valid value where the statistic has no value for it
    /// in the result type (the minimum of an empty group of integers).
    EmptyGroup {
        /// The statistic (`"group_nanmin"`, …).
        op: &'static str,
        /// The empty group's label.
        group: usize,
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
            Error::TooManyAxes { op } => {
                write!(f, "{op} takes one axis (or all of them), not several")
            }
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
            Error::InvalidWindow { window, len } => write!(
                f,
                "Moving window (={window}) must between 1 and {len}, inclusive"
            ),
            Error::InvalidKth { kth, len } => write!(f, "kth(={kth}) out of bounds ({len})"),
            Error::InvalidMinCount { min_count: 0, .. } => {
                write!(f, "`min_count` must be greater than zero.")
            }
            Error::InvalidMinCount { min_count, window } => write!(
                f,
                "min_count ({min_count}) cannot be greater than window ({window})"
            ),
            Error::AlphaLength { found, len } => write!(
                f,
                "alpha has {found} values; it must have one, or one per position of the axis ({len})"
            ),
            Error::OutOfMemory { bytes } if *bytes == usize::MAX => {
                write!(f, "Unable to allocate the memory needed (its size overflows usize)")
            }
            Error::OutOfMemory { bytes } => {
                let mut size = *bytes as f64;
                let mut unit = 0;
                while size >= 1024.0 && unit < 6 {
                    size /= 1024.0;
                    unit += 1;
                }
                let units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
                write!(f, "Unable to allocate {size:.2} {} for the result and scratch buffers", units[unit])
            }
            // numbagg's words and Python's tuples: callers match the message.
            Error::LabelsShape { expected, found } => write!(
                f,
                "values must have same shape along axis as labels: {} vs {}",
                PyTuple(expected),
                PyTuple(found)
            ),
            Error::PairShapes { first, second } => write!(
                f,
                "operands could not be broadcast together with shapes {} {}",
                PyTuple(first),
                PyTuple(second)
            ),
            Error::MatrixDims { ndim } => write!(
                f,
                "a matrix function needs at least 2 dimensions (variables and observations), got {ndim}"
            ),
            Error::LabelOutOfRange { label, num_labels } => write!(
                f,
                "label {label} is out of range for num_labels={num_labels} (labels must be below num_labels; negative labels are skipped)"
            ),
            Error::EmptyGroup { op, group } => write!(
                f,
                "{op}: group {group} has no value, and an integer result cannot hold NaN"
            ),
        }
    }
}

impl std::error::Error for Error {}

/// `Result` with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// A shape written as Python writes a tuple: `(5,)`, `(3, 4)`, `()`.
struct PyTuple<'a>(&'a [usize]);

impl fmt::Display for PyTuple<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            [one] => write!(f, "({one},)"),
            dims => {
                let parts: Vec<String> = dims.iter().map(usize::to_string).collect();
                write!(f, "({})", parts.join(", "))
            }
        }
    }
}

/// Requests below this many bytes are not probed (an allocation failure there
/// is not a bad input but an exhausted machine).
const PROBE_BYTES: usize = 1 << 26;

/// Fails with [`Error::OutOfMemory`] unless the buffers about to be allocated,
/// `(count, size of one element)` each, fit in memory now.
///
/// A failed allocation aborts a Rust process (and the Python interpreter
/// around it); probing with a fallible reservation first, freed at once,
/// turns an impossible request into an `Err`. Large reservations are only
/// address space (no page is touched), so the probe costs one `mmap`/`munmap`.
pub(crate) fn ensure_memory(buffers: &[(usize, usize)]) -> Result<()> {
    let mut total = 0usize;
    for &(count, size) in buffers {
        total = count
            .checked_mul(size)
            .and_then(|b| total.checked_add(b))
            .ok_or(Error::OutOfMemory { bytes: usize::MAX })?;
    }
    if total < PROBE_BYTES {
        return Ok(());
    }
    let mut probe: Vec<u8> = Vec::new();
    probe
        .try_reserve_exact(total)
        .map_err(|_| Error::OutOfMemory { bytes: total })
}
